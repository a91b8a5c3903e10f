/* SPDX-License-Identifier: MIT */
/*
 * bench_mmu.c - what translation costs: the MMU's hit rate and latency on
 * one-dword writes, and the copy engine's bytes per cycle on a large COPY
 * and FILL, physical and through scattered 4 KiB pages (every page of the
 * source and destination at a shuffled physical page, so nothing but the
 * page tables keeps neighbours together).  Cycles from the model: they do
 * not move with the host's load.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"
#include "dma_buf.h"
#include "fw_dev.h"
#include "fw_vm.h"
#include "gm.h"
#include "gm_backend.h"
#include "gpu_hw.h"

/*
 * TLB hit rate and translation latency for @accesses one-dword writes by a
 * queue in VMID 1 over 2048 mapped 4 KiB pages: in address order (64 bytes
 * apart) or at random (seeded).  Counts include the queue's own ring, IB
 * and fence accesses, which are translated too.
 */
int bench_mmu(bool random, unsigned accesses)
{
	static uint32_t ib[3072];
	const uint64_t va0 = 0x0000200000000000ull, pages = 2048;
	struct gm_config cfg;
	struct fw_dev_cfg dc;
	struct fw_dev d;
	struct fw_vm vm;
	struct gm *g;
	uint64_t ib_addr, f, s = 0x9e3779b97f4a7c15ull, n = 0;
	uint32_t h, m, w, wc, wmax;
	int st;

	gm_config_default(&cfg);
	if (gm_create(&cfg, &g))
		return 1;
	fw_dev_cfg_default(&dc);
	st = fw_dev_init(&d, g, &dc);
	if (!st)
		st = fw_vm_init(&vm, &d, 1);
	if (!st)
		st = fw_vm_map(&vm, va0, pages << 12, GPU_VRAM_BASE + (16ull << 20), MMU_MAP_R | MMU_MAP_W);
	if (!st)
		st = fw_queue_set_vm(&d, FW_QUEUE_RENDER, &vm);
	if (!st)
		st = fw_alloc_sys(&d, sizeof(ib), 256, &ib_addr);
	while (!st && n < accesses) {
		struct dma_buf b;
		uint32_t one = 1;

		dma_buf_init(&b, ib, 3072);
		for (; n < accesses && dma_buf_room(&b) >= 4; n++) {
			uint64_t off;

			if (random) {
				s ^= s << 13, s ^= s >> 7, s ^= s << 17;
				off = (s % (pages << 12)) & ~3ull;
			} else {
				off = (n * 64) % (pages << 12);
			}
			dma_emit_write_data(&b, va0 + off, &one, 1);
		}
		gm_backdoor_write(g, ib_addr, ib, b.len * 4);
		st = fw_submit_ib(&d, FW_QUEUE_RENDER, ib_addr, (uint32_t)b.len, &f);
		if (!st)
			st = fw_fence_wait(&d, FW_QUEUE_RENDER, f, 50000000);
	}
	gm_reg_read(g, GPU_REG_MMU_HITS, &h);
	gm_reg_read(g, GPU_REG_MMU_MISSES, &m);
	gm_reg_read(g, GPU_REG_MMU_WALKS, &w);
	gm_reg_read(g, GPU_REG_MMU_WALK_CYCLES, &wc);
	gm_reg_read(g, GPU_REG_MMU_WALK_MAX, &wmax);
	gm_destroy(g);
	if (st) {
		printf("  mmu %s: failed (%s)\n", random ? "random" : "sequential", gm_status_name(st));
		return 1;
	}
	/* A hit costs the one register stage; a miss that stage plus its walk. */
	printf("  mmu %-10s %6u accesses: TLB hit rate %5.1f%% (%u hits, %u misses, %u walks); "
	       "translation latency average %.2f, maximum %u cycles (walker busy %.1f cycles per walk)\n",
	       random ? "random" : "sequential", accesses, 100.0 * h / (h + m), h, m, w,
	       (double)(h + m + wc) / (h + m), wmax + 1, w ? (double)wc / w : 0.0);
	return 0;
}

/* Map @pages 4 KiB pages from @va, page i to the VRAM page at @pa0 plus a
 * shuffled index (a fixed multiplier prime to @pages, a power of two). */
static int map_scattered(struct fw_vm *vm, uint64_t va, uint64_t pa0, uint64_t pages)
{
	int st = GM_OK;

	for (uint64_t i = 0; i < pages && !st; i++) {
		uint64_t j = (i * 2654435761u + 977u) & (pages - 1);

		st = fw_vm_map(vm, va + (i << 12), 4096, pa0 + (j << 12), MMU_MAP_R | MMU_MAP_W);
	}
	return st;
}

