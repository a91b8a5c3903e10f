/* SPDX-License-Identifier: MIT */
/*
 * test_cov.c - directed tests for what the regression does not reach: the
 * corner cases the RTL's cover points name (make coverage counts them) and
 * the registers nothing else reads.
 *
 *  - every bit of every read/write register, written and read back, from
 *    the table regspec/gpusim.json generates (gpu_reg_table: "bits"), then
 *    every instance at once with its own value (no two alias);
 *  - the counters CE_BUSY_CYCLES, CE_BYTES, APT_ACCESSES and APT_STATUS
 *    against what a known workload must give;
 *  - INVALIDATE_TLB from queue 0, from both queues in one cycle, in the
 *    cycle of a register invalidation, and behind PTE writes in flight;
 *  - a fence interrupt of one queue and an error of the other in one cycle;
 *  - the MMU's output, synthetic and miss slots full (a copy through null
 *    and mapped pages with a memory that takes one request at a time);
 *  - the aperture's write slots, write queue, beat buffers and host FIFO
 *    full (slow memory), a tiled range 4-7 and split chunks.
 *
 * A same-cycle case cannot be set up by counting cycles by hand: each
 * scans a delay between two doorbells and knows it hit from a counter
 * (Q_STALL_FENCE counts the cycles a queue spends in its invalidation: 2
 * means it was refused once) or from two runs that see the two interrupts
 * at the same cycle.  A scan that finds no hit fails.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dma_names.h"
#include "dma_tile.h"
#include "mmu_pt.h"
#include "tb_util.h"

#define RAW_AREA (GPU_VRAM_BASE + 0x0e000000ull)      /* raw rings and data: VRAM 224 MiB up */
#define RAW_RING(q) (RAW_AREA + (uint64_t)(q) * 0x10000ull)
#define RAW_FENCE (RAW_AREA + 0x40000ull)
#define RAW_LOG2 10u                                  /* ring of 2^10 dwords */
#define APT_OFF 0x0e800000u  /* window offset: VRAM 232 MiB (outside every range) */
#define APT_BYTES 0x10000u

/* ------------------------------------------------------------ raw queues */

/* Reset queue @q and point it at its raw ring, enabled and privileged. */
static void raw_setup(struct tb *t, unsigned q)
{
	tb_wr(t, GPU_REG_Q_CTRL(q), GPU_Q_CTRL_RESET(1));
	tb_wr(t, GPU_REG_Q_BASE_LO(q), (uint32_t)RAW_RING(q));
	tb_wr(t, GPU_REG_Q_BASE_HI(q), (uint32_t)(RAW_RING(q) >> 32));
	tb_wr(t, GPU_REG_Q_SIZE(q), RAW_LOG2);
	tb_wr(t, GPU_REG_Q_VMID(q), 0);
	tb_wr(t, GPU_REG_Q_CTRL(q), GPU_Q_CTRL_ENABLE(1) | GPU_Q_CTRL_PRIV(1));
}

/* Put @b at the start of queue @q's raw ring (the doorbell is the caller's). */
static void raw_put(struct tb *t, unsigned q, const struct dma_buf *b)
{
	assert_int_equal(gm_backdoor_write(t->g, RAW_RING(q), b->dw, b->len * 4), GM_OK);
}

/* Queue @q read @len dwords, ran @pkts packets and stopped without error. */
static void raw_check_done(struct tb *t, unsigned q, uint32_t len, uint32_t pkts)
{
	uint32_t st = tb_rd(t, GPU_REG_Q_STATUS(q));

	if (tb_rd(t, GPU_REG_Q_RPTR(q)) != len || GPU_Q_STATUS_BUSY_GET(st) ||
	    GPU_Q_STATUS_ERROR_GET(st) || tb_rd(t, GPU_REG_Q_PKTS(q)) != pkts)
		fail_msg("queue %u: rptr %u (want %u), status 0x%x, %u packets (want %u)", q,
			 tb_rd(t, GPU_REG_Q_RPTR(q)), len, st, tb_rd(t, GPU_REG_Q_PKTS(q)), pkts);
}

/* Run @n cycles (none for 0). */
static void step(struct tb *t, uint64_t n)
{
	if (n)
		assert_int_equal(gm_step(t->g, n), GM_OK);
}

/* Queue 0, reset, runs one WRITE_DATA of @val to @va in VMID @vmid, then
 * 500 cycles. */
static void raw_write_vmid(struct tb *t, uint32_t vmid, uint64_t va, uint32_t val)
{
	static uint32_t dw[16];
	struct dma_buf b;

	raw_setup(t, 0);
	tb_wr(t, GPU_REG_Q_VMID(0), vmid);
	dma_buf_init(&b, dw, 16);
	assert_int_equal(dma_emit_write_data(&b, va, &val, 1), GM_OK);
	raw_put(t, 0, &b);
	tb_wr(t, GPU_REG_Q_WPTR(0), (uint32_t)b.len);
	step(t, 500);
}

static void emit_nops(struct dma_buf *b, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		assert_int_equal(dma_emit_nop(b, 0), GM_OK);
}

static void fill_bytes(uint8_t *p, size_t n, uint64_t *seed)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (uint8_t)tb_rand(seed);
}

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

