/* SPDX-License-Identifier: MIT */
/*
 * test_cp.c - the command processor, packet by packet, through the C API and
 * the firmware layer: every packet, every error cause, two queues, resets.
 *
 * Each test makes its own model, so this binary runs on the Verilator
 * backend (the SystemC kernel elaborates one model per process; see
 * test_sc_smoke.c for that backend).
 */
#include <string.h>

#include "gpu_names.h"
#include "gpu_pkt.h"
#include "tb_util.h"

#define Q0 FW_QUEUE_RENDER
#define Q1 FW_QUEUE_COPY
#define UNMAPPED 0x40000000ull /* between the end of 256 MiB VRAM and sysmem */

static uint32_t ib_store[4096];

static struct dma_buf fresh(void)
{
	struct dma_buf b;

	dma_buf_init(&b, ib_store, 4096);
	return b;
}

/* ------------------------------------------------------------------ registers */

static void test_regs_identity(void **state)
{
	struct tb t;
	uint32_t v = 0, lo, hi;
	uint64_t c0;

	(void)state;
	tb_open(&t);
	assert_int_equal(tb_rd(&t, GPU_REG_ID), GPU_ID_VALUE);
	v = tb_rd(&t, GPU_REG_CAPS);
	assert_int_equal(GPU_CAPS_NUM_QUEUES_GET(v), 2);
	assert_int_equal(1u << GPU_CAPS_BEAT_LOG2_GET(v), 32);
	assert_int_equal(GPU_CAPS_VERSION_GET(v), GPU_VERSION);
	tb_wr(&t, GPU_REG_SCRATCH, 0xa5a5f00d);
	assert_int_equal(tb_rd(&t, GPU_REG_SCRATCH), 0xa5a5f00d);
	assert_int_equal(tb_rd(&t, GPU_REG_IB_MAX_DW), GPU_IB_MAX_DW_RESET);
	/* CYCLE_LO latches CYCLE_HI; the counter moves one per cycle. */
	c0 = gm_cycles(t.g);
	lo = tb_rd(&t, GPU_REG_CYCLE_LO);
	hi = tb_rd(&t, GPU_REG_CYCLE_HI);
	assert_int_equal(hi, 0);
	gm_step(t.g, 100);
	c0 = gm_cycles(t.g) - c0;
	assert_int_equal(tb_rd(&t, GPU_REG_CYCLE_LO) - lo, c0);
	/* Read-only registers ignore writes. */
	tb_wr(&t, GPU_REG_ID, 0);
	assert_int_equal(tb_rd(&t, GPU_REG_ID), GPU_ID_VALUE);
	tb_close(&t);
}

/* Offsets that name no register answer the port's error; nothing changes. */
static void test_regs_unmapped(void **state)
{
	static const uint32_t holes[] = {
		GPU_REG_DB_UNMAPPED + 4, 0x0fc, GPU_QREG_BASE + 0x4c, GPU_QREG_BASE + 0x7c, 0x838, 0x8fc,
		GPU_VMREG_BASE + GPU_NUM_VMIDS * GPU_VMREG_STRIDE,
		GPU_DBREG_BASE + GPU_NUM_DOORBELLS * GPU_DBREG_STRIDE, /* past the doorbell table */
		GPU_QREG_BASE + 2 * GPU_QREG_STRIDE, /* queue 2 does not exist */
		0x8000, 0xfffc,
	};
	struct tb t;
	uint32_t v;

	(void)state;
	tb_open(&t);
	for (size_t i = 0; i < sizeof(holes) / sizeof(holes[0]); i++) {
		v = 0xdead;
		assert_int_equal(gm_reg_read(t.g, holes[i], &v), GM_ERR_ADDR);
		assert_int_equal(v, 0);
		assert_int_equal(gm_reg_write(t.g, holes[i], 0xffffffff), GM_ERR_ADDR);
	}
	assert_int_equal(tb_rd(&t, GPU_REG_SCRATCH), 0);
	tb_close(&t);
}

/* Bad arguments: documented error, no cycle passes. */
static void test_api_bad_args(void **state)
{
	struct gm_config cfg;
	struct gm *g = (struct gm *)0x1;
	struct tb t;
	uint32_t v;
	uint64_t c, addr;

	(void)state;
	gm_config_default(&cfg);
	assert_int_equal(gm_create(NULL, &g), GM_ERR_BAD_ARG);
	assert_int_equal(gm_create(&cfg, NULL), GM_ERR_BAD_ARG);
	cfg.vram_bytes = 0;
	assert_int_equal(gm_create(&cfg, &g), GM_ERR_BAD_ARG);
	gm_config_default(&cfg);
	cfg.vram_latency_cycles = 0;
	assert_int_equal(gm_create(&cfg, &g), GM_ERR_BAD_ARG);
	gm_config_default(&cfg);
	cfg.backend = (enum gm_backend_kind)7;
	assert_int_equal(gm_create(&cfg, &g), GM_ERR_BAD_ARG);
	gm_config_default(&cfg);
	cfg.max_outstanding = 0;
	assert_int_equal(gm_create(&cfg, &g), GM_ERR_BAD_ARG);
	/* the reset is bounded: 2^32 - 1 cycles would hold gm_create for hours */
	gm_config_default(&cfg);
	cfg.reset_cycles = 0xffffffffu;
	assert_int_equal(gm_create(&cfg, &g), GM_ERR_BAD_ARG);
	cfg.reset_cycles = GM_MAX_RESET_CYCLES + 1;
	assert_int_equal(gm_create(&cfg, &g), GM_ERR_BAD_ARG);
	cfg.reset_cycles = 0;
	assert_int_equal(gm_create(&cfg, &g), GM_ERR_BAD_ARG);
	assert_ptr_equal(g, (struct gm *)0x1);
	cfg.backend = tb_backend();
	cfg.reset_cycles = GM_MAX_RESET_CYCLES;  /* the longest: clocked, and no more */
	if (gm_backend_info(cfg.backend)->caps & GM_CAP_MANY) { /* SystemC: one model */
		assert_int_equal(gm_create(&cfg, &g), GM_OK);
		assert_int_equal(gm_cycles(g), GM_MAX_RESET_CYCLES);
		gm_destroy(g);
	}

	tb_open(&t);
	c = gm_cycles(t.g);
	assert_int_equal(gm_reg_read(t.g, 2, &v), GM_ERR_BAD_ARG);
	assert_int_equal(gm_reg_write(t.g, 0x10000, 0), GM_ERR_BAD_ARG);
	assert_int_equal(gm_reg_read(t.g, 0, NULL), GM_ERR_BAD_ARG);
	assert_int_equal(gm_backdoor_write32(t.g, UNMAPPED, 1), GM_ERR_ADDR);
	assert_int_equal(gm_backdoor_read32(t.g, UNMAPPED, &v), GM_ERR_ADDR);
	assert_int_equal(gm_run_until(t.g, NULL, NULL, 10, NULL), GM_ERR_BAD_ARG);
	assert_int_equal(gm_cycles(t.g), c);
	/* Firmware arguments. */
	assert_int_equal(fw_ring_write(&t.d, 5, &v, 1), GM_ERR_BAD_ARG);
	assert_int_equal(fw_ring_write(&t.d, Q0, NULL, 1), GM_ERR_BAD_ARG);
	assert_int_equal(fw_ring_write(&t.d, Q0, ib_store, t.d.q[Q0].ring_dw), GM_ERR_BAD_ARG);
	assert_int_equal(fw_fence_wait(&t.d, Q0, 99, 10), GM_ERR_BAD_ARG);
	assert_int_equal(fw_alloc_sys(&t.d, 16, 3, &addr), GM_ERR_BAD_ARG);
	assert_int_equal(fw_alloc_sys(&t.d, 1ull << 40, 16, &addr), GM_ERR_NO_MEM);
	tb_close(&t);
}

