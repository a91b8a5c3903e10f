/* SPDX-License-Identifier: MIT */
/*
 * test_gpuva_conf.c - conformance sequences of UpdateGpuVirtualAddress
 * (pfnUpdateGpuVirtualAddressCb with D3DDDICB_UPDATEGPUVIRTUALADDRESS in
 * d3dumddi.h, fw_gpuva.h): each one a sequence a real driver runs, which
 * once broke a rule of the public contract.
 *
 * Tests (tb/testplan.txt maps them to the rules they check):
 *   test_conf_update_many_ops     one call of 300 operations: accepted (the
 *                                 contract sets no per-call limit), every
 *                                 page mapped, FenceValue + 1 signalled once.
 *   test_conf_update_same_fence   two calls queued behind the same FenceValue,
 *                                 and a render signal past a held call's
 *                                 FenceValue: accepted; the fence never goes
 *                                 back; the mappings apply in call order.
 *   test_conf_donotwait_chain     a DoNotWait call, then one whose FenceValue
 *                                 is the first's + 1: it runs, and the
 *                                 process renders and signals on.
 *   test_conf_update_per_process  process A holds 128 operations behind a
 *                                 fence nobody signals yet: B's independent
 *                                 1-operation update neither blocks nor fails.
 *   test_conf_evict_timeout_va    an eviction whose submission then fails
 *                                 (GM_ERR_TIMEOUT): the evicted allocation's
 *                                 translations follow it; writes through the
 *                                 VA reach it, not the VRAM it left.
 *
 * $GPUSIM_KMD_LOG set: the pipeline's log goes to stderr.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dma_buf.h"
#include "gpu_hw.h"
#include "kt.h"

#define BIN "build/tests/test_gpuva_conf"
#define PT_BYTES (15ull << 20)
#define TILE (64ull << 10)

/* A GPU-VA device with a monitored fence (*f) and a NO_ACCESS reservation
 * of @bytes (*va). */
static struct fw_device *va_dev(struct kt *x, uint32_t *f, uint64_t bytes, uint64_t *va)
{
	struct fw_device *dev = kt_dev_new(x);
	struct fw_gpuva_reserve_args r = { .minimum_address = 1ull << 32, .size = bytes };

	assert_int_equal(fw_gpuva_enable(x->k, dev), GM_OK);
	*f = kt_mfence_new(x, dev, 0);
	assert_int_equal(fw_gpuva_reserve(x->k, dev, &r), GM_OK);
	*va = r.virtual_address;
	return dev;
}

/* @n MAP operations: tile i of the VA at @va onto tile i % @tiles of @h. */
static void maps(struct mmu_update_op *op, uint32_t *hs, unsigned n, uint64_t va, uint32_t h,
		 unsigned tiles)
{
	for (unsigned i = 0; i < n; i++) {
		op[i] = (struct mmu_update_op){ .operation_type = MMU_UPDATE_MAP,
						.map = { .base_address = va + TILE * i,
							 .size_in_bytes = TILE,
							 .allocation_offset = TILE * (i % tiles),
							 .flags = MMU_MAP_R | MMU_MAP_W } };
		hs[i] = h;
	}
}

/* UpdateGpuVirtualAddress of @n operations: its status. */
static int update(struct kt *x, struct fw_device *dev, uint32_t f, uint64_t fv, bool dnw,
		  const struct mmu_update_op *op, const uint32_t *hs, unsigned n)
{
	const struct fw_gpuva_update_args u = { .fence = f, .num_operations = n, .operations = op,
						.allocations = hs, .fence_value = fv,
						.do_not_wait = dnw };

	return fw_gpuva_update(x->k, dev, &u);
}

/* Submit a NOP and WRITE_DATA of @v at each VA of @va[@n] on @dev, signalling
 * @f := @fv (@f 0: no signal). */
static int write_va(struct kt *x, struct fw_device *dev, const uint64_t *va, unsigned n,
		    uint32_t v, uint32_t f, uint64_t fv)
{
	uint32_t dw[64];
	struct dma_buf b;
	struct fw_cmdbuf cb;
	struct fw_signal sig = { f, fv };

	dma_buf_init(&b, dw, 64);
	assert_int_equal(dma_emit_nop(&b, 1), GM_OK);
	for (unsigned i = 0; i < n; i++)
		assert_int_equal(dma_emit_write_data(&b, va[i], &v, 1), GM_OK);
	cb = (struct fw_cmdbuf){ .dw = dw, .ndw = (uint32_t)b.len };
	return fw_kmd_submit_cmdbuf(x->k, dev, &cb, x->buf, f ? &sig : NULL);
}

