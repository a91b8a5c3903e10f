/* SPDX-License-Identifier: MIT */
/*
 * fw_res.c - a device's handle table, kernel resources and allocations,
 * their Discard instances, and a device's destruction (see fw_res.h).  The
 * adapter, segments and device creation are in fw_adapter.c; residency
 * books in fw_residency.c.
 *
 * Every entry point checks its arguments, then makes every host allocation
 * it needs, and only then changes state, so an error leaves nothing behind.
 */
#include <assert.h>
#include <string.h>

#include "gpu_tile.h"
#include "fw_res.h"

#define PAGE_BYTES (1ull << GPU_PAGE_SHIFT)
#define SLOT_MIN_CAP 64u

/* Handle layout, see fw_res.h. */
#define H_TAG_SHIFT 24
#define H_GEN_SHIFT 20
#define H_GEN_MASK 0xfu
#define H_IDX_MASK FW_HANDLE_MAX

/* ------------------------------------------------------------------ layout */

/* @d's MIP levels, if any: each a surface of its own pitch and height in
 * @d's tile mode, tile-aligned, in offset order without overlap, within
 * @d->size. */
static bool mips_ok(const struct fw_alloc_desc *d, const struct gpu_tile_info *ti)
{
	uint64_t end = 0, bytes;

	if (d->mip_levels > FW_MAX_MIPS)
		return false;
	for (uint32_t i = 0; d->mip_levels >= 2 && i < d->mip_levels; i++) {
		const struct fw_mip *m = &d->mip[i];

		if (m->offset < end || m->height == 0 ||
		    (d->tile != GPU_TILE_LINEAR && m->offset % ti->tile_bytes) ||
		    gpu_tile_surface_bytes(d->tile, d->bpe_log2, m->pitch, m->height, &bytes) != GM_OK ||
		    m->offset + bytes > d->size)
			return false;
		end = m->offset + bytes;
	}
	return true;
}

/*
 * A surface the copy engine can address (see struct fw_alloc_desc).  The
 * tile geometry is gpu_tile's, the C oracle of the RTL swizzle unit.
 */
static bool desc_ok(const struct fw_alloc_desc *d)
{
	struct gpu_tile_info ti;
	uint64_t need;

	if (d->size == 0 || d->size > (1ull << GPU_PA_BITS) || d->width == 0 || d->height == 0)
		return false;
	if (d->priv_bytes > FW_PRIV_MAX || (d->priv_bytes && !d->priv))
		return false;
	if (d->dynamic && d->vram_only)
		return false; /* a dynamic buffer's home is the system segment */
	if (gpu_tile_info(d->tile, d->bpe_log2, &ti) != GM_OK)
		return false; /* unknown mode, bpe_log2 > 4 */
	if (((uint64_t)d->width << d->bpe_log2) > d->pitch)
		return false;
	if (gpu_tile_surface_bytes(d->tile, d->bpe_log2, d->pitch, d->height, &need) != GM_OK)
		return false; /* pitch 0 or not whole elements / tile widths */
	if (d->tile != GPU_TILE_LINEAR && d->size % ti.tile_bytes)
		return false;
	return need <= d->size && mips_ok(d, &ti);
}

/* Placement alignment: whole tiles, and at least a page so the GPU VA
 * mapping of the allocation starts on a page.  @d passed desc_ok. */
static uint64_t desc_align(const struct fw_alloc_desc *d)
{
	struct gpu_tile_info ti;

	gpu_tile_info(d->tile, d->bpe_log2, &ti);
	return ti.tile_bytes > PAGE_BYTES ? ti.tile_bytes : PAGE_BYTES;
}

/* -------------------------------------------------------------- handles */

/*
 * Make sure @n handles can be taken without failing.  Only the table's
 * capacity changes, which no caller can observe.
 */
