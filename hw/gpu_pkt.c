/* SPDX-License-Identifier: MIT */
/*
 * gpu_pkt.c - packet rules; keep in step with rtl/cp: cp_hdr_check.sv
 * (StHeader), cp_exec.sv (StPayload, for WRITE_DATA) and cp_pkt_check.sv /
 * cp_copy_cmd.sv (StExec, for the others).  The table-driven rules (COUNT
 * range, privileged, reserved payload bits, tile geometry) are generated
 * from regspec/gpusim.json into hw/gpu_names.c, the same source as the
 * RTL's pkt_* and tile_* functions; what remains here is arithmetic
 * (alignment, ranges, rectangles).
 */
#include "gm_status.h"
#include "gpu_hw.h"
#include "gpu_names.h"
#include "gpu_pkt.h"
#include "gpu_tile.h"

static uint64_t pkt_addr(const uint32_t *pl)
{
	return pl[0] | (uint64_t)pl[1] << 32;
}

/* Whether a payload dword of @pd has a reserved bit set (BAD_FIELD).  Every
 * COUNT_MIN covers the named dwords (regtool checks it). */
static bool reserved_set(const struct gpu_pkt_desc *pd, const uint32_t *pl)
{
	for (uint32_t i = 0; i < pd->ndw; i++)
		if (pl[i] & pd->reserved[i])
			return true;
	return false;
}

uint32_t gpu_pkt_header_cause(uint32_t hdr, size_t left, bool priv)
{
	const struct gpu_pkt_desc *pd = gpu_pkt_desc(GPU_HDR_OPCODE_GET(hdr));
	uint32_t count = GPU_HDR_COUNT_GET(hdr);

	if (GPU_HDR_TYPE_GET(hdr) != GPU_PKT_TYPE3)
		return GPU_CAUSE_BAD_TYPE;
	if (!pd)
		return GPU_CAUSE_BAD_OPCODE;
	if (pd->priv && !priv)
		return GPU_CAUSE_PRIV;
	if (count < pd->count_min || count > pd->count_max || count >= left)
		return GPU_CAUSE_BAD_COUNT;
	return GPU_CAUSE_NONE;
}

static uint32_t check_ib(const uint32_t *pl, bool in_ib, bool priv, uint32_t ib_max_dw)
{
	uint32_t sz = pl[GPU_PKT_INDIRECT_BUFFER_SIZE];
	uint32_t size = GPU_PKT_INDIRECT_BUFFER_SIZE_DW_GET(sz);
	uint64_t addr = pkt_addr(&pl[GPU_PKT_INDIRECT_BUFFER_ADDR_LO]);

	if (in_ib)
		return GPU_CAUSE_IB_NESTED;
	/* only a privileged ring picks the IB's VMID or privilege */
	if ((GPU_PKT_INDIRECT_BUFFER_VMID_GET(sz) || GPU_PKT_INDIRECT_BUFFER_PRIV_GET(sz)) && !priv)
		return GPU_CAUSE_PRIV;
	if (size == 0 || size > ib_max_dw || addr + 4ull * size > 1ull << GPU_PA_BITS)
		return GPU_CAUSE_IB_RANGE;
	if (addr & 3)
		return GPU_CAUSE_BAD_ALIGN;
	return GPU_CAUSE_NONE;
}

/* A BLT/FILL surface operand (cp_copy_cmd surf_bad): bit 1 bad field, bit 0
 * bad alignment.  @wb is the row width in bytes (up to 36 bits).  Reserved
 * bits were checked before. */
static unsigned surf_bad(const uint32_t *base, uint32_t fmt, uint32_t x, uint64_t wb, uint32_t h)
{
	unsigned mode = GPU_PKT_BLT_SRC_MODE_GET(fmt), bpe = GPU_PKT_BLT_SRC_BPE_GET(fmt);
	uint32_t pitch = GPU_PKT_BLT_SRC_PITCH_GET(fmt);
	struct gpu_tile_info ti;

	if (gpu_tile_check(mode, bpe, pitch) != GM_OK || gpu_tile_info(mode, bpe, &ti) != GM_OK)
		return 2;
	if ((mode != GPU_TILE_LINEAR || h > 1) && ((uint64_t)x << bpe) + wb > pitch)
		return 2;
	if (mode != GPU_TILE_LINEAR && pkt_addr(base) & (ti.tile_bytes - 1u))
		return 1;
	return 0;
}

