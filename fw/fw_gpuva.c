/* SPDX-License-Identifier: MIT */
/*
 * fw_gpuva.c - per-process GPU virtual address spaces and
 * UpdateGpuVirtualAddress batches run by the GPU (see fw_gpuva.h).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "dma_buf.h"
#include "fw_gpuva.h"
#include "fw_mfence.h"
#include "fw_paging.h"
#include "fw_render.h"
#include "fw_sched.h"
#include "gpu_hw.h"

#define PAGING_Q FW_QUEUE_COPY
#define VA_MIN MMU_VA_ALIGN            /* VA 0 stays unmapped: a NULL pointer faults */
#define WAIT_POLL_CYCLES 16u
#define BLOCK_SLICE 4096u              /* cycles run at a time while blocked */
#define BATCH_FIXED_DW 32u             /* WAIT_MEM, INVALIDATE_TLB, RELEASE_FENCE and slack */

static struct fw_gpuva_space *space_of(const struct fw_kmd *k, const struct fw_device *dev)
{
	for (unsigned v = 1; v < GPU_NUM_VMIDS; v++)
		if (k->vas[v] && k->vas[v]->dev == dev)
			return k->vas[v];
	return NULL;
}

/* Index of @a in @s's mapped allocations, or -1. */
static int mapped_index(const struct fw_gpuva_space *s, const struct fw_alloc *a)
{
	for (unsigned i = 0; i < s->nmapped; i++)
		if (s->mapped[i] == a)
			return (int)i;
	return -1;
}

