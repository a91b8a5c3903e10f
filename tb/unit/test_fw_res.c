// SPDX-License-Identifier: MIT
/*
 * test_fw_res.c - cmocka unit tests for the adapter, devices and resources (fw/vidmm/fw_res.c): the adapter's
 * arguments, the device limit, CreateResource and its layout checks, bad
 * arguments and host-heap failure (nothing changed), a seeded random
 * resource sequence, the status values.
 *
 * Build and run:
 *   gcc -std=c11 -O2 -g -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes \
 *       -Ihw -Imodel -Idma -Ifw/vidmm -Ifw/kmd -Immu -Itb -Itb/unit -o /tmp/test_fw_res tb/unit/test_fw_res.c tb/unit/tb_fw.c \
 *       fw/vidmm/fw_mem.c fw/vidmm/fw_adapter.c fw/vidmm/fw_res.c fw/vidmm/fw_residency.c hw/gpu_tile.c \
 *       hw/gpu_names.c model/gm_status.c tb/tb_seed.c -lcmocka
 *   /tmp/test_fw_res
 *
 * Testplan (feature -> tests)
 *   host heap failure ............... test_seg_no_mem, test_res_no_mem (faultsim loop)
 *   adapter, segments table ......... test_adapter_bad_args
 *   devices, FULL at 255 ............ test_device_limits
 *   CreateResource, several surfaces  test_res_create_surfaces
 *   surface layout checks ........... test_res_layout_table (size -1 / exact pairs)
 *   bad arguments, every entry ...... test_res_bad_args (exact code, nothing changed)
 *   random resource traffic ......... test_res_random (seeded; refcounts, handles,
 *                                     segment bytes all agree)
 *   GM_ERR_DEVICE_REMOVED value ..... test_status_values
 *
 * The random tests take their seed from tb_seed() ($GPUSIM_SEED, else the clock), print
 * it, and a failure prints the command that reproduces it.  $GPUSIM_TEST=<name>
 * runs one test.
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

#define REPRO "build/tests/test_fw_res"
#include "tb_fw.h"

/* ------------------------------------------------------------ adapter, devices */

static void test_adapter_bad_args(void **state)
{
	struct fw_host_mem half = { fheap_realloc, NULL, NULL };
	struct fw_adapter ad, before;
	struct fw_adapter_stats st;
	struct fw_seg_desc d = { 3, FW_SEG_VRAM, GPU_VRAM_BASE, MIB, false };
	unsigned i;

	(void)state;
	assert_st(fw_adapter_init(NULL, NULL), GM_ERR_BAD_ARG);
	memset(&ad, 0x5a, sizeof(ad));
	memcpy(&before, &ad, sizeof(ad));
	assert_st(fw_adapter_init(&ad, &half), GM_ERR_BAD_ARG);
	assert_memory_equal(&ad, &before, sizeof(ad));
	assert_st(fw_adapter_init(&ad, NULL), GM_OK);

	assert_st(fw_adapter_add_seg(NULL, &d), GM_ERR_BAD_ARG);
	assert_st(fw_adapter_add_seg(&ad, NULL), GM_ERR_BAD_ARG);
	assert_st(fw_adapter_get_stats(NULL, &st), GM_ERR_BAD_ARG);
	assert_st(fw_adapter_get_stats(&ad, NULL), GM_ERR_BAD_ARG);
	assert_null(fw_adapter_seg(NULL, 3));
	assert_null(fw_adapter_seg(&ad, 3));

	assert_st(fw_adapter_add_seg(&ad, &d), GM_OK);
	assert_non_null(fw_adapter_seg(&ad, 3));
	assert_st(fw_adapter_add_seg(&ad, &d), GM_ERR_BAD_ARG); /* same id */
	d.id = 4;
	assert_st(fw_adapter_add_seg(&ad, &d), GM_ERR_BAD_ARG); /* same range */
	d.base = MIB - TILE64K;
	assert_st(fw_adapter_add_seg(&ad, &d), GM_ERR_BAD_ARG); /* overlaps by 64 KiB */
	d.size = 0;
	d.base = MIB;
	assert_st(fw_adapter_add_seg(&ad, &d), GM_ERR_BAD_ARG); /* fw_seg_init refuses */
	assert_int_equal(ad.nseg, 1);
	d.size = MIB;
	for (i = 1; i < FW_MAX_SEGS; i++, d.id++, d.base += MIB)
		assert_st(fw_adapter_add_seg(&ad, &d), GM_OK);
	assert_st(fw_adapter_add_seg(&ad, &d), GM_ERR_FULL);
	assert_int_equal(ad.nseg, FW_MAX_SEGS);
	assert_null(fw_adapter_seg(&ad, d.id));
	fw_adapter_fini(&ad);
	fw_adapter_fini(NULL);
}

