// SPDX-License-Identifier: MIT
/*
 * test_dma.c - cmocka unit tests for the DMA packet emitters (dma/dma_buf.c),
 * the disassembler (dma/dma_disasm.c) and the generated name tables
 * (hw/gpu_names.c).
 *
 * Build and run:
 *   gcc -std=c11 -Wall -Wextra -Werror -g -fsanitize=address,undefined \
 *       -Ihw -Imodel -Idma tb/unit/test_dma.c dma/dma_buf.c dma/dma_disasm.c \
 *       hw/gpu_names.c -lcmocka -o /tmp/test_dma
 *   /tmp/test_dma
 *
 * Testplan
 *   emitter encodings ....... test_emit_{nop,write_data,indirect_buffer,
 *                             release_fence,wait_mem,timestamp,raw}
 *   GM_ERR_FULL, unchanged .. test_full_boundary (room 0, size-1 fail; size fits)
 *   GM_ERR_BAD_ARG tables ... test_bad_arg_table, test_bad_arg_null_buffer
 *   disassembly, golden ..... test_disasm_golden_*, test_disasm_bad_args
 *   refused packets ......... test_disasm_refused_*
 *   IB following ............ test_disasm_ib_*
 *   generated name tables ... test_names_*, test_pkt_desc_*
 *
 * Header fields are read back with the generated *_GET macros of gpu_hw.h and
 * opcodes are named by their enum; no opcode number or bit position is typed
 * here.  Every test is deterministic.
 */
#define _POSIX_C_SOURCE 200809L /* open_memstream */

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dma_buf.h"
#include "dma_disasm.h"
#include "gpu_hw.h"
#include "gpu_names.h"

/*
 * With -fsanitize=undefined, make a UBSan report fatal so it fails the run
 * instead of scrolling past; unused in builds without the sanitizer.
 */
const char *__ubsan_default_options(void);
const char *__ubsan_default_options(void)
{
	return "halt_on_error=1:print_stacktrace=1";
}

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#define ADDR_LIMIT (1ull << GPU_PA_BITS) /* first address past the address space */
#define GUARD 0xa5a5a5a5u                /* fill of storage no emitter has written */
#define SLACK 4u                         /* dwords of storage past cap, must stay GUARD */

/* The bits a FIELD macro can set, e.g. FIELD_BITS(GPU_HDR_COUNT). */
#define FIELD_BITS(f) f(~0u)

/* Largest WRITE_DATA payload: the data dwords follow ADDR_LO/ADDR_HI. */
#define WD_MAX_N (GPU_PKT_WRITE_DATA_COUNT_MAX - GPU_PKT_WRITE_DATA_DATA)

/* The name of a gm_status value, for failure messages only. */
static const char *st_str(int st)
{
	return gm_status_name(st);
}

/* ------------------------------------------------------------ test buffer */

/*
 * A dma_buf over heap storage of cap + SLACK dwords, all GUARD, plus a
 * snapshot so a failed emit can be checked byte for byte.
 */
struct tbuf {
	struct dma_buf b;
	uint32_t *store; /* cap + SLACK dwords */
	uint32_t *snap;  /* copy of store taken by tbuf_snap() */
	size_t snap_len;
	size_t total;    /* dwords of store */
};

static void tbuf_make(struct tbuf *t, size_t cap)
{
	t->total = cap + SLACK;
	t->store = test_malloc(t->total * sizeof(*t->store));
	t->snap = test_malloc(t->total * sizeof(*t->snap));
	for (size_t i = 0; i < t->total; i++)
		t->store[i] = GUARD;
	dma_buf_init(&t->b, t->store, cap);
	assert_int_equal(t->b.len, 0);
	assert_int_equal(dma_buf_room(&t->b), cap);
}

static void tbuf_free(struct tbuf *t)
{
	test_free(t->store);
	test_free(t->snap);
}

static void tbuf_snap(struct tbuf *t)
{
	memcpy(t->snap, t->store, t->total * sizeof(*t->store));
	t->snap_len = t->b.len;
}

/* Fail with @what unless the buffer is exactly as tbuf_snap() saw it. */
static void tbuf_assert_unchanged(const struct tbuf *t, const char *what)
{
	if (t->b.len != t->snap_len)
		fail_msg("%s: len %zu, was %zu", what, t->b.len, t->snap_len);
	for (size_t i = 0; i < t->total; i++)
		if (t->store[i] != t->snap[i])
			fail_msg("%s: dword %zu is 0x%08x, was 0x%08x", what, i, t->store[i],
				 t->snap[i]);
}

/* Fail with @what unless the storage past len is untouched. */
static void tbuf_assert_tail_guard(const struct tbuf *t, const char *what)
{
	for (size_t i = t->b.len; i < t->total; i++)
		if (t->store[i] != GUARD)
			fail_msg("%s: dword %zu past len is 0x%08x", what, i, t->store[i]);
}

/*
 * Check the header at b->dw[at] is TYPE 3 with @op and @count and nothing
 * else, and that the packet lies inside len; return its payload.
 */
static const uint32_t *pkt_at(const struct dma_buf *b, size_t at, enum gpu_opcode op,
			      uint32_t count)
{
	uint32_t h = b->dw[at];
	uint32_t known = FIELD_BITS(GPU_HDR_TYPE) | FIELD_BITS(GPU_HDR_OPCODE) |
			 FIELD_BITS(GPU_HDR_COUNT);

	assert_int_equal(GPU_HDR_TYPE_GET(h), GPU_PKT_TYPE3);
	assert_int_equal(GPU_HDR_OPCODE_GET(h), op);
	assert_int_equal(GPU_HDR_COUNT_GET(h), count);
	assert_int_equal(h & ~known, 0); /* reserved header bits */
	assert_true(at + 1 + count <= b->len);
	return &b->dw[at + 1];
}

static void assert_addr(const uint32_t *lo_hi, uint64_t addr)
{
	assert_int_equal(lo_hi[0], (uint32_t)addr);
	assert_int_equal(lo_hi[1], (uint32_t)(addr >> 32));
}

/* ------------------------------------------------------------ encodings */

static void test_emit_nop(void **state)
{
	struct tbuf t;
	const uint32_t *pl;

	(void)state;
	tbuf_make(&t, 1 + (1 + 3) + (1 + GPU_PKT_NOP_COUNT_MAX));

	assert_int_equal(dma_emit_nop(&t.b, 0), GM_OK);
	assert_int_equal(t.b.len, 1);
	pkt_at(&t.b, 0, GPU_OP_NOP, 0);

	assert_int_equal(dma_emit_nop(&t.b, 3), GM_OK);
	assert_int_equal(t.b.len, 1 + 4);
	pl = pkt_at(&t.b, 1, GPU_OP_NOP, 3);
	for (int i = 0; i < 3; i++)
		assert_int_equal(pl[i], 0); /* padding is zeros, not leftover GUARD */

	assert_int_equal(dma_emit_nop(&t.b, GPU_PKT_NOP_COUNT_MAX), GM_OK);
	assert_int_equal(t.b.len, 1 + 4 + 1 + GPU_PKT_NOP_COUNT_MAX);
	pl = pkt_at(&t.b, 5, GPU_OP_NOP, GPU_PKT_NOP_COUNT_MAX);
	for (uint32_t i = 0; i < GPU_PKT_NOP_COUNT_MAX; i++)
		assert_int_equal(pl[i], 0);
	assert_int_equal(dma_buf_room(&t.b), 0);
	tbuf_assert_tail_guard(&t, "nop");
	tbuf_free(&t);
}

