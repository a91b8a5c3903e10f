/* SPDX-License-Identifier: MIT */
/*
 * ref_arb.c - the reference backend's arbiter of memory requests.
 *
 * Clients 0..REF_NUM_QUEUES-1 are the queues, then the aperture, then the
 * copy engine; one request per cycle goes to the MMU, round-robin from the
 * client after the last one served, so none starves.  A request leaves with
 * id = client number << 1 | write (the copy engine and the aperture put
 * their tag in the low bits of their client number), which is how
 * responses find their client again (gpu_top's port description in
 * rtl/top/gpu_top.sv).
 */
#include "ref.h"

void ref_arb_reset(struct ref_arb *a)
{
	a->last = REF_NUM_CLIENTS - 1u;
}

int ref_arb_pick(const struct ref_arb *a, const struct ref_req *offers)
{
	for (unsigned i = 1; i <= REF_NUM_CLIENTS; i++) {
		unsigned c = (a->last + i) % REF_NUM_CLIENTS;

		if (offers[c].valid)
			return (int)c;
	}
	return -1;
}

void ref_arb_step(struct ref_arb *a, int pick, bool taken)
{
	if (pick >= 0 && taken)
		a->last = (unsigned)pick;
}

int ref_arb_client(uint32_t id)
{
	uint32_t c = (id >> 1) & 0x7fu;

	if (id == REF_WALK_ID)
		return -1;
	if (c < REF_NUM_QUEUES)
		return (int)c;
	if ((c & ~(GPU_APT_SLOTS - 1u)) == GPU_APT_CLIENT)
		return REF_NUM_QUEUES;
	if ((c & ~(REF_CE_SLOTS - 1u)) == GPU_CE_CLIENT)
		return REF_NUM_QUEUES + 1;
	return -1;
}
