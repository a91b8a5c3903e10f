/* SPDX-License-Identifier: MIT */
/*
 * test_ce.c - the copy engine: COPY, BLT and FILL through the queues.
 *
 * Every result is checked against the C oracle: COPY against memmove of a
 * shadow, BLT against gpu_tile_offset() element by element, FILL against
 * the pattern rule.  Guard bytes around every destination must survive.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fw_vm.h"
#include "gpu_pkt.h"
#include "gpu_tile.h"
#include "tb_util.h"

#define SRC 0x00100000ull  /* VRAM areas, 64 KiB aligned */
#define DST 0x00400000ull
#define DST2 0x00800000ull
#define AREA 0x00200000u

static uint64_t rng_state;

static uint64_t rnd(void)
{
	return tb_rand(&rng_state);
}

static uint8_t *rnd_area(struct tb *t, uint64_t addr, size_t n)
{
	uint8_t *p = malloc(n);

	assert_non_null(p);
	for (size_t i = 0; i < n; i++)
		p[i] = (uint8_t)rnd();
	assert_int_equal(gm_backdoor_write(t->g, addr, p, n), GM_OK);
	return p;
}

static uint8_t *read_area(struct tb *t, uint64_t addr, size_t n)
{
	uint8_t *p = malloc(n);

	assert_non_null(p);
	assert_int_equal(gm_backdoor_read(t->g, addr, p, n), GM_OK);
	return p;
}

/* Run the packets of @b on queue @q and wait for them. */
static void run(struct tb *t, unsigned q, const struct dma_buf *b)
{
	tb_wait(t, q, tb_submit_ib(t, q, b));
}

/* COPY: every length 1..80 at every source and destination alignment in a
 * beat (a sample of the 32 x 32 pairs per length), in batches of packets. */
static void test_copy_edges(void **state)
{
	struct tb t;
	uint32_t dw[4096];
	struct dma_buf b;
	uint8_t *src, *shadow, *got;
	uint64_t seed = tb_seed("build/tests/test_ce");
	unsigned n = 0;

	(void)state;
	rng_state = seed | 1;
	tb_open(&t);
	src = rnd_area(&t, SRC, 0x20000);
	shadow = rnd_area(&t, DST, 0x20000);
	dma_buf_init(&b, dw, 4096);
	for (uint32_t len = 1; len <= 80; len++) {
		for (unsigned k = 0; k < 24; k++) {
			uint32_t sa = (uint32_t)(rnd() % 32), da = (uint32_t)(rnd() % 32);
			uint32_t so = (n * 128u) % 0x1f000u + sa, d_o = (n * 160u) % 0x1f000u + da;

			if (dma_emit_copy(&b, DST + d_o, SRC + so, len) == GM_ERR_FULL) {
				run(&t, 0, &b);
				dma_buf_init(&b, dw, 4096);
				assert_int_equal(dma_emit_copy(&b, DST + d_o, SRC + so, len), GM_OK);
			}
			memcpy(shadow + d_o, src + so, len);
			n++;
		}
	}
	run(&t, 0, &b);
	got = read_area(&t, DST, 0x20000);
	for (size_t i = 0; i < 0x20000; i++) {
		if (got[i] != shadow[i])
			fail_msg("COPY byte +0x%zx: 0x%02x, want 0x%02x (seed %" PRIu64 ")", i,
				 got[i], shadow[i], seed);
	}
	free(src);
	free(shadow);
	free(got);
	tb_close(&t);
}

/* COPY across 4 KiB and 64 KiB boundaries, large and misaligned, on the
 * privileged queue; then a zero-length COPY changes nothing. */
static void test_copy_large(void **state)
{
	struct tb t;
	uint32_t dw[64];
	struct dma_buf b;
	uint8_t *src, *got, *guard;
	const uint32_t len = 200000, so = 0xfff3, d_o = 0x1ffe9;

	(void)state;
	rng_state = 0x1234567;
	tb_open(&t);
	src = rnd_area(&t, SRC, AREA);
	guard = rnd_area(&t, DST, AREA);
	dma_buf_init(&b, dw, 64);
	assert_int_equal(dma_emit_copy(&b, DST + d_o, SRC + so, len), GM_OK);
	assert_int_equal(dma_emit_copy(&b, DST, SRC, 0), GM_OK);
	run(&t, 1, &b);
	got = read_area(&t, DST, AREA);
	assert_memory_equal(got + d_o, src + so, len);
	assert_memory_equal(got, guard, d_o);
	assert_memory_equal(got + d_o + len, guard + d_o + len, AREA - d_o - len);
	assert_int_equal(tb_rd(&t, GPU_REG_CE_STATUS), GPU_CE_ST_IDLE);
	free(src);
	free(got);
	free(guard);
	tb_close(&t);
}

