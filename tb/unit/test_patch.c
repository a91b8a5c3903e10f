// SPDX-License-Identifier: MIT
/*
 * test_patch.c - cmocka unit tests for the allocation and patch-location
 * lists and the patcher (dma/dma_patch.c), and for the command-buffer
 * validator (dma/dma_validate.c).
 *
 * Build and run:
 *   gcc -std=c11 -O2 -g -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes \
 *       -Ihw -Imodel -Idma -Itb tb/unit/test_patch.c dma/dma_patch.c dma/dma_validate.c \
 *       hw/gpu_pkt.c dma/dma_buf.c hw/gpu_tile.c hw/gpu_names.c \
 *       model/gm_status.c tb/tb_seed.c -lcmocka -o /tmp/test_patch
 *   /tmp/test_patch
 *
 * The random test takes its seed from tb_seed() ($GPUSIM_SEED, else the clock) and
 * prints it; $GPUSIM_TEST=<test name> runs one test.  A failure prints the
 * command that reproduces it.  No test measures time (benchmarks are kept
 * apart; rnd_case_make() is a generator of valid requests they can reuse).
 *
 * Tests (the patcher, the DxgkDdiPatch role; DXGKARG_PATCH, d3dkmddi.h)
 *   lists: add, one entry per allocation, full ..... test_alloc_list, test_patch_list
 *   encoding of each DriverId, exact bytes ........ test_patch_golden
 *   every argument/entry rule, exact error and
 *     why, buffer byte-identical; valid twins ..... test_patch_bad_args, test_patch_null
 *   random lists: invalid never writes, valid
 *     writes exactly the listed bytes; re-patch .. test_patch_random
 *   re-patch after an allocation moved ........... test_patch_repatch
 *   only [start, start+length) read and written .. test_patch_subrange
 *   overlapping entries: list order ............... test_patch_overlap
 *   paging buffers carry no lists ................. test_patch_paging
 *   fence-id entries without allocations .......... test_patch_fence_only
 *   validator accept/refuse table, exact cause,
 *     offset and header ........................... test_validate_table
 *   validator bad calls, NULL report, names ....... test_validate_bad_call, test_validate_names
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

#include "dma_buf.h"
#include "dma_patch.h"
#include "dma_validate.h"
#include "gpu_hw.h"
#include "gpu_names.h"
#include "tb_seed.h"

/*
 * With -fsanitize=undefined, make a UBSan report fatal so it fails the run
 * instead of scrolling past; unused in builds without the sanitizer.
 */
const char *__ubsan_default_options(void);
const char *__ubsan_default_options(void)
{
	return "halt_on_error=1:print_stacktrace=1";
}

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#define ADDR_LIMIT (1ull << GPU_PA_BITS) /* first address past the address space */
#define GUARD 0xa5u                      /* fill of DMA-buffer bytes nothing patched */
#define SLACK 16u                        /* bytes of storage past dma_size, must stay GUARD */
#define NONE UINT32_MAX                  /* stats.bad_entry when no entry is to blame */
#define REPRO "build/tests/test_patch"

/* ------------------------------------------------------------ fixture */

#define FX_DMA_BYTES 0x100u
#define FX_ALLOCS 4u
#define FX_LOCS 6u
#define FX_FENCE 0x600df00du

/*
 * A valid patch request over a DMA buffer of FX_DMA_BYTES (+ SLACK) heap
 * bytes, submission [0x10, 0xf0), six entries (one of each kind, the first
 * and the last 8 bytes of the submission, an address just under 2^48).
 */
struct fix {
	uint8_t *store; /* FX_DMA_BYTES + SLACK */
	uint8_t *snap;  /* copy taken by fix_snap() */
	uint8_t priv[32];
	struct dma_alloc_entry allocs[FX_ALLOCS];
	struct dma_patch_loc locs[FX_LOCS];
	struct dma_patch_stats st;
	struct dma_patch_args a;
};

#define FX_TOTAL (FX_DMA_BYTES + SLACK)

static void fix_init(struct fix *f)
{
	static const struct dma_alloc_entry allocs[FX_ALLOCS] = {
		{ (void *)0x1, 0x00100000ull, 0x1000, 1, true },
		{ (void *)0x2, 0x123456789000ull, 0x10000, 1, false },
		{ (void *)0x3, GPU_SYSMEM_BASE + 0x2000, 0x100, 2, false },
		{ (void *)0x4, ADDR_LIMIT - 0x1000, 0x1000, 1, true },
	};
	/* alloc_index, slot_id, driver_id, alloc_offset, patch_offset, split_offset */
	static const struct dma_patch_loc locs[FX_LOCS] = {
		{ 0, 1, DMA_PATCH_ADDR64, 0x10, 0x18, 0x10 },
		{ 1, 2, DMA_PATCH_ADDR_LO32, 0x20, 0x24, 0x20 },
		{ 1, 2, DMA_PATCH_ADDR_HI16, 0x20, 0x30, 0x20 },
		{ 0, 0, DMA_PATCH_FENCE_ID32, 0, 0x80, 0x7c },
		{ 3, 0xffffff, DMA_PATCH_ADDR64, 0xff8, 0xe8, 0xe4 },
		{ 2, 0, DMA_PATCH_ADDR64, 0, 0x10, 0x10 },
	};

	f->store = test_malloc(FX_TOTAL);
	f->snap = test_malloc(FX_TOTAL);
	memset(f->store, GUARD, FX_TOTAL);
	memset(f->priv, 0x5c, sizeof(f->priv));
	memcpy(f->allocs, allocs, sizeof(allocs));
	memcpy(f->locs, locs, sizeof(locs));
	f->a = (struct dma_patch_args){
		.dma = f->store,
		.dma_size = FX_DMA_BYTES,
		.dma_segment_id = 0,
		.dma_phys = GPU_SYSMEM_BASE + 0x10000,
		.dma_sub_start = 0x10,
		.dma_sub_end = 0xf0,
		.priv = f->priv,
		.priv_size = sizeof(f->priv),
		.priv_sub_start = 0,
		.priv_sub_end = sizeof(f->priv),
		.allocs = f->allocs,
		.alloc_count = FX_ALLOCS,
		.locs = f->locs,
		.loc_count = FX_LOCS,
		.loc_sub_start = 0,
		.loc_sub_len = FX_LOCS,
		.fence_id = FX_FENCE,
		.flags = 0,
		.stats = &f->st,
	};
}

static void fix_free(struct fix *f)
{
	test_free(f->store);
	test_free(f->snap);
}

static void fix_snap(struct fix *f)
{
	memcpy(f->snap, f->store, FX_TOTAL);
}

/* Fail with @what unless the storage is byte-identical to fix_snap()'s. */
static void assert_unchanged(const uint8_t *now, const uint8_t *was, size_t n, const char *what)
{
	for (size_t i = 0; i < n; i++)
		if (now[i] != was[i])
			fail_msg("%s: byte 0x%zx is 0x%02x, was 0x%02x", what, i, now[i], was[i]);
}

static const char *st_str(int st)
{
	return gm_status_name(st);
}

/* Fail with @what unless dma_patch() answered @want_st / @want_why / @want_entry. */
static void assert_result(const char *what, int st, const struct dma_patch_stats *ps, int want_st,
			  uint32_t want_why, uint32_t want_entry)
{
	if (st != want_st || ps->why != want_why || ps->bad_entry != want_entry)
		fail_msg("%s: %s why %s entry %d, expected %s why %s entry %d", what, st_str(st),
			 dma_patch_why_name(ps->why), (int)ps->bad_entry, st_str(want_st),
			 dma_patch_why_name(want_why), (int)want_entry);
	if (st != GM_OK && (ps->entries || ps->bytes))
		fail_msg("%s: refused, yet stats say %u entries %" PRIu64 " bytes written", what,
			 ps->entries, ps->bytes);
}

/* ------------------------------------------------------------ lists */

static void test_alloc_list(void **state)
{
	struct dma_alloc_entry store[3];
	struct dma_alloc_list l;
	struct dma_alloc_entry a = { (void *)0x10, 0x1000, 0x100, 1, false };
	struct dma_alloc_entry b = { (void *)0x20, 0x2000, 0x100, 1, true };
	struct dma_alloc_entry anon = { NULL, 0x3000, 0x100, 1, false };
	struct dma_alloc_entry moved = a;
	uint32_t idx = 77;

	(void)state;
	dma_alloc_list_init(&l, store, ARRAY_SIZE(store));
	assert_int_equal(l.len, 0);
	assert_int_equal(dma_alloc_list_add(&l, &a, &idx), GM_OK);
	assert_int_equal(idx, 0);
	assert_int_equal(dma_alloc_list_add(&l, &b, &idx), GM_OK);
	assert_int_equal(idx, 1);

	/* The same allocation again: its entry, write flag OR'd, no new entry. */
	a.write = true;
	assert_int_equal(dma_alloc_list_add(&l, &a, &idx), GM_OK);
	assert_int_equal(idx, 0);
	assert_int_equal(l.len, 2);
	assert_true(store[0].write);
	a.write = false;
	assert_int_equal(dma_alloc_list_add(&l, &a, &idx), GM_OK);
	assert_true(store[0].write); /* a read reference does not clear it */

	/* The same handle at another place is a caller bug. */
	moved.addr += 0x1000;
	idx = 77;
	assert_int_equal(dma_alloc_list_add(&l, &moved, &idx), GM_ERR_BAD_ARG);
	moved = a;
	moved.size++;
	assert_int_equal(dma_alloc_list_add(&l, &moved, &idx), GM_ERR_BAD_ARG);
	moved = a;
	moved.segment_id++;
	assert_int_equal(dma_alloc_list_add(&l, &moved, &idx), GM_ERR_BAD_ARG);
	assert_int_equal(idx, 77);
	assert_int_equal(l.len, 2);

	/* NULL handles are never merged. */
	assert_int_equal(dma_alloc_list_add(&l, &anon, &idx), GM_OK);
	assert_int_equal(idx, 2);

	/* Full: a new allocation is refused, a known one still found. */
	assert_int_equal(dma_alloc_list_add(&l, &anon, &idx), GM_ERR_FULL);
	assert_int_equal(idx, 2);
	assert_int_equal(l.len, 3);
	assert_int_equal(dma_alloc_list_add(&l, &b, &idx), GM_OK);
	assert_int_equal(idx, 1);
	assert_int_equal(store[2].addr, anon.addr);

	/* Bad arguments. */
	assert_int_equal(dma_alloc_list_add(NULL, &a, &idx), GM_ERR_BAD_ARG);
	assert_int_equal(dma_alloc_list_add(&l, NULL, &idx), GM_ERR_BAD_ARG);
	assert_int_equal(dma_alloc_list_add(&l, &a, NULL), GM_ERR_BAD_ARG);
	dma_alloc_list_init(&l, NULL, 4);
	assert_int_equal(dma_alloc_list_add(&l, &a, &idx), GM_ERR_BAD_ARG);
	dma_alloc_list_init(&l, store, 0);
	assert_int_equal(dma_alloc_list_add(&l, &a, &idx), GM_ERR_FULL);
	assert_int_equal(l.len, 0);
}

