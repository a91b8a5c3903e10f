/* SPDX-License-Identifier: MIT */
/*
 * test_mmu_pwc.c - the MMU's page-walk cache (rtl/mmu/mmu_pwc.sv) through
 * the real path: packets on a queue in VMID 1, translated by the RTL (or
 * the reference backend with GPUSIM_BACKEND=ref), landing in the memory
 * model; the software walker (mmu/mmu_walk.c) says where each access must
 * land.
 *
 * What it costs: a walk to a page whose PTE shares a leaf-table beat with
 * one walked before reads no memory; a walk elsewhere in a 2 MiB region
 * walked before reads one entry; an invalidation empties the cache.
 *
 * That it is never stale (random, GPUSIM_SEED=<n> reproduces a run;
 * GPUSIM_PWC_ROUNDS sets the rounds, default 300): between batches of
 * accesses that run along pages, the page tables change as a driver may
 * change them - a page mapped where none was (no invalidation: the TLB
 * caches no fault), a page moved or unmapped, a whole leaf table moved to
 * a new place with its directory entry rewritten (each with an
 * invalidation) - and every write must land where the tables say at the
 * time.
 */
#define _POSIX_C_SOURCE 200809L

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gm_backend.h"
#include "gpu_names.h"
#include "mmu_vm.h"
#include "tb_util.h"

#define IB_DW 4096u
#define REGION (2ull << 20)                  /* what one leaf table maps */
#define PWC_VA 0x0000456000000000ull          /* this test's regions */

struct ctr {
	uint32_t hits, misses, walks, wcyc;
};

static struct ctr ctr_read(struct vm *v)
{
	return (struct ctr){ tb_rd(&v->t, GPU_REG_MMU_HITS), tb_rd(&v->t, GPU_REG_MMU_MISSES),
			     tb_rd(&v->t, GPU_REG_MMU_WALKS), tb_rd(&v->t, GPU_REG_MMU_WALK_CYCLES) };
}

static struct ctr ctr_since(struct vm *v, struct ctr c0)
{
	struct ctr c = ctr_read(v);

	return (struct ctr){ c.hits - c0.hits, c.misses - c0.misses, c.walks - c0.walks,
			     c.wcyc - c0.wcyc };
}

/* Drop every TLB and walk-cache entry of VMID 1 in [@va, @va + @size). */
static void invalidate(struct vm *v, uint64_t va, uint64_t size)
{
	tb_wr(&v->t, GPU_REG_MMU_INV_VMID, VMID_A);
	tb_wr(&v->t, GPU_REG_MMU_INV_START, (uint32_t)(va >> 16));
	tb_wr(&v->t, GPU_REG_MMU_INV_END, (uint32_t)((va + size - 1) >> 16));
	tb_wr(&v->t, GPU_REG_MMU_INV_CTL, GPU_MMU_INV_CTL_GO(1));
}

/* One IB writing @val[i] to each @va[i] (in order), then its fence. */
static void write_all(struct vm *v, const uint64_t *va, const uint32_t *val, unsigned n)
{
	static uint32_t ibuf[IB_DW];
	struct dma_buf b;

	dma_buf_init(&b, ibuf, IB_DW);
	dma_emit_nop(&b, 0);
	for (unsigned i = 0; i < n; i++)
		assert_int_equal(dma_emit_write_data(&b, va[i], &val[i], 1), GM_OK);
	run_ib(v, Q0, &b);
}

/* The walks of one IB that writes a dword to @n consecutive pages from @va. */
static struct ctr walk_pages(struct vm *v, uint64_t va, unsigned n)
{
	uint64_t vas[64];
	uint32_t val[64];
	struct ctr c0;

	assert_true(n <= 64);
	for (unsigned i = 0; i < n; i++) {
		vas[i] = va + 0x1000ull * i;
		val[i] = 0x100u + i;
	}
	c0 = ctr_read(v);
	write_all(v, vas, val, n);
	return ctr_since(v, c0);
}

