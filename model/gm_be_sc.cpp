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
#include "verilated.h"

#include "gm_backend.h"
#include "gm_pins.hpp"
#include "gm_status.h"

namespace {

struct sc_backend {
	sc_signal<bool> clk{"clk"};
	const sc_time half_cycle{5, SC_NS};
	sc_signal<bool> rst_n{"rst_n"};
	sc_signal<bool> reg_req_valid{"reg_req_valid"}, reg_req_ready{"reg_req_ready"};
	sc_signal<bool> reg_req_we{"reg_req_we"};
	sc_signal<uint32_t> reg_req_addr{"reg_req_addr"}, reg_req_wdata{"reg_req_wdata"};
	sc_signal<bool> reg_rsp_valid{"reg_rsp_valid"}, reg_rsp_err{"reg_rsp_err"};
	sc_signal<uint32_t> reg_rsp_rdata{"reg_rsp_rdata"};
	sc_signal<bool> mem_req_valid{"mem_req_valid"}, mem_req_ready{"mem_req_ready"};
	sc_signal<uint32_t> mem_req_id{"mem_req_id"};
	sc_signal<uint64_t> mem_req_addr{"mem_req_addr"};
	sc_signal<bool> mem_req_we{"mem_req_we"};
	sc_signal<sc_bv<GM_BEAT_BYTES * 8>> mem_req_wdata{"mem_req_wdata"};
	sc_signal<uint32_t> mem_req_wstrb{"mem_req_wstrb"};
	sc_signal<bool> mem_rsp_valid{"mem_rsp_valid"}, mem_rsp_err{"mem_rsp_err"};
	sc_signal<uint32_t> mem_rsp_id{"mem_rsp_id"};
	sc_signal<sc_bv<GM_BEAT_BYTES * 8>> mem_rsp_rdata{"mem_rsp_rdata"};
	sc_signal<bool> irq{"irq"};
	sc_signal<bool> apt_req_valid{"apt_req_valid"}, apt_req_ready{"apt_req_ready"};
	sc_signal<bool> apt_req_we{"apt_req_we"};
	sc_signal<uint32_t> apt_req_addr{"apt_req_addr"}, apt_req_wstrb{"apt_req_wstrb"};
	sc_signal<sc_bv<GM_APT_CHUNK_WORDS * 64>> apt_req_wdata{"apt_req_wdata"};
	sc_signal<sc_bv<GM_APT_CHUNK_WORDS * 64>> apt_rsp_rdata{"apt_rsp_rdata"};
	sc_signal<bool> apt_rsp_valid{"apt_rsp_valid"}, apt_rsp_err{"apt_rsp_err"};
	sc_signal<uint32_t> mm_inflight{"mm_inflight"}, mm_rsp_latency{"mm_rsp_latency"};
	sc_signal<uint32_t> mm_vram_backlog{"mm_vram_backlog"}, mm_sys_backlog{"mm_sys_backlog"};
	sc_signal<bool> mm_refused{"mm_refused"};
	std::unique_ptr<VerilatedContext> ctx;
	std::unique_ptr<Vgpu_sc> top;
	std::unique_ptr<gm_fst> fst;
	gm_pins *pins = nullptr;
	// The inputs as last written: a signal is written only when its pin
	// changed (a write costs the kernel an update and an event even when
	// the value is the same, and the wide ones a conversion).
	gm_pins last{};
	bool written = false; // last holds what the signals hold
	sc_bv<GM_BEAT_BYTES * 8> rdata_bv;
	sc_bv<GM_APT_CHUNK_WORDS * 64> awdata_bv;

