/* SPDX-License-Identifier: MIT */
/*
 * test_peek.c - gm_reg_peek (gm.h): registers read for a report without
 * moving the clock.  After real work (two queues, a fence, a CP error) a
 * peek returns what gm_reg_read returns at the same cycle, and the model's
 * cycle, register-access counts and later behaviour do not change (the same
 * run with and without peeks ends on the same cycle with the same memory);
 * its argument checks.  And gm_set_tick_hook, the clock of the progress
 * line.  On the backend GPUSIM_BACKEND names (ref_peek runs it on ref).
 */
#include <string.h>

#include "gpu_names.h"
#include "tb_util.h"

/* Registers a report reads: identity, scratch, the queues' counters and
 * error latches (the counters move every busy cycle). */
static const uint32_t regs[] = {
	GPU_REG_ID,
	GPU_REG_SCRATCH,
	GPU_REG_Q_PKTS(0),
	GPU_REG_Q_BUSY_CYCLES(0),
	GPU_REG_Q_PKTS(1),
	GPU_REG_Q_BUSY_CYCLES(1),
	GPU_REG_Q_ERR_CAUSE(1),
	GPU_REG_CYCLE_LO,
};
#define NREGS (sizeof(regs) / sizeof(regs[0]))

static uint32_t ibs[1024];

/* Work on both queues, then a bad packet on the copy queue (left halted in
 * its error: the latch stays readable); with @peek, peeks between steps. */
static uint64_t run(struct tb *t, bool peek, uint32_t *mem, size_t len)
{
	uint32_t bad[2] = { GPU_PKT_HDR(0xee, 1), 0 }, v[4] = { 1, 2, 3, 4 }, got[NREGS];
	struct dma_buf b;
	uint64_t f;

	tb_wr(t, GPU_REG_SCRATCH, 0x5eed1234u);
	dma_buf_init(&b, ibs, 512);
	dma_emit_write_data(&b, t->scratch + 0x40, v, 4);
	dma_emit_timestamp(&b, t->scratch + 0x80);
	f = tb_submit_ib(t, FW_QUEUE_RENDER, &b);
	if (peek)
		assert_int_equal(gm_reg_peek(t->g, regs, got, NREGS), GM_OK);
	tb_wait(t, FW_QUEUE_RENDER, f);
	dma_buf_init(&b, ibs + 512, 512);
	dma_emit_raw(&b, bad, 2);
	f = tb_submit_ib(t, FW_QUEUE_COPY, &b);
	assert_int_equal(fw_fence_wait(&t->d, FW_QUEUE_COPY, f, TB_BUDGET), GM_ERR_HW);
	if (peek)
		assert_int_equal(gm_reg_peek(t->g, regs, got, NREGS), GM_OK);
	gm_step(t->g, 50);
	assert_int_equal(gm_backdoor_read(t->g, t->scratch, mem, len), GM_OK);
	return gm_cycles(t->g);
}

/* A peek answers what a read at the same cycle answers, and takes no time. */
static void test_peek_matches_read(void **state)
{
	struct tb t;
	uint32_t mem[64], peeked[NREGS], again[NREGS], read[NREGS];
	struct gm_stats s0, s1;
	uint64_t c0;

	(void)state;
	tb_open(&t);
	run(&t, false, mem, sizeof(mem));
	gm_get_stats(t.g, &s0);
	c0 = gm_cycles(t.g);
	assert_int_equal(gm_reg_peek(t.g, regs, peeked, NREGS), GM_OK);
	assert_int_equal(gm_reg_peek(t.g, regs, again, NREGS), GM_OK);
	gm_get_stats(t.g, &s1);
	assert_int_equal(gm_cycles(t.g), c0);
	assert_int_equal(s1.reg_reads, s0.reg_reads);
	assert_memory_equal(peeked, again, sizeof(peeked));
	for (size_t i = 0; i < NREGS; i++)
		read[i] = tb_rd(&t, regs[i]);
	/* The same reads from the same cycle: CYCLE_LO too. */
	assert_memory_equal(peeked, read, sizeof(read));
	assert_int_equal(peeked[0], GPU_ID_VALUE);
	assert_int_equal(peeked[1], 0x5eed1234u);
	assert_int_not_equal(peeked[6], 0); /* the copy queue's error cause */
	assert_true(peeked[3] > 0);         /* render busy cycles */
	tb_close(&t);
}

