/* SPDX-License-Identifier: MIT */
/*
 * test_kmd_evict.c - submissions whose allocations move (fw_kmd.h): a buffer
 * re-patched after a move, seeded random writes over more allocations than
 * VRAM holds, and command buffers split over several DMA buffers (the last
 * two share the random packet model ev_*).
 *
 * The fixture (kt.h) runs the firmware on the RTL model and reads every
 * result back from the model's memory wherever fw_alloc.loc says the bytes
 * live now.
 *
 * Tests (tb/testplan.txt maps them to the rules they check):
 *   test_kmd_repatch_after_move  one rendered DMA buffer submitted twice, its
 *                             allocation evicted and paged in elsewhere in
 *                             between: the second run writes the new address,
 *                             not the old one.
 *   test_kmd_evict_random     (seeded) random GPU writes (WRITE_DATA, FILL,
 *                             COPY) in random submissions over allocations
 *                             whose sum exceeds the VRAM segment, some content
 *                             discarded: every allocation equals a C model.
 *   test_kmd_multipass        (seeded) command buffers longer than one DMA
 *                             buffer, by dwords and by patch entries:
 *                             GM_ERR_FULL at the last packet boundary that
 *                             fits, each part's patch entries rebased, the
 *                             whole result right.
 *
 * $GPUSIM_KMD_LOG set: the pipeline's log goes to stderr.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dma_validate.h"
#include "gpu_names.h"
#include "gpu_tile.h"
#include "kt.h"

#define BIN "build/tests/test_kmd_evict"

/* ------------------------------------------------------------ re-patch */

static void test_kmd_repatch_after_move(void **state)
{
	struct kt x;
	struct fw_device *A;
	struct kbuf X, P[3], D;
	struct fw_dmabuf *bx = calloc(1, sizeof(*bx)), *copy = calloc(1, sizeof(*copy));
	struct fw_cmdbuf cb;
	const uint64_t sz = 512u << 10;
	const uint32_t mark[4] = { 0x600df00d, 0x12345678, 0x9abcdef0, 0x0badf00d };
	uint64_t old, nw;
	uint8_t *before = malloc(sz), *got = malloc(sz);
	uint32_t mp = 0;

	(void)state;
	assert_true(bx && copy && before && got);
	kt_open(&x, 2ull << 20, 200000);
	A = kt_dev_new(&x);
	X = kbuf_new(&x, A, sz);
	for (unsigned i = 0; i < 3; i++)
		P[i] = kbuf_new(&x, A, sz);
	D = kbuf_new(&x, A, sz);

	/* The buffer under test: FILL all of X, then a marker at its start. */
	fw_umd_begin(x.u);
	kt_fill(x.u, X.h, 0, PITCH, (uint32_t)(sz / PITCH), 0xaaaaaaaaaaaaaaaaull);
	assert_int_equal(fw_umd_write(x.u, X.h, 0, mark, 4), GM_OK);
	fw_umd_cmdbuf(x.u, &cb);
	assert_int_equal(fw_kmd_render(x.k, A, &cb, &mp, bx), GM_OK);
	memcpy(copy, bx, sizeof(*copy));
	assert_int_equal(fw_kmd_submit(x.k, bx, NULL, 0, NULL), GM_OK);
	kt_idle(&x);
	old = X.a->loc.addr;
	assert_int_equal(X.a->loc.seg_id, FW_KMD_SEG_VRAM);

	/* Overwrite X, so only the second run of bx can bring its data back. */
	fw_umd_begin(x.u);
	kt_fill(x.u, X.h, 0, PITCH, (uint32_t)(sz / PITCH), 0x5555555555555555ull);
	kt_run(&x, A, 0, 0);
	for (unsigned i = 0; i < 3; i++) {
		fw_umd_begin(x.u);
		kt_fill(x.u, P[i].h, 0, PITCH, (uint32_t)(sz / PITCH),
			 0x0101010101010101ull * (i + 1));
		kt_run(&x, A, 0, 0);
	}
	fw_umd_begin(x.u);
	kt_fill(x.u, D.h, 0, PITCH, (uint32_t)(sz / PITCH), 0xddddddddddddddddull);
	kt_run(&x, A, 0, 0);
	kt_idle(&x);
	assert_int_equal(X.a->loc.seg_id, FW_KMD_SEG_SYS); /* X was the least recently used */
	kt_expect_filled(&x, X.a, 0x5555555555555555ull, "X evicted with its content");
	assert_int_equal(gm_backdoor_read(x.t.g, old, before, sz), GM_OK);

	/* The same DMA buffer again: X comes back elsewhere, bx is patched anew. */
	assert_int_equal(fw_kmd_submit(x.k, bx, NULL, 0, NULL), GM_OK);
	kt_idle(&x);
	assert_memory_equal(bx, copy, sizeof(*bx)); /* the caller's buffer is not patched */
	nw = X.a->loc.addr;
	assert_int_equal(X.a->loc.seg_id, FW_KMD_SEG_VRAM);
	if (nw < old + sz && old < nw + sz)
		fail_msg("X paged in at 0x%" PRIx64 ", overlapping its old 0x%" PRIx64, nw, old);
	kt_read_alloc(&x, X.a, got);
	assert_memory_equal(got, mark, sizeof(mark));
	assert_true(kt_all_bytes(got + 16, sz - 16, 0xaaaaaaaaaaaaaaaaull));
	assert_int_equal(gm_backdoor_read(x.t.g, old, got, sz), GM_OK);
	assert_memory_equal(got, before, sz); /* nothing written at the old address */
	assert_true(x.k->st.page_ins >= 1);
	free(bx);
	free(copy);
	free(before);
	free(got);
	kt_close(&x);
}

