// SPDX-License-Identifier: MIT
/*
 * test_fw_residency.c - cmocka unit tests for placement, eviction and victim selection (fw/vidmm/fw_residency.c):
 * place and evict, LRU victims with pinned and excluded allocations, the
 * victims of one placement's lowest hole.
 *
 * Build and run:
 *   gcc -std=c11 -O2 -g -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes \
 *       -Ihw -Imodel -Idma -Ifw/vidmm -Ifw/kmd -Immu -Itb -Itb/unit -o /tmp/test_fw_residency tb/unit/test_fw_residency.c tb/unit/tb_fw.c \
 *       fw/vidmm/fw_mem.c fw/vidmm/fw_adapter.c fw/vidmm/fw_res.c fw/vidmm/fw_residency.c hw/gpu_tile.c \
 *       hw/gpu_names.c model/gm_status.c tb/tb_seed.c -lcmocka
 *   /tmp/test_fw_residency
 *
 * Testplan (feature -> tests)
 *   placement / eviction ............ test_place_evict
 *   victim selection ................ test_pick_victims (LRU, pinned, excluded, BUSY,
 *                                     FULL, moves nothing)
 *   eviction for one placement ...... test_pick_hole (only what stands in the lowest
 *                                     hole, not a byte count; BUSY, cap, bad args)
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

#define REPRO "build/tests/test_fw_residency"
#include "tb_fw.h"

/* ------------------------------------------------------------ residency */

static void test_place_evict(void **state)
{
	struct fx *f = *state;
	struct fw_alloc_desc s[3] = { buf_desc(100), surf_desc(GPU_TILE_SS64K, 2, 128, 128), buf_desc(4096) };
	struct fw_seg *vram = fw_adapter_seg(&f->ad, VRAM_ID), *sys = fw_adapter_seg(&f->ad, SYS_ID);
	struct fw_resource *r = NULL, *big = NULL;
	struct fw_alloc *a, *t, *v;
	struct fw_loc prev;
	struct snap before, after;

	s[2].cpu_visible = true;
	assert_st(fw_res_create(f->d0, s, 3, false, &r), GM_OK);
	a = r->kres->alloc[0];
	t = r->kres->alloc[1];
	v = r->kres->alloc[2];

	assert_st(fw_res_place(&f->ad, a, VRAM_ID, &prev), GM_OK);
	assert_int_equal(prev.seg_id, FW_SEG_NONE);
	assert_true(a->resident);
	assert_int_equal(a->loc.seg_id, VRAM_ID);
	assert_int_equal(a->loc.addr % PAGE, 0);
	assert_st(fw_res_place(&f->ad, t, VRAM_ID, NULL), GM_OK);
	assert_int_equal(t->loc.addr % TILE64K, 0);
	assert_int_equal(seg_stats(vram).used, a->d.size + t->d.size);
	assert_st(fw_res_place(&f->ad, a, VRAM_ID, NULL), GM_ERR_BAD_ARG); /* already there */

	/* Move to system memory: the old place comes back, VRAM is freed. */
	assert_st(fw_res_place(&f->ad, a, SYS_ID, &prev), GM_OK);
	assert_int_equal(prev.seg_id, VRAM_ID);
	assert_int_equal(prev.addr, GPU_VRAM_BASE);
	assert_int_equal(a->loc.seg_id, SYS_ID);
	assert_true(a->loc.addr >= GPU_SYSMEM_BASE);
	assert_int_equal(seg_stats(vram).used, t->d.size);
	assert_int_equal(seg_stats(sys).used, a->d.size);

	/* Evict: nowhere. */
	assert_st(fw_res_evict(&f->ad, a, &prev), GM_OK);
	assert_int_equal(prev.seg_id, SYS_ID);
	assert_false(a->resident);
	assert_int_equal(a->loc.seg_id, FW_SEG_NONE);
	assert_int_equal(a->loc.addr, 0);
	assert_int_equal(seg_stats(sys).used, 0);
	assert_st(fw_res_evict(&f->ad, a, NULL), GM_ERR_BAD_ARG);

	/* CPU-visible allocations only go where the CPU sees. */
	before = snap_take(f);
	assert_st(fw_res_place(&f->ad, v, VRAM_ID, NULL), GM_ERR_BAD_ARG);
	after = snap_take(f);
	snap_same(&before, &after, "a refused placement");
	assert_st(fw_res_place(&f->ad, v, SYS_ID, NULL), GM_OK);

	/* Pinned: placed once, then neither moved nor evicted. */
	t->pinned = true;
	before = snap_take(f);
	assert_st(fw_res_place(&f->ad, t, SYS_ID, NULL), GM_ERR_BUSY);
	assert_st(fw_res_evict(&f->ad, t, &prev), GM_ERR_BUSY);
	after = snap_take(f);
	snap_same(&before, &after, "a pinned allocation");
	t->pinned = false;

	/* FULL: a surface bigger than what is left, nothing changed. */
	{
		struct fw_alloc_desc d = buf_desc((uint32_t)(VRAM_BYTES - TILE64K));

		assert_st(fw_res_create(f->d0, &d, 1, false, &big), GM_OK);
		before = snap_take(f);
		assert_st(fw_res_place(&f->ad, big->kres->alloc[0], VRAM_ID, NULL), GM_ERR_FULL);
		after = snap_take(f);
		snap_same(&before, &after, "a full segment");
		/* Larger than the segment: can never fit. */
		d = buf_desc((uint32_t)(SYS_BYTES + PAGE));
		assert_st(fw_res_destroy(big), GM_OK);
		assert_st(fw_res_create(f->d0, &d, 1, false, &big), GM_OK);
		assert_st(fw_res_place(&f->ad, big->kres->alloc[0], SYS_ID, NULL), GM_ERR_BAD_ARG);
		assert_st(fw_res_destroy(big), GM_OK);
	}

	/* Destroying the resource frees every range it held. */
	assert_st(fw_res_destroy(r), GM_OK);
	assert_int_equal(seg_stats(vram).used, 0);
	assert_int_equal(seg_stats(sys).used, 0);
}

