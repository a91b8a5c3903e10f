/* SPDX-License-Identifier: MIT */
/*
 * gm_be_nosc.c - the SystemC backend's entry in a build without SystemC
 * (the coverage build, `make coverage`): every model asked of it is
 * refused with GM_ERR_UNSUPPORTED, so gm_create() says so and nothing else
 * changes.  The TLM backend (model/tlm/) likewise.
 */
#include "gm_backend.h"
#include "gm_status.h"

static int nosc_create(struct gm_pins *pins, void **out)
{
	(void)pins;
	(void)out;
	return GM_ERR_UNSUPPORTED;
}

static void nosc_destroy(void *be)
{
	(void)be;
}

static bool nosc_cycle(void *be, uint64_t cycle, int dump)
{
	(void)be;
	(void)cycle;
	(void)dump;
	return false;
}

static int nosc_trace_open(void *be, const char *path)
{
	(void)be;
	(void)path;
	return GM_ERR_UNSUPPORTED;
}

static void nosc_trace_close(void *be)
{
	(void)be;
}

const struct gm_backend_ops gm_backend_systemc = {
	.create = nosc_create,
	.destroy = nosc_destroy,
	.cycle = nosc_cycle,
	.trace_open = nosc_trace_open,
	.trace_close = nosc_trace_close,
};

/* The TLM backend's host (model/tlm/) is SystemC too. */
int gm_tlm_open(const struct gm_config *cfg, const struct gm_io_ops **ops, void **io)
{
	(void)cfg;
	(void)ops;
	(void)io;
	return GM_ERR_UNSUPPORTED;
}
