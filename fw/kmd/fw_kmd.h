/* SPDX-License-Identifier: MIT */
/*
 * fw_kmd.h - the submission pipeline: the kernel-mode driver's half of
 * WDDM (DxgkDdiRender, DxgkDdiPatch, DxgkDdiSubmitCommand,
 * DxgkDdiBuildPagingBuffer) and the video memory manager / scheduler around
 * them (residency, eviction, monitored fences, timeout detection, Lock).
 *
 * The path of one command buffer:
 *   fw_kmd_render()  validate the user command buffer, copy it into a
 *                    kernel DMA buffer, resolve its allocation handles and
 *                    keep its patch list (fw_render.h);
 *   fw_kmd_submit()  make every referenced allocation resident in VRAM with
 *                    paging buffers on the paging queue (fw_paging.h), patch
 *                    a copy of the DMA buffer and submit it to the render
 *                    queue (fw_sched.h);
 *   fw_kmd_poll()    the scheduler's loop: interrupts, retire, timeout
 *                    detection and recovery (fw_sched.h).
 * Monitored fences are in fw_mfence.h, Lock in fw_lock.h, the objects they
 * share in fw_kmd_types.h.  This header adds the pipeline's lifetime and
 * gathers them all: clients include this header only.
 *
 * Queues: FW_QUEUE_RENDER runs the devices' DMA buffers in physical mode
 * (VMID 0, patched addresses); FW_QUEUE_COPY is the paging queue.
 * Single-threaded; no globals.
 */
#ifndef FW_KMD_H
#define FW_KMD_H

#include "fw_gpuva.h"
#include "fw_kmd_types.h"
#include "fw_lock.h"
#include "fw_mfence.h"
#include "fw_paging.h"
#include "fw_render.h"
#include "fw_sched.h"

/* Defaults: VRAM segment 64 MiB at 16 MiB, 16 MiB system segment, TDR
 * after 200000 cycles, silent. */
void fw_kmd_cfg_default(struct fw_kmd_cfg *cfg);

/*
 * Bring the pipeline up on a device already initialised with fw_dev_init:
 * the adapter, its VRAM and system segments, the DMA buffer slots.
 * GM_OK; GM_ERR_BAD_ARG (NULL, a segment outside the model's memory, no
 * TDR time); GM_ERR_NO_MEM (system memory for slots or the segment).
 */
int fw_kmd_init(struct fw_kmd *k, struct fw_dev *d, const struct fw_kmd_cfg *cfg) GM_MUST_CHECK;

/* Release everything (devices, resources with their locks' aperture ranges
 * unmapped, pending buffers).  NULL is a no-op. */
void fw_kmd_fini(struct fw_kmd *k);

/*
 * Close @dev: wait (up to @budget cycles) for its pending submissions,
 * release its monitored fences and aperture locks, then fw_device_destroy.
 * A removed device has nothing pending.  GM_OK; GM_ERR_BAD_ARG;
 * GM_ERR_TIMEOUT (still pending: nothing released); GM_ERR_HW (an aperture
 * range refused to unmap: the device stays open, its fences kept) and the
 * codes of fw_kmd_poll.  Resources must not be
 * destroyed (fw_res_destroy) while a submission referencing them is
 * pending: fw_kmd_idle first.
 */
int fw_kmd_device_destroy(struct fw_kmd *k, struct fw_device *dev, uint64_t budget) GM_MUST_CHECK;

/* Poll until nothing is pending on the render queue and the paging queue
 * is done: GM_OK, or GM_ERR_TIMEOUT after @budget; the codes of
 * fw_kmd_poll. */
int fw_kmd_idle(struct fw_kmd *k, uint64_t budget) GM_MUST_CHECK;

/* Wait (polling) until monitored fence @id reaches @value, running the
 * render queue, or the paging queue when only page-table updates are left
 * to write it: GM_OK; GM_ERR_TIMEOUT; GM_ERR_BAD_ARG (unknown id, @value
 * never requested); the codes of fw_mfence_read and fw_kmd_poll. */
int fw_mfence_wait(struct fw_kmd *k, uint32_t id, uint64_t value, uint64_t budget) GM_MUST_CHECK;

#endif /* FW_KMD_H */
