/* SPDX-License-Identifier: MIT */
/*
 * test_kmd_rand_seq.c - random sequences of the driver's calls on several
 * processes, each step checked against a small C model written for this
 * test (it shares nothing with the driver but the public call names).
 *
 * Processes: two GPU-VA processes (fw_gpuva.h: each with a reservation of
 * VA_TILES 64 KiB tiles, a monitored fence and NSLOT allocations), one
 * process on the physical, patched path (fw_kmd.h, with NSLOT allocations
 * and a BIG one that does not fit in VRAM beside the others), and a
 * throwaway process that hangs when a TDR is drawn.  Steps, drawn at random:
 *   write      a GPU-VA process writes a dword through a mapped tile
 *   map/unmap  UpdateGpuVirtualAddress: a tile onto a tile of one of the
 *              process's allocations, or to no access, behind the last
 *              rendering fence value (so in program order)
 *   fill       the patched process FILLs rows of an allocation
 *   lock       Lock (pfnLockCb, raw) of any process's allocation: the CPU
 *              reads a dword (checked) and writes one; Unlock; also right
 *              after a FILL of it was submitted (the lock waits for it)
 *   evict      the patched process FILLs all of BIG: the others are evicted
 *   tdr        a new process hangs, a write and a FILL of the others queued
 *              behind it (the FILLed allocation sometimes destroyed at once):
 *              TDR removes it alone, the others' work is resubmitted
 *   destroy    DestroyResource of an allocation (a GPU-VA process's
 *              translations into it go to no access) and a new one made;
 *              also right after a FILL of it was submitted (it waits)
 * After every step (the pipeline idle): every allocation's bytes, wherever
 * they live, equal the model's, and every tile of each GPU-VA process walks
 * (the software walker over the page tables the GPU wrote in VRAM) to where
 * the model says - the right byte of the allocation where it lives now -
 * or faults when the model says no access.
 *
 * Usage: build/tests/test_kmd_rand_seq [--count N] [--steps M]: N seeds
 * from $GPUSIM_SEED (else the clock), M steps each (defaults 2 and 24).
 * A failure prints the seed and the command that repeats it.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dma_buf.h"
#include "gpu_hw.h"
#include "kt.h"
#include "mmu_walk.h"
#include "tb_seed.h"

#define BIN "build/tests/test_kmd_rand_seq --count 1"
#define TILE (64ull << 10)
#define VA_TILES 16u          /* tiles of each GPU-VA reservation */
#define NSLOT 3u              /* allocations of each process */
#define SLOT_TILES 4u         /* tiles of each allocation */
#define BIG_BYTES (2560ull << 10)
#define NPROC 3u              /* P0, P1: GPU-VA; P2: patched (and BIG) */
#define PATCHED 2u

struct slot {
	struct kbuf kb;
	uint8_t *m;               /* the model's bytes */
	uint64_t bytes;
};

struct proc {
	struct fw_device *dev;
	uint32_t f;               /* monitored fence */
	uint64_t fv;              /* the last value its renders and updates signal */
	uint64_t va;              /* GPU-VA: the reservation */
	struct slot s[NSLOT + 1]; /* [NSLOT]: BIG (patched process only) */
	int map[VA_TILES];        /* slot * SLOT_TILES + tile, or -1: no access */
};

struct rs {
	struct kt x;
	struct proc p[NPROC];
	uint64_t seed, rng;
	unsigned step;
	const char *what;         /* the step being run, for failure messages */
};

#define RS_CHECK(r, cond, ...)                                                                  \
	do {                                                                                    \
		if (!(cond)) {                                                                  \
			printf("seed %" PRIu64 " step %u (%s): reproduce with GPUSIM_SEED=%" PRIu64 \
			       " " BIN " --steps %u\n", (r)->seed, (r)->step, (r)->what,          \
			       (r)->seed, (r)->step + 1);                                       \
			fail_msg(__VA_ARGS__);                                                  \
		}                                                                               \
	} while (0)

static uint64_t pick(struct rs *r, uint64_t n)
{
	return tb_rand(&r->rng) % n;
}

