// SPDX-License-Identifier: MIT
/*
 * test_capture.c - cmocka unit tests for the capture format
 * (model/gm_capture.c writes, model/gm_capture_read.c parses;
 * traces/FORMAT.md): a round trip of every record type through the
 * writer's hooks, the upload runs on random buffers (seeded: tb_seed.h),
 * and each error the parser documents from the damage that causes it
 * (truncation mid-record, a flipped byte, an unknown type, a malformed
 * payload, a future version, a bad magic), and the waveform's markers and
 * watches.  No model: the hooks are called as gm.c calls them.
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

#include "gm_capture.h"
#include "tb_seed.h"
#include "tb_capfile.h"

static struct gm_cap *open_cap(uint64_t cycle)
{
	struct gm_config cfg = { GM_BACKEND_REF, 1 << 20, 2 << 20, 3, 4, 5, 6, 7, 8, false };
	struct gm_cap *c = NULL;

	assert_int_equal(gm_cap_create(path, &cfg, cycle, &c), GM_OK);
	return c;
}

/* A capture with one record of each kind, as gm.c's hooks write them. */
static void write_sample(void)
{
	struct gm_cap *c = open_cap(4);
	uint8_t up[200] = { 0 }, word[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };

	for (int i = 0; i < 40; i++)
		up[100 + i] = (uint8_t)(i + 1);
	gm_cap_enter(c, 4, false);
	gm_cap_mem_write(c, 4, 0x1000, up, sizeof(up), GM_OK);            /* 1 */
	gm_cap_enter(c, 4, false);
	gm_cap_reg(c, 6, true, 0x110, 0x20, GM_OK);                        /* 2 */
	gm_cap_enter(c, 6, false);
	gm_cap_reg(c, 8, false, 0x120, 0xabcd, GM_ERR_ADDR);               /* 3 */
	gm_cap_enter(c, 8, true);
	gm_cap_enter(c, 8, false);   /* a condition's backdoor read: inside the run */
	gm_cap_mem_read(c, 8, 0x1000, up, 8, GM_OK);
	gm_cap_run(c, 108, GM_CAP_RUN_UNTIL_IRQ, GM_ERR_TIMEOUT);          /* 4 */
	gm_cap_enter(c, 110, false);                                       /* 5: step of 2 */
	gm_cap_mem_read(c, 110, 0x2000, word, 8, GM_OK);                   /* 6 */
	gm_cap_enter(c, 110, false);
	gm_cap_apt(c, 120, GM_CAP_APT_WRITE, 0x40, up, sizeof(up), 0, 0, GM_OK); /* 7 */
	gm_cap_enter(c, 120, false);
	gm_cap_inject(c, 120, 0xe0, 500, GM_OK);                          /* 8 */
	assert_int_equal(gm_cap_finish(c, 130, true, 0x1234), GM_OK);     /* 9: step, 10: final */
}

