/* SPDX-License-Identifier: MIT */
/*
 * ref_mmu.c - the reference backend's MMU: TLB, page walker, null tiles,
 * faults, between the arbiter and the memory port.
 *
 * From regspec (PTE/PDE formats, enum mmu_fault) and mmu/mmu_walk.h (the
 * order of the checks: a PDE's V before its reserved bits, a PTE's
 * reserved bits before V/PRT, then R/W).  Accesses of VMID 0, or with
 * MMU_CTRL.ENABLE clear, are physical.  A translated access that hits the
 * TLB goes on in the same cycle; a miss parks in a two-entry FIFO (later
 * hits to other pages pass it; an access to a page a parked one waits for
 * parks behind it) and the walker serves the head, first looking it up
 * again (an earlier walk may have filled its page).  A null tile (V=0,
 * PRT=1) answers reads with zero and drops writes without touching memory;
 * a fault answers with err+fault and is reported once for the fault
 * registers.  The TLB (16 entries, fully associative, not-recently-used
 * replacement) caches 4 KiB pages and, for FRAG64K PTEs, 64 KiB fragments;
 * faults are not cached.  An invalidation drops matching entries at once and
 * restarts a walk in flight.  The page-walk cache keeps the leaf tables of
 * four 2 MiB regions (a hit: one table read) and the last two leaf-table
 * beats the walker read (a hit on a PTE the TLB could cache: no read);
 * fresh reads fill it, any invalidation empties it (rtl/mmu/mmu_pwc.sv).
 * Hits and misses count translations resolved from the TLB or by a walk;
 * walks, the walks that read memory.
 *
 * Requests leave through a two-entry output buffer (the memory port's ready
 * only pops its head); the MMU's own answers wait in one slot for a cycle
 * with no memory response for a client.
 */
#include <string.h>

#include "ref.h"

void ref_mmu_reset(struct ref_mmu *m)
{
	memset(m, 0, sizeof(*m));
	m->wk = GPU_WK_IDLE;
}

void ref_mmu_up(const struct ref_mmu *m, const struct ref_rsp *mem, struct ref_rsp *up)
{
	up->valid = false;
	if (mem->valid && mem->id != REF_WALK_ID) {
		*up = *mem;
		up->fault = false;
	} else if (m->syn_valid) {
		up->valid = true;
		up->id = m->syn_id;
		up->we = m->syn_id & 1u;
		up->err = m->syn_fault;
		up->fault = m->syn_fault;
		memset(up->rdata, 0, sizeof(up->rdata));
	}
}

/* ------------------------------------------------------------ TLB */

struct lookup {
	int idx;                   /* -1: miss */
	uint64_t pa;
	bool r, w, null;
};

static void tlb_lookup(const struct ref_mmu *m, uint8_t vmid, uint64_t va, struct lookup *lk)
{
	lk->idx = -1;
	for (unsigned i = 0; i < REF_TLB_ENTRIES; i++) {
		const struct ref_tlb_entry *e = &m->tlb[i];

		if (!e->valid || e->vmid != vmid || e->vpn >> 4 != va >> 16)
			continue;
		if (!e->big && (e->vpn & 15u) != ((va >> 12) & 15u))
			continue;
		lk->idx = (int)i;
		lk->pa = e->big ? (e->pfn >> 4) << 16 | (va & 0xffffu) : e->pfn << 12 | (va & 0xfffu);
		lk->r = e->r;
		lk->w = e->w;
		lk->null = e->null;
		return;
	}
}

static bool tlb_inv_hit(const struct ref_tlb_entry *e, const struct ref_inv *inv)
{
	uint64_t blk = e->vpn >> 4;

	return e->valid && (inv->all || e->vmid == inv->vmid) && blk >= inv->start && blk <= inv->end;
}

