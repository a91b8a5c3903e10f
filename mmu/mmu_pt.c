// SPDX-License-Identifier: MIT
/*
 * mmu_pt.c - page-table entry encoding and the page-table builder.
 *
 * Every builder operation runs in two phases: first every argument is
 * checked and every table the range needs is allocated and linked (a
 * zeroed table changes no translation), then the PTEs are written, one
 * write per leaf table.  So running out of tables never leaves a range
 * half mapped.
 */
#include "mmu_pt.h"

#define ADDR_FIELD GPU_PTE_ADDR(GPU_PTE_ADDR_MASK)   /* the ADDR bits of a PTE */

/* Read-only zeros to clear a fresh table with one write. */
static const uint8_t zero_table[MMU_TABLE_BYTES];

/* ---- entry format ------------------------------------------------------ */

static uint64_t mem_base(bool sys)
{
	return sys ? GPU_SYSMEM_BASE : GPU_VRAM_BASE;
}

/* True when [pa, pa + size) lies in the memory @sys selects (size > 0). */
static bool pa_in_memory(uint64_t pa, uint64_t size, bool sys)
{
	uint64_t base = mem_base(sys);

	return pa >= base && pa - base < MMU_APERTURE_BYTES &&
	       size <= MMU_APERTURE_BYTES - (pa - base);
}

/* The 4 KiB frame number of @pa inside the memory @sys selects. */
static uint64_t pa_frame(uint64_t pa, bool sys)
{
	return (pa - mem_base(sys)) >> GPU_PAGE_SHIFT;
}

int mmu_pte_encode(const struct mmu_pte *f, uint64_t *pte)
{
	if (!f || !pte || (f->pa & (MMU_PAGE_SIZE - 1)) || !pa_in_memory(f->pa, 1, f->sys))
		return GM_ERR_BAD_ARG;
	*pte = GPU_PTE_V(f->v) | GPU_PTE_SYS(f->sys) | GPU_PTE_R(f->r) | GPU_PTE_W(f->w) |
	       GPU_PTE_PRT(f->prt) | GPU_PTE_FRAG64K(f->frag64k) |
	       GPU_PTE_ADDR(pa_frame(f->pa, f->sys));
	return GM_OK;
}

void mmu_pte_decode(uint64_t pte, struct mmu_pte *f)
{
	f->v = GPU_PTE_V_GET(pte);
	f->sys = GPU_PTE_SYS_GET(pte);
	f->r = GPU_PTE_R_GET(pte);
	f->w = GPU_PTE_W_GET(pte);
	f->prt = GPU_PTE_PRT_GET(pte);
	f->frag64k = GPU_PTE_FRAG64K_GET(pte);
	f->pa = mem_base(f->sys) + (GPU_PTE_ADDR_GET(pte) << GPU_PAGE_SHIFT);
}

int mmu_pde_encode(const struct mmu_pde *f, uint64_t *pde)
{
	if (!f || !pde || (f->pa & (MMU_TABLE_BYTES - 1)) || !pa_in_memory(f->pa, 1, f->sys))
		return GM_ERR_BAD_ARG;
	*pde = GPU_PDE_V(f->v) | GPU_PDE_SYS(f->sys) | GPU_PDE_ADDR(pa_frame(f->pa, f->sys));
	return GM_OK;
}

void mmu_pde_decode(uint64_t pde, struct mmu_pde *f)
{
	f->v = GPU_PDE_V_GET(pde);
	f->sys = GPU_PDE_SYS_GET(pde);
	f->pa = mem_base(f->sys) + (GPU_PDE_ADDR_GET(pde) << GPU_PAGE_SHIFT);
}

/* ---- table access ------------------------------------------------------ */

static bool pt_ok(const struct mmu_pt *pt)
{
	return pt && pt->ops && pt->ops->read && pt->ops->write && pt->ops->alloc_table;
}

/* size > 0, both ends aligned to @align, inside the VA space. */
static bool va_range_ok(uint64_t va, uint64_t size, uint64_t align)
{
	return size && !(va & (align - 1)) && !(size & (align - 1)) &&
	       va < MMU_VA_LIMIT && size <= MMU_VA_LIMIT - va;
}

