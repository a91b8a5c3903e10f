/* SPDX-License-Identifier: MIT */
/*
 * rand_prog.c - the random program generator (see rand_prog.h): page
 * tables, surfaces, packets, IBs and rings of a seeded program, and the
 * ranges it leaves to timing.  The memory map is rand_map.h's; loading and
 * running a program on a model is rand_prog_run.c's.
 */
#include <string.h>

#include "dma_buf.h"
#include "gpu_hw.h"
#include "gpu_tile.h"
#include "rand_map.h"
#include "rand_prog.h"
#include "tb_seed.h"

struct gen {
	struct rand_prog *p;
	uint64_t rng;
	bool good[RP_VMIDS][CHUNKS];   /* every page of the chunk maps RW (src: R) */
	unsigned sem_writes;           /* WRITE_DATAs of the semaphore by queue 1 */
	unsigned sem_waited;           /* the highest value queue 0 waits for */
	unsigned opts;                 /* RP_OPT_* */
	uint32_t fences[2];
	bool ended[2];                 /* the queue's program stops here */
};

static uint32_t rnd(struct gen *g, uint32_t n)
{
	return n ? (uint32_t)(tb_rand(&g->rng) % n) : 0;
}

static bool chance(struct gen *g, unsigned percent)
{
	return rnd(g, 100) < percent;
}

static uint64_t pte(uint64_t pa, uint64_t flags)
{
	uint64_t frame = pa >= SYS ? pa - SYS : pa;

	return flags | (pa >= SYS ? PTE_SYS : 0) |
	       (((frame >> GPU_PAGE_SHIFT) & GPU_PTE_ADDR_MASK) << GPU_PTE_ADDR_SHIFT);
}

/* Leaf entry @i (4 KiB page of VA [0, 4 MiB)) of VMID @v. */
static uint64_t *leaf(struct gen *g, unsigned v, unsigned i)
{
	return &g->p->pt[v][3 + i / 512][i % 512];
}

/* ------------------------------------------------------------ page tables */

/* Fill chunk @c of VMID @v with one of the mixes; true if all RW. */
static bool map_chunk(struct gen *g, unsigned v, unsigned c, uint64_t pa, unsigned kind)
{
	bool good = true, broken = false;

	for (unsigned i = 0; i < 16; i++) {
		uint64_t *e = leaf(g, v, c * 16 + i), a = pa + i * 4096ull;

		switch (kind) {
		case 0: { /* 4 KiB pages, mostly RW */
			unsigned r = rnd(g, 100);

			if (r < 90) {
				*e = pte(a, PTE_V | PTE_R | PTE_W);
			} else if (r < 93) {
				*e = pte(a, PTE_V | PTE_R);
				good = false;
			} else if (r < 96) {
				*e = PTE_PRT | ((g->opts & RP_OPT_NULL_FRAG) && chance(g, 50) ? PTE_FRAG : 0);
				good = false;
			} else if (r < 98) {
				*e = 0;
				good = false;
			} else {
				*e = pte(a, PTE_V | PTE_R | PTE_W) | 1ull << 6; /* reserved */
				good = false;
			}
			break;
		}
		case 1:
			*e = pte(a, PTE_V | PTE_R | PTE_W | PTE_FRAG);
			if ((g->opts & RP_OPT_NULL_FRAG) && chance(g, 10)) {
				*e = PTE_PRT | PTE_FRAG; /* a null tile among the fragment's pages */
				good = false;
				broken = true;
			}
			break;
		case 2: *e = PTE_PRT; good = false; break;
		case 3: *e = 0; good = false; break;
		case 5: *e = pte(a, PTE_V | PTE_R | PTE_W); break;
		default: *e = pte(a, PTE_V | PTE_R | PTE_FRAG); good = false; break;
		}
	}
	/* A null tile among a fragment's pages breaks the FRAG64K rule (the 16
	 * PTEs of a block agree): whether an access to that page reads zero or
	 * the fragment's memory depends on which PTE the TLB last cached, i.e.
	 * on the order of the walks (undefined for software, mmu/mmu_walk.h),
	 * so the whole 64 KiB the fragment names is left out of the compare. */
	if (broken && g->p->nunc < RP_MAX_UNCERTAIN) {
		g->p->unc[g->p->nunc].pa = pa;
		g->p->unc[g->p->nunc].len = 16 * 4096;
		g->p->nunc++;
	} else if (broken) {
		g->p->unc_all = true;
	}
	return good;
}

