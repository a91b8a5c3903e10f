/* SPDX-License-Identifier: MIT */
/*
 * test_umd_rtl.c - the user-mode driver's deferred contexts (D3D11,
 * context-local DDI handles) end to end on the RTL: threads record command
 * lists at once, the immediate context executes them as command buffers with
 * allocation and patch lists through the pipeline (Render, residency, Patch, SubmitCommand), and every
 * surface is read back and checked against the workload's oracle.  Out of
 * memory on one deferred context leaves the others' work intact.  Objects a
 * live command list names cannot be destroyed under it.
 */
#include <stdlib.h>
#include <string.h>

#include "fw_kmd.h"
#include "gpu_hw.h"
#include "tb_util.h"
#include "umd_work.h"

#define BIN "build/tests/test_umd_rtl"
#define BUDGET 50000000ull

struct ux {
	struct tb t;
	struct fw_kmd *k;
	struct fw_device *kdev;
	struct umd_rt rt;
};

static void ux_open(struct ux *x, uint32_t ndc)
{
	struct fw_kmd_cfg kc;
	struct umd_rt_cfg rc;

	memset(x, 0, sizeof(*x));
	tb_open(&x->t);
	x->k = calloc(1, sizeof(*x->k));
	assert_non_null(x->k);
	fw_kmd_cfg_default(&kc);
	kc.log = getenv("GPUSIM_KMD_LOG") ? stderr : NULL;
	assert_int_equal(fw_kmd_init(x->k, &x->t.d, &kc), GM_OK);
	assert_int_equal(fw_device_create(&x->k->ad, &x->kdev), GM_OK);
	rc = (struct umd_rt_cfg){ .kdev = x->kdev, .ndc = ndc, .max_objects = 1024 };
	assert_int_equal(umd_rt_open(&x->rt, &rc), GM_OK);
	assert_int_equal(umd_device_attach(x->rt.dev, x->k), GM_OK);
}

static void ux_close(struct ux *x)
{
	assert_int_equal(umd_rt_close(&x->rt), GM_OK);
	assert_int_equal(fw_kmd_device_destroy(x->k, x->kdev, BUDGET), GM_OK);
	fw_kmd_fini(x->k);
	free(x->k);
	tb_close(&x->t);
}

/* Execute thread @t's list and check its destinations. */
static void exec_check(struct ux *x, struct umd_work *w, uint32_t t)
{
	assert_int_equal(umd_execute_command_list(x->rt.ic, w->list[t]), GM_OK);
	assert_int_equal(umd_wait_idle(x->rt.ic, BUDGET), GM_OK);
	assert_int_equal(umd_work_check(w, x->t.g, x->kdev, t), 0);
}

/* N threads x M objects x K commands recorded at once, executed on the RTL. */
static void test_threads_rtl(void **state)
{
	static const uint32_t shape[][3] = { { 2, 4, 48 }, { 3, 6, 120 } };
	uint64_t seed = tb_seed(BIN);

	(void)state;
	for (unsigned c = 0; c < 2; c++) {
		struct ux x;
		struct umd_work w;
		struct umd_stats st;

		ux_open(&x, shape[c][0]);
		assert_int_equal(umd_work_setup(&w, &x.rt, shape[c][0], shape[c][1], shape[c][2], seed),
				 GM_OK);
		assert_int_equal(umd_work_record(&w), GM_OK);
		for (uint32_t t = 0; t < w.threads; t++) {
			assert_int_equal(w.finish[t], GM_OK);
			exec_check(&x, &w, t);
		}
		/* A list stays valid: run again, same result. */
		exec_check(&x, &w, 0);
		umd_device_stats(x.rt.dev, &st);
		assert_true(st.submits >= w.threads + 1);
		assert_int_equal(x.k->st.failed, 0);
		assert_int_equal(umd_work_teardown(&w), GM_OK);
		ux_close(&x);
	}
}

/* Out of memory in the middle of deferred context 1's recording: its
 * finish says so and its partial list is gone; context 0's list runs and
 * is right; context 1 records again and its list runs right too. */
static void test_oom_rtl(void **state)
{
	struct ux x;
	struct umd_work w;
	struct umd_list *l;

	(void)state;
	ux_open(&x, 2);
	assert_int_equal(umd_work_setup(&w, &x.rt, 2, 3, 60, 3), GM_OK);
	umd_ctx_fail_alloc(x.rt.dc[1], 4);
	assert_int_equal(umd_work_record(&w), GM_OK);
	assert_int_equal(w.finish[0], GM_OK);
	assert_int_equal(w.finish[1], GM_ERR_NO_MEM);
	assert_null(w.list[1]);
	assert_int_equal(umd_rt_error(&x.rt, 1), GM_ERR_NO_MEM);
	assert_int_equal(umd_rt_error(&x.rt, 0), GM_OK);
	exec_check(&x, &w, 0);
	umd_work_record_one(&w, 1);
	assert_int_equal(umd_finish_command_list(x.rt.dc[1], &w.list[1]), GM_OK);
	exec_check(&x, &w, 1);
	/* Bad calls: not on a deferred context, no list; attached already. */
	assert_int_equal(umd_execute_command_list(x.rt.dc[0], w.list[0]), GM_ERR_BAD_ARG);
	assert_int_equal(umd_execute_command_list(x.rt.ic, NULL), GM_ERR_BAD_ARG);
	assert_int_equal(umd_flush(x.rt.dc[0]), GM_ERR_BAD_ARG);
	assert_int_equal(umd_device_attach(x.rt.dev, x.k), GM_ERR_BAD_ARG);
	l = NULL;
	assert_int_equal(umd_finish_command_list(x.rt.dc[0], &l), GM_OK);
	assert_int_equal(umd_execute_command_list(x.rt.ic, l), GM_OK); /* empty: nothing to do */
	umd_list_destroy(l);
	assert_int_equal(umd_work_teardown(&w), GM_OK);
	ux_close(&x);
}

