/* SPDX-License-Identifier: MIT */
/*
 * test_kmd.c - the submission pipeline (fw_kmd.h) end to end on the RTL
 * model: the firmware validates and copies command buffers into DMA
 * buffers, the paging queue moves allocations, the patched buffers run on
 * the render queue, and every result is read back from the model's memory
 * wherever fw_alloc.loc says the bytes live now.
 *
 * Testplan (issue 5):
 *   test_kmd_bad_args         every fw_kmd entry point against a table of bad
 *                             arguments (NULLs, out-of-range values, another
 *                             device's handle or fence, another pipeline's
 *                             device, stale handles, privileged packets and
 *                             IBs, bad counts, bad patch entries, multipass
 *                             off a packet boundary, aperture ranges out of
 *                             range or in use, lock windows overlapping a
 *                             live lock's, ...): each row gives the exact
 *                             GM_ERR_* of fw_kmd.h and changes nothing
 *                             (statistics, queue fences, monitored fences,
 *                             slots, residency of every allocation, aperture
 *                             locks, *multipass, system memory carved,
 *                             cycles).  Also GM_ERR_TIMEOUT of destroy/idle
 *                             with work pending (nothing released), and
 *                             GM_ERR_FULL when VRAM could never hold a
 *                             buffer's allocations (nothing moved).  Then
 *                             a valid call works.
 *   test_kmd_lock_codes       (issue 14) the D3DDDICB_LOCK argument set:
 *                             every flag combination the seed and the public
 *                             D3DDDICB_LOCKFLAGS remarks constrain, the page
 *                             list, locked-already, every range in use
 *                             (NOTAVAILABLE, CANTEVICTPINNEDALLOCATION,
 *                             DonotEvict), VRAM too small (E_OUTOFMEMORY), a
 *                             removed device, Unlock's table: exact code,
 *                             nothing changed (nor hAllocation and pData);
 *                             eight driver-picked ranges, windows disjoint.
 *   test_kmd_lock_sync        (issue 14) DonotWait -> WASSTILLDRAWING,
 *                             DonotWait|IgnoreSync does not wait, IgnoreSync
 *                             alone waits, IgnoreReadSync
 *                             waits for writers only, Discard|DonotWait
 *                             renames instead (a shared allocation waits);
 *                             pData through a range,
 *                             raw and with a page list reaches the right
 *                             bytes; a range-locked allocation's DMA buffer
 *                             is refused.
 *   test_kmd_lock_discard     (issue 14) Discard renaming: a busy allocation
 *                             gets a new instance without a wait; A0 after a
 *                             submitted A1, or a patch list out of instance
 *                             order, refused; FW_LOCK_MAX_INSTANCES then
 *                             E_OUTOFMEMORY; flush and Discard|
 *                             NoExistingReference reuses an idle instance;
 *                             every instance's bytes right; destroy frees them.
 *   test_kmd_lock_random      (issue 14, seeded) random Lock (raw, through a
 *                             range, DonotWait, ReadOnly, Discard with the
 *                             seed's retry), Unlock, long GPU FILLs and
 *                             evictions over six allocations and their
 *                             instances against a C model of every
 *                             instance's bytes: each ReadOnly lock reads the
 *                             model, and at the end every instance, wherever
 *                             it lives, holds it.
 *   test_kmd_lock_windows     (issue 12) a lock window overlapping a live
 *                             lock's, another device's or its own, in any
 *                             range: refused, nothing changed; windows side
 *                             by side both work and the CPU's writes through
 *                             each land in its own allocation only.
 *   test_kmd_destroy_locked   (issue 12) destroying a locked allocation's
 *                             resource unlocks it: the range unmapped
 *                             (VALID 0, the window plain VRAM again) and free,
 *                             the next allocation in the same VRAM not reached
 *                             through the old window, the range locked again,
 *                             the device closed cleanly (SAN); a shared
 *                             allocation keeps its other opener and loses the
 *                             destroying device's lock and pin only.
 *   test_kmd_device_removed   a hang (WAIT_MEM nobody satisfies) and TDR: each
 *                             entry point naming the device gives
 *                             GM_ERR_DEVICE_REMOVED and changes nothing, its
 *                             fences read UINT64_MAX, its queued work never
 *                             runs; another device's submission queued behind
 *                             is resubmitted and completes; destroying the
 *                             removed device still works and frees its lock
 *                             (destroying its resource before gives
 *                             GM_ERR_DEVICE_REMOVED and keeps the lock).
 *   test_kmd_paging_not_hung  (issue 12) the driver's paging is no device's
 *                             hang: at the default TDR limit one dword into a
 *                             fresh 4 MiB and a fresh 64 MiB allocation (FILL
 *                             zero page-ins, an eviction COPY, far longer than
 *                             the limit) completes, nobody removed; at a limit
 *                             of 20000 cycles a Lock of a fresh 4 MiB
 *                             allocation and one dword into another too.
 *   test_kmd_eviction_pressure (issue 12) four devices writing into 2 MiB
 *                             buffers through a 6 MiB VRAM segment, each
 *                             submission behind megabytes of paging: no TDR,
 *                             every dword in place; then one device hangs
 *                             under the same pressure: exactly one TDR, only
 *                             that device removed.
 *   test_kmd_queue_error      the same recovery from a hardware error instead
 *                             of a timeout: a COPY the validator accepts reads
 *                             an address in no memory region (MEM_ERROR).
 *   test_kmd_error_in_paging_wait  a render-queue error met while a submission
 *                             waits for the paging queue: the older survivors
 *                             still run before the new submission.
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
 *   test_kmd_mfence_monotonic monitored fences read in small slices during
 *                             submissions never go back; waits on values
 *                             never requested are refused.
 *
 * $GPUSIM_KMD_LOG set: the pipeline's log goes to stderr.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dma_names.h"
#include "dma_tile.h"
#include "dma_validate.h"
#include "fw_kmd.h"
#include "fw_umd.h"
#include "tb_util.h"

#define BIN "build/tests/test_kmd"
#define PITCH 4096u            /* bytes per row of every test buffer */
#define KT_TRACK 96u           /* allocations a fixture watches */
#define BUDGET 20000000ull     /* cycles any one wait may take */
#define UNMAPPED 0x40000000ull /* between the end of 256 MiB VRAM and system memory */
#define RQ FW_QUEUE_RENDER

/* ------------------------------------------------------------ fixture */

struct kt {
	struct tb t;
	struct fw_kmd *k;
	struct fw_umd *u;
	struct fw_dmabuf *buf;
	struct fw_alloc *track[KT_TRACK]; /* allocations whose residency a row must not change */
	unsigned ntrack;
	unsigned rows;                    /* bad-argument rows checked */
};

/* A one-surface resource: its handle and kernel allocation. */
struct kbuf {
	struct fw_resource *res;
	uint32_t h;
	struct fw_alloc *a;
};

/* A model, the device layer and a pipeline with a @vram_bytes VRAM segment. */
static void kt_open(struct kt *x, uint64_t vram_bytes, uint64_t tdr_cycles)
{
	struct fw_kmd_cfg kc;
	int st;

	memset(x, 0, sizeof(*x));
	tb_open(&x->t);
	x->k = calloc(1, sizeof(*x->k));
	x->u = calloc(1, sizeof(*x->u));
	x->buf = calloc(1, sizeof(*x->buf));
	assert_true(x->k && x->u && x->buf);
	fw_kmd_cfg_default(&kc);
	kc.vram_bytes = vram_bytes;
	kc.tdr_cycles = tdr_cycles;
	kc.log = getenv("GPUSIM_KMD_LOG") ? stderr : NULL;
	st = fw_kmd_init(x->k, &x->t.d, &kc);
	if (st)
		fail_msg("fw_kmd_init: %s", gm_status_name(st));
}

static void kt_close(struct kt *x)
{
	fw_kmd_fini(x->k);
	free(x->k);
	free(x->u);
	free(x->buf);
	tb_close(&x->t);
}

/* A linear buffer of @bytes (whole PITCH-byte rows of 4-byte elements). */
static struct fw_alloc_desc buf_desc(uint64_t bytes)
{
	return (struct fw_alloc_desc){ .size = bytes, .width = PITCH / 4,
				       .height = (uint32_t)(bytes / PITCH), .pitch = PITCH,
				       .bpe_log2 = 2, .tile = GPU_TILE_LINEAR };
}

static struct kbuf kbuf_desc(struct kt *x, struct fw_device *dev, const struct fw_alloc_desc *d,
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

static struct kbuf kbuf_new(struct kt *x, struct fw_device *dev, uint64_t bytes)
{
	struct fw_alloc_desc d = buf_desc(bytes);

	return kbuf_desc(x, dev, &d, false);
}

static struct fw_device *dev_new(struct kt *x)
{
	struct fw_device *dev = NULL;

	assert_int_equal(fw_device_create(&x->k->ad, &dev), GM_OK);
	return dev;
}

static uint32_t mfence_new(struct kt *x, struct fw_device *dev, uint64_t initial)
{
	uint32_t id = 0;

	assert_int_equal(fw_mfence_create(x->k, dev, initial, &id), GM_OK);
	return id;
}

static uint64_t mfence_val(struct kt *x, uint32_t id)
{
	uint64_t v = 0;

	assert_int_equal(fw_mfence_read(x->k, id, &v), GM_OK);
	return v;
}

/* FILL @rows rows of @w bytes from byte @off of allocation @h with @v. */
static void umd_fill(struct fw_umd *u, uint32_t h, uint64_t off, uint32_t w, uint32_t rows,
		     uint64_t v)
{
	struct dma_surf s = { .base = off, .pitch = PITCH, .mode = GPU_TILE_LINEAR };

	assert_int_equal(fw_umd_fill(u, h, &s, w, rows, v), GM_OK);
}

/* What that FILL does to a host copy of the allocation. */
static void model_fill(uint8_t *m, uint64_t off, uint32_t w, uint32_t rows, uint64_t v)
{
	for (uint32_t r = 0; r < rows; r++)
		for (uint32_t i = 0; i < w; i++)
			m[off + (uint64_t)r * PITCH + i] = (uint8_t)(v >> 8 * (i % 8));
}

/* Render and submit the command buffer in x->u on @dev; the last DMA buffer
 * signals @fence = @value (fence 0: none). */
static void kt_run(struct kt *x, struct fw_device *dev, uint32_t fence, uint64_t value)
{
	struct fw_signal sig = { fence, value };
	struct fw_cmdbuf cb;
	int st;

	fw_umd_cmdbuf(x->u, &cb);
	st = fw_kmd_submit_cmdbuf(x->k, dev, &cb, x->buf, fence ? &sig : NULL);
	if (st)
		fail_msg("render and submit: %s", gm_status_name(st));
}

static void kt_idle(struct kt *x)
{
	int st = fw_kmd_idle(x->k, BUDGET);

	if (st)
		fail_msg("fw_kmd_idle: %s", gm_status_name(st));
}

/* The bytes of @a wherever they live now. */
static void read_alloc(struct kt *x, const struct fw_alloc *a, void *p)
{
	assert_int_not_equal(a->loc.seg_id, FW_SEG_NONE);
	assert_int_equal(gm_backdoor_read(x->t.g, a->loc.addr, p, a->d.size), GM_OK);
}

static bool all_bytes(const uint8_t *p, size_t n, uint64_t pattern)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] != (uint8_t)(pattern >> 8 * (i % 8)))
			return false;
	return true;
}

/* Allocation @a holds @pattern repeated (a FILL of all of it). */
static void expect_filled(struct kt *x, const struct fw_alloc *a, uint64_t pattern,
			  const char *what)
{
	uint8_t *p = malloc(a->d.size);

	assert_non_null(p);
	read_alloc(x, a, p);
	if (!all_bytes(p, a->d.size, pattern))
		fail_msg("%s: allocation at 0x%" PRIx64 " does not hold 0x%016" PRIx64, what,
			 a->loc.addr, pattern);
	free(p);
}

/* ------------------------------------------------------------ "nothing changed" */

struct alloc_state {
	unsigned seg_id;
	uint64_t addr, last_use;
	bool resident, pinned, content_valid;
};

/* Everything a refused call must leave as it was. */
struct snap {
	struct fw_kmd_stats st;
	uint64_t cycles, sys_next, seq, use_stamp, pg_fence;
	uint64_t emitted[2], seen[2], lost[2];
	uint32_t errors[2], pg_ndw;
	bool halted[2];
	bool used[FW_KMD_SLOTS];
	uint64_t pend_fence[FW_KMD_SLOTS];
	struct fw_mfence mf[FW_KMD_MAX_MFENCES + 1];
	struct fw_lock_range apt[GPU_APT_RANGES];
	struct fw_lock_range raw[FW_KMD_RAW_LOCKS];
	struct alloc_state a[KT_TRACK];
};

