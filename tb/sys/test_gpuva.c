/* SPDX-License-Identifier: MIT */
/*
 * test_gpuva.c - per-process GPU virtual addressing and
 * UpdateGpuVirtualAddress through the pipeline on the RTL (fw_gpuva.h,
 * pfnUpdateGpuVirtualAddressCb in d3dumddi.h).
 *
 * Testplan
 *   a GPU-VA device renders translated in its VMID; the page tables in
 *   VRAM were written by the GPU and equal the driver's shadow ...... test_map_render
 *   ZERO reservations drop writes and read 0; NO_ACCESS faults ...... test_map_render
 *   an update waits for FenceValue: a buffer before it sees the old
 *   mapping, one after it the new; FenceValue + 1 is signalled ....... test_update_order
 *   a batch whose FenceValue no submitted work will signal is held in
 *   the driver; the 128-operation limit blocks (TIMEOUT when nothing
 *   can progress) and lets go once the fence is submitted ........... test_held_and_limit
 *   isolation: one process's buffer faults on another's VA; TDR
 *   removes only it ................................................. test_isolation
 *   bad arguments: exact code, nothing queued ....................... test_bad_args
 *   a mapped allocation evicted and paged in again: its translations
 *   follow it, its data and the writes through the VA with it; destroyed
 *   while mapped, it is unmapped first ............................... test_residency
 *   TDR with page-table work queued: the fence stays at its maximum,
 *   the held batch is dropped, the other process runs on ............ test_removed_device
 *   seeded random MAP / UNMAP / COPY batches (overlapping copies
 *   included) interleaved with rendering, against a C model of the
 *   mappings and the pool's contents ............................... test_random_batches
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dma_buf.h"
#include "fw_kmd.h"
#include "fw_umd.h"
#include "tb_seed.h"
#include "tb_util.h"

#define BUDGET 2000000ull
#define VA_PT_BYTES (15ull << 20)   /* 1 MiB of tables per VMID */
#define ABUF_BYTES (256u << 10)
#define TILE_B (64ull << 10)
#define BIN "build/tests/test_gpuva"
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

struct gx {
	struct tb t;
	struct fw_kmd *k;
	struct fw_dmabuf *scratch;
};

static void gx_open_seg(struct gx *x, uint64_t tdr_cycles, uint64_t vram_seg);

static void gx_open(struct gx *x, uint64_t tdr_cycles)
{
	gx_open_seg(x, tdr_cycles, 64ull << 20);
}

/* A model, its device layer and a pipeline with a @vram_seg VRAM segment. */
static void gx_open_seg(struct gx *x, uint64_t tdr_cycles, uint64_t vram_seg)
{
	struct fw_kmd_cfg kc;
	int st;

	memset(x, 0, sizeof(*x));
	tb_open(&x->t);
	x->k = calloc(1, sizeof(*x->k));
	x->scratch = calloc(1, sizeof(*x->scratch));
	assert_true(x->k && x->scratch);
	fw_kmd_cfg_default(&kc);
	kc.vram_bytes = vram_seg;
	kc.pt_bytes = VA_PT_BYTES;
	kc.tdr_cycles = tdr_cycles;
	kc.log = getenv("GPUSIM_KMD_LOG") ? stderr : NULL;
	st = fw_kmd_init(x->k, &x->t.d, &kc);
	if (st)
		fail_msg("fw_kmd_init: %s", gm_status_name(st));
}

static void gx_close(struct gx *x)
{
	fw_kmd_fini(x->k);
	free(x->k);
	free(x->scratch);
	tb_close(&x->t);
}

static struct fw_device *gx_device(struct gx *x, bool gpuva)
{
	struct fw_device *dev;

	assert_int_equal(fw_device_create(&x->k->ad, &dev), GM_OK);
	if (gpuva)
		assert_int_equal(fw_gpuva_enable(x->k, dev), GM_OK);
	return dev;
}

/* A linear allocation of @bytes (whole 4 KiB rows) on @dev: its handle, *a
 * its record, *res (unless NULL) its resource. */
static uint32_t gx_alloc_n(struct fw_device *dev, uint64_t bytes, struct fw_alloc **a,
			   struct fw_resource **res)
{
	const struct fw_alloc_desc d = { .size = bytes, .width = 1024, .height = (uint32_t)(bytes / 4096),
					 .pitch = 4096, .bpe_log2 = 2, .tile = GPU_TILE_LINEAR };
	struct fw_resource *r;
	uint32_t h;

	assert_int_equal(fw_res_create(dev, &d, 1, false, &r), GM_OK);
	assert_int_equal(fw_res_surface_handle(r, 0, &h), GM_OK);
	assert_int_equal(fw_res_get_handle_data(dev, h, a), GM_OK);
	if (res)
		*res = r;
	return h;
}

static uint32_t gx_alloc(struct fw_device *dev, struct fw_alloc **a)
{
	return gx_alloc_n(dev, ABUF_BYTES, a, NULL);
}

static uint64_t gx_reserve(struct gx *x, struct fw_device *dev, uint64_t size,
			   enum fw_gpuva_reservation_type type)
{
	struct fw_gpuva_reserve_args r = { .minimum_address = 1ull << 32, .size = size,
					   .reservation_type = type };

	assert_int_equal(fw_gpuva_reserve(x->k, dev, &r), GM_OK);
	return r.virtual_address;
}

