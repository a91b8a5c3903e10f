/* SPDX-License-Identifier: MIT */
/*
 * test_kmd_lock_paths.c - the ways a Lock reaches an allocation's bytes
 * (fw_kmd.h): the copy fallback when every range is in use (test_kmd_lock_copy)
 * and MIP levels (test_kmd_lock_mips), each described above the test; a seeded
 * random mix against a C model; aperture windows side by side.
 *
 * The fixture (kt.h) runs the firmware on the RTL model and reads every
 * result back from the model's memory wherever fw_alloc.loc says the bytes
 * live now.
 *
 * Tests (tb/testplan.txt maps them to the rules they check):
 *   test_kmd_lock_random      (seeded) random Lock (raw, through a
 *                             range, DonotWait, ReadOnly, Discard with the
 *                             pfnLockCb retry), Unlock, long GPU FILLs and
 *                             evictions over six allocations and their
 *                             instances against a C model of every
 *                             instance's bytes: each ReadOnly lock reads the
 *                             model, and at the end every instance, wherever
 *                             it lives, holds it.
 *   test_kmd_lock_windows     a lock window overlapping a live
 *                             lock's, another device's or its own, in any
 *                             range: refused, nothing changed; windows side
 *                             by side both work and the CPU's writes through
 *                             each land in its own allocation only.
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

#define BIN "build/tests/test_kmd_lock_paths"

/* ------------------------------------------------------------ the copy fallback */

#define CP_W 384u /* elements of 4 bytes a row: a 1536-byte pitch, pages end mid-row */
#define CP_H 128u

/* A @mode-tiled CP_W x CP_H surface of 4-byte elements. */
static struct kbuf kbuf_mode(struct kt *x, struct fw_device *dev, unsigned mode)
{
	struct fw_alloc_desc d = { .width = CP_W, .height = CP_H, .bpe_log2 = 2, .tile = mode };
	struct gpu_tile_info ti;

	assert_int_equal(gpu_tile_info(mode, 2, &ti), GM_OK);
	d.pitch = ((CP_W << 2) + ti.tile_w_bytes - 1) & ~(ti.tile_w_bytes - 1);
	assert_int_equal(gpu_tile_surface_bytes(mode, 2, d.pitch, CP_H, &d.size), GM_OK);
	return kbuf_desc(x, dev, &d, false);
}

/* The linear view of @a's bytes in VRAM (pitch a->d.pitch, whole rows),
 * untiled by the C reference, in @lin (a->d.size bytes). */
static void cp_view(struct kt *x, const struct fw_alloc *a, uint8_t *lin)
{
	uint8_t *raw = malloc(a->d.size);
	uint32_t rows = (uint32_t)(a->d.size / a->d.pitch);

	assert_non_null(raw);
	kt_read_alloc(x, a, raw);
	memset(lin, 0, a->d.size);
	assert_int_equal(gpu_tile_untile(a->d.tile, 2, a->d.pitch, raw, a->d.size,
					 a->d.pitch >> 2, rows, lin, a->d.pitch, a->d.size), 0);
	free(raw);
}

/* Give @b the linear image @lin (tiled by the C reference) through a raw lock. */
static void cp_set(struct kt *x, struct fw_device *dev, const struct kbuf *b, const uint8_t *lin)
{
	const struct fw_alloc *a = b->a;
	uint8_t *raw = calloc(1, a->d.size);
	uint64_t pd;

	assert_non_null(raw);
	assert_int_equal(gpu_tile_tile(a->d.tile, 2, a->d.pitch, raw, a->d.size, a->d.pitch >> 2,
				       (uint32_t)(a->d.size / a->d.pitch), lin, a->d.pitch,
				       a->d.size), 0);
	assert_int_equal(kt_lock_cb(x, dev, b->h, LK_WO, 0, NULL, &pd), GM_OK);
	assert_int_equal(gm_apt_write(x->t.g, (uint32_t)pd, raw, (uint32_t)a->d.size), GM_OK);
	assert_int_equal(kt_unlock_cb(x, dev, &b->h, 1), GM_OK);
	free(raw);
}

