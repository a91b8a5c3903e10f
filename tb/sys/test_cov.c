/* SPDX-License-Identifier: MIT */
/*
 * test_cov.c - directed tests for what the regression does not reach: the
 * same-cycle corner cases the RTL's cover points name (make coverage
 * counts them).  Its companions by theme: test_cov_toggle.c (every
 * register bit, the counters, wide fields at their far ends) and
 * test_cov_bp.c (back-pressure on the MMU's and the aperture's buffers).
 *
 *  - INVALIDATE_TLB from queue 0, from both queues in one cycle, in the
 *    cycle of a register invalidation, and behind PTE writes in flight;
 *  - a fence interrupt of one queue and an error of the other in one cycle;
 *    a W1C clear of INT_STATUS in the cycle its bit is set;
 *  - two aperture errors in one cycle (a posted word's format error and an
 *    earlier word's memory error), an MMU fault and an aperture error in one
 *    cycle;
 *  - the copy packets' field checks, and three memory clients at once.
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

#include "cov_raw.h"
#include "gpu_names.h"
#include "mmu_pt.h"

static void emit_nops(struct dma_buf *b, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		assert_int_equal(dma_emit_nop(b, 0), GM_OK);
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
	raw_step(t, k);
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
 * c_queue_invalidate_refused, cp_exec c_cp_inv_refused).  The scan
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
		raw_step(&t, k);
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

	while (gpu_opcode_name(++bad))  /* an opcode regspec does not have */
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
	raw_step(t, k);
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
	raw_step(t, 400);
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
	raw_step(&t, cf - c1 + 20);
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
	raw_step(t, j);
	tb_wr(t, GPU_REG_INT_STATUS, fence0);
	raw_step(t, 300);
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

/* ------------------------------------------------------------ errors in one cycle */

#define WIN_FMT 0x0f200000u  /* aperture range 3: an unknown tile mode */
#define WIN_MEM 0x0f300000u  /* aperture range 2: a base in no memory region */
#define FAULT_VA 0x0000765400000000ull  /* unmapped in VMID 3 */

/* Range 3 fails a posted word at once (FORMAT), range 2 when the memory
 * answers its beat (MEM). */
static void apt_bad_ranges(struct tb *t)
{
	tb_apt_range(t, 3, WIN_FMT, WIN_FMT + 0x1000, GPU_VRAM_BASE + 0x0e900000ull, 7, 0, 256);
	tb_apt_range(t, 2, WIN_MEM, WIN_MEM + 0x1000, 0x200000000000ull, GPU_TILE_LINEAR, 0, 256);
}

/* INT_STATUS cleared, INT_ENABLE = @enable, the fault and aperture error
 * latches re-armed. */
static void irq_arm(struct tb *t, uint32_t enable)
{
	tb_wr(t, GPU_REG_INT_STATUS, ~0u);
	tb_wr(t, GPU_REG_MMU_FAULT_STATUS, GPU_MMU_FAULT_STATUS_VALID(1));
	tb_wr(t, GPU_REG_APT_ERR_STATUS, GPU_APT_ERR_STATUS_VALID(1));
	tb_wr(t, GPU_REG_INT_ENABLE, enable);
}

/* Run until the line rises; returns the cycles since @t0. */
static uint64_t irq_rise(struct tb *t, uint64_t t0, const char *what, unsigned k)
{
	int st = gm_run_until_irq(t->g, 2000, NULL);

	if (st)
		fail_msg("%s, delay %u: no interrupt (%s)", what, k, gm_status_name(st));
	return gm_cycles(t->g) - t0;
}

/* A word posted at @off0, @k cycles later one at @off1 (INT_ENABLE
 * @enable).  Returns the cycles from the first post to the line's rise;
 * then waits for both words (a flush: GM_ERR_ADDR when one failed). */
static uint64_t apt_err_trial(struct tb *t, uint32_t off0, unsigned k, uint32_t off1, uint32_t enable)
{
	uint64_t t0, c;

	irq_arm(t, enable);
	t0 = gm_cycles(t->g);
	assert_int_equal(gm_apt_post64(t->g, off0, 1, 0xff), GM_OK);
	raw_step(t, k);
	assert_int_equal(gm_apt_post64(t->g, off1, 2, 0xff), GM_OK);
	c = irq_rise(t, t0, "aperture errors", k);
	assert_int_equal(gm_apt_flush(t->g), GM_ERR_ADDR);
	return c;
}

/*
 * A posted word's FORMAT error in the cycle the memory answers an earlier
 * word's beat with an error (c_apt_two_errors): the scan runs each delay
 * with only the memory error and with only the format error (the other
 * word posted to a good offset) and stops where the two rise together.
 * Both at once count two errors and latch the memory's (it wins the cycle).
 */
