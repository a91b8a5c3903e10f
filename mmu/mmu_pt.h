/* SPDX-License-Identifier: MIT */
/*
 * mmu_pt.h - the GPU page-table format and the page-table builder.
 *
 * Format (the fields come from regspec/gpusim.json via gpu_hw.h):
 * a 48-bit GPU VA is resolved by GPU_PT_LEVELS tables of 512 eight-byte
 * little-endian entries each (one 4 KiB table).  Level 0 (the root, whose
 * physical address is in a per-VMID root register) down to level 2 hold
 * PDEs pointing at the next table; level 3 holds the PTE of a 4 KiB page.
 * Level l is indexed by VA bits [47-9l : 39-9l]: L0 = VA[47:39],
 * L1 = VA[38:30], L2 = VA[29:21], L3 = VA[20:12].
 * An entry's ADDR field is a 4 KiB frame number inside the memory its SYS
 * bit selects: PA = (SYS ? GPU_SYSMEM_BASE : GPU_VRAM_BASE) + (ADDR << 12).
 *
 * The builder writes tables through an abstract memory (struct
 * mmu_mem_ops), so the same code fills the model's VRAM, a test's host
 * arena or a firmware heap.  It keeps one invariant the TLB relies on: a
 * PTE with FRAG64K set is always one of the 16 PTEs of a 64 KiB-aligned VA
 * block that map a 64 KiB-aligned, physically contiguous block with
 * identical flags.  A non-fragment map or an unmap that covers only part of
 * such a block first clears FRAG64K in all 16 PTEs of the block (the pages
 * keep their translations, now as 4 KiB pages).  Only mmu_pt_set_pte() can
 * break the invariant, on purpose.
 *
 * Tables are never freed: a table, once linked, stays (unmapping only
 * rewrites PTEs).  The allocator owns table memory.
 *
 * Not thread-safe; no globals: any number of page tables may share one
 * memory.
 */
#ifndef MMU_PT_H
#define MMU_PT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gm_status.h"
#include "gpu_hw.h"

#define MMU_PAGE_SIZE (1ull << GPU_PAGE_SHIFT)      /* bytes */
#define MMU_FRAG_SIZE (1ull << GPU_FRAG_SHIFT)      /* bytes of a FRAG64K fragment */
#define MMU_FRAG_PAGES (MMU_FRAG_SIZE / MMU_PAGE_SIZE)
#define MMU_VA_LIMIT (1ull << GPU_PA_BITS)          /* first VA past the address space */
#define MMU_PA_LIMIT (1ull << GPU_PA_BITS)          /* first PA past the physical map */
#define MMU_PT_ENTRIES (1u << GPU_PT_LEVEL_BITS)    /* entries per table */
/* one PDE or PTE: a table of MMU_PT_ENTRIES entries fills one page */
#define MMU_ENTRY_BYTES ((unsigned int)(MMU_PAGE_SIZE >> GPU_PT_LEVEL_BITS))
#define MMU_TABLE_BYTES (MMU_PT_ENTRIES * MMU_ENTRY_BYTES)
#define MMU_LEAF_LEVEL ((unsigned int)GPU_PT_LEVELS - 1)
/* bytes one leaf table maps (2 MiB) */
#define MMU_LEAF_SPAN (MMU_PAGE_SIZE << GPU_PT_LEVEL_BITS)
/* bytes one ADDR field reaches inside its memory (VRAM or system memory) */
#define MMU_APERTURE_BYTES ((GPU_PTE_ADDR_MASK + 1) << GPU_PAGE_SHIFT)
/* "no such entry": not a PA any table can have (above MMU_PA_LIMIT) */
#define MMU_NO_ENTRY UINT64_MAX

_Static_assert(GPU_PAGE_SHIFT + GPU_PT_LEVELS * GPU_PT_LEVEL_BITS == GPU_PA_BITS,
	       "the levels must resolve exactly the VA width");
_Static_assert(MMU_ENTRY_BYTES == sizeof(uint64_t), "a PDE/PTE is 64 bits");
_Static_assert(GPU_PTE_ADDR_SHIFT == GPU_PAGE_SHIFT && GPU_PDE_ADDR_SHIFT == GPU_PAGE_SHIFT,
	       "ADDR fields hold 4 KiB frame numbers in place");
