/* SPDX-License-Identifier: MIT */
/*
 * kt.h - the fixture of the submission pipeline tests (test_kmd*.c): a
 * model, the device layer and a fw_kmd pipeline on it (struct kt), buffers
 * and fences made through the driver's own calls, results read back from
 * the model's memory wherever fw_alloc.loc says the bytes live now, and the
 * "nothing changed" snapshot behind every bad-argument row (ROW).  Every
 * helper fails the running cmocka test when a call it makes is refused.
 */
#ifndef KT_H
#define KT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "fw_kmd.h"
#include "fw_umd.h"
#include "tb_util.h"

#define PITCH 4096u        /* bytes per row of every test buffer */
#define KT_TRACK 96u       /* allocations a fixture watches */
#define BUDGET 20000000ull /* cycles any one wait may take */
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
void kt_open(struct kt *x, uint64_t vram_bytes, uint64_t tdr_cycles);

/* kt_open on a model made from @cfg (NULL: the defaults on $GPUSIM_BACKEND's
 * backend), e.g. other memory latencies: the same work, other timing. */
void kt_open_cfg(struct kt *x, const struct gm_config *cfg, uint64_t vram_bytes,
		 uint64_t tdr_cycles);

/* kt_open with @pt_bytes of page tables above the VRAM segment: GPU-VA
 * devices (fw_gpuva_enable) can be made. */
void kt_open_pt(struct kt *x, uint64_t vram_bytes, uint64_t pt_bytes, uint64_t tdr_cycles);

/* Tear down what kt_open made (the pipeline first, then the model). */
void kt_close(struct kt *x);

/* A linear buffer of @bytes (whole PITCH-byte rows of 4-byte elements). */
struct fw_alloc_desc kt_buf_desc(uint64_t bytes);

/* A one-surface resource of @d on @dev, watched by @x's snapshots (@x NULL: not watched). */
struct kbuf kbuf_desc(struct kt *x, struct fw_device *dev, const struct fw_alloc_desc *d,
		      bool shared);

/* kbuf_desc of a private linear buffer of @bytes (kt_buf_desc). */
struct kbuf kbuf_new(struct kt *x, struct fw_device *dev, uint64_t bytes);

/* A new device on @x's adapter. */
struct fw_device *kt_dev_new(struct kt *x);

/* A new monitored fence of @dev starting at @initial: its id. */
uint32_t kt_mfence_new(struct kt *x, struct fw_device *dev, uint64_t initial);

/* Monitored fence @id's value now. */
uint64_t kt_mfence_val(struct kt *x, uint32_t id);

/* FILL @rows rows of @w bytes from byte @off of allocation @h with @v. */
void kt_fill(struct fw_umd *u, uint32_t h, uint64_t off, uint32_t w, uint32_t rows, uint64_t v);

/* What that FILL does to a host copy of the allocation. */
void kt_model_fill(uint8_t *m, uint64_t off, uint32_t w, uint32_t rows, uint64_t v);

/* Render and submit the command buffer in x->u on @dev; the last DMA buffer
 * signals @fence = @value (fence 0: none).  kt_submit: its status;
 * kt_run: it must succeed. */
int kt_submit(struct kt *x, struct fw_device *dev, uint32_t fence, uint64_t value);
void kt_run(struct kt *x, struct fw_device *dev, uint32_t fence, uint64_t value);

/* fw_kmd_idle within BUDGET cycles. */
void kt_idle(struct kt *x);

/* The bytes of @a wherever they live now. */
void kt_read_alloc(struct kt *x, const struct fw_alloc *a, void *p);

/* @p[0..@n) holds @pattern repeated (byte i is byte i % 8 of @pattern). */
bool kt_all_bytes(const uint8_t *p, size_t n, uint64_t pattern);

/* Allocation @a holds @pattern repeated (a FILL of all of it). */
void kt_expect_filled(struct kt *x, const struct fw_alloc *a, uint64_t pattern, const char *what);

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

/* Record into @s everything a refused call must leave as it was. */
void kt_snap_take(const struct kt *x, struct snap *s);

/* Count a row; fail naming @line and @what unless @got is @want and nothing
 * differs from @before. */
void kt_row_check(struct kt *x, const struct snap *before, const char *what, int want, int got,
		  int line);

/* One row of a bad-argument table: @call returns exactly @want and nothing
 * in the pipeline changes. */
#define ROW(x, what, want, call)                                                                 \
	do {                                                                                     \
		struct snap *s_ = malloc(sizeof(*s_));                                           \
		int got_;                                                                        \
		assert_non_null(s_);                                                             \
		kt_snap_take((x), s_);                                                           \
		got_ = (call);                                                                   \
		kt_row_check((x), s_, (what), (want), got_, __LINE__);                           \
		free(s_);                                                                        \
	} while (0)

/* Render with *multipass = @mp; on an error *multipass must not move. */
int kt_render_mp(struct kt *x, struct fw_device *dev, const struct fw_cmdbuf *cb, uint32_t mp,
		 struct fw_dmabuf *out);

/* fw_mfence_read whose *value must stay untouched on an error. */
int kt_mfence_read_row(struct fw_kmd *k, uint32_t id);

/* A seeded test's check: a failure names the seed and the command that
 * repeats it (the test file's BIN). */
#define KT_SEED_CHECK(seed, cond, ...)                                                           \
	do {                                                                                     \
		if (!(cond)) {                                                                   \
			printf("failed with seed %" PRIu64 ": GPUSIM_SEED=%" PRIu64 " " BIN "\n",   \
			       (uint64_t)(seed), (uint64_t)(seed));                              \
			fail_msg(__VA_ARGS__);                                                   \
		}                                                                                \
	} while (0)

/* ------------------------------------------------------------ Lock (D3DDDICB_LOCK) */

#define PDATA_UNSET 0xdeadbeefdeadbeefull /* pData before a call: a refusal leaves it */

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

/* fw_kmd_lock_cb on @h with @flags and page list @pages[@np]; a refusal must
 * leave hAllocation and pData as they were.  *pdata (if not NULL) gets pData. */
int kt_lock_cb(struct kt *x, struct fw_device *dev, uint32_t h, uint32_t flags, uint32_t np,
	       const uint32_t *pages, uint64_t *pdata);

/* fw_kmd_unlock_cb of the @n handles @h[]: its status. */
int kt_unlock_cb(struct kt *x, struct fw_device *dev, const uint32_t *h, uint32_t n);

/* The CPU reads (@write false) or writes @n bytes at @p through a Lock's
 * pData @pd: the aperture window below GPU_APT_WINDOW_BYTES, system memory
 * above.  gm_apt_* / gm_backdoor_* status. */
int kt_cpu_rw(struct kt *x, uint64_t pd, void *p, uint32_t n, bool write);

/* The allocation aperture range @r is locked on, or NULL. */
struct fw_alloc *kt_locked_alloc(const struct kt *x, unsigned r);

/* @n bytes of a pattern that differs in every 8-byte word: word i holds @tag | i. */
void kt_fill_words(uint8_t *p, size_t n, uint64_t tag);

#endif /* KT_H */
