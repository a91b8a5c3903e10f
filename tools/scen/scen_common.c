/* SPDX-License-Identifier: MIT */
/*
 * scen_common.c - what the `gpusim run` scenarios share (see scen_common.h).
 */
#define _POSIX_C_SOURCE 200809L /* access, stat */

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fw_umd.h"
#include "gpu_hw.h"
#include "gpu_tile.h"
#include "scen_common.h"

/* The progress hook at a line of the story: only where the line already
 * read the cycle count, so a run with progress reads the model no more. */
static void progress(struct scen *s)
{
	if (s->o->progress)
		s->o->progress(s->o->progress_ctx, gm_cycles(s->g), s->checks, 0);
}

/* The progress hook inside a long wait, every SCEN_PROGRESS_CYCLES cycles
 * the model runs (gm_set_tick_hook): it only reads what it is handed. */
#define SCEN_PROGRESS_CYCLES 65536u
static void tick_progress(void *ctx, uint64_t cycle)
{
	struct scen *s = ctx;

	s->o->progress(s->o->progress_ctx, cycle, s->checks, 0);
}

void scen_say(struct scen *s, const char *fmt, ...)
{
	va_list ap;

	if (!s->out)
		return;
	va_start(ap, fmt);
	fprintf(s->out, "[%9" PRIu64 "] ", gm_cycles(s->g));
	vfprintf(s->out, fmt, ap);
	va_end(ap);
	progress(s);
}

bool scen_check(struct scen *s, bool ok, const char *fmt, ...)
{
	va_list ap;

	s->checks++;
	s->failures += !ok;
	if (s->out) {
		va_start(ap, fmt);
		fprintf(s->out, "[%9" PRIu64 "] check: ", gm_cycles(s->g));
		vfprintf(s->out, fmt, ap);
		fprintf(s->out, ": %s\n", ok ? "ok" : "FAILED");
		va_end(ap);
		progress(s);
	}
	return ok;
}

uint32_t scen_rnd(struct scen *s)
{
	s->rng ^= s->rng << 13;
	s->rng ^= s->rng >> 17;
	s->rng ^= s->rng << 5;
	return s->rng;
}

/* Why the file @wave cannot be made, or NULL: its folder (the part before
 * the last '/', else the current folder) must exist and be writable. */
static const char *wave_folder_problem(const char *wave, char *dir, size_t n)
{
	const char *slash = strrchr(wave, '/');
	struct stat sb;

	if (!slash)
		snprintf(dir, n, ".");
	else if (slash == wave)
		snprintf(dir, n, "/");
	else
		snprintf(dir, n, "%.*s", (int)(slash - wave), wave);
	if (stat(dir, &sb))
		return errno == ENOENT ? "does not exist (gpusim makes no folder: mkdir -p it first)"
				       : strerror(errno);
	if (!S_ISDIR(sb.st_mode))
		return "is not a folder";
	if (access(dir, W_OK))
		return "is not writable";
	return NULL;
}

int scen_wave_open(struct gm *g, const char *wave, uint64_t from, uint64_t to)
{
	char dir[4096];
	const char *why = wave_folder_problem(wave, dir, sizeof(dir));
	struct stat sb;
	int st;

	if (why) {
		fprintf(stderr, "gpusim: --wave %s: the folder %s %s\n", wave, dir, why);
		return GM_ERR_IO;
	}
	if (!stat(wave, &sb) && S_ISDIR(sb.st_mode)) {
		fprintf(stderr, "gpusim: --wave %s: is a folder, not a file\n", wave);
		return GM_ERR_IO;
	}
	st = gm_wave_open(g, wave, from, to);
	if (st == GM_ERR_IO)
		fprintf(stderr, "gpusim: --wave %s: cannot write it in %s\n", wave, dir); /* /proc */
	return st;
}

/* A model with 256 MiB of VRAM and of system memory, its device layer and
 * the pipeline with a VRAM segment of @vram_seg bytes (and @pt_bytes above
 * it for GPU-VA page tables). */
int scen_open(struct scen *s, const struct scen_pipe_opts *o, uint64_t vram_seg, uint64_t pt_bytes)
{
	struct gm_config gc;
	struct fw_dev_cfg dc;
	struct fw_kmd_cfg kc;
	FILE *log = o->quiet ? NULL : o->out;
	int st;

	memset(s, 0, sizeof(*s));
	s->o = o;
	s->out = o->out;
	s->rng = o->seed ? o->seed : 1;
	gm_config_default(&gc);
	gc.backend = o->backend;
	gc.waves = o->wave != NULL;
	st = gm_create(&gc, &s->g);
	if (st)
		return st;
	if (o->progress)
		gm_set_tick_hook(s->g, tick_progress, s, SCEN_PROGRESS_CYCLES);
	if (o->capture && (st = gm_capture_open(s->g, o->capture)))
		return st;
	if (o->inject_at && (st = gm_inject_mem_rsp(s->g, GM_INJECT_ID_NOBODY, o->inject_at)))
		return st;
	if (o->wave && (st = scen_wave_open(s->g, o->wave, o->wave_from, o->wave_to)))
		return st;
	fw_dev_cfg_default(&dc);
	dc.log = log;
	st = fw_dev_init(&s->d, s->g, &dc);
	if (st)
		return st;
	s->k = calloc(1, sizeof(*s->k));
	s->u = calloc(1, sizeof(*s->u));
	s->buf = calloc(1, sizeof(*s->buf));
	if (!s->k || !s->u || !s->buf)
		return GM_ERR_NO_MEM;
	fw_kmd_cfg_default(&kc);
	kc.vram_bytes = vram_seg;
	kc.pt_bytes = pt_bytes;
	kc.sys_bytes = 32ull << 20;
	kc.log = log;
	return fw_kmd_init(s->k, &s->d, &kc);
}

