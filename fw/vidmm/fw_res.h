/* SPDX-License-Identifier: MIT */
/*
 * fw_res.h - allocations, resources, devices and their handles: the video
 * memory manager's objects (pfnAllocateCb's allocations, the surface-memory
 * rules) without any GPU traffic.
 *
 * Three layers of objects, as in WDDM:
 *
 *   adapter   the video memory manager: segments (fw_mem.h), every kernel
 *             resource and allocation, the global share handles, the devices.
 *   kernel    struct fw_kres (one per CreateResource) holds one struct
 *             fw_alloc per surface: layout, private driver data, residency.
 *             Reference-counted by the user-mode resources that use it;
 *             destroyed, and its memory released, on the last close.
 *   device    struct fw_device, one per process that opens the adapter.  It
 *             owns a handle table: each handle is device-local and resolves
 *             to a kernel allocation (fw_res_get_handle_data, the
 *             DxgkCbGetHandleData role).  struct fw_resource is the user-mode
 *             driver's resource: the surface -> allocation-handle table.
 *
 * A resource made with shared=true gets a global share handle; another
 * device opens it with fw_res_open and gets its own handles (pfnAllocateCb
 * is called once per device for a shared surface) that resolve to the same
 * kernel allocations.
 *
 * Handles are nonzero 32-bit values: bits 31:24 the device's tag (so a
 * handle of one device is refused by another), 23:20 a generation (so a
 * stale handle is refused until its slot has been reused 16 times), 19:0
 * the slot index + 1.
 *
 * Device removal (TDR, PnP stop): after fw_device_mark_removed every call
 * that names the device or one of its resources returns
 * GM_ERR_DEVICE_REMOVED and changes nothing - except fw_device_destroy,
 * which always releases the device and everything it holds.  The removed
 * check comes right after the NULL check of the device/resource, before
 * the other arguments are looked at.
 *
 * Residency is bookkeeping for the paging layer (fw_residency.h).
 *
 * No globals; not thread-safe; all memory comes from the adapter's host heap.
 */
#ifndef FW_RES_H
#define FW_RES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gpu_tile.h"
#include "fw_mem.h"
#include "gm_status.h"
#include "gpu_hw.h"

#define FW_MAX_SEGS 8u          /* segments per adapter */
#define FW_MAX_DEVICES 255u     /* live devices per adapter (the handle's tag byte) */
#define FW_HANDLE_MAX 0xfffffu  /* live handles per device (the handle's index field) */
#define FW_SLOT_NONE UINT32_MAX /* end of a device's free-slot list */
#define FW_SURF_MAX 4096u       /* surfaces per resource */
#define FW_PRIV_MAX 256u        /* bytes of private driver data per allocation */

/*
 * One surface to allocate (D3DDDI_ALLOCATIONINFO).  The layout must be one
 * the copy engine can address (gpu_tile.h is the geometry): rows of @pitch
 * bytes holding @width elements, the pitch a multiple of the element
 * (LINEAR) or of the tile width; tiled sizes a multiple of the tile; @size
 * at least gpu_tile_surface_bytes (@pitch * @height, tiled: @height rounded
 * up to whole tile rows).
 */
#define FW_MAX_MIPS 8u /* MIP levels of one surface */

/* One MIP level of a surface, in its tile mode and element size: @height
 * rows of @pitch bytes from byte @offset of the allocation (whole tiles). */
struct fw_mip {
	uint64_t offset;
	uint32_t pitch, height;
};

struct fw_alloc_desc {
	uint64_t size;           /* bytes */
	uint32_t width;          /* elements per row, >= 1 */
	uint32_t height;         /* rows, >= 1 (a buffer is one row) */
	uint32_t pitch;          /* bytes per row, >= width << bpe_log2 */
	uint32_t bpe_log2;       /* log2 of bytes per element, 0..GPU_TILE_BPE_LOG2_MAX */
	uint32_t format;         /* free-form format code, kept as given */
	enum gpu_tile_mode tile; /* GPU_TILE_* */
	bool cpu_visible;        /* may only be placed in a CPU-visible segment */
	bool pinned;             /* once placed, never moved or evicted */
	bool dynamic;            /* D3D10_DDI_USAGE_DYNAMIC (pfnLockCb: dynamic vertex and index
				  * buffers, locked often, NoOverwrite): lives in the system
				  * segment and the GPU uses it there, never paged into VRAM */
	bool vram_only;          /* the GPU may use it only from VRAM (its supported segment set
				  * leaves out the system segment): rendering from it while the
				  * CPU holds it raw in VRAM fails with CANTRENDERLOCKEDALLOCATION */
	const void *priv;        /* private driver data, copied; may be NULL when priv_bytes is 0 */
	uint32_t priv_bytes;     /* 0..FW_PRIV_MAX */
	uint32_t mip_levels;     /* 0 or 1: one level, the surface itself; 2..FW_MAX_MIPS: mip[] */
	struct fw_mip mip[FW_MAX_MIPS]; /* with 2 or more levels, each one: pitch as @pitch's
					 * rules, in offset order, not overlapping, within @size */
};

