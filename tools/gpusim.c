/* SPDX-License-Identifier: MIT */
/*
 * gpusim - the command line: the bring-up demo, benchmarks, disassembly.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "dma_buf.h"
#include "dma_disasm.h"
#include "bench.h"
#include "cli_file.h"
#include "scen_demo.h"
#include "scen_pipe.h"
#include "fw_dev.h"
#include "fw_vm.h"
#include "gm.h"
#include "gm_backend.h"
#include "gpu_hw.h"
#include "replay.h"

static const char usage[] =
	"usage: gpusim COMMAND [options]\n"
	"\n"
	"commands:\n"
	"  demo            run the bring-up demo: two queues (one waits on a value the\n"
	"                  other writes; the render queue translated in VMID 1), IBs,\n"
	"                  fences with interrupts, a CP error and its recovery; prints\n"
	"                  what it did, cycles, per-queue and MMU counters and fences,\n"
	"                  and checks every result (exit 1 on a failed check)\n"
	"  bench [--rounds N]  measure simulation speed of the demo workload (N\n"
	"                  render/copy rounds per case, 1..1000000, default 1000) on\n"
	"                  both backends with waves off, a windowed FST and a full FST;\n"
	"                  MMU hit rates, copy-engine and aperture bandwidth; the\n"
	"                  pipeline's patch and build rates and submit->retire cycles\n"
	"  run NAME        run an end-to-end scenario of the submission pipeline\n"
	"                  (Render, residency and paging, Patch, SubmitCommand, fences,\n"
	"                  TDR) with its log and checks (exit 1 on a failed check);\n"
	"                  `run all` runs each, `run --list` names them\n"
	"  idle [--cycles N] [--backend B]  clock a model out of reset N cycles\n"
	"                  (default 100000) with nothing to do (tools/bench_ipc.sh)\n"
	"  replay FILE     run a capture (--capture; traces/FORMAT.md) on a fresh model\n"
	"                  and check every result it recorded; the first mismatch is\n"
	"                  printed with its record number (exit 1; 77: the backend\n"
	"                  lacks a call it needs); a damaged capture is refused\n"
	"                  with the record and the reason (exit 2)\n"
	"  replay --disasm FILE  list a capture record by record, ring uploads\n"
	"                  decoded as packets (following IBs)\n"
	"  disasm FILE     decode a raw little-endian dword file as packets: at most\n"
	"                  64 MiB and a whole number of dwords, else refused with the\n"
	"                  count of trailing bytes (exit 1 if a packet does not decode)\n"
	"\n"
	"demo options:\n"
	"  --backend verilator|systemc|ref   RTL simulator, or ref: the C reference\n"
	"                    model, no RTL and no waveforms (default verilator)\n"
	"  --wave FILE       write a waveform (.fst, or .vcd converted by fst2vcd)\n"
	"  --wave-from N     first cycle recorded (default 0)\n"
	"  --wave-to M       record cycles before M only (default: to the end)\n"
	"  --rounds N        render/copy exchanges (1..1000000, default 1)\n"
	"  --no-mmu          run the render queue physical (VMID 0) instead of VMID 1\n"
	"  --capture FILE    record everything sent to the model into FILE (replay it\n"
	"                    with gpusim replay FILE); costs no cycle\n"
	"  --quiet           print only the summary line\n"
	"  -h, --help        this text\n"
	"\n"
	"run options:\n"
	"  --backend verilator|systemc|ref   as for demo\n"
	"  --wave FILE       write a waveform of the whole scenario (all: a folder,\n"
	"                    FILE/NAME.fst each)\n"
	"  --wave-from N, --wave-to M   its window of cycles, as for demo\n"
	"  --seed N          image contents (default 1)\n"
	"  --capture FILE    as for demo (all: a folder, FILE/NAME.gcap each)\n"
	"  --quiet           checks and summary only, no pipeline log\n"
	"  --inject-bad-rsp N  error injection: at cycle N (>= 1) the memory answers a\n"
	"                    request nobody made; the RTL's assertion a_arb_rsp_routed\n"
	"                    fails, a model error (also for demo)\n"
	"\n"
	"replay options:\n"
	"  --backend verilator|systemc|ref   the model to run it on (default: the\n"
	"                    backend it was captured on)\n"
	"  --wave FILE, --wave-from N, --wave-to M   its waves, as for demo\n"
	"  --quiet           print nothing when every check passes\n"
	"\n"
	"A failed run or demo without --wave runs again to write the waves of its\n"
	"last 20000 cycles, gpusim-fail-NAME.fst and its view, and names them.\n"
	"\n"
	"A .vcd waveform needs fst2vcd (package gtkwave) on PATH.\n"
	"Next to each waveform FILE.fst gpusim writes its view, FILE.gtkw (the blocks\n"
	"the run used, fitted to it, named markers at fences, errors and faults):\n"
	"open it with gtkwave FILE.gtkw.  Time: 1 ns a cycle.\n"
	"\n"
	"exit status: 0 success; 1 a check failed, a run could not complete, a\n"
	"packet did not decode or a replay differs; 2 a usage error: an unknown\n"
	"command or option, a bad value, a FILE disasm or replay refuses, or a .vcd\n"
	"without fst2vcd; 77 a replay needs what the backend lacks\n";

static int bad_usage(const char *why, const char *arg)
{
	fprintf(stderr, "gpusim: %s%s%s\n(gpusim --help for usage)\n", why, arg ? ": " : "",
		arg ? arg : "");
	return 2;
}

static bool parse_u64(const char *s, uint64_t *v)
{
	char *end;

	if (!s || !*s || *s == '-')
		return false;
	errno = 0;
	*v = strtoull(s, &end, 0);
	return errno == 0 && *end == '\0';
}

#define ROUNDS_MAX 1000000u /* demo and bench --rounds */

