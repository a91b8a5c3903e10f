/* SPDX-License-Identifier: MIT */
/*
 * fw_kmd_types.h - the submission pipeline's objects and shared state: DMA
 * buffers and their lists, submissions, the paging buffer, monitored
 * fences, and struct fw_kmd that holds them.  Each role's functions are in
 * its own header (fw_render.h, fw_paging.h, fw_mfence.h, fw_sched.h,
 * fw_lock.h); fw_kmd.h gathers them for clients.  fw_kmd_init sets
 * struct fw_kmd up; after that a group of its fields is changed only by the
 * file named above it.
 */
#ifndef FW_KMD_TYPES_H
#define FW_KMD_TYPES_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "dma_patch.h"
#include "fw_dev.h"
#include "fw_res.h"
#include "mmu_pt.h"
#include "mmu_shadow.h"
#include "mmu_va.h"

#define FW_KMD_DMA_DW 4096u      /* dwords in one DMA buffer */
#define FW_KMD_MAX_ALLOCS 32u    /* allocations one DMA buffer references */
#define FW_KMD_MAX_LOCS 1024u    /* patch locations in one DMA buffer */
#define FW_KMD_SLOTS 8u          /* DMA buffers in flight */
#define FW_KMD_MAX_SIGNALS 4u    /* monitored-fence signals per submission */
#define FW_KMD_MAX_MFENCES 64u   /* monitored fences per pipeline */
#define FW_KMD_SEG_VRAM 1u       /* segment ids */
#define FW_KMD_SEG_SYS 2u
#define FW_GPUVA_BATCHES 16u     /* GPU-VA update batches held or on the paging queue */
#define FW_GPUVA_BATCH_DW 16384u /* dwords of one batch's paging buffer */
#define FW_GPUVA_MAX_MAPPED 16u  /* allocations one GPU-VA space maps */
#define FW_KMD_RAW_LOCKS 16u     /* live locks without an aperture range */
#define FW_SCHED_ROLES 3u        /* roles with scheduler hooks (fw_sched.h) */
#define FW_PAGING_CLIENTS 2u     /* residency's clients (fw_paging.h) */

struct fw_sched_ops;
struct fw_paging_ops;

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
	uint32_t flags;   /* DXGK_PATCHFLAGS.Value of its DMA buffers (DMA_PATCH_F_*): Present,
			   * RedirectedPresent, NullRendering (its packets do not run, its
			   * fence and signals complete); never Paging (the driver's own) */
};

/*
 * Render's output: a kernel DMA buffer and its lists, in the patcher's own
 * types from Render to dma_patch.  alloc[i].handle is the struct fw_alloc
 * (hDeviceSpecificAllocation), with its size and write flag; the scheduler
 * writes its addr and segment_id into a submission's copy before each patch.
 */
struct fw_dmabuf {
	struct fw_device *dev;
	uint32_t flags;          /* DXGK_PATCHFLAGS.Value, from fw_cmdbuf.flags */
	uint32_t ndw;
	uint32_t dw[FW_KMD_DMA_DW];
	uint32_t nalloc, nloc;
	struct dma_alloc_entry alloc[FW_KMD_MAX_ALLOCS];
	struct dma_patch_loc loc[FW_KMD_MAX_LOCS];
};

/* The allocation of entry @i of @b's allocation list. */
static inline struct fw_alloc *fw_dmabuf_alloc(const struct fw_dmabuf *b, uint32_t i)
{
	return b->alloc[i].handle;
}

/* A monitored-fence signal carried by a submission. */
struct fw_signal {
	uint32_t fence;   /* fw_mfence id */
	uint64_t value;
};

struct fw_mfence {
	struct fw_device *dev;   /* NULL: free id */
	uint64_t addr;           /* 8 bytes of system memory the GPU writes */
	uint64_t requested;      /* highest value a submission will write */
	uint64_t seen;           /* highest value the CPU has read: never goes back */
};

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

/* The paging buffer being built (host side) before it goes to the paging
 * queue.  Its work comes in pieces; each ends by writing the count of pieces
 * emitted so far to the progress fence, so a long paging buffer is seen
 * moving (fw_paging.h). */
struct fw_kmd_paging {
	uint32_t dw[FW_KMD_DMA_DW];
	uint32_t ndw;
	uint64_t addr;           /* its system-memory home, run as an IB */
	uint64_t fence;          /* paging-queue fence of the last paging buffer submitted */
	uint64_t last_fence;     /* of the last IB of any kind there (GPU-VA batches too):
				  * what a render submission waits for */
	uint64_t progress_addr;  /* the progress fence: 8 bytes of system memory */
	uint64_t pieces;         /* pieces emitted (the last value written there) */
};

/* A GPU-VA device's address space (fw_gpuva.c). */
struct fw_gpuva_space {
	struct fw_device *dev;
	unsigned vmid;
	uint64_t pool_pa, pool_bytes, pool_next; /* its page-table pool in VRAM, bump-allocated */
	struct mmu_shadow sh;                    /* host copy of the pool */
	struct mmu_pt pt;                        /* built in the shadow */
	struct mmu_va_space vs;                  /* reservations */
	uint64_t kernel_va;                      /* the driver's reservation (DMA buffers) */
	struct fw_alloc *mapped[FW_GPUVA_MAX_MAPPED]; /* allocations a MAP named, till released */
	unsigned nmapped;
};

