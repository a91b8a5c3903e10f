/* SPDX-License-Identifier: MIT */
/*
 * scen_gpuva.c - the GPU-VA scenarios of `gpusim run` (GPU virtual
 * addresses: pfnReserveGpuVirtualAddressCb, pfnMapGpuVirtualAddressCb and
 * pfnUpdateGpuVirtualAddressCb in d3dumddi.h): a process with its own VMID whose page tables the GPU updates behind its monitored
 * fence (fw_gpuva.h).
 *
 *   vaupdate  reserve, map a buffer, render through the VA, remap it to
 *             another buffer behind the fence, copy mappings, unmap to
 *             null tiles; every buffer and the page tables checked
 *   tiled     a tiled (SS64K) resource whose 64 KiB tiles map to pages of a
 *             tile pool, some left null; the copy engine BLTs an image in,
 *             the tiles are remapped while the next BLT is queued behind
 *             the fence, and the image read back is checked tile by tile
 *             against a model of the mappings
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_hw.h"
#include "gpu_tile.h"
#include "scen_common.h"

#define VA_MIN (4ull << 30)
#define MIB (1ull << 20)
#define TILE (64ull << 10)

/* A one-surface resource of layout @d on @dev: its handle, *a the allocation. */
static int va_alloc(struct scen *s, struct fw_device *dev, const struct fw_alloc_desc *d,
		    uint32_t *h, struct fw_alloc **a)
{
	struct fw_resource *res;
	int st = fw_res_create(dev, d, 1, false, &res);

	(void)s;
	if (!st)
		st = fw_res_surface_handle(res, 0, h);
	if (!st)
		st = fw_res_get_handle_data(dev, *h, a);
	return st;
}

static uint64_t va_reserve(struct scen *s, struct fw_device *dev, uint64_t size,
			   enum fw_gpuva_reservation_type type)
{
	struct fw_gpuva_reserve_args r = { .minimum_address = VA_MIN, .size = size,
					   .reservation_type = type };

	return fw_gpuva_reserve(s->k, dev, &r) ? 0 : r.virtual_address;
}

/* One batch: @n operations, MAPs naming @h[i], after @fence >= @wait. */
static int va_update(struct scen *s, struct fw_device *dev, const struct mmu_update_op *ops,
		     const uint32_t *h, uint32_t n, uint32_t fence, uint64_t wait)
{
	struct fw_gpuva_update_args u = { .fence = fence, .num_operations = n, .operations = ops,
					  .allocations = h, .fence_value = wait };

	scen_say(s, "update: %u operation(s) once fence %u >= %" PRIu64 ", then it reads %" PRIu64
		 "\n", n, fence, wait, wait + 1);
	return fw_gpuva_update(s->k, dev, &u);
}

static struct mmu_update_op op_map(uint64_t va, uint64_t size, uint64_t off, unsigned flags)
{
	return (struct mmu_update_op){ .operation_type = MMU_UPDATE_MAP,
				       .map = { .base_address = va, .size_in_bytes = size,
						.allocation_offset = off,
						.flags = MMU_MAP_R | MMU_MAP_W | flags } };
}

static struct mmu_update_op op_unmap(uint64_t va, uint64_t size, enum mmu_unmap_mode m)
{
	return (struct mmu_update_op){ .operation_type = MMU_UPDATE_UNMAP,
				       .unmap = { .base_address = va, .size_in_bytes = size,
						  .protection = m } };
}

/* Submit the packets of @b (GPU VAs, no lists) on @dev, signalling @fence := @value. */
static int va_submit(struct scen *s, struct fw_device *dev, const struct dma_buf *b, uint32_t fence,
		     uint64_t value)
{
	struct fw_cmdbuf cb = { .dw = b->dw, .ndw = (uint32_t)b->len };
	struct fw_signal sig = { fence, value };

	scen_say(s, "render: %zu dwords, signals fence %u = %" PRIu64 "\n", b->len, fence, value);
	return fw_kmd_submit_cmdbuf(s->k, dev, &cb, s->buf, &sig);
}

/* The page tables in VRAM equal the driver's shadow: the GPU wrote them. */
static void check_tables(struct scen *s, const struct fw_device *dev)
{
	const struct fw_gpuva_space *v = s->k->va->vas[fw_gpuva_vmid(s->k, dev)];
	uint64_t used = v->pool_next - v->pool_pa;
	uint8_t *vram = malloc(used);
	bool ok = vram && !gm_backdoor_read(s->g, v->pool_pa, vram, used) &&
		  !memcmp(vram, v->sh.mem, used);

	scen_check(s, ok, "the %" PRIu64 " KiB of page tables in VRAM, written by the GPU only, equal"
		   " the driver's shadow", used >> 10);
	free(vram);
}

