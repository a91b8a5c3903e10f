/* SPDX-License-Identifier: MIT */
/*
 * gm_capture_read.c - the capture parser (traces/FORMAT.md), and the
 * checksum and hash both sides use.  It takes untrusted bytes: every length
 * is checked against what is left before it is used.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "gm_capture.h"
#include "gpu_hw.h"

uint32_t gm_cap_crc32(uint32_t crc, const void *buf, size_t len)
{
	/* CRC-32/IEEE a nibble at a time: 16 entries, no table to build */
	static const uint32_t t[16] = {
		0x00000000, 0x1db71064, 0x3b6e20c8, 0x26d930ac, 0x76dc4190, 0x6b6b51f4,
		0x4db26158, 0x5005713c, 0xedb88320, 0xf00f9344, 0xd6d6a3e8, 0xcb61b38c,
		0x9b64c2b0, 0x86d3d2d4, 0xa00ae278, 0xbdbdf21c,
	};
	const uint8_t *p = buf;

	crc = ~crc;
	while (len--) {
		crc ^= *p++;
		crc = (crc >> 4) ^ t[crc & 15u];
		crc = (crc >> 4) ^ t[crc & 15u];
	}
	return ~crc;
}

uint64_t gm_cap_fnv64(const void *buf, size_t len)
{
	const uint8_t *p = buf;
	uint64_t h = 0xcbf29ce484222325ull;

	while (len--)
		h = (h ^ *p++) * 0x100000001b3ull;
	return h;
}

const char *gm_cap_err_name(enum gm_cap_err e)
{
	static const char *const n[GM_CAP_ERR_COUNT] = {
		"GM_CAP_OK", "GM_CAP_ERR_IO", "GM_CAP_ERR_NO_MEM", "GM_CAP_ERR_MAGIC",
		"GM_CAP_ERR_VERSION", "GM_CAP_ERR_TRUNCATED", "GM_CAP_ERR_CRC",
		"GM_CAP_ERR_TYPE", "GM_CAP_ERR_PAYLOAD", "GM_CAP_ERR_LIMIT",
	};

	return (unsigned)e < GM_CAP_ERR_COUNT ? n[e] : "GM_CAP_ERR_?";
}

const char *gm_cap_type_name(enum gm_cap_type t)
{
	static const char *const n[GM_CAP_TYPES] = {
		"end", "mem_write", "reg_write", "reg_read", "step", "mem_expect", "apt",
		"inject", "final", "mark", "watch",
	};

	return (unsigned)t < GM_CAP_TYPES ? n[t] : "?";
}

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t le64(const uint8_t *p)
{
	return (uint64_t)le32(p) | (uint64_t)le32(p + 4) << 32;
}

