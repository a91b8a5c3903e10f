/* SPDX-License-Identifier: MIT */
/*
 * bench_pipe.c - `gpusim bench`: the submission pipeline's host-side rates
 * (patch entries per second, DMA-buffer build MB/s) and the GPU-side
 * latency from SubmitCommand to retire of a minimal DMA buffer, GPU-VA
 * update batches, and Lock (latency idle and busy, aperture bytes/cycle, the
 * copy fallback's bytes/cycle).
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"
#include "fw_kmd.h"
#include "fw_umd.h"
#include "gpu_hw.h"

#define HOST_SECONDS 0.3 /* each host-side rate runs at least this long */

static double secs(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* A DMA buffer full of COPY packets between 32 allocations: two ADDR64
 * entries per packet.  0, or 1 when the builder refused a packet. */
static int build_copies(struct fw_umd *u)
{
	fw_umd_begin(u);
	for (uint32_t i = 0; u->b.len + 6 <= FW_KMD_DMA_DW; i++)
		if (fw_umd_copy(u, 0x100u + (i % 32u), 64u * i, 0x100u + ((i + 1) % 32u), 64u * i, 64))
			return 1;
	return 0;
}

/* dma_patch over one full DMA buffer, again and again. */
static int bench_patch(struct fw_umd *u)
{
	struct dma_alloc_entry ae[FW_KMD_MAX_ALLOCS];
	static uint32_t dma[FW_KMD_DMA_DW];
	struct dma_patch_args pa;
	uint64_t entries = 0, calls = 0;
	double t0, t;

	if (build_copies(u))
		return 1;
	for (uint32_t i = 0; i < u->nalloc; i++)
		ae[i] = (struct dma_alloc_entry){ .handle = &ae[i], .addr = 0x1000000ull * (i + 1),
						  .size = 1u << 20, .segment_id = 1 };
	memcpy(dma, u->dw, u->b.len * 4);
	dma_patch_args_init(&pa, dma, (uint32_t)u->b.len * 4u, GPU_SYSMEM_BASE, ae, u->nalloc, u->pl.e,
			    u->pl.len);
	t0 = secs();
	do {
		for (int i = 0; i < 64; i++, calls++) {
			ae[calls % u->nalloc].addr += 0x10000; /* an allocation moved */
			if (dma_patch(&pa))
				return 1;
			entries += u->pl.len;
		}
		t = secs() - t0;
	} while (t < HOST_SECONDS);
	printf("  patch: %u entries per %zu-dword DMA buffer, %.1f M entries/s (%.0f buffers/s,"
	       " every entry checked before any is written)\n", u->pl.len, u->b.len,
	       entries / t / 1e6, calls / t);
	return 0;
}

/*
 * Build rates: the user-mode builder (packets + allocation and patch lists,
 * fw_umd) and Render (validate, copy, resolve handles, check the patch
 * list: fw_kmd_render), in MB of DMA buffer per second.
 */
static int bench_build(struct fw_umd *u, struct fw_kmd *k, struct fw_dmabuf *out)
{
	struct fw_alloc_desc desc[32];
	struct fw_resource *res;
	struct fw_device *dev;
	struct fw_cmdbuf cb;
	uint64_t bytes = 0;
	double t0, t;

	t0 = secs();
	do {
		for (int i = 0; i < 64; i++) {
			if (build_copies(u))
				return 1;
			bytes += u->b.len * 4;
		}
		t = secs() - t0;
	} while (t < HOST_SECONDS);
	printf("  build: user command buffer of COPY packets with patch lists %.0f MB/s\n",
	       bytes / t / 1e6);

	for (unsigned i = 0; i < 32; i++)
		desc[i] = (struct fw_alloc_desc){ .size = 1u << 16, .width = 1u << 16, .height = 1,
						  .pitch = 1u << 16, .tile = GPU_TILE_LINEAR };
	if (fw_device_create(&k->ad, &dev) || fw_res_create(dev, desc, 32, false, &res))
		return 1;
	/* The same packets, named by this device's handles. */
	fw_umd_begin(u);
	for (uint32_t i = 0; u->b.len + 6 <= FW_KMD_DMA_DW; i++) {
		uint32_t hd = 0, hs = 0;

		if (fw_res_surface_handle(res, i % 32u, &hd) ||
		    fw_res_surface_handle(res, (i + 1) % 32u, &hs) ||
		    fw_umd_copy(u, hd, 64u * (i % 1000u), hs, 64u * (i % 1000u), 64))
			return 1;
	}
	fw_umd_cmdbuf(u, &cb);
	bytes = 0;
	t0 = secs();
	do {
		for (int i = 0; i < 64; i++) {
			uint32_t mp = 0;
			int st;

			do { /* as many DMA buffers as the patch list needs */
				st = fw_kmd_render(k, dev, &cb, &mp, out);
				if (st && st != GM_ERR_FULL)
					return 1;
				bytes += out->ndw * 4u;
			} while (st);
		}
		t = secs() - t0;
	} while (t < HOST_SECONDS);
	printf("  build: Render (validate, copy, resolve handles, check the patch list) %.0f MB/s"
	       " (%u dwords, %u patch entries per command buffer)\n", bytes / t / 1e6, cb.ndw, cb.nloc);
	return fw_kmd_device_destroy(k, dev, 0) ? 1 : 0;
}

/* Submit -> retire of a one-packet DMA buffer (WRITE_DATA of one dword to a
 * resident allocation), measured by the pipeline from SubmitCommand to the
 * interrupt handler retiring it. */
static int bench_latency(struct fw_umd *u, struct fw_kmd *k, struct fw_dmabuf *out)
{
	struct fw_alloc_desc desc = { .size = 4096, .width = 4096, .height = 1, .pitch = 4096,
				      .tile = GPU_TILE_LINEAR };
	struct fw_resource *res;
	struct fw_device *dev;
	struct fw_cmdbuf cb;
	uint64_t sum = 0, lo = UINT64_MAX, hi = 0;
	uint32_t h = 0, one = 1, mp = 0;
	const unsigned n = 100;

	if (fw_device_create(&k->ad, &dev) || fw_res_create(dev, &desc, 1, false, &res) ||
	    fw_res_surface_handle(res, 0, &h))
		return 1;
	fw_umd_begin(u);
	if (fw_umd_write(u, h, 0, &one, 1))
		return 1;
	fw_umd_cmdbuf(u, &cb);
	if (fw_kmd_render(k, dev, &cb, &mp, out))
		return 1;
	/* The first submission pages the allocation in; then measure. */
	for (unsigned i = 0; i <= n; i++) {
		uint64_t c;

		if (fw_kmd_submit(k, out, NULL, 0, NULL) || fw_kmd_idle(k, 1000000))
			return 1;
		c = k->st.last_submit_to_retire;
		if (i == 0)
			continue;
		sum += c;
		lo = c < lo ? c : lo;
		hi = c > hi ? c : hi;
	}
	printf("  submit -> retire, minimal DMA buffer (%u dwords, 1 patch): %.1f cycles average,"
	       " %" PRIu64 " min, %" PRIu64 " max over %u submissions\n", out->ndw,
	       (double)sum / n, lo, hi, n);
	return fw_kmd_device_destroy(k, dev, 1000000) ? 1 : 0;
}

/* Map 128 scattered 64 KiB tiles of @va in one batch after @f >= @wait;
 * the cycles until the paging queue signals @wait + 1, the batch's runs. */
static int gpuva_batch(struct fw_kmd *k, struct fw_device *dev, uint32_t f, uint64_t wait,
		       uint64_t va, uint32_t h, unsigned shift, uint64_t *cycles, uint32_t *runs)
{
	struct mmu_update_op ops[FW_GPUVA_MAX_BATCH_OPS];
	uint32_t hs[FW_GPUVA_MAX_BATCH_OPS];
	struct fw_gpuva_update_args u = { .fence = f, .num_operations = FW_GPUVA_MAX_BATCH_OPS,
					  .operations = ops, .allocations = hs, .fence_value = wait };
	const struct fw_gpuva_batch *last = NULL;
	uint64_t c0;

	for (unsigned i = 0; i < FW_GPUVA_MAX_BATCH_OPS; i++) {
		ops[i] = (struct mmu_update_op){ .operation_type = MMU_UPDATE_MAP,
						 .map = { .base_address = va + (2ull * i << 16),
							  .size_in_bytes = 1u << 16,
							  .allocation_offset = (uint64_t)((i + shift) % 16) << 16,
							  .flags = MMU_MAP_R | MMU_MAP_W | MMU_MAP_FRAG64K } };
		hs[i] = h;
	}
	c0 = gm_cycles(k->d->gm);
	if (fw_gpuva_update(k, dev, &u) || fw_mfence_wait(k, f, wait + 1, 10000000))
		return 1;
	*cycles = gm_cycles(k->d->gm) - c0;
	for (unsigned i = 0; i < FW_GPUVA_BATCHES; i++)
		if (k->va->vab[i].ndw && (!last || k->va->vab[i].seq > last->seq))
			last = &k->va->vab[i];
	*runs = last ? last->nruns : 0;
	return 0;
}

/* Cycles from a 128-operation UpdateGpuVirtualAddress batch's submission to
 * its fence (pfnUpdateGpuVirtualAddressCb's queue of 128
 * operations): with new page tables, and a remap. */
static int bench_gpuva(struct fw_kmd *k)
{
	const struct fw_alloc_desc d = { .size = 1u << 20, .width = 512, .height = 512, .pitch = 2048,
					 .bpe_log2 = 2, .tile = GPU_TILE_LINEAR };
	struct fw_gpuva_reserve_args r = { .minimum_address = 1ull << 32, .size = 32u << 20 };
	struct fw_resource *res;
	struct fw_device *dev;
	uint64_t c1, c2;
	uint32_t f, h, n1, n2;

	if (fw_device_create(&k->ad, &dev) || fw_gpuva_enable(k, dev) ||
	    fw_res_create(dev, &d, 1, false, &res) || fw_res_surface_handle(res, 0, &h) ||
	    fw_mfence_create(k, dev, 0, &f) || fw_gpuva_reserve(k, dev, &r))
		return 1;
	/* the first batch also brings the allocation in: not measured */
	if (gpuva_batch(k, dev, f, 0, r.virtual_address + (16u << 20), h, 0, &c1, &n1) ||
	    gpuva_batch(k, dev, f, 1, r.virtual_address, h, 0, &c1, &n1) ||
	    gpuva_batch(k, dev, f, 2, r.virtual_address, h, 5, &c2, &n2))
		return 1;
	printf("  GPU-VA update of 128 MAP operations (64 KiB tiles, scattered): %" PRIu64
	       " cycles from submission to FenceValue+1 with new tables (%u PTE_WRITE runs), %" PRIu64
	       " cycles remapping them (%u runs)\n", c1, n1, c2, n2);
	return fw_kmd_device_destroy(k, dev, 10000000) ? 1 : 0;
}

/* Lock @h with @flags and the cycles it took; *pd its pData. */
static int lock_cycles(struct fw_kmd *k, struct fw_device *dev, uint32_t h, uint32_t flags,
		       uint64_t *cycles, uint64_t *pd)
{
	struct fw_lock_args a = { .hAllocation = h, .Flags = flags };
	uint64_t c0 = gm_cycles(k->d->gm);

	if (fw_kmd_lock_cb(k, dev, &a))
		return 1;
	*cycles = gm_cycles(k->d->gm) - c0;
	*pd = a.pData;
	return 0;
}

static int unlock1(struct fw_kmd *k, struct fw_device *dev, uint32_t h)
{
	return fw_kmd_unlock_cb(k, dev, &(struct fw_unlock_args){ 1, &h }) ? 1 : 0;
}

/* pfnLockCb (d3dumddi.h): Lock's latency for an idle allocation and one a 1 MiB FILL is
 * writing, and the CPU's bytes per cycle through a swizzling range (a
 * 64 KiB Tile-Y surface). */
static int bench_lock(struct fw_umd *u, struct fw_kmd *k, struct fw_dmabuf *out)
{
	const struct fw_alloc_desc d[2] = {
		{ .size = 1u << 20, .width = 1024, .height = 256, .pitch = 4096, .bpe_log2 = 2,
		  .tile = GPU_TILE_LINEAR },
		{ .size = 1u << 16, .width = 128, .height = 128, .pitch = 512, .bpe_log2 = 2,
		  .tile = GPU_TILE_Y } };
	const struct dma_surf fill = { .pitch = 4096, .mode = GPU_TILE_LINEAR };
	static uint8_t buf[1u << 16];
	uint64_t idle, busy, wr, rd, pd, c0;
	struct fw_resource *res;
	struct fw_device *dev;
	struct fw_cmdbuf cb;
	uint32_t hb, ht;

	if (fw_device_create(&k->ad, &dev) || fw_res_create(dev, d, 2, false, &res) ||
	    fw_res_surface_handle(res, 0, &hb) || fw_res_surface_handle(res, 1, &ht))
		return 1;
	/* the first locks bring the allocations in: not measured */
	if (lock_cycles(k, dev, hb, 0, &idle, &pd) || unlock1(k, dev, hb) ||
	    lock_cycles(k, dev, hb, 0, &idle, &pd) || unlock1(k, dev, hb))
		return 1;
	fw_umd_begin(u);
	if (fw_umd_fill(u, hb, &fill, 4096, 256, 0x0101010101010101ull))
		return 1;
	fw_umd_cmdbuf(u, &cb);
	if (fw_kmd_submit_cmdbuf(k, dev, &cb, out, NULL) || lock_cycles(k, dev, hb, 0, &busy, &pd) ||
	    unlock1(k, dev, hb))
		return 1;
	if (lock_cycles(k, dev, ht, FW_LOCK_ACQUIREAPERTURE, &c0, &pd))
		return 1;
	c0 = gm_cycles(k->d->gm);
	if (gm_apt_write(k->d->gm, (uint32_t)pd, buf, sizeof(buf)))
		return 1;
	wr = gm_cycles(k->d->gm) - c0;
	c0 = gm_cycles(k->d->gm);
	if (gm_apt_read(k->d->gm, (uint32_t)pd, buf, sizeof(buf)) || unlock1(k, dev, ht))
		return 1;
	rd = gm_cycles(k->d->gm) - c0;
	printf("  Lock: %" PRIu64 " cycles for an idle allocation, %" PRIu64 " for one a 1 MiB FILL"
	       " is writing; through a swizzling range (64 KiB Tile-Y) the CPU writes %.2f and reads"
	       " %.2f bytes/cycle\n", idle, busy, (double)sizeof(buf) / (double)wr,
	       (double)sizeof(buf) / (double)rd);
	return fw_kmd_device_destroy(k, dev, 10000000) ? 1 : 0;
}

/* The CPU's bytes per cycle for a 1 MiB Tile-Y surface (512 x 512 x 4 bytes)
 * locked with LockEntire: through a swizzling range (written, then read),
 * and through the copy fallback with every range taken (read: lock with
 * ReadOnly; read-modify-write: lock and unlock, the copy engine's BLT in and
 * back; the CPU's own accesses to system memory take no cycles here). */
static int bench_lock_copy(struct fw_kmd *k)
{
	struct fw_alloc_desc d[1 + GPU_APT_RANGES] = {
		{ .size = 1u << 20, .width = 512, .height = 512, .pitch = 2048, .bpe_log2 = 2,
		  .tile = GPU_TILE_Y } };
	const uint32_t le = FW_LOCK_ACQUIREAPERTURE | FW_LOCK_LOCKENTIRE;
	uint64_t wr, rd, cin, cro, cout, pd, c0;
	uint32_t ht, hr[GPU_APT_RANGES];
	uint8_t *buf = calloc(1, 1u << 20);
	struct fw_resource *res;
	struct fw_device *dev;
	int bad = 1;

	for (unsigned i = 0; i < GPU_APT_RANGES; i++)
		d[1 + i] = (struct fw_alloc_desc){ .size = 4096, .width = 1024, .height = 1,
						   .pitch = 4096, .bpe_log2 = 2,
						   .tile = GPU_TILE_LINEAR };
	if (!buf || fw_device_create(&k->ad, &dev) ||
	    fw_res_create(dev, d, 1 + GPU_APT_RANGES, false, &res) ||
	    fw_res_surface_handle(res, 0, &ht))
		goto out;
	if (lock_cycles(k, dev, ht, le, &c0, &pd))
		goto out;
	c0 = gm_cycles(k->d->gm);
	if (gm_apt_write(k->d->gm, (uint32_t)pd, buf, 1u << 20))
		goto out;
	wr = gm_cycles(k->d->gm) - c0;
	c0 = gm_cycles(k->d->gm);
	if (gm_apt_read(k->d->gm, (uint32_t)pd, buf, 1u << 20) || unlock1(k, dev, ht))
		goto out;
	rd = gm_cycles(k->d->gm) - c0;
	for (unsigned i = 0; i < GPU_APT_RANGES; i++)
		if (fw_res_surface_handle(res, 1 + i, &hr[i]) ||
		    lock_cycles(k, dev, hr[i], FW_LOCK_ACQUIREAPERTURE, &c0, &pd))
			goto out;
	if (lock_cycles(k, dev, ht, le | FW_LOCK_READONLY, &cro, &pd) || unlock1(k, dev, ht) ||
	    lock_cycles(k, dev, ht, le, &cin, &pd) || gm_backdoor_write(k->d->gm, pd, buf, 1u << 20))
		goto out;
	c0 = gm_cycles(k->d->gm);
	if (unlock1(k, dev, ht))
		goto out;
	cout = gm_cycles(k->d->gm) - c0;
	printf("  Lock of a 1 MiB Tile-Y surface, CPU bytes/cycle: through a swizzling range"
	       " %.2f written, %.2f read; copy fallback (every range taken) %.2f read (ReadOnly"
	       " lock, %" PRIu64 " cycles), %.2f read-modify-write (lock %" PRIu64 " + unlock %"
	       PRIu64 " cycles)\n", (double)(1u << 20) / (double)wr, (double)(1u << 20) / (double)rd,
	       (double)(1u << 20) / (double)cro, cro, (double)(1u << 20) / (double)(cin + cout),
	       cin, cout);
	bad = fw_kmd_device_destroy(k, dev, 10000000) ? 1 : 0;
out:
	free(buf);
	return bad;
}

int bench_pipeline(void)
{
	struct fw_umd *u = calloc(1, sizeof(*u));
	struct fw_kmd *k = calloc(1, sizeof(*k));
	struct fw_dmabuf *out = calloc(1, sizeof(*out));
	struct fw_dev_cfg dc;
	struct fw_kmd_cfg kc;
	struct gm_config gc;
	struct fw_dev d;
	struct gm *g = NULL;
	int bad = 1;

	printf("bench: submission pipeline\n");
	gm_config_default(&gc);
	fw_dev_cfg_default(&dc);
	fw_kmd_cfg_default(&kc);
	kc.pt_bytes = 15ull << 20;
	if (u && k && out && !gm_create(&gc, &g) && !fw_dev_init(&d, g, &dc) &&
	    !fw_kmd_init(k, &d, &kc))
		bad = bench_patch(u) || bench_build(u, k, out) || bench_latency(u, k, out) ||
		      bench_gpuva(k) || bench_lock(u, k, out) || bench_lock_copy(k);
	if (bad)
		printf("  pipeline: failed\n");
	fw_kmd_fini(k);
	if (g)
		gm_destroy(g);
	free(u), free(k), free(out);
	return bad;
}
