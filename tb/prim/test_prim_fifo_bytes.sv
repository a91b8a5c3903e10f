// SPDX-License-Identifier: MIT
//
// test_prim_fifo_bytes: rtl/prim/prim_fifo_bytes.sv against a byte queue.
//
// Purpose: random pushes and pops of random byte counts (and idle cycles
// with en_i low, cycles with the outputs off, and now and then a clear,
// clr_i) on two FIFOs: ce_wr's shape (64 bytes, 16 a push and a pop) and
// another (32 bytes, 8 a push, 24 a pop).  Every cycle each one's count and
// room and every byte of its head that is held are compared with an SV
// queue of bytes; the outputs must be zero while not enabled.
// +overflow: the last cycles push one byte more than the room, which the
// assertion FifoBytesBounds_A must stop (the CTest rtl_prim_fifo_bytes_assert
// looks for the label in the output).  Prints "test_prim_fifo_bytes: PASS";
// exits non-zero on a mismatch.

`default_nettype none

module test_prim_fifo_bytes;
  localparam int unsigned Cycles = 6000;

  logic clk_i = 1'b0;
  logic rst_ni = 1'b0;
  logic [1:0] done = '0;

  always #1 clk_i <= ~clk_i;

  // FIFO 0 is ce_wr's byte FIFO, FIFO 1 one with other widths: each with
  // its stimulus and its model; done[g] after the cycles.
  for (genvar g = 0; g < 2; g++) begin : g_fifo
    localparam int unsigned Depth = g == 0 ? 64 : 32;
    localparam int unsigned MaxPush = g == 0 ? 16 : 8;
    localparam int unsigned MaxPop = g == 0 ? 16 : 24;

    logic en, clr, push, pop, out_en, head_en;
    logic [$clog2(MaxPush+1)-1:0] push_cnt;
    logic [$clog2(MaxPop+1)-1:0] pop_cnt;
    logic [8*MaxPush-1:0] data;  // the push's bytes, byte 0 first
    logic [8*MaxPop-1:0] head;
    logic [$clog2(Depth):0] count;
    logic [7:0] m [$];
    int unsigned cycles = 0, pushed = 0, popped = 0, fulls = 0, clears = 0, wraps = 0;
    int unsigned room, held;
    bit overflow;

    prim_fifo_bytes #(.Depth(Depth), .MaxPush(MaxPush), .MaxPop(MaxPop)) u_dut (
      .clk_i, .rst_ni, .en_i(en), .clr_i(clr), .push_i(push), .push_cnt_i(push_cnt),
      .push_data_i(data), .pop_i(pop), .pop_cnt_i(pop_cnt), .out_en_i(out_en), .count_o(count),
      .head_en_i(head_en), .head_o(head)
    );

    // The model moves on the same edge as the FIFO: the pop, then the push.
    always @(posedge clk_i) begin
      if (rst_ni && en && clr) begin
        m.delete();
      end else if (rst_ni && en) begin
        if (pop) repeat (int'(pop_cnt)) void'(m.pop_front());
        if (push) for (int unsigned b = 0; b < push_cnt; b++) m.push_back(data[8*b +: 8]);
      end
    end

    initial begin
      overflow = $test$plusargs("overflow");
      done[g] = 1'b0;
      {en, clr, push, pop, out_en, head_en} = '0;
      push_cnt = '0;
      pop_cnt = '0;
      data = '0;
      wait (rst_ni);
      repeat (Cycles) begin
        @(negedge clk_i);
        cycles++;
        // The outputs of this cycle against the model.
        if (out_en && 32'(count) != m.size())
          $fatal(1, "%m cycle %0d: count %0d, model holds %0d", cycles, count, m.size());
        if (!out_en && count != '0)
          $fatal(1, "%m cycle %0d: count %0d without out_en_i", cycles, count);
        for (int unsigned b = 0; b < MaxPop; b++) begin
          if (head_en ? b < m.size() && head[8*b +: 8] != m[b] : head[8*b +: 8] != '0)
            $fatal(1, "%m cycle %0d: head byte %0d is %h, model %h (head_en %0d, %0d held)", cycles, b,
                   head[8*b +: 8], b < m.size() ? m[b] : 8'h0, head_en, m.size());
        end
        if (m.size() == Depth) fulls++;
        // The next cycle's inputs: legal counts, sometimes idle, now and then
        // a clear; pushes a little more often than pops, so it fills.
        held = m.size();
        room = Depth - held;
        en = ($urandom % 8) != 0;
        clr = ($urandom % 128) == 0 && !(overflow && cycles > Cycles - 100);
        out_en = ($urandom % 8) != 0;
        head_en = ($urandom % 4) != 0;
        push = ($urandom % 3) != 0 && room != 0;
        push_cnt = $bits(push_cnt)'($urandom % ((room < MaxPush ? room : MaxPush) + 1));
        if (overflow && cycles > Cycles - 100 && room < MaxPush) begin
          push = 1'b1;
          push_cnt = $bits(push_cnt)'(room + 1);
        end
        pop = ($urandom % 2) != 0 && held != 0;
        pop_cnt = $bits(pop_cnt)'($urandom % ((held < MaxPop ? held : MaxPop) + 1));
        for (int unsigned k = 0; k < MaxPush / 8; k++) data[64*k +: 64] = {$urandom, $urandom};
        if (en && clr) clears++;
        if (en && push) pushed += 32'(push_cnt);
        if (en && pop && !clr) popped += 32'(pop_cnt);
      end
      wraps = pushed / (2 * Depth);
      if (fulls < 20 || clears < 10 || wraps < 50)
        $fatal(1, "%m: too little covered: %0d full cycles, %0d clears, %0d wraps", fulls, clears, wraps);
      $display("test_prim_fifo_bytes: %0d bytes, %0d a push, %0d a pop: %0d bytes pushed, %0d popped, %0d cycles full, %0d clears",
               Depth, MaxPush, MaxPop, pushed, popped, fulls, clears);
      done[g] = 1'b1;
    end
  end

  initial begin
    void'($urandom(32'd11));  // a fixed seed: the same run every time
    repeat (3) @(negedge clk_i);
    rst_ni = 1'b1;
    wait (&done);
    $display("test_prim_fifo_bytes: PASS");
    $finish;
  end
endmodule

`default_nettype wire
