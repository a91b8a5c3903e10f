/* SPDX-License-Identifier: MIT */
/*
 * test_cov_bp.c - directed coverage tests of back-pressure (a test_cov.c
 * companion by theme): the MMU's output, synthetic and miss slots full
 * (copies through null and mapped pages with a memory that takes one
 * request at a time, or answers late), a reserved bit in a directory
 * entry; the aperture's write slots, write queue, beat buffers and host
 * FIFO full (slow memory), a tiled range and split chunks.  The data each
 * moves is checked; the buffers filling, by the cover points of make
 * coverage.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cov_raw.h"
#include "gpu_tile.h"
#include "mmu_pt.h"

/* ------------------------------------------------------------ MMU back-pressure */

#define COPY_VA 0x0000456700000000ull
#define COPY_PA (GPU_VRAM_BASE + 0x01000000ull)
#define COPY_PA_SYS (GPU_SYSMEM_BASE + 0x04000000ull)
#define COPY_BYTES 0x10000u


/* Queue 0 (on its VMID) writes 1 to @va; returns the walks that took. */
static uint32_t write_one_walks(struct tb *t, uint64_t va)
{
	uint32_t dw[16], one = 1, walks = tb_rd(t, GPU_REG_MMU_WALKS);
	struct dma_buf b;

	dma_buf_init(&b, dw, 16);
	assert_int_equal(dma_emit_write_data(&b, va, &one, 1), GM_OK);
	tb_wait(t, 0, tb_submit_ib(t, 0, &b));
	return tb_rd(t, GPU_REG_MMU_WALKS) - walks;
}

/*
 * Queue 0 on VMID 1 copies 64 KiB from a source whose every third page is a
 * null tile (reads zero) to a mapped destination, the firmware's memory
 * mapped 1:1.  With @max_out requests in flight the memory refuses often:
 * the MMU's output buffer fills under walks, hits and merged heads, and
 * null-tile answers wait for memory responses (c_mmu_*).  With @sys_latency
 * (0: VRAM) the pages lie in system memory that answers a beat a cycle that
 * many cycles late: a null page's walk (tables in VRAM) ends while the
 * mapped page's reads still answer, its null answer and the merged heads
 * behind it wait for the synthetic slot (c_mmu_head_syn_full).  The
 * destination must hold the source with zeros for the null pages.
 */
static void copy_through_null_pages(uint32_t max_out, uint32_t latency, uint32_t sys_latency)
{
	const uint64_t pa = sys_latency ? COPY_PA_SYS : COPY_PA;

	static uint32_t dw[64];
	struct gm_config c;
	struct tb t;
	struct tb_ptmem mem;
	struct mmu_pt pt;
	struct dma_buf b;
	uint8_t *src = malloc(COPY_BYTES), *got = malloc(COPY_BYTES);
	uint64_t seed = 0x5eed0001;
	uint32_t walks[2];

	assert_non_null(src);
	assert_non_null(got);
	gm_config_default(&c);
	c.max_outstanding = max_out;
	c.vram_latency_cycles = latency;
	if (sys_latency) {
		c.sys_latency_cycles = sys_latency;
		c.sys_bytes_per_cycle = 32;
	}
	tb_open_cfg(&t, &c);
	tb_ptmem_init(&mem, t.g);
	tb_pt_init(&pt, &mem);
	tb_pt_map_fw(&pt);
	assert_int_equal(mmu_pt_map(&pt, COPY_VA, 2 * COPY_BYTES, pa,
				    MMU_MAP_R | MMU_MAP_W | (sys_latency ? MMU_MAP_SYS : 0)), GM_OK);
	for (uint32_t p = 0; p < COPY_BYTES; p += 0x3000)
		assert_int_equal(mmu_pt_unmap(&pt, COPY_VA + p, 0x1000, MMU_UNMAP_ZERO), GM_OK);
	for (uint32_t i = 0; i < COPY_BYTES; i++)
		src[i] = (uint8_t)tb_rand(&seed);
	assert_int_equal(gm_backdoor_write(t.g, pa, src, COPY_BYTES), GM_OK);
	for (uint32_t p = 0; p < COPY_BYTES; p += 0x3000)
		memset(src + p, 0, 0x1000);
	tb_wr(&t, GPU_REG_VM_ROOT_LO(1), (uint32_t)pt.root_pa);
	tb_wr(&t, GPU_REG_VM_ROOT_HI(1), (uint32_t)(pt.root_pa >> 32));
	tb_wr(&t, GPU_REG_MMU_CTRL, GPU_MMU_CTRL_ENABLE(1));
	tb_wr(&t, GPU_REG_Q_VMID(0), 1);
	dma_buf_init(&b, dw, 64);
	assert_int_equal(dma_emit_copy(&b, COPY_VA + COPY_BYTES, COPY_VA, COPY_BYTES), GM_OK);
	tb_wait(&t, 0, tb_submit_ib(&t, 0, &b));
	assert_int_equal(gm_backdoor_read(t.g, pa + COPY_BYTES, got, COPY_BYTES), GM_OK);
	for (uint32_t i = 0; i < COPY_BYTES; i++)
		if (got[i] != src[i])
			fail_msg("max_outstanding %u: byte 0x%x copied as 0x%02x, want 0x%02x", max_out, i,
				 got[i], src[i]);
	assert_int_equal(tb_rd(&t, GPU_REG_MMU_FAULT_COUNT), 0);
	/* An invalidation of every VMID's every block drops every entry
	 * (c_tlb_inv_all_hit): a write that hit before walks after. */
	walks[0] = write_one_walks(&t, COPY_VA + 2 * COPY_BYTES - 4);
	tb_wr(&t, GPU_REG_MMU_INV_VMID, GPU_MMU_INV_VMID_ALL(1));
	tb_wr(&t, GPU_REG_MMU_INV_START, 0);
	tb_wr(&t, GPU_REG_MMU_INV_END, ~0u);
	tb_wr(&t, GPU_REG_MMU_INV_CTL, GPU_MMU_INV_CTL_GO(1));
	walks[1] = write_one_walks(&t, COPY_VA + 2 * COPY_BYTES - 4);
	if (walks[1] <= walks[0])
		fail_msg("max_outstanding %u: %u walks after invalidating everything, %u before", max_out,
			 walks[1], walks[0]);
	free(src);
	free(got);
	tb_close(&t);
}

