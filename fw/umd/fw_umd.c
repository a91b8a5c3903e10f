/* SPDX-License-Identifier: MIT */
/*
 * fw_umd.c - command buffers with allocation and patch-location lists.
 */
#include <string.h>

#include "fw_umd.h"
#include "gpu_hw.h"

void fw_umd_begin(struct fw_umd *u)
{
	dma_buf_init(&u->b, u->dw, FW_UMD_MAX_DW);
	u->nalloc = 0;
	dma_patch_list_init(&u->pl, u->loc, FW_UMD_MAX_LOCS);
}

/* The allocation-list index of @h, added when new. */
static int ref(struct fw_umd *u, uint32_t h, bool write, uint32_t *index)
{
	for (uint32_t i = 0; i < u->nalloc; i++)
		if (u->alloc[i].handle == h) {
			u->alloc[i].write |= write;
			*index = i;
			return GM_OK;
		}
	if (u->nalloc == FW_KMD_MAX_ALLOCS)
		return GM_ERR_FULL;
	u->alloc[u->nalloc] = (struct fw_alloc_ref){ .handle = h, .write = write };
	*index = u->nalloc++;
	return GM_OK;
}

/* One address of the packet starting at dword @pkt: payload field @field
 * gets allocation @h's address plus @off. */
static int patch(struct fw_umd *u, size_t pkt, unsigned field, uint32_t h, uint64_t off, bool write)
{
	uint32_t index;
	int st;

	if (off > UINT32_MAX)
		return GM_ERR_BAD_ARG;
	st = ref(u, h, write, &index);
	if (st)
		return st;
	return dma_patch_list_add(&u->pl, &(struct dma_patch_loc){
					  .alloc_index = index, .driver_id = DMA_PATCH_ADDR64,
					  .alloc_offset = (uint32_t)off,
					  .patch_offset = (uint32_t)(pkt + 1 + field) * 4u,
					  .split_offset = (uint32_t)pkt * 4u });
}

/* Undo a partly added packet. */
static int undo(struct fw_umd *u, size_t len, uint32_t nalloc, uint32_t nloc, int st)
{
	u->b.len = len;
	u->nalloc = nalloc;
	u->pl.len = nloc;
	return st;
}

int fw_umd_copy(struct fw_umd *u, uint32_t dst_h, uint64_t dst_off, uint32_t src_h,
		uint64_t src_off, uint32_t bytes)
{
	size_t pkt = u->b.len;
	uint32_t na = u->nalloc, nl = u->pl.len;
	int st = dma_emit_copy(&u->b, 0, 0, bytes);

	if (!st)
		st = patch(u, pkt, GPU_PKT_COPY_SRC_LO, src_h, src_off, false);
	if (!st)
		st = patch(u, pkt, GPU_PKT_COPY_DST_LO, dst_h, dst_off, true);
	return st ? undo(u, pkt, na, nl, st) : GM_OK;
}

int fw_umd_blt(struct fw_umd *u, uint32_t dst_h, const struct dma_surf *dst, uint32_t src_h,
	       const struct dma_surf *src, uint32_t w, uint32_t h)
{
	struct dma_surf d0, s0;
	size_t pkt = u->b.len;
	uint32_t na = u->nalloc, nl = u->pl.len;
	int st;

	if (!dst || !src)
		return GM_ERR_BAD_ARG;
	d0 = *dst;
	s0 = *src;
	d0.base = s0.base = 0;
	st = dma_emit_blt(&u->b, &d0, &s0, w, h);
	if (!st)
		st = patch(u, pkt, GPU_PKT_BLT_SRC_LO, src_h, src->base, false);
	if (!st)
		st = patch(u, pkt, GPU_PKT_BLT_DST_LO, dst_h, dst->base, true);
	return st ? undo(u, pkt, na, nl, st) : GM_OK;
}

int fw_umd_fill(struct fw_umd *u, uint32_t h, const struct dma_surf *s, uint32_t w, uint32_t rows,
		uint64_t value)
{
	struct dma_surf s0;
	size_t pkt = u->b.len;
	uint32_t na = u->nalloc, nl = u->pl.len;
	int st;

	if (!s)
		return GM_ERR_BAD_ARG;
	s0 = *s;
	s0.base = 0;
	st = dma_emit_fill(&u->b, &s0, w, rows, value);
	if (!st)
		st = patch(u, pkt, GPU_PKT_FILL_DST_LO, h, s->base, true);
	return st ? undo(u, pkt, na, nl, st) : GM_OK;
}

int fw_umd_write(struct fw_umd *u, uint32_t h, uint64_t off, const uint32_t *data, uint32_t n)
{
	size_t pkt = u->b.len;
	uint32_t na = u->nalloc, nl = u->pl.len;
	int st = dma_emit_write_data(&u->b, 0, data, n);

	if (!st)
		st = patch(u, pkt, GPU_PKT_WRITE_DATA_ADDR_LO, h, off, true);
	return st ? undo(u, pkt, na, nl, st) : GM_OK;
}

int fw_umd_wait_eq(struct fw_umd *u, uint32_t h, uint64_t off, uint32_t value)
{
	size_t pkt = u->b.len;
	uint32_t na = u->nalloc, nl = u->pl.len;
	int st = dma_emit_wait_mem(&u->b, 0, value, UINT32_MAX, GPU_FUNC_EQ, false, 16);

	if (!st)
		st = patch(u, pkt, GPU_PKT_WAIT_MEM_ADDR_LO, h, off, false);
	return st ? undo(u, pkt, na, nl, st) : GM_OK;
}

int fw_umd_raw(struct fw_umd *u, const uint32_t *dw, uint32_t n)
{
	return dma_emit_raw(&u->b, dw, n);
}

void fw_umd_cmdbuf(const struct fw_umd *u, struct fw_cmdbuf *cb)
{
	*cb = (struct fw_cmdbuf){ .dw = u->dw, .ndw = (uint32_t)u->b.len, .allocs = u->alloc,
				  .nalloc = u->nalloc, .locs = u->pl.e, .nloc = u->pl.len };
}
