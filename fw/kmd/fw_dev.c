/* SPDX-License-Identifier: MIT */
/*
 * fw_dev.c - device bring-up, rings, submission, interrupt handling.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <string.h>

#include "dma_buf.h"
#include "gpu_names.h"
#include "fw_dev.h"
#include "gpu_hw.h"

#define WB_SLOT_BYTES 32u /* one memory beat per write-back slot */

void fw_dev_cfg_default(struct fw_dev_cfg *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->ring_log2 = 10;
	cfg->priv_mask = 1u << FW_QUEUE_COPY;
	cfg->sys_bytes = 256ull << 20;
	cfg->vram_bytes = 256ull << 20;
}

void fw_logf(FILE *out, const struct gm *g, const char *who, const char *fmt, ...)
{
	va_list ap;

	if (!out)
		return;
	va_start(ap, fmt);
	if (g)
		fprintf(out, "[%9" PRIu64 "] ", gm_cycles(g));
	fprintf(out, "%s: ", who);
	vfprintf(out, fmt, ap);
	va_end(ap);
}

#define fw_log(d, ...) fw_logf((d)->log, NULL, "fw", __VA_ARGS__)

/* Carve from [sys_next, sys_end); the internal allocator for both halves. */
static int carve(uint64_t *next, uint64_t end, uint64_t bytes, uint64_t align, uint64_t *addr)
{
	uint64_t a;

	if (bytes == 0 || align == 0 || (align & (align - 1)))
		return GM_ERR_BAD_ARG;
	a = (*next + align - 1) & ~(align - 1);
	if (a < *next || a > end || bytes > end - a)
		return GM_ERR_NO_MEM;
	*next = a + bytes;
	*addr = a;
	return GM_OK;
}

int fw_alloc_sys(struct fw_dev *d, uint64_t bytes, uint64_t align, uint64_t *addr)
{
	if (!d || !addr)
		return GM_ERR_BAD_ARG;
	return carve(&d->sys_next, d->sys_end, bytes, align, addr);
}

/* Register access; GM_ERR_HW when the port refused it. */
static int reg_wr(struct fw_dev *d, uint32_t off, uint32_t v)
{
	return gm_reg_write(d->gm, off, v) ? GM_ERR_HW : GM_OK;
}

static int reg_rd(struct fw_dev *d, uint32_t off, uint32_t *v)
{
	return gm_reg_read(d->gm, off, v) ? GM_ERR_HW : GM_OK;
}

/* Write @n (offset, value) pairs in order; the first refusal stops it. */
static int reg_wr_seq(struct fw_dev *d, const uint32_t (*seq)[2], size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (reg_wr(d, seq[i][0], seq[i][1]))
			return GM_ERR_HW;
	return GM_OK;
}

int fw_reg_read_n(struct fw_dev *d, const uint32_t *off, uint32_t *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (reg_rd(d, off[i], &v[i]))
			return GM_ERR_HW;
	return GM_OK;
}

static uint32_t ctrl_bits(const struct fw_queue *q)
{
	return GPU_Q_CTRL_ENABLE(1) | GPU_Q_CTRL_RPTR_WB(1) | GPU_Q_CTRL_PRIV(q->priv);
}

/* Program queue @q's ring registers and enable it. */
static int queue_setup(struct fw_dev *d, struct fw_queue *q, uint32_t ring_log2)
{
	unsigned i = q->id;
	const uint32_t seq[][2] = {
		{ GPU_REG_Q_CTRL(i), GPU_Q_CTRL_RESET(1) },
		{ GPU_REG_Q_BASE_LO(i), (uint32_t)q->ring_addr },
		{ GPU_REG_Q_BASE_HI(i), (uint32_t)(q->ring_addr >> 32) },
		{ GPU_REG_Q_SIZE(i), ring_log2 },
		{ GPU_REG_Q_RPTR_WB_LO(i), (uint32_t)q->rptr_wb_addr },
		{ GPU_REG_Q_RPTR_WB_HI(i), (uint32_t)(q->rptr_wb_addr >> 32) },
		{ GPU_REG_Q_CTRL(i), ctrl_bits(q) },
	};

	return reg_wr_seq(d, seq, sizeof(seq) / sizeof(seq[0]));
}