static bool parse_rounds(const char *s, unsigned *rounds)
{
	uint64_t v;

	if (!parse_u64(s, &v) || v == 0 || v > ROUNDS_MAX)
		return false;
	*rounds = (unsigned)v;
	return true;
}

/* True when @prog is an executable file in a directory of $PATH. */
static bool on_path(const char *prog)
{
	const char *dir = getenv("PATH");
	char file[4096];

	for (size_t len; dir; dir = dir[len] ? dir + len + 1 : NULL) {
		len = strcspn(dir, ":");
		/* An empty entry is the current directory. */
		snprintf(file, sizeof(file), "%.*s%s%s", (int)len, dir, len ? "/" : "", prog);
		if (access(file, X_OK) == 0)
			return true;
	}
	return false;
}

/* A .vcd is written as FST and converted by fst2vcd at the end: refuse it
 * before the run when fst2vcd is missing.  0, or the usage exit code. */
static int check_wave(const char *wave, enum gm_backend_kind be)
{
	size_t n = wave ? strlen(wave) : 0;

	if (wave && be == GM_BACKEND_REF)
		return bad_usage("--wave needs an RTL backend (ref has no signals to dump)", wave);
#ifdef GPUSIM_FAST_BUILD
	/* make fast: the model has no trace support and there is no SystemC */
	if (wave)
		return bad_usage("this is the speed build (make fast), without waves: run "
				 "build/bin/gpusim for --wave", wave);
	if (be == GM_BACKEND_SYSTEMC)
		return bad_usage("this is the speed build (make fast), without SystemC: run "
				 "build/bin/gpusim for", "--backend systemc");
#endif
	if (n > 4 && !strcmp(wave + n - 4, ".vcd") && !on_path("fst2vcd"))
		return bad_usage("--wave FILE.vcd needs fst2vcd (package gtkwave) on PATH", wave);
	return 0;
}

static bool parse_backend(const char *s, enum gm_backend_kind *k)
{
	if (s && strcmp(s, "verilator") == 0)
		*k = GM_BACKEND_VERILATOR;
	else if (s && strcmp(s, "systemc") == 0)
		*k = GM_BACKEND_SYSTEMC;
	else if (s && strcmp(s, "ref") == 0)
		*k = GM_BACKEND_REF;
	else
		return false;
	return true;
}

static const char *backend_word(enum gm_backend_kind k)
{
	return k == GM_BACKEND_SYSTEMC ? "systemc" : k == GM_BACKEND_REF ? "ref" : "verilator";
}

