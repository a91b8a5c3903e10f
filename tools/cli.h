/* SPDX-License-Identifier: MIT */
/*
 * cli.h - what the gpusim commands share: usage errors, option values
 * (numbers, backends, the wave file) and input files read whole, bounded,
 * each refused with the usage exit status and one line on stderr.
 */
#ifndef CLI_H
#define CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "gm.h"

/* `gpusim --help` (tools/gpusim.c). */
extern const char gpusim_usage[];

/* The command line's release (the hardware's register and packet interface
 * has its own, GPU_VERSION in hw/gpu_hw.h). */
#define GPUSIM_VERSION "0.1"

/* Print `gpusim --version`: the release, the interfaces it speaks and the
 * backends of this build (the speed build has neither SystemC nor waves). */
void cli_version(FILE *f);

/* The options of gpusim's commands; a command takes a set of them
 * (struct cli_cmd.opts, CLI_O bits). */
enum cli_opt {
	CLI_OPT_BACKEND, CLI_OPT_WAVE, CLI_OPT_WAVE_FROM, CLI_OPT_WAVE_TO, CLI_OPT_CAPTURE,
	CLI_OPT_ROUNDS, CLI_OPT_CYCLES, CLI_OPT_SEED, CLI_OPT_INJECT, CLI_OPT_NO_MMU,
	CLI_OPT_QUIET, CLI_OPT_LIST, CLI_OPT_DISASM, CLI_OPT_HELP,
	CLI_OPT_PLUSARGS, /* words +verilator+...: handed to the Verilator model */
	CLI_OPT_COUNT
};
#define CLI_O(name) (1u << CLI_OPT_##name)

#define CLI_WORDS_MAX 2     /* words beside the options a command may take */
#define CLI_PLUSARGS_MAX 16 /* +verilator+ plusargs on one command line */

/* A command: its name, what it takes and its help (`gpusim help NAME`). */
struct cli_cmd {
	const char *name;
	int (*run)(const struct cli_cmd *c, int argc, char **argv);
	unsigned opts;        /* CLI_O bits */
	int max_words;        /* words beside the options, 0..CLI_WORDS_MAX */
	const char *too_many; /* the usage error for one more, e.g. "run takes one NAME" */
	const char *help;     /* starts "usage: gpusim NAME ..." */
};

/* What cli_parse read.  Set the defaults (cli_args_default) first. */
struct cli_args {
	enum gm_backend_kind backend;
	bool backend_set;
	const char *wave, *capture;
	uint64_t wave_from, wave_to; /* wave_to GM_WAVE_END: to the end */
	unsigned rounds;
	uint64_t cycles, inject_at;  /* inject_at 0: none */
	uint32_t seed;
	bool no_mmu, quiet, list, disasm;
	unsigned given;              /* CLI_O bits of the options given */
	const char *words[CLI_WORDS_MAX]; /* the other words, in order */
	int nwords;
	const char *plus[CLI_PLUSARGS_MAX]; /* +verilator+ plusargs, in order */
	unsigned nplus;
	const char *first_other;     /* the first word that is not --help or --list */
};

/* Defaults: verilator, no wave (window all), no capture, 1 round, 100000
 * cycles, the image seed: 1, nothing injected, the MMU on, not quiet. */
void cli_args_default(struct cli_args *a);

#define CLI_HELP_DONE (-1) /* cli_parse: the help was printed, exit 0 */

/*
 * Read command @c's options from argv[1..argc-1] (argv[0] is the command)
 * with getopt_long: --opt=VALUE or --opt VALUE, unambiguous abbreviations,
 * "--" before words that begin with "-".  Each value is checked as it is
 * read (an empty one is refused), and the words beside the options are at
 * most c->max_words; +verilator+ plusargs (CLI_OPT_PLUSARGS) are checked
 * and appended to GPUSIM_VERILATOR_ARGS for the model to take.
 * 0; CLI_HELP_DONE after printing @c's help for --help standing alone;
 * else 2 with the reason on stderr (an unknown option lists @c's) and
 * nothing handed over.
 */
int cli_parse(const struct cli_cmd *c, int argc, char **argv, struct cli_args *a);

/* The checks of a run's outputs before it starts: --wave-from or
 * --wave-to without --wave, an empty window, a --wave or --capture FILE
 * that is a folder (unless @folder: `run all` takes folders), then
 * cli_check_wave.  0, or cli_usage's status.  (A FILE in a folder that
 * does not exist fails when the run opens it: GM_ERR_IO, exit 1.) */
