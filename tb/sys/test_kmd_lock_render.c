/* SPDX-License-Identifier: MIT */
/*
 * test_kmd_lock_render.c - a Lock and the GPU at once (pfnLockCb, fw_lock.h):
 * rendering from an allocation the CPU holds raw, dynamic allocations in
 * the system segment, and MIP levels locked one call at a time.
 *
 * The fixture (kt.h) runs the firmware on the RTL model and reads every
 * result back from the model's memory wherever fw_alloc.loc says the bytes
 * live now.
 *
 * Tests (tb/testplan.txt maps them to the rules they check):
 *   test_kmd_render_locked    a raw lock of a VRAM buffer, then a FILL of
 *                             half of it: the buffer moves to the system
 *                             segment, the GPU writes it there, the same pData
 *                             reads the CPU's and the GPU's bytes and a write
 *                             through it lands in system memory; a second
 *                             render uses it in place; after Unlock the range
 *                             is free and the next render pages it back with
 *                             its bytes.  CANTRENDERLOCKEDALLOCATION, nothing
 *                             changed, for a vram_only surface, one made
 *                             pinned, and when no range is free; a dynamic
 *                             buffer is placed, written and locked in the
 *                             system segment and never enters VRAM; locked
 *                             while the GPU fills it, DonotWait gives
 *                             WASSTILLDRAWING and a plain lock waits.
 *   test_kmd_lock_levels      PrivateDriverData = 1 + a level: the argument
 *                             rows (past the levels, without AcquireAperture,
 *                             a page list, the level again, a whole lock over
 *                             it, DonotEvict with no range: exact code,
 *                             nothing changed); a range per level in one
 *                             window; with no range for the last level the
 *                             ranges are reclaimed, the copy serves every
 *                             level through one view range, the three pData
 *                             write the image and Unlock puts it back
 *                             swizzled; destroying the resource in that state
 *                             frees every range.
 *   test_kmd_lock_hold_random (seeded) locks held across random GPU FILLs,
 *                             CPU reads and writes through pData, evictions
 *                             and unlocks, over plain, dynamic and vram_only
 *                             buffers: each submission gives the code the
 *                             rules predict, every read through pData and
 *                             every allocation at the end equal a C model.
 *
 * $GPUSIM_KMD_LOG set: the pipeline's log goes to stderr.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_tile.h"
#include "kt.h"

#define BIN "build/tests/test_kmd_lock_render"

static unsigned ranges_used(const struct kt *x)
{
	unsigned n = 0;

	for (unsigned r = 0; r < GPU_APT_RANGES; r++)
		n += x->k->lk->apt[r].a != NULL;
	return n;
}

/* Render (not submit) into x->buf a FILL of rows [@row, @row + @rows) of @h with @v. */
static void render_fill(struct kt *x, struct fw_device *dev, uint32_t h, uint32_t row,
			uint32_t rows, uint64_t v)
{
	struct fw_cmdbuf cb;
	uint32_t mp = 0;

	fw_umd_begin(x->u);
	kt_fill(x->u, h, (uint64_t)row * PITCH, PITCH, rows, v);
	fw_umd_cmdbuf(x->u, &cb);
	assert_int_equal(fw_kmd_render(x->k, dev, &cb, &mp, x->buf), GM_OK);
}

/* The same, submitted: the status. */
static int fill_rows(struct kt *x, struct fw_device *dev, uint32_t h, uint32_t row,
		     uint32_t rows, uint64_t v)
{
	render_fill(x, dev, h, row, rows, v);
	return fw_kmd_submit(x->k, x->buf, NULL, 0, NULL);
}

