/* SPDX-License-Identifier: MIT */
/*
 * gpu_tile.c - the reference swizzle (see gpu_tile.h for the definitions).
 *
 * The masks are typed once, in regspec/gpusim.json ("tiles"), and generated
 * into hw/gpu_names.c and the RTL's tile_* functions; test_apt runs both
 * over whole tiles of every mode and element size, and tb/unit/test_tile.c
 * pins offsets taken from the published definitions.
 */
#include <stdbool.h>
#include <string.h>

#include "gpu_names.h"
#include "gpu_tile.h"

/* The geometry of one (mode, element size); see the table in gpu_tile.h. */
struct tile_geom {
	uint8_t tw_log2; /* tile width, log2 bytes */
	uint8_t th_log2; /* tile height, log2 rows */
	uint16_t xmask;  /* in-tile offset bits fed from the byte column */
	uint16_t ymask;  /* in-tile offset bits fed from the row */
};

/*
 * Fill *@g for @mode at @bpe_log2; false for an unknown mode or size.  The
 * tiled modes come from the generated table (regspec "tiles", the same one
 * the RTL's tile_* functions are generated from).
 */
static bool geom_get(unsigned mode, unsigned bpe_log2, struct tile_geom *g)
{
	const struct gpu_tile_geom *t;

	if (bpe_log2 > GPU_TILE_BPE_LOG2_MAX)
		return false;
	if (mode == GPU_TILE_LINEAR) { /* one element is the "tile" */
		g->tw_log2 = (uint8_t)bpe_log2;
		g->th_log2 = 0;
		g->xmask = (uint16_t)((1u << bpe_log2) - 1);
		g->ymask = 0;
		return true;
	}
	t = gpu_tile_geom(mode, bpe_log2);
	if (!t)
		return false;
	g->tw_log2 = t->tw_log2;
	g->th_log2 = t->th_log2;
	g->xmask = t->xmask;
	g->ymask = t->ymask;
	return true;
}

uint64_t gpu_tile_pdep(uint64_t val, uint64_t mask)
{
	uint64_t r = 0;

	/* @bit walks @val upward while the lowest set bit of @mask is consumed */
	for (uint64_t bit = 1; mask; bit <<= 1) {
		if (val & bit)
			r |= mask & (~mask + 1);
		mask &= mask - 1;
	}
	return r;
}

int gpu_tile_info(unsigned mode, unsigned bpe_log2, struct gpu_tile_info *out)
{
	struct tile_geom g;

	if (!out || !geom_get(mode, bpe_log2, &g))
		return GM_ERR_BAD_ARG;
	out->tile_w_bytes = 1u << g.tw_log2;
	out->tile_h_rows = 1u << g.th_log2;
	out->tile_bytes = 1u << (g.tw_log2 + g.th_log2);
	out->xmask = g.xmask;
	out->ymask = g.ymask;
	return GM_OK;
}

int gpu_tile_check(unsigned mode, unsigned bpe_log2, uint32_t pitch)
{
	struct tile_geom g;

	if (!geom_get(mode, bpe_log2, &g))
		return GM_ERR_BAD_ARG;
	/* LINEAR's tile width is the element size, so one rule serves all */
	if (pitch == 0 || (pitch & ((1u << g.tw_log2) - 1)) != 0)
		return GM_ERR_BAD_ARG;
	return GM_OK;
}

uint64_t gpu_tile_offset(unsigned mode, unsigned bpe_log2, uint32_t pitch, uint32_t x, uint32_t y)
{
	struct tile_geom g;
	uint64_t xb, tile;

	if (!geom_get(mode, bpe_log2, &g))
		return UINT64_MAX;
	xb = (uint64_t)x << bpe_log2;
	if (mode == GPU_TILE_LINEAR) /* the definition, also for an unchecked pitch */
		return (uint64_t)y * pitch + xb;
	tile = (uint64_t)(y >> g.th_log2) * (pitch >> g.tw_log2) + (xb >> g.tw_log2);
	return (tile << (g.tw_log2 + g.th_log2)) +
	       gpu_tile_pdep(xb & ((1u << g.tw_log2) - 1), g.xmask) +
	       gpu_tile_pdep(y & ((1u << g.th_log2) - 1), g.ymask);
}

