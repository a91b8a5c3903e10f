// SPDX-License-Identifier: MIT
//
// cp_hdr_check: a queue's packet-header decode and the header rules.
//
// Purpose: say whether a dword read as a type-3 packet header may start a
// packet, and if not which cause the queue latches, in the order of the
// rules: BAD_TYPE, BAD_OPCODE, PRIV (a privileged opcode in a stream that
// may not run it), BAD_COUNT (COUNT outside the opcode's range, or the
// packet would overrun its IB or ring).  Combinational.
//
// The opcode's rules come from one table, HdrRules, built at elaboration
// from the functions regspec generates into gpu_defs.svh (pkt_known,
// pkt_priv, pkt_count_min/max): an indexed read, where the four case trees
// were evaluated every cycle (Verilator hoists them out of any enable).
//
// How to drive it: give the dword the queue consumes (dw_i, 0 when none)
// and the stream it comes from; with en_i set (a dword consumed) cause_o is
// the verdict, CauseNone for a legal header.  cp_exec reads it in StHeader
// only.  With en_i clear cause_o is CauseNone and the rules are not
// evaluated.

`default_nettype none

module cp_hdr_check (
  input  logic        en_i,         // a dword is consumed this cycle
  input  logic [31:8] dw_i,         // bits 7:0 are no field of a header
  input  logic        in_ib_i,      // the dword comes from an IB ...
  input  logic        ib_priv_i,    // ... that may run privileged packets
  input  logic        priv_i,       // the ring may (Q_CTRL.PRIV)
  input  logic [20:0] ib_rem_i,     // dwords left in the IB, this one included
  input  logic [19:0] ring_mask_i,  // ring size in dwords - 1
  output logic [7:0]  op_o,         // the header's OPCODE
  output logic [13:0] cnt_o,        // the header's COUNT
  output logic [4:0]  cause_o       // cause_e: CauseNone when the header is legal
);

  `include "gpu_defs.svh"

  logic [1:0] h_type;
  logic [7:0] h_op;
  logic [13:0] h_cnt;
  logic h_known, h_priv;
  logic [13:0] h_min, h_max;
  assign h_type = dw_i[HdrTypeLsb +: HdrTypeW];
  assign h_op = dw_i[HdrOpcodeLsb +: HdrOpcodeW];
  assign h_cnt = dw_i[HdrCountLsb +: HdrCountW];

  typedef struct packed {
    logic known;
    logic priv;
    logic [13:0] min;
    logic [13:0] max;
  } hdr_rule_t;
  localparam int unsigned HdrRuleW = 2 + 2 * 14;  // $bits(hdr_rule_t) (Yosys 0.23 takes no $bits of a type)
  function automatic logic [256*HdrRuleW-1:0] hdr_rules();  // flat: Yosys 0.23 has no 2-D return
    logic [7:0] op;
    hdr_rules = '0;
    for (int i = 0; i < 256; i++) begin
      op = 8'(i);
      hdr_rules[HdrRuleW*i +: HdrRuleW] = {pkt_known(op), pkt_priv(op), pkt_count_min(op), pkt_count_max(op)};
    end
  endfunction
  localparam logic [256*HdrRuleW-1:0] HdrRules = hdr_rules();
  hdr_rule_t h_rule;
  assign h_rule = HdrRules[HdrRuleW*h_op +: HdrRuleW];
  assign h_known = h_rule.known;
  assign h_priv = h_rule.priv;
  assign h_min = h_rule.min;
  assign h_max = h_rule.max;

  always_comb begin  // a chain of tests, in the order of the rules
    cause_o = CauseNone;
    if (!en_i) begin
      // nothing consumed: no verdict read
    end else if (h_type != 2'(PktType3)) begin
      cause_o = CauseBadType;
    end else if (!h_known) begin
      cause_o = CauseBadOpcode;
    end else if (h_priv && !(in_ib_i ? ib_priv_i : priv_i)) begin
      cause_o = CausePriv;
    end else if (h_cnt < h_min || h_cnt > h_max ||
                 (in_ib_i && {7'd0, h_cnt} >= ib_rem_i) ||
                 (!in_ib_i && {6'd0, h_cnt} >= ring_mask_i)) begin
      cause_o = CauseBadCount;
    end
  end

  assign op_o = h_op;
  assign cnt_o = h_cnt;

endmodule

`default_nettype wire
