/* SPDX-License-Identifier: MIT */
/*
 * cli.c - what the gpusim commands share (see cli.h): the option parser
 * (getopt_long), usage errors, option values, progress on long runs, and
 * input files (disasm, replay) read whole and bounded; every refusal names
 * the command, the file or option and why.
 */
#define _GNU_SOURCE /* getopt_long */

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "gm_capture.h"
#include "gpu_hw.h"

int cli_usage(const char *cmd, const char *why, const char *arg)
{
	fprintf(stderr, "gpusim: %s%s%s%s%s\n(gpusim --help for usage)\n", cmd ? cmd : "",
		cmd ? ": " : "", why, arg ? ": " : "", arg ? arg : "");
	return 2;
}

bool cli_parse_u64(const char *s, uint64_t *v)
{
	char *end;

	if (!s || !*s || *s == '-')
		return false;
	errno = 0;
	*v = strtoull(s, &end, 0);
	return errno == 0 && *end == '\0';
}

bool cli_parse_backend(const char *s, enum gm_backend_kind *k)
{
	const struct gm_backend_info *b = gm_backend_lookup(s);

	if (!b)
		return false;
	*k = b->kind;
	return true;
}

const char *cli_backend_word(enum gm_backend_kind k)
{
	const struct gm_backend_info *b = gm_backend_info(k);

	return b ? b->name : "?";
}

bool cli_backend_can(enum gm_backend_kind k, unsigned caps)
{
	const struct gm_backend_info *b = gm_backend_info(k);

	return b && (b->caps & caps) == caps;
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

/* True when @s ends in @suffix after at least one other character. */
static bool named_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n > k && !strcmp(s + n - k, suffix);
}

int cli_check_wave(const char *cmd, const char *wave, enum gm_backend_kind be, bool folder)
{
	char why[96];

	if (wave && !folder && !named_with(wave, ".fst") && !named_with(wave, ".vcd"))
		return cli_usage(cmd, "--wave FILE must end in .fst or .vcd", wave);
	if (wave && !cli_backend_can(be, GM_CAP_WAVES)) {
		snprintf(why, sizeof(why), "--wave needs an RTL backend (%s has no signals to dump)",
			 cli_backend_word(be));
		return cli_usage(cmd, why, wave);
	}
#ifdef GPUSIM_FAST_BUILD
	/* make fast: the model has no trace support and there is no SystemC */
	if (wave)
		return cli_usage(cmd, "this is the speed build (make fast), without waves: run "
				 "build/bin/gpusim for --wave", wave);
	if (cli_backend_can(be, GM_CAP_SYSTEMC)) {
		snprintf(why, sizeof(why), "--backend %s", cli_backend_word(be));
		return cli_usage(cmd, "this is the speed build (make fast), without SystemC: run "
				 "build/bin/gpusim for", why);
	}
#endif
	if (wave && !folder && named_with(wave, ".vcd") && !on_path("fst2vcd"))
		return cli_usage(cmd, "--wave FILE.vcd needs fst2vcd (package gtkwave) on PATH", wave);
	return 0;
}

int cli_refuse(const char *cmd, const char *path, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "gpusim: %s %s: ", cmd, path);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return 2;
}

static int refuse_size(const char *cmd, const char *path, size_t max)
{
	if (max >= (1u << 30) && max % (1u << 30) == 0)
		return cli_refuse(cmd, path, "larger than %zu GiB (the limit of %s input)", max >> 30, cmd);
	return cli_refuse(cmd, path, "larger than %zu MiB (the limit of %s input)", max >> 20, cmd);
}

int cli_read_file(const char *cmd, const char *path, size_t max, uint8_t **buf, size_t *len)
{
	return cli_read_file_checked(cmd, path, max, NULL, NULL, buf, len);
}

