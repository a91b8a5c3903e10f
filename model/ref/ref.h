/* SPDX-License-Identifier: MIT */
/*
 * ref.h - the reference backend's blocks and how they meet (internal).
 *
 * The reference backend ("ref", model/ref/) is a C model of gpu_top at its
 * pins, written from regspec/REGISTERS.md: the register file and interrupts
 * (ref_regs.c), two command queues (ref_queue.c, their fetch ref_fetch.c), the copy engine
 * (ref_ce.c), the aperture (ref_apt.c), the round-robin arbiter of their
 * memory requests (ref_arb.c), and the MMU between the arbiter and the
 * memory port (ref_mmu.c).  ref_top.c owns them, moves the pins and orders
 * each cycle.  No globals: every block lives in struct ref_top.
 *
 * Time: one call of a block's step function is one clock edge.  A block
 * first offers what its current state asks for (a memory request, a TLB
 * invalidation, a copy-engine command), ref_top decides who is served, and
 * then every block steps with what it was given.  Inputs from the pins are
 * registered on the way in, as on the hardware: a register access answers
 * two cycles after it was presented, a memory response reaches its client
 * the cycle after the memory model drove it.
 */
#ifndef REF_H
#define REF_H

#include <stdbool.h>
#include <stdint.h>

#include "gm_backend.h"
#include "gpu_hw.h"

#define REF_NUM_QUEUES 2u
#define REF_BEAT GM_BEAT_BYTES                /* bytes per memory beat */
#define REF_BEAT_MASK ((uint64_t)REF_BEAT - 1u)
#define REF_WALK_ID GPU_WALK_ID                /* the page walker's port id (regspec) */
#define REF_ADDR_MASK ((1ull << GPU_PA_BITS) - 1u)

/* One request of a client to the arbiter, and from there to the MMU. */
struct ref_req {
	bool valid, we;
	uint32_t id;          /* port id: client << 1 | we */
	uint8_t vmid;         /* 0: physical */
	uint64_t addr;        /* beat aligned */
	uint8_t wdata[REF_BEAT];
	uint32_t wstrb;       /* bit i: byte i of the beat */
};

/* One response back to a client (memory's, or the MMU's own). */
struct ref_rsp {
	bool valid, we, err, fault;
	uint32_t id;
	uint8_t rdata[REF_BEAT];
};

/* A TLB invalidation request (register or INVALIDATE_TLB). */
struct ref_inv {
	bool valid, all;
	uint8_t vmid;
	uint32_t start, end;  /* VA bits 47:16, inclusive */
};

/* ------------------------------------------------------------ registers */

/* What the register file holds that the other blocks read. */
struct ref_qcfg {
	bool enable, priv, halt, rptr_wb;
	uint64_t base, rptr_wb_addr;
	uint32_t size_log2, wptr;
	uint8_t vmid;
};

struct ref_range {
	bool valid;
	uint32_t mode, bpe, start, end, pitch;
	uint64_t base;
};

struct ref_regs {
	uint64_t cycle;
	uint32_t cycle_hi, scratch, int_status, int_enable, ib_max;
	struct ref_qcfg q[REF_NUM_QUEUES];
	bool mmu_enable;
	uint64_t root[GPU_NUM_VMIDS];
	uint32_t fault_status, fault_count, inv_vmid, inv_start, inv_end;
	uint64_t fault_va;
	struct ref_range rng[GPU_APT_RANGES];
	uint32_t db[GPU_NUM_DOORBELLS]; /* the doorbell table (DB_WPTR) */
	uint32_t db_unmapped;           /* DB_UNMAPPED */
	/* the response register of the port */
	bool rsp_valid, rsp_err;
	uint32_t rsp_rdata;
	/* pulses of this edge, for the other blocks */
	bool q_reset[REF_NUM_QUEUES];
	struct ref_inv inv;
	bool apt_wr;               /* any APT register written: flush */
	bool apt_cfg_wr;           /* a range register written */
	bool apt_err_clr;          /* APT_ERR_STATUS.VALID written 1 */
	bool apt_pf_drop;          /* APT_FLUSH.PF written 1 */
};

/* ------------------------------------------------------------ queue */

#define REF_FETCH_DEPTH GPU_CP_FETCH_DEPTH

/* A queue's fetch (cp_fetch): the prefetch queue of beats from the one of
 * the next dword on, and the reads in flight behind it. */