static uint64_t entry_pa(uint64_t table_pa, uint64_t va, unsigned int level)
{
	return table_pa + (uint64_t)mmu_pt_index(va, level) * MMU_ENTRY_BYTES;
}

static int read_entry(const struct mmu_pt *pt, uint64_t pa, uint64_t *val)
{
	uint8_t b[MMU_ENTRY_BYTES];
	int st = pt->ops->read(pt->ctx, pa, b, sizeof(b));

	if (st == GM_OK)
		*val = mmu_entry_get(b);
	return st;
}

static int write_entry(const struct mmu_pt *pt, uint64_t pa, uint64_t val)
{
	uint8_t b[MMU_ENTRY_BYTES];

	mmu_entry_put(b, val);
	return pt->ops->write(pt->ctx, pa, b, sizeof(b));
}

/*
 * A zeroed table from the allocator and the PDE that points at it.  A table
 * no PDE can reach is refused (GM_ERR_BAD_ARG): the allocator is broken.
 */
static int new_table(const struct mmu_mem_ops *ops, void *ctx, uint64_t *table_pa,
		     uint64_t *pde)
{
	struct mmu_pde f = { .v = true };
	uint64_t pa;
	int st;

	st = ops->alloc_table(ctx, &pa);
	if (st != GM_OK)
		return st;
	f.pa = pa;
	f.sys = !pa_in_memory(pa, MMU_TABLE_BYTES, false);
	if (!pa_in_memory(pa, MMU_TABLE_BYTES, f.sys) || mmu_pde_encode(&f, pde) != GM_OK)
		return GM_ERR_BAD_ARG;
	st = ops->write(ctx, pa, zero_table, sizeof(zero_table));
	if (st != GM_OK)
		return st;
	*table_pa = pa;
	return GM_OK;
}

/*
 * The table at @level + 1 under the level-@level entry of @va in @table_pa.
 * When that PDE has V=0: MMU_NO_ENTRY, or with @alloc a new linked table.
 */
static int next_table(const struct mmu_pt *pt, uint64_t table_pa, uint64_t va,
		      unsigned int level, bool alloc, uint64_t *next_pa)
{
	uint64_t epa = entry_pa(table_pa, va, level);
	struct mmu_pde f;
	uint64_t pde;
	int st;

	st = read_entry(pt, epa, &pde);
	if (st != GM_OK)
		return st;
	mmu_pde_decode(pde, &f);
	if (f.v) {
		*next_pa = f.pa;
		return GM_OK;
	}
	if (!alloc) {
		*next_pa = MMU_NO_ENTRY;
		return GM_OK;
	}
	st = new_table(pt->ops, pt->ctx, &f.pa, &pde);
	if (st != GM_OK)
		return st;
	st = write_entry(pt, epa, pde);
	if (st == GM_OK)
		*next_pa = f.pa;
	return st;
}

/* The level-@level table on the path of @va (the root for level 0), or
 * MMU_NO_ENTRY when missing and not @alloc. */
static int find_table(const struct mmu_pt *pt, uint64_t va, unsigned int level, bool alloc,
		      uint64_t *table_pa)
{
	uint64_t t = pt->root_pa;
	unsigned int l;
	int st;

	for (l = 0; l < level && t != MMU_NO_ENTRY; l++) {
		st = next_table(pt, t, va, l, alloc, &t);
		if (st != GM_OK)
			return st;
	}
	*table_pa = t;
	return GM_OK;
}

/* ---- range operations -------------------------------------------------- */

/* Phase 1: every leaf table of [va, va + size) exists and is linked. */
static int prepare_tables(const struct mmu_pt *pt, uint64_t va, uint64_t size)
{
	uint64_t end = va + size;
	uint64_t t;
	int st;

	for (va &= ~(MMU_LEAF_SPAN - 1); va < end; va += MMU_LEAF_SPAN) {
		st = find_table(pt, va, MMU_LEAF_LEVEL, true, &t);
		if (st != GM_OK)
			return st;
	}
	return GM_OK;
}