int cli_read_file_checked(const char *cmd, const char *path, size_t max, cli_check_fn check,
			  void *ctx, uint8_t **buf, size_t *len)
{
	size_t n = 0, cap = 0, got;
	uint8_t *b = NULL, *nb;
	FILE *f = fopen(path, "rb");
	int rc = 0, err;

	if (!f)
		return cli_refuse(cmd, path, "cannot open: %s", strerror(errno));
	do {
		if (n == cap) {
			cap = cap ? 2 * cap : 65536;
			if (cap > max + 1)
				cap = max + 1;
			nb = realloc(b, cap);
			if (!nb) {
				rc = cli_refuse(cmd, path, "out of memory");
				goto err_free;
			}
			b = nb;
		}
		got = fread(b + n, 1, cap - n, f);
		n += got;
		/* what has come so far: the reads double, so checking it all again costs
		 * twice the file at most */
		if (got && n <= max && check && (rc = check(ctx, b, n, false)))
			goto err_free;
	} while (got && n <= max);
	err = ferror(f) ? errno : 0;
	if (err)
		rc = cli_refuse(cmd, path, "cannot read: %s", strerror(err));
	else if (n > max)
		rc = refuse_size(cmd, path, max);
	else if (check)
		rc = check(ctx, b, n, true);
	if (rc)
		goto err_free;
	fclose(f);
	*buf = b;
	*len = n;
	return 0;

err_free:
	free(b);
	fclose(f);
	return rc;
}

bool cli_parse_rounds(const char *s, unsigned *rounds)
{
	uint64_t v;

	if (!cli_parse_u64(s, &v) || v == 0 || v > CLI_ROUNDS_MAX)
		return false;
	*rounds = (unsigned)v;
	return true;
}

void cli_version(FILE *f)
{
	size_t n, len = 0;
	const struct gm_backend_info *b = gm_backend_list(&n);
	char names[128] = "";

	for (size_t i = 0; i < n; i++) {
#ifdef GPUSIM_FAST_BUILD
		if (b[i].caps & GM_CAP_SYSTEMC) /* the speed build has no SystemC */
			continue;
#endif
		len += (size_t)snprintf(names + len, sizeof(names) - len, "%s%s", len ? " " : "",
					b[i].name);
	}
	fprintf(f, "gpusim %s (register and packet interface version %u, capture format %u)\n"
		"backends: %s\nwaves: %s\n", GPUSIM_VERSION, (unsigned)GPU_VERSION,
		(unsigned)GM_CAP_VERSION, names,
#ifdef GPUSIM_FAST_BUILD
		"no (the speed build, make fast)"
#else
		"FST, and VCD through fst2vcd"
#endif
		);
}

/* The options every command may take: name, its value's word (NULL: none). */
static const struct {
	const char *name, *value;
} opt_table[CLI_OPT_COUNT] = {
	[CLI_OPT_BACKEND] = { "backend", "B" },     [CLI_OPT_WAVE] = { "wave", "FILE" },
	[CLI_OPT_WAVE_FROM] = { "wave-from", "N" }, [CLI_OPT_WAVE_TO] = { "wave-to", "M" },
	[CLI_OPT_CAPTURE] = { "capture", "FILE" },  [CLI_OPT_ROUNDS] = { "rounds", "N" },
	[CLI_OPT_CYCLES] = { "cycles", "N" },       [CLI_OPT_SEED] = { "seed", "N" },
	[CLI_OPT_INJECT] = { "inject-bad-rsp", "N" }, [CLI_OPT_NO_MMU] = { "no-mmu", NULL },
	[CLI_OPT_QUIET] = { "quiet", NULL },        [CLI_OPT_LIST] = { "list", NULL },
	[CLI_OPT_DISASM] = { "disasm", NULL },      [CLI_OPT_HELP] = { "help", NULL },
	[CLI_OPT_PLUSARGS] = { "+verilator+...", NULL },
};

#define OPT_VAL_BASE 256 /* getopt_long's value of option i: OPT_VAL_BASE + i */

