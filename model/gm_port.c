// SPDX-License-Identifier: MIT
/*
 * gm_port.c - the memory master port of a model whose memory is a TLM
 * target: the requests in flight as a binary heap on (due, acceptance
 * sequence), at most max_outstanding of them (gm_port.h).
 */
#include <stdlib.h>

#include "gm_port.h"

#define GM_PORT_MAX_OUTSTANDING 4096u

/* A heap entry: small, as the heap moves entries; the response waits in
 * its slot. */
struct gm_port_flight {
	uint64_t due, seq;
	uint32_t slot;
};

struct gm_port {
	gm_port_xfer_fn xfer;
	void *ctx;
	uint32_t max_outstanding, beat_bytes, n;
	uint64_t next_seq;
	struct gm_port_flight *heap; /* max_outstanding entries, n in use */
	struct gm_mem_rsp *rsp;      /* max_outstanding slots */
	uint32_t *free_slots;        /* max_outstanding - n of them, a stack */
	struct gm_mem_stats st;
};

int gm_port_create(uint32_t max_outstanding, uint32_t beat_bytes, gm_port_xfer_fn xfer, void *ctx,
		   struct gm_port **out)
{
	struct gm_port *p;

	if (!xfer || !out || !max_outstanding || max_outstanding > GM_PORT_MAX_OUTSTANDING ||
	    !beat_bytes || beat_bytes > GM_MEM_MAX_BEAT)
		return GM_ERR_BAD_ARG;
	p = calloc(1, sizeof(*p));
	if (!p)
		return GM_ERR_NO_MEM;
	p->heap = calloc(max_outstanding, sizeof(*p->heap));
	p->rsp = calloc(max_outstanding, sizeof(*p->rsp));
	p->free_slots = calloc(max_outstanding, sizeof(*p->free_slots));
	if (!p->heap || !p->rsp || !p->free_slots) {
		gm_port_destroy(p);
		return GM_ERR_NO_MEM;
	}
	for (uint32_t i = 0; i < max_outstanding; i++)
		p->free_slots[i] = max_outstanding - 1 - i;
	p->xfer = xfer;
	p->ctx = ctx;
	p->max_outstanding = max_outstanding;
	p->beat_bytes = beat_bytes;
	*out = p;
	return GM_OK;
}

void gm_port_destroy(struct gm_port *p)
{
	if (!p)
		return;
	free(p->heap);
	free(p->rsp);
	free(p->free_slots);
	free(p);
}

bool gm_port_can_accept(const struct gm_port *p)
{
	return p->n < p->max_outstanding;
}

static bool before(const struct gm_port_flight *a, const struct gm_port_flight *b)
{
	return a->due < b->due || (a->due == b->due && a->seq < b->seq);
}

static void swap(struct gm_port_flight *a, struct gm_port_flight *b)
{
	struct gm_port_flight t = *a;

	*a = *b;
	*b = t;
}

/* Count the request's bytes as gm_mem does (a write by its strobes). */
static void count(struct gm_port *p, const struct gm_mem_req *req, bool err)
{
	uint64_t full = p->beat_bytes < 64 ? (1ull << p->beat_bytes) - 1 : ~0ull;
	uint64_t strb = req->wstrb & full;

	if (err) {
		p->st.err_reqs++;
	} else if (req->write) {
		p->st.vram.wr_reqs++;
		/* a whole beat mostly (the portable build has no popcount instruction) */
		p->st.vram.wr_bytes += strb == full ? p->beat_bytes : (uint64_t)__builtin_popcountll(strb);
	} else {
		p->st.vram.rd_reqs++;
		p->st.vram.rd_bytes += p->beat_bytes;
	}
}

/* Take @req at cycle @now (the caller checked gm_port_can_accept). */
void gm_port_request(struct gm_port *p, uint64_t now, const struct gm_mem_req *req)
{
	struct gm_port_flight *f = &p->heap[p->n];
	uint32_t i = p->n++;
	struct gm_mem_rsp *rsp;

	f->slot = p->free_slots[p->max_outstanding - p->n];
	rsp = &p->rsp[f->slot];
	p->xfer(p->ctx, now, req, rsp, &f->due);
	rsp->accepted = now;
	if (f->due <= now)
		f->due = now + 1; /* a response is never due in its request's cycle */
	f->seq = p->next_seq++;
	count(p, req, rsp->err);
	while (i && before(&p->heap[i], &p->heap[(i - 1) / 2])) {
		swap(&p->heap[i], &p->heap[(i - 1) / 2]);
		i = (i - 1) / 2;
	}
}

bool gm_port_response(struct gm_port *p, uint64_t now, struct gm_mem_rsp *rsp)
{
	uint32_t i = 0;

	if (!p->n || p->heap[0].due > now)
		return false;
	*rsp = p->rsp[p->heap[0].slot];
	p->free_slots[p->max_outstanding - p->n] = p->heap[0].slot;
	p->heap[0] = p->heap[--p->n];
	for (;;) {
		uint32_t l = 2 * i + 1, r = l + 1, m = i;

		if (l < p->n && before(&p->heap[l], &p->heap[m]))
			m = l;
		if (r < p->n && before(&p->heap[r], &p->heap[m]))
			m = r;
		if (m == i)
			break;
		swap(&p->heap[i], &p->heap[m]);
		i = m;
	}
	return true;
}

void gm_port_tick(struct gm_port *p, bool refused)
{
	p->st.ticks++;
	if (p->n)
		p->st.busy_cycles++;
	p->st.occupancy_sum += p->n;
	if (p->n > p->st.max_occupancy)
		p->st.max_occupancy = p->n;
	if (refused)
		p->st.stall_cycles++;
}

uint32_t gm_port_outstanding(const struct gm_port *p)
{
	return p->n;
}

void gm_port_get_stats(const struct gm_port *p, struct gm_mem_stats *st)
{
	*st = p->st;
}
