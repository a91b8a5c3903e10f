/* SPDX-License-Identifier: MIT */
/*
 * fw_sched.c - the render queue's scheduler: SubmitCommand, retire, TDR
 * decision and recovery, CPU waits (see fw_sched.h).
 */
#include <inttypes.h>
#include <string.h>

#include "dma_buf.h"
#include "gpu_names.h"
#include "fw_mfence.h"
#include "fw_render.h"
#include "fw_sched.h"
#include "fw_submit.h"
#include "gpu_hw.h"

#define RENDER_Q FW_QUEUE_RENDER
#define SLOT_WAIT_SLICE 4096u

static uint64_t now(const struct fw_kmd *k)
{
	return gm_cycles(k->d->gm);
}

static int recover_errors(struct fw_kmd *k, bool *recovered);

/* The roles' hooks (fw_sched.h): each phase calls them in k->sched_ops order. */
#define EACH_ROLE(k, o)                                                                     \
	for (const struct fw_sched_ops *const *o = (k)->sched_ops;                          \
	     o < (k)->sched_ops + FW_SCHED_ROLES; o++)                                      \
		if (*o)

static int roles_check(const struct fw_kmd *k, const struct fw_dmabuf *buf,
		       const struct fw_signal *sig, uint32_t nsig)
{
	EACH_ROLE(k, o)
		if ((*o)->check) {
			int st = (*o)->check(k, buf, sig, nsig);

			if (st)
				return st;
		}
	return GM_OK;
}

static int roles_prepare(struct fw_kmd *k, const struct fw_dmabuf *buf)
{
	EACH_ROLE(k, o)
		if ((*o)->prepare) {
			int st = (*o)->prepare(k, buf);

			if (st)
				return st;
		}
	return GM_OK;
}

static int roles_resident(struct fw_kmd *k, const struct fw_dmabuf *buf)
{
	EACH_ROLE(k, o)
		if ((*o)->resident) {
			int st = (*o)->resident(k, buf);

			if (st)
				return st;
		}
	return GM_OK;
}

static void roles_patch(const struct fw_kmd *k, struct fw_dmabuf *buf, struct fw_sched_run *run)
{
	*run = (struct fw_sched_run){ 0 };
	EACH_ROLE(k, o)
		if ((*o)->patch)
			(*o)->patch(k, buf, run);
}

/* Every role's hook runs; the first code is the result. */
static int roles_submitted(struct fw_kmd *k, const struct fw_dmabuf *buf)
{
	int st = GM_OK;

	EACH_ROLE(k, o)
		if ((*o)->submitted) {
			int r = (*o)->submitted(k, buf);

			st = st ? st : r;
		}
	return st;
}

static void roles_removed(struct fw_kmd *k, const struct fw_device *dev)
{
	EACH_ROLE(k, o)
		if ((*o)->removed)
			(*o)->removed(k, dev);
}

static int roles_progress(struct fw_kmd *k, uint64_t *count)
{
	*count = 0;
	EACH_ROLE(k, o)
		if ((*o)->progress) {
			uint64_t c;
			int st = (*o)->progress(k, &c);

			if (st)
				return st;
			*count += c;
		}
	return GM_OK;
}

/* Patch pend @p's DMA buffer into its slot (the roles' patch hooks first:
 * where each allocation is now, what the IB waits for, its VMID), then
 * submit it (DxgkDdiPatch, DxgkDdiSubmitCommand: fw_submit.h).
 * NullRendering: only the signals and the fence (nothing runs). */
