/* SPDX-License-Identifier: MIT */
/*
 * fw_lock.h - Lock and Unlock (the pfnLockCb / pfnUnlockCb roles, D3DDDICB_LOCK in d3dumddi.h):
 * CPU access to an allocation, either through an aperture (BAR1) range the
 * driver owns and picks - a linear view of even a tiled surface - or to its
 * raw bytes where they live.
 *
 * fw_kmd_lock_cb takes the public D3DDDICB_LOCK argument set.  A lock waits
 * until no pending submission uses the allocation and the paging queue is
 * done with it (DonotWait: GM_ERR_STILL_DRAWING instead).  Only that
 * allocation counts: pfnLockCb gives WASSTILLDRAWING when "the graphics
 * hardware is still using the allocation", so paging work that moves or
 * fills other allocations neither fails a DonotWait lock nor delays a lock
 * (fw_paging_touches).  It then makes it resident
 * when it lives nowhere yet, pins it and maps it; eviction leaves a locked
 * allocation alone until unlock.  One lock per allocation at a time (so a
 * swizzled and an unswizzled lock are never outstanding together), one
 * allocation per range, and no window byte in two live locks (whatever
 * devices hold them); only the device that locked it unlocks it.  A lock
 * ends with the handle it was made through: destroying the resource
 * (fw_res_destroy) or closing the device unlocks it, so no range ever
 * shows freed memory.  Destroying a resource whose allocation a pending
 * submission (or the paging queue) still uses first waits until the GPU is
 * done with it, so no pending work keeps a freed allocation: the choice is
 * to block the caller, as the D3D runtime's deferred destruction would
 * delay the free, rather than refuse the call (fw_lock_release_handle).
 *
 * Discard renames (D3DDDICB_LOCKFLAGS.Discard): a Discard lock of an allocation a pending
 * submission references does not wait but hands back, in hAllocation, the
 * handle of another instance (same layout, other memory): with
 * NoExistingReference an idle one of the family (the allocation itself
 * too), else a new one, up to FW_LOCK_MAX_INSTANCES per allocation
 * (GM_ERR_NO_MEM beyond: flush, retry with Discard|NoExistingReference).
 * pfnLockCb says that after the flush "the video memory manager can reuse
 * any instance of the allocation, the current one included": the retry
 * with every instance made and every one still used by the GPU takes the
 * one the oldest pending work uses (the lowest in the family's order) and
 * waits for it, as a lock without Discard would; it fails (GM_ERR_NO_MEM)
 * only when every instance is locked.
 * Every instance handed out is newer than the ones before; a DMA buffer
 * referencing an instance older than one a submitted buffer used, or a patch
 * list using one family's instances out of order, is refused
 * (fw_kmd_submit).  Shared allocations and those a GPU-VA mapping names are
 * not renamed (they wait).
 *
 * The copy fallback (pfnLockCb): an AcquireAperture lock that finds no range
 * or window free, of an allocation that may be evicted (not pinned, no
 * DonotEvict), is served by a copy instead when it says what to copy -
 * LockEntire (all) or a page list (only those pages): the copy engine BLTs
 * them unswizzled, on the paging queue, into a linear staging copy in the
 * system segment at the allocation's pitch (the view a range would show),
 * and pData points there; unlock BLTs the same pages back swizzled (they
 * are the dirty ones), unless the lock was ReadOnly.  The pfnLockCb page's sentence
 * "when pfnLockCb fails with NOTAVAILABLE the memory manager asks for the
 * content to be copied ... if neither LockEntire nor a page list is given
 * it fails with NOTAVAILABLE" makes NOTAVAILABLE the answer to a lock that
 * gives neither (the caller retries with one), and a lock that gives one
 * S_OK with the copy.  The allocation stays where it is, pinned, while the
 * copy is held; like a range's lock it may not be used by a DMA buffer then.
 *
 * MIP levels (pfnLockCb: one swizzling range per level): an AcquireAperture
 * lock of an allocation with MIP levels (fw_alloc_desc.mip) takes one range
 * per level, each mapping its level (own offset and pitch) at that offset of
 * one window, so pData + a level's offset is its linear view.  With
 * PrivateDriverData 0 the ranges are taken together in the one call; when
 * fewer are free than levels none is taken - the whole allocation, every
 * level, is served by the copy fallback.  With PrivateDriverData = 1 + a
 * level, one call locks that level alone and pData is its linear view: the
 * first such lock reserves the window of the whole allocation, each later
 * one (same device, same handle, another level) maps its level through
 * another range in it.  When a later level finds no range free, pfnLockCb's
 * rule applies: every range of the allocation is reclaimed, the whole
 * allocation is served by the copy fallback, and one reclaimed range shows
 * the staging copy linearly at the same window, so the pData given for the
 * levels before still reach them (fw_lock_level.c).  Unlock (of the
 * handle) releases every level and range of the allocation.
 *
 * Rendering from a locked allocation: a DMA buffer referencing one locked
 * through a range or the copy fallback is refused; one the CPU holds raw in
 * VRAM is moved to the system segment first (fw_lock_render).  Dynamic
 * allocations (fw_alloc_desc.dynamic) live in the system segment, where a
 * raw lock is plain system memory.
 */
