/* SPDX-License-Identifier: MIT */
/*
 * gm.c - the model: one backend (RTL), one memory model, one clock.
 *
 * Each cycle the memory port is serviced from the pins of the last cycle
 * (the RTL's request outputs depend on its state only), the due response is
 * driven, and the backend clocks once.
 */
#define _POSIX_C_SOURCE 200809L

#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gm.h"
#include "gm_backend.h"
#include "gpu_hw.h"

extern char **environ;

struct gm {
	const struct gm_backend_ops *ops;
	void *be;
	struct gm_mem *mem;
	struct gm_pins pins;
	uint64_t cycle;
	uint64_t reg_reads, reg_writes;
	/* waveform */
	bool wave_open;
	uint64_t wave_from, wave_to;
	char *wave_path;     /* what the user asked for */
	char *wave_fst_path; /* what the backend writes (differs for .vcd) */
};

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

static const struct gm_backend_ops *backend_ops(enum gm_backend_kind kind)
{
	switch (kind) {
	case GM_BACKEND_VERILATOR:
		return &gm_backend_verilator;
	case GM_BACKEND_SYSTEMC:
		return &gm_backend_systemc;
	case GM_BACKEND_REF:
		return &gm_backend_ref;
	}
	return NULL;
}

static bool config_valid(const struct gm_config *cfg)
{
	const uint64_t region_max = 1ull << 40;

	return backend_ops(cfg->backend) && cfg->vram_bytes <= region_max &&
	       cfg->sys_bytes <= region_max && cfg->vram_bytes > 0 && cfg->reset_cycles >= 1;
}

static void mem_cfg_from(const struct gm_config *cfg, struct gm_mem_cfg *mc)
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

/* Service the memory port for this cycle and clock the RTL once. */
static void tick(struct gm *g)
{
	struct gm_pins *p = &g->pins;
	struct gm_mem_rsp rsp;
	bool can = gm_mem_can_accept(g->mem);
	bool dump;

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
		(void)gm_mem_request(g->mem, g->cycle, &req);
	}
	if (gm_mem_response(g->mem, g->cycle, &rsp)) {
		p->mem_rsp_valid = 1;
		p->mem_rsp_id = rsp.id;
		p->mem_rsp_err = rsp.err;
		memcpy(p->mem_rsp_rdata, rsp.rdata, GM_BEAT_BYTES);
	} else {
		p->mem_rsp_valid = 0;
	}
	gm_mem_tick(g->mem, p->mem_req_valid && !can);

	dump = g->wave_open && g->cycle >= g->wave_from;
	g->ops->cycle(g->be, g->cycle, dump);
	g->cycle++;
	if (g->wave_open && g->cycle >= g->wave_to)
		(void)gm_wave_close(g);
}

int gm_create(const struct gm_config *cfg, struct gm **out)
{
	struct gm_mem_cfg mc;
	struct gm *g;
	int st;

	if (!cfg || !out || !config_valid(cfg))
		return GM_ERR_BAD_ARG;
	g = calloc(1, sizeof(*g));
	if (!g)
		return GM_ERR_NO_MEM;
	g->ops = backend_ops(cfg->backend);
	mem_cfg_from(cfg, &mc);
	st = gm_mem_create(&mc, &g->mem);
	if (st)
		goto err_free_gm;
	st = g->ops->create(&g->pins, &g->be);
	if (st)
		goto err_free_mem;
	g->pins.rst_n = 0;
	for (uint32_t i = 0; i < cfg->reset_cycles; i++)
		tick(g);
	g->pins.rst_n = 1;
	*out = g;
	return GM_OK;

err_free_mem:
	gm_mem_destroy(g->mem);
err_free_gm:
	free(g);
	return st;
}

void gm_destroy(struct gm *g)
{
	if (!g)
		return;
	(void)gm_wave_close(g);
	g->ops->destroy(g->be);
	gm_mem_destroy(g->mem);
	free(g);
}

const char *gm_backend_name(const struct gm *g)
{
	return g->ops->name;
}

static int reg_access(struct gm *g, uint32_t off, bool we, uint32_t wdata, uint32_t *rdata)
{
	struct gm_pins *p = &g->pins;

	if (off & 3u || off > 0xfffcu)
		return GM_ERR_BAD_ARG;
	p->reg_req_valid = 1;
	p->reg_req_we = we;
	p->reg_req_addr = (uint16_t)off;
	p->reg_req_wdata = wdata;
	tick(g);
	p->reg_req_valid = 0;
	p->reg_req_we = 0;
	/* gpu_top answers exactly two cycles after the request. */
	tick(g);
	if (!p->reg_rsp_valid)
		return GM_ERR_HW; /* the RTL broke its register-port contract */
	if (rdata)
		*rdata = p->reg_rsp_rdata;
	return p->reg_rsp_err ? GM_ERR_ADDR : GM_OK;
}

