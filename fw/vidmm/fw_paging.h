/* SPDX-License-Identifier: MIT */
/*
 * fw_paging.h - residency: eviction, page-in and the paging buffers that
 * move the bytes (the DxgkDdiBuildPagingBuffer role).
 *
 * The VRAM segment holds what the render queue uses; the system segment
 * holds what was evicted.  fw_residency.c keeps the books (which range an
 * allocation occupies, which to evict); this file moves the bytes to match:
 * an eviction is a TRANSFER (COPY) to the system segment, or nothing when
 * the content was discarded; a page-in is a TRANSFER back, or a FILL of
 * zero for an allocation without content.  The packets go into a paging
 * buffer, run as an IB on the paging queue (FW_QUEUE_COPY): no allocation
 * or patch list, no context, its own fence.  A render submission waits for
 * that fence (fw_sched.c puts a WAIT_MEM on it in the ring).
 *
 * The work comes in pieces of at most 256 KiB, each ending in a write of
 * the progress fence with interrupt (the count of pieces so far; fewer
 * bytes a piece under a low tdr_cycles), so a transfer of many
 * megabytes is seen moving: the scheduler's timeout watch counts a piece
 * done as progress (paging is the driver's work, never a device's hang),
 * and a paging wait gives up only after tdr_cycles without a piece done.
 *
 * Eviction takes the least recently used allocations that no pending
 * submission references and no Lock pins, and of those only the ones that
 * stand where the placement goes (fw_res_pick_hole): never one more, since
 * each needs room in the system segment.  Paging never resets the render
 * queue (the scheduler decides that); the paging queue it owns it recovers
 * itself when an error halts it (fw_paging_recover: from a paging wait or
 * the scheduler's TDR watch, through the progress hook), running the lost
 * paging work again; only a second failure with nothing done since is
 * reported to the caller (GM_ERR_HW, the fence wait's code).
 */
#ifndef FW_PAGING_H
#define FW_PAGING_H

#include "dma_buf.h"
#include "fw_kmd_types.h"

#define FW_PAGING_IBS (FW_GPUVA_BATCHES + 4u)   /* IBs recorded on the paging queue */
#define FW_PAGING_PIECES (FW_KMD_DMA_DW / 4u)    /* pieces one paging buffer holds at most */

/* An IB on the paging queue, not yet seen done: what recovery runs again. */
struct fw_paging_ib {
	uint64_t addr;
	uint32_t ndw;
	uint64_t fence;          /* the paging-queue fence that retires it */
	uint64_t *fence_out;     /* its submitter's copy of that fence (moved on recovery) */
	bool buffer;             /* a paging buffer (else a GPU-VA batch) */
};

/* The paging buffer being built (host side) before it goes to the paging
 * queue.  Its work comes in pieces; each ends by writing the count of pieces
 * emitted so far to the progress fence, so a long paging buffer is seen
 * moving (fw_paging.h).  Residency's state (k->pg), with the LRU stamp. */
struct fw_paging_state {
	uint32_t dw[FW_KMD_DMA_DW];
	uint32_t ndw;
	uint64_t addr;           /* its system-memory home, run as an IB */
	uint64_t fence;          /* paging-queue fence of the last paging buffer submitted */
	uint64_t last_fence;     /* of the last IB of any kind there (GPU-VA batches too):
				  * what a render submission waits for */
	uint64_t progress_addr;  /* the progress fence: 8 bytes of system memory */
	uint64_t pieces;         /* pieces emitted (the last value written there) */
	uint64_t nbufs;          /* paging buffers submitted (numbered from 1) */
	/* Recovery (fw_paging_recover.c): */
	uint32_t piece_dw[FW_PAGING_PIECES];      /* where each piece being built starts */
	uint64_t build_first;                     /* the number of the first of them */
	uint32_t inflight[FW_KMD_DMA_DW];         /* the driver's copy of the buffer in flight */
	uint32_t inflight_piece[FW_PAGING_PIECES];
	uint64_t inflight_first;
	uint32_t inflight_np;                     /* its pieces */
	struct fw_paging_ib ib[FW_PAGING_IBS];    /* IBs on the queue, in order */
	unsigned nib;
	bool recovered;                           /* rec_*: where the last recovery stood */
	uint64_t rec_done, rec_seen;
	uint64_t use_stamp;      /* LRU: stamped on an allocation each time a submission uses it */
};


