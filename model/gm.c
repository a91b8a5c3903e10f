/* SPDX-License-Identifier: MIT */
/*
 * gm.c - the model: one backend (RTL), one memory model, one clock.
 *
 * Each cycle the memory port is serviced from the pins of the last cycle
 * (the RTL's request outputs depend on its state only), the due response is
 * driven, and the backend clocks once.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gm.h"
#include "gm_backend.h"
#include "gm_capture.h"
#include "gm_priv.h"
#include "gpu_hw.h"


void gm_config_default(struct gm_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->backend = GM_BACKEND_VERILATOR;
	cfg->vram_bytes = 256ull << 20;
	cfg->sys_bytes = 256ull << 20;
	cfg->vram_latency_cycles = 20;
	cfg->sys_latency_cycles = 60;
	cfg->vram_bytes_per_cycle = 32;
	cfg->sys_bytes_per_cycle = 16;
	cfg->max_outstanding = 64;
	cfg->reset_cycles = 4;
}

/* The registry's ops column (model/gm_backends.c), indexed by kind: the ops
 * of a model made for waves, and of any other (NULL: the same).  A Verilator
 * model with trace support only for a model that may dump waves: compiled
 * in but off it costs 3-4 % of a cycle.  Builds with one Verilator model
 * (make fast, coverage, profiling) have it without. */
static const struct {
	const struct gm_backend_ops *waves, *nowave;
} backend_ops[] = {
	[GM_BACKEND_VERILATOR] = { &gm_backend_verilator,
#ifdef GM_VL_NT
				   &gm_backend_verilator_nt
#else
				   NULL
#endif
	},
	[GM_BACKEND_SYSTEMC] = { &gm_backend_systemc, NULL },
	[GM_BACKEND_REF] = { &gm_backend_ref, NULL },
	/* the GPU of a TLM platform runs the Verilator model (model/tlm/) */
	[GM_BACKEND_TLM] = { &gm_backend_verilator,
#ifdef GM_VL_NT
			     &gm_backend_verilator_nt
#else
			     NULL
#endif
	},
};

_Static_assert(sizeof(backend_ops) / sizeof(backend_ops[0]) == GM_BACKEND_COUNT,
	       "an ops row per enum gm_backend_kind value");

const struct gm_backend_ops *gm_backend_ops_of(enum gm_backend_kind kind, bool waves)
{
	if ((unsigned)kind >= GM_BACKEND_COUNT)
		return NULL;
	return !waves && backend_ops[kind].nowave ? backend_ops[kind].nowave : backend_ops[kind].waves;
}

static bool config_valid(const struct gm_config *cfg)
{
	const uint64_t region_max = GM_MAX_MEM_BYTES;

	return gm_backend_ops_of(cfg->backend, cfg->waves) && cfg->vram_bytes <= region_max &&
	       cfg->sys_bytes <= region_max && cfg->vram_bytes > 0 && cfg->reset_cycles >= 1 &&
	       cfg->reset_cycles <= GM_MAX_RESET_CYCLES;
}

void gm_mem_cfg_from(const struct gm_config *cfg, struct gm_mem_cfg *mc)
{
	memset(mc, 0, sizeof(*mc));
	mc->vram.base = GPU_VRAM_BASE;
	mc->vram.size = cfg->vram_bytes;
	mc->vram.latency_cycles = cfg->vram_latency_cycles;
	mc->vram.bytes_per_cycle = cfg->vram_bytes_per_cycle;
	mc->sys.base = GPU_SYSMEM_BASE;
	mc->sys.size = cfg->sys_bytes;
	mc->sys.latency_cycles = cfg->sys_latency_cycles;
	mc->sys.bytes_per_cycle = cfg->sys_bytes_per_cycle;
	mc->beat_bytes = GM_BEAT_BYTES;
	mc->max_outstanding = cfg->max_outstanding;
}

/* A request the memory accepted while dumping: which block made it, and a
 * write to a watched address becomes a marker with the value written. */
