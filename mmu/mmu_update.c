// SPDX-License-Identifier: MIT
/*
 * mmu_update.c - GPU-VA update operations over a host shadow of the page
 * tables, and the PTE_WRITE runs that repeat them on the GPU.
 *
 * The builder (mmu_pt.c) does the work, through a recording layer between
 * it and the shadow: before the first write to a table in the batch the
 * layer keeps a copy of it, and it notes the tables the allocator hands
 * out.  After the batch each noted table is compared with its copy (a new
 * table is written whole); on an error every copy is written back.
 */
#include <stdlib.h>
#include <string.h>

#include "mmu_update.h"

#define ADDR_BITS GPU_PTE_ADDR(GPU_PTE_ADDR_MASK)   /* PTE.ADDR (PDE.ADDR is the same) */
#define RUN_MAX GPU_PKT_PTE_WRITE_ENTRIES_MASK       /* entries one PTE_WRITE writes */

/* ---- rules ------------------------------------------------------------- */

/* The smallest VA range holding every range added; empty while hi == 0. */
struct hull {
	uint64_t lo, hi;
};

static void hull_add(struct hull *h, uint64_t va, uint64_t size)
{
	if (!h->hi || va < h->lo)
		h->lo = va;
	if (va + size > h->hi)
		h->hi = va + size;
}

/* Empty, or inside one reservation: the reservations are disjoint
 * intervals, so ranges lie in one and the same exactly when their hull does. */
static bool hull_in_one(const struct mmu_va_space *vs, const struct hull *h)
{
	return !h->hi || mmu_va_contains(vs, h->lo, h->hi - h->lo);
}

/* size > 0, @va and @size multiples of @align, the range below 2^48. */
static bool range_ok(uint64_t va, uint64_t size, uint64_t align)
{
	return size && !((va | size) & (align - 1)) && va < MMU_VA_LIMIT &&
	       size <= MMU_VA_LIMIT - va;
}

static bool map_ok(const struct mmu_update_op *op)
{
	uint64_t align = (op->map.flags & MMU_MAP_FRAG64K) ? MMU_FRAG_SIZE : MMU_PAGE_SIZE;
	uint64_t size = op->map.size_in_bytes, off = op->map.allocation_offset;
	struct mmu_pte f = { .sys = op->map.flags & MMU_MAP_SYS };
	uint64_t pte;

	if ((op->map.flags & ~MMU_MAP_ALL) || !range_ok(op->map.base_address, size, align) ||
	    ((op->map.alloc_pa | off) & (align - 1)) || off > op->map.allocation_size ||
	    size > op->map.allocation_size - off || op->map.alloc_pa > UINT64_MAX - off)
		return false;
	/* the first and the last page lie in the memory flags selects */
	f.pa = op->map.alloc_pa + off;
	if (mmu_pte_encode(&f, &pte) != GM_OK)
		return false;
	f.pa += size - MMU_PAGE_SIZE;
	return mmu_pte_encode(&f, &pte) == GM_OK;
}

/* One operation's own rules; its ranges join the hulls. */
static int check_op(const struct mmu_update_op *op, struct hull *dst, struct hull *src)
{
	switch (op->operation_type) {
	case MMU_UPDATE_MAP:
		if (!map_ok(op))
			return GM_ERR_BAD_ARG;
		hull_add(dst, op->map.base_address, op->map.size_in_bytes);
		return GM_OK;
	case MMU_UPDATE_UNMAP:
		if ((op->unmap.protection != MMU_UNMAP_ZERO &&
		     op->unmap.protection != MMU_UNMAP_NOACCESS) ||
		    !range_ok(op->unmap.base_address, op->unmap.size_in_bytes, MMU_PAGE_SIZE))
			return GM_ERR_BAD_ARG;
		hull_add(dst, op->unmap.base_address, op->unmap.size_in_bytes);
		return GM_OK;
	case MMU_UPDATE_COPY:
		if (!range_ok(op->copy.source_address, op->copy.size_in_bytes, MMU_PAGE_SIZE) ||
		    !range_ok(op->copy.dest_address, op->copy.size_in_bytes, MMU_PAGE_SIZE))
			return GM_ERR_BAD_ARG;
		hull_add(dst, op->copy.dest_address, op->copy.size_in_bytes);
		hull_add(src, op->copy.source_address, op->copy.size_in_bytes);
		return GM_OK;
	case MMU_UPDATE_MAP_PROTECT:
		return GM_ERR_UNSUPPORTED;
	default:
		return GM_ERR_BAD_ARG;
	}
}

