/* SPDX-License-Identifier: MIT */
/*
 * test_rand.c - random programs on the RTL and on the reference backend,
 * end states compared (the scoreboard).
 *
 *   build/tests/test_rand [--count N] [--quiet] [--null-frag] [--no-apt] [--inject-bad-rsp N]
 *
 * Seeds are S, S+1, ... S+N-1 with S from tb_seed() ($GPUSIM_SEED, else the
 * clock).  Each seed's program (tb/rand/rand_prog.c) runs on the Verilator
 * backend and on the ref backend until both queues stop (or a cycle budget:
 * a WAIT_MEM nobody satisfies), then the scoreboard compares memory (a
 * hash, and the first differing address on a mismatch; bytes a faulting
 * copy-engine command may or may not have written are skipped), each
 * queue's status, error cause, address and header, packet count and read
 * pointer, INT_STATUS (every fence interrupt, error and fault raised), the
 * MMU fault latch and the copy engine's byte count, except where the
 * hardware leaves them to timing (see scoreboard()).  Then every queue
 * left halted or hung is reset (Q_CTRL.RESET) and runs a write and a fence
 * with interrupt, and the outcome is compared too; last (unless --no-apt)
 * the same random aperture accesses run on both (apt_phase()) and every
 * answer, APT_ACCESSES, APT_ERR_COUNT, INT_STATUS and the bytes they wrote
 * are compared.  An RTL assertion (a model error) on either backend is a
 * mismatch as well.  A mismatch prints the seed and the command that
 * reruns it alone, and runs the seed on Verilator once more (it is
 * deterministic) with a waveform of its last FAIL_WAVE_CYCLES cycles:
 * test_rand-SEED.fst and its view, in $GPUSIM_WAVE_DIR (tb/regress/regress.py
 * sets it when it re-runs a failure) or else the current directory; the
 * exit status is 1.  --inject-bad-rsp N: at cycle N of each Verilator run
 * the memory answers a request nobody made (gm_inject_mem_rsp), an RTL
 * assertion fails and the seed with it: the failure path, checked.
 */
#define _POSIX_C_SOURCE 200809L

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gm.h"
#include "gpu_hw.h"
#include "rand_prog.h"
#include "tb_seed.h"

#define CMD "build/tests/test_rand"
#define POLL_CYCLES 500u
#define BUDGET_CYCLES 100000u
#define DRAIN_CYCLES 2000u
#define HARD_CYCLES 5000000u
#define STABLE_POLLS 40u /* 20,000 cycles */
#define FAIL_WAVE_CYCLES 20000u /* a mismatch's waves: the cycles before the end */

struct end_state {
	uint64_t cycles;
	bool budget;                   /* stopped by the budget, not by the queues */
	uint32_t status[2], cause[2], addr_lo[2], addr_hi[2], hdr[2], pkts[2], rptr[2];
	uint32_t int_status, fault_status, fault_va_lo, fault_va_hi, ce_bytes;
	uint8_t *mem[8];
	uint64_t hash;
	uint64_t apt_hash;             /* every aperture answer: status and data */
	uint32_t rec_status[2], rec_pkts[2], rec_int;  /* after the recovery */
	uint64_t sweep_hash;           /* the register sweep's answers */
	uint32_t counters[16];         /* timing counters: read (covered), not compared */
	uint8_t rec_fence[0x100];
	uint32_t apt_accesses;
	char model_err[200];           /* an RTL assertion's report, or empty */
	uint64_t end_cycles;           /* the whole run, recovery and drains included */
	double secs;
};

static int rd(struct gm *g, uint32_t off, uint32_t *v)
{
	return gm_reg_read(g, off, v);
}

static bool busy(uint32_t status)
{
	return GPU_Q_STATUS_BUSY_GET(status);
}

/* Queue @q has nothing more to do: halted on an error, or idle at the end
 * of its ring (a queue is idle for a cycle between packets, too). */