static void test_patch_list(void **state)
{
	struct dma_patch_loc store[3];
	struct dma_patch_loc loc = { 1, 2, DMA_PATCH_ADDR64, 3, 8, 4 };
	struct dma_patch_list l;

	(void)state;
	memset(store, 0xee, sizeof(store));
	dma_patch_list_init(&l, store, 2);
	assert_int_equal(dma_patch_list_add(&l, &loc), GM_OK);
	loc.patch_offset = 16;
	assert_int_equal(dma_patch_list_add(&l, &loc), GM_OK);
	assert_int_equal(l.len, 2);
	assert_int_equal(store[0].patch_offset, 8);
	assert_int_equal(store[1].patch_offset, 16);
	assert_int_equal(dma_patch_list_add(&l, &loc), GM_ERR_FULL);
	assert_int_equal(l.len, 2);
	assert_int_equal(store[2].alloc_index, 0xeeeeeeeeu); /* past cap: untouched */
	assert_int_equal(dma_patch_list_add(NULL, &loc), GM_ERR_BAD_ARG);
	assert_int_equal(dma_patch_list_add(&l, NULL), GM_ERR_BAD_ARG);
	dma_patch_list_init(&l, NULL, 2);
	assert_int_equal(dma_patch_list_add(&l, &loc), GM_ERR_BAD_ARG);
}

/* ------------------------------------------------------------ golden */

struct span {
	uint32_t at;      /* byte offset */
	uint8_t n;        /* bytes */
	uint8_t b[8];
};

/* The fixture's patched bytes, written out by hand. */
static const struct span fx_golden[] = {
	/* entry 5: ADDR64 of SYSMEM_BASE + 0x2000 = 0x0100_0000_2000 */
	{ 0x10, 8, { 0x00, 0x20, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00 } },
	/* entry 0: ADDR64 of 0x100000 + 0x10 */
	{ 0x18, 8, { 0x10, 0x00, 0x10, 0x00, 0x00, 0x00, 0x00, 0x00 } },
	/* entry 1: LO32 of 0x1234_5678_9020 */
	{ 0x24, 4, { 0x20, 0x90, 0x78, 0x56 } },
	/* entry 2: HI16 of the same */
	{ 0x30, 4, { 0x34, 0x12, 0x00, 0x00 } },
	/* entry 3: SubmissionFenceId */
	{ 0x80, 4, { 0x0d, 0xf0, 0x0d, 0x60 } },
	/* entry 4: ADDR64 of 2^48 - 8: ADDR_HI 0xffff, its top half zero */
	{ 0xe8, 8, { 0xf8, 0xff, 0xff, 0xff, 0xff, 0xff, 0x00, 0x00 } },
};

/* Fail unless @buf holds exactly @sp over GUARD. */
static void assert_spans(const uint8_t *buf, size_t n, const struct span *sp, size_t nsp,
			 const char *what)
{
	uint8_t *want = test_malloc(n);

	memset(want, GUARD, n);
	for (size_t i = 0; i < nsp; i++)
		memcpy(&want[sp[i].at], sp[i].b, sp[i].n);
	for (size_t i = 0; i < n; i++)
		if (buf[i] != want[i]) {
			uint8_t got = buf[i], exp = want[i];

			test_free(want);
			fail_msg("%s: byte 0x%zx is 0x%02x, expected 0x%02x", what, i, got, exp);
		}
	test_free(want);
}

static void test_patch_golden(void **state)
{
	struct fix f;

	(void)state;
	fix_init(&f);
	assert_result("golden", dma_patch(&f.a), &f.st, GM_OK, DMA_PATCH_WHY_NONE, NONE);
	assert_int_equal(f.st.entries, FX_LOCS);
	assert_int_equal(f.st.bytes, 8 + 8 + 4 + 4 + 4 + 8);
	assert_spans(f.store, FX_TOTAL, fx_golden, ARRAY_SIZE(fx_golden), "golden");

	/* The same request again writes the same bytes (idempotent). */
	assert_int_equal(dma_patch(&f.a), GM_OK);
	assert_spans(f.store, FX_TOTAL, fx_golden, ARRAY_SIZE(fx_golden), "golden twice");

	/* Without stats. */
	memset(f.store, GUARD, FX_TOTAL);
	f.a.stats = NULL;
	assert_int_equal(dma_patch(&f.a), GM_OK);
	assert_spans(f.store, FX_TOTAL, fx_golden, ARRAY_SIZE(fx_golden), "golden, no stats");
	fix_free(&f);
}

/* ------------------------------------------------------------ bad arguments */

/* One row: a change to the valid fixture and the exact answer it must get. */
struct bad_case {
	const char *name;
	void (*mut)(struct fix *f);
	int want;          /* status */
	uint32_t why;      /* enum dma_patch_why */
	uint32_t entry;    /* stats.bad_entry */
};

/* Mutators, named for what they change.  Each invalid value sits next to a
 * valid twin in the table. */
static void m_none(struct fix *f) { (void)f; }
static void m_dma_null(struct fix *f) { f->a.dma = NULL; }
static void m_phys_2(struct fix *f) { f->a.dma_phys += 2; }
static void m_phys_limit(struct fix *f) { f->a.dma_phys = ADDR_LIMIT; }
static void m_phys_top(struct fix *f) { f->a.dma_phys = ADDR_LIMIT - FX_DMA_BYTES; }
static void m_phys_over(struct fix *f) { f->a.dma_phys = ADDR_LIMIT - FX_DMA_BYTES + 4; }
static void m_phys_huge(struct fix *f) { f->a.dma_phys = UINT64_MAX - 3; }
static void m_sub_swapped(struct fix *f) { f->a.dma_sub_start = 0xf4; }
static void m_sub_empty(struct fix *f)
{
	f->a.dma_sub_start = f->a.dma_sub_end = 0x80;
	f->a.loc_sub_len = 0;
}
static void m_sub_empty_entry(struct fix *f) { f->a.dma_sub_start = f->a.dma_sub_end = 0x80; }
static void m_sub_end_size(struct fix *f) { f->a.dma_sub_end = FX_DMA_BYTES; }
static void m_sub_end_past(struct fix *f) { f->a.dma_sub_end = FX_DMA_BYTES + 4; }
static void m_size_short(struct fix *f) { f->a.dma_size = 0xec; }
static void m_size_odd(struct fix *f) { f->a.dma_size = 0xf3; }
static void m_sub_start_2(struct fix *f) { f->a.dma_sub_start = 0x12; }
static void m_sub_end_2(struct fix *f) { f->a.dma_sub_end = 0xee; }
static void m_priv_null(struct fix *f) { f->a.priv = NULL; }
static void m_priv_none(struct fix *f)
{
	f->a.priv = NULL;
	f->a.priv_size = f->a.priv_sub_end = 0;
}
static void m_priv_end_past(struct fix *f) { f->a.priv_sub_end = f->a.priv_size + 1; }
static void m_priv_swapped(struct fix *f)
{
	f->a.priv_sub_start = 8;
	f->a.priv_sub_end = 4;
}
static void m_priv_start_4(struct fix *f) { f->a.priv_sub_start = 4; }
static void m_allocs_null(struct fix *f) { f->a.allocs = NULL; }
static void m_locs_null(struct fix *f) { f->a.locs = NULL; }
static void m_loc_range_past(struct fix *f) { f->a.loc_sub_start = 1; }
static void m_loc_range_end(struct fix *f)
{
	f->a.loc_sub_start = FX_LOCS;
	f->a.loc_sub_len = 0;
}
static void m_loc_range_wrap(struct fix *f)
{
	f->a.loc_sub_start = UINT32_MAX;
	f->a.loc_sub_len = 2;
}
static void m_loc_len_max(struct fix *f) { f->a.loc_sub_len = UINT32_MAX; }
static void m_flags_unknown(struct fix *f) { f->a.flags = 1u << 4; }
static void m_flags_all(struct fix *f) { f->a.flags = ~0u; }
static void m_flags_present(struct fix *f) { f->a.flags = DMA_PATCH_F_PRESENT; }
static void m_flags_redirected_null(struct fix *f)
{
	f->a.flags = DMA_PATCH_F_PRESENT | DMA_PATCH_F_REDIRECTED_PRESENT | DMA_PATCH_F_NULL_RENDERING;
}
static void m_flags_paging_present(struct fix *f)
{
	m_priv_none(f);
	f->a.allocs = NULL;
	f->a.locs = NULL;
	f->a.alloc_count = f->a.loc_count = f->a.loc_sub_len = 0;
	f->a.flags = DMA_PATCH_F_PAGING | DMA_PATCH_F_PRESENT;
}
/* The lists must not live inside the buffer the patcher writes. */
static void m_allocs_in_dma(struct fix *f)
{
	memcpy(f->store + 0x40, f->allocs, sizeof(f->allocs));
	f->a.allocs = (const struct dma_alloc_entry *)(f->store + 0x40);
}
static void m_locs_in_dma(struct fix *f)
{
	memcpy(f->store + 0x40, f->locs, sizeof(f->locs));
	f->a.locs = (const struct dma_patch_loc *)(f->store + 0x40);
}
/* The list in the same storage right after the (shrunk) buffer's last byte. */
#define FX_LOCS_AT (FX_DMA_BYTES - sizeof(((struct fix *)0)->locs))
static void m_locs_after_dma(struct fix *f)
{
	f->a.dma_size = f->a.dma_sub_end = FX_LOCS_AT;
	f->locs[3].patch_offset = f->locs[3].split_offset = 0x60; /* inside the smaller buffer */
	f->locs[4].patch_offset = f->locs[4].split_offset = 0x40;
	memcpy(f->store + FX_LOCS_AT, f->locs, sizeof(f->locs));
	f->a.locs = (const struct dma_patch_loc *)(f->store + FX_LOCS_AT);
}
static void m_locs_last_byte(struct fix *f)
{
	m_locs_after_dma(f);
	f->a.dma_size++; /* now the buffer's last byte is the list's first */
}

