/* SPDX-License-Identifier: MIT */
/*
 * fw_submit.c - DxgkDdiPatch and DxgkDdiSubmitCommand (see fw_submit.h).
 */
#include <string.h>

#include "dma_buf.h"
#include "fw_submit.h"
#include "gpu_hw.h"

#define WAIT_POLL_CYCLES 16u  /* the WAIT_MEM's poll interval */
#define RING_MAX_DW 250u      /* what fw_submit takes at once */
#define RING_WAIT_SLICE 4096u /* cycles run between tries of a full ring */

int fw_ddi_patch(struct fw_dev *d, const struct fw_dmabuf *buf, uint64_t dma_addr,
		 uint32_t fence_id, uint32_t *scratch, struct dma_patch_stats *ps)
{
	struct dma_patch_args pa;

	memcpy(scratch, buf->dw, buf->ndw * 4ull);
	dma_patch_args_init(&pa, scratch, buf->ndw * 4u, dma_addr, buf->alloc, buf->nalloc, buf->loc,
			    buf->nloc);
	pa.fence_id = fence_id;
	pa.flags = buf->flags;
	pa.stats = ps;
	if (dma_patch(&pa))
		return GM_ERR_BAD_ARG;
	return gm_backdoor_write(d->gm, dma_addr, scratch, pa.dma_size);
}

int fw_ddi_submit_command(struct fw_dev *d, const struct fw_ddi_submit *s, uint64_t *fence)
{
	uint32_t ring[RING_MAX_DW];
	struct dma_buf rb;
	int st = GM_OK;

	dma_buf_init(&rb, ring, RING_MAX_DW);
	if (!s->null && s->wait_fence)
		st = dma_emit_wait_mem(&rb, d->q[FW_QUEUE_COPY].fence_addr, s->wait_fence, UINT64_MAX,
				       GPU_FUNC_GE, true, WAIT_POLL_CYCLES);
	if (!st && !s->null)
		st = dma_emit_indirect_buffer_ctx(&rb, s->dma_addr, s->ndw, s->vmid, false);
	for (uint32_t i = 0; !st && i < s->nsig; i++)
		st = dma_emit_release_fence(&rb, s->sig_addr[i], s->sig_value[i], true, false);
	if (st)
		return st;
	for (uint64_t waited = 0;; waited += RING_WAIT_SLICE) {
		st = fw_submit(d, FW_QUEUE_RENDER, ring, (uint32_t)rb.len, fence);
		if (st != GM_ERR_FULL || waited > s->ring_wait_cycles)
			break;
		if (gm_step(d->gm, RING_WAIT_SLICE))
			return GM_ERR_HW; /* the model stopped (gm_model_error) */
	}
	return st == GM_ERR_FULL ? GM_ERR_TIMEOUT : st;
}
