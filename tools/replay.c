/* SPDX-License-Identifier: MIT */
/*
 * replay.c - `gpusim replay FILE`: build a fresh model from the capture's
 * header, send it every recorded call again and check every result the
 * capture holds (status codes, register values read, memory hashes, the
 * cycle each run reached, the final state).  The first mismatch is printed
 * with its record number and stops the replay.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "gm.h"
#include "replay.h"
#include "scen/scen_common.h" /* scen_wave_open */

#define REPLAY_MAX_FILE (1ull << 30) /* bytes: the largest capture read */

struct replay {
	struct gm *g;
	const char *path;
	const struct gm_cap_rec *rec;
	uint64_t checks;         /* results compared */
	struct cli_progress *prog; /* wiped before a mismatch is said */
};

static int mismatch(struct replay *rp, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Say where the replay left the capture: exit status 1. */
static int mismatch(struct replay *rp, const char *fmt, ...)
{
	va_list ap;

	cli_progress_end(rp->prog);
	fprintf(stderr, "gpusim: replay %s: record %" PRIu64 " (%s, byte %" PRIu64 ", cycle %" PRIu64
		"): ", rp->path, rp->rec->index, gm_cap_type_name(rp->rec->type), rp->rec->offset,
		gm_cycles(rp->g));
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return 1;
}

/* Compare the status @st a call returned now with the one recorded. */
static int check_status(struct replay *rp, int st)
{
	rp->checks++;
	if (st == (int)rp->rec->status)
		return 0;
	if (st == GM_ERR_UNSUPPORTED) {
		fprintf(stderr, "gpusim: replay %s: record %" PRIu64 " (%s): the %s backend does not "
			"support this call (GM_ERR_UNSUPPORTED); the capture needs another backend\n",
			rp->path, rp->rec->index, gm_cap_type_name(rp->rec->type), gm_backend_name(rp->g));
		return REPLAY_EXIT_UNSUPPORTED;
	}
	return mismatch(rp, "returned %s, the capture has %s", gm_status_name(st),
			gm_status_name((int)rp->rec->status));
}

static int do_mem_write(struct replay *rp)
{
	const struct gm_cap_rec *rec = rp->rec;
	uint8_t *b = malloc(rec->len ? rec->len : 1);
	int st;

	if (!b)
		return mismatch(rp, "out of memory for an upload of %" PRIu64 " bytes", rec->len);
	gm_cap_expand(rec, b);
	st = gm_backdoor_write(rp->g, rec->addr, b, rec->len);
	free(b);
	return check_status(rp, st);
}

static int do_reg(struct replay *rp)
{
	const struct gm_cap_rec *rec = rp->rec;
	char name[32];
	uint32_t v = 0;
	int rc;

	if (rec->type == GM_CAP_REG_WRITE)
		return check_status(rp, gm_reg_write(rp->g, rec->off, (uint32_t)rec->val));
	rc = check_status(rp, gm_reg_read(rp->g, rec->off, &v));
	if (rc)
		return rc;
	rp->checks++;
	if (v != (uint32_t)rec->val)
		return mismatch(rp, "%s read 0x%08x, the capture has 0x%08x",
				replay_reg_name(rec->off, name, sizeof(name)), v, (uint32_t)rec->val);
	return 0;
}

static int do_step(struct replay *rp)
{
	const struct gm_cap_rec *rec = rp->rec;
	uint64_t from = gm_cycles(rp->g);
	int st, want = rec->status == GM_ERR_HW ? GM_ERR_HW : GM_OK;

	rp->checks++;
	/* no sum that can wrap: the parser bounds a step, this holds without it */
	if (rec->val > rec->cycle || rec->cycle - rec->val != from)
		return mismatch(rp, "the run of %" PRIu64 " cycles to cycle %" PRIu64 " starts at "
				"cycle %" PRIu64 " in the capture, at %" PRIu64 " here", rec->val,
				rec->cycle, rec->val > rec->cycle ? 0 : rec->cycle - rec->val, from);
	st = gm_step(rp->g, rec->val);
	if (st != want)
		return mismatch(rp, "the run returned %s, the capture's %s", gm_status_name(st),
				gm_status_name((int)rec->status));
	return 0;
}

static int do_mem_expect(struct replay *rp)
{
	const struct gm_cap_rec *rec = rp->rec;
	uint8_t *b = calloc(1, rec->len ? rec->len : 1);
	uint64_t h, v = 0;
	int rc;

	if (!b)
		return mismatch(rp, "out of memory for a read of %" PRIu64 " bytes", rec->len);
	rc = check_status(rp, gm_backdoor_read(rp->g, rec->addr, b, rec->len));
	h = gm_cap_fnv64(b, rec->len);
	if (rec->len <= 8)
		memcpy(&v, b, rec->len);
	free(b);
	if (rc || rec->status != GM_OK)
		return rc;
	rp->checks++;
	if (h == rec->hash)
		return 0;
	if (rec->len <= 8)
		return mismatch(rp, "%" PRIu64 " bytes at 0x%" PRIx64 " read 0x%" PRIx64
				", the capture has 0x%" PRIx64, rec->len, rec->addr, v, rec->val);
	return mismatch(rp, "%" PRIu64 " bytes at 0x%" PRIx64 " hash to %016" PRIx64
			", the capture's to %016" PRIx64, rec->len, rec->addr, h, rec->hash);
}

static int do_apt(struct replay *rp)
{
	const struct gm_cap_rec *rec = rp->rec;
	uint8_t *b = NULL;
	uint64_t v = 0;
	int st, rc;

	if ((rec->op == GM_CAP_APT_WRITE || rec->op == GM_CAP_APT_READ) &&
	    !(b = calloc(1, rec->len ? rec->len : 1)))
		return mismatch(rp, "out of memory for %" PRIu64 " aperture bytes", rec->len);
	switch (rec->op) {
	case GM_CAP_APT_POST64:
		st = gm_apt_post64(rp->g, rec->off, rec->val, (uint8_t)rec->strb);
		break;
	case GM_CAP_APT_WRITE64:
		st = gm_apt_write64(rp->g, rec->off, rec->val, (uint8_t)rec->strb);
		break;
	case GM_CAP_APT_READ64:
		st = gm_apt_read64(rp->g, rec->off, &v);
		break;
	case GM_CAP_APT_WRITE:
		gm_cap_expand(rec, b);
		st = gm_apt_write(rp->g, rec->off, b, rec->len);
		break;
	case GM_CAP_APT_READ:
		st = gm_apt_read(rp->g, rec->off, b, rec->len);
		v = gm_cap_fnv64(b, rec->len);
		break;
	default:
		st = gm_apt_flush(rp->g);
		break;
	}
	free(b);
	rc = check_status(rp, st);
	if (rc || (rec->op != GM_CAP_APT_READ64 && rec->op != GM_CAP_APT_READ) ||
	    (st != GM_OK && st != GM_ERR_ADDR))
		return rc;
	rp->checks++;
	if (v != rec->val)
		return mismatch(rp, "aperture read at 0x%x gave %016" PRIx64 ", the capture %016"
				PRIx64 "%s", rec->off, v, rec->val,
				rec->op == GM_CAP_APT_READ ? " (hashes)" : "");
	return 0;
}

static int do_final(struct replay *rp)
{
	const struct gm_cap_rec *rec = rp->rec;
	uint64_t h = gm_memory_hash(rp->g);

	rp->checks += 3;
	if (gm_cycles(rp->g) != rec->cycle)
		return mismatch(rp, "ended at cycle %" PRIu64 ", the capture at %" PRIu64,
				gm_cycles(rp->g), rec->cycle);
	if (gm_irq(rp->g) != (rec->irq != 0))
		return mismatch(rp, "interrupt line %d at the end, the capture's %u", gm_irq(rp->g),
				rec->irq);
	if (h != rec->hash)
		return mismatch(rp, "memory hashes to %016" PRIx64 " at the end, the capture's to %016"
				PRIx64, h, rec->hash);
	return 0;
}

/* A waveform's marker or watch, as the captured run asked: the replay's
 * waves get the same markers. */
static int do_wave(struct replay *rp)
{
	char name[GM_CAP_MAX_NAME + 1];

	snprintf(name, sizeof(name), "%.*s", (int)rp->rec->name_len, rp->rec->name);
	if (rp->rec->type == GM_CAP_WATCH)
		return check_status(rp, gm_wave_watch(rp->g, rp->rec->addr, name));
	gm_wave_mark(rp->g, (enum gm_mark_kind)rp->rec->op, name);
	return 0;
}

static int replay_one(struct replay *rp)
{
	switch (rp->rec->type) {
	case GM_CAP_MEM_WRITE:
		return do_mem_write(rp);
	case GM_CAP_REG_WRITE:
	case GM_CAP_REG_READ:
		return do_reg(rp);
	case GM_CAP_STEP:
		return do_step(rp);
	case GM_CAP_MEM_EXPECT:
		return do_mem_expect(rp);
	case GM_CAP_APT:
		return do_apt(rp);
	case GM_CAP_INJECT:
		return check_status(rp, gm_inject_mem_rsp(rp->g, (uint32_t)rp->rec->val,
							   rp->rec->cycle));
	case GM_CAP_FINAL:
		return do_final(rp);
	case GM_CAP_MARK:
	case GM_CAP_WATCH:
		return do_wave(rp);
	default:
		return 0;
	}
}

/* Say why capture @path is refused: the usage exit status. */
#define refuse(path, ...) cli_refuse("replay", path, __VA_ARGS__)

struct load {
	const char *path;
	struct gm_cap_reader *r;
	struct gm_cap_header *h;
};

/* cli_check_fn: parse every record of the @n bytes read so far; refuse at
 * the first bad one, or at a cut-off one once the file is @whole. */
static int check_records(void *ctx, const uint8_t *b, size_t n, bool whole)
{
	struct load *l = ctx;
	struct gm_cap_rec rec;
	enum gm_cap_err e = gm_cap_reader_init(l->r, b, n, l->h);

	while (!e && !(e = gm_cap_next(l->r, &rec)) && rec.type != GM_CAP_END)
		;
	if (!e || (e == GM_CAP_ERR_TRUNCATED && !whole))
		return 0;
	return refuse(l->path, "%s (%s)", l->r->why, gm_cap_err_name(e));
}

int replay_load(const char *path, uint8_t **buf, size_t *len, struct gm_cap_reader *r,
		struct gm_cap_header *h)
{
	struct load l = { path, r, h };
	uint8_t *b;
	size_t n;
	/* every record is read before any runs: a bad one refuses the file */
	int rc = cli_read_file_checked("replay", path, REPLAY_MAX_FILE, check_records, &l, &b, &n);

	if (rc)
		return rc;
	(void)gm_cap_reader_init(r, b, n, h);
	*buf = b;
	*len = n;
	return 0;
}

static double now_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

struct replay_opts {
	const char *path, *wave;
	uint64_t wave_from, wave_to;
	enum gm_backend_kind backend;
	bool backend_set, disasm, quiet;
};

/* Run every record of @r on a fresh model: the exit status. */
static int replay_run(const struct replay_opts *o, struct gm_cap_reader *r,
		      const struct gm_cap_header *h)
{
	struct cli_progress prog;
	struct replay rp = { .path = o->path, .prog = &prog };
	struct gm_config cfg = h->cfg;
	struct gm_cap_rec rec;
	double t0 = now_seconds(), secs;
	enum gm_cap_err e;
	int rc = 0, st;

	cli_progress_start(&prog, "replay", "byte", o->quiet, false);
	cfg.backend = o->backend_set ? o->backend : h->cfg.backend;
	cfg.waves = o->wave != NULL;
	st = gm_create(&cfg, &rp.g);
	if (st)
		return refuse(o->path, "cannot build the model of its header: %s", gm_status_name(st));
	if (gm_cycles(rp.g) != h->start_cycle) {
		rc = refuse(o->path, "the capture starts at cycle %" PRIu64 ", a new model at %" PRIu64,
			    h->start_cycle, gm_cycles(rp.g));
		goto out_destroy;
	}
	if (o->wave && (st = scen_wave_open(rp.g, o->wave, o->wave_from, o->wave_to))) {
		rc = refuse(o->path, "cannot open the waveform %s: %s", o->wave, gm_status_name(st));
		goto out_destroy;
	}
	rp.rec = &rec;
	while (!(e = gm_cap_next(r, &rec)) && rec.type != GM_CAP_END) {
		rc = replay_one(&rp);
		if (rc)
			break;
		if (prog.on)
			cli_progress(&prog, gm_cycles(rp.g), r->pos, r->len);
	}
	cli_progress_end(&prog);
	if (e)
		rc = refuse(o->path, "%s (%s)", r->why, gm_cap_err_name(e));
	secs = now_seconds() - t0;
	if (!rc && !o->quiet)
		printf("replay %s: %" PRIu64 " records, %" PRIu64 " checks passed, %" PRIu64
		       " cycles on %s in %.3f s (%.0f cycles/s)\n", o->path, rec.index - 1, rp.checks,
		       gm_cycles(rp.g), gm_backend_name(rp.g), secs,
		       secs > 0 ? (double)gm_cycles(rp.g) / secs : 0.0);
	if (o->wave && (st = gm_wave_close(rp.g)) && !rc)
		rc = refuse(o->path, "the waveform %s: %s", o->wave, gm_status_name(st));
out_destroy:
	gm_destroy(rp.g);
	return rc;
}

/* Options of `gpusim replay` (cli_parse) into *o: 0, CLI_HELP_DONE, or the
 * exit status. */
static int parse_replay(const struct cli_cmd *c, int argc, char **argv, struct replay_opts *o)
{
	struct cli_args a;
	int rc;

	cli_args_default(&a);
	rc = cli_parse(c, argc, argv, &a);
	if (rc)
		return rc;
	if (!a.nwords)
		return cli_usage("replay", "replay needs a capture FILE", NULL);
	o->path = a.words[0];
	o->wave = a.wave;
	o->wave_from = a.wave_from;
	o->wave_to = a.wave_to;
	o->backend = a.backend;
	o->backend_set = a.backend_set;
	o->quiet = a.quiet;
	o->disasm = a.disasm;
	/* a listing runs no model: an option for one is a mistake */
	if (o->disasm && ((a.given & ~CLI_O(DISASM)) || a.nplus))
		return cli_usage(NULL, "replay --disasm takes only a FILE", o->backend_set ? "--backend" :
				 o->wave ? "--wave" : o->quiet ? "--quiet" : a.nplus ? "+verilator+" :
				 "--wave-from/--wave-to");
	/* without --backend the capture's own, checked when it is read */
	return cli_check_outputs("replay", &a, o->backend_set ? o->backend : GM_BACKEND_VERILATOR,
				false);
}

int cmd_replay(const struct cli_cmd *c, int argc, char **argv)
{
	struct replay_opts o = { .wave_to = GM_WAVE_END };
	struct gm_cap_reader r;
	struct gm_cap_header h;
	uint8_t *buf = NULL;
	size_t len = 0;
	int rc;

	rc = parse_replay(c, argc, argv, &o);
	if (rc)
		return rc < 0 ? 0 : rc;
	rc = replay_load(o.path, &buf, &len, &r, &h);
	if (rc)
		return rc;
	rc = o.disasm ? replay_disasm(stdout, o.path, &r, &h) : replay_run(&o, &r, &h);
	free(buf);
	return rc;
}