#define NV 6

/*
 * A victim picker's answer against its table row: status @st (want
 * @want_st); on GM_OK @n victims in @out (want @want_n, NULL after them),
 * out[j] == a[order[j]]; on failure nothing written (out[0] NULL, @n left
 * at the 99 the caller set).
 */
/* Pin the allocations @a[0..n) whose bit is set in @pinned and list those
 * whose bit is set in @excluded in @ex: a picker table row's set-up.  Returns
 * how many are excluded. */
static size_t pin_and_exclude(struct fw_alloc *const *a, size_t n, unsigned pinned,
			      unsigned excluded, struct fw_alloc **ex)
{
	size_t nex = 0, j;

	for (j = 0; j < n; j++) {
		a[j]->pinned = pinned >> j & 1;
		if (excluded >> j & 1)
			ex[nex++] = a[j];
	}
	return nex;
}

static void check_picked(const char *name, int st, int want_st, struct fw_alloc *const *out,
			 size_t n, size_t want_n, struct fw_alloc *const *a, const int *order)
{
	if (st != want_st)
		fail_msg("%s: got %s, want %s", name, gm_status_name(st), gm_status_name(want_st));
	if (st != GM_OK) {
		assert_int_equal(n, 99);
		assert_null(out[0]);
		return;
	}
	if (n != want_n)
		fail_msg("%s: %zu victims, want %zu", name, n, want_n);
	for (size_t j = 0; j < n; j++)
		if (out[j] != a[order[j]])
			fail_msg("%s: victim %zu is not a[%d]", name, j, order[j]);
	assert_null(out[n]);
}

