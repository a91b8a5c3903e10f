/* SPDX-License-Identifier: MIT */
/*
 * tb_fw.h - what the unit tests of fw/'s allocation layer share
 * (test_fw_mem, test_fw_res, test_fw_handles, test_fw_residency): the
 * status check, the seeded check, a host heap that fails on demand (SQLite
 * faultsim style) and the adapter fixture with two devices over a VRAM and
 * a system-memory segment, with the snapshot its "nothing changed" checks
 * compare.
 *
 * A test file defines REPRO (the command that runs it) before including
 * this header; a random one sets g_seed from tb_seed() in main().
 */
#ifndef TB_FW_H
#define TB_FW_H

#include <stddef.h>
#include <stdint.h>

#include "fw_mem.h"
#include "fw_res.h"
#include "fw_residency.h"
#include "gm_status.h"
#include "gpu_hw.h"
#include "gpu_tile.h"
#include "tb_seed.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define KIB 1024ull
#define MIB (1024ull * KIB)
#define PAGE (1ull << GPU_PAGE_SHIFT)
#define TILE64K (64 * KIB)

#define VRAM_ID 1u
#define SYS_ID 2u
#define VRAM_BYTES (16 * MIB)
#define SYS_BYTES (16 * MIB)

extern uint64_t g_seed; /* the run's seed, set once in main() */

/* cmocka's fail_msg unless @got is the status @want, both named. */
#define assert_st(got, want)                                                                   \
	do {                                                                                   \
		int got_ = (got), want_ = (want);                                              \
		if (got_ != want_)                                                             \
			fail_msg("%s: got %s, want %s", #got, gm_status_name(got_),            \
				 gm_status_name(want_));                                       \
	} while (0)

/* A random test's check: the failure names op, the seed and REPRO. */
#define SEED_CHECK(cond)                                                                         \
	do {                                                                                    \
		if (!(cond))                                                                    \
			fail_msg("op %lu: %s; reproduce: GPUSIM_SEED=%" PRIu64 " " REPRO, op, #cond,   \
				 g_seed);                                                       \
	} while (0)

/* A number below @n from the generator state @s. */
static inline uint64_t rng_below(uint64_t *s, uint64_t n)
{
	return tb_rand(s) % n;
}

/*
 * A host heap that counts live blocks and can fail the allocation number
 * fail_at (0-based, counting from arming), once (SQLite faultsim style).
 */
struct fheap {
	long fail_at;            /* -1: never */
	long calls;              /* realloc calls since arming */
	long failures;
	long live;               /* blocks allocated and not freed */
};

/* The adapter fixture: VRAM_ID and SYS_ID segments, devices d0 and d1. */
struct fx {
	struct fheap heap;
	struct fw_adapter ad;
	struct fw_device *d0, *d1;
};

/* Everything the "nothing changed" checks compare. */
struct snap {
	struct fw_adapter_stats ad;
	struct fw_seg_stats seg[2];
	uint32_t nhandles[2];
	size_t nres[2];
	uint64_t objs;           /* hash of every kernel object's counts and residency */
};

/* struct fw_host_mem's calls over struct fheap @ctx: a block, or NULL when
 * the armed allocation number comes up (counted in failures). */
void *fheap_realloc(void *ctx, void *ptr, size_t bytes);
void fheap_free(void *ctx, void *ptr);
/* Fail allocation @fail_at (0-based from now; -1: none) of @h. */
void fheap_arm(struct fheap *h, long fail_at);
/* The host-memory ops that allocate from @h. */
struct fw_host_mem fheap_ops(struct fheap *h);

/* cmocka setup: a struct fx into *state (-1 if it cannot be built);
 * teardown frees it and fails (-1) if a host block leaked. */
int setup(void **state);
int teardown(void **state);

/* A linear buffer of @bytes (one row). */
struct fw_alloc_desc buf_desc(uint32_t bytes);
/* A @w x @h surface of 1 << @bpe byte elements in @tile, least pitch and size. */
struct fw_alloc_desc surf_desc(enum gpu_tile_mode tile, uint32_t bpe, uint32_t w, uint32_t h);
/* The state of @f the "nothing changed" checks compare; snap_same fails
 * the test naming @what if @a and @b differ. */
struct snap snap_take(struct fx *f);
void snap_same(const struct snap *a, const struct snap *b, const char *what);
/* Surface @i of @r, resolved through @dev's handle table (asserted). */
struct fw_alloc *resolve(struct fw_device *dev, const struct fw_resource *r, size_t i);
/* The statistics of segment @s (asserted to answer GM_OK). */
struct fw_seg_stats seg_stats(const struct fw_seg *s);

#endif /* TB_FW_H */
