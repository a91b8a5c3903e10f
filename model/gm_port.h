/* SPDX-License-Identifier: MIT */
/*
 * gm_port.h - the memory master port of a model whose memory is elsewhere
 * (a TLM-2.0 target behind gpusim_tlm's initiator socket, model/tlm/).
 *
 * It is the port half of gm_mem (model/gm_mem.h) without the store: one
 * beat-sized request a cycle while fewer than max_outstanding are in
 * flight, handed to a transfer callback that performs it at once and says
 * the cycle its response is due; the responses come back one a cycle, the
 * smallest (due, acceptance order) first - gm_mem's own order, so a target
 * that computes gm_mem's due cycles gives gm_mem's cycles exactly.  The
 * port-side statistics (ticks, occupancy, stalls) are gm_mem's.
 *
 * Not thread-safe; one per model, no globals.
 */
#ifndef GM_PORT_H
#define GM_PORT_H

#include <stdbool.h>
#include <stdint.h>

#include "gm_mem.h"

/*
 * Perform @req, accepted at cycle @now: fill *rsp (id, write, err, rdata;
 * err when the target refused it) and set *due (> @now) to the cycle from
 * which the response may be popped.  Never fails: an error is a response.
 */
typedef void (*gm_port_xfer_fn)(void *ctx, uint64_t now, const struct gm_mem_req *req,
				struct gm_mem_rsp *rsp, uint64_t *due);

struct gm_port;

/* A port of @max_outstanding (1..4096) requests in flight, beats of
 * @beat_bytes.  GM_OK and *out, GM_ERR_BAD_ARG or GM_ERR_NO_MEM. */
int gm_port_create(uint32_t max_outstanding, uint32_t beat_bytes, gm_port_xfer_fn xfer, void *ctx,
		   struct gm_port **out);
void gm_port_destroy(struct gm_port *p);

/* As gm_mem_can_accept / gm_mem_request / gm_mem_response / gm_mem_tick /
 * gm_mem_outstanding. */
bool gm_port_can_accept(const struct gm_port *p);
void gm_port_request(struct gm_port *p, uint64_t now, const struct gm_mem_req *req);
bool gm_port_response(struct gm_port *p, uint64_t now, struct gm_mem_rsp *rsp);
void gm_port_tick(struct gm_port *p, bool refused);
uint32_t gm_port_outstanding(const struct gm_port *p);

/* The port-side statistics: ticks, busy, occupancy, stalls, and the
 * requests and bytes by direction (all counted under vram: the port does
 * not know the target's map), err_reqs. */
void gm_port_get_stats(const struct gm_port *p, struct gm_mem_stats *st);

#endif /* GM_PORT_H */