/* A new linear allocation of @bytes in slot @i of process @p, its model zero
 * (what a page-in of an allocation without content fills). */
static void slot_new(struct rs *r, struct proc *p, unsigned i, uint64_t bytes)
{
	struct slot *s = &p->s[i];

	s->kb = kbuf_new(NULL, p->dev, bytes);
	s->bytes = bytes;
	s->m = calloc(1, bytes);
	assert_non_null(s->m);
	(void)r;
}

/* Submit the packets of @b on @p (GPU VAs), signalling its next fence value. */
static int submit_va(struct rs *r, struct proc *p, const struct dma_buf *b)
{
	struct fw_cmdbuf cb = { .dw = b->dw, .ndw = (uint32_t)b->len };
	struct fw_signal sig = { p->f, p->fv + 1 };
	int st = fw_kmd_submit_cmdbuf(r->x.k, p->dev, &cb, r->x.buf, &sig);

	if (!st)
		p->fv++;
	return st;
}

/* UpdateGpuVirtualAddress of one operation on @p behind its last fence
 * value, which it signals + 1 once done: its next render signals above. */
static int update1(struct rs *r, struct proc *p, struct mmu_update_op *op, uint32_t h)
{
	struct fw_gpuva_update_args u = { .fence = p->f, .num_operations = 1, .operations = op,
					  .allocations = &h, .fence_value = p->fv };
	int st = fw_gpuva_update(r->x.k, p->dev, &u);

	if (!st)
		p->fv++;
	return st;
}

static void op_map(struct rs *r, struct proc *p)
{
	unsigned t = (unsigned)pick(r, VA_TILES), s = (unsigned)pick(r, NSLOT);
	unsigned o = (unsigned)pick(r, SLOT_TILES);
	struct mmu_update_op op = { .operation_type = MMU_UPDATE_MAP,
				    .map = { .base_address = p->va + TILE * t, .size_in_bytes = TILE,
					     .allocation_offset = TILE * o,
					     .flags = MMU_MAP_R | MMU_MAP_W } };
	int st = update1(r, p, &op, p->s[s].kb.h);

	RS_CHECK(r, st == GM_OK, "map: %s", gm_status_name(st));
	p->map[t] = (int)(s * SLOT_TILES + o);
}

static void op_unmap(struct rs *r, struct proc *p)
{
	unsigned t = (unsigned)pick(r, VA_TILES);
	struct mmu_update_op op = { .operation_type = MMU_UPDATE_UNMAP,
				    .unmap = { .base_address = p->va + TILE * t,
					       .size_in_bytes = TILE,
					       .protection = MMU_UNMAP_NOACCESS } };
	int st = update1(r, p, &op, 0);

	RS_CHECK(r, st == GM_OK, "unmap: %s", gm_status_name(st));
	p->map[t] = -1;
}

/* A dword write of @p through a mapped tile, into the model too; no mapped
 * tile: a map instead.  Not waited for. */
static void op_write(struct rs *r, struct proc *p)
{
	unsigned t = (unsigned)pick(r, VA_TILES), n = 0;
	uint32_t v = (uint32_t)tb_rand(&r->rng), dw[16];
	uint64_t off = pick(r, TILE / 4) * 4;
	struct dma_buf b;
	int st;

	while (p->map[t] < 0 && n++ < VA_TILES)
		t = (t + 1) % VA_TILES;
	if (p->map[t] < 0) {
		op_map(r, p);
		return;
	}
	dma_buf_init(&b, dw, 16);
	assert_int_equal(dma_emit_write_data(&b, p->va + TILE * t + off, &v, 1), GM_OK);
	st = submit_va(r, p, &b);
	RS_CHECK(r, st == GM_OK, "write through the VA: %s", gm_status_name(st));
	memcpy(p->s[p->map[t] / SLOT_TILES].m + TILE * (p->map[t] % SLOT_TILES) + off, &v, 4);
}

