// SPDX-License-Identifier: MIT
/*
 * test_capture_bounds.c - cmocka unit tests for the bounds of a capture
 * (traces/FORMAT.md, "Bounds"; model/gm_capture_read.c checks them,
 * model/gm_capture.c never writes past them): hostile files with correct
 * checksums, each refused with GM_CAP_ERR_LIMIT at its record before the
 * parser hands that record out, the largest legal value of each accepted,
 * and the writer cutting long runs, uploads and reads into records that
 * stay inside.  No model.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "gm_capture.h"
#include "gpu_hw.h"
#include "tb_capfile.h"

/* ---- hostile but well-formed files -------------------------------------
 * Built here byte by byte from traces/FORMAT.md, not by the writer, with
 * zlib's crc32() as the checksum: an oracle independent of gm_cap_crc32.
 * Every checksum is right; what is wrong is a count, length or cycle past
 * the bounds of FORMAT.md ("Bounds"), which the parser refuses at that
 * record, before it hands the record out: a replay or a listing does no
 * work for it (no cycle run, no byte allocated). */

struct hostile {
	uint8_t b[512];
	size_t n;
};

static void le(uint8_t *p, uint64_t v, int bytes)
{
	for (int i = 0; i < bytes; i++)
		p[i] = (uint8_t)(v >> 8 * i);
}

static uint32_t zcrc(const uint8_t *p, size_t n)
{
	return (uint32_t)crc32(crc32(0L, Z_NULL, 0), p, (uInt)n);
}

/* A header: 256 MiB of VRAM and of system memory unless @vram/@sys, reset
 * @reset cycles, starting at cycle @reset. */
static void h_header(struct hostile *f, uint32_t reset, uint64_t vram, uint64_t sys)
{
	memset(f, 0, sizeof(*f));
	memcpy(f->b, "GPUSIMCP", 8);
	le(f->b + 8, 1, 4);          /* version */
	le(f->b + 12, 72, 4);        /* header bytes */
	le(f->b + 16, 2, 4);         /* captured on ref */
	le(f->b + 20, reset, 4);
	le(f->b + 24, vram, 8);
	le(f->b + 32, sys, 8);
	le(f->b + 40, 20, 4);
	le(f->b + 44, 60, 4);
	le(f->b + 48, 32, 4);
	le(f->b + 52, 16, 4);
	le(f->b + 56, 64, 4);
	le(f->b + 60, reset, 8);     /* start cycle: right after the reset */
	le(f->b + 68, zcrc(f->b, 68), 4);
	f->n = 72;
}

/* Append a record of @type with payload @p[0..n) and its checksum. */
static void h_rec(struct hostile *f, uint32_t type, const uint8_t *p, size_t n)
{
	uint8_t *r = f->b + f->n;

	assert_true(f->n + 12 + n <= sizeof(f->b));
	le(r, n, 4);
	le(r + 4, type, 4);
	memcpy(r + 8, p, n);
	le(r + 8 + n, zcrc(r, 8 + n), 4);
	f->n += 12 + n;
}

static void h_step(struct hostile *f, uint64_t cycles, uint64_t reached)
{
	uint8_t p[24] = { 0 };

	le(p + 8, cycles, 8);
	le(p + 16, reached, 8);
	h_rec(f, GM_CAP_STEP, p, sizeof(p));
}

/* A mem_write (or, @expect, a mem_expect) of @len bytes at @addr with
 * status @st; a write holds one sequence run covering it. */
static void h_mem(struct hostile *f, bool expect, uint64_t addr, uint64_t len, uint32_t st)
{
	uint8_t p[48] = { 0 };

	le(p, addr, 8);
	le(p + 8, len, 8);
	if (expect) {
		le(p + 24, st, 4);
		h_rec(f, GM_CAP_MEM_EXPECT, p, 40);
		return;
	}
	le(p + 16, st, 4);
	le(p + 20, 1, 4);                          /* one run */
	le(p + 24, 0, 4);                          /* at 0 */
	le(p + 28, len | GM_CAP_RUN_SEQ, 4);       /* a sequence of all of it */
	le(p + 32, 0x1000, 8);                     /* first */
	le(p + 40, 0x1000, 8);                     /* step */
	h_rec(f, GM_CAP_MEM_WRITE, p, 48);
}

