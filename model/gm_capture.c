/* SPDX-License-Identifier: MIT */
/*
 * gm_capture.c - the capture writer: the hooks gm.c calls at each gm.h
 * entry point turn the outermost call into a record (traces/FORMAT.md).
 *
 * Only the outermost call records: gm_apt_flush's register accesses, or
 * what a gm_run_until condition does, are part of the call that made them
 * and are replayed by repeating it.  Cycles that pass between records are
 * written as a STEP before the next one, so a replay runs exactly the
 * cycles the capture ran.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gm_capture.h"
#include "gpu_hw.h"

#define CAP_DEPTH 8u        /* nesting of gm.h calls inside each other */
#define ZERO_RUN_BYTES 16u  /* zeros that split an upload into two runs */
#define SEQ_MIN_WORDS 4u    /* words of an arithmetic sequence stored as one */

struct gm_cap {
	FILE *f;
	uint8_t *buf;           /* the record being built */
	size_t len, cap;
	bool io_err;            /* a write failed: gm_cap_finish says GM_ERR_IO */
	bool inexact;           /* a run's condition touched the model */
	unsigned depth;         /* gm.h calls in progress */
	uint64_t enter_cycle[CAP_DEPTH]; /* the cycle each one began at */
	bool is_run[CAP_DEPTH]; /* ...and whether it is a gm_step/gm_run_until */
	uint64_t last_cycle;    /* the cycle the last record left the model at */
	uint64_t mem_most;      /* bytes a mem_write or mem_expect may cover (FORMAT.md) */
};

static void put(struct gm_cap *c, const void *p, size_t n)
{
	if (c->len + n > c->cap) {
		size_t cap = c->cap ? c->cap : 4096;
		uint8_t *nb;

		while (cap < c->len + n)
			cap *= 2;
		nb = realloc(c->buf, cap);
		if (!nb) {
			c->io_err = true;
			return;
		}
		c->buf = nb;
		c->cap = cap;
	}
	memcpy(c->buf + c->len, p, n);
	c->len += n;
}

static void put32(struct gm_cap *c, uint32_t v)
{
	uint8_t b[4] = { (uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24) };

	put(c, b, 4);
}

static void put64(struct gm_cap *c, uint64_t v)
{
	put32(c, (uint32_t)v);
	put32(c, (uint32_t)(v >> 32));
}

/* Start a record of @type: its length is patched in by rec_end. */
static void rec_begin(struct gm_cap *c, enum gm_cap_type type)
{
	c->len = 0;
	put32(c, 0);
	put32(c, type);
}

/* Patch the length, append the CRC and write the record out. */
static void rec_end(struct gm_cap *c)
{
	uint32_t n = (uint32_t)(c->len - 8);

	if (c->io_err || c->len - 8 > GM_CAP_MAX_PAYLOAD) {
		c->io_err = true;
		return;
	}
	for (int i = 0; i < 4; i++)
		c->buf[i] = (uint8_t)(n >> 8 * i);
	put32(c, gm_cap_crc32(0, c->buf, c->len));
	if (!c->io_err && fwrite(c->buf, 1, c->len, c->f) != c->len)
		c->io_err = true;
}

static uint64_t word_at(const uint8_t *p)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

/* Bytes from @i of @p[0..len) that hold an arithmetic sequence of at
 * least SEQ_MIN_WORDS little-endian u64 words, not all zero (page tables,
 * fills); 0 if none starts there. */
static size_t seq_bytes(const uint8_t *p, size_t i, size_t len)
{
	uint64_t first, step;
	size_t n;

	if (len - i < 8 * SEQ_MIN_WORDS)
		return 0;
	first = word_at(p + i);
	step = word_at(p + i + 8) - first;
	if (first == 0 && step == 0)
		return 0;
	for (n = 2; i + 8 * (n + 1) <= len && n < GM_CAP_SEQ_MAX_BYTES / 8; n++)
		if (word_at(p + i + 8 * n) != first + n * step)
			break;
	return n >= SEQ_MIN_WORDS ? 8 * n : 0;
}

