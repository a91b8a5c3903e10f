/* SPDX-License-Identifier: MIT */
/*
 * dma_buf.c - packet emitters.  Each checks its arguments and the room left
 * before writing a single dword.
 */
#include <string.h>

#include "dma_buf.h"
#include "gpu_tile.h"

#define ADDR_LIMIT (1ull << GPU_PA_BITS)

void dma_buf_init(struct dma_buf *b, uint32_t *dw, size_t cap)
{
	b->dw = dw;
	b->cap = cap;
	b->len = 0;
}

/* A buffer that can be written: present and with storage.  One wrapped over
 * NULL storage is a bad argument, not a full buffer. */
static bool buf_ok(const struct dma_buf *b)
{
	return b && b->dw;
}

static bool addr_ok(uint64_t addr, uint64_t align)
{
	return addr < ADDR_LIMIT && (addr & (align - 1)) == 0;
}

/* Reserve a header plus @count payload dwords; NULL when they do not fit. */
static uint32_t *pkt_begin(struct dma_buf *b, enum gpu_opcode op, uint32_t count)
{
	uint32_t *p;

	if (!buf_ok(b) || dma_buf_room(b) < (size_t)count + 1)
		return NULL;
	p = &b->dw[b->len];
	p[0] = GPU_PKT_HDR(op, count);
	b->len += (size_t)count + 1;
	return p + 1;
}

int dma_emit_raw(struct dma_buf *b, const uint32_t *dw, size_t n)
{
	if (!buf_ok(b) || (n && !dw))
		return GM_ERR_BAD_ARG;
	if (dma_buf_room(b) < n)
		return GM_ERR_FULL;
	if (n == 0)
		return GM_OK; /* @dw may be NULL; memcpy from NULL is undefined even for 0 bytes */
	memcpy(&b->dw[b->len], dw, n * sizeof(*dw));
	b->len += n;
	return GM_OK;
}

int dma_emit_nop(struct dma_buf *b, uint32_t count)
{
	uint32_t *p;

	if (count > GPU_PKT_NOP_COUNT_MAX)
		return GM_ERR_BAD_ARG;
	p = pkt_begin(b, GPU_OP_NOP, count);
	if (!p)
		return buf_ok(b) ? GM_ERR_FULL : GM_ERR_BAD_ARG;
	memset(p, 0, count * sizeof(*p));
	return GM_OK;
}

static void put_addr(uint32_t *lo, uint64_t addr)
{
	lo[0] = (uint32_t)addr;
	lo[1] = (uint32_t)(addr >> 32);
}

int dma_emit_write_data(struct dma_buf *b, uint64_t addr, const uint32_t *data, uint32_t n)
{
	uint32_t *p;

	if (!data || n == 0 || n > GPU_PKT_WRITE_DATA_COUNT_MAX - 2 || !addr_ok(addr, 4) ||
	    addr > ADDR_LIMIT - 4ull * n)
		return GM_ERR_BAD_ARG;
	p = pkt_begin(b, GPU_OP_WRITE_DATA, n + 2);
	if (!p)
		return buf_ok(b) ? GM_ERR_FULL : GM_ERR_BAD_ARG;
	put_addr(&p[GPU_PKT_WRITE_DATA_ADDR_LO], addr);
	memcpy(&p[GPU_PKT_WRITE_DATA_DATA], data, n * sizeof(*data));
	return GM_OK;
}

int dma_emit_indirect_buffer_ctx(struct dma_buf *b, uint64_t addr, uint32_t size_dw, uint32_t vmid,
				 bool priv)
{
	uint32_t *p;

	if (size_dw == 0 || size_dw > GPU_PKT_INDIRECT_BUFFER_SIZE_DW_MASK || !addr_ok(addr, 4) ||
	    addr + 4ull * size_dw > ADDR_LIMIT || vmid >= GPU_NUM_VMIDS)
		return GM_ERR_BAD_ARG;
	p = pkt_begin(b, GPU_OP_INDIRECT_BUFFER, GPU_PKT_INDIRECT_BUFFER_COUNT_MIN);
	if (!p)
		return buf_ok(b) ? GM_ERR_FULL : GM_ERR_BAD_ARG;
	put_addr(&p[GPU_PKT_INDIRECT_BUFFER_ADDR_LO], addr);
	p[GPU_PKT_INDIRECT_BUFFER_SIZE] = GPU_PKT_INDIRECT_BUFFER_SIZE_DW(size_dw) |
					  GPU_PKT_INDIRECT_BUFFER_VMID(vmid) |
					  GPU_PKT_INDIRECT_BUFFER_PRIV(priv);
	return GM_OK;
}

int dma_emit_indirect_buffer(struct dma_buf *b, uint64_t addr, uint32_t size_dw)
{
	return dma_emit_indirect_buffer_ctx(b, addr, size_dw, 0, false);
}

