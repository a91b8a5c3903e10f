/* SPDX-License-Identifier: MIT */
/*
 * fw_lock.c - Lock and Unlock through the aperture (see fw_lock.h).
 */
#include <inttypes.h>
#include <string.h>

#include "fw_gpuva.h"
#include "fw_lock.h"
#include "fw_lock_int.h"
#include "fw_paging.h"
#include "fw_render.h"
#include "fw_sched.h"
#include "gpu_hw.h"

#define WIN_ALIGN 0x1000ull /* bytes: windows the driver picks start on a page */
#define NLOCKS (GPU_APT_RANGES + FW_KMD_RAW_LOCKS)

/* Lock entry @i: the ranges' first, then the raw ones. */
static struct fw_lock_range *lock_at(struct fw_kmd *k, unsigned i)
{
	return i < GPU_APT_RANGES ? &k->lk->apt[i] : &k->lk->raw[i - GPU_APT_RANGES];
}

struct fw_lock_range *fw_lock_of(struct fw_kmd *k, const struct fw_alloc *a)
{
	for (unsigned i = 0; i < NLOCKS; i++)
		if (lock_at(k, i)->a == a && !lock_at(k, i)->view)
			return lock_at(k, i);
	return NULL;
}

/* Window bytes [@start, @end) of lock @l: a range's window, or a raw lock of
 * VRAM (plain VRAM shows at its own address).  false: none. */
static bool lock_window(const struct fw_kmd *k, const struct fw_lock_range *l, uint64_t *start,
			uint64_t *end)
{
	bool range = l >= k->lk->apt && l < k->lk->apt + GPU_APT_RANGES;

	if (!l->a || (!range && (l->copy || l->a->loc.seg_id != FW_KMD_SEG_VRAM)))
		return false;
	*start = l->win;
	*end = l->win + l->a->d.size;
	return true;
}

/* A live lock holds some byte of window [@win, @end), whatever device holds
 * it: the lowest-numbered range would take the overlap's accesses, and a raw
 * lock's plain VRAM would show another surface. */
static bool window_taken(struct fw_kmd *k, uint64_t win, uint64_t end)
{
	for (unsigned i = 0; i < NLOCKS; i++) {
		uint64_t s, e;

		if (lock_window(k, lock_at(k, i), &s, &e) && win < e && s < end)
			return true;
	}
	return false;
}

/* The lowest page-aligned window of @bytes no live lock touches: at 0 or
 * right after a live window.  false: none. */
static bool window_pick(struct fw_kmd *k, uint64_t bytes, uint64_t *win)
{
	uint64_t best = UINT64_MAX;

	for (unsigned i = 0; i <= NLOCKS; i++) {
		uint64_t s = 0, e = 0, c;

		if (i < NLOCKS && !lock_window(k, lock_at(k, i), &s, &e))
			continue;
		c = (e + WIN_ALIGN - 1) & ~(WIN_ALIGN - 1);
		if (c < best && c + bytes <= GPU_APT_WINDOW_BYTES && !window_taken(k, c, c + bytes))
			best = c;
	}
	*win = best;
	return best != UINT64_MAX;
}

/* The flag rules of D3DDDICB_LOCKFLAGS and the page list (fw_lock.h). */
static bool args_ok(const struct fw_lock_args *x, const struct fw_alloc *a)
{
	uint32_t f = x->Flags;
	bool nowait = (f & FW_LOCK_DONOTWAIT) && !(f & FW_LOCK_DISCARD);
	uint64_t pages = (a->d.size + FW_LOCK_PAGE_BYTES - 1) / FW_LOCK_PAGE_BYTES;

	if ((f & FW_LOCK_RESERVED) || x->GpuVirtualAddress)
		return false;
	/* one MIP level's range (fw_lock_level.c) */
	if (x->PrivateDriverData && (!(f & FW_LOCK_ACQUIREAPERTURE) || a->d.mip_levels < 2 ||
				     x->PrivateDriverData > a->d.mip_levels || x->NumPages))
		return false;
	if ((f & FW_LOCK_READONLY) && (f & FW_LOCK_WRITEONLY))
		return false;
	if ((f & FW_LOCK_IGNORESYNC) &&
	    ((f & FW_LOCK_ACQUIREAPERTURE) || a->d.tile != GPU_TILE_LINEAR))
		return false;
	if ((f & FW_LOCK_USEALTERNATEVA) && !(f & FW_LOCK_ACQUIREAPERTURE))
		return false;
	/* pfnLockCb: a lock acquiring a swizzling range cannot be a no-overwrite lock */
	if (nowait && (f & FW_LOCK_ACQUIREAPERTURE))
		return false;
	if (!x->NumPages != !x->pPages || ((f & FW_LOCK_LOCKENTIRE) && x->NumPages))
		return false;
	for (uint32_t i = 0; i < x->NumPages; i++)
		if (x->pPages[i] >= pages)
			return false;
	return true;
}