/* ------------------------------------------------------------ eviction, random */

#define EV_N 14u
#define EV_SUBS 90u
#define EV_VRAM (1ull << 20)

struct ev_alloc {
	struct kbuf b;
	uint8_t *model;
	bool used;  /* referenced by a submission */
	bool disc;  /* discarded, not made valid again since */
	bool gone;  /* discarded and out of VRAM since: the next page-in fills zero */
};

/* After a call that may evict: a discarded allocation outside VRAM lost it. */
static void ev_observe(struct ev_alloc *ev)
{
	for (unsigned i = 0; i < EV_N; i++)
		if (ev[i].disc && ev[i].b.a->loc.seg_id != FW_KMD_SEG_VRAM)
			ev[i].gone = true;
}

/* The submission in x->u is about to run: what residency does to the model
 * first (a page-in of discarded content fills zero; a write makes the
 * content valid again). */
static void ev_page_in(struct kt *x, struct ev_alloc *ev)
{
	for (uint32_t r = 0; r < x->u->nalloc; r++)
		for (unsigned i = 0; i < EV_N; i++) {
			struct ev_alloc *e = &ev[i];

			if (e->b.h != x->u->alloc[r].handle)
				continue;
			e->used = true;
			if (e->gone) {
				memset(e->model, 0, e->b.a->d.size);
				e->gone = e->disc = false;
			} else if (e->disc && x->u->alloc[r].write) {
				e->disc = false;
			}
		}
}

/* One random packet, kept to be applied to the model once residency has. */
struct ev_op {
	unsigned kind;          /* 0 WRITE_DATA, 1 FILL, 2 COPY */
	struct ev_alloc *d, *src;
	uint64_t off, so, v;
	uint32_t n, w, rows;    /* dwords / bytes; FILL width, rows */
	uint32_t data[24];
};

