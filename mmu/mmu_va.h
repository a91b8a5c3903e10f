/* SPDX-License-Identifier: MIT */
/*
 * mmu_va.h - GPU virtual-address reservation (pfnReserveGpuVirtualAddressCb,
 * d3dumddi.h).
 *
 * A space is the VA range [min, max); reservations are disjoint ranges in
 * it.  Every base and size is a multiple of MMU_VA_ALIGN (64 KiB, the
 * fragment size, so any reservation can be mapped with FRAG64K).  Ranges
 * may touch (one's end is the next one's base) but not overlap.
 *
 * The reservations are kept in an array sorted by base: a fixed-base
 * reservation or a release is a binary search and one memmove, a
 * reserve-anywhere is a first-fit scan.  Fine for tens of thousands.
 *
 * Not thread-safe; no globals.
 */
#ifndef MMU_VA_H
#define MMU_VA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gm_status.h"
#include "gpu_hw.h"

#define MMU_VA_ALIGN (1ull << GPU_FRAG_SHIFT)   /* bytes */

struct mmu_va_range {
	uint64_t base;
	uint64_t size;   /* bytes */
};

/* Read-only to callers. */
struct mmu_va_space {
	uint64_t min, max;          /* the space [min, max) */
	struct mmu_va_range *r;     /* reservations, sorted by base, disjoint */
	size_t n;                   /* reservations held */
	size_t cap;                 /* room in r */
};

/*
 * Make @vs an empty space [@min, @max): both MMU_VA_ALIGN aligned,
 * min < max <= 2^48.  GM_ERR_BAD_ARG otherwise (*vs untouched).
 */
int mmu_va_init(struct mmu_va_space *vs, uint64_t min, uint64_t max) GM_MUST_CHECK;

/* Drop every reservation and free the array; @vs may be re-initialised. */
void mmu_va_fini(struct mmu_va_space *vs);

/*
 * Reserve [@base, @base + @size).  GM_ERR_BAD_ARG when base or size is not
 * aligned, size is 0 or the range is not inside the space; GM_ERR_BUSY when
 * it overlaps a reservation; GM_ERR_NO_MEM when the array cannot grow.
 * On error nothing changed.
 */
int mmu_va_reserve(struct mmu_va_space *vs, uint64_t base, uint64_t size) GM_MUST_CHECK;

/*
 * Reserve @size bytes at the lowest free base in [@lo, @hi) (first fit: the
 * range lies wholly in [lo, hi)) and store the base in *base.
 * GM_ERR_BAD_ARG when lo, hi or size is not aligned, size is 0, lo >= hi,
 * or [lo, hi) is not inside the space; GM_ERR_NO_MEM when no hole of
 * [lo, hi) is large enough (size > hi - lo included) or the array cannot
 * grow.  On error nothing changed and *base is untouched.
 */
int mmu_va_reserve_in(struct mmu_va_space *vs, uint64_t lo, uint64_t hi, uint64_t size,
		      uint64_t *base) GM_MUST_CHECK;

/*
 * Release the reservation that starts at @base.  GM_ERR_BAD_ARG (nothing
 * changed) when no reservation starts there, an address inside one
 * included.
 */
int mmu_va_release(struct mmu_va_space *vs, uint64_t base) GM_MUST_CHECK;

/* True when [@va, @va + @size) (size > 0) lies inside one reservation. */
bool mmu_va_contains(const struct mmu_va_space *vs, uint64_t va, uint64_t size);

#endif /* MMU_VA_H */
