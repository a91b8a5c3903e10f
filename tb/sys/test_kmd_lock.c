/* SPDX-License-Identifier: MIT */
/*
 * test_kmd_lock.c - Lock and Unlock (D3DDDICB_LOCK, fw_kmd.h): the argument
 * set and its result codes, the public flag layout (test_kmd_lockflags_public),
 * synchronisation with the GPU, Discard renaming and destroying a locked
 * allocation.
 *
 * The fixture (kt.h) runs the firmware on the RTL model and reads every
 * result back from the model's memory wherever fw_alloc.loc says the bytes
 * live now.
 *
 * Tests (tb/testplan.txt maps them to the rules they check):
 *   test_kmd_lock_codes       the D3DDDICB_LOCK argument set:
 *                             every flag combination the pfnLockCb page and
 *                             the D3DDDICB_LOCKFLAGS remarks constrain, the page
 *                             list, locked-already, every range in use
 *                             (NOTAVAILABLE, CANTEVICTPINNEDALLOCATION,
 *                             DonotEvict), VRAM too small (E_OUTOFMEMORY), a
 *                             removed device, Unlock's table: exact code,
 *                             nothing changed (nor hAllocation and pData);
 *                             eight driver-picked ranges, windows disjoint.
 *   test_kmd_lock_sync        DonotWait -> WASSTILLDRAWING,
 *                             DonotWait|IgnoreSync does not wait, IgnoreSync
 *                             alone waits, IgnoreReadSync
 *                             waits for writers only, Discard|DonotWait
 *                             renames instead (a shared allocation waits);
 *                             pData through a range,
 *                             raw and with a page list reaches the right
 *                             bytes; a range-locked allocation's DMA buffer
 *                             is refused.
 *   test_kmd_lock_discard     Discard renaming: a busy allocation
 *                             gets a new instance without a wait; A0 after a
 *                             submitted A1, or a patch list out of instance
 *                             order, refused; FW_LOCK_MAX_INSTANCES then
 *                             E_OUTOFMEMORY; flush and Discard|
 *                             NoExistingReference reuses an idle instance;
 *                             every instance's bytes right; destroy frees them.
 *   test_kmd_destroy_locked   destroying a locked allocation's
 *                             resource unlocks it: the range unmapped
 *                             (VALID 0, the window plain VRAM again) and free,
 *                             the next allocation in the same VRAM not reached
 *                             through the old window, the range locked again,
 *                             the device closed cleanly (SAN); a shared
 *                             allocation keeps its other opener and loses the
 *                             destroying device's lock and pin only.
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

#define BIN "build/tests/test_kmd_lock"

/* ------------------------------------------------------------ Lock (D3DDDICB_LOCK) */

/* A lock argument set other than the flags: @field 1 PrivateDriverData,
 * 2 GpuVirtualAddress. */
static int lock_field(struct kt *x, struct fw_device *dev, uint32_t h, int field)
{
	struct fw_lock_args a = { .hAllocation = h, .pData = PDATA_UNSET };

	if (field == 1)
		a.PrivateDriverData = 1;
	else
		a.GpuVirtualAddress = 0x10000;
	return fw_kmd_lock_cb(x->k, dev, &a);
}

/* A Discard lock (raw unless @flags say otherwise) of @h: the handle it
 * gives back in *@out. */
static int lock_discard(struct kt *x, struct fw_device *dev, uint32_t h, uint32_t flags,
			uint32_t *out)
{
	struct fw_lock_args a = { .hAllocation = h, .Flags = flags | FW_LOCK_DISCARD };
	int st = fw_kmd_lock_cb(x->k, dev, &a);

	if (st && a.hAllocation != h)
		fail_msg("refused Discard lock (%s) wrote hAllocation", gm_status_name(st));
	*out = a.hAllocation;
	return st;
}

/* An X-tiled 64 KiB surface (4 KiB tiles of 512 B x 8 rows). */
static struct kbuf kbuf_tiled(struct kt *x, struct fw_device *dev)
{
	struct fw_alloc_desc d = { .size = 0x10000, .width = 1024, .height = 16, .pitch = PITCH,
				   .bpe_log2 = 2, .tile = GPU_TILE_X };

	return kbuf_desc(x, dev, &d, false);
}

/* A row of Lock's table: lock handle @who of the test's with these
 * arguments; exactly @want, nothing changed. */
struct lock_row {
	const char *what;
	int want;
	enum { LR_L, LR_T, LR_P4, LR_PIN } who; /* linear, X-tiled, pitch 4, pinned */
	uint32_t flags, np;
	const uint32_t *pages;
};

static const uint32_t page3 = 3, page16 = 16;

/* The flag rules (pfnLockCb in d3dumddi.h, the D3DDDICB_LOCKFLAGS remarks in
 * d3dukmdt.h), the page list, the aperture's pitch: every range free, nothing
 * locked. */