void cli_args_default(struct cli_args *a)
{
	memset(a, 0, sizeof(*a));
	a->backend = GM_BACKEND_VERILATOR;
	a->wave_to = GM_WAVE_END;
	a->rounds = 1;
	a->cycles = 100000;
	a->seed = 1;
}

int cli_unknown(const char *what, const char *arg, const char *const *names)
{
	fprintf(stderr, "gpusim: unknown %s: %s\n(valid:", what, arg);
	for (; *names; names++)
		fprintf(stderr, " %s", *names);
	fputs(")\n", stderr);
	return 2;
}

/* "unknown option: ARG" and the options of @c. */
static int unknown_option(const struct cli_cmd *c, const char *arg)
{
	fprintf(stderr, "gpusim: %s: unknown option: %s\n(%s takes:", c->name, arg, c->name);
	for (int i = 0; i < CLI_OPT_COUNT; i++)
		if (c->opts & (1u << i))
			fprintf(stderr, " %s%s%s%s", i == CLI_OPT_PLUSARGS ? "" : "--",
				opt_table[i].name, opt_table[i].value ? " " : "",
				opt_table[i].value ? opt_table[i].value : "");
	fputs("; gpusim help for all)\n", stderr);
	return 2;
}

/* A plusarg the Verilator model takes (model/gm_be_vl.cpp's
 * vl_power_up_args, which refuses the model anything else):
 * +verilator+seed+N (N decimal, at most 9 digits) or
 * +verilator+rand+reset+N (N 0, 1 or 2). */
static bool plusarg_ok(const char *w)
{
	static const char seed[] = "+verilator+seed+", reset[] = "+verilator+rand+reset+";
	const char *v = !strncmp(w, seed, sizeof(seed) - 1) ? w + sizeof(seed) - 1 :
			!strncmp(w, reset, sizeof(reset) - 1) ? w + sizeof(reset) - 1 : NULL;
	size_t n = v ? strlen(v) : 0;

	if (!n || n > 9 || strspn(v, "0123456789") != n)
		return false;
	return v == w + sizeof(seed) - 1 || (n == 1 && *v <= '2');
}

/* Hand the plusargs among @words to the Verilator model: appended to
 * GPUSIM_VERILATOR_ARGS, which each model reads when it is made. */
static int hand_plusargs(const char *const *words, unsigned n)
{
	const char *env = getenv("GPUSIM_VERILATOR_ARGS");
	size_t len = env ? strlen(env) : 0;
	char *all;
	int rc;

	for (unsigned i = 0; i < n; i++)
		len += strlen(words[i]) + 1;
	all = malloc(len + 1);
	if (!all)
		return cli_usage(NULL, "out of memory for the plusargs", NULL);
	strcpy(all, env ? env : "");
	for (unsigned i = 0; i < n; i++)
		strcat(strcat(all, *all ? " " : ""), words[i]);
	rc = setenv("GPUSIM_VERILATOR_ARGS", all, 1) ? cli_usage(NULL, "cannot set", "GPUSIM_VERILATOR_ARGS") : 0;
	free(all);
	return rc;
}

/* Option @id (with its value @v, NULL for a flag) into *a: 0, or the usage
 * error. */
