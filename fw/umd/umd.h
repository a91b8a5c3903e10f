/* SPDX-License-Identifier: MIT */
/*
 * umd.h - the user-mode display driver with an immediate context and
 * deferred contexts (D3D11 deferred-context handles, CalcDeferredContextHandleSize).
 *
 * Every object (resource, view, fill state) has one handle per context that
 * uses it: the immediate context's, made first and destroyed last, and one
 * per deferred context, made by the runtime "opening" the object there with
 * the immediate-context handle as the link.  The runtime owns the handle
 * memory; the driver says how much it needs:
 *
 *   umd_calc_private_*_size      bytes of the immediate-context handle;
 *   umd_check_deferred_handle_sizes
 *                                at device creation, twice (count, then
 *                                array): every deferred-context handle size
 *                                the driver will ever ask for, by type;
 *   umd_calc_deferred_handle_size
 *                                right after the immediate-context create:
 *                                the size of this object's deferred handles
 *                                (always one of the announced sizes).
 *
 * Data layout.  An immediate-context handle is [per-context data | read-only
 * object data]; the read-only part (surfaces, allocation handles, the view's
 * surface, the fill value) is shared by every context through the link and
 * never duplicated.  A deferred-context handle holds only per-context data
 * (the link, the context-local dependency, counters the recording writes).
 * With padding on (the default) every per-context part is UMD_PAD_BYTES (two
 * cache lines), handle memory must be aligned to it, and the read-only data
 * starts on a line pair of its own, so no two contexts (nor a context and the shared
 * data) ever write the same line.  umd_device_cfg.unpadded drops the padding,
 * only to measure what false sharing costs (`gpusim bench`).
 *
 * Errors.  Create, destroy and recording calls return nothing, as the DDI
 * does: they report through the context's SetError callback (pfnSetErrorCb
 * on the core-layer handle for the immediate context, the deferred
 * context's own for a deferred one) and change nothing.  Codes, one to one
 * with the HRESULTs: GM_ERR_NO_MEM = E_OUTOFMEMORY, GM_ERR_BAD_ARG =
 * E_INVALIDARG (also every ordering violation: a deferred handle before the
 * immediate one or twice in a context, a view before its resource in that
 * context, a resource destroyed before its views, an immediate handle
 * destroyed while a deferred handle lives, a handle destroyed while a
 * command list that names it lives).  Out of memory in a deferred
 * context's recording call throws the partial command list away; later
 * calls are ignored until umd_finish_command_list, which returns
 * GM_ERR_NO_MEM; the immediate context and other deferred contexts are not
 * affected.
 *
 * Command lists and object lifetime.  A recorded command reads its
 * objects' data (in the runtime's handle memory) when the list executes.
 * The D3D runtime keeps the objects a command list names alive until the
 * list is destroyed; this driver holds it to that rather than copy or
 * reference-count what it would need: destroying a handle that a live
 * command list of its deferred context names (or that context's recording,
 * not yet finished) is refused with E_INVALIDARG, nothing
 * released - and so is the immediate handle, while that deferred handle
 * lives.  The choice is to refuse, not to keep the object alive, because
 * the handle memory is the runtime's: after an accepted destroy the
 * runtime frees it, and nothing the driver keeps could make the list's
 * reads of it valid.  umd_list_destroy lets the objects go.  The immediate
 * context's own recording (not a command list) is flushed instead when an
 * object it names is destroyed: its commands run before the object goes,
 * in the order the application asked for.  A device records only until a
 * pipeline is attached, so attaching is refused once the immediate context
 * has recorded commands (they may name objects destroyed since).
 *
 * Threads.  Each context is used by one thread at a time; deferred contexts
 * record concurrently on any threads (pure CPU work on user-mode data).
 * Object creation and destruction on the immediate context, and
 * umd_execute_command_list / umd_flush (the kernel pipeline and the model,
 * single-threaded) run on the immediate context's thread only.  The
 * runtime orders an object's immediate-context create before, and its
 * destroy after, every use on another thread (a join, a lock).
 */
#ifndef UMD_H
#define UMD_H

#include <stdbool.h>
#include <stdint.h>

#include "fw_kmd.h"
#include "gm_status.h"

#define UMD_CACHE_LINE 64u      /* bytes */
/* The padding unit: a line and its neighbour.  Intel's adjacent-line
 * prefetcher moves lines in 128-byte aligned pairs, so two contexts'
 * data one line apart still contend (`gpusim bench`, handles of two
 * contexts side by side, one run on an idle 2-core host: 2 threads at
 * 0.82x of 1 with 64-byte padding, 1.17x with 128). */
