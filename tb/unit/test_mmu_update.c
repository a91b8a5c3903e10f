// SPDX-License-Identifier: MIT
/*
 * test_mmu_update.c - cmocka unit tests for mmu_update (UpdateGpuVirtualAddress:
 * MAP, UNMAP, COPY batches and their PTE_WRITE runs) and mmu_shadow.
 *
 * Build and run:
 *   gcc -std=c11 -Wall -Wextra -Werror -Wshadow -g -fsanitize=address,undefined \
 *       -Ihw -Imodel -Idma -Immu -Itb mmu/mmu_*.c dma/dma_buf.c hw/gpu_tile.c \
 *       hw/gpu_names.c model/gm_status.c tb/unit/test_mmu_update.c tb/tb_seed.c \
 *       -lcmocka -o /tmp/test_mmu_update
 *   /tmp/test_mmu_update
 *
 * Two memories hold the tables: the shadow the library builds in, and a
 * second host array standing for VRAM ("the GPU memory"), which only ever
 * changes by the PTE_WRITE packets a batch emits, executed by a small
 * interpreter written here from REGISTERS.md.  Memory the allocator has
 * not handed out is garbage there (0xa5).  After every batch the GPU memory
 * must equal the shadow byte for byte, and the software walker must give
 * the same verdict over both for every page of the reservations: the runs
 * are exact, new tables included.
 *
 * The oracle of the random test is an independent per-page model of the
 * reservations (mapped {pa, access, fragment}, null tile, or no access).
 * It takes its seed from tb_seed() ($GPUSIM_SEED, else the clock) and prints
 * it; $GPUSIM_TEST=<test name> runs one test.  A failure prints the command
 * that reproduces it.
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

#include "mmu_shadow.h"
#include "mmu_update.h"
#include "mmu_walk.h"
#include "tb_seed.h"

#define PG MMU_PAGE_SIZE
#define FRAG MMU_FRAG_SIZE
#define KIB 1024ull
#define MIB (1024ull * KIB)
#define GIB (1024ull * MIB)
#define GARBAGE 0xa5u

/* Values pinned from their published sources, not from the C mirror. */
#define PIN_ADDR_BITS 0x000000fffffff000ull   /* REGISTERS.md: PTE.ADDR is bits 39:12 */
#define PIN_PTE_WRITE_HDR 0xc0086000u   /* TYPE 3 (31:30), COUNT 8 (29:16), OPCODE 0x60 (15:8) */
#define PIN_PTE_WRITE_DWORDS 9u
#define PIN_ENTRIES_MASK 0xfffffu             /* NUM.ENTRIES, bits 19:0 */
#define PIN_FRAG64K (1ull << 5)
#define PIN_PRT (1ull << 4)

/* The table pool: a window of VRAM. */
#define WIN_BASE (GPU_VRAM_BASE + 16 * MIB)   /* not at PA 0: a stray 0 must miss */
#define WIN_TABLES 2048u
#define WIN_BYTES (WIN_TABLES * PG)

/* Reservations: RA crosses a 2 MiB leaf table and a 1 GiB L1 boundary, RC
 * touches RA's end, RB sits under another root entry, RD is the tile pool
 * of the 128-operation batch; RE, RF and RG, elsewhere in the space, give
 * the random test tables to build late. */
#define RA_BASE (1 * GIB - 512 * KIB)
#define RA_SIZE (1 * MIB)
#define RC_BASE (RA_BASE + RA_SIZE)
#define RC_SIZE (64 * KIB)
#define RB_BASE (512 * GIB + 4 * MIB)
#define RB_SIZE (512 * KIB)
#define RD_BASE (4 * GIB)
#define RD_SIZE (8 * MIB)
#define RE_BASE (2048 * GIB + 1 * GIB - 128 * KIB)
#define RE_SIZE (256 * KIB)
#define RF_BASE (100 * 1024 * GIB + 2 * MIB - 64 * KIB)
#define RF_SIZE (128 * KIB)
#define RG_BASE (255 * 1024 * GIB)
#define RG_SIZE (256 * KIB)

/* ---- fixture ---------------------------------------------------------------- */

/* What main() hands the tests. */
struct env {
	uint64_t seed;
	const char *argv0;
};

/* The caller's table allocator: a bump over the window, with a budget. */
struct pool {
	uint64_t next, end;
	long left;   /* tables it may still hand out; < 0: no limit */
};

struct fx {
	struct pool pool;
	struct mmu_shadow sh;
	struct mmu_pt pt;
	struct mmu_va_space vs;
	uint8_t *gpu;           /* the window as the GPU has written it */
	const struct env *env;
	const char *test;       /* set by a random test: failures name the reproducer */
};

static int pool_alloc(void *ctx, uint64_t *pa)
{
	struct pool *p = ctx;

	if (p->left == 0 || p->next + PG > p->end)
		return GM_ERR_NO_MEM;
	if (p->left > 0)
		p->left--;
	*pa = p->next;
	p->next += PG;
	return GM_OK;
}

static int gpu_read(void *ctx, uint64_t pa, void *buf, size_t len)
{
	const struct fx *f = ctx;

	if (pa < WIN_BASE || pa - WIN_BASE > WIN_BYTES || len > WIN_BYTES - (pa - WIN_BASE))
		return GM_ERR_ADDR;
	memcpy(buf, f->gpu + (pa - WIN_BASE), len);
	return GM_OK;
}

static const struct mmu_mem_ops gpu_ops = { gpu_read, NULL, NULL };

/* Bytes of the window the allocator has handed out. */
static size_t used(const struct fx *f)
{
	return (size_t)(f->pool.next - WIN_BASE);
}

static void fx_fail(const struct fx *f, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (f->test)
		fail_msg("%s; reproduce: GPUSIM_SEED=%" PRIu64 " GPUSIM_TEST=%s %s", msg,
			 f->env->seed, f->test, f->env->argv0);
	fail_msg("%s", msg);
}

static int setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));

	if (!f)
		return -1;
	f->env = *state;
	f->pool = (struct pool){ WIN_BASE, WIN_BASE + WIN_BYTES, -1 };
	f->gpu = malloc(WIN_BYTES);
	if (!f->gpu || mmu_shadow_init(&f->sh, WIN_BASE, WIN_BYTES, pool_alloc, &f->pool) ||
	    mmu_pt_init(&f->pt, &mmu_shadow_ops, &f->sh) ||
	    mmu_va_init(&f->vs, MMU_VA_ALIGN, MMU_VA_LIMIT) ||
	    mmu_va_reserve(&f->vs, RA_BASE, RA_SIZE) || mmu_va_reserve(&f->vs, RC_BASE, RC_SIZE) ||
	    mmu_va_reserve(&f->vs, RB_BASE, RB_SIZE) || mmu_va_reserve(&f->vs, RD_BASE, RD_SIZE) ||
	    mmu_va_reserve(&f->vs, RE_BASE, RE_SIZE) || mmu_va_reserve(&f->vs, RF_BASE, RF_SIZE) ||
	    mmu_va_reserve(&f->vs, RG_BASE, RG_SIZE))
		return -1;
	/* bring-up: the root is uploaded once, before the device runs */
	memset(f->gpu, GARBAGE, WIN_BYTES);
	memcpy(f->gpu, f->sh.mem, used(f));
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	mmu_va_fini(&f->vs);
	mmu_shadow_fini(&f->sh);
	free(f->gpu);
	free(f);
	return 0;
}

/* ---- operations ------------------------------------------------------------- */

static struct mmu_update_op op_map(uint64_t va, uint64_t size, uint64_t pa, unsigned int flags)
{
	struct mmu_update_op op = { .operation_type = MMU_UPDATE_MAP };

	op.map.base_address = va;
	op.map.size_in_bytes = size;
	op.map.alloc_pa = pa;
	op.map.allocation_size = size;
	op.map.flags = flags;
	return op;
}

