/* SPDX-License-Identifier: MIT */
/*
 * fw_umd.h - the user-mode driver's half of a submission: a command buffer
 * of packets whose addresses are placeholders, with its allocation list and
 * patch-location list (what the D3D runtime hands to DxgkDdiRender).
 *
 * Addresses are named as (allocation handle, byte offset); the packet gets
 * 0 in the address field and a DMA_PATCH_ADDR64 entry records where the
 * kernel must write the real address (AllocationOffset = the byte offset,
 * PatchOffset = the field, SplitOffset = the packet's first byte).  Each
 * call adds one whole packet with its entries, or nothing.
 */
#ifndef FW_UMD_H
#define FW_UMD_H

#include "dma_buf.h"
#include "fw_kmd_types.h"

#define FW_UMD_MAX_DW 16384u   /* a command buffer may span several DMA buffers */
#define FW_UMD_MAX_LOCS 2048u

struct fw_umd {
	uint32_t dw[FW_UMD_MAX_DW];
	struct dma_buf b;
	struct fw_alloc_ref alloc[FW_KMD_MAX_ALLOCS];
	uint32_t nalloc;
	struct dma_patch_loc loc[FW_UMD_MAX_LOCS];
	struct dma_patch_list pl;  /* the patch-location list, over loc[] */
};

/* Start an empty command buffer. */
void fw_umd_begin(struct fw_umd *u);

/*
 * Packets.  Surfaces are struct dma_surf whose `base` is the byte offset of
 * the surface in allocation @h (0 for a surface that is the whole
 * allocation).  GM_OK; GM_ERR_FULL (the buffer, its allocation list or its
 * patch list is full: nothing added); GM_ERR_BAD_ARG (what the emitter
 * refuses).
 */
int fw_umd_copy(struct fw_umd *u, uint32_t dst_h, uint64_t dst_off, uint32_t src_h,
		uint64_t src_off, uint32_t bytes) GM_MUST_CHECK;
int fw_umd_blt(struct fw_umd *u, uint32_t dst_h, const struct dma_surf *dst, uint32_t src_h,
	       const struct dma_surf *src, uint32_t w, uint32_t h) GM_MUST_CHECK;
int fw_umd_fill(struct fw_umd *u, uint32_t h, const struct dma_surf *s, uint32_t w, uint32_t rows,
		uint64_t value) GM_MUST_CHECK;
/* WRITE_DATA of @n dwords at byte @off of allocation @h. */
int fw_umd_write(struct fw_umd *u, uint32_t h, uint64_t off, const uint32_t *data, uint32_t n)
	GM_MUST_CHECK;
/* WAIT_MEM until the dword at byte @off of allocation @h equals @value. */
int fw_umd_wait_eq(struct fw_umd *u, uint32_t h, uint64_t off, uint32_t value) GM_MUST_CHECK;
/* Any packets already formed (no address to patch). */
int fw_umd_raw(struct fw_umd *u, const uint32_t *dw, uint32_t n) GM_MUST_CHECK;

/* The command buffer as Render takes it (pointers into @u). */
void fw_umd_cmdbuf(const struct fw_umd *u, struct fw_cmdbuf *cb);

#endif /* FW_UMD_H */