static int stopped(struct gm *g, const struct rand_prog *p, unsigned q, bool *done)
{
	uint32_t s, r;
	int st = rd(g, GPU_REG_Q_STATUS(q), &s);

	st = st ? st : rd(g, GPU_REG_Q_RPTR(q), &r);
	*done = GPU_Q_STATUS_ERROR_GET(s) ||
		(!busy(s) && !GPU_Q_STATUS_IN_IB_GET(s) && r == p->wptr[q]);
	return st;
}

/* Queue @q is in WAIT_MEM (reading, waiting for the data, or polling). */
static bool waiting(struct gm *g, unsigned q)
{
	uint32_t s = 0, st;

	if (rd(g, GPU_REG_Q_STATUS(q), &s))
		return false;
	st = GPU_Q_STATUS_STATE_GET(s);
	return st == GPU_CP_ST_WREAD || st == GPU_CP_ST_WRESP || st == GPU_CP_ST_WPOLL;
}

static int collect(struct gm *g, const struct rand_prog *p, struct end_state *e)
{
	int st = GM_OK;

	for (unsigned q = 0; q < 2 && !st; q++) {
		st = rd(g, GPU_REG_Q_STATUS(q), &e->status[q]);
		st = st ? st : rd(g, GPU_REG_Q_ERR_CAUSE(q), &e->cause[q]);
		st = st ? st : rd(g, GPU_REG_Q_ERR_ADDR_LO(q), &e->addr_lo[q]);
		st = st ? st : rd(g, GPU_REG_Q_ERR_ADDR_HI(q), &e->addr_hi[q]);
		st = st ? st : rd(g, GPU_REG_Q_ERR_HEADER(q), &e->hdr[q]);
		st = st ? st : rd(g, GPU_REG_Q_PKTS(q), &e->pkts[q]);
		st = st ? st : rd(g, GPU_REG_Q_RPTR(q), &e->rptr[q]);
	}
	st = st ? st : rd(g, GPU_REG_INT_STATUS, &e->int_status);
	st = st ? st : rd(g, GPU_REG_MMU_FAULT_STATUS, &e->fault_status);
	st = st ? st : rd(g, GPU_REG_MMU_FAULT_VA_LO, &e->fault_va_lo);
	st = st ? st : rd(g, GPU_REG_MMU_FAULT_VA_HI, &e->fault_va_hi);
	st = st ? st : rd(g, GPU_REG_CE_BYTES, &e->ce_bytes);
	{	/* timing: read, not compared */
		static const uint32_t t[] = { GPU_REG_CYCLE_LO, GPU_REG_CYCLE_HI, GPU_REG_MMU_HITS,
					      GPU_REG_MMU_MISSES, GPU_REG_MMU_WALKS, GPU_REG_MMU_WALK_CYCLES,
					      GPU_REG_MMU_WALK_MAX, GPU_REG_MMU_FAULT_COUNT, GPU_REG_CE_BUSY_CYCLES,
					      GPU_REG_APT_ACCESSES, GPU_REG_Q_BUSY_CYCLES(0), GPU_REG_Q_STALL_MEM(0),
					      GPU_REG_Q_STALL_WAIT(1), GPU_REG_Q_STALL_FENCE(1),
					      GPU_REG_Q_BUSY_CYCLES(1), GPU_REG_Q_STALL_MEM(1) };

		for (unsigned i = 0; i < 16 && !st; i++)
			st = rd(g, t[i], &e->counters[i]);
	}
	e->hash = 1469598103934665603ull;
	for (unsigned i = 0; i < p->ncmp && !st; i++) {
		e->mem[i] = malloc(p->cmp[i].len);
		if (!e->mem[i])
			return GM_ERR_NO_MEM;
		st = gm_backdoor_read(g, p->cmp[i].pa, e->mem[i], p->cmp[i].len);
		for (uint64_t k = 0; k < p->cmp[i].len && !st; k += 4096) {
			if (rand_prog_uncertain(p, p->cmp[i].pa + k))
				continue;
			for (unsigned j = 0; j < 4096; j++)
				e->hash = (e->hash ^ e->mem[i][k + j]) * 1099511628211ull;
		}
	}
	return st;
}