/*
 * Bring-up's refusals (fw_dev.h): NULLs and a ring size out of range are
 * GM_ERR_BAD_ARG before any register access (no cycle passes); more system
 * memory than the model has is GM_ERR_ADDR; then the same model comes up.
 */
static void test_dev_init_bad(void **state)
{
	struct gm_config cfg;
	struct fw_dev_cfg dc;
	struct fw_dev d;
	struct gm *g;
	uint64_t c;
	uint32_t v;

	(void)state;
	gm_config_default(&cfg);
	cfg.backend = tb_backend();
	assert_int_equal(gm_create(&cfg, &g), GM_OK);
	fw_dev_cfg_default(&dc);
	dc.sys_bytes = cfg.sys_bytes;
	dc.vram_bytes = cfg.vram_bytes;
	c = gm_cycles(g);
	assert_int_equal(fw_dev_init(NULL, g, &dc), GM_ERR_BAD_ARG);
	assert_int_equal(fw_dev_init(&d, NULL, &dc), GM_ERR_BAD_ARG);
	assert_int_equal(fw_dev_init(&d, g, NULL), GM_ERR_BAD_ARG);
	dc.ring_log2 = GPU_RING_LOG2_MIN - 1;
	assert_int_equal(fw_dev_init(&d, g, &dc), GM_ERR_BAD_ARG);
	dc.ring_log2 = GPU_RING_LOG2_MAX + 1;
	assert_int_equal(fw_dev_init(&d, g, &dc), GM_ERR_BAD_ARG);
	assert_int_equal(gm_cycles(g), c);
	dc.ring_log2 = GPU_RING_LOG2_MIN;
	dc.sys_bytes = cfg.sys_bytes * 2;
	assert_int_equal(fw_dev_init(&d, g, &dc), GM_ERR_ADDR);
	dc.sys_bytes = cfg.sys_bytes;
	assert_int_equal(fw_dev_init(&d, g, &dc), GM_OK);
	assert_int_equal(gm_reg_read(g, GPU_REG_Q_CTRL(Q0), &v), GM_OK);
	assert_int_equal(GPU_Q_CTRL_ENABLE_GET(v), 1);
	gm_destroy(g);
}

/* ------------------------------------------------------------------ packets */

static void test_pkt_nop(void **state)
{
	static const uint32_t counts[] = { 0, 1, 7, 8, 9, 100 };
	struct tb t;
	struct dma_buf b = fresh();
	uint32_t pk0;

	(void)state;
	tb_open(&t);
	for (size_t i = 0; i < sizeof(counts) / sizeof(counts[0]); i++)
		assert_int_equal(dma_emit_nop(&b, counts[i]), GM_OK);
	pk0 = tb_rd(&t, GPU_REG_Q_PKTS(Q0));
	tb_wait(&t, Q0, tb_submit_ring(&t, Q0, &b));
	/* Six NOPs and the fence. */
	assert_int_equal(tb_rd(&t, GPU_REG_Q_PKTS(Q0)) - pk0, 7);
	assert_int_equal(tb_rd(&t, GPU_REG_Q_RPTR(Q0)), t.d.q[Q0].wptr);
	assert_int_equal(tb_mem32(&t, t.d.q[Q0].rptr_wb_addr), t.d.q[Q0].wptr);
	tb_close(&t);
}

static void test_pkt_write_data(void **state)
{
	static const uint32_t lens[] = { 1, 2, 7, 8, 9, 31, 100 };
	static const uint64_t bases[] = { 0x10000, 0x21004, 0x3101c, GPU_SYSMEM_BASE + 0x20004 };
	struct tb t;

	(void)state;
	tb_open(&t);
	for (size_t bi = 0; bi < 4; bi++) {
		for (size_t li = 0; li < sizeof(lens) / sizeof(lens[0]); li++) {
			uint64_t base = bases[bi] + 0x1000 * li;
			uint32_t data[100];
			struct dma_buf b = fresh();

			for (uint32_t i = 0; i < lens[li]; i++)
				data[i] = (uint32_t)(bi << 24 | li << 16 | i) ^ 0x5a000000u;
			assert_int_equal(dma_emit_write_data(&b, base, data, lens[li]), GM_OK);
			tb_wait(&t, Q0, tb_submit_ib(&t, Q0, &b));
			for (uint32_t i = 0; i < lens[li]; i++)
				assert_int_equal(tb_mem32(&t, base + 4 * i), data[i]);
			/* Neighbours untouched. */
			assert_int_equal(tb_mem32(&t, base - 4), 0);
			assert_int_equal(tb_mem32(&t, base + 4 * lens[li]), 0);
		}
	}
	tb_close(&t);
}

static void test_pkt_indirect_buffer(void **state)
{
	struct tb t;
	struct dma_buf b = fresh();
	uint32_t v = 0x1234, st, pk0;
	uint64_t f;

	(void)state;
	tb_open(&t);
	pk0 = tb_rd(&t, GPU_REG_Q_PKTS(Q1));
	dma_emit_nop(&b, 2);
	dma_emit_write_data(&b, t.scratch, &v, 1);
	f = tb_submit_ib(&t, Q1, &b);
	tb_wait(&t, Q1, f);
	assert_int_equal(tb_mem32(&t, t.scratch), 0x1234);
	/* IB packet + 2 inside + fence. */
	assert_int_equal(tb_rd(&t, GPU_REG_Q_PKTS(Q1)) - pk0, 4);
	st = tb_rd(&t, GPU_REG_Q_STATUS(Q1));
	assert_int_equal(GPU_Q_STATUS_IN_IB_GET(st), 0);
	assert_int_equal(GPU_Q_STATUS_STATE_GET(st), GPU_CP_ST_IDLE);
	/* An IB of exactly one packet, ending at the last dword. */
	b = fresh();
	dma_emit_nop(&b, 0);
	tb_wait(&t, Q1, tb_submit_ib(&t, Q1, &b));
	tb_close(&t);
}

static void test_pkt_release_fence(void **state)
{
	struct tb t;
	struct dma_buf b;
	uint64_t a;

	(void)state;
	tb_open(&t);
	a = t.scratch + 0x100;
	assert_int_equal(gm_backdoor_write(t.g, a, "\xff\xff\xff\xff\xff\xff\xff\xff"
					   "\xff\xff\xff\xff\xff\xff\xff\xff", 16), GM_OK);
	/* 32-bit fence without interrupt: low half only, no INT_STATUS bit. */
	b = fresh();
	dma_emit_release_fence(&b, a, 0x1122334455667788ull, false, false);
	dma_emit_release_fence(&b, a + 8, 0x0102030405060708ull, true, false);
	tb_wait(&t, Q0, tb_submit_ring(&t, Q0, &b));
	assert_int_equal(tb_mem32(&t, a), 0x55667788);
	assert_int_equal(tb_mem32(&t, a + 4), 0xffffffff);
	assert_int_equal(tb_mem64(&t, a + 8), 0x0102030405060708ull);
	/* The ring's own fences interrupt; the plain ones did not. */
	assert_int_equal(t.d.fence_irqs, 1);
	assert_int_equal(tb_rd(&t, GPU_REG_INT_STATUS), 0);
	assert_false(gm_irq(t.g));
	tb_close(&t);
}