/* The edge's TLB update: invalidation, fill, used bits. */
static void tlb_update(struct ref_mmu *m, const struct ref_inv *inv, int touch,
		       const struct ref_tlb_entry *fill)
{
	int victim = -1;
	bool all_used = true;

	if (fill) {
		for (unsigned i = 0; i < REF_TLB_ENTRIES && victim < 0; i++)
			if (!m->tlb[i].valid)
				victim = (int)i;
		for (unsigned i = 0; i < REF_TLB_ENTRIES && victim < 0; i++)
			if (!m->tlb[i].used)
				victim = (int)i;
		if (victim < 0)
			victim = 0;
	}
	if (inv && inv->valid)
		for (unsigned i = 0; i < REF_TLB_ENTRIES; i++)
			if (tlb_inv_hit(&m->tlb[i], inv))
				m->tlb[i].valid = false;
	if (fill) {
		bool used = m->tlb[victim].used;

		/* a fill replaces what it overlaps in its VMID (mmu_walk.h) */
		for (unsigned i = 0; i < REF_TLB_ENTRIES; i++) {
			struct ref_tlb_entry *e = &m->tlb[i];

			if (e->vmid == fill->vmid && e->vpn >> 4 == fill->vpn >> 4 &&
			    (fill->big || e->big || e->vpn == fill->vpn))
				e->valid = false;
		}

		m->tlb[victim] = *fill;
		m->tlb[victim].used = used;
		touch = victim;
	}
	if (touch >= 0)
		m->tlb[touch].used = true;
	for (unsigned i = 0; i < REF_TLB_ENTRIES; i++)
		if (m->tlb[i].valid && !m->tlb[i].used)
			all_used = false;
	if (all_used)
		for (unsigned i = 0; i < REF_TLB_ENTRIES; i++)
			m->tlb[i].used = (int)i == touch;
}

/* ------------------------------------------------------------ page-walk cache */

#define LINE_SHIFT (9u + (unsigned)__builtin_ctz(REF_BEAT))

static const uint64_t *pwc_pde(const struct ref_mmu *m, uint8_t vmid, uint64_t va)
{
	const uint64_t *hit = NULL;

	for (unsigned i = 0; i < REF_PWC_PDES; i++)
		if (m->pde[i].valid && m->pde[i].vmid == vmid && m->pde[i].tag == (va >> 21))
			hit = &m->pde[i].table;
	return hit;
}

/* The PTE of @va in a cached leaf beat, if the TLB could cache it. */
static bool pwc_line(const struct ref_mmu *m, uint8_t vmid, uint64_t va, uint64_t *pte)
{
	bool hit = false;

	for (unsigned i = 0; i < REF_PWC_LINES; i++) {
		uint64_t e;

		if (!m->line[i].valid || m->line[i].vmid != vmid || m->line[i].tag != (va >> LINE_SHIFT))
			continue;
		memcpy(&e, m->line[i].beat + 8u * ((va >> 12) & (REF_BEAT / 8u - 1u)), 8);
		*pte = e;
		hit = !(e & GPU_PTE_RESERVED) && (e & (GPU_PTE_V_MASK << GPU_PTE_V_SHIFT |
						       GPU_PTE_PRT_MASK << GPU_PTE_PRT_SHIFT));
	}
	return hit;
}

static void pwc_fill_pde(struct ref_mmu *m, uint8_t vmid, uint64_t va, uint64_t table)
{
	m->pde[m->pde_next].valid = true;
	m->pde[m->pde_next].vmid = vmid;
	m->pde[m->pde_next].tag = va >> 21;
	m->pde[m->pde_next].table = table;
	m->pde_next = (m->pde_next + 1u) % REF_PWC_PDES;
}

/* A beat refilled overwrites its entry; a new one takes the next. */
static void pwc_fill_line(struct ref_mmu *m, uint8_t vmid, uint64_t va, const uint8_t *beat)
{
	unsigned w = m->line_next;
	bool same = false;

	for (unsigned i = 0; i < REF_PWC_LINES; i++)
		if (m->line[i].valid && m->line[i].vmid == vmid && m->line[i].tag == (va >> LINE_SHIFT)) {
			w = i;
			same = true;
		}
	m->line[w].valid = true;
	m->line[w].vmid = vmid;
	m->line[w].tag = va >> LINE_SHIFT;
	memcpy(m->line[w].beat, beat, REF_BEAT);
	if (!same)
		m->line_next = (m->line_next + 1u) % REF_PWC_LINES;
}

