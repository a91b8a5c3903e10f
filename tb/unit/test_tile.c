// SPDX-License-Identifier: MIT
/*
 * test_tile.c - cmocka unit tests for the reference swizzle (hw/gpu_tile.c),
 * the oracle of the RTL swizzle unit.
 *
 * Build and run:
 *   gcc -std=c11 -O2 -g -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes \
 *       -Ihw -Imodel -Idma -Itb tb/unit/test_tile.c hw/gpu_tile.c hw/gpu_names.c \
 *       model/gm_status.c tb/tb_seed.c -lcmocka -o /tmp/test_tile
 *   /tmp/test_tile
 *
 * Testplan
 *   pdep (x86 PDEP order) ........... test_pdep
 *   published tile shapes, masks .... test_shapes (masks disjoint, cover the
 *                                     tile, popcounts = log2 of the sides,
 *                                     elements and 16 B pieces contiguous)
 *   hand-computed offsets ........... test_points
 *   SS64K as published (gmmlib
 *   Tile-Ys descriptors, Microsoft
 *   32 bpp masks), every element of
 *   a tile at every element size .... test_published
 *   one-to-one onto a tile .......... test_tile_bijective (every mode x bpe)
 *   row-major tile grid ............. test_grid
 *   offset = gpu_tile.h's formula ... test_offset_random (large pitches and
 *                                     coordinates, 64-bit tile index)
 *   surface size .................... test_surface_bytes
 *   tile then untile = identity ..... test_roundtrip_random (also: exactly the
 *                                     image's bytes written, padding kept)
 *   GM_ERR_BAD_ARG tables ........... test_bad_check, test_bad_info,
 *                                     test_bad_surface_bytes, test_bad_copy;
 *                                     out-of-contract offsets: test_offset_outside
 *
 * The expected masks, shapes and offsets below are typed from the
 * specification (gpu_tile.h), not taken from the code under test.  The
 * random tests take their seed from tb_seed() ($GPUSIM_SEED, else the clock) and print
 * it; $GPUSIM_TEST=<test name> runs one test.  A failure prints the command
 * that reproduces it.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gm_status.h"
#include "gpu_hw.h"
#include "gpu_tile.h"
#include "tb_seed.h"

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

#define NUM_MODES 4u /* LINEAR, SS64K, Y, X */
#define NUM_BPE 5u   /* bpe_log2 0..4 */
#define HW_PITCH_MAX GPU_PKT_BLT_SRC_PITCH_MASK /* largest pitch a packet can carry */

/* The seed of the random tests and the program name, for reproduce lines. */
struct env {
	uint64_t seed;
	const char *argv0;
};

/* A number in [lo, hi]. */
static uint64_t rnd_in(uint64_t *s, uint64_t lo, uint64_t hi)
{
	return lo + tb_rand(s) % (hi - lo + 1);
}

static unsigned popcount32(uint32_t v)
{
	unsigned n = 0;

	for (; v; v &= v - 1)
		n++;
	return n;
}

static unsigned log2_exact(uint32_t v)
{
	unsigned n = 0;

	assert_true(v && (v & (v - 1)) == 0);
	while (v >>= 1)
		n++;
	return n;
}

/* PDEP one bit position at a time: the test's own, independent reference. */
static uint64_t ref_pdep(uint64_t val, uint64_t mask)
{
	uint64_t r = 0;
	unsigned k = 0;

	for (unsigned i = 0; i < 64; i++) {
		if (!(mask >> i & 1))
			continue;
		if (val >> k & 1)
			r |= 1ull << i;
		k++;
	}
	return r;
}

/* ------------------------------------------------------ the specification */

/*
 * The published geometry of every mode at every element size.  For LINEAR
 * gpu_tile.h defines the "tile" as one element.
 */
struct shape {
	unsigned mode, bpe_log2;
	uint32_t xmask, ymask;
	uint32_t tile_w_elems; /* tile width in elements */
	uint32_t tile_h_rows;
	uint32_t tile_bytes;
};

#define LIN(b) { GPU_TILE_LINEAR, b, (1u << (b)) - 1, 0, 1, 1, 1u << (b) }
#define TY(b) { GPU_TILE_Y, b, 0x0e0f, 0x01f0, 128u >> (b), 32, 4096 }
#define TX(b) { GPU_TILE_X, b, 0x01ff, 0x0e00, 512u >> (b), 8, 4096 }

static const struct shape shapes[] = {
	LIN(0), LIN(1), LIN(2), LIN(3), LIN(4),
	{ GPU_TILE_SS64K, 0, 0xaa0f, 0x55f0, 256, 256, 65536 },
	{ GPU_TILE_SS64K, 1, 0xaa8f, 0x5570, 256, 128, 65536 },
	{ GPU_TILE_SS64K, 2, 0xaa8f, 0x5570, 128, 128, 65536 },
	{ GPU_TILE_SS64K, 3, 0xaacf, 0x5530, 128, 64, 65536 },
	{ GPU_TILE_SS64K, 4, 0xaacf, 0x5530, 64, 64, 65536 },
	TY(0), TY(1), TY(2), TY(3), TY(4),
	TX(0), TX(1), TX(2), TX(3), TX(4),
};

#undef LIN
#undef TY
#undef TX

static uint32_t shape_tw_bytes(const struct shape *s)
{
	return s->tile_w_elems << s->bpe_log2;
}

/* Offset of (x, y) as gpu_tile.h defines it, by division and ref_pdep. */
static uint64_t ref_offset(const struct shape *s, uint32_t pitch, uint32_t x, uint32_t y)
{
	uint64_t xb = (uint64_t)x << s->bpe_log2, tw = shape_tw_bytes(s), th = s->tile_h_rows;

	if (s->mode == GPU_TILE_LINEAR)
		return (uint64_t)y * pitch + xb;
	return ((y / th) * (pitch / tw) + xb / tw) * s->tile_bytes +
	       (ref_pdep(xb % tw, s->xmask) | ref_pdep(y % th, s->ymask));
}

/* ------------------------------------------------------------------ pdep */