static void test_device_limits(void **state)
{
	struct fx *f = *state;
	struct fw_device *dev[FW_MAX_DEVICES], *x = NULL;
	struct fw_adapter_stats st;
	unsigned i, n = FW_MAX_DEVICES - 2; /* the fixture has two */

	assert_st(fw_device_create(NULL, &x), GM_ERR_BAD_ARG);
	assert_st(fw_device_create(&f->ad, NULL), GM_ERR_BAD_ARG);
	fheap_arm(&f->heap, 0);
	assert_st(fw_device_create(&f->ad, &x), GM_ERR_NO_MEM);
	fheap_arm(&f->heap, -1);
	assert_null(x);
	for (i = 0; i < n; i++) {
		assert_st(fw_device_create(&f->ad, &dev[i]), GM_OK);
		assert_true(dev[i]->tag >= 1 && dev[i]->tag <= FW_MAX_DEVICES);
	}
	assert_st(fw_device_create(&f->ad, &x), GM_ERR_FULL);
	assert_null(x);
	assert_st(fw_adapter_get_stats(&f->ad, &st), GM_OK);
	assert_int_equal(st.ndevices, FW_MAX_DEVICES);
	/* A closed device's tag is free again. */
	fw_device_destroy(dev[7]);
	assert_st(fw_device_create(&f->ad, &x), GM_OK);
	fw_device_destroy(x);
	for (i = 0; i < n; i++)
		if (i != 7)
			fw_device_destroy(dev[i]);
	fw_device_destroy(NULL);
	assert_st(fw_adapter_get_stats(&f->ad, &st), GM_OK);
	assert_int_equal(st.ndevices, 2);
}

/* ------------------------------------------------------------ resources */