static void test_kmd_render_locked(void **state)
{
	const uint32_t bytes = 16 * PITCH;
	const uint64_t v1 = 0x5a5a5a5a5a5a5a5aull, v2 = 0x0123456789abcdefull;
	uint8_t *m = malloc(bytes), *got = malloc(bytes);
	struct fw_alloc_desc d;
	struct kbuf L, VO, PIN, DY, L2, R[GPU_APT_RANGES];
	struct fw_device *A;
	uint64_t pd, pd2, w = 0x7777000011112222ull, w2 = 0, moves;
	struct kt x;

	(void)state;
	assert_non_null(m);
	assert_non_null(got);
	kt_open(&x, 8ull << 20, 2000000);
	A = kt_dev_new(&x);
	L = kbuf_new(&x, A, bytes);
	d = kt_buf_desc(bytes);
	d.vram_only = true;
	VO = kbuf_desc(&x, A, &d, false);
	d = kt_buf_desc(bytes);
	d.pinned = true;
	PIN = kbuf_desc(&x, A, &d, false);
	d = kt_buf_desc(bytes);
	d.dynamic = true;
	DY = kbuf_desc(&x, A, &d, false);
	L2 = kbuf_new(&x, A, bytes);
	for (unsigned r = 0; r < GPU_APT_RANGES; r++)
		R[r] = kbuf_new(&x, A, PITCH);

	/* Held raw in VRAM: the CPU writes all of it, the GPU fills rows 8..15. */
	assert_int_equal(kt_lock_cb(&x, A, L.h, 0, 0, NULL, &pd), GM_OK);
	assert_int_equal(L.a->loc.seg_id, FW_KMD_SEG_VRAM);
	assert_int_equal(pd, L.a->loc.addr);
	kt_fill_words(m, bytes, 0x1100000000000000ull);
	assert_int_equal(kt_cpu_rw(&x, pd, m, bytes, true), GM_OK);
	assert_int_equal(fill_rows(&x, A, L.h, 8, 8, v1), GM_OK);
	kt_model_fill(m, 8 * PITCH, PITCH, 8, v1);
	assert_int_equal(L.a->loc.seg_id, FW_KMD_SEG_SYS);
	assert_int_equal(ranges_used(&x), 1);
	kt_idle(&x);
	assert_int_equal(kt_cpu_rw(&x, pd, got, bytes, false), GM_OK);
	assert_memory_equal(got, m, bytes);
	kt_read_alloc(&x, L.a, got);
	assert_memory_equal(got, m, bytes);
	/* The same pData writes system memory now. */
	memcpy(m + 24, &w, 8);
	assert_int_equal(kt_cpu_rw(&x, pd + 24, &w, 8, true), GM_OK);
	assert_int_equal(gm_backdoor_read64(x.t.g, L.a->loc.addr + 24, &w2), GM_OK);
	assert_true(w2 == w);
	/* Rendered again while still held: used where it is, nothing moves. */
	moves = x.k->st.evictions + x.k->st.page_ins;
	assert_int_equal(fill_rows(&x, A, L.h, 0, 1, v2), GM_OK);
	kt_model_fill(m, 0, PITCH, 1, v2);
	kt_idle(&x);
	assert_int_equal(x.k->st.evictions + x.k->st.page_ins, moves);
	assert_int_equal(L.a->loc.seg_id, FW_KMD_SEG_SYS);
	assert_int_equal(kt_unlock_cb(&x, A, &L.h, 1), GM_OK);
	assert_int_equal(ranges_used(&x), 0);
	/* Unlocked, the next render pages it back with its bytes. */
	assert_int_equal(fill_rows(&x, A, L.h, 15, 1, v2), GM_OK);
	kt_model_fill(m, 15 * PITCH, PITCH, 1, v2);
	kt_idle(&x);
	assert_int_equal(L.a->loc.seg_id, FW_KMD_SEG_VRAM);
	kt_read_alloc(&x, L.a, got);
	assert_memory_equal(got, m, bytes);

	/* CANTRENDERLOCKEDALLOCATION, nothing changed. */
	assert_int_equal(kt_lock_cb(&x, A, VO.h, 0, 0, NULL, &pd2), GM_OK);
	render_fill(&x, A, VO.h, 0, 1, v1);
	ROW(&x, "render: a vram_only surface held raw in VRAM", GM_ERR_CANT_RENDER_LOCKED,
	    fw_kmd_submit(x.k, x.buf, NULL, 0, NULL));
	assert_int_equal(kt_unlock_cb(&x, A, &VO.h, 1), GM_OK);
	assert_int_equal(kt_lock_cb(&x, A, PIN.h, 0, 0, NULL, &pd2), GM_OK);
	render_fill(&x, A, PIN.h, 0, 1, v1);
	ROW(&x, "render: a surface made pinned, held raw in VRAM", GM_ERR_CANT_RENDER_LOCKED,
	    fw_kmd_submit(x.k, x.buf, NULL, 0, NULL));
	assert_int_equal(kt_unlock_cb(&x, A, &PIN.h, 1), GM_OK);
	for (unsigned r = 0; r < GPU_APT_RANGES; r++)
		assert_int_equal(kt_lock_cb(&x, A, R[r].h, LK_AA, 0, NULL, NULL), GM_OK);
	assert_int_equal(kt_lock_cb(&x, A, L2.h, 0, 0, NULL, &pd2), GM_OK);
	render_fill(&x, A, L2.h, 0, 1, v1);
	ROW(&x, "render: held raw in VRAM, no range free for the CPU's view",
	    GM_ERR_CANT_RENDER_LOCKED, fw_kmd_submit(x.k, x.buf, NULL, 0, NULL));
	for (unsigned r = 0; r < GPU_APT_RANGES; r++)
		assert_int_equal(kt_unlock_cb(&x, A, &R[r].h, 1), GM_OK);
	assert_int_equal(fill_rows(&x, A, L2.h, 0, 1, v1), GM_OK); /* a range is free now */
	kt_idle(&x);
	assert_int_equal(L2.a->loc.seg_id, FW_KMD_SEG_SYS);
	assert_int_equal(kt_unlock_cb(&x, A, &L2.h, 1), GM_OK);

	/* Dynamic: placed in the system segment, written and locked there. */
	moves = x.k->st.evictions + x.k->st.page_ins;
	assert_int_equal(fill_rows(&x, A, DY.h, 0, 16, v2), GM_OK);
	/* Even in system memory a Lock goes through the callback, for the GPU may
	 * still be writing it (pfnLockCb): while the FILL is pending DonotWait is
	 * WASSTILLDRAWING (kt_lock_cb: nothing written), and a plain lock waits. */
	assert_int_equal(DY.a->loc.seg_id, FW_KMD_SEG_SYS);
	assert_int_equal(kt_lock_cb(&x, A, DY.h, LK_NW, 0, NULL, NULL), GM_ERR_STILL_DRAWING);
	assert_int_equal(kt_lock_cb(&x, A, DY.h, LK_RO, 0, NULL, &pd2), GM_OK);
	assert_int_equal(pd2, DY.a->loc.addr);
	assert_int_equal(kt_cpu_rw(&x, pd2 + 15 * PITCH, &w2, 8, false), GM_OK);
	assert_true(w2 == v2);
	assert_int_equal(kt_unlock_cb(&x, A, &DY.h, 1), GM_OK);
	kt_idle(&x);
	assert_int_equal(DY.a->loc.seg_id, FW_KMD_SEG_SYS);
	kt_expect_filled(&x, DY.a, v2, "a dynamic buffer the GPU filled in the system segment");
	assert_int_equal(kt_lock_cb(&x, A, DY.h, LK_NW, 0, NULL, &pd2), GM_OK);
	assert_int_equal(pd2, DY.a->loc.addr);
	assert_true(pd2 >= GPU_SYSMEM_BASE);
	assert_int_equal(fill_rows(&x, A, DY.h, 3, 1, v1), GM_OK); /* NoOverwrite: held */
	kt_idle(&x);
	assert_int_equal(kt_cpu_rw(&x, pd2 + 3 * PITCH, &w2, 8, false), GM_OK);
	assert_true(w2 == v1);
	assert_int_equal(kt_unlock_cb(&x, A, &DY.h, 1), GM_OK);
	assert_int_equal(x.k->st.evictions + x.k->st.page_ins, moves);
	assert_int_equal(x.k->st.tdrs, 0);
	printf("render locked: %u rows, nothing changed in any\n", x.rows);
	free(m), free(got);
	kt_close(&x);
}