struct ref_fetch {
	struct ref_fetch_beat {
		bool err, fault;        /* its read failed (in the MMU) */
		uint64_t beat;          /* address / REF_BEAT */
		uint8_t data[REF_BEAT];
	} e[REF_FETCH_DEPTH];
	uint32_t rd, n;            /* head slot, entries */
	uint32_t stale;            /* the first entries dropped, popped one an edge */
	uint32_t fl, drop;         /* fetch reads in flight, the first of them dropped */
	uint64_t fl_page;          /* the 4 KiB page of those in flight */
	bool wt_pend, wt_drop;     /* the WAIT_MEM read in flight, dropped (a reset) */
	bool in_ib_seen;           /* in_ib as the last edge saw it */
};

struct ref_queue {
	unsigned idx;
	uint32_t state, ret;       /* enum gpu_cp_state */
	uint32_t rptr, wptr_seen;
	bool in_ib, ib_priv;
	uint8_t ib_vmid;
	uint64_t ib_ptr;
	uint32_t ib_rem;
	struct ref_fetch f;        /* the stream's prefetch queue and reads (ref_fetch.c) */
	uint32_t wr_out;           /* posted writes not yet acknowledged */
	/* the packet */
	uint32_t hdr, cnt, idx_pl;
	uint32_t pl[16];
	uint64_t pkt_addr;
	bool pkt_ring;
	uint64_t wr_addr, wr_data;
	bool wr_64;
	uint32_t poll;
	uint32_t pte_left;
	uint64_t pte_base;
	/* errors and counters */
	uint32_t err_cause, err_hdr;
	uint64_t err_addr;
	uint32_t pkts, busy, stall_mem, stall_wait, stall_fence;
	bool fence_irq, err_irq;   /* one-cycle pulses to the register file */
};

/* What a queue asks of the copy engine. */
struct ref_ce_cmd {
	bool fill;
	uint64_t src_base, dst_base;
	uint32_t src_mode, dst_mode, src_pitch, dst_pitch, src_x0b, dst_x0b;
	uint32_t src_y0, dst_y0, bpe, w, h;   /* w in bytes */
	uint64_t value;
};

/* ------------------------------------------------------------ copy engine */

struct ref_piece {
	uint64_t addr;
	uint32_t len, pos;
};

/* One side's walk over a rectangle, in the engine's canonical order. */
struct ref_walk {
	bool busy, pair, r;
	uint64_t base;
	uint32_t mode, bpe, pitch, x0b, y0, w, h;
	uint32_t yb;
	uint64_t c, p;
	bool pc_v;                 /* pc is the piece at this position */
	struct ref_piece pc;
};


#define REF_CE_SLOTS GPU_CE_ROB_SLOTS
#define REF_CE_REUSE 4u
#define REF_CE_WCB 4u
#define REF_CE_PF 64u
#define REF_CE_RQ 4u
#define REF_CE_BF 64u

struct ref_ce {
	uint32_t state;            /* enum gpu_ce_state */
	bool start_pending, fault;
	bool fill;
	uint64_t value;
	struct ref_walk src, dst;
	/* read slots (tag = slot), allocation order */
	uint32_t alloc, freed;     /* sequence counters */
	uint8_t rob[REF_CE_SLOTS][REF_BEAT];
	bool rob_v[REF_CE_SLOTS];
	uint64_t cam_beat[REF_CE_REUSE];
	uint32_t cam_seq[REF_CE_REUSE];
	bool cam_v[REF_CE_REUSE];
	unsigned cam_next;
	/* pieces between the source walker and the extractor */
	struct { uint32_t pos, seq, len, off, slot; } pf[REF_CE_PF];
	uint32_t pf_wr, pf_rd;
	/* reads waiting for the memory channel */
	struct { uint64_t beat; uint32_t slot; } rq[REF_CE_RQ];
	uint32_t rq_wr, rq_rd;
	/* the byte FIFO */
	uint8_t bf[REF_CE_BF];
	uint32_t bf_wr, bf_rd;
	/* write combining */
	bool w_v[REF_CE_WCB], w_cl[REF_CE_WCB];
	uint64_t w_beat[REF_CE_WCB];
	uint8_t w_data[REF_CE_WCB][REF_BEAT];
	uint32_t w_strb[REF_CE_WCB];
	uint32_t w_age[REF_CE_WCB];
	uint32_t w_stamp;
	uint32_t rd_out, wr_out;
	uint32_t busy_cycles, bytes;
	/* outputs of this edge */
	bool done, done_err, done_fault;
	unsigned owner;
	uint8_t vmid;
};

/* ------------------------------------------------------------ aperture */

