/* SPDX-License-Identifier: MIT */
/*
 * kt.c - the fixture of the submission pipeline tests (test_kmd*.c); the
 * contracts are in kt.h.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kt.h"

/* The fixture on a model made from @cfg, with @pt_bytes of page tables. */
static void kt_open_all(struct kt *x, const struct gm_config *cfg, uint64_t vram_bytes,
			uint64_t pt_bytes, uint64_t tdr_cycles)
{
	struct fw_kmd_cfg kc;
	int st;

	memset(x, 0, sizeof(*x));
	tb_open_cfg(&x->t, cfg);
	x->k = calloc(1, sizeof(*x->k));
	x->u = calloc(1, sizeof(*x->u));
	x->buf = calloc(1, sizeof(*x->buf));
	assert_true(x->k && x->u && x->buf);
	fw_kmd_cfg_default(&kc);
	kc.vram_bytes = vram_bytes;
	kc.tdr_cycles = tdr_cycles;
	kc.pt_bytes = pt_bytes;
	kc.log = getenv("GPUSIM_KMD_LOG") ? stderr : NULL;
	st = fw_kmd_init(x->k, &x->t.d, &kc);
	if (st)
		fail_msg("fw_kmd_init: %s", gm_status_name(st));
}

void kt_open(struct kt *x, uint64_t vram_bytes, uint64_t tdr_cycles)
{
	kt_open_all(x, NULL, vram_bytes, 0, tdr_cycles);
}

void kt_open_cfg(struct kt *x, const struct gm_config *cfg, uint64_t vram_bytes,
		 uint64_t tdr_cycles)
{
	kt_open_all(x, cfg, vram_bytes, 0, tdr_cycles);
}

void kt_open_pt(struct kt *x, uint64_t vram_bytes, uint64_t pt_bytes, uint64_t tdr_cycles)
{
	kt_open_all(x, NULL, vram_bytes, pt_bytes, tdr_cycles);
}

void kt_close(struct kt *x)
{
	fw_kmd_fini(x->k);
	free(x->k);
	free(x->u);
	free(x->buf);
	tb_close(&x->t);
}

struct fw_alloc_desc kt_buf_desc(uint64_t bytes)
{
	return (struct fw_alloc_desc){ .size = bytes, .width = PITCH / 4,
				       .height = (uint32_t)(bytes / PITCH), .pitch = PITCH,
				       .bpe_log2 = 2, .tile = GPU_TILE_LINEAR };
}

struct kbuf kbuf_desc(struct kt *x, struct fw_device *dev, const struct fw_alloc_desc *d,
		      bool shared)
{
	struct kbuf b;

	assert_int_equal(fw_res_create(dev, d, 1, shared, &b.res), GM_OK);
	assert_int_equal(fw_res_surface_handle(b.res, 0, &b.h), GM_OK);
	assert_int_equal(fw_res_get_handle_data(dev, b.h, &b.a), GM_OK);
	if (x) {
		assert_true(x->ntrack < KT_TRACK);
		x->track[x->ntrack++] = b.a;
	}
	return b;
}

struct kbuf kbuf_new(struct kt *x, struct fw_device *dev, uint64_t bytes)
{
	struct fw_alloc_desc d = kt_buf_desc(bytes);

	return kbuf_desc(x, dev, &d, false);
}

struct fw_device *kt_dev_new(struct kt *x)
{
	struct fw_device *dev = NULL;

	assert_int_equal(fw_device_create(&x->k->ad, &dev), GM_OK);
	return dev;
}

uint32_t kt_mfence_new(struct kt *x, struct fw_device *dev, uint64_t initial)
{
	uint32_t id = 0;

	assert_int_equal(fw_mfence_create(x->k, dev, initial, &id), GM_OK);
	return id;
}

uint64_t kt_mfence_val(struct kt *x, uint32_t id)
{
	uint64_t v = 0;

	assert_int_equal(fw_mfence_read(x->k, id, &v), GM_OK);
	return v;
}

void kt_fill(struct fw_umd *u, uint32_t h, uint64_t off, uint32_t w, uint32_t rows, uint64_t v)
{
	struct dma_surf s = { .base = off, .pitch = PITCH, .mode = GPU_TILE_LINEAR };

	assert_int_equal(fw_umd_fill(u, h, &s, w, rows, v), GM_OK);
}

