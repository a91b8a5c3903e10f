/* SPDX-License-Identifier: MIT */
/*
 * gm_view.c - the GTKWave view written next to each waveform (gm_view.h).
 */
#define _DEFAULT_SOURCE /* realpath */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "gm_backend.h"
#include "gm_status.h"
#include "gm_view.h"

#define VIEW_WIDTH 1600u  /* [size] */
#define SIGNALS_WIDTH 420u /* names and their values at the primary marker */
#define WAVE_PIXELS 1100u /* what is left for the waves at that size */

static const struct gm_view_text *find(const struct gm_view_text *t, const char *name)
{
	for (; t->name; t++)
		if (!strcmp(t->name, name))
			return t;
	return NULL;
}

/* GTKWave 3.3 shows 2^-zoom / 200 time units a pixel: the zoom that puts
 * @ps picoseconds across the wave area. */
static double zoom_for(uint64_t ps)
{
	double per_px = (double)(ps ? ps : 1) / WAVE_PIXELS;

	return -log2(200.0 * per_px);
}

/* Write every filter into @dir (made if missing).  GM_OK or GM_ERR_IO. */
static int write_filters(const char *dir)
{
	char path[PATH_MAX];

	if (mkdir(dir, 0777) && errno != EEXIST)
		return GM_ERR_IO;
	for (const struct gm_view_text *t = gm_view_filters; t->name; t++) {
		FILE *f;
		int bad;

		if (snprintf(path, sizeof(path), "%s/%s", dir, t->name) >= (int)sizeof(path))
			return GM_ERR_IO;
		f = fopen(path, "w");
		if (!f)
			return GM_ERR_IO;
		bad = fputs(t->text, f) < 0;
		bad |= fclose(f) != 0;
		if (bad)
			return GM_ERR_IO;
	}
	return GM_OK;
}

/* GTKWave's trace flags of a group's first and last line (@800200,
 * @1000200) and the bit that shows it collapsed (TR_CLOSED). */
#define GROUP_BEGIN "@800200"
#define GROUP_END "@1000200"
#define GROUP_CLOSED 0x400000ul

/* Whether the view opens group @name (@n bytes) expanded: the cycle, the
 * clock and interrupt, the queues that failed (latched an error or were
 * reset), or when none did those the run rang, and the MMU's walker and
 * faults when it faulted.  The rest start collapsed, a click away. */
static bool group_open(const char *name, size_t n, const struct gm_view_run *r)
{
	uint32_t queues = r->failed_queues ? r->failed_queues : r->rung_queues;
	static const char queue[] = "Queue ";

	if (n == sizeof(queue) && !strncmp(name, queue, sizeof(queue) - 1) && name[n - 1] >= '0' &&
	    name[n - 1] <= '9')
		return queues >> (name[n - 1] - '0') & 1u;
	if (r->mmu_fault && ((n == 6 && !strncmp(name, "Faults", n)) ||
			     (n == 6 && !strncmp(name, "Walker", n))))
		return true;
	return n == 23 && !strncmp(name, "Clock, reset, interrupt", n);
}

/* Copy view body @body to @f, its filter lines "^N NAME" pointing into @dir
 * and each group open or collapsed (group_open). */
static void put_body(FILE *f, const char *body, const char *dir, const struct gm_view_run *r)
{
	const char *line = body;

	while (*line) {
		const char *end = strchr(line, '\n');
		size_t n = end ? (size_t)(end - line) : strlen(line);
		const char *sp = memchr(line, ' ', n);
		const char *next = line + n + (end ? 1 : 0);
		size_t nn = strcspn(next, "\n");
		bool begin = n == strlen(GROUP_BEGIN) && !strncmp(line, GROUP_BEGIN, n);
		bool finish = n == strlen(GROUP_END) && !strncmp(line, GROUP_END, n);

		if ((begin || finish) && next[0] == '-' && !group_open(next + 1, nn - 1, r))
			fprintf(f, "@%lx\n", strtoul(line + 1, NULL, 16) | GROUP_CLOSED);
		else if (line[0] == '^' && sp)
			fprintf(f, "%.*s %s/%.*s\n", (int)(sp - line), line, dir,
				(int)(n - (size_t)(sp + 1 - line)), sp + 1);
		else
			fprintf(f, "%.*s\n", (int)n, line);
		line = next;
	}
}