static int submit_slot(struct fw_kmd *k, unsigned slot)
{
	struct fw_kmd_pending *p = &k->sch->pend[slot];
	struct fw_ddi_submit sub = { .null = p->buf.flags & DMA_PATCH_F_NULL_RENDERING,
				     .dma_addr = k->sch->slot_addr[slot], .ndw = p->buf.ndw,
				     .nsig = p->nsig, .ring_wait_cycles = k->cfg.tdr_cycles };
	int st;

	if (!sub.null) {
		struct fw_sched_run run;
		struct dma_patch_stats ps;

		roles_patch(k, &p->buf, &run);
		sub.wait_fence = run.wait_fence;
		sub.vmid = run.vmid;
		st = fw_ddi_patch(k->d, &p->buf, sub.dma_addr,
				  (uint32_t)(k->d->q[RENDER_Q].fence_emitted + 1), k->sch->scratch, &ps);
		if (st == GM_ERR_BAD_ARG)
			FW_KMD_LOG(k, "patch refused: entry %u, %s\n", ps.bad_entry,
				   dma_patch_why_name(ps.why));
		if (st != GM_ERR_BAD_ARG) {
			k->st.patches++;
			k->st.patch_entries += ps.entries;
		}
		if (st)
			return st;
	}
	for (uint32_t i = 0; i < p->nsig; i++) {
		sub.sig_addr[i] = fw_mfence_addr(k, p->sig[i].fence);
		sub.sig_value[i] = p->sig[i].value;
	}
	st = fw_ddi_submit_command(k->d, &sub, &p->fence);
	if (st)
		return st;
	p->submit_cycle = now(k);
	return GM_OK;
}

static bool any_pending(const struct fw_kmd *k)
{
	for (unsigned s = 0; s < FW_KMD_SLOTS; s++)
		if (k->sch->pend[s].used)
			return true;
	return false;
}

static int free_slot(struct fw_kmd *k, unsigned *slot)
{
	for (;;) {
		uint64_t seen = k->sch->progress_cycle;
		int st;

		for (unsigned s = 0; s < FW_KMD_SLOTS; s++)
			if (!k->sch->pend[s].used) {
				*slot = s;
				return GM_OK;
			}
		/* Every slot in flight: the oldest retires or TDR frees it, which
		 * may take long behind paging that keeps moving. */
		st = fw_kmd_poll(k, 2 * k->cfg.tdr_cycles);
		if (st)
			return st;
		if (k->sch->progress_cycle == seen)
			return GM_ERR_TIMEOUT;
	}
}

/* Poll until one more submission retired or failed, or none is pending. */
static int wait_retire(struct fw_kmd *k)
{
	uint64_t done = k->st.retired + k->st.failed;
	int st = GM_OK;

	while (!st && any_pending(k) && k->st.retired + k->st.failed == done)
		st = fw_kmd_poll(k, SLOT_WAIT_SLICE);
	return st;
}

