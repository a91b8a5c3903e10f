// SPDX-License-Identifier: MIT
/*
 * test_gm_mem.c - cmocka unit tests for the memory model (model/gm_mem.c).
 *
 * Build and run:
 *   gcc -std=c11 -Wall -Wextra -Werror -O1 -g -fsanitize=address,undefined \
 *       -Imodel model/gm_mem.c tb/unit/test_gm_mem.c -lcmocka -o /tmp/test_gm_mem
 *   /tmp/test_gm_mem
 *
 * Every test is deterministic; cycle numbers and byte counts are exact.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "gm_mem.h"

#define KIB 1024ull
#define GIB (1024ull * 1024 * 1024)
#define TIB (1024ull * GIB)
#define PAGE 4096ull

#define VRAM_BASE 0x0ull
#define VRAM_SIZE (1 * GIB)
#define SYS_BASE 0x100000000ull
#define SYS_SIZE (1 * GIB)

/* A small valid config: 32-byte beats, one beat per cycle on both buses. */
static struct gm_mem_cfg base_cfg(void)
{
	struct gm_mem_cfg c = {
		.vram = { VRAM_BASE, VRAM_SIZE, 10, 32 },
		.sys = { SYS_BASE, SYS_SIZE, 40, 32 },
		.beat_bytes = 32,
		.max_outstanding = 16,
	};
	return c;
}

static struct gm_mem *make(const struct gm_mem_cfg *c)
{
	struct gm_mem *m = NULL;

	assert_int_equal(gm_mem_create(c, &m), GM_OK);
	assert_non_null(m);
	return m;
}

static struct gm_mem_stats stats(const struct gm_mem *m)
{
	struct gm_mem_stats st;

	gm_mem_get_stats(m, &st);
	return st;
}

static struct gm_mem_req rd_req(uint32_t id, uint64_t addr)
{
	struct gm_mem_req r;

	memset(&r, 0, sizeof(r));
	r.id = id;
	r.addr = addr;
	return r;
}

/* A full-beat write whose byte i is @fill + i. */
static struct gm_mem_req wr_req(uint32_t id, uint64_t addr, uint8_t fill, uint64_t wstrb)
{
	struct gm_mem_req r = rd_req(id, addr);
	unsigned int i;

	r.write = true;
	r.wstrb = wstrb;
	for (i = 0; i < GM_MEM_MAX_BEAT; i++)
		r.wdata[i] = (uint8_t)(fill + i);
	return r;
}

static void submit(struct gm_mem *m, uint64_t now, struct gm_mem_req r)
{
	assert_int_equal(gm_mem_request(m, now, &r), GM_OK);
}

/* Pop one response at @now, which must exist, and return it. */
static struct gm_mem_rsp pop(struct gm_mem *m, uint64_t now)
{
	struct gm_mem_rsp rsp;

	assert_true(gm_mem_response(m, now, &rsp));
	return rsp;
}

static void assert_zero(const uint8_t *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (p[i]) {
			print_error("byte %zu is 0x%02x, want 0\n", i, p[i]);
			fail();
		}
}

/* ---- gm_mem_create -------------------------------------------------------- */

enum cfg_edit {
	E_BEAT, E_MAXOUT, E_VRAM_BASE, E_VRAM_SIZE, E_VRAM_LAT, E_VRAM_BPC,
	E_SYS_BASE, E_SYS_SIZE, E_SYS_LAT, E_SYS_BPC,
};

struct cfg_case {
	const char *name;
	enum cfg_edit field;
	uint64_t value;
	int want;
};

static void apply(struct gm_mem_cfg *c, enum cfg_edit f, uint64_t v)
{
	switch (f) {
	case E_BEAT: c->beat_bytes = (uint32_t)v; break;
	case E_MAXOUT: c->max_outstanding = (uint32_t)v; break;
	case E_VRAM_BASE: c->vram.base = v; break;
	case E_VRAM_SIZE: c->vram.size = v; break;
	case E_VRAM_LAT: c->vram.latency_cycles = (uint32_t)v; break;
	case E_VRAM_BPC: c->vram.bytes_per_cycle = (uint32_t)v; break;
	case E_SYS_BASE: c->sys.base = v; break;
	case E_SYS_SIZE: c->sys.size = v; break;
	case E_SYS_LAT: c->sys.latency_cycles = (uint32_t)v; break;
	case E_SYS_BPC: c->sys.bytes_per_cycle = (uint32_t)v; break;
	}
}

static void run_cfg_cases(const struct cfg_case *tc, size_t n)
{
	struct gm_mem *const sentinel = (struct gm_mem *)&n;
	size_t i;

	for (i = 0; i < n; i++) {
		struct gm_mem_cfg c = base_cfg();
		struct gm_mem *m = sentinel;
		int ret;

		apply(&c, tc[i].field, tc[i].value);
		ret = gm_mem_create(&c, &m);
		if (ret != tc[i].want) {
			print_error("case '%s': got %d, want %d\n", tc[i].name, ret, tc[i].want);
			fail();
		}
		if (tc[i].want != GM_OK) {
			assert_ptr_equal(m, sentinel);
		} else {
			assert_ptr_not_equal(m, sentinel);
			gm_mem_destroy(m);
		}
	}
}