static struct mmu_update_op op_unmap(uint64_t va, uint64_t size, enum mmu_unmap_mode mode)
{
	struct mmu_update_op op = { .operation_type = MMU_UPDATE_UNMAP };

	op.unmap.base_address = va;
	op.unmap.size_in_bytes = size;
	op.unmap.protection = mode;
	return op;
}

static struct mmu_update_op op_copy(uint64_t src, uint64_t dst, uint64_t size)
{
	struct mmu_update_op op = { .operation_type = MMU_UPDATE_COPY };

	op.copy.source_address = src;
	op.copy.size_in_bytes = size;
	op.copy.dest_address = dst;
	return op;
}

#define RW (MMU_MAP_R | MMU_MAP_W)

/* ---- the GPU side ----------------------------------------------------------- */

static uint64_t le64(const uint32_t *d, unsigned int lo)
{
	return (uint64_t)d[lo] | (uint64_t)d[lo + 1] << 32;
}

/* Execute the PTE_WRITE packets of @b on the GPU memory (REGISTERS.md:
 * entry i at DST + 8 i = FLAGS | ((BASE + i * STRIDE) & PTE.ADDR bits)). */
static void gpu_exec(struct fx *f, const struct dma_buf *b)
{
	uint64_t dst, flags, base, e;
	uint32_t stride, num, i;
	const uint32_t *p;
	size_t at;
	int k;

	for (at = 0; at < b->len; at += PIN_PTE_WRITE_DWORDS) {
		p = &b->dw[at];
		assert_int_equal(p[0], PIN_PTE_WRITE_HDR);
		assert_true(at + PIN_PTE_WRITE_DWORDS <= b->len);
		dst = le64(p, 1);
		flags = le64(p, 3);
		base = le64(p, 5);
		stride = p[7];
		num = p[8];
		assert_int_equal(num & ~PIN_ENTRIES_MASK, 0);
		assert_int_equal(flags & PIN_ADDR_BITS, 0);
		for (i = 0; i < num; i++, dst += 8) {
			assert_true(dst >= WIN_BASE && dst + 8 <= WIN_BASE + WIN_BYTES);
			e = flags | ((base + (uint64_t)i * stride) & PIN_ADDR_BITS);
			for (k = 0; k < 8; k++)
				f->gpu[dst - WIN_BASE + k] = (uint8_t)(e >> (8 * k));
		}
	}
}

/* The runs of @r put in a DMA buffer of exactly their size and executed on
 * the GPU memory; afterwards it must equal the shadow.  Tables from
 * @fresh_from on are the batch's new ones: their runs come first. */
static void gpu_apply(struct fx *f, const struct mmu_update_result *r, uint64_t fresh_from)
{
	size_t cap = r->nruns * MMU_UPDATE_RUN_DWORDS, i;
	uint32_t *dw = malloc((cap + 1) * sizeof(*dw));
	uint64_t entries = 0;
	struct dma_buf b;

	assert_non_null(dw);
	dma_buf_init(&b, dw, cap);
	assert_int_equal(mmu_update_emit(r, &b), GM_OK);
	assert_int_equal(b.len, cap);
	for (i = 0; i < r->nruns; i++) {
		assert_true(r->runs[i].num >= 1 && r->runs[i].num <= PIN_ENTRIES_MASK);
		assert_true(r->runs[i].stride == 0 || r->runs[i].stride == PG);
		if (i && r->runs[i].dst >= fresh_from && r->runs[i - 1].dst < fresh_from)
			fx_fail(f, "run %zu: a new table written after an older one", i);
		entries += r->runs[i].num;
	}
	assert_int_equal(entries, r->nentries);
	gpu_exec(f, &b);
	free(dw);
	if (memcmp(f->gpu, f->sh.mem, used(f)))
		fx_fail(f, "the runs do not reproduce the shadow");
}

/* The shadow behind a write that fails once, the @fail_at-th from now
 * (fault injection in the style of SQLite's faultsim); < 0: none fails. */
struct faulty {
	struct mmu_shadow *sh;
	long fail_at;
};

static int faulty_read(void *ctx, uint64_t pa, void *buf, size_t len)
{
	return mmu_shadow_ops.read(((struct faulty *)ctx)->sh, pa, buf, len);
}

static int faulty_write(void *ctx, uint64_t pa, const void *buf, size_t len)
{
	struct faulty *q = ctx;

	if (q->fail_at == 0) {
		q->fail_at = -1;
		return GM_ERR_HW;
	}
	if (q->fail_at > 0)
		q->fail_at--;
	return mmu_shadow_ops.write(q->sh, pa, buf, len);
}

static int faulty_alloc(void *ctx, uint64_t *pa)
{
	return mmu_shadow_ops.alloc_table(((struct faulty *)ctx)->sh, pa);
}

static const struct mmu_mem_ops faulty_ops = { faulty_read, faulty_write, faulty_alloc };

/*
 * Apply a batch with @tables tables left in the allocator and the
 * @fail_at-th write failing (< 0: no limit, none).  On success it runs on
 * the GPU memory and the result is handed back in *@out (free it) or
 * dropped; on failure nothing may have changed (tables lost to the
 * allocator are no tables any more: no run writes them).  Returns the status.
 */
static int try_batch(struct fx *f, const struct mmu_update_op *ops, size_t n, long tables,
		     long fail_at, struct mmu_update_result *out)
{
	struct faulty q = { &f->sh, fail_at };
	struct mmu_pt faulty_pt = { &faulty_ops, &q, f->pt.root_pa };
	struct mmu_update_result r, sentinel;
	size_t was = used(f);
	uint8_t *before = malloc(was);
	int st;

	assert_non_null(before);
	memcpy(before, f->sh.mem, was);
	memset(&sentinel, 0x5a, sizeof(sentinel));
	r = sentinel;
	f->pool.left = tables;
	st = mmu_update_apply(fail_at < 0 ? &f->pt : &faulty_pt, &f->vs, ops, n, &r);
	f->pool.left = -1;
	if (st == GM_OK) {
		gpu_apply(f, &r, WIN_BASE + was);
		if (out)
			*out = r;
		else
			mmu_update_result_fini(&r);
	} else {
		if ((st != GM_ERR_NO_MEM && st != GM_ERR_HW) || memcmp(&r, &sentinel, sizeof(r)) ||
		    memcmp(before, f->sh.mem, was))
			fx_fail(f, "refused with %s, or something changed (result %s, tables %s)",
				gm_status_name(st), memcmp(&r, &sentinel, sizeof(r)) ? "written" : "untouched",
				memcmp(before, f->sh.mem, was) ? "changed" : "as before");
		memcpy(f->gpu + was, f->sh.mem + was, used(f) - was);
	}
	free(before);
	return st;
}

/* A batch that must go through. */
static void batch_ok(struct fx *f, const struct mmu_update_op *ops, size_t n,
		     struct mmu_update_result *out)
{
	int st = try_batch(f, ops, n, -1, -1, out);

	if (st != GM_OK)
		fx_fail(f, "batch of %zu: %s", n, gm_status_name(st));
}

/* ---- walking both memories ---------------------------------------------------- */

static void walk_both(const struct fx *f, uint64_t va, struct mmu_xlate *x)
{
	struct mmu_xlate g;

	assert_int_equal(mmu_walk(&mmu_shadow_ops, (void *)&f->sh, f->pt.root_pa, va, false, x),
			 GM_OK);
	assert_int_equal(mmu_walk(&gpu_ops, (void *)f, f->pt.root_pa, va, false, &g), GM_OK);
	if (x->fault != g.fault || x->level != g.level || x->pa != g.pa || x->entry != g.entry ||
	    x->entry_pa != g.entry_pa || x->reads != g.reads || x->null_tile != g.null_tile ||
	    x->frag64k != g.frag64k)
		fx_fail(f, "va 0x%" PRIx64 ": shadow and GPU memory walk apart", va);
}

/* ---- the model -------------------------------------------------------------- */