/*
 * Walk cost.  Eight pages in one leaf table, written in order (few enough
 * that the TLB keeps the queue's own pages): every one is a miss, but only
 * one walk in each beat of PTEs reads memory (the PTE line cache serves the
 * rest of the beat), and after the first each reads one entry (the PDE
 * cache names the leaf table): far cheaper than a walk from the root.  An invalidation empties the cache: the same pages walk from
 * the root again.
 */
static void test_pwc_walk_cost(void **state)
{
	const unsigned per_beat = GM_BEAT_BYTES / 8u, n = 2 * per_beat;
	uint64_t far = PWC_VA + (1ull << 39);  /* another root entry: a walk from the root */
	struct ctr full, seq, again;
	struct vm v;

	(void)state;
	vm_open(&v);
	assert_int_equal(mmu_pt_map(&v.pt[1], PWC_VA, n * 0x1000ull, DATA_PA, MMU_MAP_R | MMU_MAP_W),
			 GM_OK);
	assert_int_equal(mmu_pt_map(&v.pt[1], far, 0x1000, DATA_PA + 0x100000, MMU_MAP_R | MMU_MAP_W),
			 GM_OK);
	/* Warm the ring's, IB's and fence's pages. */
	walk_pages(&v, far, 0);
	walk_pages(&v, far, 0);
	full = walk_pages(&v, far, 1);
	assert_int_equal(full.misses, 1);
	assert_int_equal(full.walks, 1);
	seq = walk_pages(&v, PWC_VA, n);
	assert_int_equal(seq.misses, n);
	assert_int_equal(seq.walks, n / per_beat);
	/* The first walk is from the root; the other n/per_beat - 1 read one
	 * entry each: together well under a root walk apiece. */
	if ((seq.wcyc - full.wcyc) * 2 > full.wcyc * (n / per_beat - 1))
		fail_msg("%u walks after the first took %u cycles; a walk from the root takes %u",
			 n / per_beat - 1, seq.wcyc - full.wcyc, full.wcyc);
	for (unsigned i = 0; i < n; i++)
		assert_int_equal(tb_mem32(&v.t, DATA_PA + 0x1000ull * i), 0x100u + i);
	/* An invalidation of one 64 KiB block empties the whole cache. */
	invalidate(&v, PWC_VA, 0x10000);
	again = walk_pages(&v, PWC_VA, per_beat);
	assert_int_equal(again.misses, per_beat);
	assert_int_equal(again.walks, 1);
	if (again.wcyc * 4 < full.wcyc * 3)
		fail_msg("after the invalidation a walk took %u cycles; from the root %u", again.wcyc,
			 full.wcyc);
	tb_close(&v.t);
}

/*
 * A PTE that would fault is never taken from the line cache.  The TLB
 * caches no fault, so a driver may map a page where none was without an
 * invalidation; a neighbour's walk has just put the page's old (invalid)
 * entry into the line cache beside its own.  The page's first access must
 * read the new entry and land.
 */
static void test_pwc_map_without_invalidate(void **state)
{
	const uint64_t va = PWC_VA + 0x40000, pa = DATA_PA + 0x200000;
	uint32_t one = 1;
	struct ctr c;
	struct vm v;

	(void)state;
	vm_open(&v);
	/* Page 1 mapped, page 0 (same beat of PTEs) not. */
	assert_int_equal(mmu_pt_map(&v.pt[1], va + 0x1000, 0x1000, pa + 0x1000, MMU_MAP_R | MMU_MAP_W),
			 GM_OK);
	assert_int_equal(mmu_pt_unmap(&v.pt[1], va, 0x1000, MMU_UNMAP_NOACCESS), GM_OK);
	write_all(&v, (uint64_t[]){ va + 0x1000 }, &one, 1);
	assert_int_equal(tb_mem32(&v.t, pa + 0x1000), 1);
	/* Map page 0 in memory only, then use it. */
	assert_int_equal(mmu_pt_map(&v.pt[1], va, 0x1000, pa, MMU_MAP_R | MMU_MAP_W), GM_OK);
	c = walk_pages(&v, va, 1);
	assert_int_equal(tb_mem32(&v.t, pa), 0x100);
	assert_int_equal(c.misses, 1);
	assert_int_equal(c.walks, 1);  /* it read the entry again */
	assert_int_equal(tb_rd(&v.t, GPU_REG_MMU_FAULT_COUNT), 0);
	tb_close(&v.t);
}

