/* SPDX-License-Identifier: MIT */
/*
 * bench_idle.c - `gpusim idle`: a model out of reset clocked with nothing to
 * do, the floor of a backend's cost per simulated cycle (tools/bench_ipc.sh
 * runs it under callgrind).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "cli.h"
#include "gm.h"
#include "gm_status.h"

#define IDLE_CYCLES_MAX 1000000000ull

#define IDLE_PROGRESS_CYCLES (1ull << 20) /* a step between progress lines */

int bench_idle(enum gm_backend_kind be, uint64_t cycles, const char *wave, uint64_t wave_from,
	       struct cli_progress *prog)
{
	uint64_t left = cycles;
	struct gm_config cfg;
	struct gm *g;
	int st, wst;

	if (!cycles || cycles > IDLE_CYCLES_MAX)
		return 2;
	gm_config_default(&cfg);
	cfg.backend = be;
	cfg.waves = wave != NULL;
	st = gm_create(&cfg, &g);
	if (st) {
		fprintf(stderr, "gpusim: idle: %s\n", gm_status_name(st));
		return 1;
	}
	if (wave && (st = gm_wave_open(g, wave, wave_from, GM_WAVE_END))) {
		fprintf(stderr, "gpusim: idle: waveform %s: %s\n", wave, gm_status_name(st));
		gm_destroy(g);
		return 1;
	}
	/* in steps when there is a progress line: the same cycles as one step
	 * (idle records no capture, whose records are per step) */
	do {
		uint64_t n = prog && prog->on && left > IDLE_PROGRESS_CYCLES ? IDLE_PROGRESS_CYCLES : left;

		st = gm_step(g, n);
		left -= n;
		if (prog)
			cli_progress(prog, gm_cycles(g), cycles - left, cycles);
	} while (!st && left);
	if (prog)
		cli_progress_end(prog);
	printf("idle: %" PRIu64 " cycles on %s: %s\n", gm_cycles(g), gm_backend_name(g),
	       gm_status_name(st));
	wst = gm_wave_close(g);
	gm_destroy(g);
	return st || wst ? 1 : 0;
}
