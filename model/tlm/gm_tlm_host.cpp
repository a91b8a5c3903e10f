// SPDX-License-Identifier: MIT
//
// gm_tlm_host.cpp - the host stand-in (gm_tlm_host.h): gm.h's calls as TLM-2.0
// transactions, the TLM backend's struct gm_io_ops, and the platform
// gm_create builds for a driver outside any SystemC process.

#include <cstdlib>
#include <cstring>
#include <new>

#include "gm_tlm_host.h"

extern "C" {
#include "gm_backend.h"
#include "gm_priv.h"
}

using namespace sc_core;
using namespace tlm;

gm_tlm_host::gm_tlm_host(sc_module_name name, gpusim_tlm &gpu, gm_mem_tlm *mem, int (*body)(void *),
			 void *ctx, uint64_t bar0_base, uint64_t bar1_base, const sc_time &quantum)
	: sc_module(name), socket("socket"), irq("irq"), m_gpu(gpu), m_mem(mem), m_body(body),
	  m_ctx(ctx), m_bar0(bar0_base), m_bar1(bar1_base), m_quantum(quantum)
{
	SC_HAS_PROCESS(gm_tlm_host);
	SC_THREAD(thread);
	SC_METHOD(on_irq);
	sensitive << irq.pos();
	dont_initialize();
}

void gm_tlm_host::thread()
{
	if (!m_body)
		return;
	m_result = m_body(m_ctx);
	sync();
	if (stop_at_end)
		sc_stop();
}

// Main mode: a run that waits for the interrupt ends at its rising edge.
void gm_tlm_host::on_irq()
{
	if (m_pause_armed && irq.read()) {
		m_wake.notify(SC_ZERO_TIME); // the host runs now: the GPU stays here
		sc_pause();
	}
}

// Bring the kernel to the host's time: wait (a thread) or sc_start (main).
void gm_tlm_host::sync()
{
	sc_time t = m_offset;

	m_offset = SC_ZERO_TIME;
	if (m_main) {
		m_wake.cancel();
		m_wake.notify(t); // the GPU runs ahead no further than this
		sc_start(t);
	} else if (t != SC_ZERO_TIME) {
		wait(t);
	}
}

// Let @t pass (from the host's time, the kernel at it), or less if
// @for_irq and the interrupt rises first; the host's time is then the
// kernel's.
void gm_tlm_host::wait_host(const sc_time &t, bool for_irq)
{
	if (m_main) {
		m_wake.cancel();
		m_wake.notify(t);
		m_pause_armed = for_irq;
		sc_start(t);
		m_pause_armed = false;
		m_wake.cancel();
	} else if (for_irq) {
		wait(t, irq.posedge_event());
	} else {
		wait(t);
	}
	m_offset = SC_ZERO_TIME;
}

static int status_of(const tlm_generic_payload &t)
{
	switch (t.get_response_status()) {
	case TLM_OK_RESPONSE:
		return GM_OK;
	case TLM_ADDRESS_ERROR_RESPONSE:
		return GM_ERR_ADDR;
	default:
		return GM_ERR_HW;
	}
}

// One b_transport at the host's time; the host's time moves by its delay
// (a quantum keeper: past the quantum, sync).
int gm_tlm_host::txn(tlm_command cmd, uint64_t addr, void *buf, size_t len, const uint8_t *be,
		     unsigned be_len, gpusim_apt_ext *ext)
{
	int st;

	m_txn.set_command(cmd);
	m_txn.set_address(addr);
	m_txn.set_data_ptr(static_cast<unsigned char *>(buf));
	m_txn.set_data_length((unsigned)len);
	m_txn.set_streaming_width((unsigned)len);
	m_txn.set_byte_enable_ptr(const_cast<unsigned char *>(be));
	m_txn.set_byte_enable_length(be ? be_len : 0);
	m_txn.set_dmi_allowed(false);
	m_txn.set_response_status(TLM_INCOMPLETE_RESPONSE);
	if (ext)
		m_txn.set_extension(ext);
	socket->b_transport(m_txn, m_offset);
	if (ext)
		m_txn.clear_extension(ext);
	st = status_of(m_txn);
	if (m_offset >= m_quantum)
		sync();
	return st;
}

