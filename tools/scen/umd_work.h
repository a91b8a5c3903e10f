/* SPDX-License-Identifier: MIT */
/*
 * umd_work.h - a multi-threaded workload of the user-mode driver, shared by
 * its unit test (record only, also under ThreadSanitizer), its RTL test and
 * the `gpusim run deferred` scenario.
 *
 * The immediate context makes a 32x32 source surface (4-byte elements,
 * linear) painted by its own FILLs in bands and stripes, and for each of
 * T threads M destination surfaces (linear, SS64K, Tile-Y, Tile-X in turn)
 * with a view each, and two fill states per thread.  Thread t records K
 * commands on deferred context t - FILL, BLT from the source, CopyResource
 * from the source, fill-state changes - opening every handle on first use,
 * and finishes its list.  umd_work_expect is the oracle: the linear image
 * a destination must hold after the lists ran, from the same generator.
 */
#ifndef UMD_WORK_H
#define UMD_WORK_H

#include "umd_rt.h"

#define UMD_WORK_W 32u  /* surface width and height, elements */

struct umd_work {
	struct umd_rt *rt;
	uint32_t threads, objects, commands;
	uint64_t seed;
	struct umd_rt_obj *src, *src_view;
	struct umd_rt_obj *band[8];   /* the source's fill states */
	struct umd_rt_obj **dst, **dst_view, **state; /* [t * objects + m], state [t * 2 + i] */
	struct umd_list **list;       /* per thread, after umd_work_record */
	int *finish;                  /* per thread: FinishCommandList's status */
};

/* The surface of destination @m (mode by @m). */
struct fw_alloc_desc umd_work_surface(uint32_t m);

/* Objects on the immediate context, the source painted (recorded on the
 * immediate context, not flushed).  GM_OK or the first failing code. */
int umd_work_setup(struct umd_work *w, struct umd_rt *rt, uint32_t threads, uint32_t objects,
		   uint32_t commands, uint64_t seed);

/* Record on w->threads POSIX threads at once (one deferred context each).
 * GM_OK, or GM_ERR_HW when a thread could not be made. */
int umd_work_record(struct umd_work *w);

/* Record thread @t's commands on the caller's thread (no finish). */
void umd_work_record_one(struct umd_work *w, uint32_t t);

/* The image (UMD_WORK_W^2 values, row-major) destination (@t, @m) holds
 * once its thread's list ran; @src the source's image (umd_work_expect_src). */
void umd_work_expect(const struct umd_work *w, uint32_t t, uint32_t m, uint32_t *img);
void umd_work_expect_src(uint32_t *img);

/*
 * umd_work_gpu.c (links the model): read resource @o back from memory
 * (wherever its allocation lives on @kdev) and untile it into @img
 * (UMD_WORK_W^2 values).  GM_OK or the first failing step's code.
 */
struct gm;
int umd_work_read(struct gm *g, struct fw_device *kdev, const struct umd_rt_obj *o, uint32_t *img)
	GM_MUST_CHECK;

/* Destinations of thread @t that differ from the oracle (and the source,
 * counted too when it differs); -1 when one could not be read. */
int umd_work_check(const struct umd_work *w, struct gm *g, struct fw_device *kdev, uint32_t t);

/* Destroy the lists and every object.  GM_OK or the first refusal. */
int umd_work_teardown(struct umd_work *w);

#endif /* UMD_WORK_H */
