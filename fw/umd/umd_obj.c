/* SPDX-License-Identifier: MIT */
/*
 * umd_obj.c - the user-mode driver's device, contexts and context-local
 * object handles (D3D11 deferred-context handles): the handle sizes, the create and destroy
 * order per context, the shared read-only data.
 */
#include <stdlib.h>
#include <string.h>

#include "umd_int.h"

#define UMD_MAX_OBJECTS (1u << 20)

static size_t round_up(size_t n, size_t a)
{
	return (n + a - 1) / a * a;
}

size_t umd_hctx_bytes(const struct umd_device *dev)
{
	return dev->cfg.unpadded ? sizeof(struct umd_hctx)
				 : round_up(sizeof(struct umd_hctx), UMD_PAD_BYTES);
}

int umd_error(struct umd_ctx *ctx, int st)
{
	if (ctx->set_error)
		ctx->set_error(ctx->core, st);
	return st;
}

/* A context of whole cache lines (no line shared with another). */
static struct umd_ctx *ctx_new(struct umd_device *dev, bool immediate, umd_set_error_fn fn,
			       void *core)
{
	size_t bytes = round_up(sizeof(struct umd_ctx), UMD_PAD_BYTES);
	struct umd_ctx *c = aligned_alloc(UMD_PAD_BYTES, bytes);

	if (!c)
		return NULL;
	memset(c, 0, bytes);
	*c = (struct umd_ctx){ .dev = dev, .immediate = immediate, .set_error = fn, .core = core };
	return c;
}

static void ctx_free(struct umd_ctx *c)
{
	if (!c)
		return;
	umd_list_destroy(c->rec);
	umd_ctx_pool_free(c);
	free((void *)c->live);
	free(c);
}

int umd_device_create(const struct umd_device_cfg *cfg, struct umd_device **out,
		      struct umd_ctx **ic)
{
	struct umd_device *dev;
	if (!cfg || !out || !ic || !cfg->kdev || !cfg->max_objects ||
	    cfg->max_objects > UMD_MAX_OBJECTS)
		return GM_ERR_BAD_ARG;
	dev = calloc(1, sizeof(*dev));
	if (!dev)
		return GM_ERR_NO_MEM;
	dev->cfg = *cfg;
	dev->free_id = malloc(cfg->max_objects * sizeof(uint32_t));
	dev->ic = ctx_new(dev, true, cfg->set_error, cfg->core);
	if (!dev->free_id || !dev->ic)
		goto err_free_dev;
	for (uint32_t i = 0; i < cfg->max_objects; i++)
		dev->free_id[i] = cfg->max_objects - 1 - i;
	dev->nfree = cfg->max_objects;
	*out = dev;
	*ic = dev->ic;
	return GM_OK;

err_free_dev:
	ctx_free(dev->ic);
	free(dev->free_id);
	free(dev);
	return GM_ERR_NO_MEM;
}

int umd_device_destroy(struct umd_device *dev)
{
	if (!dev)
		return GM_ERR_BAD_ARG;
	for (unsigned i = 0; i < UMD_MAX_DC; i++)
		if (dev->dc[i])
			return GM_ERR_BUSY;
	if (dev->nobj)
		return GM_ERR_BUSY;
	/* The fence stays with the kernel device: fw_kmd_device_destroy. */
	free(dev->cb);
	free(dev->scratch);
	ctx_free(dev->ic);
	free(dev->free_id);
	free(dev);
	return GM_OK;
}

void umd_device_stats(const struct umd_device *dev, struct umd_stats *st)
{
	*st = (struct umd_stats){ .objects = dev->nobj, .submits = dev->submits };
	for (unsigned i = 0; i < UMD_MAX_DC; i++)
		st->deferred += dev->dc[i] != NULL;
}

int umd_deferred_create(struct umd_device *dev, umd_set_error_fn fn, void *core, struct umd_ctx **dc)
{
	struct umd_ctx *c;
	unsigned i;

	if (!dev || !dc)
		return GM_ERR_BAD_ARG;
	for (i = 0; i < UMD_MAX_DC && dev->dc[i]; i++)
		;
	if (i == UMD_MAX_DC)
		return GM_ERR_FULL;
	c = ctx_new(dev, false, fn, core);
	if (!c)
		return GM_ERR_NO_MEM;
	c->live = calloc(dev->cfg.max_objects, 1);
	if (!c->live) {
		ctx_free(c);
		return GM_ERR_NO_MEM;
	}
	dev->dc[i] = c;
	*dc = c;
	return GM_OK;
}

