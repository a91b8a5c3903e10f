/* SPDX-License-Identifier: MIT */
/*
 * fw_mem.h - memory segments and their range allocators, the video memory
 * manager's view of where allocations can live.
 *
 * A segment is a range of physical addresses of one kind (VRAM or system
 * memory reached through the GPU's system-memory window), possibly
 * CPU-visible.  Its allocator hands out aligned byte ranges first-fit and
 * takes them back by address.  It keeps the live ranges as one array sorted
 * by address; the free space is the gaps between them, so freeing a range
 * coalesces it with its free neighbours by construction, and a range can
 * only be freed once and only whole.
 *
 * Pure bookkeeping: nothing here reads or writes the memory itself.  No
 * globals; not thread-safe; every allocator hangs off a struct fw_seg the
 * caller owns.  Placement and search are O(live ranges).
 */
#ifndef FW_MEM_H
#define FW_MEM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gm_status.h"

#define FW_MEM_ALIGN_MAX 0x10000ull /* bytes; the largest placement alignment (a 64 KiB tile) */
#define FW_SEG_NONE 0u              /* segment id of "in no segment"; real ids start at 1 */

enum fw_seg_kind {
	FW_SEG_VRAM,   /* local video memory, inside [GPU_VRAM_BASE, GPU_SYSMEM_BASE) */
	FW_SEG_SYSTEM, /* system memory the GPU reaches, at or above GPU_SYSMEM_BASE */
	FW_SEG_KIND_COUNT
};

/*
 * The host heap the bookkeeping arrays come from.  Both functions NULL means
 * the C library's realloc/free; tests plug in a failing one (fault
 * injection) to prove GM_ERR_NO_MEM leaves everything as it was.
 */
struct fw_host_mem {
	void *(*realloc_fn)(void *ctx, void *ptr, size_t bytes); /* NULL on failure, @ptr intact */
	void (*free_fn)(void *ctx, void *ptr);
	void *ctx;
};

struct fw_seg_desc {
	unsigned id;             /* >= 1, FW_SEG_NONE is reserved */
	enum fw_seg_kind kind;
	uint64_t base;           /* physical address of byte 0, FW_MEM_ALIGN_MAX-aligned */
	uint64_t size;           /* bytes, > 0 */
	bool cpu_visible;        /* the CPU can map it (system memory, or a VRAM BAR) */
};

/* One live range, as an offset from the segment base. */
struct fw_mem_range {
	uint64_t off;            /* bytes from base */
	uint64_t size;           /* bytes, > 0 */
};

struct fw_seg {
	struct fw_seg_desc d;
	struct fw_host_mem host;
	struct fw_mem_range *live; /* sorted by off, pairwise disjoint */
	size_t nlive, cap;         /* entries used / allocated */
	uint64_t used;             /* bytes in live ranges */
};

struct fw_seg_stats {
	uint64_t used;           /* bytes in live ranges */
	uint64_t free;           /* bytes in no live range (size - used) */
	uint64_t largest_free;   /* bytes in the longest gap; an aligned request may fit in less */
	size_t nranges;          /* live ranges */
	size_t nholes;           /* gaps (maximal free runs) */
};

/*
 * Make an empty segment as described by @desc; @host NULL = the C library
 * (its two functions must be both set or both NULL).  Allocates nothing
 * yet.  GM_OK; GM_ERR_BAD_ARG for a NULL pointer, a half-set @host, id 0,
 * an unknown kind, size 0, a base not FW_MEM_ALIGN_MAX-aligned, or a range
 * outside the GPU physical address space or outside its kind's part of it
 * (then *s is not written).
 */
int fw_seg_init(struct fw_seg *s, const struct fw_seg_desc *desc, const struct fw_host_mem *host)
	GM_MUST_CHECK;

/* Release the bookkeeping; every range is forgotten.  NULL is a no-op. */
void fw_seg_fini(struct fw_seg *s);

/*
 * Reserve @bytes at the lowest address aligned to @align (a power of two,
 * 1..FW_MEM_ALIGN_MAX) where they fit; *addr is the physical address.
 * GM_OK; GM_ERR_BAD_ARG for NULL, @bytes 0 or larger than the segment (it
 * could never fit) or a bad @align; GM_ERR_FULL when no gap holds it now
 * (freeing or evicting may help); GM_ERR_NO_MEM when the host heap failed.
 * On error nothing changed and *addr is not written.
 */
int fw_seg_alloc(struct fw_seg *s, uint64_t bytes, uint64_t align, uint64_t *addr) GM_MUST_CHECK;

/*
 * Reserve exactly [@addr, @addr + @bytes).  GM_OK; GM_ERR_BAD_ARG (NULL,
 * @bytes 0, outside the segment); GM_ERR_FULL (a live range overlaps it);
 * GM_ERR_NO_MEM (the host heap).  On error nothing changed.
 */
int fw_seg_alloc_at(struct fw_seg *s, uint64_t addr, uint64_t bytes) GM_MUST_CHECK;

/*
 * Free the live range that starts at physical address @addr; its bytes join
 * the neighbouring gaps.  GM_OK; GM_ERR_BAD_ARG for NULL or an address that
 * is not the start of a live range (a double free, an interior address),
 * with nothing changed.
 */
int fw_seg_free(struct fw_seg *s, uint64_t addr) GM_MUST_CHECK;

/* Fill *st.  GM_OK; GM_ERR_BAD_ARG for NULL (nothing written). */
int fw_seg_get_stats(const struct fw_seg *s, struct fw_seg_stats *st) GM_MUST_CHECK;

/*
 * True when the bookkeeping holds together: ranges sorted, disjoint, inside
 * the segment and summing to `used`.  For tests and debug checks.
 */
bool fw_seg_consistent(const struct fw_seg *s);

/*
 * Host heap helpers shared with fw_res.c, through @h's functions or the C
 * library.  fw_host_realloc_array resizes @ptr to @n elements of @elem bytes;
 * NULL (and @ptr intact) when the heap fails or n * elem overflows.
 */
void *fw_host_realloc_array(const struct fw_host_mem *h, void *ptr, size_t n, size_t elem);
void fw_host_free(const struct fw_host_mem *h, void *ptr);

#endif /* FW_MEM_H */