/* Parse demo options from argv[1..]; 0, or an exit code. */
static int parse_demo(int argc, char **argv, struct scen_demo_opts *o)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "--quiet")) {
			o->verbose = false;
			continue;
		}
		if (!strcmp(a, "--no-mmu")) {
			o->mmu = false;
			continue;
		}
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			fputs(usage, stdout);
			return -1;
		}
		if (!val)
			return bad_usage("missing value for", a);
		i++;
		if (!strcmp(a, "--backend")) {
			if (!parse_backend(val, &o->backend))
				return bad_usage("unknown backend", val);
		} else if (!strcmp(a, "--wave")) {
			o->wave = val;
		} else if (!strcmp(a, "--capture")) {
			o->capture = val;
		} else if (!strcmp(a, "--wave-from")) {
			if (!parse_u64(val, &o->wave_from))
				return bad_usage("bad --wave-from", val);
		} else if (!strcmp(a, "--wave-to")) {
			if (!parse_u64(val, &o->wave_to))
				return bad_usage("bad --wave-to", val);
		} else if (!strcmp(a, "--rounds")) {
			if (!parse_rounds(val, &o->rounds))
				return bad_usage("bad --rounds", val);
		} else if (!strcmp(a, "--inject-bad-rsp")) {
			if (!parse_u64(val, &o->inject_at) || !o->inject_at)
				return bad_usage("bad --inject-bad-rsp", val);
		} else {
			return bad_usage("unknown option", a);
		}
	}
	if ((o->wave_from || o->wave_to != GM_WAVE_END) && !o->wave)
		return bad_usage("--wave-from/--wave-to need --wave", NULL);
	if (o->wave_from >= o->wave_to)
		return bad_usage("empty wave window", NULL);
	return check_wave(o->wave, o->backend);
}

/* The view gpusim wrote next to waveform @wave (model/gm.h), and how to open it. */
static void say_view(const char *wave)
{
	const char *dot = wave ? strrchr(wave, '.') : NULL;

	if (dot)
		printf("view: %.*s.gtkw (open it: gtkwave %.*s.gtkw)\n", (int)(dot - wave), wave,
		       (int)(dot - wave), wave);
}

#define FAIL_WAVE_CYCLES 20000u /* a failure's waves: the cycles before its end */

/* Where a failed run's waves go: gpusim-fail-NAME.fst in the current folder. */
static void fail_wave_path(char *path, size_t n, const char *name)
{
	snprintf(path, n, "gpusim-fail-%s.fst", name);
}

/* A failed run again (they are deterministic) with a window on its last
 * cycles: its waves and view, and how to open them. */
static void say_fail_waves(const char *wave, uint64_t from, uint64_t end)
{
	printf("waves of the failure: %s, cycles %" PRIu64 " to %" PRIu64 "\n", wave, from, end);
	say_view(wave);
}

static int run_one(const char *name, const struct scen_pipe_opts *o)
{
	struct scen_pipe_result r;
	int st = scen_pipe_run(name, o, &r);

	if (st && st != GM_ERR_HW) {
		fprintf(stderr, "gpusim: scenario %s could not run: %s\n", name, gm_status_name(st));
		return 1;
	}
	printf("run %s: %" PRIu64 " cycles, %u checks, %u failed; %" PRIu64 " submitted, %" PRIu64
	       " retired, %" PRIu64 " paging buffers (%" PRIu64 " evictions, %" PRIu64
	       " page-ins, %" PRIu64 " fills), %" PRIu64 " TDR%s\n\n",
	       name, r.cycles, r.checks, r.failures, r.st.submits, r.st.retired,
	       r.st.paging_buffers, r.st.evictions, r.st.page_ins, r.st.fills, r.st.tdrs,
	       st ? " - FAILED" : "");
	say_view(o->wave);
	if (st && !o->wave && o->backend != GM_BACKEND_REF) { /* waves on failure */
		struct scen_pipe_opts again = *o;
		struct scen_pipe_result r2;
		char path[256];

		fail_wave_path(path, sizeof(path), name);
		again.wave = path;
		again.capture = NULL;
		again.wave_from = r.cycles > FAIL_WAVE_CYCLES ? r.cycles - FAIL_WAVE_CYCLES : 0;
		again.quiet = true;
		again.out = fopen("/dev/null", "w");
		printf("the run again, for the waves of its last %u cycles\n", FAIL_WAVE_CYCLES);
		(void)scen_pipe_run(name, &again, &r2);
		if (again.out)
			fclose(again.out);
		say_fail_waves(path, again.wave_from, r2.cycles);
	}
	return st ? 1 : 0;
}