static int take_option(struct cli_args *a, int id, const char *v)
{
	const char *backends[GM_BACKEND_COUNT + 1] = { NULL };
	char why[32];
	uint64_t u = 0;
	bool ok = true;

	snprintf(why, sizeof(why), "bad --%s", opt_table[id].name);
	if (v && !*v)
		return cli_usage(NULL, "empty value for", why + 4);
	switch (id) {
	case CLI_OPT_NO_MMU: a->no_mmu = true; break;
	case CLI_OPT_QUIET: a->quiet = true; break;
	case CLI_OPT_LIST: a->list = true; break;
	case CLI_OPT_DISASM: a->disasm = true; break;
	case CLI_OPT_BACKEND:
		a->backend_set = true;
		if (cli_parse_backend(v, &a->backend))
			break;
		for (size_t i = 0, n; i < GM_BACKEND_COUNT; i++) /* the registry's names */
			backends[i] = gm_backend_list(&n)[i].name;
		return cli_unknown("backend", v, backends);
		break;
	case CLI_OPT_WAVE: a->wave = v; break;
	case CLI_OPT_CAPTURE: a->capture = v; break;
	case CLI_OPT_WAVE_FROM: ok = cli_parse_u64(v, &a->wave_from); break;
	case CLI_OPT_WAVE_TO: ok = cli_parse_u64(v, &a->wave_to); break;
	case CLI_OPT_ROUNDS: ok = cli_parse_rounds(v, &a->rounds); break;
	case CLI_OPT_CYCLES:
		ok = cli_parse_u64(v, &a->cycles) && a->cycles && a->cycles <= CLI_CYCLES_MAX;
		break;
	case CLI_OPT_SEED:
		ok = cli_parse_u64(v, &u) && u <= UINT32_MAX;
		a->seed = (uint32_t)u;
		break;
	case CLI_OPT_INJECT: ok = cli_parse_u64(v, &a->inject_at) && a->inject_at; break;
	}
	return ok ? 0 : cli_usage(NULL, why, v);
}

/* A word that is no option: a plusarg kept for the model (when @c takes
 * them), or one of a->words.  0 or the usage error. */
static int take_word(const struct cli_cmd *c, struct cli_args *a, const char *w)
{
	if (!strncmp(w, "+verilator+", 11) && (c->opts & CLI_O(PLUSARGS))) {
		if (!plusarg_ok(w))
			return cli_usage(NULL, "bad plusarg (takes +verilator+seed+N, "
					 "+verilator+rand+reset+0|1|2)", w);
		if (a->nplus == CLI_PLUSARGS_MAX)
			return cli_usage(NULL, "too many plusargs", w);
		a->plus[a->nplus++] = w;
	} else if (a->nwords >= c->max_words || a->nwords == CLI_WORDS_MAX) {
		return cli_usage(NULL, c->too_many, w);
	} else {
		a->words[a->nwords++] = w;
	}
	return 0;
}

/* The plusargs, once every option is read: for a backend with a Verilator
 * model, handed to it.  0 or the usage error. */
static int take_plusargs(struct cli_args *a)
{
	if (a->nplus && a->backend_set && a->backend != GM_BACKEND_VERILATOR &&
	    a->backend != GM_BACKEND_TLM)
		return cli_usage(NULL, "+verilator+ plusargs are for the verilator and tlm "
				 "backends, not", cli_backend_word(a->backend));
	return a->nplus ? hand_plusargs(a->plus, a->nplus) : 0;
}

