/* SPDX-License-Identifier: MIT */
/*
 * umd_rt.c - the runtime stand-in (see umd_rt.h).
 */
#include <stdlib.h>
#include <string.h>

#include "umd_rt.h"

static void set_error(void *core, int st)
{
	struct umd_rt_err *e = core;

	e->last = st;
	e->count++;
}

int umd_rt_error(struct umd_rt *rt, int ctx)
{
	struct umd_rt_err *e = &rt->err[ctx + 1];
	int st = e->last;

	if (e->count) { /* written only when there is news: the line stays shared-clean */
		e->last = GM_OK;
		e->count = 0;
	}
	return st;
}

static void *line_alloc(size_t bytes)
{
	void *p = aligned_alloc(UMD_PAD_BYTES, (bytes + UMD_PAD_BYTES - 1) / UMD_PAD_BYTES *
						       UMD_PAD_BYTES);

	if (p)
		memset(p, 0, bytes);
	return p;
}

/* The sizes table, asked twice: the count, then the array. */
static int ask_sizes(struct umd_rt *rt)
{
	uint32_t n = 0;
	int st = umd_check_deferred_handle_sizes(rt->ic, &n, NULL);

	if (st)
		return st;
	rt->sizes = calloc(n ? n : 1, sizeof(*rt->sizes));
	if (!rt->sizes)
		return GM_ERR_NO_MEM;
	rt->nsizes = n;
	st = umd_check_deferred_handle_sizes(rt->ic, &rt->nsizes, rt->sizes);
	for (uint32_t i = 0; !st && i < rt->nsizes; i++)
		if (rt->sizes[i].size > rt->stride)
			rt->stride = rt->sizes[i].size;
	rt->stride = (rt->stride + UMD_PAD_BYTES - 1) / UMD_PAD_BYTES * UMD_PAD_BYTES;
	return st;
}

/* Without interleaving: a slab per deferred context, a slot per object id. */
static int make_slabs(struct umd_rt *rt, bool interleaved)
{
	for (uint32_t i = 0; !interleaved && i < rt->ndc; i++) {
		rt->slab[i] = line_alloc((size_t)rt->stride * rt->max_objects);
		if (!rt->slab[i])
			return GM_ERR_NO_MEM;
	}
	return GM_OK;
}

static void rt_free(struct umd_rt *rt)
{
	for (unsigned i = 0; i < UMD_MAX_DC; i++) {
		free(rt->made[i]);
		free(rt->slab[i]);
	}
	free(rt->sizes);
	free(rt->err);
	free(rt->free_id);
}

int umd_rt_open(struct umd_rt *rt, const struct umd_rt_cfg *cfg)
{
	struct umd_device_cfg dc;
	int st;

	if (!rt || !cfg || !cfg->ndc || cfg->ndc > UMD_MAX_DC || !cfg->max_objects)
		return GM_ERR_BAD_ARG;
	memset(rt, 0, sizeof(*rt));
	rt->ndc = cfg->ndc;
	rt->max_objects = cfg->max_objects;
	rt->err = line_alloc((cfg->ndc + 1) * sizeof(*rt->err));
	rt->free_id = malloc(cfg->max_objects * sizeof(uint32_t));
	st = rt->err && rt->free_id ? GM_OK : GM_ERR_NO_MEM;
	for (unsigned i = 0; !st && i < cfg->ndc; i++)
		if (!(rt->made[i] = calloc(cfg->max_objects, 1)))
			st = GM_ERR_NO_MEM;
	if (st)
		goto err_free_rt;
	for (uint32_t i = 0; i < cfg->max_objects; i++)
		rt->free_id[i] = cfg->max_objects - 1 - i;
	rt->nfree = cfg->max_objects;
	dc = (struct umd_device_cfg){ .kdev = cfg->kdev, .max_objects = cfg->max_objects,
				      .unpadded = cfg->unpadded, .set_error = set_error,
				      .core = &rt->err[0] };
	st = umd_device_create(&dc, &rt->dev, &rt->ic);
	if (st)
		goto err_free_rt;
	st = ask_sizes(rt);
	if (!st)
		st = make_slabs(rt, cfg->interleaved);
	for (unsigned i = 0; !st && i < cfg->ndc; i++)
		st = umd_deferred_create(rt->dev, set_error, &rt->err[1 + i], &rt->dc[i]);
	if (st)
		goto err_close;
	return GM_OK;

err_close:
	/* Nothing was created on the contexts: the close cannot refuse. */
	return umd_rt_close(rt) ? GM_ERR_BUSY : st;
err_free_rt:
	rt_free(rt);
	return st;
}

