/* SPDX-License-Identifier: MIT */
/*
 * test_apt_wc.c - the aperture as a write-combined BAR: posted writes, the
 * write-combining buffer, the latched errors of posted writes, read-after-
 * write ordering and the prefetch buffer's coherence with other agents.
 *
 * The oracle of every layout is the C reference (hw/gpu_tile.c, itself
 * pinned to gmmlib's published swizzle descriptors by test_tile); the
 * aperture's own answers are never the oracle of its writes (memory is read
 * by the backdoor).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_names.h"
#include "gpu_tile.h"
#include "tb_util.h"

#define CMD "build/tests/test_apt_wc"
#define SURF_BASE 0x01000000ull /* VRAM; 64 KiB aligned */
#define WIN_OFF 0x00200000u     /* where the range under test sits in the window */

static uint64_t rng_state;

static uint64_t rnd(void)
{
	return tb_rand(&rng_state);
}

static void fill_rnd(uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (uint8_t)rnd();
}

/* A surface of @rows rows of @pitch bytes in layout (@mode, @bpe). */
struct surf {
	unsigned mode, bpe;
	uint32_t pitch, rows;
	size_t lin;    /* bytes of the linear image */
	uint64_t mem;  /* bytes of the surface in memory */
};

static void surf_make(struct surf *s, unsigned mode, unsigned bpe, uint32_t tiles_w,
		      uint32_t tile_rows)
{
	struct gpu_tile_info ti;

	assert_int_equal(gpu_tile_info(mode, bpe, &ti), GM_OK);
	s->mode = mode;
	s->bpe = bpe;
	s->pitch = mode == GPU_TILE_LINEAR ? 256 * tiles_w : tiles_w * ti.tile_w_bytes;
	s->rows = mode == GPU_TILE_LINEAR ? 32 * tile_rows : tile_rows * ti.tile_h_rows;
	s->lin = (size_t)s->pitch * s->rows;
	assert_int_equal(gpu_tile_surface_bytes(mode, bpe, s->pitch, s->rows, &s->mem), GM_OK);
}

/* The surface in memory (backdoor), untiled by the C reference. */
static uint8_t *surf_untile(struct tb *t, const struct surf *s)
{
	uint8_t *mem = malloc(s->mem), *lin = malloc(s->lin);

	assert_non_null(mem);
	assert_non_null(lin);
	assert_int_equal(gm_backdoor_read(t->g, SURF_BASE, mem, s->mem), GM_OK);
	assert_int_equal(gpu_tile_untile(s->mode, s->bpe, s->pitch, mem, s->mem,
					 s->pitch >> s->bpe, s->rows, lin, s->pitch, s->lin), GM_OK);
	free(mem);
	return lin;
}

/* Every tile mode and element size: a sequential posted write of a surface
 * three tiles wide and two tile rows high, untiled by the reference from
 * memory; the write streams (about one word per cycle, nothing waits for
 * the memory); then a sequential read of it agrees. */
static void test_wc_every_mode(void **state)
{
	struct tb t;
	uint64_t seed = tb_seed(CMD);

	(void)state;
	rng_state = seed | 1;
	tb_open(&t);
	for (unsigned mode = 0; mode <= GPU_TILE_X; mode++) {
		for (unsigned bpe = 0; bpe <= GPU_TILE_BPE_LOG2_MAX; bpe++) {
			struct surf s;
			uint8_t *img, *back;
			uint64_t c0, cyc;

			surf_make(&s, mode, bpe, 3, 2);
			img = malloc(s.lin);
			assert_non_null(img);
			tb_apt_range(&t, 6, WIN_OFF, WIN_OFF + (uint32_t)s.lin, SURF_BASE, mode, bpe, s.pitch);
			fill_rnd(img, s.lin);
			c0 = gm_cycles(t.g);
			assert_int_equal(gm_apt_write(t.g, WIN_OFF, img, s.lin), GM_OK);
			cyc = gm_cycles(t.g) - c0;
			back = surf_untile(&t, &s);
			if (memcmp(img, back, s.lin))
				fail_msg("%s bpe %u: posted writes do not land where the C swizzle says "
					 "(seed %" PRIu64 ": GPUSIM_SEED=%" PRIu64 " " CMD ")",
					 gpu_tile_mode_name(mode), 1u << bpe, seed, seed);
			/* one word per cycle, plus the division, the pipeline and the flush */
			if (cyc > s.lin / 8 + 200)
				fail_msg("%s bpe %u: %zu bytes took %" PRIu64 " cycles: writes not posted",
					 gpu_tile_mode_name(mode), 1u << bpe, s.lin, cyc);
			memset(back, 0, s.lin);
			assert_int_equal(gm_apt_read(t.g, WIN_OFF, back, s.lin), GM_OK);
			if (memcmp(img, back, s.lin))
				fail_msg("%s bpe %u: aperture read differs (seed %" PRIu64 ")",
					 gpu_tile_mode_name(mode), 1u << bpe, seed);
			free(img);
			free(back);
		}
	}
	tb_close(&t);
}