/* An UpdateGpuVirtualAddress batch from the call until the GPU did it. */
struct fw_gpuva_batch {
	bool used;
	bool held;               /* in the driver, not on the paging queue yet */
	struct fw_device *dev;
	uint32_t fence;          /* monitored fence id, 0: none (the driver's own batch) */
	uint64_t value;          /* FenceValue: waited for, then value + 1 written */
	bool do_not_wait;
	uint32_t nops;
	uint64_t seq;            /* call order: batches go to the queue in it */
	uint64_t addr;           /* its paging buffer in system memory */
	uint32_t ndw;
	uint32_t nruns;          /* PTE_WRITE runs in it (the statistics' figure) */
	uint64_t paging_fence;   /* on the queue: the paging-queue fence that retires it */
};

struct fw_kmd_cfg {
	uint64_t vram_base, vram_bytes; /* the VRAM segment (physical; 64 KiB aligned) */
	uint64_t pt_bytes;              /* VRAM above the segment for GPU-VA page tables
					 * (fw_gpuva.h); 0: no GPU-VA devices */
	uint64_t sys_bytes;             /* the system-memory segment, carved from fw_alloc_sys */
	uint64_t tdr_cycles;            /* a render queue stuck this long is reset */
	FILE *log;                      /* the readable log; NULL = silent */
};

struct fw_kmd_stats {
	uint64_t submits, retired, failed, resubmitted, tdrs;
	uint64_t paging_buffers, evictions, page_ins, fills, discards;
	uint64_t bytes_evicted, bytes_paged_in;
	uint64_t patches, patch_entries;
	uint64_t last_submit_to_retire;  /* cycles, of the last submission retired */
};

/* A Lock: an allocation mapped for the CPU through one aperture range, or
 * (in fw_kmd.raw) given to it where it lives or as a linear copy. */
struct fw_lock_range {
	struct fw_alloc *a;          /* NULL: the range (entry) is free */
	struct fw_device *dev;       /* the device that locked it, */
	uint32_t handle;             /* through this handle of its own */
	uint32_t flags;              /* FW_LOCK_* it was locked with */
	uint64_t win;                /* range: window bytes [win, win + a->d.size);
				      * raw: a->loc.addr when locked;
				      * copy: the staging copy in the system segment */
	bool copy;                   /* raw entry: the unswizzled-copy fallback */
	bool follow;                 /* range entry: a raw lock whose allocation went to
				      * the system segment for rendering; the range shows
				      * its raw bytes at the window they had in VRAM,
				      * whose VRAM stays booked while the lock lasts */
	bool view;                   /* range entry: shows a copy lock's staging copy
				      * linearly at the window the allocation's levels had
				      * (fw_lock_level.c); not a lock of its own */
	unsigned view_range;         /* copy entry: 1 + its view's range; 0: none */
	uint32_t levels;             /* MIP levels (bit i: level i) locked one at a time
				      * through this entry; 0: the whole allocation */
	uint32_t *pages;             /* copy: the pages copied (host heap); NULL: all */
	uint32_t npages;
};

/* Large (two DMA buffers per slot): allocate it, do not put it on the stack. */
struct fw_kmd {
	struct fw_dev *d;
	struct fw_adapter ad;
	struct fw_kmd_cfg cfg;
	/* the roles' scheduler hooks, in phase order (fw_kmd_init; fw_sched.h) */
	const struct fw_sched_ops *sched_ops[FW_SCHED_ROLES];
	/* residency's clients, which pin allocations or follow them (fw_paging.h) */
	const struct fw_paging_ops *paging_ops[FW_PAGING_CLIENTS];
	/* fw_sched.c */
	uint64_t slot_addr[FW_KMD_SLOTS];
	struct fw_kmd_pending pend[FW_KMD_SLOTS];
	uint64_t progress_cycle;                     /* TDR watch: last progress seen */
	uint64_t seen_render, seen_pieces;           /* render fence, paging pieces done then */
	uint64_t seq;
	uint32_t scratch[FW_KMD_DMA_DW];             /* the DMA buffer being patched */
	/* fw_paging.c */
	struct fw_kmd_paging pg;
	uint64_t use_stamp;
	/* fw_mfence.c */
	uint64_t mf_addr;                            /* FW_KMD_MAX_MFENCES + 1 values */
	struct fw_mfence mf[FW_KMD_MAX_MFENCES + 1]; /* id 0 unused */
	/* fw_gpuva.c */
	struct fw_gpuva_space *vas[GPU_NUM_VMIDS];   /* by VMID; [0] unused */
	struct fw_gpuva_batch vab[FW_GPUVA_BATCHES];
	uint64_t va_seq;
	uint32_t va_dw[FW_GPUVA_BATCH_DW];           /* the batch being built */
	/* fw_lock.c */
	struct fw_lock_range apt[GPU_APT_RANGES];    /* the lock of each aperture range */
	struct fw_lock_range raw[FW_KMD_RAW_LOCKS];  /* locks without a range */
	struct fw_kmd_stats st;
};

/* A line of the pipeline's log, stamped with the cycle. */
#define FW_KMD_LOG(k, ...) fw_logf((k)->cfg.log, (k)->d->gm, "kmd", __VA_ARGS__)

#endif /* FW_KMD_TYPES_H */