struct surf_case {
	unsigned mode, bpe;
	uint32_t pitch;
};

/* Expected result of a BLT computed with the C oracle on host copies. */
static void blt_model(uint8_t *dmem, const struct dma_surf *d, const uint8_t *smem,
		      const struct dma_surf *s, uint32_t w, uint32_t h)
{
	uint32_t eb = 1u << s->bpe_log2;

	for (uint32_t y = 0; y < h; y++) {
		for (uint32_t x = 0; x < w; x++) {
			uint64_t so = gpu_tile_offset(s->mode, s->bpe_log2, s->pitch, s->x + x, s->y + y);
			uint64_t dof = gpu_tile_offset(d->mode, d->bpe_log2, d->pitch, d->x + x, d->y + y);

			memcpy(dmem + dof, smem + so, eb);
		}
	}
}

static uint32_t pitch_for(unsigned mode, unsigned bpe, uint32_t tiles)
{
	struct gpu_tile_info ti;

	assert_int_equal(gpu_tile_info(mode, bpe, &ti), GM_OK);
	return mode == GPU_TILE_LINEAR ? (tiles * 512u) + 64u : tiles * ti.tile_w_bytes;
}

/* BLT between every pair of layouts at every element size: a sub-rectangle
 * at odd origins, checked against the oracle (and every byte outside the
 * rectangle unchanged); then linear -> tiled -> linear is the identity. */
static void test_blt_all_modes(void **state)
{
	struct tb t;
	uint32_t dw[256];
	struct dma_buf b;
	uint64_t seed = tb_seed("build/tests/test_ce");

	(void)state;
	rng_state = seed | 1;
	tb_open(&t);
	for (unsigned bpe = 0; bpe <= 4; bpe++) {
		for (unsigned sm = 0; sm <= GPU_TILE_X; sm++) {
			for (unsigned dm = 0; dm <= GPU_TILE_X; dm++) {
				struct dma_surf s = {SRC, pitch_for(sm, bpe, 2), (uint8_t)sm, (uint8_t)bpe, 0, 0};
				struct dma_surf d = {DST, pitch_for(dm, bpe, 2), (uint8_t)dm, (uint8_t)bpe, 0, 0};
				uint32_t ew = (2u * 128u) >> bpe; /* fits two tiles of every mode */
				uint32_t w = ew / 2 + (uint32_t)(rnd() % (ew / 2 - 1)), h = 5 + (uint32_t)(rnd() % 20);
				uint8_t *smem, *dmem, *got;

				s.x = (uint16_t)(rnd() % (ew - w + 1));
				s.y = (uint16_t)(rnd() % 7);
				d.x = (uint16_t)(rnd() % (ew - w + 1));
				d.y = (uint16_t)(rnd() % 7);
				smem = rnd_area(&t, SRC, 0x40000);
				dmem = rnd_area(&t, DST, 0x40000);
				dma_buf_init(&b, dw, 256);
				assert_int_equal(dma_emit_blt(&b, &d, &s, w, h), GM_OK);
				run(&t, 0, &b);
				blt_model(dmem, &d, smem, &s, w, h);
				got = read_area(&t, DST, 0x40000);
				for (size_t i = 0; i < 0x40000; i++) {
					if (got[i] != dmem[i])
						fail_msg("BLT bpe %u %u->%u %ux%u (%u,%u)->(%u,%u): byte +0x%zx "
							 "0x%02x, want 0x%02x (seed %" PRIu64 ")", 1u << bpe, sm, dm,
							 w, h, s.x, s.y, d.x, d.y, i, got[i], dmem[i], seed);
				}
				free(smem);
				free(dmem);
				free(got);
			}
		}
	}
	tb_close(&t);
}

/* Round trip: linear -> each tiled mode -> linear is the identity, and the
 * tiled copy equals the C tiling of the image. */
