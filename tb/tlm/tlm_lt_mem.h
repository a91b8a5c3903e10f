// SPDX-License-Identifier: MIT
//
// tlm_lt_mem.h - a small loosely-timed memory written the way the Accellera
// TLM-2.0 examples write theirs (lt, lt_dmi: a simple_target_socket,
// b_transport that checks the command, address, length, byte enables and
// streaming width, adds its latency to the delay and allows DMI; a DMI
// grant with the same latencies; debug transport), for the tests that put
// gpusim_tlm on a memory that is not the project's own.
//
// Storage is sparse (4 KiB pages allocated on first touch), so the region
// may be large; DMI is granted page by page.  invalidate_all() withdraws
// every grant (counted), as a target does when its memory is remapped.
#ifndef TLM_LT_MEM_H
#define TLM_LT_MEM_H

#include <cstdint>
#include <cstring>
#include <memory>
#include <unordered_map>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

class tlm_lt_mem : public sc_core::sc_module {
public:
	tlm_utils::simple_target_socket<tlm_lt_mem> socket;
	unsigned long transports = 0, grants = 0, invalidations = 0, debug = 0;

	tlm_lt_mem(sc_core::sc_module_name name, uint64_t size, const sc_core::sc_time &read_latency,
		   const sc_core::sc_time &write_latency)
		: sc_module(name), socket("socket"), m_size(size), m_rd(read_latency), m_wr(write_latency)
	{
		socket.register_b_transport(this, &tlm_lt_mem::b_transport);
		socket.register_get_direct_mem_ptr(this, &tlm_lt_mem::get_direct_mem_ptr);
		socket.register_transport_dbg(this, &tlm_lt_mem::transport_dbg);
	}

	void invalidate_all()
	{
		invalidations++;
		socket->invalidate_direct_mem_ptr(0, m_size - 1);
	}

private:
	static constexpr uint64_t page = 4096;
	uint64_t m_size;
	sc_core::sc_time m_rd, m_wr;
	std::unordered_map<uint64_t, std::unique_ptr<uint8_t[]>> m_pages;

	uint8_t *at(uint64_t a)
	{
		auto &p = m_pages[a / page];

		if (!p) {
			p.reset(new uint8_t[page]);
			std::memset(p.get(), 0, page);
		}
		return p.get() + a % page;
	}

	// The Accellera examples' checks, then the bytes one by one.
	void b_transport(tlm::tlm_generic_payload &t, sc_core::sc_time &delay)
	{
		uint64_t a = t.get_address();
		unsigned len = t.get_data_length(), sw = t.get_streaming_width();
		unsigned char *be = t.get_byte_enable_ptr();

		transports++;
		if (a >= m_size || len > m_size - a) {
			t.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
			return;
		}
		if (sw < len) {
			t.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
			return;
		}
		if (t.get_command() == tlm::TLM_IGNORE_COMMAND) {
			t.set_response_status(tlm::TLM_OK_RESPONSE);
			return;
		}
		for (unsigned i = 0; i < len; i++) {
			if (be && be[i % t.get_byte_enable_length()] != TLM_BYTE_ENABLED)
				continue;
			if (t.is_read())
				t.get_data_ptr()[i] = *at(a + i);
			else
				*at(a + i) = t.get_data_ptr()[i];
		}
		delay += t.is_read() ? m_rd : m_wr;
		t.set_dmi_allowed(true);
		t.set_response_status(tlm::TLM_OK_RESPONSE);
	}

	bool get_direct_mem_ptr(tlm::tlm_generic_payload &t, tlm::tlm_dmi &d)
	{
		uint64_t base = t.get_address() / page * page;

		if (base >= m_size)
			return false;
		grants++;
		d.allow_read_write();
		d.set_dmi_ptr(at(base));
		d.set_start_address(base);
		d.set_end_address(base + page - 1);
		d.set_read_latency(m_rd);
		d.set_write_latency(m_wr);
		return true;
	}

	unsigned int transport_dbg(tlm::tlm_generic_payload &t)
	{
		uint64_t a = t.get_address();
		unsigned len = t.get_data_length();

		debug++;
		if (a >= m_size || len > m_size - a)
			return 0;
		for (unsigned i = 0; i < len; i++) {
			if (t.is_read())
				t.get_data_ptr()[i] = *at(a + i);
			else if (t.is_write())
				*at(a + i) = t.get_data_ptr()[i];
		}
		return len;
	}
};

#endif // TLM_LT_MEM_H
