/* SPDX-License-Identifier: MIT */
/*
 * ref_apt_mem.c - the reference aperture's back end: posted writes,
 * streamed reads, the posted-write error latch.
 *
 * From the README's aperture section and regspec/REGISTERS.md.  Writes are
 * posted: the units that land in one memory beat merge, with byte enables,
 * in the write-combining buffer, which closes into a queue of REF_APT_WQ
 * beats when a write goes to another beat, when a read comes, after
 * APT_WC_IDLE_CYCLES without an access, or on a flush (a write to any APT
 * register) once the accesses before it are through; queued beats go to
 * memory with a slot tag, up to APT_SLOTS in flight.  A write that cannot
 * be translated (FORMAT, ROW) writes nothing, a beat the memory refuses
 * (MEM) is lost: each counts in APT_ERR_COUNT and raises INT_STATUS.APT_ERR,
 * the first since APT_ERR_STATUS was cleared is latched with its window
 * offset.  A write waits for the reads before it to have their data.
 *
 * A read first waits for every posted write to be acknowledged, then waits
 * in order (REF_APT_RU units) on a beat buffer: the newest one if it holds
 * the same beat and no write has hit it since (the prefetched beat), else a
 * new one from a ring of REF_APT_RB, fetched at once (fetches fly
 * together).  Every write the memory port takes (the snoop, a cycle late)
 * that hits the newest buffer's beat makes it stale, as does APT_FLUSH.PF.
 * A read that fails answers err with data 0.
 */
#include <string.h>

#include "ref.h"

#define BEAT_LOG2 5u
#define RB_MASK (REF_APT_RB - 1u)
#define PA_MASK ((1ull << 48) - 1u)

bool ref_apt_drained(const struct ref_apt *a)
{
	return !a->wc_v && !a->wq_n && !a->sl_v;
}

/* The lowest free write slot, or -1. */
static int free_slot(const struct ref_apt *a)
{
	return a->sl_v == ~0u ? -1 : __builtin_ctz(~a->sl_v);
}

void ref_apt_offer(const struct ref_apt *a, struct ref_req *req)
{
	memset(req, 0, sizeof(*req));
	if (a->rb_iss != a->rb_alloc) {
		/* reads first: they wait only for writes already acknowledged */
		unsigned b = a->rb_iss & RB_MASK;

		req->valid = true;
		req->id = (uint32_t)(GPU_APT_CLIENT | b) << 1;
		req->addr = a->rb_beat[b] << BEAT_LOG2;
	} else if (a->wq_n && free_slot(a) >= 0) {
		const struct ref_apt_beat *h = &a->wq[a->wq_rd];

		req->valid = req->we = true;
		req->id = (uint32_t)(GPU_APT_CLIENT | (unsigned)free_slot(a)) << 1 | 1u;
		req->addr = h->beat << BEAT_LOG2;
		memcpy(req->wdata, h->data, REF_BEAT);
		req->wstrb = h->strb;
	}
}

/* Bytes @n of the unit placed at word @lane of a beat (those past the
 * beat's end are lost, as on the hardware's shifter). */
static void place(uint8_t *beat, const uint8_t *src, unsigned lane, unsigned n)
{
	for (unsigned i = 0; i < n && 8u * lane + i < REF_BEAT; i++)
		beat[8u * lane + i] = src[i];
}

/* The write unit in s2 (no error), lane @lane of beat @beat: merged or a
 * new buffer; false if the queue is full and the buffer must stay. */
static bool combine(struct ref_apt *a, uint64_t beat, unsigned lane, bool *push)
{
	const struct ref_apt_unit *u = &a->s2.u;
	uint8_t w[REF_BEAT] = { 0 };
	uint32_t strb = (uint32_t)((uint64_t)u->strb << 8u * lane);

	place(w, u->data, lane, 16);
	if (a->wc_v && a->wc.beat == beat) {
		for (unsigned j = 0; j < REF_BEAT; j++)
			if (strb >> j & 1u)
				a->wc.data[j] = w[j];
		a->wc.strb |= strb;
	} else if (!a->wc_v || a->wq_n < REF_APT_WQ) {
		*push = a->wc_v;
		a->wc_v = true;
		a->wc.beat = beat;
		memcpy(a->wc.data, w, REF_BEAT); /* bytes without enables are never written */
		a->wc.strb = strb;
		a->wc.off = u->off;
	} else {
		return false;
	}
	a->wc_idle = 0;
	return true;
}

