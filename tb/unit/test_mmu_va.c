// SPDX-License-Identifier: MIT
/*
 * test_mmu_va.c - cmocka unit tests for mmu/mmu_va.c, GPU-VA reservation:
 * the bounds and alignment of a space, fixed-base and first-fit
 * reservations inside a window, overlap refusals that change nothing,
 * release, lookups, and a seeded random sequence against a block map.
 *
 * Build and run:
 *   gcc -std=c11 -Wall -Wextra -Werror -Wshadow -g -fsanitize=address,undefined \
 *       -Imodel -Immu -Itb mmu/mmu_va.c tb/unit/test_mmu_va.c tb/tb_seed.c -lcmocka \
 *       -o /tmp/test_mmu_va
 *   /tmp/test_mmu_va
 *
 * The random test takes its seed from tb_seed() ($GPUSIM_SEED, else the
 * clock) and prints it; $GPUSIM_TEST=<test name> runs one test.  A failure
 * prints the command that reproduces it.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gm_status.h"
#include "mmu_pt.h"
#include "mmu_va.h"
#include "tb_seed.h"

#define PG MMU_PAGE_SIZE
#define BLK MMU_VA_ALIGN
#define GIB (1024ull * 1024 * 1024)
#define LIMIT MMU_VA_LIMIT

struct env {
	uint64_t seed;
	const char *argv0;
};

struct fx {
	struct mmu_va_space vs;
	const struct env *env;
};

static int setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));

	if (!f)
		return -1;
	f->env = *state;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	mmu_va_fini(&f->vs);
	free(f);
	return 0;
}

static uint64_t rng_below(uint64_t *s, uint64_t n)
{
	return tb_rand(s) % n;
}

/* ---- GPU-VA reservation ----------------------------------------------------- */

#define VMIN (1 * GIB)
#define VMAX (VMIN + 256 * BLK)
#define B(base_, size_) (base_), (size_)

/* A copy of the reservations, to prove an error changed nothing. */
struct va_snap {
	size_t n;
	struct mmu_va_range r[64];
};

static void va_snap(const struct mmu_va_space *vs, struct va_snap *s)
{
	assert_true(vs->n <= 64);
	s->n = vs->n;
	memcpy(s->r, vs->r, vs->n * sizeof(*vs->r));
}

static void va_same(const struct mmu_va_space *vs, const struct va_snap *s)
{
	assert_int_equal(vs->n, s->n);
	if (s->n)
		assert_memory_equal(vs->r, s->r, s->n * sizeof(*vs->r));
}

static void va_fresh(struct fx *f)
{
	mmu_va_fini(&f->vs);
	assert_int_equal(mmu_va_init(&f->vs, VMIN, VMAX), GM_OK);
}

struct va_init_case {
	uint64_t min, max;
	int want;
};

static void test_va_init(void **state)
{
	static const struct va_init_case cases[] = {
		{ 0, LIMIT, GM_OK },
		{ VMIN, VMIN + BLK, GM_OK },
		{ VMIN + PG, VMAX, GM_ERR_BAD_ARG },
		{ VMIN, VMAX + PG, GM_ERR_BAD_ARG },
		{ VMIN, VMIN, GM_ERR_BAD_ARG },
		{ VMAX, VMIN, GM_ERR_BAD_ARG },
		{ 0, LIMIT + BLK, GM_ERR_BAD_ARG },
	};
	struct mmu_va_space sentinel;
	unsigned int i;
	(void)state;

	memset(&sentinel, 0x5a, sizeof(sentinel));
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct mmu_va_space vs;
		int st;

		memcpy(&vs, &sentinel, sizeof(vs));
		st = mmu_va_init(&vs, cases[i].min, cases[i].max);

		if (st != cases[i].want)
			fail_msg("case %u: got %d, want %d", i, st, cases[i].want);
		if (st == GM_OK) {
			assert_int_equal(vs.n, 0);
			assert_int_equal(vs.min, cases[i].min);
			assert_int_equal(vs.max, cases[i].max);
			mmu_va_fini(&vs);
		} else {
			assert_memory_equal(&vs, &sentinel, sizeof(vs));
		}
	}
	assert_int_equal(mmu_va_init(NULL, VMIN, VMAX), GM_ERR_BAD_ARG);
}

