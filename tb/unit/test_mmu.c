// SPDX-License-Identifier: MIT
/*
 * test_mmu.c - cmocka unit tests for mmu/: the PTE/PDE format, the
 * page-table builder (mmu_pt) and the software walker (mmu_walk); GPU-VA
 * reservation (mmu_va) is test_mmu_va.c's.
 *
 * Build and run:
 *   gcc -std=c11 -Wall -Wextra -Werror -Wshadow -g -fsanitize=address,undefined \
 *       -Imodel -Immu -Itb mmu/mmu_pt.c mmu/mmu_walk.c tb/unit/test_mmu.c tb/tb_seed.c -lcmocka \
 *       -o /tmp/test_mmu
 *   /tmp/test_mmu
 *
 * The tables live in a host arena standing for part of VRAM or of system
 * memory (struct fake_mem); data pages are never touched, so they need no
 * backing.  The arena can fail reads of chosen addresses, refuse writes
 * and run out of tables (fault injection in the style of SQLite's
 * faultsim), and hands out tables full of garbage so that the builder has
 * to zero them.
 *
 * The random tests take their seed from tb_seed() ($GPUSIM_SEED, else the clock) and
 * print it; $GPUSIM_TEST=<test name> runs one test.  A failure prints the
 * command that reproduces it.
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

#include "mmu_pt.h"
#include "mmu_walk.h"
#include "tb_seed.h"

#define PG MMU_PAGE_SIZE
#define FRAG MMU_FRAG_SIZE
#define LEAF_SPAN MMU_LEAF_SPAN
#define MIB (1024ull * 1024)
#define GIB (1024ull * MIB)
#define LIMIT MMU_VA_LIMIT
#define APERTURE MMU_APERTURE_BYTES
#define ADDR_BITS GPU_PTE_ADDR(GPU_PTE_ADDR_MASK)
#define GARBAGE 0xa5u               /* fill of a table fresh from the allocator */

#define VRAM_ARENA (GPU_VRAM_BASE + 16 * MIB)   /* not at PA 0: a stray 0 must miss */
#define SYS_ARENA (GPU_SYSMEM_BASE + 1 * GIB)
#define ARENA_TABLES 1024u

/* ---- the memory the tables live in ---------------------------------------- */

struct fake_mem {
	uint8_t *arena;
	uint64_t base;          /* PA of arena[0] */
	uint64_t bytes;
	uint64_t next;          /* offset of the next table to hand out */
	long alloc_left;        /* tables the allocator may still hand out; < 0: no limit */
	long writes_left;       /* writes that may still succeed; < 0: no limit */
	uint64_t bad_lo, bad_hi; /* reads touching [bad_lo, bad_hi) fail */
	unsigned long reads, writes, allocs;
};

static bool fm_inside(const struct fake_mem *m, uint64_t pa, size_t len)
{
	return pa >= m->base && pa - m->base <= m->bytes && len <= m->bytes - (pa - m->base);
}

static int fm_read(void *ctx, uint64_t pa, void *buf, size_t len)
{
	struct fake_mem *m = ctx;

	m->reads++;
	if (!fm_inside(m, pa, len) || (pa < m->bad_hi && pa + len > m->bad_lo))
		return GM_ERR_ADDR;
	memcpy(buf, m->arena + (pa - m->base), len);
	return GM_OK;
}

static int fm_write(void *ctx, uint64_t pa, const void *buf, size_t len)
{
	struct fake_mem *m = ctx;

	if (!fm_inside(m, pa, len))
		return GM_ERR_ADDR;
	if (m->writes_left == 0)
		return GM_ERR_HW;
	if (m->writes_left > 0)
		m->writes_left--;
	m->writes++;
	memcpy(m->arena + (pa - m->base), buf, len);
	return GM_OK;
}

static int fm_alloc(void *ctx, uint64_t *pa)
{
	struct fake_mem *m = ctx;

	if (m->alloc_left == 0 || m->next + PG > m->bytes)
		return GM_ERR_NO_MEM;
	if (m->alloc_left > 0)
		m->alloc_left--;
	memset(m->arena + m->next, GARBAGE, PG);
	*pa = m->base + m->next;
	m->next += PG;
	m->allocs++;
	return GM_OK;
}

static const struct mmu_mem_ops fake_ops = { fm_read, fm_write, fm_alloc };

static void fm_init(struct fake_mem *m, uint64_t base, uint64_t tables)
{
	memset(m, 0, sizeof(*m));
	m->bytes = tables * PG;
	m->arena = calloc(1, m->bytes);
	assert_non_null(m->arena);
	m->base = base;
	m->alloc_left = -1;
	m->writes_left = -1;
}

