/* SPDX-License-Identifier: MIT */
/*
 * gm_backends.c - the backend registry: every backend's name, kind,
 * capabilities and ops in one table.  The command line, $GPUSIM_BACKEND,
 * replay, the benchmarks and gm_create() all go through it; nothing else
 * maps a name to a kind or a kind to its ops.
 *
 * Adding a backend: an enum gm_backend_kind value (gm.h), its ops
 * (gm_backend.h, a model/gm_be_*.c or .cpp) and one row here.
 */
#include <stddef.h>
#include <string.h>

#include "gm.h"
#include "gm_backend.h"
#include "gm_priv.h"

/* The Verilator backend's model without trace support, in builds that make
 * both models (GM_VL_NT): what a model not made for waves runs. */
#ifdef GM_VL_NT
#define GM_VL_NOWAVE (&gm_backend_verilator_nt)
#define GM_VL_CAPS (GM_CAP_WAVES | GM_CAP_MANY | GM_CAP_TRACE_MODEL)
#else
#define GM_VL_NOWAVE NULL
#define GM_VL_CAPS (GM_CAP_WAVES | GM_CAP_MANY)
#endif

/* In enum gm_backend_kind order (indexed by kind): what a backend is ... */
static const struct gm_backend_info infos[] = {
	{ "verilator", GM_BACKEND_VERILATOR, GM_VL_CAPS,
	  "the RTL as a plain Verilated C++ model (default, fastest)" },
	{ "systemc", GM_BACKEND_SYSTEMC, GM_CAP_WAVES | GM_CAP_SYSTEMC,
	  "the same RTL under the SystemC kernel: one model per process" },
	{ "ref", GM_BACKEND_REF, GM_CAP_MANY, "the C reference model (model/ref/): no RTL, no waveforms" },
};

/* ... and its ops: for a model made for waves, and for any other (NULL: the
 * same). */
static const struct {
	const struct gm_backend_ops *waves, *nowave;
} ops[] = {
	{ &gm_backend_verilator, GM_VL_NOWAVE },
	{ &gm_backend_systemc, NULL },
	{ &gm_backend_ref, NULL },
};

_Static_assert(sizeof(infos) / sizeof(infos[0]) == GM_BACKEND_COUNT &&
		       sizeof(ops) / sizeof(ops[0]) == GM_BACKEND_COUNT,
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

const struct gm_backend_ops *gm_backend_ops_of(enum gm_backend_kind kind, bool waves)
{
	if ((unsigned)kind >= GM_BACKEND_COUNT)
		return NULL;
	return !waves && ops[kind].nowave ? ops[kind].nowave : ops[kind].waves;
}