enum pg_state { PG_NOACCESS, PG_ZERO, PG_MAPPED };

/* One VA page as the model sees it. */
struct pg {
	uint8_t state;   /* enum pg_state */
	uint8_t flags;   /* PG_MAPPED: MMU_MAP_R, MMU_MAP_W, MMU_MAP_SYS */
	bool frag;       /* PG_MAPPED: part of a 64 KiB fragment */
	uint64_t pa;
};

#define NRES 6   /* reservations the model holds */

static const uint64_t model_base[NRES] = { RA_BASE, RB_BASE, RD_BASE, RE_BASE, RF_BASE, RG_BASE };
static const uint64_t model_size[NRES] = { RA_SIZE, RB_SIZE, RD_SIZE, RE_SIZE, RF_SIZE, RG_SIZE };

struct model {
	struct pg *pg[NRES];   /* a page each */
};

static void model_init(struct model *m)
{
	unsigned int i;

	for (i = 0; i < NRES; i++) {
		m->pg[i] = calloc(model_size[i] / PG, sizeof(struct pg));
		assert_non_null(m->pg[i]);
	}
}

static void model_fini(struct model *m)
{
	unsigned int i;

	for (i = 0; i < NRES; i++)
		free(m->pg[i]);
}

static struct pg *model_page(struct model *m, uint64_t va)
{
	unsigned int i;

	for (i = 0; i < NRES; i++)
		if (va >= model_base[i] && va - model_base[i] < model_size[i])
			return &m->pg[i][(va - model_base[i]) / PG];
	fail_msg("va 0x%" PRIx64 " outside the model", va);
	return NULL;
}

/* A write to [va, va + size) breaks the fragments it covers in part. */
static void model_edges(struct model *m, uint64_t va, uint64_t size)
{
	uint64_t ends[2] = { va & ~(FRAG - 1), (va + size - 1) & ~(FRAG - 1) };
	unsigned int e, i;

	for (e = 0; e < 2; e++)
		if (ends[e] < va || ends[e] + FRAG > va + size)
			for (i = 0; i < FRAG / PG; i++)
				model_page(m, ends[e] + i * PG)->frag = false;
}

static void model_apply(struct model *m, const struct mmu_update_op *op)
{
	uint64_t i, n, va;
	struct pg *snap;

	switch (op->operation_type) {
	case MMU_UPDATE_MAP:
		n = op->map.size_in_bytes / PG;
		for (i = 0; i < n; i++)
			*model_page(m, op->map.base_address + i * PG) = (struct pg){
				PG_MAPPED, (uint8_t)(op->map.flags & ~MMU_MAP_FRAG64K),
				(op->map.flags & MMU_MAP_FRAG64K) != 0,
				op->map.alloc_pa + op->map.allocation_offset + i * PG };
		model_edges(m, op->map.base_address, op->map.size_in_bytes);
		break;
	case MMU_UPDATE_UNMAP:
		n = op->unmap.size_in_bytes / PG;
		for (i = 0; i < n; i++)
			*model_page(m, op->unmap.base_address + i * PG) = (struct pg){
				op->unmap.protection == MMU_UNMAP_ZERO ? PG_ZERO : PG_NOACCESS, 0,
				false, 0 };
		model_edges(m, op->unmap.base_address, op->unmap.size_in_bytes);
		break;
	default:
		n = op->copy.size_in_bytes / PG;
		snap = malloc(n * sizeof(*snap));
		assert_non_null(snap);
		for (i = 0; i < n; i++)
			snap[i] = *model_page(m, op->copy.source_address + i * PG);
		for (i = 0; i < n; i++) {
			va = op->copy.dest_address + i * PG;
			/* a fragment survives whole, block onto block */
			snap[i].frag = snap[i].frag &&
				       !((op->copy.source_address ^ op->copy.dest_address) & (FRAG - 1)) &&
				       (va & ~(FRAG - 1)) >= op->copy.dest_address &&
				       (va & ~(FRAG - 1)) + FRAG <= op->copy.dest_address + n * PG;
			*model_page(m, va) = snap[i];
		}
		free(snap);
		model_edges(m, op->copy.dest_address, op->copy.size_in_bytes);
		break;
	}
}

/* Both memories translate @va as the model says. */
static void check_page(const struct fx *f, uint64_t va, const struct pg *want)
{
	struct mmu_xlate x;
	struct mmu_pte e;
	bool ok;

	walk_both(f, va, &x);
	mmu_pte_decode(x.entry, &e);
	switch (want->state) {
	case PG_NOACCESS:
		ok = x.fault == GPU_FLT_PTE_INVALID || x.fault == GPU_FLT_PDE_INVALID;
		break;
	case PG_ZERO:
		ok = x.fault == GPU_FLT_NONE && x.null_tile;
		break;
	default:
		ok = x.level == MMU_LEAF_LEVEL && e.v && !e.prt && !(x.entry & GPU_PTE_RESERVED) &&
		     e.pa == want->pa && e.r == !!(want->flags & MMU_MAP_R) &&
		     e.w == !!(want->flags & MMU_MAP_W) && e.sys == !!(want->flags & MMU_MAP_SYS) &&
		     e.frag64k == want->frag &&
		     x.fault == (e.r ? GPU_FLT_NONE : GPU_FLT_NO_READ);
		break;
	}
	if (!ok)
		fx_fail(f, "va 0x%" PRIx64 ": model state %u pa 0x%" PRIx64 " flags %u frag %d, "
			"walk fault %d entry 0x%016" PRIx64, va, want->state, want->pa, want->flags,
			want->frag, x.fault, x.entry);
}

static void model_check(const struct fx *f, struct model *m)
{
	unsigned int r;
	uint64_t i;

	for (r = 0; r < NRES; r++)
		for (i = 0; i < model_size[r] / PG; i++)
			check_page(f, model_base[r] + i * PG, &m->pg[r][i]);
}

/* Apply a batch to the tables (and the GPU memory) and to the model. */
static void batch_model(struct fx *f, struct model *m, const struct mmu_update_op *ops, size_t n,
			struct mmu_update_result *out)
{
	size_t i;

	batch_ok(f, ops, n, out);
	for (i = 0; i < n; i++)
		model_apply(m, &ops[i]);
	model_check(f, m);
}

/* ---- DDI values --------------------------------------------------------------- */

/* D3DDDI_UPDATEGPUVIRTUALADDRESS_OPERATION_TYPE (d3dukmdt.h): MAP, UNMAP,
 * COPY, MAP_PROTECT in that order from 0. */
static void test_ddi_values(void **state)
{
	(void)state;
	assert_int_equal(MMU_UPDATE_MAP, 0);
	assert_int_equal(MMU_UPDATE_UNMAP, 1);
	assert_int_equal(MMU_UPDATE_COPY, 2);
	assert_int_equal(MMU_UPDATE_MAP_PROTECT, 3);
	assert_int_equal(GPU_PTE_ADDR(GPU_PTE_ADDR_MASK), PIN_ADDR_BITS);
	assert_int_equal(GPU_PTE_FRAG64K(1), PIN_FRAG64K);
	assert_int_equal(GPU_PTE_PRT(1), PIN_PRT);
	assert_int_equal(MMU_UPDATE_RUN_DWORDS, PIN_PTE_WRITE_DWORDS);
}

/* ---- the bad-argument table --------------------------------------------------- */

struct bad_case {
	const char *name;
	struct mmu_update_op ops[3];
	size_t n;
	int want;
};

#define MAP1(va, size, pa, fl) { op_map(va, size, pa, fl) }
#define TOP_PAGE (MMU_VA_LIMIT - PG)

static struct mmu_update_op op_map_alloc(uint64_t pa, uint64_t off, uint64_t asize, unsigned int fl)
{
	struct mmu_update_op op = op_map(RA_BASE, 2 * PG, pa, fl);

	op.map.allocation_offset = off;
	op.map.allocation_size = asize;
	return op;
}

