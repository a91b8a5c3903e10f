/* SPDX-License-Identifier: MIT */
/*
 * fw_submit.h - the miniport's DxgkDdiPatch and DxgkDdiSubmitCommand: a
 * DMA buffer patched with its allocations' addresses into its slot in
 * system memory, then the render ring's packets that run it.
 *
 * The scheduler (fw_sched.h) decides what runs when and fills in the
 * arguments (the roles' patch hooks give the addresses, the paging fence
 * and the VMID); these functions only emit.  Host side and ring only:
 * nothing here waits for the GPU but a full ring.
 */
#ifndef FW_SUBMIT_H
#define FW_SUBMIT_H

#include "dma_patch.h"
#include "fw_kmd_types.h"

/*
 * DxgkDdiPatch (DXGKARG_PATCH): copy @buf's dwords to @scratch
 * (FW_KMD_DMA_DW dwords), patch them with the addresses @buf's allocation
 * list holds and SubmissionFenceId @fence_id, and write them to the DMA
 * buffer at @dma_addr in system memory.  GM_OK, *@ps the patcher's
 * statistics; GM_ERR_BAD_ARG (the patcher refused: *@ps says which entry
 * and why, nothing written); GM_ERR_ADDR (@dma_addr outside the model).
 */
int fw_ddi_patch(struct fw_dev *d, const struct fw_dmabuf *buf, uint64_t dma_addr,
		 uint32_t fence_id, uint32_t *scratch, struct dma_patch_stats *ps) GM_MUST_CHECK;

/* A DxgkDdiSubmitCommand: what the render ring gets for one DMA buffer. */
struct fw_ddi_submit {
	bool null;              /* NullRendering: no wait, no IB; the signals and the fence only */
	uint64_t wait_fence;    /* paging-queue fence the IB waits for (WAIT_MEM); 0: none */
	uint64_t dma_addr;      /* the patched DMA buffer, run as an IB */
	uint32_t ndw;           /* its dwords */
	unsigned vmid;          /* the VMID it runs in; 0: physical */
	uint32_t nsig;          /* monitored-fence signals (RELEASE_FENCE) after it */
	uint64_t sig_addr[FW_KMD_MAX_SIGNALS];
	uint64_t sig_value[FW_KMD_MAX_SIGNALS];
	uint64_t ring_wait_cycles; /* how long a full ring may keep it waiting */
};

/*
 * DxgkDdiSubmitCommand: put @s's packets in the render ring followed by the
 * queue fence, whose value (the SubmissionFenceId) goes to *@fence.  A full
 * ring is waited for, running the GPU, up to @s->ring_wait_cycles.  GM_OK;
 * GM_ERR_TIMEOUT (the ring stayed full); GM_ERR_HW (the model stopped); the
 * codes of the packet emitters and fw_submit.
 */
int fw_ddi_submit_command(struct fw_dev *d, const struct fw_ddi_submit *s, uint64_t *fence)
	GM_MUST_CHECK;

#endif /* FW_SUBMIT_H */
