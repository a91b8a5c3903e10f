/* SPDX-License-Identifier: MIT */
/*
 * ref_queue.c - one command queue of the reference backend.
 *
 * A queue fetches type-3 packets from its ring (and one level of indirect
 * buffers) and executes them, moving through the states of enum
 * gpu_cp_state (regspec: Q_STATUS.STATE), so Q_STATUS reads the same on
 * both backends.  Its memory channel carries one request per cycle: stream
 * fetches into a prefetch queue of beats (ref_fetch.c: several reads in
 * flight, all dropped when the doorbell moves or the stream jumps), WAIT_MEM
 * reads (alone, no fetch in flight), and posted
 * writes (WRITE_DATA dwords, fence values, timestamps, PTEs, the RPTR
 * write-back) counted until acknowledged.  A fence, an INVALIDATE_TLB and a
 * copy-engine command first wait for the queue's earlier writes.
 *
 * The packet rules are gpu_pkt_check()'s (hw/gpu_pkt.h: the C statement
 * of what the hardware refuses); the header is judged when it is consumed,
 * WRITE_DATA once its address is in, every other packet once its payload
 * is in.  An error latches cause, packet address and header, pulses the
 * error interrupt and leaves the queue in ERROR until Q_CTRL.RESET.
 */
#include <string.h>

#include "gpu_names.h"
#include "gpu_pkt.h"
#include "ref.h"

#define MAX_WR_OUT 255u

void ref_queue_reset(struct ref_queue *q, unsigned idx)
{
	memset(q, 0, sizeof(*q));
	q->idx = idx;
	q->state = GPU_CP_ST_IDLE;
}

static bool have_dw(const struct ref_queue *q, const struct ref_qcfg *c)
{
	return ref_fetch_have(q, c);
}

static uint64_t pl_addr(const struct ref_queue *q)
{
	return (q->pl[0] | (uint64_t)(q->pl[1] & 0xffffu) << 32);
}

uint8_t ref_queue_exec_vmid(const struct ref_queue *q, const struct ref_qcfg *c)
{
	return !q->pkt_ring && q->ib_vmid ? q->ib_vmid : c->vmid;
}

/* Which request the state asks for: 0 none, 1 write, 2 WAIT_MEM read, 3 fetch. */
static int want(const struct ref_queue *q, const struct ref_qcfg *c)
{
	uint64_t a;

	if (q->state == GPU_CP_ST_WRITE && q->wr_out != MAX_WR_OUT)
		return 1;
	if (q->state == GPU_CP_ST_WREAD && !q->f.fl && !q->f.wt_pend)
		return 2;
	return ref_fetch_want(q, c, &a) ? 3 : 0;
}

void ref_queue_offer(const struct ref_queue *q, const struct ref_qcfg *c, struct ref_req *req)
{
	int w = want(q, c);

	req->valid = w != 0;
	if (!w)
		return;
	req->we = w == 1;
	req->id = q->idx << 1 | (uint32_t)req->we;
	req->wstrb = 0;
	if (w == 1) {
		unsigned size = q->wr_64 ? 8u : 4u, lane = (unsigned)(q->wr_addr & REF_BEAT_MASK) & ~(size - 1u);

		req->addr = q->wr_addr & ~REF_BEAT_MASK;
		for (unsigned i = 0; i < REF_BEAT; i += size)
			memcpy(req->wdata + i, &q->wr_data, size);
		req->wstrb = ((1u << size) - 1u) << lane;
		req->vmid = ref_queue_exec_vmid(q, c);
	} else if (w == 2) {
		req->addr = pl_addr(q) & ~REF_BEAT_MASK;
		req->vmid = ref_queue_exec_vmid(q, c);
	} else {
		(void)ref_fetch_want(q, c, &req->addr);
		req->vmid = q->in_ib && q->ib_vmid ? q->ib_vmid : c->vmid;
	}
}

bool ref_queue_inv(const struct ref_queue *q, struct ref_inv *inv)
{
	if (q->state != GPU_CP_ST_INV || q->wr_out)
		return false;
	inv->valid = true;
	inv->all = GPU_PKT_INVALIDATE_TLB_ALL_GET(q->pl[0]);
	inv->vmid = GPU_PKT_INVALIDATE_TLB_VMID_GET(q->pl[0]);
	inv->start = q->pl[1];
	inv->end = q->pl[2];
	return true;
}

