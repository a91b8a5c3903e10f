// SPDX-License-Identifier: MIT
//
// gpusim_tlm.cpp - the GPU as a SystemC TLM-2.0 module (gpusim_tlm.h): a thin
// adapter over the C API's model, whose memory port is this module's
// initiator socket (gm_create_port, model/gm_port.h).
//
// Why the plain C++ model and not Verilator's --sc build: an --sc model
// is a module with sc_in/sc_out pins that the kernel evaluates on every
// clock edge (the systemc backend: two kernel crossings and sc_bv copies a
// cycle, 0.22x the speed of the plain model).  A loosely-timed module wants
// the opposite: run many cycles inside one process activation and meet the
// kernel only at a quantum, a transaction or an interrupt.  The plain model
// is a C++ object clocked by a function call, has its own VerilatedContext
// (several GPUs per process; an --sc model takes the thread's current one),
// and is the model the C API's verilator backend already runs, so the
// cycles are the same by construction.

#include <algorithm>
#include <cstring>

#include "gpusim_tlm.h"

extern "C" {
#include "gm_priv.h"
#include "gpu_hw.h"
}

using namespace sc_core;
using namespace tlm;

tlm_extension_base *gpusim_apt_ext::clone() const
{
	return new gpusim_apt_ext(*this);
}

void gpusim_apt_ext::copy_from(const tlm_extension_base &e)
{
	what = static_cast<const gpusim_apt_ext &>(e).what;
}

gpusim_tlm::gpusim_tlm(sc_module_name name, const gm_config &cfg, const sc_time &clock_period,
		       const sc_time &quantum)
	: sc_module(name), bar0("bar0"), bar1("bar1"), mem("mem"), irq("irq"),
	  m_period(clock_period)
{
	gm_config c = cfg;

	c.backend = GM_BACKEND_VERILATOR;
	if (m_period == SC_ZERO_TIME)
		SC_REPORT_ERROR("gpusim_tlm", "clock period 0");
	if (gm_create_port(&c, xfer_cb, this, &m_core) != GM_OK)
		SC_REPORT_ERROR("gpusim_tlm", "cannot create the GPU model (bad gm_config?)");
	m_c0 = gm_cycles(m_core);
	m_qk.quantum = quantum;
	m_irq_seen = gm_irq(m_core);
	bar0.register_b_transport(this, &gpusim_tlm::bar0_b_transport);
	bar0.register_transport_dbg(this, &gpusim_tlm::no_dbg);
	bar0.register_get_direct_mem_ptr(this, &gpusim_tlm::no_dmi);
	bar1.register_b_transport(this, &gpusim_tlm::bar1_b_transport);
	bar1.register_transport_dbg(this, &gpusim_tlm::no_dbg);
	bar1.register_get_direct_mem_ptr(this, &gpusim_tlm::no_dmi);
	mem.register_invalidate_direct_mem_ptr(this, &gpusim_tlm::invalidate);
	SC_HAS_PROCESS(gpusim_tlm);
	SC_THREAD(run);
	SC_METHOD(irq_drive);
	sensitive << m_irq_ev;
	dont_initialize();
}

gpusim_tlm::~gpusim_tlm()
{
	gm_destroy(m_core);
}

uint64_t gpusim_tlm::cycle_at(const sc_time &t) const
{
	return m_c0 + t.value() / m_period.value();
}

sc_time gpusim_tlm::time_of(uint64_t c) const
{
	return sc_time::from_value(m_period.value() * (c - m_c0));
}

struct gm *gpusim_tlm::model_at(const sc_time &t)
{
	catch_up(t);
	return m_core;
}

// ---------------------------------------------------------------- the clock

static bool irq_differs(struct gm *g, void *ctx)
{
	return gm_irq(g) != *static_cast<bool *>(ctx);
}

// Record an interrupt change at the current cycle and have irq_drive put it
// on the port at its time.
void gpusim_tlm::note_irq()
{
	bool level = gm_irq(m_core);
	sc_time t, now = sc_time_stamp();

	if (level == m_irq_seen)
		return;
	m_irq_seen = level;
	m_edges.push_back({ gm_cycles(m_core), level });
	t = time_of(m_edges.front().cycle);
	m_irq_ev.notify(t > now ? t - now : SC_ZERO_TIME);
}

void gpusim_tlm::irq_drive()
{
	sc_time now = sc_time_stamp();
	bool write = false, level = false;

	while (!m_edges.empty() && time_of(m_edges.front().cycle) <= now) {
		level = m_edges.front().level;
		write = true;
		m_edges.pop_front();
	}
	if (write)
		irq.write(level);
	if (!m_edges.empty())
		m_irq_ev.notify(time_of(m_edges.front().cycle) - now);
}

