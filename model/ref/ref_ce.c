/* SPDX-License-Identifier: MIT */
/*
 * ref_ce.c - the reference backend's copy engine (COPY, BLT, FILL).
 *
 * A command moves a W-byte x H-row rectangle from a source surface (or a
 * 64-bit FILL pattern: byte i of a row is VALUE byte i mod 8) to a
 * destination surface of any tile mode.  Both sides visit the rectangle in
 * one canonical order, in pieces of up to 16 bytes that are contiguous in
 * memory and stay inside a 16-byte line: row by row, or, when either side
 * is tiled and H > 1, in row pairs of 32-byte columns, the order in which
 * a beat of every tiled layout is read or written once.  Addresses come from
 * gpu_tile_offset(), the swizzle reference over the generated tile geometry.
 *
 * Pipeline, one step per cycle each: the source walk allocates a read slot
 * for each new beat (the last REF_CE_REUSE beats are reused without a
 * read; CE_ROB_SLOTS slots hold reads in flight and reusable beats), the
 * extractor moves a piece whose beat has arrived into a 64-byte byte FIFO,
 * the destination walk moves a piece from the FIFO into one of
 * REF_CE_WCB write-combining beats, which leaves when full, when its way is
 * needed, or at the end.  The memory channel takes one request per cycle,
 * a write before a read; reads carry their slot as tag.
 *
 * An error response (fault or memory error) or an abort (the owner queue
 * was reset) stops issuing; the engine waits for what is in flight and
 * reports done with err.  Write-combining beats not yet sent are dropped.
 */
#include <string.h>

#include "gpu_tile.h"
#include "ref.h"

void ref_ce_reset(struct ref_ce *ce)
{
	memset(ce, 0, sizeof(*ce));
	ce->state = GPU_CE_ST_IDLE;
}

bool ref_ce_ready(const struct ref_ce *ce)
{
	return ce->state == GPU_CE_ST_IDLE;
}

/* done_o of this edge, from the state it starts in. */
bool ref_ce_done(const struct ref_ce *ce, bool *err, bool *fault)
{
	bool end = (ce->state == GPU_CE_ST_DRAIN || ce->state == GPU_CE_ST_ABORT) && !ce->rd_out &&
		   !ce->wr_out;

	*err = ce->state == GPU_CE_ST_ABORT;
	*fault = ce->fault;
	return end;
}

/* ------------------------------------------------------------ walker */

static void walk_start(struct ref_walk *w, uint64_t base, uint32_t mode, uint32_t bpe, uint32_t pitch,
		       uint32_t x0b, uint32_t y0, uint32_t wb, uint32_t h, bool pair)
{
	memset(w, 0, sizeof(*w));
	w->base = base;
	w->mode = mode;
	w->bpe = bpe;
	w->pitch = pitch;
	w->x0b = x0b;
	w->y0 = y0;
	w->w = wb;
	w->h = h;
	w->pair = pair;
	w->busy = wb && h;
}

static uint64_t walk_seg_end(const struct ref_walk *w)
{
	uint64_t cw = w->pair ? 32u : w->w, end = w->c + cw;

	return end < w->w ? end : w->w;
}

/* The walk's next piece, computed once per position (a stalled walk asks
 * again every cycle). */
static void walk_piece(struct ref_walk *w, struct ref_piece *pc)
{
	uint32_t xb = (uint32_t)(w->x0b + w->p), y = (w->y0 + w->yb + w->r) & 0xffffu;
	uint32_t emask = (1u << w->bpe) - 1u;
	uint64_t off, left;
	uint32_t room;

	if (w->pc_v) {
		*pc = w->pc;
		return;
	}
	/* LINEAR as gpu_tile_offset() defines it, without its geometry lookup */
	if (w->mode == GPU_TILE_LINEAR)
		off = (uint64_t)y * w->pitch + xb;
	else
		off = gpu_tile_offset(w->mode, w->bpe, w->pitch, xb >> w->bpe, y) + (xb & emask);
	left = walk_seg_end(w) - w->p;
	pc->addr = (w->base + off) & REF_ADDR_MASK;
	room = 16u - (uint32_t)(pc->addr & 15u);
	pc->len = left < room ? (uint32_t)left : room;
	pc->pos = (uint32_t)(w->p & 7u);
	w->pc = *pc;
	w->pc_v = true;
}

