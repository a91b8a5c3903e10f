/* SPDX-License-Identifier: MIT */
/*
 * dma_validate.h - the command-buffer validator (the DxgkDdiRender role).
 *
 * Before a user-mode command buffer is copied into a DMA buffer and reaches
 * a ring, the kernel side walks it packet by packet and refuses what the
 * hardware would refuse from a user queue, plus what the kernel does not
 * permit: privileged packets, bad counts, packets running past the end,
 * reserved fields, and indirect buffers outside the ranges the user may run.
 * The per-packet verdict is gpu_pkt_check()'s (the C mirror of a queue, rtl/cp)
 * with the queue unprivileged; the validator adds the whole-buffer and IB
 * range rules.  Isolation of ordinary addresses (WRITE_DATA, COPY, ...) is
 * the MMU's job through the queue's VMID, not this walk's.
 */
#ifndef DMA_VALIDATE_H
#define DMA_VALIDATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gm_status.h"

/* A GPU address range [start, end), bytes. */
struct dma_va_range {
	uint64_t start;
	uint64_t end;
};

struct dma_validate_limits {
	uint32_t ib_max_dw; /* the queue's IB_MAX_DW; 0 = its reset value GPU_IB_MAX_DW_RESET */
	/*
	 * How the buffer will run.  false (the usual case): it is submitted as
	 * an IB from the ring, so an INDIRECT_BUFFER inside it is refused
	 * (IB_NESTED, one IB level in hardware) and the buffer itself must be a
	 * legal IB (1..ib_max_dw dwords).  true: its packets are copied into the
	 * ring itself, where an INDIRECT_BUFFER is legal if ib_ranges permit it.
	 */
	bool in_ring;
	/*
	 * in_ring only: an IB must lie wholly inside one of these ranges (each
	 * start < end <= 2^GPU_PA_BITS).  None (n_ib_ranges 0): every IB is
	 * refused with DMA_VAL_IB_FORBIDDEN.
	 */
	const struct dma_va_range *ib_ranges;
	size_t n_ib_ranges;
};

/*
 * Why a buffer was refused (dma_validate_report.cause): a GPU_CAUSE_* value
 * of gpu_hw.h where the hardware has one (the cause the queue would latch),
 * else one of these validator-only values, which no 8-bit hardware cause
 * can collide with.
 */
enum dma_val_cause {
	DMA_VAL_IB_FORBIDDEN = 0x100, /* an INDIRECT_BUFFER where the limits permit none */
	DMA_VAL_IB_OUTSIDE = 0x101,   /* an INDIRECT_BUFFER not wholly inside a permitted range */
	DMA_VAL_BAD_CALL = 0x1ff,     /* the call itself: NULL pointer or malformed limits */
};

/* The verdict on one buffer. */
struct dma_validate_report {
	uint32_t cause;     /* GPU_CAUSE_NONE (0) when accepted, else an enum gpu_cause
			       or enum dma_val_cause value */
	size_t offset_dw;   /* refused packet: dword offset of its header in the buffer */
	uint32_t header;    /* refused packet: its header dword */
	uint32_t packets;   /* packets accepted (before the refused one) */
	uint32_t ibs;       /* INDIRECT_BUFFER packets among them */
};

/*
 * Walk @dw[0..@ndw) packet by packet under @lim.  GM_OK: every packet is
 * legal from an unprivileged user queue and permitted by @lim.  Otherwise
 * GM_ERR_BAD_ARG and, when @rep is given, the first refused packet's offset,
 * header and cause.  A buffer refused as a whole (as an IB: empty, or
 * longer than ib_max_dw; the hardware's cause GPU_CAUSE_IB_RANGE) reports
 * offset 0 and header 0; so does a bad call (@dw NULL with @ndw != 0, @lim
 * NULL, a range with start >= end or past 2^GPU_PA_BITS, ranges NULL with a
 * count), with cause DMA_VAL_BAD_CALL.  @rep may be NULL; it is the only
 * thing written.  Reads only the dwords of @dw[0..@ndw).
 */
int dma_validate_cmdbuf(const uint32_t *dw, size_t ndw, const struct dma_validate_limits *lim,
			struct dma_validate_report *rep) GM_MUST_CHECK;

/* A static name for @cause (GPU_CAUSE_* names from the generated table,
 * e.g. "PRIV", then "IB_FORBIDDEN", "IB_OUTSIDE", "BAD_CALL"); "?" if
 * unknown. */
const char *dma_val_cause_name(uint32_t cause);

#endif /* DMA_VALIDATE_H */