/* Random posted words (offsets clustered so many share a beat, words
 * written twice, random byte enables) and random bulk writes and reads of
 * random offsets and lengths, each mode; a shadow of the linear image is
 * the expectation, the reference untiles memory. */
static void test_wc_random(void **state)
{
	struct tb t;
	uint64_t seed = tb_seed(CMD);

	(void)state;
	rng_state = seed | 1;
	tb_open(&t);
	for (unsigned round = 0; round < 8; round++) {
		unsigned mode = (unsigned)(rnd() % (GPU_TILE_X + 1));
		unsigned bpe = (unsigned)(rnd() % (GPU_TILE_BPE_LOG2_MAX + 1));
		struct surf s;
		uint8_t *shadow, *back, *buf;

		surf_make(&s, mode, bpe, 2, 2);
		shadow = malloc(s.lin);
		buf = malloc(s.lin);
		assert_non_null(shadow);
		assert_non_null(buf);
		fill_rnd(shadow, s.lin);
		tb_apt_range(&t, 1, WIN_OFF, WIN_OFF + (uint32_t)s.lin, SURF_BASE, mode, bpe, s.pitch);
		assert_int_equal(gm_apt_write(t.g, WIN_OFF, shadow, s.lin), GM_OK);
		for (unsigned op = 0; op < 60; op++) {
			uint32_t k = (uint32_t)(rnd() % 3);

			if (k == 0) {
				/* a burst of posted words around one spot, then a flush */
				uint32_t spot = (uint32_t)(rnd() % s.lin) & ~63u, n = 1 + (uint32_t)(rnd() % 24);

				for (uint32_t i = 0; i < n; i++) {
					uint32_t l = (spot + 8u * (uint32_t)(rnd() % 12)) % (uint32_t)s.lin;
					uint64_t v = rnd();
					uint8_t strb = (uint8_t)rnd();

					if (!strb)
						strb = 0x80;
					assert_int_equal(gm_apt_post64(t.g, WIN_OFF + l, v, strb), GM_OK);
					for (unsigned b = 0; b < 8; b++)
						if (strb >> b & 1)
							shadow[l + b] = (uint8_t)(v >> 8 * b);
				}
				assert_int_equal(gm_apt_flush(t.g), GM_OK);
			} else {
				uint32_t off = (uint32_t)(rnd() % s.lin);
				size_t len = (size_t)(rnd() % (s.lin - off)) % 777 + 1;

				if (k == 1) {
					fill_rnd(buf, len);
					assert_int_equal(gm_apt_write(t.g, WIN_OFF + off, buf, len), GM_OK);
					memcpy(shadow + off, buf, len);
				} else {
					assert_int_equal(gm_apt_read(t.g, WIN_OFF + off, buf, len), GM_OK);
					if (memcmp(buf, shadow + off, len))
						fail_msg("round %u op %u: %s bpe %u read of %zu bytes at +0x%x "
							 "differs (GPUSIM_SEED=%" PRIu64 " " CMD ")", round, op,
							 gpu_tile_mode_name(mode), 1u << bpe, len, off, seed);
				}
			}
		}
		back = surf_untile(&t, &s);
		for (size_t i = 0; i < s.lin; i++)
			if (back[i] != shadow[i])
				fail_msg("round %u: %s bpe %u byte +0x%zx is 0x%02x, want 0x%02x "
					 "(GPUSIM_SEED=%" PRIu64 " " CMD ")", round, gpu_tile_mode_name(mode),
					 1u << bpe, i, back[i], shadow[i], seed);
		free(back);
		free(shadow);
		free(buf);
	}
	tb_close(&t);
}

