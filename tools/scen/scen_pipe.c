/* SPDX-License-Identifier: MIT */
/*
 * scen_pipe.c - the `gpusim run` scenarios (see scen_pipe.h).
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "fw_umd.h"
#include "gpu_hw.h"
#include "gpu_tile.h"
#include "scen_common.h"
#include "scen_deferred.h"
#include "scen_pipe.h"

/* ------------------------------------------------------------ copies */

static int scen_copies(struct scen *s)
{
	static const unsigned modes[] = { GPU_TILE_LINEAR, GPU_TILE_SS64K, GPU_TILE_Y, GPU_TILE_X,
					  GPU_TILE_LINEAR };
	static const char *const names[] = { "A linear", "B SS64K", "C Tile-Y", "D Tile-X",
					     "E linear" };
	struct fw_alloc_desc desc[6];
	struct fw_resource *res;
	struct fw_device *dev;
	const struct fw_alloc *fa;
	uint8_t *img, *got, *raw;
	size_t bytes = IMG_W * IMG_H * 4u;
	uint64_t pd = 0;
	uint32_t f, h;

	img = scen_image_new(s, bytes);
	got = scen_buf(s, bytes);
	raw = scen_buf(s, 1u << 20);
	if (!img || !got || !raw)
		return GM_ERR_NO_MEM;
	TRY(fw_device_create(&s->k->ad, &dev));
	for (unsigned i = 0; i < 5; i++)
		desc[i] = scen_surface(modes[i], 2, IMG_W, IMG_H);
	desc[5] = desc[0]; /* F: the COPY's destination */
	TRY(fw_res_create(dev, desc, 6, false, &res));
	TRY(fw_mfence_create(s->k, dev, 0, &f));
	scen_say(s, "CreateResource: 6 surfaces of %ux%u, 4 bytes per element: linear, SS64K, Tile-Y,"
	       " Tile-X, linear, linear\n", IMG_W, IMG_H);

	scen_say(s, "Lock A and write a %zu-byte image through the aperture\n", bytes);
	h = scen_handle(res, 0);
	TRY(scen_lock_cb(s, dev, &h, FW_LOCK_ACQUIREAPERTURE | FW_LOCK_WRITEONLY, &pd));
	TRY(gm_apt_write(s->g, (uint32_t)pd, img, bytes));
	TRY(scen_unlock_cb(s, dev, h));

	scen_say(s, "command buffer: BLT A->B, B->C, C->D, D->E, COPY E->F; signal fence %u = 1\n", f);
	fw_umd_begin(s->u);
	for (unsigned i = 0; i < 4; i++) {
		struct dma_surf dst = scen_surf_of(&desc[i + 1]), src = scen_surf_of(&desc[i]);

		TRY(fw_umd_blt(s->u, scen_handle(res, i + 1), &dst, scen_handle(res, i), &src, IMG_W, IMG_H));
	}
	TRY(fw_umd_copy(s->u, scen_handle(res, 5), 0, scen_handle(res, 4), 0, (uint32_t)bytes));
	TRY(scen_render_submit(s, dev, f, 1));
	TRY(fw_mfence_wait(s->k, f, 1, WAIT_BUDGET));
	scen_say(s, "fence %u reached 1\n", f);

	for (unsigned i = 1; i < 5; i++) {
		const struct fw_alloc *a;

		TRY(scen_alloc_read(s, dev, scen_handle(res, i), raw, &a));
		gpu_tile_untile(modes[i], 2, a->d.pitch, raw, a->d.size, IMG_W, IMG_H, got,
				IMG_W * 4u, bytes);
		scen_check(s, !memcmp(got, img, bytes), "%s at 0x%" PRIx64 " untiled by the C reference"
		      " equals the image", names[i], a->loc.addr);
	}
	TRY(scen_alloc_read(s, dev, scen_handle(res, 5), got, &fa));
	scen_check(s, !memcmp(got, img, bytes), "F (COPY of E) equals the image");

	scen_say(s, "Lock C (Tile-Y) and read it back linearly through the aperture\n");
	h = scen_handle(res, 2);
	TRY(scen_lock_cb(s, dev, &h, FW_LOCK_ACQUIREAPERTURE | FW_LOCK_READONLY, &pd));
	memset(got, 0, bytes);
	TRY(gm_apt_read(s->g, (uint32_t)pd, got, bytes));
	TRY(scen_unlock_cb(s, dev, h));
	scen_check(s, !memcmp(got, img, bytes), "C read through the aperture equals the image");
	scen_check(s, s->k->st.fills == 6, "6 fresh allocations filled with zero on first use (%" PRIu64
	      ")", s->k->st.fills);
	return fw_kmd_device_destroy(s->k, dev, WAIT_BUDGET);
}