/*
 * The fence is written only after every earlier write of the queue has
 * completed: with slow VRAM (and a fast ring in system memory) the fence
 * write is accepted at least a full VRAM latency after the last data write.
 */
static void test_fence_after_prior_writes(void **state)
{
	struct gm_config cfg;
	struct tb t;
	struct dma_buf b = fresh();
	uint32_t data[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	uint64_t fence_at, data_at = 0, c, vdata = GPU_VRAM_BASE + 0x8000;
	int64_t gap;
	uint32_t v;

	(void)state;
	gm_config_default(&cfg);
	cfg.backend = tb_backend();
	cfg.vram_latency_cycles = 400;
	cfg.sys_latency_cycles = 10;
	tb_open_cfg(&t, &cfg);
	dma_emit_write_data(&b, vdata, data, 8);
	dma_emit_release_fence(&b, t.scratch, 77, true, false);
	tb_submit_ring(&t, Q0, &b);
	for (c = 0; c < 20000; c++) {
		gm_step(t.g, 1);
		if (!data_at && tb_mem32(&t, vdata + 28) == 8)
			data_at = gm_cycles(t.g);
		if (tb_mem64(&t, t.scratch) == 77)
			break;
	}
	fence_at = gm_cycles(t.g);
	assert_true(data_at != 0);
	gap = (int64_t)(fence_at - data_at);
	if (gap < 400)
		fail_msg("fence accepted %lld cycles after the last data write (latency 400)",
			 (long long)gap);
	v = tb_rd(&t, GPU_REG_Q_STALL_FENCE(Q0));
	if (v < 350) /* the latency less the fence packet's own fetch and parse */
		fail_msg("Q_STALL_FENCE %u cycles, expected about the VRAM latency", v);
	tb_close(&t);
}

struct wait_case {
	enum gpu_wait_func func;
	bool is64;
	uint64_t mem, ref, mask;
	bool passes;
};

static const struct wait_case wait_cases[] = {
	{ GPU_FUNC_ALWAYS, false, 0, 5, ~0ull, true },
	{ GPU_FUNC_LT, false, 4, 5, ~0ull, true },
	{ GPU_FUNC_LT, false, 5, 5, ~0ull, false },
	{ GPU_FUNC_LE, false, 5, 5, ~0ull, true },
	{ GPU_FUNC_LE, false, 6, 5, ~0ull, false },
	{ GPU_FUNC_EQ, false, 0xabc5, 5, 0xf, true },
	{ GPU_FUNC_EQ, false, 0xabc5, 5, 0xff, false },
	{ GPU_FUNC_NE, false, 5, 5, ~0ull, false },
	{ GPU_FUNC_NE, false, 4, 5, ~0ull, true },
	{ GPU_FUNC_GE, false, 5, 5, ~0ull, true },
	{ GPU_FUNC_GE, false, 4, 5, ~0ull, false },
	{ GPU_FUNC_GT, false, 6, 5, ~0ull, true },
	{ GPU_FUNC_GT, false, 5, 5, ~0ull, false },
	/* 32-bit compares ignore the high half of memory. */
	{ GPU_FUNC_EQ, false, 0x7700000005ull, 5, ~0ull, true },
	{ GPU_FUNC_EQ, true, 0x7700000005ull, 5, ~0ull, false },
	{ GPU_FUNC_GE, true, 0x100000000ull, 0xffffffffull, ~0ull, true },
	{ GPU_FUNC_LT, true, 0xffffffffull, 0x100000000ull, ~0ull, true },
	{ GPU_FUNC_EQ, true, 0x1234567800000000ull, 0x1234567800000000ull, ~0ull << 32, true },
};

/* Each compare function: a true condition passes, a false one blocks until
 * memory changes. */
static void test_pkt_wait_mem(void **state)
{
	struct tb t;

	(void)state;
	tb_open(&t);
	for (size_t i = 0; i < sizeof(wait_cases) / sizeof(wait_cases[0]); i++) {
		const struct wait_case *w = &wait_cases[i];
		uint64_t a = t.scratch + 0x200, f;
		struct dma_buf b = fresh();
		uint32_t st;

		assert_int_equal(gm_backdoor_write(t.g, a, &w->mem, 8), GM_OK);
		dma_emit_wait_mem(&b, a, w->ref, w->mask, w->func, w->is64, 4);
		f = tb_submit_ib(&t, Q0, &b);
		if (!w->passes) {
			gm_step(t.g, 2000);
			st = tb_rd(&t, GPU_REG_Q_STATUS(Q0));
			if (t.d.q[Q0].fence_seen >= f || !GPU_Q_STATUS_BUSY_GET(st))
				fail_msg("wait case %zu (%s) did not block", i,
					 gpu_wait_func_name(w->func));
			/* Release it: make the condition true. */
			uint64_t ok = w->func == GPU_FUNC_LT || w->func == GPU_FUNC_LE ? 0 :
				      w->func == GPU_FUNC_NE ? ~w->ref : w->ref + 1;
			if (w->func == GPU_FUNC_EQ)
				ok = w->ref;
			assert_int_equal(gm_backdoor_write(t.g, a, &ok, 8), GM_OK);
		}
		tb_wait(&t, Q0, f);
	}
	tb_close(&t);
}

/* A blocked WAIT_MEM re-reads memory once per poll interval (plus latency). */
static void test_wait_mem_poll_interval(void **state)
{
	struct tb t;
	struct dma_buf b = fresh();
	struct gm_stats s0, s1;
	uint64_t reads;

	(void)state;
	tb_open(&t);
	dma_emit_wait_mem(&b, t.scratch, 1, ~0ull, GPU_FUNC_EQ, false, 100);
	tb_submit_ib(&t, Q0, &b);
	gm_step(t.g, 1000);
	gm_get_stats(t.g, &s0);
	gm_step(t.g, 10000);
	gm_get_stats(t.g, &s1);
	reads = s1.mem.sys.rd_reqs - s0.mem.sys.rd_reqs;
	/* One read per (100 poll + ~60 latency + a few FSM) cycles. */
	if (reads < 10000 / 180 || reads > 10000 / 150 + 1)
		fail_msg("%llu polls in 10000 cycles with interval 100", (unsigned long long)reads);
	assert_true(tb_rd(&t, GPU_REG_Q_STALL_WAIT(Q0)) >= 10000);
	tb_close(&t);
}

/*
 * Q_BUSY_CYCLES and Q_STALL_MEM: an idle queue counts neither; a ring whose
 * every fetch waits out a slow system memory counts busy cycles (no more
 * than passed) and, within them, stalls on memory of at least one fetch's
 * latency, and far more than the same work on a fast memory; a queue
 * blocked in WAIT_MEM is busy every cycle.
 */
static void counters_run(uint32_t sys_latency, uint32_t *busy, uint32_t *smem)
{
	struct gm_config cfg;
	struct tb t;
	struct dma_buf b = fresh();
	uint32_t v = 0x5a, b0, m0;
	uint64_t c0, c1;

	gm_config_default(&cfg);
	cfg.backend = tb_backend();
	cfg.sys_latency_cycles = sys_latency;
	tb_open_cfg(&t, &cfg);
	b0 = tb_rd(&t, GPU_REG_Q_BUSY_CYCLES(Q0));
	m0 = tb_rd(&t, GPU_REG_Q_STALL_MEM(Q0));
	gm_step(t.g, 1000);
	assert_int_equal(tb_rd(&t, GPU_REG_Q_BUSY_CYCLES(Q0)), b0);
	assert_int_equal(tb_rd(&t, GPU_REG_Q_STALL_MEM(Q0)), m0);
	dma_emit_write_data(&b, t.scratch + 0x300, &v, 1);
	c0 = gm_cycles(t.g);
	tb_wait(&t, Q0, tb_submit_ring(&t, Q0, &b));
	c1 = gm_cycles(t.g);
	assert_int_equal(tb_mem32(&t, t.scratch + 0x300), 0x5a);
	*busy = tb_rd(&t, GPU_REG_Q_BUSY_CYCLES(Q0)) - b0;
	*smem = tb_rd(&t, GPU_REG_Q_STALL_MEM(Q0)) - m0;
	if (*busy == 0 || *busy > c1 - c0 || *smem > *busy)
		fail_msg("latency %u: busy %u, stall_mem %u over %llu cycles", sys_latency, *busy,
			 *smem, (unsigned long long)(c1 - c0));
	/* Blocked in WAIT_MEM: busy on every cycle. */
	b = fresh();
	dma_emit_wait_mem(&b, t.scratch + 0x308, 1, ~0ull, GPU_FUNC_EQ, false, 100);
	tb_submit_ring(&t, Q0, &b);
	gm_step(t.g, 2000);
	b0 = tb_rd(&t, GPU_REG_Q_BUSY_CYCLES(Q0));
	c0 = gm_cycles(t.g);
	gm_step(t.g, 5000);
	v = tb_rd(&t, GPU_REG_Q_BUSY_CYCLES(Q0)) - b0;
	c1 = gm_cycles(t.g);
	/* Both reads sample at the same point of their transaction. */
	assert_true(c1 - c0 >= 5000);
	assert_int_equal(v, c1 - c0);
	tb_close(&t);
}

static void test_counters_busy_stall_mem(void **state)
{
	uint32_t busy_fast, smem_fast, busy_slow, smem_slow;

	(void)state;
	counters_run(10, &busy_fast, &smem_fast);
	counters_run(400, &busy_slow, &smem_slow);
	if (smem_slow < 400 || smem_slow < smem_fast + 350 || busy_slow < busy_fast + 350)
		fail_msg("stall_mem %u (busy %u) at latency 400, %u (busy %u) at 10", smem_slow,
			 busy_slow, smem_fast, busy_fast);
}

static void test_pkt_timestamp(void **state)
{
	struct tb t;
	struct dma_buf b = fresh();
	uint64_t c0, c1, ts0, ts1;
	uint32_t lo;

	(void)state;
	tb_open(&t);
	lo = tb_rd(&t, GPU_REG_CYCLE_LO);
	c0 = gm_cycles(t.g);
	dma_emit_timestamp(&b, t.scratch + 0x300);
	dma_emit_nop(&b, 40);
	dma_emit_timestamp(&b, t.scratch + 0x308);
	tb_wait(&t, Q0, tb_submit_ring(&t, Q0, &b));
	c1 = gm_cycles(t.g);
	ts0 = tb_mem64(&t, t.scratch + 0x300);
	ts1 = tb_mem64(&t, t.scratch + 0x308);
	/* In the hardware counter's time base: after the CYCLE_LO read, before now. */
	assert_true(ts0 > lo);
	assert_true(ts1 > ts0 + 5);
	assert_true(ts1 - lo < c1 - c0);
	tb_close(&t);
}

/* ------------------------------------------------------------------ errors */

struct err_case {
	const char *name;
	uint32_t cause;
	bool in_ring;  /* the bad packet sits in the ring, not in an IB */
	/* Build the packets; return the dword index of the failing header. */
	uint32_t (*build)(struct tb *t, struct dma_buf *b);
};

static uint32_t e_bad_type(struct tb *t, struct dma_buf *b)
{
	uint32_t bad = GPU_HDR_COUNT(0) | GPU_HDR_OPCODE(GPU_OP_NOP); /* TYPE 0 */

	(void)t;
	dma_emit_nop(b, 1);
	dma_emit_raw(b, &bad, 1);
	return 2;
}

static uint32_t e_bad_opcode(struct tb *t, struct dma_buf *b)
{
	uint32_t bad[2] = { GPU_PKT_HDR(0xee, 1), 0 };

	(void)t;
	dma_emit_raw(b, bad, 2);
	return 0;
}

static uint32_t e_count_write_data(struct tb *t, struct dma_buf *b)
{
	uint32_t bad[3] = { GPU_PKT_HDR(GPU_OP_WRITE_DATA, 2), (uint32_t)t->scratch,
			    (uint32_t)(t->scratch >> 32) };

	dma_emit_nop(b, 0);
	dma_emit_raw(b, bad, 3);
	return 1;
}

static uint32_t e_count_ib(struct tb *t, struct dma_buf *b)
{
	uint32_t bad[5] = { GPU_PKT_HDR(GPU_OP_INDIRECT_BUFFER, 4), (uint32_t)t->ib[1],
			    (uint32_t)(t->ib[1] >> 32), 4, 0 };

	dma_emit_raw(b, bad, 5);
	return 0;
}

static uint32_t e_count_timestamp(struct tb *t, struct dma_buf *b)
{
	uint32_t bad[4] = { GPU_PKT_HDR(GPU_OP_TIMESTAMP, 3), (uint32_t)t->scratch,
			    (uint32_t)(t->scratch >> 32), 0 };

	dma_emit_raw(b, bad, 4);
	return 0;
}

/* A WRITE_DATA whose COUNT runs past the end of its IB. */
static uint32_t e_count_overrun(struct tb *t, struct dma_buf *b)
{
	uint32_t bad[4] = { GPU_PKT_HDR(GPU_OP_WRITE_DATA, 5), (uint32_t)t->scratch,
			    (uint32_t)(t->scratch >> 32), 1 };

	dma_emit_raw(b, bad, 4);
	return 0;
}

static uint32_t e_ib_nested(struct tb *t, struct dma_buf *b)
{
	dma_emit_nop(b, 0);
	dma_emit_indirect_buffer(b, t->ib[1], 4);
	return 1;
}

static uint32_t e_ib_size0(struct tb *t, struct dma_buf *b)
{
	uint32_t bad[4] = { GPU_PKT_HDR(GPU_OP_INDIRECT_BUFFER, 3), (uint32_t)t->ib[1],
			    (uint32_t)(t->ib[1] >> 32), 0 };

	dma_emit_raw(b, bad, 4);
	return 0;
}

static uint32_t e_ib_too_big(struct tb *t, struct dma_buf *b)
{
	tb_wr(t, GPU_REG_IB_MAX_DW, 16);
	dma_emit_indirect_buffer(b, t->ib[1], 17);
	return 0;
}

/* The emitter refuses this one, so it is built by hand. */
static uint32_t e_ib_wraps(struct tb *t, struct dma_buf *b)
{
	uint32_t bad[4] = { GPU_PKT_HDR(GPU_OP_INDIRECT_BUFFER, 3), 0xfffffff0u, 0xffff, 8 };

	(void)t;
	dma_emit_raw(b, bad, 4);
	return 0;
}

static uint32_t e_ib_unaligned(struct tb *t, struct dma_buf *b)
{
	uint32_t bad[4] = { GPU_PKT_HDR(GPU_OP_INDIRECT_BUFFER, 3), (uint32_t)t->ib[1] + 2,
			    (uint32_t)(t->ib[1] >> 32), 4 };

	dma_emit_raw(b, bad, 4);
	return 0;
}

static uint32_t e_align_write(struct tb *t, struct dma_buf *b)
{
	uint32_t bad[4] = { GPU_PKT_HDR(GPU_OP_WRITE_DATA, 3), (uint32_t)t->scratch + 2,
			    (uint32_t)(t->scratch >> 32), 7 };

	dma_emit_raw(b, bad, 4);
	return 0;
}

static uint32_t e_align_fence64(struct tb *t, struct dma_buf *b)
{
	/* 4-aligned is fine for 32 bits, not for 64. */
	dma_emit_release_fence(b, t->scratch + 4, 1, false, false);
	uint32_t at = (uint32_t)b->len;
	dma_emit_release_fence(b, t->scratch + 8, 1, true, false);
	b->dw[at + 1] = (uint32_t)t->scratch + 4;
	return at;
}

static uint32_t e_align_timestamp(struct tb *t, struct dma_buf *b)
{
	dma_emit_timestamp(b, t->scratch + 8);
	b->dw[1] = (uint32_t)t->scratch + 4;
	return 0;
}

static uint32_t e_field_addr_hi(struct tb *t, struct dma_buf *b)
{
	uint32_t v = 1;

	dma_emit_write_data(b, t->scratch, &v, 1);
	b->dw[2] |= 1u << 16;
	return 0;
}

static uint32_t e_field_wait_func(struct tb *t, struct dma_buf *b)
{
	dma_emit_wait_mem(b, t->scratch, 0, ~0ull, GPU_FUNC_ALWAYS, false, 1);
	b->dw[1 + GPU_PKT_WAIT_MEM_CTL] |= GPU_PKT_WAIT_MEM_FUNC(7);
	return 0;
}

static uint32_t e_field_fence_flags(struct tb *t, struct dma_buf *b)
{
	dma_emit_release_fence(b, t->scratch, 1, false, false);
	b->dw[1 + GPU_PKT_RELEASE_FENCE_FLAGS] |= 1u << 5;
	return 0;
}

static uint32_t e_field_ib_size(struct tb *t, struct dma_buf *b)
{
	dma_emit_indirect_buffer(b, t->ib[1], 4);
	b->dw[1 + GPU_PKT_INDIRECT_BUFFER_SIZE] |= 1u << 30;
	return 0;
}

/* An unprivileged ring may not pick an IB's VMID or privilege. */
static uint32_t e_priv_ib_vmid(struct tb *t, struct dma_buf *b)
{
	dma_emit_indirect_buffer(b, t->ib[1], 4);
	b->dw[1 + GPU_PKT_INDIRECT_BUFFER_SIZE] |= GPU_PKT_INDIRECT_BUFFER_VMID(3);
	return 0;
}

static uint32_t e_priv_ib_priv(struct tb *t, struct dma_buf *b)
{
	dma_emit_indirect_buffer(b, t->ib[1], 4);
	b->dw[1 + GPU_PKT_INDIRECT_BUFFER_SIZE] |= GPU_PKT_INDIRECT_BUFFER_PRIV(1);
	return 0;
}

static uint32_t e_mem_write(struct tb *t, struct dma_buf *b)
{
	uint32_t v = 1;

	(void)t;
	dma_emit_nop(b, 0);
	dma_emit_write_data(b, UNMAPPED, &v, 1);
	return 1;
}

static uint32_t e_mem_wait(struct tb *t, struct dma_buf *b)
{
	(void)t;
	dma_emit_wait_mem(b, UNMAPPED, 0, 0, GPU_FUNC_EQ, false, 1);
	return 0;
}

static const struct err_case err_cases[] = {
	{ "bad type", GPU_CAUSE_BAD_TYPE, false, e_bad_type },
	{ "bad opcode", GPU_CAUSE_BAD_OPCODE, false, e_bad_opcode },
	{ "bad opcode in ring", GPU_CAUSE_BAD_OPCODE, true, e_bad_opcode },
	{ "WRITE_DATA count 2", GPU_CAUSE_BAD_COUNT, false, e_count_write_data },
	{ "IB count 4", GPU_CAUSE_BAD_COUNT, true, e_count_ib },
	{ "TIMESTAMP count 3", GPU_CAUSE_BAD_COUNT, false, e_count_timestamp },
	{ "count overruns IB", GPU_CAUSE_BAD_COUNT, false, e_count_overrun },
	{ "IB inside IB", GPU_CAUSE_IB_NESTED, false, e_ib_nested },
	{ "IB size 0", GPU_CAUSE_IB_RANGE, true, e_ib_size0 },
	{ "IB larger than IB_MAX_DW", GPU_CAUSE_IB_RANGE, true, e_ib_too_big },
	{ "IB past 2^48", GPU_CAUSE_IB_RANGE, true, e_ib_wraps },
	{ "IB address unaligned", GPU_CAUSE_BAD_ALIGN, true, e_ib_unaligned },
	{ "WRITE_DATA unaligned", GPU_CAUSE_BAD_ALIGN, false, e_align_write },
	{ "64-bit fence 4-aligned", GPU_CAUSE_BAD_ALIGN, false, e_align_fence64 },
	{ "TIMESTAMP 4-aligned", GPU_CAUSE_BAD_ALIGN, false, e_align_timestamp },
	{ "ADDR_HI reserved bits", GPU_CAUSE_BAD_FIELD, false, e_field_addr_hi },
	{ "WAIT_MEM function 7", GPU_CAUSE_BAD_FIELD, false, e_field_wait_func },
	{ "fence flags reserved", GPU_CAUSE_BAD_FIELD, false, e_field_fence_flags },
	{ "IB size reserved bits", GPU_CAUSE_BAD_FIELD, true, e_field_ib_size },
	{ "IB VMID from an unprivileged ring", GPU_CAUSE_PRIV, true, e_priv_ib_vmid },
	{ "IB PRIV from an unprivileged ring", GPU_CAUSE_PRIV, true, e_priv_ib_priv },
	{ "write to no memory", GPU_CAUSE_MEM_ERROR, false, e_mem_write },
	{ "WAIT_MEM read of no memory", GPU_CAUSE_MEM_ERROR, false, e_mem_wait },
};

/* The queue must halt with the cause, address and header latched, raise the
 * error interrupt, and leave the other queue running. */
static void check_error(struct tb *t, const struct err_case *c, uint64_t pkt_addr, uint32_t hdr)
{
	uint32_t st, v = 0xfeed;
	struct dma_buf b = fresh();
	uint64_t f;

	tb_run_to_irq(t, 20000);
	st = tb_rd(t, GPU_REG_Q_STATUS(Q0));
	if (!GPU_Q_STATUS_ERROR_GET(st) || GPU_Q_STATUS_STATE_GET(st) != GPU_CP_ST_ERROR)
		fail_msg("%s: queue not halted in ERROR (status 0x%x)", c->name, st);
	v = GPU_Q_ERR_CAUSE_CAUSE_GET(tb_rd(t, GPU_REG_Q_ERR_CAUSE(Q0)));
	if (v != c->cause)
		fail_msg("%s: cause %s, expected %s", c->name, gpu_cause_name(v),
			 gpu_cause_name(c->cause));
	assert_int_equal(tb_rd(t, GPU_REG_Q_ERR_ADDR_LO(Q0)), (uint32_t)pkt_addr);
	assert_int_equal(tb_rd(t, GPU_REG_Q_ERR_ADDR_HI(Q0)), (uint32_t)(pkt_addr >> 32));
	assert_int_equal(tb_rd(t, GPU_REG_Q_ERR_HEADER(Q0)), hdr);
	assert_int_equal(GPU_INT_STATUS_ERROR_GET(tb_rd(t, GPU_REG_INT_STATUS)), 1u << Q0);
	assert_true(gm_irq(t->g));
	/* Stays halted. */
	gm_step(t->g, 200);
	assert_int_equal(GPU_Q_STATUS_STATE_GET(tb_rd(t, GPU_REG_Q_STATUS(Q0))), GPU_CP_ST_ERROR);
	/* The other queue runs on (its wait also handles the error interrupt). */
	v = 0xfeed;
	dma_emit_write_data(&b, t->scratch + 0x800, &v, 1);
	f = tb_submit_ib(t, Q1, &b);
	tb_wait(t, Q1, f);
	assert_int_equal(tb_mem32(t, t->scratch + 0x800), 0xfeed);
	/* The interrupt handler recorded the error and left the queue as it
	 * was, halted; the firmware resets it and it takes work again. */
	assert_int_equal(t->d.q[Q0].errors, 1);
	assert_int_equal(t->d.q[Q0].err_cause, c->cause);
	assert_true(t->d.q[Q0].halted);
	assert_int_equal(GPU_Q_STATUS_STATE_GET(tb_rd(t, GPU_REG_Q_STATUS(Q0))), GPU_CP_ST_ERROR);
	assert_int_equal(fw_fence_wait(&t->d, Q0, t->d.q[Q0].fence_emitted, TB_BUDGET), GM_ERR_HW);
	tb_recover(t, Q0);
	assert_false(t->d.q[Q0].halted);
	b = fresh();
	dma_emit_nop(&b, 1);
	tb_wait(t, Q0, tb_submit_ring(t, Q0, &b));
}

static void test_errors(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(err_cases) / sizeof(err_cases[0]); i++) {
		const struct err_case *c = &err_cases[i];
		struct dma_buf b = fresh();
		struct tb t;
		uint64_t pkt;
		uint32_t idx, v;

		tb_open(&t);
		idx = c->build(&t, &b);
		/* The C rules the validator and disassembler use say the same,
		 * memory errors aside (only the memory system knows those). */
		v = gpu_pkt_check(&b.dw[idx], b.len - idx, !c->in_ring, t.d.q[Q0].priv,
				  tb_rd(&t, GPU_REG_IB_MAX_DW));
		if (v != (c->cause == GPU_CAUSE_MEM_ERROR ? GPU_CAUSE_NONE : c->cause))
			fail_msg("%s: gpu_pkt_check says %s", c->name, gpu_cause_name(v));
		if (c->in_ring) {
			pkt = t.d.q[Q0].ring_addr + 4ull * t.d.q[Q0].wptr + 4ull * idx;
			tb_submit_ring(&t, Q0, &b);
		} else {
			pkt = t.ib[Q0] + 4ull * idx;
			tb_submit_ib(&t, Q0, &b);
		}
		check_error(&t, c, pkt, b.dw[idx]);
		tb_close(&t);
	}
}

