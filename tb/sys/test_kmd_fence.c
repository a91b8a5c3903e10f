/* SPDX-License-Identifier: MIT */
/*
 * test_kmd_fence.c - what a submission signals (fw_kmd.h): NullRendering
 * completes a submission's fences without running it (test_kmd_null_rendering,
 * described above the test), and monitored fences never go back.
 *
 * The fixture (kt.h) runs the firmware on the RTL model and reads every
 * result back from the model's memory wherever fw_alloc.loc says the bytes
 * live now.
 *
 * Tests (tb/testplan.txt maps them to the rules they check):
 *   test_kmd_mfence_monotonic monitored fences read in small slices during
 *                             submissions never go back; waits on values
 *                             never requested are refused.
 *
 * $GPUSIM_KMD_LOG set: the pipeline's log goes to stderr.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dma_validate.h"
#include "gpu_names.h"
#include "gpu_tile.h"
#include "kt.h"

#define BIN "build/tests/test_kmd_fence"

/* ------------------------------------------------------------ NullRendering */

/* A FILL of all of @b with @v, submitted with patch flags @flags, signalling
 * @fence = @value. */
static int fill_flags(struct kt *x, struct fw_device *dev, const struct kbuf *b, uint64_t v,
		      uint32_t flags, uint32_t fence, uint64_t value)
{
	struct fw_signal sig = { fence, value };
	struct fw_cmdbuf cb;

	fw_umd_begin(x->u);
	kt_fill(x->u, b->h, 0, PITCH, (uint32_t)(b->a->d.size / PITCH), v);
	fw_umd_cmdbuf(x->u, &cb);
	cb.flags = flags;
	return fw_kmd_submit_cmdbuf(x->k, dev, &cb, x->buf, &sig);
}

/*
 * DXGK_PATCHFLAGS (d3dkmddi.h) NullRendering - the submission's fence
 * and signals complete, its packets do not run (a FILL leaves the bytes as
 * they were) and nothing is paged in for it (a fresh allocation still lives
 * nowhere).  Present and RedirectedPresent are accepted and run; Paging (the
 * driver's own) and a Reserved bit are refused, nothing submitted.
 */
static void test_kmd_null_rendering(void **state)
{
	struct fw_device *A;
	struct kbuf B, C;
	uint32_t f;
	struct kt x;

	(void)state;
	kt_open(&x, 8ull << 20, 200000);
	A = kt_dev_new(&x);
	B = kbuf_new(&x, A, 0x10000);
	C = kbuf_new(&x, A, 0x10000);
	f = kt_mfence_new(&x, A, 0);
	assert_int_equal(fill_flags(&x, A, &B, 0x1111111111111111ull,
				     DMA_PATCH_F_PRESENT | DMA_PATCH_F_REDIRECTED_PRESENT, f, 1),
			 GM_OK);
	assert_int_equal(fw_mfence_wait(x.k, f, 1, BUDGET), GM_OK);
	kt_expect_filled(&x, B.a, 0x1111111111111111ull, "a Present|RedirectedPresent FILL");
	assert_int_equal(fill_flags(&x, A, &B, 0x2222222222222222ull, DMA_PATCH_F_NULL_RENDERING,
				     f, 2), GM_OK);
	assert_int_equal(fill_flags(&x, A, &C, 0x3333333333333333ull, DMA_PATCH_F_NULL_RENDERING,
				     f, 3), GM_OK);
	assert_int_equal(fw_mfence_wait(x.k, f, 3, BUDGET), GM_OK);
	kt_idle(&x);
	kt_expect_filled(&x, B.a, 0x1111111111111111ull, "a NullRendering FILL");
	assert_int_equal(C.a->loc.seg_id, FW_SEG_NONE);
	ROW(&x, "submit: patch flag Paging on a render submission", GM_ERR_BAD_ARG,
	    fill_flags(&x, A, &B, 0, DMA_PATCH_F_PAGING, f, 4));
	ROW(&x, "submit: a Reserved patch flag bit (4)", GM_ERR_BAD_ARG,
	    fill_flags(&x, A, &B, 0, 1u << 4, f, 4));
	printf("null rendering: %" PRIu64 " submissions, %" PRIu64 " paging buffers\n",
	       x.k->st.submits, x.k->st.paging_buffers);
	kt_close(&x);
}

/* ------------------------------------------------------------ fences */

/* Read fence @id: never below what was read before, never above what was
 * requested; counts the distinct values seen. */
static uint64_t mono(struct kt *x, uint32_t id, uint64_t *prev, unsigned *distinct)
{
	uint64_t v = kt_mfence_val(x, id);

	if (v < *prev || v > x->k->mfs->mf[id].requested)
		fail_msg("fence %u read %" PRIu64 " after %" PRIu64 " (requested %" PRIu64 ")", id,
			 v, *prev, x->k->mfs->mf[id].requested);
	*distinct += v != *prev;
	*prev = v;
	return v;
}