/* ------------------------------------------------------------ evict */

#define EV_BUFS 10u
#define EV_W 256u  /* 4-byte elements per row */
#define EV_H 1024u /* rows: 1 MiB per buffer */

static uint64_t ev_pattern(unsigned i)
{
	return 0x0101010101010101ull * (0x10u + i) ^ 0x00ff00ff00000000ull;
}

static int scen_evict(struct scen *s)
{
	struct fw_alloc_desc desc[EV_BUFS];
	struct fw_resource *res;
	struct fw_device *dev;
	const struct fw_alloc *a0;
	uint64_t *raw;
	size_t bytes = EV_W * EV_H * 4u;
	uint32_t f;
	int bad;

	raw = scen_buf(s, bytes);
	if (!raw)
		return GM_ERR_NO_MEM;
	TRY(fw_device_create(&s->k->ad, &dev));
	for (unsigned i = 0; i < EV_BUFS; i++)
		desc[i] = scen_surface(GPU_TILE_LINEAR, 2, EV_W, EV_H);
	TRY(fw_res_create(dev, desc, EV_BUFS, false, &res));
	TRY(fw_mfence_create(s->k, dev, 0, &f));
	scen_say(s, "%u buffers of 1 MiB, VRAM segment of %" PRIu64 " MiB\n", EV_BUFS,
	    s->k->cfg.vram_bytes >> 20);

	scen_say(s, "pass 1: FILL buffer i with a pattern of its own, one submission each\n");
	for (unsigned i = 0; i < EV_BUFS; i++) {
		struct dma_surf d = scen_surf_of(&desc[i]);

		fw_umd_begin(s->u);
		TRY(fw_umd_fill(s->u, scen_handle(res, i), &d, EV_W, EV_H, ev_pattern(i)));
		TRY(scen_render_submit(s, dev, f, i + 1));
	}
	TRY(fw_kmd_idle(s->k, WAIT_BUDGET));
	scen_check(s, s->k->st.evictions > 0, "buffers were evicted (%" PRIu64 ")", s->k->st.evictions);

	TRY(scen_alloc_read(s, dev, scen_handle(res, 0), NULL, &a0));
	scen_check(s, a0->loc.seg_id == FW_KMD_SEG_SYS, "buffer 0 lives in system memory now");
	scen_say(s, "discard buffer 0's content (DISCARD_CONTENT)\n");
	TRY(fw_kmd_discard(s->k, dev, scen_handle(res, 0)));

	scen_say(s, "pass 2: WRITE_DATA a marker into each buffer, last first\n");
	for (unsigned i = EV_BUFS; i-- > 0;) {
		uint32_t mark = 0xabc00000u + i;

		fw_umd_begin(s->u);
		TRY(fw_umd_write(s->u, scen_handle(res, i), 0, &mark, 1));
		TRY(scen_render_submit(s, dev, f, EV_BUFS + EV_BUFS - i));
	}
	TRY(fw_mfence_wait(s->k, f, 2 * EV_BUFS, WAIT_BUDGET));
	scen_check(s, s->k->st.page_ins > 0, "evicted buffers were paged in (%" PRIu64 ")",
	      s->k->st.page_ins);
	for (unsigned i = 0; i < EV_BUFS; i++) {
		const struct fw_alloc *a;
		uint64_t want = i == 0 ? 0 : ev_pattern(i);

		TRY(scen_alloc_read(s, dev, scen_handle(res, i), raw, &a));
		bad = (uint32_t)raw[0] != 0xabc00000u + i ||
		      (raw[0] >> 32) != (i == 0 ? 0 : ev_pattern(i) >> 32);
		for (size_t w = 1; w < bytes / 8 && !bad; w++)
			bad = raw[w] != want;
		scen_check(s, !bad, "buffer %u (%s 0x%" PRIx64 ") holds marker and %s", i,
		      a->loc.seg_id == FW_KMD_SEG_VRAM ? "VRAM" : "system", a->loc.addr,
		      i == 0 ? "zeros (discarded)" : "its pattern");
	}
	return fw_kmd_device_destroy(s->k, dev, WAIT_BUDGET);
}