/* Up to 5 random packets over allocations @pick[0..n), built into x->u. */
static unsigned ev_packets(struct kt *x, struct ev_alloc *ev, const unsigned *pick, unsigned n,
			   uint64_t *s, struct ev_op *ops)
{
	unsigned nops = 1 + (unsigned)(tb_rand(s) % 5);

	for (unsigned o = 0; o < nops; o++) {
		struct ev_op *op = &ops[o];
		struct ev_alloc *d = &ev[pick[tb_rand(s) % n]];
		uint64_t size = d->b.a->d.size;

		memset(op, 0, sizeof(*op));
		op->kind = (unsigned)(tb_rand(s) % 3);
		op->d = d;
		if (op->kind == 0) {
			op->n = 1 + (uint32_t)(tb_rand(s) % 24);
			op->off = 4 * (tb_rand(s) % ((size - 4ull * op->n) / 4 + 1));
			for (uint32_t i = 0; i < op->n; i++)
				op->data[i] = (uint32_t)tb_rand(s);
			assert_int_equal(fw_umd_write(x->u, d->b.h, op->off, op->data, op->n),
					 GM_OK);
		} else if (op->kind == 1) {
			uint32_t y, col;

			op->rows = 1 + (uint32_t)(tb_rand(s) % 8);
			y = (uint32_t)(tb_rand(s) % (size / PITCH - op->rows + 1));
			col = (uint32_t)(tb_rand(s) % PITCH);
			op->w = 1 + (uint32_t)(tb_rand(s) % (PITCH - col));
			op->v = tb_rand(s);
			op->off = (uint64_t)y * PITCH + col;
			kt_fill(x->u, d->b.h, op->off, op->w, op->rows, op->v);
		} else {
			struct ev_alloc *src = &ev[pick[tb_rand(s) % n]];
			uint64_t ssz = src->b.a->d.size;
			uint32_t bytes = 1 + (uint32_t)(tb_rand(s) % 32768);

			op->src = src;
			if (src == d) { /* one allocation: halves, so the ranges never overlap */
				bytes = bytes % (uint32_t)(size / 2) + 1;
				op->so = tb_rand(s) % (size / 2 - bytes + 1);
				op->off = size / 2 + tb_rand(s) % (size / 2 - bytes + 1);
				if (tb_rand(s) & 1) {
					uint64_t t = op->so;

					op->so = op->off, op->off = t;
				}
			} else {
				if (bytes > ssz)
					bytes = (uint32_t)ssz;
				if (bytes > size)
					bytes = (uint32_t)size;
				op->so = tb_rand(s) % (ssz - bytes + 1);
				op->off = tb_rand(s) % (size - bytes + 1);
			}
			op->n = bytes;
			assert_int_equal(fw_umd_copy(x->u, d->b.h, op->off, src->b.h, op->so, bytes),
					 GM_OK);
		}
	}
	return nops;
}

static void ev_apply(const struct ev_op *op)
{
	if (op->kind == 0)
		memcpy(op->d->model + op->off, op->data, 4ull * op->n);
	else if (op->kind == 1)
		kt_model_fill(op->d->model, op->off, op->w, op->rows, op->v);
	else
		memmove(op->d->model + op->off, op->src->model + op->so, op->n);
}

/* Render and submit x->u on @dev signalling @sig; the model takes the
 * packets after residency. */
static void ev_submit(struct kt *x, struct fw_device *dev, struct ev_alloc *ev,
		      const struct ev_op *ops, unsigned nops, struct fw_signal sig, uint64_t seed,
		      unsigned sub)
{
	struct fw_cmdbuf cb;
	uint32_t mp = 0;
	int st;

	fw_umd_cmdbuf(x->u, &cb);
	st = fw_kmd_render(x->k, dev, &cb, &mp, x->buf);
	if (!st)
		st = fw_kmd_submit(x->k, x->buf, &sig, 1, NULL);
	if (st)
		fail_msg("seed %" PRIu64 ": submission %u: %s (reproduce: GPUSIM_SEED=%" PRIu64
			 " " BIN ")", seed, sub, gm_status_name(st), seed);
	ev_page_in(x, ev);
	for (unsigned o = 0; o < nops; o++)
		ev_apply(&ops[o]);
	ev_observe(ev);
}

/* Every allocation of @ev[0..n) a submission used holds what its model
 * says, wherever it lives; the others were never placed. */
static void ev_check(struct kt *x, const struct ev_alloc *ev, unsigned n, uint64_t seed,
		     uint8_t *got)
{
	for (unsigned i = 0; i < n; i++) {
		const struct fw_alloc *a = ev[i].b.a;

		if (!ev[i].used) {
			assert_int_equal(a->loc.seg_id, FW_SEG_NONE);
			continue;
		}
		kt_read_alloc(x, a, got);
		for (uint64_t b = 0; b < a->d.size; b++)
			if (got[b] != ev[i].model[b])
				fail_msg("seed %" PRIu64 ": allocation %u (%s 0x%" PRIx64 ") byte 0x%"
					 PRIx64 " is 0x%02x, the model says 0x%02x (reproduce: "
					 "GPUSIM_SEED=%" PRIu64 " " BIN ")", seed, i,
					 a->loc.seg_id == FW_KMD_SEG_VRAM ? "VRAM" : "system",
					 a->loc.addr, b, got[b], ev[i].model[b], seed);
	}
}