static int cmd_run(int argc, char **argv)
{
	struct scen_pipe_opts o;
	const char *name = NULL;
	uint64_t v;
	int rc = 0;

	scen_pipe_opts_default(&o);
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--list")) {
			for (const char *const *n = scen_pipe_names; *n; n++)
				printf("%-8s %s\n", *n, scen_pipe_describe(*n));
			return 0;
		} else if (!strcmp(a, "--quiet")) {
			o.quiet = true;
		} else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			fputs(usage, stdout);
			return 0;
		} else if (!strcmp(a, "--wave-from") || !strcmp(a, "--wave-to")) {
			const char *val = i + 1 < argc ? argv[++i] : NULL;

			if (!val || !parse_u64(val, a[7] == 'f' ? &o.wave_from : &o.wave_to))
				return bad_usage(a[7] == 'f' ? "bad --wave-from" : "bad --wave-to", val);
		} else if (!strcmp(a, "--capture")) {
			if (++i == argc)
				return bad_usage("missing value for", a);
			o.capture = argv[i];
		} else if (!strcmp(a, "--backend") || !strcmp(a, "--wave") || !strcmp(a, "--seed") ||
			   !strcmp(a, "--inject-bad-rsp")) {
			const char *val = i + 1 < argc ? argv[++i] : NULL;

			if (!val)
				return bad_usage("missing value for", a);
			if (a[2] == 'b' && !parse_backend(val, &o.backend))
				return bad_usage("unknown backend", val);
			if (a[2] == 'w')
				o.wave = val;
			if (a[2] == 's') {
				if (!parse_u64(val, &v) || v > UINT32_MAX)
					return bad_usage("bad --seed", val);
				o.seed = (uint32_t)v;
			}
			if (a[2] == 'i' && (!parse_u64(val, &o.inject_at) || !o.inject_at))
				return bad_usage("bad --inject-bad-rsp", val);
		} else if (a[0] == '-' || name) {
			return bad_usage(a[0] == '-' ? "unknown option" : "run takes one NAME", a);
		} else {
			name = a;
		}
	}
	if (!name)
		return bad_usage("run needs a scenario NAME (gpusim run --list)", NULL);
	if (strcmp(name, "all") && !scen_pipe_describe(name))
		return bad_usage("unknown scenario", name);
	if ((o.wave_from || o.wave_to != GM_WAVE_END) && !o.wave)
		return bad_usage("--wave-from/--wave-to need --wave", NULL);
	if (o.wave_from >= o.wave_to)
		return bad_usage("empty wave window", NULL);
	if (!strcmp(name, "all") && o.backend == GM_BACKEND_SYSTEMC)
		return bad_usage("the SystemC backend runs one model per process: one scenario", NULL);
	if (check_wave(o.wave, o.backend))
		return 2;
	if (strcmp(name, "all"))
		return run_one(name, &o);
	/* all: --wave and --capture name folders, DIR/NAME.fst, DIR/NAME.gcap a scenario */
	if (o.wave && mkdir(o.wave, 0777) && errno != EEXIST)
		return bad_usage("--wave DIR: cannot make the folder", o.wave);
	if (o.capture && mkdir(o.capture, 0777) && errno != EEXIST)
		return bad_usage("--capture DIR: cannot make the folder", o.capture);
	for (const char *const *n = scen_pipe_names; *n; n++) {
		struct scen_pipe_opts one = o;
		char path[4096], cpath[4096];

		if (o.wave && snprintf(path, sizeof(path), "%s/%s.fst", o.wave, *n) >= (int)sizeof(path))
			return bad_usage("--wave DIR: too long", o.wave);
		if (o.capture && snprintf(cpath, sizeof(cpath), "%s/%s.gcap", o.capture, *n) >=
		    (int)sizeof(cpath))
			return bad_usage("--capture DIR: too long", o.capture);
		one.wave = o.wave ? path : NULL;
		one.capture = o.capture ? cpath : NULL;
		rc |= run_one(*n, &one);
	}
	return rc;
}