#define UMD_PAD_BYTES 128u
#define UMD_MAX_DC 16u          /* deferred contexts per device */
#define UMD_RES_SURF_MAX 16u    /* surfaces per resource */
#define UMD_CHUNK_CMDS 8u       /* commands per command-list chunk (one allocation each) */

/* Handle types (D3D10DDI_HT_*). */
enum umd_ht {
	UMD_HT_RESOURCE = 1,
	UMD_HT_VIEW,
	UMD_HT_FILL_STATE,
	UMD_HT_COUNT
};

/* One entry of CheckDeferredContextHandleSizes (D3D11DDI_HANDLESIZE). */
struct umd_handle_size {
	enum umd_ht type;
	uint32_t size;           /* bytes */
};

/* pfnSetErrorCb: @core is the core-layer handle given with the context. */
typedef void (*umd_set_error_fn)(void *core, int status);

struct umd_device;
struct umd_ctx;
struct umd_list;

struct umd_device_cfg {
	struct fw_device *kdev;  /* the kernel device the resources live on */
	uint32_t max_objects;    /* live objects at once, 1..1<<20 */
	bool unpadded;           /* no cache-line padding (benchmarks only) */
	umd_set_error_fn set_error; /* the immediate context's */
	void *core;
};

/* CreateResource: the surfaces (surface memory, pfnAllocateCb: one allocation each). */
struct umd_resource_args {
	const struct fw_alloc_desc *surf;
	uint32_t nsurf;          /* 1..UMD_RES_SURF_MAX */
};

/* CreateView: a view of surface @surface of @resource (a handle of the same
 * context).  On a deferred context only @resource is set, @surface is 0. */
struct umd_view_args {
	void *resource;
	uint32_t surface;
};

/* CreateFillState: the pattern FILL writes while the state is bound. */
struct umd_fill_state_args {
	uint64_t value;
};

struct umd_stats {
	uint32_t objects;        /* live objects (immediate-context handles) */
	uint32_t deferred;       /* live deferred contexts */
	uint64_t submits;        /* command buffers handed to the pipeline */
};

/*
 * Make a device and its immediate context (*ic).  GM_OK; GM_ERR_BAD_ARG
 * (NULL, no kernel device, max_objects out of range); GM_ERR_NO_MEM;
 * GM_ERR_FULL and the codes of fw_mfence_create (its fence).  Nothing made
 * on error.
 */
int umd_device_create(const struct umd_device_cfg *cfg, struct umd_device **dev,
		      struct umd_ctx **ic) GM_MUST_CHECK;

/*
 * Attach the pipeline that executes (umd_exec.c; a device without one
 * records only): the command buffer, its scratch DMA buffer and the
 * device's monitored fence on the kernel device.  GM_OK; GM_ERR_BAD_ARG
 * (NULL, attached already, the immediate context recorded commands
 * before); GM_ERR_NO_MEM; the codes of fw_mfence_create.
 * Nothing changed on error.
 */
int umd_device_attach(struct umd_device *dev, struct fw_kmd *k) GM_MUST_CHECK;

/* Free the device.  GM_OK; GM_ERR_BAD_ARG (NULL); GM_ERR_BUSY while a
 * deferred context or an object lives (nothing freed). */
int umd_device_destroy(struct umd_device *dev) GM_MUST_CHECK;

void umd_device_stats(const struct umd_device *dev, struct umd_stats *st);

/* CreateDeferredContext / DestroyDeferredContext.  GM_OK; GM_ERR_BAD_ARG;
 * GM_ERR_FULL (UMD_MAX_DC); GM_ERR_NO_MEM; destroy: GM_ERR_BUSY while one of
 * its handles or a command list it finished lives (their memory is the
 * context's; nothing freed); a list being recorded is dropped. */
int umd_deferred_create(struct umd_device *dev, umd_set_error_fn set_error, void *core,
			struct umd_ctx **dc) GM_MUST_CHECK;
int umd_deferred_destroy(struct umd_ctx *dc) GM_MUST_CHECK;

/*
 * Fault injection: the @n-th host allocation @ctx makes from now fails (1:
 * the next; 0: none).  Counts the allocations of its recording calls (and,
 * on the immediate context, of object creation).
 */
void umd_ctx_fail_alloc(struct umd_ctx *ctx, uint64_t n);
/* Host allocations @ctx made so far. */
uint64_t umd_ctx_allocs(const struct umd_ctx *ctx);

/*
 * CheckDeferredContextHandleSizes (immediate context): with @sizes NULL,
 * *n = the number of entries; else fills min(*n, count) entries and sets *n
 * to the count.  GM_OK; GM_ERR_BAD_ARG (NULL @ic / @n, a deferred context).
 */
int umd_check_deferred_handle_sizes(struct umd_ctx *ic, uint32_t *n, struct umd_handle_size *sizes)
	GM_MUST_CHECK;

