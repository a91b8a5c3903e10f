/* SPDX-License-Identifier: MIT */
/*
 * test_cp_fetch.c - the command processor's prefetch (cp_fetch, ref_fetch.c):
 * beats fetched ahead of the stream are never used once they may be stale.
 *
 * Each case leaves an old value in memory where the stream will read, lets
 * the queue fetch it ahead, then makes the memory new the way a driver may
 * (the rest of a packet behind a second doorbell, a packet that rewrites
 * the IB it then runs, a queue reset with the ring rewritten) and checks
 * that the new content ran.  A prefetch queue that kept the old beat runs
 * the old packet instead, and the check names which.
 *
 * Each test makes its own model (the Verilator backend elaborates one per
 * test; GPUSIM_BACKEND=ref runs them on the reference backend).
 */
#include <string.h>

#include "gpu_pkt.h"
#include "tb_util.h"

#define Q0 FW_QUEUE_RENDER
#define OLD_A 0x0bad0001u  /* what the stale packet writes */
#define NEW_B 0x600d0002u  /* what the new one writes */

/* A model with @sys_latency cycles of system memory latency, the firmware
 * up with 1024-dword rings, and 64 KiB of scratch. */
static void open_lat(struct tb *t, uint32_t sys_latency)
{
	struct gm_config cfg;
	struct fw_dev_cfg dc;

	gm_config_default(&cfg);
	cfg.backend = tb_backend();
	cfg.sys_latency_cycles = sys_latency;
	assert_int_equal(gm_create(&cfg, &t->g), GM_OK);
	fw_dev_cfg_default(&dc);
	assert_int_equal(fw_dev_init(&t->d, t->g, &dc), GM_OK);
	assert_int_equal(fw_alloc_sys(&t->d, 0x10000, 256, &t->scratch), GM_OK);
}

/* Put @n dwords at ring offset @off of queue @q (no doorbell). */
static void ring_put(struct tb *t, unsigned q, uint32_t off, const uint32_t *dw, uint32_t n)
{
	const struct fw_queue *fq = &t->d.q[q];

	for (uint32_t i = 0; i < n; i++)
		tb_put32(t, fq->ring_addr + 4ull * ((off + i) & (fq->ring_dw - 1)), dw[i]);
}

/* The queue ran without error, the old value was never written and the new
 * one was. */
static void check_new_ran(struct tb *t, unsigned q)
{
	assert_int_equal(GPU_Q_STATUS_ERROR_GET(tb_rd(t, GPU_REG_Q_STATUS(q))), 0);
	if (tb_mem32(t, t->scratch) == OLD_A)
		fail_msg("the stale packet ran: a prefetched beat was used after it changed");
	assert_int_equal(tb_mem32(t, t->scratch), 0);
	assert_int_equal(tb_mem32(t, t->scratch + 4), NEW_B);
}

/*
 * A doorbell in the middle of a packet.  Ten beats of NOPs, then a
 * WRITE_DATA whose header and address the driver writes and rings; its data
 * dword in the ring still holds an old value.  The queue fetches the beat
 * (and prefetches the NOPs' beats ahead of it) and waits for the data; the
 * driver writes the data and rings again.  The beat fetched before must be
 * dropped, or the old data dword is written.
 */