static void test_emit_write_data(void **state)
{
	static const uint32_t data[] = { 0x11111111u, 0xdeadbeefu, 0x00000000u, 0xffffffffu };
	/* a2: the four dwords end exactly at the top of the address space */
	const uint64_t a1 = 0x123456789abcull, a2 = ADDR_LIMIT - 16;
	struct tbuf t;
	uint32_t *big;
	const uint32_t *pl;

	(void)state;
	tbuf_make(&t, 64 + 1 + GPU_PKT_WRITE_DATA_COUNT_MAX);

	assert_int_equal(dma_emit_write_data(&t.b, a1, data, 1), GM_OK);
	assert_int_equal(t.b.len, 1 + GPU_PKT_WRITE_DATA_DATA + 1);
	pl = pkt_at(&t.b, 0, GPU_OP_WRITE_DATA, GPU_PKT_WRITE_DATA_DATA + 1);
	assert_addr(&pl[GPU_PKT_WRITE_DATA_ADDR_LO], a1);
	assert_int_equal(pl[GPU_PKT_WRITE_DATA_DATA], data[0]);

	/* one dword further would wrap past 2^48: refused, nothing written */
	assert_int_equal(dma_emit_write_data(&t.b, a2 + 4, data, 4), GM_ERR_BAD_ARG);
	assert_int_equal(t.b.len, 1 + GPU_PKT_WRITE_DATA_DATA + 1);
	assert_int_equal(dma_emit_write_data(&t.b, a2, data, 4), GM_OK);
	pl = pkt_at(&t.b, 4, GPU_OP_WRITE_DATA, GPU_PKT_WRITE_DATA_DATA + 4);
	assert_addr(&pl[GPU_PKT_WRITE_DATA_ADDR_LO], a2);
	assert_memory_equal(&pl[GPU_PKT_WRITE_DATA_DATA], data, sizeof(data));
	assert_int_equal(t.b.len, 4 + 1 + GPU_PKT_WRITE_DATA_DATA + 4);

	/* The largest packet: COUNT is the maximum the opcode allows. */
	big = test_malloc(WD_MAX_N * sizeof(*big));
	for (uint32_t i = 0; i < WD_MAX_N; i++)
		big[i] = i * 0x9e3779b9u;
	assert_int_equal(dma_emit_write_data(&t.b, 0, big, WD_MAX_N), GM_OK);
	pl = pkt_at(&t.b, 11, GPU_OP_WRITE_DATA, GPU_PKT_WRITE_DATA_COUNT_MAX);
	assert_addr(&pl[GPU_PKT_WRITE_DATA_ADDR_LO], 0);
	assert_memory_equal(&pl[GPU_PKT_WRITE_DATA_DATA], big, WD_MAX_N * sizeof(*big));
	assert_int_equal(t.b.len, 11 + 1 + GPU_PKT_WRITE_DATA_COUNT_MAX);
	tbuf_assert_tail_guard(&t, "write_data");
	test_free(big);
	tbuf_free(&t);
}

static void test_emit_indirect_buffer(void **state)
{
	static const struct {
		uint64_t addr;
		uint32_t size_dw;
	} cases[] = {
		{ 0x0, 1 },
		{ 0xfedcba987654ull, 0x1234 },
		{ ADDR_LIMIT - 4ull * GPU_PKT_INDIRECT_BUFFER_SIZE_DW_MASK, GPU_PKT_INDIRECT_BUFFER_SIZE_DW_MASK },
		{ ADDR_LIMIT - 4, 1 }, /* ends exactly at 2^48 */
	};
	const uint32_t n = GPU_PKT_INDIRECT_BUFFER_COUNT_MIN;
	struct tbuf t;

	(void)state;
	assert_int_equal(GPU_PKT_INDIRECT_BUFFER_COUNT_MIN, GPU_PKT_INDIRECT_BUFFER_COUNT_MAX);
	tbuf_make(&t, ARRAY_SIZE(cases) * (1 + n));
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		const uint32_t *pl;
		uint32_t sz;

		assert_int_equal(dma_emit_indirect_buffer(&t.b, cases[i].addr, cases[i].size_dw),
				 GM_OK);
		assert_int_equal(t.b.len, (i + 1) * (1 + n));
		pl = pkt_at(&t.b, i * (1 + n), GPU_OP_INDIRECT_BUFFER, n);
		assert_addr(&pl[GPU_PKT_INDIRECT_BUFFER_ADDR_LO], cases[i].addr);
		sz = pl[GPU_PKT_INDIRECT_BUFFER_SIZE];
		assert_int_equal(GPU_PKT_INDIRECT_BUFFER_SIZE_DW_GET(sz), cases[i].size_dw);
		assert_int_equal(sz & ~FIELD_BITS(GPU_PKT_INDIRECT_BUFFER_SIZE_DW), 0);
	}
	tbuf_assert_tail_guard(&t, "indirect_buffer");
	tbuf_free(&t);
}

static void test_emit_release_fence(void **state)
{
	/* A 32-bit fence gets a value with a zero high half: the contract only
	 * says the hardware writes the low half. */
	static const struct {
		uint64_t addr, value;
		bool is64, irq;
	} cases[] = {
		{ 0x1004, 0x89abcdefu, false, false },
		{ 0x1004, 0x00000001u, false, true },
		{ 0x123456789ab8ull, 0x0123456789abcdefull, true, false },
		{ ADDR_LIMIT - 8, 0xffffffffffffffffull, true, true },
	};
	const uint32_t n = GPU_PKT_RELEASE_FENCE_COUNT_MIN;
	const uint32_t flag_bits =
		FIELD_BITS(GPU_PKT_RELEASE_FENCE_SIZE64) | FIELD_BITS(GPU_PKT_RELEASE_FENCE_INT);
	struct tbuf t;

	(void)state;
	assert_int_equal(GPU_PKT_RELEASE_FENCE_COUNT_MIN, GPU_PKT_RELEASE_FENCE_COUNT_MAX);
	tbuf_make(&t, ARRAY_SIZE(cases) * (1 + n));
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		const uint32_t *pl;
		uint32_t fl;

		assert_int_equal(dma_emit_release_fence(&t.b, cases[i].addr, cases[i].value,
							cases[i].is64, cases[i].irq),
				 GM_OK);
		assert_int_equal(t.b.len, (i + 1) * (1 + n));
		pl = pkt_at(&t.b, i * (1 + n), GPU_OP_RELEASE_FENCE, n);
		assert_addr(&pl[GPU_PKT_RELEASE_FENCE_ADDR_LO], cases[i].addr);
		assert_int_equal(pl[GPU_PKT_RELEASE_FENCE_VALUE_LO], (uint32_t)cases[i].value);
		assert_int_equal(pl[GPU_PKT_RELEASE_FENCE_VALUE_HI],
				 (uint32_t)(cases[i].value >> 32));
		fl = pl[GPU_PKT_RELEASE_FENCE_FLAGS];
		assert_int_equal(GPU_PKT_RELEASE_FENCE_SIZE64_GET(fl), cases[i].is64);
		assert_int_equal(GPU_PKT_RELEASE_FENCE_INT_GET(fl), cases[i].irq);
		assert_int_equal(fl & ~flag_bits, 0); /* reserved flags: BAD_FIELD in hardware */
	}
	tbuf_assert_tail_guard(&t, "release_fence");
	tbuf_free(&t);
}