/* The CPU writes 8 bytes of @tag at byte @off of the staging copy at
 * @stage and of the model @m. */
static void cp_poke(struct kt *x, uint64_t stage, uint8_t *m, uint64_t off, uint64_t tag)
{
	assert_int_equal(gm_backdoor_write(x->t.g, stage + off, &tag, 8), GM_OK);
	memcpy(m + off, &tag, 8);
}

/* The pages [0, @n) of @got equal to @want's or not, as @copied says (NULL: all copied). */
static void cp_pages(const uint8_t *got, const uint8_t *want, uint64_t bytes,
		     const bool *copied, const char *what)
{
	for (uint64_t p = 0; p * FW_LOCK_PAGE_BYTES < bytes; p++) {
		uint64_t o = p * FW_LOCK_PAGE_BYTES, n = bytes - o < 4096 ? bytes - o : 4096;
		bool same = !memcmp(got + o, want + o, n);

		if (same != (!copied || copied[p]))
			fail_msg("%s: page %" PRIu64 " %s", what, p,
				 same ? "copied, not in the page list" : "not the image");
	}
}

/*
 * pfnLockCb's unswizzled-copy fallback.  With all 8
 * ranges taken, a swizzled (SS64K, Tile-Y) allocation locked with
 * AcquireAperture and LockEntire is S_OK with pData in system memory: the
 * copy engine's linear copy of the whole allocation, equal to the C
 * reference's untiling; the CPU's writes there reach the tiled allocation at
 * unlock (checked by untiling it again).  With a page list only those pages
 * are copied (pData at pPages[0]) and written back: a write to another page
 * stays in the staging copy.  ReadOnly writes nothing back.  While held, a
 * DMA buffer using the allocation is refused and so is a raw lock of it.
 * Without LockEntire or a page list it is NOTAVAILABLE; destroying a
 * copy-locked resource frees the staging copy.
 */
