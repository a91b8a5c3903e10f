/* SPDX-License-Identifier: MIT */
/*
 * fw_pagingbuf.c - DxgkDdiBuildPagingBuffer (see fw_pagingbuf.h).
 */
#include "fw_pagingbuf.h"
#include "gpu_hw.h"

#define FILL_ROW_BYTES 0x10000u /* FILL of a byte range: rows of 64 KiB */

/* FILL zero over a byte range: 64 KiB rows, then one short row. */
static int emit_zero(struct dma_buf *b, uint64_t dst, uint64_t bytes)
{
	struct dma_surf s = { .base = dst, .pitch = FILL_ROW_BYTES, .mode = GPU_TILE_LINEAR };
	uint64_t rest = bytes % FILL_ROW_BYTES;
	int st = GM_OK;

	if (bytes >= FILL_ROW_BYTES)
		st = dma_emit_fill(b, &s, FILL_ROW_BYTES, (uint32_t)(bytes / FILL_ROW_BYTES), 0);
	s.base += bytes - rest;
	if (!st && rest)
		st = dma_emit_fill(b, &s, (uint32_t)rest, 1, 0);
	return st;
}

int fw_ddi_build_paging_buffer(struct dma_buf *b, const struct fw_ddi_paging_op *p)
{
	size_t len0 = b->len;
	int st = p->bd     ? dma_emit_blt(b, p->bd, p->bs, p->w, p->h)
		 : p->fill ? emit_zero(b, p->dst, p->bytes)
			   : dma_emit_copy(b, p->dst, p->src, (uint32_t)p->bytes);

	if (!st)
		st = dma_emit_release_fence(b, p->progress_addr, p->pieces, true, true);
	if (st)
		b->len = len0;
	return st;
}
