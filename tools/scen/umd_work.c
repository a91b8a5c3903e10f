/* SPDX-License-Identifier: MIT */
/*
 * umd_work.c - the multi-threaded workload of the user-mode driver (see
 * umd_work.h).
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_tile.h"
#include "umd_work.h"

#define W UMD_WORK_W

struct fw_alloc_desc umd_work_surface(uint32_t m)
{
	static const unsigned modes[] = { GPU_TILE_LINEAR, GPU_TILE_SS64K, GPU_TILE_Y, GPU_TILE_X };
	struct fw_alloc_desc a = { .width = W, .height = W, .bpe_log2 = 2, .tile = modes[m % 4] };
	struct gpu_tile_info ti;

	gpu_tile_info(a.tile, 2, &ti);
	a.pitch = ((W << 2) + ti.tile_w_bytes - 1) & ~(ti.tile_w_bytes - 1);
	if (gpu_tile_surface_bytes(a.tile, 2, a.pitch, W, &a.size))
		a.size = 0; /* refused by CreateResource */
	return a;
}

static uint64_t band_value(uint32_t b)
{
	return 0x0001000100010001ull * (0x1000u + 0x111u * b);
}

static uint64_t state_value(uint32_t t, uint32_t i)
{
	uint32_t v = (t + 1) << 24 | (i + 1) << 16 | 0xa5u;

	return (uint64_t)v << 32 | v;
}

/* The source's painting: bands of 4 rows, then 2-column stripes. */
struct paint {
	uint32_t band, x, y, w, h;
};

static struct paint paint_step(uint32_t i)
{
	if (i < 8)
		return (struct paint){ i, 0, 4 * i, W, 4 };
	return (struct paint){ (i + 3) % 8, 8 * (i - 8), 0, 2, W };
}

#define PAINT_STEPS 12u

/* One generated command of a thread. */
struct gen {
	enum { G_STATE, G_FILL, G_BLT, G_COPY } op;
	uint32_t m, i;               /* destination; state index */
	uint32_t dx, dy, sx, sy, w, h;
};

static uint32_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return (uint32_t)(*s >> 16);
}

static void gen_next(const struct umd_work *w, uint64_t *s, struct gen *g)
{
	uint32_t r = rnd(s) % 8, lim;

	*g = (struct gen){ .m = rnd(s) % w->objects };
	g->op = r == 0 ? G_STATE : r < 4 ? G_FILL : r < 7 ? G_BLT : G_COPY;
	g->i = rnd(s) & 1;
	g->dx = rnd(s) % W, g->dy = rnd(s) % W;
	g->sx = rnd(s) % W, g->sy = rnd(s) % W;
	lim = W - (g->dx > g->sx ? g->dx : g->sx);
	g->w = 1 + rnd(s) % (g->op == G_FILL ? W - g->dx : lim);
	lim = W - (g->dy > g->sy ? g->dy : g->sy);
	g->h = 1 + rnd(s) % (g->op == G_FILL ? W - g->dy : lim);
}

static uint64_t seed_of(const struct umd_work *w, uint32_t t)
{
	return (w->seed + 1) * 0x9e3779b97f4a7c15ull + t * 0x2545f4914f6cdd1dull;
}

int umd_work_setup(struct umd_work *w, struct umd_rt *rt, uint32_t threads, uint32_t objects,
		   uint32_t commands, uint64_t seed)
{
	struct fw_alloc_desc sd = umd_work_surface(0);
	size_t n = (size_t)threads * objects;
	int st;

	memset(w, 0, sizeof(*w));
	*w = (struct umd_work){ .rt = rt, .threads = threads, .objects = objects,
				.commands = commands, .seed = seed };
	w->dst = calloc(n, sizeof(*w->dst));
	w->dst_view = calloc(n, sizeof(*w->dst_view));
	w->state = calloc(threads * 2u, sizeof(*w->state));
	w->list = calloc(threads, sizeof(*w->list));
	w->finish = calloc(threads, sizeof(*w->finish));
	if (!w->dst || !w->dst_view || !w->state || !w->list || !w->finish || threads > rt->ndc)
		return GM_ERR_NO_MEM;
	st = umd_rt_resource(rt, &sd, 1, &w->src);
	if (!st)
		st = umd_rt_view(rt, w->src, 0, &w->src_view);
	for (uint32_t b = 0; !st && b < 8; b++)
		st = umd_rt_fill_state(rt, band_value(b), &w->band[b]);
	for (size_t i = 0; !st && i < n; i++) {
		struct fw_alloc_desc d = umd_work_surface((uint32_t)(i % objects));

		st = umd_rt_resource(rt, &d, 1, &w->dst[i]);
		if (!st)
			st = umd_rt_view(rt, w->dst[i], 0, &w->dst_view[i]);
	}
	for (uint32_t i = 0; !st && i < threads * 2u; i++)
		st = umd_rt_fill_state(rt, state_value(i / 2, i % 2), &w->state[i]);
	for (uint32_t i = 0; !st && i < PAINT_STEPS; i++) {
		struct paint p = paint_step(i);

		umd_set_fill_state(rt->ic, w->band[p.band]->ic);
		umd_fill(rt->ic, w->src_view->ic, p.x, p.y, p.w, p.h);
		st = umd_rt_error(rt, UMD_RT_IC);
	}
	return st;
}

