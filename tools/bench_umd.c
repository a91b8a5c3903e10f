/* SPDX-License-Identifier: MIT */
/*
 * bench_umd.c - `gpusim bench`: deferred-context handle creation and
 * recording throughput of the user-mode driver on 1 and 2 threads, with
 * the driver's cache-line padding and without it (what false sharing
 * costs).  Record only: no model, no pipeline.
 *
 * The machine is shared: a reference loop (pure arithmetic, no shared
 * memory) on 1 and 2 threads says how much parallelism the host gave at
 * the time, so a low speed-up can be told from a busy host.
 *
 * Each thread, on its own deferred context, opens every view of OBJECTS
 * resources (the resource first: 2 handles per view), records COMMANDS
 * FILLs and BLTs over them in order, finishes and drops the list, and
 * destroys its handles again, ROUNDS times.  Both threads use the same
 * objects: in the runtime's slabs each context's handles are its own
 * memory; in rows the two contexts' handles of one object are neighbours,
 * one line apart with the driver's padding, in one line without it.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "bench.h"
#include "umd_rt.h"

#define OBJECTS 256u
#define COMMANDS 4096u
#define ROUNDS 1500u
#define TRIES 3u   /* the best of: the machine is shared */

struct bu {
	struct umd_rt rt;
	struct umd_rt_obj *res[OBJECTS], *view[OBJECTS];
	pthread_barrier_t go;
	int bad;
};

struct bu_arg {
	struct bu *b;
	uint32_t t;
	double cpu;              /* the thread's CPU seconds */
};

