/* SPDX-License-Identifier: MIT */
/*
 * fw_paging.c - residency: eviction, page-in, paging buffers (see
 * fw_paging.h).
 */
#include <inttypes.h>
#include <string.h>

#include "dma_buf.h"
#include "fw_paging.h"
#include "fw_pagingbuf.h"
#include "fw_sched.h"
#include "fw_render.h"
#include "fw_residency.h"
#include "gpu_hw.h"

#define PAGING_Q FW_QUEUE_COPY
#define PIECE_MAX_BYTES 0x40000u  /* 256 KiB: about 17,000 cycles of FILL on this model */
#define PIECE_MIN_BYTES 0x1000u
#define MAX_EXCLUDED (FW_KMD_MAX_ALLOCS * (FW_KMD_SLOTS + 1) + FW_PAGING_PINNED_MAX)

/* The residency clients' hooks (fw_paging.h), in k->paging_ops order. */
#define EACH_CLIENT(k, o)                                                                   \
	for (const struct fw_paging_ops *const *o = (k)->paging_ops;                         \
	     o < (k)->paging_ops + FW_PAGING_CLIENTS; o++)                                   \
		if (*o)

int fw_paging_progress(struct fw_kmd *k, uint64_t *pieces)
{
	return gm_backdoor_read64(k->d->gm, k->pg->progress_addr, pieces);
}

/* Bytes one piece of paging work moves or fills: at most PIECE_MAX_BYTES,
 * and no more than takes a quarter of tdr_cycles at the 16 bytes a cycle
 * a FILL runs at (a COPY is faster), so even a low TDR limit sees pieces
 * finish; whole pages. */
static uint64_t piece_bytes(const struct fw_kmd *k)
{
	uint64_t n;

	if (k->cfg.tdr_cycles >= PIECE_MAX_BYTES / 4)
		return PIECE_MAX_BYTES;
	n = (k->cfg.tdr_cycles * 4) & ~(uint64_t)(PIECE_MIN_BYTES - 1);
	return n < PIECE_MIN_BYTES ? PIECE_MIN_BYTES : n;
}

/*
 * Wait for the last paging buffer submitted for as long as the paging
 * queue keeps finishing pieces: GM_OK (also when there was none);
 * GM_ERR_TIMEOUT only after tdr_cycles without a piece done; the codes of
 * fw_fence_wait and fw_paging_progress.
 */
static int wait_moving(struct fw_kmd *k)
{
	uint64_t seen, now;
	int st = fw_paging_progress(k, &seen);

	while (!st && k->pg->fence) {
		st = fw_fence_wait(k->d, PAGING_Q, k->pg->fence, k->cfg.tdr_cycles);
		if (st == GM_ERR_HW && k->d->q[PAGING_Q].halted && !(st = fw_paging_recover(k)))
			continue; /* the lost work runs again: wait for its new fence */
		if (st != GM_ERR_TIMEOUT)
			break;
		st = fw_paging_progress(k, &now);
		if (!st && now == seen)
			st = GM_ERR_TIMEOUT;
		seen = now;
	}
	return st;
}

int fw_paging_wait(struct fw_kmd *k, uint64_t budget)
{
	int st;

	if (!k->pg->last_fence)
		return GM_OK;
	st = fw_fence_wait(k->d, PAGING_Q, k->pg->last_fence, budget);
	/* a paging-queue error: recovered once, then the new fence waited for */
	if (st == GM_ERR_HW && k->d->q[PAGING_Q].halted && !(st = fw_paging_recover(k)))
		st = fw_fence_wait(k->d, PAGING_Q, k->pg->last_fence, budget);
	return st;
}

bool fw_paging_pending(const struct fw_kmd *k)
{
	return k->pg->ndw || k->d->q[PAGING_Q].fence_seen < k->pg->last_fence;
}

bool fw_paging_touches(const struct fw_kmd *k, const struct fw_alloc *a)
{
	/* Each paging buffer goes out only once the one before is done
	 * (paging_flush): one before the last submitted is done. */
	if (a->paging_buf < k->pg->nbufs)
		return false;
	if (a->paging_buf > k->pg->nbufs)
		return a->paging_buf != 0; /* in the buffer still being built */
	return k->d->q[PAGING_Q].fence_seen < k->pg->fence;
}

