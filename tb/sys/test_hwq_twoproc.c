/* SPDX-License-Identifier: MIT */
/*
 * test_hwq_twoproc.c - two GPU-VA processes, A and B, each with an
 * UpdateGpuVirtualAddress batch (pfnUpdateGpuVirtualAddressCb in
 * d3dumddi.h: the updates run "on a paging context, dedicated to the
 * rendering context specified", after that context's fence reaches
 * FenceValue).  A's batch waits for A's fence, which A's render work - held
 * by a semaphore the CPU writes late - has not signalled; B's FenceValue is
 * already reached.  The figure: the cycles B's batch takes with A waiting,
 * against the cycles it takes alone (regspec/DESIGN.md, Hardware queues and
 * the scheduler: the target is at most twice).
 *
 * Testplan
 *   B's batch alone signals FenceValue + 1 and maps: the figure's base ... test_batch_alone
 *   A's batch waits for A's held render fence; B's batch completes, A is
 *   not reset (a late fence is no hang), A's batch and render complete
 *   once the CPU writes the semaphore; the cycles are printed ........... test_batch_beside_held
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dma_buf.h"
#include "fw_kmd.h"
#include "tb_util.h"

#define BUDGET 4000000ull
#define LATE_CYCLES 300000ull      /* when the CPU writes A's semaphore */
#define TDR_CYCLES 2000000ull      /* a late fence, not a hang: TDR stays out */
#define VA_PT_BYTES (15ull << 20)
#define ABUF_BYTES (64u << 10)

struct tp {
	struct tb t;
	struct fw_kmd *k;
	struct fw_dmabuf *scratch;
};

/* One process: a GPU-VA device, a 64 KiB allocation, a monitored fence at
 * 0 and a NO_ACCESS reservation. */
struct tp_proc {
	struct fw_device *dev;
	struct fw_alloc *a;
	uint32_t h, fence;
	uint64_t va;
};

static void tp_open(struct tp *x)
{
	struct fw_kmd_cfg kc;
	int st;

	memset(x, 0, sizeof(*x));
	tb_open(&x->t);
	x->k = calloc(1, sizeof(*x->k));
	x->scratch = calloc(1, sizeof(*x->scratch));
	assert_true(x->k && x->scratch);
	fw_kmd_cfg_default(&kc);
	kc.vram_bytes = 64ull << 20;
	kc.pt_bytes = VA_PT_BYTES;
	kc.tdr_cycles = TDR_CYCLES;
	kc.log = getenv("GPUSIM_KMD_LOG") ? stderr : NULL;
	st = fw_kmd_init(x->k, &x->t.d, &kc);
	if (st)
		fail_msg("fw_kmd_init: %s", gm_status_name(st));
}

static void tp_close(struct tp *x)
{
	fw_kmd_fini(x->k);
	free(x->k);
	free(x->scratch);
	tb_close(&x->t);
}

static void tp_proc_make(struct tp *x, struct tp_proc *p)
{
	const struct fw_alloc_desc d = { .size = ABUF_BYTES, .width = 1024, .height = ABUF_BYTES / 4096,
					 .pitch = 4096, .bpe_log2 = 2, .tile = GPU_TILE_LINEAR };
	struct fw_gpuva_reserve_args r = { .minimum_address = 1ull << 32, .size = 1u << 20,
					   .reservation_type = FW_GPUVA_RESERVE_NO_ACCESS };
	struct fw_resource *res;

	assert_int_equal(fw_device_create(&x->k->ad, &p->dev), GM_OK);
	assert_int_equal(fw_gpuva_enable(x->k, p->dev), GM_OK);
	assert_int_equal(fw_res_create(p->dev, &d, 1, false, &res), GM_OK);
	assert_int_equal(fw_res_surface_handle(res, 0, &p->h), GM_OK);
	assert_int_equal(fw_res_get_handle_data(p->dev, p->h, &p->a), GM_OK);
	assert_int_equal(fw_mfence_create(x->k, p->dev, 0, &p->fence), GM_OK);
	assert_int_equal(fw_gpuva_reserve(x->k, p->dev, &r), GM_OK);
	p->va = r.virtual_address;
}

static void tp_map(struct tp *x, struct tp_proc *p, uint64_t va, uint64_t wait);

/* Map @p's allocation once at va + 64 KiB and wait for it (fence 1): the
 * allocation is resident, so the measured batch moves no bytes. */
static void tp_proc_ready(struct tp *x, struct tp_proc *p)
{
	tp_map(x, p, p->va + ABUF_BYTES, 0);
	assert_int_equal(fw_mfence_wait(x->k, p->fence, 1, BUDGET), GM_OK);
}

