/* SPDX-License-Identifier: MIT */
/*
 * gm_backend.h - the ops table behind which the RTL simulators sit.
 *
 * A backend owns one instance of the Verilated gpu_top and moves it one clock
 * at a time.  gm.c fills the input half of struct gm_pins (model/gm_pins.h,
 * generated from regspec/gpu_top_ports.json), calls cycle(), and reads the
 * output half: the pins are the only coupling, so the plain
 * Verilator model and the SystemC model are interchangeable.
 *
 * The RTL backends are C++ (model/gm_be_vl.cpp, model/gm_be_sc.cpp) exporting
 * these C symbols; nothing else in the project is C++.  The reference
 * backend (model/ref/) is a C model of gpu_top at the same pins.
 */
#ifndef GM_BACKEND_H
#define GM_BACKEND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gm_pins.h" /* struct gm_pins: gpu_top's ports (generated) */

#ifdef __cplusplus
extern "C" {
#endif

/* gpu_top's BeatBytes the backends are built with (struct gm_pins, from
 * regspec/gpu_top_ports.json), and the 64-bit words of an aperture access. */
#define GM_BEAT_BYTES (GM_PIN_MEM_RSP_RDATA_BITS / 8u)
#define GM_BEAT_WORDS (GM_BEAT_BYTES / 4u)
#define GM_APT_CHUNK_WORDS (GM_PIN_APT_REQ_WDATA_BITS / 64u)

/* Waveform time base: a cycle is GM_WAVE_PS_PER_CYCLE of the dump's 1 ps
 * units (1 ns, a nominal 1 GHz clock), so GTKWave's axis in ns reads the
 * cycle number.  Cycle c dumps at c * GM_WAVE_PS_PER_CYCLE (clock low) and
 * half a period later (clock high, after the rising edge). */
#define GM_WAVE_PS_PER_CYCLE 1000u
#define GM_WAVE_T_LOW(c) ((c) * GM_WAVE_PS_PER_CYCLE)
#define GM_WAVE_T_HIGH(c) ((c) * GM_WAVE_PS_PER_CYCLE + GM_WAVE_PS_PER_CYCLE / 2)

/* What a waveform marks on the cycle the hardware latched it (gm.c): the
 * state after the rising edge just clocked, read from the model as a
 * debugger reads it (no cycle passes, no port moves). */
#define GM_LATCH_QUEUES 2u /* gpu_top's NumQueues */
struct gm_latch {
	uint32_t q_err;                    /* bit q: queue q latched an error on this edge (cp_exec's err_irq_q) */
	uint32_t q_cause[GM_LATCH_QUEUES]; /* its cause (Q_ERR_CAUSE.CAUSE) */
	uint64_t q_addr[GM_LATCH_QUEUES];  /* the address of its packet (Q_ERR_ADDR) */
	uint32_t mmu_fault_count;          /* MMU_FAULT_COUNT: faults latched so far */
	uint32_t mmu_fault_status;         /* MMU_FAULT_STATUS: the first fault since re-armed */
	uint64_t mmu_fault_va;             /* MMU_FAULT_VA_LO/HI */
};

/* A backend's ops; its name, kind and capabilities are in the registry
 * (model/gm_backends.c, gm.h's struct gm_backend_info). */
struct gm_backend_ops {
	/*
	 * Make a model bound to @pins (which must outlive it) and evaluate it
	 * once so the outputs are valid.  Returns GM_OK and sets *out, or
	 * GM_ERR_NO_MEM / GM_ERR_UNSUPPORTED (e.g. a second SystemC model in
	 * one process: the SystemC kernel elaborates once).
	 */
	int (*create)(struct gm_pins *pins, void **out);
	void (*destroy)(void *be);
	/*
	 * One clock: apply the inputs, rising edge, settle, copy the outputs.
	 * @cycle is the index of this cycle; when a trace is open it is
	 * dumped at GM_WAVE_T_LOW(cycle) and GM_WAVE_T_HIGH(cycle).  Returns
	 * true when an RTL assertion has failed and `failed` has not yet
	 * named it (gm.c asks `failed` only then: asking every cycle cost
	 * about 20 instructions).
	 */
	bool (*cycle)(void *be, uint64_t cycle, int dump);
	/* Open an FST trace of the whole design.  GM_OK or GM_ERR_IO. */
	int (*trace_open)(void *be, const char *path);
	/* Flush and close the trace, if open. */
	void (*trace_close)(void *be);
	/*
	 * Whether an RTL assertion failed in the cycles so far (Verilator
	 * --assert; the run goes on): true and its name, file:line and scope
	 * in @buf the first time it is asked after the failure.
	 */
	bool (*failed)(void *be, char *buf, size_t n);
	/* The aperture port is not modelled: gm.c answers every gm_apt_* call
	 * with GM_ERR_UNSUPPORTED before touching the pins.  Every backend
	 * today models it (false); the flag is for one that does not. */
	bool no_aperture;
	/* Fill @l from the model's state after the last cycle (struct
	 * gm_latch), called while a waveform records; NULL for a backend
	 * without one (its markers sit where the driver noticed). */
	void (*latch)(void *be, struct gm_latch *l);
};

struct gm;
struct gm_config;
struct gm_mem_stats;

/* The aperture calls of gm.h, for struct gm_io_ops.apt. */
enum gm_io_apt {
	GM_IO_APT_WRITE64, /* gm_apt_write64: buf the 8-byte word, strb its enables */
	GM_IO_APT_READ64,  /* gm_apt_read64: buf receives the word */
	GM_IO_APT_POST64,  /* gm_apt_post64 */
	GM_IO_APT_WRITE,   /* gm_apt_write: len bytes of buf */
	GM_IO_APT_READ,    /* gm_apt_read */
	GM_IO_APT_FLUSH,   /* gm_apt_flush */
};

/*
 * A model whose GPU is elsewhere: the gm.h calls of a host in a SystemC
 * TLM-2.0 platform (model/tlm/gm_tlm_host.cpp), the register-access layer
 * under gm.h.  gm.c and gm_apt.c check each call's arguments as for any
 * backend (GM_ERR_BAD_ARG: no transaction) and hand it over here; every
 * int is an enum gm_status with the meaning gm.h gives the call.
 */
struct gm_io_ops {
	void (*destroy)(void *io);
	/* A BAR0 transaction: a register write of *val or a read into *val. */
	int (*reg)(void *io, bool write, uint32_t off, uint32_t *val);
	/* The memory's debug transport (the backdoor: no time passes). */
	int (*mem)(void *io, bool write, uint64_t addr, void *buf, size_t len);
	/* A BAR1 transaction (or, for GM_IO_APT_FLUSH, the flush it asks for). */
	int (*apt)(void *io, enum gm_io_apt op, uint32_t off, void *buf, size_t len, uint8_t strb);
	/* Let @cycles of the platform's time pass. */
	int (*step)(void *io, uint64_t cycles);
	/* Wait for the interrupt signal, at most @budget cycles. */
	int (*run_until_irq)(void *io, uint64_t budget, uint64_t *used);
	/* The interrupt line and the GPU's cycle count at the host's time. */
	bool (*irq)(void *io);
	uint64_t (*cycles)(void *io);
	/* The GPU's own model brought to the host's time (statistics, waves,
	 * model errors: what a debugger sees, not the bus). */
	struct gm *(*core)(void *io);
	/* The memory target's statistics and contents hash, when it is the
	 * project's memory model (else zeros). */
	void (*mem_stats)(void *io, struct gm_mem_stats *st);
	uint64_t (*mem_hash)(void *io);
};

/* The TLM backend's host (model/tlm/; GM_ERR_UNSUPPORTED in builds
 * without SystemC): a platform's host view for @cfg in *ops, *io. */
int gm_tlm_open(const struct gm_config *cfg, const struct gm_io_ops **ops, void **io);

/* The assertion failures of the Verilated models in this thread, caught
 * by the runtime's vl_stop (built with VL_USER_STOP, model/gm_assert.cpp):
 * true, and the failure in @buf, once per failure. */
bool gm_assert_take(char *buf, size_t n);

/* Whether the RTL backends evaluate the RTL's assertions: yes, unless the
 * environment has GPUSIM_ASSERT=0 (read at each model's creation).  The
 * assertions cost about 15 % of a Verilated cycle; off, a protocol
 * violation is no model error - for long runs of a design already
 * regressed, never for tests. */
bool gm_assert_enabled(void);

/* gm_assert_take as the backends' `failed` op. */
bool gm_assert_failed(void *be, char *buf, size_t n);

#ifdef __cplusplus
/* Whether gm_assert_take has a failure to give: the Verilated backends'
 * `cycle` result.  __thread rather than thread_local: C++ reaches an extern
 * thread_local through a wrapper call, and this is read every cycle. */
extern __thread bool gm_assert_pending;
#endif

/* The Verilator model with trace support (gm_config.waves) and, in builds
 * that make both (GM_VL_NT), the same RTL without it (the default). */
extern const struct gm_backend_ops gm_backend_verilator;
extern const struct gm_backend_ops gm_backend_verilator_nt;
extern const struct gm_backend_ops gm_backend_systemc;
/* The C reference model (model/ref/ref_top.c); trace_open: GM_ERR_UNSUPPORTED. */
extern const struct gm_backend_ops gm_backend_ref;

#ifdef __cplusplus
}
#endif

#endif /* GM_BACKEND_H */
