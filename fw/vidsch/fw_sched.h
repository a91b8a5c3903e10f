/* SPDX-License-Identifier: MIT */
/*
 * fw_sched.h - the scheduler of the render queue: SubmitCommand, retire,
 * timeout detection and recovery, and every CPU wait that runs the GPU.
 *
 * fw_kmd_submit takes a DMA buffer through the roles' hooks (struct
 * fw_sched_ops below: Lock's, GPU-VA's, paging's), patches a copy of it with
 * its allocations' addresses of the day (dma_patch) and puts it in the
 * render queue's ring as an IB behind a WAIT_MEM on the paging fence,
 * followed by its monitored-fence signals and the queue fence whose value
 * is the SubmissionFenceId.  fw_kmd_poll is the scheduler's loop: it
 * runs the GPU to the next interrupt, lets the interrupt handler record
 * what happened (fw_isr), retires the submissions the render fence passed
 * and decides the recovery.
 *
 * Recovery is decided here and nowhere else (panfrost's timedout_job):
 * when the render queue has work and neither its fence moved nor the
 * paging queue finished a piece of paging work (fw_paging.h: the driver's
 * work, never a device's hang) for tdr_cycles, or the queue halted on an
 * error, the queue is
 * reset, the device of the oldest pending submission is removed (its later
 * calls give GM_ERR_DEVICE_REMOVED, its monitored fences jump to
 * UINT64_MAX) and the other devices' pending submissions are patched again
 * and resubmitted in order.
 */
#ifndef FW_SCHED_H
#define FW_SCHED_H

#include "fw_kmd_types.h"

/* A submission on the render queue, from SubmitCommand to retire.  Slot i
 * of the DMA buffers belongs to pend[i]. */
struct fw_kmd_pending {
	bool used;
	uint64_t fence;          /* render-queue fence = SubmissionFenceId (changes on resubmission) */
	uint64_t seq;            /* submission order */
	struct fw_dmabuf buf;    /* copy, dwords unpatched: patched again on resubmission */
	struct fw_signal sig[FW_KMD_MAX_SIGNALS];
	uint32_t nsig;
	uint64_t submit_cycle;
};

/* The scheduler's state (k->sch): the DMA buffer slots and their
 * submissions, the submission order, the TDR watch. */
struct fw_sched_state {
	uint64_t slot_addr[FW_KMD_SLOTS];            /* each slot's DMA buffer in system memory */
	struct fw_kmd_pending pend[FW_KMD_SLOTS];
	uint64_t progress_cycle;                     /* TDR watch: last progress seen */
	uint64_t seen_render, seen_pieces;           /* render fence, roles' progress then */
	uint64_t seq;
	uint32_t scratch[FW_KMD_DMA_DW];             /* the DMA buffer being patched */
};

/*
 * The roles a submission passes through, as drm_sched_backend_ops are for a
 * DRM scheduler.  fw_kmd_init lists one table per role in k->sched_ops, in
 * the order Lock (fw_lock.h), GPU-VA (fw_gpuva.h), paging (fw_paging.h); the
 * scheduler knows nothing else of them.  Each phase calls the roles that
 * have its hook, in that order, at one fixed point of the submission:
 *
 *   check      fw_kmd_submit, after its own checks (arguments, allocation
 *              handles, monitored-fence signals, the patch list): may the
 *              buffer run at all?  Nothing has changed yet; the first code
 *              that is not GM_OK is fw_kmd_submit's (Lock and GPU-VA refuse
 *              with GM_ERR_BAD_ARG, paging with GM_ERR_FULL).
 *   prepare    before a DMA buffer slot is taken (not for NullRendering):
 *              move what would stop the buffer from running (Lock: raw
 *              locks in VRAM go to the system segment).
 *   resident   with the slot taken, and again when TDR resubmits the buffer
 *              (not for NullRendering): make its allocations resident.
 *              GM_ERR_BUSY: the scheduler waits for a submission to retire
 *              and calls the phase again.
 *   patch      before the buffer is patched and goes in the ring (not for
 *              NullRendering; again on resubmission): the role writes its
 *              part of the run - the allocations' addresses in @buf's
 *              allocation list (DXGKARG_PATCH's pAllocationList), *@run's
 *              paging fence and VMID.
 *   submitted  once the buffer is in the ring and its monitored-fence
 *              signals requested; a code is fw_kmd_submit's, the submission
 *              stands.
 *   removed    TDR removed @dev (after its monitored fences jumped).
 *   progress   the TDR watch: a count that grows while the role's own work
 *              moves (paging: pieces of paging buffers done); the watch sums
 *              the roles' counts.
 */
struct fw_sched_run {
	uint64_t wait_fence;  /* paging-queue fence the IB waits for (WAIT_MEM); 0: none */
	unsigned vmid;        /* the VMID the IB runs in; 0: physical */
};