/* Map VA [va, + size) to bytes [off, + size) of allocation @h, after @fence >= @wait. */
static int gx_map(struct gx *x, struct fw_device *dev, uint32_t fence, uint64_t wait, uint64_t va,
		  uint64_t size, uint32_t h, uint64_t off)
{
	struct mmu_update_op op = { .operation_type = MMU_UPDATE_MAP,
				    .map = { .base_address = va, .size_in_bytes = size,
					     .allocation_offset = off,
					     .flags = MMU_MAP_R | MMU_MAP_W } };
	struct fw_gpuva_update_args u = { .fence = fence, .num_operations = 1, .operations = &op,
					  .allocations = &h, .fence_value = wait };

	return fw_gpuva_update(x->k, dev, &u);
}

/* Submit the packets of @b (GPU VAs, no lists) on @dev, signalling @fence := @value. */
static int gx_submit(struct gx *x, struct fw_device *dev, const struct dma_buf *b, uint32_t fence,
		     uint64_t value)
{
	struct fw_cmdbuf cb = { .dw = b->dw, .ndw = (uint32_t)b->len };
	struct fw_signal sig = { fence, value };

	return fw_kmd_submit_cmdbuf(x->k, dev, &cb, x->scratch, fence ? &sig : NULL);
}

static uint32_t mem32(struct gx *x, uint64_t pa)
{
	return tb_mem32(&x->t, pa);
}

/* The page-table pool in VRAM equals the driver's shadow, byte for byte:
 * the GPU wrote every change the shadow holds. */
static void expect_tables_written(struct gx *x, const struct fw_device *dev)
{
	const struct fw_gpuva_space *s = x->k->va->vas[fw_gpuva_vmid(x->k, dev)];
	uint64_t used = s->pool_next - s->pool_pa;
	uint8_t *vram = malloc(used);

	assert_non_null(vram);
	assert_int_equal(gm_backdoor_read(x->t.g, s->pool_pa, vram, used), GM_OK);
	for (uint64_t i = 0; i < used; i++)
		if (vram[i] != s->sh.mem[i])
			fail_msg("page-table byte 0x%" PRIx64 " (VRAM 0x%" PRIx64 "): 0x%02x, the shadow"
				 " says 0x%02x", i, s->pool_pa + i, vram[i], s->sh.mem[i]);
	free(vram);
}

/* Batches the driver holds (their FenceValue not yet due). */
static unsigned held_batches(const struct gx *x)
{
	unsigned n = 0;

	for (unsigned i = 0; i < FW_GPUVA_BATCHES; i++)
		n += x->k->va->vab[i].used && x->k->va->vab[i].held;
	return n;
}

/* ------------------------------------------------------------ tests */

static void test_map_render(void **state)
{
	uint32_t dw[64], v = 0x600dcafe, f, h;
	struct fw_device *dev;
	struct fw_alloc *a;
	struct dma_buf b;
	struct gx x;
	uint64_t va, vz, got;

	(void)state;
	gx_open(&x, 200000);
	dev = gx_device(&x, true);
	assert_int_not_equal(fw_gpuva_vmid(x.k, dev), 0);
	h = gx_alloc(dev, &a);
	assert_int_equal(fw_mfence_create(x.k, dev, 0, &f), GM_OK);
	va = gx_reserve(&x, dev, 1u << 20, FW_GPUVA_RESERVE_NO_ACCESS);
	vz = gx_reserve(&x, dev, 1u << 20, FW_GPUVA_RESERVE_ZERO);
	assert_int_equal(gx_map(&x, dev, f, 0, va, 64u << 10, h, 0), GM_OK);
	/* Write through the VA, copy inside it, and write into the null tiles. */
	dma_buf_init(&b, dw, 64);
	assert_int_equal(dma_emit_write_data(&b, va + 0x100, &v, 1), GM_OK);
	assert_int_equal(dma_emit_copy(&b, va + 0x2000, va + 0x100, 4), GM_OK);
	assert_int_equal(dma_emit_write_data(&b, vz + 0x40, &v, 1), GM_OK);
	assert_int_equal(dma_emit_copy(&b, va + 0x3000, vz + 0x40, 4), GM_OK);
	assert_int_equal(gx_submit(&x, dev, &b, f, 2), GM_OK);
	assert_int_equal(fw_mfence_wait(x.k, f, 2, BUDGET), GM_OK);
	if (x.k->st.tdrs)
		fail_msg("fault: %s VA 0x%" PRIx64 " vmid %u cause %u client %u", x.t.d.fault.write ? "write" : "read",
			 x.t.d.fault.va, x.t.d.fault.vmid, x.t.d.fault.cause, x.t.d.fault.client);
	assert_int_equal(mem32(&x, a->loc.addr + 0x100), 0x600dcafe);
	assert_int_equal(mem32(&x, a->loc.addr + 0x2000), 0x600dcafe);
	assert_int_equal(mem32(&x, a->loc.addr + 0x3000), 0); /* a null tile reads 0 */
	assert_int_equal(x.k->st.tdrs, 0);
	assert_int_equal(fw_mfence_read(x.k, f, &got), GM_OK);
	assert_int_equal(got, 2);
	expect_tables_written(&x, dev);
	/* The rest of the NO_ACCESS reservation faults: the queue error removes the device. */
	dma_buf_init(&b, dw, 64);
	assert_int_equal(dma_emit_write_data(&b, va + (64u << 10), &v, 1), GM_OK);
	assert_int_equal(gx_submit(&x, dev, &b, f, 3), GM_OK);
	assert_int_equal(fw_kmd_idle(x.k, BUDGET), GM_OK);
	assert_int_equal(x.t.d.fault.va, va + (64u << 10));
	assert_int_equal(x.t.d.fault.vmid, fw_gpuva_vmid(x.k, dev));
	assert_true(fw_device_is_removed(dev));
	gx_close(&x);
}