static void test_kmd_evict_random(void **state)
{
	struct kt x;
	struct fw_device *A;
	struct ev_alloc ev[EV_N];
	struct ev_op ops[5];
	uint64_t seed = tb_seed(BIN), s = seed | 1, total = 0, fv = 0;
	uint8_t *got = malloc(1u << 20);
	unsigned discards = 0, nops, sub;
	uint32_t f;

	(void)state;
	assert_non_null(got);
	kt_open(&x, EV_VRAM, 2000000);
	A = kt_dev_new(&x);
	f = kt_mfence_new(&x, A, 0);
	memset(ev, 0, sizeof(ev));
	for (unsigned i = 0; i < EV_N; i++) {
		uint64_t size = 0x10000ull * (1 + tb_rand(&s) % 4);

		ev[i].b = kbuf_new(&x, A, size);
		ev[i].model = calloc(1, size);
		assert_non_null(ev[i].model);
		total += size;
	}
	assert_true(total > EV_VRAM);

	for (sub = 0; sub < EV_SUBS; sub++) {
		unsigned pick[3], n = 0, want = 1 + (unsigned)(tb_rand(&s) % 3);
		uint64_t bytes = 0;

		/* At most half the VRAM segment: with the other allocations
		 * evicted it always fits, whatever the holes. */
		for (unsigned tries = 0; n < want && tries < 20; tries++) {
			unsigned i = (unsigned)(tb_rand(&s) % EV_N);
			bool dup = false;

			for (unsigned j = 0; j < n; j++)
				dup |= pick[j] == i;
			if (dup || bytes + ev[i].b.a->d.size > EV_VRAM / 2)
				continue;
			pick[n++] = i;
			bytes += ev[i].b.a->d.size;
		}
		fw_umd_begin(x.u);
		nops = ev_packets(&x, ev, pick, n, &s, ops);
		ev_submit(&x, A, ev, ops, nops, (struct fw_signal){ f, ++fv }, seed, sub);
		switch (tb_rand(&s) % 8) {
		case 0:
			kt_idle(&x);
			break;
		case 1: {
			unsigned i = (unsigned)(tb_rand(&s) % EV_N);

			assert_int_equal(fw_kmd_discard(x.k, A, ev[i].b.h), GM_OK);
			ev[i].disc = true;
			discards++;
			ev_observe(ev);
			break;
		}
		case 2:
			assert_int_equal(fw_mfence_wait(x.k, f, 1 + tb_rand(&s) % fv, BUDGET), GM_OK);
			break;
		default:
			fw_kmd_poll(x.k, tb_rand(&s) % 20000);
			break;
		}
	}
	/* Bring every discarded allocation back with one written dword, so
	 * what fw_kmd.h promises about it can be checked. */
	for (unsigned i = 0; i < EV_N; i++) {
		if (!ev[i].disc)
			continue;
		fw_umd_begin(x.u);
		ops[0] = (struct ev_op){ .kind = 0, .d = &ev[i], .n = 1,
					 .data = { (uint32_t)tb_rand(&s) } };
		assert_int_equal(fw_umd_write(x.u, ev[i].b.h, 0, ops[0].data, 1), GM_OK);
		ev_submit(&x, A, ev, ops, 1, (struct fw_signal){ f, ++fv }, seed, sub++);
	}
	kt_idle(&x);
	assert_int_equal(kt_mfence_val(&x, f), fv);
	ev_check(&x, ev, EV_N, seed, got);
	printf("evict random: %u submissions, %u discards; %" PRIu64 " evictions, %" PRIu64
	       " page-ins, %" PRIu64 " zero fills, %" PRIu64 " dropped, %" PRIu64 " cycles\n",
	       sub, discards, x.k->st.evictions, x.k->st.page_ins, x.k->st.fills,
	       x.k->st.discards, gm_cycles(x.t.g));
	assert_true(x.k->st.evictions > 0 && x.k->st.page_ins > 0);
	assert_true(fw_seg_consistent(fw_adapter_seg(&x.k->ad, FW_KMD_SEG_VRAM)));
	assert_true(fw_seg_consistent(fw_adapter_seg(&x.k->ad, FW_KMD_SEG_SYS)));
	assert_int_equal(x.k->st.tdrs, 0);
	kt_close(&x);
	free(got);
	for (unsigned i = 0; i < EV_N; i++)
		free(ev[i].model);
}

/* ------------------------------------------------------------ multipass */

