/* SPDX-License-Identifier: MIT */
/*
 * dma_names.h - name tables generated from regspec/gpusim.json
 * (dma/dma_names.c is generated; this header is its hand-written contract).
 */
#ifndef DMA_NAMES_H
#define DMA_NAMES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct gpu_pkt_desc {
	const char *name;
	uint32_t opcode;
	uint32_t count_min, count_max; /* legal header COUNT */
	uint32_t ndw;                  /* named payload dwords */
	const char *const *dw_names;   /* ndw names; for WRITE_DATA the last repeats */
};

struct gpu_reg_desc {
	const char *name;
	uint32_t offset;  /* byte offset; inside its block when block_stride != 0 */
	uint32_t block_base, block_stride; /* instance i at block_base + i * block_stride */
};

/* Each returns the enum value's name, or NULL for a value the spec lacks. */
const char *gpu_opcode_name(uint32_t v);
const char *gpu_cause_name(uint32_t v);
const char *gpu_cp_state_name(uint32_t v);
const char *gpu_wait_func_name(uint32_t v);
const char *gpu_mmu_fault_name(uint32_t v);
const char *gpu_walk_state_name(uint32_t v);

/* The layout of @opcode's packet, or NULL for an unknown opcode. */
const struct gpu_pkt_desc *gpu_pkt_desc(uint32_t opcode);

/* Every register, global ones first; *n receives the count. */
const struct gpu_reg_desc *gpu_reg_table(size_t *n);

#endif /* DMA_NAMES_H */