/* The patched process FILLs rows [@y, @y + @n) of slot @i with @v. */
static void fill_rows(struct rs *r, unsigned i, uint32_t y, uint32_t n, uint64_t v)
{
	struct proc *p = &r->p[PATCHED];
	int st;

	fw_umd_begin(r->x.u);
	kt_fill(r->x.u, p->s[i].kb.h, (uint64_t)y * PITCH, PITCH, n, v);
	st = kt_submit(&r->x, p->dev, p->f, p->fv + 1);
	RS_CHECK(r, st == GM_OK, "fill: %s", gm_status_name(st));
	p->fv++;
	kt_model_fill(p->s[i].m, (uint64_t)y * PITCH, PITCH, n, v);
}

static void op_fill(struct rs *r)
{
	unsigned i = (unsigned)pick(r, NSLOT);
	uint32_t rows = (uint32_t)(r->p[PATCHED].s[i].bytes / PITCH);
	uint32_t y = (uint32_t)pick(r, rows), n = 1 + (uint32_t)pick(r, rows - y);

	fill_rows(r, i, y, n, tb_rand(&r->rng));
}

/* Raw Lock of slot @i of @p: read a dword (checked against the model),
 * write another, Unlock. */
static void op_lock(struct rs *r, struct proc *p, unsigned i)
{
	struct slot *s = &p->s[i];
	uint64_t off = pick(r, s->bytes / 4) * 4, woff = pick(r, s->bytes / 4) * 4, pd = 0;
	uint32_t got = 0, want, v = (uint32_t)tb_rand(&r->rng);
	int st = kt_lock_cb(&r->x, p->dev, s->kb.h, 0, 0, NULL, &pd);

	RS_CHECK(r, st == GM_OK, "lock: %s", gm_status_name(st));
	assert_int_equal(kt_cpu_rw(&r->x, pd + off, &got, 4, false), GM_OK);
	memcpy(&want, s->m + off, 4);
	RS_CHECK(r, got == want, "lock: byte 0x%" PRIx64 " reads 0x%08x, the model 0x%08x", off, got,
		 want);
	assert_int_equal(kt_cpu_rw(&r->x, pd + woff, &v, 4, true), GM_OK);
	memcpy(s->m + woff, &v, 4);
	st = kt_unlock_cb(&r->x, p->dev, &s->kb.h, 1);
	RS_CHECK(r, st == GM_OK, "unlock: %s", gm_status_name(st));
}

static void op_destroy(struct rs *r, struct proc *p, unsigned i);

/* A new process hangs on a semaphore nobody sets, a GPU-VA write and a FILL
 * of the others queued behind it (and, one time in two, the FILLed
 * allocation destroyed at once: the destroy waits through the TDR and the
 * FILL's resubmission): TDR removes the hanging process alone. */
static void op_tdr(struct rs *r)
{
	struct fw_device *h = kt_dev_new(&r->x);
	struct kbuf sem = kbuf_new(NULL, h, PITCH);
	uint64_t tdrs = r->x.k->st.tdrs;
	unsigned i = (unsigned)pick(r, NSLOT);
	int st;

	fw_umd_begin(r->x.u);
	kt_fill(r->x.u, sem.h, 0, PITCH, 1, 0);
	assert_int_equal(fw_umd_wait_eq(r->x.u, sem.h, 0, 1), GM_OK);
	st = kt_submit(&r->x, h, 0, 0);
	RS_CHECK(r, st == GM_OK, "tdr: the hang's submit: %s", gm_status_name(st));
	op_write(r, &r->p[pick(r, 2)]);
	fill_rows(r, i, 0, (uint32_t)(SLOT_TILES * TILE / PITCH), tb_rand(&r->rng));
	if (pick(r, 2))
		op_destroy(r, &r->p[PATCHED], i);
	kt_idle(&r->x);
	RS_CHECK(r, fw_device_is_removed(h) && r->x.k->st.tdrs == tdrs + 1,
		 "tdr: the hanging process was not removed by one TDR");
	assert_int_equal(fw_kmd_device_destroy(r->x.k, h, BUDGET), GM_OK);
}

