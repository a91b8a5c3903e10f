// SPDX-License-Identifier: MIT
//
// apt_wr: the aperture's posted-write path: the write-combining buffer, the
// write queue, the write slots in flight and the posted-write error latch.
//
// Purpose: writes are posted (no response).  The write-combining buffer
// (wc_q) merges the words that land in one memory beat, with byte enables;
// it closes into the write queue (u_wq, a prim_fifo_sync of WqDepth
// beats) when a write goes to another beat, before a read, on a flush
// (any write to an APT register: apt_wr_i) once the accesses before it
// have reached it (front_empty_i), or after AptWcIdleCycles without an
// access.  The queue's head goes out as a
// memory request with a slot tag when a slot is free and no read's beat
// fetch (fetch_i, from apt_rd) has the port: this block drives the
// aperture's memory request channel.  AptSlots may be in flight, each
// remembering the window offset of its first word.  A write waits for the
// reads before it to have their data (reads_i).
//
// A posted write that fails cannot answer: the illegal-format and
// row-past-2^16 words write nothing (taken from s2 with their error) and a
// memory error drops its beat; the first failure since APT_ERR_STATUS was
// cleared (err_clr_i) is latched (cause, window offset), every failure
// pulses err_irq_o and counts.  Nothing waits on anything but the memory,
// which always answers, so a flush always completes.
//
// How to drive it: s2_* is apt_front's unit; take_o says this path takes it
// (a write), the cycle's last word.  busy_i and act_i are apt_top's a_busy_q
// and a_act (see apt_front): without busy_i the status outputs take their
// quiet values, without act_i nothing changes.

