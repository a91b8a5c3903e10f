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

#include "gm.h"

/* `gpusim --help` (tools/gpusim.c). */
extern const char gpusim_usage[];

/* "gpusim: [CMD: ]WHY[: ARG]" and the --help hint on stderr; returns 2,
 * the usage exit status.  @cmd and @arg may be NULL. */
int cli_usage(const char *cmd, const char *why, const char *arg);

/* A whole unsigned number (decimal, 0x hex or 0 octal) without sign. */
bool cli_parse_u64(const char *s, uint64_t *v);

#define CLI_ROUNDS_MAX 1000000u /* demo and bench --rounds */

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

/* `--help` (or -h) at argv[@i] of a command's @argc words (argv[0] the
 * command, or gpusim itself): the usage on stdout and 0 when it stands
 * alone, else the usage error naming another word. */
int cli_help(int argc, char **argv, int i);

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