/* DestroyResource of slot @i of @p and a new allocation in its place; a
 * GPU-VA process's tiles onto it go to no access. */
static void op_destroy(struct rs *r, struct proc *p, unsigned i)
{
	int st = fw_res_destroy(p->s[i].kb.res);

	RS_CHECK(r, st == GM_OK, "destroy: %s", gm_status_name(st));
	free(p->s[i].m);
	for (unsigned t = 0; t < VA_TILES; t++)
		if (p->map[t] >= 0 && (unsigned)p->map[t] / SLOT_TILES == i)
			p->map[t] = -1;
	slot_new(r, p, i, p->s[i].bytes);
}

static int walk_read(void *ctx, uint64_t pa, void *buf, size_t len)
{
	return gm_backdoor_read(ctx, pa, buf, len);
}

/* Every tile of GPU-VA process @p walks where the model says. */
static void check_maps(struct rs *r, const struct proc *p)
{
	const struct mmu_mem_ops ops = { .read = walk_read };
	const struct fw_gpuva_space *sp = r->x.k->va->vas[fw_gpuva_vmid(r->x.k, p->dev)];

	for (unsigned t = 0; t < VA_TILES; t++) {
		uint64_t va = p->va + TILE * t + 0x1230;
		struct mmu_xlate xl;
		const struct fw_alloc *a;

		assert_int_equal(mmu_walk(&ops, r->x.t.g, sp->pt.root_pa, va, true, &xl), GM_OK);
		if (p->map[t] < 0) {
			RS_CHECK(r, xl.fault == GPU_FLT_PTE_INVALID || xl.fault == GPU_FLT_PDE_INVALID,
				 "tile %u: no access in the model, the tables give fault %d", t,
				 (int)xl.fault);
			continue;
		}
		a = p->s[p->map[t] / SLOT_TILES].kb.a;
		RS_CHECK(r, xl.fault == GPU_FLT_NONE &&
			     xl.pa == a->loc.addr + TILE * (p->map[t] % SLOT_TILES) + 0x1230,
			 "tile %u: the tables give PA 0x%" PRIx64 " (fault %d), the allocation is"
			 " at 0x%" PRIx64, t, xl.pa, (int)xl.fault, a->loc.addr);
	}
}

/* Every allocation that lives somewhere holds the model's bytes. */
static void check_bytes(struct rs *r, const struct proc *p)
{
	for (unsigned i = 0; i <= NSLOT; i++) {
		const struct slot *s = &p->s[i];
		uint8_t *got;

		if (!s->m || s->kb.a->loc.seg_id == FW_SEG_NONE)
			continue;
		got = malloc(s->bytes);
		assert_non_null(got);
		kt_read_alloc(&r->x, s->kb.a, got);
		for (uint64_t o = 0; o < s->bytes; o++)
			if (got[o] != s->m[o]) {
				free(got);
				RS_CHECK(r, false, "allocation %u of process %u (at 0x%" PRIx64
					 "): byte 0x%" PRIx64 " differs from the model", i,
					 (unsigned)(p - r->p), s->kb.a->loc.addr, o);
			}
		free(got);
	}
}

static void check(struct rs *r)
{
	kt_idle(&r->x);
	for (unsigned i = 0; i < NPROC; i++) {
		RS_CHECK(r, !fw_device_is_removed(r->p[i].dev), "process %u was removed", i);
		check_bytes(r, &r->p[i]);
		if (i != PATCHED)
			check_maps(r, &r->p[i]);
	}
}

static void rs_open(struct rs *r)
{
	kt_open_pt(&r->x, 3ull << 20, 15ull << 20, 400000);
	for (unsigned i = 0; i < NPROC; i++) {
		struct proc *p = &r->p[i];

		p->dev = kt_dev_new(&r->x);
		p->f = kt_mfence_new(&r->x, p->dev, 0);
		for (unsigned t = 0; t < VA_TILES; t++)
			p->map[t] = -1;
		for (unsigned s = 0; s < NSLOT; s++)
			slot_new(r, p, s, SLOT_TILES * TILE);
		if (i == PATCHED) {
			slot_new(r, p, NSLOT, BIG_BYTES);
			continue;
		}
		assert_int_equal(fw_gpuva_enable(r->x.k, p->dev), GM_OK);
		{
			struct fw_gpuva_reserve_args a = { .minimum_address = 1ull << 32,
							   .size = VA_TILES * TILE };

			assert_int_equal(fw_gpuva_reserve(r->x.k, p->dev, &a), GM_OK);
			p->va = a.virtual_address;
		}
	}
}

