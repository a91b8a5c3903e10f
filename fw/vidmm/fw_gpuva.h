/* SPDX-License-Identifier: MIT */
/*
 * fw_gpuva.h - per-process GPU virtual address spaces and
 * UpdateGpuVirtualAddress (d3dumddi.h: pfnReserveGpuVirtualAddressCb,
 * pfnUpdateGpuVirtualAddressCb).
 *
 * A device made a GPU-VA device (fw_gpuva_enable) gets a VMID of its own
 * and page tables in VRAM.  Its DMA buffers run translated in that VMID:
 * the render ring, privileged, names the VMID in each INDIRECT_BUFFER, and
 * the buffers address memory by GPU VA (no patching needed).  Other devices
 * keep the physical, patched path of DXGKARG_PATCH (d3dkmddi.h).
 *
 * Page-table memory is never written by the CPU once the device is up.
 * The driver keeps a host shadow of the device's table pool (mmu_shadow.h);
 * every change is computed there (mmu_update.h) and made in VRAM by the
 * GPU: a batch becomes a paging buffer on the paging queue -
 *
 *   WAIT_MEM   the context's monitored fence >= FenceValue (not with DoNotWait)
 *   PTE_WRITE  the entries the batch changes, in runs
 *   INVALIDATE_TLB  the VMID's translations in the range the batch touched
 *   RELEASE_FENCE   the monitored fence := FenceValue + 1
 *
 * run as a privileged IB.  A batch waits in the driver, not on the queue,
 * until a submitted render buffer will signal FenceValue (the paging queue
 * also carries residency paging the render queue waits for: a batch queued
 * there ahead of a fence nobody will write would hold it up).  Render
 * submissions after it wait for it (they wait for the paging queue's
 * fence), so a buffer submitted after the update sees the new mappings.
 *
 * pfnUpdateGpuVirtualAddressCb: "When the number of queued update
 * operations exceeds 128, the calling thread will be blocked until the
 * previous operations are processed."  The choices made where it leaves
 * one:
 *   - The count is per process (its rendering context, behind whose fence
 *     the operations queue): one process's held operations never block
 *     another's call.  A call blocks while its process's earlier operations
 *     not yet done plus its own pass FW_GPUVA_MAX_QUEUED_OPS (a call alone
 *     never blocks on its own size), and while the process holds its share
 *     of the batch slots (FW_GPUVA_BATCHES over the GPU-VA processes).
 *   - No per-call limit: a call of more than FW_GPUVA_MAX_BATCH_OPS
 *     operations becomes several batches, queued together, in order; only
 *     the last signals FenceValue + 1.  A call needing more batches than its
 *     process's share of the slots is refused with GM_ERR_NO_MEM
 *     (E_OUTOFMEMORY: a resource, not an argument, runs short).
 *   - "Many calls ... queued behind the rendering fence": several calls may
 *     wait for the same FenceValue, and a render may signal past the
 *     FenceValue of a held call.  The fence stays monotonic another way: a
 *     batch going to the queue when a value above its FenceValue + 1 is
 *     already due on the fence leaves its signal out (the fence reaches
 *     FenceValue + 1 with that later value).
 *   - DoNotWait: the batch runs without waiting and still signals
 *     FenceValue + 1, which a later call may wait for.
 *
 * Residency: an allocation a MAP names may still be evicted or paged in;
 * its translations follow it (fw_gpuva_relocate: an internal batch after
 * the move, before later rendering).  It does not move while its process has
 * page-table or render work pending (a queued batch or buffer might still
 * use the old place).
 */
#ifndef FW_GPUVA_H
#define FW_GPUVA_H

#include "fw_kmd_types.h"
#include "mmu_update.h"
#include "mmu_pt.h"
#include "mmu_shadow.h"
#include "mmu_va.h"

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
	bool signals;            /* its RELEASE_FENCE writes value + 1 (the call's last batch;
				  * cleared when a higher value was due as it went) */
	uint32_t rel_dw;         /* dwords of that RELEASE_FENCE, at the buffer's end */
	uint32_t nops;
	uint64_t seq;            /* call order: batches go to the queue in it */
	uint64_t addr;           /* its paging buffer in system memory */
	uint32_t ndw;
	uint32_t nruns;          /* PTE_WRITE runs in it (the statistics' figure) */
	uint64_t paging_fence;   /* on the queue: the paging-queue fence that retires it */
};

