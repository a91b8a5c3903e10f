// SPDX-License-Identifier: MIT
/*
 * mmu_va.c - GPU-VA reservation over a sorted array of ranges.
 */
#include <stdlib.h>
#include <string.h>

#include "mmu_pt.h"
#include "mmu_va.h"

#define VA_MIN_CAP 16u   /* ranges in a fresh array */

static bool aligned(uint64_t v)
{
	return !(v & (MMU_VA_ALIGN - 1));
}

static uint64_t range_end(const struct mmu_va_range *r)
{
	return r->base + r->size;
}

/* size > 0, aligned, [base, base + size) inside the space. */
static bool range_ok(const struct mmu_va_space *vs, uint64_t base, uint64_t size)
{
	return size && aligned(base) && aligned(size) && base >= vs->min && base < vs->max &&
	       size <= vs->max - base;
}

/* Index of the first reservation whose base is >= @va (n if none). */
static size_t lower_bound(const struct mmu_va_space *vs, uint64_t va)
{
	size_t lo = 0, hi = vs->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (vs->r[mid].base < va)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Room for one more range; on failure nothing changed. */
static int grow(struct mmu_va_space *vs)
{
	size_t cap = vs->cap ? vs->cap * 2 : VA_MIN_CAP;
	struct mmu_va_range *r;

	if (vs->n < vs->cap)
		return GM_OK;
	if (cap > SIZE_MAX / sizeof(*r))
		return GM_ERR_NO_MEM;
	r = realloc(vs->r, cap * sizeof(*r));
	if (!r)
		return GM_ERR_NO_MEM;
	vs->r = r;
	vs->cap = cap;
	return GM_OK;
}

/* Insert [base, base + size) at index @i (which keeps the order). */
static int insert_at(struct mmu_va_space *vs, size_t i, uint64_t base, uint64_t size)
{
	int st = grow(vs);

	if (st != GM_OK)
		return st;
	memmove(&vs->r[i + 1], &vs->r[i], (vs->n - i) * sizeof(*vs->r));
	vs->r[i].base = base;
	vs->r[i].size = size;
	vs->n++;
	return GM_OK;
}

int mmu_va_init(struct mmu_va_space *vs, uint64_t min, uint64_t max)
{
	if (!vs || !aligned(min) || !aligned(max) || min >= max || max > MMU_VA_LIMIT)
		return GM_ERR_BAD_ARG;
	memset(vs, 0, sizeof(*vs));
	vs->min = min;
	vs->max = max;
	return GM_OK;
}

void mmu_va_fini(struct mmu_va_space *vs)
{
	if (!vs)
		return;
	free(vs->r);
	vs->r = NULL;
	vs->n = 0;
	vs->cap = 0;
}

int mmu_va_reserve(struct mmu_va_space *vs, uint64_t base, uint64_t size)
{
	size_t i;

	if (!vs || !range_ok(vs, base, size))
		return GM_ERR_BAD_ARG;
	i = lower_bound(vs, base);
	if ((i < vs->n && vs->r[i].base < base + size) ||
	    (i > 0 && range_end(&vs->r[i - 1]) > base))
		return GM_ERR_BUSY;
	return insert_at(vs, i, base, size);
}

int mmu_va_reserve_in(struct mmu_va_space *vs, uint64_t lo, uint64_t hi, uint64_t size,
		      uint64_t *base)
{
	uint64_t start = lo, hole_end;
	size_t i;
	int st;

	if (!vs || !base || !size || !aligned(size) || lo >= hi || !range_ok(vs, lo, hi - lo))
		return GM_ERR_BAD_ARG;
	i = lower_bound(vs, lo);
	if (i > 0 && range_end(&vs->r[i - 1]) > start)
		start = range_end(&vs->r[i - 1]);
	for (; start < hi; start = range_end(&vs->r[i++])) {
		hole_end = i < vs->n && vs->r[i].base < hi ? vs->r[i].base : hi;
		if (hole_end - start >= size)
			break;
		if (i == vs->n)
			return GM_ERR_NO_MEM;
	}
	if (start >= hi)
		return GM_ERR_NO_MEM;
	st = insert_at(vs, i, start, size);
	if (st == GM_OK)
		*base = start;
	return st;
}

int mmu_va_release(struct mmu_va_space *vs, uint64_t base)
{
	size_t i;

	if (!vs)
		return GM_ERR_BAD_ARG;
	i = lower_bound(vs, base);
	if (i == vs->n || vs->r[i].base != base)
		return GM_ERR_BAD_ARG;
	memmove(&vs->r[i], &vs->r[i + 1], (vs->n - i - 1) * sizeof(*vs->r));
	vs->n--;
	return GM_OK;
}

bool mmu_va_contains(const struct mmu_va_space *vs, uint64_t va, uint64_t size)
{
	size_t i;

	if (!vs || !size || va > UINT64_MAX - size)
		return false;
	i = lower_bound(vs, va + 1);   /* the last range with base <= va is i - 1 */
	return i > 0 && va + size <= range_end(&vs->r[i - 1]);
}
