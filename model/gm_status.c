/* SPDX-License-Identifier: MIT */
/*
 * gm_status.c - names of the result codes (gm_status.h).
 */
#include "gm_status.h"

static const char *const status_names[GM_ERR_COUNT] = {
	[GM_OK] = "GM_OK",
	[GM_ERR_BAD_ARG] = "GM_ERR_BAD_ARG",
	[GM_ERR_NO_MEM] = "GM_ERR_NO_MEM",
	[GM_ERR_ADDR] = "GM_ERR_ADDR",
	[GM_ERR_TIMEOUT] = "GM_ERR_TIMEOUT",
	[GM_ERR_BUSY] = "GM_ERR_BUSY",
	[GM_ERR_UNSUPPORTED] = "GM_ERR_UNSUPPORTED",
	[GM_ERR_IO] = "GM_ERR_IO",
	[GM_ERR_HW] = "GM_ERR_HW",
	[GM_ERR_FULL] = "GM_ERR_FULL",
	[GM_ERR_DEVICE_REMOVED] = "GM_ERR_DEVICE_REMOVED",
	[GM_ERR_STILL_DRAWING] = "GM_ERR_STILL_DRAWING",
	[GM_ERR_NOT_AVAILABLE] = "GM_ERR_NOT_AVAILABLE",
	[GM_ERR_PINNED] = "GM_ERR_PINNED",
	[GM_ERR_CANT_RENDER_LOCKED] = "GM_ERR_CANT_RENDER_LOCKED",
};

const char *gm_status_name(int st)
{
	if (st < 0 || st >= GM_ERR_COUNT)
		return "GM_ERR_?";
	return status_names[st];
}