static void test_res_create_surfaces(void **state)
{
	struct fx *f = *state;
	uint8_t priv[FW_PRIV_MAX];
	struct fw_alloc_desc s[4] = {
		buf_desc(1000),
		surf_desc(GPU_TILE_X, 2, 100, 10),
		surf_desc(GPU_TILE_SS64K, 3, 300, 70),
		surf_desc(GPU_TILE_Y, 0, 16, 1),
	};
	struct fw_device_stats ds;
	struct fw_adapter_stats as;
	struct fw_resource *r = NULL;
	uint32_t h[4];
	size_t i, j;

	for (i = 0; i < sizeof(priv); i++)
		priv[i] = (uint8_t)(i * 7 + 1);
	s[1].priv = priv;
	s[1].priv_bytes = FW_PRIV_MAX;
	s[2].priv = priv;
	s[2].priv_bytes = 3;
	s[3].cpu_visible = true;
	s[3].pinned = true;

	assert_st(fw_res_create(f->d0, s, 4, false, &r), GM_OK);
	memset(priv, 0, sizeof(priv)); /* the allocations hold copies */
	assert_int_equal(r->nsurf, 4);
	for (i = 0; i < 4; i++) {
		struct fw_alloc *a = resolve(f->d0, r, i);

		assert_st(fw_res_surface_handle(r, i, &h[i]), GM_OK);
		assert_int_not_equal(h[i], 0);
		for (j = 0; j < i; j++)
			assert_int_not_equal(h[i], h[j]);
		assert_ptr_equal(a, r->kres->alloc[i]);
		assert_int_equal(a->refs, 1);
		assert_int_equal(a->d.size, s[i].size);
		assert_int_equal(a->d.pitch, s[i].pitch);
		assert_int_equal(a->d.width, s[i].width);
		assert_int_equal(a->d.height, s[i].height);
		assert_int_equal(a->d.format, s[i].format);
		assert_int_equal(a->d.bpe_log2, s[i].bpe_log2);
		assert_int_equal(a->d.tile, s[i].tile);
		assert_int_equal(a->d.cpu_visible, s[i].cpu_visible);
		assert_int_equal(a->pinned, s[i].pinned);
		assert_int_equal(a->d.priv_bytes, s[i].priv_bytes);
		for (j = 0; j < a->d.priv_bytes; j++)
			assert_int_equal(a->priv[j], (uint8_t)(j * 7 + 1));
		assert_ptr_equal(a->d.priv, a->priv);
		assert_false(a->resident);
		assert_int_equal(a->loc.seg_id, FW_SEG_NONE);
		assert_false(a->content_valid);
		assert_int_equal(a->align, s[i].tile == GPU_TILE_SS64K ? TILE64K : PAGE);
	}
	assert_int_not_equal(r->kres->alloc[0]->serial, r->kres->alloc[1]->serial);
	assert_st(fw_res_surface_handle(r, 4, &h[0]), GM_ERR_BAD_ARG);
	assert_st(fw_device_get_stats(f->d0, &ds), GM_OK);
	assert_int_equal(ds.nhandles, 4);
	assert_int_equal(ds.nresources, 1);
	assert_st(fw_adapter_get_stats(&f->ad, &as), GM_OK);
	assert_int_equal(as.nkres, 1);
	assert_int_equal(as.nallocs, 4);
	assert_int_equal(r->kres->share, 0);
	assert_int_equal(r->kres->opens, 1);

	assert_st(fw_res_destroy(r), GM_OK);
	assert_st(fw_device_get_stats(f->d0, &ds), GM_OK);
	assert_int_equal(ds.nhandles, 0);
	assert_int_equal(ds.nresources, 0);
	assert_st(fw_adapter_get_stats(&f->ad, &as), GM_OK);
	assert_int_equal(as.nkres, 0);
	assert_int_equal(as.nallocs, 0);
}

/*
 * Layout boundary table: each layout at its exact size is accepted and one
 * byte (or one tile) less is refused; then single-field breakages.
 */
static void test_res_layout_table(void **state)
{
	struct fx *f = *state;
	static const struct {
		enum gpu_tile_mode tile;
		uint32_t bpe, w, h;
		uint64_t less;       /* what "too small" takes off */
	} ok[] = {
		{ GPU_TILE_LINEAR, 0, 1, 1, 1 },
		{ GPU_TILE_LINEAR, 4, 33, 17, 1 },
		{ GPU_TILE_X, 0, 512, 8, PAGE },
		{ GPU_TILE_X, 2, 129, 9, PAGE },      /* two tiles wide, two high */
		{ GPU_TILE_Y, 3, 16, 32, PAGE },
		{ GPU_TILE_Y, 1, 65, 33, PAGE },
		{ GPU_TILE_SS64K, 0, 256, 256, TILE64K },
		{ GPU_TILE_SS64K, 1, 257, 1, TILE64K },
		{ GPU_TILE_SS64K, 4, 64, 65, TILE64K },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(ok); i++) {
		struct fw_alloc_desc d = surf_desc(ok[i].tile, ok[i].bpe, ok[i].w, ok[i].h);
		struct fw_resource *r = NULL;
		struct snap before = snap_take(f), after;
		int st;

		assert_st(fw_res_create(f->d0, &d, 1, false, &r), GM_OK);
		assert_st(fw_res_destroy(r), GM_OK);
		d.size -= ok[i].less;
		r = NULL;
		st = fw_res_create(f->d0, &d, 1, false, &r);
		if (st != GM_ERR_BAD_ARG)
			fail_msg("layout %zu, size - %" PRIu64 ": got %s", i, ok[i].less, gm_status_name(st));
		assert_null(r);
		after = snap_take(f);
		snap_same(&before, &after, "a refused layout");
	}
}

