// SPDX-License-Identifier: MIT
//
// test_prim_arb: rtl/prim/prim_arb_rr.sv against a round-robin model.
//
// Purpose: random requests and acknowledges on a 3-requester arbiter;
// every cycle the pick is compared with the model's (the first asking
// requester after the last one served), and a requester that keeps asking
// is served within N acknowledged grants (no starvation).  Prints
// "test_prim_arb: PASS"; exits non-zero on a mismatch.

`default_nettype none

module test_prim_arb;
  localparam int unsigned N = 3;

  logic clk_i = 1'b0;
  logic rst_ni = 1'b0;
  logic [N-1:0] req, gnt;
  logic ack, valid;
  logic [1:0] idx;
  int unsigned last = N - 1, want, cycles = 0, grants = 0;
  int unsigned wait_n [N];

  prim_arb_rr #(.N(N)) u_dut (
    .clk_i, .rst_ni, .req_i(req), .ack_i(ack), .valid_o(valid), .idx_o(idx), .gnt_o(gnt)
  );

  always #1 clk_i <= ~clk_i;

  initial begin
    void'($urandom(32'd11));  // a fixed seed: the same run every time
    req = '0;
    ack = 1'b0;
    for (int i = 0; i < N; i++) wait_n[i] = 0;
    repeat (3) @(negedge clk_i);
    rst_ni = 1'b1;
    repeat (4000) begin
      @(negedge clk_i);
      cycles++;
      // The inputs of this cycle (a requester mostly keeps asking).
      for (int i = 0; i < N; i++) if (($urandom % 4) == 0) req[i] = !req[i];
      ack = ($urandom % 3) != 0;
      #0.5;
      want = N;
      for (int unsigned k = 1; k <= N; k++)
        if (want == N && req[(last + k) % N]) want = (last + k) % N;
      if (valid != (want != N) || (valid && (32'(idx) != want || gnt != N'(1 << want))))
        $fatal(1, "cycle %0d: req %b last %0d: valid %0d idx %0d gnt %b, model %0d", cycles,
               req, last, valid, idx, gnt, want);
      if (valid && ack) begin
        last = want;
        grants++;
        for (int i = 0; i < N; i++) begin
          if (i == int'(want) || !req[i]) wait_n[i] = 0;
          else begin
            wait_n[i] = wait_n[i] + 1;
            if (wait_n[i] > N) $fatal(1, "requester %0d starves", i);
          end
        end
      end
    end
    if (grants < 1000) $fatal(1, "too few grants: %0d", grants);
    $display("test_prim_arb: PASS (%0d grants in %0d cycles)", grants, cycles);
    $finish;
  end
endmodule

`default_nettype wire
