/* SPDX-License-Identifier: MIT */
/*
 * scen_lock.c - the `gpusim run lock` scenario: Lock and Unlock
 * (D3DDDICB_LOCK / pfnLockCb and pfnUnlockCb, d3dumddi.h) told path by
 * path (see scen_lock below).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "fw_umd.h"
#include "gpu_hw.h"
#include "gpu_tile.h"
#include "scen_common.h"

/* ------------------------------------------------------------ lock */

#define LK_BUF_BYTES (1u << 20)
#define LK_ROWS (LK_BUF_BYTES / 4096u)

/* A 1 MiB FILL of @h with @v, submitted (signalling @f = @val), not waited for. */
static int fill_all(struct scen *s, struct fw_device *dev, uint32_t h, uint64_t v, uint32_t f,
		    uint64_t val)
{
	struct dma_surf d = { .base = 0, .pitch = 4096, .mode = GPU_TILE_LINEAR };

	fw_umd_begin(s->u);
	TRY(fw_umd_fill(s->u, h, &d, 4096, LK_ROWS, v));
	return scen_render_submit(s, dev, f, val);
}

/* A Tile-Y surface with three MIP levels, each its own offset and pitch. */
static const struct fw_alloc_desc mip3 = {
	.size = 0x2a000, .width = 256, .height = 128, .pitch = 1024, .bpe_log2 = 2,
	.tile = GPU_TILE_Y, .mip_levels = 3,
	.mip = { { 0, 1024, 128 }, { 0x20000, 512, 64 }, { 0x28000, 256, 32 } } };

/*
 * M (mip3, handle @m of @res) is unlocked after @st: read its raw bits
 * through a ReadOnly raw lock, untile each level with the C reference and
 * check (@what) that it is @img's; then destroy @res.  The
 * first failing status.
 */
static int mip_verify(struct scen *s, struct fw_device *dev, uint32_t m, struct fw_resource *res,
		      uint8_t *img, int st, const char *what)
{
	uint8_t *raw = scen_buf(s, mip3.size), *got = scen_buf(s, mip3.size);
	uint64_t pd = 0;
	bool same = true;

	if (!st && (!raw || !got))
		st = GM_ERR_NO_MEM;
	if (!st)
		st = scen_lock_cb(s, dev, &m, FW_LOCK_READONLY, &pd);
	if (!st)
		st = gm_apt_read(s->g, (uint32_t)pd, raw, (uint32_t)mip3.size);
	if (!st)
		st = scen_unlock_cb(s, dev, m);
	for (unsigned i = 0; !st && i < mip3.mip_levels; i++) {
		const struct fw_mip *l = &mip3.mip[i];
		size_t n = (size_t)l->pitch * l->height;

		gpu_tile_untile(GPU_TILE_Y, 2, l->pitch, raw + l->offset, mip3.size - l->offset,
				l->pitch >> 2, l->height, got + l->offset, l->pitch, n);
		same &= !memcmp(got + l->offset, img + l->offset, n);
	}
	if (!st)
		scen_check(s, same, "%s", what);
	if (res) {
		int st2 = fw_res_destroy(res);

		st = st ? st : st2;
	}
	return st;
}

/*
 * A Tile-Y surface M with three MIP levels (own offsets and pitches) locked
 * with AcquireAperture: one range per level, so an image written linearly
 * at pData + each level's offset is, in M's raw bits untiled level by level
 * by the C reference, the image.
 */
static int mip_ranges(struct scen *s, struct fw_device *dev)
{
	const struct fw_alloc_desc d = mip3;
	uint8_t *img = scen_image_new(s, d.size);
	struct fw_resource *res = NULL;
	uint64_t pd = 0;
	uint32_t m = 0;
	int st = img ? fw_res_create(dev, &d, 1, false, &res) : GM_ERR_NO_MEM;

	if (!st) {
		m = scen_handle(res, 0);
		scen_say(s, "Lock M (Tile-Y, 3 MIP levels) with AcquireAperture: a range per level\n");
		st = scen_lock_cb(s, dev, &m, FW_LOCK_ACQUIREAPERTURE, &pd);
	}
	for (unsigned i = 0; !st && i < d.mip_levels; i++)
		st = gm_apt_write(s->g, (uint32_t)(pd + d.mip[i].offset), img + d.mip[i].offset,
				  d.mip[i].pitch * d.mip[i].height);
	if (!st)
		st = scen_unlock_cb(s, dev, m);
	return mip_verify(s, dev, m, res, img, st, "each level written linearly through its own"
			  " range: its raw bits, untiled at its own pitch, are the image");
}