/* ------------------------------------------------------------ MIP levels, one at a time */

static const struct fw_alloc_desc mip3 = {
	.size = 0x2a000, .width = 256, .height = 128, .pitch = 1024, .bpe_log2 = 2,
	.tile = GPU_TILE_Y, .mip_levels = 3,
	.mip = { { 0, 1024, 128 }, { 0x20000, 512, 64 }, { 0x28000, 256, 32 } } };

/* Lock level @lv of @h (PrivateDriverData 1 + @lv) with @flags: the status, *pd. */
static int lock_level(struct kt *x, struct fw_device *dev, uint32_t h, unsigned lv,
		      uint32_t flags, uint32_t np, const uint32_t *pages, uint64_t *pd)
{
	struct fw_lock_args a = { .hAllocation = h, .Flags = flags, .PrivateDriverData = 1 + lv,
				  .NumPages = np, .pPages = pages, .pData = PDATA_UNSET };
	int st = fw_kmd_lock_cb(x->k, dev, &a);

	if (st && (a.pData != PDATA_UNSET || a.hAllocation != h))
		fail_msg("a refused level lock changed hAllocation or pData");
	if (pd)
		*pd = a.pData;
	return st;
}

static unsigned views(const struct kt *x)
{
	unsigned n = 0;

	for (unsigned r = 0; r < GPU_APT_RANGES; r++)
		n += x->k->lk->apt[r].view;
	return n;
}