static struct mmu_update_op op_type(unsigned int type)
{
	struct mmu_update_op op = op_unmap(RA_BASE, PG, MMU_UNMAP_ZERO);

	op.operation_type = (enum mmu_update_type)type;
	return op;
}

static void test_bad_args(void **state)
{
	struct fx *f = *state;
	const struct bad_case cases[] = {
		{ "type past COPY", { op_type(4) }, 1, GM_ERR_BAD_ARG },
		{ "MAP_PROTECT", { op_type(MMU_UPDATE_MAP_PROTECT) }, 1, GM_ERR_UNSUPPORTED },
		{ "map size 0", MAP1(RA_BASE, 0, 0, RW), 1, GM_ERR_BAD_ARG },
		{ "map va off 4 KiB", MAP1(RA_BASE + 0x800, PG, 0, RW), 1, GM_ERR_BAD_ARG },
		{ "map size off 4 KiB", MAP1(RA_BASE, 0x1800, 0, RW), 1, GM_ERR_BAD_ARG },
		{ "map pa off 4 KiB", MAP1(RA_BASE, PG, 0x800, RW), 1, GM_ERR_BAD_ARG },
		{ "frag va off 64 KiB", MAP1(RA_BASE + PG, FRAG, 0, RW | MMU_MAP_FRAG64K), 1,
		  GM_ERR_BAD_ARG },
		{ "frag size off 64 KiB", MAP1(RA_BASE, FRAG + PG, 0, RW | MMU_MAP_FRAG64K), 1,
		  GM_ERR_BAD_ARG },
		{ "frag pa off 64 KiB", MAP1(RA_BASE, FRAG, PG, RW | MMU_MAP_FRAG64K), 1,
		  GM_ERR_BAD_ARG },
		{ "frag offset off 64 KiB", { op_map_alloc(0, PG, 2 * FRAG, MMU_MAP_FRAG64K) }, 1,
		  GM_ERR_BAD_ARG },
		{ "unknown map flag", MAP1(RA_BASE, PG, 0, 1u << 4), 1, GM_ERR_BAD_ARG },
		{ "offset off 4 KiB", { op_map_alloc(0, 0x800, 4 * PG, RW) }, 1, GM_ERR_BAD_ARG },
		{ "range past the allocation", { op_map_alloc(0, PG, 2 * PG, RW) }, 1,
		  GM_ERR_BAD_ARG },
		{ "offset past the allocation", { op_map_alloc(0, 3 * PG, 2 * PG, RW) }, 1,
		  GM_ERR_BAD_ARG },
		{ "pa + offset wraps", { op_map_alloc(~(PG - 1), 2 * PG, ~0ull, RW) }, 1,
		  GM_ERR_BAD_ARG },
		{ "pa leaves VRAM", MAP1(RA_BASE, 2 * PG, MMU_APERTURE_BYTES - PG, RW), 1,
		  GM_ERR_BAD_ARG },
		{ "SYS with a VRAM pa", MAP1(RA_BASE, PG, 0x100000, RW | MMU_MAP_SYS), 1,
		  GM_ERR_BAD_ARG },
		{ "VRAM with a SYS pa", MAP1(RA_BASE, PG, GPU_SYSMEM_BASE, RW), 1, GM_ERR_BAD_ARG },
		{ "va past 2^48", MAP1(TOP_PAGE, 2 * PG, 0, RW), 1, GM_ERR_BAD_ARG },
		{ "va + size wraps", { op_unmap(~(PG - 1), 2 * PG, MMU_UNMAP_ZERO) }, 1,
		  GM_ERR_BAD_ARG },
		{ "unmap protection 2", { op_unmap(RA_BASE, PG, (enum mmu_unmap_mode)2) }, 1,
		  GM_ERR_BAD_ARG },
		{ "unmap size 0", { op_unmap(RA_BASE, 0, MMU_UNMAP_ZERO) }, 1, GM_ERR_BAD_ARG },
		{ "unmap va off 4 KiB", { op_unmap(RA_BASE + 8, PG, MMU_UNMAP_ZERO) }, 1,
		  GM_ERR_BAD_ARG },
		{ "copy size 0", { op_copy(RB_BASE, RA_BASE, 0) }, 1, GM_ERR_BAD_ARG },
		{ "copy source off 4 KiB", { op_copy(RB_BASE + 8, RA_BASE, PG) }, 1,
		  GM_ERR_BAD_ARG },
		{ "copy dest off 4 KiB", { op_copy(RB_BASE, RA_BASE + 8, PG) }, 1, GM_ERR_BAD_ARG },
		{ "copy source past 2^48", { op_copy(TOP_PAGE, RA_BASE, 2 * PG) }, 1,
		  GM_ERR_BAD_ARG },
		{ "map outside reservations", MAP1(RA_BASE - FRAG, PG, 0, RW), 1, GM_ERR_BAD_ARG },
		{ "map across two touching reservations", MAP1(RC_BASE - PG, 2 * PG, 0, RW), 1,
		  GM_ERR_BAD_ARG },
		{ "map in RA, unmap in RB",
		  { op_map(RA_BASE, PG, 0, RW), op_unmap(RB_BASE, PG, MMU_UNMAP_ZERO) }, 2,
		  GM_ERR_BAD_ARG },
		{ "map in RA, unmap in RC (touching)",
		  { op_map(RA_BASE, PG, 0, RW), op_unmap(RC_BASE, PG, MMU_UNMAP_ZERO) }, 2,
		  GM_ERR_BAD_ARG },
		{ "map in RA, copy dest in RB",
		  { op_map(RA_BASE, PG, 0, RW), op_copy(RA_BASE, RB_BASE, PG) }, 2, GM_ERR_BAD_ARG },
		{ "copy sources in RA and RB",
		  { op_copy(RA_BASE, RA_BASE + FRAG, PG), op_copy(RB_BASE, RA_BASE, PG) }, 2,
		  GM_ERR_BAD_ARG },
		{ "copy source outside reservations", { op_copy(RB_BASE - PG, RA_BASE, PG) }, 1,
		  GM_ERR_BAD_ARG },
		{ "third op bad",
		  { op_map(RA_BASE, PG, 0, RW), op_unmap(RA_BASE + PG, PG, MMU_UNMAP_ZERO),
		    op_map(RA_BASE, PG, 0x800, RW) }, 3, GM_ERR_BAD_ARG },
		/* the positive twins */
		{ "copy RB -> RA", { op_copy(RB_BASE, RA_BASE, 4 * PG) }, 1, GM_OK },
		{ "map, unmap, copy in RA; sources in RA",
		  { op_map(RA_BASE, FRAG, 0x200000, RW | MMU_MAP_FRAG64K),
		    op_unmap(RA_BASE + FRAG, PG, MMU_UNMAP_NOACCESS),
		    op_copy(RA_BASE, RA_BASE + 2 * PG, 8 * PG) }, 3, GM_OK },
		{ "copy within RC", { op_copy(RC_BASE, RC_BASE + PG, PG) }, 1, GM_OK },
		{ "map the last page of RA", MAP1(RC_BASE - PG, PG, GPU_SYSMEM_BASE,
						  MMU_MAP_R | MMU_MAP_SYS), 1, GM_OK },
		{ "map the last VRAM page", MAP1(RA_BASE, PG, MMU_APERTURE_BYTES - PG, RW), 1, GM_OK },
	};
	const struct mmu_update_op good = op_map(RA_BASE, PG, 0, RW);
	struct mmu_update_result res, sentinel;
	struct mmu_pt read_only = f->pt;   /* no write, no alloc_table */
	uint8_t *before = malloc(WIN_BYTES);
	uint64_t next;
	size_t i;
	int st;

	assert_non_null(before);
	memset(&sentinel, 0x5a, sizeof(sentinel));
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct bad_case *c = &cases[i];

		memcpy(before, f->sh.mem, WIN_BYTES);
		next = f->pool.next;
		res = sentinel;
		st = mmu_update_check(&f->vs, c->ops, c->n);
		if (st != c->want)
			fail_msg("%s: check gave %s, want %s", c->name, gm_status_name(st),
				 gm_status_name(c->want));
		if (c->want == GM_OK) {
			batch_ok(f, c->ops, c->n, NULL);
			continue;
		}
		st = mmu_update_apply(&f->pt, &f->vs, c->ops, c->n, &res);
		if (st != c->want)
			fail_msg("%s: apply gave %s, want %s", c->name, gm_status_name(st),
				 gm_status_name(c->want));
		if (memcmp(before, f->sh.mem, WIN_BYTES) || next != f->pool.next ||
		    memcmp(&res, &sentinel, sizeof(res)))
			fail_msg("%s: refused, but something changed", c->name);
	}
	/* NULL and empty arguments, around a good operation */
	memcpy(before, f->sh.mem, WIN_BYTES);
	res = sentinel;
	read_only.ops = &gpu_ops;
	assert_int_equal(mmu_update_check(NULL, &good, 1), GM_ERR_BAD_ARG);
	assert_int_equal(mmu_update_check(&f->vs, NULL, 1), GM_ERR_BAD_ARG);
	assert_int_equal(mmu_update_check(&f->vs, &good, 0), GM_ERR_BAD_ARG);
	assert_int_equal(mmu_update_apply(NULL, &f->vs, &good, 1, &res), GM_ERR_BAD_ARG);
	assert_int_equal(mmu_update_apply(&read_only, &f->vs, &good, 1, &res), GM_ERR_BAD_ARG);
	assert_int_equal(mmu_update_apply(&f->pt, NULL, &good, 1, &res), GM_ERR_BAD_ARG);
	assert_int_equal(mmu_update_apply(&f->pt, &f->vs, NULL, 1, &res), GM_ERR_BAD_ARG);
	assert_int_equal(mmu_update_apply(&f->pt, &f->vs, &good, 0, &res), GM_ERR_BAD_ARG);
	assert_int_equal(mmu_update_apply(&f->pt, &f->vs, &good, 1, NULL), GM_ERR_BAD_ARG);
	assert_memory_equal(&res, &sentinel, sizeof(res));
	assert_memory_equal(before, f->sh.mem, WIN_BYTES);
	assert_int_equal(mmu_update_check(&f->vs, &good, 1), GM_OK);
	free(before);
}

