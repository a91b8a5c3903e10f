/* SPDX-License-Identifier: MIT */
/*
 * dma_validate.c - the command-buffer validator.  Per-packet legality is
 * gpu_pkt_check()'s alone (it knows every opcode regspec knows); this file
 * adds only what the kernel decides: the queue is never privileged, how the
 * buffer will run (as an IB or in the ring), and where IBs may point.
 */
#include "dma_validate.h"
#include "gpu_hw.h"
#include "gpu_names.h"
#include "gpu_pkt.h"

#define ADDR_LIMIT (1ull << GPU_PA_BITS) /* first address past the address space */

static bool limits_ok(const struct dma_validate_limits *lim)
{
	if (!lim || (lim->n_ib_ranges && !lim->ib_ranges))
		return false;
	for (size_t i = 0; i < lim->n_ib_ranges; i++) {
		const struct dma_va_range *r = &lim->ib_ranges[i];

		if (r->start >= r->end || r->end > ADDR_LIMIT)
			return false;
	}
	return true;
}

/* The IB packet with payload @pl (already legal for gpu_pkt_check) against
 * the permitted ranges. */
static uint32_t check_ib_range(const uint32_t *pl, const struct dma_validate_limits *lim)
{
	uint64_t start = pl[GPU_PKT_INDIRECT_BUFFER_ADDR_LO] |
			 (uint64_t)pl[GPU_PKT_INDIRECT_BUFFER_ADDR_HI] << 32;
	uint64_t end = start + 4ull * GPU_PKT_INDIRECT_BUFFER_SIZE_DW_GET(
					      pl[GPU_PKT_INDIRECT_BUFFER_SIZE]);

	if (lim->n_ib_ranges == 0)
		return DMA_VAL_IB_FORBIDDEN;
	for (size_t i = 0; i < lim->n_ib_ranges; i++)
		if (start >= lim->ib_ranges[i].start && end <= lim->ib_ranges[i].end)
			return GPU_CAUSE_NONE;
	return DMA_VAL_IB_OUTSIDE;
}

static int refuse(struct dma_validate_report *rep, uint32_t cause, size_t at, uint32_t header)
{
	if (rep) {
		rep->cause = cause;
		rep->offset_dw = at;
		rep->header = header;
	}
	return GM_ERR_BAD_ARG;
}

int dma_validate_cmdbuf(const uint32_t *dw, size_t ndw, const struct dma_validate_limits *lim,
			struct dma_validate_report *rep)
{
	struct dma_validate_report scratch;
	uint32_t ib_max;
	size_t i = 0;

	if (!rep)
		rep = &scratch;
	*rep = (struct dma_validate_report){ .cause = GPU_CAUSE_NONE };
	if ((ndw && !dw) || !limits_ok(lim))
		return refuse(rep, DMA_VAL_BAD_CALL, 0, 0);
	ib_max = lim->ib_max_dw ? lim->ib_max_dw : (uint32_t)GPU_IB_MAX_DW_RESET;
	if (!lim->in_ring && (ndw == 0 || ndw > ib_max))
		return refuse(rep, GPU_CAUSE_IB_RANGE, 0, 0);
	while (i < ndw) {
		uint32_t hdr = dw[i];
		uint32_t cause = gpu_pkt_check(&dw[i], ndw - i, !lim->in_ring, false, ib_max);
		bool is_ib = GPU_HDR_OPCODE_GET(hdr) == GPU_OP_INDIRECT_BUFFER;

		if (cause == GPU_CAUSE_NONE && is_ib)
			cause = check_ib_range(&dw[i + 1], lim);
		if (cause != GPU_CAUSE_NONE)
			return refuse(rep, cause, i, hdr);
		rep->packets++;
		rep->ibs += is_ib;
		i += (size_t)GPU_HDR_COUNT_GET(hdr) + 1; /* gpu_pkt_check: COUNT < dwords left */
	}
	return GM_OK;
}

const char *dma_val_cause_name(uint32_t cause)
{
	const char *s;

	switch (cause) {
	case DMA_VAL_IB_FORBIDDEN:
		return "IB_FORBIDDEN";
	case DMA_VAL_IB_OUTSIDE:
		return "IB_OUTSIDE";
	case DMA_VAL_BAD_CALL:
		return "BAD_CALL";
	default:
		s = gpu_cause_name(cause);
		return s ? s : "?";
	}
}