/* ------------------------------------------------------------ helpers */

static uint32_t perm(bool we, bool r, bool w, bool null)
{
	if (null)
		return GPU_FLT_NONE;
	if (we && !w)
		return GPU_FLT_NO_WRITE;
	if (!we && !r)
		return GPU_FLT_NO_READ;
	return GPU_FLT_NONE;
}

static uint64_t frame_base(uint64_t entry)
{
	uint64_t base = (entry & GPU_PTE_SYS_MASK << GPU_PTE_SYS_SHIFT) ? GPU_SYSMEM_BASE : GPU_VRAM_BASE;

	return base + (((entry >> GPU_PTE_ADDR_SHIFT) & GPU_PTE_ADDR_MASK) << GPU_PAGE_SHIFT);
}

static void report(struct ref_mmu *m, const struct ref_req *r, uint32_t cause)
{
	m->fault.valid = true;
	m->fault.write = r->we;
	m->fault.cause = cause;
	m->fault.client = r->id >> 1;
	m->fault.vmid = r->vmid;
	m->fault.va = r->addr;
}

/* What one edge may push: one request to the output buffer, one answer
 * into the synthetic slot. */
struct edge {
	bool out_free, syn_free, pushed, syn_set;
	struct ref_req out;
	uint32_t syn_id;
	bool syn_fault;
};

static void push(struct edge *e, const struct ref_req *r, uint64_t pa)
{
	e->pushed = true;
	e->out = *r;
	e->out.addr = pa & ~REF_BEAT_MASK;
}

static void synth(struct edge *e, uint32_t id, bool fault)
{
	e->syn_set = true;
	e->syn_id = id;
	e->syn_fault = fault;
}

/* Resolve the FIFO head with a translation; true if it left the FIFO. */
static bool resolve(struct ref_mmu *m, struct edge *e, uint32_t flt, bool null, uint64_t pa)
{
	const struct ref_req *h = &m->mq[0];

	if (flt == GPU_FLT_NONE && !null && e->out_free) {
		push(e, h, pa);
	} else if ((flt != GPU_FLT_NONE || null) && e->syn_free) {
		synth(e, h->id, flt != GPU_FLT_NONE);
	} else {
		return false;
	}
	if (flt != GPU_FLT_NONE)
		report(m, h, flt);
	return true;
}

static uint64_t va_index(uint64_t va, unsigned level)
{
	return (va >> (39u - 9u * level)) & 0x1ffu;
}

/* ------------------------------------------------------------ walker */

/* The walker's part of the edge; true if the head left the FIFO.  *fill
 * is set when the walk's result is to be cached, *touch on a merged hit. */