bool ref_queue_ce(const struct ref_queue *q, struct ref_ce_cmd *cmd)
{
	const uint32_t *pl = q->pl;
	uint32_t op = GPU_HDR_OPCODE_GET(q->hdr);

	if (q->state != GPU_CP_ST_CDRAIN || q->wr_out)
		return false;
	memset(cmd, 0, sizeof(*cmd));
	cmd->h = 1;
	if (op == GPU_OP_COPY) {
		cmd->src_base = pl[0] | (uint64_t)(pl[1] & 0xffffu) << 32;
		cmd->dst_base = pl[2] | (uint64_t)(pl[3] & 0xffffu) << 32;
		cmd->w = pl[4];
	} else if (op == GPU_OP_BLT) {
		uint32_t fs = pl[GPU_PKT_BLT_SRC_FMT], fd = pl[GPU_PKT_BLT_DST_FMT];

		cmd->bpe = GPU_PKT_BLT_SRC_BPE_GET(fs);
		cmd->src_base = pl[0] | (uint64_t)(pl[1] & 0xffffu) << 32;
		cmd->src_mode = GPU_PKT_BLT_SRC_MODE_GET(fs);
		cmd->src_pitch = GPU_PKT_BLT_SRC_PITCH_GET(fs);
		cmd->src_x0b = (GPU_PKT_BLT_SRC_X_GET(pl[GPU_PKT_BLT_SRC_XY]) << cmd->bpe) & 0xfffffu;
		cmd->src_y0 = GPU_PKT_BLT_SRC_Y_GET(pl[GPU_PKT_BLT_SRC_XY]);
		cmd->dst_base = pl[GPU_PKT_BLT_DST_LO] | (uint64_t)(pl[GPU_PKT_BLT_DST_HI] & 0xffffu) << 32;
		cmd->dst_mode = GPU_PKT_BLT_DST_MODE_GET(fd);
		cmd->dst_pitch = GPU_PKT_BLT_DST_PITCH_GET(fd);
		cmd->dst_x0b = (GPU_PKT_BLT_DST_X_GET(pl[GPU_PKT_BLT_DST_XY]) << cmd->bpe) & 0xfffffu;
		cmd->dst_y0 = GPU_PKT_BLT_DST_Y_GET(pl[GPU_PKT_BLT_DST_XY]);
		cmd->w = pl[GPU_PKT_BLT_WIDTH] << cmd->bpe;
		cmd->h = pl[GPU_PKT_BLT_HEIGHT] & 0xffffu;
	} else {
		uint32_t fd = pl[GPU_PKT_FILL_DST_FMT];

		cmd->fill = true;
		cmd->bpe = GPU_PKT_FILL_DST_BPE_GET(fd);
		cmd->dst_base = pl[GPU_PKT_FILL_DST_LO] | (uint64_t)(pl[GPU_PKT_FILL_DST_HI] & 0xffffu) << 32;
		cmd->dst_mode = GPU_PKT_FILL_DST_MODE_GET(fd);
		cmd->dst_pitch = GPU_PKT_FILL_DST_PITCH_GET(fd);
		cmd->dst_x0b = (GPU_PKT_FILL_DST_X_GET(pl[GPU_PKT_FILL_DST_XY]) << cmd->bpe) & 0xfffffu;
		cmd->dst_y0 = GPU_PKT_FILL_DST_Y_GET(pl[GPU_PKT_FILL_DST_XY]);
		cmd->w = pl[GPU_PKT_FILL_WIDTH] << cmd->bpe;
		cmd->h = pl[GPU_PKT_FILL_HEIGHT] & 0xffffu;
		cmd->value = pl[GPU_PKT_FILL_VALUE_LO] | (uint64_t)pl[GPU_PKT_FILL_VALUE_HI] << 32;
	}
	return true;
}

/* Whether this edge can change nothing in the queue but its counters: no
 * request to make, nothing to consume, only a wait that cannot end (the
 * caller guarantees no response arrives and nothing else talks to it). */
