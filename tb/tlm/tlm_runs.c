// SPDX-License-Identifier: MIT
/*
 * tlm_runs.c - the demo or a scenario as one call (tlm_runs.h).
 */
#include <string.h>

#include "scen_demo.h"
#include "scen_pipe.h"
#include "tlm_runs.h"

int tlm_run(const char *what, enum gm_backend_kind backend, FILE *out, struct tlm_run_result *r)
{
	int st;

	if (!strcmp(what, "demo")) {
		struct scen_demo_opts o;
		struct scen_demo_result dr;

		scen_demo_opts_default(&o);
		o.backend = backend;
		o.verbose = true;
		o.out = out;
		st = scen_demo_run(&o, &dr);
		r->cycles = dr.cycles, r->checks = dr.checks, r->failures = dr.failures;
	} else {
		struct scen_pipe_opts o;
		struct scen_pipe_result pr;

		scen_pipe_opts_default(&o);
		o.backend = backend;
		o.out = out;
		st = scen_pipe_run(what, &o, &pr);
		r->cycles = pr.cycles, r->checks = pr.checks, r->failures = pr.failures;
	}
	return st;
}
