/* SPDX-License-Identifier: MIT */
/*
 * fw_mem.c - segment range allocator: first-fit over the gaps between the
 * live ranges, kept as one array sorted by offset (see fw_mem.h).
 */
#include <stdlib.h>
#include <string.h>

#include "fw_mem.h"
#include "gpu_hw.h"

#define PA_LIMIT (1ull << GPU_PA_BITS) /* first address past the physical address space */
#define LIVE_MIN_CAP 16u               /* entries of the first live-range array */

void *fw_host_realloc_array(const struct fw_host_mem *h, void *ptr, size_t n, size_t elem)
{
	size_t bytes;

	if (elem != 0 && n > SIZE_MAX / elem)
		return NULL;
	bytes = n * elem;
	if (bytes == 0)
		bytes = 1; /* realloc(p, 0) is implementation-defined */
	if (h && h->realloc_fn)
		return h->realloc_fn(h->ctx, ptr, bytes);
	return realloc(ptr, bytes);
}

void fw_host_free(const struct fw_host_mem *h, void *ptr)
{
	if (!ptr)
		return;
	if (h && h->free_fn)
		h->free_fn(h->ctx, ptr);
	else
		free(ptr);
}

static bool is_pow2(uint64_t v)
{
	return v != 0 && (v & (v - 1)) == 0;
}

static uint64_t align_up(uint64_t v, uint64_t align)
{
	return (v + align - 1) & ~(align - 1);
}

/* [base, base + size) lies inside [lo, hi); written as a function so a
 * window starting at 0 does not trip -Wtype-limits. */
static bool in_window(uint64_t base, uint64_t size, uint64_t lo, uint64_t hi)
{
	return base >= lo && base < hi && size <= hi - base;
}

static bool desc_ok(const struct fw_seg_desc *d)
{
	if (d->id == FW_SEG_NONE || d->size == 0 || (d->base & (FW_MEM_ALIGN_MAX - 1)))
		return false;
	switch (d->kind) {
	case FW_SEG_VRAM:
		return in_window(d->base, d->size, GPU_VRAM_BASE, GPU_SYSMEM_BASE);
	case FW_SEG_SYSTEM:
		return in_window(d->base, d->size, GPU_SYSMEM_BASE, PA_LIMIT);
	default:
		return false;
	}
}

int fw_seg_init(struct fw_seg *s, const struct fw_seg_desc *desc, const struct fw_host_mem *host)
{
	if (!s || !desc || !desc_ok(desc))
		return GM_ERR_BAD_ARG;
	if (host && !host->realloc_fn != !host->free_fn)
		return GM_ERR_BAD_ARG;
	memset(s, 0, sizeof(*s));
	s->d = *desc;
	if (host)
		s->host = *host;
	return GM_OK;
}

void fw_seg_fini(struct fw_seg *s)
{
	if (!s)
		return;
	fw_host_free(&s->host, s->live);
	s->live = NULL;
	s->nlive = s->cap = 0;
	s->used = 0;
}

/* End offset of live range @i, or 0 before the first (i == 0 means "none"). */
static uint64_t end_before(const struct fw_seg *s, size_t i)
{
	return i ? s->live[i - 1].off + s->live[i - 1].size : 0;
}

/* Start offset of the gap's far side: live range @i, or the segment end. */
static uint64_t start_at(const struct fw_seg *s, size_t i)
{
	return i < s->nlive ? s->live[i].off : s->d.size;
}

/*
 * First fit: the lowest gap that holds @bytes at @align.  Gap i lies
 * between live range i-1 and live range i; *at is where the new entry goes.
 */
static bool find_gap(const struct fw_seg *s, uint64_t bytes, uint64_t align, size_t *at, uint64_t *off)
{
	size_t i;

	for (i = 0; i <= s->nlive; i++) {
		uint64_t a = align_up(end_before(s, i), align); /* offsets < 2^48: no wrap */
		uint64_t end = start_at(s, i);

		if (a <= end && end - a >= bytes) {
			*at = i;
			*off = a;
			return true;
		}
	}
	return false;
}