static void test_create_bad_cfg(void **state)
{
	static const struct cfg_case tc[] = {
		{ "beat 0", E_BEAT, 0, GM_ERR_BAD_ARG },
		{ "beat 2", E_BEAT, 2, GM_ERR_BAD_ARG },
		{ "beat 3", E_BEAT, 3, GM_ERR_BAD_ARG },
		{ "beat 12 not pow2", E_BEAT, 12, GM_ERR_BAD_ARG },
		{ "beat 48 not pow2", E_BEAT, 48, GM_ERR_BAD_ARG },
		{ "beat max+1", E_BEAT, GM_MEM_MAX_BEAT + 1, GM_ERR_BAD_ARG },
		{ "beat 2*max", E_BEAT, 2 * GM_MEM_MAX_BEAT, GM_ERR_BAD_ARG },
		{ "max_out 0", E_MAXOUT, 0, GM_ERR_BAD_ARG },
		{ "max_out 4097", E_MAXOUT, 4097, GM_ERR_BAD_ARG },
		{ "max_out huge", E_MAXOUT, UINT32_MAX, GM_ERR_BAD_ARG },
		{ "vram lat 0", E_VRAM_LAT, 0, GM_ERR_BAD_ARG },
		{ "vram bpc 0", E_VRAM_BPC, 0, GM_ERR_BAD_ARG },
		{ "sys lat 0", E_SYS_LAT, 0, GM_ERR_BAD_ARG },
		{ "sys bpc 0", E_SYS_BPC, 0, GM_ERR_BAD_ARG },
		{ "sys overlaps vram last byte", E_SYS_BASE, VRAM_BASE + VRAM_SIZE - 1, GM_ERR_BAD_ARG },
		{ "sys at vram base", E_SYS_BASE, VRAM_BASE, GM_ERR_BAD_ARG },
		{ "vram covers sys start", E_VRAM_SIZE, SYS_BASE + 1, GM_ERR_BAD_ARG },
		{ "vram inside sys", E_VRAM_BASE, SYS_BASE + PAGE, GM_ERR_BAD_ARG },
		{ "sys end overflows", E_SYS_SIZE, UINT64_MAX - SYS_BASE + 1, GM_ERR_BAD_ARG },
		{ "sys size max", E_SYS_SIZE, UINT64_MAX, GM_ERR_BAD_ARG },
	};

	(void)state;
	run_cfg_cases(tc, sizeof(tc) / sizeof(tc[0]));
}

/* The passing side of each boundary above. */
static void test_create_edge_ok(void **state)
{
	static const struct cfg_case tc[] = {
		{ "beat 4", E_BEAT, 4, GM_OK },
		{ "beat 8", E_BEAT, 8, GM_OK },
		{ "beat max", E_BEAT, GM_MEM_MAX_BEAT, GM_OK },
		{ "max_out 1", E_MAXOUT, 1, GM_OK },
		{ "max_out 4096", E_MAXOUT, 4096, GM_OK },
		{ "sys adjacent to vram", E_SYS_BASE, VRAM_BASE + VRAM_SIZE, GM_OK },
		{ "vram up to sys base", E_VRAM_SIZE, SYS_BASE, GM_OK },
		{ "sys ends at UINT64_MAX", E_SYS_SIZE, UINT64_MAX - SYS_BASE, GM_OK },
		{ "vram disabled", E_VRAM_SIZE, 0, GM_OK },
		{ "sys disabled", E_SYS_SIZE, 0, GM_OK },
		{ "bpc 1", E_VRAM_BPC, 1, GM_OK },
		{ "bpc huge", E_VRAM_BPC, UINT32_MAX, GM_OK },
	};

	(void)state;
	run_cfg_cases(tc, sizeof(tc) / sizeof(tc[0]));
}

/* A disabled region's timing fields are not checked, and it overlaps nothing. */
static void test_create_disabled_region_ignored(void **state)
{
	struct gm_mem_cfg c = base_cfg();
	uint8_t b = 1;
	struct gm_mem *m;

	(void)state;
	c.sys.size = 0;
	c.sys.base = VRAM_BASE;
	c.sys.latency_cycles = 0;
	c.sys.bytes_per_cycle = 0;
	m = make(&c);
	assert_int_equal(gm_mem_write(m, SYS_BASE, &b, 1), GM_ERR_ADDR);
	assert_int_equal(gm_mem_write(m, VRAM_BASE, &b, 1), GM_OK);
	gm_mem_destroy(m);
}

static void test_create_null(void **state)
{
	struct gm_mem_cfg c = base_cfg();
	struct gm_mem *m = (struct gm_mem *)&c;

	(void)state;
	assert_int_equal(gm_mem_create(NULL, &m), GM_ERR_BAD_ARG);
	assert_ptr_equal(m, (struct gm_mem *)&c);
	assert_int_equal(gm_mem_create(&c, NULL), GM_ERR_BAD_ARG);
	gm_mem_destroy(NULL);
}

static void test_create_fresh_state(void **state)
{
	struct gm_mem_cfg c = base_cfg();
	struct gm_mem *m = make(&c);
	struct gm_mem_stats st = stats(m);
	struct gm_mem_rsp rsp;

	(void)state;
	assert_int_equal(st.vram.rd_bytes + st.vram.wr_bytes + st.vram.rd_reqs +
			 st.vram.wr_reqs + st.vram.pages, 0);
	assert_int_equal(st.sys.rd_bytes + st.sys.wr_bytes + st.sys.rd_reqs +
			 st.sys.wr_reqs + st.sys.pages, 0);
	assert_int_equal(st.err_reqs + st.busy_cycles + st.occupancy_sum +
			 st.max_occupancy + st.stall_cycles + st.ticks, 0);
	assert_int_equal(gm_mem_outstanding(m), 0);
	assert_true(gm_mem_can_accept(m));
	assert_false(gm_mem_response(m, UINT64_MAX, &rsp));
	gm_mem_destroy(m);
}

/* ---- backdoor ------------------------------------------------------------- */

static void test_backdoor_page_crossing(void **state)
{
	struct gm_mem_cfg c = base_cfg();
	struct gm_mem *m = make(&c);
	uint8_t wbuf[3 * PAGE], rbuf[3 * PAGE + 2];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(wbuf); i++)
		wbuf[i] = (uint8_t)(i * 7 + 3);

	/* 100 bytes straddling the first page boundary: two pages. */
	assert_int_equal(gm_mem_write(m, PAGE - 50, wbuf, 100), GM_OK);
	assert_int_equal(stats(m).vram.pages, 2);
	memset(rbuf, 0xaa, sizeof(rbuf));
	assert_int_equal(gm_mem_read(m, PAGE - 51, rbuf, 102), GM_OK);
	assert_int_equal(rbuf[0], 0);
	assert_memory_equal(rbuf + 1, wbuf, 100);
	assert_int_equal(rbuf[101], 0);

	/* Unaligned, longer than two pages: touches four pages in sys. */
	assert_int_equal(gm_mem_write(m, SYS_BASE + 10 * PAGE + 1, wbuf, sizeof(wbuf)), GM_OK);
	assert_int_equal(stats(m).sys.pages, 4);
	memset(rbuf, 0xaa, sizeof(rbuf));
	assert_int_equal(gm_mem_read(m, SYS_BASE + 10 * PAGE, rbuf, sizeof(rbuf)), GM_OK);
	assert_int_equal(rbuf[0], 0);
	assert_memory_equal(rbuf + 1, wbuf, sizeof(wbuf));
	assert_int_equal(rbuf[sizeof(rbuf) - 1], 0);

	/* Overwrite a middle slice; neighbours keep their bytes. */
	memset(wbuf, 0x5c, 10);
	assert_int_equal(gm_mem_write(m, PAGE - 5, wbuf, 10), GM_OK);
	assert_int_equal(gm_mem_read(m, PAGE - 6, rbuf, 12), GM_OK);
	assert_int_equal(rbuf[0], (uint8_t)(44 * 7 + 3));
	for (i = 1; i <= 10; i++)
		assert_int_equal(rbuf[i], 0x5c);
	assert_int_equal(rbuf[11], (uint8_t)(55 * 7 + 3));
	assert_int_equal(stats(m).vram.pages, 2);
	gm_mem_destroy(m);
}

