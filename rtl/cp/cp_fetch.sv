// SPDX-License-Identifier: MIT
//
// cp_fetch: a queue's dword fetch - the address of the next dword of the
// ring or indirect buffer, the prefetch queue of beats that holds the
// stream ahead of it, and the queue's reads in flight.
//
// Purpose: hand cp_exec the next dword of the packet stream, one a cycle
// at most, and fetch the beats ahead of it.  cp_exec keeps the stream's
// position (the ring's read pointer, or the IB it runs and how much of it
// is left); from it this block forms the address of the next dword
// (cur_addr_o) and whether there is one (avail_o: the ring up to the
// doorbell wptr_i, or the rest of the IB).  The prefetch queue (u_pq,
// Depth beats) holds the beats from the one of the next dword on, in
// stream order; up to Depth fetch reads are in flight behind them, never
// more than the queue has room for.  A beat is fetched only when the
// stream holds a dword in it: the ring up to the doorbell, the IB up to
// its end.
//
// Order: the queue's reads carry no tag, so their responses must come back
// in the order they were issued.  The memory answers one region in order
// and the MMU keeps one page's accesses in order (mmu_top), but a read to
// another page, region or VMID may pass an earlier one.  So a fetch is
// issued while others are in flight only to the same 4 KiB page (the
// smallest page, so one translation and one region), a fetch waits until
// the reads dropped by a flush have landed (the new stream may run in
// another VMID), and cp_exec's WAIT_MEM read goes only with no fetch in
// flight and holds the fetches back until it is answered.
//
// Drops (a flush): everything held or in flight is dropped - queue entries
// popped one a cycle, reads discarded as they land - when the doorbell
// moves (a beat fetched before the driver wrote the rest of a packet is
// never reused stale), when the stream jumps (an IB starts or returns:
// in_ib_i changes), on a reset (qreset_i), while the queue may not run
// (pf_off_i: halted, in error, disabled; the driver may rewrite the ring),
// and when the head is not the beat of the next dword (a ring moved under
// the queue: the data consumed is always that of cur_addr_o).
//
// Errors: a fetch that fails is queued as an error beat; it fails the
// queue (rd_err_o) only when the stream reaches it, so a dropped beat
// never does.  A WAIT_MEM read's error is reported as it lands.
//
// How to drive it: raise need_dw_i in a state that takes a dword; the dword
// is consumed (consume_o, dw_o) in a cycle the head holds it (have_dw_o).
// rd_req_o asks cp_queue for the fetch of rd_addr_o; granted_i with
// rd_wait_i clear is that fetch.  pf_hold_i stops new fetches (WAIT_MEM's
// states), pf_off_i drops everything.  rd_pend_o holds cp_exec's WAIT_MEM
// read back.  Its registers load only with q_act_i (cp_queue: with it
// clear none would change); act_o says this block needs a cycle.

`default_nettype none

`include "prim/prim_assert.svh"

