// SPDX-License-Identifier: MIT
//
// test_tlm.cpp - gpusim_tlm in SystemC platforms (model/tlm/).  The kernel
// elaborates once per process, so each case is its own run:
//
//   test_tlm bar      TLM-2.0 rules on BAR0 and BAR1 (lengths, byte enables,
//                     streaming width, every error status, nothing changed by
//                     a refused transaction), debug and DMI refused on the BARs
//   test_tlm parity   the driver's demo and the copies scenario in a host
//                     thread: the C API's transcript and cycles exactly
//   test_tlm lt_mem   the GPU's initiator on an Accellera-style LT memory with
//                     its own latency: DMI granted page by page, invalidated
//                     while the demo runs rings and copies out of it
//   test_tlm two      two GPUs sharing one memory, each its own interrupt
//
// Prints "ok CASE" and exits 0, or names each failed check and exits 1.

#include <cstdio>
#include <cstring>
#include <string>

#include "gm_mem_tlm.h"
#include "gm_tlm_bus.h"
#include "gm_tlm_host.h"
#include "gpusim_tlm.h"
#include "tlm_lt_mem.h"

extern "C" {
#include "gpu_hw.h"
#include "tlm_runs.h"
}

using namespace sc_core;
using namespace tlm;

static unsigned failures;

#define CHECK(c)                                                                               \
	do {                                                                                   \
		if (!(c)) {                                                                    \
			failures++;                                                            \
			std::fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #c); \
		}                                                                              \
	} while (0)

// ------------------------------------------------------------------ bar

// An initiator with a thread: the body of the BAR case.
struct prober : sc_module {
	tlm_utils::simple_initiator_socket<prober> socket;
	gpusim_tlm &gpu;
	tlm_generic_payload t;
	sc_time delay;

	prober(sc_module_name n, gpusim_tlm &g) : sc_module(n), socket("socket"), gpu(g)
	{
		SC_HAS_PROCESS(prober);
		SC_THREAD(body);
	}

	tlm_response_status go(tlm_command cmd, uint64_t a, void *buf, unsigned len, unsigned sw = 0,
			       const uint8_t *be = nullptr, unsigned bel = 0)
	{
		t.set_command(cmd);
		t.set_address(a);
		t.set_data_ptr(static_cast<unsigned char *>(buf));
		t.set_data_length(len);
		t.set_streaming_width(sw ? sw : len);
		t.set_byte_enable_ptr(const_cast<uint8_t *>(be));
		t.set_byte_enable_length(bel);
		t.set_response_status(TLM_INCOMPLETE_RESPONSE);
		socket->b_transport(t, delay);
		return t.get_response_status();
	}

	uint64_t cycles() { return gm_cycles(gpu.model_at(sc_time_stamp() + delay)); }

	void mem_read(uint64_t a, void *buf, unsigned len)
	{
		t.set_command(TLM_READ_COMMAND);
		t.set_address(a);
		t.set_data_ptr(static_cast<unsigned char *>(buf));
		t.set_data_length(len);
		t.set_streaming_width(len);
		t.set_byte_enable_ptr(nullptr);
		CHECK(socket->transport_dbg(t) == len);
	}

	void registers();
	void aperture();
	void memory_error();
	void body()
	{
		registers();
		aperture();
		sc_stop();
	}
};