static void rs_close(struct rs *r)
{
	kt_close(&r->x);
	for (unsigned i = 0; i < NPROC; i++)
		for (unsigned s = 0; s <= NSLOT; s++)
			free(r->p[i].s[s].m);
}

/* One random step. */
static void step(struct rs *r)
{
	struct proc *va = &r->p[pick(r, 2)], *any = &r->p[pick(r, NPROC)];
	unsigned k = (unsigned)pick(r, 100);

	if (k < 25) {
		r->what = "write";
		op_write(r, va);
	} else if (k < 40) {
		r->what = "map";
		op_map(r, va);
	} else if (k < 45) {
		r->what = "unmap";
		op_unmap(r, va);
	} else if (k < 60) {
		r->what = "fill";
		op_fill(r);
	} else if (k < 68) {
		r->what = "lock";
		op_lock(r, any, (unsigned)pick(r, NSLOT));
	} else if (k < 75) {
		unsigned i = (unsigned)pick(r, NSLOT);
		uint32_t rows = (uint32_t)(SLOT_TILES * TILE / PITCH);

		/* the lock comes while the FILL is pending: it waits for it */
		r->what = "fill, then lock at once";
		fill_rows(r, i, 0, rows, tb_rand(&r->rng));
		op_lock(r, &r->p[PATCHED], i);
	} else if (k < 85) {
		r->what = "evict";
		fill_rows(r, NSLOT, 0, (uint32_t)(BIG_BYTES / PITCH), tb_rand(&r->rng));
	} else if (k < 92) {
		r->what = "tdr";
		op_tdr(r);
	} else if (k < 96) {
		r->what = "destroy";
		kt_idle(&r->x); /* a GPU-VA process's mapped allocation goes when it is idle */
		op_destroy(r, any, (unsigned)pick(r, NSLOT));
	} else {
		unsigned i = (unsigned)pick(r, NSLOT);

		/* DestroyResource while a FILL of it is pending: it waits for it */
		r->what = "fill, then destroy at once";
		fill_rows(r, i, 0, 1, tb_rand(&r->rng));
		op_destroy(r, &r->p[PATCHED], i);
	}
}

static unsigned g_count = 2, g_steps = 24;

static void test_rand_seq(void **state)
{
	uint64_t seed0 = tb_seed(BIN);

	(void)state;
	for (unsigned c = 0; c < g_count; c++) {
		struct rs *r = calloc(1, sizeof(*r));

		assert_non_null(r);
		r->seed = r->rng = seed0 + c;
		printf("seed %" PRIu64 ": %u steps (GPUSIM_SEED=%" PRIu64 " " BIN ")\n", r->seed,
		       g_steps, r->seed);
		rs_open(r);
		r->what = "set-up";
		check(r);
		for (r->step = 0; r->step < g_steps; r->step++) {
			step(r);
			check(r);
		}
		printf("seed %" PRIu64 ": %u steps checked, %" PRIu64 " TDRs, %" PRIu64
		       " evictions, %" PRIu64 " page-ins\n", r->seed, g_steps, r->x.k->st.tdrs,
		       r->x.k->st.evictions, r->x.k->st.page_ins);
		rs_close(r);
		free(r);
	}
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rand_seq),
	};

	for (int i = 1; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "--count"))
			g_count = (unsigned)strtoul(argv[i + 1], NULL, 0);
		else if (!strcmp(argv[i], "--steps"))
			g_steps = (unsigned)strtoul(argv[i + 1], NULL, 0);
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