static const struct lock_row flag_rows[] = {
	{ "ReadOnly with WriteOnly", GM_ERR_BAD_ARG, LR_L, LK_RO | LK_WO, 0, NULL },
	{ "ReadOnly with WriteOnly and a range", GM_ERR_BAD_ARG, LR_L, LK_RO | LK_WO | LK_AA, 0, NULL },
	{ "IgnoreSync with AcquireAperture", GM_ERR_BAD_ARG, LR_L, LK_IS | LK_AA, 0, NULL },
	{ "IgnoreSync with AcquireAperture and Discard", GM_ERR_BAD_ARG, LR_L,
	  LK_IS | LK_AA | LK_DI, 0, NULL },
	{ "IgnoreSync on a swizzled allocation", GM_ERR_BAD_ARG, LR_T, LK_NW | LK_IS, 0, NULL },
	{ "UseAlternateVA without AcquireAperture", GM_ERR_BAD_ARG, LR_L, LK_VA, 0, NULL },
	{ "DonotWait acquiring a range (no-overwrite)", GM_ERR_BAD_ARG, LR_T, LK_NW | LK_AA, 0, NULL },
	{ "LockEntire with a page list", GM_ERR_BAD_ARG, LR_L, LK_LE, 1, &page3 },
	{ "NumPages without pPages", GM_ERR_BAD_ARG, LR_L, 0, 1, NULL },
	{ "pPages without NumPages", GM_ERR_BAD_ARG, LR_L, 0, 0, &page3 },
	{ "a page past the allocation", GM_ERR_BAD_ARG, LR_L, LK_AA, 1, &page16 },
	{ "a pitch the aperture cannot show", GM_ERR_NOT_AVAILABLE, LR_P4, LK_AA, 0, NULL },
};

/* Every range in use: no copy fallback without LockEntire or a page list,
 * nor with DonotEvict, nor for a pinned allocation (test_kmd_lock_copy has
 * the fallback itself). */
static const struct lock_row full_rows[] = {
	{ "every range in use, neither LockEntire nor a page list", GM_ERR_NOT_AVAILABLE, LR_T,
	  LK_AA, 0, NULL },
	{ "every range in use, DonotEvict", GM_ERR_NOT_AVAILABLE, LR_T, LK_AA | LK_NE, 0, NULL },
	{ "every range in use, LockEntire, DonotEvict", GM_ERR_NOT_AVAILABLE, LR_T,
	  LK_AA | LK_LE | LK_NE, 0, NULL },
	{ "every range in use, a page list, DonotEvict", GM_ERR_NOT_AVAILABLE, LR_T, LK_AA | LK_NE,
	  1, &page3 },
	{ "every range in use, pinned", GM_ERR_PINNED, LR_PIN, LK_AA, 0, NULL },
	{ "every range in use, pinned, LockEntire", GM_ERR_PINNED, LR_PIN, LK_AA | LK_LE, 0, NULL },
	{ "every range in use, pinned, DonotEvict", GM_ERR_NOT_AVAILABLE, LR_PIN, LK_AA | LK_NE, 0,
	  NULL },
};

static void lock_rows(struct kt *x, struct fw_device *dev, const uint32_t *hs,
		      const struct lock_row *t, size_t n)
{
	for (size_t i = 0; i < n; i++)
		ROW(x, t[i].what, t[i].want,
		    kt_lock_cb(x, dev, hs[t[i].who], t[i].flags, t[i].np, t[i].pages, NULL));
}

/*
 * pfnLockCb (d3dumddi.h): the D3DDDICB_LOCK argument set and the result
 * codes.  Every flag combination the pfnLockCb page and the public
 * D3DDDICB_LOCKFLAGS remarks constrain gives its exact code and changes
 * nothing (ROW's snapshot, and the caller's hAllocation and pData); the
 * aperture ranges are the driver's: eight locks get eight ranges with
 * disjoint windows, the ninth gets NOTAVAILABLE (a pinned allocation
 * CANTEVICTPINNEDALLOCATION, unless DonotEvict); an allocation VRAM cannot
 * take E_OUTOFMEMORY; a removed device DEVICEREMOVED.  Unlock's table too.
 */