static void test_pdep(void **state)
{
	static const struct {
		uint64_t val, mask, want;
	} cases[] = {
		{ 0, 0xffff, 0 },
		{ ~0ull, 0, 0 },
		{ 0x1234, ~0ull, 0x1234 },
		{ 0xb, 0xf0, 0xb0 },
		{ 0x5, 0x1a, 0x12 },               /* val bits 1,0,1 into mask bits 1,3,4 */
		{ 0xff, 0xaa8f, 0x2a8f },          /* 8 of the 9 mask bits, lowest first */
		{ 0x1ff, 0x0f, 0x0f },             /* val bits past popcount(mask) dropped */
		{ 0x3, 0x8000000000000001ull, 0x8000000000000001ull },
		{ 0x2, 0x8000000000000001ull, 0x8000000000000000ull },
		{ 1ull << 63, ~0ull, 1ull << 63 },
	};
	uint64_t s = 0x7064657000000001ull; /* fixed: this is not a seeded test */

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		uint64_t got = gpu_tile_pdep(cases[i].val, cases[i].mask);

		if (got != cases[i].want)
			fail_msg("pdep(0x%" PRIx64 ", 0x%" PRIx64 ") = 0x%" PRIx64
				 ", expected 0x%" PRIx64,
				 cases[i].val, cases[i].mask, got, cases[i].want);
	}
	for (unsigned i = 0; i < 20000; i++) {
		uint64_t val = tb_rand(&s), mask = tb_rand(&s) & tb_rand(&s);

		if (gpu_tile_pdep(val, mask) != ref_pdep(val, mask))
			fail_msg("pdep(0x%" PRIx64 ", 0x%" PRIx64 ") = 0x%" PRIx64
				 ", reference 0x%" PRIx64,
				 val, mask, gpu_tile_pdep(val, mask), ref_pdep(val, mask));
	}
}

/* --------------------------------------------------------- published shapes */

/* The table names every mode at every element size exactly once. */
static void test_shapes_complete(void **state)
{
	unsigned seen[NUM_MODES][NUM_BPE] = { { 0 } };

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(shapes); i++) {
		assert_true(shapes[i].mode < NUM_MODES && shapes[i].bpe_log2 < NUM_BPE);
		seen[shapes[i].mode][shapes[i].bpe_log2]++;
	}
	for (unsigned m = 0; m < NUM_MODES; m++)
		for (unsigned b = 0; b < NUM_BPE; b++)
			if (seen[m][b] != 1)
				fail_msg("mode %u bpe_log2 %u: %u table rows", m, b, seen[m][b]);
	assert_int_equal(GPU_TILE_LINEAR, 0);
	assert_int_equal(GPU_TILE_X, NUM_MODES - 1);
}

static void test_shapes(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(shapes); i++) {
		const struct shape *s = &shapes[i];
		uint32_t elem = 1u << s->bpe_log2, tw = shape_tw_bytes(s);
		struct gpu_tile_info ti;

		assert_int_equal(gpu_tile_info(s->mode, s->bpe_log2, &ti), GM_OK);
		if (ti.xmask != s->xmask || ti.ymask != s->ymask || ti.tile_w_bytes != tw ||
		    ti.tile_h_rows != s->tile_h_rows || ti.tile_bytes != s->tile_bytes)
			fail_msg("mode %u bpe_log2 %u: got %u B x %u rows (%u B) x 0x%x y 0x%x, "
				 "published %u B x %u rows (%u B) x 0x%x y 0x%x",
				 s->mode, s->bpe_log2, ti.tile_w_bytes, ti.tile_h_rows,
				 ti.tile_bytes, ti.xmask, ti.ymask, tw, s->tile_h_rows,
				 s->tile_bytes, s->xmask, s->ymask);

		/* the published masks against the published tile sides */
		assert_int_equal(s->xmask & s->ymask, 0);
		assert_int_equal(s->xmask | s->ymask, s->tile_bytes - 1);
		assert_int_equal(popcount32(s->xmask), log2_exact(tw));
		assert_int_equal(popcount32(s->ymask), log2_exact(s->tile_h_rows));
		assert_int_equal((uint64_t)tw * s->tile_h_rows, s->tile_bytes);
		/* one element is contiguous: its byte bits stay in place */
		assert_int_equal(s->xmask & (elem - 1), elem - 1);
		if (s->mode == GPU_TILE_LINEAR)
			continue;
		/* 16 bytes of a row are contiguous (copy engine and aperture rely on it) */
		assert_int_equal(s->xmask & 0xf, 0xf);
		assert_int_equal(s->tile_bytes, s->mode == GPU_TILE_SS64K ? 65536 : 4096);
	}
}

/* ---------------------------------------------------------- hand computed */

/*
 * Offsets worked out by hand from the masks (set bits listed lowest first).
 * SS64K 4 B: XMASK 0xaa8f = bits 0 1 2 3 7 9 11 13 15,
 *            YMASK 0x5570 = bits 4 5 6 8 10 12 14.
 * Tile-Y:    XMASK 0x0e0f = bits 0 1 2 3 9 10 11, YMASK 0x01f0 = bits 4..8.
 */
