/* SPDX-License-Identifier: MIT */
/*
 * fw_lock_int.h - what fw_lock.c (Lock, Unlock, ranges, Discard) and
 * fw_lock_copy.c (the copy fallback) share.  Not for the rest of the
 * driver: fw_lock.h is the contract.
 */
#ifndef FW_LOCK_INT_H
#define FW_LOCK_INT_H

#include "gpu_tile.h"
#include "fw_kmd_types.h"
#include "fw_lock.h"
#include "fw_paging.h"

/* MIP level @i of @a as the CPU sees it: @bytes (whole rows; a tiled
 * level's rows rounded up to whole tiles) of rows of @pitch bytes from byte
 * @off.  Without MIP levels, level 0 is the whole surface. */
struct level {
	uint64_t off, bytes;
	uint32_t pitch;
};

static inline unsigned nlevels(const struct fw_alloc *a)
{
	return a->d.mip_levels >= 2 ? a->d.mip_levels : 1;
}

static inline struct level level_of(const struct fw_alloc *a, unsigned i)
{
	const struct fw_mip *m = &a->d.mip[i];
	uint64_t bytes;

	if (a->d.mip_levels < 2)
		return (struct level){ 0, a->d.size / a->d.pitch * a->d.pitch, a->d.pitch };
	if (gpu_tile_surface_bytes(a->d.tile, a->d.bpe_log2, m->pitch, m->height, &bytes))
		bytes = 0; /* not after fw_res_create's check */
	return (struct level){ m->offset, bytes, m->pitch };
}

/* Residency's "no room" is the caller's out-of-memory. */
static inline int lock_bring_in(struct fw_kmd *k, struct fw_alloc *a)
{
	int st = fw_paging_bring_in(k, a);

	return st == GM_ERR_BUSY || st == GM_ERR_FULL ? GM_ERR_NO_MEM : st;
}

/* The live lock of @a: a range's (the first), a raw one's or a copy's;
 * NULL: not locked (a view entry is not a lock). */
/* Wait until no pending submission uses @a (writes it: @writes_only) and
 * the paging queue is done.  GM_OK; GM_ERR_DEVICE_REMOVED (@dev removed on
 * the way); GM_ERR_TIMEOUT (nothing moves); the codes of fw_kmd_poll and
 * fw_paging_wait. */
int fw_lock_wait_idle(struct fw_kmd *k, const struct fw_device *dev, const struct fw_alloc *a,
		      bool writes_only) GM_MUST_CHECK;

struct fw_lock_range *fw_lock_of(struct fw_kmd *k, const struct fw_alloc *a);

/* The first free range from @after on, or GPU_APT_RANGES: none. */
unsigned fw_lock_range_free(const struct fw_kmd *k, unsigned after);

/* A free raw entry; NULL: none. */
struct fw_lock_range *fw_lock_raw_free(struct fw_kmd *k);

/* Map range @r linearly: window bytes [@win, @win + @bytes) show the bytes
 * from physical address @base on (rows of FW_LOCK_VIEW_PITCH: below 2^16
 * of them in the 256 MiB window).  GM_OK; GM_ERR_HW (the register refused). */
#define FW_LOCK_VIEW_PITCH 4096u
int fw_lock_map_linear(struct fw_kmd *k, unsigned r, uint64_t win, uint64_t bytes, uint64_t base)
	GM_MUST_CHECK;

/* A lock of one more MIP level (@x->PrivateDriverData = 1 + the level) of
 * the allocation @l locks, level by level (fw_lock_level.c).  The codes of
 * fw_kmd_lock_cb; @x->pData written on success. */
int fw_lock_level_add(struct fw_kmd *k, struct fw_lock_range *l, struct fw_device *dev,
		      struct fw_lock_args *x) GM_MUST_CHECK;

/* The copy fallback: book free entry @l as a copy lock of @a and copy its
 * pages (@x's page list, or all) to the staging copy.  On error nothing
 * held.  GM_ERR_NO_MEM; the codes of the paging queue. */
int fw_lock_copy(struct fw_kmd *k, struct fw_alloc *a, struct fw_device *dev, uint32_t h,
		 const struct fw_lock_args *x, struct fw_lock_range *l) GM_MUST_CHECK;

/* Copy @l's pages between the allocation and its staging copy (@in: to the
 * copy) and wait for the paging queue. */
int fw_lock_copy_pages(struct fw_kmd *k, const struct fw_lock_range *l, bool in) GM_MUST_CHECK;

/* Free what copy lock @l holds besides its entry: the staging copy, the page list. */
void fw_lock_copy_drop(struct fw_kmd *k, struct fw_lock_range *l);

#endif /* FW_LOCK_INT_H */