static void m_slot_reserved(struct fix *f) { f->locs[2].slot_id = 0x01000000; }
static void m_slot_top(struct fix *f) { f->locs[2].slot_id = 0x00ffffff; }
static void m_kind_count(struct fix *f) { f->locs[1].driver_id = DMA_PATCH_KIND_COUNT; }
static void m_kind_max(struct fix *f) { f->locs[1].driver_id = UINT32_MAX; }
static void m_index_count(struct fix *f) { f->locs[0].alloc_index = FX_ALLOCS; }
static void m_index_last(struct fix *f) { f->locs[0].alloc_index = FX_ALLOCS - 1; }
static void m_index_max(struct fix *f) { f->locs[0].alloc_index = UINT32_MAX; }
static void m_alloc_count_short(struct fix *f) { f->a.alloc_count = FX_ALLOCS - 1; }
static void m_off_size(struct fix *f) { f->locs[0].alloc_offset = 0x1000; }
static void m_off_last(struct fix *f) { f->locs[0].alloc_offset = 0xfff; }
static void m_off_max(struct fix *f) { f->locs[0].alloc_offset = UINT32_MAX; }
static void m_size_zero(struct fix *f) { f->allocs[0].size = 0; }
static void m_size_huge(struct fix *f)
{
	/* an allocation larger than any 32-bit offset */
	f->allocs[1].addr = 0x100000000ull;
	f->allocs[1].size = 0x200000000ull;
	f->locs[1].alloc_offset = UINT32_MAX;
}
static void m_fence_index(struct fix *f) { f->locs[3].alloc_index = 1; }
static void m_fence_offset(struct fix *f) { f->locs[3].alloc_offset = 4; }
static void m_addr_limit(struct fix *f)
{
	f->allocs[3].size = 0x2000;
	f->locs[4].alloc_offset = 0x1000;
}
static void m_addr_last(struct fix *f) { f->locs[4].alloc_offset = 0xfff; }
static void m_alloc_addr_limit(struct fix *f) { f->allocs[1].addr = ADDR_LIMIT; }
static void m_alloc_addr_wrap(struct fix *f)
{
	f->allocs[1].addr = UINT64_MAX - 0x10;
	f->allocs[1].size = 0x100;
}
static void m_align_2(struct fix *f) { f->locs[1].patch_offset = 0x26; }
static void m_align_1(struct fix *f) { f->locs[1].patch_offset = 0x25; }
static void m_align_64_at_4(struct fix *f) { f->locs[0].patch_offset = 0x1c; }
static void m_range_below(struct fix *f) { f->locs[5].patch_offset = 0x0c; }
static void m_range_cross_end(struct fix *f) { f->locs[4].patch_offset = 0xec; }
static void m_range_last_dword(struct fix *f)
{
	f->locs[3].patch_offset = 0xec;
	f->locs[3].split_offset = 0xec;
}
static void m_range_at_end(struct fix *f) { f->locs[3].patch_offset = 0xf0; }
static void m_range_past_size(struct fix *f) { f->locs[3].patch_offset = FX_DMA_BYTES; }
static void m_range_wrap(struct fix *f) { f->locs[4].patch_offset = 0xfffffffc; }
static void m_split_after(struct fix *f) { f->locs[0].split_offset = 0x1c; }
static void m_split_at(struct fix *f) { f->locs[0].split_offset = 0x18; }
static void m_split_below(struct fix *f) { f->locs[0].split_offset = 0x0c; }
static void m_split_start(struct fix *f) { f->locs[4].split_offset = 0x10; }
static void m_split_2(struct fix *f) { f->locs[0].split_offset = 0x12; }
static void m_two_bad(struct fix *f)
{
	f->locs[1].patch_offset = 0x26;
	f->locs[4].alloc_index = 9;
}
static void m_order_slot_first(struct fix *f)
{
	/* every rule broken at once: the first rule checked is the one reported */
	f->locs[2] = (struct dma_patch_loc){ UINT32_MAX, UINT32_MAX, UINT32_MAX, UINT32_MAX,
					     UINT32_MAX, UINT32_MAX };
}
static void m_order_kind(struct fix *f)
{
	m_order_slot_first(f);
	f->locs[2].slot_id = 0;
}
static void m_order_index(struct fix *f)
{
	m_order_kind(f);
	f->locs[2].driver_id = DMA_PATCH_ADDR64;
}
static void m_order_offset(struct fix *f)
{
	m_order_index(f);
	f->locs[2].alloc_index = 0;
}
static void m_order_align(struct fix *f)
{
	m_order_offset(f);
	f->locs[2].alloc_offset = 0;
}
static void m_order_range(struct fix *f)
{
	m_order_align(f);
	f->locs[2].patch_offset = 0xfffffffc;
}
static void m_order_split(struct fix *f)
{
	m_order_range(f);
	f->locs[2].patch_offset = 0x30;
}

#define OK GM_OK
#define BAD GM_ERR_BAD_ARG
#define ADR GM_ERR_ADDR
#define W(x) DMA_PATCH_WHY_##x

static const struct bad_case bad_cases[] = {
	{ "valid fixture", m_none, OK, W(NONE), NONE },
	{ "dma NULL", m_dma_null, BAD, W(ARGS), NONE },
	{ "dma_phys +2", m_phys_2, BAD, W(ARGS), NONE },
	{ "dma_phys 2^48", m_phys_limit, ADR, W(ADDR), NONE },
	{ "dma_phys ends at 2^48", m_phys_top, OK, W(NONE), NONE },
	{ "dma_phys ends past 2^48", m_phys_over, ADR, W(ADDR), NONE },
	{ "dma_phys ~3", m_phys_huge, ADR, W(ADDR), NONE },
	{ "sub start > end", m_sub_swapped, BAD, W(ARGS), NONE },
	{ "sub empty, no entries", m_sub_empty, OK, W(NONE), NONE },
	{ "sub empty, entries", m_sub_empty_entry, BAD, W(RANGE), 0 },
	{ "sub end = size", m_sub_end_size, OK, W(NONE), NONE },
	{ "sub end = size + 4", m_sub_end_past, BAD, W(ARGS), NONE },
	{ "size < sub end", m_size_short, BAD, W(ARGS), NONE },
	{ "size not 4-aligned", m_size_odd, OK, W(NONE), NONE },
	{ "sub start +2", m_sub_start_2, BAD, W(ARGS), NONE },
	{ "sub end -2", m_sub_end_2, BAD, W(ARGS), NONE },
	{ "priv NULL, size 32", m_priv_null, BAD, W(ARGS), NONE },
	{ "priv NULL, size 0", m_priv_none, OK, W(NONE), NONE },
	{ "priv end > size", m_priv_end_past, BAD, W(ARGS), NONE },
	{ "priv start > end", m_priv_swapped, BAD, W(ARGS), NONE },
	{ "priv start 4, not paging", m_priv_start_4, BAD, W(ARGS), NONE },
	{ "allocs NULL, count 4", m_allocs_null, BAD, W(ARGS), NONE },
	{ "locs NULL, count 6", m_locs_null, BAD, W(ARGS), NONE },
	{ "loc start + len > count", m_loc_range_past, BAD, W(ARGS), NONE },
	{ "loc start = count, len 0", m_loc_range_end, OK, W(NONE), NONE },
	{ "loc start + len wraps", m_loc_range_wrap, BAD, W(ARGS), NONE },
	{ "loc len ~0", m_loc_len_max, BAD, W(ARGS), NONE },
	{ "flags unknown bit", m_flags_unknown, BAD, W(ARGS), NONE },
	{ "flags ~0", m_flags_all, BAD, W(ARGS), NONE },
	{ "flags PRESENT", m_flags_present, OK, W(NONE), NONE },
	{ "flags PRESENT|REDIRECTED_PRESENT|NULL_RENDERING", m_flags_redirected_null, OK, W(NONE), NONE },
	{ "flags PAGING|PRESENT", m_flags_paging_present, BAD, W(ARGS), NONE },
	{ "allocs inside the DMA buffer", m_allocs_in_dma, BAD, W(ARGS), NONE },
	{ "locs inside the DMA buffer", m_locs_in_dma, BAD, W(ARGS), NONE },
	{ "locs right after the DMA buffer", m_locs_after_dma, OK, W(NONE), NONE },
	{ "locs on the buffer's last byte", m_locs_last_byte, BAD, W(ARGS), NONE },

	{ "slot 0x01000000", m_slot_reserved, BAD, W(SLOT), 2 },
	{ "slot 0x00ffffff", m_slot_top, OK, W(NONE), NONE },
	{ "driver_id KIND_COUNT", m_kind_count, BAD, W(KIND), 1 },
	{ "driver_id ~0", m_kind_max, BAD, W(KIND), 1 },
	{ "alloc_index = count", m_index_count, BAD, W(INDEX), 0 },
	{ "alloc_index = count - 1", m_index_last, OK, W(NONE), NONE },
	{ "alloc_index ~0", m_index_max, BAD, W(INDEX), 0 },
	{ "alloc_count one short", m_alloc_count_short, BAD, W(INDEX), 4 },
	{ "alloc_offset = size", m_off_size, BAD, W(ALLOC_OFFSET), 0 },
	{ "alloc_offset = size - 1", m_off_last, OK, W(NONE), NONE },
	{ "alloc_offset ~0", m_off_max, BAD, W(ALLOC_OFFSET), 0 },
	{ "allocation size 0", m_size_zero, BAD, W(ALLOC_OFFSET), 0 },
	{ "allocation 8 GiB, offset ~0", m_size_huge, OK, W(NONE), NONE },
	{ "fence entry alloc_index 1", m_fence_index, BAD, W(INDEX), 3 },
	{ "fence entry alloc_offset 4", m_fence_offset, BAD, W(ALLOC_OFFSET), 3 },
	{ "address 2^48", m_addr_limit, ADR, W(ADDR), 4 },
	{ "address 2^48 - 1", m_addr_last, OK, W(NONE), NONE },
	{ "allocation at 2^48", m_alloc_addr_limit, ADR, W(ADDR), 1 },
	{ "allocation + offset wraps 2^64", m_alloc_addr_wrap, ADR, W(ADDR), 1 },
	{ "patch_offset +2", m_align_2, BAD, W(ALIGN), 1 },
	{ "patch_offset +1", m_align_1, BAD, W(ALIGN), 1 },
	{ "ADDR64 at a 4- not 8-aligned offset", m_align_64_at_4, OK, W(NONE), NONE },
	{ "patch below sub start", m_range_below, BAD, W(RANGE), 5 },
	{ "ADDR64 across sub end", m_range_cross_end, BAD, W(RANGE), 4 },
	{ "FENCE in the last dword", m_range_last_dword, OK, W(NONE), NONE },
	{ "patch at sub end", m_range_at_end, BAD, W(RANGE), 3 },
	{ "patch at dma_size", m_range_past_size, BAD, W(RANGE), 3 },
	{ "patch_offset ~3 (wraps)", m_range_wrap, BAD, W(RANGE), 4 },
	{ "split after patch", m_split_after, BAD, W(SPLIT), 0 },
	{ "split at patch", m_split_at, OK, W(NONE), NONE },
	{ "split below sub start", m_split_below, BAD, W(SPLIT), 0 },
	{ "split at sub start", m_split_start, OK, W(NONE), NONE },
	{ "split +2", m_split_2, BAD, W(SPLIT), 0 },
	{ "two bad entries: the first named", m_two_bad, BAD, W(ALIGN), 1 },
	{ "all rules broken: SLOT first", m_order_slot_first, BAD, W(SLOT), 2 },
	{ "then KIND", m_order_kind, BAD, W(KIND), 2 },
	{ "then INDEX", m_order_index, BAD, W(INDEX), 2 },
	{ "then ALLOC_OFFSET", m_order_offset, BAD, W(ALLOC_OFFSET), 2 },
	{ "then ALIGN", m_order_align, BAD, W(ALIGN), 2 },
	{ "then RANGE", m_order_range, BAD, W(RANGE), 2 },
	{ "then SPLIT", m_order_split, BAD, W(SPLIT), 2 },
};