/* ------------------------------------------------------------ random */

#define R_REGIONS 3u
#define R_PAGES 128u                          /* pages used at the start of each region */
#define R_BATCH 96u

struct rpage {
	uint64_t va;
	bool mapped;
};

static uint64_t region_va(unsigned r)
{
	/* in different level-1 and level-2 entries: every directory level branches */
	return PWC_VA + (uint64_t)r * ((1ull << 30) + REGION);
}

/* A fresh data page: each page of PA is used once, so a write that lands
 * at an old place cannot look right. */
static uint64_t fresh_pa(uint64_t *next)
{
	uint64_t pa = *next;

	*next += 0x1000;
	assert_true(*next <= DATA_PA + (96ull << 20));
	return pa;
}

/* Move region @r's leaf table to a new table: copy it, rewrite the level-2
 * directory entry to name the copy, invalidate the region. */
static void move_leaf_table(struct vm *v, unsigned r)
{
	static uint8_t tbl[4096];
	uint64_t pde_pa, pte_pa, pde, new_pa;

	assert_int_equal(mmu_pt_lookup(&v->pt[1], region_va(r), MMU_LEAF_LEVEL - 1, &pde_pa), GM_OK);
	assert_int_equal(mmu_pt_lookup(&v->pt[1], region_va(r), MMU_LEAF_LEVEL, &pte_pa), GM_OK);
	assert_int_equal(tb_ptmem_ops.read(&v->mem, pte_pa & ~0xfffull, tbl, sizeof(tbl)), GM_OK);
	assert_int_equal(tb_ptmem_ops.alloc_table(&v->mem, &new_pa), GM_OK);
	assert_int_equal(tb_ptmem_ops.write(&v->mem, new_pa, tbl, sizeof(tbl)), GM_OK);
	assert_int_equal(tb_ptmem_ops.read(&v->mem, pde_pa, &pde, 8), GM_OK);
	assert_true(!(pde & (GPU_PDE_SYS_MASK << GPU_PDE_SYS_SHIFT)));
	pde &= ~(GPU_PDE_ADDR_MASK << GPU_PDE_ADDR_SHIFT);
	pde |= ((new_pa - GPU_VRAM_BASE) >> 12) << GPU_PDE_ADDR_SHIFT;
	assert_int_equal(tb_ptmem_ops.write(&v->mem, pde_pa, &pde, 8), GM_OK);
	invalidate(v, region_va(r), REGION);
}