/* GPU-VA's state (k->va): the address spaces by VMID ([0] unused), the
 * batches, their call order, the batch being built. */
struct fw_gpuva_state {
	struct fw_gpuva_space *vas[GPU_NUM_VMIDS];
	struct fw_gpuva_batch vab[FW_GPUVA_BATCHES];
	uint64_t seq;
	uint32_t dw[FW_GPUVA_BATCH_DW];
};

#define FW_GPUVA_MAX_QUEUED_OPS 128u   /* pfnUpdateGpuVirtualAddressCb: more queued by one
					* process blocks its caller */
#define FW_GPUVA_MAX_BATCH_OPS 128u    /* operations in one batch; a call of more is split */

/* D3DDDIGPUVIRTUALADDRESS_RESERVATION_TYPE */
enum fw_gpuva_reservation_type {
	FW_GPUVA_RESERVE_NO_ACCESS = 0,  /* any access faults until mapped */
	FW_GPUVA_RESERVE_ZERO = 1,       /* null tiles: reads zero, writes dropped */
};

/* D3DDDI_RESERVEGPUVIRTUALADDRESS (the members this driver reads). */
struct fw_gpuva_reserve_args {
	uint64_t base_address;     /* BaseAddress: 64 KiB aligned, or 0 = anywhere in [min, max] */
	uint64_t minimum_address;  /* MinimumAddress */
	uint64_t maximum_address;  /* MaximumAddress: the range ends at or below it; 0 = no limit */
	uint64_t size;             /* Size: bytes, a multiple of 64 KiB */
	enum fw_gpuva_reservation_type reservation_type;  /* ReservationType */
	uint64_t virtual_address;  /* VirtualAddress [out] */
	uint64_t paging_fence_value; /* PagingFenceValue [out]: the paging queue's fence
				      * of the batch that set a ZERO range up, 0 if none */
};

/* D3DDDICB_UPDATEGPUVIRTUALADDRESS.  hContext: the device's one context. */
struct fw_gpuva_update_args {
	uint32_t fence;            /* hFenceObject: a monitored fence of the device */
	uint32_t num_operations;   /* NumOperations, at least 1 */
	const struct mmu_update_op *operations; /* Operations; a MAP names hAllocation
						 * below instead of alloc_pa/size */
	const uint32_t *allocations; /* hAllocation of operation i (MAP only), device handles */
	uint64_t fence_value;      /* FenceValue */
	bool do_not_wait;          /* Flags.DoNotWait: no WAIT_MEM */
};

/*
 * Make @dev a GPU-VA device: a free VMID, a root table, its table pool
 * (FW_GPUVA_POOL_BYTES of the VRAM above the segment, fw_kmd_cfg.pt_bytes),
 * the root zeroed by the GPU, VM_ROOT and the TLB set.  GM_OK;
 * GM_ERR_BAD_ARG (NULL, foreign device, already a GPU-VA device, the
 * pipeline has no table pool); GM_ERR_FULL (no VMID left); GM_ERR_NO_MEM;
 * GM_ERR_DEVICE_REMOVED; the codes of fw_submit_ib.
 */
int fw_gpuva_enable(struct fw_kmd *k, struct fw_device *dev) GM_MUST_CHECK;

/* The VMID @dev's buffers run in: its own, or 0 (physical, patched). */
unsigned fw_gpuva_vmid(const struct fw_kmd *k, const struct fw_device *dev);

/*
 * pfnReserveGpuVirtualAddressCb: reserve [a->base_address, + a->size), or
 * the lowest free range in [minimum, maximum]; a ZERO reservation is made
 * null tiles by a paging batch (DoNotWait).  GM_OK and the out members;
 * GM_ERR_BAD_ARG (arguments, overlap, not a GPU-VA device: nothing
 * reserved); GM_ERR_FULL (no room in [minimum, maximum]);
 * GM_ERR_DEVICE_REMOVED; the codes of the batch's submission.
 */