int dma_emit_release_fence(struct dma_buf *b, uint64_t addr, uint64_t value, bool is64, bool irq)
{
	uint32_t *p;

	if (!addr_ok(addr, is64 ? 8 : 4))
		return GM_ERR_BAD_ARG;
	p = pkt_begin(b, GPU_OP_RELEASE_FENCE, GPU_PKT_RELEASE_FENCE_COUNT_MIN);
	if (!p)
		return buf_ok(b) ? GM_ERR_FULL : GM_ERR_BAD_ARG;
	put_addr(&p[GPU_PKT_RELEASE_FENCE_ADDR_LO], addr);
	p[GPU_PKT_RELEASE_FENCE_VALUE_LO] = (uint32_t)value;
	p[GPU_PKT_RELEASE_FENCE_VALUE_HI] = (uint32_t)(value >> 32);
	p[GPU_PKT_RELEASE_FENCE_FLAGS] = GPU_PKT_RELEASE_FENCE_SIZE64(is64) |
					 GPU_PKT_RELEASE_FENCE_INT(irq);
	return GM_OK;
}

int dma_emit_wait_mem(struct dma_buf *b, uint64_t addr, uint64_t ref, uint64_t mask,
		      enum gpu_wait_func func, bool is64, uint16_t poll_cycles)
{
	uint32_t *p;

	if (!addr_ok(addr, is64 ? 8 : 4) || (uint32_t)func > GPU_FUNC_GT)
		return GM_ERR_BAD_ARG;
	p = pkt_begin(b, GPU_OP_WAIT_MEM, GPU_PKT_WAIT_MEM_COUNT_MIN);
	if (!p)
		return buf_ok(b) ? GM_ERR_FULL : GM_ERR_BAD_ARG;
	put_addr(&p[GPU_PKT_WAIT_MEM_ADDR_LO], addr);
	p[GPU_PKT_WAIT_MEM_REF_LO] = (uint32_t)ref;
	p[GPU_PKT_WAIT_MEM_REF_HI] = (uint32_t)(ref >> 32);
	p[GPU_PKT_WAIT_MEM_MASK_LO] = (uint32_t)mask;
	p[GPU_PKT_WAIT_MEM_MASK_HI] = (uint32_t)(mask >> 32);
	p[GPU_PKT_WAIT_MEM_CTL] = GPU_PKT_WAIT_MEM_FUNC(func) | GPU_PKT_WAIT_MEM_SIZE64(is64) |
				  GPU_PKT_WAIT_MEM_POLL_CYCLES(poll_cycles);
	return GM_OK;
}

int dma_emit_timestamp(struct dma_buf *b, uint64_t addr)
{
	uint32_t *p;

	if (!addr_ok(addr, 8))
		return GM_ERR_BAD_ARG;
	p = pkt_begin(b, GPU_OP_TIMESTAMP, GPU_PKT_TIMESTAMP_COUNT_MIN);
	if (!p)
		return buf_ok(b) ? GM_ERR_FULL : GM_ERR_BAD_ARG;
	put_addr(&p[GPU_PKT_TIMESTAMP_ADDR_LO], addr);
	return GM_OK;
}

int dma_emit_pte_write(struct dma_buf *b, uint64_t dst, uint64_t flags, uint64_t base,
		       uint32_t stride, uint32_t num)
{
	uint32_t *p;

	if (num == 0 || num > GPU_PKT_PTE_WRITE_ENTRIES_MASK || !addr_ok(dst, 8) ||
	    dst > ADDR_LIMIT - 8ull * num || flags & GPU_PTE_ADDR(~0ull) || base >= ADDR_LIMIT)
		return GM_ERR_BAD_ARG;
	p = pkt_begin(b, GPU_OP_PTE_WRITE, GPU_PKT_PTE_WRITE_COUNT_MIN);
	if (!p)
		return buf_ok(b) ? GM_ERR_FULL : GM_ERR_BAD_ARG;
	put_addr(&p[GPU_PKT_PTE_WRITE_DST_LO], dst);
	p[GPU_PKT_PTE_WRITE_FLAGS_LO] = (uint32_t)flags;
	p[GPU_PKT_PTE_WRITE_FLAGS_HI] = (uint32_t)(flags >> 32);
	put_addr(&p[GPU_PKT_PTE_WRITE_BASE_LO], base);
	p[GPU_PKT_PTE_WRITE_STRIDE] = stride;
	p[GPU_PKT_PTE_WRITE_NUM] = GPU_PKT_PTE_WRITE_ENTRIES(num);
	return GM_OK;
}

int dma_emit_copy(struct dma_buf *b, uint64_t dst, uint64_t src, uint32_t bytes)
{
	uint32_t *p;

	if (src > ADDR_LIMIT - bytes || dst > ADDR_LIMIT - bytes)
		return GM_ERR_BAD_ARG;
	p = pkt_begin(b, GPU_OP_COPY, GPU_PKT_COPY_COUNT_MIN);
	if (!p)
		return buf_ok(b) ? GM_ERR_FULL : GM_ERR_BAD_ARG;
	put_addr(&p[GPU_PKT_COPY_SRC_LO], src);
	put_addr(&p[GPU_PKT_COPY_DST_LO], dst);
	p[GPU_PKT_COPY_BYTES] = bytes;
	return GM_OK;
}

