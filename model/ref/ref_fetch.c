/* SPDX-License-Identifier: MIT */
/*
 * ref_fetch.c - a queue's fetch in the reference backend (cp_fetch): the
 * prefetch queue of REF_FETCH_DEPTH beats from the one of the next dword
 * on, and up to as many fetch reads in flight behind it.
 *
 * The rules are cp_fetch's, edge for edge: a beat is fetched only when the
 * stream holds a dword in it; with reads in flight a fetch goes only to
 * their 4 KiB page (the queue's reads carry no tag, so they must come back
 * in order: one page is one translation and one memory region), and not
 * while dropped reads are still out or a WAIT_MEM read is; everything held
 * or in flight is dropped when the doorbell moves, the stream jumps into
 * or out of an IB, the queue is reset, may not run (halted, in error,
 * disabled), or the head is not the beat of the next dword.  A failed
 * fetch fails the queue only when the stream reaches it.
 */
#include <string.h>

#include "ref.h"

#define PAGE_SHIFT 12          /* the smallest page: one translation */
#define DW_PER_BEAT (REF_BEAT / 4u)

static bool ring_bad(const struct ref_qcfg *c)
{
	return c->size_log2 < GPU_RING_LOG2_MIN || c->size_log2 > GPU_RING_LOG2_MAX ||
	       (c->base & REF_BEAT_MASK);
}

/* The queue may not run: drop everything, fetch nothing (pf_off). */
static bool pf_off(const struct ref_queue *q, const struct ref_qcfg *c)
{
	return q->state == GPU_CP_ST_HALTED || q->state == GPU_CP_ST_ERROR ||
	       (q->state == GPU_CP_ST_IDLE && (!c->enable || c->halt));
}

/* Beat k of the stream from the one of the next dword, and whether the
 * stream holds a dword in it. */
static uint64_t beat_at(const struct ref_queue *q, const struct ref_qcfg *c, uint32_t k)
{
	uint32_t m = ref_ring_mask(c) / DW_PER_BEAT;

	if (q->in_ib)
		return ((q->ib_ptr & REF_ADDR_MASK) / REF_BEAT + k) & (REF_ADDR_MASK / REF_BEAT);
	return ((c->base & REF_ADDR_MASK) / REF_BEAT + ((q->rptr / DW_PER_BEAT + k) & m)) &
	       (REF_ADDR_MASK / REF_BEAT);
}

static bool avail_at(const struct ref_queue *q, const struct ref_qcfg *c, uint32_t k)
{
	uint32_t first = k * DW_PER_BEAT;

	if (q->in_ib)
		return first < q->ib_rem + (uint32_t)(q->ib_ptr & REF_BEAT_MASK) / 4u;
	return first < (((c->wptr & ref_ring_mask(c)) - q->rptr) & ref_ring_mask(c)) + q->rptr % DW_PER_BEAT;
}

/* The head is read: a dword wanted, live entries, none stale before it. */
static bool head_ok(const struct ref_queue *q, const struct ref_qcfg *c)
{
	const struct ref_fetch *f = &q->f;

	(void)c;
	return ref_needs_dw(q->state) && f->n != f->stale && f->stale == 0;
}

static bool mismatch(const struct ref_queue *q, const struct ref_qcfg *c)
{
	return head_ok(q, c) && q->f.e[q->f.rd].beat != ref_cur_addr(q, c) / REF_BEAT;
}

/* The doorbell moved or the stream jumped since the last edge. */
static bool changed(const struct ref_queue *q, const struct ref_qcfg *c)
{
	return c->wptr != q->wptr_seen || q->in_ib != q->f.in_ib_seen;
}

/* The head holds the next dword's beat (have_dw_o, or its error). */
static bool head_here(const struct ref_queue *q, const struct ref_qcfg *c)
{
	return ref_avail(q, c) && head_ok(q, c) && !mismatch(q, c) && !changed(q, c);
}

bool ref_fetch_have(const struct ref_queue *q, const struct ref_qcfg *c)
{
	return head_here(q, c) && !q->f.e[q->f.rd].err;
}