static void test_blt_round_trip(void **state)
{
	struct tb t;
	uint32_t dw[256];
	struct dma_buf b;
	const uint32_t lp = 1024, rows = 64;

	(void)state;
	rng_state = 99;
	tb_open(&t);
	for (unsigned mode = GPU_TILE_SS64K; mode <= GPU_TILE_X; mode++) {
		for (unsigned bpe = 0; bpe <= 4; bpe++) {
			struct dma_surf lin = {SRC, lp, GPU_TILE_LINEAR, (uint8_t)bpe, 0, 0};
			struct dma_surf til = {DST, lp, (uint8_t)mode, (uint8_t)bpe, 0, 0};
			struct dma_surf back = {DST2, lp, GPU_TILE_LINEAR, (uint8_t)bpe, 0, 0};
			uint32_t w = lp >> bpe;
			uint64_t sb;
			uint8_t *img, *tiled, *want, *got;

			assert_int_equal(gpu_tile_surface_bytes(mode, bpe, lp, rows, &sb), GM_OK);
			img = rnd_area(&t, SRC, lp * rows);
			dma_buf_init(&b, dw, 256);
			assert_int_equal(dma_emit_blt(&b, &til, &lin, w, rows), GM_OK);
			assert_int_equal(dma_emit_blt(&b, &back, &til, w, rows), GM_OK);
			run(&t, 0, &b);
			tiled = read_area(&t, DST, sb);
			want = calloc(1, sb);
			assert_non_null(want);
			assert_int_equal(gm_backdoor_read(t.g, DST, want, sb), GM_OK);
			assert_int_equal(gpu_tile_tile(mode, bpe, lp, want, sb, w, rows, img, lp,
						       lp * rows), GM_OK);
			assert_memory_equal(tiled, want, sb);
			got = read_area(&t, DST2, lp * rows);
			assert_memory_equal(got, img, lp * rows);
			free(img);
			free(tiled);
			free(want);
			free(got);
		}
	}
	tb_close(&t);
}

/* FILL: a rectangle in a tiled surface and a ragged linear fill. */
static void test_fill(void **state)
{
	struct tb t;
	uint32_t dw[64];
	struct dma_buf b;
	const uint64_t val = 0x8877665544332211ull;
	struct dma_surf d = {DST, 1024, GPU_TILE_Y, 2, 5, 3};
	struct dma_surf l = {DST2 + 3, 64, GPU_TILE_LINEAR, 0, 0, 0};
	uint8_t *mem, *got;

	(void)state;
	rng_state = 7;
	tb_open(&t);
	mem = rnd_area(&t, DST, 0x10000);
	free(rnd_area(&t, DST2, 0x1000));
	dma_buf_init(&b, dw, 64);
	assert_int_equal(dma_emit_fill(&b, &d, 37, 41, val), GM_OK);
	assert_int_equal(dma_emit_fill(&b, &l, 1001, 1, val), GM_OK);
	run(&t, 0, &b);
	for (uint32_t y = 0; y < 41; y++)
		for (uint32_t x = 0; x < 37; x++)
			for (uint32_t k = 0; k < 4; k++)
				mem[gpu_tile_offset(GPU_TILE_Y, 2, 1024, d.x + x, d.y + y) + k] =
					(uint8_t)(val >> 8 * ((4 * x + k) % 8));
	got = read_area(&t, DST, 0x10000);
	assert_memory_equal(got, mem, 0x10000);
	free(got);
	got = read_area(&t, DST2, 0x1000);
	for (uint32_t i = 0; i < 1001; i++)
		assert_int_equal(got[3 + i], (uint8_t)(val >> 8 * (i % 8)));
	free(mem);
	free(got);
	tb_close(&t);
}

/* A fault in the middle of a COPY halts the queue with PAGE_FAULT; the
 * engine drains and goes idle; the other queue copies on. */