static void test_backdoor_region_ends(void **state)
{
	struct gm_mem_cfg c = base_cfg();
	struct gm_mem *m;
	uint8_t two[2] = { 0x11, 0x22 }, bad[2] = { 0x99, 0x99 }, r[2];
	const uint64_t vlast = VRAM_BASE + VRAM_SIZE - 1;
	const uint64_t slast = SYS_BASE + SYS_SIZE - 1;

	(void)state;
	c.sys.base = VRAM_BASE + VRAM_SIZE; /* adjacent: a range may not span both */
	m = make(&c);

	assert_int_equal(gm_mem_write(m, vlast, two, 1), GM_OK);
	assert_int_equal(gm_mem_write(m, vlast - 1, two, 2), GM_OK);
	assert_int_equal(gm_mem_write(m, c.sys.base + SYS_SIZE - 1, two, 1), GM_OK);
	assert_int_equal(stats(m).vram.pages, 1);
	assert_int_equal(stats(m).sys.pages, 1);

	/* One past each end, and spanning both regions: refused, nothing written. */
	assert_int_equal(gm_mem_write(m, vlast, bad, 2), GM_ERR_ADDR);
	assert_int_equal(gm_mem_write(m, c.sys.base + SYS_SIZE, two, 1), GM_ERR_ADDR);
	assert_int_equal(gm_mem_write(m, c.sys.base + SYS_SIZE - 1, two, 2), GM_ERR_ADDR);
	assert_int_equal(gm_mem_write(m, UINT64_MAX, two, 1), GM_ERR_ADDR);
	assert_int_equal(stats(m).vram.pages, 1);
	assert_int_equal(stats(m).sys.pages, 1);
	assert_int_equal(gm_mem_read(m, vlast - 1, r, 2), GM_OK);
	assert_int_equal(r[0], 0x11);
	assert_int_equal(r[1], 0x22);
	assert_int_equal(gm_mem_read(m, c.sys.base, r, 1), GM_OK);
	assert_int_equal(r[0], 0);

	/* A read spanning both regions: GM_ERR_ADDR, buffer untouched. */
	memset(r, 0xee, sizeof(r));
	assert_int_equal(gm_mem_read(m, vlast, r, 2), GM_ERR_ADDR);
	assert_int_equal(r[0], 0xee);
	assert_int_equal(r[1], 0xee);
	gm_mem_destroy(m);

	/* With a hole after vram the same read fails. */
	c = base_cfg();
	m = make(&c);
	memset(r, 0xee, sizeof(r));
	assert_int_equal(gm_mem_read(m, vlast, r, 2), GM_ERR_ADDR);
	assert_int_equal(gm_mem_read(m, slast + 1, r, 1), GM_ERR_ADDR);
	assert_int_equal(gm_mem_read(m, SYS_BASE - 1, r, 1), GM_ERR_ADDR);
	assert_int_equal(gm_mem_read(m, UINT64_MAX, r, 2), GM_ERR_ADDR);
	assert_int_equal(r[0], 0xee);
	assert_int_equal(r[1], 0xee);
	assert_int_equal(gm_mem_read(m, slast, r, 1), GM_OK);
	assert_int_equal(r[0], 0);
	gm_mem_destroy(m);
}

static void test_backdoor_untouched_reads_zero(void **state)
{
	struct gm_mem_cfg c = base_cfg();
	struct gm_mem *m = make(&c);
	static uint8_t buf[2 * PAGE + 64];

	(void)state;
	memset(buf, 0xaa, sizeof(buf));
	assert_int_equal(gm_mem_read(m, PAGE - 32, buf, sizeof(buf)), GM_OK);
	assert_zero(buf, sizeof(buf));
	memset(buf, 0xaa, sizeof(buf));
	assert_int_equal(gm_mem_read(m, SYS_BASE, buf, sizeof(buf)), GM_OK);
	assert_zero(buf, sizeof(buf));
	assert_int_equal(stats(m).vram.pages, 0);
	assert_int_equal(stats(m).sys.pages, 0);
	gm_mem_destroy(m);
}

static void test_backdoor_args(void **state)
{
	struct gm_mem_cfg c = base_cfg();
	struct gm_mem *m = make(&c);
	uint8_t b = 0x42;

	(void)state;
	assert_int_equal(gm_mem_write(m, 0, NULL, 1), GM_ERR_BAD_ARG);
	assert_int_equal(gm_mem_read(m, 0, NULL, 1), GM_ERR_BAD_ARG);
	assert_int_equal(gm_mem_write(m, 0, NULL, 0), GM_OK);
	assert_int_equal(gm_mem_read(m, 0, NULL, 0), GM_OK);
	assert_int_equal(gm_mem_write(m, UINT64_MAX, &b, 0), GM_OK);
	assert_int_equal(gm_mem_read(m, UINT64_MAX, &b, 0), GM_OK);
	assert_int_equal(b, 0x42);
	assert_int_equal(stats(m).vram.pages, 0);
	gm_mem_destroy(m);
}