struct va_case {
	const char *name;
	uint64_t base, size;
	int want;
};

/* drm_mm_test style: each on a fresh space [VMIN, VMAX). */
static const struct va_case va_bounds[] = {
	{ "first block", B(VMIN, BLK), GM_OK },
	{ "last block", B(VMAX - BLK, BLK), GM_OK },
	{ "exactly the space", B(VMIN, VMAX - VMIN), GM_OK },
	{ "the space plus one", B(VMIN, VMAX - VMIN + BLK), GM_ERR_BAD_ARG },
	{ "one below min", B(VMIN - BLK, BLK), GM_ERR_BAD_ARG },
	{ "straddles min", B(VMIN - BLK, 2 * BLK), GM_ERR_BAD_ARG },
	{ "at max", B(VMAX, BLK), GM_ERR_BAD_ARG },
	{ "straddles max", B(VMAX - BLK, 2 * BLK), GM_ERR_BAD_ARG },
	{ "base 4K aligned", B(VMIN + PG, BLK), GM_ERR_BAD_ARG },
	{ "size 4K aligned", B(VMIN, BLK + PG), GM_ERR_BAD_ARG },
	{ "size 0", B(VMIN, 0), GM_ERR_BAD_ARG },
	{ "size wraps", B(VMIN + BLK, UINT64_MAX & ~(BLK - 1)), GM_ERR_BAD_ARG },
	{ "base near 2^64", B(UINT64_MAX & ~(BLK - 1), 2 * BLK), GM_ERR_BAD_ARG },
	{ "base 0", B(0, BLK), GM_ERR_BAD_ARG },
};

static void test_va_reserve_bounds(void **state)
{
	struct fx *f = *state;
	unsigned int i;

	for (i = 0; i < sizeof(va_bounds) / sizeof(va_bounds[0]); i++) {
		const struct va_case *c = &va_bounds[i];
		int st;

		va_fresh(f);
		st = mmu_va_reserve(&f->vs, c->base, c->size);
		if (st != c->want)
			fail_msg("%s: got %d, want %d", c->name, st, c->want);
		assert_int_equal(f->vs.n, st == GM_OK);
		if (st == GM_OK)
			assert_true(mmu_va_contains(&f->vs, c->base, c->size));
	}
	assert_int_equal(mmu_va_reserve(NULL, VMIN, BLK), GM_ERR_BAD_ARG);
}

#define XB (VMIN + 16 * BLK)   /* the existing reservation: [XB, XB + 4 blocks) */

static const struct va_case va_overlaps[] = {
	{ "the same", B(XB, 4 * BLK), GM_ERR_BUSY },
	{ "over the left edge", B(XB - BLK, 2 * BLK), GM_ERR_BUSY },
	{ "over the right edge", B(XB + 3 * BLK, 2 * BLK), GM_ERR_BUSY },
	{ "around it", B(XB - BLK, 6 * BLK), GM_ERR_BUSY },
	{ "inside it", B(XB + BLK, BLK), GM_ERR_BUSY },
	{ "its first block", B(XB, BLK), GM_ERR_BUSY },
	{ "its last block", B(XB + 3 * BLK, BLK), GM_ERR_BUSY },
	{ "adjacent left", B(XB - BLK, BLK), GM_OK },
	{ "adjacent right", B(XB + 4 * BLK, BLK), GM_OK },
	{ "from min to it", B(VMIN, XB - VMIN), GM_OK },
	{ "from it to max", B(XB + 4 * BLK, VMAX - XB - 4 * BLK), GM_OK },
	{ "gap of one", B(XB - 2 * BLK, BLK), GM_OK },
};