static void test_kmd_lock_levels(void **state)
{
	uint8_t *img = malloc(mip3.size), *raw = malloc(mip3.size), *got = calloc(1, mip3.size);
	struct kbuf M, M2, R[GPU_APT_RANGES];
	struct fw_device *A;
	uint64_t pd[3], pdr;
	uint32_t page = 0;
	struct kt x;

	(void)state;
	assert_non_null(img);
	assert_non_null(raw);
	assert_non_null(got);
	kt_open(&x, 8ull << 20, 2000000);
	A = kt_dev_new(&x);
	M = kbuf_desc(&x, A, &mip3, false);
	M2 = kbuf_desc(&x, A, &mip3, false);
	for (unsigned r = 0; r < GPU_APT_RANGES; r++)
		R[r] = kbuf_new(&x, A, PITCH);
	kt_fill_words(img, mip3.size, 0x4d00000000000000ull);

	ROW(&x, "level lock: PrivateDriverData past the levels", GM_ERR_BAD_ARG,
	    lock_level(&x, A, M.h, 3, LK_AA, 0, NULL, NULL));
	ROW(&x, "level lock: without AcquireAperture", GM_ERR_BAD_ARG,
	    lock_level(&x, A, M.h, 0, 0, 0, NULL, NULL));
	ROW(&x, "level lock: with a page list", GM_ERR_BAD_ARG,
	    lock_level(&x, A, M.h, 0, LK_AA, 1, &page, NULL));
	assert_int_equal(lock_level(&x, A, M.h, 1, LK_AA, 0, NULL, &pd[1]), GM_OK);
	ROW(&x, "level lock: the same level again", GM_ERR_BAD_ARG,
	    lock_level(&x, A, M.h, 1, LK_AA, 0, NULL, NULL));
	ROW(&x, "lock: the whole allocation over a level lock", GM_ERR_BAD_ARG,
	    kt_lock_cb(&x, A, M.h, LK_AA, 0, NULL, NULL));
	assert_int_equal(lock_level(&x, A, M.h, 0, LK_AA, 0, NULL, &pd[0]), GM_OK);
	assert_true(pd[1] == pd[0] + mip3.mip[1].offset);
	assert_int_equal(ranges_used(&x), 2);
	for (unsigned r = 0; r < GPU_APT_RANGES - 2; r++)
		assert_int_equal(kt_lock_cb(&x, A, R[r].h, LK_AA, 0, NULL, NULL), GM_OK);
	ROW(&x, "level lock: no range, DonotEvict", GM_ERR_NOT_AVAILABLE,
	    lock_level(&x, A, M.h, 2, LK_AA | LK_NE, 0, NULL, NULL));

	/* No range for level 2: reclaimed, copied, one range views the copy. */
	assert_int_equal(lock_level(&x, A, M.h, 2, LK_AA, 0, NULL, &pd[2]), GM_OK);
	assert_true(pd[2] == pd[0] + mip3.mip[2].offset);
	assert_int_equal(views(&x), 1);
	assert_int_equal(ranges_used(&x), GPU_APT_RANGES - 1);
	for (unsigned i = 0; i < 3; i++)
		assert_int_equal(kt_cpu_rw(&x, pd[i], img + mip3.mip[i].offset,
					   mip3.mip[i].pitch * mip3.mip[i].height, true), GM_OK);
	assert_int_equal(kt_unlock_cb(&x, A, &M.h, 1), GM_OK);
	assert_int_equal(views(&x), 0);
	assert_int_equal(ranges_used(&x), GPU_APT_RANGES - 2);
	assert_int_equal(kt_lock_cb(&x, A, M.h, LK_RO, 0, NULL, &pdr), GM_OK);
	assert_int_equal(kt_cpu_rw(&x, pdr, raw, (uint32_t)mip3.size, false), GM_OK);
	assert_int_equal(kt_unlock_cb(&x, A, &M.h, 1), GM_OK);
	for (unsigned i = 0; i < 3; i++) {
		const struct fw_mip *l = &mip3.mip[i];
		size_t n = (size_t)l->pitch * l->height;

		gpu_tile_untile(GPU_TILE_Y, 2, l->pitch, raw + l->offset, mip3.size - l->offset,
				l->pitch >> 2, l->height, got + l->offset, l->pitch, n);
		if (memcmp(got + l->offset, img + l->offset, n))
			fail_msg("level %u written through its pData differs after unlock", i);
	}

	/* The same state, then the resource destroyed: every range free. */
	assert_int_equal(lock_level(&x, A, M2.h, 0, LK_AA, 0, NULL, &pd[0]), GM_OK);
	assert_int_equal(lock_level(&x, A, M2.h, 1, LK_AA, 0, NULL, &pd[1]), GM_OK);
	assert_int_equal(lock_level(&x, A, M2.h, 2, LK_AA, 0, NULL, &pd[2]), GM_OK);
	assert_int_equal(views(&x), 1);
	assert_int_equal(fw_res_destroy(M2.res), GM_OK);
	assert_int_equal(views(&x), 0);
	assert_int_equal(ranges_used(&x), GPU_APT_RANGES - 2);
	for (unsigned r = 0; r < GPU_APT_RANGES - 2; r++)
		assert_int_equal(kt_unlock_cb(&x, A, &R[r].h, 1), GM_OK);
	assert_int_equal(ranges_used(&x), 0);
	printf("lock levels: %u rows, nothing changed in any\n", x.rows);
	free(img), free(raw), free(got);
	kt_close(&x);
}