/* ------------------------------------------------------------ invalidation */

/*
 * Queue @first rings first, queue !@first @k cycles later; queue q runs
 * @nops[q] NOPs then INVALIDATE_TLB.  Returns each queue's Q_STALL_FENCE:
 * the cycles in its invalidation (1 taken at once, 2 refused once).
 */
static void inv_trial(struct tb *t, const unsigned nops[2], unsigned first, unsigned k, uint32_t stall[2])
{
	uint32_t dw[2][64];
	struct dma_buf b[2];

	for (unsigned q = 0; q < 2; q++) {
		raw_setup(t, q);
		dma_buf_init(&b[q], dw[q], 64);
		emit_nops(&b[q], nops[q]);
		assert_int_equal(dma_emit_invalidate_tlb(&b[q], 1, false, 0, 0xffffffffu), GM_OK);
		raw_put(t, q, &b[q]);
	}
	tb_wr(t, GPU_REG_Q_WPTR(first), (uint32_t)b[first].len);
	step(t, k);
	tb_wr(t, GPU_REG_Q_WPTR(!first), (uint32_t)b[!first].len);
	assert_int_equal(gm_step(t->g, 400), GM_OK);
	for (unsigned q = 0; q < 2; q++) {
		raw_check_done(t, q, (uint32_t)b[q].len, nops[q] + 1);
		stall[q] = tb_rd(t, GPU_REG_Q_STALL_FENCE(q));
	}
}

/*
 * INVALIDATE_TLB from queue 0 and queue 1 in the same cycle: queue 0 has
 * the MMU's port, queue 1 waits one cycle (c_both_queues_invalidate,
 * c_queue_invalidate_refused, cp_queue c_cp_inv_refused).  The scan
 * shifts queue 1's doorbell and its NOPs until its stall count says it
 * was refused; every other trial must take each invalidation at once.
 */
static void test_inv_both_queues(void **state)
{
	struct tb t;
	uint32_t stall[2];
	unsigned hits = 0, trials = 0;

	(void)state;
	tb_open(&t);
	for (unsigned first = 0; first < 2 && !hits; first++) {
		for (unsigned n1 = 0; n1 < 4 && !hits; n1++) {
			for (unsigned k = 0; k < 8; k++) {
				const unsigned nops[2] = { first == 0 ? n1 : 0, first == 1 ? n1 : 0 };

				inv_trial(&t, nops, first, k, stall);
				trials++;
				/* Queue 0 always has the port; queue 1 waits for it at most once. */
				if (stall[0] != 1 || stall[1] < 1 || stall[1] > 2)
					fail_msg("first %u nops %u/%u delay %u: Q_STALL_FENCE %u/%u", first,
						 nops[0], nops[1], k, stall[0], stall[1]);
				if (stall[1] == 2) {
					printf("both queues invalidated in one cycle: queue %u first, %u NOPs, "
					       "%u cycles apart (trial %u)\n", first, n1, k, trials);
					hits++;
					break;
				}
			}
		}
	}
	if (!hits)
		fail_msg("no trial of %u made the two queues invalidate in one cycle", trials);
	tb_close(&t);
}

/*
 * A register invalidation (MMU_INV_CTL.GO) in the cycle of queue 0's
 * INVALIDATE_TLB: the register's goes first, the queue waits a cycle
 * (c_reg_and_queue_invalidate).  Then INVALIDATE_TLB behind PTE writes to
 * slow system memory waits for every one to land (c_cp_inv_after_pte), and
 * the entries are in memory.
 */
static void test_inv_register_and_pte(void **state)
{
	static uint32_t dw[64];
	struct tb t;
	struct dma_buf b;
	uint32_t stall = 0;
	const uint64_t flags = GPU_PTE_V(1) | GPU_PTE_R(1), base = 0x123000;
	const uint64_t in_place = (uint64_t)GPU_PTE_ADDR_MASK << GPU_PTE_ADDR_SHIFT;
	unsigned k;

	(void)state;
	tb_open(&t);
	for (k = 0; k < 80; k++) {
		raw_setup(&t, 0);
		dma_buf_init(&b, dw, 64);
		assert_int_equal(dma_emit_invalidate_tlb(&b, 2, true, 0, 0xffffffffu), GM_OK);
		raw_put(&t, 0, &b);
		tb_wr(&t, GPU_REG_Q_WPTR(0), (uint32_t)b.len);
		step(&t, k);
		tb_wr(&t, GPU_REG_MMU_INV_CTL, GPU_MMU_INV_CTL_GO(1));
		assert_int_equal(gm_step(t.g, 200), GM_OK);
		raw_check_done(&t, 0, (uint32_t)b.len, 1);
		stall = tb_rd(&t, GPU_REG_Q_STALL_FENCE(0));
		if (stall < 1 || stall > 2)
			fail_msg("register invalidation %u cycles after the doorbell: Q_STALL_FENCE %u", k, stall);
		if (stall == 2)
			break;
	}
	if (stall != 2)
		fail_msg("no delay of 0..79 cycles put the register's invalidation in the queue's cycle");
	printf("register and queue 0 invalidated in one cycle: GO written %u cycles after the doorbell\n", k);

	/* PTE_WRITE to system memory (60 cycles a write), then INVALIDATE_TLB. */
	raw_setup(&t, 0);
	dma_buf_init(&b, dw, 64);
	assert_int_equal(dma_emit_pte_write(&b, t.scratch, flags, base, 0x1000, 4), GM_OK);
	assert_int_equal(dma_emit_invalidate_tlb(&b, 1, false, 0, 0xffffffffu), GM_OK);
	raw_put(&t, 0, &b);
	tb_wr(&t, GPU_REG_Q_WPTR(0), (uint32_t)b.len);
	assert_int_equal(gm_step(t.g, 600), GM_OK);
	raw_check_done(&t, 0, (uint32_t)b.len, 2);
	stall = tb_rd(&t, GPU_REG_Q_STALL_FENCE(0));
	if (stall < 30)
		fail_msg("INVALIDATE_TLB behind PTE writes to system memory waited %u cycles", stall);
	for (unsigned i = 0; i < 4; i++)
		assert_int_equal(tb_mem64(&t, t.scratch + 8 * i), flags | ((base + 0x1000u * i) & in_place));
	tb_close(&t);
}

