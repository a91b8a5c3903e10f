// SPDX-License-Identifier: MIT
//
// prim_arb_rr: a round-robin arbiter of N requesters.
//
// Purpose: the one arbiter of the RTL.  Of the requesters asking this
// cycle (req_i) it picks the first after the last one served, so none
// starves; after reset the search starts at requester 0.  valid_o says
// one is picked, idx_o names it and gnt_o is its one-hot bit.
//
// How to drive it: the pick is combinational from req_i and the pointer;
// ack_i says the pick was taken this cycle (the port behind the arbiter
// was ready), and only then does the pointer move past it.  A requester
// whose pick is not taken keeps it on the next cycle if it still asks
// (the port sees a stable request).  No request: valid_o is low, gnt_o
// zero and idx_o the last one served.

`default_nettype none

`include "prim/prim_assert.svh"

module prim_arb_rr #(
  parameter int unsigned N = 2  // requesters, at least 2
) (
  input  logic                                  clk_i,
  input  logic                                  rst_ni,
  input  logic [N-1:0]                          req_i,
  input  logic                                  ack_i,    // the pick is taken
  output logic                                  valid_o,  // a requester is picked
  output logic [((N > 1) ? $clog2(N) : 1)-1:0]  idx_o,
  output logic [N-1:0]                          gnt_o     // idx_o one-hot, with valid_o
);

  localparam int unsigned IW = (N > 1) ? $clog2(N) : 1;

  // The design does not support a single requester (nothing to arbitrate).
  `ASSERT_INIT(ArbTwoOrMore_A, N >= 2)

  logic [IW-1:0] last_q, last_d, pick;
  logic found;

  // The first requester after the last one served (searched only when one asks).
  always_comb begin
    pick = last_q;
    found = 1'b0;
    if (req_i != '0) for (int unsigned i = 1; i <= N; i++) begin
      if (!found && req_i[(32'(last_q) + i) % N]) begin
        pick = IW'((32'(last_q) + i) % N);
        found = 1'b1;
      end
    end
  end

  assign valid_o = found;
  assign idx_o = pick;
  always_comb begin
    gnt_o = '0;
    if (found) gnt_o[pick] = 1'b1;
    last_d = (found && ack_i) ? pick : last_q;
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) last_q <= IW'(N - 1);
    else last_q <= last_d;
  end

  // One grant, to a requester that asks, whenever any asks (with no
  // request nothing is picked: checked only with one).
  `ASSERT_IF(ArbGrantOneHot_A, $onehot(gnt_o) && (gnt_o & ~req_i) == '0 && valid_o, req_i != '0)

endmodule

`default_nettype wire