// Run up to @cycles cycles (fewer once an RTL assertion failed), recording
// each interrupt change; with @stop_at_edge, stop just after the first.
// The cycles run.
uint64_t gpusim_tlm::advance(uint64_t cycles, bool stop_at_edge)
{
	uint64_t done = 0;

	while (done < cycles) {
		uint64_t used = 0;
		int st = gm_run_until(m_core, irq_differs, &m_irq_seen, cycles - done, &used);

		done += used;
		if (st != GM_OK)
			break; /* the budget ran out, or the model stopped */
		note_irq();
		if (stop_at_edge)
			break;
	}
	return done;
}

void gpusim_tlm::catch_up(const sc_time &t)
{
	uint64_t want = cycle_at(t), c = gm_cycles(m_core);

	if (c < want)
		(void)advance(want - c, false);
}

sc_time gpusim_qk::compute_local_quantum()
{
	sc_time q = std::min(sc_time_to_pending_activity(), sc_time(1, SC_MS)); // 1 ms: no quantum at all

	if (quantum != SC_ZERO_TIME)
		q = std::min(q, quantum);
	if (get_global_quantum() != SC_ZERO_TIME)
		q = std::min(q, tlm_quantumkeeper::compute_local_quantum());
	local_quantum = q;
	return q;
}

// The GPU's own process: run ahead of simulated time to the quantum
// keeper's sync point, stop at an interrupt change (irq_drive puts it on
// the port at its time), sync.  A transaction may have brought the GPU
// ahead already; its local time is then where it is.
void gpusim_tlm::run()
{
	for (;;) {
		sc_time now = sc_time_stamp();
		uint64_t c = gm_cycles(m_core), limit;
		bool stopped = gm_model_error(m_core, nullptr, nullptr);

		m_qk.reset();
		limit = cycle_at(now + m_qk.local_quantum);
		if (c < limit && !stopped)
			(void)advance(limit - c, true);
		c = gm_cycles(m_core);
		if (time_of(c) > now) {
			m_spins = 0;
			m_qk.set(time_of(c) - now);
			m_qk.sync();
		} else if (stopped) {
			wait(); // the clock stopped: nothing more to run (no static sensitivity)
		} else if (++m_spins < 8) {
			wait(SC_ZERO_TIME); // another process runs at this time first
		} else {
			m_spins = 0;
			wait(m_period); // and keeps running: fall a cycle behind rather than spin
		}
	}
}

// -------------------------------------------------------------- memory port

void gpusim_tlm::xfer_cb(void *ctx, uint64_t now, const gm_mem_req *req, gm_mem_rsp *rsp,
			 uint64_t *due)
{
	static_cast<gpusim_tlm *>(ctx)->xfer(now, req, rsp, due);
}

// The response of a DMI access is due its latency later (at least a cycle).
bool gpusim_tlm::xfer_dmi(uint64_t now, const gm_mem_req *req, gm_mem_rsp *rsp, uint64_t *due)
{
	uint64_t a = req->addr, lat;
	uint8_t *p;

	if (!m_dmi_ok || a < m_dmi.get_start_address() || a + GM_BEAT_BYTES - 1 > m_dmi.get_end_address() ||
	    !(req->write ? m_dmi.is_write_allowed() : m_dmi.is_read_allowed()))
		return false;
	p = m_dmi.get_dmi_ptr() + (a - m_dmi.get_start_address());
	if (req->write) {
		for (unsigned i = 0; i < GM_BEAT_BYTES; i++)
			if (req->wstrb >> i & 1u)
				p[i] = req->wdata[i];
		lat = m_dmi.get_write_latency().value();
	} else {
		std::memcpy(rsp->rdata, p, GM_BEAT_BYTES);
		lat = m_dmi.get_read_latency().value();
	}
	*due = now + std::max<uint64_t>(1, (lat + m_period.value() - 1) / m_period.value());
	return true;
}