int bench_ce_run(struct fw_dev *d, const struct dma_buf *b, uint32_t *busy, uint32_t *bytes)
{
	uint64_t ib_addr, f;
	int st = fw_alloc_sys(d, b->len * 4, 256, &ib_addr);

	if (!st)
		st = gm_backdoor_write(d->gm, ib_addr, b->dw, b->len * 4);
	if (!st)
		st = fw_submit_ib(d, FW_QUEUE_RENDER, ib_addr, (uint32_t)b->len, &f);
	if (!st)
		st = fw_fence_wait(d, FW_QUEUE_RENDER, f, 100000000);
	if (!st)
		st = gm_reg_read(d->gm, GPU_REG_CE_BUSY_CYCLES, busy);
	if (!st)
		st = gm_reg_read(d->gm, GPU_REG_CE_BYTES, bytes);
	return st;
}

/* The copy engine's busy cycles for one 2 MiB COPY (@copy) or FILL on an
 * idle GPU, physical or (@xlat) through scattered 4 KiB pages of VMID 1;
 * also the MMU's walks. */
static int ce_run(bool copy, bool xlat, uint32_t *busy, uint32_t *bytes, uint32_t *walks)
{
	const uint64_t mib2 = 2u << 20, pages = mib2 >> 12;
	const uint64_t va_src = 0x0000200000000000ull, va_dst = 0x0000300000000000ull;
	const uint64_t pa_src = GPU_VRAM_BASE + (16ull << 20), pa_dst = GPU_VRAM_BASE + (32ull << 20);
	static uint32_t ib[64];
	struct gm_config cfg;
	struct fw_dev_cfg dc;
	struct fw_dev d;
	struct fw_vm vm;
	struct dma_buf b;
	struct gm *g;
	uint64_t src = xlat ? va_src : pa_src, dst = xlat ? va_dst : pa_dst;
	struct dma_surf s = { dst, 4096, GPU_TILE_LINEAR, 2, 0, 0 };
	int st;

	gm_config_default(&cfg);
	if (gm_create(&cfg, &g))
		return GM_ERR_NO_MEM;
	fw_dev_cfg_default(&dc);
	st = fw_dev_init(&d, g, &dc);
	if (!st && xlat)
		st = fw_vm_init(&vm, &d, 1);
	if (!st && xlat)
		st = map_scattered(&vm, va_src, pa_src, pages);
	if (!st && xlat)
		st = map_scattered(&vm, va_dst, pa_dst, pages);
	if (!st && xlat)
		st = fw_queue_set_vm(&d, FW_QUEUE_RENDER, &vm);
	dma_buf_init(&b, ib, 64);
	if (!st)
		st = copy ? dma_emit_copy(&b, dst, src, (uint32_t)mib2) :
			    dma_emit_fill(&b, &s, 1024, 512, 0x0123456789abcdefull);
	if (!st)
		st = bench_ce_run(&d, &b, busy, bytes);
	if (!st)
		st = gm_reg_read(g, GPU_REG_MMU_WALKS, walks);
	gm_destroy(g);
	return st;
}

int bench_ce_xlat(void)
{
	static const struct {
		const char *what;
		bool copy, xlat;
	} c[] = {
		{ "COPY physical", true, false },
		{ "COPY scattered 4 KiB pages", true, true },
		{ "FILL physical", false, false },
		{ "FILL scattered 4 KiB pages", false, true },
	};
	int bad = 0;

	printf("bench: copy engine, 2 MiB, physical and translated (VMID 1)\n");
	for (unsigned i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		uint32_t busy = 0, bytes = 0, walks = 0;
		int st = ce_run(c[i].copy, c[i].xlat, &busy, &bytes, &walks);
		/* a COPY crosses the port twice (read and write), a FILL once */
		double port = (c[i].copy ? 2.0 : 1.0) * bytes / ((double)GM_BEAT_BYTES * busy);

		if (st || !busy) {
			printf("  ce %s: failed (%s)\n", c[i].what, gm_status_name(st));
			bad = 1;
			continue;
		}
		printf("  ce %-28s %8u bytes in %8u cycles: %5.2f bytes/cycle, memory port %5.1f%% "
		       "of peak, %u walks\n", c[i].what, bytes, busy, (double)bytes / busy,
		       100.0 * port, walks);
	}
	return bad;
}