/* Clear FRAG64K in all PTEs of the 64 KiB block at @block_va if any has it. */
static int unfrag_block(const struct mmu_pt *pt, uint64_t block_va)
{
	uint8_t b[MMU_FRAG_PAGES * MMU_ENTRY_BYTES];
	uint64_t leaf, pa, pte;
	bool frag = false;
	unsigned int i;
	int st;

	st = find_table(pt, block_va, MMU_LEAF_LEVEL, false, &leaf);
	if (st != GM_OK || leaf == MMU_NO_ENTRY)
		return st;
	pa = entry_pa(leaf, block_va, MMU_LEAF_LEVEL);
	st = pt->ops->read(pt->ctx, pa, b, sizeof(b));
	if (st != GM_OK)
		return st;
	for (i = 0; i < MMU_FRAG_PAGES; i++) {
		pte = mmu_entry_get(&b[i * MMU_ENTRY_BYTES]);
		frag |= GPU_PTE_FRAG64K_GET(pte);
		mmu_entry_put(&b[i * MMU_ENTRY_BYTES], pte & ~GPU_PTE_FRAG64K(1));
	}
	return frag ? pt->ops->write(pt->ctx, pa, b, sizeof(b)) : GM_OK;
}

/* Break the fragments that [va, va + size) covers only in part. */
static int unfrag_edges(const struct mmu_pt *pt, uint64_t va, uint64_t size)
{
	uint64_t end = va + size;
	uint64_t head = va & ~(MMU_FRAG_SIZE - 1);
	uint64_t tail = (end - 1) & ~(MMU_FRAG_SIZE - 1);
	int st;

	if (va != head || end < head + MMU_FRAG_SIZE) {
		st = unfrag_block(pt, head);
		if (st != GM_OK)
			return st;
	}
	if (tail != head && end != tail + MMU_FRAG_SIZE)
		return unfrag_block(pt, tail);
	return GM_OK;
}

/* The PTE of page @i of a range whose first PTE is @pte0; with @step the
 * frame advances one per page. */
static uint64_t nth_pte(uint64_t pte0, uint64_t i, bool step)
{
	if (!step)
		return pte0;
	return (pte0 & ~ADDR_FIELD) | GPU_PTE_ADDR(GPU_PTE_ADDR_GET(pte0) + i);
}

/*
 * Phase 2: write the PTEs of [va, va + size), one write per leaf table.
 * Leaf tables that do not exist are skipped (only NOACCESS meets any).
 */
static int fill_ptes(const struct mmu_pt *pt, uint64_t va, uint64_t size, uint64_t pte0,
		     bool step)
{
	uint8_t b[MMU_TABLE_BYTES];
	uint64_t end = va + size;
	uint64_t done = 0;
	uint64_t leaf, n, i;
	int st;

	while (va < end) {
		n = MMU_PT_ENTRIES - mmu_pt_index(va, MMU_LEAF_LEVEL);
		if (n > (end - va) >> GPU_PAGE_SHIFT)
			n = (end - va) >> GPU_PAGE_SHIFT;
		st = find_table(pt, va, MMU_LEAF_LEVEL, false, &leaf);
		if (st != GM_OK)
			return st;
		if (leaf != MMU_NO_ENTRY) {
			for (i = 0; i < n; i++)
				mmu_entry_put(&b[i * MMU_ENTRY_BYTES], nth_pte(pte0, done + i, step));
			st = pt->ops->write(pt->ctx, entry_pa(leaf, va, MMU_LEAF_LEVEL), b,
					    n * MMU_ENTRY_BYTES);
			if (st != GM_OK)
				return st;
		}
		va += n << GPU_PAGE_SHIFT;
		done += n;
	}
	return GM_OK;
}