/* Submit the paging buffer built so far to the paging queue (no lists, no
 * context: an IB and the queue's fence). */
static int paging_flush(struct fw_kmd *k)
{
	struct fw_paging_state *pg = k->pg;
	int st;

	if (pg->ndw == 0)
		return GM_OK;
	/* The previous paging buffer still occupies the memory. */
	st = wait_moving(k);
	if (st)
		return st;
	st = gm_backdoor_write(k->d->gm, pg->addr, pg->dw, pg->ndw * 4ull);
	if (st)
		return st;
	st = fw_submit_ib(k->d, PAGING_Q, pg->addr, pg->ndw, &pg->fence);
	if (st)
		return st;
	fw_paging_note_ib(k, pg->addr, pg->ndw, &pg->fence, true);
	pg->last_fence = pg->fence;
	pg->nbufs++;
	k->st.paging_buffers++;
	FW_KMD_LOG(k, "paging buffer of %u dwords on the paging queue, fence %" PRIu64 "\n",
		   pg->ndw, pg->fence);
	pg->ndw = 0;
	return GM_OK;
}

/* Append piece @p, the progress fence's next value after it, to the paging
 * buffer; a full one goes out first. */
static int paging_emit(struct fw_kmd *k, struct fw_ddi_paging_op *p)
{
	struct dma_buf b;
	int st;

	p->progress_addr = k->pg->progress_addr;
	p->pieces = k->pg->pieces + 1;

	for (int tries = 0; tries < 2; tries++) {
		struct fw_paging_state *pg = k->pg;
		uint32_t start = pg->ndw;
		uint64_t first = start ? pg->build_first : pg->pieces + 1;

		dma_buf_init(&b, pg->dw, FW_KMD_DMA_DW);
		b.len = pg->ndw;
		/* recovery needs where each piece starts: a full table is a full buffer */
		st = pg->pieces + 1 - first < FW_PAGING_PIECES ? fw_ddi_build_paging_buffer(&b, p) :
								   GM_ERR_FULL;
		if (st != GM_ERR_FULL) {
			if (!st) {
				pg->build_first = first;
				pg->piece_dw[pg->pieces + 1 - first] = start;
			}
			pg->ndw = (uint32_t)b.len;
			pg->pieces += !st;
			return st;
		}
		st = paging_flush(k);
		if (st)
			return st;
	}
	return GM_ERR_FULL;
}

/*
 * Move @bytes from @src to @dst (a TRANSFER), or fill them with zero
 * (@fill), in pieces of at most piece_bytes(), each ending in a write of
 * the progress fence: a long transfer is seen moving, never taken for a
 * hang, and the render queue's copies between pieces wait one piece at most.
 */
static int paging_move(struct fw_kmd *k, uint64_t dst, uint64_t src, uint64_t bytes, bool fill)
{
	uint64_t max = piece_bytes(k);

	for (uint64_t off = 0; off < bytes; off += max) {
		struct fw_ddi_paging_op p = { .dst = dst + off, .src = src + off, .fill = fill,
					      .bytes = bytes - off < max ? bytes - off : max };
		int st = paging_emit(k, &p);

		if (st)
			return st;
	}
	return GM_OK;
}

int fw_paging_blt(struct fw_kmd *k, const struct dma_surf *dst, const struct dma_surf *src,
		  uint32_t w, uint32_t h)
{
	uint64_t rows = piece_bytes(k) / ((uint64_t)w << src->bpe_log2);
	struct dma_surf d = *dst, s = *src;

	if (rows == 0)
		rows = 1;
	for (uint32_t y = 0; y < h; y += (uint32_t)rows) {
		struct fw_ddi_paging_op p = { .bd = &d, .bs = &s, .w = w,
					      .h = h - y < rows ? h - y : (uint32_t)rows };
		int st;

		d.y = (uint16_t)(dst->y + y);
		s.y = (uint16_t)(src->y + y);
		st = paging_emit(k, &p);
		if (st)
			return st;
	}
	return GM_OK;
}

int fw_paging_finish(struct fw_kmd *k)
{
	int st = paging_flush(k);

	return st ? st : wait_moving(k);
}