/* The raw entry at @pa, read behind the builder's back (little endian). */
static uint64_t fm_peek(const struct fake_mem *m, uint64_t pa)
{
	const uint8_t *p;
	uint64_t v = 0;
	int i;

	assert_true(fm_inside(m, pa, 8));
	p = m->arena + (pa - m->base);
	for (i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static void fm_poke(struct fake_mem *m, uint64_t pa, uint64_t v)
{
	uint8_t *p;
	int i;

	assert_true(fm_inside(m, pa, 8));
	p = m->arena + (pa - m->base);
	for (i = 0; i < 8; i++, v >>= 8)
		p[i] = (uint8_t)v;
}

/* ---- fixture ---------------------------------------------------------------- */

/* What main() hands the random tests. */
struct env {
	uint64_t seed;
	const char *argv0;
};

struct fx {
	struct fake_mem m;
	struct mmu_pt pt;
	const struct env *env;
};

static int fx_setup(void **state, uint64_t arena_base)
{
	struct fx *f = calloc(1, sizeof(*f));

	if (!f)
		return -1;
	f->env = *state;
	fm_init(&f->m, arena_base, ARENA_TABLES);
	if (mmu_pt_init(&f->pt, &fake_ops, &f->m) != GM_OK)
		return -1;
	*state = f;
	return 0;
}

static int setup_vram(void **state)
{
	return fx_setup(state, VRAM_ARENA);
}

static int setup_sys(void **state)
{
	return fx_setup(state, SYS_ARENA);
}

static int teardown(void **state)
{
	struct fx *f = *state;

	free(f->m.arena);
	free(f);
	return 0;
}

/* ---- walking ---------------------------------------------------------------- */

struct want {
	enum gpu_mmu_fault fault;
	unsigned int level;
	uint64_t pa;
	bool null_tile;
	bool frag64k;
};

static struct mmu_xlate walk(const struct fx *f, uint64_t va, bool wr)
{
	struct mmu_xlate x;

	assert_int_equal(mmu_walk(&fake_ops, (void *)&f->m, f->pt.root_pa, va, wr, &x), GM_OK);
	return x;
}

static bool xlate_matches(const struct mmu_xlate *x, const struct want *w)
{
	return x->fault == w->fault && x->level == w->level && x->reads == w->level + 1 &&
	       x->pa == w->pa && x->null_tile == w->null_tile && x->frag64k == w->frag64k;
}

static bool xlate_same(const struct mmu_xlate *a, const struct mmu_xlate *b)
{
	return a->fault == b->fault && a->level == b->level && a->pa == b->pa &&
	       a->entry == b->entry && a->entry_pa == b->entry_pa && a->reads == b->reads &&
	       a->null_tile == b->null_tile && a->frag64k == b->frag64k;
}

static void print_xlate(const char *what, const struct mmu_xlate *x)
{
	print_error("  %s: fault %d level %u reads %u pa 0x%" PRIx64 " null %d frag %d entry 0x%016"
		    PRIx64 "\n", what, x->fault, x->level, x->reads, x->pa, x->null_tile,
		    x->frag64k, x->entry);
}

static void check_walk(const struct fx *f, uint64_t va, bool wr, const struct want *w, int line)
{
	struct mmu_xlate x = walk(f, va, wr);
	struct mmu_xlate e = {
		.fault = w->fault, .level = w->level, .reads = w->level + 1, .pa = w->pa,
		.null_tile = w->null_tile, .frag64k = w->frag64k,
	};

	if (xlate_matches(&x, w))
		return;
	print_error("line %d: %s of va 0x%" PRIx64 "\n", line, wr ? "write" : "read", va);
	print_xlate("got ", &x);
	print_xlate("want", &e);
	fail();
}

#define WALK_OK(f, va, wr, pa_) \
	check_walk(f, va, wr, &(struct want){ GPU_FLT_NONE, MMU_LEAF_LEVEL, pa_, false, false }, __LINE__)
#define WALK_FRAG(f, va, wr, pa_) \
	check_walk(f, va, wr, &(struct want){ GPU_FLT_NONE, MMU_LEAF_LEVEL, pa_, false, true }, __LINE__)
#define WALK_NULL(f, va, wr) \
	check_walk(f, va, wr, &(struct want){ GPU_FLT_NONE, MMU_LEAF_LEVEL, 0, true, false }, __LINE__)
/* a fault without a V=1 PTE (so no pa) */
#define WALK_FAULT(f, va, wr, flt, lvl) \
	check_walk(f, va, wr, &(struct want){ flt, lvl, 0, false, false }, __LINE__)

/* The PTE the contract says a map writes, built from the field macros alone. */
static uint64_t want_pte(uint64_t pa, unsigned int flags)
{
	bool sys = flags & MMU_MAP_SYS;

	return GPU_PTE_V(1) | GPU_PTE_SYS(sys) | GPU_PTE_R(!!(flags & MMU_MAP_R)) |
	       GPU_PTE_W(!!(flags & MMU_MAP_W)) | GPU_PTE_FRAG64K(!!(flags & MMU_MAP_FRAG64K)) |
	       GPU_PTE_ADDR((pa - (sys ? GPU_SYSMEM_BASE : GPU_VRAM_BASE)) >> GPU_PAGE_SHIFT);
}

static uint64_t get_pte(const struct fx *f, uint64_t va)
{
	uint64_t pte;

	assert_int_equal(mmu_pt_get_pte(&f->pt, va, &pte), GM_OK);
	return pte;
}

static uint64_t lookup(const struct fx *f, uint64_t va, unsigned int level)
{
	uint64_t epa;

	assert_int_equal(mmu_pt_lookup(&f->pt, va, level, &epa), GM_OK);
	return epa;
}

/* VA whose index at level l is idx[l] (page offset @off). */
static uint64_t va_of(const unsigned int idx[GPU_PT_LEVELS], uint64_t off)
{
	uint64_t va = off;
	unsigned int l;

	for (l = 0; l < GPU_PT_LEVELS; l++)
		va |= (uint64_t)idx[l] << (GPU_PAGE_SHIFT + GPU_PT_LEVEL_BITS * (GPU_PT_LEVELS - 1 - l));
	return va;
}

static uint64_t rng_below(uint64_t *s, uint64_t n)
{
	return tb_rand(s) % n;
}

/* ---- PTE / PDE format ------------------------------------------------------- */

static bool pte_same(const struct mmu_pte *a, const struct mmu_pte *b)
{
	return a->pa == b->pa && a->v == b->v && a->sys == b->sys && a->r == b->r &&
	       a->w == b->w && a->prt == b->prt && a->frag64k == b->frag64k;
}

static const uint64_t frame_offsets[] = { 0, PG, 0x123456000ull, APERTURE / 2, APERTURE - PG };

static void test_pte_roundtrip(void **state)
{
	unsigned int i, combo, sys;
	uint64_t s = 1;
	(void)state;

	for (sys = 0; sys < 2; sys++)
		for (i = 0; i < sizeof(frame_offsets) / sizeof(frame_offsets[0]); i++)
			for (combo = 0; combo < 32; combo++) {
				struct mmu_pte f = {
					.pa = (sys ? GPU_SYSMEM_BASE : GPU_VRAM_BASE) + frame_offsets[i],
					.sys = sys, .v = combo & 1, .r = combo & 2, .w = combo & 4,
					.prt = combo & 8, .frag64k = combo & 16,
				}, g;
				uint64_t pte = 0;

				assert_int_equal(mmu_pte_encode(&f, &pte), GM_OK);
				assert_int_equal(pte & GPU_PTE_RESERVED, 0);
				assert_int_equal(GPU_PTE_V_GET(pte), f.v);
				assert_int_equal(GPU_PTE_SYS_GET(pte), f.sys);
				assert_int_equal(GPU_PTE_R_GET(pte), f.r);
				assert_int_equal(GPU_PTE_W_GET(pte), f.w);
				assert_int_equal(GPU_PTE_PRT_GET(pte), f.prt);
				assert_int_equal(GPU_PTE_FRAG64K_GET(pte), f.frag64k);
				assert_int_equal(GPU_PTE_ADDR_GET(pte), frame_offsets[i] >> GPU_PAGE_SHIFT);
				mmu_pte_decode(pte, &g);
				assert_true(pte_same(&f, &g));
			}
	/* decode then encode gives back every legal raw PTE */
	for (i = 0; i < 10000; i++) {
		uint64_t raw = tb_rand(&s) & ~GPU_PTE_RESERVED, again = 0;
		struct mmu_pte f;

		mmu_pte_decode(raw, &f);
		assert_int_equal(mmu_pte_encode(&f, &again), GM_OK);
		assert_int_equal(again, raw);
	}
}

static void test_pde_roundtrip(void **state)
{
	unsigned int i, sys, v;
	uint64_t s = 2;
	(void)state;

	for (sys = 0; sys < 2; sys++)
		for (v = 0; v < 2; v++)
			for (i = 0; i < sizeof(frame_offsets) / sizeof(frame_offsets[0]); i++) {
				struct mmu_pde f = {
					.pa = (sys ? GPU_SYSMEM_BASE : GPU_VRAM_BASE) + frame_offsets[i],
					.sys = sys, .v = v,
				}, g;
				uint64_t pde = 0;

				assert_int_equal(mmu_pde_encode(&f, &pde), GM_OK);
				assert_int_equal(pde & GPU_PDE_RESERVED, 0);
				assert_int_equal(GPU_PDE_V_GET(pde), v);
				assert_int_equal(GPU_PDE_SYS_GET(pde), sys);
				assert_int_equal(GPU_PDE_ADDR_GET(pde), frame_offsets[i] >> GPU_PAGE_SHIFT);
				mmu_pde_decode(pde, &g);
				assert_true(f.pa == g.pa && f.v == g.v && f.sys == g.sys);
			}
	for (i = 0; i < 10000; i++) {
		uint64_t raw = tb_rand(&s) & ~GPU_PDE_RESERVED, again = 0;
		struct mmu_pde f;

		mmu_pde_decode(raw, &f);
		assert_int_equal(mmu_pde_encode(&f, &again), GM_OK);
		assert_int_equal(again, raw);
	}
}

struct pa_case {
	const char *name;
	uint64_t pa;
	bool sys;
};

static const struct pa_case bad_pas[] = {
	{ "unaligned by 1", GPU_VRAM_BASE + 1, false },
	{ "unaligned by 2K", GPU_VRAM_BASE + PG / 2, false },
	{ "past VRAM", GPU_VRAM_BASE + APERTURE, false },
	{ "sysmem PA without SYS", GPU_SYSMEM_BASE + APERTURE / 2 + 2 * APERTURE, false },
	{ "SYS below SYSMEM_BASE", GPU_SYSMEM_BASE - PG, true },
	{ "SYS past system memory", GPU_SYSMEM_BASE + APERTURE, true },
	{ "all ones", UINT64_MAX & ~(PG - 1), true },
};

static void test_entry_encode_bad(void **state)
{
	const uint64_t sentinel = 0x5a5a5a5a5a5a5a5aull;
	unsigned int i;
	(void)state;

	for (i = 0; i < sizeof(bad_pas) / sizeof(bad_pas[0]); i++) {
		struct mmu_pte pf = { .pa = bad_pas[i].pa, .sys = bad_pas[i].sys, .v = true, .r = true };
		struct mmu_pde df = { .pa = bad_pas[i].pa, .sys = bad_pas[i].sys, .v = true };
		uint64_t e = sentinel;

		if (mmu_pte_encode(&pf, &e) != GM_ERR_BAD_ARG || e != sentinel ||
		    mmu_pde_encode(&df, &e) != GM_ERR_BAD_ARG || e != sentinel)
			fail_msg("%s: accepted", bad_pas[i].name);
	}
	{
		struct mmu_pte pf = { .pa = GPU_VRAM_BASE };
		struct mmu_pde df = { .pa = GPU_VRAM_BASE };
		uint64_t e = sentinel;

		assert_int_equal(mmu_pte_encode(NULL, &e), GM_ERR_BAD_ARG);
		assert_int_equal(mmu_pte_encode(&pf, NULL), GM_ERR_BAD_ARG);
		assert_int_equal(mmu_pde_encode(NULL, &e), GM_ERR_BAD_ARG);
		assert_int_equal(mmu_pde_encode(&df, NULL), GM_ERR_BAD_ARG);
		assert_int_equal(e, sentinel);
	}
}

/* ---- walker on hand-built tables -------------------------------------------- */

/*
 * Tables written byte by byte by the test: proves the level order
 * (L0 = the top VA bits), the entry size and byte order, and that the
 * walker follows ADDR with the SYS base, independently of the builder.
 */
static void test_walk_hand_built(void **state)
{
	static const unsigned int idx[GPU_PT_LEVELS] = { 0x1a5, 0x0c3, 0x17e, 0x05a };
	const uint64_t data_pa = GPU_SYSMEM_BASE + 0x3456789000ull;
	struct fake_mem m;
	uint64_t t[GPU_PT_LEVELS], va = va_of(idx, 0x9ab), pte, e;
	struct mmu_pt pt = { &fake_ops, &m, 0 };
	struct mmu_xlate x;
	unsigned int l;
	(void)state;

	fm_init(&m, VRAM_ARENA, 8);
	for (l = 0; l < GPU_PT_LEVELS; l++) {
		assert_int_equal(fm_alloc(&m, &t[l]), GM_OK);
		memset(m.arena + (t[l] - m.base), 0, PG);
		assert_int_equal(mmu_pt_index(va, l), idx[l]);
	}
	for (l = 0; l < MMU_LEAF_LEVEL; l++)
		fm_poke(&m, t[l] + idx[l] * 8ull,
			GPU_PDE_V(1) | GPU_PDE_ADDR((t[l + 1] - GPU_VRAM_BASE) >> GPU_PAGE_SHIFT));
	pte = GPU_PTE_V(1) | GPU_PTE_R(1) | GPU_PTE_SYS(1) |
	      GPU_PTE_ADDR((data_pa - GPU_SYSMEM_BASE) >> GPU_PAGE_SHIFT);
	fm_poke(&m, t[MMU_LEAF_LEVEL] + idx[MMU_LEAF_LEVEL] * 8ull, pte);
	assert_int_equal(m.arena[t[MMU_LEAF_LEVEL] - m.base + idx[MMU_LEAF_LEVEL] * 8ull] & 1, 1);

	assert_int_equal(mmu_walk(&fake_ops, &m, t[0], va, false, &x), GM_OK);
	assert_int_equal(x.fault, GPU_FLT_NONE);
	assert_int_equal(x.level, MMU_LEAF_LEVEL);
	assert_int_equal(x.reads, GPU_PT_LEVELS);
	assert_int_equal(x.pa, data_pa + 0x9ab);
	assert_int_equal(x.entry, pte);
	assert_int_equal(x.entry_pa, t[MMU_LEAF_LEVEL] + idx[MMU_LEAF_LEVEL] * 8ull);
	assert_false(x.null_tile);
	assert_false(x.frag64k);
	assert_int_equal(m.reads, GPU_PT_LEVELS);
	assert_int_equal(mmu_walk(&fake_ops, &m, t[0], va, true, &x), GM_OK);
	assert_int_equal(x.fault, GPU_FLT_NO_WRITE);

	/* the builder's lookup finds the same entries */
	pt.root_pa = t[0];
	for (l = 0; l < GPU_PT_LEVELS; l++) {
		assert_int_equal(mmu_pt_lookup(&pt, va, l, &e), GM_OK);
		assert_int_equal(e, t[l] + idx[l] * 8ull);
	}
	/* a neighbour at each level misses there */
	for (l = 0; l < GPU_PT_LEVELS; l++) {
		unsigned int nidx[GPU_PT_LEVELS];

		memcpy(nidx, idx, sizeof(nidx));
		nidx[l] ^= 1;
		assert_int_equal(mmu_walk(&fake_ops, &m, t[0], va_of(nidx, 0), false, &x), GM_OK);
		assert_int_equal(x.fault, l == MMU_LEAF_LEVEL ? GPU_FLT_PTE_INVALID : GPU_FLT_PDE_INVALID);
		assert_int_equal(x.level, l);
		assert_int_equal(x.reads, l + 1);
	}
	free(m.arena);
}

static void test_walk_bad_args(void **state)
{
	struct fx *f = *state;
	struct mmu_mem_ops no_read = { NULL, fm_write, fm_alloc };
	struct mmu_xlate x, sentinel;
	uint64_t root = f->pt.root_pa;

	memset(&sentinel, 0x5a, sizeof(sentinel));
	memcpy(&x, &sentinel, sizeof(x));
	f->m.reads = 0;
	assert_int_equal(mmu_walk(&fake_ops, &f->m, root, LIMIT, false, &x), GM_ERR_BAD_ARG);
	assert_int_equal(mmu_walk(&fake_ops, &f->m, root, UINT64_MAX, true, &x), GM_ERR_BAD_ARG);
	assert_int_equal(mmu_walk(NULL, &f->m, root, 0, false, &x), GM_ERR_BAD_ARG);
	assert_int_equal(mmu_walk(&no_read, &f->m, root, 0, false, &x), GM_ERR_BAD_ARG);
	assert_int_equal(mmu_walk(&fake_ops, &f->m, root + 8, 0, false, &x), GM_ERR_BAD_ARG);
	assert_int_equal(mmu_walk(&fake_ops, &f->m, MMU_PA_LIMIT, 0, false, &x), GM_ERR_BAD_ARG);
	assert_int_equal(mmu_walk(&fake_ops, &f->m, root, 0, false, NULL), GM_ERR_BAD_ARG);
	assert_memory_equal(&x, &sentinel, sizeof(x));
	assert_int_equal(f->m.reads, 0);
	/* the twins just inside */
	assert_int_equal(mmu_walk(&fake_ops, &f->m, root, LIMIT - 1, false, &x), GM_OK);
	assert_int_equal(x.fault, GPU_FLT_PDE_INVALID);
}

/* ---- builder: init and arguments -------------------------------------------- */

static void test_pt_init(void **state)
{
	struct fake_mem m;
	struct mmu_pt pt, sentinel;
	struct mmu_mem_ops no_alloc = { fm_read, fm_write, NULL };
	unsigned int i;
	(void)state;

	fm_init(&m, VRAM_ARENA, 4);
	memset(&sentinel, 0x5a, sizeof(sentinel));
	memcpy(&pt, &sentinel, sizeof(pt));
	assert_int_equal(mmu_pt_init(NULL, &fake_ops, &m), GM_ERR_BAD_ARG);
	assert_int_equal(mmu_pt_init(&pt, NULL, &m), GM_ERR_BAD_ARG);
	assert_int_equal(mmu_pt_init(&pt, &no_alloc, &m), GM_ERR_BAD_ARG);
	m.alloc_left = 0;
	assert_int_equal(mmu_pt_init(&pt, &fake_ops, &m), GM_ERR_NO_MEM);
	m.alloc_left = -1;
	m.writes_left = 0;
	assert_int_equal(mmu_pt_init(&pt, &fake_ops, &m), GM_ERR_HW);
	assert_memory_equal(&pt, &sentinel, sizeof(pt));
	m.writes_left = -1;

	assert_int_equal(mmu_pt_init(&pt, &fake_ops, &m), GM_OK);
	assert_ptr_equal(pt.ops, &fake_ops);
	assert_ptr_equal(pt.ctx, &m);
	assert_true(fm_inside(&m, pt.root_pa, PG));
	assert_int_equal(pt.root_pa & (PG - 1), 0);
	for (i = 0; i < PG; i++)   /* the allocator handed out garbage */
		assert_int_equal(m.arena[pt.root_pa - m.base + i], 0);
	free(m.arena);
}

/* An allocator handing out tables no PDE can point at. */
static int alloc_unaligned(void *ctx, uint64_t *pa)
{
	int st = fm_alloc(ctx, pa);

	*pa += 8;
	return st;
}

static int alloc_unreachable(void *ctx, uint64_t *pa)
{
	int st = fm_alloc(ctx, pa);

	*pa = GPU_SYSMEM_BASE + APERTURE;
	return st;
}

static void test_pt_bad_allocator(void **state)
{
	struct mmu_mem_ops ops = { fm_read, fm_write, alloc_unaligned };
	struct fake_mem m;
	struct mmu_pt pt;
	(void)state;

	fm_init(&m, VRAM_ARENA, 8);
	assert_int_equal(mmu_pt_init(&pt, &ops, &m), GM_ERR_BAD_ARG);
	ops.alloc_table = alloc_unreachable;
	assert_int_equal(mmu_pt_init(&pt, &ops, &m), GM_ERR_BAD_ARG);
	assert_int_equal(m.writes, 0);
	/* a good root, then a bad table below it: nothing linked */
	assert_int_equal(mmu_pt_init(&pt, &fake_ops, &m), GM_OK);
	ops.alloc_table = alloc_unaligned;
	pt.ops = &ops;
	assert_int_equal(mmu_pt_map(&pt, 0, PG, 0, MMU_MAP_R), GM_ERR_BAD_ARG);
	assert_int_equal(fm_peek(&m, pt.root_pa), 0);
	free(m.arena);
}

struct map_case {
	const char *name;
	uint64_t va, size, pa;
	unsigned int flags;
	int want;
};

#define RW (MMU_MAP_R | MMU_MAP_W)
#define SYSB GPU_SYSMEM_BASE

static const struct map_case map_cases[] = {
	{ "va unaligned", 0x10000 + PG / 2, PG, 0, RW, GM_ERR_BAD_ARG },
	{ "size unaligned", 0x10000, PG + PG / 2, 0, RW, GM_ERR_BAD_ARG },
	{ "pa unaligned", 0x10000, PG, 0x10, RW, GM_ERR_BAD_ARG },
	{ "size 0", 0x10000, 0, 0, RW, GM_ERR_BAD_ARG },
	{ "va at 2^48", LIMIT, PG, 0, RW, GM_ERR_BAD_ARG },
	{ "va + size one page past 2^48", LIMIT - PG, 2 * PG, 0, RW, GM_ERR_BAD_ARG },
	{ "size wraps", PG, UINT64_MAX & ~(PG - 1), 0, RW, GM_ERR_BAD_ARG },
	{ "unknown flag", 0x10000, PG, 0, MMU_MAP_ALL + 1, GM_ERR_BAD_ARG },
	{ "FRAG va 4K aligned", 0x10000 + PG, FRAG, 0, RW | MMU_MAP_FRAG64K, GM_ERR_BAD_ARG },
	{ "FRAG pa 4K aligned", 0x10000, FRAG, PG, RW | MMU_MAP_FRAG64K, GM_ERR_BAD_ARG },
	{ "FRAG size 4K", 0x10000, PG, 0, RW | MMU_MAP_FRAG64K, GM_ERR_BAD_ARG },
	{ "FRAG size 68K", 0x10000, FRAG + PG, 0, RW | MMU_MAP_FRAG64K, GM_ERR_BAD_ARG },
	{ "SYS with a VRAM pa", 0x10000, PG, 0x200000, RW | MMU_MAP_SYS, GM_ERR_BAD_ARG },
	{ "no SYS with a sysmem pa", 0x10000, PG, SYSB + APERTURE / 2, RW, GM_ERR_BAD_ARG },
	{ "pa range past VRAM", 0x10000, 2 * PG, GPU_VRAM_BASE + APERTURE - PG, RW, GM_ERR_BAD_ARG },
	{ "pa range past sysmem", 0x10000, 2 * PG, SYSB + APERTURE - PG, RW | MMU_MAP_SYS, GM_ERR_BAD_ARG },
	/* the twins just inside */
	{ "last page of the VA space", LIMIT - PG, PG, 0, RW, GM_OK },
	{ "page 0", 0, PG, 0, RW, GM_OK },
	{ "last VRAM page", 0x10000, PG, GPU_VRAM_BASE + APERTURE - PG, RW, GM_OK },
	{ "last sysmem page", 0x10000, PG, SYSB + APERTURE - PG, RW | MMU_MAP_SYS, GM_OK },
	{ "first sysmem page", 0x10000, PG, SYSB, MMU_MAP_SYS, GM_OK },
	{ "FRAG at the top", LIMIT - FRAG, FRAG, SYSB + APERTURE - FRAG, MMU_MAP_ALL, GM_OK },
};

static void test_map_args(void **state)
{
	struct fx *f = *state;
	unsigned int i;

	for (i = 0; i < sizeof(map_cases) / sizeof(map_cases[0]); i++) {
		const struct map_case *c = &map_cases[i];
		unsigned long writes = f->m.writes, allocs = f->m.allocs;
		int st = mmu_pt_map(&f->pt, c->va, c->size, c->pa, c->flags);

		if (st != c->want)
			fail_msg("%s: got %d, want %d", c->name, st, c->want);
		if (st != GM_OK) {
			assert_int_equal(f->m.writes, writes);
			assert_int_equal(f->m.allocs, allocs);
			continue;
		}
		assert_int_equal(get_pte(f, c->va), want_pte(c->pa, c->flags));
		check_walk(f, c->va + c->size - 1, false, &(struct want){
			(c->flags & MMU_MAP_R) ? GPU_FLT_NONE : GPU_FLT_NO_READ, MMU_LEAF_LEVEL,
			c->pa + c->size - 1, false, c->flags & MMU_MAP_FRAG64K }, __LINE__);
	}
	assert_int_equal(mmu_pt_map(NULL, 0, PG, 0, RW), GM_ERR_BAD_ARG);
}

/* ---- builder + walker: mapping ---------------------------------------------- */

static void test_map_basic(void **state)
{
	struct fx *f = *state;
	const uint64_t va = 0x123440200000ull - 2 * PG;   /* crosses a leaf table */
	const uint64_t pa = GPU_VRAM_BASE + 0x80000000ull;
	const uint64_t offs[] = { 0, 1, PG / 2, PG - 1 };
	unsigned int i, j;

	assert_int_equal(va % LEAF_SPAN, LEAF_SPAN - 2 * PG);
	assert_int_equal(mmu_pt_map(&f->pt, va, 5 * PG, pa, RW), GM_OK);
	/* root + L1 + L2 + two leaves: the leaves share the path */
	assert_int_equal(f->m.allocs, 5);
	for (i = 0; i < 5; i++) {
		for (j = 0; j < sizeof(offs) / sizeof(offs[0]); j++) {
			WALK_OK(f, va + i * PG + offs[j], false, pa + i * PG + offs[j]);
			WALK_OK(f, va + i * PG + offs[j], true, pa + i * PG + offs[j]);
		}
		assert_int_equal(get_pte(f, va + i * PG), want_pte(pa + i * PG, RW));
	}
	WALK_FAULT(f, va - 1, false, GPU_FLT_PTE_INVALID, MMU_LEAF_LEVEL);
	WALK_FAULT(f, va + 5 * PG, true, GPU_FLT_PTE_INVALID, MMU_LEAF_LEVEL);
	WALK_FAULT(f, va + LEAF_SPAN * 512, false, GPU_FLT_PDE_INVALID, 1);

	/* remapping replaces pa and flags in place, no new tables */
	assert_int_equal(mmu_pt_map(&f->pt, va + PG, PG, SYSB + 0x5000, MMU_MAP_SYS | MMU_MAP_W),
			 GM_OK);
	assert_int_equal(f->m.allocs, 5);
	check_walk(f, va + PG, false, &(struct want){ GPU_FLT_NO_READ, MMU_LEAF_LEVEL,
		   SYSB + 0x5000, false, false }, __LINE__);
	WALK_OK(f, va + PG + 7, true, SYSB + 0x5007);
	WALK_OK(f, va + 2 * PG, true, pa + 2 * PG);
}

/* One call over several whole leaf tables and parts of two more. */
static void test_map_large(void **state)
{
	struct fx *f = *state;
	const uint64_t va = 0x40000000ull - 100 * PG, pa = SYSB + 0x100000000ull;
	const uint64_t pages = 3 * MMU_PT_ENTRIES + 200;
	unsigned long allocs;
	uint64_t i;

	assert_int_equal(mmu_pt_map(&f->pt, va, pages * PG, pa, RW | MMU_MAP_SYS), GM_OK);
	for (i = 0; i < pages; i++)
		WALK_OK(f, va + i * PG + (i % PG), i & 1, pa + i * PG + (i % PG));
	WALK_FAULT(f, va + pages * PG, false, GPU_FLT_PTE_INVALID, MMU_LEAF_LEVEL);
	/* unmap all but the first and last page; no table is added */
	allocs = f->m.allocs;
	assert_int_equal(mmu_pt_unmap(&f->pt, va + PG, (pages - 2) * PG, MMU_UNMAP_ZERO), GM_OK);
	assert_int_equal(f->m.allocs, allocs);
	WALK_OK(f, va, false, pa);
	for (i = 1; i < pages - 1; i++)
		WALK_NULL(f, va + i * PG, i & 1);
	WALK_OK(f, va + (pages - 1) * PG, false, pa + (pages - 1) * PG);
}

struct perm_case {
	unsigned int flags;
	enum gpu_mmu_fault rd, wr;
};

static const struct perm_case perm_cases[] = {
	{ 0, GPU_FLT_NO_READ, GPU_FLT_NO_WRITE },
	{ MMU_MAP_R, GPU_FLT_NONE, GPU_FLT_NO_WRITE },
	{ MMU_MAP_W, GPU_FLT_NO_READ, GPU_FLT_NONE },
	{ MMU_MAP_R | MMU_MAP_W, GPU_FLT_NONE, GPU_FLT_NONE },
};

static void test_permissions(void **state)
{
	struct fx *f = *state;
	unsigned int i, wr;

	for (i = 0; i < sizeof(perm_cases) / sizeof(perm_cases[0]); i++) {
		uint64_t va = 0x40000000ull + i * FRAG, pa = 0x1000000ull * (i + 1);
		unsigned int frag;

		for (frag = 0; frag < 2; frag++, va += 0x100000) {
			unsigned int flags = perm_cases[i].flags | (frag ? MMU_MAP_FRAG64K : 0);

			assert_int_equal(mmu_pt_map(&f->pt, va, FRAG, pa, flags), GM_OK);
			for (wr = 0; wr < 2; wr++) {
				struct mmu_xlate x = walk(f, va + 0x2345, wr);

				/* a V=1 PTE reports its pa and FRAG64K even when access faults */
				assert_int_equal(x.fault, wr ? perm_cases[i].wr : perm_cases[i].rd);
				assert_int_equal(x.level, MMU_LEAF_LEVEL);
				assert_int_equal(x.pa, pa + 0x2345);
				assert_int_equal(x.entry, want_pte(pa + 0x2000, flags));
				assert_int_equal(x.frag64k, frag);
				assert_false(x.null_tile);
			}
		}
	}
}

static void test_sys_vs_vram(void **state)
{
	struct fx *f = *state;
	const uint64_t va = 0x7000000000ull;
	unsigned int l;

	assert_int_equal(mmu_pt_map(&f->pt, va, PG, GPU_VRAM_BASE + 0x42000, RW), GM_OK);
	assert_int_equal(mmu_pt_map(&f->pt, va + PG, PG, SYSB + 0x42000, RW | MMU_MAP_SYS), GM_OK);
	WALK_OK(f, va + 0x10, false, GPU_VRAM_BASE + 0x42010);
	WALK_OK(f, va + PG + 0x10, false, SYSB + 0x42010);
	assert_int_equal(GPU_PTE_SYS_GET(get_pte(f, va)), 0);
	assert_int_equal(GPU_PTE_SYS_GET(get_pte(f, va + PG)), 1);
	assert_int_equal(GPU_PTE_ADDR_GET(get_pte(f, va)), GPU_PTE_ADDR_GET(get_pte(f, va + PG)));
	/* the directory entries point at tables in the arena's memory */
	for (l = 0; l < MMU_LEAF_LEVEL; l++) {
		uint64_t pde = fm_peek(&f->m, lookup(f, va, l));

		assert_int_equal(GPU_PDE_SYS_GET(pde), f->m.base >= GPU_SYSMEM_BASE);
		assert_int_equal(lookup(f, va, l + 1) & ~(PG - 1),
				 (GPU_PDE_SYS_GET(pde) ? GPU_SYSMEM_BASE : GPU_VRAM_BASE) +
				 (GPU_PDE_ADDR_GET(pde) << GPU_PAGE_SHIFT));
	}
}

/* ---- unmap ------------------------------------------------------------------ */

static void test_unmap_zero(void **state)
{
	struct fx *f = *state;
	const uint64_t va = 0x2000000000ull, pa = 0x300000ull;
	const uint64_t far = 0x9000000000ull;
	unsigned long allocs;

	assert_int_equal(mmu_pt_map(&f->pt, va, 4 * PG, pa, RW), GM_OK);
	assert_int_equal(mmu_pt_unmap(&f->pt, va + PG, 2 * PG, MMU_UNMAP_ZERO), GM_OK);
	WALK_OK(f, va, false, pa);
	WALK_NULL(f, va + PG, false);
	WALK_NULL(f, va + PG + 0x123, true);
	WALK_NULL(f, va + 3 * PG - 1, true);
	WALK_OK(f, va + 3 * PG, true, pa + 3 * PG);
	assert_int_equal(get_pte(f, va + PG), GPU_PTE_PRT(1));
	assert_int_equal(walk(f, va + PG, false).entry, GPU_PTE_PRT(1));

	/* null tiles where nothing was ever mapped: the tables are made */
	allocs = f->m.allocs;
	WALK_FAULT(f, far, false, GPU_FLT_PDE_INVALID, 0);
	assert_int_equal(mmu_pt_unmap(&f->pt, far, LEAF_SPAN + PG, MMU_UNMAP_ZERO), GM_OK);
	assert_int_equal(f->m.allocs, allocs + 4);
	WALK_NULL(f, far, false);
	WALK_NULL(f, far + LEAF_SPAN, true);
	WALK_FAULT(f, far + LEAF_SPAN + PG, false, GPU_FLT_PTE_INVALID, MMU_LEAF_LEVEL);

	/* and back to a real mapping */
	assert_int_equal(mmu_pt_map(&f->pt, va + PG, PG, pa, MMU_MAP_R), GM_OK);
	WALK_OK(f, va + PG, false, pa);
}

static void test_unmap_noaccess(void **state)
{
	struct fx *f = *state;
	const uint64_t va = 0x2000000000ull, pa = 0x300000ull;
	const uint64_t far = 0x9000000000ull;
	unsigned long allocs, writes;

	assert_int_equal(mmu_pt_map(&f->pt, va, 4 * PG, pa, RW), GM_OK);
	assert_int_equal(mmu_pt_unmap(&f->pt, va + PG, PG, MMU_UNMAP_ZERO), GM_OK);
	assert_int_equal(mmu_pt_unmap(&f->pt, va, 2 * PG, MMU_UNMAP_NOACCESS), GM_OK);
	WALK_FAULT(f, va, false, GPU_FLT_PTE_INVALID, MMU_LEAF_LEVEL);
	WALK_FAULT(f, va + PG, true, GPU_FLT_PTE_INVALID, MMU_LEAF_LEVEL);
	WALK_OK(f, va + 2 * PG, false, pa + 2 * PG);
	assert_int_equal(get_pte(f, va + PG), 0);
	assert_int_equal(walk(f, va, false).entry, 0);

	/* where no table exists NoAccess allocates and writes nothing */
	allocs = f->m.allocs;
	writes = f->m.writes;
	assert_int_equal(mmu_pt_unmap(&f->pt, far, 3 * LEAF_SPAN, MMU_UNMAP_NOACCESS), GM_OK);
	assert_int_equal(f->m.allocs, allocs);
	assert_int_equal(f->m.writes, writes);
	WALK_FAULT(f, far, true, GPU_FLT_PDE_INVALID, 0);
}

static void test_unmap_args(void **state)
{
	struct fx *f = *state;
	const uint64_t va = 0x10000;
	unsigned long writes, allocs;

	assert_int_equal(mmu_pt_map(&f->pt, va, 2 * PG, 0x100000, RW), GM_OK);
	writes = f->m.writes;
	allocs = f->m.allocs;
	assert_int_equal(mmu_pt_unmap(&f->pt, va + 1, PG, MMU_UNMAP_ZERO), GM_ERR_BAD_ARG);
	assert_int_equal(mmu_pt_unmap(&f->pt, va, PG - 1, MMU_UNMAP_ZERO), GM_ERR_BAD_ARG);
	assert_int_equal(mmu_pt_unmap(&f->pt, va, 0, MMU_UNMAP_NOACCESS), GM_ERR_BAD_ARG);
	assert_int_equal(mmu_pt_unmap(&f->pt, LIMIT, PG, MMU_UNMAP_NOACCESS), GM_ERR_BAD_ARG);
	assert_int_equal(mmu_pt_unmap(&f->pt, LIMIT - PG, 2 * PG, MMU_UNMAP_ZERO), GM_ERR_BAD_ARG);
	assert_int_equal(mmu_pt_unmap(&f->pt, va, PG, (enum mmu_unmap_mode)7), GM_ERR_BAD_ARG);
	assert_int_equal(mmu_pt_unmap(NULL, va, PG, MMU_UNMAP_ZERO), GM_ERR_BAD_ARG);
	assert_int_equal(f->m.writes, writes);
	assert_int_equal(f->m.allocs, allocs);
	WALK_OK(f, va, true, 0x100000);
	WALK_OK(f, va + PG, true, 0x101000);
	assert_int_equal(mmu_pt_unmap(&f->pt, LIMIT - PG, PG, MMU_UNMAP_ZERO), GM_OK);
	WALK_NULL(f, LIMIT - 1, false);
}

/* ---- faults at each level --------------------------------------------------- */

static void test_pde_invalid_each_level(void **state)
{
	struct fx *f = *state;
	const uint64_t va = 0x5555555000ull, pa = 0x777000ull;
	unsigned int l;

	assert_int_equal(mmu_pt_map(&f->pt, va, PG, pa, RW), GM_OK);
	for (l = 0; l < MMU_LEAF_LEVEL; l++) {
		uint64_t epa = lookup(f, va, l), pde = fm_peek(&f->m, epa);
		struct mmu_xlate x;

		fm_poke(&f->m, epa, pde & ~GPU_PDE_V(1));
		x = walk(f, va, false);
		assert_int_equal(x.fault, GPU_FLT_PDE_INVALID);
		assert_int_equal(x.level, l);
		assert_int_equal(x.reads, l + 1);
		assert_int_equal(x.entry, pde & ~GPU_PDE_V(1));
		assert_int_equal(x.entry_pa, epa);
		assert_int_equal(x.pa, 0);
		/* below an invalid PDE, lookup finds nothing */
		assert_int_equal(lookup(f, va, l + 1), MMU_NO_ENTRY);
		fm_poke(&f->m, epa, pde);
		WALK_OK(f, va, false, pa);
	}
}

/* Each reserved bit of a PDE, at each directory level; the V-first order. */
static void test_pde_reserved(void **state)
{
	struct fx *f = *state;
	const uint64_t va = 0x5555555000ull, pa = 0x777000ull;
	unsigned int l, bit, nbits = 0;

	assert_int_equal(mmu_pt_map(&f->pt, va, PG, pa, RW), GM_OK);
	for (bit = 0; bit < 64; bit++) {
		uint64_t m = 1ull << bit;

		if (!(GPU_PDE_RESERVED & m))
			continue;
		nbits++;
		for (l = 0; l < MMU_LEAF_LEVEL; l++) {
			uint64_t epa = lookup(f, va, l), pde = fm_peek(&f->m, epa);

			fm_poke(&f->m, epa, pde | m);
			WALK_FAULT(f, va, false, GPU_FLT_RESERVED, l);
			assert_int_equal(walk(f, va, true).entry, pde | m);
			/* V is checked first: V=0 with reserved bits is PDE_INVALID */
			fm_poke(&f->m, epa, (pde | m) & ~GPU_PDE_V(1));
			WALK_FAULT(f, va, true, GPU_FLT_PDE_INVALID, l);
			fm_poke(&f->m, epa, pde);
		}
	}
	assert_int_equal(nbits, __builtin_popcountll(GPU_PDE_RESERVED));
	assert_true(nbits > 0);
	WALK_OK(f, va, false, pa);
}

/* Each reserved bit of a PTE faults whatever V and PRT say. */
static void test_pte_reserved(void **state)
{
	struct fx *f = *state;
	const uint64_t va = 0x5555555000ull, pa = 0x777000ull;
	const uint64_t kinds[] = {
		want_pte(pa, RW),                    /* valid */
		want_pte(pa, RW) | GPU_PTE_FRAG64K(1),
		GPU_PTE_PRT(1),                      /* null tile */
		0,                                   /* invalid */
	};
	unsigned int bit, k, nbits = 0;

	for (bit = 0; bit < 64; bit++) {
		uint64_t m = 1ull << bit;

		if (!(GPU_PTE_RESERVED & m))
			continue;
		nbits++;
		for (k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
			assert_int_equal(mmu_pt_set_pte(&f->pt, va, kinds[k] | m), GM_OK);
			WALK_FAULT(f, va, false, GPU_FLT_RESERVED, MMU_LEAF_LEVEL);
			WALK_FAULT(f, va, true, GPU_FLT_RESERVED, MMU_LEAF_LEVEL);
			assert_int_equal(walk(f, va, false).entry, kinds[k] | m);
		}
	}
	assert_int_equal(nbits, __builtin_popcountll(GPU_PTE_RESERVED));
	/* the named bits are not reserved: PRT is ignored when V=1 */
	assert_int_equal(mmu_pt_set_pte(&f->pt, va, want_pte(pa, RW) | GPU_PTE_PRT(1)), GM_OK);
	WALK_OK(f, va + 1, true, pa + 1);
	assert_int_equal(mmu_pt_set_pte(&f->pt, va, (want_pte(pa, RW | MMU_MAP_FRAG64K) &
						      ~GPU_PTE_V(1)) | GPU_PTE_PRT(1)), GM_OK);
	WALK_NULL(f, va, false);   /* V=0 PRT=1 with other fields set: still a null tile */
}

/* ---- 64 KiB fragments ------------------------------------------------------- */

static void check_frag_block(const struct fx *f, uint64_t va, uint64_t pa, bool frag)
{
	unsigned int i;

	for (i = 0; i < MMU_FRAG_PAGES; i++) {
		uint64_t off = i * PG + (i * 0x111) % PG;

		check_walk(f, va + off, i & 1, &(struct want){ GPU_FLT_NONE, MMU_LEAF_LEVEL,
			   pa + off, false, frag }, __LINE__);
		/* the TLB's view: one entry, tag VA[47:16], PA base pa & ~0xffff */
		if (frag)
			assert_int_equal(walk(f, va + off, false).pa & ~(FRAG - 1), pa);
		assert_int_equal(GPU_PTE_FRAG64K_GET(get_pte(f, va + off)), frag);
	}
}

static void test_frag64k(void **state)
{
	struct fx *f = *state;
	const uint64_t va = 0x3000000000ull - FRAG;  /* two blocks, across a leaf table */
	const uint64_t pa = SYSB + 0x12340000ull, pa2 = 0x5550000ull;
	const unsigned int fl = RW | MMU_MAP_SYS | MMU_MAP_FRAG64K;
	unsigned int i;

	assert_int_equal(mmu_pt_map(&f->pt, va, 2 * FRAG, pa, fl), GM_OK);
	check_frag_block(f, va, pa, true);
	check_frag_block(f, va + FRAG, pa + FRAG, true);

	/* a 4 KiB map inside block 0 breaks the fragment; block 1 keeps its own */
	assert_int_equal(mmu_pt_map(&f->pt, va + 5 * PG, PG, pa2, MMU_MAP_R), GM_OK);
	WALK_OK(f, va + 5 * PG + 3, false, pa2 + 3);
	WALK_OK(f, va + 4 * PG, true, pa + 4 * PG);
	WALK_OK(f, va + 15 * PG, true, pa + 15 * PG);
	WALK_OK(f, va, false, pa);
	check_frag_block(f, va + FRAG, pa + FRAG, true);

	/* an unmap of one page of block 1 breaks it too */
	assert_int_equal(mmu_pt_unmap(&f->pt, va + FRAG + 3 * PG, PG, MMU_UNMAP_ZERO), GM_OK);
	WALK_NULL(f, va + FRAG + 3 * PG, false);
	WALK_OK(f, va + FRAG, false, pa + FRAG);
	WALK_OK(f, va + 2 * FRAG - 1, false, pa + 2 * FRAG - 1);

	/* remap both as fragments again, then a 4 KiB map over the last page
	 * before block 0, all of it and the first page of block 1 */
	assert_int_equal(mmu_pt_map(&f->pt, va, 2 * FRAG, pa, fl), GM_OK);
	check_frag_block(f, va, pa, true);
	check_frag_block(f, va + FRAG, pa + FRAG, true);
	assert_int_equal(mmu_pt_map(&f->pt, va - PG, FRAG + 2 * PG, pa2, RW), GM_OK);
	WALK_OK(f, va - PG, false, pa2);
	check_frag_block(f, va, pa2 + PG, false);
	WALK_OK(f, va + FRAG, true, pa2 + PG + FRAG);
	for (i = 1; i < MMU_FRAG_PAGES; i++)
		WALK_OK(f, va + FRAG + i * PG, true, pa + FRAG + i * PG);
}

static void test_frag64k_edges(void **state)
{
	struct fx *f = *state;
	const uint64_t va = 0x800000000ull, pa = 0x40000000ull, pa2 = 0x7770000ull;
	const unsigned int fl = RW | MMU_MAP_FRAG64K;
	unsigned int i;

	/* tail partial: an unmap from the middle of block 0 to the middle of block 2 */
	assert_int_equal(mmu_pt_map(&f->pt, va, 4 * FRAG, pa, fl), GM_OK);
	assert_int_equal(mmu_pt_unmap(&f->pt, va + FRAG - PG, FRAG + 2 * PG, MMU_UNMAP_NOACCESS),
			 GM_OK);
	for (i = 0; i < 4 * MMU_FRAG_PAGES; i++) {
		uint64_t v = va + i * PG;
		bool gone = v >= va + FRAG - PG && v < va + 2 * FRAG + PG;

		if (gone)
			WALK_FAULT(f, v, false, GPU_FLT_PTE_INVALID, MMU_LEAF_LEVEL);
		else
			check_walk(f, v, true, &(struct want){ GPU_FLT_NONE, MMU_LEAF_LEVEL,
				   pa + i * PG, false, v >= va + 3 * FRAG }, __LINE__);
	}
	/* a fragment-aligned 4 KiB map over whole blocks leaves no FRAG64K */
	assert_int_equal(mmu_pt_map(&f->pt, va, 4 * FRAG, pa, fl), GM_OK);
	assert_int_equal(mmu_pt_map(&f->pt, va + FRAG, FRAG, pa, RW), GM_OK);
	check_frag_block(f, va, pa, true);
	check_frag_block(f, va + FRAG, pa, false);
	check_frag_block(f, va + 2 * FRAG, pa + 2 * FRAG, true);

	/* head partial with an aligned start: one page at the start of block 2 */
	assert_int_equal(mmu_pt_map(&f->pt, va + 2 * FRAG, PG, pa2, RW), GM_OK);
	WALK_OK(f, va + 2 * FRAG, true, pa2);
	for (i = 1; i < MMU_FRAG_PAGES; i++)
		WALK_OK(f, va + 2 * FRAG + i * PG, true, pa + 2 * FRAG + i * PG);
	check_frag_block(f, va + 3 * FRAG, pa + 3 * FRAG, true);
}

/* ---- memory errors and allocation failure ----------------------------------- */

static void test_walk_error(void **state)
{
	struct fx *f = *state;
	const uint64_t va = 0x4444444000ull, pa = 0x777000ull;
	unsigned int l;

	assert_int_equal(mmu_pt_map(&f->pt, va, PG, pa, RW), GM_OK);
	for (l = 0; l < GPU_PT_LEVELS; l++) {
		uint64_t epa = lookup(f, va, l);
		struct mmu_xlate x;
		uint64_t got;

		f->m.bad_lo = epa & ~(PG - 1);
		f->m.bad_hi = f->m.bad_lo + PG;
		x = walk(f, va, true);
		assert_int_equal(x.fault, GPU_FLT_WALK_ERROR);
		assert_int_equal(x.level, l);
		assert_int_equal(x.reads, l + 1);
		assert_int_equal(x.entry, 0);
		assert_int_equal(x.entry_pa, epa);
		/* the builder passes the memory's status on and changes nothing */
		assert_int_equal(mmu_pt_map(&f->pt, va, PG, 0, RW), GM_ERR_ADDR);
		assert_int_equal(mmu_pt_get_pte(&f->pt, va, &got), GM_ERR_ADDR);
		f->m.bad_lo = f->m.bad_hi = 0;
		WALK_OK(f, va, true, pa);
	}
	/* a valid PDE pointing past the end of memory */
	{
		uint64_t epa = lookup(f, va, MMU_LEAF_LEVEL - 1);
		uint64_t pde = fm_peek(&f->m, epa);
		struct mmu_xlate x;

		fm_poke(&f->m, epa, (pde & ~GPU_PDE_ADDR(GPU_PDE_ADDR_MASK)) |
			GPU_PDE_ADDR(GPU_PDE_ADDR_MASK));
		x = walk(f, va, false);
		assert_int_equal(x.fault, GPU_FLT_WALK_ERROR);
		assert_int_equal(x.level, MMU_LEAF_LEVEL);
		assert_int_equal(x.reads, GPU_PT_LEVELS);
		fm_poke(&f->m, epa, pde);
	}
	/* a root outside memory */
	{
		struct mmu_xlate x;

		assert_int_equal(mmu_walk(&fake_ops, &f->m, GPU_VRAM_BASE, va, false, &x), GM_OK);
		assert_int_equal(x.fault, GPU_FLT_WALK_ERROR);
		assert_int_equal(x.level, 0);
		assert_int_equal(x.reads, 1);
	}
}

/* The fault-visible state of a range: one walk per page. */
static void snapshot(const struct fx *f, uint64_t va, unsigned int pages, struct mmu_xlate *x)
{
	unsigned int i;

	for (i = 0; i < pages; i++)
		x[i] = walk(f, va + i * PG, false);
}

/*
 * Out of tables after k allocations, for every k: NO_MEM, no PTE written
 * (mapped pages unchanged, unmapped ones still fault), and the retry with
 * room succeeds having allocated each table once.
 */
static void test_map_no_mem(void **state)
{
	struct fx *f = *state;
	const uint64_t va = 0x8040000000ull - 2 * PG;   /* crosses a 1 GiB boundary */
	const unsigned int pages = 4;
	struct mmu_xlate before[8], after[8];
	unsigned long base_allocs;
	unsigned int k, i;
	int st = GM_ERR_NO_MEM;

	/* an existing page in the range, whose tables (L1, L2, one leaf) exist */
	assert_int_equal(mmu_pt_map(&f->pt, va, PG, 0x1000000, MMU_MAP_R), GM_OK);
	base_allocs = f->m.allocs;
	for (k = 0; st == GM_ERR_NO_MEM; k++) {
		f->m.alloc_left = k;
		snapshot(f, va, pages, before);
		st = mmu_pt_map(&f->pt, va, pages * PG, 0x2000000, RW);
		f->m.alloc_left = -1;
		if (st == GM_OK)
			break;
		assert_int_equal(st, GM_ERR_NO_MEM);
		snapshot(f, va, pages, after);
		for (i = 0; i < pages; i++) {
			if (before[i].fault == GPU_FLT_NONE) {
				assert_true(xlate_same(&before[i], &after[i]));
				continue;
			}
			assert_true(after[i].fault == GPU_FLT_PDE_INVALID ||
				    after[i].fault == GPU_FLT_PTE_INVALID);
		}
		assert_true(k < 8);
	}
	/* the other side of 1 GiB needs an L2 table and a leaf */
	assert_int_equal(k, 2);
	assert_int_equal(f->m.allocs, base_allocs + 2);
	for (i = 0; i < pages; i++)
		WALK_OK(f, va + i * PG, true, 0x2000000 + i * PG);

	/* the same for null tiles and for a raw PTE */
	f->m.alloc_left = 0;
	assert_int_equal(mmu_pt_unmap(&f->pt, 0xa00000000ull, PG, MMU_UNMAP_ZERO), GM_ERR_NO_MEM);
	assert_int_equal(mmu_pt_set_pte(&f->pt, 0xa00000000ull, GPU_PTE_PRT(1)), GM_ERR_NO_MEM);
	f->m.alloc_left = -1;
	WALK_FAULT(f, 0xa00000000ull, false, GPU_FLT_PDE_INVALID, 0);
}

static void test_write_error(void **state)
{
	struct fx *f = *state;
	const uint64_t va = 0x123000ull;

	/* the zeroing of a new table fails: its PDE is not written */
	f->m.writes_left = 0;
	assert_int_equal(mmu_pt_map(&f->pt, va, PG, 0, RW), GM_ERR_HW);
	f->m.writes_left = -1;
	WALK_FAULT(f, va, false, GPU_FLT_PDE_INVALID, 0);
	/* the PTE write fails: the status comes back */
	assert_int_equal(mmu_pt_map(&f->pt, va, PG, 0, RW), GM_OK);
	f->m.writes_left = 0;
	assert_int_equal(mmu_pt_map(&f->pt, va, PG, PG, RW), GM_ERR_HW);
	assert_int_equal(mmu_pt_unmap(&f->pt, va, PG, MMU_UNMAP_NOACCESS), GM_ERR_HW);
	assert_int_equal(mmu_pt_set_pte(&f->pt, va, 0), GM_ERR_HW);
	f->m.writes_left = -1;
	WALK_OK(f, va, false, 0);
}

/* ---- raw access ------------------------------------------------------------- */

static void test_set_get_lookup(void **state)
{
	struct fx *f = *state;
	const uint64_t va = 0xabcdef123000ull;
	uint64_t e = 77;
	unsigned int l;

	assert_int_equal(lookup(f, va, 0), f->pt.root_pa + mmu_pt_index(va, 0) * 8ull);
	for (l = 1; l < GPU_PT_LEVELS; l++)
		assert_int_equal(lookup(f, va, l), MMU_NO_ENTRY);
	assert_int_equal(get_pte(f, va), 0);
	assert_int_equal(mmu_pt_lookup(&f->pt, va, GPU_PT_LEVELS, &e), GM_ERR_BAD_ARG);
	assert_int_equal(mmu_pt_lookup(&f->pt, LIMIT, 0, &e), GM_ERR_BAD_ARG);
	assert_int_equal(mmu_pt_lookup(&f->pt, va, 0, NULL), GM_ERR_BAD_ARG);
	assert_int_equal(mmu_pt_lookup(NULL, va, 0, &e), GM_ERR_BAD_ARG);
	assert_int_equal(mmu_pt_get_pte(&f->pt, LIMIT, &e), GM_ERR_BAD_ARG);
	assert_int_equal(mmu_pt_get_pte(&f->pt, va, NULL), GM_ERR_BAD_ARG);
	assert_int_equal(mmu_pt_set_pte(&f->pt, LIMIT, 0), GM_ERR_BAD_ARG);
	assert_int_equal(mmu_pt_set_pte(NULL, va, 0), GM_ERR_BAD_ARG);
	assert_int_equal(e, 77);

	assert_int_equal(mmu_pt_set_pte(&f->pt, va + 0x123, 0xfedcba9876543210ull), GM_OK);
	assert_int_equal(get_pte(f, va), 0xfedcba9876543210ull);
	assert_int_equal(fm_peek(&f->m, lookup(f, va, MMU_LEAF_LEVEL)), 0xfedcba9876543210ull);
	assert_int_equal(lookup(f, va, MMU_LEAF_LEVEL) & (PG - 1),
			 mmu_pt_index(va, MMU_LEAF_LEVEL) * 8ull);
	assert_int_equal(get_pte(f, va + PG), 0);
}

static void test_two_tables(void **state)
{
	struct fx *f = *state;
	struct mmu_pt b;
	struct mmu_xlate x;
	const uint64_t va = 0x100000000ull;

	assert_int_equal(mmu_pt_init(&b, &fake_ops, &f->m), GM_OK);
	assert_int_not_equal(b.root_pa, f->pt.root_pa);
	assert_int_equal(mmu_pt_map(&f->pt, va, PG, 0x1000, RW), GM_OK);
	assert_int_equal(mmu_pt_map(&b, va, PG, 0x2000, MMU_MAP_R), GM_OK);
	WALK_OK(f, va, true, 0x1000);
	assert_int_equal(mmu_walk(&fake_ops, &f->m, b.root_pa, va, false, &x), GM_OK);
	assert_int_equal(x.pa, 0x2000);
	assert_int_equal(mmu_pt_unmap(&b, va, PG, MMU_UNMAP_NOACCESS), GM_OK);
	WALK_OK(f, va, true, 0x1000);
	assert_int_equal(mmu_walk(&fake_ops, &f->m, b.root_pa, va, false, &x), GM_OK);
	assert_int_equal(x.fault, GPU_FLT_PTE_INVALID);
}

/* ---- randomized cross-check ------------------------------------------------- */

/* The test's own model of what every page should do. */
enum exp_kind { EXP_MAPPED = 1, EXP_NULL, EXP_NOACCESS };

struct exp_slot {
	uint64_t key;
	uint64_t pa;        /* EXP_MAPPED: PA of the page */
	uint8_t kind;       /* 0: empty slot */
	uint8_t flags;      /* EXP_MAPPED: enum mmu_map_flags */
	bool frag;
};

struct exp_map {
	struct exp_slot *slot;
	size_t cap, n;      /* cap a power of two */
};

static size_t em_hash(uint64_t key, size_t cap)
{
	uint64_t h = key * 0x9e3779b97f4a7c15ull;

	return (size_t)(h ^ (h >> 29)) & (cap - 1);
}

static struct exp_slot *em_find(const struct exp_map *em, uint64_t key)
{
	size_t i;

	if (!em->cap)
		return NULL;
	for (i = em_hash(key, em->cap); em->slot[i].kind; i = (i + 1) & (em->cap - 1))
		if (em->slot[i].key == key)
			return &em->slot[i];
	return NULL;
}

static void em_grow(struct exp_map *em)
{
	struct exp_map bigger = { calloc(em->cap ? em->cap * 2 : 1024, sizeof(struct exp_slot)),
				  em->cap ? em->cap * 2 : 1024, em->n };
	size_t i, j;

	assert_non_null(bigger.slot);
	for (i = 0; i < em->cap; i++) {
		if (!em->slot[i].kind)
			continue;
		for (j = em_hash(em->slot[i].key, bigger.cap); bigger.slot[j].kind;
		     j = (j + 1) & (bigger.cap - 1))
			;
		bigger.slot[j] = em->slot[i];
	}
	free(em->slot);
	*em = bigger;
}

/* The slot of @key, made (kind EXP_NOACCESS) if absent. */
static struct exp_slot *em_get(struct exp_map *em, uint64_t key)
{
	struct exp_slot *s = em_find(em, key);
	size_t i;

	if (s)
		return s;
	if ((em->n + 1) * 2 > em->cap)
		em_grow(em);
	for (i = em_hash(key, em->cap); em->slot[i].kind; i = (i + 1) & (em->cap - 1))
		;
	em->slot[i].key = key;
	em->slot[i].kind = EXP_NOACCESS;
	em->n++;
	return &em->slot[i];
}

struct model {
	struct exp_map pages;    /* page number -> expected PTE */
	struct exp_map tables;   /* (level << 56 | VA prefix) -> the level's table exists */
};

/* log2 of the VA span one entry of @level maps. */
static unsigned int entry_shift(unsigned int level)
{
	return GPU_PAGE_SHIFT + GPU_PT_LEVEL_BITS * (GPU_PT_LEVELS - 1 - level);
}

static uint64_t table_key(unsigned int level, uint64_t va)
{
	return (uint64_t)level << 56 | va >> entry_shift(level - 1);
}

static void model_tables(struct model *md, uint64_t va, uint64_t size)
{
	uint64_t c;
	unsigned int l;

	for (c = va & ~(LEAF_SPAN - 1); c < va + size; c += LEAF_SPAN)
		for (l = 1; l < GPU_PT_LEVELS; l++)
			em_get(&md->tables, table_key(l, c));
}

/* The contract: a block only partly covered loses FRAG64K on all 16 pages. */
static void model_unfrag(struct model *md, uint64_t va, uint64_t size)
{
	uint64_t blk, p;

	for (blk = va & ~(FRAG - 1); blk < va + size; blk += FRAG) {
		if (blk >= va && blk + FRAG <= va + size)
			continue;
		for (p = blk; p < blk + FRAG; p += PG) {
			struct exp_slot *s = em_find(&md->pages, p >> GPU_PAGE_SHIFT);

			if (s)
				s->frag = false;
		}
	}
}

static void model_set(struct model *md, uint64_t va, uint64_t size, uint64_t pa,
		      unsigned int flags, enum exp_kind kind)
{
	uint64_t i;

	if (!(flags & MMU_MAP_FRAG64K))
		model_unfrag(md, va, size);
	for (i = 0; i < size / PG; i++) {
		struct exp_slot *s = em_get(&md->pages, (va >> GPU_PAGE_SHIFT) + i);

		s->kind = kind;
		s->pa = kind == EXP_MAPPED ? pa + i * PG : 0;
		s->flags = (uint8_t)flags;
		s->frag = flags & MMU_MAP_FRAG64K;
	}
	if (kind != EXP_NOACCESS)
		model_tables(md, va, size);
}

static struct mmu_xlate model_walk(const struct model *md, uint64_t va, bool wr)
{
	const struct exp_slot *s = em_find(&md->pages, va >> GPU_PAGE_SHIFT);
	struct mmu_xlate x = { .level = MMU_LEAF_LEVEL };
	unsigned int l;

	if (s && s->kind == EXP_MAPPED) {
		x.pa = s->pa + (va & (PG - 1));
		x.frag64k = s->frag;
		x.entry = want_pte(s->pa, (s->flags & ~MMU_MAP_FRAG64K) |
					  (s->frag ? MMU_MAP_FRAG64K : 0));
		if (wr && !(s->flags & MMU_MAP_W))
			x.fault = GPU_FLT_NO_WRITE;
		else if (!wr && !(s->flags & MMU_MAP_R))
			x.fault = GPU_FLT_NO_READ;
	} else if (s && s->kind == EXP_NULL) {
		x.null_tile = true;
		x.entry = GPU_PTE_PRT(1);
	} else {
		x.fault = GPU_FLT_PTE_INVALID;
		for (l = 1; l < GPU_PT_LEVELS; l++)
			if (!em_find(&md->tables, table_key(l, va))) {
				x.fault = GPU_FLT_PDE_INVALID;
				x.level = l - 1;
				break;
			}
	}
	x.reads = x.level + 1;
	return x;
}

#define XC_WINDOWS 12
#define XC_WIN_BYTES (8 * MIB)
#define XC_ROUNDS 4
#define XC_OPS 750              /* per round */
#define XC_WALKS 25000          /* per round: 100,000 in all */

struct xcheck {
	struct fx *f;
	struct model md;
	uint64_t rng;
	uint64_t win[XC_WINDOWS];
	unsigned long ops;
};

static void xc_fail(const struct xcheck *xc, const char *what, uint64_t va, bool wr,
		    const struct mmu_xlate *got, const struct mmu_xlate *want)
{
	print_error("%s after %lu ops: %s of va 0x%" PRIx64 "\n", what, xc->ops,
		    wr ? "write" : "read", va);
	print_xlate("got ", got);
	if (want)
		print_xlate("want", want);
	fail_msg("reproduce: GPUSIM_SEED=%" PRIu64 " GPUSIM_TEST=test_random_xcheck %s",
		 xc->f->env->seed, xc->f->env->argv0);
}

static uint64_t xc_pa(struct xcheck *xc, uint64_t size, uint64_t align, bool sys)
{
	uint64_t slots = (APERTURE - size) / align;

	return (sys ? GPU_SYSMEM_BASE : GPU_VRAM_BASE) + rng_below(&xc->rng, slots + 1) * align;
}

/* One random map or unmap in a random window, applied to both sides. */
static void xc_op(struct xcheck *xc)
{
	uint64_t w = xc->win[rng_below(&xc->rng, XC_WINDOWS)];
	unsigned int kind = (unsigned int)rng_below(&xc->rng, 100);
	unsigned int flags = (unsigned int)rng_below(&xc->rng, 4);   /* R, W */
	bool sys = rng_below(&xc->rng, 2);
	uint64_t align = PG, size, va, pa;
	int st;

	if (sys)
		flags |= MMU_MAP_SYS;
	if (kind >= 45 && kind < 70) {
		align = FRAG;
		flags |= MMU_MAP_FRAG64K;
		size = (1 + rng_below(&xc->rng, 4)) * FRAG;
	} else {
		size = (1 + rng_below(&xc->rng, 48)) * PG;
	}
	va = w + rng_below(&xc->rng, (XC_WIN_BYTES - size) / align + 1) * align;
	xc->ops++;
	if (kind < 70) {
		pa = xc_pa(xc, size, align, sys);
		st = mmu_pt_map(&xc->f->pt, va, size, pa, flags);
		model_set(&xc->md, va, size, pa, flags, EXP_MAPPED);
	} else if (kind < 85) {
		st = mmu_pt_unmap(&xc->f->pt, va, size, MMU_UNMAP_ZERO);
		model_set(&xc->md, va, size, 0, 0, EXP_NULL);
	} else {
		st = mmu_pt_unmap(&xc->f->pt, va, size, MMU_UNMAP_NOACCESS);
		model_set(&xc->md, va, size, 0, 0, EXP_NOACCESS);
	}
	if (st != GM_OK)
		fail_msg("op %lu at va 0x%" PRIx64 ": status %d; reproduce: GPUSIM_SEED=%" PRIu64
			 " GPUSIM_TEST=test_random_xcheck %s", xc->ops, va, st, xc->f->env->seed,
			 xc->f->env->argv0);
}

/* A VA to translate: mostly in a window, some near one, some anywhere. */
static uint64_t xc_va(struct xcheck *xc)
{
	unsigned int where = (unsigned int)rng_below(&xc->rng, 100);
	uint64_t w = xc->win[rng_below(&xc->rng, XC_WINDOWS)];
	uint64_t near = 8 * GIB;

	if (where < 85)
		return w + rng_below(&xc->rng, XC_WIN_BYTES);
	if (where < 95) {
		uint64_t lo = w > near ? w - near : 0;

		return lo + rng_below(&xc->rng, (w + near < LIMIT ? w + near : LIMIT) - lo);
	}
	return rng_below(&xc->rng, LIMIT);
}

static void xc_translate(struct xcheck *xc)
{
	uint64_t va = xc_va(xc);
	bool wr = rng_below(&xc->rng, 2);
	struct mmu_xlate got = walk(xc->f, va, wr), want = model_walk(&xc->md, va, wr);
	struct mmu_xlate base;

	if (got.fault != want.fault || got.level != want.level || got.reads != want.reads ||
	    got.pa != want.pa || got.null_tile != want.null_tile ||
	    got.frag64k != want.frag64k || (want.entry && got.entry != want.entry))
		xc_fail(xc, "mismatch", va, wr, &got, &want);
	if (!got.frag64k)
		return;
	/* what a TLB would cache for the whole block must hold for this page */
	base = walk(xc->f, va & ~(FRAG - 1), wr);
	if (!base.frag64k || base.fault != got.fault || base.pa != (got.pa & ~(FRAG - 1)) ||
	    (base.entry & ~ADDR_BITS) != (got.entry & ~ADDR_BITS))
		xc_fail(xc, "fragment not uniform", va, wr, &got, &base);
}

static void xc_windows(struct xcheck *xc)
{
	unsigned int i;

	xc->win[0] = 0;                                   /* bottom of the VA space */
	xc->win[1] = LIMIT - XC_WIN_BYTES;                /* top */
	/* straddling a leaf, an L2 and an L1 table boundary */
	xc->win[2] = (4 + rng_below(&xc->rng, 1000)) * LEAF_SPAN - XC_WIN_BYTES / 2 - FRAG;
	xc->win[3] = (1 + rng_below(&xc->rng, 1000)) * GIB - XC_WIN_BYTES / 2;
	xc->win[4] = (1 + rng_below(&xc->rng, 500)) * (512 * GIB) - XC_WIN_BYTES / 2;
	for (i = 5; i < XC_WINDOWS; i++)
		xc->win[i] = rng_below(&xc->rng, (LIMIT - XC_WIN_BYTES) / FRAG) * FRAG;
}

static void test_random_xcheck(void **state)
{
	struct fx *f = *state;
	struct xcheck xc = { .f = f, .rng = f->env->seed ^ 0x6d6d755f78636b00ull };
	unsigned int round, i;

	xc_windows(&xc);
	for (round = 0; round < XC_ROUNDS; round++) {
		for (i = 0; i < XC_OPS; i++)
			xc_op(&xc);
		for (i = 0; i < XC_WALKS; i++)
			xc_translate(&xc);
	}
	print_message("  %lu ops, %u translations, %lu tables, %zu pages modelled\n", xc.ops,
		      XC_ROUNDS * XC_WALKS, f->m.allocs, xc.md.pages.n);
	free(xc.md.pages.slot);
	free(xc.md.tables.slot);
}

/* ---- main ------------------------------------------------------------------- */

int main(int argc, char **argv)
{
	struct env env = { 0, argc > 0 ? argv[0] : "test_mmu" };
	const char *only = getenv("GPUSIM_TEST");
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pte_roundtrip),
		cmocka_unit_test(test_pde_roundtrip),
		cmocka_unit_test(test_entry_encode_bad),
		cmocka_unit_test(test_walk_hand_built),
		cmocka_unit_test_setup_teardown(test_walk_bad_args, setup_vram, teardown),
		cmocka_unit_test(test_pt_init),
		cmocka_unit_test(test_pt_bad_allocator),
		cmocka_unit_test_setup_teardown(test_map_args, setup_vram, teardown),
		cmocka_unit_test_setup_teardown(test_map_basic, setup_vram, teardown),
		cmocka_unit_test_setup_teardown(test_map_large, setup_vram, teardown),
		cmocka_unit_test_setup_teardown(test_permissions, setup_vram, teardown),
		cmocka_unit_test_setup_teardown(test_sys_vs_vram, setup_vram, teardown),
		cmocka_unit_test_setup_teardown(test_sys_vs_vram, setup_sys, teardown),
		cmocka_unit_test_setup_teardown(test_unmap_zero, setup_vram, teardown),
		cmocka_unit_test_setup_teardown(test_unmap_noaccess, setup_vram, teardown),
		cmocka_unit_test_setup_teardown(test_unmap_args, setup_vram, teardown),
		cmocka_unit_test_setup_teardown(test_pde_invalid_each_level, setup_vram, teardown),
		cmocka_unit_test_setup_teardown(test_pde_reserved, setup_sys, teardown),
		cmocka_unit_test_setup_teardown(test_pte_reserved, setup_vram, teardown),
		cmocka_unit_test_setup_teardown(test_frag64k, setup_vram, teardown),
		cmocka_unit_test_setup_teardown(test_frag64k_edges, setup_vram, teardown),
		cmocka_unit_test_setup_teardown(test_walk_error, setup_vram, teardown),
		cmocka_unit_test_setup_teardown(test_map_no_mem, setup_vram, teardown),
		cmocka_unit_test_setup_teardown(test_write_error, setup_vram, teardown),
		cmocka_unit_test_setup_teardown(test_set_get_lookup, setup_vram, teardown),
		cmocka_unit_test_setup_teardown(test_two_tables, setup_sys, teardown),
		cmocka_unit_test_prestate_setup_teardown(test_random_xcheck, setup_vram, teardown, &env),
	};

	env.seed = tb_seed(env.argv0);
	if (only && *only)
		cmocka_set_test_filter(only);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