void umd_work_record_one(struct umd_work *w, uint32_t t)
{
	struct umd_rt *rt = w->rt;
	struct umd_ctx *dc = rt->dc[t];
	uint64_t s = seed_of(w, t);
	struct gen g;

	for (uint32_t k = 0; k < w->commands; k++) {
		size_t d = (size_t)t * w->objects;

		gen_next(w, &s, &g);
		d += g.m;
		switch (g.op) {
		case G_STATE:
			umd_set_fill_state(dc, umd_rt_handle(rt, t, w->state[t * 2 + g.i]));
			break;
		case G_FILL:
			umd_fill(dc, umd_rt_handle(rt, t, w->dst_view[d]), g.dx, g.dy, g.w, g.h);
			break;
		case G_BLT:
			umd_blt(dc, umd_rt_handle(rt, t, w->dst_view[d]), g.dx, g.dy,
				umd_rt_handle(rt, t, w->src_view), g.sx, g.sy, g.w, g.h);
			break;
		case G_COPY:
			umd_copy_resource(dc, umd_rt_handle(rt, t, w->dst[d]), umd_rt_handle(rt, t, w->src));
			break;
		}
	}
}

struct thread_arg {
	struct umd_work *w;
	uint32_t t;
};

static void *thread_main(void *p)
{
	struct thread_arg *a = p;

	umd_work_record_one(a->w, a->t);
	a->w->finish[a->t] = umd_finish_command_list(a->w->rt->dc[a->t], &a->w->list[a->t]);
	return NULL;
}

int umd_work_record(struct umd_work *w)
{
	pthread_t tid[UMD_MAX_DC];
	struct thread_arg arg[UMD_MAX_DC];
	uint32_t made = 0;
	int st = GM_OK;

	for (uint32_t t = 0; t < w->threads; t++, made++) {
		arg[t] = (struct thread_arg){ w, t };
		if (pthread_create(&tid[t], NULL, thread_main, &arg[t])) {
			st = GM_ERR_HW;
			break;
		}
	}
	for (uint32_t t = 0; t < made; t++)
		pthread_join(tid[t], NULL);
	return st;
}

static void fill_rect(uint32_t *img, uint32_t x, uint32_t y, uint32_t w, uint32_t h, uint32_t v)
{
	for (uint32_t j = y; j < y + h; j++)
		for (uint32_t i = x; i < x + w; i++)
			img[j * W + i] = v;
}

void umd_work_expect_src(uint32_t *img)
{
	memset(img, 0, W * W * 4);
	for (uint32_t i = 0; i < PAINT_STEPS; i++) {
		struct paint p = paint_step(i);

		fill_rect(img, p.x, p.y, p.w, p.h, (uint32_t)band_value(p.band));
	}
}

void umd_work_expect(const struct umd_work *w, uint32_t t, uint32_t m, uint32_t *img)
{
	uint32_t src[W * W], fill = 0;
	uint64_t s = seed_of(w, t);
	struct gen g;

	umd_work_expect_src(src);
	memset(img, 0, W * W * 4);
	for (uint32_t k = 0; k < w->commands; k++) {
		gen_next(w, &s, &g);
		if (g.op == G_STATE) {
			fill = (uint32_t)state_value(t, g.i);
			continue;
		}
		if (g.m != m)
			continue;
		if (g.op == G_FILL)
			fill_rect(img, g.dx, g.dy, g.w, g.h, fill);
		else if (g.op == G_COPY)
			memcpy(img, src, sizeof(src));
		else
			for (uint32_t j = 0; j < g.h; j++)
				memcpy(&img[(g.dy + j) * W + g.dx], &src[(g.sy + j) * W + g.sx], g.w * 4);
	}
}

/* Destroy @o unless NULL; keeps the first refusal in *st. */
static void drop(struct umd_rt *rt, struct umd_rt_obj *o, int *st)
{
	int s = o ? umd_rt_destroy(rt, o) : GM_OK;

	if (!*st)
		*st = s;
}

int umd_work_teardown(struct umd_work *w)
{
	size_t n = (size_t)w->threads * w->objects;
	int st = GM_OK;

	for (uint32_t t = 0; w->list && t < w->threads; t++)
		umd_list_destroy(w->list[t]);
	for (size_t i = 0; w->dst_view && i < n; i++)
		drop(w->rt, w->dst_view[i], &st);
	for (size_t i = 0; w->dst && i < n; i++)
		drop(w->rt, w->dst[i], &st);
	for (uint32_t i = 0; w->state && i < w->threads * 2u; i++)
		drop(w->rt, w->state[i], &st);
	for (uint32_t b = 0; b < 8; b++)
		drop(w->rt, w->band[b], &st);
	drop(w->rt, w->src_view, &st);
	drop(w->rt, w->src, &st);
	free(w->dst), free(w->dst_view), free(w->state), free(w->list), free(w->finish);
	return st;
}
