/* SPDX-License-Identifier: MIT */
/*
 * test_apt.c - the linearizing aperture (BAR1) and the swizzle unit.
 *
 * The swizzle unit is checked exhaustively against the C oracle
 * (hw/gpu_tile.c) through the aperture: for every tile mode and element
 * size, a whole surface two tiles wide and one tile row high is written
 * through the linear view and read back with the backdoor (untiled by the C
 * functions), and the reverse.  Every byte of every tile goes through the
 * RTL's address computation once each way.  Random single accesses then take
 * the divider path (no row-cache hits) on a larger surface.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_names.h"
#include "gpu_tile.h"
#include "tb_util.h"

#define SURF_BASE 0x01000000ull /* VRAM; 64 KiB aligned */
#define WIN_OFF 0x00200000u     /* where the range sits in the window */

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

/* Geometry of the exhaustive surface: two tiles wide, one tile row high
 * (LINEAR: 256-byte rows, 64 of them). */
static void geometry(unsigned mode, unsigned bpe, uint32_t *pitch, uint32_t *rows)
{
	struct gpu_tile_info ti;

	assert_int_equal(gpu_tile_info(mode, bpe, &ti), GM_OK);
	if (mode == GPU_TILE_LINEAR) {
		*pitch = 256;
		*rows = 64;
	} else {
		*pitch = 2 * ti.tile_w_bytes;
		*rows = ti.tile_h_rows;
	}
}

/* CPU writes the linear image through the aperture; the surface in memory
 * is the C tiling of it.  Then the reverse direction. */
static void test_apt_every_mode(void **state)
{
	struct tb t;
	uint64_t seed = tb_seed("build/tests/test_apt");

	(void)state;
	rng_state = seed | 1;
	tb_open(&t);
	for (unsigned mode = 0; mode <= GPU_TILE_X; mode++) {
		for (unsigned bpe = 0; bpe <= GPU_TILE_BPE_LOG2_MAX; bpe++) {
			uint32_t pitch, rows, width;
			uint64_t surf;
			size_t lin;
			uint8_t *img, *mem, *back;

			geometry(mode, bpe, &pitch, &rows);
			width = pitch >> bpe;
			lin = (size_t)pitch * rows;
			assert_int_equal(gpu_tile_surface_bytes(mode, bpe, pitch, rows, &surf), GM_OK);
			img = malloc(lin);
			back = malloc(lin);
			mem = malloc(surf);
			assert_non_null(img);
			assert_non_null(back);
			assert_non_null(mem);
			tb_apt_range(&t, 3, WIN_OFF, WIN_OFF + (uint32_t)lin, SURF_BASE, mode, bpe, pitch);

			/* linear -> aperture -> tiled memory */
			fill_rnd(img, lin);
			assert_int_equal(gm_apt_write(t.g, WIN_OFF, img, lin), GM_OK);
			assert_int_equal(gm_backdoor_read(t.g, SURF_BASE, mem, surf), GM_OK);
			assert_int_equal(gpu_tile_untile(mode, bpe, pitch, mem, surf, width, rows, back,
							 pitch, lin), GM_OK);
			if (memcmp(img, back, lin))
				fail_msg("%s bpe %u: aperture write does not land where the C swizzle "
					 "says (seed %" PRIu64 ")", gpu_tile_mode_name(mode), 1u << bpe, seed);

			/* tiled memory -> aperture -> linear */
			fill_rnd(mem, surf);
			assert_int_equal(gm_backdoor_write(t.g, SURF_BASE, mem, surf), GM_OK);
			assert_int_equal(gm_apt_read(t.g, WIN_OFF, back, lin), GM_OK);
			assert_int_equal(gpu_tile_untile(mode, bpe, pitch, mem, surf, width, rows, img,
							 pitch, lin), GM_OK);
			if (memcmp(img, back, lin))
				fail_msg("%s bpe %u: aperture read differs from the C untile (seed %"
					 PRIu64 ")", gpu_tile_mode_name(mode), 1u << bpe, seed);
			free(img);
			free(back);
			free(mem);
		}
	}
	tb_close(&t);
}