/* Both phases, for a range whose arguments are already checked. */
static int write_range(const struct mmu_pt *pt, uint64_t va, uint64_t size, uint64_t pte0,
		       bool step, bool alloc)
{
	int st;

	if (alloc) {
		st = prepare_tables(pt, va, size);
		if (st != GM_OK)
			return st;
	}
	st = unfrag_edges(pt, va, size);
	if (st != GM_OK)
		return st;
	return fill_ptes(pt, va, size, pte0, step);
}

/* ---- public API -------------------------------------------------------- */

int mmu_pt_init(struct mmu_pt *pt, const struct mmu_mem_ops *ops, void *ctx)
{
	uint64_t root, pde;
	int st;

	if (!pt || !ops || !ops->read || !ops->write || !ops->alloc_table)
		return GM_ERR_BAD_ARG;
	st = new_table(ops, ctx, &root, &pde);
	if (st != GM_OK)
		return st;
	pt->ops = ops;
	pt->ctx = ctx;
	pt->root_pa = root;
	return GM_OK;
}

int mmu_pt_map(struct mmu_pt *pt, uint64_t va, uint64_t size, uint64_t pa, unsigned int flags)
{
	bool frag = flags & MMU_MAP_FRAG64K;
	uint64_t align = frag ? MMU_FRAG_SIZE : MMU_PAGE_SIZE;
	struct mmu_pte f = {
		.pa = pa,
		.v = true,
		.sys = flags & MMU_MAP_SYS,
		.r = flags & MMU_MAP_R,
		.w = flags & MMU_MAP_W,
		.frag64k = frag,
	};
	uint64_t pte0;

	if (!pt_ok(pt) || (flags & ~MMU_MAP_ALL) || !va_range_ok(va, size, align) ||
	    (pa & (align - 1)) || !pa_in_memory(pa, size, f.sys) ||
	    mmu_pte_encode(&f, &pte0) != GM_OK)
		return GM_ERR_BAD_ARG;
	return write_range(pt, va, size, pte0, true, true);
}

int mmu_pt_unmap(struct mmu_pt *pt, uint64_t va, uint64_t size, enum mmu_unmap_mode mode)
{
	bool zero = mode == MMU_UNMAP_ZERO;

	if (!pt_ok(pt) || (mode != MMU_UNMAP_ZERO && mode != MMU_UNMAP_NOACCESS) ||
	    !va_range_ok(va, size, MMU_PAGE_SIZE))
		return GM_ERR_BAD_ARG;
	return write_range(pt, va, size, GPU_PTE_PRT(zero), false, zero);
}

int mmu_pt_set_pte(struct mmu_pt *pt, uint64_t va, uint64_t pte)
{
	uint64_t leaf;
	int st;

	if (!pt_ok(pt) || va >= MMU_VA_LIMIT)
		return GM_ERR_BAD_ARG;
	st = find_table(pt, va, MMU_LEAF_LEVEL, true, &leaf);
	if (st != GM_OK)
		return st;
	return write_entry(pt, entry_pa(leaf, va, MMU_LEAF_LEVEL), pte);
}

int mmu_pt_get_pte(const struct mmu_pt *pt, uint64_t va, uint64_t *pte)
{
	uint64_t epa;
	int st;

	if (!pte)
		return GM_ERR_BAD_ARG;
	st = mmu_pt_lookup(pt, va, MMU_LEAF_LEVEL, &epa);
	if (st != GM_OK)
		return st;
	if (epa == MMU_NO_ENTRY) {
		*pte = 0;
		return GM_OK;
	}
	return read_entry(pt, epa, pte);
}

int mmu_pt_lookup(const struct mmu_pt *pt, uint64_t va, unsigned int level, uint64_t *entry)
{
	uint64_t t;
	int st;

	if (!pt_ok(pt) || !entry || va >= MMU_VA_LIMIT || level > MMU_LEAF_LEVEL)
		return GM_ERR_BAD_ARG;
	st = find_table(pt, va, level, false, &t);
	if (st != GM_OK)
		return st;
	*entry = t == MMU_NO_ENTRY ? MMU_NO_ENTRY : entry_pa(t, va, level);
	return GM_OK;
}