/* CalcDeferredContextHandleSize: the size of @type's deferred handles for
 * the object of immediate-context handle @h; 0 for a bad argument (SetError
 * GM_ERR_BAD_ARG). */
uint32_t umd_calc_deferred_handle_size(struct umd_ctx *ic, enum umd_ht type, const void *h);

/* CalcPrivate*Size: bytes of the immediate-context handle; 0 for bad
 * arguments (SetError GM_ERR_BAD_ARG). */
uint32_t umd_calc_private_resource_size(struct umd_ctx *ic, const struct umd_resource_args *a);
uint32_t umd_calc_private_view_size(struct umd_ctx *ic, const struct umd_view_args *a);
uint32_t umd_calc_private_fill_state_size(struct umd_ctx *ic, const struct umd_fill_state_args *a);

/*
 * Create*: on the immediate context @a describes the object, @link is NULL
 * and @h (CalcPrivate*Size bytes) becomes its handle; the resource's
 * allocations are made on the kernel device.  On a deferred context @a is
 * NULL (a view: only .resource, the context-local resource handle), @link
 * is the immediate-context handle and @h (CalcDeferredContextHandleSize
 * bytes) becomes the context-local handle.  Destroy* release a handle of
 * @ctx.  Errors through SetError, nothing made or released.
 */
void umd_create_resource(struct umd_ctx *ctx, const struct umd_resource_args *a, void *h, void *link);
void umd_destroy_resource(struct umd_ctx *ctx, void *h);
void umd_create_view(struct umd_ctx *ctx, const struct umd_view_args *a, void *h, void *link);
void umd_destroy_view(struct umd_ctx *ctx, void *h);
void umd_create_fill_state(struct umd_ctx *ctx, const struct umd_fill_state_args *a, void *h,
			   void *link);
void umd_destroy_fill_state(struct umd_ctx *ctx, void *h);

/*
 * Recording (handles of @ctx).  CopyResource: every surface of @src to the
 * same surface of @dst (the smaller of the two rectangles); BLT: a w x h
 * element rectangle between two views; FILL: a rectangle of a view with the
 * bound fill state's value (0 when none is bound).  Errors through SetError:
 * GM_ERR_BAD_ARG (nothing recorded); GM_ERR_NO_MEM (a deferred context: the
 * partial list is thrown away).
 */
void umd_set_fill_state(struct umd_ctx *ctx, void *state);
void umd_copy_resource(struct umd_ctx *ctx, void *dst, void *src);
void umd_blt(struct umd_ctx *ctx, void *dst_view, uint32_t dx, uint32_t dy, void *src_view,
	     uint32_t sx, uint32_t sy, uint32_t w, uint32_t h);
void umd_fill(struct umd_ctx *ctx, void *view, uint32_t x, uint32_t y, uint32_t w, uint32_t h);

/*
 * FinishCommandList (deferred context): close what was recorded into *list
 * and start an empty one.  GM_OK; GM_ERR_BAD_ARG (NULL, the immediate
 * context); GM_ERR_NO_MEM: a recording call ran out of memory since the
 * last finish: the partial list was thrown away, *list is NULL, the context
 * records again from empty.
 */
int umd_finish_command_list(struct umd_ctx *dc, struct umd_list **list) GM_MUST_CHECK;

/* Commands in @list. */
uint32_t umd_list_commands(const struct umd_list *list);

/* DestroyCommandList.  NULL is a no-op. */
void umd_list_destroy(struct umd_list *list);

/*
 * ExecuteCommandList (immediate context): turn @list into command buffers
 * with allocation and patch lists (fw_umd) and submit them through the
 * pipeline (fw_kmd_submit_cmdbuf), in order after what the immediate
 * context recorded before (flushed first).  The list stays valid and may
 * be executed again.  GM_OK; GM_ERR_BAD_ARG (NULL, a deferred context, no
 * pipeline); the codes of fw_kmd_submit_cmdbuf (the command buffers before
 * the failing one submitted).
 */
int umd_execute_command_list(struct umd_ctx *ic, const struct umd_list *list) GM_MUST_CHECK;

/* Flush: submit what the immediate context recorded.  Codes as above. */
int umd_flush(struct umd_ctx *ic) GM_MUST_CHECK;

/* Flush and wait up to @budget cycles until the GPU did everything
 * submitted.  Codes of umd_flush and fw_mfence_wait. */
int umd_wait_idle(struct umd_ctx *ic, uint64_t budget) GM_MUST_CHECK;

/* The allocation handle of surface @surf of the resource of handle @h
 * (any context); 0 when there is none. */
uint32_t umd_resource_alloc(const void *h, uint32_t surf);

#endif /* UMD_H */
