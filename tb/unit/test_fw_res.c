// SPDX-License-Identifier: MIT
/*
 * test_fw_res.c - cmocka unit tests for the segment allocator (fw/fw_mem.c)
 * and the allocation / resource / device / handle layer (fw/fw_res.c,
 * fw/fw_residency.c).
 *
 * Build and run:
 *   gcc -std=c11 -O2 -g -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes \
 *       -Imodel -Idma -Ifw -Immu -Itb -o /tmp/test_fw_res tb/unit/test_fw_res.c \
 *       fw/fw_mem.c fw/fw_res.c fw/fw_residency.c dma/dma_tile.c model/gm_status.c \
 *       tb/tb_seed.c -lcmocka
 *   /tmp/test_fw_res
 *
 * Testplan (feature -> tests)
 *   segment descriptions ............ test_seg_init_table, test_seg_init_bad_args
 *   aligned first-fit, exact fit .... test_seg_scripts (boundary scripts: align, exact,
 *                                     hole, tail, bad_align, full), test_seg_stats
 *   fragmentation then coalesce ..... test_seg_fragment_coalesce
 *   free: double/interior/outside ... test_seg_free_bad
 *   host heap failure ............... test_seg_no_mem, test_res_no_mem (faultsim loop)
 *   random alloc/free ............... test_seg_random (seeded; no overlap, bytes add
 *                                     up, first fit, FULL only when nothing fits)
 *   adapter, segments table ......... test_adapter_bad_args
 *   devices, FULL at 255 ............ test_device_limits
 *   CreateResource, several surfaces  test_res_create_surfaces
 *   surface layout checks ........... test_res_layout_table (size -1 / exact pairs)
 *   bad arguments, every entry ...... test_res_bad_args (exact code, nothing changed)
 *   device-local handles ............ test_handles_per_device (unique, other device's
 *                                     refused, stale refused, generation)
 *   shared surfaces ................. test_shared_two_devices, test_shared_device_destroy
 *   device removed (TDR) ............ test_device_removed (every call, nothing changed)
 *   placement / eviction ............ test_place_evict
 *   victim selection ................ test_pick_victims (LRU, pinned, excluded, BUSY,
 *                                     FULL, moves nothing)
 *   eviction for one placement ...... test_pick_hole (only what stands in the lowest
 *                                     hole, not a byte count; BUSY, cap, bad args)
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

#include "dma_tile.h"
#include "fw_mem.h"
#include "fw_res.h"
#include "fw_residency.h"
#include "gpu_hw.h"
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
#define KIB 1024ull
#define MIB (1024ull * KIB)
#define PAGE (1ull << GPU_PAGE_SHIFT)
#define TILE64K (64 * KIB)
#define REPRO "build/tests/test_fw_res"

#define VRAM_ID 1u
#define SYS_ID 2u
#define VRAM_BYTES (16 * MIB)
#define SYS_BYTES (16 * MIB)

static uint64_t g_seed; /* the run's seed, set once in main() */

static const char *st_str(int st)
{
	return gm_status_name(st);
}

