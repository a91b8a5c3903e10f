/* SPDX-License-Identifier: MIT */
/*
 * umd_exec.c - ExecuteCommandList and Flush on the immediate context: the
 * recorded commands become a user command buffer (fw_umd: packets with
 * placeholder addresses, allocation list, patch-location list) that goes
 * through the pipeline (fw_kmd_submit_cmdbuf: Render, residency, Patch,
 * SubmitCommand) as often as it fills up.  Each submission signals the
 * device's monitored fence with the next value.  The immediate context's
 * thread only: the pipeline and the model are single-threaded.
 */
#include <stdlib.h>

#include "umd_int.h"

int umd_device_attach(struct umd_device *dev, struct fw_kmd *k)
{
	int st = GM_ERR_NO_MEM;

	/* commands recorded without a pipeline may name objects gone since */
	if (!dev || !k || dev->k || (dev->ic->rec && dev->ic->rec->ncmd))
		return GM_ERR_BAD_ARG;
	dev->cb = calloc(1, sizeof(*dev->cb));
	dev->scratch = calloc(1, sizeof(*dev->scratch));
	if (!dev->cb || !dev->scratch)
		goto err_free_bufs;
	st = fw_mfence_create(k, dev->cfg.kdev, 0, &dev->fence);
	if (st)
		goto err_free_bufs;
	fw_umd_begin(dev->cb);
	dev->k = k;
	dev->flush = umd_flush;
	return GM_OK;

err_free_bufs:
	free(dev->cb);
	free(dev->scratch);
	dev->cb = NULL;
	dev->scratch = NULL;
	return st;
}

/* Submit what the command buffer holds (nothing when empty). */
static int submit(struct umd_device *dev)
{
	struct fw_signal sig = { dev->fence, dev->fence_value + 1 };
	struct fw_cmdbuf cb;
	int st;

	if (!dev->cb->b.len)
		return GM_OK;
	fw_umd_cmdbuf(dev->cb, &cb);
	st = fw_kmd_submit_cmdbuf(dev->k, dev->cfg.kdev, &cb, dev->scratch, &sig);
	fw_umd_begin(dev->cb);
	if (st)
		return st;
	dev->fence_value++;
	dev->submits++;
	return GM_OK;
}

static struct dma_surf surf_at(const struct umd_surf *s, uint32_t x, uint32_t y)
{
	return (struct dma_surf){ .pitch = s->pitch, .mode = s->mode, .bpe_log2 = s->bpe_log2,
				  .x = (uint16_t)x, .y = (uint16_t)y };
}

/* Surface @i of resources @d and @s: a COPY when the layouts are the same,
 * else a BLT of the rectangle both have. */
static int emit_copy_surf(struct fw_umd *u, const struct umd_surf *d, const struct umd_surf *s)
{
	struct dma_surf ds = surf_at(d, 0, 0), ss = surf_at(s, 0, 0);
	uint32_t w = d->width < s->width ? d->width : s->width;
	uint32_t h = d->height < s->height ? d->height : s->height;

	if (d->mode == s->mode && d->pitch == s->pitch && w == d->width && w == s->width)
		return fw_umd_copy(u, d->handle, 0, s->handle, 0,
				   (uint32_t)(d->size < s->size ? d->size : s->size));
	return fw_umd_blt(u, d->handle, &ds, s->handle, &ss, w, h);
}

/* The surface a view names, or NULL (no object, or a resource: no view). */
static const struct umd_surf *view_surf(const struct umd_obj *v)
{
	return v && v->dep ? &v->dep->surf[v->surface] : NULL;
}

/* The packets of @c; *fill is the bound fill value. */
static int emit(struct fw_umd *u, const struct umd_cmd *c, uint64_t *fill)
{
	const struct umd_surf *d = view_surf(c->dst);
	const struct umd_surf *s = view_surf(c->src);
	struct dma_surf ds, ss;
	int st = GM_OK;

	switch (c->op) {
	case UMD_OP_SET_FILL:
		*fill = c->value;
		return GM_OK;
	case UMD_OP_COPY_RES:
		for (uint32_t i = 0; !st && i < c->dst->nsurf; i++)
			st = emit_copy_surf(u, &c->dst->surf[i], &c->src->surf[i]);
		return st;
	case UMD_OP_BLT:
		ds = surf_at(d, c->dx, c->dy);
		ss = surf_at(s, c->sx, c->sy);
		return fw_umd_blt(u, d->handle, &ds, s->handle, &ss, c->w, c->h);
	case UMD_OP_FILL:
		ds = surf_at(d, c->dx, c->dy);
		return fw_umd_fill(u, d->handle, &ds, c->w, c->h, *fill);
	}
	return GM_ERR_BAD_ARG;
}

int umd_exec(struct umd_ctx *ic, const struct umd_list *list, uint64_t *fill)
{
	struct umd_device *dev = ic->dev;
	size_t len, nloc;
	uint32_t nalloc;
	int st;

	for (const struct umd_chunk *c = list->head; c; c = c->next)
		for (uint32_t i = 0; i < c->n; i++) {
			len = dev->cb->b.len, nalloc = dev->cb->nalloc, nloc = dev->cb->pl.len;
			st = emit(dev->cb, &c->cmd[i], fill);
			if (st == GM_ERR_FULL) {
				/* A COPY_RES may have put part of its surfaces in: they go
				 * again, whole, in the next command buffer. */
				dev->cb->b.len = len, dev->cb->nalloc = nalloc, dev->cb->pl.len = (uint32_t)nloc;
				st = submit(dev);
				if (!st)
					st = emit(dev->cb, &c->cmd[i], fill);
			}
			if (st)
				return st;
		}
	return GM_OK;
}

static bool can_exec(const struct umd_ctx *ic)
{
	return ic && ic->immediate && ic->dev->k;
}

int umd_flush(struct umd_ctx *ic)
{
	int st;

	if (!can_exec(ic))
		return GM_ERR_BAD_ARG;
	if (ic->rec) {
		st = umd_exec(ic, ic->rec, &ic->exec_fill);
		umd_list_destroy(ic->rec);
		ic->rec = NULL;
		if (st)
			return st;
	}
	return submit(ic->dev);
}

int umd_execute_command_list(struct umd_ctx *ic, const struct umd_list *list)
{
	uint64_t fill = 0; /* a command list starts with no state bound */
	int st;

	if (!can_exec(ic) || !list)
		return GM_ERR_BAD_ARG;
	st = umd_flush(ic);
	if (!st)
		st = umd_exec(ic, list, &fill);
	if (!st)
		st = submit(ic->dev);
	return st;
}

int umd_wait_idle(struct umd_ctx *ic, uint64_t budget)
{
	int st = umd_flush(ic);

	if (st || !ic->dev->fence_value)
		return st;
	return fw_mfence_wait(ic->dev->k, ic->dev->fence, ic->dev->fence_value, budget);
}
