/* SPDX-License-Identifier: MIT */
/*
 * fw_kmd.h - the submission pipeline: the kernel-mode driver's half of
 * WDDM (DxgkDdiRender, DxgkDdiPatch, DxgkDdiSubmitCommand,
 * DxgkDdiBuildPagingBuffer) and the video memory manager / scheduler around
 * them (residency, eviction, monitored fences, timeout detection).
 *
 * The path of one command buffer:
 *   fw_kmd_render()  validate the user command buffer (dma_validate), copy
 *                    it into a kernel DMA buffer, resolve its allocation
 *                    handles (fw_res_get_handle_data) and keep its patch list;
 *                    a buffer too long for one DMA buffer returns GM_ERR_FULL
 *                    with the offset to resume from (MultipassOffset);
 *   fw_kmd_submit()  make every referenced allocation resident in VRAM:
 *                    eviction (TRANSFER to system memory, or nothing when the
 *                    content was discarded) and page-in (TRANSFER, or FILL
 *                    zero for fresh content) as COPY/FILL packets in a paging
 *                    buffer on the paging queue, which carries no lists and
 *                    no context; patch the DMA buffer with the allocations'
 *                    physical addresses (dma_patch); submit it to the render
 *                    queue as an IB behind a WAIT_MEM on the paging fence,
 *                    followed by the monitored-fence signals and the queue
 *                    fence whose value is the SubmissionFenceId;
 *   fw_kmd_poll()    the interrupt: fences read, DMA completed, submissions
 *                    retired; a render queue whose fence has not moved for
 *                    tdr_cycles while work is pending is reset (TDR): the
 *                    device of the oldest pending submission is removed (its
 *                    later calls give GM_ERR_DEVICE_REMOVED, its monitored
 *                    fences jump to UINT64_MAX), the other devices' pending
 *                    submissions are patched again and resubmitted.
 *
 * Queues: FW_QUEUE_RENDER runs the devices' DMA buffers in physical mode
 * (VMID 0, patched addresses); FW_QUEUE_COPY is the paging queue.
 * Single-threaded; no globals.
 */
#ifndef FW_KMD_H
#define FW_KMD_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "dma_patch.h"
#include "fw_dev.h"
#include "fw_res.h"

#define FW_KMD_DMA_DW 4096u      /* dwords in one DMA buffer */
#define FW_KMD_SLOTS 8u          /* DMA buffers in flight */
#define FW_KMD_MAX_ALLOCS 32u    /* allocations one DMA buffer references */
#define FW_KMD_MAX_LOCS 1024u    /* patch locations in one DMA buffer */
#define FW_KMD_MAX_SIGNALS 4u    /* monitored-fence signals per submission */
#define FW_KMD_MAX_MFENCES 64u
#define FW_KMD_SEG_VRAM 1u       /* segment ids */
#define FW_KMD_SEG_SYS 2u

struct fw_kmd_cfg {
	uint64_t vram_base, vram_bytes; /* the VRAM segment (physical; 64 KiB aligned) */
	uint64_t sys_bytes;             /* the system-memory segment, carved from fw_alloc_sys */
	uint64_t tdr_cycles;            /* a render queue stuck this long is reset */
	FILE *log;                      /* the readable log; NULL = silent */
};

/* One allocation a command buffer references (D3DDDI_ALLOCATIONLIST). */
struct fw_alloc_ref {
	uint32_t handle;  /* device-local allocation handle */
	bool write;       /* the buffer writes it */
};

/* What the user-mode driver hands to Render.  Patch entries name an index
 * in @allocs and a byte offset in @dw (dma_patch_loc). */
struct fw_cmdbuf {
	const uint32_t *dw;
	uint32_t ndw;
	const struct fw_alloc_ref *allocs;
	uint32_t nalloc;
	const struct dma_patch_loc *locs;
	uint32_t nloc;
};

/* Render's output: a kernel DMA buffer and its lists. */
struct fw_dmabuf {
	struct fw_device *dev;
	uint32_t ndw;
	uint32_t dw[FW_KMD_DMA_DW];
	uint32_t nalloc, nloc;
	struct fw_alloc *alloc[FW_KMD_MAX_ALLOCS];
	bool write[FW_KMD_MAX_ALLOCS];
	struct dma_patch_loc loc[FW_KMD_MAX_LOCS];
};

/* A monitored-fence signal carried by a submission. */
struct fw_signal {
	uint32_t fence;   /* fw_mfence id */
	uint64_t value;
};