#define assert_st(got, want)                                                                   \
	do {                                                                                   \
		int got_ = (got), want_ = (want);                                              \
		if (got_ != want_)                                                             \
			fail_msg("%s: got %s, want %s", #got, st_str(got_), st_str(want_));    \
	} while (0)

static uint64_t rng_below(uint64_t *s, uint64_t n)
{
	return tb_rand(s) % n;
}

/* ------------------------------------------------------------ fault heap */

/*
 * A host heap that counts live blocks and can fail the allocation number
 * fail_at (0-based, counting from arming), once (SQLite faultsim style).
 */
struct fheap {
	long fail_at;            /* -1: never */
	long calls;              /* realloc calls since arming */
	long failures;
	long live;               /* blocks allocated and not freed */
};

static void *fheap_realloc(void *ctx, void *ptr, size_t bytes)
{
	struct fheap *h = ctx;
	void *p;

	if (h->fail_at >= 0 && h->calls++ == h->fail_at) {
		h->failures++;
		return NULL;
	}
	p = realloc(ptr, bytes);
	if (p && !ptr)
		h->live++;
	return p;
}

static void fheap_free(void *ctx, void *ptr)
{
	struct fheap *h = ctx;

	h->live--;
	free(ptr);
}

static void fheap_arm(struct fheap *h, long fail_at)
{
	h->fail_at = fail_at;
	h->calls = 0;
}

static struct fw_host_mem fheap_ops(struct fheap *h)
{
	struct fw_host_mem m = { fheap_realloc, fheap_free, h };

	return m;
}

/* ------------------------------------------------------------ segments */

static struct fw_seg_desc vram_desc(uint64_t base, uint64_t size)
{
	struct fw_seg_desc d = { VRAM_ID, FW_SEG_VRAM, base, size, false };

	return d;
}

static struct fw_seg_stats seg_stats(const struct fw_seg *s)
{
	struct fw_seg_stats st;

	memset(&st, 0, sizeof(st));
	assert_st(fw_seg_get_stats(s, &st), GM_OK);
	return st;
}

static void assert_stats_equal(const struct fw_seg_stats *a, const struct fw_seg_stats *b)
{
	assert_int_equal(a->used, b->used);
	assert_int_equal(a->free, b->free);
	assert_int_equal(a->largest_free, b->largest_free);
	assert_int_equal(a->nranges, b->nranges);
	assert_int_equal(a->nholes, b->nholes);
}

static void test_seg_init_table(void **state)
{
	const uint64_t top = 1ull << GPU_PA_BITS;
	static const struct {
		const char *name;
		unsigned id;
		enum fw_seg_kind kind;
		uint64_t base, size;
		int st;
	} T[] = {
		{ "vram at 0", 1, FW_SEG_VRAM, GPU_VRAM_BASE, MIB, GM_OK },
		{ "vram to the sysmem base", 1, FW_SEG_VRAM, GPU_SYSMEM_BASE - MIB, MIB, GM_OK },
		{ "vram past the sysmem base", 1, FW_SEG_VRAM, GPU_SYSMEM_BASE - MIB, MIB + 1, GM_ERR_BAD_ARG },
		{ "vram inside sysmem", 1, FW_SEG_VRAM, GPU_SYSMEM_BASE, MIB, GM_ERR_BAD_ARG },
		{ "sys at its base", 1, FW_SEG_SYSTEM, GPU_SYSMEM_BASE, MIB, GM_OK },
		{ "sys below its base", 1, FW_SEG_SYSTEM, GPU_SYSMEM_BASE - TILE64K, MIB, GM_ERR_BAD_ARG },
		{ "sys to the top", 1, FW_SEG_SYSTEM, (1ull << GPU_PA_BITS) - MIB, MIB, GM_OK },
		{ "sys past the top", 1, FW_SEG_SYSTEM, (1ull << GPU_PA_BITS) - MIB, MIB + 1, GM_ERR_BAD_ARG },
		{ "size wraps", 1, FW_SEG_SYSTEM, GPU_SYSMEM_BASE, UINT64_MAX, GM_ERR_BAD_ARG },
		{ "id 0", 0, FW_SEG_VRAM, 0, MIB, GM_ERR_BAD_ARG },
		{ "size 0", 1, FW_SEG_VRAM, 0, 0, GM_ERR_BAD_ARG },
		{ "size 1", 1, FW_SEG_VRAM, 0, 1, GM_OK },
		{ "base 32 KiB", 1, FW_SEG_VRAM, 32 * KIB, MIB, GM_ERR_BAD_ARG },
		{ "base 64 KiB", 1, FW_SEG_VRAM, 64 * KIB, MIB, GM_OK },
		{ "bad kind", 1, FW_SEG_KIND_COUNT, 0, MIB, GM_ERR_BAD_ARG },
	};
	size_t i;

	(void)state;
	assert_true(top > GPU_SYSMEM_BASE);
	for (i = 0; i < ARRAY_SIZE(T); i++) {
		struct fw_seg_desc d = { T[i].id, T[i].kind, T[i].base, T[i].size, true };
		struct fw_seg s, before;
		int st;

		memset(&s, 0x5a, sizeof(s));
		memcpy(&before, &s, sizeof(s));
		st = fw_seg_init(&s, &d, NULL);
		if (st != T[i].st)
			fail_msg("%s: got %s, want %s", T[i].name, st_str(st), st_str(T[i].st));
		if (st == GM_OK) {
			struct fw_seg_stats ss = seg_stats(&s);

			assert_int_equal(ss.free, T[i].size);
			assert_int_equal(ss.largest_free, T[i].size);
			assert_int_equal(ss.nholes, 1);
			assert_true(fw_seg_consistent(&s));
			fw_seg_fini(&s);
		} else {
			assert_memory_equal(&s, &before, sizeof(s)); /* not written */
		}
	}
}

static void test_seg_init_bad_args(void **state)
{
	struct fw_seg_desc d = vram_desc(0, MIB);
	struct fw_host_mem half = { fheap_realloc, NULL, NULL };
	struct fw_seg s;
	struct fw_seg_stats st;
	uint64_t addr = 7;

	(void)state;
	assert_st(fw_seg_init(NULL, &d, NULL), GM_ERR_BAD_ARG);
	assert_st(fw_seg_init(&s, NULL, NULL), GM_ERR_BAD_ARG);
	assert_st(fw_seg_init(&s, &d, &half), GM_ERR_BAD_ARG);
	half.realloc_fn = NULL;
	half.free_fn = fheap_free;
	assert_st(fw_seg_init(&s, &d, &half), GM_ERR_BAD_ARG);
	assert_st(fw_seg_alloc(NULL, 1, 1, &addr), GM_ERR_BAD_ARG);
	assert_st(fw_seg_free(NULL, 0), GM_ERR_BAD_ARG);
	assert_st(fw_seg_get_stats(NULL, &st), GM_ERR_BAD_ARG);
	assert_false(fw_seg_consistent(NULL));
	fw_seg_fini(NULL);

	assert_st(fw_seg_init(&s, &d, NULL), GM_OK);
	assert_st(fw_seg_alloc(&s, 1, 1, NULL), GM_ERR_BAD_ARG);
	assert_st(fw_seg_get_stats(&s, NULL), GM_ERR_BAD_ARG);
	assert_int_equal(addr, 7);
	assert_int_equal(seg_stats(&s).used, 0);
	fw_seg_fini(&s);
	fw_seg_fini(&s); /* twice is harmless */
}

/*
 * Boundary scripts, in the manner of drm_mm's: each step allocates (bytes,
 * align) or frees the range an earlier step got, and names the exact
 * status and offset.  On an error the stats must not move.
 */
enum { OP_END, OP_ALLOC, OP_FREE, OP_FREE_AT };

struct seg_step {
	int op;
	uint64_t a, b;           /* ALLOC: bytes, align; FREE: step index; FREE_AT: offset */
	int st;
	uint64_t off;            /* ALLOC: expected offset from the base */
};

#define SEG_BASE (1 * MIB)    /* so addresses differ from offsets */
#define SEG_SIZE (1 * MIB)
#define A(bytes, align, st, off) { OP_ALLOC, bytes, align, st, off }
#define F(step) { OP_FREE, step, 0, GM_OK, 0 }
#define FAT(off, st) { OP_FREE_AT, off, 0, st, 0 }
#define END { OP_END, 0, 0, 0, 0 }

static const struct seg_script {
	const char *name;
	struct seg_step s[24];
} seg_scripts[] = {
	{ "align", {
		A(1, 1, GM_OK, 0), A(1, 2, GM_OK, 2), A(1, 1, GM_OK, 1),
		A(1, TILE64K, GM_OK, TILE64K), A(TILE64K - 3, 1, GM_OK, 3),
		A(1, 1, GM_OK, TILE64K + 1), A(1, PAGE, GM_OK, TILE64K + PAGE),
		A(PAGE - 2, 2, GM_OK, TILE64K + 2), END } },
	{ "exact", {
		A(SEG_SIZE, TILE64K, GM_OK, 0), A(1, 1, GM_ERR_FULL, 0), F(0),
		A(SEG_SIZE + 1, 1, GM_ERR_BAD_ARG, 0), A(SEG_SIZE, 1, GM_OK, 0), END } },
	{ "hole", {
		A(PAGE, PAGE, GM_OK, 0), A(PAGE, PAGE, GM_OK, PAGE), A(PAGE, PAGE, GM_OK, 2 * PAGE),
		F(1), A(PAGE + 1, 1, GM_OK, 3 * PAGE), A(PAGE, 1, GM_OK, PAGE),
		A(1, 1, GM_OK, 4 * PAGE + 1), END } },
	{ "tail", {
		A(SEG_SIZE - TILE64K, 1, GM_OK, 0), A(TILE64K, TILE64K, GM_OK, SEG_SIZE - TILE64K),
		F(1), A(1, 1, GM_OK, SEG_SIZE - TILE64K),
		A(TILE64K - 1, TILE64K, GM_ERR_FULL, 0), A(TILE64K - 1, 1, GM_OK, SEG_SIZE - TILE64K + 1),
		A(1, 1, GM_ERR_FULL, 0), END } },
	{ "bad_align", {
		A(1, 0, GM_ERR_BAD_ARG, 0), A(1, 3, GM_ERR_BAD_ARG, 0),
		A(1, 2 * TILE64K, GM_ERR_BAD_ARG, 0), A(1, 1ull << 63, GM_ERR_BAD_ARG, 0),
		A(0, 1, GM_ERR_BAD_ARG, 0), A(UINT64_MAX, 1, GM_ERR_BAD_ARG, 0),
		A(1, TILE64K, GM_OK, 0), END } },
	{ "full", {
		A(4 * TILE64K, TILE64K, GM_OK, 0), A(4 * TILE64K, TILE64K, GM_OK, 4 * TILE64K),
		A(4 * TILE64K, TILE64K, GM_OK, 8 * TILE64K), A(4 * TILE64K, TILE64K, GM_OK, 12 * TILE64K),
		A(1, 1, GM_ERR_FULL, 0), F(1), A(4 * TILE64K + 1, 1, GM_ERR_FULL, 0),
		A(4 * TILE64K, 1, GM_OK, 4 * TILE64K), END } },
	{ "free_twice", {
		A(PAGE, 1, GM_OK, 0), F(0), FAT(0, GM_ERR_BAD_ARG), A(2 * PAGE, 1, GM_OK, 0),
		FAT(PAGE, GM_ERR_BAD_ARG), FAT(0, GM_OK), END } },
};

static void run_script(const struct seg_script *sc)
{
	struct fw_seg_desc d = vram_desc(SEG_BASE, SEG_SIZE);
	uint64_t addr[ARRAY_SIZE(sc->s)];
	struct fw_seg s;
	size_t i;

	assert_st(fw_seg_init(&s, &d, NULL), GM_OK);
	for (i = 0; sc->s[i].op != OP_END; i++) {
		const struct seg_step *p = &sc->s[i];
		struct fw_seg_stats before = seg_stats(&s), after;
		uint64_t got = 0xdead;
		int st;

		if (p->op == OP_ALLOC)
			st = fw_seg_alloc(&s, p->a, p->b, &got);
		else if (p->op == OP_FREE)
			st = fw_seg_free(&s, addr[p->a]);
		else
			st = fw_seg_free(&s, SEG_BASE + p->a);
		if (st != p->st)
			fail_msg("script %s step %zu: got %s, want %s", sc->name, i, st_str(st), st_str(p->st));
		after = seg_stats(&s);
		assert_true(fw_seg_consistent(&s));
		if (st != GM_OK) {
			assert_stats_equal(&before, &after);
			assert_int_equal(got, 0xdead);
			continue;
		}
		if (p->op == OP_ALLOC) {
			if (got != SEG_BASE + p->off)
				fail_msg("script %s step %zu: at 0x%" PRIx64 ", want 0x%" PRIx64, sc->name,
					 i, (uint64_t)(got - SEG_BASE), (uint64_t)p->off);
			assert_int_equal(after.used, before.used + p->a);
			addr[i] = got;
		}
	}
	fw_seg_fini(&s);
}

static void test_seg_scripts(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(seg_scripts); i++)
		run_script(&seg_scripts[i]);
}

