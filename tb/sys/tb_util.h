/* SPDX-License-Identifier: MIT */
/*
 * tb_util.h - shared fixture of the system tests (the whole RTL model
 * through the C API and the driver): a model, the firmware device on it,
 * and helpers that fail the running cmocka test with a message naming what
 * went wrong.  Random tests take their seed from tb_seed.h.
 */
#ifndef TB_UTIL_H
#define TB_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "dma_buf.h"
#include "fw_dev.h"
#include "gm.h"
#include "gpu_hw.h"
#include "mmu_pt.h"
#include "tb_seed.h"

#define TB_BUDGET 100000u     /* cycles any single fence may take */
#define TB_IB_BYTES 0x10000u  /* each scratch IB area */

struct tb {
	struct gm *g;
	struct fw_dev d;
	uint64_t ib[2];       /* one scratch IB area per queue (system memory) */
	uint64_t scratch;     /* 64 KiB of system memory for results */
};

/* The backend from $GPUSIM_BACKEND ("verilator" when unset or empty,
 * "systemc" or "ref").  Any other value, "REF" or "ref " too, stops the
 * program (checked before main) with a line on stderr and TB_EXIT_USAGE. */
enum gm_backend_kind tb_backend(void);

/* Make a model with @cfg (NULL = defaults) and bring the firmware up. */
void tb_open_cfg(struct tb *t, const struct gm_config *cfg);
void tb_open(struct tb *t);
/* tb_open with a model made for waves (gm_config.waves): gm_wave_open works. */
void tb_open_waves(struct tb *t);
void tb_close(struct tb *t);

/* Register read/write that must succeed. */
uint32_t tb_rd(struct tb *t, uint32_t off);
void tb_wr(struct tb *t, uint32_t off, uint32_t v);

/* Backdoor helpers that must succeed. */
uint32_t tb_mem32(struct tb *t, uint64_t addr);
uint64_t tb_mem64(struct tb *t, uint64_t addr);
void tb_put32(struct tb *t, uint64_t addr, uint32_t v);

/* Put @b's packets into queue @q's IB area and submit them with a fence;
 * returns the fence value. */
uint64_t tb_submit_ib(struct tb *t, unsigned q, const struct dma_buf *b);

/* Submit @b's packets straight into the ring with a fence; returns the fence. */
uint64_t tb_submit_ring(struct tb *t, unsigned q, const struct dma_buf *b);

/* Wait for queue @q's fence @v; the test fails unless it retires. */
void tb_wait(struct tb *t, unsigned q, uint64_t v);

/* The firmware's recovery of queue @q, halted on an error the interrupt
 * handler recorded: fw_queue_reset, which must succeed. */
void tb_recover(struct tb *t, unsigned q);

/* Run until the interrupt line rises (the test fails after @budget cycles). */
void tb_run_to_irq(struct tb *t, uint64_t budget);

/* Program aperture range @r (registers, not the driver): clear VALID, write
 * the window [@start, @end), @base, layout (@mode, @bpe) and @pitch, set VALID. */
void tb_apt_range(struct tb *t, unsigned r, uint32_t start, uint32_t end, uint64_t base,
		  unsigned mode, unsigned bpe, uint32_t pitch);

/* ------------------------------------------------------------ test page tables */

/* A test's own page tables in the model's VRAM 128..192 MiB, outside the
 * firmware's: read, written and allocated through the backdoor
 * (tb_ptmem_ops, context a struct tb_ptmem). */
#define TB_PT_POOL (GPU_VRAM_BASE + 0x08000000ull)
#define TB_PT_POOL_END (TB_PT_POOL + 0x04000000ull)
#define TB_FW_WINDOW (1ull << 20) /* mapped 1:1 around the firmware's structures */

struct tb_ptmem {
	struct gm *g;
	uint64_t next; /* the next table's address */
};

extern const struct mmu_mem_ops tb_ptmem_ops;

/* Start @m as an empty pool on @g's memory, then (for each table tree)
 * tb_pt_init(&pt, &m). */
void tb_ptmem_init(struct tb_ptmem *m, struct gm *g);
void tb_pt_init(struct mmu_pt *pt, struct tb_ptmem *m);

/* Map the firmware's rings, fences and IBs 1:1 in @pt (both halves of
 * system memory it uses), so a translated queue can run. */
void tb_pt_map_fw(struct mmu_pt *pt);

#endif /* TB_UTIL_H */