bool ref_queue_quiet(const struct ref_queue *q, const struct ref_qcfg *c)
{
	uint32_t st = q->state;

	if (c->wptr != q->wptr_seen || q->fence_irq || q->err_irq || want(q, c) ||
	    ref_fetch_act(q, c))
		return false;
	switch (st) {
	case GPU_CP_ST_IDLE: return !c->halt && !(c->enable && ref_avail(q, c));
	case GPU_CP_ST_HEADER: case GPU_CP_ST_PAYLOAD: case GPU_CP_ST_SKIP: case GPU_CP_ST_WDATA:
		return !have_dw(q, c);
	case GPU_CP_ST_WRESP: return true;
	case GPU_CP_ST_WPOLL: return q->poll != 0;
	case GPU_CP_ST_FDRAIN: case GPU_CP_ST_FACK: case GPU_CP_ST_INV: case GPU_CP_ST_CDRAIN:
		return q->wr_out != 0;
	case GPU_CP_ST_HALTED: return c->halt;
	case GPU_CP_ST_ERROR: return true;
	case GPU_CP_ST_CWAIT: return true; /* until the copy engine's done */
	default: return false;
	}
}

/* The edge of a quiet queue (ref_queue_quiet()): counters and the poll,
 * as ref_queue_step() counts them in each state.  Whether the queue is
 * still quiet after it (false once a poll ends). */
bool ref_queue_quiet_step(struct ref_queue *q)
{
	switch (q->state) {
	case GPU_CP_ST_IDLE: case GPU_CP_ST_HALTED: case GPU_CP_ST_ERROR:
		return true;
	case GPU_CP_ST_HEADER: case GPU_CP_ST_PAYLOAD: case GPU_CP_ST_SKIP: case GPU_CP_ST_WDATA:
		q->busy++;
		q->stall_mem++;
		return true;
	case GPU_CP_ST_WRESP:
		q->busy++;
		q->stall_wait++;
		return true;
	case GPU_CP_ST_WPOLL:
		q->busy++;
		q->stall_wait++;
		return --q->poll != 0;
	case GPU_CP_ST_FDRAIN: case GPU_CP_ST_FACK: case GPU_CP_ST_INV:
		q->busy++;
		q->stall_fence++;
		return true;
	default:
		q->busy++;
		return true;
	}
}

/* The payload rules of the packet collected in q->pl. */
static uint32_t payload_cause(const struct ref_queue *q, const struct ref_qcfg *c, uint32_t ib_max)
{
	uint32_t dw[17];
	bool priv = q->in_ib ? q->ib_priv : c->priv;
	dw[0] = q->hdr;
	memcpy(&dw[1], q->pl, sizeof(q->pl));
	return gpu_pkt_check(dw, (size_t)GPU_HDR_COUNT_GET(q->hdr) + 1u, !q->pkt_ring, priv, ib_max);
}

static bool wait_true(const struct ref_queue *q, const uint8_t *beat)
{
	uint32_t ctl = q->pl[GPU_PKT_WAIT_MEM_CTL];
	bool b64 = GPU_PKT_WAIT_MEM_SIZE64_GET(ctl);
	uint64_t a = pl_addr(q), v = 0, ref, mask;

	if (b64) {
		memcpy(&v, beat + (a & REF_BEAT_MASK & ~7ull), 8);
		ref = q->pl[GPU_PKT_WAIT_MEM_REF_LO] | (uint64_t)q->pl[GPU_PKT_WAIT_MEM_REF_HI] << 32;
		mask = q->pl[GPU_PKT_WAIT_MEM_MASK_LO] | (uint64_t)q->pl[GPU_PKT_WAIT_MEM_MASK_HI] << 32;
	} else {
		memcpy(&v, beat + (a & REF_BEAT_MASK & ~3ull), 4);
		ref = q->pl[GPU_PKT_WAIT_MEM_REF_LO];
		mask = q->pl[GPU_PKT_WAIT_MEM_MASK_LO];
	}
	v &= mask;
	switch (GPU_PKT_WAIT_MEM_FUNC_GET(ctl)) {
	case GPU_FUNC_ALWAYS: return true;
	case GPU_FUNC_LT: return v < ref;
	case GPU_FUNC_LE: return v <= ref;
	case GPU_FUNC_EQ: return v == ref;
	case GPU_FUNC_NE: return v != ref;
	case GPU_FUNC_GE: return v >= ref;
	case GPU_FUNC_GT: return v > ref;
	default: return false;
	}
}