/* ------------------------------------------------------------ interrupts */

/* Queue 0: a fence to RAW_FENCE (its interrupt if @int1), a fence with
 * interrupt to RAW_FENCE + 8; queue 1, @k cycles later: @pre NOPs of one
 * dword (3 cycles each, no fetch of their own), then an unknown opcode.
 * INT_ENABLE = @enable.  Returns the cycles from queue 0's doorbell to the
 * interrupt line's rise; the queues still run then (irq_settle). */
static uint64_t irq_trial(struct tb *t, unsigned k, unsigned pre, bool int1, uint32_t enable)
{
	uint32_t dw[2][32], bad = 0;
	struct dma_buf b[2];
	uint64_t t0;
	int st;

	while (gpu_opcode_name(++bad))  /* an opcode the spec does not have */
		;
	for (unsigned q = 0; q < 2; q++) {
		raw_setup(t, q);
		dma_buf_init(&b[q], dw[q], 32);
	}
	assert_int_equal(dma_emit_release_fence(&b[0], RAW_FENCE, 1, true, int1), GM_OK);
	assert_int_equal(dma_emit_release_fence(&b[0], RAW_FENCE + 8, 2, true, true), GM_OK);
	for (unsigned i = 0; i < pre; i++)
		assert_int_equal(dma_emit_nop(&b[1], 1), GM_OK);
	assert_int_equal(dma_emit_raw(&b[1], (uint32_t[]){ GPU_PKT_HDR(bad, 0) }, 1), GM_OK);
	raw_put(t, 0, &b[0]);
	raw_put(t, 1, &b[1]);
	tb_wr(t, GPU_REG_INT_STATUS, ~0u);
	tb_wr(t, GPU_REG_INT_ENABLE, enable);
	tb_wr(t, GPU_REG_Q_WPTR(0), (uint32_t)b[0].len);
	t0 = gm_cycles(t->g);
	step(t, k);
	tb_wr(t, GPU_REG_Q_WPTR(1), (uint32_t)b[1].len);
	st = gm_run_until_irq(t->g, 2000, NULL);
	if (st)
		fail_msg("delay %u: no interrupt (%s)", k, gm_status_name(st));
	return gm_cycles(t->g) - t0;
}

/* Let both queues finish (the fence lands, the error stops queue 1) and
 * every request drain, so the next trial starts from the same idle state. */
static void irq_settle(struct tb *t)
{
	step(t, 400);
	tb_wr(t, GPU_REG_INT_ENABLE, 0);
}

/*
 * Queue 0's fence interrupt and queue 1's error interrupt in one cycle,
 * while the line is already high (c_irq_fence_and_error): the scan runs
 * each delay twice, once seeing only the fence's interrupt and once only
 * the error's, and stops where they rise together.  The fence's INT flag
 * and INT_ENABLE change no timing, so a third run with the first fence
 * interrupting (the line high before) and every source enabled meets the
 * two in one cycle; both are latched and the error is the opcode's.
 */
static void test_irq_fence_and_error(void **state)
{
	const uint32_t fence0 = GPU_INT_STATUS_FENCE(1), err1 = GPU_INT_STATUS_ERROR(2);
	struct tb t;
	uint64_t cf = 0, ce = 1, c1;
	unsigned k, pre = 0;

	(void)state;
	tb_open(&t);
	/* The error comes a cycle later per cycle of delay, but where queue 1's
	 * fetch meets queue 0's fence write at the arbiter one of them waits:
	 * the NOP shifts the error by 3 cycles without moving the fetch. */
	for (k = 0; k < 160 && cf != ce; k++) {
		for (pre = 0; pre < 2; pre++) {
			cf = irq_trial(&t, k, pre, false, fence0);
			irq_settle(&t);
			ce = irq_trial(&t, k, pre, false, err1);
			irq_settle(&t);
			if (cf == ce)
				break;
		}
	}
	if (cf != ce)
		fail_msg("no doorbell delay of 0..159 cycles put the fence and the error in one cycle");
	k--;
	printf("fence and error interrupts in one cycle: queue 1 rung %u cycles after queue 0, %u NOPs, "
	       "%" PRIu64 " cycles after queue 0's doorbell\n", k, pre, cf);
	assert_int_equal(gm_backdoor_write(t.g, RAW_FENCE + 8, (uint64_t[]){ 0 }, 8), GM_OK);
	c1 = irq_trial(&t, k, pre, true, ~0u);
	if (c1 >= cf)
		fail_msg("the first fence's interrupt (%" PRIu64 ") came after the second's (%" PRIu64 ")", c1, cf);
	step(&t, cf - c1 + 20);
	assert_int_equal(tb_rd(&t, GPU_REG_INT_STATUS) & (fence0 | err1), fence0 | err1);
	assert_int_equal(GPU_Q_ERR_CAUSE_CAUSE_GET(tb_rd(&t, GPU_REG_Q_ERR_CAUSE(1))), GPU_CAUSE_BAD_OPCODE);
	assert_int_equal(tb_mem64(&t, RAW_FENCE + 8), 2);
	tb_close(&t);
}