static void test_copy_fault(void **state)
{
	struct tb t;
	struct fw_vm vm;
	uint32_t dw[64];
	struct dma_buf b;
	const uint64_t va = 0x0000200000000000ull;
	uint64_t f;
	uint8_t *src;

	(void)state;
	rng_state = 5;
	tb_open(&t);
	src = rnd_area(&t, SRC, 0x40000);
	assert_int_equal(fw_vm_init(&vm, &t.d, 1), GM_OK);
	/* 64 KiB mapped at va (-> SRC); the next 64 KiB unmapped. */
	assert_int_equal(fw_vm_map(&vm, va, 0x10000, SRC, MMU_MAP_R | MMU_MAP_W), GM_OK);
	assert_int_equal(fw_vm_map(&vm, va + 0x100000, 0x20000, DST, MMU_MAP_R | MMU_MAP_W), GM_OK);
	assert_int_equal(fw_queue_set_vm(&t.d, 0, &vm), GM_OK);
	dma_buf_init(&b, dw, 64);
	assert_int_equal(dma_emit_copy(&b, va + 0x100000, va + 0x8000, 0x10000), GM_OK);
	f = tb_submit_ib(&t, 0, &b);
	assert_int_not_equal(fw_fence_wait(&t.d, 0, f, TB_BUDGET), GM_OK);
	assert_int_equal(t.d.q[0].err_cause, GPU_CAUSE_PAGE_FAULT);
	/* The first fault reported is a read of the unmapped part of the source
	 * (which beat of it depends on the walker's order). */
	if (t.d.fault.va < va + 0x10000 || t.d.fault.va >= va + 0x18000 || t.d.fault.write)
		fail_msg("fault VA 0x%" PRIx64 " cause %u write %d client 0x%x, want a read in "
			 "[0x%" PRIx64 ", +0x8000)", t.d.fault.va, t.d.fault.cause, t.d.fault.write,
			 t.d.fault.client, va + 0x10000);
	assert_true(t.d.fault.client >= GPU_CE_CLIENT);
	assert_int_equal(tb_rd(&t, GPU_REG_CE_STATUS), GPU_CE_ST_IDLE);
	/* Queue 1 (physical) still copies. */
	dma_buf_init(&b, dw, 64);
	assert_int_equal(dma_emit_copy(&b, DST2, SRC, 4096), GM_OK);
	run(&t, 1, &b);
	{
		uint8_t *got = read_area(&t, DST2, 4096);

		assert_memory_equal(got, src, 4096);
		free(got);
	}
	free(src);
	tb_close(&t);
}

/* Bad fields halt the queue with the exact cause and copy nothing. */
static void test_bad_fields(void **state)
{
	static const struct {
		const char *what;
		uint32_t fmt_src, fmt_dst, base_dst;
		unsigned cause;
	} rows[] = {
		{"element sizes differ", GPU_PKT_BLT_SRC_PITCH(512) | GPU_PKT_BLT_SRC_BPE(2),
		 GPU_PKT_BLT_DST_PITCH(512) | GPU_PKT_BLT_DST_BPE(1), 0x400000, GPU_CAUSE_BAD_FIELD},
		{"unknown mode", GPU_PKT_BLT_SRC_PITCH(512) | GPU_PKT_BLT_SRC_MODE(5),
		 GPU_PKT_BLT_DST_PITCH(512), 0x400000, GPU_CAUSE_BAD_FIELD},
		{"pitch not whole tiles", GPU_PKT_BLT_SRC_PITCH(512),
		 GPU_PKT_BLT_DST_PITCH(200) | GPU_PKT_BLT_DST_MODE(GPU_TILE_Y), 0x400000,
		 GPU_CAUSE_BAD_FIELD},
		{"tiled base off its tile", GPU_PKT_BLT_SRC_PITCH(512),
		 GPU_PKT_BLT_DST_PITCH(512) | GPU_PKT_BLT_DST_MODE(GPU_TILE_SS64K), 0x401000,
		 GPU_CAUSE_BAD_ALIGN},
		{"rectangle past the pitch", GPU_PKT_BLT_SRC_PITCH(16),
		 GPU_PKT_BLT_DST_PITCH(512), 0x400000, GPU_CAUSE_BAD_FIELD},
	};
	struct tb t;

	(void)state;
	tb_open(&t);
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		uint32_t p[11] = {0};
		struct dma_buf b;
		uint32_t dw[16];
		uint64_t f;

		p[0] = GPU_PKT_HDR(GPU_OP_BLT, 10);
		p[1 + GPU_PKT_BLT_SRC_LO] = 0x100000;
		p[1 + GPU_PKT_BLT_SRC_FMT] = rows[i].fmt_src;
		p[1 + GPU_PKT_BLT_DST_LO] = rows[i].base_dst;
		p[1 + GPU_PKT_BLT_DST_FMT] = rows[i].fmt_dst;
		p[1 + GPU_PKT_BLT_WIDTH] = 32;
		p[1 + GPU_PKT_BLT_HEIGHT] = 2;
		/* The C mirror of the hardware's rules (validator, disassembler). */
		if (gpu_pkt_check(p, 11, true, false, GPU_IB_MAX_DW_RESET) != rows[i].cause)
			fail_msg("%s: gpu_pkt_check says %u", rows[i].what,
				 gpu_pkt_check(p, 11, true, false, GPU_IB_MAX_DW_RESET));
		assert_int_equal(gm_backdoor_write32(t.g, rows[i].base_dst, 0x5a5a5a5a), GM_OK);
		dma_buf_init(&b, dw, 16);
		assert_int_equal(dma_emit_raw(&b, p, 11), GM_OK);
		f = tb_submit_ib(&t, 0, &b);
		if (fw_fence_wait(&t.d, 0, f, TB_BUDGET) == GM_OK)
			fail_msg("%s: the BLT ran", rows[i].what);
		if (t.d.q[0].err_cause != rows[i].cause)
			fail_msg("%s: cause %u, want %u", rows[i].what, t.d.q[0].err_cause, rows[i].cause);
		tb_recover(&t, 0);
		assert_int_equal(tb_mem32(&t, rows[i].base_dst), 0x5a5a5a5a);
	}
	tb_close(&t);
}

