/* SPDX-License-Identifier: MIT */
/*
 * fw_kmd_types.h - the objects the submission pipeline's roles pass each
 * other (command buffers, DMA buffers and their lists, monitored-fence
 * signals, the configuration and statistics) and struct fw_kmd, which
 * links the roles.  Each role's state and functions are in its own header
 * (fw_render.h, fw_paging.h, fw_mfence.h, fw_sched.h, fw_lock.h,
 * fw_gpuva.h); fw_kmd.h gathers them for clients.
 */
#ifndef FW_KMD_TYPES_H
#define FW_KMD_TYPES_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "dma_patch.h"
#include "fw_dev.h"
#include "fw_res.h"

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

/* Each role's state: its own struct, defined in its header and changed only
 * by its files (fw_kmd_init brings the memory up). */
struct fw_sched_state;   /* fw_sched.h: DMA buffer slots, submissions, TDR watch */
struct fw_paging_state;  /* fw_paging.h: the paging buffer, LRU stamp */
struct fw_mfence_state;  /* fw_mfence.h: the monitored fences */
struct fw_gpuva_state;   /* fw_gpuva.h: address spaces, page-table batches */
struct fw_lock_state;    /* fw_lock.h: aperture-range and raw locks */

/*
 * The pipeline: the links between the roles and what they share - the
 * device, the adapter (segments, allocations: fw_res.h), the configuration,
 * the hook tables the scheduler and residency call (fw_sched.h,
 * fw_paging.h), one pointer to each role's state (a reader outside the role,
 * a test or a tool, includes the role's header to read it) and the
 * statistics every role counts into.  fw_kmd_init sets it up; fw_kmd_fini frees the roles'
 * state.
 */
struct fw_kmd {
	struct fw_dev *d;
	struct fw_adapter ad;
	struct fw_kmd_cfg cfg;
	/* the roles' scheduler hooks, in phase order (fw_sched.h) */
	const struct fw_sched_ops *sched_ops[FW_SCHED_ROLES];
	/* residency's clients, which pin allocations or follow them (fw_paging.h) */
	const struct fw_paging_ops *paging_ops[FW_PAGING_CLIENTS];
	struct fw_sched_state *sch;
	struct fw_paging_state *pg;
	struct fw_mfence_state *mfs;
	struct fw_gpuva_state *va;
	struct fw_lock_state *lk;
	struct fw_kmd_stats st;
};

/* A line of the pipeline's log, stamped with the cycle. */
#define FW_KMD_LOG(k, ...) fw_logf((k)->cfg.log, (k)->d->gm, "kmd", __VA_ARGS__)

#endif /* FW_KMD_TYPES_H */