#undef OK
#undef BAD
#undef ADR
#undef W

/*
 * Each row on a fresh fixture: the exact status, why and entry; refused
 * rows leave every byte of the storage (inside and past dma_size) as it
 * was; accepted rows write only inside the submission.
 */
static void test_patch_bad_args(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(bad_cases); i++) {
		const struct bad_case *c = &bad_cases[i];
		struct fix f;
		int st;

		fix_init(&f);
		c->mut(&f);
		fix_snap(&f);
		st = dma_patch(&f.a);
		assert_result(c->name, st, &f.st, c->want, c->why, c->entry);
		if (st != GM_OK) {
			assert_unchanged(f.store, f.snap, FX_TOTAL, c->name);
			fix_free(&f);
			continue;
		}
		if (f.st.entries != f.a.loc_sub_len)
			fail_msg("%s: %u entries written, expected %u", c->name, f.st.entries,
				 f.a.loc_sub_len);
		assert_unchanged(f.store, f.snap, f.a.dma_sub_start, c->name);
		assert_unchanged(f.store + f.a.dma_sub_end, f.snap + f.a.dma_sub_end,
				 FX_TOTAL - f.a.dma_sub_end, c->name);
		fix_free(&f);
	}
}

static void test_patch_null(void **state)
{
	(void)state;
	assert_int_equal(dma_patch(NULL), GM_ERR_BAD_ARG);
	assert_string_equal(dma_patch_why_name(DMA_PATCH_WHY_SPLIT), "SPLIT");
	assert_string_equal(dma_patch_why_name(DMA_PATCH_WHY_COUNT), "?");
	assert_string_equal(dma_patch_why_name(UINT32_MAX), "?");
	for (uint32_t w = 0; w < DMA_PATCH_WHY_COUNT; w++)
		assert_non_null(dma_patch_why_name(w));
}

/* ------------------------------------------------------------ re-patch, sub-range */

/* The 8 little-endian bytes at @p. */
static uint64_t get_le64(const uint8_t *p)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static uint32_t get_le32(const uint8_t *p)
{
	return (uint32_t)get_le64((const uint8_t[8]){ p[0], p[1], p[2], p[3] });
}

/*
 * Patch, move two allocations (as eviction and paging back in would), patch
 * again: every place now holds the new address.  A move to an address the
 * GPU cannot reach is refused and leaves the earlier patch in place.
 */
static void test_patch_repatch(void **state)
{
	struct fix f;

	(void)state;
	fix_init(&f);
	assert_int_equal(dma_patch(&f.a), GM_OK);
	assert_int_equal(get_le64(f.store + 0x18), 0x100010ull);

	f.allocs[0].addr = 0x7654321000ull;
	f.allocs[1].addr = GPU_SYSMEM_BASE + 0xabcd0000ull;
	fix_snap(&f);
	assert_int_equal(dma_patch(&f.a), GM_OK);
	assert_int_equal(get_le64(f.store + 0x18), 0x7654321010ull);
	assert_int_equal(get_le32(f.store + 0x24), 0xabcd0020u);
	assert_int_equal(get_le32(f.store + 0x30), (uint32_t)(GPU_SYSMEM_BASE >> 32));
	/* Untouched by the move: the same bytes as before. */
	assert_memory_equal(f.store + 0x10, f.snap + 0x10, 8);
	assert_memory_equal(f.store + 0x80, f.snap + 0x80, 4);
	assert_memory_equal(f.store + 0xe8, f.snap + 0xe8, 8);

	/* A new SubmissionFenceId for a resubmission. */
	f.a.fence_id = 0x12345678u;
	assert_int_equal(dma_patch(&f.a), GM_OK);
	assert_int_equal(get_le32(f.store + 0x80), 0x12345678u);

	/* Moved out of reach: refused, the last good patch stays. */
	f.allocs[1].addr = ADDR_LIMIT - 0x10;
	fix_snap(&f);
	assert_result("moved past 2^48", dma_patch(&f.a), &f.st, GM_ERR_ADDR, DMA_PATCH_WHY_ADDR,
		      1);
	assert_unchanged(f.store, f.snap, FX_TOTAL, "moved past 2^48");
	fix_free(&f);
}

/*
 * Only entries [start, start + length) are read and written: the others
 * may be garbage.  Every (start, length) pair of the fixture is tried.
 */
static void test_patch_subrange(void **state)
{
	(void)state;
	for (uint32_t s = 0; s <= FX_LOCS; s++) {
		for (uint32_t n = 0; s + n <= FX_LOCS; n++) {
			struct fix f;
			struct span want[FX_LOCS];
			size_t nw = 0;
			char what[64];

			fix_init(&f);
			for (uint32_t i = 0; i < FX_LOCS; i++)
				if (i < s || i >= s + n)
					memset(&f.locs[i], 0xff, sizeof(f.locs[i]));
			/* fx_golden lists entry 5 first, then entries 0..4 */
			for (size_t k = 0; k < ARRAY_SIZE(fx_golden); k++) {
				uint32_t entry = k == 0 ? 5 : (uint32_t)k - 1;

				if (entry >= s && entry < s + n)
					want[nw++] = fx_golden[k];
			}
			f.a.loc_sub_start = s;
			f.a.loc_sub_len = n;
			snprintf(what, sizeof(what), "entries [%u, %u)", s, s + n);
			assert_result(what, dma_patch(&f.a), &f.st, GM_OK, DMA_PATCH_WHY_NONE,
				      NONE);
			assert_int_equal(f.st.entries, n);
			assert_spans(f.store, FX_TOTAL, want, nw, what);
			fix_free(&f);
		}
	}
}

/* Overlapping entries are written in list order: the later one wins. */
static void test_patch_overlap(void **state)
{
	struct fix f;

	(void)state;
	fix_init(&f);
	f.locs[1] = (struct dma_patch_loc){ 0, 0, DMA_PATCH_ADDR_LO32, 0x44, 0x18, 0x10 };
	assert_int_equal(dma_patch(&f.a), GM_OK);
	/* entry 0 wrote 0x100010 as 8 bytes, entry 1 then its low dword */
	assert_int_equal(get_le64(f.store + 0x18), 0x100044ull);
	assert_int_equal(f.st.bytes, 8 + 4 + 4 + 4 + 8 + 8);
	fix_free(&f);
}

/* SubmissionFenceId entries need no allocation list at all. */
static void test_patch_fence_only(void **state)
{
	struct fix f;

	(void)state;
	fix_init(&f);
	f.a.allocs = NULL;
	f.a.alloc_count = 0;
	f.a.loc_sub_start = 3;
	f.a.loc_sub_len = 1;
	assert_int_equal(dma_patch(&f.a), GM_OK);
	assert_int_equal(get_le32(f.store + 0x80), FX_FENCE);
	/* An address entry in range now names no allocation. */
	f.a.loc_sub_start = 2;
	f.a.loc_sub_len = 2;
	fix_snap(&f);
	assert_result("no allocations", dma_patch(&f.a), &f.st, GM_ERR_BAD_ARG, DMA_PATCH_WHY_INDEX,
		      2);
	assert_unchanged(f.store, f.snap, FX_TOTAL, "no allocations");
	fix_free(&f);
}

