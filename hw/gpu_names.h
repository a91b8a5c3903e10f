/* SPDX-License-Identifier: MIT */
/*
 * gpu_names.h - name tables, packet rules and tile geometry generated from
 * regspec/gpusim.json (hw/gpu_names.c is generated; this header is its
 * hand-written contract).
 */
#ifndef GPU_NAMES_H
#define GPU_NAMES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct gpu_pkt_desc {
	const char *name;
	uint32_t opcode;
	uint32_t count_min, count_max; /* legal header COUNT */
	uint32_t ndw;                  /* named payload dwords */
	bool priv;                     /* privileged: only on a PRIV queue */
	const char *const *dw_names;   /* ndw names; for WRITE_DATA the last repeats */
	const uint32_t *reserved;      /* ndw masks: a set bit is BAD_FIELD */
};

/*
 * A tiled mode's geometry at one element size: the byte column's low
 * tw_log2 bits go to the set bits of xmask, the row's low th_log2 bits to
 * those of ymask (tw_log2 = popcount(xmask), th_log2 = popcount(ymask)).
 */
struct gpu_tile_geom {
	uint16_t xmask, ymask;
	uint8_t tw_log2;  /* log2 of the tile width in bytes */
	uint8_t th_log2;  /* log2 of the tile height in rows */
};

struct gpu_reg_desc {
	const char *name;
	uint32_t offset;  /* byte offset; inside its block when block_stride != 0 */
	uint32_t block_base, block_stride; /* instance i at block_base + i * block_stride */
	uint32_t block_count; /* instances the map has room for (1: a global register) */
	bool rw;          /* read/write: rw_bits read back as written, the rest 0 */
	uint32_t rw_bits;
};

/* Each returns the enum value's name, or NULL for a value the spec lacks. */
const char *gpu_opcode_name(uint32_t v);
const char *gpu_cause_name(uint32_t v);
const char *gpu_cp_state_name(uint32_t v);
const char *gpu_wait_func_name(uint32_t v);
const char *gpu_mmu_fault_name(uint32_t v);
const char *gpu_walk_state_name(uint32_t v);
const char *gpu_tile_mode_name(uint32_t v);
const char *gpu_ce_state_name(uint32_t v);
const char *gpu_apt_state_name(uint32_t v);
const char *gpu_apt_rd_name(uint32_t v);
const char *gpu_apt_err_name(uint32_t v);

/* The layout of @opcode's packet, or NULL for an unknown opcode. */
const struct gpu_pkt_desc *gpu_pkt_desc(uint32_t opcode);

/* The geometry of tiled @mode at @bpe_log2, or NULL (LINEAR, unknown mode
 * or element size). */
const struct gpu_tile_geom *gpu_tile_geom(uint32_t mode, uint32_t bpe_log2);

/* Every register, global ones first; *n receives the count. */
const struct gpu_reg_desc *gpu_reg_table(size_t *n);

#endif /* GPU_NAMES_H */