/* The latched error of the hardware: status, offset, count, interrupt. */
static void expect_err(struct tb *t, unsigned cause, uint32_t off, uint32_t count)
{
	uint32_t st = tb_rd(t, GPU_REG_APT_ERR_STATUS);

	assert_int_equal(GPU_APT_ERR_STATUS_VALID_GET(st), 1);
	assert_int_equal(GPU_APT_ERR_STATUS_CAUSE_GET(st), cause);
	assert_int_equal(tb_rd(t, GPU_REG_APT_ERR_OFF), off);
	assert_int_equal(tb_rd(t, GPU_REG_APT_ERR_COUNT), count);
	assert_int_equal(GPU_INT_STATUS_APT_ERR_GET(tb_rd(t, GPU_REG_INT_STATUS)), 1);
	assert_true(gm_irq(t->g)); /* INT_ENABLE.APT_ERR is set by the caller */
}

/* Wait for APT_STATUS.BUSY to fall without consuming the error. */
static void drain(struct tb *t)
{
	tb_wr(t, GPU_REG_APT_FLUSH, GPU_APT_FLUSH_WC(1));
	for (unsigned n = 0; GPU_APT_STATUS_BUSY_GET(tb_rd(t, GPU_REG_APT_STATUS)); n++)
		if (n == 1000)
			fail_msg("APT_STATUS.BUSY stays high: a flush that never completes");
}

/* Posted writes that fail: an illegal format, a row past 2^16, a beat the
 * memory refuses.  Each latches status, offset and cause and raises the
 * interrupt; the failing words write nothing; the words before and after
 * land; the flush completes and returns GM_ERR_ADDR once. */