int umd_rt_close(struct umd_rt *rt)
{
	int st;

	for (unsigned i = 0; i < UMD_MAX_DC; i++) {
		if (!rt->dc[i])
			continue;
		st = umd_deferred_destroy(rt->dc[i]);
		if (st)
			return st;
		rt->dc[i] = NULL;
	}
	if (rt->dev) {
		st = umd_device_destroy(rt->dev);
		if (st)
			return st;
		rt->dev = NULL;
	}
	rt_free(rt);
	return GM_OK;
}

bool umd_rt_size_announced(const struct umd_rt *rt, enum umd_ht type, uint32_t size)
{
	for (uint32_t i = 0; i < rt->nsizes; i++)
		if (rt->sizes[i].type == type && rt->sizes[i].size == size)
			return true;
	return false;
}

static void obj_free(struct umd_rt *rt, struct umd_rt_obj *o)
{
	rt->free_id[rt->nfree++] = o->id;
	free(o->ic);
	free(o->row);
	free(o);
}

/* A new object of @type with an immediate handle of @size bytes (0: the
 * driver refused the arguments). */
static int obj_new(struct umd_rt *rt, enum umd_ht type, uint32_t size, struct umd_rt_obj **o)
{
	int st = umd_rt_error(rt, UMD_RT_IC);

	if (!size)
		return st ? st : GM_ERR_BAD_ARG;
	if (!rt->nfree)
		return GM_ERR_NO_MEM;
	*o = calloc(1, sizeof(**o));
	if (!*o)
		return GM_ERR_NO_MEM;
	(*o)->ic = line_alloc(size);
	if (!(*o)->ic) {
		free(*o);
		return GM_ERR_NO_MEM;
	}
	(*o)->type = type;
	(*o)->id = rt->free_id[--rt->nfree];
	return GM_OK;
}

static void ic_destroy(struct umd_rt *rt, struct umd_rt_obj *o)
{
	switch (o->type) {
	case UMD_HT_RESOURCE:
		umd_destroy_resource(rt->ic, o->ic);
		break;
	case UMD_HT_VIEW:
		umd_destroy_view(rt->ic, o->ic);
		break;
	default:
		umd_destroy_fill_state(rt->ic, o->ic);
		break;
	}
}

/* After the immediate create: SetError's verdict, then the deferred size
 * (checked against the table) and the row of deferred handles. */
static int obj_made(struct umd_rt *rt, struct umd_rt_obj *o)
{
	int st = umd_rt_error(rt, UMD_RT_IC);

	if (st) {
		obj_free(rt, o);
		return st;
	}
	o->dc_size = umd_calc_deferred_handle_size(rt->ic, o->type, o->ic);
	if (!umd_rt_size_announced(rt, o->type, o->dc_size)) {
		rt->bad_sizes++;
		st = GM_ERR_BAD_ARG;
	} else if (!rt->slab[0]) {
		o->row = line_alloc((size_t)o->dc_size * rt->ndc);
		st = o->row ? GM_OK : GM_ERR_NO_MEM;
	}
	if (st) {
		ic_destroy(rt, o);
		(void)umd_rt_error(rt, UMD_RT_IC);
		obj_free(rt, o);
	}
	return st;
}

