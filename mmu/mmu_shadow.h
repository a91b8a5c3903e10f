/* SPDX-License-Identifier: MIT */
/*
 * mmu_shadow.h - a host-memory shadow of the page-table pool in VRAM.
 *
 * Once the device is up the CPU never writes page-table memory: the GPU
 * does, with PTE_WRITE packets (mmu_update.h computes them).  The driver
 * keeps a copy of the table pool in host memory, [base, base + bytes) of
 * the physical map, builds and walks the tables there through
 * mmu_shadow_ops (a struct mmu_mem_ops), and has the GPU write the
 * difference.  The shadow's contents equal the pool's as long as every
 * change to one reaches the other: mmu_update_apply() changes the shadow
 * and hands back the runs that make the same change in VRAM.
 *
 * Tables come from the caller's table allocator; each must lie wholly in
 * the window.  Host bytes of a table not handed out yet are zero.
 *
 * Not thread-safe; no globals: any number of shadows may coexist.
 */
#ifndef MMU_SHADOW_H
#define MMU_SHADOW_H

#include <stdint.h>

#include "mmu_pt.h"

/* Read-only to callers, but for @mem, which they may read (e.g. to upload
 * the tables once, before the device runs). */
struct mmu_shadow {
	uint8_t *mem;       /* host copy of [base, base + bytes) */
	uint64_t base;      /* PA of mem[0] */
	uint64_t bytes;
	int (*alloc_table)(void *ctx, uint64_t *pa);  /* the caller's allocator */
	void *alloc_ctx;
};

/*
 * Shadow the window [@base, @base + @bytes) (both 4 KiB aligned, bytes > 0,
 * inside the 48-bit physical map) whose tables @alloc_table (contract of
 * struct mmu_mem_ops.alloc_table) hands out, called with @alloc_ctx.
 * GM_ERR_BAD_ARG for a bad window or a NULL pointer; GM_ERR_NO_MEM when the
 * host copy cannot be allocated.  On error *sh is untouched.
 */
int mmu_shadow_init(struct mmu_shadow *sh, uint64_t base, uint64_t bytes,
		    int (*alloc_table)(void *ctx, uint64_t *pa), void *alloc_ctx) GM_MUST_CHECK;

/* Free the host copy; @sh may be initialised again.  NULL is a no-op. */
void mmu_shadow_fini(struct mmu_shadow *sh);

/*
 * The memory ops over a shadow (ctx: the struct mmu_shadow).  read/write:
 * GM_ERR_ADDR (nothing copied) when [pa, pa + len) leaves the window.
 * alloc_table: the caller's allocator's status, or GM_ERR_ADDR when it hands
 * out a table that is unaligned or not wholly in the window (that table is
 * lost to the allocator: there is no way to give it back).
 */
extern const struct mmu_mem_ops mmu_shadow_ops;

#endif /* MMU_SHADOW_H */