/* MMU_FAULT_COUNT (UINT32_MAX when unreadable). */
static uint32_t mmu_faults(struct scen *s)
{
	uint32_t n;

	return gm_reg_read(s->g, GPU_REG_MMU_FAULT_COUNT, &n) ? UINT32_MAX : n;
}

static void mmu_counters(struct scen *s)
{
	uint32_t hits = 0, misses = 0, walks = 0;

	if (gm_reg_read(s->g, GPU_REG_MMU_HITS, &hits) || gm_reg_read(s->g, GPU_REG_MMU_MISSES, &misses) ||
	    gm_reg_read(s->g, GPU_REG_MMU_WALKS, &walks))
		return;
	scen_say(s, "MMU: %u TLB hits, %u misses (%.1f %% hits), %u walks\n", hits, misses,
		 hits + misses ? 100.0 * hits / (hits + misses) : 0.0, walks);
}

/* Every 8-byte word of @n bytes at @p is @v. */
static bool all64(const uint8_t *p, size_t n, uint64_t v)
{
	for (size_t i = 0; i + 8 <= n; i += 8)
		if (memcmp(p + i, &v, 8))
			return false;
	return true;
}

/* ------------------------------------------------------------ vaupdate */

int scen_vaupdate(struct scen *s)
{
	const struct fw_alloc_desc d = scen_surface(GPU_TILE_LINEAR, 2, 512, 512); /* 1 MiB */
	const uint64_t px = 0x1111111111111111ull, py = 0x2222222222222222ull;
	uint32_t dw[64], f, hx, hy, hs[2], w33 = 0x33333333, w44 = 0x44444444;
	struct mmu_update_op ops[2];
	struct fw_alloc *ax, *ay;
	struct fw_device *dev;
	struct dma_surf vs = scen_surf_of(&d);
	struct dma_buf b;
	uint8_t *img;
	uint64_t va, got;

	TRY(fw_device_create(&s->k->ad, &dev));
	TRY(fw_gpuva_enable(s->k, dev));
	TRY(va_alloc(s, dev, &d, &hx, &ax));
	TRY(va_alloc(s, dev, &d, &hy, &ay));
	TRY(fw_mfence_create(s->k, dev, 0, &f));
	va = va_reserve(s, dev, 4 * MIB, FW_GPUVA_RESERVE_NO_ACCESS);
	if (!va)
		return GM_ERR_FULL;
	scen_say(s, "device %u in VMID %u: buffers X and Y of 1 MiB, 4 MiB reserved at 0x%" PRIx64 "\n",
		 dev->tag, fw_gpuva_vmid(s->k, dev), va);

	scen_say(s, "map [VA, +1 MiB) -> X as 64 KiB fragments\n");
	ops[0] = op_map(va, MIB, 0, MMU_MAP_FRAG64K);
	hs[0] = hx;
	TRY(va_update(s, dev, ops, hs, 1, f, 0));
	dma_buf_init(&b, dw, 64);
	vs.base = va;
	TRY(dma_emit_fill(&b, &vs, 512, 512, px));
	TRY(va_submit(s, dev, &b, f, 2));

	scen_say(s, "remap [VA, +1 MiB) -> Y behind the fill (fence >= 2)\n");
	ops[0] = op_map(va, MIB, 0, MMU_MAP_FRAG64K);
	hs[0] = hy;
	TRY(va_update(s, dev, ops, hs, 1, f, 2));
	dma_buf_init(&b, dw, 64);
	TRY(dma_emit_fill(&b, &vs, 512, 512, py));
	TRY(va_submit(s, dev, &b, f, 4));

	scen_say(s, "copy the mappings of [VA, +256 KiB) to VA + 2 MiB; [VA + 128 KiB, +128 KiB) "
		 "becomes null tiles\n");
	ops[0] = (struct mmu_update_op){ .operation_type = MMU_UPDATE_COPY,
					 .copy = { .source_address = va, .size_in_bytes = 256u << 10,
						   .dest_address = va + 2 * MIB } };
	ops[1] = op_unmap(va + (128u << 10), 128u << 10, MMU_UNMAP_ZERO);
	TRY(va_update(s, dev, ops, hs, 2, f, 4));
	dma_buf_init(&b, dw, 64);
	TRY(dma_emit_write_data(&b, va + 2 * MIB + 8, &w33, 1));
	TRY(dma_emit_write_data(&b, va + (128u << 10) + 8, &w44, 1));
	TRY(va_submit(s, dev, &b, f, 6));
	TRY(fw_mfence_wait(s->k, f, 6, WAIT_BUDGET));

	img = scen_buf(s, MIB);
	if (!img)
		return GM_ERR_NO_MEM;
	TRY(gm_backdoor_read(s->g, ax->loc.addr, img, MIB));
	scen_check(s, all64(img, MIB, px), "X holds the first fill (written before the remap)");
	TRY(gm_backdoor_read(s->g, ay->loc.addr, img, MIB));
	scen_check(s, all64(img + 16, MIB - 16, py) && all64(img, 8, py) &&
			      !memcmp(img + 8, &w33, 4),
		   "Y holds the second fill, and the write through the copied mapping at Y + 8");
	scen_check(s, all64(img + (128u << 10), 16, py),
		   "the write to the null tile at VA + 128 KiB + 8 was dropped");
	TRY(fw_mfence_read(s->k, f, &got));
	scen_check(s, got == 6, "fence %u reads 6 (%" PRIu64 ")", f, got);
	scen_check(s, s->k->st.tdrs == 0 && mmu_faults(s) == 0, "no fault, no TDR");
	check_tables(s, dev);
	mmu_counters(s);
	return fw_kmd_device_destroy(s->k, dev, WAIT_BUDGET);
}

