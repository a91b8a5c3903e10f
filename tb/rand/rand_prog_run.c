/* SPDX-License-Identifier: MIT */
/*
 * rand_prog_run.c - a random program (rand_prog.h) on a model: its memory
 * image loaded through the backdoor, the registers that start it, a queue's
 * recovery after a hang, the register sweep the scoreboard hashes, and
 * which bytes the program leaves to timing.
 */
#include "dma_buf.h"
#include "gm.h"
#include "gpu_hw.h"
#include "rand_map.h"
#include "rand_prog.h"

bool rand_prog_uncertain(const struct rand_prog *p, uint64_t pa)
{
	if (p->unc_all && pa >= DST_PA(1) && pa < DST_PA(4))
		return true;
	for (unsigned i = 0; i < p->nunc; i++)
		if (pa >= p->unc[i].pa && pa < p->unc[i].pa + p->unc[i].len)
			return true;
	return false;
}

int rand_prog_settle(const struct rand_prog *p, struct gm *g)
{
	static const uint8_t zero[4096];
	int st = GM_OK;

	for (unsigned i = 0; i <= p->nunc && !st; i++) {
		uint64_t pa = i < p->nunc ? p->unc[i].pa : DST_PA(1);
		uint64_t len = i < p->nunc ? p->unc[i].len : p->unc_all ? DST_PA(4) - DST_PA(1) : 0;

		for (uint64_t k = 0; k < len && !st; k += sizeof(zero))
			st = gm_backdoor_write(g, pa + k, zero, len - k < sizeof(zero) ? len - k : sizeof(zero));
	}
	return st;
}

int rand_prog_load(const struct rand_prog *p, struct gm *g)
{
	int st = gm_backdoor_write(g, SRC_PA, p->src, RP_SRC_BYTES);

	for (unsigned q = 0; q < 2 && !st; q++) {
		st = gm_backdoor_write(g, IB_PA(q), p->ib[q], sizeof(p->ib[q]));
		if (!st)
			st = gm_backdoor_write(g, RING_PA(q), p->ring[q], sizeof(p->ring[q]));
	}
	for (unsigned v = 1; v < RP_VMIDS && !st; v++)
		for (unsigned t = 0; t < RP_PT_TABLES && !st; t++)
			st = gm_backdoor_write(g, PT_PA(v, t), p->pt[v][t], 4096);
	return st;
}

int rand_prog_start(const struct rand_prog *p, struct gm *g)
{
	int st = gm_reg_write(g, GPU_REG_INT_ENABLE, 0xffffffffu);

	st = st ? st : gm_reg_write(g, GPU_REG_MMU_CTRL, 1);
	for (unsigned v = 1; v < RP_VMIDS && !st; v++) {
		st = gm_reg_write(g, GPU_REG_VM_ROOT_LO(v), (uint32_t)PT_PA(v, 0));
		st = st ? st : gm_reg_write(g, GPU_REG_VM_ROOT_HI(v), (uint32_t)(PT_PA(v, 0) >> 32));
	}
	for (unsigned q = 0; q < 2 && !st; q++) {
		uint32_t ctl = GPU_Q_CTRL_ENABLE(1) | GPU_Q_CTRL_PRIV(1) | GPU_Q_CTRL_RPTR_WB(q);

		st = gm_reg_write(g, GPU_REG_Q_BASE_LO(q), (uint32_t)RING_PA(q));
		st = st ? st : gm_reg_write(g, GPU_REG_Q_BASE_HI(q), (uint32_t)(RING_PA(q) >> 32));
		st = st ? st : gm_reg_write(g, GPU_REG_Q_SIZE(q), RP_RING_LOG2);
		st = st ? st : gm_reg_write(g, GPU_REG_Q_RPTR_WB_LO(q), (uint32_t)(WB_PA + 0x40 * q));
		st = st ? st : gm_reg_write(g, GPU_REG_Q_RPTR_WB_HI(q), (uint32_t)(WB_PA >> 32));
		st = st ? st : gm_reg_write(g, GPU_REG_Q_CTRL(q), ctl);
	}
	for (unsigned q = 0; q < 2 && !st; q++)
		st = gm_reg_write(g, GPU_REG_Q_WPTR(q), p->wdb[q]);
	return st;
}

int rand_prog_ring(const struct rand_prog *p, struct gm *g)
{
	int st = GM_OK;

	for (unsigned q = 0; q < 2 && !st; q++)
		st = gm_reg_write(g, GPU_REG_Q_WPTR(q), p->wptr[q]);
	return st;
}

