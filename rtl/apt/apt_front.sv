// SPDX-License-Identifier: MIT
//
// apt_front: the aperture's front end: the host FIFO and the translation of
// a window offset into a physical address.
//
// Purpose: take the host's 16-byte chunks (apt_top's header describes the
// aperture) and hand them to the write and read paths as units of
// translation, one per cycle, each with its physical address or an error.
// A chunk goes as one unit when both halves are enabled and no valid range
// has a start, end or pitch off 16 bytes (wide_ok: then the halves share a
// range and a row, and every layout keeps byte bits 3:0 of a row together);
// else its enabled halves go one after the other (part_q).
//
// Pipeline: a HostDepth-entry host FIFO; the range match and the row cache
// (st_q) -> s1 (row, byte column) -> the swizzle unit -> s2 (physical
// address).  The lowest-numbered valid range containing the access wins;
// outside every valid range the address is the window offset in VRAM.
// Row cache: the division by the pitch takes 28 cycles (st_q = DIV, the
// access waits at the FIFO head); the range, row start and row of the last
// access are kept, so an access in the same or the next row is translated
// in one cycle.  A write to an APT range register (cfg_wr_i) drops it.
//
// How to drive it: s2's unit stays until wr_take_i or rd_take_i (the write
// or the read path takes it); s1 moves into s2 as it leaves.  busy_i is
// apt_top's a_busy_q (without it the state is quiet and the status outputs
// take their quiet values); act_i is its a_act (without it nothing changes
// and the next state is not evaluated).  A request in the caller's input
// register (req_valid_i) is counted by req_ready_o the cycle before.