int fw_kmd_submit(struct fw_kmd *k, const struct fw_dmabuf *buf, const struct fw_signal *sig,
		  uint32_t nsig, uint64_t *fence)
{
	struct fw_kmd_pending *p;
	bool again;
	unsigned slot;
	int st;

	if (!k || !buf || !buf->dev)
		return GM_ERR_BAD_ARG;
	if (fw_device_is_removed(buf->dev))
		return GM_ERR_DEVICE_REMOVED;
	if (buf->dev->ad != &k->ad || buf->ndw == 0 || buf->ndw > FW_KMD_DMA_DW ||
	    buf->nalloc > FW_KMD_MAX_ALLOCS || buf->nloc > FW_KMD_MAX_LOCS ||
	    nsig > FW_KMD_MAX_SIGNALS || (nsig && !sig) || !fw_render_flags_ok(buf->flags))
		return GM_ERR_BAD_ARG;
	for (uint32_t i = 0; i < buf->nalloc; i++)
		if (!buf->alloc[i].handle)
			return GM_ERR_BAD_ARG;
	if (!fw_mfence_signals_ok(k, buf->dev, sig, nsig))
		return GM_ERR_BAD_ARG;
	/* The patch list too, before residency moves anything. */
	if (fw_render_check_locs(buf, k->sch->scratch))
		return GM_ERR_BAD_ARG;
	st = roles_check(k, buf, sig, nsig);
	if (!st && !(buf->flags & DMA_PATCH_F_NULL_RENDERING))
		st = roles_prepare(k, buf);
	if (st)
		return st;
	st = free_slot(k, &slot);
	if (st)
		return st;
	/* poll may have removed the device */
	if (fw_device_is_removed(buf->dev))
		return GM_ERR_DEVICE_REMOVED;
	p = &k->sch->pend[slot];
	p->buf = *buf;
	if (nsig) /* @sig may be NULL then, and memcpy from NULL is undefined */
		memcpy(p->sig, sig, nsig * sizeof(*sig));
	p->nsig = nsig;
	/* NullRendering: no packet runs, so nothing needs to be resident. */
	for (st = GM_OK; !(buf->flags & DMA_PATCH_F_NULL_RENDERING);) {
		/* VRAM full of what pending work uses: wait for some of it to retire. */
		while ((st = roles_resident(k, &p->buf)) == GM_ERR_BUSY && any_pending(k)) {
			st = wait_retire(k);
			if (st)
				break;
		}
		/* A paging wait may have met a render-queue error: the queue is
		 * reset and what it lost goes back on the ring before this buffer. */
		if (!st)
			st = recover_errors(k, &again);
		if (st || !again)
			break;
		if (fw_device_is_removed(buf->dev))
			return GM_ERR_DEVICE_REMOVED;
	}
	if (!st) {
		if (!any_pending(k))
			k->sch->progress_cycle = now(k); /* the watch starts with work */
		st = submit_slot(k, slot);
	}
	if (st) {
		FW_KMD_LOG(k, "submit refused: %s\n", gm_status_name(st));
		return st;
	}
	p->used = true;
	p->seq = ++k->sch->seq;
	fw_mfence_request(k, sig, nsig);
	k->st.submits++;
	/* Lock: its instances are the newest; GPU-VA: page-table updates waiting
	 * for what it signals may go now; paging: what it writes is content. */
	st = roles_submitted(k, buf);
	if (fence)
		*fence = p->fence;
	FW_KMD_LOG(k, "submit: device %u, %u dwords, %u allocations, %u patches, fence %" PRIu64 "\n",
		buf->dev->tag, buf->ndw, buf->nalloc, buf->nloc, p->fence);
	return st;
}

/* Retire, oldest first, every submission the render fence has passed. */
static int retire(struct fw_kmd *k)
{
	const struct fw_queue *rq = &k->d->q[RENDER_Q];

	for (;;) {
		struct fw_kmd_pending *p = NULL;
		int st;

		for (unsigned s = 0; s < FW_KMD_SLOTS; s++)
			if (k->sch->pend[s].used && k->sch->pend[s].fence <= rq->fence_seen &&
			    (!p || k->sch->pend[s].seq < p->seq))
				p = &k->sch->pend[s];
		if (!p)
			return GM_OK;
		st = fw_mfence_retire(k, p->sig, p->nsig);
		if (st)
			return st;
		p->used = false;
		k->st.retired++;
		k->st.last_submit_to_retire = now(k) - p->submit_cycle;
		FW_KMD_LOG(k, "retire fence %" PRIu64 " (device %u), %" PRIu64 " cycles after submit\n",
			p->fence, p->buf.dev->tag, k->st.last_submit_to_retire);
	}
}

/* After the render queue's reset: remove the device of the oldest
 * submission, push its fences to the maximum, resubmit the others in order. */