static void test_round_trip(void **state)
{
	struct file f;
	struct gm_cap_reader r;
	struct gm_cap_header h;
	struct gm_cap_rec rec;
	uint8_t out[200], up[200] = { 0 };

	(void)state;
	for (int i = 0; i < 40; i++)
		up[100 + i] = (uint8_t)(i + 1);
	write_sample();
	f = slurp();
	assert_int_equal(gm_cap_reader_init(&r, f.b, f.n, &h), GM_CAP_OK);
	assert_int_equal(h.version, GM_CAP_VERSION);
	assert_int_equal(h.cfg.backend, GM_BACKEND_REF);
	assert_int_equal(h.cfg.vram_bytes, 1 << 20);
	assert_int_equal(h.cfg.sys_bytes, 2 << 20);
	assert_int_equal(h.cfg.vram_latency_cycles, 3);
	assert_int_equal(h.cfg.max_outstanding, 7);
	assert_int_equal(h.cfg.reset_cycles, 8);
	assert_int_equal(h.start_cycle, 4);

	assert_int_equal(gm_cap_next(&r, &rec), GM_CAP_OK);
	assert_int_equal(rec.type, GM_CAP_MEM_WRITE);
	assert_int_equal(rec.index, 1);
	assert_int_equal(rec.offset, GM_CAP_HEADER_BYTES);
	assert_int_equal(rec.addr, 0x1000);
	assert_int_equal(rec.len, 200);
	assert_int_equal(rec.nchunks, 1);
	gm_cap_expand(&rec, out);
	assert_memory_equal(out, up, sizeof(up));

	assert_int_equal(gm_cap_next(&r, &rec), GM_CAP_OK);
	assert_int_equal(rec.type, GM_CAP_REG_WRITE);
	assert_int_equal(rec.off, 0x110);
	assert_int_equal(rec.val, 0x20);
	assert_int_equal(gm_cap_next(&r, &rec), GM_CAP_OK);
	assert_int_equal(rec.type, GM_CAP_REG_READ);
	assert_int_equal(rec.val, 0xabcd);
	assert_int_equal(rec.status, GM_ERR_ADDR);

	/* the run, its condition's read folded into it */
	assert_int_equal(gm_cap_next(&r, &rec), GM_CAP_OK);
	assert_int_equal(rec.type, GM_CAP_STEP);
	assert_int_equal(rec.op, GM_CAP_RUN_UNTIL_IRQ);
	assert_int_equal(rec.val, 100);
	assert_int_equal(rec.cycle, 108);
	assert_int_equal(rec.status, GM_ERR_TIMEOUT);
	/* cycles between records */
	assert_int_equal(gm_cap_next(&r, &rec), GM_CAP_OK);
	assert_int_equal(rec.type, GM_CAP_STEP);
	assert_int_equal(rec.op, GM_CAP_RUN_STEP);
	assert_int_equal(rec.val, 2);
	assert_int_equal(rec.cycle, 110);

	assert_int_equal(gm_cap_next(&r, &rec), GM_CAP_OK);
	assert_int_equal(rec.type, GM_CAP_MEM_EXPECT);
	assert_int_equal(rec.addr, 0x2000);
	assert_int_equal(rec.len, 8);
	assert_int_equal(rec.val, 0x0807060504030201ull);
	assert_int_equal(rec.hash, gm_cap_fnv64((const uint8_t[]){ 1, 2, 3, 4, 5, 6, 7, 8 }, 8));

	assert_int_equal(gm_cap_next(&r, &rec), GM_CAP_OK);
	assert_int_equal(rec.type, GM_CAP_APT);
	assert_int_equal(rec.op, GM_CAP_APT_WRITE);
	assert_int_equal(rec.off, 0x40);
	assert_int_equal(rec.len, 200);
	gm_cap_expand(&rec, out);
	assert_memory_equal(out, up, sizeof(up));

	assert_int_equal(gm_cap_next(&r, &rec), GM_CAP_OK);
	assert_int_equal(rec.type, GM_CAP_INJECT);
	assert_int_equal(rec.val, 0xe0);
	assert_int_equal(rec.cycle, 500);

	assert_int_equal(gm_cap_next(&r, &rec), GM_CAP_OK);
	assert_int_equal(rec.type, GM_CAP_STEP);
	assert_int_equal(rec.val, 10);
	assert_int_equal(gm_cap_next(&r, &rec), GM_CAP_OK);
	assert_int_equal(rec.type, GM_CAP_FINAL);
	assert_int_equal(rec.cycle, 130);
	assert_int_equal(rec.irq, 1);
	assert_int_equal(rec.hash, 0x1234);
	assert_int_equal(gm_cap_next(&r, &rec), GM_CAP_OK);
	assert_int_equal(rec.type, GM_CAP_END);
	assert_int_equal(rec.index, 11);
	free(f.b);
}

