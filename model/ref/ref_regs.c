/* SPDX-License-Identifier: MIT */
/*
 * ref_regs.c - the reference backend's BAR0 register file and interrupts.
 *
 * From regspec/REGISTERS.md: global registers, per-queue registers, VM
 * roots, aperture ranges (fields refused while VALID is set), INT_STATUS
 * (W1C) with the line = |(INT_STATUS & INT_ENABLE), the MMU fault latch and
 * the cycle counter (CYCLE_LO latches CYCLE_HI).  An offset that names no
 * register answers with err, a read of it gives 0 and a write changes
 * nothing.  The answer is ready one edge after the access reaches the file.
 */
#include <string.h>

#include "ref.h"

/* Offsets inside a queue's, a VMID's and a range's register block. */
#define QO(r) (r(0) - GPU_QREG_BASE)
#define VO(r) (r(0) - GPU_VMREG_BASE)
#define AO(r) (r(0) - GPU_APTREG_BASE)

void ref_regs_reset(struct ref_regs *r)
{
	memset(r, 0, sizeof(*r));
	r->ib_max = GPU_IB_MAX_DW_RESET;
}

bool ref_regs_irq(const struct ref_regs *r)
{
	return (r->int_status & r->int_enable) != 0;
}

static uint32_t q_status(const struct ref_queue *q)
{
	uint32_t st = q->state;
	bool busy = st != GPU_CP_ST_IDLE && st != GPU_CP_ST_HALTED && st != GPU_CP_ST_ERROR;

	return (st << GPU_Q_STATUS_STATE_SHIFT) | (uint32_t)busy << GPU_Q_STATUS_BUSY_SHIFT |
	       (uint32_t)(st == GPU_CP_ST_HALTED) << GPU_Q_STATUS_HALTED_SHIFT |
	       (uint32_t)(st == GPU_CP_ST_ERROR) << GPU_Q_STATUS_ERROR_SHIFT |
	       (uint32_t)q->in_ib << GPU_Q_STATUS_IN_IB_SHIFT;
}

/* Read queue register @off of queue @n; false if it names none. */
static bool q_read(const struct ref_top *t, unsigned n, uint32_t off, uint32_t *v)
{
	const struct ref_qcfg *c = &t->regs.q[n];
	const struct ref_queue *q = &t->q[n];

	switch (off) {
	case QO(GPU_REG_Q_CTRL):
		*v = (uint32_t)c->enable << GPU_Q_CTRL_ENABLE_SHIFT | (uint32_t)c->priv << GPU_Q_CTRL_PRIV_SHIFT |
		     (uint32_t)c->rptr_wb << GPU_Q_CTRL_RPTR_WB_SHIFT | (uint32_t)c->halt << GPU_Q_CTRL_HALT_SHIFT;
		return true;
	case QO(GPU_REG_Q_BASE_LO): *v = (uint32_t)c->base; return true;
	case QO(GPU_REG_Q_BASE_HI): *v = (uint32_t)(c->base >> 32); return true;
	case QO(GPU_REG_Q_SIZE): *v = c->size_log2; return true;
	case QO(GPU_REG_Q_WPTR): *v = c->wptr; return true;
	case QO(GPU_REG_Q_RPTR): *v = q->rptr; return true;
	case QO(GPU_REG_Q_RPTR_WB_LO): *v = (uint32_t)c->rptr_wb_addr; return true;
	case QO(GPU_REG_Q_RPTR_WB_HI): *v = (uint32_t)(c->rptr_wb_addr >> 32); return true;
	case QO(GPU_REG_Q_STATUS): *v = q_status(q); return true;
	case QO(GPU_REG_Q_ERR_CAUSE): *v = q->err_cause << GPU_Q_ERR_CAUSE_CAUSE_SHIFT; return true;
	case QO(GPU_REG_Q_ERR_ADDR_LO): *v = (uint32_t)q->err_addr; return true;
	case QO(GPU_REG_Q_ERR_ADDR_HI): *v = (uint32_t)(q->err_addr >> 32); return true;
	case QO(GPU_REG_Q_ERR_HEADER): *v = q->err_hdr; return true;
	case QO(GPU_REG_Q_PKTS): *v = q->pkts; return true;
	case QO(GPU_REG_Q_BUSY_CYCLES): *v = q->busy; return true;
	case QO(GPU_REG_Q_STALL_MEM): *v = q->stall_mem; return true;
	case QO(GPU_REG_Q_STALL_WAIT): *v = q->stall_wait; return true;
	case QO(GPU_REG_Q_STALL_FENCE): *v = q->stall_fence; return true;
	case QO(GPU_REG_Q_VMID): *v = c->vmid; return true;
	default: return false;
	}
}