/* The hardware's rules for one surface operand (cp_copy_cmd surf_bad). */
static bool surf_ok(const struct dma_surf *s, uint32_t w, uint32_t h)
{
	struct gpu_tile_info ti;
	uint64_t wb;

	if (!s)
		return false;
	wb = (uint64_t)w << (s->bpe_log2 & 7u);
	if (gpu_tile_check(s->mode, s->bpe_log2, s->pitch) != GM_OK ||
	    s->pitch > GPU_PKT_BLT_SRC_PITCH_MASK || s->base >= ADDR_LIMIT ||
	    h > 0xffffu || wb > 0xffffffffull ||
	    gpu_tile_info(s->mode, s->bpe_log2, &ti) != GM_OK)
		return false;
	if ((s->mode != GPU_TILE_LINEAR || h > 1) &&
	    ((uint64_t)s->x << s->bpe_log2) + wb > s->pitch)
		return false;
	return s->mode == GPU_TILE_LINEAR || (s->base & (ti.tile_bytes - 1u)) == 0;
}

static uint32_t surf_fmt(const struct dma_surf *s)
{
	return GPU_PKT_BLT_SRC_PITCH(s->pitch) | GPU_PKT_BLT_SRC_MODE(s->mode) |
	       GPU_PKT_BLT_SRC_BPE(s->bpe_log2);
}

static uint32_t surf_xy(const struct dma_surf *s)
{
	return GPU_PKT_BLT_SRC_X(s->x) | GPU_PKT_BLT_SRC_Y(s->y);
}

int dma_emit_blt(struct dma_buf *b, const struct dma_surf *dst, const struct dma_surf *src,
		 uint32_t w, uint32_t h)
{
	uint32_t *p;

	if (!dst || !src || !surf_ok(dst, w, h) || !surf_ok(src, w, h) ||
	    dst->bpe_log2 != src->bpe_log2)
		return GM_ERR_BAD_ARG;
	p = pkt_begin(b, GPU_OP_BLT, GPU_PKT_BLT_COUNT_MIN);
	if (!p)
		return buf_ok(b) ? GM_ERR_FULL : GM_ERR_BAD_ARG;
	put_addr(&p[GPU_PKT_BLT_SRC_LO], src->base);
	p[GPU_PKT_BLT_SRC_FMT] = surf_fmt(src);
	p[GPU_PKT_BLT_SRC_XY] = surf_xy(src);
	put_addr(&p[GPU_PKT_BLT_DST_LO], dst->base);
	p[GPU_PKT_BLT_DST_FMT] = surf_fmt(dst);
	p[GPU_PKT_BLT_DST_XY] = surf_xy(dst);
	p[GPU_PKT_BLT_WIDTH] = w;
	p[GPU_PKT_BLT_HEIGHT] = h;
	return GM_OK;
}

int dma_emit_fill(struct dma_buf *b, const struct dma_surf *dst, uint32_t w, uint32_t h,
		  uint64_t value)
{
	uint32_t *p;

	if (!dst || !surf_ok(dst, w, h))
		return GM_ERR_BAD_ARG;
	p = pkt_begin(b, GPU_OP_FILL, GPU_PKT_FILL_COUNT_MIN);
	if (!p)
		return buf_ok(b) ? GM_ERR_FULL : GM_ERR_BAD_ARG;
	put_addr(&p[GPU_PKT_FILL_DST_LO], dst->base);
	p[GPU_PKT_FILL_DST_FMT] = surf_fmt(dst);
	p[GPU_PKT_FILL_DST_XY] = surf_xy(dst);
	p[GPU_PKT_FILL_WIDTH] = w;
	p[GPU_PKT_FILL_HEIGHT] = h;
	p[GPU_PKT_FILL_VALUE_LO] = (uint32_t)value;
	p[GPU_PKT_FILL_VALUE_HI] = (uint32_t)(value >> 32);
	return GM_OK;
}

int dma_emit_invalidate_tlb(struct dma_buf *b, uint32_t vmid, bool all, uint32_t start,
			    uint32_t end)
{
	uint32_t *p;

	if (vmid >= GPU_NUM_VMIDS || start > end)
		return GM_ERR_BAD_ARG;
	p = pkt_begin(b, GPU_OP_INVALIDATE_TLB, GPU_PKT_INVALIDATE_TLB_COUNT_MIN);
	if (!p)
		return buf_ok(b) ? GM_ERR_FULL : GM_ERR_BAD_ARG;
	p[GPU_PKT_INVALIDATE_TLB_CTL] = GPU_PKT_INVALIDATE_TLB_VMID(vmid) |
					GPU_PKT_INVALIDATE_TLB_ALL(all);
	p[GPU_PKT_INVALIDATE_TLB_START] = start;
	p[GPU_PKT_INVALIDATE_TLB_END] = end;
	return GM_OK;
}