/*
 * A reset of the queue that gave the engine its command stops the engine:
 * a 32 MiB FILL is cut short within a few hundred cycles, nothing more is
 * written after it goes idle, the other queue's small COPY runs at once, and
 * the reset queue takes work again.
 */
static void test_reset_aborts(void **state)
{
	const uint64_t big = 0x04000000ull, big_len = 0x02000000ull, tail = big + big_len - 4096;
	struct dma_surf d = { .base = big, .pitch = 4096, .mode = GPU_TILE_LINEAR }; /* one row */
	uint32_t dw[64], bytes;
	struct dma_buf b;
	struct tb t;
	uint8_t *src, *sentinel, *got;
	uint64_t c0;
	unsigned waited = 0;

	(void)state;
	rng_state = 11;
	tb_open(&t);
	sentinel = rnd_area(&t, tail, 4096);
	src = rnd_area(&t, SRC, 4096);
	dma_buf_init(&b, dw, 64);
	assert_int_equal(dma_emit_fill(&b, &d, (uint32_t)big_len, 1, 0x1122334455667788ull), GM_OK);
	tb_submit_ib(&t, 0, &b);
	gm_step(t.g, 4000);
	assert_int_not_equal(tb_rd(&t, GPU_REG_CE_STATUS), GPU_CE_ST_IDLE);
	assert_true(tb_rd(&t, GPU_REG_CE_BYTES) > 0);
	assert_int_equal(fw_queue_reset(&t.d, 0), GM_OK);
	while (tb_rd(&t, GPU_REG_CE_STATUS) != GPU_CE_ST_IDLE) {
		if (++waited > 50)
			fail_msg("the copy engine still runs %u cycles after its queue's reset",
				 waited * 20);
		gm_step(t.g, 20);
	}
	bytes = tb_rd(&t, GPU_REG_CE_BYTES);
	assert_true(bytes < big_len / 2);
	gm_step(t.g, 20000);
	assert_int_equal(tb_rd(&t, GPU_REG_CE_BYTES), bytes);
	got = read_area(&t, tail, 4096);
	assert_memory_equal(got, sentinel, 4096);
	free(got);
	/* The other queue's COPY does not wait behind the cut FILL. */
	dma_buf_init(&b, dw, 64);
	assert_int_equal(dma_emit_copy(&b, DST2, SRC, 4096), GM_OK);
	c0 = gm_cycles(t.g);
	run(&t, 1, &b);
	if (gm_cycles(t.g) - c0 > 5000)
		fail_msg("queue 1's 4 KiB COPY took %" PRIu64 " cycles", gm_cycles(t.g) - c0);
	got = read_area(&t, DST2, 4096);
	assert_memory_equal(got, src, 4096);
	free(got);
	/* The reset queue runs a FILL to the end again. */
	d.base = tail;
	dma_buf_init(&b, dw, 64);
	assert_int_equal(dma_emit_fill(&b, &d, 4096, 1, 0x0101010101010101ull), GM_OK);
	run(&t, 0, &b);
	got = read_area(&t, tail, 4096);
	for (unsigned i = 0; i < 4096; i++)
		if (got[i] != 1)
			fail_msg("FILL after the reset: byte %u is 0x%02x", i, got[i]);
	free(got);
	free(sentinel);
	free(src);
	tb_close(&t);
}

