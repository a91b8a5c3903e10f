/* SPDX-License-Identifier: MIT */
/*
 * gpusim - the command line: the bring-up demo, benchmarks, disassembly.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "dma_disasm.h"
#include "bench.h"
#include "cli.h"
#include "scen_demo.h"
#include "scen_pipe.h"
#include "gm.h"
#include "replay.h"

const char gpusim_usage[] =
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
	"                  the RTL backends with waves off, a windowed FST and a full\n"
	"                  FST, and on ref; MMU hit rates, copy-engine and aperture\n"
	"                  bandwidth (RTL and ref); every scenario's cycles on\n"
	"                  verilator and ref; the pipeline's patch and build rates\n"
	"                  and submit->retire cycles\n"
	"  run NAME        run an end-to-end scenario of the submission pipeline\n"
	"                  (Render, residency and paging, Patch, SubmitCommand, fences,\n"
	"                  TDR) with its log and checks (exit 1 on a failed check);\n"
	"                  `run all` runs each, `run --list` names them\n"
	"  idle [--cycles N] [--backend B] [--wave FILE [--wave-from N]]  clock a\n"
	"                  model out of reset N cycles (default 100000) with nothing\n"
	"                  to do (tools/bench_ipc.sh)\n"
	"  replay FILE     run a capture (--capture; traces/FORMAT.md) on a fresh model\n"
	"                  and check every result it recorded; the first mismatch is\n"
	"                  printed with its record number (exit 1; 77: the backend\n"
	"                  lacks a call it needs); a damaged capture is refused\n"
	"                  with the record and the reason (exit 2)\n"
	"  replay --disasm FILE  list a capture record by record, ring uploads\n"
	"                  decoded as packets (following IBs); no other option\n"
	"  disasm FILE     decode a raw little-endian dword file as packets: at most\n"
	"                  64 MiB and a whole number of dwords, else refused with the\n"
	"                  count of trailing bytes (exit 1 if a packet does not decode)\n"
	"  backends        list the backends --backend takes: name, capabilities\n"
	"                  (waves, systemc, run-all, trace-model, platform) and what\n"
	"                  each is\n"
	"\n"
	"demo options:\n"
	"  --backend verilator|systemc|ref|tlm   RTL simulator, ref: the C reference\n"
	"                    model, no RTL and no waveforms, or tlm: the RTL as a\n"
	"                    TLM-2.0 module in a SystemC platform (default verilator)\n"
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
	"  --backend verilator|systemc|ref|tlm   as for demo (run all on systemc or\n"
	"                    tlm: a process a scenario)\n"
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
	"The RTL's assertions are checked on verilator and systemc (a failure is a\n"
	"model error, exit 1); GPUSIM_ASSERT=0 in the environment turns them off,\n"
	"about 15 % faster, for long runs of a design the regression passes.\n"
	"\n"
	"exit status: 0 success; 1 a check failed, a run could not complete, a\n"
	"packet did not decode or a replay differs; 2 a usage error: an unknown\n"
	"command or option, a bad value, a word beside --help or run --list, a\n"
	"FILE disasm or replay refuses, a --wave FILE not named .fst or .vcd, or a\n"
	".vcd without fst2vcd; 77 a replay needs what the backend lacks\n";

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
			int rc = cli_help(argc, argv, i);

			return rc ? rc : -1;
		}
		if (!val)
			return cli_usage(NULL, "missing value for", a);
		i++;
		if (!strcmp(a, "--backend")) {
			if (!cli_parse_backend(val, &o->backend))
				return cli_usage(NULL, "unknown backend", val);
		} else if (!strcmp(a, "--wave")) {
			o->wave = val;
		} else if (!strcmp(a, "--capture")) {
			o->capture = val;
		} else if (!strcmp(a, "--wave-from")) {
			if (!cli_parse_u64(val, &o->wave_from))
				return cli_usage(NULL, "bad --wave-from", val);
		} else if (!strcmp(a, "--wave-to")) {
			if (!cli_parse_u64(val, &o->wave_to))
				return cli_usage(NULL, "bad --wave-to", val);
		} else if (!strcmp(a, "--rounds")) {
			if (!cli_parse_rounds(val, &o->rounds))
				return cli_usage(NULL, "bad --rounds", val);
		} else if (!strcmp(a, "--inject-bad-rsp")) {
			if (!cli_parse_u64(val, &o->inject_at) || !o->inject_at)
				return cli_usage(NULL, "bad --inject-bad-rsp", val);
		} else {
			return cli_usage(NULL, "unknown option", a);
		}
	}
	if ((o->wave_from || o->wave_to != GM_WAVE_END) && !o->wave)
		return cli_usage(NULL, "--wave-from/--wave-to need --wave", NULL);
	if (o->wave_from >= o->wave_to)
		return cli_usage(NULL, "empty wave window", NULL);
	return cli_check_wave(NULL, o->wave, o->backend, false);
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
	if (st && !o->wave && cli_backend_can(o->backend, GM_CAP_WAVES)) { /* waves on failure */
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

