/* SPDX-License-Identifier: MIT */
/*
 * fw_kmd.h - the submission pipeline: the kernel-mode driver's half of
 * WDDM (DxgkDdiRender, DxgkDdiPatch, DxgkDdiSubmitCommand,
 * DxgkDdiBuildPagingBuffer) and the video memory manager / scheduler around
 * them (residency, eviction, monitored fences, timeout detection, Lock).
 *
 * The driver is split by role, one folder per layer: fw/umd (the user-mode
 * driver), fw/dxgkrnl (this pipeline: the roles' bring-up, links and the
 * CPU waits that span them), fw/vidmm (the video memory manager: segments
 * and allocations, residency and paging, Lock, GPU-VA), fw/vidsch (the
 * scheduler: submission, retire, TDR; monitored fences), fw/kmd (the
 * miniport: device bring-up, interrupts and queue reset, Render, Patch,
 * SubmitCommand, BuildPagingBuffer).  Each role keeps its state in its own struct,
 * defined in its header (struct fw_sched_state, fw_paging_state,
 * fw_mfence_state, fw_gpuva_state, fw_lock_state); struct fw_kmd
 * (fw_kmd_types.h) links them.  The roles call each other one way
 * (tb/check_roles.py): where a lower role needs a higher one, it calls
 * through a hook table the pipeline fills in at bring-up.
 *
 * The path of one command buffer:
 *   fw_kmd_render()  validate the user command buffer, copy it into a
 *                    kernel DMA buffer, resolve its allocation handles and
 *                    keep its patch list (fw_render.h);
 *   fw_kmd_submit()  take it through the roles' hooks in a fixed order
 *                    (struct fw_sched_ops, fw_sched.h):
 *                      check     Lock, GPU-VA, paging may refuse it;
 *                      prepare   Lock moves raw-locked allocations out of VRAM;
 *                      resident  paging makes its allocations resident with
 *                                paging buffers on the paging queue;
 *                      patch     paging writes the allocations' addresses,
 *                                the paging fence to wait for; GPU-VA the VMID;
 *                      (the scheduler patches a copy and puts it in the ring)
 *                      submitted Lock, GPU-VA, paging note it was submitted;
 *   fw_kmd_poll()    the scheduler's loop: interrupts, retire (monitored
 *                    fences), timeout detection and recovery (the removed
 *                    hook tells the roles of a removed device) (fw_sched.h).
 * Residency in turn asks Lock and GPU-VA what must not move and tells
 * GPU-VA what moved (struct fw_paging_ops, fw_paging.h).  This header adds
 * the pipeline's lifetime and the CPU waits that span roles and gathers
 * them all: clients include this header only.
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
 * codes of fw_kmd_poll.  Destroying a resource (fw_res_destroy) whose
 * allocation a pending submission references waits for that submission
 * (fw_lock.h).
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