static void test_kmd_lock_copy(void **state)
{
	static const unsigned modes[] = { GPU_TILE_SS64K, GPU_TILE_Y };
	static const uint32_t pages[] = { 5, 1 };
	struct fw_device *A;
	struct kbuf R[GPU_APT_RANGES], T, S;
	struct kt x;

	(void)state;
	kt_open(&x, 64ull << 20, 200000);
	A = kt_dev_new(&x);
	S = kbuf_new(&x, A, 0x10000);
	for (unsigned r = 0; r < GPU_APT_RANGES; r++) {
		R[r] = kbuf_new(&x, A, 0x10000);
		assert_int_equal(kt_lock_cb(&x, A, R[r].h, LK_AA, 0, NULL, NULL), GM_OK);
	}
	for (size_t m = 0; m < sizeof(modes) / sizeof(modes[0]); m++) {
		uint64_t size, pd, view;
		uint8_t *img, *got;
		bool copied[512] = { false };
		struct fw_cmdbuf cb;
		int st;

		T = kbuf_mode(&x, A, modes[m]);
		size = T.a->d.size;
		view = size / T.a->d.pitch * T.a->d.pitch;
		assert_true(size / FW_LOCK_PAGE_BYTES <= 512);
		img = malloc(size);
		got = malloc(size);
		assert_true(img && got);

		/* LockEntire: the whole allocation, written back. */
		kt_fill_words(img, size, 0xc0de000000000000ull | (uint64_t)m << 40);
		cp_set(&x, A, &T, img);
		assert_int_equal(kt_lock_cb(&x, A, T.h, LK_AA | LK_LE, 0, NULL, &pd), GM_OK);
		assert_true(pd >= GPU_SYSMEM_BASE);
		assert_int_equal(gm_backdoor_read(x.t.g, pd, got, view), GM_OK);
		cp_view(&x, T.a, img);
		if (memcmp(got, img, view))
			fail_msg("mode %u: the staging copy is not the untiled allocation", modes[m]);
		ROW(&x, "lock: raw while the copy fallback holds it", GM_ERR_BAD_ARG,
		    kt_lock_cb(&x, A, T.h, 0, 0, NULL, NULL));
		fw_umd_begin(x.u);
		assert_int_equal(fw_umd_copy(x.u, S.h, 0, T.h, 0, 4096), GM_OK);
		fw_umd_cmdbuf(x.u, &cb);
		st = fw_kmd_submit_cmdbuf(x.k, A, &cb, x.buf, NULL);
		assert_int_equal(st, GM_ERR_BAD_ARG);
		cp_poke(&x, pd, img, 0, 0x1111111111111111ull);
		cp_poke(&x, pd, img, 5000, 0x2222222222222222ull);
		cp_poke(&x, pd, img, view - 8, 0x3333333333333333ull);
		assert_int_equal(kt_unlock_cb(&x, A, &T.h, 1), GM_OK);
		assert_false(T.a->pinned);
		cp_view(&x, T.a, got);
		if (memcmp(got, img, view))
			fail_msg("mode %u: LockEntire's writes are not in the tiled allocation",
				 modes[m]);

		/* A page list: pages 5 and 1 only (pData at page 5). */
		kt_fill_words(img, size, 0xfeed000000000000ull | (uint64_t)m << 40);
		cp_set(&x, A, &T, img);
		assert_int_equal(kt_lock_cb(&x, A, T.h, LK_AA, 2, pages, &pd), GM_OK);
		pd -= 5 * FW_LOCK_PAGE_BYTES;
		assert_int_equal(gm_backdoor_read(x.t.g, pd, got, view), GM_OK);
		copied[1] = copied[5] = true;
		cp_pages(got, img, view, copied, "page list");
		cp_poke(&x, pd, img, 1 * FW_LOCK_PAGE_BYTES + 1000, 0x4444444444444444ull);
		cp_poke(&x, pd, img, 5 * FW_LOCK_PAGE_BYTES + 4088, 0x5555555555555555ull);
		cp_poke(&x, pd, got, 2 * FW_LOCK_PAGE_BYTES, 0x6666666666666666ull); /* not listed */
		assert_int_equal(kt_unlock_cb(&x, A, &T.h, 1), GM_OK);
		cp_view(&x, T.a, got);
		if (memcmp(got, img, view))
			fail_msg("mode %u: the page list's writes (only theirs) not in the allocation",
				 modes[m]);

		/* ReadOnly: nothing written back. */
		assert_int_equal(kt_lock_cb(&x, A, T.h, LK_AA | LK_LE | LK_RO, 0, NULL, &pd),
				 GM_OK);
		cp_poke(&x, pd, got, 64, 0x7777777777777777ull);
		assert_int_equal(kt_unlock_cb(&x, A, &T.h, 1), GM_OK);
		cp_view(&x, T.a, got);
		if (memcmp(got, img, view))
			fail_msg("mode %u: a ReadOnly lock wrote back", modes[m]);
		free(img);
		free(got);
	}
	/* Destroying a resource copy-locked drops its staging copy (no write-back). */
	{
		struct fw_alloc_desc dd = T.a->d;
		struct fw_seg_stats s0, s1;
		struct fw_seg *sys = fw_adapter_seg(&x.k->ad, FW_KMD_SEG_SYS);
		struct kbuf D;

		dd.priv = NULL;
		dd.priv_bytes = 0;
		D = kbuf_desc(NULL, A, &dd, false); /* freed below: no snapshot may read it */
		assert_int_equal(kt_lock_cb(&x, A, D.h, LK_AA, 0, NULL, NULL),
				 GM_ERR_NOT_AVAILABLE);
		assert_int_equal(fw_seg_get_stats(sys, &s0), GM_OK);
		assert_int_equal(kt_lock_cb(&x, A, D.h, LK_AA | LK_LE, 0, NULL, NULL), GM_OK);
		assert_int_equal(fw_seg_get_stats(sys, &s1), GM_OK);
		assert_true(s1.free + D.a->d.size <= s0.free);
		assert_int_equal(fw_res_destroy(D.res), GM_OK);
		assert_int_equal(fw_seg_get_stats(sys, &s1), GM_OK);
		assert_int_equal(s1.free, s0.free);
		for (unsigned r = 0; r < FW_KMD_RAW_LOCKS; r++)
			assert_null(x.k->lk->raw[r].a);
	}
	printf("lock copy fallback: %" PRIu64 " paging buffers\n", x.k->st.paging_buffers);
	kt_close(&x);
}