int fw_gpuva_reserve(struct fw_kmd *k, struct fw_device *dev, struct fw_gpuva_reserve_args *a)
	GM_MUST_CHECK;

/*
 * pfnFreeGpuVirtualAddressCb: unmap the reservation at @va to no-access
 * (a DoNotWait batch) and release it.  GM_OK; GM_ERR_BAD_ARG (no
 * reservation starts at @va); GM_ERR_DEVICE_REMOVED.
 */
int fw_gpuva_free(struct fw_kmd *k, struct fw_device *dev, uint64_t va) GM_MUST_CHECK;

/*
 * pfnUpdateGpuVirtualAddressCb: check the whole call (the rules of
 * mmu_update.h, the fence belongs to @dev, FenceValue below UINT64_MAX,
 * each MAP's allocation resolves on @dev and the range lies inside it),
 * then queue it as described above.
 * GM_OK (queued: it runs once FenceValue is reached); GM_ERR_BAD_ARG or
 * GM_ERR_UNSUPPORTED with nothing queued and nothing changed;
 * GM_ERR_DEVICE_REMOVED; GM_ERR_TIMEOUT (blocked on the queue limit and
 * the queued batches made no progress: nothing queued); GM_ERR_NO_MEM
 * (host memory, the table pool, or more batches than the process's share
 * of the slots: nothing queued).  MAPs bring their allocations in before
 * anything is queued; an error after that leaves them resident.
 */
int fw_gpuva_update(struct fw_kmd *k, struct fw_device *dev, const struct fw_gpuva_update_args *a)
	GM_MUST_CHECK;

/* Operations queued and not yet done by the GPU (held or on the queue). */
uint32_t fw_gpuva_queued_ops(struct fw_kmd *k);

/* ---- for the pipeline's other files */

/* A render submission was made: release the held batches whose FenceValue
 * some submitted buffer will now signal.  GM_OK; the codes of fw_submit_ib. */
int fw_gpuva_release(struct fw_kmd *k) GM_MUST_CHECK;

/* Append to @out the allocations that must not move now - those mapped by
 * a process with page-table work or render work pending (at most
 * GPU_NUM_VMIDS * FW_GPUVA_MAX_MAPPED); returns how many. */
size_t fw_gpuva_busy_allocs(const struct fw_kmd *k, struct fw_alloc **out);

/* Whether some process maps @a. */
bool fw_gpuva_is_mapped(const struct fw_kmd *k, const struct fw_alloc *a);

/*
 * @a moved from @from to a->loc (its bytes' move already on the paging
 * queue): every translation into it, in every process, follows it - an
 * internal batch per reservation, on the paging queue after the move and
 * before any later render submission.  GM_OK; the codes of queue_batch.
 */
int fw_gpuva_relocate(struct fw_kmd *k, struct fw_alloc *a, const struct fw_loc *from)
	GM_MUST_CHECK;

/*
 * @dev's @handle goes (fw_release_fn): when its process maps the
 * allocation, the translations are unmapped to no access first.  GM_OK;
 * GM_ERR_BUSY (the process still has page-table or render work pending:
 * nothing changed, try again when idle); the codes of queue_batch.
 */
int fw_gpuva_release_handle(struct fw_kmd *k, const struct fw_device *dev, uint32_t handle)
	GM_MUST_CHECK;

/* @dev was removed: its held batches are dropped (their fences are at the
 * maximum already). */
void fw_gpuva_remove_device(struct fw_kmd *k, const struct fw_device *dev);

/* @dev is being closed: its VMID, table pool and reservations are free again. */
void fw_gpuva_release_device(struct fw_kmd *k, const struct fw_device *dev);

/* GPU-VA's scheduler hooks (fw_sched.h): check (no patch list on a GPU-VA
 * device's buffer), patch (the VMID), submitted
 * (fw_gpuva_release), removed (fw_gpuva_remove_device). */
extern const struct fw_sched_ops fw_gpuva_sched_ops;

/* GPU-VA's residency hooks (fw_paging.h): pinned (fw_gpuva_busy_allocs),
 * follows (fw_gpuva_is_mapped), moved (fw_gpuva_relocate). */
extern const struct fw_paging_ops fw_gpuva_paging_ops;

#endif /* FW_GPUVA_H */
