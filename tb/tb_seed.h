/* SPDX-License-Identifier: MIT */
/*
 * tb_seed.h - the seed and the generator of every random test, unit or
 * system.
 *
 * A random test takes its seed from $GPUSIM_SEED (decimal, or hex with
 * 0x) or, when that is unset or empty, picks one from the clock and the
 * process id; either way it prints, before the test runs,
 *
 *   seed N: reproduce with GPUSIM_SEED=N COMMAND
 *
 * so the log of a failure holds the command that repeats it.  A failure
 * message should name the seed again.  A $GPUSIM_SEED that is not a whole
 * number below 2^64 (decimal, or hex with 0x) stops any program linked
 * with tb_seed.c before main, with a line on stderr and exit status
 * TB_EXIT_USAGE.
 */
#ifndef TB_SEED_H
#define TB_SEED_H

#include <stdint.h>

/* Exit status of a test whose environment is wrong ($GPUSIM_SEED,
 * $GPUSIM_BACKEND): gpusim's usage error (README, exit status). */
#define TB_EXIT_USAGE 2

/* The seed for the random test that @command (the test binary, as typed
 * from the repository root) runs; printed on stdout as above. */
uint64_t tb_seed(const char *command);

/* The next number of the generator every random test draws from
 * (splitmix64: any state, the seed itself included, is a good start; the
 * same stream on every host). */
uint64_t tb_rand(uint64_t *state);

#endif /* TB_SEED_H */
