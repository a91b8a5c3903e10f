/* SPDX-License-Identifier: MIT */
/*
 * tb_util.c - the fixture of the system tests (see tb_util.h).
 */
#define _GNU_SOURCE /* program_invocation_short_name */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tb_util.h"

enum gm_backend_kind tb_backend(void)
{
	const char *s = getenv("GPUSIM_BACKEND");
	const struct gm_backend_info *b, *all;
	size_t n;

	if (!s || !*s)
		return GM_BACKEND_VERILATOR;
	b = gm_backend_lookup(s);
	if (b)
		return b->kind;
	/* a misspelt backend must not quietly run the default one */
	fprintf(stderr, "tb: GPUSIM_BACKEND=%s: not a backend (exactly one of", s);
	all = gm_backend_list(&n);
	for (size_t i = 0; i < n; i++)
		fprintf(stderr, " %s", all[i].name);
	fprintf(stderr, ", as gpusim backends lists them)\n");
	exit(TB_EXIT_USAGE);
}

/* Checked before main: a bad backend refuses the run before any test starts. */
__attribute__((constructor)) static void check_env_backend(void)
{
	(void)tb_backend();
}

/* The model whose waveform is open: a failing test leaves it behind
 * (cmocka jumps out), so the next model or the exit closes its file. */
static struct gm *wave_model;

#define FAIL_WAVE_CYCLES 20000u /* a failure's waves: the cycles before it */

/* The models this process made (N of PROGRAM-N.fst counts them) and those
 * open: one still open at exit was left behind by a failed test (cmocka
 * jumps out of it before tb_close), stopped at the cycle of the failure. */
#define LIVE_MAX 64u
static unsigned models;
static struct {
	struct gm *g;
	unsigned n;
} live[LIVE_MAX];

static void say_left(void)
{
	for (unsigned i = 0; i < LIVE_MAX; i++) {
		uint64_t c;

		if (!live[i].g)
			continue;
		c = gm_cycles(live[i].g);
		printf("tb: model %u left at cycle %" PRIu64 " by a failed test (the waves of its last "
		       "cycles: GPUSIM_WAVE_DIR=DIR GPUSIM_WAVE_MODEL=%u GPUSIM_WAVE_FROM=%" PRIu64 ")\n",
		       live[i].n, c, live[i].n, c > FAIL_WAVE_CYCLES ? c - FAIL_WAVE_CYCLES : 0);
		live[i].g = NULL;
	}
	fflush(stdout);
}

static void live_set(struct gm *from, struct gm *to, unsigned n)
{
	for (unsigned i = 0; i < LIVE_MAX; i++)
		if (live[i].g == from) {
			live[i].g = to;
			live[i].n = n;
			return;
		}
}

static void wave_close_left(void)
{
	if (wave_model && gm_wave_close(wave_model))
		fprintf(stderr, "GPUSIM_WAVE_DIR: a waveform or its view was not written\n");
	wave_model = NULL;
}

/* $GPUSIM_WAVE_DIR set: every model a test makes records its whole run to
 * DIR/PROGRAM-N.fst (N counts the models), with its view next to it when the
 * model is destroyed, or the test failed: the waves of a failing test, re-run
 * with its seed.  $GPUSIM_WAVE_MODEL=N and $GPUSIM_WAVE_FROM=C narrow that
 * to model N from cycle C: the window a failure's "tb: model N left at
 * cycle" line names (tb/regress/regress.py re-runs a failure so). */
static void wave_from_env(struct gm *g, unsigned n)
{
	const char *dir = getenv("GPUSIM_WAVE_DIR");
	const char *only = getenv("GPUSIM_WAVE_MODEL");
	const char *from = getenv("GPUSIM_WAVE_FROM");
	char path[4096];
	int st;

	if (!dir || !*dir || (only && *only && strtoul(only, NULL, 0) != n))
		return;
	snprintf(path, sizeof(path), "%s/%s-%u.fst", dir, program_invocation_short_name, n);
	wave_close_left();
	st = gm_wave_open(g, path, from && *from ? strtoull(from, NULL, 0) : 0, GM_WAVE_END);
	if (st)
		fail_msg("GPUSIM_WAVE_DIR: %s: %s", path, gm_status_name(st));
	wave_model = g;
	printf("waves: %s\n", path);
}