static void test_points(void **state)
{
	static const struct {
		unsigned mode, bpe_log2;
		uint32_t pitch, x, y;
		uint64_t want;
	} pts[] = {
		/* SS64K 4 B */
		{ GPU_TILE_SS64K, 2, 1024, 0, 0, 0 },
		{ GPU_TILE_SS64K, 2, 1024, 1, 0, 4 },       /* xb 4: bit 2 */
		{ GPU_TILE_SS64K, 2, 1024, 3, 0, 12 },      /* xb 12: bits 2 3 */
		{ GPU_TILE_SS64K, 2, 1024, 4, 0, 128 },     /* xb 16: xb bit 4 -> bit 7 */
		{ GPU_TILE_SS64K, 2, 1024, 8, 0, 512 },     /* xb 32: xb bit 5 -> bit 9 */
		{ GPU_TILE_SS64K, 2, 1024, 0, 1, 16 },      /* y bit 0 -> bit 4 */
		{ GPU_TILE_SS64K, 2, 1024, 0, 7, 112 },     /* bits 4 5 6 */
		{ GPU_TILE_SS64K, 2, 1024, 0, 8, 256 },     /* y bit 3 -> bit 8 */
		{ GPU_TILE_SS64K, 2, 1024, 5, 3, 180 },     /* 4 + 128 | 16 + 32 */
		{ GPU_TILE_SS64K, 2, 1024, 127, 127, 65532 }, /* last element of the tile */
		{ GPU_TILE_SS64K, 2, 1024, 128, 0, 65536 },   /* tile (1, 0) */
		{ GPU_TILE_SS64K, 2, 1024, 0, 128, 131072 },  /* tile (0, 1): 2 tiles a row */
		/* SS64K 1 B: XMASK bits 0..3 9 11 13 15, YMASK bits 4..7 8 10 12 14 */
		{ GPU_TILE_SS64K, 0, 256, 15, 15, 255 },
		{ GPU_TILE_SS64K, 0, 256, 0, 15, 240 },
		{ GPU_TILE_SS64K, 0, 256, 16, 0, 512 },
		{ GPU_TILE_SS64K, 0, 256, 0, 16, 256 },
		/* SS64K 2 B: the 4 B masks, XMASK bits 0..3 7 9 11 13 15, YMASK bits 4 5 6 8 10 12 14 */
		{ GPU_TILE_SS64K, 1, 512, 8, 0, 128 },      /* xb 16: xb bit 4 -> bit 7 */
		{ GPU_TILE_SS64K, 1, 512, 16, 0, 512 },
		{ GPU_TILE_SS64K, 1, 512, 0, 1, 16 },
		{ GPU_TILE_SS64K, 1, 512, 0, 8, 256 },
		{ GPU_TILE_SS64K, 1, 512, 255, 127, 65534 },
		/* SS64K 8 B: the 16 B masks, XMASK bits 0..3 6 7 9 11 13 15, YMASK bits 4 5 8 10 12 14 */
		{ GPU_TILE_SS64K, 3, 1024, 2, 0, 64 },      /* xb 16: xb bit 4 -> bit 6 */
		{ GPU_TILE_SS64K, 3, 1024, 4, 0, 128 },
		{ GPU_TILE_SS64K, 3, 1024, 8, 0, 512 },
		{ GPU_TILE_SS64K, 3, 1024, 0, 1, 16 },
		{ GPU_TILE_SS64K, 3, 1024, 0, 2, 32 },
		{ GPU_TILE_SS64K, 3, 1024, 0, 4, 256 },
		{ GPU_TILE_SS64K, 3, 1024, 127, 63, 65528 },
		/* SS64K 16 B: XMASK bits 0..3 6 7 9 11 13 15, YMASK bits 4 5 8 10 12 14 */
		{ GPU_TILE_SS64K, 4, 1024, 1, 0, 64 },
		{ GPU_TILE_SS64K, 4, 1024, 2, 0, 128 },
		{ GPU_TILE_SS64K, 4, 1024, 4, 0, 512 },
		{ GPU_TILE_SS64K, 4, 1024, 0, 1, 16 },
		{ GPU_TILE_SS64K, 4, 1024, 0, 2, 32 },
		{ GPU_TILE_SS64K, 4, 1024, 0, 4, 256 },
		{ GPU_TILE_SS64K, 4, 1024, 63, 63, 65520 },
		/* Tile-Y: 16 B columns of 32 rows */
		{ GPU_TILE_Y, 2, 128, 4, 0, 512 },          /* byte 16: the next column */
		{ GPU_TILE_Y, 2, 128, 0, 1, 16 },
		{ GPU_TILE_Y, 2, 128, 0, 31, 496 },
		{ GPU_TILE_Y, 2, 128, 3, 31, 508 },
		{ GPU_TILE_Y, 2, 128, 31, 0, 3596 },        /* byte 124: column 7, byte 12 */
		{ GPU_TILE_Y, 2, 128, 31, 31, 4092 },
		{ GPU_TILE_Y, 0, 128, 17, 0, 513 },
		{ GPU_TILE_Y, 2, 256, 32, 0, 4096 },        /* tile (1, 0) */
		{ GPU_TILE_Y, 2, 256, 0, 32, 8192 },        /* tile (0, 1) */
		/* Tile-X: 512 B rows */
		{ GPU_TILE_X, 2, 512, 1, 0, 4 },
		{ GPU_TILE_X, 2, 512, 0, 1, 512 },
		{ GPU_TILE_X, 2, 512, 127, 7, 4092 },
		{ GPU_TILE_X, 2, 1024, 128, 0, 4096 },
		{ GPU_TILE_X, 2, 1024, 0, 8, 8192 },
		/* LINEAR */
		{ GPU_TILE_LINEAR, 2, 100, 3, 2, 212 },
		{ GPU_TILE_LINEAR, 0, 1, 0, 7, 7 },
		{ GPU_TILE_LINEAR, 4, 0xfffff0u, 1, 3, 0x2ffffe0 }, /* 3 * 0xfffff0 + 16 */
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(pts); i++) {
		uint64_t got;

		assert_int_equal(gpu_tile_check(pts[i].mode, pts[i].bpe_log2, pts[i].pitch), GM_OK);
		got = gpu_tile_offset(pts[i].mode, pts[i].bpe_log2, pts[i].pitch, pts[i].x,
				      pts[i].y);
		if (got != pts[i].want)
			fail_msg("mode %u bpe_log2 %u pitch %u (%u, %u): %" PRIu64
				 ", expected %" PRIu64,
				 pts[i].mode, pts[i].bpe_log2, pts[i].pitch, pts[i].x, pts[i].y,
				 got, pts[i].want);
	}
}

/* ------------------------------------------------------------ published */

/*
 * The 64KB standard swizzle as published outside this project, not as
 * regspec types it:
 *  - Intel gmmlib, Source/GmmLib/Utility/CpuSwizzleBlt/CpuSwizzleBlt.c,
 *    descriptors INTEL_TILE_YS_8/16/32/64/128 (Tile-Ys is the D3D
 *    64KB_STANDARD_SWIZZLE; written bit 15 first, each X or Y takes the next
 *    bit of the byte column or row), copied letter for letter below;
 *  - Microsoft's D3D11_TEXTURE_LAYOUT reference page, 32 bpp:
 *    xBytesMask 1010 1010 1000 1111, yMask 0101 0101 0111 0000.
 * Every element of the first tile at every element size is checked against
 * the descriptors, decoded here by walking the letters; then a few offsets
 * worked out by hand from the descriptors are pinned as numbers.
 */
static const struct {
	unsigned bpe_log2;
	const char *desc; /* bit 15 first */
} ys_desc[] = {
	{ 0, "X Y X Y X Y X Y Y Y Y Y X X X X" }, /* INTEL_TILE_YS_8 */
	{ 1, "X Y X Y X Y X Y X Y Y Y X X X X" }, /* INTEL_TILE_YS_16 */
	{ 2, "X Y X Y X Y X Y X Y Y Y X X X X" }, /* INTEL_TILE_YS_32 */
	{ 3, "X Y X Y X Y X Y X X Y Y X X X X" }, /* INTEL_TILE_YS_64 */
	{ 4, "X Y X Y X Y X Y X X Y Y X X X X" }, /* INTEL_TILE_YS_128 */
};

/* In-tile offset of byte column @xb, row @y under descriptor @desc. */
static uint32_t desc_offset(const char *desc, uint32_t xb, uint32_t y)
{
	char bits[16];
	unsigned n = 0, xi = 0, yi = 0;
	uint32_t off = 0;

	for (const char *c = desc; *c; c++)
		if (*c == 'X' || *c == 'Y')
			bits[n++] = *c;
	assert_int_equal(n, 16);
	for (unsigned b = 0; b < 16; b++) { /* bits[15] is offset bit 0 */
		uint32_t v = bits[15 - b] == 'X' ? (xb >> xi++) & 1u : (y >> yi++) & 1u;

		off |= v << b;
	}
	return off;
}

static uint32_t desc_count(const char *desc, char letter)
{
	uint32_t n = 0;

	for (const char *c = desc; *c; c++)
		n += *c == letter;
	return n;
}

