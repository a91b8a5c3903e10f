// SPDX-License-Identifier: MIT
/*
 * gm_mem.c - the memory model behind the GPU's memory master port.
 *
 * Each region keeps its bytes in a sparse store: an open-addressing hash
 * table (linear probing, doubled at half load) from 4 KiB page number to a
 * page allocated on first write.  Reads of untouched pages return zeros and
 * allocate nothing.
 *
 * Requests take effect when accepted; the response waits in a queue of its
 * class (VRAM, system memory, decode error) and the earliest by (due cycle,
 * acceptance sequence) of the three heads comes out first, so equal
 * completions keep acceptance order.  Within a class the due cycles never
 * decrease in acceptance order (a region's is the later of now + its fixed
 * latency and the end of its bus slot, both non-decreasing; an error's is
 * now + 1), so each queue is a FIFO already in (due, seq) order.
 * A region's data bus is a "next free" time in 1/256 cycle units: each beat
 * occupies it for beat_bytes / bytes_per_cycle cycles, and a response is due
 * at the later of now + latency_cycles and the end of its bus slot.
 */
#include <stdlib.h>
#include <string.h>

#include "gm_mem.h"

#define GM_PAGE_SHIFT 12
#define GM_PAGE_SIZE (1u << GM_PAGE_SHIFT)   /* bytes */
#define GM_PT_MIN_CAP 16u                    /* slots of a fresh table */
#define GM_FP_SHIFT 8                        /* bus time unit: 1/256 cycle */
#define GM_MAX_OUTSTANDING 4096u
#define GM_ERR_LATENCY_CYCLES 1u             /* accept to error response */

struct gm_page_slot {
	uint64_t pfn;      /* page number: byte address >> GM_PAGE_SHIFT */
	uint8_t *data;     /* GM_PAGE_SIZE bytes; NULL marks an empty slot */
};

struct gm_page_table {
	struct gm_page_slot *slot;
	size_t cap;        /* slots, 0 or a power of two */
	size_t used;       /* pages allocated */
};

struct gm_mem_region {
	struct gm_mem_region_cfg cfg;
	struct gm_page_table pt;
	uint64_t beat_cost_fp;   /* bus time of one beat, 1/256 cycles */
	uint64_t beat_starts;    /* offsets from base a whole beat fits at (0: none) */
	uint64_t bus_free_fp;    /* first instant the data bus is idle, 1/256 cycles */
	struct gm_mem_region_stats *st;
	/* The pages the port last read [0] and wrote [1] (data NULL: none): a
	 * copy streams through one source and one destination page at a time,
	 * so most beats skip the table.  A page never moves or goes away
	 * before gm_mem_destroy, so an entry never goes stale. */
	struct gm_page_slot hot[2];
};

struct gm_mem_flight {
	uint64_t due;      /* cycle from which the response may be popped */
	uint64_t seq;      /* acceptance order */
	struct gm_mem_rsp rsp;
};

enum { GM_REGION_VRAM, GM_REGION_SYS, GM_REGION_COUNT };
#define GM_FIFO_ERR GM_REGION_COUNT /* the queue of decode errors */
#define GM_FIFOS (GM_REGION_COUNT + 1)

struct gm_mem {
	struct gm_mem_region region[GM_REGION_COUNT];
	uint32_t beat_bytes;
	uint64_t strb_mask;           /* the wstrb bits of one beat: beat_bytes ones */
	uint32_t max_outstanding;
	/* in flight per class (GM_REGION_* or GM_FIFO_ERR): rings of
	 * max_outstanding entries each */
	struct gm_mem_fifo {
		struct gm_mem_flight *e;
		uint32_t rd, wr, n; /* head slot, slot past the tail, entries */
	} fifo[GM_REGION_COUNT + 1];
	uint32_t nflight;
	int first;                    /* the class whose head comes out first; -1: none */
	uint64_t first_due;           /* that head's due; UINT64_MAX: none */
	uint64_t next_seq;
	struct gm_mem_stats st;       /* pages filled in by gm_mem_get_stats */
};

/* ---- sparse page store ------------------------------------------------ */