static void test_seg_stats(void **state)
{
	struct fw_seg_desc d = vram_desc(SEG_BASE, SEG_SIZE);
	struct fw_seg s;
	struct fw_seg_stats st;
	uint64_t a, b;

	(void)state;
	assert_st(fw_seg_init(&s, &d, NULL), GM_OK);
	assert_st(fw_seg_alloc(&s, 100, 1, &a), GM_OK);
	assert_st(fw_seg_alloc(&s, 100, TILE64K, &b), GM_OK);
	st = seg_stats(&s);
	assert_int_equal(st.used, 200);
	assert_int_equal(st.free, SEG_SIZE - 200);
	assert_int_equal(st.nranges, 2);
	assert_int_equal(st.nholes, 2); /* [100, 64K) and the tail */
	assert_int_equal(st.largest_free, SEG_SIZE - TILE64K - 100);
	fw_seg_fini(&s);
}

static void test_seg_fragment_coalesce(void **state)
{
	struct fw_seg_desc d = vram_desc(SEG_BASE, SEG_SIZE);
	const unsigned n = SEG_SIZE / TILE64K;
	uint64_t addr[SEG_SIZE / TILE64K], x;
	struct fw_seg_stats st;
	struct fw_seg s;
	unsigned i;

	(void)state;
	assert_st(fw_seg_init(&s, &d, NULL), GM_OK);
	for (i = 0; i < n; i++)
		assert_st(fw_seg_alloc(&s, TILE64K, TILE64K, &addr[i]), GM_OK);
	for (i = 0; i < n; i += 2)
		assert_st(fw_seg_free(&s, addr[i]), GM_OK);
	st = seg_stats(&s);
	assert_int_equal(st.free, SEG_SIZE / 2);
	assert_int_equal(st.largest_free, TILE64K);
	assert_int_equal(st.nholes, n / 2);
	assert_st(fw_seg_alloc(&s, TILE64K + 1, 1, &x), GM_ERR_FULL);

	/* Free a middle range: it joins both neighbours. */
	assert_st(fw_seg_free(&s, addr[5]), GM_OK);
	st = seg_stats(&s);
	assert_int_equal(st.largest_free, 3 * TILE64K);
	assert_int_equal(st.nholes, n / 2 - 1);
	assert_st(fw_seg_alloc(&s, 3 * TILE64K, TILE64K, &x), GM_OK);
	assert_int_equal(x, addr[4]);
	assert_st(fw_seg_free(&s, x), GM_OK);

	for (i = 1; i < n; i += 2)
		if (i != 5)
			assert_st(fw_seg_free(&s, addr[i]), GM_OK);
	st = seg_stats(&s);
	assert_int_equal(st.used, 0);
	assert_int_equal(st.nholes, 1);
	assert_int_equal(st.largest_free, SEG_SIZE);
	assert_st(fw_seg_alloc(&s, SEG_SIZE, TILE64K, &x), GM_OK);
	assert_int_equal(x, SEG_BASE);
	assert_true(fw_seg_consistent(&s));
	fw_seg_fini(&s);
}

