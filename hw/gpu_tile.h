/* SPDX-License-Identifier: MIT */
/*
 * gpu_tile.h - the reference swizzle: where element (x, y) of a surface
 * lives for every tile mode (enum gpu_tile_mode), and whole-surface copies
 * between a tiled surface and a linear host image.
 *
 * This is the oracle of the RTL swizzle unit (rtl/apt/apt_swz.sv, geometry
 * generated into rtl/gpu_defs.svh): both implement exactly these definitions.
 *
 *   LINEAR: offset = y * pitch + (x << bpe_log2)
 *   tiled:  xb = x << bpe_log2 (the byte column); a tile is TW bytes by TH
 *           rows (TB = TW * TH bytes); tiles are row-major, so tile
 *           (xb / TW, y / TH) starts at ((y / TH) * (pitch / TW) + xb / TW) * TB,
 *           and inside it the byte offset is
 *           pdep(xb mod TW, XMASK) | pdep(y mod TH, YMASK).
 *
 *   mode    bpe   TW B  TH   XMASK   YMASK   tile in elements
 *   SS64K   1     256   256  0xaa0f  0x55f0  256 x 256
 *   SS64K   2     512   128  0xaa8f  0x5570  256 x 128
 *   SS64K   4     512   128  0xaa8f  0x5570  128 x 128
 *   SS64K   8    1024    64  0xaacf  0x5530  128 x 64
 *   SS64K  16    1024    64  0xaacf  0x5530   64 x 64
 *   Y      any    128    32  0x0e0f  0x01f0  (16 B columns of 32 rows)
 *   X      any    512     8  0x01ff  0x0e00
 *
 * SS64K is the D3D12 64KB_STANDARD_SWIZZLE, as Intel's gmmlib defines it
 * (CpuSwizzleBlt.c, INTEL_TILE_YS_8..128: Tile-Ys is that swizzle) and, at
 * 32 bpp, Microsoft's D3D11_TEXTURE_LAYOUT page; Y and X are gmmlib's
 * INTEL_TILE_Y and INTEL_TILE_X.  The masks live in regspec/gpusim.json
 * ("tiles"), generated into hw/gpu_names.c and the RTL.
 *
 * Every tiled mask keeps byte bits 3:0 in place, so an element (at most
 * 16 bytes) and any 16 bytes of a row at a 16-byte boundary are contiguous.
 *
 * Units: bpe_log2 is log2 of the bytes per element (0..4: 1..16 bytes);
 * pitch and linear_pitch are bytes per row; x and width are in elements;
 * y and height in rows; offsets and lengths in bytes.
 */
#ifndef GPU_TILE_H
#define GPU_TILE_H

#include <stddef.h>
#include <stdint.h>

#include "gm_status.h"
#include "gpu_hw.h"

/*
 * The geometry of one (mode, bpe_log2).  For LINEAR the "tile" is one
 * element: tile_w_bytes = tile_bytes = the element size, tile_h_rows = 1,
 * xmask = element size - 1, ymask = 0.  With that the tiled formula above
 * gives the LINEAR offset for every legal pitch, and the legal-pitch rule
 * (a nonzero multiple of tile_w_bytes) is the same for every mode.
 */
struct gpu_tile_info {
	uint32_t tile_w_bytes; /* TW, bytes; a power of two */
	uint32_t tile_h_rows;  /* TH, rows; a power of two */
	uint32_t tile_bytes;   /* TB = TW * TH */
	uint32_t xmask;        /* in-tile offset bits that take byte-column bits */
	uint32_t ymask;        /* in-tile offset bits that take row bits */
};

/*
 * Deposit the low bits of @val, lowest first, into the set bits of @mask,
 * lowest first (x86 PDEP); bits of @val past popcount(@mask) are dropped.
 * Pure; defined for every argument.
 */
uint64_t gpu_tile_pdep(uint64_t val, uint64_t mask);

/*
 * Fill *@out with the geometry of @mode at @bpe_log2.
 * GM_OK, or GM_ERR_BAD_ARG (@out NULL, unknown mode, bpe_log2 > 4) with
 * *@out unchanged.
 */
int gpu_tile_info(unsigned mode, unsigned bpe_log2, struct gpu_tile_info *out);

/*
 * Whether the hardware can address a surface of this layout (the RTL's
 * tile_fmt_ok).  GM_OK, or GM_ERR_BAD_ARG for an unknown mode,
 * bpe_log2 > 4, or a pitch that is not a nonzero multiple of the element
 * size (LINEAR) or of the tile width in bytes (tiled modes).
 */
int gpu_tile_check(unsigned mode, unsigned bpe_log2, uint32_t pitch);

/*
 * Byte offset of element (@x, @y) from the surface base.  The caller has
 * passed the layout through gpu_tile_check().  Pure.  The result is exact
 * whenever y * pitch < 2^63, which holds for every surface the hardware
 * can describe (pitch < 2^20, y < 2^16).
 * Outside the contract there is still no undefined behaviour: an unknown
 * mode or bpe_log2 > 4 gives UINT64_MAX; an illegal pitch gives what the
 * RTL computes (pitch rounded down to whole tiles).
 */
uint64_t gpu_tile_offset(unsigned mode, unsigned bpe_log2, uint32_t pitch, uint32_t x, uint32_t y);

/*
 * Store in *@bytes the bytes a surface of @height rows occupies:
 * height * pitch for LINEAR; the height rounded up to whole tile rows,
 * times pitch, for tiled modes.  Every offset of an element inside the
 * pitch and above row @height lies below it.
 * GM_OK, or GM_ERR_BAD_ARG (a layout gpu_tile_check() refuses, @bytes
 * NULL) with *@bytes unchanged.
 */
int gpu_tile_surface_bytes(unsigned mode, unsigned bpe_log2, uint32_t pitch, uint32_t height,
			   uint64_t *bytes);

/*
 * Copy the @width x @height elements at the origin of the tiled surface
 * @tiled (@tiled_len bytes, layout @mode/@bpe_log2/@pitch) into the linear
 * image @linear (@linear_pitch bytes per row, @linear_len bytes).  Bytes of
 * @linear outside the image (row padding) are not written.
 * GM_OK, or GM_ERR_BAD_ARG with nothing written when: a buffer is NULL;
 * the layout fails gpu_tile_check(); width << bpe_log2 exceeds @pitch or
 * @linear_pitch; @tiled_len is below gpu_tile_surface_bytes(height);
 * @linear_len is below (height - 1) * linear_pitch + (width << bpe_log2)
 * (0 for an empty image); or the surface's bytes [tiled, tiled +
 * gpu_tile_surface_bytes(height)) and the image's bytes [linear, linear +
 * that length) overlap.  An empty image (width or height 0) is legal and
 * copies nothing.
 */
int gpu_tile_untile(unsigned mode, unsigned bpe_log2, uint32_t pitch, const void *tiled,
		    size_t tiled_len, uint32_t width, uint32_t height, void *linear,
		    uint32_t linear_pitch, size_t linear_len);

/*
 * The reverse of gpu_tile_untile(): copy the linear image @linear into the
 * @width x @height elements at the origin of the tiled surface @tiled.
 * Bytes of @tiled that hold no element of the image are not written.
 * Same arguments, rules and errors as gpu_tile_untile(); on error nothing
 * is written.
 */
int gpu_tile_tile(unsigned mode, unsigned bpe_log2, uint32_t pitch, void *tiled, size_t tiled_len,
		  uint32_t width, uint32_t height, const void *linear, uint32_t linear_pitch,
		  size_t linear_len);

#endif /* GPU_TILE_H */
