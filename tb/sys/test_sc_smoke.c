/* SPDX-License-Identifier: MIT */
/*
 * test_sc_smoke.c - the SystemC backend runs the same work as the Verilator
 * backend, cycle for cycle: both models live in this process (one SystemC
 * model is all its kernel allows), run an identical mixed workload - two
 * queues, IBs, WAIT_MEM, fences with interrupts, a CP error and its recovery
 * - and must end with the same memory, counters and cycle count.  And the
 * backend registry (gm.h) every name and capability comes from.
 */
#include <string.h>

#include "gpu_names.h"
#include "tb_util.h"

#define N_ROUNDS 3

struct outcome {
	uint64_t cycles;
	uint32_t data[64];
	uint32_t pkts[2], busy[2], stall_wait[2];
	uint32_t err_cause;
	uint64_t fences[2];
};

static uint32_t ibs[1024];

static void workload(struct tb *t, struct outcome *o)
{
	uint32_t bad[2] = { GPU_PKT_HDR(0xee, 1), 0 };
	struct dma_buf b;
	uint64_t f0, f1;

	for (uint32_t r = 1; r <= N_ROUNDS; r++) {
		uint32_t v[4] = { r, r * 2, r * 3, r * 4 }, sem[2] = { r, 0 };

		dma_buf_init(&b, ibs, 512);
		dma_emit_wait_mem(&b, t->scratch, r, ~0ull, GPU_FUNC_GE, false, 8);
		dma_emit_write_data(&b, t->scratch + 0x40 + 16 * r, v, 4);
		dma_emit_timestamp(&b, t->scratch + 0x100 + 8 * r);
		f0 = tb_submit_ib(t, FW_QUEUE_RENDER, &b);
		gm_step(t->g, 100);
		dma_buf_init(&b, ibs + 512, 512);
		dma_emit_nop(&b, 5);
		dma_emit_write_data(&b, t->scratch, sem, 2);
		f1 = tb_submit_ib(t, FW_QUEUE_COPY, &b);
		tb_wait(t, FW_QUEUE_COPY, f1);
		tb_wait(t, FW_QUEUE_RENDER, f0);
	}
	/* A CP error, reported and recovered by the firmware. */
	dma_buf_init(&b, ibs, 512);
	dma_emit_raw(&b, bad, 2);
	f1 = tb_submit_ib(t, FW_QUEUE_COPY, &b);
	assert_int_equal(fw_fence_wait(&t->d, FW_QUEUE_COPY, f1, TB_BUDGET), GM_ERR_HW);
	o->err_cause = t->d.q[FW_QUEUE_COPY].err_cause;

	o->cycles = gm_cycles(t->g);
	assert_int_equal(gm_backdoor_read(t->g, t->scratch, o->data, sizeof(o->data)), GM_OK);
	for (unsigned q = 0; q < 2; q++) {
		o->pkts[q] = tb_rd(t, GPU_REG_Q_PKTS(q));
		o->busy[q] = tb_rd(t, GPU_REG_Q_BUSY_CYCLES(q));
		o->stall_wait[q] = tb_rd(t, GPU_REG_Q_STALL_WAIT(q));
		o->fences[q] = t->d.q[q].fence_seen;
	}
}

static void run_on(enum gm_backend_kind kind, struct outcome *o)
{
	struct gm_config cfg;
	struct tb t;

	gm_config_default(&cfg);
	cfg.backend = kind;
	memset(o, 0, sizeof(*o));
	tb_open_cfg(&t, &cfg);
	assert_string_equal(gm_backend_name(t.g), kind == GM_BACKEND_SYSTEMC ? "systemc" : "verilator");
	workload(&t, o);
	tb_close(&t);
}