static void test_kmd_lock_codes(void **state)
{
	struct fw_alloc_desc d;
	struct fw_device *A, *B, *C;
	struct kbuf L, T, P4, PIN, BIG1, BIG2, BX, CX, R[GPU_APT_RANGES];
	uint64_t pd, win[GPU_APT_RANGES];
	uint32_t h2[2], hs[4];
	struct kt x;

	(void)state;
	kt_open(&x, 8ull << 20, 200000);
	A = kt_dev_new(&x);
	B = kt_dev_new(&x);
	C = kt_dev_new(&x);
	L = kbuf_new(&x, A, 0x10000);
	T = kbuf_tiled(&x, A);
	d = (struct fw_alloc_desc){ .size = 4096, .width = 1, .height = 1024, .pitch = 4,
				    .bpe_log2 = 2, .tile = GPU_TILE_LINEAR };
	P4 = kbuf_desc(&x, A, &d, false);
	d = kt_buf_desc(0x10000);
	d.pinned = true;
	PIN = kbuf_desc(&x, A, &d, false);
	BIG1 = kbuf_new(&x, A, 5ull << 20);
	BIG2 = kbuf_new(&x, A, 5ull << 20);
	BX = kbuf_new(&x, B, 0x10000);
	CX = kbuf_new(&x, C, 0x10000);
	for (unsigned r = 0; r < GPU_APT_RANGES; r++)
		R[r] = kbuf_new(&x, A, 0x10000);
	hs[LR_L] = L.h;
	hs[LR_T] = T.h;
	hs[LR_P4] = P4.h;
	hs[LR_PIN] = PIN.h;

	ROW(&x, "lock: NULL arguments", GM_ERR_BAD_ARG, fw_kmd_lock_cb(x.k, A, NULL));
	ROW(&x, "lock: NULL pipeline", GM_ERR_BAD_ARG,
	    fw_kmd_lock_cb(NULL, A, &(struct fw_lock_args){ .hAllocation = L.h }));
	ROW(&x, "lock: NULL device", GM_ERR_BAD_ARG, kt_lock_cb(&x, NULL, L.h, 0, 0, NULL, NULL));
	ROW(&x, "lock: handle 0", GM_ERR_BAD_ARG, kt_lock_cb(&x, A, 0, 0, 0, NULL, NULL));
	ROW(&x, "lock: another device's handle", GM_ERR_BAD_ARG,
	    kt_lock_cb(&x, A, BX.h, 0, 0, NULL, NULL));
	ROW(&x, "lock: a Reserved flag bit (11)", GM_ERR_BAD_ARG,
	    kt_lock_cb(&x, A, L.h, 1u << 11, 0, NULL, NULL));
	ROW(&x, "lock: a Reserved flag bit (31)", GM_ERR_BAD_ARG,
	    kt_lock_cb(&x, A, L.h, 1u << 31, 0, NULL, NULL));
	ROW(&x, "lock: PrivateDriverData (a MIP level) without MIP levels", GM_ERR_BAD_ARG,
	    lock_field(&x, A, L.h, 1));
	ROW(&x, "lock: GpuVirtualAddress (reserved) nonzero", GM_ERR_BAD_ARG,
	    lock_field(&x, A, L.h, 2));
	lock_rows(&x, A, hs, flag_rows, sizeof(flag_rows) / sizeof(flag_rows[0]));

	/* Already locked: raw then raw, raw then swizzled (pfnLockCb: not both). */
	assert_int_equal(kt_lock_cb(&x, A, L.h, LK_LE, 0, NULL, &pd), GM_OK);
	assert_int_equal(pd, L.a->loc.addr);
	ROW(&x, "lock: locked already (raw)", GM_ERR_BAD_ARG,
	    kt_lock_cb(&x, A, L.h, 0, 0, NULL, NULL));
	ROW(&x, "lock: a range for an allocation locked raw", GM_ERR_BAD_ARG,
	    kt_lock_cb(&x, A, L.h, LK_AA, 0, NULL, NULL));
	ROW(&x, "lock: a fixed window over a raw lock's VRAM", GM_ERR_BAD_ARG,
	    fw_kmd_lock(x.k, A, R[0].h, 0, (uint32_t)L.a->loc.addr));

	/* The driver's ranges: eight, windows disjoint, then none. */
	for (unsigned r = 0; r < GPU_APT_RANGES; r++) {
		assert_int_equal(kt_lock_cb(&x, A, R[r].h, LK_AA, 0, NULL, &win[r]), GM_OK);
		assert_true(win[r] + 0x10000 <= GPU_APT_WINDOW_BYTES);
		assert_false(win[r] < L.a->loc.addr + 0x10000 && L.a->loc.addr < win[r] + 0x10000);
		for (unsigned q = 0; q < r; q++)
			assert_true(win[q] + 0x10000 <= win[r] || win[r] + 0x10000 <= win[q]);
	}
	lock_rows(&x, A, hs, full_rows, sizeof(full_rows) / sizeof(full_rows[0]));
	for (unsigned r = 0; r < GPU_APT_RANGES; r++)
		assert_int_equal(kt_unlock_cb(&x, A, &R[r].h, 1), GM_OK);
	/* A raw lock hands out plain VRAM: not where a range's window shows
	 * another surface. */
	assert_int_equal(kt_lock_cb(&x, A, T.h, 0, 0, NULL, NULL), GM_OK);
	assert_int_equal(kt_unlock_cb(&x, A, &T.h, 1), GM_OK);
	assert_int_equal(fw_kmd_lock(x.k, A, R[0].h, 0, (uint32_t)T.a->loc.addr), GM_OK);
	ROW(&x, "lock: raw, its VRAM under a live range's window", GM_ERR_NOT_AVAILABLE,
	    kt_lock_cb(&x, A, T.h, 0, 0, NULL, NULL));
	assert_int_equal(fw_kmd_unlock(x.k, A, R[0].h, 0), GM_OK);

	/* E_OUTOFMEMORY: BIG1 locked in VRAM leaves no room for BIG2. */
	assert_int_equal(kt_lock_cb(&x, A, BIG1.h, 0, 0, NULL, NULL), GM_OK);
	ROW(&x, "lock: VRAM cannot take it", GM_ERR_NO_MEM,
	    kt_lock_cb(&x, A, BIG2.h, LK_AA, 0, NULL, NULL));

	/* Unlock's table. */
	h2[0] = L.h;
	h2[1] = L.h;
	ROW(&x, "unlock: NULL arguments", GM_ERR_BAD_ARG, fw_kmd_unlock_cb(x.k, A, NULL));
	ROW(&x, "unlock: NumAllocations 0", GM_ERR_BAD_ARG, kt_unlock_cb(&x, A, h2, 0));
	ROW(&x, "unlock: phAllocations NULL", GM_ERR_BAD_ARG, kt_unlock_cb(&x, A, NULL, 1));
	ROW(&x, "unlock: an allocation not locked", GM_ERR_BAD_ARG, kt_unlock_cb(&x, A, &T.h, 1));
	ROW(&x, "unlock: another device's handle", GM_ERR_BAD_ARG, kt_unlock_cb(&x, B, &L.h, 1));
	ROW(&x, "unlock: one handle twice", GM_ERR_BAD_ARG, kt_unlock_cb(&x, A, h2, 2));
	h2[1] = T.h;
	ROW(&x, "unlock: the second not locked (the first stays)", GM_ERR_BAD_ARG,
	    kt_unlock_cb(&x, A, h2, 2));
	h2[1] = BIG1.h;
	assert_int_equal(kt_unlock_cb(&x, A, h2, 2), GM_OK);
	assert_false(L.a->pinned || BIG1.a->pinned);

	/* D3DDDIERR_DEVICEREMOVED, before any other argument is looked at. */
	assert_int_equal(kt_lock_cb(&x, C, CX.h, 0, 0, NULL, NULL), GM_OK);
	assert_int_equal(fw_device_mark_removed(C), GM_OK);
	ROW(&x, "lock: removed device", GM_ERR_DEVICE_REMOVED,
	    kt_lock_cb(&x, C, CX.h, LK_RO | LK_WO, 0, NULL, NULL));
	ROW(&x, "unlock: removed device", GM_ERR_DEVICE_REMOVED, kt_unlock_cb(&x, C, &CX.h, 1));
	printf("lock result codes: %u rows\n", x.rows);
	kt_close(&x);
}

