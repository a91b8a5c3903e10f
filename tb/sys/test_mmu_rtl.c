/* SPDX-License-Identifier: MIT */
/*
 * test_mmu_rtl.c - the RTL MMU (TLB + walker) against the software walker
 * (mmu/mmu_walk.c), through the real path: packets on a queue with a VMID,
 * translated by the RTL, landing in the memory model.
 *
 * Random: GPUSIM_SEED=<n> reproduces a run; GPUSIM_MMU_ACCESSES sets the
 * number of translated accesses (default 100000).
 */
#define _POSIX_C_SOURCE 200809L

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_names.h"
#include "mmu_pt.h"
#include "mmu_walk.h"
#include "mmu_vm.h"
#include "tb_util.h"

#define IB_DW 4096u

/* Submit @b on queue 0 and expect it to halt on a page fault; then the
 * firmware resets the queue. */
static void expect_fault(struct vm *v, struct dma_buf *b, uint64_t va, bool write,
			 uint32_t flt, const char *what)
{
	struct fw_dev *d = &v->t.d;
	uint32_t errors = d->q[Q0].errors;
	uint64_t f = tb_submit_ib(&v->t, Q0, b);
	int st = fw_fence_wait(d, Q0, f, TB_BUDGET);

	if (st != GM_ERR_HW || d->q[Q0].errors != errors + 1)
		fail_msg("%s: %s, expected the queue to halt", what, gm_status_name(st));
	if (d->q[Q0].err_cause != GPU_CAUSE_PAGE_FAULT)
		fail_msg("%s: queue cause %s", what, gpu_cause_name(d->q[Q0].err_cause));
	if (d->fault.cause != flt || d->fault.va != va || d->fault.write != write ||
	    d->fault.vmid != VMID_A || d->fault.client != Q0)
		fail_msg("%s: MMU latched %s %s VA 0x%" PRIx64 " vmid %u client %u; expected %s %s "
			 "VA 0x%" PRIx64, what, gpu_mmu_fault_name(d->fault.cause),
			 d->fault.write ? "write" : "read", d->fault.va, d->fault.vmid,
			 d->fault.client, gpu_mmu_fault_name(flt), write ? "write" : "read", va);
	tb_recover(&v->t, Q0);
}

/* ------------------------------------------------------------ directed */

/* Each fault cause: the queue halts with PAGE_FAULT, the MMU latches what
 * the software walker predicts, the other queue runs on. */
static void test_mmu_faults(void **state)
{
	static uint32_t ibuf[64];
	struct vm v;
	struct dma_buf b;
	uint32_t one = 1;
	uint64_t va_r = TEST_VA, va_w = TEST_VA + 0x1000, va_na = TEST_VA + 0x2000;
	uint64_t va_res = TEST_VA + 0x3000, va_pde = 0x0000700000000000ull;
	uint64_t va_walk = 0x0000500000000000ull, fault_count;
	struct mmu_xlate x;

	(void)state;
	vm_open(&v);
	assert_int_equal(mmu_pt_map(&v.pt[1], va_r, 0x1000, DATA_PA, MMU_MAP_R), GM_OK);
	assert_int_equal(mmu_pt_map(&v.pt[1], va_w, 0x1000, DATA_PA + 0x1000, MMU_MAP_W), GM_OK);
	assert_int_equal(mmu_pt_unmap(&v.pt[1], va_na, 0x1000, MMU_UNMAP_NOACCESS), GM_OK);
	assert_int_equal(mmu_pt_set_pte(&v.pt[1], va_res, GPU_PTE_V(1) | GPU_PTE_R(1) |
					(1ull << 63)), GM_OK);
	/* A PDE that points outside memory: the next read fails. */
	{
		uint64_t pde_pa, bad = GPU_PDE_V(1) | GPU_PDE_ADDR(0x30000000ull >> 12);

		assert_int_equal(mmu_pt_map(&v.pt[1], va_walk, 0x1000, DATA_PA, MMU_MAP_R), GM_OK);
		assert_int_equal(mmu_pt_lookup(&v.pt[1], va_walk, 2, &pde_pa), GM_OK);
		assert_int_equal(gm_backdoor_write(v.t.g, pde_pa, &bad, 8), GM_OK);
	}

	dma_buf_init(&b, ibuf, 64);
	dma_emit_write_data(&b, va_r, &one, 1);
	x = sw_walk(&v, 1, va_r, true);
	assert_int_equal(x.fault, GPU_FLT_NO_WRITE);
	expect_fault(&v, &b, va_r, true, x.fault, "write to a read-only page");

	dma_buf_init(&b, ibuf, 64);
	dma_emit_wait_mem(&b, va_w, 0, 0, GPU_FUNC_ALWAYS, false, 1);
	expect_fault(&v, &b, va_w, false, sw_walk(&v, 1, va_w, false).fault,
		     "read of a write-only page");
	assert_int_equal(v.t.d.fault.cause, GPU_FLT_NO_READ);

	dma_buf_init(&b, ibuf, 64);
	dma_emit_write_data(&b, va_na, &one, 1);
	expect_fault(&v, &b, va_na, true, GPU_FLT_PTE_INVALID, "no-access page");

	/* The latched VA is the address of the 32-byte beat, not of the byte
	 * (MMU_FAULT_VA_LO says so). */
	dma_buf_init(&b, ibuf, 64);
	dma_emit_write_data(&b, va_na + 0x24, &one, 1);
	expect_fault(&v, &b, va_na + 0x20, true, GPU_FLT_PTE_INVALID, "no-access page, byte 0x24");

	dma_buf_init(&b, ibuf, 64);
	dma_emit_wait_mem(&b, va_res, 0, 0, GPU_FUNC_ALWAYS, false, 1);
	expect_fault(&v, &b, va_res, false, GPU_FLT_RESERVED, "reserved PTE bit");

	dma_buf_init(&b, ibuf, 64);
	dma_emit_write_data(&b, va_pde, &one, 1);
	expect_fault(&v, &b, va_pde, true, GPU_FLT_PDE_INVALID, "unmapped directory");

	dma_buf_init(&b, ibuf, 64);
	dma_emit_write_data(&b, va_walk, &one, 1);
	assert_int_equal(sw_walk(&v, 1, va_walk, true).fault, GPU_FLT_WALK_ERROR);
	expect_fault(&v, &b, va_walk, true, GPU_FLT_WALK_ERROR, "table outside memory");

	/* Nothing landed where the faulting writes pointed. */
	assert_int_equal(tb_mem32(&v.t, DATA_PA), 0);
	/* Seven faults counted; the latch was re-armed by the handler each time. */
	fault_count = tb_rd(&v.t, GPU_REG_MMU_FAULT_COUNT);
	assert_int_equal(fault_count, 7);
	assert_int_equal(GPU_MMU_FAULT_STATUS_VALID_GET(tb_rd(&v.t, GPU_REG_MMU_FAULT_STATUS)), 0);
	/* The privileged queue (VMID 0, physical) ran on. */
	dma_buf_init(&b, ibuf, 64);
	dma_emit_write_data(&b, v.t.scratch, &one, 1);
	run_ib(&v, Q1, &b);
	assert_int_equal(tb_mem32(&v.t, v.t.scratch), 1);
	tb_close(&v.t);
}