static void test_mmu_backpressure(void **state)
{
	(void)state;
	copy_through_null_pages(1, 20, 0);
	copy_through_null_pages(2, 40, 0);
	copy_through_null_pages(64, 20, 0);
	copy_through_null_pages(64, 20, 120);
}

/*
 * A reserved bit in a directory entry (level 2): the walk faults RESERVED
 * (mmu_top's PDE check, c_mmu_pde_reserved), the queue halts with
 * PAGE_FAULT and MMU_FAULT_* latch the beat's VA, the VMID, the client
 * and the write; nothing lands.  The ring runs translated, mapped 1:1.
 */
static void test_pde_reserved(void **state)
{
	struct tb t;
	struct tb_ptmem mem;
	struct mmu_pt pt;
	const uint64_t va = COPY_VA + 0x40000, pa = COPY_PA + 0x40000;
	uint64_t pde_pa, pde, rsv = GPU_PDE_RESERVED & -GPU_PDE_RESERVED;  /* its lowest bit */
	uint32_t one = 1, st, count;

	(void)state;
	tb_open(&t);
	raw_vm3_tables(&t, &mem, &pt);
	assert_int_equal(mmu_pt_map(&pt, va, 0x2000, pa, MMU_MAP_R | MMU_MAP_W), GM_OK);
	assert_int_equal(mmu_pt_lookup(&pt, va, 2, &pde_pa), GM_OK);
	pde = tb_mem64(&t, pde_pa) | rsv;
	assert_int_equal(gm_backdoor_write(t.g, pde_pa, &pde, 8), GM_OK);
	tb_put32(&t, pa + 0x20, 0xdeadbeef);
	tb_wr(&t, GPU_REG_MMU_FAULT_STATUS, GPU_MMU_FAULT_STATUS_VALID(1));
	raw_write_vmid(&t, 3, va + 0x24, one);
	assert_int_equal(GPU_Q_STATUS_ERROR_GET(tb_rd(&t, GPU_REG_Q_STATUS(0))), 1);
	assert_int_equal(GPU_Q_ERR_CAUSE_CAUSE_GET(tb_rd(&t, GPU_REG_Q_ERR_CAUSE(0))), GPU_CAUSE_PAGE_FAULT);
	st = tb_rd(&t, GPU_REG_MMU_FAULT_STATUS);
	if (!GPU_MMU_FAULT_STATUS_VALID_GET(st) || GPU_MMU_FAULT_STATUS_CAUSE_GET(st) != GPU_FLT_RESERVED ||
	    GPU_MMU_FAULT_STATUS_VMID_GET(st) != 3 || GPU_MMU_FAULT_STATUS_CLIENT_GET(st) != 0 ||
	    !GPU_MMU_FAULT_STATUS_WRITE_GET(st))
		fail_msg("MMU_FAULT_STATUS 0x%x: want a RESERVED write fault of VMID 3, client 0", st);
	assert_int_equal(tb_rd(&t, GPU_REG_MMU_FAULT_VA_LO), (uint32_t)(va + 0x20));
	assert_int_equal(tb_rd(&t, GPU_REG_MMU_FAULT_VA_HI), (uint32_t)(va >> 32));
	assert_int_equal(tb_mem32(&t, pa + 0x24), 0);
	assert_int_equal(tb_mem32(&t, pa + 0x20), 0xdeadbeef);
	/* A second fault (the next page, same directory) while the first is
	 * latched: counted, the latch keeps the first (c_regs_fault_latched). */
	count = tb_rd(&t, GPU_REG_MMU_FAULT_COUNT);
	raw_write_vmid(&t, 3, va + 0x1000, one);
	assert_int_equal(GPU_Q_ERR_CAUSE_CAUSE_GET(tb_rd(&t, GPU_REG_Q_ERR_CAUSE(0))), GPU_CAUSE_PAGE_FAULT);
	assert_int_equal(tb_rd(&t, GPU_REG_MMU_FAULT_COUNT), count + 1);
	assert_int_equal(tb_rd(&t, GPU_REG_MMU_FAULT_STATUS), st);
	assert_int_equal(tb_rd(&t, GPU_REG_MMU_FAULT_VA_LO), (uint32_t)(va + 0x20));
	tb_close(&t);
}