/* Markers closer on screen than this, at the view's zoom, are drawn on top
 * of each other: they are shown as one.  (Their names, centred over them,
 * may still overlap where markers are dense: zoom in there.) */
#define MARK_GAP_PX 16u

static int by_cycle(const void *a, const void *b)
{
	const struct gm_view_mark *x = *(const struct gm_view_mark *const *)a;
	const struct gm_view_mark *y = *(const struct gm_view_mark *const *)b;

	if (x->cycle != y->cycle)
		return x->cycle < y->cycle ? -1 : 1;
	return x < y ? -1 : x > y; /* as added */
}

/* One marker for the @n marks of @c (in cycle order, each within
 * MARK_GAP_PX of the one before): at the cycle of the first of the most
 * important (an error stays on its own cycle), named by their distinct
 * names joined by " / " (as many as fit) and "(xN)" when that hides some. */
static void merge(const struct gm_view_mark *const *c, size_t n, struct gm_view_mark *out)
{
	size_t rep = 0, named = 1, len;

	for (size_t i = 1; i < n; i++)
		if (c[i]->prio < c[rep]->prio)
			rep = i;
	*out = *c[rep];
	len = strlen(out->name);
	for (size_t i = 0; i < n; i++) {
		size_t m = strlen(c[i]->name);
		bool seen = false;

		for (size_t j = 0; j < i && !seen; j++)
			seen = !strcmp(c[j]->name, c[i]->name);
		if (i == rep || seen || !strcmp(c[i]->name, out->name) ||
		    len + 3 + m + sizeof(" (x4096)") > sizeof(out->name))
			continue;
		snprintf(out->name + len, sizeof(out->name) - len, " / %s", c[i]->name);
		len += 3 + m;
		named++;
	}
	if (n > named)
		snprintf(out->name + len, sizeof(out->name) - len, " (x%zu)", n);
}

/* The marks to show in @out: each run of those of @r less than MARK_GAP_PX
 * apart merged (merge; the markers shown are that far apart at least), then
 * the GM_VIEW_MARKS lowest (prio, cycle), in cycle order.  Their count (and
 * in *@events the merged markers' before that cut), or (size_t)-1 without
 * memory. */
static size_t pick_marks(const struct gm_view_run *r, struct gm_view_mark *out, size_t *events)
{
	const struct gm_view_mark **sorted = malloc((r->nmarks + 1) * sizeof(*sorted));
	struct gm_view_mark *one = calloc(r->nmarks + 1, sizeof(*one));
	uint64_t span = r->to > r->from ? r->to - r->from : 1;
	size_t n = 0, nc = 0;

	if (!sorted || !one) {
		free(sorted);
		free(one);
		return (size_t)-1;
	}
	for (size_t i = 0; i < r->nmarks; i++)
		sorted[i] = &r->marks[i];
	qsort(sorted, r->nmarks, sizeof(*sorted), by_cycle);
	for (size_t i = 0, j; i < r->nmarks; i = j) {
		for (j = i + 1; j < r->nmarks &&
				(sorted[j]->cycle - sorted[j - 1]->cycle) * WAVE_PIXELS < MARK_GAP_PX * span;
		     j++)
			;
		merge(sorted + i, j - i, &one[nc++]);
	}
	*events = nc;
	for (unsigned prio = 0; prio < 8 && n < GM_VIEW_MARKS; prio++)
		for (size_t i = 0; i < nc && n < GM_VIEW_MARKS; i++)
			if (one[i].prio == prio)
				out[n++] = one[i];
	/* insertion sort by cycle: at most 26 */
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && out[j - 1].cycle > out[j].cycle; j--) {
			struct gm_view_mark t = out[j];

			out[j] = out[j - 1];
			out[j - 1] = t;
		}
	free(sorted);
	free(one);
	return n;
}

#define VIEW_EVENTS 256u /* events listed one a line in the view's comments */

/* Every event before merging, as comments "[*] event PS NAME" (PS its
 * marker's time): what a merged marker stands for, and what a check reads. */
static void put_events(FILE *f, const struct gm_view_run *r)
{
	for (size_t i = 0; i < r->nmarks && i < VIEW_EVENTS; i++)
		fprintf(f, "[*] event %llu %s\n", (unsigned long long)GM_WAVE_T_HIGH(r->marks[i].cycle),
			r->marks[i].name);
	if (r->nmarks > VIEW_EVENTS)
		fprintf(f, "[*] %zu more events not listed\n", r->nmarks - VIEW_EVENTS);
}

