/* SPDX-License-Identifier: MIT */
/*
 * dma_names.h - the name tables' former header, kept only for fw/ while its
 * restructuring is in flight: the generated tables moved to hw/gpu_names.h
 * (the bottom layer, shared with model/ref).  New code includes gpu_names.h;
 * delete this header once fw/ does (fw_dev.c, fw_sched.c).
 */
#ifndef DMA_NAMES_H
#define DMA_NAMES_H

#include "gpu_names.h"

#endif /* DMA_NAMES_H */