static uint32_t mem32(struct kt *x, uint64_t pa)
{
	uint32_t v = 0;

	assert_int_equal(gm_backdoor_read32(x->t.g, pa, &v), GM_OK);
	return v;
}

/*
 * pfnUpdateGpuVirtualAddressCb: "a number of mapping operations ... in a
 * single batch"; when more than 128 are queued "the calling thread will be
 * blocked": a limit on what is queued, none on one call.  300 MAPs in one
 * call, behind fence value 1 which a render signals: every page maps where
 * the call said, and the fence reads 2 once it is done.
 */
static void test_conf_update_many_ops(void **state)
{
	enum { N = 300 };
	struct mmu_update_op *op = calloc(N, sizeof(*op));
	uint32_t *hs = calloc(N, sizeof(*hs)), f;
	uint64_t va, at[3];
	struct fw_device *A;
	struct kbuf P;
	struct kt x;

	(void)state;
	assert_true(op && hs);
	kt_open_pt(&x, 64ull << 20, PT_BYTES, 2000000);
	A = va_dev(&x, &f, N * TILE, &va);
	P = kbuf_new(&x, A, 4 * TILE);
	maps(op, hs, N, va, P.h, 4);
	assert_int_equal(update(&x, A, f, 1, false, op, hs, N), GM_OK);
	assert_int_equal(write_va(&x, A, NULL, 0, 0, f, 1), GM_OK);
	assert_int_equal(fw_mfence_wait(x.k, f, 2, BUDGET), GM_OK);
	at[0] = va + 8;
	at[1] = va + TILE * 257 + 16;
	at[2] = va + TILE * (N - 1) + 24;
	assert_int_equal(write_va(&x, A, at, 3, 0xfeed, f, 3), GM_OK);
	assert_int_equal(fw_mfence_wait(x.k, f, 3, BUDGET), GM_OK);
	assert_int_equal(mem32(&x, P.a->loc.addr + 8), 0xfeed);
	assert_int_equal(mem32(&x, P.a->loc.addr + TILE * (257 % 4) + 16), 0xfeed);
	assert_int_equal(mem32(&x, P.a->loc.addr + TILE * ((N - 1) % 4) + 24), 0xfeed);
	assert_int_equal(x.k->st.tdrs, 0);
	assert_int_equal(fw_gpuva_queued_ops(x.k), 0);
	kt_close(&x);
	free(op);
	free(hs);
}

/*
 * "The user mode driver can submit many pfnUpdateGpuVirtualAddressCb calls
 * and operations will be queued behind the rendering fence": U1 and U2 both
 * wait for FenceValue 5 (U1 maps the VA onto P, U2 onto Q, in that order);
 * then a render signals 7, past the held FenceValue.  Both are accepted, the
 * fence as the GPU writes it never goes below a value it held (sampled at
 * every interrupt), and the VA ends on Q.
 */
static void test_conf_update_same_fence(void **state)
{
	struct mmu_update_op op[2];
	uint32_t hs[2], f;
	uint64_t va, seen = 0, v;
	struct fw_device *A;
	struct kbuf P, Q;
	struct kt x;

	(void)state;
	kt_open_pt(&x, 64ull << 20, PT_BYTES, 2000000);
	A = va_dev(&x, &f, 16 * TILE, &va);
	P = kbuf_new(&x, A, TILE);
	Q = kbuf_new(&x, A, TILE);
	maps(&op[0], &hs[0], 1, va, P.h, 1);
	maps(&op[1], &hs[1], 1, va, Q.h, 1);
	assert_int_equal(update(&x, A, f, 5, false, &op[0], &hs[0], 1), GM_OK);
	assert_int_equal(update(&x, A, f, 5, false, &op[1], &hs[1], 1), GM_OK);
	assert_int_equal(write_va(&x, A, NULL, 0, 0, f, 7), GM_OK);
	while (seen < 7) {
		uint32_t bits;

		assert_int_equal(gm_step(x.t.g, 64), GM_OK);
		assert_int_equal(fw_isr(&x.t.d, &bits), GM_OK);
		assert_int_equal(gm_backdoor_read64(x.t.g, x.k->mfs->mf[f].addr, &v), GM_OK);
		if (v < seen)
			fail_msg("the fence went back from %" PRIu64 " to %" PRIu64, seen, v);
		seen = v;
		assert_true(gm_cycles(x.t.g) < BUDGET);
	}
	kt_idle(&x);
	assert_int_equal(gm_backdoor_read64(x.t.g, x.k->mfs->mf[f].addr, &v), GM_OK);
	assert_true(v >= 7);
	assert_int_equal(write_va(&x, A, &va, 1, 0xabcd, f, 8), GM_OK);
	assert_int_equal(fw_mfence_wait(x.k, f, 8, BUDGET), GM_OK);
	assert_int_equal(mem32(&x, Q.a->loc.addr), 0xabcd);
	assert_int_equal(mem32(&x, P.a->loc.addr), 0);
	assert_int_equal(x.k->st.tdrs, 0);
	kt_close(&x);
}