static int recover(struct fw_kmd *k, const char *why)
{
	struct fw_kmd_pending *old = NULL;
	struct fw_device *guilty;
	int st = retire(k);

	if (st)
		return st;
	for (unsigned s = 0; s < FW_KMD_SLOTS; s++)
		if (k->sch->pend[s].used && (!old || k->sch->pend[s].seq < old->seq))
			old = &k->sch->pend[s];
	k->st.tdrs++;
	k->sch->progress_cycle = now(k);
	if (!old)
		return GM_OK;
	guilty = old->buf.dev;
	FW_KMD_LOG(k, "TDR (%s): render queue reset at fence %" PRIu64 "; device %u removed\n", why,
		old->fence, guilty->tag);
	/* Never removed before: a removed device's submissions went with it. */
	st = fw_device_mark_removed(guilty);
	if (!st)
		st = fw_mfence_remove_device(k, guilty);
	roles_removed(k, guilty);
	if (st)
		return st;
	for (unsigned s = 0; s < FW_KMD_SLOTS; s++)
		if (k->sch->pend[s].used && k->sch->pend[s].buf.dev == guilty) {
			k->sch->pend[s].used = false;
			k->st.failed++;
		}
	/* Resubmit the survivors, oldest first. */
	for (;;) {
		struct fw_kmd_pending *next = NULL;

		for (unsigned s = 0; s < FW_KMD_SLOTS; s++) {
			struct fw_kmd_pending *p = &k->sch->pend[s];

			if (p->used && p->fence <= k->d->q[RENDER_Q].fence_lost &&
			    (!next || p->seq < next->seq))
				next = p;
		}
		if (!next)
			return GM_OK;
		st = roles_resident(k, &next->buf);
		if (!st)
			st = submit_slot(k, (unsigned)(next - k->sch->pend));
		if (st) {
			FW_KMD_LOG(k, "resubmission failed (%s): device %u removed\n", gm_status_name(st),
				next->buf.dev->tag);
			next->used = false;
			k->st.failed++;
			continue;
		}
		k->st.resubmitted++;
		FW_KMD_LOG(k, "resubmitted device %u's buffer as fence %" PRIu64 "\n", next->buf.dev->tag,
			next->fence);
	}
}

/*
 * The one place that resets the render queue (panfrost's timedout_job):
 * after a hang (@why "timeout") or an error the interrupt handler recorded
 * (@why its cause); then the recovery.
 */
static int reset_and_recover(struct fw_kmd *k, const char *why)
{
	uint64_t resubmitted = k->st.resubmitted;
	char mark[48];
	int st;

	/* A waveform's markers: the decision here, the queue's reset where the
	 * GPU takes it (model/gm.c), and the end of the recovery. */
	snprintf(mark, sizeof(mark), "TDR (%s)", why);
	gm_wave_mark(k->d->gm, GM_MARK_NOTE, mark);
	st = fw_queue_reset(k->d, RENDER_Q);
	if (!st)
		st = recover(k, why);
	snprintf(mark, sizeof(mark), "recovered, %" PRIu64 " resubmitted",
		 k->st.resubmitted - resubmitted);
	if (!st)
		gm_wave_mark(k->d->gm, GM_MARK_NOTE, mark);
	return st;
}

/*
 * Act on the interrupt handler's record: a render queue halted on an error
 * (met in fw_kmd_poll or in a paging wait) is reset and recovered;
 * *recovered says whether there was one.  An error on the paging queue is
 * left as recorded: the halted queue fails every later paging wait (not
 * recovered: only a driver bug could cause one, paging buffers come from
 * the books).
 */
static int recover_errors(struct fw_kmd *k, bool *recovered)
{
	const struct fw_queue *rq = &k->d->q[RENDER_Q];
	const char *name;

	*recovered = rq->halted;
	if (!rq->halted)
		return GM_OK;
	name = gpu_cause_name(rq->err_cause);
	return reset_and_recover(k, name ? name : "queue error");
}

/*
 * Progress for the TDR watch: the render fence moved, or a role's own work
 * moved (the paging queue finished a piece of paging work, fw_paging.h).  A render submission
 * waiting for its paging is the driver's work, not the device's hang: its
 * own tdr_cycles run from the last piece.  GM_OK; GM_ERR_ADDR.
 */
