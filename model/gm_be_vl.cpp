// SPDX-License-Identifier: MIT
//
// gm_be_vl.cpp - the plain Verilator backend: the thin C++ shim that owns a
// VerilatedContext and a Vgpu per instance (no file-scope model, so several
// models live in one process) and copies struct gm_pins in and out.
//
// Built twice in the default build: against Vgpu, verilated with trace
// support (gm_backend_verilator: a model made for waves), and with GM_VL_NT
// against Vgpu_nt, the same RTL verilated without it (gm_backend_verilator_nt:
// every other model; its trace_open answers GM_ERR_UNSUPPORTED).

#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <type_traits>
#include <vector>

#ifdef GM_VL_NT
#include "Vgpu_nt.h"
#include "Vgpu_nt___024root.h"
using gm_vl_top = Vgpu_nt;
#define GM_VL_OPS gm_backend_verilator_nt
#else
#include "Vgpu.h"
#include "Vgpu___024root.h"
using gm_vl_top = Vgpu;
#define GM_VL_OPS gm_backend_verilator
#endif
#include "verilated.h"

// Two regions of the root's evaluation (Vgpu___024root___eval, which
// Vgpu::eval_step calls after the model's initialisation, its first call,
// and before draining the message queues of Verilator's worker threads, of
// which a model verilated without --threads has none): see vl_edge.
// Verilator 5.006's generated names: another Verilator without them fails
// to link, not at run time.
#ifdef GM_VL_NT
using gm_vl_root = Vgpu_nt___024root;
void Vgpu_nt___024root___eval_ico(Vgpu_nt___024root *vlSelf);
void Vgpu_nt___024root___eval_nba(Vgpu_nt___024root *vlSelf);
#define gm_vl_root_eval_ico Vgpu_nt___024root___eval_ico
#define gm_vl_root_eval_nba Vgpu_nt___024root___eval_nba
#else
using gm_vl_root = Vgpu___024root;
void Vgpu___024root___eval_ico(Vgpu___024root *vlSelf);
void Vgpu___024root___eval_nba(Vgpu___024root *vlSelf);
#define gm_vl_root_eval_ico Vgpu___024root___eval_ico
#define gm_vl_root_eval_nba Vgpu___024root___eval_nba
#endif

#include "gm_backend.h"
#include "gm_pins.hpp"
#include "gm_status.h"

#if VM_COVERAGE
#include <cstdio>
#include <cstdlib>
#include <unistd.h>

#include "verilated_cov.h"
#endif