/* Every rule of the batch; *dst gets the hull of what it writes. */
static int check_batch(const struct mmu_va_space *vs, const struct mmu_update_op *ops, size_t n,
		       struct hull *dst)
{
	struct hull src = { 0, 0 };
	size_t i;
	int st;

	if (!vs || !ops || !n)
		return GM_ERR_BAD_ARG;
	*dst = src;
	for (i = 0; i < n; i++) {
		st = check_op(&ops[i], dst, &src);
		if (st != GM_OK)
			return st;
	}
	return hull_in_one(vs, dst) && hull_in_one(vs, &src) ? GM_OK : GM_ERR_BAD_ARG;
}

int mmu_update_check(const struct mmu_va_space *vs, const struct mmu_update_op *ops, size_t n)
{
	struct hull dst;

	return check_batch(vs, ops, n, &dst);
}

/*
 * @arr, of *@cap elements of @size bytes with @n in use, with room for one
 * more: @arr itself, or a larger copy (*@cap updated); NULL when it cannot
 * grow, and then @arr and *@cap are as they were.
 */
static void *grow(void *arr, size_t *cap, size_t n, size_t size)
{
	size_t c = *cap ? 2 * *cap : 16;

	if (n < *cap)
		return arr;
	arr = c <= SIZE_MAX / size ? realloc(arr, c * size) : NULL;
	if (arr)
		*cap = c;
	return arr;
}

/* ---- the recording layer ------------------------------------------------ */

/* A table the batch wrote or took from the allocator. */
struct rec_table {
	uint64_t pa;
	uint8_t *before;   /* its bytes before the batch's first write; NULL when fresh */
	bool fresh;        /* taken from the allocator in this batch */
};

struct rec {
	const struct mmu_mem_ops *ops;   /* the shadow */
	void *ctx;
	struct rec_table *t;             /* sorted by pa */
	size_t n, cap;
	unsigned int fresh;              /* tables taken from the allocator */
};

/* Index of the first noted table whose pa is >= @pa (n if none). */
static size_t rec_find(const struct rec *r, uint64_t pa)
{
	size_t lo = 0, hi = r->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (r->t[mid].pa < pa)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Note the table at @pa (once): keep a copy of it unless it is @fresh. */
static int rec_note(struct rec *r, uint64_t pa, bool fresh)
{
	size_t i = rec_find(r, pa);
	struct rec_table *t;
	uint8_t *before = NULL;
	int st;

	if (i < r->n && r->t[i].pa == pa)
		return GM_OK;
	t = grow(r->t, &r->cap, r->n, sizeof(*t));
	if (!t)
		return GM_ERR_NO_MEM;
	r->t = t;
	if (!fresh) {
		before = malloc(MMU_TABLE_BYTES);
		if (!before)
			return GM_ERR_NO_MEM;
		st = r->ops->read(r->ctx, pa, before, MMU_TABLE_BYTES);
		if (st != GM_OK) {
			free(before);
			return st;
		}
	}
	memmove(&r->t[i + 1], &r->t[i], (r->n - i) * sizeof(*r->t));
	r->t[i] = (struct rec_table){ .pa = pa, .before = before, .fresh = fresh };
	r->n++;
	return GM_OK;
}

static int rec_read(void *ctx, uint64_t pa, void *buf, size_t len)
{
	const struct rec *r = ctx;

	return r->ops->read(r->ctx, pa, buf, len);
}

/* Whole entries of one table: what the builder writes, and what a run
 * can repeat. */
static int rec_write(void *ctx, uint64_t pa, const void *buf, size_t len)
{
	struct rec *r = ctx;
	uint64_t table = pa & ~(uint64_t)(MMU_TABLE_BYTES - 1);
	int st;

	if (!len || ((pa | len) & (MMU_ENTRY_BYTES - 1)) || len > MMU_TABLE_BYTES - (pa - table))
		return GM_ERR_BAD_ARG;
	st = rec_note(r, table, false);
	if (st != GM_OK)
		return st;
	return r->ops->write(r->ctx, pa, buf, len);
}

static int rec_alloc(void *ctx, uint64_t *pa)
{
	struct rec *r = ctx;
	uint64_t t;
	int st;

	st = r->ops->alloc_table(r->ctx, &t);
	if (st != GM_OK)
		return st;
	st = rec_note(r, t, true);
	if (st != GM_OK)
		return st;
	r->fresh++;
	*pa = t;
	return GM_OK;
}

static const struct mmu_mem_ops rec_ops = { rec_read, rec_write, rec_alloc };

/* Put every table back as it was before the batch.  A fresh table needs
 * nothing: no restored PDE points at it. */
static void rec_restore(const struct rec *r)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		if (!r->t[i].fresh)
			(void)r->ops->write(r->ctx, r->t[i].pa, r->t[i].before, MMU_TABLE_BYTES);
}

