/* SPDX-License-Identifier: MIT */
/*
 * umd_rt.h - a small Direct3D-runtime stand-in that drives the user-mode
 * driver (umd.h) exactly as the D3D11 deferred-context handle example does:
 *
 *   device create  CheckDeferredContextHandleSizes(&n, NULL), then with an
 *                  array of n: the table of deferred handle sizes;
 *   object create  CalcPrivate*Size, Create* on the immediate context,
 *                  CalcDeferredContextHandleSize (checked: one of the sizes
 *                  the table announced for that type);
 *   first use on a deferred context (on that context's thread)
 *                  Create* with HDEVICE = the deferred context, CONST
 *                  argument NULL (a view: only its resource's context-local
 *                  handle, the rest zero) and the immediate handle as link;
 *                  a view's resource is opened there first;
 *   object destroy every deferred handle, then the immediate one.
 *
 * Handle memory (the CLS allocator the table tunes): the immediate handle
 * on its own; deferred handles by default in one slab per deferred context,
 * a slot per object of the largest announced size, so a context's handles
 * are its own memory; with `interleaved`, the handles of one object in one
 * row of ndc slots of the size the driver gave, neighbouring contexts side
 * by side - where only the driver's padding keeps them off each other's
 * lines.  Slabs, slots, rows and handles are UMD_PAD_BYTES aligned.
 *
 * The device records only until the caller attaches the pipeline
 * (umd_device_attach(rt->dev, k)).  Each context's SetError lands in its own error slot (a cache line).
 * Object calls on the immediate context's thread; umd_rt_handle for
 * deferred context i on i's thread.
 */
#ifndef UMD_RT_H
#define UMD_RT_H

#include "umd.h"

#define UMD_RT_IC (-1)  /* the immediate context, where a context index is asked */

struct umd_rt_cfg {
	struct fw_device *kdev;
	uint32_t ndc;            /* deferred contexts, 1..UMD_MAX_DC */
	uint32_t max_objects;    /* 1..1<<20 */
	bool unpadded;           /* the driver's umd_device_cfg.unpadded */
	bool interleaved;        /* deferred handles in rows per object, not slabs per context */
};

/* A context's core-layer handle: what SetError told it. */
struct umd_rt_err {
	int last;                /* the last status reported, GM_OK: none */
	uint32_t count;          /* reports since the slot was last taken */
	char pad[UMD_PAD_BYTES - 8];
};

struct umd_rt {
	struct umd_device *dev;
	struct umd_ctx *ic;
	struct umd_ctx *dc[UMD_MAX_DC];
	uint32_t ndc, max_objects;
	uint32_t nsizes;
	struct umd_handle_size *sizes;  /* the CheckDeferredContextHandleSizes table */
	struct umd_rt_err *err;         /* [0] immediate, [1 + i] deferred context i */
	uint8_t *made[UMD_MAX_DC];      /* per deferred context: object id -> handle made */
	char *slab[UMD_MAX_DC];         /* per deferred context: its handles (not interleaved) */
	uint32_t stride;                /* bytes per slab slot: the largest announced size */
	uint32_t *free_id, nfree;
	uint32_t bad_sizes;             /* CalcDeferredContextHandleSize values not in the table */
};

/* An object as the runtime sees it. */
struct umd_rt_obj {
	enum umd_ht type;
	uint32_t id;
	struct umd_rt_obj *dep;  /* a view's resource */
	void *ic;                /* the immediate-context handle */
	uint32_t dc_size;        /* CalcDeferredContextHandleSize */
	char *row;               /* interleaved: ndc deferred handles of dc_size bytes */
};

/* Create the device (sizes asked twice) and @cfg->ndc deferred contexts.
 * GM_OK; GM_ERR_BAD_ARG; the first failing step's code (nothing left). */
int umd_rt_open(struct umd_rt *rt, const struct umd_rt_cfg *cfg) GM_MUST_CHECK;

/* Destroy the deferred contexts and the device (objects first:
 * umd_rt_destroy).  GM_OK or the first refusal (GM_ERR_BUSY). */
int umd_rt_close(struct umd_rt *rt) GM_MUST_CHECK;

/* True when the table announced @size for @type. */
bool umd_rt_size_announced(const struct umd_rt *rt, enum umd_ht type, uint32_t size);

/*
 * Create an object on the immediate context.  GM_OK and *o; the status the
 * driver reported through SetError (nothing left); GM_ERR_BAD_ARG for a
 * CalcDeferredContextHandleSize value not in the table (counted in
 * bad_sizes, the object destroyed again); GM_ERR_NO_MEM.
 */
int umd_rt_resource(struct umd_rt *rt, const struct fw_alloc_desc *surf, uint32_t nsurf,
		    struct umd_rt_obj **o) GM_MUST_CHECK;
int umd_rt_view(struct umd_rt *rt, struct umd_rt_obj *res, uint32_t surface, struct umd_rt_obj **o)
	GM_MUST_CHECK;
int umd_rt_fill_state(struct umd_rt *rt, uint64_t value, struct umd_rt_obj **o) GM_MUST_CHECK;

/* The handle of @o on deferred context @i, made on first use (a view's
 * resource first); NULL when the driver refused (umd_rt_error says why). */
void *umd_rt_handle(struct umd_rt *rt, uint32_t i, struct umd_rt_obj *o);

/* Destroy @o's handle on deferred context @i (on i's thread; a view's
 * before its resource's), if it has one.  GM_OK or the driver's refusal. */
int umd_rt_forget(struct umd_rt *rt, uint32_t i, struct umd_rt_obj *o) GM_MUST_CHECK;

/* Destroy @o: its deferred handles, then the immediate one.  GM_OK; the
 * driver's refusal (e.g. GM_ERR_BAD_ARG: a view of it still lives), with
 * the handles destroyed before it gone. */
int umd_rt_destroy(struct umd_rt *rt, struct umd_rt_obj *o) GM_MUST_CHECK;

/* Take context @ctx's last SetError status (UMD_RT_IC or a deferred index)
 * and clear it; GM_OK when none. */
int umd_rt_error(struct umd_rt *rt, int ctx);

#endif /* UMD_RT_H */