/*
 * Lock Tile-Y surface @t (holding the linear image @img, @d) with
 * AcquireAperture and LockEntire while every range is taken: the copy
 * engine's unswizzled copy in system memory is the image; a word the CPU
 * writes there is in @t after unlock (its raw bits untiled by the C
 * reference, into @got).
 */
static int copy_fallback(struct scen *s, struct fw_device *dev, uint32_t t,
			 const struct fw_alloc_desc *d, uint8_t *img, uint8_t *got)
{
	size_t bytes = (size_t)d->width * d->height * 4u;
	uint64_t pd = 0, word = 0x600d0000c0e1ull;
	uint8_t *raw = scen_buf(s, d->size);
	int st;

	if (!raw)
		return GM_ERR_NO_MEM;
	scen_say(s, "Lock T again with LockEntire: the copy fallback\n");
	st = scen_lock_cb(s, dev, &t, FW_LOCK_ACQUIREAPERTURE | FW_LOCK_LOCKENTIRE, &pd);
	scen_check(s, st == GM_OK && pd >= GPU_SYSMEM_BASE, "no range, LockEntire: %s, pData"
		   " 0x%" PRIx64 " in system memory (the copy engine's linear copy)",
		   gm_status_name(st), pd);
	if (!st)
		st = gm_backdoor_read(s->g, pd, got, bytes);
	if (!st) {
		scen_check(s, !memcmp(got, img, bytes), "the copy is T unswizzled: the image");
		memcpy(img + 8 * 333, &word, 8);
		st = gm_backdoor_write(s->g, pd + 8 * 333, &word, 8);
	}
	if (!st)
		st = scen_unlock_cb(s, dev, t);
	if (!st)
		st = scen_lock_cb(s, dev, &t, FW_LOCK_READONLY, &pd);
	if (!st)
		st = gm_apt_read(s->g, (uint32_t)pd, raw, (uint32_t)d->size);
	if (!st)
		st = scen_unlock_cb(s, dev, t);
	if (!st) {
		gpu_tile_untile(GPU_TILE_Y, 2, d->pitch, raw, d->size, d->width, d->height, got,
				d->width * 4u, bytes);
		scen_check(s, !memcmp(got, img, bytes), "Unlock BLTs the copy back swizzled: the"
			   " word written at byte %u is in T, nothing else changed", 8 * 333);
	}
	return st;
}

/*
 * The MIP levels of M locked one call at a time (D3DDDICB_LOCK's
 * PrivateDriverData = 1 + the level): levels 0 and 1 get a range each; with every other
 * range taken (@nh buffers @hr locked), level 2 finds none, so M's ranges
 * are reclaimed and every level served by the copy fallback, which one
 * reclaimed range shows at the same window: the pData of levels 0 and 1
 * still reach them.  Unlock writes the copy back swizzled: M's raw bits,
 * untiled level by level, are the image written through the three pData.
 */