static void test_valid_range(void **state)
{
	struct gm_mem_cfg c = base_cfg();
	struct gm_mem *m = make(&c);

	(void)state;
	assert_true(gm_mem_valid_range(m, VRAM_BASE, VRAM_SIZE));
	assert_false(gm_mem_valid_range(m, VRAM_BASE, VRAM_SIZE + 1));
	assert_true(gm_mem_valid_range(m, VRAM_BASE + VRAM_SIZE - 1, 1));
	assert_false(gm_mem_valid_range(m, VRAM_BASE + VRAM_SIZE, 1));
	assert_true(gm_mem_valid_range(m, SYS_BASE, 1));
	assert_false(gm_mem_valid_range(m, SYS_BASE - 1, 2));
	assert_false(gm_mem_valid_range(m, SYS_BASE + 8, UINT64_MAX));
	assert_false(gm_mem_valid_range(m, UINT64_MAX, 2));
	assert_true(gm_mem_valid_range(m, UINT64_MAX, 0));
	gm_mem_destroy(m);
}

/* 4 GiB of VRAM and 1 TiB of system memory near 2^48 cost only what is written. */
static void test_sparse_large(void **state)
{
	struct gm_mem_cfg c = base_cfg();
	const uint64_t sys_base = (1ull << 48) - TIB;
	const uint64_t addrs[] = {
		0, 4 * GIB - 8, sys_base, sys_base + 512 * GIB + 3, sys_base + TIB - 4,
	};
	/* the last write ends on the region's last byte, 2^48 - 1 */
	const size_t lens[] = { 8, 8, 8, 8, 4 };
	struct gm_mem *m;
	uint8_t w[8], r[8];
	size_t i, j;

	(void)state;
	c.vram.size = 4 * GIB;
	c.sys.base = sys_base;
	c.sys.size = TIB;
	m = make(&c);
	for (i = 0; i < 5; i++) {
		for (j = 0; j < 8; j++)
			w[j] = (uint8_t)(16 * i + j + 1);
		assert_int_equal(gm_mem_write(m, addrs[i], w, lens[i]), GM_OK);
	}
	assert_int_equal(stats(m).vram.pages, 2);
	assert_int_equal(stats(m).sys.pages, 3);
	for (i = 0; i < 5; i++) {
		memset(r, 0, sizeof(r));
		assert_int_equal(gm_mem_read(m, addrs[i], r, lens[i]), GM_OK);
		for (j = 0; j < lens[i]; j++)
			assert_int_equal(r[j], 16 * i + j + 1);
	}
	assert_int_equal(gm_mem_write(m, sys_base + TIB - 4, w, 5), GM_ERR_ADDR);
	memset(r, 0xaa, sizeof(r));
	assert_int_equal(gm_mem_read(m, sys_base + 700 * GIB, r, 8), GM_OK);
	assert_zero(r, 8);
	assert_int_equal(stats(m).sys.pages, 3);
	gm_mem_destroy(m);
}

/* Many pages: the page table grows many times and keeps every page. */
static void test_sparse_many_pages(void **state)
{
	struct gm_mem_cfg c = base_cfg();
	struct gm_mem *m = make(&c);
	const uint32_t n = 5000;
	uint32_t i, v;

	(void)state;
	for (i = 0; i < n; i++)
		assert_int_equal(gm_mem_write(m, (uint64_t)i * 37 * PAGE + 4, &i, 4), GM_OK);
	assert_int_equal(stats(m).vram.pages, n);
	for (i = 0; i < n; i++) {
		assert_int_equal(gm_mem_read(m, (uint64_t)i * 37 * PAGE + 4, &v, 4), GM_OK);
		assert_int_equal(v, i);
	}
	gm_mem_destroy(m);
}

/* ---- port: function ------------------------------------------------------- */

static void test_port_strobes(void **state)
{
	struct gm_mem_cfg c = base_cfg();
	struct gm_mem *m = make(&c);
	uint8_t buf[64], old[32];
	unsigned int i;
	/* bytes 0, 2, 31 and bits beyond the 32-byte beat, which must be ignored */
	const uint64_t strb = (1ull << 0) | (1ull << 2) | (1ull << 31) | (1ull << 32) | (1ull << 63);
	struct gm_mem_rsp rsp;

	(void)state;
	for (i = 0; i < sizeof(old); i++)
		old[i] = (uint8_t)(0x80 + i);
	assert_int_equal(gm_mem_write(m, 0x1000, old, sizeof(old)), GM_OK);
	submit(m, 0, wr_req(7, 0x1000, 0x10, strb));
	memset(buf, 0xaa, sizeof(buf));
	assert_int_equal(gm_mem_read(m, 0x1000, buf, 64), GM_OK);
	for (i = 0; i < 32; i++) {
		uint8_t want = (i == 0 || i == 2 || i == 31) ? (uint8_t)(0x10 + i) : old[i];

		assert_int_equal(buf[i], want);
	}
	assert_zero(buf + 32, 32);
	assert_int_equal(stats(m).vram.wr_bytes, 3);
	assert_int_equal(stats(m).vram.wr_reqs, 1);

	rsp = pop(m, 10);
	assert_int_equal(rsp.id, 7);
	assert_true(rsp.write);
	assert_false(rsp.err);
	assert_zero(rsp.rdata, sizeof(rsp.rdata));
	gm_mem_destroy(m);
}

/* A write with no strobe is acknowledged but writes and allocates nothing. */
static void test_port_empty_strobe(void **state)
{
	struct gm_mem_cfg c = base_cfg();
	struct gm_mem *m = make(&c);
	struct gm_mem_rsp rsp;

	(void)state;
	submit(m, 0, wr_req(1, 0x2000, 0x10, 0));
	submit(m, 0, wr_req(2, 0x3000, 0x10, ~0ull << 32)); /* only bits above the beat */
	assert_int_equal(stats(m).vram.pages, 0);
	assert_int_equal(stats(m).vram.wr_reqs, 2);
	assert_int_equal(stats(m).vram.wr_bytes, 0);
	rsp = pop(m, 10);
	assert_int_equal(rsp.id, 1);
	gm_mem_destroy(m);
}