struct fw_adapter;
struct fw_kres;

/* Where an allocation lives. */
struct fw_loc {
	unsigned seg_id;         /* FW_SEG_NONE: nowhere */
	uint64_t addr;           /* physical address; 0 with FW_SEG_NONE */
};

/*
 * The kernel allocation object: what a handle resolves to.  The paging
 * layer reads it freely and writes only the fields marked so; the others
 * change through the functions below.
 */
struct fw_alloc {
	struct fw_kres *kres;    /* the kernel resource it belongs to */
	uint64_t serial;         /* creation order on the adapter (LRU tie-break) */
	unsigned refs;           /* device-local handles resolving to it */
	struct fw_alloc_desc d;  /* as created; d.priv points at priv[]; `pinned` is the live flag */
	uint8_t priv[FW_PRIV_MAX];
	uint64_t align;          /* placement alignment, bytes: a page, or 64 KiB for SS64K */
	/* Residency. */
	struct fw_loc loc;       /* where the bytes are now */
	bool resident;           /* in a segment: loc.seg_id != FW_SEG_NONE */
	bool pinned;             /* from d.pinned; the paging layer may change it */
	/* Written by the paging layer: */
	uint64_t last_use;       /* LRU stamp, e.g. the last fence that used it */
	bool content_valid;      /* the bytes must survive a move; false when made or discarded */
	uint64_t paging_buf;     /* the paging buffer (fw_paging_state.nbufs numbering) of its
				  * last move or fill; 0: none */
	/* Discard renaming (fw_lock.c, fw_sched.c): */
	struct fw_alloc *inst_of; /* the allocation this is an instance of; NULL: itself */
	uint64_t inst_seq;       /* when handed out, in its family: references go up in it */
	uint64_t inst_next;      /* family head only: the next inst_seq to hand out - 1 */
	uint64_t inst_done;      /* family head only: highest inst_seq a submission referenced */
};

/* The allocation heading @a's family of Discard instances. */
static inline struct fw_alloc *fw_alloc_family(struct fw_alloc *a)
{
	return a->inst_of ? a->inst_of : a;
}

/* An instance a Discard lock made, and the handle it was given. */
struct fw_res_inst {
	uint32_t h;
	struct fw_alloc *a;
};

/* A kernel resource: the allocations of one CreateResource. */
struct fw_kres {
	struct fw_adapter *ad;
	uint32_t share;          /* global share handle; 0: not shared */
	unsigned opens;          /* fw_resources, on any device, that use it */
	size_t nalloc;
	struct fw_alloc **alloc; /* one per surface */
	size_t ninst;
	struct fw_alloc **inst;  /* Discard instances of them (fw_res_instance_new) */
	struct fw_kres *prev, *next; /* the adapter's list */
};

/* Allocation @i of @k: its surfaces' (i < nalloc), then their instances. */
static inline struct fw_alloc *fw_kres_alloc_at(const struct fw_kres *k, size_t i)
{
	return i < k->nalloc ? k->alloc[i] : k->inst[i - k->nalloc];
}

struct fw_handle_slot {
	struct fw_alloc *a;      /* NULL: free */
	uint32_t gen;            /* bumped on every release; part of the handle */
	uint32_t next_free;      /* free-list link while free */
};

/* A WDDM device: one per process (or runtime device) on the adapter. */
struct fw_device {
	struct fw_adapter *ad;
	uint32_t tag;            /* 1..FW_MAX_DEVICES, bits 31:24 of its handles */
	bool removed;
	struct fw_handle_slot *slot;
	uint32_t nslot, cap;     /* slots ever used / allocated */
	uint32_t free_head;      /* first free slot below nslot, FW_SLOT_NONE: none */
	uint32_t nhandles;       /* live handles */
	size_t nres;
	struct fw_resource *res; /* resources created or opened here */
	struct fw_device *prev, *next; /* the adapter's list */
};

