/* SPDX-License-Identifier: MIT */
/*
 * scen_deferred.h - `gpusim run deferred`: deferred contexts of the
 * user-mode driver recorded on two threads, executed on the RTL.
 */
#ifndef SCEN_DEFERRED_H
#define SCEN_DEFERRED_H

#include "scen_common.h"

int scen_deferred(struct scen *s);

#endif /* SCEN_DEFERRED_H */