void prober::registers()
{
	const uint64_t b0 = GM_TLM_BAR0_BASE;
	const uint8_t be_part[4] = { TLM_BYTE_ENABLED, TLM_BYTE_DISABLED, TLM_BYTE_ENABLED,
				     TLM_BYTE_ENABLED };
	uint32_t v = 0;
	uint64_t c;
	tlm_dmi d;

	CHECK(go(TLM_READ_COMMAND, b0 + GPU_REG_ID, &v, 4) == TLM_OK_RESPONSE);
	CHECK(v == GPU_ID_VALUE);
	c = cycles();
	CHECK(delay == sc_time::from_value(gpu.clock_period().value() * (c - gpu.cycle_at(SC_ZERO_TIME))));
	// refused: no cycle passes, nothing read
	v = 0x12345678;
	CHECK(go(TLM_READ_COMMAND, b0 + GPU_REG_ID, &v, 8) == TLM_BURST_ERROR_RESPONSE);
	CHECK(go(TLM_READ_COMMAND, b0 + GPU_REG_ID, &v, 4, 2) == TLM_BURST_ERROR_RESPONSE);
	CHECK(go(TLM_READ_COMMAND, b0 + 2, &v, 4) == TLM_ADDRESS_ERROR_RESPONSE);
	CHECK(go(TLM_READ_COMMAND, b0 + 0xfffe, &v, 4) == TLM_ADDRESS_ERROR_RESPONSE);
	CHECK(go(TLM_READ_COMMAND, b0 + 0x10000, &v, 4) == TLM_ADDRESS_ERROR_RESPONSE); // past the window
	CHECK(go(TLM_WRITE_COMMAND, b0 + GPU_REG_INT_ENABLE, &v, 4, 0, be_part, 4) ==
	      TLM_BYTE_ENABLE_ERROR_RESPONSE);
	CHECK(v == 0x12345678);
	CHECK(cycles() == c);
	// all four enabled through a short pattern is fine
	CHECK(go(TLM_READ_COMMAND, b0 + GPU_REG_ID, &v, 4, 0, be_part, 1) == TLM_OK_RESPONSE);
	CHECK(v == GPU_ID_VALUE && cycles() == c + 2);
	// a register the RTL refuses: its own error
	CHECK(go(TLM_READ_COMMAND, b0 + 0xfffc, &v, 4) == TLM_ADDRESS_ERROR_RESPONSE);
	// TLM_IGNORE_COMMAND: the GPU at the initiator's time
	delay += sc_time(100, SC_NS);
	CHECK(go(TLM_IGNORE_COMMAND, b0, &v, 4) == TLM_OK_RESPONSE);
	CHECK(cycles() == c + 4 + 100);
	// no debug access or DMI on a BAR
	t.set_command(TLM_READ_COMMAND);
	t.set_address(b0);
	t.set_data_length(4);
	CHECK(socket->transport_dbg(t) == 0);
	CHECK(!socket->get_direct_mem_ptr(t, d));
	wait(delay); // sync: the GPU's thread runs ahead from here
	delay = SC_ZERO_TIME;
}

void prober::aperture()
{
	const uint64_t b1 = GM_TLM_BAR1_BASE, off = 0x100000;
	const uint8_t alt[2] = { TLM_BYTE_ENABLED, TLM_BYTE_DISABLED };
	uint8_t w[64], r[64], m[64];
	uint64_t c;

	for (unsigned i = 0; i < sizeof(w); i++)
		w[i] = (uint8_t)(i + 1);
	// any length: 37 bytes at an odd offset, read back through BAR1 and memory
	CHECK(go(TLM_WRITE_COMMAND, b1 + off + 3, w, 37) == TLM_OK_RESPONSE);
	std::memset(r, 0, sizeof(r));
	CHECK(go(TLM_READ_COMMAND, b1 + off + 3, r, 37) == TLM_OK_RESPONSE);
	CHECK(!std::memcmp(r, w, 37));
	mem_read(off + 3, m, 37);
	CHECK(!std::memcmp(m, w, 37));
	// byte enables: every other byte of 16
	std::memset(r, 0xee, 16);
	CHECK(go(TLM_WRITE_COMMAND, b1 + off + 64, r, 16, 0, alt, 2) == TLM_OK_RESPONSE);
	mem_read(off + 64, m, 16);
	for (unsigned i = 0; i < 16; i++)
		CHECK(m[i] == (i % 2 ? 0 : 0xee));
	std::memset(r, 0x11, 16);
	CHECK(go(TLM_READ_COMMAND, b1 + off + 64, r, 16, 0, alt, 2) == TLM_OK_RESPONSE);
	for (unsigned i = 0; i < 16; i++)
		CHECK(r[i] == (i % 2 ? 0x11 : 0xee)); // disabled bytes untouched
	// streaming width 4: 16 bytes through the same 4-byte window
	CHECK(go(TLM_WRITE_COMMAND, b1 + off + 128, w, 16, 4) == TLM_OK_RESPONSE);
	mem_read(off + 128, m, 8);
	CHECK(!std::memcmp(m, w + 12, 4) && m[4] == 0);
	// refused: nothing written, no cycle
	c = cycles();
	CHECK(go(TLM_WRITE_COMMAND, b1 + GPU_APT_WINDOW_BYTES - 4, w, 8) == TLM_ADDRESS_ERROR_RESPONSE);
	CHECK(go(TLM_WRITE_COMMAND, b1 + off, w, 0) == TLM_BURST_ERROR_RESPONSE);
	CHECK(go(TLM_WRITE_COMMAND, b1 + off, w, 8, 0, alt, 0) == TLM_BYTE_ENABLE_ERROR_RESPONSE);
	{
		gpusim_apt_ext ext;

		t.set_extension(&ext);
		CHECK(go(TLM_READ_COMMAND, b1 + off, r, 8) == TLM_COMMAND_ERROR_RESPONSE);
		CHECK(cycles() == c);
		// posted, then flushed
		CHECK(go(TLM_WRITE_COMMAND, b1 + off + 256, w, 8) == TLM_OK_RESPONSE);
		ext.what = gpusim_apt_ext::FLUSH;
		CHECK(go(TLM_IGNORE_COMMAND, b1, r, 4) == TLM_OK_RESPONSE);
		t.clear_extension(&ext);
	}
	mem_read(off + 256, m, 8);
	CHECK(!std::memcmp(m, w, 8));
	CHECK(cycles() > c);
	memory_error();
}