/* run_one in a child process, for a backend with one model a process
 * (without GM_CAP_MANY: the SystemC kernel elaborates once): its exit
 * status, 1 if the child could not be made or did not exit. */
static int run_one_apart(const char *name, const struct scen_pipe_opts *o)
{
	pid_t pid;
	int status = 0, rc;

	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0) {
		perror("gpusim: fork");
		return 1;
	}
	if (pid == 0) {
		rc = run_one(name, o);
		fflush(stdout);
		_exit(rc);
	}
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status)) {
		fprintf(stderr, "gpusim: scenario %s: its process did not finish\n", name);
		return 1;
	}
	return WEXITSTATUS(status);
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
			if (argc != 2)
				return cli_usage(NULL, "run --list takes no other argument",
						 argv[i == 1 ? 2 : 1]);
			for (const char *const *n = scen_pipe_names; *n; n++)
				printf("%-8s %s\n", *n, scen_pipe_describe(*n));
			return 0;
		} else if (!strcmp(a, "--quiet")) {
			o.quiet = true;
		} else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			return cli_help(argc, argv, i);
		} else if (!strcmp(a, "--wave-from") || !strcmp(a, "--wave-to")) {
			const char *val = i + 1 < argc ? argv[++i] : NULL;

			if (!val || !cli_parse_u64(val, a[7] == 'f' ? &o.wave_from : &o.wave_to))
				return cli_usage(NULL, a[7] == 'f' ? "bad --wave-from" : "bad --wave-to", val);
		} else if (!strcmp(a, "--capture")) {
			if (++i == argc)
				return cli_usage(NULL, "missing value for", a);
			o.capture = argv[i];
		} else if (!strcmp(a, "--backend") || !strcmp(a, "--wave") || !strcmp(a, "--seed") ||
			   !strcmp(a, "--inject-bad-rsp")) {
			const char *val = i + 1 < argc ? argv[++i] : NULL;

			if (!val)
				return cli_usage(NULL, "missing value for", a);
			if (a[2] == 'b' && !cli_parse_backend(val, &o.backend))
				return cli_usage(NULL, "unknown backend", val);
			if (a[2] == 'w')
				o.wave = val;
			if (a[2] == 's') {
				if (!cli_parse_u64(val, &v) || v > UINT32_MAX)
					return cli_usage(NULL, "bad --seed", val);
				o.seed = (uint32_t)v;
			}
			if (a[2] == 'i' && (!cli_parse_u64(val, &o.inject_at) || !o.inject_at))
				return cli_usage(NULL, "bad --inject-bad-rsp", val);
		} else if (a[0] == '-' || name) {
			return cli_usage(NULL, a[0] == '-' ? "unknown option" : "run takes one NAME", a);
		} else {
			name = a;
		}
	}
	if (!name)
		return cli_usage(NULL, "run needs a scenario NAME (gpusim run --list)", NULL);
	if (strcmp(name, "all") && !scen_pipe_describe(name))
		return cli_usage(NULL, "unknown scenario", name);
	if ((o.wave_from || o.wave_to != GM_WAVE_END) && !o.wave)
		return cli_usage(NULL, "--wave-from/--wave-to need --wave", NULL);
	if (o.wave_from >= o.wave_to)
		return cli_usage(NULL, "empty wave window", NULL);
	if (cli_check_wave(NULL, o.wave, o.backend, !strcmp(name, "all")))
		return 2;
	if (strcmp(name, "all"))
		return run_one(name, &o);
	/* all: --wave and --capture name folders, DIR/NAME.fst, DIR/NAME.gcap a scenario */
	if (o.wave && mkdir(o.wave, 0777) && errno != EEXIST)
		return cli_usage(NULL, "--wave DIR: cannot make the folder", o.wave);
	if (o.capture && mkdir(o.capture, 0777) && errno != EEXIST)
		return cli_usage(NULL, "--capture DIR: cannot make the folder", o.capture);
	for (const char *const *n = scen_pipe_names; *n; n++) {
		struct scen_pipe_opts one = o;
		char path[4096], cpath[4096];

		if (o.wave && snprintf(path, sizeof(path), "%s/%s.fst", o.wave, *n) >= (int)sizeof(path))
			return cli_usage(NULL, "--wave DIR: too long", o.wave);
		if (o.capture && snprintf(cpath, sizeof(cpath), "%s/%s.gcap", o.capture, *n) >=
		    (int)sizeof(cpath))
			return cli_usage(NULL, "--capture DIR: too long", o.capture);
		one.wave = o.wave ? path : NULL;
		one.capture = o.capture ? cpath : NULL;
		rc |= cli_backend_can(o.backend, GM_CAP_MANY) ? run_one(*n, &one) : run_one_apart(*n, &one);
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
		printf("gpusim demo on the %s backend\n\n", cli_backend_word(o.backend));
	st = scen_demo_run(&o, &r);
	if (st && !r.checks) {
		fprintf(stderr, "gpusim: demo could not run: %s\n", gm_status_name(st));
		return 1;
	}
	printf("\ndemo: %" PRIu64 " cycles, %u checks, %u failed%s%s\n", r.cycles, r.checks,
	       r.failures, o.wave ? ", waveform " : "", o.wave ? o.wave : "");
	say_view(o.wave);
	if (st && r.checks && !o.wave && cli_backend_can(o.backend, GM_CAP_WAVES)) { /* waves on failure */
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
		return cli_usage(NULL, "disasm takes one FILE", NULL);
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
	const char *wave = NULL;
	uint64_t wave_from = 0;
	char *end;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (i + 1 == argc)
			return cli_usage(NULL, "missing value for", a);
		if (!strcmp(a, "--backend")) {
			if (!cli_parse_backend(argv[++i], &be))
				return cli_usage(NULL, "bad --backend", argv[i]);
		} else if (!strcmp(a, "--cycles")) {
			n = strtoull(argv[++i], &end, 10);
			if (*end || !n || n > 1000000000ull)
				return cli_usage(NULL, "bad --cycles", argv[i]);
		} else if (!strcmp(a, "--wave")) {
			wave = argv[++i];
		} else if (!strcmp(a, "--wave-from")) {
			if (!cli_parse_u64(argv[++i], &wave_from))
				return cli_usage(NULL, "bad --wave-from", argv[i]);
		} else {
			return cli_usage(NULL, "unknown option", a);
		}
	}
	if (wave_from && !wave)
		return cli_usage(NULL, "--wave-from needs --wave", NULL);
	if (cli_check_wave(NULL, wave, be, false))
		return 2;
	return bench_idle(be, n, wave, wave_from);
}