static int mip_one_by_one(struct scen *s, struct fw_device *dev, uint32_t *hr, unsigned nh)
{
	const struct fw_alloc_desc d = mip3;
	uint8_t *img = scen_image_new(s, d.size);
	struct fw_resource *res = NULL;
	uint64_t pd[3] = { 0 }, pdr = 0;
	unsigned taken = 0;
	uint32_t m = 0;
	int st = img ? fw_res_create(dev, &d, 1, false, &res) : GM_ERR_NO_MEM;

	if (!st)
		m = scen_handle(res, 0);
	for (unsigned i = 0; !st && i < 2; i++) {
		struct fw_lock_args a = { .hAllocation = m, .Flags = FW_LOCK_ACQUIREAPERTURE,
					  .PrivateDriverData = 1 + i };

		st = fw_kmd_lock_cb(s->k, dev, &a);
		pd[i] = a.pData;
	}
	if (!st)
		scen_say(s, "M's levels 0 and 1 locked one at a time: pData 0x%" PRIx64 " and 0x%"
			 PRIx64 ", a range each\n", pd[0], pd[1]);
	for (unsigned i = 0; !st && i < nh && i < GPU_APT_RANGES - 2; i++, taken++)
		st = scen_lock_cb(s, dev, &hr[i], FW_LOCK_ACQUIREAPERTURE, &pdr);
	if (!st) {
		struct fw_lock_args a = { .hAllocation = m, .Flags = FW_LOCK_ACQUIREAPERTURE,
					  .PrivateDriverData = 3 };

		st = fw_kmd_lock_cb(s->k, dev, &a);
		pd[2] = a.pData;
		scen_check(s, st == GM_OK && pd[2] == pd[0] + d.mip[2].offset, "every other range"
			   " taken, level 2: %s, M evicted to the copy, pData 0x%" PRIx64 " in the"
			   " same window", gm_status_name(st), pd[2]);
	}
	for (unsigned i = 0; !st && i < 3; i++)
		st = gm_apt_write(s->g, (uint32_t)pd[i], img + d.mip[i].offset,
				  d.mip[i].pitch * d.mip[i].height);
	if (!st)
		st = scen_unlock_cb(s, dev, m);
	if (taken)
		TRY(fw_kmd_unlock_cb(s->k, dev, &(struct fw_unlock_args){ taken, hr }));
	return mip_verify(s, dev, m, res, img, st, "written through the three pData, unlocked:"
			  " M's raw bits, untiled level by level, are the image");
}

/*
 * Rendering from a locked allocation (pfnRenderCb while D3DDDICB_LOCK holds
 * it): the GPU renders from R while the CPU holds it raw in VRAM.  The
 * memory manager cannot support that in VRAM: R goes to the system
 * segment, the GPU writes it there, and an aperture range keeps the CPU's
 * pData reaching it.  A surface the GPU uses only from VRAM is refused with
 * CANTRENDERLOCKEDALLOCATION instead.  A dynamic buffer (D3D10_DDI_USAGE_
 * DYNAMIC) lives in the system segment: the GPU writes it there, nothing
 * is paged into VRAM for it, and a lock of it is plain system memory.
 */
