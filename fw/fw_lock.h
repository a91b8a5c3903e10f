/* SPDX-License-Identifier: MIT */
/*
 * fw_lock.h - Lock (the pfnLockCb role): CPU access to an allocation
 * through an aperture (BAR1) range with the allocation's own layout, so the
 * CPU reads and writes even a tiled surface linearly.
 *
 * A lock waits until no pending submission references the allocation (no
 * DONOTWAIT here), makes it resident (fw_paging.c), pins it and maps it;
 * eviction leaves a locked allocation alone until unlock.  One allocation
 * per range, one range per allocation, and no window byte in two live
 * locks (whatever devices hold them); only the device that locked it
 * unlocks it.  A lock ends with the handle it was made through: destroying
 * the resource (fw_res_destroy) or closing the device unlocks it, so no
 * range ever shows freed memory.
 */
#ifndef FW_LOCK_H
#define FW_LOCK_H

#include "fw_kmd_types.h"

/*
 * Lock: make the allocation resident and map it for the CPU through
 * aperture range @range at window offset @win; the CPU then reads and
 * writes it linearly with gm_apt_read/write.  GM_OK; GM_ERR_BAD_ARG (NULL,
 * a handle that does not resolve, @range out of range or in use, the
 * allocation already locked, @win or the pitch not 8-aligned, the window
 * end past the aperture, a window overlapping another live lock's, a
 * pitch the aperture cannot hold);
 * GM_ERR_DEVICE_REMOVED; GM_ERR_TIMEOUT (the GPU never let go of it);
 * errors of residency as fw_kmd_submit and of fw_kmd_poll.  The allocation is pinned until
 * unlock.  Unlock: GM_OK; GM_ERR_BAD_ARG (not locked by @dev in @range);
 * GM_ERR_DEVICE_REMOVED; GM_ERR_HW (the range register refused).
 */
int fw_kmd_lock(struct fw_kmd *k, struct fw_device *dev, uint32_t handle, unsigned range,
		uint32_t win) GM_MUST_CHECK;
int fw_kmd_unlock(struct fw_kmd *k, struct fw_device *dev, uint32_t handle, unsigned range)
	GM_MUST_CHECK;

/* ---- for fw_kmd.c */

/* @dev is being closed: unmap and unpin whatever it locked.  GM_OK;
 * GM_ERR_HW (a range register refused: the ranges before it released). */
int fw_lock_release_device(struct fw_kmd *k, const struct fw_device *dev) GM_MUST_CHECK;

/* Whether the CPU holds @a locked through an aperture range (seed 000: such
 * an allocation may not be referenced by a DMA buffer submitted to the GPU). */
bool fw_lock_holds(const struct fw_kmd *k, const struct fw_alloc *a);

/* The adapter's fw_release_fn (fw_kmd_init installs it, @kmd the pipeline):
 * @dev's handle @handle is going, so unmap and unpin what @dev locked
 * through it.  GM_OK; GM_ERR_HW (the range register refused: still locked). */
int fw_lock_release_handle(void *kmd, const struct fw_device *dev, uint32_t handle)
	GM_MUST_CHECK;

#endif /* FW_LOCK_H */
