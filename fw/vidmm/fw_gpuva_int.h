/* SPDX-License-Identifier: MIT */
/*
 * fw_gpuva_int.h - what the three fw_gpuva files share (fw_gpuva.c: spaces
 * and DDI calls, fw_gpuva_batch.c: batches, fw_gpuva_move.c: residency).
 * Not for the rest of the driver: fw_gpuva.h is the contract.
 */
#ifndef FW_GPUVA_INT_H
#define FW_GPUVA_INT_H

#include "fw_gpuva.h"

/* The GPU-VA space of @dev, or NULL. */
struct fw_gpuva_space *fw_gpuva_space_of(const struct fw_kmd *k, const struct fw_device *dev);

/* Index of @a in @s's mapped allocations, or -1. */
int fw_gpuva_mapped_index(const struct fw_gpuva_space *s, const struct fw_alloc *a);

/* The paging queue's fence as the CPU last saw it. */
uint64_t fw_gpuva_paging_seen(const struct fw_kmd *k);

/* Whether a call of @nops operations needs no more batches than one
 * process's share of the slots (else it could never be queued). */
bool fw_gpuva_call_fits(const struct fw_kmd *k, uint32_t nops);

/* Forget the batches the GPU has finished (see fw_gpuva_batch.c). */
void fw_gpuva_reap(struct fw_kmd *k);

/*
 * Apply @ops to @s's shadow and queue them: batches of at most
 * FW_GPUVA_MAX_BATCH_OPS operations, each [WAIT_MEM @fence >= @value unless
 * @do_not_wait], its PTE_WRITE runs, INVALIDATE_TLB, the last one
 * [RELEASE_FENCE @fence := @value + 1]; @fence 0: the driver's own batch
 * (one, no fence, not counted against the queue limit); @zero_root: zero
 * the root table first.  Blocks while the process's earlier operations
 * would pass FW_GPUVA_MAX_QUEUED_OPS or its share of the batch slots.  Held
 * until they can go.  On error the shadow is as before and nothing queued:
 * GM_ERR_NO_MEM (the pool, or more batches than the process's share of
 * slots); GM_ERR_TIMEOUT (blocked, and nothing queued progressed).
 */
int fw_gpuva_queue_batch(struct fw_kmd *k, struct fw_gpuva_space *s, const struct mmu_update_op *ops,
			 uint32_t nops, uint32_t fence, uint64_t value, bool do_not_wait,
			 bool zero_root) GM_MUST_CHECK;

#endif /* FW_GPUVA_INT_H */
