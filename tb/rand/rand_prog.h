/* SPDX-License-Identifier: MIT */
/*
 * rand_prog.h - seeded constrained-random programs for the whole GPU.
 *
 * One program is everything a run needs: the memory image (source data,
 * rings, IBs, page tables of VMIDs 1..3 with 4 KiB, 64 KiB-fragment, null
 * and invalid entries), the register set-up, and the two rings' contents.
 * The render queue (0) runs IBs in VMID 1; the privileged paging queue (1)
 * runs IBs in VMIDs 2 and 3 and physical privileged IBs that rewrite VMID
 * 3's tables with PTE_WRITE followed by INVALIDATE_TLB.  Packets: NOP,
 * WRITE_DATA, COPY/BLT/FILL in every tile mode and element size, TIMESTAMP,
 * WAIT_MEM on a semaphore the other queue advances, fences with and without
 * interrupts after every IB; a controlled share of malformed packets and of
 * accesses to pages that fault (or are null tiles).  Each ring's doorbell
 * is rung twice: first short of the end (anywhere, mid-packet too), then,
 * while the queue runs and prefetches, over the rest.
 *
 * The program is built so its end state does not depend on timing: queues
 * write disjoint memory, an access that may fault through a posted write
 * ends its queue's program, a tables rewrite is fenced before and
 * invalidated after, timestamps land in an area the scoreboard ignores, and
 * a copy-engine command that may fault has its destination listed as
 * "uncertain" (bytes not written when the engine stops depend on timing).
 */
#ifndef RAND_PROG_H
#define RAND_PROG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gm.h"

#define RP_RING_LOG2 12u                 /* 4096-dword rings */
#define RP_MAX_UNCERTAIN 64u

/* A physical range the scoreboard compares (or, uncertain, skips). */
struct rp_range {
	uint64_t pa, len;
};

#define RP_SRC_BYTES 0x100000u          /* the shared read-only source data */
#define RP_IB_DW 0x10000u                /* IB area of each queue, dwords */
#define RP_VMIDS 4u                      /* VMIDs 1..3 used */
#define RP_PT_TABLES 5u                  /* L0, L1, L2, two L3 */

struct rand_prog {
	uint64_t seed;
	struct gm_config cfg;            /* memory latency, bandwidth, requests in flight */
	uint32_t regs[24];               /* values the register sweep writes */
	/* the memory image */
	uint8_t src[RP_SRC_BYTES];
	uint32_t ib[2][RP_IB_DW];
	uint32_t ibw[2];
	uint64_t pt[RP_VMIDS][RP_PT_TABLES][512];
	/* rings, ready to be copied to memory: dwords and write pointer */
	uint32_t ring[2][1u << RP_RING_LOG2];
	uint32_t wptr[2];
	uint32_t wdb[2];                 /* the first doorbell, short of wptr (maybe mid-packet):
	                                  * the queue prefetches up to it, the rest comes later */
	/* ranges compared at the end */
	struct rp_range cmp[8];
	unsigned ncmp;
	/* destination ranges of copy-engine commands that may fault */
	struct rp_range unc[RP_MAX_UNCERTAIN];
	unsigned nunc;
	bool unc_all;                    /* too many: compare none of the DST areas */
	/* what the generator put in, for the log */
	unsigned pkts, malformed, risky;
};

/* Options of rand_prog_build(). */
#define RP_OPT_NULL_FRAG 1u  /* some null (V=0, PRT=1) PTEs also carry FRAG64K, which
                              * regspec says a null PTE's walker ignores (see README) */

/* Build the program of @seed (with RP_OPT_* @opts).  GM_OK. */
int rand_prog_build(struct rand_prog *p, uint64_t seed, unsigned opts);

/* Write its memory image through @g's backdoor.  GM_OK or the backdoor's error. */
int rand_prog_load(const struct rand_prog *p, struct gm *g);

/* Write the sweep's values to registers that do not change the run
 * (SCRATCH, unused VM roots and aperture ranges, the invalidation
 * registers without GO) and read every register back into *hash. */
int rand_prog_sweep(const struct rand_prog *p, struct gm *g, uint64_t *hash);

/* Program the registers and ring the first doorbells (wdb): the run starts. */
int rand_prog_start(const struct rand_prog *p, struct gm *g);

/* Ring the doorbells over the whole rings (wptr), while the queues run
 * (and prefetch) what the first ones let them.  GM_OK or the register's error. */
int rand_prog_ring(const struct rand_prog *p, struct gm *g);

/* Recovery of queue @q (halted on an error, or hung): Q_CTRL.RESET, then a
 * WRITE_DATA and a fence with interrupt from the start of its ring.
 * GM_OK or the register/backdoor error. */
int rand_prog_recover(const struct rand_prog *p, struct gm *g, unsigned q);

/* Write zeros over every uncertain range, so what runs next (the aperture
 * phase, which reads through swizzled ranges it cannot tell apart) sees the
 * same bytes on every backend.  GM_OK or the backdoor's error. */
int rand_prog_settle(const struct rand_prog *p, struct gm *g);

/* Whether [pa, pa+len) overlaps an uncertain range. */
bool rand_prog_uncertain(const struct rand_prog *p, uint64_t pa);

#endif /* RAND_PROG_H */