static int cmd_demo(int argc, char **argv)
{
	struct scen_demo_opts o;
	struct scen_demo_result r;
	int st;

	scen_demo_opts_default(&o);
	st = parse_demo(argc, argv, &o);
	if (st)
		return st < 0 ? 0 : st;
	if (o.verbose)
		printf("gpusim demo on the %s backend\n\n", backend_word(o.backend));
	st = scen_demo_run(&o, &r);
	if (st && !r.checks) {
		fprintf(stderr, "gpusim: demo could not run: %s\n", gm_status_name(st));
		return 1;
	}
	printf("\ndemo: %" PRIu64 " cycles, %u checks, %u failed%s%s\n", r.cycles, r.checks,
	       r.failures, o.wave ? ", waveform " : "", o.wave ? o.wave : "");
	say_view(o.wave);
	if (st && r.checks && !o.wave && o.backend != GM_BACKEND_REF) { /* waves on failure */
		struct scen_demo_result r2;
		char path[256];

		fail_wave_path(path, sizeof(path), "demo");
		o.wave = path;
		o.capture = NULL;
		o.wave_from = r.cycles > FAIL_WAVE_CYCLES ? r.cycles - FAIL_WAVE_CYCLES : 0;
		o.verbose = false;
		o.out = fopen("/dev/null", "w");
		printf("the demo again, for the waves of its last %u cycles\n", FAIL_WAVE_CYCLES);
		(void)scen_demo_run(&o, &r2);
		if (o.out)
			fclose(o.out);
		say_fail_waves(path, o.wave_from, r2.cycles);
	}
	if (st && !r.failures) /* the checks passed: say what stopped it (a VCD conversion) */
		fprintf(stderr, "gpusim: demo could not finish: %s\n", gm_status_name(st));
	return st ? 1 : 0;
}

/* ------------------------------------------------------------------ bench */

struct bench_case {
	const char *name;
	enum gm_backend_kind backend;
	int wave; /* 0 off, 1 window, 2 full */
	bool mmu;
};

/* Run one case in a child (SystemC elaborates once per process). */
static int bench_one(const struct bench_case *c, unsigned rounds, struct scen_demo_result *r)
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
		if (c->wave) {
			snprintf(path, sizeof(path), "build/bench-%d.fst", (int)getpid());
			o.wave = path;
			if (c->wave == 1) {
				o.wave_from = 10000;
				o.wave_to = 11000;
			}
		}
		int st = scen_demo_run(&o, r);
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
 * TLB hit rate and translation latency for @accesses one-dword writes by a
 * queue in VMID 1 over 2048 mapped 4 KiB pages: in address order (64 bytes
 * apart) or at random (seeded).  Counts include the queue's own ring, IB
 * and fence accesses, which are translated too.
 */