static void map_pages(struct gen *g, unsigned v, uint64_t va_off, uint64_t pa, unsigned pages)
{
	for (unsigned i = 0; i < pages; i++)
		*leaf(g, v, (unsigned)(va_off >> 12) + i) = pte(pa + i * 4096ull, PTE_V | PTE_R | PTE_W);
}

static void build_tables(struct gen *g)
{
	for (unsigned v = 1; v < RP_VMIDS; v++) {
		unsigned perm[32];

		g->p->pt[v][0][(VA0 >> 39) & 511] = pte(PT_PA(v, 1), PTE_V);
		g->p->pt[v][1][(VA0 >> 30) & 511] = pte(PT_PA(v, 2), PTE_V);
		g->p->pt[v][2][0] = pte(PT_PA(v, 3), PTE_V);
		g->p->pt[v][2][1] = pte(PT_PA(v, 4), PTE_V);
		g->p->pt[v][2][2] = pte(PT_PA(v, 4), PTE_V) | 1ull << 8; /* reserved: faults */
		for (unsigned c = 0; c < DST_C0; c++) {
			/* read-only: 64 KiB fragments or 4 KiB pages; good: every
			 * page reads defined bytes (with --null-frag a fragment may
			 * hold a null tile, and what a copy reads from it depends on
			 * the TLB: its destination is then uncertain, emit_ce) */
			g->good[v][c] = map_chunk(g, v, c, SRC_PA + c * CHUNK, chance(g, 50) ? 1 : 5);
			for (unsigned i = 0; i < 16; i++)
				*leaf(g, v, c * 16 + i) &= ~PTE_W;
		}
		for (unsigned i = 0; i < 32; i++)
			perm[i] = i;
		for (unsigned i = 31; i > 0; i--) {
			unsigned j = rnd(g, i + 1), t = perm[i];

			perm[i] = perm[j];
			perm[j] = t;
		}
		for (unsigned c = DST_C0; c < CHUNKS; c++) {
			unsigned r = rnd(g, 100), kind = r < 55 ? 0 : r < 85 ? 1 : r < 90 ? 2 : r < 95 ? 3 : 4;

			g->good[v][c] = map_chunk(g, v, c, DST_PA(v) + perm[c - DST_C0] * CHUNK, kind);
		}
		map_pages(g, v, SEM_VA - VA0, SEM_PA, 1);
		map_pages(g, v, TS_VA - VA0, TS_PA(v), 1);
		map_pages(g, v, FENCE_VA - VA0, FENCE_PA, 1);
		map_pages(g, v, IB_VA - VA0, IB_PA(v == 1 ? 0 : 1), 64);
	}
}

/* ------------------------------------------------------------ addresses */

/* A destination chunk of VMID @v: a good one, or (risky) any. */
static unsigned pick_dst(struct gen *g, unsigned v, bool *risky)
{
	unsigned c = DST_C0 + rnd(g, CHUNKS - DST_C0);

	if (chance(g, g->opts & RP_OPT_NULL_FRAG ? 40 : 8)) {
		*risky = !g->good[v][c];
		return c;
	}
	for (unsigned tries = 0; tries < 64 && !g->good[v][c]; tries++)
		c = DST_C0 + rnd(g, CHUNKS - DST_C0);
	*risky = !g->good[v][c];
	return c;
}

static uint64_t chunk_va(unsigned c)
{
	return VA0 + (uint64_t)c * CHUNK;
}

