/* SPDX-License-Identifier: MIT */
/*
 * scen_demo.c - the bring-up demo (see scen_demo.h).
 */
#define _POSIX_C_SOURCE 200809L

#include <inttypes.h>
#include <string.h>
#include <time.h>

#include "dma_buf.h"
#include "dma_disasm.h"
#include "fw_dev.h"
#include "fw_vm.h"
#include "gpu_hw.h"
#include "gpu_names.h"
#include "scen_common.h"
#include "scen_demo.h"

#define DEMO_WAIT_BUDGET 200000u  /* cycles a fence may take before the demo gives up */
#define STALL_CYCLES 300u    /* how long the render queue waits alone */
#define DATA_DW 16u
#define RESULT_VA 0x0000400000000000ull /* where VMID 1 sees the render result */

/* Where the demo's packets write. */
struct demo_mem {
	uint64_t sem;        /* sysmem: the semaphore the render queue waits on */
	uint64_t ts_copy;    /* sysmem: copy queue timestamp after its data */
	uint64_t ts_render;  /* sysmem: render queue timestamp after the wait */
	uint64_t ib_render, ib_copy, ib_bad; /* sysmem: indirect buffers */
	uint64_t result;     /* VRAM: render queue's result dwords */
	uint64_t data;       /* VRAM: copy queue's data block */
};

struct demo {
	const struct scen_demo_opts *o;
	struct scen_demo_result *r;
	struct gm *g;
	struct fw_dev dev;
	struct fw_vm vm;
	struct demo_mem m;
	uint64_t result_gpu;  /* the result as the render queue addresses it */
	uint32_t render_dw, copy_dw;
};

void scen_demo_opts_default(struct scen_demo_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->backend = GM_BACKEND_VERILATOR;
	o->wave_to = GM_WAVE_END;
	o->rounds = 1;
	o->error_act = true;
	o->verbose = true;
	o->mmu = true;
	o->out = stdout;
}

static void check(struct demo *dm, bool ok, const char *what)
{
	dm->r->checks++;
	if (ok)
		return;
	dm->r->failures++;
	fprintf(dm->o->out, "CHECK FAILED: %s\n", what);
}

static int carve_all(struct demo *dm)
{
	struct demo_mem *m = &dm->m;
	const struct {
		uint64_t *addr;
		uint64_t bytes, align;
	} want[] = {
		{ &m->sem, 32, 32 },         { &m->ts_copy, 32, 32 },      { &m->ts_render, 32, 32 },
		{ &m->ib_render, 1024, 256 }, { &m->ib_copy, 1024, 256 }, { &m->ib_bad, 1024, 256 },
	};

	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		if (fw_alloc_sys(&dm->dev, want[i].bytes, want[i].align, want[i].addr))
			return GM_ERR_NO_MEM;
	m->result = GPU_VRAM_BASE + 0x100000;
	m->data = GPU_VRAM_BASE + 0x200000;
	dm->result_gpu = m->result;
	return GM_OK;
}

/* Run the render queue in VMID 1: its result buffer is a virtual address. */
static int setup_vm(struct demo *dm)
{
	int st = fw_vm_init(&dm->vm, &dm->dev, 1);

	if (!st)
		st = fw_vm_map(&dm->vm, RESULT_VA, 0x10000, dm->m.result, MMU_MAP_R | MMU_MAP_W);
	if (!st)
		st = fw_queue_set_vm(&dm->dev, FW_QUEUE_RENDER, &dm->vm);
	if (st)
		return st;
	dm->result_gpu = RESULT_VA;
	if (dm->o->verbose)
		fprintf(dm->o->out, "vm: render queue on VMID 1, result buffer at VA 0x%012llx -> "
			"VRAM 0x%012llx, page tables in VRAM at 0x%012llx\n",
			(unsigned long long)RESULT_VA, (unsigned long long)dm->m.result,
			(unsigned long long)dm->vm.pt.root_pa);
	return GM_OK;
}

/* Build round @n's two IBs in system memory.  GM_OK, or the first code of
 * an emitter or the backdoor. */