static void h_apt(struct hostile *f, uint32_t op, uint32_t off, uint64_t len, uint32_t st)
{
	uint8_t p[36] = { 0 };

	le(p, op, 4);
	le(p + 4, st, 4);
	le(p + 8, off, 4);
	le(p + 16, len, 8);
	h_rec(f, GM_CAP_APT, p, sizeof(p));
}

static void h_final(struct hostile *f, uint64_t cycle)
{
	uint8_t p[24] = { 0 };

	le(p, cycle, 8);
	h_rec(f, GM_CAP_FINAL, p, sizeof(p));
}

/* Parse @f whole: GM_CAP_OK, or the error with the record it names, and how
 * many records were handed out before it (each one a replay would run). */
static enum gm_cap_err h_parse(const struct hostile *f, uint64_t *at, uint64_t *handed,
			       char *why, size_t n)
{
	struct gm_cap_reader r;
	struct gm_cap_header h;
	struct gm_cap_rec rec;
	enum gm_cap_err e = gm_cap_reader_init(&r, f->b, f->n, &h);

	*handed = 0;
	while (!e && !(e = gm_cap_next(&r, &rec)) && rec.type != GM_CAP_END)
		++*handed;
	*at = r.index;
	snprintf(why, n, "%s", r.why);
	return e;
}

/* Expect @f refused with GM_CAP_ERR_LIMIT at record @rec, saying @text,
 * every record before it handed out and that one not: a replay runs none
 * of its cycles and allocates none of its bytes. */
#define EXPECT_LIMIT(f, rec, text) expect_limit(&(f), rec, text, __LINE__)
static void expect_limit(const struct hostile *f, uint64_t rec, const char *text, int line)
{
	uint64_t at, handed;
	char why[192];
	enum gm_cap_err e = h_parse(f, &at, &handed, why, sizeof(why));

	if (e != GM_CAP_ERR_LIMIT || at != rec || handed != (rec ? rec - 1 : 0) ||
	    !strstr(why, text))
		fail_msg("line %d: %s at record %llu after %llu handed out (\"%s\"), expected "
			 "GM_CAP_ERR_LIMIT at record %llu saying \"%s\"", line, gm_cap_err_name(e),
			 (unsigned long long)at, (unsigned long long)handed, why,
			 (unsigned long long)rec, text);
}

/* Expect @f accepted whole: the largest legal values. */
static void expect_ok(const struct hostile *f, int line)
{
	uint64_t at, handed;
	char why[192];
	enum gm_cap_err e = h_parse(f, &at, &handed, why, sizeof(why));

	if (e != GM_CAP_OK)
		fail_msg("line %d: %s (\"%s\"), expected the file accepted", line,
			 gm_cap_err_name(e), why);
}
#define EXPECT_OK(f) expect_ok(&(f), __LINE__)

#define MIB (1ull << 20)

/* The header's bounds: the reset gm_create holds, the memory sizes. */
static void test_bounds_header(void **state)
{
	struct hostile f;

	(void)state;
	h_header(&f, 0xffffffffu, 256 * MIB, 256 * MIB);  /* would hold reset 2^32 cycles */
	EXPECT_LIMIT(f, 0, "reset_cycles 4294967295");
	h_header(&f, GM_MAX_RESET_CYCLES + 1, 256 * MIB, 256 * MIB);
	EXPECT_LIMIT(f, 0, "reset_cycles");
	h_header(&f, 0, 256 * MIB, 256 * MIB);
	EXPECT_LIMIT(f, 0, "reset_cycles 0");
	h_header(&f, GM_MAX_RESET_CYCLES, 256 * MIB, 256 * MIB);
	EXPECT_OK(f);
	h_header(&f, 4, GM_MAX_MEM_BYTES + 1, 256 * MIB);
	EXPECT_LIMIT(f, 0, "vram_bytes");
	h_header(&f, 4, 0, 256 * MIB);
	EXPECT_LIMIT(f, 0, "vram_bytes 0");
	h_header(&f, 4, 256 * MIB, GM_MAX_MEM_BYTES + 1);
	EXPECT_LIMIT(f, 0, "sys_bytes");
	h_header(&f, 4, GM_MAX_MEM_BYTES, GM_MAX_MEM_BYTES);
	EXPECT_OK(f);
}

