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

/* Operations of @dev's calls queued and not yet done, and the batch slots
 * @dev holds (*slots), after reaping what the GPU finished. */
static uint32_t queued_of(struct fw_kmd *k, const struct fw_device *dev, unsigned *slots)
{
	uint32_t n = 0;

	fw_gpuva_reap(k);
	*slots = 0;
	for (unsigned i = 0; i < FW_GPUVA_BATCHES; i++)
		if (k->va->vab[i].used && k->va->vab[i].dev == dev) {
			n += k->va->vab[i].nops;
			(*slots)++;
		}
	return n;
}

/* Batch slots no batch uses. */
static unsigned free_slots(const struct fw_kmd *k)
{
	unsigned n = 0;

	for (unsigned i = 0; i < FW_GPUVA_BATCHES; i++)
		n += !k->va->vab[i].used;
	return n;
}

/* The batch slots one process may hold: an equal share of them among the
 * GPU-VA processes, so no process's queued work can take every slot. */
static unsigned slot_share(const struct fw_kmd *k)
{
	unsigned n = 0;

	for (unsigned v = 1; v < GPU_NUM_VMIDS; v++)
		n += k->va->vas[v] != NULL;
	return FW_GPUVA_BATCHES / (n ? n : 1);
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

		/* DoNotWait or not, a batch on the queue that signals writes
		 * its FenceValue + 1 */
		if (o->used && !o->held && o->signals && o->fence == b->fence &&
		    o->value + 1 >= b->value)
			return true;
	}
	return false;
}

/*
 * Put held batch @b on the paging queue.  Its RELEASE_FENCE writes
 * FenceValue + 1 unless a higher value is already due on the fence (a
 * render signal accepted past FenceValue while it was held): then the
 * write is left out - its last rel_dw dwords not submitted - so the fence
 * the GPU writes never goes back, and reaches at least FenceValue + 1 with
 * that later signal.
 */
static int release_one(struct fw_kmd *k, struct fw_gpuva_batch *b)
{
	const struct fw_mfence *m = b->signals ? fw_mfence_get(k, b->fence) : NULL;
	uint32_t ndw = b->ndw;
	int st;

	if (m && m->requested > b->value + 1) {
		b->signals = false;
		ndw -= b->rel_dw;
	}
	st = fw_paging_submit_ib(k, b->addr, ndw, &b->paging_fence);
	if (st)
		return st;
	b->held = false;
	/* on the queue: FenceValue + 1 will be written */
	if (b->signals)
		fw_mfence_request(k, &(struct fw_signal){ b->fence, b->value + 1 }, 1);
	return GM_OK;
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
		st = release_one(k, b);
		if (st)
			return st;
		FW_KMD_LOG(k, "gpuva: batch of device %u (%u operations) on the paging queue as fence %"
			   PRIu64 "\n", b->dev->tag, b->nops, b->paging_fence);
	}
	return GM_OK;
}

void fw_gpuva_remove_device(struct fw_kmd *k, const struct fw_device *dev)
{
	for (unsigned i = 0; k && i < FW_GPUVA_BATCHES; i++)
		if (k->va->vab[i].used && k->va->vab[i].held && k->va->vab[i].dev == dev)
			k->va->vab[i].used = false;
}

bool fw_gpuva_call_fits(const struct fw_kmd *k, uint32_t nops)
{
	return (nops + FW_GPUVA_MAX_BATCH_OPS - 1) / FW_GPUVA_MAX_BATCH_OPS <= slot_share(k);
}

/* Whether @dev (NULL: the driver's own batch) may queue @nops operations
 * in @nslots more batches now. */
static bool room_for(struct fw_kmd *k, const struct fw_device *dev, uint32_t nops,
		     unsigned nslots)
{
	unsigned held;
	uint32_t queued = dev ? queued_of(k, dev, &held) : 0;

	if (free_slots(k) < nslots)
		return false;
	if (!dev)
		return true;
	/* pfnUpdateGpuVirtualAddressCb: the caller blocks while the operations
	 * queued before it, behind its own rendering context, pass 128 */
	return (queued == 0 || queued + nops <= FW_GPUVA_MAX_QUEUED_OPS) &&
	       held + nslots <= slot_share(k);
}