static int build_ibs(struct demo *dm, uint32_t n)
{
	uint32_t buf[128], data[DATA_DW], res[2] = { n, 0xc0de0000u | n }, sem[2] = { n, 0 };
	struct dma_buf b;
	int st;

	/* Render: wait for the semaphore to reach n, then write and stamp. */
	dma_buf_init(&b, buf, 128);
	st = dma_emit_wait_mem(&b, dm->m.sem, n, ~0ull, GPU_FUNC_GE, true, 8);
	if (!st)
		st = dma_emit_write_data(&b, dm->result_gpu, res, 2);
	if (!st)
		st = dma_emit_timestamp(&b, dm->m.ts_render);
	if (!st)
		st = gm_backdoor_write(dm->g, dm->m.ib_render, buf, b.len * 4);
	if (st)
		return st;
	dm->render_dw = (uint32_t)b.len;

	/* Copy: some padding, a data block, a stamp, then the semaphore. */
	for (uint32_t i = 0; i < DATA_DW; i++)
		data[i] = n * 0x01000000u + i * 0x01010101u;
	dma_buf_init(&b, buf, 128);
	st = dma_emit_nop(&b, 3);
	if (!st)
		st = dma_emit_write_data(&b, dm->m.data, data, DATA_DW);
	if (!st)
		st = dma_emit_timestamp(&b, dm->m.ts_copy);
	if (!st)
		st = dma_emit_write_data(&b, dm->m.sem, sem, 2);
	if (!st)
		st = gm_backdoor_write(dm->g, dm->m.ib_copy, buf, b.len * 4);
	if (st)
		return st;
	dm->copy_dw = (uint32_t)b.len;
	return GM_OK;
}

static int check_round(struct demo *dm, uint32_t n)
{
	uint32_t res[2] = { 0, 0 }, data[DATA_DW];
	uint64_t ts_copy = 0, ts_render = 0;
	bool data_ok = true;
	int st = gm_backdoor_read(dm->g, dm->m.result, res, sizeof(res));

	if (!st)
		st = gm_backdoor_read(dm->g, dm->m.data, data, sizeof(data));
	if (!st)
		st = gm_backdoor_read64(dm->g, dm->m.ts_copy, &ts_copy);
	if (!st)
		st = gm_backdoor_read64(dm->g, dm->m.ts_render, &ts_render);
	if (st)
		return st;
	for (uint32_t i = 0; i < DATA_DW; i++)
		data_ok &= data[i] == n * 0x01000000u + i * 0x01010101u;
	check(dm, res[0] == n && res[1] == (0xc0de0000u | n), "render result written");
	check(dm, data_ok, "copy data block written");
	check(dm, ts_copy != 0 && ts_render > ts_copy,
	      "render queue ran on only after the copy queue released it");
	if (dm->o->verbose && n == 1)
		fprintf(dm->o->out,
			"round %u: copy queue stamped cycle %" PRIu64
			", render queue resumed at cycle %" PRIu64 "\n",
			n, ts_copy, ts_render);
	return GM_OK;
}

static int run_round(struct demo *dm, uint32_t n)
{
	uint64_t f_render, f_copy;
	int st;

	st = build_ibs(dm, n);
	if (!st)
		st = fw_submit_ib(&dm->dev, FW_QUEUE_RENDER, dm->m.ib_render, dm->render_dw, &f_render);
	if (st)
		return st;
	/* The render queue runs alone and blocks in WAIT_MEM. */
	st = gm_step(dm->g, STALL_CYCLES);
	if (!st)
		st = fw_submit_ib(&dm->dev, FW_QUEUE_COPY, dm->m.ib_copy, dm->copy_dw, &f_copy);
	if (st)
		return st;
	st = fw_fence_wait(&dm->dev, FW_QUEUE_COPY, f_copy, DEMO_WAIT_BUDGET);
	check(dm, st == GM_OK, "copy queue fence retired while the render queue waited");
	st = fw_fence_wait(&dm->dev, FW_QUEUE_RENDER, f_render, DEMO_WAIT_BUDGET);
	check(dm, st == GM_OK, "render queue fence retired");
	return check_round(dm, n);
}

/* A broken IB halts the copy queue; the firmware resets it and resubmits.
 * GM_OK when it could run (the checks say how it went). */