static void test_pick_victims(void **state)
{
	struct fx *f = *state;
	/* Sizes and LRU stamps; serial order breaks the tie of 1 and 3. */
	static const uint32_t size[NV] = { 64 * 1024, 128 * 1024, 64 * 1024, 256 * 1024, 64 * 1024, 4096 };
	static const uint64_t stamp[NV] = { 5, 1, 3, 1, 9, 2 };
	/* LRU order: 1 (1, older serial), 3 (1), 5 (2), 2 (3), 0 (5), 4 (9). */
	struct fw_alloc_desc s[NV];
	struct fw_resource *r = NULL;
	struct fw_alloc *a[NV], *out[NV + 1], *sysa, *unplaced;
	struct snap before, after;
	size_t i, n;
	static const struct {
		const char *name;
		uint64_t need;
		unsigned pinned, excluded; /* bit masks over a[] */
		size_t cap;
		int st;
		size_t n;
		int order[NV];
	} T[] = {
		{ "one byte", 1, 0, 0, NV, GM_OK, 1, { 1 } },
		{ "exactly the oldest", 128 * 1024, 0, 0, NV, GM_OK, 1, { 1 } },
		{ "one more byte", 128 * 1024 + 1, 0, 0, NV, GM_OK, 2, { 1, 3 } },
		{ "tie by serial", 384 * 1024 + 1, 0, 0, NV, GM_OK, 3, { 1, 3, 5 } },
		{ "everything", 580 * 1024, 0, 0, NV, GM_OK, 6, { 1, 3, 5, 2, 0, 4 } },
		{ "one more than everything", 580 * 1024 + 1, 0, 0, NV, GM_ERR_BUSY, 0, { 0 } },
		{ "pinned skipped", 1, 1u << 1, 0, NV, GM_OK, 1, { 3 } },
		{ "excluded skipped", 256 * 1024, 0, 1u << 3 | 1u << 5, NV, GM_OK, 3, { 1, 2, 0 } },
		{ "pinned and excluded", 68 * 1024 + 1, 1u << 1 | 1u << 0, 1u << 3, NV, GM_OK, 3, { 5, 2, 4 } },
		{ "not enough left", 200 * 1024, 0x3f & ~(1u << 4), 0, NV, GM_ERR_BUSY, 0, { 0 } },
		{ "all excluded", 1, 0, 0x3f, NV, GM_ERR_BUSY, 0, { 0 } },
		{ "cap too small", 384 * 1024 + 1, 0, 0, 2, GM_ERR_FULL, 0, { 0 } },
		{ "cap exact", 384 * 1024 + 1, 0, 0, 3, GM_OK, 3, { 1, 3, 5 } },
		{ "need 0", 0, 0, 0, 0, GM_OK, 0, { 0 } },
	};

	for (i = 0; i < NV; i++)
		s[i] = buf_desc(size[i]);
	assert_st(fw_res_create(f->d0, s, NV, false, &r), GM_OK);
	for (i = 0; i < NV; i++) {
		a[i] = r->kres->alloc[i];
		a[i]->last_use = stamp[i];
		assert_st(fw_res_place(&f->ad, a[i], VRAM_ID, NULL), GM_OK);
	}
	/* Neither an allocation in another segment nor an unplaced one is a candidate. */
	s[0] = buf_desc(4096);
	assert_st(fw_res_create(f->d1, s, 2, false, &r), GM_OK);
	sysa = r->kres->alloc[0];
	unplaced = r->kres->alloc[1];
	sysa->last_use = unplaced->last_use = 0;
	assert_st(fw_res_place(&f->ad, sysa, SYS_ID, NULL), GM_OK);

	for (i = 0; i < ARRAY_SIZE(T); i++) {
		struct fw_alloc *ex[NV];
		size_t nex = pin_and_exclude(a, NV, T[i].pinned, T[i].excluded, ex);
		int st;

		memset(out, 0, sizeof(out));
		n = 99;
		before = snap_take(f);
		st = fw_res_pick_victims(&f->ad, VRAM_ID, T[i].need, ex, nex, out, T[i].cap, &n);
		after = snap_take(f);
		snap_same(&before, &after, "picking victims"); /* moves nothing */
		check_picked(T[i].name, st, T[i].st, out, n, T[i].n, a, T[i].order);
	}
	for (i = 0; i < NV; i++)
		a[i]->pinned = false;
	/* Stamps move: the most recently used goes last. */
	a[1]->last_use = 100;
	assert_st(fw_res_pick_victims(&f->ad, VRAM_ID, 1, NULL, 0, out, NV, &n), GM_OK);
	assert_int_equal(n, 1);
	assert_ptr_equal(out[0], a[3]);
}