/* What the recovery left: both queues, INT_STATUS, the fence words. */
static int collect_recovery(struct gm *g, struct end_state *e)
{
	int st = GM_OK;

	for (unsigned q = 0; q < 2 && !st; q++) {
		st = rd(g, GPU_REG_Q_STATUS(q), &e->rec_status[q]);
		st = st ? st : rd(g, GPU_REG_Q_PKTS(q), &e->rec_pkts[q]);
	}
	st = st ? st : rd(g, GPU_REG_INT_STATUS, &e->rec_int);
	return st ? st : gm_backdoor_read(g, GPU_SYSMEM_BASE + 0x300000ull, e->rec_fence, sizeof(e->rec_fence));
}

static uint64_t mix(uint64_t h, uint64_t v)
{
	return (h ^ v) * 1099511628211ull;
}

#define APT_AREA_PA 0xf0000u   /* every byte the aperture phase can write ... */
#define APT_AREA_BYTES 0x440000u /* ... lies in [APT_AREA_PA, + this) */
#define APT_STREAM_WORDS 96u

/* A random 8-aligned window offset in and around the ranges' windows. */
static uint32_t apt_rand_off(uint64_t *r)
{
	return (0x100000u * (1 + (uint32_t)(tb_rand(r) % 4)) - 0x100u + (uint32_t)(tb_rand(r) % 0x20200u)) &
	       ~7u;
}

/*
 * The aperture streamed: posted words in runs of sequential offsets (so
 * they combine, and split where a range edge or an odd range cuts a chunk)
 * with random byte enables, a flush, then a pipelined read of a random
 * stretch (served from the prefetched beat where it can); statuses and
 * data into *@h.
 */
static int apt_stream(struct gm *g, uint64_t *r, uint64_t *h)
{
	uint8_t buf[512];
	uint32_t off = apt_rand_off(r), len;
	int st = GM_OK, a;

	for (unsigned i = 0; i < APT_STREAM_WORDS && !st; i++) {
		if (tb_rand(r) % 16 == 0)
			off = apt_rand_off(r);
		a = gm_apt_post64(g, off, tb_rand(r), tb_rand(r) % 4 ? 0xff : (uint8_t)(1 + tb_rand(r) % 255));
		if (a)
			st = a;
		off += 8;
	}
	a = st ? st : gm_apt_flush(g);
	*h = mix(*h, (uint64_t)a);
	if (a == GM_ERR_HW)
		return a;
	off = apt_rand_off(r);
	len = 8 * (1 + (uint32_t)(tb_rand(r) % (sizeof(buf) / 8)));
	memset(buf, 0, sizeof(buf));
	a = gm_apt_read(g, off, buf, len);
	*h = mix(*h, (uint64_t)a);
	for (uint32_t k = 0; k < len; k += 8) {
		uint64_t v;

		memcpy(&v, buf + k, 8);
		*h = mix(*h, v);
	}
	return a == GM_ERR_HW ? a : GM_OK;
}

/* What the aperture phase wrote: every byte of the area it changed (but
 * those the program's own checks leave to timing) with its new value. */
static uint64_t apt_written(const struct rand_prog *p, const uint8_t *before, const uint8_t *after)
{
	uint64_t h = 1469598103934665603ull;

	for (uint32_t k = 0; k < APT_AREA_BYTES; k++)
		if (before[k] != after[k] && !rand_prog_uncertain(p, APT_AREA_PA + k))
			h = mix(mix(h, k), after[k]);
	return h;
}

/*
 * After the queues: a range of random layout (any of the 8, overlapping
 * ranges, sometimes an illegal pitch) over VMID 1's destination area, and
 * random 64-bit reads and writes with byte enables in and around it (the
 * plain VRAM view outside), then a stream (apt_stream()); every status and
 * value, APT_ERR_COUNT, INT_STATUS and the bytes the phase wrote go into
 * e->apt_hash.
 */
static bool opt_no_apt; /* --no-apt: skip the aperture phase */
static uint64_t opt_inject_at; /* --inject-bad-rsp N: the cycle, 0 none */