/* A surface of random layout that fits one chunk at @base. */
static void pick_surf(struct gen *g, struct dma_surf *s, uint64_t base, unsigned bpe, uint32_t *rows)
{
	struct gpu_tile_info ti;
	unsigned mode = rnd(g, 4);

	(void)gpu_tile_info(mode, bpe, &ti);
	s->base = base;
	s->mode = (uint8_t)mode;
	s->bpe_log2 = (uint8_t)bpe;
	if (mode == GPU_TILE_LINEAR) {
		s->pitch = ((1u + rnd(g, 1024)) << bpe) & 0xfffffu;
		if (s->pitch > 4096)
			s->pitch = 4096;
		*rows = CHUNK / s->pitch;
		if (*rows > 64)
			*rows = 1 + rnd(g, 64);
	} else if (ti.tile_bytes == CHUNK) {
		s->pitch = ti.tile_w_bytes;
		*rows = ti.tile_h_rows;
	} else {
		unsigned k = 1 + rnd(g, 4), m = 1 + rnd(g, 16 / k);

		s->pitch = ti.tile_w_bytes * k;
		*rows = ti.tile_h_rows * m;
	}
	s->x = 0;
	s->y = 0;
}

/* A rectangle of at most 64 x 32 elements inside both surfaces. */
static void pick_rect(struct gen *g, struct dma_surf *a, uint32_t ra, struct dma_surf *b, uint32_t rb,
		      uint32_t *w, uint32_t *h)
{
	uint32_t ea = a->pitch >> a->bpe_log2, eb = b ? b->pitch >> b->bpe_log2 : ea;
	uint32_t hb = b ? rb : ra;

	a->x = (uint16_t)rnd(g, ea);
	a->y = (uint16_t)rnd(g, ra);
	*w = 1 + rnd(g, ea - a->x < 64 ? ea - a->x : 64);
	*h = 1 + rnd(g, ra - a->y < 32 ? ra - a->y : 32);
	if (!b)
		return;
	if (*w > eb)
		*w = eb;
	if (*h > hb)
		*h = hb;
	b->x = (uint16_t)rnd(g, eb - *w + 1);
	b->y = (uint16_t)rnd(g, hb - *h + 1);
}

/* The physical extent of destination chunk @c of VMID @v, uncertain. */
static void uncertain(struct gen *g, unsigned v, unsigned c)
{
	struct rand_prog *p = g->p;
	if (p->nunc == RP_MAX_UNCERTAIN) {
		p->unc_all = true;
		return;
	}
	/* a chunk's pages all live in its area's 2 MiB; be coarse and exact:
	 * list every physical 4 KiB page its entries name */
	for (unsigned i = 0; i < 16 && p->nunc < RP_MAX_UNCERTAIN; i++) {
		uint64_t e = *leaf(g, v, c * 16 + i);
		uint64_t pa = ((e >> GPU_PTE_ADDR_SHIFT) & GPU_PTE_ADDR_MASK) << GPU_PAGE_SHIFT;

		if (!(e & PTE_V) || (e & PTE_SYS))
			continue;
		if (p->nunc && p->unc[p->nunc - 1].pa + p->unc[p->nunc - 1].len == pa) {
			p->unc[p->nunc - 1].len += 4096;
			continue;
		}
		p->unc[p->nunc].pa = pa;
		p->unc[p->nunc].len = 4096;
		p->nunc++;
	}
	if (p->nunc == RP_MAX_UNCERTAIN)
		p->unc_all = true;
}

/* ------------------------------------------------------------ packets */

static void emit_write(struct gen *g, struct dma_buf *b, unsigned v, bool end_ok)
{
	uint32_t d[8], n = 1 + rnd(g, 8);
	bool risky;
	unsigned c = pick_dst(g, v, &risky);
	uint64_t a;

	if (risky && !end_ok)
		return;
	a = chunk_va(c) + ((rnd(g, CHUNK - 32)) & ~3u);
	for (unsigned i = 0; i < n; i++)
		d[i] = (uint32_t)tb_rand(&g->rng);
	if (dma_emit_write_data(b, a, d, n) == GM_OK) {
		g->p->pkts++;
		if (risky) {
			g->p->risky++;
			g->ended[v == 1 ? 0 : 1] = true; /* a posted write may fault: nothing after it */
		}
	}
}