/* 64-byte beats: strobe bit 63 is the last byte (no shift past the mask). */
static void test_port_full_beat64(void **state)
{
	struct gm_mem_cfg c = base_cfg();
	struct gm_mem *m;
	struct gm_mem_rsp rsp;
	uint8_t buf[64];
	unsigned int i;

	(void)state;
	c.beat_bytes = 64;
	m = make(&c);
	submit(m, 0, wr_req(1, 0x40, 0x20, ~0ull));
	submit(m, 0, rd_req(2, 0x40));
	assert_int_equal(gm_mem_read(m, 0x40, buf, 64), GM_OK);
	for (i = 0; i < 64; i++)
		assert_int_equal(buf[i], 0x20 + i);
	assert_int_equal(stats(m).vram.wr_bytes, 64);
	assert_int_equal(stats(m).vram.rd_bytes, 64);
	assert_int_equal(pop(m, 100).id, 1);
	rsp = pop(m, 100);
	assert_int_equal(rsp.id, 2);
	assert_memory_equal(rsp.rdata, buf, 64);
	gm_mem_destroy(m);
}

/* The effect is at acceptance: the read issued after a write sees it. */
static void test_port_write_then_read(void **state)
{
	struct gm_mem_cfg c = base_cfg();
	struct gm_mem *m = make(&c);
	struct gm_mem_rsp rsp;
	uint8_t buf[32];
	unsigned int i;

	(void)state;
	submit(m, 0, rd_req(1, SYS_BASE + 0x100));      /* before the write: zeros */
	submit(m, 1, wr_req(2, SYS_BASE + 0x100, 0x40, 0xffffffffull));
	submit(m, 2, rd_req(3, SYS_BASE + 0x100));
	/* Visible through the backdoor before any response. */
	assert_int_equal(gm_mem_read(m, SYS_BASE + 0x100, buf, 32), GM_OK);
	for (i = 0; i < 32; i++)
		assert_int_equal(buf[i], 0x40 + i);

	rsp = pop(m, 40);
	assert_int_equal(rsp.id, 1);
	assert_false(rsp.write);
	assert_zero(rsp.rdata, sizeof(rsp.rdata));
	rsp = pop(m, 41);
	assert_int_equal(rsp.id, 2);
	rsp = pop(m, 42);
	assert_int_equal(rsp.id, 3);
	assert_memory_equal(rsp.rdata, buf, 32);
	assert_zero(rsp.rdata + 32, sizeof(rsp.rdata) - 32);
	gm_mem_destroy(m);
}

/* One read beat through the port at @addr, with nothing else in flight. */
static struct gm_mem_rsp port_rd(struct gm_mem *m, uint64_t now, uint64_t addr)
{
	submit(m, now, rd_req(99, addr));
	return pop(m, now + 1000);
}

/*
 * A copy streams through one source and one destination page at a time;
 * beats that hop between pages, regions and read/write must each see the
 * right page, and a page the port found unwritten must be seen once the
 * backdoor writes it.
 */
static void test_port_page_hops(void **state)
{
	struct gm_mem_cfg c = base_cfg();
	struct gm_mem *m = make(&c);
	struct gm_mem_rsp rsp;
	uint8_t img[32];
	unsigned int i;

	(void)state;
	for (i = 0; i < sizeof(img); i++)
		img[i] = (uint8_t)(0xc0 + i);
	rsp = port_rd(m, 0, 0x1020);                      /* never written */
	assert_zero(rsp.rdata, sizeof(rsp.rdata));
	assert_int_equal(gm_mem_write(m, 0x1020, img, sizeof(img)), GM_OK);
	rsp = port_rd(m, 10, 0x1020);
	assert_memory_equal(rsp.rdata, img, 32);

	submit(m, 20, wr_req(1, 0x0000, 0x10, ~0ull));    /* page 0 */
	submit(m, 20, wr_req(2, 0x2000, 0x20, ~0ull));    /* page 2 */
	submit(m, 20, wr_req(3, SYS_BASE, 0x30, ~0ull));  /* another region's page 0 */
	submit(m, 20, wr_req(4, 0x0020, 0x40, 0x0full)); /* page 0 again, 4 bytes */
	for (i = 1; i <= 4; i++)
		pop(m, 1000);
	assert_int_equal(stats(m).vram.wr_bytes, 32 + 32 + 4);
	assert_int_equal(stats(m).vram.pages, 3);

	rsp = port_rd(m, 2000, 0x0000);
	for (i = 0; i < 32; i++)
		assert_int_equal(rsp.rdata[i], 0x10 + i);
	rsp = port_rd(m, 3000, 0x2000);
	for (i = 0; i < 32; i++)
		assert_int_equal(rsp.rdata[i], 0x20 + i);
	rsp = port_rd(m, 4000, SYS_BASE);
	for (i = 0; i < 32; i++)
		assert_int_equal(rsp.rdata[i], 0x30 + i);
	rsp = port_rd(m, 5000, 0x0020);
	for (i = 0; i < 32; i++)
		assert_int_equal(rsp.rdata[i], i < 4 ? 0x40 + i : 0);
	rsp = port_rd(m, 6000, 0x1020);
	assert_memory_equal(rsp.rdata, img, 32);
	assert_zero(rsp.rdata + 32, sizeof(rsp.rdata) - 32);
	rsp = port_rd(m, 7000, 0x3000);                   /* never written */
	assert_zero(rsp.rdata, sizeof(rsp.rdata));
	assert_int_equal(stats(m).vram.pages, 3);
	gm_mem_destroy(m);
}

/* ---- port: timing --------------------------------------------------------- */

static void test_port_latency_exact(void **state)
{
	struct gm_mem_cfg c = base_cfg();
	struct gm_mem *m;
	struct gm_mem_rsp rsp;
	uint64_t t;

	(void)state;
	c.vram.latency_cycles = 5;
	m = make(&c);
	submit(m, 10, rd_req(42, 0x100));
	for (t = 0; t < 15; t++)
		assert_false(gm_mem_response(m, t, &rsp));
	assert_int_equal(gm_mem_outstanding(m), 1);
	rsp = pop(m, 15);
	assert_int_equal(rsp.id, 42);
	assert_int_equal(gm_mem_outstanding(m), 0);
	assert_false(gm_mem_response(m, 15, &rsp));

	/* Latency 1: due the next cycle. */
	gm_mem_destroy(m);
	c.vram.latency_cycles = 1;
	m = make(&c);
	submit(m, 3, rd_req(43, 0x100));
	assert_false(gm_mem_response(m, 3, &rsp));
	assert_int_equal(pop(m, 4).id, 43);
	gm_mem_destroy(m);
}

