/* SPDX-License-Identifier: MIT */
/*
 * replay.h - `gpusim replay`: run a capture (model/gm_capture.h) on a fresh
 * model and check every result it recorded, or list it with the packet
 * disassembler.  A client of the library: it uses gm.h and the parser only.
 */
#ifndef REPLAY_H
#define REPLAY_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "gm_capture.h"

/* Exit status of a replay whose capture needs what the backend lacks (the
 * aperture on ref): CTest's SKIP_RETURN_CODE. */
#define REPLAY_EXIT_UNSUPPORTED 77

/* `gpusim replay ...` with argv[0] = "replay"; the exit status. */
struct cli_cmd;
int cmd_replay(const struct cli_cmd *c, int argc, char **argv);

/*
 * Read the whole of @path (at most 1 GiB) and parse every record, each as
 * it arrives (a stream is refused at its first bad bytes): 0 with *buf
 * (free it), *len, the reader at the first record and *h; else 2 with the
 * reason (record number, byte, what is wrong) on stderr, nothing allocated.
 */
int replay_load(const char *path, uint8_t **buf, size_t *len, struct gm_cap_reader *r,
		struct gm_cap_header *h);

/* Print the capture held by @r record by record on @out, ring and IB
 * uploads decoded as packets.  The exit status: 0, or 2 with the parser's
 * error on stderr once the records run into one. */
int replay_disasm(FILE *out, const char *path, struct gm_cap_reader *r,
		  const struct gm_cap_header *h);

/* The name of register @off ("Q_WPTR[1]"), into @buf. */
const char *replay_reg_name(uint32_t off, char *buf, size_t n);

#endif /* REPLAY_H */