static enum gm_cap_err fail(struct gm_cap_reader *r, enum gm_cap_err e, uint64_t at,
			    const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* Say why record r->index at byte @at is refused; @e. */
static enum gm_cap_err fail(struct gm_cap_reader *r, enum gm_cap_err e, uint64_t at,
			    const char *fmt, ...)
{
	va_list ap;
	int n;

	n = snprintf(r->why, sizeof(r->why), "record %llu at byte %llu: ",
		     (unsigned long long)r->index, (unsigned long long)at);
	va_start(ap, fmt);
	vsnprintf(r->why + n, sizeof(r->why) - (size_t)n, fmt, ap);
	va_end(ap);
	r->err = e; /* sticky: gm_cap_next repeats it */
	return e;
}

enum gm_cap_err gm_cap_reader_init(struct gm_cap_reader *r, const uint8_t *buf, size_t len,
				   struct gm_cap_header *h)
{
	const uint8_t *p = buf;
	uint32_t crc;

	memset(r, 0, sizeof(*r));
	memset(h, 0, sizeof(*h));
	r->buf = buf;
	r->len = len;
	if (len && memcmp(p, GM_CAP_MAGIC, len < 8 ? len : 8) != 0)
		return fail(r, GM_CAP_ERR_MAGIC, 0, "not a capture (no magic %s)", GM_CAP_MAGIC);
	if (len < 12)
		return fail(r, GM_CAP_ERR_TRUNCATED, 0, "the header is cut off after %zu bytes", len);
	h->version = le32(p + 8);
	if (h->version == 0 || h->version > GM_CAP_VERSION)
		return fail(r, GM_CAP_ERR_VERSION, 8, "format version %u, this gpusim reads 1..%u",
			    h->version, GM_CAP_VERSION);
	if (len < GM_CAP_HEADER_BYTES)
		return fail(r, GM_CAP_ERR_TRUNCATED, 0, "the header is cut off after %zu bytes", len);
	if (le32(p + 12) != GM_CAP_HEADER_BYTES)
		return fail(r, GM_CAP_ERR_PAYLOAD, 12, "header length %u, version 1 has %u",
			    le32(p + 12), GM_CAP_HEADER_BYTES);
	crc = gm_cap_crc32(0, p, GM_CAP_HEADER_BYTES - 4);
	if (crc != le32(p + GM_CAP_HEADER_BYTES - 4))
		return fail(r, GM_CAP_ERR_CRC, 0, "header checksum 0x%08x, computed 0x%08x",
			    le32(p + GM_CAP_HEADER_BYTES - 4), crc);
	h->cfg.backend = (enum gm_backend_kind)le32(p + 16);
	h->cfg.reset_cycles = le32(p + 20);
	h->cfg.vram_bytes = le64(p + 24);
	h->cfg.sys_bytes = le64(p + 32);
	h->cfg.vram_latency_cycles = le32(p + 40);
	h->cfg.sys_latency_cycles = le32(p + 44);
	h->cfg.vram_bytes_per_cycle = le32(p + 48);
	h->cfg.sys_bytes_per_cycle = le32(p + 52);
	h->cfg.max_outstanding = le32(p + 56);
	h->start_cycle = le64(p + 60);
	/* the configuration gm_create takes: no work is sized by a value past it */
	if (h->cfg.reset_cycles < 1 || h->cfg.reset_cycles > GM_MAX_RESET_CYCLES)
		return fail(r, GM_CAP_ERR_LIMIT, 20, "reset_cycles %u, a model takes 1..%u",
			    h->cfg.reset_cycles, GM_MAX_RESET_CYCLES);
	if (h->cfg.vram_bytes < 1 || h->cfg.vram_bytes > GM_MAX_MEM_BYTES)
		return fail(r, GM_CAP_ERR_LIMIT, 24, "vram_bytes %llu, a model takes 1..%llu",
			    (unsigned long long)h->cfg.vram_bytes, GM_MAX_MEM_BYTES);
	if (h->cfg.sys_bytes > GM_MAX_MEM_BYTES)
		return fail(r, GM_CAP_ERR_LIMIT, 32, "sys_bytes %llu, a model takes at most %llu",
			    (unsigned long long)h->cfg.sys_bytes, GM_MAX_MEM_BYTES);
	r->cfg = h->cfg;
	r->cycle = h->start_cycle;
	r->pos = GM_CAP_HEADER_BYTES;
	r->index = 1;
	return GM_CAP_OK;
}

/* Bytes a run's data takes in the file: literal bytes, or first and step. */
static uint32_t run_data_bytes(uint32_t n)
{
	return n & GM_CAP_RUN_SEQ ? 16u : n;
}

/* Check the runs (offset u32, length u32 with GM_CAP_RUN_SEQ, data) of
 * @p[0..n): ascending, inside @len, a sequence a whole number of words,
 * exactly filling @n.  True when they are well formed. */
static bool chunks_ok(const uint8_t *p, size_t n, uint32_t count, uint64_t len)
{
	uint64_t next = 0;

	for (uint32_t i = 0; i < count; i++) {
		uint64_t off, m, d;

		if (n < 8)
			return false;
		off = le32(p);
		m = le32(p + 4) & ~GM_CAP_RUN_SEQ;
		d = run_data_bytes(le32(p + 4));
		if ((le32(p + 4) & GM_CAP_RUN_SEQ) && m % 8)
			return false;
		if (off < next || m == 0 || m > len || off > len - m || n - 8 < d)
			return false;
		next = off + m;
		p += 8 + d;
		n -= 8 + d;
	}
	return n == 0;
}

void gm_cap_expand(const struct gm_cap_rec *rec, uint8_t *dst)
{
	const uint8_t *p = rec->chunks;

	memset(dst, 0, rec->len);
	for (uint32_t i = 0; i < rec->nchunks; i++) {
		uint32_t off = le32(p), n = le32(p + 4);

		if (n & GM_CAP_RUN_SEQ) {
			uint64_t v = le64(p + 8), step = le64(p + 16);

			for (uint32_t k = 0; k < (n & ~GM_CAP_RUN_SEQ) / 8; k++, v += step)
				for (int b = 0; b < 8; b++)
					dst[off + 8 * k + b] = (uint8_t)(v >> 8 * b);
		} else {
			memcpy(dst + off, p + 8, n);
		}
		p += 8 + run_data_bytes(n);
	}
}

/* True when [@addr, @addr + @len) lies in the memory at @base of @size bytes. */
static bool in_region(uint64_t addr, uint64_t len, uint64_t base, uint64_t size)
{
	return addr >= base && len <= size && addr - base <= size - len;
}

/*
 * The bounds of a mem_write's or mem_expect's range (traces/FORMAT.md,
 * "Bounds"): at most GM_CAP_MAX_UPLOAD bytes and the larger memory of the
 * header; a call that succeeded lay in VRAM or in system memory.
 */
static enum gm_cap_err mem_bounds(struct gm_cap_reader *r, const struct gm_cap_rec *rec,
				  uint64_t at)
{
	const struct gm_config *c = &r->cfg;
	uint64_t larger = c->vram_bytes > c->sys_bytes ? c->vram_bytes : c->sys_bytes;
	uint64_t most = larger < GM_CAP_MAX_UPLOAD ? larger : GM_CAP_MAX_UPLOAD;

	if (rec->len > most)
		return fail(r, GM_CAP_ERR_LIMIT, at, "%s of %llu bytes, at most %llu",
			    gm_cap_type_name(rec->type), (unsigned long long)rec->len,
			    (unsigned long long)most);
	if (rec->status == GM_OK && rec->len &&
	    !in_region(rec->addr, rec->len, GPU_VRAM_BASE, c->vram_bytes) &&
	    !in_region(rec->addr, rec->len, GPU_SYSMEM_BASE, c->sys_bytes))
		return fail(r, GM_CAP_ERR_LIMIT, at, "%s of %llu bytes at 0x%llx succeeded outside "
			    "the header's memory", gm_cap_type_name(rec->type),
			    (unsigned long long)rec->len, (unsigned long long)rec->addr);
	return GM_CAP_OK;
}

/* The aperture: bytes only for write and read, at most the window; a call
 * that got past its argument checks (GM_OK, GM_ERR_ADDR) lay inside it. */
static enum gm_cap_err apt_bounds(struct gm_cap_reader *r, const struct gm_cap_rec *rec,
				  uint64_t at)
{
	bool bytes = rec->op == GM_CAP_APT_WRITE || rec->op == GM_CAP_APT_READ;

	if (rec->len > (bytes ? GPU_APT_WINDOW_BYTES : 0))
		return fail(r, GM_CAP_ERR_LIMIT, at, "apt call %u of %llu bytes, at most %llu",
			    rec->op, (unsigned long long)rec->len,
			    bytes ? (unsigned long long)GPU_APT_WINDOW_BYTES : 0ull);
	if (bytes && (rec->status == GM_OK || rec->status == GM_ERR_ADDR) &&
	    !in_region(rec->off, rec->len, 0, GPU_APT_WINDOW_BYTES))
		return fail(r, GM_CAP_ERR_LIMIT, at, "apt call %u of %llu bytes at 0x%x succeeded "
			    "past the window", rec->op, (unsigned long long)rec->len, rec->off);
	return GM_CAP_OK;
}

/* Cycles only move forward, from the header's start cycle, a step at most
 * GM_CAP_MAX_STEP_CYCLES: a step (or, @reached only, the final record)
 * reaching @reached after @cycles cycles. */
static enum gm_cap_err cycle_bounds(struct gm_cap_reader *r, const struct gm_cap_rec *rec,
				    uint64_t at)
{
	uint64_t n = rec->type == GM_CAP_STEP ? rec->val : 0;

	if (n > GM_CAP_MAX_STEP_CYCLES)
		return fail(r, GM_CAP_ERR_LIMIT, at, "step of %llu cycles, at most %llu",
			    (unsigned long long)n, GM_CAP_MAX_STEP_CYCLES);
	if (rec->cycle < n || rec->cycle - n < r->cycle)
		return fail(r, GM_CAP_ERR_LIMIT, at, "%s of %llu cycles to cycle %llu starts "
			    "before cycle %llu, where the capture was", gm_cap_type_name(rec->type),
			    (unsigned long long)n, (unsigned long long)rec->cycle,
			    (unsigned long long)r->cycle);
	r->cycle = rec->cycle;
	return GM_CAP_OK;
}

/* The payload sizes of the fixed-size records (0: variable, checked below). */
static const uint32_t fixed_bytes[GM_CAP_TYPES] = {
	[GM_CAP_REG_WRITE] = 12, [GM_CAP_REG_READ] = 12, [GM_CAP_STEP] = 24,
	[GM_CAP_MEM_EXPECT] = 40, [GM_CAP_INJECT] = 16, [GM_CAP_FINAL] = 24,
};

/* Decode payload @p[0..n) of @rec->type; GM_CAP_OK or GM_CAP_ERR_PAYLOAD. */
static enum gm_cap_err decode(struct gm_cap_reader *r, struct gm_cap_rec *rec, const uint8_t *p,
			      uint32_t n)
{
	uint64_t at = rec->offset + 8;

	if (fixed_bytes[rec->type] && n != fixed_bytes[rec->type])
		return fail(r, GM_CAP_ERR_PAYLOAD, at, "%s payload of %u bytes, not %u",
			    gm_cap_type_name(rec->type), n, fixed_bytes[rec->type]);
	switch (rec->type) {
	case GM_CAP_MEM_WRITE:
		if (n < 24)
			return fail(r, GM_CAP_ERR_PAYLOAD, at, "mem_write payload of %u bytes", n);
		rec->addr = le64(p);
		rec->len = le64(p + 8);
		rec->status = le32(p + 16);
		rec->nchunks = le32(p + 20);
		rec->chunks = p + 24;
		if (mem_bounds(r, rec, at))
			return r->err;
		if (!chunks_ok(p + 24, n - 24, rec->nchunks, rec->len))
			return fail(r, GM_CAP_ERR_PAYLOAD, at, "mem_write of %llu bytes: bad runs",
				    (unsigned long long)rec->len);
		break;
	case GM_CAP_REG_WRITE:
	case GM_CAP_REG_READ:
		rec->off = le32(p);
		rec->val = le32(p + 4);
		rec->status = le32(p + 8);
		break;
	case GM_CAP_STEP:
		rec->op = le32(p);
		rec->status = le32(p + 4);
		rec->val = le64(p + 8);
		rec->cycle = le64(p + 16);
		if (rec->op > GM_CAP_RUN_UNTIL_IRQ)
			return fail(r, GM_CAP_ERR_PAYLOAD, at, "step of unknown kind %u", rec->op);
		return cycle_bounds(r, rec, at);
	case GM_CAP_MEM_EXPECT:
		rec->addr = le64(p);
		rec->len = le64(p + 8);
		rec->hash = le64(p + 16);
		rec->status = le32(p + 24);
		rec->val = le64(p + 32);
		return mem_bounds(r, rec, at);
	case GM_CAP_APT:
		if (n < 36)
			return fail(r, GM_CAP_ERR_PAYLOAD, at, "apt payload of %u bytes", n);
		rec->op = le32(p);
		rec->status = le32(p + 4);
		rec->off = le32(p + 8);
		rec->strb = le32(p + 12);
		rec->len = le64(p + 16);
		rec->val = le64(p + 24);
		rec->hash = rec->val;
		rec->nchunks = le32(p + 32);
		rec->chunks = p + 36;
		if (rec->op >= GM_CAP_APT_OPS)
			return fail(r, GM_CAP_ERR_PAYLOAD, at, "apt call %u: unknown", rec->op);
		if (apt_bounds(r, rec, at))
			return r->err;
		if ((rec->op != GM_CAP_APT_WRITE && rec->nchunks) ||
		    !chunks_ok(p + 36, n - 36, rec->nchunks, rec->len))
			return fail(r, GM_CAP_ERR_PAYLOAD, at, "apt call %u of %llu bytes: malformed",
				    rec->op, (unsigned long long)rec->len);
		break;
	case GM_CAP_INJECT:
		rec->val = le32(p);
		rec->status = le32(p + 4);
		rec->cycle = le64(p + 8);
		break;
	case GM_CAP_MARK:
		if (n < 8 || n - 8 != le32(p + 4) || n - 8 > GM_CAP_MAX_NAME || le32(p) > GM_MARK_FENCE)
			return fail(r, GM_CAP_ERR_PAYLOAD, at, "mark payload of %u bytes: malformed", n);
		rec->op = le32(p);
		rec->name = (const char *)p + 8;
		rec->name_len = n - 8;
		break;
	case GM_CAP_WATCH:
		if (n < 16 || n - 16 != le32(p + 12) || n - 16 > GM_CAP_MAX_NAME)
			return fail(r, GM_CAP_ERR_PAYLOAD, at, "watch payload of %u bytes: malformed", n);
		rec->addr = le64(p);
		rec->status = le32(p + 8);
		rec->name = (const char *)p + 16;
		rec->name_len = n - 16;
		break;
	case GM_CAP_FINAL:
		rec->cycle = le64(p);
		rec->hash = le64(p + 8);
		rec->irq = le32(p + 16);
		return cycle_bounds(r, rec, at);
	default:
		break;
	}
	return GM_CAP_OK;
}

enum gm_cap_err gm_cap_next(struct gm_cap_reader *r, struct gm_cap_rec *rec)
{
	const uint8_t *p;
	uint32_t n, type, crc;
	size_t left;
	enum gm_cap_err e;

	memset(rec, 0, sizeof(*rec));
	if (r->err)
		return r->err;
	if (r->index == 0)
		return fail(r, GM_CAP_ERR_IO, 0, "the reader was not initialised");
	rec->index = r->index;
	rec->offset = r->pos;
	left = r->len - r->pos;
	if (left == 0) {
		rec->type = GM_CAP_END;
		return GM_CAP_OK;
	}
	p = r->buf + r->pos;
	if (left < 12)
		return fail(r, GM_CAP_ERR_TRUNCATED, r->pos, "the file ends %zu bytes into the record",
			    left);
	n = le32(p);
	type = le32(p + 4);
	if (n > GM_CAP_MAX_PAYLOAD)
		return fail(r, GM_CAP_ERR_PAYLOAD, r->pos, "payload of %u bytes, the limit is %u", n,
			    GM_CAP_MAX_PAYLOAD);
	if (left - 12 < n)
		return fail(r, GM_CAP_ERR_TRUNCATED, r->pos,
			    "the file ends %zu bytes into a record of %u bytes", left, n + 12);
	crc = gm_cap_crc32(0, p, 8 + (size_t)n);
	if (crc != le32(p + 8 + n))
		return fail(r, GM_CAP_ERR_CRC, r->pos, "checksum 0x%08x, computed 0x%08x",
			    le32(p + 8 + n), crc);
	if (type == GM_CAP_END || type >= GM_CAP_TYPES)
		return fail(r, GM_CAP_ERR_TYPE, r->pos, "unknown record type %u", type);
	rec->type = (enum gm_cap_type)type;
	e = decode(r, rec, p + 8, n);
	if (e)
		return e;
	r->pos += 12 + (size_t)n;
	r->index++;
	return GM_CAP_OK;
}
