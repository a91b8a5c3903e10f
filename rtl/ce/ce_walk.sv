// SPDX-License-Identifier: MIT
//
// ce_walk: the address walker of one side (source or destination) of the
// copy engine.
//
// Purpose: visit the bytes of a W x H rectangle of a surface in the copy
// engine's canonical order and hand them out as pieces: a piece is up to 16
// bytes that are contiguous in memory and do not cross a 16-byte address
// boundary (so never a beat boundary).  Both walkers of a command use the
// same order, so the byte stream of the source lines up with the
// destination's whatever the two alignments and layouts.
//
// Canonical order: with pair_i clear, row by row, each row left to right.
// With pair_i set (a tiled surface on either side and H > 1), rows go in
// pairs and each pair in 32-byte columns: (y, c..c+31), (y+1, c..c+31),
// (y, c+32..), ...  A beat of every tiled layout holds 16 bytes of two
// neighbouring rows or 32 bytes of one, so this order lets the engine read
// and write each tiled beat once (a small reuse window and write combining
// do the rest).
//
// How to drive it: pulse start_i with the configuration (held stable while
// busy); take pieces with ready_i; done_o rises after the last piece.
// An empty rectangle (W or H zero) is done at once.

`default_nettype none

module ce_walk #(
  parameter int unsigned GeomW = 173  // TileGeomW of gpu_defs.svh (checked)
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        start_i,
  input  logic        stop_i,     // abandon the walk (error)
  input  logic [47:0] base_i,
  input  logic [2:0]  mode_i,
  input  logic [GeomW-1:0] geom_i,  // tile_geom(mode_i, bpe): the caller looks it up once
  input  logic [19:0] pitch_i,
  input  logic [19:0] x0b_i,      // first byte column
  input  logic [15:0] y0_i,       // first row
  input  logic [31:0] w_i,        // bytes per row
  input  logic [15:0] h_i,        // rows
  input  logic        pair_i,
  output logic        valid_o,
  input  logic        ready_i,
  output logic [47:0] addr_o,
  output logic [4:0]  len_o,      // 1..16
  output logic [2:0]  pos_o,      // row byte position of the first byte, mod 8
  output logic        done_o
);

  `include "gpu_defs.svh"

  initial begin : check_params
    if (GeomW != TileGeomW) $error("ce_walk: GeomW must be TileGeomW");
  end

  logic busy_q, busy_d, r_q, r_d;
  logic [15:0] yb_q, yb_d;
  logic [32:0] c_q, c_d, p_q, p_d;
  logic [47:0] off_q;  // byte offset of the position (p_q, yb_q + r_q)
  logic moved;         // the position changes: start or a piece taken

  // The offset is computed when the position changes, from the next
  // position, and kept in off_q: the swizzle unit (its en_i is moved) is
  // evaluated once a piece, not every cycle the engine cannot take one
  // (Verilator recomputes every block each cycle).  Otherwise every signal
  // below keeps a constant default.
  logic [31:0] xb;
  logic [15:0] y;
  logic [47:0] off;
  logic [32:0] seg_end;
  logic [4:0] len;

  apt_swz u_swz (
    .en_i(moved),
    .mode_i(mode_i),
    .geom_i(geom_i),
    .pitch_i(pitch_i),
    .xb_i(xb),
    .y_i(y),
    .off_o(off)
  );

  // The piece offered (valid_o): up to the segment's end or the 16-byte
  // boundary, whichever is first.
  logic [32:0] cend, left;
  logic [4:0] room;
  always_comb begin
    addr_o = '0;
    seg_end = '0;
    len = '0;
    cend = '0;
    left = '0;
    room = '0;
    if (busy_q) begin
      cend = c_q + (pair_i ? 33'd32 : {1'b0, w_i});
      seg_end = (cend < {1'b0, w_i}) ? cend : {1'b0, w_i};
      addr_o = base_i + off_q;
      room = 5'd16 - {1'b0, addr_o[3:0]};
      left = seg_end - p_q;
      len = (left < 33'(room)) ? left[4:0] : room;
    end
  end

  assign len_o = len;
  assign pos_o = p_q[2:0];
  assign valid_o = busy_q;
  assign done_o = !busy_q;

  // Next position: the registers are written only while busy or starting,
  // so the defaults here are never stored.
  logic [32:0] nxt, nc;
  always_comb begin
    busy_d = 1'b0;
    r_d = 1'b0;
    yb_d = '0;
    c_d = '0;
    p_d = '0;
    nxt = '0;
    nc = '0;
    moved = 1'b0;
    if (start_i) begin
      moved = 1'b1;
      busy_d = w_i != '0 && h_i != '0;
    end else if (busy_q) begin
      busy_d = !stop_i;
      r_d = r_q;
      yb_d = yb_q;
      c_d = c_q;
      p_d = p_q;
      if (!stop_i && ready_i) begin
        moved = 1'b1;
        nxt = p_q + 33'(len);
        nc = c_q + (pair_i ? 33'd32 : {1'b0, w_i});
        p_d = nxt;
        if (nxt == seg_end) begin
          if (pair_i && !r_q && yb_q + 16'd1 < h_i) begin
            r_d = 1'b1;
            p_d = c_q;
          end else if (nc < {1'b0, w_i}) begin
            r_d = 1'b0;
            c_d = nc;
            p_d = nc;
          end else begin
            r_d = 1'b0;
            c_d = '0;
            p_d = '0;
            yb_d = yb_q + (pair_i ? 16'd2 : 16'd1);
            if (32'(yb_q) + (pair_i ? 32'd2 : 32'd1) >= 32'(h_i)) busy_d = 1'b0;
          end
        end
      end
    end
    moved = moved && busy_d;  // the last piece taken: no position left
    // The swizzle unit's inputs: the next position.
    xb = '0;
    y = '0;
    if (moved) begin
      xb = 32'(x0b_i) + p_d[31:0];
      y = y0_i + yb_d + {15'd0, r_d};
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      busy_q <= 1'b0;
      r_q <= 1'b0;
      yb_q <= '0;
      c_q <= '0;
      p_q <= '0;
      off_q <= '0;
    end else if (busy_q || start_i) begin  // else idle: hold (the _d are defaults)
      busy_q <= busy_d;
      r_q <= r_d;
      yb_q <= yb_d;
      c_q <= c_d;
      p_q <= p_d;
      if (moved) off_q <= off;
    end
  end

`ifndef SYNTHESIS
  // Assertions (Verilator --assert; a failure is a model error, gm.h).
  // Each holds while idle (!busy_q: no piece offered), so checked only busy.
  always_ff @(posedge clk_i) begin
    if (rst_ni && busy_q) begin
      // ce_top starts a walk only once the last one is done (or stopped).
      a_walk_start_idle: assert (!(start_i && busy_q))
        else $error("ce_walk: started while busy");
      // A piece is 1..16 bytes and never crosses 16 bytes (so never a beat).
      a_walk_piece_16: assert (len_o != '0 && 6'(addr_o[3:0]) + 6'(len_o) <= 6'd16)
        else $error("ce_walk: piece of %0d bytes at %h", len_o, addr_o);
      // The walk stays inside its rectangle: the column inside its segment
      // (whose end is at most W by its definition above), the row inside
      // H, the second row of a pair only in pair order.
      a_walk_in_rect: assert (p_q >= c_q && p_q < seg_end &&
                              yb_q + 16'(r_q) < h_i && (!r_q || pair_i))
        else $error("ce_walk: position (%0d, %0d+%0d) outside %0d x %0d", p_q, yb_q, r_q, w_i, h_i);
    end
  end

  // Cover points (Verilator --coverage-user).
  // The engine cannot take a piece (its FIFOs or write buffer are full).
  c_walk_stall: cover property (@(posedge clk_i) valid_o && !ready_i);
  // The second row of a pair (tiled order).
  c_walk_pair_row: cover property (@(posedge clk_i) busy_q && r_q);
  // An error or abort stops a walk half way.
  c_walk_stopped: cover property (@(posedge clk_i) stop_i && busy_q && !start_i);
  // An empty rectangle: done at once.
  c_walk_empty: cover property (@(posedge clk_i) start_i && (w_i == '0 || h_i == '0));
`endif

endmodule

`default_nettype wire