/* The user-mode driver's resource object for a list of surfaces. */
struct fw_resource {
	struct fw_device *dev;
	struct fw_kres *kres;
	size_t nsurf;
	uint32_t *handle;        /* surface index -> device-local allocation handle */
	struct fw_res_inst *inst; /* Discard instances of its surfaces, released with it */
	size_t ninst;
	struct fw_resource *prev, *next; /* the device's list */
};

/*
 * Told before a device-local handle is released (DestroyResource, device
 * close), while its allocation still exists: the layer above lets go of
 * what it holds through that handle (the pipeline: a Lock's aperture
 * range).  GM_OK, or an error after which it still holds it.
 */
typedef int (*fw_release_fn)(void *ctx, const struct fw_device *dev, uint32_t handle);

struct fw_adapter {
	struct fw_host_mem host;
	fw_release_fn release;   /* NULL: nothing above holds handles */
	void *release_ctx;
	bool closing;            /* fw_adapter_fini runs: nothing waits for the GPU */
	struct fw_seg seg[FW_MAX_SEGS];
	unsigned nseg;
	struct fw_device *dev;   /* live devices */
	size_t ndev;
	bool tag_used[FW_MAX_DEVICES + 1];
	struct fw_kres *kres;    /* live kernel resources */
	size_t nkres, nalloc;
	uint64_t next_serial;
	uint32_t next_share;
};

struct fw_adapter_stats {
	size_t ndevices;
	size_t nkres;            /* live kernel resources */
	size_t nallocs;          /* live kernel allocations */
};

struct fw_device_stats {
	uint32_t nhandles;       /* live allocation handles */
	size_t nresources;
};

/*
 * Make an adapter with no segments or devices; @host NULL = the C library
 * (both functions set or both NULL).  GM_OK; GM_ERR_BAD_ARG (NULL, half-set
 * @host; *ad not written).
 */
int fw_adapter_init(struct fw_adapter *ad, const struct fw_host_mem *host) GM_MUST_CHECK;

/* Destroy every device still open (releasing all resources), then the
 * segments.  NULL is a no-op. */
void fw_adapter_fini(struct fw_adapter *ad);

/* Install the layer above's fw_release_fn (NULL: none).  NULL @ad is a no-op. */
void fw_adapter_on_release(struct fw_adapter *ad, fw_release_fn fn, void *ctx);

/*
 * Add a segment (fw_seg_init's rules).  GM_OK; GM_ERR_BAD_ARG (NULL, a bad
 * @desc, an id already used, a range overlapping another segment);
 * GM_ERR_FULL (FW_MAX_SEGS already).  Nothing changed on error.
 */
int fw_adapter_add_seg(struct fw_adapter *ad, const struct fw_seg_desc *desc) GM_MUST_CHECK;

/* The segment with id @id, or NULL (unknown id, NULL @ad); like strchr,
 * const in and mutable out, for the query paths and the updating ones. */
struct fw_seg *fw_adapter_seg(const struct fw_adapter *ad, unsigned id);

/* Fill *st.  GM_OK; GM_ERR_BAD_ARG for NULL (nothing written). */
int fw_adapter_get_stats(const struct fw_adapter *ad, struct fw_adapter_stats *st) GM_MUST_CHECK;

/*
 * Open a device on @ad; *out is the new device.  GM_OK; GM_ERR_BAD_ARG
 * (NULL); GM_ERR_FULL (FW_MAX_DEVICES open); GM_ERR_NO_MEM.  Nothing
 * changed on error.
 */
int fw_device_create(struct fw_adapter *ad, struct fw_device **out) GM_MUST_CHECK;

/*
 * Close @dev: destroy its resources (each kernel resource is destroyed when
 * its last user goes), free its handles and the device.  Works on a removed
 * device.  NULL is a no-op.  The layer above is told of every handle
 * (fw_release_fn) and cannot refuse here: the pipeline's close
 * (fw_kmd_device_destroy) lets go of the device's locks first, reporting
 * a refusal, so a refusal here is a broken invariant (assert).
 */
void fw_device_destroy(struct fw_device *dev);

/*
 * Mark @dev removed (TDR).  GM_OK; GM_ERR_BAD_ARG (NULL);
 * GM_ERR_DEVICE_REMOVED when it already was.
 */
int fw_device_mark_removed(struct fw_device *dev) GM_MUST_CHECK;

/* True when @dev was marked removed (false for NULL). */
bool fw_device_is_removed(const struct fw_device *dev);

/* Fill *st.  GM_OK; GM_ERR_BAD_ARG; GM_ERR_DEVICE_REMOVED (nothing written). */
int fw_device_get_stats(const struct fw_device *dev, struct fw_device_stats *st) GM_MUST_CHECK;

