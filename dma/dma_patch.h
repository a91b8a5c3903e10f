/* SPDX-License-Identifier: MIT */
/*
 * dma_patch.h - allocation list, patch-location list and the patcher (the
 * DxgkDdiPatch role).
 *
 * Render builds a DMA buffer whose address fields are placeholders, plus two
 * lists: the allocations the buffer references (DXGK_ALLOCATIONLIST) and, for
 * each placeholder, which allocation and offset belongs there
 * (D3DDDI_PATCHLOCATIONLIST).  Once the memory manager has made the
 * allocations resident and written their current addresses into the
 * allocation list, dma_patch() writes those addresses into the buffer.  It
 * may run again on the same buffer after an allocation moved: every patched
 * place is simply overwritten with the new address.
 *
 * Patch encoding.  Every packet carries an address as two adjacent dwords,
 * ADDR_LO (bits 31:0) then ADDR_HI (bits 47:32, bits 31:16 zero), so the
 * bytes of a 48-bit address stored as a little-endian 64-bit value are
 * exactly that pair.  dma_patch_loc.driver_id says what is written at
 * patch_offset (byte offset into the DMA buffer, always 4-aligned):
 *
 *   DMA_PATCH_ADDR64      8 bytes: the address, little-endian (LO dword, HI
 *                         dword).  The usual kind: one entry per packet
 *                         address.
 *   DMA_PATCH_ADDR_LO32   4 bytes: address bits 31:0.
 *   DMA_PATCH_ADDR_HI16   4 bytes: address bits 47:32 (bits 31:16 zero).
 *                         LO32 and HI16 are for an address whose halves are
 *                         not adjacent; each half is its own entry.
 *   DMA_PATCH_FENCE_ID32  4 bytes: the call's SubmissionFenceId, e.g. into
 *                         VALUE_LO of a RELEASE_FENCE at the end of the
 *                         buffer.  No allocation: alloc_index and
 *                         alloc_offset must be 0.
 *
 * The address written is alloc.addr + alloc_offset and must lie below
 * 2^GPU_PA_BITS.
 *
 * SplitOffset.  DXGKARG_PATCH (d3dkmddi.h) refers to D3DDDI_PATCHLOCATIONLIST
 * without defining it; the WDDM reference defines it as the byte offset at
 * which the DMA buffer must be split if the allocation cannot be brought
 * into memory.  So it is
 * not the second half of a split address (split halves are separate
 * LO32/HI16 entries); it is the start of the packet that holds the patched
 * place, where a submission could be cut in two.  dma_patch() checks it
 * lies inside the submission, at or before the patched bytes, dword
 * aligned; it does not parse packets to prove it is a packet boundary.
 */
#ifndef DMA_PATCH_H
#define DMA_PATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gm_status.h"

/* One allocation the DMA buffer references (the DXGK_ALLOCATIONLIST role). */
struct dma_alloc_entry {
	void *handle;        /* kernel-side allocation object (hDeviceSpecificAllocation),
				opaque here */
	uint64_t addr;       /* current GPU physical or GPU virtual address of byte 0,
				set by the memory manager before each patch */
	uint64_t size;       /* bytes */
	uint32_t segment_id; /* segment it was last paged in at; 0 = none known
				(carried for residency, not checked here) */
	bool write;          /* the buffer writes the allocation (WriteOperation) */
};

/* What a patch entry writes (dma_patch_loc.driver_id). */
enum dma_patch_kind {
	DMA_PATCH_ADDR64 = 0,     /* 8 bytes: address, little-endian (ADDR_LO, ADDR_HI) */
	DMA_PATCH_ADDR_LO32 = 1,  /* 4 bytes: address bits 31:0 */
	DMA_PATCH_ADDR_HI16 = 2,  /* 4 bytes: address bits 47:32, zero-extended */
	DMA_PATCH_FENCE_ID32 = 3, /* 4 bytes: SubmissionFenceId; no allocation */
	DMA_PATCH_KIND_COUNT
};

#define DMA_PATCH_SLOT_RESERVED 0xff000000u /* SlotId is 24 bits; the top 8 must be zero */

/* One place to patch (the D3DDDI_PATCHLOCATIONLIST role, field for field). */
struct dma_patch_loc {
	uint32_t alloc_index;  /* AllocationIndex: index into the allocation list */
	uint32_t slot_id;      /* SlotId, bits 23:0 (31:24 reserved, zero): the slot the
				  allocation will occupy; carried, not used */
	uint32_t driver_id;    /* DriverId: enum dma_patch_kind, what is written */
	uint32_t alloc_offset; /* AllocationOffset: bytes into the allocation; the address
				  written is alloc.addr + alloc_offset */
	uint32_t patch_offset; /* PatchOffset: bytes from the DMA buffer's byte 0 to the
				  patched place (4-aligned) */
	uint32_t split_offset; /* SplitOffset: bytes from the DMA buffer's byte 0 to where
				  it may be split before this place (see above) */
};

