/* SPDX-License-Identifier: MIT */
/*
 * fw_adapter.c - the adapter, its memory segments and its devices' lifetime
 * up to their handle tables (see fw_res.h).  A device's resources, handles
 * and destruction are fw_res.c's.
 *
 * Every entry point checks its arguments, then makes every host allocation
 * it needs, and only then changes state, so an error leaves nothing behind.
 */
#include <assert.h>
#include <string.h>

#include "fw_res.h"

/* ----------------------------------------------------------------- adapter */

/* The segment with id @id or NULL; like strchr, const in and mutable out,
 * so the const query paths (victims) and the updating ones share it. */
static struct fw_seg *seg_find(const struct fw_adapter *ad, unsigned id)
{
	unsigned i;

	for (i = 0; i < ad->nseg; i++)
		if (ad->seg[i].d.id == id)
			return (struct fw_seg *)&ad->seg[i];
	return NULL;
}

void fw_res_range_free(const struct fw_adapter *ad, const struct fw_alloc *a)
{
	int st = fw_seg_free(seg_find(ad, a->loc.seg_id), a->loc.addr);

	assert(st == GM_OK);
	(void)st;
}

struct fw_seg *fw_adapter_seg(const struct fw_adapter *ad, unsigned id)
{
	return ad ? seg_find(ad, id) : NULL;
}

int fw_adapter_init(struct fw_adapter *ad, const struct fw_host_mem *host)
{
	if (!ad || (host && !host->realloc_fn != !host->free_fn))
		return GM_ERR_BAD_ARG;
	memset(ad, 0, sizeof(*ad));
	if (host)
		ad->host = *host;
	ad->next_serial = 1;
	ad->next_share = 1;
	return GM_OK;
}

void fw_adapter_fini(struct fw_adapter *ad)
{
	unsigned i;

	if (!ad)
		return;
	ad->closing = true;
	while (ad->dev)
		fw_device_destroy(ad->dev);
	for (i = 0; i < ad->nseg; i++)
		fw_seg_fini(&ad->seg[i]);
	ad->nseg = 0;
}

void fw_adapter_on_release(struct fw_adapter *ad, fw_release_fn fn, void *ctx)
{
	if (!ad)
		return;
	ad->release = fn;
	ad->release_ctx = ctx;
}

static bool ranges_overlap(const struct fw_seg_desc *a, const struct fw_seg_desc *b)
{
	return a->base < b->base + b->size && b->base < a->base + a->size;
}

int fw_adapter_add_seg(struct fw_adapter *ad, const struct fw_seg_desc *desc)
{
	struct fw_seg s;
	unsigned i;

	if (!ad || !desc)
		return GM_ERR_BAD_ARG;
	if (fw_seg_init(&s, desc, &ad->host))
		return GM_ERR_BAD_ARG;
	for (i = 0; i < ad->nseg; i++)
		if (ad->seg[i].d.id == desc->id || ranges_overlap(&ad->seg[i].d, desc))
			return GM_ERR_BAD_ARG;
	if (ad->nseg == FW_MAX_SEGS)
		return GM_ERR_FULL;
	ad->seg[ad->nseg++] = s;
	return GM_OK;
}

int fw_adapter_get_stats(const struct fw_adapter *ad, struct fw_adapter_stats *st)
{
	if (!ad || !st)
		return GM_ERR_BAD_ARG;
	st->ndevices = ad->ndev;
	st->nkres = ad->nkres;
	st->nallocs = ad->nalloc;
	return GM_OK;
}

/* ------------------------------------------------------------------ device */

int fw_device_create(struct fw_adapter *ad, struct fw_device **out)
{
	struct fw_device *dev;
	uint32_t tag;

	if (!ad || !out)
		return GM_ERR_BAD_ARG;
	for (tag = 1; tag <= FW_MAX_DEVICES && ad->tag_used[tag]; tag++)
		;
	if (tag > FW_MAX_DEVICES)
		return GM_ERR_FULL;
	dev = fw_host_realloc_array(&ad->host, NULL, 1, sizeof(*dev));
	if (!dev)
		return GM_ERR_NO_MEM;
	memset(dev, 0, sizeof(*dev));
	dev->ad = ad;
	dev->tag = tag;
	dev->free_head = FW_SLOT_NONE;
	ad->tag_used[tag] = true;
	dev->next = ad->dev;
	if (ad->dev)
		ad->dev->prev = dev;
	ad->dev = dev;
	ad->ndev++;
	*out = dev;
	return GM_OK;
}

int fw_device_mark_removed(struct fw_device *dev)
{
	if (!dev)
		return GM_ERR_BAD_ARG;
	if (dev->removed)
		return GM_ERR_DEVICE_REMOVED;
	dev->removed = true;
	return GM_OK;
}

bool fw_device_is_removed(const struct fw_device *dev)
{
	return dev && dev->removed;
}

int fw_device_get_stats(const struct fw_device *dev, struct fw_device_stats *st)
{
	if (!dev)
		return GM_ERR_BAD_ARG;
	if (dev->removed)
		return GM_ERR_DEVICE_REMOVED;
	if (!st)
		return GM_ERR_BAD_ARG;
	st->nhandles = dev->nhandles;
	st->nresources = dev->nres;
	return GM_OK;
}
