/* SPDX-License-Identifier: MIT */
/*
 * umd_rec.c - recording into command lists: the context's host memory
 * (with its fault injector), the recording calls, FinishCommandList.
 *
 * A list grows by chunks of UMD_CHUNK_CMDS commands, each one allocation
 * of the recording context; the list itself is one more, at the first
 * command.  Commands keep the shared object data their handles link to, so
 * executing a list reads no context's handles.
 *
 * Chunks come from a pool per context: a destroyed list (on any thread)
 * pushes its chunks on its context's `returned` stack, and the context
 * takes that whole stack when its own pool is empty - so recording on
 * several threads does not meet in the host heap (glibc's per-thread
 * arenas alone scale poorly for this pattern: measured 1.2x on 2 threads).
 * The fault injector counts every allocation, pooled or not.
 */
#include <stdlib.h>

#include "umd_int.h"

/* An allocation of @ctx may go ahead (the fault injector's count). */
static bool alloc_ok(struct umd_ctx *ctx)
{
	return ++ctx->nallocs != ctx->fail_at;
}

/* A chunk for @ctx, or NULL. */
static struct umd_chunk *chunk_get(struct umd_ctx *ctx)
{
	struct umd_chunk *c;

	if (!alloc_ok(ctx))
		return NULL;
	if (!ctx->pool)
		ctx->pool = atomic_exchange_explicit(&ctx->returned, NULL, memory_order_acquire);
	c = ctx->pool;
	if (c)
		ctx->pool = c->next;
	else
		c = malloc(sizeof(*c));
	return c;
}

static void chain_free(struct umd_chunk *c)
{
	for (struct umd_chunk *next; c; c = next) {
		next = c->next;
		free(c);
	}
}

void umd_ctx_pool_free(struct umd_ctx *ctx)
{
	chain_free(ctx->pool);
	chain_free(atomic_load_explicit(&ctx->returned, memory_order_acquire));
	ctx->pool = NULL;
	atomic_store_explicit(&ctx->returned, NULL, memory_order_relaxed);
}

void umd_ctx_fail_alloc(struct umd_ctx *ctx, uint64_t n)
{
	ctx->fail_at = n ? ctx->nallocs + n : 0;
}

uint64_t umd_ctx_allocs(const struct umd_ctx *ctx)
{
	return ctx->nallocs;
}

void umd_list_destroy(struct umd_list *list)
{
	struct umd_ctx *o;
	struct umd_chunk *top;

	if (!list)
		return;
	o = list->owner;
	/* its commands no longer name their handles */
	for (struct umd_chunk *c = list->head; c; c = c->next)
		for (uint32_t i = 0; i < c->n; i++) {
			if (c->cmd[i].hdst)
				atomic_fetch_sub_explicit(&c->cmd[i].hdst->listed, 1,
							  memory_order_release);
			if (c->cmd[i].hsrc)
				atomic_fetch_sub_explicit(&c->cmd[i].hsrc->listed, 1,
							  memory_order_release);
		}
	if (list->head) {
		top = atomic_load_explicit(&o->returned, memory_order_relaxed);
		do
			list->tail->next = top;
		while (!atomic_compare_exchange_weak_explicit(&o->returned, &top, list->head,
							      memory_order_release, memory_order_relaxed));
	}
	atomic_fetch_sub_explicit(&o->lists, 1, memory_order_release);
	free(list);
}

uint32_t umd_list_commands(const struct umd_list *list)
{
	return list ? list->ncmd : 0;
}

/* An empty list of @ctx, or NULL. */
static struct umd_list *list_new(struct umd_ctx *ctx)
{
	struct umd_list *l = alloc_ok(ctx) ? malloc(sizeof(*l)) : NULL;

	if (l) {
		*l = (struct umd_list){ .owner = ctx };
		atomic_fetch_add_explicit(&ctx->lists, 1, memory_order_relaxed);
	}
	return l;
}

/* Room for one more command in @ctx's list: GM_OK or GM_ERR_NO_MEM
 * (nothing changed). */
static int reserve(struct umd_ctx *ctx)
{
	struct umd_list *l = ctx->rec;
	struct umd_chunk *c;

	if (!l) {
		l = list_new(ctx);
		if (!l)
			return GM_ERR_NO_MEM;
		ctx->rec = l;
	}
	if (l->tail && l->tail->n < UMD_CHUNK_CMDS)
		return GM_OK;
	c = chunk_get(ctx);
	if (!c)
		return GM_ERR_NO_MEM;
	c->next = NULL;
	c->n = 0;
	if (l->tail)
		l->tail->next = c;
	else
		l->head = c;
	l->tail = c;
	return GM_OK;
}

/*
 * Append @cmd to @ctx's list.  Out of memory on a deferred context throws
 * the partial list away and makes the context ignore calls until the
 * finish; on the immediate one only this command is lost.  Both report it.
 */
