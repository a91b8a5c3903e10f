/* SPDX-License-Identifier: MIT */
/*
 * umd_int.h - what the user-mode driver's files share (umd_obj.c objects
 * and handles, umd_rec.c contexts' memory and recording, umd_exec.c
 * execution).  Not for clients: they include umd.h.
 */
#ifndef UMD_INT_H
#define UMD_INT_H

#include <stdatomic.h>
#include <stddef.h>

#include "fw_umd.h"
#include "umd.h"

#define UMD_MAGIC 0x554d4400u   /* | type: a live handle; 0 once destroyed */

/* One surface of a resource as the recording needs it (read-only). */
struct umd_surf {
	uint32_t handle;         /* device-local allocation handle */
	uint32_t width, height;  /* elements, rows */
	uint32_t pitch;          /* bytes per row */
	uint8_t mode, bpe_log2;  /* enum gpu_tile_mode, log2 bytes per element */
	uint64_t size;           /* bytes */
};

/*
 * The read-only object data, shared by every context through the link.
 * Written by the immediate context's create only, before any deferred
 * handle links to it.
 */
struct umd_obj {
	enum umd_ht type;
	uint32_t id;             /* index in the deferred contexts' live maps */
	struct umd_device *dev;
	const struct umd_obj *dep; /* a view's resource */
	uint32_t surface;        /* a view's surface */
	uint64_t value;          /* a fill state's pattern */
	struct fw_resource *kres;  /* a resource's kernel resource */
	uint32_t nsurf;
	struct umd_surf surf[];  /* a resource's surfaces */
};

/*
 * The per-context part of a handle: the whole of a deferred handle, the
 * head of an immediate one.  Only its context's thread writes it.
 */
struct umd_hctx {
	uint32_t magic;          /* UMD_MAGIC | type while live */
	uint32_t ndeps;          /* live dependent handles (views) in this context */
	struct umd_ctx *ctx;
	const struct umd_obj *obj;
	struct umd_hctx *dep;    /* the context-local handle of the dependency */
	uint64_t uses;           /* recording calls that named it here */
	atomic_uint listed;      /* commands naming it in lists not destroyed yet (the
				  * one being recorded too); a list may be destroyed on
				  * any thread, hence atomic */
};

enum umd_op { UMD_OP_SET_FILL = 1, UMD_OP_COPY_RES, UMD_OP_BLT, UMD_OP_FILL };

/* One recorded command; objects already resolved to their shared data. */
struct umd_cmd {
	enum umd_op op;
	const struct umd_obj *dst, *src; /* views (BLT, FILL), resources (COPY_RES) */
	struct umd_hctx *hdst, *hsrc;    /* their handles in the recording context (listed) */
	uint32_t dx, dy, sx, sy, w, h;
	uint64_t value;          /* SET_FILL */
};

struct umd_chunk {
	struct umd_chunk *next;
	uint32_t n;
	struct umd_cmd cmd[UMD_CHUNK_CMDS];
};

struct umd_list {
	struct umd_ctx *owner;   /* its chunks go back to this context's pool */
	struct umd_chunk *head, *tail;
	uint32_t ncmd;
};

/* A context; allocated as whole cache lines so two never share one. */
struct umd_ctx {
	struct umd_device *dev;
	bool immediate;
	umd_set_error_fn set_error;
	void *core;
	uint64_t nallocs, fail_at;  /* allocations made; the one to fail (0: none) */
	struct umd_chunk *pool;  /* free chunks, taken by this context's thread only */
	_Atomic(struct umd_chunk *) returned; /* chunks of destroyed lists, pushed by any thread */
	atomic_uint lists;       /* lists of this context not destroyed yet */
	struct umd_list *rec;    /* being recorded, NULL before the first command */
	int rec_err;             /* GM_ERR_NO_MEM since the last finish (deferred) */
	uint32_t nlive;          /* live handles of this deferred context */
	_Atomic uint8_t *live;   /* deferred: 1 per object id with a handle here */
	uint64_t exec_fill;      /* immediate: the fill value its executed commands left bound */
};

struct umd_device {
	struct umd_device_cfg cfg;
	struct umd_ctx *ic;
	struct umd_ctx *dc[UMD_MAX_DC];
	uint32_t nobj;
	uint32_t *free_id;       /* stack of free object ids */
	uint32_t nfree;
	/* umd_exec.c: the immediate context's submissions */
	struct fw_kmd *k;        /* NULL: record only */
	int (*flush)(struct umd_ctx *ic); /* umd_flush, set with k (umd_obj.c links without it) */
	struct fw_umd *cb;
	struct fw_dmabuf *scratch;
	uint32_t fence;
	uint64_t fence_value;
	uint64_t submits;
};

/* Report @st through @ctx's SetError; returns @st. */
int umd_error(struct umd_ctx *ctx, int st);

/* Give back @ctx's chunk pool (the context goes). */
void umd_ctx_pool_free(struct umd_ctx *ctx);

/* Bytes of the per-context part of a handle: a line, or unpadded. */
size_t umd_hctx_bytes(const struct umd_device *dev);

/* The live handle @h of @ctx of type @type, or NULL. */
struct umd_hctx *umd_handle(struct umd_ctx *ctx, void *h, enum umd_ht type);

/* The command buffers of a list: umd_exec.c. */
int umd_exec(struct umd_ctx *ic, const struct umd_list *list, uint64_t *fill);

#endif /* UMD_INT_H */
