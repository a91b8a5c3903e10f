/* SPDX-License-Identifier: MIT */
/*
 * fw_mfence.h - monitored fences: 64-bit values in system memory that the
 * GPU writes (a RELEASE_FENCE a submission carries) and the CPU reads.
 *
 * Each fence belongs to one device.  A submission's signal must go above
 * every value already requested for its fence; the CPU's view (seen) never
 * goes backwards.  When the scheduler removes a device (TDR) its fences are
 * pushed to UINT64_MAX, so nothing waits on them forever.  This file keeps
 * the fence objects and never runs the GPU: waiting on a fence does, so
 * fw_mfence_wait belongs to the pipeline (fw_kmd.h).
 */
#ifndef FW_MFENCE_H
#define FW_MFENCE_H

#include "fw_kmd_types.h"

/* A monitored fence. */
struct fw_mfence {
	struct fw_device *dev;   /* NULL: free id */
	uint64_t addr;           /* 8 bytes of system memory the GPU writes */
	uint64_t requested;      /* highest value a submission will write */
	uint64_t seen;           /* highest value the CPU has read: never goes back */
};

/* The monitored fences' state (k->mfs): their values in system memory and
 * the fences by id (0 unused). */
struct fw_mfence_state {
	uint64_t addr;                               /* FW_KMD_MAX_MFENCES + 1 values */
	struct fw_mfence mf[FW_KMD_MAX_MFENCES + 1];
};

/*
 * create: GM_OK and *id; GM_ERR_FULL; GM_ERR_BAD_ARG; GM_ERR_DEVICE_REMOVED;
 * GM_ERR_ADDR (the fence's memory is outside the model: nothing made).
 * read: the value, never below one read before (UINT64_MAX once its device
 * was removed); GM_OK, GM_ERR_BAD_ARG or GM_ERR_ADDR (*value not written).
 */
int fw_mfence_create(struct fw_kmd *k, struct fw_device *dev, uint64_t initial, uint32_t *id)
	GM_MUST_CHECK;
int fw_mfence_read(struct fw_kmd *k, uint32_t id, uint64_t *value) GM_MUST_CHECK;

/* ---- for the pipeline's other files (fw_sched.c, fw_kmd.c) */

/* The live fence @id, or NULL (unknown id, NULL @k). */
struct fw_mfence *fw_mfence_get(struct fw_kmd *k, uint32_t id);

/* The system-memory address the GPU writes fence @id's value to (a
 * submission's RELEASE_FENCE); @id must be a fence fw_mfence_signals_ok
 * accepted. */
uint64_t fw_mfence_addr(const struct fw_kmd *k, uint32_t id);

/* True when each signal names a fence of @dev and goes above what was
 * requested, and above the earlier signals of the same fence. */
bool fw_mfence_signals_ok(const struct fw_kmd *k, const struct fw_device *dev,
			  const struct fw_signal *sig, uint32_t nsig);

/* A submission carrying @sig was made: those values are requested now
 * (requested never goes down: a page-table update queued behind a lower
 * FenceValue may request FenceValue + 1 below it). */
void fw_mfence_request(struct fw_kmd *k, const struct fw_signal *sig, uint32_t nsig);

/* A submission carrying @sig retired: read its fences' values.  GM_OK;
 * GM_ERR_ADDR (a fence's memory unreadable: the ones after it not read). */
int fw_mfence_retire(struct fw_kmd *k, const struct fw_signal *sig, uint32_t nsig)
	GM_MUST_CHECK;

/* @dev was removed: its fences read UINT64_MAX from now on (in memory too).
 * GM_OK; GM_ERR_ADDR (a fence's memory unwritable: it and the ones after it
 * keep their values). */
int fw_mfence_remove_device(struct fw_kmd *k, const struct fw_device *dev) GM_MUST_CHECK;

/* @dev is being closed: its fence ids are free again. */
void fw_mfence_release_device(struct fw_kmd *k, const struct fw_device *dev);

#endif /* FW_MFENCE_H */