/* ------------------------------------------------------------ MIP levels */

/* A Tile-Y surface of 4-byte elements with three MIP levels: 256x128,
 * 128x64 and 64x32, each at its own offset and pitch. */
static struct kbuf kbuf_mips(struct kt *x, struct fw_device *dev)
{
	struct fw_alloc_desc d = { .size = 0x2a000, .width = 256, .height = 128, .pitch = 1024,
				   .bpe_log2 = 2, .tile = GPU_TILE_Y, .mip_levels = 3,
				   .mip = { { 0, 1024, 128 }, { 0x20000, 512, 64 },
					    { 0x28000, 256, 32 } } };

	return kbuf_desc(x, dev, &d, false);
}

/* Level @i of @a's linear view, untiled by the C reference from the raw
 * bytes @raw, into @lin; its byte count. */
static uint64_t mip_view(const struct fw_alloc *a, unsigned i, const uint8_t *raw, uint8_t *lin)
{
	const struct fw_mip *m = &a->d.mip[i];
	uint64_t bytes = (uint64_t)m->pitch * m->height;

	assert_int_equal(gpu_tile_untile(GPU_TILE_Y, 2, m->pitch, raw + m->offset,
					 a->d.size - m->offset, m->pitch >> 2, m->height, lin,
					 m->pitch, bytes), 0);
	return bytes;
}

/* How many aperture ranges hold @a. */
static unsigned ranges_of(const struct kt *x, const struct fw_alloc *a)
{
	unsigned n = 0;

	for (unsigned r = 0; r < GPU_APT_RANGES; r++)
		n += x->k->lk->apt[r].a == a;
	return n;
}

/*
 * The unswizzled-copy fallback, second part: a resource with MIP levels
 * (own offsets and pitches) locked with AcquireAperture gets one range per
 * level, each level's linear view at its offset from pData (checked
 * against the C reference's untiling of the raw bits); unlock releases all
 * of them.  With fewer ranges free than levels none is taken: without
 * LockEntire NOTAVAILABLE, with it the copy fallback serves the whole
 * allocation, level by level (the staging copy checked, a write in the
 * last level back in the tiled bits after unlock).  A level outside the
 * allocation or overlapping another is refused at creation.
 */
