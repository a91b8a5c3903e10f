/* SPDX-License-Identifier: MIT */
/*
 * tlm_runs.h - the demo or a `gpusim run` scenario as one call, for the
 * SystemC tests of tb/tlm/ (C++, which cannot include the driver's headers).
 */
#ifndef TLM_RUNS_H
#define TLM_RUNS_H

#include <stdint.h>
#include <stdio.h>

#include "gm.h"

struct tlm_run_result {
	uint64_t cycles;
	unsigned checks, failures;
};

/* Run @what ("demo": the verbose demo; else a scenario's name) on @backend,
 * its transcript on @out.  As scen_demo_run / scen_pipe_run. */
int tlm_run(const char *what, enum gm_backend_kind backend, FILE *out, struct tlm_run_result *r);

#endif /* TLM_RUNS_H */