static void record(struct umd_ctx *ctx, const struct umd_cmd *cmd)
{
	struct umd_list *l;

	if (reserve(ctx)) {
		if (!ctx->immediate) {
			umd_list_destroy(ctx->rec);
			ctx->rec = NULL;
			ctx->rec_err = GM_ERR_NO_MEM;
		}
		(void)umd_error(ctx, GM_ERR_NO_MEM);
		return;
	}
	l = ctx->rec;
	l->tail->cmd[l->tail->n++] = *cmd;
	l->ncmd++;
	if (ctx->immediate) { /* flushed before its objects go: umd_obj.c */
		l->tail->cmd[l->tail->n - 1].hdst = l->tail->cmd[l->tail->n - 1].hsrc = NULL;
		return;
	}
	if (cmd->hdst)
		atomic_fetch_add_explicit(&cmd->hdst->listed, 1, memory_order_relaxed);
	if (cmd->hsrc)
		atomic_fetch_add_explicit(&cmd->hsrc->listed, 1, memory_order_relaxed);
}

/* The live handle @h of @ctx for a recording call, counted as used; NULL
 * (and nothing counted) when it is not one. */
static struct umd_hctx *use(struct umd_ctx *ctx, void *h, enum umd_ht type)
{
	struct umd_hctx *hc = umd_handle(ctx, h, type);

	if (hc)
		hc->uses++;
	return hc;
}

/* A context that may record: false after a deferred context's error. */
static bool recording(const struct umd_ctx *ctx)
{
	return ctx && !ctx->rec_err;
}

static const struct umd_surf *view_surf(const struct umd_obj *view)
{
	return &view->dep->surf[view->surface];
}

/* The rectangle @x, @y, @w x @h lies in the surface of @view. */
static bool rect_in(const struct umd_obj *view, uint64_t x, uint64_t y, uint64_t w, uint64_t h)
{
	const struct umd_surf *s = view_surf(view);

	return w && h && x + w <= s->width && y + h <= s->height;
}

void umd_set_fill_state(struct umd_ctx *ctx, void *state)
{
	struct umd_hctx *hs;

	if (!recording(ctx))
		return;
	hs = use(ctx, state, UMD_HT_FILL_STATE);
	if (!hs) {
		(void)umd_error(ctx, GM_ERR_BAD_ARG);
		return;
	}
	record(ctx, &(struct umd_cmd){ .op = UMD_OP_SET_FILL, .value = hs->obj->value });
}

void umd_copy_resource(struct umd_ctx *ctx, void *dst, void *src)
{
	struct umd_hctx *hd, *hs;

	if (!recording(ctx))
		return;
	hd = use(ctx, dst, UMD_HT_RESOURCE);
	hs = use(ctx, src, UMD_HT_RESOURCE);
	if (!hd || !hs || hd == hs || hd->obj->nsurf != hs->obj->nsurf) {
		(void)umd_error(ctx, GM_ERR_BAD_ARG);
		return;
	}
	for (uint32_t i = 0; i < hd->obj->nsurf; i++)
		if (hd->obj->surf[i].bpe_log2 != hs->obj->surf[i].bpe_log2) {
			(void)umd_error(ctx, GM_ERR_BAD_ARG);
			return;
		}
	record(ctx, &(struct umd_cmd){ .op = UMD_OP_COPY_RES, .dst = hd->obj, .src = hs->obj,
				       .hdst = hd, .hsrc = hs });
}

void umd_blt(struct umd_ctx *ctx, void *dst_view, uint32_t dx, uint32_t dy, void *src_view,
	     uint32_t sx, uint32_t sy, uint32_t w, uint32_t h)
{
	struct umd_hctx *hd, *hs;

	if (!recording(ctx))
		return;
	hd = use(ctx, dst_view, UMD_HT_VIEW);
	hs = use(ctx, src_view, UMD_HT_VIEW);
	if (!hd || !hs || !rect_in(hd->obj, dx, dy, w, h) || !rect_in(hs->obj, sx, sy, w, h) ||
	    view_surf(hd->obj)->bpe_log2 != view_surf(hs->obj)->bpe_log2) {
		(void)umd_error(ctx, GM_ERR_BAD_ARG);
		return;
	}
	record(ctx, &(struct umd_cmd){ .op = UMD_OP_BLT, .dst = hd->obj, .src = hs->obj,
				       .hdst = hd, .hsrc = hs, .dx = dx, .dy = dy, .sx = sx,
				       .sy = sy, .w = w, .h = h });
}

void umd_fill(struct umd_ctx *ctx, void *view, uint32_t x, uint32_t y, uint32_t w, uint32_t h)
{
	struct umd_hctx *hv;

	if (!recording(ctx))
		return;
	hv = use(ctx, view, UMD_HT_VIEW);
	if (!hv || !rect_in(hv->obj, x, y, w, h)) {
		(void)umd_error(ctx, GM_ERR_BAD_ARG);
		return;
	}
	record(ctx, &(struct umd_cmd){ .op = UMD_OP_FILL, .dst = hv->obj, .hdst = hv, .dx = x,
				       .dy = y, .w = w, .h = h });
}

int umd_finish_command_list(struct umd_ctx *dc, struct umd_list **list)
{
	int st;

	if (!dc || !list || dc->immediate)
		return GM_ERR_BAD_ARG;
	st = dc->rec_err;
	*list = NULL;
	dc->rec_err = GM_OK;
	if (st)
		return st;
	if (!dc->rec) {
		/* An empty list still is one: make it now. */
		dc->rec = list_new(dc);
		if (!dc->rec)
			return GM_ERR_NO_MEM;
	}
	*list = dc->rec;
	dc->rec = NULL;
	return GM_OK;
}