// An error response on the GPU's initiator socket is the RTL's memory
// error: an aperture range onto an address the bus maps to nothing fails
// its read and its write.
void prober::memory_error()
{
	const uint64_t b0 = GM_TLM_BAR0_BASE, b1 = GM_TLM_BAR1_BASE, nowhere = 0x400000000000ull;
	const uint32_t regs[][2] = {
		{ GPU_REG_APT_CTRL(0), 0 },
		{ GPU_REG_APT_START(0), 0x200000 },
		{ GPU_REG_APT_END(0), 0x201000 },
		{ GPU_REG_APT_BASE_LO(0), (uint32_t)nowhere },
		{ GPU_REG_APT_BASE_HI(0), (uint32_t)(nowhere >> 32) },
		{ GPU_REG_APT_PITCH(0), 256 },
		{ GPU_REG_APT_CTRL(0), GPU_APT_CTRL_VALID(1) },
	};
	uint8_t d[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };

	for (const auto &r : regs) {
		uint32_t v = r[1];

		CHECK(go(TLM_WRITE_COMMAND, b0 + r[0], &v, 4) == TLM_OK_RESPONSE);
	}
	CHECK(go(TLM_READ_COMMAND, b1 + 0x200000, d, 8) == TLM_ADDRESS_ERROR_RESPONSE);
	CHECK(go(TLM_WRITE_COMMAND, b1 + 0x200008, d, 8) == TLM_ADDRESS_ERROR_RESPONSE);
}

static int case_bar()
{
	gm_config cfg;

	gm_config_default(&cfg);
	gm_tlm_platform vp(cfg); // its host runs nothing: the prober is the initiator here
	prober p("prober", vp.gpu);

	p.socket.bind(vp.bus.tsock);
	sc_start();
	return 0;
}

// ---------------------------------------------------------------- parity

// What a host thread runs: the demo or a scenario, its transcript kept.
struct run_ctx {
	const char *what; // "demo" or a gpusim run NAME
	enum gm_backend_kind backend;
	char *text = nullptr;
	size_t len = 0;
	uint64_t cycles = 0;
	unsigned checks = 0, failed = 0;
	int st = -1;
	int *done = nullptr; // stop the kernel when this count reaches @of
	int of = 0;
};

static int run_body(void *p)
{
	run_ctx *c = static_cast<run_ctx *>(p);
	FILE *f = open_memstream(&c->text, &c->len);
	tlm_run_result r = {};

	c->st = tlm_run(c->what, c->backend, f, &r);
	c->cycles = r.cycles, c->checks = r.checks, c->failed = r.failures;
	std::fclose(f);
	if (c->done && ++*c->done == c->of)
		sc_stop();
	return c->st;
}

static int case_parity(const char *what)
{
	run_ctx ref, tlm;
	gm_config cfg;

	ref.what = tlm.what = what;
	ref.backend = GM_BACKEND_VERILATOR;
	tlm.backend = GM_BACKEND_TLM;
	(void)run_body(&ref); // the C API, before the kernel starts
	gm_config_default(&cfg);
	gm_tlm_platform vp(cfg, run_body, &tlm);

	sc_start();
	CHECK(ref.st == GM_OK && tlm.st == GM_OK);
	CHECK(tlm.checks > 0 && tlm.failed == 0);
	CHECK(tlm.cycles == ref.cycles);
	CHECK(tlm.len == ref.len && !std::memcmp(tlm.text, ref.text, ref.len));
	std::printf("%s: %llu cycles on the C API, %llu in the platform\n", what,
		    (unsigned long long)ref.cycles, (unsigned long long)tlm.cycles);
	if (tlm.len != ref.len || std::memcmp(tlm.text, ref.text, ref.len))
		std::fprintf(stderr, "--- C API:\n%s\n--- platform:\n%s\n", ref.text, tlm.text);
	free(ref.text);
	free(tlm.text);
	return 0;
}

