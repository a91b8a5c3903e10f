/* SPDX-License-Identifier: MIT */
/*
 * test_kmd_conf.c - conformance sequences of Lock and of the pipeline's
 * lifetime rules: each one a sequence a real driver or application runs,
 * which once broke a rule of the public contract (pfnLockCb with
 * D3DDDICB_LOCK in d3dumddi.h) or of the driver's own (fw_kmd.h, fw_dev.h).
 *
 * Tests (tb/testplan.txt maps them to the rules they check):
 *   test_conf_discard_all_busy   Discard|NoExistingReference, the retry after
 *                                a flush, while every instance the family may
 *                                have is still used by the GPU: an instance
 *                                is reused after a wait (pfnLockCb: "reuse any
 *                                instance, the current one included"), never
 *                                E_OUTOFMEMORY.
 *   test_conf_stilldrawing_own   DonotWait on an idle allocation while the
 *                                paging queue moves another one: S_OK; on the
 *                                allocation being paged in, or one a pending
 *                                render uses: WASSTILLDRAWING.
 *   test_conf_destroy_pending    DestroyResource while a submission that
 *                                references it is pending (and is resubmitted
 *                                after another device's TDR): the destroy
 *                                waits until the GPU is done with it; nothing
 *                                pending keeps the freed allocation.
 *   test_conf_paging_error       a paging buffer damaged in memory halts the
 *                                paging queue: the driver resets it and runs
 *                                the lost work again from its own copy; the
 *                                render waiting for it runs, nobody removed.
 *   test_conf_reset_pending_irq  a queue error whose interrupt is still
 *                                pending when the queue is reset: the reset
 *                                queue runs, its fences are not refused.
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

#define BIN "build/tests/test_kmd_conf"
#define INST_BYTES (256u << 10)  /* one instance: 16,000 cycles of FILL */
#define SLOW_PASSES 12u          /* FILLs of a whole instance in one busy render */

/* Render @passes FILLs of all of @h with @v and submit them: the GPU is busy
 * with @h for about @passes x 16,000 cycles, with no CPU help. */
static void slow_fill(struct kt *x, struct fw_device *dev, uint32_t h, uint64_t v, unsigned passes)
{
	fw_umd_begin(x->u);
	for (unsigned i = 0; i < passes; i++)
		kt_fill(x->u, h, 0, PITCH, INST_BYTES / PITCH, v + i);
	kt_run(x, dev, 0, 0);
}

/* A Discard lock of @h with @flags more: its status, the handle in *@out. */
static int lock_discard(struct kt *x, struct fw_device *dev, uint32_t h, uint32_t flags,
			uint32_t *out)
{
	struct fw_lock_args a = { .hAllocation = h, .Flags = flags | FW_LOCK_DISCARD };
	int st = fw_kmd_lock_cb(x->k, dev, &a);

	*out = st ? h : a.hAllocation;
	return st;
}

/*
 * pfnLockCb: "after flushing the command buffer the driver locks again with
 * Discard and NoExistingReference ... the video memory manager can then
 * reuse any instance of the allocation, the current one included".  Every
 * instance the family may have (FW_LOCK_MAX_INSTANCES besides the
 * allocation) is made and then used by a render still running when the
 * retry comes: the retry waits for one and hands it back.
 */
static void test_conf_discard_all_busy(void **state)
{
	uint32_t h[FW_LOCK_MAX_INSTANCES + 1], g;
	struct fw_alloc *got;
	struct fw_device *A;
	struct kbuf B;
	struct kt x;

	(void)state;
	kt_open(&x, 32ull << 20, 2000000);
	A = kt_dev_new(&x);
	B = kbuf_new(&x, A, INST_BYTES);
	h[0] = B.h;
	slow_fill(&x, A, h[0], 0x0101010101010100ull, SLOW_PASSES);
	for (unsigned i = 1; i <= FW_LOCK_MAX_INSTANCES; i++) {
		assert_int_equal(lock_discard(&x, A, h[i - 1], 0, &h[i]), GM_OK);
		assert_int_not_equal(h[i], h[i - 1]);
		assert_int_equal(kt_unlock_cb(&x, A, &h[i], 1), GM_OK);
		slow_fill(&x, A, h[i], 0x0101010101010100ull * (i + 1), SLOW_PASSES);
	}
	for (unsigned i = 0; i <= FW_LOCK_MAX_INSTANCES; i++) {
		struct fw_alloc *a;

		assert_int_equal(fw_res_get_handle_data(A, h[i], &a), GM_OK);
		if (!fw_sched_references(x.k, a, false))
			fail_msg("instance %u is idle already: the sequence tests nothing", i);
	}
	/* The first try fails (every instance made), the retry reuses one. */
	assert_int_equal(lock_discard(&x, A, h[FW_LOCK_MAX_INSTANCES], 0, &g), GM_ERR_NO_MEM);
	assert_int_equal(lock_discard(&x, A, h[FW_LOCK_MAX_INSTANCES], FW_LOCK_NOEXISTINGREFERENCE,
				      &g), GM_OK);
	assert_int_equal(fw_res_get_handle_data(A, g, &got), GM_OK);
	assert_true(fw_alloc_family(got) == B.a);
	assert_false(fw_sched_references(x.k, got, false));
	assert_int_equal(kt_unlock_cb(&x, A, &g, 1), GM_OK);
	/* The reused instance is the newest: the one before it is refused now. */
	fw_umd_begin(x.u);
	kt_fill(x.u, g, 0, PITCH, 1, 7);
	kt_run(&x, A, 0, 0);
	kt_idle(&x);
	assert_int_equal(x.k->st.tdrs, 0);
	kt_close(&x);
}

