/* SPDX-License-Identifier: MIT */
/*
 * fw_dev.h - the miniport's device layer: bring-up, rings, submission,
 * interrupts, fences and queue recovery.
 *
 * The driver side of gpusim talks to the GPU only as a driver would: through
 * registers (gm_reg_*), through memory the CPU can write (system memory,
 * here the model's backdoor), and through the interrupt line.
 *
 * Rings, read-pointer write-back slots and fences live in system memory,
 * carved by a bump allocator from the top half of it (the bottom half is
 * left to callers).  Fences are 64-bit monitored values: the GPU writes
 * them, the CPU's view (fence_seen) never goes backward.
 */
#ifndef FW_DEV_H
#define FW_DEV_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "gm.h"

#define FW_MAX_QUEUES 8u
#define FW_QUEUE_RENDER 0u /* the 3-D/render queue */
#define FW_QUEUE_COPY 1u   /* the paging/copy queue */

struct fw_queue {
	unsigned id;
	bool priv;
	uint64_t ring_addr;      /* GPU (= system physical) address of the ring */
	uint32_t ring_dw;        /* ring size in dwords, a power of two */
	uint32_t wptr;           /* next dword the CPU writes */
	uint64_t rptr_wb_addr;   /* where the GPU writes back its read pointer */
	uint64_t fence_addr;     /* the queue's 64-bit monitored fence */
	uint64_t fence_emitted;  /* last value submitted */
	uint64_t fence_seen;     /* last value the CPU saw; never goes backward */
	/* The last error the queue halted on (see fw_isr). */
	uint32_t errors;         /* error interrupts handled */
	uint32_t err_cause;      /* enum gpu_cause */
	uint64_t err_addr;       /* failing packet address */
	uint32_t err_header;     /* failing packet header */
	uint64_t fence_lost;     /* submissions up to this fence died in a reset */
};

/* The MMU fault the interrupt handler read last. */
struct fw_mmu_fault {
	uint64_t va;
	uint32_t vmid, client, cause; /* cause: enum gpu_mmu_fault */
	bool write;
	uint32_t count;          /* MMU_FAULT_COUNT when it was read */
};

struct fw_dev {
	struct gm *gm;
	uint32_t caps;
	unsigned nq;             /* hardware queues (CAPS.NUM_QUEUES) */
	uint64_t sys_next, sys_end; /* the bump allocator's window */
	uint64_t vram_bytes, sys_bytes; /* memory sizes the model was made with */
	uint64_t pt_next, pt_end;   /* page-table pool in VRAM (fw_vm.c) */
	struct fw_queue q[FW_MAX_QUEUES];
	FILE *log;               /* what the firmware reports; NULL = silent */
	uint64_t irqs, fence_irqs, error_irqs, mmu_irqs;
	struct fw_mmu_fault fault;
};

struct fw_dev_cfg {
	uint32_t ring_log2;      /* ring size, log2 dwords (GPU_RING_LOG2_MIN..MAX) */
	uint32_t priv_mask;      /* bit q: queue q is privileged */
	uint64_t sys_bytes;      /* system memory size the model was made with */
	uint64_t vram_bytes;     /* VRAM size the model was made with */
	FILE *log;
};

/* Defaults: 1024-dword rings, queue 1 (copy) privileged, 256 MiB sysmem and VRAM. */
void fw_dev_cfg_default(struct fw_dev_cfg *cfg);

/*
 * Bring the device up: check ID and CAPS, make each queue's ring, fence and
 * write-back slot, program and enable the queues, enable the interrupts.
 * GM_OK; GM_ERR_BAD_ARG (NULL, ring size out of range); GM_ERR_HW (ID
 * mismatch or a register access refused); GM_ERR_NO_MEM (sysmem too small).
 */
int fw_dev_init(struct fw_dev *d, struct gm *g, const struct fw_dev_cfg *cfg);

/*
 * Carve @bytes of system memory aligned to @align (a power of two) from the
 * caller's half.  GM_OK and *addr; GM_ERR_BAD_ARG; GM_ERR_NO_MEM when full
 * (nothing carved).
 */
int fw_alloc_sys(struct fw_dev *d, uint64_t bytes, uint64_t align, uint64_t *addr);

/* Dwords that can be written into queue @qi's ring now; 0 (and nothing
 * read) for a NULL device or a queue it does not have. */
uint32_t fw_ring_space(struct fw_dev *d, unsigned qi);

/*
 * Copy @n dwords of packets into the ring and ring the doorbell.
 * GM_ERR_FULL when they do not fit now (nothing written; run the GPU and
 * retry); GM_ERR_BAD_ARG for a bad queue or more than the ring can ever hold.
 */
int fw_ring_write(struct fw_dev *d, unsigned qi, const uint32_t *dw, uint32_t n);

/*
 * Submit packets (@n dwords, placed in the ring) followed by a RELEASE_FENCE
 * with interrupt carrying the queue's next fence value, returned in *fence.
 * Errors as fw_ring_write; nothing submitted on error.
 */
int fw_submit(struct fw_dev *d, unsigned qi, const uint32_t *dw, uint32_t n, uint64_t *fence);

/* Submit an INDIRECT_BUFFER of @size_dw dwords at @ib plus the fence; as fw_submit. */
int fw_submit_ib(struct fw_dev *d, unsigned qi, uint64_t ib, uint32_t size_dw, uint64_t *fence);

/*
 * The interrupt handler: read and acknowledge INT_STATUS; for each fence bit
 * update the queue's fence_seen from memory; for each error bit latch the
 * queue's cause, address and header, report them to the log and reset the
 * queue (its pending submissions are lost: fence_lost = fence_emitted),
 * leaving it enabled and empty; for the MMU bit read the latched fault into
 * d->fault, report it and re-arm the latch.  Returns the INT_STATUS bits
 * handled.
 */
uint32_t fw_isr(struct fw_dev *d);

/*
 * Reset queue @qi (Q_CTRL.RESET): whatever it was doing stops, its ring is
 * empty and it stays enabled; submissions not yet retired are lost
 * (fence_lost = fence_emitted).  The timeout-detection path uses it.
 * GM_OK; GM_ERR_BAD_ARG; GM_ERR_HW (the register refused).
 */
int fw_queue_reset(struct fw_dev *d, unsigned qi);

/*
 * Map aperture (BAR1) range @r: window bytes [@start, @end) show the surface
 * at physical @base (mode @mode, 2^@bpe_log2-byte elements, @pitch bytes per
 * row) as linear rows, with the update protocol clear VALID, write the
 * fields, set VALID.  GM_OK; GM_ERR_BAD_ARG (@r, start/end not 8-aligned or
 * out of order or past the window); GM_ERR_HW (a register refused).
 * fw_apt_unmap clears VALID: the range's bytes are plain VRAM again.
 */
int fw_apt_map(struct fw_dev *d, unsigned r, uint32_t start, uint32_t end, uint64_t base,
	       unsigned mode, unsigned bpe_log2, uint32_t pitch);
int fw_apt_unmap(struct fw_dev *d, unsigned r);

/*
 * Wait (by interrupt) until queue @qi's fence reaches @value, running the
 * GPU up to @budget cycles.  GM_OK; GM_ERR_HW when the queue was reset on
 * an error before reaching it (see err_cause); GM_ERR_TIMEOUT when the
 * budget ran out; GM_ERR_BAD_ARG for a bad queue or a value never submitted.
 */
int fw_fence_wait(struct fw_dev *d, unsigned qi, uint64_t value, uint64_t budget);

#endif /* FW_DEV_H */
