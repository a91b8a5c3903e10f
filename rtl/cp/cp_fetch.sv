// SPDX-License-Identifier: MIT
//
// cp_fetch: a queue's dword fetch - the address of the next dword of the
// ring or indirect buffer, the one-beat buffer that holds it, and the
// queue's one read in flight.
//
// Purpose: hand cp_exec the next dword of the packet stream, one a cycle
// at most, and fetch the beats that hold them.  cp_exec keeps the stream's
// position (the ring's read pointer, or the IB it runs and how much of it
// is left); from it this block forms the address of the next dword
// (cur_addr_o) and whether there is one (avail_o: the ring up to the
// doorbell wptr_i, or the rest of the IB).  The one-beat buffer holds the
// beat of the next dword.  It is dropped when the doorbell moves, so a beat
// fetched before the driver wrote the rest of a packet is never reused
// stale; a fetch still in flight then is dropped when it lands.
//
// How to drive it: raise need_dw_i in a state that takes a dword; the dword
// is consumed (consume_o, dw_o) in a cycle it is here (have_dw_o), else
// rd_req_o asks cp_queue for a read of its beat.  The queue reads one beat
// at a time: this block tracks that read (rd_pend_o), whether it is a fetch
// or cp_exec's WAIT_MEM read (rd_wait_i when granted_i), and says when a
// read that counts failed (rd_err_o).  Its registers load only with
// q_act_i (cp_queue: with it clear none would change).

