/* SPDX-License-Identifier: MIT */
/*
 * fw_lock_copy.c - Lock's unswizzled-copy fallback (pfnLockCb): with no
 * aperture range free, the pages of a swizzled allocation are copied into a
 * linear staging copy by the copy engine, and back on unlock (see
 * fw_lock.h, fw_lock_int.h).
 */
#include <inttypes.h>
#include <string.h>

#include "fw_lock.h"
#include "fw_lock_int.h"
#include "fw_paging.h"
#include "gpu_hw.h"

/* BLT the @wb x @rows byte rectangle at byte column @xb, row @y of level @v
 * of @l's linear view between the allocation and its staging copy (@in: to
 * the copy), on the paging queue. */
static int copy_rect(struct fw_kmd *k, const struct fw_lock_range *l, const struct level *v,
		     uint64_t xb, uint64_t y, uint64_t wb, uint64_t rows, bool in)
{
	const struct fw_alloc *a = l->a;
	unsigned bpe = a->d.bpe_log2;
	struct dma_surf al = { .base = a->loc.addr + v->off, .pitch = v->pitch,
			       .mode = (uint8_t)a->d.tile, .bpe_log2 = (uint8_t)bpe,
			       .x = (uint16_t)(xb >> bpe), .y = (uint16_t)y };
	struct dma_surf st = al;

	st.base = l->win + v->off;
	st.mode = GPU_TILE_LINEAR;
	return in ? fw_paging_blt(k, &st, &al, (uint32_t)(wb >> bpe), (uint32_t)rows)
		  : fw_paging_blt(k, &al, &st, (uint32_t)(wb >> bpe), (uint32_t)rows);
}

/* Copy bytes [@s, @e) of level @v (from its start) as rectangles: the rest
 * of a first row, whole rows, the start of a last row. */
static int copy_span(struct fw_kmd *k, const struct fw_lock_range *l, const struct level *v,
		     uint64_t s, uint64_t e, bool in)
{
	uint64_t p = v->pitch;
	int st = GM_OK;

	while (!st && s < e) {
		bool part = s % p || e - s < p;
		uint64_t n = part ? (p - s % p < e - s ? p - s % p : e - s) : (e - s) / p * p;

		st = copy_rect(k, l, v, s % p, s / p, part ? n : p, part ? 1 : n / p, in);
		s += n;
	}
	return st;
}

/* Copy @l's pages (all without a page list), level by level, between the
 * allocation and its staging copy (@in: to the copy) and wait for the
 * paging queue. */
int fw_lock_copy_pages(struct fw_kmd *k, const struct fw_lock_range *l, bool in)
{
	int st = GM_OK;

	/* a waveform's view marks where the copy engine's BLTs start */
	gm_wave_mark(k->d->gm, GM_MARK_NOTE, in ? "lock: copy fallback, BLT unswizzled" :
						   "unlock: BLT back swizzled");
	for (uint32_t i = 0; !st && i < (l->pages ? l->npages : 1); i++) {
		uint64_t s = l->pages ? (uint64_t)l->pages[i] * FW_LOCK_PAGE_BYTES : 0;
		uint64_t e = l->pages ? s + FW_LOCK_PAGE_BYTES : l->a->d.size;

		for (unsigned j = 0; !st && j < nlevels(l->a); j++) {
			struct level v = level_of(l->a, j);
			uint64_t lo = s > v.off ? s : v.off;
			uint64_t hi = e < v.off + v.bytes ? e : v.off + v.bytes;

			if (lo < hi)
				st = copy_span(k, l, &v, lo - v.off, hi - v.off, in);
		}
	}
	return st ? st : fw_paging_finish(k);
}

/* Free what copy lock @l holds besides its entry: the staging copy, the
 * page list. */
void fw_lock_copy_drop(struct fw_kmd *k, struct fw_lock_range *l)
{
	if (l->copy && fw_seg_free(fw_adapter_seg(&k->ad, FW_KMD_SEG_SYS), l->win))
		FW_KMD_LOG(k, "lock: staging copy at 0x%" PRIx64 " was not booked\n", l->win);
	if (l->pages)
		fw_host_free(&k->ad.host, l->pages);
	l->pages = NULL;
}

/*
 * The copy fallback (pfnLockCb): no range for @a, so its pages (@x's page
 * list, or all with LockEntire) are copied unswizzled by the copy engine
 * into a linear staging copy in the system segment, at @a's pitch, in free
 * entry @l; unlock copies them back swizzled (not after ReadOnly).
 */
int fw_lock_copy(struct fw_kmd *k, struct fw_alloc *a, struct fw_device *dev, uint32_t h,
		     const struct fw_lock_args *x, struct fw_lock_range *l)
{
	uint32_t *pages = NULL;
	uint64_t stage;
	int st = lock_bring_in(k, a);

	if (st)
		return st;
	if (x->NumPages &&
	    !(pages = fw_host_realloc_array(&k->ad.host, NULL, x->NumPages, sizeof(*pages))))
		return GM_ERR_NO_MEM;
	if (pages)
		memcpy(pages, x->pPages, x->NumPages * sizeof(*pages));
	st = fw_seg_alloc(fw_adapter_seg(&k->ad, FW_KMD_SEG_SYS), a->d.size, FW_LOCK_PAGE_BYTES,
			  &stage);
	if (st) {
		fw_host_free(&k->ad.host, pages);
		return st == GM_ERR_FULL ? GM_ERR_NO_MEM : st;
	}
	a->pinned = true;
	a->content_valid = true;
	*l = (struct fw_lock_range){ .a = a, .dev = dev, .handle = h, .flags = x->Flags,
				     .win = stage, .copy = true, .pages = pages,
				     .npages = x->NumPages };
	FW_KMD_LOG(k, "lock: no range, %u page(s) copied unswizzled to system 0x%" PRIx64 "\n",
		   pages ? x->NumPages : (unsigned)((a->d.size + FW_LOCK_PAGE_BYTES - 1) /
						    FW_LOCK_PAGE_BYTES), stage);
	st = fw_lock_copy_pages(k, l, true);
	if (st) {
		fw_lock_copy_drop(k, l);
		a->pinned = a->d.pinned;
		*l = (struct fw_lock_range){ 0 };
	}
	return st;
}