static uint32_t check_copy(uint32_t op, const uint32_t *pl)
{
	const uint64_t lim = 1ull << GPU_PA_BITS;
	unsigned bad;

	if (op == GPU_OP_COPY) {
		uint64_t len = pl[GPU_PKT_COPY_BYTES];

		if (pkt_addr(&pl[GPU_PKT_COPY_SRC_LO]) + len > lim ||
		    pkt_addr(&pl[GPU_PKT_COPY_DST_LO]) + len > lim)
			return GPU_CAUSE_BAD_FIELD;
		return GPU_CAUSE_NONE;
	}
	if (op == GPU_OP_BLT) {
		uint32_t fs = pl[GPU_PKT_BLT_SRC_FMT], fd = pl[GPU_PKT_BLT_DST_FMT];
		uint32_t h = pl[GPU_PKT_BLT_HEIGHT];
		uint64_t wb = (uint64_t)pl[GPU_PKT_BLT_WIDTH] << GPU_PKT_BLT_SRC_BPE_GET(fs);

		bad = surf_bad(&pl[GPU_PKT_BLT_SRC_LO], fs, GPU_PKT_BLT_SRC_X_GET(pl[GPU_PKT_BLT_SRC_XY]), wb, h) |
		      surf_bad(&pl[GPU_PKT_BLT_DST_LO], fd, GPU_PKT_BLT_DST_X_GET(pl[GPU_PKT_BLT_DST_XY]), wb, h);
		if (bad & 2 || wb >> 32 || GPU_PKT_BLT_SRC_BPE_GET(fs) != GPU_PKT_BLT_DST_BPE_GET(fd))
			return GPU_CAUSE_BAD_FIELD;
		return bad ? GPU_CAUSE_BAD_ALIGN : GPU_CAUSE_NONE;
	}
	{ /* FILL */
		uint32_t fd = pl[GPU_PKT_FILL_DST_FMT];
		uint64_t wb = (uint64_t)pl[GPU_PKT_FILL_WIDTH] << GPU_PKT_FILL_DST_BPE_GET(fd);

		bad = surf_bad(&pl[GPU_PKT_FILL_DST_LO], fd, GPU_PKT_FILL_DST_X_GET(pl[GPU_PKT_FILL_DST_XY]),
			       wb, pl[GPU_PKT_FILL_HEIGHT]);
		if (bad & 2 || wb >> 32)
			return GPU_CAUSE_BAD_FIELD;
		return bad ? GPU_CAUSE_BAD_ALIGN : GPU_CAUSE_NONE;
	}
}

/* Every packet but NOP and INVALIDATE_TLB starts with an address in
 * dwords 0 and 1 (COUNT_MIN >= 2). */
static uint32_t check_fields(const struct gpu_pkt_desc *pd, const uint32_t *pl, uint32_t count,
			     bool in_ib, bool priv, uint32_t ib_max_dw)
{
	const uint64_t lim = 1ull << GPU_PA_BITS;
	uint32_t op = pd->opcode;
	uint64_t addr;

	if (reserved_set(pd, pl))
		return GPU_CAUSE_BAD_FIELD;
	if (op == GPU_OP_NOP || op == GPU_OP_INVALIDATE_TLB)
		return GPU_CAUSE_NONE;
	if (op == GPU_OP_COPY || op == GPU_OP_BLT || op == GPU_OP_FILL)
		return check_copy(op, pl);
	addr = pkt_addr(pl);
	switch (op) {
	case GPU_OP_WRITE_DATA: /* the data must not run past 2^48 */
		if (addr + 4ull * (count - 2) > lim)
			return GPU_CAUSE_BAD_FIELD;
		return addr & 3 ? GPU_CAUSE_BAD_ALIGN : GPU_CAUSE_NONE;
	case GPU_OP_INDIRECT_BUFFER:
		return check_ib(pl, in_ib, priv, ib_max_dw);
	case GPU_OP_RELEASE_FENCE: {
		uint32_t flags = pl[GPU_PKT_RELEASE_FENCE_FLAGS];
		uint64_t align = GPU_PKT_RELEASE_FENCE_SIZE64_GET(flags) ? 7 : 3;

		return addr & align ? GPU_CAUSE_BAD_ALIGN : GPU_CAUSE_NONE;
	}
	case GPU_OP_WAIT_MEM: {
		uint32_t ctl = pl[GPU_PKT_WAIT_MEM_CTL];
		uint64_t align = GPU_PKT_WAIT_MEM_SIZE64_GET(ctl) ? 7 : 3;

		if (GPU_PKT_WAIT_MEM_FUNC_GET(ctl) > GPU_FUNC_GT)
			return GPU_CAUSE_BAD_FIELD;
		return addr & align ? GPU_CAUSE_BAD_ALIGN : GPU_CAUSE_NONE;
	}
	case GPU_OP_PTE_WRITE: {
		uint32_t num = pl[GPU_PKT_PTE_WRITE_NUM];

		if (num == 0 || addr + 8ull * num > lim) /* the entries must not run past 2^48 */
			return GPU_CAUSE_BAD_FIELD;
		return addr & 7 ? GPU_CAUSE_BAD_ALIGN : GPU_CAUSE_NONE;
	}
	case GPU_OP_TIMESTAMP:
		return addr & 7 ? GPU_CAUSE_BAD_ALIGN : GPU_CAUSE_NONE;
	default:
		return GPU_CAUSE_NONE;
	}
}

uint32_t gpu_pkt_check(const uint32_t *dw, size_t left, bool in_ib, bool priv, uint32_t ib_max_dw)
{
	uint32_t cause;

	if (!dw || left == 0)
		return GPU_CAUSE_BAD_COUNT;
	cause = gpu_pkt_header_cause(dw[0], left, priv);
	if (cause != GPU_CAUSE_NONE)
		return cause;
	return check_fields(gpu_pkt_desc(GPU_HDR_OPCODE_GET(dw[0])), &dw[1], GPU_HDR_COUNT_GET(dw[0]),
			    in_ib, priv, ib_max_dw);
}