static void snap_take(const struct kt *x, struct snap *s)
{
	const struct fw_kmd *k = x->k;

	memset(s, 0, sizeof(*s));
	s->st = k->st;
	s->cycles = gm_cycles(x->t.g);
	s->sys_next = x->t.d.sys_next;
	s->seq = k->seq;
	s->use_stamp = k->use_stamp;
	s->pg_fence = k->pg.fence;
	s->pg_ndw = k->pg.ndw;
	for (unsigned q = 0; q < 2; q++) {
		s->emitted[q] = x->t.d.q[q].fence_emitted;
		s->seen[q] = x->t.d.q[q].fence_seen;
		s->lost[q] = x->t.d.q[q].fence_lost;
		s->errors[q] = x->t.d.q[q].errors;
		s->halted[q] = x->t.d.q[q].halted;
	}
	for (unsigned i = 0; i < FW_KMD_SLOTS; i++) {
		s->used[i] = k->pend[i].used;
		s->pend_fence[i] = k->pend[i].fence;
	}
	memcpy(s->mf, k->mf, sizeof(s->mf));
	memcpy(s->apt, k->apt, sizeof(s->apt));
	memcpy(s->raw, k->raw, sizeof(s->raw));
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

static void row_check(struct kt *x, const struct snap *before, const char *what, int want, int got,
		      int line)
{
	struct snap now;
	const char *d;

	x->rows++;
	if (got != want)
		fail_msg("row at line %d, %s: %s, want %s", line, what, gm_status_name(got),
			 gm_status_name(want));
	snap_take(x, &now);
	d = snap_diff(x, before, &now);
	if (d)
		fail_msg("row at line %d, %s: %s as it should, but %s changed", line, what,
			 gm_status_name(got), d);
}

/* One row of a bad-argument table: @call returns exactly @want and nothing
 * in the pipeline changes. */
#define ROW(x, what, want, call)                                                                 \
	do {                                                                                     \
		struct snap *s_ = malloc(sizeof(*s_));                                           \
		int got_;                                                                        \
		assert_non_null(s_);                                                             \
		snap_take((x), s_);                                                              \
		got_ = (call);                                                                   \
		row_check((x), s_, (what), (want), got_, __LINE__);                              \
		free(s_);                                                                        \
	} while (0)

/* Render with *multipass = @mp; on an error *multipass must not move. */
static int render_mp(struct kt *x, struct fw_device *dev, const struct fw_cmdbuf *cb, uint32_t mp,
		     struct fw_dmabuf *out)
{
	uint32_t m = mp;
	int st = fw_kmd_render(x->k, dev, cb, &m, out);

	if (st != GM_OK && st != GM_ERR_FULL && m != mp)
		fail_msg("refused render moved *multipass %u -> %u", mp, m);
	return st;
}

/* fw_mfence_read whose *value must stay untouched on an error. */
static int read_row(struct fw_kmd *k, uint32_t id)
{
	uint64_t v = 0x5a5a5a5a5a5a5a5aull;
	int st = fw_mfence_read(k, id, &v);

	if (st && v != 0x5a5a5a5a5a5a5a5aull)
		fail_msg("refused fw_mfence_read wrote *value");
	return st;
}

/* A command buffer a row may spoil: a copy of @cb in its own arrays. */
struct cbx {
	uint32_t dw[256];
	struct fw_alloc_ref al[FW_KMD_MAX_ALLOCS + 1];
	struct dma_patch_loc loc[16];
	struct fw_cmdbuf cb;
};

static struct fw_cmdbuf *cbx(struct cbx *c, const struct fw_cmdbuf *cb)
{
	assert_true(cb->ndw <= 200 && cb->nalloc <= FW_KMD_MAX_ALLOCS && cb->nloc <= 16);
	memset(c, 0, sizeof(*c));
	memcpy(c->dw, cb->dw, cb->ndw * 4ull);
	memcpy(c->al, cb->allocs, cb->nalloc * sizeof(*c->al));
	memcpy(c->loc, cb->locs, cb->nloc * sizeof(*c->loc));
	c->cb = (struct fw_cmdbuf){ c->dw, cb->ndw, c->al, cb->nalloc, c->loc, cb->nloc, cb->flags };
	return &c->cb;
}

/* Append raw packets (e.g. a privileged one) to a spoilable buffer. */
static struct fw_cmdbuf *cbx_append(struct cbx *c, const struct fw_cmdbuf *cb,
				    int (*emit)(struct dma_buf *))
{
	struct dma_buf b;

	cbx(c, cb);
	dma_buf_init(&b, c->dw, 256);
	b.len = cb->ndw;
	assert_int_equal(emit(&b), GM_OK);
	c->cb.ndw = (uint32_t)b.len;
	return &c->cb;
}

static int emit_pte(struct dma_buf *b)
{
	return dma_emit_pte_write(b, 0x100000, 0, 0x200000, 0x1000, 4);
}

static int emit_inv(struct dma_buf *b)
{
	return dma_emit_invalidate_tlb(b, 1, false, 0, 16);
}

static int emit_ib(struct dma_buf *b)
{
	return dma_emit_indirect_buffer(b, GPU_SYSMEM_BASE + 0x10000, 16);
}

static int emit_short_wd(struct dma_buf *b)
{
	uint32_t p[2] = { GPU_PKT_HDR(GPU_OP_WRITE_DATA, 1), 0 }; /* COUNT below its minimum */

	return dma_emit_raw(b, p, 2);
}

static int emit_bad_op(struct dma_buf *b)
{
	uint32_t p[1] = { GPU_PKT_HDR(0x7e, 0) };

	return dma_emit_raw(b, p, 1);
}

static int emit_bad_type(struct dma_buf *b)
{
	uint32_t p[1] = { GPU_HDR_OPCODE(GPU_OP_NOP) }; /* TYPE 0 */

	return dma_emit_raw(b, p, 1);
}

static int emit_truncated(struct dma_buf *b)
{
	uint32_t p[3] = { GPU_PKT_HDR(GPU_OP_NOP, 8), 0, 0 }; /* 9 dwords announced, 3 there */

	return dma_emit_raw(b, p, 3);
}

/* ------------------------------------------------------------ bad arguments */

struct argenv {
	struct kt *x, *y;                    /* y: another pipeline, on its own model */
	struct fw_device *A, *B, *C, *F;     /* F is y's */
	struct kbuf X, Y, Z, L, SH, BX, FX, P4, PW, SEMC, BIG1, BIG2;
	uint32_t stale;                      /* a released handle of A */
	uint32_t sh_b;                       /* B's handle of A's shared SH */
	uint32_t fA, fB;
	struct fw_cmdbuf good;               /* FILL X, WRITE_DATA Y, in x->u */
	struct fw_dmabuf *gbuf, *zbuf, *bad; /* good rendered; FILL of the fresh Z; scratch */
};

static void rows_init(struct argenv *e)
{
	struct kt *x = e->x;
	struct fw_dev *d = &x->t.d;
	struct fw_kmd *kx = calloc(1, sizeof(*kx));
	struct fw_kmd_cfg c, ok;
	uint64_t next, room;

	assert_non_null(kx);
	fw_kmd_cfg_default(&ok);
	ROW(x, "init: NULL pipeline", GM_ERR_BAD_ARG, fw_kmd_init(NULL, d, &ok));
	ROW(x, "init: NULL device", GM_ERR_BAD_ARG, fw_kmd_init(kx, NULL, &ok));
	ROW(x, "init: NULL cfg", GM_ERR_BAD_ARG, fw_kmd_init(kx, d, NULL));
	c = ok, c.tdr_cycles = 0;
	ROW(x, "init: no TDR time", GM_ERR_BAD_ARG, fw_kmd_init(kx, d, &c));
	c = ok, c.vram_bytes = 0;
	ROW(x, "init: empty VRAM segment", GM_ERR_BAD_ARG, fw_kmd_init(kx, d, &c));
	c = ok, c.sys_bytes = 0;
	ROW(x, "init: empty system segment", GM_ERR_BAD_ARG, fw_kmd_init(kx, d, &c));
	c = ok, c.vram_base = 200ull << 20;
	ROW(x, "init: VRAM segment past the model's VRAM", GM_ERR_BAD_ARG, fw_kmd_init(kx, d, &c));
	c = ok, c.vram_base = UINT64_MAX - 0xffff, c.vram_bytes = 0x20000;
	ROW(x, "init: VRAM segment wrapping the address space", GM_ERR_BAD_ARG,
	    fw_kmd_init(kx, d, &c));
	c = ok, c.vram_base += 0x1000;
	ROW(x, "init: VRAM segment not 64 KiB aligned", GM_ERR_BAD_ARG, fw_kmd_init(kx, d, &c));
	c = ok, c.sys_bytes = 1ull << 30;
	ROW(x, "init: system segment larger than system memory", GM_ERR_NO_MEM,
	    fw_kmd_init(kx, d, &c));
	/* The segment fits but the DMA buffer slots after it do not. */
	next = (d->sys_next + 0xffff) & ~0xffffull;
	room = (d->sys_end - next) & ~0xffffull;
	c = ok, c.sys_bytes = room - 0x10000;
	ROW(x, "init: no system memory left for the DMA buffer slots", GM_ERR_NO_MEM,
	    fw_kmd_init(kx, d, &c));
	free(kx);
}

static void rows_render(struct argenv *e)
{
	static uint32_t huge[4300];
	struct kt *x = e->x;
	struct fw_dmabuf *o = e->bad;
	const struct fw_cmdbuf *g = &e->good;
	struct fw_cmdbuf *cb, hc;
	struct cbx c;
	uint32_t mp = 0, wd; /* wd: byte offset of the WRITE_DATA packet */

	wd = 4u * (GPU_HDR_COUNT_GET(g->dw[0]) + 1);
	ROW(x, "render: NULL pipeline", GM_ERR_BAD_ARG, fw_kmd_render(NULL, e->A, g, &mp, o));
	ROW(x, "render: NULL device", GM_ERR_BAD_ARG, fw_kmd_render(x->k, NULL, g, &mp, o));
	ROW(x, "render: NULL command buffer", GM_ERR_BAD_ARG, render_mp(x, e->A, NULL, 0, o));
	ROW(x, "render: NULL multipass", GM_ERR_BAD_ARG, fw_kmd_render(x->k, e->A, g, NULL, o));
	ROW(x, "render: NULL output", GM_ERR_BAD_ARG, render_mp(x, e->A, g, 0, NULL));
	ROW(x, "render: another pipeline's device", GM_ERR_BAD_ARG, render_mp(x, e->F, g, 0, o));
	ROW(x, "submit_cmdbuf: NULL pipeline", GM_ERR_BAD_ARG,
	    fw_kmd_submit_cmdbuf(NULL, e->A, g, o, NULL));
	ROW(x, "submit_cmdbuf: NULL device", GM_ERR_BAD_ARG,
	    fw_kmd_submit_cmdbuf(x->k, NULL, g, o, NULL));
	ROW(x, "submit_cmdbuf: NULL command buffer", GM_ERR_BAD_ARG,
	    fw_kmd_submit_cmdbuf(x->k, e->A, NULL, o, NULL));
	ROW(x, "submit_cmdbuf: NULL DMA buffer", GM_ERR_BAD_ARG,
	    fw_kmd_submit_cmdbuf(x->k, e->A, g, NULL, NULL));
	ROW(x, "submit_cmdbuf: a privileged packet", GM_ERR_BAD_ARG,
	    fw_kmd_submit_cmdbuf(x->k, e->A, cbx_append(&c, g, emit_pte), o, NULL));
	ROW(x, "submit_cmdbuf: a signal to another device's fence", GM_ERR_BAD_ARG,
	    fw_kmd_submit_cmdbuf(x->k, e->A, g, o, &(struct fw_signal){ e->fB, 10 }));
	cb = cbx(&c, g), cb->ndw = 0;
	ROW(x, "render: no dwords", GM_ERR_BAD_ARG, render_mp(x, e->A, cb, 0, o));
	cb = cbx(&c, g), cb->dw = NULL;
	ROW(x, "render: NULL dwords", GM_ERR_BAD_ARG, render_mp(x, e->A, cb, 0, o));
	cb = cbx(&c, g), cb->allocs = NULL;
	ROW(x, "render: allocations counted, NULL list", GM_ERR_BAD_ARG,
	    render_mp(x, e->A, cb, 0, o));
	cb = cbx(&c, g), cb->locs = NULL;
	ROW(x, "render: patch entries counted, NULL list", GM_ERR_BAD_ARG,
	    render_mp(x, e->A, cb, 0, o));
	cb = cbx(&c, g);
	for (unsigned i = cb->nalloc; i <= FW_KMD_MAX_ALLOCS; i++)
		c.al[i] = c.al[0];
	cb->nalloc = FW_KMD_MAX_ALLOCS + 1;
	ROW(x, "render: one allocation past FW_KMD_MAX_ALLOCS", GM_ERR_BAD_ARG,
	    render_mp(x, e->A, cb, 0, o));
	ROW(x, "render: *multipass at the end", GM_ERR_BAD_ARG, render_mp(x, e->A, g, g->ndw, o));
	ROW(x, "render: *multipass past the end", GM_ERR_BAD_ARG,
	    render_mp(x, e->A, g, g->ndw + 5, o));
	ROW(x, "render: *multipass inside the first packet", GM_ERR_BAD_ARG,
	    render_mp(x, e->A, g, 1, o));
	ROW(x, "render: *multipass inside the WRITE_DATA packet", GM_ERR_BAD_ARG,
	    render_mp(x, e->A, g, wd / 4 + 2, o));
	ROW(x, "render: privileged PTE_WRITE", GM_ERR_BAD_ARG,
	    render_mp(x, e->A, cbx_append(&c, g, emit_pte), 0, o));
	ROW(x, "render: privileged INVALIDATE_TLB", GM_ERR_BAD_ARG,
	    render_mp(x, e->A, cbx_append(&c, g, emit_inv), 0, o));
	ROW(x, "render: INDIRECT_BUFFER", GM_ERR_BAD_ARG,
	    render_mp(x, e->A, cbx_append(&c, g, emit_ib), 0, o));
	ROW(x, "render: WRITE_DATA with COUNT below its minimum", GM_ERR_BAD_ARG,
	    render_mp(x, e->A, cbx_append(&c, g, emit_short_wd), 0, o));
	ROW(x, "render: unknown opcode", GM_ERR_BAD_ARG,
	    render_mp(x, e->A, cbx_append(&c, g, emit_bad_op), 0, o));
	ROW(x, "render: header TYPE not 3", GM_ERR_BAD_ARG,
	    render_mp(x, e->A, cbx_append(&c, g, emit_bad_type), 0, o));
	ROW(x, "render: a packet running past the end", GM_ERR_BAD_ARG,
	    render_mp(x, e->A, cbx_append(&c, g, emit_truncated), 0, o));
	/* A NOP of 4201 dwords: legal, but larger than a DMA buffer. */
	huge[0] = GPU_PKT_HDR(GPU_OP_NOP, 4200);
	hc = (struct fw_cmdbuf){ .dw = huge, .ndw = 4201 };
	ROW(x, "render: one packet larger than a DMA buffer", GM_ERR_BAD_ARG,
	    render_mp(x, e->A, &hc, 0, o));
	cb = cbx(&c, g), c.al[0].handle = 0;
	ROW(x, "render: handle 0", GM_ERR_BAD_ARG, render_mp(x, e->A, cb, 0, o));
	cb = cbx(&c, g), c.al[1].handle = e->BX.h;
	ROW(x, "render: another device's handle", GM_ERR_BAD_ARG, render_mp(x, e->A, cb, 0, o));
	cb = cbx(&c, g), c.al[1].handle = e->stale;
	ROW(x, "render: a released (stale) handle", GM_ERR_BAD_ARG, render_mp(x, e->A, cb, 0, o));
	cb = cbx(&c, g), c.loc[1].patch_offset = 4u * g->ndw;
	ROW(x, "render: patch entry past the buffer", GM_ERR_BAD_ARG, render_mp(x, e->A, cb, 0, o));
	cb = cbx(&c, g), c.loc[1].patch_offset = 4u * g->ndw - 4;
	ROW(x, "render: ADDR64 patch in the last dword (runs past the end)", GM_ERR_BAD_ARG,
	    render_mp(x, e->A, cb, 0, o));
	cb = cbx(&c, g), c.loc[0].alloc_index = g->nalloc;
	ROW(x, "render: patch entry naming an allocation index past the list", GM_ERR_BAD_ARG,
	    render_mp(x, e->A, cb, 0, o));
	cb = cbx(&c, g), c.loc[0].alloc_offset = (uint32_t)e->X.a->d.size;
	ROW(x, "render: patch entry offset past its allocation", GM_ERR_BAD_ARG,
	    render_mp(x, e->A, cb, 0, o));
	cb = cbx(&c, g), c.loc[1].patch_offset += 2;
	ROW(x, "render: patch offset not 4-aligned", GM_ERR_BAD_ARG, render_mp(x, e->A, cb, 0, o));
	cb = cbx(&c, g), c.loc[1].driver_id = DMA_PATCH_KIND_COUNT;
	ROW(x, "render: patch kind unknown", GM_ERR_BAD_ARG, render_mp(x, e->A, cb, 0, o));
	cb = cbx(&c, g), c.loc[1].slot_id = 0x01000000u;
	ROW(x, "render: patch slot id with reserved bits", GM_ERR_BAD_ARG,
	    render_mp(x, e->A, cb, 0, o));
	cb = cbx(&c, g), c.loc[1].driver_id = DMA_PATCH_FENCE_ID32;
	ROW(x, "render: FENCE_ID32 patch naming an allocation", GM_ERR_BAD_ARG,
	    render_mp(x, e->A, cb, 0, o));
	cb = cbx(&c, g), c.loc[0].patch_offset = wd - 4, c.loc[0].split_offset = 0;
	ROW(x, "render: ADDR64 patch across two packets", GM_ERR_BAD_ARG,
	    render_mp(x, e->A, cb, 0, o));
	cb = cbx(&c, g), c.loc[1].split_offset = c.loc[1].patch_offset + 4;
	ROW(x, "render: split offset after the patched place", GM_ERR_BAD_ARG,
	    render_mp(x, e->A, cb, 0, o));
}

static void rows_submit(struct argenv *e)
{
	struct kt *x = e->x;
	struct fw_dmabuf *b = e->bad;
	const struct fw_dmabuf *g = e->gbuf;
	struct fw_signal s5[5], s, s2[2];
	uint64_t f = 0;

	for (unsigned i = 0; i < 5; i++)
		s5[i] = (struct fw_signal){ e->fA, 10 + i };
#define SPOIL(stmt) (memcpy(b, g, sizeof(*b)), (stmt), b)
	ROW(x, "submit: NULL pipeline", GM_ERR_BAD_ARG, fw_kmd_submit(NULL, g, NULL, 0, &f));
	ROW(x, "submit: NULL buffer", GM_ERR_BAD_ARG, fw_kmd_submit(x->k, NULL, NULL, 0, &f));
	ROW(x, "submit: buffer of no device", GM_ERR_BAD_ARG,
	    fw_kmd_submit(x->k, SPOIL(b->dev = NULL), NULL, 0, &f));
	ROW(x, "submit: buffer of another pipeline's device", GM_ERR_BAD_ARG,
	    fw_kmd_submit(x->k, SPOIL(b->dev = e->F), NULL, 0, &f));
	ROW(x, "submit: no dwords", GM_ERR_BAD_ARG,
	    fw_kmd_submit(x->k, SPOIL(b->ndw = 0), NULL, 0, &f));
	ROW(x, "submit: more dwords than a DMA buffer", GM_ERR_BAD_ARG,
	    fw_kmd_submit(x->k, SPOIL(b->ndw = FW_KMD_DMA_DW + 1), NULL, 0, &f));
	ROW(x, "submit: allocation count past FW_KMD_MAX_ALLOCS", GM_ERR_BAD_ARG,
	    fw_kmd_submit(x->k, SPOIL(b->nalloc = FW_KMD_MAX_ALLOCS + 1), NULL, 0, &f));
	ROW(x, "submit: patch count past FW_KMD_MAX_LOCS", GM_ERR_BAD_ARG,
	    fw_kmd_submit(x->k, SPOIL(b->nloc = FW_KMD_MAX_LOCS + 1), NULL, 0, &f));
	ROW(x, "submit: NULL allocation in the list", GM_ERR_BAD_ARG,
	    fw_kmd_submit(x->k, SPOIL(b->alloc[1].handle = NULL), NULL, 0, &f));
	ROW(x, "submit: more signals than FW_KMD_MAX_SIGNALS", GM_ERR_BAD_ARG,
	    fw_kmd_submit(x->k, g, s5, FW_KMD_MAX_SIGNALS + 1, &f));
	ROW(x, "submit: signals counted, NULL array", GM_ERR_BAD_ARG,
	    fw_kmd_submit(x->k, g, NULL, 1, &f));
	s = (struct fw_signal){ 0, 10 };
	ROW(x, "submit: signal to fence id 0", GM_ERR_BAD_ARG, fw_kmd_submit(x->k, g, &s, 1, &f));
	s = (struct fw_signal){ FW_KMD_MAX_MFENCES + 1, 10 };
	ROW(x, "submit: signal to a fence id past the table", GM_ERR_BAD_ARG,
	    fw_kmd_submit(x->k, g, &s, 1, &f));
	s = (struct fw_signal){ FW_KMD_MAX_MFENCES, 10 };
	ROW(x, "submit: signal to a fence never created", GM_ERR_BAD_ARG,
	    fw_kmd_submit(x->k, g, &s, 1, &f));
	s = (struct fw_signal){ e->fB, 10 };
	ROW(x, "submit: signal to another device's fence", GM_ERR_BAD_ARG,
	    fw_kmd_submit(x->k, g, &s, 1, &f));
	s = (struct fw_signal){ e->fA, x->k->mf[e->fA].requested };
	ROW(x, "submit: signal value equal to one already requested", GM_ERR_BAD_ARG,
	    fw_kmd_submit(x->k, g, &s, 1, &f));
	s = (struct fw_signal){ e->fA, 0 };
	ROW(x, "submit: signal value going backwards", GM_ERR_BAD_ARG,
	    fw_kmd_submit(x->k, g, &s, 1, &f));
	s2[0] = (struct fw_signal){ e->fA, 8 }, s2[1] = (struct fw_signal){ e->fA, 8 };
	ROW(x, "submit: two signals of one fence, the second not above", GM_ERR_BAD_ARG,
	    fw_kmd_submit(x->k, g, s2, 2, &f));
	s2[1].value = 7;
	ROW(x, "submit: two signals of one fence, the second going backwards", GM_ERR_BAD_ARG,
	    fw_kmd_submit(x->k, g, s2, 2, &f));
	/* A spoiled patch list on a buffer whose allocation Z is not resident:
	 * refused before any paging (Z stays where it is, no paging buffer). */
	g = e->zbuf;
	ROW(x, "submit: patch entry naming an allocation index past the list", GM_ERR_BAD_ARG,
	    fw_kmd_submit(x->k, SPOIL(b->loc[0].alloc_index = b->nalloc), NULL, 0, &f));
	ROW(x, "submit: patch entry past the buffer", GM_ERR_BAD_ARG,
	    fw_kmd_submit(x->k, SPOIL(b->loc[0].patch_offset = 4 * b->ndw), NULL, 0, &f));
	ROW(x, "submit: patch entry offset past its allocation", GM_ERR_BAD_ARG,
	    fw_kmd_submit(x->k, SPOIL(b->loc[0].alloc_offset = (uint32_t)e->Z.a->d.size), NULL, 0,
			  &f));
	ROW(x, "submit: patch kind unknown", GM_ERR_BAD_ARG,
	    fw_kmd_submit(x->k, SPOIL(b->loc[0].driver_id = DMA_PATCH_KIND_COUNT), NULL, 0, &f));
#undef SPOIL
	assert_int_equal(e->Z.a->loc.seg_id, FW_SEG_NONE);
}

/* VRAM could never hold a buffer's allocations together: GM_ERR_FULL before
 * anything moves, nothing submitted and no fence requested. */
static void rows_vram_too_small(struct argenv *e)
{
	struct kt *x = e->x;
	struct fw_signal s = { e->fA, 5 };
	struct fw_cmdbuf cb;
	uint32_t mp = 0;

	fw_umd_begin(x->u);
	umd_fill(x->u, e->BIG1.h, 0, PITCH, 1, 1);
	umd_fill(x->u, e->BIG2.h, 0, PITCH, 1, 2);
	fw_umd_cmdbuf(x->u, &cb);
	assert_int_equal(fw_kmd_render(x->k, e->A, &cb, &mp, e->bad), GM_OK);
	ROW(x, "submit: two 5 MiB allocations into 8 MiB of VRAM", GM_ERR_FULL,
	    fw_kmd_submit(x->k, e->bad, &s, 1, NULL));
}

static void rows_discard(struct argenv *e)
{
	struct kt *x = e->x;

	ROW(x, "discard: NULL pipeline", GM_ERR_BAD_ARG, fw_kmd_discard(NULL, e->A, e->X.h));
	ROW(x, "discard: NULL device", GM_ERR_BAD_ARG, fw_kmd_discard(x->k, NULL, e->X.h));
	ROW(x, "discard: handle 0", GM_ERR_BAD_ARG, fw_kmd_discard(x->k, e->A, 0));
	ROW(x, "discard: another device's handle", GM_ERR_BAD_ARG,
	    fw_kmd_discard(x->k, e->A, e->BX.h));
	ROW(x, "discard: a released (stale) handle", GM_ERR_BAD_ARG,
	    fw_kmd_discard(x->k, e->A, e->stale));
	ROW(x, "discard: another pipeline's device and allocation", GM_ERR_BAD_ARG,
	    fw_kmd_discard(x->k, e->F, e->FX.h));
}

static void rows_mfence(struct argenv *e)
{
	struct kt *x = e->x;
	uint64_t req = x->k->mf[e->fA].requested;
	uint32_t id = 0, n = 0;

	ROW(x, "mfence_create: NULL pipeline", GM_ERR_BAD_ARG,
	    fw_mfence_create(NULL, e->A, 0, &id));
	ROW(x, "mfence_create: NULL device", GM_ERR_BAD_ARG, fw_mfence_create(x->k, NULL, 0, &id));
	ROW(x, "mfence_create: NULL id", GM_ERR_BAD_ARG, fw_mfence_create(x->k, e->A, 0, NULL));
	ROW(x, "mfence_create: another pipeline's device", GM_ERR_BAD_ARG,
	    fw_mfence_create(x->k, e->F, 0, &id));
	ROW(x, "mfence_create: initial value UINT64_MAX", GM_ERR_BAD_ARG,
	    fw_mfence_create(x->k, e->A, UINT64_MAX, &id));
	ROW(x, "mfence_read: NULL pipeline", GM_ERR_BAD_ARG, read_row(NULL, e->fA));
	ROW(x, "mfence_read: id 0", GM_ERR_BAD_ARG, read_row(x->k, 0));
	ROW(x, "mfence_read: id past the table", GM_ERR_BAD_ARG,
	    read_row(x->k, FW_KMD_MAX_MFENCES + 1));
	ROW(x, "mfence_read: a fence never created", GM_ERR_BAD_ARG,
	    read_row(x->k, FW_KMD_MAX_MFENCES));
	ROW(x, "mfence_read: NULL value", GM_ERR_BAD_ARG, fw_mfence_read(x->k, e->fA, NULL));
	ROW(x, "mfence_wait: NULL pipeline", GM_ERR_BAD_ARG,
	    fw_mfence_wait(NULL, e->fA, 1, BUDGET));
	ROW(x, "mfence_wait: id 0", GM_ERR_BAD_ARG, fw_mfence_wait(x->k, 0, 0, BUDGET));
	ROW(x, "mfence_wait: a fence never created", GM_ERR_BAD_ARG,
	    fw_mfence_wait(x->k, FW_KMD_MAX_MFENCES, 0, BUDGET));
	ROW(x, "mfence_wait: a value never requested", GM_ERR_BAD_ARG,
	    fw_mfence_wait(x->k, e->fA, req + 1, BUDGET));
	ROW(x, "mfence_wait: UINT64_MAX never requested", GM_ERR_BAD_ARG,
	    fw_mfence_wait(x->k, e->fA, UINT64_MAX, BUDGET));
	/* Fill the table from device C, then one more. */
	while (fw_mfence_create(x->k, e->C, 0, &id) == GM_OK)
		n++;
	assert_true(n > 0 && n < FW_KMD_MAX_MFENCES);
	ROW(x, "mfence_create: every fence in use", GM_ERR_FULL,
	    fw_mfence_create(x->k, e->A, 0, &id));
}

static void rows_lock(struct argenv *e)
{
	struct kt *x = e->x;
	const uint32_t win_end = (uint32_t)GPU_APT_WINDOW_BYTES;

	assert_int_equal(fw_kmd_lock(x->k, e->A, e->L.h, 0, 0), GM_OK);
	assert_int_equal(fw_kmd_lock(x->k, e->A, e->SH.h, 2, 0x200000), GM_OK);
	ROW(x, "lock: NULL pipeline", GM_ERR_BAD_ARG, fw_kmd_lock(NULL, e->A, e->X.h, 1, 0));
	ROW(x, "lock: NULL device", GM_ERR_BAD_ARG, fw_kmd_lock(x->k, NULL, e->X.h, 1, 0));
	ROW(x, "lock: handle 0", GM_ERR_BAD_ARG, fw_kmd_lock(x->k, e->A, 0, 1, 0));
	ROW(x, "lock: another device's handle", GM_ERR_BAD_ARG,
	    fw_kmd_lock(x->k, e->A, e->BX.h, 1, 0));
	ROW(x, "lock: a released (stale) handle", GM_ERR_BAD_ARG,
	    fw_kmd_lock(x->k, e->A, e->stale, 1, 0));
	ROW(x, "lock: another pipeline's device and allocation", GM_ERR_BAD_ARG,
	    fw_kmd_lock(x->k, e->F, e->FX.h, 1, 0));
	ROW(x, "lock: range past GPU_APT_RANGES", GM_ERR_BAD_ARG,
	    fw_kmd_lock(x->k, e->A, e->X.h, GPU_APT_RANGES, 0));
	ROW(x, "lock: range already in use", GM_ERR_BAD_ARG,
	    fw_kmd_lock(x->k, e->A, e->X.h, 0, 0x100000));
	ROW(x, "lock: allocation already locked in another range", GM_ERR_BAD_ARG,
	    fw_kmd_lock(x->k, e->A, e->L.h, 1, 0x100000));
	ROW(x, "lock: window offset not 8-aligned", GM_ERR_BAD_ARG,
	    fw_kmd_lock(x->k, e->A, e->X.h, 1, 0x100004));
	ROW(x, "lock: window end past the aperture", GM_ERR_BAD_ARG,
	    fw_kmd_lock(x->k, e->A, e->X.h, 1, win_end - 0x8000));
	ROW(x, "lock: window overlapping another device's lock", GM_ERR_BAD_ARG,
	    fw_kmd_lock(x->k, e->B, e->BX.h, 1, 0x8000));
	ROW(x, "lock: window overlapping the device's own lock in another range", GM_ERR_BAD_ARG,
	    fw_kmd_lock(x->k, e->A, e->X.h, 1, 0x200000 - 0x8000));
	ROW(x, "lock: pitch not a multiple of 8", GM_ERR_BAD_ARG,
	    fw_kmd_lock(x->k, e->A, e->P4.h, 1, 0x100000));
	ROW(x, "lock: pitch past the aperture's pitch field", GM_ERR_BAD_ARG,
	    fw_kmd_lock(x->k, e->A, e->PW.h, 1, 0x100000));

	ROW(x, "unlock: NULL pipeline", GM_ERR_BAD_ARG, fw_kmd_unlock(NULL, e->A, e->L.h, 0));
	ROW(x, "unlock: NULL device", GM_ERR_BAD_ARG, fw_kmd_unlock(x->k, NULL, e->L.h, 0));
	ROW(x, "unlock: handle 0", GM_ERR_BAD_ARG, fw_kmd_unlock(x->k, e->A, 0, 0));
	ROW(x, "unlock: a released (stale) handle", GM_ERR_BAD_ARG,
	    fw_kmd_unlock(x->k, e->A, e->stale, 0));
	ROW(x, "unlock: another device, its own allocation", GM_ERR_BAD_ARG,
	    fw_kmd_unlock(x->k, e->B, e->BX.h, 0));
	ROW(x, "unlock: range past GPU_APT_RANGES", GM_ERR_BAD_ARG,
	    fw_kmd_unlock(x->k, e->A, e->L.h, GPU_APT_RANGES));
	ROW(x, "unlock: a range the allocation is not locked in", GM_ERR_BAD_ARG,
	    fw_kmd_unlock(x->k, e->A, e->L.h, 1));
	ROW(x, "unlock: a range holding another allocation", GM_ERR_BAD_ARG,
	    fw_kmd_unlock(x->k, e->A, e->X.h, 0));
	ROW(x, "unlock: another device's lock of a shared allocation", GM_ERR_BAD_ARG,
	    fw_kmd_unlock(x->k, e->B, e->sh_b, 2));
	ROW(x, "unlock: another pipeline's device and allocation", GM_ERR_BAD_ARG,
	    fw_kmd_unlock(x->k, e->F, e->FX.h, 0));
	assert_int_equal(fw_kmd_unlock(x->k, e->A, e->L.h, 0), GM_OK);
	assert_int_equal(fw_kmd_unlock(x->k, e->A, e->SH.h, 2), GM_OK);
	assert_false(e->L.a->pinned || e->SH.a->pinned);
}

static void rows_destroy(struct argenv *e)
{
	struct kt *x = e->x;
	struct fw_alloc *a = NULL;

	ROW(x, "res_destroy: NULL resource", GM_ERR_BAD_ARG, fw_res_destroy(NULL));
	ROW(x, "poll: NULL pipeline", GM_ERR_BAD_ARG, fw_kmd_poll(NULL, 1000));
	ROW(x, "idle: NULL pipeline", GM_ERR_BAD_ARG, fw_kmd_idle(NULL, 1000));
	ROW(x, "device_destroy: NULL pipeline", GM_ERR_BAD_ARG,
	    fw_kmd_device_destroy(NULL, e->C, 0));
	ROW(x, "device_destroy: NULL device", GM_ERR_BAD_ARG, fw_kmd_device_destroy(x->k, NULL, 0));
	ROW(x, "device_destroy: another pipeline's device", GM_ERR_BAD_ARG,
	    fw_kmd_device_destroy(x->k, e->F, 0));
	/* C: a submission blocked on a semaphore the CPU releases below. */
	fw_umd_begin(x->u);
	assert_int_equal(fw_umd_wait_eq(x->u, e->SEMC.h, 0, 1), GM_OK);
	kt_run(x, e->C, 0, 0);
	fw_kmd_poll(x->k, 2000); /* its paging done, the WAIT_MEM spinning */
	ROW(x, "device_destroy: still pending, budget 0", GM_ERR_TIMEOUT,
	    fw_kmd_device_destroy(x->k, e->C, 0));
	ROW(x, "idle: still pending, budget 0", GM_ERR_TIMEOUT, fw_kmd_idle(x->k, 0));
	/* Nothing released: C's handles and fences still work. */
	assert_int_equal(fw_res_get_handle_data(e->C, e->SEMC.h, &a), GM_OK);
	assert_ptr_equal(a, e->SEMC.a);
	assert_ptr_equal(x->k->mf[FW_KMD_MAX_MFENCES].dev, e->C);
	assert_int_equal(gm_backdoor_write32(x->t.g, e->SEMC.a->loc.addr, 1), GM_OK);
	kt_idle(x);
	assert_int_equal(x->k->st.tdrs, 0);
	assert_int_equal(fw_kmd_device_destroy(x->k, e->C, BUDGET), GM_OK);
	assert_null(x->k->mf[FW_KMD_MAX_MFENCES].dev);
}

static void test_kmd_bad_args(void **state)
{
	struct kt x, y;
	struct argenv e = { .x = &x, .y = &y };
	struct fw_alloc_desc d;
	struct fw_resource *rb;
	struct fw_cmdbuf cb;
	struct kbuf S;
	uint32_t share, mp = 0, ff;
	uint8_t *p;

	(void)state;
	kt_open(&x, 8ull << 20, 200000);
	kt_open(&y, 4ull << 20, 200000);
	e.gbuf = calloc(1, sizeof(*e.gbuf));
	e.zbuf = calloc(1, sizeof(*e.zbuf));
	e.bad = calloc(1, sizeof(*e.bad));
	assert_true(e.gbuf && e.zbuf && e.bad);
	e.A = dev_new(&x);
	e.B = dev_new(&x);
	e.C = dev_new(&x);
	e.F = dev_new(&y);
	e.X = kbuf_new(&x, e.A, 0x10000);
	e.Y = kbuf_new(&x, e.A, 0x10000);
	e.Z = kbuf_new(&x, e.A, 0x10000);
	e.L = kbuf_new(&x, e.A, 0x10000);
	e.BIG1 = kbuf_new(&x, e.A, 5ull << 20);
	e.BIG2 = kbuf_new(&x, e.A, 5ull << 20);
	d = buf_desc(0x10000);
	e.SH = kbuf_desc(&x, e.A, &d, true);
	assert_int_equal(fw_res_share_handle(e.SH.res, &share), GM_OK);
	assert_int_equal(fw_res_open(e.B, share, &rb), GM_OK);
	assert_int_equal(fw_res_surface_handle(rb, 0, &e.sh_b), GM_OK);
	e.BX = kbuf_new(&x, e.B, 0x10000);
	e.SEMC = kbuf_new(&x, e.C, PITCH);
	d = (struct fw_alloc_desc){ .size = 4096, .width = 1, .height = 1024, .pitch = 4,
				    .bpe_log2 = 2, .tile = GPU_TILE_LINEAR };
	e.P4 = kbuf_desc(&x, e.A, &d, false);
	d = (struct fw_alloc_desc){ .size = 1u << 20, .width = 1u << 18, .height = 1,
				    .pitch = 1u << 20, .bpe_log2 = 2, .tile = GPU_TILE_LINEAR };
	e.PW = kbuf_desc(&x, e.A, &d, false);
	S = kbuf_new(NULL, e.A, 0x10000);
	e.stale = S.h;
	assert_int_equal(fw_res_destroy(S.res), GM_OK);
	/* Another pipeline's allocation with valid content (Lock made it so). */
	e.FX = kbuf_new(NULL, e.F, 0x10000);
	assert_int_equal(fw_kmd_lock(y.k, e.F, e.FX.h, 0, 0), GM_OK);
	assert_int_equal(fw_kmd_unlock(y.k, e.F, e.FX.h, 0), GM_OK);
	assert_true(e.FX.a->content_valid);
	x.track[x.ntrack++] = e.FX.a;
	e.fA = mfence_new(&x, e.A, 0);
	e.fB = mfence_new(&x, e.B, 0);

	/* Z's buffer, rendered while Z has never been resident. */
	fw_umd_begin(x.u);
	umd_fill(x.u, e.Z.h, 0, PITCH, 16, 0x7777777777777777ull);
	fw_umd_cmdbuf(x.u, &cb);
	assert_int_equal(fw_kmd_render(x.k, e.A, &cb, &mp, e.zbuf), GM_OK);
	/* The good buffer, run once: X and Y resident, fence A requested 1. */
	fw_umd_begin(x.u);
	umd_fill(x.u, e.X.h, 0, PITCH, 16, 0x1111111111111111ull);
	ff = 0xf00dcafe;
	assert_int_equal(fw_umd_write(x.u, e.Y.h, 8, &ff, 1), GM_OK);
	fw_umd_cmdbuf(x.u, &e.good);
	mp = 0;
	assert_int_equal(fw_kmd_render(x.k, e.A, &e.good, &mp, e.gbuf), GM_OK);
	assert_int_equal(mp, e.good.ndw);
	assert_int_equal(fw_kmd_submit(x.k, e.gbuf, &(struct fw_signal){ e.fA, 1 }, 1, NULL),
			 GM_OK);
	kt_idle(&x);

	rows_init(&e);
	rows_render(&e);
	rows_submit(&e);
	rows_discard(&e);
	rows_mfence(&e);
	rows_lock(&e);
	rows_vram_too_small(&e);
	rows_destroy(&e); /* last: the snapshots read the allocations it frees */
	/* A pipeline after fini refuses to run. */
	fw_kmd_fini(y.k);
	assert_int_equal(fw_kmd_poll(y.k, 100), GM_ERR_BAD_ARG);
	assert_int_equal(fw_kmd_idle(y.k, 100), GM_ERR_BAD_ARG);

	/* Not poisoned: what the good buffer wrote is there, and new work runs. */
	p = malloc(0x10000);
	assert_non_null(p);
	memset(p, 0, 0x10000);
	kt_idle(&x); /* the refused submission's paging has landed */
	read_alloc(&x, e.Y.a, p);
	assert_memory_equal(p + 8, &ff, 4);
	expect_filled(&x, e.X.a, 0x1111111111111111ull, "X before the last submission");
	fw_umd_begin(x.u);
	umd_fill(x.u, e.X.h, 0, PITCH, 16, 0x2222222222222222ull);
	umd_fill(x.u, e.Y.h, 0, PITCH, 16, 0x3333333333333333ull);
	kt_run(&x, e.A, e.fA, 2);
	assert_int_equal(fw_mfence_wait(x.k, e.fA, 2, BUDGET), GM_OK);
	assert_int_equal(mfence_val(&x, e.fA), 2);
	kt_idle(&x);
	expect_filled(&x, e.X.a, 0x2222222222222222ull, "X after the table");
	expect_filled(&x, e.Y.a, 0x3333333333333333ull, "Y after the table");
	assert_int_equal(x.k->st.tdrs, 0);
	printf("bad arguments: %u rows\n", x.rows);
	free(p);
	free(e.gbuf);
	free(e.zbuf);
	free(e.bad);
	kt_close(&y);
	kt_close(&x);
}

/* ------------------------------------------------------------ Lock (D3DDDICB_LOCK) */

#define PDATA_UNSET 0xdeadbeefdeadbeefull /* pData before a call: a refusal leaves it */

/* fw_kmd_lock_cb on @h with @flags and page list @pages[@np]; a refusal must
 * leave hAllocation and pData as they were.  *pdata (if not NULL) gets pData. */
static int lock_cb(struct kt *x, struct fw_device *dev, uint32_t h, uint32_t flags, uint32_t np,
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

static int unlock_cb(struct kt *x, struct fw_device *dev, const uint32_t *h, uint32_t n)
{
	struct fw_unlock_args u = { .NumAllocations = n, .phAllocations = h };

	return fw_kmd_unlock_cb(x->k, dev, &u);
}

#define LK_RO FW_LOCK_READONLY
#define LK_WO FW_LOCK_WRITEONLY
#define LK_NW FW_LOCK_DONOTWAIT
#define LK_IS FW_LOCK_IGNORESYNC
#define LK_LE FW_LOCK_LOCKENTIRE
#define LK_NE FW_LOCK_DONOTEVICT
#define LK_AA FW_LOCK_ACQUIREAPERTURE
#define LK_DI FW_LOCK_DISCARD
#define LK_NX FW_LOCK_NOEXISTINGREFERENCE
#define LK_VA FW_LOCK_USEALTERNATEVA

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

/* The flag rules (seed 000 and the D3DDDICB_LOCKFLAGS remarks), the page
 * list, the aperture's pitch: every range free, nothing locked. */
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
		    lock_cb(x, dev, hs[t[i].who], t[i].flags, t[i].np, t[i].pages, NULL));
}