/*
 * pfnLockCb's synchronisation rules.  A 1 MiB FILL
 * submitted and not retired: DonotWait gives WASSTILLDRAWING and changes
 * nothing; DonotWait|IgnoreSync locks at once (the FILL still pending);
 * IgnoreSync alone is ignored (the lock waits: nothing pending after, the
 * FILL's bytes there); Discard overrides DonotWait (it waits too); with
 * IgnoreReadSync a submission that only reads the allocation is not waited
 * for, one that writes it is.  Then the CPU's view: what a lock through a
 * driver range writes linearly, a raw lock reads back at pData = the
 * allocation's VRAM address; a page list's pData is page pPages[0]; a DMA
 * buffer referencing an allocation locked through a range is refused.
 */
static void test_kmd_lock_sync(void **state)
{
	uint8_t img[64], got[64];
	struct fw_cmdbuf cb;
	struct fw_alloc_desc d;
	struct fw_device *A;
	struct kbuf BIG, D, SH;
	uint64_t pd, w;
	struct kt x;
	uint32_t f, h;

	(void)state;
	kt_open(&x, 16ull << 20, 2000000);
	A = kt_dev_new(&x);
	f = kt_mfence_new(&x, A, 0);
	BIG = kbuf_new(&x, A, 1ull << 20);
	D = kbuf_new(&x, A, 0x10000);
	fw_umd_begin(x.u);
	kt_fill(x.u, D.h, 0, PITCH, 16, 0);
	kt_run(&x, A, f, 1);
	kt_idle(&x);

	fw_umd_begin(x.u);
	kt_fill(x.u, BIG.h, 0, PITCH, 256, 0x1111111111111111ull);
	kt_run(&x, A, f, 2);
	assert_true(fw_sched_references(x.k, BIG.a, false));
	ROW(&x, "DonotWait, the GPU writing it", GM_ERR_STILL_DRAWING,
	    kt_lock_cb(&x, A, BIG.h, LK_NW, 0, NULL, NULL));
	ROW(&x, "DonotWait|ReadOnly|IgnoreReadSync, the GPU writing it", GM_ERR_STILL_DRAWING,
	    kt_lock_cb(&x, A, BIG.h, LK_NW | LK_RO | FW_LOCK_IGNOREREADSYNC, 0, NULL, NULL));
	assert_int_equal(kt_lock_cb(&x, A, BIG.h, LK_NW | LK_IS, 0, NULL, NULL), GM_OK);
	assert_true(fw_sched_references(x.k, BIG.a, false)); /* no wait */
	assert_int_equal(kt_unlock_cb(&x, A, &BIG.h, 1), GM_OK);
	assert_int_equal(kt_lock_cb(&x, A, BIG.h, LK_IS, 0, NULL, NULL), GM_OK);
	assert_false(fw_sched_references(x.k, BIG.a, false)); /* waited */
	kt_expect_filled(&x, BIG.a, 0x1111111111111111ull, "locked with IgnoreSync alone");
	assert_int_equal(kt_unlock_cb(&x, A, &BIG.h, 1), GM_OK);

	fw_umd_begin(x.u);
	kt_fill(x.u, BIG.h, 0, PITCH, 256, 0x2222222222222222ull);
	kt_run(&x, A, f, 3);
	assert_true(fw_sched_references(x.k, BIG.a, false));
	/* Discard overrides DonotWait: no WASSTILLDRAWING, another instance. */
	assert_int_equal(lock_discard(&x, A, BIG.h, LK_NW | LK_DI | LK_AA, &h), GM_OK);
	assert_int_not_equal(h, BIG.h);
	assert_true(fw_sched_references(x.k, BIG.a, false));
	assert_int_equal(kt_unlock_cb(&x, A, &h, 1), GM_OK);
	kt_idle(&x);
	kt_expect_filled(&x, BIG.a, 0x2222222222222222ull, "the instance the GPU wrote");

	/* A COPY reads BIG and writes D. */
	fw_umd_begin(x.u);
	kt_fill(x.u, BIG.h, 0, PITCH, 256, 0x3333333333333333ull);
	assert_int_equal(fw_umd_copy(x.u, D.h, 0, BIG.h, 0, 0x10000), GM_OK);
	kt_run(&x, A, f, 4);
	kt_idle(&x);
	fw_umd_begin(x.u);
	assert_int_equal(fw_umd_copy(x.u, D.h, 0, BIG.h, 0, 0x10000), GM_OK);
	kt_run(&x, A, f, 5);
	assert_true(fw_sched_references(x.k, BIG.a, false));
	ROW(&x, "DonotWait, the GPU reading it", GM_ERR_STILL_DRAWING,
	    kt_lock_cb(&x, A, BIG.h, LK_NW | LK_RO, 0, NULL, NULL));
	assert_int_equal(kt_lock_cb(&x, A, BIG.h, LK_NW | LK_RO | FW_LOCK_IGNOREREADSYNC, 0, NULL,
				 NULL), GM_OK);
	assert_true(fw_sched_references(x.k, BIG.a, false)); /* no wait for a reader */
	ROW(&x, "DonotWait|IgnoreReadSync, the GPU writing it", GM_ERR_STILL_DRAWING,
	    kt_lock_cb(&x, A, D.h, LK_NW | FW_LOCK_IGNOREREADSYNC, 0, NULL, NULL));
	assert_int_equal(kt_unlock_cb(&x, A, &BIG.h, 1), GM_OK);
	kt_idle(&x);
	kt_expect_filled(&x, D.a, 0x3333333333333333ull, "the COPY's destination");

	/* The CPU's view through a driver range and raw. */
	kt_fill_words(img, sizeof(img), 0x5eed000000000000ull);
	assert_int_equal(kt_lock_cb(&x, A, D.h, LK_AA | LK_WO, 0, NULL, &w), GM_OK);
	assert_true(w + D.a->d.size <= GPU_APT_WINDOW_BYTES);
	assert_int_equal(gm_apt_write(x.t.g, (uint32_t)w + 0x2000, img, sizeof(img)), GM_OK);
	fw_umd_begin(x.u);
	kt_fill(x.u, D.h, 0, PITCH, 1, 0);
	fw_umd_cmdbuf(x.u, &cb);
	ROW(&x, "submit: a DMA buffer writing an allocation locked through a range",
	    GM_ERR_BAD_ARG, fw_kmd_submit_cmdbuf(x.k, A, &cb, x.buf, NULL));
	assert_int_equal(kt_unlock_cb(&x, A, &D.h, 1), GM_OK);
	assert_int_equal(kt_lock_cb(&x, A, D.h, LK_RO, 0, NULL, &pd), GM_OK);
	assert_int_equal(pd, D.a->loc.addr);
	assert_true(pd < GPU_APT_WINDOW_BYTES);
	assert_int_equal(gm_apt_read(x.t.g, (uint32_t)pd + 0x2000, got, sizeof(got)), GM_OK);
	assert_memory_equal(got, img, sizeof(img));
	assert_int_equal(kt_unlock_cb(&x, A, &D.h, 1), GM_OK);
	assert_int_equal(kt_lock_cb(&x, A, D.h, LK_AA, 1, &page3, &pd), GM_OK);
	assert_int_equal(pd, x.k->lk->apt[0].win + 3 * FW_LOCK_PAGE_BYTES);
	assert_int_equal(gm_apt_write(x.t.g, (uint32_t)pd, img, 8), GM_OK);
	assert_int_equal(kt_unlock_cb(&x, A, &D.h, 1), GM_OK);
	assert_int_equal(gm_backdoor_read(x.t.g, D.a->loc.addr + 3 * FW_LOCK_PAGE_BYTES, got, 8),
			 GM_OK);
	assert_memory_equal(got, img, 8);

	/* A shared allocation is not renamed: Discard|DonotWait waits. */
	d = kt_buf_desc(1ull << 20);
	SH = kbuf_desc(&x, A, &d, true);
	fw_umd_begin(x.u);
	kt_fill(x.u, SH.h, 0, PITCH, 256, 0x6666666666666666ull);
	kt_run(&x, A, f, 6);
	assert_true(fw_sched_references(x.k, SH.a, false));
	assert_int_equal(lock_discard(&x, A, SH.h, LK_NW, &h), GM_OK);
	assert_int_equal(h, SH.h);
	assert_false(fw_sched_references(x.k, SH.a, false));
	kt_expect_filled(&x, SH.a, 0x6666666666666666ull,
			 "a shared allocation locked with Discard");
	assert_int_equal(kt_unlock_cb(&x, A, &h, 1), GM_OK);
	assert_int_equal(x.k->st.tdrs, 0);
	kt_close(&x);
}