static bool q_write(struct ref_regs *r, unsigned n, uint32_t off, uint32_t v)
{
	struct ref_qcfg *c = &r->q[n];

	switch (off) {
	case QO(GPU_REG_Q_CTRL):
		c->enable = GPU_Q_CTRL_ENABLE_GET(v);
		c->priv = GPU_Q_CTRL_PRIV_GET(v);
		c->rptr_wb = GPU_Q_CTRL_RPTR_WB_GET(v);
		c->halt = GPU_Q_CTRL_HALT_GET(v);
		if (GPU_Q_CTRL_RESET_GET(v)) {
			c->wptr = 0;
			r->q_reset[n] = true;
		}
		return true;
	case QO(GPU_REG_Q_BASE_LO): c->base = (c->base & ~0xffffffffull) | v; return true;
	case QO(GPU_REG_Q_BASE_HI): c->base = (c->base & 0xffffffffull) | (uint64_t)(v & 0xffffu) << 32; return true;
	case QO(GPU_REG_Q_SIZE): c->size_log2 = v & 0x1fu; return true;
	case QO(GPU_REG_Q_WPTR): c->wptr = v & 0xfffffu; return true;
	case QO(GPU_REG_Q_RPTR_WB_LO): c->rptr_wb_addr = (c->rptr_wb_addr & ~0xffffffffull) | v; return true;
	case QO(GPU_REG_Q_RPTR_WB_HI):
		c->rptr_wb_addr = (c->rptr_wb_addr & 0xffffffffull) | (uint64_t)(v & 0xffffu) << 32;
		return true;
	case QO(GPU_REG_Q_VMID): c->vmid = v & 0xfu; return true;
	case QO(GPU_REG_Q_RPTR): case QO(GPU_REG_Q_STATUS): case QO(GPU_REG_Q_ERR_CAUSE): case QO(GPU_REG_Q_ERR_ADDR_LO):
	case QO(GPU_REG_Q_ERR_ADDR_HI): case QO(GPU_REG_Q_ERR_HEADER): case QO(GPU_REG_Q_PKTS):
	case QO(GPU_REG_Q_BUSY_CYCLES): case QO(GPU_REG_Q_STALL_MEM): case QO(GPU_REG_Q_STALL_WAIT):
	case QO(GPU_REG_Q_STALL_FENCE):
		return true; /* read-only: the write is ignored, not refused */
	default: return false;
	}
}

static bool apt_read(const struct ref_regs *r, unsigned n, uint32_t off, uint32_t *v)
{
	const struct ref_range *g = &r->rng[n];

	switch (off) {
	case AO(GPU_REG_APT_CTRL):
		*v = (uint32_t)g->valid << GPU_APT_CTRL_VALID_SHIFT | g->mode << GPU_APT_CTRL_MODE_SHIFT |
		     g->bpe << GPU_APT_CTRL_BPE_SHIFT;
		return true;
	case AO(GPU_REG_APT_START): *v = g->start; return true;
	case AO(GPU_REG_APT_END): *v = g->end; return true;
	case AO(GPU_REG_APT_BASE_LO): *v = (uint32_t)g->base; return true;
	case AO(GPU_REG_APT_BASE_HI): *v = (uint32_t)(g->base >> 32); return true;
	case AO(GPU_REG_APT_PITCH): *v = g->pitch; return true;
	default: return false;
	}
}

