/* SPDX-License-Identifier: MIT */
/*
 * bench.h - benchmark pieces of `gpusim bench` that live outside gpusim.c.
 */
#ifndef BENCH_H
#define BENCH_H

#include <stdint.h>

#include "gm.h"

/* `gpusim bench [--rounds N]` with argv[0] = "bench" (bench_cmd.c); the
 * exit status. */
int cmd_bench(int argc, char **argv);

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
int bench_idle(enum gm_backend_kind be, uint64_t cycles, const char *wave, uint64_t wave_from);

#endif /* BENCH_H */