static void test_emit_wait_mem(void **state)
{
	static const uint16_t polls[] = { 0, 1, 0xffff };
	const uint32_t n = GPU_PKT_WAIT_MEM_COUNT_MIN;
	const uint32_t ctl_bits = FIELD_BITS(GPU_PKT_WAIT_MEM_FUNC) |
				  FIELD_BITS(GPU_PKT_WAIT_MEM_SIZE64) |
				  FIELD_BITS(GPU_PKT_WAIT_MEM_POLL_CYCLES);
	struct tbuf t;
	size_t k = 0;

	(void)state;
	assert_int_equal(GPU_PKT_WAIT_MEM_COUNT_MIN, GPU_PKT_WAIT_MEM_COUNT_MAX);
	tbuf_make(&t, (GPU_FUNC_GT + 1) * 2 * ARRAY_SIZE(polls) * (1 + n));
	for (uint32_t f = GPU_FUNC_ALWAYS; f <= GPU_FUNC_GT; f++) {
		for (int is64 = 0; is64 <= 1; is64++) {
			for (size_t p = 0; p < ARRAY_SIZE(polls); p++, k++) {
				uint64_t addr = is64 ? ADDR_LIMIT - 8 : 0xabcdef012344ull;
				uint64_t ref = 0x0123456789abcdefull + k;
				uint64_t mask = 0xfedcba9876543210ull ^ k;
				const uint32_t *pl;
				uint32_t ctl;

				assert_int_equal(dma_emit_wait_mem(&t.b, addr, ref, mask,
								   (enum gpu_wait_func)f, is64,
								   polls[p]),
						 GM_OK);
				assert_int_equal(t.b.len, (k + 1) * (1 + n));
				pl = pkt_at(&t.b, k * (1 + n), GPU_OP_WAIT_MEM, n);
				assert_addr(&pl[GPU_PKT_WAIT_MEM_ADDR_LO], addr);
				assert_int_equal(pl[GPU_PKT_WAIT_MEM_REF_LO], (uint32_t)ref);
				assert_int_equal(pl[GPU_PKT_WAIT_MEM_REF_HI], (uint32_t)(ref >> 32));
				assert_int_equal(pl[GPU_PKT_WAIT_MEM_MASK_LO], (uint32_t)mask);
				assert_int_equal(pl[GPU_PKT_WAIT_MEM_MASK_HI],
						 (uint32_t)(mask >> 32));
				ctl = pl[GPU_PKT_WAIT_MEM_CTL];
				assert_int_equal(GPU_PKT_WAIT_MEM_FUNC_GET(ctl), f);
				assert_int_equal(GPU_PKT_WAIT_MEM_SIZE64_GET(ctl), is64);
				assert_int_equal(GPU_PKT_WAIT_MEM_POLL_CYCLES_GET(ctl), polls[p]);
				assert_int_equal(ctl & ~ctl_bits, 0); /* reserved: BAD_FIELD */
			}
		}
	}
	tbuf_assert_tail_guard(&t, "wait_mem");
	tbuf_free(&t);
}

static void test_emit_timestamp(void **state)
{
	static const uint64_t addrs[] = { 0x0, 0x8, 0x123456789ab8ull, ADDR_LIMIT - 8 };
	const uint32_t n = GPU_PKT_TIMESTAMP_COUNT_MIN;
	struct tbuf t;

	(void)state;
	assert_int_equal(GPU_PKT_TIMESTAMP_COUNT_MIN, GPU_PKT_TIMESTAMP_COUNT_MAX);
	tbuf_make(&t, ARRAY_SIZE(addrs) * (1 + n));
	for (size_t i = 0; i < ARRAY_SIZE(addrs); i++) {
		const uint32_t *pl;

		assert_int_equal(dma_emit_timestamp(&t.b, addrs[i]), GM_OK);
		assert_int_equal(t.b.len, (i + 1) * (1 + n));
		pl = pkt_at(&t.b, i * (1 + n), GPU_OP_TIMESTAMP, n);
		assert_addr(&pl[GPU_PKT_TIMESTAMP_ADDR_LO], addrs[i]);
	}
	tbuf_assert_tail_guard(&t, "timestamp");
	tbuf_free(&t);
}

static void test_emit_raw(void **state)
{
	static const uint32_t dw[] = { 0x00000000u, 0xffffffffu, 0x12345678u };
	struct tbuf t;

	(void)state;
	tbuf_make(&t, 4);
	assert_int_equal(dma_emit_raw(&t.b, dw, 3), GM_OK);
	assert_int_equal(t.b.len, 3);
	assert_memory_equal(t.store, dw, sizeof(dw));

	/* Zero dwords: success, nothing written, source may be NULL. */
	tbuf_snap(&t);
	assert_int_equal(dma_emit_raw(&t.b, dw, 0), GM_OK);
	assert_int_equal(dma_emit_raw(&t.b, NULL, 0), GM_OK);
	tbuf_assert_unchanged(&t, "raw n=0");
	tbuf_assert_tail_guard(&t, "raw");
	tbuf_free(&t);
}

/* ------------------------------------------------------------ GM_ERR_FULL */

/* One emitter with fixed valid arguments and the dwords its packet takes. */
struct full_case {
	const char *name;
	size_t size; /* dwords */
	int (*emit)(struct dma_buf *b);
};

static const uint32_t full_data[4] = { 1, 2, 3, 4 };

static int f_raw3(struct dma_buf *b) { return dma_emit_raw(b, full_data, 3); }
static int f_nop0(struct dma_buf *b) { return dma_emit_nop(b, 0); }
static int f_nop5(struct dma_buf *b) { return dma_emit_nop(b, 5); }
static int f_wd1(struct dma_buf *b) { return dma_emit_write_data(b, 0x1000, full_data, 1); }
static int f_wd4(struct dma_buf *b) { return dma_emit_write_data(b, 0x1000, full_data, 4); }
static int f_ib(struct dma_buf *b) { return dma_emit_indirect_buffer(b, 0x2000, 16); }
static int f_fence32(struct dma_buf *b)
{
	return dma_emit_release_fence(b, 0x3004, 7, false, true);
}
static int f_fence64(struct dma_buf *b)
{
	return dma_emit_release_fence(b, 0x3008, 7, true, false);
}
static int f_wait(struct dma_buf *b)
{
	return dma_emit_wait_mem(b, 0x4000, 1, ~0ull, GPU_FUNC_GE, true, 100);
}
static int f_ts(struct dma_buf *b) { return dma_emit_timestamp(b, 0x5000); }

static const struct full_case full_cases[] = {
	{ "raw 3", 3, f_raw3 },
	{ "nop 0", 1, f_nop0 },
	{ "nop 5", 1 + 5, f_nop5 },
	{ "write_data 1", 1 + GPU_PKT_WRITE_DATA_DATA + 1, f_wd1 },
	{ "write_data 4", 1 + GPU_PKT_WRITE_DATA_DATA + 4, f_wd4 },
	{ "indirect_buffer", 1 + GPU_PKT_INDIRECT_BUFFER_COUNT_MIN, f_ib },
	{ "release_fence 32", 1 + GPU_PKT_RELEASE_FENCE_COUNT_MIN, f_fence32 },
	{ "release_fence 64", 1 + GPU_PKT_RELEASE_FENCE_COUNT_MIN, f_fence64 },
	{ "wait_mem", 1 + GPU_PKT_WAIT_MEM_COUNT_MIN, f_wait },
	{ "timestamp", 1 + GPU_PKT_TIMESTAMP_COUNT_MIN, f_ts },
};

/*
 * For every emitter, after a prefix of earlier packets: room 0 and room
 * size-1 give GM_ERR_FULL with the storage (inside and past cap) and len
 * byte-for-byte unchanged; room == size writes exactly the packet, the same
 * dwords as in a roomy buffer, and leaves the prefix alone.
 */
static void test_full_boundary(void **state)
{
	static const uint32_t prefix[] = { 0xc0ffee01u, 0xc0ffee02u, 0xc0ffee03u };

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(full_cases); i++) {
		const struct full_case *c = &full_cases[i];
		struct tbuf ref;

		/* The reference encoding, from a buffer with room to spare. */
		tbuf_make(&ref, c->size + 8);
		assert_int_equal(c->emit(&ref.b), GM_OK);
		if (ref.b.len != c->size)
			fail_msg("%s: takes %zu dwords, expected %zu", c->name, ref.b.len, c->size);

		for (size_t np = 0; np <= ARRAY_SIZE(prefix); np += ARRAY_SIZE(prefix)) {
			size_t rooms[] = { 0, c->size - 1, c->size };

			for (size_t r = 0; r < ARRAY_SIZE(rooms); r++) {
				struct tbuf t;
				char what[96];
				int st;

				snprintf(what, sizeof(what), "%s, prefix %zu, room %zu", c->name, np,
					 rooms[r]);
				tbuf_make(&t, np + rooms[r]);
				assert_int_equal(dma_emit_raw(&t.b, prefix, np), GM_OK);
				assert_int_equal(dma_buf_room(&t.b), rooms[r]);
				tbuf_snap(&t);
				st = c->emit(&t.b);
				if (rooms[r] < c->size) {
					if (st != GM_ERR_FULL)
						fail_msg("%s: %s, expected GM_ERR_FULL", what,
							 st_str(st));
					tbuf_assert_unchanged(&t, what);
				} else {
					if (st != GM_OK)
						fail_msg("%s: %s, expected GM_OK", what, st_str(st));
					assert_int_equal(t.b.len, np + c->size);
					assert_memory_equal(t.store, prefix, np * sizeof(*prefix));
					assert_memory_equal(&t.store[np], ref.store,
							    c->size * sizeof(*t.store));
					tbuf_assert_tail_guard(&t, what);
					assert_int_equal(dma_buf_room(&t.b), 0);
				}
				tbuf_free(&t);
			}
		}
		tbuf_free(&ref);
	}
}