/* The ways a valid surface description is broken in test_res_bad_args. */
static const char *const bad_desc_names[] = {
	"size 0", "size past the address space", "width 0", "height 0", "pitch 0",
	"pitch < width * bpe", "bpe of 32 bytes", "unknown tile mode", "private data too big",
	"private data NULL", "linear pitch not whole elements", "X pitch not whole tiles",
	"Y size not whole tiles", "X height needs another tile row", "SS64K 2-byte pitch of 256",
};

static void bad_desc_apply(size_t which, struct fw_alloc_desc *d)
{
	static uint8_t priv[FW_PRIV_MAX + 1];

	switch (which) {
	case 0: d->size = 0; break;
	case 1: d->size = (1ull << GPU_PA_BITS) + TILE64K; break;
	case 2: d->width = 0; break;
	case 3: d->height = 0; break;
	case 4: d->pitch = 0; break;
	case 5: d->width = d->pitch / (1u << d->bpe_log2) + 1; break;
	case 6: d->bpe_log2 = GPU_TILE_BPE_LOG2_MAX + 1; break;
	case 7: d->tile = (enum gpu_tile_mode)(GPU_TILE_X + 1); break;
	case 8:
		d->priv = priv;
		d->priv_bytes = FW_PRIV_MAX + 1;
		break;
	case 9:
		d->priv = NULL;
		d->priv_bytes = 4;
		break;
	case 10:
		*d = surf_desc(GPU_TILE_LINEAR, 2, 10, 10);
		d->pitch = 42;
		d->size = 420;
		break;
	case 11:
		*d = surf_desc(GPU_TILE_X, 0, 512, 8);
		d->pitch = 256;
		d->width = 64;
		break;
	case 12:
		*d = surf_desc(GPU_TILE_Y, 0, 128, 32);
		d->size += 1;
		break;
	case 13:
		*d = surf_desc(GPU_TILE_X, 0, 512, 8);
		d->height = 9;
		break;
	default:
		*d = surf_desc(GPU_TILE_SS64K, 1, 128, 128);
		d->pitch = 256;
		break;
	}
}