/* FILL all of a 1 MiB buffer @h with @v, then wait until dword 0 of @sem is
 * 1 (sem_set), and submit it, signalling @f = @val: busy until the CPU says. */
static void busy_fill(struct kt *x, struct fw_device *dev, uint32_t h, uint64_t v,
		      const struct kbuf *sem, uint32_t f, uint64_t val)
{
	fw_umd_begin(x->u);
	kt_fill(x->u, h, 0, PITCH, 256, v);
	assert_int_equal(fw_umd_wait_eq(x->u, sem->h, 0, 1), GM_OK);
	kt_run(x, dev, f, val);
}

static void sem_set(struct kt *x, const struct kbuf *sem, uint32_t v)
{
	assert_int_equal(sem->a->loc.seg_id, FW_KMD_SEG_VRAM);
	assert_int_equal(gm_backdoor_write32(x->t.g, sem->a->loc.addr, v), GM_OK);
}

/* Render @h1 then @h2 (FILLs of one row) and submit it, without a signal. */
static int submit_pair(struct kt *x, struct fw_device *dev, uint32_t h1, uint32_t h2)
{
	struct fw_cmdbuf cb;

	fw_umd_begin(x->u);
	kt_fill(x->u, h1, 0, PITCH, 1, 0x5151515151515151ull);
	kt_fill(x->u, h2, 0, PITCH, 1, 0x5252525252525252ull);
	fw_umd_cmdbuf(x->u, &cb);
	return fw_kmd_submit_cmdbuf(x->k, dev, &cb, x->buf, NULL);
}

