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
 * memory access and register peeks (gm_reg_peek) take no time.
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

/* The backends; their names and capabilities: gm_backend_list() below. */
enum gm_backend_kind {
	GM_BACKEND_VERILATOR = 0, /* plain Verilated C++ model (default, fastest) */
	GM_BACKEND_SYSTEMC,       /* the same RTL under the SystemC kernel */
	GM_BACKEND_REF,           /* the C reference model (model/ref/): no RTL, no waveforms */
	GM_BACKEND_TLM,           /* the Verilated RTL as a SystemC TLM-2.0 module in a platform (model/tlm/) */
};

#define GM_BACKEND_COUNT 4 /* enum gm_backend_kind values */

/* What a backend can do (struct gm_backend_info.caps). */
#define GM_CAP_WAVES (1u << 0)   /* has signals to dump: gm_wave_open (gm_config.waves) */
#define GM_CAP_SYSTEMC (1u << 1) /* runs under the SystemC kernel: not in the speed build */
#define GM_CAP_MANY (1u << 2)    /* several models in one process (`gpusim run all`) */
/* A model not made for waves runs a build of the RTL without trace support,
 * one made for waves a build with it (what bench_ipc.sh's NAME+trace measures). */
#define GM_CAP_TRACE_MODEL (1u << 3)
/* The model is a host's view of a GPU in a SystemC TLM-2.0 platform: one
 * platform per process; its register and aperture calls are transactions
 * (model/tlm/README section of the top README). */
#define GM_CAP_PLATFORM (1u << 4)

/* One backend of the registry (model/gm_backends.c). */
struct gm_backend_info {
	const char *name; /* on the command line, in $GPUSIM_BACKEND and in messages */
	enum gm_backend_kind kind;
	unsigned caps;    /* GM_CAP_* */
	const char *doc;  /* one line */
};

/* The registry: *n = GM_BACKEND_COUNT entries, in enum gm_backend_kind order. */
const struct gm_backend_info *gm_backend_list(size_t *n);

/* The entry of @kind; NULL for a value that names no backend. */
const struct gm_backend_info *gm_backend_info(enum gm_backend_kind kind);

/* The entry named @name (exactly, e.g. "ref"); NULL for NULL or an unknown name. */
const struct gm_backend_info *gm_backend_lookup(const char *name);

#define GM_MAX_MEM_BYTES (1ull << 40) /* gm_config: VRAM and system memory, each */
/* gm_config: the longest reset gm_create holds.  The RTL needs one cycle
 * (default 4); the bound keeps a bad configuration, such as a damaged
 * capture header, from clocking 2^32 cycles before gm_create returns. */
#define GM_MAX_RESET_CYCLES 1024u

struct gm_config {
	enum gm_backend_kind backend;
	uint64_t vram_bytes;            /* VRAM size at GPU_VRAM_BASE, 1..GM_MAX_MEM_BYTES */
	uint64_t sys_bytes;             /* system memory at GPU_SYSMEM_BASE, at most GM_MAX_MEM_BYTES */
	uint32_t vram_latency_cycles;   /* request to response, >= 1 */
	uint32_t sys_latency_cycles;
	uint32_t vram_bytes_per_cycle;  /* bandwidth, >= 1 */
	uint32_t sys_bytes_per_cycle;
	uint32_t max_outstanding;       /* memory requests in flight, 1..4096 */
	uint32_t reset_cycles;          /* reset held at create, 1..GM_MAX_RESET_CYCLES */
	/*
	 * Whether gm_wave_open() may be called on this model.  false (the
	 * default): the Verilator backend runs its model built without trace
	 * support, 3-4 % fewer host instructions a cycle (README, "Simulation speed"),
	 * and gm_wave_open() answers GM_ERR_UNSUPPORTED.  true: the model
	 * built with it, which can open a waveform at any cycle.  The two
	 * are the same RTL and run the same cycles.  The SystemC backend
	 * always can, the reference backend never.
	 */
	bool waves;
};