/* Every public entry point's argument checks: the exact code, nothing changed. */
static void test_res_bad_args(void **state)
{
	struct fx *f = *state;
	struct fw_alloc_desc good[2] = { buf_desc(4096), surf_desc(GPU_TILE_LINEAR, 2, 10, 10) };
	struct fw_resource *r = NULL, *shared = NULL, *x = NULL;
	struct fw_alloc *a = NULL, *out[4] = { NULL }, *nul = NULL;
	struct fw_adapter other;
	struct fw_device_stats ds;
	struct fw_loc loc = { 99, 99 };
	struct snap before, after;
	uint32_t h = 0x12345, sh = 0;
	size_t i, n = 77;

	assert_st(fw_res_create(f->d0, good, 2, false, &r), GM_OK);
	assert_st(fw_res_create(f->d0, good, 1, true, &shared), GM_OK);
	assert_st(fw_res_share_handle(shared, &sh), GM_OK);
	a = r->kres->alloc[0];
	assert_st(fw_adapter_init(&other, NULL), GM_OK);
	before = snap_take(f);

	/* Surface descriptions, first and second surface. */
	for (i = 0; i < 2 * ARRAY_SIZE(bad_desc_names); i++) {
		struct fw_alloc_desc d[2] = { good[0], good[1] };
		int st;

		bad_desc_apply(i / 2, &d[i % 2]);
		st = fw_res_create(f->d0, d, 2, false, &x);
		if (st != GM_ERR_BAD_ARG)
			fail_msg("%s (surface %zu): got %s", bad_desc_names[i / 2], i % 2, gm_status_name(st));
	}

	assert_st(fw_res_create(NULL, good, 1, false, &x), GM_ERR_BAD_ARG);
	assert_st(fw_res_create(f->d0, NULL, 1, false, &x), GM_ERR_BAD_ARG);
	assert_st(fw_res_create(f->d0, good, 0, false, &x), GM_ERR_BAD_ARG);
	assert_st(fw_res_create(f->d0, good, FW_SURF_MAX + 1, false, &x), GM_ERR_BAD_ARG);
	assert_st(fw_res_create(f->d0, good, 1, false, NULL), GM_ERR_BAD_ARG);

	assert_st(fw_res_open(NULL, sh, &x), GM_ERR_BAD_ARG);
	assert_st(fw_res_open(f->d1, 0, &x), GM_ERR_BAD_ARG);
	assert_st(fw_res_open(f->d1, sh + 1, &x), GM_ERR_BAD_ARG);
	assert_st(fw_res_open(f->d1, sh, NULL), GM_ERR_BAD_ARG);
	assert_null(x);

	assert_st(fw_res_destroy(NULL), GM_ERR_BAD_ARG);
	assert_st(fw_res_surface_handle(NULL, 0, &h), GM_ERR_BAD_ARG);
	assert_st(fw_res_surface_handle(r, 2, &h), GM_ERR_BAD_ARG);
	assert_st(fw_res_surface_handle(r, SIZE_MAX, &h), GM_ERR_BAD_ARG);
	assert_st(fw_res_surface_handle(r, 0, NULL), GM_ERR_BAD_ARG);
	assert_st(fw_res_share_handle(NULL, &sh), GM_ERR_BAD_ARG);
	assert_st(fw_res_share_handle(r, &h), GM_ERR_BAD_ARG); /* not shared */
	assert_st(fw_res_share_handle(shared, NULL), GM_ERR_BAD_ARG);
	assert_int_equal(h, 0x12345);

	assert_st(fw_res_surface_handle(r, 0, &h), GM_OK);
	assert_st(fw_res_get_handle_data(NULL, h, &nul), GM_ERR_BAD_ARG);
	assert_st(fw_res_get_handle_data(f->d0, h, NULL), GM_ERR_BAD_ARG);
	assert_st(fw_res_get_handle_data(f->d0, 0, &nul), GM_ERR_BAD_ARG);
	assert_st(fw_res_get_handle_data(f->d0, h + 0x100, &nul), GM_ERR_BAD_ARG); /* no such slot */
	assert_st(fw_res_get_handle_data(f->d0, h ^ (1u << 20), &nul), GM_ERR_BAD_ARG); /* generation */
	assert_st(fw_res_get_handle_data(f->d1, h, &nul), GM_ERR_BAD_ARG); /* other device */
	assert_st(fw_res_get_handle_data(f->d0, UINT32_MAX, &nul), GM_ERR_BAD_ARG);
	assert_null(nul);

	assert_st(fw_device_get_stats(NULL, &ds), GM_ERR_BAD_ARG);
	assert_st(fw_device_get_stats(f->d0, NULL), GM_ERR_BAD_ARG);
	assert_st(fw_device_mark_removed(NULL), GM_ERR_BAD_ARG);
	assert_false(fw_device_is_removed(NULL));

	assert_st(fw_res_place(NULL, a, VRAM_ID, &loc), GM_ERR_BAD_ARG);
	assert_st(fw_res_place(&f->ad, NULL, VRAM_ID, &loc), GM_ERR_BAD_ARG);
	assert_st(fw_res_place(&other, a, VRAM_ID, &loc), GM_ERR_BAD_ARG);
	assert_st(fw_res_place(&f->ad, a, FW_SEG_NONE, &loc), GM_ERR_BAD_ARG);
	assert_st(fw_res_place(&f->ad, a, 9, &loc), GM_ERR_BAD_ARG);
	assert_st(fw_res_evict(NULL, a, &loc), GM_ERR_BAD_ARG);
	assert_st(fw_res_evict(&f->ad, NULL, &loc), GM_ERR_BAD_ARG);
	assert_st(fw_res_evict(&f->ad, a, &loc), GM_ERR_BAD_ARG); /* not resident */
	assert_int_equal(loc.seg_id, 99);

	assert_st(fw_res_pick_victims(NULL, VRAM_ID, 1, NULL, 0, out, 4, &n), GM_ERR_BAD_ARG);
	assert_st(fw_res_pick_victims(&f->ad, VRAM_ID, 1, NULL, 0, out, 4, NULL), GM_ERR_BAD_ARG);
	assert_st(fw_res_pick_victims(&f->ad, VRAM_ID, 1, NULL, 0, NULL, 4, &n), GM_ERR_BAD_ARG);
	assert_st(fw_res_pick_victims(&f->ad, VRAM_ID, 1, NULL, 2, out, 4, &n), GM_ERR_BAD_ARG);
	assert_st(fw_res_pick_victims(&f->ad, VRAM_ID, 1, &nul, 1, out, 4, &n), GM_ERR_BAD_ARG);
	assert_st(fw_res_pick_victims(&f->ad, 9, 1, NULL, 0, out, 4, &n), GM_ERR_BAD_ARG);
	assert_st(fw_res_pick_victims(&f->ad, VRAM_ID, VRAM_BYTES + 1, NULL, 0, out, 4, &n), GM_ERR_BAD_ARG);
	assert_int_equal(n, 77);
	assert_null(out[0]);

	after = snap_take(f);
	snap_same(&before, &after, "a bad argument");
	fw_adapter_fini(&other);
	assert_st(fw_res_destroy(r), GM_OK);
	assert_st(fw_res_destroy(shared), GM_OK);
}

