// SPDX-License-Identifier: MIT
//
// gm_mem_tlm.h - the project's memory model (model/gm_mem.h: VRAM and system
// memory with latency, bandwidth, sparse storage) as a TLM-2.0 target.
//
// A beat-sized, aligned b_transport (what gpusim_tlm's memory master sends)
// is served by gm_mem at the cycle sc_time_stamp() + delay falls in: its
// effect at once, the delay increased to the cycle gm_mem makes its response
// due.  So gpusim_tlm over this target runs the C API's cycles exactly
// (gpusim_tlm keeps the in-flight limit and the one-response-a-cycle order;
// model/gm_port.h).  Any other read or write (length, byte enables,
// streaming width as TLM-2.0 defines them) is served byte by byte with the
// region's latency.  An address outside both regions answers
// TLM_ADDRESS_ERROR_RESPONSE (a cycle later, as gm_mem's decode error);
// TLM_IGNORE_COMMAND is accepted and does nothing.  Debug transport is
// the backdoor (no time); DMI is refused: the bandwidth model must see every
// access.
#ifndef GM_MEM_TLM_H
#define GM_MEM_TLM_H

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

extern "C" {
#include "gm.h"
}

class gm_mem_tlm : public sc_core::sc_module {
public:
	tlm_utils::simple_target_socket<gm_mem_tlm> socket;

	// The regions, latencies, bandwidths of @cfg (gm_config_default's:
	// 256 MiB each), a cycle of @clock_period.  Throws (SC_REPORT_ERROR)
	// on a configuration gm_mem refuses.
	gm_mem_tlm(sc_core::sc_module_name name, const struct gm_config &cfg,
		   const sc_core::sc_time &clock_period = sc_core::sc_time(1, sc_core::SC_NS));
	~gm_mem_tlm() override;
	gm_mem_tlm(const gm_mem_tlm &) = delete;
	gm_mem_tlm &operator=(const gm_mem_tlm &) = delete;

	// gm_mem_get_stats / gm_mem_hash of the store (what a debugger sees).
	void get_stats(struct gm_mem_stats *st) const;
	uint64_t hash() const;

private:
	struct gm_mem *m_mem = nullptr;
	sc_core::sc_time m_period;
	uint32_t m_latency_cycles;

	void b_transport(tlm::tlm_generic_payload &t, sc_core::sc_time &delay);
	unsigned int transport_dbg(tlm::tlm_generic_payload &t);
	bool get_dmi(tlm::tlm_generic_payload &t, tlm::tlm_dmi &d);
	bool beat(tlm::tlm_generic_payload &t, sc_core::sc_time &delay);
	bool bytes(tlm::tlm_generic_payload &t);
};

#endif // GM_MEM_TLM_H