/* Mark an allocation's content discardable (DISCARD_CONTENT): an eviction
 * drops it, a page-in fills zero.  GM_OK; GM_ERR_BAD_ARG; GM_ERR_DEVICE_REMOVED. */
int fw_kmd_discard(struct fw_kmd *k, struct fw_device *dev, uint32_t handle) GM_MUST_CHECK;

/*
 * The roles that hold allocations in place or follow them when they move
 * (Lock, GPU-VA) are residency's clients: fw_kmd_init lists their hooks in
 * k->paging_ops, and residency asks them, never reading their state:
 *   pinned   append to @out what must not move now (a locked allocation, one
 *            a busy process maps); returns how many.  All clients together
 *            write at most FW_PAGING_PINNED_MAX.
 *   follows  whether the client's view of @a follows it when it moves (a
 *            process maps it): evicting it then keeps a place in the system
 *            segment even when its content was discarded;
 *   moved    @a moved from @from to a->loc, its bytes' move already on the
 *            paging queue: the client's view follows (GPU-VA: an internal
 *            page-table batch).  Called only when follows said so.
 * A pending submission's allocations do not move either (fw_sched_allocs).
 */
#define FW_PAGING_PINNED_MAX (GPU_APT_RANGES + FW_KMD_RAW_LOCKS + \
			      GPU_NUM_VMIDS * FW_GPUVA_MAX_MAPPED)

struct fw_paging_ops {
	const char *name;
	size_t (*pinned)(const struct fw_kmd *k, struct fw_alloc **out);
	bool (*follows)(const struct fw_kmd *k, const struct fw_alloc *a);
	int (*moved)(struct fw_kmd *k, struct fw_alloc *a, const struct fw_loc *from);
};

/* ---- for the pipeline's other files (fw_sched.c, fw_lock.c, fw_gpuva.c) */

/* The paging-queue fence of the last IB of any kind put there (what a
 * render submission waits for). */
uint64_t fw_paging_last_fence(const struct fw_kmd *k);

/*
 * Make every allocation of @buf resident where the GPU uses it (VRAM, or
 * in place, fw_paging_in_place) and stamp it used; the
 * paging buffer goes to the paging queue before return, even after a
 * failure (what moved in the books moves in memory).  GM_OK; GM_ERR_BUSY
 * (pinned, locked and in-flight allocations leave too little room; what
 * was evicted on the way stays evicted); the codes of fw_res_place,
 * fw_submit_ib and fw_fence_wait.
 */
int fw_paging_make_resident(struct fw_kmd *k, const struct fw_dmabuf *buf) GM_MUST_CHECK;

/* Whether the GPU uses @a where it lives, with no page-in: in VRAM, or in
 * the system segment when it is dynamic (its home, pfnLockCb) or pinned
 * there by a lock (pfnLockCb: rendering from an allocation the CPU holds
 * raw; see fw_lock_render). */
bool fw_paging_in_place(const struct fw_alloc *a);

/* Whether the GPU uses @a from the system segment, not VRAM: dynamic (its
 * home, placed there when it lives nowhere yet), or pinned there by a lock. */
bool fw_paging_from_system(const struct fw_alloc *a);

/* Move @a, resident in VRAM, to the system segment now although it is
 * pinned (a raw lock's, fw_lock_render) and wait for the move: a TRANSFER
 * of its bytes, translations following.  GM_OK; GM_ERR_FULL (no room
 * there; nothing moved); the codes of fw_paging_finish. */
int fw_paging_to_system(struct fw_kmd *k, struct fw_alloc *a) GM_MUST_CHECK;

/* Make @a alone resident in VRAM (for Lock) and wait until its paging is
 * done (GM_ERR_TIMEOUT: tdr_cycles without a piece done).  GM_OK; codes
 * as fw_paging_make_resident, GM_ERR_BUSY before anything moved when VRAM's
 * free bytes and everything it could evict are too few for @a. */
int fw_paging_bring_in(struct fw_kmd *k, struct fw_alloc *a) GM_MUST_CHECK;