static void test_update_order(void **state)
{
	uint32_t dw[64], one = 1, two = 2, f, hx, hy;
	struct fw_alloc *ax, *ay;
	struct fw_device *dev;
	struct dma_buf b;
	struct gx x;
	uint64_t va;

	(void)state;
	gx_open(&x, 200000);
	dev = gx_device(&x, true);
	hx = gx_alloc(dev, &ax);
	hy = gx_alloc(dev, &ay);
	assert_int_equal(fw_mfence_create(x.k, dev, 0, &f), GM_OK);
	va = gx_reserve(&x, dev, 1u << 20, FW_GPUVA_RESERVE_NO_ACCESS);
	assert_int_equal(gx_map(&x, dev, f, 0, va, 64u << 10, hx, 0), GM_OK);
	/* R1 (a long wait first) writes 1 through VA -> X and signals 2 */
	dma_buf_init(&b, dw, 64);
	assert_int_equal(dma_emit_nop(&b, 40), GM_OK);
	assert_int_equal(dma_emit_write_data(&b, va, &one, 1), GM_OK);
	assert_int_equal(gx_submit(&x, dev, &b, f, 2), GM_OK);
	/* VA -> Y once R1 is done; the update signals 3 */
	assert_int_equal(gx_map(&x, dev, f, 2, va, 64u << 10, hy, 0), GM_OK);
	/* R2 writes 2 through the same VA */
	dma_buf_init(&b, dw, 64);
	assert_int_equal(dma_emit_write_data(&b, va, &two, 1), GM_OK);
	assert_int_equal(gx_submit(&x, dev, &b, f, 4), GM_OK);
	assert_int_equal(fw_mfence_wait(x.k, f, 4, BUDGET), GM_OK);
	assert_int_equal(mem32(&x, ax->loc.addr), 1);
	assert_int_equal(mem32(&x, ay->loc.addr), 2);
	expect_tables_written(&x, dev);
	gx_close(&x);
}

static void test_held_and_limit(void **state)
{
	struct mmu_update_op ops[FW_GPUVA_MAX_BATCH_OPS];
	uint32_t dw[16], hs[FW_GPUVA_MAX_BATCH_OPS], f, h, v = 7;
	struct fw_gpuva_update_args u;
	struct fw_device *dev;
	struct fw_alloc *a;
	struct dma_buf b;
	struct gx x;
	uint64_t va, got;

	(void)state;
	gx_open(&x, 200000);
	dev = gx_device(&x, true);
	h = gx_alloc(dev, &a);
	assert_int_equal(fw_mfence_create(x.k, dev, 0, &f), GM_OK);
	va = gx_reserve(&x, dev, 8u << 20, FW_GPUVA_RESERVE_NO_ACCESS);
	assert_int_equal(fw_kmd_idle(x.k, BUDGET), GM_OK);
	assert_int_equal(fw_gpuva_queued_ops(x.k), 0);
	/* 100 operations waiting for fence value 5, which nothing will signal yet */
	for (unsigned i = 0; i < FW_GPUVA_MAX_BATCH_OPS; i++) {
		ops[i] = (struct mmu_update_op){ .operation_type = MMU_UPDATE_MAP,
						 .map = { .base_address = va + 0x10000ull * i,
							  .size_in_bytes = 0x10000,
							  .allocation_offset = 0x10000ull * (i % 4),
							  .flags = MMU_MAP_R | MMU_MAP_W } };
		hs[i] = h;
	}
	u = (struct fw_gpuva_update_args){ .fence = f, .num_operations = 100, .operations = ops,
					   .allocations = hs, .fence_value = 5 };
	assert_int_equal(fw_gpuva_update(x.k, dev, &u), GM_OK);
	gm_step(x.t.g, 20000);
	assert_int_equal(fw_gpuva_queued_ops(x.k), 100);
	assert_int_equal(fw_mfence_read(x.k, f, &got), GM_OK);
	assert_int_equal(got, 0);
	/* 40 more would pass 128: the call blocks, and with nothing able to
	 * move it gives up with TIMEOUT, queuing nothing. */
	u.num_operations = 40;
	u.fence_value = 6;
	assert_int_equal(fw_gpuva_update(x.k, dev, &u), GM_ERR_TIMEOUT);
	assert_int_equal(fw_gpuva_queued_ops(x.k), 100);
	/* A buffer that signals 5: the batch goes, then the 40 fit. */
	dma_buf_init(&b, dw, 16);
	assert_int_equal(dma_emit_nop(&b, 2), GM_OK);
	assert_int_equal(gx_submit(&x, dev, &b, f, 5), GM_OK);
	assert_int_equal(fw_mfence_wait(x.k, f, 6, BUDGET), GM_OK);
	assert_int_equal(fw_gpuva_update(x.k, dev, &u), GM_OK);
	assert_int_equal(fw_mfence_wait(x.k, f, 7, BUDGET), GM_OK);
	assert_int_equal(fw_gpuva_queued_ops(x.k), 0);
	/* every page of the 100 maps where the batch said */
	dma_buf_init(&b, dw, 16);
	assert_int_equal(dma_emit_write_data(&b, va + 0x10000ull * 99 + 8, &v, 1), GM_OK);
	assert_int_equal(gx_submit(&x, dev, &b, f, 8), GM_OK);
	assert_int_equal(fw_mfence_wait(x.k, f, 8, BUDGET), GM_OK);
	assert_int_equal(mem32(&x, a->loc.addr + 0x10000ull * (99 % 4) + 8), 7);
	expect_tables_written(&x, dev);
	gx_close(&x);
}