/* Queue a batch mapping @p's allocation at @va after @p's fence >= @wait. */
static void tp_map(struct tp *x, struct tp_proc *p, uint64_t va, uint64_t wait)
{
	struct mmu_update_op op = { .operation_type = MMU_UPDATE_MAP,
				    .map = { .base_address = va, .size_in_bytes = ABUF_BYTES,
					     .allocation_offset = 0, .flags = MMU_MAP_R | MMU_MAP_W } };
	struct fw_gpuva_update_args u = { .fence = p->fence, .num_operations = 1, .operations = &op,
					  .allocations = &p->h, .fence_value = wait };

	assert_int_equal(fw_gpuva_update(x->k, p->dev, &u), GM_OK);
}

/* Submit @b's packets on @p's device, signalling its fence := @value. */
static void tp_submit(struct tp *x, struct tp_proc *p, const struct dma_buf *b, uint64_t value)
{
	struct fw_cmdbuf cb = { .dw = b->dw, .ndw = (uint32_t)b->len };
	struct fw_signal sig = { p->fence, value };

	assert_int_equal(fw_kmd_submit_cmdbuf(x->k, p->dev, &cb, x->scratch, &sig), GM_OK);
}

/* The cycles B's batch (FenceValue 0, reached) takes from the update call
 * to FenceValue + 1, in a pipeline of B alone.  Also checks the mapping. */
static uint64_t batch_alone(void)
{
	uint32_t dw[16], v = 0xb0b;
	struct tp_proc b;
	struct dma_buf d;
	struct tp x;
	uint64_t t0, cycles;

	tp_open(&x);
	tp_proc_make(&x, &b);
	tp_proc_ready(&x, &b);
	assert_int_equal(fw_kmd_idle(x.k, BUDGET), GM_OK);
	t0 = gm_cycles(x.t.g);
	tp_map(&x, &b, b.va, 1);
	assert_int_equal(fw_mfence_wait(x.k, b.fence, 2, BUDGET), GM_OK);
	cycles = gm_cycles(x.t.g) - t0;
	/* the mapping is there: a write through it lands */
	dma_buf_init(&d, dw, 16);
	assert_int_equal(dma_emit_write_data(&d, b.va + 0x40, &v, 1), GM_OK);
	tp_submit(&x, &b, &d, 3);
	assert_int_equal(fw_mfence_wait(x.k, b.fence, 3, BUDGET), GM_OK);
	assert_int_equal(tb_mem32(&x.t, b.a->loc.addr + 0x40), 0xb0b);
	tp_close(&x);
	return cycles;
}

static void test_batch_alone(void **state)
{
	(void)state;
	assert_true(batch_alone() > 0);
}

static void test_batch_beside_held(void **state)
{
	uint32_t dw[32], one = 1;
	struct tp_proc a, b;
	struct dma_buf d;
	struct tp x;
	uint64_t alone, t0, cycles, late;
	int st;

	(void)state;
	alone = batch_alone();
	tp_open(&x);
	tp_proc_make(&x, &a);
	tp_proc_make(&x, &b);
	/* A's semaphore: the first dword of A's allocation, mapped in A's space
	 * at va + 64 KiB */
	tp_proc_ready(&x, &a);
	tp_proc_ready(&x, &b);
	assert_int_equal(fw_kmd_idle(x.k, BUDGET), GM_OK);
	/* A's render waits for the semaphore, then signals A's fence := 2;
	 * A's batch waits for fence 2 */
	dma_buf_init(&d, dw, 32);
	assert_int_equal(dma_emit_wait_mem(&d, a.va + ABUF_BYTES, 1, 0xffffffffu, GPU_FUNC_EQ, false, 64),
			 GM_OK);
	tp_submit(&x, &a, &d, 2);
	tp_map(&x, &a, a.va, 2);
	/* B's batch: FenceValue 1, reached */
	t0 = gm_cycles(x.t.g);
	tp_map(&x, &b, b.va, 1);
	st = fw_mfence_wait(x.k, b.fence, 2, LATE_CYCLES);
	assert_true(st == GM_OK || st == GM_ERR_TIMEOUT);
	if (st == GM_ERR_TIMEOUT) {
		/* B still waits: the CPU writes A's semaphore late */
		late = gm_cycles(x.t.g) - t0;
		tb_put32(&x.t, a.a->loc.addr, one);
		assert_int_equal(fw_mfence_wait(x.k, b.fence, 2, BUDGET), GM_OK);
	} else {
		late = 0;
		tb_put32(&x.t, a.a->loc.addr, one);
	}
	cycles = gm_cycles(x.t.g) - t0;
	/* A was waiting, not hung: neither process was reset, A's work ends */
	assert_int_equal(fw_mfence_wait(x.k, a.fence, 3, BUDGET), GM_OK);
	assert_false(fw_device_is_removed(a.dev));
	assert_false(fw_device_is_removed(b.dev));
	printf("twoproc: B's batch alone %" PRIu64 " cycles; beside A's held batch %" PRIu64
	       " cycles (%.2fx)%s\n", alone, cycles, (double)cycles / (double)alone,
	       late ? ": it waited for A's semaphore, written late" : "");
	tp_close(&x);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_batch_alone),
		cmocka_unit_test(test_batch_beside_held),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
