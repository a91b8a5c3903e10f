/* SPDX-License-Identifier: MIT */
/*
 * fw_gpuva.c - per-process GPU virtual address spaces and the DDI entry
 * points: enable, ReserveGpuVirtualAddress, FreeGpuVirtualAddress,
 * UpdateGpuVirtualAddress (see fw_gpuva.h).  The batches they make run
 * through fw_gpuva_batch.c; residency through fw_gpuva_move.c.
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

#define VA_MIN MMU_VA_ALIGN            /* VA 0 stays unmapped: a NULL pointer faults */

struct fw_gpuva_space *fw_gpuva_space_of(const struct fw_kmd *k, const struct fw_device *dev)
{
	for (unsigned v = 1; v < GPU_NUM_VMIDS; v++)
		if (k->va->vas[v] && k->va->vas[v]->dev == dev)
			return k->va->vas[v];
	return NULL;
}

/* Index of @a in @s's mapped allocations, or -1. */
int fw_gpuva_mapped_index(const struct fw_gpuva_space *s, const struct fw_alloc *a)
{
	for (unsigned i = 0; i < s->nmapped; i++)
		if (s->mapped[i] == a)
			return (int)i;
	return -1;
}

unsigned fw_gpuva_vmid(const struct fw_kmd *k, const struct fw_device *dev)
{
	const struct fw_gpuva_space *s = k && dev ? fw_gpuva_space_of(k, dev) : NULL;

	return s ? s->vmid : 0;
}

/* The table allocator of a space: 4 KiB tables from its pool, never given back. */
static int pool_alloc(void *ctx, uint64_t *pa)
{
	struct fw_gpuva_space *s = ctx;

	if (s->pool_next + MMU_TABLE_BYTES > s->pool_pa + s->pool_bytes)
		return GM_ERR_NO_MEM;
	*pa = s->pool_next;
	s->pool_next += MMU_TABLE_BYTES;
	return GM_OK;
}

int fw_gpuva_enable(struct fw_kmd *k, struct fw_device *dev)
{
	uint64_t slot_lo, slot_hi, sub;
	struct fw_gpuva_space *s;
	struct mmu_update_op op;
	unsigned vmid = 0;
	int st;

	if (!k || !dev || dev->ad != &k->ad || !k->cfg.pt_bytes || fw_gpuva_space_of(k, dev))
		return GM_ERR_BAD_ARG;
	if (fw_device_is_removed(dev))
		return GM_ERR_DEVICE_REMOVED;
	for (unsigned v = GPU_NUM_VMIDS - 1; v >= 1; v--)
		if (!k->va->vas[v])
			vmid = v;
	if (!vmid)
		return GM_ERR_FULL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return GM_ERR_NO_MEM;
	sub = k->cfg.pt_bytes / (GPU_NUM_VMIDS - 1) & ~(MMU_TABLE_BYTES - 1);
	s->dev = dev;
	s->vmid = vmid;
	s->pool_pa = GPU_VRAM_BASE + k->cfg.vram_base + k->cfg.vram_bytes + (vmid - 1) * sub;
	s->pool_bytes = sub;
	s->pool_next = s->pool_pa;
	/* The DMA buffer slots the render ring runs as IBs: mapped where they
	 * are (VA = PA) in a reservation of the driver's own. */
	fw_sched_slots(k, &slot_lo, &slot_hi);
	slot_lo &= ~(MMU_VA_ALIGN - 1);
	slot_hi = (slot_hi + MMU_VA_ALIGN - 1) & ~(MMU_VA_ALIGN - 1);
	st = mmu_shadow_init(&s->sh, s->pool_pa, sub, pool_alloc, s);
	if (st)
		goto err_free;
	st = mmu_pt_init(&s->pt, &mmu_shadow_ops, &s->sh);
	if (!st)
		st = mmu_va_init(&s->vs, VA_MIN, MMU_VA_LIMIT);
	if (st)
		goto err_shadow;
	st = mmu_va_reserve(&s->vs, slot_lo, slot_hi - slot_lo);
	if (st)
		goto err_va;
	s->kernel_va = slot_lo;
	op = (struct mmu_update_op){ .operation_type = MMU_UPDATE_MAP,
				     .map = { .base_address = slot_lo, .size_in_bytes = slot_hi - slot_lo,
					      .alloc_pa = slot_lo, .allocation_size = slot_hi - slot_lo,
					      .flags = MMU_MAP_R | MMU_MAP_SYS } };
	k->va->vas[vmid] = s;
	st = fw_gpuva_queue_batch(k, s, &op, 1, 0, 0, true, true);
	if (st)
		goto err_slot;
	/* The walker reads the root only for this VMID's accesses, which all
	 * come after the batch (the render ring waits for the paging queue). */
	if (gm_reg_write(k->d->gm, GPU_REG_VM_ROOT_LO(vmid), (uint32_t)s->pt.root_pa) ||
	    gm_reg_write(k->d->gm, GPU_REG_VM_ROOT_HI(vmid), (uint32_t)(s->pt.root_pa >> 32)) ||
	    gm_reg_write(k->d->gm, GPU_REG_MMU_CTRL, GPU_MMU_CTRL_ENABLE(1)))
		return GM_ERR_HW; /* the space stays: its VMID is taken */
	FW_KMD_LOG(k, "gpuva: device %u runs in VMID %u, root table at VRAM 0x%" PRIx64
		   ", %" PRIu64 " KiB of tables, DMA buffers mapped at 0x%" PRIx64 "\n",
		   dev->tag, vmid, s->pt.root_pa, sub >> 10, slot_lo);
	return GM_OK;

err_slot:
	k->va->vas[vmid] = NULL;
err_va:
	mmu_va_fini(&s->vs);
err_shadow:
	mmu_shadow_fini(&s->sh);
err_free:
	free(s);
	return st;
}