/* Random uploads of zeros, sequences and noise expand to what was written. */
static void test_runs_random(void **state)
{
	uint64_t seed = tb_seed("tests/test_capture"), rng = seed;
	static uint8_t buf[65536], out[65536];

	(void)state;
	for (int round = 0; round < 50; round++) {
		size_t len = 1 + tb_rand(&rng) % sizeof(buf), i = 0;
		struct gm_cap *c = open_cap(0);
		struct gm_cap_reader r;
		struct gm_cap_header h;
		struct gm_cap_rec rec;
		struct file f;

		while (i < len) {
			size_t n = 1 + tb_rand(&rng) % 300, kind = tb_rand(&rng) % 3;
			uint64_t v = tb_rand(&rng), step = tb_rand(&rng) % 4 ? 0x1000 : 0;

			for (size_t k = 0; k < n && i < len; k++, i++) {
				if (kind == 0)
					buf[i] = 0;
				else if (kind == 1)
					buf[i] = (uint8_t)tb_rand(&rng);
				else
					buf[i] = (uint8_t)((v + (k / 8) * step) >> 8 * (k % 8));
			}
		}
		gm_cap_enter(c, 0, false);
		gm_cap_mem_write(c, 0, 0x40, buf, len, GM_OK);
		assert_int_equal(gm_cap_finish(c, 0, false, 0), GM_OK);
		f = slurp();
		assert_int_equal(gm_cap_reader_init(&r, f.b, f.n, &h), GM_CAP_OK);
		assert_int_equal(gm_cap_next(&r, &rec), GM_CAP_OK);
		assert_int_equal(rec.len, len);
		memset(out, 0xa5, sizeof(out));
		gm_cap_expand(&rec, out);
		if (memcmp(out, buf, len))
			fail_msg("round %d: %zu bytes do not expand back; seed %llu", round, len,
				 (unsigned long long)seed);
		free(f.b);
	}
}

/* Parse @f to its end: the first error, *at its record number. */
static enum gm_cap_err parse_all(const struct file *f, uint64_t *at, char *why, size_t n)
{
	struct gm_cap_reader r;
	struct gm_cap_header h;
	struct gm_cap_rec rec;
	enum gm_cap_err e = gm_cap_reader_init(&r, f->b, f->n, &h);

	while (!e && !(e = gm_cap_next(&r, &rec)) && rec.type != GM_CAP_END)
		;
	*at = r.index;
	snprintf(why, n, "%s", r.why);
	if (e) /* sticky: the same error again */
		assert_int_equal(gm_cap_next(&r, &rec), e);
	return e;
}

/* Fix the CRC of the record at @off of @f after changing its bytes. */
static void fix_crc(struct file *f, size_t off)
{
	uint32_t n = (uint32_t)f->b[off] | (uint32_t)f->b[off + 1] << 8 |
		     (uint32_t)f->b[off + 2] << 16 | (uint32_t)f->b[off + 3] << 24;
	uint32_t crc = gm_cap_crc32(0, f->b + off, 8 + n);

	for (int i = 0; i < 4; i++)
		f->b[off + 8 + n + i] = (uint8_t)(crc >> 8 * i);
}