// The GPU to the host's time (TLM_IGNORE_COMMAND on BAR0): GM_OK, or
// GM_ERR_HW when its clock stopped (gm_model_error).
int gm_tlm_host::pull()
{
	uint32_t d = 0;

	return txn(TLM_IGNORE_COMMAND, m_bar0, &d, 4, nullptr, 0, nullptr);
}

int gm_tlm_host::reg(bool write, uint32_t off, uint32_t *val)
{
	return txn(write ? TLM_WRITE_COMMAND : TLM_READ_COMMAND, m_bar0 + off, val, 4, nullptr, 0,
		   nullptr);
}

int gm_tlm_host::mem_access(bool write, uint64_t addr, void *buf, size_t len)
{
	(void)pull(); // the memory as the GPU left it at the host's time
	if (write)
		m_stale = true; // the aperture's prefetched beat may hold these bytes
	m_txn.set_command(write ? TLM_WRITE_COMMAND : TLM_READ_COMMAND);
	m_txn.set_address(addr);
	m_txn.set_data_ptr(static_cast<unsigned char *>(buf));
	m_txn.set_data_length((unsigned)len);
	m_txn.set_streaming_width((unsigned)len);
	m_txn.set_byte_enable_ptr(nullptr);
	m_txn.set_byte_enable_length(0);
	return socket->transport_dbg(m_txn) == len ? GM_OK : GM_ERR_ADDR;
}

int gm_tlm_host::apt(int op, uint32_t off, void *buf, size_t len, uint8_t strb)
{
	gpusim_apt_ext ext;
	unsigned n = 0;
	int st;

	if ((op == GM_IO_APT_READ64 || (op == GM_IO_APT_READ && len)) && m_stale) {
		// drop the prefetch, as gm_apt.c does after a backdoor write
		uint32_t v = GPU_APT_FLUSH_PF(1);

		if (reg(true, GPU_REG_APT_FLUSH, &v) != GM_OK)
			return GM_ERR_HW;
		m_stale = false;
	}
	if (op == GM_IO_APT_READ && !len)
		return GM_OK;
	if (op == GM_IO_APT_FLUSH || (op == GM_IO_APT_WRITE && !len)) { // a write of nothing flushes
		uint32_t d = 0;

		ext.what = gpusim_apt_ext::FLUSH;
		return txn(TLM_IGNORE_COMMAND, m_bar1, &d, 4, nullptr, 0, &ext);
	}
	if ((op == GM_IO_APT_WRITE64 || op == GM_IO_APT_POST64) && strb != 0xffu)
		for (n = 0; n < 8; n++)
			m_be[n] = strb >> n & 1u ? TLM_BYTE_ENABLED : TLM_BYTE_DISABLED;
	ext.what = gpusim_apt_ext::POST;
	st = txn(op == GM_IO_APT_READ64 || op == GM_IO_APT_READ ? TLM_READ_COMMAND : TLM_WRITE_COMMAND,
		 m_bar1 + off, buf, len, n ? m_be : nullptr, n, op == GM_IO_APT_POST64 ? &ext : nullptr);
	return st;
}

int gm_tlm_host::step(uint64_t cycles)
{
	m_offset += sc_time::from_value(m_gpu.clock_period().value() * cycles);
	if (m_offset >= m_quantum)
		sync(); // the GPU's own thread runs these cycles
	return pull();
}

int gm_tlm_host::run_until_irq(uint64_t budget, uint64_t *used)
{
	int live = pull();
	struct gm *g = core();
	uint64_t c0 = gm_cycles(g), n = 0;
	int st;

	if (gm_irq(g)) {
		st = GM_OK;
	} else if (!budget) {
		st = GM_ERR_TIMEOUT;
	} else if (live != GM_OK) {
		st = GM_ERR_HW;
	} else {
		sync();
		wait_host(sc_time::from_value(m_gpu.clock_period().value() * budget), true);
		live = pull();
		n = gm_cycles(g) - c0;
		st = gm_irq(g) ? GM_OK : live != GM_OK ? GM_ERR_HW : GM_ERR_TIMEOUT;
	}
	if (used)
		*used = n;
	return st;
}

struct gm *gm_tlm_host::core()
{
	(void)pull();
	return m_gpu.model_at(sc_time_stamp() + m_offset);
}