int umd_deferred_destroy(struct umd_ctx *dc)
{
	struct umd_device *dev;

	if (!dc || dc->immediate)
		return GM_ERR_BAD_ARG;
	if (dc->nlive || atomic_load_explicit(&dc->lists, memory_order_acquire) > (dc->rec != NULL))
		return GM_ERR_BUSY;
	dev = dc->dev;
	for (unsigned i = 0; i < UMD_MAX_DC; i++)
		if (dev->dc[i] == dc)
			dev->dc[i] = NULL;
	ctx_free(dc);
	return GM_OK;
}

/* ------------------------------------------------------------ sizes */

int umd_check_deferred_handle_sizes(struct umd_ctx *ic, uint32_t *n, struct umd_handle_size *sizes)
{
	uint32_t count = UMD_HT_COUNT - 1;

	if (!ic || !n || !ic->immediate)
		return GM_ERR_BAD_ARG;
	for (uint32_t i = 0; sizes && i < count && i < *n; i++)
		sizes[i] = (struct umd_handle_size){ .type = (enum umd_ht)(UMD_HT_RESOURCE + i),
						     .size = (uint32_t)umd_hctx_bytes(ic->dev) };
	*n = count;
	return GM_OK;
}

/* Bytes of an immediate handle with @extra bytes of read-only data. */
static uint32_t ic_size(const struct umd_device *dev, size_t extra)
{
	size_t ro = round_up(umd_hctx_bytes(dev), 8) + sizeof(struct umd_obj) + extra;

	return (uint32_t)(dev->cfg.unpadded ? ro : round_up(ro, UMD_PAD_BYTES));
}

/* The shared data of immediate handle @h. */
static struct umd_obj *ro_of(const struct umd_device *dev, void *h)
{
	return (struct umd_obj *)((char *)h + round_up(umd_hctx_bytes(dev), 8));
}

static bool args_ok(struct umd_ctx *ic, const void *a)
{
	if (ic && ic->immediate && a)
		return true;
	if (ic)
		(void)umd_error(ic, GM_ERR_BAD_ARG);
	return false;
}

uint32_t umd_calc_private_resource_size(struct umd_ctx *ic, const struct umd_resource_args *a)
{
	if (!args_ok(ic, a))
		return 0;
	if (!a->nsurf || a->nsurf > UMD_RES_SURF_MAX) {
		(void)umd_error(ic, GM_ERR_BAD_ARG);
		return 0;
	}
	return ic_size(ic->dev, a->nsurf * sizeof(struct umd_surf));
}

uint32_t umd_calc_private_view_size(struct umd_ctx *ic, const struct umd_view_args *a)
{
	return args_ok(ic, a) ? ic_size(ic->dev, 0) : 0;
}

uint32_t umd_calc_private_fill_state_size(struct umd_ctx *ic, const struct umd_fill_state_args *a)
{
	return args_ok(ic, a) ? ic_size(ic->dev, 0) : 0;
}

struct umd_hctx *umd_handle(struct umd_ctx *ctx, void *h, enum umd_ht type)
{
	struct umd_hctx *hc = h;

	if (!hc || hc->magic != (UMD_MAGIC | type) || hc->ctx != ctx)
		return NULL;
	return hc;
}

uint32_t umd_calc_deferred_handle_size(struct umd_ctx *ic, enum umd_ht type, const void *h)
{
	if (!ic || !ic->immediate || !umd_handle(ic, (void *)h, type)) {
		if (ic)
			(void)umd_error(ic, GM_ERR_BAD_ARG);
		return 0;
	}
	return (uint32_t)umd_hctx_bytes(ic->dev);
}

/* ------------------------------------------------------------ create, destroy */

/* Handle memory the layout allows: a line-aligned one unless unpadded. */
static bool mem_ok(const struct umd_ctx *ctx, const void *h)
{
	return h && (ctx->dev->cfg.unpadded || !((uintptr_t)h % UMD_PAD_BYTES));
}

/* create()'s checks and the handle made live. */
static int create_checked(struct umd_ctx *ctx, enum umd_ht type, void *h, void *link,
			  struct umd_hctx *dep, struct umd_obj **ro)
{
	struct umd_device *dev = ctx->dev;
	struct umd_hctx *hc = h;
	const struct umd_obj *obj;