/* ------------------------------------------------------------ tiled */

#define TS_W 512u            /* surface: 512 x 384 4-byte elements, 4 x 3 tiles of 128 x 128 */
#define TS_H 384u
#define TS_TILES 12u
#define TS_MAPPED 9u         /* tiles mapped at first, the rest null */
#define TS_BYTES (TS_W * TS_H * 4u) /* 768 KiB: its capture stays under 1 MiB */
#define TS_PITCH 2048u

/* The pool tile @map[t] surface tile t maps to, or -1 (null). */
static int tiles_map(struct scen *s, struct fw_device *dev, uint64_t vt, uint32_t hp,
		     const int *map, const int *old, uint32_t fence, uint64_t wait)
{
	struct mmu_update_op ops[TS_TILES];
	uint32_t hs[TS_TILES], n = 0;

	for (unsigned t = 0; t < TS_TILES; t++) {
		if (old && old[t] == map[t])
			continue;
		hs[n] = hp;
		ops[n++] = map[t] < 0 ? op_unmap(vt + t * TILE, TILE, MMU_UNMAP_ZERO)
				      : op_map(vt + t * TILE, TILE, (uint64_t)map[t] * TILE,
					       MMU_MAP_FRAG64K);
	}
	return va_update(s, dev, ops, hs, n, fence, wait);
}

