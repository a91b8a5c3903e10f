/* SPDX-License-Identifier: MIT */
/*
 * mmu_update.h - GPU-VA update operations (pfnUpdateGpuVirtualAddressCb and
 * D3DDDICB_UPDATEGPUVIRTUALADDRESS, d3dumddi.h): what a batch of MAP / UNMAP /
 * COPY operations makes of the page tables, and the PTE_WRITE runs that make
 * it so on the GPU.
 *
 * The driver applies a batch on the GPU, never with CPU writes to table
 * memory: a paging buffer waits (WAIT_MEM) for the rendering context's
 * monitored fence >= FenceValue, writes the entries (PTE_WRITE), drops the
 * VMID's stale translations (INVALIDATE_TLB) and writes FenceValue + 1.
 * mmu_update_apply() computes the writes: it applies the batch with the
 * page-table builder to a host shadow of the tables (mmu_shadow.h), records
 * which tables the builder touched, and returns the difference as runs,
 * one PTE_WRITE each; mmu_update_emit() puts them in a DMA buffer.
 *
 * Operations (D3DDDI_UPDATEGPUVIRTUALADDRESS_OPERATION of d3dukmdt.h, which
 * d3dumddi.h includes; each field names the DDI member it stands for):
 *   MAP    VA [base_address, + size_in_bytes) -> bytes [allocation_offset,
 *          + size_in_bytes) of an allocation, replacing what was mapped.
 *          The driver resolves hAllocation to where the allocation lies
 *          now: alloc_pa, the PA of its byte 0 (MMU_MAP_SYS in flags: in
 *          system memory), and allocation_size.  The DDI's MAP makes pages
 *          read-write; here flags gives the access (MMU_MAP_R, MMU_MAP_W),
 *          and MMU_MAP_FRAG64K asks for 64 KiB tiles: the range is written
 *          as FRAG64K fragments and VA, size and PA must be 64 KiB aligned.
 *   UNMAP  VA [base_address, + size_in_bytes) to Zero (null tiles: reads
 *          return zero, writes are dropped) or NoAccess (every access
 *          faults), as protection says (the DDI's Protection.Zero and
 *          Protection.NoAccess).
 *   COPY   the translations of VA [source_address, + size_in_bytes) onto
 *          [dest_address, + size_in_bytes).  The two may overlap: the
 *          result is as if every source entry were read before any
 *          destination entry is written (memmove).  A mapped page maps the
 *          same PA with the same access, a null tile stays one, a page
 *          without translation (no table on its path included) becomes
 *          NoAccess, and an entry with reserved bits (only mmu_pt_set_pte()
 *          makes one) is copied as it is, so it faults RESERVED there too.
 *          FRAG64K survives where a whole destination 64 KiB block receives
 *          a whole source block that is a fragment (source and destination
 *          a multiple of 64 KiB apart); elsewhere the copies are plain 4 KiB
 *          pages.
 * Operations apply in the order given; their ranges may intersect.  Each
 * keeps the builder's FRAG64K invariant (mmu_pt.h): writing part of a
 * fragment turns the rest of its 64 KiB block into 4 KiB pages.
 *
 * The rules, checked for the whole batch before any table is read
 * (mmu_update_check()); a batch breaking one changes nothing:
 *   - operation_type is MAP, UNMAP or COPY;
 *   - each VA range: size_in_bytes > 0, start and size multiples of 4 KiB
 *     (64 KiB for a MAP with MMU_MAP_FRAG64K), end at most 2^48;
 *   - MAP: flags only enum mmu_map_flags; alloc_pa and allocation_offset
 *     aligned like the range; allocation_offset + size_in_bytes <=
 *     allocation_size; the PA range inside the memory flags selects;
 *   - UNMAP: protection is MMU_UNMAP_ZERO or MMU_UNMAP_NOACCESS;
 *   - every MAP and UNMAP range and every COPY destination lies inside one
 *     and the same reservation; every COPY source inside one and the same
 *     reservation, which may be another one.
 *
 * Not thread-safe; no globals.
 */
#ifndef MMU_UPDATE_H
#define MMU_UPDATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dma_buf.h"
#include "mmu_pt.h"
#include "mmu_va.h"

/* OperationType: the values of D3DDDI_UPDATEGPUVIRTUALADDRESS_OPERATION_TYPE. */
enum mmu_update_type {
	MMU_UPDATE_MAP = 0,
	MMU_UPDATE_UNMAP = 1,
	MMU_UPDATE_COPY = 2,
	MMU_UPDATE_MAP_PROTECT = 3,   /* not supported: GM_ERR_UNSUPPORTED */
};