static void test_published(void **state)
{
	static const struct {
		unsigned bpe_log2;
		uint32_t x, y, want; /* hand-decoded from the descriptor */
	} pins[] = {
		{ 0, 16, 0, 512 },    /* YS_8: xb bit 4 -> bit 9 */
		{ 0, 0, 16, 256 },    /* YS_8: y bit 4 -> bit 8 */
		{ 1, 8, 0, 128 },     /* YS_16: xb bit 4 -> bit 7 (not bit 4) */
		{ 1, 0, 1, 16 },      /* YS_16: y bit 0 -> bit 4 (not bit 5) */
		{ 1, 0, 8, 256 },     /* YS_16: y bit 3 -> bit 8 */
		{ 2, 4, 0, 128 },     /* YS_32 / Microsoft 32 bpp */
		{ 2, 0, 1, 16 },
		{ 3, 2, 0, 64 },      /* YS_64: xb bit 4 -> bit 6 (not bit 4) */
		{ 3, 0, 1, 16 },      /* YS_64: y bit 0 -> bit 4 (not bit 5) */
		{ 3, 0, 2, 32 },
		{ 3, 0, 4, 256 },
		{ 4, 1, 0, 64 },      /* YS_128 */
		{ 4, 0, 4, 256 },
	};
	struct gpu_tile_info ti;

	(void)state;
	/* Microsoft's 32 bpp masks, as printed */
	assert_int_equal(gpu_tile_info(GPU_TILE_SS64K, 2, &ti), GM_OK);
	assert_int_equal(ti.xmask, 0xaa8f); /* 1010 1010 1000 1111 */
	assert_int_equal(ti.ymask, 0x5570); /* 0101 0101 0111 0000 */
	for (size_t i = 0; i < ARRAY_SIZE(ys_desc); i++) {
		unsigned b = ys_desc[i].bpe_log2;
		uint32_t tw = 1u << desc_count(ys_desc[i].desc, 'X');
		uint32_t th = 1u << desc_count(ys_desc[i].desc, 'Y');

		assert_int_equal(gpu_tile_info(GPU_TILE_SS64K, b, &ti), GM_OK);
		assert_int_equal(ti.tile_w_bytes, tw);
		assert_int_equal(ti.tile_h_rows, th);
		for (uint32_t y = 0; y < th; y++) {
			for (uint32_t x = 0; x < tw >> b; x++) {
				uint64_t got = gpu_tile_offset(GPU_TILE_SS64K, b, tw, x, y);
				uint32_t want = desc_offset(ys_desc[i].desc, x << b, y);

				if (got != want)
					fail_msg("SS64K %u B (%u, %u): %" PRIu64 ", gmmlib INTEL_TILE_YS_%u gives %u",
						 1u << b, x, y, got, 8u << b, want);
			}
		}
	}
	for (size_t i = 0; i < ARRAY_SIZE(pins); i++) {
		uint64_t got = gpu_tile_offset(GPU_TILE_SS64K, pins[i].bpe_log2,
					       1024, pins[i].x, pins[i].y);

		if (got != pins[i].want)
			fail_msg("SS64K %u B (%u, %u): %" PRIu64 ", published %u",
				 1u << pins[i].bpe_log2, pins[i].x, pins[i].y, got, pins[i].want);
	}
}

/* ------------------------------------------------------------- one tile */

/*
 * Every element of the tile at the origin lands on its own element-aligned
 * offset inside [0, TB), and the elements fill the tile.  The pitch is three
 * tiles so that a pitch leaking into in-tile offsets shows.
 */
static void test_tile_bijective(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(shapes); i++) {
		const struct shape *s = &shapes[i];
		uint32_t elem = 1u << s->bpe_log2, pitch = 3 * shape_tw_bytes(s);
		uint32_t slots = s->tile_bytes / elem, filled = 0;
		uint8_t *seen = test_calloc(slots, 1);

		for (uint32_t y = 0; y < s->tile_h_rows; y++) {
			for (uint32_t x = 0; x < s->tile_w_elems; x++) {
				uint64_t off = gpu_tile_offset(s->mode, s->bpe_log2, pitch, x, y);

				if (off >= s->tile_bytes || off % elem || seen[off / elem])
					fail_msg("mode %u bpe_log2 %u (%u, %u): offset %" PRIu64
						 " %s",
						 s->mode, s->bpe_log2, x, y, off,
						 off >= s->tile_bytes ? "outside the tile" :
						 off % elem ? "not element-aligned" : "taken twice");
				seen[off / elem] = 1;
				filled++;
			}
		}
		assert_int_equal(filled, slots); /* so every slot was taken once */
		test_free(seen);
	}
}

/* ------------------------------------------------------------- tile grid */

/*
 * The same in-tile point in the next tile of a row is TB further on, in the
 * tile below (pitch / TW) * TB further on, and the last tile of a row is
 * followed by the first of the next (row-major).
 */
static void test_grid(void **state)
{
	static const uint32_t tiles_per_row[] = { 1, 2, 3, 7 };

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(shapes); i++) {
		const struct shape *s = &shapes[i];
		uint32_t twe = s->tile_w_elems, th = s->tile_h_rows;
		const uint32_t pts[][2] = { { 0, 0 }, { twe - 1, th - 1 }, { twe / 2, th / 3 },
					    { twe - 1, 0 }, { 0, th - 1 } };

		for (size_t p = 0; p < ARRAY_SIZE(tiles_per_row); p++) {
			uint32_t tpr = tiles_per_row[p], pitch = tpr * shape_tw_bytes(s);

			for (size_t k = 0; k < ARRAY_SIZE(pts); k++) {
				for (uint32_t ty = 0; ty < 3; ty++) {
					for (uint32_t tx = 0; tx < tpr; tx++) {
						uint32_t x = tx * twe + pts[k][0];
						uint32_t y = ty * th + pts[k][1];
						uint64_t o = gpu_tile_offset(s->mode, s->bpe_log2,
									     pitch, x, y);
						uint64_t below = gpu_tile_offset(
							s->mode, s->bpe_log2, pitch, x, y + th);
						uint64_t next =
							tx + 1 < tpr
								? gpu_tile_offset(s->mode, s->bpe_log2,
										  pitch, x + twe, y)
								: gpu_tile_offset(s->mode, s->bpe_log2,
										  pitch, pts[k][0],
										  y + th);

						if (next - o != s->tile_bytes ||
						    below - o != (uint64_t)tpr * s->tile_bytes)
							fail_msg("mode %u bpe_log2 %u pitch %u (%u, %u):"
								 " %" PRIu64 ", next tile +%" PRIu64
								 ", tile below +%" PRIu64,
								 s->mode, s->bpe_log2, pitch, x, y, o,
								 next - o, below - o);
					}
				}
			}
		}
	}
}

/* ------------------------------------------- gpu_tile.h formula, random */

