/* SPDX-License-Identifier: MIT */
/*
 * dma_disasm.h - decode DMA buffers and rings into readable packets, like
 * freedreno's cffdump or AMD's umr, following indirect buffers.
 */
#ifndef DMA_DISASM_H
#define DMA_DISASM_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Read @n dwords at GPU address @addr into @dw; 0 on success. */
typedef int (*dma_read_fn)(void *ctx, uint64_t addr, uint32_t *dw, size_t n);

/*
 * Print one line per packet of @dw[0..n) to @out; @addr is the GPU address
 * of dw[0].  With @read, the body of each INDIRECT_BUFFER is read and
 * printed indented below it (one level, as the hardware allows).  A packet
 * the hardware would refuse is printed with the cause it would latch, and
 * decoding goes on after it where its COUNT allows.
 * Returns the number of packets the hardware would refuse (0 = clean).
 */
int dma_disasm(FILE *out, const uint32_t *dw, size_t n, uint64_t addr, dma_read_fn read,
	       void *ctx);

#endif /* DMA_DISASM_H */