/* Null tiles: reads return zero, writes are dropped, no fault. */
static void test_mmu_null_tiles(void **state)
{
	static uint32_t ibuf[64];
	struct vm v;
	struct dma_buf b;
	uint32_t seven = 7, pattern = 0x12345678;
	uint64_t va = TEST_VA + 0x10000;

	(void)state;
	vm_open(&v);
	/* The page was mapped (and holds data), then unmapped to Zero. */
	assert_int_equal(gm_backdoor_write32(v.t.g, DATA_PA + 0x40, pattern), GM_OK);
	assert_int_equal(mmu_pt_map(&v.pt[1], va, 0x1000, DATA_PA, MMU_MAP_R | MMU_MAP_W), GM_OK);
	assert_int_equal(mmu_pt_unmap(&v.pt[1], va, 0x1000, MMU_UNMAP_ZERO), GM_OK);
	dma_buf_init(&b, ibuf, 64);
	dma_emit_write_data(&b, va + 0x40, &seven, 1);
	/* Blocks for ever unless the null tile reads as zero. */
	dma_emit_wait_mem(&b, va + 0x40, 0, ~0ull, GPU_FUNC_EQ, false, 1);
	run_ib(&v, Q0, &b);
	assert_int_equal(tb_mem32(&v.t, DATA_PA + 0x40), pattern);
	assert_int_equal(tb_rd(&v.t, GPU_REG_MMU_FAULT_COUNT), 0);
	assert_int_equal(v.t.d.q[Q0].errors, 0);
	tb_close(&v.t);
}

/* A queue on VMID 1 cannot touch memory mapped only for VMID 2. */
static void test_mmu_isolation(void **state)
{
	static uint32_t ibuf[64];
	struct vm v;
	struct dma_buf b;
	uint32_t mine = 0xb0b, theirs = 0xbad;
	uint64_t va = TEST_VA + 0x20000, pa = DATA_PA + 0x20000;

	(void)state;
	vm_open(&v);
	assert_int_equal(mmu_pt_map(&v.pt[2], va, 0x1000, pa, MMU_MAP_R | MMU_MAP_W), GM_OK);
	tb_wr(&v.t, GPU_REG_Q_VMID(Q1), VMID_B);
	dma_buf_init(&b, ibuf, 64);
	dma_emit_write_data(&b, va, &mine, 1);
	run_ib(&v, Q1, &b);
	assert_int_equal(tb_mem32(&v.t, pa), 0xb0b);
	/* Same VA from VMID 1: faults, and VMID 2's page keeps its data. */
	dma_buf_init(&b, ibuf, 64);
	dma_emit_write_data(&b, va, &theirs, 1);
	expect_fault(&v, &b, va, true, sw_walk(&v, 1, va, true).fault, "VMID 1 writes VMID 2's VA");
	dma_buf_init(&b, ibuf, 64);
	dma_emit_wait_mem(&b, va, 0, 0, GPU_FUNC_ALWAYS, false, 1);
	expect_fault(&v, &b, va, false, sw_walk(&v, 1, va, false).fault, "VMID 1 reads VMID 2's VA");
	assert_int_equal(tb_mem32(&v.t, pa), 0xb0b);
	tb_close(&v.t);
}

/*
 * The TLB caches: after a PTE changes under it, the old translation is used
 * until an invalidation (by register, then by an INVALIDATE_TLB packet on
 * the privileged queue); each invalidation drops it.
 */
