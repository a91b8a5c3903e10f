/* SPDX-License-Identifier: MIT */
/*
 * mmu_vm.c - the MMU system tests' fixture (mmu_vm.h).
 */
#include <string.h>

#include "mmu_vm.h"

void vm_open_cfg(struct vm *v, const struct gm_config *cfg)
{
	memset(v, 0, sizeof(*v));
	tb_open_cfg(&v->t, cfg);
	tb_ptmem_init(&v->mem, v->t.g);
	for (unsigned id = VMID_A; id <= VMID_B; id++) {
		tb_pt_init(&v->pt[id], &v->mem);
		tb_pt_map_fw(&v->pt[id]);
		tb_wr(&v->t, GPU_REG_VM_ROOT_LO(id), (uint32_t)v->pt[id].root_pa);
		tb_wr(&v->t, GPU_REG_VM_ROOT_HI(id), (uint32_t)(v->pt[id].root_pa >> 32));
	}
	tb_wr(&v->t, GPU_REG_MMU_CTRL, GPU_MMU_CTRL_ENABLE(1));
	tb_wr(&v->t, GPU_REG_Q_VMID(Q0), VMID_A);
}

void vm_open(struct vm *v)
{
	vm_open_cfg(v, NULL);
}

struct mmu_xlate sw_walk(struct vm *v, unsigned id, uint64_t va, bool write)
{
	struct mmu_xlate x;

	assert_int_equal(mmu_walk(&tb_ptmem_ops, &v->mem, v->pt[id].root_pa, va, write, &x), GM_OK);
	return x;
}

void run_ib(struct vm *v, unsigned q, struct dma_buf *b)
{
	tb_wait(&v->t, q, tb_submit_ib(&v->t, q, b));
}

uint64_t rnd(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545f4914f6cdd1dull;
}