/* A submission on the render queue, from SubmitCommand to retire.  Slot i
 * of the DMA buffers belongs to pend[i]. */
struct fw_kmd_pending {
	bool used;
	uint64_t fence;          /* render-queue fence = SubmissionFenceId (changes on resubmission) */
	uint64_t seq;            /* submission order */
	struct fw_dmabuf buf;    /* unpatched copy, patched again on resubmission */
	struct fw_signal sig[FW_KMD_MAX_SIGNALS];
	uint32_t nsig;
	uint64_t submit_cycle;
};

struct fw_mfence {
	struct fw_device *dev;   /* NULL: free id */
	uint64_t addr;           /* 8 bytes of system memory the GPU writes */
	uint64_t requested;      /* highest value a submission will write */
	uint64_t seen;           /* highest value the CPU has read: never goes back */
};

struct fw_kmd_stats {
	uint64_t submits, retired, failed, resubmitted, tdrs;
	uint64_t paging_buffers, evictions, page_ins, fills, discards;
	uint64_t bytes_evicted, bytes_paged_in;
	uint64_t patches, patch_entries;
	uint64_t last_submit_to_retire;  /* cycles, of the last submission retired */
};

/* The paging buffer being built (host side) before it goes to the paging queue. */
struct fw_kmd_paging {
	uint32_t dw[FW_KMD_DMA_DW];
	uint32_t ndw;
	uint64_t addr;           /* its system-memory home, run as an IB */
	uint64_t fence;          /* paging-queue fence of the last paging buffer submitted */
};

/* Large (two DMA buffers per slot): allocate it, do not put it on the stack. */
struct fw_kmd {
	struct fw_dev *d;
	struct fw_adapter ad;
	struct fw_kmd_cfg cfg;
	uint64_t slot_addr[FW_KMD_SLOTS];
	struct fw_kmd_pending pend[FW_KMD_SLOTS];
	struct fw_kmd_paging pg;
	uint64_t mf_addr;                            /* FW_KMD_MAX_MFENCES + 1 values */
	struct fw_mfence mf[FW_KMD_MAX_MFENCES + 1]; /* id 0 unused */
	struct fw_alloc *apt[GPU_APT_RANGES];        /* allocation locked through each range */
	struct fw_device *apt_dev[GPU_APT_RANGES];   /* the device that locked it */
	uint64_t progress_cycle;                     /* TDR watch: last progress seen */
	uint64_t seen_render, seen_paging;           /* queue fences at that time */
	uint32_t render_errors;                      /* render-queue errors already handled */
	uint64_t seq, use_stamp;
	uint32_t scratch[FW_KMD_DMA_DW];             /* the DMA buffer being patched */
	struct fw_kmd_stats st;
};

/* Defaults: VRAM segment 64 MiB at 16 MiB, 16 MiB system segment, TDR
 * after 200000 cycles, silent. */
void fw_kmd_cfg_default(struct fw_kmd_cfg *cfg);

/*
 * Bring the pipeline up on a device already initialised with fw_dev_init:
 * the adapter, its VRAM and system segments, the DMA buffer slots.
 * GM_OK; GM_ERR_BAD_ARG (NULL, a segment outside the model's memory, no
 * TDR time); GM_ERR_NO_MEM (system memory for slots or the segment).
 */
int fw_kmd_init(struct fw_kmd *k, struct fw_dev *d, const struct fw_kmd_cfg *cfg);

/* Release everything (devices, resources, pending buffers).  NULL is a no-op. */
void fw_kmd_fini(struct fw_kmd *k);

/*
 * Close @dev: wait (up to @budget cycles) for its pending submissions,
 * release its monitored fences and aperture locks, then fw_device_destroy.
 * A removed device has nothing pending.  GM_OK; GM_ERR_BAD_ARG;
 * GM_ERR_TIMEOUT (still pending: nothing released).  Resources must not be
 * destroyed (fw_res_destroy) while a submission referencing them is
 * pending: fw_kmd_idle first.
 */
int fw_kmd_device_destroy(struct fw_kmd *k, struct fw_device *dev, uint64_t budget);

/*
 * Render: validate @cb, copy it from dword *@multipass on into @out, resolve
 * its handles and keep its patch entries.  GM_OK (all of it copied;
 * *multipass = cb->ndw); GM_ERR_FULL (the DMA buffer filled at a packet
 * boundary: submit @out, call again with the updated *multipass);
 * GM_ERR_BAD_ARG (NULL, a command buffer dma_validate refuses - privileged
 * packets, bad counts, IBs -, a handle that does not resolve on @dev, a
 * patch entry outside the buffer or naming no allocation, too many
 * allocations); GM_ERR_DEVICE_REMOVED.  On error nothing but @out changed
 * and *multipass is untouched.
 */
