// SPDX-License-Identifier: MIT
//
// gm_assert.cpp - what the Verilator runtime does on an RTL assertion
// failure (or any $stop): the runtime is built with VL_USER_STOP, so this
// vl_stop replaces its own, which would end the process.  It records the
// failure for the thread's model (the backends ask after each cycle,
// gm_assert_take) and lets the run go on: gm.c reports it through the C
// API as a model error, with the assertion's label, its cycle and the wave.

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "verilated.h"

#include "gm_assert.h"
#include "gm_backend.h"

namespace {

thread_local char g_what[256];

// The label of the assertion at or before @line of @file (Verilator gives
// the line of the assert or of its else branch); NULL: none.
const char *label_of(const char *file, int line)
{
	const char *base = file ? std::strrchr(file, '/') : nullptr;
	const gm_assert_label *best = nullptr;

	base = base ? base + 1 : file;
	for (const gm_assert_label *a = gm_assert_labels; base && a->file; a++)
		if (!std::strcmp(a->file, base) && a->line <= line && (!best || a->line > best->line))
			best = a;
	return best ? best->label : nullptr;
}

} // namespace

__thread bool gm_assert_pending;

void vl_stop(const char *filename, int linenum, const char *hier)
{
	const char *label = label_of(filename, linenum);

	if (!gm_assert_pending) // the first one of a cycle names it
		std::snprintf(g_what, sizeof(g_what), "%s (%s:%d%s%s)", label ? label : "$stop",
			      filename ? filename : "?", linenum, hier && hier[0] ? " in " : "",
			      hier ? hier : "");
	gm_assert_pending = true;
	Verilated::runFlushCallbacks();
}

extern "C" bool gm_assert_enabled(void)
{
	const char *v = std::getenv("GPUSIM_ASSERT");

	return !v || std::strcmp(v, "0") != 0;
}

extern "C" bool gm_assert_failed(void *be, char *buf, size_t n)
{
	(void)be; // one model evaluates at a time in a thread: the last one
	return gm_assert_take(buf, n);
}

extern "C" bool gm_assert_take(char *buf, size_t n)
{
	if (!gm_assert_pending)
		return false;
	gm_assert_pending = false;
	if (buf && n)
		std::snprintf(buf, n, "%s", g_what);
	return true;
}