#ifndef FW_LOCK_H
#define FW_LOCK_H

#include "fw_kmd_types.h"

/* A Lock: an allocation mapped for the CPU through one aperture range, or
 * (in fw_kmd.raw) given to it where it lives or as a linear copy. */
struct fw_lock_range {
	struct fw_alloc *a;          /* NULL: the range (entry) is free */
	struct fw_device *dev;       /* the device that locked it, */
	uint32_t handle;             /* through this handle of its own */
	uint32_t flags;              /* FW_LOCK_* it was locked with */
	uint64_t win;                /* range: window bytes [win, win + a->d.size);
				      * raw: a->loc.addr when locked;
				      * copy: the staging copy in the system segment */
	bool copy;                   /* raw entry: the unswizzled-copy fallback */
	bool follow;                 /* range entry: a raw lock whose allocation went to
				      * the system segment for rendering; the range shows
				      * its raw bytes at the window they had in VRAM,
				      * whose VRAM stays booked while the lock lasts */
	bool view;                   /* range entry: shows a copy lock's staging copy
				      * linearly at the window the allocation's levels had
				      * (fw_lock_level.c); not a lock of its own */
	unsigned view_range;         /* copy entry: 1 + its view's range; 0: none */
	uint32_t levels;             /* MIP levels (bit i: level i) locked one at a time
				      * through this entry; 0: the whole allocation */
	uint32_t *pages;             /* copy: the pages copied (host heap); NULL: all */
	uint32_t npages;
};

/* Lock's state (k->lk): the lock of each aperture range, the locks without
 * a range. */
struct fw_lock_state {
	struct fw_lock_range apt[GPU_APT_RANGES];
	struct fw_lock_range raw[FW_KMD_RAW_LOCKS];
};

/* D3DDDICB_LOCKFLAGS.Value, the public bit layout (d3dukmdt.h). */
#define FW_LOCK_READONLY            (1u << 0)  /* ReadOnly */
#define FW_LOCK_WRITEONLY           (1u << 1)  /* WriteOnly */
#define FW_LOCK_DONOTWAIT           (1u << 2)  /* DonotWait */
#define FW_LOCK_IGNORESYNC          (1u << 3)  /* IgnoreSync */
#define FW_LOCK_LOCKENTIRE          (1u << 4)  /* LockEntire */
#define FW_LOCK_DONOTEVICT          (1u << 5)  /* DonotEvict */
#define FW_LOCK_ACQUIREAPERTURE     (1u << 6)  /* AcquireAperture */
#define FW_LOCK_DISCARD             (1u << 7)  /* Discard */
#define FW_LOCK_NOEXISTINGREFERENCE (1u << 8)  /* NoExistingReference */
#define FW_LOCK_USEALTERNATEVA      (1u << 9)  /* UseAlternateVA */
#define FW_LOCK_IGNOREREADSYNC      (1u << 10) /* IgnoreReadSync */
#define FW_LOCK_RESERVED            (~0u << 11) /* Reserved : 21, must be 0 */

#define FW_LOCK_PAGE_BYTES 4096u /* what a pPages entry counts */
#define FW_LOCK_MAX_INSTANCES 4u /* Discard instances of one allocation besides it */

