/* SPDX-License-Identifier: MIT */
/*
 * bench_cmd.c - `gpusim bench`: the demo workload on every backend with and
 * without waves (each case in its own process), the MMU's translation
 * cost, the copy engine's and the aperture's bytes per cycle on the RTL and
 * on ref, the command processor's packet stream (bench_cp.c), then the
 * pipeline's and the user-mode driver's benchmarks
 * (bench_pipe.c, bench_umd.c).  Wall-clock figures: compare ratios taken in
 * one run.
 */
#define _POSIX_C_SOURCE 200809L

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "cli.h"
#include "dma_buf.h"
#include "fw_dev.h"
#include "fw_vm.h"
#include "gm.h"
#include "gm_backend.h"
#include "gpu_hw.h"
#include "scen_demo.h"
#include "scen_pipe.h"

struct bench_case {
	const char *what; /* after the backend's registry name */
	enum gm_backend_kind backend;
	int wave; /* 0 off, 1 window, 2 full, 3 a window past the end (none dumped) */
	bool mmu;
};

/* Run one case in a child (SystemC elaborates once per process), its
 * progress on @prog (cli_progress: the child's line, ended by it). */
static int bench_one(const struct bench_case *c, unsigned rounds, struct cli_progress *prog,
		     struct scen_demo_result *r)
{
	int fd[2], status;
	pid_t pid;

	if (pipe(fd))
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		struct scen_demo_opts o;
		char path[64];

		close(fd[0]);
		scen_demo_opts_default(&o);
		o.backend = c->backend;
		o.rounds = rounds;
		o.verbose = false;
		o.error_act = false;
		o.mmu = c->mmu;
		o.progress = prog->on ? cli_progress : NULL;
		o.progress_ctx = prog;
		if (c->wave) {
			snprintf(path, sizeof(path), "build/bench-%d.fst", (int)getpid());
			o.wave = path;
			if (c->wave == 1) {
				o.wave_from = 10000;
				o.wave_to = 11000;
			} else if (c->wave == 3) {
				o.wave_from = GM_WAVE_END - 1;
			}
		}
		int st = scen_demo_run(&o, r);
		cli_progress_end(prog);
		if (c->wave)
			unlink(path);
		ssize_t n = write(fd[1], r, sizeof(*r));
		_exit(st || n != (ssize_t)sizeof(*r) ? 1 : 0);
	}
	close(fd[1]);
	ssize_t n = read(fd[0], r, sizeof(*r));
	close(fd[0]);
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) ||
	    n != (ssize_t)sizeof(*r))
		return -1;
	return 0;
}

/*
 * Copy engine: one large command on an idle GPU; the engine's own busy
 * counter gives the cycles.  A copy crosses the memory port twice (read and
 * write), so the port is fully used at BEAT/2 copied bytes per cycle: the
 * utilisation printed is (read + write bytes) / (beat bytes * cycles).
 */
static int bench_ce_on(enum gm_backend_kind be, const char *what, const struct dma_surf *dst,
		       const struct dma_surf *src, uint32_t w, uint32_t h, bool copy, uint32_t *cycles,
		       double *secs)
{
	static uint32_t ib[64];
	struct timespec t0, t1;
	struct gm_config cfg;
	struct fw_dev_cfg dc;
	struct fw_dev d;
	struct dma_buf b;
	struct gm *g;
	uint32_t busy, bytes;
	int st;

	gm_config_default(&cfg);
	cfg.backend = be;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (gm_create(&cfg, &g))
		return 1;
	fw_dev_cfg_default(&dc);
	st = fw_dev_init(&d, g, &dc);
	dma_buf_init(&b, ib, 64);
	if (!st)
		st = copy ? dma_emit_copy(&b, dst->base, src->base, w) : dma_emit_blt(&b, dst, src, w, h);
	if (!st)
		st = bench_ce_run(&d, &b, &busy, &bytes);
	gm_destroy(g);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (st) {
		printf("  ce %s: failed (%s)\n", what, gm_status_name(st));
		return 1;
	}
	*cycles = busy;
	*secs = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
	if (be == GM_BACKEND_VERILATOR)
		printf("  ce %-28s %8u bytes in %8u cycles: %5.2f bytes/cycle copied, memory port %5.1f%% "
		       "of peak (%u B/cycle)\n", what, bytes, busy, (double)bytes / busy,
		       100.0 * 2.0 * bytes / ((double)GM_BEAT_BYTES * busy), GM_BEAT_BYTES);
	return 0;
}

/* The command on the RTL, then on the reference backend: cycles side by side. */
static int bench_ce(const char *what, const struct dma_surf *dst, const struct dma_surf *src,
		    uint32_t w, uint32_t h, bool copy)
{
	uint32_t cv = 0, cr = 0;
	double sv = 0, sr = 0;

	if (bench_ce_on(GM_BACKEND_VERILATOR, what, dst, src, w, h, copy, &cv, &sv) ||
	    bench_ce_on(GM_BACKEND_REF, what, dst, src, w, h, copy, &cr, &sr))
		return 1;
	printf("     ref: %8u cycles (%+.2f%% of the RTL's), %.1fx the RTL backend's speed\n", cr,
	       100.0 * ((double)cr - cv) / cv, sr > 0 ? sv / sr : 0.0);
	return 0;
}