namespace {

#if VM_COVERAGE
// The coverage build (make coverage): each model writes its own counts to a
// fresh file in $GPUSIM_COV_DIR when it is destroyed (mkstemp makes the name
// unique, so no counter is shared between models); make coverage merges them.
void cov_write(VerilatedContext &ctx)
{
	const char *dir = std::getenv("GPUSIM_COV_DIR");
	char path[4096];
	int fd;

	if (!dir || std::snprintf(path, sizeof(path), "%s/cov-XXXXXX", dir) >= (int)sizeof(path))
		return;
	fd = mkstemp(path);
	if (fd < 0)
		return;
	close(fd);
	ctx.coveragep()->write(path);
}
#endif

// Verilator's power-up values: GPUSIM_VERILATOR_ARGS holds plusargs for each
// model's context, read before the model is built (its flops take their
// initial values in its constructor).  Only +verilator+seed+N (N a decimal
// number) and +verilator+rand+reset+N (N 0 zeros, 1 ones, 2 random) are
// taken: they matter in a model verilated with --x-initial unique (make XU=1).
// Anything else: GM_ERR_BAD_ARG, no model (Verilator would exit on a
// plusarg it does not know).
int vl_power_up_args(VerilatedContext &ctx)
{
	const char *env = std::getenv("GPUSIM_VERILATOR_ARGS");
	std::vector<std::string> words;
	std::vector<const char *> argv;

	if (!env)
		return GM_OK;
	for (const char *p = env; *p;) {
		size_t n = std::strcspn(p, " \t");

		if (n)
			words.emplace_back(p, n);
		p += n;
		p += std::strspn(p, " \t");
	}
	argv.push_back("gpusim");
	for (const std::string &w : words) {
		static const char seed[] = "+verilator+seed+", reset[] = "+verilator+rand+reset+";
		const char *v = nullptr;

		if (!w.compare(0, sizeof(seed) - 1, seed))
			v = w.c_str() + sizeof(seed) - 1;
		else if (!w.compare(0, sizeof(reset) - 1, reset))
			v = w.c_str() + sizeof(reset) - 1;
		if (!v || !*v || std::strspn(v, "0123456789") != std::strlen(v) || std::strlen(v) > 9 ||
		    (v == w.c_str() + sizeof(reset) - 1 && std::atoi(v) > 2))
			return GM_ERR_BAD_ARG;
		argv.push_back(w.c_str());
	}
	ctx.commandArgs(static_cast<int>(argv.size()), argv.data());
	return GM_OK;
}

struct vl_backend {
	std::unique_ptr<VerilatedContext> ctx;
	std::unique_ptr<gm_vl_top> top;
	std::unique_ptr<gm_fst> fst;
	gm_pins *pins;
	bool live = false; // reset has been released once: assertions are checked
};

// One rising edge of clk_i, the inputs written: what the root's evaluation
// does for it, without its scheduling loops.  gpu_top has one trigger, posedge
// clk_i (each trigger vector has one entry; the static_asserts stop a build
// whose RTL has more), so those loops run the input-combinational region
// once (its trigger is "first iteration") and then, the edge seen, the NBA
// region once; each region's function tests the trigger set here.  The edge
// detector's memory of clk_i is left as the loops leave it.  About 110
// instructions a cycle less (README, "Simulation speed").
inline void vl_edge(gm_vl_root *r)
{
	static_assert(std::is_same<decltype(r->__VicoTriggered), VlTriggerVec<1>>::value &&
			      std::is_same<decltype(r->__VactTriggered), VlTriggerVec<1>>::value &&
			      std::is_same<decltype(r->__VnbaTriggered), VlTriggerVec<1>>::value,
		      "gpu_top has a trigger besides posedge clk_i: vl_edge would miss it");
	r->__VicoTriggered.at(0) = true;
	gm_vl_root_eval_ico(r);
	r->__VnbaTriggered.at(0) = true;
	gm_vl_root_eval_nba(r);
	r->__Vtrigrprev__TOP__clk_i = 1;
}

int vl_create(gm_pins *pins, void **out)
{
	auto *be = new (std::nothrow) vl_backend;
	if (!be)
		return GM_ERR_NO_MEM;
	be->pins = pins;
	be->ctx.reset(new VerilatedContext);
	if (int st = vl_power_up_args(*be->ctx)) {
		delete be;
		return st;
	}
	be->ctx->traceEverOn(true);
	// No assertion is checked until reset is first released (vl_cycle), as
	// an SVA property's disable iff (!rst_ni): before the first edge the
	// flops hold their power-up values (random in a build verilated with
	// --x-initial unique) and the logic they feed means nothing yet.
	be->ctx->assertOn(false);
	be->top.reset(new gm_vl_top{be->ctx.get(), "TOP"});
	gm_pins_in(*be->top->rootp, *pins);
	be->top->clk_i = 0;
	be->top->eval();
	gm_pins_out(*be->top->rootp, *pins);
	*out = be;
	return GM_OK;
}

void vl_destroy(void *p)
{
	auto *be = static_cast<vl_backend *>(p);
	// The model's scopes unregister from the thread's current context, which
	// is the newest one constructed: make it this model's own, and forget it
	// once it is gone (Verilator then falls back to its default context).
	Verilated::threadContextp(be->ctx.get());
	if (be->fst)
		be->fst->close();
	be->top->final();
#if VM_COVERAGE
	cov_write(*be->ctx);
#endif
	delete be;
	Verilated::threadContextp(nullptr);
}

bool vl_cycle(void *p, uint64_t cycle, int dump)
{
	auto *be = static_cast<vl_backend *>(p);
	gm_vl_top &top = *be->top;

	gm_pins_in(*top.rootp, *be->pins);
	if (!be->live && be->pins->rst_n) {
		be->live = true;
		be->ctx->assertOn(gm_assert_enabled());
	}
	if (dump && be->fst) {
		top.clk_i = 0;
		be->ctx->time(GM_WAVE_T_LOW(cycle)); // $error messages show the dump's time
		top.eval();
		be->fst->dump(GM_WAVE_T_LOW(cycle));
		be->ctx->time(GM_WAVE_T_HIGH(cycle));
		top.clk_i = 1;
		top.eval();
		be->fst->dump(GM_WAVE_T_HIGH(cycle));
	} else {
		// Without a dump, the rising edge alone.  The clock-low
		// evaluation changes nothing the edge's does not redo: gpu_top
		// has one trigger, posedge clk_i (no negedge logic), and every
		// evaluation first settles the logic fed by the inputs again
		// (about 130 instructions a cycle).  vl_create's eval()
		// initialised the model, and the rest of eval() around the two
		// regions vl_edge runs is bookkeeping and the scheduling loops
		// (about 110 more; README, "Simulation speed").
		be->ctx->time(GM_WAVE_T_HIGH(cycle));
		top.clk_i = 1;
		vl_edge(top.rootp);
	}
	gm_pins_out(*top.rootp, *be->pins);
	return gm_assert_pending;
}

int vl_trace_open(void *p, const char *path)
{
	auto *be = static_cast<vl_backend *>(p);

	return gm_trace_open(*be->top, be->fst, path);
}

void vl_trace_close(void *p)
{
	gm_trace_close(static_cast<vl_backend *>(p)->fst);
}

#ifndef GM_VL_NT
void vl_latch(void *p, gm_latch *l)
{
	gm_latch_read(*static_cast<vl_backend *>(p)->top->rootp, l);
}
#endif

} // namespace

// The model without trace support records no waveform: no latch to read.
extern "C" const gm_backend_ops GM_VL_OPS = {
	vl_create, vl_destroy, vl_cycle, vl_trace_open, vl_trace_close, gm_assert_failed, false,
#ifndef GM_VL_NT
	vl_latch,
#else
	nullptr,
#endif
};
