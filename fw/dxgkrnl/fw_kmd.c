/* SPDX-License-Identifier: MIT */
/*
 * fw_kmd.c - the submission pipeline's lifetime: bring-up (which lists the
 * roles' scheduler hooks), teardown, closing a device, and the CPU waits
 * that span roles (see fw_kmd.h).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "fw_kmd.h"
#include "gpu_hw.h"

#define WAIT_SLICE 4096u /* cycles a CPU wait runs the GPU between looks */

static uint64_t now(const struct fw_kmd *k)
{
	return gm_cycles(k->d->gm);
}

void fw_kmd_cfg_default(struct fw_kmd_cfg *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->vram_base = 16ull << 20;
	cfg->vram_bytes = 64ull << 20;
	cfg->sys_bytes = 16ull << 20;
	cfg->tdr_cycles = 200000;
}

/* fw_release_fn: a device's handle goes - its lock ends, and its process's
 * translations into the allocation are unmapped. */
static int release_handle(void *kmd, const struct fw_device *dev, uint32_t handle)
{
	int st = fw_gpuva_release_handle(kmd, dev, handle);

	return st ? st : fw_lock_release_handle(kmd, dev, handle);
}

/* Free the roles' state (NULL pointers too) and clear the links to it. */
static void roles_free(struct fw_kmd *k)
{
	free(k->sch);
	free(k->pg);
	free(k->mfs);
	free(k->va);
	free(k->lk);
	k->sch = NULL;
	k->pg = NULL;
	k->mfs = NULL;
	k->va = NULL;
	k->lk = NULL;
}

/* Each role's state, zeroed.  GM_OK;
 * GM_ERR_NO_MEM (nothing left allocated). */
static int roles_alloc(struct fw_kmd *k)
{
	k->sch = calloc(1, sizeof(*k->sch));
	k->pg = calloc(1, sizeof(*k->pg));
	k->mfs = calloc(1, sizeof(*k->mfs));
	k->va = calloc(1, sizeof(*k->va));
	k->lk = calloc(1, sizeof(*k->lk));
	if (!k->sch || !k->pg || !k->mfs || !k->va || !k->lk) {
		roles_free(k);
		return GM_ERR_NO_MEM;
	}
	return GM_OK;
}

int fw_kmd_init(struct fw_kmd *k, struct fw_dev *d, const struct fw_kmd_cfg *cfg)
{
	struct fw_seg_desc vram, sys;
	uint64_t sys_base = 0, sys_next;
	int st;

	if (!k || !d || !cfg || cfg->tdr_cycles == 0 || cfg->vram_bytes == 0 || cfg->sys_bytes == 0 ||
	    cfg->vram_base + cfg->vram_bytes + cfg->pt_bytes > d->vram_bytes ||
	    cfg->pt_bytes % (GPU_NUM_VMIDS - 1) || (cfg->pt_bytes && cfg->pt_bytes / (GPU_NUM_VMIDS - 1) < (64u << 10)) ||
	    cfg->vram_base + cfg->vram_bytes < cfg->vram_base)
		return GM_ERR_BAD_ARG;
	memset(k, 0, sizeof(*k));
	k->d = d;
	k->cfg = *cfg;
	/* The roles a submission passes through, in phase order (fw_sched.h). */
	k->sched_ops[0] = &fw_lock_sched_ops;
	k->sched_ops[1] = &fw_gpuva_sched_ops;
	k->sched_ops[2] = &fw_paging_sched_ops;
	/* What residency must not move, and who follows what moves (fw_paging.h). */
	k->paging_ops[0] = &fw_lock_paging_ops;
	k->paging_ops[1] = &fw_gpuva_paging_ops;
	sys_next = d->sys_next; /* what fw_alloc_sys carves below is given back on error */
	st = roles_alloc(k);
	if (st)
		return st;
	st = fw_adapter_init(&k->ad, NULL);
	if (st) {
		roles_free(k);
		return st;
	}
	/* A Lock ends with the handle it was made through. */
	fw_adapter_on_release(&k->ad, release_handle, k);
	vram = (struct fw_seg_desc){ .id = FW_KMD_SEG_VRAM, .kind = FW_SEG_VRAM,
				     .base = GPU_VRAM_BASE + cfg->vram_base,
				     .size = cfg->vram_bytes,
				     /* BAR1 reaches the first GPU_APT_WINDOW_BYTES of VRAM */
				     .cpu_visible = cfg->vram_base + cfg->vram_bytes <=
						    GPU_APT_WINDOW_BYTES };
	st = fw_adapter_add_seg(&k->ad, &vram);
	if (!st)
		st = fw_alloc_sys(d, cfg->sys_bytes, FW_MEM_ALIGN_MAX, &sys_base);
	if (!st) {
		sys = (struct fw_seg_desc){ .id = FW_KMD_SEG_SYS, .kind = FW_SEG_SYSTEM,
					    .base = sys_base, .size = cfg->sys_bytes,
					    .cpu_visible = true };
		st = fw_adapter_add_seg(&k->ad, &sys);
	}
	/* The roles' system memory, in this order (the address map of every
	 * transcript follows from it): the scheduler's DMA buffer slots, the
	 * paging buffer, the monitored fences, the paging progress fence, the
	 * GPU-VA batches. */
	for (unsigned i = 0; !st && i < FW_KMD_SLOTS; i++)
		st = fw_alloc_sys(d, FW_KMD_DMA_DW * 4ull, 256, &k->sch->slot_addr[i]);
	if (!st)
		st = fw_alloc_sys(d, FW_KMD_DMA_DW * 4ull, 256, &k->pg->addr);
	if (!st)
		st = fw_alloc_sys(d, 8ull * (FW_KMD_MAX_MFENCES + 1), 32, &k->mfs->addr);
	if (!st)
		st = fw_alloc_sys(d, 8, 32, &k->pg->progress_addr);
	if (!st) /* the GPU counts paging pieces there from zero */
		st = gm_backdoor_write(d->gm, k->pg->progress_addr, &k->pg->pieces, 8);
	for (unsigned i = 0; !st && cfg->pt_bytes && i < FW_GPUVA_BATCHES; i++)
		st = fw_alloc_sys(d, FW_GPUVA_BATCH_DW * 4ull, 256, &k->va->vab[i].addr);
	/* GPU-VA devices: the render ring names each IB's VMID, so it is privileged
	 * (the IBs themselves run unprivileged). */
	if (!st && cfg->pt_bytes)
		st = fw_queue_set_priv(d, FW_QUEUE_RENDER, true);
	if (st) {
		fw_adapter_fini(&k->ad);
		roles_free(k);
		d->sys_next = sys_next;
		k->d = NULL;
		return st == GM_ERR_BAD_ARG ? GM_ERR_BAD_ARG : GM_ERR_NO_MEM;
	}
	FW_KMD_LOG(k, "up: VRAM segment %" PRIu64 " MiB at 0x%" PRIx64 ", system segment %" PRIu64
		   " MiB at 0x%" PRIx64 ", %u DMA buffers of %u dwords, TDR after %" PRIu64
		   " cycles\n", cfg->vram_bytes >> 20, vram.base, cfg->sys_bytes >> 20, sys_base,
		FW_KMD_SLOTS, FW_KMD_DMA_DW, cfg->tdr_cycles);
	return GM_OK;
}