static void test_kmd_lock_mips(void **state)
{
	struct fw_alloc_desc bad;
	struct fw_resource *res;
	struct fw_device *A;
	struct kbuf M, R[GPU_APT_RANGES];
	uint8_t *raw, *lin, *got;
	uint64_t pd, tag = 0x6d69700000000000ull;
	struct kt x;

	(void)state;
	kt_open(&x, 16ull << 20, 200000);
	A = kt_dev_new(&x);
	M = kbuf_mips(&x, A);
	raw = malloc(M.a->d.size);
	lin = malloc(M.a->d.size);
	got = malloc(M.a->d.size);
	assert_true(raw && lin && got);
	bad = M.a->d;
	bad.priv = NULL;
	bad.priv_bytes = 0;
	bad.mip[1].offset = 0x1f000; /* overlaps level 0 */
	assert_int_equal(fw_res_create(A, &bad, 1, false, &res), GM_ERR_BAD_ARG);
	bad.mip[1].offset = 0x20000;
	bad.mip[2].offset = 0x2a000; /* past the allocation */
	assert_int_equal(fw_res_create(A, &bad, 1, false, &res), GM_ERR_BAD_ARG);

	/* Raw bits of every level, through a raw lock. */
	kt_fill_words(raw, M.a->d.size, tag);
	assert_int_equal(kt_lock_cb(&x, A, M.h, LK_WO, 0, NULL, &pd), GM_OK);
	assert_int_equal(gm_apt_write(x.t.g, (uint32_t)pd, raw, (uint32_t)M.a->d.size), GM_OK);
	assert_int_equal(kt_unlock_cb(&x, A, &M.h, 1), GM_OK);

	/* One range per level. */
	assert_int_equal(kt_lock_cb(&x, A, M.h, LK_AA, 0, NULL, &pd), GM_OK);
	assert_int_equal(ranges_of(&x, M.a), 3);
	for (unsigned i = 0; i < 3; i++) {
		uint64_t n = mip_view(M.a, i, raw, lin);

		n = n < 4096 ? n : 4096;
		assert_int_equal(gm_apt_read(x.t.g, (uint32_t)(pd + M.a->d.mip[i].offset), got,
					     (uint32_t)n), GM_OK);
		if (memcmp(got, lin, n))
			fail_msg("MIP level %u through its range is not its untiled bits", i);
	}
	assert_int_equal(kt_unlock_cb(&x, A, &M.h, 1), GM_OK);
	assert_int_equal(ranges_of(&x, M.a), 0);

	/* Six ranges taken: two free for three levels. */
	for (unsigned r = 0; r < 6; r++) {
		R[r] = kbuf_new(&x, A, 0x10000);
		assert_int_equal(kt_lock_cb(&x, A, R[r].h, LK_AA, 0, NULL, NULL), GM_OK);
	}
	ROW(&x, "lock: fewer ranges than MIP levels, no LockEntire", GM_ERR_NOT_AVAILABLE,
	    kt_lock_cb(&x, A, M.h, LK_AA, 0, NULL, NULL));
	assert_int_equal(kt_lock_cb(&x, A, M.h, LK_AA | LK_LE, 0, NULL, &pd), GM_OK);
	assert_true(pd >= GPU_SYSMEM_BASE);
	assert_int_equal(ranges_of(&x, M.a), 0);
	for (unsigned i = 0; i < 3; i++) {
		uint64_t n = mip_view(M.a, i, raw, lin);

		assert_int_equal(gm_backdoor_read(x.t.g, pd + M.a->d.mip[i].offset, got, n), GM_OK);
		if (memcmp(got, lin, n))
			fail_msg("MIP level %u in the staging copy is not its untiled bits", i);
	}
	assert_int_equal(gm_backdoor_write(x.t.g, pd + M.a->d.mip[2].offset + 1000, &tag, 8),
			 GM_OK);
	assert_int_equal(kt_unlock_cb(&x, A, &M.h, 1), GM_OK);
	kt_read_alloc(&x, M.a, raw);
	mip_view(M.a, 2, raw, got);
	assert_memory_equal(got + 1000, &tag, 8);
	printf("lock MIP levels: %" PRIu64 " paging buffers\n", x.k->st.paging_buffers);
	free(raw);
	free(lin);
	free(got);
	kt_close(&x);
}

/* ------------------------------------------------------------ Lock, random */

#define LR_FAMS 6u                              /* allocations */
#define LR_BYTES (2u * PITCH)                   /* each: two rows */
#define LR_INST (LR_FAMS * (FW_LOCK_MAX_INSTANCES + 1))
#define LR_STEPS 80u
#define LR_FILL_REPEAT 64u                      /* FILLs of one row per submission, the last wins */

/* The C model: the bytes of every instance handed out, by its handle. */
struct lr_inst {
	uint32_t h;
	unsigned fam;
	uint8_t m[LR_BYTES];
};

struct lr {
	struct kt *x;
	struct fw_device *dev;
	uint64_t seed, s;
	uint32_t cur[LR_FAMS];                  /* the handle the UMD uses now */
	struct lr_inst in[LR_INST];
	unsigned nin;
	uint32_t fence;
	uint64_t fv;
};

