/* SPDX-License-Identifier: MIT */
/*
 * fw_render.h - Render (the DxgkDdiRender role): a user command buffer in,
 * a kernel DMA buffer with its allocation and patch-location lists out.
 *
 * Render runs on the host only: it validates the user's packets as a user
 * queue would run them (dma_validate), copies whole packets into the DMA
 * buffer, resolves the allocation handles on the device (GetHandleData) and
 * rebases the patch entries.  It never touches the GPU, residency or the
 * scheduler; fw_sched.c submits what it produces.
 */
#ifndef FW_RENDER_H
#define FW_RENDER_H

#include "fw_kmd_types.h"

/*
 * Render: validate @cb, copy it from dword *@multipass on into @out, resolve
 * its handles and keep its patch entries.  GM_OK (all of it copied;
 * *multipass = cb->ndw); GM_ERR_FULL (the DMA buffer filled at a packet
 * boundary: submit @out, call again with the updated *multipass);
 * GM_ERR_BAD_ARG (NULL, a command buffer dma_validate refuses - privileged
 * packets, bad counts, IBs -, a handle that does not resolve on @dev, a
 * patch entry outside the buffer or naming no allocation, too many
 * allocations, patch flags fw_render_flags_ok refuses); GM_ERR_DEVICE_REMOVED.  On error nothing but @out changed
 * and *multipass is untouched.
 */
int fw_kmd_render(struct fw_kmd *k, struct fw_device *dev, const struct fw_cmdbuf *cb,
		  uint32_t *multipass, struct fw_dmabuf *out) GM_MUST_CHECK;

/* ---- for the pipeline's other files (fw_paging.c, fw_sched.c, fw_lock.c) */

/* The allocation @handle names on @dev, a device of @k: GM_OK and *a;
 * GM_ERR_BAD_ARG (NULL, another pipeline's device, GetHandleData refuses);
 * GM_ERR_DEVICE_REMOVED.  *a written only on GM_OK. */
int fw_render_resolve(struct fw_kmd *k, struct fw_device *dev, uint32_t handle,
		      struct fw_alloc **a) GM_MUST_CHECK;

/* Whether @flags (DXGK_PATCHFLAGS.Value) may come with a render submission:
 * known bits, not Paging (paging buffers are the driver's own). */
bool fw_render_flags_ok(uint32_t flags);

/* Check @buf's patch list against its allocations, every entry, by patching
 * @dw (FW_KMD_DMA_DW dwords: @buf's own or scratch space) with zero
 * addresses.  GM_OK; GM_ERR_BAD_ARG (an entry the patcher refuses). */
int fw_render_check_locs(const struct fw_dmabuf *buf, uint32_t *dw) GM_MUST_CHECK;

#endif /* FW_RENDER_H */
