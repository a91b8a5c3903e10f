/* SPDX-License-Identifier: MIT */
/*
 * scen_pipe.h - end-to-end scenarios of the submission pipeline, run by
 * `gpusim run NAME`.
 *
 * Each scenario makes its own model, device layer and pipeline (fw_kmd),
 * drives them the way a runtime would - CreateResource, user command
 * buffers with patch lists (fw_umd), Render, SubmitCommand, monitored
 * fences, Lock through the aperture - and checks every result against what
 * the packets should have done, from memory (backdoor) and through the
 * aperture.  The log on o->out reads as a story: the scenario's steps, the
 * pipeline's own lines (kmd: residency, paging, patch, retire, TDR) and one
 * line per check.
 *
 *   copies   surfaces in four layouts, a chain of BLTs and a COPY; checked
 *            against the C reference swizzle and through the aperture
 *   evict    more buffers than VRAM holds: eviction, page-in, discard; data
 *            intact
 *   shared   a shared surface written by one device and read by another
 *            through its own handle; survives its creator closing it
 *   hang     a device's buffer never finishes: TDR resets the render queue,
 *            removes that device, pushes its fences to the maximum and
 *            resubmits the other device's work
 */
#ifndef SCEN_PIPE_H
#define SCEN_PIPE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "fw_kmd.h"
#include "gm.h"

struct scen_pipe_opts {
	enum gm_backend_kind backend;
	const char *wave;    /* FST/VCD of the run, or NULL */
	const char *capture; /* capture file of the run (gm_capture_open), or NULL */
	uint64_t wave_from, wave_to; /* its cycle window (GM_WAVE_END: to the end) */
	uint64_t inject_at;  /* error injection (gm_inject_mem_rsp) at this cycle; 0: none */
	uint32_t seed;       /* image contents */
	bool quiet;          /* checks and summary only, no pipeline log */
	FILE *out;
	/* Called at each line of the story (not when quiet) with the model's
	 * cycles and the checks so far (the command line's progress line); it
	 * must not touch the model.  NULL: none. */
	void (*progress)(void *ctx, uint64_t cycles, uint64_t done, uint64_t total);
	void *progress_ctx;
};

struct scen_pipe_result {
	uint64_t cycles;
	unsigned checks, failures;
	struct fw_kmd_stats st;
};

/* Scenario names in order, NULL-terminated, and a one-line description. */
extern const char *const scen_pipe_names[];
const char *scen_pipe_describe(const char *name);

void scen_pipe_opts_default(struct scen_pipe_opts *o);

/*
 * Run scenario @name.  GM_OK when every check passed; GM_ERR_HW when one
 * failed (listed on o->out); GM_ERR_BAD_ARG for an unknown name; other codes
 * when the model could not be made.  *r is filled whenever it ran.
 */
int scen_pipe_run(const char *name, const struct scen_pipe_opts *o, struct scen_pipe_result *r);

#endif /* SCEN_PIPE_H */
