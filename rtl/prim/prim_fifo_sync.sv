// SPDX-License-Identifier: MIT
//
// prim_fifo_sync: a synchronous FIFO of Depth entries of Width bits.
//
// Purpose: the one first-in first-out queue of the RTL.  The entries are
// held without reset (a packed struct goes in as its bits:
// .wdata_i(x), .rdata_o(y) with Width = $bits(x)); the read and write
// pointers count modulo 2 * Depth, so the count and the flags come from
// them alone.
//
// How to drive it: with en_i high, wvalid_i pushes wdata_i and rready_i
// pops the head; both may come in one cycle (a push into a full FIFO
// together with a pop is not allowed either: the push is checked against
// the count before the pop).  clr_i (with en_i) empties the FIFO instead,
// whatever else comes (a block that drops its queue on an abort or a new
// command; tie it low otherwise).  Without en_i nothing changes: a block that
// is idle (its act signal low) holds its FIFO still and the FIFO's
// registers are not written.  rdata_o is the head, meaningful while
// count_o is not zero; count_o is from the pointers of this cycle (full
// is count_o == Depth, empty count_o == 0: the users compare it as they
// need, so no flag is computed that nobody reads).  Both are formed only
// with out_en_i (zero without it): Verilator evaluates every block on
// every cycle, so a block that reads its FIFO only while busy does not
// pay for a wide head copied while idle.  Pushing full or popping empty
// is a design error, caught by the assertion below.
//
// Shift = 1 keeps the entries in order instead, the head in entry 0: a
// pop moves every entry down one (the last clears) and a push lands in the
// first free entry.  rdata_o is then entry 0 itself, always (out_en_i
// gates only count_o): no read mux, zero while empty, so a port can show
// the head as it is.  The entries reset to zero.  For a few wide entries
// read every cycle (mmu_top's output buffer); a deep FIFO would shift too
// much.

`default_nettype none

`include "prim/prim_assert.svh"

module prim_fifo_sync #(
  parameter int unsigned Width = 8,  // bits per entry
  parameter int unsigned Depth = 4,  // entries: a power of two, at least 2
  parameter bit          Shift = 1'b0  // the head stays in entry 0 (above)
) (
  input  logic                     clk_i,
  input  logic                     rst_ni,
  input  logic                     en_i,      // without it nothing moves
  input  logic                     clr_i,     // with en_i: empty the FIFO
  input  logic                     wvalid_i,  // push wdata_i
  input  logic [Width-1:0]         wdata_i,
  input  logic                     rready_i,  // pop the head
  input  logic                     out_en_i,  // form rdata_o and count_o
  output logic [Width-1:0]         rdata_o,   // the head (while count_o != 0)
  output logic [$clog2(Depth):0]   count_o    // entries held
);

  localparam int unsigned AW = $clog2(Depth);

  // The design does not support a depth that is not a power of two (the
  // pointers wrap at 2 * Depth) or a one-entry FIFO (no index bits).
  `ASSERT_INIT(DepthPow2_A, Depth >= 2 && (Depth & (Depth - 1)) == 0)

  logic [Width-1:0] q [Depth];
  logic [AW:0] wr_q, wr_d, rd_q, rd_d;

  // The pointers: with Shift, rd_q stays 0 and wr_q is the count.
  always_comb begin
    wr_d = wr_q;
    rd_d = rd_q;
    if (en_i) begin  // read only with it
      if (clr_i) begin
        wr_d = '0;
        rd_d = '0;
      end else if (Shift) begin
        wr_d = wr_q + (AW+1)'(wvalid_i) - (AW+1)'(rready_i);
      end else begin
        wr_d = wr_q + (AW+1)'(wvalid_i);
        rd_d = rd_q + (AW+1)'(rready_i);
      end
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      wr_q <= '0;
      rd_q <= '0;
    end else if (en_i) begin  // else idle: nothing changes
      wr_q <= wr_d;
      rd_q <= rd_d;
    end
  end

  if (Shift) begin : g_shift
    always_comb begin
      count_o = '0;
      if (out_en_i) count_o = wr_q;
    end
    assign rdata_o = q[0];

    // The entries, reset to zero and written only when they move: a pop
    // shifts them down (the last clears), then the push takes the first
    // free entry.
    always_ff @(posedge clk_i) begin
      if (!rst_ni) begin
        for (int unsigned i = 0; i < Depth; i++) q[i] <= '0;
      end else if (en_i && clr_i) begin
        for (int unsigned i = 0; i < Depth; i++) q[i] <= '0;
      end else if (en_i) begin
        if (rready_i) begin
          for (int unsigned i = 0; i + 1 < Depth; i++) q[i] <= q[i+1];
          q[Depth-1] <= '0;
        end
        if (wvalid_i) q[AW'(wr_q - (AW+1)'(rready_i))] <= wdata_i;
      end
    end
  end else begin : g_ring
    always_comb begin
      count_o = '0;
      rdata_o = '0;
      if (out_en_i) begin
        count_o = wr_q - rd_q;
        rdata_o = q[rd_q[AW-1:0]];
      end
    end

    // The storage, without reset: an entry is read only after its push.
    always_ff @(posedge clk_i) begin
      if (en_i && wvalid_i) q[wr_q[AW-1:0]] <= wdata_i;
    end
  end

  // The FIFO stays within its depth (the pointers wrap one bit wider): no
  // push while full (even with a pop in the same cycle), no pop while
  // empty (a clear drops whatever comes with it).  One check, one block:
  // each is evaluated every cycle.
  `ASSERT_IF(FifoBounds_A, clr_i || !(wvalid_i && (wr_q - rd_q) == (AW+1)'(Depth)) && !(rready_i && wr_q == rd_q), en_i)

endmodule

`default_nettype wire