static void test_seg_free_bad(void **state)
{
	struct fw_seg_desc d = vram_desc(SEG_BASE, SEG_SIZE);
	struct fw_seg_stats before;
	struct fw_seg s;
	uint64_t a, b;
	const uint64_t bad[] = { 0, SEG_BASE - 1, SEG_BASE + 1, SEG_BASE + PAGE + 1,
				 SEG_BASE + 2 * PAGE, SEG_BASE + SEG_SIZE, UINT64_MAX };
	size_t i;

	(void)state;
	assert_st(fw_seg_init(&s, &d, NULL), GM_OK);
	assert_st(fw_seg_free(&s, SEG_BASE), GM_ERR_BAD_ARG); /* nothing live */
	assert_st(fw_seg_alloc(&s, PAGE, 1, &a), GM_OK);
	assert_st(fw_seg_alloc(&s, PAGE, 1, &b), GM_OK);
	before = seg_stats(&s);
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		struct fw_seg_stats now;

		assert_st(fw_seg_free(&s, bad[i]), GM_ERR_BAD_ARG);
		now = seg_stats(&s);
		assert_stats_equal(&before, &now);
	}
	assert_st(fw_seg_free(&s, a), GM_OK);
	assert_st(fw_seg_free(&s, a), GM_ERR_BAD_ARG);
	assert_st(fw_seg_free(&s, b), GM_OK);
	assert_int_equal(seg_stats(&s).used, 0);
	fw_seg_fini(&s);
}

