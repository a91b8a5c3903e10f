/* SPDX-License-Identifier: MIT */
/*
 * fw_residency.c - the residency books: place, evict, and the choice of
 * victims (see fw_residency.h).
 */
#include "fw_residency.h"

static bool alloc_of(const struct fw_adapter *ad, const struct fw_alloc *a)
{
	return ad && a && a->kres && a->kres->ad == ad;
}

int fw_res_place(struct fw_adapter *ad, struct fw_alloc *a, unsigned seg_id, struct fw_loc *prev)
{
	struct fw_seg *seg;
	struct fw_loc old;
	uint64_t addr;
	int st;

	if (!alloc_of(ad, a))
		return GM_ERR_BAD_ARG;
	seg = fw_adapter_seg(ad, seg_id);
	if (!seg || (a->resident && a->loc.seg_id == seg_id) || (a->d.cpu_visible && !seg->d.cpu_visible))
		return GM_ERR_BAD_ARG;
	if (a->d.size > seg->d.size)
		return GM_ERR_BAD_ARG;
	if (a->resident && a->pinned)
		return GM_ERR_BUSY;
	st = fw_seg_alloc(seg, a->d.size, a->align, &addr);
	if (st)
		return st;
	old = a->loc;
	if (a->resident)
		fw_res_range_free(ad, a);
	a->loc.seg_id = seg_id;
	a->loc.addr = addr;
	a->resident = true;
	if (prev)
		*prev = old;
	return GM_OK;
}

int fw_res_evict(struct fw_adapter *ad, struct fw_alloc *a, struct fw_loc *prev)
{
	if (!alloc_of(ad, a) || !a->resident)
		return GM_ERR_BAD_ARG;
	if (a->pinned)
		return GM_ERR_BUSY;
	fw_res_range_free(ad, a);
	if (prev)
		*prev = a->loc;
	a->loc.seg_id = FW_SEG_NONE;
	a->loc.addr = 0;
	a->resident = false;
	return GM_OK;
}

/* -------------------------------------------------------------- victims */

struct victim_query {
	unsigned seg_id;
	struct fw_alloc *const *exclude;
	size_t nexclude;
};

static bool evictable(const struct victim_query *q, const struct fw_alloc *a)
{
	size_t i;

	if (!a->resident || a->loc.seg_id != q->seg_id || a->pinned)
		return false;
	for (i = 0; i < q->nexclude; i++)
		if (q->exclude[i] == a)
			return false;
	return true;
}

/* LRU order: older stamp first, then older allocation; serials are unique. */
static bool lru_before(const struct fw_alloc *a, const struct fw_alloc *b)
{
	return a->last_use < b->last_use || (a->last_use == b->last_use && a->serial < b->serial);
}

/* The least recently used evictable allocation after @after (NULL: the first). */
static struct fw_alloc *lru_next(const struct fw_adapter *ad, const struct victim_query *q,
				 const struct fw_alloc *after)
{
	struct fw_alloc *best = NULL;
	const struct fw_kres *k;
	size_t i;

	for (k = ad->kres; k; k = k->next)
		for (i = 0; i < k->nalloc + k->ninst; i++) {
			struct fw_alloc *a = fw_kres_alloc_at(k, i);

			if (!evictable(q, a) || (after && !lru_before(after, a)))
				continue;
			if (!best || lru_before(a, best))
				best = a;
		}
	return best;
}

/*
 * Walk the LRU order until @need bytes are covered; write the victims to
 * @out when it is not NULL.  Returns how many, or 0 when all together are
 * not enough.
 */
static size_t lru_walk(const struct fw_adapter *ad, const struct victim_query *q, uint64_t need,
		       struct fw_alloc **out)
{
	const struct fw_alloc *a = NULL;
	uint64_t got = 0;
	size_t n = 0;

	while (got < need) {
		a = lru_next(ad, q, a);
		if (!a)
			return 0;
		if (out)
			out[n] = (struct fw_alloc *)a;
		n++;
		got += a->d.size;
	}
	return n;
}

int fw_res_pick_victims(const struct fw_adapter *ad, unsigned seg_id, uint64_t need,
			struct fw_alloc *const *exclude, size_t nexclude,
			struct fw_alloc **out, size_t cap, size_t *nout)
{
	struct victim_query q = { seg_id, exclude, nexclude };
	const struct fw_seg *seg;
	size_t i, n;