static void test_mmu_tlb_invalidate(void **state)
{
	static uint32_t ibuf[64];
	struct vm v;
	struct dma_buf b;
	uint64_t va = TEST_VA + 0x30000, pa_old = DATA_PA + 0x30000, pa_new = DATA_PA + 0x40000;
	uint32_t val = 1, hits0, walks0;

	(void)state;
	vm_open(&v);
	assert_int_equal(mmu_pt_map(&v.pt[1], va, 0x1000, pa_old, MMU_MAP_R | MMU_MAP_W), GM_OK);
	dma_buf_init(&b, ibuf, 64);
	dma_emit_write_data(&b, va, &val, 1);
	run_ib(&v, Q0, &b);
	assert_int_equal(tb_mem32(&v.t, pa_old), 1);
	/* Remap in memory only: the TLB still has the old page. */
	assert_int_equal(mmu_pt_map(&v.pt[1], va, 0x1000, pa_new, MMU_MAP_R | MMU_MAP_W), GM_OK);
	hits0 = tb_rd(&v.t, GPU_REG_MMU_HITS);
	walks0 = tb_rd(&v.t, GPU_REG_MMU_WALKS);
	val = 2;
	dma_buf_init(&b, ibuf, 64);
	dma_emit_write_data(&b, va, &val, 1);
	run_ib(&v, Q0, &b);
	assert_int_equal(tb_mem32(&v.t, pa_old), 2);
	assert_int_equal(tb_mem32(&v.t, pa_new), 0);
	assert_true(tb_rd(&v.t, GPU_REG_MMU_HITS) > hits0);
	/* Register invalidation of VMID 1, that 64 KiB block only. */
	tb_wr(&v.t, GPU_REG_MMU_INV_VMID, VMID_A);
	tb_wr(&v.t, GPU_REG_MMU_INV_START, (uint32_t)(va >> 16));
	tb_wr(&v.t, GPU_REG_MMU_INV_END, (uint32_t)(va >> 16));
	tb_wr(&v.t, GPU_REG_MMU_INV_CTL, GPU_MMU_INV_CTL_GO(1));
	val = 3;
	dma_buf_init(&b, ibuf, 64);
	dma_emit_write_data(&b, va, &val, 1);
	run_ib(&v, Q0, &b);
	assert_int_equal(tb_mem32(&v.t, pa_new), 3);
	assert_int_equal(tb_mem32(&v.t, pa_old), 2);
	assert_true(tb_rd(&v.t, GPU_REG_MMU_WALKS) > walks0);
	/* Back to the old page, invalidated by a packet this time. */
	assert_int_equal(mmu_pt_map(&v.pt[1], va, 0x1000, pa_old, MMU_MAP_R | MMU_MAP_W), GM_OK);
	dma_buf_init(&b, ibuf, 64);
	dma_emit_invalidate_tlb(&b, VMID_A, false, (uint32_t)(va >> 16), (uint32_t)(va >> 16));
	run_ib(&v, Q1, &b);
	val = 4;
	dma_buf_init(&b, ibuf, 64);
	dma_emit_write_data(&b, va, &val, 1);
	run_ib(&v, Q0, &b);
	assert_int_equal(tb_mem32(&v.t, pa_old), 4);
	assert_int_equal(tb_mem32(&v.t, pa_new), 3);
	tb_close(&v.t);
}

/*
 * An invalidation that lands while a walk is in flight: the walk has read
 * the old PTE, the PTE changes and the TLB is invalidated before the walk
 * finishes.  The access must go to the new page and the TLB must not keep
 * the old one.  Page tables live in slow VRAM, so the walk's PTE read is
 * seen accepted (VRAM read count) well before its answer returns.
 */
static void test_mmu_invalidate_during_walk(void **state)
{
	static uint32_t ibuf[64];
	struct gm_config cfg;
	struct gm_stats s;
	struct vm v;
	struct dma_buf b;
	uint64_t va = TEST_VA + 0x50000, pa_old = DATA_PA + 0x50000, pa_new = DATA_PA + 0x60000;
	uint64_t rd0, pte_new;
	uint32_t val = 0x77;
	struct mmu_pte p = { .pa = pa_new, .v = true, .r = true, .w = true };
	int n;

	(void)state;
	gm_config_default(&cfg);
	cfg.vram_latency_cycles = 300;
	vm_open_cfg(&v, &cfg);
	assert_int_equal(mmu_pt_map(&v.pt[1], va, 0x1000, pa_old, MMU_MAP_R | MMU_MAP_W), GM_OK);
	assert_int_equal(mmu_pte_encode(&p, &pte_new), GM_OK);
	/* Warm the TLB with the ring's and fence's pages. */
	dma_buf_init(&b, ibuf, 64);
	dma_emit_nop(&b, 0);
	run_ib(&v, Q0, &b);
	gm_get_stats(v.t.g, &s);
	rd0 = s.mem.vram.rd_reqs;
	dma_buf_init(&b, ibuf, 64);
	dma_emit_write_data(&b, va, &val, 1);
	tb_submit_ib(&v.t, Q0, &b);
	/* Wait for the fourth VRAM read (the PTE) to be accepted. */
	for (n = 0; n < 20000; n++) {
		gm_step(v.t.g, 1);
		gm_get_stats(v.t.g, &s);
		if (s.mem.vram.rd_reqs >= rd0 + 4)
			break;
	}
	assert_true(n < 20000);
	assert_int_equal(mmu_pt_set_pte(&v.pt[1], va, pte_new), GM_OK);
	tb_wr(&v.t, GPU_REG_MMU_INV_VMID, GPU_MMU_INV_VMID_ALL(1));
	tb_wr(&v.t, GPU_REG_MMU_INV_START, 0);
	tb_wr(&v.t, GPU_REG_MMU_INV_END, 0xffffffff);
	tb_wr(&v.t, GPU_REG_MMU_INV_CTL, GPU_MMU_INV_CTL_GO(1));
	tb_wait(&v.t, Q0, v.t.d.q[Q0].fence_emitted);
	if (tb_mem32(&v.t, pa_old) != 0)
		fail_msg("the write used the PTE read before the invalidation");
	assert_int_equal(tb_mem32(&v.t, pa_new), 0x77);
	/* And the TLB holds the new page. */
	val = 0x78;
	dma_buf_init(&b, ibuf, 64);
	dma_emit_write_data(&b, va, &val, 1);
	run_ib(&v, Q0, &b);
	assert_int_equal(tb_mem32(&v.t, pa_new), 0x78);
	assert_int_equal(tb_mem32(&v.t, pa_old), 0);
	tb_close(&v.t);
}