/*
 * One range per MIP level of @a (pfnLockCb) in @r[0..*nr) and one window for
 * all, each level at its own offset in it; or *nr = 0: not enough ranges
 * free for every level (none is taken then: the allocation is served whole,
 * all its levels) and the copy fallback serves the lock (LockEntire or a
 * page list, not DonotEvict, levels of fewer than 2^16 rows: a BLT's
 * origin).  GM_ERR_NOT_AVAILABLE / GM_ERR_PINNED as fw_kmd_lock_cb.
 */
static int range_pick(struct fw_kmd *k, const struct fw_alloc *a, const struct fw_lock_args *x,
		      unsigned *r, unsigned *nr, uint64_t *win)
{
	bool tall = false;
	unsigned want = x->PrivateDriverData ? 1 : nlevels(a);

	*nr = 0;
	for (unsigned i = 0; i < nlevels(a); i++) {
		struct level v = level_of(a, i);

		if ((v.pitch & 7u) || v.pitch > GPU_PKT_BLT_SRC_PITCH_MASK)
			return GM_ERR_NOT_AVAILABLE;
		tall |= v.bytes / v.pitch > 0xffffu;
	}
	for (unsigned q = 0; q < GPU_APT_RANGES && *nr < want; q++)
		if (!k->lk->apt[q].a)
			r[(*nr)++] = q;
	if (*nr == want && window_pick(k, a->d.size, win))
		return GM_OK;
	*nr = 0;
	/* Serving the lock now means evicting @a (the copy path). */
	if (a->d.pinned && !(x->Flags & FW_LOCK_DONOTEVICT))
		return GM_ERR_PINNED;
	if ((x->Flags & FW_LOCK_DONOTEVICT) || tall ||
	    (!(x->Flags & FW_LOCK_LOCKENTIRE) && !x->NumPages && !x->PrivateDriverData))
		return GM_ERR_NOT_AVAILABLE;
	return GM_OK;
}

int fw_lock_wait_idle(struct fw_kmd *k, const struct fw_device *dev, const struct fw_alloc *a,
		      bool writes_only)
{
	while (fw_sched_references(k, a, writes_only) || fw_paging_touches(k, a)) {
		uint64_t t = gm_cycles(k->d->gm), done = k->st.retired;
		/* the scheduler's loop runs the GPU only while render work is pending */
		int st = fw_sched_references(k, a, writes_only) ?
				 fw_kmd_poll(k, k->cfg.tdr_cycles) :
				 fw_paging_wait(k, k->cfg.tdr_cycles);

		if (st)
			return st;
		if (fw_device_is_removed(dev))
			return GM_ERR_DEVICE_REMOVED;
		/* no cycle run and nothing retired (work seen done): it never lets go */
		if (gm_cycles(k->d->gm) == t && k->st.retired == done)
			return GM_ERR_TIMEOUT;
	}
	return GM_OK;
}

/* The synchronisation rules of fw_lock.h. */
static int lock_sync(struct fw_kmd *k, const struct fw_device *dev, const struct fw_alloc *a,
		     uint32_t f)
{
	bool nowait = (f & FW_LOCK_DONOTWAIT) && !(f & FW_LOCK_DISCARD);
	bool writes_only = f & FW_LOCK_IGNOREREADSYNC;

	if (!nowait)
		return fw_lock_wait_idle(k, dev, a, writes_only);
	if (f & FW_LOCK_IGNORESYNC)
		return GM_OK;
	if (fw_sched_references(k, a, writes_only) || fw_paging_touches(k, a))
		return GM_ERR_STILL_DRAWING;
	return GM_OK;
}

/* Map @a's MIP levels from @lv0 through ranges @r[0..@nr) at window @win
 * (@nr 0: raw, in free entry @raw) and book the lock (of the levels
 * @levels, one at a time; 0: the whole allocation).  On error nothing
 * mapped. */
