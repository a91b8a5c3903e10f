/* SPDX-License-Identifier: MIT */
/*
 * ref_top.c - the reference backend: gpu_top's pins over the C blocks.
 *
 * gm_backend_ref is the third struct gm_backend_ops (GM_BACKEND_REF): it
 * reads and drives struct gm_pins exactly as the RTL does (gpu_top.sv's
 * port description), through the pin view generated from the port list
 * (ref_pins.h, regspec/gpu_top_ports.json), so gm.c, its memory model, the
 * firmware and every client run on it unchanged.  It has no waveform: trace_open answers
 * GM_ERR_UNSUPPORTED.
 *
 * One cycle: the registered inputs of the last edge are used, every block
 * offers what its state asks for, the arbiter and the MMU decide which
 * request is taken, the TLB invalidation and copy-engine command are
 * handed out, every block steps, the outputs are copied to the pins and the
 * pins' inputs registered for the next cycle.
 */
#include <stdlib.h>
#include <string.h>

#include "gm_status.h"
#include "ref.h"
#include "ref_pins.h" /* the pins as the RTL sees them (generated) */

static void reset_all(struct ref_top *t)
{
	struct gm_pins *pins = t->pins;

	memset(t, 0, sizeof(*t));
	t->pins = pins;
	ref_regs_reset(&t->regs);
	for (unsigned i = 0; i < REF_NUM_QUEUES; i++)
		ref_queue_reset(&t->q[i], i);
	ref_ce_reset(&t->ce);
	ref_apt_reset(&t->apt);
	ref_arb_reset(&t->arb);
	ref_mmu_reset(&t->mmu);
}

static void pins_out(struct ref_top *t)
{
	struct gm_pins *p = t->pins;
	const struct ref_req *h = &t->mmu.ob[0];

	ref_drive_reg_req_ready(p, 1);
	ref_drive_reg_rsp_valid(p, t->regs.rsp_valid);
	ref_drive_reg_rsp_err(p, t->regs.rsp_err);
	ref_drive_reg_rsp_rdata(p, t->regs.rsp_rdata);
	ref_drive_mem_req_valid(p, t->mmu.ob_n > 0);
	ref_drive_mem_req_we(p, t->mmu.ob_n ? h->we : 0);
	ref_drive_mem_req_id(p, t->mmu.ob_n ? h->id : 0);
	ref_drive_mem_req_addr(p, t->mmu.ob_n ? h->addr : 0);
	if (t->mmu.ob_n)
		ref_drive_mem_req_wdata(p, h->wdata);
	ref_drive_mem_req_wstrb(p, t->mmu.ob_n ? h->wstrb : 0);
	ref_drive_irq(p, ref_regs_irq(&t->regs));
	ref_drive_apt_req_ready(p, ref_apt_ready(&t->apt, t->a_valid));
	ref_drive_apt_rsp_valid(p, t->apt.rsp_valid);
	ref_drive_apt_rsp_err(p, t->apt.rsp_err);
	ref_drive_apt_rsp_rdata(p, t->apt.rsp_rdata);
}

/* Register the inputs; a field beside a valid only with it (no block
 * reads it without). */
static void pins_in(struct ref_top *t)
{
	const struct gm_pins *p = t->pins;

	t->r_valid = ref_pin_reg_req_valid(p);
	if (t->r_valid) {
		t->r_we = ref_pin_reg_req_we(p);
		t->r_addr = ref_pin_reg_req_addr(p);
		t->r_wdata = ref_pin_reg_req_wdata(p);
	}
	t->m_rsp.valid = ref_pin_mem_rsp_valid(p);
	if (t->m_rsp.valid) {
		t->m_rsp.err = ref_pin_mem_rsp_err(p);
		t->m_rsp.id = ref_pin_mem_rsp_id(p);
		t->m_rsp.we = ref_pin_mem_rsp_id(p) & 1u;
		t->m_rsp.fault = false;
		memcpy(t->m_rsp.rdata, ref_pin_mem_rsp_rdata(p), REF_BEAT);
	}
	t->a_valid = ref_pin_apt_req_valid(p);
	if (t->a_valid) {
		t->a_we = ref_pin_apt_req_we(p);
		t->a_addr = ref_pin_apt_req_addr(p);
		memcpy(t->a_wdata, ref_pin_apt_req_wdata(p), sizeof(t->a_wdata));
		t->a_wstrb = ref_pin_apt_req_wstrb(p);
	}
}