/*
 * Drive the port a cycle at a time from cycle 0 to @cycles - 1: pop every due
 * response, recording id -> cycle in @done (indexed by id), then tick.
 */
static void drain(struct gm_mem *m, uint64_t cycles, uint64_t *done, uint32_t *order, size_t n)
{
	struct gm_mem_rsp rsp;
	size_t k = 0;
	uint64_t t;

	for (t = 0; t < cycles; t++)
		while (gm_mem_response(m, t, &rsp)) {
			assert_true(rsp.id < n);
			assert_true(k < n);
			done[rsp.id] = t;
			order[k++] = rsp.id;
		}
	assert_int_equal(k, n);
}

static void test_port_out_of_order(void **state)
{
	struct gm_mem_cfg c = base_cfg();
	struct gm_mem *m;
	uint64_t done[4];
	uint32_t order[4];

	(void)state;
	c.vram.latency_cycles = 20;
	c.sys.latency_cycles = 3;
	m = make(&c);
	submit(m, 0, rd_req(0, 0x0));
	submit(m, 0, rd_req(1, SYS_BASE));
	submit(m, 1, rd_req(2, 0x20));
	submit(m, 1, wr_req(3, SYS_BASE + 0x20, 0, 1));
	drain(m, 40, done, order, 4);
	assert_int_equal(order[0], 1);
	assert_int_equal(order[1], 3);
	assert_int_equal(order[2], 0);
	assert_int_equal(order[3], 2);
	assert_int_equal(done[1], 3);
	assert_int_equal(done[3], 4);
	assert_int_equal(done[0], 20);
	assert_int_equal(done[2], 21);
	gm_mem_destroy(m);
}

/* When polled late, responses come out by due cycle, then acceptance order. */
static void test_port_tie_order(void **state)
{
	static const uint32_t want[] = { 13, 10, 11, 12, 14 };
	struct gm_mem_cfg c = base_cfg();
	struct gm_mem *m;
	uint32_t i;

	(void)state;
	c.vram.latency_cycles = 5;
	c.vram.bytes_per_cycle = 1024; /* bus never limits here */
	c.sys.latency_cycles = 3;
	c.sys.bytes_per_cycle = 1024;
	m = make(&c);
	submit(m, 0, rd_req(10, 0x0));          /* due 5 */
	submit(m, 0, rd_req(11, 0x20));         /* due 5 */
	submit(m, 2, rd_req(12, SYS_BASE));     /* due 5, accepted last */
	submit(m, 1, rd_req(13, SYS_BASE));     /* due 4 */
	submit(m, 0, rd_req(14, 0x40));         /* due 5 */
	for (i = 0; i < 5; i++)
		assert_int_equal(pop(m, 1000).id, want[i]);
	gm_mem_destroy(m);
}

/* One beat per cycle at bytes_per_cycle = beat / 2: completions 2 cycles apart. */
static void test_port_bandwidth_half(void **state)
{
	struct gm_mem_cfg c = base_cfg();
	struct gm_mem *m;
	const uint32_t n = 8;
	struct gm_mem_rsp rsp;
	uint64_t done[8];
	uint32_t order[8], i;

	(void)state;
	c.vram.latency_cycles = 1;
	c.vram.bytes_per_cycle = 16; /* beat 32 */
	m = make(&c);
	for (i = 0; i < n; i++)
		submit(m, i, rd_req(i, i * 32));
	drain(m, 100, done, order, n);
	for (i = 0; i < n; i++) {
		assert_int_equal(order[i], i);
		assert_int_equal(done[i], 2 * (i + 1));
	}
	/* idle since 16: no credit banked, so two beats at 100 end at 102, 104 */
	submit(m, 100, rd_req(0, 0));
	submit(m, 100, rd_req(1, 0));
	assert_false(gm_mem_response(m, 101, &rsp));
	assert_int_equal(pop(m, 102).id, 0);
	assert_false(gm_mem_response(m, 103, &rsp));
	assert_int_equal(pop(m, 104).id, 1);
	gm_mem_destroy(m);
}

/* Latency dominates a bus with room to spare; an idle bus banks no credit. */
static void test_port_bandwidth_latency_bound(void **state)
{
	struct gm_mem_cfg c = base_cfg();
	struct gm_mem *m;
	uint64_t done[4];
	uint32_t order[4], i;

	(void)state;
	c.vram.latency_cycles = 10;
	c.vram.bytes_per_cycle = 16;
	m = make(&c);
	submit(m, 0, rd_req(0, 0));
	submit(m, 1, rd_req(1, 0));
	/* bus slots end at 2 and 4: latency wins, due 10 and 11 */
	submit(m, 50, rd_req(2, 0));
	submit(m, 50, rd_req(3, 0));
	/* idle since 4: slots end at 52, 54; latency 60 wins for both */
	drain(m, 100, done, order, 4);
	assert_int_equal(done[0], 10);
	assert_int_equal(done[1], 11);
	assert_int_equal(done[2], 60);
	assert_int_equal(done[3], 60);
	for (i = 0; i < 4; i++)
		assert_int_equal(order[i], i);
	gm_mem_destroy(m);
}

/* Full rate (1 cycle per beat) and double rate (half a cycle per beat). */
static void test_port_bandwidth_fractional(void **state)
{
	struct gm_mem_cfg c = base_cfg();
	struct gm_mem *m;
	uint64_t done[8];
	uint32_t order[8], i;

	(void)state;
	c.vram.latency_cycles = 1;
	c.vram.bytes_per_cycle = 32;
	c.sys.latency_cycles = 1;
	c.sys.bytes_per_cycle = 64;
	m = make(&c);
	for (i = 0; i < 4; i++)
		submit(m, 0, rd_req(i, 0));
	for (i = 4; i < 8; i++)
		submit(m, 0, rd_req(i, SYS_BASE));
	drain(m, 20, done, order, 8);
	/* vram: slots end at 1, 2, 3, 4 */
	for (i = 0; i < 4; i++)
		assert_int_equal(done[i], i + 1);
	/* sys: slots end at 0.5, 1, 1.5, 2 -> due 1, 1, 2, 2 */
	assert_int_equal(done[4], 1);
	assert_int_equal(done[5], 1);
	assert_int_equal(done[6], 2);
	assert_int_equal(done[7], 2);
	gm_mem_destroy(m);
}