/*
 * A command list names a view (and so its resource) of deferred context 0.
 * Destroying the objects while the list lives is refused, on the deferred
 * context (the list names its handle) and so on the immediate one (a
 * deferred handle still lives): the handle memory the list reads stays the
 * runtime's (umd.h).  The list executes right; once it is destroyed, so
 * are the objects.  A command the immediate context recorded and has not
 * flushed yet runs before the object it names is destroyed.
 */
static void test_destroy_listed(void **state)
{
	const struct fw_alloc_desc d = { .size = 0x10000, .width = 1024, .height = 16,
					 .pitch = 4096, .bpe_log2 = 2, .tile = GPU_TILE_LINEAR };
	struct umd_rt_obj *R, *V, *F;
	struct umd_list *l = NULL;
	struct fw_alloc *a;
	struct ux x;
	void *dv;

	(void)state;
	ux_open(&x, 1);
	assert_int_equal(umd_rt_resource(&x.rt, &d, 1, &R), GM_OK);
	assert_int_equal(umd_rt_view(&x.rt, R, 0, &V), GM_OK);
	assert_int_equal(umd_rt_fill_state(&x.rt, 0x5e5e5e5e5e5e5e5eull, &F), GM_OK);
	dv = umd_rt_handle(&x.rt, 0, V);
	assert_non_null(dv);
	umd_set_fill_state(x.rt.dc[0], umd_rt_handle(&x.rt, 0, F));
	umd_fill(x.rt.dc[0], dv, 0, 0, 1024, 16);
	assert_int_equal(umd_finish_command_list(x.rt.dc[0], &l), GM_OK);
	assert_int_equal(umd_rt_destroy(&x.rt, F), GM_OK); /* the list keeps its value only */
	assert_int_equal(umd_rt_destroy(&x.rt, V), GM_ERR_BAD_ARG);
	assert_int_equal(umd_rt_destroy(&x.rt, R), GM_ERR_BAD_ARG);
	assert_int_equal(umd_execute_command_list(x.rt.ic, l), GM_OK);
	assert_int_equal(umd_wait_idle(x.rt.ic, BUDGET), GM_OK);
	assert_int_equal(fw_res_get_handle_data(x.kdev, umd_resource_alloc(R->ic, 0), &a), GM_OK);
	assert_int_equal(tb_mem32(&x.t, a->loc.addr + 0xfffc), 0x5e5e5e5e);
	umd_list_destroy(l);
	/* The immediate context's own recording, not flushed yet: destroying
	 * the view runs it first. */
	umd_fill(x.rt.ic, V->ic, 0, 0, 4, 1);
	assert_int_equal(umd_rt_destroy(&x.rt, V), GM_OK);
	assert_int_equal(umd_wait_idle(x.rt.ic, BUDGET), GM_OK);
	assert_int_equal(tb_mem32(&x.t, a->loc.addr), 0);
	assert_int_equal(tb_mem32(&x.t, a->loc.addr + 0xfffc), 0x5e5e5e5e);
	assert_int_equal(umd_rt_destroy(&x.rt, R), GM_OK);
	/* A device that recorded on its immediate context before a pipeline was
	 * attached: the commands may name objects gone since, attach refused. */
	{
		struct umd_rt_cfg rc = { .kdev = x.kdev, .ndc = 1, .max_objects = 16 };
		struct umd_rt rt2;

		assert_int_equal(umd_rt_open(&rt2, &rc), GM_OK);
		assert_int_equal(umd_rt_resource(&rt2, &d, 1, &R), GM_OK);
		assert_int_equal(umd_rt_view(&rt2, R, 0, &V), GM_OK);
		umd_fill(rt2.ic, V->ic, 0, 0, 4, 1);
		assert_int_equal(umd_device_attach(rt2.dev, x.k), GM_ERR_BAD_ARG);
		assert_int_equal(umd_rt_destroy(&rt2, V), GM_OK);
		assert_int_equal(umd_rt_destroy(&rt2, R), GM_OK);
		assert_int_equal(umd_rt_close(&rt2), GM_OK);
	}
	ux_close(&x);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_threads_rtl),
		cmocka_unit_test(test_oom_rtl),
		cmocka_unit_test(test_destroy_listed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