static void emit_ce(struct gen *g, struct dma_buf *b, unsigned v)
{
	bool risky, rsrc = false;
	unsigned c = pick_dst(g, v, &risky), op = rnd(g, 3), bpe = rnd(g, 5);
	struct dma_surf d, s;
	uint32_t rd, rs, w, h;
	int st;

	if (op == 0) {
		uint32_t bytes = 1 + rnd(g, chance(g, 20) ? 32768 : 4096), so, doff;
		unsigned sc = rnd(g, DST_C0);

		rsrc = !g->good[v][sc];
		so = rnd(g, CHUNK - bytes + 1);
		doff = rnd(g, CHUNK - bytes + 1);
		st = dma_emit_copy(b, chunk_va(c) + doff, chunk_va(sc) + so, bytes);
	} else if (op == 1) {
		pick_surf(g, &d, chunk_va(c), bpe, &rd);
		pick_rect(g, &d, rd, NULL, 0, &w, &h);
		st = dma_emit_fill(b, &d, w, h, tb_rand(&g->rng));
	} else {
		unsigned sc = rnd(g, DST_C0);

		if (chance(g, 30)) { /* from one of its own chunks */
			sc = pick_dst(g, v, &rsrc);
			if (sc == c)
				sc = rnd(g, DST_C0);
		}
		if (sc < DST_C0)
			rsrc = !g->good[v][sc];
		pick_surf(g, &s, chunk_va(sc), bpe, &rs);
		pick_surf(g, &d, chunk_va(c), bpe, &rd);
		pick_rect(g, &s, rs, &d, rd, &w, &h);
		st = dma_emit_blt(b, &d, &s, w, h);
	}
	if (st != GM_OK)
		return;
	g->p->pkts++;
	if (risky || rsrc) {
		g->p->risky++;
		uncertain(g, v, c);
	}
}

/* WAIT_MEM on the queue's own fence word, which holds @val: a compare that holds. */
static void emit_wait_local(struct gen *g, struct dma_buf *b, uint32_t val, bool q1)
{
	unsigned f = rnd(g, 7);
	uint64_t ref = val;

	switch (f) {
	case GPU_FUNC_LT: ref = val + 1 + rnd(g, 5); break;
	case GPU_FUNC_LE: ref = val + rnd(g, 5); break;
	case GPU_FUNC_NE: ref = val + 1; break;
	case GPU_FUNC_GE: ref = val - (val ? rnd(g, val + 1) : 0); break;
	case GPU_FUNC_GT: if (!val) f = GPU_FUNC_ALWAYS; else ref = val - 1 - rnd(g, val); break;
	default: break;
	}
	if (dma_emit_wait_mem(b, FENCE_VA + (q1 ? 0x40 : 0), ref, q1 ? ~0ull : 0xffffffffull,
			      (enum gpu_wait_func)f, q1, (uint16_t)rnd(g, 32)) == GM_OK)
		g->p->pkts++;
}