static void test_wc_errors(void **state)
{
	struct tb t;
	uint64_t v[6], w;
	uint32_t en;

	(void)state;
	tb_open(&t);
	en = tb_rd(&t, GPU_REG_INT_ENABLE);
	tb_wr(&t, GPU_REG_INT_ENABLE, en | GPU_INT_STATUS_APT_ERR(1));
	/* [0x10000, 0x10100) linear at 0x60000; [0x10100, 0x10200) bad pitch;
	 * [0x10200, 0x10300) linear at 0x61000 */
	tb_apt_range(&t, 0, 0x10000, 0x10100, 0x60000, GPU_TILE_LINEAR, 0, 256);
	tb_apt_range(&t, 1, 0x10100, 0x10200, 0x70000, GPU_TILE_LINEAR, 0, 12);
	tb_apt_range(&t, 2, 0x10200, 0x10300, 0x61000, GPU_TILE_LINEAR, 0, 256);
	for (unsigned i = 0; i < 6; i++)
		v[i] = 0x1111111111111111ull * (i + 1);
	/* 2 good words, 2 in the bad range, 2 good ones */
	assert_int_equal(gm_apt_post64(t.g, 0x100f0, v[0], 0xff), GM_OK);
	assert_int_equal(gm_apt_post64(t.g, 0x100f8, v[1], 0xff), GM_OK);
	assert_int_equal(gm_apt_post64(t.g, 0x10100, v[2], 0xff), GM_OK);
	assert_int_equal(gm_apt_post64(t.g, 0x10108, v[3], 0xff), GM_OK);
	assert_int_equal(gm_apt_post64(t.g, 0x10200, v[4], 0x0f), GM_OK);
	assert_int_equal(gm_apt_post64(t.g, 0x10208, v[5], 0xff), GM_OK);
	drain(&t);
	expect_err(&t, GPU_APT_ERR_FORMAT, 0x10100, 2);
	assert_true(tb_mem64(&t, 0x600f0) == v[0]);
	assert_true(tb_mem64(&t, 0x600f8) == v[1]);
	assert_true(tb_mem64(&t, 0x70000) == 0 && tb_mem64(&t, 0x70008) == 0);
	assert_true(tb_mem64(&t, 0x61000) == (v[4] & 0xffffffffull));
	assert_true(tb_mem64(&t, 0x61008) == v[5]);
	/* A second error does not move the latch; the count goes on. */
	assert_int_equal(gm_apt_post64(t.g, 0x10110, 1, 0xff), GM_OK);
	drain(&t);
	expect_err(&t, GPU_APT_ERR_FORMAT, 0x10100, 3);
	/* gm_apt_flush consumes it once: status and interrupt bit cleared. */
	assert_int_equal(gm_apt_flush(t.g), GM_ERR_ADDR);
	assert_int_equal(GPU_APT_ERR_STATUS_VALID_GET(tb_rd(&t, GPU_REG_APT_ERR_STATUS)), 0);
	assert_int_equal(GPU_INT_STATUS_APT_ERR_GET(tb_rd(&t, GPU_REG_INT_STATUS)), 0);
	assert_int_equal(gm_apt_flush(t.g), GM_OK);

	/* A row past 2^16 (pitch 8: one row per word), in a bulk write that
	 * also covers the last good rows. */
	tb_apt_range(&t, 3, 0x100000, 0x200000, 0x80000, GPU_TILE_LINEAR, 0, 8);
	{
		uint64_t img[4] = {0xa1, 0xa2, 0xa3, 0xa4};

		/* rows 0xfffe, 0xffff good; 0x10000, 0x10001 past */
		assert_int_equal(gm_apt_write(t.g, 0x100000 + 8 * 0xfffe, img, sizeof(img)),
				 GM_ERR_ADDR);
		assert_true(tb_mem64(&t, 0x80000 + 8 * 0xfffe) == 0xa1);
		assert_true(tb_mem64(&t, 0x80000 + 8 * 0xffff) == 0xa2);
		assert_true(tb_mem64(&t, 0x80000 + 8 * 0x10000) == 0);
		assert_true(tb_mem64(&t, 0x80000 + 8 * 0x10001) == 0);
	}
	/* The latch was consumed by gm_apt_write: re-armed, and it latches
	 * the next one with its own offset. */
	assert_int_equal(gm_apt_post64(t.g, 0x100000 + 8 * 0x10005, 5, 0xff), GM_OK);
	drain(&t);
	expect_err(&t, GPU_APT_ERR_ROW, 0x100000 + 8 * 0x10005, 6);
	assert_int_equal(gm_apt_flush(t.g), GM_ERR_ADDR);

	/* The memory refuses a beat past VRAM (256 MiB): cause MEM, the offset
	 * of its first word; the word after it, in good memory, lands. */
	tb_apt_range(&t, 4, 0x400000, 0x400100, 0x20000000ull, GPU_TILE_LINEAR, 0, 256);
	assert_int_equal(gm_apt_post64(t.g, 0x400008, 7, 0xff), GM_OK);
	assert_int_equal(gm_apt_post64(t.g, 0x400010, 8, 0xff), GM_OK);
	assert_int_equal(gm_apt_post64(t.g, 0x10000, 9, 0xff), GM_OK);
	drain(&t);
	expect_err(&t, GPU_APT_ERR_MEM, 0x400008, 7);
	assert_true(tb_mem64(&t, 0x60000) == 9);
	assert_int_equal(gm_apt_flush(t.g), GM_ERR_ADDR);
	assert_int_equal(gm_apt_write64(t.g, 0x400000, 1, 0xff), GM_ERR_ADDR);
	assert_int_equal(gm_apt_write64(t.g, 0x10000, 10, 0xff), GM_OK);
	assert_true(tb_mem64(&t, 0x60000) == 10);

	/* A streamed read across the bad range: the words around it are read,
	 * its words read 0, the call says GM_ERR_ADDR. */
	{
		uint64_t got[6];

		for (unsigned i = 0; i < 6; i++)
			got[i] = ~0ull;
		assert_int_equal(gm_apt_read(t.g, 0x100f0, got, 32), GM_ERR_ADDR);
		assert_true(got[0] == v[0] && got[1] == v[1] && got[2] == 0 && got[3] == 0);
		assert_int_equal(gm_apt_read(t.g, 0x10200, got, 16), GM_OK);
		assert_true(got[0] == (v[4] & 0xffffffffull) && got[1] == v[5]);
	}
	/* Reads answer their own errors; they latch nothing. */
	assert_int_equal(gm_apt_read64(t.g, 0x10100, &w), GM_ERR_ADDR);
	assert_true(w == 0);
	assert_int_equal(gm_apt_read64(t.g, 0x400000, &w), GM_ERR_ADDR);
	assert_int_equal(GPU_APT_ERR_STATUS_VALID_GET(tb_rd(&t, GPU_REG_APT_ERR_STATUS)), 0);
	assert_int_equal(gm_apt_read64(t.g, 0x10000, &w), GM_OK);
	assert_true(w == 10);
	tb_wr(&t, GPU_REG_INT_ENABLE, en);
	tb_close(&t);
}