static void test_doorbell_mid_packet(void **state)
{
	uint32_t nops[80], pkt[4], v = NEW_B, old = OLD_A, w;
	struct dma_buf b;
	struct tb t;

	(void)state;
	open_lat(&t, 60);
	w = t.d.q[Q0].wptr;
	dma_buf_init(&b, nops, 80);
	while (dma_buf_room(&b))
		assert_int_equal(dma_emit_nop(&b, 3), GM_OK);
	dma_buf_init(&b, pkt, 4);
	assert_int_equal(dma_emit_write_data(&b, t.scratch + 4, &v, 1), GM_OK);
	ring_put(&t, Q0, w, nops, 80);
	ring_put(&t, Q0, w + 80, pkt, 3);
	ring_put(&t, Q0, w + 83, &old, 1); /* the old data dword */
	tb_wr(&t, GPU_REG_Q_WPTR(Q0), w + 83);
	assert_int_equal(gm_step(t.g, 2000), GM_OK);
	assert_int_equal(tb_mem32(&t, t.scratch + 4), 0); /* still waiting for the data */
	ring_put(&t, Q0, w + 83, &pkt[3], 1);
	tb_wr(&t, GPU_REG_Q_WPTR(Q0), w + 84);
	assert_int_equal(gm_step(t.g, 2000), GM_OK);
	assert_int_equal(GPU_Q_STATUS_ERROR_GET(tb_rd(&t, GPU_REG_Q_STATUS(Q0))), 0);
	if (tb_mem32(&t, t.scratch + 4) == OLD_A)
		fail_msg("the old data dword was written: the beat fetched before the doorbell was reused");
	assert_int_equal(tb_mem32(&t, t.scratch + 4), NEW_B);
	assert_int_equal(tb_rd(&t, GPU_REG_Q_RPTR(Q0)), w + 84);
	tb_close(&t);
}

/*
 * An IB jump over prefetched beats.  In one submission: P1, a WRITE_DATA
 * that rewrites the four dwords Z after P2 with a new packet; P2, an
 * INDIRECT_BUFFER of those four dwords; Z, an old packet.  The queue
 * prefetches Z with the ring before P1's write lands.  The IB (Z, now new)
 * must be fetched again at the jump: run from the beats held, it is the old
 * packet.  After the IB the ring runs Z too, new by then.
 */
static void test_ib_jump_drops_prefetch(void **state)
{
	uint32_t buf[32], zold[4], znew[4], a = OLD_A, bv = NEW_B, w, p1_len;
	uint64_t z, f;
	struct dma_buf b;
	struct tb t;

	(void)state;
	open_lat(&t, 60);
	dma_buf_init(&b, zold, 4);
	assert_int_equal(dma_emit_write_data(&b, t.scratch, &a, 1), GM_OK);
	dma_buf_init(&b, znew, 4);
	assert_int_equal(dma_emit_write_data(&b, t.scratch + 4, &bv, 1), GM_OK);
	/* P1's and P2's lengths do not depend on Z's address: measure, then place */
	w = t.d.q[Q0].wptr;
	dma_buf_init(&b, buf, 32);
	assert_int_equal(dma_emit_write_data(&b, 0, znew, 4), GM_OK);
	p1_len = (uint32_t)b.len;
	assert_int_equal(dma_emit_indirect_buffer(&b, 0, 4), GM_OK);
	z = t.d.q[Q0].ring_addr + 4ull * (w + b.len);
	dma_buf_init(&b, buf, 32);
	assert_int_equal(dma_emit_write_data(&b, z, znew, 4), GM_OK);
	assert_int_equal(dma_emit_indirect_buffer(&b, z, 4), GM_OK);
	assert_int_equal((uint32_t)b.len > p1_len, 1);
	assert_int_equal(dma_emit_raw(&b, zold, 4), GM_OK);
	assert_int_equal(fw_submit(&t.d, Q0, b.dw, (uint32_t)b.len, &f), GM_OK);
	tb_wait(&t, Q0, f);
	check_new_ran(&t, Q0);
	tb_close(&t);
}

/*
 * A queue reset with fetches in flight.  The ring holds old packets, the
 * doorbell is rung and the queue starts to fetch them (system memory
 * answers slowly, so the reads are still out); the driver writes new
 * packets over them, resets the queue (Q_CTRL.RESET: RPTR and WPTR to 0)
 * and rings the doorbell over the new packets.  The reads in flight at the
 * reset land afterwards and must be dropped: taken for the new stream's
 * first beats, they run the old packets.  (The reset moves WPTR, so the
 * doorbell rule drops them too: this case guards both.)
 */