static size_t pt_hash(uint64_t pfn, size_t cap)
{
	uint64_t h = pfn * 0x9e3779b97f4a7c15ull;

	return (size_t)(h ^ (h >> 32)) & (cap - 1);
}

static uint8_t *pt_find(const struct gm_page_table *pt, uint64_t pfn)
{
	size_t i;

	if (!pt->cap)
		return NULL;
	for (i = pt_hash(pfn, pt->cap); pt->slot[i].data; i = (i + 1) & (pt->cap - 1))
		if (pt->slot[i].pfn == pfn)
			return pt->slot[i].data;
	return NULL;
}

/* Put a page known to be absent into @slot (which has a free slot). */
static void pt_place(struct gm_page_slot *slot, size_t cap, uint64_t pfn, uint8_t *data)
{
	size_t i = pt_hash(pfn, cap);

	while (slot[i].data)
		i = (i + 1) & (cap - 1);
	slot[i].pfn = pfn;
	slot[i].data = data;
}

/* Double the table; on failure it is left as it was. */
static int pt_grow(struct gm_page_table *pt)
{
	size_t cap = pt->cap ? pt->cap * 2 : GM_PT_MIN_CAP;
	struct gm_page_slot *slot = calloc(cap, sizeof(*slot));
	size_t i;

	if (!slot)
		return GM_ERR_NO_MEM;
	for (i = 0; i < pt->cap; i++)
		if (pt->slot[i].data)
			pt_place(slot, cap, pt->slot[i].pfn, pt->slot[i].data);
	free(pt->slot);
	pt->slot = slot;
	pt->cap = cap;
	return GM_OK;
}

/* The page @pfn, allocated zeroed if absent; NULL (nothing changed) when out of memory. */
static uint8_t *pt_get(struct gm_page_table *pt, uint64_t pfn)
{
	uint8_t *data = pt_find(pt, pfn);

	if (data)
		return data;
	if ((pt->used + 1) * 2 > pt->cap && pt_grow(pt))
		return NULL;
	data = calloc(1, GM_PAGE_SIZE);
	if (!data)
		return NULL;
	pt_place(pt->slot, pt->cap, pfn, data);
	pt->used++;
	return data;
}

static void pt_free(struct gm_page_table *pt)
{
	size_t i;

	for (i = 0; i < pt->cap; i++)
		free(pt->slot[i].data);
	free(pt->slot);
}

/* ---- regions ----------------------------------------------------------- */

static bool region_contains(const struct gm_mem_region_cfg *c, uint64_t addr, uint64_t len)
{
	return c->size && addr >= c->base && addr - c->base < c->size &&
	       len <= c->size - (addr - c->base);
}

/* The region holding all of addr..addr+len-1, or -1. */
static int region_index(const struct gm_mem *m, uint64_t addr, uint64_t len)
{
	int i;

	for (i = 0; i < GM_REGION_COUNT; i++)
		if (region_contains(&m->region[i].cfg, addr, len))
			return i;
	return -1;
}

static size_t page_chunk(uint64_t addr, size_t len)
{
	size_t room = GM_PAGE_SIZE - (size_t)(addr & (GM_PAGE_SIZE - 1));

	return len < room ? len : room;
}

static void region_read(const struct gm_mem_region *r, uint64_t addr, uint8_t *dst, size_t len)
{
	while (len) {
		size_t n = page_chunk(addr, len);
		const uint8_t *pg = pt_find(&r->pt, addr >> GM_PAGE_SHIFT);

		if (pg)
			memcpy(dst, pg + (addr & (GM_PAGE_SIZE - 1)), n);
		else
			memset(dst, 0, n);
		addr += n;
		dst += n;
		len -= n;
	}
}

/*
 * Allocate every page of the range first so that running out of memory
 * leaves the contents unchanged (at worst some zero pages exist).
 */
static int region_write(struct gm_mem_region *r, uint64_t addr, const uint8_t *src, size_t len)
{
	uint64_t pfn;

	for (pfn = addr >> GM_PAGE_SHIFT; pfn <= (addr + len - 1) >> GM_PAGE_SHIFT; pfn++)
		if (!pt_get(&r->pt, pfn))
			return GM_ERR_NO_MEM;
	while (len) {
		size_t n = page_chunk(addr, len);

		memcpy(pt_find(&r->pt, addr >> GM_PAGE_SHIFT) + (addr & (GM_PAGE_SIZE - 1)), src, n);
		addr += n;
		src += n;
		len -= n;
	}
	return GM_OK;
}