static int slots_reserve(struct fw_device *dev, size_t n)
{
	struct fw_handle_slot *p;
	size_t cap;

	if (n <= (size_t)dev->cap - dev->nhandles)
		return GM_OK;
	if (n > (size_t)FW_HANDLE_MAX - dev->nhandles)
		return GM_ERR_FULL;
	cap = dev->cap ? 2 * (size_t)dev->cap : SLOT_MIN_CAP;
	if (cap < dev->nhandles + n)
		cap = dev->nhandles + n;
	if (cap > FW_HANDLE_MAX)
		cap = FW_HANDLE_MAX;
	p = fw_host_realloc_array(&dev->ad->host, dev->slot, cap, sizeof(*p));
	if (!p)
		return GM_ERR_NO_MEM;
	dev->slot = p;
	dev->cap = (uint32_t)cap;
	return GM_OK;
}

static uint32_t handle_make(const struct fw_device *dev, uint32_t idx)
{
	return (dev->tag << H_TAG_SHIFT) | ((dev->slot[idx].gen & H_GEN_MASK) << H_GEN_SHIFT) | (idx + 1);
}

/* Take a slot for @a (reserved by slots_reserve) and return its handle. */
static uint32_t handle_take(struct fw_device *dev, struct fw_alloc *a)
{
	uint32_t idx;

	if (dev->free_head != FW_SLOT_NONE) {
		idx = dev->free_head;
		dev->free_head = dev->slot[idx].next_free;
	} else {
		idx = dev->nslot++;
		dev->slot[idx].gen = 0;
	}
	dev->slot[idx].a = a;
	dev->nhandles++;
	a->refs++;
	return handle_make(dev, idx);
}

/* The live slot @h names on @dev, or NULL. */
static const struct fw_handle_slot *handle_slot(const struct fw_device *dev, uint32_t h)
{
	uint32_t idx = h & H_IDX_MASK;
	const struct fw_handle_slot *s;

	if ((h >> H_TAG_SHIFT) != dev->tag || idx == 0 || idx > dev->nslot)
		return NULL;
	s = &dev->slot[idx - 1];
	if (!s->a || (s->gen & H_GEN_MASK) != ((h >> H_GEN_SHIFT) & H_GEN_MASK))
		return NULL;
	return s;
}

/* Release live handle @h (made by handle_take); its slot's next handle differs. */
static void handle_release(struct fw_device *dev, uint32_t h)
{
	uint32_t idx = (h & H_IDX_MASK) - 1;
	struct fw_handle_slot *s = &dev->slot[idx];

	s->a->refs--;
	s->a = NULL;
	s->gen++;
	s->next_free = dev->free_head;
	dev->free_head = idx;
	dev->nhandles--;
}

int fw_res_get_handle_data(const struct fw_device *dev, uint32_t handle, struct fw_alloc **out)
{
	const struct fw_handle_slot *s;

	if (!dev)
		return GM_ERR_BAD_ARG;
	if (dev->removed)
		return GM_ERR_DEVICE_REMOVED;
	if (!out)
		return GM_ERR_BAD_ARG;
	s = handle_slot(dev, handle);
	if (!s)
		return GM_ERR_BAD_ARG;
	*out = s->a;
	return GM_OK;
}

/* ---------------------------------------------------- kernel resources */

static void kres_free(struct fw_adapter *ad, struct fw_kres *k)
{
	size_t i;

	if (!k)
		return;
	if (k->alloc)
		for (i = 0; i < k->nalloc; i++)
			fw_host_free(&ad->host, k->alloc[i]);
	for (i = 0; i < k->ninst; i++)
		fw_host_free(&ad->host, k->inst[i]);
	fw_host_free(&ad->host, k->inst);
	fw_host_free(&ad->host, k->alloc);
	fw_host_free(&ad->host, k);
}

/*
 * Make an unlinked kernel resource with an allocation per surface; the
 * descriptions were checked.  NULL when the host heap fails (nothing left).
 */
static struct fw_kres *kres_new(struct fw_adapter *ad, const struct fw_alloc_desc *surf, size_t n)
{
	struct fw_kres *k;
	size_t i;