/* ------------------------------------------------------------ shared */

static bool all64(const uint64_t *p, size_t n, uint64_t v)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] != v)
			return false;
	return true;
}

static int scen_shared(struct scen *s)
{
	struct fw_alloc_desc ds = scen_surface(GPU_TILE_SS64K, 2, IMG_W, IMG_H);
	struct fw_alloc_desc dt = scen_surface(GPU_TILE_LINEAR, 2, IMG_W, IMG_H);
	struct dma_surf ss = scen_surf_of(&ds), tt = scen_surf_of(&dt);
	struct fw_resource *r1, *r2, *rt;
	struct fw_device *d1, *d2;
	struct fw_alloc *a1 = NULL, *a2 = NULL, *x = NULL;
	const struct fw_alloc *t;
	uint32_t share, f1, f2, h1, h2;
	uint64_t *raw;

	raw = scen_buf(s, ds.size);
	if (!raw)
		return GM_ERR_NO_MEM;
	TRY(fw_device_create(&s->k->ad, &d1));
	TRY(fw_device_create(&s->k->ad, &d2));
	TRY(fw_res_create(d1, &ds, 1, true, &r1));
	TRY(fw_res_share_handle(r1, &share));
	TRY(fw_res_open(d2, share, &r2));
	TRY(fw_res_create(d2, &dt, 1, false, &rt));
	TRY(fw_mfence_create(s->k, d1, 0, &f1));
	TRY(fw_mfence_create(s->k, d2, 0, &f2));
	h1 = scen_handle(r1, 0);
	h2 = scen_handle(r2, 0);
	scen_say(s, "device %u made shared SS64K surface S (share 0x%x, handle 0x%08x); device %u"
	       " opened it as handle 0x%08x\n", d1->tag, share, h1, d2->tag, h2);
	scen_check(s, !fw_res_get_handle_data(d1, h1, &a1) && !fw_res_get_handle_data(d2, h2, &a2) &&
		 h1 != h2 && a1 == a2, "two handles, one allocation");
	scen_check(s, fw_res_get_handle_data(d2, h1, &x) == GM_ERR_BAD_ARG,
	      "device %u's handle is refused on device %u", d1->tag, d2->tag);

	scen_say(s, "device %u: FILL S with 0x5eed; signal fence %u = 1\n", d1->tag, f1);
	fw_umd_begin(s->u);
	TRY(fw_umd_fill(s->u, h1, &ss, IMG_W, IMG_H, 0x00005eed00005eedull));
	TRY(scen_render_submit(s, d1, f1, 1));
	TRY(fw_mfence_wait(s->k, f1, 1, WAIT_BUDGET));
	scen_say(s, "device %u: BLT S -> its linear T; signal fence %u = 1\n", d2->tag, f2);
	fw_umd_begin(s->u);
	TRY(fw_umd_blt(s->u, scen_handle(rt, 0), &tt, h2, &ss, IMG_W, IMG_H));
	TRY(scen_render_submit(s, d2, f2, 1));
	TRY(fw_mfence_wait(s->k, f2, 1, WAIT_BUDGET));
	TRY(scen_alloc_read(s, d2, scen_handle(rt, 0), raw, &t));
	scen_check(s, all64(raw, dt.size / 8, 0x00005eed00005eedull), "T holds device %u's fill",
	      d1->tag);

	scen_say(s, "device %u destroys its resource; device %u keeps using S\n", d1->tag, d2->tag);
	TRY(fw_kmd_idle(s->k, WAIT_BUDGET));
	TRY(fw_res_destroy(r1));
	fw_umd_begin(s->u);
	TRY(fw_umd_fill(s->u, h2, &ss, IMG_W, IMG_H, 0x0000beef0000beefull));
	TRY(fw_umd_blt(s->u, scen_handle(rt, 0), &tt, h2, &ss, IMG_W, IMG_H));
	TRY(scen_render_submit(s, d2, f2, 2));
	TRY(fw_mfence_wait(s->k, f2, 2, WAIT_BUDGET));
	TRY(scen_alloc_read(s, d2, scen_handle(rt, 0), raw, &t));
	scen_check(s, all64(raw, dt.size / 8, 0x0000beef0000beefull),
	      "S still works on device %u after device %u closed it", d2->tag, d1->tag);
	TRY(fw_kmd_device_destroy(s->k, d1, WAIT_BUDGET));
	return fw_kmd_device_destroy(s->k, d2, WAIT_BUDGET);
}