int umd_rt_resource(struct umd_rt *rt, const struct fw_alloc_desc *surf, uint32_t nsurf,
		    struct umd_rt_obj **o)
{
	struct umd_resource_args a = { .surf = surf, .nsurf = nsurf };
	int st = obj_new(rt, UMD_HT_RESOURCE, umd_calc_private_resource_size(rt->ic, &a), o);

	if (st)
		return st;
	umd_create_resource(rt->ic, &a, (*o)->ic, NULL);
	return obj_made(rt, *o);
}

int umd_rt_view(struct umd_rt *rt, struct umd_rt_obj *res, uint32_t surface, struct umd_rt_obj **o)
{
	struct umd_view_args a = { .resource = res ? res->ic : NULL, .surface = surface };
	int st = obj_new(rt, UMD_HT_VIEW, umd_calc_private_view_size(rt->ic, &a), o);

	if (st)
		return st;
	(*o)->dep = res;
	umd_create_view(rt->ic, &a, (*o)->ic, NULL);
	return obj_made(rt, *o);
}

int umd_rt_fill_state(struct umd_rt *rt, uint64_t value, struct umd_rt_obj **o)
{
	struct umd_fill_state_args a = { .value = value };
	int st = obj_new(rt, UMD_HT_FILL_STATE, umd_calc_private_fill_state_size(rt->ic, &a), o);

	if (st)
		return st;
	umd_create_fill_state(rt->ic, &a, (*o)->ic, NULL);
	return obj_made(rt, *o);
}

/* Where @o's handle on deferred context @i lives. */
static void *dc_mem(const struct umd_rt *rt, uint32_t i, const struct umd_rt_obj *o)
{
	if (o->row)
		return o->row + (size_t)i * o->dc_size;
	return rt->slab[i] + (size_t)o->id * rt->stride;
}

void *umd_rt_handle(struct umd_rt *rt, uint32_t i, struct umd_rt_obj *o)
{
	void *h = dc_mem(rt, i, o);
	struct umd_view_args va = { 0 };
	uint32_t reports = rt->err[1 + i].count;

	if (rt->made[i][o->id])
		return h;
	switch (o->type) {
	case UMD_HT_RESOURCE:
		umd_create_resource(rt->dc[i], NULL, h, o->ic);
		break;
	case UMD_HT_VIEW:
		va.resource = umd_rt_handle(rt, i, o->dep);
		if (!va.resource)
			return NULL;
		umd_create_view(rt->dc[i], &va, h, o->ic);
		break;
	default:
		umd_create_fill_state(rt->dc[i], NULL, h, o->ic);
		break;
	}
	if (rt->err[1 + i].count != reports)
		return NULL;
	rt->made[i][o->id] = 1;
	return h;
}

int umd_rt_forget(struct umd_rt *rt, uint32_t i, struct umd_rt_obj *o)
{
	void *h = dc_mem(rt, i, o);
	int st;

	if (!rt->made[i][o->id])
		return GM_OK;
	switch (o->type) {
	case UMD_HT_RESOURCE:
		umd_destroy_resource(rt->dc[i], h);
		break;
	case UMD_HT_VIEW:
		umd_destroy_view(rt->dc[i], h);
		break;
	default:
		umd_destroy_fill_state(rt->dc[i], h);
		break;
	}
	st = umd_rt_error(rt, (int)i);
	if (!st)
		rt->made[i][o->id] = 0;
	return st;
}

int umd_rt_destroy(struct umd_rt *rt, struct umd_rt_obj *o)
{
	int st;

	for (uint32_t i = 0; i < rt->ndc; i++) {
		st = umd_rt_forget(rt, i, o);
		if (st)
			return st;
	}
	ic_destroy(rt, o);
	st = umd_rt_error(rt, UMD_RT_IC);
	if (st)
		return st;
	obj_free(rt, o);
	return GM_OK;
}
