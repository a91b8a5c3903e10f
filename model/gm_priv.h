/* SPDX-License-Identifier: MIT */
/*
 * gm_priv.h - the model's own state, shared by the files of the model that
 * drive its pins (gm.c the clock loop, registers, backdoor, waves; gm_apt.c
 * the aperture's host side).  Not for clients: they see gm.h.
 */
#ifndef GM_PRIV_H
#define GM_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gm.h"
#include "gm_backend.h"
#include "gm_capture.h"
#include "gm_view.h"

/* The ops of backend @kind (gm.c, the registry's ops column): those of a
 * model made for waves (@waves) or of any other; NULL for a value that
 * names no backend. */
const struct gm_backend_ops *gm_backend_ops_of(enum gm_backend_kind kind, bool waves);

struct gm {
	const struct gm_backend_ops *ops;
	struct gm_config cfg;   /* as created: a capture's header */
	struct gm_cap *cap;     /* the capture being written, or NULL */
	void *be;
	struct gm_mem *mem;
	struct gm_pins pins;
	uint64_t cycle;
	uint64_t reg_reads, reg_writes;
	/* A backdoor write since the last aperture read: the aperture's
	 * prefetch buffer may hold bytes it changed (no snoop sees it). */
	bool apt_pf_stale;
	/* waveform */
	bool wave_open;
	uint64_t wave_from, wave_to;
	char *wave_path;     /* what the user asked for */
	char *wave_fst_path; /* what the backend writes (differs for .vcd) */
	uint64_t wave_last;  /* the last cycle dumped + 1 */
	unsigned wave_used;  /* GM_VIEW_USED_*: blocks seen on the memory port */
	struct gm_view_mark *marks;
	size_t nmarks;
	struct {
		uint64_t addr;
		char name[24];
	} watch[GM_WAVE_WATCHES];
	unsigned nwatch;
	/* the first RTL assertion failure */
	bool failed;
	uint64_t fail_cycle;
	char fail_what[256];
	/* error injection */
	bool inject_rsp;
	uint32_t inject_id;
	uint64_t inject_at;
};

/* One cycle: the memory port serviced from the last cycle's pins, the due
 * response driven, the backend clocked once (and dumped if a wave is
 * open). */
void gm_tick(struct gm *g);

#endif /* GM_PRIV_H */