/* ------------------------------------------------------------ paging */

static void paging_base(struct fix *f)
{
	f->a.flags = DMA_PATCH_F_PAGING;
	f->a.allocs = NULL;
	f->a.locs = NULL;
	f->a.alloc_count = f->a.loc_count = 0;
	f->a.loc_sub_start = f->a.loc_sub_len = 0;
}

static void p_none(struct fix *f) { (void)f; }
static void p_allocs(struct fix *f) { f->a.allocs = f->allocs; }
static void p_alloc_count(struct fix *f)
{
	f->a.allocs = f->allocs;
	f->a.alloc_count = 1;
}
static void p_locs(struct fix *f) { f->a.locs = f->locs; }
static void p_loc_count(struct fix *f)
{
	f->a.locs = f->locs;
	f->a.loc_count = 1;
}
static void p_loc_start(struct fix *f) { f->a.loc_sub_start = 1; }
static void p_loc_len(struct fix *f) { f->a.loc_sub_len = 1; }
static void p_priv_start(struct fix *f)
{
	/* one of several submissions out of one paging buffer's private data */
	f->a.priv_sub_start = 8;
	f->a.priv_sub_end = 16;
}
static void p_priv_bad(struct fix *f) { f->a.priv_sub_start = 40; }
static void p_segment0(struct fix *f) { f->a.dma_segment_id = 0; }
static void p_present(struct fix *f) { f->a.flags |= DMA_PATCH_F_PRESENT; }
static void p_dma_null(struct fix *f) { f->a.dma = NULL; }

/*
 * A paging buffer (DXGKARG_PATCH: no allocation or patch list, no device) is
 * accepted with nothing to do; any list on it is refused.
 */
static void test_patch_paging(void **state)
{
	static const struct bad_case cases[] = {
		{ "paging, no lists", p_none, GM_OK, DMA_PATCH_WHY_NONE, NONE },
		{ "paging, segment 0", p_segment0, GM_OK, DMA_PATCH_WHY_NONE, NONE },
		{ "paging, priv sub-range 8..16", p_priv_start, GM_OK, DMA_PATCH_WHY_NONE, NONE },
		{ "paging, allocs", p_allocs, GM_ERR_BAD_ARG, DMA_PATCH_WHY_ARGS, NONE },
		{ "paging, alloc_count", p_alloc_count, GM_ERR_BAD_ARG, DMA_PATCH_WHY_ARGS, NONE },
		{ "paging, locs", p_locs, GM_ERR_BAD_ARG, DMA_PATCH_WHY_ARGS, NONE },
		{ "paging, loc_count", p_loc_count, GM_ERR_BAD_ARG, DMA_PATCH_WHY_ARGS, NONE },
		{ "paging, loc start", p_loc_start, GM_ERR_BAD_ARG, DMA_PATCH_WHY_ARGS, NONE },
		{ "paging, loc length", p_loc_len, GM_ERR_BAD_ARG, DMA_PATCH_WHY_ARGS, NONE },
		{ "paging, priv start past end", p_priv_bad, GM_ERR_BAD_ARG, DMA_PATCH_WHY_ARGS,
		  NONE },
		{ "paging|present", p_present, GM_ERR_BAD_ARG, DMA_PATCH_WHY_ARGS, NONE },
		{ "paging, dma NULL", p_dma_null, GM_ERR_BAD_ARG, DMA_PATCH_WHY_ARGS, NONE },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct fix f;

		fix_init(&f);
		paging_base(&f);
		cases[i].mut(&f);
		fix_snap(&f);
		assert_result(cases[i].name, dma_patch(&f.a), &f.st, cases[i].want, cases[i].why,
			      cases[i].entry);
		assert_int_equal(f.st.entries, 0);
		assert_unchanged(f.store, f.snap, FX_TOTAL, cases[i].name);
		fix_free(&f);
	}
}

/* ------------------------------------------------------------ random lists */

struct env {
	uint64_t seed;
};

/* Uniform enough in [0, n); 0 when n == 0. */
static uint64_t below(uint64_t *s, uint64_t n)
{
	return n ? tb_rand(s) % n : 0;
}

#define RND_MAX_DMA 1024u  /* bytes */
#define RND_MAX_GOOD 6u    /* allocations entries may use */
#define RND_MAX_LOCS 24u

/*
 * A random valid request.  allocs[0..ngood) are ordinary; allocs[ngood]
 * ends at 2^48 - 0x100 + 0x1000 (offsets below 0x100 valid, above reach past
 * 2^48); allocs[ngood + 1] starts at or past 2^48.  Valid entries use only
 * the first ngood + 1.  Entries outside the submitted range may be garbage.
 */
struct rnd_case {
	uint8_t *store;  /* dma_size + SLACK */
	uint8_t *orig;   /* the storage before patching */
	uint8_t *want;   /* the reference model's result */
	size_t total;
	uint32_t ngood;
	struct dma_alloc_entry allocs[RND_MAX_GOOD + 2];
	struct dma_patch_loc locs[RND_MAX_LOCS];
	struct dma_patch_stats st;
	struct dma_patch_args a;
};

static uint32_t kind_width(uint32_t kind)
{
	return kind == DMA_PATCH_ADDR64 ? 8 : 4;
}

static void rnd_alloc(uint64_t *s, struct dma_alloc_entry *e, uint32_t i)
{
	static const uint64_t sizes[] = { 1, 4, 0x1000, 0x10000, 0x100000000ull, 0x300000000ull };
	uint64_t size = below(s, 3) ? 1 + below(s, 1u << 20) : sizes[below(s, ARRAY_SIZE(sizes))];

	e->handle = (void *)(uintptr_t)(0x100 + i);
	e->size = size;
	e->addr = below(s, ADDR_LIMIT - size + 1); /* every offset inside stays below 2^48 */
	e->segment_id = (uint32_t)below(s, 32);
	e->write = below(s, 2);
}

/* A valid entry for submission [sub_start, sub_end), which holds >= 4 bytes. */
static void rnd_entry(uint64_t *s, struct rnd_case *rc, struct dma_patch_loc *p)
{
	uint32_t start = rc->a.dma_sub_start, span = rc->a.dma_sub_end - start;
	uint32_t kind = (uint32_t)below(s, DMA_PATCH_KIND_COUNT);

	if (kind == DMA_PATCH_ADDR64 && span < 8)
		kind = DMA_PATCH_ADDR_LO32;
	p->driver_id = kind;
	p->slot_id = (uint32_t)below(s, 1u << 24);
	p->patch_offset = start + 4 * (uint32_t)below(s, (span - kind_width(kind)) / 4 + 1);
	p->split_offset = start + 4 * (uint32_t)below(s, (p->patch_offset - start) / 4 + 1);
	if (kind == DMA_PATCH_FENCE_ID32) {
		p->alloc_index = 0;
		p->alloc_offset = 0;
		return;
	}
	p->alloc_index = (uint32_t)below(s, rc->ngood + 1);
	if (p->alloc_index == rc->ngood) {
		p->alloc_offset = (uint32_t)below(s, 0x100);
	} else {
		uint64_t size = rc->allocs[p->alloc_index].size;

		p->alloc_offset = (uint32_t)below(s, size < (1ull << 32) ? size : 1ull << 32);
	}
}

/* Build a random valid request; rnd_case_free() releases it. */
static void rnd_case_make(uint64_t *s, struct rnd_case *rc)
{
	uint32_t size = 4 * (4 + (uint32_t)below(s, RND_MAX_DMA / 4 - 3)) + (uint32_t)below(s, 4);
	uint32_t start = 4 * (uint32_t)below(s, size / 4 + 1);
	uint32_t end = start + 4 * (uint32_t)below(s, (size - start) / 4 + 1);
	uint32_t nloc = (uint32_t)below(s, RND_MAX_LOCS + 1);
	uint32_t lstart = (uint32_t)below(s, nloc + 1);
	uint32_t llen = end - start >= 4 ? (uint32_t)below(s, nloc - lstart + 1) : 0;

	memset(rc, 0, sizeof(*rc));
	rc->total = size + SLACK;
	rc->store = test_malloc(rc->total);
	rc->orig = test_malloc(rc->total);
	rc->want = test_malloc(rc->total);
	for (size_t i = 0; i < rc->total; i++)
		rc->store[i] = (uint8_t)tb_rand(s);
	memcpy(rc->orig, rc->store, rc->total);
	rc->ngood = 1 + (uint32_t)below(s, RND_MAX_GOOD);
	for (uint32_t i = 0; i < rc->ngood; i++)
		rnd_alloc(s, &rc->allocs[i], i);
	rc->allocs[rc->ngood] = (struct dma_alloc_entry){ (void *)0x1, ADDR_LIMIT - 0x100,
							  0x1000, 1, false };
	rc->allocs[rc->ngood + 1] = (struct dma_alloc_entry){
		(void *)0x2, below(s, 2) ? ADDR_LIMIT + below(s, 1ull << 40) : UINT64_MAX - 0x40,
		0x100, 1, false
	};
	rc->a = (struct dma_patch_args){
		.dma = rc->store,
		.dma_size = size,
		.dma_segment_id = (uint32_t)below(s, 4),
		.dma_phys = below(s, ADDR_LIMIT - size + 1) & ~3ull,
		.dma_sub_start = start,
		.dma_sub_end = end,
		.allocs = rc->allocs,
		.alloc_count = rc->ngood + 2,
		.locs = rc->locs,
		.loc_count = nloc,
		.loc_sub_start = lstart,
		.loc_sub_len = llen,
		.fence_id = (uint32_t)tb_rand(s),
		.flags = below(s, 4) ? 0 : DMA_PATCH_F_PRESENT,
		.stats = &rc->st,
	};
	for (uint32_t i = 0; i < nloc; i++) {
		bool in = i >= lstart && i < lstart + llen;

		if (in || (end - start >= 4 && below(s, 2)))
			rnd_entry(s, rc, &rc->locs[i]);
		else
			rc->locs[i] = (struct dma_patch_loc){ (uint32_t)tb_rand(s), (uint32_t)tb_rand(s),
							      (uint32_t)tb_rand(s), (uint32_t)tb_rand(s),
							      (uint32_t)tb_rand(s), (uint32_t)tb_rand(s) };
	}
}