/*
 * Seed 000, items 1 and 8 of issue 14: the D3DDDICB_LOCK argument set and
 * the result codes.  Every flag combination the seed and the public
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
	A = dev_new(&x);
	B = dev_new(&x);
	C = dev_new(&x);
	L = kbuf_new(&x, A, 0x10000);
	T = kbuf_tiled(&x, A);
	d = (struct fw_alloc_desc){ .size = 4096, .width = 1, .height = 1024, .pitch = 4,
				    .bpe_log2 = 2, .tile = GPU_TILE_LINEAR };
	P4 = kbuf_desc(&x, A, &d, false);
	d = buf_desc(0x10000);
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
	ROW(&x, "lock: NULL device", GM_ERR_BAD_ARG, lock_cb(&x, NULL, L.h, 0, 0, NULL, NULL));
	ROW(&x, "lock: handle 0", GM_ERR_BAD_ARG, lock_cb(&x, A, 0, 0, 0, NULL, NULL));
	ROW(&x, "lock: another device's handle", GM_ERR_BAD_ARG,
	    lock_cb(&x, A, BX.h, 0, 0, NULL, NULL));
	ROW(&x, "lock: a Reserved flag bit (11)", GM_ERR_BAD_ARG,
	    lock_cb(&x, A, L.h, 1u << 11, 0, NULL, NULL));
	ROW(&x, "lock: a Reserved flag bit (31)", GM_ERR_BAD_ARG,
	    lock_cb(&x, A, L.h, 1u << 31, 0, NULL, NULL));
	ROW(&x, "lock: PrivateDriverData (a MIP level) without MIP levels", GM_ERR_BAD_ARG,
	    lock_field(&x, A, L.h, 1));
	ROW(&x, "lock: GpuVirtualAddress (reserved) nonzero", GM_ERR_BAD_ARG,
	    lock_field(&x, A, L.h, 2));
	lock_rows(&x, A, hs, flag_rows, sizeof(flag_rows) / sizeof(flag_rows[0]));

	/* Already locked: raw then raw, raw then swizzled (the seed: not both). */
	assert_int_equal(lock_cb(&x, A, L.h, LK_LE, 0, NULL, &pd), GM_OK);
	assert_int_equal(pd, L.a->loc.addr);
	ROW(&x, "lock: locked already (raw)", GM_ERR_BAD_ARG, lock_cb(&x, A, L.h, 0, 0, NULL, NULL));
	ROW(&x, "lock: a range for an allocation locked raw", GM_ERR_BAD_ARG,
	    lock_cb(&x, A, L.h, LK_AA, 0, NULL, NULL));
	ROW(&x, "lock: a fixed window over a raw lock's VRAM", GM_ERR_BAD_ARG,
	    fw_kmd_lock(x.k, A, R[0].h, 0, (uint32_t)L.a->loc.addr));

	/* The driver's ranges: eight, windows disjoint, then none. */
	for (unsigned r = 0; r < GPU_APT_RANGES; r++) {
		assert_int_equal(lock_cb(&x, A, R[r].h, LK_AA, 0, NULL, &win[r]), GM_OK);
		assert_true(win[r] + 0x10000 <= GPU_APT_WINDOW_BYTES);
		assert_false(win[r] < L.a->loc.addr + 0x10000 && L.a->loc.addr < win[r] + 0x10000);
		for (unsigned q = 0; q < r; q++)
			assert_true(win[q] + 0x10000 <= win[r] || win[r] + 0x10000 <= win[q]);
	}
	lock_rows(&x, A, hs, full_rows, sizeof(full_rows) / sizeof(full_rows[0]));
	for (unsigned r = 0; r < GPU_APT_RANGES; r++)
		assert_int_equal(unlock_cb(&x, A, &R[r].h, 1), GM_OK);
	/* A raw lock hands out plain VRAM: not where a range's window shows
	 * another surface. */
	assert_int_equal(lock_cb(&x, A, T.h, 0, 0, NULL, NULL), GM_OK);
	assert_int_equal(unlock_cb(&x, A, &T.h, 1), GM_OK);
	assert_int_equal(fw_kmd_lock(x.k, A, R[0].h, 0, (uint32_t)T.a->loc.addr), GM_OK);
	ROW(&x, "lock: raw, its VRAM under a live range's window", GM_ERR_NOT_AVAILABLE,
	    lock_cb(&x, A, T.h, 0, 0, NULL, NULL));
	assert_int_equal(fw_kmd_unlock(x.k, A, R[0].h, 0), GM_OK);

	/* E_OUTOFMEMORY: BIG1 locked in VRAM leaves no room for BIG2. */
	assert_int_equal(lock_cb(&x, A, BIG1.h, 0, 0, NULL, NULL), GM_OK);
	ROW(&x, "lock: VRAM cannot take it", GM_ERR_NO_MEM,
	    lock_cb(&x, A, BIG2.h, LK_AA, 0, NULL, NULL));

	/* Unlock's table. */
	h2[0] = L.h;
	h2[1] = L.h;
	ROW(&x, "unlock: NULL arguments", GM_ERR_BAD_ARG, fw_kmd_unlock_cb(x.k, A, NULL));
	ROW(&x, "unlock: NumAllocations 0", GM_ERR_BAD_ARG, unlock_cb(&x, A, h2, 0));
	ROW(&x, "unlock: phAllocations NULL", GM_ERR_BAD_ARG, unlock_cb(&x, A, NULL, 1));
	ROW(&x, "unlock: an allocation not locked", GM_ERR_BAD_ARG, unlock_cb(&x, A, &T.h, 1));
	ROW(&x, "unlock: another device's handle", GM_ERR_BAD_ARG, unlock_cb(&x, B, &L.h, 1));
	ROW(&x, "unlock: one handle twice", GM_ERR_BAD_ARG, unlock_cb(&x, A, h2, 2));
	h2[1] = T.h;
	ROW(&x, "unlock: the second not locked (the first stays)", GM_ERR_BAD_ARG,
	    unlock_cb(&x, A, h2, 2));
	h2[1] = BIG1.h;
	assert_int_equal(unlock_cb(&x, A, h2, 2), GM_OK);
	assert_false(L.a->pinned || BIG1.a->pinned);

	/* D3DDDIERR_DEVICEREMOVED, before any other argument is looked at. */
	assert_int_equal(lock_cb(&x, C, CX.h, 0, 0, NULL, NULL), GM_OK);
	assert_int_equal(fw_device_mark_removed(C), GM_OK);
	ROW(&x, "lock: removed device", GM_ERR_DEVICE_REMOVED,
	    lock_cb(&x, C, CX.h, LK_RO | LK_WO, 0, NULL, NULL));
	ROW(&x, "unlock: removed device", GM_ERR_DEVICE_REMOVED, unlock_cb(&x, C, &CX.h, 1));
	printf("lock result codes: %u rows\n", x.rows);
	kt_close(&x);
}