/*
 * D3DDDICB_UPDATEGPUVIRTUALADDRESS.Flags.DoNotWait: the first call runs at
 * once and signals its FenceValue + 1 (4); the next waits for 4, which that
 * signal is: it runs too, and the process's later render signals are
 * accepted.
 */
static void test_conf_donotwait_chain(void **state)
{
	struct mmu_update_op op[2];
	uint32_t hs[2], f;
	struct fw_device *A;
	struct kbuf P;
	uint64_t va;
	struct kt x;

	(void)state;
	kt_open_pt(&x, 64ull << 20, PT_BYTES, 2000000);
	A = va_dev(&x, &f, 16 * TILE, &va);
	P = kbuf_new(&x, A, 2 * TILE);
	maps(op, hs, 2, va, P.h, 2);
	assert_int_equal(update(&x, A, f, 3, true, &op[0], &hs[0], 1), GM_OK);
	assert_int_equal(update(&x, A, f, 4, false, &op[1], &hs[1], 1), GM_OK);
	assert_int_equal(fw_mfence_wait(x.k, f, 5, BUDGET), GM_OK);
	assert_int_equal(fw_gpuva_queued_ops(x.k), 0);
	assert_int_equal(write_va(&x, A, &va, 1, 0x1234, f, 6), GM_OK);
	assert_int_equal(fw_mfence_wait(x.k, f, 6, BUDGET), GM_OK);
	assert_int_equal(mem32(&x, P.a->loc.addr), 0x1234);
	kt_close(&x);
}

/*
 * The 128-operation limit of pfnUpdateGpuVirtualAddressCb belongs to the
 * rendering context the operations queue behind: A's 128 operations held
 * behind fence value 9 do not block B's 1-operation update, which runs at
 * once; A's run once A's render signals 9.
 */
static void test_conf_update_per_process(void **state)
{
	struct mmu_update_op op[FW_GPUVA_MAX_QUEUED_OPS];
	uint32_t hs[FW_GPUVA_MAX_QUEUED_OPS], fa, fb;
	struct fw_device *A, *B;
	uint64_t va, vb, c0;
	struct kbuf PA, PB;
	struct kt x;

	(void)state;
	kt_open_pt(&x, 64ull << 20, PT_BYTES, 2000000);
	A = va_dev(&x, &fa, FW_GPUVA_MAX_QUEUED_OPS * TILE, &va);
	B = va_dev(&x, &fb, 16 * TILE, &vb);
	PA = kbuf_new(&x, A, 4 * TILE);
	PB = kbuf_new(&x, B, TILE);
	kt_idle(&x);
	maps(op, hs, FW_GPUVA_MAX_QUEUED_OPS, va, PA.h, 4);
	assert_int_equal(update(&x, A, fa, 9, false, op, hs, FW_GPUVA_MAX_QUEUED_OPS), GM_OK);
	maps(op, hs, 1, vb, PB.h, 1);
	c0 = gm_cycles(x.t.g);
	assert_int_equal(update(&x, B, fb, 0, false, op, hs, 1), GM_OK);
	if (gm_cycles(x.t.g) - c0 > 10000)
		fail_msg("B's update blocked %" PRIu64 " cycles on A's operations",
			 gm_cycles(x.t.g) - c0);
	assert_int_equal(fw_mfence_wait(x.k, fb, 1, BUDGET), GM_OK);
	assert_int_equal(write_va(&x, B, &vb, 1, 0xb0b0, fb, 2), GM_OK);
	assert_int_equal(fw_mfence_wait(x.k, fb, 2, BUDGET), GM_OK);
	assert_int_equal(mem32(&x, PB.a->loc.addr), 0xb0b0);
	assert_int_equal(write_va(&x, A, NULL, 0, 0, fa, 9), GM_OK);
	assert_int_equal(fw_mfence_wait(x.k, fa, 10, BUDGET), GM_OK);
	assert_int_equal(fw_gpuva_queued_ops(x.k), 0);
	kt_close(&x);
}