// ---------------------------------------------------------------- lt_mem

// Withdraws every DMI grant of the memories now and then while the GPU runs
// (four times within the demo's first 1,200 ns: it runs about 1,500 cycles).
struct invalidator : sc_module {
	tlm_lt_mem &a, &b;

	invalidator(sc_module_name n, tlm_lt_mem &x, tlm_lt_mem &y) : sc_module(n), a(x), b(y)
	{
		SC_HAS_PROCESS(invalidator);
		SC_THREAD(body);
	}

	void body()
	{
		for (int i = 0; i < 4; i++) {
			wait(sc_time(300, SC_NS));
			a.invalidate_all();
			b.invalidate_all();
		}
	}
};

static int case_lt_mem()
{
	const uint64_t size = 256ull << 20;
	run_ctx tlm;
	gm_config cfg;

	tlm.what = "demo";
	tlm.backend = GM_BACKEND_TLM;
	gm_config_default(&cfg);
	gpusim_tlm gpu("gpu", cfg);
	tlm_lt_mem vram("vram", size, sc_time(30, SC_NS), sc_time(10, SC_NS));
	tlm_lt_mem sys("sys", size, sc_time(90, SC_NS), sc_time(40, SC_NS));
	gm_tlm_bus bus("bus");
	gm_tlm_host host("host", gpu, nullptr, run_body, &tlm);
	invalidator inv("inv", vram, sys);
	sc_signal<bool> irq("irq");

	host.socket.bind(bus.tsock);
	gpu.mem.bind(bus.tsock);
	bus.isock.bind(gpu.bar0);
	bus.isock.bind(gpu.bar1);
	bus.isock.bind(vram.socket);
	bus.isock.bind(sys.socket);
	bus.map(GM_TLM_BAR0_BASE, gpusim_tlm::bar0_bytes, 0);
	bus.map(GM_TLM_BAR1_BASE, GPU_APT_WINDOW_BYTES, 1);
	bus.map(GPU_VRAM_BASE, size, 2);
	bus.map(GPU_SYSMEM_BASE, size, 3);
	gpu.irq(irq);
	host.irq(irq);
	sc_start();
	CHECK(tlm.st == GM_OK && tlm.checks > 0 && tlm.failed == 0);
	CHECK(vram.grants > 1 && sys.grants > 1);          // granted, and again after each invalidation
	CHECK(vram.invalidations == 4 && sys.invalidations == 4);
	CHECK(vram.transports > 0 && sys.transports > 0);  // the first touch of each page
	CHECK(sys.debug > 0);                              // the driver's backdoor: debug transport
	std::printf("lt_mem: demo %llu cycles, %u checks; DMI grants %lu + %lu, b_transports %lu + %lu\n",
		    (unsigned long long)tlm.cycles, tlm.checks, vram.grants, sys.grants, vram.transports,
		    sys.transports);
	if (tlm.failed)
		std::fprintf(stderr, "%s\n", tlm.text);
	free(tlm.text);
	return 0;
}

// ---------------------------------------------------------------- two

// Adds @off to every address from its target socket to its initiator
// socket (and takes it off DMI regions and invalidations coming back): a
// second GPU and its host see the shared memory @off higher.
struct shifter : sc_module {
	tlm_utils::simple_target_socket<shifter> in;
	tlm_utils::simple_initiator_socket<shifter> out;
	uint64_t off;

	shifter(sc_module_name n, uint64_t o) : sc_module(n), in("in"), out("out"), off(o)
	{
		in.register_b_transport(this, &shifter::b_transport);
		in.register_transport_dbg(this, &shifter::dbg);
		in.register_get_direct_mem_ptr(this, &shifter::dmi);
		out.register_invalidate_direct_mem_ptr(this, &shifter::inval);
	}

	void b_transport(tlm_generic_payload &t, sc_time &d)
	{
		t.set_address(t.get_address() + off);
		out->b_transport(t, d);
		t.set_address(t.get_address() - off);
	}

	unsigned int dbg(tlm_generic_payload &t)
	{
		t.set_address(t.get_address() + off);
		unsigned int n = out->transport_dbg(t);
		t.set_address(t.get_address() - off);
		return n;
	}

	bool dmi(tlm_generic_payload &t, tlm_dmi &d)
	{
		t.set_address(t.get_address() + off);
		bool ok = out->get_direct_mem_ptr(t, d);
		t.set_address(t.get_address() - off);
		d.set_start_address(d.get_start_address() < off ? 0 : d.get_start_address() - off);
		d.set_end_address(d.get_end_address() < off ? 0 : d.get_end_address() - off);
		return ok;
	}