/* ------------------------------------------------------------ aperture back-pressure */


/* Write @n bytes through the aperture and read them back through it and
 * through the backdoor; then the reverse with new backdoor data. */
static void apt_round_trip(struct tb *t, uint32_t off, uint32_t n, uint64_t *seed)
{
	uint8_t *a = malloc(n), *got = malloc(n);

	assert_non_null(a);
	assert_non_null(got);
	raw_fill_bytes(a, n, seed);
	assert_int_equal(gm_apt_write(t->g, off, a, n), GM_OK);
	assert_int_equal(gm_backdoor_read(t->g, GPU_VRAM_BASE + off, got, n), GM_OK);
	assert_memory_equal(got, a, n);
	raw_fill_bytes(a, n, seed);
	assert_int_equal(gm_backdoor_write(t->g, GPU_VRAM_BASE + off, a, n), GM_OK);
	assert_int_equal(gm_apt_read(t->g, off, got, n), GM_OK);
	assert_memory_equal(got, a, n);
	free(a);
	free(got);
}

/* Read row 0 of the Y-tiled, 1-byte-element surface at @surf (@pitch
 * bytes) through the window at @win: each chunk must be the bytes
 * gpu_tile_offset places there. */
static void apt_tiled_row(struct tb *t, uint32_t win, uint64_t surf, uint32_t pitch, uint64_t *seed)
{
	uint8_t *a = malloc(pitch), *got = malloc(pitch);

	assert_non_null(a);
	assert_non_null(got);
	raw_fill_bytes(a, pitch, seed);
	for (uint32_t x = 0; x < pitch; x += 16)
		assert_int_equal(gm_backdoor_write(t->g, surf + gpu_tile_offset(GPU_TILE_Y, 0, pitch, x, 0),
						   a + x, 16), GM_OK);
	assert_int_equal(gm_apt_read(t->g, win, got, pitch), GM_OK);
	assert_memory_equal(got, a, pitch);
	free(a);
	free(got);
}

/*
 * Slow memory (300 cycles): more writes than AptSlots in flight, more
 * reads than beat buffers (c_apt_slots_full, c_apt_rb_full, c_apt_ru_full).
 * A memory that takes one request at a time: the port refuses, the write
 * queue and the host FIFO fill (c_apt_req_refused, c_apt_wq_full,
 * c_apt_host_not_ready).  Then a Y-tiled range 5 (a division per row
 * change, element placement checked with gpu_tile_offset) and a range 6
 * off 16 bytes (every chunk split in halves).
 */