static void wave_observe(struct gm *g)
{
	const struct gm_pins *p = &g->pins;
	uint32_t client = p->mem_req_id >> 1;

	if (p->mem_req_id == GPU_WALK_ID)
		g->wave_used |= GM_VIEW_USED_MMU;
	else if ((client & ~0x1fu) == GPU_CE_CLIENT)
		g->wave_used |= GM_VIEW_USED_CE;
	else if ((client & ~0x1fu) == GPU_APT_CLIENT)
		g->wave_used |= GM_VIEW_USED_APT;
	for (unsigned i = 0; p->mem_req_we && i < g->nwatch; i++) {
		uint64_t a = g->watch[i].addr, v = 0;

		if (a < p->mem_req_addr || a + 8 > p->mem_req_addr + GM_BEAT_BYTES ||
		    (p->mem_req_wstrb >> (a - p->mem_req_addr) & 0xffu) == 0)
			continue;
		memcpy(&v, (const uint8_t *)p->mem_req_wdata + (a - p->mem_req_addr), 8);
		gm_wave_add_mark(g, GM_MARK_FENCE, "%s = %llu", g->watch[i].name, (unsigned long long)v);
	}
}

static uint16_t sat16(uint64_t v)
{
	return v > 0xffffu ? 0xffffu : (uint16_t)v;
}

/* The memory model's state on gpu_top's observation ports (mm_*_i), for
 * the waveform's memory view: @rsp this cycle's response or NULL. */
static void wave_mem_pins(struct gm *g, const struct gm_mem_rsp *rsp, bool refused)
{
	struct gm_pins *p = &g->pins;

	p->mm_inflight = (uint16_t)((g->port ? gm_port_outstanding(g->port) : gm_mem_outstanding(g->mem)) &
				    0x1fffu);
	p->mm_refused = refused;
	p->mm_rsp_latency = rsp ? sat16(g->cycle - rsp->accepted) : 0;
	/* a TLM target's bus is its own: no backlog to show */
	p->mm_vram_backlog = g->mem ? sat16(gm_mem_backlog(g->mem, false, g->cycle)) : 0;
	p->mm_sys_backlog = g->mem ? sat16(gm_mem_backlog(g->mem, true, g->cycle)) : 0;
}

/* Service the memory port for this cycle and clock the RTL once: the
 * memory model's (@port NULL) or a TLM initiator's (@port, gm_port).
 * Inlined twice by gm_tick, once for each, so the memory model's cycle
 * pays no test for the other. */
static inline __attribute__((always_inline)) void tick(struct gm *g, struct gm_port *port)
{
	struct gm_pins *p = &g->pins;
	struct gm_mem_rsp rsp;
	bool can = port ? gm_port_can_accept(port) : gm_mem_can_accept(g->mem);
	bool dump, have_rsp, fired;

	p->mem_req_ready = can;
	if (p->mem_req_valid && can) {
		struct gm_mem_req req;

		req.id = p->mem_req_id;
		req.addr = p->mem_req_addr;
		req.write = p->mem_req_we;
		memcpy(req.wdata, p->mem_req_wdata, GM_BEAT_BYTES);
		req.wstrb = p->mem_req_wstrb;
		/* The RTL only issues beat-aligned addresses; an unaligned one
		 * would be an RTL bug, answered by the memory model's error. */
		if (port)
			gm_port_request(port, g->cycle, &req);
		else
			(void)gm_mem_request(g->mem, g->cycle, &req);
	}
	have_rsp = port ? gm_port_response(port, g->cycle, &rsp) : gm_mem_response(g->mem, g->cycle, &rsp);
	if (have_rsp) {
		p->mem_rsp_valid = 1;
		p->mem_rsp_id = rsp.id;
		p->mem_rsp_err = rsp.err;
		memcpy(p->mem_rsp_rdata, rsp.rdata, GM_BEAT_BYTES);
	} else if (g->inject_rsp && g->cycle >= g->inject_at) { /* gm_inject_mem_rsp */
		g->inject_rsp = false;
		p->mem_rsp_valid = 1;
		p->mem_rsp_id = g->inject_id;
		p->mem_rsp_err = 0;
		memset(p->mem_rsp_rdata, 0, GM_BEAT_BYTES);
	} else {
		p->mem_rsp_valid = 0;
	}
	if (port)
		gm_port_tick(port, p->mem_req_valid && !can);
	else
		gm_mem_tick(g->mem, p->mem_req_valid && !can);

	dump = g->wave_open && g->cycle >= g->wave_from;
	if (dump && p->mem_req_valid && can)
		wave_observe(g);
	if (dump)
		wave_mem_pins(g, have_rsp ? &rsp : NULL, p->mem_req_valid && !can);
	fired = g->ops->cycle(g->be, g->cycle, dump);
	if (dump) {
		g->wave_last = g->cycle + 1;
		if (g->ops->latch)
			gm_wave_latch(g);
	}
	if (fired && g->ops->failed && !g->failed &&
	    g->ops->failed(g->be, g->fail_what, sizeof(g->fail_what))) {
		g->failed = true;
		g->fail_cycle = g->cycle;
		gm_wave_add_mark(g, GM_MARK_ERROR, "assert %.*s", (int)strcspn(g->fail_what, " "),
			      g->fail_what);
	}
	g->cycle++;
	if (g->wave_open && g->cycle >= g->wave_to)
		(void)gm_wave_close(g);
}