static void test_va_reserve_overlap(void **state)
{
	struct fx *f = *state;
	struct va_snap snap;
	unsigned int i;

	for (i = 0; i < sizeof(va_overlaps) / sizeof(va_overlaps[0]); i++) {
		const struct va_case *c = &va_overlaps[i];
		int st;

		va_fresh(f);
		assert_int_equal(mmu_va_reserve(&f->vs, XB, 4 * BLK), GM_OK);
		va_snap(&f->vs, &snap);
		st = mmu_va_reserve(&f->vs, c->base, c->size);
		if (st != c->want)
			fail_msg("%s: got %d, want %d", c->name, st, c->want);
		if (st != GM_OK) {
			va_same(&f->vs, &snap);
			continue;
		}
		assert_int_equal(f->vs.n, 2);
		assert_true(f->vs.r[0].base + f->vs.r[0].size <= f->vs.r[1].base);
	}
	/* both neighbours at once, then filling the whole space exactly */
	va_fresh(f);
	assert_int_equal(mmu_va_reserve(&f->vs, XB, 4 * BLK), GM_OK);
	assert_int_equal(mmu_va_reserve(&f->vs, XB + 4 * BLK, BLK), GM_OK);
	assert_int_equal(mmu_va_reserve(&f->vs, XB - BLK, BLK), GM_OK);
	assert_int_equal(mmu_va_reserve(&f->vs, VMIN, XB - BLK - VMIN), GM_OK);
	assert_int_equal(mmu_va_reserve(&f->vs, XB + 5 * BLK, VMAX - XB - 5 * BLK), GM_OK);
	assert_int_equal(f->vs.n, 5);
	va_snap(&f->vs, &snap);
	assert_int_equal(mmu_va_reserve(&f->vs, VMAX - BLK, BLK), GM_ERR_BUSY);
	va_same(&f->vs, &snap);
}

static uint64_t reserve_in(struct fx *f, uint64_t lo, uint64_t hi, uint64_t size)
{
	uint64_t base = 0;

	assert_int_equal(mmu_va_reserve_in(&f->vs, lo, hi, size, &base), GM_OK);
	return base;
}

static void test_va_reserve_in_first_fit(void **state)
{
	struct fx *f = *state;
	const uint64_t sentinel = 0x5a5a5a5a5a5a5a5aull;
	struct va_snap snap;
	uint64_t base = sentinel;

	va_fresh(f);
	assert_int_equal(reserve_in(f, VMIN, VMAX, BLK), VMIN);
	assert_int_equal(reserve_in(f, VMIN, VMAX, 2 * BLK), VMIN + BLK);
	assert_int_equal(reserve_in(f, VMIN, VMAX, BLK), VMIN + 3 * BLK);
	assert_int_equal(reserve_in(f, VMIN, VMAX, 3 * BLK), VMIN + 4 * BLK);
	assert_int_equal(reserve_in(f, VMIN, VMAX, BLK), VMIN + 7 * BLK);
	/* holes of 2 blocks at +1 and 3 blocks at +4 */
	assert_int_equal(mmu_va_release(&f->vs, VMIN + BLK), GM_OK);
	assert_int_equal(mmu_va_release(&f->vs, VMIN + 4 * BLK), GM_OK);
	assert_int_equal(reserve_in(f, VMIN, VMAX, BLK), VMIN + BLK);         /* lowest hole */
	assert_int_equal(reserve_in(f, VMIN, VMAX, 2 * BLK), VMIN + 4 * BLK); /* skips 1 block at +2 */
	assert_int_equal(reserve_in(f, VMIN, VMAX, BLK), VMIN + 2 * BLK);     /* fills it exactly */
	assert_int_equal(reserve_in(f, VMIN, VMAX, 2 * BLK), VMIN + 8 * BLK); /* skips 1 block at +6 */
	assert_int_equal(reserve_in(f, VMIN, VMAX, BLK), VMIN + 6 * BLK);
	/* the rest of the space exactly, then no room */
	assert_int_equal(reserve_in(f, VMIN, VMAX, VMAX - VMIN - 10 * BLK), VMIN + 10 * BLK);
	assert_int_equal(f->vs.n, 9);
	va_snap(&f->vs, &snap);
	assert_int_equal(mmu_va_reserve_in(&f->vs, VMIN, VMAX, BLK, &base), GM_ERR_NO_MEM);
	assert_int_equal(base, sentinel);
	va_same(&f->vs, &snap);
	/* release, then the same place is found again */
	assert_int_equal(mmu_va_release(&f->vs, VMIN + 10 * BLK), GM_OK);
	assert_int_equal(reserve_in(f, VMIN, VMAX, BLK), VMIN + 10 * BLK);
	assert_int_equal(mmu_va_release(&f->vs, VMIN + 6 * BLK), GM_OK);
	assert_int_equal(reserve_in(f, VMIN, VMAX, BLK), VMIN + 6 * BLK);
}