/* A ring that cannot be used: size below the minimum. */
static void test_error_bad_ring(void **state)
{
	struct tb t;
	uint32_t v = 0;

	(void)state;
	tb_open(&t);
	tb_wr(&t, GPU_REG_Q_SIZE(Q0), GPU_RING_LOG2_MIN - 1);
	tb_wr(&t, GPU_REG_Q_WPTR(Q0), 4);
	tb_run_to_irq(&t, 1000);
	v = tb_rd(&t, GPU_REG_Q_ERR_CAUSE(Q0));
	assert_int_equal(GPU_Q_ERR_CAUSE_CAUSE_GET(v), GPU_CAUSE_BAD_RING);
	assert_int_equal(GPU_Q_STATUS_STATE_GET(tb_rd(&t, GPU_REG_Q_STATUS(Q0))), GPU_CP_ST_ERROR);
	tb_close(&t);
}

/* ------------------------------------------------------------------ queues */

/* A WAIT_MEM on the render queue never blocks the copy queue. */
static void test_two_queues_independent(void **state)
{
	struct tb t;
	struct dma_buf b = fresh();
	uint64_t f0, f1 = 0;
	uint32_t st, one = 1;

	(void)state;
	tb_open(&t);
	dma_emit_wait_mem(&b, t.scratch, 1, ~0ull, GPU_FUNC_EQ, false, 16);
	dma_emit_write_data(&b, t.scratch + 4, &one, 1);
	f0 = tb_submit_ib(&t, Q0, &b);
	for (uint32_t i = 0; i < 50; i++) {
		uint32_t v = 0x1000 + i;

		b = fresh();
		dma_emit_write_data(&b, t.scratch + 0x100 + 4 * i, &v, 1);
		f1 = tb_submit_ring(&t, Q1, &b);
		tb_wait(&t, Q1, f1);
	}
	for (uint32_t i = 0; i < 50; i++)
		assert_int_equal(tb_mem32(&t, t.scratch + 0x100 + 4 * i), 0x1000 + i);
	st = tb_rd(&t, GPU_REG_Q_STATUS(Q0));
	assert_true(GPU_Q_STATUS_BUSY_GET(st));
	assert_true(GPU_Q_STATUS_IN_IB_GET(st));
	assert_true(t.d.q[Q0].fence_seen < f0);
	assert_int_equal(tb_mem32(&t, t.scratch + 4), 0);
	assert_true(tb_rd(&t, GPU_REG_Q_STALL_WAIT(Q0)) > 0);
	assert_int_equal(tb_rd(&t, GPU_REG_Q_STALL_WAIT(Q1)), 0);
	/* Release it. */
	tb_put32(&t, t.scratch, 1);
	tb_wait(&t, Q0, f0);
	assert_int_equal(tb_mem32(&t, t.scratch + 4), 1);
	tb_close(&t);
}