void fw_kmd_fini(struct fw_kmd *k)
{
	if (!k || !k->d)
		return;
	for (unsigned v = 1; v < GPU_NUM_VMIDS; v++)
		if (k->va->vas[v])
			fw_gpuva_release_device(k, k->va->vas[v]->dev);
	fw_adapter_fini(&k->ad);
	roles_free(k);
	k->d = NULL;
}

int fw_kmd_device_destroy(struct fw_kmd *k, struct fw_device *dev, uint64_t budget)
{
	int st;

	if (!k || !dev || dev->ad != &k->ad)
		return GM_ERR_BAD_ARG;
	st = fw_sched_drain(k, dev, budget);
	if (!st)
		st = fw_lock_release_device(k, dev);
	/* its page-table batches done before its VMID and tables go */
	if (!st && fw_gpuva_vmid(k, dev))
		st = fw_paging_wait(k, budget);
	if (st)
		return st;
	fw_gpuva_release_device(k, dev);
	fw_mfence_release_device(k, dev);
	fw_device_destroy(dev);
	return GM_OK;
}

int fw_kmd_idle(struct fw_kmd *k, uint64_t budget)
{
	uint64_t end;
	int st;

	if (!k || !k->d)
		return GM_ERR_BAD_ARG;
	end = now(k) + budget;
	st = fw_kmd_poll(k, budget);
	if (st)
		return st;
	if (fw_sched_busy(k))
		return GM_ERR_TIMEOUT;
	/* A paging buffer no render submission waits for (its submit failed
	 * after residency moved things) may still be moving bytes. */
	if (fw_paging_wait(k, end > now(k) ? end - now(k) : 0))
		return GM_ERR_TIMEOUT;
	return GM_OK;
}

int fw_mfence_wait(struct fw_kmd *k, uint32_t id, uint64_t value, uint64_t budget)
{
	struct fw_mfence *m = fw_mfence_get(k, id);
	uint64_t end, v;

	if (!m || value > m->requested)
		return GM_ERR_BAD_ARG;
	end = now(k) + budget;
	for (;;) {
		int st = fw_mfence_read(k, id, &v);

		uint64_t slice = end - now(k) < WAIT_SLICE ? end - now(k) : WAIT_SLICE;

		if (st || v >= value)
			return st;
		if (now(k) >= end || (!fw_sched_busy(k) && !fw_gpuva_queued_ops(k)))
			return GM_ERR_TIMEOUT;
		if (fw_sched_busy(k)) {
			st = fw_kmd_poll(k, slice);
		} else { /* only page-table updates left: the paging queue writes the fence */
			uint64_t t = now(k);

			st = fw_paging_wait(k, slice);
			if (!st && now(k) == t) /* what is left waits for work never submitted */
				return GM_ERR_TIMEOUT;
		}
		if (st && st != GM_ERR_TIMEOUT)
			return st;
	}
}