static bool walker(struct ref_mmu *m, const struct ref_regs *regs, const struct ref_rsp *mem,
		   const struct ref_inv *inv, struct edge *e, struct ref_tlb_entry *fill, bool *do_fill,
		   int *touch)
{
	const struct ref_req *h = &m->mq[0];
	bool pop = false;

	switch (m->wk) {
	case GPU_WK_IDLE:
		if (m->mq_n)
			m->wk = GPU_WK_CHECK;
		break;
	case GPU_WK_CHECK: {
		struct lookup lk;

		bool fresh = !(inv && inv->valid);  /* the cache is not read beside an invalidation */
		const uint64_t *pde = fresh ? pwc_pde(m, h->vmid, h->addr) : NULL;
		uint64_t pte;

		tlb_lookup(m, h->vmid, h->addr, &lk);
		if (lk.idx >= 0) {
			pop = resolve(m, e, perm(h->we, lk.r, lk.w, lk.null), lk.null, lk.pa);
			if (pop) {
				*touch = lk.idx;
				m->hits++;
			}
		} else if (fresh && pwc_line(m, h->vmid, h->addr, &pte)) {
			m->wk = GPU_WK_DONE;
			m->level = 3;
			m->pte = pte;
			m->wk_fault = GPU_FLT_NONE;
			m->stale = false;
			m->wk_mem = false;
		} else {
			m->wk = GPU_WK_READ;
			m->level = pde ? 3 : 0;
			m->table = pde ? *pde : regs->root[h->vmid] & ~0xfffull & REF_ADDR_MASK;
			m->stale = false;
			m->wk_mem = true;
		}
		break;
	}
	case GPU_WK_READ:
		if (e->out_free) {
			struct ref_req rd;

			memset(&rd, 0, sizeof(rd));
			rd.valid = true;
			rd.id = REF_WALK_ID;
			push(e, &rd, m->table + 8u * va_index(h->addr, m->level));
			m->wk = GPU_WK_WAIT;
		}
		break;
	case GPU_WK_WAIT: {
		uint64_t ent, at = (m->table + 8u * va_index(h->addr, m->level)) & REF_BEAT_MASK;

		if (!mem->valid || mem->id != REF_WALK_ID)
			break;
		memcpy(&ent, mem->rdata + at, 8);
		m->pte = ent;
		m->wk = GPU_WK_DONE;
		if (!mem->err && !m->stale && !(inv && inv->valid)) {
			if (m->level == 2 && (ent & GPU_PDE_V_MASK << GPU_PDE_V_SHIFT) &&
			    !(ent & GPU_PDE_RESERVED))
				pwc_fill_pde(m, h->vmid, h->addr, frame_base(ent) & REF_ADDR_MASK);
			else if (m->level == 3)
				pwc_fill_line(m, h->vmid, h->addr, mem->rdata);
		}
		if (mem->err) {
			m->wk_fault = GPU_FLT_WALK_ERROR;
		} else if (m->level < 3) {
			if (!(ent & GPU_PDE_V_MASK << GPU_PDE_V_SHIFT))
				m->wk_fault = GPU_FLT_PDE_INVALID;
			else if (ent & GPU_PDE_RESERVED)
				m->wk_fault = GPU_FLT_RESERVED;
			else {
				m->table = frame_base(ent) & REF_ADDR_MASK;
				m->level++;
				m->wk = GPU_WK_READ;
			}
		} else if (ent & GPU_PTE_RESERVED) {
			m->wk_fault = GPU_FLT_RESERVED;
		} else if (!(ent & GPU_PTE_V_MASK << GPU_PTE_V_SHIFT) &&
			   !(ent & GPU_PTE_PRT_MASK << GPU_PTE_PRT_SHIFT)) {
			m->wk_fault = GPU_FLT_PTE_INVALID;
		} else {
			m->wk_fault = GPU_FLT_NONE;
		}
		break;
	}
	case GPU_WK_DONE: {
		uint64_t pte = m->pte;
		bool v = pte & GPU_PTE_V_MASK << GPU_PTE_V_SHIFT;
		bool big = v && (pte & GPU_PTE_FRAG64K_MASK << GPU_PTE_FRAG64K_SHIFT);
		bool r = pte & GPU_PTE_R_MASK << GPU_PTE_R_SHIFT, w = pte & GPU_PTE_W_MASK << GPU_PTE_W_SHIFT;
		uint64_t pa = frame_base(pte), flt;

		if (m->stale || (inv && inv->valid)) {
			m->wk = GPU_WK_CHECK;
			break;
		}
		pa = big ? (pa & ~0xffffull) | (h->addr & 0xffffu) : pa | (h->addr & 0xfffu);
		flt = m->wk_fault != GPU_FLT_NONE ? m->wk_fault : perm(h->we, r, w, !v);
		pop = resolve(m, e, (uint32_t)flt, !v, pa);
		if (!pop)
			break;
		m->misses++;
		m->walks += m->wk_mem;
		if (m->walk_len + 1u > m->walk_max)
			m->walk_max = m->walk_len + 1u;
		if (m->wk_fault == GPU_FLT_NONE) {
			*do_fill = true;
			memset(fill, 0, sizeof(*fill));
			fill->valid = true;
			fill->vmid = h->vmid;
			fill->vpn = (h->addr >> 12) & 0xfffffffffull;
			fill->pfn = frame_base(pte) >> 12;
			fill->big = big;
			fill->r = r;
			fill->w = w;
			fill->null = !v;
		}
		break;
	}
	default:
		m->wk = GPU_WK_IDLE;
		break;
	}
	if (pop)
		m->wk = GPU_WK_IDLE;
	return pop;
}

