/* SPDX-License-Identifier: MIT */
/*
 * cli.c - what the gpusim commands share (see cli.h): usage errors, option
 * values, and input files (disasm, replay) read whole and bounded; every
 * refusal names the command, the file or option and why.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

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

int cli_help(int argc, char **argv, int i)
{
	if (argc == 2) {
		fputs(gpusim_usage, stdout);
		return 0;
	}
	return cli_usage(NULL, "--help takes no other argument", argv[i == 1 ? 2 : 1]);
}

bool cli_parse_rounds(const char *s, unsigned *rounds)
{
	uint64_t v;

	if (!cli_parse_u64(s, &v) || v == 0 || v > CLI_ROUNDS_MAX)
		return false;
	*rounds = (unsigned)v;
	return true;
}
