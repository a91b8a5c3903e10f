/* SPDX-License-Identifier: MIT */
/*
 * test_kmd.c - the submission pipeline (fw_kmd.h) end to end on the RTL
 * model: the firmware validates and copies command buffers into DMA
 * buffers, the paging queue moves allocations, the patched buffers run on
 * the render queue, and every result is read back from the model's memory
 * wherever fw_alloc.loc says the bytes live now.
 *
 * This file holds the bad-argument table of every fw_kmd entry point; the
 * other subjects have their own files over the same fixture (kt.h):
 * test_kmd_lock.c and test_kmd_lock_paths.c (Lock), test_kmd_fence.c
 * (NullRendering, monitored fences), test_kmd_recovery.c (hangs, errors,
 * paging under the TDR limit) and test_kmd_evict.c (eviction, multipass,
 * re-patch).
 *
 * Tests (tb/testplan.txt maps them to the rules they check):
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

#define BIN "build/tests/test_kmd"

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
	ROW(x, "render: NULL command buffer", GM_ERR_BAD_ARG, kt_render_mp(x, e->A, NULL, 0, o));
	ROW(x, "render: NULL multipass", GM_ERR_BAD_ARG, fw_kmd_render(x->k, e->A, g, NULL, o));
	ROW(x, "render: NULL output", GM_ERR_BAD_ARG, kt_render_mp(x, e->A, g, 0, NULL));
	ROW(x, "render: another pipeline's device", GM_ERR_BAD_ARG, kt_render_mp(x, e->F, g, 0, o));
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
	ROW(x, "render: no dwords", GM_ERR_BAD_ARG, kt_render_mp(x, e->A, cb, 0, o));
	cb = cbx(&c, g), cb->dw = NULL;
	ROW(x, "render: NULL dwords", GM_ERR_BAD_ARG, kt_render_mp(x, e->A, cb, 0, o));
	cb = cbx(&c, g), cb->allocs = NULL;
	ROW(x, "render: allocations counted, NULL list", GM_ERR_BAD_ARG,
	    kt_render_mp(x, e->A, cb, 0, o));
	cb = cbx(&c, g), cb->locs = NULL;
	ROW(x, "render: patch entries counted, NULL list", GM_ERR_BAD_ARG,
	    kt_render_mp(x, e->A, cb, 0, o));
	cb = cbx(&c, g);
	for (unsigned i = cb->nalloc; i <= FW_KMD_MAX_ALLOCS; i++)
		c.al[i] = c.al[0];
	cb->nalloc = FW_KMD_MAX_ALLOCS + 1;
	ROW(x, "render: one allocation past FW_KMD_MAX_ALLOCS", GM_ERR_BAD_ARG,
	    kt_render_mp(x, e->A, cb, 0, o));
	ROW(x, "render: *multipass at the end", GM_ERR_BAD_ARG,
	    kt_render_mp(x, e->A, g, g->ndw, o));
	ROW(x, "render: *multipass past the end", GM_ERR_BAD_ARG,
	    kt_render_mp(x, e->A, g, g->ndw + 5, o));
	ROW(x, "render: *multipass inside the first packet", GM_ERR_BAD_ARG,
	    kt_render_mp(x, e->A, g, 1, o));
	ROW(x, "render: *multipass inside the WRITE_DATA packet", GM_ERR_BAD_ARG,
	    kt_render_mp(x, e->A, g, wd / 4 + 2, o));
	ROW(x, "render: privileged PTE_WRITE", GM_ERR_BAD_ARG,
	    kt_render_mp(x, e->A, cbx_append(&c, g, emit_pte), 0, o));
	ROW(x, "render: privileged INVALIDATE_TLB", GM_ERR_BAD_ARG,
	    kt_render_mp(x, e->A, cbx_append(&c, g, emit_inv), 0, o));
	ROW(x, "render: INDIRECT_BUFFER", GM_ERR_BAD_ARG,
	    kt_render_mp(x, e->A, cbx_append(&c, g, emit_ib), 0, o));
	ROW(x, "render: WRITE_DATA with COUNT below its minimum", GM_ERR_BAD_ARG,
	    kt_render_mp(x, e->A, cbx_append(&c, g, emit_short_wd), 0, o));
	ROW(x, "render: unknown opcode", GM_ERR_BAD_ARG,
	    kt_render_mp(x, e->A, cbx_append(&c, g, emit_bad_op), 0, o));
	ROW(x, "render: header TYPE not 3", GM_ERR_BAD_ARG,
	    kt_render_mp(x, e->A, cbx_append(&c, g, emit_bad_type), 0, o));
	ROW(x, "render: a packet running past the end", GM_ERR_BAD_ARG,
	    kt_render_mp(x, e->A, cbx_append(&c, g, emit_truncated), 0, o));
	/* A NOP of 4201 dwords: legal, but larger than a DMA buffer. */
	huge[0] = GPU_PKT_HDR(GPU_OP_NOP, 4200);
	hc = (struct fw_cmdbuf){ .dw = huge, .ndw = 4201 };
	ROW(x, "render: one packet larger than a DMA buffer", GM_ERR_BAD_ARG,
	    kt_render_mp(x, e->A, &hc, 0, o));
	cb = cbx(&c, g), c.al[0].handle = 0;
	ROW(x, "render: handle 0", GM_ERR_BAD_ARG, kt_render_mp(x, e->A, cb, 0, o));
	cb = cbx(&c, g), c.al[1].handle = e->BX.h;
	ROW(x, "render: another device's handle", GM_ERR_BAD_ARG, kt_render_mp(x, e->A, cb, 0, o));
	cb = cbx(&c, g), c.al[1].handle = e->stale;
	ROW(x, "render: a released (stale) handle", GM_ERR_BAD_ARG,
	    kt_render_mp(x, e->A, cb, 0, o));
	cb = cbx(&c, g), c.loc[1].patch_offset = 4u * g->ndw;
	ROW(x, "render: patch entry past the buffer", GM_ERR_BAD_ARG,
	    kt_render_mp(x, e->A, cb, 0, o));
	cb = cbx(&c, g), c.loc[1].patch_offset = 4u * g->ndw - 4;
	ROW(x, "render: ADDR64 patch in the last dword (runs past the end)", GM_ERR_BAD_ARG,
	    kt_render_mp(x, e->A, cb, 0, o));
	cb = cbx(&c, g), c.loc[0].alloc_index = g->nalloc;
	ROW(x, "render: patch entry naming an allocation index past the list", GM_ERR_BAD_ARG,
	    kt_render_mp(x, e->A, cb, 0, o));
	cb = cbx(&c, g), c.loc[0].alloc_offset = (uint32_t)e->X.a->d.size;
	ROW(x, "render: patch entry offset past its allocation", GM_ERR_BAD_ARG,
	    kt_render_mp(x, e->A, cb, 0, o));
	cb = cbx(&c, g), c.loc[1].patch_offset += 2;
	ROW(x, "render: patch offset not 4-aligned", GM_ERR_BAD_ARG,
	    kt_render_mp(x, e->A, cb, 0, o));
	cb = cbx(&c, g), c.loc[1].driver_id = DMA_PATCH_KIND_COUNT;
	ROW(x, "render: patch kind unknown", GM_ERR_BAD_ARG, kt_render_mp(x, e->A, cb, 0, o));
	cb = cbx(&c, g), c.loc[1].slot_id = 0x01000000u;
	ROW(x, "render: patch slot id with reserved bits", GM_ERR_BAD_ARG,
	    kt_render_mp(x, e->A, cb, 0, o));
	cb = cbx(&c, g), c.loc[1].driver_id = DMA_PATCH_FENCE_ID32;
	ROW(x, "render: FENCE_ID32 patch naming an allocation", GM_ERR_BAD_ARG,
	    kt_render_mp(x, e->A, cb, 0, o));
	cb = cbx(&c, g), c.loc[0].patch_offset = wd - 4, c.loc[0].split_offset = 0;
	ROW(x, "render: ADDR64 patch across two packets", GM_ERR_BAD_ARG,
	    kt_render_mp(x, e->A, cb, 0, o));
	cb = cbx(&c, g), c.loc[1].split_offset = c.loc[1].patch_offset + 4;
	ROW(x, "render: split offset after the patched place", GM_ERR_BAD_ARG,
	    kt_render_mp(x, e->A, cb, 0, o));
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
	s = (struct fw_signal){ e->fA, x->k->mfs->mf[e->fA].requested };
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
	kt_fill(x->u, e->BIG1.h, 0, PITCH, 1, 1);
	kt_fill(x->u, e->BIG2.h, 0, PITCH, 1, 2);
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
	uint64_t req = x->k->mfs->mf[e->fA].requested;
	uint32_t id = 0, n = 0;

	ROW(x, "mfence_create: NULL pipeline", GM_ERR_BAD_ARG,
	    fw_mfence_create(NULL, e->A, 0, &id));
	ROW(x, "mfence_create: NULL device", GM_ERR_BAD_ARG, fw_mfence_create(x->k, NULL, 0, &id));
	ROW(x, "mfence_create: NULL id", GM_ERR_BAD_ARG, fw_mfence_create(x->k, e->A, 0, NULL));
	ROW(x, "mfence_create: another pipeline's device", GM_ERR_BAD_ARG,
	    fw_mfence_create(x->k, e->F, 0, &id));
	ROW(x, "mfence_create: initial value UINT64_MAX", GM_ERR_BAD_ARG,
	    fw_mfence_create(x->k, e->A, UINT64_MAX, &id));
	ROW(x, "mfence_read: NULL pipeline", GM_ERR_BAD_ARG, kt_mfence_read_row(NULL, e->fA));
	ROW(x, "mfence_read: id 0", GM_ERR_BAD_ARG, kt_mfence_read_row(x->k, 0));
	ROW(x, "mfence_read: id past the table", GM_ERR_BAD_ARG,
	    kt_mfence_read_row(x->k, FW_KMD_MAX_MFENCES + 1));
	ROW(x, "mfence_read: a fence never created", GM_ERR_BAD_ARG,
	    kt_mfence_read_row(x->k, FW_KMD_MAX_MFENCES));
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
	assert_ptr_equal(x->k->mfs->mf[FW_KMD_MAX_MFENCES].dev, e->C);
	assert_int_equal(gm_backdoor_write32(x->t.g, e->SEMC.a->loc.addr, 1), GM_OK);
	kt_idle(x);
	assert_int_equal(x->k->st.tdrs, 0);
	assert_int_equal(fw_kmd_device_destroy(x->k, e->C, BUDGET), GM_OK);
	assert_null(x->k->mfs->mf[FW_KMD_MAX_MFENCES].dev);
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
	e.A = kt_dev_new(&x);
	e.B = kt_dev_new(&x);
	e.C = kt_dev_new(&x);
	e.F = kt_dev_new(&y);
	e.X = kbuf_new(&x, e.A, 0x10000);
	e.Y = kbuf_new(&x, e.A, 0x10000);
	e.Z = kbuf_new(&x, e.A, 0x10000);
	e.L = kbuf_new(&x, e.A, 0x10000);
	e.BIG1 = kbuf_new(&x, e.A, 5ull << 20);
	e.BIG2 = kbuf_new(&x, e.A, 5ull << 20);
	d = kt_buf_desc(0x10000);
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
	e.fA = kt_mfence_new(&x, e.A, 0);
	e.fB = kt_mfence_new(&x, e.B, 0);

	/* Z's buffer, rendered while Z has never been resident. */
	fw_umd_begin(x.u);
	kt_fill(x.u, e.Z.h, 0, PITCH, 16, 0x7777777777777777ull);
	fw_umd_cmdbuf(x.u, &cb);
	assert_int_equal(fw_kmd_render(x.k, e.A, &cb, &mp, e.zbuf), GM_OK);
	/* The good buffer, run once: X and Y resident, fence A requested 1. */
	fw_umd_begin(x.u);
	kt_fill(x.u, e.X.h, 0, PITCH, 16, 0x1111111111111111ull);
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
	kt_read_alloc(&x, e.Y.a, p);
	assert_memory_equal(p + 8, &ff, 4);
	kt_expect_filled(&x, e.X.a, 0x1111111111111111ull, "X before the last submission");
	fw_umd_begin(x.u);
	kt_fill(x.u, e.X.h, 0, PITCH, 16, 0x2222222222222222ull);
	kt_fill(x.u, e.Y.h, 0, PITCH, 16, 0x3333333333333333ull);
	kt_run(&x, e.A, e.fA, 2);
	assert_int_equal(fw_mfence_wait(x.k, e.fA, 2, BUDGET), GM_OK);
	assert_int_equal(kt_mfence_val(&x, e.fA), 2);
	kt_idle(&x);
	kt_expect_filled(&x, e.X.a, 0x2222222222222222ull, "X after the table");
	kt_expect_filled(&x, e.Y.a, 0x3333333333333333ull, "Y after the table");
	assert_int_equal(x.k->st.tdrs, 0);
	printf("bad arguments: %u rows\n", x.rows);
	free(p);
	free(e.gbuf);
	free(e.zbuf);
	free(e.bad);
	kt_close(&y);
	kt_close(&x);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kmd_bad_args),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