	k = fw_host_realloc_array(&ad->host, NULL, 1, sizeof(*k));
	if (!k)
		return NULL;
	memset(k, 0, sizeof(*k));
	k->ad = ad;
	k->alloc = fw_host_realloc_array(&ad->host, NULL, n, sizeof(k->alloc[0]));
	if (!k->alloc)
		goto err_free_kres;
	memset(k->alloc, 0, n * sizeof(k->alloc[0]));
	k->nalloc = n;
	for (i = 0; i < n; i++) {
		struct fw_alloc *a = fw_host_realloc_array(&ad->host, NULL, 1, sizeof(*a));

		if (!a)
			goto err_free_kres;
		memset(a, 0, sizeof(*a));
		a->kres = k;
		a->d = surf[i];
		if (surf[i].priv_bytes)
			memcpy(a->priv, surf[i].priv, surf[i].priv_bytes);
		a->d.priv = a->priv;
		a->pinned = surf[i].pinned;
		a->align = desc_align(&surf[i]);
		k->alloc[i] = a;
	}
	return k;

err_free_kres:
	kres_free(ad, k);
	return NULL;
}

/* A share handle no live kernel resource has; the space is 2^32 - 1 wide
 * and holds at most as many as there are kernel resources, so one exists. */
static uint32_t share_next(struct fw_adapter *ad)
{
	for (;;) {
		uint32_t s = ad->next_share++;
		const struct fw_kres *k;

		if (s == 0)
			continue;
		for (k = ad->kres; k && k->share != s; k = k->next)
			;
		if (!k)
			return s;
	}
}

static void kres_link(struct fw_adapter *ad, struct fw_kres *k, bool shared)
{
	size_t i;

	for (i = 0; i < k->nalloc; i++)
		k->alloc[i]->serial = ad->next_serial++;
	if (shared)
		k->share = share_next(ad);
	k->next = ad->kres;
	if (ad->kres)
		ad->kres->prev = k;
	ad->kres = k;
	ad->nkres++;
	ad->nalloc += k->nalloc;
}

/* The last user went: free the segment ranges, unlink, free. */
static void kres_destroy(struct fw_adapter *ad, struct fw_kres *k)
{
	size_t i;

	for (i = 0; i < k->nalloc + k->ninst; i++) {
		struct fw_alloc *a = fw_kres_alloc_at(k, i);

		if (a->resident)
			fw_res_range_free(ad, a);
	}
	if (k->prev)
		k->prev->next = k->next;
	else
		ad->kres = k->next;
	if (k->next)
		k->next->prev = k->prev;
	ad->nkres--;
	ad->nalloc -= k->nalloc + k->ninst;
	kres_free(ad, k);
}

static struct fw_kres *kres_by_share(const struct fw_adapter *ad, uint32_t share)
{
	struct fw_kres *k;

	if (share == 0)
		return NULL;
	for (k = ad->kres; k && k->share != share; k = k->next)
		;
	return k;
}

/* -------------------------------------------------- user-mode resources */

/* An unlinked resource with room for @n handles; NULL when the heap fails. */
static struct fw_resource *res_new(struct fw_device *dev, size_t n)
{
	struct fw_resource *r;

	r = fw_host_realloc_array(&dev->ad->host, NULL, 1, sizeof(*r));
	if (!r)
		return NULL;
	memset(r, 0, sizeof(*r));
	r->handle = fw_host_realloc_array(&dev->ad->host, NULL, n, sizeof(r->handle[0]));
	if (!r->handle) {
		fw_host_free(&dev->ad->host, r);
		return NULL;
	}
	r->dev = dev;
	r->nsurf = n;
	return r;
}

static void res_free(struct fw_device *dev, struct fw_resource *r)
{
	fw_host_free(&dev->ad->host, r->handle);
	fw_host_free(&dev->ad->host, r);
}

/*
 * pfnAllocateCb: give @dev one handle per allocation of @k, into @r's
 * surface table, and link @r.  Cannot fail: slots_reserve ran first.
 */
