/* SPDX-License-Identifier: MIT */
/*
 * ref_apt.c - the reference backend's aperture (BAR1): host side and
 * translation.
 *
 * From the README's aperture section and regspec/REGISTERS.md: the host
 * presents naturally aligned 16-byte chunks with 16 byte enables; a chunk
 * inside a valid range (the lowest-numbered one containing it) addresses
 * the surface at the range's base at row y = L / pitch and byte column
 * L mod pitch (L the offset from the range start), elsewhere the window is
 * VRAM.  A chunk is one unit of translation when both halves are enabled and
 * every valid range keeps 16-byte granules whole (start, end and pitch
 * multiples of 16); otherwise each enabled half is a unit of its own, the
 * low one first.  Timing follows the hardware: a host FIFO of REF_APT_HOST
 * chunks, then one unit per cycle through the range match and the row
 * cache (the range, row start and row of the last access; the same or the
 * next row translates at once, anything else divides for
 * REF_APT_DIV_CYCLES cycles and then translates), a stage holding the row
 * and column, and a stage holding the physical address that the back end
 * (ref_apt_mem.c: write combining, streamed reads, errors) takes.
 */
#include <string.h>

#include "gm_status.h"
#include "gpu_tile.h"
#include "ref.h"

#define WIN_MASK (GPU_APT_WINDOW_BYTES - 1u)
#define ROW_MAX 0xffffu          /* rows are 16 bits */
#define PA_MASK ((1ull << 48) - 1u)

void ref_apt_reset(struct ref_apt *a)
{
	memset(a, 0, sizeof(*a));
	a->state = GPU_APT_ST_IDLE;
}

bool ref_apt_ready(const struct ref_apt *a, bool pending)
{
	return a->hq_n + (unsigned)pending < REF_APT_HOST;
}

bool ref_apt_front_empty(const struct ref_apt *a)
{
	return !a->hq_n && !a->s1.v && !a->s2.v && a->state == GPU_APT_ST_IDLE;
}

/* APT_STATUS.BUSY: an access or a posted write not done, a fetch not
 * issued, or a flush not complete. */
static bool status_busy(const struct ref_apt *a)
{
	return !ref_apt_front_empty(a) || !ref_apt_drained(a) || a->ru_n || a->rb_iss != a->rb_alloc ||
	       a->flush;
}

bool ref_apt_busy(const struct ref_apt *a)
{
	/* ... or a beat buffer beyond the prefetched one still to release */
	return status_busy(a) || a->rb_alloc - a->rb_free > 1u;
}

uint32_t ref_apt_status(const struct ref_apt *a)
{
	unsigned rb_new = (a->rb_alloc - 1u) % REF_APT_RB, rd;
	bool pf = a->rb_alloc != a->rb_free && (a->rb_v >> rb_new & 1u) && !(a->rb_stale >> rb_new & 1u) &&
		  !(a->rb_err >> rb_new & 1u);
	bool drain = a->s2.v && !a->s2.u.we && a->ru_n < REF_APT_RU && a->s2.err == GPU_APT_ERR_NONE &&
		     !ref_apt_drained(a);

	rd = drain ? GPU_APT_RD_DRAIN : a->rb_iss != a->rb_alloc ? GPU_APT_RD_REQ
	     : a->ru_n ? GPU_APT_RD_WAIT : GPU_APT_RD_IDLE;
	return GPU_APT_STATUS_STATE(a->state) | GPU_APT_STATUS_RD(rd) | GPU_APT_STATUS_BUSY(status_busy(a)) |
	       GPU_APT_STATUS_WC(a->wc_v) | GPU_APT_STATUS_PF(pf) |
	       GPU_APT_STATUS_PEND(a->wq_n + (unsigned)__builtin_popcount(a->sl_v));
}

/* Whether every valid range keeps 16-byte granules whole. */
static bool wide_ok(const struct ref_regs *regs)
{
	for (unsigned i = 0; i < GPU_APT_RANGES; i++) {
		const struct ref_range *g = &regs->rng[i];

		if (g->valid && ((g->start | g->end | g->pitch) & 8u))
			return false;
	}
	return true;
}

/* The unit the head chunk gives next. */
static void head_unit(const struct ref_apt *a, bool wide_ok, struct ref_apt_unit *u)
{
	const struct ref_apt_chunk *h = &a->hq[a->hq_rd];
	bool lo = h->strb & 0xffu, hi = h->strb >> 8;

	memset(u, 0, sizeof(*u));
	u->we = h->we;
	u->wide = lo && hi && wide_ok && !a->part;
	u->half = a->part || !lo;
	u->last = u->wide || u->half || !hi;
	u->off = h->off | (uint32_t)u->half << 3;
	if (u->wide) {
		memcpy(u->data, h->data, 16);
		u->strb = h->strb;
	} else {
		memcpy(u->data, h->data + 8 * u->half, 8);
		u->strb = (h->strb >> 8 * u->half) & 0xffu;
	}
}

/* The lowest-numbered valid range containing window offset @a8, or -1. */
static int range_of(const struct ref_regs *regs, uint32_t a8)
{
	for (unsigned i = 0; i < GPU_APT_RANGES; i++) {
		const struct ref_range *g = &regs->rng[i];

		if (g->valid && a8 >= g->start && a8 < g->end)
			return (int)i;
	}
	return -1;
}