/* ------------------------------------------------------------ hang */

static int scen_hang(struct scen *s)
{
	struct fw_alloc_desc dsem = scen_surface(GPU_TILE_LINEAR, 2, 1024, 1);
	struct fw_alloc_desc dx = scen_surface(GPU_TILE_LINEAR, 2, 1024, 16);
	struct dma_surf sx = scen_surf_of(&dx);
	struct fw_resource *ra, *rb;
	struct fw_device *da, *db;
	const struct fw_alloc *xa;
	struct fw_cmdbuf cb;
	uint32_t fa, fb, mp = 0;
	uint64_t v, prev = 0, *raw;
	uint64_t tdr0 = s->k->st.tdrs;
	bool mono = true;

	raw = scen_buf(s, dx.size);
	if (!raw)
		return GM_ERR_NO_MEM;
	TRY(fw_device_create(&s->k->ad, &da));
	TRY(fw_device_create(&s->k->ad, &db));
	TRY(fw_res_create(da, &dsem, 1, false, &ra));
	TRY(fw_res_create(db, &dx, 1, false, &rb));
	TRY(fw_mfence_create(s->k, da, 0, &fa));
	TRY(fw_mfence_create(s->k, db, 0, &fb));

	scen_say(s, "device %u: WAIT_MEM on a semaphore nobody will write; signal fence %u = 1\n",
	    da->tag, fa);
	fw_umd_begin(s->u);
	TRY(fw_umd_wait_eq(s->u, scen_handle(ra, 0), 0, 1));
	TRY(scen_render_submit(s, da, fa, 1));
	scen_say(s, "device %u: FILL its buffer X with 0x1111, queued behind; signal fence %u = 1\n",
	    db->tag, fb);
	fw_umd_begin(s->u);
	TRY(fw_umd_fill(s->u, scen_handle(rb, 0), &sx, 1024, 16, 0x1111111111111111ull));
	TRY(scen_render_submit(s, db, fb, 1));

	scen_say(s, "wait for device %u's fence (TDR after %" PRIu64 " cycles without progress)\n",
	    db->tag, s->k->cfg.tdr_cycles);
	while (fw_mfence_read(s->k, fb, &v) == GM_OK && v < 1 && s->k->st.tdrs == tdr0 &&
	       gm_cycles(s->g) < WAIT_BUDGET) {
		mono &= v >= prev;
		prev = v;
		TRY(fw_kmd_poll(s->k, 10000));
	}
	TRY(fw_mfence_wait(s->k, fb, 1, WAIT_BUDGET));
	scen_check(s, s->k->st.tdrs == tdr0 + 1, "one TDR");
	scen_check(s, fw_device_is_removed(da) && !fw_device_is_removed(db),
	      "device %u removed, device %u not", da->tag, db->tag);
	TRY(fw_mfence_read(s->k, fa, &v));
	scen_check(s, v == UINT64_MAX, "device %u's fence pushed to its maximum", da->tag);
	TRY(scen_alloc_read(s, db, scen_handle(rb, 0), raw, &xa));
	scen_check(s, all64(raw, dx.size / 8, 0x1111111111111111ull),
	      "device %u's resubmitted FILL completed", db->tag);
	fw_umd_cmdbuf(s->u, &cb);
	scen_check(s, fw_kmd_render(s->k, da, &cb, &mp, NULL) == GM_ERR_DEVICE_REMOVED,
	      "device %u's Render returns DEVICE_REMOVED", da->tag);
	scen_check(s, fw_res_create(da, &dsem, 1, false, &ra) == GM_ERR_DEVICE_REMOVED,
	      "device %u's CreateResource returns DEVICE_REMOVED", da->tag);

	scen_say(s, "device %u runs on: FILL X with 0x2222; signal fence %u = 2\n", db->tag, fb);
	fw_umd_begin(s->u);
	TRY(fw_umd_fill(s->u, scen_handle(rb, 0), &sx, 1024, 16, 0x2222222222222222ull));
	TRY(scen_render_submit(s, db, fb, 2));
	TRY(fw_mfence_wait(s->k, fb, 2, WAIT_BUDGET));
	TRY(fw_mfence_read(s->k, fb, &v));
	mono &= v >= prev;
	TRY(scen_alloc_read(s, db, scen_handle(rb, 0), raw, &xa));
	scen_check(s, all64(raw, dx.size / 8, 0x2222222222222222ull) && v == 2,
	      "device %u's next submission completed, fence %u = 2", db->tag, fb);
	scen_check(s, mono, "fence %u never went backwards", fb);
	TRY(fw_kmd_device_destroy(s->k, da, WAIT_BUDGET));
	return fw_kmd_device_destroy(s->k, db, WAIT_BUDGET);
}