// One beat through the initiator socket at cycle @now (gm_port_xfer_fn).
void gpusim_tlm::xfer(uint64_t now, const gm_mem_req *req, gm_mem_rsp *rsp, uint64_t *due)
{
	sc_time stamp = sc_time_stamp(), t = time_of(now);
	sc_time delay = t > stamp ? t - stamp : SC_ZERO_TIME; // behind: as late as it is
	const sc_time d0 = delay;
	uint64_t strb = req->wstrb & ((1ull << GM_BEAT_BYTES) - 1);

	rsp->id = req->id;
	rsp->write = req->write;
	rsp->err = false;
	if (req->write)
		std::memset(rsp->rdata, 0, GM_BEAT_BYTES); // a read's are the target's
	if (xfer_dmi(now, req, rsp, due))
		return;
	m_txn.set_command(req->write ? TLM_WRITE_COMMAND : TLM_READ_COMMAND);
	m_txn.set_address(req->addr);
	m_txn.set_data_ptr(req->write ? const_cast<uint8_t *>(req->wdata) : rsp->rdata);
	m_txn.set_data_length(GM_BEAT_BYTES);
	m_txn.set_streaming_width(GM_BEAT_BYTES);
	m_txn.set_byte_enable_ptr(nullptr);
	m_txn.set_byte_enable_length(0);
	if (req->write && strb != (1ull << GM_BEAT_BYTES) - 1) {
		for (unsigned i = 0; i < GM_BEAT_BYTES; i++)
			m_be[i] = strb >> i & 1u ? TLM_BYTE_ENABLED : TLM_BYTE_DISABLED;
		m_txn.set_byte_enable_ptr(m_be);
		m_txn.set_byte_enable_length(GM_BEAT_BYTES);
	}
	m_txn.set_dmi_allowed(false);
	m_txn.set_response_status(TLM_INCOMPLETE_RESPONSE);
	mem->b_transport(m_txn, delay);
	if (!m_txn.is_response_ok()) {
		rsp->err = true; // the RTL's memory error (mem_rsp_err)
		std::memset(rsp->rdata, 0, GM_BEAT_BYTES);
	}
	// the latency the target added, from this cycle (the same as the time
	// it names unless the GPU had fallen behind simulated time)
	*due = now + (delay.value() - d0.value() + m_period.value() - 1) / m_period.value();
	if (m_txn.is_dmi_allowed()) { // this beat was outside the region held
		m_dmi.init();
		m_dmi_ok = mem->get_direct_mem_ptr(m_txn, m_dmi);
	}
}

void gpusim_tlm::invalidate(sc_dt::uint64 start, sc_dt::uint64 end)
{
	if (m_dmi_ok && start <= m_dmi.get_end_address() && end >= m_dmi.get_start_address())
		m_dmi_ok = false;
}

// ------------------------------------------------------------------- the BARs

unsigned int gpusim_tlm::no_dbg(tlm_generic_payload &t)
{
	(void)t;
	return 0; // registers and the aperture have side effects: no debug access
}

bool gpusim_tlm::no_dmi(tlm_generic_payload &t, tlm_dmi &d)
{
	(void)t;
	d.allow_none(); // whole address space, no access
	return false;
}

// The access is done: its status, and the delay to where the GPU now is.
void gpusim_tlm::finish(tlm_generic_payload &t, sc_time &delay, int st)
{
	sc_time at = time_of(gm_cycles(m_core)), stamp = sc_time_stamp();

	note_irq();
	if (at > stamp + delay)
		delay = at - stamp;
	t.set_response_status(st == GM_OK	    ? TLM_OK_RESPONSE
			      : st == GM_ERR_ADDR ? TLM_ADDRESS_ERROR_RESPONSE
						  : TLM_GENERIC_ERROR_RESPONSE);
}

// Whether byte @i of @t is enabled.
static bool byte_on(const tlm_generic_payload &t, unsigned i)
{
	const unsigned char *be = t.get_byte_enable_ptr();

	return !be || be[i % t.get_byte_enable_length()] == TLM_BYTE_ENABLED;
}

void gpusim_tlm::bar0_b_transport(tlm_generic_payload &t, sc_time &delay)
{
	uint64_t a = t.get_address();
	uint32_t v = 0;
	int st;

	if (t.get_command() == TLM_IGNORE_COMMAND) { // sync: the GPU at the initiator's time
		catch_up(sc_time_stamp() + delay);
		finish(t, delay, gm_model_error(m_core, nullptr, nullptr) ? GM_ERR_HW : GM_OK);
		return;
	}
	if (t.get_data_length() != 4 || t.get_streaming_width() < 4) {
		t.set_response_status(TLM_BURST_ERROR_RESPONSE);
		return;
	}
	if (a & 3u || a > bar0_bytes - 4) {
		t.set_response_status(TLM_ADDRESS_ERROR_RESPONSE);
		return;
	}
	if (t.get_byte_enable_ptr() &&
	    (!t.get_byte_enable_length() || !byte_on(t, 0) || !byte_on(t, 1) || !byte_on(t, 2) || !byte_on(t, 3))) {
		t.set_response_status(TLM_BYTE_ENABLE_ERROR_RESPONSE);
		return;
	}
	catch_up(sc_time_stamp() + delay);
	if (t.is_write()) {
		std::memcpy(&v, t.get_data_ptr(), 4);
		st = gm_reg_write(m_core, (uint32_t)a, v);
	} else {
		st = gm_reg_read(m_core, (uint32_t)a, &v);
		std::memcpy(t.get_data_ptr(), &v, 4);
	}
	finish(t, delay, st);
}

