/* SPDX-License-Identifier: MIT */
/*
 * cli_file.c - the gpusim commands' input files (disasm, replay): read
 * whole and bounded; every refusal names the command, the file and why.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_file.h"

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
	} while (got && n <= max);
	err = ferror(f) ? errno : 0;
	if (err)
		rc = cli_refuse(cmd, path, "cannot read: %s", strerror(err));
	else if (n > max)
		rc = refuse_size(cmd, path, max);
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