static void test_isolation(void **state)
{
	uint32_t dw[32], va_w = 0xaaaa, vb_w = 0xbbbb, fa, fb, ha, hb;
	struct fw_device *da, *db;
	struct fw_alloc *aa, *ab;
	struct dma_buf b;
	struct gx x;
	uint64_t va, vb;

	(void)state;
	gx_open(&x, 200000);
	da = gx_device(&x, true);
	db = gx_device(&x, true);
	assert_int_not_equal(fw_gpuva_vmid(x.k, da), fw_gpuva_vmid(x.k, db));
	ha = gx_alloc(da, &aa);
	hb = gx_alloc(db, &ab);
	assert_int_equal(fw_mfence_create(x.k, da, 0, &fa), GM_OK);
	assert_int_equal(fw_mfence_create(x.k, db, 0, &fb), GM_OK);
	va = gx_reserve(&x, da, 1u << 20, FW_GPUVA_RESERVE_NO_ACCESS);
	vb = gx_reserve(&x, db, 2u << 20, FW_GPUVA_RESERVE_NO_ACCESS);
	assert_int_equal(va, vb); /* the same VA in two processes */
	assert_int_equal(gx_map(&x, da, fa, 0, va, 64u << 10, ha, 0), GM_OK);
	assert_int_equal(gx_map(&x, db, fb, 0, vb + (1u << 20), 64u << 10, hb, 0), GM_OK);
	dma_buf_init(&b, dw, 32);
	assert_int_equal(dma_emit_write_data(&b, va + 0x10, &va_w, 1), GM_OK);
	assert_int_equal(gx_submit(&x, da, &b, fa, 2), GM_OK);
	/* B writes where A's page is mapped in A's space: B's page tables say no */
	dma_buf_init(&b, dw, 32);
	assert_int_equal(dma_emit_write_data(&b, va + 0x20, &vb_w, 1), GM_OK);
	assert_int_equal(gx_submit(&x, db, &b, fb, 2), GM_OK);
	assert_int_equal(fw_kmd_idle(x.k, BUDGET), GM_OK);
	assert_int_equal(mem32(&x, aa->loc.addr + 0x10), 0xaaaa);
	assert_int_equal(mem32(&x, aa->loc.addr + 0x20), 0);
	assert_int_equal(mem32(&x, ab->loc.addr + 0x20), 0);
	assert_true(fw_device_is_removed(db));
	assert_false(fw_device_is_removed(da));
	assert_int_equal(x.t.d.fault.vmid, fw_gpuva_vmid(x.k, db));
	/* A runs on */
	dma_buf_init(&b, dw, 32);
	assert_int_equal(dma_emit_write_data(&b, va + 0x30, &va_w, 1), GM_OK);
	assert_int_equal(gx_submit(&x, da, &b, fa, 3), GM_OK);
	assert_int_equal(fw_mfence_wait(x.k, fa, 3, BUDGET), GM_OK);
	assert_int_equal(mem32(&x, aa->loc.addr + 0x30), 0xaaaa);
	gx_close(&x);
}

