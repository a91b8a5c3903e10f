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
#include "gm.h"
#include "gm_status.h"

#define IDLE_CYCLES_MAX 1000000000ull

int bench_idle(enum gm_backend_kind be, uint64_t cycles)
{
	struct gm_config cfg;
	struct gm *g;
	int st;

	if (!cycles || cycles > IDLE_CYCLES_MAX)
		return 2;
	gm_config_default(&cfg);
	cfg.backend = be;
	st = gm_create(&cfg, &g);
	if (st) {
		fprintf(stderr, "gpusim: idle: %s\n", gm_status_name(st));
		return 1;
	}
	st = gm_step(g, cycles);
	printf("idle: %" PRIu64 " cycles on %s: %s\n", gm_cycles(g), gm_backend_name(g),
	       gm_status_name(st));
	gm_destroy(g);
	return st ? 1 : 0;
}
