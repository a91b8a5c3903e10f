/* SPDX-License-Identifier: MIT */
/*
 * gm_wave.c - a model's waveform: the FST (or, through GTKWave's fst2vcd,
 * VCD) file of a window of cycles, its named markers and watched addresses,
 * and the GTKWave view written beside it when it closes (gm_view.c).  The
 * clock loop (gm.c) dumps the cycles and adds the markers it sees.
 */
#define _POSIX_C_SOURCE 200809L

#include <fcntl.h>
#include <stdarg.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gm.h"
#include "gm_backend.h"
#include "gm_capture.h"
#include "gm_priv.h"
#include "gm_view.h"
#include "gpu_hw.h"
#include "gpu_names.h"

extern char **environ;

static bool has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n > m && strcmp(s + n - m, suffix) == 0;
}

int gm_wave_open(struct gm *g, const char *path, uint64_t from_cycle, uint64_t to_cycle)
{
	bool vcd;
	int st;

	if (g->io)
		return gm_wave_open(gm_io_core(g), path, from_cycle, to_cycle);
	if (!path || from_cycle >= to_cycle)
		return GM_ERR_BAD_ARG;
	vcd = has_suffix(path, ".vcd");
	if (!vcd && !has_suffix(path, ".fst"))
		return GM_ERR_BAD_ARG;
	if (g->wave_open)
		return GM_ERR_BUSY;
	g->wave_path = strdup(path);
	g->wave_fst_path = malloc(strlen(path) + sizeof(".tmp.fst"));
	if (!g->wave_path || !g->wave_fst_path) {
		st = GM_ERR_NO_MEM;
		goto err_free_paths;
	}
	strcpy(g->wave_fst_path, path);
	if (vcd)
		strcat(g->wave_fst_path, ".tmp.fst");
	st = g->ops->trace_open(g->be, g->wave_fst_path);
	if (st)
		goto err_free_paths;
	g->wave_open = true;
	g->wave_rung = g->wave_failed = 0;
	g->wave_fault = false;
	g->wave_from = from_cycle;
	g->wave_to = to_cycle;
	g->wave_last = from_cycle;
	return GM_OK;

err_free_paths:
	free(g->wave_path);
	free(g->wave_fst_path);
	g->wave_path = g->wave_fst_path = NULL;
	return st;
}

/* Run GTKWave's fst2vcd: @fst -> @vcd.  GM_OK or GM_ERR_IO. */
static int fst_to_vcd(const char *fst, const char *vcd)
{
	char *argv[] = { "fst2vcd", "-f", (char *)fst, "-o", (char *)vcd, NULL };
	posix_spawn_file_actions_t fa;
	int status = 0;
	pid_t pid;
	int rc;

	if (posix_spawn_file_actions_init(&fa))
		return GM_ERR_IO;
	posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
	rc = posix_spawnp(&pid, "fst2vcd", &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (rc)
		return GM_ERR_IO;
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status))
		return GM_ERR_IO;
	return GM_OK;
}

#define WAVE_MARKS_MAX 4096u /* kept per waveform; the view shows GM_VIEW_MARKS */

void gm_wave_add_mark(struct gm *g, unsigned prio, const char *fmt, ...)
{
	struct gm_view_mark *m;
	va_list ap;

	if (!g->wave_open || g->cycle < g->wave_from || g->nmarks >= WAVE_MARKS_MAX)
		return;
	if (!g->marks && !(g->marks = calloc(WAVE_MARKS_MAX, sizeof(*g->marks))))
		return;
	m = &g->marks[g->nmarks++];
	m->cycle = g->cycle;
	m->prio = prio;
	va_start(ap, fmt);
	vsnprintf(m->name, sizeof(m->name), fmt, ap);
	va_end(ap);
}

void gm_wave_mark(struct gm *g, enum gm_mark_kind kind, const char *name)
{
	if (g && g->io)
		g = gm_io_core(g);
	if (!g || !name || (unsigned)kind > GM_MARK_FENCE)
		return;
	/* a capture keeps it, so the replay's waves have it too */
	gm_cap_enter(g->cap, g->cycle, false);
	gm_wave_add_mark(g, kind, "%s", name);
	gm_cap_mark(g->cap, g->cycle, kind, name);
}

/* Markers on the cycle the hardware latched them (the edge just clocked):
 * a queue's error on its cp_exec's latch, an MMU fault on the register
 * that counts it - not where the driver's handler later read them. */
void gm_wave_latch(struct gm *g)
{
	struct gm_latch l;

	g->ops->latch(g->be, &l);
	for (unsigned q = 0; q < GM_LATCH_QUEUES; q++) {
		const char *cause = gpu_cause_name(l.q_cause[q]);

		if (!(l.q_err >> q & 1u))
			continue;
		g->wave_failed |= 1u << q;
		gm_wave_add_mark(g, GM_MARK_ERROR, "q%u %s at 0x%llx", q, cause ? cause : "error",
				      (unsigned long long)l.q_addr[q]);
	}
	/* the window's first cycle takes the count: faults before it are not its */
	if (g->cycle == g->wave_from)
		g->wave_faults = l.mmu_fault_count;
	if (l.mmu_fault_count != g->wave_faults) {
		const char *cause = gpu_mmu_fault_name(GPU_MMU_FAULT_STATUS_CAUSE_GET(l.mmu_fault_status));

		g->wave_faults = l.mmu_fault_count;
		g->wave_fault = true;
		gm_wave_add_mark(g, GM_MARK_FAULT, "fault %s VA 0x%llx", cause ? cause : "?",
			      (unsigned long long)l.mmu_fault_va);
	}
}