static void test_apt_backpressure(void **state)
{
	struct gm_config c;
	struct tb t;
	uint64_t seed = 0x5eed0002, v = 0;
	uint32_t errs, st;
	const uint32_t pitch = 512, win = 0x0f000000u, rows = 16;
	const uint64_t surf = GPU_VRAM_BASE + 0x0f800000ull;

	(void)state;
	gm_config_default(&c);
	c.vram_latency_cycles = 300;
	c.max_outstanding = 4096;
	tb_open_cfg(&t, &c);
	apt_round_trip(&t, APT_OFF, APT_BYTES, &seed);
	/* A row of a Y-tiled range 4: each 16-byte chunk lies in its own beat,
	 * so the stream has a beat buffer per chunk in flight (c_apt_rb_full). */
	tb_apt_range(&t, 4, win, win + 4096 * 8, surf, GPU_TILE_Y, 0, 4096);
	apt_tiled_row(&t, win, surf, 4096, &seed);
	tb_close(&t);

	gm_config_default(&c);
	c.max_outstanding = 1;
	tb_open_cfg(&t, &c);
	apt_round_trip(&t, APT_OFF, APT_BYTES / 4, &seed);
	/* Range 5: Y tiles of 4-byte elements; each row of the window is a row of the surface. */
	tb_apt_range(&t, 5, win, win + pitch * rows, surf, GPU_TILE_Y, 2, pitch);
	for (uint32_t y = 0; y < rows; y += 5) {
		for (uint32_t x = 0; x < pitch / 4; x += 37) {
			uint32_t e = (y << 16) | x;

			assert_int_equal(gm_apt_write64(t.g, win + y * pitch + (x * 4 & ~7u),
							(x & 1) ? (uint64_t)e << 32 : e, (x & 1) ? 0xf0 : 0x0f), GM_OK);
			assert_int_equal(tb_mem32(&t, surf + gpu_tile_offset(GPU_TILE_Y, 2, pitch, x, y)), e);
		}
	}
	/* Range 6 starts 8 bytes into a chunk: every chunk goes in halves. */
	tb_apt_range(&t, 6, win + 0x100008u, win + 0x100108u, surf + 0x10000, GPU_TILE_LINEAR, 0, 256);
	assert_int_equal(gm_apt_write64(t.g, win + 0x100008u, 0x0102030405060708ull, 0xff), GM_OK);
	assert_int_equal(gm_apt_write64(t.g, win + 0x100010u, 0x1112131415161718ull, 0xff), GM_OK);
	assert_int_equal(tb_mem64(&t, surf + 0x10000), 0x0102030405060708ull);
	assert_int_equal(tb_mem64(&t, surf + 0x10008), 0x1112131415161718ull);
	assert_int_equal(gm_apt_read64(t.g, win + 0x100010u, &v), GM_OK);
	assert_int_equal(v, 0x1112131415161718ull);
	/* Range 3 with an unknown tile mode: a posted word fails FORMAT and
	 * APT_ERR_STATUS/APT_ERR_OFF/APT_ERR_COUNT say which; the flush reports it. */
	tb_apt_range(&t, 3, win + 0x200000u, win + 0x201000u, surf + 0x20000, 7, 0, 256);
	errs = tb_rd(&t, GPU_REG_APT_ERR_COUNT);
	assert_int_equal(gm_apt_post64(t.g, win + 0x200018u, 1, 0xff), GM_OK);
	raw_step(&t, 50);
	st = tb_rd(&t, GPU_REG_APT_ERR_STATUS);
	if (!GPU_APT_ERR_STATUS_VALID_GET(st) || GPU_APT_ERR_STATUS_CAUSE_GET(st) != GPU_APT_ERR_FORMAT)
		fail_msg("APT_ERR_STATUS 0x%x after a word through an unknown mode", st);
	assert_int_equal(tb_rd(&t, GPU_REG_APT_ERR_OFF), win + 0x200018u);
	assert_int_equal(tb_rd(&t, GPU_REG_APT_ERR_COUNT), errs + 1);
	assert_int_equal(gm_apt_flush(t.g), GM_ERR_ADDR);
	assert_int_equal(GPU_APT_ERR_STATUS_VALID_GET(tb_rd(&t, GPU_REG_APT_ERR_STATUS)), 0);
	tb_close(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mmu_backpressure),
		cmocka_unit_test(test_pde_reserved),
		cmocka_unit_test(test_apt_backpressure),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