static void rnd_case_free(struct rnd_case *rc)
{
	test_free(rc->store);
	test_free(rc->orig);
	test_free(rc->want);
}

/* The reference model: apply the submitted entries to @buf, byte by byte. */
static uint64_t ref_apply(const struct dma_patch_args *a, uint8_t *buf)
{
	uint64_t bytes = 0;

	for (uint32_t i = a->loc_sub_start; i < a->loc_sub_start + a->loc_sub_len; i++) {
		const struct dma_patch_loc *p = &a->locs[i];
		uint64_t v;
		uint32_t n = kind_width(p->driver_id);

		if (p->driver_id == DMA_PATCH_FENCE_ID32)
			v = a->fence_id;
		else
			v = a->allocs[p->alloc_index].addr + p->alloc_offset;
		if (p->driver_id == DMA_PATCH_ADDR_HI16)
			v >>= 32;
		for (uint32_t b = 0; b < n; b++)
			buf[p->patch_offset + b] = (uint8_t)(v >> 8 * b);
		bytes += n;
	}
	return bytes;
}

/* One fault injected into entry @p; false when it cannot apply to this entry. */
typedef bool (*inject_fn)(uint64_t *s, struct rnd_case *rc, struct dma_patch_loc *p);

static bool i_slot(uint64_t *s, struct rnd_case *rc, struct dma_patch_loc *p)
{
	(void)rc;
	p->slot_id |= (uint32_t)(1 + below(s, 255)) << 24;
	return true;
}

static bool i_kind(uint64_t *s, struct rnd_case *rc, struct dma_patch_loc *p)
{
	(void)rc;
	p->driver_id = DMA_PATCH_KIND_COUNT +
		       (uint32_t)below(s, UINT32_MAX - DMA_PATCH_KIND_COUNT + 1ull);
	return true;
}

static bool i_index(uint64_t *s, struct rnd_case *rc, struct dma_patch_loc *p)
{
	uint32_t min = p->driver_id == DMA_PATCH_FENCE_ID32 ? 1 : rc->a.alloc_count;

	p->alloc_index = below(s, 4) ? min + (uint32_t)below(s, 1000) : UINT32_MAX;
	return true;
}

static bool i_offset(uint64_t *s, struct rnd_case *rc, struct dma_patch_loc *p)
{
	uint64_t size;

	if (p->driver_id == DMA_PATCH_FENCE_ID32) {
		p->alloc_offset = 1 + (uint32_t)below(s, UINT32_MAX);
		return true;
	}
	size = rc->allocs[p->alloc_index].size;
	if (size > UINT32_MAX)
		return false;
	p->alloc_offset = (uint32_t)(size + below(s, (uint64_t)UINT32_MAX - size + 1));
	return true;
}

static bool i_addr(uint64_t *s, struct rnd_case *rc, struct dma_patch_loc *p)
{
	if (p->driver_id == DMA_PATCH_FENCE_ID32)
		p->driver_id = DMA_PATCH_ADDR_LO32; /* same width: the place stays valid */
	if (below(s, 2)) {
		p->alloc_index = rc->ngood; /* ends past 2^48 */
		p->alloc_offset = 0x100 + (uint32_t)below(s, 0xf00);
	} else {
		p->alloc_index = rc->ngood + 1; /* starts past 2^48 */
		p->alloc_offset = (uint32_t)below(s, 0x100);
	}
	return true;
}

static bool i_align(uint64_t *s, struct rnd_case *rc, struct dma_patch_loc *p)
{
	(void)rc;
	p->patch_offset |= 1 + (uint32_t)below(s, 3);
	return true;
}

static bool i_range(uint64_t *s, struct rnd_case *rc, struct dma_patch_loc *p)
{
	uint32_t start = rc->a.dma_sub_start, end = rc->a.dma_sub_end;
	uint32_t w = kind_width(p->driver_id);

	switch (below(s, 3)) {
	case 0:
		if (start < 4)
			return false;
		p->patch_offset = 4 * (uint32_t)below(s, start / 4);
		p->split_offset = 0;
		return true;
	case 1: /* the last bytes cross the end, or start at or past it */
		p->patch_offset = end - w + 4 + 4 * (uint32_t)below(s, 64);
		return true;
	default:
		p->patch_offset = 0xfffffffcu - 4 * (uint32_t)below(s, 4);
		return true;
	}
}

static bool i_split(uint64_t *s, struct rnd_case *rc, struct dma_patch_loc *p)
{
	uint32_t start = rc->a.dma_sub_start;

	switch (below(s, 3)) {
	case 0:
		p->split_offset = p->patch_offset + 4 + 4 * (uint32_t)below(s, 16);
		return true;
	case 1:
		p->split_offset |= 1 + (uint32_t)below(s, 3);
		return true;
	default:
		if (start < 4)
			return false;
		p->split_offset = 4 * (uint32_t)below(s, start / 4);
		return true;
	}
}

static const struct {
	inject_fn fn;
	int st;
	uint32_t why;
} injects[] = {
	{ i_slot, GM_ERR_BAD_ARG, DMA_PATCH_WHY_SLOT },
	{ i_kind, GM_ERR_BAD_ARG, DMA_PATCH_WHY_KIND },
	{ i_index, GM_ERR_BAD_ARG, DMA_PATCH_WHY_INDEX },
	{ i_offset, GM_ERR_BAD_ARG, DMA_PATCH_WHY_ALLOC_OFFSET },
	{ i_addr, GM_ERR_ADDR, DMA_PATCH_WHY_ADDR },
	{ i_align, GM_ERR_BAD_ARG, DMA_PATCH_WHY_ALIGN },
	{ i_range, GM_ERR_BAD_ARG, DMA_PATCH_WHY_RANGE },
	{ i_split, GM_ERR_BAD_ARG, DMA_PATCH_WHY_SPLIT },
};

#define RND_ITERS 3000u

/* Fail with the reproduce line unless @ok. */
#define RND_CHECK(ok, env, it, ...)                                                            \
	do {                                                                                   \
		if (!(ok)) {                                                                   \
			print_error(__VA_ARGS__);                                              \
			fail_msg(" (iteration %u) reproduce: GPUSIM_SEED=%" PRIu64 " " REPRO,   \
				 (it), (env)->seed);                                           \
		}                                                                              \
	} while (0)

static void check_same(const struct env *env, uint32_t it, const uint8_t *got,
		       const uint8_t *want, size_t n, const char *what)
{
	for (size_t i = 0; i < n; i++)
		RND_CHECK(got[i] == want[i], env, it, "%s: byte 0x%zx is 0x%02x, expected 0x%02x\n",
			  what, i, got[i], want[i]);
}

/*
 * Random valid lists patch exactly what the reference model patches (and
 * nothing else, slack included); after random moves a re-patch matches
 * again.  Then one entry of the range gets one random fault: the exact
 * status, why and entry come back and no byte changes.
 */
static void test_patch_random(void **state)
{
	const struct env *env = *state;
	uint64_t s = env->seed ^ 0x7061746368000000ull;
	uint32_t faults = 0;

	for (uint32_t it = 0; it < RND_ITERS; it++) {
		struct rnd_case rc;
		uint64_t bytes;
		int st;

		rnd_case_make(&s, &rc);
		memcpy(rc.want, rc.store, rc.total);
		bytes = ref_apply(&rc.a, rc.want);
		st = dma_patch(&rc.a);
		RND_CHECK(st == GM_OK, env, it, "valid list: %s why %s entry %d\n", st_str(st),
			  dma_patch_why_name(rc.st.why), (int)rc.st.bad_entry);
		RND_CHECK(rc.st.entries == rc.a.loc_sub_len && rc.st.bytes == bytes, env, it,
			  "stats: %u entries %" PRIu64 " bytes, expected %u, %" PRIu64 "\n",
			  rc.st.entries, rc.st.bytes, rc.a.loc_sub_len, bytes);
		check_same(env, it, rc.store, rc.want, rc.total, "valid list");

		/* Move some allocations; patch again over the patched buffer. */
		for (uint32_t i = 0; i < rc.ngood; i++)
			if (below(&s, 2))
				rc.allocs[i].addr = below(&s, ADDR_LIMIT - rc.allocs[i].size + 1);
		ref_apply(&rc.a, rc.want);
		RND_CHECK(dma_patch(&rc.a) == GM_OK, env, it, "re-patch refused\n");
		check_same(env, it, rc.store, rc.want, rc.total, "re-patch");

		/* One fault in the submitted range: nothing may change. */
		if (rc.a.loc_sub_len) {
			uint32_t i = rc.a.loc_sub_start + (uint32_t)below(&s, rc.a.loc_sub_len);
			size_t k;

			do
				k = below(&s, ARRAY_SIZE(injects));
			while (!injects[k].fn(&s, &rc, &rc.locs[i]));
			memcpy(rc.want, rc.store, rc.total);
			st = dma_patch(&rc.a);
			RND_CHECK(st == injects[k].st && rc.st.why == injects[k].why &&
					  rc.st.bad_entry == i,
				  env, it, "fault %s in entry %u: %s why %s entry %d\n",
				  dma_patch_why_name(injects[k].why), i, st_str(st),
				  dma_patch_why_name(rc.st.why), (int)rc.st.bad_entry);
			check_same(env, it, rc.store, rc.want, rc.total, "refused list");
			faults++;
		}
		rnd_case_free(&rc);
	}
	print_message("  %u random lists, %u with a fault\n", RND_ITERS, faults);
}

/* ------------------------------------------------------------ validator */

#define V_IB_LO 0x100000ull   /* permitted IB range 1: [V_IB_LO, V_IB_HI) */
#define V_IB_HI 0x110000ull
#define V_IB2_LO 0x110000ull  /* range 2, adjacent: an IB straddling both is outside */
#define V_IB2_HI 0x120000ull

