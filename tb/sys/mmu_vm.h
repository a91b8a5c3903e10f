/* SPDX-License-Identifier: MIT */
/*
 * mmu_vm.h - the MMU system tests' fixture (test_mmu_rtl.c, test_mmu_pwc.c):
 * a model with page tables for VMIDs 1 and 2 built by the software page-table
 * code (mmu/mmu_pt.c) in model memory, the MMU enabled and queue 0 on VMID 1,
 * and the software walker (mmu/mmu_walk.c) as the oracle of a translation.
 */
#ifndef MMU_VM_H
#define MMU_VM_H

#include <stdbool.h>
#include <stdint.h>

#include "mmu_pt.h"
#include "mmu_walk.h"
#include "tb_util.h"

#define Q0 FW_QUEUE_RENDER
#define Q1 FW_QUEUE_COPY
#define VMID_A 1u
#define VMID_B 2u
#define DATA_PA (GPU_VRAM_BASE + 0x01000000ull)  /* data pages: VRAM 16..112 MiB */
#define TEST_VA 0x0000123400000000ull            /* the random mappings' window */

struct vm {
	struct tb t;
	struct tb_ptmem mem;
	struct mmu_pt pt[3];  /* per VMID 1, 2 (index 0 unused) */
};

/* Open the model (@cfg, or the default with NULL) with both VMIDs' tables,
 * the firmware's own pages mapped in each, the MMU on, queue 0 on VMID 1. */
void vm_open_cfg(struct vm *v, const struct gm_config *cfg);
void vm_open(struct vm *v);

/* What the software walker says of @va in VMID @id. */
struct mmu_xlate sw_walk(struct vm *v, unsigned id, uint64_t va, bool write);

/* Run @b on queue @q as an IB and wait for its fence. */
void run_ib(struct vm *v, unsigned q, struct dma_buf *b);

/* xorshift64*: the random tests' generator (seed it non-zero). */
uint64_t rnd(uint64_t *s);

#endif /* MMU_VM_H */