/* Queue 0 fences with an interrupt; INT_STATUS.FENCE is written 1 (W1C)
 * @j cycles after the doorbell.  Returns whether the bit is set after. */
static bool w1c_trial(struct tb *t, unsigned j)
{
	const uint32_t fence0 = GPU_INT_STATUS_FENCE(1);
	uint32_t dw[32];
	struct dma_buf b;

	raw_setup(t, 0);
	dma_buf_init(&b, dw, 32);
	assert_int_equal(dma_emit_release_fence(&b, RAW_FENCE, 3, true, true), GM_OK);
	raw_put(t, 0, &b);
	tb_wr(t, GPU_REG_INT_STATUS, ~0u);
	tb_wr(t, GPU_REG_Q_WPTR(0), (uint32_t)b.len);
	step(t, j);
	tb_wr(t, GPU_REG_INT_STATUS, fence0);
	step(t, 300);
	return (tb_rd(t, GPU_REG_INT_STATUS) & fence0) != 0;
}

/*
 * A W1C clear of INT_STATUS.FENCE in the cycle the fence sets it: the set
 * wins (c_regs_w1c_and_set).  A clear before the set leaves the bit set, a
 * clear after it clears it; the scan finds the last delay that leaves it
 * set, the one where the two met.
 */
static void test_w1c_and_set(void **state)
{
	struct tb t;
	unsigned j;

	(void)state;
	tb_open(&t);
	if (!w1c_trial(&t, 0))
		fail_msg("a W1C long before the fence's interrupt cleared it");
	for (j = 1; j < 400 && w1c_trial(&t, j); j++)
		;
	if (j == 400)
		fail_msg("a W1C 400 cycles after the doorbell did not clear the fence's interrupt");
	printf("INT_STATUS cleared and set in one cycle: W1C written %u cycles after the doorbell\n", j - 1);
	tb_close(&t);
}

/* ------------------------------------------------------------ copy packets */

/* Run the one packet in @b on raw queue 0; it must stop with @cause and
 * latch its header. */
static void expect_cause(struct tb *t, const struct dma_buf *b, uint32_t cause, const char *what)
{
	uint32_t got;

	raw_setup(t, 0);
	raw_put(t, 0, b);
	tb_wr(t, GPU_REG_Q_WPTR(0), (uint32_t)b->len);
	step(t, 300);
	got = GPU_Q_ERR_CAUSE_CAUSE_GET(tb_rd(t, GPU_REG_Q_ERR_CAUSE(0)));
	if (got != cause || tb_rd(t, GPU_REG_Q_ERR_HEADER(0)) != b->dw[0])
		fail_msg("%s: cause %s, header 0x%08x; want %s, 0x%08x", what, gpu_cause_name(got),
			 tb_rd(t, GPU_REG_Q_ERR_HEADER(0)), gpu_cause_name(cause), b->dw[0]);
}

/*
 * The copy packets' checks the regression leaves out (cp_copy_cmd): a BLT
 * whose source base is off its tile and whose destination pitch is 0 is
 * BAD_FIELD (the field error wins over the alignment), a COPY past 2^48 is
 * BAD_FIELD.  The packets are emitted legal and then broken in place.
 */
static void test_copy_field_checks(void **state)
{
	uint32_t dw[64];
	struct tb t;
	struct dma_buf b;
	struct dma_surf src = { .base = RAW_AREA + 0x100000, .pitch = 512, .mode = GPU_TILE_Y, .bpe_log2 = 2 };
	struct dma_surf dst = { .base = RAW_AREA + 0x200000, .pitch = 256, .mode = GPU_TILE_LINEAR, .bpe_log2 = 2 };

	(void)state;
	tb_open(&t);
	dma_buf_init(&b, dw, 64);
	assert_int_equal(dma_emit_blt(&b, &dst, &src, 16, 4), GM_OK);
	b.dw[1 + GPU_PKT_BLT_SRC_LO] += 0x100;
	b.dw[1 + GPU_PKT_BLT_DST_FMT] &= ~GPU_PKT_BLT_DST_PITCH(~0u);
	expect_cause(&t, &b, GPU_CAUSE_BAD_FIELD, "BLT off its tile with pitch 0");
	/* The same BLT with its pitch back: the alignment alone. */
	b.dw[1 + GPU_PKT_BLT_DST_FMT] |= GPU_PKT_BLT_DST_PITCH(256);
	expect_cause(&t, &b, GPU_CAUSE_BAD_ALIGN, "BLT off its tile");
	dma_buf_init(&b, dw, 64);
	assert_int_equal(dma_emit_copy(&b, RAW_AREA + 0x200000, RAW_AREA + 0x100000, 64), GM_OK);
	b.dw[1 + GPU_PKT_COPY_SRC_LO] = 0xfffffff0u;
	b.dw[1 + GPU_PKT_COPY_SRC_HI] = 0xffffu;
	expect_cause(&t, &b, GPU_CAUSE_BAD_FIELD, "COPY past 2^48");
	tb_close(&t);
}