struct fw_sched_ops {
	const char *name;
	int (*check)(const struct fw_kmd *k, const struct fw_dmabuf *buf,
		     const struct fw_signal *sig, uint32_t nsig);
	int (*prepare)(struct fw_kmd *k, const struct fw_dmabuf *buf);
	int (*resident)(struct fw_kmd *k, const struct fw_dmabuf *buf);
	void (*patch)(const struct fw_kmd *k, struct fw_dmabuf *buf, struct fw_sched_run *run);
	int (*submitted)(struct fw_kmd *k, const struct fw_dmabuf *buf);
	void (*removed)(struct fw_kmd *k, const struct fw_device *dev);
	int (*progress)(struct fw_kmd *k, uint64_t *count);
};

/*
 * SubmitCommand: residency, patch, submit (see the top of this file); the
 * render-queue fence of the submission in *fence.  @sig signals monitored
 * fences of @buf's device when the buffer completes; each value must be
 * above every value already requested for that fence.  GM_OK; GM_ERR_BAD_ARG
 * (NULL, a signal to another device's fence or going backwards, a patch list
 * the patcher refuses, patch flags fw_render_flags_ok refuses: nothing
 * submitted).  With NullRendering (buf->flags) nothing is made resident or
 * patched and the IB is not put in the ring: the signals and the fence
 * complete in order, no packet runs; GM_ERR_BAD_ARG too for an allocation
 * the CPU holds through a range or the copy fallback (pfnLockCb); an
 * allocation it holds raw in VRAM goes to the system segment first
 * (fw_lock_render: GM_ERR_CANT_RENDER_LOCKED when it cannot, nothing
 * moved); dynamic allocations are used in the system segment (fw_paging.h);
 * GM_ERR_FULL (the VRAM segment is smaller than the buffer's allocations
 * that live there together, or the system segment has no room for a
 * dynamic one: nothing moved);
 * GM_ERR_BUSY (pinned, locked and in-flight allocations leave too little
 * room even after eviction; what was evicted on the way stays evicted);
 * GM_ERR_TIMEOUT (no DMA buffer slot came free); GM_ERR_DEVICE_REMOVED;
 * GM_ERR_HW (a paging buffer lost to a paging-queue error) and the codes
 * of fw_kmd_poll.
 */
int fw_kmd_submit(struct fw_kmd *k, const struct fw_dmabuf *buf, const struct fw_signal *sig,
		  uint32_t nsig, uint64_t *fence) GM_MUST_CHECK;

/*
 * The runtime's flush: Render @cb on @dev into @scratch as many DMA buffers
 * as it takes (multipass) and submit each in order; only the last carries
 * @sig (NULL: no signal).  GM_OK; the codes of fw_kmd_render for its
 * arguments and GM_ERR_BAD_ARG for a signal fw_kmd_submit would refuse, both
 * before anything is submitted; else the first code of fw_kmd_submit, with
 * the DMA buffers before it submitted and the rest not.
 */
int fw_kmd_submit_cmdbuf(struct fw_kmd *k, struct fw_device *dev, const struct fw_cmdbuf *cb,
			 struct fw_dmabuf *scratch, const struct fw_signal *sig) GM_MUST_CHECK;

/*
 * Run the GPU up to @cycles cycles handling interrupts, retiring completed
 * submissions and watching for a hang (TDR).  Returns when the render queue
 * has nothing pending or the cycles are spent.  GM_OK; GM_ERR_BAD_ARG;
 * GM_ERR_HW (a register refused the interrupt handler or the render
 * queue's reset) or GM_ERR_ADDR (a fence's memory unreadable): the driver's
 * view of the GPU is lost, the loop stopped there.
 */
int fw_kmd_poll(struct fw_kmd *k, uint64_t cycles) GM_MUST_CHECK;

/* ---- for the pipeline's other files (fw_lock.c, fw_paging.c, fw_kmd.c) */

/* Whether a submission is pending on the render queue. */
bool fw_sched_busy(const struct fw_kmd *k);

/* True when a pending submission references @a (@writes_only: writes it). */
bool fw_sched_references(const struct fw_kmd *k, const struct fw_alloc *a, bool writes_only);

/* Append to @out every allocation a pending submission references (at
 * most FW_KMD_MAX_ALLOCS * FW_KMD_SLOTS, repeats included); returns how
 * many. */
size_t fw_sched_allocs(const struct fw_kmd *k, struct fw_alloc **out);

/* Whether @dev has a submission pending. */
bool fw_sched_device_busy(const struct fw_kmd *k, const struct fw_device *dev);

/* Whether a pending submission signals monitored fence @fence to @value or
 * above. */
bool fw_sched_signals(const struct fw_kmd *k, uint32_t fence, uint64_t value);

/* The system-memory bytes [*lo, *hi) the DMA buffer slots span (the IBs
 * the render ring runs). */
void fw_sched_slots(const struct fw_kmd *k, uint64_t *lo, uint64_t *hi);

/* Poll until @dev has nothing pending, up to @budget cycles: GM_OK;
 * GM_ERR_TIMEOUT (still pending); the codes of fw_kmd_poll. */
int fw_sched_drain(struct fw_kmd *k, const struct fw_device *dev, uint64_t budget) GM_MUST_CHECK;

#endif /* FW_SCHED_H */