/* ------------------------------------------------------------ NullRendering */

/* A FILL of all of @b with @v, submitted with patch flags @flags, signalling
 * @fence = @value. */
static int fill_flags(struct kt *x, struct fw_device *dev, const struct kbuf *b, uint64_t v,
		      uint32_t flags, uint32_t fence, uint64_t value)
{
	struct fw_signal sig = { fence, value };
	struct fw_cmdbuf cb;

	fw_umd_begin(x->u);
	umd_fill(x->u, b->h, 0, PITCH, (uint32_t)(b->a->d.size / PITCH), v);
	fw_umd_cmdbuf(x->u, &cb);
	cb.flags = flags;
	return fw_kmd_submit_cmdbuf(x->k, dev, &cb, x->buf, &sig);
}

/*
 * Issue 14 item 6: DXGK_PATCHFLAGS NullRendering - the submission's fence
 * and signals complete, its packets do not run (a FILL leaves the bytes as
 * they were) and nothing is paged in for it (a fresh allocation still lives
 * nowhere).  Present and RedirectedPresent are accepted and run; Paging (the
 * driver's own) and a Reserved bit are refused, nothing submitted.
 */
static void test_kmd_null_rendering(void **state)
{
	struct fw_device *A;
	struct kbuf B, C;
	uint32_t f;
	struct kt x;

	(void)state;
	kt_open(&x, 8ull << 20, 200000);
	A = dev_new(&x);
	B = kbuf_new(&x, A, 0x10000);
	C = kbuf_new(&x, A, 0x10000);
	f = mfence_new(&x, A, 0);
	assert_int_equal(fill_flags(&x, A, &B, 0x1111111111111111ull,
				     DMA_PATCH_F_PRESENT | DMA_PATCH_F_REDIRECTED_PRESENT, f, 1),
			 GM_OK);
	assert_int_equal(fw_mfence_wait(x.k, f, 1, BUDGET), GM_OK);
	expect_filled(&x, B.a, 0x1111111111111111ull, "a Present|RedirectedPresent FILL");
	assert_int_equal(fill_flags(&x, A, &B, 0x2222222222222222ull, DMA_PATCH_F_NULL_RENDERING,
				     f, 2), GM_OK);
	assert_int_equal(fill_flags(&x, A, &C, 0x3333333333333333ull, DMA_PATCH_F_NULL_RENDERING,
				     f, 3), GM_OK);
	assert_int_equal(fw_mfence_wait(x.k, f, 3, BUDGET), GM_OK);
	kt_idle(&x);
	expect_filled(&x, B.a, 0x1111111111111111ull, "a NullRendering FILL");
	assert_int_equal(C.a->loc.seg_id, FW_SEG_NONE);
	ROW(&x, "submit: patch flag Paging on a render submission", GM_ERR_BAD_ARG,
	    fill_flags(&x, A, &B, 0, DMA_PATCH_F_PAGING, f, 4));
	ROW(&x, "submit: a Reserved patch flag bit (4)", GM_ERR_BAD_ARG,
	    fill_flags(&x, A, &B, 0, 1u << 4, f, 4));
	printf("null rendering: %" PRIu64 " submissions, %" PRIu64 " paging buffers\n",
	       x.k->st.submits, x.k->st.paging_buffers);
	kt_close(&x);
}

/* ------------------------------------------------------------ lock windows */

/* The allocation aperture range @r is locked on, or NULL. */
static struct fw_alloc *locked_alloc(const struct kt *x, unsigned r)
{
	return x->k->apt[r].a;
}

/* @n bytes of a pattern that differs in every 8-byte word: word i holds @tag | i. */
static void fill_words(uint8_t *p, size_t n, uint64_t tag)
{
	for (size_t i = 0; i < n / 8; i++) {
		uint64_t v = tag | i;

		memcpy(p + 8 * i, &v, 8);
	}
}

/* ------------------------------------------------------------ the copy fallback */

