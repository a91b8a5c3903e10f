// SPDX-License-Identifier: MIT
//
// gm_pins.hpp - copy struct gm_pins into and out of a plain Verilated gpu_top
// (port names from rtl/top/gpu_top.sv).

#ifndef GM_PINS_HPP
#define GM_PINS_HPP

#include "gm_backend.h"

template <typename Top> inline void gm_pins_in(Top &t, const gm_pins &p)
{
	t.rst_ni = p.rst_n;
	t.reg_req_valid_i = p.reg_req_valid;
	t.reg_req_we_i = p.reg_req_we;
	t.reg_req_addr_i = p.reg_req_addr;
	t.reg_req_wdata_i = p.reg_req_wdata;
	t.mem_req_ready_i = p.mem_req_ready;
	t.mem_rsp_valid_i = p.mem_rsp_valid;
	t.mem_rsp_err_i = p.mem_rsp_err;
	t.mem_rsp_id_i = p.mem_rsp_id;
	for (unsigned i = 0; i < GM_BEAT_WORDS; i++)
		t.mem_rsp_rdata_i[i] = p.mem_rsp_rdata[i];
}

template <typename Top> inline void gm_pins_out(const Top &t, gm_pins &p)
{
	p.reg_req_ready = t.reg_req_ready_o;
	p.reg_rsp_valid = t.reg_rsp_valid_o;
	p.reg_rsp_err = t.reg_rsp_err_o;
	p.reg_rsp_rdata = t.reg_rsp_rdata_o;
	p.mem_req_valid = t.mem_req_valid_o;
	p.mem_req_we = t.mem_req_we_o;
	p.mem_req_id = t.mem_req_id_o;
	p.mem_req_addr = t.mem_req_addr_o;
	for (unsigned i = 0; i < GM_BEAT_WORDS; i++)
		p.mem_req_wdata[i] = t.mem_req_wdata_o[i];
	p.mem_req_wstrb = t.mem_req_wstrb_o;
	p.irq = t.irq_o;
}

#endif // GM_PINS_HPP