/* Append a BLT of the @w x @h rectangle at @src's origin to @dst's origin
 * (dma_emit_blt's operands) to the paging buffer, in pieces of rows, each
 * ending in a write of the progress fence; fw_paging_finish sends it.  The
 * origins' rows plus @h stay below 2^16.  GM_OK; dma_emit_blt's
 * GM_ERR_BAD_ARG (nothing added); paging_flush's codes (a full buffer went
 * out first). */
int fw_paging_blt(struct fw_kmd *k, const struct dma_surf *dst, const struct dma_surf *src,
		  uint32_t w, uint32_t h) GM_MUST_CHECK;

/* Submit the paging buffer built so far and wait until the paging queue is
 * done with it (GM_ERR_TIMEOUT: tdr_cycles without a piece done).  GM_OK;
 * the codes of fw_submit_ib and fw_fence_wait. */
int fw_paging_finish(struct fw_kmd *k) GM_MUST_CHECK;

/* Submit @ndw dwords at @addr (system memory) to the paging queue as a
 * privileged IB, the last paging buffer from now on (render submissions
 * wait for it); its paging-queue fence in *fence.  GM_OK; fw_submit_ib's codes. */
int fw_paging_submit_ib(struct fw_kmd *k, uint64_t addr, uint32_t ndw, uint64_t *fence)
	GM_MUST_CHECK;

/* Wait up to @budget cycles for the last IB submitted to the paging queue
 * (a paging buffer or a GPU-VA batch): GM_OK (also when there was none);
 * the codes of fw_fence_wait. */
int fw_paging_wait(struct fw_kmd *k, uint64_t budget) GM_MUST_CHECK;

/* Whether paging work is built or on the paging queue and not seen done
 * (as the CPU last read the fence). */
bool fw_paging_pending(const struct fw_kmd *k);

/* Whether paging work that moves or fills @a's bytes is not done yet (as
 * the CPU last read the paging queue's fence; built and not submitted
 * counts as not done): a lock may not touch them, and a DonotWait lock is
 * still drawing (pfnLockCb ties WASSTILLDRAWING to the allocation, not to
 * the paging queue as a whole). */
bool fw_paging_touches(const struct fw_kmd *k, const struct fw_alloc *a);

/* The pieces of paging work the paging queue has finished, as the progress
 * fence reads now (for the timeout watch).  GM_OK; GM_ERR_ADDR. */
int fw_paging_progress(struct fw_kmd *k, uint64_t *pieces) GM_MUST_CHECK;

/*
 * The paging queue halted on an error (an IB damaged in memory, a memory
 * error): reset it and run again, in order and behind one new fence, every
 * IB it had not finished - GPU-VA batches whole (they write final values:
 * running one twice does no harm), the paging buffer in flight from the
 * first piece the progress fence does not count as done, written back
 * from the driver's own copy first (a piece done is never run twice: a
 * later piece may have moved other bytes over its source).  Renders waiting
 * for a lost fence wait for the new one, so the lost paging is no device's
 * hang.  GM_OK (also when the queue is not halted); GM_ERR_HW when the same
 * work failed again with nothing done since (left halted: every paging wait
 * then fails, as before); the codes of fw_queue_reset, fw_submit and the
 * progress fence's read.
 */
int fw_paging_recover(struct fw_kmd *k) GM_MUST_CHECK;

/* Recorded for recovery (fw_paging_recover.c): an IB of @ndw dwords at @addr
 * went to the paging queue as *@fence (recovery moves *@fence); @buffer: the
 * paging buffer just built (its copy and piece starts are kept). */
void fw_paging_note_ib(struct fw_kmd *k, uint64_t addr, uint32_t ndw, uint64_t *fence,
		       bool buffer);

/* The paging role's progress hook (fw_sched.h): recovers a halted paging
 * queue, then fw_paging_progress.  Codes of fw_paging_progress. */
int fw_paging_watch(struct fw_kmd *k, uint64_t *pieces) GM_MUST_CHECK;

/* Paging's scheduler hooks (fw_sched.h): check (the VRAM segment can hold
 * the buffer's allocations together), resident (fw_paging_make_resident),
 * patch (the allocations' addresses, the paging fence to wait for),
 * submitted (what it writes is content), progress (fw_paging_watch). */
extern const struct fw_sched_ops fw_paging_sched_ops;

#endif /* FW_PAGING_H */