/* PTE_WRITE builds entries the walker (and the software walker) follow. */
static void test_mmu_pte_write(void **state)
{
	static uint32_t ibuf[64];
	struct vm v;
	struct dma_buf b;
	uint64_t va = TEST_VA + 0x100000, pte_pa, flags = GPU_PTE_V(1) | GPU_PTE_R(1) | GPU_PTE_W(1);
	uint32_t val;

	(void)state;
	vm_open(&v);
	/* Make the leaf table exist (no-access), then fill 8 PTEs by packet. */
	assert_int_equal(mmu_pt_unmap(&v.pt[1], va, 8 * 0x1000, MMU_UNMAP_ZERO), GM_OK);
	assert_int_equal(mmu_pt_lookup(&v.pt[1], va, 3, &pte_pa), GM_OK);
	dma_buf_init(&b, ibuf, 64);
	dma_emit_pte_write(&b, pte_pa, flags, DATA_PA + 0x80000, 0x2000, 8);
	run_ib(&v, Q1, &b);
	for (unsigned i = 0; i < 8; i++) {
		struct mmu_xlate x = sw_walk(&v, 1, va + 0x1000 * i + 0x10, true);

		assert_int_equal(x.fault, GPU_FLT_NONE);
		assert_int_equal(x.pa, DATA_PA + 0x80000 + 0x2000 * i + 0x10);
	}
	/* The RTL agrees: write through VMID 1, find it at the PA. */
	for (unsigned i = 0; i < 8; i++) {
		val = 0x900 + i;
		dma_buf_init(&b, ibuf, 64);
		dma_emit_write_data(&b, va + 0x1000 * i + 0x10, &val, 1);
		run_ib(&v, Q0, &b);
		assert_int_equal(tb_mem32(&v.t, DATA_PA + 0x80000 + 0x2000 * i + 0x10), 0x900 + i);
	}
	/* Not on the unprivileged queue. */
	dma_buf_init(&b, ibuf, 64);
	dma_emit_pte_write(&b, pte_pa, flags, DATA_PA, 0x1000, 1);
	tb_submit_ib(&v.t, Q0, &b);
	assert_int_equal(fw_fence_wait(&v.t.d, Q0, v.t.d.q[Q0].fence_emitted, TB_BUDGET), GM_ERR_HW);
	assert_int_equal(v.t.d.q[Q0].err_cause, GPU_CAUSE_PRIV);
	tb_recover(&v.t, Q0);
	dma_buf_init(&b, ibuf, 64);
	dma_emit_invalidate_tlb(&b, 0, true, 0, ~0u);
	tb_submit_ib(&v.t, Q0, &b);
	assert_int_equal(fw_fence_wait(&v.t.d, Q0, v.t.d.q[Q0].fence_emitted, TB_BUDGET), GM_ERR_HW);
	assert_int_equal(v.t.d.q[Q0].err_cause, GPU_CAUSE_PRIV);
	tb_close(&v.t);
}

/*
 * The privileged ring picks each IB's context: an IB with VMID 2 on the
 * copy queue (Q_VMID 0) has its writes and its copy-engine work translated
 * in VMID 2 while the ring's own fence stays physical; an IB without PRIV
 * runs unprivileged on a privileged queue (its PTE_WRITE halts with PRIV),
 * one with PRIV runs it.  (An unprivileged ring choosing either is refused:
 * test_cp's error table.)
 */
