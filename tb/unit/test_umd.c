/* SPDX-License-Identifier: MIT */
/*
 * test_umd.c - the user-mode driver's contexts without the GPU (D3D11
 * deferred contexts: context-local DDI handles, CalcDeferredContextHandleSize,
 * CheckDeferredContextHandleSizes):
 * the handle-size table, the data layout, the create/destroy order per
 * context and every violation of it, errors through SetError, out of
 * memory at every allocation point of a recording, and deferred contexts
 * recording on threads at once.  Also built with ThreadSanitizer
 * (test_umd_tsan): the threads share only what the driver shares.
 */
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "tb_seed.h"
#include "umd_int.h"
#include "umd_work.h"

#define BIN "build/tests/test_umd"

struct fx {
	struct fw_adapter ad;
	struct fw_device *kdev;
	struct umd_rt rt;
};

static void fx_open_as(struct fx *f, uint32_t ndc, bool unpadded, bool interleaved)
{
	struct umd_rt_cfg c;

	assert_int_equal(fw_adapter_init(&f->ad, NULL), GM_OK);
	assert_int_equal(fw_device_create(&f->ad, &f->kdev), GM_OK);
	c = (struct umd_rt_cfg){ .kdev = f->kdev, .ndc = ndc, .max_objects = 4096,
				 .unpadded = unpadded, .interleaved = interleaved };
	assert_int_equal(umd_rt_open(&f->rt, &c), GM_OK);
}

static void fx_open(struct fx *f, uint32_t ndc, bool unpadded)
{
	fx_open_as(f, ndc, unpadded, unpadded);
}

static void fx_close(struct fx *f)
{
	assert_int_equal(umd_rt_close(&f->rt), GM_OK);
	fw_adapter_fini(&f->ad);
}

static struct fw_alloc_desc surf(void)
{
	return umd_work_surface(0);
}

/* ---------------------------------------------------------------- sizes */

/* Asked twice; every size CalcDeferredContextHandleSize gives is in it. */
static void test_size_table(void **state)
{
	struct fx f;
	struct umd_rt_obj *r, *v, *s;
	struct fw_alloc_desc d = surf();
	struct umd_handle_size one[1];
	uint32_t n = 0;

	(void)state;
	for (int unpadded = 0; unpadded < 2; unpadded++) {
		fx_open(&f, 2, unpadded);
		assert_int_equal(f.rt.nsizes, UMD_HT_COUNT - 1);
		for (uint32_t i = 0; i < f.rt.nsizes; i++)
			assert_true(unpadded ? f.rt.sizes[i].size >= sizeof(struct umd_hctx)
					     : f.rt.sizes[i].size == UMD_PAD_BYTES);
		assert_int_equal(umd_rt_resource(&f.rt, &d, 1, &r), GM_OK);
		assert_int_equal(umd_rt_view(&f.rt, r, 0, &v), GM_OK);
		assert_int_equal(umd_rt_fill_state(&f.rt, 7, &s), GM_OK);
		assert_true(umd_rt_size_announced(&f.rt, UMD_HT_RESOURCE, r->dc_size));
		assert_true(umd_rt_size_announced(&f.rt, UMD_HT_VIEW, v->dc_size));
		assert_true(umd_rt_size_announced(&f.rt, UMD_HT_FILL_STATE, s->dc_size));
		assert_int_equal(f.rt.bad_sizes, 0);
		/* The check's negative twins: another size, another type. */
		assert_false(umd_rt_size_announced(&f.rt, UMD_HT_VIEW, v->dc_size + 1));
		assert_false(umd_rt_size_announced(&f.rt, UMD_HT_COUNT, v->dc_size));
		/* A short array: filled as far as it goes, the count told. */
		n = 1;
		assert_int_equal(umd_check_deferred_handle_sizes(f.rt.ic, &n, one), GM_OK);
		assert_int_equal(n, UMD_HT_COUNT - 1);
		assert_int_equal(one[0].type, UMD_HT_RESOURCE);
		/* Only on the immediate context; a deferred handle size needs a live handle. */
		assert_int_equal(umd_check_deferred_handle_sizes(f.rt.dc[0], &n, NULL), GM_ERR_BAD_ARG);
		assert_int_equal(umd_calc_deferred_handle_size(f.rt.ic, UMD_HT_VIEW, r->ic), 0);
		assert_int_equal(umd_rt_error(&f.rt, UMD_RT_IC), GM_ERR_BAD_ARG);
		assert_int_equal(umd_rt_destroy(&f.rt, s), GM_OK);
		assert_int_equal(umd_rt_destroy(&f.rt, v), GM_OK);
		assert_int_equal(umd_rt_destroy(&f.rt, r), GM_OK);
		fx_close(&f);
	}
}

