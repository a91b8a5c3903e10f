/* SPDX-License-Identifier: MIT */
/*
 * bench.h - benchmark pieces of `gpusim bench` that live outside gpusim.c.
 */
#ifndef BENCH_H
#define BENCH_H

/* Patch entries/s, DMA-buffer build MB/s, submit -> retire cycles; prints
 * its lines; 0, or 1 when something failed. */
int bench_pipeline(void);

/* Deferred-context handle creation and recording on 1 vs 2 threads, with
 * and without cache-line padding (bench_umd.c); 0, or 1 when it failed. */
int bench_umd(void);

#endif /* BENCH_H */