int rand_prog_recover(const struct rand_prog *p, struct gm *g, unsigned q)
{
	uint32_t d[16], ctl = GPU_Q_CTRL_ENABLE(1) | GPU_Q_CTRL_PRIV(1) | GPU_Q_CTRL_RPTR_WB(q);
	uint32_t v = (uint32_t)p->seed ^ 0x5eed0000u ^ q;
	struct dma_buf b;
	int st;

	dma_buf_init(&b, d, 16);
	st = dma_emit_write_data(&b, FENCE_PA + 0x80 + 8 * q, &v, 1);
	st = st ? st : dma_emit_release_fence(&b, FENCE_PA + 0x40 * q, 0x1000 + q, q == 1, true);
	st = st ? st : gm_reg_write(g, GPU_REG_Q_CTRL(q), ctl | GPU_Q_CTRL_RESET(1));
	st = st ? st : gm_backdoor_write(g, RING_PA(q), d, b.len * 4);
	st = st ? st : gm_reg_write(g, GPU_REG_Q_CTRL(q), ctl);
	return st ? st : gm_reg_write(g, GPU_REG_Q_WPTR(q), (uint32_t)b.len);
}

static uint64_t mix(uint64_t h, uint64_t v)
{
	return (h ^ v) * 1099511628211ull;
}

int rand_prog_sweep(const struct rand_prog *p, struct gm *g, uint64_t *hash)
{
	static const uint32_t glob[] = { GPU_REG_ID, GPU_REG_CAPS, GPU_REG_INT_ENABLE, GPU_REG_SCRATCH,
					 GPU_REG_IB_MAX_DW, GPU_REG_MMU_CTRL, GPU_REG_MMU_INV_VMID,
					 GPU_REG_MMU_INV_START, GPU_REG_MMU_INV_END, GPU_REG_MMU_INV_CTL,
					 GPU_REG_CE_STATUS, GPU_REG_APT_STATUS, 0x7fc, 0xffc };
	uint64_t h = 1469598103934665603ull;
	uint32_t v = 0;
	int st = gm_reg_write(g, GPU_REG_SCRATCH, p->regs[0]);

	st = st ? st : gm_reg_write(g, GPU_REG_MMU_INV_VMID, p->regs[1]);
	st = st ? st : gm_reg_write(g, GPU_REG_MMU_INV_START, p->regs[2]);
	st = st ? st : gm_reg_write(g, GPU_REG_MMU_INV_END, p->regs[3]);
	st = st ? st : gm_reg_write(g, GPU_REG_INT_ENABLE, p->regs[4]);
	for (unsigned vm = RP_VMIDS; vm < GPU_NUM_VMIDS && !st; vm++) {
		st = gm_reg_write(g, GPU_REG_VM_ROOT_LO(vm), p->regs[5 + vm % 8] ^ vm);
		st = st ? st : gm_reg_write(g, GPU_REG_VM_ROOT_HI(vm), p->regs[13 + vm % 8] ^ vm);
	}
	for (unsigned r = 0; r < GPU_APT_RANGES && !st; r++) {
		/* fields with VALID clear: the ranges stay off */
		st = gm_reg_write(g, GPU_REG_APT_CTRL(r), p->regs[21] & ~1u);
		st = st ? st : gm_reg_write(g, GPU_REG_APT_START(r), p->regs[22] ^ r);
		st = st ? st : gm_reg_write(g, GPU_REG_APT_END(r), p->regs[23] ^ r);
		st = st ? st : gm_reg_write(g, GPU_REG_APT_BASE_LO(r), p->regs[5 + r]);
		st = st ? st : gm_reg_write(g, GPU_REG_APT_BASE_HI(r), p->regs[13 + r]);
		st = st ? st : gm_reg_write(g, GPU_REG_APT_PITCH(r), p->regs[r]);
	}
	for (unsigned q = 0; q < 2 && !st; q++) { /* read-only and unnamed offsets: ignored, refused */
		h = mix(h, (uint64_t)gm_reg_write(g, GPU_REG_Q_RPTR(q), p->regs[q]));
		h = mix(h, (uint64_t)gm_reg_write(g, GPU_REG_Q_CTRL(q) + 0x7c, p->regs[q]));
		h = mix(h, (uint64_t)gm_reg_write(g, GPU_REG_APT_CTRL(q) + 0x18, p->regs[q]));
	}
	for (size_t i = 0; i < sizeof(glob) / sizeof(glob[0]) && !st; i++) {
		int a = gm_reg_read(g, glob[i], &v);

		h = mix(mix(h, (uint64_t)a), v);
	}
	for (unsigned i = 0; i < GPU_NUM_VMIDS * 2 && !st; i++) {
		int a = gm_reg_read(g, GPU_VMREG_BASE + 4 * i, &v);

		h = mix(mix(h, (uint64_t)a), v);
	}
	for (unsigned i = 0; i < GPU_APT_RANGES * GPU_APTREG_STRIDE / 4 && !st; i++) {
		int a = gm_reg_read(g, GPU_APTREG_BASE + 4 * i, &v);

		h = mix(mix(h, (uint64_t)a), v);
	}
	for (unsigned i = 0; i < 3 * GPU_QREG_STRIDE / 4 && !st; i++) { /* queue 2: none */
		int a = gm_reg_read(g, GPU_QREG_BASE + 4 * i, &v);

		h = mix(mix(h, (uint64_t)a), v);
	}
	/* the run's own values again */
	st = st ? st : gm_reg_write(g, GPU_REG_INT_ENABLE, 0xffffffffu);
	*hash = h;
	return st;
}
