/* SPDX-License-Identifier: MIT */
/*
 * test_cov_toggle.c - directed tests that set the bits the regression
 * leaves at zero (the toggle points of make coverage): a test_cov.c
 * companion by theme.  Every result is read back and checked.
 *
 *  - every bit of every read/write register, written and read back, from
 *    the table regspec/gpusim.json generates (gpu_reg_table: "bits"), then
 *    every instance at once with its own value (no two alias);
 *  - the counters CE_BUSY_CYCLES, CE_BYTES, APT_ACCESSES and APT_STATUS
 *    against what a known workload must give;
 *  - BLTs and a COPY on surfaces at the top of the 48-bit VA space, with
 *    the largest pitch, X and Y a packet can name (a translated queue: only
 *    the pages touched are mapped);
 *  - a COPY of 2^32 - 1 bytes and a FILL of 2^32 - 16 stopped by a page
 *    fault after two pages (the walkers' width and cursors);
 *  - a BLT of 65535 rows, and a tiled BLT as wide as the largest pitch
 *    (the row counter and the pair order's column).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cov_raw.h"
#include "gpu_names.h"
#include "gpu_tile.h"
#include "mmu_pt.h"

#define FAR_PA (GPU_VRAM_BASE + 0x0c000000ull)      /* pages of the far surfaces: VRAM 192 MiB up */
#define FAR_PA_END (GPU_VRAM_BASE + 0x0e000000ull)
#define TOP_VA 0xfffffffff000ull                    /* the last page of the VA space */
#define WAIT_BUDGET 4000000u                        /* cycles of the longest command here */

/* ------------------------------------------------------------ registers */

/* The instances of @r the hardware has (the queue block: CAPS.NUM_QUEUES). */
static uint32_t reg_instances(struct tb *t, const struct gpu_reg_desc *r)
{
	uint32_t nq = GPU_CAPS_NUM_QUEUES_GET(tb_rd(t, GPU_REG_CAPS));

	if (r->block_base == GPU_QREG_BASE)
		return nq < r->block_count ? nq : r->block_count;
	return r->block_count;
}

static uint32_t reg_off(const struct gpu_reg_desc *r, uint32_t i)
{
	return r->block_base + i * r->block_stride + r->offset;
}

static void expect_reg(struct tb *t, const struct gpu_reg_desc *r, uint32_t i, uint32_t wrote,
		       uint32_t want)
{
	uint32_t got = tb_rd(t, reg_off(r, i));

	if (got != want)
		fail_msg("%s[%u] (0x%03x): wrote 0x%08x, read 0x%08x, want 0x%08x (bits 0x%08x)",
			 r->name, i, reg_off(r, i), wrote, got, want, r->rw_bits);
}

/*
 * Every bit of every read/write register: all ones, zero, then each of the
 * 32 bits alone; a bit outside "bits" must read 0.  Then each instance
 * gets its own value at once and all are read back (no two alias), and a
 * range field write while the range is valid is refused, unchanged.
 */
static void test_rw_registers(void **state)
{
	struct tb t;
	size_t n;
	const struct gpu_reg_desc *tab = gpu_reg_table(&n);
	unsigned regs = 0, bits = 0;
	uint32_t v;

	(void)state;
	tb_open(&t);
	for (size_t k = 0; k < n; k++) {
		const struct gpu_reg_desc *r = &tab[k];

		if (!r->rw)
			continue;
		for (uint32_t i = 0; i < reg_instances(&t, r); i++) {
			tb_wr(&t, reg_off(r, i), ~0u);
			expect_reg(&t, r, i, ~0u, r->rw_bits);
			tb_wr(&t, reg_off(r, i), 0);
			expect_reg(&t, r, i, 0, 0);
			for (unsigned b = 0; b < 32; b++) {
				tb_wr(&t, reg_off(r, i), 1u << b);
				expect_reg(&t, r, i, 1u << b, (1u << b) & r->rw_bits);
			}
			tb_wr(&t, reg_off(r, i), 0);
			regs++;
			bits += (unsigned)__builtin_popcount(r->rw_bits);
		}
	}
	/* Every instance its own value: a decode that aliases two shows here.
	 * The enables stay clear (no queue fetches, no range refuses a field). */
	for (int pass = 0; pass < 2; pass++) {
		for (size_t k = 0; k < n; k++) {
			const struct gpu_reg_desc *r = &tab[k];
			uint32_t keep = r->rw_bits;

			if (!r->rw)
				continue;
			if (!strcmp(r->name, "Q_CTRL"))
				keep &= ~(GPU_Q_CTRL_ENABLE_MASK << GPU_Q_CTRL_ENABLE_SHIFT);
			if (!strcmp(r->name, "APT_CTRL"))
				keep &= ~(GPU_APT_CTRL_VALID_MASK << GPU_APT_CTRL_VALID_SHIFT);
			for (uint32_t i = 0; i < reg_instances(&t, r); i++) {
				uint32_t val = (reg_off(r, i) * 0x9e3779b1u) ^ 0x5a5a5a5au;

				if (pass == 0)
					tb_wr(&t, reg_off(r, i), val);
				else
					expect_reg(&t, r, i, val, val & keep);
			}
		}
	}
	/* A range field write while VALID is set: refused, nothing changes. */
	tb_apt_range(&t, 7, 0x100000, 0x200000, GPU_VRAM_BASE + 0x0e100000ull, GPU_TILE_LINEAR, 0, 256);
	assert_int_equal(gm_reg_write(t.g, GPU_REG_APT_PITCH(7), 512), GM_ERR_ADDR);
	assert_int_equal(tb_rd(&t, GPU_REG_APT_PITCH(7)), 256);
	tb_wr(&t, GPU_REG_APT_CTRL(7), 0);
	/* An offset no register has: an error response and 0 (the queue block of a queue
	 * the hardware does not have). */
	v = 0x1234;
	assert_int_equal(gm_reg_read(t.g, GPU_REG_Q_CTRL(GPU_CAPS_NUM_QUEUES_GET(tb_rd(&t, GPU_REG_CAPS))), &v),
			 GM_ERR_ADDR);
	assert_int_equal(v, 0);
	printf("registers: %u read/write instances, %u bits each written 1 and 0 and read back\n",
	       regs, bits);
	tb_close(&t);
}