/* Resetting a blocked queue leaves the other's work intact and running. */
static void test_queue_reset_other_runs(void **state)
{
	struct tb t;
	struct dma_buf b = fresh();
	uint32_t data[64], st;
	uint64_t f1;

	(void)state;
	tb_open(&t);
	dma_emit_wait_mem(&b, t.scratch, 1, ~0ull, GPU_FUNC_EQ, false, 16);
	tb_submit_ib(&t, Q0, &b);
	b = fresh();
	for (uint32_t i = 0; i < 64; i++)
		data[i] = 0xbeef0000 | i;
	for (uint32_t k = 0; k < 16; k++)
		dma_emit_write_data(&b, t.scratch + 0x1000 + 256 * k, data, 64);
	f1 = tb_submit_ib(&t, Q1, &b);
	gm_step(t.g, 300);
	/* Reset queue 0 mid-wait, while queue 1 streams its writes. */
	tb_wr(&t, GPU_REG_Q_CTRL(Q0), GPU_Q_CTRL_ENABLE(1) | GPU_Q_CTRL_RPTR_WB(1) |
		  GPU_Q_CTRL_RESET(1));
	t.d.q[Q0].wptr = 0;
	tb_put32(&t, t.d.q[Q0].rptr_wb_addr, 0);
	st = tb_rd(&t, GPU_REG_Q_STATUS(Q0));
	assert_int_equal(GPU_Q_STATUS_STATE_GET(st), GPU_CP_ST_IDLE);
	assert_int_equal(tb_rd(&t, GPU_REG_Q_RPTR(Q0)), 0);
	assert_int_equal(tb_rd(&t, GPU_REG_Q_WPTR(Q0)), 0);
	assert_int_equal(tb_rd(&t, GPU_REG_Q_PKTS(Q0)), 0);
	assert_true(GPU_Q_STATUS_BUSY_GET(tb_rd(&t, GPU_REG_Q_STATUS(Q1))));
	tb_wait(&t, Q1, f1);
	for (uint32_t k = 0; k < 16; k++)
		for (uint32_t i = 0; i < 64; i++)
			assert_int_equal(tb_mem32(&t, t.scratch + 0x1000 + 256 * k + 4 * i),
					 data[i]);
	/* Queue 0 takes new work from an empty ring. */
	b = fresh();
	dma_emit_nop(&b, 0);
	tb_wait(&t, Q0, tb_submit_ring(&t, Q0, &b));
	tb_close(&t);
}

