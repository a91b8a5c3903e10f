/* SPDX-License-Identifier: MIT */
/*
 * dma_buf.h - DMA buffers and the typed packet emitters that fill them.
 *
 * A dma_buf is a host array of dwords with a capacity.  Each emitter writes
 * one whole packet or nothing: when the packet does not fit it returns
 * GM_ERR_FULL and the buffer is unchanged, so the caller can submit what it
 * has and continue in a new buffer.  Field values are placed with the
 * generated macros of gpu_hw.h; no opcode or bit position is typed here.
 */
#ifndef DMA_BUF_H
#define DMA_BUF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gm_status.h"
#include "gpu_hw.h"

struct dma_buf {
	uint32_t *dw;   /* storage, cap dwords */
	size_t cap;     /* dwords */
	size_t len;     /* dwords written */
};

/* Wrap caller storage @dw of @cap dwords as an empty buffer. */
void dma_buf_init(struct dma_buf *b, uint32_t *dw, size_t cap);

/* Dwords still free. */
static inline size_t dma_buf_room(const struct dma_buf *b)
{
	return b->cap - b->len;
}

/* Append @n raw dwords (already-formed packets, or deliberate garbage for
 * negative tests).  GM_ERR_FULL when they do not fit; nothing written. */
int dma_emit_raw(struct dma_buf *b, const uint32_t *dw, size_t n) GM_MUST_CHECK;

/* NOP with @count payload dwords of padding (zeros).  GM_ERR_BAD_ARG if
 * count > GPU_PKT_NOP_COUNT_MAX. */
int dma_emit_nop(struct dma_buf *b, uint32_t count) GM_MUST_CHECK;

/* WRITE_DATA of @n dwords to @addr (4-aligned, 48-bit).  GM_ERR_BAD_ARG for
 * n == 0, too many dwords for one packet, a bad address, or dwords that would
 * run past 2^48 (the hardware refuses those with BAD_FIELD). */
int dma_emit_write_data(struct dma_buf *b, uint64_t addr, const uint32_t *data, uint32_t n)
	GM_MUST_CHECK;

/* INDIRECT_BUFFER of @size_dw dwords at @addr (4-aligned), run unprivileged
 * in the queue's Q_VMID.  GM_ERR_BAD_ARG for size 0, size past the SIZE_DW
 * field, a bad address, or an IB running past the end of the address space. */
int dma_emit_indirect_buffer(struct dma_buf *b, uint64_t addr, uint32_t size_dw) GM_MUST_CHECK;

/* As dma_emit_indirect_buffer(), the IB running in VMID @vmid (0: the
 * queue's Q_VMID) and, with @priv, allowed privileged packets; both only
 * from a privileged ring (else the queue halts with PRIV).  GM_ERR_BAD_ARG
 * also for @vmid >= GPU_NUM_VMIDS. */
int dma_emit_indirect_buffer_ctx(struct dma_buf *b, uint64_t addr, uint32_t size_dw, uint32_t vmid,
				 bool priv) GM_MUST_CHECK;

/* RELEASE_FENCE: write @value (64-bit if @is64, else its low half) to @addr
 * after all earlier work, raising the fence interrupt if @irq. */
int dma_emit_release_fence(struct dma_buf *b, uint64_t addr, uint64_t value, bool is64, bool irq)
	GM_MUST_CHECK;

/* WAIT_MEM: poll until ((mem & mask) func ref), @poll_cycles apart. */
int dma_emit_wait_mem(struct dma_buf *b, uint64_t addr, uint64_t ref, uint64_t mask,
		      enum gpu_wait_func func, bool is64, uint16_t poll_cycles) GM_MUST_CHECK;

/* TIMESTAMP: write the 64-bit cycle counter to @addr (8-aligned). */
int dma_emit_timestamp(struct dma_buf *b, uint64_t addr) GM_MUST_CHECK;

/*
 * PTE_WRITE (privileged): @num 64-bit entries at @dst (8-aligned), entry i =
 * @flags | the PTE ADDR bits of (@base + i * @stride).  GM_ERR_BAD_ARG for
 * num 0 or past the NUM field, a bad @dst, entries that would run past 2^48
 * (the hardware refuses those with BAD_FIELD), or @flags with ADDR bits set.
 */
int dma_emit_pte_write(struct dma_buf *b, uint64_t dst, uint64_t flags, uint64_t base,
		       uint32_t stride, uint32_t num) GM_MUST_CHECK;

/*
 * INVALIDATE_TLB (privileged): drop the TLB entries of @vmid (every VMID if
 * @all) whose 64 KiB block (VA >> 16) lies in [@start, @end].  GM_ERR_BAD_ARG
 * for vmid >= GPU_NUM_VMIDS or start > end.
 */
int dma_emit_invalidate_tlb(struct dma_buf *b, uint32_t vmid, bool all, uint32_t start,
			    uint32_t end) GM_MUST_CHECK;

/* A surface operand of BLT and FILL: the layout and the rectangle's origin. */
struct dma_surf {
	uint64_t base;     /* surface base (tiled: tile-aligned) */
	uint32_t pitch;    /* bytes per row */
	uint8_t mode;      /* enum gpu_tile_mode */
	uint8_t bpe_log2;  /* log2 bytes per element, 0..4 */
	uint16_t x, y;     /* origin: element column, row */
};

/*
 * COPY: @bytes bytes from @src to @dst, any alignment, on the copy engine
 * (the ranges must not overlap).  GM_ERR_BAD_ARG when either range passes
 * the 48-bit address space.
 */
int dma_emit_copy(struct dma_buf *b, uint64_t dst, uint64_t src, uint32_t bytes) GM_MUST_CHECK;

/*
 * BLT: the @w x @h element rectangle at @src's origin to @dst's origin.
 * GM_ERR_BAD_ARG for a layout gpu_tile_check() refuses, different element
 * sizes, a tiled base off its tile, @h >= 2^16, w << bpe >= 2^32, or a
 * rectangle that leaves the pitch (tiled, or more than one row): what the
 * hardware would reject.
 */
int dma_emit_blt(struct dma_buf *b, const struct dma_surf *dst, const struct dma_surf *src,
		 uint32_t w, uint32_t h) GM_MUST_CHECK;

/* FILL: the @w x @h rectangle at @dst's origin; byte i of each row gets byte
 * (i mod 8) of @value.  GM_ERR_BAD_ARG as dma_emit_blt(). */
int dma_emit_fill(struct dma_buf *b, const struct dma_surf *dst, uint32_t w, uint32_t h,
		  uint64_t value) GM_MUST_CHECK;

#endif /* DMA_BUF_H */