#define CP_W 384u /* elements of 4 bytes a row: a 1536-byte pitch, pages end mid-row */
#define CP_H 128u

/* A @mode-tiled CP_W x CP_H surface of 4-byte elements. */
static struct kbuf kbuf_mode(struct kt *x, struct fw_device *dev, unsigned mode)
{
	struct fw_alloc_desc d = { .width = CP_W, .height = CP_H, .bpe_log2 = 2, .tile = mode };
	struct dma_tile_info ti;

	assert_int_equal(dma_tile_info(mode, 2, &ti), GM_OK);
	d.pitch = ((CP_W << 2) + ti.tile_w_bytes - 1) & ~(ti.tile_w_bytes - 1);
	assert_int_equal(dma_tile_surface_bytes(mode, 2, d.pitch, CP_H, &d.size), GM_OK);
	return kbuf_desc(x, dev, &d, false);
}

/* The linear view of @a's bytes in VRAM (pitch a->d.pitch, whole rows),
 * untiled by the C reference, in @lin (a->d.size bytes). */
static void cp_view(struct kt *x, const struct fw_alloc *a, uint8_t *lin)
{
	uint8_t *raw = malloc(a->d.size);
	uint32_t rows = (uint32_t)(a->d.size / a->d.pitch);

	assert_non_null(raw);
	read_alloc(x, a, raw);
	memset(lin, 0, a->d.size);
	assert_int_equal(dma_tile_untile(a->d.tile, 2, a->d.pitch, raw, a->d.size,
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
	assert_int_equal(dma_tile_tile(a->d.tile, 2, a->d.pitch, raw, a->d.size, a->d.pitch >> 2,
				       (uint32_t)(a->d.size / a->d.pitch), lin, a->d.pitch,
				       a->d.size), 0);
	assert_int_equal(lock_cb(x, dev, b->h, LK_WO, 0, NULL, &pd), GM_OK);
	assert_int_equal(gm_apt_write(x->t.g, (uint32_t)pd, raw, (uint32_t)a->d.size), GM_OK);
	assert_int_equal(unlock_cb(x, dev, &b->h, 1), GM_OK);
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
 * Seed 000, item 4 of issue 14: the unswizzled-copy fallback.  With all 8
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
	A = dev_new(&x);
	S = kbuf_new(&x, A, 0x10000);
	for (unsigned r = 0; r < GPU_APT_RANGES; r++) {
		R[r] = kbuf_new(&x, A, 0x10000);
		assert_int_equal(lock_cb(&x, A, R[r].h, LK_AA, 0, NULL, NULL), GM_OK);
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
		fill_words(img, size, 0xc0de000000000000ull | (uint64_t)m << 40);
		cp_set(&x, A, &T, img);
		assert_int_equal(lock_cb(&x, A, T.h, LK_AA | LK_LE, 0, NULL, &pd), GM_OK);
		assert_true(pd >= GPU_SYSMEM_BASE);
		assert_int_equal(gm_backdoor_read(x.t.g, pd, got, view), GM_OK);
		cp_view(&x, T.a, img);
		if (memcmp(got, img, view))
			fail_msg("mode %u: the staging copy is not the untiled allocation", modes[m]);
		ROW(&x, "lock: raw while the copy fallback holds it", GM_ERR_BAD_ARG,
		    lock_cb(&x, A, T.h, 0, 0, NULL, NULL));
		fw_umd_begin(x.u);
		assert_int_equal(fw_umd_copy(x.u, S.h, 0, T.h, 0, 4096), GM_OK);
		fw_umd_cmdbuf(x.u, &cb);
		st = fw_kmd_submit_cmdbuf(x.k, A, &cb, x.buf, NULL);
		assert_int_equal(st, GM_ERR_BAD_ARG);
		cp_poke(&x, pd, img, 0, 0x1111111111111111ull);
		cp_poke(&x, pd, img, 5000, 0x2222222222222222ull);
		cp_poke(&x, pd, img, view - 8, 0x3333333333333333ull);
		assert_int_equal(unlock_cb(&x, A, &T.h, 1), GM_OK);
		assert_false(T.a->pinned);
		cp_view(&x, T.a, got);
		if (memcmp(got, img, view))
			fail_msg("mode %u: LockEntire's writes are not in the tiled allocation",
				 modes[m]);

		/* A page list: pages 5 and 1 only (pData at page 5). */
		fill_words(img, size, 0xfeed000000000000ull | (uint64_t)m << 40);
		cp_set(&x, A, &T, img);
		assert_int_equal(lock_cb(&x, A, T.h, LK_AA, 2, pages, &pd), GM_OK);
		pd -= 5 * FW_LOCK_PAGE_BYTES;
		assert_int_equal(gm_backdoor_read(x.t.g, pd, got, view), GM_OK);
		copied[1] = copied[5] = true;
		cp_pages(got, img, view, copied, "page list");
		cp_poke(&x, pd, img, 1 * FW_LOCK_PAGE_BYTES + 1000, 0x4444444444444444ull);
		cp_poke(&x, pd, img, 5 * FW_LOCK_PAGE_BYTES + 4088, 0x5555555555555555ull);
		cp_poke(&x, pd, got, 2 * FW_LOCK_PAGE_BYTES, 0x6666666666666666ull); /* not listed */
		assert_int_equal(unlock_cb(&x, A, &T.h, 1), GM_OK);
		cp_view(&x, T.a, got);
		if (memcmp(got, img, view))
			fail_msg("mode %u: the page list's writes (only theirs) not in the allocation",
				 modes[m]);

		/* ReadOnly: nothing written back. */
		assert_int_equal(lock_cb(&x, A, T.h, LK_AA | LK_LE | LK_RO, 0, NULL, &pd), GM_OK);
		cp_poke(&x, pd, got, 64, 0x7777777777777777ull);
		assert_int_equal(unlock_cb(&x, A, &T.h, 1), GM_OK);
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
		assert_int_equal(lock_cb(&x, A, D.h, LK_AA, 0, NULL, NULL), GM_ERR_NOT_AVAILABLE);
		assert_int_equal(fw_seg_get_stats(sys, &s0), GM_OK);
		assert_int_equal(lock_cb(&x, A, D.h, LK_AA | LK_LE, 0, NULL, NULL), GM_OK);
		assert_int_equal(fw_seg_get_stats(sys, &s1), GM_OK);
		assert_true(s1.free + D.a->d.size <= s0.free);
		assert_int_equal(fw_res_destroy(D.res), GM_OK);
		assert_int_equal(fw_seg_get_stats(sys, &s1), GM_OK);
		assert_int_equal(s1.free, s0.free);
		for (unsigned r = 0; r < FW_KMD_RAW_LOCKS; r++)
			assert_null(x.k->raw[r].a);
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

	assert_int_equal(dma_tile_untile(GPU_TILE_Y, 2, m->pitch, raw + m->offset,
					 a->d.size - m->offset, m->pitch >> 2, m->height, lin,
					 m->pitch, bytes), 0);
	return bytes;
}

/* How many aperture ranges hold @a. */
static unsigned ranges_of(const struct kt *x, const struct fw_alloc *a)
{
	unsigned n = 0;

	for (unsigned r = 0; r < GPU_APT_RANGES; r++)
		n += x->k->apt[r].a == a;
	return n;
}

/*
 * Seed 000, item 4 of issue 14, second part: a resource with MIP levels
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
	A = dev_new(&x);
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
	fill_words(raw, M.a->d.size, tag);
	assert_int_equal(lock_cb(&x, A, M.h, LK_WO, 0, NULL, &pd), GM_OK);
	assert_int_equal(gm_apt_write(x.t.g, (uint32_t)pd, raw, (uint32_t)M.a->d.size), GM_OK);
	assert_int_equal(unlock_cb(&x, A, &M.h, 1), GM_OK);

	/* One range per level. */
	assert_int_equal(lock_cb(&x, A, M.h, LK_AA, 0, NULL, &pd), GM_OK);
	assert_int_equal(ranges_of(&x, M.a), 3);
	for (unsigned i = 0; i < 3; i++) {
		uint64_t n = mip_view(M.a, i, raw, lin);

		n = n < 4096 ? n : 4096;
		assert_int_equal(gm_apt_read(x.t.g, (uint32_t)(pd + M.a->d.mip[i].offset), got,
					     (uint32_t)n), GM_OK);
		if (memcmp(got, lin, n))
			fail_msg("MIP level %u through its range is not its untiled bits", i);
	}
	assert_int_equal(unlock_cb(&x, A, &M.h, 1), GM_OK);
	assert_int_equal(ranges_of(&x, M.a), 0);

	/* Six ranges taken: two free for three levels. */
	for (unsigned r = 0; r < 6; r++) {
		R[r] = kbuf_new(&x, A, 0x10000);
		assert_int_equal(lock_cb(&x, A, R[r].h, LK_AA, 0, NULL, NULL), GM_OK);
	}
	ROW(&x, "lock: fewer ranges than MIP levels, no LockEntire", GM_ERR_NOT_AVAILABLE,
	    lock_cb(&x, A, M.h, LK_AA, 0, NULL, NULL));
	assert_int_equal(lock_cb(&x, A, M.h, LK_AA | LK_LE, 0, NULL, &pd), GM_OK);
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
	assert_int_equal(unlock_cb(&x, A, &M.h, 1), GM_OK);
	read_alloc(&x, M.a, raw);
	mip_view(M.a, 2, raw, got);
	assert_memory_equal(got + 1000, &tag, 8);
	printf("lock MIP levels: %" PRIu64 " paging buffers\n", x.k->st.paging_buffers);
	free(raw);
	free(lin);
	free(got);
	kt_close(&x);
}

/*
 * Seed 000, item 2 of issue 14: the synchronisation rules.  A 1 MiB FILL
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
	A = dev_new(&x);
	f = mfence_new(&x, A, 0);
	BIG = kbuf_new(&x, A, 1ull << 20);
	D = kbuf_new(&x, A, 0x10000);
	fw_umd_begin(x.u);
	umd_fill(x.u, D.h, 0, PITCH, 16, 0);
	kt_run(&x, A, f, 1);
	kt_idle(&x);

	fw_umd_begin(x.u);
	umd_fill(x.u, BIG.h, 0, PITCH, 256, 0x1111111111111111ull);
	kt_run(&x, A, f, 2);
	assert_true(fw_sched_references(x.k, BIG.a, false));
	ROW(&x, "DonotWait, the GPU writing it", GM_ERR_STILL_DRAWING,
	    lock_cb(&x, A, BIG.h, LK_NW, 0, NULL, NULL));
	ROW(&x, "DonotWait|ReadOnly|IgnoreReadSync, the GPU writing it", GM_ERR_STILL_DRAWING,
	    lock_cb(&x, A, BIG.h, LK_NW | LK_RO | FW_LOCK_IGNOREREADSYNC, 0, NULL, NULL));
	assert_int_equal(lock_cb(&x, A, BIG.h, LK_NW | LK_IS, 0, NULL, NULL), GM_OK);
	assert_true(fw_sched_references(x.k, BIG.a, false)); /* no wait */
	assert_int_equal(unlock_cb(&x, A, &BIG.h, 1), GM_OK);
	assert_int_equal(lock_cb(&x, A, BIG.h, LK_IS, 0, NULL, NULL), GM_OK);
	assert_false(fw_sched_references(x.k, BIG.a, false)); /* waited */
	expect_filled(&x, BIG.a, 0x1111111111111111ull, "locked with IgnoreSync alone");
	assert_int_equal(unlock_cb(&x, A, &BIG.h, 1), GM_OK);

	fw_umd_begin(x.u);
	umd_fill(x.u, BIG.h, 0, PITCH, 256, 0x2222222222222222ull);
	kt_run(&x, A, f, 3);
	assert_true(fw_sched_references(x.k, BIG.a, false));
	/* Discard overrides DonotWait: no WASSTILLDRAWING, another instance. */
	assert_int_equal(lock_discard(&x, A, BIG.h, LK_NW | LK_DI | LK_AA, &h), GM_OK);
	assert_int_not_equal(h, BIG.h);
	assert_true(fw_sched_references(x.k, BIG.a, false));
	assert_int_equal(unlock_cb(&x, A, &h, 1), GM_OK);
	kt_idle(&x);
	expect_filled(&x, BIG.a, 0x2222222222222222ull, "the instance the GPU wrote");

	/* A COPY reads BIG and writes D. */
	fw_umd_begin(x.u);
	umd_fill(x.u, BIG.h, 0, PITCH, 256, 0x3333333333333333ull);
	assert_int_equal(fw_umd_copy(x.u, D.h, 0, BIG.h, 0, 0x10000), GM_OK);
	kt_run(&x, A, f, 4);
	kt_idle(&x);
	fw_umd_begin(x.u);
	assert_int_equal(fw_umd_copy(x.u, D.h, 0, BIG.h, 0, 0x10000), GM_OK);
	kt_run(&x, A, f, 5);
	assert_true(fw_sched_references(x.k, BIG.a, false));
	ROW(&x, "DonotWait, the GPU reading it", GM_ERR_STILL_DRAWING,
	    lock_cb(&x, A, BIG.h, LK_NW | LK_RO, 0, NULL, NULL));
	assert_int_equal(lock_cb(&x, A, BIG.h, LK_NW | LK_RO | FW_LOCK_IGNOREREADSYNC, 0, NULL,
				 NULL), GM_OK);
	assert_true(fw_sched_references(x.k, BIG.a, false)); /* no wait for a reader */
	ROW(&x, "DonotWait|IgnoreReadSync, the GPU writing it", GM_ERR_STILL_DRAWING,
	    lock_cb(&x, A, D.h, LK_NW | FW_LOCK_IGNOREREADSYNC, 0, NULL, NULL));
	assert_int_equal(unlock_cb(&x, A, &BIG.h, 1), GM_OK);
	kt_idle(&x);
	expect_filled(&x, D.a, 0x3333333333333333ull, "the COPY's destination");

	/* The CPU's view through a driver range and raw. */
	fill_words(img, sizeof(img), 0x5eed000000000000ull);
	assert_int_equal(lock_cb(&x, A, D.h, LK_AA | LK_WO, 0, NULL, &w), GM_OK);
	assert_true(w + D.a->d.size <= GPU_APT_WINDOW_BYTES);
	assert_int_equal(gm_apt_write(x.t.g, (uint32_t)w + 0x2000, img, sizeof(img)), GM_OK);
	fw_umd_begin(x.u);
	umd_fill(x.u, D.h, 0, PITCH, 1, 0);
	fw_umd_cmdbuf(x.u, &cb);
	ROW(&x, "submit: a DMA buffer writing an allocation locked through a range",
	    GM_ERR_BAD_ARG, fw_kmd_submit_cmdbuf(x.k, A, &cb, x.buf, NULL));
	assert_int_equal(unlock_cb(&x, A, &D.h, 1), GM_OK);
	assert_int_equal(lock_cb(&x, A, D.h, LK_RO, 0, NULL, &pd), GM_OK);
	assert_int_equal(pd, D.a->loc.addr);
	assert_true(pd < GPU_APT_WINDOW_BYTES);
	assert_int_equal(gm_apt_read(x.t.g, (uint32_t)pd + 0x2000, got, sizeof(got)), GM_OK);
	assert_memory_equal(got, img, sizeof(img));
	assert_int_equal(unlock_cb(&x, A, &D.h, 1), GM_OK);
	assert_int_equal(lock_cb(&x, A, D.h, LK_AA, 1, &page3, &pd), GM_OK);
	assert_int_equal(pd, x.k->apt[0].win + 3 * FW_LOCK_PAGE_BYTES);
	assert_int_equal(gm_apt_write(x.t.g, (uint32_t)pd, img, 8), GM_OK);
	assert_int_equal(unlock_cb(&x, A, &D.h, 1), GM_OK);
	assert_int_equal(gm_backdoor_read(x.t.g, D.a->loc.addr + 3 * FW_LOCK_PAGE_BYTES, got, 8),
			 GM_OK);
	assert_memory_equal(got, img, 8);

	/* A shared allocation is not renamed: Discard|DonotWait waits. */
	d = buf_desc(1ull << 20);
	SH = kbuf_desc(&x, A, &d, true);
	fw_umd_begin(x.u);
	umd_fill(x.u, SH.h, 0, PITCH, 256, 0x6666666666666666ull);
	kt_run(&x, A, f, 6);
	assert_true(fw_sched_references(x.k, SH.a, false));
	assert_int_equal(lock_discard(&x, A, SH.h, LK_NW, &h), GM_OK);
	assert_int_equal(h, SH.h);
	assert_false(fw_sched_references(x.k, SH.a, false));
	expect_filled(&x, SH.a, 0x6666666666666666ull, "a shared allocation locked with Discard");
	assert_int_equal(unlock_cb(&x, A, &h, 1), GM_OK);
	assert_int_equal(x.k->st.tdrs, 0);
	kt_close(&x);
}

/* FILL all of a 1 MiB buffer @h with @v, then wait until dword 0 of @sem is
 * 1 (sem_set), and submit it, signalling @f = @val: busy until the CPU says. */
static void busy_fill(struct kt *x, struct fw_device *dev, uint32_t h, uint64_t v,
		      const struct kbuf *sem, uint32_t f, uint64_t val)
{
	fw_umd_begin(x->u);
	umd_fill(x->u, h, 0, PITCH, 256, v);
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
	umd_fill(x->u, h1, 0, PITCH, 1, 0x5151515151515151ull);
	umd_fill(x->u, h2, 0, PITCH, 1, 0x5252525252525252ull);
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
 * Seed 000, item 3 of issue 14: Discard renaming.  A Discard lock of an
 * allocation the GPU still writes does not wait: it hands back a new
 * instance (new handle, other memory, same family).  Once a submitted DMA
 * buffer used instance A1, a buffer referencing A0 is refused, and a patch
 * list using A2 before A1 too (nothing changed); in order it runs.  Without
 * NoExistingReference at most FW_LOCK_MAX_INSTANCES instances are made, then
 * E_OUTOFMEMORY; the seed's retry with Discard|NoExistingReference after a
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
	A = dev_new(&x);
	f = mfence_new(&x, A, 0);
	BIG = kbuf_new(&x, A, 1ull << 20);
	SEM = kbuf_new(&x, A, PITCH);
	h[0] = BIG.h;
	in[0] = BIG.a;
	fw_umd_begin(x.u);
	umd_fill(x.u, SEM.h, 0, PITCH, 1, 0);
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
		assert_int_equal(unlock_cb(&x, A, &h[i], 1), GM_OK);
		busy_fill(&x, A, h[i], 0x1010101010101010ull * (i + 1), &SEM, f, i + 1);
		if (i == 2) {
			assert_int_equal(lock_discard(&x, A, h[2], LK_LE, &g), GM_OK);
			assert_int_equal(unlock_cb(&x, A, &g, 1), GM_OK);
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
	/* The seed's retry: flush, then Discard|NoExistingReference. */
	sem_set(&x, &SEM, 1);
	kt_idle(&x);
	sem_set(&x, &SEM, 0);
	busy_fill(&x, A, h[last], 0x7777777777777777ull, &SEM, f, last + 2);
	ROW(&x, "lock: Discard after the flush, still no NoExistingReference", GM_ERR_NO_MEM,
	    lock_discard(&x, A, h[last], 0, &g));
	assert_int_equal(lock_discard(&x, A, h[last], LK_NX, &g), GM_OK);
	assert_int_equal(g, h[0]); /* the oldest idle instance, reused */
	assert_int_equal(adapter_allocs(&x), nall + last);
	assert_int_equal(unlock_cb(&x, A, &g, 1), GM_OK);
	busy_fill(&x, A, h[0], 0x2020202020202020ull, &SEM, f, last + 3);
	ROW(&x, "submit: A4 after the reused A0 was submitted", GM_ERR_BAD_ARG,
	    submit_pair(&x, A, h[last], h[last]));
	sem_set(&x, &SEM, 1);
	kt_idle(&x);
	/* Instances are evicted like any allocation: a 28 MiB lock needs it. */
	HUGE = kbuf_new(&x, A, 28ull << 20);
	assert_int_equal(lock_cb(&x, A, HUGE.h, 0, 0, NULL, NULL), GM_OK);
	assert_int_equal(unlock_cb(&x, A, &HUGE.h, 1), GM_OK);
	assert_true(in[1]->loc.seg_id == FW_KMD_SEG_SYS);
	expect_filled(&x, in[0], 0x2020202020202020ull, "reused instance A0");
	for (unsigned i = 1; i < last; i++)
		if (i != 2) /* row 0 of A2 holds submit_pair's FILL */
			expect_filled(&x, in[i], 0x1010101010101010ull * (i + 1), "an instance");
	expect_filled(&x, in[last], 0x7777777777777777ull, "the last instance");
	assert_int_equal(fw_res_destroy(BIG.res), GM_OK);
	x.ntrack = 0;
	assert_int_equal(adapter_allocs(&x), nall);
	assert_int_equal(fw_res_get_handle_data(A, h[1], &r), GM_ERR_BAD_ARG);
	assert_int_equal(x.k->st.tdrs, 0);
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

/* CPU access at pData: the aperture window, or system memory. */
static int lr_cpu(struct lr *r, uint64_t pd, uint8_t *p, uint32_t n, bool write)
{
	struct gm *g = r->x->t.g;

	if (pd < GPU_APT_WINDOW_BYTES)
		return write ? gm_apt_write(g, (uint32_t)pd, p, n) : gm_apt_read(g, (uint32_t)pd, p, n);
	return write ? gm_backdoor_write(g, pd, p, n) : gm_backdoor_read(g, pd, p, n);
}

/* A failed check names the seed and the command that repeats it. */
#define LR_CHECK(r, cond, ...)                                                                     \
	do {                                                                                     \
		if (!(cond)) {                                                                   \
			printf("failed with seed %" PRIu64 ": GPUSIM_SEED=%" PRIu64 " " BIN "\n",   \
			       (r)->seed, (r)->seed);                                            \
			fail_msg(__VA_ARGS__);                                                   \
		}                                                                                \
	} while (0)

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
	if (st == GM_ERR_NO_MEM && (flags & LK_DI)) { /* the seed's retry */
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
		LR_CHECK(r, !lr_cpu(r, a.pData, in->m, LR_BYTES, true), "write through pData");
	} else if (flags & LK_RO) {
		LR_CHECK(r, !lr_cpu(r, a.pData, buf, LR_BYTES, false), "read through pData");
		LR_CHECK(r, !memcmp(buf, in->m, LR_BYTES), "family %u read through a lock (0x%x)"
			 " differs from the model", f, flags);
	} else {
		off = (uint32_t)(tb_rand(&r->s) % LR_BYTES);
		n = 1 + (uint32_t)(tb_rand(&r->s) % (LR_BYTES - off));
		for (uint32_t i = 0; i < n; i++)
			in->m[off + i] = (uint8_t)tb_rand(&r->s);
		LR_CHECK(r, !lr_cpu(r, a.pData + off, in->m + off, n, true), "write through pData");
	}
	st = unlock_cb(r->x, r->dev, &a.hAllocation, 1);
	LR_CHECK(r, st == GM_OK, "unlock: %s", gm_status_name(st));
}

/* GPU FILLs of one row of family @f's current instance. */
static void lr_fill(struct lr *r, unsigned f)
{
	uint32_t row = (uint32_t)(tb_rand(&r->s) % (LR_BYTES / PITCH));
	uint64_t v = tb_rand(&r->s);

	fw_umd_begin(r->x->u);
	for (unsigned i = 0; i < LR_FILL_REPEAT; i++) /* long enough to race the CPU */
		umd_fill(r->x->u, r->cur[f], (uint64_t)row * PITCH, PITCH, 1, v + LR_FILL_REPEAT - 1 - i);
	kt_run(r->x, r->dev, r->fence, ++r->fv);
	model_fill(lr_find(r, r->cur[f])->m, (uint64_t)row * PITCH, PITCH, 1, v);
}

/*
 * Item 8 of issue 14 (seeded): random Lock (raw or through a range, with
 * DonotWait, ReadOnly, Discard and the seed's retry), Unlock, GPU FILLs and
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
	r.dev = dev_new(&x);
	r.fence = mfence_new(&x, r.dev, 0);
	for (unsigned f = 0; f < LR_FAMS; f++) {
		b = kbuf_new(NULL, r.dev, LR_BYTES);
		r.cur[f] = b.h;
		r.in[r.nin++] = (struct lr_inst){ .h = b.h, .fam = f };
		fw_umd_begin(x.u);
		umd_fill(x.u, b.h, 0, PITCH, 2, 0); /* content is zero from here on */
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
			assert_int_equal(lock_cb(&x, r.dev, hog.h, 0, 0, NULL, NULL), GM_OK);
			assert_int_equal(unlock_cb(&x, r.dev, &hog.h, 1), GM_OK);
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
		read_alloc(&x, a, got);
		LR_CHECK(&r, !memcmp(got, r.in[i].m, LR_BYTES),
			 "instance %u of family %u differs from the model", i, r.in[i].fam);
	}
	printf("lock random: %u instances, %" PRIu64 " evictions, %" PRIu64 " page-ins\n", r.nin,
	       x.k->st.evictions, x.k->st.page_ins);
	assert_int_equal(x.k->st.tdrs, 0);
	kt_close(&x);
}

