/* SPDX-License-Identifier: MIT */
/*
 * cov_raw.h - the raw queues of the directed coverage tests (test_cov*.c):
 * a queue programmed through its registers (not the firmware's rings) runs
 * packets put at the start of its own ring in VRAM, so a test rings the
 * doorbell in the cycle it chooses.  Every helper fails the running cmocka
 * test when a call it makes is refused.
 */
#ifndef COV_RAW_H
#define COV_RAW_H

#include <stddef.h>
#include <stdint.h>

#include "tb_util.h"

#define RAW_AREA (GPU_VRAM_BASE + 0x0e000000ull)      /* raw rings and data: VRAM 224 MiB up */
#define RAW_RING(q) (RAW_AREA + (uint64_t)(q) * 0x10000ull)
#define RAW_FENCE (RAW_AREA + 0x40000ull)
#define RAW_LOG2 10u                                  /* ring of 2^10 dwords */
#define APT_OFF 0x0e800000u  /* window offset: VRAM 232 MiB (outside every range) */
#define APT_BYTES 0x10000u

/* Reset queue @q and point it at its raw ring, enabled and privileged. */
void raw_setup(struct tb *t, unsigned q);

/* Put @b at the start of queue @q's raw ring (the doorbell is the caller's). */
void raw_put(struct tb *t, unsigned q, const struct dma_buf *b);

/* Queue @q read @len dwords, ran @pkts packets and stopped without error. */
void raw_check_done(struct tb *t, unsigned q, uint32_t len, uint32_t pkts);

/* Run @n cycles (none for 0). */
void raw_step(struct tb *t, uint64_t n);

/* Queue 0, reset, rings one WRITE_DATA of @val to @va in VMID @vmid. */
void raw_ring_write(struct tb *t, uint32_t vmid, uint64_t va, uint32_t val);

/* As raw_ring_write, then 500 cycles. */
void raw_write_vmid(struct tb *t, uint32_t vmid, uint64_t va, uint32_t val);

/* VMID 3's tables in @pt: the raw area mapped 1:1 (the ring runs translated),
 * nothing else; the MMU on. */
void raw_vm3_tables(struct tb *t, struct tb_ptmem *mem, struct mmu_pt *pt);

/* @n random bytes from @seed (tb_rand) into @p. */
void raw_fill_bytes(uint8_t *p, size_t n, uint64_t *seed);

#endif /* COV_RAW_H */