/*
 * Three clients of the memory arbiter at once (c_arb_contention): a COPY
 * from queue 0 on the copy engine, WRITE_DATA on queue 1 and an aperture
 * write, with a memory that takes one request at a time.  Each result is
 * checked.  All four never ask together (c_arb_all_clients stays at 0):
 * the engine works for a queue that waits in StCwait and asks for nothing.
 */
static void test_all_clients(void **state)
{
	static uint32_t dw[2][2048];
	struct gm_config c;
	struct tb t;
	struct dma_buf b[2];
	uint8_t *a = malloc(0x4000), *got = malloc(0x4000);
	uint32_t data[256];
	uint64_t seed = 0x5eed0003, f[2];

	(void)state;
	assert_non_null(a);
	assert_non_null(got);
	gm_config_default(&c);
	c.max_outstanding = 1;
	tb_open_cfg(&t, &c);
	fill_bytes(a, 0x4000, &seed);
	assert_int_equal(gm_backdoor_write(t.g, RAW_AREA + 0x100000, a, 0x4000), GM_OK);
	for (uint32_t i = 0; i < 256; i++)
		data[i] = (uint32_t)tb_rand(&seed);
	dma_buf_init(&b[0], dw[0], 2048);
	assert_int_equal(dma_emit_copy(&b[0], RAW_AREA + 0x200000, RAW_AREA + 0x100000, 0x4000), GM_OK);
	dma_buf_init(&b[1], dw[1], 2048);
	for (uint32_t i = 0; i < 4; i++)
		assert_int_equal(dma_emit_write_data(&b[1], t.scratch + 0x400 * i, data + 64 * i, 64), GM_OK);
	f[0] = tb_submit_ib(&t, 0, &b[0]);
	f[1] = tb_submit_ib(&t, 1, &b[1]);
	fill_bytes(got, 0x4000, &seed);
	assert_int_equal(gm_apt_write(t.g, APT_OFF, got, 0x4000), GM_OK);
	tb_wait(&t, 0, f[0]);
	tb_wait(&t, 1, f[1]);
	assert_int_equal(gm_backdoor_read(t.g, GPU_VRAM_BASE + APT_OFF, a, 0x4000), GM_OK);
	assert_memory_equal(a, got, 0x4000);
	assert_int_equal(gm_backdoor_read(t.g, RAW_AREA + 0x100000, a, 0x4000), GM_OK);
	assert_int_equal(gm_backdoor_read(t.g, RAW_AREA + 0x200000, got, 0x4000), GM_OK);
	assert_memory_equal(got, a, 0x4000);
	for (uint32_t i = 0; i < 4; i++)
		for (uint32_t j = 0; j < 64; j++)
			assert_int_equal(tb_mem32(&t, t.scratch + 0x400 * i + 4 * j), data[64 * i + j]);
	free(a);
	free(got);
	tb_close(&t);
}

/* ------------------------------------------------------------ MMU back-pressure */

#define COPY_VA 0x0000456700000000ull
#define COPY_PA (GPU_VRAM_BASE + 0x01000000ull)
#define COPY_BYTES 0x10000u


/* Queue 0 (on its VMID) writes 1 to @va; returns the walks that took. */
static uint32_t write_one_walks(struct tb *t, uint64_t va)
{
	uint32_t dw[16], one = 1, walks = tb_rd(t, GPU_REG_MMU_WALKS);
	struct dma_buf b;

	dma_buf_init(&b, dw, 16);
	assert_int_equal(dma_emit_write_data(&b, va, &one, 1), GM_OK);
	tb_wait(t, 0, tb_submit_ib(t, 0, &b));
	return tb_rd(t, GPU_REG_MMU_WALKS) - walks;
}

/*
 * Queue 0 on VMID 1 copies 64 KiB from a source whose every third page is a
 * null tile (reads zero) to a mapped destination, the firmware's memory
 * mapped 1:1.  With @max_out requests in flight the memory refuses often:
 * the MMU's output buffer fills under walks, hits and merged heads, and
 * null-tile answers wait for memory responses (c_mmu_*).  The destination
 * must hold the source with zeros for the null pages.
 */