static void test_va_reserve_in_window(void **state)
{
	struct fx *f = *state;
	const uint64_t sentinel = 0x5a5a5a5a5a5a5a5aull;
	struct va_snap snap;
	uint64_t base = sentinel;

	va_fresh(f);
	assert_int_equal(mmu_va_reserve(&f->vs, VMIN + 10 * BLK, 4 * BLK), GM_OK);
	/* the hole below lo is not used; lo inside a reservation starts after it */
	assert_int_equal(reserve_in(f, VMIN + 8 * BLK, VMAX, 2 * BLK), VMIN + 8 * BLK);
	assert_int_equal(reserve_in(f, VMIN + 11 * BLK, VMAX, BLK), VMIN + 14 * BLK);
	/* a range ending exactly at hi fits, one block more does not */
	assert_int_equal(reserve_in(f, VMIN + 15 * BLK, VMIN + 18 * BLK, 3 * BLK), VMIN + 15 * BLK);
	va_snap(&f->vs, &snap);
	assert_int_equal(mmu_va_reserve_in(&f->vs, VMIN + 18 * BLK, VMIN + 20 * BLK, 3 * BLK, &base),
			 GM_ERR_NO_MEM);
	assert_int_equal(mmu_va_reserve_in(&f->vs, VMIN + 8 * BLK, VMIN + 18 * BLK, BLK, &base),
			 GM_ERR_NO_MEM);
	assert_int_equal(mmu_va_reserve_in(&f->vs, VMIN + 16 * BLK, VMIN + 21 * BLK, 3 * BLK, &base),
			 GM_OK);
	assert_int_equal(base, VMIN + 18 * BLK);
	assert_int_equal(mmu_va_release(&f->vs, base), GM_OK);
	va_same(&f->vs, &snap);
	base = sentinel;
	/* the window's last block and the space's last block */
	assert_int_equal(reserve_in(f, VMAX - BLK, VMAX, BLK), VMAX - BLK);
	assert_int_equal(reserve_in(f, VMIN, VMIN + 8 * BLK, 8 * BLK), VMIN);

	/* bad arguments */
	va_snap(&f->vs, &snap);
	{
		static const struct {
			uint64_t lo, hi, size;
		} bad[] = {
			{ VMIN + PG, VMAX, BLK },
			{ VMIN, VMAX - PG, BLK },
			{ VMIN, VMAX, BLK + PG },
			{ VMIN, VMAX, 0 },
			{ VMIN + BLK, VMIN + BLK, BLK },
			{ VMIN + 2 * BLK, VMIN + BLK, BLK },
			{ VMIN - BLK, VMAX, BLK },
			{ VMIN, VMAX + BLK, BLK },
		};
		unsigned int i;

		for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
			int st = mmu_va_reserve_in(&f->vs, bad[i].lo, bad[i].hi, bad[i].size, &base);

			if (st != GM_ERR_BAD_ARG)
				fail_msg("bad case %u: got %d", i, st);
		}
	}
	assert_int_equal(mmu_va_reserve_in(&f->vs, VMIN, VMAX, BLK, NULL), GM_ERR_BAD_ARG);
	assert_int_equal(mmu_va_reserve_in(NULL, VMIN, VMAX, BLK, &base), GM_ERR_BAD_ARG);
	assert_int_equal(base, sentinel);
	va_same(&f->vs, &snap);
	/* too big for the window is "no room" */
	assert_int_equal(mmu_va_reserve_in(&f->vs, VMIN, VMIN + BLK, 2 * BLK, &base), GM_ERR_NO_MEM);
	assert_int_equal(base, sentinel);
}

