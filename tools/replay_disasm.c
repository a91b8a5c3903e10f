/* SPDX-License-Identifier: MIT */
/*
 * replay_disasm.c - `gpusim replay --disasm FILE`: one line per record of a
 * capture, and the uploads that land in a queue's ring decoded as packets
 * with the disassembler `gpusim disasm` uses (the IBs they call printed
 * below them).  Rings are found by the queue registers the capture wrote
 * (Q_BASE, Q_SIZE, Q_VMID; a translated ring through VM_ROOT and the page
 * tables uploaded so far), the memory they read from a shadow of every
 * upload.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "dma_disasm.h"
#include "gpu_hw.h"
#include "gpu_names.h"
#include "mmu_walk.h"
#include "replay.h"

#define VMIDS 16u
#define PAGE 4096u

struct shadow {
	struct gm_mem *mem;          /* every upload so far */
	struct {
		uint64_t base;       /* ring address, as the queue fetches it */
		uint32_t size_log2;  /* of dwords; 0: not set */
		uint32_t vmid;
	} q[GPU_MAX_QUEUES];
	uint64_t root[VMIDS];        /* VM_ROOT of each VMID */
	uint32_t vmid;               /* the context a read callback translates in */
};

const char *replay_reg_name(uint32_t off, char *buf, size_t n)
{
	size_t count;
	const struct gpu_reg_desc *t = gpu_reg_table(&count);

	for (size_t i = 0; i < count; i++) {
		uint32_t rel;

		if (!t[i].block_stride) {
			if (off == t[i].offset) {
				snprintf(buf, n, "%s", t[i].name);
				return buf;
			}
			continue;
		}
		if (off < t[i].block_base)
			continue;
		rel = off - t[i].block_base;
		if (rel % t[i].block_stride == t[i].offset && rel / t[i].block_stride < 64) {
			snprintf(buf, n, "%s[%u]", t[i].name, rel / t[i].block_stride);
			return buf;
		}
	}
	snprintf(buf, n, "0x%04x", off);
	return buf;
}

static int pt_read(void *ctx, uint64_t pa, void *buf, size_t len)
{
	return gm_mem_read(ctx, pa, buf, len);
}

/* The physical address of @va in the shadow's current VMID: true if mapped. */
static bool xlate(struct shadow *s, uint64_t va, uint64_t *pa)
{
	static const struct mmu_mem_ops ops = { .read = pt_read };
	struct mmu_xlate x;

	if (s->vmid == 0) {
		*pa = va;
		return true;
	}
	if (s->vmid >= VMIDS || mmu_walk(&ops, s->mem, s->root[s->vmid], va, false, &x) ||
	    x.fault != GPU_FLT_NONE || x.null_tile)
		return false;
	*pa = x.pa;
	return true;
}

/* dma_read_fn over the shadow: page by page through the VMID's tables. */
static int shadow_read(void *ctx, uint64_t addr, uint32_t *dw, size_t n)
{
	struct shadow *s = ctx;
	uint8_t *p = (uint8_t *)dw;
	size_t left = 4 * n;

	while (left) {
		size_t chunk = PAGE - (addr & (PAGE - 1));
		uint64_t pa;

		chunk = chunk < left ? chunk : left;
		if (!xlate(s, addr, &pa) || gm_mem_read(s->mem, pa, p, chunk))
			return -1;
		addr += chunk;
		p += chunk;
		left -= chunk;
	}
	return 0;
}

/* The queue registers and VM roots the capture writes. */
static void track_reg(struct shadow *s, uint32_t off, uint32_t v)
{
	if (off >= GPU_QREG_BASE && off < GPU_QREG_BASE + GPU_MAX_QUEUES * GPU_QREG_STRIDE) {
		unsigned q = (off - GPU_QREG_BASE) / GPU_QREG_STRIDE;
		uint32_t rel = off - GPU_REG_Q_CTRL(q);

		if (rel == GPU_REG_Q_BASE_LO(0) - GPU_REG_Q_CTRL(0))
			s->q[q].base = (s->q[q].base & ~0xffffffffull) | v;
		else if (rel == GPU_REG_Q_BASE_HI(0) - GPU_REG_Q_CTRL(0))
			s->q[q].base = (s->q[q].base & 0xffffffffull) | (uint64_t)(v & 0xffffu) << 32;
		else if (rel == GPU_REG_Q_SIZE(0) - GPU_REG_Q_CTRL(0))
			s->q[q].size_log2 = v >= GPU_RING_LOG2_MIN && v <= GPU_RING_LOG2_MAX ? v : 0;
		else if (rel == GPU_REG_Q_VMID(0) - GPU_REG_Q_CTRL(0))
			s->q[q].vmid = v;
		return;
	}
	for (unsigned i = 0; i < VMIDS; i++) {
		if (off == GPU_REG_VM_ROOT_LO(i))
			s->root[i] = (s->root[i] & ~0xffffffffull) | (v & ~0xfffu);
		else if (off == GPU_REG_VM_ROOT_HI(i))
			s->root[i] = (s->root[i] & 0xffffffffull) | (uint64_t)(v & 0xffffu) << 32;
	}
}