#define PH_N 4

/* A linear buffer of @bytes in rows of 64 KiB (or one row when smaller). */
static struct fw_alloc_desc rows_desc(uint64_t bytes)
{
	struct fw_alloc_desc d = buf_desc(bytes < 64 * KIB ? (uint32_t)bytes : 64 * KIB);

	d.height = (uint32_t)(bytes / d.width);
	d.size = bytes;
	return d;
}

/*
 * fw_res_pick_hole over a full VRAM segment: A0 1 MiB | S 4 KiB | A1 1 MiB |
 * F 13 MiB | 1 MiB - 4 KiB free, LRU order S, A0, A1, F.  A 1 MiB request
 * takes victims in LRU order until a hole opens and evicts only those in
 * it: S, the oldest, never goes when its 4 KiB are not where the request
 * lands (such an eviction once found no room in the system segment).
 */
static void test_pick_hole(void **state)
{
	struct fx *f = *state;
	static const uint64_t size[PH_N] = { 1 * MIB, 4 * KIB, 1 * MIB, 13 * MIB };
	static const uint64_t stamp[PH_N] = { 2, 1, 3, 4 };
	enum { A0, S, A1, F };
	struct fw_alloc_desc d[PH_N];
	struct fw_resource *r = NULL;
	struct fw_alloc *a[PH_N], *out[PH_N + 1];
	struct snap before, after;
	size_t i, n;
	static const struct {
		const char *name;
		uint64_t bytes, align;
		unsigned pinned, excluded; /* bit masks over a[] */
		size_t cap;
		int st;
		size_t n;
		int order[PH_N];
	} T[] = {
		{ "fits now", 64 * KIB, 4 * KIB, 0, 0, PH_N, GM_OK, 0, { 0 } },
		{ "the end gap exactly", 1 * MIB - 4 * KIB, 4 * KIB, 0, 0, PH_N, GM_OK, 0, { 0 } },
		{ "A0 alone, S stays", 1 * MIB, 4 * KIB, 0, 0, PH_N, GM_OK, 1, { A0 } },
		{ "A0 busy: S and A1", 1 * MIB, 4 * KIB, 0, 1u << A0, PH_N, GM_OK, 2, { S, A1 } },
		{ "cap 1: the older", 1 * MIB, 4 * KIB, 0, 1u << A0, 1, GM_OK, 1, { S } },
		{ "A0, A1 busy: F, S stays", 1 * MIB, 4 * KIB, 0, 1u << A0 | 1u << A1, PH_N, GM_OK, 1,
		  { F } },
		{ "A0 pinned, F busy: S and A1", 1 * MIB, 64 * KIB, 1u << A0, 1u << F, PH_N, GM_OK, 2,
		  { S, A1 } },
		{ "only S free to go", 1 * MIB, 4 * KIB, 1u << F, 1u << A0 | 1u << A1, PH_N,
		  GM_ERR_BUSY, 0, { 0 } },
		{ "nothing evictable", 1 * MIB, 4 * KIB, 0xf, 0, PH_N, GM_ERR_BUSY, 0, { 0 } },
		{ "the whole segment", VRAM_BYTES, 4 * KIB, 0, 0, PH_N, GM_OK, 4, { S, A0, A1, F } },
	};

	for (i = 0; i < PH_N; i++)
		d[i] = rows_desc(size[i]);
	assert_st(fw_res_create(f->d0, d, PH_N, false, &r), GM_OK);
	for (i = 0; i < PH_N; i++) {
		a[i] = r->kres->alloc[i];
		a[i]->last_use = stamp[i];
		assert_st(fw_res_place(&f->ad, a[i], VRAM_ID, NULL), GM_OK);
	}
	assert_int_equal(a[A1]->loc.addr - a[A0]->loc.addr, 1 * MIB + 4 * KIB);

	for (i = 0; i < ARRAY_SIZE(T); i++) {
		struct fw_alloc *ex[PH_N];
		size_t nex = pin_and_exclude(a, PH_N, T[i].pinned, T[i].excluded, ex);
		int st;

		memset(out, 0, sizeof(out));
		n = 99;
		before = snap_take(f);
		st = fw_res_pick_hole(&f->ad, VRAM_ID, T[i].bytes, T[i].align, ex, nex, out, T[i].cap,
				      &n);
		after = snap_take(f);
		snap_same(&before, &after, "picking a hole"); /* moves nothing */
		check_picked(T[i].name, st, T[i].st, out, n, T[i].n, a, T[i].order);
	}
	for (i = 0; i < PH_N; i++)
		a[i]->pinned = false;

	/* Evicting what it names makes the placement fit. */
	assert_st(fw_res_pick_hole(&f->ad, VRAM_ID, 1 * MIB, 4 * KIB, &a[A0], 1, out, PH_N, &n), GM_OK);
	assert_int_equal(n, 2);
	for (i = 0; i < n; i++)
		assert_st(fw_res_evict(&f->ad, out[i], NULL), GM_OK);
	d[0] = rows_desc(1 * MIB);
	assert_st(fw_res_create(f->d0, d, 1, false, &r), GM_OK);
	assert_st(fw_res_place(&f->ad, r->kres->alloc[0], VRAM_ID, NULL), GM_OK);

	/* Bad arguments: the exact code, nothing written. */
	n = 99;
	assert_st(fw_res_pick_hole(NULL, VRAM_ID, 1, 4096, NULL, 0, out, 1, &n), GM_ERR_BAD_ARG);
	assert_st(fw_res_pick_hole(&f->ad, VRAM_ID, 1, 4096, NULL, 0, NULL, 1, &n), GM_ERR_BAD_ARG);
	assert_st(fw_res_pick_hole(&f->ad, VRAM_ID, 1, 4096, NULL, 0, out, 0, &n), GM_ERR_BAD_ARG);
	assert_st(fw_res_pick_hole(&f->ad, VRAM_ID, 1, 4096, NULL, 0, out, 1, NULL), GM_ERR_BAD_ARG);
	assert_st(fw_res_pick_hole(&f->ad, VRAM_ID, 1, 4096, NULL, 1, out, 1, &n), GM_ERR_BAD_ARG);
	assert_st(fw_res_pick_hole(&f->ad, VRAM_ID, 1, 3, NULL, 0, out, 1, &n), GM_ERR_BAD_ARG);
	assert_st(fw_res_pick_hole(&f->ad, VRAM_ID, 1, 0, NULL, 0, out, 1, &n), GM_ERR_BAD_ARG);
	assert_st(fw_res_pick_hole(&f->ad, VRAM_ID, 0, 4096, NULL, 0, out, 1, &n), GM_ERR_BAD_ARG);
	assert_st(fw_res_pick_hole(&f->ad, VRAM_ID, VRAM_BYTES + 1, 4096, NULL, 0, out, 1, &n),
		  GM_ERR_BAD_ARG);
	assert_st(fw_res_pick_hole(&f->ad, 9, 1, 4096, NULL, 0, out, 1, &n), GM_ERR_BAD_ARG);
	assert_int_equal(n, 99);
}

/* ------------------------------------------------------------ main */

#define FX(t) cmocka_unit_test_setup_teardown(t, setup, teardown)

int main(void)
{
	const char *only = getenv("GPUSIM_TEST");
	const struct CMUnitTest tests[] = {
		FX(test_place_evict),
		FX(test_pick_victims),
		FX(test_pick_hole),
	};

	if (only && *only)
		cmocka_set_test_filter(only);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