/* ------------------------------------------------------------ counters */

/*
 * CE_BYTES counts the bytes the engine wrote (by strobe), CE_BUSY_CYCLES
 * the cycles it was not idle; APT_ACCESSES one per 64-bit access (or
 * 16-byte chunk) the aperture took; APT_STATUS its state.
 */
static void test_counters(void **state)
{
	static uint32_t dw[256];
	struct tb t;
	struct dma_buf b;
	struct dma_surf s = { .base = RAW_AREA + 0x100000, .pitch = 256, .mode = GPU_TILE_LINEAR,
			      .bpe_log2 = 2, .x = 0, .y = 0 };
	uint32_t bytes0, busy0, acc0, st;
	uint64_t c0, cycles, val = 0;

	(void)state;
	tb_open(&t);
	bytes0 = tb_rd(&t, GPU_REG_CE_BYTES);
	busy0 = tb_rd(&t, GPU_REG_CE_BUSY_CYCLES);
	c0 = gm_cycles(t.g);
	dma_buf_init(&b, dw, 256);
	assert_int_equal(dma_emit_copy(&b, RAW_AREA + 0x200000, RAW_AREA + 0x300000, 4096), GM_OK);
	assert_int_equal(dma_emit_fill(&b, &s, 24, 10, 0x0123456789abcdefull), GM_OK);
	tb_wait(&t, 0, tb_submit_ib(&t, 0, &b));
	cycles = gm_cycles(t.g) - c0;
	/* 4096 bytes copied, 24 x 10 elements of 4 bytes filled. */
	assert_int_equal(tb_rd(&t, GPU_REG_CE_BYTES) - bytes0, 4096 + 24 * 4 * 10);
	st = tb_rd(&t, GPU_REG_CE_BUSY_CYCLES) - busy0;
	/* At least a beat (32 bytes) a cycle for the writes, at most the run. */
	if (st < (4096 + 960) / 32 || st > cycles)
		fail_msg("CE_BUSY_CYCLES grew by %u in a run of %" PRIu64 " cycles", st, cycles);
	assert_int_equal(GPU_CE_STATUS_STATE_GET(tb_rd(&t, GPU_REG_CE_STATUS)), GPU_CE_ST_IDLE);
	assert_int_equal(tb_mem32(&t, s.base + 256 * 9 + 4 * 23), 0x01234567u);

	acc0 = tb_rd(&t, GPU_REG_APT_ACCESSES);
	for (uint32_t i = 0; i < 5; i++)
		assert_int_equal(gm_apt_post64(t.g, 0x0e400000u + 8 * i, 0x1111111111111111ull * i, 0xff),
				 GM_OK);
	st = tb_rd(&t, GPU_REG_APT_STATUS);
	if (!GPU_APT_STATUS_BUSY_GET(st))
		fail_msg("APT_STATUS 0x%x right after five posted writes: not busy", st);
	assert_int_equal(gm_apt_flush(t.g), GM_OK);
	st = tb_rd(&t, GPU_REG_APT_STATUS);
	if (GPU_APT_STATUS_BUSY_GET(st) || GPU_APT_STATUS_WC_GET(st) || GPU_APT_STATUS_PEND_GET(st) ||
	    GPU_APT_STATUS_STATE_GET(st) != GPU_APT_ST_IDLE || GPU_APT_STATUS_RD_GET(st) != GPU_APT_RD_IDLE)
		fail_msg("APT_STATUS 0x%x after a flush", st);
	assert_int_equal(gm_apt_read64(t.g, 0x0e400000u + 8 * 3, &val), GM_OK);
	assert_int_equal(val, 0x3333333333333333ull);
	/* A read right behind posted words waits for them (c_apt_rd_drain) and sees them. */
	assert_int_equal(gm_apt_post64(t.g, 0x0e400000u + 8 * 3, 0x4444444444444444ull, 0xff), GM_OK);
	assert_int_equal(gm_apt_post64(t.g, 0x0e400000u + 8 * 9, 0x5555555555555555ull, 0xff), GM_OK);
	assert_int_equal(gm_apt_read64(t.g, 0x0e400000u + 8 * 3, &val), GM_OK);
	assert_int_equal(val, 0x4444444444444444ull);
	assert_int_equal(gm_apt_read64(t.g, 0x0e400000u + 8 * 9, &val), GM_OK);
	assert_int_equal(val, 0x5555555555555555ull);
	/* The read's beat stays prefetched, until APT_FLUSH.PF drops it. */
	assert_int_equal(GPU_APT_STATUS_PF_GET(tb_rd(&t, GPU_REG_APT_STATUS)), 1);
	tb_wr(&t, GPU_REG_APT_FLUSH, GPU_APT_FLUSH_PF(1));
	assert_int_equal(GPU_APT_STATUS_PF_GET(tb_rd(&t, GPU_REG_APT_STATUS)), 0);
	assert_int_equal(tb_rd(&t, GPU_REG_APT_ACCESSES) - acc0, 10);
	tb_close(&t);
}