static void test_seg_no_mem(void **state)
{
	struct fheap h = { -1, 0, 0, 0 };
	struct fw_host_mem ops = fheap_ops(&h);
	struct fw_seg_desc d = vram_desc(SEG_BASE, SEG_SIZE);
	struct fw_seg_stats before, after;
	struct fw_seg s;
	uint64_t a = 0xdead;
	unsigned i;

	(void)state;
	assert_st(fw_seg_init(&s, &d, &ops), GM_OK);
	for (i = 0; i < 100; i++) {
		before = seg_stats(&s);
		fheap_arm(&h, 0);
		a = 0xdead;
		if (fw_seg_alloc(&s, 64, 1, &a) == GM_OK)
			continue; /* no growth this time */
		/* The growth failed: nothing changed, and a retry succeeds. */
		after = seg_stats(&s);
		assert_stats_equal(&before, &after);
		assert_int_equal(a, 0xdead);
		fheap_arm(&h, -1);
		assert_st(fw_seg_alloc(&s, 64, 1, &a), GM_OK);
	}
	assert_int_equal(h.failures, 4); /* the first array, then 16 -> 32 -> 64 -> 128 entries */
	/* FULL is decided before the heap is asked. */
	fheap_arm(&h, 0);
	assert_st(fw_seg_alloc(&s, SEG_SIZE, 1, &a), GM_ERR_FULL);
	assert_int_equal(h.calls, 0);
	assert_true(fw_seg_consistent(&s));
	fw_seg_fini(&s);
	assert_int_equal(h.live, 0);
}

