/* SPDX-License-Identifier: MIT */
/*
 * fw_vm.c - per-VMID page tables for the firmware.
 */
#include "fw_vm.h"
#include "gpu_hw.h"

#define TABLE_POOL_BYTES (16ull << 20)

static int vm_read(void *ctx, uint64_t pa, void *buf, size_t len)
{
	return gm_backdoor_read(((struct fw_vm *)ctx)->dev->gm, pa, buf, len);
}

static int vm_write(void *ctx, uint64_t pa, const void *buf, size_t len)
{
	return gm_backdoor_write(((struct fw_vm *)ctx)->dev->gm, pa, buf, len);
}

static int vm_alloc_table(void *ctx, uint64_t *pa)
{
	struct fw_dev *d = ((struct fw_vm *)ctx)->dev;

	if (d->pt_next + MMU_TABLE_BYTES > d->pt_end)
		return GM_ERR_NO_MEM;
	*pa = d->pt_next;
	d->pt_next += MMU_TABLE_BYTES;
	return GM_OK;
}

static const struct mmu_mem_ops vm_ops = { vm_read, vm_write, vm_alloc_table };

int fw_vm_init(struct fw_vm *vm, struct fw_dev *d, unsigned vmid)
{
	int st;

	if (!vm || !d || vmid == 0 || vmid >= GPU_NUM_VMIDS)
		return GM_ERR_BAD_ARG;
	if (!d->pt_end) {
		d->pt_end = GPU_VRAM_BASE + d->vram_bytes;
		d->pt_next = d->pt_end - TABLE_POOL_BYTES;
	}
	vm->dev = d;
	vm->vmid = vmid;
	st = mmu_pt_init(&vm->pt, &vm_ops, vm);
	if (!st)
		st = mmu_pt_map(&vm->pt, GPU_SYSMEM_BASE, d->sys_bytes, GPU_SYSMEM_BASE,
				MMU_MAP_R | MMU_MAP_W | MMU_MAP_SYS);
	if (st)
		return st;
	if (gm_reg_write(d->gm, GPU_REG_VM_ROOT_LO(vmid), (uint32_t)vm->pt.root_pa) ||
	    gm_reg_write(d->gm, GPU_REG_VM_ROOT_HI(vmid), (uint32_t)(vm->pt.root_pa >> 32)) ||
	    gm_reg_write(d->gm, GPU_REG_MMU_CTRL, GPU_MMU_CTRL_ENABLE(1)))
		return GM_ERR_HW;
	return GM_OK;
}

int fw_vm_map(struct fw_vm *vm, uint64_t va, uint64_t size, uint64_t pa, unsigned flags)
{
	struct gm *g;
	int st;

	if (!vm)
		return GM_ERR_BAD_ARG;
	st = mmu_pt_map(&vm->pt, va, size, pa, flags);
	if (st)
		return st;
	g = vm->dev->gm;
	if (gm_reg_write(g, GPU_REG_MMU_INV_VMID, GPU_MMU_INV_VMID_VMID(vm->vmid)) ||
	    gm_reg_write(g, GPU_REG_MMU_INV_START, (uint32_t)(va >> GPU_FRAG_SHIFT)) ||
	    gm_reg_write(g, GPU_REG_MMU_INV_END, (uint32_t)((va + size - 1) >> GPU_FRAG_SHIFT)) ||
	    gm_reg_write(g, GPU_REG_MMU_INV_CTL, GPU_MMU_INV_CTL_GO(1)))
		return GM_ERR_HW;
	return GM_OK;
}

int fw_queue_set_vm(struct fw_dev *d, unsigned qi, const struct fw_vm *vm)
{
	if (!d || qi >= d->nq)
		return GM_ERR_BAD_ARG;
	return gm_reg_write(d->gm, GPU_REG_Q_VMID(qi), vm ? vm->vmid : 0) ? GM_ERR_HW : GM_OK;
}