static void test_res_no_mem(void **state)
{
	struct fx *f = *state;
	struct fw_alloc_desc s[3] = { buf_desc(4096), buf_desc(8192), surf_desc(GPU_TILE_X, 2, 128, 8) };
	struct fw_resource *r, *o, *fill[40];
	uint32_t sh = 0;
	long k, ok_at = -1;
	size_t i;

	/* Grow d1's handle table to the brink so open has to grow it. */
	for (i = 0; i < 21; i++)
		assert_st(fw_res_create(f->d1, s, 3, false, &fill[i]), GM_OK); /* 63 handles */
	for (k = 0; k < 16 && ok_at < 0; k++) {
		struct snap before = snap_take(f), after;
		int st;

		r = NULL;
		fheap_arm(&f->heap, k);
		st = fw_res_create(f->d0, s, 3, true, &r);
		fheap_arm(&f->heap, -1);
		if (st == GM_OK) {
			ok_at = k;
			break;
		}
		assert_st(st, GM_ERR_NO_MEM);
		assert_null(r);
		after = snap_take(f);
		snap_same(&before, &after, "a failed create");
	}
	assert_true(ok_at >= 5); /* slots, kres, array, three allocations, resource... */
	assert_st(fw_res_share_handle(r, &sh), GM_OK);
	for (k = 0;; k++) {
		struct snap before = snap_take(f), after;
		int st;

		o = NULL;
		fheap_arm(&f->heap, k);
		st = fw_res_open(f->d1, sh, &o);
		fheap_arm(&f->heap, -1);
		if (st == GM_OK)
			break;
		assert_st(st, GM_ERR_NO_MEM);
		assert_null(o);
		after = snap_take(f);
		snap_same(&before, &after, "a failed open");
	}
	/* k 0: the slot table's growth; k 1: the handle array (the table has grown by then). */
	assert_int_equal(k, 2);
	assert_int_equal(r->kres->alloc[0]->refs, 2);
	/* The resource struct itself. */
	{
		struct fw_resource *o2 = NULL;
		struct snap before = snap_take(f), after;

		fheap_arm(&f->heap, 0);
		assert_st(fw_res_open(f->d1, sh, &o2), GM_ERR_NO_MEM);
		fheap_arm(&f->heap, -1);
		after = snap_take(f);
		snap_same(&before, &after, "a failed open");
		assert_null(o2);
	}

	/* A failed placement (the live-range array) changes nothing either. */
	{
		struct fw_alloc *a = r->kres->alloc[0];
		struct snap before = snap_take(f), after;

		fheap_arm(&f->heap, 0);
		assert_st(fw_res_place(&f->ad, a, VRAM_ID, NULL), GM_ERR_NO_MEM);
		fheap_arm(&f->heap, -1);
		after = snap_take(f);
		snap_same(&before, &after, "a failed placement");
		assert_st(fw_res_place(&f->ad, a, VRAM_ID, NULL), GM_OK);
	}
	assert_st(fw_res_destroy(o), GM_OK);
	assert_st(fw_res_destroy(r), GM_OK);
	for (i = 0; i < 21; i++)
		assert_st(fw_res_destroy(fill[i]), GM_OK);
	assert_int_equal(seg_stats(fw_adapter_seg(&f->ad, VRAM_ID)).used, 0);
}

