/* SPDX-License-Identifier: MIT */
/*
 * fw_lock.c - Lock and Unlock through the aperture (see fw_lock.h).
 */
#include <inttypes.h>

#include "fw_lock.h"
#include "fw_paging.h"
#include "fw_render.h"
#include "fw_sched.h"
#include "gpu_hw.h"

bool fw_lock_holds(const struct fw_kmd *k, const struct fw_alloc *a)
{
	for (unsigned r = 0; r < GPU_APT_RANGES; r++)
		if (k->apt[r].a == a)
			return true;
	return false;
}

/* A live lock holds some byte of window [@win, @end), whatever device holds
 * it: the lowest-numbered range would take the overlap's accesses. */
static bool window_taken(const struct fw_kmd *k, uint64_t win, uint64_t end)
{
	for (unsigned r = 0; r < GPU_APT_RANGES; r++) {
		const struct fw_lock_range *l = &k->apt[r];

		if (l->a && win < l->win + l->a->d.size && l->win < end)
			return true;
	}
	return false;
}

int fw_kmd_lock(struct fw_kmd *k, struct fw_device *dev, uint32_t handle, unsigned range,
		uint32_t win)
{
	struct fw_alloc *a;
	uint64_t end;
	int st = fw_render_resolve(k, dev, handle, &a);

	if (st)
		return st;
	end = (uint64_t)win + a->d.size;
	if (range >= GPU_APT_RANGES || k->apt[range].a || fw_lock_holds(k, a) ||
	    (win & 7u) || (a->d.pitch & 7u) || end > GPU_APT_WINDOW_BYTES ||
	    window_taken(k, win, end) || a->d.pitch > GPU_PKT_BLT_SRC_PITCH_MASK)
		return GM_ERR_BAD_ARG;
	/* The GPU is done with it (no DONOTWAIT here). */
	while (fw_sched_references(k, a)) {
		uint64_t t = gm_cycles(k->d->gm);

		st = fw_kmd_poll(k, k->cfg.tdr_cycles);
		if (st)
			return st;
		if (gm_cycles(k->d->gm) == t)
			return GM_ERR_TIMEOUT;
		if (fw_device_is_removed(dev))
			return GM_ERR_DEVICE_REMOVED;
	}
	st = fw_paging_bring_in(k, a);
	if (!st)
		st = fw_apt_map(k->d, range, win, (uint32_t)end, a->loc.addr, a->d.tile,
				a->d.bpe_log2, a->d.pitch);
	if (st)
		return st;
	a->pinned = true;
	a->content_valid = true;
	k->apt[range] = (struct fw_lock_range){ .a = a, .dev = dev, .handle = handle, .win = win };
	FW_KMD_LOG(k, "lock: %" PRIu64 " bytes at VRAM 0x%" PRIx64 " through aperture range %u"
		      " (window 0x%" PRIx32 ")\n", a->d.size, a->loc.addr, range, win);
	return GM_OK;
}

/* Unmap range @r and let go of its allocation: the pin back to what the
 * allocation was made with, the range free. */
static int range_release(struct fw_kmd *k, unsigned r)
{
	struct fw_lock_range *l = &k->apt[r];
	int st = fw_apt_unmap(k->d, r);

	if (st)
		return st;
	l->a->pinned = l->a->d.pinned;
	*l = (struct fw_lock_range){ 0 };
	return GM_OK;
}

int fw_kmd_unlock(struct fw_kmd *k, struct fw_device *dev, uint32_t handle, unsigned range)
{
	struct fw_alloc *a;
	int st = fw_render_resolve(k, dev, handle, &a);

	if (st)
		return st;
	/* Only the device that locked it (a shared allocation has several). */
	if (range >= GPU_APT_RANGES || k->apt[range].a != a || k->apt[range].dev != dev)
		return GM_ERR_BAD_ARG;
	return range_release(k, range);
}

/* Release the ranges @dev locked through @handle (0: through any handle);
 * the first refusal stops it. */
static int release_where(struct fw_kmd *k, const struct fw_device *dev, uint32_t handle)
{
	for (unsigned r = 0; r < GPU_APT_RANGES; r++) {
		const struct fw_lock_range *l = &k->apt[r];
		int st;

		if (!l->a || l->dev != dev || (handle && l->handle != handle))
			continue;
		st = range_release(k, r);
		if (st)
			return st;
	}
	return GM_OK;
}

int fw_lock_release_device(struct fw_kmd *k, const struct fw_device *dev)
{
	return release_where(k, dev, 0);
}

int fw_lock_release_handle(void *kmd, const struct fw_device *dev, uint32_t handle)
{
	return release_where(kmd, dev, handle);
}