// @n bytes of @t from its byte @pos, at window offset @addr: one call of the
// C API's aperture when every byte is enabled, else word by word.
int gpusim_tlm::apt_piece(tlm_generic_payload &t, uint64_t addr, uint8_t *buf, unsigned n,
			  unsigned pos, bool post)
{
	uint32_t off = (uint32_t)addr;
	bool all = true;
	int st = GM_OK, s;

	for (unsigned i = 0; i < n && all; i++)
		all = byte_on(t, pos + i);
	if (all && n == 8 && !(off & 7u)) {
		uint64_t w;

		std::memcpy(&w, buf, 8);
		if (t.is_read()) {
			st = gm_apt_read64(m_core, off, &w);
			std::memcpy(buf, &w, 8);
			return st;
		}
		return post ? gm_apt_post64(m_core, off, w, 0xff) : gm_apt_write64(m_core, off, w, 0xff);
	}
	if (all)
		return t.is_read() ? gm_apt_read(m_core, off, buf, n) : gm_apt_write(m_core, off, buf, n);
	if (t.is_read()) { // read the words, keep the enabled bytes
		uint8_t tmp[64];

		for (unsigned d = 0; d < n; d += sizeof(tmp)) {
			unsigned k = std::min<unsigned>(sizeof(tmp), n - d);

			s = gm_apt_read(m_core, off + d, tmp, k);
			st = st ? st : s;
			for (unsigned i = 0; i < k; i++)
				if (byte_on(t, pos + d + i))
					buf[d + i] = tmp[i];
		}
		return st;
	}
	for (uint32_t w = off & ~7u; w < off + n; w += 8) { // post the enabled bytes of each word
		uint64_t val = 0;
		uint8_t strb = 0;

		for (unsigned b = 0; b < 8; b++) {
			uint32_t a = w + b;

			if (a >= off && a < off + n && byte_on(t, pos + (a - off))) {
				strb |= (uint8_t)(1u << b);
				val |= (uint64_t)buf[a - off] << 8 * b;
			}
		}
		if (strb && (s = gm_apt_post64(m_core, w, val, strb)) != GM_OK)
			return s;
	}
	return post ? GM_OK : gm_apt_flush(m_core);
}

void gpusim_tlm::bar1_b_transport(tlm_generic_payload &t, sc_time &delay)
{
	gpusim_apt_ext *ext = t.get_extension<gpusim_apt_ext>();
	uint64_t a = t.get_address(), len = t.get_data_length(), sw = t.get_streaming_width();
	bool post = ext && ext->what == gpusim_apt_ext::POST;
	int st = GM_OK;

	if (t.get_command() == TLM_IGNORE_COMMAND) {
		catch_up(sc_time_stamp() + delay);
		finish(t, delay, ext && ext->what == gpusim_apt_ext::FLUSH ? gm_apt_flush(m_core) : GM_OK);
		return;
	}
	if (post && t.is_read()) {
		t.set_response_status(TLM_COMMAND_ERROR_RESPONSE);
		return;
	}
	if (!len || !sw) {
		t.set_response_status(TLM_BURST_ERROR_RESPONSE);
		return;
	}
	if (a >= GPU_APT_WINDOW_BYTES || std::min(len, sw) > GPU_APT_WINDOW_BYTES - a) {
		t.set_response_status(TLM_ADDRESS_ERROR_RESPONSE);
		return;
	}
	if (t.get_byte_enable_ptr() && !t.get_byte_enable_length()) {
		t.set_response_status(TLM_BYTE_ENABLE_ERROR_RESPONSE);
		return;
	}
	catch_up(sc_time_stamp() + delay);
	// A streaming width below the length: each sw bytes at the same offset.
	for (uint64_t pos = 0; pos < len; pos += sw) {
		unsigned n = (unsigned)std::min(sw, len - pos);
		int s = apt_piece(t, a, t.get_data_ptr() + pos, n, (unsigned)pos, post && len == 8);

		st = st ? st : s;
		if (s == GM_ERR_HW)
			break;
	}
	finish(t, delay, st);
}