/* The allocations eviction must not touch: those of @buf (NULL: none) and
 * @a (NULL: none), everything a pending submission references, everything
 * the CPU has locked and what a busy GPU-VA process maps.  Returns how many
 * went into @out (MAX_EXCLUDED entries). */
static size_t excluded(const struct fw_kmd *k, const struct fw_dmabuf *buf, struct fw_alloc *a,
		       struct fw_alloc **out)
{
	size_t n = 0;

	for (uint32_t i = 0; buf && i < buf->nalloc; i++)
		out[n++] = fw_dmabuf_alloc(buf, i);
	if (a)
		out[n++] = a;
	n += fw_sched_allocs(k, out + n);
	EACH_CLIENT(k, o)
		if ((*o)->pinned)
			n += (*o)->pinned(k, out + n);
	return n;
}

/* Whether a client's view of @a follows it when it moves (a process maps it). */
static bool followed(const struct fw_kmd *k, const struct fw_alloc *a)
{
	EACH_CLIENT(k, o)
		if ((*o)->follows && (*o)->follows(k, a))
			return true;
	return false;
}

/* @a moved from @prev in the books: a client whose view follows it (a
 * process that maps it: its translations) is told, after the bytes' move,
 * which goes out first.  It is told even when that fails (the move then
 * stays in the paging buffer, sent before any later render): the books say
 * @a is at a->loc, so its translations must say so too, or writes through
 * them would land in memory @a left (which another allocation may take).
 * The first error is returned. */
static int follow(struct fw_kmd *k, struct fw_alloc *a, const struct fw_loc *prev)
{
	int st, st2 = GM_OK;

	if (!followed(k, a))
		return GM_OK;
	st = paging_flush(k);
	EACH_CLIENT(k, o)
		if (!st2 && (*o)->follows && (*o)->follows(k, a))
			st2 = (*o)->moved(k, a, prev);
	return st ? st : st2;
}

/* Evict @a from VRAM: TRANSFER to the system segment, or drop it when its
 * content was discarded (DISCARD_CONTENT; a mapped allocation keeps a place
 * in the system segment, its bytes not copied, for its translations). */
static int evict_one(struct fw_kmd *k, struct fw_alloc *a)
{
	struct fw_loc prev;
	int st, st2;

	if (!a->content_valid && !followed(k, a)) {
		st = fw_res_evict(&k->ad, a, &prev);
		if (!st) {
			k->st.discards++;
			FW_KMD_LOG(k, "evict %" PRIu64 " bytes from 0x%" PRIx64 ": content discarded\n",
				   a->d.size, prev.addr);
		}
		return st;
	}
	st = fw_res_place(&k->ad, a, FW_KMD_SEG_SYS, &prev);
	if (st)
		return st;
	if (a->content_valid)
		st = paging_move(k, a->loc.addr, prev.addr, a->d.size, false);
	a->paging_buf = k->pg->nbufs + 1;
	/* moved in the books: the translations follow, whatever the move's fate */
	st2 = follow(k, a, &prev);
	st = st ? st : st2;
	if (st)
		return st;
	k->st.evictions++;
	k->st.bytes_evicted += a->d.size;
	FW_KMD_LOG(k, "evict %" PRIu64 " bytes VRAM 0x%" PRIx64 " -> system 0x%" PRIx64 "\n",
		   a->d.size, prev.addr, a->loc.addr);
	return GM_OK;
}

bool fw_paging_from_system(const struct fw_alloc *a)
{
	return a->d.dynamic || (a->resident && a->loc.seg_id == FW_KMD_SEG_SYS && a->pinned);
}

bool fw_paging_in_place(const struct fw_alloc *a)
{
	return a->resident && (a->loc.seg_id == FW_KMD_SEG_VRAM ||
			       (a->loc.seg_id == FW_KMD_SEG_SYS && fw_paging_from_system(a)));
}

/* A dynamic allocation that lives nowhere: placed in the system segment,
 * its home, with zero (it has no content to keep). */
static int place_dynamic(struct fw_kmd *k, struct fw_alloc *a)
{
	int st = fw_res_place(&k->ad, a, FW_KMD_SEG_SYS, NULL);

	if (st)
		return st;
	st = paging_move(k, a->loc.addr, 0, a->d.size, true);
	a->paging_buf = k->pg->nbufs + 1;
	k->st.fills++;
	FW_KMD_LOG(k, "place %" PRIu64 " bytes dynamic at system 0x%" PRIx64 ": FILL zero\n",
		   a->d.size, a->loc.addr);
	if (!st)
		a->content_valid = true;
	return st;
}

