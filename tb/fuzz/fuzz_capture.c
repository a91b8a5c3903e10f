// SPDX-License-Identifier: MIT
/*
 * fuzz_capture.c - libFuzzer harness for the capture parser
 * (model/gm_capture_read.c) and `gpusim replay --disasm`
 * (tools/replay_disasm.c), which take untrusted files: any input gets a
 * documented error or a listing, never a crash, a hang or a read out of
 * bounds.  The first input byte picks how the rest is used:
 *
 *   even  the rest is a capture file as it is (the fuzzer mostly meets
 *         checksum errors: what damaged files look like);
 *   odd   every record's CRC (and the header's) is recomputed first, so
 *         the payload decoders, the upload runs and the disassembler see
 *         the fuzzer's bytes.
 *
 * A parsed upload is expanded (the runs must stay inside it), every record
 * handed out must be within the bounds of traces/FORMAT.md ("Bounds": a
 * record past them aborts, a finding), and the capture listed into
 * /dev/null.  Build and run with `make fuzz`
 * (FUZZ_SECONDS); a finding is written to build/fuzz/crash-* and
 * `build/fuzz/fuzz_capture FILE` replays it.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gm_capture.h"
#include "gpu_hw.h"
#include "replay.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_UPLOAD_MAX (1u << 20) /* bytes expanded per upload */

static void put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> 8 * i);
}

/* The bounds the parser promises for a record it hands out (FORMAT.md). */
static void check_bounds(const struct gm_cap_header *h, const struct gm_cap_rec *rec,
			 uint64_t *cycle)
{
	uint64_t larger = h->cfg.vram_bytes > h->cfg.sys_bytes ? h->cfg.vram_bytes : h->cfg.sys_bytes;

	if (h->cfg.reset_cycles < 1 || h->cfg.reset_cycles > GM_MAX_RESET_CYCLES ||
	    h->cfg.vram_bytes > GM_MAX_MEM_BYTES || h->cfg.sys_bytes > GM_MAX_MEM_BYTES)
		abort();
	switch (rec->type) {
	case GM_CAP_STEP:
		if (rec->val > GM_CAP_MAX_STEP_CYCLES || rec->val > rec->cycle ||
		    rec->cycle - rec->val < *cycle)
			abort();
		*cycle = rec->cycle;
		break;
	case GM_CAP_FINAL:
		if (rec->cycle < *cycle)
			abort();
		break;
	case GM_CAP_MEM_WRITE:
	case GM_CAP_MEM_EXPECT:
		if (rec->len > GM_CAP_MAX_UPLOAD || rec->len > larger)
			abort();
		break;
	case GM_CAP_APT:
		if (rec->len > GPU_APT_WINDOW_BYTES)
			abort();
		break;
	default:
		break;
	}
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Recompute the header's and every whole record's checksum in @b[0..n). */
static void fix_crcs(uint8_t *b, size_t n)
{
	size_t pos = GM_CAP_HEADER_BYTES;

	if (n < GM_CAP_HEADER_BYTES)
		return;
	put32(b + GM_CAP_HEADER_BYTES - 4, gm_cap_crc32(0, b, GM_CAP_HEADER_BYTES - 4));
	while (n - pos >= 12) {
		uint32_t len = get32(b + pos);

		if (len > n - pos - 12)
			break;
		put32(b + pos + 8 + len, gm_cap_crc32(0, b + pos, 8 + (size_t)len));
		pos += 12 + (size_t)len;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct gm_cap_reader r;
	struct gm_cap_header h;
	struct gm_cap_rec rec;
	bool small = true;
	uint8_t *b;
	FILE *null;
	size_t n;

	if (size < 1)
		return 0;
	n = size - 1;
	b = malloc(n + 1);
	if (!b)
		abort();
	memcpy(b, data + 1, n);
	if (data[0] & 1)
		fix_crcs(b, n);
	if (gm_cap_reader_init(&r, b, n, &h) == GM_CAP_OK) {
		uint64_t cycle = h.start_cycle;

		while (gm_cap_next(&r, &rec) == GM_CAP_OK && rec.type != GM_CAP_END) {
			check_bounds(&h, &rec, &cycle);
			if (rec.nchunks && rec.len <= FUZZ_UPLOAD_MAX) {
				uint8_t *out = malloc(rec.len);

				if (!out)
					abort();
				gm_cap_expand(&rec, out);
				free(out);
			}
			small &= rec.len <= FUZZ_UPLOAD_MAX;
		}
		/* the listing, when its uploads are small enough to shadow */
		null = fopen("/dev/null", "w");
		if (null && small && h.cfg.vram_bytes <= (1ull << 40) && h.cfg.sys_bytes <= (1ull << 40) &&
		    gm_cap_reader_init(&r, b, n, &h) == GM_CAP_OK)
			(void)replay_disasm(null, "fuzz", &r, &h);
		if (null)
			fclose(null);
	}
	free(b);
	return 0;
}