/*
 * gpu_tile_offset() against ref_offset() at random points of random legal
 * surfaces: hardware-sized ones, and ones with 32-bit pitches and rows where
 * a 32-bit tile index would overflow (y * pitch < 2^63, the contract).
 */
static void test_offset_random(void **state)
{
	const struct env *env = *state;
	uint64_t s = env->seed ^ 0x6f66667365740000ull;

	for (size_t i = 0; i < ARRAY_SIZE(shapes); i++) {
		const struct shape *sh = &shapes[i];
		uint32_t tw = shape_tw_bytes(sh);

		for (unsigned n = 0; n < 4000; n++) {
			bool big = n & 1;
			uint32_t pitch = tw * (uint32_t)rnd_in(&s, 1, (big ? UINT32_MAX : HW_PITCH_MAX) / tw);
			uint32_t x = (uint32_t)rnd_in(&s, 0, pitch / (1u << sh->bpe_log2) - 1);
			uint32_t y = (uint32_t)rnd_in(&s, 0, big ? INT32_MAX : UINT16_MAX);
			uint64_t got = gpu_tile_offset(sh->mode, sh->bpe_log2, pitch, x, y);
			uint64_t want = ref_offset(sh, pitch, x, y);

			if (got != want)
				fail_msg("mode %u bpe_log2 %u pitch %u (%u, %u): %" PRIu64
					 ", expected %" PRIu64 "; reproduce: GPUSIM_SEED=%" PRIu64
					 " %s",
					 sh->mode, sh->bpe_log2, pitch, x, y, got, want, env->seed,
					 env->argv0);
		}
	}
}

/* ------------------------------------------------------------ surface size */

static void test_surface_bytes(void **state)
{
	static const struct {
		unsigned mode, bpe_log2;
		uint32_t pitch, height;
		uint64_t want;
	} cases[] = {
		{ GPU_TILE_LINEAR, 2, 100, 7, 700 },
		{ GPU_TILE_LINEAR, 0, 1, 0, 0 },
		{ GPU_TILE_LINEAR, 0, 1, UINT32_MAX, 0xffffffffull },
		{ GPU_TILE_LINEAR, 0, UINT32_MAX, UINT32_MAX, 0xfffffffe00000001ull },
		{ GPU_TILE_Y, 2, 256, 0, 0 },
		{ GPU_TILE_Y, 2, 256, 1, 8192 },   /* one tile row: 32 rows */
		{ GPU_TILE_Y, 2, 256, 32, 8192 },
		{ GPU_TILE_Y, 2, 256, 33, 16384 },
		{ GPU_TILE_X, 0, 512, 9, 8192 },
		{ GPU_TILE_X, 4, 1024, 8, 8192 },
		{ GPU_TILE_SS64K, 2, 1024, 1, 131072 }, /* 128 rows of 1024 B */
		{ GPU_TILE_SS64K, 2, 1024, 128, 131072 },
		{ GPU_TILE_SS64K, 2, 1024, 129, 262144 },
		{ GPU_TILE_SS64K, 0, 256, 257, 131072 },
		{ GPU_TILE_SS64K, 4, 1024, 65, 131072 },
		/* the largest: 2^32 rows after rounding, still below 2^64 */
		{ GPU_TILE_Y, 0, 0xffffff80u, UINT32_MAX, 0xffffff8000000000ull },
		{ GPU_TILE_SS64K, 0, 0xffffff00u, UINT32_MAX, 0xffffff0000000000ull },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		uint64_t got = 0x5a5a5a5a5a5a5a5aull;

		assert_int_equal(gpu_tile_surface_bytes(cases[i].mode, cases[i].bpe_log2,
							cases[i].pitch, cases[i].height, &got),
				 GM_OK);
		if (got != cases[i].want)
			fail_msg("mode %u bpe_log2 %u pitch %u height %u: %" PRIu64
				 ", expected %" PRIu64,
				 cases[i].mode, cases[i].bpe_log2, cases[i].pitch, cases[i].height,
				 got, cases[i].want);
	}
}

/* ------------------------------------------------------ tile/untile random */

/* One random surface and image of test_roundtrip_random. */
struct rt {
	const struct env *env;
	const struct shape *s;
	uint32_t pitch, width, height, linear_pitch;
	uint32_t elem;                 /* bytes */
	uint64_t tiled_len, linear_len; /* bytes */
	uint8_t *img, *t0, *t1, *back;
};

