// SPDX-License-Identifier: MIT
//
// gm_mem_tlm.cpp - gm_mem behind a TLM-2.0 target socket (gm_mem_tlm.h).

#include <cstring>

#include "gm_mem_tlm.h"

extern "C" {
#include "gm_backend.h"
#include "gm_priv.h"
}

using namespace sc_core;
using namespace tlm;

gm_mem_tlm::gm_mem_tlm(sc_module_name name, const gm_config &cfg, const sc_time &clock_period)
	: sc_module(name), socket("socket"), m_period(clock_period),
	  m_latency_cycles(cfg.vram_latency_cycles)
{
	gm_mem_cfg mc;

	gm_mem_cfg_from(&cfg, &mc);
	if (m_period == SC_ZERO_TIME || gm_mem_create(&mc, &m_mem) != GM_OK)
		SC_REPORT_ERROR("gm_mem_tlm", "cannot create the memory model (bad gm_config?)");
	socket.register_b_transport(this, &gm_mem_tlm::b_transport);
	socket.register_transport_dbg(this, &gm_mem_tlm::transport_dbg);
	socket.register_get_direct_mem_ptr(this, &gm_mem_tlm::get_dmi);
}

gm_mem_tlm::~gm_mem_tlm()
{
	gm_mem_destroy(m_mem);
}

void gm_mem_tlm::get_stats(gm_mem_stats *st) const
{
	gm_mem_get_stats(m_mem, st);
}

uint64_t gm_mem_tlm::hash() const
{
	return gm_mem_hash(m_mem);
}

// A whole aligned beat: gm_mem's port path, timed.  false: not such a beat.
bool gm_mem_tlm::beat(tlm_generic_payload &t, sc_time &delay)
{
	uint64_t now = (sc_time_stamp() + delay).value() / m_period.value(), due = now;
	const unsigned char *be = t.get_byte_enable_ptr();
	gm_mem_req req;
	gm_mem_rsp rsp;

	if (t.get_data_length() != GM_BEAT_BYTES || t.get_streaming_width() != GM_BEAT_BYTES ||
	    t.get_address() % GM_BEAT_BYTES || (be && (t.is_read() || t.get_byte_enable_length() != GM_BEAT_BYTES)))
		return false;
	req.id = 0;
	req.addr = t.get_address();
	req.write = t.is_write();
	req.wstrb = 0;
	if (req.write) {
		std::memcpy(req.wdata, t.get_data_ptr(), GM_BEAT_BYTES);
		req.wstrb = (1ull << GM_BEAT_BYTES) - 1;
		for (unsigned i = 0; be && i < GM_BEAT_BYTES; i++)
			if (be[i] != TLM_BYTE_ENABLED)
				req.wstrb &= ~(1ull << i);
	}
	if (gm_mem_serve(m_mem, now, &req, &rsp, &due) != GM_OK) {
		t.set_response_status(TLM_GENERIC_ERROR_RESPONSE); // out of host memory
		return true;
	}
	if (!req.write && !rsp.err)
		std::memcpy(t.get_data_ptr(), rsp.rdata, GM_BEAT_BYTES);
	delay += sc_time::from_value(m_period.value() * (due - now));
	t.set_response_status(rsp.err ? TLM_ADDRESS_ERROR_RESPONSE : TLM_OK_RESPONSE);
	return true;
}

// Any other access, byte by byte (byte enables, streaming width); false
// when a byte lies outside both regions (nothing was written then).
bool gm_mem_tlm::bytes(tlm_generic_payload &t)
{
	uint64_t a = t.get_address();
	unsigned len = t.get_data_length(), sw = t.get_streaming_width();
	const unsigned char *be = t.get_byte_enable_ptr();
	unsigned bel = t.get_byte_enable_length();
	uint8_t *d = t.get_data_ptr();

	if (!sw || !gm_mem_valid_range(m_mem, a, len < sw ? len : sw))
		return false;
	for (unsigned i = 0; i < len; i++) {
		uint64_t at = a + i % sw;

		if (be && be[i % bel] != TLM_BYTE_ENABLED)
			continue;
		if (t.is_read() ? gm_mem_read(m_mem, at, d + i, 1) : gm_mem_write(m_mem, at, d + i, 1))
			return false;
	}
	return true;
}

void gm_mem_tlm::b_transport(tlm_generic_payload &t, sc_time &delay)
{
	if (t.get_command() == TLM_IGNORE_COMMAND) {
		t.set_response_status(TLM_OK_RESPONSE);
		return;
	}
	if (t.get_byte_enable_ptr() && !t.get_byte_enable_length()) {
		t.set_response_status(TLM_BYTE_ENABLE_ERROR_RESPONSE);
		return;
	}
	if (beat(t, delay))
		return;
	if (!t.get_data_length() || !t.get_streaming_width()) {
		t.set_response_status(TLM_BURST_ERROR_RESPONSE);
		return;
	}
	if (!bytes(t)) {
		delay += m_period;
		t.set_response_status(TLM_ADDRESS_ERROR_RESPONSE);
		return;
	}
	delay += sc_time::from_value(m_period.value() * m_latency_cycles);
	t.set_response_status(TLM_OK_RESPONSE);
}

unsigned int gm_mem_tlm::transport_dbg(tlm_generic_payload &t)
{
	uint64_t a = t.get_address();
	unsigned len = t.get_data_length();
	int st;

	if (t.get_command() == TLM_IGNORE_COMMAND)
		return 0;
	if (t.get_byte_enable_ptr() || t.get_streaming_width() < len)
		return bytes(t) ? len : 0;
	st = t.is_read() ? gm_mem_read(m_mem, a, t.get_data_ptr(), len)
			 : gm_mem_write(m_mem, a, t.get_data_ptr(), len);
	return st == GM_OK ? len : 0;
}

bool gm_mem_tlm::get_dmi(tlm_generic_payload &t, tlm_dmi &d)
{
	(void)t;
	d.allow_none(); // every access must be timed by the bandwidth model
	return false;
}