_Static_assert(GPU_PDE_ADDR_MASK == GPU_PTE_ADDR_MASK, "PDE and PTE reach the same memory");

/*
 * The memory the tables live in.  Each call returns an enum gm_status;
 * a failing read or write must not have written anything.
 *   read/write:  @len bytes at physical address @pa.
 *   alloc_table: hand out one 4 KiB-aligned table (its contents need not be
 *                zero: the builder zeroes it); GM_ERR_NO_MEM when none is left.
 *                Only the builder calls it; the walker needs just read.
 */
struct mmu_mem_ops {
	int (*read)(void *ctx, uint64_t pa, void *buf, size_t len);
	int (*write)(void *ctx, uint64_t pa, const void *buf, size_t len);
	int (*alloc_table)(void *ctx, uint64_t *pa);
};

/* A decoded PTE.  @pa is the full physical address of the page (frame
 * base, SYSMEM_BASE included when @sys). */
struct mmu_pte {
	uint64_t pa;
	bool v, sys, r, w, prt, frag64k;
};

/* A decoded PDE.  @pa is the full physical address of the next table. */
struct mmu_pde {
	uint64_t pa;
	bool v, sys;
};

/*
 * Encode @f into *pte.  GM_ERR_BAD_ARG (and *pte untouched) when f->pa is
 * not 4 KiB aligned or does not lie in the memory f->sys selects.
 */
int mmu_pte_encode(const struct mmu_pte *f, uint64_t *pte) GM_MUST_CHECK;

/* Decode every named field of @pte; reserved bits are ignored.  Never fails. */
void mmu_pte_decode(uint64_t pte, struct mmu_pte *f);

/* As mmu_pte_encode() for a PDE. */
int mmu_pde_encode(const struct mmu_pde *f, uint64_t *pde) GM_MUST_CHECK;

/* As mmu_pte_decode() for a PDE. */
void mmu_pde_decode(uint64_t pde, struct mmu_pde *f);

/* Index into the level-@level table of @va (level 0..MMU_LEAF_LEVEL). */
static inline unsigned int mmu_pt_index(uint64_t va, unsigned int level)
{
	unsigned int shift = GPU_PAGE_SHIFT + (MMU_LEAF_LEVEL - level) * GPU_PT_LEVEL_BITS;

	return (unsigned int)(va >> shift) & (MMU_PT_ENTRIES - 1);
}

