/* SPDX-License-Identifier: MIT */
/*
 * dma_tile.h - the swizzle's former names, kept only for fw/ while its
 * restructuring is in flight: the reference swizzle moved to hw/gpu_tile.h
 * (the bottom layer, shared with model/ref).  New code includes gpu_tile.h;
 * delete this header once fw/ does (fw_lock_int.h, fw_res.h, fw_res.c).
 */
#ifndef DMA_TILE_H
#define DMA_TILE_H

#include "gpu_tile.h"

#define DMA_TILE_BPE_LOG2_MAX GPU_TILE_BPE_LOG2_MAX
#define dma_tile_info gpu_tile_info /* the struct and the function */
#define dma_tile_surface_bytes gpu_tile_surface_bytes

#endif /* DMA_TILE_H */
