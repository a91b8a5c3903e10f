/* SPDX-License-Identifier: MIT */
/*
 * mmu_walk.h - the software page-table walker: the oracle of the RTL walker.
 *
 * mmu_walk() translates one GPU VA exactly as the hardware must, reading the
 * tables through struct mmu_mem_ops.  The order of the checks below is the
 * hardware contract: the RTL walker must check in the same order, and a
 * mismatch in the fault, level, entry or read count is a bug in one of the two.
 *
 * For each level l = 0 .. 2 (PDE), reading the entry mmu_pt_index(va, l) of
 * the current table (the root register for l = 0):
 *   1. the read fails                       -> WALK_ERROR at level l
 *   2. V = 0                                -> PDE_INVALID at level l
 *      (V is checked first: the other bits of a PDE with V=0 belong to
 *      software and are not looked at, so V=0 plus reserved bits is
 *      PDE_INVALID, not RESERVED; the hardware needs bit 0 alone to stop)
 *   3. any GPU_PDE_RESERVED bit set         -> RESERVED at level l
 *   4. next table = (SYS ? SYSMEM_BASE : VRAM_BASE) + (ADDR << 12)
 * At level 3 (PTE):
 *   1. the read fails                       -> WALK_ERROR at level 3
 *   2. any GPU_PTE_RESERVED bit set         -> RESERVED, whatever V and PRT
 *      (a V=0 PTE has two meanings, null tile and invalid: a malformed one
 *      must fault, never silently read as zero)
 *   3. V = 0, PRT = 1                       -> no fault, null tile: reads
 *      return zero, writes are dropped; R, W, SYS, FRAG64K, ADDR ignored
 *   4. V = 0, PRT = 0                       -> PTE_INVALID
 *   5. V = 1 (PRT is ignored): pa = (SYS ? SYSMEM_BASE : VRAM_BASE) +
 *      (ADDR << 12) + VA[11:0]; a read without R -> NO_READ, a write
 *      without W -> NO_WRITE (a write does not need R), else no fault.
 *      frag64k = FRAG64K: the TLB may cache one 64 KiB entry, tag VA[47:16],
 *      PA base pa & ~0xffff.  The builder guarantees the 16 PTEs of such a
 *      block agree; if hand-written tables break that, which of them the
 *      TLB caches decides the translation (undefined for software; the
 *      hardware's fill replaces the entries it overlaps, so the page's last
 *      walk decides, and a lookup never matches two entries).
 * A PDE's reserved bits are not checked before its V bit; a PTE's are.
 */
#ifndef MMU_WALK_H
#define MMU_WALK_H

#include <stdbool.h>
#include <stdint.h>

#include "gpu_hw.h"
#include "mmu_pt.h"

/* The verdict of one walk. */
struct mmu_xlate {
	enum gpu_mmu_fault fault;  /* GPU_FLT_NONE also for a null tile */
	unsigned int level;        /* 0..3: level of the entry that decided (or whose read failed) */
	uint64_t pa;               /* with a V=1 PTE (NONE, NO_READ, NO_WRITE): the byte's PA; else 0 */
	uint64_t entry;            /* the PDE/PTE that decided; 0 on WALK_ERROR */
	uint64_t entry_pa;         /* where that entry is (the failed read's address on WALK_ERROR) */
	unsigned int reads;        /* table reads issued, a failed one included: level + 1 */
	bool null_tile;            /* a V=0 PRT=1 PTE: reads return zero, writes are dropped */
	bool frag64k;              /* a V=1 PTE with FRAG64K (also with NO_READ/NO_WRITE) */
};

/*
 * Translate @va for a read (or a write when @write) through the tables
 * rooted at @root_pa (4 KiB aligned, below 2^48), filling *out.
 * Returns GM_OK whenever the walk ran, also when the translation faults: the
 * fault is data in out->fault.  GM_ERR_BAD_ARG for a NULL @ops, ops->read or
 * @out, va >= 2^48 or a bad root; then *out is untouched and nothing is
 * read.  Only ops->read is used.
 */
int mmu_walk(const struct mmu_mem_ops *ops, void *ctx, uint64_t root_pa, uint64_t va, bool write,
	     struct mmu_xlate *out);

#endif /* MMU_WALK_H */