/* ------------------------------------------------------------ far surfaces */

/* A model whose queues run in VMID 1 with the firmware's memory mapped
 * 1:1; the test maps its pages on demand (vt_pa). */
struct vt {
	struct tb t;
	struct tb_ptmem mem;
	struct mmu_pt pt;
	uint64_t pa_next;  /* the next free page of FAR_PA */
};

static void vt_open_cfg(struct vt *v, const struct gm_config *cfg)
{
	tb_open_cfg(&v->t, cfg);
	tb_ptmem_init(&v->mem, v->t.g);
	tb_pt_init(&v->pt, &v->mem);
	tb_pt_map_fw(&v->pt);
	v->pa_next = FAR_PA;
	tb_wr(&v->t, GPU_REG_VM_ROOT_LO(1), (uint32_t)v->pt.root_pa);
	tb_wr(&v->t, GPU_REG_VM_ROOT_HI(1), (uint32_t)(v->pt.root_pa >> 32));
	tb_wr(&v->t, GPU_REG_MMU_CTRL, GPU_MMU_CTRL_ENABLE(1));
	tb_wr(&v->t, GPU_REG_Q_VMID(0), 1);
	tb_wr(&v->t, GPU_REG_Q_VMID(1), 1);
}

static void vt_open(struct vt *v)
{
	vt_open_cfg(v, NULL);
}

/* The physical address of @va, its page mapped (read/write) to the next
 * free page if it was not. */
static uint64_t vt_pa(struct vt *v, uint64_t va)
{
	uint64_t pte = 0;
	struct mmu_pte f;

	assert_int_equal(mmu_pt_get_pte(&v->pt, va, &pte), GM_OK);
	mmu_pte_decode(pte, &f);
	if (!f.v) {
		assert_true(v->pa_next < FAR_PA_END);
		assert_int_equal(mmu_pt_map(&v->pt, va & ~0xfffull, 0x1000, v->pa_next,
					    MMU_MAP_R | MMU_MAP_W), GM_OK);
		f.pa = v->pa_next;
		v->pa_next += 0x1000;
	}
	return f.pa + (va & 0xfff);
}

/* Queue @q runs @b (in its IB area) and must finish within WAIT_BUDGET. */
static void run_ib(struct tb *t, unsigned q, const struct dma_buf *b)
{
	uint64_t f = tb_submit_ib(t, q, b);
	int st = fw_fence_wait(&t->d, q, f, WAIT_BUDGET);

	if (st)
		fail_msg("queue %u fence %" PRIu64 ": %s (cause %u, fault at 0x%" PRIx64 ")", q, f,
			 gm_status_name(st), t->d.q[q].err_cause, t->d.fault.va);
}

/* The VA of element (@x, @y) of the rectangle at @s's origin. */
static uint64_t surf_va(const struct dma_surf *s, uint32_t x, uint32_t y)
{
	return s->base + gpu_tile_offset(s->mode, s->bpe_log2, s->pitch, s->x + x, s->y + y);
}