int gpu_tile_surface_bytes(unsigned mode, unsigned bpe_log2, uint32_t pitch, uint32_t height,
			   uint64_t *bytes)
{
	struct tile_geom g;
	uint64_t rows;

	if (!bytes || gpu_tile_check(mode, bpe_log2, pitch) != GM_OK)
		return GM_ERR_BAD_ARG;
	geom_get(mode, bpe_log2, &g);
	/* TH divides 2^32, so rows <= 2^32 and rows * pitch < 2^64 */
	rows = ((uint64_t)height + (1u << g.th_log2) - 1) >> g.th_log2 << g.th_log2;
	*bytes = rows * pitch;
	return GM_OK;
}

/* The arguments of one whole-surface copy, in either direction. */
struct tile_copy {
	unsigned mode, bpe_log2;
	uint32_t pitch;         /* bytes per row of the tiled surface */
	const void *tiled;
	size_t tiled_len;       /* bytes */
	uint32_t width, height; /* elements, rows */
	const void *linear;
	uint32_t linear_pitch;  /* bytes per row of the linear image */
	size_t linear_len;      /* bytes */
};

/* Whether [a, a + alen) and [b, b + blen) share a byte. */
static bool spans_overlap(const void *a, uint64_t alen, const void *b, uint64_t blen)
{
	uintptr_t pa = (uintptr_t)a, pb = (uintptr_t)b;

	return alen && blen && pa < pb + blen && pb < pa + alen;
}

/* GM_OK when @c is a copy gpu_tile_untile()/gpu_tile_tile() may do. */
static int copy_check(const struct tile_copy *c)
{
	uint64_t row_bytes, tiled_need, linear_need;

	if (!c->tiled || !c->linear)
		return GM_ERR_BAD_ARG;
	if (gpu_tile_surface_bytes(c->mode, c->bpe_log2, c->pitch, c->height, &tiled_need) != GM_OK)
		return GM_ERR_BAD_ARG;
	row_bytes = (uint64_t)c->width << c->bpe_log2;
	if (row_bytes > c->pitch || row_bytes > c->linear_pitch)
		return GM_ERR_BAD_ARG;
	if (c->tiled_len < tiled_need)
		return GM_ERR_BAD_ARG;
	if (c->width == 0 || c->height == 0)
		return GM_OK; /* nothing is read or written */
	/* <= height * linear_pitch < 2^64 as row_bytes <= linear_pitch */
	linear_need = (uint64_t)(c->height - 1) * c->linear_pitch + row_bytes;
	if (c->linear_len < linear_need)
		return GM_ERR_BAD_ARG;
	if (spans_overlap(c->tiled, tiled_need, c->linear, linear_need))
		return GM_ERR_BAD_ARG;
	return GM_OK;
}

int gpu_tile_untile(unsigned mode, unsigned bpe_log2, uint32_t pitch, const void *tiled,
		    size_t tiled_len, uint32_t width, uint32_t height, void *linear,
		    uint32_t linear_pitch, size_t linear_len)
{
	const struct tile_copy c = { mode, bpe_log2, pitch, tiled, tiled_len, width, height,
				     linear, linear_pitch, linear_len };
	const uint8_t *src = tiled;
	uint8_t *row;
	size_t elem; /* bytes */

	if (copy_check(&c) != GM_OK)
		return GM_ERR_BAD_ARG;
	elem = (size_t)1 << bpe_log2;
	for (uint32_t y = 0; y < height; y++) {
		row = (uint8_t *)linear + (size_t)y * linear_pitch;
		for (uint32_t x = 0; x < width; x++)
			memcpy(row + (size_t)x * elem,
			       src + gpu_tile_offset(mode, bpe_log2, pitch, x, y), elem);
	}
	return GM_OK;
}

int gpu_tile_tile(unsigned mode, unsigned bpe_log2, uint32_t pitch, void *tiled, size_t tiled_len,
		  uint32_t width, uint32_t height, const void *linear, uint32_t linear_pitch,
		  size_t linear_len)
{
	const struct tile_copy c = { mode, bpe_log2, pitch, tiled, tiled_len, width, height,
				     linear, linear_pitch, linear_len };
	uint8_t *dst = tiled;
	const uint8_t *row;
	size_t elem; /* bytes */

	if (copy_check(&c) != GM_OK)
		return GM_ERR_BAD_ARG;
	elem = (size_t)1 << bpe_log2;
	for (uint32_t y = 0; y < height; y++) {
		row = (const uint8_t *)linear + (size_t)y * linear_pitch;
		for (uint32_t x = 0; x < width; x++)
			memcpy(dst + gpu_tile_offset(mode, bpe_log2, pitch, x, y),
			       row + (size_t)x * elem, elem);
	}
	return GM_OK;
}