static void test_systemc_matches_verilator(void **state)
{
	struct outcome vl, sc;

	(void)state;
	run_on(GM_BACKEND_VERILATOR, &vl);
	run_on(GM_BACKEND_SYSTEMC, &sc);
	assert_int_equal(vl.err_cause, GPU_CAUSE_BAD_OPCODE);
	assert_int_equal(vl.fences[0], N_ROUNDS);
	assert_true(vl.stall_wait[0] > 0);
	assert_int_equal(sc.err_cause, vl.err_cause);
	assert_memory_equal(sc.data, vl.data, sizeof(vl.data));
	assert_memory_equal(sc.pkts, vl.pkts, sizeof(vl.pkts));
	assert_memory_equal(sc.busy, vl.busy, sizeof(vl.busy));
	assert_memory_equal(sc.stall_wait, vl.stall_wait, sizeof(vl.stall_wait));
	assert_memory_equal(sc.fences, vl.fences, sizeof(vl.fences));
	assert_int_equal(sc.cycles, vl.cycles);
}

/* The registry: one entry per kind, in kind order, each found by its name
 * (the names the command line and $GPUSIM_BACKEND take, written out here as
 * the oracle), the capabilities the CLI checks, and nothing for an unknown
 * name or kind; a model of an unknown kind is refused. */
static void test_backend_registry(void **state)
{
	static const char *const names[GM_BACKEND_COUNT] = { "verilator", "systemc", "ref", "tlm" };
	const struct gm_backend_info *b;
	struct gm_config cfg;
	struct gm *g = NULL;
	size_t n;

	(void)state;
	b = gm_backend_list(&n);
	assert_int_equal(n, GM_BACKEND_COUNT);
	for (size_t i = 0; i < n; i++) {
		assert_int_equal(b[i].kind, i);
		assert_string_equal(b[i].name, names[i]);
		assert_ptr_equal(gm_backend_info(b[i].kind), &b[i]);
		assert_ptr_equal(gm_backend_lookup(names[i]), &b[i]);
		assert_non_null(b[i].doc);
	}
	assert_true(gm_backend_info(GM_BACKEND_VERILATOR)->caps & GM_CAP_WAVES);
	assert_true(gm_backend_info(GM_BACKEND_VERILATOR)->caps & GM_CAP_MANY);
	assert_int_equal(gm_backend_info(GM_BACKEND_SYSTEMC)->caps & (GM_CAP_SYSTEMC | GM_CAP_MANY),
			 GM_CAP_SYSTEMC);
	assert_int_equal(gm_backend_info(GM_BACKEND_REF)->caps & (GM_CAP_WAVES | GM_CAP_SYSTEMC), 0);
	assert_int_equal(gm_backend_info(GM_BACKEND_TLM)->caps & (GM_CAP_PLATFORM | GM_CAP_MANY | GM_CAP_WAVES),
			 GM_CAP_PLATFORM | GM_CAP_WAVES);
	assert_null(gm_backend_lookup(NULL));
	assert_null(gm_backend_lookup(""));
	assert_null(gm_backend_lookup("Verilator"));
	assert_null(gm_backend_lookup("verilator "));
	assert_null(gm_backend_info((enum gm_backend_kind)GM_BACKEND_COUNT));
	gm_config_default(&cfg);
	cfg.backend = (enum gm_backend_kind)GM_BACKEND_COUNT;
	assert_int_equal(gm_create(&cfg, &g), GM_ERR_BAD_ARG);
	assert_null(g);
}

/* The kernel elaborates once: a second SystemC model is refused cleanly. */
static void test_systemc_second_model_refused(void **state)
{
	struct gm_config cfg;
	struct gm *g = NULL;

	(void)state;
	gm_config_default(&cfg);
	cfg.backend = GM_BACKEND_SYSTEMC;
	assert_int_equal(gm_create(&cfg, &g), GM_ERR_UNSUPPORTED);
	assert_null(g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_backend_registry),
		cmocka_unit_test(test_systemc_matches_verilator),
		cmocka_unit_test(test_systemc_second_model_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