static void rec_free(struct rec *r)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		free(r->t[i].before);
	free(r->t);
}

/* ---- COPY ---------------------------------------------------------------- */

/* The @pages leaf entries from @va on; 0 (no access) where no leaf table is. */
static int read_ptes(const struct mmu_pt *pt, uint64_t va, uint64_t pages, uint64_t *pte)
{
	uint8_t b[MMU_TABLE_BYTES];
	uint64_t n, i, epa;
	int st;

	while (pages) {
		n = MMU_PT_ENTRIES - mmu_pt_index(va, MMU_LEAF_LEVEL);
		if (n > pages)
			n = pages;
		st = mmu_pt_lookup(pt, va, MMU_LEAF_LEVEL, &epa);
		if (st == GM_OK && epa != MMU_NO_ENTRY)
			st = pt->ops->read(pt->ctx, epa, b, n * MMU_ENTRY_BYTES);
		else if (st == GM_OK)
			memset(b, 0, n * MMU_ENTRY_BYTES);
		if (st != GM_OK)
			return st;
		for (i = 0; i < n; i++)
			pte[i] = mmu_entry_get(&b[i * MMU_ENTRY_BYTES]);
		pte += n;
		pages -= n;
		va += n << GPU_PAGE_SHIFT;
	}
	return GM_OK;
}

/* True when the 16 entries at @pte are one 64 KiB fragment. */
static bool is_fragment(const uint64_t *pte)
{
	uint64_t flags = pte[0] & ~ADDR_BITS, frame = GPU_PTE_ADDR_GET(pte[0]);
	unsigned int i;

	if (!GPU_PTE_V_GET(pte[0]) || !GPU_PTE_FRAG64K_GET(pte[0]) || (flags & GPU_PTE_RESERVED) ||
	    frame % MMU_FRAG_PAGES)
		return false;
	for (i = 1; i < MMU_FRAG_PAGES; i++)
		if ((pte[i] & ~ADDR_BITS) != flags || GPU_PTE_ADDR_GET(pte[i]) != frame + i)
			return false;
	return true;
}

/* The builder call that writes copied entries. */
enum seg_kind { SEG_MAP, SEG_ZERO, SEG_NOACCESS, SEG_RAW };

/* Consecutive destination pages one builder call writes. */
struct seg {
	enum seg_kind kind;
	unsigned int flags;   /* SEG_MAP: enum mmu_map_flags */
	uint64_t pa;          /* SEG_MAP: PA of the first page; SEG_RAW: the entry */
	uint64_t pages;
};

/* What source entry @pte becomes; @frag: its block stays a fragment. */
static struct seg classify(uint64_t pte, bool frag)
{
	struct seg s = { .pages = 1 };
	struct mmu_pte f;

	mmu_pte_decode(pte, &f);
	if (pte & GPU_PTE_RESERVED) {
		s.kind = SEG_RAW;
		s.pa = pte & ~GPU_PTE_FRAG64K(1);
	} else if (!f.v) {
		s.kind = f.prt ? SEG_ZERO : SEG_NOACCESS;
	} else {
		s.kind = SEG_MAP;
		s.pa = f.pa;
		s.flags = (f.r ? MMU_MAP_R : 0) | (f.w ? MMU_MAP_W : 0) | (f.sys ? MMU_MAP_SYS : 0) |
			  (frag ? MMU_MAP_FRAG64K : 0);
	}
	return s;
}

/* True when page @t continues segment @s. */
static bool seg_extends(const struct seg *s, const struct seg *t)
{
	return s->kind == t->kind && s->kind != SEG_RAW && s->flags == t->flags &&
	       (s->kind != SEG_MAP || t->pa == s->pa + (s->pages << GPU_PAGE_SHIFT));
}