static void test_va_release(void **state)
{
	struct fx *f = *state;
	struct va_snap snap;

	va_fresh(f);
	assert_int_equal(mmu_va_release(&f->vs, VMIN), GM_ERR_BAD_ARG);
	assert_int_equal(mmu_va_reserve(&f->vs, VMIN + BLK, 2 * BLK), GM_OK);
	assert_int_equal(mmu_va_reserve(&f->vs, VMIN + 3 * BLK, BLK), GM_OK);
	assert_int_equal(mmu_va_reserve(&f->vs, VMIN + 8 * BLK, BLK), GM_OK);
	va_snap(&f->vs, &snap);
	assert_int_equal(mmu_va_release(&f->vs, VMIN + 2 * BLK), GM_ERR_BAD_ARG);  /* inside */
	assert_int_equal(mmu_va_release(&f->vs, VMIN), GM_ERR_BAD_ARG);            /* before */
	assert_int_equal(mmu_va_release(&f->vs, VMIN + 4 * BLK), GM_ERR_BAD_ARG);  /* just after */
	assert_int_equal(mmu_va_release(&f->vs, VMAX), GM_ERR_BAD_ARG);
	assert_int_equal(mmu_va_release(NULL, VMIN + BLK), GM_ERR_BAD_ARG);
	va_same(&f->vs, &snap);

	assert_int_equal(mmu_va_release(&f->vs, VMIN + 3 * BLK), GM_OK);
	assert_int_equal(f->vs.n, 2);
	assert_int_equal(f->vs.r[0].base, VMIN + BLK);
	assert_int_equal(f->vs.r[1].base, VMIN + 8 * BLK);
	assert_int_equal(mmu_va_release(&f->vs, VMIN + 3 * BLK), GM_ERR_BAD_ARG);  /* twice */
	assert_false(mmu_va_contains(&f->vs, VMIN + 3 * BLK, BLK));
	assert_int_equal(mmu_va_reserve(&f->vs, VMIN + 3 * BLK, BLK), GM_OK);      /* again */
	assert_int_equal(mmu_va_reserve(&f->vs, VMIN + 2 * BLK, 2 * BLK), GM_ERR_BUSY);
}

static void test_va_contains(void **state)
{
	struct fx *f = *state;

	va_fresh(f);
	assert_int_equal(mmu_va_reserve(&f->vs, VMIN + 4 * BLK, 4 * BLK), GM_OK);
	assert_int_equal(mmu_va_reserve(&f->vs, VMIN + 8 * BLK, 4 * BLK), GM_OK);
	assert_true(mmu_va_contains(&f->vs, VMIN + 4 * BLK, 4 * BLK));
	assert_true(mmu_va_contains(&f->vs, VMIN + 5 * BLK + 123, 1));
	assert_true(mmu_va_contains(&f->vs, VMIN + 8 * BLK - 1, 1));
	assert_false(mmu_va_contains(&f->vs, VMIN + 7 * BLK, 2 * BLK));   /* two reservations */
	assert_false(mmu_va_contains(&f->vs, VMIN + 4 * BLK - 1, 2));
	assert_false(mmu_va_contains(&f->vs, VMIN + 12 * BLK, 1));
	assert_false(mmu_va_contains(&f->vs, VMIN + 4 * BLK, 0));
	assert_false(mmu_va_contains(&f->vs, UINT64_MAX, 2));
	assert_false(mmu_va_contains(NULL, VMIN, 1));
}