/*
 * Queue @q BLTs the @w x @h elements of @src to @dst (translated, pages mapped as
 * touched): random source elements in, each destination element must equal
 * its source after.
 */
static void blt_far(struct vt *v, unsigned q, const struct dma_surf *dst, const struct dma_surf *src,
		    uint32_t w, uint32_t h, uint64_t *seed)
{
	uint32_t dw[64];
	struct dma_buf b;
	const uint32_t eb = 1u << src->bpe_log2;
	uint8_t e[16], got[16];

	for (uint32_t y = 0; y < h; y++) {
		for (uint32_t x = 0; x < w; x++) {
			raw_fill_bytes(e, eb, seed);
			assert_int_equal(gm_backdoor_write(v->t.g, vt_pa(v, surf_va(src, x, y)), e, eb), GM_OK);
			(void)vt_pa(v, surf_va(dst, x, y));
		}
	}
	dma_buf_init(&b, dw, 64);
	assert_int_equal(dma_emit_blt(&b, dst, src, w, h), GM_OK);
	run_ib(&v->t, q, &b);
	for (uint32_t y = 0; y < h; y++) {
		for (uint32_t x = 0; x < w; x++) {
			assert_int_equal(gm_backdoor_read(v->t.g, vt_pa(v, surf_va(src, x, y)), e, eb), GM_OK);
			assert_int_equal(gm_backdoor_read(v->t.g, vt_pa(v, surf_va(dst, x, y)), got, eb), GM_OK);
			if (memcmp(got, e, eb))
				fail_msg("BLT to 0x%" PRIx64 " (pitch 0x%x, mode %u): element (%u, %u) differs",
					 dst->base, dst->pitch, dst->mode, x, y);
		}
	}
}

/*
 * Surfaces at the far end of every field: linear ones with the largest
 * pitch (0xfffff bytes at 1-byte elements, 0xffff0 at 16), X and Y 0xffff,
 * bases high in the VA space; Y- and X-tiled ones at the largest pitch and
 * X of their tiles, rows 0xffe0 and up; a COPY into the last 4 KiB of the
 * VA space and a write faulting in the page below.
 */
static void test_far_surfaces(void **state)
{
	struct vt v;
	uint64_t seed = 0x5eed0101;
	const struct dma_surf s8 = { .base = 0x7ff070000000ull, .pitch = 0xfffff, .mode = GPU_TILE_LINEAR,
				     .bpe_log2 = 0, .x = 0xffff, .y = 0xffff };
	const struct dma_surf d8 = { .base = 0xf00000000000ull, .pitch = 0xfffff, .mode = GPU_TILE_LINEAR,
				     .bpe_log2 = 0, .x = 0x8000, .y = 0x8000 };
	const struct dma_surf s128 = { .base = 0xaaaaaaaa0000ull, .pitch = 0xffff0, .mode = GPU_TILE_LINEAR,
				       .bpe_log2 = 4, .x = 0xffff, .y = 0xffff };
	const struct dma_surf d128 = { .base = 0x555555550000ull, .pitch = 0x10, .mode = GPU_TILE_LINEAR,
				       .bpe_log2 = 4, .x = 0, .y = 0xfffe };
	const struct dma_surf sy = { .base = 0xffe000000000ull, .pitch = 0xfff80, .mode = GPU_TILE_Y,
				     .bpe_log2 = 4, .x = 0xfff0, .y = 0xffe0 };
	const struct dma_surf dx = { .base = 0x0f0000000000ull, .pitch = 0xffe00, .mode = GPU_TILE_X,
				     .bpe_log2 = 4, .x = 0xffd0, .y = 0xfff8 };
	uint32_t dw[16];
	struct dma_buf b;
	uint8_t a[256], got[256];

	(void)state;
	vt_open(&v);
	for (unsigned q = 0; q < 2; q++) {  /* each queue's command bus */
		blt_far(&v, q, &d8, &s8, 64, 1, &seed);
		blt_far(&v, q, &d128, &s128, 4, 1, &seed);
		blt_far(&v, q, &dx, &sy, 8, 6, &seed);
	}
	/* COPY: the last 256 bytes of the VA space from a far source. */
	raw_fill_bytes(a, sizeof(a), &seed);
	assert_int_equal(gm_backdoor_write(v.t.g, vt_pa(&v, 0x800000000f00ull), a, sizeof(a)), GM_OK);
	(void)vt_pa(&v, TOP_VA);
	dma_buf_init(&b, dw, 16);
	assert_int_equal(dma_emit_copy(&b, TOP_VA + 0xf00, 0x800000000f00ull, sizeof(a)), GM_OK);
	run_ib(&v.t, 0, &b);
	assert_int_equal(gm_backdoor_read(v.t.g, vt_pa(&v, TOP_VA + 0xf00), got, sizeof(got)), GM_OK);
	assert_memory_equal(got, a, sizeof(a));
	assert_int_equal(tb_rd(&v.t, GPU_REG_MMU_FAULT_COUNT), 0);
	/* A write to the unmapped page below: the fault names its beat. */
	dma_buf_init(&b, dw, 16);
	assert_int_equal(dma_emit_write_data(&b, TOP_VA - 0x20, (uint32_t[]){ 1 }, 1), GM_OK);
	assert_int_equal(fw_fence_wait(&v.t.d, 0, tb_submit_ib(&v.t, 0, &b), WAIT_BUDGET), GM_ERR_HW);
	assert_int_equal(v.t.d.q[0].err_cause, GPU_CAUSE_PAGE_FAULT);
	if (v.t.d.fault.va != TOP_VA - 0x20 || !v.t.d.fault.write || v.t.d.fault.cause != GPU_FLT_PTE_INVALID)
		fail_msg("fault at 0x%" PRIx64 " (write %u, cause %u)", v.t.d.fault.va, v.t.d.fault.write,
			 v.t.d.fault.cause);
	tb_recover(&v.t, 0);
	tb_close(&v.t);
}