/* A non-integer cost (32 B at 3 B/cycle = 10.67 cycles) rounds per slot end. */
static void test_port_bandwidth_odd(void **state)
{
	struct gm_mem_cfg c = base_cfg();
	struct gm_mem *m;
	uint64_t done[3];
	uint32_t order[3], i;

	(void)state;
	c.vram.latency_cycles = 1;
	c.vram.bytes_per_cycle = 3;
	m = make(&c);
	for (i = 0; i < 3; i++)
		submit(m, 0, rd_req(i, 0));
	drain(m, 100, done, order, 3);
	/* cost = ceil(32 * 256 / 3) = 2731 units; ends 2731, 5462, 8193 */
	assert_int_equal(done[0], 11);
	assert_int_equal(done[1], 22);
	assert_int_equal(done[2], 33);
	gm_mem_destroy(m);
}

/* ---- port: errors --------------------------------------------------------- */

static void test_port_busy(void **state)
{
	struct gm_mem_cfg c = base_cfg();
	struct gm_mem *m;
	struct gm_mem_req r = wr_req(3, 0x40, 0x70, 0xff);
	uint8_t b;

	(void)state;
	c.max_outstanding = 2;
	c.vram.latency_cycles = 4;
	m = make(&c);
	submit(m, 0, rd_req(1, 0));
	assert_true(gm_mem_can_accept(m));
	submit(m, 0, rd_req(2, 0x20));
	assert_false(gm_mem_can_accept(m));
	assert_int_equal(gm_mem_request(m, 0, &r), GM_ERR_BUSY);
	assert_int_equal(gm_mem_outstanding(m), 2);
	assert_int_equal(gm_mem_read(m, 0x40, &b, 1), GM_OK);
	assert_int_equal(b, 0);
	assert_int_equal(stats(m).vram.wr_reqs, 0);
	assert_int_equal(stats(m).vram.pages, 0);

	assert_int_equal(pop(m, 4).id, 1);
	assert_true(gm_mem_can_accept(m));
	assert_int_equal(gm_mem_request(m, 4, &r), GM_OK);
	assert_int_equal(gm_mem_read(m, 0x40, &b, 1), GM_OK);
	assert_int_equal(b, 0x70);
	assert_int_equal(pop(m, 5).id, 2);
	assert_int_equal(pop(m, 8).id, 3);
	gm_mem_destroy(m);
}

static void test_port_unaligned(void **state)
{
	struct gm_mem_cfg c = base_cfg();
	struct gm_mem *m = make(&c);
	static const uint64_t bad[] = { 1, 4, 16, 31, 0x1004, SYS_BASE + 8 };
	struct gm_mem_req r;
	uint8_t buf[64];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		r = wr_req(1, bad[i], 0x30, ~0ull);
		assert_int_equal(gm_mem_request(m, 0, &r), GM_ERR_BAD_ARG);
		r = rd_req(1, bad[i]);
		assert_int_equal(gm_mem_request(m, 0, &r), GM_ERR_BAD_ARG);
	}
	assert_int_equal(gm_mem_request(m, 0, NULL), GM_ERR_BAD_ARG);
	assert_int_equal(gm_mem_outstanding(m), 0);
	assert_int_equal(stats(m).vram.pages, 0);
	assert_int_equal(stats(m).vram.wr_reqs + stats(m).vram.rd_reqs, 0);
	assert_int_equal(gm_mem_read(m, 0, buf, 64), GM_OK);
	assert_zero(buf, 64);
	gm_mem_destroy(m);
}

static void test_port_unmapped(void **state)
{
	struct gm_mem_cfg c = base_cfg();
	struct gm_mem *m;
	struct gm_mem_rsp rsp;
	struct gm_mem_stats st;
	const uint64_t hole = VRAM_BASE + VRAM_SIZE + 0x1000;

	(void)state;
	c.vram.size = 4 * KIB + 16; /* the beat at 4096 straddles the end */
	c.vram.latency_cycles = 9;
	m = make(&c);
	submit(m, 5, wr_req(1, hole, 0x50, ~0ull));
	submit(m, 5, rd_req(2, hole));
	submit(m, 6, rd_req(3, 4 * KIB));
	submit(m, 6, wr_req(4, 4 * KIB, 0x50, ~0ull));
	submit(m, 6, rd_req(5, 4 * KIB - 32)); /* the last whole beat is fine */
	assert_int_equal(gm_mem_outstanding(m), 5);
	assert_false(gm_mem_response(m, 5, &rsp));

	rsp = pop(m, 6);
	assert_int_equal(rsp.id, 1);
	assert_true(rsp.err);
	assert_true(rsp.write);
	assert_zero(rsp.rdata, sizeof(rsp.rdata));
	rsp = pop(m, 6);
	assert_int_equal(rsp.id, 2);
	assert_true(rsp.err);
	assert_false(rsp.write);
	assert_false(gm_mem_response(m, 6, &rsp));
	rsp = pop(m, 7);
	assert_int_equal(rsp.id, 3);
	assert_true(rsp.err);
	assert_true(pop(m, 7).err);
	rsp = pop(m, 15);
	assert_int_equal(rsp.id, 5);
	assert_false(rsp.err);

	st = stats(m);
	assert_int_equal(st.err_reqs, 4);
	assert_int_equal(st.vram.rd_reqs, 1);
	assert_int_equal(st.vram.wr_reqs, 0);
	assert_int_equal(st.vram.wr_bytes, 0);
	assert_int_equal(st.vram.pages, 0);
	assert_int_equal(st.sys.rd_reqs + st.sys.wr_reqs + st.sys.pages, 0);
	gm_mem_destroy(m);
}

/* ---- stats and scale ------------------------------------------------------ */