/* ------------------------------------------------------------ GM_ERR_BAD_ARG */

/* One row of the argument table; the emitter wrapper picks the fields it needs. */
struct arg_case {
	const char *name;
	int want; /* GM_OK or GM_ERR_BAD_ARG */
	int (*emit)(struct dma_buf *b, const struct arg_case *c, const uint32_t *data);
	uint64_t addr;
	uint32_t n;       /* NOP count, WRITE_DATA dwords, IB size, WAIT_MEM func */
	bool is64;
	bool null_data;   /* WRITE_DATA with data == NULL */
};

static int a_nop(struct dma_buf *b, const struct arg_case *c, const uint32_t *data)
{
	(void)data;
	return dma_emit_nop(b, c->n);
}

static int a_wd(struct dma_buf *b, const struct arg_case *c, const uint32_t *data)
{
	return dma_emit_write_data(b, c->addr, c->null_data ? NULL : data, c->n);
}

static int a_ib(struct dma_buf *b, const struct arg_case *c, const uint32_t *data)
{
	(void)data;
	return dma_emit_indirect_buffer(b, c->addr, c->n);
}

static int a_fence(struct dma_buf *b, const struct arg_case *c, const uint32_t *data)
{
	(void)data;
	return dma_emit_release_fence(b, c->addr, 1, c->is64, false);
}

static int a_wait(struct dma_buf *b, const struct arg_case *c, const uint32_t *data)
{
	(void)data;
	return dma_emit_wait_mem(b, c->addr, 0, ~0ull, (enum gpu_wait_func)c->n, c->is64, 1);
}

static int a_ts(struct dma_buf *b, const struct arg_case *c, const uint32_t *data)
{
	(void)data;
	return dma_emit_timestamp(b, c->addr);
}

static int a_raw(struct dma_buf *b, const struct arg_case *c, const uint32_t *data)
{
	return dma_emit_raw(b, c->null_data ? NULL : data, c->n);
}

#define OK GM_OK
#define BAD GM_ERR_BAD_ARG
#define L ADDR_LIMIT

/* Each invalid value sits next to the nearest valid one. */
static const struct arg_case arg_cases[] = {
	{ "nop count max", OK, a_nop, 0, GPU_PKT_NOP_COUNT_MAX, false, false },
	{ "nop count max+1", BAD, a_nop, 0, GPU_PKT_NOP_COUNT_MAX + 1, false, false },
	{ "nop count ~0", BAD, a_nop, 0, UINT32_MAX, false, false },

	{ "write_data n 0", BAD, a_wd, 0x1000, 0, false, false },
	{ "write_data n 1", OK, a_wd, 0x1000, 1, false, false },
	{ "write_data n max", OK, a_wd, 0x1000, WD_MAX_N, false, false },
	{ "write_data n max+1", BAD, a_wd, 0x1000, WD_MAX_N + 1, false, false },
	{ "write_data n count max", BAD, a_wd, 0x1000, GPU_PKT_WRITE_DATA_COUNT_MAX, false,
	  false },
	{ "write_data n ~0", BAD, a_wd, 0x1000, UINT32_MAX, false, false },
	{ "write_data data NULL", BAD, a_wd, 0x1000, 1, false, true },
	{ "write_data addr 0", OK, a_wd, 0, 1, false, false },
	{ "write_data addr +1", BAD, a_wd, 0x1001, 1, false, false },
	{ "write_data addr +2", BAD, a_wd, 0x1002, 1, false, false },
	{ "write_data addr +3", BAD, a_wd, 0x1003, 1, false, false },
	{ "write_data addr L-4", OK, a_wd, L - 4, 1, false, false },
	{ "write_data addr L-1", BAD, a_wd, L - 1, 1, false, false },
	{ "write_data addr L", BAD, a_wd, L, 1, false, false },
	{ "write_data addr 2L", BAD, a_wd, 2 * L, 1, false, false },
	{ "write_data addr ~3", BAD, a_wd, ~3ull, 1, false, false },

	{ "ib size 0", BAD, a_ib, 0x2000, 0, false, false },
	{ "ib size 1", OK, a_ib, 0x2000, 1, false, false },
	{ "ib size field max", OK, a_ib, 0x2000, GPU_PKT_INDIRECT_BUFFER_SIZE_DW_MASK, false,
	  false },
	{ "ib size field max+1", BAD, a_ib, 0x2000, GPU_PKT_INDIRECT_BUFFER_SIZE_DW_MASK + 1,
	  false, false },
	{ "ib size ~0", BAD, a_ib, 0x2000, UINT32_MAX, false, false },
	{ "ib addr +2", BAD, a_ib, 0x2002, 1, false, false },
	{ "ib addr +4", OK, a_ib, 0x2004, 1, false, false },
	{ "ib addr L-4", OK, a_ib, L - 4, 1, false, false },
	{ "ib addr L", BAD, a_ib, L, 1, false, false },
	{ "ib addr ~3", BAD, a_ib, ~3ull, 1, false, false },

	{ "fence32 addr +4", OK, a_fence, 0x3004, 0, false, false },
	{ "fence32 addr +2", BAD, a_fence, 0x3002, 0, false, false },
	{ "fence32 addr +1", BAD, a_fence, 0x3001, 0, false, false },
	{ "fence32 addr L-4", OK, a_fence, L - 4, 0, false, false },
	{ "fence32 addr L", BAD, a_fence, L, 0, false, false },
	{ "fence64 addr +8", OK, a_fence, 0x3008, 0, true, false },
	{ "fence64 addr +4", BAD, a_fence, 0x3004, 0, true, false },
	{ "fence64 addr L-8", OK, a_fence, L - 8, 0, true, false },
	{ "fence64 addr L-4", BAD, a_fence, L - 4, 0, true, false },
	{ "fence64 addr L", BAD, a_fence, L, 0, true, false },

	{ "wait func ALWAYS", OK, a_wait, 0x4000, GPU_FUNC_ALWAYS, false, false },
	{ "wait func GT", OK, a_wait, 0x4000, GPU_FUNC_GT, false, false },
	{ "wait func GT+1", BAD, a_wait, 0x4000, GPU_FUNC_GT + 1, false, false },
	{ "wait func field max", BAD, a_wait, 0x4000, GPU_PKT_WAIT_MEM_FUNC_MASK, false,
	  false },
	{ "wait func field max+1", BAD, a_wait, 0x4000, GPU_PKT_WAIT_MEM_FUNC_MASK + 1, false,
	  false },
	{ "wait32 addr +4", OK, a_wait, 0x4004, GPU_FUNC_EQ, false, false },
	{ "wait32 addr +2", BAD, a_wait, 0x4002, GPU_FUNC_EQ, false, false },
	{ "wait32 addr L-4", OK, a_wait, L - 4, GPU_FUNC_EQ, false, false },
	{ "wait32 addr L", BAD, a_wait, L, GPU_FUNC_EQ, false, false },
	{ "wait64 addr +8", OK, a_wait, 0x4008, GPU_FUNC_EQ, true, false },
	{ "wait64 addr +4", BAD, a_wait, 0x4004, GPU_FUNC_EQ, true, false },
	{ "wait64 addr L-8", OK, a_wait, L - 8, GPU_FUNC_EQ, true, false },
	{ "wait64 addr L", BAD, a_wait, L, GPU_FUNC_EQ, true, false },

	{ "timestamp addr +8", OK, a_ts, 0x5008, 0, false, false },
	{ "timestamp addr +4", BAD, a_ts, 0x5004, 0, false, false },
	{ "timestamp addr +1", BAD, a_ts, 0x5001, 0, false, false },
	{ "timestamp addr L-8", OK, a_ts, L - 8, 0, false, false },
	{ "timestamp addr L", BAD, a_ts, L, 0, false, false },
	{ "timestamp addr ~7", BAD, a_ts, ~7ull, 0, false, false },

	{ "raw src NULL n 1", BAD, a_raw, 0, 1, false, true },
	{ "raw src NULL n 0", OK, a_raw, 0, 0, false, true },
};