static int error_act(struct demo *dm)
{
	uint32_t bad[4] = { GPU_PKT_HDR(GPU_OP_NOP, 0), GPU_PKT_HDR(0xee, 1), 0, 0 };
	struct fw_queue *q = &dm->dev.q[FW_QUEUE_COPY];
	uint32_t render_status = 0;
	uint64_t f;
	int st;

	if (dm->o->verbose)
		fprintf(dm->o->out, "\nerror act: an IB with unknown opcode 0xee on the copy queue\n");
	st = gm_backdoor_write(dm->g, dm->m.ib_bad, bad, sizeof(bad));
	if (!st)
		st = fw_submit_ib(&dm->dev, FW_QUEUE_COPY, dm->m.ib_bad, 4, &f);
	if (st)
		return st;
	st = fw_fence_wait(&dm->dev, FW_QUEUE_COPY, f, DEMO_WAIT_BUDGET);
	check(dm, st == GM_ERR_HW, "broken IB reported as a hardware error");
	/* The interrupt handler recorded the error and left the queue halted:
	 * the firmware's recovery is this explicit reset. */
	st = fw_queue_reset(&dm->dev, FW_QUEUE_COPY);
	if (st)
		return st;
	check(dm, q->err_cause == GPU_CAUSE_BAD_OPCODE, "cause latched as BAD_OPCODE");
	check(dm, q->err_addr == dm->m.ib_bad + 4, "failing packet address latched");
	check(dm, q->err_header == bad[1], "failing header latched");
	st = gm_reg_read(dm->g, GPU_REG_Q_STATUS(FW_QUEUE_RENDER), &render_status);
	check(dm, !st && !GPU_Q_STATUS_ERROR_GET(render_status), "render queue unaffected");
	/* The reset queue takes work again. */
	st = build_ibs(dm, 1000);
	if (!st)
		st = gm_backdoor_write32(dm->g, dm->m.sem, 0);
	if (!st)
		st = fw_submit_ib(&dm->dev, FW_QUEUE_COPY, dm->m.ib_copy, dm->copy_dw, &f);
	if (st)
		return st;
	st = fw_fence_wait(&dm->dev, FW_QUEUE_COPY, f, DEMO_WAIT_BUDGET);
	check(dm, st == GM_OK, "copy queue runs again after its reset");
	if (dm->o->verbose)
		fprintf(dm->o->out, "error act: queue reset and resubmitted, fence %" PRIu64
			" retired\n", f);
	return GM_OK;
}

static int read_mem(void *ctx, uint64_t addr, uint32_t *dw, size_t n)
{
	return gm_backdoor_read(ctx, addr, dw, n * 4);
}

/* The counters, the rings disassembled (following IBs) and the fences,
 * all read without a cycle (gm_reg_peek, the backdoor): the report does not
 * move the clock, so the demo runs the same cycles with and without it.
 * GM_OK, or the first code of a peek or backdoor read (the report stops
 * there). */
