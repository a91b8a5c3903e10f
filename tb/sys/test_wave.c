/* SPDX-License-Identifier: MIT */
/*
 * test_wave.c - waveform control: a cycle window is written, holds the CP's
 * signals and nothing outside the window; VCD output; bad arguments.
 * The files are read back with GTKWave's fst2vcd.  And the RTL's assertions
 * (Verilator --assert) seen through the C API: an injected memory response
 * no client owns fails a_arb_rsp_routed, reported as a model error with its
 * label and cycle, the clock stopped, an error marker in the run's view; a
 * busy run fails none; with GPUSIM_ASSERT=0 the same response fails none.
 * A model not made for waves (the model without trace support) refuses one
 * and runs the same cycles as the model with it.
 */
#define _DEFAULT_SOURCE /* mkstemps */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gm_backend.h"
#include "tb_util.h"

struct vcd_summary {
	uint64_t t_min, t_max;  /* first and last timestamp */
	unsigned n_times;
	bool has_state;         /* a queue FSM state_q variable is declared */
	bool has_mem_port;      /* mem_req_valid_o is declared */
	unsigned state_changes; /* value changes of the first state_q */
	unsigned max_state;     /* largest state_q value seen */
};

/* Read a VCD (from @cmd's output) into @s.  Returns false if unreadable. */
static bool vcd_scan(const char *cmd, struct vcd_summary *s)
{
	char line[4096], state_id[32] = "";
	FILE *p = popen(cmd, "r");

	if (!p)
		return false;
	memset(s, 0, sizeof(*s));
	s->t_min = UINT64_MAX;
	while (fgets(line, sizeof(line), p)) {
		char kind[16], id[32], name[128];
		unsigned width;

		if (sscanf(line, " $var %15s %u %31s %127s", kind, &width, id, name) == 4) {
			if (!strcmp(name, "state_q") && !state_id[0]) {
				s->has_state = true;
				strcpy(state_id, id);
			}
			if (!strcmp(name, "mem_req_valid_o"))
				s->has_mem_port = true;
		} else if (line[0] == '#') {
			uint64_t t = strtoull(line + 1, NULL, 10);

			s->t_min = t < s->t_min ? t : s->t_min;
			s->t_max = t > s->t_max ? t : s->t_max;
			s->n_times++;
		} else if (line[0] == 'b' && state_id[0]) {
			char *sp = strchr(line, ' ');

			if (sp && !strncmp(sp + 1, state_id, strlen(state_id)) &&
			    (sp[1 + strlen(state_id)] == '\n' || sp[1 + strlen(state_id)] == '\0')) {
				unsigned v = (unsigned)strtoul(line + 1, NULL, 2);

				s->state_changes++;
				s->max_state = v > s->max_state ? v : s->max_state;
			}
		}
	}
	return pclose(p) == 0;
}

/* Keep queue 0 busy with NOPs and writes for a few hundred cycles: the
 * fence that retires them. */
static uint64_t keep_busy(struct tb *t)
{
	static uint32_t dw[512];
	struct dma_buf b;
	uint32_t v = 7;

	dma_buf_init(&b, dw, 512);
	for (int i = 0; i < 20; i++) {
		dma_emit_nop(&b, 8);
		dma_emit_write_data(&b, t->scratch + 4 * (uint64_t)i, &v, 1);
	}
	return tb_submit_ib(t, FW_QUEUE_RENDER, &b);
}

/* Remove waveform @path and the view gpusim wrote next to it (model/gm.h). */
static void remove_wave(const char *path)
{
	char cmd[512];
	int n = (int)strlen(path) - 4;

	snprintf(cmd, sizeof(cmd), "rm -rf '%s' '%.*s.gtkw' '%.*s-filters'", path, n, path, n, path);
	if (system(cmd))
		fail_msg("could not remove %s and its view", path);
}

/* A fresh temporary file name ending in @suffix (4 chars) in @path. */
static void temp_path(char *path)
{
	int fd = mkstemps(path, 4);

	assert_true(fd >= 0);
	close(fd);
}