/* Make room for one more live entry; GM_ERR_NO_MEM leaves the array as it was. */
static int live_reserve(struct fw_seg *s)
{
	struct fw_mem_range *p;
	size_t cap;

	if (s->nlive < s->cap)
		return GM_OK;
	cap = s->cap ? 2 * s->cap : LIVE_MIN_CAP;
	p = fw_host_realloc_array(&s->host, s->live, cap, sizeof(*p));
	if (!p)
		return GM_ERR_NO_MEM;
	s->live = p;
	s->cap = cap;
	return GM_OK;
}

/* Book [@off, @off + @bytes) as live range @at (the ranges stay in offset
 * order).  GM_OK; GM_ERR_NO_MEM (nothing changed). */
static int live_insert(struct fw_seg *s, size_t at, uint64_t off, uint64_t bytes)
{
	if (live_reserve(s))
		return GM_ERR_NO_MEM;
	memmove(&s->live[at + 1], &s->live[at], (s->nlive - at) * sizeof(s->live[0]));
	s->live[at].off = off;
	s->live[at].size = bytes;
	s->nlive++;
	s->used += bytes;
	return GM_OK;
}

int fw_seg_alloc(struct fw_seg *s, uint64_t bytes, uint64_t align, uint64_t *addr)
{
	size_t at;
	uint64_t off;

	if (!s || !addr || bytes == 0 || bytes > s->d.size)
		return GM_ERR_BAD_ARG;
	if (!is_pow2(align) || align > FW_MEM_ALIGN_MAX)
		return GM_ERR_BAD_ARG;
	if (!find_gap(s, bytes, align, &at, &off))
		return GM_ERR_FULL;
	if (live_insert(s, at, off, bytes))
		return GM_ERR_NO_MEM;
	*addr = s->d.base + off;
	return GM_OK;
}

int fw_seg_alloc_at(struct fw_seg *s, uint64_t addr, uint64_t bytes)
{
	size_t at = 0;
	uint64_t off;

	if (!s || bytes == 0 || addr < s->d.base || bytes > s->d.size ||
	    addr - s->d.base > s->d.size - bytes)
		return GM_ERR_BAD_ARG;
	off = addr - s->d.base;
	while (at < s->nlive && s->live[at].off < off)
		at++;
	if ((at > 0 && s->live[at - 1].off + s->live[at - 1].size > off) ||
	    (at < s->nlive && s->live[at].off < off + bytes))
		return GM_ERR_FULL;
	return live_insert(s, at, off, bytes);
}

/* Binary search for the live range starting exactly at @off. */
static bool find_live(const struct fw_seg *s, uint64_t off, size_t *at)
{
	size_t lo = 0, hi = s->nlive;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s->live[mid].off == off) {
			*at = mid;
			return true;
		}
		if (s->live[mid].off < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

int fw_seg_free(struct fw_seg *s, uint64_t addr)
{
	size_t at;

	if (!s || addr < s->d.base || addr - s->d.base >= s->d.size)
		return GM_ERR_BAD_ARG;
	if (!find_live(s, addr - s->d.base, &at))
		return GM_ERR_BAD_ARG;
	s->used -= s->live[at].size;
	s->nlive--;
	memmove(&s->live[at], &s->live[at + 1], (s->nlive - at) * sizeof(s->live[0]));
	return GM_OK;
}

int fw_seg_get_stats(const struct fw_seg *s, struct fw_seg_stats *st)
{
	size_t i;

	if (!s || !st)
		return GM_ERR_BAD_ARG;
	memset(st, 0, sizeof(*st));
	st->used = s->used;
	st->free = s->d.size - s->used;
	st->nranges = s->nlive;
	for (i = 0; i <= s->nlive; i++) {
		uint64_t gap = start_at(s, i) - end_before(s, i);

		if (gap == 0)
			continue;
		st->nholes++;
		if (gap > st->largest_free)
			st->largest_free = gap;
	}
	return GM_OK;
}

bool fw_seg_consistent(const struct fw_seg *s)
{
	uint64_t sum = 0;
	size_t i;

	if (!s || s->nlive > s->cap || (s->nlive && !s->live))
		return false;
	for (i = 0; i < s->nlive; i++) {
		const struct fw_mem_range *r = &s->live[i];

		if (r->size == 0 || r->off < end_before(s, i))
			return false;
		if (r->off > s->d.size || r->size > s->d.size - r->off)
			return false;
		sum += r->size;
	}
	return sum == s->used && s->used <= s->d.size;
}
