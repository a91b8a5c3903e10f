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
#include "gm_port.h"
#include "gm_view.h"

/* The ops of backend @kind (gm.c, the registry's ops column): those of a
 * model made for waves (@waves) or of any other; NULL for a value that
 * names no backend. */
const struct gm_backend_ops *gm_backend_ops_of(enum gm_backend_kind kind, bool waves);

struct gm {
	const struct gm_backend_ops *ops;
	/* A host's view of a GPU in a TLM platform (gm_io_ops): every call
	 * goes there, the rest of this struct is unused.  NULL: a model. */
	const struct gm_io_ops *io;
	void *io_be;
	/* The memory port when the memory is a TLM target (gm_create_port);
	 * NULL: the memory model mem. */
	struct gm_port *port;
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
	uint32_t wave_faults; /* MMU_FAULT_COUNT as last seen while dumping */
	uint32_t wave_rung;   /* bit q: queue q's doorbell rung since the waveform opened */
	uint32_t wave_failed; /* bit q: queue q latched an error or was reset, in the window */
	bool wave_fault;      /* the MMU latched a fault in the window */
	struct {
		uint64_t addr;
		char name[24];
	} watch[GM_WAVE_WATCHES];
	unsigned nwatch;
	/* the first RTL assertion failure */
	bool failed;
	uint64_t fail_cycle;
	char fail_what[256];
	/* the tick hook (gm_set_tick_hook): called when cycle reaches hook_next */
	gm_tick_hook_fn hook;
	void *hook_ctx;
	uint64_t hook_every, hook_next;
	/* error injection */
	bool inject_rsp;
	uint32_t inject_id;
	uint64_t inject_at;
};

/*
 * Create a model as gm_create() does (cfg->backend an RTL or ref backend)
 * whose memory port is served by @xfer (model/gm_port.h) rather than by a
 * memory model: gpusim_tlm's GPU (model/tlm/).  Its backdoor calls answer
 * GM_ERR_UNSUPPORTED (the memory is the platform's).
 */
int gm_create_port(const struct gm_config *cfg, gm_port_xfer_fn xfer, void *ctx, struct gm **out);

/* The memory model's configuration for @cfg (regions at GPU_VRAM_BASE and
 * GPU_SYSMEM_BASE, gpu_top's beat): a model's own, or a TLM memory target's. */
void gm_mem_cfg_from(const struct gm_config *cfg, struct gm_mem_cfg *mc);

/* The argument checks of gm.h's aperture call @op (gm_apt.c): GM_OK or
 * GM_ERR_BAD_ARG, as that call answers before any cycle. */
int gm_apt_check(enum gm_io_apt op, uint32_t off, const void *buf, size_t len, uint8_t strb);

/* One cycle: the memory port serviced from the last cycle's pins, the due
 * response driven, the backend clocked once (and dumped if a wave is
 * open). */
void gm_tick(struct gm *g);

/* gm.c: the GPU model behind a host's view of a TLM platform (g->io set),
 * brought to the host's time: its statistics, waves and model errors. */
struct gm *gm_io_core(const struct gm *g);

/* gm.c: a register offset gm_reg_read/gm_reg_write take (dword-aligned,
 * inside BAR0), and one access through gpu_top's register port (two
 * cycles; no capture record, no count): GM_OK, GM_ERR_BAD_ARG, GM_ERR_ADDR
 * (gpu_top answered with its error bit) or GM_ERR_HW (no answer). */
bool gm_reg_off_ok(uint32_t off);
int gm_reg_access(struct gm *g, uint32_t off, bool we, uint32_t wdata, uint32_t *rdata);

/* gm_wave.c: a named marker at the current cycle while dumping, from the
 * window's start on (@prio an enum gm_mark_kind, which the view orders by);
 * past its limit (WAVE_MARKS_MAX) or without memory, none is added. */
void gm_wave_add_mark(struct gm *g, unsigned prio, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* gm_wave.c, while a waveform records: the markers of what the RTL latched
 * on the edge just clocked (backend op latch: queue errors, MMU faults), and
 * of a register write the model is about to make (a queue's reset). */
void gm_wave_latch(struct gm *g);
void gm_wave_reg_write(struct gm *g, uint32_t off, uint32_t val);

#endif /* GM_PRIV_H */
