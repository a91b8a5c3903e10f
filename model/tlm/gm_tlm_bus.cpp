// SPDX-License-Identifier: MIT
//
// gm_tlm_bus.cpp - the address-map interconnect (gm_tlm_bus.h).

#include <algorithm>

#include "gm_tlm_bus.h"

using namespace sc_core;
using namespace tlm;

gm_tlm_bus::gm_tlm_bus(sc_module_name name) : sc_module(name), tsock("tsock"), isock("isock")
{
	tsock.register_b_transport(this, &gm_tlm_bus::b_transport);
	tsock.register_transport_dbg(this, &gm_tlm_bus::transport_dbg);
	tsock.register_get_direct_mem_ptr(this, &gm_tlm_bus::get_dmi);
	isock.register_invalidate_direct_mem_ptr(this, &gm_tlm_bus::invalidate);
}

void gm_tlm_bus::map(uint64_t base, uint64_t size, unsigned port, bool rebase)
{
	for (const window &w : m_map)
		if (base < w.base + w.size && w.base < base + size)
			SC_REPORT_ERROR("gm_tlm_bus", "overlapping windows");
	m_map.push_back({ base, size, port, rebase });
}

// @a + @b, or the largest address when that overflows (a DMI region's
// "everything" end).
static uint64_t sat_add(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static bool inside(const gm_tlm_bus::window &w, uint64_t a, uint64_t len)
{
	return a >= w.base && a - w.base < w.size && len <= w.size - (a - w.base);
}

const gm_tlm_bus::window *gm_tlm_bus::decode(uint64_t a, uint64_t len) const
{
	for (const window &w : m_map)
		if (inside(w, a, len))
			return &w;
	return nullptr;
}

// The span a transaction touches: its streaming width when shorter.
static uint64_t span(const tlm_generic_payload &t)
{
	uint64_t len = t.get_data_length(), sw = t.get_streaming_width();

	return std::max<uint64_t>(1, sw && sw < len ? sw : len);
}

void gm_tlm_bus::b_transport(int id, tlm_generic_payload &t, sc_time &delay)
{
	uint64_t a = t.get_address();
	const window *w = decode(a, span(t));

	(void)id;
	if (!w) {
		t.set_response_status(TLM_ADDRESS_ERROR_RESPONSE);
		return;
	}
	if (w->rebase)
		t.set_address(a - w->base);
	isock[w->port]->b_transport(t, delay);
	t.set_address(a);
}

unsigned int gm_tlm_bus::transport_dbg(int id, tlm_generic_payload &t)
{
	uint64_t a = t.get_address();
	const window *w = decode(a, span(t));
	unsigned int n;

	(void)id;
	if (!w)
		return 0;
	if (w->rebase)
		t.set_address(a - w->base);
	n = isock[w->port]->transport_dbg(t);
	t.set_address(a);
	return n;
}

bool gm_tlm_bus::get_dmi(int id, tlm_generic_payload &t, tlm_dmi &d)
{
	uint64_t a = t.get_address(), off;
	const window *w = decode(a, 1);
	bool ok;

	(void)id;
	if (!w) {
		d.allow_none();
		return false;
	}
	off = w->rebase ? w->base : 0;
	t.set_address(a - off);
	ok = isock[w->port]->get_direct_mem_ptr(t, d);
	t.set_address(a);
	// back to bus addresses, inside the window
	uint64_t lo = std::max<uint64_t>(sat_add(d.get_start_address(), off), w->base);
	uint64_t hi = std::min<uint64_t>(sat_add(d.get_end_address(), off), w->base + w->size - 1);
	if (ok && d.get_dmi_ptr() && lo > d.get_start_address() + off)
		d.set_dmi_ptr(d.get_dmi_ptr() + (lo - (d.get_start_address() + off)));
	d.set_start_address(lo);
	d.set_end_address(hi);
	return ok;
}

void gm_tlm_bus::invalidate(int port, sc_dt::uint64 start, sc_dt::uint64 end)
{
	for (const window &w : m_map) {
		uint64_t off = w.rebase ? w.base : 0, lo, hi;

		if ((int)w.port != port)
			continue;
		lo = std::max<uint64_t>(sat_add(start, off), w.base);
		hi = std::min<uint64_t>(sat_add(end, off), w.base + w.size - 1);
		if (lo > hi)
			continue;
		for (unsigned i = 0; i < tsock.size(); i++)
			tsock[i]->invalidate_direct_mem_ptr(lo, hi);
	}
}