#define REF_APT_HOST 4u          /* host FIFO entries */
#define REF_APT_WQ 4u            /* closed write beats waiting for a slot */
#define REF_APT_SLOTS GPU_APT_SLOTS
#define REF_APT_RB 32u           /* read beat buffers (a ring) */
#define REF_APT_RU 32u           /* read units waiting for their beat */
#define REF_APT_DIV_CYCLES 28u   /* the row division, one quotient bit a cycle */

/* One host access: a 16-byte chunk with byte enables. */
struct ref_apt_chunk {
	bool we;
	uint32_t off;              /* window offset, 16-aligned */
	uint8_t data[16];
	uint16_t strb;
};

/* A unit of translation: the whole chunk, or one half (in bytes 7:0). */
struct ref_apt_unit {
	bool we, wide, half, last; /* last: a read answers with this unit */
	uint32_t off;              /* window offset of its first word */
	uint8_t data[16];
	uint16_t strb;
};

/* A translation stage: s1 holds the row and byte column (or a linear
 * address), s2 the physical address; err is enum gpu_apt_err. */
struct ref_apt_stage {
	bool v, lin;
	uint32_t err;
	unsigned r;
	uint32_t xb, y;
	uint64_t addr;
	struct ref_apt_unit u;
};

/* A write beat: the combining buffer or a queued one. */
struct ref_apt_beat {
	uint64_t beat;             /* address >> log2(REF_BEAT) */
	uint8_t data[REF_BEAT];
	uint32_t strb;
	uint32_t off;              /* window offset of the first word written */
};

/* A read unit waiting for its beat buffer. */
struct ref_apt_ru {
	bool wide, half, last, err;
	unsigned lane, rb;
};

/* The write-combined aperture (ref_apt.c: front end, ref_apt_mem.c: the
 * posted writes, the streamed reads and the error latch). */
struct ref_apt {
	struct ref_apt_chunk hq[REF_APT_HOST];
	unsigned hq_rd, hq_n;
	bool part;                 /* the head's low half is translated */
	uint32_t state;            /* enum gpu_apt_state (APT_STATUS.STATE) */
	/* the division of a row-cache miss */
	unsigned div_r, div_left;
	uint32_t div_q, div_rem, div_l;
	/* the row cache: range, offset of the row's start, row */
	bool rc_v, row_err;
	unsigned rc_r;
	uint32_t rc_l0, rc_y0;
	struct ref_apt_stage s1, s2;
	/* posted writes */
	struct ref_apt_beat wc, wq[REF_APT_WQ];
	bool wc_v, flush;
	unsigned wc_idle, wq_rd, wq_n;
	uint32_t sl_v;             /* write slots in flight (bit = tag) */
	uint32_t sl_off[REF_APT_SLOTS];
	/* streamed reads: beat buffers in allocation order, units in order */
	uint64_t rb_beat[REF_APT_RB];
	uint8_t rb_data[REF_APT_RB][REF_BEAT];
	uint32_t rb_v, rb_err, rb_stale;
	uint32_t rb_alloc, rb_iss, rb_free;   /* sequence counters */
	struct ref_apt_ru ru[REF_APT_RU];
	unsigned ru_rd, ru_n;
	uint8_t racc[16];
	bool rerr;
	/* errors and counters */
	bool err_v;
	uint32_t err_cause, err_off, err_count, accesses;
	/* outputs of this edge */
	bool rsp_valid, rsp_err, err_irq;
	uint64_t rsp_rdata[2];
};

/* The host request of an edge and what the register file tells the aperture. */
struct ref_apt_in {
	bool req_valid, we;
	uint32_t addr;
	uint64_t wdata[2];
	uint16_t wstrb;
	bool granted;              /* its memory request was taken */
	const struct ref_rsp *rsp; /* NULL: none for the aperture */
	bool snoop_valid;          /* a write the memory port took last edge */
	uint64_t snoop_addr;
};

/* ------------------------------------------------------------ MMU */

struct ref_tlb_entry {
	bool valid, used, big, r, w, null;
	uint8_t vmid;
	uint64_t vpn, pfn;         /* VA >> 12, PA >> 12 */
};

#define REF_TLB_ENTRIES 16u
#define REF_MISS_DEPTH 2u
#define REF_PWC_PDES 4u                       /* page-walk cache: leaf tables of 2 MiB regions */
#define REF_PWC_LINES 2u                      /* ... and leaf-table beats */

struct ref_fault {
	bool valid, write;
	uint32_t cause, client;
	uint8_t vmid;
	uint64_t va;
};