/* ---- MAP ------------------------------------------------------------------------ */

/* Four pages into an empty part of the space: three new tables, whole, and
 * the root's PDE.  L1 [0] -> L2, L2 [511] -> leaf (RA_BASE lies just below
 * 1 GiB), leaf [384..388) the pages; the zeros closing L1 and opening L2 are
 * adjacent in memory and share one run. */
static void test_map(void **state)
{
	struct fx *f = *state;
	const struct mmu_update_op op = op_map(RA_BASE, 4 * PG, 0x300000, RW);
	const uint64_t l1 = WIN_BASE + PG, l2 = l1 + PG, leaf = l2 + PG;
	struct mmu_update_result r;
	struct mmu_xlate x;
	unsigned int i;

	batch_ok(f, &op, 1, &r);
	assert_int_equal(r.tables, 3);
	assert_int_equal(r.nentries, 3 * 512 + 1);
	assert_int_equal(r.nruns, 7);
	/* L1's PDE; zeros of L1 and L2; L2's PDE; leaf zeros, pages, zeros; the root */
	assert_int_equal(r.runs[0].dst, l1);
	assert_int_equal(r.runs[0].base, l2 - GPU_VRAM_BASE);
	assert_int_equal(r.runs[1].num, 511 + 511);
	assert_int_equal(r.runs[1].flags | r.runs[1].base | r.runs[1].stride, 0);
	assert_int_equal(r.runs[2].dst, l2 + 511 * 8);
	assert_int_equal(r.runs[3].num, 384);
	assert_int_equal(r.runs[4].dst, leaf + 384 * 8);
	assert_int_equal(r.runs[4].num, 4);
	assert_int_equal(r.runs[4].stride, PG);
	assert_int_equal(r.runs[4].base, 0x300000);
	assert_int_equal(r.runs[4].flags, GPU_PTE_V(1) | GPU_PTE_R(1) | GPU_PTE_W(1));
	assert_int_equal(r.runs[5].num, 124);
	assert_int_equal(r.runs[6].dst, f->pt.root_pa);
	assert_true(r.inval);
	assert_int_equal(r.inval_start, RA_BASE >> 16);
	assert_int_equal(r.inval_end, RA_BASE >> 16);
	mmu_update_result_fini(&r);
	for (i = 0; i < 4; i++) {
		walk_both(f, RA_BASE + i * PG + 12, &x);
		assert_int_equal(x.fault, GPU_FLT_NONE);
		assert_int_equal(x.pa, 0x300000 + i * PG + 12);
	}
	walk_both(f, RA_BASE + 4 * PG, &x);
	assert_int_equal(x.fault, GPU_FLT_PTE_INVALID);

	/* the same again changes nothing: no run, nothing to invalidate */
	batch_ok(f, &op, 1, &r);
	assert_int_equal(r.nruns, 0);
	assert_int_equal(r.tables, 0);
	assert_false(r.inval);
	mmu_update_result_fini(&r);
}

/* A 64 KiB-aligned MAP with the flag gives fragment PTEs; unmapping one
 * page breaks only its block. */
static void test_map_frag64k(void **state)
{
	struct fx *f = *state;
	struct mmu_update_op op = op_map(RA_BASE + FRAG, 2 * FRAG, 0x400000, RW | MMU_MAP_FRAG64K);
	struct mmu_update_result r;
	struct mmu_xlate x;
	unsigned int i;

	batch_ok(f, &op, 1, &r);
	assert_int_equal(r.runs[3].num, 400);  /* leaf zeros, then the 32 PTEs as one run */
	assert_int_equal(r.runs[4].num, 32);
	assert_int_equal(r.runs[4].flags, GPU_PTE_V(1) | GPU_PTE_R(1) | GPU_PTE_W(1) | PIN_FRAG64K);
	mmu_update_result_fini(&r);
	for (i = 0; i < 32; i++) {
		walk_both(f, RA_BASE + FRAG + i * PG, &x);
		assert_true(x.frag64k);
		assert_int_equal(x.pa, 0x400000 + i * PG);
	}

	op = op_unmap(RA_BASE + FRAG + PG, PG, MMU_UNMAP_ZERO);
	batch_ok(f, &op, 1, &r);
	/* block 1 only: PTE 16 loses FRAG64K, 17 becomes a null tile, 18..31 lose it */
	assert_int_equal(r.nruns, 3);
	assert_int_equal(r.nentries, 16);
	assert_int_equal(r.runs[1].flags, PIN_PRT);
	assert_int_equal(r.runs[2].num, 14);
	mmu_update_result_fini(&r);
	for (i = 0; i < 32; i++) {
		walk_both(f, RA_BASE + FRAG + i * PG, &x);
		assert_int_equal(x.null_tile, i == 1);
		assert_int_equal(x.frag64k, i >= 16);
	}
}

/* Zero and NoAccess in one batch; NoAccess where no table is needs none. */
static void test_unmap(void **state)
{
	struct fx *f = *state;
	const struct mmu_update_op ops[] = {
		op_map(RA_BASE, 8 * PG, 0x500000, MMU_MAP_R),
		op_unmap(RA_BASE, 4 * PG, MMU_UNMAP_ZERO),
		op_unmap(RA_BASE + 4 * PG, 2 * PG, MMU_UNMAP_NOACCESS),
	};
	const struct mmu_update_op far = op_unmap(RB_BASE, RB_SIZE, MMU_UNMAP_NOACCESS);
	struct mmu_update_result r;
	struct mmu_xlate x;
	unsigned int i;

	batch_ok(f, ops, 3, NULL);
	for (i = 0; i < 8; i++) {
		walk_both(f, RA_BASE + i * PG, &x);
		assert_int_equal(x.fault, i < 4 ? GPU_FLT_NONE : i < 6 ? GPU_FLT_PTE_INVALID :
				 GPU_FLT_NONE);
		assert_int_equal(x.null_tile, i < 4);
		if (i >= 6)
			assert_int_equal(x.pa, 0x500000 + i * PG);
	}
	batch_ok(f, &far, 1, &r);
	assert_int_equal(r.tables, 0);
	assert_int_equal(r.nruns, 0);
	assert_false(r.inval);
	mmu_update_result_fini(&r);
	walk_both(f, RB_BASE, &x);
	assert_int_equal(x.fault, GPU_FLT_PDE_INVALID);
}