int fw_kmd_render(struct fw_kmd *k, struct fw_device *dev, const struct fw_cmdbuf *cb,
		  uint32_t *multipass, struct fw_dmabuf *out);

/*
 * SubmitCommand: residency, patch, submit (see the top of this file); the
 * render-queue fence of the submission in *fence.  @sig signals monitored
 * fences of @buf's device when the buffer completes; each value must be
 * above every value already requested for that fence.  GM_OK; GM_ERR_BAD_ARG
 * (NULL, a signal to another device's fence or going backwards, a patch list
 * the patcher refuses: nothing submitted); GM_ERR_FULL (the VRAM segment is
 * smaller than the buffer's allocations together: nothing moved);
 * GM_ERR_BUSY (pinned, locked and in-flight allocations leave too little
 * room even after eviction; what was evicted on the way stays evicted);
 * GM_ERR_TIMEOUT (no DMA buffer slot came free); GM_ERR_DEVICE_REMOVED.
 */
int fw_kmd_submit(struct fw_kmd *k, const struct fw_dmabuf *buf, const struct fw_signal *sig,
		  uint32_t nsig, uint64_t *fence);

/*
 * The runtime's flush: Render @cb on @dev into @scratch as many DMA buffers
 * as it takes (multipass) and submit each in order; only the last carries
 * @sig (NULL: no signal).  GM_OK; the codes of fw_kmd_render for its
 * arguments and GM_ERR_BAD_ARG for a signal fw_kmd_submit would refuse, both
 * before anything is submitted; else the first code of fw_kmd_submit, with
 * the DMA buffers before it submitted and the rest not.
 */
int fw_kmd_submit_cmdbuf(struct fw_kmd *k, struct fw_device *dev, const struct fw_cmdbuf *cb,
			 struct fw_dmabuf *scratch, const struct fw_signal *sig);

/*
 * Run the GPU up to @cycles cycles handling interrupts, retiring completed
 * submissions and watching for a hang (TDR).  Returns when the render queue
 * has nothing pending or the cycles are spent.  GM_OK; GM_ERR_BAD_ARG.
 */
int fw_kmd_poll(struct fw_kmd *k, uint64_t cycles);

/* Poll until nothing is pending: GM_OK, or GM_ERR_TIMEOUT after @budget. */
int fw_kmd_idle(struct fw_kmd *k, uint64_t budget);

/* Mark an allocation's content discardable (DISCARD_CONTENT): an eviction
 * drops it, a page-in fills zero.  GM_OK; GM_ERR_BAD_ARG; GM_ERR_DEVICE_REMOVED. */
int fw_kmd_discard(struct fw_kmd *k, struct fw_device *dev, uint32_t handle);

/*
 * Monitored fences: 64-bit values in system memory written by the GPU.
 * create: GM_OK and *id; GM_ERR_FULL; GM_ERR_BAD_ARG; GM_ERR_DEVICE_REMOVED.
 * read: the value, never below one read before (UINT64_MAX once its device
 * was removed); GM_OK or GM_ERR_BAD_ARG.
 * wait: poll until the value reaches @value: GM_OK; GM_ERR_TIMEOUT;
 * GM_ERR_BAD_ARG (unknown id, @value never requested).
 */
int fw_mfence_create(struct fw_kmd *k, struct fw_device *dev, uint64_t initial, uint32_t *id);
int fw_mfence_read(struct fw_kmd *k, uint32_t id, uint64_t *value);
int fw_mfence_wait(struct fw_kmd *k, uint32_t id, uint64_t value, uint64_t budget);

/*
 * Lock (the pfnLockCb role): make the allocation resident and map it for
 * the CPU through aperture range @range with its own layout, at window
 * offset @win; the CPU then reads and writes it linearly with
 * gm_apt_read/write.  GM_OK; GM_ERR_BAD_ARG; GM_ERR_DEVICE_REMOVED; errors
 * of residency as fw_kmd_submit.  The allocation is pinned until unlock.
 */
int fw_kmd_lock(struct fw_kmd *k, struct fw_device *dev, uint32_t handle, unsigned range,
		uint32_t win);
int fw_kmd_unlock(struct fw_kmd *k, struct fw_device *dev, uint32_t handle, unsigned range);

#endif /* FW_KMD_H */