/* A waveform marks a queue's reset (Q_CTRL.RESET written) on the cycle
 * the register block takes the write: a recovery, after a TDR or an error.
 * Not the resets of the driver's set-up, before the queue's first doorbell
 * (Q_WPTR written) since the waveform opened. */
void gm_wave_reg_write(struct gm *g, uint32_t off, uint32_t val)
{
	uint32_t q = (off - GPU_QREG_BASE) / GPU_QREG_STRIDE;

	if (off < GPU_QREG_BASE || q >= GM_LATCH_QUEUES)
		return;
	if (off == GPU_REG_Q_WPTR(q))
		g->wave_rung |= 1u << q;
	else if (off == GPU_REG_Q_CTRL(q) && (val & GPU_Q_CTRL_RESET(1)) && (g->wave_rung >> q & 1u) &&
		 g->cycle >= g->wave_from) {
		g->wave_failed |= 1u << q;
		gm_wave_add_mark(g, GM_MARK_NOTE, "q%u reset", q);
	}
}

static int wave_watch(struct gm *g, uint64_t addr, const char *name)
{
	if (addr & 7u)
		return GM_ERR_BAD_ARG;
	if (g->nwatch == GM_WAVE_WATCHES)
		return GM_ERR_FULL;
	g->watch[g->nwatch].addr = addr;
	snprintf(g->watch[g->nwatch].name, sizeof(g->watch[0].name), "%s", name);
	g->nwatch++;
	return GM_OK;
}

int gm_wave_watch(struct gm *g, uint64_t addr, const char *name)
{
	int st;

	if (g && g->io)
		return gm_wave_watch(gm_io_core(g), addr, name);
	if (!g || !name)
		return GM_ERR_BAD_ARG;
	gm_cap_enter(g->cap, g->cycle, false);
	st = wave_watch(g, addr, name);
	gm_cap_watch(g->cap, g->cycle, addr, name, st);
	return st;
}

/* The view next to @path (its extension replaced by .gtkw) for the
 * waveform just closed.  GM_OK, GM_ERR_IO, GM_ERR_NO_MEM. */
static int wave_view(struct gm *g, const char *fst)
{
	const char *dot = strrchr(g->wave_path, '.');
	size_t stem = (size_t)(dot - g->wave_path);
	char *gtkw = malloc(stem + sizeof(".gtkw"));
	struct gm_view_run r = { .fst = fst, .from = g->wave_from, .to = g->wave_last,
				 .used = g->wave_used, .marks = g->marks, .nmarks = g->nmarks,
				 .failed_queues = g->wave_failed, .rung_queues = g->wave_rung,
				 .mmu_fault = g->wave_fault };
	int st;

	if (!gtkw)
		return GM_ERR_NO_MEM;
	memcpy(gtkw, g->wave_path, stem);
	strcpy(gtkw + stem, ".gtkw");
	st = r.to > r.from ? gm_view_write(gtkw, &r) : GM_OK;
	free(gtkw);
	return st;
}

#define WAVE_PAST_FAIL 16u /* cycles dumped after an RTL assertion's failure */

/* An RTL assertion failed in the window: clock and dump WAVE_PAST_FAIL more
 * cycles (within the window), so its marker is not on the dump's last
 * timestamp, clipped at the view's edge.  The run is over: the caller read
 * its cycle count.  Not for a TLM platform's GPU, whose port is the
 * platform's, nor while a capture records (a replay stops at the failure). */
static void dump_past_failure(struct gm *g)
{
	uint64_t to = g->wave_to, end = g->fail_cycle + 1 + WAVE_PAST_FAIL;

	if (!g->failed || g->port || g->cap || g->fail_cycle < g->wave_from || g->cycle < g->wave_from)
		return;
	if (end > to)
		end = to;
	g->wave_to = UINT64_MAX; /* gm_tick must not close the waveform */
	while (g->cycle < end)
		gm_tick(g);
	g->wave_to = to;
}

int gm_wave_close(struct gm *g)
{
	int st = GM_OK, vst;

	if (g->io)
		return gm_wave_close(gm_io_core(g));
	if (!g->wave_open)
		return GM_OK;
	dump_past_failure(g);
	g->ops->trace_close(g->be);
	g->wave_open = false;
	/* The .vcd first: the view names the file the user asked for, which
	 * must exist for its absolute path. */
	if (strcmp(g->wave_path, g->wave_fst_path) != 0) {
		st = fst_to_vcd(g->wave_fst_path, g->wave_path);
		unlink(g->wave_fst_path);
	}
	vst = st ? GM_OK : wave_view(g, g->wave_path);
	st = st ? st : vst;
	free(g->marks);
	g->marks = NULL;
	g->nmarks = 0;
	g->wave_used = 0;
	free(g->wave_path);
	free(g->wave_fst_path);
	g->wave_path = g->wave_fst_path = NULL;
	return st;
}

bool gm_wave_is_open(const struct gm *g)
{
	return g->io ? gm_wave_is_open(gm_io_core(g)) : g->wave_open;
}