int cli_parse(const struct cli_cmd *c, int argc, char **argv, struct cli_args *a)
{
	struct option lo[CLI_OPT_COUNT + 1];
	int n = 0, ch, rc;

	for (int i = 0; i < CLI_OPT_PLUSARGS; i++)
		if (c->opts & (1u << i))
			lo[n++] = (struct option){ opt_table[i].name,
						   opt_table[i].value ? required_argument : no_argument,
						   NULL, OPT_VAL_BASE + i };
	lo[n] = (struct option){ 0 };
	for (int i = 1; i < argc && !a->first_other; i++)
		if (strcmp(argv[i], "--help") && strcmp(argv[i], "-h") && strcmp(argv[i], "--list"))
			a->first_other = argv[i];
	optind = 0; /* glibc: start afresh */
	opterr = 0; /* the messages are ours */
	/* "-": the words come back in order as 1 (argv is not permuted, and
	 * options after a word are read with or without POSIXLY_CORRECT);
	 * ":": a missing value is ':', not '?' */
	while ((ch = getopt_long(argc, argv, "-:h", lo, NULL)) != -1) {
		int id = ch - OPT_VAL_BASE;

		if (ch == 1) {
			if ((rc = take_word(c, a, optarg)))
				return rc;
			continue;
		}
		if (ch == 'h')
			id = CLI_OPT_HELP;
		if (ch == ':')
			return cli_usage(NULL, "missing value for", argv[optind - 1]);
		if (ch == '?') {
			if (optopt >= OPT_VAL_BASE) /* --flag=VALUE */
				return cli_usage(NULL, "the option takes no value", argv[optind - 1]);
			return unknown_option(c, optopt ? (char[]){ '-', (char)optopt, 0 } :
						  argv[optind - 1]);
		}
		a->given |= 1u << id;
		if (id == CLI_OPT_HELP) {
			if (argc != 2)
				return cli_usage(NULL, "--help takes no other argument", a->first_other);
			fputs(c->help, stdout);
			return CLI_HELP_DONE;
		}
		rc = take_option(a, id, optarg);
		if (rc)
			return rc;
	}
	for (; optind < argc; optind++) /* after "--" */
		if ((rc = take_word(c, a, argv[optind])))
			return rc;
	return take_plusargs(a);
}

/* True when @path names an existing folder (NULL: false). */
static bool is_folder(const char *path)
{
	struct stat st;

	return path && !stat(path, &st) && S_ISDIR(st.st_mode);
}

int cli_check_outputs(const char *cmd, const struct cli_args *a, enum gm_backend_kind be,
		     bool folder)
{
	if ((a->wave_from || a->wave_to != GM_WAVE_END) && !a->wave)
		return cli_usage(cmd, "--wave-from/--wave-to need --wave", NULL);
	if (a->wave_from >= a->wave_to)
		return cli_usage(cmd, "empty wave window", NULL);
	if (!folder && is_folder(a->wave))
		return cli_usage(cmd, "--wave FILE is a folder", a->wave);
	if (!folder && is_folder(a->capture))
		return cli_usage(cmd, "--capture FILE is a folder", a->capture);
	return cli_check_wave(cmd, a->wave, be, folder);
}

/* ------------------------------------------------------------ progress */

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void cli_progress_start(struct cli_progress *p, const char *what, const char *unit, bool quiet,
			bool logging)
{
	memset(p, 0, sizeof(*p));
	p->what = what;
	p->unit = unit;
	p->on = !quiet && isatty(STDERR_FILENO) && !(logging && isatty(STDOUT_FILENO));
	p->t0 = now_s();
}

void cli_progress(void *ctx, uint64_t cycles, uint64_t done, uint64_t total)
{
	struct cli_progress *p = ctx;
	double t, secs;
	char where[64] = "";

	if (!p || !p->on)
		return;
	if (total && done >= total) { /* the last: what follows prints on a clean line */
		cli_progress_end(p);
		return;
	}
	t = now_s();
	secs = t - p->t0;
	if (secs < CLI_PROGRESS_AFTER_S || t - p->last < CLI_PROGRESS_EVERY_S)
		return;
	if (total)
		snprintf(where, sizeof(where), ", %s %" PRIu64 " of %" PRIu64 " (%.0f %%)", p->unit,
			 done, total, 100.0 * (double)done / (double)total);
	else if (p->unit)
		snprintf(where, sizeof(where), ", %s %" PRIu64, p->unit, done);
	/* \r and erase to the end of the line (ECMA-48 EL): rewritten in place */
	fprintf(stderr, "\r%s: %" PRIu64 " cycles, %.0f cycles/s%s, %.1f s\033[K", p->what, cycles,
		(double)cycles / secs, where, secs);
	fflush(stderr);
	p->last = t;
	p->shown = true;
}

void cli_progress_end(struct cli_progress *p)
{
	if (p && p->shown) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
	}
	p->shown = false;
}