int gm_reg_write(struct gm *g, uint32_t off, uint32_t val)
{
	int st = reg_access(g, off, true, val, NULL);

	if (st != GM_ERR_BAD_ARG)
		g->reg_writes++;
	return st;
}

int gm_reg_read(struct gm *g, uint32_t off, uint32_t *val)
{
	int st;

	if (!val)
		return GM_ERR_BAD_ARG;
	st = reg_access(g, off, false, 0, val);
	if (st != GM_ERR_BAD_ARG)
		g->reg_reads++;
	return st;
}

#define APT_BUDGET_CYCLES 100000u

static int apt_access(struct gm *g, uint32_t off, bool we, uint64_t wdata, uint8_t strb,
		      uint64_t *rdata)
{
	struct gm_pins *p = &g->pins;
	uint32_t n;

	if (off & 7u || off >= GPU_APT_WINDOW_BYTES || !strb)
		return GM_ERR_BAD_ARG;
	for (n = 0; !p->apt_req_ready; n++) {
		if (n == APT_BUDGET_CYCLES)
			return GM_ERR_HW;
		tick(g);
	}
	p->apt_req_valid = 1;
	p->apt_req_we = we;
	p->apt_req_addr = off;
	p->apt_req_wdata = wdata;
	p->apt_req_wstrb = strb;
	tick(g);
	p->apt_req_valid = 0;
	p->apt_req_we = 0;
	for (n = 0; !p->apt_rsp_valid; n++) {
		if (n == APT_BUDGET_CYCLES)
			return GM_ERR_HW; /* the RTL broke its aperture contract */
		tick(g);
	}
	if (rdata)
		*rdata = p->apt_rsp_err ? 0 : p->apt_rsp_rdata;
	return p->apt_rsp_err ? GM_ERR_ADDR : GM_OK;
}

int gm_apt_write64(struct gm *g, uint32_t off, uint64_t val, uint8_t strb)
{
	return apt_access(g, off, true, val, strb, NULL);
}

int gm_apt_read64(struct gm *g, uint32_t off, uint64_t *val)
{
	if (!val)
		return GM_ERR_BAD_ARG;
	return apt_access(g, off, false, 0, 0xff, val);
}

static bool apt_range_ok(uint32_t off, const void *buf, size_t len)
{
	return buf && len <= GPU_APT_WINDOW_BYTES && off <= GPU_APT_WINDOW_BYTES - len;
}

int gm_apt_write(struct gm *g, uint32_t off, const void *buf, size_t len)
{
	const uint8_t *b = buf;
	size_t done = 0;

	if (!apt_range_ok(off, buf, len))
		return GM_ERR_BAD_ARG;
	while (done < len) {
		uint32_t a = off + (uint32_t)done, lane = a & 7u;
		size_t n = 8u - lane < len - done ? 8u - lane : len - done;
		uint64_t w = 0;
		uint8_t strb = (uint8_t)(((1u << n) - 1u) << lane);
		int st;

		memcpy((uint8_t *)&w + lane, b + done, n);
		st = apt_access(g, a & ~7u, true, w, strb, NULL);
		if (st != GM_OK)
			return st;
		done += n;
	}
	return GM_OK;
}

int gm_apt_read(struct gm *g, uint32_t off, void *buf, size_t len)
{
	uint8_t *b = buf;
	size_t done = 0;

	if (!apt_range_ok(off, buf, len))
		return GM_ERR_BAD_ARG;
	while (done < len) {
		uint32_t a = off + (uint32_t)done, lane = a & 7u;
		size_t n = 8u - lane < len - done ? 8u - lane : len - done;
		uint64_t w;
		int st = apt_access(g, a & ~7u, false, 0, 0xff, &w);

		if (st != GM_OK)
			return st;
		memcpy(b + done, (uint8_t *)&w + lane, n);
		done += n;
	}
	return GM_OK;
}

int gm_backdoor_write(struct gm *g, uint64_t addr, const void *buf, size_t len)
{
	return gm_mem_write(g->mem, addr, buf, len);
}