struct gm_stats {
	uint64_t cycles;                /* cycles simulated since create */
	uint64_t reg_reads, reg_writes; /* register-port accesses */
	struct gm_mem_stats mem;
};

struct gm;

/* Fill @cfg with the defaults: Verilator, 256 MiB VRAM (latency 20, 32 B/cycle),
 * 256 MiB system memory (latency 60, 16 B/cycle), 64 in flight, 4 reset cycles,
 * no waveforms. */
void gm_config_default(struct gm_config *cfg);

/*
 * Create a model, hold reset for cfg->reset_cycles and release it.
 * GM_OK and *out set; GM_ERR_BAD_ARG (NULL, bad sizes, latencies, a reset
 * of 0 or more than GM_MAX_RESET_CYCLES cycles...: no cycle is clocked);
 * GM_ERR_NO_MEM; GM_ERR_UNSUPPORTED (a second SystemC model in one process;
 * on tlm: a second platform gm_create builds, a SystemC process outside a
 * gm_tlm_host, or a build without SystemC).
 * On error *out is untouched and nothing is left allocated.
 */
int gm_create(const struct gm_config *cfg, struct gm **out) GM_MUST_CHECK;

/* Close any waveform and free everything.  NULL is ignored. */
void gm_destroy(struct gm *g);

