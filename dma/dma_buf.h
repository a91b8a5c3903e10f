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
int dma_emit_raw(struct dma_buf *b, const uint32_t *dw, size_t n);

/* NOP with @count payload dwords of padding (zeros).  GM_ERR_BAD_ARG if
 * count > GPU_PKT_NOP_COUNT_MAX. */
int dma_emit_nop(struct dma_buf *b, uint32_t count);

/* WRITE_DATA of @n dwords to @addr (4-aligned, 48-bit).  GM_ERR_BAD_ARG for
 * n == 0, too many dwords for one packet, or a bad address. */
int dma_emit_write_data(struct dma_buf *b, uint64_t addr, const uint32_t *data, uint32_t n);

/* INDIRECT_BUFFER of @size_dw dwords at @addr (4-aligned).  GM_ERR_BAD_ARG
 * for size 0, size past the SIZE_DW field, a bad address, or an IB running
 * past the end of the address space. */
int dma_emit_indirect_buffer(struct dma_buf *b, uint64_t addr, uint32_t size_dw);

/* RELEASE_FENCE: write @value (64-bit if @is64, else its low half) to @addr
 * after all earlier work, raising the fence interrupt if @irq. */
int dma_emit_release_fence(struct dma_buf *b, uint64_t addr, uint64_t value, bool is64, bool irq);

/* WAIT_MEM: poll until ((mem & mask) func ref), @poll_cycles apart. */
int dma_emit_wait_mem(struct dma_buf *b, uint64_t addr, uint64_t ref, uint64_t mask,
		      enum gpu_wait_func func, bool is64, uint16_t poll_cycles);

/* TIMESTAMP: write the 64-bit cycle counter to @addr (8-aligned). */
int dma_emit_timestamp(struct dma_buf *b, uint64_t addr);

/*
 * PTE_WRITE (privileged): @num 64-bit entries at @dst (8-aligned), entry i =
 * @flags | the PTE ADDR bits of (@base + i * @stride).  GM_ERR_BAD_ARG for
 * num 0 or past the NUM field, a bad @dst, or @flags with ADDR bits set.
 */
int dma_emit_pte_write(struct dma_buf *b, uint64_t dst, uint64_t flags, uint64_t base,
		       uint32_t stride, uint32_t num);

/*
 * INVALIDATE_TLB (privileged): drop the TLB entries of @vmid (every VMID if
 * @all) whose 64 KiB block (VA >> 16) lies in [@start, @end].  GM_ERR_BAD_ARG
 * for vmid >= GPU_NUM_VMIDS or start > end.
 */
int dma_emit_invalidate_tlb(struct dma_buf *b, uint32_t vmid, bool all, uint32_t start,
			    uint32_t end);

#endif /* DMA_BUF_H */