/*
 * Thousands of reservations, checked against a bitmap of blocks: random
 * fixed reservations, reserve-anywhere and releases, with the exact status
 * the bitmap predicts; then fill the space one block at a time.
 */
#define VM_BLOCKS 4096u

struct va_model {
	uint8_t used[VM_BLOCKS];       /* block i of [0, VM_BLOCKS) is reserved */
	uint64_t base[VM_BLOCKS];      /* bases of the reservations, unordered */
	uint32_t size[VM_BLOCKS];      /* blocks, same index as base */
	unsigned int n;
};

static bool vm_free(const struct va_model *vm, uint64_t b, uint64_t nb)
{
	uint64_t i;

	for (i = b; i < b + nb; i++)
		if (vm->used[i])
			return false;
	return true;
}

static void vm_mark(struct va_model *vm, uint64_t b, uint64_t nb, uint8_t v)
{
	memset(&vm->used[b], v, nb);
}

static void vm_check(const struct fx *f, const struct va_model *vm)
{
	uint64_t prev_end = VMIN;
	size_t i;
	uint64_t blocks = 0;

	assert_int_equal(f->vs.n, vm->n);
	for (i = 0; i < f->vs.n; i++) {
		uint64_t b = (f->vs.r[i].base - VMIN) / BLK, nb = f->vs.r[i].size / BLK, j;

		assert_true(f->vs.r[i].base >= prev_end);
		prev_end = f->vs.r[i].base + f->vs.r[i].size;
		for (j = b; j < b + nb; j++)
			assert_int_equal(vm->used[j], 1);
		blocks += nb;
	}
	for (i = 0; i < VM_BLOCKS; i++)
		blocks -= vm->used[i];
	assert_int_equal(blocks, 0);
}

static void vm_fail(const struct fx *f, const char *what, uint64_t a, uint64_t b, int st)
{
	fail_msg("%s 0x%" PRIx64 " 0x%" PRIx64 ": status %d; reproduce: GPUSIM_SEED=%" PRIu64
		 " GPUSIM_TEST=test_va_random %s", what, a, b, st, f->env->seed, f->env->argv0);
}

static void vm_random_op(struct fx *f, struct va_model *vm, uint64_t *rng)
{
	unsigned int op = (unsigned int)rng_below(rng, 3);
	uint64_t nb = 1 + rng_below(rng, 8), b = rng_below(rng, VM_BLOCKS), got = 0, i;
	int st, want;

	if (op == 0) {            /* fixed base */
		want = b + nb > VM_BLOCKS ? GM_ERR_BAD_ARG : vm_free(vm, b, nb) ? GM_OK : GM_ERR_BUSY;
		st = mmu_va_reserve(&f->vs, VMIN + b * BLK, nb * BLK);
		if (st != want)
			vm_fail(f, "reserve", VMIN + b * BLK, nb * BLK, st);
	} else if (op == 1) {     /* anywhere at or above b */
		want = GM_ERR_NO_MEM;
		for (i = b; i + nb <= VM_BLOCKS; i++)
			if (vm_free(vm, i, nb)) {
				want = GM_OK;
				break;
			}
		st = mmu_va_reserve_in(&f->vs, VMIN + b * BLK, VMIN + VM_BLOCKS * BLK, nb * BLK, &got);
		if (st != want || (st == GM_OK && got != VMIN + i * BLK))
			vm_fail(f, "reserve_in", VMIN + b * BLK, nb * BLK, st);
		b = i;
	} else {                  /* release one, or a base that is not one */
		if (vm->n && rng_below(rng, 4)) {
			i = rng_below(rng, vm->n);
			b = vm->base[i];
			nb = vm->size[i];
			want = GM_OK;
		} else {
			want = GM_ERR_BAD_ARG;
			for (i = 0; i < vm->n; i++)
				if (vm->base[i] == b)
					return;   /* that one is a base: not this op's case */
		}
		st = mmu_va_release(&f->vs, VMIN + b * BLK);
		if (st != want)
			vm_fail(f, "release", VMIN + b * BLK, 0, st);
		if (st == GM_OK) {
			vm_mark(vm, b, nb, 0);
			vm->n--;
			vm->base[i] = vm->base[vm->n];
			vm->size[i] = vm->size[vm->n];
		}
		return;
	}
	if (st == GM_OK) {
		vm_mark(vm, b, nb, 1);
		vm->base[vm->n] = b;
		vm->size[vm->n] = (uint32_t)nb;
		vm->n++;
	}
}

