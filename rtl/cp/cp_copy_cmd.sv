// SPDX-License-Identifier: MIT
//
// cp_copy_cmd: a queue's COPY, BLT and FILL payload as a copy-engine
// command, and the payload checks that decide whether it may run.
//
// Purpose: keep the surface-format checks and the command fields of the
// three copy packets out of the queue FSM (cp_exec).  Combinational.
//
// How to drive it: give the packet's opcode and payload register; raise
// check_en_i in the cycle the packet executes (cp_exec StExec) to get
// field_bad_o/align_bad_o, and cmd_en_i while the command is offered to the
// copy engine (StCdrain) to get ce_cmd_o (gpu_pkg::ce_cmd_t, generated from
// regspec/gpusim.json "structs").  With an enable clear its outputs are zero
// and nothing is evaluated: Verilator recomputes every block each cycle, and
// these are idle almost all the time.
//
// Checks (reserved bits are cp_pkt_check's rsv_bad): COPY: a range past 2^48;
// BLT and FILL: a surface with an unknown mode or element size, a pitch the
// layout cannot have, or a rectangle outside the pitch (tiled, or more than
// one row) is BAD_FIELD, as are a width over 2^32 bytes and (BLT) two
// element sizes; a tiled base off its tile is BAD_ALIGN.

