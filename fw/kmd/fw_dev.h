/* SPDX-License-Identifier: MIT */
/*
 * fw_dev.h - the miniport's device layer: bring-up, rings, submission,
 * interrupts, fences, queue reset and aperture ranges.
 *
 * The driver side of gpusim talks to the GPU only as a driver would: through
 * registers (gm_reg_*), through memory the CPU can write (system memory,
 * here the model's backdoor), and through the interrupt line.
 *
 * The interrupt handler (fw_isr) only records what the hardware reported:
 * fence values, a halted queue's cause, address and header, the MMU fault.
 * It never resets a queue.  Whoever owns the queues decides: the
 * scheduler of the submission pipeline (fw_sched.c), or a client that
 * drives this layer alone (the demo, the tests), through fw_queue_reset.
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
	/* The interrupt handler's record of the last error (see fw_isr). */
	bool halted;             /* halted on that error; cleared by fw_queue_reset only */
	uint32_t errors;         /* error interrupts recorded */
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

/*
 * One line of the firmware's log on @out (NULL: silent): "who: text", or
 * "[cycle] who: text" when @g is given.  Every layer of fw/ logs through it.
 */
void fw_logf(FILE *out, const struct gm *g, const char *who, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Defaults: 1024-dword rings, queue 1 (copy) privileged, 256 MiB sysmem and VRAM. */
void fw_dev_cfg_default(struct fw_dev_cfg *cfg);

/*
 * Bring the device up: check ID and CAPS, make each queue's ring, fence and
 * write-back slot, program and enable the queues, enable the interrupts.
 * GM_OK; GM_ERR_BAD_ARG (NULL, ring size out of range); GM_ERR_HW (ID
 * mismatch or a register access refused); GM_ERR_NO_MEM (sysmem too small);
 * GM_ERR_ADDR (the model has less system memory than cfg->sys_bytes).
 */
int fw_dev_init(struct fw_dev *d, struct gm *g, const struct fw_dev_cfg *cfg) GM_MUST_CHECK;

/*
 * Carve @bytes of system memory aligned to @align (a power of two) from the
 * caller's half.  GM_OK and *addr; GM_ERR_BAD_ARG; GM_ERR_NO_MEM when full
 * (nothing carved).
 */
int fw_alloc_sys(struct fw_dev *d, uint64_t bytes, uint64_t align, uint64_t *addr) GM_MUST_CHECK;

/* Read registers @off[0..n) into @v in order (counters, status): GM_OK;
 * GM_ERR_HW at the first the port refused (the ones after it not read). */
int fw_reg_read_n(struct fw_dev *d, const uint32_t *off, uint32_t *v, size_t n) GM_MUST_CHECK;

/* Dwords that can be written into queue @qi's ring now; 0 (and nothing
 * read) for a NULL device or a queue it does not have. */
uint32_t fw_ring_space(struct fw_dev *d, unsigned qi);

/*
 * Copy @n dwords of packets into the ring and ring the doorbell.
 * GM_ERR_FULL when they do not fit now (nothing written; run the GPU and
 * retry); GM_ERR_BAD_ARG for a bad queue or more than the ring can ever hold;
 * GM_ERR_ADDR (the ring is outside the model's memory) and GM_ERR_HW (the
 * doorbell refused): the queue does not run them.
 */
int fw_ring_write(struct fw_dev *d, unsigned qi, const uint32_t *dw, uint32_t n) GM_MUST_CHECK;

/*
 * Submit packets (@n dwords, placed in the ring) followed by a RELEASE_FENCE
 * with interrupt carrying the queue's next fence value, returned in *fence.
 * Errors as fw_ring_write; nothing submitted on error.
 */
int fw_submit(struct fw_dev *d, unsigned qi, const uint32_t *dw, uint32_t n, uint64_t *fence)
	GM_MUST_CHECK;

/* Submit an INDIRECT_BUFFER of @size_dw dwords at @ib plus the fence; as
 * fw_submit.  The IB runs in the queue's VMID, privileged when the queue is
 * (the driver's own buffers: paging, page-table updates). */
int fw_submit_ib(struct fw_dev *d, unsigned qi, uint64_t ib, uint32_t size_dw, uint64_t *fence)
	GM_MUST_CHECK;

/*
 * The interrupt handler: read and acknowledge INT_STATUS; for each fence bit
 * update the queue's fence_seen from memory; for each error bit record the
 * queue's cause, address and header and mark it halted (the queue stays
 * halted: resetting it is the owner's decision, fw_queue_reset); for the
 * MMU bit read the latched fault into d->fault, report it and re-arm the
 * latch.  It changes no queue.  GM_OK and *handled = the INT_STATUS bits
 * handled (0: none pending); GM_ERR_HW (a register refused) or GM_ERR_ADDR
 * (a fence outside memory): the handler stopped there, *handled = 0.  The
 * caller's loop (fw_fence_wait, the scheduler's fw_kmd_poll) then reads
 * the record.
 */
int fw_isr(struct fw_dev *d, uint32_t *handled) GM_MUST_CHECK;

/*
 * Reset queue @qi (Q_CTRL.RESET): whatever it was doing stops, its ring is
 * empty and it stays enabled; submissions not yet retired are lost
 * (fence_lost = fence_emitted).  A queue halted on an error the interrupt
 * handler recorded is reported to the log (cause, address, header) and no
 * longer halted.  The only reset of a queue: the scheduler (timeout or
 * error) and clients of this layer alone call it, never the handler.
 * GM_OK; GM_ERR_BAD_ARG; GM_ERR_ADDR (the fence or the write-back slot is
 * outside memory: nothing changed); GM_ERR_HW (the register refused).
 */
int fw_queue_reset(struct fw_dev *d, unsigned qi) GM_MUST_CHECK;

/*
 * Make queue @qi's ring privileged or not (Q_CTRL.PRIV; an IB runs
 * privileged only when its INDIRECT_BUFFER says so).  GM_OK; GM_ERR_BAD_ARG;
 * GM_ERR_HW (the register refused: nothing changed).
 */
int fw_queue_set_priv(struct fw_dev *d, unsigned qi, bool priv) GM_MUST_CHECK;

/*
 * Map aperture (BAR1) range @r: window bytes [@start, @end) show the surface
 * at physical @base (mode @mode, 2^@bpe_log2-byte elements, @pitch bytes per
 * row) as linear rows, with the update protocol clear VALID, write the
 * fields, set VALID.  GM_OK; GM_ERR_BAD_ARG (@r, start/end not 8-aligned or
 * out of order or past the window); GM_ERR_HW (a register refused).
 * fw_apt_unmap clears VALID: the range's bytes are plain VRAM again.
 */
int fw_apt_map(struct fw_dev *d, unsigned r, uint32_t start, uint32_t end, uint64_t base,
	       unsigned mode, unsigned bpe_log2, uint32_t pitch) GM_MUST_CHECK;
int fw_apt_unmap(struct fw_dev *d, unsigned r) GM_MUST_CHECK;

/*
 * Wait (by interrupt) until queue @qi's fence reaches @value, running the
 * GPU up to @budget cycles.  GM_OK; GM_ERR_HW when the queue halted on an
 * error before reaching it (see err_cause; it stays halted until
 * fw_queue_reset) or a reset lost it, and as fw_isr when the handler
 * failed; GM_ERR_TIMEOUT when the budget ran out; GM_ERR_BAD_ARG for a bad
 * queue or a value never submitted.
 */
int fw_fence_wait(struct fw_dev *d, unsigned qi, uint64_t value, uint64_t budget) GM_MUST_CHECK;

#endif /* FW_DEV_H */