static void rt_fail(const struct rt *r, const char *fmt, ...)
{
	char what[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	fail_msg("mode %u bpe_log2 %u pitch %u %u x %u linear_pitch %u: %s; reproduce: "
		 "GPUSIM_SEED=%" PRIu64 " %s",
		 r->s->mode, r->s->bpe_log2, r->pitch, r->width, r->height, r->linear_pitch, what,
		 r->env->seed, r->env->argv0);
}

static void rt_pick(struct rt *r, uint64_t *s)
{
	uint32_t tw = shape_tw_bytes(r->s);
	uint32_t max_tiles = r->s->mode == GPU_TILE_LINEAR ? 300 : 3;
	uint32_t max_rows = r->s->mode == GPU_TILE_LINEAR ? 40 : 2 * r->s->tile_h_rows - 1;

	r->elem = 1u << r->s->bpe_log2;
	r->pitch = tw * (uint32_t)rnd_in(s, 1, max_tiles);
	r->width = (uint32_t)rnd_in(s, 1, r->pitch / r->elem);
	r->height = (uint32_t)rnd_in(s, 1, max_rows);
	r->linear_pitch = r->width * r->elem + (uint32_t)rnd_in(s, 0, 1) * (uint32_t)rnd_in(s, 1, 37);
	r->linear_len = (uint64_t)(r->height - 1) * r->linear_pitch + (uint64_t)r->width * r->elem;
	assert_int_equal(gpu_tile_surface_bytes(r->s->mode, r->s->bpe_log2, r->pitch, r->height,
						&r->tiled_len),
			 GM_OK);
}

/* The image's bytes land at gpu_tile_offset(), and no other byte is written. */
static void rt_check_tiled(const struct rt *r)
{
	uint64_t same = 0;

	for (uint32_t y = 0; y < r->height; y++) {
		for (uint32_t x = 0; x < r->width; x++) {
			uint64_t off = gpu_tile_offset(r->s->mode, r->s->bpe_log2, r->pitch, x, y);
			const uint8_t *want = r->img + (size_t)y * r->linear_pitch + (size_t)x * r->elem;

			if (off + r->elem > r->tiled_len)
				rt_fail(r, "(%u, %u) at %" PRIu64 ", past the surface", x, y, off);
			if (memcmp(r->t0 + off, want, r->elem) != 0)
				rt_fail(r, "(%u, %u) not at offset %" PRIu64, x, y, off);
		}
	}
	/* t0 started all 0x00 and t1 all 0xff: equal bytes are the written ones */
	for (uint64_t i = 0; i < r->tiled_len; i++)
		same += r->t0[i] == r->t1[i];
	if (same != (uint64_t)r->width * r->height * r->elem)
		rt_fail(r, "%" PRIu64 " bytes written, expected %" PRIu64, same,
			(uint64_t)r->width * r->height * r->elem);
}

/* The untiled image is the original, and its row padding was not written. */
static void rt_check_back(const struct rt *r)
{
	uint32_t row_bytes = r->width * r->elem;

	for (uint32_t y = 0; y < r->height; y++) {
		const uint8_t *got = r->back + (size_t)y * r->linear_pitch;

		if (memcmp(got, r->img + (size_t)y * r->linear_pitch, row_bytes) != 0)
			rt_fail(r, "row %u differs after tile and untile", y);
		for (uint32_t i = row_bytes; y + 1 < r->height && i < r->linear_pitch; i++)
			if (got[i] != 0x5a)
				rt_fail(r, "padding byte %u of row %u written", i, y);
	}
}

static void rt_run(struct rt *r, uint64_t *s)
{
	r->img = test_malloc(r->linear_len);
	r->back = test_malloc(r->linear_len);
	r->t0 = test_malloc(r->tiled_len); /* exactly the surface: ASan/valgrind see overruns */
	r->t1 = test_malloc(r->tiled_len);
	for (uint64_t i = 0; i < r->linear_len; i++)
		r->img[i] = (uint8_t)(i * 131 + r->width); /* overwritten in rows below */
	for (uint32_t y = 0; y < r->height; y++)
		for (uint32_t i = 0; i < r->width * r->elem; i++)
			r->img[(size_t)y * r->linear_pitch + i] = (uint8_t)tb_rand(s);
	memset(r->t0, 0x00, r->tiled_len);
	memset(r->t1, 0xff, r->tiled_len);
	memset(r->back, 0x5a, r->linear_len);

	if (gpu_tile_tile(r->s->mode, r->s->bpe_log2, r->pitch, r->t0, r->tiled_len, r->width,
			  r->height, r->img, r->linear_pitch, r->linear_len) != GM_OK ||
	    gpu_tile_tile(r->s->mode, r->s->bpe_log2, r->pitch, r->t1, r->tiled_len, r->width,
			  r->height, r->img, r->linear_pitch, r->linear_len) != GM_OK)
		rt_fail(r, "gpu_tile_tile refused a legal copy");
	rt_check_tiled(r);
	if (gpu_tile_untile(r->s->mode, r->s->bpe_log2, r->pitch, r->t0, r->tiled_len, r->width,
			    r->height, r->back, r->linear_pitch, r->linear_len) != GM_OK)
		rt_fail(r, "gpu_tile_untile refused a legal copy");
	rt_check_back(r);

	test_free(r->img);
	test_free(r->back);
	test_free(r->t0);
	test_free(r->t1);
}

static void test_roundtrip_random(void **state)
{
	const struct env *env = *state;
	uint64_t s = env->seed ^ 0x726f756e64747200ull;

	for (size_t i = 0; i < ARRAY_SIZE(shapes); i++) {
		for (unsigned n = 0; n < 5; n++) {
			struct rt r = { .env = env, .s = &shapes[i] };

			rt_pick(&r, &s);
			rt_run(&r, &s);
		}
	}
}

/* ------------------------------------------------------------- bad args */

#define BAD GM_ERR_BAD_ARG

/* Layouts with the status gpu_tile_check() must give; OK rows are the twins. */
static const struct {
	unsigned mode, bpe_log2;
	uint32_t pitch;
	int want;
} layouts[] = {
	{ NUM_MODES, 0, 512, BAD },
	{ UINT_MAX, 0, 512, BAD },
	{ GPU_TILE_LINEAR, NUM_BPE, 16, BAD },
	{ GPU_TILE_LINEAR, UINT_MAX, 16, BAD },
	{ GPU_TILE_SS64K, NUM_BPE, 1024, BAD },
	{ GPU_TILE_Y, NUM_BPE, 128, BAD },
	{ GPU_TILE_X, 7, 512, BAD },
	{ GPU_TILE_LINEAR, 0, 0, BAD },
	{ GPU_TILE_SS64K, 2, 0, BAD },
	{ GPU_TILE_Y, 2, 0, BAD },
	{ GPU_TILE_X, 2, 0, BAD },
	{ GPU_TILE_LINEAR, 0, 1, GM_OK },
	{ GPU_TILE_LINEAR, 0, UINT32_MAX, GM_OK },
	{ GPU_TILE_LINEAR, 2, 6, BAD },
	{ GPU_TILE_LINEAR, 2, 4, GM_OK },
	{ GPU_TILE_LINEAR, 2, 8, GM_OK },
	{ GPU_TILE_LINEAR, 4, 8, BAD },
	{ GPU_TILE_LINEAR, 4, 24, BAD },
	{ GPU_TILE_LINEAR, 4, 32, GM_OK },
	{ GPU_TILE_SS64K, 0, 128, BAD },
	{ GPU_TILE_SS64K, 0, 384, BAD },
	{ GPU_TILE_SS64K, 0, 256, GM_OK },
	{ GPU_TILE_SS64K, 1, 256, BAD },
	{ GPU_TILE_SS64K, 1, 512, GM_OK },
	{ GPU_TILE_SS64K, 2, 256, BAD },
	{ GPU_TILE_SS64K, 2, 768, BAD },
	{ GPU_TILE_SS64K, 2, 512, GM_OK },
	{ GPU_TILE_SS64K, 2, 1536, GM_OK },
	{ GPU_TILE_SS64K, 3, 512, BAD },
	{ GPU_TILE_SS64K, 3, 1536, BAD },
	{ GPU_TILE_SS64K, 3, 1024, GM_OK },
	{ GPU_TILE_SS64K, 4, 512, BAD },
	{ GPU_TILE_SS64K, 4, 1024, GM_OK },
	{ GPU_TILE_SS64K, 4, 0xfffffc00u, GM_OK },
	{ GPU_TILE_Y, 0, 64, BAD },
	{ GPU_TILE_Y, 4, 192, BAD },
	{ GPU_TILE_Y, 4, 128, GM_OK },
	{ GPU_TILE_Y, 0, 0xffffff80u, GM_OK },
	{ GPU_TILE_Y, 0, 0xffffffc0u, BAD },
	{ GPU_TILE_X, 3, 256, BAD },
	{ GPU_TILE_X, 3, 768, BAD },
	{ GPU_TILE_X, 0, 512, GM_OK },
	{ GPU_TILE_X, 0, 0xfffffe00u, GM_OK },
	{ GPU_TILE_X, 0, UINT32_MAX, BAD },
};

static void test_bad_check(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(layouts); i++) {
		int st = gpu_tile_check(layouts[i].mode, layouts[i].bpe_log2, layouts[i].pitch);

		if (st != layouts[i].want)
			fail_msg("gpu_tile_check(%u, %u, %u): %s, expected %s", layouts[i].mode,
				 layouts[i].bpe_log2, layouts[i].pitch, gm_status_name(st),
				 gm_status_name(layouts[i].want));
	}
}