/* Read after write: a read waits for the posted writes before it, whether
 * they are still in the write-combining buffer or in flight, and the
 * aperture's own write drops the beat it prefetched. */
static void test_wc_read_after_write(void **state)
{
	struct tb t;
	uint64_t w;

	(void)state;
	tb_open(&t);
	tb_apt_range(&t, 0, WIN_OFF, WIN_OFF + 0x10000, SURF_BASE, GPU_TILE_Y, 2, 512);
	/* still combining: the next access is the read */
	assert_int_equal(gm_apt_post64(t.g, WIN_OFF + 0x40, 0x0123456789abcdefull, 0xff), GM_OK);
	assert_int_equal(gm_apt_read64(t.g, WIN_OFF + 0x40, &w), GM_OK);
	assert_true(w == 0x0123456789abcdefull);
	/* a whole row posted, then the first word read back */
	for (uint32_t i = 0; i < 64; i++)
		assert_int_equal(gm_apt_post64(t.g, WIN_OFF + 512 + 8 * i, 0x1000 + i, 0xff), GM_OK);
	assert_int_equal(gm_apt_read64(t.g, WIN_OFF + 512, &w), GM_OK);
	assert_true(w == 0x1000);
	assert_int_equal(gm_apt_read64(t.g, WIN_OFF + 512 + 8 * 63, &w), GM_OK);
	assert_true(w == 0x1000 + 63);
	/* the prefetched beat (rows 0/1 of column 0) written through the aperture */
	assert_int_equal(gm_apt_read64(t.g, WIN_OFF, &w), GM_OK);
	assert_int_equal(GPU_APT_STATUS_PF_GET(tb_rd(&t, GPU_REG_APT_STATUS)), 1);
	assert_int_equal(gm_apt_post64(t.g, WIN_OFF + 8, 0xfeedull, 0x03), GM_OK);
	assert_int_equal(gm_apt_read64(t.g, WIN_OFF + 8, &w), GM_OK);
	assert_true((w & 0xffff) == 0xfeed);
	assert_int_equal(gm_apt_flush(t.g), GM_OK);
	tb_close(&t);
}

/* Coherence with the copy engine: the aperture prefetches a beat, a FILL
 * through the real queue (waiting on a semaphore the CPU releases through
 * the aperture, so no backdoor write comes between) overwrites it, and the
 * next aperture read sees the FILL.  The snoop alone makes it: APT_STATUS
 * shows the prefetch held before the FILL and dropped after it. */
static void test_wc_coherence(void **state)
{
	struct tb t;
	uint32_t dw[64];
	struct dma_buf b;
	const uint64_t sem = 0x00300000ull, pat = 0x5a5a0000a5a5ffffull;
	const struct dma_surf d = {SURF_BASE, 512, GPU_TILE_Y, 2, 0, 0};
	uint64_t w0, w1, w2, fence, c0, c1;
	uint8_t img[0x2000];

	(void)state;
	rng_state = 11;
	tb_open(&t);
	fill_rnd(img, sizeof(img));
	assert_int_equal(gm_backdoor_write(t.g, SURF_BASE, img, sizeof(img)), GM_OK);
	tb_apt_range(&t, 0, WIN_OFF, WIN_OFF + 0x10000, SURF_BASE, GPU_TILE_Y, 2, 512);
	dma_buf_init(&b, dw, 64);
	assert_int_equal(dma_emit_wait_mem(&b, sem, 1, ~0ull, GPU_FUNC_EQ, false, 16), GM_OK);
	assert_int_equal(dma_emit_fill(&b, &d, 4, 2, pat), GM_OK); /* rows 0, 1: one beat */
	fence = tb_submit_ib(&t, 1, &b);

	/* word 0 of the Tile-Y beat {row 0, row 1} of column 0: fetched, kept */
	assert_int_equal(gm_apt_read64(t.g, WIN_OFF, &w0), GM_OK);
	assert_true(w0 == tb_mem64(&t, SURF_BASE));
	c0 = gm_cycles(t.g);
	assert_int_equal(gm_apt_read64(t.g, WIN_OFF + 512 + 8, &w1), GM_OK); /* row 1 */
	c1 = gm_cycles(t.g);
	assert_true(w1 == tb_mem64(&t, SURF_BASE + 24));
	if (c1 - c0 > 10)
		fail_msg("a read of the prefetched beat took %" PRIu64 " cycles: no prefetch", c1 - c0);
	/* release the FILL through the aperture (another beat: the prefetch stays) */
	assert_int_equal(gm_apt_write64(t.g, (uint32_t)sem, 1, 0x0f), GM_OK);
	assert_int_equal(GPU_APT_STATUS_PF_GET(tb_rd(&t, GPU_REG_APT_STATUS)), 1);
	tb_wait(&t, 1, fence);
	assert_int_equal(GPU_APT_STATUS_PF_GET(tb_rd(&t, GPU_REG_APT_STATUS)), 0);
	assert_int_equal(gm_apt_read64(t.g, WIN_OFF + 512, &w2), GM_OK);
	assert_true(w2 == pat);
	assert_true(tb_mem64(&t, SURF_BASE + 16) == pat);
	tb_close(&t);
}