void kt_model_fill(uint8_t *m, uint64_t off, uint32_t w, uint32_t rows, uint64_t v)
{
	for (uint32_t r = 0; r < rows; r++)
		for (uint32_t i = 0; i < w; i++)
			m[off + (uint64_t)r * PITCH + i] = (uint8_t)(v >> 8 * (i % 8));
}

int kt_cpu_rw(struct kt *x, uint64_t pd, void *p, uint32_t n, bool write)
{
	struct gm *g = x->t.g;

	if (pd < GPU_APT_WINDOW_BYTES)
		return write ? gm_apt_write(g, (uint32_t)pd, p, n) : gm_apt_read(g, (uint32_t)pd, p, n);
	return write ? gm_backdoor_write(g, pd, p, n) : gm_backdoor_read(g, pd, p, n);
}

int kt_submit(struct kt *x, struct fw_device *dev, uint32_t fence, uint64_t value)
{
	struct fw_signal sig = { fence, value };
	struct fw_cmdbuf cb;

	fw_umd_cmdbuf(x->u, &cb);
	return fw_kmd_submit_cmdbuf(x->k, dev, &cb, x->buf, fence ? &sig : NULL);
}

void kt_run(struct kt *x, struct fw_device *dev, uint32_t fence, uint64_t value)
{
	int st = kt_submit(x, dev, fence, value);

	if (st)
		fail_msg("render and submit: %s", gm_status_name(st));
}

void kt_idle(struct kt *x)
{
	int st = fw_kmd_idle(x->k, BUDGET);

	if (st)
		fail_msg("fw_kmd_idle: %s", gm_status_name(st));
}

void kt_read_alloc(struct kt *x, const struct fw_alloc *a, void *p)
{
	assert_int_not_equal(a->loc.seg_id, FW_SEG_NONE);
	assert_int_equal(gm_backdoor_read(x->t.g, a->loc.addr, p, a->d.size), GM_OK);
}

bool kt_all_bytes(const uint8_t *p, size_t n, uint64_t pattern)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] != (uint8_t)(pattern >> 8 * (i % 8)))
			return false;
	return true;
}

void kt_expect_filled(struct kt *x, const struct fw_alloc *a, uint64_t pattern, const char *what)
{
	uint8_t *p = malloc(a->d.size);

	assert_non_null(p);
	kt_read_alloc(x, a, p);
	if (!kt_all_bytes(p, a->d.size, pattern))
		fail_msg("%s: allocation at 0x%" PRIx64 " does not hold 0x%016" PRIx64, what,
			 a->loc.addr, pattern);
	free(p);
}

void kt_snap_take(const struct kt *x, struct snap *s)
{
	const struct fw_kmd *k = x->k;

	memset(s, 0, sizeof(*s));
	s->st = k->st;
	s->cycles = gm_cycles(x->t.g);
	s->sys_next = x->t.d.sys_next;
	s->seq = k->sch->seq;
	s->use_stamp = k->pg->use_stamp;
	s->pg_fence = k->pg->fence;
	s->pg_ndw = k->pg->ndw;
	for (unsigned q = 0; q < 2; q++) {
		s->emitted[q] = x->t.d.q[q].fence_emitted;
		s->seen[q] = x->t.d.q[q].fence_seen;
		s->lost[q] = x->t.d.q[q].fence_lost;
		s->errors[q] = x->t.d.q[q].errors;
		s->halted[q] = x->t.d.q[q].halted;
	}
	for (unsigned i = 0; i < FW_KMD_SLOTS; i++) {
		s->used[i] = k->sch->pend[i].used;
		s->pend_fence[i] = k->sch->pend[i].fence;
	}
	memcpy(s->mf, k->mfs->mf, sizeof(s->mf));
	memcpy(s->apt, k->lk->apt, sizeof(s->apt));
	memcpy(s->raw, k->lk->raw, sizeof(s->raw));
	for (unsigned i = 0; i < x->ntrack; i++) {
		const struct fw_alloc *a = x->track[i];

		s->a[i] = (struct alloc_state){ a->loc.seg_id, a->loc.addr, a->last_use, a->resident,
						a->pinned, a->content_valid };
	}
}