	void inval(sc_dt::uint64 a, sc_dt::uint64 b)
	{
		if (b >= off)
			in->invalidate_direct_mem_ptr(a < off ? 0 : a - off, b - off);
	}
};

// Counts the rising edges of one interrupt line.
struct edges : sc_module {
	sc_in<bool> line;
	unsigned rises = 0;

	explicit edges(sc_module_name n) : sc_module(n), line("line")
	{
		SC_HAS_PROCESS(edges);
		SC_METHOD(count);
		sensitive << line.pos();
		dont_initialize();
	}

	void count() { rises++; }
};

static int case_two()
{
	const uint64_t off = 256ull << 20, b0b = 0x300000000000ull, b1b = 0x400000000000ull;
	run_ctx a, b;
	int done = 0;
	gm_config cfg, shared;

	gm_config_default(&cfg);
	shared = cfg;
	shared.vram_bytes = shared.sys_bytes = 2 * off;
	a.what = b.what = "demo";
	a.backend = b.backend = GM_BACKEND_TLM;
	a.done = b.done = &done;
	a.of = b.of = 2;
	gpusim_tlm gpu_a("gpu_a", cfg), gpu_b("gpu_b", cfg);
	gm_mem_tlm mem("mem", shared);
	gm_tlm_bus bus("bus");
	gm_tlm_host host_a("host_a", gpu_a, nullptr, run_body, &a);
	gm_tlm_host host_b("host_b", gpu_b, nullptr, run_body, &b, b0b, b1b);
	shifter gpu_b_view("gpu_b_view", off), host_b_view("host_b_view", off);
	sc_signal<bool> irq_a("irq_a"), irq_b("irq_b");
	edges seen_a("seen_a"), seen_b("seen_b");

	host_a.stop_at_end = host_b.stop_at_end = false;
	host_a.socket.bind(bus.tsock);
	gpu_a.mem.bind(bus.tsock);
	host_b.socket.bind(host_b_view.in);
	gpu_b.mem.bind(gpu_b_view.in);
	host_b_view.out.bind(bus.tsock);
	gpu_b_view.out.bind(bus.tsock);
	bus.isock.bind(gpu_a.bar0);
	bus.isock.bind(gpu_a.bar1);
	bus.isock.bind(gpu_b.bar0);
	bus.isock.bind(gpu_b.bar1);
	bus.isock.bind(mem.socket);
	bus.map(GM_TLM_BAR0_BASE, gpusim_tlm::bar0_bytes, 0);
	bus.map(GM_TLM_BAR1_BASE, GPU_APT_WINDOW_BYTES, 1);
	bus.map(b0b + off, gpusim_tlm::bar0_bytes, 2);
	bus.map(b1b + off, GPU_APT_WINDOW_BYTES, 3);
	bus.map(0, GM_TLM_MEM_BYTES, 4, false);
	gpu_a.irq(irq_a);
	host_a.irq(irq_a);
	seen_a.line(irq_a);
	gpu_b.irq(irq_b);
	host_b.irq(irq_b);
	seen_b.line(irq_b);
	sc_start();
	CHECK(done == 2);
	CHECK(a.st == GM_OK && a.checks > 0 && a.failed == 0);
	CHECK(b.st == GM_OK && b.checks > 0 && b.failed == 0);
	CHECK(seen_a.rises > 0 && seen_b.rises > 0);
	std::printf("two: demo A %llu cycles, %u interrupts; demo B %llu cycles, %u interrupts\n",
		    (unsigned long long)a.cycles, seen_a.rises, (unsigned long long)b.cycles,
		    seen_b.rises);
	if (a.failed || b.failed)
		std::fprintf(stderr, "--- A:\n%s\n--- B:\n%s\n", a.text, b.text);
	free(a.text);
	free(b.text);
	return 0;
}

int sc_main(int argc, char **argv)
{
	std::string c = argc > 1 ? argv[1] : "";

	if (c == "bar")
		case_bar();
	else if (c == "parity" && argc > 2)
		case_parity(argv[2]);
	else if (c == "lt_mem")
		case_lt_mem();
	else if (c == "two")
		case_two();
	else
		return std::fprintf(stderr, "usage: test_tlm bar|parity demo|parity NAME|lt_mem|two\n"), 2;
	if (failures)
		return std::fprintf(stderr, "%u checks failed: %s %s\n", failures, argv[1],
				    argc > 2 ? argv[2] : ""), 1;
	std::printf("ok %s %s\n", argv[1], argc > 2 ? argv[2] : "");
	return 0;
}
