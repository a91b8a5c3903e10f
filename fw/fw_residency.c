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
