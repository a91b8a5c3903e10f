// SPDX-License-Identifier: MIT
/*
 * test_fw_mem.c - cmocka unit tests for the segment allocator (fw/vidmm/fw_mem.c): segment descriptions, aligned
 * first fit, fragmentation and coalescing, bad frees, host-heap failure and
 * a seeded random alloc/free sequence against a sorted-range model.
 *
 * Build and run:
 *   gcc -std=c11 -O2 -g -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes \
 *       -Ihw -Imodel -Idma -Ifw/vidmm -Ifw/kmd -Immu -Itb -Itb/unit -o /tmp/test_fw_mem tb/unit/test_fw_mem.c tb/unit/tb_fw.c \
 *       fw/vidmm/fw_mem.c fw/vidmm/fw_adapter.c fw/vidmm/fw_res.c fw/vidmm/fw_residency.c hw/gpu_tile.c \
 *       hw/gpu_names.c model/gm_status.c tb/tb_seed.c -lcmocka
 *   /tmp/test_fw_mem
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

#define REPRO "build/tests/test_fw_mem"
#include "tb_fw.h"

/* ------------------------------------------------------------ segments */

static struct fw_seg_desc vram_desc(uint64_t base, uint64_t size)
{
	struct fw_seg_desc d = { VRAM_ID, FW_SEG_VRAM, base, size, false };

	return d;
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
			fail_msg("%s: got %s, want %s", T[i].name, gm_status_name(st), gm_status_name(T[i].st));
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
			fail_msg("script %s step %zu: got %s, want %s", sc->name, i, gm_status_name(st), gm_status_name(p->st));
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
	};

	g_seed = tb_seed(REPRO);
	if (only && *only)
		cmocka_set_test_filter(only);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