`default_nettype none

module apt_wr #(
  parameter int unsigned BeatBytes = 32,
  parameter int unsigned TagW = 5,        // log2 of AptSlots
  parameter int unsigned WqDepth = 4      // closed beats waiting for a slot
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  input  logic                   busy_i,         // apt_top a_busy_q
  input  logic                   act_i,          // apt_top a_act
  // s2's unit (apt_front)
  input  logic                   s2_v_i,
  input  logic [1:0]             s2_err_i,       // apt_err_e
  input  logic [47:0]            s2_addr_i,
  input  logic                   s2_we_i,
  input  logic [27:3]            s2_off_i,
  input  logic [127:0]           s2_data_i,
  input  logic [15:0]            s2_strb_i,
  output logic                   take_o,         // a write in s2 is taken
  input  logic                   reads_i,        // read units wait for their data (apt_rd)
  input  logic                   front_empty_i,  // apt_front holds nothing
  input  logic                   apt_wr_i,       // any APT register was written: flush
  input  logic                   err_clr_i,      // APT_ERR_STATUS.VALID written 1
  // Status
  output logic                   drained_o,      // nothing buffered, queued or in flight
  output logic                   wc_o,
  output logic                   flush_o,        // a flush waits
  output logic [5:0]             pend_o,
  output logic                   err_valid_o,
  output logic [1:0]             err_cause_o,
  output logic [27:0]            err_off_o,
  output logic [31:0]            err_count_o,
  output logic                   err_irq_o,      // one cycle per failing posted write
  // A read's beat fetch (apt_rd), which goes first
  input  logic                   fetch_i,
  input  logic [TagW-1:0]        fetch_tag_i,
  input  logic [47:0]            fetch_addr_i,
  // Memory request channel (VMID 0; id: {APT_CLIENT | slot, write})
  output logic                   m_req_valid_o,
  input  logic                   m_req_ready_i,
  output gpu_pkg::mem_req_t      m_req_o,
  // Memory responses
  input  logic                   m_rsp_valid_i,
  input  gpu_pkg::mem_rsp_t      m_rsp_i
);

  `include "gpu_defs.svh"

  localparam int unsigned BL = $clog2(BeatBytes);
  localparam int unsigned BB = BeatBytes * 8;
  localparam int unsigned Slots = 1 << TagW;
  localparam int unsigned QW = $clog2(WqDepth);
  localparam int unsigned LW = BL - 3;  // word lane in a beat

  // The design's assumptions.
  initial begin : check_params
    if (WqDepth != (1 << QW)) $error("apt_wr: the write queue's depth is a power of two");
  end

  // A beat: the write-combining buffer, a queued beat.
  typedef struct packed {
    logic [47:BL]       beat;
    logic [BB-1:0]      data;
    logic [BeatBytes-1:0] strb;
    logic [27:3]        off;  // window offset of the first word
  } beat_t;

  // The buffer is written only when a write lands in it (wc_ld): no copy
  // of its beat each cycle.
  beat_t wc_q, wc_d;
  logic wc_ld;
  logic wc_v_q, wc_v_d;
  logic [4:0] wc_idle_q, wc_idle_d;
  logic flush_q, flush_d;       // a flush waits for the accesses before it
  beat_t wq_head;  // the write queue (u_wq): its head and its count
  logic [QW:0] wq_count, wq_cnt;
  logic wq_push, wq_pop;
  logic [Slots-1:0] sl_v_q, sl_v_d;
  logic [27:3] sl_off_q [Slots];
  logic [TagW-1:0] sl_pick;
  logic [TagW-1:0] m_tag, m_rsp_tag;  // the request's slot (its id's tag bits), a response's
  logic wr_go;  // the queue's head goes out
  logic [27:3] wq_off;  // the write queue head's window offset
  logic [47:BL] c_beat, wc_beat;
  assign wc_beat = wc_q.beat;
  assign c_beat = s2_addr_i[47:BL];

  // Errors of posted writes.
  logic c_err, m_err, wr_rsp, err_v_q, err_v_d;
  logic [1:0] err_cause_q;
  logic [27:3] err_off_q;
  logic [31:0] err_cnt_q;

  // Working values of the next-state block (below), read only there.
  logic [LW-1:0] lane;  // s2's word lane in its beat
  logic [BeatBytes-1:0] w_strb;  // s2's byte enables in its beat

  // The write-combining merge: s2's word(s) into the buffer's beat at their
  // lane, byte by byte.
  function automatic logic [BB-1:0] wc_merge(logic [BB-1:0] old, logic [127:0] data,
                                             logic [LW-1:0] ln, logic [BeatBytes-1:0] strb);
    logic [BB-1:0] bits, w;
    w = BB'(data) << {ln, 6'b000000};
    for (int unsigned j = 0; j < BeatBytes; j++) bits[8*j +: 8] = {8{strb[j]}};
    wc_merge = (old & ~bits) | (w & bits);
  endfunction

  // ---------------------------------------------------------------- status, requests
  // From registers only (the memory port's ready is read below), evaluated
  // with busy_i: without it the state is quiet (nothing queued or fetched)
  // and these are their quiet values.  The memory port takes a read's beat
  // fetch (apt_rd: only once every write is acknowledged), else the write
  // queue's head when a slot is free; its data is the queue's head whatever
  // goes.
  always_comb begin
    wq_cnt = '0;
    sl_pick = '0;
    wr_go = 1'b0;
    m_req_valid_o = 1'b0;
    m_req_o = '0;
    m_tag = '0;
    wq_off = '0;
    drained_o = 1'b1;
    c_err = 1'b0;
    pend_o = '0;
    if (busy_i) begin
      wq_cnt = wq_count;
      if (wq_cnt != '0) begin
        // The queue's head, straight into the port (a write's data).
        {m_req_o.addr[47:BL], m_req_o.wdata, m_req_o.wstrb, wq_off} = wq_head;
        for (int i = Slots - 1; i >= 0; i--) begin
          if (!sl_v_q[i]) begin
            wr_go = !fetch_i;  // a free slot
            sl_pick = TagW'(i);
          end
        end
      end
      m_req_valid_o = fetch_i || wr_go;
      m_req_o.we = 1'b1;
      m_tag = sl_pick;
      if (fetch_i) begin
        m_req_o.we = 1'b0;
        m_tag = fetch_tag_i;
        m_req_o.addr = fetch_addr_i;
        m_req_o.wstrb = '0;
      end
      m_req_o.id = {7'(AptClient) | 7'(m_tag), m_req_o.we};
      drained_o = !wc_v_q && wq_cnt == '0 && sl_v_q == '0;
      // A failing posted write in s2 (latched, nothing written).
      c_err = s2_v_i && s2_we_i && !reads_i && s2_err_i != AptErrNone;
      pend_o = 6'(wq_cnt) + 6'($countones(sl_v_q));
    end
  end

  // Write acknowledgements, and the interrupt of a failing posted write.
  assign wr_rsp = m_rsp_valid_i && m_rsp_i.id[0];
  assign m_err = wr_rsp && m_rsp_i.err;
  assign m_rsp_tag = m_rsp_i.id[TagW:1];
  assign err_irq_o = c_err || m_err;

  // ---------------------------------------------------------------- next state
  // Evaluated only with act_i.  Quiet values first.
  always_comb begin
    wq_pop = 1'b0;
    sl_v_d = '0;
    take_o = 1'b0;
    wc_d = '0;
    wc_ld = 1'b0;
    wc_v_d = 1'b0;
    wc_idle_d = '0;
    flush_d = 1'b0;
    wq_push = 1'b0;
    err_v_d = 1'b0;
    lane = '0;
    w_strb = '0;
    if (act_i) begin
      lane = s2_addr_i[BL-1:3];
      w_strb = BeatBytes'(s2_strb_i) << {lane, 3'b000};
      wq_pop = wr_go && m_req_ready_i;
      sl_v_d = sl_v_q;
      if (wr_rsp) sl_v_d[m_rsp_tag] = 1'b0;
      if (wq_pop) sl_v_d[sl_pick] = 1'b1;
      wc_v_d = wc_v_q;
      wc_idle_d = wc_idle_q;
      flush_d = flush_q || apt_wr_i;
      if (wc_v_q && wc_idle_q != 5'(AptWcIdleCycles)) wc_idle_d = wc_idle_q + 5'd1;
      if (s2_v_i && s2_we_i && reads_i) begin
        // A write waits for the reads before it to have their data.
      end else if (s2_v_i && s2_we_i) begin
        if (s2_err_i != AptErrNone) begin
          // A failing posted write: latched, nothing written.
          take_o = 1'b1;
        end else if (wc_v_q && wc_beat == c_beat) begin
          take_o = 1'b1;
          wc_ld = 1'b1;
          wc_d.beat = wc_q.beat;
          wc_d.data = wc_merge(wc_q.data, s2_data_i, lane, w_strb);
          wc_d.strb = wc_q.strb | w_strb;
          wc_d.off = wc_q.off;
          wc_idle_d = '0;
        end else if (!wc_v_q || 32'(wq_cnt) < WqDepth) begin
          take_o = 1'b1;
          wq_push = wc_v_q;
          wc_v_d = 1'b1;
          wc_ld = 1'b1;
          wc_d.beat = c_beat;
          wc_d.data = BB'(s2_data_i) << {lane, 6'b000000};  // bytes without enables are never written
          wc_d.strb = w_strb;
          wc_d.off = s2_off_i;
          wc_idle_d = '0;
        end
      end else if (wc_v_q && 32'(wq_cnt) < WqDepth &&
                   ((s2_v_i && !s2_we_i) || wc_idle_q == 5'(AptWcIdleCycles) ||
                    (flush_q && front_empty_i))) begin
        // Close the buffer: a read is waiting, it idled, or a flush.
        wq_push = 1'b1;
        wc_v_d = 1'b0;
      end
      if (flush_q && front_empty_i && !wc_v_d) flush_d = apt_wr_i;
      // The first failure since the last clear is latched; a clear drops it.
      err_v_d = err_v_q ? !err_clr_i : (m_err || c_err);
    end
  end

  assign wc_o = wc_v_q;
  assign flush_o = flush_q;
  assign err_valid_o = err_v_q;
  assign err_cause_o = err_cause_q;
  assign err_off_o = {err_off_q, 3'b000};
  assign err_count_o = err_cnt_q;

  // The byte address within the word is the byte enables' business.
  logic unused;  // and the response's fault (err says it), read data and client bits
  assign unused = ^{s2_addr_i[2:0], m_rsp_i.fault, m_rsp_i.rdata, m_rsp_i.id[7:TagW+1]};

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      wc_q <= '0;
      wc_v_q <= 1'b0;
      wc_idle_q <= '0;
      flush_q <= 1'b0;
      sl_v_q <= '0;
      err_v_q <= 1'b0;
      err_cause_q <= '0;
      err_off_q <= '0;
      err_cnt_q <= '0;
    end else if (act_i) begin  // else idle: nothing changes
      if (wc_ld) wc_q <= wc_d;
      wc_v_q <= wc_v_d;
      wc_idle_q <= wc_idle_d;
      flush_q <= flush_d;
      sl_v_q <= sl_v_d;
      err_cnt_q <= err_cnt_q + 32'(c_err) + 32'(m_err);
      err_v_q <= err_v_d;
      // The first failure since the last clear: a memory error reported
      // this cycle came from an earlier word than a failing word in s2.
      if (!err_v_q && (m_err || c_err)) begin
        err_cause_q <= m_err ? AptErrMem : s2_err_i;
        err_off_q <= m_err ? sl_off_q[m_rsp_tag] : s2_off_i;
      end
    end
  end

  // The write queue: a push is the buffer it closes; it moves with act_i.
  prim_fifo_sync #(
    .Width($bits(wc_q)),
    .Depth(WqDepth)
  ) u_wq (
    .clk_i,
    .rst_ni,
    .en_i(act_i),
    .clr_i(1'b0),
    .wvalid_i(wq_push),
    .wdata_i(wc_q),
    .rready_i(wq_pop),
    .out_en_i(busy_i),  // the head and the count are read only with it
    .rdata_o(wq_head),
    .count_o(wq_count)
  );

  // Storage without reset: the slots' offsets, written with act_i (a pop).
  always_ff @(posedge clk_i) begin
    if (act_i) begin
      if (wq_pop) sl_off_q[sl_pick] <= wq_off;
    end
  end

`ifndef SYNTHESIS
  // Assertions (Verilator --assert; a failure is a model error, gm.h).
  // With act_i: idle, no response comes, nothing is pushed, popped or
  // fetched (no pointer moves: the bounds that held still hold), so each
  // holds.
  always_ff @(posedge clk_i) begin
    if (rst_ni && act_i) begin
      // The write queue's bounds: its own assertions (prim_fifo_sync).
      a_apt_wr_ack_known: assert (!(wr_rsp && !sl_v_q[m_rsp_tag]))
        else $error("apt_wr: write ack for a free slot");
      // Unique tags in flight: a write goes out in a free slot.
      a_apt_slot_free: assert (!(wq_pop && sl_v_q[sl_pick]))
        else $error("apt_wr: write issued in busy slot %0d", sl_pick);
      // Reads wait for the writes before them: a beat is fetched only drained.
      a_apt_read_after_writes: assert (!(fetch_i && m_req_ready_i && (wc_v_q || wq_cnt != '0)))
        else $error("apt_wr: a read fetched with writes not yet issued");
    end
  end

  // Cover points (Verilator --coverage-user).
  // Back-pressure on every buffer (the host FIFO's: gpu_top c_apt_host_not_ready;
  // apt_rd's beat buffers and read units): the memory port refuses a request,
  c_apt_req_refused: cover property (@(posedge clk_i) m_req_valid_o && !m_req_ready_i);
  // every write slot is in flight while a beat waits,
  c_apt_slots_full: cover property (@(posedge clk_i) wq_cnt != '0 && (&sl_v_q));
  // the write queue is full while the buffer must close,
  c_apt_wq_full: cover property (@(posedge clk_i) wc_v_q && 32'(wq_cnt) == WqDepth && s2_v_i);
  // a write waits for the reads before it.
  c_apt_wr_waits_read: cover property (@(posedge clk_i) s2_v_i && s2_we_i && reads_i);
  // A posted write's format error and a memory error in one cycle (the memory's is latched).
  c_apt_two_errors: cover property (@(posedge clk_i) c_err && m_err);
`endif

endmodule

`default_nettype wire