/* Start the packet whose payload is in: its first state, or an error. */
static uint32_t exec(struct ref_queue *q, const struct ref_qcfg *c, const struct ref_queue_in *in,
		     uint32_t *cause)
{
	uint32_t op = GPU_HDR_OPCODE_GET(q->hdr);

	*cause = payload_cause(q, c, in->ib_max);
	if (*cause != GPU_CAUSE_NONE)
		return GPU_CP_ST_ERROR;
	switch (op) {
	case GPU_OP_INDIRECT_BUFFER: {
		uint32_t sz = q->pl[GPU_PKT_INDIRECT_BUFFER_SIZE];

		q->in_ib = true;
		q->ib_ptr = pl_addr(q);
		q->ib_rem = GPU_PKT_INDIRECT_BUFFER_SIZE_DW_GET(sz);
		q->ib_vmid = GPU_PKT_INDIRECT_BUFFER_VMID_GET(sz);
		q->ib_priv = GPU_PKT_INDIRECT_BUFFER_PRIV_GET(sz);
		return GPU_CP_ST_DONE;
	}
	case GPU_OP_RELEASE_FENCE: return GPU_CP_ST_FDRAIN;
	case GPU_OP_WAIT_MEM: return GPU_CP_ST_WREAD;
	case GPU_OP_TIMESTAMP:
		q->wr_addr = pl_addr(q);
		q->wr_data = in->cycle;
		q->wr_64 = true;
		q->ret = GPU_CP_ST_DONE;
		return GPU_CP_ST_WRITE;
	case GPU_OP_PTE_WRITE:
		q->wr_addr = pl_addr(q);
		q->pte_left = GPU_PKT_PTE_WRITE_ENTRIES_GET(q->pl[GPU_PKT_PTE_WRITE_NUM]);
		q->pte_base = q->pl[GPU_PKT_PTE_WRITE_BASE_LO] |
			      (uint64_t)(q->pl[GPU_PKT_PTE_WRITE_BASE_HI] & 0xffffu) << 32;
		return GPU_CP_ST_PTE;
	case GPU_OP_INVALIDATE_TLB: return GPU_CP_ST_INV;
	case GPU_OP_COPY: case GPU_OP_BLT: case GPU_OP_FILL: return GPU_CP_ST_CDRAIN;
	default: return GPU_CP_ST_DONE;
	}
}

static uint32_t between_packets(const struct ref_qcfg *c, bool more)
{
	return c->halt ? GPU_CP_ST_HALTED : c->enable && more ? GPU_CP_ST_HEADER : GPU_CP_ST_IDLE;
}

/* The memory side of the edge: grants and responses, in every state.
 * Returns the error cause a response carried (or the stream reached), or
 * NONE. */
static uint32_t memory(struct ref_queue *q, const struct ref_qcfg *c, const struct ref_queue_in *in,
		       int w, bool consume)
{
	const struct ref_rsp *r = in->rsp;
	uint32_t cause;

	cause = ref_fetch_step(q, c, in->granted && w == 3, in->granted && w == 2, r && !r->we ? r : NULL,
			       consume, in->qreset);
	if (in->granted && w == 1)
		q->wr_out++;
	if (r && r->we) {
		q->wr_out--;
		if (r->err)
			cause = r->fault ? GPU_CAUSE_PAGE_FAULT : GPU_CAUSE_MEM_ERROR;
	}
	return cause;
}