/* Random single 8-byte accesses with random byte enables over a surface of
 * several tile rows: the divider path, checked word by word. */
static void test_apt_random_access(void **state)
{
	struct tb t;
	uint64_t seed = tb_seed("build/tests/test_apt");
	const unsigned mode = GPU_TILE_SS64K, bpe = 2;
	const uint32_t pitch = 3 * 512, rows = 300; /* 3 tiles wide, 3 tile rows */

	(void)state;
	rng_state = seed | 1;
	tb_open(&t);
	tb_apt_range(&t, 0, 0x100000, 0x100000 + pitch * rows, SURF_BASE, mode, bpe, pitch);
	for (unsigned i = 0; i < 400; i++) {
		uint32_t l = (uint32_t)(rnd() % (pitch * rows)) & ~7u;
		uint64_t v = rnd(), before, after, off;
		uint8_t strb = (uint8_t)(rnd() | 1u);
		uint32_t x = (l % pitch) >> bpe, y = l / pitch;

		off = SURF_BASE + gpu_tile_offset(mode, bpe, pitch, x, y);
		assert_int_equal(gm_backdoor_read64(t.g, off, &before), GM_OK);
		assert_int_equal(gm_apt_write64(t.g, 0x100000 + l, v, strb), GM_OK);
		assert_int_equal(gm_backdoor_read64(t.g, off, &after), GM_OK);
		for (unsigned k = 0; k < 8; k++) {
			uint8_t want = (uint8_t)((strb >> k & 1) ? v >> 8 * k : before >> 8 * k);

			if ((uint8_t)(after >> 8 * k) != want)
				fail_msg("access %u at +0x%x byte %u: 0x%02x, want 0x%02x (seed %"
					 PRIu64 ")", i, l, k, (unsigned)(uint8_t)(after >> 8 * k), want,
					 seed);
		}
		assert_int_equal(gm_apt_read64(t.g, 0x100000 + l, &before), GM_OK);
		assert_true(before == after);
	}
	tb_close(&t);
}

/* Outside every range the window is VRAM; byte enables are honoured. */
static void test_apt_linear_vram(void **state)
{
	struct tb t;
	uint64_t v;

	(void)state;
	tb_open(&t);
	assert_int_equal(gm_backdoor_write32(t.g, 0x5000, 0x11223344), GM_OK);
	assert_int_equal(gm_backdoor_write32(t.g, 0x5004, 0x55667788), GM_OK);
	assert_int_equal(gm_apt_write64(t.g, 0x5000, 0xaabbccddeeff0011ull, 0x81), GM_OK);
	assert_int_equal(gm_apt_read64(t.g, 0x5000, &v), GM_OK);
	assert_true(v == 0xaa66778811223311ull);
	assert_int_equal(tb_mem32(&t, 0x5000), 0x11223311);
	tb_close(&t);
}

/* Overlapping ranges: the lower number wins.  Field writes while VALID are
 * refused; a reprogrammed range (clear, write, set) takes effect at once,
 * the row cache notwithstanding. */