/* Padded: the deferred handles of one object on two contexts, and an
 * immediate handle's own data and the shared data, never share a line;
 * unpadded they do. */
static void test_layout(void **state)
{
	struct fx f;
	struct umd_rt_obj *r;
	struct fw_alloc_desc d = surf();

	(void)state;
	for (int unpadded = 0; unpadded < 2; unpadded++) {
		uintptr_t h0, h1, ro;

		fx_open_as(&f, 2, unpadded, true);
		assert_int_equal(umd_rt_resource(&f.rt, &d, 1, &r), GM_OK);
		h0 = (uintptr_t)umd_rt_handle(&f.rt, 0, r);
		h1 = (uintptr_t)umd_rt_handle(&f.rt, 1, r);
		assert_true(h0 && h1);
		ro = (uintptr_t)((struct umd_hctx *)r->ic)->obj;
		/* Both contexts link to one read-only copy, in the immediate handle. */
		assert_ptr_equal(((struct umd_hctx *)h0)->obj, (void *)ro);
		assert_ptr_equal(((struct umd_hctx *)h1)->obj, (void *)ro);
		if (!unpadded) {
			assert_int_equal(h0 % UMD_PAD_BYTES, 0);
			assert_int_equal(h1 - h0, UMD_PAD_BYTES);
			assert_int_equal(ro - (uintptr_t)r->ic, UMD_PAD_BYTES);
		} else {
			assert_true(h1 / UMD_CACHE_LINE == h0 / UMD_CACHE_LINE);
			assert_true(ro - (uintptr_t)r->ic < UMD_CACHE_LINE);
		}
		assert_int_equal(umd_rt_destroy(&f.rt, r), GM_OK);
		fx_close(&f);
	}
	/* Slabs: each context's handles in its own memory, on their own lines. */
	fx_open_as(&f, 2, false, false);
	assert_int_equal(umd_rt_resource(&f.rt, &d, 1, &r), GM_OK);
	assert_ptr_equal(umd_rt_handle(&f.rt, 0, r), f.rt.slab[0] + (size_t)r->id * f.rt.stride);
	assert_ptr_equal(umd_rt_handle(&f.rt, 1, r), f.rt.slab[1] + (size_t)r->id * f.rt.stride);
	assert_int_equal((uintptr_t)f.rt.slab[1] % UMD_PAD_BYTES, 0);
	assert_int_equal(f.rt.stride % UMD_PAD_BYTES, 0);
	assert_int_equal(umd_rt_destroy(&f.rt, r), GM_OK);
	fx_close(&f);
}

/* ---------------------------------------------------------------- order */

static void *line(void)
{
	void *p = aligned_alloc(UMD_PAD_BYTES, 256);

	assert_non_null(p);
	memset(p, 0, 256);
	return p;
}

/* Destroy @h on context @ctx (UMD_RT_IC or a deferred index) with @fn;
 * SetError must say @st. */
static void destroy_expect(struct fx *f, void (*fn)(struct umd_ctx *, void *), int ctx, void *h,
			   int st)
{
	fn(ctx == UMD_RT_IC ? f->rt.ic : f->rt.dc[ctx], h);
	assert_int_equal(umd_rt_error(&f->rt, ctx), st);
}

/* Every violation of the order is refused with E_INVALIDARG, nothing
 * changed; the right order then works. */