/* The first part of @now that differs from @before, or NULL. */
static const char *snap_diff(const struct kt *x, const struct snap *b, const struct snap *n)
{
	if (memcmp(&b->st, &n->st, sizeof(b->st)))
		return "fw_kmd_stats";
	if (b->cycles != n->cycles)
		return "cycles (the GPU ran)";
	if (b->sys_next != n->sys_next)
		return "system memory carved (fw_dev.sys_next)";
	if (b->seq != n->seq || b->use_stamp != n->use_stamp)
		return "submission sequence / LRU stamp";
	if (b->pg_fence != n->pg_fence || b->pg_ndw != n->pg_ndw)
		return "paging buffer";
	for (unsigned q = 0; q < 2; q++)
		if (b->emitted[q] != n->emitted[q] || b->seen[q] != n->seen[q] ||
		    b->lost[q] != n->lost[q] || b->errors[q] != n->errors[q] ||
		    b->halted[q] != n->halted[q])
			return q == RQ ? "render queue fences" : "paging queue fences";
	for (unsigned i = 0; i < FW_KMD_SLOTS; i++)
		if (b->used[i] != n->used[i] || b->pend_fence[i] != n->pend_fence[i])
			return "pending submissions";
	if (memcmp(b->mf, n->mf, sizeof(b->mf)))
		return "monitored fences (owner, requested, seen)";
	if (memcmp(b->apt, n->apt, sizeof(b->apt)))
		return "aperture locks";
	if (memcmp(b->raw, n->raw, sizeof(b->raw)))
		return "raw locks";
	for (unsigned i = 0; i < x->ntrack; i++) {
		const struct alloc_state *p = &b->a[i], *q = &n->a[i];

		if (p->seg_id != q->seg_id || p->addr != q->addr || p->resident != q->resident)
			return "an allocation's location";
		if (p->pinned != q->pinned || p->content_valid != q->content_valid ||
		    p->last_use != q->last_use)
			return "an allocation's pinned / content_valid / last_use";
	}
	return NULL;
}

void kt_row_check(struct kt *x, const struct snap *before, const char *what, int want, int got,
		  int line)
{
	struct snap now;
	const char *d;

	x->rows++;
	if (got != want)
		fail_msg("row at line %d, %s: %s, want %s", line, what, gm_status_name(got),
			 gm_status_name(want));
	kt_snap_take(x, &now);
	d = snap_diff(x, before, &now);
	if (d)
		fail_msg("row at line %d, %s: %s as it should, but %s changed", line, what,
			 gm_status_name(got), d);
}

int kt_render_mp(struct kt *x, struct fw_device *dev, const struct fw_cmdbuf *cb, uint32_t mp,
		 struct fw_dmabuf *out)
{
	uint32_t m = mp;
	int st = fw_kmd_render(x->k, dev, cb, &m, out);

	if (st != GM_OK && st != GM_ERR_FULL && m != mp)
		fail_msg("refused render moved *multipass %u -> %u", mp, m);
	return st;
}

int kt_mfence_read_row(struct fw_kmd *k, uint32_t id)
{
	uint64_t v = 0x5a5a5a5a5a5a5a5aull;
	int st = fw_mfence_read(k, id, &v);

	if (st && v != 0x5a5a5a5a5a5a5a5aull)
		fail_msg("refused fw_mfence_read wrote *value");
	return st;
}

int kt_lock_cb(struct kt *x, struct fw_device *dev, uint32_t h, uint32_t flags, uint32_t np,
	       const uint32_t *pages, uint64_t *pdata)
{
	struct fw_lock_args a = { .hAllocation = h, .Flags = flags, .NumPages = np,
				  .pPages = pages, .pData = PDATA_UNSET };
	int st = fw_kmd_lock_cb(x->k, dev, &a);

	if (st && (a.pData != PDATA_UNSET || a.hAllocation != h))
		fail_msg("refused lock (%s) wrote its arguments", gm_status_name(st));
	if (pdata)
		*pdata = a.pData;
	return st;
}

int kt_unlock_cb(struct kt *x, struct fw_device *dev, const uint32_t *h, uint32_t n)
{
	struct fw_unlock_args u = { .NumAllocations = n, .phAllocations = h };

	return fw_kmd_unlock_cb(x->k, dev, &u);
}

struct fw_alloc *kt_locked_alloc(const struct kt *x, unsigned r)
{
	return x->k->lk->apt[r].a;
}

void kt_fill_words(uint8_t *p, size_t n, uint64_t tag)
{
	for (size_t i = 0; i < n / 8; i++) {
		uint64_t v = tag | i;

		memcpy(p + 8 * i, &v, 8);
	}
}
