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
	"       gpusim help [COMMAND]   this text, or a command's (gpusim COMMAND --help)\n"
	"       gpusim --version        the release and what this build has\n"
	"\n"
	"commands:\n"
	"  demo            the bring-up demo: two queues, IBs, fences with interrupts, a\n"
	"                  CP error and its recovery, every result checked\n"
	"  run NAME|all    an end-to-end scenario of the submission pipeline (run --list)\n"
	"  replay FILE     run a capture (--capture) again, every recorded result checked\n"
	"  disasm FILE     decode a raw little-endian dword file as packets\n"
	"  bench           simulation speed and modelled efficiency\n"
	"  idle            clock a model out of reset with nothing to do\n"
	"  backends        the backends --backend takes: name, capabilities, what it is\n"
	"  help [COMMAND]  this text, or COMMAND's options\n"
	"\n"
	"An option takes its value as --opt=VALUE or --opt VALUE (getopt_long; an\n"
	"unambiguous abbreviation will do).  An unknown command, option, scenario or\n"
	"backend is named with the valid ones.  demo, run, replay and idle hand the\n"
	"words +verilator+seed+N and +verilator+rand+reset+0|1|2 to the Verilator\n"
	"model (backends verilator and tlm), as GPUSIM_VERILATOR_ARGS does.\n"
	"\n"
	"Progress: a run longer than 2 s shows cycles, cycles/s, where it is (round,\n"
	"record bytes, cycles or checks) and the seconds so far on stderr, rewritten\n"
	"in place, when stderr is a terminal and the run is not --quiet (run: nor\n"
	"when its log, each line stamped with its cycle, goes to the terminal).\n"
	"\n"
	"Waves: a .vcd waveform needs fst2vcd (package gtkwave) on PATH.  Next to\n"
	"each waveform FILE.fst gpusim writes its view, FILE.gtkw (the blocks the\n"
	"run used, fitted to it, named markers at fences, errors and faults): open\n"
	"it with gtkwave FILE.gtkw.  Time: 1 ns a cycle.  A failed run or demo\n"
	"without --wave runs again to write the waves of its last 20000 cycles,\n"
	"gpusim-fail-NAME.fst and its view, and names them.\n"
	"\n"
	"The RTL's assertions are checked on verilator and systemc (a failure is a\n"
	"model error, exit 1); GPUSIM_ASSERT=0 in the environment turns them off,\n"
	"about 15 % faster, for long runs of a design the regression passes.\n"
	"\n"
	"exit status: 0 success; 1 a check failed, a run could not complete, a\n"
	"packet did not decode or a replay differs; 2 a usage error: an unknown\n"
	"command, option, scenario or backend, a bad or empty value, a word beside\n"
	"--help or run --list, a FILE disasm or replay refuses, a --wave FILE not\n"
	"named .fst or .vcd, or a .vcd without fst2vcd; 77 a replay needs what the\n"
	"backend lacks\n";

#define OPT_BACKEND "  --backend B       verilator (default), systemc, ref (the C reference\n" \
	"                    model: no RTL, no waves) or tlm (the RTL as a TLM-2.0\n" \
	"                    module in a SystemC platform): gpusim backends\n"
#define OPT_WAVE "  --wave FILE       write a waveform (.fst, or .vcd converted by fst2vcd)\n" \
	"  --wave-from N     first cycle recorded (default 0)\n" \
	"  --wave-to M       record cycles before M only (default: to the end)\n"
#define OPT_PLUS "  +verilator+seed+N, +verilator+rand+reset+0|1|2   Verilator's power-up\n" \
	"                    values (a model verilated with --x-initial unique)\n"

static const char help_demo[] =
	"usage: gpusim demo [options] [+verilator+...]\n"
	"Run the bring-up demo: two queues (one waits on a value the other writes;\n"
	"the render queue translated in VMID 1), IBs, fences with interrupts, a CP\n"
	"error and its recovery; print what it did, cycles, per-queue and MMU\n"
	"counters (read without a cycle: the count is the same under --quiet) and\n"
	"fences, and check every result (exit 1 on a failed check).\n\n"
	OPT_BACKEND OPT_WAVE
	"  --rounds N        render/copy exchanges (1..1000000, default 1)\n"
	"  --no-mmu          run the render queue physical (VMID 0) instead of VMID 1\n"
	"  --capture FILE    record everything sent to the model into FILE (replay it\n"
	"                    with gpusim replay FILE); costs no cycle\n"
	"  --quiet           print only the summary line\n"
	"  --inject-bad-rsp N  error injection: at cycle N (>= 1) the memory answers a\n"
	"                    request nobody made; the RTL's assertion a_arb_rsp_routed\n"
	"                    fails, a model error\n"
	OPT_PLUS
	"  -h, --help        this text\n";