static void test_order(void **state)
{
	struct fx f;
	struct fw_alloc_desc d = surf();
	struct umd_rt_obj *r, *r2, *v;
	struct umd_ctx *dc0, *dc1;
	struct umd_stats st;
	void *h = line(), *hv = line(), *hr = line(), *hv0;
	struct umd_view_args va = { 0 };

	(void)state;
	fx_open(&f, 2, false);
	dc0 = f.rt.dc[0], dc1 = f.rt.dc[1];
	assert_int_equal(umd_rt_resource(&f.rt, &d, 1, &r), GM_OK);
	assert_int_equal(umd_rt_resource(&f.rt, &d, 1, &r2), GM_OK);
	assert_int_equal(umd_rt_view(&f.rt, r, 0, &v), GM_OK);

	/* A deferred handle linked to nothing live (before the immediate one). */
	umd_create_resource(dc0, NULL, h, hr);
	assert_int_equal(umd_rt_error(&f.rt, 0), GM_ERR_BAD_ARG);
	/* A deferred create with arguments; an immediate create with a link. */
	umd_create_resource(dc0, &(struct umd_resource_args){ &d, 1 }, h, r->ic);
	assert_int_equal(umd_rt_error(&f.rt, 0), GM_ERR_BAD_ARG);
	umd_create_resource(f.rt.ic, &(struct umd_resource_args){ &d, 1 }, h, r->ic);
	assert_int_equal(umd_rt_error(&f.rt, UMD_RT_IC), GM_ERR_BAD_ARG);
	/* Handle memory off its line (padded). */
	umd_create_resource(dc0, NULL, (char *)h + 8, r->ic);
	assert_int_equal(umd_rt_error(&f.rt, 0), GM_ERR_BAD_ARG);
	/* A view before its resource in that context. */
	umd_create_view(dc0, &va, hv, v->ic);
	assert_int_equal(umd_rt_error(&f.rt, 0), GM_ERR_BAD_ARG);
	/* A view whose dependency is another resource's handle. */
	va.resource = umd_rt_handle(&f.rt, 0, r2);
	umd_create_view(dc0, &va, hv, v->ic);
	assert_int_equal(umd_rt_error(&f.rt, 0), GM_ERR_BAD_ARG);
	/* ... or a handle of another context, or members other than the dependency set. */
	va.resource = umd_rt_handle(&f.rt, 1, r);
	umd_create_view(dc0, &va, hv, v->ic);
	assert_int_equal(umd_rt_error(&f.rt, 0), GM_ERR_BAD_ARG);
	va = (struct umd_view_args){ .resource = umd_rt_handle(&f.rt, 0, r), .surface = 1 };
	umd_create_view(dc0, &va, hv, v->ic);
	assert_int_equal(umd_rt_error(&f.rt, 0), GM_ERR_BAD_ARG);
	/* The right order: resource, then view; twice in one context is refused. */
	hv0 = umd_rt_handle(&f.rt, 0, v);
	assert_non_null(hv0);
	umd_create_resource(dc0, NULL, h, r->ic);
	assert_int_equal(umd_rt_error(&f.rt, 0), GM_ERR_BAD_ARG);
	/* The resource before its view: per context, then on the immediate one. */
	destroy_expect(&f, umd_destroy_resource, 0, umd_rt_handle(&f.rt, 0, r), GM_ERR_BAD_ARG);
	destroy_expect(&f, umd_destroy_resource, UMD_RT_IC, r->ic, GM_ERR_BAD_ARG);
	/* The immediate view while its deferred handle lives, then in order. */
	destroy_expect(&f, umd_destroy_view, UMD_RT_IC, v->ic, GM_ERR_BAD_ARG);
	destroy_expect(&f, umd_destroy_view, 0, hv0, GM_OK);
	f.rt.made[0][v->id] = 0;
	destroy_expect(&f, umd_destroy_view, UMD_RT_IC, v->ic, GM_OK);
	/* The immediate resource while deferred handles of it live (both contexts). */
	destroy_expect(&f, umd_destroy_resource, UMD_RT_IC, r->ic, GM_ERR_BAD_ARG);
	/* A destroyed handle is not one any more; a context with handles stays. */
	destroy_expect(&f, umd_destroy_view, 0, hv0, GM_ERR_BAD_ARG);
	assert_int_equal(umd_deferred_destroy(dc1), GM_ERR_BUSY);
	assert_int_equal(umd_device_destroy(f.rt.dev), GM_ERR_BUSY);
	umd_device_stats(f.rt.dev, &st);
	assert_int_equal(st.objects, 3 - 1);
	assert_int_equal(st.deferred, 2);
	/* v's immediate handle went above: only its memory is left to free. */
	f.rt.free_id[f.rt.nfree++] = v->id;
	free(v->ic), free(v->row), free(v);
	assert_int_equal(umd_rt_destroy(&f.rt, r), GM_OK);
	assert_int_equal(umd_rt_destroy(&f.rt, r2), GM_OK);
	free(h), free(hv), free(hr);
	fx_close(&f);
}