/*
 * A command nearly 2^32 bytes wide over two mapped pages and an unmapped
 * third: the queue halts with PAGE_FAULT at the third page (read by a COPY
 * on queue 0, written by a FILL of all ones on queue 1), the bytes before it
 * written as asked.
 */
static void wide_fault(struct vt *v, bool fill, uint64_t *seed)
{
	const uint64_t src = 0x123400000000ull, dst = 0x432100000000ull;
	uint32_t dw[16];
	struct dma_buf b;
	const struct dma_surf s = { .base = dst, .pitch = 16, .mode = GPU_TILE_LINEAR, .bpe_log2 = 4 };
	uint8_t a[0x2000], got[0x1000];
	const unsigned q = fill;
	uint64_t f;

	raw_fill_bytes(a, sizeof(a), seed);
	for (uint32_t p = 0; p < 2; p++) {
		assert_int_equal(gm_backdoor_write(v->t.g, vt_pa(v, src + 0x1000 * p), a + 0x1000 * p, 0x1000),
				 GM_OK);
		(void)vt_pa(v, dst + 0x1000 * p);
	}
	dma_buf_init(&b, dw, 16);
	if (fill)
		assert_int_equal(dma_emit_fill(&b, &s, 0x0fffffffu, 1, ~0ull), GM_OK);
	else
		assert_int_equal(dma_emit_copy(&b, dst, src, 0xffffffffu), GM_OK);
	f = tb_submit_ib(&v->t, q, &b);
	assert_int_equal(fw_fence_wait(&v->t.d, q, f, WAIT_BUDGET), GM_ERR_HW);
	assert_int_equal(GPU_Q_ERR_CAUSE_CAUSE_GET(tb_rd(&v->t, GPU_REG_Q_ERR_CAUSE(q))), GPU_CAUSE_PAGE_FAULT);
	/* The interrupt handler read the faults (re-arming the latch after
	 * each): the last one it read names a beat of the third page. */
	if (v->t.d.fault.cause != GPU_FLT_PTE_INVALID || v->t.d.fault.vmid != 1 ||
	    v->t.d.fault.write != fill || (v->t.d.fault.va & ~0xfffull) != (fill ? dst : src) + 0x2000)
		fail_msg("%s: fault cause %u, VMID %u, write %u at 0x%" PRIx64, fill ? "FILL" : "COPY",
			 v->t.d.fault.cause, v->t.d.fault.vmid, v->t.d.fault.write, v->t.d.fault.va);
	/* The first page is long written when the fault comes. */
	assert_int_equal(gm_backdoor_read(v->t.g, vt_pa(v, dst), got, sizeof(got)), GM_OK);
	for (uint32_t i = 0; i < sizeof(got); i++) {
		uint8_t want = fill ? 0xff : a[i];

		if (got[i] != want)
			fail_msg("%s: byte 0x%x is 0x%02x, want 0x%02x", fill ? "FILL" : "COPY", i, got[i], want);
	}
	tb_recover(&v->t, q);
}

static void test_wide_fault(void **state)
{
	struct vt v;
	uint64_t seed = 0x5eed0102;

	(void)state;
	vt_open(&v);
	wide_fault(&v, false, &seed);
	wide_fault(&v, true, &seed);
	tb_close(&v.t);
}

/* ------------------------------------------------------------ long walks */

#define TALL_SRC (GPU_VRAM_BASE + 0x01000000ull)  /* physical surfaces: VRAM 16..96 MiB */
#define TALL_DST (GPU_VRAM_BASE + 0x02000000ull)
#define WIDE_SRC (GPU_VRAM_BASE + 0x03000000ull)
#define WIDE_DST (GPU_VRAM_BASE + 0x05000000ull)
#define WIDE_PITCH 0xfff80u                      /* the largest Y-tiled pitch */

