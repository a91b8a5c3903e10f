/* SPDX-License-Identifier: MIT */
/*
 * fw_vm.h - GPU virtual memory contexts for the firmware: one page table
 * per VMID, built with mmu/ in VRAM, with system memory mapped 1:1 so rings,
 * fences and IBs keep their addresses on a translated queue.
 */
#ifndef FW_VM_H
#define FW_VM_H

#include "fw_dev.h"
#include "mmu_pt.h"

struct fw_vm {
	struct fw_dev *dev;
	unsigned vmid;
	struct mmu_pt pt;
};

/*
 * Make VMID @vmid (1..GPU_NUM_VMIDS-1): a root table, system memory mapped
 * 1:1 read-write, the root register programmed and the MMU enabled.
 * Tables come from the top 16 MiB of VRAM.  GM_OK; GM_ERR_BAD_ARG (vmid);
 * GM_ERR_NO_MEM (table pool exhausted); GM_ERR_HW (a register refused).
 */
int fw_vm_init(struct fw_vm *vm, struct fw_dev *d, unsigned vmid) GM_MUST_CHECK;

/* Map VA [@va, @va + @size) to VRAM/system PA @pa (mmu_pt_map flags); then
 * invalidate the VMID's TLB entries for the range.  As mmu_pt_map(). */
int fw_vm_map(struct fw_vm *vm, uint64_t va, uint64_t size, uint64_t pa, unsigned flags)
	GM_MUST_CHECK;

/* Run queue @qi in @vm's VMID from now on (between submissions).  GM_OK or
 * GM_ERR_BAD_ARG / GM_ERR_HW. */
int fw_queue_set_vm(struct fw_dev *d, unsigned qi, const struct fw_vm *vm) GM_MUST_CHECK;

#endif /* FW_VM_H */
