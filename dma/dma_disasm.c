/* SPDX-License-Identifier: MIT */
/*
 * dma_disasm.c - the disassembler.  All names and layouts come from the
 * generated tables (gpu_names.c); gpu_pkt_check() says what a queue would
 * refuse.  IB_MAX_DW is taken at its reset value and the queue as
 * privileged (the validator, not the disassembler, polices privilege).
 */
#include <inttypes.h>
#include <stdlib.h>

#include "dma_disasm.h"
#include "gpu_hw.h"
#include "gpu_names.h"
#include "gpu_pkt.h"

#define IB_PRINT_MAX 4096u /* dwords of one IB read for printing */

static int disasm_level(FILE *out, const uint32_t *dw, size_t n, uint64_t addr,
			dma_read_fn read, void *ctx, int depth, bool truncated);

static void print_fields(FILE *out, const struct gpu_pkt_desc *pd, const uint32_t *pl,
			 uint32_t count)
{
	for (uint32_t i = 0; i < count && i < 16; i++) {
		const char *name = pd->ndw ? pd->dw_names[i < pd->ndw ? i : pd->ndw - 1] : "DW";

		fprintf(out, " %s=0x%" PRIx32, name, pl[i]);
	}
	if (count > 16)
		fprintf(out, " ...(%" PRIu32 " dwords)", count);
}

/* Print the IB's body one level deeper; returns the packets in it the
 * hardware would refuse. */
static int follow_ib(FILE *out, const uint32_t *pl, dma_read_fn read, void *ctx, int depth)
{
	uint64_t ib = pl[GPU_PKT_INDIRECT_BUFFER_ADDR_LO] |
		      (uint64_t)pl[GPU_PKT_INDIRECT_BUFFER_ADDR_HI] << 32;
	uint32_t size = GPU_PKT_INDIRECT_BUFFER_SIZE_DW_GET(pl[GPU_PKT_INDIRECT_BUFFER_SIZE]);
	bool truncated = size > IB_PRINT_MAX;
	uint32_t *buf;
	int bad = 0;

	if (!read || depth > 0 || size == 0)
		return 0;
	if (truncated)
		size = IB_PRINT_MAX;
	buf = malloc(size * sizeof(*buf));
	if (buf && read(ctx, ib, buf, size) == 0)
		bad = disasm_level(out, buf, size, ib, read, ctx, depth + 1, truncated);
	else
		fprintf(out, "    (IB at 0x%012" PRIx64 " not readable)\n", ib);
	free(buf);
	return bad;
}

/* Decode dw[0..n) at @addr; @truncated: the IB goes on past dw[n-1]. */
static int disasm_level(FILE *out, const uint32_t *dw, size_t n, uint64_t addr,
			dma_read_fn read, void *ctx, int depth, bool truncated)
{
	int bad = 0;
	size_t i = 0;

	while (i < n) {
		uint32_t hdr = dw[i], count = GPU_HDR_COUNT_GET(hdr);
		const struct gpu_pkt_desc *pd = gpu_pkt_desc(GPU_HDR_OPCODE_GET(hdr));
		uint32_t cause = gpu_pkt_check(&dw[i], n - i, depth > 0, true, GPU_IB_MAX_DW_RESET);

		fprintf(out, "%*s0x%012" PRIx64 ": ", 2 + 4 * depth, "", addr + 4 * i);
		if (cause == GPU_CAUSE_BAD_COUNT && truncated && count < GPU_PKT_MAX_COUNT &&
		    pd && count >= pd->count_min && count <= pd->count_max) {
			fprintf(out, "%s ...(printing stops at %u dwords)\n", pd->name, IB_PRINT_MAX);
			break;
		}
		if (cause == GPU_CAUSE_BAD_TYPE || cause == GPU_CAUSE_BAD_OPCODE ||
		    cause == GPU_CAUSE_BAD_COUNT) {
			/* The header itself is refused: show it raw. */
			fprintf(out, "%08" PRIx32 " %s !! hardware would halt: %s\n", hdr,
				pd ? pd->name : "?", gpu_cause_name(cause));
			bad++;
			if (cause == GPU_CAUSE_BAD_COUNT || count >= n - i)
				break;
			i += count + 1;
			continue;
		}
		fprintf(out, "%s", pd->name);
		print_fields(out, pd, &dw[i + 1], count);
		fputc('\n', out);
		if (cause != GPU_CAUSE_NONE) {
			/* A field is refused: the packet decodes, the hardware halts on it. */
			fprintf(out, "%*s!! hardware would halt: %s\n", 4 + 4 * depth, "",
				gpu_cause_name(cause));
			bad++;
		} else if (pd->opcode == GPU_OP_INDIRECT_BUFFER) {
			bad += follow_ib(out, &dw[i + 1], read, ctx, depth);
		}
		i += count + 1;
	}
	return bad;
}

int dma_disasm(FILE *out, const uint32_t *dw, size_t n, uint64_t addr, dma_read_fn read,
	       void *ctx)
{
	if (!out || (n && !dw))
		return -1;
	return disasm_level(out, dw, n, addr, read, ctx, 0, false);
}