int cli_check_outputs(const char *cmd, const struct cli_args *a, enum gm_backend_kind be,
		     bool folder);

/* "unknown WHAT: ARG" and the valid names (NULL-terminated @names) on
 * stderr; returns 2. */
int cli_unknown(const char *what, const char *arg, const char *const *names);

/*
 * Progress on stderr for a run that takes longer than CLI_PROGRESS_AFTER_S:
 * cycles, cycles/s, where it is (@unit @done of @total and the percent;
 * @total 0: not known) and the seconds so far, rewritten in place (\r, erase
 * to the end of the line) at most every CLI_PROGRESS_EVERY_S, and wiped at
 * the end (cli_progress_end, or @done reaching @total).  Only when stderr is
 * a terminal and the run is not @quiet; for a run @logging its story to
 * stdout as it goes, not when stdout is a terminal too (the log, each line
 * stamped with its cycle, is the progress there, and the line would cut
 * into it).  It reads what the caller hands it and never touches the model:
 * the run is the same with or without it.
 */
#define CLI_PROGRESS_AFTER_S 2.0
#define CLI_PROGRESS_EVERY_S 0.2
struct cli_progress {
	const char *what, *unit;
	bool on, shown;
	double t0, last; /* monotonic seconds: the start, the last line */
};
void cli_progress_start(struct cli_progress *p, const char *what, const char *unit, bool quiet,
			bool logging);
/* The scenarios' progress hook (struct scen_demo_opts.progress): @ctx a
 * struct cli_progress. */
void cli_progress(void *ctx, uint64_t cycles, uint64_t done, uint64_t total);
/* Wipe the line if one is shown (NULL: nothing). */
void cli_progress_end(struct cli_progress *p);

/* "gpusim: [CMD: ]WHY[: ARG]" and the --help hint on stderr; returns 2,
 * the usage exit status.  @cmd and @arg may be NULL. */
int cli_usage(const char *cmd, const char *why, const char *arg);

/* A whole unsigned number (decimal, 0x hex or 0 octal) without sign. */
bool cli_parse_u64(const char *s, uint64_t *v);

#define CLI_ROUNDS_MAX 1000000u /* demo and bench --rounds */
#define CLI_CYCLES_MAX 1000000000ull /* idle --cycles */

/* A --rounds value, 1..CLI_ROUNDS_MAX. */
bool cli_parse_rounds(const char *s, unsigned *rounds);

/* A backend's registry name (gm_backend_lookup) into *k; false, *k
 * untouched, for anything else. */
bool cli_parse_backend(const char *s, enum gm_backend_kind *k);
/* The registry name of @k ("?" for a value that names no backend). */
const char *cli_backend_word(enum gm_backend_kind k);
/* Whether backend @k has every GM_CAP_* of @caps. */
bool cli_backend_can(enum gm_backend_kind k, unsigned caps);

/* Refuse --wave @wave before the run when it cannot be written: a name
 * not ending in .fst or .vcd (unless @folder: `run all`'s DIR of NAME.fst
 * files), on the ref backend (no signals), in the speed build (no trace
 * support, no SystemC), a .vcd without fst2vcd on PATH.  0, or cli_usage's
 * status. */
int cli_check_wave(const char *cmd, const char *wave, enum gm_backend_kind be, bool folder);

/* "gpusim CMD PATH: <reason>" on stderr; returns 2, the usage exit status. */
int cli_refuse(const char *cmd, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * Read the whole of @path, at most @max bytes (a stream such as /dev/zero is
 * read one byte past the limit and no further).  0 with *buf (free it) and
 * *len; else cli_refuse's status ("cannot open", "cannot read", "larger than
 * N MiB/GiB", "out of memory") and nothing allocated.
 */
int cli_read_file(const char *cmd, const char *path, size_t max, uint8_t **buf, size_t *len);

/* Whether the first @n bytes of a file (@whole: all of it) can still be a
 * good one: 0, or the exit status with the reason said on stderr. */
typedef int (*cli_check_fn)(void *ctx, const uint8_t *b, size_t n, bool whole);

/* cli_read_file, with what has been read checked by @check after each read
 * and once at the end: a file (a stream) is refused at its first bad bytes,
 * with @check's status, not after reading up to @max. */
int cli_read_file_checked(const char *cmd, const char *path, size_t max, cli_check_fn check,
			  void *ctx, uint8_t **buf, size_t *len);

#endif /* CLI_H */
