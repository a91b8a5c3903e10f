/* SPDX-License-Identifier: MIT */
/*
 * rand_map.h - the memory map of a random program, shared by the
 * generator (rand_prog.c) and the code that runs it on a model
 * (rand_prog_run.c).
 *
 * Physical map:  VRAM  0x0100000 source data (1 MiB, read-only to the GPU)
 *                      0x0400000 * v  destination area of VMID v (2 MiB)
 *                      0x2000000 + v * 0x10000  page tables of VMID v
 *                      0x3000000 the paging queue's physical scratch
 *                SYS   + 0x000000 / 0x010000 rings of queue 0 / 1
 *                      + 0x100000 / 0x200000 IB areas of queue 0 / 1
 *                      + 0x300000 fences, + 0x301000 semaphore,
 *                      + 0x302000 timestamps (ignored), + 0x306000 RPTR write-back
 * VA map of VMID v (from RP_VA0): [0, 1 MiB) the source data (read-only),
 *                [1, 3 MiB) 32 chunks of 64 KiB onto the destination area,
 *                3 MiB the semaphore page, +4 KiB the timestamp page,
 *                +8 KiB the fence page, 3.5 MiB the IB area of its queue.
 */
#ifndef RAND_MAP_H
#define RAND_MAP_H

#include "gpu_hw.h"

#define VA0 0x100000000000ull
#define SYS GPU_SYSMEM_BASE
#define SRC_PA 0x100000ull
#define DST_PA(v) (0x400000ull * (v))
#define PT_PA(v, t) (0x2000000ull + (v) * 0x10000ull + (t) * 0x1000ull)
#define SCR_PA 0x3000000ull
#define RING_PA(q) (SYS + (q) * 0x10000ull)
#define IB_PA(q) (SYS + 0x100000ull + (q) * 0x100000ull)
#define FENCE_PA (SYS + 0x300000ull)
#define SEM_PA (SYS + 0x301000ull)
#define TS_PA(v) (SYS + 0x302000ull + (v) * 0x1000ull)
#define WB_PA (SYS + 0x306000ull)
#define SEM_VA (VA0 + 0x300000ull)
#define TS_VA (VA0 + 0x301000ull)
#define FENCE_VA (VA0 + 0x302000ull)
#define IB_VA (VA0 + 0x380000ull)
#define CHUNKS 48u        /* 64 KiB chunks of VA [0, 3 MiB) */
#define DST_C0 16u        /* first destination chunk */
#define CHUNK 0x10000u

#define PTE_V (1ull << GPU_PTE_V_SHIFT)
#define PTE_SYS (1ull << GPU_PTE_SYS_SHIFT)
#define PTE_R (1ull << GPU_PTE_R_SHIFT)
#define PTE_W (1ull << GPU_PTE_W_SHIFT)
#define PTE_PRT (1ull << GPU_PTE_PRT_SHIFT)
#define PTE_FRAG (1ull << GPU_PTE_FRAG64K_SHIFT)

#endif /* RAND_MAP_H */
