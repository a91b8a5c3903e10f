// SPDX-License-Identifier: MIT
//
// gm_be_sc.cpp - the SystemC backend: the same RTL verilated with --sc, bound
// to sc_signals and run under the SystemC kernel (clock: see Timing below).
//
// The SystemC kernel is process-wide and elaborates once: after the first
// sc_start no module can be added.  So one SystemC model can exist per
// process; a second create() answers GM_ERR_UNSUPPORTED.  The flag that
// records this mirrors the kernel's own global state and is the only
// file-scope variable of the model.
//
// Timing: a cycle is 10 ns with its rising edge 5 ns in, so inputs
// written before sc_start() settle before the edge samples them.  The clock
// is a plain signal the backend drives (low with the inputs, high 5 ns
// later), not an sc_clock: the same edges at the same times without the
// kernel's timed clock events and their callbacks each half period.

#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>

#include <systemc.h>

#include "Vgpu_sc.h"
#include "Vgpu_sc___024root.h"
#include "verilated.h"

#include "gm_backend.h"
#include "gm_pins.hpp"
#include "gm_pins_sc.hpp" // gm_sc_pins: the signals and their copies (generated)
#include "gm_status.h"

namespace {

struct sc_backend {
	const sc_time half_cycle{5, SC_NS};
	gm_sc_pins sig; // gpu_top's ports as signals, clk among them
	std::unique_ptr<VerilatedContext> ctx;
	std::unique_ptr<Vgpu_sc> top;
	std::unique_ptr<gm_fst> fst;
	gm_pins *pins = nullptr;
};

sc_backend *g_sc_model; // the one model the SystemC kernel has elaborated

int sc_create(gm_pins *pins, void **out)
{
	if (g_sc_model)
		return GM_ERR_UNSUPPORTED;
	setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
	auto *be = new (std::nothrow) sc_backend;
	if (!be)
		return GM_ERR_NO_MEM;
	g_sc_model = be;
	be->pins = pins;
	// A --sc model takes the thread's current context; make one of ours
	// current (constructing it does that) rather than whatever context a
	// Verilator-backend model, maybe destroyed since, left there.
	be->ctx.reset(new VerilatedContext);
	be->ctx->traceEverOn(true);
	be->ctx->assertOn(gm_assert_enabled());
	be->top.reset(new Vgpu_sc{"gpu"});
	be->sig.bind(*be->top);
	be->sig.write(*pins);
	sc_start(SC_ZERO_TIME);
	be->sig.read(*pins);
	*out = be;
	return GM_OK;
}

void sc_destroy(void *p)
{
	auto *be = static_cast<sc_backend *>(p);
	if (be->fst)
		be->fst->close();
	be->top->final();
	// SystemC modules cannot be torn down once elaborated: the model stays
	// in g_sc_model until exit.  Only the host-side state goes here.
	be->fst.reset();
	be->pins = nullptr;
}

bool sc_cycle(void *p, uint64_t cycle, int dump)
{
	auto *be = static_cast<sc_backend *>(p);

	be->sig.write(*be->pins);
	be->sig.clk.write(false);
	sc_start(be->half_cycle);
	if (dump && be->fst)
		be->fst->dump(GM_WAVE_T_LOW(cycle));
	be->sig.clk.write(true);
	sc_start(be->half_cycle);
	if (dump && be->fst)
		be->fst->dump(GM_WAVE_T_HIGH(cycle));
	be->sig.read(*be->pins);
	return gm_assert_pending;
}

int sc_trace_open(void *p, const char *path)
{
	auto *be = static_cast<sc_backend *>(p);

	return gm_trace_open(*be->top, be->fst, path);
}

void sc_trace_close(void *p)
{
	gm_trace_close(static_cast<sc_backend *>(p)->fst);
}

void sc_latch(void *p, gm_latch *l)
{
	gm_latch_read(*static_cast<sc_backend *>(p)->top->rootp, l);
}

} // namespace

// libsystemc's own main() calls sc_main(); gpusim has its own main(), so
// this is never called, but the library needs the symbol to link.  Weak: a
// program with its own sc_main (a virtual platform with gpusim_tlm,
// model/tlm/) links against this library too.
__attribute__((weak)) int sc_main(int, char **)
{
	return 1;
}

extern "C" const gm_backend_ops gm_backend_systemc = {
	sc_create, sc_destroy, sc_cycle, sc_trace_open, sc_trace_close, gm_assert_failed, false,
	sc_latch,
};