/* Every emitter once with valid arguments, to be given a NULL buffer. */
static const struct arg_case null_buf_cases[] = {
	{ "nop", BAD, a_nop, 0, 1, false, false },
	{ "write_data", BAD, a_wd, 0x1000, 1, false, false },
	{ "ib", BAD, a_ib, 0x2000, 1, false, false },
	{ "fence", BAD, a_fence, 0x3008, 0, true, false },
	{ "wait", BAD, a_wait, 0x4000, GPU_FUNC_EQ, false, false },
	{ "timestamp", BAD, a_ts, 0x5000, 0, false, false },
	{ "raw", BAD, a_raw, 0, 1, false, false },
	{ "raw n 0", BAD, a_raw, 0, 0, false, false },
};

#undef OK
#undef BAD
#undef L

/*
 * Each row after a one-dword prefix: the exact status; on GM_ERR_BAD_ARG
 * nothing written.  A bad row is also run with room 0 and must still say
 * GM_ERR_BAD_ARG: arguments are checked before room.
 */
static void test_bad_arg_table(void **state)
{
	const size_t cap = 1 + 1 + GPU_PKT_WRITE_DATA_COUNT_MAX;
	uint32_t *data = test_malloc((WD_MAX_N + 1) * sizeof(*data));
	const uint32_t one = GPU_PKT_HDR(GPU_OP_NOP, 0);

	(void)state;
	for (uint32_t i = 0; i <= WD_MAX_N; i++)
		data[i] = i;
	for (size_t i = 0; i < ARRAY_SIZE(arg_cases); i++) {
		const struct arg_case *c = &arg_cases[i];
		int passes = c->want == GM_OK ? 1 : 2;

		for (int p = 0; p < passes; p++) {
			struct tbuf t;
			char what[96];
			int st;

			snprintf(what, sizeof(what), "%s%s", c->name, p ? " (room 0)" : "");
			tbuf_make(&t, p ? 1 : cap);
			assert_int_equal(dma_emit_raw(&t.b, &one, 1), GM_OK);
			tbuf_snap(&t);
			st = c->emit(&t.b, c, data);
			if (st != c->want)
				fail_msg("%s: %s, expected %s", what, st_str(st), st_str(c->want));
			if (st == GM_OK) {
				bool empty = c->emit == a_raw && c->n == 0;

				if (!empty && t.b.len == t.snap_len)
					fail_msg("%s: GM_OK but nothing written", what);
				tbuf_assert_tail_guard(&t, what);
			} else {
				tbuf_assert_unchanged(&t, what);
			}
			tbuf_free(&t);
		}
	}
	test_free(data);
}

/* A NULL buffer is GM_ERR_BAD_ARG for every emitter, not a crash. */
static void test_bad_arg_null_buffer(void **state)
{
	static const uint32_t data[2] = { 1, 2 };

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(null_buf_cases); i++) {
		const struct arg_case *c = &null_buf_cases[i];
		int st = c->emit(NULL, c, data);

		if (st != GM_ERR_BAD_ARG)
			fail_msg("%s with NULL buffer: %s, expected GM_ERR_BAD_ARG", c->name,
				 st_str(st));
	}
}

/*
 * A buffer wrapped over NULL storage is GM_ERR_BAD_ARG for every emitter
 * and is not written through (dma_emit_raw used to memcpy to it).
 */
static void test_bad_arg_no_storage(void **state)
{
	static const uint32_t data[2] = { 1, 2 };
	static const size_t caps[] = { 0, 16 };

	(void)state;
	for (size_t k = 0; k < ARRAY_SIZE(caps); k++) {
		for (size_t i = 0; i < ARRAY_SIZE(null_buf_cases); i++) {
			const struct arg_case *c = &null_buf_cases[i];
			struct dma_buf b;
			int st;

			dma_buf_init(&b, NULL, caps[k]);
			st = c->emit(&b, c, data);
			if (st != GM_ERR_BAD_ARG)
				fail_msg("%s with NULL storage, cap %zu: %s, expected "
					 "GM_ERR_BAD_ARG", c->name, caps[k], st_str(st));
			assert_int_equal(b.len, 0);
		}
	}
}

/* ------------------------------------------------------------ disassembler */

/* Run dma_disasm into a string; *bad receives its return value.  free() it. */
static char *disasm_text(const uint32_t *dw, size_t n, uint64_t addr, dma_read_fn rd,
			 void *ctx, int *bad)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	*bad = dma_disasm(f, dw, n, addr, rd, ctx);
	assert_int_equal(fclose(f), 0);
	assert_non_null(text);
	assert_int_equal(strlen(text), len);
	return text;
}

static void assert_disasm(const uint32_t *dw, size_t n, uint64_t addr, dma_read_fn rd,
			  void *ctx, int want_bad, const char *want_text)
{
	int bad;
	char *text = disasm_text(dw, n, addr, rd, ctx, &bad);
	bool same = strcmp(text, want_text) == 0;

	/* Report and free before failing: cmocka's failure does not return. */
	if (!same)
		print_error("got:\n%s\nexpected:\n%s\n", text, want_text);
	free(text);
	if (!same)
		fail_msg("disassembly differs");
	if (bad != want_bad)
		fail_msg("dma_disasm returned %d, expected %d", bad, want_bad);
}

/* GPU memory for the read callback: @n dwords at @base. */
struct mem_img {
	uint64_t base;
	const uint32_t *dw;
	size_t n;
	unsigned int reads; /* calls, for checking what was followed */
};

static int mem_read(void *ctx, uint64_t addr, uint32_t *dw, size_t n)
{
	struct mem_img *m = ctx;
	uint64_t off;

	m->reads++;
	if (addr < m->base || (addr - m->base) % 4)
		return -1;
	off = (addr - m->base) / 4;
	if (off > m->n || n > m->n - off)
		return -1;
	memcpy(dw, &m->dw[off], n * sizeof(*dw));
	return 0;
}

/* An opcode regspec lacks, found in the table rather than typed. */
static uint32_t unknown_opcode(void)
{
	for (uint32_t op = GPU_HDR_OPCODE_MASK; op > 0; op--)
		if (!gpu_opcode_name(op))
			return op;
	fail_msg("every opcode is defined");
	return 0;
}

static void test_disasm_golden_nop(void **state)
{
	uint32_t dw[8];
	struct dma_buf b;

	(void)state;
	dma_buf_init(&b, dw, ARRAY_SIZE(dw));
	assert_int_equal(dma_emit_nop(&b, 0), GM_OK);
	assert_int_equal(dma_emit_nop(&b, 2), GM_OK);
	assert_disasm(dw, b.len, 0x1000, NULL, NULL, 0,
		      "  0x000000001000: NOP\n"
		      "  0x000000001004: NOP DW=0x0 DW=0x0\n");
}