static void allocate_cb(struct fw_device *dev, struct fw_kres *k, struct fw_resource *r)
{
	size_t i;

	for (i = 0; i < k->nalloc; i++)
		r->handle[i] = handle_take(dev, k->alloc[i]);
	r->kres = k;
	k->opens++;
	r->next = dev->res;
	if (dev->res)
		dev->res->prev = r;
	dev->res = r;
	dev->nres++;
}

/* Tell the layer above that @r's handles go (fw_release_fn), its
 * instances' too; its first refusal stops it. */
static int res_unhold(struct fw_device *dev, const struct fw_resource *r)
{
	const struct fw_adapter *ad = dev->ad;
	size_t i;

	for (i = 0; ad->release && i < r->nsurf + r->ninst; i++) {
		int st = ad->release(ad->release_ctx, dev,
				     i < r->nsurf ? r->handle[i] : r->inst[i - r->nsurf].h);

		if (st)
			return st;
	}
	return GM_OK;
}

/* Release the handles of @r's Discard instances (the kernel resource frees
 * the instances with it). */
static void res_drop_instances(struct fw_device *dev, struct fw_resource *r)
{
	for (size_t i = 0; i < r->ninst; i++)
		handle_release(dev, r->inst[i].h);
	fw_host_free(&dev->ad->host, r->inst);
	r->inst = NULL;
	r->ninst = 0;
}

struct fw_resource *fw_res_holding(const struct fw_device *dev, uint32_t handle)
{
	for (struct fw_resource *r = dev->res; r; r = r->next)
		for (size_t i = 0; i < r->nsurf + r->ninst; i++)
			if ((i < r->nsurf ? r->handle[i] : r->inst[i - r->nsurf].h) == handle)
				return r;
	return NULL;
}

int fw_res_instance_new(struct fw_device *dev, uint32_t handle, uint32_t *out_h,
			struct fw_alloc **out)
{
	struct fw_alloc *a, *n, **ki;
	struct fw_res_inst *ri;
	struct fw_resource *r;
	struct fw_kres *k;
	int st = fw_res_get_handle_data(dev, handle, &a);

	if (st)
		return st;
	r = fw_res_holding(dev, handle);
	if (!out_h || !out || !r || r->kres->share)
		return GM_ERR_BAD_ARG;
	st = slots_reserve(dev, 1);
	if (st)
		return st;
	n = fw_host_realloc_array(&dev->ad->host, NULL, 1, sizeof(*n));
	if (!n)
		return GM_ERR_NO_MEM;
	k = r->kres;
	ki = fw_host_realloc_array(&dev->ad->host, k->inst, k->ninst + 1, sizeof(*ki));
	if (ki)
		k->inst = ki;
	ri = ki ? fw_host_realloc_array(&dev->ad->host, r->inst, r->ninst + 1, sizeof(*ri)) : NULL;
	if (!ri) {
		fw_host_free(&dev->ad->host, n);
		return GM_ERR_NO_MEM;
	}
	r->inst = ri;
	a = fw_alloc_family(a);
	*n = (struct fw_alloc){ .kres = a->kres, .serial = dev->ad->next_serial++, .d = a->d,
				.align = a->align, .pinned = a->d.pinned, .inst_of = a,
				.inst_seq = ++a->inst_next };
	memcpy(n->priv, a->priv, sizeof(n->priv));
	n->d.priv = n->priv;
	dev->ad->nalloc++;
	k->inst[k->ninst++] = n;
	r->inst[r->ninst++] = (struct fw_res_inst){ handle_take(dev, n), n };
	*out_h = r->inst[r->ninst - 1].h;
	*out = n;
	return GM_OK;
}

/* pfnDeallocateCb and DestroyResource: undo allocate_cb, and destroy the
 * kernel resource when this was its last user. */
static void res_release(struct fw_device *dev, struct fw_resource *r)
{
	struct fw_kres *k = r->kres;
	size_t i;

	for (i = 0; i < r->nsurf; i++)
		handle_release(dev, r->handle[i]);
	res_drop_instances(dev, r);
	if (r->prev)
		r->prev->next = r->next;
	else
		dev->res = r->next;
	if (r->next)
		r->next->prev = r->prev;
	dev->nres--;
	if (--k->opens == 0)
		kres_destroy(dev->ad, k);
	res_free(dev, r);
}