static void test_va_random(void **state)
{
	struct fx *f = *state;
	struct va_model *vm = calloc(1, sizeof(*vm));
	uint64_t rng = f->env->seed ^ 0x76615f72616e6400ull, base, i;

	assert_non_null(vm);
	mmu_va_fini(&f->vs);
	assert_int_equal(mmu_va_init(&f->vs, VMIN, VMIN + VM_BLOCKS * BLK), GM_OK);
	for (i = 0; i < 20000; i++) {
		vm_random_op(f, vm, &rng);
		if (i % 1000 == 0)
			vm_check(f, vm);
	}
	vm_check(f, vm);
	/* fill every hole one block at a time: first fit gives the lowest */
	for (i = 0; i < VM_BLOCKS; i++) {
		if (vm->used[i])
			continue;
		assert_int_equal(mmu_va_reserve_in(&f->vs, VMIN, VMIN + VM_BLOCKS * BLK, BLK, &base),
				 GM_OK);
		if (base != VMIN + i * BLK)
			vm_fail(f, "fill", base, VMIN + i * BLK, GM_OK);
		vm_mark(vm, i, 1, 1);
		vm->base[vm->n] = i;
		vm->size[vm->n++] = 1;
	}
	vm_check(f, vm);
	assert_int_equal(mmu_va_reserve_in(&f->vs, VMIN, VMIN + VM_BLOCKS * BLK, BLK, &base),
			 GM_ERR_NO_MEM);
	print_message("  %zu reservations\n", f->vs.n);
	free(vm);
}

/* ---- main ------------------------------------------------------------------- */

int main(int argc, char **argv)
{
	struct env env = { 0, argc > 0 ? argv[0] : "test_mmu_va" };
	const char *only = getenv("GPUSIM_TEST");
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_prestate_setup_teardown(test_va_init, setup, teardown, &env),
		cmocka_unit_test_prestate_setup_teardown(test_va_reserve_bounds, setup, teardown, &env),
		cmocka_unit_test_prestate_setup_teardown(test_va_reserve_overlap, setup, teardown, &env),
		cmocka_unit_test_prestate_setup_teardown(test_va_reserve_in_first_fit, setup, teardown, &env),
		cmocka_unit_test_prestate_setup_teardown(test_va_reserve_in_window, setup, teardown, &env),
		cmocka_unit_test_prestate_setup_teardown(test_va_release, setup, teardown, &env),
		cmocka_unit_test_prestate_setup_teardown(test_va_contains, setup, teardown, &env),
		cmocka_unit_test_prestate_setup_teardown(test_va_random, setup, teardown, &env),
	};

	env.seed = tb_seed(env.argv0);
	if (only && *only)
		cmocka_set_test_filter(only);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