static void walk_next(struct ref_walk *w, uint32_t len)
{
	uint64_t seg_end = walk_seg_end(w), cw = w->pair ? 32u : w->w;

	w->pc_v = false;
	w->p += len;
	if (w->p != seg_end)
		return;
	if (w->pair && !w->r && w->yb + 1u < w->h) {
		w->r = true;
		w->p = w->c;
	} else if (w->c + cw < w->w) {
		w->r = false;
		w->c += cw;
		w->p = w->c;
	} else {
		w->r = false;
		w->c = w->p = 0;
		w->yb += w->pair ? 2u : 1u;
		if (w->yb >= w->h)
			w->busy = false;
	}
}

/* ------------------------------------------------------------ memory channel */

static int wcb_pick_closed(const struct ref_ce *ce)
{
	int best = -1;

	for (unsigned i = 0; i < REF_CE_WCB; i++)
		if (ce->w_v[i] && ce->w_cl[i] && (best < 0 || ce->w_age[i] < ce->w_age[best]))
			best = (int)i;
	return best;
}

void ref_ce_offer(const struct ref_ce *ce, struct ref_req *req)
{
	bool live = ce->state == GPU_CE_ST_RUN || ce->state == GPU_CE_ST_DRAIN;
	int e = live ? wcb_pick_closed(ce) : -1;

	req->valid = false;
	if (e >= 0) {
		req->valid = true;
		req->we = true;
		req->addr = ce->w_beat[e] * REF_BEAT;
		memcpy(req->wdata, ce->w_data[e], REF_BEAT);
		req->wstrb = ce->w_strb[e];
		req->id = GPU_CE_CLIENT << 1 | 1u;
	} else if (live && ce->rq_wr != ce->rq_rd) {
		uint32_t h = ce->rq_rd % REF_CE_RQ;

		req->valid = true;
		req->we = false;
		req->addr = ce->rq[h].beat * REF_BEAT;
		req->wstrb = 0;
		req->id = (GPU_CE_CLIENT | ce->rq[h].slot) << 1;
	}
	req->vmid = ce->vmid;
}

/* ------------------------------------------------------------ pipeline */

static void start(struct ref_ce *ce, const struct ref_ce_cmd *c)
{
	bool pair = c->h > 1 && (c->src_mode != GPU_TILE_LINEAR || c->dst_mode != GPU_TILE_LINEAR);
	uint32_t busy = ce->busy_cycles, bytes = ce->bytes;

	ref_ce_reset(ce);
	ce->busy_cycles = busy;
	ce->bytes = bytes;
	ce->state = GPU_CE_ST_RUN;
	ce->start_pending = true;
	ce->fill = c->fill;
	ce->value = c->value;
	if (c->fill)
		walk_start(&ce->src, c->dst_base, c->dst_mode, c->bpe, c->dst_pitch, c->dst_x0b, c->dst_y0,
			   c->w, c->h, pair);
	else
		walk_start(&ce->src, c->src_base, c->src_mode, c->bpe, c->src_pitch, c->src_x0b, c->src_y0,
			   c->w, c->h, pair);
	walk_start(&ce->dst, c->dst_base, c->dst_mode, c->bpe, c->dst_pitch, c->dst_x0b, c->dst_y0, c->w,
		   c->h, pair);
}