static int apt_phase(struct gm *g, const struct rand_prog *p, struct end_state *e)
{
	uint64_t r = p->seed ^ 0xa5a5a5a5deadbeefull, h = 1469598103934665603ull;
	unsigned ranges = 1 + (unsigned)(tb_rand(&r) % 3);
	uint8_t *before = malloc(APT_AREA_BYTES), *after = malloc(APT_AREA_BYTES);
	int st = before && after ? GM_OK : GM_ERR_NO_MEM;

	/* The queues' uncertain bytes differ between backends by design: the
	 * aperture's reads below would see them. */
	st = st ? st : rand_prog_settle(p, g);
	st = st ? st : gm_backdoor_read(g, APT_AREA_PA, before, APT_AREA_BYTES);
	for (unsigned k = 0; k < ranges && !st; k++) {
		unsigned n = (unsigned)(tb_rand(&r) % GPU_APT_RANGES), mode = (unsigned)(tb_rand(&r) % 4);
		unsigned bpe = (unsigned)(tb_rand(&r) % 5);
		uint32_t start = 0x100000u * (1 + (unsigned)(tb_rand(&r) % 4)) + 8u * (uint32_t)(tb_rand(&r) % 64);
		uint32_t pitch = mode == GPU_TILE_LINEAR ? 8u * (1 + (uint32_t)(tb_rand(&r) % 512))
			       : mode == GPU_TILE_X ? 512u * (1 + (uint32_t)(tb_rand(&r) % 4))
			       : mode == GPU_TILE_Y ? 128u * (1 + (uint32_t)(tb_rand(&r) % 8))
			       : 1024u;
		int ref;

		if (tb_rand(&r) % 16 == 0)
			pitch += 4; /* illegal: every access to it answers err */
		st = gm_reg_write(g, GPU_REG_APT_CTRL(n), 0);
		st = st ? st : gm_reg_write(g, GPU_REG_APT_START(n), start);
		st = st ? st : gm_reg_write(g, GPU_REG_APT_END(n), start + 0x20000);
		st = st ? st : gm_reg_write(g, GPU_REG_APT_BASE_LO(n), 0x400000u + 0x10000u * (uint32_t)(tb_rand(&r) % 8));
		st = st ? st : gm_reg_write(g, GPU_REG_APT_BASE_HI(n), 0);
		st = st ? st : gm_reg_write(g, GPU_REG_APT_PITCH(n), pitch);
		st = st ? st : gm_reg_write(g, GPU_REG_APT_CTRL(n), GPU_APT_CTRL_VALID(1) |
					     GPU_APT_CTRL_MODE(mode) | GPU_APT_CTRL_BPE(bpe));
		ref = st ? st : gm_reg_write(g, GPU_REG_APT_PITCH(n), 64); /* refused while VALID */
		h = mix(h, (uint64_t)ref);
	}
	for (unsigned i = 0; i < 48 && !st; i++) {
		uint32_t off = apt_rand_off(&r);
		uint64_t v = tb_rand(&r);
		int a;

		if (tb_rand(&r) % 3 == 0) {
			a = gm_apt_write64(g, off, v, (uint8_t)(1 + tb_rand(&r) % 255));
			h = mix(h, (uint64_t)a);
		} else {
			v = 0;
			a = gm_apt_read64(g, off, &v);
			h = mix(mix(h, (uint64_t)a), v);
		}
		if (a == GM_ERR_HW || a == GM_ERR_BAD_ARG)
			st = a;
	}
	st = st ? st : apt_stream(g, &r, &h);
	st = st ? st : gm_reg_read(g, GPU_REG_APT_ACCESSES, &e->apt_accesses);
	for (unsigned i = 0; i < 2 && !st; i++) {
		uint32_t v;

		st = gm_reg_read(g, i ? GPU_REG_INT_STATUS : GPU_REG_APT_ERR_COUNT, &v);
		h = mix(h, v);
	}
	st = st ? st : gm_backdoor_read(g, APT_AREA_PA, after, APT_AREA_BYTES);
	if (!st)
		h = mix(h, apt_written(p, before, after));
	e->apt_hash = h;
	free(before);
	free(after);
	return st;
}