static void test_corruption(void **state)
{
	/* record 1 (the upload) starts at 72; record 2 at 72 + 12 + its payload */
	struct file f, g;
	uint64_t at;
	char why[192];
	size_t rec2;

	(void)state;
	write_sample();
	f = slurp();
	g.b = malloc(f.n);
	assert_non_null(g.b);
	rec2 = GM_CAP_HEADER_BYTES + 12 + (f.b[72] | f.b[73] << 8);

	/* intact */
	g.n = f.n;
	memcpy(g.b, f.b, f.n);
	assert_int_equal(parse_all(&g, &at, why, sizeof(why)), GM_CAP_OK);

	/* truncation at every byte inside record 2: that record, truncated */
	for (size_t cut = rec2 + 1; cut < rec2 + 24; cut++) {
		g.n = cut;
		assert_int_equal(parse_all(&g, &at, why, sizeof(why)), GM_CAP_ERR_TRUNCATED);
		assert_int_equal(at, 2);
		assert_non_null(strstr(why, "record 2 at byte"));
	}
	/* truncation in the header */
	g.n = 30;
	assert_int_equal(parse_all(&g, &at, why, sizeof(why)), GM_CAP_ERR_TRUNCATED);
	assert_non_null(strstr(why, "record 0"));

	/* every single flipped byte of record 2: a checksum error there (its
	 * length flipped may instead run past the end: truncated, or be too big) */
	g.n = f.n;
	for (size_t b = rec2; b < rec2 + 24; b++) {
		enum gm_cap_err e;

		memcpy(g.b, f.b, f.n);
		g.b[b] ^= 0x10;
		e = parse_all(&g, &at, why, sizeof(why));
		assert_int_equal(at, 2);
		if (b >= rec2 + 4)
			assert_int_equal(e, GM_CAP_ERR_CRC);
		else
			assert_true(e == GM_CAP_ERR_CRC || e == GM_CAP_ERR_TRUNCATED ||
				    e == GM_CAP_ERR_PAYLOAD);
	}

	/* an unknown type with a correct checksum */
	memcpy(g.b, f.b, f.n);
	g.b[rec2 + 4] = 99;
	fix_crc(&g, rec2);
	assert_int_equal(parse_all(&g, &at, why, sizeof(why)), GM_CAP_ERR_TYPE);
	assert_int_equal(at, 2);
	assert_non_null(strstr(why, "unknown record type 99"));

	/* a known type whose payload does not fit it */
	memcpy(g.b, f.b, f.n);
	g.b[rec2 + 4] = GM_CAP_STEP;
	fix_crc(&g, rec2);
	assert_int_equal(parse_all(&g, &at, why, sizeof(why)), GM_CAP_ERR_PAYLOAD);
	assert_int_equal(at, 2);

	/* an upload run past the upload's end (record 1's first run offset) */
	memcpy(g.b, f.b, f.n);
	g.b[72 + 8 + 24] = 0xff;
	fix_crc(&g, 72);
	assert_int_equal(parse_all(&g, &at, why, sizeof(why)), GM_CAP_ERR_PAYLOAD);
	assert_int_equal(at, 1);

	/* a version from the future, however the header's checksum reads */
	memcpy(g.b, f.b, f.n);
	g.b[8] = GM_CAP_VERSION + 1;
	assert_int_equal(parse_all(&g, &at, why, sizeof(why)), GM_CAP_ERR_VERSION);
	assert_int_equal(at, 0);
	g.b[8] = 0;
	assert_int_equal(parse_all(&g, &at, why, sizeof(why)), GM_CAP_ERR_VERSION);

	/* a header byte changed */
	memcpy(g.b, f.b, f.n);
	g.b[30] ^= 1;
	assert_int_equal(parse_all(&g, &at, why, sizeof(why)), GM_CAP_ERR_CRC);
	assert_int_equal(at, 0);

	/* not a capture */
	memcpy(g.b, f.b, f.n);
	g.b[0] = 'X';
	assert_int_equal(parse_all(&g, &at, why, sizeof(why)), GM_CAP_ERR_MAGIC);
	g.n = 3; /* a prefix of another file */
	assert_int_equal(parse_all(&g, &at, why, sizeof(why)), GM_CAP_ERR_MAGIC);
	g.n = 0;
	assert_int_equal(parse_all(&g, &at, why, sizeof(why)), GM_CAP_ERR_TRUNCATED);
	free(g.b);
	free(f.b);
}

/* A run's condition that touches the model cannot be replayed: said at close. */
/* gm_wave_mark and gm_wave_watch: their kind, address, status and name
 * (cut at GM_CAP_MAX_NAME bytes) round trip; a name length that does not
 * fill the payload, or an unknown kind, is GM_CAP_ERR_PAYLOAD. */
