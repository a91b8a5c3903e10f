/* SPDX-License-Identifier: MIT */
/*
 * gm_apt.c - the aperture's host side (gm.h: gm_apt_*): a CPU's posted
 * 16-byte chunks, pipelined chunk reads and the flush that waits for the
 * posted writes and consumes the latched error, driven on gpu_top's
 * aperture pins one cycle at a time (gm_tick); each call one record of a
 * capture.
 */
#include <string.h>

#include "gm_priv.h"
#include "gpu_hw.h"

#define APT_BUDGET_CYCLES 100000u
#define APT_CHUNK 16u           /* bytes of one aperture access (gpu_top) */
#define APT_READS_IN_FLIGHT 64u /* more than the aperture holds: it streams */
#define APT_READ_BURST 1024u    /* chunks per pipelined burst of a bulk read (16 KiB) */

static bool apt_word_ok(uint32_t off, uint8_t strb)
{
	return !(off & 7u) && off < GPU_APT_WINDOW_BYTES && strb;
}

/* Post one write chunk (16-aligned @off, 16 byte enables): wait (bounded)
 * for req_ready, drive it for one cycle.  GM_OK, or GM_ERR_HW if the
 * aperture never became ready. */
static int apt_post(struct gm *g, uint32_t off, const uint64_t w[GM_APT_CHUNK_WORDS],
		    uint16_t strb)
{
	struct gm_pins *p = &g->pins;

	for (uint32_t n = 0; !p->apt_req_ready; n++) {
		if (n == APT_BUDGET_CYCLES)
			return GM_ERR_HW; /* the RTL broke its aperture contract */
		gm_tick(g);
	}
	p->apt_req_valid = 1;
	p->apt_req_we = 1;
	p->apt_req_addr = off;
	memcpy(p->apt_req_wdata, w, sizeof(p->apt_req_wdata));
	p->apt_req_wstrb = strb;
	gm_tick(g);
	p->apt_req_valid = 0;
	p->apt_req_we = 0;
	return GM_OK;
}

/* A backend that does not model the aperture port (gm_backend_ops). */
static bool apt_missing(const struct gm *g)
{
	return g->ops->no_aperture;
}

static int apt_flush(struct gm *g)
{
	uint32_t v;

	if (apt_missing(g))
		return GM_ERR_UNSUPPORTED;
	if (gm_reg_write(g, GPU_REG_APT_FLUSH, GPU_APT_FLUSH_WC(1)) != GM_OK)
		return GM_ERR_HW;
	for (uint32_t n = 0;; n++) {
		if (gm_reg_read(g, GPU_REG_APT_STATUS, &v) != GM_OK)
			return GM_ERR_HW;
		if (!GPU_APT_STATUS_BUSY_GET(v))
			break;
		if (n == APT_BUDGET_CYCLES / 2)
			return GM_ERR_HW; /* two cycles per register read */
	}
	if (gm_reg_read(g, GPU_REG_APT_ERR_STATUS, &v) != GM_OK)
		return GM_ERR_HW;
	if (!GPU_APT_ERR_STATUS_VALID_GET(v))
		return GM_OK;
	if (gm_reg_write(g, GPU_REG_APT_ERR_STATUS, GPU_APT_ERR_STATUS_VALID(1)) != GM_OK ||
	    gm_reg_write(g, GPU_REG_INT_STATUS, GPU_INT_STATUS_APT_ERR(1)) != GM_OK)
		return GM_ERR_HW;
	return GM_ERR_ADDR;
}

/*
 * Read @n chunks from window offset @off (16-aligned) into @w (2 words a
 * chunk), pipelined: a new read every cycle the aperture is ready, up to
 * APT_READS_IN_FLIGHT unanswered, the answers in order.  The first chunk
 * reads the halves @first enables, the last those @last enables (both for
 * one chunk), the others whole.  A chunk that answered err reads 0; the
 * first such error is returned.  GM_ERR_HW after APT_BUDGET_CYCLES cycles
 * without progress.
 */