static int bench_mmu(bool random, unsigned accesses)
{
	static uint32_t ib[3072];
	const uint64_t va0 = 0x0000200000000000ull, pages = 2048;
	struct gm_config cfg;
	struct fw_dev_cfg dc;
	struct fw_dev d;
	struct fw_vm vm;
	struct gm *g;
	uint64_t ib_addr, f, s = 0x9e3779b97f4a7c15ull, n = 0;
	uint32_t h, m, w, wc, wmax;
	int st;

	gm_config_default(&cfg);
	if (gm_create(&cfg, &g))
		return 1;
	fw_dev_cfg_default(&dc);
	st = fw_dev_init(&d, g, &dc);
	if (!st)
		st = fw_vm_init(&vm, &d, 1);
	if (!st)
		st = fw_vm_map(&vm, va0, pages << 12, GPU_VRAM_BASE + (16ull << 20), MMU_MAP_R | MMU_MAP_W);
	if (!st)
		st = fw_queue_set_vm(&d, FW_QUEUE_RENDER, &vm);
	if (!st)
		st = fw_alloc_sys(&d, sizeof(ib), 256, &ib_addr);
	while (!st && n < accesses) {
		struct dma_buf b;
		uint32_t one = 1;

		dma_buf_init(&b, ib, 3072);
		for (; n < accesses && dma_buf_room(&b) >= 4; n++) {
			uint64_t off;

			if (random) {
				s ^= s << 13, s ^= s >> 7, s ^= s << 17;
				off = (s % (pages << 12)) & ~3ull;
			} else {
				off = (n * 64) % (pages << 12);
			}
			dma_emit_write_data(&b, va0 + off, &one, 1);
		}
		gm_backdoor_write(g, ib_addr, ib, b.len * 4);
		st = fw_submit_ib(&d, FW_QUEUE_RENDER, ib_addr, (uint32_t)b.len, &f);
		if (!st)
			st = fw_fence_wait(&d, FW_QUEUE_RENDER, f, 50000000);
	}
	gm_reg_read(g, GPU_REG_MMU_HITS, &h);
	gm_reg_read(g, GPU_REG_MMU_MISSES, &m);
	gm_reg_read(g, GPU_REG_MMU_WALKS, &w);
	gm_reg_read(g, GPU_REG_MMU_WALK_CYCLES, &wc);
	gm_reg_read(g, GPU_REG_MMU_WALK_MAX, &wmax);
	gm_destroy(g);
	if (st) {
		printf("  mmu %s: failed (%s)\n", random ? "random" : "sequential", gm_status_name(st));
		return 1;
	}
	/* A hit costs the one register stage; a miss that stage plus its walk. */
	printf("  mmu %-10s %6u accesses: TLB hit rate %5.1f%% (%u hits, %u misses, %u walks); "
	       "translation latency average %.2f, maximum %u cycles (walker busy %.1f cycles per walk)\n",
	       random ? "random" : "sequential", accesses, 100.0 * h / (h + m), h, m, w,
	       (double)(h + m + wc) / (h + m), wmax + 1, w ? (double)wc / w : 0.0);
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
	uint64_t ib_addr, f;
	uint32_t busy, bytes;
	int st;

	gm_config_default(&cfg);
	cfg.backend = be;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (gm_create(&cfg, &g))
		return 1;
	fw_dev_cfg_default(&dc);
	st = fw_dev_init(&d, g, &dc);
	if (!st)
		st = fw_alloc_sys(&d, sizeof(ib), 256, &ib_addr);
	dma_buf_init(&b, ib, 64);
	if (!st)
		st = copy ? dma_emit_copy(&b, dst->base, src->base, w) : dma_emit_blt(&b, dst, src, w, h);
	if (!st)
		st = gm_backdoor_write(g, ib_addr, ib, b.len * 4);
	if (!st)
		st = fw_submit_ib(&d, FW_QUEUE_RENDER, ib_addr, (uint32_t)b.len, &f);
	if (!st)
		st = fw_fence_wait(&d, FW_QUEUE_RENDER, f, 100000000);
	if (!st)
		st = gm_reg_read(g, GPU_REG_CE_BUSY_CYCLES, &busy);
	if (!st)
		st = gm_reg_read(g, GPU_REG_CE_BYTES, &bytes);
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

static int cmd_bench(int argc, char **argv)
{
	static const struct bench_case cases[] = {
		{ "verilator, waves off", GM_BACKEND_VERILATOR, 0, true },
		{ "verilator, 1000-cycle FST window", GM_BACKEND_VERILATOR, 1, true },
		{ "verilator, full FST", GM_BACKEND_VERILATOR, 2, true },
		{ "systemc, waves off", GM_BACKEND_SYSTEMC, 0, true },
		{ "systemc, 1000-cycle FST window", GM_BACKEND_SYSTEMC, 1, true },
		{ "systemc, full FST", GM_BACKEND_SYSTEMC, 2, true },
		{ "verilator, waves off, no VMID", GM_BACKEND_VERILATOR, 0, false },
		{ "ref (C reference model)", GM_BACKEND_REF, 0, true },
	};
	double rate[8] = { 0 };
	uint64_t cyc[8] = { 0 };
	unsigned rounds = 1000;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			fputs(usage, stdout);
			return 0;
		}
		if (strcmp(a, "--rounds"))
			return bad_usage(a[0] == '-' ? "unknown option" : "bench takes no NAME", a);
		if (++i == argc)
			return bad_usage("missing value for", a);
		if (!parse_rounds(argv[i], &rounds))
			return bad_usage("bad --rounds", argv[i]);
	}
	printf("bench: demo workload, %u render/copy rounds per case\n", rounds);
	for (unsigned i = 0; i < 8; i++) {
		struct scen_demo_result r;

		if (bench_one(&cases[i], rounds, &r)) {
			printf("  %-36s failed\n", cases[i].name);
			return 1;
		}
		rate[i] = r.seconds > 0 ? (double)r.cycles / r.seconds : 0;
		cyc[i] = r.cycles;
		printf("  %-36s %10" PRIu64 " cycles %8.3f s %10.0f cycles/s\n", cases[i].name,
		       r.cycles, r.seconds, rate[i]);
	}
	printf("ratios: systemc/verilator %.3f; verilator full FST/off %.3f, window/off %.3f;"
	       " systemc full FST/off %.3f; translated/physical render queue %.3f\n",
	       rate[3] / rate[0], rate[2] / rate[0], rate[1] / rate[0], rate[5] / rate[3],
	       rate[0] / rate[6]);
	printf("ref: %.1fx the verilator backend's cycles/s; its cycle count %+.2f%% of the RTL's\n",
	       rate[0] > 0 ? rate[7] / rate[0] : 0.0,
	       cyc[0] ? 100.0 * ((double)cyc[7] - (double)cyc[0]) / (double)cyc[0] : 0.0);
	return bench_mmu(false, 20000) || bench_mmu(true, 20000) || bench_copy_engine() ||
	       bench_pipeline() || bench_umd();
}