/* ------------------------------------------------------------ random segment */

#define RND_SEG_SIZE (4 * MIB)
#define RND_OPS 200000
#define RND_MAX_LIVE 256

struct rnd_range {
	uint64_t off, size;
};

#define SEED_CHECK(cond)                                                                         \
	do {                                                                                    \
		if (!(cond))                                                                    \
			fail_msg("op %lu: %s; reproduce: GPUSIM_SEED=%" PRIu64 " " REPRO, op, #cond,   \
				 g_seed);                                                       \
	} while (0)

/*
 * The model: the live ranges sorted by offset.  First fit over it is the
 * oracle for where an allocation must land, and for when FULL is right.
 */
static uint64_t rnd_first_fit(const struct rnd_range *live, size_t n, uint64_t bytes, uint64_t align,
			      size_t *at)
{
	uint64_t start = 0;
	size_t i;

	for (i = 0; i <= n; i++) {
		uint64_t end = i < n ? live[i].off : RND_SEG_SIZE;
		uint64_t a = (start + align - 1) & ~(align - 1);

		if (a <= end && end - a >= bytes) {
			*at = i;
			return a;
		}
		if (i < n)
			start = live[i].off + live[i].size;
	}
	return UINT64_MAX;
}

/* The allocator's stats against a recount from the model. */
static void rnd_check(const struct fw_seg *s, const struct rnd_range *live, size_t n, unsigned long op)
{
	struct fw_seg_stats st = seg_stats(s);
	uint64_t used = 0, largest = 0, free_sum = 0, start = 0;
	size_t i, holes = 0;

	for (i = 0; i <= n; i++) {
		uint64_t end = i < n ? live[i].off : RND_SEG_SIZE;

		SEED_CHECK(end >= start); /* no two live ranges overlap */
		if (end > start) {
			holes++;
			free_sum += end - start;
			largest = end - start > largest ? end - start : largest;
		}
		if (i < n) {
			used += live[i].size;
			start = live[i].off + live[i].size;
		}
	}
	SEED_CHECK(fw_seg_consistent(s));
	SEED_CHECK(start <= RND_SEG_SIZE);
	SEED_CHECK(st.used == used);
	SEED_CHECK(st.free == RND_SEG_SIZE - used);
	SEED_CHECK(free_sum + used == RND_SEG_SIZE); /* the free bytes add up */
	SEED_CHECK(st.largest_free == largest);
	SEED_CHECK(st.nholes == holes);
	SEED_CHECK(st.nranges == n);
}