/* The little-endian entry at @p. */
static inline uint64_t mmu_entry_get(const uint8_t *p)
{
	uint64_t v = 0;
	unsigned int i;

	for (i = 0; i < MMU_ENTRY_BYTES; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

/* Store @v at @p as a little-endian entry. */
static inline void mmu_entry_put(uint8_t *p, uint64_t v)
{
	unsigned int i;

	for (i = 0; i < MMU_ENTRY_BYTES; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* One page table (one VMID).  The fields are read-only to callers. */
struct mmu_pt {
	const struct mmu_mem_ops *ops;
	void *ctx;          /* passed to every op */
	uint64_t root_pa;   /* the L0 table: the value for the VMID's root register */
};

/* Access of a mapping; MMU_MAP_SYS says @pa lies in system memory. */
enum mmu_map_flags {
	MMU_MAP_R = 1u << 0,
	MMU_MAP_W = 1u << 1,
	MMU_MAP_SYS = 1u << 2,
	MMU_MAP_FRAG64K = 1u << 3,   /* write the range as 64 KiB fragments */
};

#define MMU_MAP_ALL (MMU_MAP_R | MMU_MAP_W | MMU_MAP_SYS | MMU_MAP_FRAG64K)

/* What an unmapped page does (D3D12 UpdateTileMappings: Zero / NoAccess). */
enum mmu_unmap_mode {
	MMU_UNMAP_NOACCESS,   /* V=0 PRT=0: any access faults PTE_INVALID */
	MMU_UNMAP_ZERO,       /* V=0 PRT=1: null tile, reads zero, writes dropped */
};

/*
 * Set up @pt over @ops/@ctx with a fresh, zeroed root table.
 * GM_ERR_BAD_ARG when a pointer or op is missing; the allocator's status
 * (GM_ERR_NO_MEM) when no table is left, and GM_ERR_BAD_ARG when it hands
 * out a table no PDE can point at (unaligned or outside both memories);
 * the status of a failing write.  On any error *pt is untouched (a root
 * the allocator handed out before a failed zeroing write is lost to it).
 */
int mmu_pt_init(struct mmu_pt *pt, const struct mmu_mem_ops *ops, void *ctx) GM_MUST_CHECK;

/*
 * Map VA [@va, @va + @size) to PA [@pa, @pa + @size) with @flags (enum
 * mmu_map_flags), replacing whatever was mapped there.
 *
 * @va, @size, @pa are 4 KiB aligned (64 KiB with MMU_MAP_FRAG64K), size > 0,
 * va + size <= 2^48, and the PA range lies inside the memory MMU_MAP_SYS
 * selects (@pa is a full physical address: with MMU_MAP_SYS it is at least
 * GPU_SYSMEM_BASE).  Otherwise GM_ERR_BAD_ARG and nothing was written.
 *
 * All missing tables are allocated and linked before any PTE is written.
 * GM_ERR_NO_MEM: no PTE was written, so every VA translates as before;
 * the tables linked before the failure stay (empty, reused by the next
 * call), so a VA that faulted PDE_INVALID may now fault deeper
 * (PDE_INVALID at a lower level, or PTE_INVALID).  A failing memory op:
 * its status is returned and the range may be partly written.
 */
int mmu_pt_map(struct mmu_pt *pt, uint64_t va, uint64_t size, uint64_t pa, unsigned int flags)
	GM_MUST_CHECK;

/*
 * Unmap VA [@va, @va + @size) (4 KiB aligned, size > 0, va + size <= 2^48)
 * as @mode.  MMU_UNMAP_ZERO writes null-tile PTEs, allocating tables like
 * mmu_pt_map() (same GM_ERR_NO_MEM contract).  MMU_UNMAP_NOACCESS never
 * allocates: where no leaf table exists the VA already faults (PDE_INVALID)
 * and is left so.  GM_ERR_BAD_ARG (nothing written) for a bad range or
 * mode; a failing memory op as for mmu_pt_map().
 */
int mmu_pt_unmap(struct mmu_pt *pt, uint64_t va, uint64_t size, enum mmu_unmap_mode mode)
	GM_MUST_CHECK;

/*
 * Write the raw leaf entry @pte for the page holding @va (any bits, the
 * reserved ones included: for tests and fault injection), allocating the
 * tables on its path.  Does not keep the FRAG64K invariant.
 * GM_ERR_BAD_ARG for va >= 2^48; otherwise as mmu_pt_map().
 */
int mmu_pt_set_pte(struct mmu_pt *pt, uint64_t va, uint64_t pte) GM_MUST_CHECK;

/*
 * Read the raw leaf entry of the page holding @va into *pte; 0 (which
 * decodes as V=0 PRT=0) when no leaf table exists on the path.
 * GM_ERR_BAD_ARG for va >= 2^48; a failing read's status.  *pte is set only
 * on GM_OK.  Nothing is ever written.
 */
int mmu_pt_get_pte(const struct mmu_pt *pt, uint64_t va, uint64_t *pte) GM_MUST_CHECK;

/*
 * The physical address of the level-@level entry (0: the root's PDE ..
 * MMU_LEAF_LEVEL: the PTE) on the path of @va, or MMU_NO_ENTRY when a PDE
 * above it has V=0.  PDEs with V=1 are followed whatever their reserved
 * bits.  GM_ERR_BAD_ARG for va >= 2^48 or level > MMU_LEAF_LEVEL; a failing
 * read's status.  *entry_pa is set only on GM_OK.  Nothing is written.
 */
int mmu_pt_lookup(const struct mmu_pt *pt, uint64_t va, unsigned int level, uint64_t *entry_pa)
	GM_MUST_CHECK;

#endif /* MMU_PT_H */