static int print_report(struct demo *dm)
{
	FILE *out = dm->o->out;
	struct gm_stats s;
	int st;

	for (unsigned i = 0; i < dm->dev.nq; i++) {
		enum { PKTS, BUSY, SMEM, SWAIT, SFENCE, RPTR, NQ };
		const uint32_t off[NQ] = { GPU_REG_Q_PKTS(i), GPU_REG_Q_BUSY_CYCLES(i),
					   GPU_REG_Q_STALL_MEM(i), GPU_REG_Q_STALL_WAIT(i),
					   GPU_REG_Q_STALL_FENCE(i), GPU_REG_Q_RPTR(i) };
		struct fw_queue *q = &dm->dev.q[i];
		uint32_t v[NQ], ring[64];
		uint32_t n = q->wptr < 64 ? q->wptr : 64;

		st = gm_reg_peek(dm->g, off, v, NQ);
		if (st)
			return st;
		fprintf(out, "\nqueue %u (%s): packets %" PRIu32 ", busy %" PRIu32
			" cycles, stalls: memory %" PRIu32 ", wait %" PRIu32 ", fence %" PRIu32
			"; rptr %" PRIu32 "; fence %" PRIu64 " of %" PRIu64 " retired; errors %" PRIu32
			"\n", i, i == FW_QUEUE_RENDER ? "render" : "copy, privileged", v[PKTS], v[BUSY],
			v[SMEM], v[SWAIT], v[SFENCE], v[RPTR], q->fence_seen, q->fence_emitted,
			q->errors);
		if (n) {
			st = gm_backdoor_read(dm->g, q->ring_addr, ring, n * 4);
			if (st)
				return st;
			fprintf(out, "  ring since its last reset:\n");
			/* Its count of refused packets is printed with them. */
			dma_disasm(out, ring, n, q->ring_addr, read_mem, dm->g);
		}
	}
	if (dm->o->mmu) {
		enum { HITS, MISSES, WALKS, WCYC, WMAX, NM };
		static const uint32_t off[NM] = { GPU_REG_MMU_HITS, GPU_REG_MMU_MISSES,
						  GPU_REG_MMU_WALKS, GPU_REG_MMU_WALK_CYCLES,
						  GPU_REG_MMU_WALK_MAX };
		uint32_t v[NM];

		st = gm_reg_peek(dm->g, off, v, NM);
		if (st)
			return st;
		fprintf(out, "\nmmu: %" PRIu32 " TLB hits, %" PRIu32 " misses, %" PRIu32
			" walks, %.1f cycles per walk (longest %" PRIu32 ")\n", v[HITS], v[MISSES],
			v[WALKS], v[WALKS] ? (double)v[WCYC] / v[WALKS] : 0.0, v[WMAX]);
	}
	gm_get_stats(dm->g, &s);
	fprintf(out, "\nmemory: %" PRIu64 " read / %" PRIu64 " write requests, "
		"average %.2f in flight, %" PRIu64 " interrupts handled\n",
		s.mem.vram.rd_reqs + s.mem.sys.rd_reqs, s.mem.vram.wr_reqs + s.mem.sys.wr_reqs,
		s.mem.ticks ? (double)s.mem.occupancy_sum / (double)s.mem.ticks : 0.0,
		dm->dev.irqs);
	return GM_OK;
}

static double now_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int demo_body(struct demo *dm)
{
	struct fw_dev_cfg dc;
	double t0;
	int st;

	fw_dev_cfg_default(&dc);
	dc.log = dm->o->verbose ? dm->o->out : NULL;
	st = fw_dev_init(&dm->dev, dm->g, &dc);
	if (st)
		return st;
	st = carve_all(dm);
	if (!st && dm->o->mmu)
		st = setup_vm(dm);
	if (st)
		return st;
	t0 = now_seconds();
	for (uint32_t n = 1; n <= dm->o->rounds && !st; n++) {
		st = run_round(dm, n);
		if (dm->o->progress)
			dm->o->progress(dm->o->progress_ctx, gm_cycles(dm->g), n, dm->o->rounds);
	}
	if (!st && dm->o->error_act)
		st = error_act(dm);
	dm->r->seconds = now_seconds() - t0;
	if (dm->o->verbose) {
		int rst = print_report(dm);

		if (!st)
			st = rst;
	}
	return st;
}

int scen_demo_run(const struct scen_demo_opts *o, struct scen_demo_result *r)
{
	struct gm_config cfg;
	struct demo dm;
	int st, wst;

	memset(&dm, 0, sizeof(dm));
	memset(r, 0, sizeof(*r));
	dm.o = o;
	dm.r = r;
	gm_config_default(&cfg);
	cfg.backend = o->backend;
	cfg.waves = o->wave != NULL;
	st = gm_create(&cfg, &dm.g);
	if (st)
		return st;
	if (o->capture) {
		st = gm_capture_open(dm.g, o->capture);
		if (st)
			goto out_destroy;
	}
	if (o->inject_at) {
		st = gm_inject_mem_rsp(dm.g, GM_INJECT_ID_NOBODY, o->inject_at);
		if (st)
			goto out_destroy;
	}
	if (o->wave) {
		st = scen_wave_open(dm.g, o->wave, o->wave_from, o->wave_to);
		if (st)
			goto out_destroy;
	}
	st = demo_body(&dm);
	r->cycles = gm_cycles(dm.g);
	wst = gm_wave_close(dm.g);
	if (!st)
		st = wst;
	wst = gm_capture_close(dm.g);
	if (!st)
		st = wst;
	if (scen_model_error(dm.g, stdout)) {
		r->failures++;
		st = st ? st : GM_ERR_HW;
	}
	if (!st && r->failures)
		st = GM_ERR_HW;
out_destroy:
	gm_destroy(dm.g);
	return st;
}