static void test_ib_context(void **state)
{
	static uint32_t ibuf[64];
	uint32_t ring[8], val = 0xc0ffee;
	struct dma_buf b, r;
	struct vm v;
	uint64_t f, pte_pa;

	(void)state;
	vm_open(&v);
	assert_int_equal(mmu_pt_map(&v.pt[VMID_B], TEST_VA, 0x1000, DATA_PA + 0x10000,
				    MMU_MAP_R | MMU_MAP_W), GM_OK);
	dma_buf_init(&b, ibuf, 64);
	assert_int_equal(dma_emit_write_data(&b, TEST_VA, &val, 1), GM_OK);
	assert_int_equal(dma_emit_copy(&b, TEST_VA + 0x100, TEST_VA, 4), GM_OK);
	assert_int_equal(gm_backdoor_write(v.t.g, v.t.ib[Q1], b.dw, b.len * 4), GM_OK);
	dma_buf_init(&r, ring, 8);
	assert_int_equal(dma_emit_indirect_buffer_ctx(&r, v.t.ib[Q1], (uint32_t)b.len, VMID_B, false),
			 GM_OK);
	assert_int_equal(fw_submit(&v.t.d, Q1, r.dw, (uint32_t)r.len, &f), GM_OK);
	tb_wait(&v.t, Q1, f);
	assert_int_equal(tb_mem32(&v.t, DATA_PA + 0x10000), 0xc0ffee);
	assert_int_equal(tb_mem32(&v.t, DATA_PA + 0x10100), 0xc0ffee);
	assert_int_equal(tb_rd(&v.t, GPU_REG_Q_VMID(Q1)), 0);

	/* Unprivileged IB on the privileged queue: no PTE_WRITE. */
	assert_int_equal(mmu_pt_lookup(&v.pt[VMID_B], TEST_VA, 3, &pte_pa), GM_OK);
	dma_buf_init(&b, ibuf, 64);
	assert_int_equal(dma_emit_pte_write(&b, pte_pa, GPU_PTE_V(1) | GPU_PTE_R(1) | GPU_PTE_W(1),
					    DATA_PA + 0x20000, 0x1000, 1), GM_OK);
	assert_int_equal(gm_backdoor_write(v.t.g, v.t.ib[Q1], b.dw, b.len * 4), GM_OK);
	dma_buf_init(&r, ring, 8);
	assert_int_equal(dma_emit_indirect_buffer_ctx(&r, v.t.ib[Q1], (uint32_t)b.len, 0, false), GM_OK);
	assert_int_equal(fw_submit(&v.t.d, Q1, r.dw, (uint32_t)r.len, &f), GM_OK);
	assert_int_equal(fw_fence_wait(&v.t.d, Q1, f, TB_BUDGET), GM_ERR_HW);
	assert_int_equal(v.t.d.q[Q1].err_cause, GPU_CAUSE_PRIV);
	assert_int_equal(sw_walk(&v, VMID_B, TEST_VA, false).pa, DATA_PA + 0x10000);
	tb_recover(&v.t, Q1);
	/* With PRIV it runs (tb_submit_ib: the driver's own IB). */
	tb_wait(&v.t, Q1, tb_submit_ib(&v.t, Q1, &b));
	assert_int_equal(sw_walk(&v, VMID_B, TEST_VA, false).pa, DATA_PA + 0x20000);
	tb_close(&v.t);
}

/* Write one dword to each VA of @vas in one IB; returns the TLB misses it
 * took (translations resolved by a walk: the page-walk cache may end a walk
 * without a memory read, so MMU_WALKS would count fewer). */
static uint32_t misses_for(struct vm *v, const uint64_t *vas, unsigned n)
{
	static uint32_t ibuf[256];
	struct dma_buf b;
	uint32_t w0 = tb_rd(&v->t, GPU_REG_MMU_MISSES), one = 1;

	dma_buf_init(&b, ibuf, 256);
	dma_emit_nop(&b, 0);
	for (unsigned i = 0; i < n; i++)
		assert_int_equal(dma_emit_write_data(&b, vas[i], &one, 1), GM_OK);
	run_ib(v, Q0, &b);
	return tb_rd(&v->t, GPU_REG_MMU_MISSES) - w0;
}

/*
 * Hits, misses and eviction: a page used again at once hits; eight other
 * pages fit beside it in the 16-entry TLB; twenty push it out.
 */
static void test_mmu_tlb_hit_evict(void **state)
{
	uint64_t va[24];
	struct vm v;
	uint32_t w;

	(void)state;
	vm_open(&v);
	for (unsigned i = 0; i < 24; i++) {
		va[i] = TEST_VA + 0x200000 + 0x1000ull * i;
		assert_int_equal(mmu_pt_map(&v.pt[1], va[i], 0x1000, DATA_PA + 0x1000ull * i,
					    MMU_MAP_R | MMU_MAP_W), GM_OK);
	}
	/* Warm the ring, IB and fence pages. */
	misses_for(&v, NULL, 0);
	misses_for(&v, NULL, 0);
	w = misses_for(&v, (uint64_t[]){ va[0], va[0], va[0] }, 3);
	assert_int_equal(w, 1);
	/* Eight more pages, then page 0: it is still cached. */
	w = misses_for(&v, (uint64_t[]){ va[1], va[2], va[3], va[4], va[5], va[6], va[7], va[8],
					 va[0] }, 9);
	assert_int_equal(w, 8);
	/* Twenty new pages, then page 0: evicted, walked again. */
	{
		uint64_t list[21];

		for (unsigned i = 0; i < 15; i++)
			list[i] = va[9 + i];
		for (unsigned i = 15; i < 20; i++)
			list[i] = va[1 + i - 15];
		list[20] = va[0];
		w = misses_for(&v, list, 21);
		if (w < 21)
			fail_msg("%u misses for 20 pages and page 0: page 0 was not evicted", w);
	}
	tb_close(&v.t);
}

/* Submit @b on queue @q; step one cycle at a time until each of the @n
 * dwords at @pa holds its @want; @at[i] is the cycle it landed, counted
 * from the submission.  Then wait for the fence. */
static void land_times(struct vm *v, unsigned q, struct dma_buf *b, const uint64_t *pa,
		       const uint32_t *want, uint64_t *at, unsigned n)
{
	uint64_t f = tb_submit_ib(&v->t, q, b), c0 = gm_cycles(v->t.g);
	unsigned left = n;

	memset(at, 0, n * sizeof(*at));
	while (left && gm_cycles(v->t.g) - c0 < 50000) {
		assert_int_equal(gm_step(v->t.g, 1), GM_OK);
		for (unsigned i = 0; i < n; i++)
			if (!at[i] && tb_mem32(&v->t, pa[i]) == want[i]) {
				at[i] = gm_cycles(v->t.g) - c0;
				left--;
			}
	}
	if (left)
		fail_msg("%u of %u writes never landed", left, n);
	tb_wait(&v->t, q, f);
}