/* The registry name of @g's backend: "verilator", "systemc" or "ref". */
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
 * Read the @n registers at offs[] into vals[] without moving @g's clock, for
 * reports: a counter read through gm_reg_read takes two cycles and moves
 * the count it reports.  The reads run as consecutive gm_reg_read calls on
 * a copy of the model in a child process (fork: a copy-on-write snapshot
 * of the whole simulation, as XiangShan's LightSSS snapshots a Verilator
 * run), which then exits; @g is untouched - no cycle, no register-access
 * count, no capture record, no waveform dump.  Every backend: on tlm the
 * platform's GPU model is read (what a debugger sees, not a bus transaction).
 * GM_OK; GM_ERR_BAD_ARG (NULL, @n 0 or past GM_PEEK_MAX, an offset
 * gm_reg_read refuses: nothing read); GM_ERR_ADDR (an offset that names no
 * register: its value 0, the others read); GM_ERR_HW (a read broke the
 * port's contract, an assertion failed in the copy, or the copy died);
 * GM_ERR_NO_MEM (no process or pipe for the copy: nothing read).
 */
#define GM_PEEK_MAX 256u
int gm_reg_peek(struct gm *g, const uint32_t *offs, uint32_t *vals, size_t n) GM_MUST_CHECK;

/*
 * Backdoor memory access, no time passes: the range must lie in VRAM or in
 * system memory, else GM_ERR_ADDR and nothing is touched.  No hardware
 * snoop sees a backdoor write, so the next aperture read first drops the
 * aperture's prefetched beat (APT_FLUSH.PF, two cycles).
 */
int gm_backdoor_write(struct gm *g, uint64_t addr, const void *buf, size_t len) GM_MUST_CHECK;
int gm_backdoor_read(struct gm *g, uint64_t addr, void *buf, size_t len) GM_MUST_CHECK;
int gm_backdoor_write32(struct gm *g, uint64_t addr, uint32_t v) GM_MUST_CHECK;
int gm_backdoor_read32(struct gm *g, uint64_t addr, uint32_t *v) GM_MUST_CHECK;
int gm_backdoor_read64(struct gm *g, uint64_t addr, uint64_t *v) GM_MUST_CHECK;

/*
 * Aperture (BAR1): the CPU's window onto VRAM and, through its ranges, onto
 * tiled surfaces as if they were linear (rtl/apt/apt_top.sv).  Its port
 * takes a naturally aligned 16-byte chunk with byte enables per cycle; the
 * calls below cut their bytes into chunks.  It behaves like a PCI BAR
 * mapped write-combined: writes are posted (the hardware takes one chunk
 * per cycle, merges what lands in one 32-byte memory beat and has several
 * beats in flight; a failing write latches APT_ERR_STATUS and
 * raises INT_STATUS.APT_ERR instead of answering), reads are uncached but
 * may be served from the beat the last read fetched, and a read waits for
 * every posted write before it.
 *
 * The *64 calls take a naturally aligned 64-bit word: @off below
 * GPU_APT_WINDOW_BYTES and 8-aligned, @strb the byte enables (bit i = byte
 * i, nonzero); otherwise GM_ERR_BAD_ARG and no cycle passes.
 *
 * A backend that does not model the aperture (gm_backend_ops.no_aperture;
 * none does today) answers every gm_apt_* call with GM_ERR_UNSUPPORTED
 * (after its argument checks) and no cycle passes.
 *
 * gm_apt_write64 posts the word and flushes (gm_apt_flush): it returns once
 * the word is in memory, GM_ERR_ADDR if it failed (the range's format is
 * illegal, the row is past 2^16, or the memory refused its beat: nothing of
 * the word was written).  gm_apt_read64 returns once the data is there;
 * GM_ERR_ADDR when the read failed (same causes) and *val is 0.  Both:
 * GM_ERR_HW if the hardware made no progress for 100000 cycles.
 */
int gm_apt_write64(struct gm *g, uint32_t off, uint64_t val, uint8_t strb) GM_MUST_CHECK;
int gm_apt_read64(struct gm *g, uint32_t off, uint64_t *val) GM_MUST_CHECK;

/*
 * Post one write word and return as soon as the hardware took it (one cycle
 * when the aperture is ready), as a CPU store to a write-combined mapping
 * does: nothing says when it lands or whether it failed until the next
 * gm_apt_flush() (or a read, which waits for it).  A range register write
 * does not wait for words still being translated: flush before changing or
 * releasing a range posted words go through (fw_lock's unlock does).
 * GM_ERR_BAD_ARG as above; GM_ERR_HW if the aperture was not ready for
 * 100000 cycles.
 */
int gm_apt_post64(struct gm *g, uint32_t off, uint64_t val, uint8_t strb) GM_MUST_CHECK;

/*
 * Bulk aperture copies of any offset and length inside the window, as
 * 64-bit accesses with byte enables for the ragged ends.  GM_ERR_BAD_ARG
 * (NULL buffer, range outside the window) before any access.
 * gm_apt_write posts one word per cycle the aperture is ready, without
 * waiting for any, then flushes: when it returns every word is in memory
 * or failed; GM_ERR_ADDR if any failed (those words wrote nothing, the
 * others were all written).  gm_apt_read streams chunk reads as fast as the aperture takes them;
 * GM_ERR_ADDR if any word failed (its bytes read 0, the others are read).
 * GM_ERR_HW if the hardware made no progress for 100000 cycles (a write
 * may then be left posted).
 */
int gm_apt_write(struct gm *g, uint32_t off, const void *buf, size_t len) GM_MUST_CHECK;
int gm_apt_read(struct gm *g, uint32_t off, void *buf, size_t len) GM_MUST_CHECK;

/*
 * Flush the aperture's posted writes: write APT_FLUSH (the write-combined
 * beat goes out; the prefetched beat stays) and poll APT_STATUS until
 * BUSY falls, i.e. every write posted before the call is acknowledged by the
 * memory.  Then consume the latched error: GM_OK if none, GM_ERR_ADDR if
 * APT_ERR_STATUS held one (cleared, with INT_STATUS.APT_ERR, so the next
 * flush reports only later failures).  GM_ERR_HW if BUSY stays high for
 * 100000 cycles.  Register accesses count in gm_stats.
 */
int gm_apt_flush(struct gm *g) GM_MUST_CHECK;

/* Run @cycles clock cycles.  GM_OK (the hardware reports its own errors in
 * its registers), or GM_ERR_HW once an RTL assertion failed (gm_model_error):
 * the model then runs no more cycles. */
int gm_step(struct gm *g, uint64_t cycles) GM_MUST_CHECK;

/*
 * Model errors: the RTL's assertions (Verilator --assert: protocol and
 * invariants of every block, the labels a_* in rtl/) check the design
 * itself, not the software driving it.  The first failure stops the clock
 * (gm_step, gm_run_until: GM_ERR_HW) and is kept: true, *what its label,
 * file:line and scope, *cycle the cycle; a waveform recording it gets an
 * error marker "assert <label>".  Re-run with --wave-from/--wave-to around
 * *cycle for the window before it.  false: none failed.
 */
bool gm_model_error(const struct gm *g, const char **what, uint64_t *cycle);

/*
 * Error injection, to check the model's own checks: the first cycle from
 * @at_cycle on in which the memory has no response to give carries a
 * response with id @id (0..255) and zero data that no request asked for (the
 * arbiter's a_arb_rsp_routed catches an id no client owns).  GM_OK;
 * GM_ERR_BAD_ARG (NULL, @id past 255, one already pending).
 */
#define GM_INJECT_ID_NOBODY 0xe0u /* client 0x70: no block's (regspec: *_CLIENT) */
int gm_inject_mem_rsp(struct gm *g, uint32_t id, uint64_t at_cycle) GM_MUST_CHECK;

/* A condition polled between cycles; true stops the run. */
typedef bool (*gm_cond_fn)(struct gm *g, void *ctx);

/*
 * Run until @cond is true (checked before the first cycle and after each) or
 * @budget cycles have passed.  GM_OK when the condition held, GM_ERR_TIMEOUT
 * when the budget ran out (the model stays consistent and can go on),
 * GM_ERR_HW when an RTL assertion failed (gm_model_error).
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

/*
 * Call @fn(@ctx, cycle) each time @g has run @every more cycles (from
 * gm_step, gm_run_until and the register accessors), for a progress line
 * on a long run; @fn NULL or @every 0 removes it.  @fn may read
 * gm_cycles and gm_get_stats but must not call anything that moves or
 * changes @g.  On a TLM platform's host view, the platform's GPU model's
 * cycles.  A NULL @g is ignored.
 */
typedef void (*gm_tick_hook_fn)(void *ctx, uint64_t cycle);
void gm_set_tick_hook(struct gm *g, gm_tick_hook_fn fn, void *ctx, uint64_t every);

void gm_get_stats(const struct gm *g, struct gm_stats *st);

/*
 * Waveforms.  Open @path (".fst", or ".vcd": written as FST and converted by
 * GTKWave's fst2vcd at close) and record cycles [from_cycle, to_cycle);
 * to_cycle = GM_WAVE_END records to the close.  The file is closed by itself
 * when the window ends, or by gm_wave_close().  A cycle is 1 ns of the
 * file's time (1 ps units): cycle c dumps at c*1000 (clock low) and
 * c*1000+500 (clock high), so GTKWave's axis in ns reads cycles.
 * GM_ERR_BAD_ARG (NULL path, other extension, from >= to), GM_ERR_BUSY
 * (already open), GM_ERR_IO (cannot create the file), GM_ERR_UNSUPPORTED
 * (a model made without gm_config.waves, a build without trace support, or
 * the reference backend, which has no signals to dump; nothing is created).
 */
#define GM_WAVE_END UINT64_MAX
int gm_wave_open(struct gm *g, const char *path, uint64_t from_cycle, uint64_t to_cycle)
	GM_MUST_CHECK;

/* Close the waveform (converting to VCD if asked).  GM_OK, or GM_ERR_IO
 * when the VCD conversion failed.  Closing nothing is GM_OK. */
int gm_wave_close(struct gm *g) GM_MUST_CHECK;

/* True while a waveform file is open. */
bool gm_wave_is_open(const struct gm *g);

/*
 * The view.  Closing a waveform also writes, next to it, a GTKWave view of
 * the run: FILE.gtkw for FILE.fst (or .vcd) and the translate filters it
 * uses in FILE-filters/ (model/gm_view.h: the traces/gtkw views of the
 * blocks the run used, the zoom fitted to the cycles dumped, named markers
 * A-Z).  Open it with `gtkwave FILE.gtkw`.  gm_wave_close returns GM_ERR_IO
 * when it could not be written.
 *
 * Markers the model adds itself, on the cycle the hardware took the event
 * (read from the RTL's state on the RTL backends that dump): each queue
 * error where the queue latched it ("q1 BAD_OPCODE at 0x..."), each MMU
 * fault where MMU_FAULT_COUNT counted it ("fault NAME VA 0x..."), an
 * assertion failure ("assert LABEL"; the waveform then records 16 cycles
 * past it, within its window, unless a capture records), and each queue
 * reset after the queue's first doorbell ("q0 reset", where the register
 * block takes Q_CTRL.RESET).  A replay's waves carry them too, and the
 * driver's: a capture records gm_wave_mark and gm_wave_watch (traces/
 * FORMAT.md, mark and watch) and gpusim replay repeats them.
 *
 * gm_wave_mark names the current cycle (ignored when no waveform is
 * recording it; 4096 kept; the view merges markers closer than a few
 * pixels into one, and shows 26: errors, then faults, the driver's notes
 * (TDR, recovery, lock paths), fence writes, earliest first).  gm_wave_watch makes every write to the 8 bytes
 * at @addr (8-aligned; a fence, say) while a waveform records a marker
 * "@name = value" at the cycle the memory takes it: GM_OK; GM_ERR_BAD_ARG;
 * GM_ERR_FULL (GM_WAVE_WATCHES already).  Watches last the model's life.
 */
enum gm_mark_kind { GM_MARK_ERROR, GM_MARK_FAULT, GM_MARK_NOTE, GM_MARK_FENCE };
#define GM_WAVE_WATCHES 8u
void gm_wave_mark(struct gm *g, enum gm_mark_kind kind, const char *name);
int gm_wave_watch(struct gm *g, uint64_t addr, const char *name) GM_MUST_CHECK;

/*
 * Capture (traces/FORMAT.md): from gm_capture_open on, every call of this
 * API is recorded to @path as it returns - backdoor uploads, register
 * accesses and the values read, aperture calls, the cycles each run took,
 * backdoor reads as expected hashes - so `gpusim replay` can run it again
 * on a fresh model and check each result.  Capturing costs no cycle.
 * Open it right after gm_create: a replay starts from a fresh model and
 * refuses a capture begun at a later cycle (what came before is not in it).
 * gm_capture_open: GM_OK; GM_ERR_BAD_ARG (NULL); GM_ERR_BUSY (one already
 * open); GM_ERR_IO (cannot create @path); GM_ERR_NO_MEM; GM_ERR_UNSUPPORTED
 * (the tlm backend: its calls are a platform's transactions, not recorded).
 * gm_capture_close (also done by gm_destroy) writes the final state (cycle,
 * interrupt line, a hash of all memory) and closes: GM_OK; GM_ERR_IO (a
 * write failed, the file is incomplete); GM_ERR_UNSUPPORTED (a
 * gm_run_until condition accessed the register port, the aperture or wrote
 * memory, which a capture cannot replay; the file is complete but a replay
 * will diverge).  Closing nothing is GM_OK.
 */
int gm_capture_open(struct gm *g, const char *path) GM_MUST_CHECK;
int gm_capture_close(struct gm *g) GM_MUST_CHECK;
bool gm_capture_is_open(const struct gm *g);

/* A hash of the whole memory (gm_mem_hash), as a capture's final record
 * holds it: equal contents give equal hashes however they were written. */
uint64_t gm_memory_hash(const struct gm *g);

#endif /* GM_H */
