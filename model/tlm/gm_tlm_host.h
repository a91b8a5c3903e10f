// SPDX-License-Identifier: MIT
//
// gm_tlm_host.h - the host stand-in of a virtual platform: the CPU side that
// runs the project's unchanged driver over TLM-2.0.
//
// gm_tlm_host is an initiator (socket, to the platform's interconnect) and
// an interrupt input.  Under it, gm.h's calls become transactions: register
// calls BAR0 reads and writes, aperture calls BAR1 accesses, backdoor calls
// the memory's debug transport, gm_step the host's own time (a quantum
// keeper: it waits once its local time passes the quantum), and
// gm_run_until_irq a wait on the interrupt.  Every call first brings the
// GPU to the host's time (TLM_IGNORE_COMMAND on BAR0), so the driver sees
// exactly the cycles of the C API.  A driver gets such a model with
// gm_create(backend GM_BACKEND_TLM):
//   - from the host's own thread (the constructor's @body, run in an
//     SC_THREAD of this module): the platform it sits in;
//   - from plain code outside any SystemC process (gpusim demo --backend
//     tlm): a platform gm_tlm_open builds (gpusim_tlm, gm_mem_tlm,
//     gm_tlm_bus, a host), whose time moves by sc_start() from the calls.
// The gpu and mem references are what a debugger sees (statistics, waves,
// model errors); no access of the driver takes that path.
#ifndef GM_TLM_HOST_H
#define GM_TLM_HOST_H

#include <cstdint>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include "gm_mem_tlm.h"
#include "gm_tlm_bus.h"
#include "gpusim_tlm.h"

extern "C" {
#include "gpu_hw.h"
}

// Where the example platforms put the BARs on the bus (the memory keeps the
// GPU's physical addresses: VRAM at GPU_VRAM_BASE, system memory at
// GPU_SYSMEM_BASE, both below 2 TiB).
#define GM_TLM_BAR0_BASE 0x100000000000ull
#define GM_TLM_BAR1_BASE 0x200000000000ull
#define GM_TLM_MEM_BYTES (2ull << 40)

class gm_tlm_host : public sc_core::sc_module {
public:
	tlm_utils::simple_initiator_socket<gm_tlm_host> socket;
	sc_core::sc_in<bool> irq;

	// @body(@ctx), if not NULL, runs in this module's SC_THREAD (the
	// driver; gm_create from there attaches to this host); its result is
	// result() and sc_stop() follows it (unless stop_at_end is false).  @mem may be NULL (another
	// memory: no memory statistics).
	gm_tlm_host(sc_core::sc_module_name name, gpusim_tlm &gpu, gm_mem_tlm *mem,
		    int (*body)(void *ctx) = nullptr, void *ctx = nullptr,
		    uint64_t bar0_base = GM_TLM_BAR0_BASE, uint64_t bar1_base = GM_TLM_BAR1_BASE,
		    const sc_core::sc_time &quantum = sc_core::sc_time(1, sc_core::SC_US));

	int result() const { return m_result; }
	// Whether sc_stop() follows @body (true): false when several hosts run.
	bool stop_at_end = true;

	// The io ops' work (gm_backend.h struct gm_io_ops), public for them.
	int reg(bool write, uint32_t off, uint32_t *val);
	int mem_access(bool write, uint64_t addr, void *buf, size_t len);
	int apt(int op, uint32_t off, void *buf, size_t len, uint8_t strb);
	int step(uint64_t cycles);
	int run_until_irq(uint64_t budget, uint64_t *used);
	struct gm *core();
	void mem_stats(struct gm_mem_stats *st);
	uint64_t mem_hash();
	bool main_mode() const { return m_main; }
	void set_main_mode(bool on) { m_main = on; }

private:
	gpusim_tlm &m_gpu;
	gm_mem_tlm *m_mem;
	int (*m_body)(void *);
	void *m_ctx;
	uint64_t m_bar0, m_bar1;
	sc_core::sc_time m_quantum, m_offset; // the host's time is sc_time_stamp() + m_offset
	bool m_main = false;                  // driven from outside the kernel (sc_start)
	bool m_stale = false;                 // a backdoor write since the last aperture read
	bool m_pause_armed = false;
	int m_result = 0;
	sc_core::sc_event m_wake;             // main mode: when the host wakes
	tlm::tlm_generic_payload m_txn;
	uint8_t m_be[8];

	void thread();
	void on_irq();
	int txn(tlm::tlm_command cmd, uint64_t addr, void *buf, size_t len, const uint8_t *be,
		unsigned be_len, gpusim_apt_ext *ext);
	int pull();
	void sync();
	void wait_host(const sc_core::sc_time &t, bool for_irq);
};

// The platform of the README's lines: gpusim_tlm, gm_mem_tlm, gm_tlm_bus and
// a host running @body (see gm_tlm_host), wired and mapped (BARs at
// GM_TLM_BAR0_BASE / GM_TLM_BAR1_BASE, memory at the GPU's addresses).
// gm_create builds one for a driver outside any SystemC process.
struct gm_tlm_platform {
	gpusim_tlm gpu;
	gm_mem_tlm mem;
	gm_tlm_bus bus;
	gm_tlm_host host;
	sc_core::sc_signal<bool> irq;

	explicit gm_tlm_platform(const struct gm_config &cfg, int (*body)(void *ctx) = nullptr,
				 void *ctx = nullptr);
};

#endif // GM_TLM_HOST_H
