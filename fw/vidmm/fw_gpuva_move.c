/* SPDX-License-Identifier: MIT */
/*
 * fw_gpuva_move.c - residency of mapped allocations: what must not move,
 * and translations that follow an allocation when it moves or goes (see
 * fw_gpuva.h).
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

/* Whether @s has page-table work not yet done, or render work pending:
 * its mapped allocations must not move now. */
static bool space_busy(const struct fw_kmd *k, const struct fw_gpuva_space *s)
{
	for (unsigned i = 0; i < FW_GPUVA_BATCHES; i++)
		if (k->va->vab[i].used && k->va->vab[i].dev == s->dev &&
		    (k->va->vab[i].held || k->va->vab[i].paging_fence > fw_gpuva_paging_seen(k)))
			return true;
	return fw_sched_device_busy(k, s->dev);
}

size_t fw_gpuva_busy_allocs(const struct fw_kmd *k, struct fw_alloc **out)
{
	size_t n = 0;

	for (unsigned v = 1; v < GPU_NUM_VMIDS; v++)
		if (k->va->vas[v] && space_busy(k, k->va->vas[v]))
			for (unsigned i = 0; i < k->va->vas[v]->nmapped; i++)
				out[n++] = k->va->vas[v]->mapped[i];
	return n;
}

bool fw_gpuva_is_mapped(const struct fw_kmd *k, const struct fw_alloc *a)
{
	for (unsigned v = 1; v < GPU_NUM_VMIDS; v++)
		if (k->va->vas[v] && fw_gpuva_mapped_index(k->va->vas[v], a) >= 0)
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
			st = fw_gpuva_queue_batch(k, s, ops, n, 0, 0, true, false);
		}
	}
	free(ops);
	free(sc.run);
	return st;
}

int fw_gpuva_relocate(struct fw_kmd *k, struct fw_alloc *a, const struct fw_loc *from)
{
	for (unsigned v = 1; v < GPU_NUM_VMIDS; v++) {
		struct fw_gpuva_space *s = k->va->vas[v];
		int st;

		if (!s || fw_gpuva_mapped_index(s, a) < 0)
			continue;
		st = remap(k, s, a, from, false);
		if (st)
			return st;
	}
	return GM_OK;
}

int fw_gpuva_release_handle(struct fw_kmd *k, const struct fw_device *dev, uint32_t handle)
{
	struct fw_gpuva_space *s = fw_gpuva_space_of(k, dev);
	struct fw_alloc *a;
	int i, st;

	if (!s || fw_res_get_handle_data(dev, handle, &a))
		return GM_OK;
	i = fw_gpuva_mapped_index(s, a);
	if (i < 0)
		return GM_OK;
	fw_gpuva_reap(k);
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
