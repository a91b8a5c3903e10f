// SPDX-License-Identifier: MIT
/*
 * test_fw_handles.c - cmocka unit tests for device-local handles, surfaces shared between devices and a
 * removed device (fw/vidmm/fw_res.c): handles unique per device, another
 * device's and stale ones refused, shared surfaces outliving a device, every
 * call on a removed device refused with nothing changed.
 *
 * Build and run:
 *   gcc -std=c11 -O2 -g -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes \
 *       -Ihw -Imodel -Idma -Ifw/vidmm -Ifw/kmd -Immu -Itb -Itb/unit -o /tmp/test_fw_handles tb/unit/test_fw_handles.c tb/unit/tb_fw.c \
 *       fw/vidmm/fw_mem.c fw/vidmm/fw_adapter.c fw/vidmm/fw_res.c fw/vidmm/fw_residency.c hw/gpu_tile.c \
 *       hw/gpu_names.c model/gm_status.c tb/tb_seed.c -lcmocka
 *   /tmp/test_fw_handles
 *
 * Testplan (feature -> tests)
 *   device-local handles ............ test_handles_per_device (unique, other device's
 *                                     refused, stale refused, generation)
 *   shared surfaces ................. test_shared_two_devices, test_shared_device_destroy
 *   device removed (TDR) ............ test_device_removed (every call, nothing changed)
 *
 * $GPUSIM_TEST=<name> runs one test.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REPRO "build/tests/test_fw_handles"
#include "tb_fw.h"

/* ------------------------------------------------------------ handles */

#define HND_RES 200

static void test_handles_per_device(void **state)
{
	struct fx *f = *state;
	struct fw_alloc_desc s[2] = { buf_desc(64), buf_desc(128) };
	static struct fw_resource *r0[HND_RES], *r1[HND_RES];
	static uint32_t h0[2 * HND_RES], h1[2 * HND_RES];
	struct fw_alloc *a = NULL;
	uint32_t stale, again;
	size_t i, j;

	for (i = 0; i < HND_RES; i++) {
		assert_st(fw_res_create(f->d0, s, 2, false, &r0[i]), GM_OK);
		assert_st(fw_res_create(f->d1, s, 2, false, &r1[i]), GM_OK);
		for (j = 0; j < 2; j++) {
			assert_st(fw_res_surface_handle(r0[i], j, &h0[2 * i + j]), GM_OK);
			assert_st(fw_res_surface_handle(r1[i], j, &h1[2 * i + j]), GM_OK);
		}
	}
	assert_int_not_equal(f->d0->tag, f->d1->tag);
	for (i = 0; i < 2 * HND_RES; i++) {
		for (j = 0; j < i; j++) {
			assert_int_not_equal(h0[i], h0[j]);
			assert_int_not_equal(h1[i], h1[j]);
		}
		for (j = 0; j < 2 * HND_RES; j++)
			assert_int_not_equal(h0[i], h1[j]);
		/* Each resolves on its own device only. */
		assert_st(fw_res_get_handle_data(f->d0, h0[i], &a), GM_OK);
		assert_ptr_equal(a, r0[i / 2]->kres->alloc[i % 2]);
		assert_st(fw_res_get_handle_data(f->d1, h0[i], &a), GM_ERR_BAD_ARG);
		assert_st(fw_res_get_handle_data(f->d0, h1[i], &a), GM_ERR_BAD_ARG);
	}
	assert_int_equal(f->d0->nhandles, 2 * HND_RES);

	/* A released handle goes stale; its slot's next handle differs. */
	stale = h0[10];
	assert_st(fw_res_destroy(r0[5]), GM_OK);
	assert_st(fw_res_get_handle_data(f->d0, stale, &a), GM_ERR_BAD_ARG);
	assert_st(fw_res_create(f->d0, s, 2, false, &r0[5]), GM_OK);
	assert_st(fw_res_surface_handle(r0[5], 1, &again), GM_OK); /* LIFO: takes h0[10]'s slot */
	assert_int_not_equal(again, stale);
	assert_int_equal(again & FW_HANDLE_MAX, stale & FW_HANDLE_MAX);
	assert_st(fw_res_get_handle_data(f->d0, stale, &a), GM_ERR_BAD_ARG);
	assert_st(fw_res_get_handle_data(f->d0, again, &a), GM_OK);
	assert_int_equal(f->d0->nhandles, 2 * HND_RES);

	for (i = 0; i < HND_RES; i++) {
		assert_st(fw_res_destroy(r0[i]), GM_OK);
		assert_st(fw_res_destroy(r1[i]), GM_OK);
	}
	assert_int_equal(f->d0->nhandles, 0);
	assert_int_equal(f->d1->nhandles, 0);
}

/* ------------------------------------------------------------ sharing */

