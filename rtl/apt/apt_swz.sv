// SPDX-License-Identifier: MIT
//
// apt_swz: the swizzle unit.  Combinational: (tile mode, format geometry,
// pitch, byte column, row) -> byte offset from the surface base.  The
// format comes in as its geometry, tile_geom(mode, bpe) of gpu_defs.svh, so
// a caller that keeps one format for many offsets (a copy-engine walker)
// looks it up once.
//
// Purpose: one definition of every tile layout, instanced by the aperture
// (CPU linear view of a tiled surface) and by the copy engine (one for the
// source walker, one for the destination walker).  The geometry (tile_geom)
// is generated into gpu_defs.svh from regspec/gpusim.json, the same table
// the C oracle hw/gpu_tile.c reads; test_apt checks the two
// against each other over whole tiles of every mode and element size.
//
//   LINEAR: off = y * pitch + xb
//   tiled:  off = ((y >> th) * (pitch >> tw) + (xb >> tw)) << tb
//               | pdep(xb mod 2^tw, XMASK) | pdep(y mod 2^th, YMASK)
//
// The caller checks the format (tile_fmt_ok) first; an illegal one gives
// some offset, never an X.  With en_i clear the unit gives 0 without
// evaluating anything (Verilator recomputes every block each cycle): tie it
// to the caller's valid.

`default_nettype none

module apt_swz #(
  parameter int unsigned GeomW = 173  // TileGeomW of gpu_defs.svh (checked)
) (
  input  logic        en_i,     // an offset is wanted this cycle
  input  logic [2:0]  mode_i,
  input  logic [GeomW-1:0] geom_i,  // tile_geom(mode_i, bpe); LINEAR: unused
  input  logic [19:0] pitch_i,  // bytes per row
  input  logic [31:0] xb_i,     // byte column
  input  logic [15:0] y_i,      // row
  output logic [47:0] off_o
);

  `include "gpu_defs.svh"

  initial begin : check_params
    if (GeomW != TileGeomW) $error("apt_swz: GeomW must be TileGeomW");
  end

  // Deposit the low bits of v into the set bits of m, lowest first, by the
  // stage masks of plan (tile_geom: four shift-and-merge steps).
  function automatic logic [15:0] deposit(logic [15:0] v, logic [15:0] m, logic [63:0] plan);
    logic [15:0] x, mv;
    x = v;
    for (int i = 3; i >= 0; i--) begin
      mv = plan[16*i +: 16];
      x = (x & ~mv) | ((x << (1 << i)) & mv);
    end
    deposit = x & m;
  endfunction

  // A tiled layout's offset, from the fields of its tile_geom_t.  A
  // function, so its working values exist only while it runs: with en_i
  // clear the unit costs one assignment.
  function automatic logic [47:0] tiled_off(logic [3:0] twl, logic [3:0] thl, logic [4:0] tbl,
                                            logic [15:0] xmask, logic [15:0] ymask,
                                            logic [63:0] xplan, logic [63:0] yplan,
                                            logic [19:0] pitch, logic [31:0] xb, logic [15:0] y);
    logic [15:0] xin, yin, ty, intile;
    logic [31:0] tx;
    logic [19:0] tpr;
    logic [47:0] tile_idx;
    xin = xb[15:0] & ((16'd1 << twl) - 16'd1);
    yin = y & ((16'd1 << thl) - 16'd1);
    tx = xb >> twl;
    ty = y >> thl;
    tpr = pitch >> twl;
    tile_idx = 48'(ty) * 48'(tpr) + 48'(tx);
    intile = deposit(xin, xmask, xplan) | deposit(yin, ymask, yplan);
    tiled_off = (tile_idx << tbl) | 48'(intile);
  endfunction

  tile_geom_t g;
  assign g = geom_i;

  always_comb begin
    off_o = '0;
    if (en_i) begin
      if (mode_i == TileLinear) off_o = 48'(y_i) * 48'(pitch_i) + 48'(xb_i);
      else off_o = tiled_off(g.twl, g.thl, g.tbl, g.xmask, g.ymask, g.xplan, g.yplan, pitch_i, xb_i, y_i);
    end
  end

`ifndef SYNTHESIS
  // Assertions (Verilator --assert; a failure is a model error, gm.h).
  // Combinational: checked whenever the inputs settle to new values.
  logic fmt_ok;
  always_comb begin
    fmt_ok = 1'b0;
    if (!en_i) begin
      // With the enable clear nothing is evaluated and the offset is 0 (the
      // callers tie en_i to their valid and rely on it for speed).
      a_swz_idle_zero: assert (off_o == '0)
        else $error("apt_swz: offset %h with en_i clear", off_o);
    end else if (mode_i != TileLinear) begin
      // The tile geometry given: the X and Y masks are disjoint and together
      // the low TB bits, so the in-tile offset stays in its tile (an
      // unknown format's is all 0).
      a_swz_masks_tile: assert ((g.xmask & g.ymask) == '0 &&
                                (g.xmask | g.ymask) == 16'((17'd1 << g.tbl) - 17'd1) &&
                                5'(g.twl) + 5'(g.thl) == g.tbl)
        else $error("apt_swz: mode %0d masks %h/%h for a tile of 2^%0d", mode_i, g.xmask, g.ymask,
                    g.tbl);
      // A legal tiled format (tile_fmt_ok): known, and a pitch of whole tiles.
      fmt_ok = g.tbl != '0 && pitch_i != '0 && (pitch_i & ((20'd1 << g.twl) - 20'd1)) == '0;
    end
    // Cover points (Verilator --coverage-user; immediate: the block has no clock).
    // Every tiled layout of a legal format is swizzled at least once.
    c_swz_ss64k: cover (en_i && mode_i == TileSs64k && fmt_ok);
    c_swz_y: cover (en_i && mode_i == TileY && fmt_ok);
    c_swz_x: cover (en_i && mode_i == TileX && fmt_ok);
    // A row past the first tile row (the tile index's multiply is used).
    c_swz_tile_row: cover (en_i && fmt_ok && (y_i >> g.thl) != '0 && (pitch_i >> g.twl) != '0);
  end
`endif

endmodule

`default_nettype wire