/* Operations apply in order, and a COPY sees what earlier ones did. */
static void test_in_order(void **state)
{
	struct fx *f = *state;
	const struct mmu_update_op ops[] = {
		op_map(RA_BASE, 4 * PG, 0x600000, RW),
		op_unmap(RA_BASE, 4 * PG, MMU_UNMAP_NOACCESS),
		op_map(RA_BASE + PG, PG, 0x700000, MMU_MAP_R),
		op_copy(RA_BASE, RA_BASE + 8 * PG, 4 * PG),
		op_map(RA_BASE + PG, PG, 0x800000, RW),
	};
	struct mmu_xlate x;

	batch_ok(f, ops, 5, NULL);
	walk_both(f, RA_BASE, &x);
	assert_int_equal(x.fault, GPU_FLT_PTE_INVALID);
	walk_both(f, RA_BASE + PG, &x);
	assert_int_equal(x.pa, 0x800000);
	walk_both(f, RA_BASE + 9 * PG, &x);   /* the copy took the mapping of its time */
	assert_int_equal(x.pa, 0x700000);
	walk_both(f, RA_BASE + 10 * PG, &x);
	assert_int_equal(x.fault, GPU_FLT_PTE_INVALID);
}

/* ---- COPY ----------------------------------------------------------------------- */

/* Every kind of source page lands as it was, from another reservation. */
static void test_copy(void **state)
{
	struct fx *f = *state;
	struct model m;
	const struct mmu_update_op setup_ops[] = {
		op_map(RB_BASE, 4 * PG, 0x900000, RW),
		op_map(RB_BASE + 4 * PG, 2 * PG, GPU_SYSMEM_BASE + 0x10000, MMU_MAP_R | MMU_MAP_SYS),
		op_unmap(RB_BASE + 6 * PG, PG, MMU_UNMAP_ZERO),
		op_map(RB_BASE + 8 * PG, PG, 0xa00000, 0),
	};
	const struct mmu_update_op copy = op_copy(RB_BASE, RA_BASE + 3 * PG, 10 * PG);
	struct mmu_update_result r;

	model_init(&m);
	batch_model(f, &m, setup_ops, 4, NULL);
	batch_model(f, &m, &copy, 1, &r);
	assert_int_equal(r.inval_start, (RA_BASE + 3 * PG) >> 16);
	assert_int_equal(r.inval_end, (RA_BASE + 13 * PG - 1) >> 16);
	mmu_update_result_fini(&r);
	assert_int_equal(model_page(&m, RA_BASE + 9 * PG)->state, PG_ZERO);
	assert_int_equal(model_page(&m, RA_BASE + 8 * PG)->pa, GPU_SYSMEM_BASE + 0x11000);
	model_fini(&m);
}

/* Overlapping source and destination, both ways: memmove. */
static void test_copy_overlap(void **state)
{
	struct fx *f = *state;
	struct mmu_update_op ops[8];
	const struct mmu_update_op up = op_copy(RA_BASE, RA_BASE + 2 * PG, 6 * PG);
	const struct mmu_update_op down = op_copy(RA_BASE + 2 * PG, RA_BASE, 6 * PG);
	const uint64_t pa[8] = { 0x10000, 0x23000, 0x31000, 0x47000, 0x52000, 0x6a000, 0x70000,
				 0x88000 };
	/* page i after up: which page it held before; after down: which after up */
	const unsigned int after_up[8] = { 0, 1, 0, 1, 2, 3, 4, 5 };
	const unsigned int after_down[8] = { 2, 3, 4, 5, 6, 7, 6, 7 };
	struct mmu_xlate x;
	unsigned int i;

	for (i = 0; i < 8; i++)
		ops[i] = op_map(RA_BASE + i * PG, PG, pa[i], RW);
	batch_ok(f, ops, 8, NULL);
	batch_ok(f, &up, 1, NULL);
	for (i = 0; i < 8; i++) {
		walk_both(f, RA_BASE + i * PG, &x);
		assert_int_equal(x.pa, pa[after_up[i]]);
	}
	batch_ok(f, &down, 1, NULL);
	for (i = 0; i < 8; i++) {
		walk_both(f, RA_BASE + i * PG, &x);
		assert_int_equal(x.pa, pa[after_up[after_down[i]]]);
	}
}

/* A fragment survives a block-aligned copy of whole blocks, not another. */
static void test_copy_frag(void **state)
{
	struct fx *f = *state;
	struct model m;
	const struct mmu_update_op src = op_map(RB_BASE, 2 * FRAG, 0xb00000, RW | MMU_MAP_FRAG64K);
	const struct mmu_update_op ops[] = {
		op_copy(RB_BASE, RA_BASE, 2 * FRAG),                   /* kept */
		op_copy(RB_BASE, RA_BASE + 4 * FRAG + PG, FRAG),       /* shifted: lost */
		op_copy(RB_BASE + PG, RA_BASE + 8 * FRAG + PG, FRAG),  /* aligned, no whole block */
		op_copy(RB_BASE, RA_BASE + 10 * FRAG, FRAG + PG),      /* one whole block kept */
	};
	struct mmu_xlate x;

	model_init(&m);
	batch_model(f, &m, &src, 1, NULL);
	batch_model(f, &m, ops, 4, NULL);
	walk_both(f, RA_BASE + FRAG, &x);
	assert_true(x.frag64k);
	walk_both(f, RA_BASE + 5 * FRAG, &x);
	assert_false(x.frag64k);
	walk_both(f, RA_BASE + 9 * FRAG, &x);
	assert_false(x.frag64k);
	walk_both(f, RA_BASE + 10 * FRAG + 15 * PG, &x);
	assert_true(x.frag64k);
	walk_both(f, RA_BASE + 11 * FRAG, &x);
	assert_false(x.frag64k);
	model_fini(&m);
}

/* Entries only mmu_pt_set_pte() makes: one with reserved bits is copied as
 * it is; a block one of whose PTEs claims FRAG64K is no fragment, and its
 * copy is plain pages. */
static void test_copy_hand_made(void **state)
{
	struct fx *f = *state;
	const uint64_t bad = GPU_PTE_V(1) | GPU_PTE_R(1) | GPU_PTE_ADDR(0x123) | (1ull << 40);
	const struct mmu_update_op block = op_map(RB_BASE + FRAG, FRAG, 0xd00000, RW);
	const struct mmu_update_op ops[] = {
		op_map(RA_BASE + 16 * PG, FRAG, 0xc00000, RW | MMU_MAP_FRAG64K),
		op_copy(RB_BASE, RA_BASE + 20 * PG, PG),
		op_copy(RB_BASE + FRAG, RA_BASE + 2 * FRAG, FRAG),
	};
	uint64_t pte;
	struct mmu_xlate x;
	unsigned int i;

	batch_ok(f, &block, 1, NULL);
	/* CPU writes to table memory: fault injection, mirrored by hand */
	assert_int_equal(mmu_pt_set_pte(&f->pt, RB_BASE, bad), GM_OK);
	assert_int_equal(mmu_pt_get_pte(&f->pt, RB_BASE + FRAG, &pte), GM_OK);
	assert_int_equal(mmu_pt_set_pte(&f->pt, RB_BASE + FRAG, pte | PIN_FRAG64K), GM_OK);
	memcpy(f->gpu, f->sh.mem, used(f));
	batch_ok(f, ops, 3, NULL);
	walk_both(f, RA_BASE + 20 * PG, &x);
	assert_int_equal(x.fault, GPU_FLT_RESERVED);
	assert_int_equal(x.entry, bad);
	walk_both(f, RA_BASE + 21 * PG, &x);   /* the rest of its block is 4 KiB pages now */
	assert_int_equal(x.fault, GPU_FLT_NONE);
	assert_false(x.frag64k);
	for (i = 0; i < 16; i++) {
		walk_both(f, RA_BASE + 2 * FRAG + i * PG, &x);
		assert_int_equal(x.pa, 0xd00000 + i * PG);
		assert_false(x.frag64k);
	}
}