/* The region holding the beat at @addr, or -1: region_index for a beat,
 * one compare a region (an address below base wraps past beat_starts). */
static int region_of_beat(const struct gm_mem *m, uint64_t addr)
{
	for (int i = 0; i < GM_REGION_COUNT; i++)
		if (addr - m->region[i].cfg.base < m->region[i].beat_starts)
			return i;
	return -1;
}

/* ---- configuration ------------------------------------------------------ */

static bool region_cfg_ok(const struct gm_mem_region_cfg *c)
{
	if (!c->size)
		return true;
	return c->size <= UINT64_MAX - c->base && c->latency_cycles >= 1 &&
	       c->bytes_per_cycle >= 1;
}

static bool regions_overlap(const struct gm_mem_region_cfg *a, const struct gm_mem_region_cfg *b)
{
	return a->size && b->size && a->base < b->base + b->size && b->base < a->base + a->size;
}

static bool cfg_ok(const struct gm_mem_cfg *cfg)
{
	uint32_t beat = cfg->beat_bytes;

	return beat >= 4 && beat <= GM_MEM_MAX_BEAT && !(beat & (beat - 1)) &&
	       cfg->max_outstanding >= 1 && cfg->max_outstanding <= GM_MAX_OUTSTANDING &&
	       region_cfg_ok(&cfg->vram) && region_cfg_ok(&cfg->sys) &&
	       !regions_overlap(&cfg->vram, &cfg->sys);
}

static void region_init(struct gm_mem_region *r, const struct gm_mem_region_cfg *c,
			uint32_t beat_bytes, struct gm_mem_region_stats *st)
{
	uint64_t bpc = c->bytes_per_cycle ? c->bytes_per_cycle : 1;

	r->cfg = *c;
	/* Rounded up so the modelled bandwidth never exceeds the configured one. */
	r->beat_cost_fp = (((uint64_t)beat_bytes << GM_FP_SHIFT) + bpc - 1) / bpc;
	r->beat_starts = c->size >= beat_bytes ? c->size - beat_bytes + 1 : 0;
	r->st = st;
}

/*
 * Create a memory model from @cfg (see gm_mem.h for the limits).  Returns
 * GM_OK and sets *out; GM_ERR_BAD_ARG for a bad config or NULL pointer,
 * GM_ERR_NO_MEM when allocation fails.  *out is untouched on error.
 */
int gm_mem_create(const struct gm_mem_cfg *cfg, struct gm_mem **out)
{
	struct gm_mem *m;

	if (!cfg || !out || !cfg_ok(cfg))
		return GM_ERR_BAD_ARG;
	m = calloc(1, sizeof(*m));
	if (!m)
		return GM_ERR_NO_MEM;
	for (int i = 0; i < GM_FIFOS; i++) {
		m->fifo[i].e = calloc(cfg->max_outstanding, sizeof(*m->fifo[i].e));
		if (!m->fifo[i].e)
			goto err_free_fifos;
	}
	m->beat_bytes = cfg->beat_bytes;
	m->strb_mask = cfg->beat_bytes < 64 ? (1ull << cfg->beat_bytes) - 1 : UINT64_MAX;
	m->max_outstanding = cfg->max_outstanding;
	m->first = -1;
	m->first_due = UINT64_MAX;
	region_init(&m->region[GM_REGION_VRAM], &cfg->vram, cfg->beat_bytes, &m->st.vram);
	region_init(&m->region[GM_REGION_SYS], &cfg->sys, cfg->beat_bytes, &m->st.sys);
	*out = m;
	return GM_OK;

err_free_fifos:
	for (int i = 0; i < GM_FIFOS; i++)
		free(m->fifo[i].e);
	free(m);
	return GM_ERR_NO_MEM;
}