void tb_open_cfg(struct tb *t, const struct gm_config *cfg)
{
	struct gm_config def;
	struct fw_dev_cfg dc;
	int st;

	memset(t, 0, sizeof(*t));
	if (!cfg) {
		gm_config_default(&def);
		def.backend = tb_backend();
		cfg = &def;
	}
	if (!cfg->waves && getenv("GPUSIM_WAVE_DIR") && *getenv("GPUSIM_WAVE_DIR")) {
		def = *cfg; /* wave_from_env opens one: a model made for waves */
		def.waves = true;
		cfg = &def;
	}
	st = gm_create(cfg, &t->g);
	if (st)
		fail_msg("gm_create: %s", gm_status_name(st));
	if (models == 0) { /* run last to first: the window is named, then closed */
		atexit(wave_close_left);
		atexit(say_left);
	}
	live_set(NULL, t->g, models);
	wave_from_env(t->g, models++);
	fw_dev_cfg_default(&dc);
	dc.sys_bytes = cfg->sys_bytes;
	dc.vram_bytes = cfg->vram_bytes;
	st = fw_dev_init(&t->d, t->g, &dc);
	if (st)
		fail_msg("fw_dev_init: %s", gm_status_name(st));
	assert_int_equal(fw_alloc_sys(&t->d, TB_IB_BYTES, 256, &t->ib[0]), GM_OK);
	assert_int_equal(fw_alloc_sys(&t->d, TB_IB_BYTES, 256, &t->ib[1]), GM_OK);
	assert_int_equal(fw_alloc_sys(&t->d, 0x10000, 256, &t->scratch), GM_OK);
}

void tb_open(struct tb *t)
{
	tb_open_cfg(t, NULL);
}

void tb_open_waves(struct tb *t)
{
	struct gm_config cfg;

	gm_config_default(&cfg);
	cfg.backend = tb_backend();
	cfg.waves = true;
	tb_open_cfg(t, &cfg);
}

void tb_close(struct tb *t)
{
	if (t->g == wave_model)
		wave_model = NULL;
	if (t->g)
		live_set(t->g, NULL, 0);
	gm_destroy(t->g);
	t->g = NULL;
}

uint32_t tb_rd(struct tb *t, uint32_t off)
{
	uint32_t v = 0;
	int st = gm_reg_read(t->g, off, &v);

	if (st)
		fail_msg("register read 0x%x: %s", off, gm_status_name(st));
	return v;
}

void tb_wr(struct tb *t, uint32_t off, uint32_t v)
{
	int st = gm_reg_write(t->g, off, v);

	if (st)
		fail_msg("register write 0x%x: %s", off, gm_status_name(st));
}

uint32_t tb_mem32(struct tb *t, uint64_t addr)
{
	uint32_t v = 0;

	assert_int_equal(gm_backdoor_read32(t->g, addr, &v), GM_OK);
	return v;
}

uint64_t tb_mem64(struct tb *t, uint64_t addr)
{
	uint64_t v = 0;

	assert_int_equal(gm_backdoor_read64(t->g, addr, &v), GM_OK);
	return v;
}

void tb_put32(struct tb *t, uint64_t addr, uint32_t v)
{
	assert_int_equal(gm_backdoor_write32(t->g, addr, v), GM_OK);
}

uint64_t tb_submit_ib(struct tb *t, unsigned q, const struct dma_buf *b)
{
	uint64_t f = 0;

	assert_true(b->len * 4 <= TB_IB_BYTES);
	assert_int_equal(gm_backdoor_write(t->g, t->ib[q], b->dw, b->len * 4), GM_OK);
	assert_int_equal(fw_submit_ib(&t->d, q, t->ib[q], (uint32_t)b->len, &f), GM_OK);
	return f;
}