/* The primary marker (its values show beside the signal names, cycle_q
 * in decimal): on the first of the most important markers shown (an
 * error, else a fault, a note such as a TDR, a fence), else on the
 * window's first cycle. */
static long long primary(const struct gm_view_mark *m, size_t n, uint64_t from)
{
	size_t best = 0;

	for (size_t i = 1; i < n; i++)
		if (m[i].prio < m[best].prio)
			best = i;
	return (long long)GM_WAVE_T_HIGH(n ? m[best].cycle : from);
}

int gm_view_write(const char *gtkw, const struct gm_view_run *r)
{
	static const char *const names[] = { "cp", "ce", "apt", "mmu", "mem" };
	const unsigned need[] = { 0, GM_VIEW_USED_CE, GM_VIEW_USED_APT, GM_VIEW_USED_MMU, 0 };
	struct gm_view_mark m[GM_VIEW_MARKS];
	char dir[PATH_MAX], adir[PATH_MAX], afst[PATH_MAX], agtkw[PATH_MAX];
	size_t n = strlen(gtkw), nm, shown = 0;
	FILE *f;
	int st, bad;

	if (n < 5 || n + sizeof("-filters") >= sizeof(dir) || strcmp(gtkw + n - 5, ".gtkw"))
		return GM_ERR_IO;
	snprintf(dir, sizeof(dir), "%.*s-filters", (int)(n - 5), gtkw);
	st = write_filters(dir);
	if (st)
		return st;
	if (!realpath(dir, adir) || !realpath(r->fst, afst))
		return GM_ERR_IO;
	f = fopen(gtkw, "w");
	if (!f)
		return GM_ERR_IO;
	if (!realpath(gtkw, agtkw))
		snprintf(agtkw, sizeof(agtkw), "%s", gtkw);
	nm = pick_marks(r, m, &shown);
	if (nm == (size_t)-1) {
		fclose(f);
		return GM_ERR_NO_MEM;
	}
	fprintf(f, "[*] gpusim: the view of %s, cycles %llu to %llu (1 ns a cycle).\n"
		   "[*] Generated at the end of the run from traces/gtkw/ (tools/gtkw_embed.py).\n"
		   "[*] Named markers A-%c: the run's errors and faults (on the cycle the\n"
		   "[*] hardware latched them), TDRs, queue resets, recoveries, notes, fence writes.\n",
		r->fst, (unsigned long long)r->from, (unsigned long long)r->to,
		nm ? (char)('A' + nm - 1) : 'A');
	if (r->nmarks > shown)
		fprintf(f, "[*] %zu events less than %u pixels apart merged into %zu markers: A / B, (xN).\n",
			r->nmarks, MARK_GAP_PX, shown);
	if (shown > nm)
		fprintf(f, "[*] %zu more markers than GTKWave's %u named markers: not shown.\n",
			shown - nm, GM_VIEW_MARKS);
	fprintf(f, "[dumpfile] \"%s\"\n[savefile] \"%s\"\n[timestart] %llu\n[size] %u 1000\n"
		   "[pos] -1 -1\n*%f %lld",
		afst, agtkw, (unsigned long long)GM_WAVE_T_LOW(r->from), VIEW_WIDTH,
		zoom_for(GM_WAVE_T_LOW(r->to - r->from)), primary(m, nm, r->from));
	for (size_t i = 0; i < GM_VIEW_MARKS; i++)
		fprintf(f, " %lld", i < nm ? (long long)GM_WAVE_T_HIGH(m[i].cycle) : -1ll);
	fputc('\n', f);
	for (size_t i = 0; i < nm; i++)
		fprintf(f, "[markername] %c%s\n", (char)('A' + i), m[i].name);
	put_events(f, r);
	fprintf(f, "[sst_expanded] 0\n[signals_width] %u\n", SIGNALS_WIDTH);
	fputs("@800200\n-Cycle\n@24\n"
	      "TOP.gpu_top.u_regs.cycle_q[63:0]\n@1000200\n"
	      "-Cycle\n", f);
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		const struct gm_view_text *v = find(gm_view_views, names[i]);

		if (v && (!need[i] || (r->used & need[i])))
			put_body(f, v->text, adir, r);
	}
	bad = ferror(f);
	bad |= fclose(f) != 0;
	return bad ? GM_ERR_IO : GM_OK;
}