void gm_tick(struct gm *g)
{
	if (g->port)
		tick(g, g->port);
	else
		tick(g, NULL);
	if (g->hook && g->cycle >= g->hook_next) {
		g->hook_next = g->cycle + g->hook_every;
		g->hook(g->hook_ctx, g->cycle);
	}
}

void gm_set_tick_hook(struct gm *g, gm_tick_hook_fn fn, void *ctx, uint64_t every)
{
	if (!g)
		return;
	if (g->io) { /* a TLM platform: its GPU model's clock */
		gm_set_tick_hook(gm_io_core(g), fn, ctx, every);
		return;
	}
	g->hook = every ? fn : NULL;
	g->hook_ctx = ctx;
	g->hook_every = every;
	g->hook_next = g->cycle + every;
}

/* A host's view of a TLM platform's GPU (gm_io_ops, model/tlm/). */
static int create_io(const struct gm_config *cfg, struct gm **out)
{
	struct gm *g = calloc(1, sizeof(*g));
	int st;

	if (!g)
		return GM_ERR_NO_MEM;
	g->cfg = *cfg;
	st = gm_tlm_open(cfg, &g->io, &g->io_be);
	if (st) {
		free(g);
		return st;
	}
	*out = g;
	return GM_OK;
}

/* gm_create with the memory port served by @xfer (NULL: the memory model). */
static int create(const struct gm_config *cfg, gm_port_xfer_fn xfer, void *ctx, struct gm **out)
{
	struct gm_mem_cfg mc;
	struct gm *g;
	int st;

	if (!cfg || !out || !config_valid(cfg))
		return GM_ERR_BAD_ARG;
	if (cfg->backend == GM_BACKEND_TLM && !xfer)
		return create_io(cfg, out);
	g = calloc(1, sizeof(*g));
	if (!g)
		return GM_ERR_NO_MEM;
	g->ops = gm_backend_ops_of(cfg->backend, cfg->waves);
	g->cfg = *cfg;
	gm_mem_cfg_from(cfg, &mc);
	st = xfer ? gm_port_create(cfg->max_outstanding, GM_BEAT_BYTES, xfer, ctx, &g->port)
		  : gm_mem_create(&mc, &g->mem);
	if (st)
		goto err_free_gm;
	st = g->ops->create(&g->pins, &g->be);
	if (st)
		goto err_free_mem;
	/* The runtime records assertion failures per thread: one an earlier
	 * model left untaken (it stops at its first) is not this model's. */
	if (g->ops->failed)
		(void)g->ops->failed(g->be, NULL, 0);
	g->pins.rst_n = 0;
	for (uint32_t i = 0; i < cfg->reset_cycles; i++)
		gm_tick(g);
	g->pins.rst_n = 1;
	*out = g;
	return GM_OK;

err_free_mem:
	gm_mem_destroy(g->mem);
	gm_port_destroy(g->port);
err_free_gm:
	free(g);
	return st;
}

int gm_create(const struct gm_config *cfg, struct gm **out)
{
	return create(cfg, NULL, NULL, out);
}

int gm_create_port(const struct gm_config *cfg, gm_port_xfer_fn xfer, void *ctx, struct gm **out)
{
	return xfer ? create(cfg, xfer, ctx, out) : GM_ERR_BAD_ARG;
}

void gm_destroy(struct gm *g)
{
	if (!g)
		return;
	if (g->io) {
		g->io->destroy(g->io_be);
		free(g);
		return;
	}
	(void)gm_wave_close(g);
	(void)gm_capture_close(g);
	g->ops->destroy(g->be);
	gm_mem_destroy(g->mem);
	gm_port_destroy(g->port);
	free(g);
}

const char *gm_backend_name(const struct gm *g)
{
	return gm_backend_info(g->cfg.backend)->name;
}

struct gm *gm_io_core(const struct gm *g)
{
	return g->io->core(g->io_be);
}

bool gm_reg_off_ok(uint32_t off)
{
	return !(off & 3u) && off <= 0xfffcu;
}