/*
 * pfnLockCb: DonotWait "fails with WASSTILLDRAWING if the graphics hardware
 * is still using the allocation" - that allocation, not the paging queue as
 * a whole.  X is idle in VRAM while the paging queue fills a fresh 4 MiB Y
 * for a render: X locks at once; Y, which the paging queue and the render
 * both use, is still drawing.
 */
static void test_conf_stilldrawing_own(void **state)
{
	struct fw_lock_args a;
	struct fw_device *A;
	struct kbuf X, Y;
	struct kt x;

	(void)state;
	kt_open(&x, 32ull << 20, 2000000);
	A = kt_dev_new(&x);
	X = kbuf_new(&x, A, 0x10000);
	Y = kbuf_new(&x, A, 4ull << 20);
	fw_umd_begin(x.u);
	kt_fill(x.u, X.h, 0, PITCH, 16, 0x5a5a5a5a5a5a5a5aull);
	kt_run(&x, A, 0, 0);
	kt_idle(&x);
	fw_umd_begin(x.u);
	kt_fill(x.u, Y.h, 0, PITCH, 1, 1);
	kt_run(&x, A, 0, 0); /* Y's page-in (FILL zero of 4 MiB) is on the paging queue */
	assert_true(fw_paging_pending(x.k));
	a = (struct fw_lock_args){ .hAllocation = X.h, .Flags = FW_LOCK_DONOTWAIT,
				   .pData = PDATA_UNSET };
	assert_int_equal(fw_kmd_lock_cb(x.k, A, &a), GM_OK);
	assert_int_equal(a.pData, X.a->loc.addr);
	assert_true(fw_paging_pending(x.k)); /* it did not wait */
	assert_int_equal(kt_unlock_cb(&x, A, &X.h, 1), GM_OK);
	ROW(&x, "lock: DonotWait, the paging queue and a render use it", GM_ERR_STILL_DRAWING,
	    kt_lock_cb(&x, A, Y.h, FW_LOCK_DONOTWAIT, 0, NULL, NULL));
	kt_idle(&x);
	assert_int_equal(kt_lock_cb(&x, A, Y.h, FW_LOCK_DONOTWAIT, 0, NULL, NULL), GM_OK);
	assert_int_equal(kt_unlock_cb(&x, A, &Y.h, 1), GM_OK);
	kt_expect_filled(&x, X.a, 0x5a5a5a5a5a5a5a5aull, "X");
	kt_close(&x);
}

/*
 * DestroyResource of an allocation a pending submission references.  A's
 * render of X waits behind B's hang; A destroys X's resource meanwhile.
 * The destroy waits until the GPU is done with X - B's TDR resubmits A's
 * buffer, which runs - and only then frees X: nothing pending points at
 * freed memory (the sanitizer build checks the resubmission's patching).
 */
static void test_conf_destroy_pending(void **state)
{
	struct fw_device *A, *B;
	struct kbuf SEM, X;
	uint32_t fa;
	struct kt x;

	(void)state;
	kt_open(&x, 16ull << 20, 20000);
	A = kt_dev_new(&x);
	B = kt_dev_new(&x);
	SEM = kbuf_new(&x, B, PITCH);
	X = kbuf_new(NULL, A, 0x10000);
	fa = kt_mfence_new(&x, A, 0);
	fw_umd_begin(x.u);
	kt_fill(x.u, SEM.h, 0, PITCH, 1, 0);
	kt_run(&x, B, 0, 0);
	kt_idle(&x);
	fw_umd_begin(x.u); /* B hangs on a semaphore nobody sets */
	assert_int_equal(fw_umd_wait_eq(x.u, SEM.h, 0, 1), GM_OK);
	kt_run(&x, B, 0, 0);
	fw_umd_begin(x.u);
	kt_fill(x.u, X.h, 0, PITCH, 16, 0x3c3c3c3c3c3c3c3cull);
	kt_run(&x, A, fa, 1);
	assert_true(fw_sched_device_busy(x.k, A));
	assert_int_equal(fw_res_destroy(X.res), GM_OK);
	assert_false(fw_sched_device_busy(x.k, A));
	assert_true(fw_device_is_removed(B));
	assert_false(fw_device_is_removed(A));
	assert_int_equal(kt_mfence_val(&x, fa), 1);
	kt_idle(&x);
	kt_close(&x);
}