static void copy_through_null_pages(uint32_t max_out, uint32_t latency)
{
	static uint32_t dw[64];
	struct gm_config c;
	struct tb t;
	struct tb_ptmem mem;
	struct mmu_pt pt;
	struct dma_buf b;
	uint8_t *src = malloc(COPY_BYTES), *got = malloc(COPY_BYTES);
	uint64_t seed = 0x5eed0001;
	uint32_t walks[2];

	assert_non_null(src);
	assert_non_null(got);
	gm_config_default(&c);
	c.max_outstanding = max_out;
	c.vram_latency_cycles = latency;
	tb_open_cfg(&t, &c);
	tb_ptmem_init(&mem, t.g);
	tb_pt_init(&pt, &mem);
	tb_pt_map_fw(&pt);
	assert_int_equal(mmu_pt_map(&pt, COPY_VA, 2 * COPY_BYTES, COPY_PA, MMU_MAP_R | MMU_MAP_W), GM_OK);
	for (uint32_t p = 0; p < COPY_BYTES; p += 0x3000)
		assert_int_equal(mmu_pt_unmap(&pt, COPY_VA + p, 0x1000, MMU_UNMAP_ZERO), GM_OK);
	for (uint32_t i = 0; i < COPY_BYTES; i++)
		src[i] = (uint8_t)tb_rand(&seed);
	assert_int_equal(gm_backdoor_write(t.g, COPY_PA, src, COPY_BYTES), GM_OK);
	for (uint32_t p = 0; p < COPY_BYTES; p += 0x3000)
		memset(src + p, 0, 0x1000);
	tb_wr(&t, GPU_REG_VM_ROOT_LO(1), (uint32_t)pt.root_pa);
	tb_wr(&t, GPU_REG_VM_ROOT_HI(1), (uint32_t)(pt.root_pa >> 32));
	tb_wr(&t, GPU_REG_MMU_CTRL, GPU_MMU_CTRL_ENABLE(1));
	tb_wr(&t, GPU_REG_Q_VMID(0), 1);
	dma_buf_init(&b, dw, 64);
	assert_int_equal(dma_emit_copy(&b, COPY_VA + COPY_BYTES, COPY_VA, COPY_BYTES), GM_OK);
	tb_wait(&t, 0, tb_submit_ib(&t, 0, &b));
	assert_int_equal(gm_backdoor_read(t.g, COPY_PA + COPY_BYTES, got, COPY_BYTES), GM_OK);
	for (uint32_t i = 0; i < COPY_BYTES; i++)
		if (got[i] != src[i])
			fail_msg("max_outstanding %u: byte 0x%x copied as 0x%02x, want 0x%02x", max_out, i,
				 got[i], src[i]);
	assert_int_equal(tb_rd(&t, GPU_REG_MMU_FAULT_COUNT), 0);
	/* An invalidation of every VMID's every block drops every entry
	 * (c_tlb_inv_all_hit): a write that hit before walks after. */
	walks[0] = write_one_walks(&t, COPY_VA + 2 * COPY_BYTES - 4);
	tb_wr(&t, GPU_REG_MMU_INV_VMID, GPU_MMU_INV_VMID_ALL(1));
	tb_wr(&t, GPU_REG_MMU_INV_START, 0);
	tb_wr(&t, GPU_REG_MMU_INV_END, ~0u);
	tb_wr(&t, GPU_REG_MMU_INV_CTL, GPU_MMU_INV_CTL_GO(1));
	walks[1] = write_one_walks(&t, COPY_VA + 2 * COPY_BYTES - 4);
	if (walks[1] <= walks[0])
		fail_msg("max_outstanding %u: %u walks after invalidating everything, %u before", max_out,
			 walks[1], walks[0]);
	free(src);
	free(got);
	tb_close(&t);
}

static void test_mmu_backpressure(void **state)
{
	(void)state;
	copy_through_null_pages(1, 20);
	copy_through_null_pages(2, 40);
	copy_through_null_pages(64, 20);
}

/*
 * A reserved bit in a directory entry (level 2): the walk faults RESERVED
 * (mmu_top's PDE check, c_mmu_pde_reserved), the queue halts with
 * PAGE_FAULT and MMU_FAULT_* latch the beat's VA, the VMID, the client
 * and the write; nothing lands.  The ring runs translated, mapped 1:1.
 */