int gm_reg_access(struct gm *g, uint32_t off, bool we, uint32_t wdata, uint32_t *rdata)
{
	struct gm_pins *p = &g->pins;

	if (!gm_reg_off_ok(off))
		return GM_ERR_BAD_ARG;
	p->reg_req_valid = 1;
	p->reg_req_we = we;
	p->reg_req_addr = (uint16_t)off;
	p->reg_req_wdata = wdata;
	gm_tick(g);
	p->reg_req_valid = 0;
	p->reg_req_we = 0;
	/* gpu_top answers exactly two cycles after the request. */
	gm_tick(g);
	if (!p->reg_rsp_valid)
		return GM_ERR_HW; /* the RTL broke its register-port contract */
	if (rdata)
		*rdata = p->reg_rsp_rdata;
	return p->reg_rsp_err ? GM_ERR_ADDR : GM_OK;
}

int gm_reg_write(struct gm *g, uint32_t off, uint32_t val)
{
	int st;

	if (g->io)
		return gm_reg_off_ok(off) ? g->io->reg(g->io_be, true, off, &val) : GM_ERR_BAD_ARG;
	gm_cap_enter(g->cap, g->cycle, false);
	if (g->wave_open)
		gm_wave_reg_write(g, off, val);
	st = gm_reg_access(g, off, true, val, NULL);
	if (st != GM_ERR_BAD_ARG)
		g->reg_writes++;
	gm_cap_reg(g->cap, g->cycle, true, off, val, st);
	return st;
}

int gm_reg_read(struct gm *g, uint32_t off, uint32_t *val)
{
	int st = GM_ERR_BAD_ARG;

	if (g->io)
		return val && gm_reg_off_ok(off) ? g->io->reg(g->io_be, false, off, val) : GM_ERR_BAD_ARG;
	gm_cap_enter(g->cap, g->cycle, false);
	if (val)
		st = gm_reg_access(g, off, false, 0, val);
	if (st != GM_ERR_BAD_ARG)
		g->reg_reads++;
	gm_cap_reg(g->cap, g->cycle, false, off, st != GM_ERR_BAD_ARG ? *val : 0, st);
	return st;
}

int gm_backdoor_write(struct gm *g, uint64_t addr, const void *buf, size_t len)
{
	int st;

	if (g->io)
		return g->io->mem(g->io_be, true, addr, (void *)buf, len);
	if (!g->mem)
		return GM_ERR_UNSUPPORTED; /* a TLM GPU's memory is the platform's */
	gm_cap_enter(g->cap, g->cycle, false);
	g->apt_pf_stale = true;
	st = gm_mem_write(g->mem, addr, buf, len);
	gm_cap_mem_write(g->cap, g->cycle, addr, buf, len, st);
	return st;
}

int gm_backdoor_read(struct gm *g, uint64_t addr, void *buf, size_t len)
{
	int st;

	if (g->io)
		return g->io->mem(g->io_be, false, addr, buf, len);
	if (!g->mem)
		return GM_ERR_UNSUPPORTED;
	gm_cap_enter(g->cap, g->cycle, false);
	st = gm_mem_read(g->mem, addr, buf, len);
	gm_cap_mem_read(g->cap, g->cycle, addr, buf, len, st);
	return st;
}

int gm_backdoor_write32(struct gm *g, uint64_t addr, uint32_t v)
{
	return gm_backdoor_write(g, addr, &v, sizeof(v));
}

int gm_backdoor_read32(struct gm *g, uint64_t addr, uint32_t *v)
{
	return gm_backdoor_read(g, addr, v, sizeof(*v));
}

int gm_backdoor_read64(struct gm *g, uint64_t addr, uint64_t *v)
{
	return gm_backdoor_read(g, addr, v, sizeof(*v));
}

int gm_step(struct gm *g, uint64_t cycles)
{
	if (g->io)
		return g->io->step(g->io_be, cycles);
	gm_cap_enter(g->cap, g->cycle, true);
	while (cycles-- && !g->failed)
		gm_tick(g);
	gm_cap_run(g->cap, g->cycle, GM_CAP_RUN_STEP, g->failed ? GM_ERR_HW : GM_OK);
	return g->failed ? GM_ERR_HW : GM_OK;
}