static void test_bad_args(void **state)
{
	struct mmu_update_op op = { .operation_type = MMU_UPDATE_MAP,
				    .map = { .size_in_bytes = 0x10000, .flags = MMU_MAP_R } };
	struct fw_gpuva_reserve_args r = { .size = 1u << 20 };
	struct fw_device *dev, *plain, *other;
	uint32_t f, fo, h, ho, hbad = 0x7777;
	struct fw_gpuva_update_args u;
	struct fw_alloc *a;
	struct gx x;
	uint64_t va;

	(void)state;
	gx_open(&x, 200000);
	dev = gx_device(&x, true);
	other = gx_device(&x, true);
	plain = gx_device(&x, false);
	h = gx_alloc(dev, &a);
	ho = gx_alloc(other, &a);
	assert_int_equal(fw_mfence_create(x.k, dev, 0, &f), GM_OK);
	assert_int_equal(fw_mfence_create(x.k, other, 0, &fo), GM_OK);
	va = gx_reserve(&x, dev, 1u << 20, FW_GPUVA_RESERVE_NO_ACCESS);
	assert_int_equal(fw_kmd_idle(x.k, BUDGET), GM_OK);
	op.map.base_address = va;
	u = (struct fw_gpuva_update_args){ .fence = f, .num_operations = 1, .operations = &op,
					   .allocations = &h };
#define ROW(what, code, call)                                                                   \
	do {                                                                                    \
		int st_ = (call);                                                               \
		if (st_ != (code))                                                              \
			fail_msg("%s: %s, expected %s", what, gm_status_name(st_),              \
				 gm_status_name(code));                                         \
		assert_int_equal(fw_gpuva_queued_ops(x.k), 0);                                  \
	} while (0)
	ROW("enable: twice", GM_ERR_BAD_ARG, fw_gpuva_enable(x.k, dev));
	ROW("enable: NULL device", GM_ERR_BAD_ARG, fw_gpuva_enable(x.k, NULL));
	ROW("reserve: not a GPU-VA device", GM_ERR_BAD_ARG, fw_gpuva_reserve(x.k, plain, &r));
	r.base_address = va;
	ROW("reserve: overlaps", GM_ERR_BAD_ARG, fw_gpuva_reserve(x.k, dev, &r));
	r.base_address = va + 0x1000;
	ROW("reserve: unaligned base", GM_ERR_BAD_ARG, fw_gpuva_reserve(x.k, dev, &r));
	r.base_address = 0;
	r.size = 0;
	ROW("reserve: size 0", GM_ERR_BAD_ARG, fw_gpuva_reserve(x.k, dev, &r));
	r.size = 1u << 20;
	r.reservation_type = 7;
	ROW("reserve: unknown type", GM_ERR_BAD_ARG, fw_gpuva_reserve(x.k, dev, &r));
	ROW("free: no reservation there", GM_ERR_BAD_ARG, fw_gpuva_free(x.k, dev, va + 0x10000));
	ROW("update: NULL args", GM_ERR_BAD_ARG, fw_gpuva_update(x.k, dev, NULL));
	ROW("update: not a GPU-VA device", GM_ERR_BAD_ARG, fw_gpuva_update(x.k, plain, &u));
	u.fence = fo;
	ROW("update: another device's fence", GM_ERR_BAD_ARG, fw_gpuva_update(x.k, dev, &u));
	u.fence = 0;
	ROW("update: fence 0", GM_ERR_BAD_ARG, fw_gpuva_update(x.k, dev, &u));
	u.fence = f;
	assert_int_equal(fw_kmd_submit_cmdbuf(x.k, dev, &(struct fw_cmdbuf){ .dw = (uint32_t[]){ GPU_PKT_HDR(GPU_OP_NOP, 0) }, .ndw = 1 },
					      x.scratch, &(struct fw_signal){ f, 4 }), GM_OK);
	u.fence_value = UINT64_MAX;
	ROW("update: FenceValue UINT64_MAX (FenceValue + 1 wraps)", GM_ERR_BAD_ARG,
	    fw_gpuva_update(x.k, dev, &u));
	assert_int_equal(fw_mfence_wait(x.k, f, 4, BUDGET), GM_OK);
	u.fence_value = 4;
	u.num_operations = 0;
	ROW("update: no operations", GM_ERR_BAD_ARG, fw_gpuva_update(x.k, dev, &u));
	/* No per-call limit (pfnUpdateGpuVirtualAddressCb), but a call needing
	 * more batches than its process's share of the slots can never queue. */
	u.num_operations = FW_GPUVA_MAX_BATCH_OPS * FW_GPUVA_BATCHES / 2 + 1;
	ROW("update: more batches than the process's share of the slots", GM_ERR_NO_MEM,
	    fw_gpuva_update(x.k, dev, &u));
	u.num_operations = 1;
	u.allocations = &hbad;
	ROW("update: MAP of a handle that does not resolve", GM_ERR_BAD_ARG,
	    fw_gpuva_update(x.k, dev, &u));
	u.allocations = &ho;
	ROW("update: MAP of another device's allocation", GM_ERR_BAD_ARG,
	    fw_gpuva_update(x.k, dev, &u));
	u.allocations = &h;
	op.map.allocation_offset = ABUF_BYTES - 0x8000;
	ROW("update: MAP past the allocation's end", GM_ERR_BAD_ARG, fw_gpuva_update(x.k, dev, &u));
	op.map.allocation_offset = 0;
	op.map.base_address = va + (1u << 20);
	ROW("update: MAP outside every reservation", GM_ERR_BAD_ARG, fw_gpuva_update(x.k, dev, &u));
	op.map.base_address = va + 0x1000;
	op.map.flags |= MMU_MAP_FRAG64K;
	ROW("update: 64 KiB tile off its alignment", GM_ERR_BAD_ARG, fw_gpuva_update(x.k, dev, &u));
	op.map.flags = MMU_MAP_R;
	op.map.base_address = va;
	op.operation_type = MMU_UPDATE_MAP_PROTECT;
	ROW("update: MAP_PROTECT", GM_ERR_UNSUPPORTED, fw_gpuva_update(x.k, dev, &u));
#undef ROW
	assert_int_equal(fw_gpuva_vmid(x.k, plain), 0);
	gx_close(&x);
	/* the pipeline's table pool: a share per VMID of at least 64 KiB, above the segment */
	{
		struct fw_kmd_cfg kc;
		struct fw_kmd *k = calloc(1, sizeof(*k));

		assert_non_null(k);
		tb_open(&x.t);
		fw_kmd_cfg_default(&kc);
		kc.vram_bytes = 64ull << 20;
		kc.pt_bytes = VA_PT_BYTES + 1;
		assert_int_equal(fw_kmd_init(k, &x.t.d, &kc), GM_ERR_BAD_ARG);
		kc.pt_bytes = 15ull << 12;
		assert_int_equal(fw_kmd_init(k, &x.t.d, &kc), GM_ERR_BAD_ARG);
		kc.pt_bytes = x.t.d.vram_bytes - kc.vram_bytes - kc.vram_base + (15ull << 16);
		assert_int_equal(fw_kmd_init(k, &x.t.d, &kc), GM_ERR_BAD_ARG);
		kc.pt_bytes = 0; /* no GPU-VA devices: enable refused */
		assert_int_equal(fw_kmd_init(k, &x.t.d, &kc), GM_OK);
		assert_int_equal(fw_device_create(&k->ad, &dev), GM_OK);
		assert_int_equal(fw_gpuva_enable(k, dev), GM_ERR_BAD_ARG);
		fw_kmd_fini(k);
		free(k);
		tb_close(&x.t);
	}
}

