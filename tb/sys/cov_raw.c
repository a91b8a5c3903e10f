/* SPDX-License-Identifier: MIT */
/*
 * cov_raw.c - the raw queues of the directed coverage tests (cov_raw.h).
 */
#include "cov_raw.h"

void raw_setup(struct tb *t, unsigned q)
{
	tb_wr(t, GPU_REG_Q_CTRL(q), GPU_Q_CTRL_RESET(1));
	tb_wr(t, GPU_REG_Q_BASE_LO(q), (uint32_t)RAW_RING(q));
	tb_wr(t, GPU_REG_Q_BASE_HI(q), (uint32_t)(RAW_RING(q) >> 32));
	tb_wr(t, GPU_REG_Q_SIZE(q), RAW_LOG2);
	tb_wr(t, GPU_REG_Q_VMID(q), 0);
	tb_wr(t, GPU_REG_Q_CTRL(q), GPU_Q_CTRL_ENABLE(1) | GPU_Q_CTRL_PRIV(1));
}

void raw_put(struct tb *t, unsigned q, const struct dma_buf *b)
{
	assert_int_equal(gm_backdoor_write(t->g, RAW_RING(q), b->dw, b->len * 4), GM_OK);
}

void raw_check_done(struct tb *t, unsigned q, uint32_t len, uint32_t pkts)
{
	uint32_t st = tb_rd(t, GPU_REG_Q_STATUS(q));

	if (tb_rd(t, GPU_REG_Q_RPTR(q)) != len || GPU_Q_STATUS_BUSY_GET(st) ||
	    GPU_Q_STATUS_ERROR_GET(st) || tb_rd(t, GPU_REG_Q_PKTS(q)) != pkts)
		fail_msg("queue %u: rptr %u (want %u), status 0x%x, %u packets (want %u)", q,
			 tb_rd(t, GPU_REG_Q_RPTR(q)), len, st, tb_rd(t, GPU_REG_Q_PKTS(q)), pkts);
}

void raw_step(struct tb *t, uint64_t n)
{
	if (n)
		assert_int_equal(gm_step(t->g, n), GM_OK);
}

void raw_ring_write(struct tb *t, uint32_t vmid, uint64_t va, uint32_t val)
{
	static uint32_t dw[16];
	struct dma_buf b;

	raw_setup(t, 0);
	tb_wr(t, GPU_REG_Q_VMID(0), vmid);
	dma_buf_init(&b, dw, 16);
	assert_int_equal(dma_emit_write_data(&b, va, &val, 1), GM_OK);
	raw_put(t, 0, &b);
	tb_wr(t, GPU_REG_Q_WPTR(0), (uint32_t)b.len);
}

void raw_write_vmid(struct tb *t, uint32_t vmid, uint64_t va, uint32_t val)
{
	raw_ring_write(t, vmid, va, val);
	raw_step(t, 500);
}

void raw_vm3_tables(struct tb *t, struct tb_ptmem *mem, struct mmu_pt *pt)
{
	tb_ptmem_init(mem, t->g);
	tb_pt_init(pt, mem);
	assert_int_equal(mmu_pt_map(pt, RAW_AREA, 0x100000, RAW_AREA, MMU_MAP_R | MMU_MAP_W), GM_OK);
	tb_wr(t, GPU_REG_VM_ROOT_LO(3), (uint32_t)pt->root_pa);
	tb_wr(t, GPU_REG_VM_ROOT_HI(3), (uint32_t)(pt->root_pa >> 32));
	tb_wr(t, GPU_REG_MMU_CTRL, GPU_MMU_CTRL_ENABLE(1));
}

void raw_fill_bytes(uint8_t *p, size_t n, uint64_t *seed)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (uint8_t)tb_rand(seed);
}