/* Free @m and every page it holds; NULL is a no-op. */
void gm_mem_destroy(struct gm_mem *m)
{
	int i;

	if (!m)
		return;
	for (i = 0; i < GM_REGION_COUNT; i++)
		pt_free(&m->region[i].pt);
	for (i = 0; i < GM_FIFOS; i++)
		free(m->fifo[i].e);
	free(m);
}

/* ---- backdoor ----------------------------------------------------------- */

/*
 * Copy @len bytes at @addr into @buf, untimed.  GM_ERR_BAD_ARG for a NULL
 * pointer with len > 0, GM_ERR_ADDR when the range is not inside one
 * region; @buf is untouched on error.  len 0 succeeds at any address.
 */
int gm_mem_read(struct gm_mem *m, uint64_t addr, void *buf, size_t len)
{
	int idx;

	if (!len)
		return GM_OK;
	if (!m || !buf)
		return GM_ERR_BAD_ARG;
	idx = region_index(m, addr, len);
	if (idx < 0)
		return GM_ERR_ADDR;
	region_read(&m->region[idx], addr, buf, len);
	return GM_OK;
}

/*
 * Copy @len bytes from @buf to @addr, untimed.  Errors as gm_mem_read, plus
 * GM_ERR_NO_MEM when a page cannot be allocated; on any error no byte of
 * memory changed.
 */
int gm_mem_write(struct gm_mem *m, uint64_t addr, const void *buf, size_t len)
{
	int idx;

	if (!len)
		return GM_OK;
	if (!m || !buf)
		return GM_ERR_BAD_ARG;
	idx = region_index(m, addr, len);
	if (idx < 0)
		return GM_ERR_ADDR;
	return region_write(&m->region[idx], addr, buf, len);
}

/* True when addr..addr+len-1 lies inside one region; an empty range always does. */
bool gm_mem_valid_range(const struct gm_mem *m, uint64_t addr, uint64_t len)
{
	return !len || region_index(m, addr, len) >= 0;
}

/* ---- port ----------------------------------------------------------------- */

static bool flight_before(const struct gm_mem_flight *a, const struct gm_mem_flight *b)
{
	return a->due < b->due || (a->due == b->due && a->seq < b->seq);
}

static uint32_t fifo_slot(const struct gm_mem *m, const struct gm_mem_fifo *q, uint32_t i)
{
	uint32_t at = q->rd + i;

	return at < m->max_outstanding ? at : at - m->max_outstanding;
}

/* The ring slot after @at. */
static uint32_t fifo_next(const struct gm_mem *m, uint32_t at)
{
	return at + 1 < m->max_outstanding ? at + 1 : 0;
}

/* The ring slot before @at. */
static uint32_t fifo_prev(const struct gm_mem *m, uint32_t at)
{
	return (at ? at : m->max_outstanding) - 1;
}

static struct gm_mem_flight *fifo_head(const struct gm_mem *m, unsigned k)
{
	return &m->fifo[k].e[m->fifo[k].rd];
}

/* Entry @i (0: the head) of class @k. */
static struct gm_mem_flight *fifo_at(const struct gm_mem *m, unsigned k, uint32_t i)
{
	const struct gm_mem_fifo *q = &m->fifo[k];

	return &q->e[fifo_slot(m, q, i)];
}

/* The slot past the tail of class @k: a request's response is built there
 * in place rather than copied in, and is in flight once fifo_push takes it.
 * The caller has checked there is room. */
static struct gm_mem_flight *fifo_tail(const struct gm_mem *m, unsigned k)
{
	return &m->fifo[k].e[m->fifo[k].wr];
}

/* Move entry @i of class @k towards the head past every entry it comes
 * before; its new position. */
static uint32_t fifo_sink(struct gm_mem *m, unsigned k, uint32_t i)
{
	struct gm_mem_flight f = *fifo_at(m, k, i);

	for (; i && flight_before(&f, fifo_at(m, k, i - 1)); i--)
		*fifo_at(m, k, i) = *fifo_at(m, k, i - 1);
	*fifo_at(m, k, i) = f;
	return i;
}

/* Of classes @a and @b (-1: none), the one whose head comes out first;
 * -1 when neither holds an entry. */
