// SPDX-License-Identifier: MIT
//
// cp_wait_cmp: a queue's WAIT_MEM compare - whether the value read
// satisfies the packet's condition.
//
// Purpose: pick the 32- or 64-bit value at the packet's address out of
// the beat read, mask it and compare it with the reference by FUNC
// (ALWAYS, LT, LE, EQ, NE, GE, GT; any other FUNC was refused as
// BAD_FIELD before the read).  Combinational.
//
// How to drive it: give the WAIT_MEM payload register and the read data;
// with en_i set (cp_exec StWresp, its one reader) true_o is the verdict.
// With en_i clear true_o is 0 and nothing is evaluated.

`default_nettype none

module cp_wait_cmp #(
  parameter int unsigned BeatBytes = 32,    // memory port bytes per beat
  parameter int unsigned PayloadBits = 320  // cp_exec's payload register (PktFixedDw dwords)
) (
  input  logic                   en_i,
  input  logic [PayloadBits-1:0] pl_i,
  input  logic [BeatBytes*8-1:0] rdata_i,  // the beat holding the packet's address
  output logic                   true_o
);

  `include "gpu_defs.svh"

  localparam int unsigned BeatLog2 = $clog2(BeatBytes);

  pkt_payload_u pl;
  logic wait_64;
  logic [2:0] wait_func;
  logic [63:0] wait_val, wait_ref, wait_mask, wait_masked;
  logic wait_true;

  initial begin : check_params
    if (PayloadBits != PktFixedDw * 32) $error("cp_wait_cmp: PayloadBits must be PktFixedDw dwords");
  end
  assign pl = pl_i;
  assign wait_64 = pl.wait_mem.ctl.size64;
  assign wait_func = pl.wait_mem.ctl.func;

  always_comb begin
    wait_val = '0;
    wait_ref = '0;
    wait_mask = '0;
    wait_masked = '0;
    wait_true = 1'b0;
    if (en_i) begin
      wait_val = wait_64 ? rdata_i[8*{pl.wait_mem.addr_lo[BeatLog2-1:3], 3'b000} +: 64]
                         : {32'd0, rdata_i[8*{pl.wait_mem.addr_lo[BeatLog2-1:2], 2'b00} +: 32]};
      wait_ref = wait_64 ? {pl.wait_mem.ref_hi, pl.wait_mem.ref_lo} : {32'd0, pl.wait_mem.ref_lo};
      wait_mask = wait_64 ? {pl.wait_mem.mask_hi, pl.wait_mem.mask_lo} : {32'd0, pl.wait_mem.mask_lo};
      wait_masked = wait_val & wait_mask;
      unique case (wait_func)
        FuncAlways: wait_true = 1'b1;
        FuncLt:     wait_true = wait_masked < wait_ref;
        FuncLe:     wait_true = wait_masked <= wait_ref;
        FuncEq:     wait_true = wait_masked == wait_ref;
        FuncNe:     wait_true = wait_masked != wait_ref;
        FuncGe:     wait_true = wait_masked >= wait_ref;
        FuncGt:     wait_true = wait_masked > wait_ref;
        default:    wait_true = 1'b0;
      endcase
    end
  end

  assign true_o = wait_true;

endmodule

`default_nettype wire