int scen_tiled(struct scen *s)
{
	const struct fw_alloc_desc lin = scen_surface(GPU_TILE_LINEAR, 2, TS_W, TS_W);
	int map1[TS_TILES], map2[TS_TILES], written[TS_TILES]; /* pool tile -> surface tile of R1 */
	uint32_t dw[64], f, hs, hd, hp, h3[3];
	struct fw_alloc *as, *ad, *ap;
	struct mmu_update_op ops[3];
	struct dma_surf ts, ls;
	struct fw_device *dev;
	uint32_t *src, *out;
	struct dma_buf b;
	uint64_t vt, vl;
	unsigned bad = 0;

	TRY(fw_device_create(&s->k->ad, &dev));
	TRY(fw_gpuva_enable(s->k, dev));
	TRY(va_alloc(s, dev, &lin, &hs, &as));
	TRY(va_alloc(s, dev, &lin, &hd, &ad));
	TRY(va_alloc(s, dev, &lin, &hp, &ap)); /* the tile pool: 16 pages of 64 KiB */
	TRY(fw_mfence_create(s->k, dev, 0, &f));
	vt = va_reserve(s, dev, MIB, FW_GPUVA_RESERVE_ZERO);
	vl = va_reserve(s, dev, 4 * MIB, FW_GPUVA_RESERVE_NO_ACCESS);
	if (!vt || !vl)
		return GM_ERR_FULL;
	scen_say(s, "device %u in VMID %u: a 512 x 384 SS64K resource reserved at 0x%" PRIx64
		 " (12 tiles, null until mapped), source and destination images and a 16-page tile"
		 " pool\n", dev->tag, fw_gpuva_vmid(s->k, dev), vt);
	ops[0] = op_map(vl, MIB, 0, MMU_MAP_FRAG64K);
	ops[1] = op_map(vl + MIB, MIB, 0, MMU_MAP_FRAG64K);
	h3[0] = hs;
	h3[1] = hd;
	TRY(va_update(s, dev, ops, h3, 2, f, 0));
	/* The source image, written by the CPU (it is resident and pinned now). */
	src = scen_buf(s, MIB);
	out = scen_buf(s, MIB);
	if (!src || !out)
		return GM_ERR_NO_MEM;
	for (uint32_t i = 0; i < TS_W * TS_H; i++)
		src[i] = scen_rnd(s) | 1u; /* never 0: a null tile's 0 stands out */
	TRY(gm_backdoor_write(s->g, as->loc.addr, src, TS_BYTES));

	/* Map TS_MAPPED tiles to distinct pool pages in random order, the rest stay null. */
	for (unsigned t = 0; t < TS_TILES; t++)
		map1[t] = (int)t;
	for (unsigned t = TS_TILES - 1; t > 0; t--) {
		unsigned j = scen_rnd(s) % (t + 1);
		int x = map1[t];

		map1[t] = map1[j];
		map1[j] = x;
	}
	for (unsigned t = TS_MAPPED; t < TS_TILES; t++)
		map1[t] = -1;
	for (unsigned t = 0; t < TS_TILES; t++) {
		unsigned j = scen_rnd(s) % TS_TILES, x = (unsigned)map1[t];

		map1[t] = map1[j]; /* scatter the null tiles among the mapped ones */
		map1[j] = (int)x;
	}
	TRY(tiles_map(s, dev, vt, hp, map1, NULL, f, 1));
	ts = (struct dma_surf){ .base = vt, .pitch = TS_PITCH, .mode = GPU_TILE_SS64K, .bpe_log2 = 2 };
	ls = (struct dma_surf){ .base = vl, .pitch = TS_PITCH, .mode = GPU_TILE_LINEAR, .bpe_log2 = 2 };
	dma_buf_init(&b, dw, 64);
	TRY(dma_emit_blt(&b, &ts, &ls, TS_W, TS_H));
	TRY(va_submit(s, dev, &b, f, 3));

	/* Behind the BLT: swap three pages, null two tiles, map a null tile to a
	 * page nobody wrote. */
	memcpy(map2, map1, sizeof(map2));
	for (unsigned t = 0, moved = 0, nulled = 0, fresh = 0; t < TS_TILES; t++) {
		if (map1[t] >= 0 && moved < 3) {
			map2[t] = map1[(t + 5) % TS_TILES] >= 0 ? map1[(t + 5) % TS_TILES] : map1[t];
			moved++;
		} else if (map1[t] >= 0 && nulled < 2) {
			map2[t] = -1;
			nulled++;
		} else if (map1[t] < 0 && !fresh) {
			bool used[TS_TILES] = { false };

			for (unsigned u = 0; u < TS_TILES; u++)
				if (map1[u] >= 0)
					used[map1[u]] = true;
			for (unsigned p = 0; p < TS_TILES; p++)
				if (!used[p]) {
					map2[t] = (int)p;
					break;
				}
			fresh = 1;
		}
	}
	TRY(tiles_map(s, dev, vt, hp, map2, map1, f, 3));
	dma_buf_init(&b, dw, 64);
	ls.base = vl + MIB;
	TRY(dma_emit_blt(&b, &ls, &ts, TS_W, TS_H));
	TRY(va_submit(s, dev, &b, f, 5));
	TRY(fw_mfence_wait(s->k, f, 5, WAIT_BUDGET));

	/* The model: pool page p holds what the first BLT wrote through the
	 * surface tile mapped to it then (zero if none); the second BLT reads
	 * each tile through the page it maps to now. */
	for (unsigned p = 0; p < TS_TILES; p++)
		written[p] = -1;
	for (unsigned t = 0; t < TS_TILES; t++)
		if (map1[t] >= 0)
			written[map1[t]] = (int)t;
	TRY(gm_backdoor_read(s->g, ad->loc.addr, out, TS_BYTES));
	for (unsigned t = 0; t < TS_TILES; t++) {
		unsigned tx = t % 4, ty = t / 4, wrong = 0;
		int from = map2[t] < 0 ? -1 : written[map2[t]];

		for (unsigned y = 0; y < 128; y++)
			for (unsigned x = 0; x < 128; x++) {
				uint32_t want = from < 0 ? 0
							 : src[((unsigned)from / 4 * 128 + y) * TS_W +
							       (unsigned)from % 4 * 128 + x];

				wrong += out[(ty * 128 + y) * TS_W + tx * 128 + x] != want;
			}
		bad += wrong != 0;
		scen_check(s, wrong == 0, "tile (%u, %u): %s%s", tx, ty,
			   map2[t] < 0 ? "null, reads zero"
			   : from < 0  ? "a page nobody wrote, reads zero"
				       : "reads the source tile written through its page",
			   map2[t] != map1[t] ? " (remapped behind the fence)" : "");
	}
	scen_check(s, bad == 0 && s->k->st.tdrs == 0 && mmu_faults(s) == 0,
		   "every tile as the mappings say, no fault");
	check_tables(s, dev);
	mmu_counters(s);
	return fw_kmd_device_destroy(s->k, dev, WAIT_BUDGET);
}
