/* SPDX-License-Identifier: MIT */
/*
 * gm_backends.c - the backend registry: every backend's name, kind and
 * capabilities in one table.  The command line, $GPUSIM_BACKEND, replay,
 * the benchmarks and the tests all go through it; nothing else maps a name
 * to a kind.  The registry's ops column, each kind's struct
 * gm_backend_ops, is gm.c's backend_ops[], beside gm_create(): this file
 * depends on no simulator, so what only names backends (replay --disasm,
 * its fuzz target) links it alone.
 *
 * Adding a backend: an enum gm_backend_kind value (gm.h), its ops
 * (gm_backend.h, a model/gm_be_*.c or .cpp), one row here and one in gm.c's
 * backend_ops[].
 */
#include <stddef.h>
#include <string.h>

#include "gm.h"

/* Builds that make the Verilator model twice (GM_VL_NT): a model not made
 * for waves runs the one without trace support (gm.c's backend_ops[]). */
#ifdef GM_VL_NT
#define GM_VL_CAPS (GM_CAP_WAVES | GM_CAP_MANY | GM_CAP_TRACE_MODEL)
#else
#define GM_VL_CAPS (GM_CAP_WAVES | GM_CAP_MANY)
#endif

/* In enum gm_backend_kind order (indexed by kind). */
static const struct gm_backend_info infos[] = {
	{ "verilator", GM_BACKEND_VERILATOR, GM_VL_CAPS,
	  "the RTL as a plain Verilated C++ model (default, fastest)" },
	{ "systemc", GM_BACKEND_SYSTEMC, GM_CAP_WAVES | GM_CAP_SYSTEMC,
	  "the same RTL under the SystemC kernel: one model per process" },
	{ "ref", GM_BACKEND_REF, GM_CAP_MANY, "the C reference model (model/ref/): no RTL, no waveforms" },
	{ "tlm", GM_BACKEND_TLM, GM_CAP_WAVES | GM_CAP_SYSTEMC | GM_CAP_PLATFORM,
	  "the plain Verilated RTL as a TLM-2.0 module in a SystemC platform: one per process" },
};

_Static_assert(sizeof(infos) / sizeof(infos[0]) == GM_BACKEND_COUNT,
	       "one registry row per enum gm_backend_kind value");

const struct gm_backend_info *gm_backend_list(size_t *n)
{
	*n = GM_BACKEND_COUNT;
	return infos;
}

const struct gm_backend_info *gm_backend_info(enum gm_backend_kind kind)
{
	return (unsigned)kind < GM_BACKEND_COUNT ? &infos[kind] : NULL;
}

const struct gm_backend_info *gm_backend_lookup(const char *name)
{
	for (unsigned i = 0; name && i < GM_BACKEND_COUNT; i++)
		if (strcmp(infos[i].name, name) == 0)
			return &infos[i];
	return NULL;
}
