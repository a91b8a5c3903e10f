/* SPDX-License-Identifier: MIT */
/*
 * umd_work_gpu.c - the workload's results read back from the model's
 * memory and checked against its oracle (see umd_work.h).
 */
#include <stdlib.h>
#include <string.h>

#include "gm.h"
#include "gpu_tile.h"
#include "umd_work.h"

#define W UMD_WORK_W

int umd_work_read(struct gm *g, struct fw_device *kdev, const struct umd_rt_obj *o, uint32_t *img)
{
	struct fw_alloc *a;
	void *raw;
	int st = fw_res_get_handle_data(kdev, umd_resource_alloc(o->ic, 0), &a);

	if (st)
		return st;
	raw = malloc(a->d.size);
	if (!raw)
		return GM_ERR_NO_MEM;
	st = gm_backdoor_read(g, a->loc.addr, raw, a->d.size);
	if (!st)
		st = gpu_tile_untile(a->d.tile, a->d.bpe_log2, a->d.pitch, raw, a->d.size, W, W, img, W * 4,
				     W * W * 4);
	free(raw);
	return st;
}

int umd_work_check(const struct umd_work *w, struct gm *g, struct fw_device *kdev, uint32_t t)
{
	uint32_t got[W * W], want[W * W];
	int bad = 0;

	if (umd_work_read(g, kdev, w->src, got))
		return -1;
	umd_work_expect_src(want);
	bad += !!memcmp(got, want, sizeof(got));
	for (uint32_t m = 0; m < w->objects; m++) {
		if (umd_work_read(g, kdev, w->dst[t * w->objects + m], got))
			return -1;
		umd_work_expect(w, t, m, want);
		bad += !!memcmp(got, want, sizeof(got));
	}
	return bad;
}