static size_t adapter_allocs(struct kt *x)
{
	struct fw_adapter_stats as;

	assert_int_equal(fw_adapter_get_stats(&x->k->ad, &as), GM_OK);
	return as.nallocs;
}

/*
 * pfnLockCb's Discard renaming.  A Discard lock of an
 * allocation the GPU still writes does not wait: it hands back a new
 * instance (new handle, other memory, same family).  Once a submitted DMA
 * buffer used instance A1, a buffer referencing A0 is refused, and a patch
 * list using A2 before A1 too (nothing changed); in order it runs.  Without
 * NoExistingReference at most FW_LOCK_MAX_INSTANCES instances are made, then
 * E_OUTOFMEMORY; pfnLockCb's retry with Discard|NoExistingReference after a
 * flush reuses an idle instance (no new allocation), which is then the
 * newest.  Every instance holds what the GPU wrote into it; destroying the
 * resource frees them all.
 */
static void test_kmd_lock_discard(void **state)
{
	uint32_t h[FW_LOCK_MAX_INSTANCES + 1], g, f;
	struct fw_alloc *in[FW_LOCK_MAX_INSTANCES + 1], *r;
	const unsigned last = FW_LOCK_MAX_INSTANCES;
	struct fw_device *A;
	struct kbuf BIG, SEM, HUGE;
	size_t nall;
	struct kt x;

	(void)state;
	kt_open(&x, 32ull << 20, 2000000);
	A = kt_dev_new(&x);
	f = kt_mfence_new(&x, A, 0);
	BIG = kbuf_new(&x, A, 1ull << 20);
	SEM = kbuf_new(&x, A, PITCH);
	h[0] = BIG.h;
	in[0] = BIG.a;
	fw_umd_begin(x.u);
	kt_fill(x.u, SEM.h, 0, PITCH, 1, 0);
	kt_run(&x, A, 0, 0);
	kt_idle(&x);
	busy_fill(&x, A, h[0], 0x1010101010101010ull, &SEM, f, 1);
	nall = adapter_allocs(&x);
	for (unsigned i = 1; i <= last; i++) {
		assert_int_equal(lock_discard(&x, A, h[i - 1], LK_LE, &h[i]), GM_OK);
		assert_int_equal(fw_res_get_handle_data(A, h[i], &in[i]), GM_OK);
		assert_true(in[i] != in[i - 1] && fw_alloc_family(in[i]) == BIG.a);
		assert_true(fw_sched_references(x.k, in[i - 1], false)); /* no wait */
		assert_int_equal(adapter_allocs(&x), nall + i);
		assert_int_equal(kt_unlock_cb(&x, A, &h[i], 1), GM_OK);
		busy_fill(&x, A, h[i], 0x1010101010101010ull * (i + 1), &SEM, f, i + 1);
		if (i == 2) {
			assert_int_equal(lock_discard(&x, A, h[2], LK_LE, &g), GM_OK);
			assert_int_equal(kt_unlock_cb(&x, A, &g, 1), GM_OK);
			ROW(&x, "submit: instance A1 after A2 was submitted", GM_ERR_BAD_ARG,
			    submit_pair(&x, A, h[1], h[1]));
			ROW(&x, "submit: a patch list using A3 before A2", GM_ERR_BAD_ARG,
			    submit_pair(&x, A, g, h[2]));
			assert_int_equal(submit_pair(&x, A, h[2], g), GM_OK);
			h[3] = g;
			assert_int_equal(fw_res_get_handle_data(A, h[3], &in[3]), GM_OK);
			busy_fill(&x, A, h[3], 0x1010101010101010ull * 4, &SEM, f, 4);
			i = 3;
		}
	}
	ROW(&x, "lock: Discard, every instance made", GM_ERR_NO_MEM,
	    lock_discard(&x, A, h[last], 0, &g));
	/* pfnLockCb's retry: flush, then Discard|NoExistingReference. */
	sem_set(&x, &SEM, 1);
	kt_idle(&x);
	sem_set(&x, &SEM, 0);
	busy_fill(&x, A, h[last], 0x7777777777777777ull, &SEM, f, last + 2);
	ROW(&x, "lock: Discard after the flush, still no NoExistingReference", GM_ERR_NO_MEM,
	    lock_discard(&x, A, h[last], 0, &g));
	assert_int_equal(lock_discard(&x, A, h[last], LK_NX, &g), GM_OK);
	assert_int_equal(g, h[0]); /* the oldest idle instance, reused */
	assert_int_equal(adapter_allocs(&x), nall + last);
	assert_int_equal(kt_unlock_cb(&x, A, &g, 1), GM_OK);
	busy_fill(&x, A, h[0], 0x2020202020202020ull, &SEM, f, last + 3);
	ROW(&x, "submit: A4 after the reused A0 was submitted", GM_ERR_BAD_ARG,
	    submit_pair(&x, A, h[last], h[last]));
	sem_set(&x, &SEM, 1);
	kt_idle(&x);
	/* Instances are evicted like any allocation: a 28 MiB lock needs it. */
	HUGE = kbuf_new(&x, A, 28ull << 20);
	assert_int_equal(kt_lock_cb(&x, A, HUGE.h, 0, 0, NULL, NULL), GM_OK);
	assert_int_equal(kt_unlock_cb(&x, A, &HUGE.h, 1), GM_OK);
	assert_true(in[1]->loc.seg_id == FW_KMD_SEG_SYS);
	kt_expect_filled(&x, in[0], 0x2020202020202020ull, "reused instance A0");
	for (unsigned i = 1; i < last; i++)
		if (i != 2) /* row 0 of A2 holds submit_pair's FILL */
			kt_expect_filled(&x, in[i], 0x1010101010101010ull * (i + 1), "an instance");
	kt_expect_filled(&x, in[last], 0x7777777777777777ull, "the last instance");
	assert_int_equal(fw_res_destroy(BIG.res), GM_OK);
	x.ntrack = 0;
	assert_int_equal(adapter_allocs(&x), nall);
	assert_int_equal(fw_res_get_handle_data(A, h[1], &r), GM_ERR_BAD_ARG);
	assert_int_equal(x.k->st.tdrs, 0);
	kt_close(&x);
}

