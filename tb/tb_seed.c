/* SPDX-License-Identifier: MIT */
/*
 * tb_seed.c - the seed and the generator of every random test (see
 * tb_seed.h).
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime, getpid */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "tb_seed.h"

uint64_t tb_seed(const char *command)
{
	const char *s = getenv("GPUSIM_SEED");
	uint64_t seed;

	if (s && *s) {
		seed = strtoull(s, NULL, 0);
	} else {
		struct timespec ts;

		clock_gettime(CLOCK_REALTIME, &ts);
		seed = (uint64_t)ts.tv_nsec ^ (uint64_t)ts.tv_sec << 20 ^ (uint64_t)getpid();
	}
	printf("seed %" PRIu64 ": reproduce with GPUSIM_SEED=%" PRIu64 " %s"
	       " (waves into a folder: add GPUSIM_WAVE_DIR=DIR)\n", seed, seed, command);
	fflush(stdout);
	return seed;
}

uint64_t tb_rand(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}