static int fifo_earlier(const struct gm_mem *m, int a, int b)
{
	if (a < 0 || !m->fifo[a].n)
		return b >= 0 && m->fifo[b].n ? b : -1;
	if (b < 0 || !m->fifo[b].n)
		return a;
	return flight_before(fifo_head(m, b), fifo_head(m, a)) ? b : a;
}

/* Recompute which class's head comes out first (m->first, m->first_due);
 * the three classes are compared without a loop, as this runs once for
 * every response. */
_Static_assert(GM_FIFOS == 3, "fifo_find_first compares exactly three classes");
static void fifo_find_first(struct gm_mem *m)
{
	int k = fifo_earlier(m, fifo_earlier(m, GM_REGION_VRAM, GM_REGION_SYS), GM_FIFO_ERR);

	m->first = k;
	m->first_due = k < 0 ? UINT64_MAX : fifo_head(m, (unsigned)k)->due;
}

/* Take the entry built at fifo_tail(m, k) into class @k, in (due, seq)
 * order.  It stays at the tail unless requests were made with a `now`
 * earlier than an earlier request's (the model never does).  Only a new
 * head can change which class comes out first. */
static void fifo_push(struct gm_mem *m, unsigned k)
{
	struct gm_mem_fifo *q = &m->fifo[k];
	const struct gm_mem_flight *f = &q->e[q->wr];
	uint32_t i = q->n++;

	if (i && flight_before(f, &q->e[fifo_prev(m, q->wr)]))
		i = fifo_sink(m, k, i);
	q->wr = fifo_next(m, q->wr);
	m->nflight++;
	if (i == 0 && (m->first < 0 || m->first == (int)k ||
		       flight_before(fifo_head(m, k), fifo_head(m, (unsigned)m->first)))) {
		m->first = (int)k;
		m->first_due = fifo_head(m, k)->due;
	}
}

/* The page @pfn of @r for a port read (NULL: never written) or, with
 * @write, for a port write (allocated if absent; NULL: out of memory). */
static uint8_t *port_page(struct gm_mem_region *r, uint64_t pfn, bool write)
{
	struct gm_page_slot *hot = &r->hot[write];
	uint8_t *pg;

	if (hot->data && hot->pfn == pfn)
		return hot->data;
	pg = write ? pt_get(&r->pt, pfn) : pt_find(&r->pt, pfn);
	if (pg) {
		hot->pfn = pfn;
		hot->data = pg;
	}
	return pg;
}

/* Read one beat at @addr into @rdata, which the caller has zeroed (the
 * bytes of a page never written stay so); a beat never crosses a page. */
static void port_read(struct gm_mem *m, struct gm_mem_region *r, uint64_t addr, uint8_t *rdata)
{
	const uint8_t *pg = port_page(r, addr >> GM_PAGE_SHIFT, false);

	if (pg)
		memcpy(rdata, pg + (addr & (GM_PAGE_SIZE - 1)), m->beat_bytes);
	r->st->rd_reqs++;
	r->st->rd_bytes += m->beat_bytes;
}

/* Copy the bytes of @src enabled in @strb to @dst (@beat_bytes of each);
 * the number copied. */
static uint32_t write_strobed(uint8_t *dst, const uint8_t *src, uint64_t strb, uint32_t beat_bytes)
{
	uint32_t nbytes = 0;

	for (uint32_t w = 0; w < beat_bytes; w += 8) {
		uint8_t en = (uint8_t)(strb >> w);

		if (en == 0xffu) {
			memcpy(dst + w, src + w, 8);
			nbytes += 8;
			continue;
		}
		for (uint32_t i = w; en; i++, en >>= 1)
			if (en & 1u) {
				dst[i] = src[i];
				nbytes++;
			}
	}
	return nbytes;
}

/*
 * Write the strobed bytes of one beat; the number written is added to the
 * region's wr_bytes.  A beat is aligned and no larger than a page, so it
 * never crosses one; no strobe means no page is made.  A fully strobed
 * beat (what a copy streams) is one memcpy; otherwise whole enabled 8-byte
 * words are copied at once and the rest byte by byte, counting as it goes
 * (the portable build has no popcount instruction).
 */
