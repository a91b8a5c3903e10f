// SPDX-License-Identifier: MIT
//
// gm_tlm_bus.h - a simple loosely-timed interconnect with an address map,
// for the platform example and the tests (what a virtual platform's own
// router does).
//
// Initiators bind to tsock, targets to isock (in the order their map()
// calls name them).  A transaction wholly inside one window goes to that
// window's target, its address made relative to the window's base (unless
// the window keeps addresses whole), and comes back with its address
// restored; one outside every window, or across two, answers
// TLM_ADDRESS_ERROR_RESPONSE.  b_transport, debug transport and DMI pass
// through (a DMI region translated back to bus addresses, clipped to the
// window); an invalidation from a target goes to every initiator.  It holds
// no state during a call, so a target may call back into the bus from
// inside its b_transport (gpusim_tlm's BAR access reaches the memory through
// the same bus) without deadlock.
#ifndef GM_TLM_BUS_H
#define GM_TLM_BUS_H

#include <cstdint>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/multi_passthrough_initiator_socket.h>
#include <tlm_utils/multi_passthrough_target_socket.h>

class gm_tlm_bus : public sc_core::sc_module {
public:
	tlm_utils::multi_passthrough_target_socket<gm_tlm_bus> tsock;
	tlm_utils::multi_passthrough_initiator_socket<gm_tlm_bus> isock;

	explicit gm_tlm_bus(sc_core::sc_module_name name);

	// Window [@base, @base + @size) to the target bound @port-th to isock;
	// @rebase: the target sees offsets from @base (else bus addresses).
	// Windows must not overlap (SC_REPORT_ERROR).
	void map(uint64_t base, uint64_t size, unsigned port, bool rebase = true);

	// A window of the map.
	struct window {
		uint64_t base, size;
		unsigned port;
		bool rebase;
	};

private:
	std::vector<window> m_map;

	const window *decode(uint64_t a, uint64_t len) const;
	void b_transport(int id, tlm::tlm_generic_payload &t, sc_core::sc_time &delay);
	unsigned int transport_dbg(int id, tlm::tlm_generic_payload &t);
	bool get_dmi(int id, tlm::tlm_generic_payload &t, tlm::tlm_dmi &d);
	void invalidate(int port, sc_dt::uint64 start, sc_dt::uint64 end);
};

#endif // GM_TLM_BUS_H
