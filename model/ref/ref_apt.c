/* SPDX-License-Identifier: MIT */
/*
 * ref_apt.c - the reference backend's aperture (BAR1): not modelled yet.
 *
 * The RTL aperture became write-combined (posted 16-byte chunks, streamed
 * reads with a snooped prefetch, error registers and APT_ERR interrupt;
 * rtl/apt/apt_top.sv) after this model was written for the old one-word
 * protocol.  Until it follows, the reference aperture takes no request
 * (apt_req_ready stays low) and gm.c answers every gm_apt_* call on this
 * backend with GM_ERR_UNSUPPORTED before touching the pins; the range
 * registers are still kept (ref_regs.c), so the driver can program them.
 */
#include <string.h>

#include "ref.h"

void ref_apt_reset(struct ref_apt *a)
{
	memset(a, 0, sizeof(*a));
}

bool ref_apt_ready(const struct ref_apt *a)
{
	(void)a;
	return false;
}

bool ref_apt_busy(const struct ref_apt *a)
{
	(void)a;
	return false;
}

void ref_apt_offer(const struct ref_apt *a, struct ref_req *req)
{
	(void)a;
	req->valid = false;
}

void ref_apt_step(struct ref_apt *a, const struct ref_regs *regs, bool req_valid, bool we,
		  uint32_t addr, uint64_t wdata, uint8_t wstrb, bool granted, const struct ref_rsp *rsp)
{
	(void)regs, (void)req_valid, (void)we, (void)addr, (void)wdata, (void)wstrb, (void)granted;
	(void)rsp;
	a->rsp_valid = false;
}
