/* SPDX-License-Identifier: MIT */
/*
 * fw_residency.h - the residency books of the video memory manager: which
 * segment range each allocation occupies, and which to evict.
 *
 * Bookkeeping only: the paging layer (fw_paging.c) moves the bytes with
 * the copy engine.  fw_res_place/fw_res_evict keep the segment ranges and
 * the allocation's location in step; fw_res_pick_victims proposes what to
 * evict.  No GPU traffic, no globals.
 */
#ifndef FW_RESIDENCY_H
#define FW_RESIDENCY_H

#include "fw_res.h"

/*
 * Place @a in segment @seg_id: reserve a range there at a->align and make
 * it a's location (resident).  If @a was in another segment, that range is
 * freed and returned in *prev (else prev->seg_id is FW_SEG_NONE) so the
 * paging layer copies from it: the paging queue runs in order, so that copy
 * precedes any later write into the freed range.  @prev may be NULL.
 * GM_OK; GM_ERR_BAD_ARG (NULL, @a not of @ad, unknown segment, already in
 * that segment, CPU-visible @a in a segment the CPU cannot see, larger than
 * the segment); GM_ERR_BUSY (pinned and already placed); GM_ERR_FULL (no
 * room now: evict, see fw_res_pick_victims); GM_ERR_NO_MEM.  Nothing
 * changed on error.
 */
int fw_res_place(struct fw_adapter *ad, struct fw_alloc *a, unsigned seg_id, struct fw_loc *prev)
	GM_MUST_CHECK;

/*
 * Take @a out of its segment (its range is freed, it is in no segment);
 * the paging layer has copied what it must keep beforehand.  *prev (may be
 * NULL) gets the old location.  content_valid is left as it is.  GM_OK;
 * GM_ERR_BAD_ARG (NULL, @a not of @ad, not resident); GM_ERR_BUSY (pinned).
 * Nothing changed on error.
 */
int fw_res_evict(struct fw_adapter *ad, struct fw_alloc *a, struct fw_loc *prev) GM_MUST_CHECK;

/*
 * Choose what to evict from segment @seg_id to free at least @need bytes:
 * resident, unpinned allocations there that are not in @exclude (the
 * allocations the current submission references), least recently used
 * first (last_use, then creation order).  Moves nothing.  The bytes freed
 * may not be contiguous; the caller retries placement and asks again.
 * GM_OK, out[0..*nout) oldest first (*nout 0 when @need is 0);
 * GM_ERR_BAD_ARG (NULL where an array is needed, unknown segment, @need
 * larger than the segment); GM_ERR_BUSY (everything evictable together is
 * less than @need: the rest is pinned or referenced); GM_ERR_FULL (the
 * victims needed are more than @cap).  On error *nout and @out are not
 * written.
 */
int fw_res_pick_victims(const struct fw_adapter *ad, unsigned seg_id, uint64_t need,
			struct fw_alloc *const *exclude, size_t nexclude,
			struct fw_alloc **out, size_t cap, size_t *nout) GM_MUST_CHECK;

/*
 * Choose what to evict from segment @seg_id so that @bytes at @align (a
 * power of two) fit in one gap, as drm_mm's eviction scan does: take the
 * evictable allocations (as fw_res_pick_victims) least recently used first
 * until the lowest gap fw_seg_alloc would find, were they gone, holds the
 * request; the victims are only those of them inside that gap.  Never
 * more than the placement needs: a free byte count says nothing about
 * where the bytes are, and an eviction it did not need can fail for want
 * of room where it goes (the system segment).  Moves nothing.
 * GM_OK, out[0..*nout) oldest first: evicting them makes the placement
 * fit (*nout 0: it fits now); when they are more than @cap, the oldest
 * @cap of them, and the caller asks again after evicting those.
 * GM_ERR_BAD_ARG (NULL, @cap 0, unknown segment, @bytes 0 or larger than
 * the segment, a bad @align); GM_ERR_BUSY (even all evictable allocations
 * gone leave no such gap: the rest is pinned or referenced);
 * GM_ERR_NO_MEM (the host heap).  On error *nout and @out are not written.
 */
int fw_res_pick_hole(const struct fw_adapter *ad, unsigned seg_id, uint64_t bytes, uint64_t align,
		     struct fw_alloc *const *exclude, size_t nexclude, struct fw_alloc **out,
		     size_t cap, size_t *nout) GM_MUST_CHECK;

#endif /* FW_RESIDENCY_H */