/* The invalidation of this edge: the register's, else the first queue's. */
static int pick_inv(struct ref_top *t, struct ref_inv *inv)
{
	*inv = t->regs.inv;
	if (inv->valid)
		return -1;
	for (unsigned i = 0; i < REF_NUM_QUEUES; i++)
		if (ref_queue_inv(&t->q[i], inv))
			return (int)i;
	return -1;
}

/* Every block's state is quiet: the memory side empty (what is in flight
 * is in the memory model), the copy engine and the aperture idle, every
 * queue quiet.  With no input on an edge, nothing can change on it but
 * counters; a register read changes only the register port's answer. */
static bool quiet_state(const struct ref_top *t)
{
	const struct ref_mmu *m = &t->mmu;

	if (t->snoop_valid || m->ob_n || m->mq_n || m->syn_valid || m->wk != GPU_WK_IDLE ||
	    !ref_ce_ready(&t->ce) || ref_apt_busy(&t->apt) || t->apt.rsp_valid)
		return false;
	for (unsigned i = 0; i < REF_NUM_QUEUES; i++)
		if (!ref_queue_quiet(&t->q[i], &t->regs.q[i]))
			return false;
	return true;
}

/* The quiet edge: the cycle counter, the queues' counters and polls; a
 * register read (@read) answered as the full edge would. */
static void quiet_edge(struct ref_top *t, bool read)
{
	struct ref_regs *r = &t->regs;

	if (read) {
		ref_regs_step(t, true, false, t->r_addr, t->r_wdata);
	} else {
		r->cycle++;
		r->rsp_valid = r->rsp_err = false;
		r->rsp_rdata = 0;
		r->apt_wr = r->apt_cfg_wr = r->apt_err_clr = r->apt_pf_drop = false;
		r->inv.valid = false;
		for (unsigned i = 0; i < REF_NUM_QUEUES; i++)
			r->q_reset[i] = false;
	}
	for (unsigned i = 0; i < REF_NUM_QUEUES; i++)
		if (!ref_queue_quiet_step(&t->q[i]))
			t->quiet_ok = false;
}

/*
 * Idle steps.  A block with nothing to do whose last step was also idle
 * (*fix) is at a fixed point: stepping it again changes nothing, so the
 * step is skipped.  Built with -DREF_CHECK_SKIP, each skipped step is
 * taken on a copy instead and the copy must equal the block.
 */