enum vmode {
	V_IB,         /* runs as an IB (the default) */
	V_IB_SMALL,   /* as an IB, IB_MAX_DW 16 */
	V_RING,       /* in the ring, IBs in [V_IB_LO, V_IB_HI) or [V_IB2_LO, V_IB2_HI) */
	V_RING_NOIB,  /* in the ring, no IB permitted */
	V_RING_SMALL, /* V_RING with IB_MAX_DW 16 */
};

/* One validator row: build a buffer, say how it runs, and the verdict. */
struct val_case {
	const char *name;
	void (*build)(struct dma_buf *b);
	enum vmode mode;
	uint32_t cause;     /* GPU_CAUSE_NONE: accepted */
	int at_packet;      /* refused: index of the packet blamed; -1: the buffer as a whole */
	uint32_t packets;   /* packets accepted */
	uint32_t ibs;
};

static void emit(int st)
{
	assert_int_equal(st, GM_OK);
}

static void raw1(struct dma_buf *b, uint32_t dw)
{
	emit(dma_emit_raw(b, &dw, 1));
}

/* The four unprivileged packets every buffer begins with. */
static void b_prefix(struct dma_buf *b)
{
	static const uint32_t data[2] = { 1, 2 };

	emit(dma_emit_nop(b, 2));
	emit(dma_emit_write_data(b, 0x9000, data, 2));
	emit(dma_emit_release_fence(b, 0x9008, 5, true, true));
	emit(dma_emit_timestamp(b, 0x9010));
}

static void b_user(struct dma_buf *b)
{
	b_prefix(b);
	emit(dma_emit_wait_mem(b, 0x9008, 5, ~0ull, GPU_FUNC_GE, true, 10));
	emit(dma_emit_nop(b, 0));
}

/* COPY, BLT and FILL, through their emitters (which refuse what the
 * hardware refuses). */
static void b_copy_engine(struct dma_buf *b)
{
	const struct dma_surf lin = { 0x30000, 256, GPU_TILE_LINEAR, 2, 0, 0 };
	const struct dma_surf tiled = { 0x40000, 512, GPU_TILE_X, 2, 8, 1 };

	emit(dma_emit_copy(b, 0x20000, 0x10000, 64));
	emit(dma_emit_blt(b, &tiled, &lin, 16, 4));
	emit(dma_emit_fill(b, &lin, 16, 4, 0x0807060504030201ull));
}

static void b_empty(struct dma_buf *b) { (void)b; }
static void b_17_nops(struct dma_buf *b)
{
	for (int i = 0; i < 17; i++)
		emit(dma_emit_nop(b, 0));
}
static void b_16_nops(struct dma_buf *b)
{
	for (int i = 0; i < 16; i++)
		emit(dma_emit_nop(b, 0));
}

static void b_pte_write(struct dma_buf *b)
{
	b_prefix(b);
	emit(dma_emit_pte_write(b, 0x8000, GPU_PTE_V(1), 0x100000, 4096, 4));
}

static void b_invalidate(struct dma_buf *b)
{
	b_prefix(b);
	emit(dma_emit_invalidate_tlb(b, 3, false, 0, 0xffffffffu));
}

static void b_bad_type(struct dma_buf *b)
{
	b_prefix(b);
	raw1(b, GPU_HDR_TYPE(GPU_PKT_TYPE3 - 1) | GPU_HDR_OPCODE(GPU_OP_NOP));
}

static void b_bad_opcode(struct dma_buf *b)
{
	b_prefix(b);
	raw1(b, GPU_PKT_HDR(0xff, 0)); /* no packet has opcode 0xff (test_validate_names checks) */
}

static void b_count_range(struct dma_buf *b)
{
	b_prefix(b);
	raw1(b, GPU_PKT_HDR(GPU_OP_TIMESTAMP, GPU_PKT_TIMESTAMP_COUNT_MIN - 1));
	raw1(b, 0);
	raw1(b, 0);
}

/* The last packet's COUNT is legal but the buffer ends a dword early. */
static void b_truncated(struct dma_buf *b)
{
	b_prefix(b);
	emit(dma_emit_timestamp(b, 0x9018));
	b->len--;
}

static void b_truncated_header_only(struct dma_buf *b)
{
	b_prefix(b);
	raw1(b, GPU_PKT_HDR(GPU_OP_RELEASE_FENCE, GPU_PKT_RELEASE_FENCE_COUNT_MIN));
}

static void b_nop_overrun(struct dma_buf *b)
{
	b_prefix(b);
	raw1(b, GPU_PKT_HDR(GPU_OP_NOP, 3));
	raw1(b, 0);
	raw1(b, 0);
}

static void b_fence_flags(struct dma_buf *b)
{
	b_prefix(b);
	emit(dma_emit_release_fence(b, 0x9008, 5, true, true));
	b->dw[b->len - 1] |= 1u << 5; /* a reserved flag */
}

static void b_addr_hi_reserved(struct dma_buf *b)
{
	b_prefix(b);
	emit(dma_emit_timestamp(b, 0x9010));
	b->dw[b->len - 1] |= 0x10000u; /* ADDR_HI bit 48 */
}

static void b_ts_align(struct dma_buf *b)
{
	b_prefix(b);
	emit(dma_emit_timestamp(b, 0x9010));
	b->dw[b->len - 2] |= 4; /* ADDR 8-aligned only */
}

static void b_ib_at(struct dma_buf *b, uint64_t addr, uint32_t size_dw)
{
	b_prefix(b);
	emit(dma_emit_indirect_buffer(b, addr, size_dw));
	emit(dma_emit_nop(b, 1));
}

static void b_ib_in(struct dma_buf *b) { b_ib_at(b, V_IB_LO + 0x100, 64); }
static void b_ib_exact(struct dma_buf *b) { b_ib_at(b, V_IB_LO, (V_IB_HI - V_IB_LO) / 4); }
static void b_ib_end_over(struct dma_buf *b) { b_ib_at(b, V_IB_HI - 0x100, 0x40 + 1); }
static void b_ib_before(struct dma_buf *b) { b_ib_at(b, V_IB_LO - 4, 2); }
static void b_ib_straddle(struct dma_buf *b) { b_ib_at(b, V_IB_HI - 8, 4); }
static void b_ib_second(struct dma_buf *b) { b_ib_at(b, V_IB2_HI - 16, 4); }
static void b_ib_far(struct dma_buf *b) { b_ib_at(b, 0x7f0000000000ull, 4); }
static void b_ib_two(struct dma_buf *b)
{
	b_ib_in(b);
	emit(dma_emit_indirect_buffer(b, V_IB2_LO, 8));
}

static void b_ib_size0(struct dma_buf *b)
{
	b_ib_in(b);
	b->dw[b->len - 3] = GPU_PKT_INDIRECT_BUFFER_SIZE_DW(0); /* the IB's SIZE */
}

static void b_ib_17(struct dma_buf *b) { b_ib_at(b, V_IB_LO, 17); }
static void b_ib_16(struct dma_buf *b) { b_ib_at(b, V_IB_LO, 16); }

static const struct val_case val_cases[] = {
	{ "user packets", b_user, V_IB, GPU_CAUSE_NONE, 0, 6, 0 },
	{ "user packets, in the ring", b_user, V_RING, GPU_CAUSE_NONE, 0, 6, 0 },
	{ "COPY, BLT, FILL", b_copy_engine, V_IB, GPU_CAUSE_NONE, 0, 3, 0 },
	{ "empty, as an IB", b_empty, V_IB, GPU_CAUSE_IB_RANGE, -1, 0, 0 },
	{ "empty, in the ring", b_empty, V_RING, GPU_CAUSE_NONE, 0, 0, 0 },
	{ "16 dwords, IB_MAX_DW 16", b_16_nops, V_IB_SMALL, GPU_CAUSE_NONE, 0, 16, 0 },
	{ "17 dwords, IB_MAX_DW 16", b_17_nops, V_IB_SMALL, GPU_CAUSE_IB_RANGE, -1, 0, 0 },
	{ "PTE_WRITE", b_pte_write, V_IB, GPU_CAUSE_PRIV, 4, 4, 0 },
	{ "PTE_WRITE, in the ring", b_pte_write, V_RING, GPU_CAUSE_PRIV, 4, 4, 0 },
	{ "INVALIDATE_TLB", b_invalidate, V_IB, GPU_CAUSE_PRIV, 4, 4, 0 },
	{ "TYPE 2", b_bad_type, V_IB, GPU_CAUSE_BAD_TYPE, 4, 4, 0 },
	{ "opcode 0xff", b_bad_opcode, V_IB, GPU_CAUSE_BAD_OPCODE, 4, 4, 0 },
	{ "TIMESTAMP COUNT 1", b_count_range, V_IB, GPU_CAUSE_BAD_COUNT, 4, 4, 0 },
	{ "truncated TIMESTAMP", b_truncated, V_IB, GPU_CAUSE_BAD_COUNT, 4, 4, 0 },
	{ "RELEASE_FENCE header only", b_truncated_header_only, V_IB, GPU_CAUSE_BAD_COUNT, 4, 4,
	  0 },
	{ "NOP COUNT past the end", b_nop_overrun, V_RING, GPU_CAUSE_BAD_COUNT, 4, 4, 0 },
	{ "RELEASE_FENCE reserved flag", b_fence_flags, V_IB, GPU_CAUSE_BAD_FIELD, 4, 4, 0 },
	{ "ADDR_HI bit 48", b_addr_hi_reserved, V_IB, GPU_CAUSE_BAD_FIELD, 4, 4, 0 },
	{ "TIMESTAMP 4-aligned", b_ts_align, V_IB, GPU_CAUSE_BAD_ALIGN, 4, 4, 0 },
	{ "IB inside an IB", b_ib_in, V_IB, GPU_CAUSE_IB_NESTED, 4, 4, 0 },
	{ "IB, ring, none permitted", b_ib_in, V_RING_NOIB, DMA_VAL_IB_FORBIDDEN, 4, 4, 0 },
	{ "IB, ring, inside", b_ib_in, V_RING, GPU_CAUSE_NONE, 0, 6, 1 },
	{ "IB, ring, exactly the range", b_ib_exact, V_RING, GPU_CAUSE_NONE, 0, 6, 1 },
	{ "IB, ring, one dword past", b_ib_end_over, V_RING, DMA_VAL_IB_OUTSIDE, 4, 4, 0 },
	{ "IB, ring, starts before", b_ib_before, V_RING, DMA_VAL_IB_OUTSIDE, 4, 4, 0 },
	{ "IB, ring, straddles two ranges", b_ib_straddle, V_RING, DMA_VAL_IB_OUTSIDE, 4, 4, 0 },
	{ "IB, ring, in the second range", b_ib_second, V_RING, GPU_CAUSE_NONE, 0, 6, 1 },
	{ "IB, ring, far away", b_ib_far, V_RING, DMA_VAL_IB_OUTSIDE, 4, 4, 0 },
	{ "two IBs, ring", b_ib_two, V_RING, GPU_CAUSE_NONE, 0, 7, 2 },
	{ "IB size 0, ring", b_ib_size0, V_RING, GPU_CAUSE_IB_RANGE, 4, 4, 0 },
	{ "IB 17 dwords, IB_MAX_DW 16", b_ib_17, V_RING_SMALL, GPU_CAUSE_IB_RANGE, 4, 4, 0 },
	{ "IB 16 dwords, IB_MAX_DW 16", b_ib_16, V_RING_SMALL, GPU_CAUSE_NONE, 0, 6, 1 },
};

