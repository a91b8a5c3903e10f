/* SPDX-License-Identifier: MIT */
/*
 * fw_gpuva_batch.c - UpdateGpuVirtualAddress batches: built on a process's
 * shadow, held in the driver until their FenceValue is due, released to
 * the paging queue in order per process, retired (see fw_gpuva.h).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "dma_buf.h"
#include "fw_gpuva_int.h"
#include "fw_mfence.h"
#include "fw_paging.h"
#include "fw_render.h"
#include "fw_sched.h"
#include "gpu_hw.h"

#define PAGING_Q FW_QUEUE_COPY
#define WAIT_POLL_CYCLES 16u
#define BLOCK_SLICE 4096u              /* cycles run at a time while blocked */

/* Paging-queue fence the CPU has seen. */
uint64_t fw_gpuva_paging_seen(const struct fw_kmd *k)
{
	return k->d->q[PAGING_Q].fence_seen;
}

/*
 * Drop the bookkeeping of batches the GPU has finished.  A batch of a
 * device removed while it was on the queue ran once the removal pushed the
 * fence to the maximum and wrote FenceValue + 1 over it: the maximum goes
 * back (nothing may ever see a removed device's fence go down).
 */
void fw_gpuva_reap(struct fw_kmd *k)
{
	for (unsigned i = 0; i < FW_GPUVA_BATCHES; i++) {
		struct fw_gpuva_batch *b = &k->va->vab[i];

		if (!b->used || b->held || b->paging_fence > fw_gpuva_paging_seen(k))
			continue;
		b->used = false;
		if (b->fence && fw_device_is_removed(b->dev) && fw_mfence_remove_device(k, b->dev))
			FW_KMD_LOG(k, "gpuva: fence %u of removed device %u could not be set to its"
				   " maximum again\n", b->fence, b->dev->tag);
	}
}

uint32_t fw_gpuva_queued_ops(struct fw_kmd *k)
{
	uint32_t n = 0;

	if (!k)
		return 0;
	fw_gpuva_reap(k);
	for (unsigned i = 0; i < FW_GPUVA_BATCHES; i++)
		if (k->va->vab[i].used)
			n += k->va->vab[i].nops;
	return n;
}

/* The oldest held batch of @dev (NULL: of any device), or NULL. */
static struct fw_gpuva_batch *oldest_held(struct fw_kmd *k, const struct fw_device *dev)
{
	struct fw_gpuva_batch *o = NULL;

	for (unsigned i = 0; i < FW_GPUVA_BATCHES; i++) {
		struct fw_gpuva_batch *b = &k->va->vab[i];

		if (b->used && b->held && (!dev || b->dev == dev) && (!o || b->seq < o->seq))
			o = b;
	}
	return o;
}

/* Whether the batch's fence reached FenceValue or work already on a GPU
 * queue will bring it there (a pending render submission, or a batch
 * released before), so the batch cannot hold the paging queue up for good. */
static bool can_go(struct fw_kmd *k, const struct fw_gpuva_batch *b)
{
	uint64_t v;

	/* an unreadable fence: let the GPU's WAIT_MEM decide */
	if (b->do_not_wait || fw_mfence_read(k, b->fence, &v) || v >= b->value)
		return true;
	if (fw_sched_signals(k, b->fence, b->value))
		return true;
	for (unsigned i = 0; i < FW_GPUVA_BATCHES; i++) {
		const struct fw_gpuva_batch *o = &k->va->vab[i];

		/* DoNotWait or not, a batch on the queue writes its FenceValue + 1 */
		if (o->used && !o->held && o->fence && o->fence == b->fence &&
		    o->value + 1 >= b->value)
			return true;
	}
	return false;
}