/* ---- running out ----------------------------------------------------------------- */

/* The allocator runs dry part way through a batch whose first operation
 * already changed a table: nothing changed, and the same batch goes
 * through once tables are there. */
static void test_no_mem(void **state)
{
	struct fx *f = *state;
	const struct mmu_update_op ops[] = {
		op_map(RA_BASE, 4 * PG, 0x300000, RW),          /* beforehand: RA's tables */
		op_map(RA_BASE + 8 * PG, 4 * PG, 0x400000, RW), /* RA's leaf changes */
		op_map(1 * GIB, PG, 0x500000, RW),              /* two new tables: L2, leaf */
	};
	struct mmu_xlate x;
	size_t was;
	long left;

	batch_ok(f, ops, 1, NULL);
	for (left = 0; left < 2; left++) {
		was = used(f);
		assert_int_equal(try_batch(f, &ops[1], 2, left, -1, NULL), GM_ERR_NO_MEM);
		assert_int_equal(used(f), was + (size_t)left * PG);
		walk_both(f, RA_BASE + 8 * PG, &x);
		assert_int_equal(x.fault, GPU_FLT_PTE_INVALID);
	}
	assert_int_equal(try_batch(f, &ops[1], 2, -1, -1, NULL), GM_OK);
	walk_both(f, 1 * GIB, &x);
	assert_int_equal(x.pa, 0x500000);
}

/* Every write of a batch fails in turn, one per attempt: each attempt
 * leaves the tables as they were, until one goes through whole. */
static void test_write_fail(void **state)
{
	struct fx *f = *state;
	const struct mmu_update_op setup_ops[] = {
		op_map(RB_BASE, 4 * FRAG, 0x1000000, RW | MMU_MAP_FRAG64K),
		op_unmap(RB_BASE + FRAG, 3 * PG, MMU_UNMAP_ZERO),
	};
	const struct mmu_update_op ops[] = {
		op_map(RA_BASE + 4 * PG, 16 * PG, 0x2000000, MMU_MAP_R),
		op_copy(RB_BASE, RA_BASE + 13 * FRAG, 2 * FRAG),
		op_unmap(RA_BASE + 6 * PG, 4 * PG, MMU_UNMAP_NOACCESS),
		op_copy(RB_BASE + FRAG, RA_BASE + 2 * FRAG + PG, 3 * FRAG),
		op_map(RA_BASE + 2 * FRAG, FRAG, GPU_SYSMEM_BASE, MMU_MAP_W | MMU_MAP_SYS),
	};
	struct model m;
	long k;
	int st;

	model_init(&m);
	batch_model(f, &m, setup_ops, 2, NULL);
	for (k = 0;; k++) {
		st = try_batch(f, ops, 5, -1, k, NULL);
		if (st == GM_OK)
			break;
		assert_int_equal(st, GM_ERR_HW);
		model_check(f, &m);
	}
	print_message("  %ld writes, each failed once\n", k);
	assert_true(k > 10);
	for (k = 0; k < 5; k++)
		model_apply(&m, &ops[k]);
	model_check(f, &m);
	model_fini(&m);
}

/* ---- emitting ---------------------------------------------------------------------- */

static void test_emit(void **state)
{
	struct fx *f = *state;
	const struct mmu_update_op op = op_map(RA_BASE, 4 * PG, 0x300000, RW);
	struct mmu_update_run bad[2];
	struct mmu_update_result r, broken;
	uint32_t dw[128];
	struct dma_buf b;
	size_t need;

	assert_int_equal(mmu_update_apply(&f->pt, &f->vs, &op, 1, &r), GM_OK);
	need = r.nruns * MMU_UPDATE_RUN_DWORDS;
	assert_true(need + 2 <= 128);
	/* one dword short: GM_ERR_FULL, the buffer as it was */
	memset(dw, 0x77, sizeof(dw));
	dma_buf_init(&b, dw, need + 1);
	assert_int_equal(dma_emit_nop(&b, 1), GM_OK);
	assert_int_equal(mmu_update_emit(&r, &b), GM_ERR_FULL);
	assert_int_equal(b.len, 2);
	assert_int_equal(dw[2], 0x77777777u);
	/* exactly enough, after what the buffer held */
	dma_buf_init(&b, dw, need + 2);
	assert_int_equal(dma_emit_nop(&b, 1), GM_OK);
	assert_int_equal(mmu_update_emit(&r, &b), GM_OK);
	assert_int_equal(b.len, need + 2);
	assert_int_equal(dw[2], PIN_PTE_WRITE_HDR);
	/* a run the packet cannot carry, after a good one: nothing kept */
	bad[0] = r.runs[0];
	bad[1] = r.runs[0];
	bad[1].num = PIN_ENTRIES_MASK + 1;
	broken = r;
	broken.runs = bad;
	broken.nruns = 2;
	dma_buf_init(&b, dw, 128);
	assert_int_equal(mmu_update_emit(&broken, &b), GM_ERR_BAD_ARG);
	assert_int_equal(b.len, 0);
	assert_int_equal(mmu_update_emit(NULL, &b), GM_ERR_BAD_ARG);
	assert_int_equal(mmu_update_emit(&r, NULL), GM_ERR_BAD_ARG);
	mmu_update_result_fini(&r);
	mmu_update_result_fini(NULL);
	/* no runs: nothing appended */
	assert_int_equal(mmu_update_emit(&r, &b), GM_OK);
	assert_int_equal(b.len, 0);
}

/* ---- the shadow ---------------------------------------------------------------------- */

static int pool_outside(void *ctx, uint64_t *pa)
{
	(void)ctx;
	*pa = WIN_BASE - PG;
	return GM_OK;
}

static void test_shadow(void **state)
{
	struct mmu_shadow sh;
	uint8_t b[16];
	uint64_t pa;

	(void)state;
	assert_int_equal(mmu_shadow_init(NULL, WIN_BASE, PG, pool_outside, NULL), GM_ERR_BAD_ARG);
	assert_int_equal(mmu_shadow_init(&sh, WIN_BASE, PG, NULL, NULL), GM_ERR_BAD_ARG);
	assert_int_equal(mmu_shadow_init(&sh, WIN_BASE, 0, pool_outside, NULL), GM_ERR_BAD_ARG);
	assert_int_equal(mmu_shadow_init(&sh, WIN_BASE + 8, PG, pool_outside, NULL), GM_ERR_BAD_ARG);
	assert_int_equal(mmu_shadow_init(&sh, WIN_BASE, PG + 8, pool_outside, NULL), GM_ERR_BAD_ARG);
	assert_int_equal(mmu_shadow_init(&sh, MMU_PA_LIMIT - PG, 2 * PG, pool_outside, NULL),
			 GM_ERR_BAD_ARG);
	assert_int_equal(mmu_shadow_init(&sh, WIN_BASE, 2 * PG, pool_outside, NULL), GM_OK);
	assert_int_equal(mmu_shadow_ops.read(&sh, WIN_BASE - 8, b, 8), GM_ERR_ADDR);
	assert_int_equal(mmu_shadow_ops.read(&sh, WIN_BASE + 2 * PG - 8, b, 16), GM_ERR_ADDR);
	assert_int_equal(mmu_shadow_ops.write(&sh, WIN_BASE + 2 * PG, b, 8), GM_ERR_ADDR);
	memset(b, 0x3c, sizeof(b));
	assert_int_equal(mmu_shadow_ops.write(&sh, WIN_BASE + 2 * PG - 16, b, 16), GM_OK);
	assert_int_equal(sh.mem[2 * PG - 1], 0x3c);
	assert_int_equal(mmu_shadow_ops.alloc_table(&sh, &pa), GM_ERR_ADDR);
	mmu_shadow_fini(&sh);
	mmu_shadow_fini(NULL);
}