/* Run @p on @kind; fill @e.  With @wave (not NULL) record cycles from
 * @wave_from to the end in that waveform.  GM_OK or why it could not run. */
static int run_on(enum gm_backend_kind kind, const struct rand_prog *p, struct end_state *e,
		  const char *wave, uint64_t wave_from)
{
	struct gm_config cfg;
	struct gm *g;
	struct timespec t0, t1;
	uint32_t seen[2] = { ~0u, ~0u };
	unsigned stable = 0;
	int st;

	memset(e, 0, sizeof(*e));
	cfg = p->cfg;
	cfg.backend = kind;
	cfg.waves = wave != NULL;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	st = gm_create(&cfg, &g);
	if (st)
		return st;
	st = wave ? gm_wave_open(g, wave, wave_from, GM_WAVE_END) : GM_OK;
	if (!st && opt_inject_at && kind == GM_BACKEND_VERILATOR)
		st = gm_inject_mem_rsp(g, GM_INJECT_ID_NOBODY, opt_inject_at);
	st = st ? st : rand_prog_load(p, g);
	st = st ? st : rand_prog_sweep(p, g, &e->sweep_hash);
	st = st ? st : rand_prog_start(p, g);
	for (bool rung = false; !st;) {
		uint32_t ce;
		bool d0, d1;

		(void)gm_step(g, POLL_CYCLES);
		if (!rung) { /* the rest of the rings, on a stream the queues prefetch */
			st = rand_prog_ring(p, g);
			rung = true;
		}
		st = st ? st : stopped(g, p, 0, &d0);
		st = st ? st : stopped(g, p, 1, &d1);
		st = st ? st : rd(g, GPU_REG_CE_STATUS, &ce);
		if (st || (d0 && d1 && GPU_CE_STATUS_STATE_GET(ce) == GPU_CE_ST_IDLE))
			break;
		/* past the budget only a WAIT_MEM nobody satisfies may hold a
		 * queue (a slow memory just takes longer): both queues done or
		 * in WAIT_MEM, and no packet counted, for STABLE_POLLS polls */
		if (!st && gm_cycles(g) > BUDGET_CYCLES) {
			uint32_t now[2] = { 0, 0 };

			st = rd(g, GPU_REG_Q_PKTS(0), &now[0]);
			st = st ? st : rd(g, GPU_REG_Q_PKTS(1), &now[1]);
			stable = (now[0] == seen[0] && now[1] == seen[1] && (d0 || waiting(g, 0)) &&
				  (d1 || waiting(g, 1))) ? stable + 1 : 0;
			seen[0] = now[0];
			seen[1] = now[1];
			if (stable >= STABLE_POLLS) {
				e->budget = true;
				break;
			}
		}
		if (gm_cycles(g) > HARD_CYCLES) {
			e->budget = true;
			break;
		}
	}
	e->cycles = gm_cycles(g);
	/* a queue halted on an error may leave posted writes in flight (a
	 * page walk, the memory's latency): let them land */
	(void)gm_step(g, DRAIN_CYCLES);
	st = st ? st : collect(g, p, e);
	/* then every queue that halted or hung is reset and runs again */
	for (unsigned q = 0; q < 2 && !st; q++) {
		uint32_t s;

		st = rd(g, GPU_REG_Q_STATUS(q), &s);
		if (!st && (busy(s) || GPU_Q_STATUS_ERROR_GET(s)))
			st = rand_prog_recover(p, g, q);
	}
	(void)gm_step(g, DRAIN_CYCLES);
	st = st ? st : collect_recovery(g, e);
	if (!opt_no_apt)
		st = st ? st : apt_phase(g, p, e);
	{
		const char *what;
		uint64_t at;

		if (gm_model_error(g, &what, &at))
			snprintf(e->model_err, sizeof(e->model_err), "%s at cycle %" PRIu64, what, at);
	}
	e->end_cycles = gm_cycles(g);
	if (wave && gm_wave_close(g))
		st = st ? st : GM_ERR_IO;
	gm_destroy(g);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	e->secs = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
	return st;
}

