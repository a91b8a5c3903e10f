/* SPDX-License-Identifier: MIT */
/*
 * bench_cp.c - the command processor's packet stream: dwords per cycle of a
 * long run of small NOPs and one-dword WRITE_DATAs, from the ring in system
 * memory and from an IB in system memory or in VRAM.  What it shows is the
 * fetch: how much of the memory latency the queue's reads in flight and
 * its prefetch queue hide.  Cycles from the model (the queue's
 * Q_BUSY_CYCLES): they do not move with the host's load.
 */
#include <inttypes.h>
#include <stdio.h>

#include "bench.h"
#include "dma_buf.h"
#include "fw_dev.h"
#include "gm.h"
#include "gpu_hw.h"

#define CP_STREAM_DW 16384u /* dwords of packets per case */

/* Fill @b with packets of four dwords: NOP with three of padding, or a
 * WRITE_DATA of one dword to @dst. */
static int stream_fill(struct dma_buf *b, bool write, uint64_t dst)
{
	uint32_t one = 1;
	int st = GM_OK;

	while (!st && dma_buf_room(b) >= 4)
		st = write ? dma_emit_write_data(b, dst, &one, 1) : dma_emit_nop(b, 3);
	return st;
}

/* One case on a fresh model: the stream in the ring (@where 0), or an IB in
 * system memory (1) or VRAM (2); *@dw dwords in *@busy cycles. */
static int stream_run(int where, bool write, uint32_t *dw, uint32_t *busy)
{
	static uint32_t buf[CP_STREAM_DW];
	const uint64_t vram_ib = GPU_VRAM_BASE + (32ull << 20);
	struct gm_config cfg;
	struct fw_dev_cfg dc;
	struct fw_dev d;
	struct dma_buf b;
	struct gm *g;
	uint64_t ib = vram_ib, dst, f = 0;
	uint32_t b0 = 0, b1 = 0;
	int st;

	gm_config_default(&cfg);
	if (gm_create(&cfg, &g))
		return GM_ERR_NO_MEM;
	fw_dev_cfg_default(&dc);
	dc.ring_log2 = 15; /* the whole stream and its fence fit the ring */
	st = fw_dev_init(&d, g, &dc);
	if (!st)
		st = fw_alloc_sys(&d, 64, 64, &dst);
	if (!st && where == 1)
		st = fw_alloc_sys(&d, sizeof(buf), 256, &ib);
	dma_buf_init(&b, buf, where ? CP_STREAM_DW : CP_STREAM_DW - 64);
	if (!st)
		st = stream_fill(&b, write, dst);
	if (!st && where)
		st = gm_backdoor_write(g, ib, b.dw, b.len * 4);
	if (!st)
		st = gm_reg_read(g, GPU_REG_Q_BUSY_CYCLES(FW_QUEUE_RENDER), &b0);
	if (!st)
		st = where ? fw_submit_ib(&d, FW_QUEUE_RENDER, ib, (uint32_t)b.len, &f)
			   : fw_ring_write(&d, FW_QUEUE_RENDER, b.dw, (uint32_t)b.len);
	if (!st && !where) /* the fence after the stream, a second doorbell */
		st = fw_submit(&d, FW_QUEUE_RENDER, NULL, 0, &f);
	if (!st)
		st = fw_fence_wait(&d, FW_QUEUE_RENDER, f, 10000000);
	if (!st)
		st = gm_reg_read(g, GPU_REG_Q_BUSY_CYCLES(FW_QUEUE_RENDER), &b1);
	gm_destroy(g);
	*dw = (uint32_t)b.len;
	*busy = b1 - b0;
	return st;
}

int bench_cp_stream(void)
{
	static const char *const where_name[] = { "ring, system memory", "IB, system memory",
						  "IB, VRAM" };

	printf("bench: command-processor packet stream (%u dwords of 4-dword packets)\n", CP_STREAM_DW);
	for (int where = 0; where < 3; where++) {
		for (int write = 0; write < 2; write++) {
			uint32_t dw, busy;
			int st = stream_run(where, write, &dw, &busy);

			if (st) {
				printf("  cp stream %s %s: failed (%s)\n", write ? "WRITE_DATA" : "NOP",
				       where_name[where], gm_status_name(st));
				return 1;
			}
			printf("  cp stream %-10s %-20s %6u dwords in %7u cycles: %.3f dwords/cycle\n",
			       write ? "WRITE_DATA" : "NOP", where_name[where], dw, busy,
			       (double)dw / busy);
		}
	}
	return 0;
}
