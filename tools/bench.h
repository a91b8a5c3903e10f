/* SPDX-License-Identifier: MIT */
/*
 * bench.h - benchmark pieces of `gpusim bench` that live outside gpusim.c.
 */
#ifndef BENCH_H
#define BENCH_H

/* Patch entries/s, DMA-buffer build MB/s, submit -> retire cycles; prints
 * its lines; 0, or 1 when something failed. */
int bench_pipeline(void);

#endif /* BENCH_H */