/* ------------------------------------------------------------ random */

#define RT_TILES 32u    /* the reservation: 32 tiles of 64 KiB */
#define RT_PAGES 16u    /* the pool: 16 pages of 64 KiB (ABUF_BYTES * 4) */
#define RT_NOACC (-1)
#define RT_ZERO (-2)

/* Apply one random operation to the model and describe it in *op. */
static void rt_op(uint64_t *rs, int *map, uint64_t va, struct mmu_update_op *op)
{
	unsigned kind = (unsigned)(tb_rand(rs) % 4), len = 1 + (unsigned)(tb_rand(rs) % 3);
	unsigned t = (unsigned)(tb_rand(rs) % (RT_TILES - len + 1));

	if (kind <= 1) { /* MAP, twice as likely */
		unsigned p = (unsigned)(tb_rand(rs) % (RT_PAGES - len + 1));

		*op = (struct mmu_update_op){ .operation_type = MMU_UPDATE_MAP,
					      .map = { .base_address = va + t * TILE_B,
						       .size_in_bytes = len * TILE_B,
						       .allocation_offset = p * TILE_B,
						       .flags = MMU_MAP_R | MMU_MAP_W | MMU_MAP_FRAG64K } };
		for (unsigned i = 0; i < len; i++)
			map[t + i] = (int)(p + i);
	} else if (kind == 2) {
		bool zero = tb_rand(rs) & 1;

		*op = (struct mmu_update_op){ .operation_type = MMU_UPDATE_UNMAP,
					      .unmap = { .base_address = va + t * TILE_B,
							 .size_in_bytes = len * TILE_B,
							 .protection = zero ? MMU_UNMAP_ZERO : MMU_UNMAP_NOACCESS } };
		for (unsigned i = 0; i < len; i++)
			map[t + i] = zero ? RT_ZERO : RT_NOACC;
	} else { /* COPY, possibly overlapping: as memmove */
		unsigned d = (unsigned)(tb_rand(rs) % (RT_TILES - len + 1));
		int tmp[3];

		*op = (struct mmu_update_op){ .operation_type = MMU_UPDATE_COPY,
					      .copy = { .source_address = va + t * TILE_B,
							.size_in_bytes = len * TILE_B,
							.dest_address = va + d * TILE_B } };
		memcpy(tmp, &map[t], len * sizeof(int));
		memcpy(&map[d], tmp, len * sizeof(int));
	}
}

/*
 * Seeded random batches of MAP / UNMAP / COPY over one reservation, each
 * followed by a buffer writing a round-stamped dword into every tile that
 * has a translation, against a C model of the tile mappings and of the
 * pool's contents: every page of the pool checked after every round, the
 * page tables in VRAM against the shadow at the end.
 */
static void test_random_batches(void **state)
{
	uint64_t seed = tb_seed(BIN), rs = seed, va, v = 0;
	uint32_t want[RT_PAGES][RT_TILES], dw[4 * RT_TILES + 8], f, h[4];
	struct mmu_update_op ops[4];
	int map[RT_TILES];
	struct fw_gpuva_update_args u;
	struct fw_device *dev;
	struct fw_alloc *a;
	struct dma_buf b;
	struct gx x;

	(void)state;
	gx_open(&x, 200000);
	dev = gx_device(&x, true);
	h[0] = h[1] = h[2] = h[3] = gx_alloc_n(dev, RT_PAGES * TILE_B, &a, NULL);
	assert_int_equal(fw_mfence_create(x.k, dev, 0, &f), GM_OK);
	va = gx_reserve(&x, dev, RT_TILES * TILE_B, FW_GPUVA_RESERVE_NO_ACCESS);
	memset(want, 0, sizeof(want));
	for (unsigned t = 0; t < RT_TILES; t++)
		map[t] = RT_NOACC;
	for (unsigned round = 1; round <= 24; round++) {
		unsigned n = 1 + (unsigned)(tb_rand(&rs) % 4);
		uint32_t *got = malloc(RT_PAGES * TILE_B);

		for (unsigned i = 0; i < n; i++)
			rt_op(&rs, map, va, &ops[i]);
		u = (struct fw_gpuva_update_args){ .fence = f, .num_operations = n, .operations = ops,
						   .allocations = h, .fence_value = v };
		if (fw_gpuva_update(x.k, dev, &u) != GM_OK)
			fail_msg("round %u: update refused; reproduce: GPUSIM_SEED=%" PRIu64 " %s", round,
				 seed, BIN);
		dma_buf_init(&b, dw, ARRAY_SIZE(dw));
		for (unsigned t = 0; t < RT_TILES; t++) {
			uint32_t val = round << 8 | t;

			if (map[t] == RT_NOACC)
				continue; /* it would fault */
			assert_int_equal(dma_emit_write_data(&b, va + t * TILE_B + 4 * t, &val, 1), GM_OK);
			if (map[t] >= 0)
				want[map[t]][t] = val;
		}
		if (b.len == 0)
			assert_int_equal(dma_emit_nop(&b, 0), GM_OK);
		v += 2; /* the batch signalled v - 1 */
		assert_int_equal(gx_submit(&x, dev, &b, f, v), GM_OK);
		assert_int_equal(fw_mfence_wait(x.k, f, v, BUDGET), GM_OK);
		assert_non_null(got);
		assert_int_equal(gm_backdoor_read(x.t.g, a->loc.addr, got, RT_PAGES * TILE_B), GM_OK);
		for (unsigned p = 0; p < RT_PAGES; p++)
			for (unsigned t = 0; t < RT_TILES; t++)
				if (got[(p * TILE_B + 4 * t) / 4] != want[p][t])
					fail_msg("round %u: page %u slot %u holds 0x%x, the model 0x%x; "
						 "reproduce: GPUSIM_SEED=%" PRIu64 " %s", round, p, t,
						 got[(p * TILE_B + 4 * t) / 4], want[p][t], seed, BIN);
		free(got);
	}
	assert_int_equal(x.k->st.tdrs, 0);
	expect_tables_written(&x, dev);
	gx_close(&x);
}