/* ------------------------------------------------------------ random resources */

#define RR_OPS 20000
#define RR_MAX 64

/* Every count agrees with a recount from the objects themselves. */
static void rr_check(struct fx *f, struct fw_device *dev[2], unsigned long op)
{
	uint64_t used[2] = { 0, 0 };
	size_t handles = 0, kres = 0, allocs = 0, k_refs = 0, d_handles = 0;
	const struct fw_kres *k;
	const struct fw_resource *r;
	struct fw_adapter_stats st;
	unsigned d;
	size_t i;

	for (k = f->ad.kres; k; k = k->next) {
		kres++;
		allocs += k->nalloc;
		for (i = 0; i < k->nalloc; i++) {
			const struct fw_alloc *a = k->alloc[i];

			SEED_CHECK(a->refs == k->opens);
			SEED_CHECK(a->resident == (a->loc.seg_id != FW_SEG_NONE));
			if (a->resident)
				used[a->loc.seg_id == SYS_ID] += a->d.size;
			k_refs += a->refs;
		}
	}
	for (d = 0; d < 2; d++) {
		size_t nres = 0;

		for (r = dev[d]->res; r; r = r->next) {
			nres++;
			handles += r->nsurf;
			for (i = 0; i < r->nsurf; i++) {
				struct fw_alloc *a = NULL;

				SEED_CHECK(fw_res_get_handle_data(dev[d], r->handle[i], &a) == GM_OK);
				SEED_CHECK(a == r->kres->alloc[i]);
			}
		}
		SEED_CHECK(nres == dev[d]->nres);
		d_handles += dev[d]->nhandles;
	}
	SEED_CHECK(handles == d_handles);
	SEED_CHECK(handles == k_refs);
	SEED_CHECK(fw_adapter_get_stats(&f->ad, &st) == GM_OK);
	SEED_CHECK(st.nkres == kres);
	SEED_CHECK(st.nallocs == allocs);
	SEED_CHECK(seg_stats(fw_adapter_seg(&f->ad, VRAM_ID)).used == used[0]);
	SEED_CHECK(seg_stats(fw_adapter_seg(&f->ad, SYS_ID)).used == used[1]);
	SEED_CHECK(fw_seg_consistent(fw_adapter_seg(&f->ad, VRAM_ID)));
	SEED_CHECK(fw_seg_consistent(fw_adapter_seg(&f->ad, SYS_ID)));
}

/* A random resource on @d (the first tracked resource of each device). */
static struct fw_resource *rr_pick(struct fw_device *d, uint64_t *rng)
{
	struct fw_resource *r = d->res;
	size_t k;

	if (!d->nres)
		return NULL;
	for (k = rng_below(rng, d->nres); k; k--)
		r = r->next;
	return r;
}