static struct lr_inst *lr_find(struct lr *r, uint32_t h)
{
	for (unsigned i = 0; i < r->nin; i++)
		if (r->in[i].h == h)
			return &r->in[i];
	return NULL;
}

#define LR_CHECK(r, cond, ...) KT_SEED_CHECK((r)->seed, cond, __VA_ARGS__)

/* A CPU lock of family @f: read all and compare, or write a random run;
 * Discard (renaming when busy) writes all of it. */
static void lr_lock(struct lr *r, unsigned f)
{
	static const uint32_t kinds[] = { 0, LK_AA, LK_NW, LK_RO, LK_RO | LK_AA, LK_DI, LK_DI | LK_AA };
	uint32_t flags = kinds[tb_rand(&r->s) % (sizeof(kinds) / sizeof(kinds[0]))];
	struct fw_lock_args a = { .hAllocation = r->cur[f], .Flags = flags };
	uint8_t buf[LR_BYTES];
	struct lr_inst *in;
	uint32_t off, n;
	int st = fw_kmd_lock_cb(r->x->k, r->dev, &a);

	if (st == GM_ERR_STILL_DRAWING && flags == LK_NW)
		return;
	if (st == GM_ERR_NO_MEM && (flags & LK_DI)) { /* pfnLockCb's retry */
		kt_idle(r->x);
		a.Flags |= LK_NX;
		st = fw_kmd_lock_cb(r->x->k, r->dev, &a);
	}
	LR_CHECK(r, st == GM_OK, "lock of family %u with flags 0x%x: %s", f, a.Flags,
		 gm_status_name(st));
	in = lr_find(r, a.hAllocation);
	if (!in) {
		LR_CHECK(r, r->nin < LR_INST, "more instances than FW_LOCK_MAX_INSTANCES allows");
		in = &r->in[r->nin++];
		*in = (struct lr_inst){ .h = a.hAllocation, .fam = f };
	}
	LR_CHECK(r, in->fam == f, "Discard gave another family's handle");
	r->cur[f] = a.hAllocation;
	if (flags & LK_DI) {
		for (uint32_t i = 0; i < LR_BYTES; i++)
			in->m[i] = (uint8_t)tb_rand(&r->s);
		LR_CHECK(r, !kt_cpu_rw(r->x, a.pData, in->m, LR_BYTES, true), "write through pData");
	} else if (flags & LK_RO) {
		LR_CHECK(r, !kt_cpu_rw(r->x, a.pData, buf, LR_BYTES, false), "read through pData");
		LR_CHECK(r, !memcmp(buf, in->m, LR_BYTES), "family %u read through a lock (0x%x)"
			 " differs from the model", f, flags);
	} else {
		off = (uint32_t)(tb_rand(&r->s) % LR_BYTES);
		n = 1 + (uint32_t)(tb_rand(&r->s) % (LR_BYTES - off));
		for (uint32_t i = 0; i < n; i++)
			in->m[off + i] = (uint8_t)tb_rand(&r->s);
		LR_CHECK(r, !kt_cpu_rw(r->x, a.pData + off, in->m + off, n, true), "write through pData");
	}
	st = kt_unlock_cb(r->x, r->dev, &a.hAllocation, 1);
	LR_CHECK(r, st == GM_OK, "unlock: %s", gm_status_name(st));
}

/* GPU FILLs of one row of family @f's current instance. */
static void lr_fill(struct lr *r, unsigned f)
{
	uint32_t row = (uint32_t)(tb_rand(&r->s) % (LR_BYTES / PITCH));
	uint64_t v = tb_rand(&r->s);

	fw_umd_begin(r->x->u);
	for (unsigned i = 0; i < LR_FILL_REPEAT; i++) /* long enough to race the CPU */
		kt_fill(r->x->u, r->cur[f], (uint64_t)row * PITCH, PITCH, 1, v + LR_FILL_REPEAT - 1 - i);
	kt_run(r->x, r->dev, r->fence, ++r->fv);
	kt_model_fill(lr_find(r, r->cur[f])->m, (uint64_t)row * PITCH, PITCH, 1, v);
}

