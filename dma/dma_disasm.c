/* SPDX-License-Identifier: MIT */
/*
 * dma_disasm.c - the disassembler.  All names and layouts come from the
 * generated tables (dma_names.c); it checks packets the way cp_queue does.
 */
#include <inttypes.h>
#include <stdlib.h>

#include "dma_disasm.h"
#include "dma_names.h"
#include "gpu_hw.h"

#define IB_PRINT_MAX 4096u /* dwords of one IB read for printing */

static int disasm_level(FILE *out, const uint32_t *dw, size_t n, uint64_t addr,
			dma_read_fn read, void *ctx, int depth);

/* The cause cp_queue would latch for the header at dw[i], or NONE. */
static uint32_t header_cause(uint32_t hdr, size_t left, const struct gpu_pkt_desc **pd)
{
	uint32_t count = GPU_HDR_COUNT_GET(hdr);

	*pd = gpu_pkt_desc(GPU_HDR_OPCODE_GET(hdr));
	if (GPU_HDR_TYPE_GET(hdr) != GPU_PKT_TYPE3)
		return GPU_CAUSE_BAD_TYPE;
	if (!*pd)
		return GPU_CAUSE_BAD_OPCODE;
	if (count < (*pd)->count_min || count > (*pd)->count_max || count >= left)
		return GPU_CAUSE_BAD_COUNT;
	return GPU_CAUSE_NONE;
}

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

static void follow_ib(FILE *out, const uint32_t *pl, dma_read_fn read, void *ctx, int depth)
{
	uint64_t ib = pl[GPU_PKT_INDIRECT_BUFFER_ADDR_LO] |
		      (uint64_t)pl[GPU_PKT_INDIRECT_BUFFER_ADDR_HI] << 32;
	uint32_t size = GPU_PKT_INDIRECT_BUFFER_SIZE_DW_GET(pl[GPU_PKT_INDIRECT_BUFFER_SIZE]);
	uint32_t *buf;

	if (!read || depth > 0 || size == 0)
		return;
	if (size > IB_PRINT_MAX)
		size = IB_PRINT_MAX;
	buf = malloc(size * sizeof(*buf));
	if (buf && read(ctx, ib, buf, size) == 0)
		disasm_level(out, buf, size, ib, read, ctx, depth + 1);
	else
		fprintf(out, "    (IB at 0x%012" PRIx64 " not readable)\n", ib);
	free(buf);
}

static int disasm_level(FILE *out, const uint32_t *dw, size_t n, uint64_t addr,
			dma_read_fn read, void *ctx, int depth)
{
	int bad = 0;
	size_t i = 0;

	while (i < n) {
		const struct gpu_pkt_desc *pd;
		uint32_t hdr = dw[i], count = GPU_HDR_COUNT_GET(hdr);
		uint32_t cause = header_cause(hdr, n - i, &pd);

		fprintf(out, "%*s0x%012" PRIx64 ": ", 2 + 4 * depth, "", addr + 4 * i);
		if (cause != GPU_CAUSE_NONE) {
			fprintf(out, "%08" PRIx32 " %s !! hardware would halt: %s\n", hdr,
				pd ? pd->name : "?", gpu_cause_name(cause));
			bad++;
			if (cause != GPU_CAUSE_BAD_COUNT && count < n - i) {
				i += count + 1;
				continue;
			}
			break;
		}
		fprintf(out, "%s", pd->name);
		print_fields(out, pd, &dw[i + 1], count);
		fputc('\n', out);
		if (pd->opcode == GPU_OP_INDIRECT_BUFFER) {
			if (depth > 0) {
				fprintf(out, "%*s!! hardware would halt: IB_NESTED\n", 4 + 4 * depth, "");
				bad++;
			}
			follow_ib(out, &dw[i + 1], read, ctx, depth);
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
	return disasm_level(out, dw, n, addr, read, ctx, 0);
}
