// SPDX-License-Identifier: MIT
//
// gm_pins.hpp - what the backends share: copying struct gm_pins into and out
// of a plain Verilated gpu_top's root (gm_pins_in / gm_pins_out, generated
// into gm_pins_vl.hpp from regspec/gpu_top_ports.json), and opening and
// closing its FST trace.  A model verilated without trace
// support (VM_TRACE 0: make fast, TRACE=0) has none to open: trace_open
// answers GM_ERR_UNSUPPORTED.

#ifndef GM_PINS_HPP
#define GM_PINS_HPP

#include <cstdint>
#include <cstring>
#include <memory>

#if VM_TRACE
#include "verilated_fst_c.h"
using gm_fst = VerilatedFstC;
#else
// What the backends call on a trace that is never opened.
struct gm_fst {
	void close() {}
	void dump(uint64_t) {}
};
#endif

#include "gm_backend.h"
#include "gm_pins_vl.hpp" // gm_pins_in, gm_pins_out (generated)
#include "gm_status.h"

// Open an FST of the whole of @top into @fst (which must be empty).
template <typename Top>
inline int gm_trace_open(Top &top, std::unique_ptr<gm_fst> &fst, const char *path)
{
#if !VM_TRACE
	(void)top;
	(void)path;
	return fst ? GM_ERR_BUSY : GM_ERR_UNSUPPORTED;
#else
	if (fst)
		return GM_ERR_BUSY;
	std::unique_ptr<VerilatedFstC> f{new VerilatedFstC};
	top.trace(f.get(), 99);
	f->open(path);
	if (!f->isOpen())
		return GM_ERR_IO;
	fst = std::move(f);
	return GM_OK;
#endif
}

// struct gm_latch from the root of a Verilated gpu_top (plain or --sc: the
// same names), for the markers of a waveform.  Verilator 5.006's names of
// the flops: a renamed RTL signal fails to compile here, not at run time.
template <typename Root>
inline void gm_latch_read(const Root &r, gm_latch *l)
{
	static_assert(GM_LATCH_QUEUES == 2, "one row per queue below");
	l->q_err = r.gpu_top__DOT__g_queue__BRA__0__KET____DOT__u_queue__DOT__u_exec__DOT__err_irq_q |
		   r.gpu_top__DOT__g_queue__BRA__1__KET____DOT__u_queue__DOT__u_exec__DOT__err_irq_q << 1;
	l->q_cause[0] = r.gpu_top__DOT__g_queue__BRA__0__KET____DOT__u_queue__DOT__u_exec__DOT__err_cause_q;
	l->q_cause[1] = r.gpu_top__DOT__g_queue__BRA__1__KET____DOT__u_queue__DOT__u_exec__DOT__err_cause_q;
	l->q_addr[0] = r.gpu_top__DOT__g_queue__BRA__0__KET____DOT__u_queue__DOT__u_exec__DOT__err_addr_q;
	l->q_addr[1] = r.gpu_top__DOT__g_queue__BRA__1__KET____DOT__u_queue__DOT__u_exec__DOT__err_addr_q;
	l->mmu_fault_count = r.gpu_top__DOT__u_regs__DOT__fault_count_q;
	l->mmu_fault_status = r.gpu_top__DOT__u_regs__DOT__fault_status_q;
	l->mmu_fault_va = r.gpu_top__DOT__u_regs__DOT__fault_va_q;
}

inline void gm_trace_close(std::unique_ptr<gm_fst> &fst)
{
	if (!fst)
		return;
	fst->close();
	fst.reset();
}

#endif // GM_PINS_HPP