static void test_bad_info(void **state)
{
	static const struct {
		unsigned mode, bpe_log2;
		bool null_out;
	} cases[] = {
		{ GPU_TILE_Y, 0, true },
		{ NUM_MODES, 0, false },
		{ UINT_MAX, 0, false },
		{ GPU_TILE_LINEAR, NUM_BPE, false },
		{ GPU_TILE_SS64K, NUM_BPE, false },
		{ GPU_TILE_SS64K, UINT_MAX, false },
		{ GPU_TILE_X, 8, false },
	};
	struct gpu_tile_info ti, was;

	(void)state;
	memset(&was, 0xa5, sizeof(was));
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		ti = was;
		assert_int_equal(gpu_tile_info(cases[i].mode, cases[i].bpe_log2,
					       cases[i].null_out ? NULL : &ti),
				 GM_ERR_BAD_ARG);
		if (memcmp(&ti, &was, sizeof(ti)) != 0)
			fail_msg("gpu_tile_info(%u, %u) wrote its output on error", cases[i].mode,
				 cases[i].bpe_log2);
	}
}

/* Every layout gpu_tile_check() refuses, and a NULL result pointer. */
static void test_bad_surface_bytes(void **state)
{
	const uint64_t was = 0xa5a5a5a5a5a5a5a5ull;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(layouts); i++) {
		uint64_t bytes = was;
		int st = gpu_tile_surface_bytes(layouts[i].mode, layouts[i].bpe_log2,
						layouts[i].pitch, 5, &bytes);

		if (st != layouts[i].want || (st != GM_OK && bytes != was))
			fail_msg("gpu_tile_surface_bytes(%u, %u, %u): %s, expected %s, "
				 "result 0x%" PRIx64,
				 layouts[i].mode, layouts[i].bpe_log2, layouts[i].pitch,
				 gm_status_name(st), gm_status_name(layouts[i].want), bytes);
	}
	assert_int_equal(gpu_tile_surface_bytes(GPU_TILE_Y, 0, 128, 5, NULL), GM_ERR_BAD_ARG);
}

/*
 * Whole-surface copies, both directions.  The base is Tile-Y at 4 B, pitch
 * 256 (two tiles), 40 x 33 elements: the surface is 16384 bytes and the
 * image, 164 bytes a row, needs 32 * 164 + 160 = 5408.
 */
enum where {
	SEPARATE, /* two allocations */
	TILED_NULL,
	LINEAR_NULL,
	INSIDE,   /* linear at tiled + at, in one allocation */
};

struct copy_case {
	const char *what;
	unsigned mode, bpe_log2;
	uint32_t pitch;
	size_t tiled_len;
	uint32_t width, height, linear_pitch;
	size_t linear_len;
	enum where where;
	size_t at; /* INSIDE: offset of the linear image */
	int want;
};

#define BASE GPU_TILE_Y, 2, 256, 16384, 40, 33, 164, 5408
static const struct copy_case copy_cases[] = {
	{ "base", BASE, SEPARATE, 0, GM_OK },
	{ "tiled NULL", BASE, TILED_NULL, 0, BAD },
	{ "linear NULL", BASE, LINEAR_NULL, 0, BAD },
	{ "unknown mode", NUM_MODES, 2, 256, 16384, 40, 33, 164, 5408, SEPARATE, 0, BAD },
	{ "bpe_log2 5", GPU_TILE_Y, 5, 256, 16384, 40, 33, 164, 5408, SEPARATE, 0, BAD },
	{ "bpe_log2 huge", GPU_TILE_Y, 200, 256, 16384, 40, 33, 164, 5408, SEPARATE, 0, BAD },
	{ "pitch 0", GPU_TILE_Y, 2, 0, 16384, 40, 33, 164, 5408, SEPARATE, 0, BAD },
	{ "pitch not whole tiles", GPU_TILE_Y, 2, 192, 16384, 40, 33, 164, 5408, SEPARATE, 0, BAD },
	{ "width past pitch", GPU_TILE_Y, 2, 256, 16384, 65, 33, 300, 32 * 300 + 260, SEPARATE, 0,
	  BAD },
	{ "width = pitch", GPU_TILE_Y, 2, 256, 16384, 64, 33, 300, 32 * 300 + 256, SEPARATE, 0,
	  GM_OK },
	{ "width past linear_pitch", GPU_TILE_Y, 2, 256, 16384, 42, 33, 164, 32 * 164 + 168,
	  SEPARATE, 0, BAD },
	{ "linear_pitch = row", GPU_TILE_Y, 2, 256, 16384, 41, 33, 164, 33 * 164, SEPARATE, 0,
	  GM_OK },
	{ "width 2^32-1", GPU_TILE_Y, 4, 256, 16384, UINT32_MAX, 33, 164, 5408, SEPARATE, 0, BAD },
	{ "linear_pitch 0", GPU_TILE_Y, 2, 256, 16384, 40, 33, 0, 5408, SEPARATE, 0, BAD },
	{ "tiled_len short", GPU_TILE_Y, 2, 256, 16383, 40, 33, 164, 5408, SEPARATE, 0, BAD },
	{ "tiled_len 0", GPU_TILE_Y, 2, 256, 0, 40, 33, 164, 5408, SEPARATE, 0, BAD },
	{ "linear_len short", GPU_TILE_Y, 2, 256, 16384, 40, 33, 164, 5407, SEPARATE, 0, BAD },
	{ "linear_len 0", GPU_TILE_Y, 2, 256, 16384, 40, 33, 164, 0, SEPARATE, 0, BAD },
	{ "tiled_len, linear_len long", GPU_TILE_Y, 2, 256, 20000, 40, 33, 164, 6000, SEPARATE, 0,
	  GM_OK },
	{ "linear inside the surface", BASE, INSIDE, 4096, BAD },
	{ "linear overlaps the last byte", BASE, INSIDE, 16383, BAD },
	{ "linear right after the surface", BASE, INSIDE, 16384, GM_OK },
	{ "one column, wide linear_pitch", GPU_TILE_X, 0, 512, 4096, 1, 8, 8192, 7 * 8192 + 1,
	  SEPARATE, 0, GM_OK },
	{ "width 0", GPU_TILE_Y, 2, 256, 16384, 0, 33, 164, 0, SEPARATE, 0, GM_OK },
	{ "width 0, tiled_len short", GPU_TILE_Y, 2, 256, 16383, 0, 33, 164, 0, SEPARATE, 0, BAD },
	{ "height 0", GPU_TILE_Y, 2, 256, 0, 40, 0, 164, 0, SEPARATE, 0, GM_OK },
	{ "LINEAR base", GPU_TILE_LINEAR, 0, 100, 300, 100, 3, 100, 300, SEPARATE, 0, GM_OK },
	{ "LINEAR tiled_len short", GPU_TILE_LINEAR, 0, 100, 299, 100, 3, 100, 300, SEPARATE, 0,
	  BAD },
	{ "LINEAR width past pitch", GPU_TILE_LINEAR, 1, 100, 300, 51, 3, 102, 306, SEPARATE, 0,
	  BAD },
	{ "LINEAR pitch not elements", GPU_TILE_LINEAR, 1, 101, 303, 50, 3, 100, 300, SEPARATE, 0,
	  BAD },
	{ "SS64K base", GPU_TILE_SS64K, 3, 1024, 65536, 128, 64, 1024, 65536, SEPARATE, 0, GM_OK },
	{ "SS64K tiled_len short", GPU_TILE_SS64K, 3, 1024, 65535, 128, 1, 1024, 1024, SEPARATE,
	  0, BAD },
};
#undef BASE