/* Render the command buffer in x->u on @dev part by part, checking each part
 * against the whole, and submit each; the last signals @fence = @value.
 * Counts in *by_dw / *by_locs the parts that ended because the next packet
 * would pass FW_KMD_DMA_DW dwords / FW_KMD_MAX_LOCS patch entries. */
static unsigned mp_run(struct kt *x, struct fw_device *dev, uint32_t fence, uint64_t value,
		       unsigned *by_dw, unsigned *by_locs)
{
	struct fw_signal sig = { fence, value };
	const struct fw_dmabuf *o = x->buf;
	struct fw_cmdbuf cb;
	uint32_t mp = 0;
	unsigned parts = 0;
	bool *boundary, *patched;

	fw_umd_cmdbuf(x->u, &cb);
	boundary = calloc(cb.ndw + 1, sizeof(*boundary));
	patched = calloc(cb.ndw + 1, sizeof(*patched));
	assert_true(boundary && patched);
	for (uint32_t p = 0; p < cb.ndw; p += GPU_HDR_COUNT_GET(cb.dw[p]) + 1)
		boundary[p] = true;
	boundary[cb.ndw] = true;
	do {
		uint32_t start = mp, n = 0, next = 0, next_locs = 0;
		int st = fw_kmd_render(x->k, dev, &cb, &mp, x->buf);

		parts++;
		if (st != (mp == cb.ndw ? GM_OK : GM_ERR_FULL))
			fail_msg("part %u at dword %u: %s, *multipass %u of %u", parts, start,
				 gm_status_name(st), mp, cb.ndw);
		if (mp <= start || !boundary[mp])
			fail_msg("part %u: *multipass %u is no packet boundary after %u", parts, mp,
				 start);
		assert_ptr_equal(o->dev, dev);
		assert_int_equal(o->ndw, mp - start);
		assert_true(o->ndw <= FW_KMD_DMA_DW);
		/* The part's dwords, but for the patched places (render checks the
		 * patch list by patching them, patch fills them at submit). */
		for (uint32_t i = 0; i < cb.nloc; i++) {
			uint32_t po = cb.locs[i].patch_offset / 4;

			if (po >= start && po < mp)
				for (uint32_t j = 0; j < (cb.locs[i].driver_id ? 1u : 2u); j++)
					patched[po + j] = true;
		}
		for (uint32_t i = start; i < mp; i++)
			if (!patched[i] && o->dw[i - start] != cb.dw[i])
				fail_msg("part %u: dword %u is 0x%08x, the buffer has 0x%08x", parts, i,
					 o->dw[i - start], cb.dw[i]);
		assert_int_equal(o->nalloc, cb.nalloc);
		for (uint32_t i = 0; i < cb.nalloc; i++) {
			struct fw_alloc *a = NULL;

			assert_int_equal(fw_res_get_handle_data(dev, cb.allocs[i].handle, &a),
					 GM_OK);
			assert_ptr_equal(o->alloc[i].handle, a);
			assert_int_equal(o->alloc[i].write, cb.allocs[i].write);
		}
		/* Its patch entries, in order, rebased to the part's first byte. */
		for (uint32_t i = 0; i < cb.nloc; i++) {
			const struct dma_patch_loc *l = &cb.locs[i], *g = &o->loc[n];

			if (l->patch_offset < 4 * start || l->patch_offset >= 4 * mp)
				continue;
			if (n >= o->nloc || g->alloc_index != l->alloc_index ||
			    g->slot_id != l->slot_id || g->driver_id != l->driver_id ||
			    g->alloc_offset != l->alloc_offset ||
			    g->patch_offset != l->patch_offset - 4 * start ||
			    g->split_offset != l->split_offset - 4 * start)
				fail_msg("part %u: patch entry %u of the buffer is not rebased as "
					 "entry %u of the part", parts, i, n);
			n++;
		}
		assert_int_equal(n, o->nloc);
		assert_true(n <= FW_KMD_MAX_LOCS);
		/* The part is as long as it can be. */
		if (mp < cb.ndw) {
			next = GPU_HDR_COUNT_GET(cb.dw[mp]) + 1;
			for (uint32_t i = 0; i < cb.nloc; i++)
				next_locs += cb.locs[i].patch_offset >= 4 * mp &&
					     cb.locs[i].patch_offset < 4 * (mp + next);
			if (mp - start + next > FW_KMD_DMA_DW)
				(*by_dw)++;
			else if (n + next_locs > FW_KMD_MAX_LOCS)
				(*by_locs)++;
			else
				fail_msg("part %u ends at %u, but the next packet (%u dwords, %u patch "
					 "entries) would fit", parts, mp, next, next_locs);
		}
		st = fw_kmd_submit(x->k, x->buf, &sig, mp == cb.ndw && fence ? 1 : 0, NULL);
		if (st)
			fail_msg("part %u: submit %s", parts, gm_status_name(st));
	} while (mp < cb.ndw);
	free(boundary);
	free(patched);
	return parts;
}