/* One run: @n literal bytes at @off, or a sequence (@seq) of @n bytes. */
static void put_run(struct gm_cap *c, const uint8_t *p, size_t off, size_t n, bool seq,
		    uint32_t *count)
{
	put32(c, (uint32_t)off);
	put32(c, (uint32_t)n | (seq ? GM_CAP_RUN_SEQ : 0u));
	if (seq) {
		put64(c, word_at(p + off));
		put64(c, word_at(p + off + 8) - word_at(p + off));
	} else {
		put(c, p + off, n);
	}
	(*count)++;
}

/* @p[0..len) as runs (traces/FORMAT.md): ZERO_RUN_BYTES or more zeros are
 * left out, arithmetic sequences of words stored as (first, step), the
 * rest literally.  What the parser's chunks_ok accepts. */
static void put_runs(struct gm_cap *c, const uint8_t *p, size_t len)
{
	size_t count_at = c->len, i = 0, lit = 0, lit_end = 0;
	bool in_lit = false;
	uint32_t count = 0;

	put32(c, 0);
	while (i < len) {
		size_t seq = seq_bytes(p, i, len), z = 0;

		while (!seq && i + z < len && p[i + z] == 0)
			z++;
		if (seq || z >= ZERO_RUN_BYTES || (z && i + z == len)) {
			if (in_lit)
				put_run(c, p, lit, lit_end - lit, false, &count);
			in_lit = false;
			if (seq)
				put_run(c, p, i, seq, true, &count);
			i += seq ? seq : z;
			continue;
		}
		if (!in_lit)
			lit = i;
		in_lit = true;
		i += z ? z : 1;
		lit_end = i;
	}
	if (in_lit)
		put_run(c, p, lit, lit_end - lit, false, &count);
	if (!c->io_err)
		for (int b = 0; b < 4; b++)
			c->buf[count_at + b] = (uint8_t)(count >> 8 * b);
}

int gm_cap_create(const char *path, const struct gm_config *cfg, uint64_t cycle,
		  struct gm_cap **out)
{
	struct gm_cap *c = calloc(1, sizeof(*c));

	if (!c)
		return GM_ERR_NO_MEM;
	c->f = fopen(path, "wb");
	if (!c->f) {
		free(c);
		return GM_ERR_IO;
	}
	c->len = 0;
	put(c, GM_CAP_MAGIC, 8);
	put32(c, GM_CAP_VERSION);
	put32(c, GM_CAP_HEADER_BYTES);
	put32(c, cfg->backend);
	put32(c, cfg->reset_cycles);
	put64(c, cfg->vram_bytes);
	put64(c, cfg->sys_bytes);
	put32(c, cfg->vram_latency_cycles);
	put32(c, cfg->sys_latency_cycles);
	put32(c, cfg->vram_bytes_per_cycle);
	put32(c, cfg->sys_bytes_per_cycle);
	put32(c, cfg->max_outstanding);
	put64(c, cycle);
	put32(c, gm_cap_crc32(0, c->buf, c->len));
	if (c->io_err || fwrite(c->buf, 1, c->len, c->f) != c->len) {
		fclose(c->f);
		free(c->buf);
		free(c);
		return GM_ERR_IO;
	}
	c->last_cycle = cycle;
	c->mem_most = cfg->vram_bytes > cfg->sys_bytes ? cfg->vram_bytes : cfg->sys_bytes;
	if (c->mem_most > GM_CAP_MAX_UPLOAD)
		c->mem_most = GM_CAP_MAX_UPLOAD;
	*out = c;
	return GM_OK;
}

static void put_step(struct gm_cap *c, uint64_t cycle, enum gm_cap_run kind, int st)
{
	rec_begin(c, GM_CAP_STEP);
	put32(c, kind);
	put32(c, (uint32_t)st);
	put64(c, cycle - c->last_cycle);
	put64(c, cycle);
	rec_end(c);
	c->last_cycle = cycle;
}