	if (!ad || !nout || (!out && cap) || (!exclude && nexclude))
		return GM_ERR_BAD_ARG;
	for (i = 0; i < nexclude; i++)
		if (!exclude[i])
			return GM_ERR_BAD_ARG;
	seg = fw_adapter_seg(ad, seg_id);
	if (!seg || need > seg->d.size)
		return GM_ERR_BAD_ARG;
	if (need == 0) {
		*nout = 0;
		return GM_OK;
	}
	n = lru_walk(ad, &q, need, NULL);
	if (n == 0)
		return GM_ERR_BUSY;
	if (n > cap)
		return GM_ERR_FULL;
	lru_walk(ad, &q, need, out);
	*nout = n;
	return GM_OK;
}

/* -------------------------------------------------------------- hole scan */

/* Index of the live range of @s that starts at offset @off (it exists: a
 * resident allocation's range). */
static size_t live_index(const struct fw_seg *s, uint64_t off)
{
	size_t lo = 0, hi = s->nlive;

	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (s->live[mid].off <= off)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/* The lowest offset where @bytes at @align fit when the live ranges marked
 * in @freed were free (fw_seg_alloc's first fit over that view). */
static bool hole_with(const struct fw_seg *s, const bool *freed, uint64_t bytes, uint64_t align,
		      uint64_t *off)
{
	uint64_t end = 0;

	for (size_t i = 0; i <= s->nlive; i++) {
		uint64_t a = (end + align - 1) & ~(align - 1);
		uint64_t lim = i < s->nlive ? s->live[i].off : s->d.size;

		if (i < s->nlive && freed[i])
			continue;
		if (a <= lim && lim - a >= bytes) {
			*off = a;
			return true;
		}
		if (i < s->nlive)
			end = s->live[i].off + s->live[i].size;
	}
	return false;
}

/* Whether @a's range overlaps [@off, @off + @bytes) of segment @s. */
static bool overlaps(const struct fw_seg *s, const struct fw_alloc *a, uint64_t off, uint64_t bytes)
{
	uint64_t o = a->loc.addr - s->d.base;

	return o < off + bytes && off < o + a->d.size;
}

int fw_res_pick_hole(const struct fw_adapter *ad, unsigned seg_id, uint64_t bytes, uint64_t align,
		     struct fw_alloc *const *exclude, size_t nexclude, struct fw_alloc **out,
		     size_t cap, size_t *nout)
{
	struct victim_query q = { seg_id, exclude, nexclude };
	const struct fw_alloc *last = NULL, *a = NULL;
	const struct fw_seg *seg;
	uint64_t off;
	bool *freed, found;
	size_t i, n = 0;

	if (!ad || !nout || !out || !cap || (!exclude && nexclude) || !align ||
	    (align & (align - 1)))
		return GM_ERR_BAD_ARG;
	for (i = 0; i < nexclude; i++)
		if (!exclude[i])
			return GM_ERR_BAD_ARG;
	seg = fw_adapter_seg(ad, seg_id);
	if (!seg || bytes == 0 || bytes > seg->d.size)
		return GM_ERR_BAD_ARG;
	freed = fw_host_realloc_array(&ad->host, NULL, seg->nlive + 1, sizeof(*freed));
	if (!freed)
		return GM_ERR_NO_MEM;
	for (i = 0; i < seg->nlive; i++)
		freed[i] = false;
	/* Free the least recently used, one by one, until a hole opens. */
	found = hole_with(seg, freed, bytes, align, &off);
	while (!found && (last = lru_next(ad, &q, last))) {
		freed[live_index(seg, last->loc.addr - seg->d.base)] = true;
		found = hole_with(seg, freed, bytes, align, &off);
	}
	fw_host_free(&ad->host, freed);
	if (!found)
		return GM_ERR_BUSY;
	/* Of those, only the ones in the hole go, oldest first. */
	while (last && n < cap && (a = lru_next(ad, &q, a)) && !lru_before(last, a))
		if (overlaps(seg, a, off, bytes))
			out[n++] = (struct fw_alloc *)a;
	*nout = n;
	return GM_OK;
}