/*
 * Issue 12, finding 1: Lock never hands out window bytes a live lock
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
	A = dev_new(&x);
	B = dev_new(&x);
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
	fill_words(pa, sz, 0xaa00000000000000ull);
	fill_words(pb, sz, 0xbb00000000000000ull);
	assert_int_equal(gm_apt_write(x.t.g, w, pa, sz), GM_OK);
	assert_int_equal(gm_apt_write(x.t.g, w + sz, pb, sz), GM_OK);
	assert_int_equal(gm_apt_read(x.t.g, w, got, sz), GM_OK);
	assert_memory_equal(got, pa, sz);
	/* Seed 000: while the CPU holds it through a range, no DMA buffer that
	 * references it is submitted. */
	fw_umd_begin(x.u);
	umd_fill(x.u, LA.h, 0, PITCH, sz / PITCH, 0x5555555555555555ull);
	fw_umd_cmdbuf(x.u, &cb);
	ROW(&x, "submit: a buffer referencing an allocation locked through the aperture",
	    GM_ERR_BAD_ARG, fw_kmd_submit_cmdbuf(x.k, A, &cb, x.buf, NULL));
	assert_int_equal(x.k->st.submits, 0);
	assert_int_equal(fw_kmd_unlock(x.k, A, LA.h, 1), GM_OK);
	assert_int_equal(fw_kmd_unlock(x.k, B, LB.h, 0), GM_OK);
	assert_int_equal(fw_kmd_unlock(x.k, B, LB2.h, 2), GM_OK);
	read_alloc(&x, LA.a, got);
	assert_memory_equal(got, pa, sz);
	read_alloc(&x, LB.a, got);
	assert_memory_equal(got, pb, sz);
	expect_filled(&x, LB2.a, 0, "the lock below, never written");
	/* Unlocked, the window is free again for anyone. */
	assert_int_equal(fw_kmd_lock(x.k, B, LB.h, 3, w), GM_OK);
	assert_int_equal(fw_kmd_unlock(x.k, B, LB.h, 3), GM_OK);
	/* and the buffer refused while it was locked goes now */
	assert_int_equal(fw_kmd_submit_cmdbuf(x.k, A, &cb, x.buf, NULL), GM_OK);
	kt_idle(&x);
	expect_filled(&x, LA.a, 0x5555555555555555ull, "LA, filled once unlocked");
	assert_int_equal(x.k->st.tdrs, 0);
	free(pa);
	free(pb);
	free(got);
	kt_close(&x);
}

/* ------------------------------------------------------------ destroy locked */

/*
 * Issue 12, finding 2: destroying a resource whose allocation is locked
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
	struct fw_alloc_desc d = buf_desc(sz);
	uint8_t *img = malloc(sz), *got = malloc(sz);
	uint32_t share, sh_b;
	uint64_t old;

	(void)state;
	assert_true(img && got);
	kt_open(&x, 16ull << 20, 200000);
	A = dev_new(&x);
	B = dev_new(&x);
	L = kbuf_new(NULL, A, sz); /* freed below: no snapshot may read it */
	assert_int_equal(fw_kmd_lock(x.k, A, L.h, 5, w), GM_OK);
	fill_words(img, sz, 0x1100000000000000ull);
	assert_int_equal(gm_apt_write(x.t.g, w, img, 64), GM_OK);
	old = L.a->loc.addr;
	assert_int_equal(fw_res_destroy(L.res), GM_OK);
	assert_null(locked_alloc(&x, 5));
	assert_int_equal(GPU_APT_CTRL_VALID_GET(tb_rd(&x.t, GPU_REG_APT_CTRL(5))), 0);

	/* N takes L's VRAM; writes through L's old window do not reach it. */
	N = kbuf_new(&x, A, sz);
	fw_umd_begin(x.u);
	umd_fill(x.u, N.h, 0, PITCH, sz / PITCH, 0x5a5a5a5a5a5a5a5aull);
	kt_run(&x, A, 0, 0);
	kt_idle(&x);
	if (N.a->loc.addr != old)
		fail_msg("N placed at 0x%" PRIx64 ", not in L's freed 0x%" PRIx64, N.a->loc.addr,
			 old);
	fill_words(img, sz, 0x2200000000000000ull);
	assert_int_equal(gm_apt_write(x.t.g, w, img, 256), GM_OK);
	expect_filled(&x, N.a, 0x5a5a5a5a5a5a5a5aull, "N after writes through L's old window");
	/* The window there is plain VRAM, linearly. */
	assert_int_equal(gm_backdoor_read(x.t.g, GPU_VRAM_BASE + w, got, 256), GM_OK);
	assert_memory_equal(got, img, 256);

	/* The range locks again, on N, and shows N. */
	assert_int_equal(fw_kmd_lock(x.k, A, N.h, 5, w), GM_OK);
	assert_int_equal(gm_apt_read(x.t.g, w, got, 256), GM_OK);
	assert_true(all_bytes(got, 256, 0x5a5a5a5a5a5a5a5aull));

	/* A shared allocation: A's destroy ends A's lock only; B still has it. */
	S = kbuf_desc(&x, A, &d, true);
	assert_int_equal(fw_res_share_handle(S.res, &share), GM_OK);
	assert_int_equal(fw_res_open(B, share, &rb), GM_OK);
	assert_int_equal(fw_res_surface_handle(rb, 0, &sh_b), GM_OK);
	assert_int_equal(fw_kmd_lock(x.k, A, S.h, 6, w2), GM_OK);
	assert_true(S.a->pinned);
	assert_int_equal(fw_res_destroy(S.res), GM_OK);
	assert_null(locked_alloc(&x, 6));
	assert_false(S.a->pinned);
	assert_int_equal(GPU_APT_CTRL_VALID_GET(tb_rd(&x.t, GPU_REG_APT_CTRL(6))), 0);
	assert_int_equal(fw_kmd_lock(x.k, B, sh_b, 6, w2), GM_OK);
	assert_int_equal(fw_kmd_unlock(x.k, B, sh_b, 6), GM_OK);

	/* Closing A with N still locked: its lock goes with it. */
	assert_int_equal(fw_kmd_device_destroy(x.k, A, BUDGET), GM_OK);
	assert_null(locked_alloc(&x, 5));
	assert_int_equal(GPU_APT_CTRL_VALID_GET(tb_rd(&x.t, GPU_REG_APT_CTRL(5))), 0);
	x.ntrack = 0; /* A's allocations are gone */
	assert_int_equal(fw_kmd_device_destroy(x.k, B, BUDGET), GM_OK);
	free(img);
	free(got);
	kt_close(&x);
}

/* ------------------------------------------------------------ device removed */