/*
 * Misses wait aside while hits go on, and misses of one page share a walk
 * (mmu_top: MissDepth 2, miss merging).  With page tables in slow VRAM, one
 * IB writes two cold pages A and B and then a page C in the TLB: C's write
 * lands while both misses still wait for their walks (a single miss slot
 * would hold B, and C behind it, until A's walk ends).  Then two writes to
 * one cold page: two misses, one walk.
 */
static void test_mmu_miss_under_miss(void **state)
{
	static uint32_t ibuf[64];
	const uint64_t va[4] = { TEST_VA + 0x400000, TEST_VA + 0x800000, TEST_VA + 0xc00000,
				 TEST_VA + 0x1000000 };
	const uint64_t pa[4] = { DATA_PA + 0x400000, DATA_PA + 0x800000, DATA_PA + 0xc00000,
				 DATA_PA + 0x1000000 };
	const uint32_t val[3] = { 0xa1, 0xb2, 0xc3 };
	struct gm_config cfg;
	struct dma_buf b;
	struct vm v;
	uint64_t at[3];
	uint32_t w0, m0, one = 1, two = 2;

	(void)state;
	gm_config_default(&cfg);
	cfg.backend = tb_backend();
	cfg.vram_latency_cycles = 300;
	vm_open_cfg(&v, &cfg);
	for (unsigned i = 0; i < 4; i++)
		assert_int_equal(mmu_pt_map(&v.pt[1], va[i], 0x1000, pa[i], MMU_MAP_R | MMU_MAP_W),
				 GM_OK);
	/* Warm the ring's, IB's and fence's pages and C's. */
	dma_buf_init(&b, ibuf, 64);
	assert_int_equal(dma_emit_write_data(&b, va[2], &one, 1), GM_OK);
	run_ib(&v, Q0, &b);
	run_ib(&v, Q0, &b);
	w0 = tb_rd(&v.t, GPU_REG_MMU_WALKS);
	dma_buf_init(&b, ibuf, 64);
	for (unsigned i = 0; i < 3; i++)
		assert_int_equal(dma_emit_write_data(&b, va[i], &val[i], 1), GM_OK);
	land_times(&v, Q0, &b, pa, val, at, 3);
	if (at[2] >= at[0] || at[2] >= at[1])
		fail_msg("the hit on C landed at cycle %" PRIu64 ", not before the misses on A (%"
			 PRIu64 ") and B (%" PRIu64 ")", at[2], at[0], at[1]);
	assert_int_equal(tb_rd(&v.t, GPU_REG_MMU_WALKS) - w0, 2);
	/* Two writes to cold page D: the first misses and walks, the second
	 * parks behind it and is then served by the TLB (a hit, no walk). */
	w0 = tb_rd(&v.t, GPU_REG_MMU_WALKS);
	m0 = tb_rd(&v.t, GPU_REG_MMU_MISSES);
	dma_buf_init(&b, ibuf, 64);
	assert_int_equal(dma_emit_write_data(&b, va[3], &one, 1), GM_OK);
	assert_int_equal(dma_emit_write_data(&b, va[3] + 4, &two, 1), GM_OK);
	run_ib(&v, Q0, &b);
	assert_int_equal(tb_mem32(&v.t, pa[3]), 1);
	assert_int_equal(tb_mem32(&v.t, pa[3] + 4), 2);
	assert_int_equal(tb_rd(&v.t, GPU_REG_MMU_MISSES) - m0, 1);
	assert_int_equal(tb_rd(&v.t, GPU_REG_MMU_WALKS) - w0, 1);
	tb_close(&v.t);
}

/* Cycles from submitting @k WAIT_MEMs that pass at once on @pa, then a
 * write of @mark to @pa + 0x100, on queue 0 in VMID @vmid, to the write
 * landing; the second of two runs, so every page is in the TLB. */
static uint64_t wait_chain_cycles(struct vm *v, unsigned vmid, uint64_t pa, unsigned k,
				  uint32_t mark)
{
	static uint32_t ibuf[IB_DW];
	uint64_t at = 0, mpa = pa + 0x100;
	struct dma_buf b;

	tb_wr(&v->t, GPU_REG_Q_VMID(Q0), vmid);
	for (uint32_t run = 0; run < 2; run++) {
		uint32_t m = mark + run;

		dma_buf_init(&b, ibuf, IB_DW);
		for (unsigned i = 0; i < k; i++)
			assert_int_equal(dma_emit_wait_mem(&b, pa, 0x5eed, ~0ull, GPU_FUNC_EQ, false, 1),
					 GM_OK);
		assert_int_equal(dma_emit_write_data(&b, mpa, &m, 1), GM_OK);
		land_times(v, Q0, &b, &mpa, &m, &at, 1);
	}
	return at;
}

/*
 * A TLB hit costs at most one cycle (mmu_top's output buffer): a chain of
 * WAIT_MEMs, each waiting for its read before the next, takes no more than
 * a cycle per read longer translated in VMID 1 (every page a hit; data at
 * VA = PA) than untranslated in VMID 0, over the difference of two chain
 * lengths so that the fixed costs cancel.
 */