void gm_tlm_host::mem_stats(gm_mem_stats *st)
{
	gm_mem_stats ms;

	if (!m_mem)
		return; // another memory: the port's counts stand
	m_mem->get_stats(&ms);
	st->vram = ms.vram;
	st->sys = ms.sys;
	st->err_reqs = ms.err_reqs;
}

uint64_t gm_tlm_host::mem_hash()
{
	return m_mem ? m_mem->hash() : 0;
}

// ------------------------------------------------------- the TLM backend

gm_tlm_platform::gm_tlm_platform(const gm_config &cfg, int (*body)(void *), void *ctx)
	: gpu("gpu", cfg), mem("mem", cfg), bus("bus"), host("host", gpu, &mem, body, ctx), irq("irq")
{
	host.socket.bind(bus.tsock);
	gpu.mem.bind(bus.tsock);
	bus.isock.bind(gpu.bar0);
	bus.isock.bind(gpu.bar1);
	bus.isock.bind(mem.socket);
	bus.map(GM_TLM_BAR0_BASE, gpusim_tlm::bar0_bytes, 0);
	bus.map(GM_TLM_BAR1_BASE, GPU_APT_WINDOW_BYTES, 1);
	bus.map(0, GM_TLM_MEM_BYTES, 2, false);
	gpu.irq(irq);
	host.irq(irq);
}

namespace {

gm_tlm_host *host_of(void *io)
{
	return static_cast<gm_tlm_host *>(io);
}

void io_destroy(void *io)
{
	struct gm *g = host_of(io)->core();

	(void)gm_wave_close(g); // the platform stays: the kernel cannot elaborate another
}

int io_reg(void *io, bool write, uint32_t off, uint32_t *val)
{
	return host_of(io)->reg(write, off, val);
}

int io_mem(void *io, bool write, uint64_t addr, void *buf, size_t len)
{
	return host_of(io)->mem_access(write, addr, buf, len);
}

int io_apt(void *io, enum gm_io_apt op, uint32_t off, void *buf, size_t len, uint8_t strb)
{
	return host_of(io)->apt(op, off, buf, len, strb);
}

int io_step(void *io, uint64_t cycles)
{
	return host_of(io)->step(cycles);
}

int io_run_until_irq(void *io, uint64_t budget, uint64_t *used)
{
	return host_of(io)->run_until_irq(budget, used);
}

bool io_irq(void *io)
{
	return gm_irq(host_of(io)->core());
}

uint64_t io_cycles(void *io)
{
	return gm_cycles(host_of(io)->core());
}

struct gm *io_core(void *io)
{
	return host_of(io)->core();
}

void io_mem_stats(void *io, gm_mem_stats *st)
{
	host_of(io)->mem_stats(st);
}

uint64_t io_mem_hash(void *io)
{
	return host_of(io)->mem_hash();
}

const gm_io_ops host_ops = {
	io_destroy, io_reg,  io_mem,	io_apt,	      io_step,	    io_run_until_irq,
	io_irq,	    io_cycles, io_core, io_mem_stats, io_mem_hash,
};

} // namespace

extern "C" int gm_tlm_open(const struct gm_config *cfg, const struct gm_io_ops **ops, void **io)
{
	sc_process_handle h;

	setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
	h = sc_get_current_process_handle();
	if (h.valid()) { // a driver in a host's thread: that host's platform
		for (sc_object *o = h.get_parent_object(); o; o = o->get_parent_object())
			if (auto *host = dynamic_cast<gm_tlm_host *>(o)) {
				*ops = &host_ops;
				*io = host;
				return GM_OK;
			}
		return GM_ERR_UNSUPPORTED;
	}
	if (sc_get_status() != SC_ELABORATION)
		return GM_ERR_UNSUPPORTED; // the kernel has elaborated its platform already
	// One per process (the kernel elaborates once); it lives until the
	// process ends.
	gm_tlm_platform *p = new (std::nothrow) gm_tlm_platform(*cfg);
	if (!p)
		return GM_ERR_NO_MEM;
	p->host.set_main_mode(true);
	sc_get_curr_simcontext()->initialize(true); // elaborate; no process runs yet
	*ops = &host_ops;
	*io = &p->host;
	return GM_OK;
}