/* Wait (blocking the caller, as pfnUpdateGpuVirtualAddressCb says) until
 * room_for() holds: GM_OK; GM_ERR_TIMEOUT when tdr_cycles pass with no
 * batch done; the codes of running the GPU. */
static int wait_room(struct fw_kmd *k, const struct fw_device *dev, uint32_t nops, unsigned nslots)
{
	uint64_t idle = 0;

	while (!room_for(k, dev, nops, nslots)) {
		unsigned before = free_slots(k), bits;
		uint64_t t;
		int st;

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
		fw_gpuva_reap(k);
		idle = free_slots(k) > before ? 0 : idle + (gm_cycles(k->d->gm) - t);
	}
	return GM_OK;
}

/* The first slot no batch uses (wait_room made sure there is one). */
static struct fw_gpuva_batch *slot_free(struct fw_kmd *k)
{
	for (unsigned i = 0; i < FW_GPUVA_BATCHES; i++)
		if (!k->va->vab[i].used)
			return &k->va->vab[i];
	return NULL;
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
	b->rel_dw = (uint32_t)db.len;
	if (!st && m && b->signals)
		st = dma_emit_release_fence(&db, m->addr, value + 1, true, false);
	b->rel_dw = (uint32_t)db.len - b->rel_dw;
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

/*
 * Build and queue a call's batches: @nops operations in batches of at most
 * FW_GPUVA_MAX_BATCH_OPS, each waiting for @value (unless @do_not_wait),
 * the last one signalling @value + 1; held until they can go.  Built all
 * before any is queued: on error the shadow and the pool are as before and
 * nothing is queued.  @fence 0: the driver's own batch (one, no fence, not
 * counted against the queue limit).
 */
int fw_gpuva_queue_batch(struct fw_kmd *k, struct fw_gpuva_space *s, const struct mmu_update_op *ops,
		       uint32_t nops, uint32_t fence, uint64_t value, bool do_not_wait,
		       bool zero_root)
{
	const struct fw_mfence *m = fence ? fw_mfence_get(k, fence) : NULL;
	/* the driver's own batch stays one, whatever its size */
	uint32_t per = fence ? FW_GPUVA_MAX_BATCH_OPS : (nops ? nops : 1);
	unsigned nb = nops > per ? (nops + per - 1) / per : 1;
	struct fw_gpuva_batch *b[FW_GPUVA_BATCHES];
	uint64_t pool_next = s->pool_next;
	uint8_t *backup;
	int st;

	if (fence && !fw_gpuva_call_fits(k, nops))
		return GM_ERR_NO_MEM;
	st = wait_room(k, fence ? s->dev : NULL, fence ? nops : 0, nb);
	if (st)
		return st;
	backup = nb > 1 ? malloc(s->sh.bytes) : NULL;
	if (nb > 1 && !backup)
		return GM_ERR_NO_MEM;
	if (backup)
		memcpy(backup, s->sh.mem, s->sh.bytes);
	for (unsigned i = 0; i < nb; i++) {
		uint32_t first = i * per, n = nops - first < per ? nops - first : per;

		b[i] = slot_free(k);
		b[i]->signals = i == nb - 1;
		st = build(k, s, ops + first, n, m, value, !do_not_wait, b[i], zero_root && !i);
		if (st) { /* the batches built before go too */
			if (backup)
				memcpy(s->sh.mem, backup, s->sh.bytes);
			s->pool_next = pool_next;
			for (unsigned j = 0; j < i; j++)
				b[j]->used = false;
			free(backup);
			return st;
		}
		b[i]->used = true;
		b[i]->held = true;
		b[i]->dev = s->dev;
		b[i]->fence = fence;
		b[i]->value = value;
		b[i]->do_not_wait = do_not_wait || !m;
		b[i]->nops = fence ? n : 0;
		b[i]->seq = ++k->va->seq;
		b[i]->signals = b[i]->signals && m;
	}
	free(backup);
	return fw_gpuva_release(k);
}