/* Cycles: a step's length, its wrap, time running backwards. */
static void test_bounds_step(void **state)
{
	struct hostile f;

	(void)state;
	h_header(&f, 4, 256 * MIB, 256 * MIB);
	h_step(&f, 1ull << 40, 4 + (1ull << 40));           /* a 108-byte file */
	assert_int_equal(f.n, 108);
	EXPECT_LIMIT(f, 1, "step of 1099511627776 cycles");
	h_header(&f, 4, 256 * MIB, 256 * MIB);
	h_step(&f, UINT64_MAX, 3);                          /* 4 + (2^64 - 1) wraps to 3 */
	EXPECT_LIMIT(f, 1, "cycles");
	h_header(&f, 4, 256 * MIB, 256 * MIB);
	h_step(&f, GM_CAP_MAX_STEP_CYCLES + 1, 4 + GM_CAP_MAX_STEP_CYCLES + 1);
	EXPECT_LIMIT(f, 1, "cycles");
	h_header(&f, 4, 256 * MIB, 256 * MIB);
	h_step(&f, GM_CAP_MAX_STEP_CYCLES, 4 + GM_CAP_MAX_STEP_CYCLES);
	h_step(&f, 10, 14 + GM_CAP_MAX_STEP_CYCLES);
	h_final(&f, 14 + GM_CAP_MAX_STEP_CYCLES);
	EXPECT_OK(f);
	/* a step that starts before the capture, or before the last one ended */
	h_header(&f, 4, 256 * MIB, 256 * MIB);
	h_step(&f, 10, 12);
	EXPECT_LIMIT(f, 1, "before cycle 4");
	h_header(&f, 4, 256 * MIB, 256 * MIB);
	h_step(&f, 100, 104);
	h_step(&f, 100, 150);
	EXPECT_LIMIT(f, 2, "before cycle 104");
	h_header(&f, 4, 256 * MIB, 256 * MIB);
	h_step(&f, 100, 104);
	h_final(&f, 103);
	EXPECT_LIMIT(f, 2, "before cycle 104");
}