/*
 * CreateResource: make a kernel resource with one allocation per entry of
 * @surf (via pfnAllocateCb, which gives @dev one handle per allocation) and
 * the user-mode resource holding the surface -> handle table.  With
 * @shared the resource gets a global share handle (fw_res_share_handle).
 * The allocations start in no segment with content_valid false.
 * GM_OK and *out; GM_ERR_BAD_ARG (NULL, @nsurf 0 or > FW_SURF_MAX, a
 * surface fw_alloc_desc refuses); GM_ERR_DEVICE_REMOVED; GM_ERR_FULL (the
 * device's handle table cannot take @nsurf more); GM_ERR_NO_MEM.  Nothing
 * changed on error.
 */
int fw_res_create(struct fw_device *dev, const struct fw_alloc_desc *surf, size_t nsurf, bool shared,
		  struct fw_resource **out) GM_MUST_CHECK;

/*
 * OpenResource: open the shared resource @share on @dev; *out gets new
 * device-local handles to the same kernel allocations (each one's refs and
 * the kernel resource's opens go up by one).  GM_OK; GM_ERR_BAD_ARG (NULL,
 * no live resource has that share handle); GM_ERR_DEVICE_REMOVED;
 * GM_ERR_FULL (handle table); GM_ERR_NO_MEM.  Nothing changed on error.
 */
int fw_res_open(struct fw_device *dev, uint32_t share, struct fw_resource **out) GM_MUST_CHECK;

/*
 * DestroyResource: tell the layer above that @res's handles go (a Lock made
 * through one ends: its range unmapped, the pin released), release them
 * and free @res; the kernel resource is destroyed (its segment ranges
 * freed) when this was its last user.  GM_OK; GM_ERR_BAD_ARG (NULL);
 * GM_ERR_DEVICE_REMOVED (nothing released: fw_device_destroy does it); the
 * layer above's refusal (GM_ERR_HW: an aperture range refused to unmap;
 * the codes of its wait for the GPU to finish with an allocation a pending
 * submission uses, GM_ERR_TIMEOUT among them): @res kept, with the locks
 * from that handle on.
 */
int fw_res_destroy(struct fw_resource *res) GM_MUST_CHECK;

/*
 * The allocation handle of surface @surf of @res.  GM_OK; GM_ERR_BAD_ARG
 * (NULL, @surf out of range); GM_ERR_DEVICE_REMOVED.
 */
int fw_res_surface_handle(const struct fw_resource *res, size_t surf, uint32_t *handle)
	GM_MUST_CHECK;

/*
 * The global share handle of @res.  GM_OK; GM_ERR_BAD_ARG (NULL, not
 * shared); GM_ERR_DEVICE_REMOVED.
 */
int fw_res_share_handle(const struct fw_resource *res, uint32_t *share) GM_MUST_CHECK;

/*
 * DxgkCbGetHandleData: the kernel allocation @handle names on @dev.  GM_OK
 * and *out; GM_ERR_BAD_ARG (NULL, a handle that is not live on @dev:
 * another device's, released, never made); GM_ERR_DEVICE_REMOVED.  *out is
 * written only on GM_OK.
 */
int fw_res_get_handle_data(const struct fw_device *dev, uint32_t handle, struct fw_alloc **out)
	GM_MUST_CHECK;

/* ---- for fw_lock.c */

/*
 * Discard renaming: a new instance of the allocation @handle names on @dev
 * (same description and private data, in no segment, content not valid),
 * with a new handle on @dev held by the resource that holds @handle and
 * released with it.  GM_OK, *out_h and *out; GM_ERR_BAD_ARG (NULL, a handle
 * not live, a shared resource's allocation: its other openers' handles
 * would not follow); GM_ERR_DEVICE_REMOVED; GM_ERR_FULL (handle table);
 * GM_ERR_NO_MEM.  Nothing changed on error.
 */
int fw_res_instance_new(struct fw_device *dev, uint32_t handle, uint32_t *out_h,
			struct fw_alloc **out) GM_MUST_CHECK;

/* The resource of @dev whose surface table or instances hold @handle; NULL: none. */
struct fw_resource *fw_res_holding(const struct fw_device *dev, uint32_t handle);

/* ---- for fw_residency.c */

/* Give back the segment range @a occupies.  The books hold it live there,
 * so the segment cannot refuse: a refusal is a broken invariant (assert). */
void fw_res_range_free(const struct fw_adapter *ad, const struct fw_alloc *a);

#endif /* FW_RES_H */
