// SPDX-License-Identifier: MIT
/*
 * tb_fw.c - the fw/ allocation-layer unit tests' shared fixture (tb_fw.h).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "tb_fw.h"

uint64_t g_seed;

/*
 * With -fsanitize=undefined, make a UBSan report fatal so it fails the run
 * instead of scrolling past (every test linked with this file); unused in
 * builds without the sanitizer.
 */
const char *__ubsan_default_options(void);
const char *__ubsan_default_options(void)
{
	return "halt_on_error=1:print_stacktrace=1";
}

void *fheap_realloc(void *ctx, void *ptr, size_t bytes)
{
	struct fheap *h = ctx;
	void *p;

	if (h->fail_at >= 0 && h->calls++ == h->fail_at) {
		h->failures++;
		return NULL;
	}
	p = realloc(ptr, bytes);
	if (p && !ptr)
		h->live++;
	return p;
}

void fheap_free(void *ctx, void *ptr)
{
	struct fheap *h = ctx;

	h->live--;
	free(ptr);
}

void fheap_arm(struct fheap *h, long fail_at)
{
	h->fail_at = fail_at;
	h->calls = 0;
}

struct fw_host_mem fheap_ops(struct fheap *h)
{
	struct fw_host_mem m = { fheap_realloc, fheap_free, h };

	return m;
}

struct fw_seg_stats seg_stats(const struct fw_seg *s)
{
	struct fw_seg_stats st;

	memset(&st, 0, sizeof(st));
	assert_st(fw_seg_get_stats(s, &st), GM_OK);
	return st;
}
/* ------------------------------------------------------------ adapter fixture */

int setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));
	struct fw_seg_desc vram = { VRAM_ID, FW_SEG_VRAM, GPU_VRAM_BASE, VRAM_BYTES, false };
	struct fw_seg_desc sys = { SYS_ID, FW_SEG_SYSTEM, GPU_SYSMEM_BASE, SYS_BYTES, true };
	struct fw_host_mem ops;

	if (!f)
		return -1;
	f->heap.fail_at = -1;
	ops = fheap_ops(&f->heap);
	if (fw_adapter_init(&f->ad, &ops) || fw_adapter_add_seg(&f->ad, &vram) ||
	    fw_adapter_add_seg(&f->ad, &sys) || fw_device_create(&f->ad, &f->d0) ||
	    fw_device_create(&f->ad, &f->d1))
		return -1;
	*state = f;
	return 0;
}

int teardown(void **state)
{
	struct fx *f = *state;
	long live;

	fw_adapter_fini(&f->ad);
	live = f->heap.live;
	free(f);
	if (live != 0) {
		print_error("%ld host blocks leaked\n", live);
		return -1;
	}
	return 0;
}

/* A linear buffer of @bytes (one row). */
struct fw_alloc_desc buf_desc(uint32_t bytes)
{
	struct fw_alloc_desc d;

	memset(&d, 0, sizeof(d));
	d.size = bytes;
	d.width = bytes;
	d.height = 1;
	d.pitch = bytes;
	d.tile = GPU_TILE_LINEAR;
	return d;
}

/*
 * A 2-D surface: @w x @h elements of 1 << @bpe bytes in @tile, the least
 * pitch and size the geometry (gpu_tile) allows.
 */
struct fw_alloc_desc surf_desc(enum gpu_tile_mode tile, uint32_t bpe, uint32_t w, uint32_t h)
{
	struct gpu_tile_info ti;
	struct fw_alloc_desc d;
	uint64_t tw;

	memset(&d, 0, sizeof(d));
	d.width = w;
	d.height = h;
	d.bpe_log2 = bpe;
	d.tile = tile;
	d.format = 0x1000 + bpe;
	assert_st(gpu_tile_info(tile, bpe, &ti), GM_OK);
	tw = ti.tile_w_bytes;
	d.pitch = (uint32_t)((((uint64_t)w << bpe) + tw - 1) / tw * tw);
	assert_st(gpu_tile_surface_bytes(tile, bpe, d.pitch, h, &d.size), GM_OK);
	return d;
}

static uint64_t mix(uint64_t h, uint64_t v)
{
	return (h ^ v) * 0x100000001b3ull;
}

struct snap snap_take(struct fx *f)
{
	const struct fw_kres *k;
	struct snap s;
	size_t i;

	memset(&s, 0, sizeof(s));
	assert_st(fw_adapter_get_stats(&f->ad, &s.ad), GM_OK);
	s.seg[0] = seg_stats(fw_adapter_seg(&f->ad, VRAM_ID));
	s.seg[1] = seg_stats(fw_adapter_seg(&f->ad, SYS_ID));
	/* Read the device fields directly: get_stats refuses on a removed device. */
	if (f->d0) {
		s.nhandles[0] = f->d0->nhandles;
		s.nres[0] = f->d0->nres;
	}
	if (f->d1) {
		s.nhandles[1] = f->d1->nhandles;
		s.nres[1] = f->d1->nres;
	}
	s.objs = 0xcbf29ce484222325ull;
	for (k = f->ad.kres; k; k = k->next) {
		s.objs = mix(mix(s.objs, k->opens), k->share);
		for (i = 0; i < k->nalloc; i++) {
			const struct fw_alloc *a = k->alloc[i];

			s.objs = mix(mix(mix(s.objs, a->refs), a->loc.seg_id), a->loc.addr);
			s.objs = mix(mix(s.objs, a->resident), a->pinned);
		}
	}
	return s;
}

void snap_same(const struct snap *a, const struct snap *b, const char *what)
{
	if (memcmp(&a->ad, &b->ad, sizeof(a->ad)) || memcmp(a->nhandles, b->nhandles, sizeof(a->nhandles)) ||
	    memcmp(a->nres, b->nres, sizeof(a->nres)) || a->objs != b->objs ||
	    a->seg[0].used != b->seg[0].used || a->seg[1].used != b->seg[1].used ||
	    a->seg[0].nranges != b->seg[0].nranges || a->seg[1].nranges != b->seg[1].nranges)
		fail_msg("%s changed state", what);
}

struct fw_alloc *resolve(struct fw_device *dev, const struct fw_resource *r, size_t i)
{
	struct fw_alloc *a = NULL;
	uint32_t h = 0;

	assert_st(fw_res_surface_handle(r, i, &h), GM_OK);
	assert_st(fw_res_get_handle_data(dev, h, &a), GM_OK);
	assert_non_null(a);
	return a;
}