/* Write range register @off; *refused when VALID forbids it. */
static bool apt_write(struct ref_regs *r, unsigned n, uint32_t off, uint32_t v, bool *refused)
{
	struct ref_range *g = &r->rng[n];
	uint32_t dummy;

	/* any write into the block flushes and drops the row cache, even one
	 * refused or naming no register */
	r->apt_wr = r->apt_cfg_wr = true;
	if (!apt_read(r, n, off, &dummy))
		return false;
	if (off != AO(GPU_REG_APT_CTRL) && g->valid) {
		*refused = true;
		return true;
	}
	switch (off) {
	case AO(GPU_REG_APT_CTRL):
		g->valid = GPU_APT_CTRL_VALID_GET(v);
		g->mode = (v >> GPU_APT_CTRL_MODE_SHIFT) & 7u;
		g->bpe = (v >> GPU_APT_CTRL_BPE_SHIFT) & 7u;
		break;
	case AO(GPU_REG_APT_START): g->start = v & 0x0ffffff8u; break;
	case AO(GPU_REG_APT_END): g->end = v & 0x0ffffff8u; break;
	case AO(GPU_REG_APT_BASE_LO): g->base = (g->base & ~0xffffffffull) | v; break;
	case AO(GPU_REG_APT_BASE_HI): g->base = (g->base & 0xffffffffull) | (uint64_t)(v & 0xffffu) << 32; break;
	case AO(GPU_REG_APT_PITCH): g->pitch = v & 0xfffffu; break;
	default: break;
	}
	return true;
}

static bool glob_read(const struct ref_top *t, uint32_t off, uint32_t *v)
{
	const struct ref_regs *r = &t->regs;
	const struct ref_mmu *m = &t->mmu;

	switch (off) {
	case GPU_REG_ID: *v = GPU_ID_VALUE; return true;
	case GPU_REG_CAPS:
		*v = REF_NUM_QUEUES << GPU_CAPS_NUM_QUEUES_SHIFT | 5u << GPU_CAPS_BEAT_LOG2_SHIFT |
		     (uint32_t)GPU_VERSION << GPU_CAPS_VERSION_SHIFT;
		return true;
	case GPU_REG_CYCLE_LO: *v = (uint32_t)r->cycle; return true;
	case GPU_REG_CYCLE_HI: *v = r->cycle_hi; return true;
	case GPU_REG_INT_STATUS: *v = r->int_status; return true;
	case GPU_REG_INT_ENABLE: *v = r->int_enable; return true;
	case GPU_REG_SCRATCH: *v = r->scratch; return true;
	case GPU_REG_IB_MAX_DW: *v = r->ib_max; return true;
	case GPU_REG_DB_UNMAPPED: *v = r->db_unmapped; return true;
	case GPU_REG_MMU_CTRL: *v = r->mmu_enable; return true;
	case GPU_REG_MMU_FAULT_STATUS: *v = r->fault_status; return true;
	case GPU_REG_MMU_FAULT_VA_LO: *v = (uint32_t)r->fault_va; return true;
	case GPU_REG_MMU_FAULT_VA_HI: *v = (uint32_t)(r->fault_va >> 32); return true;
	case GPU_REG_MMU_FAULT_COUNT: *v = r->fault_count; return true;
	case GPU_REG_MMU_INV_VMID: *v = r->inv_vmid; return true;
	case GPU_REG_MMU_INV_START: *v = r->inv_start; return true;
	case GPU_REG_MMU_INV_END: *v = r->inv_end; return true;
	case GPU_REG_MMU_INV_CTL: *v = 0; return true;
	case GPU_REG_MMU_HITS: *v = m->hits; return true;
	case GPU_REG_MMU_MISSES: *v = m->misses; return true;
	case GPU_REG_MMU_WALKS: *v = m->walks; return true;
	case GPU_REG_MMU_WALK_CYCLES: *v = m->walk_cycles; return true;
	case GPU_REG_MMU_WALK_MAX: *v = m->walk_max; return true;
	case GPU_REG_CE_STATUS: *v = t->ce.state << GPU_CE_STATUS_STATE_SHIFT; return true;
	case GPU_REG_CE_BUSY_CYCLES: *v = t->ce.busy_cycles; return true;
	case GPU_REG_CE_BYTES: *v = t->ce.bytes; return true;
	case GPU_REG_APT_ACCESSES: *v = t->apt.accesses; return true;
	case GPU_REG_APT_STATUS: *v = ref_apt_status(&t->apt); return true;
	case GPU_REG_APT_ERR_STATUS:
		*v = GPU_APT_ERR_STATUS_VALID(t->apt.err_v) | GPU_APT_ERR_STATUS_CAUSE(t->apt.err_cause);
		return true;
	case GPU_REG_APT_ERR_OFF: *v = t->apt.err_off; return true;
	case GPU_REG_APT_ERR_COUNT: *v = t->apt.err_count; return true;
	case GPU_REG_APT_FLUSH: *v = 0; return true;
	default: return false;
	}
}

