// SPDX-License-Identifier: MIT
//
// ce_top: the copy engine (COPY, BLT, FILL).
//
// Purpose: move a rectangle of bytes from a source surface (or a 64-bit fill
// pattern) to a destination surface, any tile modes, pitches and byte
// alignments, keeping the memory port busy.  The command processor's queues
// hand it one command at a time (cmd_valid_i/cmd_ready_o) and wait for
// done_o.
//
// Structure (one piece = up to 16 contiguous bytes, see ce_walk):
//   source walker -> read issue (a beat read per new beat; the last
//   ReuseWays beats read are reused without a new read) -> piece FIFO ->
//   extractor (waits for the beat in its read slot, pushes the piece's bytes
//   into the byte FIFO) -> ce_wr: byte FIFO -> destination walker's pieces
//   -> write combining buffer (WcbWays beats; a beat leaves when all 32
//   bytes are in, when its entry is needed, or at the end) -> write issue.
// Reads carry the slot number as their tag (RobSlots slots: reads in flight
// plus beats held for reuse), so responses may return in any order.  Writes
// are posted and counted.  The memory channel takes one request per cycle;
// a write ready to go has priority over a read.
//
// Errors: a response with err (a page fault through the MMU, or a memory
// error) stops both walkers and the engine issues no more requests (closed
// write-combining entries are dropped, not written); it waits for every
// request in flight to answer and reports done_o with err (and fault).
// Nothing is left in flight when done_o rises.  abort_i (a reset of the
// queue that gave the command) stops it the same way.