/*
 * D3DDDICB_LOCK (d3dumddi.h), members named as there.  pData is where the
 * CPU reads and writes (there are no host pointers into the model):
 *   below GPU_APT_WINDOW_BYTES  an aperture window byte offset, for
 *                               gm_apt_read/write: the linear view through
 *                               the range the lock acquired, or, without
 *                               AcquireAperture, plain VRAM (the raw,
 *                               possibly swizzled bytes: window offset =
 *                               VRAM address);
 *   otherwise                   the system-memory physical address of the
 *                               raw bytes (an allocation evicted there), or
 *                               of the copy fallback's linear staging copy.
 * With a page list it points at page pPages[0] of that view.
 */
struct fw_lock_args {
	uint32_t hAllocation;        /* in/out: the device-local allocation handle */
	uint32_t PrivateDriverData;  /* in: 0 (every MIP level at once), or 1 + a MIP level:
				      * that level alone (AcquireAperture, no page list) */
	uint32_t NumPages;           /* in: entries of pPages */
	const uint32_t *pPages;      /* in: pages (FW_LOCK_PAGE_BYTES) of the allocation */
	uint64_t pData;              /* out: see above */
	uint32_t Flags;              /* in: FW_LOCK_* (D3DDDICB_LOCKFLAGS.Value) */
	uint64_t GpuVirtualAddress;  /* reserved: 0 */
};

/* D3DDDICB_UNLOCK (d3dumddi.h). */
struct fw_unlock_args {
	uint32_t NumAllocations;
	const uint32_t *phAllocations;
};

/*
 * Lock (pfnLockCb).  Result codes, one to one with pfnLockCb's HRESULTs:
 *   GM_OK                 S_OK: locked, @args->pData written (through a
 *                         range, raw, or the copy fallback's staging copy).
 *   GM_ERR_NOT_AVAILABLE  D3DERR_NOTAVAILABLE: AcquireAperture and no range
 *                         or no window gap is free, and no copy fallback
 *                         (neither LockEntire nor a page list, DonotEvict,
 *                         or a view of 2^16 rows or more), or the
 *                         allocation's layout is one the aperture cannot
 *                         show (pitch); without AcquireAperture, the
 *                         allocation's VRAM bytes are under a live range's
 *                         window.
 *   GM_ERR_STILL_DRAWING  D3DERR_WASSTILLDRAWING: DonotWait (without
 *                         Discard) and a pending submission uses the
 *                         allocation (writes it, with IgnoreReadSync) or the
 *                         paging queue still moves or fills it.
 *   GM_ERR_PINNED         D3DDDIERR_CANTEVICTPINNEDALLOCATION: no range is
 *                         available, so the allocation would be evicted to
 *                         serve the lock, and it is pinned (without
 *                         DonotEvict, which gives GM_ERR_NOT_AVAILABLE).
 *   GM_ERR_NO_MEM         E_OUTOFMEMORY: the allocation lives nowhere and
 *                         VRAM cannot take it (pinned, locked and in-flight
 *                         allocations leave too little room); Discard and no
 *                         instance can be made or reused (without
 *                         NoExistingReference every instance made; with it,
 *                         every instance locked) (a new instance
 *                         made on the way may stay, idle, for reuse); the
 *                         copy fallback's staging copy does not fit in the
 *                         system segment, or its page list not in the host
 *                         heap, or every raw lock entry is taken.
 *   GM_ERR_BAD_ARG        E_INVALIDARG: NULL, a handle that does not resolve,
 *                         the allocation already locked (but for another MIP
 *                         level by the same device and handle), a Reserved
 *                         bit, GpuVirtualAddress nonzero, PrivateDriverData
 *                         past the MIP levels, on an allocation without them,
 *                         without AcquireAperture or with a page list,
 *                         ReadOnly with WriteOnly, IgnoreSync with
 *                         AcquireAperture or on a tiled allocation,
 *                         UseAlternateVA without AcquireAperture, DonotWait
 *                         (without Discard) with AcquireAperture, LockEntire
 *                         with a page list, NumPages without pPages or the
 *                         reverse, a page past the allocation.
 *   GM_ERR_DEVICE_REMOVED D3DDDIERR_DEVICEREMOVED: before or while waiting.
 * Discard overrides DonotWait and IgnoreSync; IgnoreSync has an effect only
 * with DonotWait (then nothing is checked).  An error changes nothing the
 * caller sees, except: a Discard may leave a new idle instance, a raw lock
 * or the copy fallback of an allocation that lived nowhere may have paged it
 * in (the copy fallback's other failures free its staging copy), and errors after
 * a wait (GM_ERR_DEVICE_REMOVED, and the codes of fw_kmd_poll,
 * GM_ERR_TIMEOUT when the GPU never lets go) come after the GPU ran.
 */