/* Bring @a where the GPU uses it: into VRAM, evicting what is neither in
 * @busy nor pinned (page-in is a TRANSFER from system memory, or FILL zero
 * when there is no content), unless it is used in place. */
static int page_in(struct fw_kmd *k, struct fw_alloc *a, struct fw_alloc *const *busy, size_t nbusy)
{
	struct fw_alloc *victim[16];
	struct fw_loc prev;
	size_t nv;
	int st;

	if (fw_paging_in_place(a))
		return GM_OK;
	if (a->d.dynamic)
		return place_dynamic(k, a);
	/* Used in place by pending work (it was locked then): the paging queue
	 * does not wait for the render queue, so it moves once that retired. */
	if (a->resident && fw_sched_references(k, a, false))
		return GM_ERR_BUSY;
	for (;;) {
		st = fw_res_place(&k->ad, a, FW_KMD_SEG_VRAM, &prev);
		if (st != GM_ERR_FULL)
			break;
		/* Only what stands where @a goes: an eviction more may find no
		 * room in the system segment, and one that opens no hole for
		 * @a (the rest referenced by pending work) only moves bytes;
		 * then GM_ERR_BUSY with nothing evicted, and the caller waits
		 * for a retirement. */
		st = fw_res_pick_hole(&k->ad, FW_KMD_SEG_VRAM, a->d.size, a->align, busy, nbusy,
				      victim, 16, &nv);
		if (st)
			return st;
		if (nv == 0) /* fits now, yet fw_res_place said FULL: never loop on it */
			return GM_ERR_BUSY;
		for (size_t i = 0; i < nv; i++) {
			st = evict_one(k, victim[i]);
			if (st)
				return st;
		}
	}
	if (st)
		return st;
	if (a->content_valid && prev.seg_id == FW_KMD_SEG_SYS) {
		st = paging_move(k, a->loc.addr, prev.addr, a->d.size, false);
		k->st.page_ins++;
		k->st.bytes_paged_in += a->d.size;
		FW_KMD_LOG(k, "page in %" PRIu64 " bytes system 0x%" PRIx64 " -> VRAM 0x%" PRIx64 "\n",
			   a->d.size, prev.addr, a->loc.addr);
	} else {
		st = paging_move(k, a->loc.addr, 0, a->d.size, true);
		k->st.fills++;
		FW_KMD_LOG(k, "page in %" PRIu64 " bytes at VRAM 0x%" PRIx64 ": FILL zero (no content)\n",
			   a->d.size, a->loc.addr);
	}
	a->paging_buf = k->pg->nbufs + 1;
	if (prev.seg_id != FW_SEG_NONE) { /* as evict_one: even after a failed move */
		int st2 = follow(k, a, &prev);

		st = st ? st : st2;
	}
	if (!st)
		a->content_valid = true;
	return st;
}

int fw_paging_make_resident(struct fw_kmd *k, const struct fw_dmabuf *buf)
{
	struct fw_alloc *busy[MAX_EXCLUDED];
	size_t nbusy = excluded(k, buf, NULL, busy);
	int st = GM_OK, st2;

	k->pg->use_stamp++;
	for (uint32_t i = 0; !st && i < buf->nalloc; i++) {
		struct fw_alloc *a = fw_dmabuf_alloc(buf, i);

		st = page_in(k, a, busy, nbusy);
		a->last_use = k->pg->use_stamp;
	}
	/* Even after a failure: what moved in the books moves in memory. */
	st2 = paging_flush(k);
	return st ? st : st2;
}

/* Whether VRAM's free bytes and all it could evict around @busy together
 * are too few for @a (then page_in would evict for nothing). */