static const char help_run[] =
	"usage: gpusim run NAME|all [options] [+verilator+...]\n"
	"       gpusim run --list\n"
	"Run an end-to-end scenario of the submission pipeline (Render, residency\n"
	"and paging, Patch, SubmitCommand, fences, TDR) with its log and checks\n"
	"(exit 1 on a failed check); all runs each, --list names them.\n\n"
	OPT_BACKEND
	"                    (run all on systemc or tlm: a process a scenario)\n"
	OPT_WAVE
	"                    (all: --wave DIR, DIR/NAME.fst a scenario)\n"
	"  --seed N          image contents (0..4294967295, default 1)\n"
	"  --capture FILE    as for demo (all: a folder, FILE/NAME.gcap each)\n"
	"  --quiet           checks and summary only, no pipeline log\n"
	"  --inject-bad-rsp N  as for demo\n"
	OPT_PLUS
	"  --list            the scenarios, one a line; no other argument\n"
	"  -h, --help        this text\n";

static const char help_disasm[] =
	"usage: gpusim disasm FILE\n"
	"Decode a raw little-endian dword file as packets: at most 64 MiB and a\n"
	"whole number of dwords, else refused with the count of trailing bytes\n"
	"(exit 2); exit 1 if a packet does not decode.\n";

static const char help_idle[] =
	"usage: gpusim idle [--cycles N] [--backend B] [--wave FILE [--wave-from N]]\n"
	"Clock a model out of reset N cycles (1..1000000000, default 100000) with\n"
	"nothing to do (tools/bench_ipc.sh).\n\n"
	"  --cycles N        cycles to run\n" OPT_BACKEND
	"  --wave FILE, --wave-from N   as for demo\n" OPT_PLUS
	"  -h, --help        this text\n";

static const char help_backends[] =
	"usage: gpusim backends\n"
	"List the backends --backend takes: name, capabilities (waves, systemc,\n"
	"run-all, trace-model, platform) and what each is.\n";

static const char help_help[] =
	"usage: gpusim help [COMMAND]\n"
	"The commands, or COMMAND's usage and options.\n";

static const char help_replay[] =
	"usage: gpusim replay FILE [options] [+verilator+...]\n"
	"       gpusim replay --disasm FILE\n"
	"Run a capture (--capture; traces/FORMAT.md) on a fresh model and check\n"
	"every result it recorded; the first mismatch is printed with its record\n"
	"number (exit 1; 77: the backend lacks a call it needs); a damaged capture\n"
	"is refused with the record and the reason (exit 2).\n\n"
	"  --backend B       the model to run it on (default: the backend it was\n"
	"                    captured on): verilator, systemc or ref\n"
	"  --wave FILE, --wave-from N, --wave-to M   its waves, as for demo\n"
	"  --quiet           print nothing when every check passes\n"
	"  --disasm          list the capture record by record, ring uploads\n"
	"                    decoded as packets (following IBs); no other option\n"
	OPT_PLUS
	"  -h, --help        this text\n";

static const char help_bench[] =
	"usage: gpusim bench [--rounds N]\n"
	"Measure simulation speed of the demo workload (N render/copy rounds per\n"
	"case, 1..1000000, default 1000) on the RTL backends with waves off, a\n"
	"windowed FST and a full FST, and on ref; MMU hit rates, copy-engine and\n"
	"aperture bandwidth (RTL and ref); every scenario's cycles on verilator and\n"
	"ref; the pipeline's patch and build rates and submit->retire cycles.\n\n"
	"  --rounds N        rounds per case\n"
	"  -h, --help        this text\n";

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
 * cycles: its waves and view, and how to open them.  The window runs from
 * @from to the run's end, and past an assertion's failure by the few cycles
 * the model dumps after it (model/gm_wave.c). */
static void say_fail_waves(const char *wave, uint64_t from)
{
	printf("waves of the failure: %s, from cycle %" PRIu64 " to the end\n", wave, from);
	say_view(wave);
}

