// SPDX-License-Identifier: MIT
//
// gpusim_tlm.h - the GPU as a SystemC TLM-2.0 module for a virtual platform.
//
// gpusim_tlm is gpu_top (the plain Verilated C++ model, one VerilatedContext
// per instance) behind TLM-2.0 sockets, a thin adapter over the C API's own
// model (model/gm.c): several instances live in one process.
//
//   bar0  target socket: the registers, 64 KiB; a read or write of one
//         aligned 32-bit register (length 4, all four bytes enabled);
//         TLM_IGNORE_COMMAND brings the GPU to the initiator's time.
//   bar1  target socket: the aperture window (GPU_APT_WINDOW_BYTES): reads and
//         writes of any length, byte enables and streaming width as TLM-2.0
//         defines them; a write returns once its bytes are in memory (or
//         failed), unless it carries gpusim_apt_ext (posted).
//   mem   initiator socket: the GPU's memory master, one beat
//         (GM_BEAT_BYTES) a request, b_transport with the delay annotated,
//         DMI where the target grants it, invalidation honoured; an error
//         response is the RTL's memory error (mem_rsp_err).
//   irq   sc_out<bool>: the interrupt line, written at the time it changes.
//
// Timing: loosely timed.  The RTL's cycle c is at time (c - reset_cycles) *
// clock period.  An SC_THREAD runs the RTL ahead of simulated time by up to
// the quantum (the module's and tlm_global_quantum's, the smaller) but
// never past the next activity the kernel has pending (another process's
// wake-up), so an initiator that wakes finds the GPU at or before its
// time; a BAR transaction brings the GPU to the initiator's time
// (sc_time_stamp() + delay) and returns the delay at the end of the access.
// So an initiator that keeps its own time (a quantum keeper) sees the
// cycles of the C API exactly.
//
// Errors are TLM response statuses, never aborts: TLM_ADDRESS_ERROR_RESPONSE
// (outside the BAR, a misaligned register, a register the RTL refuses, an
// aperture access that failed), TLM_BURST_ERROR_RESPONSE (a register access
// not 4 bytes, a streaming width shorter than a register, length 0),
// TLM_BYTE_ENABLE_ERROR_RESPONSE (a register with some bytes disabled),
// TLM_COMMAND_ERROR_RESPONSE (a posted read), TLM_GENERIC_ERROR_RESPONSE
// (the aperture made no progress; on BAR0's TLM_IGNORE_COMMAND: the clock
// stopped, an RTL assertion failed - gm_model_error).  After a model error
// register and aperture accesses still run their own cycles, as on the C
// API.  A refused transaction changes nothing and lets no time pass.
#ifndef GPUSIM_TLM_H
#define GPUSIM_TLM_H

#include <cstdint>
#include <deque>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>
#include <tlm_utils/tlm_quantumkeeper.h>

extern "C" {
#include "gm.h"
}

// An ignorable extension of a BAR1 transaction.  POST: an 8-byte aligned
// write that returns once the aperture took it (gm_apt_post64: when it lands
// or fails is known at the next flush).  FLUSH, on TLM_IGNORE_COMMAND: wait
// for every posted write (gm_apt_flush); TLM_ADDRESS_ERROR_RESPONSE if one
// failed.  A target that ignores it does a plain write (slower, same bytes).
struct gpusim_apt_ext : tlm::tlm_extension<gpusim_apt_ext> {
	enum kind { POST, FLUSH } what = POST;
	tlm::tlm_extension_base *clone() const override;
	void copy_from(const tlm::tlm_extension_base &e) override;
};

// The GPU's quantum keeper: its next sync point is the nearest of the
// global quantum's boundary, the module's own quantum and the next activity
// the kernel has pending (a process that wakes then must find the GPU at
// its time, not past it).
class gpusim_qk : public tlm_utils::tlm_quantumkeeper {
public:
	sc_core::sc_time quantum;    // the module's (0: the global quantum's only)
	sc_core::sc_time local_quantum; // what the last reset() computed

protected:
	sc_core::sc_time compute_local_quantum() override;
};