static int render_locked(struct scen *s, struct fw_device *dev, uint32_t f)
{
	struct fw_alloc_desc d[3];
	struct dma_surf half = { .base = 8 * 4096, .pitch = 4096, .mode = GPU_TILE_LINEAR };
	const uint64_t a = 0xaaaa0000cafe0001ull, b = 0xbbbbbbbbbbbbbbbbull, c = 0xcccc0000f00d0003ull;
	const struct fw_alloc *ra;
	struct fw_resource *res;
	uint32_t r, o, y;
	uint64_t pd = 0, pins, w0 = 0, w1 = 0, w2 = 0;
	int st;

	for (unsigned i = 0; i < 3; i++)
		d[i] = scen_surface(GPU_TILE_LINEAR, 2, 1024, 16); /* 64 KiB */
	d[1].vram_only = true;
	d[2].dynamic = true;
	TRY(fw_res_create(dev, d, 3, false, &res));
	r = scen_handle(res, 0), o = scen_handle(res, 1), y = scen_handle(res, 2);

	scen_say(s, "Lock R raw (no AcquireAperture), write a word, then render a FILL of its"
		 " second half while it is still locked\n");
	TRY(scen_lock_cb(s, dev, &r, 0, &pd));
	TRY(scen_alloc_read(s, dev, r, NULL, &ra));
	scen_check(s, pd < GPU_APT_WINDOW_BYTES && ra->loc.seg_id == FW_KMD_SEG_VRAM,
		   "a raw lock of R in VRAM: pData 0x%" PRIx64 " is its plain VRAM window", pd);
	TRY(gm_apt_write64(s->g, (uint32_t)pd, a, 0xff));
	fw_umd_begin(s->u);
	TRY(fw_umd_fill(s->u, r, &half, 4096, 8, b));
	TRY(scen_render_submit(s, dev, f, 10));
	TRY(fw_kmd_idle(s->k, WAIT_BUDGET));
	scen_check(s, ra->loc.seg_id == FW_KMD_SEG_SYS, "rendering from it moved R to the system"
		   " segment (0x%" PRIx64 "); the GPU wrote it there", ra->loc.addr);
	TRY(gm_apt_read64(s->g, (uint32_t)pd, &w0));
	TRY(gm_apt_read64(s->g, (uint32_t)pd + 8 * 4096, &w1));
	scen_check(s, w0 == a && w1 == b, "the same pData reads the CPU's word 0x%016" PRIx64
		   " and the GPU's FILL 0x%016" PRIx64 " (an aperture range follows R)", w0, w1);
	TRY(gm_apt_write64(s->g, (uint32_t)pd + 8, c, 0xff));
	TRY(gm_backdoor_read64(s->g, ra->loc.addr + 8, &w2));
	scen_check(s, w2 == c, "a CPU write through pData lands in system memory: 0x%016" PRIx64,
		   w2);
	TRY(scen_unlock_cb(s, dev, r));

	scen_say(s, "Lock O raw, a surface the GPU uses only from VRAM, and render from it\n");
	TRY(scen_lock_cb(s, dev, &o, 0, &pd));
	fw_umd_begin(s->u);
	TRY(fw_umd_fill(s->u, o, &half, 4096, 8, b));
	st = scen_render_submit(s, dev, f, 11);
	scen_check(s, st == GM_ERR_CANT_RENDER_LOCKED, "rendering from O while locked: %s"
		   " (D3DDDIERR_CANTRENDERLOCKEDALLOCATION)", gm_status_name(st));
	TRY(scen_unlock_cb(s, dev, o));

	scen_say(s, "Y is dynamic: render a FILL into it, then lock it\n");
	pins = s->k->st.page_ins + s->k->st.evictions;
	fw_umd_begin(s->u);
	TRY(fw_umd_fill(s->u, y, &half, 4096, 8, b));
	TRY(scen_render_submit(s, dev, f, 11));
	TRY(scen_lock_cb(s, dev, &y, FW_LOCK_READONLY, &pd));
	TRY(gm_backdoor_read64(s->g, pd + 8 * 4096, &w1));
	TRY(scen_unlock_cb(s, dev, y));
	scen_check(s, pd >= GPU_SYSMEM_BASE && w1 == b && s->k->st.page_ins + s->k->st.evictions
		   == pins, "the GPU wrote Y in the system segment: pData 0x%" PRIx64 " reads the"
		   " FILL, nothing paged", pd);
	return fw_res_destroy(res);
}

/*
 * Lock (D3DDDICB_LOCK) told path by path: a lock waits for the GPU; DonotWait gives
 * WASSTILLDRAWING; Discard renames instead of waiting; a tiled surface is
 * written linearly through a range the driver picks and its raw lock shows
 * the swizzled bits; a DMA buffer referencing it while so locked is refused;
 * with every range taken the lock is NOTAVAILABLE, and with LockEntire the
 * copy fallback: a linear copy in system memory, written back at unlock; a
 * surface with MIP levels gets a range per level; the GPU renders from a
 * raw-locked surface (moved to system memory) and from a dynamic buffer.
 */
