/* SPDX-License-Identifier: MIT */
/*
 * fw_render.c - Render: validate, copy and resolve a user command buffer
 * into DMA buffers (see fw_render.h).
 */
#include <string.h>

#include "dma_validate.h"
#include "fw_render.h"
#include "gpu_hw.h"

static uint32_t pkt_dw(uint32_t hdr)
{
	return GPU_HDR_COUNT_GET(hdr) + 1u;
}

static uint32_t patch_bytes(uint32_t driver_id)
{
	return driver_id == DMA_PATCH_ADDR64 ? 8u : 4u;
}

/*
 * The DMA buffer that starts at packet dword @start: whole packets while
 * they fit FW_KMD_DMA_DW dwords and FW_KMD_MAX_LOCS patch entries.  *end is
 * the dword after it (== @start: the first packet alone is too large).
 * GM_ERR_BAD_ARG when a patched place of those packets runs into the next
 * packet (a patched place belongs to one packet).  O(packets + entries).
 */
static int chunk_end(const struct fw_cmdbuf *cb, uint32_t start, uint32_t *end)
{
	uint32_t pk[FW_KMD_DMA_DW + 1]; /* packet starts, then the end */
	uint16_t cnt[FW_KMD_DMA_DW];    /* patch entries in each packet */
	uint32_t np = 0, pos = start, nloc = 0;

	while (pos < cb->ndw && pos + pkt_dw(cb->dw[pos]) - start <= FW_KMD_DMA_DW) {
		cnt[np] = 0;
		pk[np++] = pos;
		pos += pkt_dw(cb->dw[pos]);
	}
	pk[np] = pos;
	for (uint32_t i = 0; i < cb->nloc; i++) {
		uint32_t po = cb->locs[i].patch_offset / 4u, lo = 0, hi = np;

		if (po < start || po >= pos)
			continue;
		while (hi - lo > 1) { /* the last packet starting at or before po */
			uint32_t mid = (lo + hi) / 2;

			if (pk[mid] <= po)
				lo = mid;
			else
				hi = mid;
		}
		if ((uint64_t)cb->locs[i].patch_offset + patch_bytes(cb->locs[i].driver_id) >
		    4ull * pk[lo + 1])
			return GM_ERR_BAD_ARG;
		if (cnt[lo] <= FW_KMD_MAX_LOCS)
			cnt[lo]++;
	}
	*end = start;
	for (uint32_t j = 0; j < np && nloc + cnt[j] <= FW_KMD_MAX_LOCS; j++) {
		nloc += cnt[j];
		*end = pk[j + 1];
	}
	return GM_OK;
}

/* Patching with zero addresses checks every entry before any is written,
 * and the placeholders get overwritten at submit anyway. */
int fw_render_check_locs(const struct fw_dmabuf *buf, uint32_t *dw)
{
	struct dma_patch_args pa;

	dma_patch_args_init(&pa, dw, buf->ndw * 4u, 0, buf->alloc, buf->nalloc, buf->loc, buf->nloc);
	return dma_patch(&pa) ? GM_ERR_BAD_ARG : GM_OK;
}

bool fw_render_flags_ok(uint32_t flags)
{
	return !(flags & ~DMA_PATCH_F_ALL) && !(flags & DMA_PATCH_F_PAGING);
}

int fw_kmd_render(struct fw_kmd *k, struct fw_device *dev, const struct fw_cmdbuf *cb,
		  uint32_t *multipass, struct fw_dmabuf *out)
{
	struct dma_validate_limits lim = { .in_ring = true };
	uint32_t start, pos, end;
	bool boundary = false;

	if (!k || !dev)
		return GM_ERR_BAD_ARG;
	if (fw_device_is_removed(dev))
		return GM_ERR_DEVICE_REMOVED;
	if (!cb || !multipass || !out || dev->ad != &k->ad || cb->ndw == 0 || !cb->dw ||
	    (cb->nalloc && !cb->allocs) || (cb->nloc && !cb->locs) ||
	    cb->nalloc > FW_KMD_MAX_ALLOCS || *multipass >= cb->ndw || !fw_render_flags_ok(cb->flags))
		return GM_ERR_BAD_ARG;
	/* The whole user buffer, as packets a user queue may run; no IBs. */
	if (dma_validate_cmdbuf(cb->dw, cb->ndw, &lim, NULL))
		return GM_ERR_BAD_ARG;
	start = *multipass;
	for (pos = 0; pos < cb->ndw && pos <= start; pos += pkt_dw(cb->dw[pos]))
		boundary |= pos == start;
	if (!boundary)
		return GM_ERR_BAD_ARG;
	for (uint32_t i = 0; i < cb->nloc; i++)
		if ((uint64_t)cb->locs[i].patch_offset + patch_bytes(cb->locs[i].driver_id) >
		    4ull * cb->ndw)
			return GM_ERR_BAD_ARG;
	if (chunk_end(cb, start, &end))
		return GM_ERR_BAD_ARG;
	if (end == start) /* one packet larger than a DMA buffer or its list */
		return GM_ERR_BAD_ARG;

	memset(out, 0, offsetof(struct fw_dmabuf, dw));
	out->dev = dev;
	out->flags = cb->flags;
	out->ndw = end - start;
	memcpy(out->dw, cb->dw + start, out->ndw * 4ull);
	out->nalloc = cb->nalloc;
	for (uint32_t i = 0; i < cb->nalloc; i++) {
		struct fw_alloc *a;
		int st = fw_res_get_handle_data(dev, cb->allocs[i].handle, &a);

		if (st)
			return st;
		out->alloc[i] = (struct dma_alloc_entry){ .handle = a, .size = a->d.size,
							  .write = cb->allocs[i].write };
	}
	out->nloc = 0;
	for (uint32_t i = 0; i < cb->nloc; i++) {
		struct dma_patch_loc l = cb->locs[i];

		if (l.patch_offset < 4u * start || l.patch_offset >= 4u * end)
			continue;
		l.patch_offset -= 4u * start;
		/* A split before this DMA buffer is no place to split it. */
		l.split_offset = l.split_offset >= 4u * start ? l.split_offset - 4u * start : UINT32_MAX;
		out->loc[out->nloc++] = l;
	}
	if (fw_render_check_locs(out, out->dw))
		return GM_ERR_BAD_ARG;
	*multipass = end;
	return end == cb->ndw ? GM_OK : GM_ERR_FULL;
}

/* GetHandleData's codes, after the pipeline's own checks. */
int fw_render_resolve(struct fw_kmd *k, struct fw_device *dev, uint32_t handle,
		      struct fw_alloc **a)
{
	if (!k || !dev)
		return GM_ERR_BAD_ARG;
	if (fw_device_is_removed(dev))
		return GM_ERR_DEVICE_REMOVED;
	if (dev->ad != &k->ad)
		return GM_ERR_BAD_ARG;
	return fw_res_get_handle_data(dev, handle, a);
}
