// SPDX-License-Identifier: MIT
//
// cp_pkt_check: a queue's payload checks, made when a packet executes.
//
// Purpose: say whether a packet whose payload has been read may run, and
// if not which cause the queue latches, in the order of the rules: a
// reserved payload bit (from regspec's pkt_rsv table) or a field out of
// range is BAD_FIELD; INDIRECT_BUFFER inside an IB is IB_NESTED, with a
// VMID or PRIV bit from an unprivileged ring PRIV, with a size of 0, over
// IB_MAX_DW or past 2^48 IB_RANGE; an address off its access size is
// BAD_ALIGN.  The COPY/BLT/FILL surface checks are cp_copy_cmd's
// (copy_field_i/copy_align_i); the header's are cp_hdr_check's and
// WRITE_DATA's address cp_exec's (it streams its data before StExec).
// Combinational.
//
// How to drive it: give the packet's opcode and payload register; with
// en_i set (cp_exec StExec) cause_o is the verdict, CauseNone when the
// packet may run.  With en_i clear cause_o is CauseNone and nothing is
// evaluated: Verilator recomputes every block each cycle, and a packet
// executes in one cycle of many.

`default_nettype none

module cp_pkt_check #(
  parameter int unsigned PayloadBits = 320  // cp_exec's payload register (PktFixedDw dwords)
) (
  input  logic                   en_i,          // the packet executes (StExec)
  input  logic [7:0]             opcode_i,
  input  logic [PayloadBits-1:0] pl_i,
  input  logic                   in_ib_i,       // the packet sits in an IB
  input  logic                   priv_i,        // the ring may run privileged packets (Q_CTRL.PRIV)
  input  logic [20:0]            ib_max_i,      // IB_MAX_DW
  input  logic                   copy_field_i,  // cp_copy_cmd: a COPY/BLT/FILL field is bad ...
  input  logic                   copy_align_i,  // ... or a tiled base is off its tile
  output logic [4:0]             cause_o        // cause_e: CauseNone when the packet may run
);

  `include "gpu_defs.svh"

  opcode_e opcode;
  pkt_payload_u pl;
  logic [47:0] pl_addr;  // dwords 0 and 1: the address of every packet that has one
  logic [20:0] ib_size;  // INDIRECT_BUFFER SIZE_DW
  logic rsv_bad;         // a reserved payload bit is set: BAD_FIELD

  initial begin : check_params
    if (PayloadBits != PktFixedDw * 32) $error("cp_pkt_check: PayloadBits must be PktFixedDw dwords");
  end
  assign opcode = opcode_i;
  assign pl = pl_i;
  assign pl_addr = {pl.timestamp.addr_hi[15:0], pl.timestamp.addr_lo};
  assign ib_size = pl.indirect_buffer.size.size_dw;

  always_comb begin
    rsv_bad = 1'b0;
    cause_o = CauseNone;
    if (en_i) begin  // the table and the 320-bit AND only then
      rsv_bad = (pl_i & pkt_rsv(opcode)) != '0;
      // Not unique: its one-hot check (--assert) on distinct constants
      // proves nothing, and Verilator's DFG pass would hoist it out of
      // en_i, to run every cycle.
      case (opcode)
        OpIndirectBuffer: begin
          if (rsv_bad) begin
            cause_o = CauseBadField;
          end else if (in_ib_i) begin
            cause_o = CauseIbNested;
          end else if ((pl.indirect_buffer.size.vmid != '0 || pl.indirect_buffer.size.priv) &&
                       !priv_i) begin
            cause_o = CausePriv;
          end else if (ib_size == '0 || ib_size > ib_max_i ||
                       {1'b0, pl_addr} + {25'd0, ib_size, 2'b00} > 49'h1_0000_0000_0000) begin
            cause_o = CauseIbRange;
          end else if (pl_addr[1:0] != '0) begin
            cause_o = CauseBadAlign;
          end
        end
        OpReleaseFence: begin
          if (rsv_bad) begin
            cause_o = CauseBadField;
          end else if (pl_addr[1:0] != '0 || (pl.release_fence.flags.size64 && pl_addr[2])) begin
            cause_o = CauseBadAlign;
          end
        end
        OpWaitMem: begin
          if (rsv_bad || pl.wait_mem.ctl.func > 3'(FuncGt)) begin
            cause_o = CauseBadField;
          end else if (pl_addr[1:0] != '0 || (pl.wait_mem.ctl.size64 && pl_addr[2])) begin
            cause_o = CauseBadAlign;
          end
        end
        OpTimestamp: begin
          if (rsv_bad) begin
            cause_o = CauseBadField;
          end else if (pl_addr[2:0] != '0) begin
            cause_o = CauseBadAlign;
          end
        end
        OpPteWrite: begin
          if (rsv_bad || pl.pte_write.num.entries == '0 ||
              {1'b0, pl_addr} + {26'd0, pl.pte_write.num.entries, 3'b000} > 49'h1_0000_0000_0000) begin
            cause_o = CauseBadField;
          end else if (pl_addr[2:0] != '0) begin
            cause_o = CauseBadAlign;
          end
        end
        OpInvalidateTlb: begin
          if (rsv_bad) cause_o = CauseBadField;
        end
        OpCopy, OpBlt, OpFill: begin
          if (rsv_bad || copy_field_i) begin
            cause_o = CauseBadField;
          end else if (copy_align_i) begin
            cause_o = CauseBadAlign;
          end
        end
        default: ;  // NOP and WRITE_DATA never reach StExec
      endcase
    end
  end

endmodule

`default_nettype wire