struct ref_mmu {
	struct ref_tlb_entry tlb[REF_TLB_ENTRIES];
	struct ref_req ob[2];      /* output buffer to the memory port */
	unsigned ob_n;
	bool syn_valid, syn_fault; /* the MMU's own answer (null tile, fault) */
	uint32_t syn_id;
	struct ref_req mq[REF_MISS_DEPTH];
	unsigned mq_n;
	uint32_t wk;               /* enum gpu_walk_state */
	unsigned level;
	uint64_t table, pte;
	bool stale;
	uint32_t wk_fault;
	uint32_t hits, misses, walks, walk_cycles, walk_len, walk_max;
	bool wk_mem;               /* this walk reads memory (else the line cache ended it) */
	/* the page-walk cache (ref_mmu.c): round robin in each part */
	struct {
		bool valid;
		uint8_t vmid;
		uint64_t tag;      /* VA >> 21 */
		uint64_t table;    /* the leaf table's address */
	} pde[REF_PWC_PDES];
	struct {
		bool valid;
		uint8_t vmid;
		uint64_t tag;      /* VA >> (log2(REF_BEAT) + 9) */
		uint8_t beat[REF_BEAT];
	} line[REF_PWC_LINES];
	unsigned pde_next, line_next;
	struct ref_fault fault;    /* the fault reported this edge */
};

/* ------------------------------------------------------------ top */

struct ref_arb {
	unsigned last;
};

#define REF_NUM_CLIENTS (REF_NUM_QUEUES + 2u) /* queues, aperture, copy engine */

struct ref_top {
	struct gm_pins *pins;
	/* input registers */
	bool r_valid, r_we;
	uint16_t r_addr;
	uint32_t r_wdata;
	struct ref_rsp m_rsp;
	bool a_valid, a_we;
	uint32_t a_addr;
	uint64_t a_wdata[2];
	uint16_t a_wstrb;
	bool snoop_valid;          /* a write the memory port took (registered) */
	uint64_t snoop_addr;
	/* Every block was found quiet (ref_top.c quiet_state()) and no edge
	 * since could change that: the test need not be made again. */
	bool quiet_ok;
	/* The MMU's and the aperture's last steps were idle (ref_top.c). */
	bool mmu_fix, apt_fix;
	/* blocks */
	struct ref_regs regs;
	struct ref_queue q[REF_NUM_QUEUES];
	struct ref_ce ce;
	struct ref_apt apt;
	struct ref_arb arb;
	struct ref_mmu mmu;
};

/* ref_regs.c */
void ref_regs_reset(struct ref_regs *r);
/* One edge: the access (if @valid) and the pulses of the other blocks. */
void ref_regs_step(struct ref_top *t, bool valid, bool we, uint16_t addr, uint32_t wdata);
bool ref_regs_irq(const struct ref_regs *r);
void ref_regs_fault(struct ref_regs *r, const struct ref_fault *f);

/* ref_queue.c */
void ref_queue_reset(struct ref_queue *q, unsigned idx);
/* The request the queue presents this cycle (from its state only). */
void ref_queue_offer(const struct ref_queue *q, const struct ref_qcfg *cfg, struct ref_req *req);
/* Whether it asks for a TLB invalidation, and the command it offers the
 * copy engine. */
bool ref_queue_inv(const struct ref_queue *q, struct ref_inv *inv);
bool ref_queue_ce(const struct ref_queue *q, struct ref_ce_cmd *cmd);
uint8_t ref_queue_exec_vmid(const struct ref_queue *q, const struct ref_qcfg *cfg);
struct ref_queue_in {
	bool granted, inv_taken, ce_taken, ce_done, ce_err, ce_fault, qreset;
	const struct ref_rsp *rsp;   /* NULL: none for this queue */
	uint32_t ib_max;
	uint64_t cycle;
};
void ref_queue_step(struct ref_queue *q, const struct ref_qcfg *cfg, const struct ref_queue_in *in);
/* An edge that can change nothing but counters (no response, no grant,
 * no reset): whether this is one, and taking it. */
bool ref_queue_quiet(const struct ref_queue *q, const struct ref_qcfg *cfg);
bool ref_queue_quiet_step(struct ref_queue *q);

/* The stream of a queue: its ring's dword mask, the address of the next
 * dword, whether there is one, and the states that take one. */
static inline uint32_t ref_ring_mask(const struct ref_qcfg *c)
{
	return (uint32_t)((1ull << c->size_log2) - 1u) & 0xfffffu;
}

static inline uint64_t ref_cur_addr(const struct ref_queue *q, const struct ref_qcfg *c)
{
	return q->in_ib ? q->ib_ptr : (c->base + 4ull * q->rptr) & REF_ADDR_MASK;
}