static int lock_book(struct fw_kmd *k, struct fw_alloc *a, struct fw_device *dev, uint32_t handle,
		     uint32_t flags, const unsigned *r, unsigned nr, unsigned lv0, uint32_t levels,
		     uint64_t win, struct fw_lock_range *raw)
{
	struct fw_lock_range l = { .a = a, .dev = dev, .handle = handle, .flags = flags,
				   .win = nr ? win : a->loc.addr, .levels = levels };
	unsigned i;
	int st = GM_OK;

	for (i = 0; i < nr && !st; i++) {
		struct level v = level_of(a, lv0 + i);

		st = fw_apt_map(k->d, r[i], (uint32_t)(win + v.off), (uint32_t)(win + v.off + v.bytes),
				a->loc.addr + v.off, a->d.tile, a->d.bpe_log2, v.pitch);
	}
	if (st) {
		while (--i > 0)
			if (fw_apt_unmap(k->d, r[i - 1]))
				FW_KMD_LOG(k, "lock: range %u stays mapped\n", r[i - 1]);
		return st;
	}
	a->pinned = true;
	a->content_valid = true;
	for (i = 0; i < nr; i++)
		k->lk->apt[r[i]] = l;
	if (!nr)
		*raw = l;
	if (nr)
		gm_wave_mark(k->d->gm, GM_MARK_NOTE, "lock: through an aperture range");
	FW_KMD_LOG(k, "lock: %" PRIu64 " bytes at 0x%" PRIx64 " %s%u (0x%" PRIx64 ")\n",
		   a->d.size, a->loc.addr, nr ? "through aperture range " : "raw, entry ",
		   nr ? r[0] : (unsigned)(raw - k->lk->raw), l.win);
	if (nr > 1)
		FW_KMD_LOG(k, "lock: %u MIP levels, %u ranges from range %u\n", nr, nr, r[0]);
	return GM_OK;
}

struct fw_lock_range *fw_lock_raw_free(struct fw_kmd *k)
{
	for (unsigned r = 0; r < FW_KMD_RAW_LOCKS; r++)
		if (!k->lk->raw[r].a)
			return &k->lk->raw[r];
	return NULL;
}

/* A raw lock of @a after the wait: paged in if it lives nowhere, refused
 * when its plain VRAM is under a live window. */
static int lock_raw(struct fw_kmd *k, struct fw_alloc *a, struct fw_device *dev, uint32_t h,
		    uint32_t flags, struct fw_lock_range *l)
{
	int st = a->loc.seg_id == FW_SEG_NONE ? lock_bring_in(k, a) : GM_OK;

	if (st)
		return st;
	if (a->loc.seg_id == FW_KMD_SEG_VRAM &&
	    window_taken(k, a->loc.addr, a->loc.addr + a->d.size))
		return GM_ERR_NOT_AVAILABLE;
	return lock_book(k, a, dev, h, flags, NULL, 0, 0, 0, 0, l);
}

/* Handle @i of @r: its surfaces', then its instances'. */
static uint32_t res_handle(const struct fw_resource *r, size_t i)
{
	return i < r->nsurf ? r->handle[i] : r->inst[i - r->nsurf].h;
}

/* Instance @c (handle @h) of family @fam is handed out again: the newest. */
static void discard_reuse(struct fw_alloc *fam, struct fw_alloc *c, uint32_t h,
			  struct fw_alloc **a, uint32_t *out_h)
{
	c->inst_seq = ++fam->inst_next;
	c->content_valid = false;
	*a = c;
	*out_h = h;
}

/*
 * Discard on @a, busy: another instance of its family in *@a and *@h - with
 * NoExistingReference an idle one, else a new one; with NoExistingReference
 * and every instance made and busy, the one the GPU took first (the lowest
 * inst_seq: the oldest work uses it), which the caller then waits for.
 * GM_OK; GM_ERR_NO_MEM (none can be made, or every instance is locked);
 * fw_res_instance_new's codes.
 */
static int discard_rename(struct fw_kmd *k, struct fw_device *dev, const struct fw_lock_args *x,
			  struct fw_alloc **a, uint32_t *h)
{
	struct fw_resource *r = fw_res_holding(dev, x->hAllocation);
	struct fw_alloc *fam = fw_alloc_family(*a), *c, *old = NULL;
	bool nx = x->Flags & FW_LOCK_NOEXISTINGREFERENCE;
	uint32_t old_h = 0;
	unsigned n = 0;

