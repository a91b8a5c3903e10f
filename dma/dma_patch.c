/* SPDX-License-Identifier: MIT */
/*
 * dma_patch.c - allocation and patch-location lists, and the patcher.
 *
 * dma_patch() runs in two passes: check the arguments and every entry of the
 * submitted range, then write.  The write pass cannot fail, so a refused call
 * leaves the DMA buffer untouched.  Bytes are stored one by one in
 * little-endian order (the GPU's), whatever the host's byte order, and
 * without assuming the buffer pointer is aligned.
 */
#include <string.h>

#include "dma_patch.h"
#include "gpu_hw.h"

#define ADDR_LIMIT (1ull << GPU_PA_BITS) /* first address past the address space */

/* ------------------------------------------------------------ lists */

void dma_alloc_list_init(struct dma_alloc_list *l, struct dma_alloc_entry *e, uint32_t cap)
{
	l->e = e;
	l->cap = cap;
	l->len = 0;
}

void dma_patch_list_init(struct dma_patch_list *l, struct dma_patch_loc *e, uint32_t cap)
{
	l->e = e;
	l->cap = cap;
	l->len = 0;
}

/* Two references to one allocation must agree on where it is. */
static bool same_place(const struct dma_alloc_entry *x, const struct dma_alloc_entry *y)
{
	return x->addr == y->addr && x->size == y->size && x->segment_id == y->segment_id;
}

int dma_alloc_list_add(struct dma_alloc_list *l, const struct dma_alloc_entry *a, uint32_t *index)
{
	if (!l || !l->e || !a || !index)
		return GM_ERR_BAD_ARG;
	for (uint32_t i = 0; a->handle && i < l->len; i++) {
		struct dma_alloc_entry *e = &l->e[i];

		if (e->handle != a->handle)
			continue;
		if (!same_place(e, a))
			return GM_ERR_BAD_ARG;
		e->write = e->write || a->write;
		*index = i;
		return GM_OK;
	}
	if (l->len >= l->cap)
		return GM_ERR_FULL;
	l->e[l->len] = *a;
	*index = l->len++;
	return GM_OK;
}

int dma_patch_list_add(struct dma_patch_list *l, const struct dma_patch_loc *loc)
{
	if (!l || !l->e || !loc)
		return GM_ERR_BAD_ARG;
	if (l->len >= l->cap)
		return GM_ERR_FULL;
	l->e[l->len++] = *loc;
	return GM_OK;
}

/* ------------------------------------------------------------ checks */

/* Bytes an entry of @kind writes (kind already checked). */
static uint32_t kind_bytes(uint32_t kind)
{
	return kind == DMA_PATCH_ADDR64 ? 8 : 4;
}

/* Whether host ranges [p, p + n) and [q, q + m) share a byte.  Compared as
 * integers: relational operators on pointers into different objects are
 * undefined. */
static bool host_overlap(const void *p, size_t n, const void *q, size_t m)
{
	uintptr_t a = (uintptr_t)p, b = (uintptr_t)q;

	return n && m && a < b + m && b < a + n;
}

static uint32_t check_dma(const struct dma_patch_args *a)
{
	if (!a->dma || a->dma_phys & 3 || a->dma_sub_start > a->dma_sub_end ||
	    a->dma_sub_end > a->dma_size || (a->dma_sub_start | a->dma_sub_end) & 3)
		return DMA_PATCH_WHY_ARGS;
	if (a->dma_phys >= ADDR_LIMIT || a->dma_phys + a->dma_size > ADDR_LIMIT)
		return DMA_PATCH_WHY_ADDR;
	return DMA_PATCH_WHY_NONE;
}

static uint32_t check_priv(const struct dma_patch_args *a, bool paging)
{
	if ((a->priv_size && !a->priv) || a->priv_sub_start > a->priv_sub_end ||
	    a->priv_sub_end > a->priv_size || (!paging && a->priv_sub_start))
		return DMA_PATCH_WHY_ARGS;
	return DMA_PATCH_WHY_NONE;
}