/* Storage of one copy case: one or two allocations, filled with a pattern. */
struct copy_bufs {
	uint8_t *a, *b; /* b is NULL for INSIDE */
	size_t a_len, b_len;
	uint8_t *snap_a, *snap_b;
	void *tiled, *linear;
};

static void bufs_make(struct copy_bufs *cb, const struct copy_case *c)
{
	memset(cb, 0, sizeof(*cb));
	cb->a_len = c->tiled_len + 1;
	if (c->where == INSIDE && c->at + c->linear_len > c->tiled_len)
		cb->a_len = c->at + c->linear_len + 1;
	cb->b_len = c->where == INSIDE ? 1 : c->linear_len + 1;
	cb->a = test_malloc(cb->a_len);
	cb->b = test_malloc(cb->b_len);
	cb->snap_a = test_malloc(cb->a_len);
	cb->snap_b = test_malloc(cb->b_len);
	for (size_t i = 0; i < cb->a_len; i++)
		cb->a[i] = (uint8_t)(i * 7 + 3);
	for (size_t i = 0; i < cb->b_len; i++)
		cb->b[i] = (uint8_t)(i * 13 + 101);
	cb->tiled = c->where == TILED_NULL ? NULL : cb->a;
	cb->linear = c->where == LINEAR_NULL ? NULL : c->where == INSIDE ? cb->a + c->at : cb->b;
	memcpy(cb->snap_a, cb->a, cb->a_len);
	memcpy(cb->snap_b, cb->b, cb->b_len);
}

static void bufs_free(struct copy_bufs *cb)
{
	test_free(cb->a);
	test_free(cb->b);
	test_free(cb->snap_a);
	test_free(cb->snap_b);
}

static bool bufs_unchanged(const struct copy_bufs *cb)
{
	return memcmp(cb->a, cb->snap_a, cb->a_len) == 0 &&
	       memcmp(cb->b, cb->snap_b, cb->b_len) == 0;
}

static void copy_case_run(const struct copy_case *c, bool untile)
{
	const char *fn = untile ? "gpu_tile_untile" : "gpu_tile_tile";
	struct copy_bufs cb;
	int st;

	bufs_make(&cb, c);
	if (untile)
		st = gpu_tile_untile(c->mode, c->bpe_log2, c->pitch, cb.tiled, c->tiled_len,
				     c->width, c->height, cb.linear, c->linear_pitch, c->linear_len);
	else
		st = gpu_tile_tile(c->mode, c->bpe_log2, c->pitch, cb.tiled, c->tiled_len, c->width,
				   c->height, cb.linear, c->linear_pitch, c->linear_len);
	if (st != c->want)
		fail_msg("%s, %s: %s, expected %s", fn, c->what, gm_status_name(st),
			 gm_status_name(c->want));
	/* on error, and for an empty image, not one byte may change */
	if ((st != GM_OK || c->width == 0 || c->height == 0) && !bufs_unchanged(&cb))
		fail_msg("%s, %s: %s but a buffer was written", fn, c->what, gm_status_name(st));
	if (st == GM_OK && c->width && c->height && bufs_unchanged(&cb))
		fail_msg("%s, %s: GM_OK but nothing was copied", fn, c->what);
	bufs_free(&cb);
}

static void test_bad_copy(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(copy_cases); i++) {
		copy_case_run(&copy_cases[i], true);
		copy_case_run(&copy_cases[i], false);
	}
}

/*
 * Outside the contract gpu_tile_offset() is still defined: UINT64_MAX for
 * an unknown mode or size, the RTL's value for an unchecked pitch.
 */
static void test_offset_outside(void **state)
{
	(void)state;
	assert_true(gpu_tile_offset(NUM_MODES, 0, 512, 1, 1) == UINT64_MAX);
	assert_true(gpu_tile_offset(UINT_MAX, 0, 512, 1, 1) == UINT64_MAX);
	assert_true(gpu_tile_offset(GPU_TILE_LINEAR, NUM_BPE, 512, 1, 1) == UINT64_MAX);
	assert_true(gpu_tile_offset(GPU_TILE_SS64K, UINT_MAX, 1024, 1, 1) == UINT64_MAX);
	/* Tile-Y, pitch 200: one whole tile a row, so row 32 starts tile 1 */
	assert_true(gpu_tile_offset(GPU_TILE_Y, 2, 200, 0, 32) == 4096);
	/* LINEAR keeps its formula for a pitch that is not whole elements */
	assert_true(gpu_tile_offset(GPU_TILE_LINEAR, 2, 6, 1, 1) == 10);
}

/* ------------------------------------------------------------------ main */

int main(int argc, char **argv)
{
	struct env env = { 0, argc > 0 ? argv[0] : "test_tile" };
	const char *only = getenv("GPUSIM_TEST");
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pdep),
		cmocka_unit_test(test_shapes_complete),
		cmocka_unit_test(test_shapes),
		cmocka_unit_test(test_points),
		cmocka_unit_test(test_published),
		cmocka_unit_test(test_tile_bijective),
		cmocka_unit_test(test_grid),
		cmocka_unit_test_prestate(test_offset_random, &env),
		cmocka_unit_test(test_surface_bytes),
		cmocka_unit_test_prestate(test_roundtrip_random, &env),
		cmocka_unit_test(test_bad_check),
		cmocka_unit_test(test_bad_info),
		cmocka_unit_test(test_bad_surface_bytes),
		cmocka_unit_test(test_bad_copy),
		cmocka_unit_test(test_offset_outside),
	};

	env.seed = tb_seed(env.argv0);
	if (only && *only)
		cmocka_set_test_filter(only);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