/* ------------------------------------------------------------ lists */

/* A bounded allocation list over caller storage. */
struct dma_alloc_list {
	struct dma_alloc_entry *e; /* storage, cap entries */
	uint32_t cap;
	uint32_t len;
};

/* A bounded patch-location list over caller storage. */
struct dma_patch_list {
	struct dma_patch_loc *e; /* storage, cap entries */
	uint32_t cap;
	uint32_t len;
};

/* Wrap caller storage @e of @cap entries as an empty list. */
void dma_alloc_list_init(struct dma_alloc_list *l, struct dma_alloc_entry *e, uint32_t cap);
void dma_patch_list_init(struct dma_patch_list *l, struct dma_patch_loc *e, uint32_t cap);

/*
 * Reference allocation @a from the buffer and put its list index in *@index.
 * An allocation already in the list (same non-NULL handle) keeps its entry,
 * as WDDM wants one entry per allocation: its write flag becomes
 * old.write || a->write and its index is returned.  Entries with a NULL
 * handle are always appended.
 * GM_ERR_BAD_ARG: @l, its storage, @a or @index NULL, or @a's handle already
 * listed with a different addr, size or segment_id.  GM_ERR_FULL: a new
 * entry does not fit.  On error the list and *@index are unchanged.
 * Linear in the list length (lists are hundreds of entries).
 */
int dma_alloc_list_add(struct dma_alloc_list *l, const struct dma_alloc_entry *a, uint32_t *index)
	GM_MUST_CHECK;

/*
 * Append @loc.  GM_ERR_BAD_ARG: @l, its storage or @loc NULL.  GM_ERR_FULL:
 * the list is full.  On error the list is unchanged.  The entry itself is
 * checked by dma_patch(), not here.
 */
int dma_patch_list_add(struct dma_patch_list *l, const struct dma_patch_loc *loc) GM_MUST_CHECK;

/* ------------------------------------------------------------ patcher */

/* DXGK_PATCHFLAGS bits of dma_patch_args.flags, in the public layout
 * (d3dkmddi.h: Paging : 1, Present : 1, RedirectedPresent : 1,
 * NullRendering : 1, Reserved : 28). */
#define DMA_PATCH_F_PAGING (1u << 0)             /* a paging buffer: no allocation or patch list */
#define DMA_PATCH_F_PRESENT (1u << 1)            /* the buffer comes from Present rather than Render */
#define DMA_PATCH_F_REDIRECTED_PRESENT (1u << 2) /* a Present redirected to a window's surface */
#define DMA_PATCH_F_NULL_RENDERING (1u << 3)     /* the buffer's packets need not run */
#define DMA_PATCH_F_ALL (DMA_PATCH_F_PAGING | DMA_PATCH_F_PRESENT | DMA_PATCH_F_REDIRECTED_PRESENT | \
			 DMA_PATCH_F_NULL_RENDERING)

/* Why dma_patch() refused a call (dma_patch_stats.why).  The entry rules
 * are listed in the order they are checked. */
enum dma_patch_why {
	DMA_PATCH_WHY_NONE = 0,     /* accepted */
	DMA_PATCH_WHY_ARGS,         /* an argument outside the entries: NULL pointer, offsets
				       out of order, unaligned or past a size, bad flags,
				       lists on a paging buffer, a list inside the buffer */
	DMA_PATCH_WHY_SLOT,         /* slot_id has reserved bits 31:24 set */
	DMA_PATCH_WHY_KIND,         /* driver_id is no dma_patch_kind */
	DMA_PATCH_WHY_INDEX,        /* alloc_index >= alloc_count (FENCE_ID32: not 0) */
	DMA_PATCH_WHY_ALLOC_OFFSET, /* alloc_offset >= the allocation's size (FENCE_ID32:
				       not 0) */
	DMA_PATCH_WHY_ADDR,         /* alloc.addr + alloc_offset >= 2^GPU_PA_BITS; with no
				       entry blamed: dma_phys + dma_size > 2^GPU_PA_BITS */
	DMA_PATCH_WHY_ALIGN,        /* patch_offset not 4-aligned */
	DMA_PATCH_WHY_RANGE,        /* the written bytes not inside [dma_sub_start,
				       dma_sub_end) */
	DMA_PATCH_WHY_SPLIT,        /* split_offset not 4-aligned or not in
				       [dma_sub_start, patch_offset] */
	DMA_PATCH_WHY_COUNT
};

/* What one dma_patch() call did. */
struct dma_patch_stats {
	uint32_t entries;   /* entries written (0 unless GM_OK) */
	uint64_t bytes;     /* DMA-buffer bytes written, overlaps counted each time
			       (0 unless GM_OK) */
	uint32_t bad_entry; /* refused entry: its index in the patch-location list;
			       UINT32_MAX when no entry is to blame */
	uint32_t why;       /* enum dma_patch_why */
};