/* Fill @n bytes at @pa with random bytes; the copy is returned (free it). */
static uint8_t *put_random(struct tb *t, uint64_t pa, size_t n, uint64_t *seed)
{
	uint8_t *p = malloc(n);

	assert_non_null(p);
	raw_fill_bytes(p, n, seed);
	assert_int_equal(gm_backdoor_write(t->g, pa, p, n), GM_OK);
	return p;
}

/*
 * A BLT of 65535 rows of 3 bytes at a 16-byte pitch (the row counter's
 * every bit), then a BLT from a Y-tiled surface as wide as its largest
 * pitch, two rows (pair order: 32-byte columns across 1 MiB), to a linear
 * one.  Every byte of both destinations is checked, the bytes between the
 * tall rectangle's rows untouched (zero).
 */
static void test_long_walks(void **state)
{
	uint32_t dw[32];
	struct tb t;
	struct dma_buf b;
	uint64_t seed = 0x5eed0103;
	const struct dma_surf ts = { .base = TALL_SRC, .pitch = 16, .mode = GPU_TILE_LINEAR };
	const struct dma_surf td = { .base = TALL_DST, .pitch = 16, .mode = GPU_TILE_LINEAR };
	const struct dma_surf ws = { .base = WIDE_SRC, .pitch = WIDE_PITCH, .mode = GPU_TILE_Y };
	const struct dma_surf wd = { .base = WIDE_DST, .pitch = WIDE_PITCH, .mode = GPU_TILE_LINEAR };
	const size_t tall = 16u * 0xffff, wide = 32u * WIDE_PITCH;  /* the src areas */
	uint8_t *a, *got = malloc(2 * WIDE_PITCH);

	(void)state;
	assert_non_null(got);
	tb_open(&t);
	dma_buf_init(&b, dw, 32);
	assert_int_equal(dma_emit_blt(&b, &td, &ts, 3, 0xffff), GM_OK);
	assert_int_equal(dma_emit_blt(&b, &wd, &ws, WIDE_PITCH, 2), GM_OK);
	a = put_random(&t, TALL_SRC, tall, &seed);
	free(put_random(&t, WIDE_SRC, wide, &seed));
	run_ib(&t, 0, &b);
	assert_int_equal(gm_backdoor_read(t.g, TALL_DST, got, 2 * WIDE_PITCH), GM_OK);
	for (size_t i = 0; i < tall; i += 16) {
		const uint8_t zero[13] = { 0 };

		if (memcmp(got + i, a + i, 3) || memcmp(got + i + 3, zero, 13))
			fail_msg("tall BLT: row %zu wrong", i / 16);
	}
	free(a);
	assert_int_equal(gm_backdoor_read(t.g, WIDE_DST, got, 2 * WIDE_PITCH), GM_OK);
	for (uint32_t y = 0; y < 2; y++) {
		for (uint32_t x = 0; x < WIDE_PITCH; x += 16) {
			uint8_t e[16];

			assert_int_equal(gm_backdoor_read(t.g, WIDE_SRC + gpu_tile_offset(GPU_TILE_Y, 0, WIDE_PITCH, x, y),
							  e, 16), GM_OK);
			if (memcmp(got + y * WIDE_PITCH + x, e, 16))
				fail_msg("wide BLT: bytes %u..%u of row %u wrong", x, x + 15, y);
		}
	}
	free(got);
	tb_close(&t);
}

/* ------------------------------------------------------------ far queues */

#define RING0_VA 0xffffffc00000ull  /* queue 0's ring of 2^20 dwords: the last 4 MiB of the VA space */
#define RING1_VA 0x5555aaaa0000ull
#define IB1_VA 0xaaaa55550000ull
#define DATA_VA 0xffffffffff00ull   /* WRITE_DATA, fence and WAIT_MEM: the last 256 bytes */
#define WB_VA 0xfffffffff800ull     /* queue 0's RPTR write-back */
#define PTE_VA (GPU_VRAM_BASE + 0x06000000ull)  /* mapped 1:1: PTE_WRITE's DST */
#define BAD_HDR 0xffffffffu         /* type 3, opcode 0xff (none), COUNT 0x3fff */
#define WAKE 0xfedcba9876543210ull  /* what queue 0's WAIT_MEM waits for */

/* Queue @q on VMID 1: its ring of 2^@log2 dwords at @ring (mapped), RPTR
 * write-back to @wb if not 0, then @b's packets and the doorbell (first to
 * @first if not 0, a packet boundary before the end). */