static uint32_t check_lists(const struct dma_patch_args *a, bool paging)
{
	if (paging)
		return a->allocs || a->alloc_count || a->locs || a->loc_count || a->loc_sub_start ||
		       a->loc_sub_len ? DMA_PATCH_WHY_ARGS : DMA_PATCH_WHY_NONE;
	if ((a->alloc_count && !a->allocs) || (a->loc_count && !a->locs) ||
	    (uint64_t)a->loc_sub_start + a->loc_sub_len > a->loc_count)
		return DMA_PATCH_WHY_ARGS;
	if (host_overlap(a->dma, a->dma_size, a->allocs, a->alloc_count * sizeof(*a->allocs)) ||
	    host_overlap(a->dma, a->dma_size, a->locs, a->loc_count * sizeof(*a->locs)))
		return DMA_PATCH_WHY_ARGS;
	return DMA_PATCH_WHY_NONE;
}

static uint32_t check_args(const struct dma_patch_args *a)
{
	bool paging = a->flags & DMA_PATCH_F_PAGING;
	uint32_t why;

	/* a paging buffer is none of the others */
	if (a->flags & ~DMA_PATCH_F_ALL || (paging && a->flags & ~DMA_PATCH_F_PAGING))
		return DMA_PATCH_WHY_ARGS;
	why = check_dma(a);
	if (why == DMA_PATCH_WHY_NONE)
		why = check_priv(a, paging);
	if (why == DMA_PATCH_WHY_NONE)
		why = check_lists(a, paging);
	return why;
}

/* What entry @p names: its allocation's address, or the fence entry's zeros. */
static uint32_t check_source(const struct dma_patch_args *a, const struct dma_patch_loc *p)
{
	const struct dma_alloc_entry *al;

	if (p->driver_id == DMA_PATCH_FENCE_ID32)
		return p->alloc_index ? DMA_PATCH_WHY_INDEX :
		       p->alloc_offset ? DMA_PATCH_WHY_ALLOC_OFFSET : DMA_PATCH_WHY_NONE;
	if (p->alloc_index >= a->alloc_count)
		return DMA_PATCH_WHY_INDEX;
	al = &a->allocs[p->alloc_index];
	if (p->alloc_offset >= al->size)
		return DMA_PATCH_WHY_ALLOC_OFFSET;
	if (al->addr >= ADDR_LIMIT || al->addr + p->alloc_offset >= ADDR_LIMIT)
		return DMA_PATCH_WHY_ADDR;
	return DMA_PATCH_WHY_NONE;
}

/* Where entry @p writes: inside the submission, after its split point. */
static uint32_t check_place(const struct dma_patch_args *a, const struct dma_patch_loc *p)
{
	if (p->patch_offset & 3)
		return DMA_PATCH_WHY_ALIGN;
	if (p->patch_offset < a->dma_sub_start ||
	    (uint64_t)p->patch_offset + kind_bytes(p->driver_id) > a->dma_sub_end)
		return DMA_PATCH_WHY_RANGE;
	if (p->split_offset & 3 || p->split_offset < a->dma_sub_start ||
	    p->split_offset > p->patch_offset)
		return DMA_PATCH_WHY_SPLIT;
	return DMA_PATCH_WHY_NONE;
}

static uint32_t check_entry(const struct dma_patch_args *a, const struct dma_patch_loc *p)
{
	uint32_t why;

	if (p->slot_id & DMA_PATCH_SLOT_RESERVED)
		return DMA_PATCH_WHY_SLOT;
	if (p->driver_id >= DMA_PATCH_KIND_COUNT)
		return DMA_PATCH_WHY_KIND;
	why = check_source(a, p);
	return why != DMA_PATCH_WHY_NONE ? why : check_place(a, p);
}

/* ------------------------------------------------------------ writes */

static void put_le32(uint8_t *at, uint32_t v)
{
	at[0] = (uint8_t)v;
	at[1] = (uint8_t)(v >> 8);
	at[2] = (uint8_t)(v >> 16);
	at[3] = (uint8_t)(v >> 24);
}

