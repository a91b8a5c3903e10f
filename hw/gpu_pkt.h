/* SPDX-License-Identifier: MIT */
/*
 * gpu_pkt.h - the command processor's packet rules, in C.
 *
 * gpu_pkt_check() refuses exactly what a queue (rtl/cp/cp_*.sv) refuses, in the
 * same order, so the reference backend (model/ref/ref_queue.c) refuses what
 * the RTL refuses, the disassembler can say what the hardware would do and
 * the validator (the DxgkDdiRender role) can stop a bad buffer before it
 * reaches a ring.  Its tests run the same packets through both.
 */
#ifndef GPU_PKT_H
#define GPU_PKT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * The cause (enum gpu_cause) a queue would latch for the packet at dw[0]
 * when @left dwords (the header included) remain in its IB or ring, or
 * GPU_CAUSE_NONE.  @in_ib: the packet sits in an IB; @priv: the stream it
 * sits in runs privileged (a ring: Q_CTRL.PRIV; an IB: its INDIRECT_BUFFER's
 * PRIV bit); @ib_max_dw: the IB_MAX_DW register.  Only dw[0] is read when
 * the header is refused, and only the packet's own dwords otherwise.
 */
uint32_t gpu_pkt_check(const uint32_t *dw, size_t left, bool in_ib, bool priv, uint32_t ib_max_dw);

/* The header rules alone (type, opcode, privilege, COUNT against @left
 * dwords), as gpu_pkt_check() applies them before it looks at a payload:
 * GPU_CAUSE_NONE or the cause. */
uint32_t gpu_pkt_header_cause(uint32_t hdr, size_t left, bool priv);

#endif /* GPU_PKT_H */
