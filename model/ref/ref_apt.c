/* SPDX-License-Identifier: MIT */
/*
 * ref_apt.c - the reference backend's aperture (BAR1), today's protocol.
 *
 * One access at a time: a naturally aligned 64-bit word with byte enables,
 * answered when the memory answers (no posting, no write combining, no
 * prefetch).  Inside the lowest-numbered valid range that holds it, the
 * window offset L from the range start is row L / pitch, byte column
 * L mod pitch of the range's surface, swizzled by dma_tile_offset(); outside
 * every range the window is VRAM, linearly.  A range with an illegal layout
 * (or a pitch not a multiple of 8) and a row past 2^16 answer with err at
 * once; a memory error answers err.
 *
 * Timing follows the states of enum gpu_apt_state (APT_STATUS.STATE): the
 * division costs 28 cycles unless the row cache (range, row start, row of
 * the last access; dropped by any APT register write) gives the same or the
 * next row.
 *
 * The aperture protocol is changing (posted write-combined writes, a read
 * prefetch, new status registers): this file must follow it.
 */
#include <string.h>

#include "dma_tile.h"
#include "ref.h"

#define DIV_CYCLES 28u

void ref_apt_reset(struct ref_apt *a)
{
	memset(a, 0, sizeof(*a));
	a->state = GPU_APT_ST_IDLE;
}

bool ref_apt_ready(const struct ref_apt *a)
{
	return a->state == GPU_APT_ST_IDLE;
}

void ref_apt_offer(const struct ref_apt *a, struct ref_req *req)
{
	unsigned lane = (unsigned)(a->addr & REF_BEAT_MASK & ~7ull);

	req->valid = a->state == GPU_APT_ST_REQ;
	if (!req->valid)
		return;
	req->we = a->we;
	req->id = GPU_APT_CLIENT << 1 | (uint32_t)a->we;
	req->vmid = 0;
	req->addr = a->addr & ~REF_BEAT_MASK;
	for (unsigned i = 0; i < REF_BEAT; i += 8)
		memcpy(req->wdata + i, &a->wdata, 8);
	req->wstrb = a->we ? (uint32_t)a->wstrb << lane : 0xffu << lane;
}

static int range_of(const struct ref_regs *regs, uint32_t a8)
{
	for (unsigned i = 0; i < GPU_APT_RANGES; i++) {
		const struct ref_range *g = &regs->rng[i];

		if (g->valid && a8 >= g->start && a8 < g->end)
			return (int)i;
	}
	return -1;
}

static void answer(struct ref_apt *a, bool err, uint64_t data)
{
	a->rsp_valid = true;
	a->rsp_err = err;
	a->rsp_rdata = err ? 0 : data;
	a->accesses++;
	a->state = GPU_APT_ST_IDLE;
}

/* A new access: where it goes, or an answer at once. */
static void accept(struct ref_apt *a, const struct ref_regs *regs, uint32_t addr)
{
	uint32_t a8 = addr & ~7u, l, pitch;
	int r = range_of(regs, a8);
	const struct ref_range *g;

	if (r < 0) {
		a->addr = GPU_VRAM_BASE + a8;
		a->state = GPU_APT_ST_REQ;
		return;
	}
	g = &regs->rng[r];
	a->r = (unsigned)r;
	pitch = g->pitch;
	if (dma_tile_check(g->mode, g->bpe, pitch) != GM_OK || pitch & 7u) {
		answer(a, true, 0);
		return;
	}
	l = a8 - g->start;
	if (a->rc_v && a->rc_r == (unsigned)r && l >= a->rc_l0 && l - a->rc_l0 < pitch) {
		a->xb = l - a->rc_l0;
		a->y = a->rc_y0;
		a->state = GPU_APT_ST_SWZ;
	} else if (a->rc_v && a->rc_r == (unsigned)r && l >= a->rc_l0 && l - a->rc_l0 - pitch < pitch &&
		   a->rc_y0 != 0xffffu) {
		a->xb = l - a->rc_l0 - pitch;
		a->rc_l0 += pitch;
		a->rc_y0++;
		a->y = a->rc_y0;
		a->state = GPU_APT_ST_SWZ;
	} else {
		a->xb = l % pitch;
		a->y = l / pitch;
		a->div_left = DIV_CYCLES;
		a->state = GPU_APT_ST_DIV;
	}
}

void ref_apt_step(struct ref_apt *a, const struct ref_regs *regs, bool req_valid, bool we,
		  uint32_t addr, uint64_t wdata, uint8_t wstrb, bool granted, const struct ref_rsp *rsp)
{
	const struct ref_range *g = &regs->rng[a->r];

	a->rsp_valid = false;
	a->rsp_err = false;
	a->rsp_rdata = 0;
	switch (a->state) {
	case GPU_APT_ST_IDLE:
		if (!req_valid)
			break;
		a->we = we;
		a->wdata = wdata;
		a->wstrb = wstrb;
		accept(a, regs, addr);
		break;
	case GPU_APT_ST_DIV:
		if (--a->div_left)
			break;
		if (a->y >> 16) {
			answer(a, true, 0);
			break;
		}
		a->rc_v = !regs->apt_wr;
		a->rc_r = a->r;
		a->rc_l0 = a->y * g->pitch;
		a->rc_y0 = a->y;
		a->state = GPU_APT_ST_SWZ;
		break;
	case GPU_APT_ST_SWZ: {
		uint32_t emask = (1u << g->bpe) - 1u;

		a->addr = (g->base + dma_tile_offset(g->mode, g->bpe, g->pitch, a->xb >> g->bpe, a->y) +
			   (a->xb & emask)) & REF_ADDR_MASK;
		a->state = GPU_APT_ST_REQ;
		break;
	}
	case GPU_APT_ST_REQ:
		if (granted)
			a->state = GPU_APT_ST_WAIT;
		break;
	case GPU_APT_ST_WAIT:
		if (rsp) {
			uint64_t v;

			memcpy(&v, rsp->rdata + (a->addr & REF_BEAT_MASK & ~7ull), 8);
			answer(a, rsp->err, a->we ? 0 : v);
		}
		break;
	default:
		a->state = GPU_APT_ST_IDLE;
		break;
	}
	if (regs->apt_wr)
		a->rc_v = false;
}