/* `gpusim backends`: the registry, one backend a line (tools/bench_ipc.sh
 * reads it): name, capabilities (comma-separated, "-" for none), what it is. */
static int cmd_backends(int argc, char **argv)
{
	static const struct {
		unsigned cap;
		const char *word;
	} caps[] = { { GM_CAP_WAVES, "waves" }, { GM_CAP_SYSTEMC, "systemc" },
		     { GM_CAP_MANY, "run-all" }, { GM_CAP_TRACE_MODEL, "trace-model" },
		     { GM_CAP_PLATFORM, "platform" } };
	const struct gm_backend_info *b;
	size_t n;

	if (argc > 1)
		return cli_usage(NULL, "backends takes no argument", argv[1]);
	b = gm_backend_list(&n);
	for (size_t i = 0; i < n; i++) {
		char words[64] = "-";
		size_t len = 0;

		for (size_t c = 0; c < sizeof(caps) / sizeof(caps[0]); c++)
			if (b[i].caps & caps[c].cap)
				len += (size_t)snprintf(words + len, sizeof(words) - len, "%s%s",
							len ? "," : "", caps[c].word);
		printf("%-10s %-27s %s\n", b[i].name, words, b[i].doc);
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fputs(gpusim_usage, stderr);
		return 2;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))
		return cli_help(argc, argv, 1);
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
	if (!strcmp(argv[1], "backends"))
		return cmd_backends(argc - 1, argv + 1);
	return cli_usage(NULL, "unknown command", argv[1]);
}