/*
 * Seeded: random Lock (raw or through a range, with
 * DonotWait, ReadOnly, Discard and pfnLockCb's retry), Unlock, GPU FILLs and
 * evictions (a 192 KiB VRAM segment, a 160 KiB hog locked now and then) over six
 * allocations and their Discard instances, against a C model of every
 * instance's bytes: each ReadOnly lock reads the model's bytes, and at the
 * end every instance, wherever it lives, holds them.
 */
static void test_kmd_lock_random(void **state)
{
	struct kbuf b, hog;
	struct lr r = { 0 };
	struct kt x;

	(void)state;
	r.seed = tb_seed(BIN);
	r.s = r.seed | 1;
	kt_open(&x, 192u << 10, 2000000);
	r.x = &x;
	r.dev = kt_dev_new(&x);
	r.fence = kt_mfence_new(&x, r.dev, 0);
	for (unsigned f = 0; f < LR_FAMS; f++) {
		b = kbuf_new(NULL, r.dev, LR_BYTES);
		r.cur[f] = b.h;
		r.in[r.nin++] = (struct lr_inst){ .h = b.h, .fam = f };
		fw_umd_begin(x.u);
		kt_fill(x.u, b.h, 0, PITCH, 2, 0); /* content is zero from here on */
		kt_run(&x, r.dev, 0, 0);
	}
	hog = kbuf_new(NULL, r.dev, 160u << 10);
	for (unsigned i = 0; i < LR_STEPS; i++) {
		unsigned f = (unsigned)(tb_rand(&r.s) % LR_FAMS);

		switch (tb_rand(&r.s) % 8) {
		case 0:
			kt_idle(&x);
			break;
		case 1: /* the others' submissions done, evictable */
			kt_idle(&x);
			assert_int_equal(kt_lock_cb(&x, r.dev, hog.h, 0, 0, NULL, NULL), GM_OK);
			assert_int_equal(kt_unlock_cb(&x, r.dev, &hog.h, 1), GM_OK);
			break;
		case 2:
		case 3:
		case 4:
			lr_fill(&r, f);
			break;
		default:
			lr_lock(&r, f);
			break;
		}
	}
	kt_idle(&x);
	for (unsigned i = 0; i < r.nin; i++) {
		struct fw_alloc *a;
		uint8_t got[LR_BYTES];

		assert_int_equal(fw_res_get_handle_data(r.dev, r.in[i].h, &a), GM_OK);
		kt_read_alloc(&x, a, got);
		LR_CHECK(&r, !memcmp(got, r.in[i].m, LR_BYTES),
			 "instance %u of family %u differs from the model", i, r.in[i].fam);
	}
	printf("lock random: %u instances, %" PRIu64 " evictions, %" PRIu64 " page-ins\n", r.nin,
	       x.k->st.evictions, x.k->st.page_ins);
	assert_int_equal(x.k->st.tdrs, 0);
	kt_close(&x);
}

/*
 * Lock never hands out window bytes a live lock
 * holds, whichever device holds it and whichever range either uses (the
 * lowest-numbered range would win the overlap and take the other's CPU
 * writes).  Windows side by side both work, and the CPU's writes through
 * each reach its own allocation only.
 */