static bool head_err(const struct ref_queue *q, const struct ref_qcfg *c)
{
	return head_here(q, c) && q->f.e[q->f.rd].err;
}

/* A drop this edge, but for a reset (drop_now). */
static bool drop_now(const struct ref_queue *q, const struct ref_qcfg *c)
{
	const struct ref_fetch *f = &q->f;

	return changed(q, c) || mismatch(q, c) ||
	       (pf_off(q, c) && (f->n != f->stale || f->fl != f->drop));
}

bool ref_fetch_act(const struct ref_queue *q, const struct ref_qcfg *c)
{
	return drop_now(q, c) || q->f.stale || head_err(q, c);
}

bool ref_fetch_want(const struct ref_queue *q, const struct ref_qcfg *c, uint64_t *addr)
{
	const struct ref_fetch *f = &q->f;
	uint32_t st = q->state, k = f->n - f->stale + f->fl - f->drop;
	uint64_t b;

	if (pf_off(q, c) || st == GPU_CP_ST_WREAD || st == GPU_CP_ST_WRESP || st == GPU_CP_ST_WPOLL ||
	    drop_now(q, c) || f->drop || f->wt_pend || f->n + f->fl >= REF_FETCH_DEPTH ||
	    (!q->in_ib && ring_bad(c)) || !avail_at(q, c, k))
		return false;
	b = beat_at(q, c, k);
	if (f->fl && b >> (PAGE_SHIFT - 5) != f->fl_page)
		return false;
	*addr = b * REF_BEAT;
	return true;
}

uint32_t ref_fetch_dw(const struct ref_queue *q, uint64_t here)
{
	uint32_t dw;

	memcpy(&dw, q->f.e[q->f.rd].data + (here & REF_BEAT_MASK), 4);
	return dw;
}

uint32_t ref_fetch_step(struct ref_queue *q, const struct ref_qcfg *c, bool fetch_granted,
			bool wait_granted, const struct ref_rsp *rsp, bool consume, bool qreset)
{
	struct ref_fetch *f = &q->f;
	bool rsp_f = rsp && !f->wt_pend, pop, flush = qreset || drop_now(q, c);
	uint32_t cause = GPU_CAUSE_NONE;
	uint64_t fb = 0;

	_Static_assert(REF_BEAT == 32, "the page of a beat: beat >> (PAGE_SHIFT - 5)");
	if (head_err(q, c)) {
		const struct ref_fetch_beat *h = &f->e[f->rd];

		cause = h->fault ? GPU_CAUSE_PAGE_FAULT : GPU_CAUSE_MEM_ERROR;
	}
	if (fetch_granted && ref_fetch_want(q, c, &fb))
		f->fl_page = fb / REF_BEAT >> (PAGE_SHIFT - 5);
	if (rsp && f->wt_pend) {
		if (!f->wt_drop && rsp->err)
			cause = rsp->fault ? GPU_CAUSE_PAGE_FAULT : GPU_CAUSE_MEM_ERROR;
		f->wt_pend = f->wt_drop = false;
	}
	pop = f->stale || (consume && (ref_cur_addr(q, c) & REF_BEAT_MASK) == REF_BEAT - 4u);
	if (rsp_f && f->drop) {
		f->drop--;
	} else if (rsp_f) {
		struct ref_fetch_beat *e = &f->e[(f->rd + f->n) % REF_FETCH_DEPTH];

		e->err = rsp->err;
		e->fault = rsp->fault;
		e->beat = beat_at(q, c, f->n - f->stale);
		memcpy(e->data, rsp->rdata, REF_BEAT);
		f->n++;
	}
	if (pop) {
		f->rd = (f->rd + 1u) % REF_FETCH_DEPTH;
		f->n--;
	}
	if (f->stale)
		f->stale--;
	f->fl += (uint32_t)fetch_granted - (uint32_t)rsp_f;
	if (wait_granted)
		f->wt_pend = true;
	if (flush) {
		f->stale = f->n;
		f->drop = f->fl;
	}
	if (qreset)
		f->wt_drop = f->wt_pend;
	f->in_ib_seen = q->in_ib;
	return cause;
}