static void test_seg_random(void **state)
{
	struct fw_seg_desc d = { SYS_ID, FW_SEG_SYSTEM, GPU_SYSMEM_BASE, RND_SEG_SIZE, true };
	static struct rnd_range live[RND_MAX_LIVE];
	uint64_t rng = g_seed ^ 0x7365675f726e6400ull;
	size_t n = 0, fulls = 0;
	struct fw_seg s;
	unsigned long op;

	(void)state;
	assert_st(fw_seg_init(&s, &d, NULL), GM_OK);
	for (op = 0; op < RND_OPS; op++) {
		bool do_alloc = n == 0 || (n < RND_MAX_LIVE && rng_below(&rng, 100) < 55);

		if (do_alloc) {
			/* Mostly small, sometimes big; any alignment up to 64 KiB. */
			uint64_t bytes = rng_below(&rng, 8) ? 1 + rng_below(&rng, 16 * KIB)
							    : 1 + rng_below(&rng, 512 * KIB);
			uint64_t align = 1ull << rng_below(&rng, 17);
			uint64_t want, addr = 0;
			size_t at = 0;
			int st;

			want = rnd_first_fit(live, n, bytes, align, &at);
			st = fw_seg_alloc(&s, bytes, align, &addr);
			if (want == UINT64_MAX) {
				SEED_CHECK(st == GM_ERR_FULL);
				fulls++;
			} else {
				SEED_CHECK(st == GM_OK);
				SEED_CHECK(addr - GPU_SYSMEM_BASE == want); /* first fit */
				SEED_CHECK((addr & (align - 1)) == 0);
				memmove(&live[at + 1], &live[at], (n - at) * sizeof(live[0]));
				live[at].off = want;
				live[at].size = bytes;
				n++;
			}
		} else {
			size_t k = rng_below(&rng, n);

			SEED_CHECK(fw_seg_free(&s, GPU_SYSMEM_BASE + live[k].off) == GM_OK);
			/* A second free of the same range is refused. */
			if (op % 97 == 0)
				SEED_CHECK(fw_seg_free(&s, GPU_SYSMEM_BASE + live[k].off) == GM_ERR_BAD_ARG);
			n--;
			memmove(&live[k], &live[k + 1], (n - k) * sizeof(live[0]));
		}
		if (op % 16 == 0)
			rnd_check(&s, live, n, op);
	}
	rnd_check(&s, live, n, op);
	print_message("  %lu ops, %zu live at the end, %zu FULL\n", op, n, fulls);
	SEED_CHECK(fulls > 0); /* the run reached the full boundary */
	while (n)
		SEED_CHECK(fw_seg_free(&s, GPU_SYSMEM_BASE + live[--n].off) == GM_OK);
	SEED_CHECK(seg_stats(&s).largest_free == RND_SEG_SIZE); /* everything coalesced */
	SEED_CHECK(seg_stats(&s).nholes == 1);
	fw_seg_fini(&s);
}

/* ------------------------------------------------------------ adapter fixture */

struct fx {
	struct fheap heap;
	struct fw_adapter ad;
	struct fw_device *d0, *d1;
};

static int setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));
	struct fw_seg_desc vram = { VRAM_ID, FW_SEG_VRAM, GPU_VRAM_BASE, VRAM_BYTES, false };
	struct fw_seg_desc sys = { SYS_ID, FW_SEG_SYSTEM, GPU_SYSMEM_BASE, SYS_BYTES, true };
	struct fw_host_mem ops;

	if (!f)
		return -1;
	f->heap.fail_at = -1;
	ops = fheap_ops(&f->heap);
	if (fw_adapter_init(&f->ad, &ops) || fw_adapter_add_seg(&f->ad, &vram) ||
	    fw_adapter_add_seg(&f->ad, &sys) || fw_device_create(&f->ad, &f->d0) ||
	    fw_device_create(&f->ad, &f->d1))
		return -1;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;
	long live;

	fw_adapter_fini(&f->ad);
	live = f->heap.live;
	free(f);
	if (live != 0) {
		print_error("%ld host blocks leaked\n", live);
		return -1;
	}
	return 0;
}

/* A linear buffer of @bytes (one row). */
static struct fw_alloc_desc buf_desc(uint32_t bytes)
{
	struct fw_alloc_desc d;

	memset(&d, 0, sizeof(d));
	d.size = bytes;
	d.width = bytes;
	d.height = 1;
	d.pitch = bytes;
	d.tile = GPU_TILE_LINEAR;
	return d;
}

/*
 * A 2-D surface: @w x @h elements of 1 << @bpe bytes in @tile, the least
 * pitch and size the geometry (dma_tile) allows.
 */
static struct fw_alloc_desc surf_desc(enum gpu_tile_mode tile, uint32_t bpe, uint32_t w, uint32_t h)
{
	struct dma_tile_info ti;
	struct fw_alloc_desc d;
	uint64_t tw;

	memset(&d, 0, sizeof(d));
	d.width = w;
	d.height = h;
	d.bpe_log2 = bpe;
	d.tile = tile;
	d.format = 0x1000 + bpe;
	assert_st(dma_tile_info(tile, bpe, &ti), GM_OK);
	tw = ti.tile_w_bytes;
	d.pitch = (uint32_t)((((uint64_t)w << bpe) + tw - 1) / tw * tw);
	assert_st(dma_tile_surface_bytes(tile, bpe, d.pitch, h, &d.size), GM_OK);
	return d;
}