int fw_res_create(struct fw_device *dev, const struct fw_alloc_desc *surf, size_t nsurf, bool shared,
		  struct fw_resource **out)
{
	struct fw_resource *r;
	struct fw_kres *k;
	size_t i;
	int st;

	if (!dev)
		return GM_ERR_BAD_ARG;
	if (dev->removed)
		return GM_ERR_DEVICE_REMOVED;
	if (!surf || !out || nsurf == 0 || nsurf > FW_SURF_MAX)
		return GM_ERR_BAD_ARG;
	for (i = 0; i < nsurf; i++)
		if (!desc_ok(&surf[i]))
			return GM_ERR_BAD_ARG;
	st = slots_reserve(dev, nsurf);
	if (st)
		return st;
	k = kres_new(dev->ad, surf, nsurf);
	if (!k)
		return GM_ERR_NO_MEM;
	r = res_new(dev, nsurf);
	if (!r)
		goto err_free_kres;
	kres_link(dev->ad, k, shared);
	allocate_cb(dev, k, r);
	*out = r;
	return GM_OK;

err_free_kres:
	kres_free(dev->ad, k);
	return GM_ERR_NO_MEM;
}

int fw_res_open(struct fw_device *dev, uint32_t share, struct fw_resource **out)
{
	struct fw_resource *r;
	struct fw_kres *k;
	int st;

	if (!dev)
		return GM_ERR_BAD_ARG;
	if (dev->removed)
		return GM_ERR_DEVICE_REMOVED;
	k = kres_by_share(dev->ad, share);
	if (!out || !k)
		return GM_ERR_BAD_ARG;
	st = slots_reserve(dev, k->nalloc);
	if (st)
		return st;
	r = res_new(dev, k->nalloc);
	if (!r)
		return GM_ERR_NO_MEM;
	allocate_cb(dev, k, r);
	*out = r;
	return GM_OK;
}

int fw_res_destroy(struct fw_resource *res)
{
	int st;

	if (!res)
		return GM_ERR_BAD_ARG;
	if (res->dev->removed)
		return GM_ERR_DEVICE_REMOVED;
	st = res_unhold(res->dev, res);
	if (st)
		return st;
	res_release(res->dev, res);
	return GM_OK;
}

void fw_device_destroy(struct fw_device *dev)
{
	struct fw_adapter *ad;

	if (!dev)
		return;
	ad = dev->ad;
	while (dev->res) {
		int st = res_unhold(dev, dev->res);

		assert(st == GM_OK); /* see fw_res.h: the pipeline's close let go first */
		(void)st;
		res_release(dev, dev->res);
	}
	if (dev->prev)
		dev->prev->next = dev->next;
	else
		ad->dev = dev->next;
	if (dev->next)
		dev->next->prev = dev->prev;
	ad->ndev--;
	ad->tag_used[dev->tag] = false;
	fw_host_free(&ad->host, dev->slot);
	fw_host_free(&ad->host, dev);
}

int fw_res_surface_handle(const struct fw_resource *res, size_t surf, uint32_t *handle)
{
	if (!res)
		return GM_ERR_BAD_ARG;
	if (res->dev->removed)
		return GM_ERR_DEVICE_REMOVED;
	if (!handle || surf >= res->nsurf)
		return GM_ERR_BAD_ARG;
	*handle = res->handle[surf];
	return GM_OK;
}

int fw_res_share_handle(const struct fw_resource *res, uint32_t *share)
{
	if (!res)
		return GM_ERR_BAD_ARG;
	if (res->dev->removed)
		return GM_ERR_DEVICE_REMOVED;
	if (!share || res->kres->share == 0)
		return GM_ERR_BAD_ARG;
	*share = res->kres->share;
	return GM_OK;
}