/* ---- 128 operations ---------------------------------------------------------------- */

/* 128 64 KiB tiles of RD, tile t at pool tile perm(t): pfnUpdateGpuVirtualAddressCb's
 * queue limit in one batch, as tiled-resource code sends it. */
static void tile_batch(struct fx *f, unsigned int mul, unsigned int add,
		       struct mmu_update_result *r)
{
	struct mmu_update_op ops[128];
	unsigned int t;

	for (t = 0; t < 128; t++)
		ops[t] = op_map(RD_BASE + t * FRAG, FRAG, 0x4000000 + ((t * mul + add) % 128) * FRAG,
				RW | MMU_MAP_FRAG64K);
	batch_ok(f, ops, 128, r);
	print_message("  128 tiles, tile t at %u t + %u: %zu runs, %" PRIu64 " entries, %u tables\n",
		      mul, add, r->nruns, r->nentries, r->tables);
}

static void test_batch_128(void **state)
{
	struct fx *f = *state;
	struct mmu_update_result r;

	/* new tables: L1 (zeros, PDE, zeros), L2 (4 PDEs, zeros), four leaves
	 * of 32 tiles each (no two tiles adjacent in memory), the root */
	tile_batch(f, 37, 1, &r);
	assert_int_equal(r.tables, 6);
	assert_int_equal(r.nruns, 3 + 2 + 128 + 1);
	assert_int_equal(r.nentries, 6 * 512 + 1);
	assert_int_equal(r.inval_start, RD_BASE >> 16);
	assert_int_equal(r.inval_end, (RD_BASE + RD_SIZE - 1) >> 16);
	mmu_update_result_fini(&r);
	/* remapped in order: the four adjacent leaves change whole, one run */
	tile_batch(f, 1, 0, &r);
	assert_int_equal(r.nruns, 1);
	assert_int_equal(r.nentries, 2048);
	mmu_update_result_fini(&r);
	/* scattered again */
	tile_batch(f, 5, 3, &r);
	assert_int_equal(r.nruns, 128);
	assert_int_equal(r.nentries, 2048);
	mmu_update_result_fini(&r);
}

/* ---- random batches against the model ------------------------------------------------ */

static uint64_t below(uint64_t *rng, uint64_t n)
{
	return tb_rand(rng) % n;
}

/* A random operation writing reservation @d (model index), reading @s. */
static struct mmu_update_op random_op(uint64_t *rng, unsigned int d, unsigned int s)
{
	bool blocks = below(rng, 3) == 0;
	uint64_t unit = blocks ? FRAG : PG, n = 1 + below(rng, blocks ? 4 : 40);
	uint64_t dn = model_size[d] / unit, sn = model_size[s] / unit, at, from, alloc;
	unsigned int kind = (unsigned int)below(rng, 3), flags;
	struct mmu_update_op op;
	int64_t shift;

	if (n > dn)
		n = dn;
	if (kind == 2 && n > sn)
		n = sn;
	at = model_base[d] + below(rng, dn - n + 1) * unit;
	if (kind == 0) {
		flags = (unsigned int)below(rng, 4) | (blocks && below(rng, 2) ? MMU_MAP_FRAG64K : 0);
		alloc = below(rng, 4096) * FRAG;
		if (below(rng, 4) == 0) {
			flags |= MMU_MAP_SYS;
			alloc += GPU_SYSMEM_BASE;
		}
		op = op_map(at, n * unit, alloc, flags);
		op.map.allocation_offset = below(rng, 16) * unit;
		op.map.allocation_size = op.map.allocation_offset + n * unit + below(rng, 3) * unit;
		return op;
	}
	if (kind == 1)
		return op_unmap(at, n * unit, below(rng, 2) ? MMU_UNMAP_ZERO : MMU_UNMAP_NOACCESS);
	from = model_base[s] + below(rng, sn - n + 1) * unit;
	if (s == d && below(rng, 2)) {   /* overlap its destination, by pages or blocks */
		shift = ((int64_t)below(rng, 2 * n + 1) - (int64_t)n) *
			(int64_t)(blocks && below(rng, 2) ? FRAG : PG);
		from = at + (uint64_t)shift;
		if (from < model_base[s] || from + n * unit > model_base[s] + model_size[s])
			from = at;
	}
	return op_copy(from, at, n * unit);
}

/* Returns whether the batch was refused (fault injection). */
static bool random_batch(struct fx *f, struct model *m, uint64_t *rng, size_t n)
{
	unsigned int d = (unsigned int)below(rng, NRES), s = (unsigned int)below(rng, NRES);
	struct mmu_update_op *ops = malloc(n * sizeof(*ops));
	size_t i;
	int st;

	assert_non_null(ops);
	for (i = 0; i < n; i++)
		ops[i] = random_op(rng, d, s);
	if (below(rng, 4)) {
		batch_model(f, m, ops, n, NULL);
		free(ops);
		return false;
	}
	/* fault injection, one kind a batch: few tables, or a write failing; a
	 * refusal changes nothing.  (Both at once can fail a restoring write,
	 * which mmu_update.h allows to leave the tables partly written.) */
	if (below(rng, 2))
		st = try_batch(f, ops, n, (long)below(rng, 3), -1, NULL);
	else
		st = try_batch(f, ops, n, -1, (long)below(rng, 24), NULL);
	for (i = 0; st == GM_OK && i < n; i++)
		model_apply(m, &ops[i]);
	model_check(f, m);
	free(ops);
	return st != GM_OK;
}

static void test_random(void **state)
{
	struct fx *f = *state;
	uint64_t rng = f->env->seed ^ 0x6d6d755f75706400ull;
	struct mmu_update_result r;
	struct mmu_update_op ops[128];
	unsigned int b, i, refused = 0;
	struct model m;

	f->test = "test_random";
	model_init(&m);
	for (b = 0; b < 1500; b++)
		refused += random_batch(f, &m, &rng, 1 + (size_t)below(&rng, 12));
	/* and one batch at the queue limit, in RA */
	for (i = 0; i < 128; i++)
		ops[i] = random_op(&rng, 0, 0);
	batch_model(f, &m, ops, 128, &r);
	print_message("  %u batches, %u refused; a random batch of 128: %zu runs, "
		      "%" PRIu64 " entries, %u tables\n", b, refused, r.nruns, r.nentries, r.tables);
	mmu_update_result_fini(&r);
	model_fini(&m);
}

/* ---- main --------------------------------------------------------------------------- */

#define T(fn) cmocka_unit_test_prestate_setup_teardown(fn, setup, teardown, &env)

int main(int argc, char **argv)
{
	struct env env = { 0, argc > 0 ? argv[0] : "test_mmu_update" };
	const char *only = getenv("GPUSIM_TEST");
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ddi_values),
		T(test_bad_args),
		T(test_map),
		T(test_map_frag64k),
		T(test_unmap),
		T(test_in_order),
		T(test_copy),
		T(test_copy_overlap),
		T(test_copy_frag),
		T(test_copy_hand_made),
		T(test_no_mem),
		T(test_write_fail),
		T(test_emit),
		cmocka_unit_test(test_shadow),
		T(test_batch_128),
		T(test_random),
	};

	env.seed = tb_seed(env.argv0);
	if (only && *only)
		cmocka_set_test_filter(only);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