unsigned fw_gpuva_vmid(const struct fw_kmd *k, const struct fw_device *dev)
{
	const struct fw_gpuva_space *s = k && dev ? space_of(k, dev) : NULL;

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

/* ------------------------------------------------------------ batches */

/* Paging-queue fence the CPU has seen. */
static uint64_t paging_seen(const struct fw_kmd *k)
{
	return k->d->q[PAGING_Q].fence_seen;
}

/*
 * Drop the bookkeeping of batches the GPU has finished.  A batch of a
 * device removed while it was on the queue ran once the removal pushed the
 * fence to the maximum and wrote FenceValue + 1 over it: the maximum goes
 * back (nothing may ever see a removed device's fence go down).
 */
static void reap(struct fw_kmd *k)
{
	for (unsigned i = 0; i < FW_GPUVA_BATCHES; i++) {
		struct fw_gpuva_batch *b = &k->vab[i];

		if (!b->used || b->held || b->paging_fence > paging_seen(k))
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
	reap(k);
	for (unsigned i = 0; i < FW_GPUVA_BATCHES; i++)
		if (k->vab[i].used)
			n += k->vab[i].nops;
	return n;
}

/* The oldest held batch of @dev (NULL: of any device), or NULL. */
static struct fw_gpuva_batch *oldest_held(struct fw_kmd *k, const struct fw_device *dev)
{
	struct fw_gpuva_batch *o = NULL;

	for (unsigned i = 0; i < FW_GPUVA_BATCHES; i++) {
		struct fw_gpuva_batch *b = &k->vab[i];

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
	for (unsigned s = 0; s < FW_KMD_SLOTS; s++)
		for (uint32_t i = 0; k->pend[s].used && i < k->pend[s].nsig; i++)
			if (k->pend[s].sig[i].fence == b->fence && k->pend[s].sig[i].value >= b->value)
				return true;
	for (unsigned i = 0; i < FW_GPUVA_BATCHES; i++) {
		const struct fw_gpuva_batch *o = &k->vab[i];

		if (o->used && !o->held && !o->do_not_wait && o->fence == b->fence &&
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
			struct fw_gpuva_batch *o = &k->vab[i];

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
static uint64_t held_top(const struct fw_kmd *k, uint32_t fence)
{
	uint64_t top = 0;

	for (unsigned i = 0; i < FW_GPUVA_BATCHES; i++) {
		const struct fw_gpuva_batch *b = &k->vab[i];

		if (b->used && b->held && b->fence == fence && b->value + 1 > top)
			top = b->value + 1;
	}
	return top;
}

bool fw_gpuva_signals_ok(const struct fw_kmd *k, const struct fw_signal *sig, uint32_t nsig)
{
	for (uint32_t i = 0; k && i < nsig; i++)
		for (unsigned j = 0; j < FW_GPUVA_BATCHES; j++) {
			const struct fw_gpuva_batch *b = &k->vab[j];

			if (b->used && b->held && b->fence == sig[i].fence && sig[i].value > b->value)
				return false;
		}
	return true;
}

void fw_gpuva_remove_device(struct fw_kmd *k, const struct fw_device *dev)
{
	for (unsigned i = 0; k && i < FW_GPUVA_BATCHES; i++)
		if (k->vab[i].used && k->vab[i].held && k->vab[i].dev == dev)
			k->vab[i].used = false;
}

/* A free batch slot, after waiting (blocking the caller, as seed 004 says)
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
				if (!k->vab[i].used) {
					*out = &k->vab[i];
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
	if (st) {
		free(backup);
		return st;
	}
	dma_buf_init(&db, k->va_dw, FW_GPUVA_BATCH_DW);
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
static int queue_batch(struct fw_kmd *k, struct fw_gpuva_space *s, const struct mmu_update_op *ops,
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
	b->seq = ++k->va_seq;
	return fw_gpuva_release(k);
}

/* ------------------------------------------------------------ spaces */

int fw_gpuva_enable(struct fw_kmd *k, struct fw_device *dev)
{
	uint64_t slot_lo, slot_hi, sub;
	struct fw_gpuva_space *s;
	struct mmu_update_op op;
	unsigned vmid = 0;
	int st;

	if (!k || !dev || dev->ad != &k->ad || !k->cfg.pt_bytes || space_of(k, dev))
		return GM_ERR_BAD_ARG;
	if (fw_device_is_removed(dev))
		return GM_ERR_DEVICE_REMOVED;
	for (unsigned v = GPU_NUM_VMIDS - 1; v >= 1; v--)
		if (!k->vas[v])
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
	slot_lo = k->slot_addr[0] & ~(MMU_VA_ALIGN - 1);
	slot_hi = (k->slot_addr[FW_KMD_SLOTS - 1] + FW_KMD_DMA_DW * 4ull + MMU_VA_ALIGN - 1) &
		  ~(MMU_VA_ALIGN - 1);
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
	k->vas[vmid] = s;
	st = queue_batch(k, s, &op, 1, 0, 0, true, true);
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
	k->vas[vmid] = NULL;
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
	struct fw_gpuva_space *s = k && dev ? space_of(k, dev) : NULL;

	if (!k)
		return;
	reap(k); /* the caller waited for the paging queue: its batches are done */
	for (unsigned i = 0; i < FW_GPUVA_BATCHES; i++)
		if (k->vab[i].used && k->vab[i].dev == dev)
			k->vab[i].used = false;
	if (!s)
		return;
	k->vas[s->vmid] = NULL;
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
	*s = space_of(k, dev);
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
		st = queue_batch(k, s, &op, 1, 0, 0, true, false);
		if (st) /* the reservation starts at va: releasing it cannot fail */
			return mmu_va_release(&s->vs, va) ? GM_ERR_HW : st;
		a->paging_fence_value = k->pg.last_fence;
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
	st = queue_batch(k, s, &op, 1, 0, 0, true, false);
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
		if (!al || mapped_index(&room, al) >= 0)
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
		if (mapped_index(s, al) < 0)
			s->mapped[s->nmapped++] = al;
		ops[i].map.alloc_pa = al->loc.addr;
		ops[i].map.allocation_size = al->d.size;
		if (al->loc.seg_id == FW_KMD_SEG_SYS)
			ops[i].map.flags |= MMU_MAP_SYS;
	}
	return GM_OK;
}

int fw_gpuva_update(struct fw_kmd *k, struct fw_device *dev, const struct fw_gpuva_update_args *a)
{
	struct mmu_update_op ops[FW_GPUVA_MAX_BATCH_OPS];
	const struct fw_mfence *m;
	struct fw_gpuva_space *s;
	int st = space_for(k, dev, &s);

	if (st)
		return st;
	if (!a || !a->operations || a->num_operations == 0 ||
	    a->num_operations > FW_GPUVA_MAX_BATCH_OPS || a->fence_value == UINT64_MAX)
		return GM_ERR_BAD_ARG;
	m = fw_mfence_get(k, a->fence);
	/* FenceValue + 1 must go above every value already due on the fence,
	 * so the batch's signal never takes the fence back */
	if (!m || m->dev != dev || a->fence_value < m->requested ||
	    a->fence_value < held_top(k, a->fence))
		return GM_ERR_BAD_ARG;
	memcpy(ops, a->operations, a->num_operations * sizeof(ops[0]));
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
	st = queue_batch(k, s, ops, a->num_operations, a->fence, a->fence_value, a->do_not_wait,
			 false);
	if (!st)
		FW_KMD_LOG(k, "gpuva: device %u update of %u operations after fence %u >= %" PRIu64
			   ", signals %" PRIu64 "\n", dev->tag, a->num_operations, a->fence,
			   a->fence_value, a->fence_value + 1);
	return st;
}

/* ------------------------------------------------------------ residency */

/* Whether @s has page-table work not yet done, or render work pending:
 * its mapped allocations must not move now. */
static bool space_busy(const struct fw_kmd *k, const struct fw_gpuva_space *s)
{
	for (unsigned i = 0; i < FW_GPUVA_BATCHES; i++)
		if (k->vab[i].used && k->vab[i].dev == s->dev &&
		    (k->vab[i].held || k->vab[i].paging_fence > paging_seen(k)))
			return true;
	for (unsigned i = 0; i < FW_KMD_SLOTS; i++)
		if (k->pend[i].used && k->pend[i].buf.dev == s->dev)
			return true;
	return false;
}

size_t fw_gpuva_busy_allocs(const struct fw_kmd *k, struct fw_alloc **out)
{
	size_t n = 0;

	for (unsigned v = 1; v < GPU_NUM_VMIDS; v++)
		if (k->vas[v] && space_busy(k, k->vas[v]))
			for (unsigned i = 0; i < k->vas[v]->nmapped; i++)
				out[n++] = k->vas[v]->mapped[i];
	return n;
}

bool fw_gpuva_is_mapped(const struct fw_kmd *k, const struct fw_alloc *a)
{
	for (unsigned v = 1; v < GPU_NUM_VMIDS; v++)
		if (k->vas[v] && mapped_index(k->vas[v], a) >= 0)
			return true;
	return false;
}

/* A run of leaf entries found by scan(): consecutive VA pages whose PAs are
 * consecutive too, with the same access. */
struct va_run {
	uint64_t va, pa, bytes;
	unsigned flags;   /* MMU_MAP_R / W; FRAG64K when every entry had it */
};

struct scan {
	uint64_t lo, hi;          /* PA range looked for */
	struct va_run *run;
	size_t n, cap;
};

static int scan_add(struct scan *sc, uint64_t va, const struct mmu_pte *p)
{
	unsigned flags = (p->r ? MMU_MAP_R : 0) | (p->w ? MMU_MAP_W : 0);
	struct va_run *last = sc->n ? &sc->run[sc->n - 1] : NULL;

	if (last && last->va + last->bytes == va && last->pa + last->bytes == p->pa &&
	    (last->flags & ~(unsigned)MMU_MAP_FRAG64K) == flags) {
		last->bytes += MMU_PAGE_SIZE;
		if (!p->frag64k)
			last->flags &= ~(unsigned)MMU_MAP_FRAG64K;
		return GM_OK;
	}
	if (sc->n == sc->cap) {
		size_t cap = sc->cap ? 2 * sc->cap : 16;
		struct va_run *r = realloc(sc->run, cap * sizeof(*r));

		if (!r)
			return GM_ERR_NO_MEM;
		sc->run = r;
		sc->cap = cap;
	}
	sc->run[sc->n++] = (struct va_run){ va, p->pa, MMU_PAGE_SIZE,
					   flags | (p->frag64k ? MMU_MAP_FRAG64K : 0) };
	return GM_OK;
}

/* Every valid leaf entry of the table at @pa (level @level, VA @va) that
 * maps into [sc->lo, sc->hi), in VA order, into sc's runs. */
static int scan(const struct fw_gpuva_space *s, uint64_t pa, unsigned level, uint64_t va,
		struct scan *sc)
{
	unsigned shift = GPU_PAGE_SHIFT + (MMU_LEAF_LEVEL - level) * GPU_PT_LEVEL_BITS;

	if (pa < s->sh.base || pa + MMU_TABLE_BYTES > s->sh.base + s->sh.bytes)
		return GM_OK; /* not one of this space's tables */
	for (unsigned i = 0; i < MMU_PT_ENTRIES; i++) {
		uint64_t e = mmu_entry_get(s->sh.mem + (pa - s->sh.base) + i * MMU_ENTRY_BYTES);
		uint64_t eva = va | (uint64_t)i << shift;
		int st = GM_OK;

		if (level < MMU_LEAF_LEVEL) {
			struct mmu_pde d;

			mmu_pde_decode(e, &d);
			if (d.v)
				st = scan(s, d.pa, level + 1, eva, sc);
		} else {
			struct mmu_pte p;

			mmu_pte_decode(e, &p);
			if (p.v && p.pa >= sc->lo && p.pa < sc->hi)
				st = scan_add(sc, eva, &p);
		}
		if (st)
			return st;
	}
	return GM_OK;
}

/* The reservation of @s holding @va (its index), or -1. */
static int reservation_of(const struct fw_gpuva_space *s, uint64_t va)
{
	for (size_t i = 0; i < s->vs.n; i++)
		if (va >= s->vs.r[i].base && va - s->vs.r[i].base < s->vs.r[i].size)
			return (int)i;
	return -1;
}

/*
 * Rewrite every translation of @s into @a's bytes at @from: to where @a is
 * now (@to_gone: to no access, @a is going away).  One internal batch per
 * reservation touched.
 */
static int remap(struct fw_kmd *k, struct fw_gpuva_space *s, struct fw_alloc *a,
		 const struct fw_loc *from, bool to_gone)
{
	struct scan sc = { .lo = from->addr, .hi = from->addr + a->d.size };
	struct mmu_update_op *ops;
	int st = scan(s, s->pt.root_pa, 0, 0, &sc);

	ops = st || !sc.n ? NULL : calloc(sc.n, sizeof(*ops));
	if (!st && sc.n && !ops)
		st = GM_ERR_NO_MEM;
	while (!st && sc.n) { /* the reservation of the first run left, then the others */
		int r = reservation_of(s, sc.run[0].va);
		size_t left = 0;
		uint32_t n = 0;

		for (size_t i = 0; i < sc.n; i++) {
			const struct va_run *v = &sc.run[i];
			uint64_t off = v->pa - from->addr;
			bool frag = (v->flags & MMU_MAP_FRAG64K) && !((a->loc.addr + off) % MMU_FRAG_SIZE);

			if (reservation_of(s, v->va) != r)
				continue;
			ops[n++] = to_gone
				? (struct mmu_update_op){ .operation_type = MMU_UPDATE_UNMAP,
							  .unmap = { .base_address = v->va,
								     .size_in_bytes = v->bytes,
								     .protection = MMU_UNMAP_NOACCESS } }
				: (struct mmu_update_op){ .operation_type = MMU_UPDATE_MAP,
							  .map = { .base_address = v->va,
								   .size_in_bytes = v->bytes,
								   .alloc_pa = a->loc.addr,
								   .allocation_offset = off,
								   .allocation_size = a->d.size,
								   .flags = (v->flags & ~(unsigned)MMU_MAP_FRAG64K) |
									    (frag ? MMU_MAP_FRAG64K : 0) |
									    (a->loc.seg_id == FW_KMD_SEG_SYS ?
									     MMU_MAP_SYS : 0) } };
		}
		/* reservation r's runs go in this batch; the others stay */
		for (size_t i = 0; i < sc.n; i++)
			if (reservation_of(s, sc.run[i].va) != r)
				sc.run[left++] = sc.run[i];
		sc.n = left;
		if (n) {
			FW_KMD_LOG(k, "gpuva: VMID %u: %u mapped range(s) of the allocation at 0x%" PRIx64
				   " %s\n", s->vmid, n, from->addr,
				   to_gone ? "unmapped (it goes)" : "follow it to its new place");
			st = queue_batch(k, s, ops, n, 0, 0, true, false);
		}
	}
	free(ops);
	free(sc.run);
	return st;
}

int fw_gpuva_relocate(struct fw_kmd *k, struct fw_alloc *a, const struct fw_loc *from)
{
	for (unsigned v = 1; v < GPU_NUM_VMIDS; v++) {
		struct fw_gpuva_space *s = k->vas[v];
		int st;

		if (!s || mapped_index(s, a) < 0)
			continue;
		st = remap(k, s, a, from, false);
		if (st)
			return st;
	}
	return GM_OK;
}

int fw_gpuva_release_handle(struct fw_kmd *k, const struct fw_device *dev, uint32_t handle)
{
	struct fw_gpuva_space *s = space_of(k, dev);
	struct fw_alloc *a;
	int i, st;

	if (!s || fw_res_get_handle_data(dev, handle, &a))
		return GM_OK;
	i = mapped_index(s, a);
	if (i < 0)
		return GM_OK;
	reap(k);
	if (space_busy(k, s))
		return GM_ERR_BUSY; /* a queued batch may still map it: not now */
	if (a->resident) {
		st = remap(k, s, a, &a->loc, true);
		if (st)
			return st;
	}
	s->mapped[i] = s->mapped[--s->nmapped];
	return GM_OK;
}