/* CPU aperture bandwidth on @be: a sequential write of @len bytes (posted
 * 64-bit words, write-combined into beats), then a sequential read of them
 * (pipelined, served from the prefetched beat where it can), through a
 * range onto a surface of layout @mode, 4 bytes per element, pitch 4 KiB.
 * The cycles of each in @wr and @rd; the wall time of both in @secs. */
static int bench_apt_on(enum gm_backend_kind be, uint32_t len, unsigned mode, uint64_t *wr,
			uint64_t *rd, double *secs)
{
	struct gm_config cfg;
	struct gm *g;
	struct timespec t0, t1;
	uint8_t *buf = calloc(1, len);
	uint64_t c0, c1, c2;
	int st;

	gm_config_default(&cfg);
	cfg.backend = be;
	if (!buf || gm_create(&cfg, &g)) {
		free(buf);
		return GM_ERR_NO_MEM;
	}
	st = gm_reg_write(g, GPU_REG_APT_START(0), 0);
	if (!st)
		st = gm_reg_write(g, GPU_REG_APT_END(0), len);
	if (!st)
		st = gm_reg_write(g, GPU_REG_APT_BASE_LO(0), 0x1000000);
	if (!st)
		st = gm_reg_write(g, GPU_REG_APT_PITCH(0), 4096);
	if (!st)
		st = gm_reg_write(g, GPU_REG_APT_CTRL(0), GPU_APT_CTRL_VALID(1) |
			GPU_APT_CTRL_MODE(mode) | GPU_APT_CTRL_BPE(2));
	clock_gettime(CLOCK_MONOTONIC, &t0);
	c0 = gm_cycles(g);
	if (!st)
		st = gm_apt_write(g, 0, buf, len);
	c1 = gm_cycles(g);
	if (!st)
		st = gm_apt_read(g, 0, buf, len);
	c2 = gm_cycles(g);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	gm_destroy(g);
	free(buf);
	*wr = c1 - c0;
	*rd = c2 - c1;
	*secs = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
	return st;
}

/* The aperture bandwidth on the RTL, then the reference backend's cycles. */
static int bench_apt(uint32_t len, unsigned mode, const char *name)
{
	uint64_t wv = 0, rv = 0, wr = 0, rr = 0;
	double sv = 0, sr = 0;
	int st = bench_apt_on(GM_BACKEND_VERILATOR, len, mode, &wv, &rv, &sv);

	st = st ? st : bench_apt_on(GM_BACKEND_REF, len, mode, &wr, &rr, &sr);
	if (st) {
		printf("  aperture %s: failed (%s)\n", name, gm_status_name(st));
		return 1;
	}
	printf("  aperture %-6s 4 B/element, %u bytes sequential through a range: write %.3f "
	       "bytes/cycle (%" PRIu64 " cycles, posted), read %.3f bytes/cycle (%" PRIu64
	       " cycles)\n", name, len, (double)len / (double)wv, wv, (double)len / (double)rv, rv);
	printf("     ref: write %" PRIu64 " cycles (%+.2f%% of the RTL's), read %" PRIu64 " cycles (%+.2f%%), "
	       "%.1fx the RTL backend's speed\n", wr, 100.0 * ((double)wr - (double)wv) / (double)wv, rr,
	       100.0 * ((double)rr - (double)rv) / (double)rv, sr > 0 ? sv / sr : 0.0);
	return 0;
}

static int bench_copy_engine(void)
{
	const uint32_t mib = 1u << 20;
	struct dma_surf a = {0x01000000, 4096, GPU_TILE_LINEAR, 2, 0, 0};
	struct dma_surf b = {0x02000000, 4096, GPU_TILE_LINEAR, 2, 0, 0};
	struct dma_surf s = {0x02000000, 4096, GPU_TILE_SS64K, 2, 0, 0};
	struct dma_surf y = {0x02000000, 4096, GPU_TILE_Y, 2, 0, 0};
	int bad = 0;

	printf("bench: copy engine (2 MiB unless noted) and CPU aperture\n");
	bad |= bench_ce("COPY linear aligned", &b, &a, 2 * mib, 1, true);
	a.base += 5;
	b.base += 17;
	bad |= bench_ce("COPY linear misaligned", &b, &a, 2 * mib, 1, true);
	a.base -= 5;
	bad |= bench_ce("BLT linear -> SS64K 4 B", &s, &a, 1024, 512, false);
	bad |= bench_ce("BLT SS64K -> linear 4 B", &a, &s, 1024, 512, false);
	bad |= bench_ce("BLT linear -> Tile-Y 4 B", &y, &a, 1024, 512, false);
	bad |= bench_ce("BLT Tile-Y -> linear 4 B", &a, &y, 1024, 512, false);
	bad |= bench_apt(1u << 20, GPU_TILE_LINEAR, "linear");
	bad |= bench_apt(1u << 20, GPU_TILE_SS64K, "SS64K");
	bad |= bench_apt(1u << 20, GPU_TILE_Y, "Tile-Y");
	return bad;
}