/* Peeks change nothing later: the same run with and without them ends on
 * the same cycle with the same memory. */
static void test_peek_changes_nothing(void **state)
{
	struct tb a, b;
	uint32_t ma[64], mb[64];
	uint64_t ca, cb;

	(void)state;
	tb_open(&a);
	ca = run(&a, false, ma, sizeof(ma));
	tb_close(&a);
	tb_open(&b);
	cb = run(&b, true, mb, sizeof(mb));
	tb_close(&b);
	assert_int_equal(ca, cb);
	assert_memory_equal(ma, mb, sizeof(ma));
}

/* The tick hook: called every @every cycles the model runs, on the cycle,
 * and removed by NULL. */
struct hook_log {
	unsigned n;
	uint64_t at[16];
};

static void hook(void *ctx, uint64_t cycle)
{
	struct hook_log *l = ctx;

	if (l->n < 16)
		l->at[l->n] = cycle;
	l->n++;
}

static void test_tick_hook(void **state)
{
	struct tb t;
	struct hook_log l = { 0 };
	uint64_t c0;

	(void)state;
	tb_open(&t);
	c0 = gm_cycles(t.g);
	gm_set_tick_hook(t.g, hook, &l, 100);
	assert_int_equal(gm_step(t.g, 1000), GM_OK);
	assert_int_equal(l.n, 10);
	for (unsigned i = 0; i < 10; i++)
		assert_int_equal(l.at[i], c0 + 100 * (i + 1));
	(void)tb_rd(&t, GPU_REG_ID); /* two cycles: no call before c0 + 1100 */
	assert_int_equal(l.n, 10);
	gm_set_tick_hook(t.g, NULL, NULL, 100);
	assert_int_equal(gm_step(t.g, 1000), GM_OK);
	assert_int_equal(l.n, 10);
	gm_set_tick_hook(NULL, hook, &l, 1); /* ignored */
	tb_close(&t);
}

/* Bad arguments: nothing read, no time. */
static void test_peek_bad_args(void **state)
{
	struct tb t;
	uint32_t off[2] = { GPU_REG_ID, 0x2u }, far[1] = { 0x10000u }, val[2] = { 7, 7 };
	uint32_t many[GM_PEEK_MAX + 1];
	uint64_t c0;

	(void)state;
	tb_open(&t);
	c0 = gm_cycles(t.g);
	memset(many, 0, sizeof(many));
	assert_int_equal(gm_reg_peek(NULL, off, val, 1), GM_ERR_BAD_ARG);
	assert_int_equal(gm_reg_peek(t.g, NULL, val, 1), GM_ERR_BAD_ARG);
	assert_int_equal(gm_reg_peek(t.g, off, NULL, 1), GM_ERR_BAD_ARG);
	assert_int_equal(gm_reg_peek(t.g, off, val, 0), GM_ERR_BAD_ARG);
	assert_int_equal(gm_reg_peek(t.g, off, val, 2), GM_ERR_BAD_ARG); /* misaligned */
	assert_int_equal(gm_reg_peek(t.g, far, val, 1), GM_ERR_BAD_ARG); /* past BAR0 */
	assert_int_equal(gm_reg_peek(t.g, many, many, GM_PEEK_MAX + 1), GM_ERR_BAD_ARG);
	assert_int_equal(val[0], 7);
	assert_int_equal(val[1], 7);
	assert_int_equal(gm_cycles(t.g), c0);
	tb_close(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_peek_matches_read),
		cmocka_unit_test(test_peek_changes_nothing),
		cmocka_unit_test(test_peek_bad_args),
		cmocka_unit_test(test_tick_hook),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