static bool glob_write(struct ref_regs *r, uint32_t off, uint32_t v)
{
	switch (off) {
	case GPU_REG_INT_STATUS: r->int_status &= ~v; return true;
	case GPU_REG_INT_ENABLE: r->int_enable = v; return true;
	case GPU_REG_SCRATCH: r->scratch = v; return true;
	case GPU_REG_IB_MAX_DW: r->ib_max = v & 0x1fffffu; return true;
	case GPU_REG_MMU_CTRL: r->mmu_enable = GPU_MMU_CTRL_ENABLE_GET(v); return true;
	case GPU_REG_MMU_FAULT_STATUS:
		if (GPU_MMU_FAULT_STATUS_VALID_GET(v))
			r->fault_status &= ~GPU_MMU_FAULT_STATUS_VALID(1);
		return true;
	case GPU_REG_MMU_INV_VMID: r->inv_vmid = v; return true;
	case GPU_REG_MMU_INV_START: r->inv_start = v; return true;
	case GPU_REG_MMU_INV_END: r->inv_end = v; return true;
	case GPU_REG_MMU_INV_CTL:
		if (GPU_MMU_INV_CTL_GO_GET(v)) {
			r->inv.valid = true;
			r->inv.all = GPU_MMU_INV_VMID_ALL_GET(r->inv_vmid);
			r->inv.vmid = r->inv_vmid & 0xfu;
			r->inv.start = r->inv_start;
			r->inv.end = r->inv_end;
		}
		return true;
	case GPU_REG_APT_ERR_STATUS:
		r->apt_wr = true;
		r->apt_err_clr = GPU_APT_ERR_STATUS_VALID_GET(v);
		return true;
	case GPU_REG_APT_FLUSH:
		r->apt_wr = true;
		r->apt_pf_drop = GPU_APT_FLUSH_PF_GET(v);
		return true;
	case GPU_REG_ID: case GPU_REG_CAPS: case GPU_REG_CYCLE_LO: case GPU_REG_CYCLE_HI:
	case GPU_REG_DB_UNMAPPED:
	case GPU_REG_MMU_FAULT_VA_LO: case GPU_REG_MMU_FAULT_VA_HI: case GPU_REG_MMU_FAULT_COUNT:
	case GPU_REG_MMU_HITS: case GPU_REG_MMU_MISSES: case GPU_REG_MMU_WALKS:
	case GPU_REG_MMU_WALK_CYCLES: case GPU_REG_MMU_WALK_MAX: case GPU_REG_CE_STATUS:
	case GPU_REG_CE_BUSY_CYCLES: case GPU_REG_CE_BYTES: case GPU_REG_APT_ACCESSES:
	case GPU_REG_APT_STATUS: case GPU_REG_APT_ERR_OFF: case GPU_REG_APT_ERR_COUNT:
		return true; /* read-only */
	default: return false;
	}
}

