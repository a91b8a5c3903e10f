// SPDX-License-Identifier: MIT
//
// prim_assert.svh: the assertion and cover macros of the RTL (in the manner
// of OpenTitan's prim_assert.sv), one set for every block.
//
// Purpose: a block states a property on one line, beside the logic it
// checks, with a label and a one-line reason above it:
//
//   // The host keeps the protocol: no request while the FIFO is full.
//   `ASSERT_IF(HostNoOverflow_A, !(req_valid_i && full), act_i)
//
// Each macro expands on the line it is used on, so Verilator (--assert)
// reports a failure with that file and line, and tools/assert_table.py
// finds the label there (the first argument): model/gm_assert.cpp names
// the failed assertion by it.  Keep a use on one line (or at least its
// label on the first).  The checks run at the rising edge of the clock,
// out of reset (rst_ni high); under SYNTHESIS (Yosys) they expand to
// nothing.
//
//   ASSERT(Label, Prop [, Clk, RstN])          Prop holds on every edge
//   ASSERT_IF(Label, Prop, En [, Clk, RstN])   ... on the edges with En:
//                                              checks stay off while a
//                                              block is idle (not evaluated)
//   ASSERT_INIT(Label, Prop)                   Prop holds at time zero (a
//                                              parameter check)
//   COVER(Label, Prop [, Clk])                 a cover point
//                                              (Verilator --coverage-user)

`ifndef PRIM_ASSERT_SVH
`define PRIM_ASSERT_SVH

`ifndef SYNTHESIS

`define ASSERT(__name, __prop, __clk = clk_i, __rst_n = rst_ni) \
  always_ff @(posedge __clk) begin if (__rst_n) begin __name: assert (__prop) else $error("%s failed", `"__name`"); end end

`define ASSERT_IF(__name, __prop, __en, __clk = clk_i, __rst_n = rst_ni) \
  always_ff @(posedge __clk) begin if ((__rst_n) && (__en)) begin __name: assert (__prop) else $error("%s failed", `"__name`"); end end

`define ASSERT_INIT(__name, __prop) \
  initial begin : __name assert (__prop) else $error("%s failed", `"__name`"); end

`define COVER(__name, __prop, __clk = clk_i) \
  __name: cover property (@(posedge __clk) (__prop));

`else

`define ASSERT(__name, __prop, __clk = clk_i, __rst_n = rst_ni)
`define ASSERT_IF(__name, __prop, __en, __clk = clk_i, __rst_n = rst_ni)
`define ASSERT_INIT(__name, __prop)
`define COVER(__name, __prop, __clk = clk_i)

`endif

`endif  // PRIM_ASSERT_SVH