/* The layout can be addressed and its pitch is whole words. */
static bool range_ok(const struct ref_range *g)
{
	return gpu_tile_check(g->mode, g->bpe, g->pitch) == GM_OK && !(g->pitch & 7u);
}

/*
 * Translate the head's next unit into @s1 (the front end's cycle in IDLE):
 * false when the row cache missed, the division started and nothing was
 * translated.
 */
static bool translate_head(struct ref_apt *a, const struct ref_regs *regs, struct ref_apt_stage *s1)
{
	const struct ref_range *g;
	uint32_t l, d;
	int r;

	memset(s1, 0, sizeof(*s1));
	head_unit(a, wide_ok(regs), &s1->u);
	s1->v = true;
	r = range_of(regs, s1->u.off);
	if (r < 0) {
		s1->lin = true;
		s1->addr = GPU_VRAM_BASE + s1->u.off;
		return true;
	}
	s1->r = (unsigned)r;
	g = &regs->rng[r];
	l = s1->u.off - g->start;
	d = (l - a->rc_l0) & WIN_MASK;
	if (!range_ok(g)) {
		s1->err = GPU_APT_ERR_FORMAT;
	} else if (a->row_err) {
		s1->err = GPU_APT_ERR_ROW;
		a->row_err = false;
	} else if (a->rc_v && a->rc_r == (unsigned)r && l >= a->rc_l0 && d < g->pitch) {
		s1->xb = d;
		s1->y = a->rc_y0;
	} else if (a->rc_v && a->rc_r == (unsigned)r && l >= a->rc_l0 && ((d - g->pitch) & WIN_MASK) < g->pitch &&
		   a->rc_y0 != ROW_MAX) {
		/* the next row: the cache moves on with it */
		s1->xb = d - g->pitch;
		s1->y = ++a->rc_y0;
		a->rc_l0 += g->pitch;
	} else {
		a->state = GPU_APT_ST_DIV;
		a->div_r = (unsigned)r;
		a->div_l = l;
		a->div_q = l / g->pitch;
		a->div_rem = l % g->pitch;
		a->div_left = REF_APT_DIV_CYCLES;
		return false;
	}
	return true;
}

/*
 * One cycle of the row division; at its end the row cache holds its row
 * (or the head will answer ROW), unless a range register is written in
 * that last cycle.  The quotient is taken with the pitch of the division's
 * first cycle: the hardware divides bit-serially with the pitch of each
 * cycle, and keeps the result even when a range register was written in
 * an earlier cycle of the division (rtl/apt/apt_top.sv: rc_v_d is set from
 * cfg_wr_i of the last cycle only) - both differ only if a range is
 * reprogrammed while a division runs, which gm.c's users never do.
 */
static void divide(struct ref_apt *a, bool cfg_wr)
{
	if (--a->div_left)
		return;
	a->state = GPU_APT_ST_IDLE;
	if (a->div_q > ROW_MAX) {
		a->row_err = !cfg_wr;
		return;
	}
	a->rc_v = !cfg_wr;
	a->rc_r = a->div_r;
	a->rc_l0 = a->div_l - a->div_rem;
	a->rc_y0 = a->div_q;
}

/* s1 to s2: the surface offset of the row and column, or the VRAM address. */
static void swizzle(const struct ref_regs *regs, const struct ref_apt_stage *s1, struct ref_apt_stage *s2)
{
	const struct ref_range *g = &regs->rng[s1->r];
	uint32_t emask = (1u << g->bpe) - 1u;

	*s2 = *s1;
	if (s1->lin || s1->err != GPU_APT_ERR_NONE)
		return;
	s2->addr = (g->base + gpu_tile_offset(g->mode, g->bpe, g->pitch, s1->xb >> g->bpe, s1->y) +
		    (s1->xb & emask)) & PA_MASK;
}

static void host_push(struct ref_apt *a, const struct ref_apt_in *in)
{
	struct ref_apt_chunk *c = &a->hq[(a->hq_rd + a->hq_n) % REF_APT_HOST];

	c->we = in->we;
	c->off = in->addr & WIN_MASK & ~15u;
	memcpy(c->data, in->wdata, 16);
	c->strb = in->wstrb;
	a->hq_n++;
}

void ref_apt_step(struct ref_apt *a, const struct ref_regs *regs, const struct ref_apt_in *in)
{
	bool s2_free, s1_free, s1_was = a->s1.v;
	struct ref_apt_stage s1;

	/* the back end takes s2 or not; then the stages move */
	s2_free = ref_apt_mem_step(a, regs, in) || !a->s2.v;
	s1_free = !s1_was || s2_free;
	if (a->s2.v && s2_free)
		a->s2.v = false;
	if (s1_was && s2_free) {
		swizzle(regs, &a->s1, &a->s2);
		a->s1.v = false;
	}
	if (a->state == GPU_APT_ST_DIV) {
		divide(a, regs->apt_cfg_wr);
	} else if (a->hq_n && s1_free && translate_head(a, regs, &s1)) {
		a->s1 = s1;
		a->part = !s1.u.last;
		if (s1.u.last) {
			a->hq_rd = (a->hq_rd + 1u) % REF_APT_HOST;
			a->hq_n--;
		}
	}
	/* a range register written: the row cache is dropped (this edge's
	 * translation still used it) */
	if (regs->apt_cfg_wr)
		a->rc_v = a->row_err = false;
	if (in->req_valid)
		host_push(a, in);
}
