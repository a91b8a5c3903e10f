// SPDX-License-Identifier: MIT
//
// gm_pins.hpp - what the backends share: copying struct gm_pins into and out
// of a plain Verilated gpu_top's root, which holds the ports (names from
// rtl/top/gpu_top.sv; the model class's port members are references to
// them, and through a reference each copy reloads it, as a byte stored
// may alias it: about 35 instructions a cycle more), and
// opening and closing its FST trace.  A model verilated without trace
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
#include "gm_status.h"

// A beat's words as one copy (a loop of word copies is not vectorised:
// the pins and the model might alias).
template <typename Root> inline void gm_pins_in(Root &t, const gm_pins &p)
{
	static_assert(sizeof(t.mem_rsp_rdata_i) == sizeof(p.mem_rsp_rdata) &&
			      sizeof(t.mem_req_wdata_o) == sizeof(p.mem_req_wdata),
		      "a beat's pins are GM_BEAT_WORDS words");
	t.rst_ni = p.rst_n;
	t.reg_req_valid_i = p.reg_req_valid;
	t.reg_req_we_i = p.reg_req_we;
	t.reg_req_addr_i = p.reg_req_addr;
	t.reg_req_wdata_i = p.reg_req_wdata;
	t.mem_req_ready_i = p.mem_req_ready;
	t.mem_rsp_valid_i = p.mem_rsp_valid;
	t.mem_rsp_err_i = p.mem_rsp_err;
	t.mem_rsp_id_i = p.mem_rsp_id;
	// gm.c changes the data pins only with their valid: copied with it
	if (p.mem_rsp_valid)
		std::memcpy(t.mem_rsp_rdata_i.data(), p.mem_rsp_rdata, sizeof(p.mem_rsp_rdata));
	t.apt_req_valid_i = p.apt_req_valid;
	t.apt_req_we_i = p.apt_req_we;
	t.apt_req_addr_i = p.apt_req_addr;
	if (p.apt_req_valid)
		for (unsigned i = 0; i < 2 * GM_APT_CHUNK_WORDS; i++)
			t.apt_req_wdata_i[i] = (uint32_t)(p.apt_req_wdata[i / 2] >> (32 * (i % 2)));
	t.apt_req_wstrb_i = p.apt_req_wstrb;
	t.mm_inflight_i = p.mm_inflight;
	t.mm_refused_i = p.mm_refused;
	t.mm_rsp_latency_i = p.mm_rsp_latency;
	t.mm_vram_backlog_i = p.mm_vram_backlog;
	t.mm_sys_backlog_i = p.mm_sys_backlog;
}

template <typename Root> inline void gm_pins_out(const Root &t, gm_pins &p)
{
	p.reg_req_ready = t.reg_req_ready_o;
	p.reg_rsp_valid = t.reg_rsp_valid_o;
	p.reg_rsp_err = t.reg_rsp_err_o;
	p.reg_rsp_rdata = t.reg_rsp_rdata_o;
	p.mem_req_valid = t.mem_req_valid_o;
	p.mem_req_we = t.mem_req_we_o;
	p.mem_req_id = t.mem_req_id_o;
	p.mem_req_addr = t.mem_req_addr_o;
	// gm.c reads the data pins only with their valid
	if (p.mem_req_valid)
		std::memcpy(p.mem_req_wdata, &t.mem_req_wdata_o[0], sizeof(p.mem_req_wdata));
	p.mem_req_wstrb = t.mem_req_wstrb_o;
	p.irq = t.irq_o;
	p.apt_req_ready = t.apt_req_ready_o;
	p.apt_rsp_valid = t.apt_rsp_valid_o;
	p.apt_rsp_err = t.apt_rsp_err_o;
	for (unsigned i = 0; p.apt_rsp_valid && i < GM_APT_CHUNK_WORDS; i++)
		p.apt_rsp_rdata[i] = (uint64_t)t.apt_rsp_rdata_o[2 * i] |
				     (uint64_t)t.apt_rsp_rdata_o[2 * i + 1] << 32;
}

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

inline void gm_trace_close(std::unique_ptr<gm_fst> &fst)
{
	if (!fst)
		return;
	fst->close();
	fst.reset();
}

#endif // GM_PINS_HPP