/* Recording names handles of its own context only; bad rectangles. */
static void test_record_args(void **state)
{
	struct fx f;
	struct fw_alloc_desc d = surf();
	struct umd_rt_obj *r, *v, *s;
	struct umd_list *l;

	(void)state;
	fx_open(&f, 2, false);
	assert_int_equal(umd_rt_resource(&f.rt, &d, 1, &r), GM_OK);
	assert_int_equal(umd_rt_view(&f.rt, r, 0, &v), GM_OK);
	assert_int_equal(umd_rt_fill_state(&f.rt, 7, &s), GM_OK);
	umd_fill(f.rt.dc[0], umd_rt_handle(&f.rt, 1, v), 0, 0, 1, 1);
	assert_int_equal(umd_rt_error(&f.rt, 0), GM_ERR_BAD_ARG);
	umd_fill(f.rt.dc[0], v->ic, 0, 0, 1, 1);
	assert_int_equal(umd_rt_error(&f.rt, 0), GM_ERR_BAD_ARG);
	umd_fill(f.rt.dc[0], umd_rt_handle(&f.rt, 0, v), 31, 0, 2, 1);
	assert_int_equal(umd_rt_error(&f.rt, 0), GM_ERR_BAD_ARG);
	umd_fill(f.rt.dc[0], umd_rt_handle(&f.rt, 0, v), 0, 0, 0, 1);
	assert_int_equal(umd_rt_error(&f.rt, 0), GM_ERR_BAD_ARG);
	umd_blt(f.rt.dc[0], umd_rt_handle(&f.rt, 0, v), 0, 0, umd_rt_handle(&f.rt, 0, v), 0, 31, 4, 2);
	assert_int_equal(umd_rt_error(&f.rt, 0), GM_ERR_BAD_ARG);
	umd_copy_resource(f.rt.dc[0], umd_rt_handle(&f.rt, 0, r), umd_rt_handle(&f.rt, 0, r));
	assert_int_equal(umd_rt_error(&f.rt, 0), GM_ERR_BAD_ARG);
	umd_set_fill_state(f.rt.dc[0], umd_rt_handle(&f.rt, 0, v));
	assert_int_equal(umd_rt_error(&f.rt, 0), GM_ERR_BAD_ARG);
	/* None of it recorded; the good calls are. */
	umd_set_fill_state(f.rt.dc[0], umd_rt_handle(&f.rt, 0, s));
	umd_fill(f.rt.dc[0], umd_rt_handle(&f.rt, 0, v), 31, 31, 1, 1);
	assert_int_equal(umd_rt_error(&f.rt, 0), GM_OK);
	assert_int_equal(umd_finish_command_list(f.rt.dc[0], &l), GM_OK);
	assert_int_equal(umd_list_commands(l), 2);
	umd_list_destroy(l);
	/* Finish on the immediate context; an empty list. */
	assert_int_equal(umd_finish_command_list(f.rt.ic, &l), GM_ERR_BAD_ARG);
	assert_int_equal(umd_finish_command_list(f.rt.dc[1], &l), GM_OK);
	assert_int_equal(umd_list_commands(l), 0);
	umd_list_destroy(l);
	/* A context's lists hold its memory: it stays while one lives. */
	{
		struct umd_ctx *dc;

		assert_int_equal(umd_deferred_create(f.rt.dev, NULL, NULL, &dc), GM_OK);
		assert_int_equal(umd_finish_command_list(dc, &l), GM_OK);
		assert_int_equal(umd_deferred_destroy(dc), GM_ERR_BUSY);
		umd_list_destroy(l);
		assert_int_equal(umd_deferred_destroy(dc), GM_OK);
	}
	assert_int_equal(umd_rt_destroy(&f.rt, s), GM_OK);
	assert_int_equal(umd_rt_destroy(&f.rt, v), GM_OK);
	assert_int_equal(umd_rt_destroy(&f.rt, r), GM_OK);
	fx_close(&f);
}

/* ---------------------------------------------------------------- out of memory */

#define OOM_CMDS 40u