`default_nettype none

module ce_top #(
  parameter int unsigned BeatBytes = 32,
  parameter int unsigned TagW = 5  // read tag bits: log2 of regspec CE_ROB_SLOTS (checked)
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  // Command
  input  logic                   cmd_valid_i,
  output logic                   cmd_ready_o,
  input  gpu_pkg::ce_cmd_t       cmd_i,          // regspec "structs"
  input  logic                   abort_i,        // the owning queue is reset: stop
  output logic                   done_o,         // one-cycle pulse
  output logic                   done_err_o,
  output logic                   done_fault_o,
  output logic [1:0]             state_o,
  output logic [31:0]            busy_cycles_o,
  output logic [31:0]            bytes_o,        // bytes written (by strobe)
  // Memory request channel and responses (id: {CE_CLIENT | tag, write})
  output logic                   req_valid_o,
  input  logic                   req_ready_i,
  output gpu_pkg::mem_req_t      req_o,
  input  logic                   rsp_valid_i,
  input  gpu_pkg::mem_rsp_t      rsp_i
);

  `include "gpu_defs.svh"

  localparam int unsigned RobSlots = CeRobSlots;  // regspec CE_ROB_SLOTS
  localparam int unsigned ReuseWays = 4;
  localparam int unsigned WcbWays = 4;
  localparam int unsigned PfDepth = 64;  // pieces: >= 2 per read in flight over the latency
  localparam int unsigned BfBytes = 64;  // the byte FIFO (ce_wr)
  localparam int unsigned BL = $clog2(BeatBytes);
  localparam int unsigned PfW2 = $clog2(PfDepth);
  localparam int unsigned BeatWords = BeatBytes / 8;  // 64-bit words of a beat
  localparam int unsigned BWL = $clog2(BeatWords);

  // The engine's pieces never cross 16 bytes, so any beat of 16+ bytes works.
  initial begin : check_params
    if (BeatBytes < 16 || BeatBytes > 64) $error("ce_top: BeatBytes must be 16..64");
    if ((1 << TagW) != RobSlots) $error("ce_top: TagW must be log2 of CE_ROB_SLOTS");
  end

  // A read response's tag: its slot.
  logic [TagW-1:0] rsp_tag;
  assign rsp_tag = rsp_i.id[TagW:1];

  ce_state_e st_q, st_d;
  logic fill_q, fault_q, fault_d;
  logic [63:0] value_q;
  logic [31:0] busy_q, bytes_q;

  // ---------------------------------------------------------------- command
  // Latched when taken: the queue that sent it may be reset mid-command.
  logic start, start_q, stop, pair, pair_q;
  logic [47:0] src_base_q, dst_base_q;
  logic [2:0] src_mode_q, dst_mode_q;
  tile_geom_t src_geom_q, dst_geom_q;  // the walkers' swizzle constants
  logic [19:0] src_pitch_q, dst_pitch_q, src_x0b_q, dst_x0b_q;
  logic [15:0] src_y0_q, dst_y0_q, h_q;
  logic [31:0] w_q;

  // (Registers: with the engine's, below.)

  // ---------------------------------------------------------------- walkers
  logic s_valid, s_ready, s_done, d_valid, d_ready, d_done;
  logic [47:0] s_addr, d_addr;
  logic [4:0] s_len, d_len;
  logic [2:0] s_pos, d_pos_unused;

  assign cmd_ready_o = st_q == CeIdle;

  ce_walk u_src (
    .clk_i,
    .rst_ni,
    .start_i(start_q),
    .stop_i(stop),
    .base_i(src_base_q),
    .mode_i(src_mode_q),
    .geom_i(src_geom_q),
    .pitch_i(src_pitch_q),
    .x0b_i(src_x0b_q),
    .y0_i(src_y0_q),
    .w_i(w_q),
    .h_i(h_q),
    .pair_i(pair_q),
    .valid_o(s_valid),
    .ready_i(s_ready),
    .addr_o(s_addr),
    .len_o(s_len),
    .pos_o(s_pos),
    .done_o(s_done)
  );

  ce_walk u_dst (
    .clk_i,
    .rst_ni,
    .start_i(start_q),
    .stop_i(stop),
    .base_i(dst_base_q),
    .mode_i(dst_mode_q),
    .geom_i(dst_geom_q),
    .pitch_i(dst_pitch_q),
    .x0b_i(dst_x0b_q),
    .y0_i(dst_y0_q),
    .w_i(w_q),
    .h_i(h_q),
    .pair_i(pair_q),
    .valid_o(d_valid),
    .ready_i(d_ready),
    .addr_o(d_addr),
    .len_o(d_len),
    .pos_o(d_pos_unused),
    .done_o(d_done)
  );

  // ---------------------------------------------------------------- state
  // Read side.  The reuse window: the beats (and their slots) of the last
  // ReuseWays reads.  The ROB holds the beats, read as 64-bit words.
  logic [TagW:0] alloc_q, alloc_d, free_q, free_d;
  logic [TagW:0] rd_out_q, rd_out_d;
  logic [ReuseWays-1:0] cam_v_q, cam_v_d;
  logic [47-BL:0] cam_beat_q [ReuseWays];
  logic [TagW-1:0] cam_slot_q [ReuseWays];
  logic [1:0] cam_ptr_q, cam_ptr_d;
  logic [RobSlots-1:0] rob_v_q, rob_v_d;
  logic [BeatBytes*8-1:0] rob_q [RobSlots];

  // Piece FIFO (u_pf): {pos, seq, len, off, slot}
  localparam int unsigned PfW = 3 + (TagW+1) + 5 + 6 + TagW;
  logic [PfW-1:0] pf_head;
  logic [PfW2:0] pf_count;

  // Read queue (u_rq): a piece on a new beat takes a slot at once and
  // leaves its read here, {beat, slot}, so the walker never waits for the
  // memory channel (writes have it first); reads go out in slot order.
  localparam int unsigned RqDepth = 4;
  logic [48-BL+TagW-1:0] rq_head;
  logic [2:0] rq_count;

  // Write side (ce_wr): the byte FIFO and the write-combining ways.
  logic [6:0] bf_cnt;
  logic wcb_empty;
  logic [15:0] wr_out_q, wr_out_d;  // writes in flight, counted here (their acks come to ce_top)

  // ---------------------------------------------------------------- pipeline moves
  // Everything below needs the engine out of CeIdle: in CeIdle both walkers
  // are done, the FIFOs are empty (CeDrain is entered with them empty,
  // a_ce_done_empty, and CeAbort clears them) and no write-combining way is
  // valid, so no request is made and nothing moves.  The block is then not
  // evaluated (Verilator recomputes every block each cycle) and every
  // signal it drives keeps its default: the values those signals have
  // there.  One block, in the order the values flow.
  logic run, busy, slot_free, pf_full, pf_empty, pf_push, pf_pop, rq_full, rq_empty, rq_push;
  logic s_hit, s_new, e_take, d_take, wr_req, rd_req, flush;
  logic [TagW-1:0] s_slot, rq_slot, e_slot;
  logic [TagW:0] e_seq;
  logic [47-BL:0] rq_beat;
  logic [PfW-1:0] pf_in;
  logic [4:0] e_len;
  logic [5:0] e_off;
  logic [2:0] e_pos;
  logic [BWL-1:0] e_wi;
  logic [5:0] e_sh;
  logic [63:0] e_pat, e_w0, e_w1, e_lo, e_hi;
  logic [47:0] wr_addr;
  logic [BeatBytes-1:0] wr_strb;
  logic [BeatBytes*8-1:0] wr_data;

  // The states, apart: ce_wr reads them and ce_top reads what ce_wr computes
  // from them (Verilator orders whole blocks).
  assign busy = st_q != CeIdle;
  assign run = st_q == CeRun;
  assign stop = st_q == CeAbort;

  always_comb begin
    pf_full = 1'b0;
    pf_empty = 1'b1;
    rq_full = 1'b0;
    rq_empty = 1'b1;
    slot_free = 1'b1;
    {e_pos, e_seq, e_len, e_off, e_slot} = '0;
    {rq_beat, rq_slot} = '0;
    s_hit = 1'b0;
    s_slot = '0;
    s_new = 1'b0;
    s_ready = 1'b0;
    e_take = 1'b0;
    pf_push = 1'b0;
    pf_in = '0;
    e_wi = '0;
    e_sh = '0;
    e_pat = '0;
    e_w0 = '0;
    e_w1 = '0;
    e_lo = '0;
    e_hi = '0;
    rd_req = 1'b0;
    req_valid_o = 1'b0;
    req_o = '0;

    if (busy) begin
      pf_full = pf_count == (PfW2+1)'(PfDepth);
      pf_empty = pf_count == '0;
      rq_full = rq_count == 3'(RqDepth);
      rq_empty = rq_count == '0;
      slot_free = (TagW+1)'(alloc_q - free_q) < (TagW+1)'(RobSlots);
      if (!pf_empty) {e_pos, e_seq, e_len, e_off, e_slot} = pf_head;
      if (!rq_empty) {rq_beat, rq_slot} = rq_head;

      // The reuse window's search, only while a piece waits.
      if (run && s_valid) begin
        for (int unsigned i = 0; i < ReuseWays; i++) begin
          if (cam_v_q[i] && cam_beat_q[i] == s_addr[47:BL]) begin
            s_hit = 1'b1;
            s_slot = cam_slot_q[i];
          end
        end
      end

      if (run) begin
        s_new = s_valid && !fill_q && !s_hit && slot_free && !pf_full && !rq_full;
        s_ready = !pf_full && (fill_q || s_hit || s_new);
        e_take = !pf_empty && (fill_q || rob_v_q[e_slot]) && (7'(BfBytes) - bf_cnt) >= 7'(e_len);
      end

      // The source piece joins the piece FIFO.
      pf_push = s_valid && s_ready;
      if (pf_push) begin
        // {pos, seq: the slot's allocation count, len, off, slot}
        pf_in = {s_pos, (s_hit || fill_q) ? alloc_q : alloc_q + (TagW+1)'(1), s_len,
                 6'(s_addr[BL-1:0]), s_hit ? s_slot : alloc_q[TagW-1:0]};
      end

      // The extractor: the piece's bytes, byte 0 first, as two words.  Byte
      // 0 of a piece is byte e_off of its beat and a piece never crosses 16
      // bytes (ce_walk), so the beat's word holding it and the next hold it;
      // the fill pattern is rotated to the row byte position.  Bytes from
      // e_len up are not used.  Into the byte FIFO (ce_wr).
      if (e_take) begin
        if (fill_q) begin
          e_pat = (value_q >> {e_pos, 3'b000}) | (value_q << (64 - 32'({e_pos, 3'b000})));
          e_lo = e_pat;
          e_hi = e_pat;
        end else begin
          e_wi = BWL'(e_off[5:3]);
          e_sh = {e_off[2:0], 3'b000};
          e_w0 = rob_q[e_slot][{e_wi, 6'd0} +: 64];
          e_w1 = rob_q[e_slot][{BWL'(e_wi + BWL'(1)), 6'd0} +: 64];
          e_lo = (e_w0 >> e_sh) | (e_w1 << (7'd64 - 7'(e_sh)));
          e_hi = e_w1 >> e_sh;
        end
      end

      // The memory channel: a closed way's write first (ce_wr offers none
      // after an abort), else the next read (a read request does not look
      // at req_ready_i: valid/ready rules).
      rd_req = !rq_empty && !wr_req && !stop;
      req_valid_o = wr_req || rd_req;
      req_o.id = {7'(CeClient) | (wr_req ? 7'd0 : 7'(rq_slot)), wr_req};
      req_o.we = wr_req;
      req_o.addr = {rq_beat, {BL{1'b0}}};
      if (wr_req) begin
        req_o.addr = wr_addr;
        req_o.wstrb = wr_strb;
        req_o.wdata = wr_data;
      end
    end
  end
  assign rq_push = s_new;
  assign pf_pop = e_take;
  assign d_ready = d_take;
  assign flush = run && !start_q && d_done;  // the last pieces are in

  ce_wr #(
    .BeatBytes(BeatBytes),
    .WcbWays(WcbWays),
    .BfBytes(BfBytes)
  ) u_wr (
    .clk_i,
    .rst_ni,
    .busy_i(busy),
    .act_i(ce_act),
    .run_i(run),
    .stop_i(stop),
    .start_i(start),
    .flush_i(flush),
    .ext_take_i(e_take),
    .ext_len_i(e_len),
    .ext_lo_i(e_lo),
    .ext_hi_i(e_hi),
    .bf_cnt_o(bf_cnt),
    .d_valid_i(d_valid),
    .d_addr_i(d_addr),
    .d_len_i(d_len),
    .d_take_o(d_take),
    .wr_req_o(wr_req),
    .wr_addr_o(wr_addr),
    .wr_strb_o(wr_strb),
    .wr_data_o(wr_data),
    .wr_grant_i(granted && wr_req),
    .empty_o(wcb_empty)
  );

  // ---------------------------------------------------------------- next state
  // The idle path.  In CeIdle with no command and no response the engine
  // changes nothing (every condition below needs run, a response, a grant
  // or a command, and no request is made in CeIdle, above): ce_act is 0,
  // the block keeps its defaults and no register is written (so the
  // defaults of the _d are never stored).
  logic ce_act;
  assign ce_act = st_q != CeIdle || cmd_valid_i || rsp_valid_i;

  logic granted, rq_pop, rsp_rd, rsp_wr;
  logic [TagW:0] e_nf;
  logic [6:0] wr_bytes;

  always_comb begin
    start = 1'b0;
    pair = 1'b0;
    granted = 1'b0;
    rq_pop = 1'b0;
    rsp_rd = 1'b0;
    rsp_wr = 1'b0;
    e_nf = '0;
    wr_bytes = '0;
    done_o = 1'b0;
    st_d = CeIdle;
    fault_d = 1'b0;
    alloc_d = '0;
    free_d = '0;
    rd_out_d = '0;
    cam_v_d = '0;
    cam_ptr_d = '0;
    rob_v_d = '0;
    wr_out_d = '0;

    if (ce_act) begin
      start = st_q == CeIdle && cmd_valid_i;
      if (start) begin
        pair = cmd_i.h > 16'd1 && (cmd_i.src_mode != TileLinear || cmd_i.dst_mode != TileLinear);
      end
      granted = req_valid_o && req_ready_i;
      rq_pop = granted && !wr_req;
      rsp_rd = rsp_valid_i && !rsp_i.id[0];
      rsp_wr = rsp_valid_i && rsp_i.id[0];
      // Bytes a granted write carries (counted only for one).
      if (wr_req) wr_bytes = 7'($countones(wr_strb));
      st_d = st_q;
      fault_d = fault_q;
      alloc_d = alloc_q;
      free_d = free_q;
      rd_out_d = rd_out_q;
      cam_v_d = cam_v_q;
      cam_ptr_d = cam_ptr_q;
      rob_v_d = rob_v_q;
      wr_out_d = wr_out_q;

      // Reads: a piece on a new beat takes the next slot and joins the reuse
      // window; its read is counted in flight when granted.
      if (rq_pop) rd_out_d = rd_out_d + (TagW+1)'(1);
      if (s_new) begin
        alloc_d = alloc_q + (TagW+1)'(1);
        cam_v_d[cam_ptr_q] = 1'b1;
        cam_ptr_d = cam_ptr_q + 2'd1;
      end
      if (rsp_rd) begin
        rd_out_d = rd_out_d - (TagW+1)'(1);
        rob_v_d[rsp_tag] = 1'b1;
      end
      // A piece extracted: slots older than its reuse window are free.
      e_nf = e_seq - (TagW+1)'(ReuseWays);
      if (e_take && !fill_q && (TagW+1)'(e_nf - free_q) != '0 &&
          (TagW+1)'(e_nf - free_q) < (TagW+1)'(RobSlots)) begin
        rob_v_d[free_q[TagW-1:0]] = 1'b0;
        free_d = free_q + (TagW+1)'(1);
      end

      // Writes in flight (the ways: ce_wr).
      if (granted && wr_req) wr_out_d = wr_out_d + 16'd1;
      if (rsp_wr) wr_out_d = wr_out_d - 16'd1;

      unique case (st_q)
        CeIdle: begin
          if (cmd_valid_i) begin
            st_d = CeRun;
            fault_d = 1'b0;
            cam_v_d = '0;
            rob_v_d = '0;
            alloc_d = '0;
            free_d = '0;
          end
        end
        CeRun: begin
          // (The walkers start the cycle after the command is taken.)
          if (!start_q && s_done && d_done && pf_empty && bf_cnt == '0 && wcb_empty) st_d = CeDrain;
        end
        CeDrain, CeAbort: begin
          if (wr_out_q == '0 && rd_out_q == '0) begin
            st_d = CeIdle;
            done_o = 1'b1;
          end
        end
        default: st_d = CeIdle;
      endcase

      if (rsp_valid_i && rsp_i.err && st_q != CeIdle && st_q != CeAbort) begin
        st_d = CeAbort;
        fault_d = rsp_i.fault;
      end
      // The owning queue was reset: stop as on an error (the queue no longer
      // waits for done_o).
      if (abort_i && (st_q == CeRun || st_q == CeDrain)) st_d = CeAbort;
    end
  end

  assign done_err_o = st_q == CeAbort;
  assign done_fault_o = fault_q;
  assign state_o = st_q;
  assign busy_cycles_o = busy_q;
  assign bytes_o = bytes_q;

  // ---------------------------------------------------------------- registers
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      st_q <= CeIdle;
      fill_q <= 1'b0;
      fault_q <= 1'b0;
      value_q <= '0;
      busy_q <= '0;
      bytes_q <= '0;
      alloc_q <= '0;
      free_q <= '0;
      rd_out_q <= '0;
      cam_v_q <= '0;
      cam_ptr_q <= '0;
      rob_v_q <= '0;
      wr_out_q <= '0;
      start_q <= 1'b0;
      pair_q <= 1'b0;
      src_base_q <= '0;
      dst_base_q <= '0;
      src_mode_q <= '0;
      dst_mode_q <= '0;
      src_geom_q <= '0;
      dst_geom_q <= '0;
      src_pitch_q <= '0;
      dst_pitch_q <= '0;
      src_x0b_q <= '0;
      dst_x0b_q <= '0;
      src_y0_q <= '0;
      dst_y0_q <= '0;
      h_q <= '0;
      w_q <= '0;
    end else if (ce_act) begin  // else idle: hold (start_q is 0 there: it is 1 only in CeRun)
      st_q <= st_d;
      fault_q <= fault_d;
      start_q <= start;
      if (start) begin
        fill_q <= cmd_i.fill;
        value_q <= cmd_i.value;
        pair_q <= pair;
        src_base_q <= cmd_i.src_base;
        dst_base_q <= cmd_i.dst_base;
        src_mode_q <= cmd_i.src_mode;
        dst_mode_q <= cmd_i.dst_mode;
        src_geom_q <= tile_geom(cmd_i.src_mode, cmd_i.bpe);
        dst_geom_q <= tile_geom(cmd_i.dst_mode, cmd_i.bpe);
        src_pitch_q <= cmd_i.src_pitch;
        dst_pitch_q <= cmd_i.dst_pitch;
        src_x0b_q <= cmd_i.src_x0b;
        dst_x0b_q <= cmd_i.dst_x0b;
        src_y0_q <= cmd_i.src_y0;
        dst_y0_q <= cmd_i.dst_y0;
        h_q <= cmd_i.h;
        w_q <= cmd_i.w;
      end
      busy_q <= busy_q + {31'd0, st_q != CeIdle};
      if (granted && wr_req) bytes_q <= bytes_q + 32'(wr_bytes);
      alloc_q <= alloc_d;
      free_q <= free_d;
      rd_out_q <= rd_out_d;
      cam_v_q <= cam_v_d;
      cam_ptr_q <= start ? '0 : cam_ptr_d;
      rob_v_q <= rob_v_d;
      wr_out_q <= wr_out_d;
    end
  end

  // The piece FIFO and the read queue (prim_fifo_sync, which checks their
  // bounds): they move with ce_act, are emptied by an abort (a command
  // finds them empty: a_ce_done_empty) and are read only out of CeIdle.
  prim_fifo_sync #(
    .Width(PfW),
    .Depth(PfDepth)
  ) u_pf (
    .clk_i,
    .rst_ni,
    .en_i(ce_act),
    .clr_i(stop),
    .wvalid_i(pf_push),
    .wdata_i(pf_in),
    .rready_i(pf_pop),
    .out_en_i(busy),
    .rdata_o(pf_head),
    .count_o(pf_count)
  );
  prim_fifo_sync #(
    .Width(48 - BL + TagW),
    .Depth(RqDepth)
  ) u_rq (
    .clk_i,
    .rst_ni,
    .en_i(ce_act),
    .clr_i(stop),
    .wvalid_i(rq_push),
    .wdata_i({s_addr[47:BL], alloc_q[TagW-1:0]}),
    .rready_i(rq_pop),
    .out_en_i(busy),
    .rdata_o(rq_head),
    .count_o(rq_count)
  );

  // Storage without reset: the ROB and the reuse window's tags (read only
  // under cam_v_q); each written only when its stage advances, whole words.
  always_ff @(posedge clk_i) begin
    if (ce_act) begin  // each write below needs it
      if (rsp_rd) rob_q[rsp_tag] <= rsp_i.rdata;
      if (s_new) begin
        cam_beat_q[cam_ptr_q] <= s_addr[47:BL];
        cam_slot_q[cam_ptr_q] <= alloc_q[TagW-1:0];
      end
    end
  end

  logic unused;  // and the response's client bits: the arbiter matched them
  assign unused = ^{d_pos_unused, rsp_i.id[7:TagW+1]};

`ifndef SYNTHESIS
  // Assertions (Verilator --assert; a failure is a model error, gm.h).
  // All with ce_act: idle (CeIdle, no command, no response) nothing moves,
  // no request is made, done_o is 0 and the FIFOs are empty with their
  // pointers held (the engine leaves CeDrain only empty, a_ce_done_empty;
  // CeAbort clears them), so each holds there.
  always_ff @(posedge clk_i) begin
    if (rst_ni && ce_act) begin
      // The checks on an event sit under it: Verilator evaluates every term
      // of an assertion's expression, the test of an `if` only.
      if (rsp_valid_i) begin
        // Every response matches a request in flight.
        a_ce_rd_rsp_known: assert (!(rsp_rd && rd_out_q == '0))
          else $error("ce_top: read response with none in flight");
        a_ce_wr_ack_known: assert (!(rsp_wr && wr_out_q == '0))
          else $error("ce_top: write ack with none in flight");
        // Unique tags in flight: a read's data lands in a slot that holds none.
        a_ce_rob_tag_unique: assert (!(rsp_rd && rob_v_q[rsp_tag]))
          else $error("ce_top: read data for slot %0d, which holds data", rsp_tag);
      end
      a_ce_state_legal: assert (ce_state_legal(st_q))
        else $error("ce_top: illegal state %h", st_q);
      if (stop) begin
        // An abort writes nothing more (README: the engine drains).
        a_ce_abort_no_write: assert (!(granted && req_o.we))
          else $error("ce_top: a write issued after the abort");
        // ... nor reads: the abort only waits for what is in flight.
        a_ce_abort_no_read: assert (!(granted && !req_o.we))
          else $error("ce_top: a read issued after the abort");
      end
      if (done_o) begin
        // Drain: done (also after an error or abort) only with nothing in flight.
        a_ce_done_drained: assert (wr_out_q == '0 && rd_out_q == '0)
          else $error("ce_top: done with %0d reads and %0d writes in flight", rd_out_q, wr_out_q);
        // The engine goes idle empty (the idle path above relies on it).
        a_ce_done_empty: assert (!(st_q == CeDrain &&
                                   (!pf_empty || !rq_empty || bf_cnt != '0 || !wcb_empty)))
          else $error("ce_top: idle with pieces, reads, bytes or ways left");
      end
      // At most one read per reorder slot.
      a_ce_rd_out_max: assert (32'(rd_out_q) <= RobSlots)
        else $error("ce_top: %0d reads in flight, %0d slots", rd_out_q, RobSlots);
      // The piece FIFO and the read queue check their own bounds (prim_fifo_sync).
    end
  end

  // Cover points (Verilator --coverage-user).
  // Back-pressure on every stage: the memory channel refuses a request,
  c_ce_req_refused: cover property (@(posedge clk_i) req_valid_o && !req_ready_i);
  // the piece FIFO is full,
  c_ce_pf_full: cover property (@(posedge clk_i) run && s_valid && pf_full);
  // the read queue is full,
  c_ce_rq_full: cover property (@(posedge clk_i) run && s_valid && !fill_q && !s_hit && rq_full);
  // every reorder slot is taken,
  c_ce_rob_full: cover property (@(posedge clk_i) run && s_valid && !fill_q && !s_hit && !slot_free);
  // the byte FIFO has no room for the next piece,
  c_ce_bf_full: cover property (@(posedge clk_i) run && !pf_empty && (fill_q || rob_v_q[e_slot]) && !e_take);
  // (every write-combining way open and none matching: ce_wr's c_ce_wcb_evict.)
  // An error or abort with requests still in flight: the engine drains.
  c_ce_abort_drain: cover property (@(posedge clk_i) st_q == CeAbort && (wr_out_q != '0 || rd_out_q != '0));
  // The owning queue is reset while the engine runs.
  c_ce_abort_by_reset: cover property (@(posedge clk_i) abort_i && (st_q == CeRun || st_q == CeDrain));
  // A page fault ends a command.
  c_ce_done_fault: cover property (@(posedge clk_i) done_o && done_err_o && done_fault_o);
`endif

endmodule

`default_nettype wire