static void test_mmu_hit_latency(void **state)
{
	const uint64_t pa = DATA_PA + 0x1400000;
	uint64_t t1[2], t0[2];
	const unsigned k[2] = { 16, 80 };
	int64_t extra;
	struct vm v;
	uint32_t h;

	(void)state;
	vm_open(&v);
	assert_int_equal(mmu_pt_map(&v.pt[1], pa, 0x1000, pa, MMU_MAP_R | MMU_MAP_W), GM_OK);
	assert_int_equal(gm_backdoor_write32(v.t.g, pa, 0x5eed), GM_OK);
	for (unsigned i = 0; i < 2; i++) {
		/* Translated: every read a hit (two runs of k); untranslated: none. */
		h = tb_rd(&v.t, GPU_REG_MMU_HITS);
		t1[i] = wait_chain_cycles(&v, VMID_A, pa, k[i], 0x100 + 4 * i);
		assert_true(tb_rd(&v.t, GPU_REG_MMU_HITS) - h >= 2 * k[i]);
		h = tb_rd(&v.t, GPU_REG_MMU_HITS);
		t0[i] = wait_chain_cycles(&v, 0, pa, k[i], 0x200 + 4 * i);
		assert_int_equal(tb_rd(&v.t, GPU_REG_MMU_HITS) - h, 0);
	}
	extra = (int64_t)(t1[1] - t1[0]) - (int64_t)(t0[1] - t0[0]);
	if (extra > (int64_t)(k[1] - k[0]))
		fail_msg("%u more translated reads took %" PRId64 " cycles more than untranslated:"
			 " a hit costs more than one cycle", k[1] - k[0], extra);
	tb_close(&v.t);
}

/* ------------------------------------------------------------ random */

struct page {
	uint64_t va, pa;
	unsigned kind; /* 0 RW, 1 R only, 2 null tile, 3 RW in a 64 KiB fragment */
};

static uint32_t pattern(uint64_t pa)
{
	return (uint32_t)(pa * 0x9e3779b1u) ^ 0xa5a5a5a5u;
}

/* The expected value of each dword written this run (open addressing by PA);
 * a dword never written holds its pattern. */
struct shadow {
	uint64_t *pa;   /* 0 = empty slot (no data page is at PA 0) */
	uint32_t *val;
	size_t n, cap;  /* cap a power of two */
};

static size_t shadow_slot(const struct shadow *sh, uint64_t pa)
{
	size_t i = (size_t)((pa >> 2) * 0x9e3779b97f4a7c15ull) & (sh->cap - 1);

	while (sh->pa[i] && sh->pa[i] != pa)
		i = (i + 1) & (sh->cap - 1);
	return i;
}

static uint32_t shadow_get(const struct shadow *sh, uint64_t pa)
{
	size_t i;

	if (!sh->cap)
		return pattern(pa);
	i = shadow_slot(sh, pa);
	return sh->pa[i] ? sh->val[i] : pattern(pa);
}

static void shadow_put(struct shadow *sh, uint64_t pa, uint32_t v)
{
	size_t i;

	if (2 * (sh->n + 1) > sh->cap) {
		struct shadow big = { calloc(sh->cap ? 2 * sh->cap : 4096, sizeof(uint64_t)),
				      calloc(sh->cap ? 2 * sh->cap : 4096, sizeof(uint32_t)), 0,
				      sh->cap ? 2 * sh->cap : 4096 };

		assert_non_null(big.pa);
		assert_non_null(big.val);
		for (size_t k = 0; k < sh->cap; k++)
			if (sh->pa[k])
				shadow_put(&big, sh->pa[k], sh->val[k]);
		free(sh->pa);
		free(sh->val);
		*sh = big;
	}
	i = shadow_slot(sh, pa);
	sh->n += !sh->pa[i];
	sh->pa[i] = pa;
	sh->val[i] = v;
}

#define N_REGIONS 96u  /* 64 KiB regions; each is 16 pages or one fragment */

/*
 * Random page tables (4 KiB pages and 64 KiB fragments; read-write,
 * read-only and null tiles), then random reads and writes through VMID 1,
 * each predicted by the software walker: a write must land at its PA (or
 * vanish on a null tile), a read (WAIT_MEM ==) must see the value the
 * shadow memory says, or zero on a null tile; a wrong translation blocks
 * the queue and times out.
 */