/* The read unit in s2 joins the queue, or waits (false): @ru_n the units
 * waiting at the start of the edge, @reuse whether the newest buffer holds
 * its beat unhit. */
static bool read_join(struct ref_apt *a, uint64_t beat, unsigned lane, unsigned ru_n, bool reuse,
		      bool drained)
{
	const struct ref_apt_stage *s2 = &a->s2;
	unsigned rb_new = (a->rb_alloc - 1u) & RB_MASK, nb = a->rb_alloc & RB_MASK;
	struct ref_apt_ru n = { .wide = s2->u.wide, .half = s2->u.half, .last = s2->u.last, .lane = lane };

	if (ru_n >= REF_APT_RU)
		return false;
	if (s2->err != GPU_APT_ERR_NONE) {
		n.err = true;
		n.rb = rb_new;
	} else if (!drained) {
		return false;
	} else if (reuse) {
		n.rb = rb_new;
	} else if (a->rb_alloc - a->rb_free < REF_APT_RB) {
		n.rb = nb;
		a->rb_beat[nb] = beat;
		a->rb_v &= ~(1u << nb);
		a->rb_err &= ~(1u << nb);
		a->rb_stale &= ~(1u << nb);
		a->rb_alloc++;
	} else {
		return false;
	}
	a->ru[(a->ru_rd + a->ru_n) % REF_APT_RU] = n;
	a->ru_n++;
	return true;
}

/* The oldest read unit answers once its beat is there (@rb_v: the buffers
 * that held data at the start of the edge); the chunk's last unit puts the
 * answer on the host port. */
static void answer(struct ref_apt *a, uint32_t rb_v)
{
	const struct ref_apt_ru *u = &a->ru[a->ru_rd];
	uint8_t d[16] = { 0 };
	bool err;

	if (!a->ru_n || !(u->err || (rb_v >> u->rb & 1u)))
		return;
	err = u->err || (a->rb_err >> u->rb & 1u);
	for (unsigned i = 0; i < 16 && !err && 8u * u->lane + i < REF_BEAT; i++)
		d[i] = a->rb_data[u->rb][8u * u->lane + i];
	if (u->wide)
		memcpy(a->racc, d, 16);
	else
		memcpy(a->racc + 8 * u->half, d, 8);
	a->rerr = a->rerr || err;
	if (u->last) {
		a->rsp_valid = true;
		a->rsp_err = a->rerr;
		if (!a->rerr)
			memcpy(a->rsp_rdata, a->racc, 16);
		memset(a->racc, 0, sizeof(a->racc));
		a->rerr = false;
	}
	a->ru_rd = (a->ru_rd + 1u) % REF_APT_RU;
	a->ru_n--;
}

/* The memory side of the edge: the request taken (@rd: it was a read),
 * the response; whether a write beat failed, and its offset in *@m_off. */
static bool memory(struct ref_apt *a, const struct ref_apt_in *in, bool rd, uint32_t *m_off)
{
	const struct ref_rsp *r = in->rsp;
	bool m_err = false;

	if (in->granted && rd) {
		a->rb_iss++;
	} else if (in->granted) {
		unsigned s = (unsigned)free_slot(a);

		a->sl_v |= 1u << s;
		a->sl_off[s] = a->wq[a->wq_rd].off;
		a->wq_rd = (a->wq_rd + 1u) % REF_APT_WQ;
		a->wq_n--;
	}
	if (r && r->valid) {
		unsigned tag = (r->id >> 1) & (REF_APT_SLOTS - 1u);

		if (r->we) {
			a->sl_v &= ~(1u << tag);
			m_err = r->err;
			*m_off = a->sl_off[tag];
		} else {
			a->rb_v |= 1u << tag;
			a->rb_err = (a->rb_err & ~(1u << tag)) | (uint32_t)r->err << tag;
			memcpy(a->rb_data[tag], r->rdata, REF_BEAT);
		}
	}
	return m_err;
}

