// SPDX-License-Identifier: MIT
/*
 * gm_port.c - the memory master port of a model whose memory is a TLM
 * target: at most max_outstanding requests in flight, answered by (due,
 * acceptance sequence) as gm_mem answers (gm_port.h).
 */
#include <stdlib.h>

#include "gm_port.h"

#define GM_PORT_MAX_OUTSTANDING 4096u

/* A request in flight: small, as the queues move entries; its response
 * waits in its slot. */
struct gm_port_flight {
	uint64_t due, seq;
	uint32_t slot; /* its response in rsp[] */
};

/* The requests in flight sit in a few queues, each in (due, seq) order: a
 * request joins a queue whose tail comes before it (a target's responses
 * mostly come due in order per region, as gm_mem's do), else an empty one,
 * else it is sorted into queue 0.  The smallest head comes out first: the
 * heap order of every request, at the cost of a few compares. */
#define GM_PORT_QUEUES 4

struct gm_port_queue {
	struct gm_port_flight *e; /* ring of max_outstanding entries */
	uint32_t rd, n;           /* head, entries */
};

struct gm_port {
	gm_port_xfer_fn xfer;
	void *ctx;
	uint32_t max_outstanding, beat_bytes, n;
	uint64_t next_seq;
	struct gm_port_queue q[GM_PORT_QUEUES];
	int first;                   /* the queue whose head comes out first; -1: none */
	uint64_t first_due;          /* its head's due; UINT64_MAX: none */
	struct gm_mem_rsp *rsp;      /* max_outstanding slots */
	uint32_t *free_slots;        /* max_outstanding - n of them, a stack */
	struct gm_mem_stats st;
};

int gm_port_create(uint32_t max_outstanding, uint32_t beat_bytes, gm_port_xfer_fn xfer, void *ctx,
		   struct gm_port **out)
{
	struct gm_port *p;
	bool ok;

	if (!xfer || !out || !max_outstanding || max_outstanding > GM_PORT_MAX_OUTSTANDING ||
	    !beat_bytes || beat_bytes > GM_MEM_MAX_BEAT)
		return GM_ERR_BAD_ARG;
	p = calloc(1, sizeof(*p));
	if (!p)
		return GM_ERR_NO_MEM;
	p->rsp = calloc(max_outstanding, sizeof(*p->rsp));
	p->free_slots = calloc(max_outstanding, sizeof(*p->free_slots));
	ok = p->rsp && p->free_slots;
	for (unsigned k = 0; k < GM_PORT_QUEUES; k++)
		ok = ok && (p->q[k].e = calloc(max_outstanding, sizeof(*p->q[k].e)));
	if (!ok) {
		gm_port_destroy(p);
		return GM_ERR_NO_MEM;
	}
	for (uint32_t i = 0; i < max_outstanding; i++)
		p->free_slots[i] = max_outstanding - 1 - i;
	p->xfer = xfer;
	p->ctx = ctx;
	p->max_outstanding = max_outstanding;
	p->beat_bytes = beat_bytes;
	p->first = -1;
	p->first_due = UINT64_MAX;
	*out = p;
	return GM_OK;
}

void gm_port_destroy(struct gm_port *p)
{
	if (!p)
		return;
	for (unsigned k = 0; k < GM_PORT_QUEUES; k++)
		free(p->q[k].e);
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

/* Entry @i of queue @q. */
static struct gm_port_flight *at(const struct gm_port *p, const struct gm_port_queue *q, uint32_t i)
{
	uint32_t k = q->rd + i;

	return &q->e[k >= p->max_outstanding ? k - p->max_outstanding : k];
}

/* Recompute which queue's head comes out first. */
static void find_first(struct gm_port *p)
{
	const struct gm_port_flight *best = NULL;

	p->first = -1;
	for (int k = 0; k < GM_PORT_QUEUES; k++)
		if (p->q[k].n && (!best || before(at(p, &p->q[k], 0), best))) {
			best = at(p, &p->q[k], 0);
			p->first = k;
		}
	p->first_due = best ? best->due : UINT64_MAX;
}

/* Put @f into a queue, keeping each in (due, seq) order. */
static void enqueue(struct gm_port *p, const struct gm_port_flight *f)
{
	struct gm_port_queue *q = NULL;
	uint32_t i;

	for (int k = 0; k < GM_PORT_QUEUES && !q; k++)
		if (p->q[k].n && !before(f, at(p, &p->q[k], p->q[k].n - 1)))
			q = &p->q[k];
	for (int k = 0; k < GM_PORT_QUEUES && !q; k++)
		if (!p->q[k].n)
			q = &p->q[k];
	if (!q)
		q = &p->q[0];
	for (i = q->n++; i && before(f, at(p, q, i - 1)); i--)
		*at(p, q, i) = *at(p, q, i - 1);
	*at(p, q, i) = *f;
	if (i == 0 && (p->first < 0 || p->first == (int)(q - p->q) ||
		       before(f, at(p, &p->q[p->first], 0))))
		p->first = (int)(q - p->q), p->first_due = f->due;
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
	struct gm_port_flight f;
	struct gm_mem_rsp *rsp;

	p->n++;
	f.slot = p->free_slots[p->max_outstanding - p->n];
	rsp = &p->rsp[f.slot];
	p->xfer(p->ctx, now, req, rsp, &f.due);
	rsp->accepted = now;
	if (f.due <= now)
		f.due = now + 1; /* a response is never due in its request's cycle */
	f.seq = p->next_seq++;
	count(p, req, rsp->err);
	enqueue(p, &f);
}

bool gm_port_response(struct gm_port *p, uint64_t now, struct gm_mem_rsp *rsp)
{
	struct gm_port_queue *q;
	uint32_t slot;

	if (p->first_due > now)
		return false;
	q = &p->q[p->first];
	slot = at(p, q, 0)->slot;
	*rsp = p->rsp[slot];
	p->free_slots[p->max_outstanding - p->n] = slot;
	p->n--;
	q->rd = q->rd + 1 == p->max_outstanding ? 0 : q->rd + 1;
	q->n--;
	find_first(p);
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