/*
 * Every `gpusim run` scenario on the Verilator backend and on ref: both
 * cycle counts, ref's difference from the RTL's and its speed-up by CPU
 * time (each scenario checks its own results; a failed check fails the
 * bench).  0, or 1.
 */
static int bench_scenarios(void)
{
	static const enum gm_backend_kind be[2] = { GM_BACKEND_VERILATOR, GM_BACKEND_REF };
	FILE *null = fopen("/dev/null", "w");
	int rc = 0;

	if (!null)
		return 1;
	printf("scenarios (gpusim run NAME): cycles on verilator and ref, ref's difference, ref's speed-up\n");
	for (const char *const *name = scen_pipe_names; *name && !rc; name++) {
		struct scen_pipe_result r[2];
		double secs[2];

		for (unsigned k = 0; k < 2 && !rc; k++) {
			struct scen_pipe_opts o;
			struct timespec t0, t1;

			scen_pipe_opts_default(&o);
			o.backend = be[k];
			o.quiet = true;
			o.out = null;
			clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
			rc = scen_pipe_run(*name, &o, &r[k]) != GM_OK;
			clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
			secs[k] = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
		}
		if (rc) {
			printf("  %-9s failed\n", *name);
			break;
		}
		printf("  %-9s %10" PRIu64 " / %10" PRIu64 " cycles  %+6.2f%%  %5.1fx\n", *name,
		       r[0].cycles, r[1].cycles,
		       100.0 * ((double)r[1].cycles - (double)r[0].cycles) / (double)r[0].cycles,
		       secs[1] > 0 ? secs[0] / secs[1] : 0.0);
	}
	fclose(null);
	return rc;
}

int cmd_bench(const struct cli_cmd *c, int argc, char **argv)
{
	struct cli_progress prog;
	struct cli_args a;
	int rc;
	static const struct bench_case cases[] = {
		{ ", waves off", GM_BACKEND_VERILATOR, 0, true },
		{ ", 1000-cycle FST window", GM_BACKEND_VERILATOR, 1, true },
		{ ", full FST", GM_BACKEND_VERILATOR, 2, true },
		{ ", waves off", GM_BACKEND_SYSTEMC, 0, true },
		{ ", 1000-cycle FST window", GM_BACKEND_SYSTEMC, 1, true },
		{ ", full FST", GM_BACKEND_SYSTEMC, 2, true },
		{ ", waves off, no VMID", GM_BACKEND_VERILATOR, 0, false },
		{ " (C reference model)", GM_BACKEND_REF, 0, true },
		/* the model with trace support (a model made for waves) dumping nothing */
		{ ", trace support, no wave", GM_BACKEND_VERILATOR, 3, true },
	};
	enum { NCASES = sizeof(cases) / sizeof(cases[0]) };
	double rate[NCASES] = { 0 };
	uint64_t cyc[NCASES] = { 0 };
	unsigned rounds = 1000;

	cli_args_default(&a);
	a.rounds = 1000;
	rc = cli_parse(c, argc, argv, &a);
	if (rc)
		return rc < 0 ? 0 : rc;
	rounds = a.rounds;
	printf("bench: demo workload, %u render/copy rounds per case\n", rounds);
	for (unsigned i = 0; i < NCASES; i++) {
		struct scen_demo_result r;
		char name[64];

		snprintf(name, sizeof(name), "%s%s", cli_backend_word(cases[i].backend), cases[i].what);
		cli_progress_start(&prog, name, "round", false, false);
		if (bench_one(&cases[i], rounds, &prog, &r)) {
			printf("  %-36s failed\n", name);
			return 1;
		}
		rate[i] = r.seconds > 0 ? (double)r.cycles / r.seconds : 0;
		cyc[i] = r.cycles;
		printf("  %-36s %10" PRIu64 " cycles %8.3f s %10.0f cycles/s\n", name, r.cycles,
		       r.seconds, rate[i]);
	}
	printf("ratios: systemc/verilator %.3f; verilator full FST/off %.3f, window/off %.3f;"
	       " systemc full FST/off %.3f; translated/physical render queue %.3f\n",
	       rate[3] / rate[0], rate[2] / rate[0], rate[1] / rate[0], rate[5] / rate[3],
	       rate[0] / rate[6]);
	printf("trace support compiled in, no wave dumped: %.3f of the verilator backend's cycles/s\n",
	       rate[0] > 0 ? rate[8] / rate[0] : 0.0);
	printf("ref: %.1fx the verilator backend's cycles/s; its cycle count %+.2f%% of the RTL's\n",
	       rate[0] > 0 ? rate[7] / rate[0] : 0.0,
	       cyc[0] ? 100.0 * ((double)cyc[7] - (double)cyc[0]) / (double)cyc[0] : 0.0);
	return bench_mmu(false, 20000) || bench_mmu(true, 20000) || bench_copy_engine() || bench_ce_xlat() ||
	       bench_cp_stream() || bench_scenarios() ||
	       bench_pipeline() || bench_umd();
}