/* Write the cycles run since the last record as a STEP of @kind: a run
 * longer than a step may be as plain steps of GM_CAP_MAX_STEP_CYCLES first
 * (they ran without a model error: that stops the clock, so it is in the
 * last), then the rest as @kind with @st. */
static void flush_step(struct gm_cap *c, uint64_t cycle, enum gm_cap_run kind, int st)
{
	if (cycle == c->last_cycle && kind == GM_CAP_RUN_STEP)
		return;
	while (cycle - c->last_cycle > GM_CAP_MAX_STEP_CYCLES)
		put_step(c, c->last_cycle + GM_CAP_MAX_STEP_CYCLES, GM_CAP_RUN_STEP, GM_OK);
	put_step(c, cycle, kind, st);
}

void gm_cap_enter(struct gm_cap *c, uint64_t cycle, bool run)
{
	if (!c)
		return;
	if (c->depth == 0)
		flush_step(c, cycle, GM_CAP_RUN_STEP, GM_OK);
	if (c->depth < CAP_DEPTH) {
		c->enter_cycle[c->depth] = cycle;
		c->is_run[c->depth] = run;
	}
	c->depth++;
}

/*
 * Leave a call that ran until @cycle, @changes_model if it moved the clock
 * or wrote memory.  True when it is the outermost (record it).  A call
 * inside a run (a gm_run_until condition) that changed the model cannot
 * be replayed: the capture is marked inexact.
 */
static bool leave(struct gm_cap *c, uint64_t cycle, bool changes_model)
{
	unsigned d;

	if (!c || c->depth == 0)
		return false;
	d = --c->depth;
	if (d == 0)
		return true;
	if (d < CAP_DEPTH && (changes_model || cycle != c->enter_cycle[d]))
		for (unsigned i = 0; i < d && i < CAP_DEPTH; i++)
			c->inexact |= c->is_run[i];
	return false;
}

void gm_cap_reg(struct gm_cap *c, uint64_t cycle, bool write, uint32_t off, uint32_t val, int st)
{
	if (!leave(c, cycle, write))
		return;
	rec_begin(c, write ? GM_CAP_REG_WRITE : GM_CAP_REG_READ);
	put32(c, off);
	put32(c, val);
	put32(c, (uint32_t)st);
	rec_end(c);
	c->last_cycle = cycle;
}

/* Whether a backdoor call of @len bytes with status @st can be written: a
 * successful one as records of at most GM_CAP_MAX_UPLOAD bytes (it lay in
 * one memory, so each part does), a failed one only within the bound
 * (FORMAT.md, "Bounds"); else the capture cannot hold it (GM_ERR_IO). */
static bool mem_fits(struct gm_cap *c, size_t len, int st)
{
	if (st == GM_OK || len <= c->mem_most)
		return true;
	c->io_err = true;
	return false;
}

void gm_cap_mem_write(struct gm_cap *c, uint64_t cycle, uint64_t addr, const void *buf,
		      size_t len, int st)
{
	const uint8_t *p = buf;

	if (!leave(c, cycle, true))
		return;
	if (!buf || !mem_fits(c, len, st)) {
		c->io_err = true; /* cannot be written in this format */
		return;
	}
	do {
		size_t n = len < GM_CAP_MAX_UPLOAD ? len : GM_CAP_MAX_UPLOAD;

		rec_begin(c, GM_CAP_MEM_WRITE);
		put64(c, addr);
		put64(c, n);
		put32(c, (uint32_t)st);
		put_runs(c, p, n);
		rec_end(c);
		addr += n;
		p += n;
		len -= n;
	} while (len);
	c->last_cycle = cycle;
}

void gm_cap_mem_read(struct gm_cap *c, uint64_t cycle, uint64_t addr, const void *buf,
		     size_t len, int st)
{
	const uint8_t *p = buf;

	if (!leave(c, cycle, false) || !mem_fits(c, len, st))
		return;
	do {
		size_t n = len < GM_CAP_MAX_UPLOAD ? len : GM_CAP_MAX_UPLOAD;
		uint64_t v = 0;

		if (st == GM_OK && n <= 8)
			memcpy(&v, p, n); /* little-endian host: the bytes as read */
		rec_begin(c, GM_CAP_MEM_EXPECT);
		put64(c, addr);
		put64(c, n);
		put64(c, st == GM_OK ? gm_cap_fnv64(p, n) : 0);
		put32(c, (uint32_t)st);
		put32(c, 0);
		put64(c, v);
		rec_end(c);
		addr += n;
		p += st == GM_OK ? n : 0;
		len -= n;
	} while (len);
	c->last_cycle = cycle;
}