/*
 * fw_queue_reset with the queue's error interrupt still pending (latched,
 * not yet handled): the next interrupt handler run finds the reset queue
 * with no error cause and does not mark it halted, so the fresh queue's
 * fence wait succeeds.
 */
static void test_conf_reset_pending_irq(void **state)
{
	uint32_t bad = GPU_PKT_HDR(0x7f, 0), dw[8], bits = 0;
	struct dma_buf b;
	uint64_t fence;
	struct kt x;

	(void)state;
	kt_open(&x, 16ull << 20, 200000);
	assert_int_equal(fw_submit(&x.t.d, FW_QUEUE_COPY, &bad, 1, &fence), GM_OK);
	assert_int_equal(gm_step(x.t.g, 2000), GM_OK);
	assert_int_equal(gm_reg_read(x.t.g, GPU_REG_INT_STATUS, &bits), GM_OK);
	assert_true(GPU_INT_STATUS_ERROR_GET(bits) >> FW_QUEUE_COPY & 1u);
	assert_int_equal(fw_queue_reset(&x.t.d, FW_QUEUE_COPY), GM_OK);
	dma_buf_init(&b, dw, 8);
	assert_int_equal(dma_emit_nop(&b, 1), GM_OK);
	assert_int_equal(fw_submit(&x.t.d, FW_QUEUE_COPY, dw, (uint32_t)b.len, &fence), GM_OK);
	assert_int_equal(fw_fence_wait(&x.t.d, FW_QUEUE_COPY, fence, BUDGET), GM_OK);
	assert_false(x.t.d.q[FW_QUEUE_COPY].halted);
	kt_close(&x);
}

/* The dword offset, in the paging buffer at @addr (written from fresh,
 * zeroed memory), of the header of its last FILL. */
static uint32_t last_fill(struct kt *x, uint64_t addr)
{
	uint32_t at = UINT32_MAX, h = 0;

	for (uint32_t i = 0; i < FW_KMD_DMA_DW; i += GPU_HDR_COUNT_GET(h) + 1) {
		assert_int_equal(gm_backdoor_read32(x->t.g, addr + 4ull * i, &h), GM_OK);
		if (GPU_HDR_TYPE_GET(h) != GPU_PKT_TYPE3)
			break;
		if (GPU_HDR_OPCODE_GET(h) == GPU_OP_FILL)
			at = i;
	}
	assert_int_not_equal(at, UINT32_MAX);
	return at;
}

/*
 * A paging-queue error: the paging buffer of a 4 MiB page-in (16 pieces)
 * is damaged in memory before the queue reaches its last piece (its FILL's
 * opcode made unknown: BAD_OPCODE).  The driver resets the paging queue and
 * runs the lost work again from the piece that failed, from its own copy of
 * the buffer: the render waiting for it runs, nobody is removed, and the
 * allocation holds its zero fill and the render's row.
 */
static void test_conf_paging_error(void **state)
{
	struct fw_device *A;
	uint32_t h, at;
	struct kbuf X;
	struct kt x;
	uint8_t *m;

	(void)state;
	kt_open(&x, 32ull << 20, 2000000);
	A = kt_dev_new(&x);
	X = kbuf_new(&x, A, 4ull << 20);
	fw_umd_begin(x.u);
	kt_fill(x.u, X.h, 0, PITCH, 1, 0x6b6b6b6b6b6b6b6bull);
	kt_run(&x, A, 0, 0); /* X's page-in is on the paging queue */
	at = last_fill(&x, x.k->pg->addr);
	assert_int_equal(gm_backdoor_read32(x.t.g, x.k->pg->addr + 4ull * at, &h), GM_OK);
	h = (h & ~((uint32_t)GPU_HDR_OPCODE_MASK << GPU_HDR_OPCODE_SHIFT)) | GPU_HDR_OPCODE(0x7f);
	assert_int_equal(gm_backdoor_write32(x.t.g, x.k->pg->addr + 4ull * at, h), GM_OK);
	kt_idle(&x);
	assert_int_equal(x.t.d.q[FW_QUEUE_COPY].errors, 1);
	assert_false(x.t.d.q[FW_QUEUE_COPY].halted);
	assert_false(fw_device_is_removed(A));
	assert_int_equal(x.k->st.tdrs, 0);
	m = calloc(1, X.a->d.size);
	assert_non_null(m);
	kt_model_fill(m, 0, PITCH, 1, 0x6b6b6b6b6b6b6b6bull);
	{
		uint8_t *got = malloc(X.a->d.size);

		assert_non_null(got);
		kt_read_alloc(&x, X.a, got);
		assert_memory_equal(got, m, X.a->d.size);
		free(got);
	}
	free(m);
	kt_close(&x);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_conf_discard_all_busy),
		cmocka_unit_test(test_conf_stilldrawing_own),
		cmocka_unit_test(test_conf_destroy_pending),
		cmocka_unit_test(test_conf_reset_pending_irq),
		cmocka_unit_test(test_conf_paging_error),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