int fw_gpuva_release(struct fw_kmd *k)
{
	struct fw_gpuva_batch *b;

	if (!k)
		return GM_ERR_BAD_ARG;
	/* In order per process (its batches were computed one after the
	 * other on its shadow): a held batch holds the later ones of its
	 * process, not another's. */
	for (;;) {
		int st;

		b = NULL;
		for (unsigned i = 0; !b && i < FW_GPUVA_BATCHES; i++) {
			struct fw_gpuva_batch *o = &k->va->vab[i];

			if (o->used && o->held && oldest_held(k, o->dev) == o && can_go(k, o))
				b = o;
		}
		if (!b)
			break;
		st = fw_paging_submit_ib(k, b->addr, b->ndw, &b->paging_fence);

		if (st)
			return st;
		b->held = false;
		/* on the queue: FenceValue + 1 will be written */
		if (b->fence)
			fw_mfence_request(k, &(struct fw_signal){ b->fence, b->value + 1 }, 1);
		FW_KMD_LOG(k, "gpuva: batch of device %u (%u operations) on the paging queue as fence %"
			   PRIu64 "\n", b->dev->tag, b->nops, b->paging_fence);
	}
	return GM_OK;
}

/* The highest FenceValue + 1 a held batch of @fence will write, or 0. */
uint64_t fw_gpuva_held_top(const struct fw_kmd *k, uint32_t fence)
{
	uint64_t top = 0;

	for (unsigned i = 0; i < FW_GPUVA_BATCHES; i++) {
		const struct fw_gpuva_batch *b = &k->va->vab[i];

		if (b->used && b->held && b->fence == fence && b->value + 1 > top)
			top = b->value + 1;
	}
	return top;
}

bool fw_gpuva_signals_ok(const struct fw_kmd *k, const struct fw_signal *sig, uint32_t nsig)
{
	for (uint32_t i = 0; k && i < nsig; i++)
		for (unsigned j = 0; j < FW_GPUVA_BATCHES; j++) {
			const struct fw_gpuva_batch *b = &k->va->vab[j];

			if (b->used && b->held && b->fence == sig[i].fence && sig[i].value > b->value)
				return false;
		}
	return true;
}

void fw_gpuva_remove_device(struct fw_kmd *k, const struct fw_device *dev)
{
	for (unsigned i = 0; k && i < FW_GPUVA_BATCHES; i++)
		if (k->va->vab[i].used && k->va->vab[i].held && k->va->vab[i].dev == dev)
			k->va->vab[i].used = false;
}

/* A free batch slot, after waiting (blocking the caller, as pfnUpdateGpuVirtualAddressCb says)
 * while more than FW_GPUVA_MAX_QUEUED_OPS operations would be queued. */
static int batch_slot(struct fw_kmd *k, uint32_t nops, struct fw_gpuva_batch **out)
{
	uint64_t idle = 0;

	for (;;) {
		uint32_t queued = fw_gpuva_queued_ops(k), bits;
		uint64_t t;
		int st;

		if (queued == 0 || queued + nops <= FW_GPUVA_MAX_QUEUED_OPS) {
			for (unsigned i = 0; i < FW_GPUVA_BATCHES; i++)
				if (!k->va->vab[i].used) {
					*out = &k->va->vab[i];
					return GM_OK;
				}
		}
		if (idle > k->cfg.tdr_cycles)
			return GM_ERR_TIMEOUT;
		t = gm_cycles(k->d->gm);
		st = fw_gpuva_release(k);
		if (!st)
			st = fw_kmd_poll(k, BLOCK_SLICE);
		if (!st && gm_cycles(k->d->gm) == t) /* no render work: run the paging queue */
			st = gm_step(k->d->gm, BLOCK_SLICE);
		if (!st)
			st = fw_isr(k->d, &bits);
		if (st)
			return st;
		idle = fw_gpuva_queued_ops(k) < queued ? 0 : idle + (gm_cycles(k->d->gm) - t);
	}
}