static void free_state(struct end_state *e)
{
	for (unsigned i = 0; i < 8; i++)
		free(e->mem[i]);
}

static bool is_ce(uint32_t hdr)
{
	uint32_t op = GPU_HDR_OPCODE_GET(hdr);

	return op == GPU_OP_COPY || op == GPU_OP_BLT || op == GPU_OP_FILL;
}

static bool mem_cause(uint32_t cause)
{
	return cause == GPU_CAUSE_PAGE_FAULT || cause == GPU_CAUSE_MEM_ERROR;
}

#define MISMATCH(...)                                                                              \
	do {                                                                                       \
		printf("seed %" PRIu64 ": mismatch: ", p->seed);                                   \
		printf(__VA_ARGS__);                                                               \
		printf("\n");                                                                      \
		bad++;                                                                             \
	} while (0)

/* Compare what both backends must agree on; the count of mismatches. */
static unsigned scoreboard(const struct rand_prog *p, const struct end_state *a, const struct end_state *b)
{
	unsigned bad = 0, faults = 0, ce_err = 0;
	const uint32_t qmask = GPU_Q_STATUS_BUSY_MASK << GPU_Q_STATUS_BUSY_SHIFT |
			       GPU_Q_STATUS_HALTED_MASK << GPU_Q_STATUS_HALTED_SHIFT |
			       GPU_Q_STATUS_ERROR_MASK << GPU_Q_STATUS_ERROR_SHIFT;

	if (a->model_err[0] || b->model_err[0])
		MISMATCH("model error: %s (verilator), %s (ref)", a->model_err[0] ? a->model_err : "none",
			 b->model_err[0] ? b->model_err : "none");
	for (unsigned q = 0; q < 2; q++) {
		/* a posted write's fault is noticed some packets later: which
		 * packet the queue had counted is timing */
		bool wr_fault = mem_cause(a->cause[q]) && !is_ce(a->hdr[q]);

		/* ... and so is whether it had left its IB by then */
		uint32_t smask = wr_fault ? ~(uint32_t)(GPU_Q_STATUS_IN_IB_MASK << GPU_Q_STATUS_IN_IB_SHIFT) : ~0u;

		if ((a->status[q] & qmask) != (b->status[q] & qmask) ||
		    (!busy(a->status[q]) && (a->status[q] & smask) != (b->status[q] & smask)))
			MISMATCH("queue %u status 0x%x (verilator) vs 0x%x (ref)", q, a->status[q], b->status[q]);
		if (a->cause[q] != b->cause[q] || a->addr_lo[q] != b->addr_lo[q] ||
		    a->addr_hi[q] != b->addr_hi[q] || a->hdr[q] != b->hdr[q])
			MISMATCH("queue %u error cause %u at 0x%x%08x header 0x%08x (verilator) vs cause %u at "
				 "0x%x%08x header 0x%08x (ref)", q, a->cause[q], a->addr_hi[q], a->addr_lo[q],
				 a->hdr[q], b->cause[q], b->addr_hi[q], b->addr_lo[q], b->hdr[q]);
		if (!wr_fault && a->pkts[q] != b->pkts[q])
			MISMATCH("queue %u packets %u (verilator) vs %u (ref)", q, a->pkts[q], b->pkts[q]);
		if (a->rptr[q] != b->rptr[q])
			MISMATCH("queue %u RPTR %u (verilator) vs %u (ref)", q, a->rptr[q], b->rptr[q]);
		faults += a->cause[q] == GPU_CAUSE_PAGE_FAULT && !is_ce(a->hdr[q]);
		ce_err += mem_cause(a->cause[q]) && is_ce(a->hdr[q]);
	}
	if (a->int_status != b->int_status)
		MISMATCH("INT_STATUS 0x%x (verilator) vs 0x%x (ref)", a->int_status, b->int_status);
	if (GPU_MMU_FAULT_STATUS_VALID_GET(a->fault_status) != GPU_MMU_FAULT_STATUS_VALID_GET(b->fault_status) ||
	    (faults == 1 && !ce_err &&
	     (a->fault_status != b->fault_status || a->fault_va_lo != b->fault_va_lo ||
	      a->fault_va_hi != b->fault_va_hi)))
		MISMATCH("MMU fault 0x%x VA 0x%x%08x (verilator) vs 0x%x VA 0x%x%08x (ref)", a->fault_status,
			 a->fault_va_hi, a->fault_va_lo, b->fault_status, b->fault_va_hi, b->fault_va_lo);
	if (!ce_err && a->ce_bytes != b->ce_bytes)
		MISMATCH("CE_BYTES %u (verilator) vs %u (ref)", a->ce_bytes, b->ce_bytes);
	if (memcmp(a->rec_status, b->rec_status, sizeof(a->rec_status)) || a->rec_int != b->rec_int ||
	    memcmp(a->rec_fence, b->rec_fence, sizeof(a->rec_fence)) ||
	    (!mem_cause(a->cause[0]) && !mem_cause(a->cause[1]) &&
	     memcmp(a->rec_pkts, b->rec_pkts, sizeof(a->rec_pkts))))
		MISMATCH("after the queue resets: status 0x%x 0x%x, packets %u %u, INT_STATUS 0x%x (verilator) vs "
			 "0x%x 0x%x, %u %u, 0x%x (ref), fence words %s", a->rec_status[0], a->rec_status[1],
			 a->rec_pkts[0], a->rec_pkts[1], a->rec_int, b->rec_status[0], b->rec_status[1],
			 b->rec_pkts[0], b->rec_pkts[1], b->rec_int,
			 memcmp(a->rec_fence, b->rec_fence, sizeof(a->rec_fence)) ? "differ" : "agree");
	if (a->sweep_hash != b->sweep_hash)
		MISMATCH("register sweep answers 0x%016" PRIx64 " (verilator) vs 0x%016" PRIx64 " (ref)",
			 a->sweep_hash, b->sweep_hash);
	if (a->apt_hash != b->apt_hash || a->apt_accesses != b->apt_accesses)
		MISMATCH("aperture answers hash 0x%016" PRIx64 ", %u accesses (verilator) vs 0x%016" PRIx64
			 ", %u (ref)", a->apt_hash, a->apt_accesses, b->apt_hash, b->apt_accesses);
	if (a->hash != b->hash) {
		for (unsigned i = 0; i < p->ncmp; i++)
			for (uint64_t k = 0; k < p->cmp[i].len; k++) {
				uint64_t pa = p->cmp[i].pa + k;

				if (a->mem[i][k] == b->mem[i][k] || rand_prog_uncertain(p, pa))
					continue;
				MISMATCH("memory hash 0x%016" PRIx64 " vs 0x%016" PRIx64 ": first difference at PA "
					 "0x%" PRIx64 ": 0x%02x (verilator) vs 0x%02x (ref)", a->hash, b->hash, pa,
					 a->mem[i][k], b->mem[i][k]);
				i = p->ncmp;
				break;
			}
	}
	return bad;
}