/* Lengths: uploads, reads of memory and of the aperture. */
static void test_bounds_length(void **state)
{
	struct hostile f;
	uint64_t sys = GPU_SYSMEM_BASE;

	(void)state;
	/* a 1 GiB sequence upload: past the largest upload, and past VRAM */
	h_header(&f, 4, 256 * MIB, 256 * MIB);
	h_mem(&f, false, 0, 1024 * MIB, GM_OK);
	EXPECT_LIMIT(f, 1, "1073741824 bytes");
	/* ...also with 1 TiB of VRAM */
	h_header(&f, 4, GM_MAX_MEM_BYTES, 256 * MIB);
	h_mem(&f, false, 0, 1024 * MIB, GM_OK);
	EXPECT_LIMIT(f, 1, "1073741824 bytes");
	h_header(&f, 4, GM_MAX_MEM_BYTES, 256 * MIB);
	h_mem(&f, false, 0, GM_CAP_MAX_UPLOAD + 8, GM_OK);
	EXPECT_LIMIT(f, 1, "bytes");
	h_header(&f, 4, GM_MAX_MEM_BYTES, 256 * MIB);
	h_mem(&f, false, 0, GM_CAP_MAX_UPLOAD, GM_OK);       /* the largest */
	h_mem(&f, false, sys + 256 * MIB - 64, 64, GM_OK);   /* the last bytes of system memory */
	EXPECT_OK(f);
	/* a successful upload outside the header's memory: the model cannot */
	h_header(&f, 4, 1 * MIB, 1 * MIB);
	h_mem(&f, false, 1 * MIB - 8, 16, GM_OK);
	EXPECT_LIMIT(f, 1, "outside");
	h_header(&f, 4, 1 * MIB, 1 * MIB);
	h_mem(&f, false, sys + 1 * MIB, 8, GM_OK);
	EXPECT_LIMIT(f, 1, "outside");
	/* ...a failed one may lie anywhere, but is no longer than the largest region */
	h_header(&f, 4, 1 * MIB, 2 * MIB);
	h_mem(&f, false, 1 * MIB - 8, 16, GM_ERR_ADDR);
	h_mem(&f, false, 0, 2 * MIB, GM_ERR_ADDR);
	EXPECT_OK(f);
	h_header(&f, 4, 1 * MIB, 2 * MIB);
	h_mem(&f, false, 0, 2 * MIB + 8, GM_ERR_ADDR);
	EXPECT_LIMIT(f, 1, "bytes");

	/* mem_expect: bounded as uploads are */
	h_header(&f, 4, 256 * MIB, 256 * MIB);
	h_mem(&f, true, 0, 1024 * MIB, GM_OK);
	EXPECT_LIMIT(f, 1, "1073741824 bytes");
	h_header(&f, 4, GM_MAX_MEM_BYTES, 256 * MIB);
	h_mem(&f, true, 0, GM_CAP_MAX_UPLOAD + 8, GM_ERR_ADDR);
	EXPECT_LIMIT(f, 1, "bytes");
	h_header(&f, 4, 1 * MIB, 1 * MIB);
	h_mem(&f, true, sys + 1 * MIB - 4, 8, GM_OK);
	EXPECT_LIMIT(f, 1, "outside");
	h_header(&f, 4, 1 * MIB, 1 * MIB);
	h_mem(&f, true, sys + 1 * MIB - 8, 8, GM_OK);
	h_mem(&f, true, 0, 1 * MIB, GM_OK);
	EXPECT_OK(f);

	/* the aperture: at most its window, and none for a call without bytes */
	h_header(&f, 4, 256 * MIB, 256 * MIB);
	h_apt(&f, GM_CAP_APT_READ, 0, 1024 * MIB, GM_ERR_BAD_ARG);
	EXPECT_LIMIT(f, 1, "1073741824 bytes");
	h_header(&f, 4, 256 * MIB, 256 * MIB);
	h_apt(&f, GM_CAP_APT_READ, 0, GPU_APT_WINDOW_BYTES + 8, GM_ERR_BAD_ARG);
	EXPECT_LIMIT(f, 1, "bytes");
	h_header(&f, 4, 256 * MIB, 256 * MIB);
	h_apt(&f, GM_CAP_APT_READ, 64, GPU_APT_WINDOW_BYTES - 32, GM_OK);  /* past the window */
	EXPECT_LIMIT(f, 1, "window");
	h_header(&f, 4, 256 * MIB, 256 * MIB);
	h_apt(&f, GM_CAP_APT_FLUSH, 0, 4096, GM_OK);
	EXPECT_LIMIT(f, 1, "bytes");
	h_header(&f, 4, 256 * MIB, 256 * MIB);
	h_apt(&f, GM_CAP_APT_READ, 64, GPU_APT_WINDOW_BYTES - 64, GM_OK);
	h_apt(&f, GM_CAP_APT_READ, 64, GPU_APT_WINDOW_BYTES, GM_ERR_BAD_ARG);
	EXPECT_OK(f);
}

/* The writer never writes what the parser refuses: a run longer than a step
 * may be and a successful upload or read longer than a record may cover are
 * cut into records that replay the same; a failed call past the bounds
 * cannot be held (GM_ERR_IO at close). */