/* ------------------------------------------------------------ table */

struct scen_entry {
	const char *name, *what;
	int (*run)(struct scen *s);
	uint64_t vram_seg;
	uint64_t pt_bytes;  /* GPU-VA page tables above the segment */
};

static const struct scen_entry table[] = {
	{ "copies", "surfaces in four layouts, a chain of BLTs and a COPY, checked", scen_copies,
	  64ull << 20, 0 },
	{ "evict", "ten 1 MiB buffers in a 4 MiB VRAM segment: evict, page in, discard",
	  scen_evict, 4ull << 20, 0 },
	{ "shared", "a shared surface used by two devices", scen_shared, 64ull << 20, 0 },
	{ "hang", "a hung buffer, TDR, device removed, the other device runs on", scen_hang,
	  64ull << 20, 0 },
	{ "vaupdate", "a GPU-VA process: reserve, map, remap and copy mappings behind its fence",
	  scen_vaupdate, 64ull << 20, SCEN_PT_BYTES },
	{ "tiled", "a tiled SS64K resource mapped tile by tile, null tiles, remapped while queued",
	  scen_tiled, 64ull << 20, SCEN_PT_BYTES },
	{ "deferred", "deferred contexts recorded on two threads, executed through the pipeline (D3D11 context-local handles)",
	  scen_deferred, 64ull << 20, 0 },
	{ "lock", "Lock: wait, WASSTILLDRAWING, Discard, ranges, copy fallback, MIPs, rendering",
	  scen_lock, 64ull << 20, 0 },
};

const char *const scen_pipe_names[] = { "copies", "evict", "shared", "hang", "vaupdate", "tiled",
					"deferred", "lock", NULL };

static const struct scen_entry *find(const char *name)
{
	for (size_t i = 0; name && i < sizeof(table) / sizeof(table[0]); i++)
		if (!strcmp(table[i].name, name))
			return &table[i];
	return NULL;
}

const char *scen_pipe_describe(const char *name)
{
	const struct scen_entry *e = find(name);

	return e ? e->what : NULL;
}

void scen_pipe_opts_default(struct scen_pipe_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->seed = 1;
	o->wave_to = GM_WAVE_END;
	o->out = stdout;
}

int scen_pipe_run(const char *name, const struct scen_pipe_opts *o, struct scen_pipe_result *r)
{
	const struct scen_entry *e = find(name);
	struct scen s;
	int st, wst;

	if (!e || !o || !r)
		return GM_ERR_BAD_ARG;
	memset(r, 0, sizeof(*r));
	st = scen_open(&s, o, e->vram_seg, e->pt_bytes);
	if (!st) {
		scen_say(&s, "scenario %s: %s\n", e->name, e->what);
		st = e->run(&s);
		if (!st && s.failures)
			st = GM_ERR_HW;
	}
	wst = scen_close(&s, r);
	return st ? st : wst;
}