void fw_gpuva_release_device(struct fw_kmd *k, const struct fw_device *dev)
{
	struct fw_gpuva_space *s = k && dev ? fw_gpuva_space_of(k, dev) : NULL;

	if (!k)
		return;
	fw_gpuva_reap(k); /* the caller waited for the paging queue: its batches are done */
	for (unsigned i = 0; i < FW_GPUVA_BATCHES; i++)
		if (k->va->vab[i].used && k->va->vab[i].dev == dev)
			k->va->vab[i].used = false;
	if (!s)
		return;
	k->va->vas[s->vmid] = NULL;
	mmu_va_fini(&s->vs);
	mmu_shadow_fini(&s->sh);
	free(s);
}

/* The space of @dev for a DDI call: GM_OK, GM_ERR_BAD_ARG or DEVICE_REMOVED. */
static int space_for(struct fw_kmd *k, struct fw_device *dev, struct fw_gpuva_space **s)
{
	if (!k || !dev || dev->ad != &k->ad)
		return GM_ERR_BAD_ARG;
	if (fw_device_is_removed(dev))
		return GM_ERR_DEVICE_REMOVED;
	*s = fw_gpuva_space_of(k, dev);
	return *s ? GM_OK : GM_ERR_BAD_ARG;
}

int fw_gpuva_reserve(struct fw_kmd *k, struct fw_device *dev, struct fw_gpuva_reserve_args *a)
{
	struct fw_gpuva_space *s;
	struct mmu_update_op op;
	uint64_t va = 0, hi;
	int st = space_for(k, dev, &s);

	if (st)
		return st;
	if (!a || (a->reservation_type != FW_GPUVA_RESERVE_NO_ACCESS &&
		   a->reservation_type != FW_GPUVA_RESERVE_ZERO))
		return GM_ERR_BAD_ARG;
	if (a->base_address) {
		st = mmu_va_reserve(&s->vs, a->base_address, a->size);
		va = a->base_address;
	} else {
		hi = a->maximum_address ? a->maximum_address : MMU_VA_LIMIT;
		st = mmu_va_reserve_in(&s->vs, a->minimum_address < VA_MIN ? VA_MIN : a->minimum_address,
				       hi, a->size, &va);
	}
	if (st)
		return st == GM_ERR_NO_MEM && !a->base_address ? GM_ERR_FULL : GM_ERR_BAD_ARG;
	a->paging_fence_value = 0;
	if (a->reservation_type == FW_GPUVA_RESERVE_ZERO) {
		op = (struct mmu_update_op){ .operation_type = MMU_UPDATE_UNMAP,
					     .unmap = { .base_address = va, .size_in_bytes = a->size,
							.protection = MMU_UNMAP_ZERO } };
		st = fw_gpuva_queue_batch(k, s, &op, 1, 0, 0, true, false);
		if (st) /* the reservation starts at va: releasing it cannot fail */
			return mmu_va_release(&s->vs, va) ? GM_ERR_HW : st;
		a->paging_fence_value = fw_paging_last_fence(k);
	}
	a->virtual_address = va;
	FW_KMD_LOG(k, "gpuva: device %u reserved 0x%" PRIx64 " +0x%" PRIx64 " (%s)\n", dev->tag, va,
		   a->size, a->reservation_type == FW_GPUVA_RESERVE_ZERO ? "zero" : "no access");
	return GM_OK;
}