static void test_stats_counts(void **state)
{
	struct gm_mem_cfg c = base_cfg();
	struct gm_mem *m;
	struct gm_mem_stats st;
	struct gm_mem_req r = rd_req(9, 0);
	struct gm_mem_rsp rsp;
	uint64_t t;

	(void)state;
	c.max_outstanding = 2;
	c.vram.latency_cycles = 3;
	c.sys.latency_cycles = 3;
	m = make(&c);
	/*
	 * cycle 0: accept 2 (vram rd, sys wr of 5 bytes), tick -> 2 in flight
	 * cycle 1: refused, tick -> 2
	 * cycle 2: tick -> 2
	 * cycle 3: both pop, tick -> 0
	 * cycle 4: accept 1 (vram wr of 1 byte), tick -> 1
	 * cycle 5..6: tick -> 1 ; cycle 7: pop, tick -> 0
	 */
	for (t = 0; t < 8; t++) {
		bool refused = false;

		while (gm_mem_response(m, t, &rsp))
			;
		if (t == 0) {
			submit(m, t, rd_req(1, 0x20));
			submit(m, t, wr_req(2, SYS_BASE, 0, 0x1f));
		} else if (t == 1) {
			refused = gm_mem_request(m, t, &r) == GM_ERR_BUSY;
			assert_true(refused);
		} else if (t == 4) {
			submit(m, t, wr_req(3, 0x40, 0, 0x100));
		}
		gm_mem_tick(m, refused);
	}
	st = stats(m);
	assert_int_equal(st.ticks, 8);
	assert_int_equal(st.busy_cycles, 6);
	assert_int_equal(st.occupancy_sum, 2 + 2 + 2 + 0 + 1 + 1 + 1 + 0);
	assert_int_equal(st.max_occupancy, 2);
	assert_int_equal(st.stall_cycles, 1);
	assert_int_equal(st.err_reqs, 0);
	assert_int_equal(st.vram.rd_reqs, 1);
	assert_int_equal(st.vram.rd_bytes, 32);
	assert_int_equal(st.vram.wr_reqs, 1);
	assert_int_equal(st.vram.wr_bytes, 1);
	assert_int_equal(st.vram.pages, 1);
	assert_int_equal(st.sys.rd_reqs, 0);
	assert_int_equal(st.sys.wr_reqs, 1);
	assert_int_equal(st.sys.wr_bytes, 5);
	assert_int_equal(st.sys.pages, 1);
	/* backdoor traffic is not counted */
	assert_int_equal(gm_mem_write(m, 0x5000, &t, sizeof(t)), GM_OK);
	st = stats(m);
	assert_int_equal(st.vram.wr_bytes, 1);
	assert_int_equal(st.vram.pages, 2);
	gm_mem_destroy(m);
}

/*
 * 4096 in flight, one accepted per cycle alternating a slow and a fast
 * region; every response must come back exactly when due, in due order.
 */
static void test_port_full_depth(void **state)
{
	enum { N = 4096 };
	struct gm_mem_cfg c = base_cfg();
	struct gm_mem *m;
	struct gm_mem_req r;
	struct gm_mem_rsp rsp;
	uint64_t t;
	uint32_t got = 0, i;

	(void)state;
	c.max_outstanding = N;
	c.vram.latency_cycles = 5000;
	c.sys.latency_cycles = 1;
	m = make(&c);
	for (i = 0; i < N; i++)
		submit(m, i, rd_req(i, (i & 1) ? SYS_BASE : 0));
	/* the fast responses were never popped, so the port is full */
	r = rd_req(N, 0);
	assert_int_equal(gm_mem_request(m, N, &r), GM_ERR_BUSY);
	for (t = 0; t < 2 * N + 5000; t++)
		while (gm_mem_response(m, t, &rsp)) {
			/* no two dues coincide, so popping each cycle is exact */
			uint64_t due = rsp.id + ((rsp.id & 1) ? 1 : 5000);

			if (due != t) {
				print_error("id %u popped at %llu, due %llu\n", rsp.id,
					    (unsigned long long)t, (unsigned long long)due);
				fail();
			}
			got++;
		}
	assert_int_equal(got, N);
	assert_int_equal(gm_mem_outstanding(m), 0);
	gm_mem_destroy(m);
}

/* Two models in one process are independent (no globals). */
static void test_two_instances(void **state)
{
	struct gm_mem_cfg c = base_cfg();
	struct gm_mem *a = make(&c), *b = make(&c);
	uint8_t v = 0x77, r = 0xff;

	(void)state;
	assert_int_equal(gm_mem_write(a, 0x10, &v, 1), GM_OK);
	assert_int_equal(gm_mem_read(b, 0x10, &r, 1), GM_OK);
	assert_int_equal(r, 0);
	submit(a, 0, rd_req(1, 0));
	assert_int_equal(gm_mem_outstanding(b), 0);
	gm_mem_destroy(a);
	gm_mem_destroy(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_create_bad_cfg),
		cmocka_unit_test(test_create_edge_ok),
		cmocka_unit_test(test_create_disabled_region_ignored),
		cmocka_unit_test(test_create_null),
		cmocka_unit_test(test_create_fresh_state),
		cmocka_unit_test(test_backdoor_page_crossing),
		cmocka_unit_test(test_backdoor_region_ends),
		cmocka_unit_test(test_backdoor_untouched_reads_zero),
		cmocka_unit_test(test_backdoor_args),
		cmocka_unit_test(test_valid_range),
		cmocka_unit_test(test_sparse_large),
		cmocka_unit_test(test_sparse_many_pages),
		cmocka_unit_test(test_port_strobes),
		cmocka_unit_test(test_port_empty_strobe),
		cmocka_unit_test(test_port_full_beat64),
		cmocka_unit_test(test_port_write_then_read),
		cmocka_unit_test(test_port_page_hops),
		cmocka_unit_test(test_port_latency_exact),
		cmocka_unit_test(test_port_out_of_order),
		cmocka_unit_test(test_port_tie_order),
		cmocka_unit_test(test_port_bandwidth_half),
		cmocka_unit_test(test_port_bandwidth_latency_bound),
		cmocka_unit_test(test_port_bandwidth_fractional),
		cmocka_unit_test(test_port_bandwidth_odd),
		cmocka_unit_test(test_port_busy),
		cmocka_unit_test(test_port_unaligned),
		cmocka_unit_test(test_port_unmapped),
		cmocka_unit_test(test_stats_counts),
		cmocka_unit_test(test_port_full_depth),
		cmocka_unit_test(test_two_instances),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