static void test_kmd_device_removed(void **state)
{
	struct kt x;
	struct fw_device *A, *B;
	struct kbuf SEM, M, L, BX, BY;
	struct fw_dmabuf *abuf = calloc(1, sizeof(*abuf));
	struct fw_signal s;
	struct fw_cmdbuf cb;
	uint32_t fa, fa2, fb, mark[2] = { 0xdead0001, 0xdead0002 }, id = 0, mp = 0;
	uint64_t c0, v;
	uint8_t *p;

	(void)state;
	assert_non_null(abuf);
	kt_open(&x, 16ull << 20, 20000);
	A = dev_new(&x);
	B = dev_new(&x);
	SEM = kbuf_new(&x, A, PITCH);
	M = kbuf_new(&x, A, 0x10000);
	L = kbuf_new(&x, A, 0x10000);
	BX = kbuf_new(&x, B, 0x10000);
	BY = kbuf_new(&x, B, 0x10000);
	fa = mfence_new(&x, A, 0);
	fa2 = mfence_new(&x, A, 5);
	fb = mfence_new(&x, B, 0);
	assert_int_equal(fw_kmd_lock(x.k, A, L.h, 3, 0), GM_OK);
	/* A's buffer for the submit row, rendered while A was alive. */
	fw_umd_begin(x.u);
	assert_int_equal(fw_umd_write(x.u, M.h, 64, mark, 2), GM_OK);
	fw_umd_cmdbuf(x.u, &cb);
	assert_int_equal(fw_kmd_render(x.k, A, &cb, &mp, abuf), GM_OK);

	/* A1 hangs on a semaphore, then would write M; B1 is queued behind it;
	 * A2 would write M again. */
	fw_umd_begin(x.u);
	assert_int_equal(fw_umd_wait_eq(x.u, SEM.h, 0, 1), GM_OK);
	assert_int_equal(fw_umd_write(x.u, M.h, 0, &mark[0], 1), GM_OK);
	kt_run(&x, A, fa, 1);
	fw_umd_begin(x.u);
	umd_fill(x.u, BX.h, 0, PITCH, 16, 0x1111111111111111ull);
	kt_run(&x, B, fb, 1);
	fw_umd_begin(x.u);
	assert_int_equal(fw_umd_write(x.u, M.h, 4, &mark[1], 1), GM_OK);
	kt_run(&x, A, fa, 2);
	c0 = gm_cycles(x.t.g);
	assert_int_equal(fw_mfence_wait(x.k, fb, 1, BUDGET), GM_OK);
	assert_true(gm_cycles(x.t.g) - c0 >= 20000); /* it took the TDR */
	assert_int_equal(x.k->st.tdrs, 1);
	assert_int_equal(x.k->st.failed, 2);
	assert_int_equal(x.k->st.resubmitted, 1);
	assert_true(fw_device_is_removed(A));
	assert_false(fw_device_is_removed(B));
	expect_filled(&x, BX.a, 0x1111111111111111ull, "B's resubmitted FILL");
	assert_int_equal(mfence_val(&x, fa), UINT64_MAX);
	assert_int_equal(mfence_val(&x, fa2), UINT64_MAX);
	assert_int_equal(fw_mfence_wait(x.k, fa, 2, 0), GM_OK);

	/* Every entry point naming A: DEVICE_REMOVED, nothing changed; the
	 * removed check comes before the other arguments. */
	fw_umd_cmdbuf(x.u, &cb);
	ROW(&x, "removed: render", GM_ERR_DEVICE_REMOVED, render_mp(&x, A, &cb, 0, x.buf));
	ROW(&x, "removed: render with a NULL command buffer", GM_ERR_DEVICE_REMOVED,
	    render_mp(&x, A, NULL, 0, x.buf));
	ROW(&x, "removed: submit_cmdbuf", GM_ERR_DEVICE_REMOVED,
	    fw_kmd_submit_cmdbuf(x.k, A, NULL, x.buf, NULL));
	ROW(&x, "removed: submit a buffer rendered before", GM_ERR_DEVICE_REMOVED,
	    fw_kmd_submit(x.k, abuf, NULL, 0, NULL));
	s = (struct fw_signal){ fa, 3 };
	ROW(&x, "removed: submit with a signal", GM_ERR_DEVICE_REMOVED,
	    fw_kmd_submit(x.k, abuf, &s, 1, NULL));
	ROW(&x, "removed: discard", GM_ERR_DEVICE_REMOVED, fw_kmd_discard(x.k, A, M.h));
	ROW(&x, "removed: mfence_create", GM_ERR_DEVICE_REMOVED, fw_mfence_create(x.k, A, 0, &id));
	ROW(&x, "removed: mfence_create with NULL id", GM_ERR_DEVICE_REMOVED,
	    fw_mfence_create(x.k, A, 0, NULL));
	ROW(&x, "removed: lock", GM_ERR_DEVICE_REMOVED, fw_kmd_lock(x.k, A, M.h, 4, 0x100000));
	ROW(&x, "removed: lock with a bad range", GM_ERR_DEVICE_REMOVED,
	    fw_kmd_lock(x.k, A, M.h, GPU_APT_RANGES, 0));
	ROW(&x, "removed: unlock", GM_ERR_DEVICE_REMOVED, fw_kmd_unlock(x.k, A, L.h, 3));
	ROW(&x, "removed: res_destroy of the locked allocation's resource", GM_ERR_DEVICE_REMOVED,
	    fw_res_destroy(L.res));
	ROW(&x, "removed: mfence_read (UINT64_MAX)", GM_OK, read_row(x.k, fa));

	/* A's queued work never runs, even once its semaphore is released. */
	assert_int_equal(gm_backdoor_write32(x.t.g, SEM.a->loc.addr, 1), GM_OK);
	fw_umd_begin(x.u);
	umd_fill(x.u, BX.h, 0, PITCH, 16, 0x2222222222222222ull);
	umd_fill(x.u, BY.h, 0, PITCH, 16, 0x4444444444444444ull);
	kt_run(&x, B, fb, 2);
	assert_int_equal(fw_mfence_wait(x.k, fb, 2, BUDGET), GM_OK);
	kt_idle(&x);
	expect_filled(&x, BX.a, 0x2222222222222222ull, "B after the TDR");
	expect_filled(&x, BY.a, 0x4444444444444444ull, "B after the TDR");
	expect_filled(&x, M.a, 0, "M (A's writes after the hang never ran)");
	assert_int_equal(mfence_val(&x, fb), 2);
	assert_int_equal(mfence_val(&x, fa), UINT64_MAX);
	assert_int_equal(x.k->st.tdrs, 1);

	/* Destroying the removed device works and frees its lock and fences. */
	assert_ptr_equal(locked_alloc(&x, 3), L.a);
	assert_int_equal(fw_kmd_device_destroy(x.k, A, 0), GM_OK);
	assert_null(locked_alloc(&x, 3));
	assert_null(x.k->mf[fa].dev);
	assert_int_equal(fw_kmd_lock(x.k, B, BY.h, 3, 0), GM_OK);
	p = malloc(0x10000);
	assert_non_null(p);
	assert_int_equal(gm_apt_read(x.t.g, 0, p, 0x10000), GM_OK);
	assert_true(all_bytes(p, 0x10000, 0x4444444444444444ull));
	assert_int_equal(fw_kmd_unlock(x.k, B, BY.h, 3), GM_OK);
	v = mfence_val(&x, fb);
	assert_int_equal(v, 2);
	free(p);
	free(abuf);
	kt_close(&x);
}

/* ------------------------------------------------------------ paging is not a hang */

/* One dword @v at the last dword of fresh allocation @b, on @dev, at the
 * default TDR limit: completes, nobody removed, the rest reads zero. */
static void one_dword_fresh(struct kt *x, struct fw_device *dev, const struct kbuf *b,
			    uint32_t f, uint64_t fv, uint32_t v)
{
	uint64_t off = b->a->d.size - 4, c0 = gm_cycles(x->t.g);
	uint32_t got = 0;
	int st;

	fw_umd_begin(x->u);
	assert_int_equal(fw_umd_write(x->u, b->h, off, &v, 1), GM_OK);
	kt_run(x, dev, f, fv);
	st = fw_mfence_wait(x->k, f, fv, BUDGET);
	if (st || x->k->st.tdrs || fw_device_is_removed(dev))
		fail_msg("one dword into a fresh %" PRIu64 " MiB allocation: %s, %" PRIu64
			 " TDR, device %s, after %" PRIu64 " cycles", b->a->d.size >> 20,
			 gm_status_name(st), x->k->st.tdrs,
			 fw_device_is_removed(dev) ? "removed" : "alive", gm_cycles(x->t.g) - c0);
	kt_idle(x);
	assert_int_equal(gm_backdoor_read32(x->t.g, b->a->loc.addr + off, &got), GM_OK);
	assert_int_equal(got, v);
	assert_int_equal(gm_backdoor_read32(x->t.g, b->a->loc.addr, &got), GM_OK);
	assert_int_equal(got, 0);
	printf("one dword into a fresh %" PRIu64 " MiB allocation: %" PRIu64 " cycles, %" PRIu64
	       " paging buffers\n", b->a->d.size >> 20, gm_cycles(x->t.g) - c0,
	       x->k->st.paging_buffers);
}

/*
 * Issue 12, finding 3: the driver's own paging is no device's hang.  At
 * the default TDR limit a single dword written into a fresh 4 MiB
 * allocation (a FILL zero page-in far longer than the limit) completes
 * and its device stays; then into a fresh 64 MiB one, which fills the
 * VRAM segment and so also evicts the 4 MiB one first (an eviction COPY).
 * Then at a TDR limit of 20000 cycles: a Lock of a fresh 4 MiB allocation
 * and one dword into another.  Then every DMA buffer slot in flight behind
 * a 16 MiB page-in: the next submission gets a slot once one retires.
 */
static void test_kmd_paging_not_hung(void **state)
{
	struct fw_kmd_cfg def;
	struct kt x;
	struct fw_device *A;
	struct kbuf Z4, Z64, Z16, S;
	uint32_t f;

	(void)state;
	fw_kmd_cfg_default(&def);
	kt_open(&x, def.vram_bytes, def.tdr_cycles);
	A = dev_new(&x);
	f = mfence_new(&x, A, 0);
	Z4 = kbuf_new(&x, A, 4ull << 20);
	Z64 = kbuf_new(&x, A, def.vram_bytes);
	one_dword_fresh(&x, A, &Z4, f, 1, 0x600df00d);
	one_dword_fresh(&x, A, &Z64, f, 2, 0x0badcafe);
	assert_int_equal(Z4.a->loc.seg_id, FW_KMD_SEG_SYS);
	assert_true(x.k->st.evictions >= 1 && x.k->st.bytes_evicted >= Z4.a->d.size);
	kt_close(&x);

	/* A TDR limit of 20000 cycles, far below a 4 MiB FILL: the pieces
	 * shrink with it.  A Lock's page-in waits for as long as they move. */
	kt_open(&x, 16ull << 20, 20000);
	A = dev_new(&x);
	f = mfence_new(&x, A, 0);
	Z4 = kbuf_new(&x, A, 4ull << 20);
	assert_int_equal(fw_kmd_lock(x.k, A, Z4.h, 0, 0), GM_OK);
	assert_int_equal(fw_kmd_unlock(x.k, A, Z4.h, 0), GM_OK);
	expect_filled(&x, Z4.a, 0, "a fresh 4 MiB allocation locked");
	Z4 = kbuf_new(&x, A, 4ull << 20);
	one_dword_fresh(&x, A, &Z4, f, 1, 0x5eed5eed);
	kt_close(&x);

	/* Every DMA buffer slot in flight behind a 16 MiB page-in: the next
	 * submission waits for a slot as long as the paging moves. */
	kt_open(&x, 32ull << 20, def.tdr_cycles);
	A = dev_new(&x);
	f = mfence_new(&x, A, 0);
	Z16 = kbuf_new(&x, A, 16ull << 20);
	S = kbuf_new(&x, A, PITCH);
	fw_umd_begin(x.u);
	umd_fill(x.u, S.h, 0, PITCH, 1, 0); /* S resident: no paging below but Z16's */
	kt_run(&x, A, f, 1);
	kt_idle(&x);
	fw_umd_begin(x.u);
	assert_int_equal(fw_umd_write(x.u, Z16.h, 0, &(uint32_t){ 1 }, 1), GM_OK);
	kt_run(&x, A, f, 2);
	for (uint32_t i = 0; i < FW_KMD_SLOTS; i++) {
		fw_umd_begin(x.u);
		assert_int_equal(fw_umd_write(x.u, S.h, 4 * i, &i, 1), GM_OK);
		kt_run(&x, A, f, 3 + i);
	}
	assert_int_equal(fw_mfence_wait(x.k, f, 2 + FW_KMD_SLOTS, BUDGET), GM_OK);
	assert_int_equal(x.k->st.tdrs, 0);
	kt_close(&x);
}

#define PR_DEVS 4u
#define PR_BUF (2ull << 20)    /* each device has two */
#define PR_VRAM (6ull << 20)   /* holds three of the eight */
#define PR_ROUNDS 2u

/*
 * Issue 12, finding 3 under eviction pressure: four devices, each
 * submission writing a dword into both of its device's 2 MiB buffers,
 * round after round through a 6 MiB VRAM segment, so that every
 * submission waits for megabytes of eviction COPYs and page-ins.  No
 * buffer hangs: no TDR, no device removed, every dword where it belongs.
 * Then one device hangs (WAIT_MEM nobody satisfies) while the others go
 * on under the same pressure: exactly one TDR, and only that device goes.
 */
static void test_kmd_eviction_pressure(void **state)
{
	struct kt x;
	struct fw_device *dev[PR_DEVS];
	struct kbuf b[PR_DEVS][2], sem;
	uint32_t f[PR_DEVS], got;
	uint64_t fv[PR_DEVS] = { 0 };

	(void)state;
	kt_open(&x, PR_VRAM, 200000);
	for (unsigned i = 0; i < PR_DEVS; i++) {
		dev[i] = dev_new(&x);
		f[i] = mfence_new(&x, dev[i], 0);
		b[i][0] = kbuf_new(&x, dev[i], PR_BUF);
		b[i][1] = kbuf_new(&x, dev[i], PR_BUF);
	}
	sem = kbuf_new(&x, dev[0], PITCH);
	for (unsigned r = 0; r < PR_ROUNDS; r++)
		for (unsigned i = 0; i < PR_DEVS; i++) {
			uint32_t v = 0xa0000000u | r << 8 | i;

			fw_umd_begin(x.u);
			assert_int_equal(fw_umd_write(x.u, b[i][0].h, 4 * r, &v, 1), GM_OK);
			assert_int_equal(fw_umd_write(x.u, b[i][1].h, PR_BUF - 4 - 4 * r, &v, 1),
					 GM_OK);
			kt_run(&x, dev[i], f[i], ++fv[i]);
		}
	kt_idle(&x);
	if (x.k->st.tdrs)
		fail_msg("no buffer hung, yet %" PRIu64 " TDR, %" PRIu64 " submissions failed",
			 x.k->st.tdrs, x.k->st.failed);
	for (unsigned i = 0; i < PR_DEVS; i++) {
		assert_false(fw_device_is_removed(dev[i]));
		assert_int_equal(mfence_val(&x, f[i]), fv[i]);
		for (unsigned r = 0; r < PR_ROUNDS; r++) {
			const struct fw_alloc *a0 = b[i][0].a, *a1 = b[i][1].a;

			assert_int_equal(gm_backdoor_read32(x.t.g, a0->loc.addr + 4 * r, &got), GM_OK);
			assert_int_equal(got, 0xa0000000u | r << 8 | i);
			assert_int_equal(gm_backdoor_read32(x.t.g, a1->loc.addr + PR_BUF - 4 - 4 * r,
							    &got), GM_OK);
			assert_int_equal(got, 0xa0000000u | r << 8 | i);
		}
	}
	printf("eviction pressure: %" PRIu64 " submissions, %" PRIu64 " evictions, %" PRIu64
	       " MiB moved, %" PRIu64 " paging buffers, %" PRIu64 " cycles\n", x.k->st.submits,
	       x.k->st.evictions, (x.k->st.bytes_evicted + x.k->st.bytes_paged_in) >> 20,
	       x.k->st.paging_buffers, gm_cycles(x.t.g));
	assert_true(x.k->st.evictions >= PR_DEVS);

	/* Device 0 hangs; the others go on under the same pressure. */
	fw_umd_begin(x.u);
	assert_int_equal(fw_umd_wait_eq(x.u, sem.h, 0, 1), GM_OK);
	kt_run(&x, dev[0], f[0], ++fv[0]);
	for (unsigned i = 1; i < PR_DEVS; i++) {
		uint32_t v = 0xb0000000u | i;

		fw_umd_begin(x.u);
		assert_int_equal(fw_umd_write(x.u, b[i][0].h, 64, &v, 1), GM_OK);
		assert_int_equal(fw_umd_write(x.u, b[i][1].h, 64, &v, 1), GM_OK);
		kt_run(&x, dev[i], f[i], ++fv[i]);
	}
	for (unsigned i = 1; i < PR_DEVS; i++)
		assert_int_equal(fw_mfence_wait(x.k, f[i], fv[i], BUDGET), GM_OK);
	kt_idle(&x);
	assert_int_equal(x.k->st.tdrs, 1);
	assert_true(fw_device_is_removed(dev[0]));
	assert_int_equal(mfence_val(&x, f[0]), UINT64_MAX);
	for (unsigned i = 1; i < PR_DEVS; i++)
		assert_false(fw_device_is_removed(dev[i]));
	kt_close(&x);
}

/* ------------------------------------------------------------ queue error */

/* A COPY from UNMAPPED into @h (the source left as a raw address, no patch
 * entry), then a WRITE_DATA of @mark at byte 0x2000 of @h. */
static void umd_bad_copy(struct fw_umd *u, uint32_t h, uint32_t mark)
{
	size_t pkt = u->b.len;

	assert_int_equal(fw_umd_copy(u, h, 0, h, 0x8000, 4096), GM_OK);
	/* fw_umd_copy records the source entry first: drop it, write the address. */
	assert_int_equal(u->loc[u->pl.len - 2].patch_offset, (pkt + 1 + GPU_PKT_COPY_SRC_LO) * 4);
	u->loc[u->pl.len - 2] = u->loc[u->pl.len - 1];
	u->pl.len--;
	u->dw[pkt + 1 + GPU_PKT_COPY_SRC_LO] = (uint32_t)UNMAPPED;
	u->dw[pkt + 1 + GPU_PKT_COPY_SRC_HI] = (uint32_t)(UNMAPPED >> 32);
	assert_int_equal(fw_umd_write(u, h, 0x2000, &mark, 1), GM_OK);
}