#ifdef REF_CHECK_SKIP
#include <stdio.h>
#define SKIP_CHECK(blk, step)                                                       \
	do {                                                                        \
		__typeof__(blk) copy_ = (blk), *b_ = &copy_;                         \
		step;                                                               \
		if (memcmp(b_, &(blk), sizeof(blk))) {                               \
			fprintf(stderr, "ref: skipped step of %s moved it\n", #blk); \
			abort();                                                    \
		}                                                                   \
	} while (0)
#else
#define SKIP_CHECK(blk, step) do { } while (0)
#endif

static bool mmu_idle(const struct ref_mmu *m, bool in, const struct ref_rsp *mem,
		     const struct ref_inv *inv)
{
	return !in && !mem->valid && !inv->valid && m->wk == GPU_WK_IDLE && !m->mq_n && !m->ob_n &&
	       !m->syn_valid;
}

static bool mmu_step(struct ref_top *t, const struct ref_req *in, const struct ref_inv *inv)
{
	bool idle = mmu_idle(&t->mmu, in != NULL, &t->m_rsp, inv), taken;

	if (idle && t->mmu_fix) {
		SKIP_CHECK(t->mmu, (void)ref_mmu_step(b_, &t->regs, NULL, &t->m_rsp,
						      ref_pin_mem_req_ready(t->pins), inv));
		return false;
	}
	taken = ref_mmu_step(&t->mmu, &t->regs, in, &t->m_rsp, ref_pin_mem_req_ready(t->pins), inv);
	t->mmu_fix = idle;
	return taken;
}

static bool apt_idle(const struct ref_apt *a, const struct ref_regs *r, const struct ref_apt_in *in)
{
	return !in->req_valid && !in->granted && !in->rsp &&
	       !ref_apt_snoop_hits(a, in->snoop_valid, in->snoop_addr) && !r->apt_wr &&
	       !r->apt_cfg_wr && !r->apt_err_clr && !r->apt_pf_drop && !a->wc_v && !a->rsp_valid &&
	       !a->err_irq && !ref_apt_busy(a);
}

static void apt_step(struct ref_top *t, const struct ref_apt_in *in)
{
	bool idle = apt_idle(&t->apt, &t->regs, in);

	if (idle && t->apt_fix) {
		SKIP_CHECK(t->apt, ref_apt_step(b_, &t->regs, in));
		return;
	}
	ref_apt_step(&t->apt, &t->regs, in);
	t->apt_fix = idle;
}

/* A queue with no input this edge and quiet (ref_queue_quiet()) only counts. */
static void queue_step(struct ref_top *t, unsigned i, const struct ref_queue_in *in)
{
	struct ref_queue *q = &t->q[i];

	if (!in->granted && !in->inv_taken && !in->ce_taken && !in->ce_done && !in->qreset &&
	    !in->rsp && ref_queue_quiet(q, &t->regs.q[i])) {
#ifdef REF_CHECK_SKIP
		struct ref_queue full = *q;

		ref_queue_step(&full, &t->regs.q[i], in);
		(void)ref_queue_quiet_step(q);
		if (memcmp(&full, q, sizeof(full))) {
			fprintf(stderr, "ref: queue %u's quiet step differs from its step\n", i);
			abort();
		}
#else
		(void)ref_queue_quiet_step(q);
#endif
		return;
	}
	ref_queue_step(q, &t->regs.q[i], in);
}

/* The edge as a quiet one, if it is: no input but a register read, every
 * block's state quiet.  *moved: the outputs may have changed (false for a
 * quiet edge after another one).  False, nothing done, when it is not. */
static bool quiet_try(struct ref_top *t, bool *moved)
{
	bool known = t->quiet_ok;

	if (t->m_rsp.valid || t->a_valid || (t->r_valid && t->r_we))
		return false;
	if (!known && !(t->quiet_ok = quiet_state(t)))
		return false;
	quiet_edge(t, t->r_valid);
	*moved = !known || t->r_valid;
	return true;
}

/* One full edge (kept out of line: the quiet path does without its frame). */
static __attribute__((noinline)) void edge(struct ref_top *t)
{
	struct ref_req offers[REF_NUM_CLIENTS];
	struct ref_rsp up;
	struct ref_inv inv;
	struct ref_ce_cmd cmd;
	struct ref_queue_in qin[REF_NUM_QUEUES];
	struct ref_apt_in ain;
	const struct ref_rsp *to[REF_NUM_CLIENTS] = { 0 };
	bool ce_done, ce_err, ce_fault, taken, ce_taken = false, reset_owner;
	int pick, inv_q, cmd_q = -1, rc;
	uint64_t cycle = t->regs.cycle;

	t->quiet_ok = false;
	/* register file first: its pulses (queue reset, invalidation) act on this edge */
	ref_regs_step(t, t->r_valid, t->r_we, t->r_addr, t->r_wdata);

	ref_mmu_up(&t->mmu, &t->m_rsp, &up);
	rc = up.valid ? ref_arb_client(up.id) : -1;
	if (rc >= 0)
		to[rc] = &up;

	for (unsigned i = 0; i < REF_NUM_QUEUES; i++)
		ref_queue_offer(&t->q[i], &t->regs.q[i], &offers[i]);
	ref_apt_offer(&t->apt, &offers[REF_NUM_QUEUES]);
	ref_ce_offer(&t->ce, &offers[REF_NUM_QUEUES + 1]);
	pick = ref_arb_pick(&t->arb, offers);

	inv_q = pick_inv(t, &inv);
	ce_done = ref_ce_done(&t->ce, &ce_err, &ce_fault);
	if (ref_ce_ready(&t->ce)) {
		for (unsigned i = 0; i < REF_NUM_QUEUES && cmd_q < 0; i++)
			if (ref_queue_ce(&t->q[i], &cmd) && !t->regs.q_reset[i])
				cmd_q = (int)i;
	}

	/* the aperture snoops every write the memory port takes, a cycle late */
	ain.snoop_valid = t->snoop_valid;
	ain.snoop_addr = t->snoop_addr;
	t->snoop_valid = t->mmu.ob_n && t->mmu.ob[0].we && ref_pin_mem_req_ready(t->pins);
	t->snoop_addr = t->mmu.ob[0].addr;
	taken = mmu_step(t, pick >= 0 ? &offers[pick] : NULL, &inv);
	ref_regs_fault(&t->regs, &t->mmu.fault);
	ref_arb_step(&t->arb, pick, taken);

	for (unsigned i = 0; i < REF_NUM_QUEUES; i++) {
		struct ref_queue_in *in = &qin[i];

		in->granted = taken && pick == (int)i;
		in->inv_taken = inv_q == (int)i;
		in->ce_taken = cmd_q == (int)i;
		in->ce_done = ce_done && t->ce.owner == i;
		in->ce_err = ce_err;
		in->ce_fault = ce_fault;
		in->qreset = t->regs.q_reset[i];
		in->rsp = to[i];
		in->ib_max = t->regs.ib_max;
		in->cycle = cycle;
	}
	/* the copy engine latches its command's owner and context */
	reset_owner = t->regs.q_reset[t->ce.owner];
	{
		unsigned owner = t->ce.owner;
		uint8_t vmid = t->ce.vmid;

		ref_ce_step(&t->ce, cmd_q >= 0 ? &cmd : NULL, taken && pick == (int)REF_NUM_QUEUES + 1,
			    to[REF_NUM_QUEUES + 1], reset_owner);
		t->ce.owner = owner;
		t->ce.vmid = vmid;
		if (cmd_q >= 0) {
			ce_taken = true;
			t->ce.owner = (unsigned)cmd_q;
			t->ce.vmid = ref_queue_exec_vmid(&t->q[cmd_q], &t->regs.q[cmd_q]);
		}
	}
	(void)ce_taken;
	for (unsigned i = 0; i < REF_NUM_QUEUES; i++)
		queue_step(t, i, &qin[i]);
	ain.req_valid = t->a_valid;
	ain.we = t->a_we;
	ain.addr = t->a_addr;
	memcpy(ain.wdata, t->a_wdata, sizeof(ain.wdata));
	ain.wstrb = t->a_wstrb;
	ain.granted = taken && pick == (int)REF_NUM_QUEUES;
	ain.rsp = to[REF_NUM_QUEUES];
	apt_step(t, &ain);
	if (t->apt.err_irq)
		t->regs.int_status |= GPU_INT_STATUS_APT_ERR(1);
}

/* ------------------------------------------------------------ backend ops */

static int ref_create(struct gm_pins *pins, void **out)
{
	struct ref_top *t = calloc(1, sizeof(*t));

	if (!t)
		return GM_ERR_NO_MEM;
	t->pins = pins;
	reset_all(t);
	pins_out(t);
	*out = t;
	return GM_OK;
}

static void ref_destroy(void *be)
{
	free(be);
}

static bool ref_cycle(void *be, uint64_t cycle, int dump)
{
	struct ref_top *t = be;
	bool moved = true, a_valid = t->a_valid;

	(void)cycle;
	(void)dump;
	if (!ref_pin_rst_n(t->pins))
		reset_all(t);
	else if (!quiet_try(t, &moved))
		edge(t);
	pins_in(t);
	if (!ref_pin_rst_n(t->pins)) {
		/* the input registers hold reset values too */
		t->r_valid = t->a_valid = false;
		t->m_rsp.valid = false;
	}
	/* apt_req_ready follows the registered request too */
	if (moved || t->a_valid != a_valid)
		pins_out(t);
	return false; /* no assertions */
}

/* The reference model has no signals to dump. */
static int ref_trace_open(void *be, const char *path)
{
	(void)be;
	(void)path;
	return GM_ERR_UNSUPPORTED;
}

static void ref_trace_close(void *be)
{
	(void)be;
}

const struct gm_backend_ops gm_backend_ref = {
	.create = ref_create,
	.destroy = ref_destroy,
	.cycle = ref_cycle,
	.trace_open = ref_trace_open,
	.trace_close = ref_trace_close,
};