`default_nettype none

module cp_fetch #(
  parameter int unsigned BeatBytes = 32  // memory port bytes per beat
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  input  logic                   q_act_i,       // the registers may change (cp_queue)
  input  logic                   qreset_i,      // one-cycle pulse
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
  output logic                   have_dw_o,     // ... and it is in the buffer
  output logic                   consume_o,     // taken this cycle
  output logic [31:0]            dw_o,          // the dword taken (0 when none)
  output logic                   doorbell_o,    // wptr_i moved this cycle
  // The queue's read: requested, granted, answered
  output logic                   rd_req_o,      // a fetch read wanted
  output logic                   rd_pend_o,     // a read is in flight
  input  logic                   granted_i,     // the queue's request is taken ...
  input  logic                   req_we_i,      // ... a write, else a read ...
  input  logic                   rd_wait_i,     // ... cp_exec's WAIT_MEM read, else a fetch
  input  logic [47-$clog2(BeatBytes):0] rd_beat_i,  // ... of this beat
  input  logic                   rsp_rd_i,      // read data comes ...
  input  logic                   rsp_err_i,     // ... or an error
  input  logic [BeatBytes*8-1:0] rsp_rdata_i,
  output logic                   rd_err_o       // a read the queue still wants failed
);

  `include "gpu_defs.svh"

  localparam int unsigned BeatLog2 = $clog2(BeatBytes);

  logic [19:0] wptr_seen_q;
  logic [BeatBytes*8-1:0] buf_q;  // loaded on buf_load (storage, below)
  logic buf_load;
  logic [47-BeatLog2:0] buf_beat_q, buf_beat_d;
  logic buf_valid_q, buf_valid_d;
  logic rd_pend_q, rd_pend_d, rd_fetch_q, rd_fetch_d, rd_drop_q, rd_drop_d;
  logic [47-BeatLog2:0] rd_beat_q, rd_beat_d;

  // ---------------------------------------------------------------- stream
  logic [19:0] ring_mask, wptr_m;
  logic [47:0] cur_addr;
  logic avail, have_dw, consume;
  logic [31:0] dw;

  assign ring_mask = 20'((32'd1 << size_log2_i) - 32'd1);
  assign wptr_m = wptr_i & ring_mask;
  assign cur_addr = in_ib_i ? ib_ptr_i : base_i + {26'd0, rptr_i, 2'b00};
  assign avail = in_ib_i ? (ib_rem_i != '0) : (rptr_i != wptr_m);
  assign have_dw = avail && buf_valid_q && (buf_beat_q == cur_addr[47:BeatLog2]) &&
                   (wptr_i == wptr_seen_q);
  always_comb begin  // every reader consumes it: selected only then
    dw = '0;
    if (consume) dw = buf_q[32*cur_addr[BeatLog2-1:2] +: 32];
  end
  assign consume = need_dw_i && have_dw;
  assign ring_bad_o = (size_log2_i < 5'(RingLog2Min)) || (size_log2_i > 5'(RingLog2Max)) ||
                      (base_i[BeatLog2-1:0] != '0);

  assign rd_req_o = need_dw_i && avail && !have_dw && !rd_pend_q;

  // ---------------------------------------------------------------- the read and the beat
  // The idle path: without q_act_i the registers are not loaded, so the _d
  // are constants nobody reads (cheaper than copying every _q each cycle).
  // One block, tied together by stale: Verilator splits a block whose
  // parts share no variable it computes, and each part would test q_act_i,
  // rsp_rd_i and qreset_i again.
  logic stale, rd_err;
  always_comb begin
    buf_load = 1'b0;
    rd_err = 1'b0;
    if (!q_act_i) begin
      stale = 1'b0;
      buf_beat_d = '0;
      buf_valid_d = '0;
      rd_pend_d = '0;
      rd_fetch_d = '0;
      rd_drop_d = '0;
      rd_beat_d = '0;
    end else begin
      buf_beat_d = buf_beat_q;
      buf_valid_d = buf_valid_q;
      rd_pend_d = rd_pend_q;
      rd_fetch_d = rd_fetch_q;
      rd_drop_d = rd_drop_q;
      rd_beat_d = rd_beat_q;

      // The one read, in every state.
      if (granted_i && !req_we_i) begin
        rd_pend_d = 1'b1;
        rd_fetch_d = !rd_wait_i;
        rd_beat_d = rd_beat_i;
      end
      if (rsp_rd_i) begin
        rd_pend_d = 1'b0;
        rd_drop_d = 1'b0;
        if (!rd_drop_q && rsp_err_i) begin
          rd_err = 1'b1;
        end else if (!rd_drop_q && rd_fetch_q) begin
          buf_load = 1'b1;
          buf_beat_d = rd_beat_q;
          buf_valid_d = 1'b1;
        end
      end

      // The doorbell moved: what was fetched before may predate the driver's
      // ring writes, so drop the beat and any fetch still in flight.
      stale = wptr_i != wptr_seen_q;
      if (stale) begin
        buf_valid_d = 1'b0;
        if (rd_pend_d && rd_fetch_d) rd_drop_d = 1'b1;
      end

      if (qreset_i) begin
        buf_valid_d = 1'b0;
        rd_drop_d = rd_pend_d;  // a read still in flight is dropped when it lands
      end
    end
  end

  // ---------------------------------------------------------------- registers
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      wptr_seen_q <= '0;
      buf_beat_q <= '0;
      buf_valid_q <= 1'b0;
      rd_pend_q <= 1'b0;
      rd_fetch_q <= 1'b0;
      rd_drop_q <= 1'b0;
      rd_beat_q <= '0;
    end else if (q_act_i) begin  // else the _d are constants, not read (the idle path)
      wptr_seen_q <= wptr_i;
      buf_beat_q <= buf_beat_d;
      buf_valid_q <= buf_valid_d;
      rd_pend_q <= rd_pend_d;
      rd_fetch_q <= rd_fetch_d;
      rd_drop_q <= rd_drop_d;
      rd_beat_q <= rd_beat_d;
    end
  end

  // The fetch beat, written only when it loads (reset like the rest).
  always_ff @(posedge clk_i) begin
    if (!rst_ni) buf_q <= '0;
    else if (buf_load) buf_q <= rsp_rdata_i;
  end

  assign ring_mask_o = ring_mask;
  assign cur_addr_o = cur_addr;
  assign avail_o = avail;
  assign have_dw_o = have_dw;
  assign consume_o = consume;
  assign dw_o = dw;
  assign doorbell_o = wptr_i != wptr_seen_q;
  assign rd_pend_o = rd_pend_q;
  assign rd_err_o = rd_err;

`ifndef SYNTHESIS
  // Cover points (Verilator --coverage-user).  (cp_queue checks that the
  // queue's reads go one at a time: a_cp_one_read.)
  // The doorbell moves while a fetch is in flight: its beat is dropped.
  c_cp_fetch_dropped: cover property (@(posedge clk_i) rsp_rd_i && rd_drop_q);
  // A reset while a read is in flight.
  c_cp_reset_read: cover property (@(posedge clk_i) qreset_i && rd_pend_q);
`endif

endmodule

`default_nettype wire