/* ------------------------------------------------------------------ disasm */

#define DISASM_MAX_BYTES (64u << 20) /* the largest file disasm reads */

#define disasm_refuse(path, ...) cli_refuse("disasm", path, __VA_ARGS__)

/*
 * Read the whole of @path: at most DISASM_MAX_BYTES (a stream such as
 * /dev/zero is read one byte past the limit and no further) and a whole
 * number of dwords.  0 with *dw (free it) and *n dwords; else the exit code,
 * the reason on stderr and nothing allocated.
 */
static int read_dwords(const char *path, uint32_t **dw, size_t *n)
{
	uint8_t *buf;
	size_t bytes;
	int rc = cli_read_file("disasm", path, DISASM_MAX_BYTES, &buf, &bytes);

	if (rc)
		return rc;
	if (bytes % 4) {
		free(buf);
		return disasm_refuse(path, "%zu bytes, not a whole number of dwords (%zu trailing byte%s)",
				     bytes, bytes % 4, bytes % 4 == 1 ? "" : "s");
	}
	*dw = (uint32_t *)(void *)buf;
	*n = bytes / 4;
	return 0;
}

static int cmd_disasm(int argc, char **argv)
{
	uint32_t *dw = NULL;
	size_t n = 0;
	int rc;

	if (argc != 2)
		return bad_usage("disasm takes one FILE", NULL);
	rc = read_dwords(argv[1], &dw, &n);
	if (rc)
		return rc;
	rc = dma_disasm(stdout, dw, n, 0, NULL, NULL) ? 1 : 0;
	free(dw);
	return rc;
}

static int cmd_idle(int argc, char **argv)
{
	enum gm_backend_kind be = GM_BACKEND_VERILATOR;
	unsigned long long n = 100000;
	char *end;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (i + 1 == argc)
			return bad_usage("missing value for", a);
		if (!strcmp(a, "--backend")) {
			if (!parse_backend(argv[++i], &be))
				return bad_usage("bad --backend", argv[i]);
		} else if (!strcmp(a, "--cycles")) {
			n = strtoull(argv[++i], &end, 10);
			if (*end || !n || n > 1000000000ull)
				return bad_usage("bad --cycles", argv[i]);
		} else {
			return bad_usage("unknown option", a);
		}
	}
	return bench_idle(be, n);
}

int main(int argc, char **argv)
{
	if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		fputs(usage, argc < 2 ? stderr : stdout);
		return argc < 2 ? 2 : 0;
	}
	if (!strcmp(argv[1], "demo"))
		return cmd_demo(argc - 1, argv + 1);
	if (!strcmp(argv[1], "bench"))
		return cmd_bench(argc - 1, argv + 1);
	if (!strcmp(argv[1], "run"))
		return cmd_run(argc - 1, argv + 1);
	if (!strcmp(argv[1], "disasm"))
		return cmd_disasm(argc - 1, argv + 1);
	if (!strcmp(argv[1], "replay"))
		return cmd_replay(argc - 1, argv + 1);
	if (!strcmp(argv[1], "idle"))
		return cmd_idle(argc - 1, argv + 1);
	return bad_usage("unknown command", argv[1]);
}