static const struct dma_va_range v_ranges[] = {
	{ V_IB_LO, V_IB_HI },
	{ V_IB2_LO, V_IB2_HI },
};

static struct dma_validate_limits v_limits(enum vmode mode)
{
	struct dma_validate_limits lim = { 0 };

	lim.ib_max_dw = mode == V_IB_SMALL || mode == V_RING_SMALL ? 16 : 0;
	lim.in_ring = mode >= V_RING;
	if (mode == V_RING || mode == V_RING_SMALL) {
		lim.ib_ranges = v_ranges;
		lim.n_ib_ranges = ARRAY_SIZE(v_ranges);
	}
	return lim;
}

/* Dword offset of packet @k of @dw (headers counted by COUNT). */
static size_t packet_offset(const uint32_t *dw, int k)
{
	size_t at = 0;

	for (int i = 0; i < k; i++)
		at += GPU_HDR_COUNT_GET(dw[at]) + 1;
	return at;
}

/*
 * Each row's buffer is copied into a heap block of exactly its length, so
 * a read past the end is caught by ASan and valgrind.  The verdict, the
 * cause, the packet blamed (offset and header) and the packets counted are
 * all exact.
 */
static void test_validate_table(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(val_cases); i++) {
		const struct val_case *c = &val_cases[i];
		struct dma_validate_limits lim = v_limits(c->mode);
		struct dma_validate_report rep;
		uint32_t store[128];
		struct dma_buf b;
		uint32_t *exact;
		size_t want_at = 0;
		uint32_t want_hdr = 0;
		int st;

		dma_buf_init(&b, store, ARRAY_SIZE(store));
		c->build(&b);
		exact = test_malloc(b.len ? b.len * sizeof(*exact) : 1);
		memcpy(exact, store, b.len * sizeof(*exact));
		if (c->cause != GPU_CAUSE_NONE && c->at_packet >= 0) {
			want_at = packet_offset(exact, c->at_packet);
			want_hdr = exact[want_at];
		}
		memset(&rep, 0xee, sizeof(rep));
		st = dma_validate_cmdbuf(b.len ? exact : NULL, b.len, &lim, &rep);
		if (st != (c->cause == GPU_CAUSE_NONE ? GM_OK : GM_ERR_BAD_ARG) ||
		    rep.cause != c->cause)
			fail_msg("%s: %s cause %s, expected %s", c->name, st_str(st),
				 dma_val_cause_name(rep.cause), dma_val_cause_name(c->cause));
		if (c->cause != GPU_CAUSE_NONE &&
		    (rep.offset_dw != want_at || rep.header != want_hdr))
			fail_msg("%s: blamed dword %zu header 0x%08x, expected %zu 0x%08x", c->name,
				 rep.offset_dw, rep.header, want_at, want_hdr);
		if (rep.packets != c->packets || rep.ibs != c->ibs)
			fail_msg("%s: %u packets %u IBs, expected %u %u", c->name, rep.packets,
				 rep.ibs, c->packets, c->ibs);
		/* The same verdict without a report. */
		assert_int_equal(dma_validate_cmdbuf(b.len ? exact : NULL, b.len, &lim, NULL), st);
		test_free(exact);
	}
}

static void test_validate_bad_call(void **state)
{
	static const struct dma_va_range empty[] = { { 0x1000, 0x1000 } };
	static const struct dma_va_range past[] = { { 0x1000, ADDR_LIMIT + 4 } };
	static const struct dma_va_range top[] = { { ADDR_LIMIT - 0x1000, ADDR_LIMIT } };
	const uint32_t nop = GPU_PKT_HDR(GPU_OP_NOP, 0);
	struct dma_validate_limits lim = { 0 };
	struct dma_validate_report rep;

	(void)state;
	assert_int_equal(dma_validate_cmdbuf(NULL, 1, &lim, &rep), GM_ERR_BAD_ARG);
	assert_int_equal(rep.cause, DMA_VAL_BAD_CALL);
	assert_int_equal(rep.offset_dw, 0);
	memset(&rep, 0, sizeof(rep));
	assert_int_equal(dma_validate_cmdbuf(&nop, 1, NULL, &rep), GM_ERR_BAD_ARG);
	assert_int_equal(rep.cause, DMA_VAL_BAD_CALL);

	lim.in_ring = true;
	lim.n_ib_ranges = 1; /* ranges NULL */
	assert_int_equal(dma_validate_cmdbuf(&nop, 1, &lim, &rep), GM_ERR_BAD_ARG);
	assert_int_equal(rep.cause, DMA_VAL_BAD_CALL);
	lim.ib_ranges = empty;
	assert_int_equal(dma_validate_cmdbuf(&nop, 1, &lim, &rep), GM_ERR_BAD_ARG);
	assert_int_equal(rep.cause, DMA_VAL_BAD_CALL);
	lim.ib_ranges = past;
	assert_int_equal(dma_validate_cmdbuf(&nop, 1, &lim, &rep), GM_ERR_BAD_ARG);
	assert_int_equal(rep.cause, DMA_VAL_BAD_CALL);
	lim.ib_ranges = top; /* ends exactly at 2^48: fine */
	assert_int_equal(dma_validate_cmdbuf(&nop, 1, &lim, &rep), GM_OK);
	assert_int_equal(rep.cause, GPU_CAUSE_NONE);
	assert_int_equal(rep.packets, 1);
	/* NULL with no dwords is an empty buffer, not a bad call. */
	assert_int_equal(dma_validate_cmdbuf(NULL, 0, &lim, &rep), GM_OK);
	assert_int_equal(rep.packets, 0);
}

static void test_validate_names(void **state)
{
	(void)state;
	assert_string_equal(dma_val_cause_name(GPU_CAUSE_NONE), "NONE");
	assert_string_equal(dma_val_cause_name(GPU_CAUSE_PRIV), "PRIV");
	assert_string_equal(dma_val_cause_name(GPU_CAUSE_IB_NESTED), "IB_NESTED");
	assert_string_equal(dma_val_cause_name(DMA_VAL_IB_FORBIDDEN), "IB_FORBIDDEN");
	assert_string_equal(dma_val_cause_name(DMA_VAL_IB_OUTSIDE), "IB_OUTSIDE");
	assert_string_equal(dma_val_cause_name(DMA_VAL_BAD_CALL), "BAD_CALL");
	assert_string_equal(dma_val_cause_name(0xff), "?");
	assert_string_equal(dma_val_cause_name(UINT32_MAX), "?");
	/* Validator causes cannot collide with the 8-bit hardware cause field. */
	assert_true(DMA_VAL_IB_FORBIDDEN > GPU_Q_ERR_CAUSE_CAUSE_MASK);
	/* b_bad_opcode relies on 0xff being no opcode. */
	assert_null(gpu_pkt_desc(0xff));
}

/* ------------------------------------------------------------ main */

/* DXGK_PATCHFLAGS as the public header lays it out (d3dkmddi.h:
 * UINT Paging : 1; UINT Present : 1; UINT RedirectedPresent : 1;
 * UINT NullRendering : 1; UINT Reserved : 28), so a Value taken from a
 * real driver means the same here. */
static void test_patchflags_public(void **state)
{
	(void)state;
	assert_int_equal(DMA_PATCH_F_PAGING, 0x1);
	assert_int_equal(DMA_PATCH_F_PRESENT, 0x2);
	assert_int_equal(DMA_PATCH_F_REDIRECTED_PRESENT, 0x4);
	assert_int_equal(DMA_PATCH_F_NULL_RENDERING, 0x8);
	assert_int_equal(DMA_PATCH_F_ALL, 0xf);
}

int main(void)
{
	struct env env = { tb_seed(REPRO) };
	const char *only = getenv("GPUSIM_TEST");
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_alloc_list),
		cmocka_unit_test(test_patch_list),
		cmocka_unit_test(test_patch_golden),
		cmocka_unit_test(test_patch_bad_args),
		cmocka_unit_test(test_patch_null),
		cmocka_unit_test(test_patch_repatch),
		cmocka_unit_test(test_patch_subrange),
		cmocka_unit_test(test_patch_overlap),
		cmocka_unit_test(test_patch_fence_only),
		cmocka_unit_test(test_patch_paging),
		cmocka_unit_test_prestate(test_patch_random, &env),
		cmocka_unit_test(test_validate_table),
		cmocka_unit_test(test_validate_bad_call),
		cmocka_unit_test(test_validate_names),
		cmocka_unit_test(test_patchflags_public),
	};

	if (only && *only)
		cmocka_set_test_filter(only);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