static int port_write(struct gm_mem *m, struct gm_mem_region *r, const struct gm_mem_req *req)
{
	uint64_t strb = req->wstrb & m->strb_mask, nbytes = 0;
	uint8_t *pg;

	if (strb) {
		pg = port_page(r, req->addr >> GM_PAGE_SHIFT, true);
		if (!pg)
			return GM_ERR_NO_MEM;
		pg += req->addr & (GM_PAGE_SIZE - 1);
		if (strb == m->strb_mask) {
			memcpy(pg, req->wdata, m->beat_bytes);
			nbytes = m->beat_bytes;
		} else {
			nbytes = write_strobed(pg, req->wdata, strb, m->beat_bytes);
		}
	}
	r->st->wr_reqs++;
	r->st->wr_bytes += nbytes;
	return GM_OK;
}

/* Claim the region's bus for one beat from @now; the cycle the response is due. */
static uint64_t bus_due(struct gm_mem_region *r, uint64_t now)
{
	uint64_t start = now << GM_FP_SHIFT, end_cycle, lat_cycle;

	if (r->bus_free_fp > start)
		start = r->bus_free_fp;
	r->bus_free_fp = start + r->beat_cost_fp;
	end_cycle = (r->bus_free_fp + (1u << GM_FP_SHIFT) - 1) >> GM_FP_SHIFT;
	lat_cycle = now + r->cfg.latency_cycles;
	return end_cycle > lat_cycle ? end_cycle : lat_cycle;
}

uint64_t gm_mem_backlog(const struct gm_mem *m, bool sys, uint64_t now)
{
	uint64_t free_fp = m->region[sys ? GM_REGION_SYS : GM_REGION_VRAM].bus_free_fp;
	uint64_t now_fp = now << GM_FP_SHIFT;

	return free_fp > now_fp ? (free_fp - now_fp + (1u << GM_FP_SHIFT) - 1) >> GM_FP_SHIFT : 0;
}

/* True when the port can take a request this cycle. */
bool gm_mem_can_accept(const struct gm_mem *m)
{
	return m->nflight < m->max_outstanding;
}

/*
 * Accept @req at cycle @now: the write or read happens now, the response
 * becomes due later.  GM_ERR_BAD_ARG for NULL or a non beat-aligned address,
 * GM_ERR_BUSY when max_outstanding requests are in flight, GM_ERR_NO_MEM
 * when a written page cannot be allocated; nothing changes on error.  A beat
 * outside every region is accepted and answered with err after 1 cycle.
 */
/*
 * The effect of @req (a beat of region @idx, -1: of none) at cycle @now:
 * *rsp and the cycle *due its response is due.  GM_ERR_NO_MEM when a
 * written page cannot be allocated (nothing changed).  gm_mem_request
 * queues what this makes, gm_mem_serve hands it back.
 */
static inline __attribute__((always_inline)) int beat_effect(struct gm_mem *m, uint64_t now,
							   const struct gm_mem_req *req, int idx,
			      struct gm_mem_rsp *rsp, uint64_t *due)
{
	struct gm_mem_region *r;
	int ret;

	rsp->id = req->id;
	rsp->write = req->write;
	rsp->err = false;
	rsp->accepted = now;
	/* rdata is zero for writes and errors and past the beat; a read fills
	 * its beat below.  Zeroing all of it is a fixed-size store, cheaper
	 * than a memset call for the tail alone. */
	memset(rsp->rdata, 0, sizeof(rsp->rdata));
	if (idx < 0) {
		rsp->err = true;
		*due = now + GM_ERR_LATENCY_CYCLES;
		m->st.err_reqs++;
		return GM_OK;
	}
	r = &m->region[idx];
	if (req->write) {
		ret = port_write(m, r, req);
		if (ret)
			return ret;
	} else {
		port_read(m, r, req->addr, rsp->rdata);
	}
	*due = bus_due(r, now);
	return GM_OK;
}