/*
 * TDR removes a process with page-table work queued: the batch on the
 * paging queue (waiting for the hung buffer's signal) runs once the removal
 * pushes the fence to the maximum, and the fence is set to the maximum
 * again after its FenceValue + 1; the batch still held (its FenceValue
 * never submitted) is dropped; the other process renders and updates on.
 */
static void test_removed_device(void **state)
{
	uint32_t dw[32], one = 1, fa, fb, ha, hb;
	struct fw_device *da, *db;
	struct fw_alloc *aa, *ab;
	struct fw_mfence *m;
	struct dma_buf b;
	struct gx x;
	uint64_t va, vb, mem;

	(void)state;
	gx_open(&x, 50000);
	da = gx_device(&x, true);
	db = gx_device(&x, true);
	ha = gx_alloc(da, &aa);
	hb = gx_alloc(db, &ab);
	assert_int_equal(fw_mfence_create(x.k, da, 0, &fa), GM_OK);
	assert_int_equal(fw_mfence_create(x.k, db, 0, &fb), GM_OK);
	va = gx_reserve(&x, da, 1u << 20, FW_GPUVA_RESERVE_NO_ACCESS);
	vb = gx_reserve(&x, db, 1u << 20, FW_GPUVA_RESERVE_NO_ACCESS);
	assert_int_equal(gx_map(&x, da, fa, 0, va, 64u << 10, ha, 0), GM_OK);
	assert_int_equal(gx_map(&x, db, fb, 0, vb, 64u << 10, hb, 0), GM_OK);
	/* A hangs: it waits for a value nobody writes, then would signal 2. */
	dma_buf_init(&b, dw, 32);
	assert_int_equal(dma_emit_wait_mem(&b, va, 7, ~0ull, GPU_FUNC_EQ, false, 16), GM_OK);
	assert_int_equal(gx_submit(&x, da, &b, fa, 2), GM_OK);
	assert_int_equal(gx_map(&x, da, fa, 2, va + (64u << 10), 64u << 10, ha, 0), GM_OK);
	assert_int_equal(gx_map(&x, da, fa, 10, va + (128u << 10), 64u << 10, ha, 0), GM_OK);
	assert_true(fw_gpuva_queued_ops(x.k) >= 2);
	assert_int_equal(held_batches(&x), 1); /* FenceValue 10: nothing will signal it */
	/* TDR */
	assert_int_equal(fw_kmd_idle(x.k, BUDGET), GM_OK);
	assert_true(fw_device_is_removed(da));
	assert_int_equal(x.k->st.tdrs, 1);
	assert_int_equal(fw_paging_wait(x.k, BUDGET), GM_OK);
	assert_int_equal(fw_gpuva_queued_ops(x.k), 0);
	m = fw_mfence_get(x.k, fa);
	assert_int_equal(gm_backdoor_read64(x.t.g, m->addr, &mem), GM_OK);
	assert_true(mem == UINT64_MAX);
	assert_int_equal(gx_map(&x, da, fa, 11, va, 64u << 10, ha, 0), GM_ERR_DEVICE_REMOVED);
	/* B runs on */
	assert_int_equal(gx_map(&x, db, fb, 1, vb + (64u << 10), 64u << 10, hb, 0x10000), GM_OK);
	dma_buf_init(&b, dw, 32);
	assert_int_equal(dma_emit_write_data(&b, vb + (64u << 10) + 4, &one, 1), GM_OK);
	assert_int_equal(gx_submit(&x, db, &b, fb, 3), GM_OK);
	assert_int_equal(fw_mfence_wait(x.k, fb, 3, BUDGET), GM_OK);
	assert_int_equal(mem32(&x, ab->loc.addr + 0x10000 + 4), 1);
	gx_close(&x);
}

/*
 * A mapped allocation is evicted by another device's pressure and paged in
 * again by its own buffer's allocation list: each time its translations
 * follow it (an internal batch after the move), the data moves with it and
 * writes through the VA land where it is; destroying it while mapped
 * unmaps it first (a later write there faults).
 */