/* A 16-byte access goes as one unit only where every valid range's start,
 * end and pitch are multiples of 16; else its halves go one by one, each
 * through its own range and row.  Ranges starting 8 bytes into a chunk, a
 * linear pitch of 8 mod 16 and a Tile-Y range 8 bytes off: bulk writes
 * and reads across the edges, against the C reference and the VRAM around. */
static void test_wc_split(void **state)
{
	struct tb t;
	uint64_t seed = tb_seed(CMD);
	const unsigned modes[2] = {GPU_TILE_LINEAR, GPU_TILE_Y};
	const uint32_t pitches[2] = {264, 512};

	(void)state;
	rng_state = seed | 1;
	tb_open(&t);
	for (unsigned m = 0; m < 2; m++) {
		const uint32_t start = WIN_OFF + 8, rows = 32, pitch = pitches[m];
		const uint32_t lin = pitch * rows, end = start + lin;
		uint64_t surf;
		uint8_t *img = malloc(lin + 16), *back = malloc(lin + 16), *mem;

		assert_non_null(img);
		assert_non_null(back);
		assert_int_equal(gpu_tile_surface_bytes(modes[m], 2, pitch, rows, &surf), GM_OK);
		mem = malloc(surf);
		assert_non_null(mem);
		tb_apt_range(&t, 2, start, end, SURF_BASE, modes[m], 2, pitch);
		fill_rnd(img, lin + 16);
		/* 8 bytes of VRAM, the range, 8 bytes of VRAM */
		assert_int_equal(gm_apt_write(t.g, start - 8, img, lin + 16), GM_OK);
		assert_int_equal(gm_backdoor_read(t.g, start - 8, back, 8), GM_OK);
		assert_memory_equal(back, img, 8);
		assert_int_equal(gm_backdoor_read(t.g, end, back, 8), GM_OK);
		assert_memory_equal(back, img + 8 + lin, 8);
		assert_int_equal(gm_backdoor_read(t.g, SURF_BASE, mem, surf), GM_OK);
		assert_int_equal(gpu_tile_untile(modes[m], 2, pitch, mem, surf, pitch >> 2, rows, back,
						 pitch, lin), GM_OK);
		if (memcmp(back, img + 8, lin))
			fail_msg("%s pitch %u: split writes do not land where the C swizzle says "
				 "(GPUSIM_SEED=%" PRIu64 " " CMD ")", gpu_tile_mode_name(modes[m]), pitch, seed);
		memset(back, 0, lin + 16);
		assert_int_equal(gm_apt_read(t.g, start - 8, back, lin + 16), GM_OK);
		if (memcmp(back, img, lin + 16))
			fail_msg("%s pitch %u: split reads differ (GPUSIM_SEED=%" PRIu64 " " CMD ")",
				 gpu_tile_mode_name(modes[m]), pitch, seed);
		tb_wr(&t, GPU_REG_APT_CTRL(2), 0);
		free(img);
		free(back);
		free(mem);
	}
	tb_close(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_wc_read_after_write),
		cmocka_unit_test(test_wc_errors),
		cmocka_unit_test(test_wc_coherence),
		cmocka_unit_test(test_wc_every_mode),
		cmocka_unit_test(test_wc_random),
		cmocka_unit_test(test_wc_split),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