`default_nettype none

module cp_copy_cmd #(
  parameter int unsigned PayloadBits = 320  // cp_exec's payload register (PktFixedDw dwords)
) (
  input  logic                   check_en_i,
  input  logic                   cmd_en_i,
  input  logic [7:0]             opcode_i,
  input  logic [PayloadBits-1:0] pl_i,
  output logic                   field_bad_o,
  output logic                   align_bad_o,
  output gpu_pkg::ce_cmd_t       ce_cmd_o  // regspec "structs"
);

  `include "gpu_defs.svh"

  opcode_e opcode;
  pkt_payload_u pl;

  initial begin : check_params
    if (PayloadBits != PktFixedDw * 32) $error("cp_copy_cmd: PayloadBits must be PktFixedDw dwords");
  end
  assign opcode = opcode_i;
  assign pl = pl_i;

  // A surface operand: base, layout (FMT dword), X.  bad_field: an unknown
  // mode or element size, a pitch the layout cannot have, or a rectangle
  // outside the pitch (tiled, or more than one row); bad_align: a tiled base
  // off its tile.
  function automatic logic [1:0] surf_bad(logic [47:0] base, tile_mode_e mode, logic [2:0] bpe,
                                          logic [19:0] pitch, logic [15:0] x, logic [35:0] wb,
                                          logic [15:0] h);
    logic [35:0] right;
    logic [4:0] tbl;
    logic fld, aln;
    right = (36'(x) << bpe) + wb;
    tbl = tile_tb_log2(mode);
    fld = !tile_fmt_ok(mode, bpe, pitch) ||
          ((mode != TileLinear || h > 16'd1) && right > 36'(pitch));
    aln = !fld && ((base & ((48'd1 << tbl) - 48'd1)) != '0);
    surf_bad = {fld, aln};
  endfunction

  logic [2:0] c_bpe;
  logic [35:0] c_wb;
  logic [47:0] c_src, c_dst;  // COPY's addresses, BLT's and FILL's surface bases
  logic [1:0] c_src_bad, c_dst_bad;
  always_comb begin
    c_bpe = '0;
    c_wb = '0;
    c_src = '0;
    c_dst = '0;
    c_src_bad = '0;
    c_dst_bad = '0;
    field_bad_o = 1'b0;
    align_bad_o = 1'b0;
    if (check_en_i || cmd_en_i) begin
      c_bpe = (opcode == OpBlt) ? pl.blt.src_fmt.src_bpe : pl.fill.dst_fmt.dst_bpe;
      c_wb = {4'd0, (opcode == OpBlt) ? pl.blt.width : pl.fill.width} << c_bpe;
      // An if, not a unique case: Verilator checks a unique case's one-hot
      // match every cycle, hoisted out of the enable.
      if (opcode == OpBlt) begin
        c_src = {pl.blt.src_hi[15:0], pl.blt.src_lo};
        c_dst = {pl.blt.dst_hi[15:0], pl.blt.dst_lo};
      end else if (opcode == OpFill) begin
        c_src = '0;
        c_dst = {pl.fill.dst_hi[15:0], pl.fill.dst_lo};
      end else begin
        c_src = {pl.copy.src_hi[15:0], pl.copy.src_lo};
        c_dst = {pl.copy.dst_hi[15:0], pl.copy.dst_lo};
      end
    end
    if (check_en_i) begin
      unique case (opcode)
        OpCopy: field_bad_o = {1'b0, c_src} + 49'(pl.copy.bytes) > 49'h1_0000_0000_0000 ||
                              {1'b0, c_dst} + 49'(pl.copy.bytes) > 49'h1_0000_0000_0000;
        OpBlt: begin
          c_src_bad = surf_bad(c_src, pl.blt.src_fmt.src_mode, pl.blt.src_fmt.src_bpe,
                               pl.blt.src_fmt.src_pitch, pl.blt.src_xy.src_x, c_wb, pl.blt.height[15:0]);
          c_dst_bad = surf_bad(c_dst, pl.blt.dst_fmt.dst_mode, pl.blt.dst_fmt.dst_bpe,
                               pl.blt.dst_fmt.dst_pitch, pl.blt.dst_xy.dst_x, c_wb, pl.blt.height[15:0]);
          field_bad_o = c_src_bad[1] || c_dst_bad[1] || c_wb[35:32] != '0 ||
                        pl.blt.src_fmt.src_bpe != pl.blt.dst_fmt.dst_bpe;
          align_bad_o = c_src_bad[0] || c_dst_bad[0];
        end
        OpFill: begin
          c_dst_bad = surf_bad(c_dst, pl.fill.dst_fmt.dst_mode, pl.fill.dst_fmt.dst_bpe,
                               pl.fill.dst_fmt.dst_pitch, pl.fill.dst_xy.dst_x, c_wb, pl.fill.height[15:0]);
          field_bad_o = c_dst_bad[1] || c_wb[35:32] != '0;
          align_bad_o = c_dst_bad[0];
        end
        default: ;
      endcase
    end
  end

  // The command the copy engine sees.
  always_comb begin
    ce_cmd_o = '0;
    ce_cmd_o.src_mode = TileLinear;
    ce_cmd_o.dst_mode = TileLinear;
    if (cmd_en_i) begin
      ce_cmd_o.fill = opcode == OpFill;
      ce_cmd_o.src_base = c_src;
      ce_cmd_o.dst_base = c_dst;
      ce_cmd_o.w = pl.copy.bytes;
      ce_cmd_o.h = 16'd1;
      ce_cmd_o.value = {pl.fill.value_hi, pl.fill.value_lo};
      unique case (opcode)
        OpBlt: begin
          ce_cmd_o.src_mode = pl.blt.src_fmt.src_mode;
          ce_cmd_o.src_pitch = pl.blt.src_fmt.src_pitch;
          ce_cmd_o.src_x0b = 20'(pl.blt.src_xy.src_x) << c_bpe;
          ce_cmd_o.src_y0 = pl.blt.src_xy.src_y;
          ce_cmd_o.dst_mode = pl.blt.dst_fmt.dst_mode;
          ce_cmd_o.dst_pitch = pl.blt.dst_fmt.dst_pitch;
          ce_cmd_o.dst_x0b = 20'(pl.blt.dst_xy.dst_x) << c_bpe;
          ce_cmd_o.dst_y0 = pl.blt.dst_xy.dst_y;
          ce_cmd_o.bpe = c_bpe;
          ce_cmd_o.w = c_wb[31:0];
          ce_cmd_o.h = pl.blt.height[15:0];
        end
        OpFill: begin
          ce_cmd_o.dst_mode = pl.fill.dst_fmt.dst_mode;
          ce_cmd_o.dst_pitch = pl.fill.dst_fmt.dst_pitch;
          ce_cmd_o.dst_x0b = 20'(pl.fill.dst_xy.dst_x) << c_bpe;
          ce_cmd_o.dst_y0 = pl.fill.dst_xy.dst_y;
          ce_cmd_o.bpe = c_bpe;
          ce_cmd_o.w = c_wb[31:0];
          ce_cmd_o.h = pl.fill.height[15:0];
        end
        default: ;
      endcase
    end
  end

`ifndef SYNTHESIS
  // Assertions (Verilator --assert; a failure is a model error, gm.h).
  // Combinational: checked whenever the inputs settle to new values.
  always_comb begin
    // cp_exec checks a packet (StExec) and offers it (StCdrain) in different states.
    a_copy_one_enable: assert (!(check_en_i && cmd_en_i))
      else $error("cp_copy_cmd: check and command enables at once");
    if (cmd_en_i) begin
      // Only COPY, BLT and FILL become copy-engine commands.
      a_copy_cmd_opcode: assert (opcode == OpCopy || opcode == OpBlt || opcode == OpFill)
        else $error("cp_copy_cmd: command for opcode %h", opcode);
      // A command offered passed its checks in StExec, on the same payload:
      // legal formats and tiled bases on their tile (else BAD_FIELD/BAD_ALIGN).
      a_copy_cmd_legal: assert (opcode == OpCopy ||
                                (tile_fmt_ok(ce_cmd_o.dst_mode, ce_cmd_o.bpe, ce_cmd_o.dst_pitch) &&
                                 (ce_cmd_o.dst_base & ((48'd1 << tile_tb_log2(ce_cmd_o.dst_mode)) - 48'd1)) == '0 &&
                                 (opcode == OpFill ||
                                  (tile_fmt_ok(ce_cmd_o.src_mode, ce_cmd_o.bpe, ce_cmd_o.src_pitch) &&
                                   (ce_cmd_o.src_base & ((48'd1 << tile_tb_log2(ce_cmd_o.src_mode)) - 48'd1)) == '0))))
        else $error("cp_copy_cmd: opcode %h offered with an illegal surface", opcode);
    end
    // Cover points (Verilator --coverage-user; immediate: the block has no clock).
    // A BLT with both a field error and an alignment error (BAD_FIELD wins).
    c_copy_field_and_align: cover (check_en_i && field_bad_o && align_bad_o);
    // A BLT or FILL refused for a misaligned tiled base alone.
    c_copy_align_only: cover (check_en_i && align_bad_o && !field_bad_o);
    // A COPY whose range runs past 2^48.
    c_copy_past_2_48: cover (check_en_i && opcode == OpCopy && field_bad_o);
  end
`endif

endmodule

`default_nettype wire