static void test_marks(void **state)
{
	struct gm_cap *c = open_cap(4);
	char long_name[100];
	struct gm_cap_reader r;
	struct gm_cap_header h;
	struct gm_cap_rec rec;
	struct file f;
	uint64_t at;
	char why[192];
	size_t rec1 = GM_CAP_HEADER_BYTES;

	(void)state;
	memset(long_name, 'x', sizeof(long_name) - 1);
	long_name[sizeof(long_name) - 1] = 0;
	gm_cap_enter(c, 4, false);
	gm_cap_mark(c, 4, GM_MARK_NOTE, "TDR (timeout)");
	gm_cap_enter(c, 4, false);
	gm_cap_watch(c, 4, 0x1020, "fence q0", GM_OK);
	gm_cap_enter(c, 4, false);
	gm_cap_watch(c, 4, 0x1028, "fence q9", GM_ERR_FULL);
	gm_cap_enter(c, 4, false);
	gm_cap_mark(c, 4, GM_MARK_ERROR, long_name);
	assert_int_equal(gm_cap_finish(c, 10, false, 0), GM_OK);
	f = slurp();
	assert_int_equal(gm_cap_reader_init(&r, f.b, f.n, &h), GM_CAP_OK);
	assert_int_equal(gm_cap_next(&r, &rec), GM_CAP_OK);
	assert_int_equal(rec.type, GM_CAP_MARK);
	assert_int_equal(rec.op, GM_MARK_NOTE);
	assert_int_equal(rec.name_len, 13);
	assert_memory_equal(rec.name, "TDR (timeout)", 13);
	assert_int_equal(gm_cap_next(&r, &rec), GM_CAP_OK);
	assert_int_equal(rec.type, GM_CAP_WATCH);
	assert_int_equal(rec.addr, 0x1020);
	assert_int_equal(rec.status, GM_OK);
	assert_int_equal(rec.name_len, 8);
	assert_memory_equal(rec.name, "fence q0", 8);
	assert_int_equal(gm_cap_next(&r, &rec), GM_CAP_OK);
	assert_int_equal(rec.status, GM_ERR_FULL);
	assert_int_equal(gm_cap_next(&r, &rec), GM_CAP_OK);
	assert_int_equal(rec.op, GM_MARK_ERROR);
	assert_int_equal(rec.name_len, GM_CAP_MAX_NAME);
	assert_int_equal(gm_cap_next(&r, &rec), GM_CAP_OK);
	assert_int_equal(rec.type, GM_CAP_STEP);
	assert_int_equal(gm_cap_next(&r, &rec), GM_CAP_OK);
	assert_int_equal(rec.type, GM_CAP_FINAL);
	assert_string_equal(gm_cap_type_name(GM_CAP_MARK), "mark");
	assert_string_equal(gm_cap_type_name(GM_CAP_WATCH), "watch");

	f.b[rec1 + 8 + 4]++; /* the mark's name length */
	fix_crc(&f, rec1);
	assert_int_equal(parse_all(&f, &at, why, sizeof(why)), GM_CAP_ERR_PAYLOAD);
	assert_int_equal(at, 1);
	assert_non_null(strstr(why, "mark payload of 21 bytes"));
	f.b[rec1 + 8 + 4]--;
	f.b[rec1 + 8] = 7; /* the mark's kind */
	fix_crc(&f, rec1);
	assert_int_equal(parse_all(&f, &at, why, sizeof(why)), GM_CAP_ERR_PAYLOAD);
	free(f.b);
}

static void test_inexact(void **state)
{
	struct gm_cap *c = open_cap(0);

	(void)state;
	gm_cap_enter(c, 0, true);
	gm_cap_enter(c, 5, false);
	gm_cap_reg(c, 7, false, 0x10, 0, GM_OK); /* a register read inside: 2 cycles */
	gm_cap_run(c, 20, GM_CAP_RUN_UNTIL, GM_OK);
	assert_int_equal(gm_cap_finish(c, 20, false, 0), GM_ERR_UNSUPPORTED);
	/* an aperture call's own register accesses are fine */
	c = open_cap(0);
	gm_cap_enter(c, 0, false);
	gm_cap_enter(c, 0, false);
	gm_cap_reg(c, 2, true, 0x860, 1, GM_OK);
	gm_cap_apt(c, 2, GM_CAP_APT_FLUSH, 0, NULL, 0, 0, 0, GM_OK);
	assert_int_equal(gm_cap_finish(c, 2, false, 0), GM_OK);
	assert_int_equal(gm_cap_finish(NULL, 0, false, 0), GM_OK);
}

static void test_names(void **state)
{
	(void)state;
	assert_string_equal(gm_cap_err_name(GM_CAP_ERR_CRC), "GM_CAP_ERR_CRC");
	assert_string_equal(gm_cap_err_name(GM_CAP_ERR_COUNT), "GM_CAP_ERR_?");
	assert_string_equal(gm_cap_type_name(GM_CAP_FINAL), "final");
	/* the CRC is zlib's: crc32("123456789") = 0xcbf43926 */
	assert_int_equal(gm_cap_crc32(0, "123456789", 9), 0xcbf43926u);
	/* FNV-1a 64 of "a" */
	assert_int_equal(gm_cap_fnv64("a", 1), 0xaf63dc4c8601ec8cull);
	assert_int_equal(gm_cap_create("/nonexistent/x.gcap", &(struct gm_config){ 0 }, 0,
				       &(struct gm_cap *){ NULL }), GM_ERR_IO);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_round_trip, setup, teardown),
		cmocka_unit_test_setup_teardown(test_runs_random, setup, teardown),
		cmocka_unit_test_setup_teardown(test_corruption, setup, teardown),
		cmocka_unit_test_setup_teardown(test_inexact, setup, teardown),
		cmocka_unit_test_setup_teardown(test_marks, setup, teardown),
		cmocka_unit_test(test_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
