// SPDX-License-Identifier: MIT
//
// ce_wr: the write side of the copy engine (ce_top): the byte FIFO
// (prim_fifo_bytes), the destination pieces and the write-combining buffer.
//
// Purpose: take the source bytes in canonical order from the extractor
// (ext_take_i: ext_len_i bytes, byte 0 first, in ext_lo_i/ext_hi_i), hand
// them to the destination walker's pieces (d_valid_i/d_take_o) and gather
// the pieces into WcbWays beat-sized ways; a way closes when all its
// bytes are in, when its entry is needed (the oldest choice goes partial)
// or at the end (flush_i), and a closed way is offered as a write
// (wr_req_o) until ce_top's memory channel takes it (wr_grant_i).
//
// How to drive it: ce_top checks the room (BfBytes - bf_cnt_o) before an
// extractor push; start_i (a command taken) clears the ways, stop_i (the
// engine aborts) empties the FIFO and drops the ways, written or not.
// busy_i is ce_top's "not idle": without it the FIFO is empty, no way is
// valid and nothing moves, so the block is not evaluated and its outputs
// keep their defaults (the values they have there); act_i is ce_top's
// ce_act, which the registers need to change.

`default_nettype none

module ce_wr #(
  parameter int unsigned BeatBytes = 32,
  parameter int unsigned WcbWays = 4,
  parameter int unsigned BfBytes = 64
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  input  logic                   busy_i,      // ce_top not in CeIdle
  input  logic                   act_i,       // ce_top's ce_act
  input  logic                   run_i,       // CeRun
  input  logic                   stop_i,      // CeAbort
  input  logic                   start_i,     // a command is taken
  input  logic                   flush_i,     // the destination walk is done
  // The extractor's bytes into the byte FIFO
  input  logic                   ext_take_i,
  input  logic [4:0]             ext_len_i,
  input  logic [63:0]            ext_lo_i,
  input  logic [63:0]            ext_hi_i,
  output logic [6:0]             bf_cnt_o,    // bytes held
  // The destination walker's piece
  input  logic                   d_valid_i,
  input  logic [47:0]            d_addr_i,
  input  logic [4:0]             d_len_i,
  output logic                   d_take_o,
  // A closed way's write
  output logic                   wr_req_o,
  output logic [47:0]            wr_addr_o,
  output logic [BeatBytes-1:0]   wr_strb_o,
  output logic [BeatBytes*8-1:0] wr_data_o,
  input  logic                   wr_grant_i,  // the write is taken this cycle
  output logic                   empty_o      // no way valid
);

  localparam int unsigned BL = $clog2(BeatBytes);
  localparam int unsigned BeatWords = BeatBytes / 8;  // 64-bit words of a beat
  localparam int unsigned BWL = $clog2(BeatWords);
  localparam int unsigned WL = $clog2(WcbWays);

  initial begin : check_params
    if (BfBytes != 64) $error("ce_wr: the byte FIFO's count is 7 bits: BfBytes must be 64");
    if (WcbWays != 4) $error("ce_wr: the eviction pointer is 2 bits: WcbWays must be 4");
  end

  // Byte FIFO (u_bf): BfBytes bytes, pushed by the extractor and popped by
  // a destination piece, up to 16 at a time, at any byte offset: a piece
  // goes in as two words, byte 0 first, and the head comes out as two.
  logic [6:0] bf_cnt;
  logic [127:0] bf_head;

  // Write combining.  The tags and strobes of the ways change only where a
  // destination piece lands (one way a cycle, registers below), so they
  // have no _d copies; the data, word w of way i in entry i*BeatWords+w,
  // is written where a piece lands (at most two words: a piece never
  // crosses 16 bytes) and read as a beat only for a write.
  logic [WcbWays-1:0] w_v_q, w_v_d, w_cl_q, w_cl_d;
  logic [47-BL:0] w_beat_q [WcbWays];
  logic [BeatBytes-1:0] w_strb_q [WcbWays];
  logic [63:0] w_data_q [WcbWays*BeatWords];
  logic [WL-1:0] w_evict_q, w_evict_d;

  // ---------------------------------------------------------------- moves
  logic d_hit, d_free, d_take;
  logic [WL-1:0] d_way, f_way, i_way, e;
  logic [BeatBytes-1:0] d_bmask, strb;
  logic [5:0] d_sh;
  logic [63:0] d_mlo, d_mhi, d_m0, d_m1, wd0, wd1;
  logic [BWL-1:0] d_wi;
  logic [WL+BWL-1:0] wd_i0, wd_i1;

  // Separate blocks, so that no block reads what ce_top computes from
  // another one's outputs, or what the FIFO computes from its inputs
  // (Verilator orders whole blocks): the FIFO's count, read by the
  // extractor, and its push, driven by it (in u_bf); the way search and the
  // pop; the FIFO's head, formed for the pop (in u_bf); the piece's bytes.
  prim_fifo_bytes #(
    .Depth(BfBytes),
    .MaxPush(16),
    .MaxPop(16)
  ) u_bf (
    .clk_i,
    .rst_ni,
    .en_i(act_i),
    .clr_i(start_i || stop_i),
    .push_i(ext_take_i),
    .push_cnt_i(ext_len_i),
    .push_data_i({ext_hi_i, ext_lo_i}),
    .pop_i(d_take),
    .pop_cnt_i(d_len_i),
    .out_en_i(busy_i),
    .count_o(bf_cnt),
    .head_en_i(d_take),
    .head_o(bf_head)
  );

  always_comb begin
    d_hit = 1'b0;
    d_way = '0;
    d_free = 1'b0;
    f_way = '0;
    d_take = 1'b0;
    e = '0;
    d_bmask = '0;
    strb = '0;
    wr_req_o = 1'b0;
    i_way = '0;
    wr_addr_o = '0;
    wr_strb_o = '0;
    wr_data_o = '0;

    if (busy_i) begin
      // The way search, only while a piece waits.
      if (run_i && d_valid_i) begin
        for (int i = WcbWays - 1; i >= 0; i--) begin
          if (w_v_q[i] && !w_cl_q[i] && w_beat_q[i] == d_addr_i[47:BL]) begin
            d_hit = 1'b1;
            d_way = WL'(i);
          end
          if (!w_v_q[i]) begin
            d_free = 1'b1;
            f_way = WL'(i);
          end
        end
        d_take = bf_cnt >= 7'(d_len_i) && (d_hit || d_free);
      end

      // The destination piece's way (a hit, or a free way) and strobes.
      if (d_take) begin
        e = d_hit ? d_way : f_way;
        d_bmask = {{(BeatBytes-16){1'b0}}, 16'((17'd1 << d_len_i) - 17'd1)} << d_addr_i[BL-1:0];
        strb = (d_hit ? w_strb_q[e] : '0) | d_bmask;
      end

      // A closed way's write, the lowest first (an abort writes nothing more).
      for (int i = WcbWays - 1; i >= 0; i--) begin
        if (w_v_q[i] && w_cl_q[i] && !stop_i) begin
          wr_req_o = 1'b1;
          i_way = WL'(i);
        end
      end
      if (wr_req_o) begin
        wr_addr_o = {w_beat_q[i_way], {BL{1'b0}}};
        wr_strb_o = w_strb_q[i_way];
        for (int unsigned j = 0; j < BeatWords; j++) begin
          wr_data_o[64*j +: 64] = w_data_q[{i_way, BWL'(j)}];
        end
      end
    end
  end

  // The destination piece's bytes: d_len_i bytes from the FIFO's head, to
  // byte d_addr_i[BL-1:0] of its way: at most two words, the second only in
  // the first half of 16 bytes.
  always_comb begin
    d_wi = '0;
    d_sh = '0;
    d_mlo = '0;
    d_mhi = '0;
    d_m0 = '0;
    d_m1 = '0;
    wd_i0 = '0;
    wd_i1 = '0;
    wd0 = '0;
    wd1 = '0;
    if (d_take) begin
      d_wi = BWL'(d_addr_i[5:3]);
      d_sh = {d_addr_i[2:0], 3'b000};
      d_mlo = (d_len_i >= 5'd8) ? '1 : (64'd1 << {d_len_i[2:0], 3'b000}) - 64'd1;
      d_mhi = (d_len_i > 5'd8) ? (64'd1 << {d_len_i - 5'd8, 3'b000}) - 64'd1 : '0;
      d_m0 = d_mlo << d_sh;
      d_m1 = (d_mhi << d_sh) | (d_mlo >> (7'd64 - 7'(d_sh)));
      wd_i0 = {e, d_wi};
      wd_i1 = {e, d_wi + BWL'(1)};
      wd0 = (w_data_q[wd_i0] & ~d_m0) | ((bf_head[63:0] << d_sh) & d_m0);
      wd1 = (w_data_q[wd_i1] & ~d_m1) | (((bf_head[127:64] << d_sh) | (bf_head[63:0] >> (7'd64 - 7'(d_sh)))) & d_m1);
    end
  end

  assign bf_cnt_o = bf_cnt;
  assign d_take_o = d_take;
  assign empty_o = w_v_q == '0;

  // ---------------------------------------------------------------- next state
  // With act_i clear nothing here changes (every condition needs a move, a
  // grant or a command) and no register is written.
  always_comb begin
    w_v_d = '0;
    w_cl_d = '0;
    w_evict_d = '0;
    if (act_i) begin
      w_v_d = w_v_q;
      w_cl_d = w_cl_q;
      w_evict_d = w_evict_q;
      if (wr_grant_i) w_v_d[i_way] = 1'b0;
      if (d_take) begin
        if (!d_hit) begin
          w_v_d[e] = 1'b1;
          w_cl_d[e] = 1'b0;
        end
        // The way's new strobes (its tag, strobes and bytes: registers below).
        if (&strb) w_cl_d[e] = 1'b1;
      end else if (run_i && d_valid_i && !d_hit && !d_free && !(|(w_v_q & w_cl_q))) begin
        // Every entry open and none matches: send the oldest choice off partial.
        w_cl_d[w_evict_q] = 1'b1;
        w_evict_d = w_evict_q + WL'(1);
      end
      if (flush_i) w_cl_d = w_v_q;  // the last pieces are in
      if (start_i) w_v_d = '0;
    end
  end

  // ---------------------------------------------------------------- registers
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      w_v_q <= '0;
      w_cl_q <= '0;
      for (int unsigned i = 0; i < WcbWays; i++) begin
        w_beat_q[i] <= '0;
        w_strb_q[i] <= '0;
      end
      w_evict_q <= '0;
    end else if (act_i) begin  // else idle: hold
      w_v_q <= stop_i ? '0 : w_v_d;
      w_cl_q <= w_cl_d;
      if (d_take) begin
        if (!d_hit) w_beat_q[e] <= d_addr_i[47:BL];
        w_strb_q[e] <= strb;
      end
      w_evict_q <= w_evict_d;
    end
  end

  // The ways' data (reset like their tags, so a strobe-off byte reads as
  // before): a destination piece's words, merged under its byte mask.  A
  // piece never crosses 16 bytes (ce_walk): its second word, if any, is in
  // the same beat.
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      for (int unsigned i = 0; i < WcbWays * BeatWords; i++) w_data_q[i] <= '0;
    end else if (d_take) begin
      w_data_q[wd_i0] <= wd0;
      if (!d_addr_i[3]) w_data_q[wd_i1] <= wd1;
    end
  end

`ifndef SYNTHESIS
  // The byte FIFO's bounds (a destination piece takes only bytes that are
  // there, the extractor adds only what fits) are u_bf's FifoBytesBounds_A.

  // Cover points (Verilator --coverage-user).
  // Every write-combining way is open and none matches: one leaves partial.
  c_ce_wcb_evict: cover property (@(posedge clk_i) run_i && d_valid_i && !d_hit && !d_free && !(|(w_v_q & w_cl_q)));
`endif

endmodule

`default_nettype wire