static int queue_make(struct fw_dev *d, struct fw_queue *q, uint32_t ring_log2)
{
	uint64_t zero = 0;
	int st;

	q->ring_dw = 1u << ring_log2;
	st = carve(&d->sys_next, d->sys_end, (uint64_t)q->ring_dw * 4, 256, &q->ring_addr);
	if (!st)
		st = carve(&d->sys_next, d->sys_end, WB_SLOT_BYTES, WB_SLOT_BYTES, &q->rptr_wb_addr);
	if (!st)
		st = carve(&d->sys_next, d->sys_end, WB_SLOT_BYTES, WB_SLOT_BYTES, &q->fence_addr);
	if (st)
		return st;
	/* The CPU zeroes what the GPU will write back. */
	st = gm_backdoor_write(d->gm, q->rptr_wb_addr, &zero, sizeof(zero));
	if (!st)
		st = gm_backdoor_write(d->gm, q->fence_addr, &zero, sizeof(zero));
	/* A waveform's view marks each fence the queue writes, with its value. */
	if (!st) {
		char name[16];

		snprintf(name, sizeof(name), "fence q%u", q->id);
		st = gm_wave_watch(d->gm, q->fence_addr, name);
		if (st == GM_ERR_FULL) /* a model shared by more devices than watches */
			st = GM_OK;
	}
	return st ? st : queue_setup(d, q, ring_log2);
}

int fw_dev_init(struct fw_dev *d, struct gm *g, const struct fw_dev_cfg *cfg)
{
	uint32_t id = 0, caps = 0;
	uint32_t int_en;
	int st;

	if (!d || !g || !cfg || cfg->ring_log2 < GPU_RING_LOG2_MIN ||
	    cfg->ring_log2 > GPU_RING_LOG2_MAX || cfg->sys_bytes < (4u << 20) ||
	    cfg->vram_bytes < (32u << 20))
		return GM_ERR_BAD_ARG;
	memset(d, 0, sizeof(*d));
	d->gm = g;
	d->log = cfg->log;
	d->sys_bytes = cfg->sys_bytes;
	d->vram_bytes = cfg->vram_bytes;
	if (gm_reg_read(g, GPU_REG_ID, &id) || id != GPU_ID_VALUE ||
	    gm_reg_read(g, GPU_REG_CAPS, &caps))
		return GM_ERR_HW;
	d->caps = caps;
	d->nq = GPU_CAPS_NUM_QUEUES_GET(caps);
	if (d->nq == 0 || d->nq > FW_MAX_QUEUES || GPU_CAPS_VERSION_GET(caps) != GPU_VERSION)
		return GM_ERR_HW;
	/* Firmware structures in the top half of system memory. */
	d->sys_next = GPU_SYSMEM_BASE + cfg->sys_bytes / 2;
	d->sys_end = GPU_SYSMEM_BASE + cfg->sys_bytes;
	for (unsigned i = 0; i < d->nq; i++) {
		d->q[i].id = i;
		d->q[i].priv = cfg->priv_mask >> i & 1u;
		st = queue_make(d, &d->q[i], cfg->ring_log2);
		if (st)
			return st;
	}
	/* The caller's half: the bottom of system memory. */
	d->sys_end = GPU_SYSMEM_BASE + cfg->sys_bytes / 2;
	d->sys_next = GPU_SYSMEM_BASE;
	int_en = GPU_INT_STATUS_FENCE((1u << d->nq) - 1) | GPU_INT_STATUS_ERROR((1u << d->nq) - 1) |
		 GPU_INT_STATUS_MMU_FAULT(1);
	if (reg_wr(d, GPU_REG_INT_ENABLE, int_en))
		return GM_ERR_HW;
	fw_log(d, "device up: id 0x%08" PRIx32 ", %u queues, %u-byte beats, interface v%u\n",
	       id, d->nq, 1u << GPU_CAPS_BEAT_LOG2_GET(caps), GPU_CAPS_VERSION_GET(caps));
	return GM_OK;
}