static void test_residency(void **state)
{
	uint32_t dw[32], v77 = 0x77, v88 = 0x88, f, ha, hb, hc;
	const uint64_t pat = 0x0123456789abcdefull;
	struct fw_alloc *aa, *ab, *ac;
	struct fw_device *dv, *de;
	struct fw_resource *ra;
	struct fw_alloc_ref ref;
	struct fw_cmdbuf cb;
	struct fw_umd *u = calloc(1, sizeof(*u));
	struct dma_surf ls = { .pitch = 4096, .mode = GPU_TILE_LINEAR, .bpe_log2 = 0 };
	struct dma_buf b;
	struct gx x;
	uint64_t va, got;

	(void)state;
	assert_non_null(u);
	gx_open_seg(&x, 200000, 4ull << 20);
	dv = gx_device(&x, true);
	de = gx_device(&x, false);
	ha = gx_alloc_n(dv, 1u << 20, &aa, &ra);
	hb = gx_alloc_n(de, 2u << 20, &ab, NULL);
	hc = gx_alloc_n(de, 2u << 20, &ac, NULL);
	assert_int_equal(fw_mfence_create(x.k, dv, 0, &f), GM_OK);
	va = gx_reserve(&x, dv, 2u << 20, FW_GPUVA_RESERVE_NO_ACCESS);
	assert_int_equal(gx_map(&x, dv, f, 0, va, 1u << 20, ha, 0), GM_OK);
	dma_buf_init(&b, dw, 32);
	ls.base = va;
	assert_int_equal(dma_emit_fill(&b, &ls, 4096, 256, pat), GM_OK);
	assert_int_equal(gx_submit(&x, dv, &b, f, 2), GM_OK);
	assert_int_equal(fw_mfence_wait(x.k, f, 2, BUDGET), GM_OK);
	assert_int_equal(aa->loc.seg_id, FW_KMD_SEG_VRAM);
	/* The other device's buffers need the VRAM: the mapped one goes. */
	for (unsigned i = 0; i < 12 && aa->loc.seg_id == FW_KMD_SEG_VRAM; i++) {
		uint32_t h = i & 1 ? hc : hb, one = i;

		fw_umd_begin(u);
		assert_int_equal(fw_umd_write(u, h, 0, &one, 1), GM_OK);
		fw_umd_cmdbuf(u, &cb);
		assert_int_equal(fw_kmd_submit_cmdbuf(x.k, de, &cb, x.scratch, NULL), GM_OK);
		assert_int_equal(fw_kmd_idle(x.k, BUDGET), GM_OK);
	}
	(void)ab, (void)ac;
	assert_int_equal(aa->loc.seg_id, FW_KMD_SEG_SYS);
	assert_int_equal(tb_mem64(&x.t, aa->loc.addr + 0x800), pat);
	/* Through the VA, the write lands in its system-memory place. */
	dma_buf_init(&b, dw, 32);
	assert_int_equal(dma_emit_write_data(&b, va + 8, &v77, 1), GM_OK);
	assert_int_equal(gx_submit(&x, dv, &b, f, 3), GM_OK);
	assert_int_equal(fw_mfence_wait(x.k, f, 3, BUDGET), GM_OK);
	assert_int_equal(mem32(&x, aa->loc.addr + 8), 0x77);
	expect_tables_written(&x, dv);
	/* Its own buffer names it in the allocation list: paged in, followed. */
	ref = (struct fw_alloc_ref){ .handle = ha, .write = true };
	dma_buf_init(&b, dw, 32);
	assert_int_equal(dma_emit_write_data(&b, va + 16, &v88, 1), GM_OK);
	cb = (struct fw_cmdbuf){ .dw = b.dw, .ndw = (uint32_t)b.len, .allocs = &ref, .nalloc = 1 };
	assert_int_equal(fw_kmd_submit_cmdbuf(x.k, dv, &cb, x.scratch, &(struct fw_signal){ f, 4 }),
			 GM_OK);
	assert_int_equal(fw_mfence_wait(x.k, f, 4, BUDGET), GM_OK);
	assert_int_equal(aa->loc.seg_id, FW_KMD_SEG_VRAM);
	assert_int_equal(mem32(&x, aa->loc.addr + 8), 0x77);
	assert_int_equal(mem32(&x, aa->loc.addr + 16), 0x88);
	assert_int_equal(tb_mem64(&x.t, aa->loc.addr + 0xff000), pat);
	assert_int_equal(x.k->st.tdrs, 0);
	expect_tables_written(&x, dv);
	/* Destroyed while mapped: unmapped first; a write there now faults.
	 * The monitored fence lands before its submission retires (the fence
	 * write is acknowledged after memory holds it): wait for the
	 * retirement, else the release finds render work pending (BUSY). */
	assert_int_equal(fw_kmd_idle(x.k, BUDGET), GM_OK);
	assert_int_equal(fw_res_destroy(ra), GM_OK);
	assert_int_equal(fw_paging_wait(x.k, BUDGET), GM_OK);
	expect_tables_written(&x, dv);
	dma_buf_init(&b, dw, 32);
	assert_int_equal(dma_emit_write_data(&b, va + 24, &v88, 1), GM_OK);
	assert_int_equal(gx_submit(&x, dv, &b, f, 5), GM_OK);
	assert_int_equal(fw_kmd_idle(x.k, BUDGET), GM_OK);
	assert_true(fw_device_is_removed(dv));
	assert_int_equal(x.t.d.fault.va, va); /* the beat of va + 24 */
	assert_int_equal(fw_mfence_read(x.k, f, &got), GM_OK);
	free(u);
	gx_close(&x);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_map_render),
		cmocka_unit_test(test_update_order),
		cmocka_unit_test(test_held_and_limit),
		cmocka_unit_test(test_isolation),
		cmocka_unit_test(test_bad_args),
		cmocka_unit_test(test_random_batches),
		cmocka_unit_test(test_removed_device),
		cmocka_unit_test(test_residency),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