`default_nettype none

module apt_front #(
  parameter int unsigned NumRanges = 8,
  parameter int unsigned HostDepth = 4   // host FIFO entries
) (
  input  logic                    clk_i,
  input  logic                    rst_ni,
  input  logic                    busy_i,        // apt_top a_busy_q
  input  logic                    act_i,         // apt_top a_act
  // Host side (registered by the caller)
  input  logic                    req_valid_i,
  output logic                    req_ready_o,
  input  logic                    req_we_i,
  input  logic [27:4]             req_off_i,     // window offset of the chunk
  input  logic [127:0]            req_wdata_i,
  input  logic [15:0]             req_wstrb_i,
  // Ranges from the register file
  input  logic [NumRanges-1:0]    rng_valid_i,
  input  logic [NumRanges*3-1:0]  rng_mode_i,
  input  logic [NumRanges*3-1:0]  rng_bpe_i,
  input  logic [NumRanges*28-1:0] rng_start_i,
  input  logic [NumRanges*28-1:0] rng_end_i,
  input  logic [NumRanges*48-1:0] rng_base_i,
  input  logic [NumRanges*20-1:0] rng_pitch_i,
  input  logic                    cfg_wr_i,      // an APT range register was written
  // Status
  output logic                    empty_o,       // no chunk queued, dividing or in a stage
  output logic [2:0]              state_o,
  // s2: the translated unit (the whole chunk, or one half of it in bytes 7:0)
  output logic                    s2_v_o,
  output logic [1:0]              s2_err_o,      // apt_err_e
  output logic [47:0]             s2_addr_o,     // physical address of its first word
  output logic                    s2_we_o,
  output logic                    s2_wide_o,     // both halves at once
  output logic                    s2_half_o,     // which half, when not wide
  output logic                    s2_last_o,     // the chunk's last unit: a read answers with it
  output logic [27:3]             s2_off_o,      // window offset of its first word
  output logic [127:0]            s2_data_o,
  output logic [15:0]             s2_strb_o,
  input  logic                    wr_take_i,     // the write path takes s2's unit
  input  logic                    rd_take_i      // the read path takes it
);

  `include "gpu_defs.svh"

  localparam int unsigned RW = (NumRanges > 1) ? $clog2(NumRanges) : 1;
  localparam int unsigned HW = $clog2(HostDepth);

  typedef struct packed {
    logic         we;
    logic [27:4]  off;    // window offset of the 16-byte chunk
    logic [127:0] wdata;
    logic [15:0]  wstrb;
  } host_t;

  // A unit of translation: the whole chunk, or one half of it (in bytes 7:0).
  typedef struct packed {
    logic         we;
    logic         wide;   // both halves at once
    logic         half;   // which half, when not wide
    logic         last;   // the chunk's last unit: a read answers with it
    logic [27:3]  off;    // window offset of the unit's first word
    logic [127:0] data;
    logic [15:0]  strb;
  } unit_t;

  // s1: a translated row and byte column (or a linear address, or an error).
  typedef struct packed {
    logic        v;
    apt_err_e    err;
    logic        lin;    // outside every range: addr is the VRAM address
    logic [RW-1:0] r;
    logic [31:0] xb;
    logic [15:0] y;
    logic [47:0] addr;
    unit_t       u;
  } s1_t;

  // s2: a physical word address (or an error).
  typedef struct packed {
    logic        v;
    apt_err_e    err;
    logic [47:0] addr;
    unit_t       u;
  } s2_t;

  // ---------------------------------------------------------------- state
  // Host FIFO (u_hq; its depth a power of two, at least 2, checked there).
  host_t hq_in, hq_head;
  logic [HW:0] hq_count, hq_cnt;
  logic hq_pop, head;

  // The divider and the row cache, then the two stages.
  apt_state_e st_q, st_d;
  logic [RW-1:0] r_q, r_d;
  logic [27:0] l_q, l_d, rem_q, rem_d, lo_q, lo_d;
  logic [27:0] q_q, q_d;
  logic [4:0] cnt_q, cnt_d;
  logic row_err_q, row_err_d;   // the divider found the head's row past 2^16
  logic rc_v_q, rc_v_d;
  logic [RW-1:0] rc_r_q, rc_r_d;
  logic [27:0] rc_l0_q, rc_l0_d;
  logic [15:0] rc_y0_q, rc_y0_d;
  logic part_q, part_d;  // the head's low half is done
  s1_t s1_q, s1_d;
  s2_t s2_q, s2_d;
  logic s2_ld, s1_free, s2_free;
  // Range match: the lowest-numbered valid range containing the head.
  logic hit;
  logic [RW-1:0] hit_r;

  // Working values of the next-state block (below), read only there.
  host_t h;  // the host FIFO's head
  logic wide_ok, lo_en, hi_en, wide, cur_half, cur_last, r_ok;
  logic [27:0] a8, l_new, rc_off, r_start;
  logic [19:0] r_pitch, d_pitch;
  logic [28:0] d_rem;

  // s2 to the write and read paths.
  assign s2_v_o = s2_q.v;
  assign s2_err_o = s2_q.err;
  assign s2_addr_o = s2_q.addr;
  assign s2_we_o = s2_q.u.we;
  assign s2_wide_o = s2_q.u.wide;
  assign s2_half_o = s2_q.u.half;
  assign s2_last_o = s2_q.u.last;
  assign s2_off_o = s2_q.u.off;
  assign s2_data_o = s2_q.u.data;
  assign s2_strb_o = s2_q.u.strb;
  assign state_o = st_q;

  // ---------------------------------------------------------------- swizzle
  // Named for the waves (a packed struct dumps as one vector).
  logic [47:0] swz_off;
  logic [31:0] s1_xb;
  logic [15:0] s1_y;
  logic s1_swz;
  logic [2:0] s1_mode, s1_bpe;
  logic [19:0] s1_pitch;
  tile_geom_t s1_geom;
  assign s1_xb = s1_q.xb;
  assign s1_y = s1_q.y;
  apt_swz u_swz (
    .en_i(s1_swz),
    .mode_i(s1_mode),
    .geom_i(s1_geom),
    .pitch_i(s1_pitch),
    .xb_i(s1_xb),
    .y_i(s1_y),
    .off_o(swz_off)
  );

  // ---------------------------------------------------------------- status
  // From registers only, evaluated with busy_i: without it the state is
  // quiet and these are their quiet values.  The range's format is
  // selected only for the swizzle (swz_off is read only then; s1 holds a
  // unit only while busy_i).
  always_comb begin
    hq_cnt = '0;
    head = 1'b0;
    empty_o = 1'b1;
    req_ready_o = 1'b1;
    s1_swz = 1'b0;
    s1_mode = '0;
    s1_bpe = '0;
    s1_pitch = '0;
    s1_geom = '0;
    if (busy_i) begin
      hq_cnt = hq_count;
      head = hq_cnt != '0;
      // The request in the caller's input register lands next cycle.
      req_ready_o = 32'(hq_cnt) + 32'(req_valid_i) < HostDepth;
      empty_o = !head && !s1_q.v && !s2_q.v && st_q == AptIdle;
      if (s1_q.v && !s1_q.lin) begin
        s1_swz = 1'b1;
        s1_mode = rng_mode_i[3*s1_q.r +: 3];
        s1_bpe = rng_bpe_i[3*s1_q.r +: 3];
        s1_pitch = rng_pitch_i[20*s1_q.r +: 20];
        s1_geom = tile_geom(s1_mode, s1_bpe);
      end
    end
  end

  // ---------------------------------------------------------------- next state
  // Evaluated only with act_i; s2 is freed when a path takes its unit.
  // Quiet values first.
  always_comb begin
    hit = 1'b0;
    hit_r = '0;
    // Read by the registers only with act_i: constants while quiet.
    st_d = AptIdle;
    r_d = '0;
    l_d = '0;
    lo_d = '0;
    rem_d = '0;
    q_d = '0;
    cnt_d = '0;
    row_err_d = 1'b0;
    rc_v_d = 1'b0;
    rc_r_d = '0;
    rc_l0_d = '0;
    rc_y0_d = '0;
    hq_pop = 1'b0;
    part_d = 1'b0;
    s1_d = '0;
    s2_d = '0;
    s2_ld = 1'b0;
    s1_free = 1'b0;
    s2_free = 1'b0;
    // Working values, read only within this block.
    h = '0;
    wide_ok = 1'b1;
    lo_en = 1'b0;
    hi_en = 1'b0;
    wide = 1'b0;
    cur_half = 1'b0;
    cur_last = 1'b0;
    r_ok = 1'b0;
    a8 = '0;
    l_new = '0;
    rc_off = '0;
    r_start = '0;
    r_pitch = '0;
    d_rem = '0;
    d_pitch = '0;
    if (act_i) begin
      if (head) h = hq_head;
      // s2 is loaded only when s1 moves on (else only its valid clears): no
      // copy of the stage each cycle.
      s2_free = !s2_q.v || wr_take_i || rd_take_i;
      s2_ld = s1_q.v && s2_free;
      s1_free = !s1_q.v || s2_free;
      st_d = st_q;
      r_d = r_q;
      l_d = l_q;
      lo_d = lo_q;
      rem_d = rem_q;
      q_d = q_q;
      cnt_d = cnt_q;
      row_err_d = row_err_q && !cfg_wr_i;
      rc_v_d = rc_v_q && !cfg_wr_i;
      rc_r_d = rc_r_q;
      rc_l0_d = rc_l0_q;
      rc_y0_d = rc_y0_q;
      part_d = part_q;
      s1_d = s1_q;
      if (s2_free) s1_d.v = 1'b0;
      unique case (st_q)
        AptIdle: begin
          if (head) begin
            lo_en = |h.wstrb[7:0];
            hi_en = |h.wstrb[15:8];
            for (int i = 0; i < NumRanges; i++) begin
              if (rng_valid_i[i] && (rng_start_i[28*i + 3] || rng_end_i[28*i + 3] ||
                                     rng_pitch_i[20*i + 3]))
                wide_ok = 1'b0;
            end
            wide = lo_en && hi_en && wide_ok && !part_q;
            cur_half = part_q || !lo_en;
            a8 = {h.off, cur_half, 3'b000};
            cur_last = wide || cur_half || !hi_en;
            for (int i = NumRanges - 1; i >= 0; i--) begin
              if (rng_valid_i[i] && a8 >= rng_start_i[28*i +: 28] && a8 < rng_end_i[28*i +: 28]) begin
                hit = 1'b1;
                hit_r = RW'(i);
              end
            end
            // The head's range (range 0's without a hit) and its format check.
            r_pitch = rng_pitch_i[20*hit_r +: 20];
            r_start = rng_start_i[28*hit_r +: 28];
            r_ok = hit && tile_fmt_ok(rng_mode_i[3*hit_r +: 3], rng_bpe_i[3*hit_r +: 3], r_pitch) &&
                   r_pitch[2:0] == '0;
            l_new = a8 - r_start;  // both 8-aligned
            rc_off = l_new - rc_l0_q;
            if (s1_free) begin
              // The unit: the whole chunk, or one half of it.
              s1_d = '0;
              s1_d.u.we = h.we;
              s1_d.u.wide = wide;
              s1_d.u.half = cur_half;
              s1_d.u.last = cur_last;
              s1_d.u.off = a8[27:3];
              s1_d.u.data = wide ? h.wdata : {64'd0, cur_half ? h.wdata[127:64] : h.wdata[63:0]};
              s1_d.u.strb = wide ? h.wstrb : {8'd0, cur_half ? h.wstrb[15:8] : h.wstrb[7:0]};
              s1_d.r = hit_r;
              hq_pop = cur_last;
              part_d = !cur_last;
              s1_d.v = 1'b1;
              if (!hit) begin
                s1_d.lin = 1'b1;
                s1_d.addr = 48'(VramBase) + 48'(a8);
              end else if (!r_ok) begin
                s1_d.err = AptErrFormat;
              end else if (row_err_q) begin
                s1_d.err = AptErrRow;
                row_err_d = 1'b0;
              end else if (rc_v_q && rc_r_q == hit_r && l_new >= rc_l0_q && rc_off < 28'(r_pitch)) begin
                s1_d.xb = 32'(rc_off);
                s1_d.y = rc_y0_q;
              end else if (rc_v_q && rc_r_q == hit_r && l_new >= rc_l0_q &&
                           rc_off - 28'(r_pitch) < 28'(r_pitch) && rc_y0_q != 16'hffff) begin
                s1_d.xb = {4'd0, 28'(rc_off - 28'(r_pitch))};
                s1_d.y = rc_y0_q + 16'd1;
                rc_l0_d = rc_l0_q + 28'(r_pitch);
                rc_y0_d = rc_y0_q + 16'd1;
              end else begin
                // Row-cache miss: divide, then translate this head again.
                hq_pop = 1'b0;
                part_d = part_q;
                s1_d = s1_q;
                s1_d.v = 1'b0;
                r_d = hit_r;
                l_d = l_new;
                lo_d = l_new;
                rem_d = '0;
                q_d = '0;
                cnt_d = 5'd28;
                st_d = AptDiv;
              end
            end
          end
        end
        AptDiv: begin
          // Restoring division, one quotient bit per cycle, MSB first:
          // shift the next dividend bit into the remainder.
          d_rem = {rem_q, l_q[27]};
          d_pitch = rng_pitch_i[20*r_q +: 20];
          l_d = {l_q[26:0], 1'b0};
          q_d = {q_q[26:0], 1'b0};
          if (d_rem >= 29'(d_pitch)) begin
            rem_d = 28'(d_rem - 29'(d_pitch));
            q_d[0] = 1'b1;
          end else begin
            rem_d = d_rem[27:0];
          end
          cnt_d = cnt_q - 5'd1;
          if (cnt_q == 5'd1) begin
            st_d = AptIdle;
            if (q_d[27:16] != '0) begin
              row_err_d = !cfg_wr_i;
            end else begin
              rc_v_d = !cfg_wr_i;
              rc_r_d = r_q;
              rc_l0_d = lo_q - rem_d;
              rc_y0_d = q_d[15:0];
            end
          end
        end
        default: st_d = AptIdle;
      endcase
      if (s2_ld) begin
        s2_d.v = 1'b1;
        s2_d.err = s1_q.err;
        s2_d.u = s1_q.u;
        s2_d.addr = s1_q.lin ? s1_q.addr : rng_base_i[48*s1_q.r +: 48] + swz_off;
      end
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      part_q <= 1'b0;
      st_q <= AptIdle;
      r_q <= '0;
      l_q <= '0;
      lo_q <= '0;
      rem_q <= '0;
      q_q <= '0;
      cnt_q <= '0;
      row_err_q <= 1'b0;
      rc_v_q <= 1'b0;
      rc_r_q <= '0;
      rc_l0_q <= '0;
      rc_y0_q <= '0;
      s1_q <= '0;
      s2_q <= '0;
    end else if (act_i) begin  // else idle: nothing changes
      part_q <= part_d;
      st_q <= st_d;
      r_q <= r_d;
      l_q <= l_d;
      lo_q <= lo_d;
      rem_q <= rem_d;
      q_q <= q_d;
      cnt_q <= cnt_d;
      row_err_q <= row_err_d;
      rc_v_q <= rc_v_d;
      rc_r_q <= rc_r_d;
      rc_l0_q <= rc_l0_d;
      rc_y0_q <= rc_y0_d;
      s1_q <= s1_d;
      if (s2_ld) s2_q <= s2_d;
      else if (wr_take_i || rd_take_i) s2_q.v <= 1'b0;
    end
  end

  // The host FIFO; a request comes with act_i.
  assign hq_in = {req_we_i, req_off_i, req_wdata_i, req_wstrb_i};
  prim_fifo_sync #(
    .Width($bits(hq_in)),
    .Depth(HostDepth)
  ) u_hq (
    .clk_i,
    .rst_ni,
    .en_i(act_i),
    .clr_i(1'b0),
    .wvalid_i(req_valid_i),
    .wdata_i(hq_in),
    .rready_i(hq_pop),
    .out_en_i(busy_i),  // the head and the count are read only with it
    .rdata_o(hq_head),
    .count_o(hq_count)
  );

`ifndef SYNTHESIS
  // Assertions (Verilator --assert; a failure is a model error, gm.h).
  // With act_i: idle, no request comes, nothing is pushed or popped (the
  // bounds that held still hold) and st_q is AptIdle, so each holds.
  always_ff @(posedge clk_i) begin
    if (rst_ni && act_i) begin
      // The host FIFO checks its own bounds (prim_fifo_sync); this one
      // names the host's side of the protocol.
      // The host keeps the protocol: no request while the FIFO is full.
      a_apt_host_no_overflow: assert (!(req_valid_i && 32'(hq_cnt) == HostDepth))
        else $error("apt_front: host FIFO overflow");
      a_apt_state_legal: assert (apt_state_legal(st_q))
        else $error("apt_front: illegal front-end state %h", st_q);
    end
  end

  // Cover points (Verilator --coverage-user).
  // A chunk split in halves (ranges not 16-byte multiples).
  c_apt_split: cover property (@(posedge clk_i) part_q);
  // The row cache misses: a division.
  c_apt_divide: cover property (@(posedge clk_i) st_q == AptDiv && cnt_q == 5'd28);
`endif

endmodule

`default_nettype wire
