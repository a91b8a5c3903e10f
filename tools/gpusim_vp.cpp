// SPDX-License-Identifier: MIT
//
// gpusim_vp.cpp - a virtual platform example: the GPU put into a SystemC
// platform the way a user puts it into theirs (README, "The GPU in a
// SystemC virtual platform").  sc_main instantiates gpusim_tlm, the memory
// model as a TLM target, a simple address-map interconnect and a host whose
// thread runs the project's unchanged driver: the bring-up demo, every
// register and aperture access a TLM transaction.
//
//   build/bin/gpusim_vp [--quantum NS] [--rounds N]
//   build/bin/gpusim_vp --regs N
//
// Prints the demo's transcript (the same as `gpusim demo`'s, cycles
// included) and the kernel's time; exit 0 when every check passed.
// --regs N: the cost of a register access (make bench): N reads of ID on
// the C API's verilator model, then N through the platform's BAR0, CPU time
// per read.

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>

#include "gm_mem_tlm.h"
#include "gm_tlm_bus.h"
#include "gm_tlm_host.h"
#include "gpusim_tlm.h"

extern "C" {
#include "gpu_hw.h"
#include "scen_demo.h"
}

using namespace sc_core;

// The host's thread: the demo, on the model gm_create attaches to this host.
static int driver_main(void *ctx)
{
	scen_demo_opts o;
	scen_demo_result r;
	int st;

	scen_demo_opts_default(&o);
	o.backend = GM_BACKEND_TLM;
	o.verbose = true;
	o.rounds = *static_cast<unsigned *>(ctx);
	st = scen_demo_run(&o, &r);
	std::printf("\ndemo: %llu cycles, %u checks, %u failed; the kernel at %s\n",
		    (unsigned long long)r.cycles, r.checks, r.failures,
		    sc_time_stamp().to_string().c_str());
	return st;
}

static double cpu_ns()
{
	timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

// @n reads of ID on a model of @backend: CPU ns a read (-1: it failed).
static double reg_reads(enum gm_backend_kind backend, unsigned long n)
{
	gm_config cfg;
	struct gm *g;
	uint32_t v = 0;
	double t0, ns;

	gm_config_default(&cfg);
	cfg.backend = backend;
	if (gm_create(&cfg, &g) != GM_OK)
		return -1;
	t0 = cpu_ns();
	for (unsigned long i = 0; i < n; i++)
		if (gm_reg_read(g, GPU_REG_ID, &v) != GM_OK || v != GPU_ID_VALUE)
			return -1;
	ns = (cpu_ns() - t0) / (double)n;
	gm_destroy(g);
	return ns;
}

static unsigned long regs_n;

static int regs_main(void *ctx)
{
	double *capi = static_cast<double *>(ctx), tlm = reg_reads(GM_BACKEND_TLM, regs_n);

	std::printf("register read (2 cycles): C API %.0f ns, TLM platform %.0f ns: %.0f ns a "
		    "BAR0 transaction (%lu reads, CPU time)\n", *capi, tlm, tlm - *capi, regs_n);
	return tlm < 0 ? GM_ERR_HW : GM_OK;
}

int sc_main(int argc, char **argv)
{
	unsigned long quantum_ns = 1000;
	unsigned rounds = 1;
	double capi = 0;

	for (int i = 1; i + 1 < argc; i += 2) {
		if (!std::strcmp(argv[i], "--quantum"))
			quantum_ns = std::strtoul(argv[i + 1], nullptr, 0);
		else if (!std::strcmp(argv[i], "--rounds"))
			rounds = (unsigned)std::strtoul(argv[i + 1], nullptr, 0);
		else if (!std::strcmp(argv[i], "--regs"))
			regs_n = std::strtoul(argv[i + 1], nullptr, 0);
	}
	if (!quantum_ns || !rounds || argc % 2 == 0)
		return std::fprintf(stderr, "usage: gpusim_vp [--quantum NS] [--rounds N] | --regs N\n"), 2;
	if (regs_n)
		capi = reg_reads(GM_BACKEND_VERILATOR, regs_n); // before the kernel starts

	// The platform: the README's dozen lines.
	gm_config cfg;
	gm_config_default(&cfg);                         // 256 MiB VRAM and system memory, ...
	sc_time q(quantum_ns, SC_NS);
	gpusim_tlm gpu("gpu", cfg, sc_time(1, SC_NS), q); // bar0, bar1, mem, irq
	gm_mem_tlm mem("mem", cfg);                      // VRAM + system memory, timed
	gm_tlm_bus bus("bus");
	gm_tlm_host host("host", gpu, &mem, regs_n ? regs_main : driver_main,
			 regs_n ? static_cast<void *>(&capi) : &rounds, GM_TLM_BAR0_BASE, GM_TLM_BAR1_BASE, q);
	sc_signal<bool> irq("irq");
	host.socket.bind(bus.tsock);                     // initiators: the host, the GPU
	gpu.mem.bind(bus.tsock);
	bus.isock.bind(gpu.bar0);                        // targets 0, 1, 2
	bus.isock.bind(gpu.bar1);
	bus.isock.bind(mem.socket);
	bus.map(GM_TLM_BAR0_BASE, gpusim_tlm::bar0_bytes, 0);
	bus.map(GM_TLM_BAR1_BASE, GPU_APT_WINDOW_BYTES, 1);
	bus.map(0, GM_TLM_MEM_BYTES, 2, false);          // the GPU's physical addresses
	gpu.irq(irq);
	host.irq(irq);
	sc_start();
	return host.result() == GM_OK ? 0 : 1;
}