static void test_disasm_golden_write_data(void **state)
{
	static const uint32_t data[] = { 0xdeadbeefu, 0x1u, 0xcafef00du };
	uint32_t dw[16];
	struct dma_buf b;

	(void)state;
	dma_buf_init(&b, dw, ARRAY_SIZE(dw));
	assert_int_equal(dma_emit_write_data(&b, 0x123456789abcull, data, 1), GM_OK);
	assert_int_equal(dma_emit_write_data(&b, 0x40, data, 3), GM_OK);
	assert_disasm(dw, b.len, 0x10000000000ull, NULL, NULL, 0,
		      "  0x010000000000: WRITE_DATA ADDR_LO=0x56789abc ADDR_HI=0x1234 "
		      "DATA=0xdeadbeef\n"
		      "  0x010000000010: WRITE_DATA ADDR_LO=0x40 ADDR_HI=0x0 DATA=0xdeadbeef "
		      "DATA=0x1 DATA=0xcafef00d\n");
}

/* More than 16 payload dwords: the first 16 and the count. */
static void test_disasm_golden_long(void **state)
{
	uint32_t data[20], dw[32];
	struct dma_buf b;

	(void)state;
	for (uint32_t i = 0; i < ARRAY_SIZE(data); i++)
		data[i] = i;
	dma_buf_init(&b, dw, ARRAY_SIZE(dw));
	assert_int_equal(dma_emit_write_data(&b, 0x100, data, 20), GM_OK);
	assert_disasm(dw, b.len, 0, NULL, NULL, 0,
		      "  0x000000000000: WRITE_DATA ADDR_LO=0x100 ADDR_HI=0x0 DATA=0x0 DATA=0x1 "
		      "DATA=0x2 DATA=0x3 DATA=0x4 DATA=0x5 DATA=0x6 DATA=0x7 DATA=0x8 DATA=0x9 "
		      "DATA=0xa DATA=0xb DATA=0xc DATA=0xd ...(22 dwords)\n");
}

static void test_disasm_golden_fence_wait_ts(void **state)
{
	uint32_t dw[32];
	struct dma_buf b;

	(void)state;
	dma_buf_init(&b, dw, ARRAY_SIZE(dw));
	assert_int_equal(dma_emit_release_fence(&b, 0x2008, 0x0123456789abcdefull, true, true),
			 GM_OK);
	assert_int_equal(dma_emit_release_fence(&b, 0x2004, 5, false, false), GM_OK);
	assert_int_equal(dma_emit_wait_mem(&b, 0x2008, 0x10, 0xff, GPU_FUNC_GE, false, 100),
			 GM_OK);
	assert_int_equal(dma_emit_timestamp(&b, 0xffffffffff8ull), GM_OK);
	assert_disasm(dw, b.len, 0x800, NULL, NULL, 0,
		      "  0x000000000800: RELEASE_FENCE ADDR_LO=0x2008 ADDR_HI=0x0 "
		      "VALUE_LO=0x89abcdef VALUE_HI=0x1234567 FLAGS=0x3\n"
		      "  0x000000000818: RELEASE_FENCE ADDR_LO=0x2004 ADDR_HI=0x0 VALUE_LO=0x5 "
		      "VALUE_HI=0x0 FLAGS=0x0\n"
		      "  0x000000000830: WAIT_MEM ADDR_LO=0x2008 ADDR_HI=0x0 REF_LO=0x10 "
		      "REF_HI=0x0 MASK_LO=0xff MASK_HI=0x0 CTL=0x640005\n"
		      "  0x000000000850: TIMESTAMP ADDR_LO=0xfffffff8 ADDR_HI=0xfff\n");
}

/* Without a read callback an IB is printed but not followed. */
static void test_disasm_golden_ib_unfollowed(void **state)
{
	uint32_t dw[8];
	struct dma_buf b;

	(void)state;
	dma_buf_init(&b, dw, ARRAY_SIZE(dw));
	assert_int_equal(dma_emit_indirect_buffer(&b, 0xabc00000000ull, 0x100), GM_OK);
	assert_disasm(dw, b.len, 0, NULL, NULL, 0,
		      "  0x000000000000: INDIRECT_BUFFER ADDR_LO=0x0 ADDR_HI=0xabc SIZE=0x100\n");
}

static void test_disasm_bad_args(void **state)
{
	uint32_t dw[1] = { GPU_PKT_HDR(GPU_OP_NOP, 0) };
	int bad;
	char *text;

	(void)state;
	assert_int_equal(dma_disasm(NULL, dw, 1, 0, NULL, NULL), -1);
	text = disasm_text(NULL, 1, 0, NULL, NULL, &bad);
	assert_int_equal(bad, -1);
	assert_string_equal(text, "");
	free(text);
	/* An empty buffer is clean and prints nothing. */
	assert_disasm(NULL, 0, 0, NULL, NULL, 0, "");
	assert_disasm(dw, 0, 0, NULL, NULL, 0, "");
}

/* A TYPE other than 3: refused, and decoding resumes after its COUNT. */
static void test_disasm_refused_bad_type(void **state)
{
	uint32_t dw[3] = {
		GPU_HDR_TYPE(GPU_PKT_TYPE3 - 1) | GPU_HDR_OPCODE(GPU_OP_NOP) | GPU_HDR_COUNT(1),
		0x12345678u,
		GPU_PKT_HDR(GPU_OP_NOP, 0),
	};

	(void)state;
	assert_disasm(dw, ARRAY_SIZE(dw), 0x100, NULL, NULL, 1,
		      "  0x000000000100: 80011000 NOP !! hardware would halt: BAD_TYPE\n"
		      "  0x000000000108: NOP\n");
}

static void test_disasm_refused_bad_opcode(void **state)
{
	uint32_t op = unknown_opcode();
	uint32_t dw[4] = { GPU_PKT_HDR(op, 2), 0, 0, GPU_PKT_HDR(GPU_OP_NOP, 0) };
	char want[160];

	(void)state;
	snprintf(want, sizeof(want),
		 "  0x000000000000: %08x ? !! hardware would halt: BAD_OPCODE\n"
		 "  0x00000000000c: NOP\n",
		 GPU_PKT_HDR(op, 2));
	assert_disasm(dw, ARRAY_SIZE(dw), 0, NULL, NULL, 1, want);
}

/* COUNT past the end of the buffer: refused, and decoding stops there. */
static void test_disasm_refused_count_overrun(void **state)
{
	uint32_t dw[4] = { GPU_PKT_HDR(GPU_OP_NOP, 0), GPU_PKT_HDR(GPU_OP_NOP, 2), 0, 0 };

	(void)state;
	/* COUNT 2 in the last 3 dwords fits exactly. */
	assert_disasm(dw, 4, 0, NULL, NULL, 0,
		      "  0x000000000000: NOP\n"
		      "  0x000000000004: NOP DW=0x0 DW=0x0\n");
	/* One dword short. */
	assert_disasm(dw, 3, 0, NULL, NULL, 1,
		      "  0x000000000000: NOP\n"
		      "  0x000000000004: c0021000 NOP !! hardware would halt: BAD_COUNT\n");
}

/* COUNT outside the opcode's min..max is refused even when it fits. */
static void test_disasm_refused_count_range(void **state)
{
	uint32_t dw[16] = {
		GPU_PKT_HDR(GPU_OP_TIMESTAMP, GPU_PKT_TIMESTAMP_COUNT_MIN - 1),
	};

	(void)state;
	assert_disasm(dw, ARRAY_SIZE(dw), 0, NULL, NULL, 1,
		      "  0x000000000000: c0014a00 TIMESTAMP !! hardware would halt: BAD_COUNT\n");
	dw[0] = GPU_PKT_HDR(GPU_OP_WAIT_MEM, GPU_PKT_WAIT_MEM_COUNT_MAX + 1);
	assert_disasm(dw, ARRAY_SIZE(dw), 0, NULL, NULL, 1,
		      "  0x000000000000: c0083c00 WAIT_MEM !! hardware would halt: BAD_COUNT\n");
}

