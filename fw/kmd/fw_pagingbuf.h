/* SPDX-License-Identifier: MIT */
/*
 * fw_pagingbuf.h - the miniport's DxgkDdiBuildPagingBuffer: the packets of
 * one paging operation (DXGK_OPERATION_TRANSFER, DXGK_OPERATION_FILL, a
 * rectangle of a surface) appended to a paging buffer.
 *
 * Residency (fw_paging.h) decides what moves where, cuts long moves into
 * pieces and submits the paging buffer; this file only emits.
 */
#ifndef FW_PAGINGBUF_H
#define FW_PAGINGBUF_H

#include <stdbool.h>
#include <stdint.h>

#include "dma_buf.h"

/* One paging operation: COPY @bytes from @src to @dst, FILL them with zero
 * (@fill), or BLT the @w x @h rectangle @bs -> @bd (@bd not NULL); then
 * @pieces written to the progress fence at @progress_addr, with an
 * interrupt (the scheduler's TDR watch wakes to see it). */
struct fw_ddi_paging_op {
	uint64_t dst, src, bytes;
	bool fill;
	const struct dma_surf *bd, *bs;
	uint32_t w, h;
	uint64_t progress_addr, pieces;
};

/* DxgkDdiBuildPagingBuffer: append @op's packets to @b.  GM_OK;
 * GM_ERR_FULL (no room: @b as it was) and the packet emitters' codes. */
int fw_ddi_build_paging_buffer(struct dma_buf *b, const struct fw_ddi_paging_op *op)
	GM_MUST_CHECK;

#endif /* FW_PAGINGBUF_H */
