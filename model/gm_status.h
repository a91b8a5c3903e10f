/* SPDX-License-Identifier: MIT */
/*
 * gm_status.h - the one result enum of the gpusim C layers (model, dma, fw).
 *
 * 0 is success.  Every error value documents what it guarantees: unless a
 * function's contract says otherwise, an error means no state was changed.
 */
#ifndef GM_STATUS_H
#define GM_STATUS_H

enum gm_status {
	GM_OK = 0,          /* the operation completed */
	GM_ERR_BAD_ARG,     /* an argument was invalid; nothing was changed */
	GM_ERR_NO_MEM,      /* host allocation failed; nothing was changed */
	GM_ERR_ADDR,        /* an address is outside every memory region; nothing was read or written */
	GM_ERR_TIMEOUT,     /* the cycle budget ran out before the condition held; the model is consistent and can go on */
	GM_ERR_BUSY,        /* the resource is in use (e.g. port full); retry later; nothing was changed */
	GM_ERR_UNSUPPORTED, /* the backend or build does not support this; nothing was changed */
	GM_ERR_IO,          /* a host file could not be opened or written */
	GM_ERR_HW,          /* the hardware reported an error (status registers hold the cause) */
	GM_ERR_FULL,        /* a buffer is full; what was written before stays intact */
	GM_ERR_DEVICE_REMOVED, /* the device was removed (TDR); nothing was changed; only destroying it still works */
	GM_ERR_STILL_DRAWING, /* the GPU still uses the object and the caller asked not to wait; nothing was changed */
	GM_ERR_NOT_AVAILABLE, /* no aperture range or window is free for the request; nothing was changed */
	GM_ERR_PINNED,      /* serving the request needs an eviction and the object is pinned; nothing was changed */
	GM_ERR_CANT_RENDER_LOCKED, /* the GPU would use an allocation the CPU holds, and it cannot be moved where both can; nothing was changed */
	GM_ERR_COUNT
};

/*
 * GM_MUST_CHECK follows the declaration of a function whose status the
 * caller must act on.  The driver (fw/) is compiled with GM_CHECK_RESULTS
 * defined, which makes it warn_unused_result - an error under -Werror - so
 * the compiler proves the driver drops no status.  Tests may drop one on
 * purpose: elsewhere it is empty.
 */
#ifdef GM_CHECK_RESULTS
#define GM_MUST_CHECK __attribute__((warn_unused_result))
#else
#define GM_MUST_CHECK
#endif

/* A static string naming @st, e.g. "GM_ERR_BAD_ARG"; "GM_ERR_?" if unknown. */
const char *gm_status_name(int st);

#endif /* GM_STATUS_H */