static void test_wave_window(void **state)
{
	char path[] = "/tmp/gpusim-wave-XXXXXX.fst", cmd[256];
	struct vcd_summary s;
	struct tb t;
	uint64_t from, to;

	(void)state;
	temp_path(path);
	tb_open_waves(&t);
	from = gm_cycles(t.g) + 100;
	to = from + 200;
	assert_int_equal(gm_wave_open(t.g, path, from, to), GM_OK);
	assert_true(gm_wave_is_open(t.g));
	keep_busy(&t);
	gm_step(t.g, 1000);
	/* The window closed the file by itself. */
	assert_false(gm_wave_is_open(t.g));
	tb_close(&t);
	snprintf(cmd, sizeof(cmd), "fst2vcd -f %s", path);
	assert_true(vcd_scan(cmd, &s));
	remove_wave(path);
	assert_true(s.has_state);
	assert_true(s.has_mem_port);
	if (s.t_min != GM_WAVE_T_LOW(from) || s.t_max != GM_WAVE_T_HIGH(to - 1))
		fail_msg("window [%" PRIu64 ", %" PRIu64 ") but file spans times %" PRIu64
			 "..%" PRIu64, from, to, s.t_min, s.t_max);
	assert_int_equal(s.n_times, 2 * (to - from));
	/* The CP worked inside the window: its FSM left IDLE. */
	assert_true(s.state_changes >= 2);
	assert_true(s.max_state > GPU_CP_ST_IDLE);
}

static void test_wave_vcd_full(void **state)
{
	char path[] = "/tmp/gpusim-wave-XXXXXX.vcd", cmd[256];
	struct vcd_summary s;
	struct tb t;
	uint64_t end;

	(void)state;
	temp_path(path);
	tb_open_waves(&t);
	assert_int_equal(gm_wave_open(t.g, path, 0, GM_WAVE_END), GM_OK);
	keep_busy(&t);
	gm_step(t.g, 300);
	end = gm_cycles(t.g);
	assert_int_equal(gm_wave_close(t.g), GM_OK);
	assert_false(gm_wave_is_open(t.g));
	tb_close(&t);
	snprintf(cmd, sizeof(cmd), "cat %s", path);
	assert_true(vcd_scan(cmd, &s));
	remove_wave(path);
	assert_true(s.has_state);
	/* From the first cycle after the open to the last one run. */
	assert_int_equal(s.t_max, GM_WAVE_T_HIGH(end - 1));
	assert_true(s.max_state > GPU_CP_ST_IDLE);
}

static void test_wave_bad_args(void **state)
{
	struct tb t;

	(void)state;
	tb_open_waves(&t);
	assert_int_equal(gm_wave_open(t.g, NULL, 0, 10), GM_ERR_BAD_ARG);
	assert_int_equal(gm_wave_open(t.g, "/tmp/x.txt", 0, 10), GM_ERR_BAD_ARG);
	assert_int_equal(gm_wave_open(t.g, "/tmp/x.fst", 10, 10), GM_ERR_BAD_ARG);
	assert_int_equal(gm_wave_open(t.g, "/nonexistent-dir/x.fst", 0, 10), GM_ERR_IO);
	assert_false(gm_wave_is_open(t.g));
	assert_int_equal(gm_wave_open(t.g, "/tmp/gpusim-wave-busy.fst", 0, 10), GM_OK);
	assert_int_equal(gm_wave_open(t.g, "/tmp/gpusim-wave-busy2.fst", 0, 10), GM_ERR_BUSY);
	assert_int_equal(gm_wave_close(t.g), GM_OK);
	assert_int_equal(gm_wave_close(t.g), GM_OK); /* closing nothing */
	unlink("/tmp/gpusim-wave-busy.fst");
	tb_close(&t);
}

/* The registers and results a run leaves, read the same way on each model. */
struct run_end {
	uint64_t cycles;
	uint32_t cycle_lo, scratch[20];
	uint32_t qregs[(GPU_REG_Q_VMID(0) - GPU_REG_Q_CTRL(0)) / 4 + 1]; /* queue 0's */
};

static void run_busy(struct tb *t, struct run_end *e)
{
	memset(e, 0, sizeof(*e)); /* padding too: compared whole */
	tb_wait(t, FW_QUEUE_RENDER, keep_busy(t));
	assert_int_equal(gm_step(t->g, 100), GM_OK);
	e->cycles = gm_cycles(t->g);
	e->cycle_lo = tb_rd(t, GPU_REG_CYCLE_LO);
	for (unsigned i = 0; i < sizeof(e->qregs) / 4; i++)
		e->qregs[i] = tb_rd(t, GPU_REG_Q_CTRL(0) + 4 * i);
	for (unsigned i = 0; i < 20; i++)
		e->scratch[i] = tb_mem32(t, t->scratch + 4 * (uint64_t)i);
	assert_int_equal(e->scratch[19], 7); /* the last write landed */
}