int gm_backdoor_read(struct gm *g, uint64_t addr, void *buf, size_t len)
{
	return gm_mem_read(g->mem, addr, buf, len);
}

int gm_backdoor_write32(struct gm *g, uint64_t addr, uint32_t v)
{
	return gm_mem_write(g->mem, addr, &v, sizeof(v));
}

int gm_backdoor_read32(struct gm *g, uint64_t addr, uint32_t *v)
{
	return gm_mem_read(g->mem, addr, v, sizeof(*v));
}

int gm_backdoor_read64(struct gm *g, uint64_t addr, uint64_t *v)
{
	return gm_mem_read(g->mem, addr, v, sizeof(*v));
}

int gm_step(struct gm *g, uint64_t cycles)
{
	while (cycles--)
		tick(g);
	return GM_OK;
}

int gm_run_until(struct gm *g, gm_cond_fn cond, void *ctx, uint64_t budget, uint64_t *used)
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
		tick(g);
		n++;
	}
	if (used)
		*used = n;
	return st;
}

static bool irq_high(struct gm *g, void *ctx)
{
	(void)ctx;
	return g->pins.irq;
}

int gm_run_until_irq(struct gm *g, uint64_t budget, uint64_t *used)
{
	return gm_run_until(g, irq_high, NULL, budget, used);
}

bool gm_irq(const struct gm *g)
{
	return g->pins.irq;
}

uint64_t gm_cycles(const struct gm *g)
{
	return g->cycle;
}

void gm_get_stats(const struct gm *g, struct gm_stats *st)
{
	st->cycles = g->cycle;
	st->reg_reads = g->reg_reads;
	st->reg_writes = g->reg_writes;
	gm_mem_get_stats(g->mem, &st->mem);
}

/* ------------------------------------------------------------------ waves */

static bool has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n > m && strcmp(s + n - m, suffix) == 0;
}

int gm_wave_open(struct gm *g, const char *path, uint64_t from_cycle, uint64_t to_cycle)
{
	bool vcd;
	int st;

	if (!path || from_cycle >= to_cycle)
		return GM_ERR_BAD_ARG;
	vcd = has_suffix(path, ".vcd");
	if (!vcd && !has_suffix(path, ".fst"))
		return GM_ERR_BAD_ARG;
	if (g->wave_open)
		return GM_ERR_BUSY;
	g->wave_path = strdup(path);
	g->wave_fst_path = malloc(strlen(path) + sizeof(".tmp.fst"));
	if (!g->wave_path || !g->wave_fst_path) {
		st = GM_ERR_NO_MEM;
		goto err_free_paths;
	}
	strcpy(g->wave_fst_path, path);
	if (vcd)
		strcat(g->wave_fst_path, ".tmp.fst");
	st = g->ops->trace_open(g->be, g->wave_fst_path);
	if (st)
		goto err_free_paths;
	g->wave_open = true;
	g->wave_from = from_cycle;
	g->wave_to = to_cycle;
	return GM_OK;

err_free_paths:
	free(g->wave_path);
	free(g->wave_fst_path);
	g->wave_path = g->wave_fst_path = NULL;
	return st;
}

/* Run GTKWave's fst2vcd: @fst -> @vcd.  GM_OK or GM_ERR_IO. */
static int fst_to_vcd(const char *fst, const char *vcd)
{
	char *argv[] = { "fst2vcd", "-f", (char *)fst, "-o", (char *)vcd, NULL };
	posix_spawn_file_actions_t fa;
	int status = 0;
	pid_t pid;
	int rc;

	if (posix_spawn_file_actions_init(&fa))
		return GM_ERR_IO;
	posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
	rc = posix_spawnp(&pid, "fst2vcd", &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (rc)
		return GM_ERR_IO;
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status))
		return GM_ERR_IO;
	return GM_OK;
}

int gm_wave_close(struct gm *g)
{
	int st = GM_OK;

	if (!g->wave_open)
		return GM_OK;
	g->ops->trace_close(g->be);
	g->wave_open = false;
	if (strcmp(g->wave_path, g->wave_fst_path) != 0) {
		st = fst_to_vcd(g->wave_fst_path, g->wave_path);
		unlink(g->wave_fst_path);
	}
	free(g->wave_path);
	free(g->wave_fst_path);
	g->wave_path = g->wave_fst_path = NULL;
	return st;
}

bool gm_wave_is_open(const struct gm *g)
{
	return g->wave_open;
}