static int apt_read_chunks(struct gm *g, uint32_t off, uint64_t *w, size_t n, uint16_t first,
			   uint16_t last)
{
	struct gm_pins *p = &g->pins;
	size_t sent = 0, got = 0;
	uint32_t idle = 0;
	int st = GM_OK;

	if (g->apt_pf_stale) {
		/* drop the prefetch: a backdoor write may have changed its beat */
		if (gm_reg_write(g, GPU_REG_APT_FLUSH, GPU_APT_FLUSH_PF(1)) != GM_OK)
			return GM_ERR_HW;
		g->apt_pf_stale = false;
	}
	while (got < n) {
		bool post = sent < n && sent - got < APT_READS_IN_FLIGHT && p->apt_req_ready;

		if (post) {
			p->apt_req_valid = 1;
			p->apt_req_we = 0;
			p->apt_req_addr = off + APT_CHUNK * (uint32_t)sent;
			p->apt_req_wstrb = (sent == 0 ? first : 0xffffu) & (sent == n - 1 ? last : 0xffffu);
		}
		gm_tick(g);
		p->apt_req_valid = 0;
		sent += post;
		if (p->apt_rsp_valid) {
			if (p->apt_rsp_err && st == GM_OK)
				st = GM_ERR_ADDR;
			for (unsigned i = 0; i < GM_APT_CHUNK_WORDS; i++)
				w[GM_APT_CHUNK_WORDS * got + i] = p->apt_rsp_err ? 0 : p->apt_rsp_rdata[i];
			got++;
			idle = 0;
		} else if (!post && ++idle == APT_BUDGET_CYCLES) {
			return GM_ERR_HW; /* the RTL broke its aperture contract */
		}
	}
	return st;
}

static int apt_post64(struct gm *g, uint32_t off, uint64_t val, uint8_t strb)
{
	uint64_t w[GM_APT_CHUNK_WORDS] = { 0 };
	unsigned h = off >> 3 & 1u;

	if (apt_missing(g))
		return GM_ERR_UNSUPPORTED;
	if (!apt_word_ok(off, strb))
		return GM_ERR_BAD_ARG;
	w[h] = val;
	return apt_post(g, off & ~(APT_CHUNK - 1u), w, (uint16_t)(strb << 8 * h));
}

static int apt_write64(struct gm *g, uint32_t off, uint64_t val, uint8_t strb)
{
	int st = apt_post64(g, off, val, strb);

	return st != GM_OK ? st : apt_flush(g);
}

static int apt_read64(struct gm *g, uint32_t off, uint64_t *val)
{
	uint64_t w[GM_APT_CHUNK_WORDS];
	unsigned h = off >> 3 & 1u;
	uint16_t strb = (uint16_t)(0xffu << 8 * h);
	int st;

	if (apt_missing(g))
		return GM_ERR_UNSUPPORTED;
	if (!val || !apt_word_ok(off, 0xff))
		return GM_ERR_BAD_ARG;
	st = apt_read_chunks(g, off & ~(APT_CHUNK - 1u), w, 1, strb, strb);
	*val = w[h];
	return st;
}

static bool apt_range_ok(uint32_t off, const void *buf, size_t len)
{
	return buf && len <= GPU_APT_WINDOW_BYTES && off <= GPU_APT_WINDOW_BYTES - len;
}

static int apt_write(struct gm *g, uint32_t off, const void *buf, size_t len)
{
	const uint8_t *b = buf;
	size_t done = 0;

	if (!apt_range_ok(off, buf, len))
		return GM_ERR_BAD_ARG;
	if (apt_missing(g))
		return GM_ERR_UNSUPPORTED;
	while (done < len) {
		uint32_t a = off + (uint32_t)done, lane = a & (APT_CHUNK - 1u);
		size_t n = APT_CHUNK - lane < len - done ? APT_CHUNK - lane : len - done;
		uint64_t w[GM_APT_CHUNK_WORDS] = { 0 };
		uint16_t strb = (uint16_t)(((1u << n) - 1u) << lane);
		int st;

		memcpy((uint8_t *)w + lane, b + done, n);
		st = apt_post(g, a - lane, w, strb);
		if (st != GM_OK)
			return st;
		done += n;
	}
	return apt_flush(g);
}

/* The byte enables of a read of the words covering bytes [@from, @to) of a
 * chunk, 0 <= from < to <= 16: whole halves. */
static uint16_t apt_halves(uint32_t from, uint32_t to)
{
	return (uint16_t)((from < 8u ? 0x00ffu : 0u) | (to > 8u ? 0xff00u : 0u));
}

static int apt_read(struct gm *g, uint32_t off, void *buf, size_t len)
{
	uint64_t w[GM_APT_CHUNK_WORDS * APT_READ_BURST];
	uint8_t *b = buf;
	uint32_t c0;
	size_t done = 0;
	int first = GM_OK;

	if (!apt_range_ok(off, buf, len))
		return GM_ERR_BAD_ARG;
	if (apt_missing(g))
		return GM_ERR_UNSUPPORTED;
	c0 = off & ~(APT_CHUNK - 1u);
	while (done < len) {
		/* chunks [c0, c0 + 16 * nc) cover the next bytes */
		uint32_t a = off + (uint32_t)done, skip = a - c0;
		size_t nc = (skip + (len - done) + APT_CHUNK - 1u) / APT_CHUNK, n;
		uint32_t end;
		int st;

		nc = nc < APT_READ_BURST ? nc : APT_READ_BURST;
		n = APT_CHUNK * nc - skip < len - done ? APT_CHUNK * nc - skip : len - done;
		end = skip + (uint32_t)n - APT_CHUNK * (uint32_t)(nc - 1); /* in the last chunk */
		st = apt_read_chunks(g, c0, w, nc, apt_halves(skip, APT_CHUNK),
				     apt_halves(0, end));
		if (st == GM_ERR_HW)
			return st;
		if (first == GM_OK)
			first = st;
		memcpy(b + done, (uint8_t *)w + skip, n);
		done += n;
		c0 += APT_CHUNK * (uint32_t)nc;
	}
	return first;
}