int scen_lock(struct scen *s)
{
	struct fw_alloc_desc d[2 + GPU_APT_RANGES];
	struct fw_resource *res;
	struct fw_device *dev;
	uint32_t f, v, v1, t, hr[GPU_APT_RANGES];
	uint64_t pd, word = 0;
	size_t bytes = IMG_W * IMG_H * 4u;
	uint8_t *img = scen_image_new(s, bytes), *raw = scen_buf(s, bytes), *got = scen_buf(s, bytes);
	int st;

	if (!img || !raw || !got)
		return GM_ERR_NO_MEM;
	d[0] = scen_surface(GPU_TILE_LINEAR, 2, 1024, LK_ROWS);
	d[1] = scen_surface(GPU_TILE_Y, 2, IMG_W, IMG_H);
	for (unsigned i = 0; i < GPU_APT_RANGES; i++)
		d[2 + i] = scen_surface(GPU_TILE_LINEAR, 2, 1024, 1);
	TRY(fw_device_create(&s->k->ad, &dev));
	TRY(fw_res_create(dev, d, 2 + GPU_APT_RANGES, false, &res));
	TRY(fw_mfence_create(s->k, dev, 0, &f));
	v = scen_handle(res, 0);
	t = scen_handle(res, 1);

	scen_say(s, "submit a 1 MiB FILL of V (0x11...), then Lock V with DonotWait\n");
	TRY(fill_all(s, dev, v, 0x1111111111111111ull, f, 1));
	st = scen_lock_cb(s, dev, &v, FW_LOCK_DONOTWAIT, &pd);
	scen_check(s, st == GM_ERR_STILL_DRAWING, "DonotWait while the GPU writes V: %s"
		   " (D3DERR_WASSTILLDRAWING)", gm_status_name(st));
	v1 = v;
	TRY(scen_lock_cb(s, dev, &v1, FW_LOCK_DISCARD | FW_LOCK_WRITEONLY, &pd));
	scen_check(s, v1 != v, "Discard renamed V: handle 0x%08" PRIx32 " -> 0x%08" PRIx32
		   " (a new instance)", v, v1);
	TRY(gm_apt_write64(s->g, (uint32_t)pd, 0x2222222222222222ull, 0xff));
	TRY(scen_unlock_cb(s, dev, v1));
	TRY(scen_lock_cb(s, dev, &v, FW_LOCK_READONLY, &pd));
	TRY(gm_apt_read64(s->g, (uint32_t)pd + LK_BUF_BYTES - 8, &word));
	TRY(scen_unlock_cb(s, dev, v));
	scen_check(s, word == 0x1111111111111111ull, "Lock V without flags waited for the FILL:"
		   " its last word 0x%016" PRIx64, word);

	scen_say(s, "Lock T (Tile-Y) with AcquireAperture and write a %zu-byte image linearly\n",
		 bytes);
	TRY(scen_lock_cb(s, dev, &t, FW_LOCK_ACQUIREAPERTURE | FW_LOCK_LOCKENTIRE, &pd));
	scen_say(s, "the driver's range shows it at window offset 0x%" PRIx64 "\n", pd);
	TRY(gm_apt_write(s->g, (uint32_t)pd, img, bytes));
	fw_umd_begin(s->u);
	TRY(fw_umd_copy(s->u, v, 0, t, 0, 4096));
	st = scen_render_submit(s, dev, f, 2);
	scen_check(s, st == GM_ERR_BAD_ARG, "a DMA buffer reading T while it is locked through a"
		   " range: refused (%s)", gm_status_name(st));
	TRY(scen_unlock_cb(s, dev, t));
	TRY(scen_lock_cb(s, dev, &t, FW_LOCK_READONLY, &pd));
	TRY(gm_apt_read(s->g, (uint32_t)pd, raw, bytes));
	TRY(scen_unlock_cb(s, dev, t));
	gpu_tile_untile(GPU_TILE_Y, 2, d[1].pitch, raw, d[1].size, IMG_W, IMG_H, got, IMG_W * 4u,
			bytes);
	scen_check(s, memcmp(raw, img, bytes) && !memcmp(got, img, bytes), "a raw lock of T gives"
		   " the swizzled bits; untiled by the C reference they are the image");

	scen_say(s, "Lock %u buffers with AcquireAperture, then T\n", (unsigned)GPU_APT_RANGES);
	for (unsigned i = 0; i < GPU_APT_RANGES; i++) {
		hr[i] = scen_handle(res, 2 + i);
		TRY(scen_lock_cb(s, dev, &hr[i], FW_LOCK_ACQUIREAPERTURE, &pd));
	}
	st = scen_lock_cb(s, dev, &t, FW_LOCK_ACQUIREAPERTURE, &pd);
	scen_check(s, st == GM_ERR_NOT_AVAILABLE, "every range taken: %s (D3DERR_NOTAVAILABLE)",
		   gm_status_name(st));
	TRY(copy_fallback(s, dev, t, &d[1], img, got));
	TRY(fw_kmd_unlock_cb(s->k, dev, &(struct fw_unlock_args){ GPU_APT_RANGES, hr }));
	TRY(mip_ranges(s, dev));
	TRY(mip_one_by_one(s, dev, hr, GPU_APT_RANGES));
	TRY(render_locked(s, dev, f));
	return fw_kmd_device_destroy(s->k, dev, WAIT_BUDGET);
}
