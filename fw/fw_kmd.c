/* SPDX-License-Identifier: MIT */
/*
 * fw_kmd.c - the submission pipeline: Render, residency and paging,
 * Patch, SubmitCommand, retire, monitored fences, TDR, Lock.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <string.h>

#include "dma_buf.h"
#include "dma_names.h"
#include "dma_validate.h"
#include "fw_kmd.h"
#include "gpu_hw.h"

#define RENDER_Q FW_QUEUE_RENDER
#define PAGING_Q FW_QUEUE_COPY
#define WAIT_POLL_CYCLES 16u
#define RING_MAX_DW 250u           /* what fw_submit takes at once */
#define FILL_ROW_BYTES 0x10000u    /* FILL of a byte range: rows of 64 KiB */
#define COPY_MAX_BYTES 0x40000000u /* one COPY packet moves at most this */
#define SLOT_WAIT_SLICE 4096u

void fw_kmd_cfg_default(struct fw_kmd_cfg *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->vram_base = 16ull << 20;
	cfg->vram_bytes = 64ull << 20;
	cfg->sys_bytes = 16ull << 20;
	cfg->tdr_cycles = 200000;
}

static void kmd_log(struct fw_kmd *k, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void kmd_log(struct fw_kmd *k, const char *fmt, ...)
{
	va_list ap;

	if (!k->cfg.log)
		return;
	va_start(ap, fmt);
	fprintf(k->cfg.log, "[%9" PRIu64 "] kmd: ", gm_cycles(k->d->gm));
	vfprintf(k->cfg.log, fmt, ap);
	va_end(ap);
}

static uint64_t now(const struct fw_kmd *k)
{
	return gm_cycles(k->d->gm);
}

/* ------------------------------------------------------------ init */

int fw_kmd_init(struct fw_kmd *k, struct fw_dev *d, const struct fw_kmd_cfg *cfg)
{
	struct fw_seg_desc vram, sys;
	uint64_t sys_base = 0, sys_next;
	int st;

	if (!k || !d || !cfg || cfg->tdr_cycles == 0 || cfg->vram_bytes == 0 || cfg->sys_bytes == 0 ||
	    cfg->vram_base + cfg->vram_bytes > d->vram_bytes ||
	    cfg->vram_base + cfg->vram_bytes < cfg->vram_base)
		return GM_ERR_BAD_ARG;
	memset(k, 0, sizeof(*k));
	k->d = d;
	k->cfg = *cfg;
	sys_next = d->sys_next; /* what fw_alloc_sys carves below is given back on error */
	st = fw_adapter_init(&k->ad, NULL);
	if (st)
		return st;
	vram = (struct fw_seg_desc){ .id = FW_KMD_SEG_VRAM, .kind = FW_SEG_VRAM,
				     .base = GPU_VRAM_BASE + cfg->vram_base,
				     .size = cfg->vram_bytes,
				     /* BAR1 reaches the first GPU_APT_WINDOW_BYTES of VRAM */
				     .cpu_visible = cfg->vram_base + cfg->vram_bytes <=
						    GPU_APT_WINDOW_BYTES };
	st = fw_adapter_add_seg(&k->ad, &vram);
	if (!st)
		st = fw_alloc_sys(d, cfg->sys_bytes, FW_MEM_ALIGN_MAX, &sys_base);
	if (!st) {
		sys = (struct fw_seg_desc){ .id = FW_KMD_SEG_SYS, .kind = FW_SEG_SYSTEM,
					    .base = sys_base, .size = cfg->sys_bytes,
					    .cpu_visible = true };
		st = fw_adapter_add_seg(&k->ad, &sys);
	}
	for (unsigned i = 0; !st && i < FW_KMD_SLOTS; i++)
		st = fw_alloc_sys(d, FW_KMD_DMA_DW * 4ull, 256, &k->slot_addr[i]);
	if (!st)
		st = fw_alloc_sys(d, FW_KMD_DMA_DW * 4ull, 256, &k->pg.addr);
	if (!st)
		st = fw_alloc_sys(d, 8ull * (FW_KMD_MAX_MFENCES + 1), 32, &k->mf_addr);
	if (st) {
		fw_adapter_fini(&k->ad);
		d->sys_next = sys_next;
		k->d = NULL;
		return st == GM_ERR_BAD_ARG ? GM_ERR_BAD_ARG : GM_ERR_NO_MEM;
	}
	k->render_errors = d->q[RENDER_Q].errors;
	kmd_log(k, "up: VRAM segment %" PRIu64 " MiB at 0x%" PRIx64 ", system segment %" PRIu64
		   " MiB at 0x%" PRIx64 ", %u DMA buffers of %u dwords, TDR after %" PRIu64
		   " cycles\n", cfg->vram_bytes >> 20, vram.base, cfg->sys_bytes >> 20, sys_base,
		FW_KMD_SLOTS, FW_KMD_DMA_DW, cfg->tdr_cycles);
	return GM_OK;
}

void fw_kmd_fini(struct fw_kmd *k)
{
	if (!k || !k->d)
		return;
	fw_adapter_fini(&k->ad);
	k->d = NULL;
}

/* ------------------------------------------------------------ Render */

static uint32_t pkt_dw(uint32_t hdr)
{
	return GPU_HDR_COUNT_GET(hdr) + 1u;
}

static uint32_t patch_bytes(uint32_t driver_id)
{
	return driver_id == DMA_PATCH_ADDR64 ? 8u : 4u;
}

/*
 * The DMA buffer that starts at packet dword @start: whole packets while
 * they fit FW_KMD_DMA_DW dwords and FW_KMD_MAX_LOCS patch entries.  *end is
 * the dword after it (== @start: the first packet alone is too large).
 * GM_ERR_BAD_ARG when a patched place of those packets runs into the next
 * packet (a patched place belongs to one packet).  O(packets + entries).
 */
static int chunk_end(const struct fw_cmdbuf *cb, uint32_t start, uint32_t *end)
{
	uint32_t pk[FW_KMD_DMA_DW + 1]; /* packet starts, then the end */
	uint16_t cnt[FW_KMD_DMA_DW];    /* patch entries in each packet */
	uint32_t np = 0, pos = start, nloc = 0;

	while (pos < cb->ndw && pos + pkt_dw(cb->dw[pos]) - start <= FW_KMD_DMA_DW) {
		cnt[np] = 0;
		pk[np++] = pos;
		pos += pkt_dw(cb->dw[pos]);
	}
	pk[np] = pos;
	for (uint32_t i = 0; i < cb->nloc; i++) {
		uint32_t po = cb->locs[i].patch_offset / 4u, lo = 0, hi = np;

		if (po < start || po >= pos)
			continue;
		while (hi - lo > 1) { /* the last packet starting at or before po */
			uint32_t mid = (lo + hi) / 2;

			if (pk[mid] <= po)
				lo = mid;
			else
				hi = mid;
		}
		if ((uint64_t)cb->locs[i].patch_offset + patch_bytes(cb->locs[i].driver_id) >
		    4ull * pk[lo + 1])
			return GM_ERR_BAD_ARG;
		if (cnt[lo] <= FW_KMD_MAX_LOCS)
			cnt[lo]++;
	}
	*end = start;
	for (uint32_t j = 0; j < np && nloc + cnt[j] <= FW_KMD_MAX_LOCS; j++) {
		nloc += cnt[j];
		*end = pk[j + 1];
	}
	return GM_OK;
}

/* Check the patch list of @out against its allocations by patching @dw (its
 * own dwords, or scratch space as large) with zero addresses: every entry is
 * checked before any is written, and the placeholders get overwritten at
 * submit anyway. */
static int check_locs(const struct fw_dmabuf *out, uint32_t *dw)
{
	struct dma_alloc_entry ae[FW_KMD_MAX_ALLOCS];
	struct dma_patch_args pa;

	for (uint32_t i = 0; i < out->nalloc; i++)
		ae[i] = (struct dma_alloc_entry){ .handle = out->alloc[i],
						  .size = out->alloc[i]->d.size,
						  .write = out->write[i] };
	memset(&pa, 0, sizeof(pa));
	pa.dma = dw;
	pa.dma_size = out->ndw * 4u;
	pa.dma_sub_end = pa.dma_size;
	pa.allocs = ae;
	pa.alloc_count = out->nalloc;
	pa.locs = out->loc;
	pa.loc_count = out->nloc;
	pa.loc_sub_len = out->nloc;
	return dma_patch(&pa) ? GM_ERR_BAD_ARG : GM_OK;
}

int fw_kmd_render(struct fw_kmd *k, struct fw_device *dev, const struct fw_cmdbuf *cb,
		  uint32_t *multipass, struct fw_dmabuf *out)
{
	struct dma_validate_limits lim = { .in_ring = true };
	uint32_t start, pos, end;
	bool boundary = false;

	if (!k || !dev)
		return GM_ERR_BAD_ARG;
	if (fw_device_is_removed(dev))
		return GM_ERR_DEVICE_REMOVED;
	if (!cb || !multipass || !out || dev->ad != &k->ad || cb->ndw == 0 || !cb->dw ||
	    (cb->nalloc && !cb->allocs) || (cb->nloc && !cb->locs) ||
	    cb->nalloc > FW_KMD_MAX_ALLOCS || *multipass >= cb->ndw)
		return GM_ERR_BAD_ARG;
	/* The whole user buffer, as packets a user queue may run; no IBs. */
	if (dma_validate_cmdbuf(cb->dw, cb->ndw, &lim, NULL))
		return GM_ERR_BAD_ARG;
	start = *multipass;
	for (pos = 0; pos < cb->ndw && pos <= start; pos += pkt_dw(cb->dw[pos]))
		boundary |= pos == start;
	if (!boundary)
		return GM_ERR_BAD_ARG;
	for (uint32_t i = 0; i < cb->nloc; i++)
		if ((uint64_t)cb->locs[i].patch_offset + patch_bytes(cb->locs[i].driver_id) >
		    4ull * cb->ndw)
			return GM_ERR_BAD_ARG;
	if (chunk_end(cb, start, &end))
		return GM_ERR_BAD_ARG;
	if (end == start) /* one packet larger than a DMA buffer or its list */
		return GM_ERR_BAD_ARG;

	memset(out, 0, offsetof(struct fw_dmabuf, dw));
	out->dev = dev;
	out->ndw = end - start;
	memcpy(out->dw, cb->dw + start, out->ndw * 4ull);
	out->nalloc = cb->nalloc;
	for (uint32_t i = 0; i < cb->nalloc; i++) {
		int st = fw_res_get_handle_data(dev, cb->allocs[i].handle, &out->alloc[i]);

		if (st)
			return st;
		out->write[i] = cb->allocs[i].write;
	}
	out->nloc = 0;
	for (uint32_t i = 0; i < cb->nloc; i++) {
		struct dma_patch_loc l = cb->locs[i];

		if (l.patch_offset < 4u * start || l.patch_offset >= 4u * end)
			continue;
		l.patch_offset -= 4u * start;
		/* A split before this DMA buffer is no place to split it. */
		l.split_offset = l.split_offset >= 4u * start ? l.split_offset - 4u * start : UINT32_MAX;
		out->loc[out->nloc++] = l;
	}
	if (check_locs(out, out->dw))
		return GM_ERR_BAD_ARG;
	*multipass = end;
	return end == cb->ndw ? GM_OK : GM_ERR_FULL;
}

/* ------------------------------------------------------------ paging */

static int paging_emit(struct fw_kmd *k, int (*emit)(struct dma_buf *, void *), void *arg);

/* Submit the paging buffer built so far to the paging queue (no lists, no
 * context: an IB and the queue's fence). */
static int paging_flush(struct fw_kmd *k)
{
	struct fw_kmd_paging *pg = &k->pg;
	int st;

	if (pg->ndw == 0)
		return GM_OK;
	/* The previous paging buffer still occupies the memory. */
	if (pg->fence) {
		st = fw_fence_wait(k->d, PAGING_Q, pg->fence, 10 * k->cfg.tdr_cycles);
		if (st)
			return st;
	}
	gm_backdoor_write(k->d->gm, pg->addr, pg->dw, pg->ndw * 4ull);
	st = fw_submit_ib(k->d, PAGING_Q, pg->addr, pg->ndw, &pg->fence);
	if (st)
		return st;
	k->st.paging_buffers++;
	kmd_log(k, "paging buffer of %u dwords on the paging queue, fence %" PRIu64 "\n", pg->ndw,
		pg->fence);
	pg->ndw = 0;
	return GM_OK;
}

static int paging_emit(struct fw_kmd *k, int (*emit)(struct dma_buf *, void *), void *arg)
{
	struct dma_buf b;
	int st;

	for (int tries = 0; tries < 2; tries++) {
		dma_buf_init(&b, k->pg.dw, FW_KMD_DMA_DW);
		b.len = k->pg.ndw;
		st = emit(&b, arg);
		if (st != GM_ERR_FULL) {
			k->pg.ndw = (uint32_t)b.len;
			return st;
		}
		st = paging_flush(k);
		if (st)
			return st;
	}
	return GM_ERR_FULL;
}

struct xfer {
	uint64_t dst, src, bytes;
};

/* TRANSFER: COPY packets moving a whole allocation. */
static int emit_transfer(struct dma_buf *b, void *arg)
{
	const struct xfer *x = arg;
	size_t len0 = b->len;

	for (uint64_t off = 0; off < x->bytes; off += COPY_MAX_BYTES) {
		uint64_t n = x->bytes - off < COPY_MAX_BYTES ? x->bytes - off : COPY_MAX_BYTES;
		int st = dma_emit_copy(b, x->dst + off, x->src + off, (uint32_t)n);

		if (st) {
			b->len = len0;
			return st;
		}
	}
	return GM_OK;
}

/* FILL zero over a byte range: 64 KiB rows, then one short row. */
static int emit_zero(struct dma_buf *b, void *arg)
{
	const struct xfer *x = arg;
	struct dma_surf s = { .base = x->dst, .pitch = FILL_ROW_BYTES, .mode = GPU_TILE_LINEAR };
	uint64_t rows = x->bytes / FILL_ROW_BYTES, rest = x->bytes % FILL_ROW_BYTES;
	size_t len0 = b->len;
	int st = GM_OK;

	while (!st && rows) {
		uint32_t h = rows > 0xffffu ? 0xffffu : (uint32_t)rows;

		st = dma_emit_fill(b, &s, FILL_ROW_BYTES, h, 0);
		s.base += (uint64_t)h * FILL_ROW_BYTES;
		rows -= h;
	}
	if (!st && rest)
		st = dma_emit_fill(b, &s, (uint32_t)rest, 1, 0);
	if (st)
		b->len = len0;
	return st;
}

static bool in_list(struct fw_alloc *const *l, size_t n, const struct fw_alloc *a)
{
	for (size_t i = 0; i < n; i++)
		if (l[i] == a)
			return true;
	return false;
}

/* The allocations eviction must not touch: @keep plus everything a pending
 * submission references or the CPU has locked.  *n entries. */
static size_t busy_allocs(const struct fw_kmd *k, struct fw_alloc *const *keep, size_t nkeep,
			  struct fw_alloc **out, size_t cap)
{
	size_t n = 0;

	for (size_t i = 0; i < nkeep && n < cap; i++)
		out[n++] = keep[i];
	for (unsigned s = 0; s < FW_KMD_SLOTS; s++)
		for (uint32_t i = 0; k->pend[s].used && i < k->pend[s].buf.nalloc && n < cap; i++)
			out[n++] = k->pend[s].buf.alloc[i];
	return n;
}

/* Evict @a from VRAM: TRANSFER to the system segment, or drop it when its
 * content was discarded (DISCARD_CONTENT). */
static int evict_one(struct fw_kmd *k, struct fw_alloc *a)
{
	struct fw_loc prev;
	struct xfer x;
	int st;

	if (!a->content_valid) {
		st = fw_res_evict(&k->ad, a, &prev);
		if (!st) {
			k->st.discards++;
			kmd_log(k, "evict %" PRIu64 " bytes from 0x%" PRIx64 ": content discarded\n",
				a->d.size, prev.addr);
		}
		return st;
	}
	st = fw_res_place(&k->ad, a, FW_KMD_SEG_SYS, &prev);
	if (st)
		return st == GM_ERR_FULL ? GM_ERR_FULL : st;
	x = (struct xfer){ .dst = a->loc.addr, .src = prev.addr, .bytes = a->d.size };
	st = paging_emit(k, emit_transfer, &x);
	if (st)
		return st;
	k->st.evictions++;
	k->st.bytes_evicted += a->d.size;
	kmd_log(k, "evict %" PRIu64 " bytes VRAM 0x%" PRIx64 " -> system 0x%" PRIx64 "\n",
		a->d.size, prev.addr, a->loc.addr);
	return GM_OK;
}

/* Bring @a into VRAM, evicting what is neither in @busy nor pinned.  Page-in
 * is a TRANSFER from system memory, or FILL zero when there is no content. */
static int page_in(struct fw_kmd *k, struct fw_alloc *a, struct fw_alloc *const *busy, size_t nbusy)
{
	struct fw_alloc *victim[16];
	struct fw_loc prev;
	struct xfer x;
	size_t nv;
	int st;

	if (a->resident && a->loc.seg_id == FW_KMD_SEG_VRAM)
		return GM_OK;
	for (;;) {
		st = fw_res_place(&k->ad, a, FW_KMD_SEG_VRAM, &prev);
		if (st != GM_ERR_FULL)
			break;
		/* Victims for the size plus an alignment's slack; when they
		 * are too many to list or not all evictable together, evict the
		 * oldest one and try again. */
		st = fw_res_pick_victims(&k->ad, FW_KMD_SEG_VRAM, a->d.size + a->align, busy, nbusy,
					 victim, 16, &nv);
		if (st)
			st = fw_res_pick_victims(&k->ad, FW_KMD_SEG_VRAM, 1, busy, nbusy, victim, 1,
						 &nv);
		if (st)
			return st;
		if (nv == 0)
			return GM_ERR_BUSY;
		for (size_t i = 0; i < nv; i++) {
			st = evict_one(k, victim[i]);
			if (st)
				return st;
		}
	}
	if (st)
		return st;
	x = (struct xfer){ .dst = a->loc.addr, .src = prev.addr, .bytes = a->d.size };
	if (a->content_valid && prev.seg_id == FW_KMD_SEG_SYS) {
		st = paging_emit(k, emit_transfer, &x);
		k->st.page_ins++;
		k->st.bytes_paged_in += a->d.size;
		kmd_log(k, "page in %" PRIu64 " bytes system 0x%" PRIx64 " -> VRAM 0x%" PRIx64 "\n",
			a->d.size, prev.addr, a->loc.addr);
	} else {
		st = paging_emit(k, emit_zero, &x);
		k->st.fills++;
		kmd_log(k, "page in %" PRIu64 " bytes at VRAM 0x%" PRIx64 ": FILL zero (no content)\n",
			a->d.size, a->loc.addr);
	}
	if (!st)
		a->content_valid = true;
	return st;
}

/* Make every allocation of @buf resident in VRAM; paging goes out at once. */
static int make_resident(struct fw_kmd *k, const struct fw_dmabuf *buf)
{
	struct fw_alloc *busy[FW_KMD_MAX_ALLOCS * (FW_KMD_SLOTS + 1) + GPU_APT_RANGES];
	size_t nbusy = busy_allocs(k, buf->alloc, buf->nalloc, busy,
				   FW_KMD_MAX_ALLOCS * (FW_KMD_SLOTS + 1));
	int st = GM_OK, st2;

	for (unsigned r = 0; r < GPU_APT_RANGES; r++)
		if (k->apt[r])
			busy[nbusy++] = k->apt[r];
	k->use_stamp++;
	for (uint32_t i = 0; !st && i < buf->nalloc; i++) {
		st = page_in(k, buf->alloc[i], busy, nbusy);
		buf->alloc[i]->last_use = k->use_stamp;
	}
	/* Even after a failure: what moved in the books moves in memory. */
	st2 = paging_flush(k);
	return st ? st : st2;
}

/* ------------------------------------------------------------ submit */

/* Patch pend @p's DMA buffer with the current addresses and fence id and put
 * it in its slot, then the ring packets: wait for paging, the IB, the
 * monitored-fence signals, the queue fence. */
static int submit_slot(struct fw_kmd *k, unsigned slot)
{
	struct fw_kmd_pending *p = &k->pend[slot];
	struct fw_queue *rq = &k->d->q[RENDER_Q];
	struct dma_alloc_entry ae[FW_KMD_MAX_ALLOCS];
	struct dma_patch_stats ps;
	struct dma_patch_args pa;
	uint32_t ring[RING_MAX_DW];
	struct dma_buf rb;
	int st;

	for (uint32_t i = 0; i < p->buf.nalloc; i++) {
		const struct fw_alloc *a = p->buf.alloc[i];

		ae[i] = (struct dma_alloc_entry){ .handle = p->buf.alloc[i], .addr = a->loc.addr,
						  .size = a->d.size, .segment_id = a->loc.seg_id,
						  .write = p->buf.write[i] };
	}
	memcpy(k->scratch, p->buf.dw, p->buf.ndw * 4ull);
	memset(&pa, 0, sizeof(pa));
	pa.dma = k->scratch;
	pa.dma_size = p->buf.ndw * 4u;
	pa.dma_segment_id = 0;
	pa.dma_phys = k->slot_addr[slot];
	pa.dma_sub_end = pa.dma_size;
	pa.allocs = ae;
	pa.alloc_count = p->buf.nalloc;
	pa.locs = p->buf.loc;
	pa.loc_count = p->buf.nloc;
	pa.loc_sub_len = p->buf.nloc;
	pa.fence_id = (uint32_t)(rq->fence_emitted + 1);
	pa.stats = &ps;
	st = dma_patch(&pa);
	if (st) {
		kmd_log(k, "patch refused: entry %u, %s\n", ps.bad_entry, dma_patch_why_name(ps.why));
		return GM_ERR_BAD_ARG;
	}
	k->st.patches++;
	k->st.patch_entries += ps.entries;
	gm_backdoor_write(k->d->gm, k->slot_addr[slot], k->scratch, pa.dma_size);

	dma_buf_init(&rb, ring, RING_MAX_DW);
	if (k->pg.fence)
		dma_emit_wait_mem(&rb, k->d->q[PAGING_Q].fence_addr, k->pg.fence, UINT64_MAX,
				  GPU_FUNC_GE, true, WAIT_POLL_CYCLES);
	dma_emit_indirect_buffer(&rb, k->slot_addr[slot], p->buf.ndw);
	for (uint32_t i = 0; i < p->nsig; i++)
		dma_emit_release_fence(&rb, k->mf[p->sig[i].fence].addr, p->sig[i].value, true, false);
	for (uint64_t waited = 0;; waited += SLOT_WAIT_SLICE) {
		st = fw_submit(k->d, RENDER_Q, ring, (uint32_t)rb.len, &p->fence);
		if (st != GM_ERR_FULL || waited > k->cfg.tdr_cycles)
			break;
		gm_step(k->d->gm, SLOT_WAIT_SLICE);
	}
	if (st)
		return st == GM_ERR_FULL ? GM_ERR_TIMEOUT : st;
	p->submit_cycle = now(k);
	return GM_OK;
}

static bool any_pending(const struct fw_kmd *k)
{
	for (unsigned s = 0; s < FW_KMD_SLOTS; s++)
		if (k->pend[s].used)
			return true;
	return false;
}

static int free_slot(struct fw_kmd *k, unsigned *slot)
{
	for (int round = 0; round < 2; round++) {
		for (unsigned s = 0; s < FW_KMD_SLOTS; s++)
			if (!k->pend[s].used) {
				*slot = s;
				return GM_OK;
			}
		/* Every slot in flight: the oldest retires or TDR frees it. */
		fw_kmd_poll(k, 2 * k->cfg.tdr_cycles);
	}
	return GM_ERR_TIMEOUT;
}

static bool recover_errors(struct fw_kmd *k);

/* Each signal names a fence of @dev and goes above what was requested, and
 * above the earlier signals of the same fence. */
static bool signals_ok(const struct fw_kmd *k, const struct fw_device *dev,
		       const struct fw_signal *sig, uint32_t nsig)
{
	for (uint32_t i = 0; i < nsig; i++) {
		const struct fw_mfence *m = sig[i].fence <= FW_KMD_MAX_MFENCES ? &k->mf[sig[i].fence] : NULL;

		if (!m || m->dev != dev || sig[i].value <= m->requested)
			return false;
		for (uint32_t j = 0; j < i; j++)
			if (sig[j].fence == sig[i].fence && sig[j].value >= sig[i].value)
				return false;
	}
	return true;
}

int fw_kmd_submit(struct fw_kmd *k, const struct fw_dmabuf *buf, const struct fw_signal *sig,
		  uint32_t nsig, uint64_t *fence)
{
	struct fw_kmd_pending *p;
	uint64_t need = 0;
	unsigned slot;
	int st;

	if (!k || !buf || !buf->dev)
		return GM_ERR_BAD_ARG;
	if (fw_device_is_removed(buf->dev))
		return GM_ERR_DEVICE_REMOVED;
	if (buf->dev->ad != &k->ad || buf->ndw == 0 || buf->ndw > FW_KMD_DMA_DW ||
	    buf->nalloc > FW_KMD_MAX_ALLOCS || buf->nloc > FW_KMD_MAX_LOCS ||
	    nsig > FW_KMD_MAX_SIGNALS || (nsig && !sig))
		return GM_ERR_BAD_ARG;
	for (uint32_t i = 0; i < buf->nalloc; i++)
		if (!buf->alloc[i])
			return GM_ERR_BAD_ARG;
	if (!signals_ok(k, buf->dev, sig, nsig))
		return GM_ERR_BAD_ARG;
	/* The patch list too, before residency moves anything. */
	if (check_locs(buf, k->scratch))
		return GM_ERR_BAD_ARG;
	/* Allocations the VRAM segment could never hold together: refused
	 * before anything is evicted for them. */
	for (uint32_t i = 0; i < buf->nalloc; i++) {
		const struct fw_alloc *a = buf->alloc[i];

		need += (a->d.size + a->align - 1) / a->align * a->align;
	}
	if (need > k->cfg.vram_bytes)
		return GM_ERR_FULL;
	st = free_slot(k, &slot);
	if (st)
		return st;
	/* poll may have removed the device */
	if (fw_device_is_removed(buf->dev))
		return GM_ERR_DEVICE_REMOVED;
	p = &k->pend[slot];
	p->buf = *buf;
	if (nsig) /* @sig may be NULL then, and memcpy from NULL is undefined */
		memcpy(p->sig, sig, nsig * sizeof(*sig));
	p->nsig = nsig;
	for (;;) {
		/* VRAM full of what pending work uses: wait for some of it to retire. */
		while ((st = make_resident(k, &p->buf)) == GM_ERR_BUSY && any_pending(k)) {
			uint64_t done = k->st.retired + k->st.failed;

			while (any_pending(k) && k->st.retired + k->st.failed == done)
				fw_kmd_poll(k, SLOT_WAIT_SLICE);
		}
		/* A paging wait may have met a render-queue error that reset the
		 * queue: what it lost goes back on the ring before this buffer. */
		if (st || !recover_errors(k))
			break;
		if (fw_device_is_removed(buf->dev))
			return GM_ERR_DEVICE_REMOVED;
	}
	if (!st) {
		if (!any_pending(k))
			k->progress_cycle = now(k); /* the watch starts with work */
		st = submit_slot(k, slot);
	}
	if (st) {
		kmd_log(k, "submit refused: %s\n", gm_status_name(st));
		return st;
	}
	p->used = true;
	p->seq = ++k->seq;
	/* What this submission writes is content again, even if discarded before. */
	for (uint32_t i = 0; i < buf->nalloc; i++)
		if (buf->write[i])
			buf->alloc[i]->content_valid = true;
	for (uint32_t i = 0; i < nsig; i++)
		k->mf[sig[i].fence].requested = sig[i].value;
	k->st.submits++;
	if (fence)
		*fence = p->fence;
	kmd_log(k, "submit: device %u, %u dwords, %u allocations, %u patches, fence %" PRIu64 "\n",
		buf->dev->tag, buf->ndw, buf->nalloc, buf->nloc, p->fence);
	return GM_OK;
}

/* ------------------------------------------------------------ retire, TDR */

static void mfence_update(struct fw_kmd *k, struct fw_mfence *m)
{
	uint64_t v = 0;

	gm_backdoor_read64(k->d->gm, m->addr, &v);
	if (v > m->seen)
		m->seen = v;
}

/* Retire, oldest first, every submission the render fence has passed. */
static void retire(struct fw_kmd *k)
{
	const struct fw_queue *rq = &k->d->q[RENDER_Q];

	for (;;) {
		struct fw_kmd_pending *p = NULL;

		for (unsigned s = 0; s < FW_KMD_SLOTS; s++)
			if (k->pend[s].used && k->pend[s].fence <= rq->fence_seen &&
			    (!p || k->pend[s].seq < p->seq))
				p = &k->pend[s];
		if (!p)
			return;
		for (uint32_t i = 0; i < p->nsig; i++)
			mfence_update(k, &k->mf[p->sig[i].fence]);
		p->used = false;
		k->st.retired++;
		k->st.last_submit_to_retire = now(k) - p->submit_cycle;
		kmd_log(k, "retire fence %" PRIu64 " (device %u), %" PRIu64 " cycles after submit\n",
			p->fence, p->buf.dev->tag, k->st.last_submit_to_retire);
	}
}

/* The render queue was reset (hang or error): remove the device of the oldest
 * submission, push its fences to the maximum, resubmit the others in order. */
static void recover(struct fw_kmd *k, const char *why)
{
	struct fw_kmd_pending *old = NULL;
	struct fw_device *guilty;

	retire(k);
	for (unsigned s = 0; s < FW_KMD_SLOTS; s++)
		if (k->pend[s].used && (!old || k->pend[s].seq < old->seq))
			old = &k->pend[s];
	k->st.tdrs++;
	k->progress_cycle = now(k);
	if (!old)
		return;
	guilty = old->buf.dev;
	kmd_log(k, "TDR (%s): render queue reset at fence %" PRIu64 "; device %u removed\n", why,
		old->fence, guilty->tag);
	fw_device_mark_removed(guilty);
	for (unsigned i = 1; i <= FW_KMD_MAX_MFENCES; i++) {
		struct fw_mfence *m = &k->mf[i];

		if (m->dev != guilty)
			continue;
		m->requested = m->seen = UINT64_MAX;
		gm_backdoor_write(k->d->gm, m->addr, &m->seen, 8);
	}
	for (unsigned s = 0; s < FW_KMD_SLOTS; s++)
		if (k->pend[s].used && k->pend[s].buf.dev == guilty) {
			k->pend[s].used = false;
			k->st.failed++;
		}
	/* Resubmit the survivors, oldest first. */
	for (;;) {
		struct fw_kmd_pending *next = NULL;
		int st;

		for (unsigned s = 0; s < FW_KMD_SLOTS; s++) {
			struct fw_kmd_pending *p = &k->pend[s];

			if (p->used && p->fence <= k->d->q[RENDER_Q].fence_lost &&
			    (!next || p->seq < next->seq))
				next = p;
		}
		if (!next)
			break;
		st = make_resident(k, &next->buf);
		if (!st)
			st = submit_slot(k, (unsigned)(next - k->pend));
		if (st) {
			kmd_log(k, "resubmission failed (%s): device %u removed\n", gm_status_name(st),
				next->buf.dev->tag);
			next->used = false;
			k->st.failed++;
			continue;
		}
		k->st.resubmitted++;
		kmd_log(k, "resubmitted device %u's buffer as fence %" PRIu64 "\n", next->buf.dev->tag,
			next->fence);
	}
}

/* A render-queue error the interrupt handler met (in fw_kmd_poll or in a
 * paging wait) and reset the queue on: recover.  True when there was one. */
static bool recover_errors(struct fw_kmd *k)
{
	const struct fw_queue *rq = &k->d->q[RENDER_Q];
	const char *name;

	if (rq->errors == k->render_errors)
		return false;
	k->render_errors = rq->errors;
	name = gpu_cause_name(rq->err_cause);
	recover(k, name ? name : "queue error");
	return true;
}

/* Progress for the TDR watch: the render fence moved, or the paging queue
 * (which a render submission may be waiting on) did. */
static void watch(struct fw_kmd *k)
{
	uint64_t r = k->d->q[RENDER_Q].fence_seen, p = k->d->q[PAGING_Q].fence_seen;

	if (r != k->seen_render || p != k->seen_paging) {
		k->seen_render = r;
		k->seen_paging = p;
		k->progress_cycle = now(k);
	}
}

int fw_kmd_submit_cmdbuf(struct fw_kmd *k, struct fw_device *dev, const struct fw_cmdbuf *cb,
			 struct fw_dmabuf *scratch, const struct fw_signal *sig)
{
	uint32_t mp = 0;
	int st;

	do {
		/* Render checks the arguments (a removed device first); then the
		 * signal, before the first part goes. */
		st = fw_kmd_render(k, dev, cb, &mp, scratch);
		if (st != GM_OK && st != GM_ERR_FULL)
			return st;
		if (sig && !signals_ok(k, dev, sig, 1))
			return GM_ERR_BAD_ARG;
		if (st == GM_ERR_FULL)
			kmd_log(k, "command buffer continues past a full DMA buffer at dword %u\n", mp);
		st = fw_kmd_submit(k, scratch, sig, mp == cb->ndw && sig ? 1 : 0, NULL);
		if (st)
			return st;
	} while (mp < cb->ndw);
	return GM_OK;
}

int fw_kmd_poll(struct fw_kmd *k, uint64_t cycles)
{
	uint64_t end;

	if (!k || !k->d)
		return GM_ERR_BAD_ARG;
	end = now(k) + cycles;
	for (;;) {
		uint64_t t = now(k), deadline, used = 0;

		watch(k);
		retire(k);
		if (recover_errors(k))
			continue;
		if (!any_pending(k) || t >= end)
			return GM_OK;
		deadline = k->progress_cycle + k->cfg.tdr_cycles;
		if (t >= deadline) {
			fw_queue_reset(k->d, RENDER_Q);
			recover(k, "timeout");
			continue;
		}
		gm_run_until_irq(k->d->gm, (deadline < end ? deadline : end) - t, &used);
		if (gm_irq(k->d->gm) && !fw_isr(k->d))
			gm_step(k->d->gm, 1);
	}
}

int fw_kmd_idle(struct fw_kmd *k, uint64_t budget)
{
	uint64_t end;
	int st;

	if (!k || !k->d)
		return GM_ERR_BAD_ARG;
	end = now(k) + budget;
	st = fw_kmd_poll(k, budget);
	if (st)
		return st;
	if (any_pending(k))
		return GM_ERR_TIMEOUT;
	/* A paging buffer no render submission waits for (its submit failed
	 * after residency moved things) may still be moving bytes. */
	if (k->pg.fence &&
	    fw_fence_wait(k->d, PAGING_Q, k->pg.fence, end > now(k) ? end - now(k) : 0))
		return GM_ERR_TIMEOUT;
	return GM_OK;
}

/* The allocation @handle names on @dev (of @k): GetHandleData's codes. */
static int resolve(struct fw_kmd *k, struct fw_device *dev, uint32_t handle, struct fw_alloc **a)
{
	if (!k || !dev)
		return GM_ERR_BAD_ARG;
	if (fw_device_is_removed(dev))
		return GM_ERR_DEVICE_REMOVED;
	if (dev->ad != &k->ad)
		return GM_ERR_BAD_ARG;
	return fw_res_get_handle_data(dev, handle, a);
}

int fw_kmd_discard(struct fw_kmd *k, struct fw_device *dev, uint32_t handle)
{
	struct fw_alloc *a;
	int st = resolve(k, dev, handle, &a);

	if (st)
		return st;
	a->content_valid = false;
	return GM_OK;
}

/* ------------------------------------------------------------ monitored fences */

int fw_mfence_create(struct fw_kmd *k, struct fw_device *dev, uint64_t initial, uint32_t *id)
{
	if (!k || !dev)
		return GM_ERR_BAD_ARG;
	if (fw_device_is_removed(dev))
		return GM_ERR_DEVICE_REMOVED;
	if (!id || dev->ad != &k->ad || initial == UINT64_MAX)
		return GM_ERR_BAD_ARG;
	for (uint32_t i = 1; i <= FW_KMD_MAX_MFENCES; i++) {
		struct fw_mfence *m = &k->mf[i];

		if (m->dev)
			continue;
		m->dev = dev;
		m->addr = k->mf_addr + 8ull * i;
		m->requested = m->seen = initial;
		gm_backdoor_write(k->d->gm, m->addr, &initial, 8);
		*id = i;
		return GM_OK;
	}
	return GM_ERR_FULL;
}

static struct fw_mfence *mfence_get(struct fw_kmd *k, uint32_t id)
{
	if (!k || id == 0 || id > FW_KMD_MAX_MFENCES || !k->mf[id].dev)
		return NULL;
	return &k->mf[id];
}

int fw_mfence_read(struct fw_kmd *k, uint32_t id, uint64_t *value)
{
	struct fw_mfence *m = mfence_get(k, id);

	if (!m || !value)
		return GM_ERR_BAD_ARG;
	if (!fw_device_is_removed(m->dev))
		mfence_update(k, m);
	*value = m->seen;
	return GM_OK;
}

int fw_mfence_wait(struct fw_kmd *k, uint32_t id, uint64_t value, uint64_t budget)
{
	struct fw_mfence *m = mfence_get(k, id);
	uint64_t end, v;

	if (!m || value > m->requested)
		return GM_ERR_BAD_ARG;
	end = now(k) + budget;
	for (;;) {
		fw_mfence_read(k, id, &v);
		if (v >= value)
			return GM_OK;
		if (now(k) >= end || !any_pending(k))
			return GM_ERR_TIMEOUT;
		fw_kmd_poll(k, end - now(k) < SLOT_WAIT_SLICE ? end - now(k) : SLOT_WAIT_SLICE);
	}
}

/* ------------------------------------------------------------ lock, device */

static bool referenced(const struct fw_kmd *k, const struct fw_alloc *a)
{
	for (unsigned s = 0; s < FW_KMD_SLOTS; s++)
		for (uint32_t i = 0; k->pend[s].used && i < k->pend[s].buf.nalloc; i++)
			if (k->pend[s].buf.alloc[i] == a)
				return true;
	return false;
}

int fw_kmd_lock(struct fw_kmd *k, struct fw_device *dev, uint32_t handle, unsigned range,
		uint32_t win)
{
	struct fw_alloc *a;
	uint64_t end;
	int st = resolve(k, dev, handle, &a);

	if (st)
		return st;
	end = (uint64_t)win + a->d.size;
	if (range >= GPU_APT_RANGES || k->apt[range] || in_list(k->apt, GPU_APT_RANGES, a) ||
	    (win & 7u) || (a->d.pitch & 7u) || end > GPU_APT_WINDOW_BYTES ||
	    a->d.pitch > GPU_PKT_BLT_SRC_PITCH_MASK)
		return GM_ERR_BAD_ARG;
	/* The GPU is done with it (no DONOTWAIT here). */
	while (referenced(k, a)) {
		uint64_t t = now(k);

		fw_kmd_poll(k, k->cfg.tdr_cycles);
		if (now(k) == t)
			return GM_ERR_TIMEOUT;
		if (fw_device_is_removed(dev))
			return GM_ERR_DEVICE_REMOVED;
	}
	{
		struct fw_alloc *busy[FW_KMD_MAX_ALLOCS * FW_KMD_SLOTS + GPU_APT_RANGES + 1];
		size_t nbusy = busy_allocs(k, &a, 1, busy, FW_KMD_MAX_ALLOCS * FW_KMD_SLOTS + 1);

		for (unsigned r = 0; r < GPU_APT_RANGES; r++)
			if (k->apt[r])
				busy[nbusy++] = k->apt[r];
		st = page_in(k, a, busy, nbusy);
	}
	if (!st)
		st = paging_flush(k);
	if (!st && k->pg.fence)
		st = fw_fence_wait(k->d, PAGING_Q, k->pg.fence, 10 * k->cfg.tdr_cycles);
	if (!st)
		st = fw_apt_map(k->d, range, win, (uint32_t)end, a->loc.addr, a->d.tile,
				a->d.bpe_log2, a->d.pitch);
	if (st)
		return st;
	a->pinned = true;
	a->content_valid = true;
	k->apt[range] = a;
	k->apt_dev[range] = dev;
	kmd_log(k, "lock: %" PRIu64 " bytes at VRAM 0x%" PRIx64 " through aperture range %u"
		   " (window 0x%" PRIx32 ")\n", a->d.size, a->loc.addr, range, win);
	return GM_OK;
}

int fw_kmd_unlock(struct fw_kmd *k, struct fw_device *dev, uint32_t handle, unsigned range)
{
	struct fw_alloc *a;
	int st = resolve(k, dev, handle, &a);

	if (st)
		return st;
	/* Only the device that locked it (a shared allocation has several). */
	if (range >= GPU_APT_RANGES || k->apt[range] != a || k->apt_dev[range] != dev)
		return GM_ERR_BAD_ARG;
	st = fw_apt_unmap(k->d, range);
	if (st)
		return st;
	k->apt[range] = NULL;
	k->apt_dev[range] = NULL;
	a->pinned = a->d.pinned;
	return GM_OK;
}

int fw_kmd_device_destroy(struct fw_kmd *k, struct fw_device *dev, uint64_t budget)
{
	uint64_t end;
	bool busy;

	if (!k || !dev || dev->ad != &k->ad)
		return GM_ERR_BAD_ARG;
	end = now(k) + budget;
	for (;;) {
		busy = false;
		for (unsigned s = 0; s < FW_KMD_SLOTS; s++)
			busy |= k->pend[s].used && k->pend[s].buf.dev == dev;
		if (!busy)
			break;
		if (now(k) >= end)
			return GM_ERR_TIMEOUT;
		fw_kmd_poll(k, end - now(k));
	}
	for (unsigned i = 1; i <= FW_KMD_MAX_MFENCES; i++)
		if (k->mf[i].dev == dev)
			memset(&k->mf[i], 0, sizeof(k->mf[i]));
	for (unsigned r = 0; r < GPU_APT_RANGES; r++)
		if (k->apt_dev[r] == dev) {
			fw_apt_unmap(k->d, r);
			k->apt[r]->pinned = k->apt[r]->d.pinned;
			k->apt[r] = NULL;
			k->apt_dev[r] = NULL;
		}
	fw_device_destroy(dev);
	return GM_OK;
}