static void test_res_random(void **state)
{
	struct fx *f = *state;
	struct fw_device *dev[2] = { f->d0, f->d1 };
	uint64_t rng = g_seed ^ 0x7265735f726e6400ull;
	unsigned long op, placed = 0, evictions = 0, fulls = 0;

	for (op = 0; op < RR_OPS; op++) {
		struct fw_device *d = dev[rng_below(&rng, 2)];
		struct fw_resource *r = rr_pick(d, &rng);
		unsigned what = (unsigned)rng_below(&rng, 10);

		if (what < 3 && d->nres < RR_MAX) {
			struct fw_alloc_desc s[4];
			size_t n = 1 + rng_below(&rng, 4), i;
			struct fw_resource *nr = NULL;

			for (i = 0; i < n; i++)
				s[i] = rng_below(&rng, 3) ? buf_desc((uint32_t)(1 + rng_below(&rng, 512 * KIB)))
							  : surf_desc(GPU_TILE_SS64K, (uint32_t)rng_below(&rng, 5),
								      1 + (uint32_t)rng_below(&rng, 512),
								      1 + (uint32_t)rng_below(&rng, 512));
			SEED_CHECK(fw_res_create(d, s, n, rng_below(&rng, 2), &nr) == GM_OK);
		} else if (what < 4 && r) {
			uint32_t sh;
			struct fw_resource *o = NULL;

			if (fw_res_share_handle(r, &sh) == GM_OK && d->nres < RR_MAX)
				SEED_CHECK(fw_res_open(dev[rng_below(&rng, 2)], sh, &o) == GM_OK);
		} else if (what < 6 && r) {
			SEED_CHECK(fw_res_destroy(r) == GM_OK);
		} else if (what < 9 && r) {
			struct fw_alloc *a = r->kres->alloc[rng_below(&rng, r->nsurf)];
			unsigned seg = rng_below(&rng, 2) ? VRAM_ID : SYS_ID;
			int st;

			a->last_use = op;
			if (a->resident && a->loc.seg_id == seg)
				continue;
			st = fw_res_place(&f->ad, a, seg, NULL);
			if (st == GM_ERR_FULL) {
				static struct fw_alloc *v[1024];
				size_t nv = 0, i;

				fulls++;
				st = fw_res_pick_victims(&f->ad, seg, a->d.size, &a, 1, v, ARRAY_SIZE(v), &nv);
				SEED_CHECK(st == GM_OK || st == GM_ERR_BUSY);
				for (i = 0; st == GM_OK && i < nv; i++) {
					SEED_CHECK(v[i] != a && v[i]->loc.seg_id == seg && !v[i]->pinned);
					SEED_CHECK(fw_res_evict(&f->ad, v[i], NULL) == GM_OK);
					evictions++;
				}
			} else {
				SEED_CHECK(st == GM_OK);
				placed++;
			}
		} else if (r) {
			struct fw_alloc *a = r->kres->alloc[rng_below(&rng, r->nsurf)];
			int want = a->resident ? GM_OK : GM_ERR_BAD_ARG;

			SEED_CHECK(fw_res_evict(&f->ad, a, NULL) == want);
		}
		if (op % 16 == 0)
			rr_check(f, dev, op);
	}
	rr_check(f, dev, op);
	print_message("  %lu ops: %lu placements, %lu FULL, %lu evictions\n", op, placed, fulls, evictions);
	SEED_CHECK(placed > 0 && fulls > 0 && evictions > 0);
}

/* ------------------------------------------------------------ status */

static void test_status_values(void **state)
{
	int i;

	(void)state;
	for (i = GM_OK; i < GM_ERR_DEVICE_REMOVED; i++)
		assert_int_not_equal(GM_ERR_DEVICE_REMOVED, i);
	assert_true(GM_ERR_DEVICE_REMOVED > 0 && GM_ERR_DEVICE_REMOVED < GM_ERR_COUNT);
	assert_string_equal(gm_status_name(GM_ERR_DEVICE_REMOVED), "GM_ERR_DEVICE_REMOVED");
	assert_string_equal(gm_status_name(GM_ERR_FULL), "GM_ERR_FULL");
}

/* ------------------------------------------------------------ main */

#define FX(t) cmocka_unit_test_setup_teardown(t, setup, teardown)

int main(void)
{
	const char *only = getenv("GPUSIM_TEST");
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_adapter_bad_args),
		FX(test_device_limits),
		FX(test_res_create_surfaces),
		FX(test_res_layout_table),
		FX(test_res_bad_args),
		FX(test_res_no_mem),
		FX(test_res_random),
		cmocka_unit_test(test_status_values),
	};

	g_seed = tb_seed(REPRO);
	if (only && *only)
		cmocka_set_test_filter(only);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