	void bind();
	void pins_in();
	void pins_out();
};

void sc_backend::bind()
{
	Vgpu_sc &t = *top;
	t.clk_i(clk);
	t.rst_ni(rst_n);
	t.reg_req_valid_i(reg_req_valid);
	t.reg_req_ready_o(reg_req_ready);
	t.reg_req_we_i(reg_req_we);
	t.reg_req_addr_i(reg_req_addr);
	t.reg_req_wdata_i(reg_req_wdata);
	t.reg_rsp_valid_o(reg_rsp_valid);
	t.reg_rsp_rdata_o(reg_rsp_rdata);
	t.reg_rsp_err_o(reg_rsp_err);
	t.mem_req_valid_o(mem_req_valid);
	t.mem_req_ready_i(mem_req_ready);
	t.mem_req_id_o(mem_req_id);
	t.mem_req_addr_o(mem_req_addr);
	t.mem_req_we_o(mem_req_we);
	t.mem_req_wdata_o(mem_req_wdata);
	t.mem_req_wstrb_o(mem_req_wstrb);
	t.mem_rsp_valid_i(mem_rsp_valid);
	t.mem_rsp_id_i(mem_rsp_id);
	t.mem_rsp_err_i(mem_rsp_err);
	t.mem_rsp_rdata_i(mem_rsp_rdata);
	t.irq_o(irq);
	t.apt_req_valid_i(apt_req_valid);
	t.apt_req_ready_o(apt_req_ready);
	t.apt_req_we_i(apt_req_we);
	t.apt_req_addr_i(apt_req_addr);
	t.apt_req_wdata_i(apt_req_wdata);
	t.apt_req_wstrb_i(apt_req_wstrb);
	t.apt_rsp_valid_o(apt_rsp_valid);
	t.apt_rsp_rdata_o(apt_rsp_rdata);
	t.apt_rsp_err_o(apt_rsp_err);
	t.mm_inflight_i(mm_inflight);
	t.mm_refused_i(mm_refused);
	t.mm_rsp_latency_i(mm_rsp_latency);
	t.mm_vram_backlog_i(mm_vram_backlog);
	t.mm_sys_backlog_i(mm_sys_backlog);
}

// Write @v to @sig if it differs from @last (always the first time).
template <typename Sig, typename T> inline void put(Sig &sig, T &last, T v, bool all)
{
	if (all || v != last) {
		last = v;
		sig.write(v);
	}
}

void sc_backend::pins_in()
{
	const gm_pins &p = *pins;
	gm_pins &l = last;
	const bool all = !written;

	put(rst_n, l.rst_n, p.rst_n, all);
	put(reg_req_valid, l.reg_req_valid, p.reg_req_valid, all);
	put(reg_req_we, l.reg_req_we, p.reg_req_we, all);
	put(reg_req_addr, l.reg_req_addr, p.reg_req_addr, all);
	put(reg_req_wdata, l.reg_req_wdata, p.reg_req_wdata, all);
	put(mem_req_ready, l.mem_req_ready, p.mem_req_ready, all);
	put(mem_rsp_valid, l.mem_rsp_valid, p.mem_rsp_valid, all);
	put(mem_rsp_err, l.mem_rsp_err, p.mem_rsp_err, all);
	put(mem_rsp_id, l.mem_rsp_id, p.mem_rsp_id, all);
	// gm.c changes the data pins only with their valid: copied with it
	if (all || (p.mem_rsp_valid &&
		    memcmp(l.mem_rsp_rdata, p.mem_rsp_rdata, sizeof(l.mem_rsp_rdata)) != 0)) {
		memcpy(l.mem_rsp_rdata, p.mem_rsp_rdata, sizeof(l.mem_rsp_rdata));
		for (unsigned i = 0; i < GM_BEAT_WORDS; i++)
			rdata_bv.set_word(i, p.mem_rsp_rdata[i]);
		mem_rsp_rdata.write(rdata_bv);
	}
	put(apt_req_valid, l.apt_req_valid, p.apt_req_valid, all);
	put(apt_req_we, l.apt_req_we, p.apt_req_we, all);
	put(apt_req_addr, l.apt_req_addr, p.apt_req_addr, all);
	if (all || (p.apt_req_valid &&
		    memcmp(l.apt_req_wdata, p.apt_req_wdata, sizeof(l.apt_req_wdata)) != 0)) {
		memcpy(l.apt_req_wdata, p.apt_req_wdata, sizeof(l.apt_req_wdata));
		for (unsigned i = 0; i < 2 * GM_APT_CHUNK_WORDS; i++)
			awdata_bv.set_word(i, (uint32_t)(p.apt_req_wdata[i / 2] >> (32 * (i % 2))));
		apt_req_wdata.write(awdata_bv);
	}
	put(apt_req_wstrb, l.apt_req_wstrb, p.apt_req_wstrb, all);
	put(mm_inflight, l.mm_inflight, p.mm_inflight, all);
	put(mm_refused, l.mm_refused, p.mm_refused, all);
	put(mm_rsp_latency, l.mm_rsp_latency, p.mm_rsp_latency, all);
	put(mm_vram_backlog, l.mm_vram_backlog, p.mm_vram_backlog, all);
	put(mm_sys_backlog, l.mm_sys_backlog, p.mm_sys_backlog, all);
	written = true;
}

void sc_backend::pins_out()
{
	gm_pins &p = *pins;

	p.reg_req_ready = reg_req_ready.read();
	p.reg_rsp_valid = reg_rsp_valid.read();
	p.reg_rsp_err = reg_rsp_err.read();
	p.reg_rsp_rdata = reg_rsp_rdata.read();
	p.mem_req_valid = mem_req_valid.read();
	p.mem_req_we = mem_req_we.read();
	p.mem_req_id = mem_req_id.read();
	p.mem_req_addr = mem_req_addr.read();
	// gm.c reads the data pins only with their valid
	if (p.mem_req_valid) {
		const sc_bv<GM_BEAT_BYTES * 8> &wdata = mem_req_wdata.read();
		for (unsigned i = 0; i < GM_BEAT_WORDS; i++)
			p.mem_req_wdata[i] = wdata.get_word(i);
	}
	p.mem_req_wstrb = mem_req_wstrb.read();
	p.irq = irq.read();
	p.apt_req_ready = apt_req_ready.read();
	p.apt_rsp_valid = apt_rsp_valid.read();
	p.apt_rsp_err = apt_rsp_err.read();
	if (p.apt_rsp_valid) {
		const sc_bv<GM_APT_CHUNK_WORDS * 64> &ardata = apt_rsp_rdata.read();
		for (unsigned i = 0; i < GM_APT_CHUNK_WORDS; i++)
			p.apt_rsp_rdata[i] = (uint64_t)ardata.get_word(2 * i) |
					     (uint64_t)ardata.get_word(2 * i + 1) << 32;
	}
}

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
	be->bind();
	be->pins_in();
	sc_start(SC_ZERO_TIME);
	be->pins_out();
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

	be->pins_in();
	be->clk.write(false);
	sc_start(be->half_cycle);
	if (dump && be->fst)
		be->fst->dump(GM_WAVE_T_LOW(cycle));
	be->clk.write(true);
	sc_start(be->half_cycle);
	if (dump && be->fst)
		be->fst->dump(GM_WAVE_T_HIGH(cycle));
	be->pins_out();
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

} // namespace

// libsystemc's own main() calls sc_main(); gpusim has its own main(), so
// this is never called, but the library needs the symbol to link.
int sc_main(int, char **)
{
	return 1;
}

extern "C" const gm_backend_ops gm_backend_systemc = {
	"systemc", sc_create, sc_destroy, sc_cycle, sc_trace_open, sc_trace_close, gm_assert_failed,
};