/* The source walk: one piece into the piece FIFO. */
static void source_step(struct ref_ce *ce)
{
	struct ref_piece pc;
	uint64_t beat;
	int hit = -1;
	uint32_t slot, seq;

	if (!ce->src.busy || ce->pf_wr - ce->pf_rd == REF_CE_PF)
		return;
	walk_piece(&ce->src, &pc);
	beat = pc.addr / REF_BEAT;
	if (!ce->fill) {
		for (unsigned i = 0; i < REF_CE_REUSE; i++)
			if (ce->cam_v[i] && ce->cam_beat[i] == beat)
				hit = (int)i;
	}
	if (ce->fill) {
		slot = 0;
		seq = ce->alloc;
	} else if (hit >= 0) {
		slot = ce->cam_seq[hit] % REF_CE_SLOTS;
		seq = ce->alloc;
	} else {
		if (ce->alloc - ce->freed >= REF_CE_SLOTS || ce->rq_wr - ce->rq_rd == REF_CE_RQ)
			return;
		slot = ce->alloc % REF_CE_SLOTS;
		ce->rob_v[slot] = false;
		ce->rq[ce->rq_wr % REF_CE_RQ].beat = beat;
		ce->rq[ce->rq_wr % REF_CE_RQ].slot = slot;
		ce->rq_wr++;
		ce->cam_v[ce->cam_next] = true;
		ce->cam_beat[ce->cam_next] = beat;
		ce->cam_seq[ce->cam_next] = ce->alloc;
		ce->cam_next = (ce->cam_next + 1u) % REF_CE_REUSE;
		ce->alloc++;
		seq = ce->alloc;
	}
	{
		uint32_t i = ce->pf_wr % REF_CE_PF;

		ce->pf[i].pos = pc.pos;
		ce->pf[i].seq = seq;
		ce->pf[i].len = pc.len;
		ce->pf[i].off = (uint32_t)(pc.addr & REF_BEAT_MASK);
		ce->pf[i].slot = slot;
		ce->pf_wr++;
	}
	walk_next(&ce->src, pc.len);
}

/* Copy @len (<= 16) bytes into the byte FIFO at its write pointer, and out
 * of it at its read pointer; the FIFO wraps. */
static void bf_put(struct ref_ce *ce, const uint8_t *src, uint32_t len)
{
	uint32_t at = ce->bf_wr % REF_CE_BF, first = REF_CE_BF - at < len ? REF_CE_BF - at : len;

	memcpy(ce->bf + at, src, first);
	memcpy(ce->bf, src + first, len - first);
}

static void bf_get(const struct ref_ce *ce, uint8_t *dst, uint32_t len)
{
	uint32_t at = ce->bf_rd % REF_CE_BF, first = REF_CE_BF - at < len ? REF_CE_BF - at : len;

	memcpy(dst, ce->bf + at, first);
	memcpy(dst + first, ce->bf, len - first);
}

/* The extractor: the head piece's bytes into the byte FIFO. */
static void extract_step(struct ref_ce *ce)
{
	uint32_t h = ce->pf_rd % REF_CE_PF, len, nf;

	if (ce->pf_wr == ce->pf_rd)
		return;
	len = ce->pf[h].len;
	if (!ce->fill && !ce->rob_v[ce->pf[h].slot])
		return;
	if (REF_CE_BF - (ce->bf_wr - ce->bf_rd) < len)
		return;
	if (ce->fill) {
		uint8_t pat[24]; /* the pattern from any of its 8 phases, 16 bytes on */

		for (unsigned k = 0; k < 24; k += 8)
			memcpy(pat + k, &ce->value, 8);
		bf_put(ce, pat + ce->pf[h].pos, len);
	} else {
		bf_put(ce, ce->rob[ce->pf[h].slot] + ce->pf[h].off, len);
	}
	ce->bf_wr += len;
	ce->pf_rd++;
	/* slots older than this piece's reuse window can no longer be named */
	nf = ce->pf[h].seq - REF_CE_REUSE;
	while (!ce->fill && (int32_t)(nf - ce->freed) > 0) {
		ce->rob_v[ce->freed % REF_CE_SLOTS] = false;
		ce->freed++;
	}
}