static void test_reset_drops_reads_in_flight(void **state)
{
	uint32_t old[32], nw[32], a = OLD_A, bv = NEW_B;
	struct dma_buf b;
	struct tb t;

	(void)state;
	open_lat(&t, 400);
	assert_int_equal(t.d.q[Q0].wptr, 0); /* the stream starts where a reset restarts */
	dma_buf_init(&b, old, 32);
	while (dma_buf_room(&b))
		assert_int_equal(dma_emit_write_data(&b, t.scratch, &a, 1), GM_OK);
	dma_buf_init(&b, nw, 32);
	assert_int_equal(dma_emit_write_data(&b, t.scratch + 4, &bv, 1), GM_OK);
	while (dma_buf_room(&b))
		assert_int_equal(dma_emit_nop(&b, 3), GM_OK);
	assert_int_equal(fw_ring_write(&t.d, Q0, old, 32), GM_OK);
	assert_int_equal(gm_step(t.g, 20), GM_OK);
	ring_put(&t, Q0, 0, nw, 32);
	tb_wr(&t, GPU_REG_Q_CTRL(Q0), tb_rd(&t, GPU_REG_Q_CTRL(Q0)) | GPU_Q_CTRL_RESET(1));
	assert_int_equal(tb_rd(&t, GPU_REG_Q_WPTR(Q0)), 0);
	tb_wr(&t, GPU_REG_Q_WPTR(Q0), 32);
	assert_int_equal(gm_step(t.g, 3000), GM_OK);
	check_new_ran(&t, Q0);
	assert_int_equal(tb_rd(&t, GPU_REG_Q_RPTR(Q0)), 32);
	tb_close(&t);
}

/*
 * A halt with beats held: the queue stops at a packet boundary with the
 * rest of the submission prefetched; while it is halted the driver
 * rewrites the packets it has not run (a preemption's rewrite), then lets
 * it go.  What was prefetched before the halt is dropped.
 */
static void test_halt_drops_prefetch(void **state)
{
	uint32_t buf[64], a = OLD_A, bv = NEW_B;
	struct dma_buf b, nb;
	uint64_t f;
	struct tb t;

	(void)state;
	open_lat(&t, 60);
	/* a WAIT_MEM that holds the queue until released, then old packets */
	dma_buf_init(&b, buf, 64);
	assert_int_equal(dma_emit_wait_mem(&b, t.scratch + 8, 1, 1, GPU_FUNC_EQ, false, 16), GM_OK);
	for (int i = 0; i < 4; i++)
		assert_int_equal(dma_emit_write_data(&b, t.scratch, &a, 1), GM_OK);
	assert_int_equal(fw_submit(&t.d, Q0, b.dw, (uint32_t)b.len, &f), GM_OK);
	assert_int_equal(gm_step(t.g, 1000), GM_OK);
	tb_wr(&t, GPU_REG_Q_CTRL(Q0), tb_rd(&t, GPU_REG_Q_CTRL(Q0)) | GPU_Q_CTRL_HALT(1));
	tb_put32(&t, t.scratch + 8, 1); /* release the WAIT_MEM: the queue halts after it */
	assert_int_equal(gm_step(t.g, 1000), GM_OK);
	assert_int_equal(GPU_Q_STATUS_STATE_GET(tb_rd(&t, GPU_REG_Q_STATUS(Q0))), GPU_CP_ST_HALTED);
	assert_int_equal(tb_mem32(&t, t.scratch), 0);
	/* rewrite the four old packets as one new one and NOPs */
	dma_buf_init(&nb, buf + 64 - 16, 16);
	assert_int_equal(dma_emit_write_data(&nb, t.scratch + 4, &bv, 1), GM_OK);
	while (nb.len < 16)
		assert_int_equal(dma_emit_nop(&nb, 3), GM_OK);
	ring_put(&t, Q0, tb_rd(&t, GPU_REG_Q_RPTR(Q0)), nb.dw, 16);
	tb_wr(&t, GPU_REG_Q_CTRL(Q0), tb_rd(&t, GPU_REG_Q_CTRL(Q0)) & ~GPU_Q_CTRL_HALT(1));
	tb_wait(&t, Q0, f);
	check_new_ran(&t, Q0);
	tb_close(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_doorbell_mid_packet),
		cmocka_unit_test(test_ib_jump_drops_prefetch),
		cmocka_unit_test(test_reset_drops_reads_in_flight),
		cmocka_unit_test(test_halt_drops_prefetch),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