static void test_kmd_multipass(void **state)
{
	struct kt x;
	struct fw_device *A;
	struct ev_alloc ev[3];
	struct ev_op *ops = calloc(2000, sizeof(*ops));
	const unsigned pick[3] = { 0, 1, 2 };
	const uint64_t size[3] = { 0x40000, 0x40000, 0x10000 };
	uint64_t seed = tb_seed(BIN), s = seed | 2;
	uint8_t *got = malloc(0x40000);
	unsigned nops = 0, parts, by_dw = 0, by_locs = 0;
	uint32_t f;

	(void)state;
	assert_true(ops && got);
	kt_open(&x, 16ull << 20, 2000000);
	A = kt_dev_new(&x);
	f = kt_mfence_new(&x, A, 0);
	memset(ev, 0, sizeof(ev));
	for (unsigned i = 0; i < 3; i++) {
		ev[i].b = kbuf_new(&x, A, size[i]);
		ev[i].model = calloc(1, size[i]);
		assert_non_null(ev[i].model);
	}

	/* 1: random WRITE_DATA, FILL and COPY packets, three DMA buffers long
	 * and more: the parts end on the dword limit. */
	fw_umd_begin(x.u);
	while (x.u->b.len < 3 * FW_KMD_DMA_DW + 500)
		nops += ev_packets(&x, ev, pick, 3, &s, ops + nops);
	assert_true(nops <= 2000 && x.u->pl.len <= FW_UMD_MAX_LOCS);
	parts = mp_run(&x, A, f, 1, &by_dw, &by_locs);
	assert_true(parts >= 4 && by_dw == parts - 1);
	assert_int_equal(fw_mfence_wait(x.k, f, 1, BUDGET), GM_OK);
	kt_idle(&x);
	for (unsigned i = 0; i < 3; i++)
		ev[i].used = true;
	for (unsigned o = 0; o < nops; o++)
		ev_apply(&ops[o]);
	ev_check(&x, ev, 3, seed, got);

	/* 2: 1000 small COPY packets (6 dwords, 2 patch entries each): the
	 * parts end on the patch-entry limit. */
	fw_umd_begin(x.u);
	nops = 0;
	for (unsigned i = 0; i < 1000; i++) {
		struct ev_op *op = &ops[nops++];

		*op = (struct ev_op){ .kind = 2, .d = &ev[i % 2], .src = &ev[2],
				      .n = 1 + (uint32_t)(tb_rand(&s) % 64) };
		op->off = tb_rand(&s) % (size[i % 2] - op->n + 1);
		op->so = tb_rand(&s) % (size[2] - op->n + 1);
		assert_int_equal(fw_umd_copy(x.u, op->d->b.h, op->off, op->src->b.h, op->so, op->n),
				 GM_OK);
	}
	by_dw = by_locs = 0;
	parts = mp_run(&x, A, f, 2, &by_dw, &by_locs);
	assert_true(parts >= 2 && by_locs == parts - 1);
	kt_idle(&x);
	for (unsigned o = 0; o < nops; o++)
		ev_apply(&ops[o]);
	ev_check(&x, ev, 3, seed, got);
	assert_int_equal(kt_mfence_val(&x, f), 2);
	assert_int_equal(x.k->st.tdrs, 0);
	printf("multipass: %" PRIu64 " DMA buffers submitted, %" PRIu64 " patch entries\n",
	       x.k->st.submits, x.k->st.patch_entries);
	for (unsigned i = 0; i < 3; i++)
		free(ev[i].model);
	free(ops);
	free(got);
	kt_close(&x);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kmd_repatch_after_move),
		cmocka_unit_test(test_kmd_evict_random),
		cmocka_unit_test(test_kmd_multipass),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