static void test_mmu_random_vs_walker(void **state)
{
	static uint32_t ibuf[IB_DW];
	static struct page pages[N_REGIONS * 16];
	struct shadow sh = { 0 };
	struct vm v;
	struct dma_buf b;
	uint64_t seed = tb_seed("build/tests/test_mmu_rtl"), s = seed | 1;
	size_t np = 0, accesses = 100000, done = 0, reads = 0, writes = 0, nulls = 0;
	const char *env = getenv("GPUSIM_MMU_ACCESSES");
	uint32_t hits, misses, walks, wcyc;

	(void)state;
	if (env && *env)
		accesses = strtoull(env, NULL, 0);
	vm_open(&v);
	for (unsigned r = 0; r < N_REGIONS; r++) {
		/* Regions scattered over 64 GiB of VA, so every level branches. */
		uint64_t va = TEST_VA + ((rnd(&s) % (1u << 20)) << 16);
		uint64_t pa = DATA_PA + (uint64_t)r * 0x10000;
		bool frag = rnd(&s) % 3 == 0;
		bool taken = false;

		for (size_t i = 0; i < np; i++)
			taken |= (pages[i].va >> 16) == (va >> 16);
		if (taken)
			continue;
		if (frag) {
			assert_int_equal(mmu_pt_map(&v.pt[1], va, 0x10000, pa,
						    MMU_MAP_R | MMU_MAP_W | MMU_MAP_FRAG64K), GM_OK);
			for (unsigned i = 0; i < 16; i++)
				pages[np++] = (struct page){ va + 0x1000 * i, pa + 0x1000 * i, 3 };
			continue;
		}
		for (unsigned i = 0; i < 16; i++) {
			unsigned kind = (unsigned)(rnd(&s) % 8);
			uint64_t pva = va + 0x1000 * i, ppa = pa + 0x1000 * i;

			kind = kind < 5 ? 0 : kind < 7 ? 1 : 2;
			if (kind == 2)
				assert_int_equal(mmu_pt_unmap(&v.pt[1], pva, 0x1000, MMU_UNMAP_ZERO), GM_OK);
			else
				assert_int_equal(mmu_pt_map(&v.pt[1], pva, 0x1000, ppa,
							    MMU_MAP_R | (kind == 0 ? MMU_MAP_W : 0)),
						 GM_OK);
			pages[np++] = (struct page){ pva, ppa, kind };
		}
	}
	/* Known contents in every data page. */
	for (size_t i = 0; i < np; i++) {
		static uint32_t buf[1024];

		for (unsigned k = 0; k < 1024; k++)
			buf[k] = pattern(pages[i].pa + 4 * k);
		assert_int_equal(gm_backdoor_write(v.t.g, pages[i].pa, buf, sizeof(buf)), GM_OK);
	}

	while (done < accesses) {
		dma_buf_init(&b, ibuf, IB_DW);
		for (unsigned k = 0; k < 300 && done < accesses; k++, done++) {
			const struct page *pg = &pages[rnd(&s) % np];
			uint64_t va = pg->va + 4 * (rnd(&s) % 1024);
			bool write = pg->kind != 1 && rnd(&s) % 2;
			struct mmu_xlate x = sw_walk(&v, 1, va, write);

			if (x.fault != GPU_FLT_NONE)
				fail_msg("seed %" PRIu64 ": the software walker faults %s at VA 0x%" PRIx64,
					 seed, gpu_mmu_fault_name(x.fault), va);
			if (x.null_tile != (pg->kind == 2) ||
			    (!x.null_tile && x.pa != pg->pa + (va & 0xfff)))
				fail_msg("seed %" PRIu64 ": software walker disagrees with the map at "
					 "VA 0x%" PRIx64, seed, va);
			if (write) {
				uint32_t tok = (uint32_t)rnd(&s);

				assert_int_equal(dma_emit_write_data(&b, va, &tok, 1), GM_OK);
				if (!x.null_tile)
					shadow_put(&sh, x.pa, tok);
				writes++;
			} else {
				uint32_t want = x.null_tile ? 0 : shadow_get(&sh, x.pa);

				assert_int_equal(dma_emit_wait_mem(&b, va, want, ~0ull, GPU_FUNC_EQ,
								   false, 1), GM_OK);
				reads++;
			}
			nulls += x.null_tile;
		}
		{
			uint64_t f = tb_submit_ib(&v.t, Q0, &b);
			int st = fw_fence_wait(&v.t.d, Q0, f, 4000000);

			if (st)
				fail_msg("seed %" PRIu64 ": batch ending at access %zu: %s (queue cause "
					 "%s, MMU fault %s at 0x%" PRIx64 ")", seed, done,
					 gm_status_name(st), gpu_cause_name(v.t.d.q[Q0].err_cause),
					 gpu_mmu_fault_name(v.t.d.fault.cause), v.t.d.fault.va);
		}
	}
	/* Every write landed where the software walker said. */
	for (size_t i = 0; i < sh.cap; i++) {
		uint32_t got;

		if (!sh.pa[i])
			continue;
		got = tb_mem32(&v.t, sh.pa[i]);
		if (got != sh.val[i])
			fail_msg("seed %" PRIu64 ": PA 0x%" PRIx64 " holds 0x%x, expected 0x%x", seed,
				 sh.pa[i], got, sh.val[i]);
	}
	hits = tb_rd(&v.t, GPU_REG_MMU_HITS);
	misses = tb_rd(&v.t, GPU_REG_MMU_MISSES);
	walks = tb_rd(&v.t, GPU_REG_MMU_WALKS);
	wcyc = tb_rd(&v.t, GPU_REG_MMU_WALK_CYCLES);
	printf("mmu random: %zu pages, %zu accesses (%zu reads, %zu writes, %zu null-tile), "
	       "TLB %u hits / %u misses, %u walks, %.1f cycles per walk\n", np, done, reads,
	       writes, nulls, hits, misses, walks, walks ? (double)wcyc / walks : 0.0);
	assert_int_equal(tb_rd(&v.t, GPU_REG_MMU_FAULT_COUNT), 0);
	assert_true(walks > done / 10); /* the map is too big for the TLB: it must walk */
	free(sh.pa);
	free(sh.val);
	tb_close(&v.t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mmu_faults),
		cmocka_unit_test(test_mmu_null_tiles),
		cmocka_unit_test(test_mmu_isolation),
		cmocka_unit_test(test_mmu_tlb_invalidate),
		cmocka_unit_test(test_mmu_tlb_hit_evict),
		cmocka_unit_test(test_mmu_invalidate_during_walk),
		cmocka_unit_test(test_mmu_miss_under_miss),
		cmocka_unit_test(test_mmu_hit_latency),
		cmocka_unit_test(test_mmu_pte_write),
		cmocka_unit_test(test_ib_context),
		cmocka_unit_test(test_mmu_random_vs_walker),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