static void test_apt_ranges(void **state)
{
	struct tb t;
	uint64_t v;

	(void)state;
	tb_open(&t);
	assert_int_equal(gm_backdoor_write32(t.g, 0x40000, 0xaaaa0001), GM_OK);
	assert_int_equal(gm_backdoor_write32(t.g, 0x80000, 0xbbbb0002), GM_OK);
	tb_apt_range(&t, 5, 0x10000, 0x20000, 0x80000, GPU_TILE_LINEAR, 0, 256);
	assert_int_equal(gm_apt_read64(t.g, 0x10000, &v), GM_OK);
	assert_int_equal((uint32_t)v, 0xbbbb0002);
	tb_apt_range(&t, 2, 0x10000, 0x10100, 0x40000, GPU_TILE_LINEAR, 0, 256);
	assert_int_equal(gm_apt_read64(t.g, 0x10000, &v), GM_OK);
	assert_int_equal((uint32_t)v, 0xaaaa0001); /* range 2 beats range 5 */
	/* Past range 2's end, range 5 again. */
	assert_int_equal(gm_apt_read64(t.g, 0x10100, &v), GM_OK);
	assert_int_equal(gm_backdoor_read64(t.g, 0x80100, &v) == GM_OK, 1);

	/* The update protocol. */
	assert_int_equal(gm_reg_write(t.g, GPU_REG_APT_BASE_LO(2), 0x90000), GM_ERR_ADDR);
	assert_int_equal(tb_rd(&t, GPU_REG_APT_BASE_LO(2)), 0x40000);
	/* Reprogram range 2 while in use: the next access follows the new base. */
	assert_int_equal(gm_backdoor_write32(t.g, 0x90000, 0xcccc0003), GM_OK);
	tb_apt_range(&t, 2, 0x10000, 0x10100, 0x90000, GPU_TILE_LINEAR, 0, 256);
	assert_int_equal(gm_apt_read64(t.g, 0x10000, &v), GM_OK);
	assert_int_equal((uint32_t)v, 0xcccc0003);
	/* Invalid again: range 5 shows through. */
	tb_wr(&t, GPU_REG_APT_CTRL(2), 0);
	assert_int_equal(gm_apt_read64(t.g, 0x10000, &v), GM_OK);
	assert_int_equal((uint32_t)v, 0xbbbb0002);
	tb_close(&t);
}

/* Errors: an illegal range format and a row past 2^16 answer err and write
 * nothing; bad arguments cost no cycle. */
static void test_apt_errors(void **state)
{
	struct tb t;
	uint64_t v = 1, c0;
	uint8_t buf[16] = {0};

	(void)state;
	tb_open(&t);
	tb_apt_range(&t, 0, 0x0, 0x1000, 0x60000, GPU_TILE_LINEAR, 0, 12); /* pitch % 8 */
	assert_int_equal(gm_apt_write64(t.g, 0x10, ~0ull, 0xff), GM_ERR_ADDR);
	assert_int_equal(tb_mem32(&t, 0x60000 + 0x10), 0);
	assert_int_equal(gm_apt_read64(t.g, 0x10, &v), GM_ERR_ADDR);
	assert_true(v == 0);
	tb_apt_range(&t, 0, 0x0, 0x1000, 0x60000, GPU_TILE_Y, 2, 100); /* not whole tiles */
	assert_int_equal(gm_apt_write64(t.g, 0x10, ~0ull, 0xff), GM_ERR_ADDR);
	tb_apt_range(&t, 0, 0x0, 0x0100000, 0x60000, GPU_TILE_LINEAR, 0, 8); /* 2^17 rows */
	assert_int_equal(gm_apt_write64(t.g, 0x80000, ~0ull, 0xff), GM_ERR_ADDR);
	assert_int_equal(gm_apt_write64(t.g, 0x100, 0x1234, 0xff), GM_OK);
	assert_int_equal(tb_mem32(&t, 0x60100), 0x1234);

	c0 = gm_cycles(t.g);
	assert_int_equal(gm_apt_write64(t.g, 4, 0, 0xff), GM_ERR_BAD_ARG);
	assert_int_equal(gm_apt_write64(t.g, 8, 0, 0), GM_ERR_BAD_ARG);
	assert_int_equal(gm_apt_write64(t.g, GPU_APT_WINDOW_BYTES, 0, 0xff), GM_ERR_BAD_ARG);
	assert_int_equal(gm_apt_read64(t.g, 8, NULL), GM_ERR_BAD_ARG);
	assert_int_equal(gm_apt_write(t.g, GPU_APT_WINDOW_BYTES - 8, buf, 16), GM_ERR_BAD_ARG);
	assert_int_equal(gm_apt_read(t.g, 0, NULL, 16), GM_ERR_BAD_ARG);
	assert_true(gm_cycles(t.g) == c0);
	tb_close(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_apt_linear_vram),
		cmocka_unit_test(test_apt_ranges),
		cmocka_unit_test(test_apt_errors),
		cmocka_unit_test(test_apt_random_access),
		cmocka_unit_test(test_apt_every_mode),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
