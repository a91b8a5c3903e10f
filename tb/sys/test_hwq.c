/* SPDX-License-Identifier: MIT */
/*
 * test_hwq.c - the hardware-queue front end through the C API
 * (regspec/REGISTERS.md: DB registers, DB_UNMAPPED; regspec/DESIGN.md,
 * Hardware queues and the scheduler).
 *
 * Testplan
 *   a doorbell of a queue no slot holds is kept (DB_WPTR reads it back,
 *   20 bits) and counted (DB_UNMAPPED); no queue moves ................ test_db_unmapped_kept
 *   every doorbell is its own entry, none aliases another or Q_WPTR .. test_db_each_own
 *   an offset past the table answers an error and reads 0; a write to
 *   DB_UNMAPPED (read-only) changes nothing ........................... test_db_bad_offset
 */
#include <stdio.h>
#include <string.h>

#include "tb_util.h"

#define STEP_CYCLES 200u

/* What the queues show: each one's read and write pointers and packets. */
struct qsnap {
	uint32_t rptr[2], wptr[2], pkts[2];
};

static void snap(struct tb *t, struct qsnap *s)
{
	for (unsigned i = 0; i < 2; i++) {
		s->rptr[i] = tb_rd(t, GPU_REG_Q_RPTR(i));
		s->wptr[i] = tb_rd(t, GPU_REG_Q_WPTR(i));
		s->pkts[i] = tb_rd(t, GPU_REG_Q_PKTS(i));
	}
}

static void test_db_unmapped_kept(void **state)
{
	struct qsnap before, after;
	struct tb t;

	(void)state;
	tb_open(&t);
	assert_int_equal(tb_rd(&t, GPU_REG_DB_UNMAPPED), 0);
	for (uint32_t d = 0; d < GPU_NUM_DOORBELLS; d++)
		assert_int_equal(tb_rd(&t, GPU_REG_DB_WPTR(d)), 0);
	snap(&t, &before);
	tb_wr(&t, GPU_REG_DB_WPTR(5), 0x123);
	tb_wr(&t, GPU_REG_DB_WPTR(GPU_NUM_DOORBELLS - 1), 0xfff12345u); /* 20 bits kept */
	tb_wr(&t, GPU_REG_DB_WPTR(5), 0x124);                             /* the newest wins */
	assert_int_equal(gm_step(t.g, STEP_CYCLES), GM_OK);
	assert_int_equal(tb_rd(&t, GPU_REG_DB_WPTR(5)), 0x124);
	assert_int_equal(tb_rd(&t, GPU_REG_DB_WPTR(GPU_NUM_DOORBELLS - 1)), 0x12345);
	assert_int_equal(tb_rd(&t, GPU_REG_DB_UNMAPPED), 3);
	snap(&t, &after);
	assert_memory_equal(&before, &after, sizeof(before));
	tb_close(&t);
}

static void test_db_each_own(void **state)
{
	struct tb t;

	(void)state;
	tb_open(&t);
	for (uint32_t d = 0; d < GPU_NUM_DOORBELLS; d++)
		tb_wr(&t, GPU_REG_DB_WPTR(d), (d * 0x9e37u + 1) & GPU_REG_DB_WPTR_BITS);
	for (uint32_t d = 0; d < GPU_NUM_DOORBELLS; d++)
		assert_int_equal(tb_rd(&t, GPU_REG_DB_WPTR(d)), (d * 0x9e37u + 1) & GPU_REG_DB_WPTR_BITS);
	assert_int_equal(tb_rd(&t, GPU_REG_DB_UNMAPPED), GPU_NUM_DOORBELLS);
	/* the register-programmed queues' doorbells are their own */
	assert_int_equal(tb_rd(&t, GPU_REG_Q_WPTR(0)), t.d.q[0].wptr);
	assert_int_equal(tb_rd(&t, GPU_REG_Q_WPTR(1)), t.d.q[1].wptr);
	tb_close(&t);
}

static void test_db_bad_offset(void **state)
{
	uint32_t past = GPU_REG_DB_WPTR(GPU_NUM_DOORBELLS), v = 0x55;
	struct tb t;

	(void)state;
	tb_open(&t);
	assert_int_equal(gm_reg_write(t.g, past, 7), GM_ERR_ADDR);
	assert_int_equal(gm_reg_read(t.g, past, &v), GM_ERR_ADDR);
	assert_int_equal(v, 0);
	assert_int_equal(gm_reg_write(t.g, GPU_REG_DB_UNMAPPED, 9), GM_OK);
	assert_int_equal(tb_rd(&t, GPU_REG_DB_UNMAPPED), 0);
	tb_close(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_db_unmapped_kept),
		cmocka_unit_test(test_db_each_own),
		cmocka_unit_test(test_db_bad_offset),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