static void test_kmd_lock_windows(void **state)
{
	const uint32_t w = 0x100000, sz = 0x2000;
	struct kt x;
	struct fw_device *A, *B;
	struct kbuf LA, LA2, LB, LB2, BIG;
	uint8_t *pa = malloc(sz), *pb = malloc(sz), *got = malloc(sz);
	struct fw_cmdbuf cb;

	(void)state;
	assert_true(pa && pb && got);
	kt_open(&x, 16ull << 20, 200000);
	A = kt_dev_new(&x);
	B = kt_dev_new(&x);
	LA = kbuf_new(&x, A, sz);
	LA2 = kbuf_new(&x, A, sz);
	LB = kbuf_new(&x, B, sz);
	LB2 = kbuf_new(&x, B, sz);
	BIG = kbuf_new(&x, B, 4 * sz);
	assert_int_equal(fw_kmd_lock(x.k, A, LA.h, 1, w), GM_OK);
	ROW(&x, "lock: another device, a lower range, the same window", GM_ERR_BAD_ARG,
	    fw_kmd_lock(x.k, B, LB.h, 0, w));
	ROW(&x, "lock: another device's window over the live one's last 8 bytes", GM_ERR_BAD_ARG,
	    fw_kmd_lock(x.k, B, LB.h, 0, w + sz - 8));
	ROW(&x, "lock: another device's window over the live one's first 8 bytes", GM_ERR_BAD_ARG,
	    fw_kmd_lock(x.k, B, LB.h, 2, w - sz + 8));
	ROW(&x, "lock: another device's window around the live one", GM_ERR_BAD_ARG,
	    fw_kmd_lock(x.k, B, BIG.h, 0, w - sz));
	ROW(&x, "lock: the same device, another allocation, inside its own window", GM_ERR_BAD_ARG,
	    fw_kmd_lock(x.k, A, LA2.h, 0, w + 8));
	/* Side by side, below and above: both work. */
	assert_int_equal(fw_kmd_lock(x.k, B, LB.h, 0, w + sz), GM_OK);
	assert_int_equal(fw_kmd_lock(x.k, B, LB2.h, 2, w - sz), GM_OK);
	kt_fill_words(pa, sz, 0xaa00000000000000ull);
	kt_fill_words(pb, sz, 0xbb00000000000000ull);
	assert_int_equal(gm_apt_write(x.t.g, w, pa, sz), GM_OK);
	assert_int_equal(gm_apt_write(x.t.g, w + sz, pb, sz), GM_OK);
	assert_int_equal(gm_apt_read(x.t.g, w, got, sz), GM_OK);
	assert_memory_equal(got, pa, sz);
	/* pfnLockCb: while the CPU holds it through a range, no DMA buffer that
	 * references it is submitted. */
	fw_umd_begin(x.u);
	kt_fill(x.u, LA.h, 0, PITCH, sz / PITCH, 0x5555555555555555ull);
	fw_umd_cmdbuf(x.u, &cb);
	ROW(&x, "submit: a buffer referencing an allocation locked through the aperture",
	    GM_ERR_BAD_ARG, fw_kmd_submit_cmdbuf(x.k, A, &cb, x.buf, NULL));
	assert_int_equal(x.k->st.submits, 0);
	assert_int_equal(fw_kmd_unlock(x.k, A, LA.h, 1), GM_OK);
	assert_int_equal(fw_kmd_unlock(x.k, B, LB.h, 0), GM_OK);
	assert_int_equal(fw_kmd_unlock(x.k, B, LB2.h, 2), GM_OK);
	kt_read_alloc(&x, LA.a, got);
	assert_memory_equal(got, pa, sz);
	kt_read_alloc(&x, LB.a, got);
	assert_memory_equal(got, pb, sz);
	kt_expect_filled(&x, LB2.a, 0, "the lock below, never written");
	/* Unlocked, the window is free again for anyone. */
	assert_int_equal(fw_kmd_lock(x.k, B, LB.h, 3, w), GM_OK);
	assert_int_equal(fw_kmd_unlock(x.k, B, LB.h, 3), GM_OK);
	/* and the buffer refused while it was locked goes now */
	assert_int_equal(fw_kmd_submit_cmdbuf(x.k, A, &cb, x.buf, NULL), GM_OK);
	kt_idle(&x);
	kt_expect_filled(&x, LA.a, 0x5555555555555555ull, "LA, filled once unlocked");
	assert_int_equal(x.k->st.tdrs, 0);
	free(pa);
	free(pb);
	free(got);
	kt_close(&x);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kmd_lock_copy),
		cmocka_unit_test(test_kmd_lock_mips),
		cmocka_unit_test(test_kmd_lock_windows),
		cmocka_unit_test(test_kmd_lock_random),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