/* Decode the dwords of upload [@pa, @pa + @len) that land in queue @q's
 * ring, page by page of the ring (a translated ring's pages lie anywhere). */
static void ring_disasm(FILE *out, struct shadow *s, unsigned q, uint64_t pa, uint64_t len)
{
	uint64_t base = s->q[q].base, bytes = 4ull << s->q[q].size_log2;

	s->vmid = s->q[q].vmid;
	for (uint64_t va = base & ~(uint64_t)(PAGE - 1); va < base + bytes; va += PAGE) {
		uint64_t from = va > base ? va : base, to = va + PAGE < base + bytes ? va + PAGE :
			base + bytes, ppa, lo, hi;
		uint32_t *dw;

		if (!xlate(s, from, &ppa))
			continue;
		lo = ppa > pa ? ppa : pa;
		hi = ppa + (to - from) < pa + len ? ppa + (to - from) : pa + len;
		if (lo >= hi || (lo & 3u) || ((hi - lo) & 3u) || !(dw = malloc(hi - lo)))
			continue;
		if (!gm_mem_read(s->mem, lo, dw, hi - lo)) {
			fprintf(out, "        queue %u ring, %" PRIu64 " dwords at 0x%" PRIx64 "%s:\n", q,
				(hi - lo) / 4, from + (lo - ppa), s->vmid ? " (translated)" : "");
			dma_disasm(out, dw, (hi - lo) / 4, from + (lo - ppa), shadow_read, s);
		}
		free(dw);
	}
}

static void print_mem_write(FILE *out, struct shadow *s, const struct gm_cap_rec *rec)
{
	uint8_t *b = rec->len <= GM_CAP_MAX_UPLOAD ? malloc(rec->len ? rec->len : 1) : NULL;

	fprintf(out, "mem_write  0x%010" PRIx64 " %" PRIu64 " bytes in %u runs%s%s\n", rec->addr,
		rec->len, rec->nchunks, rec->status ? " -> " : "",
		rec->status ? gm_status_name((int)rec->status) : "");
	if (!b || rec->status != GM_OK) {
		free(b);
		return;
	}
	gm_cap_expand(rec, b);
	if (gm_mem_write(s->mem, rec->addr, b, rec->len) == GM_OK)
		for (unsigned q = 0; q < GPU_MAX_QUEUES; q++)
			if (s->q[q].size_log2)
				ring_disasm(out, s, q, rec->addr, rec->len);
	free(b);
}

static void print_apt(FILE *out, const struct gm_cap_rec *rec)
{
	static const char *const ops[GM_CAP_APT_OPS] = {
		"post64", "write64", "read64", "write", "read", "flush",
	};

	fprintf(out, "apt_%-6s 0x%07x len %" PRIu64 " strb 0x%02x value/hash 0x%016" PRIx64 " -> %s\n",
		ops[rec->op], rec->off, rec->len, rec->strb, rec->val,
		gm_status_name((int)rec->status));
}