static void test_bounds_writer(void **state)
{
	struct gm_config cfg = { GM_BACKEND_REF, 256 << 20, 256 << 20, 3, 4, 5, 6, 7, 4, false };
	size_t big = GM_CAP_MAX_UPLOAD + 100;
	uint8_t *up = calloc(1, big), *out = malloc(GM_CAP_MAX_UPLOAD);
	uint64_t c0 = 4, run = 2 * GM_CAP_MAX_STEP_CYCLES + 5;
	struct gm_cap *c = NULL;
	struct gm_cap_reader r;
	struct gm_cap_header h;
	struct gm_cap_rec rec;
	struct file f;

	(void)state;
	assert_non_null(up);
	assert_non_null(out);
	up[0] = 1;
	up[big - 1] = 2;
	assert_int_equal(gm_cap_create(path, &cfg, c0, &c), GM_OK);
	gm_cap_enter(c, c0, true);
	gm_cap_run(c, c0 + run, GM_CAP_RUN_UNTIL_IRQ, GM_ERR_TIMEOUT);
	gm_cap_enter(c, c0 + run, false);
	gm_cap_mem_write(c, c0 + run, 0x1000, up, big, GM_OK);
	gm_cap_enter(c, c0 + run, false);
	gm_cap_mem_read(c, c0 + run, 0x1000, up, big, GM_OK);
	assert_int_equal(gm_cap_finish(c, c0 + run, false, 0), GM_OK);
	f = slurp();
	assert_int_equal(gm_cap_reader_init(&r, f.b, f.n, &h), GM_CAP_OK);
	for (int i = 0; i < 3; i++) { /* two whole steps, then the wait's end */
		assert_int_equal(gm_cap_next(&r, &rec), GM_CAP_OK);
		assert_int_equal(rec.type, GM_CAP_STEP);
		assert_int_equal(rec.val, i < 2 ? GM_CAP_MAX_STEP_CYCLES : 5);
		assert_int_equal(rec.op, i < 2 ? GM_CAP_RUN_STEP : GM_CAP_RUN_UNTIL_IRQ);
		assert_int_equal(rec.status, i < 2 ? GM_OK : GM_ERR_TIMEOUT);
	}
	assert_int_equal(rec.cycle, c0 + run);
	for (int i = 0; i < 2; i++) { /* the upload in two parts */
		assert_int_equal(gm_cap_next(&r, &rec), GM_CAP_OK);
		assert_int_equal(rec.type, GM_CAP_MEM_WRITE);
		assert_int_equal(rec.addr, 0x1000 + (i ? GM_CAP_MAX_UPLOAD : 0));
		assert_int_equal(rec.len, i ? 100 : GM_CAP_MAX_UPLOAD);
		gm_cap_expand(&rec, out);
		assert_memory_equal(out, up + (i ? GM_CAP_MAX_UPLOAD : 0), rec.len);
	}
	for (int i = 0; i < 2; i++) { /* the read in two parts */
		assert_int_equal(gm_cap_next(&r, &rec), GM_CAP_OK);
		assert_int_equal(rec.type, GM_CAP_MEM_EXPECT);
		assert_int_equal(rec.len, i ? 100 : GM_CAP_MAX_UPLOAD);
		assert_int_equal(rec.hash, gm_cap_fnv64(up + (i ? GM_CAP_MAX_UPLOAD : 0), rec.len));
	}
	assert_int_equal(gm_cap_next(&r, &rec), GM_CAP_OK);
	assert_int_equal(rec.type, GM_CAP_FINAL);
	free(f.b);

	/* failed calls past the bounds: the capture cannot hold them */
	assert_int_equal(gm_cap_create(path, &cfg, c0, &c), GM_OK);
	gm_cap_enter(c, c0, false);
	gm_cap_mem_write(c, c0, 0, up, big, GM_ERR_ADDR);
	assert_int_equal(gm_cap_finish(c, c0, false, 0), GM_ERR_IO);
	assert_int_equal(gm_cap_create(path, &cfg, c0, &c), GM_OK);
	gm_cap_enter(c, c0, false);
	gm_cap_mem_read(c, c0, 0, NULL, big, GM_ERR_ADDR);
	assert_int_equal(gm_cap_finish(c, c0, false, 0), GM_ERR_IO);
	assert_int_equal(gm_cap_create(path, &cfg, c0, &c), GM_OK);
	gm_cap_enter(c, c0, false);
	gm_cap_apt(c, c0, GM_CAP_APT_READ, 0, NULL, GPU_APT_WINDOW_BYTES + 1, 0, 0, GM_ERR_BAD_ARG);
	assert_int_equal(gm_cap_finish(c, c0, false, 0), GM_ERR_IO);
	free(out);
	free(up);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bounds_header),
		cmocka_unit_test(test_bounds_step),
		cmocka_unit_test(test_bounds_length),
		cmocka_unit_test_setup_teardown(test_bounds_writer, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