/* ------------------------------------------------------------ destroy locked */

/*
 * The driver's own contract (fw_lock.h): destroying a resource whose allocation is locked
 * unlocks it (the lock ends with the handle it was made through): the
 * range is unmapped (APT_CTRL.VALID = 0: the window bytes read VRAM
 * linearly again, not the freed surface), free for another lock, and no
 * record points at the freed allocation.  The next allocation placed in
 * the same VRAM is not reached through the old window; the range locks
 * again; closing the device afterwards is clean (run it under SAN=1).  A
 * shared allocation survives its other opener: only the destroying
 * device's lock goes, with its pin.
 */
static void test_kmd_destroy_locked(void **state)
{
	const uint32_t w = 0x300000, w2 = 0x400000, sz = 0x10000;
	struct kt x;
	struct fw_device *A, *B;
	struct kbuf L, N, S;
	struct fw_resource *rb;
	struct fw_alloc_desc d = kt_buf_desc(sz);
	uint8_t *img = malloc(sz), *got = malloc(sz);
	uint32_t share, sh_b;
	uint64_t old;

	(void)state;
	assert_true(img && got);
	kt_open(&x, 16ull << 20, 200000);
	A = kt_dev_new(&x);
	B = kt_dev_new(&x);
	L = kbuf_new(NULL, A, sz); /* freed below: no snapshot may read it */
	assert_int_equal(fw_kmd_lock(x.k, A, L.h, 5, w), GM_OK);
	kt_fill_words(img, sz, 0x1100000000000000ull);
	assert_int_equal(gm_apt_write(x.t.g, w, img, 64), GM_OK);
	old = L.a->loc.addr;
	assert_int_equal(fw_res_destroy(L.res), GM_OK);
	assert_null(kt_locked_alloc(&x, 5));
	assert_int_equal(GPU_APT_CTRL_VALID_GET(tb_rd(&x.t, GPU_REG_APT_CTRL(5))), 0);

	/* N takes L's VRAM; writes through L's old window do not reach it. */
	N = kbuf_new(&x, A, sz);
	fw_umd_begin(x.u);
	kt_fill(x.u, N.h, 0, PITCH, sz / PITCH, 0x5a5a5a5a5a5a5a5aull);
	kt_run(&x, A, 0, 0);
	kt_idle(&x);
	if (N.a->loc.addr != old)
		fail_msg("N placed at 0x%" PRIx64 ", not in L's freed 0x%" PRIx64, N.a->loc.addr,
			 old);
	kt_fill_words(img, sz, 0x2200000000000000ull);
	assert_int_equal(gm_apt_write(x.t.g, w, img, 256), GM_OK);
	kt_expect_filled(&x, N.a, 0x5a5a5a5a5a5a5a5aull, "N after writes through L's old window");
	/* The window there is plain VRAM, linearly. */
	assert_int_equal(gm_backdoor_read(x.t.g, GPU_VRAM_BASE + w, got, 256), GM_OK);
	assert_memory_equal(got, img, 256);

	/* The range locks again, on N, and shows N. */
	assert_int_equal(fw_kmd_lock(x.k, A, N.h, 5, w), GM_OK);
	assert_int_equal(gm_apt_read(x.t.g, w, got, 256), GM_OK);
	assert_true(kt_all_bytes(got, 256, 0x5a5a5a5a5a5a5a5aull));

	/* A shared allocation: A's destroy ends A's lock only; B still has it. */
	S = kbuf_desc(&x, A, &d, true);
	assert_int_equal(fw_res_share_handle(S.res, &share), GM_OK);
	assert_int_equal(fw_res_open(B, share, &rb), GM_OK);
	assert_int_equal(fw_res_surface_handle(rb, 0, &sh_b), GM_OK);
	assert_int_equal(fw_kmd_lock(x.k, A, S.h, 6, w2), GM_OK);
	assert_true(S.a->pinned);
	assert_int_equal(fw_res_destroy(S.res), GM_OK);
	assert_null(kt_locked_alloc(&x, 6));
	assert_false(S.a->pinned);
	assert_int_equal(GPU_APT_CTRL_VALID_GET(tb_rd(&x.t, GPU_REG_APT_CTRL(6))), 0);
	assert_int_equal(fw_kmd_lock(x.k, B, sh_b, 6, w2), GM_OK);
	assert_int_equal(fw_kmd_unlock(x.k, B, sh_b, 6), GM_OK);

	/* Closing A with N still locked: its lock goes with it. */
	assert_int_equal(fw_kmd_device_destroy(x.k, A, BUDGET), GM_OK);
	assert_null(kt_locked_alloc(&x, 5));
	assert_int_equal(GPU_APT_CTRL_VALID_GET(tb_rd(&x.t, GPU_REG_APT_CTRL(5))), 0);
	x.ntrack = 0; /* A's allocations are gone */
	assert_int_equal(fw_kmd_device_destroy(x.k, B, BUDGET), GM_OK);
	free(img);
	free(got);
	kt_close(&x);
}

