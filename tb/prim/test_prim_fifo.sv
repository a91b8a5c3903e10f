// SPDX-License-Identifier: MIT
//
// test_prim_fifo: rtl/prim/prim_fifo_sync.sv against a queue model.
//
// Purpose: random pushes and pops (and idle cycles with en_i low, and now
// and then a clear, clr_i) on a 4-entry FIFO, as a ring (u_dut) and with
// its head kept in entry 0 (u_shift, Shift = 1); every cycle each one's
// count (full, empty) and head are compared with an SV queue, and the
// shifting one's head must be zero while empty.  +overflow: the last cycles push into the full FIFO,
// which its assertion FifoBounds_A must stop (the CTest
// rtl_prim_fifo_assert looks for the label in the output).  Prints
// "test_prim_fifo: PASS"; exits non-zero on a mismatch.

`default_nettype none

module test_prim_fifo;
  localparam int unsigned Width = 8;
  localparam int unsigned Depth = 4;

  logic clk_i = 1'b0;
  logic rst_ni = 1'b0;
  logic en, clr, wvalid, rready, full, empty;
  logic [Width-1:0] wdata, rdata, s_rdata;
  logic [$clog2(Depth):0] count, s_count;
  logic [Width-1:0] m [$];
  int unsigned cycles = 0, pushes = 0, pops = 0, fulls = 0, clears = 0;
  bit overflow;

  prim_fifo_sync #(.Width(Width), .Depth(Depth)) u_dut (
    .clk_i, .rst_ni, .en_i(en), .clr_i(clr), .wvalid_i(wvalid), .wdata_i(wdata), .rready_i(rready), .out_en_i(1'b1),
    .rdata_o(rdata), .count_o(count)
  );
  prim_fifo_sync #(.Width(Width), .Depth(Depth), .Shift(1'b1)) u_shift (
    .clk_i, .rst_ni, .en_i(en), .clr_i(clr), .wvalid_i(wvalid), .wdata_i(wdata), .rready_i(rready),
    .out_en_i(1'b1), .rdata_o(s_rdata), .count_o(s_count)
  );
  assign full = 32'(count) == Depth;
  assign empty = count == '0;

  always #1 clk_i <= ~clk_i;

  // The model moves on the same edge as the FIFO.
  always @(posedge clk_i) begin
    if (rst_ni && en && clr) begin
      m.delete();
    end else if (rst_ni && en) begin
      if (rready) void'(m.pop_front());
      if (wvalid) m.push_back(wdata);
    end
  end

  initial begin
    overflow = $test$plusargs("overflow");
    void'($urandom(32'd7));  // a fixed seed: the same run every time
    en = 1'b0;
    clr = 1'b0;
    wvalid = 1'b0;
    rready = 1'b0;
    wdata = '0;
    repeat (3) @(negedge clk_i);
    rst_ni = 1'b1;
    repeat (4000) begin
      @(negedge clk_i);
      cycles++;
      // The outputs of this cycle against the model.
      if (32'(count) != m.size() || empty != (m.size() == 0) || full != (m.size() == Depth))
        $fatal(1, "cycle %0d: count %0d empty %0d full %0d, model holds %0d", cycles, count,
               empty, full, m.size());
      if (m.size() != 0 && rdata != m[0])
        $fatal(1, "cycle %0d: head %h, model %h", cycles, rdata, m[0]);
      if (s_count != count || s_rdata != (m.size() != 0 ? m[0] : '0))
        $fatal(1, "cycle %0d: shifting FIFO count %0d head %h, model %0d %h", cycles, s_count,
               s_rdata, m.size(), m.size() != 0 ? m[0] : '0);
      if (full) fulls++;
      // The next cycle's inputs: legal pushes and pops, sometimes idle.
      en = ($urandom % 8) != 0;
      clr = ($urandom % 64) == 0 && !(overflow && cycles > 3900);  // with pushes and pops or not
      wvalid = ($urandom % 2) != 0 && (!full || overflow && cycles > 3900);
      rready = ($urandom % 3) == 0 && !empty;
      wdata = 8'($urandom);
      if (en && clr) clears++;
      if (en && wvalid) pushes++;
      if (en && rready) pops++;
    end
    if (fulls == 0 || pushes < 1000 || clears < 20)
      $fatal(1, "too little covered: %0d full cycles, %0d clears", fulls, clears);
    $display("test_prim_fifo: PASS (%0d pushes, %0d pops, %0d cycles full, %0d clears)", pushes,
             pops, fulls, clears);
    $finish;
  end
endmodule

`default_nettype wire