static inline bool ref_avail(const struct ref_queue *q, const struct ref_qcfg *c)
{
	return q->in_ib ? q->ib_rem != 0 : q->rptr != (c->wptr & ref_ring_mask(c));
}

static inline bool ref_needs_dw(uint32_t st)
{
	return st == GPU_CP_ST_HEADER || st == GPU_CP_ST_PAYLOAD || st == GPU_CP_ST_SKIP ||
	       st == GPU_CP_ST_WDATA;
}

/* ref_fetch.c: the fetch side of a queue's edge, from the state the edge
 * starts in (cp_fetch). */
/* Whether the head holds the next dword (have_dw_o; only in a state that
 * takes one), and whether the stream reached a beat whose read failed. */
bool ref_fetch_have(const struct ref_queue *q, const struct ref_qcfg *c);
bool ref_fetch_err(const struct ref_queue *q, const struct ref_qcfg *c, bool *fault);
/* The fetch read the queue offers (rd_req_o), its beat address in *addr. */
bool ref_fetch_want(const struct ref_queue *q, const struct ref_qcfg *c, uint64_t *addr);
/* A drop to do (act_o): the edge is not quiet. */
bool ref_fetch_act(const struct ref_queue *q, const struct ref_qcfg *c);
/* The dword at the head for the next dword's address @here. */
uint32_t ref_fetch_dw(const struct ref_queue *q, uint64_t here);
/* The fetch's edge: @fetch_granted / @wait_granted the queue's read taken,
 * @rsp a read response for the queue (NULL: none), @consume the head's
 * dword taken.  Returns the error cause of a WAIT_MEM read that failed,
 * or NONE. */
uint32_t ref_fetch_step(struct ref_queue *q, const struct ref_qcfg *c, bool fetch_granted,
			bool wait_granted, const struct ref_rsp *rsp, bool consume, bool qreset);

/* ref_ce.c */
void ref_ce_reset(struct ref_ce *ce);
bool ref_ce_ready(const struct ref_ce *ce);
/* done_o of this edge (from the state it starts in), with err and fault. */
bool ref_ce_done(const struct ref_ce *ce, bool *err, bool *fault);
void ref_ce_offer(const struct ref_ce *ce, struct ref_req *req);
void ref_ce_step(struct ref_ce *ce, const struct ref_ce_cmd *cmd, bool granted,
		 const struct ref_rsp *rsp, bool abort);

/* ref_apt.c */
void ref_apt_reset(struct ref_apt *a);
/* Whether the host may present a request, @pending the one registered. */
bool ref_apt_ready(const struct ref_apt *a, bool pending);
/* Work in progress (the quiet-edge test of ref_top.c). */
/* Whether a snooped write to @addr (@valid) makes the newest beat stale. */
bool ref_apt_snoop_hits(const struct ref_apt *a, bool valid, uint64_t addr);
bool ref_apt_busy(const struct ref_apt *a);
/* APT_STATUS as the register file reads it. */
uint32_t ref_apt_status(const struct ref_apt *a);
void ref_apt_offer(const struct ref_apt *a, struct ref_req *req);
void ref_apt_step(struct ref_apt *a, const struct ref_regs *regs, const struct ref_apt_in *in);

/* ref_apt_mem.c (the aperture's back end, for ref_apt.c) */
bool ref_apt_drained(const struct ref_apt *a);
bool ref_apt_front_empty(const struct ref_apt *a);
/* One edge of the back end on the stage s2: whether s2 was taken. */
bool ref_apt_mem_step(struct ref_apt *a, const struct ref_regs *regs, const struct ref_apt_in *in);

/* ref_arb.c */
void ref_arb_reset(struct ref_arb *a);
/* The client to serve among @offers (REF_NUM_CLIENTS), or -1. */
int ref_arb_pick(const struct ref_arb *a, const struct ref_req *offers);
void ref_arb_step(struct ref_arb *a, int pick, bool taken);
/* The client a response id belongs to, or -1 (the walker's own). */
int ref_arb_client(uint32_t id);

/* ref_mmu.c */
void ref_mmu_reset(struct ref_mmu *m);
/* The response the MMU passes up this cycle (memory's, or its own). */
void ref_mmu_up(const struct ref_mmu *m, const struct ref_rsp *mem, struct ref_rsp *up);
/* One edge: @in the arbiter's request (taken: return true), @mem the
 * registered memory response, @mem_ready the port took the head. */
bool ref_mmu_step(struct ref_mmu *m, const struct ref_regs *regs, const struct ref_req *in,
		  const struct ref_rsp *mem, bool mem_ready, const struct ref_inv *inv);

#endif /* REF_H */