	if (!mem_ok(ctx, h))
		return GM_ERR_BAD_ARG;
	if (ctx->immediate) {
		if (link)
			return GM_ERR_BAD_ARG;
		if (!dev->nfree)
			return GM_ERR_NO_MEM;
		*ro = ro_of(dev, h);
		memset(h, 0, round_up(umd_hctx_bytes(dev), 8) + sizeof(struct umd_obj));
		**ro = (struct umd_obj){ .type = type, .id = dev->free_id[dev->nfree - 1], .dev = dev };
		obj = *ro;
	} else {
		struct umd_hctx *ich = umd_handle(dev->ic, link, type);

		if (!ich || atomic_load_explicit(&ctx->live[ich->obj->id], memory_order_relaxed))
			return GM_ERR_BAD_ARG;
		obj = ich->obj;
		if (obj->dep && (!dep || dep->obj != obj->dep))
			return GM_ERR_BAD_ARG;
	}
	*hc = (struct umd_hctx){ .magic = UMD_MAGIC | type, .ctx = ctx, .obj = obj, .dep = dep };
	return GM_OK;
}

/*
 * The checks every create shares, then the handle made live.  Immediate:
 * @link NULL, a free object id, *ro its shared data to fill.  Deferred:
 * @link a live immediate handle of @type, no handle of it here yet.
 * @dep: the context-local dependency handle (NULL: none); @args_ok the
 * caller's verdict on its CONST argument.  Reports its error.
 */
static int create(struct umd_ctx *ctx, bool args_ok, enum umd_ht type, void *h, void *link,
		  struct umd_hctx *dep, struct umd_obj **ro)
{
	int st = args_ok ? create_checked(ctx, type, h, link, dep, ro) : GM_ERR_BAD_ARG;

	if (st)
		(void)umd_error(ctx, st);
	return st;
}

/* The create is done: count it. */
static void created(struct umd_ctx *ctx, struct umd_hctx *hc)
{
	if (hc->dep)
		hc->dep->ndeps++;
	if (ctx->immediate) {
		ctx->dev->nfree--;
		ctx->dev->nobj++;
		return;
	}
	ctx->nlive++;
	atomic_store_explicit(&ctx->live[hc->obj->id], 1, memory_order_relaxed);
}

/* Whether a command of @l names @obj (or a view of it). */
static bool rec_names(const struct umd_list *l, const struct umd_obj *obj)
{
	for (const struct umd_chunk *c = l ? l->head : NULL; c; c = c->next)
		for (uint32_t i = 0; i < c->n; i++) {
			const struct umd_cmd *m = &c->cmd[i];

			if ((m->dst && (m->dst == obj || m->dst->dep == obj)) ||
			    (m->src && (m->src == obj || m->src->dep == obj)))
				return true;
		}
	return false;
}

/*
 * The checks every destroy shares: a live handle of @ctx with no live
 * dependents that no live command list (nor the one being recorded) names;
 * an immediate one with no deferred handle left, whose context's own
 * recording, if it names the object, is flushed first (a pipeline
 * attached; its error is the destroy's).
 */
static struct umd_hctx *destroy_check(struct umd_ctx *ctx, void *h, enum umd_ht type)
{
	struct umd_hctx *hc = ctx ? umd_handle(ctx, h, type) : NULL;
	int st;

	/* a live command list (or the recording) reads the handle's data */
	if (!hc || hc->ndeps || atomic_load_explicit(&hc->listed, memory_order_acquire))
		goto err_bad;
	if (!ctx->immediate)
		return hc;
	for (unsigned i = 0; i < UMD_MAX_DC; i++)
		if (ctx->dev->dc[i] &&
		    atomic_load_explicit(&ctx->dev->dc[i]->live[hc->obj->id], memory_order_relaxed))
			goto err_bad;
	/* its own recording runs first, while the object lives */
	if (ctx->dev->k && rec_names(ctx->rec, hc->obj) && (st = ctx->dev->flush(ctx))) {
		(void)umd_error(ctx, st);
		return NULL;
	}
	return hc;

err_bad:
	if (ctx)
		(void)umd_error(ctx, GM_ERR_BAD_ARG);
	return NULL;
}