static void test_shared_two_devices(void **state)
{
	struct fx *f = *state;
	struct fw_alloc_desc s[2] = { surf_desc(GPU_TILE_X, 2, 256, 64), buf_desc(4096) };
	struct fw_resource *ra = NULL, *rb = NULL, *rb2 = NULL;
	struct fw_adapter_stats st;
	uint32_t sh = 0, sh2 = 0, ha, hb, hb2;
	struct fw_alloc *a = NULL;
	size_t i;

	assert_st(fw_res_create(f->d0, s, 2, true, &ra), GM_OK);
	assert_st(fw_res_share_handle(ra, &sh), GM_OK);
	assert_int_not_equal(sh, 0);
	assert_st(fw_res_open(f->d1, sh, &rb), GM_OK);
	assert_st(fw_res_share_handle(rb, &sh2), GM_OK);
	assert_int_equal(sh, sh2);
	assert_int_equal(rb->nsurf, 2);
	assert_ptr_equal(ra->kres, rb->kres);
	assert_int_equal(ra->kres->opens, 2);
	for (i = 0; i < 2; i++) {
		assert_st(fw_res_surface_handle(ra, i, &ha), GM_OK);
		assert_st(fw_res_surface_handle(rb, i, &hb), GM_OK);
		assert_int_not_equal(ha, hb);
		assert_ptr_equal(resolve(f->d0, ra, i), resolve(f->d1, rb, i));
		assert_int_equal(resolve(f->d0, ra, i)->refs, 2);
		assert_st(fw_res_get_handle_data(f->d0, hb, &a), GM_ERR_BAD_ARG);
	}
	/* Opened twice on one device: two sets of handles, one object. */
	assert_st(fw_res_open(f->d1, sh, &rb2), GM_OK);
	assert_st(fw_res_surface_handle(rb2, 0, &hb2), GM_OK);
	assert_st(fw_res_surface_handle(rb, 0, &hb), GM_OK);
	assert_int_not_equal(hb, hb2);
	assert_ptr_equal(resolve(f->d1, rb2, 0), resolve(f->d0, ra, 0));
	assert_int_equal(resolve(f->d0, ra, 0)->refs, 3);
	assert_st(fw_res_destroy(rb2), GM_OK);
	assert_int_equal(resolve(f->d0, ra, 0)->refs, 2);

	/* The creator closes first: the objects live on for the other device. */
	a = resolve(f->d0, ra, 0);
	assert_st(fw_res_place(&f->ad, a, VRAM_ID, NULL), GM_OK);
	assert_st(fw_res_destroy(ra), GM_OK);
	assert_st(fw_adapter_get_stats(&f->ad, &st), GM_OK);
	assert_int_equal(st.nkres, 1);
	assert_int_equal(st.nallocs, 2);
	assert_ptr_equal(resolve(f->d1, rb, 0), a);
	assert_int_equal(a->refs, 1);
	assert_int_equal(a->kres->opens, 1);
	assert_true(a->resident);
	assert_int_equal(f->d0->nhandles, 0);
	/* The share handle still opens it. */
	assert_st(fw_res_open(f->d0, sh, &ra), GM_OK);
	assert_int_equal(a->refs, 2);
	assert_st(fw_res_destroy(ra), GM_OK);

	/* Last close: objects and their memory go. */
	assert_st(fw_res_destroy(rb), GM_OK);
	assert_st(fw_adapter_get_stats(&f->ad, &st), GM_OK);
	assert_int_equal(st.nkres, 0);
	assert_int_equal(st.nallocs, 0);
	assert_int_equal(seg_stats(fw_adapter_seg(&f->ad, VRAM_ID)).used, 0);
	assert_st(fw_res_open(f->d0, sh, &ra), GM_ERR_BAD_ARG); /* the share handle died too */
}

static void test_shared_device_destroy(void **state)
{
	struct fx *f = *state;
	struct fw_alloc_desc s = buf_desc(4096);
	struct fw_resource *ra = NULL, *rb = NULL, *own = NULL;
	struct fw_adapter_stats st;
	struct fw_alloc *a;
	uint32_t sh = 0;

	assert_st(fw_res_create(f->d0, &s, 1, true, &ra), GM_OK);
	assert_st(fw_res_create(f->d1, &s, 1, false, &own), GM_OK);
	assert_st(fw_res_share_handle(ra, &sh), GM_OK);
	assert_st(fw_res_open(f->d1, sh, &rb), GM_OK);
	a = resolve(f->d0, ra, 0);
	fw_device_destroy(f->d1); /* releases rb and own */
	f->d1 = NULL;
	assert_int_equal(a->refs, 1);
	assert_st(fw_adapter_get_stats(&f->ad, &st), GM_OK);
	assert_int_equal(st.nkres, 1);
	assert_int_equal(st.ndevices, 1);
	fw_device_destroy(f->d0);
	f->d0 = NULL;
	assert_st(fw_adapter_get_stats(&f->ad, &st), GM_OK);
	assert_int_equal(st.nkres, 0);
	assert_int_equal(st.nallocs, 0);
	assert_int_equal(st.ndevices, 0);
}