	for (size_t i = 0; r && i < r->nsurf + r->ninst; i++) {
		if (fw_res_get_handle_data(dev, res_handle(r, i), &c) || fw_alloc_family(c) != fam)
			continue;
		n++;
		if (!nx || fw_lock_of(k, c))
			continue;
		if (!fw_sched_references(k, c, false)) {
			discard_reuse(fam, c, res_handle(r, i), a, h);
			return GM_OK;
		}
		if (!old || c->inst_seq < old->inst_seq) {
			old = c;
			old_h = res_handle(r, i);
		}
	}
	if (n <= FW_LOCK_MAX_INSTANCES)
		return fw_res_instance_new(dev, x->hAllocation, h, a);
	if (!old)
		return GM_ERR_NO_MEM;
	discard_reuse(fam, old, old_h, a, h);
	return GM_OK;
}

int fw_kmd_lock_cb(struct fw_kmd *k, struct fw_device *dev, struct fw_lock_args *x)
{
	uint32_t h, lv = x && x->PrivateDriverData ? x->PrivateDriverData - 1 : 0;
	bool aperture;
	struct fw_lock_range *raw = NULL, *l;
	struct fw_alloc *a;
	uint64_t win = 0;
	unsigned r[GPU_APT_RANGES], nr = 0;
	int st;

	if (!x)
		return GM_ERR_BAD_ARG;
	st = fw_render_resolve(k, dev, x->hAllocation, &a);
	if (st)
		return st;
	if (!args_ok(x, a))
		return GM_ERR_BAD_ARG;
	l = fw_lock_of(k, a);
	if (l && x->PrivateDriverData)
		return fw_lock_level_add(k, l, dev, x);
	if (l)
		return GM_ERR_BAD_ARG;
	h = x->hAllocation;
	aperture = x->Flags & FW_LOCK_ACQUIREAPERTURE;
	if (aperture)
		st = range_pick(k, a, x, r, &nr, &win);
	if (!st && !nr && !(raw = fw_lock_raw_free(k)))
		st = GM_ERR_NO_MEM;
	/* Renamed: not a shared allocation (its other openers' handles would not
	 * follow), nor one a GPU-VA mapping names (the mapping would not). */
	if (!st && (x->Flags & FW_LOCK_DISCARD) && !a->kres->share && !fw_gpuva_is_mapped(k, a) &&
	    fw_sched_references(k, a, false))
		st = discard_rename(k, dev, x, &a, &h);
	if (!st)
		st = lock_sync(k, dev, a, x->Flags);
	if (!st && nr) {
		st = lock_bring_in(k, a);
		if (!st)
			st = lock_book(k, a, dev, h, x->Flags, r, nr, lv,
				       x->PrivateDriverData ? 1u << lv : 0, win, NULL);
	} else if (!st && aperture) {
		st = fw_lock_copy(k, a, dev, h, x, raw);
		if (!st && x->PrivateDriverData)
			raw->levels = 1u << lv;
	} else if (!st) {
		st = lock_raw(k, a, dev, h, x->Flags, raw);
	}
	if (st)
		return st;
	x->hAllocation = h;
	x->pData = fw_lock_of(k, a)->win + (x->PrivateDriverData ? level_of(a, lv).off :
					    (uint64_t)(x->NumPages ? x->pPages[0] : 0) *
						    FW_LOCK_PAGE_BYTES);
	return GM_OK;
}

unsigned fw_lock_range_free(const struct fw_kmd *k, unsigned after)
{
	unsigned r;

	for (r = after; r < GPU_APT_RANGES && k->lk->apt[r].a; r++)
		;
	return r;
}

int fw_lock_map_linear(struct fw_kmd *k, unsigned r, uint64_t win, uint64_t bytes, uint64_t base)
{
	return fw_apt_map(k->d, r, (uint32_t)win, (uint32_t)(win + bytes), base, GPU_TILE_LINEAR,
			  0, FW_LOCK_VIEW_PITCH);
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
	if (range >= GPU_APT_RANGES || k->lk->apt[range].a || fw_lock_of(k, a) || nlevels(a) > 1 ||
	    (win & 7u) || (a->d.pitch & 7u) || end > GPU_APT_WINDOW_BYTES ||
	    window_taken(k, win, end) || a->d.pitch > GPU_PKT_BLT_SRC_PITCH_MASK)
		return GM_ERR_BAD_ARG;
	st = fw_lock_wait_idle(k, dev, a, false);
	if (!st)
		st = fw_paging_bring_in(k, a);
	if (!st)
		st = lock_book(k, a, dev, handle, 0, &range, 1, 0, 0, win, NULL);
	return st;
}

/* Unmap lock @l (every range of its allocation's), or copy its pages back
 * (a copy lock's, with @write_back, not ReadOnly), and let go of its
 * allocation: the pin back to what the allocation was made with, the
 * entries free.  On error still locked (but the ranges unmapped before). */