/* A packet the hardware refuses; the queue halts on it. */
static void emit_bad(struct gen *g, struct dma_buf *b, unsigned v, bool priv_ib)
{
	uint32_t d[12];
	unsigned k = rnd(g, 13);

	memset(d, 0, sizeof(d));
	switch (k) {
	case 0: d[0] = 2u << 30 | GPU_OP_NOP << 8; (void)dma_emit_raw(b, d, 1); break;
	case 1: d[0] = GPU_PKT_HDR(0xee, 0); (void)dma_emit_raw(b, d, 1); break;
	case 2: d[0] = GPU_PKT_HDR(GPU_OP_TIMESTAMP, 3); d[1] = (uint32_t)TS_VA; d[2] = TS_VA >> 32;
		(void)dma_emit_raw(b, d, 4); break;
	case 3: d[0] = GPU_PKT_HDR(GPU_OP_RELEASE_FENCE, 5); d[1] = (uint32_t)TS_VA;
		d[2] = TS_VA >> 32; d[5] = 1u << 7; (void)dma_emit_raw(b, d, 6); break;
	case 4: d[0] = GPU_PKT_HDR(GPU_OP_WRITE_DATA, 3); d[1] = (uint32_t)TS_VA + 2;
		d[2] = TS_VA >> 32; (void)dma_emit_raw(b, d, 4); break;
	case 5:
		if (priv_ib) { /* a nested IB instead */
			(void)dma_emit_indirect_buffer(b, IB_VA, 4);
		} else {
			(void)dma_emit_pte_write(b, TS_VA, 0, 0, 0, 1);
		}
		break;
	case 6: (void)dma_emit_indirect_buffer(b, IB_VA, 4); break;
	case 7: d[0] = GPU_PKT_HDR(GPU_OP_WAIT_MEM, 7); d[1] = (uint32_t)TS_VA; d[2] = TS_VA >> 32;
		d[7] = 7; (void)dma_emit_raw(b, d, 8); break;
	case 9: /* WAIT_MEM misaligned */
		d[0] = GPU_PKT_HDR(GPU_OP_WAIT_MEM, 7); d[1] = (uint32_t)FENCE_VA + 2; d[2] = FENCE_VA >> 32;
		(void)dma_emit_raw(b, d, 8); break;
	case 10: /* TIMESTAMP with a reserved ADDR_HI bit */
		d[0] = GPU_PKT_HDR(GPU_OP_TIMESTAMP, 2); d[1] = (uint32_t)TS_VA; d[2] = (TS_VA >> 32) | 1u << 20;
		(void)dma_emit_raw(b, d, 3); break;
	case 11: { /* a write under a PDE with a reserved bit, or an invalid PDE */
		uint32_t v1 = 1;

		(void)dma_emit_write_data(b, chance(g, 50) ? VA0 + 0x400000 : VA0 + 0x40000000, &v1, 1);
		break;
	}
	default: d[0] = GPU_PKT_HDR(GPU_OP_NOP, 0x3000); (void)dma_emit_raw(b, d, 1); break; /* overruns its IB */
	}
	(void)v;
	g->p->malformed++;
	g->p->pkts++;
}

/* The body of one ordinary IB of VMID @v on queue @q. */
static void gen_ib_body(struct gen *g, struct dma_buf *b, unsigned q, unsigned v)
{
	unsigned n = 1 + rnd(g, 10);

	for (unsigned i = 0; i < n && !g->ended[q]; i++) {
		unsigned r = rnd(g, 100);

		if (b->cap - b->len < 64)
			break;
		if (rnd(g, 1000) < 15) {
			emit_bad(g, b, v, false);
			g->ended[q] = true;
		} else if (r < 25) {
			emit_write(g, b, v, i + 1 == n);
		} else if (r < 65) {
			emit_ce(g, b, v);
		} else if (r < 72) {
			if (dma_emit_timestamp(b, TS_VA + 8 * rnd(g, 32)) == GM_OK)
				g->p->pkts++;
		} else if (r < 80) {
			if (dma_emit_nop(b, rnd(g, 6)) == GM_OK)
				g->p->pkts++;
		} else if (r < 88) {
			emit_wait_local(g, b, g->fences[q], q == 1);
		} else if (q == 1) {
			uint32_t s = ++g->sem_writes;

			if (dma_emit_write_data(b, SEM_VA, &s, 1) == GM_OK)
				g->p->pkts++;
		} else if (g->sem_waited < g->sem_writes) {
			g->sem_waited += 1 + rnd(g, g->sem_writes - g->sem_waited);
			if (dma_emit_wait_mem(b, SEM_VA, g->sem_waited, 0xffffffffu, GPU_FUNC_GE, false,
					      (uint16_t)rnd(g, 64)) == GM_OK)
				g->p->pkts++;
		}
	}
}