uint32_t fw_ring_space(struct fw_dev *d, unsigned qi)
{
	struct fw_queue *q;
	uint32_t rptr = 0;

	if (!d || qi >= d->nq)
		return 0;
	q = &d->q[qi];
	/* The GPU's read pointer, as written back to memory (unreadable: no room). */
	if (gm_backdoor_read32(d->gm, q->rptr_wb_addr, &rptr))
		return 0;
	return (rptr - q->wptr - 1) & (q->ring_dw - 1);
}

int fw_ring_write(struct fw_dev *d, unsigned qi, const uint32_t *dw, uint32_t n)
{
	struct fw_queue *q;
	uint32_t first;
	int st;

	if (!d || qi >= d->nq || !dw || n == 0)
		return GM_ERR_BAD_ARG;
	q = &d->q[qi];
	if (n >= q->ring_dw)
		return GM_ERR_BAD_ARG;
	if (n > fw_ring_space(d, qi))
		return GM_ERR_FULL;
	first = q->ring_dw - q->wptr;
	if (first > n)
		first = n;
	st = gm_backdoor_write(d->gm, q->ring_addr + 4ull * q->wptr, dw, first * 4ull);
	if (!st && n > first)
		st = gm_backdoor_write(d->gm, q->ring_addr, dw + first, (n - first) * 4ull);
	if (st)
		return st;
	q->wptr = (q->wptr + n) & (q->ring_dw - 1);
	return reg_wr(d, GPU_REG_Q_WPTR(qi), q->wptr);
}

int fw_submit(struct fw_dev *d, unsigned qi, const uint32_t *dw, uint32_t n, uint64_t *fence)
{
	uint32_t buf[256];
	struct dma_buf b;
	struct fw_queue *q;
	int st;

	if (!d || qi >= d->nq || (n && !dw) || n > 256 - 6)
		return GM_ERR_BAD_ARG;
	q = &d->q[qi];
	dma_buf_init(&b, buf, 256);
	if (dma_emit_raw(&b, dw, n) ||
	    dma_emit_release_fence(&b, q->fence_addr, q->fence_emitted + 1, true, true))
		return GM_ERR_BAD_ARG;
	st = fw_ring_write(d, qi, buf, (uint32_t)b.len);
	if (st)
		return st;
	q->fence_emitted++;
	if (fence)
		*fence = q->fence_emitted;
	return GM_OK;
}

int fw_submit_ib(struct fw_dev *d, unsigned qi, uint64_t ib, uint32_t size_dw, uint64_t *fence)
{
	uint32_t buf[4];
	struct dma_buf b;

	if (!d || qi >= d->nq)
		return GM_ERR_BAD_ARG;
	dma_buf_init(&b, buf, 4);
	if (dma_emit_indirect_buffer_ctx(&b, ib, size_dw, 0, d->q[qi].priv))
		return GM_ERR_BAD_ARG;
	return fw_submit(d, qi, buf, (uint32_t)b.len, fence);
}

/* Read the queue's fence from memory; the CPU's view never goes back. */
static int fence_update(struct fw_dev *d, struct fw_queue *q)
{
	uint64_t v = 0;
	int st = gm_backdoor_read64(d->gm, q->fence_addr, &v);

	if (!st && v > q->fence_seen)
		q->fence_seen = v;
	return st;
}

