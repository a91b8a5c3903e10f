/* SPDX-License-Identifier: MIT */
/*
 * cli_file.h - the gpusim commands' input files: read whole, bounded, and
 * refused with the command's usage exit status and one line on stderr.
 */
#ifndef CLI_FILE_H
#define CLI_FILE_H

#include <stddef.h>
#include <stdint.h>

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

#endif