/* ------------------------------------------------------------ device removed */

static void test_device_removed(void **state)
{
	struct fx *f = *state;
	struct fw_alloc_desc s = buf_desc(4096);
	struct fw_resource *ra = NULL, *rb = NULL, *x = NULL;
	struct fw_device_stats ds = { 77, 77 };
	struct fw_alloc *a = NULL, *got = NULL;
	struct fw_adapter_stats st;
	struct snap before, after;
	uint32_t sh = 0, h = 0, out = 0x55;

	assert_st(fw_res_create(f->d0, &s, 1, true, &ra), GM_OK);
	assert_st(fw_res_share_handle(ra, &sh), GM_OK);
	assert_st(fw_res_surface_handle(ra, 0, &h), GM_OK);
	assert_st(fw_res_open(f->d1, sh, &rb), GM_OK);
	a = resolve(f->d0, ra, 0);
	assert_false(fw_device_is_removed(f->d0));
	assert_st(fw_device_mark_removed(f->d0), GM_OK);
	assert_true(fw_device_is_removed(f->d0));

	before = snap_take(f);
	assert_st(fw_device_mark_removed(f->d0), GM_ERR_DEVICE_REMOVED);
	assert_st(fw_device_get_stats(f->d0, &ds), GM_ERR_DEVICE_REMOVED);
	assert_st(fw_res_create(f->d0, &s, 1, false, &x), GM_ERR_DEVICE_REMOVED);
	assert_st(fw_res_open(f->d0, sh, &x), GM_ERR_DEVICE_REMOVED);
	assert_st(fw_res_surface_handle(ra, 0, &out), GM_ERR_DEVICE_REMOVED);
	assert_st(fw_res_share_handle(ra, &out), GM_ERR_DEVICE_REMOVED);
	assert_st(fw_res_get_handle_data(f->d0, h, &got), GM_ERR_DEVICE_REMOVED);
	assert_st(fw_res_destroy(ra), GM_ERR_DEVICE_REMOVED);
	/* Removal is reported before the other arguments are looked at. */
	assert_st(fw_res_create(f->d0, NULL, 0, false, NULL), GM_ERR_DEVICE_REMOVED);
	assert_st(fw_res_open(f->d0, 0, NULL), GM_ERR_DEVICE_REMOVED);
	assert_st(fw_res_surface_handle(ra, 99, NULL), GM_ERR_DEVICE_REMOVED);
	assert_st(fw_res_get_handle_data(f->d0, 0, NULL), GM_ERR_DEVICE_REMOVED);
	assert_st(fw_device_get_stats(f->d0, NULL), GM_ERR_DEVICE_REMOVED);
	after = snap_take(f);
	snap_same(&before, &after, "a call on a removed device");
	assert_null(x);
	assert_null(got);
	assert_int_equal(out, 0x55);
	assert_int_equal(ds.nhandles, 77);

	/* The other device is unaffected, and the kernel objects live on. */
	assert_ptr_equal(resolve(f->d1, rb, 0), a);
	assert_st(fw_res_open(f->d1, sh, &x), GM_OK);
	assert_st(fw_res_destroy(x), GM_OK);
	assert_st(fw_res_place(&f->ad, a, VRAM_ID, NULL), GM_OK);

	/* Destroying the removed device releases its handles; d1 keeps the object. */
	fw_device_destroy(f->d0);
	f->d0 = NULL;
	assert_int_equal(a->refs, 1);
	assert_st(fw_adapter_get_stats(&f->ad, &st), GM_OK);
	assert_int_equal(st.nkres, 1);
	assert_st(fw_res_destroy(rb), GM_OK);
	assert_int_equal(seg_stats(fw_adapter_seg(&f->ad, VRAM_ID)).used, 0);
	/* A new device can be made in the freed tag. */
	assert_st(fw_device_create(&f->ad, &f->d0), GM_OK);
}

/* ------------------------------------------------------------ main */

#define FX(t) cmocka_unit_test_setup_teardown(t, setup, teardown)

int main(void)
{
	const char *only = getenv("GPUSIM_TEST");
	const struct CMUnitTest tests[] = {
		FX(test_handles_per_device),
		FX(test_shared_two_devices),
		FX(test_shared_device_destroy),
		FX(test_device_removed),
	};

	if (only && *only)
		cmocka_set_test_filter(only);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
