/* SPDX-License-Identifier: MIT */
/*
 * fw_paging_recover.c - recovery of the paging queue (see fw_paging.h):
 * the record of every IB on it not yet seen done, the driver's own copy of
 * the paging buffer in flight and where each of its pieces starts, and the
 * reset that runs the lost work again.
 */
#include <inttypes.h>
#include <string.h>

#include "dma_buf.h"
#include "fw_paging.h"
#include "gpu_names.h"

#define PAGING_Q FW_QUEUE_COPY
#define RESUBMIT_DW 240u  /* ring dwords of one resubmission: 4 an IB, 6 kept for the fence */

/* Forget the IBs the queue's fence has passed. */
static void ib_prune(struct fw_kmd *k)
{
	struct fw_paging_state *pg = k->pg;
	unsigned n = 0;

	for (unsigned i = 0; i < pg->nib; i++)
		if (pg->ib[i].fence > k->d->q[PAGING_Q].fence_seen)
			pg->ib[n++] = pg->ib[i];
	pg->nib = n;
}

void fw_paging_note_ib(struct fw_kmd *k, uint64_t addr, uint32_t ndw, uint64_t *fence,
		       bool buffer)
{
	struct fw_paging_state *pg = k->pg;

	ib_prune(k);
	if (pg->nib == FW_PAGING_IBS) { /* cannot happen: FW_PAGING_IBS holds every batch */
		FW_KMD_LOG(k, "paging: more IBs in flight than recorded; the oldest is not recovered\n");
		memmove(pg->ib, pg->ib + 1, (FW_PAGING_IBS - 1) * sizeof(pg->ib[0]));
		pg->nib--;
	}
	pg->ib[pg->nib++] = (struct fw_paging_ib){ .addr = addr, .ndw = ndw, .fence = *fence,
						   .fence_out = fence, .buffer = buffer };
	if (buffer) { /* the buffer as built: the copy recovery writes back */
		memcpy(pg->inflight, pg->dw, pg->ndw * 4ull);
		memcpy(pg->inflight_piece, pg->piece_dw, sizeof(pg->piece_dw));
		pg->inflight_first = pg->build_first;
		pg->inflight_np = (uint32_t)(pg->pieces + 1 - pg->build_first);
	}
}

/*
 * Append to @b the IB that runs what is left of recorded IB @ib.  The
 * paging buffer in flight is written back from the driver's copy and
 * resumes at its first piece not done (@done: the progress fence); false:
 * nothing left of it.
 */
static bool ib_rest(struct fw_kmd *k, const struct fw_paging_ib *ib, uint64_t done,
		    struct dma_buf *b, int *st)
{
	struct fw_paging_state *pg = k->pg;
	uint64_t addr = ib->addr;
	uint32_t ndw = ib->ndw;

	if (ib->buffer && ib->fence == pg->fence) {
		uint64_t next = done + 1 > pg->inflight_first ? done + 1 - pg->inflight_first : 0;

		if (next >= pg->inflight_np)
			return false;
		*st = gm_backdoor_write(k->d->gm, addr, pg->inflight, ndw * 4ull);
		addr += 4ull * pg->inflight_piece[next];
		ndw -= pg->inflight_piece[next];
	}
	if (!*st)
		*st = dma_emit_indirect_buffer_ctx(b, addr, ndw, 0, k->d->q[PAGING_Q].priv);
	return true;
}

int fw_paging_recover(struct fw_kmd *k)
{
	struct fw_paging_state *pg = k->pg;
	const struct fw_queue *q = &k->d->q[PAGING_Q];
	uint32_t dw[RESUBMIT_DW];
	const char *cause;
	uint64_t done, fence;
	struct dma_buf b;
	int st;

	if (!q->halted)
		return GM_OK;
	st = fw_paging_progress(k, &done);
	if (st)
		return st;
	/* Failed again with nothing done since the last recovery: give up. */
	if (pg->recovered && done == pg->rec_done && q->fence_seen == pg->rec_seen)
		return GM_ERR_HW;
	cause = gpu_cause_name(q->err_cause);
	FW_KMD_LOG(k, "paging queue error %s at 0x%" PRIx64 ": reset, the lost work runs again"
		   " from piece %" PRIu64 "\n", cause ? cause : "?", q->err_addr, done + 1);
	st = fw_queue_reset(k->d, PAGING_Q);
	if (st)
		return st;
	ib_prune(k);
	dma_buf_init(&b, dw, RESUBMIT_DW);
	for (unsigned i = 0; !st && i < pg->nib; i++)
		(void)ib_rest(k, &pg->ib[i], done, &b, &st);
	if (!st) /* one fence after all of it: who waited for a lost IB waits for the rest too */
		st = fw_submit(k->d, PAGING_Q, dw, (uint32_t)b.len, &fence);
	if (st)
		return st;
	for (unsigned i = 0; i < pg->nib; i++) {
		if (pg->ib[i].buffer && pg->ib[i].fence == pg->fence)
			pg->fence = fence;
		pg->ib[i].fence = *pg->ib[i].fence_out = fence;
	}
	pg->last_fence = fence;
	pg->recovered = true;
	pg->rec_done = done;
	pg->rec_seen = k->d->q[PAGING_Q].fence_seen;
	return GM_OK;
}

/* The paging role's progress for the TDR watch (fw_sched.h): a halted
 * paging queue is recovered first, so a render waiting for lost paging is
 * never taken for a hang; when it cannot be, it stays halted and the paging
 * waits report it (GM_ERR_HW). */
int fw_paging_watch(struct fw_kmd *k, uint64_t *pieces)
{
	int st = fw_paging_recover(k);

	if (st && st != GM_ERR_HW)
		return st;
	return fw_paging_progress(k, pieces);
}