/* Record the error queue @q halted on; the queue stays halted. */
static int error_record(struct fw_dev *d, struct fw_queue *q)
{
	enum { CAUSE, ADDR_LO, ADDR_HI, HEADER, N };
	const uint32_t off[N] = { GPU_REG_Q_ERR_CAUSE(q->id), GPU_REG_Q_ERR_ADDR_LO(q->id),
				  GPU_REG_Q_ERR_ADDR_HI(q->id), GPU_REG_Q_ERR_HEADER(q->id) };
	uint32_t v[N];
	int st = fw_reg_read_n(d, off, v, N);

	if (st)
		return st;
	/* No cause: the queue was reset (fw_queue_reset) after it latched the
	 * error and before this handler ran; the fresh queue is not halted. */
	if (GPU_Q_ERR_CAUSE_CAUSE_GET(v[CAUSE]) == GPU_CAUSE_NONE)
		return GM_OK;
	q->errors++;
	q->halted = true;
	q->err_cause = GPU_Q_ERR_CAUSE_CAUSE_GET(v[CAUSE]);
	q->err_addr = (uint64_t)v[ADDR_HI] << 32 | v[ADDR_LO];
	q->err_header = v[HEADER];
	/* A waveform marks the error where the queue latched it (model/gm.c). */
	return GM_OK;
}

int fw_queue_set_priv(struct fw_dev *d, unsigned qi, bool priv)
{
	struct fw_queue q;

	if (!d || qi >= d->nq)
		return GM_ERR_BAD_ARG;
	q = d->q[qi];
	q.priv = priv;
	if (reg_wr(d, GPU_REG_Q_CTRL(qi), ctrl_bits(&q)))
		return GM_ERR_HW;
	d->q[qi].priv = priv;
	return GM_OK;
}

int fw_queue_reset(struct fw_dev *d, unsigned qi)
{
	struct fw_queue *q;
	int st;

	if (!d || qi >= d->nq)
		return GM_ERR_BAD_ARG;
	q = &d->q[qi];
	st = fence_update(d, q);
	if (!st)
		st = gm_backdoor_write32(d->gm, q->rptr_wb_addr, 0);
	if (st)
		return st;
	if (q->halted) {
		const char *name = gpu_cause_name(q->err_cause);

		fw_log(d, "queue %u error: %s at 0x%012" PRIx64 " (header 0x%08" PRIx32 "); "
		       "resetting queue\n", qi, name ? name : "?", q->err_addr, q->err_header);
		q->halted = false;
	}
	q->fence_lost = q->fence_emitted;
	q->wptr = 0;
	return reg_wr(d, GPU_REG_Q_CTRL(qi), ctrl_bits(q) | GPU_Q_CTRL_RESET(1));
}

int fw_apt_map(struct fw_dev *d, unsigned r, uint32_t start, uint32_t end, uint64_t base,
	       unsigned mode, unsigned bpe_log2, uint32_t pitch)
{
	const uint32_t seq[][2] = {
		{ GPU_REG_APT_CTRL(r), 0 },
		{ GPU_REG_APT_START(r), start },
		{ GPU_REG_APT_END(r), end },
		{ GPU_REG_APT_BASE_LO(r), (uint32_t)base },
		{ GPU_REG_APT_BASE_HI(r), (uint32_t)(base >> 32) },
		{ GPU_REG_APT_PITCH(r), pitch },
		{ GPU_REG_APT_CTRL(r), GPU_APT_CTRL_VALID(1) | GPU_APT_CTRL_MODE(mode) |
				       GPU_APT_CTRL_BPE(bpe_log2) },
	};

	if (!d || r >= GPU_APT_RANGES || (start & 7u) || (end & 7u) || start >= end ||
	    end > GPU_APT_WINDOW_BYTES)
		return GM_ERR_BAD_ARG;
	return reg_wr_seq(d, seq, sizeof(seq) / sizeof(seq[0]));
}

int fw_apt_unmap(struct fw_dev *d, unsigned r)
{
	if (!d || r >= GPU_APT_RANGES)
		return GM_ERR_BAD_ARG;
	return reg_wr(d, GPU_REG_APT_CTRL(r), 0);
}