/*
 * A model not made for waves runs the Verilator model built without trace
 * support (model/gm.h, gm_config.waves): it refuses a waveform, creates no
 * file, and runs the same cycles to the same registers and memory as the
 * model with trace support, with a window open or not.
 */
static void test_wave_models_agree(void **state)
{
	char path[] = "/tmp/gpusim-wave-XXXXXX.fst";
	struct run_end plain, traced;
	struct tb t;

	(void)state;
	tb_open(&t);
#ifdef GM_VL_NT
	if (gm_backend_info(tb_backend())->caps & GM_CAP_TRACE_MODEL) {
		/* a file left by another run must not pass for one made here */
		unlink("/tmp/gpusim-wave-refused.fst");
		assert_int_equal(gm_wave_open(t.g, "/tmp/gpusim-wave-refused.fst", 0, 10),
				 GM_ERR_UNSUPPORTED);
		assert_false(gm_wave_is_open(t.g));
		assert_int_equal(access("/tmp/gpusim-wave-refused.fst", F_OK), -1);
	}
#endif
	run_busy(&t, &plain);
	tb_close(&t);

	temp_path(path);
	tb_open_waves(&t);
	assert_int_equal(gm_wave_open(t.g, path, gm_cycles(t.g) + 200, gm_cycles(t.g) + 400),
			 GM_OK);
	run_busy(&t, &traced);
	tb_close(&t);
	remove_wave(path);
	assert_memory_equal(&plain, &traced, sizeof(plain));
}

static void test_assert_model_error(void **state)
{
	char path[] = "/tmp/gpusim-assert-XXXXXX.fst", gtkw[64], line[256];
	const char *what = NULL;
	uint64_t at = 0, before;
	bool marked = false;
	struct tb t;
	FILE *f;

	(void)state;
	temp_path(path);
	tb_open_waves(&t);
	/* A busy run fails no assertion. */
	keep_busy(&t);
	assert_int_equal(gm_step(t.g, 2000), GM_OK);
	assert_false(gm_model_error(t.g, &what, &at));
	/* A response no request asked for: client 0x30 (id 0x60) is nobody's. */
	assert_int_equal(gm_wave_open(t.g, path, gm_cycles(t.g), GM_WAVE_END), GM_OK);
	assert_int_equal(gm_inject_mem_rsp(t.g, GM_INJECT_ID_NOBODY, gm_cycles(t.g)), GM_OK);
	assert_int_equal(gm_inject_mem_rsp(t.g, GM_INJECT_ID_NOBODY, 0), GM_ERR_BAD_ARG); /* one pending */
	before = gm_cycles(t.g);
	assert_int_equal(gm_step(t.g, 100), GM_ERR_HW);
	assert_true(gm_model_error(t.g, &what, &at));
	if (!strstr(what, "a_arb_rsp_routed") || !strstr(what, "cp_mem_arb.sv"))
		fail_msg("model error names %s", what);
	assert_true(at >= before && at < before + 10);
	/* The clock stopped there. */
	assert_int_equal(gm_cycles(t.g), at + 1);
	assert_int_equal(gm_step(t.g, 5), GM_ERR_HW);
	assert_int_equal(gm_cycles(t.g), at + 1);
	assert_int_equal(gm_wave_close(t.g), GM_OK);
	tb_close(&t);
	snprintf(gtkw, sizeof(gtkw), "%.*s.gtkw", (int)(strlen(path) - 4), path);
	f = fopen(gtkw, "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f))
		marked |= !strncmp(line, "[markername] Aassert a_arb_rsp_routed", 37);
	fclose(f);
	assert_true(marked);
	remove_wave(path);

	/* GPUSIM_ASSERT=0: the same response fails nothing (the assertions
	 * are not evaluated) and the clock goes on. */
	setenv("GPUSIM_ASSERT", "0", 1);
	tb_open(&t);
	unsetenv("GPUSIM_ASSERT");
	keep_busy(&t);
	assert_int_equal(gm_inject_mem_rsp(t.g, GM_INJECT_ID_NOBODY, gm_cycles(t.g)), GM_OK);
	before = gm_cycles(t.g);
	assert_int_equal(gm_step(t.g, 100), GM_OK);
	assert_false(gm_model_error(t.g, &what, &at));
	assert_int_equal(gm_cycles(t.g), before + 100);
	tb_close(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_wave_window),
		cmocka_unit_test(test_wave_vcd_full),
		cmocka_unit_test(test_wave_bad_args),
		cmocka_unit_test(test_wave_models_agree),
		cmocka_unit_test(test_assert_model_error),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