/*
 * An eviction whose submission then fails.  The paging queue is held by
 * B's update, which waits for B's fence behind B's render, itself waiting
 * on a semaphore; C's page-in of Z queues behind it.  C's next render needs
 * room only A's mapped X can give: X is evicted in the books, and flushing
 * its paging buffer waits for Z's, which cannot move - GM_ERR_TIMEOUT.  X's
 * translations must follow it all the same: once the queue runs again, A's
 * write through the VA lands in X where it lives now (the system segment),
 * not in the VRAM it left.
 */
static void test_conf_evict_timeout_va(void **state)
{
	struct mmu_update_op op;
	uint32_t hs, fa, fb, dw[32];
	struct fw_device *A, *B, *C;
	struct kbuf SEM, X, F, Z, Y;
	uint64_t va, vb;
	struct dma_buf b;
	struct kt x;

	(void)state;
	kt_open_pt(&x, 4ull << 20, PT_BYTES, 200000);
	B = va_dev(&x, &fb, 16 * TILE, &vb);
	A = va_dev(&x, &fa, 16 * TILE, &va);
	C = kt_dev_new(&x);
	SEM = kbuf_new(&x, B, TILE);
	X = kbuf_new(&x, A, 16 * TILE);
	F = kbuf_new(&x, C, 44 * TILE);
	Z = kbuf_new(&x, C, TILE);
	Y = kbuf_new(&x, C, 16 * TILE);
	maps(&op, &hs, 1, vb, SEM.h, 1);
	assert_int_equal(update(&x, B, fb, 0, false, &op, &hs, 1), GM_OK);
	maps(&op, &hs, 1, va, X.h, 1);
	assert_int_equal(update(&x, A, fa, 0, false, &op, &hs, 1), GM_OK);
	fw_umd_begin(x.u);
	kt_fill(x.u, F.h, 0, PITCH, 44 * TILE / PITCH, 0x4646464646464646ull);
	kt_run(&x, C, 0, 0);
	kt_idle(&x);
	assert_int_equal(X.a->loc.seg_id, FW_KMD_SEG_VRAM);
	/* B's render waits on its semaphore; B's update waits for that render. */
	dma_buf_init(&b, dw, 32);
	assert_int_equal(dma_emit_wait_mem(&b, vb, 1, 0xffffffffu, GPU_FUNC_EQ, false, 16), GM_OK);
	assert_int_equal(fw_kmd_submit_cmdbuf(x.k, B, &(struct fw_cmdbuf){ .dw = dw,
						.ndw = (uint32_t)b.len }, x.buf,
					      &(struct fw_signal){ fb, 2 }), GM_OK);
	maps(&op, &hs, 1, vb + TILE, SEM.h, 1);
	assert_int_equal(update(&x, B, fb, 2, false, &op, &hs, 1), GM_OK);
	/* C's page-in of Z queues behind it; then C needs X's room. */
	fw_umd_begin(x.u);
	kt_fill(x.u, Z.h, 0, PITCH, 1, 1);
	kt_fill(x.u, F.h, 0, PITCH, 1, 2);
	kt_run(&x, C, 0, 0);
	fw_umd_begin(x.u);
	kt_fill(x.u, Y.h, 0, PITCH, 1, 3);
	assert_int_equal(kt_submit(&x, C, 0, 0), GM_ERR_TIMEOUT);
	assert_int_equal(X.a->loc.seg_id, FW_KMD_SEG_SYS);
	/* The queue runs again. */
	assert_int_equal(gm_backdoor_write32(x.t.g, SEM.a->loc.addr, 1), GM_OK);
	kt_idle(&x);
	assert_int_equal(write_va(&x, A, &va, 1, 0xabcd, fa, 2), GM_OK);
	assert_int_equal(fw_mfence_wait(x.k, fa, 2, BUDGET), GM_OK);
	kt_idle(&x);
	assert_int_equal(X.a->loc.seg_id, FW_KMD_SEG_SYS);
	assert_int_equal(mem32(&x, X.a->loc.addr), 0xabcd);
	assert_false(fw_device_is_removed(A)); /* B's render hung long enough for a TDR */
	kt_close(&x);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_conf_update_many_ops),
		cmocka_unit_test(test_conf_update_same_fence),
		cmocka_unit_test(test_conf_donotwait_chain),
		cmocka_unit_test(test_conf_update_per_process),
		cmocka_unit_test(test_conf_evict_timeout_va),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
