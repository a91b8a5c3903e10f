/* SPDX-License-Identifier: MIT */
/*
 * scen_deferred.c - `gpusim run deferred`: D3D11 deferred contexts
 * (d3d10umddi.h: pfnCalcDeferredContextHandleSize, pfnCreateDeferredContext)
 * on a runtime device with an immediate context and two deferred contexts;
 * the handle-size table asked twice; a source surface, destinations in four
 * layouts with views and fill states made on the immediate context; two POSIX threads record
 * a command list each at once (handles opened on first use); the immediate
 * context executes both through the pipeline and every surface is checked;
 * then out of memory on one deferred context, which finishes with
 * E_OUTOFMEMORY while the other's list runs.
 */
#include <inttypes.h>

#include "scen_deferred.h"
#include "umd_work.h"

#define THREADS 2u
#define OBJECTS 4u
#define COMMANDS 64u

static const char *const ht_name[UMD_HT_COUNT] = { "?", "resource", "view", "fill state" };

static void say_sizes(struct scen *s, const struct umd_rt *rt)
{
	scen_say(s, "CheckDeferredContextHandleSizes: %u entries:", rt->nsizes);
	for (uint32_t i = 0; s->out && i < rt->nsizes; i++)
		fprintf(s->out, " %s %u B%s", ht_name[rt->sizes[i].type], rt->sizes[i].size,
			i + 1 < rt->nsizes ? "," : "\n");
}

/* Execute thread @t's list, wait, check its surfaces. */
static int run_list(struct scen *s, struct umd_work *w, struct fw_device *kdev, uint32_t t)
{
	int bad;

	scen_say(s, "ExecuteCommandList: deferred context %u's list of %u commands\n", t,
		 umd_list_commands(w->list[t]));
	TRY(umd_execute_command_list(w->rt->ic, w->list[t]));
	TRY(umd_wait_idle(w->rt->ic, WAIT_BUDGET));
	bad = umd_work_check(w, s->g, kdev, t);
	scen_check(s, bad == 0, "the source and thread %u's %u surfaces equal the oracle", t,
		   w->objects);
	return GM_OK;
}

static int deferred_run(struct scen *s, struct umd_rt *rt, struct fw_device *kdev)
{
	struct umd_work w;
	int st;

	say_sizes(s, rt);
	st = umd_work_setup(&w, rt, THREADS, OBJECTS, COMMANDS, s->o->seed);
	if (!st) {
		scen_say(s, "immediate context: a source, %u destinations (linear, SS64K, Tile-Y, Tile-X)"
			 " with views, %u fill states; handle sizes checked against the table (%u off)\n",
			 THREADS * OBJECTS, THREADS * 2 + 8, rt->bad_sizes);
		scen_say(s, "record: %u threads, %u commands each, handles opened on first use\n",
			 THREADS, COMMANDS);
		st = umd_work_record(&w);
	}
	for (uint32_t t = 0; !st && t < THREADS; t++)
		scen_check(s, w.finish[t] == GM_OK, "FinishCommandList on deferred context %u: %s", t,
			   gm_status_name(w.finish[t]));
	for (uint32_t t = 0; !st && t < THREADS; t++)
		st = run_list(s, &w, kdev, t);
	for (uint32_t t = 0; !st && t < THREADS; t++) {
		umd_list_destroy(w.list[t]);
		w.list[t] = NULL;
	}
	if (!st) {
		scen_say(s, "out of memory: deferred context 1's 3rd allocation fails\n");
		umd_ctx_fail_alloc(rt->dc[1], 3);
		st = umd_work_record(&w);
	}
	if (!st) {
		scen_check(s, w.finish[1] == GM_ERR_NO_MEM && !w.list[1] &&
				      umd_rt_error(rt, 1) == GM_ERR_NO_MEM,
			   "deferred context 1: SetError E_OUTOFMEMORY, FinishCommandList E_OUTOFMEMORY,"
			   " no list");
		scen_check(s, w.finish[0] == GM_OK, "deferred context 0 unaffected");
		st = run_list(s, &w, kdev, 0);
	}
	if (!st) {
		struct umd_stats us;

		umd_device_stats(rt->dev, &us);
		scen_say(s, "%" PRIu64 " command buffers submitted\n", us.submits);
	}
	return st ? st : umd_work_teardown(&w);
}

int scen_deferred(struct scen *s)
{
	struct umd_rt_cfg rc = { .ndc = THREADS, .max_objects = 256 };
	struct fw_device *kdev;
	struct umd_rt rt;
	int st;

	TRY(fw_device_create(&s->k->ad, &kdev));
	rc.kdev = kdev;
	TRY(umd_rt_open(&rt, &rc));
	st = umd_device_attach(rt.dev, s->k);
	if (!st)
		st = deferred_run(s, &rt, kdev);
	if (!st)
		st = umd_rt_close(&rt);
	if (st)
		return st;
	return fw_kmd_device_destroy(s->k, kdev, WAIT_BUDGET);
}