/*
 * The Lock flags as the public header lays them out (d3dukmdt.h,
 * D3DDDICB_LOCKFLAGS: ReadOnly : 1, WriteOnly : 1, DonotWait : 1,
 * IgnoreSync : 1, LockEntire : 1, DonotEvict : 1, AcquireAperture : 1,
 * Discard : 1, NoExistingReference : 1, UseAlternateVA : 1,
 * IgnoreReadSync : 1, Reserved : 21), so a Value taken from a runtime means
 * the same here.
 */
static void test_kmd_lockflags_public(void **state)
{
	(void)state;
	assert_int_equal(FW_LOCK_READONLY, 0x001);
	assert_int_equal(FW_LOCK_WRITEONLY, 0x002);
	assert_int_equal(FW_LOCK_DONOTWAIT, 0x004);
	assert_int_equal(FW_LOCK_IGNORESYNC, 0x008);
	assert_int_equal(FW_LOCK_LOCKENTIRE, 0x010);
	assert_int_equal(FW_LOCK_DONOTEVICT, 0x020);
	assert_int_equal(FW_LOCK_ACQUIREAPERTURE, 0x040);
	assert_int_equal(FW_LOCK_DISCARD, 0x080);
	assert_int_equal(FW_LOCK_NOEXISTINGREFERENCE, 0x100);
	assert_int_equal(FW_LOCK_USEALTERNATEVA, 0x200);
	assert_int_equal(FW_LOCK_IGNOREREADSYNC, 0x400);
	assert_int_equal(FW_LOCK_RESERVED, 0xfffff800u);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kmd_lockflags_public),
		cmocka_unit_test(test_kmd_lock_codes),
		cmocka_unit_test(test_kmd_lock_sync),
		cmocka_unit_test(test_kmd_lock_discard),
		cmocka_unit_test(test_kmd_destroy_locked),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