static int watch(struct fw_kmd *k)
{
	uint64_t r = k->d->q[RENDER_Q].fence_seen, p;
	int st = roles_progress(k, &p);

	if (!st && (r != k->sch->seen_render || p != k->sch->seen_pieces)) {
		k->sch->seen_render = r;
		k->sch->seen_pieces = p;
		k->sch->progress_cycle = now(k);
	}
	return st;
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
		if (sig && !fw_mfence_signals_ok(k, dev, sig, 1))
			return GM_ERR_BAD_ARG;
		if (st == GM_ERR_FULL)
			FW_KMD_LOG(k, "command buffer continues past a full DMA buffer at dword %u\n", mp);
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
		uint32_t bits;
		bool again;
		int st;

		st = watch(k);
		if (!st)
			st = retire(k);
		if (!st)
			st = recover_errors(k, &again);
		if (st)
			return st;
		if (again)
			continue;
		if (!any_pending(k) || t >= end)
			return GM_OK;
		deadline = k->sch->progress_cycle + k->cfg.tdr_cycles;
		if (t >= deadline) {
			st = reset_and_recover(k, "timeout");
			if (st)
				return st;
			continue;
		}
		/* Up to the deadline or an interrupt: the handler records what
		 * happened, the loop above acts on it. */
		st = gm_run_until_irq(k->d->gm, (deadline < end ? deadline : end) - t, &used);
		if (st == GM_ERR_HW) /* the model stopped on an RTL assertion */
			return st;
		if (st)
			continue;
		st = fw_isr(k->d, &bits);
		if (!st && !bits)
			st = gm_step(k->d->gm, 1);
		if (st)
			return st;
	}
}

bool fw_sched_busy(const struct fw_kmd *k)
{
	return any_pending(k);
}

bool fw_sched_references(const struct fw_kmd *k, const struct fw_alloc *a, bool writes_only)
{
	for (unsigned s = 0; s < FW_KMD_SLOTS; s++)
		for (uint32_t i = 0; k->sch->pend[s].used && i < k->sch->pend[s].buf.nalloc; i++)
			if (fw_dmabuf_alloc(&k->sch->pend[s].buf, i) == a &&
			    (!writes_only || k->sch->pend[s].buf.alloc[i].write))
				return true;
	return false;
}

size_t fw_sched_allocs(const struct fw_kmd *k, struct fw_alloc **out)
{
	size_t n = 0;

	for (unsigned s = 0; s < FW_KMD_SLOTS; s++)
		for (uint32_t i = 0; k->sch->pend[s].used && i < k->sch->pend[s].buf.nalloc; i++)
			out[n++] = fw_dmabuf_alloc(&k->sch->pend[s].buf, i);
	return n;
}

bool fw_sched_device_busy(const struct fw_kmd *k, const struct fw_device *dev)
{
	for (unsigned i = 0; i < FW_KMD_SLOTS; i++)
		if (k->sch->pend[i].used && k->sch->pend[i].buf.dev == dev)
			return true;
	return false;
}

bool fw_sched_signals(const struct fw_kmd *k, uint32_t fence, uint64_t value)
{
	for (unsigned s = 0; s < FW_KMD_SLOTS; s++) {
		const struct fw_kmd_pending *p = &k->sch->pend[s];

		for (uint32_t i = 0; p->used && i < p->nsig; i++)
			if (p->sig[i].fence == fence && p->sig[i].value >= value)
				return true;
	}
	return false;
}

void fw_sched_slots(const struct fw_kmd *k, uint64_t *lo, uint64_t *hi)
{
	*lo = k->sch->slot_addr[0];
	*hi = k->sch->slot_addr[FW_KMD_SLOTS - 1] + FW_KMD_DMA_DW * 4ull;
}

int fw_sched_drain(struct fw_kmd *k, const struct fw_device *dev, uint64_t budget)
{
	uint64_t end = now(k) + budget;
	bool busy;
	int st;

	for (;;) {
		busy = false;
		for (unsigned s = 0; s < FW_KMD_SLOTS; s++)
			busy |= k->sch->pend[s].used && k->sch->pend[s].buf.dev == dev;
		if (!busy)
			return GM_OK;
		if (now(k) >= end)
			return GM_ERR_TIMEOUT;
		st = fw_kmd_poll(k, end - now(k));
		if (st)
			return st;
	}
}