/* A physical privileged IB of queue 1: a chunk of VMID 3 remapped. */
static void gen_paging_ib(struct gen *g, struct dma_buf *b)
{
	unsigned c = DST_C0 + rnd(g, CHUNKS - DST_C0), kind = rnd(g, 4);
	uint64_t dst = PT_PA(3, 3 + (c * 16) / 512) + 8ull * ((c * 16) % 512);
	uint64_t pa = DST_PA(3) + rnd(g, 32) * (uint64_t)CHUNK, flags = 0;
	uint32_t stride = 4096;
	uint64_t base = pa;

	switch (kind) {
	case 0: flags = PTE_V | PTE_R | PTE_W | PTE_FRAG; break;
	case 1: flags = PTE_V | PTE_R | PTE_W; break;
	case 2: flags = PTE_PRT; base = 0; stride = 0; break;
	default: flags = 0; base = 0; stride = 0; break;
	}
	if (chance(g, 6)) { /* refused: PTE_WRITE misaligned, INVALIDATE_TLB reserved bits */
		uint32_t d[9] = { GPU_PKT_HDR(GPU_OP_PTE_WRITE, 8), (uint32_t)dst + 4, (uint32_t)(dst >> 32),
				  0, 0, 0, 0, 0, 1 };

		if (chance(g, 50)) {
			(void)dma_emit_raw(b, d, 9);
		} else {
			d[0] = GPU_PKT_HDR(GPU_OP_INVALIDATE_TLB, 3);
			d[1] = 3u | 1u << 8;
			(void)dma_emit_raw(b, d, 4);
		}
		g->p->malformed++;
		g->ended[1] = true;
		return;
	}
	if (dma_emit_pte_write(b, dst, flags, base, stride, 16) != GM_OK)
		return;
	for (unsigned i = 0; i < 16; i++)
		*leaf(g, 3, c * 16 + i) = flags | (((base + i * (uint64_t)stride) >> 12 & GPU_PTE_ADDR_MASK)
						    << GPU_PTE_ADDR_SHIFT);
	g->good[3][c] = kind < 2;
	if (chance(g, 50))
		(void)dma_emit_invalidate_tlb(b, 3, false, (uint32_t)(chunk_va(c) >> 16),
					      (uint32_t)(chunk_va(c) >> 16));
	else
		(void)dma_emit_invalidate_tlb(b, 0, true, 0, 0xffffffffu);
	if (chance(g, 50)) {
		struct dma_surf s = { .base = SCR_PA + rnd(g, 3) * (uint64_t)CHUNK, .pitch = 1024 };
		uint32_t w = 1 + rnd(g, 1024), h = 1 + rnd(g, 32);

		(void)dma_emit_fill(b, &s, w, h, tb_rand(&g->rng));
	}
	g->p->pkts += 2;
}

/* ------------------------------------------------------------ rings */

static void ring_emit(struct gen *g, unsigned q, const uint32_t *d, size_t n)
{
	struct rand_prog *p = g->p;

	for (size_t i = 0; i < n && p->wptr[q] + 1 < (1u << RP_RING_LOG2); i++)
		p->ring[q][p->wptr[q]++] = d[i];
}

