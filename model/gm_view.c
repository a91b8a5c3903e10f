/* SPDX-License-Identifier: MIT */
/*
 * gm_view.c - the GTKWave view written next to each waveform (gm_view.h).
 */
#define _DEFAULT_SOURCE /* realpath */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "gm_backend.h"
#include "gm_status.h"
#include "gm_view.h"

#define VIEW_WIDTH 1600u  /* [size] */
#define SIGNALS_WIDTH 340u
#define WAVE_PIXELS 1180u /* what is left for the waves at that size */

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

/* Copy view body @body to @f, its filter lines "^N NAME" pointing into @dir. */
static void put_body(FILE *f, const char *body, const char *dir)
{
	const char *line = body;

	while (*line) {
		const char *end = strchr(line, '\n');
		size_t n = end ? (size_t)(end - line) : strlen(line);
		const char *sp = memchr(line, ' ', n);

		if (line[0] == '^' && sp)
			fprintf(f, "%.*s %s/%.*s\n", (int)(sp - line), line, dir,
				(int)(n - (size_t)(sp + 1 - line)), sp + 1);
		else
			fprintf(f, "%.*s\n", (int)n, line);
		line += n + (end ? 1 : 0);
	}
}

/* The marks to show: the GM_VIEW_MARKS lowest (prio, cycle), in cycle order. */
static size_t pick_marks(const struct gm_view_run *r, const struct gm_view_mark **out)
{
	size_t n = 0;

	for (unsigned prio = 0; prio < 8 && n < GM_VIEW_MARKS; prio++)
		for (size_t i = 0; i < r->nmarks && n < GM_VIEW_MARKS; i++)
			if (r->marks[i].prio == prio)
				out[n++] = &r->marks[i];
	/* insertion sort by cycle: at most 26 */
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && out[j - 1]->cycle > out[j]->cycle; j--) {
			const struct gm_view_mark *t = out[j];

			out[j] = out[j - 1];
			out[j - 1] = t;
		}
	return n;
}

int gm_view_write(const char *gtkw, const struct gm_view_run *r)
{
	static const char *const names[] = { "cp", "ce", "apt", "mmu", "mem" };
	const unsigned need[] = { 0, GM_VIEW_USED_CE, GM_VIEW_USED_APT, GM_VIEW_USED_MMU, 0 };
	const struct gm_view_mark *m[GM_VIEW_MARKS];
	char dir[PATH_MAX], adir[PATH_MAX], afst[PATH_MAX], agtkw[PATH_MAX];
	size_t n = strlen(gtkw), nm;
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
	nm = pick_marks(r, m);
	fprintf(f, "[*] gpusim: the view of %s, cycles %llu to %llu (1 ns a cycle).\n"
		   "[*] Generated at the end of the run from traces/gtkw/ (tools/gtkw_embed.py).\n"
		   "[*] Named markers A-%c: the run's errors, faults and fence writes.\n",
		r->fst, (unsigned long long)r->from, (unsigned long long)r->to,
		nm ? (char)('A' + nm - 1) : 'A');
	if (r->nmarks > nm)
		fprintf(f, "[*] %zu more events than GTKWave's %u named markers: not shown.\n",
			r->nmarks - nm, GM_VIEW_MARKS);
	fprintf(f, "[dumpfile] \"%s\"\n[savefile] \"%s\"\n[timestart] %llu\n[size] %u 1000\n"
		   "[pos] -1 -1\n*%f -1",
		afst, agtkw, (unsigned long long)GM_WAVE_T_LOW(r->from), VIEW_WIDTH,
		zoom_for(GM_WAVE_T_LOW(r->to - r->from)));
	for (size_t i = 0; i < GM_VIEW_MARKS; i++)
		fprintf(f, " %lld", i < nm ? (long long)GM_WAVE_T_HIGH(m[i]->cycle) : -1ll);
	fputc('\n', f);
	for (size_t i = 0; i < nm; i++)
		fprintf(f, "[markername] %c%s\n", (char)('A' + i), m[i]->name);
	fprintf(f, "[sst_expanded] 0\n[signals_width] %u\n", SIGNALS_WIDTH);
	fputs("@800200\n-Cycle\n@24\n"
	      "TOP.gpu_top.u_regs.cycle_q[63:0]\n@1000200\n"
	      "-Cycle\n", f);
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		const struct gm_view_text *v = find(gm_view_views, names[i]);

		if (v && (!need[i] || (r->used & need[i])))
			put_body(f, v->text, adir);
	}
	bad = ferror(f);
	bad |= fclose(f) != 0;
	return bad ? GM_ERR_IO : GM_OK;
}