static int seg_write(struct mmu_pt *pt, uint64_t va, const struct seg *s)
{
	uint64_t size = s->pages << GPU_PAGE_SHIFT;
	int st;

	switch (s->kind) {
	case SEG_MAP:
		return mmu_pt_map(pt, va, size, s->pa, s->flags);
	case SEG_ZERO:
		return mmu_pt_unmap(pt, va, size, MMU_UNMAP_ZERO);
	case SEG_NOACCESS:
		return mmu_pt_unmap(pt, va, size, MMU_UNMAP_NOACCESS);
	default:
		/* one page: unmapping it first builds its tables and breaks its fragment */
		st = mmu_pt_unmap(pt, va, MMU_PAGE_SIZE, MMU_UNMAP_ZERO);
		return st != GM_OK ? st : mmu_pt_set_pte(pt, va, s->pa);
	}
}

/* Write the @pages source entries @pte at @dst, @src being where they came from. */
static int write_copy(struct mmu_pt *pt, uint64_t dst, uint64_t src, uint64_t pages,
		      const uint64_t *pte)
{
	bool aligned = !((dst ^ src) & (MMU_FRAG_SIZE - 1)), frag = false;
	struct seg s = { .pages = 0 }, t;
	uint64_t i, va = dst;
	int st;

	for (i = 0; i < pages; i++) {
		if (!((dst + (i << GPU_PAGE_SHIFT)) & (MMU_FRAG_SIZE - 1)))
			frag = aligned && pages - i >= MMU_FRAG_PAGES && is_fragment(&pte[i]);
		t = classify(pte[i], frag);
		if (s.pages && seg_extends(&s, &t)) {
			s.pages++;
			continue;
		}
		if (s.pages) {
			st = seg_write(pt, va, &s);
			if (st != GM_OK)
				return st;
			va += s.pages << GPU_PAGE_SHIFT;
		}
		s = t;
	}
	return seg_write(pt, va, &s);
}

static int apply_copy(struct mmu_pt *pt, uint64_t src, uint64_t dst, uint64_t size)
{
	uint64_t pages = size >> GPU_PAGE_SHIFT;
	uint64_t *pte;
	int st;

	if (pages > SIZE_MAX / sizeof(*pte))
		return GM_ERR_NO_MEM;
	pte = malloc((size_t)pages * sizeof(*pte));
	if (!pte)
		return GM_ERR_NO_MEM;
	/* every source entry is read before any destination entry is written */
	st = read_ptes(pt, src, pages, pte);
	if (st == GM_OK)
		st = write_copy(pt, dst, src, pages, pte);
	free(pte);
	return st;
}

static int apply_op(struct mmu_pt *pt, const struct mmu_update_op *op)
{
	switch (op->operation_type) {
	case MMU_UPDATE_MAP:
		return mmu_pt_map(pt, op->map.base_address, op->map.size_in_bytes,
				  op->map.alloc_pa + op->map.allocation_offset, op->map.flags);
	case MMU_UPDATE_UNMAP:
		return mmu_pt_unmap(pt, op->unmap.base_address, op->unmap.size_in_bytes,
				    op->unmap.protection);
	default:
		return apply_copy(pt, op->copy.source_address, op->copy.dest_address,
				  op->copy.size_in_bytes);
	}
}

/* ---- runs ---------------------------------------------------------------- */

struct runs {
	struct mmu_update_run *r;
	size_t n, cap;
	uint64_t entries;
};

/* True when entry @e at @dst continues run @last. */
static bool run_extends(const struct mmu_update_run *last, uint64_t dst, uint64_t e)
{
	uint64_t base = e & ADDR_BITS;
	uint64_t step = last->num == 1 ? base - last->base : last->stride;

	return last->num < RUN_MAX && dst == last->dst + (uint64_t)last->num * MMU_ENTRY_BYTES &&
	       (e & ~ADDR_BITS) == last->flags && (step == 0 || step == MMU_PAGE_SIZE) &&
	       base == last->base + step * last->num;
}

