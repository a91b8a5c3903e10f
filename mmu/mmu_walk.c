// SPDX-License-Identifier: MIT
/*
 * mmu_walk.c - the software page-table walker (the check order is
 * documented in mmu_walk.h and is the hardware contract).
 */
#include <string.h>

#include "mmu_walk.h"

/* Level 0..2: decide on the PDE in x->entry; true with *table_pa set when
 * the walk goes on. */
static bool walk_pde(struct mmu_xlate *x, uint64_t *table_pa)
{
	struct mmu_pde f;

	if (!GPU_PDE_V_GET(x->entry)) {
		x->fault = GPU_FLT_PDE_INVALID;
		return false;
	}
	if (x->entry & GPU_PDE_RESERVED) {
		x->fault = GPU_FLT_RESERVED;
		return false;
	}
	mmu_pde_decode(x->entry, &f);
	*table_pa = f.pa;
	return true;
}

/* Level 3: decide on the PTE in x->entry. */
static void walk_pte(struct mmu_xlate *x, uint64_t va, bool write)
{
	struct mmu_pte f;

	if (x->entry & GPU_PTE_RESERVED) {
		x->fault = GPU_FLT_RESERVED;
		return;
	}
	mmu_pte_decode(x->entry, &f);
	if (!f.v) {
		x->null_tile = f.prt;
		x->fault = f.prt ? GPU_FLT_NONE : GPU_FLT_PTE_INVALID;
		return;
	}
	x->pa = f.pa + (va & (MMU_PAGE_SIZE - 1));
	x->frag64k = f.frag64k;
	if (write && !f.w)
		x->fault = GPU_FLT_NO_WRITE;
	else if (!write && !f.r)
		x->fault = GPU_FLT_NO_READ;
	else
		x->fault = GPU_FLT_NONE;
}

int mmu_walk(const struct mmu_mem_ops *ops, void *ctx, uint64_t root_pa, uint64_t va, bool write,
	     struct mmu_xlate *out)
{
	struct mmu_xlate x;
	uint64_t table = root_pa;
	uint8_t b[MMU_ENTRY_BYTES];

	if (!ops || !ops->read || !out || va >= MMU_VA_LIMIT || root_pa >= MMU_PA_LIMIT ||
	    (root_pa & (MMU_TABLE_BYTES - 1)))
		return GM_ERR_BAD_ARG;
	memset(&x, 0, sizeof(x));
	for (x.level = 0;; x.level++) {
		x.entry_pa = table + (uint64_t)mmu_pt_index(va, x.level) * MMU_ENTRY_BYTES;
		x.reads++;
		if (ops->read(ctx, x.entry_pa, b, sizeof(b)) != GM_OK) {
			x.entry = 0;
			x.fault = GPU_FLT_WALK_ERROR;
			break;
		}
		x.entry = mmu_entry_get(b);
		if (x.level == MMU_LEAF_LEVEL) {
			walk_pte(&x, va, write);
			break;
		}
		if (!walk_pde(&x, &table))
			break;
	}
	*out = x;
	return GM_OK;
}