static void destroyed(struct umd_ctx *ctx, struct umd_hctx *hc)
{
	struct umd_device *dev = ctx->dev;

	if (hc->dep)
		hc->dep->ndeps--;
	hc->magic = 0;
	if (ctx->immediate) {
		dev->free_id[dev->nfree++] = hc->obj->id;
		dev->nobj--;
		return;
	}
	ctx->nlive--;
	atomic_store_explicit(&ctx->live[hc->obj->id], 0, memory_order_relaxed);
}

/* The kernel resource and the surface table of new resource @ro. */
static int resource_init(struct umd_ctx *ic, const struct umd_resource_args *a, struct umd_obj *ro)
{
	int st = fw_res_create(ic->dev->cfg.kdev, a->surf, a->nsurf, false, &ro->kres);

	for (uint32_t i = 0; !st && i < a->nsurf; i++) {
		const struct fw_alloc_desc *d = &a->surf[i];

		ro->surf[i] = (struct umd_surf){ .width = d->width, .height = d->height,
						 .pitch = d->pitch, .mode = (uint8_t)d->tile,
						 .bpe_log2 = (uint8_t)d->bpe_log2, .size = d->size };
		st = fw_res_surface_handle(ro->kres, i, &ro->surf[i].handle);
	}
	ro->nsurf = a->nsurf;
	return st;
}

void umd_create_resource(struct umd_ctx *ctx, const struct umd_resource_args *a, void *h, void *link)
{
	struct umd_obj *ro = NULL;
	int st;

	if (!ctx || create(ctx, ctx->immediate ? a && a->surf && a->nsurf && a->nsurf <= UMD_RES_SURF_MAX
					       : a == NULL,
			   UMD_HT_RESOURCE, h, link, NULL, &ro))
		return;
	if (ctx->immediate) {
		st = resource_init(ctx, a, ro);
		if (st) {
			/* fw_res_create made nothing, or the handles are fresh: no lock to refuse. */
			if (ro->kres && fw_res_destroy(ro->kres))
				st = GM_ERR_HW;
			((struct umd_hctx *)h)->magic = 0;
			(void)umd_error(ctx, st);
			return;
		}
	}
	created(ctx, h);
}

void umd_destroy_resource(struct umd_ctx *ctx, void *h)
{
	struct umd_hctx *hc = destroy_check(ctx, h, UMD_HT_RESOURCE);
	int st;

	if (!hc)
		return;
	if (ctx->immediate) {
		st = fw_res_destroy(hc->obj->kres);
		if (st) {
			(void)umd_error(ctx, st);
			return;
		}
	}
	destroyed(ctx, hc);
}

void umd_create_view(struct umd_ctx *ctx, const struct umd_view_args *a, void *h, void *link)
{
	struct umd_hctx *res;
	struct umd_obj *ro = NULL;

	if (!ctx)
		return;
	res = a ? umd_handle(ctx, a->resource, UMD_HT_RESOURCE) : NULL;
	if (create(ctx, res && (ctx->immediate ? a->surface < res->obj->nsurf : a->surface == 0),
		   UMD_HT_VIEW, h, link, res, &ro))
		return;
	if (ctx->immediate) {
		ro->dep = res->obj;
		ro->surface = a->surface;
	}
	created(ctx, h);
}

/* Destroy a handle that holds nothing beyond itself. */
static void destroy_plain(struct umd_ctx *ctx, void *h, enum umd_ht type)
{
	struct umd_hctx *hc = destroy_check(ctx, h, type);

	if (hc)
		destroyed(ctx, hc);
}

void umd_destroy_view(struct umd_ctx *ctx, void *h)
{
	destroy_plain(ctx, h, UMD_HT_VIEW);
}

void umd_create_fill_state(struct umd_ctx *ctx, const struct umd_fill_state_args *a, void *h,
			   void *link)
{
	struct umd_obj *ro = NULL;

	if (!ctx || create(ctx, ctx->immediate ? a != NULL : a == NULL, UMD_HT_FILL_STATE, h, link,
			   NULL, &ro))
		return;
	if (ctx->immediate)
		ro->value = a->value;
	created(ctx, h);
}

void umd_destroy_fill_state(struct umd_ctx *ctx, void *h)
{
	destroy_plain(ctx, h, UMD_HT_FILL_STATE);
}

uint32_t umd_resource_alloc(const void *h, uint32_t surf)
{
	const struct umd_hctx *hc = h;

	if (!hc || hc->magic != (UMD_MAGIC | UMD_HT_RESOURCE) || surf >= hc->obj->nsurf)
		return 0;
	return hc->obj->surf[surf].handle;
}