/* Read the MMU's latched fault, report it, and re-arm the latch. */
static int mmu_fault_read(struct fw_dev *d)
{
	enum { STATUS, VA_LO, VA_HI, COUNT, N };
	static const uint32_t off[N] = { GPU_REG_MMU_FAULT_STATUS, GPU_REG_MMU_FAULT_VA_LO,
					 GPU_REG_MMU_FAULT_VA_HI, GPU_REG_MMU_FAULT_COUNT };
	struct fw_mmu_fault *f = &d->fault;
	const char *name;
	uint32_t v[N];
	int st = fw_reg_read_n(d, off, v, N);

	if (st)
		return st;
	d->mmu_irqs++;
	if (!GPU_MMU_FAULT_STATUS_VALID_GET(v[STATUS]))
		return GM_OK;
	f->va = (uint64_t)v[VA_HI] << 32 | v[VA_LO];
	f->vmid = GPU_MMU_FAULT_STATUS_VMID_GET(v[STATUS]);
	f->client = GPU_MMU_FAULT_STATUS_CLIENT_GET(v[STATUS]);
	f->cause = GPU_MMU_FAULT_STATUS_CAUSE_GET(v[STATUS]);
	f->write = GPU_MMU_FAULT_STATUS_WRITE_GET(v[STATUS]);
	f->count = v[COUNT];
	name = gpu_mmu_fault_name(f->cause);
	fw_log(d, "mmu fault: %s %s of VA 0x%012" PRIx64 " by queue %u on VMID %u (%u faults so far)\n",
	       name ? name : "?", f->write ? "write" : "read", f->va, f->client, f->vmid, f->count);
	/* A waveform marks the fault where the MMU latched it (model/gm.c). */
	return reg_wr(d, GPU_REG_MMU_FAULT_STATUS, GPU_MMU_FAULT_STATUS_VALID(1));
}

int fw_isr(struct fw_dev *d, uint32_t *handled)
{
	uint32_t bits = 0;
	int st;

	*handled = 0;
	st = reg_rd(d, GPU_REG_INT_STATUS, &bits);
	if (st || bits == 0)
		return st;
	st = reg_wr(d, GPU_REG_INT_STATUS, bits);
	if (st)
		return st;
	d->irqs++;
	if (GPU_INT_STATUS_MMU_FAULT_GET(bits))
		st = mmu_fault_read(d);
	for (unsigned i = 0; !st && i < d->nq; i++) {
		if (GPU_INT_STATUS_FENCE_GET(bits) >> i & 1u) {
			d->fence_irqs++;
			st = fence_update(d, &d->q[i]);
		}
		if (!st && GPU_INT_STATUS_ERROR_GET(bits) >> i & 1u) {
			d->error_irqs++;
			st = error_record(d, &d->q[i]);
		}
	}
	if (!st)
		*handled = bits;
	return st;
}

int fw_fence_wait(struct fw_dev *d, unsigned qi, uint64_t value, uint64_t budget)
{
	struct fw_queue *q;
	uint64_t used;
	uint32_t bits;
	int st;

	if (!d || qi >= d->nq || value > d->q[qi].fence_emitted)
		return GM_ERR_BAD_ARG;
	q = &d->q[qi];
	for (;;) {
		if (q->fence_seen >= value)
			return GM_OK;
		if (value <= q->fence_lost || q->halted)
			return GM_ERR_HW;
		st = gm_run_until_irq(d->gm, budget, &used);
		if (st) /* GM_ERR_HW: the model stopped on an RTL assertion */
			return st == GM_ERR_HW ? GM_ERR_HW : GM_ERR_TIMEOUT;
		budget -= used;
		st = fw_isr(d, &bits);
		if (st)
			return st;
		if (!bits && budget) {
			/* Line high with nothing pending (another agent acked
			 * it): let the line settle rather than spin. */
			st = gm_step(d->gm, 1);
			if (st)
				return st;
			budget--;
		}
	}
}