/*
 * Apply @ops to @s's shadow and build the batch's paging buffer into @b:
 * [WAIT_MEM on @fence >= @value], the runs, INVALIDATE_TLB, [RELEASE_FENCE
 * @fence := @value + 1].  @extra: runs to put first (the root's zeroing).
 * On error the shadow and the pool are as before.
 */
static int build(struct fw_kmd *k, struct fw_gpuva_space *s, const struct mmu_update_op *ops,
		 uint32_t nops, const struct fw_mfence *m, uint64_t value, bool wait,
		 struct fw_gpuva_batch *b, bool zero_root)
{
	uint8_t *backup = malloc(s->sh.bytes);
	struct mmu_update_result res;
	uint64_t pool_next = s->pool_next;
	struct dma_buf db;
	int st;

	if (!backup)
		return GM_ERR_NO_MEM;
	memcpy(backup, s->sh.mem, s->sh.bytes);
	memset(&res, 0, sizeof(res));
	st = nops ? mmu_update_apply(&s->pt, &s->vs, ops, nops, &res) : GM_OK;
	if (st) { /* mmu_update_apply restores what it wrote; the copy makes sure */
		memcpy(s->sh.mem, backup, s->sh.bytes);
		s->pool_next = pool_next;
		free(backup);
		return st;
	}
	dma_buf_init(&db, k->va->dw, FW_GPUVA_BATCH_DW);
	if (wait && m)
		st = dma_emit_wait_mem(&db, m->addr, value, UINT64_MAX, GPU_FUNC_GE, true,
				       WAIT_POLL_CYCLES);
	if (!st && zero_root)
		st = dma_emit_pte_write(&db, s->pt.root_pa, 0, 0, 0, MMU_PT_ENTRIES);
	if (!st)
		st = mmu_update_emit(&res, &db);
	if (!st && (res.inval || zero_root))
		st = dma_emit_invalidate_tlb(&db, s->vmid, false, zero_root ? 0 : res.inval_start,
					     zero_root ? ~0u : res.inval_end);
	if (!st && m)
		st = dma_emit_release_fence(&db, m->addr, value + 1, true, false);
	if (!st)
		st = gm_backdoor_write(k->d->gm, b->addr, db.dw, db.len * 4ull);
	if (!st) {
		b->ndw = (uint32_t)db.len;
		b->nruns = (uint32_t)res.nruns;
		FW_KMD_LOG(k, "gpuva: VMID %u batch: %u operations -> %zu PTE_WRITE runs (%" PRIu64
			   " entries, %u new tables)%s\n", s->vmid, nops, res.nruns, res.nentries,
			   res.tables, wait && m ? "" : ", no wait");
	} else { /* nothing of it reaches the GPU: the shadow goes back */
		memcpy(s->sh.mem, backup, s->sh.bytes);
		s->pool_next = pool_next;
		st = st == GM_ERR_FULL ? GM_ERR_NO_MEM : st;
	}
	free(backup);
	mmu_update_result_fini(&res);
	return st;
}

/* Build and queue one batch (see build); held until it can go.  @internal:
 * the driver's own (set-up, residency): not counted against the queue limit. */
int fw_gpuva_queue_batch(struct fw_kmd *k, struct fw_gpuva_space *s, const struct mmu_update_op *ops,
		       uint32_t nops, uint32_t fence, uint64_t value, bool do_not_wait,
		       bool zero_root)
{
	const struct fw_mfence *m = fence ? fw_mfence_get(k, fence) : NULL;
	bool internal = !fence;
	struct fw_gpuva_batch *b;
	int st = batch_slot(k, internal ? 0 : nops, &b);

	if (st)
		return st;
	st = build(k, s, ops, nops, m, value, !do_not_wait, b, zero_root);
	if (st)
		return st;
	b->used = true;
	b->held = true;
	b->dev = s->dev;
	b->fence = fence;
	b->value = value;
	b->do_not_wait = do_not_wait || !m;
	b->nops = internal ? 0 : nops;
	b->seq = ++k->va->seq;
	return fw_gpuva_release(k);
}