int fw_gpuva_free(struct fw_kmd *k, struct fw_device *dev, uint64_t va)
{
	struct fw_gpuva_space *s;
	struct mmu_update_op op;
	uint64_t size = 0;
	int st = space_for(k, dev, &s);

	if (st)
		return st;
	for (size_t i = 0; i < s->vs.n; i++)
		if (s->vs.r[i].base == va)
			size = s->vs.r[i].size;
	if (!size || va == s->kernel_va)
		return GM_ERR_BAD_ARG;
	op = (struct mmu_update_op){ .operation_type = MMU_UPDATE_UNMAP,
				     .unmap = { .base_address = va, .size_in_bytes = size,
						.protection = MMU_UNMAP_NOACCESS } };
	st = fw_gpuva_queue_batch(k, s, &op, 1, 0, 0, true, false);
	if (!st)
		st = mmu_va_release(&s->vs, va);
	return st;
}

/* The allocation MAP operation @i names on @dev (*al NULL for another
 * kind), its range checked against the allocation's size: GM_OK or
 * GM_ERR_BAD_ARG. */
static int map_target(struct fw_kmd *k, struct fw_device *dev, const struct fw_gpuva_update_args *a,
		      const struct mmu_update_op *op, uint32_t i, struct fw_alloc **al)
{
	int st;

	*al = NULL;
	if (op->operation_type != MMU_UPDATE_MAP)
		return GM_OK;
	st = fw_render_resolve(k, dev, a->allocations[i], al);
	if (!st && (op->map.allocation_offset > (*al)->d.size ||
		    op->map.size_in_bytes > (*al)->d.size - op->map.allocation_offset))
		st = GM_ERR_BAD_ARG;
	return st;
}

/* Resolve each MAP's allocation on @dev into the op (where it lies now,
 * brought in and pinned).  Every MAP is checked before anything moves:
 * GM_ERR_BAD_ARG for a handle that does not resolve or a range outside the
 * allocation. */
static int resolve_maps(struct fw_kmd *k, struct fw_gpuva_space *s, const struct fw_gpuva_update_args *a,
			struct mmu_update_op *ops)
{
	struct fw_gpuva_space room = { .nmapped = s->nmapped };
	struct fw_device *dev = s->dev;
	struct fw_alloc *al;

	memcpy(room.mapped, s->mapped, sizeof(room.mapped));
	for (uint32_t i = 0; i < a->num_operations; i++) {
		int st = map_target(k, dev, a, &ops[i], i, &al);

		if (st)
			return st;
		if (!al || fw_gpuva_mapped_index(&room, al) >= 0)
			continue;
		if (room.nmapped == FW_GPUVA_MAX_MAPPED)
			return GM_ERR_NO_MEM; /* more allocations than the space keeps track of */
		room.mapped[room.nmapped++] = al;
	}
	for (uint32_t i = 0; i < a->num_operations; i++) {
		int st = map_target(k, dev, a, &ops[i], i, &al);

		if (!st && al)
			st = fw_paging_bring_in(k, al);
		if (st)
			return st;
		if (!al)
			continue;
		/* its mappings follow it when it moves (fw_gpuva_relocate) */
		if (fw_gpuva_mapped_index(s, al) < 0)
			s->mapped[s->nmapped++] = al;
		ops[i].map.alloc_pa = al->loc.addr;
		ops[i].map.allocation_size = al->d.size;
		if (al->loc.seg_id == FW_KMD_SEG_SYS)
			ops[i].map.flags |= MMU_MAP_SYS;
	}
	return GM_OK;
}

static int update_ops(struct fw_kmd *k, struct fw_gpuva_space *s,
		      const struct fw_gpuva_update_args *a, struct mmu_update_op *ops);