/* ------------------------------------------------------------ the edge */

static bool conflict(const struct ref_mmu *m, const struct ref_req *in)
{
	for (unsigned i = 0; i < m->mq_n; i++)
		if (m->mq[i].vmid == in->vmid && m->mq[i].addr >> 12 == in->addr >> 12)
			return true;
	return false;
}

/* The arbiter's request; true if taken. */
static bool input(struct ref_mmu *m, const struct ref_regs *regs, const struct ref_req *in,
		  struct edge *e, bool head_pop, int *touch)
{
	struct lookup lk;

	if (!regs->mmu_enable || in->vmid == 0) {
		if (!e->out_free || e->pushed)
			return false;
		push(e, in, in->addr);
		return true;
	}
	tlb_lookup(m, in->vmid, in->addr, &lk);
	if (lk.idx >= 0 && !conflict(m, in)) {
		uint32_t flt = perm(in->we, lk.r, lk.w, lk.null);

		if (flt == GPU_FLT_NONE && !lk.null) {
			if (!e->out_free || e->pushed)
				return false;
			push(e, in, lk.pa);
		} else {
			if (!e->syn_free || e->syn_set)
				return false;
			synth(e, in->id, flt != GPU_FLT_NONE);
			if (flt != GPU_FLT_NONE)
				report(m, in, flt);
		}
		m->hits++;
		*touch = lk.idx;
		return true;
	}
	if (m->mq_n == REF_MISS_DEPTH || head_pop)
		return false;
	m->mq[m->mq_n++] = *in;
	return true;
}

bool ref_mmu_step(struct ref_mmu *m, const struct ref_regs *regs, const struct ref_req *in,
		  const struct ref_rsp *mem, bool mem_ready, const struct ref_inv *inv)
{
	bool client_rsp = mem->valid && mem->id != REF_WALK_ID, pop, taken = false, do_fill = false;
	bool in_check = m->wk == GPU_WK_CHECK;
	struct ref_tlb_entry fill;
	struct edge e;
	int touch = -1;
	uint32_t wk0 = m->wk;

	e.pushed = e.syn_set = e.syn_fault = false;
	e.syn_id = 0;
	m->fault.valid = false;
	e.out_free = m->ob_n < 2;
	e.syn_free = !m->syn_valid || !client_rsp;
	m->syn_valid = m->syn_valid && client_rsp;
	m->walk_cycles += wk0 != GPU_WK_IDLE && wk0 != GPU_WK_CHECK && m->wk_mem;
	m->walk_len = wk0 == GPU_WK_IDLE ? 0 : m->walk_len + 1u;
	if (inv && inv->valid && wk0 != GPU_WK_IDLE)
		m->stale = true;

	pop = walker(m, regs, mem, inv, &e, &fill, &do_fill, &touch);
	if (in && in->valid && !in_check && !m->fault.valid)
		taken = input(m, regs, in, &e, pop, &touch);
	if (pop) {
		for (unsigned i = 0; i + 1 < REF_MISS_DEPTH; i++)
			m->mq[i] = m->mq[i + 1];
		m->mq_n--;
	}
	tlb_update(m, inv, touch, do_fill ? &fill : NULL);
	if (inv && inv->valid) {
		for (unsigned i = 0; i < REF_PWC_PDES; i++)
			m->pde[i].valid = false;
		for (unsigned i = 0; i < REF_PWC_LINES; i++)
			m->line[i].valid = false;
	}

	if (m->ob_n && mem_ready) {
		m->ob[0] = m->ob[1];
		m->ob_n--;
	}
	if (e.pushed)
		m->ob[m->ob_n++] = e.out;
	if (e.syn_set) {
		m->syn_valid = true;
		m->syn_id = e.syn_id;
		m->syn_fault = e.syn_fault;
	}
	return taken;
}
