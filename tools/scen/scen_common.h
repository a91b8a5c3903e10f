/* SPDX-License-Identifier: MIT */
/*
 * scen_common.h - what the `gpusim run` scenarios share: a model with its
 * device layer and pipeline, the story log (say, check), surfaces and
 * command buffers.  Clients of the library, not part of it.
 */
#ifndef SCEN_COMMON_H
#define SCEN_COMMON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "dma_buf.h"
#include "fw_kmd.h"
#include "fw_umd.h"
#include "scen_pipe.h"

#define WAIT_BUDGET 20000000ull /* cycles any one wait may take */

#define SCEN_BUFS 32u

struct scen {
	const struct scen_pipe_opts *o;
	struct gm *g;
	struct fw_dev d;
	struct fw_kmd *k;
	struct fw_umd *u;
	struct fw_dmabuf *buf;
	FILE *out;
	uint32_t rng;
	unsigned checks, failures;
	void *bufs[SCEN_BUFS];   /* the scenario's buffers (scen_buf), freed by scen_close */
	unsigned nbufs;
};

/* A line of the story, stamped with the cycle (nothing when quiet). */
void scen_say(struct scen *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Count a check and print it with ok/FAILED; returns @ok. */
bool scen_check(struct scen *s, bool ok, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* The scenario's xorshift generator (seeded from the options). */
uint32_t scen_rnd(struct scen *s);

/* gm_wave_open(@g, @wave, @from, @to) for --wave: when the file cannot be
 * written, a line on stderr naming @wave and why (its folder does not
 * exist, is not a folder, is not writable; @wave is a folder); gpusim makes
 * no folder.  The
 * status gm_wave_open returned. */
int scen_wave_open(struct gm *g, const char *wave, uint64_t from, uint64_t to) GM_MUST_CHECK;

/* Make the model, device layer and pipeline: a VRAM segment of @vram_seg
 * bytes and @pt_bytes above it for GPU-VA page tables (0: none).  GM_OK or
 * the first failing step's code (scen_close cleans up either way). */
int scen_open(struct scen *s, const struct scen_pipe_opts *o, uint64_t vram_seg, uint64_t pt_bytes)
	GM_MUST_CHECK;

/* Whether an RTL assertion failed in @g (gm_model_error): then say which,
 * its cycle and the --wave options of the window before it, on @out. */
bool scen_model_error(const struct gm *g, FILE *out);

/* Tear down what scen_open made and fill *r; the waveform's close status. */
int scen_close(struct scen *s, struct scen_pipe_result *r) GM_MUST_CHECK;

/* A w x h surface of 2^bpe_log2-byte elements in @mode, pitch the row
 * rounded up to the tile width; and the dma_surf of its layout. */
struct fw_alloc_desc scen_surface(unsigned mode, unsigned bpe_log2, uint32_t w, uint32_t h);
struct dma_surf scen_surf_of(const struct fw_alloc_desc *a);

/* Render and submit the command buffer in s->u on @dev, the last DMA buffer
 * signalling @fence = @value (fence 0: none). */
int scen_render_submit(struct scen *s, struct fw_device *dev, uint32_t fence, uint64_t value)
	GM_MUST_CHECK;

/* The allocation @h names on @dev in *a and, unless @buf is NULL, its
 * bytes wherever they live now. */
int scen_alloc_read(struct scen *s, struct fw_device *dev, uint32_t h, void *buf,
		    const struct fw_alloc **a) GM_MUST_CHECK;

/* The handle of surface @i of @r, 0 when there is none. */
uint32_t scen_handle(const struct fw_resource *r, size_t i);

/* The scenarios' images: IMG_W x IMG_H 32-bit elements. */
#define IMG_W 128u
#define IMG_H 128u

/* @bytes of zeroed host memory that lives until scen_close (so a scenario
 * that stops early leaks nothing); NULL: no memory, or SCEN_BUFS already. */
void *scen_buf(struct scen *s, size_t bytes);

/* @bytes (a multiple of 4) of the scenario's random words, a scen_buf;
 * NULL: no memory. */
uint8_t *scen_image_new(struct scen *s, size_t bytes);

/* Lock (pfnLockCb) @h on @dev with @flags: the status; *h (Discard may
 * rename) and *pd (pData) updated on success.  Unlock: its status. */
int scen_lock_cb(struct scen *s, struct fw_device *dev, uint32_t *h, uint32_t flags, uint64_t *pd)
	GM_MUST_CHECK;
int scen_unlock_cb(struct scen *s, struct fw_device *dev, uint32_t h) GM_MUST_CHECK;

/* Lock and Unlock, path by path (scen_lock.c). */
int scen_lock(struct scen *s);

/* The GPU-VA scenarios (scen_gpuva.c) and their page-table pool. */
#define SCEN_PT_BYTES (15ull << 20)
int scen_vaupdate(struct scen *s);
int scen_tiled(struct scen *s);

#define TRY(x)                                                                                   \
	do {                                                                                     \
		int st_ = (x);                                                                   \
		if (st_) {                                                                       \
			scen_say(s, "%s failed: %s\n", #x, gm_status_name(st_));                      \
			return st_;                                                              \
		}                                                                                \
	} while (0)

#endif /* SCEN_COMMON_H */