/* HALT stops a queue at a packet boundary; clearing it resumes. */
static void test_queue_halt(void **state)
{
	struct tb t;
	struct dma_buf b = fresh();
	uint32_t ctrl, v = 9;
	uint64_t f;

	(void)state;
	tb_open(&t);
	ctrl = tb_rd(&t, GPU_REG_Q_CTRL(Q0));
	tb_wr(&t, GPU_REG_Q_CTRL(Q0), ctrl | GPU_Q_CTRL_HALT(1));
	gm_step(t.g, 2);
	assert_int_equal(GPU_Q_STATUS_HALTED_GET(tb_rd(&t, GPU_REG_Q_STATUS(Q0))), 1);
	dma_emit_write_data(&b, t.scratch, &v, 1);
	f = tb_submit_ring(&t, Q0, &b);
	gm_step(t.g, 1000);
	assert_int_equal(tb_mem32(&t, t.scratch), 0);
	assert_int_equal(tb_rd(&t, GPU_REG_Q_RPTR(Q0)), 0);
	tb_wr(&t, GPU_REG_Q_CTRL(Q0), ctrl);
	tb_wait(&t, Q0, f);
	assert_int_equal(tb_mem32(&t, t.scratch), 9);
	tb_close(&t);
}

/* ENABLE clear: the doorbell moves, the queue fetches nothing (read
 * pointer, memory and packet count unchanged, not busy); set again, it runs
 * what is waiting. */