int fw_gpuva_update(struct fw_kmd *k, struct fw_device *dev, const struct fw_gpuva_update_args *a)
{
	struct mmu_update_op *ops;
	const struct fw_mfence *m;
	struct fw_gpuva_space *s;
	int st = space_for(k, dev, &s);

	if (st)
		return st;
	if (!a || !a->operations || a->num_operations == 0 || a->fence_value == UINT64_MAX)
		return GM_ERR_BAD_ARG;
	m = fw_mfence_get(k, a->fence);
	/* Any FenceValue: a batch whose FenceValue + 1 would take the fence
	 * back leaves its signal out when it goes (see release_one) */
	if (!m || m->dev != dev)
		return GM_ERR_BAD_ARG;
	if (!fw_gpuva_call_fits(k, a->num_operations))
		return GM_ERR_NO_MEM; /* more batches than the process may ever hold */
	ops = malloc((size_t)a->num_operations * sizeof(*ops));
	if (!ops)
		return GM_ERR_NO_MEM;
	memcpy(ops, a->operations, (size_t)a->num_operations * sizeof(ops[0]));
	st = update_ops(k, s, a, ops);
	free(ops);
	return st;
}

/* fw_gpuva_update's checks and queueing on @ops, a copy of the call's. */
static int update_ops(struct fw_kmd *k, struct fw_gpuva_space *s,
		      const struct fw_gpuva_update_args *a, struct mmu_update_op *ops)
{
	int st;

	for (uint32_t i = 0; i < a->num_operations; i++) {
		if (ops[i].operation_type != MMU_UPDATE_MAP)
			continue;
		if (!a->allocations)
			return GM_ERR_BAD_ARG;
		/* the rules are checked on the allocation's current place below;
		 * here only a stand-in that passes the PA checks */
		ops[i].map.alloc_pa = 0;
		ops[i].map.allocation_size = UINT64_MAX;
		ops[i].map.flags &= ~(unsigned)MMU_MAP_SYS;
	}
	st = mmu_update_check(&s->vs, ops, a->num_operations);
	if (!st)
		st = resolve_maps(k, s, a, ops);
	if (st)
		return st;
	st = fw_gpuva_queue_batch(k, s, ops, a->num_operations, a->fence, a->fence_value, a->do_not_wait,
			 false);
	if (!st)
		FW_KMD_LOG(k, "gpuva: device %u update of %u operations after fence %u >= %" PRIu64
			   ", signals %" PRIu64 "\n", s->dev->tag, a->num_operations, a->fence,
			   a->fence_value, a->fence_value + 1);
	return st;
}

/* check: a patch list on a GPU-VA device's buffer (it addresses memory by
 * VA: nothing to patch) is refused (GM_ERR_BAD_ARG).  Any signal the
 * monitored fence takes is fine: held page-table updates behind a lower
 * FenceValue leave their own signal out rather than take the fence back. */
static int gpuva_check(const struct fw_kmd *k, const struct fw_dmabuf *buf,
		       const struct fw_signal *sig, uint32_t nsig)
{
	(void)sig;
	(void)nsig;
	return buf->nloc && fw_gpuva_vmid(k, buf->dev) ? GM_ERR_BAD_ARG : GM_OK;
}

/* patch: the IB runs in its device's VMID (0: physical). */
static void gpuva_patch(const struct fw_kmd *k, struct fw_dmabuf *buf, struct fw_sched_run *run)
{
	run->vmid = fw_gpuva_vmid(k, buf->dev);
}

/* submitted: page-table updates waiting for what it signals may go now. */
static int gpuva_submitted(struct fw_kmd *k, const struct fw_dmabuf *buf)
{
	(void)buf;
	return fw_gpuva_release(k);
}

const struct fw_sched_ops fw_gpuva_sched_ops = {
	.name = "gpuva",
	.check = gpuva_check,
	.patch = gpuva_patch,
	.submitted = gpuva_submitted,
	.removed = fw_gpuva_remove_device,
};

const struct fw_paging_ops fw_gpuva_paging_ops = {
	.name = "gpuva",
	.pinned = fw_gpuva_busy_allocs,
	.follows = fw_gpuva_is_mapped,
	.moved = fw_gpuva_relocate,
};