static bool never_fits(struct fw_kmd *k, const struct fw_alloc *a, struct fw_alloc *const *busy,
		       size_t nbusy)
{
	struct fw_seg_stats ss;
	size_t nv;

	if (fw_paging_in_place(a) || fw_paging_from_system(a) ||
	    fw_seg_get_stats(fw_adapter_seg(&k->ad, FW_KMD_SEG_VRAM), &ss) || ss.free >= a->d.size)
		return false;
	return fw_res_pick_victims(&k->ad, FW_KMD_SEG_VRAM, a->d.size - ss.free, busy, nbusy,
				   NULL, 0, &nv) == GM_ERR_BUSY;
}

int fw_paging_to_system(struct fw_kmd *k, struct fw_alloc *a)
{
	bool pin = a->pinned;
	int st;

	a->pinned = false; /* the pin keeps the victim search away, not this move */
	st = evict_one(k, a);
	a->pinned = pin;
	return st ? st : fw_paging_finish(k);
}

int fw_paging_bring_in(struct fw_kmd *k, struct fw_alloc *a)
{
	struct fw_alloc *busy[MAX_EXCLUDED];
	size_t nbusy = excluded(k, NULL, a, busy);
	int st = never_fits(k, a, busy, nbusy) ? GM_ERR_BUSY : page_in(k, a, busy, nbusy), st2;

	if (!st)
		return fw_paging_finish(k);
	/* What was evicted on the way moves in memory as in the books. */
	st2 = paging_flush(k);
	return st2 ? st2 : st;
}

int fw_kmd_discard(struct fw_kmd *k, struct fw_device *dev, uint32_t handle)
{
	struct fw_alloc *a;
	int st = fw_render_resolve(k, dev, handle, &a);

	if (st)
		return st;
	a->content_valid = false;
	return GM_OK;
}

uint64_t fw_paging_last_fence(const struct fw_kmd *k)
{
	return k->pg->last_fence;
}

int fw_paging_submit_ib(struct fw_kmd *k, uint64_t addr, uint32_t ndw, uint64_t *fence)
{
	int st;

	if (!k || !fence)
		return GM_ERR_BAD_ARG;
	st = fw_submit_ib(k->d, PAGING_Q, addr, ndw, fence);
	if (!st) {
		fw_paging_note_ib(k, addr, ndw, fence, false);
		k->pg->last_fence = *fence;
		k->st.paging_buffers++;
	}
	return st;
}

/* check: allocations the VRAM segment could never hold together are
 * refused (GM_ERR_FULL) before anything is evicted for them. */
static int paging_check(const struct fw_kmd *k, const struct fw_dmabuf *buf,
			const struct fw_signal *sig, uint32_t nsig)
{
	uint64_t need = 0;

	(void)sig;
	(void)nsig;
	for (uint32_t i = 0; i < buf->nalloc; i++) {
		const struct fw_alloc *a = fw_dmabuf_alloc(buf, i);

		if (!fw_paging_from_system(a))
			need += (a->d.size + a->align - 1) / a->align * a->align;
	}
	return need > k->cfg.vram_bytes ? GM_ERR_FULL : GM_OK;
}

/* patch: the memory manager's part of Patch - where each allocation is
 * now (DXGKARG_PATCH's pAllocationList) - and the IB waits for the last IB
 * on the paging queue. */
static void paging_patch(const struct fw_kmd *k, struct fw_dmabuf *buf, struct fw_sched_run *run)
{
	for (uint32_t i = 0; i < buf->nalloc; i++) {
		const struct fw_alloc *a = fw_dmabuf_alloc(buf, i);

		buf->alloc[i].addr = a->loc.addr;
		buf->alloc[i].segment_id = a->loc.seg_id;
	}
	run->wait_fence = k->pg->last_fence;
}

/* submitted: what the buffer writes is content again, even if discarded
 * before (not with NullRendering: nothing ran). */
static int paging_submitted(struct fw_kmd *k, const struct fw_dmabuf *buf)
{
	(void)k;
	for (uint32_t i = 0; i < buf->nalloc && !(buf->flags & DMA_PATCH_F_NULL_RENDERING); i++)
		if (buf->alloc[i].write)
			fw_dmabuf_alloc(buf, i)->content_valid = true;
	return GM_OK;
}

const struct fw_sched_ops fw_paging_sched_ops = {
	.name = "paging",
	.check = paging_check,
	.resident = fw_paging_make_resident,
	.patch = paging_patch,
	.submitted = paging_submitted,
	.progress = fw_paging_watch,
};