/* Add entry @e at @dst; @join: it may continue the last run. */
static int runs_add(struct runs *rs, uint64_t dst, uint64_t e, bool join)
{
	struct mmu_update_run *last = rs->n ? &rs->r[rs->n - 1] : NULL, *r;

	rs->entries++;
	if (join && last && run_extends(last, dst, e)) {
		if (last->num == 1)
			last->stride = (uint32_t)((e & ADDR_BITS) - last->base);
		last->num++;
		return GM_OK;
	}
	r = grow(rs->r, &rs->cap, rs->n, sizeof(*r));
	if (!r)
		return GM_ERR_NO_MEM;
	rs->r = r;
	rs->r[rs->n++] = (struct mmu_update_run){ .dst = dst, .flags = e & ~ADDR_BITS,
						  .base = e & ADDR_BITS, .num = 1 };
	return GM_OK;
}

/* The runs of the noted tables: fresh ones whole, then the changed entries
 * of the others. */
static int collect(const struct rec *r, struct runs *rs)
{
	uint8_t b[MMU_TABLE_BYTES];
	unsigned int pass, e;
	uint64_t v;
	bool join;
	size_t i;
	int st;

	for (pass = 0; pass < 2; pass++) {
		join = false;   /* a run does not cross from one class to the other */
		for (i = 0; i < r->n; i++) {
			if (r->t[i].fresh != (pass == 0))
				continue;
			st = r->ops->read(r->ctx, r->t[i].pa, b, sizeof(b));
			if (st != GM_OK)
				return st;
			for (e = 0; e < MMU_PT_ENTRIES; e++) {
				v = mmu_entry_get(&b[e * MMU_ENTRY_BYTES]);
				if (!r->t[i].fresh &&
				    v == mmu_entry_get(&r->t[i].before[e * MMU_ENTRY_BYTES]))
					continue;
				st = runs_add(rs, r->t[i].pa + e * MMU_ENTRY_BYTES, v, join);
				if (st != GM_OK)
					return st;
				join = true;
			}
		}
	}
	return GM_OK;
}

/* ---- public API ---------------------------------------------------------- */

int mmu_update_apply(struct mmu_pt *pt, const struct mmu_va_space *vs,
		     const struct mmu_update_op *ops, size_t n, struct mmu_update_result *res)
{
	struct rec r = { 0 };
	struct runs rs = { 0 };
	struct mmu_pt view;
	struct hull dst;
	size_t i;
	int st;

	if (!pt || !pt->ops || !pt->ops->read || !pt->ops->write || !pt->ops->alloc_table || !res)
		return GM_ERR_BAD_ARG;
	st = check_batch(vs, ops, n, &dst);
	if (st != GM_OK)
		return st;
	r.ops = pt->ops;
	r.ctx = pt->ctx;
	view = (struct mmu_pt){ .ops = &rec_ops, .ctx = &r, .root_pa = pt->root_pa };
	for (i = 0; i < n && st == GM_OK; i++)
		st = apply_op(&view, &ops[i]);
	if (st == GM_OK)
		st = collect(&r, &rs);
	if (st != GM_OK)
		goto err_restore;
	*res = (struct mmu_update_result){
		.runs = rs.r,
		.nruns = rs.n,
		.nentries = rs.entries,
		.tables = r.fresh,
		.inval = rs.entries != 0,
		.inval_start = (uint32_t)(dst.lo >> GPU_FRAG_SHIFT),
		.inval_end = (uint32_t)((dst.hi - 1) >> GPU_FRAG_SHIFT),
	};
	rec_free(&r);
	return GM_OK;

err_restore:
	rec_restore(&r);
	free(rs.r);
	rec_free(&r);
	return st;
}

void mmu_update_result_fini(struct mmu_update_result *res)
{
	if (!res)
		return;
	free(res->runs);
	memset(res, 0, sizeof(*res));
}

int mmu_update_emit(const struct mmu_update_result *res, struct dma_buf *b)
{
	const struct mmu_update_run *r;
	size_t len, i;
	int st = GM_OK;

	if (!res || !b || !b->dw || (res->nruns && !res->runs))
		return GM_ERR_BAD_ARG;
	if (res->nruns > dma_buf_room(b) / MMU_UPDATE_RUN_DWORDS)
		return GM_ERR_FULL;
	len = b->len;
	for (i = 0; i < res->nruns && st == GM_OK; i++) {
		r = &res->runs[i];
		st = dma_emit_pte_write(b, r->dst, r->flags, r->base, r->stride, r->num);
	}
	if (st != GM_OK)
		b->len = len;   /* drop the packets of the runs before the bad one */
	return st;
}
