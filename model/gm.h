/* SPDX-License-Identifier: MIT */
/*
 * gm.h - the C API of the gpusim GPU model.
 *
 * One opaque struct gm is one GPU: the RTL (on the Verilator or the SystemC
 * backend), its memory model (VRAM + system memory behind the memory master
 * port), its cycle counter and its waveform file.  Nothing is global, so
 * several models live in one process (the SystemC backend excepted: its
 * kernel elaborates one model per process).
 *
 * Time moves only inside gm_step(), gm_run_until() and the register
 * accessors (two cycles each, as on the real register port).  Backdoor
 * memory access takes no time.
 *
 * Every function returning int returns an enum gm_status; on an error the
 * model is unchanged unless the function says otherwise.
 */
#ifndef GM_H
#define GM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gm_mem.h"
#include "gm_status.h"

enum gm_backend_kind {
	GM_BACKEND_VERILATOR = 0, /* plain Verilated C++ model (default, fastest) */
	GM_BACKEND_SYSTEMC,       /* the same RTL under the SystemC kernel */
	GM_BACKEND_REF,           /* the C reference model (model/ref/): no RTL, no waveforms */
};

struct gm_config {
	enum gm_backend_kind backend;
	uint64_t vram_bytes;            /* VRAM size at GPU_VRAM_BASE, at most 1 TiB */
	uint64_t sys_bytes;             /* system memory at GPU_SYSMEM_BASE, at most 1 TiB */
	uint32_t vram_latency_cycles;   /* request to response, >= 1 */
	uint32_t sys_latency_cycles;
	uint32_t vram_bytes_per_cycle;  /* bandwidth, >= 1 */
	uint32_t sys_bytes_per_cycle;
	uint32_t max_outstanding;       /* memory requests in flight, 1..4096 */
	uint32_t reset_cycles;          /* reset held at create, >= 1 */
};

struct gm_stats {
	uint64_t cycles;                /* cycles simulated since create */
	uint64_t reg_reads, reg_writes; /* register-port accesses */
	struct gm_mem_stats mem;
};

struct gm;

/* Fill @cfg with the defaults: Verilator, 256 MiB VRAM (latency 20, 32 B/cycle),
 * 256 MiB system memory (latency 60, 16 B/cycle), 64 in flight, 4 reset cycles. */
void gm_config_default(struct gm_config *cfg);

/*
 * Create a model, hold reset for cfg->reset_cycles and release it.
 * GM_OK and *out set; GM_ERR_BAD_ARG (NULL, bad sizes, latencies...);
 * GM_ERR_NO_MEM; GM_ERR_UNSUPPORTED (a second SystemC model in one process).
 * On error *out is untouched and nothing is left allocated.
 */
int gm_create(const struct gm_config *cfg, struct gm **out) GM_MUST_CHECK;

/* Close any waveform and free everything.  NULL is ignored. */
void gm_destroy(struct gm *g);

/* "verilator", "systemc" or "ref". */
const char *gm_backend_name(const struct gm *g);

/*
 * Register port.  @off is a byte offset, 4-aligned, below 0x10000, else
 * GM_ERR_BAD_ARG and no cycle passes.  Two cycles pass per access.  An
 * offset that names no register answers GM_ERR_ADDR (the hardware's error
 * response): a write changes nothing, a read returns 0 in *val.
 */
int gm_reg_write(struct gm *g, uint32_t off, uint32_t val) GM_MUST_CHECK;
int gm_reg_read(struct gm *g, uint32_t off, uint32_t *val) GM_MUST_CHECK;

/*
 * Backdoor memory access, no time passes: the range must lie in VRAM or in
 * system memory, else GM_ERR_ADDR and nothing is touched.
 */
int gm_backdoor_write(struct gm *g, uint64_t addr, const void *buf, size_t len) GM_MUST_CHECK;
int gm_backdoor_read(struct gm *g, uint64_t addr, void *buf, size_t len) GM_MUST_CHECK;
int gm_backdoor_write32(struct gm *g, uint64_t addr, uint32_t v) GM_MUST_CHECK;
int gm_backdoor_read32(struct gm *g, uint64_t addr, uint32_t *v) GM_MUST_CHECK;
int gm_backdoor_read64(struct gm *g, uint64_t addr, uint64_t *v) GM_MUST_CHECK;