int gm_apt_check(enum gm_io_apt op, uint32_t off, const void *buf, size_t len, uint8_t strb)
{
	switch (op) {
	case GM_IO_APT_WRITE64:
	case GM_IO_APT_POST64:
		return apt_word_ok(off, strb) ? GM_OK : GM_ERR_BAD_ARG;
	case GM_IO_APT_READ64:
		return buf && apt_word_ok(off, 0xff) ? GM_OK : GM_ERR_BAD_ARG;
	case GM_IO_APT_WRITE:
	case GM_IO_APT_READ:
		return apt_range_ok(off, buf, len) ? GM_OK : GM_ERR_BAD_ARG;
	case GM_IO_APT_FLUSH:
		return GM_OK;
	}
	return GM_ERR_BAD_ARG;
}

/* A call of a host's view of a TLM platform's GPU (gm_io_ops): checked
 * here as on a model, then a BAR1 transaction. */
static int apt_io(struct gm *g, enum gm_io_apt op, uint32_t off, void *buf, size_t len, uint8_t strb)
{
	int st = gm_apt_check(op, off, buf, len, strb);

	return st ? st : g->io->apt(g->io_be, op, off, buf, len, strb);
}

/* The aperture calls as gm.h has them: each one record of a capture. */
int gm_apt_flush(struct gm *g)
{
	int st;

	if (g->io)
		return apt_io(g, GM_IO_APT_FLUSH, 0, NULL, 0, 0);
	gm_cap_enter(g->cap, g->cycle, false);
	st = apt_flush(g);
	gm_cap_apt(g->cap, g->cycle, GM_CAP_APT_FLUSH, 0, NULL, 0, 0, 0, st);
	return st;
}

int gm_apt_post64(struct gm *g, uint32_t off, uint64_t val, uint8_t strb)
{
	int st;

	if (g->io)
		return apt_io(g, GM_IO_APT_POST64, off, &val, 8, strb);
	gm_cap_enter(g->cap, g->cycle, false);
	st = apt_post64(g, off, val, strb);
	gm_cap_apt(g->cap, g->cycle, GM_CAP_APT_POST64, off, NULL, 0, val, strb, st);
	return st;
}

int gm_apt_write64(struct gm *g, uint32_t off, uint64_t val, uint8_t strb)
{
	int st;

	if (g->io)
		return apt_io(g, GM_IO_APT_WRITE64, off, &val, 8, strb);
	gm_cap_enter(g->cap, g->cycle, false);
	st = apt_write64(g, off, val, strb);
	gm_cap_apt(g->cap, g->cycle, GM_CAP_APT_WRITE64, off, NULL, 0, val, strb, st);
	return st;
}

int gm_apt_read64(struct gm *g, uint32_t off, uint64_t *val)
{
	int st;

	if (g->io)
		return apt_io(g, GM_IO_APT_READ64, off, val, 8, 0xff);
	gm_cap_enter(g->cap, g->cycle, false);
	st = apt_read64(g, off, val);
	gm_cap_apt(g->cap, g->cycle, GM_CAP_APT_READ64, off, NULL, 0,
		   st == GM_OK || st == GM_ERR_ADDR ? *val : 0, 0, st);
	return st;
}

int gm_apt_write(struct gm *g, uint32_t off, const void *buf, size_t len)
{
	int st;

	if (g->io)
		return apt_io(g, GM_IO_APT_WRITE, off, (void *)buf, len, 0);
	gm_cap_enter(g->cap, g->cycle, false);
	st = apt_write(g, off, buf, len);
	gm_cap_apt(g->cap, g->cycle, GM_CAP_APT_WRITE, off, buf, len, 0, 0, st);
	return st;
}

int gm_apt_read(struct gm *g, uint32_t off, void *buf, size_t len)
{
	int st;

	if (g->io)
		return apt_io(g, GM_IO_APT_READ, off, buf, len, 0);
	gm_cap_enter(g->cap, g->cycle, false);
	st = apt_read(g, off, buf, len);
	gm_cap_apt(g->cap, g->cycle, GM_CAP_APT_READ, off, buf, len, 0, 0, st);
	return st;
}