/* Everything the "nothing changed" checks compare. */
struct snap {
	struct fw_adapter_stats ad;
	struct fw_seg_stats seg[2];
	uint32_t nhandles[2];
	size_t nres[2];
	uint64_t objs;           /* hash of every kernel object's counts and residency */
};

static uint64_t mix(uint64_t h, uint64_t v)
{
	return (h ^ v) * 0x100000001b3ull;
}

static struct snap snap_take(struct fx *f)
{
	const struct fw_kres *k;
	struct snap s;
	size_t i;

	memset(&s, 0, sizeof(s));
	assert_st(fw_adapter_get_stats(&f->ad, &s.ad), GM_OK);
	s.seg[0] = seg_stats(fw_adapter_seg(&f->ad, VRAM_ID));
	s.seg[1] = seg_stats(fw_adapter_seg(&f->ad, SYS_ID));
	/* Read the device fields directly: get_stats refuses on a removed device. */
	if (f->d0) {
		s.nhandles[0] = f->d0->nhandles;
		s.nres[0] = f->d0->nres;
	}
	if (f->d1) {
		s.nhandles[1] = f->d1->nhandles;
		s.nres[1] = f->d1->nres;
	}
	s.objs = 0xcbf29ce484222325ull;
	for (k = f->ad.kres; k; k = k->next) {
		s.objs = mix(mix(s.objs, k->opens), k->share);
		for (i = 0; i < k->nalloc; i++) {
			const struct fw_alloc *a = k->alloc[i];

			s.objs = mix(mix(mix(s.objs, a->refs), a->loc.seg_id), a->loc.addr);
			s.objs = mix(mix(s.objs, a->resident), a->pinned);
		}
	}
	return s;
}

static void snap_same(const struct snap *a, const struct snap *b, const char *what)
{
	if (memcmp(&a->ad, &b->ad, sizeof(a->ad)) || memcmp(a->nhandles, b->nhandles, sizeof(a->nhandles)) ||
	    memcmp(a->nres, b->nres, sizeof(a->nres)) || a->objs != b->objs ||
	    a->seg[0].used != b->seg[0].used || a->seg[1].used != b->seg[1].used ||
	    a->seg[0].nranges != b->seg[0].nranges || a->seg[1].nranges != b->seg[1].nranges)
		fail_msg("%s changed state", what);
}

static struct fw_alloc *resolve(struct fw_device *dev, const struct fw_resource *r, size_t i)
{
	struct fw_alloc *a = NULL;
	uint32_t h = 0;

	assert_st(fw_res_surface_handle(r, i, &h), GM_OK);
	assert_st(fw_res_get_handle_data(dev, h, &a), GM_OK);
	assert_non_null(a);
	return a;
}

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
			fail_msg("layout %zu, size - %" PRIu64 ": got %s", i, ok[i].less, st_str(st));
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
	case 6: d->bpe_log2 = DMA_TILE_BPE_LOG2_MAX + 1; break;
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
			fail_msg("%s (surface %zu): got %s", bad_desc_names[i / 2], i % 2, st_str(st));
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
		fail_msg("%s: got %s, want %s", name, st_str(st), st_str(want_st));
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
 * lands (issue 12: that eviction found no room in the system segment).
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
		cmocka_unit_test(test_seg_init_table),
		cmocka_unit_test(test_seg_init_bad_args),
		cmocka_unit_test(test_seg_scripts),
		cmocka_unit_test(test_seg_stats),
		cmocka_unit_test(test_seg_fragment_coalesce),
		cmocka_unit_test(test_seg_free_bad),
		cmocka_unit_test(test_seg_no_mem),
		cmocka_unit_test(test_seg_random),
		cmocka_unit_test(test_adapter_bad_args),
		FX(test_device_limits),
		FX(test_res_create_surfaces),
		FX(test_res_layout_table),
		FX(test_res_bad_args),
		FX(test_res_no_mem),
		FX(test_handles_per_device),
		FX(test_shared_two_devices),
		FX(test_shared_device_destroy),
		FX(test_device_removed),
		FX(test_place_evict),
		FX(test_pick_victims),
		FX(test_pick_hole),
		FX(test_res_random),
		cmocka_unit_test(test_status_values),
	};

	g_seed = tb_seed(REPRO);
	if (only && *only)
		cmocka_set_test_filter(only);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