uint64_t tb_submit_ring(struct tb *t, unsigned q, const struct dma_buf *b)
{
	uint64_t f = 0;
	int st = fw_submit(&t->d, q, b->dw, (uint32_t)b->len, &f);

	if (st)
		fail_msg("fw_submit: %s", gm_status_name(st));
	return f;
}

void tb_wait(struct tb *t, unsigned q, uint64_t v)
{
	int st = fw_fence_wait(&t->d, q, v, TB_BUDGET);

	if (st)
		fail_msg("queue %u fence %" PRIu64 ": %s (cause %u)", q, v, gm_status_name(st),
			 t->d.q[q].err_cause);
}

void tb_recover(struct tb *t, unsigned q)
{
	int st = fw_queue_reset(&t->d, q);

	if (st)
		fail_msg("queue %u reset: %s", q, gm_status_name(st));
}

void tb_run_to_irq(struct tb *t, uint64_t budget)
{
	if (gm_run_until_irq(t->g, budget, NULL))
		fail_msg("no interrupt within %" PRIu64 " cycles", budget);
}

void tb_apt_range(struct tb *t, unsigned r, uint32_t start, uint32_t end, uint64_t base,
		  unsigned mode, unsigned bpe, uint32_t pitch)
{
	tb_wr(t, GPU_REG_APT_CTRL(r), 0);
	tb_wr(t, GPU_REG_APT_START(r), start);
	tb_wr(t, GPU_REG_APT_END(r), end);
	tb_wr(t, GPU_REG_APT_BASE_LO(r), (uint32_t)base);
	tb_wr(t, GPU_REG_APT_BASE_HI(r), (uint32_t)(base >> 32));
	tb_wr(t, GPU_REG_APT_PITCH(r), pitch);
	tb_wr(t, GPU_REG_APT_CTRL(r), GPU_APT_CTRL_VALID(1) | GPU_APT_CTRL_MODE(mode) |
				      GPU_APT_CTRL_BPE(bpe));
}

/* ------------------------------------------------------------ test page tables */

static int pm_read(void *ctx, uint64_t pa, void *buf, size_t len)
{
	return gm_backdoor_read(((struct tb_ptmem *)ctx)->g, pa, buf, len);
}

static int pm_write(void *ctx, uint64_t pa, const void *buf, size_t len)
{
	return gm_backdoor_write(((struct tb_ptmem *)ctx)->g, pa, buf, len);
}

static int pm_alloc(void *ctx, uint64_t *pa)
{
	struct tb_ptmem *m = ctx;

	if (m->next >= TB_PT_POOL_END)
		return GM_ERR_NO_MEM;
	*pa = m->next;
	m->next += MMU_TABLE_BYTES;
	return GM_OK;
}

const struct mmu_mem_ops tb_ptmem_ops = { pm_read, pm_write, pm_alloc };

void tb_ptmem_init(struct tb_ptmem *m, struct gm *g)
{
	m->g = g;
	m->next = TB_PT_POOL;
}

void tb_pt_init(struct mmu_pt *pt, struct tb_ptmem *m)
{
	assert_int_equal(mmu_pt_init(pt, &tb_ptmem_ops, m), GM_OK);
}

void tb_pt_map_fw(struct mmu_pt *pt)
{
	uint64_t fw_hi = GPU_SYSMEM_BASE + (256ull << 20) / 2;

	assert_int_equal(mmu_pt_map(pt, GPU_SYSMEM_BASE, TB_FW_WINDOW, GPU_SYSMEM_BASE,
				    MMU_MAP_R | MMU_MAP_W | MMU_MAP_SYS), GM_OK);
	assert_int_equal(mmu_pt_map(pt, fw_hi, TB_FW_WINDOW, fw_hi,
				    MMU_MAP_R | MMU_MAP_W | MMU_MAP_SYS), GM_OK);
}
