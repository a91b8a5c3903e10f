/* SPDX-License-Identifier: MIT */
/*
 * gm_capture.h - captures: what a program sent to the model through gm.h,
 * recorded at the API boundary, and the parser that reads them back.
 *
 * The format is described in traces/FORMAT.md: a checksummed header (magic,
 * version, the model's configuration) and a stream of length-prefixed,
 * CRC32-checked little-endian records.  gm.h switches capture on and off
 * (gm_capture_open/gm_capture_close); the hooks below are called by gm.c
 * only.  The parser takes untrusted bytes: every error names the record
 * number and the reason, and nothing it is given makes it read out of
 * bounds (tb/fuzz/fuzz_capture.c).
 */
#ifndef GM_CAPTURE_H
#define GM_CAPTURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gm.h"

#define GM_CAP_MAGIC "GPUSIMCP"   /* 8 bytes, no terminator in the file */
#define GM_CAP_VERSION 1u
#define GM_CAP_HEADER_BYTES 72u
#define GM_CAP_MAX_PAYLOAD (64u << 20) /* bytes of one record's payload */
/* Bytes one mem_write or mem_expect may cover: no more than one record may
 * hold literally, so a file of a few bytes cannot stand for gigabytes of
 * uploads (the writer cuts a longer successful upload into records this
 * long).  Also at most the larger memory of the header (traces/FORMAT.md,
 * "Bounds"). */
#define GM_CAP_MAX_UPLOAD ((uint64_t)GM_CAP_MAX_PAYLOAD)
/* Cycles one step record may run: above the longest wait of the driver and
 * the scenarios (20,000,000 cycles), about a minute of Verilator; the
 * writer cuts a longer run into steps this long. */
#define GM_CAP_MAX_STEP_CYCLES (1ull << 25)
#define GM_CAP_RUN_SEQ 0x80000000u  /* a run's length flag: an arithmetic sequence */
#define GM_CAP_SEQ_MAX_BYTES (1u << 30) /* the longest sequence run */
#define GM_CAP_MAX_NAME 63u /* bytes of a MARK's or WATCH's name (gm_wave_mark keeps 63) */

/* Record types (the u32 after a record's length). */
enum gm_cap_type {
	GM_CAP_END = 0,       /* not in a file: the parser's "no more records" */
	GM_CAP_MEM_WRITE = 1, /* backdoor write (uploads: rings, IBs, data) */
	GM_CAP_REG_WRITE = 2, /* register write (doorbells are Q_WPTR writes) */
	GM_CAP_REG_READ = 3,  /* register read and the value it returned */
	GM_CAP_STEP = 4,      /* cycles run (gm_step, gm_run_until*) */
	GM_CAP_MEM_EXPECT = 5, /* backdoor read: the range's hash (fences: the value) */
	GM_CAP_APT = 6,       /* an aperture call */
	GM_CAP_INJECT = 7,    /* gm_inject_mem_rsp */
	GM_CAP_FINAL = 8,     /* end-of-capture state: cycle, IRQ line, memory hash */
	GM_CAP_MARK = 9,      /* gm_wave_mark: a waveform's named marker */
	GM_CAP_WATCH = 10,    /* gm_wave_watch: a watched address's markers */
	GM_CAP_TYPES
};

/* GM_CAP_STEP: what ran the cycles. */
enum gm_cap_run { GM_CAP_RUN_STEP = 0, GM_CAP_RUN_UNTIL = 1, GM_CAP_RUN_UNTIL_IRQ = 2 };

/* GM_CAP_APT: which call. */
enum gm_cap_apt_op {
	GM_CAP_APT_POST64 = 0, GM_CAP_APT_WRITE64, GM_CAP_APT_READ64,
	GM_CAP_APT_WRITE, GM_CAP_APT_READ, GM_CAP_APT_FLUSH, GM_CAP_APT_OPS
};

/* What the parser reports; 0 = a record was read. */
enum gm_cap_err {
	GM_CAP_OK = 0,
	GM_CAP_ERR_IO,        /* the file could not be opened or read */
	GM_CAP_ERR_NO_MEM,    /* host allocation failed */
	GM_CAP_ERR_MAGIC,     /* the file does not start with GM_CAP_MAGIC */
	GM_CAP_ERR_VERSION,   /* written by a newer format version (or version 0) */
	GM_CAP_ERR_TRUNCATED, /* the file ends inside the header or a record */
	GM_CAP_ERR_CRC,       /* a checksum does not match: the bytes were changed */
	GM_CAP_ERR_TYPE,      /* a record type this version does not know */
	GM_CAP_ERR_PAYLOAD,   /* a record's payload is malformed for its type */
	GM_CAP_ERR_LIMIT,     /* a count, length or cycle past the bounds the header and
			       * the model set (traces/FORMAT.md, "Bounds") */
	GM_CAP_ERR_COUNT
};

/* The header: the configuration to build the model from. */
struct gm_cap_header {
	uint32_t version;
	struct gm_config cfg;     /* the backend field: the backend it was captured on */
	uint64_t start_cycle;     /* the model's cycle when capture began */
};