/* ------------------------------------------------------------ held locks, random */

#define HR_FAMS 6u                /* 0-3 plain, 4 dynamic, 5 vram_only */
#define HR_BYTES (2u * PITCH)
#define HR_STEPS 120u

struct hr {
	struct kt *x;
	struct fw_device *dev;
	uint64_t seed, s;
	struct kbuf b[HR_FAMS];
	uint8_t m[HR_FAMS][HR_BYTES];  /* the model */
	unsigned held[HR_FAMS];        /* 0 no, 1 raw, 2 through a range */
	uint64_t pd[HR_FAMS];
	bool busy[HR_FAMS];            /* a FILL may still run */
};

#define HR_CHECK(r, cond, ...) KT_SEED_CHECK((r)->seed, cond, __VA_ARGS__)

/* What fw_kmd_submit must answer for a FILL of family @f (fw_lock.h). */
static int hr_expect(const struct hr *r, unsigned f)
{
	const struct fw_alloc *a = r->b[f].a;
	unsigned free_ranges = GPU_APT_RANGES - ranges_used(r->x);

	if (r->held[f] == 2)
		return GM_ERR_BAD_ARG;
	if (r->held[f] == 1 && a->loc.seg_id == FW_KMD_SEG_VRAM &&
	    (a->d.vram_only || free_ranges == 0))
		return GM_ERR_CANT_RENDER_LOCKED;
	return GM_OK;
}

static void hr_fill(struct hr *r, unsigned f)
{
	uint32_t row = (uint32_t)(tb_rand(&r->s) % 2);
	uint64_t v = tb_rand(&r->s);
	int want = hr_expect(r, f), st = fill_rows(r->x, r->dev, r->b[f].h, row, 1, v);

	HR_CHECK(r, st == want, "FILL of family %u (held %u): %s, the rules say %s", f,
		 r->held[f], gm_status_name(st), gm_status_name(want));
	if (!st) {
		kt_model_fill(r->m[f], (uint64_t)row * PITCH, PITCH, 1, v);
		r->busy[f] = true;
	}
}

static void hr_lock(struct hr *r, unsigned f)
{
	uint32_t flags = tb_rand(&r->s) % 2 ? LK_AA : 0;
	int st = kt_lock_cb(r->x, r->dev, r->b[f].h, flags, 0, NULL, &r->pd[f]);

	HR_CHECK(r, st == GM_OK, "lock of family %u (0x%x): %s", f, flags, gm_status_name(st));
	r->held[f] = flags ? 2 : 1;
	r->busy[f] = false; /* the lock waited for the GPU */
}

