// SPDX-License-Identifier: MIT
//
// apt_tile.svh: the geometry of every tile mode, for the swizzle unit and
// the packet checks.  Included inside a module body after gpu_defs.svh.
//
// A tiled surface is a row-major grid of tiles; a tile is 2^TwLog2 bytes
// wide and 2^ThLog2 rows high (2^TbLog2 bytes).  Inside a tile the byte
// column's low TwLog2 bits are deposited into the set bits of XMASK and the
// row's low ThLog2 bits into YMASK (x86 PDEP order).  The C oracle is
// dma/dma_tile.c; the masks of SS64K are the D3D12 64KB_STANDARD_SWIZZLE.
// Every mask keeps byte bits 3:0 in place, so 16 bytes of a row are always
// contiguous (the copy engine's piece size and the aperture's 8-byte access
// rely on it).

// log2 of the tile width in bytes (LINEAR: 0, no grid).
function automatic logic [3:0] tile_tw_log2(logic [2:0] mode, logic [2:0] bpe);
  tile_tw_log2 = 4'd0;
  unique case (mode)
    TileSs64k: begin
      unique case (bpe)
        3'd0: tile_tw_log2 = 4'd8;
        3'd1, 3'd2: tile_tw_log2 = 4'd9;
        default: tile_tw_log2 = 4'd10;
      endcase
    end
    TileY: tile_tw_log2 = 4'd7;
    TileX: tile_tw_log2 = 4'd9;
    default: tile_tw_log2 = 4'd0;
  endcase
endfunction

// log2 of the tile size in bytes (LINEAR: 0).
function automatic logic [4:0] tile_tb_log2(logic [2:0] mode);
  unique case (mode)
    TileSs64k: tile_tb_log2 = 5'd16;
    TileY, TileX: tile_tb_log2 = 5'd12;
    default: tile_tb_log2 = 5'd0;
  endcase
endfunction

function automatic logic [15:0] tile_xmask(logic [2:0] mode, logic [2:0] bpe);
  tile_xmask = 16'h0;
  unique case (mode)
    TileSs64k: begin
      unique case (bpe)
        3'd0: tile_xmask = 16'haa0f;
        3'd1: tile_xmask = 16'haa1f;
        3'd2: tile_xmask = 16'haa8f;
        3'd3: tile_xmask = 16'haa9f;
        default: tile_xmask = 16'haacf;
      endcase
    end
    TileY: tile_xmask = 16'h0e0f;
    TileX: tile_xmask = 16'h01ff;
    default: tile_xmask = 16'h0;
  endcase
endfunction

function automatic logic [15:0] tile_ymask(logic [2:0] mode, logic [2:0] bpe);
  tile_ymask = 16'h0;
  unique case (mode)
    TileSs64k: begin
      unique case (bpe)
        3'd0: tile_ymask = 16'h55f0;
        3'd1: tile_ymask = 16'h55e0;
        3'd2: tile_ymask = 16'h5570;
        3'd3: tile_ymask = 16'h5560;
        default: tile_ymask = 16'h5530;
      endcase
    end
    TileY: tile_ymask = 16'h01f0;
    TileX: tile_ymask = 16'h0e00;
    default: tile_ymask = 16'h0;
  endcase
endfunction

// A surface layout the hardware can address: known mode, 1..16-byte
// elements, a pitch that is a nonzero multiple of the element (LINEAR) or of
// the tile width.
function automatic logic tile_fmt_ok(logic [2:0] mode, logic [2:0] bpe, logic [19:0] pitch);
  logic [3:0] twl;
  twl = tile_tw_log2(mode, bpe);
  if (mode > TileX || bpe > 3'd4 || pitch == '0) tile_fmt_ok = 1'b0;
  else if (mode == TileLinear) tile_fmt_ok = (pitch & ((20'd1 << bpe) - 20'd1)) == '0;
  else tile_fmt_ok = (pitch & ((20'd1 << twl) - 20'd1)) == '0;
endfunction