/* One decoded record.  Pointers point into the parser's buffer. */
struct gm_cap_rec {
	enum gm_cap_type type;
	uint64_t index;           /* record number: the header is 0, the first record 1 */
	uint64_t offset;          /* byte offset of the record in the file */
	uint32_t status;          /* the enum gm_status the call returned */
	uint32_t op;              /* STEP: enum gm_cap_run; APT: enum gm_cap_apt_op; MARK: kind */
	uint32_t off;             /* REG_*: register offset; APT: window offset */
	uint32_t strb;            /* APT *64: byte enables */
	uint64_t addr;            /* MEM_*, WATCH: address */
	uint64_t len;             /* MEM_*, APT WRITE/READ: bytes */
	uint64_t val;             /* REG_*: value; STEP: cycles; APT *64: word; INJECT: id */
	uint64_t cycle;           /* STEP, FINAL: cycle reached; INJECT: at_cycle */
	uint64_t hash;            /* MEM_EXPECT, APT READ: FNV-1a 64; FINAL: memory hash */
	uint32_t irq;             /* FINAL: the interrupt line */
	/* MARK, WATCH: the name (name_len bytes, not NUL-terminated) */
	const char *name;
	uint32_t name_len;
	/* MEM_WRITE, APT WRITE: @nchunks runs of the bytes written (literal
	 * bytes or arithmetic sequences of words); the bytes between them are
	 * zero.  gm_cap_expand() gives the bytes. */
	const uint8_t *chunks;
	uint32_t nchunks;
};

struct gm_cap_reader {
	const uint8_t *buf;
	size_t len, pos;
	uint64_t index;           /* of the next record */
	struct gm_config cfg;     /* the header's: the bounds of the records */
	uint64_t cycle;           /* the cycle the last step reached (the start cycle) */
	enum gm_cap_err err;      /* the first error, repeated by gm_cap_next */
	char why[192];            /* the last error: "record N at byte B: reason" */
};

/*
 * Start parsing the capture @buf[0..len) (kept by the reader; the caller
 * keeps it alive): check the header, its configuration within the bounds
 * gm_create takes (GM_CAP_ERR_LIMIT), and fill *h.  GM_CAP_OK; else the
 * error, and r->why says it with record 0.
 */
enum gm_cap_err gm_cap_reader_init(struct gm_cap_reader *r, const uint8_t *buf, size_t len,
				   struct gm_cap_header *h);

/*
 * The next record into *rec: GM_CAP_OK (rec->type GM_CAP_END once the
 * file ends cleanly between records), or the error with r->why naming the
 * record number, its byte offset and the reason.  A record whose counts,
 * lengths or cycles pass the bounds of traces/FORMAT.md is GM_CAP_ERR_LIMIT
 * and is not handed out, so a replay does none of its work.  After an error
 * the reader gives the same error again.
 */
enum gm_cap_err gm_cap_next(struct gm_cap_reader *r, struct gm_cap_rec *rec);

/* Expand a MEM_WRITE or APT WRITE record into @dst (rec->len bytes). */
void gm_cap_expand(const struct gm_cap_rec *rec, uint8_t *dst);

/* "GM_CAP_ERR_CRC" etc.; "reg_write" etc. for record types. */
const char *gm_cap_err_name(enum gm_cap_err e);
const char *gm_cap_type_name(enum gm_cap_type t);

/* CRC-32 (IEEE 802.3, reflected, as zlib's crc32) and FNV-1a 64. */
uint32_t gm_cap_crc32(uint32_t crc, const void *buf, size_t len);
uint64_t gm_cap_fnv64(const void *buf, size_t len);

/* ---- the writer: called by gm.c only ----------------------------------- */

struct gm_cap;

/* Create @path and write the header.  GM_OK, GM_ERR_IO, GM_ERR_NO_MEM. */
int gm_cap_create(const char *path, const struct gm_config *cfg, uint64_t cycle,
		  struct gm_cap **out);
/* Write the FINAL record and close.  GM_OK; GM_ERR_IO (a write failed);
 * GM_ERR_UNSUPPORTED (a gm_run_until condition touched the model, which a
 * capture cannot replay: see FORMAT.md).  NULL is GM_OK. */
int gm_cap_finish(struct gm_cap *c, uint64_t cycle, bool irq, uint64_t mem_hash);

/*
 * Hooks.  Each API call of gm.h calls gm_cap_enter() first (@run: it is
 * gm_step or a gm_run_until) and one record hook last; only the outermost call records (an aperture flush's register
 * accesses, a run's condition are inside it).  Cycles that pass between
 * recorded calls are written as a STEP before the next.  @c NULL: nothing.
 */
void gm_cap_enter(struct gm_cap *c, uint64_t cycle, bool run);
void gm_cap_reg(struct gm_cap *c, uint64_t cycle, bool write, uint32_t off, uint32_t val, int st);
void gm_cap_mem_write(struct gm_cap *c, uint64_t cycle, uint64_t addr, const void *buf,
		      size_t len, int st);
void gm_cap_mem_read(struct gm_cap *c, uint64_t cycle, uint64_t addr, const void *buf,
		     size_t len, int st);
void gm_cap_run(struct gm_cap *c, uint64_t cycle, enum gm_cap_run kind, int st);
void gm_cap_apt(struct gm_cap *c, uint64_t cycle, enum gm_cap_apt_op op, uint32_t off,
		const void *buf, size_t len, uint64_t val, uint8_t strb, int st);
void gm_cap_inject(struct gm_cap *c, uint64_t cycle, uint32_t id, uint64_t at_cycle, int st);
void gm_cap_mark(struct gm_cap *c, uint64_t cycle, uint32_t kind, const char *name);
void gm_cap_watch(struct gm_cap *c, uint64_t cycle, uint64_t addr, const char *name, int st);

#endif /* GM_CAPTURE_H */