void ref_queue_step(struct ref_queue *q, const struct ref_qcfg *c, const struct ref_queue_in *in)
{
	uint32_t st = q->state, next = st, cause = GPU_CAUSE_NONE, dw = 0;
	int w = want(q, c);
	bool need = ref_needs_dw(st), have = need && have_dw(q, c), consume = have;
	bool more_av = ref_avail(q, c), stall_mem, stall_wait, busy;
	uint64_t here = ref_cur_addr(q, c);
	uint32_t wo = q->wr_out; /* writes in flight as the edge starts */

	/* counters of this cycle, from the state it started in */
	busy = st != GPU_CP_ST_IDLE && st != GPU_CP_ST_HALTED && st != GPU_CP_ST_ERROR;
	stall_wait = st == GPU_CP_ST_WREAD || st == GPU_CP_ST_WRESP || st == GPU_CP_ST_WPOLL;
	stall_mem = (need && !have) || (w == 1 && !in->granted);
	q->busy += busy;
	q->stall_mem += busy && stall_mem;
	q->stall_wait += stall_wait;
	q->stall_fence += st == GPU_CP_ST_FDRAIN || st == GPU_CP_ST_FACK || st == GPU_CP_ST_INV;
	q->fence_irq = false;
	q->err_irq = false;

	if (consume)
		dw = ref_fetch_dw(q, here);
	cause = memory(q, c, in, w, consume);
	if (consume) {
		if (q->in_ib) {
			q->ib_ptr += 4;
			q->ib_rem--;
		} else {
			q->rptr = (q->rptr + 1u) & ref_ring_mask(c);
		}
	}

	switch (st) {
	case GPU_CP_ST_IDLE: {
		bool ring_bad = c->size_log2 < GPU_RING_LOG2_MIN || c->size_log2 > GPU_RING_LOG2_MAX ||
				(c->base & REF_BEAT_MASK);

		if (c->halt) {
			next = GPU_CP_ST_HALTED;
		} else if (c->enable && !q->in_ib && more_av && ring_bad) {
			cause = GPU_CAUSE_BAD_RING;
			q->pkt_addr = here;
			q->hdr = 0;
		} else {
			next = between_packets(c, more_av);
		}
		break;
	}
	case GPU_CP_ST_HEADER:
		if (!consume)
			break;
		q->hdr = dw;
		q->pkt_addr = here;
		q->pkt_ring = !q->in_ib;
		q->cnt = GPU_HDR_COUNT_GET(dw);
		q->idx_pl = 0;
		cause = gpu_pkt_header_cause(dw, q->pkt_ring ? ref_ring_mask(c) : q->ib_rem + 1u,
				     q->pkt_ring ? c->priv : q->ib_priv);
		if (cause == GPU_CAUSE_NONE) {
			if (GPU_HDR_OPCODE_GET(dw) == GPU_OP_NOP)
				next = q->cnt ? GPU_CP_ST_SKIP : GPU_CP_ST_DONE;
			else
				next = GPU_CP_ST_PAYLOAD;
		}
		break;
	case GPU_CP_ST_PAYLOAD:
		if (!consume)
			break;
		if (q->idx_pl < 16)
			q->pl[q->idx_pl] = dw;
		q->idx_pl++;
		q->cnt--;
		if (GPU_HDR_OPCODE_GET(q->hdr) == GPU_OP_WRITE_DATA && q->idx_pl == 2) {
			uint32_t chk[4] = { q->hdr, q->pl[0], q->pl[1], 0 };

			cause = gpu_pkt_check(chk, (size_t)GPU_HDR_COUNT_GET(q->hdr) + 1u, false, true, 0);
			if (cause == GPU_CAUSE_NONE) {
				q->wr_addr = pl_addr(q);
				next = GPU_CP_ST_WDATA;
			}
		} else if (q->cnt == 0) {
			next = GPU_CP_ST_EXEC;
		}
		break;
	case GPU_CP_ST_EXEC:
		next = exec(q, c, in, &cause);
		break;
	case GPU_CP_ST_SKIP:
		if (consume && --q->cnt == 0)
			next = GPU_CP_ST_DONE;
		break;
	case GPU_CP_ST_WDATA:
		if (consume) {
			q->wr_data = dw;
			q->wr_64 = false;
			q->cnt--;
			q->ret = q->cnt == 0 ? GPU_CP_ST_DONE : GPU_CP_ST_WDATA;
			next = GPU_CP_ST_WRITE;
		}
		break;
	case GPU_CP_ST_WRITE:
		if (in->granted) {
			next = q->ret;
			q->wr_addr += q->wr_64 ? 8u : 4u;
		}
		break;
	case GPU_CP_ST_FDRAIN:
		if (wo == 0) {
			uint32_t fl = q->pl[GPU_PKT_RELEASE_FENCE_FLAGS];

			q->wr_addr = pl_addr(q);
			q->wr_data = q->pl[2] | (uint64_t)q->pl[3] << 32;
			q->wr_64 = GPU_PKT_RELEASE_FENCE_SIZE64_GET(fl);
			q->ret = GPU_CP_ST_FACK;
			next = GPU_CP_ST_WRITE;
		}
		break;
	case GPU_CP_ST_FACK:
		if (wo == 0) {
			q->fence_irq = GPU_PKT_RELEASE_FENCE_INT_GET(q->pl[GPU_PKT_RELEASE_FENCE_FLAGS]);
			next = GPU_CP_ST_DONE;
		}
		break;
	case GPU_CP_ST_WREAD:
		if (in->granted)
			next = GPU_CP_ST_WRESP;
		break;
	case GPU_CP_ST_WRESP:
		if (in->rsp && !in->rsp->we && !in->rsp->err) {
			if (wait_true(q, in->rsp->rdata)) {
				next = GPU_CP_ST_DONE;
			} else {
				q->poll = GPU_PKT_WAIT_MEM_POLL_CYCLES_GET(q->pl[GPU_PKT_WAIT_MEM_CTL]);
				next = GPU_CP_ST_WPOLL;
			}
		}
		break;
	case GPU_CP_ST_WPOLL:
		if (q->poll == 0)
			next = GPU_CP_ST_WREAD;
		else
			q->poll--;
		break;
	case GPU_CP_ST_DONE: {
		bool ib_end = q->in_ib && q->ib_rem == 0;

		q->pkts++;
		if (ib_end)
			q->in_ib = false;
		if (q->pkt_ring && c->rptr_wb) {
			q->wr_addr = c->rptr_wb_addr;
			q->wr_data = q->rptr;
			q->wr_64 = false;
			q->ret = GPU_CP_ST_IDLE;
			next = GPU_CP_ST_WRITE;
		} else {
			next = between_packets(c, q->in_ib ? q->ib_rem != 0 : more_av);
		}
		break;
	}
	case GPU_CP_ST_PTE: {
		uint64_t flags = q->pl[GPU_PKT_PTE_WRITE_FLAGS_LO] | (uint64_t)q->pl[GPU_PKT_PTE_WRITE_FLAGS_HI] << 32;

		q->wr_data = flags | (q->pte_base & GPU_PTE_ADDR_MASK << GPU_PTE_ADDR_SHIFT);
		q->wr_64 = true;
		q->pte_left--;
		q->pte_base = (q->pte_base + q->pl[GPU_PKT_PTE_WRITE_STRIDE]) & REF_ADDR_MASK;
		q->ret = q->pte_left == 0 ? GPU_CP_ST_DONE : GPU_CP_ST_PTE;
		next = GPU_CP_ST_WRITE;
		break;
	}
	case GPU_CP_ST_INV:
		if (in->inv_taken)
			next = GPU_CP_ST_DONE;
		break;
	case GPU_CP_ST_CDRAIN:
		if (in->ce_taken)
			next = GPU_CP_ST_CWAIT;
		break;
	case GPU_CP_ST_CWAIT:
		if (in->ce_done) {
			if (in->ce_err)
				cause = in->ce_fault ? GPU_CAUSE_PAGE_FAULT : GPU_CAUSE_MEM_ERROR;
			else
				next = GPU_CP_ST_DONE;
		}
		break;
	case GPU_CP_ST_HALTED:
		if (!c->halt)
			next = GPU_CP_ST_IDLE;
		break;
	case GPU_CP_ST_ERROR:
		break;
	default:
		next = GPU_CP_ST_ERROR;
		break;
	}

	if (cause != GPU_CAUSE_NONE && st != GPU_CP_ST_ERROR) {
		next = GPU_CP_ST_ERROR;
		q->err_cause = cause;
		q->err_addr = q->pkt_addr;
		q->err_hdr = q->hdr;
	}
	q->err_irq = next == GPU_CP_ST_ERROR && st != GPU_CP_ST_ERROR;
	q->state = next;
	q->wptr_seen = c->wptr;

	if (in->qreset) {
		q->state = GPU_CP_ST_IDLE;
		q->rptr = 0;
		q->in_ib = false;
		q->ib_rem = 0;
		q->ib_vmid = 0;
		q->ib_priv = false;
		q->err_cause = GPU_CAUSE_NONE;
		q->err_addr = 0;
		q->err_hdr = 0;
		q->pkts = 0;
		q->fence_irq = false;
		q->err_irq = false;
		q->busy = q->stall_mem = q->stall_wait = q->stall_fence = 0;
	}
}