module cp_fetch #(
  parameter int unsigned BeatBytes = 32,  // memory port bytes per beat
  parameter int unsigned Depth = 4        // prefetch queue beats = fetches in flight at most
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  input  logic                   q_act_i,       // the registers may change (cp_queue)
  input  logic                   qreset_i,      // one-cycle pulse
  input  logic                   pf_off_i,      // the queue may not run: drop, fetch nothing
  input  logic                   pf_hold_i,     // issue no fetch (WAIT_MEM)
  // Configuration from the register file
  input  logic [47:0]            base_i,
  input  logic [4:0]             size_log2_i,   // ring size in dwords, log2
  input  logic [19:0]            wptr_i,        // doorbell, dword offset
  // The stream's position (cp_exec)
  input  logic [19:0]            rptr_i,
  input  logic                   in_ib_i,
  input  logic [47:0]            ib_ptr_i,
  input  logic [20:0]            ib_rem_i,      // dwords left in the IB
  // The stream, to cp_exec
  input  logic                   need_dw_i,     // cp_exec is in a state that takes a dword
  output logic [19:0]            ring_mask_o,
  output logic                   ring_bad_o,    // base or size illegal (BAD_RING)
  output logic [47:0]            cur_addr_o,    // address of the next dword
  output logic                   avail_o,       // the stream holds a dword not yet consumed
  output logic                   have_dw_o,     // ... and it is at the head of the queue
  output logic                   consume_o,     // taken this cycle
  output logic [31:0]            dw_o,          // the dword taken (0 when none)
  output logic                   doorbell_o,    // wptr_i moved this cycle
  output logic                   act_o,         // a drop to do (cp_queue's q_act)
  // The queue's reads: requested, granted, answered
  output logic                   rd_req_o,      // a fetch read wanted ...
  output logic [47:0]            rd_addr_o,     // ... of this beat
  output logic                   rd_pend_o,     // a read is in flight (WAIT_MEM's waits)
  input  logic                   granted_i,     // the queue's request is taken ...
  input  logic                   req_we_i,      // ... a write, else a read ...
  input  logic                   rd_wait_i,     // ... cp_exec's WAIT_MEM read, else a fetch
  input  logic                   rsp_rd_i,      // read data comes ...
  input  logic                   rsp_err_i,     // ... or an error
  input  logic                   rsp_fault_i,   // ... the MMU's
  input  logic [BeatBytes*8-1:0] rsp_rdata_i,
  output logic                   rd_err_o,      // a read the queue wants failed ...
  output logic                   rd_fault_o     // ... a page fault, else a memory error
);

  `include "gpu_defs.svh"

  localparam int unsigned BeatLog2 = $clog2(BeatBytes);
  localparam int unsigned BW = 48 - BeatLog2;        // beat number bits
  localparam int unsigned CW = $clog2(Depth) + 1;    // counts 0..Depth
  localparam int unsigned DwLog2 = BeatLog2 - 2;     // dwords per beat, log2
  localparam int unsigned EntryW = 2 + BW + BeatBytes * 8;  // bits of pq_entry_t (Yosys 0.23: no $bits of a type)

  // The ring holds at least one beat (RingLog2Min), so beat offsets wrap
  // in its mask; the counts hold 0..Depth.
  `ASSERT_INIT(FetchRingBeats_A, RingLog2Min >= DwLog2 && Depth >= 2)

  typedef struct packed {
    logic          err;    // the read failed ...
    logic          fault;  // ... in the MMU
    logic [BW-1:0] beat;   // the beat it holds
    logic [BeatBytes*8-1:0] data;
  } pq_entry_t;

  logic [19:0] wptr_seen_q;
  logic in_ib_seen_q;
  logic [CW-1:0] ent_q, ent_d;      // entries in u_pq
  logic [CW-1:0] stale_q, stale_d;  // ... the first of them dropped, popped one a cycle
  logic [CW-1:0] fl_q, fl_d;        // fetch reads in flight
  logic [CW-1:0] drop_q, drop_d;    // ... the first of them dropped when they land
  logic [47-12:0] fl_page_q, fl_page_d;  // the 4 KiB page of those in flight
  logic wt_pend_q, wt_pend_d, wt_drop_q, wt_drop_d;  // the WAIT_MEM read

  // ---------------------------------------------------------------- stream
  logic [19:0] ring_mask, wptr_m;
  logic [47:0] cur_addr;
  logic avail, have_dw, consume, changed;
  logic [31:0] dw;

  assign ring_mask = 20'((32'd1 << size_log2_i) - 32'd1);
  assign wptr_m = wptr_i & ring_mask;
  assign cur_addr = in_ib_i ? ib_ptr_i : base_i + {26'd0, rptr_i, 2'b00};
  assign avail = in_ib_i ? (ib_rem_i != '0) : (rptr_i != wptr_m);
  assign ring_bad_o = (size_log2_i < 5'(RingLog2Min)) || (size_log2_i > 5'(RingLog2Max)) ||
                      (base_i[BeatLog2-1:0] != '0);
  // The doorbell moved, or the stream jumped: what is held is not its.
  assign changed = (wptr_i != wptr_seen_q) || (in_ib_i != in_ib_seen_q);

  // Beat k of the stream from the one of the next dword, and whether the
  // stream holds a dword in it.
  function automatic logic [BW-1:0] beat_at(logic [CW-1:0] k);
    logic [19-DwLog2:0] off;
    off = (rptr_i[19:DwLog2] + (20-DwLog2)'(k)) & ring_mask[19:DwLog2];
    beat_at = in_ib_i ? ib_ptr_i[47:BeatLog2] + BW'(k) : base_i[47:BeatLog2] + BW'(off);
  endfunction
  function automatic logic avail_at(logic [CW-1:0] k);
    logic [21:0] first;  // dwords of beat k's start past the head beat's
    logic [19:0] left;   // dwords of the ring up to the doorbell
    first = 22'(k) << DwLog2;
    left = (wptr_m - rptr_i) & ring_mask;
    avail_at = in_ib_i ? (first < 22'(ib_rem_i) + 22'(ib_ptr_i[BeatLog2-1:2]))
                       : (first < 22'(left) + 22'(rptr_i[DwLog2-1:0]));
  endfunction

  // ---------------------------------------------------------------- the queue's head
  pq_entry_t head;
  logic [CW-1:0] pq_count;  // u_pq's own count, checked against ent_q
  logic head_ok, mismatch, head_err, push, pop;
  logic [CW-1:0] live_ent, live_fl;
  // Nothing to fetch, hold, drop or wait for (the idle path: a queue with
  // an empty ring and nothing held forms none of what follows).
  logic f_any;
  assign f_any = avail || ent_q != '0 || fl_q != '0 || changed || qreset_i;
  // Read only while a dword is wanted (u_pq forms its head only then),
  // and compared only then (the idle path: Verilator evaluates every
  // expression of a block each cycle, but only the test of an if).
  always_comb begin
    live_ent = '0;
    live_fl = '0;
    head_ok = 1'b0;
    if (f_any) begin
      live_ent = ent_q - stale_q;
      live_fl = fl_q - drop_q;
      head_ok = need_dw_i && live_ent != '0 && stale_q == '0;
    end
  end
  always_comb begin
    mismatch = 1'b0;
    have_dw = 1'b0;
    head_err = 1'b0;
    if (head_ok) begin
      mismatch = head.beat != cur_addr[47:BeatLog2];
      have_dw = avail && !mismatch && !head.err && !changed;
      head_err = avail && !mismatch && head.err && !changed;
    end
  end
  assign consume = have_dw;  // have_dw holds need_dw_i
  always_comb begin  // every reader consumes it: selected only then
    dw = '0;
    if (consume) dw = head.data[32*cur_addr[BeatLog2-1:2] +: 32];
  end

  // ---------------------------------------------------------------- issue
  // The next fetch: beat live_ent + live_fl, with room for it, in the page
  // of those in flight, none of them dropped, no WAIT_MEM read, no drop now.
  // (A reset drops too, and with it a fetch granted on its cycle.)
  // The beat's address and the stream's length are formed only when the
  // cheap conditions hold (fetch_pre: a dword to fetch, room, nothing
  // dropped or waited for).
  logic drop_now, flush, fetch_pre, can_fetch;
  logic [BW-1:0] f_beat;
  always_comb begin
    drop_now = 1'b0;
    flush = 1'b0;
    fetch_pre = 1'b0;
    if (f_any) begin
      drop_now = changed || mismatch || (pf_off_i && (live_ent != '0 || live_fl != '0));
      flush = qreset_i || drop_now;
      fetch_pre = avail && !pf_off_i && !pf_hold_i && drop_q == '0 && !wt_pend_q &&
                  (ent_q + fl_q) < CW'(Depth) && (in_ib_i || !ring_bad_o);
    end
  end
  always_comb begin
    f_beat = '0;
    can_fetch = 1'b0;
    if (fetch_pre) begin
      f_beat = beat_at(live_ent + live_fl);
      can_fetch = !drop_now && avail_at(live_ent + live_fl) &&
                  (fl_q == '0 || f_beat[BW-1:12-BeatLog2] == fl_page_q);
    end
  end
  assign rd_req_o = can_fetch;
  assign rd_addr_o = {f_beat, {BeatLog2{1'b0}}};

  // ---------------------------------------------------------------- reads and the queue
  // The idle path: without q_act_i the registers are not loaded, so the _d
  // are constants nobody reads.
  logic issue, rsp_f, rd_err, rd_fault;
  assign issue = granted_i && !req_we_i && !rd_wait_i;
  assign rsp_f = rsp_rd_i && !wt_pend_q;
  assign push = q_act_i && rsp_f && drop_q == '0;
  assign pop = q_act_i && (stale_q != '0 || (consume && cur_addr[BeatLog2-1:2] == '1));
  always_comb begin
    rd_err = 1'b0;
    rd_fault = 1'b0;
    if (!q_act_i) begin
      ent_d = '0;
      stale_d = '0;
      fl_d = '0;
      drop_d = '0;
      fl_page_d = '0;
      wt_pend_d = '0;
      wt_drop_d = '0;
    end else begin
      ent_d = ent_q + CW'(push) - CW'(pop);
      stale_d = stale_q - CW'(stale_q != '0);
      fl_d = fl_q + CW'(issue) - CW'(rsp_f);
      drop_d = drop_q - CW'(rsp_f && drop_q != '0);
      fl_page_d = issue ? f_beat[BW-1:12-BeatLog2] : fl_page_q;
      wt_pend_d = wt_pend_q;
      wt_drop_d = wt_drop_q;
      if (granted_i && !req_we_i && rd_wait_i) wt_pend_d = 1'b1;
      if (rsp_rd_i && wt_pend_q) begin
        wt_pend_d = 1'b0;
        wt_drop_d = 1'b0;
        if (!wt_drop_q && rsp_err_i) begin
          rd_err = 1'b1;
          rd_fault = rsp_fault_i;
        end
      end
      // The stream reached a beat whose fetch failed.
      if (head_err) begin
        rd_err = 1'b1;
        rd_fault = head.fault;
      end
      if (flush) begin
        stale_d = ent_d;
        drop_d = fl_d;
      end
      if (qreset_i) wt_drop_d = wt_pend_d;  // it lands unread
    end
  end

  // The entry, formed only when it is pushed.
  pq_entry_t pq_wdata;
  always_comb begin
    pq_wdata = '0;
    if (push) pq_wdata = {rsp_err_i, rsp_fault_i, beat_at(live_ent), rsp_rdata_i};  // err, fault, beat, data
  end

  prim_fifo_sync #(
    .Width(EntryW),
    .Depth(Depth)
  ) u_pq (
    .clk_i,
    .rst_ni,
    .en_i(q_act_i),
    .clr_i(1'b0),  // a drop pops the held beats one a cycle (ref_fetch.c models that)
    .wvalid_i(push),
    .wdata_i(pq_wdata),
    .rready_i(pop),
    .out_en_i(need_dw_i),
    .rdata_o(head),
    .count_o(pq_count)
  );

  // ---------------------------------------------------------------- registers
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      wptr_seen_q <= '0;
      in_ib_seen_q <= 1'b0;
      ent_q <= '0;
      stale_q <= '0;
      fl_q <= '0;
      drop_q <= '0;
      fl_page_q <= '0;
      wt_pend_q <= 1'b0;
      wt_drop_q <= 1'b0;
    end else if (q_act_i) begin  // else the _d are constants, not read (the idle path)
      wptr_seen_q <= wptr_i;
      in_ib_seen_q <= in_ib_i;
      ent_q <= ent_d;
      stale_q <= stale_d;
      fl_q <= fl_d;
      drop_q <= drop_d;
      fl_page_q <= fl_page_d;
      wt_pend_q <= wt_pend_d;
      wt_drop_q <= wt_drop_d;
    end
  end

  assign ring_mask_o = ring_mask;
  assign cur_addr_o = cur_addr;
  assign avail_o = avail;
  assign have_dw_o = have_dw;
  assign consume_o = consume;
  assign dw_o = dw;
  assign doorbell_o = wptr_i != wptr_seen_q;
  assign act_o = flush || stale_q != '0 || head_err;
  assign rd_pend_o = fl_q != '0 || wt_pend_q;
  assign rd_err_o = rd_err;
  assign rd_fault_o = rd_fault;

  // ---------------------------------------------------------------- checks
  // The queue and the reads in flight stay within its depth (responses
  // always find room), the dropped ones are among them, and a read
  // response comes only for a read in flight.
  `ASSERT_IF(FetchBounds_A, ent_q + fl_q <= CW'(Depth) && stale_q <= ent_q && drop_q <= fl_q, q_act_i)
  // ent_q is u_pq's count (kept here: u_pq forms its own only with need_dw_i).
  `ASSERT_IF(FetchCount_A, pq_count == ent_q, q_act_i && need_dw_i)
  `ASSERT_IF(FetchRspPending_A, !rsp_rd_i || wt_pend_q || fl_q != '0, q_act_i)
  // A fetch and a WAIT_MEM read are never in flight together (their
  // responses carry no tag).
  `ASSERT_IF(FetchWaitAlone_A, !(granted_i && !req_we_i && rd_wait_i) || fl_q == '0, q_act_i)

`ifndef SYNTHESIS
  // Cover points (Verilator --coverage-user).
  // A fetch lands while dropped (the doorbell moved, the stream jumped, a reset).
  c_cp_fetch_dropped: cover property (@(posedge clk_i) rsp_f && drop_q != '0);
  // A reset while a read is in flight.
  c_cp_reset_read: cover property (@(posedge clk_i) qreset_i && rd_pend_o);
  // The prefetch queue full, and Depth fetches in flight.
  c_cp_fetch_full: cover property (@(posedge clk_i) ent_q == CW'(Depth));
  c_cp_fetch_deep: cover property (@(posedge clk_i) fl_q == CW'(Depth));
`endif

endmodule

`default_nettype wire