static int lock_release(struct fw_kmd *k, struct fw_lock_range *l, bool write_back)
{
	struct fw_alloc *a = l->a;
	int st = GM_OK;

	if (l >= k->lk->apt && l < k->lk->apt + GPU_APT_RANGES) {
		struct fw_lock_range was = *l;

		/* the CPU's posted writes land before the ranges go */
		if (gm_apt_flush(k->d->gm) == GM_ERR_HW)
			return GM_ERR_HW;
		for (unsigned r = 0; !st && r < GPU_APT_RANGES; r++)
			if (k->lk->apt[r].a == a && !(st = fw_apt_unmap(k->d, r)))
				k->lk->apt[r] = (struct fw_lock_range){ 0 };
		if (!st && was.follow &&
		    fw_seg_free(fw_adapter_seg(&k->ad, FW_KMD_SEG_VRAM), was.win))
			FW_KMD_LOG(k, "unlock: the VRAM under window 0x%" PRIx64 " was not booked\n",
				   was.win);
	} else if (l->copy && write_back && !(l->flags & FW_LOCK_READONLY)) {
		FW_KMD_LOG(k, "unlock: the staging copy's pages BLT back swizzled to 0x%" PRIx64 "\n",
			   a->loc.addr);
		st = fw_lock_copy_pages(k, l, false);
	}
	if (!st && l->view_range && !(st = fw_apt_unmap(k->d, l->view_range - 1)))
		k->lk->apt[l->view_range - 1] = (struct fw_lock_range){ 0 };
	if (st)
		return st;
	fw_lock_copy_drop(k, l);
	a->pinned = a->d.pinned;
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
	if (range >= GPU_APT_RANGES || k->lk->apt[range].a != a || k->lk->apt[range].dev != dev ||
	    k->lk->apt[range].view)
		return GM_ERR_BAD_ARG;
	return lock_release(k, &k->lk->apt[range], false);
}

/* The lock @dev holds on the allocation @handle names: GM_OK and *l;
 * GM_ERR_BAD_ARG (none); fw_render_resolve's codes. */
static int lock_held(struct fw_kmd *k, struct fw_device *dev, uint32_t handle,
		     struct fw_lock_range **l)
{
	struct fw_alloc *a;
	int st = fw_render_resolve(k, dev, handle, &a);

	if (st)
		return st;
	*l = fw_lock_of(k, a);
	return *l && (*l)->dev == dev ? GM_OK : GM_ERR_BAD_ARG;
}

int fw_kmd_unlock_cb(struct fw_kmd *k, struct fw_device *dev, const struct fw_unlock_args *x)
{
	struct fw_lock_range *l, *m;
	int st;

	if (!x || !x->NumAllocations || !x->phAllocations)
		return GM_ERR_BAD_ARG;
	/* All of them first: a handle twice is refused too. */
	for (uint32_t i = 0; i < x->NumAllocations; i++) {
		st = lock_held(k, dev, x->phAllocations[i], &l);
		for (uint32_t j = 0; !st && j < i; j++)
			if (!lock_held(k, dev, x->phAllocations[j], &m) && m == l)
				st = GM_ERR_BAD_ARG;
		if (st)
			return st;
	}
	for (uint32_t i = 0; i < x->NumAllocations; i++) {
		st = lock_held(k, dev, x->phAllocations[i], &l);
		if (!st)
			st = lock_release(k, l, true);
		if (st)
			return st;
	}
	return GM_OK;
}

/* Release the locks @dev holds through @handle (0: through any handle);
 * the first refusal stops it. */
static int release_where(struct fw_kmd *k, const struct fw_device *dev, uint32_t handle)
{
	for (unsigned i = 0; i < NLOCKS; i++) {
		struct fw_lock_range *l = lock_at(k, i);
		int st;

		if (!l->a || l->view || l->dev != dev || (handle && l->handle != handle))
			continue;
		/* the allocation or its device is going: no write-back */
		st = lock_release(k, l, false);
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
	struct fw_kmd *k = kmd;
	struct fw_alloc *a;

	/* Its allocation may be freed now: the GPU first finishes the work
	 * that references it (and what the paging queue does with it). */
	if (!dev->ad->closing && !fw_device_is_removed(dev) &&
	    !fw_res_get_handle_data(dev, handle, &a)) {
		int st = fw_lock_wait_idle(k, dev, a, false);

		if (st)
			return st;
	}
	return release_where(k, dev, handle);
}