/* The error latch and counters of the edge. */
static void errors(struct ref_apt *a, bool clr, bool c_err, bool m_err, uint32_t m_off)
{
	bool was = a->err_v;

	a->err_irq = c_err || m_err;
	a->err_count += (uint32_t)c_err + (uint32_t)m_err;
	if (clr)
		a->err_v = false;
	if (was || !a->err_irq)
		return;
	/* a memory error answers for an earlier word than a failing one in s2 */
	a->err_v = true;
	a->err_cause = m_err ? GPU_APT_ERR_MEM : a->s2.err;
	a->err_off = m_err ? m_off : a->s2.u.off;
}

/* Whether a snooped write to @addr (@valid) makes the newest beat stale. */
bool ref_apt_snoop_hits(const struct ref_apt *a, bool valid, uint64_t addr)
{
	unsigned rb_new = (a->rb_alloc - 1u) & RB_MASK;

	return valid && a->rb_alloc != a->rb_free && !(a->rb_stale >> rb_new & 1u) &&
	       a->rb_beat[rb_new] == (addr & PA_MASK) >> BEAT_LOG2;
}

bool ref_apt_mem_step(struct ref_apt *a, const struct ref_regs *regs, const struct ref_apt_in *in)
{
	const struct ref_apt_stage *s2 = &a->s2;
	uint64_t beat = (s2->addr & PA_MASK) >> BEAT_LOG2;
	uint64_t snoop_beat = (in->snoop_addr & PA_MASK) >> BEAT_LOG2;
	unsigned lane = (unsigned)(s2->addr >> 3) & 3u, rb_new = (a->rb_alloc - 1u) & RB_MASK;
	unsigned rb_old = a->rb_free & RB_MASK, wq_wr = (a->wq_rd + a->wq_n) % REF_APT_WQ;
	unsigned ru_n = a->ru_n, idle = a->wc_idle;
	bool drained = ref_apt_drained(a), fe_empty = ref_apt_front_empty(a);
	bool had_rb = a->rb_alloc != a->rb_free, rd_go = a->rb_iss != a->rb_alloc;
	bool take = false, c_err = false, m_err, push = false, wc_v = a->wc_v, flush = a->flush;
	/* a buffer no unit waits on goes, but the newest (the prefetched beat) */
	bool rb_pop = a->rb_alloc - a->rb_free > 1u && (a->rb_v >> rb_old & 1u) &&
		      (!ru_n || a->ru[a->ru_rd].rb != rb_old);
	bool reuse = had_rb && a->rb_beat[rb_new] == beat && !(a->rb_stale >> rb_new & 1u) &&
		     !(in->snoop_valid && snoop_beat == beat);
	uint32_t m_off = 0;
	struct ref_apt_beat closed = a->wc;

	a->rsp_valid = a->rsp_err = false;
	memset(a->rsp_rdata, 0, sizeof(a->rsp_rdata));
	if (wc_v && idle != GPU_APT_WC_IDLE_CYCLES)
		a->wc_idle++;
	a->flush = flush || regs->apt_wr;
	if (regs->apt_pf_drop)
		a->rb_stale = ~0u;

	if (s2->v && s2->u.we) {
		if (ru_n) {
			/* waits for the reads before it */
		} else if (s2->err != GPU_APT_ERR_NONE) {
			take = c_err = true;
		} else {
			take = combine(a, beat, lane, &push);
		}
	} else if (wc_v && a->wq_n < REF_APT_WQ &&
		   ((s2->v && !s2->u.we) || idle == GPU_APT_WC_IDLE_CYCLES || (flush && fe_empty))) {
		/* close the buffer: a read waits, it idled, or a flush */
		push = true;
		a->wc_v = false;
	}
	if (flush && fe_empty && !a->wc_v)
		a->flush = regs->apt_wr;
	answer(a, a->rb_v);
	if (s2->v && !s2->u.we)
		take = read_join(a, beat, lane, ru_n, reuse, drained);

	m_err = memory(a, in, rd_go, &m_off);
	if (push) {
		a->wq[wq_wr] = closed;
		a->wq_n++;
	}
	/* coherence: a write the memory took makes the newest beat stale */
	if (in->snoop_valid && had_rb && a->rb_beat[rb_new] == snoop_beat)
		a->rb_stale |= 1u << rb_new;
	if (rb_pop)
		a->rb_free++;
	a->accesses += take;
	errors(a, regs->apt_err_clr, c_err, m_err, m_off);
	return take;
}