static void far_queue(struct vt *v, unsigned q, uint64_t ring, unsigned log2, uint64_t wb,
		      const struct dma_buf *b, uint32_t first)
{
	for (uint64_t off = 0; off < (4ull << log2); off += 0x1000)
		(void)vt_pa(v, ring + off);
	for (uint32_t i = 0; i < b->len; i += 0x400)
		assert_int_equal(gm_backdoor_write(v->t.g, vt_pa(v, ring + 4ull * i), b->dw + i,
						   4 * (b->len - i < 0x400 ? b->len - i : 0x400)), GM_OK);
	tb_wr(&v->t, GPU_REG_Q_CTRL(q), GPU_Q_CTRL_RESET(1));
	tb_wr(&v->t, GPU_REG_Q_BASE_LO(q), (uint32_t)ring);
	tb_wr(&v->t, GPU_REG_Q_BASE_HI(q), (uint32_t)(ring >> 32));
	tb_wr(&v->t, GPU_REG_Q_SIZE(q), log2);
	tb_wr(&v->t, GPU_REG_Q_VMID(q), 1);
	tb_wr(&v->t, GPU_REG_Q_RPTR_WB_LO(q), (uint32_t)wb);
	tb_wr(&v->t, GPU_REG_Q_RPTR_WB_HI(q), (uint32_t)(wb >> 32));
	tb_wr(&v->t, GPU_REG_Q_CTRL(q), GPU_Q_CTRL_ENABLE(1) | GPU_Q_CTRL_PRIV(1) | GPU_Q_CTRL_RPTR_WB(wb != 0));
	if (first)
		tb_wr(&v->t, GPU_REG_Q_WPTR(q), first);
	tb_wr(&v->t, GPU_REG_Q_WPTR(q), (uint32_t)b->len);
}

/* Queue @q stopped on @cause at the packet at @va with header @hdr. */
static void expect_halt(struct vt *v, unsigned q, uint32_t cause, uint64_t va, uint32_t hdr)
{
	uint32_t st = tb_rd(&v->t, GPU_REG_Q_STATUS(q));

	if (!GPU_Q_STATUS_ERROR_GET(st) || GPU_Q_ERR_CAUSE_CAUSE_GET(tb_rd(&v->t, GPU_REG_Q_ERR_CAUSE(q))) != cause)
		fail_msg("queue %u: status 0x%x, cause %u (want %u)", q, st,
			 GPU_Q_ERR_CAUSE_CAUSE_GET(tb_rd(&v->t, GPU_REG_Q_ERR_CAUSE(q))), cause);
	assert_int_equal(tb_rd(&v->t, GPU_REG_Q_ERR_ADDR_LO(q)), (uint32_t)va);
	assert_int_equal(tb_rd(&v->t, GPU_REG_Q_ERR_ADDR_HI(q)), (uint32_t)(va >> 32));
	assert_int_equal(tb_rd(&v->t, GPU_REG_Q_ERR_HEADER(q)), hdr);
}

/*
 * The queues' wide fields: queue 0's ring is 2^20 dwords in the last 4 MiB
 * of the VA space, writes the last 16 bytes of it (WRITE_DATA, a 64-bit
 * fence of all ones, a WAIT_MEM on it), polls 65535 cycles apart for a
 * value the test writes, invalidates the top 64 KiB blocks, skips 2^19
 * dwords of NOPs with its RPTR written back near the top, and stops on a
 * header of all ones.  Queue 1 meanwhile writes PTEs of a base near 2^48
 * from a count of 2^20 - 1 (reset after the first ones, checked), then runs
 * an IB of 2^20 dwords at a far VA in VMID 15 whose first header is all
 * ones.
 */