int gm_mem_request(struct gm_mem *m, uint64_t now, const struct gm_mem_req *req)
{
	struct gm_mem_flight *f;
	unsigned k;
	int idx, ret;

	if (!m || !req || (req->addr & (m->beat_bytes - 1)))
		return GM_ERR_BAD_ARG;
	if (!gm_mem_can_accept(m))
		return GM_ERR_BUSY;
	idx = region_of_beat(m, req->addr);
	k = idx < 0 ? GM_FIFO_ERR : (unsigned)idx;
	f = fifo_tail(m, k); /* not in flight until fifo_push: an error leaves it */
	ret = beat_effect(m, now, req, idx, &f->rsp, &f->due);
	if (ret)
		return ret;
	f->seq = m->next_seq++;
	fifo_push(m, k);
	return GM_OK;
}

/*
 * Pop the in-flight response with the smallest (due, acceptance) that is
 * due by @now into *rsp.  False, *rsp untouched, when none is due.
 */
bool gm_mem_response(struct gm_mem *m, uint64_t now, struct gm_mem_rsp *rsp)
{
	struct gm_mem_fifo *q;

	if (!m->nflight || m->first_due > now)
		return false;
	q = &m->fifo[m->first];
	*rsp = q->e[q->rd].rsp;
	q->rd = fifo_next(m, q->rd);
	q->n--;
	m->nflight--;
	fifo_find_first(m);
	return true;
}

/*
 * Serve @req at cycle @now as a TLM target does (model/tlm/gm_mem_tlm.cpp):
 * its effect now, its response in *rsp at once and in *due the cycle
 * gm_mem_request would have made it due (the same region, bus and latency
 * code, without the queue).  The response order and the in-flight limit
 * are then the caller's (model/gm_port.c).  GM_ERR_BUSY when requests
 * queued by gm_mem_request are in flight (their bus slots would be
 * shared); otherwise as gm_mem_request.
 */
int gm_mem_serve(struct gm_mem *m, uint64_t now, const struct gm_mem_req *req,
		 struct gm_mem_rsp *rsp, uint64_t *due)
{
	int ret;

	if (!m || !req || !rsp || !due || (req->addr & (m->beat_bytes - 1)))
		return GM_ERR_BAD_ARG;
	if (m->nflight)
		return GM_ERR_BUSY;
	ret = beat_effect(m, now, req, region_of_beat(m, req->addr), rsp, due);
	if (!ret)
		m->next_seq++;
	return ret;
}

/*
 * Account one cycle: occupancy is sampled here, so max_occupancy is the
 * most requests seen in flight at a tick.  @refused counts a stall cycle.
 */
void gm_mem_tick(struct gm_mem *m, bool refused)
{
	m->st.ticks++;
	if (m->nflight)
		m->st.busy_cycles++;
	m->st.occupancy_sum += m->nflight;
	if (m->nflight > m->st.max_occupancy)
		m->st.max_occupancy = m->nflight;
	if (refused)
		m->st.stall_cycles++;
}

/* Copy the statistics into *st; never fails. */
void gm_mem_get_stats(const struct gm_mem *m, struct gm_mem_stats *st)
{
	*st = m->st;
	st->vram.pages = m->region[GM_REGION_VRAM].pt.used;
	st->sys.pages = m->region[GM_REGION_SYS].pt.used;
}

/* Number of requests accepted and not yet popped. */
uint32_t gm_mem_outstanding(const struct gm_mem *m)
{
	return m->nflight;
}

/* FNV-1a 64 of a page's number and bytes. */
static uint64_t page_hash(uint64_t pfn, const uint8_t *data)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (int i = 0; i < 8; i++)
		h = (h ^ (uint8_t)(pfn >> 8 * i)) * 0x100000001b3ull;
	for (uint32_t i = 0; i < GM_PAGE_SIZE; i++)
		h = (h ^ data[i]) * 0x100000001b3ull;
	return h;
}

uint64_t gm_mem_hash(const struct gm_mem *m)
{
	uint64_t sum = 0;

	for (unsigned r = 0; r < GM_REGION_COUNT; r++) {
		const struct gm_page_table *pt = &m->region[r].pt;

		for (size_t i = 0; i < pt->cap; i++) {
			const uint8_t *d = pt->slot[i].data;
			uint32_t k = 0;

			while (d && k < GM_PAGE_SIZE && d[k] == 0)
				k++;
			if (d && k < GM_PAGE_SIZE) /* all-zero pages read as untouched ones */
				sum += page_hash(pt->slot[i].pfn, d);
		}
	}
	return sum;
}
