/* SPDX-License-Identifier: MIT */
/*
 * bench.h - benchmark pieces of `gpusim bench` that live outside gpusim.c.
 */
#ifndef BENCH_H
#define BENCH_H

#include <stdbool.h>
#include <stdint.h>

#include "gm.h"

/* `gpusim bench [--rounds N]` with argv[0] = "bench" (bench_cmd.c); the
 * exit status. */
struct cli_cmd;
int cmd_bench(const struct cli_cmd *c, int argc, char **argv);

/* Patch entries/s, DMA-buffer build MB/s, submit -> retire cycles; prints
 * its lines; 0, or 1 when something failed. */
int bench_pipeline(void);

/* Deferred-context handle creation and recording on 1 vs 2 threads, with
 * and without cache-line padding (bench_umd.c); 0, or 1 when it failed. */
int bench_umd(void);

/* `gpusim idle`: a model of @be out of reset stepped @cycles cycles
 * (1..1e9) with nothing to do; prints the cycle count.  With @wave (not
 * NULL) a model made for waves records cycles @wave_from on into it (past
 * the end: none, the cost of trace support compiled in and off).  0, 1
 * when the model or the waveform failed, 2 for a bad count. */
struct cli_progress;
int bench_idle(enum gm_backend_kind be, uint64_t cycles, const char *wave, uint64_t wave_from,
	       struct cli_progress *prog);

/* The MMU's TLB hit rate and translation latency for @accesses one-dword
 * writes of VMID 1, sequential or (@random) scattered over 2048 pages
 * (bench_mmu.c); prints its line; 0, or 1 when it failed. */
int bench_mmu(bool random, unsigned accesses);

struct dma_buf;
struct fw_dev;

/* Run the commands of @b as one IB on @d's render queue and wait for its
 * fence; the copy engine's CE_BUSY_CYCLES and CE_BYTES into *@busy and
 * *@bytes (bench_mmu.c).  GM_OK or the first failing call's status. */
int bench_ce_run(struct fw_dev *d, const struct dma_buf *b, uint32_t *busy, uint32_t *bytes);

/* The copy engine's COPY and FILL of 2 MiB, physical and through scattered
 * 4 KiB pages: bytes per cycle, memory-port use and walks (bench_mmu.c);
 * 0, or 1 when one failed. */
int bench_ce_xlat(void);

/* The command processor's packet stream: dwords per cycle of NOPs and
 * WRITE_DATAs from the ring and from an IB in system memory and VRAM
 * (bench_cp.c); prints its lines; 0, or 1 when one failed. */
int bench_cp_stream(void);

#endif /* BENCH_H */