bool gm_model_error(const struct gm *g, const char **what, uint64_t *cycle)
{
	if (g && g->io)
		return gm_model_error(gm_io_core(g), what, cycle);
	if (!g || !g->failed)
		return false;
	if (what)
		*what = g->fail_what;
	if (cycle)
		*cycle = g->fail_cycle;
	return true;
}

int gm_inject_mem_rsp(struct gm *g, uint32_t id, uint64_t at_cycle)
{
	if (!g)
		return GM_ERR_BAD_ARG;
	if (g->io)
		return gm_inject_mem_rsp(gm_io_core(g), id, at_cycle);
	gm_cap_enter(g->cap, g->cycle, false);
	if (id > 0xffu || g->inject_rsp) {
		gm_cap_inject(g->cap, g->cycle, id, at_cycle, GM_ERR_BAD_ARG);
		return GM_ERR_BAD_ARG;
	}
	g->inject_rsp = true;
	g->inject_id = id;
	g->inject_at = at_cycle;
	gm_cap_inject(g->cap, g->cycle, id, at_cycle, GM_OK);
	return GM_OK;
}

static int run_until(struct gm *g, gm_cond_fn cond, void *ctx, uint64_t budget, uint64_t *used)
{
	uint64_t n = 0;
	int st = GM_ERR_TIMEOUT;

	if (!cond)
		return GM_ERR_BAD_ARG;
	for (;;) {
		if (cond(g, ctx)) {
			st = GM_OK;
			break;
		}
		if (n == budget)
			break;
		if (g->io ? gm_model_error(g, NULL, NULL) : g->failed) {
			st = GM_ERR_HW;
			break;
		}
		if (g->io)
			(void)g->io->step(g->io_be, 1); /* the condition reads through io */
		else
			gm_tick(g);
		n++;
	}
	if (used)
		*used = n;
	return st;
}

int gm_run_until(struct gm *g, gm_cond_fn cond, void *ctx, uint64_t budget, uint64_t *used)
{
	int st;

	gm_cap_enter(g->cap, g->cycle, true);
	st = run_until(g, cond, ctx, budget, used);
	gm_cap_run(g->cap, g->cycle, GM_CAP_RUN_UNTIL, st);
	return st;
}

static bool irq_high(struct gm *g, void *ctx)
{
	(void)ctx;
	return g->pins.irq;
}

int gm_run_until_irq(struct gm *g, uint64_t budget, uint64_t *used)
{
	int st;

	if (g->io)
		return g->io->run_until_irq(g->io_be, budget, used);
	gm_cap_enter(g->cap, g->cycle, true);
	st = run_until(g, irq_high, NULL, budget, used);
	gm_cap_run(g->cap, g->cycle, GM_CAP_RUN_UNTIL_IRQ, st);
	return st;
}

bool gm_irq(const struct gm *g)
{
	return g->io ? g->io->irq(g->io_be) : g->pins.irq;
}

uint64_t gm_cycles(const struct gm *g)
{
	return g->io ? g->io->cycles(g->io_be) : g->cycle;
}

void gm_get_stats(const struct gm *g, struct gm_stats *st)
{
	if (g->io) { /* the GPU's port side, the memory target's contents */
		gm_get_stats(gm_io_core(g), st);
		g->io->mem_stats(g->io_be, &st->mem);
		return;
	}
	st->cycles = g->cycle;
	st->reg_reads = g->reg_reads;
	st->reg_writes = g->reg_writes;
	if (g->port)
		gm_port_get_stats(g->port, &st->mem);
	else
		gm_mem_get_stats(g->mem, &st->mem);
}

/* --------------------------------------------------------------- capture */

int gm_capture_open(struct gm *g, const char *path)
{
	if (!g || !path)
		return GM_ERR_BAD_ARG;
	if (g->io || !g->mem)
		return GM_ERR_UNSUPPORTED; /* not recorded on a TLM platform */
	if (g->cap)
		return GM_ERR_BUSY;
	return gm_cap_create(path, &g->cfg, g->cycle, &g->cap);
}

int gm_capture_close(struct gm *g)
{
	int st;

	if (!g->cap)
		return GM_OK;
	st = gm_cap_finish(g->cap, g->cycle, g->pins.irq, gm_mem_hash(g->mem));
	g->cap = NULL;
	return st;
}

bool gm_capture_is_open(const struct gm *g)
{
	return g->cap != NULL;
}

uint64_t gm_memory_hash(const struct gm *g)
{
	if (g->io)
		return g->io->mem_hash(g->io_be);
	return g->mem ? gm_mem_hash(g->mem) : 0;
}