static double clock_secs(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static double secs(void)
{
	return clock_secs(CLOCK_MONOTONIC);
}

/* The reference: a dependent multiply chain, nothing shared. */
static void *ref_thread(void *p)
{
	volatile uint64_t x = (uintptr_t)p | 1;

	for (uint32_t i = 0; i < 100000000u; i++)
		x = x * 6364136223846793005ull + 1442695040888963407ull;
	return NULL;
}

/* The reference loop's speed-up on 2 threads; 0 when a thread failed. */
static double ref_speedup(void)
{
	pthread_t t[2];
	double t1, t2;

	t1 = secs();
	ref_thread(NULL);
	t1 = secs() - t1;
	t2 = secs();
	if (pthread_create(&t[0], NULL, ref_thread, NULL))
		return 0;
	if (pthread_create(&t[1], NULL, ref_thread, NULL)) {
		pthread_join(t[0], NULL);
		return 0;
	}
	pthread_join(t[0], NULL);
	pthread_join(t[1], NULL);
	t2 = secs() - t2;
	return 2 * t1 / t2;
}

/* One round on deferred context @t: 0, or 1 when the driver refused. */
static int round_one(struct bu *b, uint32_t t)
{
	struct umd_ctx *dc = b->rt.dc[t];
	struct umd_list *l;
	int bad = 0;

	for (uint32_t m = 0; m < OBJECTS; m++)
		bad |= !umd_rt_handle(&b->rt, t, b->view[m]);
	for (uint32_t k = 0; k < COMMANDS; k++) {
		void *v = umd_rt_handle(&b->rt, t, b->view[k % OBJECTS]);

		if (k & 1)
			umd_blt(dc, v, 0, 0, umd_rt_handle(&b->rt, t, b->view[(k + 1) % OBJECTS]), 1, 1, 8, 8);
		else
			umd_fill(dc, v, 0, 0, 16, 16);
	}
	bad |= umd_finish_command_list(dc, &l) != GM_OK || umd_list_commands(l) != COMMANDS;
	umd_list_destroy(l);
	for (uint32_t m = 0; m < OBJECTS; m++)
		bad |= umd_rt_forget(&b->rt, t, b->view[m]) || umd_rt_forget(&b->rt, t, b->res[m]);
	return bad | (umd_rt_error(&b->rt, (int)t) != GM_OK);
}

static void *bu_thread(void *p)
{
	struct bu_arg *a = p;
	int bad = 0;

	pthread_barrier_wait(&a->b->go);
	a->cpu = clock_secs(CLOCK_THREAD_CPUTIME_ID);
	for (uint32_t r = 0; r < ROUNDS; r++)
		bad |= round_one(a->b, a->t);
	a->cpu = clock_secs(CLOCK_THREAD_CPUTIME_ID) - a->cpu;
	if (bad)
		a->b->bad = 1;
	return NULL;
}

/* Seconds for @threads threads to do ROUNDS rounds each, *cpu their CPU
 * seconds together; < 0 on error. */
static double bu_run(struct bu *b, uint32_t threads, double *cpu)
{
	pthread_t tid[2];
	struct bu_arg arg[2];
	double t0;

	if (pthread_barrier_init(&b->go, NULL, threads + 1))
		return -1;
	for (uint32_t t = 0; t < threads; t++) {
		arg[t] = (struct bu_arg){ .b = b, .t = t };
		if (pthread_create(&tid[t], NULL, bu_thread, &arg[t]))
			return -1; /* the barrier never opens: not reached on a sane host */
	}
	t0 = secs();
	pthread_barrier_wait(&b->go);
	*cpu = 0;
	for (uint32_t t = 0; t < threads; t++) {
		pthread_join(tid[t], NULL);
		*cpu += arg[t].cpu;
	}
	t0 = secs() - t0;
	pthread_barrier_destroy(&b->go);
	return b->bad ? -1 : t0;
}

/* Handles + commands per second on 1 and 2 threads (best of TRIES), and
 * CPU seconds per operation on 2 threads over 1 (*cpu_ratio): what the
 * threads cost each other while they did run at once. */
static int bu_case(struct fw_device *kdev, bool unpadded, bool interleaved, double *rate,
		   double *cpu_ratio)
{
	struct umd_rt_cfg rc = { .kdev = kdev, .ndc = 2, .max_objects = 2 * OBJECTS,
				 .unpadded = unpadded, .interleaved = interleaved };
	struct fw_alloc_desc d = { .size = 4096, .width = 32, .height = 32, .pitch = 128,
				   .bpe_log2 = 2, .tile = GPU_TILE_LINEAR };
	struct bu *b = calloc(1, sizeof(*b));
	int bad = !b || umd_rt_open(&b->rt, &rc);

	if (bad) {
		free(b);
		return 1;
	}
	for (uint32_t m = 0; !bad && m < OBJECTS; m++)
		bad = umd_rt_resource(&b->rt, &d, 1, &b->res[m]) ||
		      umd_rt_view(&b->rt, b->res[m], 0, &b->view[m]);
	for (uint32_t n = 1; !bad && n <= 2; n++) {
		double best = 0, cpu_best = 0, cpu;

		for (uint32_t i = 0; !bad && i < TRIES; i++) {
			double s = bu_run(b, n, &cpu);

			bad = s <= 0;
			if (!bad && (!best || s < best))
				best = s, cpu_best = cpu / n;
		}
		rate[n - 1] = bad ? 0 : n * (double)ROUNDS * (3.0 * OBJECTS + COMMANDS) / best;
		cpu_ratio[n - 1] = cpu_best;
	}
	cpu_ratio[0] = cpu_ratio[0] > 0 ? cpu_ratio[1] / cpu_ratio[0] : 0;
	for (uint32_t m = 0; m < OBJECTS; m++)
		bad |= (b->view[m] && umd_rt_destroy(&b->rt, b->view[m])) ||
		       (b->res[m] && umd_rt_destroy(&b->rt, b->res[m]));
	bad |= umd_rt_close(&b->rt) != GM_OK;
	free(b);
	return bad;
}

/* The layouts measured: the runtime's slabs, and rows with and without
 * the driver's padding. */
static const struct bu_layout {
	const char *name;
	bool unpadded, interleaved;
} layouts[] = {
	{ "slabs per context, padded", false, false },
	{ "rows per object, padded", false, true },
	{ "rows per object, unpadded", true, true },
};

int bench_umd(void)
{
	struct fw_adapter ad;
	struct fw_device *kdev;
	double rate[3][2] = { { 0 } }, cpu[3][2] = { { 0 } };
	int bad;

	if (fw_adapter_init(&ad, NULL))
		return 1;
	bad = fw_device_create(&ad, &kdev);
	for (unsigned i = 0; !bad && i < 3; i++)
		bad = bu_case(kdev, layouts[i].unpadded, layouts[i].interleaved, rate[i], cpu[i]);
	fw_adapter_fini(&ad);
	if (bad) {
		printf("bench: deferred contexts failed\n");
		return 1;
	}
	printf("bench: deferred contexts, %u views (2 handles each, created and destroyed) and %u"
	       " recorded commands per round, handles+commands per second\n", OBJECTS, COMMANDS);
	for (unsigned i = 0; i < 3; i++)
		printf("  %-26s 1 thread %10.3g  2 threads %10.3g  speed-up %.2fx, CPU per op 2/1"
		       " threads %.2f\n", layouts[i].name, rate[i][0], rate[i][1],
		       rate[i][1] / rate[i][0], cpu[i][0]);
	printf("ratios: deferred 2/1 threads %.2f (target >= 1.8); rows padded %.2f, unpadded %.2f"
	       " (false sharing: padded/unpadded on 2 threads %.2f); host reference loop 2/1"
	       " threads %.2f\n", rate[0][1] / rate[0][0], rate[1][1] / rate[1][0],
	       rate[2][1] / rate[2][0], rate[1][1] / rate[2][1], ref_speedup());
	return 0;
}