static void test_pwc_random_changes(void **state)
{
	static struct rpage pg[R_REGIONS * R_PAGES];
	static uint64_t vas[R_BATCH];
	static uint32_t val[R_BATCH];
	uint64_t seed = tb_seed("build/tests/test_mmu_pwc"), s = seed | 1, next = DATA_PA;
	unsigned rounds = 300, changes[4] = { 0 }, writes = 0;
	const char *env = getenv("GPUSIM_PWC_ROUNDS");
	struct ctr c0, c;
	struct vm v;

	(void)state;
	if (env && *env)
		rounds = (unsigned)strtoul(env, NULL, 0);
	vm_open(&v);
	/* Every other page mapped to start with. */
	for (unsigned i = 0; i < R_REGIONS * R_PAGES; i++) {
		pg[i].va = region_va(i / R_PAGES) + 0x1000ull * (i % R_PAGES);
		pg[i].mapped = (i & 1) == 0;
		if (pg[i].mapped)
			assert_int_equal(mmu_pt_map(&v.pt[1], pg[i].va, 0x1000, fresh_pa(&next),
						    MMU_MAP_R | MMU_MAP_W), GM_OK);
		else
			assert_int_equal(mmu_pt_unmap(&v.pt[1], pg[i].va, 0x1000, MMU_UNMAP_NOACCESS),
					 GM_OK);
	}
	c0 = ctr_read(&v);
	for (unsigned round = 0; round < rounds; round++) {
		unsigned n = 0;

		/* A batch: runs along mapped pages (so neighbours share beats). */
		while (n < R_BATCH) {
			unsigned i = (unsigned)(rnd(&s) % (R_REGIONS * R_PAGES));
			unsigned run = 1 + (unsigned)(rnd(&s) % 12);

			for (; run && n < R_BATCH && i < R_REGIONS * R_PAGES; run--, i++) {
				if (!pg[i].mapped)
					continue;
				vas[n] = pg[i].va + 4 * (rnd(&s) % 1024);
				val[n] = (uint32_t)rnd(&s) | 1u;
				n++;
			}
		}
		write_all(&v, vas, val, n);
		for (unsigned k = 0; k < n; k++) {
			struct mmu_xlate x = sw_walk(&v, VMID_A, vas[k], true);
			uint32_t got;

			if (x.fault != GPU_FLT_NONE)
				fail_msg("seed %" PRIu64 ": the software walker faults at VA 0x%" PRIx64,
					 seed, vas[k]);
			got = tb_mem32(&v.t, x.pa);
			/* a later write in the batch to the same dword wins */
			for (unsigned j = k + 1; j < n; j++)
				if ((vas[j] & ~3ull) == (vas[k] & ~3ull))
					got = val[k];
			if (got != val[k])
				fail_msg("seed %" PRIu64 ", round %u: write %u to VA 0x%" PRIx64 " did not "
					 "land at PA 0x%" PRIx64 " (holds 0x%x, expected 0x%x)", seed, round,
					 k, vas[k], x.pa, got, val[k]);
		}
		writes += n;
		/* A change to the tables, as a driver makes it. */
		for (unsigned k = 0; k < 4; k++) {
			unsigned what = (unsigned)(rnd(&s) % 8), i = (unsigned)(rnd(&s) % (R_REGIONS * R_PAGES));

			if (!pg[i].mapped) {
				/* Map where nothing was: no invalidation is needed. */
				assert_int_equal(mmu_pt_map(&v.pt[1], pg[i].va, 0x1000, fresh_pa(&next),
							    MMU_MAP_R | MMU_MAP_W), GM_OK);
				pg[i].mapped = true;
				changes[0]++;
			} else if (what < 4) {
				/* Move the page. */
				assert_int_equal(mmu_pt_map(&v.pt[1], pg[i].va, 0x1000, fresh_pa(&next),
							    MMU_MAP_R | MMU_MAP_W), GM_OK);
				invalidate(&v, pg[i].va, 0x1000);
				changes[1]++;
			} else if (what < 7) {
				/* Unmap it. */
				assert_int_equal(mmu_pt_unmap(&v.pt[1], pg[i].va, 0x1000,
							      MMU_UNMAP_NOACCESS), GM_OK);
				invalidate(&v, pg[i].va, 0x1000);
				pg[i].mapped = false;
				changes[2]++;
			} else {
				move_leaf_table(&v, i / R_PAGES);
				changes[3]++;
			}
		}
	}
	c = ctr_since(&v, c0);
	printf("mmu pwc random: %u rounds, %u writes; changes: %u mapped, %u moved, %u unmapped, "
	       "%u leaf tables moved; %u misses, %u walks read memory\n", rounds, writes, changes[0],
	       changes[1], changes[2], changes[3], c.misses, c.walks);
	assert_int_equal(tb_rd(&v.t, GPU_REG_MMU_FAULT_COUNT), 0);
	/* The cache served walks: fewer read memory than missed. */
	assert_true(c.walks < c.misses);
	tb_close(&v.t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pwc_walk_cost),
		cmocka_unit_test(test_pwc_map_without_invalidate),
		cmocka_unit_test(test_pwc_random_changes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