/* The arguments of a patch request (the DXGKARG_PATCH role).  No device or
 * context handle: the patcher needs none (paging requests have none). */
struct dma_patch_args {
	void *dma;               /* pDmaBuffer: host pointer to byte 0 of the DMA buffer */
	uint32_t dma_size;       /* DmaBufferSize: bytes */
	uint32_t dma_segment_id; /* DmaBufferSegmentId: 0 = contiguous system memory */
	uint64_t dma_phys;       /* DmaBufferPhysicalAddress: of byte 0, also when
				    dma_sub_start != 0 */
	uint32_t dma_sub_start;  /* DmaBufferSubmissionStartOffset: bytes, 4-aligned */
	uint32_t dma_sub_end;    /* DmaBufferSubmissionEndOffset: bytes, 4-aligned,
				    start <= end <= dma_size */

	const void *priv;        /* pDmaBufferPrivateData: driver data of the buffer */
	uint32_t priv_size;      /* DmaBufferPrivateDataSize: bytes */
	uint32_t priv_sub_start; /* DmaBufferPrivateDataSubmissionStartOffset: 0 unless
				    paging */
	uint32_t priv_sub_end;   /* DmaBufferPrivateDataSubmissionEndOffset: bytes,
				    start <= end <= priv_size */

	const struct dma_alloc_entry *allocs; /* pAllocationList (NULL for paging) */
	uint32_t alloc_count;                 /* AllocationListSize (0 for paging) */
	const struct dma_patch_loc *locs;     /* pPatchLocationList (NULL for paging) */
	uint32_t loc_count;                   /* PatchLocationListSize (0 for paging) */
	uint32_t loc_sub_start;               /* PatchLocationListSubmissionStart */
	uint32_t loc_sub_len;                 /* PatchLocationListSubmissionLength */

	uint32_t fence_id; /* SubmissionFenceId: what DMA_PATCH_FENCE_ID32 entries write */
	uint32_t flags;    /* DMA_PATCH_F_* (DXGK_PATCHFLAGS) */

	struct dma_patch_stats *stats; /* optional; filled by every call with a non-NULL
					  @a, refused or not */
};

/*
 * Set @a up to patch a whole DMA buffer, @dma of @dma_size bytes at
 * physical @dma_phys, with every entry of @locs against @allocs: a Render
 * buffer (no private data, no flags), SubmissionFenceId 0, no statistics.
 * The caller then sets fence_id or stats as it needs.  Writes @a only.
 */
void dma_patch_args_init(struct dma_patch_args *a, void *dma, uint32_t dma_size, uint64_t dma_phys,
			 const struct dma_alloc_entry *allocs, uint32_t alloc_count,
			 const struct dma_patch_loc *locs, uint32_t loc_count);

/*
 * Patch entries [loc_sub_start, loc_sub_start + loc_sub_len) of the patch-
 * location list into the DMA buffer.  Every argument and every entry of that
 * range is checked before the first byte is written (entries outside it are
 * neither checked nor used).  The rules, each refused with GM_ERR_BAD_ARG
 * unless noted, the reason in stats->why:
 *   - @a and dma non-NULL; dma_phys 4-aligned; dma_sub_start <= dma_sub_end
 *     <= dma_size, both 4-aligned; the DMA buffer's bytes below
 *     2^GPU_PA_BITS, else GM_ERR_ADDR;
 *   - priv non-NULL when priv_size != 0; priv_sub_start <= priv_sub_end <=
 *     priv_size; priv_sub_start == 0 unless paging (DXGKARG_PATCH: always 0 for
 *     non-paging requests);
 *   - allocs/locs non-NULL when their count != 0 and not overlapping the
 *     DMA buffer (a patch must not rewrite the lists it was checked
 *     against); loc_sub_start + loc_sub_len <= loc_count; flags only
 *     DMA_PATCH_F_*, and not PAGING with PRESENT;
 *   - paging: allocs and locs NULL, every list count, start and length 0;
 *   - each entry: the WHY_SLOT .. WHY_SPLIT rules of enum dma_patch_why; an
 *     address at or past 2^GPU_PA_BITS is GM_ERR_ADDR.
 * On any error the DMA buffer is unchanged, byte for byte.  On GM_OK each
 * entry is written in list order (where two overlap the later one wins) and
 * nothing else in the buffer changes.  A paging buffer has nothing to patch:
 * GM_OK, nothing written.
 */
int dma_patch(const struct dma_patch_args *a) GM_MUST_CHECK;

/* A static name for @why, e.g. "RANGE"; "?" if unknown. */
const char *dma_patch_why_name(uint32_t why);

#endif /* DMA_PATCH_H */
