/* SPDX-License-Identifier: MIT */
/*
 * fw_lock_sched.c - Lock's part of a submission and of residency: its
 * scheduler hooks (struct fw_sched_ops, fw_sched.h) and what they decide - a DMA buffer may
 * not reference an allocation the CPU holds through a range or the copy
 * fallback, nor an instance older than one already submitted (Discard),
 * and what the CPU holds raw in VRAM goes to the system segment first
 * (D3DDDICB_LOCK / pfnLockCb in d3dumddi.h; see fw_lock.h); its residency
 * hook (struct fw_paging_ops, fw_paging.h): a locked allocation stays put.
 */
#include <inttypes.h>

#include "fw_lock.h"
#include "fw_lock_int.h"
#include "fw_paging.h"
#include "fw_sched.h"
#include "gpu_hw.h"

bool fw_lock_holds(const struct fw_kmd *k, const struct fw_alloc *a)
{
	for (unsigned r = 0; r < GPU_APT_RANGES; r++)
		if (k->lk->apt[r].a == a && !k->lk->apt[r].follow)
			return true;
	/* the copy fallback: its write-back would undo the GPU's writes */
	for (unsigned r = 0; r < FW_KMD_RAW_LOCKS; r++)
		if (k->lk->raw[r].a == a && k->lk->raw[r].copy)
			return true;
	return false;
}

bool fw_lock_instances_ok(const struct fw_dmabuf *buf)
{
	struct fw_alloc *fam[FW_KMD_MAX_ALLOCS];
	uint64_t seq[FW_KMD_MAX_ALLOCS];
	unsigned nf = 0, f;

	for (uint32_t i = 0; i < buf->nalloc; i++) {
		const struct fw_alloc *a = fw_dmabuf_alloc(buf, i);

		if (a->inst_seq < fw_alloc_family(fw_dmabuf_alloc(buf, i))->inst_done)
			return false;
	}
	for (uint32_t j = 0; j < buf->nloc; j++) {
		struct fw_alloc *a = fw_dmabuf_alloc(buf, buf->loc[j].alloc_index);

		for (f = 0; f < nf && fam[f] != fw_alloc_family(a); f++)
			;
		if (f == nf) {
			fam[nf] = fw_alloc_family(a);
			seq[nf++] = a->inst_seq;
		} else if (a->inst_seq < seq[f]) {
			return false;
		}
		seq[f] = a->inst_seq;
	}
	return true;
}

void fw_lock_instances_used(const struct fw_dmabuf *buf)
{
	for (uint32_t i = 0; i < buf->nalloc; i++) {
		struct fw_alloc *a = fw_dmabuf_alloc(buf, i);
		struct fw_alloc *fam = fw_alloc_family(a);

		if (a->inst_seq > fam->inst_done)
			fam->inst_done = a->inst_seq;
	}
}

/* The raw lock (not a copy) of @a in VRAM; NULL: none. */
static struct fw_lock_range *raw_in_vram(struct fw_kmd *k, const struct fw_alloc *a)
{
	for (unsigned r = 0; r < FW_KMD_RAW_LOCKS; r++)
		if (k->lk->raw[r].a == a && !k->lk->raw[r].copy && a->loc.seg_id == FW_KMD_SEG_VRAM)
			return &k->lk->raw[r];
	return NULL;
}

/* Raw lock @l's allocation goes to the system segment and range @r shows
 * its bytes at the window they had. */
static int follow_to_system(struct fw_kmd *k, struct fw_lock_range *l, unsigned r)
{
	struct fw_alloc *a = l->a;
	int st = fw_paging_to_system(k, a);

	/* Its VRAM stays booked while the lock lasts: no other allocation's
	 * plain VRAM shows under the window. */
	if (!st)
		st = fw_seg_alloc_at(fw_adapter_seg(&k->ad, FW_KMD_SEG_VRAM), l->win, a->d.size);
	if (st)
		return st;
	st = fw_lock_map_linear(k, r, l->win, a->d.size, a->loc.addr);
	if (st)
		return st;
	FW_KMD_LOG(k, "render from a raw lock: %" PRIu64 " bytes to system 0x%" PRIx64
		   ", the CPU's window 0x%" PRIx64 " follows through range %u\n",
		   a->d.size, a->loc.addr, l->win, r);
	k->lk->apt[r] = *l;
	k->lk->apt[r].follow = true;
	*l = (struct fw_lock_range){ 0 };
	return GM_OK;
}

int fw_lock_render(struct fw_kmd *k, const struct fw_dmabuf *buf)
{
	unsigned r = 0;
	int st;

	/* Every one first: refused, nothing moved. */
	for (uint32_t i = 0; i < buf->nalloc; i++) {
		const struct fw_alloc *a = fw_dmabuf_alloc(buf, i);

		if (!raw_in_vram(k, a))
			continue;
		if (a->d.vram_only || a->d.pinned || a->d.size / FW_LOCK_VIEW_PITCH > 0xffffu ||
		    (r = fw_lock_range_free(k, r)) == GPU_APT_RANGES)
			return GM_ERR_CANT_RENDER_LOCKED;
		r++;
	}
	for (uint32_t i = 0; i < buf->nalloc; i++) {
		struct fw_lock_range *l = raw_in_vram(k, fw_dmabuf_alloc(buf, i));

		if (!l)
			continue;
		/* locked with DonotWait|IgnoreSync: work before the lock may use it */
		st = fw_lock_wait_idle(k, buf->dev, l->a, false);
		if (!st)
			st = follow_to_system(k, l, fw_lock_range_free(k, 0));
		if (st)
			return st;
	}
	return GM_OK;
}

/* check: nothing the CPU holds through a range or the copy fallback, and
 * only instances no submitted buffer has passed (GM_ERR_BAD_ARG). */
static int lock_check(const struct fw_kmd *k, const struct fw_dmabuf *buf,
		      const struct fw_signal *sig, uint32_t nsig)
{
	(void)sig;
	(void)nsig;
	for (uint32_t i = 0; i < buf->nalloc; i++)
		if (fw_lock_holds(k, fw_dmabuf_alloc(buf, i)))
			return GM_ERR_BAD_ARG;
	return fw_lock_instances_ok(buf) ? GM_OK : GM_ERR_BAD_ARG;
}

static int lock_submitted(struct fw_kmd *k, const struct fw_dmabuf *buf)
{
	(void)k;
	fw_lock_instances_used(buf);
	return GM_OK;
}

const struct fw_sched_ops fw_lock_sched_ops = {
	.name = "lock",
	.check = lock_check,
	.prepare = fw_lock_render,
	.submitted = lock_submitted,
};

/* pinned: every allocation a lock entry holds (ranges, then raw entries). */
static size_t lock_pinned(const struct fw_kmd *k, struct fw_alloc **out)
{
	size_t n = 0;

	for (unsigned r = 0; r < GPU_APT_RANGES; r++)
		if (k->lk->apt[r].a)
			out[n++] = k->lk->apt[r].a;
	for (unsigned r = 0; r < FW_KMD_RAW_LOCKS; r++)
		if (k->lk->raw[r].a)
			out[n++] = k->lk->raw[r].a;
	return n;
}

const struct fw_paging_ops fw_lock_paging_ops = {
	.name = "lock",
	.pinned = lock_pinned,
};