/*
 * Aperture (BAR1): the CPU's window onto VRAM and, through its ranges, onto
 * tiled surfaces as if they were linear (rtl/apt/apt_top.sv).  One access
 * is a naturally aligned 64-bit word: @off below GPU_APT_WINDOW_BYTES and
 * 8-aligned, @strb the byte enables (bit i = byte i, nonzero); otherwise
 * GM_ERR_BAD_ARG and no cycle passes.  Cycles pass until the hardware
 * answers.  GM_ERR_ADDR when it answered with err (the range's format is
 * illegal, the row is past 2^16, or the memory refused): nothing was
 * written and a read gives 0.  GM_ERR_HW if no answer came in 100000 cycles.
 */
int gm_apt_write64(struct gm *g, uint32_t off, uint64_t val, uint8_t strb) GM_MUST_CHECK;
int gm_apt_read64(struct gm *g, uint32_t off, uint64_t *val) GM_MUST_CHECK;

/*
 * Bulk aperture copies of any offset and length inside the window, as
 * 64-bit accesses with byte enables for the ragged ends.  GM_ERR_BAD_ARG
 * (NULL buffer, range outside the window) before any access; otherwise the
 * first access error is returned, the words before it having completed.
 */
int gm_apt_write(struct gm *g, uint32_t off, const void *buf, size_t len) GM_MUST_CHECK;
int gm_apt_read(struct gm *g, uint32_t off, void *buf, size_t len) GM_MUST_CHECK;

/* Run @cycles clock cycles.  Always GM_OK (the hardware reports its own errors). */
int gm_step(struct gm *g, uint64_t cycles);

/* A condition polled between cycles; true stops the run. */
typedef bool (*gm_cond_fn)(struct gm *g, void *ctx);

/*
 * Run until @cond is true (checked before the first cycle and after each) or
 * @budget cycles have passed.  GM_OK when the condition held, GM_ERR_TIMEOUT
 * when the budget ran out (the model stays consistent and can go on).
 * *used (if not NULL) receives the cycles run.
 */
int gm_run_until(struct gm *g, gm_cond_fn cond, void *ctx, uint64_t budget, uint64_t *used)
	GM_MUST_CHECK;

/* Run until the interrupt line is high; as gm_run_until(). */
int gm_run_until_irq(struct gm *g, uint64_t budget, uint64_t *used) GM_MUST_CHECK;

/* The interrupt line as of the last cycle. */
bool gm_irq(const struct gm *g);

/* Cycles simulated since create (reset included). */
uint64_t gm_cycles(const struct gm *g);

void gm_get_stats(const struct gm *g, struct gm_stats *st);

/*
 * Waveforms.  Open @path (".fst", or ".vcd": written as FST and converted by
 * GTKWave's fst2vcd at close) and record cycles [from_cycle, to_cycle);
 * to_cycle = GM_WAVE_END records to the close.  The file is closed by itself
 * when the window ends, or by gm_wave_close().  Dump times are 2*cycle
 * (clock low) and 2*cycle+1 (clock high), in the file's 1 ps units.
 * GM_ERR_BAD_ARG (NULL path, other extension, from >= to), GM_ERR_BUSY
 * (already open), GM_ERR_IO (cannot create the file), GM_ERR_UNSUPPORTED
 * (the reference backend, which has no signals to dump; nothing is created).
 */
#define GM_WAVE_END UINT64_MAX
int gm_wave_open(struct gm *g, const char *path, uint64_t from_cycle, uint64_t to_cycle)
	GM_MUST_CHECK;

/* Close the waveform (converting to VCD if asked).  GM_OK, or GM_ERR_IO
 * when the VCD conversion failed.  Closing nothing is GM_OK. */
int gm_wave_close(struct gm *g) GM_MUST_CHECK;

/* True while a waveform file is open. */
bool gm_wave_is_open(const struct gm *g);

#endif /* GM_H */