static void test_pde_reserved(void **state)
{
	struct tb t;
	struct tb_ptmem mem;
	struct mmu_pt pt;
	const uint64_t va = COPY_VA + 0x40000, pa = COPY_PA + 0x40000;
	uint64_t pde_pa, pde, rsv = GPU_PDE_RESERVED & -GPU_PDE_RESERVED;  /* its lowest bit */
	uint32_t one = 1, st, count;

	(void)state;
	tb_open(&t);
	tb_ptmem_init(&mem, t.g);
	tb_pt_init(&pt, &mem);
	assert_int_equal(mmu_pt_map(&pt, RAW_AREA, 0x100000, RAW_AREA, MMU_MAP_R | MMU_MAP_W), GM_OK);
	assert_int_equal(mmu_pt_map(&pt, va, 0x2000, pa, MMU_MAP_R | MMU_MAP_W), GM_OK);
	assert_int_equal(mmu_pt_lookup(&pt, va, 2, &pde_pa), GM_OK);
	pde = tb_mem64(&t, pde_pa) | rsv;
	assert_int_equal(gm_backdoor_write(t.g, pde_pa, &pde, 8), GM_OK);
	tb_put32(&t, pa + 0x20, 0xdeadbeef);
	tb_wr(&t, GPU_REG_VM_ROOT_LO(3), (uint32_t)pt.root_pa);
	tb_wr(&t, GPU_REG_VM_ROOT_HI(3), (uint32_t)(pt.root_pa >> 32));
	tb_wr(&t, GPU_REG_MMU_CTRL, GPU_MMU_CTRL_ENABLE(1));
	tb_wr(&t, GPU_REG_MMU_FAULT_STATUS, GPU_MMU_FAULT_STATUS_VALID(1));
	raw_write_vmid(&t, 3, va + 0x24, one);
	assert_int_equal(GPU_Q_STATUS_ERROR_GET(tb_rd(&t, GPU_REG_Q_STATUS(0))), 1);
	assert_int_equal(GPU_Q_ERR_CAUSE_CAUSE_GET(tb_rd(&t, GPU_REG_Q_ERR_CAUSE(0))), GPU_CAUSE_PAGE_FAULT);
	st = tb_rd(&t, GPU_REG_MMU_FAULT_STATUS);
	if (!GPU_MMU_FAULT_STATUS_VALID_GET(st) || GPU_MMU_FAULT_STATUS_CAUSE_GET(st) != GPU_FLT_RESERVED ||
	    GPU_MMU_FAULT_STATUS_VMID_GET(st) != 3 || GPU_MMU_FAULT_STATUS_CLIENT_GET(st) != 0 ||
	    !GPU_MMU_FAULT_STATUS_WRITE_GET(st))
		fail_msg("MMU_FAULT_STATUS 0x%x: want a RESERVED write fault of VMID 3, client 0", st);
	assert_int_equal(tb_rd(&t, GPU_REG_MMU_FAULT_VA_LO), (uint32_t)(va + 0x20));
	assert_int_equal(tb_rd(&t, GPU_REG_MMU_FAULT_VA_HI), (uint32_t)(va >> 32));
	assert_int_equal(tb_mem32(&t, pa + 0x24), 0);
	assert_int_equal(tb_mem32(&t, pa + 0x20), 0xdeadbeef);
	/* A second fault (the next page, same directory) while the first is
	 * latched: counted, the latch keeps the first (c_regs_fault_latched). */
	count = tb_rd(&t, GPU_REG_MMU_FAULT_COUNT);
	raw_write_vmid(&t, 3, va + 0x1000, one);
	assert_int_equal(GPU_Q_ERR_CAUSE_CAUSE_GET(tb_rd(&t, GPU_REG_Q_ERR_CAUSE(0))), GPU_CAUSE_PAGE_FAULT);
	assert_int_equal(tb_rd(&t, GPU_REG_MMU_FAULT_COUNT), count + 1);
	assert_int_equal(tb_rd(&t, GPU_REG_MMU_FAULT_STATUS), st);
	assert_int_equal(tb_rd(&t, GPU_REG_MMU_FAULT_VA_LO), (uint32_t)(va + 0x20));
	tb_close(&t);
}

/* ------------------------------------------------------------ aperture back-pressure */


/* Write @n bytes through the aperture and read them back through it and
 * through the backdoor; then the reverse with new backdoor data. */
static void apt_round_trip(struct tb *t, uint32_t off, uint32_t n, uint64_t *seed)
{
	uint8_t *a = malloc(n), *got = malloc(n);

	assert_non_null(a);
	assert_non_null(got);
	fill_bytes(a, n, seed);
	assert_int_equal(gm_apt_write(t->g, off, a, n), GM_OK);
	assert_int_equal(gm_backdoor_read(t->g, GPU_VRAM_BASE + off, got, n), GM_OK);
	assert_memory_equal(got, a, n);
	fill_bytes(a, n, seed);
	assert_int_equal(gm_backdoor_write(t->g, GPU_VRAM_BASE + off, a, n), GM_OK);
	assert_int_equal(gm_apt_read(t->g, off, got, n), GM_OK);
	assert_memory_equal(got, a, n);
	free(a);
	free(got);
}

/* Read row 0 of the Y-tiled, 1-byte-element surface at @surf (@pitch
 * bytes) through the window at @win: each chunk must be the bytes
 * dma_tile_offset places there. */
static void apt_tiled_row(struct tb *t, uint32_t win, uint64_t surf, uint32_t pitch, uint64_t *seed)
{
	uint8_t *a = malloc(pitch), *got = malloc(pitch);

	assert_non_null(a);
	assert_non_null(got);
	fill_bytes(a, pitch, seed);
	for (uint32_t x = 0; x < pitch; x += 16)
		assert_int_equal(gm_backdoor_write(t->g, surf + dma_tile_offset(GPU_TILE_Y, 0, pitch, x, 0),
						   a + x, 16), GM_OK);
	assert_int_equal(gm_apt_read(t->g, win, got, pitch), GM_OK);
	assert_memory_equal(got, a, pitch);
	free(a);
	free(got);
}