bool scen_model_error(const struct gm *g, FILE *out)
{
	const char *what;
	uint64_t at;

	if (!gm_model_error(g, &what, &at))
		return false;
	fprintf(out ? out : stderr, "model error: RTL assertion %s failed at cycle %" PRIu64
		"; the cycles before it: add --wave FILE.fst --wave-from %" PRIu64
		" --wave-to %" PRIu64 "\n", what, at, at > 2000 ? at - 2000 : 0, at + 1);
	return true;
}

/* Tear down what scen_open made; the waveform's close status. */
int scen_close(struct scen *s, struct scen_pipe_result *r)
{
	int st = GM_OK;

	if (s->k && s->k->d) {
		r->st = s->k->st;
		fw_kmd_fini(s->k);
	}
	if (s->g) {
		r->cycles = gm_cycles(s->g);
		if (gm_wave_is_open(s->g))
			st = gm_wave_close(s->g);
		if (gm_capture_is_open(s->g)) {
			int cst = gm_capture_close(s->g);

			st = st ? st : cst;
		}
		if (scen_model_error(s->g, s->out)) {
			s->failures++;
			st = st ? st : GM_ERR_HW;
		}
		gm_destroy(s->g);
	}
	free(s->k);
	free(s->u);
	free(s->buf);
	while (s->nbufs)
		free(s->bufs[--s->nbufs]);
	r->checks = s->checks;
	r->failures = s->failures;
	return st;
}

/* A w x h surface of 2^bpe_log2-byte elements in @mode, pitch the row
 * rounded up to the tile width. */
struct fw_alloc_desc scen_surface(unsigned mode, unsigned bpe_log2, uint32_t w, uint32_t h)
{
	struct fw_alloc_desc a = { .width = w, .height = h, .bpe_log2 = bpe_log2, .tile = mode };
	struct gpu_tile_info ti;

	gpu_tile_info(mode, bpe_log2, &ti);
	a.pitch = ((w << bpe_log2) + ti.tile_w_bytes - 1) & ~(ti.tile_w_bytes - 1);
	gpu_tile_surface_bytes(mode, bpe_log2, a.pitch, h, &a.size);
	return a;
}

struct dma_surf scen_surf_of(const struct fw_alloc_desc *a)
{
	return (struct dma_surf){ .pitch = a->pitch, .mode = (uint8_t)a->tile,
				  .bpe_log2 = (uint8_t)a->bpe_log2 };
}

/* Render and submit the command buffer in s->u; the last DMA buffer
 * signals @fence = @value (fence 0: none). */
int scen_render_submit(struct scen *s, struct fw_device *dev, uint32_t fence, uint64_t value)
{
	struct fw_signal sig = { fence, value };
	struct fw_cmdbuf cb;

	fw_umd_cmdbuf(s->u, &cb);
	return fw_kmd_submit_cmdbuf(s->k, dev, &cb, s->buf, fence ? &sig : NULL);
}

/* The allocation @h names on @dev in *a and, unless @buf is NULL, its bytes
 * wherever they live now.  GM_OK, or the first code of the two steps. */
int scen_alloc_read(struct scen *s, struct fw_device *dev, uint32_t h, void *buf,
		      const struct fw_alloc **a)
{
	struct fw_alloc *p;
	int st = fw_res_get_handle_data(dev, h, &p);

	if (!st && buf)
		st = gm_backdoor_read(s->g, p->loc.addr, buf, p->d.size);
	if (!st)
		*a = p;
	return st;
}

/* The handle of surface @i of @r; 0 (refused by every call it reaches) when
 * there is none. */
uint32_t scen_handle(const struct fw_resource *r, size_t i)
{
	uint32_t h = 0;

	return fw_res_surface_handle(r, i, &h) ? 0 : h;
}

void *scen_buf(struct scen *s, size_t bytes)
{
	void *p = s->nbufs < SCEN_BUFS ? calloc(1, bytes) : NULL;

	if (p)
		s->bufs[s->nbufs++] = p;
	return p;
}

/* @bytes (a multiple of 4) of the scenario's random words; NULL: no memory. */
uint8_t *scen_image_new(struct scen *s, size_t bytes)
{
	uint8_t *img = scen_buf(s, bytes);

	for (size_t i = 0; img && i < bytes; i += 4) {
		uint32_t v = scen_rnd(s);

		memcpy(img + i, &v, 4);
	}
	return img;
}

/* Lock @h on @dev with @flags: the status, *h and *pd updated on success. */
int scen_lock_cb(struct scen *s, struct fw_device *dev, uint32_t *h, uint32_t flags, uint64_t *pd)
{
	struct fw_lock_args a = { .hAllocation = *h, .Flags = flags };
	int st = fw_kmd_lock_cb(s->k, dev, &a);

	if (!st) {
		*h = a.hAllocation;
		*pd = a.pData;
	}
	return st;
}

int scen_unlock_cb(struct scen *s, struct fw_device *dev, uint32_t h)
{
	return fw_kmd_unlock_cb(s->k, dev, &(struct fw_unlock_args){ 1, &h });
}