static void hr_cpu(struct hr *r, unsigned f)
{
	uint8_t buf[HR_BYTES];
	uint32_t off = (uint32_t)(tb_rand(&r->s) % HR_BYTES);
	uint32_t n = 1 + (uint32_t)(tb_rand(&r->s) % (HR_BYTES - off));

	if (r->busy[f])
		kt_idle(r->x), memset(r->busy, 0, sizeof(r->busy));
	if (tb_rand(&r->s) % 2) {
		for (uint32_t i = 0; i < n; i++)
			r->m[f][off + i] = (uint8_t)tb_rand(&r->s);
		HR_CHECK(r, !kt_cpu_rw(r->x, r->pd[f] + off, r->m[f] + off, n, true),
			 "write through family %u's pData", f);
	} else {
		HR_CHECK(r, !kt_cpu_rw(r->x, r->pd[f], buf, HR_BYTES, false),
			 "read through family %u's pData", f);
		HR_CHECK(r, !memcmp(buf, r->m[f], HR_BYTES), "family %u read through its pData"
			 " (held %u, in segment %u) differs from the model", f, r->held[f],
			 r->b[f].a->loc.seg_id);
	}
}

static void test_kmd_lock_hold_random(void **state)
{
	struct hr r = { 0 };
	struct fw_alloc_desc d;
	struct kbuf hog;
	struct kt x;

	(void)state;
	r.seed = tb_seed(BIN);
	r.s = r.seed | 1;
	kt_open(&x, 192u << 10, 2000000);
	r.x = &x;
	r.dev = kt_dev_new(&x);
	for (unsigned f = 0; f < HR_FAMS; f++) {
		d = kt_buf_desc(HR_BYTES);
		d.dynamic = f == 4;
		d.vram_only = f == 5;
		r.b[f] = kbuf_desc(NULL, r.dev, &d, false);
		assert_int_equal(fill_rows(&x, r.dev, r.b[f].h, 0, 2, 0), GM_OK);
	}
	hog = kbuf_new(NULL, r.dev, 160u << 10);
	kt_idle(&x);
	for (unsigned i = 0; i < HR_STEPS; i++) {
		unsigned f = (unsigned)(tb_rand(&r.s) % HR_FAMS);

		switch (tb_rand(&r.s) % 8) {
		case 0: /* pressure: what nobody holds or uses may be evicted */
			kt_idle(&x);
			memset(r.busy, 0, sizeof(r.busy));
			if (kt_lock_cb(&x, r.dev, hog.h, 0, 0, NULL, NULL) == GM_OK)
				assert_int_equal(kt_unlock_cb(&x, r.dev, &hog.h, 1), GM_OK);
			break;
		case 1:
		case 2:
		case 3:
			hr_fill(&r, f);
			break;
		case 4:
		case 5:
			if (r.held[f])
				hr_cpu(&r, f);
			else
				hr_lock(&r, f);
			break;
		default:
			if (r.held[f]) {
				HR_CHECK(&r, !kt_unlock_cb(&x, r.dev, &r.b[f].h, 1), "unlock %u", f);
				r.held[f] = 0;
			}
			break;
		}
		HR_CHECK(&r, r.b[4].a->loc.seg_id != FW_KMD_SEG_VRAM, "the dynamic buffer in VRAM");
	}
	kt_idle(&x);
	for (unsigned f = 0; f < HR_FAMS; f++) {
		uint8_t got[HR_BYTES];

		if (r.held[f])
			assert_int_equal(kt_unlock_cb(&x, r.dev, &r.b[f].h, 1), GM_OK);
		kt_read_alloc(&x, r.b[f].a, got);
		HR_CHECK(&r, !memcmp(got, r.m[f], HR_BYTES), "family %u differs from the model", f);
	}
	HR_CHECK(&r, ranges_used(&x) == 0, "a range still used after every unlock");
	printf("lock hold random: %" PRIu64 " evictions, %" PRIu64 " page-ins\n",
	       x.k->st.evictions, x.k->st.page_ins);
	assert_int_equal(x.k->st.tdrs, 0);
	kt_close(&x);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kmd_render_locked),
		cmocka_unit_test(test_kmd_lock_levels),
		cmocka_unit_test(test_kmd_lock_hold_random),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
