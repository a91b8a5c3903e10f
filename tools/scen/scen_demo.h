/* SPDX-License-Identifier: MIT */
/*
 * scen_demo.h - the bring-up demo that `gpusim demo` runs.
 *
 * Two queues meet through memory: the render queue executes an IB that
 * waits (WAIT_MEM) for a semaphore the copy queue's IB writes later, so the
 * render queue stalls while the copy queue runs on.  Both end in fences with
 * interrupts, retired by the firmware's interrupt handler.  Then a broken IB
 * (an unknown opcode) halts the copy queue: the firmware reports the cause
 * and address the interrupt handler recorded, resets the queue and submits
 * again.
 * The render queue runs in VMID 1 (its result buffer is a GPU virtual
 * address, translated by the MMU); the copy queue is physical.
 * Every result is checked against what the packets should have done.
 */
#ifndef SCEN_DEMO_H
#define SCEN_DEMO_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "gm.h"

struct scen_demo_opts {
	enum gm_backend_kind backend;
	const char *wave;          /* FST/VCD path or NULL */
	const char *capture;       /* capture file (gm_capture_open) or NULL */
	uint64_t wave_from, wave_to; /* cycle window; wave_to = GM_WAVE_END for all */
	unsigned rounds;           /* render/copy exchanges (1 for the demo) */
	bool error_act;            /* run the broken-IB recovery act */
	bool verbose;              /* print disassembly, log and counters */
	bool mmu;                  /* run the render queue in VMID 1 (translated) */
	uint64_t inject_at;        /* error injection (gm_inject_mem_rsp) at this cycle; 0: none */
	FILE *out;
	/* Called after each round with the model's cycles, the rounds done and
	 * o->rounds (the command line's progress line); it must not touch the
	 * model.  NULL: none. */
	void (*progress)(void *ctx, uint64_t cycles, uint64_t done, uint64_t total);
	void *progress_ctx;
};

struct scen_demo_result {
	uint64_t cycles;           /* cycles simulated in total */
	double seconds;            /* host time spent simulating them */
	unsigned checks, failures; /* result checks made / failed */
};

void scen_demo_opts_default(struct scen_demo_opts *o);

/*
 * Run the demo.  GM_OK when it ran and every check passed; GM_ERR_HW when a
 * check failed (listed on o->out); other codes when the model could not be
 * created or a wave file not opened.  *r is filled whenever the demo ran.
 */
int scen_demo_run(const struct scen_demo_opts *o, struct scen_demo_result *r);

#endif /* SCEN_DEMO_H */
