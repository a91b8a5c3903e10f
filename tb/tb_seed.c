/* SPDX-License-Identifier: MIT */
/*
 * tb_seed.c - the seed and the generator of every random test (see
 * tb_seed.h).
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime, getpid */

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "tb_seed.h"

/* $GPUSIM_SEED into *seed: true when it is set and not empty.  Anything but
 * a whole number (decimal, or hex with 0x; no sign, no space, below 2^64)
 * stops the program with the usage exit status: a typo must not quietly
 * become another seed. */
static bool env_seed(uint64_t *seed)
{
	const char *s = getenv("GPUSIM_SEED"), *digits;
	bool hex;
	char *end;

	if (!s || !*s)
		return false;
	hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
	digits = hex ? s + 2 : s;
	errno = 0;
	*seed = strtoull(digits, &end, hex ? 16 : 10);
	if (!(hex ? isxdigit((unsigned char)*digits) : isdigit((unsigned char)*digits)) || *end ||
	    errno) {
		fprintf(stderr, "tb: GPUSIM_SEED=%s: not a seed (a whole number below 2^64, decimal "
			"or 0x hex)\n", s);
		exit(TB_EXIT_USAGE);
	}
	return true;
}

/* Checked before main: a bad seed refuses the run before any test starts. */
__attribute__((constructor)) static void check_env_seed(void)
{
	uint64_t seed;

	(void)env_seed(&seed);
}

uint64_t tb_seed(const char *command)
{
	uint64_t seed;

	if (!env_seed(&seed)) {
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