void gm_cap_run(struct gm_cap *c, uint64_t cycle, enum gm_cap_run kind, int st)
{
	if (!leave(c, cycle, false))
		return;
	flush_step(c, cycle, kind, st);
}

void gm_cap_apt(struct gm_cap *c, uint64_t cycle, enum gm_cap_apt_op op, uint32_t off,
		const void *buf, size_t len, uint64_t val, uint8_t strb, int st)
{
	bool data = op == GM_CAP_APT_WRITE && buf && st != GM_ERR_BAD_ARG;

	if (!leave(c, cycle, true))
		return;
	if (op == GM_CAP_APT_READ && len > GPU_APT_WINDOW_BYTES) {
		c->io_err = true; /* past the window: refused (GM_ERR_BAD_ARG), past the bound */
		return;
	}
	/* what was read is defined when the call succeeded or a word failed */
	if (op == GM_CAP_APT_READ)
		val = buf && (st == GM_OK || st == GM_ERR_ADDR) ? gm_cap_fnv64(buf, len) : 0;
	rec_begin(c, GM_CAP_APT);
	put32(c, op);
	put32(c, (uint32_t)st);
	put32(c, off);
	put32(c, strb);
	put64(c, data || op == GM_CAP_APT_READ ? len : 0);
	put64(c, val);
	if (data)
		put_runs(c, buf, len);
	else
		put32(c, 0);
	rec_end(c);
	c->last_cycle = cycle;
}

void gm_cap_inject(struct gm_cap *c, uint64_t cycle, uint32_t id, uint64_t at_cycle, int st)
{
	if (!leave(c, cycle, true))
		return;
	rec_begin(c, GM_CAP_INJECT);
	put32(c, id);
	put32(c, (uint32_t)st);
	put64(c, at_cycle);
	rec_end(c);
	c->last_cycle = cycle;
}

/* A name's bytes after its u32 length: at most @max (longer: cut there). */
static void put_name(struct gm_cap *c, const char *name, size_t max)
{
	size_t n = 0;

	while (n < max && name[n])
		n++;

	put32(c, (uint32_t)n);
	put(c, name, n);
}

void gm_cap_mark(struct gm_cap *c, uint64_t cycle, uint32_t kind, const char *name)
{
	if (!leave(c, cycle, false))
		return;
	rec_begin(c, GM_CAP_MARK);
	put32(c, kind);
	put_name(c, name, GM_CAP_MAX_NAME);
	rec_end(c);
	c->last_cycle = cycle;
}

void gm_cap_watch(struct gm_cap *c, uint64_t cycle, uint64_t addr, const char *name, int st)
{
	if (!leave(c, cycle, false))
		return;
	rec_begin(c, GM_CAP_WATCH);
	put64(c, addr);
	put32(c, (uint32_t)st);
	put_name(c, name, GM_CAP_MAX_NAME);
	rec_end(c);
	c->last_cycle = cycle;
}

int gm_cap_finish(struct gm_cap *c, uint64_t cycle, bool irq, uint64_t mem_hash)
{
	int st;

	if (!c)
		return GM_OK;
	flush_step(c, cycle, GM_CAP_RUN_STEP, GM_OK);
	rec_begin(c, GM_CAP_FINAL);
	put64(c, cycle);
	put64(c, mem_hash);
	put32(c, irq);
	put32(c, 0);
	rec_end(c);
	if (fclose(c->f))
		c->io_err = true;
	st = c->io_err ? GM_ERR_IO : c->inexact ? GM_ERR_UNSUPPORTED : GM_OK;
	free(c->buf);
	free(c);
	return st;
}