static void test_kmd_mfence_monotonic(void **state)
{
	struct kt x;
	struct fw_device *A;
	struct kbuf S, T;
	struct fw_signal sig[2];
	struct fw_cmdbuf cb;
	uint64_t pf = 0, pg = 100, last_g = 100, v;
	unsigned df = 0, dg = 0, n;
	uint32_t f, g, h, mp;
	const unsigned N = 24;

	(void)state;
	kt_open(&x, 16ull << 20, 2000000);
	A = kt_dev_new(&x);
	S = kbuf_new(&x, A, 1u << 20);
	T = kbuf_new(&x, A, 1u << 20);
	f = kt_mfence_new(&x, A, 0);
	g = kt_mfence_new(&x, A, 100);
	assert_int_equal(mono(&x, g, &pg, &dg), 100);
	for (unsigned i = 0; i < N; i++) {
		fw_umd_begin(x.u);
		assert_int_equal(fw_umd_copy(x.u, T.h, 0, S.h, 0, 0x20000), GM_OK);
		fw_umd_cmdbuf(x.u, &cb);
		mp = 0;
		assert_int_equal(fw_kmd_render(x.k, A, &cb, &mp, x.buf), GM_OK);
		sig[0] = (struct fw_signal){ f, i + 1 };
		sig[1] = (struct fw_signal){ g, 101 + i };
		n = i % 3 == 0 ? 2 : 1;
		if (n == 2)
			last_g = 101 + i;
		assert_int_equal(fw_kmd_submit(x.k, x.buf, sig, n, NULL), GM_OK);
		mono(&x, f, &pf, &df);
		mono(&x, g, &pg, &dg);
	}
	for (unsigned spins = 0; pf < N && spins < 100000; spins++) {
		fw_kmd_poll(x.k, 300);
		mono(&x, f, &pf, &df);
		mono(&x, g, &pg, &dg);
	}
	assert_int_equal(pf, N);
	assert_int_equal(pg, last_g);
	if (df < 6)
		fail_msg("only %u distinct values of fence %u seen in 300-cycle slices", df, f);

	/* What the CPU has read never goes back, whatever memory says. */
	assert_int_equal(gm_backdoor_write(x.t.g, x.k->mfs->mf[f].addr, &(uint64_t){ 3 }, 8), GM_OK);
	assert_int_equal(mono(&x, f, &pf, &df), N);
	ROW(&x, "mfence_wait: a value never requested", GM_ERR_BAD_ARG,
	    fw_mfence_wait(x.k, f, N + 1, BUDGET));
	ROW(&x, "mfence_wait: a value reached", GM_OK, fw_mfence_wait(x.k, f, N, BUDGET));
	ROW(&x, "mfence_wait: a value below one reached", GM_OK, fw_mfence_wait(x.k, f, 1, BUDGET));

	/* A fence made at 50: a signal must be above 50. */
	h = kt_mfence_new(&x, A, 50);
	sig[0] = (struct fw_signal){ h, 50 };
	ROW(&x, "submit: signal equal to the fence's initial value", GM_ERR_BAD_ARG,
	    fw_kmd_submit(x.k, x.buf, sig, 1, NULL));
	sig[0].value = 49;
	ROW(&x, "submit: signal below the fence's initial value", GM_ERR_BAD_ARG,
	    fw_kmd_submit(x.k, x.buf, sig, 1, NULL));
	ROW(&x, "mfence_wait: on a fence made at 50, value 51", GM_ERR_BAD_ARG,
	    fw_mfence_wait(x.k, h, 51, BUDGET));

	/* A wait that runs out of cycles, then the same wait given enough;
	 * two ascending signals of one fence in one submission. */
	fw_umd_begin(x.u);
	assert_int_equal(fw_umd_copy(x.u, T.h, 0, S.h, 0, 1u << 20), GM_OK);
	fw_umd_cmdbuf(x.u, &cb);
	mp = 0;
	assert_int_equal(fw_kmd_render(x.k, A, &cb, &mp, x.buf), GM_OK);
	sig[0] = (struct fw_signal){ f, N + 1 };
	sig[1] = (struct fw_signal){ f, N + 2 };
	assert_int_equal(fw_kmd_submit(x.k, x.buf, sig, 2, NULL), GM_OK);
	assert_int_equal(fw_mfence_wait(x.k, f, N + 2, 100), GM_ERR_TIMEOUT);
	assert_true(mono(&x, f, &pf, &df) <= N + 2);
	assert_int_equal(fw_mfence_wait(x.k, f, N + 2, BUDGET), GM_OK);
	v = mono(&x, f, &pf, &df);
	assert_int_equal(v, N + 2);
	assert_int_equal(mono(&x, h, &(uint64_t){ 50 }, &dg), 50);
	kt_idle(&x);
	kt_close(&x);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kmd_null_rendering),
		cmocka_unit_test(test_kmd_mfence_monotonic),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
