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
 *    against what a known workload must give.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cov_raw.h"
#include "dma_names.h"

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rw_registers),
		cmocka_unit_test(test_counters),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
