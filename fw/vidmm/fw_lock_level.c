/* SPDX-License-Identifier: MIT */
/*
 * fw_lock_level.c - Lock of a surface's MIP levels one call at a time
 * (pfnLockCb: "the user-mode driver can acquire several swizzling ranges
 * for one allocation by calling pfnLockCb, e.g. one per MIP level; when
 * one of them cannot be acquired, the allocation is evicted to serve the
 * lock, all its MIP levels, and every swizzling range is reclaimed").
 *
 * PrivateDriverData = 1 + the level (fw_lock.h).  The first such lock
 * takes a window for the whole allocation and one range for its level
 * (fw_lock.c); each later one maps its level through another free range at
 * its offset in that window.  When none is free, every range of the
 * allocation is unmapped, the copy fallback copies the whole allocation,
 * every level, unswizzled into a staging copy, and one of the reclaimed
 * ranges maps that copy linearly over the same window: the pData given for
 * the levels before still reach their level, now in the copy, and Unlock
 * writes it back swizzled.
 */
#include <inttypes.h>

#include "fw_lock.h"
#include "fw_lock_int.h"
#include "gpu_hw.h"

/* The levels locked so far through @a's entries. */
static uint32_t levels_held(const struct fw_kmd *k, const struct fw_alloc *a)
{
	uint32_t m = 0;

	for (unsigned r = 0; r < GPU_APT_RANGES; r++)
		if (k->lk->apt[r].a == a)
			m |= k->lk->apt[r].levels;
	for (unsigned r = 0; r < FW_KMD_RAW_LOCKS; r++)
		if (k->lk->raw[r].a == a)
			m |= k->lk->raw[r].levels;
	return m;
}

/*
 * No range for the next level of @l's allocation: reclaim its ranges and
 * serve every level by the copy fallback in free entry @raw, viewed through
 * the first reclaimed range at the window.  On error after the ranges were
 * unmapped the lock is gone (the allocation unpinned).
 */
static int evict_levels(struct fw_kmd *k, struct fw_lock_range *l, struct fw_lock_range *raw,
			uint32_t levels)
{
	struct fw_lock_range p = *l;
	struct fw_alloc *a = p.a;
	struct fw_lock_args whole = { .hAllocation = p.handle, .Flags = p.flags };
	unsigned r0 = GPU_APT_RANGES;
	int st = GM_OK;

	for (unsigned r = 0; !st && r < GPU_APT_RANGES; r++) {
		if (k->lk->apt[r].a != a)
			continue;
		st = fw_apt_unmap(k->d, r);
		if (st)
			return st; /* the ones before are unmapped: a register refused */
		k->lk->apt[r] = (struct fw_lock_range){ 0 };
		r0 = r < r0 ? r : r0;
	}
	a->pinned = a->d.pinned;
	FW_KMD_LOG(k, "lock: no range for another MIP level: the allocation's ranges reclaimed,"
		   " every level copied\n");
	st = fw_lock_copy(k, a, p.dev, p.handle, &whole, raw);
	if (!st)
		st = fw_lock_map_linear(k, r0, p.win, a->d.size, raw->win);
	if (st) {
		if (raw->a)
			fw_lock_copy_drop(k, raw);
		*raw = (struct fw_lock_range){ 0 };
		a->pinned = a->d.pinned;
		return st;
	}
	k->lk->apt[r0] = (struct fw_lock_range){ .a = a, .dev = p.dev, .handle = p.handle,
					     .flags = p.flags, .win = p.win, .view = true };
	raw->view_range = r0 + 1;
	raw->levels = levels;
	FW_KMD_LOG(k, "lock: range %u shows the copy at window 0x%" PRIx64 "\n", r0, p.win);
	return GM_OK;
}

int fw_lock_level_add(struct fw_kmd *k, struct fw_lock_range *l, struct fw_device *dev,
		      struct fw_lock_args *x)
{
	struct fw_alloc *a = l->a;
	unsigned lv = x->PrivateDriverData - 1, r;
	uint32_t bit = 1u << lv, held = levels_held(k, a);
	struct level v = level_of(a, lv);
	uint64_t win = l->view_range ? k->lk->apt[l->view_range - 1].win : l->win;
	struct fw_lock_range *raw;
	int st;

	/* the same device, a lock of levels, not this one yet */
	if (l->dev != dev || !held || (held & bit) || x->hAllocation != l->handle)
		return GM_ERR_BAD_ARG;
	if (l->copy) {
		l->levels |= bit;
	} else {
		r = fw_lock_range_free(k, 0);
		if (r < GPU_APT_RANGES) {
			st = fw_apt_map(k->d, r, (uint32_t)(win + v.off),
					(uint32_t)(win + v.off + v.bytes), a->loc.addr + v.off,
					a->d.tile, a->d.bpe_log2, v.pitch);
			if (st)
				return st;
			k->lk->apt[r] = *l;
			k->lk->apt[r].levels = bit;
			FW_KMD_LOG(k, "lock: MIP level %u through range %u\n", lv, r);
		} else {
			/* Serving the lock now means evicting @a (range_pick's rules). */
			if (a->d.pinned && !(x->Flags & FW_LOCK_DONOTEVICT))
				return GM_ERR_PINNED;
			if (x->Flags & FW_LOCK_DONOTEVICT)
				return GM_ERR_NOT_AVAILABLE;
			for (unsigned i = 0; i < nlevels(a); i++)
				if (level_of(a, i).bytes / level_of(a, i).pitch > 0xffffu)
					return GM_ERR_NOT_AVAILABLE;
			raw = fw_lock_raw_free(k);
			if (!raw)
				return GM_ERR_NO_MEM;
			st = evict_levels(k, l, raw, held | bit);
			if (st)
				return st;
		}
	}
	x->pData = win + v.off;
	return GM_OK;
}
