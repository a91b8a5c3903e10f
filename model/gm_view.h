/* SPDX-License-Identifier: MIT */
/*
 * gm_view.h - the GTKWave view gpusim writes next to each waveform: the
 * views of traces/gtkw/ for the blocks the run used (their text embedded at
 * build time by tools/gtkw_embed.py, so there is one description of each
 * view), the zoom fitted to the cycles dumped, and named markers.
 */
#ifndef GM_VIEW_H
#define GM_VIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A view's body or a filter's text, by name ("cp", "cp_state.txt"). */
struct gm_view_text {
	const char *name, *text;
};

/* Generated (build/gen/gm_views.c), each ending with { NULL, NULL }. */
extern const struct gm_view_text gm_view_views[];
extern const struct gm_view_text gm_view_filters[];

#define GM_VIEW_MARKS 26u   /* GTKWave 3.3's named markers, A to Z */
#define GM_VIEW_MARK_NAME 64u

/* Blocks a run used (from the memory requests while dumping). */
#define GM_VIEW_USED_CE 1u  /* copy engine */
#define GM_VIEW_USED_MMU 2u /* page walks */
#define GM_VIEW_USED_APT 4u /* aperture */

struct gm_view_mark {
	uint64_t cycle;
	unsigned prio;      /* enum gm_mark_kind: lower first when there are too many */
	char name[GM_VIEW_MARK_NAME];
};

struct gm_view_run {
	const char *fst;     /* the waveform, as given */
	uint64_t from, to;   /* cycles dumped: [from, to) */
	unsigned used;       /* GM_VIEW_USED_* */
	const struct gm_view_mark *marks;
	size_t nmarks;       /* in the order added */
	uint32_t failed_queues; /* bit q: queue q latched an error or was reset */
	uint32_t rung_queues;   /* bit q: queue q's doorbell rang */
	bool mmu_fault;         /* the MMU latched a fault */
};

/*
 * Write the view of @r to @gtkw and the translate filters it names into
 * the folder @gtkw with ".gtkw" replaced by "-filters".  The command
 * processor's view and the memory's (port and model) always; the copy
 * engine's, the aperture's and the MMU's when the run used them; a Cycle group first.  Markers: up to
 * GM_VIEW_MARKS of @r's, those closer than a few pixels merged
 * into one named for them all (with a count when the name cannot hold
 * them), the lowest prio first, then the earliest, shown in cycle order;
 * the primary marker on the first of the most important (an error, else a
 * fault, a note, a fence; else the window's start), so GTKWave shows the
 * values there.  Groups: the failing
 * queues' (or, when none failed, those the run rang), the MMU's walker and
 * faults when it faulted, the clock's and the cycle open, the rest
 * collapsed.  GM_OK; GM_ERR_IO (a file or the folder could not be
 * written); GM_ERR_NO_MEM.
 */
int gm_view_write(const char *gtkw, const struct gm_view_run *r);

#endif /* GM_VIEW_H */