static void test_queue_disabled(void **state)
{
	struct tb t;
	struct dma_buf b = fresh();
	uint32_t ctrl, v = 0x77;
	uint64_t f;

	(void)state;
	tb_open(&t);
	ctrl = tb_rd(&t, GPU_REG_Q_CTRL(Q0));
	assert_int_equal(GPU_Q_CTRL_ENABLE_GET(ctrl), 1);
	tb_wr(&t, GPU_REG_Q_CTRL(Q0), ctrl & ~GPU_Q_CTRL_ENABLE(1));
	dma_emit_write_data(&b, t.scratch + 0x40, &v, 1);
	f = tb_submit_ring(&t, Q0, &b);
	gm_step(t.g, 1000);
	assert_int_equal(tb_mem32(&t, t.scratch + 0x40), 0);
	assert_int_equal(tb_rd(&t, GPU_REG_Q_RPTR(Q0)), 0);
	assert_int_equal(tb_rd(&t, GPU_REG_Q_PKTS(Q0)), 0);
	assert_int_equal(GPU_Q_STATUS_BUSY_GET(tb_rd(&t, GPU_REG_Q_STATUS(Q0))), 0);
	tb_wr(&t, GPU_REG_Q_CTRL(Q0), ctrl);
	tb_wait(&t, Q0, f);
	assert_int_equal(tb_mem32(&t, t.scratch + 0x40), 0x77);
	tb_close(&t);
}

/* The ring wraps many times; the doorbell may move mid-packet. */
static void test_ring_wrap_and_split_doorbell(void **state)
{
	struct gm_config cfg;
	struct fw_dev_cfg dc;
	struct tb t;
	uint32_t pkt[8];
	struct dma_buf b;

	(void)state;
	gm_config_default(&cfg);
	cfg.backend = tb_backend();
	assert_int_equal(gm_create(&cfg, &t.g), GM_OK);
	fw_dev_cfg_default(&dc);
	dc.ring_log2 = GPU_RING_LOG2_MIN; /* 16 dwords */
	assert_int_equal(fw_dev_init(&t.d, t.g, &dc), GM_OK);
	assert_int_equal(fw_alloc_sys(&t.d, 0x10000, 256, &t.scratch), GM_OK);
	for (uint32_t i = 0; i < 40; i++) {
		uint64_t f;

		dma_buf_init(&b, pkt, 8);
		dma_emit_write_data(&b, t.scratch + 4 * i, &i, 1);
		f = tb_submit_ring(&t, Q0, &b);
		tb_wait(&t, Q0, f);
	}
	for (uint32_t i = 0; i < 40; i++)
		assert_int_equal(tb_mem32(&t, t.scratch + 4 * i), i);
	/* Split doorbell: header and half the payload first, the rest later. */
	{
		uint32_t v = 0x5151, w = t.d.q[Q0].wptr;
		struct fw_queue *q = &t.d.q[Q0];

		dma_buf_init(&b, pkt, 8);
		dma_emit_write_data(&b, t.scratch + 0x400, &v, 1);
		for (uint32_t i = 0; i < 4; i++)
			tb_put32(&t, q->ring_addr + 4 * ((w + i) & 15), i < 2 ? pkt[i] : 0xdeadbeef);
		tb_wr(&t, GPU_REG_Q_WPTR(Q0), (w + 2) & 15);
		gm_step(t.g, 300);
		for (uint32_t i = 2; i < 4; i++)
			tb_put32(&t, q->ring_addr + 4 * ((w + i) & 15), pkt[i]);
		tb_wr(&t, GPU_REG_Q_WPTR(Q0), (w + 4) & 15);
		gm_step(t.g, 300);
		assert_int_equal(tb_mem32(&t, t.scratch + 0x400), 0x5151);
		assert_int_equal(GPU_Q_STATUS_ERROR_GET(tb_rd(&t, GPU_REG_Q_STATUS(Q0))), 0);
	}
	gm_destroy(t.g);
}