/* All three causes in one buffer: the return value counts each. */
static void test_disasm_refused_all(void **state)
{
	uint32_t op = unknown_opcode();
	uint32_t dw[16];
	uint32_t bad_type = GPU_HDR_TYPE(0) | GPU_HDR_OPCODE(GPU_OP_NOP);
	uint32_t bad_op[2] = { GPU_PKT_HDR(op, 1), 0 };
	uint32_t overrun = GPU_PKT_HDR(GPU_OP_NOP, 5);
	struct dma_buf b;
	int bad;
	char *text;

	(void)state;
	dma_buf_init(&b, dw, ARRAY_SIZE(dw));
	assert_int_equal(dma_emit_raw(&b, &bad_type, 1), GM_OK);
	assert_int_equal(dma_emit_timestamp(&b, 0x8), GM_OK);
	assert_int_equal(dma_emit_raw(&b, bad_op, 2), GM_OK);
	assert_int_equal(dma_emit_nop(&b, 1), GM_OK);
	assert_int_equal(dma_emit_raw(&b, &overrun, 1), GM_OK);
	text = disasm_text(dw, b.len, 0, NULL, NULL, &bad);
	assert_int_equal(bad, 3);
	assert_non_null(strstr(text, "BAD_TYPE"));
	assert_non_null(strstr(text, "BAD_OPCODE"));
	assert_non_null(strstr(text, "BAD_COUNT"));
	assert_non_null(strstr(text, "TIMESTAMP ADDR_LO=0x8"));
	assert_non_null(strstr(text, "0x000000000018: NOP DW=0x0\n"));
	free(text);
}

/*
 * A ring with two IBs.  IB1 (readable) holds a WRITE_DATA, a nested IB
 * (IB_NESTED, not followed) and a TIMESTAMP; IB2 is at an address the
 * callback cannot read.
 */
static void test_disasm_ib_follow(void **state)
{
	const uint64_t ib1 = 0x100000, ib2 = 0x200000, ring_at = 0x4000;
	static const uint32_t v = 0x5a5a5a5au;
	uint32_t ib1_dw[32], ring[16];
	struct dma_buf b;
	size_t ib1_len;
	struct mem_img mem;

	(void)state;
	dma_buf_init(&b, ib1_dw, ARRAY_SIZE(ib1_dw));
	assert_int_equal(dma_emit_write_data(&b, 0x9000, &v, 1), GM_OK);
	assert_int_equal(dma_emit_indirect_buffer(&b, ib1, 4), GM_OK);
	assert_int_equal(dma_emit_timestamp(&b, 0x9008), GM_OK);
	ib1_len = b.len;

	dma_buf_init(&b, ring, ARRAY_SIZE(ring));
	assert_int_equal(dma_emit_nop(&b, 0), GM_OK);
	assert_int_equal(dma_emit_indirect_buffer(&b, ib1, (uint32_t)ib1_len), GM_OK);
	assert_int_equal(dma_emit_indirect_buffer(&b, ib2, 8), GM_OK);
	assert_int_equal(dma_emit_nop(&b, 0), GM_OK);

	mem = (struct mem_img){ .base = ib1, .dw = ib1_dw, .n = ib1_len };
	assert_disasm(ring, b.len, ring_at, mem_read, &mem, 1,
		      "  0x000000004000: NOP\n"
		      "  0x000000004004: INDIRECT_BUFFER ADDR_LO=0x100000 ADDR_HI=0x0 SIZE=0xb\n"
		      "      0x000000100000: WRITE_DATA ADDR_LO=0x9000 ADDR_HI=0x0 "
		      "DATA=0x5a5a5a5a\n"
		      "      0x000000100010: INDIRECT_BUFFER ADDR_LO=0x100000 ADDR_HI=0x0 "
		      "SIZE=0x4\n"
		      "        !! hardware would halt: IB_NESTED\n"
		      "      0x000000100020: TIMESTAMP ADDR_LO=0x9008 ADDR_HI=0x0\n"
		      "  0x000000004014: INDIRECT_BUFFER ADDR_LO=0x200000 ADDR_HI=0x0 SIZE=0x8\n"
		      "    (IB at 0x000000200000 not readable)\n"
		      "  0x000000004024: NOP\n");
	/* Two top-level IBs read; the nested one is not followed. */
	assert_int_equal(mem.reads, 2);
}

/* A refused packet inside an IB is counted and indented under it. */
static void test_disasm_ib_refused_inside(void **state)
{
	const uint64_t ib = 0x7000;
	uint32_t ib_dw[2] = { GPU_PKT_HDR(GPU_OP_NOP, 0), GPU_PKT_HDR(GPU_OP_TIMESTAMP, 1) };
	uint32_t ring[4];
	struct dma_buf b;
	struct mem_img mem = { .base = ib, .dw = ib_dw, .n = ARRAY_SIZE(ib_dw) };

	(void)state;
	dma_buf_init(&b, ring, ARRAY_SIZE(ring));
	assert_int_equal(dma_emit_indirect_buffer(&b, ib, ARRAY_SIZE(ib_dw)), GM_OK);
	assert_disasm(ring, b.len, 0, mem_read, &mem, 1,
		      "  0x000000000000: INDIRECT_BUFFER ADDR_LO=0x7000 ADDR_HI=0x0 SIZE=0x2\n"
		      "      0x000000007000: NOP\n"
		      "      0x000000007004: c0014a00 TIMESTAMP !! hardware would halt: "
		      "BAD_COUNT\n");
	assert_int_equal(mem.reads, 1);
}

/* ------------------------------------------------------------ name tables */

struct name_case {
	uint32_t v;
	const char *name;
};

#define OPN(x) { GPU_OP_##x, #x }
static const struct name_case opcode_names[] = {
	OPN(NOP), OPN(WRITE_DATA), OPN(WAIT_MEM), OPN(INDIRECT_BUFFER), OPN(RELEASE_FENCE),
	OPN(TIMESTAMP), OPN(PTE_WRITE), OPN(INVALIDATE_TLB), OPN(COPY), OPN(BLT), OPN(FILL),
};
#undef OPN

#define CAUSEN(x) { GPU_CAUSE_##x, #x }
static const struct name_case cause_names[] = {
	CAUSEN(NONE), CAUSEN(BAD_TYPE), CAUSEN(BAD_OPCODE), CAUSEN(BAD_COUNT),
	CAUSEN(IB_RANGE), CAUSEN(IB_NESTED), CAUSEN(BAD_ALIGN), CAUSEN(BAD_FIELD),
	CAUSEN(MEM_ERROR), CAUSEN(BAD_RING), CAUSEN(PAGE_FAULT), CAUSEN(PRIV),
};
#undef CAUSEN

#define STN(x) { GPU_CP_ST_##x, #x }
static const struct name_case state_names[] = {
	STN(IDLE), STN(HEADER), STN(PAYLOAD), STN(EXEC), STN(SKIP), STN(WDATA), STN(WRITE),
	STN(FDRAIN), STN(FACK), STN(WREAD), STN(WRESP), STN(WPOLL), STN(DONE), STN(HALTED),
	STN(ERROR), STN(PTE), STN(INV), STN(CDRAIN), STN(CWAIT),
};
#undef STN

#define FUNCN(x) { GPU_FUNC_##x, #x }
static const struct name_case func_names[] = {
	FUNCN(ALWAYS), FUNCN(LT), FUNCN(LE), FUNCN(EQ), FUNCN(NE), FUNCN(GE), FUNCN(GT),
};
#undef FUNCN

/*
 * @fn names every value of @tab by its enum suffix, and returns NULL for
 * every other value of the @field_mask-wide register field and past it.
 */
static void check_names(const char *what, const char *(*fn)(uint32_t),
			const struct name_case *tab, size_t n, uint32_t field_mask)
{
	static const uint32_t far[] = { 0x100, 0x10000, 0x80000000u, UINT32_MAX };

	for (size_t i = 0; i < n; i++) {
		const char *s = fn(tab[i].v);

		if (!s || strcmp(s, tab[i].name) != 0)
			fail_msg("%s 0x%x: \"%s\", expected \"%s\"", what, tab[i].v,
				 s ? s : "(null)", tab[i].name);
	}
	for (uint32_t v = 0; v <= field_mask + 1; v++) {
		bool known = false;
		const char *s;

		for (size_t i = 0; i < n; i++)
			known |= tab[i].v == v;
		s = fn(v);
		if (!known && s)
			fail_msg("%s 0x%x: \"%s\", expected NULL", what, v, s);
	}
	for (size_t i = 0; i < ARRAY_SIZE(far); i++)
		if (fn(far[i]))
			fail_msg("%s 0x%x: not NULL", what, far[i]);
}