static void test_apt_two_errors(void **state)
{
	const uint32_t en = GPU_INT_STATUS_APT_ERR(1);
	struct tb t;
	uint64_t cm = 1, cf = 0;
	uint32_t errs, st;
	unsigned k;

	(void)state;
	tb_open(&t);
	apt_bad_ranges(&t);
	for (k = 0; k < 300 && cf < cm; k++) {
		cm = apt_err_trial(&t, WIN_MEM, k, APT_OFF, en);
		cf = apt_err_trial(&t, APT_OFF, k, WIN_FMT, en);
	}
	if (cf != cm)
		fail_msg("no delay put the format error in the memory error's cycle (%" PRIu64 " vs %" PRIu64 ")",
			 cf, cm);
	k--;
	printf("aperture format and memory errors in one cycle: second word %u cycles after the first\n", k);
	errs = tb_rd(&t, GPU_REG_APT_ERR_COUNT);
	irq_arm(&t, en);
	assert_int_equal(gm_apt_post64(t.g, WIN_MEM, 1, 0xff), GM_OK);
	raw_step(&t, k);
	assert_int_equal(gm_apt_post64(t.g, WIN_FMT, 2, 0xff), GM_OK);
	raw_step(&t, 400);
	st = tb_rd(&t, GPU_REG_APT_ERR_STATUS);
	if (!GPU_APT_ERR_STATUS_VALID_GET(st) || GPU_APT_ERR_STATUS_CAUSE_GET(st) != GPU_APT_ERR_MEM)
		fail_msg("APT_ERR_STATUS 0x%x: want the memory error latched", st);
	assert_int_equal(tb_rd(&t, GPU_REG_APT_ERR_OFF), WIN_MEM);
	assert_int_equal(tb_rd(&t, GPU_REG_APT_ERR_COUNT), errs + 2);
	assert_int_equal(gm_apt_flush(t.g), GM_ERR_ADDR);
	tb_close(&t);
}

/* Queue 0 in VMID 3 writes the unmapped FAULT_VA; @k cycles after its
 * doorbell a word is posted at @off.  Returns the cycles from the doorbell
 * to the line's rise (INT_ENABLE @enable), then lets both finish. */
static uint64_t fault_apt_trial(struct tb *t, unsigned k, uint32_t off, uint32_t enable)
{
	uint64_t t0, c;

	irq_arm(t, enable);
	raw_ring_write(t, 3, FAULT_VA, 1);
	t0 = gm_cycles(t->g);
	raw_step(t, k);
	assert_int_equal(gm_apt_post64(t->g, off, 2, 0xff), GM_OK);
	c = irq_rise(t, t0, "fault and aperture error", k);
	raw_step(t, 300);
	assert_int_equal(gm_apt_flush(t->g), off == WIN_FMT ? GM_ERR_ADDR : GM_OK);
	return c;
}

/*
 * An MMU fault and an aperture FORMAT error raise INT_STATUS in one cycle
 * (c_irq_fault_and_apt), found as above: the fault alone enabled (the word
 * posted good) and the format error alone, scanning the post's delay.
 * Both latched then, each with its own cause.
 */
static void test_irq_fault_and_apt(void **state)
{
	const uint32_t en_f = GPU_INT_STATUS_MMU_FAULT(1), en_a = GPU_INT_STATUS_APT_ERR(1);
	struct tb t;
	struct tb_ptmem mem;
	struct mmu_pt pt;
	uint64_t cf = 1, ca = 0;
	uint32_t st;
	unsigned k;

	(void)state;
	tb_open(&t);
	raw_vm3_tables(&t, &mem, &pt);
	apt_bad_ranges(&t);
	for (k = 0; k < 600 && ca < cf; k++) {
		cf = fault_apt_trial(&t, k, APT_OFF, en_f);
		ca = fault_apt_trial(&t, k, WIN_FMT, en_a);
	}
	if (ca != cf || cf <= k)
		fail_msg("no delay put the aperture error in the fault's cycle (%" PRIu64 " vs %" PRIu64 ")", ca, cf);
	k--;
	printf("MMU fault and aperture error in one cycle: word posted %u cycles after the doorbell\n", k);
	irq_arm(&t, en_f | en_a);
	raw_ring_write(&t, 3, FAULT_VA, 1);
	raw_step(&t, k);
	assert_int_equal(gm_apt_post64(t.g, WIN_FMT, 2, 0xff), GM_OK);
	raw_step(&t, 300);
	assert_int_equal(tb_rd(&t, GPU_REG_INT_STATUS) & (en_f | en_a), en_f | en_a);
	st = tb_rd(&t, GPU_REG_MMU_FAULT_STATUS);
	if (GPU_MMU_FAULT_STATUS_CAUSE_GET(st) != GPU_FLT_PDE_INVALID || GPU_MMU_FAULT_STATUS_VMID_GET(st) != 3)
		fail_msg("MMU_FAULT_STATUS 0x%x: want PDE_INVALID in VMID 3", st);
	assert_int_equal(tb_rd(&t, GPU_REG_MMU_FAULT_VA_HI), (uint32_t)(FAULT_VA >> 32));
	assert_int_equal(GPU_APT_ERR_STATUS_CAUSE_GET(tb_rd(&t, GPU_REG_APT_ERR_STATUS)), GPU_APT_ERR_FORMAT);
	assert_int_equal(tb_rd(&t, GPU_REG_APT_ERR_OFF), WIN_FMT);
	assert_int_equal(GPU_Q_ERR_CAUSE_CAUSE_GET(tb_rd(&t, GPU_REG_Q_ERR_CAUSE(0))), GPU_CAUSE_PAGE_FAULT);
	assert_int_equal(gm_apt_flush(t.g), GM_ERR_ADDR);
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
	raw_step(t, 300);
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
	raw_fill_bytes(a, 0x4000, &seed);
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
	raw_fill_bytes(got, 0x4000, &seed);
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_inv_both_queues),
		cmocka_unit_test(test_inv_register_and_pte),
		cmocka_unit_test(test_irq_fence_and_error),
		cmocka_unit_test(test_w1c_and_set),
		cmocka_unit_test(test_apt_two_errors),
		cmocka_unit_test(test_irq_fault_and_apt),
		cmocka_unit_test(test_copy_field_checks),
		cmocka_unit_test(test_all_clients),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