/* Write checked entry @p; returns the bytes written. */
static uint32_t write_entry(const struct dma_patch_args *a, const struct dma_patch_loc *p)
{
	uint8_t *at = (uint8_t *)a->dma + p->patch_offset;
	uint64_t addr = 0;

	if (p->driver_id != DMA_PATCH_FENCE_ID32)
		addr = a->allocs[p->alloc_index].addr + p->alloc_offset;
	switch (p->driver_id) {
	case DMA_PATCH_ADDR64:
		put_le32(at, (uint32_t)addr);
		put_le32(at + 4, (uint32_t)(addr >> 32));
		break;
	case DMA_PATCH_ADDR_LO32:
		put_le32(at, (uint32_t)addr);
		break;
	case DMA_PATCH_ADDR_HI16:
		put_le32(at, (uint32_t)(addr >> 32));
		break;
	default: /* DMA_PATCH_FENCE_ID32 */
		put_le32(at, a->fence_id);
		break;
	}
	return kind_bytes(p->driver_id);
}

/* ------------------------------------------------------------ patcher */

static int refuse(struct dma_patch_stats *st, uint32_t why, uint32_t entry)
{
	if (st) {
		st->why = why;
		st->bad_entry = entry;
	}
	return why == DMA_PATCH_WHY_ADDR ? GM_ERR_ADDR : GM_ERR_BAD_ARG;
}

void dma_patch_args_init(struct dma_patch_args *a, void *dma, uint32_t dma_size, uint64_t dma_phys,
			 const struct dma_alloc_entry *allocs, uint32_t alloc_count,
			 const struct dma_patch_loc *locs, uint32_t loc_count)
{
	memset(a, 0, sizeof(*a));
	a->dma = dma;
	a->dma_size = dma_size;
	a->dma_phys = dma_phys;
	a->dma_sub_end = dma_size;
	a->allocs = allocs;
	a->alloc_count = alloc_count;
	a->locs = locs;
	a->loc_count = loc_count;
	a->loc_sub_len = loc_count;
}

int dma_patch(const struct dma_patch_args *a)
{
	struct dma_patch_stats *st;
	uint32_t why, end;

	if (!a)
		return GM_ERR_BAD_ARG;
	st = a->stats;
	if (st)
		*st = (struct dma_patch_stats){ .bad_entry = UINT32_MAX };
	why = check_args(a);
	if (why != DMA_PATCH_WHY_NONE)
		return refuse(st, why, UINT32_MAX);
	end = a->loc_sub_start + a->loc_sub_len; /* <= loc_count: no wrap */
	for (uint32_t i = a->loc_sub_start; i < end; i++) {
		why = check_entry(a, &a->locs[i]);
		if (why != DMA_PATCH_WHY_NONE)
			return refuse(st, why, i);
	}
	for (uint32_t i = a->loc_sub_start; i < end; i++) {
		uint32_t n = write_entry(a, &a->locs[i]);

		if (st) {
			st->entries++;
			st->bytes += n;
		}
	}
	return GM_OK;
}

const char *dma_patch_why_name(uint32_t why)
{
	static const char *const names[DMA_PATCH_WHY_COUNT] = {
		[DMA_PATCH_WHY_NONE] = "NONE",
		[DMA_PATCH_WHY_ARGS] = "ARGS",
		[DMA_PATCH_WHY_SLOT] = "SLOT",
		[DMA_PATCH_WHY_KIND] = "KIND",
		[DMA_PATCH_WHY_INDEX] = "INDEX",
		[DMA_PATCH_WHY_ALLOC_OFFSET] = "ALLOC_OFFSET",
		[DMA_PATCH_WHY_ADDR] = "ADDR",
		[DMA_PATCH_WHY_ALIGN] = "ALIGN",
		[DMA_PATCH_WHY_RANGE] = "RANGE",
		[DMA_PATCH_WHY_SPLIT] = "SPLIT",
	};

	return why < DMA_PATCH_WHY_COUNT ? names[why] : "?";
}
