/* SPDX-License-Identifier: MIT */
/*
 * gm_mem.h - the memory model behind the GPU's memory master port.
 *
 * Two regions, VRAM and system memory, each a sparse store (only touched
 * 4 KiB pages are allocated, so a 4 GiB VRAM costs nothing until written)
 * with its own latency, bandwidth and base address.  The port side takes
 * one beat-sized request per cycle when fewer than max_outstanding are in
 * flight, and hands back responses in order of completion (not of issue):
 * a short-latency region overtakes a long one, so ids matter.
 *
 * The functional effect of a request (the read of data, the write of bytes)
 * happens when it is accepted; only its response is delayed.  So a write
 * followed by a read of the same address observes the write, whatever the
 * response order.
 *
 * Not thread-safe; one gm_mem per model instance, no globals.
 */
#ifndef GM_MEM_H
#define GM_MEM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gm_status.h"

#define GM_MEM_MAX_BEAT 64u /* bytes; the largest supported beat */

struct gm_mem_region_cfg {
	uint64_t base;           /* first byte address of the region */
	uint64_t size;           /* bytes; 0 disables the region */
	uint32_t latency_cycles; /* accept to response, at least 1 */
	uint32_t bytes_per_cycle; /* sustained bandwidth, at least 1 */
};

struct gm_mem_cfg {
	struct gm_mem_region_cfg vram;
	struct gm_mem_region_cfg sys;
	uint32_t beat_bytes;      /* bytes per request beat: 4..GM_MEM_MAX_BEAT, power of two */
	uint32_t max_outstanding; /* requests in flight before the port stalls, 1..4096 */
};

struct gm_mem_req {
	uint32_t id;
	uint64_t addr;   /* beat-aligned byte address */
	bool write;
	uint8_t wdata[GM_MEM_MAX_BEAT];
	uint64_t wstrb;  /* bit i enables byte i of wdata */
};

struct gm_mem_rsp {
	uint32_t id;
	bool write;      /* the response acknowledges a write */
	bool err;        /* the address decoded to no region; nothing was read or written */
	uint64_t accepted; /* the cycle the request was accepted */
	uint8_t rdata[GM_MEM_MAX_BEAT]; /* zero for writes and errors */
};

struct gm_mem_region_stats {
	uint64_t rd_bytes, wr_bytes;   /* bytes moved through the port (by strobe for writes) */
	uint64_t rd_reqs, wr_reqs;
	uint64_t pages;                /* 4 KiB pages allocated in the sparse store */
};

struct gm_mem_stats {
	struct gm_mem_region_stats vram, sys;
	uint64_t err_reqs;             /* requests that decoded to no region */
	uint64_t busy_cycles;          /* ticks with at least one request in flight */
	uint64_t occupancy_sum;        /* sum over ticks of requests in flight */
	uint32_t max_occupancy;        /* most requests in flight at once */
	uint64_t stall_cycles;         /* ticks where the port refused a request (full) */
	uint64_t ticks;
};

struct gm_mem;

/*
 * Create a memory model.  Returns GM_OK and sets *out, or GM_ERR_BAD_ARG
 * (bad config: zero/oversized beat, regions overlapping, zero latency or
 * bandwidth on an enabled region) or GM_ERR_NO_MEM; *out is untouched on error.
 */
int gm_mem_create(const struct gm_mem_cfg *cfg, struct gm_mem **out);
void gm_mem_destroy(struct gm_mem *m);

/*
 * Backdoor access for tests and for the host side: no timing, no stats.
 * The whole range must lie in one region, else GM_ERR_ADDR and nothing is
 * read or written.  Unwritten memory reads as zero (and reading allocates
 * nothing).
 */
int gm_mem_read(struct gm_mem *m, uint64_t addr, void *buf, size_t len);
int gm_mem_write(struct gm_mem *m, uint64_t addr, const void *buf, size_t len);

/* True when addr..addr+len-1 lies inside one region. */
bool gm_mem_valid_range(const struct gm_mem *m, uint64_t addr, uint64_t len);

/* True when the port can take a request this cycle. */
bool gm_mem_can_accept(const struct gm_mem *m);

/*
 * Accept one request at cycle @now.  Returns GM_ERR_BUSY (nothing taken) when
 * the port is full, GM_ERR_BAD_ARG for an unaligned address; an address in
 * no region is accepted and answered with err set.
 */
int gm_mem_request(struct gm_mem *m, uint64_t now, const struct gm_mem_req *req);

/*
 * Serve @req at cycle @now without queueing it: its effect now, *rsp its
 * response and *due the cycle it is due (as gm_mem_request would queue it).
 * For a target that answers at once (a TLM b_transport); GM_ERR_BUSY when
 * requests queued by gm_mem_request are in flight, else as gm_mem_request.
 */
int gm_mem_serve(struct gm_mem *m, uint64_t now, const struct gm_mem_req *req,
		 struct gm_mem_rsp *rsp, uint64_t *due);

/*
 * Pop the response that is due by cycle @now and completed first (ties in
 * order of acceptance).  Returns true and fills *rsp, or false when none is due.
 */
bool gm_mem_response(struct gm_mem *m, uint64_t now, struct gm_mem_rsp *rsp);

/* Account one cycle for the statistics (call once per model cycle). */
void gm_mem_tick(struct gm_mem *m, bool refused);

/* Copy the statistics; never fails. */
void gm_mem_get_stats(const struct gm_mem *m, struct gm_mem_stats *st);

/* A hash of the whole contents of both regions, however they were written:
 * the sum over pages holding a nonzero byte of FNV-1a 64 of (page number,
 * bytes), so the order pages were allocated in does not matter and a page
 * of zeros counts as one never written. */
uint64_t gm_mem_hash(const struct gm_mem *m);

/* Number of requests in flight. */
uint32_t gm_mem_outstanding(const struct gm_mem *m);

/* Cycles the data bus of VRAM (@sys false) or system memory is booked
 * beyond @now by the requests accepted (0: idle): the bandwidth's backlog. */
uint64_t gm_mem_backlog(const struct gm_mem *m, bool sys, uint64_t now);

#endif /* GM_MEM_H */