/*
 * The engine is pipelined: on one large command it keeps the memory port
 * busy.  A copy crosses the port twice (read and write), so its utilisation
 * is (read + write bytes) / (beat bytes x the engine's busy cycles); the
 * copy-engine efficiency targets (make bench reports the same measures) are
 * the bounds:
 * 90 % for a linear COPY, 75 % for a BLT between linear and SS64K or Tile-Y,
 * each way, on the default memory configuration.
 */
static void test_port_utilisation(void **state)
{
	struct ce_case {
		const char *what;
		struct dma_surf dst, src;
		uint32_t w, h;
		bool copy;
		double min;
	};
	static const struct ce_case cases[] = {
		{ "COPY linear aligned", { 0x02000000, 4096, GPU_TILE_LINEAR, 2, 0, 0 },
		  { 0x01000000, 4096, GPU_TILE_LINEAR, 2, 0, 0 }, 1u << 20, 1, true, 0.90 },
		{ "COPY linear misaligned", { 0x02000011, 4096, GPU_TILE_LINEAR, 2, 0, 0 },
		  { 0x01000005, 4096, GPU_TILE_LINEAR, 2, 0, 0 }, 1u << 20, 1, true, 0.90 },
		{ "BLT linear -> SS64K", { 0x02000000, 4096, GPU_TILE_SS64K, 2, 0, 0 },
		  { 0x01000000, 4096, GPU_TILE_LINEAR, 2, 0, 0 }, 1024, 256, false, 0.75 },
		{ "BLT SS64K -> linear", { 0x01000000, 4096, GPU_TILE_LINEAR, 2, 0, 0 },
		  { 0x02000000, 4096, GPU_TILE_SS64K, 2, 0, 0 }, 1024, 256, false, 0.75 },
		{ "BLT linear -> Tile-Y", { 0x02000000, 4096, GPU_TILE_Y, 2, 0, 0 },
		  { 0x01000000, 4096, GPU_TILE_LINEAR, 2, 0, 0 }, 1024, 256, false, 0.75 },
		{ "BLT Tile-Y -> linear", { 0x01000000, 4096, GPU_TILE_LINEAR, 2, 0, 0 },
		  { 0x02000000, 4096, GPU_TILE_Y, 2, 0, 0 }, 1024, 256, false, 0.75 },
	};
	uint32_t dw[64];
	struct dma_buf b;
	struct tb t;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct ce_case *c = &cases[i];
		uint32_t busy0, bytes0, busy, bytes, want, beat;
		double util;

		tb_open(&t);
		beat = 1u << GPU_CAPS_BEAT_LOG2_GET(tb_rd(&t, GPU_REG_CAPS)); /* bytes per beat */
		busy0 = tb_rd(&t, GPU_REG_CE_BUSY_CYCLES);
		bytes0 = tb_rd(&t, GPU_REG_CE_BYTES);
		dma_buf_init(&b, dw, 64);
		if (c->copy)
			assert_int_equal(dma_emit_copy(&b, c->dst.base, c->src.base, c->w), GM_OK);
		else
			assert_int_equal(dma_emit_blt(&b, &c->dst, &c->src, c->w, c->h), GM_OK);
		/* A generous budget: a slow engine must fail the bound below, by name. */
		assert_int_equal(fw_fence_wait(&t.d, 0, tb_submit_ib(&t, 0, &b), 40u * TB_BUDGET), GM_OK);
		busy = tb_rd(&t, GPU_REG_CE_BUSY_CYCLES) - busy0;
		bytes = tb_rd(&t, GPU_REG_CE_BYTES) - bytes0;
		want = c->copy ? c->w : c->w * c->h * 4;
		assert_int_equal(bytes, want);
		assert_true(busy > 0);
		util = 2.0 * bytes / ((double)beat * busy);
		if (util < c->min)
			fail_msg("%s: %u bytes in %u busy cycles, %.1f%% of the port's peak (want >= %.0f%%)",
				 c->what, bytes, busy, 100.0 * util, 100.0 * c->min);
		tb_close(&t);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_copy_edges),
		cmocka_unit_test(test_copy_large),
		cmocka_unit_test(test_fill),
		cmocka_unit_test(test_blt_round_trip),
		cmocka_unit_test(test_blt_all_modes),
		cmocka_unit_test(test_copy_fault),
		cmocka_unit_test(test_bad_fields),
		cmocka_unit_test(test_reset_aborts),
		cmocka_unit_test(test_port_utilisation),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