/* Decode and perform one access; false: no register there (err). */
static bool access(struct ref_top *t, bool we, uint32_t a, uint32_t wdata, uint32_t *rdata,
		   bool *refused)
{
	struct ref_regs *r = &t->regs;
	const uint32_t qend = GPU_QREG_BASE + REF_NUM_QUEUES * GPU_QREG_STRIDE;
	const uint32_t vend = GPU_VMREG_BASE + GPU_NUM_VMIDS * GPU_VMREG_STRIDE;
	const uint32_t aend = GPU_APTREG_BASE + GPU_APT_RANGES * GPU_APTREG_STRIDE;
	const uint32_t dend = GPU_DBREG_BASE + GPU_NUM_DOORBELLS * GPU_DBREG_STRIDE;

	if (a >= GPU_QREG_BASE && a < qend) {
		unsigned n = (a - GPU_QREG_BASE) / GPU_QREG_STRIDE;
		uint32_t off = (a - GPU_QREG_BASE) % GPU_QREG_STRIDE;

		return we ? q_write(r, n, off, wdata) : q_read(t, n, off, rdata);
	}
	if (a >= GPU_VMREG_BASE && a < vend) {
		unsigned v = (a - GPU_VMREG_BASE) / GPU_VMREG_STRIDE;
		uint32_t off = (a - GPU_VMREG_BASE) % GPU_VMREG_STRIDE;
		uint64_t *root = &r->root[v];

		if (off == VO(GPU_REG_VM_ROOT_LO)) {
			if (we)
				*root = (*root & ~0xffffffffull) | wdata;
			else
				*rdata = (uint32_t)*root;
			return true;
		}
		if (off == VO(GPU_REG_VM_ROOT_HI)) {
			if (we)
				*root = (*root & 0xffffffffull) | (uint64_t)(wdata & 0xffffu) << 32;
			else
				*rdata = (uint32_t)(*root >> 32);
			return true;
		}
		return false;
	}
	if (a >= GPU_APTREG_BASE && a < aend) {
		unsigned n = (a - GPU_APTREG_BASE) / GPU_APTREG_STRIDE;
		uint32_t off = (a - GPU_APTREG_BASE) % GPU_APTREG_STRIDE;

		return we ? apt_write(r, n, off, wdata, refused) : apt_read(r, n, off, rdata);
	}
	if (a >= GPU_DBREG_BASE && a < dend) {
		unsigned n = (a - GPU_DBREG_BASE) / GPU_DBREG_STRIDE;

		if ((a - GPU_DBREG_BASE) % GPU_DBREG_STRIDE != GPU_REG_DB_WPTR(0) - GPU_DBREG_BASE)
			return false;
		/* no queue is mapped by doorbell yet: every write is kept and counted */
		if (we) {
			r->db[n] = wdata & GPU_REG_DB_WPTR_BITS;
			r->db_unmapped++;
		} else {
			*rdata = r->db[n];
		}
		return true;
	}
	if (we)
		return glob_write(r, a, wdata);
	if (!glob_read(t, a, rdata))
		return false;
	if (a == GPU_REG_CYCLE_LO)
		r->cycle_hi = (uint32_t)(r->cycle >> 32);
	return true;
}

void ref_regs_step(struct ref_top *t, bool valid, bool we, uint16_t addr, uint32_t wdata)
{
	struct ref_regs *r = &t->regs;
	uint32_t rdata = 0, set = 0;
	bool hit = false, refused = false;

	memset(r->q_reset, 0, sizeof(r->q_reset));
	memset(&r->inv, 0, sizeof(r->inv));
	r->apt_wr = r->apt_cfg_wr = r->apt_err_clr = r->apt_pf_drop = false;
	for (unsigned i = 0; i < REF_NUM_QUEUES; i++) {
		if (t->q[i].fence_irq)
			set |= 1u << (GPU_INT_STATUS_FENCE_SHIFT + i);
		if (t->q[i].err_irq)
			set |= 1u << (GPU_INT_STATUS_ERROR_SHIFT + i);
	}
	if (valid)
		hit = access(t, we, addr, wdata, &rdata, &refused);
	r->int_status |= set;
	r->rsp_valid = valid;
	r->rsp_err = valid && (!hit || refused);
	r->rsp_rdata = valid && !we && hit ? rdata : 0;
	r->cycle++;
}

/* The MMU's fault of this edge: counted, and latched if none is. */
void ref_regs_fault(struct ref_regs *r, const struct ref_fault *f)
{
	if (!f->valid)
		return;
	r->fault_count++;
	r->int_status |= GPU_INT_STATUS_MMU_FAULT(1);
	if (GPU_MMU_FAULT_STATUS_VALID_GET(r->fault_status))
		return;
	r->fault_status = GPU_MMU_FAULT_STATUS_VALID(1) | (uint32_t)f->write << GPU_MMU_FAULT_STATUS_WRITE_SHIFT |
			  f->cause << GPU_MMU_FAULT_STATUS_CAUSE_SHIFT |
			  (uint32_t)f->vmid << GPU_MMU_FAULT_STATUS_VMID_SHIFT |
			  (f->client & 0x7fu) << GPU_MMU_FAULT_STATUS_CLIENT_SHIFT;
	r->fault_va = f->va;
}