static void test_far_queues(void **state)
{
	const uint32_t nops = 32, words[2] = { 0xffffffffu, 0x80000000u };
	const uint64_t flags = GPU_PTE_V(1) | GPU_PTE_R(1), pbase = 0xfffeffffffffull;
	const uint64_t in_place = (uint64_t)GPU_PTE_ADDR_MASK << GPU_PTE_ADDR_SHIFT;
	struct gm_config c;
	struct vt v;
	struct dma_buf b;
	uint32_t *dw = malloc(4u << 20), ib1[2] = { BAD_HDR, BAD_HDR }, len0, mid = 0;

	(void)state;
	assert_non_null(dw);
	assert_null(gpu_opcode_name(0xff));
	gm_config_default(&c);
	c.vram_latency_cycles = 1;  /* the ring fetches a beat at a time */
	vt_open_cfg(&v, &c);
	tb_wr(&v.t, GPU_REG_VM_ROOT_LO(15), (uint32_t)v.pt.root_pa);  /* VMID 15: VMID 1's tables */
	tb_wr(&v.t, GPU_REG_VM_ROOT_HI(15), (uint32_t)(v.pt.root_pa >> 32));
	(void)vt_pa(&v, DATA_VA);
	(void)vt_pa(&v, WB_VA);
	assert_int_equal(mmu_pt_map(&v.pt, PTE_VA, 0x1000, PTE_VA, MMU_MAP_R | MMU_MAP_W), GM_OK);
	assert_int_equal(gm_backdoor_write(v.t.g, vt_pa(&v, IB1_VA), ib1, sizeof(ib1)), GM_OK);

	dma_buf_init(&b, dw, 1u << 20);
	assert_int_equal(dma_emit_write_data(&b, DATA_VA, words, 2), GM_OK);
	assert_int_equal(dma_emit_release_fence(&b, DATA_VA + 8, ~0ull, true, false), GM_OK);
	assert_int_equal(dma_emit_wait_mem(&b, DATA_VA + 8, 0xffffffff00000000ull, ~0ull, GPU_FUNC_GE, true,
					   0xffff), GM_OK);
	assert_int_equal(dma_emit_wait_mem(&b, DATA_VA + 16, WAKE, ~0ull, GPU_FUNC_EQ, true, 0xffff), GM_OK);
	assert_int_equal(dma_emit_invalidate_tlb(&b, 1, false, 0xffff0000u, 0xffffffffu), GM_OK);
	for (uint32_t i = 0; i < nops; i++) {
		mid = i == nops - 1 ? (uint32_t)b.len : mid;
		assert_int_equal(dma_emit_nop(&b, GPU_HDR_COUNT_MASK), GM_OK);
	}
	assert_int_equal(dma_emit_raw(&b, (uint32_t[]){ BAD_HDR }, 1), GM_OK);
	len0 = (uint32_t)b.len;
	far_queue(&v, 0, RING0_VA, 20, WB_VA, &b, mid);

	dma_buf_init(&b, dw + len0, 64);
	assert_int_equal(dma_emit_pte_write(&b, PTE_VA, flags, pbase, 0x1001, 0xfffff), GM_OK);
	far_queue(&v, 1, RING1_VA, 10, 0, &b, 0);
	assert_int_equal(gm_step(v.t.g, 600), GM_OK);
	tb_wr(&v.t, GPU_REG_Q_CTRL(1), GPU_Q_CTRL_RESET(1));
	for (uint32_t i = 0; i < 8; i++)
		assert_int_equal(tb_mem64(&v.t, PTE_VA + 8 * i), flags | ((pbase + 0x1001ull * i) & in_place));
	/* Queue 0 polls for WAKE, 65535 cycles apart: it must still wait. */
	assert_int_equal(GPU_Q_STATUS_STATE_GET(tb_rd(&v.t, GPU_REG_Q_STATUS(0))), GPU_CP_ST_WPOLL);
	assert_int_equal(gm_backdoor_write(v.t.g, vt_pa(&v, DATA_VA + 16), (uint64_t[]){ WAKE }, 8), GM_OK);
	dma_buf_init(&b, dw + len0, 64);
	assert_int_equal(dma_emit_indirect_buffer_ctx(&b, IB1_VA, 1u << 20, 15, false), GM_OK);
	far_queue(&v, 1, RING1_VA, 10, 0, &b, 0);
	tb_run_to_irq(&v.t, 5000);
	expect_halt(&v, 1, GPU_CAUSE_BAD_OPCODE, IB1_VA, BAD_HDR);
	assert_int_equal(GPU_Q_STATUS_IN_IB_GET(tb_rd(&v.t, GPU_REG_Q_STATUS(1))), 1);

	tb_wr(&v.t, GPU_REG_INT_STATUS, ~0u);
	tb_run_to_irq(&v.t, WAIT_BUDGET);
	expect_halt(&v, 0, GPU_CAUSE_BAD_OPCODE, RING0_VA + 4ull * (len0 - 1), BAD_HDR);
	assert_int_equal(tb_rd(&v.t, GPU_REG_Q_RPTR(0)), len0);
	assert_int_equal(tb_mem64(&v.t, vt_pa(&v, DATA_VA)), 0x80000000ffffffffull);
	assert_int_equal(tb_mem64(&v.t, vt_pa(&v, DATA_VA + 8)), ~0ull);
	if (tb_mem32(&v.t, vt_pa(&v, WB_VA)) < len0 - 1 - GPU_HDR_COUNT_MASK)
		fail_msg("queue 0 wrote back RPTR %u; the last NOP ends at %u", tb_mem32(&v.t, vt_pa(&v, WB_VA)),
			 len0 - 1);
	free(dw);
	tb_close(&v.t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rw_registers),
		cmocka_unit_test(test_counters),
		cmocka_unit_test(test_far_surfaces),
		cmocka_unit_test(test_wide_fault),
		cmocka_unit_test(test_long_walks),
		cmocka_unit_test(test_far_queues),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