/* Two models in one process are independent, and close in any order. */
static void test_two_models(void **state)
{
	struct tb a, b;
	struct dma_buf p;
	uint32_t va = 0xaaaa, vb = 0xbbbb;
	uint64_t fa, fb;

	(void)state;
	if (!(gm_backend_info(tb_backend())->caps & GM_CAP_MANY))
		skip(); /* the SystemC kernel elaborates one model per process */
	tb_open(&a);
	tb_open(&b);
	p = fresh();
	dma_emit_write_data(&p, a.scratch, &va, 1);
	fa = tb_submit_ring(&a, Q0, &p);
	tb_wait(&a, Q0, fa);
	p = fresh();
	dma_emit_write_data(&p, b.scratch, &vb, 1);
	dma_emit_nop(&p, 50);
	fb = tb_submit_ring(&b, Q0, &p);
	tb_wait(&b, Q0, fb);
	assert_int_equal(tb_mem32(&a, a.scratch), 0xaaaa);
	assert_int_equal(tb_mem32(&b, b.scratch), 0xbbbb);
	assert_int_not_equal(gm_cycles(a.g), gm_cycles(b.g));
	assert_int_equal(tb_rd(&a, GPU_REG_Q_PKTS(Q0)), 2);
	assert_int_equal(tb_rd(&b, GPU_REG_Q_PKTS(Q0)), 3);
	/* Torn down in any order, with a third model made in between: the
	 * newest first (Verilator's scopes leave the context they were made
	 * in, not the last one constructed), then the oldest. */
	tb_close(&b);
	tb_open(&b);
	p = fresh();
	dma_emit_write_data(&p, a.scratch + 4, &vb, 1);
	fa = tb_submit_ring(&a, Q0, &p);
	tb_wait(&a, Q0, fa);
	assert_int_equal(tb_mem32(&a, a.scratch + 4), 0xbbbb);
	assert_int_equal(tb_mem32(&b, b.scratch + 4), 0);
	tb_close(&b);
	tb_close(&a);
}

/*
 * Packets whose writes would run past the top of the 48-bit address space
 * (or carry a reserved BASE_HI bit) are refused with BAD_FIELD before any
 * write: nothing lands at address 0, where a wrapped address would go.  The
 * C packet rules agree and the emitters refuse to build them.
 */
static void test_addr_top_refused(void **state)
{
	static const struct {
		const char *name;
		unsigned q; /* PTE_WRITE needs the privileged (copy) queue */
		uint32_t pkt[9];
		uint32_t len;
	} cases[] = {
		/* 4 dwords at 2^48 - 8: two fit, two would wrap to 0 */
		{ "WRITE_DATA past 2^48", Q0,
		  { GPU_PKT_HDR(GPU_OP_WRITE_DATA, 6), 0xfffffff8u, 0xffff, 1, 2, 3, 4 }, 7 },
		/* 2 entries at 2^48 - 8: the second would wrap to 0 */
		{ "PTE_WRITE past 2^48", Q1,
		  { GPU_PKT_HDR(GPU_OP_PTE_WRITE, 8), 0xfffffff8u, 0xffff,
		    GPU_PTE_V(1), 0, 0, 0, 0x1000, 2 }, 9 },
		{ "PTE_WRITE BASE_HI reserved", Q1,
		  { GPU_PKT_HDR(GPU_OP_PTE_WRITE, 8), 0, 0, GPU_PTE_V(1), 0, 0, 1u << 16,
		    0x1000, 1 }, 9 },
	};
	struct dma_buf b;
	uint32_t v[4] = { 1, 2, 3, 4 };

	(void)state;
	b = fresh();
	assert_int_equal(dma_emit_write_data(&b, (1ull << 48) - 8, v, 4), GM_ERR_BAD_ARG);
	assert_int_equal(dma_emit_write_data(&b, (1ull << 48) - 8, v, 2), GM_OK);
	assert_int_equal(dma_emit_pte_write(&b, (1ull << 48) - 8, GPU_PTE_V(1), 0, 0x1000, 2),
			 GM_ERR_BAD_ARG);
	assert_int_equal(dma_emit_pte_write(&b, (1ull << 48) - 8, GPU_PTE_V(1), 0, 0x1000, 1),
			 GM_OK);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct tb t;
		uint32_t cause;

		tb_open(&t);
		for (uint64_t a = 0; a < 32; a += 4)
			tb_put32(&t, a, 0x5a5a0000u + (uint32_t)a);
		b = fresh();
		dma_emit_raw(&b, cases[i].pkt, cases[i].len);
		cause = gpu_pkt_check(b.dw, b.len, true, t.d.q[cases[i].q].priv,
				      tb_rd(&t, GPU_REG_IB_MAX_DW));
		if (cause != GPU_CAUSE_BAD_FIELD)
			fail_msg("%s: gpu_pkt_check says %s", cases[i].name, gpu_cause_name(cause));
		tb_submit_ib(&t, cases[i].q, &b);
		tb_run_to_irq(&t, 20000);
		cause = GPU_Q_ERR_CAUSE_CAUSE_GET(tb_rd(&t, GPU_REG_Q_ERR_CAUSE(cases[i].q)));
		if (!GPU_Q_STATUS_ERROR_GET(tb_rd(&t, GPU_REG_Q_STATUS(cases[i].q))) ||
		    cause != GPU_CAUSE_BAD_FIELD)
			fail_msg("%s: cause %s", cases[i].name, gpu_cause_name(cause));
		for (uint64_t a = 0; a < 32; a += 4)
			if (tb_mem32(&t, a) != 0x5a5a0000u + (uint32_t)a)
				fail_msg("%s: address 0x%llx written", cases[i].name,
					 (unsigned long long)a);
		tb_close(&t);
	}
}

/*
 * fw_ring_space over a table of queue indices: each of the device's queues
 * has a whole ring but one dword free on a fresh device; an index past its
 * queues (the hardware's count, the array's size and beyond) and a NULL
 * device give 0 (nothing can be written), read nothing, and no cycle passes.
 */
static void test_ring_space_bad_queue(void **state)
{
	static const unsigned bad[] = { 2, 3, FW_MAX_QUEUES - 1, FW_MAX_QUEUES, FW_MAX_QUEUES + 1,
					0x7fffffffu, ~0u };
	struct fw_dev before;
	struct tb t;
	uint64_t c;

	(void)state;
	tb_open(&t);
	assert_int_equal(t.d.nq, 2);
	for (unsigned qi = 0; qi < t.d.nq; qi++)
		assert_int_equal(fw_ring_space(&t.d, qi), t.d.q[qi].ring_dw - 1);
	c = gm_cycles(t.g);
	memcpy(&before, &t.d, sizeof(before));
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		print_message("fw_ring_space(queue %u)\n", bad[i]);
		assert_int_equal(fw_ring_space(&t.d, bad[i]), 0);
	}
	assert_int_equal(fw_ring_space(NULL, Q0), 0);
	assert_memory_equal(&before, &t.d, sizeof(before));
	assert_int_equal(gm_cycles(t.g), c);
	tb_close(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_regs_identity),
		cmocka_unit_test(test_regs_unmapped),
		cmocka_unit_test(test_api_bad_args),
		cmocka_unit_test(test_dev_init_bad),
		cmocka_unit_test(test_pkt_nop),
		cmocka_unit_test(test_pkt_write_data),
		cmocka_unit_test(test_pkt_indirect_buffer),
		cmocka_unit_test(test_pkt_release_fence),
		cmocka_unit_test(test_fence_after_prior_writes),
		cmocka_unit_test(test_pkt_wait_mem),
		cmocka_unit_test(test_wait_mem_poll_interval),
		cmocka_unit_test(test_counters_busy_stall_mem),
		cmocka_unit_test(test_pkt_timestamp),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_addr_top_refused),
		cmocka_unit_test(test_error_bad_ring),
		cmocka_unit_test(test_two_queues_independent),
		cmocka_unit_test(test_queue_reset_other_runs),
		cmocka_unit_test(test_queue_halt),
		cmocka_unit_test(test_queue_disabled),
		cmocka_unit_test(test_ring_wrap_and_split_doorbell),
		cmocka_unit_test(test_two_models),
		cmocka_unit_test(test_ring_space_bad_queue),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