class gpusim_tlm : public sc_core::sc_module {
public:
	tlm_utils::simple_target_socket<gpusim_tlm> bar0;
	tlm_utils::simple_target_socket<gpusim_tlm> bar1;
	tlm_utils::simple_initiator_socket<gpusim_tlm> mem;
	sc_core::sc_out<bool> irq;

	static constexpr uint64_t bar0_bytes = 0x10000;

	// @cfg: reset_cycles, max_outstanding (the memory port's requests in
	// flight) and waves of struct gm_config; its memory sizes and latencies
	// are the memory target's business.  @clock_period one RTL cycle,
	// @quantum how far the GPU may run ahead (0: the global quantum's).
	// Throws (SC_REPORT_ERROR) when the model cannot be made.
	gpusim_tlm(sc_core::sc_module_name name, const struct gm_config &cfg,
		   const sc_core::sc_time &clock_period = sc_core::sc_time(1, sc_core::SC_NS),
		   const sc_core::sc_time &quantum = sc_core::sc_time(1, sc_core::SC_US));
	~gpusim_tlm() override;
	gpusim_tlm(const gpusim_tlm &) = delete;
	gpusim_tlm &operator=(const gpusim_tlm &) = delete;

	// The RTL's cycle at time @t, and the time of cycle @c.
	uint64_t cycle_at(const sc_core::sc_time &t) const;
	sc_core::sc_time time_of(uint64_t c) const;
	const sc_core::sc_time &clock_period() const { return m_period; }

	// What a debugger sees: the C API model of the GPU brought to time @t
	// (statistics, waves, model errors, the interrupt pin).  Not a bus path.
	struct gm *model_at(const sc_core::sc_time &t);

private:
	struct edge {
		uint64_t cycle;
		bool level;
	};

	struct gm *m_core = nullptr;
	sc_core::sc_time m_period;
	gpusim_qk m_qk;
	uint64_t m_c0 = 0;            // the cycle at time 0 (after reset)
	bool m_irq_seen = false;      // the last level recorded in m_edges
	std::deque<edge> m_edges;     // irq changes not yet on the port
	sc_core::sc_event m_irq_ev;
	unsigned m_spins = 0;         // zero-time waits in a row (run)
	// the memory port's transaction and DMI region
	tlm::tlm_generic_payload m_txn;
	uint8_t m_be[64];
	tlm::tlm_dmi m_dmi;
	bool m_dmi_ok = false;

	void run();
	void irq_drive();
	uint64_t advance(uint64_t cycles, bool stop_at_edge);
	void catch_up(const sc_core::sc_time &t);
	void note_irq();
	void finish(tlm::tlm_generic_payload &t, sc_core::sc_time &delay, int st);

	void bar0_b_transport(tlm::tlm_generic_payload &t, sc_core::sc_time &delay);
	void bar1_b_transport(tlm::tlm_generic_payload &t, sc_core::sc_time &delay);
	unsigned int no_dbg(tlm::tlm_generic_payload &t);
	bool no_dmi(tlm::tlm_generic_payload &t, tlm::tlm_dmi &d);
	int apt_piece(tlm::tlm_generic_payload &t, uint64_t addr, uint8_t *buf, unsigned n,
		      unsigned pos, bool post);
	void invalidate(sc_dt::uint64 start, sc_dt::uint64 end);

	static void xfer_cb(void *ctx, uint64_t now, const struct gm_mem_req *req,
			    struct gm_mem_rsp *rsp, uint64_t *due);
	void xfer(uint64_t now, const struct gm_mem_req *req, struct gm_mem_rsp *rsp, uint64_t *due);
	bool xfer_dmi(uint64_t now, const struct gm_mem_req *req, struct gm_mem_rsp *rsp,
		      uint64_t *due);
};

#endif // GPUSIM_TLM_H