static void test_kmd_queue_error(void **state)
{
	struct kt x;
	struct fw_device *A, *B;
	struct kbuf X, BX;
	struct fw_cmdbuf cb;
	uint32_t fa, fb;
	uint64_t c0;
	uint8_t *p;
	const uint64_t tdr = 50000000;

	(void)state;
	kt_open(&x, 16ull << 20, tdr);
	A = dev_new(&x);
	B = dev_new(&x);
	X = kbuf_new(&x, A, 0x10000);
	BX = kbuf_new(&x, B, 0x10000);
	fa = mfence_new(&x, A, 0);
	fb = mfence_new(&x, B, 0);

	fw_umd_begin(x.u);
	umd_bad_copy(x.u, X.h, 0xbadc0de);
	fw_umd_cmdbuf(x.u, &cb);
	assert_int_equal(dma_validate_cmdbuf(cb.dw, cb.ndw,
					     &(struct dma_validate_limits){ .in_ring = false }, NULL),
			 GM_OK);
	kt_run(&x, A, fa, 1);
	fw_umd_begin(x.u);
	umd_fill(x.u, BX.h, 0, PITCH, 16, 0x3333333333333333ull);
	kt_run(&x, B, fb, 1);
	c0 = gm_cycles(x.t.g);
	assert_int_equal(fw_mfence_wait(x.k, fb, 1, 2000000), GM_OK);
	if (x.t.d.q[RQ].errors != 1 || x.t.d.q[RQ].err_cause != GPU_CAUSE_MEM_ERROR)
		fail_msg("render queue: %u errors, cause %s; want one MEM_ERROR", x.t.d.q[RQ].errors,
			 gpu_cause_name(x.t.d.q[RQ].err_cause));
	assert_true(gm_cycles(x.t.g) - c0 < tdr); /* recovered from the error, not a timeout */
	assert_int_equal(x.k->st.tdrs, 1);
	assert_int_equal(x.k->st.failed, 1);
	assert_int_equal(x.k->st.resubmitted, 1);
	assert_true(fw_device_is_removed(A));
	assert_false(fw_device_is_removed(B));
	assert_int_equal(mfence_val(&x, fa), UINT64_MAX);
	expect_filled(&x, BX.a, 0x3333333333333333ull, "B's FILL behind the faulting COPY");
	p = malloc(0x10000);
	assert_non_null(p);
	read_alloc(&x, X.a, p);
	assert_int_equal(p[0x2000], 0); /* the WRITE_DATA after the fault never ran */
	free(p);
	fw_umd_cmdbuf(x.u, &cb);
	assert_int_equal(render_mp(&x, A, &cb, 0, x.buf), GM_ERR_DEVICE_REMOVED);

	fw_umd_begin(x.u);
	umd_fill(x.u, BX.h, 0, PITCH, 16, 0x5555555555555555ull);
	kt_run(&x, B, fb, 2);
	kt_idle(&x);
	expect_filled(&x, BX.a, 0x5555555555555555ull, "B after the recovery");
	assert_int_equal(mfence_val(&x, fb), 2);
	assert_int_equal(x.t.d.q[RQ].errors, 1);
	kt_close(&x);
}

/*
 * The interrupt handler can meet a render-queue error inside a paging wait
 * of fw_kmd_submit (fw_fence_wait on the paging queue) and record it there;
 * the scheduler resets the queue after that wait.  The submission being
 * made must still go behind the older ones that the reset lost and
 * recovery resubmits.  A1 waits on a VRAM word the
 * paging queue's FILL zero of a fresh 4 MiB allocation clears, then faults;
 * B1 and B2 sit behind it; B3's page-in waits for that FILL.
 */
static void test_kmd_error_in_paging_wait(void **state)
{
	struct kt x;
	struct fw_device *A, *B;
	struct kbuf BX, Z1, Z3;
	struct fw_cmdbuf cb;
	uint32_t dw[32], fa, fb;
	uint64_t w;
	struct dma_buf b;
	const uint64_t pat[3] = { 0x1111111111111111ull, 0x2222222222222222ull,
				  0x3333333333333333ull };

	(void)state;
	kt_open(&x, 32ull << 20, 50000000);
	A = dev_new(&x);
	B = dev_new(&x);
	BX = kbuf_new(&x, B, 0x10000);
	Z1 = kbuf_new(&x, B, 4ull << 20);
	Z3 = kbuf_new(&x, B, 0x10000);
	fa = mfence_new(&x, A, 0);
	fb = mfence_new(&x, B, 0);
	fw_umd_begin(x.u);
	umd_fill(x.u, BX.h, 0, PITCH, 16, 0);
	kt_run(&x, B, 0, 0);
	kt_idle(&x);
	/* W: 1 MiB into the free VRAM after BX, where Z1 will be placed. */
	w = BX.a->loc.addr + BX.a->d.size + (1u << 20);
	assert_int_equal(gm_backdoor_write32(x.t.g, w, 0xffffffffu), GM_OK);

	dma_buf_init(&b, dw, 32);
	assert_int_equal(dma_emit_wait_mem(&b, w, 0, UINT32_MAX, GPU_FUNC_EQ, false, 16), GM_OK);
	assert_int_equal(dma_emit_copy(&b, w + 64, UNMAPPED, 256), GM_OK);
	cb = (struct fw_cmdbuf){ .dw = dw, .ndw = (uint32_t)b.len };
	{
		uint32_t mp = 0;
		struct fw_signal s = { fa, 1 };

		assert_int_equal(fw_kmd_render(x.k, A, &cb, &mp, x.buf), GM_OK);
		assert_int_equal(fw_kmd_submit(x.k, x.buf, &s, 1, NULL), GM_OK);
	}
	fw_umd_begin(x.u);
	umd_fill(x.u, BX.h, 0, PITCH, 16, pat[0]);
	kt_run(&x, B, fb, 1);
	fw_umd_begin(x.u);
	umd_fill(x.u, Z1.h, 0, PITCH, 1, 1);
	umd_fill(x.u, BX.h, 0, PITCH, 16, pat[1]);
	kt_run(&x, B, fb, 2);
	if (w < Z1.a->loc.addr || w >= Z1.a->loc.addr + Z1.a->d.size)
		fail_msg("Z1 placed at 0x%" PRIx64 ", not over W 0x%" PRIx64, Z1.a->loc.addr, w);
	assert_int_equal(x.t.d.q[RQ].errors, 0);
	fw_umd_begin(x.u);
	umd_fill(x.u, Z3.h, 0, PITCH, 1, 1);
	umd_fill(x.u, BX.h, 0, PITCH, 16, pat[2]);
	kt_run(&x, B, fb, 3);
	/* The error really was met inside that submission's paging wait. */
	assert_int_equal(x.t.d.q[RQ].errors, 1);
	assert_int_equal(x.t.d.q[RQ].err_cause, GPU_CAUSE_MEM_ERROR);
	kt_idle(&x);
	assert_true(fw_device_is_removed(A));
	assert_int_equal(x.k->st.failed, 1);
	assert_int_equal(mfence_val(&x, fb), 3);
	expect_filled(&x, BX.a, pat[2], "BX after B1, B2, B3 in submission order");
	kt_close(&x);
}

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
	A = dev_new(&x);
	X = kbuf_new(&x, A, sz);
	for (unsigned i = 0; i < 3; i++)
		P[i] = kbuf_new(&x, A, sz);
	D = kbuf_new(&x, A, sz);

	/* The buffer under test: FILL all of X, then a marker at its start. */
	fw_umd_begin(x.u);
	umd_fill(x.u, X.h, 0, PITCH, (uint32_t)(sz / PITCH), 0xaaaaaaaaaaaaaaaaull);
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
	umd_fill(x.u, X.h, 0, PITCH, (uint32_t)(sz / PITCH), 0x5555555555555555ull);
	kt_run(&x, A, 0, 0);
	for (unsigned i = 0; i < 3; i++) {
		fw_umd_begin(x.u);
		umd_fill(x.u, P[i].h, 0, PITCH, (uint32_t)(sz / PITCH),
			 0x0101010101010101ull * (i + 1));
		kt_run(&x, A, 0, 0);
	}
	fw_umd_begin(x.u);
	umd_fill(x.u, D.h, 0, PITCH, (uint32_t)(sz / PITCH), 0xddddddddddddddddull);
	kt_run(&x, A, 0, 0);
	kt_idle(&x);
	assert_int_equal(X.a->loc.seg_id, FW_KMD_SEG_SYS); /* X was the least recently used */
	expect_filled(&x, X.a, 0x5555555555555555ull, "X evicted with its content");
	assert_int_equal(gm_backdoor_read(x.t.g, old, before, sz), GM_OK);

	/* The same DMA buffer again: X comes back elsewhere, bx is patched anew. */
	assert_int_equal(fw_kmd_submit(x.k, bx, NULL, 0, NULL), GM_OK);
	kt_idle(&x);
	assert_memory_equal(bx, copy, sizeof(*bx)); /* the caller's buffer is not patched */
	nw = X.a->loc.addr;
	assert_int_equal(X.a->loc.seg_id, FW_KMD_SEG_VRAM);
	if (nw < old + sz && old < nw + sz)
		fail_msg("X paged in at 0x%" PRIx64 ", overlapping its old 0x%" PRIx64, nw, old);
	read_alloc(&x, X.a, got);
	assert_memory_equal(got, mark, sizeof(mark));
	assert_true(all_bytes(got + 16, sz - 16, 0xaaaaaaaaaaaaaaaaull));
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
			umd_fill(x->u, d->b.h, op->off, op->w, op->rows, op->v);
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
		model_fill(op->d->model, op->off, op->w, op->rows, op->v);
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
		read_alloc(x, a, got);
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
	A = dev_new(&x);
	f = mfence_new(&x, A, 0);
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
	assert_int_equal(mfence_val(&x, f), fv);
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
	A = dev_new(&x);
	f = mfence_new(&x, A, 0);
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
	assert_int_equal(mfence_val(&x, f), 2);
	assert_int_equal(x.k->st.tdrs, 0);
	printf("multipass: %" PRIu64 " DMA buffers submitted, %" PRIu64 " patch entries\n",
	       x.k->st.submits, x.k->st.patch_entries);
	for (unsigned i = 0; i < 3; i++)
		free(ev[i].model);
	free(ops);
	free(got);
	kt_close(&x);
}

/* ------------------------------------------------------------ fences */

/* Read fence @id: never below what was read before, never above what was
 * requested; counts the distinct values seen. */
static uint64_t mono(struct kt *x, uint32_t id, uint64_t *prev, unsigned *distinct)
{
	uint64_t v = mfence_val(x, id);

	if (v < *prev || v > x->k->mf[id].requested)
		fail_msg("fence %u read %" PRIu64 " after %" PRIu64 " (requested %" PRIu64 ")", id,
			 v, *prev, x->k->mf[id].requested);
	*distinct += v != *prev;
	*prev = v;
	return v;
}

static void test_kmd_mfence_monotonic(void **state)
{
	struct kt x;
	struct fw_device *A;
	struct kbuf S, T;
	struct fw_signal sig[2];
	struct fw_cmdbuf cb;
	uint64_t pf = 0, pg = 100, last_g = 100, v;
	unsigned df = 0, dg = 0, n;
	uint32_t f, g, h, mp;
	const unsigned N = 24;

	(void)state;
	kt_open(&x, 16ull << 20, 2000000);
	A = dev_new(&x);
	S = kbuf_new(&x, A, 1u << 20);
	T = kbuf_new(&x, A, 1u << 20);
	f = mfence_new(&x, A, 0);
	g = mfence_new(&x, A, 100);
	assert_int_equal(mono(&x, g, &pg, &dg), 100);
	for (unsigned i = 0; i < N; i++) {
		fw_umd_begin(x.u);
		assert_int_equal(fw_umd_copy(x.u, T.h, 0, S.h, 0, 0x20000), GM_OK);
		fw_umd_cmdbuf(x.u, &cb);
		mp = 0;
		assert_int_equal(fw_kmd_render(x.k, A, &cb, &mp, x.buf), GM_OK);
		sig[0] = (struct fw_signal){ f, i + 1 };
		sig[1] = (struct fw_signal){ g, 101 + i };
		n = i % 3 == 0 ? 2 : 1;
		if (n == 2)
			last_g = 101 + i;
		assert_int_equal(fw_kmd_submit(x.k, x.buf, sig, n, NULL), GM_OK);
		mono(&x, f, &pf, &df);
		mono(&x, g, &pg, &dg);
	}
	for (unsigned spins = 0; pf < N && spins < 100000; spins++) {
		fw_kmd_poll(x.k, 300);
		mono(&x, f, &pf, &df);
		mono(&x, g, &pg, &dg);
	}
	assert_int_equal(pf, N);
	assert_int_equal(pg, last_g);
	if (df < 6)
		fail_msg("only %u distinct values of fence %u seen in 300-cycle slices", df, f);

	/* What the CPU has read never goes back, whatever memory says. */
	assert_int_equal(gm_backdoor_write(x.t.g, x.k->mf[f].addr, &(uint64_t){ 3 }, 8), GM_OK);
	assert_int_equal(mono(&x, f, &pf, &df), N);
	ROW(&x, "mfence_wait: a value never requested", GM_ERR_BAD_ARG,
	    fw_mfence_wait(x.k, f, N + 1, BUDGET));
	ROW(&x, "mfence_wait: a value reached", GM_OK, fw_mfence_wait(x.k, f, N, BUDGET));
	ROW(&x, "mfence_wait: a value below one reached", GM_OK, fw_mfence_wait(x.k, f, 1, BUDGET));

	/* A fence made at 50: a signal must be above 50. */
	h = mfence_new(&x, A, 50);
	sig[0] = (struct fw_signal){ h, 50 };
	ROW(&x, "submit: signal equal to the fence's initial value", GM_ERR_BAD_ARG,
	    fw_kmd_submit(x.k, x.buf, sig, 1, NULL));
	sig[0].value = 49;
	ROW(&x, "submit: signal below the fence's initial value", GM_ERR_BAD_ARG,
	    fw_kmd_submit(x.k, x.buf, sig, 1, NULL));
	ROW(&x, "mfence_wait: on a fence made at 50, value 51", GM_ERR_BAD_ARG,
	    fw_mfence_wait(x.k, h, 51, BUDGET));

	/* A wait that runs out of cycles, then the same wait given enough;
	 * two ascending signals of one fence in one submission. */
	fw_umd_begin(x.u);
	assert_int_equal(fw_umd_copy(x.u, T.h, 0, S.h, 0, 1u << 20), GM_OK);
	fw_umd_cmdbuf(x.u, &cb);
	mp = 0;
	assert_int_equal(fw_kmd_render(x.k, A, &cb, &mp, x.buf), GM_OK);
	sig[0] = (struct fw_signal){ f, N + 1 };
	sig[1] = (struct fw_signal){ f, N + 2 };
	assert_int_equal(fw_kmd_submit(x.k, x.buf, sig, 2, NULL), GM_OK);
	assert_int_equal(fw_mfence_wait(x.k, f, N + 2, 100), GM_ERR_TIMEOUT);
	assert_true(mono(&x, f, &pf, &df) <= N + 2);
	assert_int_equal(fw_mfence_wait(x.k, f, N + 2, BUDGET), GM_OK);
	v = mono(&x, f, &pf, &df);
	assert_int_equal(v, N + 2);
	assert_int_equal(mono(&x, h, &(uint64_t){ 50 }, &dg), 50);
	kt_idle(&x);
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
		cmocka_unit_test(test_kmd_bad_args),
		cmocka_unit_test(test_kmd_lockflags_public),
		cmocka_unit_test(test_kmd_lock_codes),
		cmocka_unit_test(test_kmd_lock_copy),
		cmocka_unit_test(test_kmd_lock_mips),
		cmocka_unit_test(test_kmd_null_rendering),
		cmocka_unit_test(test_kmd_lock_windows),
		cmocka_unit_test(test_kmd_lock_sync),
		cmocka_unit_test(test_kmd_lock_discard),
		cmocka_unit_test(test_kmd_lock_random),
		cmocka_unit_test(test_kmd_destroy_locked),
		cmocka_unit_test(test_kmd_device_removed),
		cmocka_unit_test(test_kmd_paging_not_hung),
		cmocka_unit_test(test_kmd_eviction_pressure),
		cmocka_unit_test(test_kmd_queue_error),
		cmocka_unit_test(test_kmd_error_in_paging_wait),
		cmocka_unit_test(test_kmd_repatch_after_move),
		cmocka_unit_test(test_kmd_evict_random),
		cmocka_unit_test(test_kmd_multipass),
		cmocka_unit_test(test_kmd_mfence_monotonic),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