/* Out of memory at each allocation point of a recording on deferred
 * context 0: SetError E_OUTOFMEMORY once, calls after it ignored, the
 * finish returns it, nothing leaks (valgrind: memcheck_umd); context 1 and
 * the immediate context record on unaffected; context 0 records again. */
static void test_oom_every_point(void **state)
{
	struct fx f;
	struct umd_work w;
	struct umd_list *l, *l1;
	uint64_t points, a0;

	(void)state;
	fx_open(&f, 2, false);
	assert_int_equal(umd_work_setup(&w, &f.rt, 2, 3, OOM_CMDS, 5), GM_OK);
	a0 = umd_ctx_allocs(f.rt.dc[0]);
	umd_work_record_one(&w, 0);
	assert_int_equal(umd_rt_error(&f.rt, 0), GM_OK);
	points = umd_ctx_allocs(f.rt.dc[0]) - a0;
	assert_int_equal(points, 1 + (OOM_CMDS + UMD_CHUNK_CMDS - 1) / UMD_CHUNK_CMDS);
	assert_int_equal(umd_finish_command_list(f.rt.dc[0], &l), GM_OK);
	assert_int_equal(umd_list_commands(l), OOM_CMDS);
	umd_list_destroy(l);
	for (uint64_t n = 1; n <= points; n++) {
		umd_ctx_fail_alloc(f.rt.dc[0], n);
		umd_work_record_one(&w, 0);
		umd_work_record_one(&w, 1);
		assert_int_equal(f.rt.err[1].count, 1);
		assert_int_equal(umd_rt_error(&f.rt, 0), GM_ERR_NO_MEM);
		assert_int_equal(umd_rt_error(&f.rt, 1), GM_OK);
		l = (void *)1;
		assert_int_equal(umd_finish_command_list(f.rt.dc[0], &l), GM_ERR_NO_MEM);
		assert_null(l);
		assert_int_equal(umd_finish_command_list(f.rt.dc[1], &l1), GM_OK);
		assert_int_equal(umd_list_commands(l1), OOM_CMDS);
		umd_list_destroy(l1);
		/* The context records again from empty. */
		umd_work_record_one(&w, 0);
		assert_int_equal(umd_finish_command_list(f.rt.dc[0], &l), GM_OK);
		assert_int_equal(umd_list_commands(l), OOM_CMDS);
		umd_list_destroy(l);
	}
	/* The immediate context: only the command lost, reported. */
	umd_ctx_fail_alloc(f.rt.ic, 1);
	umd_fill(f.rt.ic, w.src_view->ic, 0, 0, 1, 1);
	assert_int_equal(umd_rt_error(&f.rt, UMD_RT_IC), GM_ERR_NO_MEM);
	assert_int_equal(umd_work_teardown(&w), GM_OK);
	fx_close(&f);
}

/* ---------------------------------------------------------------- threads */

/* N threads x M objects x K commands at once: every list whole, every
 * handle made once per context and used as often as the oracle says. */
static void test_threads(void **state)
{
	static const uint32_t shape[][3] = { { 2, 4, 200 }, { 4, 16, 500 }, { 8, 3, 64 } };
	uint64_t seed = tb_seed(BIN);

	(void)state;
	for (unsigned c = 0; c < sizeof(shape) / sizeof(shape[0]); c++) {
		struct fx f;
		struct umd_work w;

		fx_open(&f, shape[c][0], c == 2);
		assert_int_equal(umd_work_setup(&w, &f.rt, shape[c][0], shape[c][1], shape[c][2], seed),
				 GM_OK);
		assert_int_equal(umd_work_record(&w), GM_OK);
		for (uint32_t t = 0; t < w.threads; t++) {
			assert_int_equal(w.finish[t], GM_OK);
			assert_int_equal(umd_rt_error(&f.rt, (int)t), GM_OK);
			assert_int_equal(umd_list_commands(w.list[t]), w.commands);
			/* The source view: opened once on each context, in its own line. */
			assert_true(f.rt.made[t][w.src_view->id]);
		}
		assert_int_equal(umd_work_teardown(&w), GM_OK);
		fx_close(&f);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_size_table),
		cmocka_unit_test(test_layout),
		cmocka_unit_test(test_order),
		cmocka_unit_test(test_record_args),
		cmocka_unit_test(test_oom_every_point),
		cmocka_unit_test(test_threads),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