/* One operation; only the member operation_type names is read. */
struct mmu_update_op {
	enum mmu_update_type operation_type;  /* OperationType */
	union {
		struct {
			uint64_t base_address;       /* BaseAddress: first VA, bytes */
			uint64_t size_in_bytes;      /* SizeInBytes */
			uint64_t alloc_pa;           /* hAllocation resolved: PA of its byte 0 */
			uint64_t allocation_offset;  /* AllocationOffsetInBytes */
			/* bytes in the allocation (not a DDI member: the DDI's
			 * AllocationSizeInBytes is not carried, the mapped
			 * allocation range is size_in_bytes long) */
			uint64_t allocation_size;
			unsigned int flags;          /* enum mmu_map_flags */
		} map;
		struct {
			uint64_t base_address;       /* BaseAddress */
			uint64_t size_in_bytes;      /* SizeInBytes */
			enum mmu_unmap_mode protection;  /* Protection: Zero or NoAccess */
		} unmap;
		struct {
			uint64_t source_address;     /* SourceAddress */
			uint64_t size_in_bytes;      /* SizeInBytes */
			uint64_t dest_address;       /* DestAddress */
		} copy;
	};
};

/*
 * One PTE_WRITE packet (REGISTERS.md): entry i, 0 <= i < num, at dst + 8 i
 * is flags | ((base + i * stride) & PTE.ADDR bits).  PDEs are written the
 * same way (their ADDR field is the PTE's).  A run of zeros has flags,
 * base and stride 0.
 */
struct mmu_update_run {
	uint64_t dst;     /* PA of the first entry, 8-aligned */
	uint64_t flags;   /* the entries' bits outside PTE.ADDR */
	uint64_t base;    /* the first entry's PTE.ADDR bits: frame << 12, an offset in its memory */
	uint32_t stride;  /* bytes: MMU_PAGE_SIZE (frames counting up) or 0 (all alike) */
	uint32_t num;     /* entries, 1..GPU_PKT_PTE_WRITE_ENTRIES_MASK */
};

/* Dwords one run takes in a DMA buffer (header + payload). */
#define MMU_UPDATE_RUN_DWORDS (1u + GPU_PKT_PTE_WRITE_COUNT_MIN)

/*
 * What a batch changed.  The runs write every entry of each table the
 * batch took from the allocator (its zeros too, so whatever VRAM held there
 * does not matter), then every entry of an older table whose value changed,
 * each class in address order; a table is thus complete before the PDE
 * linking it is written.  Consecutive entries with the same flags whose
 * ADDR steps by one frame (or not at all) share a run.
 */
struct mmu_update_result {
	struct mmu_update_run *runs;  /* nruns runs, in the order the GPU must write them */
	size_t nruns;
	uint64_t nentries;            /* entries the runs write */
	unsigned int tables;          /* tables taken from the allocator */
	/* an entry changed; every translation that changed lies in the
	 * 64 KiB blocks [inval_start, inval_end] (VA >> 16), the hull of the
	 * batch's destinations: INVALIDATE_TLB's START and END */
	bool inval;
	uint32_t inval_start, inval_end;
};

/*
 * Check @ops[0..@n) against the rules above and the reservations of @vs,
 * reading and writing nothing.  GM_OK; GM_ERR_UNSUPPORTED for a
 * MAP_PROTECT; GM_ERR_BAD_ARG for any other broken rule, a NULL pointer or
 * n == 0.  Each operation's own rules are checked in order, the
 * reservations last; the first rule broken gives the code.  The driver may
 * call it when the batch is submitted, long before the tables are touched.
 */
int mmu_update_check(const struct mmu_va_space *vs, const struct mmu_update_op *ops, size_t n)
	GM_MUST_CHECK;

/*
 * Apply @ops[0..@n) in order to the tables of @pt, whose memory must be the
 * host shadow of the tables (it is read back to find what changed), and
 * fill *@res with the runs that make the same change in VRAM; free them
 * with mmu_update_result_fini().  Tables come from @pt's allocator.
 *
 * Errors: mmu_update_check()'s, and GM_ERR_BAD_ARG for a NULL @pt or @res
 * or a @pt without all three ops, before anything is read or written;
 * GM_ERR_NO_MEM when the table allocator or the host runs out; a failing
 * memory op's status.  On any error *@res is untouched and the tables are
 * as before the call: each table is copied before its first write in the
 * batch and restored.  Tables the allocator handed out meanwhile are lost
 * to it (no op gives one back).  Only when a restoring write fails as well
 * are the tables left partly written (host shadows do not fail).
 *
 * With no run (the batch changed nothing) res->inval is false and nothing
 * needs invalidating.
 */
int mmu_update_apply(struct mmu_pt *pt, const struct mmu_va_space *vs,
		     const struct mmu_update_op *ops, size_t n, struct mmu_update_result *res)
	GM_MUST_CHECK;

/* Free the runs of @res and zero it.  NULL is a no-op. */
void mmu_update_result_fini(struct mmu_update_result *res);

/*
 * Append one PTE_WRITE per run of @res to @b, in order.  GM_ERR_FULL when
 * they do not all fit (the room, nruns * MMU_UPDATE_RUN_DWORDS dwords, is
 * checked first); GM_ERR_BAD_ARG for a NULL pointer or a run the packet
 * cannot carry.  On error @b holds what it held before.  No runs: GM_OK,
 * nothing appended.
 */
int mmu_update_emit(const struct mmu_update_result *res, struct dma_buf *b) GM_MUST_CHECK;

#endif /* MMU_UPDATE_H */
