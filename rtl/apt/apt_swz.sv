// SPDX-License-Identifier: MIT
//
// apt_swz: the swizzle unit.  Combinational: (tile mode, bytes per element,
// pitch, byte column, row) -> byte offset from the surface base.
//
// Purpose: one definition of every tile layout, instanced by the aperture
// (CPU linear view of a tiled surface) and by the copy engine (one for the
// source walker, one for the destination walker).  The geometry (tile_*)
// is generated into gpu_defs.svh from regspec/gpusim.json, the same table
// the C oracle dma/dma_tile.c reads; test_apt checks the two
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

module apt_swz (
  input  logic        en_i,     // an offset is wanted this cycle
  input  logic [2:0]  mode_i,
  input  logic [2:0]  bpe_i,    // log2 bytes per element
  input  logic [19:0] pitch_i,  // bytes per row
  input  logic [31:0] xb_i,     // byte column
  input  logic [15:0] y_i,      // row
  output logic [47:0] off_o
);

  `include "gpu_defs.svh"

  // Deposit the low bits of v into the set bits of m, lowest first.
  function automatic logic [15:0] pdep16(logic [15:0] v, logic [15:0] m);
    logic [15:0] r;
    logic [4:0] k;
    r = '0;
    k = '0;
    for (int unsigned i = 0; i < 16; i++) begin
      if (m[i]) begin
        r[i] = v[k[3:0]];
        k = k + 5'd1;
      end
    end
    pdep16 = r;
  endfunction

  // A tiled layout's offset.  A function, so its working values exist only
  // while it runs: with en_i clear the unit costs one assignment.
  function automatic logic [47:0] tiled_off(logic [2:0] mode, logic [2:0] bpe, logic [19:0] pitch,
                                            logic [31:0] xb, logic [15:0] y);
    logic [3:0] twl, thl;
    logic [15:0] xin, yin, ty, intile;
    logic [31:0] tx;
    logic [19:0] tpr;
    logic [47:0] tile_idx;
    twl = tile_tw_log2(mode, bpe);
    thl = tile_th_log2(mode, bpe);
    xin = xb[15:0] & ((16'd1 << twl) - 16'd1);
    yin = y & ((16'd1 << thl) - 16'd1);
    tx = xb >> twl;
    ty = y >> thl;
    tpr = pitch >> twl;
    tile_idx = 48'(ty) * 48'(tpr) + 48'(tx);
    intile = pdep16(xin, tile_xmask(mode, bpe)) | pdep16(yin, tile_ymask(mode, bpe));
    tiled_off = (tile_idx << tile_tb_log2(mode)) | 48'(intile);
  endfunction

  always_comb begin
    off_o = '0;
    if (en_i) begin
      if (mode_i == TileLinear) off_o = 48'(y_i) * 48'(pitch_i) + 48'(xb_i);
      else off_o = tiled_off(mode_i, bpe_i, pitch_i, xb_i, y_i);  // the tile geometry and deposits
    end
  end

`ifndef SYNTHESIS
  // Assertions (Verilator --assert; a failure is a model error, gm.h).
  // Combinational: checked whenever the inputs settle to new values.
  logic [15:0] a_xm, a_ym;
  logic [3:0] a_twl, a_thl;
  logic [4:0] a_tbl;
  always_comb begin
    a_xm = '0;
    a_ym = '0;
    a_twl = '0;
    a_thl = '0;
    a_tbl = '0;
    if (!en_i) begin
      // With the enable clear nothing is evaluated and the offset is 0 (the
      // callers tie en_i to their valid and rely on it for speed).
      a_swz_idle_zero: assert (off_o == '0)
        else $error("apt_swz: offset %h with en_i clear", off_o);
    end else if (mode_i != TileLinear) begin
      a_xm = tile_xmask(mode_i, bpe_i);
      a_ym = tile_ymask(mode_i, bpe_i);
      a_twl = tile_tw_log2(mode_i, bpe_i);
      a_thl = tile_th_log2(mode_i, bpe_i);
      a_tbl = tile_tb_log2(mode_i);
      // The generated tile geometry: the X and Y masks are disjoint and
      // together the low TB bits, so the in-tile offset stays in its tile.
      if (tile_fmt_ok(mode_i, bpe_i, pitch_i)) begin
        a_swz_masks_tile: assert ((a_xm & a_ym) == '0 && (a_xm | a_ym) == 16'((17'd1 << a_tbl) - 17'd1) &&
                                  5'(a_twl) + 5'(a_thl) == a_tbl)
          else $error("apt_swz: mode %0d bpe %0d masks %h/%h for a tile of 2^%0d", mode_i, bpe_i,
                      a_xm, a_ym, a_tbl);
      end
    end
    // Cover points (Verilator --coverage-user; immediate: the block has no clock).
    // Every tiled layout of a legal format is swizzled at least once.
    c_swz_ss64k: cover (en_i && mode_i == TileSs64k && tile_fmt_ok(mode_i, bpe_i, pitch_i));
    c_swz_y: cover (en_i && mode_i == TileY && tile_fmt_ok(mode_i, bpe_i, pitch_i));
    c_swz_x: cover (en_i && mode_i == TileX && tile_fmt_ok(mode_i, bpe_i, pitch_i));
    // A row past the first tile row (the tile index's multiply is used).
    c_swz_tile_row: cover (en_i && mode_i != TileLinear && (y_i >> a_thl) != '0 && (pitch_i >> a_twl) != '0);
  end
`endif

endmodule

`default_nettype wire