/*
 * Slow memory (300 cycles): more writes than AptSlots in flight, more
 * reads than beat buffers (c_apt_slots_full, c_apt_rb_full, c_apt_ru_full).
 * A memory that takes one request at a time: the port refuses, the write
 * queue and the host FIFO fill (c_apt_req_refused, c_apt_wq_full,
 * c_apt_host_not_ready).  Then a Y-tiled range 5 (a division per row
 * change, element placement checked with dma_tile_offset) and a range 6
 * off 16 bytes (every chunk split in halves).
 */
static void test_apt_backpressure(void **state)
{
	struct gm_config c;
	struct tb t;
	uint64_t seed = 0x5eed0002, v = 0;
	uint32_t errs, st;
	const uint32_t pitch = 512, win = 0x0f000000u, rows = 16;
	const uint64_t surf = GPU_VRAM_BASE + 0x0f800000ull;

	(void)state;
	gm_config_default(&c);
	c.vram_latency_cycles = 300;
	c.max_outstanding = 4096;
	tb_open_cfg(&t, &c);
	apt_round_trip(&t, APT_OFF, APT_BYTES, &seed);
	/* A row of a Y-tiled range 4: each 16-byte chunk lies in its own beat,
	 * so the stream has a beat buffer per chunk in flight (c_apt_rb_full). */
	tb_apt_range(&t, 4, win, win + 4096 * 8, surf, GPU_TILE_Y, 0, 4096);
	apt_tiled_row(&t, win, surf, 4096, &seed);
	tb_close(&t);

	gm_config_default(&c);
	c.max_outstanding = 1;
	tb_open_cfg(&t, &c);
	apt_round_trip(&t, APT_OFF, APT_BYTES / 4, &seed);
	/* Range 5: Y tiles of 4-byte elements; each row of the window is a row of the surface. */
	tb_apt_range(&t, 5, win, win + pitch * rows, surf, GPU_TILE_Y, 2, pitch);
	for (uint32_t y = 0; y < rows; y += 5) {
		for (uint32_t x = 0; x < pitch / 4; x += 37) {
			uint32_t e = (y << 16) | x;

			assert_int_equal(gm_apt_write64(t.g, win + y * pitch + (x * 4 & ~7u),
							(x & 1) ? (uint64_t)e << 32 : e, (x & 1) ? 0xf0 : 0x0f), GM_OK);
			assert_int_equal(tb_mem32(&t, surf + dma_tile_offset(GPU_TILE_Y, 2, pitch, x, y)), e);
		}
	}
	/* Range 6 starts 8 bytes into a chunk: every chunk goes in halves. */
	tb_apt_range(&t, 6, win + 0x100008u, win + 0x100108u, surf + 0x10000, GPU_TILE_LINEAR, 0, 256);
	assert_int_equal(gm_apt_write64(t.g, win + 0x100008u, 0x0102030405060708ull, 0xff), GM_OK);
	assert_int_equal(gm_apt_write64(t.g, win + 0x100010u, 0x1112131415161718ull, 0xff), GM_OK);
	assert_int_equal(tb_mem64(&t, surf + 0x10000), 0x0102030405060708ull);
	assert_int_equal(tb_mem64(&t, surf + 0x10008), 0x1112131415161718ull);
	assert_int_equal(gm_apt_read64(t.g, win + 0x100010u, &v), GM_OK);
	assert_int_equal(v, 0x1112131415161718ull);
	/* Range 3 with an unknown tile mode: a posted word fails FORMAT and
	 * APT_ERR_STATUS/APT_ERR_OFF/APT_ERR_COUNT say which; the flush reports it. */
	tb_apt_range(&t, 3, win + 0x200000u, win + 0x201000u, surf + 0x20000, 7, 0, 256);
	errs = tb_rd(&t, GPU_REG_APT_ERR_COUNT);
	assert_int_equal(gm_apt_post64(t.g, win + 0x200018u, 1, 0xff), GM_OK);
	step(&t, 50);
	st = tb_rd(&t, GPU_REG_APT_ERR_STATUS);
	if (!GPU_APT_ERR_STATUS_VALID_GET(st) || GPU_APT_ERR_STATUS_CAUSE_GET(st) != GPU_APT_ERR_FORMAT)
		fail_msg("APT_ERR_STATUS 0x%x after a word through an unknown mode", st);
	assert_int_equal(tb_rd(&t, GPU_REG_APT_ERR_OFF), win + 0x200018u);
	assert_int_equal(tb_rd(&t, GPU_REG_APT_ERR_COUNT), errs + 1);
	assert_int_equal(gm_apt_flush(t.g), GM_ERR_ADDR);
	assert_int_equal(GPU_APT_ERR_STATUS_VALID_GET(tb_rd(&t, GPU_REG_APT_ERR_STATUS)), 0);
	tb_close(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rw_registers),
		cmocka_unit_test(test_counters),
		cmocka_unit_test(test_inv_both_queues),
		cmocka_unit_test(test_inv_register_and_pte),
		cmocka_unit_test(test_irq_fence_and_error),
		cmocka_unit_test(test_w1c_and_set),
		cmocka_unit_test(test_copy_field_checks),
		cmocka_unit_test(test_all_clients),
		cmocka_unit_test(test_mmu_backpressure),
		cmocka_unit_test(test_pde_reserved),
		cmocka_unit_test(test_apt_backpressure),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