int fw_kmd_lock_cb(struct fw_kmd *k, struct fw_device *dev, struct fw_lock_args *args)
	GM_MUST_CHECK;

/* Unlock (pfnUnlockCb) every allocation of @args, all or none: GM_OK;
 * GM_ERR_BAD_ARG (NULL, a handle that does not resolve or that @dev did not
 * lock, nothing unlocked); GM_ERR_DEVICE_REMOVED; GM_ERR_HW (a range register
 * refused: the ones before it unlocked); a copy lock's write-back (waited
 * for) fails with fw_paging_finish's codes: that one still locked, the ones
 * before it unlocked.  Destroying the resource or closing the device drops
 * a copy lock's staging copy without writing it back. */
int fw_kmd_unlock_cb(struct fw_kmd *k, struct fw_device *dev, const struct fw_unlock_args *args)
	GM_MUST_CHECK;

/*
 * The same with the range and window chosen by the caller (the test bench's
 * and the old scenarios' fixed layouts; no flags).
 * Lock: make the allocation resident and map it for the CPU through
 * aperture range @range at window offset @win; the CPU then reads and
 * writes it linearly with gm_apt_read/write.  GM_OK; GM_ERR_BAD_ARG (NULL,
 * a handle that does not resolve, @range out of range or in use, the
 * allocation already locked or with MIP levels, @win or the pitch not 8-aligned, the window
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

/* pfnLockCb's Discard: once a DMA buffer references instance A1 of an allocation, A0
 * is invalid.  Whether @buf references only instances no submitted buffer
 * has passed, and, in its patch list, each family's instances in order. */
bool fw_lock_instances_ok(const struct fw_dmabuf *buf);

/*
 * pfnLockCb: the GPU may render from an allocation the CPU holds raw (no
 * range) in VRAM, which the memory manager cannot support there: each such
 * allocation of @buf goes to the system segment (a TRANSFER, waited for)
 * and the GPU uses it there (fw_paging_in_place), while a free aperture
 * range, mapped linearly over the window its VRAM bytes had, keeps the
 * CPU's pData reaching them.  It comes back to VRAM only after Unlock.
 * Checked for all before any moves: GM_ERR_CANT_RENDER_LOCKED
 * (D3DDDIERR_CANTRENDERLOCKEDALLOCATION) when one cannot live in the system
 * segment for the GPU (vram_only, or made pinned) or the CPU's view cannot
 * follow it (no range free for it, 2^16 rows of 4 KiB or more), nothing
 * moved.  GM_OK; after a move, fw_paging_to_system's codes and GM_ERR_HW (a
 * range register refused).
 */
int fw_lock_render(struct fw_kmd *k, const struct fw_dmabuf *buf) GM_MUST_CHECK;

/* @buf was submitted: its instances are the newest its families have used. */
void fw_lock_instances_used(const struct fw_dmabuf *buf);

/* Whether the CPU holds @a locked through an aperture range (pfnLockCb: such
 * an allocation may not be referenced by a DMA buffer submitted to the GPU). */
bool fw_lock_holds(const struct fw_kmd *k, const struct fw_alloc *a);

/* The adapter's fw_release_fn (fw_kmd_init installs it, @kmd the pipeline):
 * @dev's handle @handle is going, so wait until no pending submission and
 * no paging work uses its allocation (not while the adapter closes, nor for
 * a removed device, which has nothing pending), then unmap and unpin what
 * @dev locked through it.  GM_OK; GM_ERR_HW (the range register refused:
 * still locked); fw_lock_wait_idle's codes (nothing released). */
int fw_lock_release_handle(void *kmd, const struct fw_device *dev, uint32_t handle)
	GM_MUST_CHECK;

/* Lock's scheduler hooks (fw_sched.h): check (fw_lock_holds,
 * fw_lock_instances_ok), prepare (fw_lock_render), submitted
 * (fw_lock_instances_used). */
extern const struct fw_sched_ops fw_lock_sched_ops;

/* Lock's residency hook (fw_paging.h): pinned (what a lock entry holds). */
extern const struct fw_paging_ops fw_lock_paging_ops;

#endif /* FW_LOCK_H */