static int run_one(const char *name, const struct scen_pipe_opts *o)
{
	struct scen_pipe_result r;
	int st = scen_pipe_run(name, o, &r);

	if (o->progress)
		cli_progress_end(o->progress_ctx);
	if (st && st != GM_ERR_HW) {
		fprintf(stderr, "gpusim: scenario %s could not run: %s%s\n", name, gm_status_name(st),
			st == GM_ERR_IO ? " (cannot create the --wave or --capture FILE)" : "");
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
		again.progress = NULL;
		again.out = fopen("/dev/null", "w");
		printf("the run again, for the waves of its last %u cycles\n", FAIL_WAVE_CYCLES);
		(void)scen_pipe_run(name, &again, &r2);
		if (again.out)
			fclose(again.out);
		say_fail_waves(path, again.wave_from);
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

static int cmd_run(const struct cli_cmd *c, int argc, char **argv)
{
	struct scen_pipe_opts o;
	struct cli_progress prog;
	struct cli_args a;
	const char *name;
	int rc = 0;

	cli_args_default(&a);
	rc = cli_parse(c, argc, argv, &a);
	if (rc)
		return rc < 0 ? 0 : rc;
	if (a.list) {
		if (argc != 2)
			return cli_usage(NULL, "run --list takes no other argument", a.first_other);
		for (const char *const *n = scen_pipe_names; *n; n++)
			printf("%-8s %s\n", *n, scen_pipe_describe(*n));
		return 0;
	}
	if (!a.nwords)
		return cli_usage(NULL, "run needs a scenario NAME (gpusim run --list)", NULL);
	name = a.words[0];
	if (strcmp(name, "all") && !scen_pipe_describe(name))
		return cli_unknown("scenario", name, scen_pipe_names);
	if (cli_check_outputs(NULL, &a, a.backend, !strcmp(name, "all")))
		return 2;
	scen_pipe_opts_default(&o);
	o.backend = a.backend;
	o.wave = a.wave;
	o.wave_from = a.wave_from;
	o.wave_to = a.wave_to;
	o.capture = a.capture;
	o.seed = a.seed;
	o.quiet = a.quiet;
	o.inject_at = a.inject_at;
	cli_progress_start(&prog, name, "checks", a.quiet, true);
	o.progress = prog.on ? cli_progress : NULL;
	o.progress_ctx = &prog;
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
		cli_progress_start(&prog, *n, "checks", a.quiet, true);
		rc |= cli_backend_can(o.backend, GM_CAP_MANY) ? run_one(*n, &one) : run_one_apart(*n, &one);
	}
	return rc;
}

static int cmd_demo(const struct cli_cmd *c, int argc, char **argv)
{
	struct scen_demo_opts o;
	struct scen_demo_result r;
	struct cli_progress prog;
	struct cli_args a;
	int st;

	cli_args_default(&a);
	st = cli_parse(c, argc, argv, &a);
	if (!st)
		st = cli_check_outputs(NULL, &a, a.backend, false);
	if (st)
		return st < 0 ? 0 : st;
	scen_demo_opts_default(&o);
	o.backend = a.backend;
	o.wave = a.wave;
	o.wave_from = a.wave_from;
	o.wave_to = a.wave_to;
	o.capture = a.capture;
	o.rounds = a.rounds;
	o.mmu = !a.no_mmu;
	o.verbose = !a.quiet;
	o.inject_at = a.inject_at;
	cli_progress_start(&prog, "demo", "round", a.quiet, false);
	o.progress = prog.on ? cli_progress : NULL;
	o.progress_ctx = &prog;
	if (o.verbose)
		printf("gpusim demo on the %s backend\n\n", cli_backend_word(o.backend));
	st = scen_demo_run(&o, &r);
	cli_progress_end(&prog);
	if (st && !r.checks) {
		fprintf(stderr, "gpusim: demo could not run: %s%s\n", gm_status_name(st),
			st == GM_ERR_IO ? " (cannot create the --wave or --capture FILE)" : "");
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
		o.progress = NULL;
		o.out = fopen("/dev/null", "w");
		printf("the demo again, for the waves of its last %u cycles\n", FAIL_WAVE_CYCLES);
		(void)scen_demo_run(&o, &r2);
		if (o.out)
			fclose(o.out);
		say_fail_waves(path, o.wave_from);
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

static int cmd_disasm(const struct cli_cmd *c, int argc, char **argv)
{
	struct cli_args a;
	uint32_t *dw = NULL;
	size_t n = 0;
	int rc;

	cli_args_default(&a);
	rc = cli_parse(c, argc, argv, &a);
	if (rc)
		return rc < 0 ? 0 : rc;
	if (a.nwords != 1)
		return cli_usage(NULL, "disasm takes one FILE", NULL);
	rc = read_dwords(a.words[0], &dw, &n);
	if (rc)
		return rc;
	rc = dma_disasm(stdout, dw, n, 0, NULL, NULL) ? 1 : 0;
	free(dw);
	return rc;
}

static int cmd_idle(const struct cli_cmd *c, int argc, char **argv)
{
	struct cli_progress prog;
	struct cli_args a;
	int rc;

	cli_args_default(&a);
	rc = cli_parse(c, argc, argv, &a);
	if (!rc && a.wave_from && !a.wave)
		rc = cli_usage(NULL, "--wave-from needs --wave", NULL);
	if (!rc)
		rc = cli_check_wave(NULL, a.wave, a.backend, false);
	if (rc)
		return rc < 0 ? 0 : rc;
	cli_progress_start(&prog, "idle", "cycle", false, false);
	return bench_idle(a.backend, a.cycles, a.wave, a.wave_from, &prog);
}

/* `gpusim backends`: the registry, one backend a line (tools/bench_ipc.sh
 * reads it): name, capabilities (comma-separated, "-" for none), what it is. */
static int cmd_backends(const struct cli_cmd *c, int argc, char **argv)
{
	static const struct {
		unsigned cap;
		const char *word;
	} caps[] = { { GM_CAP_WAVES, "waves" }, { GM_CAP_SYSTEMC, "systemc" },
		     { GM_CAP_MANY, "run-all" }, { GM_CAP_TRACE_MODEL, "trace-model" },
		     { GM_CAP_PLATFORM, "platform" } };
	const struct gm_backend_info *b;
	struct cli_args a;
	size_t n;
	int rc;

	cli_args_default(&a);
	rc = cli_parse(c, argc, argv, &a);
	if (rc)
		return rc < 0 ? 0 : rc;
	b = gm_backend_list(&n);
	for (size_t i = 0; i < n; i++) {
		char words[64] = "-";
		size_t len = 0;

		for (size_t k = 0; k < sizeof(caps) / sizeof(caps[0]); k++)
			if (b[i].caps & caps[k].cap)
				len += (size_t)snprintf(words + len, sizeof(words) - len, "%s%s",
							len ? "," : "", caps[k].word);
		printf("%-10s %-27s %s\n", b[i].name, words, b[i].doc);
	}
	return 0;
}

static int cmd_help(const struct cli_cmd *c, int argc, char **argv);

#define MODEL_OPTS (CLI_O(BACKEND) | CLI_O(WAVE) | CLI_O(WAVE_FROM) | CLI_O(WAVE_TO) | \
		    CLI_O(QUIET) | CLI_O(HELP) | CLI_O(PLUSARGS))

static const struct cli_cmd commands[] = {
	{ "demo", cmd_demo, MODEL_OPTS | CLI_O(CAPTURE) | CLI_O(ROUNDS) | CLI_O(NO_MMU) |
	  CLI_O(INJECT), 0, "demo takes no NAME", help_demo },
	{ "run", cmd_run, MODEL_OPTS | CLI_O(CAPTURE) | CLI_O(SEED) | CLI_O(INJECT) | CLI_O(LIST),
	  1, "run takes one NAME", help_run },
	{ "replay", cmd_replay, MODEL_OPTS | CLI_O(DISASM), 1, "replay takes one FILE", help_replay },
	{ "disasm", cmd_disasm, CLI_O(HELP), 1, "disasm takes one FILE", help_disasm },
	{ "bench", cmd_bench, CLI_O(ROUNDS) | CLI_O(HELP), 0, "bench takes no NAME", help_bench },
	{ "idle", cmd_idle, CLI_O(CYCLES) | CLI_O(BACKEND) | CLI_O(WAVE) | CLI_O(WAVE_FROM) |
	  CLI_O(HELP) | CLI_O(PLUSARGS), 0, "idle takes no NAME", help_idle },
	{ "backends", cmd_backends, CLI_O(HELP), 0, "backends takes no argument", help_backends },
	{ "help", cmd_help, CLI_O(HELP), 1, "help takes one COMMAND", help_help },
};
#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

/* The command named @name, or NULL after "unknown command" and the list. */
static const struct cli_cmd *command(const char *name)
{
	const char *names[NCOMMANDS + 1] = { NULL };

	for (size_t i = 0; i < NCOMMANDS; i++) {
		if (!strcmp(name, commands[i].name))
			return &commands[i];
		names[i] = commands[i].name;
	}
	cli_unknown("command", name, names);
	return NULL;
}

/* `gpusim help [COMMAND]`: the usage, or COMMAND's help, on stdout. */
static int cmd_help(const struct cli_cmd *c, int argc, char **argv)
{
	const struct cli_cmd *of;
	struct cli_args a;
	int rc;

	cli_args_default(&a);
	rc = cli_parse(c, argc, argv, &a);
	if (rc)
		return rc < 0 ? 0 : rc;
	if (!a.nwords) {
		fputs(gpusim_usage, stdout);
		return 0;
	}
	of = command(a.words[0]);
	if (!of)
		return 2;
	fputs(of->help, stdout);
	return 0;
}

int main(int argc, char **argv)
{
	const struct cli_cmd *c;

	if (argc < 2) {
		fputs(gpusim_usage, stderr);
		return 2;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "--version")) {
		bool version = argv[1][2] == 'v';

		if (argc > 2)
			return cli_usage(NULL, version ? "--version takes no other argument" :
					 "--help takes no other argument", argv[2]);
		if (version)
			cli_version(stdout);
		else
			fputs(gpusim_usage, stdout);
		return 0;
	}
	c = command(argv[1]);
	return c ? c->run(c, argc - 1, argv + 1) : 2;
}