static void test_names_opcode(void **state)
{
	(void)state;
	check_names("gpu_opcode_name", gpu_opcode_name, opcode_names, ARRAY_SIZE(opcode_names),
		    GPU_HDR_OPCODE_MASK);
}

static void test_names_cause(void **state)
{
	(void)state;
	check_names("gpu_cause_name", gpu_cause_name, cause_names, ARRAY_SIZE(cause_names),
		    GPU_Q_ERR_CAUSE_CAUSE_MASK);
}

static void test_names_cp_state(void **state)
{
	(void)state;
	check_names("gpu_cp_state_name", gpu_cp_state_name, state_names,
		    ARRAY_SIZE(state_names), GPU_Q_STATUS_STATE_MASK);
}

static void test_names_wait_func(void **state)
{
	(void)state;
	check_names("gpu_wait_func_name", gpu_wait_func_name, func_names,
		    ARRAY_SIZE(func_names), GPU_PKT_WAIT_MEM_FUNC_MASK);
}

struct pkt_case {
	uint32_t op;
	const char *name;
	uint32_t count_min, count_max;
	uint32_t ndw; /* named payload dwords */
};

/* Fixed-size packets name every payload dword; WRITE_DATA names up to DATA. */
#define PKT(x, ndw) { GPU_OP_##x, #x, GPU_PKT_##x##_COUNT_MIN, GPU_PKT_##x##_COUNT_MAX, ndw }
static const struct pkt_case pkt_cases[] = {
	PKT(NOP, 0),
	PKT(WRITE_DATA, GPU_PKT_WRITE_DATA_DATA + 1),
	PKT(WAIT_MEM, GPU_PKT_WAIT_MEM_COUNT_MAX),
	PKT(INDIRECT_BUFFER, GPU_PKT_INDIRECT_BUFFER_COUNT_MAX),
	PKT(RELEASE_FENCE, GPU_PKT_RELEASE_FENCE_COUNT_MAX),
	PKT(TIMESTAMP, GPU_PKT_TIMESTAMP_COUNT_MAX),
	PKT(PTE_WRITE, GPU_PKT_PTE_WRITE_COUNT_MAX),
	PKT(INVALIDATE_TLB, GPU_PKT_INVALIDATE_TLB_COUNT_MAX),
	PKT(COPY, GPU_PKT_COPY_COUNT_MAX),
	PKT(BLT, GPU_PKT_BLT_COUNT_MAX),
	PKT(FILL, GPU_PKT_FILL_COUNT_MAX),
};
#undef PKT

static void test_pkt_desc_counts(void **state)
{
	size_t found = 0;

	(void)state;
	assert_int_equal(ARRAY_SIZE(pkt_cases), ARRAY_SIZE(opcode_names));
	for (size_t i = 0; i < ARRAY_SIZE(pkt_cases); i++) {
		const struct pkt_case *c = &pkt_cases[i];
		const struct gpu_pkt_desc *pd = gpu_pkt_desc(c->op);

		if (!pd)
			fail_msg("gpu_pkt_desc(%s): NULL", c->name);
		assert_string_equal(pd->name, c->name);
		assert_int_equal(pd->opcode, c->op);
		if (pd->count_min != c->count_min || pd->count_max != c->count_max)
			fail_msg("%s: COUNT %u..%u, gpu_hw.h says %u..%u", c->name, pd->count_min,
				 pd->count_max, c->count_min, c->count_max);
		assert_true(pd->count_max <= GPU_PKT_MAX_COUNT);
		assert_int_equal(pd->ndw, c->ndw);
	}
	for (uint32_t op = 0; op <= GPU_HDR_OPCODE_MASK + 1; op++)
		found += gpu_pkt_desc(op) != NULL;
	assert_int_equal(found, ARRAY_SIZE(pkt_cases));
	assert_null(gpu_pkt_desc(UINT32_MAX));
	assert_int_equal(GPU_PKT_MAX_COUNT, GPU_HDR_COUNT_MASK);
}

struct dw_case {
	uint32_t op;
	uint32_t idx;
	const char *name;
};

#define DWN(p, f) { GPU_OP_##p, GPU_PKT_##p##_##f, #f }
static const struct dw_case dw_cases[] = {
	DWN(WRITE_DATA, ADDR_LO), DWN(WRITE_DATA, ADDR_HI), DWN(WRITE_DATA, DATA),
	DWN(WAIT_MEM, ADDR_LO), DWN(WAIT_MEM, ADDR_HI), DWN(WAIT_MEM, REF_LO),
	DWN(WAIT_MEM, REF_HI), DWN(WAIT_MEM, MASK_LO), DWN(WAIT_MEM, MASK_HI),
	DWN(WAIT_MEM, CTL),
	DWN(INDIRECT_BUFFER, ADDR_LO), DWN(INDIRECT_BUFFER, ADDR_HI),
	DWN(INDIRECT_BUFFER, SIZE),
	DWN(RELEASE_FENCE, ADDR_LO), DWN(RELEASE_FENCE, ADDR_HI),
	DWN(RELEASE_FENCE, VALUE_LO), DWN(RELEASE_FENCE, VALUE_HI),
	DWN(RELEASE_FENCE, FLAGS),
	DWN(TIMESTAMP, ADDR_LO), DWN(TIMESTAMP, ADDR_HI),
};
#undef DWN

/* The payload dword names the disassembler prints sit at the gpu_hw.h indexes. */
static void test_pkt_desc_dw_names(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(dw_cases); i++) {
		const struct dw_case *c = &dw_cases[i];
		const struct gpu_pkt_desc *pd = gpu_pkt_desc(c->op);

		assert_non_null(pd);
		if (c->idx >= pd->ndw || !pd->dw_names[c->idx] ||
		    strcmp(pd->dw_names[c->idx], c->name) != 0)
			fail_msg("%s payload dword %u: \"%s\", expected \"%s\"", pd->name, c->idx,
				 c->idx < pd->ndw && pd->dw_names[c->idx] ? pd->dw_names[c->idx]
									  : "(none)",
				 c->name);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_emit_nop),
		cmocka_unit_test(test_emit_write_data),
		cmocka_unit_test(test_emit_indirect_buffer),
		cmocka_unit_test(test_emit_release_fence),
		cmocka_unit_test(test_emit_wait_mem),
		cmocka_unit_test(test_emit_timestamp),
		cmocka_unit_test(test_emit_raw),
		cmocka_unit_test(test_full_boundary),
		cmocka_unit_test(test_bad_arg_table),
		cmocka_unit_test(test_bad_arg_null_buffer),
		cmocka_unit_test(test_bad_arg_no_storage),
		cmocka_unit_test(test_disasm_golden_nop),
		cmocka_unit_test(test_disasm_golden_write_data),
		cmocka_unit_test(test_disasm_golden_long),
		cmocka_unit_test(test_disasm_golden_fence_wait_ts),
		cmocka_unit_test(test_disasm_golden_ib_unfollowed),
		cmocka_unit_test(test_disasm_bad_args),
		cmocka_unit_test(test_disasm_refused_bad_type),
		cmocka_unit_test(test_disasm_refused_bad_opcode),
		cmocka_unit_test(test_disasm_refused_count_overrun),
		cmocka_unit_test(test_disasm_refused_count_range),
		cmocka_unit_test(test_disasm_refused_all),
		cmocka_unit_test(test_disasm_ib_follow),
		cmocka_unit_test(test_disasm_ib_refused_inside),
		cmocka_unit_test(test_names_opcode),
		cmocka_unit_test(test_names_cause),
		cmocka_unit_test(test_names_cp_state),
		cmocka_unit_test(test_names_wait_func),
		cmocka_unit_test(test_pkt_desc_counts),
		cmocka_unit_test(test_pkt_desc_dw_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