/* The seed of @p again on the Verilator backend, with a waveform of the
 * FAIL_WAVE_CYCLES cycles before @end (its first run's last cycle) in
 * $GPUSIM_WAVE_DIR, else the current directory; says where. */
static void fail_waves(const struct rand_prog *p, uint64_t seed, uint64_t end)
{
	const char *dir = getenv("GPUSIM_WAVE_DIR");
	uint64_t from = end > FAIL_WAVE_CYCLES ? end - FAIL_WAVE_CYCLES : 0;
	struct end_state w;
	char path[4096];
	int st;

	if (!dir || !*dir)
		dir = ".";
	snprintf(path, sizeof(path), "%s/test_rand-%" PRIu64 ".fst", dir, seed);
	st = run_on(GM_BACKEND_VERILATOR, p, &w, path, from);
	free_state(&w);
	if (st == GM_ERR_BAD_ARG || st == GM_ERR_IO || st == GM_ERR_BUSY)
		printf("seed %" PRIu64 ": no waves: %s: %s\n", seed, path, gm_status_name(st));
	else
		printf("waves of the failure: %s, cycles %" PRIu64 " to %" PRIu64
		       " (view: gtkwave %.*s.gtkw)\n", path, from, end, (int)strlen(path) - 4, path);
}

int main(int argc, char **argv)
{
	unsigned count = 1, mism = 0, hangs = 0, failed_seeds = 0;
	bool quiet = false;
	unsigned opts = 0;
	uint64_t seed0, cyc[2] = { 0, 0 }, pkts = 0, malformed = 0, risky = 0;
	double secs[2] = { 0, 0 };
	struct rand_prog *p = malloc(sizeof(*p));

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--count") && i + 1 < argc)
			count = (unsigned)strtoul(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--quiet"))
			quiet = true;
		else if (!strcmp(argv[i], "--null-frag"))
			opts |= RP_OPT_NULL_FRAG;
		else if (!strcmp(argv[i], "--no-apt"))
			opt_no_apt = true;
		else if (!strcmp(argv[i], "--inject-bad-rsp") && i + 1 < argc &&
			 (opt_inject_at = strtoull(argv[++i], NULL, 0)) > 0)
			;
		else {
			fprintf(stderr, "usage: %s [--count N] [--quiet] [--null-frag] [--no-apt] "
				"[--inject-bad-rsp N]\n", argv[0]);
			return 2;
		}
	}
	if (!p || !count)
		return 2;
	seed0 = tb_seed(CMD);
	for (unsigned n = 0; n < count; n++) {
		uint64_t seed = seed0 + n;
		struct end_state a, b;
		int sa, sb;
		unsigned bad;

		rand_prog_build(p, seed, opts);
		sa = run_on(GM_BACKEND_VERILATOR, p, &a, NULL, 0);
		sb = run_on(GM_BACKEND_REF, p, &b, NULL, 0);
		if (sa || sb) {
			printf("seed %" PRIu64 ": could not run: verilator %s, ref %s\n", seed,
			       gm_status_name(sa), gm_status_name(sb));
			bad = 1;
		} else {
			bad = scoreboard(p, &a, &b);
		}
		if (!quiet || bad)
			printf("seed %" PRIu64 ": %u packets (%u malformed, %u risky); cycles %" PRIu64
			       " (verilator) / %" PRIu64 " (ref)%s; causes %u/%u; %s\n", seed, p->pkts,
			       p->malformed, p->risky, a.cycles, b.cycles, a.budget ? ", stopped by budget" : "",
			       a.cause[0], a.cause[1], bad ? "MISMATCH" : "ok");
		if (bad) {
			char inject[40] = "";

			if (opt_inject_at)
				snprintf(inject, sizeof(inject), " --inject-bad-rsp %" PRIu64, opt_inject_at);
			printf("seed %" PRIu64 ": reproduce with GPUSIM_SEED=%" PRIu64 " %s --count 1%s%s%s\n",
			       seed, seed, CMD, opts & RP_OPT_NULL_FRAG ? " --null-frag" : "",
			       opt_no_apt ? " --no-apt" : "", inject);
			fail_waves(p, seed, a.end_cycles);
			failed_seeds++;
		}
		mism += bad;
		hangs += a.budget;
		cyc[0] += a.cycles;
		cyc[1] += b.cycles;
		secs[0] += a.secs;
		secs[1] += b.secs;
		pkts += p->pkts;
		malformed += p->malformed;
		risky += p->risky;
		free_state(&a);
		free_state(&b);
	}
	printf("test_rand: %u seeds from %" PRIu64 ", %" PRIu64 " packets (%" PRIu64 " malformed, %" PRIu64
	       " risky accesses), %u ran into the budget; cycles verilator %" PRIu64 ", ref %" PRIu64
	       " (ref/verilator %.4f); wall verilator %.2f s, ref %.2f s (%.1fx); %u mismatches in %u seeds\n",
	       count, seed0, pkts, malformed, risky, hangs, cyc[0], cyc[1],
	       cyc[0] ? (double)cyc[1] / (double)cyc[0] : 0.0, secs[0], secs[1],
	       secs[1] > 0 ? secs[0] / secs[1] : 0.0, mism, failed_seeds);
	free(p);
	return failed_seeds ? 1 : 0;
}
