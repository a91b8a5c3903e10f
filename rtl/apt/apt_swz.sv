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

  logic [3:0] twl, thl;
  logic [4:0] tbl;
  logic [15:0] xm, ym, xin, yin, intile;
  logic [31:0] tx;
  logic [15:0] ty;
  logic [19:0] tpr;
  logic [47:0] tile_idx;

  always_comb begin
    twl = '0;
    thl = '0;
    tbl = '0;
    xm = '0;
    ym = '0;
    xin = '0;
    yin = '0;
    tx = '0;
    ty = '0;
    tpr = '0;
    tile_idx = '0;
    intile = '0;
    off_o = '0;
    if (en_i && mode_i == TileLinear) begin
      off_o = 48'(y_i) * 48'(pitch_i) + 48'(xb_i);
    end else if (en_i) begin
      // The tile geometry and the two deposits only for a tiled surface.
      twl = tile_tw_log2(mode_i, bpe_i);
      thl = tile_th_log2(mode_i, bpe_i);
      tbl = tile_tb_log2(mode_i);
      xm = tile_xmask(mode_i, bpe_i);
      ym = tile_ymask(mode_i, bpe_i);
      xin = xb_i[15:0] & ((16'd1 << twl) - 16'd1);
      yin = y_i & ((16'd1 << thl) - 16'd1);
      tx = xb_i >> twl;
      ty = y_i >> thl;
      tpr = pitch_i >> twl;
      tile_idx = 48'(ty) * 48'(tpr) + 48'(tx);
      intile = pdep16(xin, xm) | pdep16(yin, ym);
      off_o = (tile_idx << tbl) | 48'(intile);
    end
  end

endmodule

`default_nettype wire