/* One IB of queue @q and the fence after it. */
static void gen_ib(struct gen *g, unsigned q)
{
	struct rand_prog *p = g->p;
	uint32_t d[16], start = p->ibw[q], vmid, priv = 0;
	struct dma_buf ib, r;
	uint64_t ib_addr;
	bool paging = q == 1 && chance(g, 25);
	unsigned sem0 = g->sem_writes;

	if (RP_IB_DW - start < 512)
		return;
	dma_buf_init(&ib, &p->ib[q][start], 512);
	vmid = q == 0 ? 1 : paging ? 0 : 2 + rnd(g, 2);
	if (paging) {
		priv = 1;
		gen_paging_ib(g, &ib);
	} else {
		gen_ib_body(g, &ib, q, vmid);
	}
	if (!ib.len)
		(void)dma_emit_nop(&ib, 0);
	p->ibw[q] += (uint32_t)((ib.len + 7u) & ~7u);
	ib_addr = vmid ? IB_VA + 4ull * start : IB_PA(q) + 4ull * start;
	dma_buf_init(&r, d, 16);
	if (chance(g, 25)) { /* a packet in the ring itself (physical) */
		uint32_t v = (uint32_t)tb_rand(&g->rng);

		if (chance(g, 50))
			(void)dma_emit_write_data(&r, FENCE_PA + 0x100 + 0x40 * q + 4 * rnd(g, 16), &v, 1);
		else
			(void)dma_emit_nop(&r, rnd(g, 3));
		ring_emit(g, q, d, r.len);
		g->p->pkts++;
		dma_buf_init(&r, d, 16);
	}
	if (chance(g, 1)) { /* ring-level errors: an empty IB, or one in unmapped VA */
		g->sem_writes = sem0; /* the body never runs */
		if (chance(g, 50)) {
			uint32_t bad[4] = { GPU_PKT_HDR(GPU_OP_INDIRECT_BUFFER, 3), (uint32_t)ib_addr,
					    (uint32_t)(ib_addr >> 32),
					    GPU_PKT_INDIRECT_BUFFER_VMID(vmid) | GPU_PKT_INDIRECT_BUFFER_PRIV(priv) };

			(void)dma_emit_raw(&r, bad, 4);
		} else
			(void)dma_emit_indirect_buffer_ctx(&r, VA0 + 0x3f0000, (uint32_t)ib.len, 1, false);
		p->malformed++;
		g->ended[q] = true;
	} else {
		(void)dma_emit_indirect_buffer_ctx(&r, ib_addr, (uint32_t)ib.len, vmid, priv);
	}
	ring_emit(g, q, d, r.len);
	if (g->ended[q])
		return;
	dma_buf_init(&r, d, 16);
	g->fences[q]++;
	(void)dma_emit_release_fence(&r, FENCE_PA + 0x40 * q, g->fences[q], q == 1, chance(g, 50));
	ring_emit(g, q, d, r.len);
}

int rand_prog_build(struct rand_prog *p, uint64_t seed, unsigned opts)
{
	struct gen g;
	unsigned nib[2];

	memset(p, 0, sizeof(*p));
	memset(&g, 0, sizeof(g));
	p->seed = seed;
	g.p = p;
	g.rng = seed;
	g.opts = opts;
	for (size_t i = 0; i < RP_SRC_BYTES; i += 8) {
		uint64_t v = tb_rand(&g.rng);

		memcpy(p->src + i, &v, 8);
	}
	gm_config_default(&p->cfg);
	if (chance(&g, 50)) { /* another memory: back-pressure, long latencies, few in flight */
		p->cfg.vram_latency_cycles = 1 + rnd(&g, 80);
		p->cfg.sys_latency_cycles = 1 + rnd(&g, 160);
		p->cfg.vram_bytes_per_cycle = 4u << rnd(&g, 4);
		p->cfg.sys_bytes_per_cycle = 2u << rnd(&g, 4);
		p->cfg.max_outstanding = 1 + rnd(&g, 64);
	}
	for (unsigned i = 0; i < 24; i++)
		p->regs[i] = (uint32_t)tb_rand(&g.rng);
	build_tables(&g);
	nib[0] = 1 + rnd(&g, 8);
	nib[1] = 1 + rnd(&g, 8);
	/* queue 1 first: queue 0 waits only for semaphore values it writes */
	for (unsigned i = 0; i < nib[1] && !g.ended[1]; i++)
		gen_ib(&g, 1);
	for (unsigned i = 0; i < nib[0] && !g.ended[0]; i++)
		gen_ib(&g, 0);
	/* drawn last: the program above does not move with it */
	for (unsigned q = 0; q < 2; q++)
		p->wdb[q] = rnd(&g, p->wptr[q] + 1);
	p->cmp[p->ncmp++] = (struct rp_range){ DST_PA(1), 3 * 0x400000ull };
	p->cmp[p->ncmp++] = (struct rp_range){ SCR_PA, 4 * (uint64_t)CHUNK };
	p->cmp[p->ncmp++] = (struct rp_range){ PT_PA(0, 0), RP_VMIDS * 0x10000ull };
	p->cmp[p->ncmp++] = (struct rp_range){ FENCE_PA, 0x2000 };
	p->cmp[p->ncmp++] = (struct rp_range){ WB_PA, 0x1000 };
	return GM_OK;
}