/* The destination walk: one piece from the FIFO into a combining beat. */
static void dest_step(struct ref_ce *ce)
{
	struct ref_piece pc;
	uint64_t beat;
	int e = -1, free_e = -1;

	if (!ce->dst.busy)
		return;
	walk_piece(&ce->dst, &pc);
	beat = pc.addr / REF_BEAT;
	for (unsigned i = 0; i < REF_CE_WCB; i++) {
		if (ce->w_v[i] && !ce->w_cl[i] && ce->w_beat[i] == beat)
			e = (int)i;
		if (!ce->w_v[i] && free_e < 0)
			free_e = (int)i;
	}
	if (e < 0 && free_e < 0) {
		bool any_closed = false;
		int old = -1;

		for (unsigned i = 0; i < REF_CE_WCB; i++) {
			any_closed |= ce->w_v[i] && ce->w_cl[i];
			if (ce->w_v[i] && (old < 0 || ce->w_age[i] < ce->w_age[old]))
				old = (int)i;
		}
		if (!any_closed && old >= 0)
			ce->w_cl[old] = true; /* send the oldest off partial */
		return;
	}
	if (ce->bf_wr - ce->bf_rd < pc.len)
		return;
	if (e < 0) {
		e = free_e;
		ce->w_v[e] = true;
		ce->w_cl[e] = false;
		ce->w_beat[e] = beat;
		ce->w_strb[e] = 0;
		ce->w_age[e] = ce->w_stamp++;
	}
	{
		uint32_t o = (uint32_t)(pc.addr & REF_BEAT_MASK);

		bf_get(ce, ce->w_data[e] + o, pc.len);
		ce->w_strb[e] |= (uint32_t)(((1ull << pc.len) - 1u) << o);
	}
	ce->bf_rd += pc.len;
	if (ce->w_strb[e] == 0xffffffffu)
		ce->w_cl[e] = true;
	walk_next(&ce->dst, pc.len);
}

static bool wcb_any(const struct ref_ce *ce)
{
	for (unsigned i = 0; i < REF_CE_WCB; i++)
		if (ce->w_v[i])
			return true;
	return false;
}

/* The grant of this edge's request (@e: the write's way, or -1 for a
 * read) and the response of this edge. */
static void responses(struct ref_ce *ce, bool granted, int e, const struct ref_rsp *rsp)
{
	if (granted && e >= 0) {
		ce->wr_out++;
		ce->bytes += (uint32_t)__builtin_popcount(ce->w_strb[e]);
		ce->w_v[e] = false;
	} else if (granted) {
		ce->rq_rd++;
		ce->rd_out++;
	}
	if (!rsp)
		return;
	if (rsp->we) {
		ce->wr_out--;
	} else {
		uint32_t tag = (rsp->id >> 1) & (REF_CE_SLOTS - 1u);

		ce->rd_out--;
		memcpy(ce->rob[tag], rsp->rdata, REF_BEAT);
		ce->rob_v[tag] = !rsp->err;
	}
	if (rsp->err && ce->state != GPU_CE_ST_IDLE && ce->state != GPU_CE_ST_ABORT) {
		ce->state = GPU_CE_ST_ABORT;
		ce->fault = rsp->fault;
	}
}

void ref_ce_step(struct ref_ce *ce, const struct ref_ce_cmd *cmd, bool granted,
		 const struct ref_rsp *rsp, bool abort)
{
	uint32_t st = ce->state;
	bool to_idle = (st == GPU_CE_ST_DRAIN || st == GPU_CE_ST_ABORT) && !ce->rd_out && !ce->wr_out;
	bool first = ce->start_pending;
	int e = -1;

	if (st == GPU_CE_ST_IDLE) {
		if (cmd)
			start(ce, cmd);
		return;
	}
	ce->busy_cycles++;
	/* what was granted is what ref_ce_offer() offered: a closed way first */
	if (granted && (st == GPU_CE_ST_RUN || st == GPU_CE_ST_DRAIN))
		e = wcb_pick_closed(ce);
	if (st == GPU_CE_ST_RUN) {
		ce->start_pending = false;
		dest_step(ce);
		extract_step(ce);
		source_step(ce);
		if (!first && !ce->dst.busy) {
			for (unsigned i = 0; i < REF_CE_WCB; i++)
				ce->w_cl[i] = ce->w_v[i];
		}
	}
	responses(ce, granted, e, rsp);
	if (st == GPU_CE_ST_RUN && ce->state == GPU_CE_ST_RUN && !first && !ce->src.busy &&
	    !ce->dst.busy && ce->pf_wr == ce->pf_rd && ce->bf_wr == ce->bf_rd && !wcb_any(ce))
		ce->state = GPU_CE_ST_DRAIN;
	if (to_idle)
		ce->state = GPU_CE_ST_IDLE;
	if (abort && (ce->state == GPU_CE_ST_RUN || ce->state == GPU_CE_ST_DRAIN))
		ce->state = GPU_CE_ST_ABORT;
}