static void print_rec(FILE *out, struct shadow *s, const struct gm_cap_rec *rec)
{
	static const char *const runs[] = { "gm_step", "gm_run_until", "gm_run_until_irq" };
	char name[32];

	fprintf(out, "#%-6" PRIu64 " ", rec->index);
	switch (rec->type) {
	case GM_CAP_MEM_WRITE:
		print_mem_write(out, s, rec);
		break;
	case GM_CAP_REG_WRITE:
	case GM_CAP_REG_READ:
		replay_reg_name(rec->off, name, sizeof(name));
		fprintf(out, "%s  %-18s %s 0x%08" PRIx64 "%s%s%s\n", rec->type == GM_CAP_REG_WRITE ?
			"reg_write" : "reg_read ", name, rec->type == GM_CAP_REG_WRITE ? "<-" : "->",
			rec->val, strncmp(name, "Q_WPTR", 6) ? "" : "  (doorbell)",
			rec->status ? "  " : "", rec->status ? gm_status_name((int)rec->status) : "");
		if (rec->type == GM_CAP_REG_WRITE)
			track_reg(s, rec->off, (uint32_t)rec->val);
		break;
	case GM_CAP_STEP:
		fprintf(out, "step       %" PRIu64 " cycles (%s) to cycle %" PRIu64 " -> %s\n", rec->val,
			runs[rec->op], rec->cycle, gm_status_name((int)rec->status));
		break;
	case GM_CAP_MEM_EXPECT:
		fprintf(out, "mem_expect 0x%010" PRIx64 " %" PRIu64 " bytes ", rec->addr, rec->len);
		if (rec->len <= 8)
			fprintf(out, "= 0x%" PRIx64, rec->val);
		else
			fprintf(out, "hash %016" PRIx64, rec->hash);
		fprintf(out, "%s%s\n", rec->status ? " -> " : "",
			rec->status ? gm_status_name((int)rec->status) : "");
		break;
	case GM_CAP_APT:
		print_apt(out, rec);
		break;
	case GM_CAP_INJECT:
		fprintf(out, "inject     memory response id 0x%02" PRIx64 " at cycle %" PRIu64 " -> %s\n",
			rec->val, rec->cycle, gm_status_name((int)rec->status));
		break;
	case GM_CAP_FINAL:
		fprintf(out, "final      cycle %" PRIu64 ", interrupt line %u, memory hash %016" PRIx64
			"\n", rec->cycle, rec->irq, rec->hash);
		break;
	case GM_CAP_MARK:
		fprintf(out, "mark       %s \"%.*s\"\n", rec->op == GM_MARK_ERROR ? "error" :
			rec->op == GM_MARK_FAULT ? "fault" : rec->op == GM_MARK_NOTE ? "note" : "fence",
			(int)rec->name_len, rec->name);
		break;
	case GM_CAP_WATCH:
		fprintf(out, "watch      0x%012" PRIx64 " \"%.*s\"%s%s\n", rec->addr, (int)rec->name_len,
			rec->name, rec->status ? " -> " : "",
			rec->status ? gm_status_name((int)rec->status) : "");
		break;
	default:
		fputc('\n', out);
		break;
	}
}

/* The registry name of @k ("?" for a value that names no backend: a
 * damaged header). */
static const char *backend_word(enum gm_backend_kind k)
{
	const struct gm_backend_info *b = gm_backend_info(k);

	return b ? b->name : "?";
}

int replay_disasm(FILE *out, const char *path, struct gm_cap_reader *r,
		  const struct gm_cap_header *h)
{
	struct gm_mem_cfg mc = {
		.vram = { GPU_VRAM_BASE, h->cfg.vram_bytes, 1, 1 },
		.sys = { GPU_SYSMEM_BASE, h->cfg.sys_bytes, 1, 1 },
		.beat_bytes = 32, .max_outstanding = 1,
	};
	struct shadow s;
	struct gm_cap_rec rec;
	enum gm_cap_err e;

	memset(&s, 0, sizeof(s));
	if (gm_mem_create(&mc, &s.mem)) {
		fprintf(stderr, "gpusim: replay %s: the header's memory sizes are not a model's\n", path);
		return 2;
	}
	fprintf(out, "capture %s: format version %u, captured on %s from cycle %" PRIu64
		"; VRAM %" PRIu64 " MiB, system memory %" PRIu64 " MiB\n", path, h->version,
		backend_word(h->cfg.backend), h->start_cycle, h->cfg.vram_bytes >> 20,
		h->cfg.sys_bytes >> 20);
	while (!(e = gm_cap_next(r, &rec)) && rec.type != GM_CAP_END)
		print_rec(out, &s, &rec);
	gm_mem_destroy(s.mem);
	if (e) {
		fprintf(stderr, "gpusim: replay %s: %s (%s)\n", path, r->why, gm_cap_err_name(e));
		return 2;
	}
	return 0;
}
