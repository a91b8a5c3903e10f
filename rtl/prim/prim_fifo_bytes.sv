// SPDX-License-Identifier: MIT
//
// prim_fifo_bytes: a synchronous byte FIFO of Depth bytes, pushed up to
// MaxPush bytes and popped up to MaxPop bytes a cycle, at any byte offset.
//
// Purpose: the FIFO for a stream whose pieces have any length (the copy
// engine's bytes between its extractor and its destination pieces, ce_wr),
// which prim_fifo_sync (one fixed-width entry a push) cannot express.  The
// pointers count bytes modulo 2 * Depth, so the count comes from them alone,
// and the storage is that size, in 64-bit words: a push is written as
// MaxPush / 8 + 1 whole words shifted to the write pointer, with no byte
// mask (the first word keeps its bytes below the pointer), since the bytes
// past the push land in storage that holds no FIFO byte (at most Depth are
// held, and Depth >= MaxPush + 8); the head is read as the MaxPop / 8 + 1
// words at the read pointer, shifted down.  The bytes in and out are
// handled as 64-bit words (constant selects), each shifted on its own: a
// shift of a vector wider than 64 bits, or a variable select of one, costs
// a temporary and a loop over its 32-bit words in Verilator 5.006
// (tb/bench/NOTES.md).
//
// How to drive it: with en_i high, push_i appends the first push_cnt_i
// bytes of push_data_i (byte 0 first, in the low byte; the bytes from
// push_cnt_i up are not used) and pop_i drops pop_cnt_i bytes from the head;
// both may come in one cycle (the push is checked against the room before
// the pop, as in prim_fifo_sync).  clr_i (with en_i) empties the FIFO
// instead, whatever else comes.  Without en_i nothing changes and no
// register is written (a block idle with its act signal low).
// count_o is the bytes held, from the pointers of this cycle, formed only
// with out_en_i (zero without it; the room, Depth - count_o, is formed by
// the pusher where it checks it); head_o is the MaxPop bytes at the head
// (the bytes from count_o up mean nothing), formed only with head_en_i
// (zero without it): Verilator evaluates every block every cycle, so a
// user forms the head only on a cycle that pops it.  Pushing
// more than the room, popping more than is held or more than MaxPush /
// MaxPop bytes is a design error, caught by the assertion below.

`default_nettype none

`include "prim/prim_assert.svh"

module prim_fifo_bytes #(
  parameter int unsigned Depth = 64,    // bytes: a power of two, at least MaxPush + 8
  parameter int unsigned MaxPush = 16,  // bytes a push at most: a multiple of 8
  parameter int unsigned MaxPop = 16    // bytes a pop (and the head) at most: a multiple of 8
) (
  input  logic                         clk_i,
  input  logic                         rst_ni,
  input  logic                         en_i,        // without it nothing moves
  input  logic                         clr_i,       // with en_i: empty the FIFO
  input  logic                         push_i,      // append push_cnt_i bytes
  input  logic [$clog2(MaxPush+1)-1:0] push_cnt_i,
  input  logic [8*MaxPush-1:0]        push_data_i, // byte 0 first (the low byte)
  input  logic                         pop_i,       // drop pop_cnt_i bytes
  input  logic [$clog2(MaxPop+1)-1:0]  pop_cnt_i,
  input  logic                         out_en_i,    // form count_o
  output logic [$clog2(Depth):0]       count_o,     // bytes held (the room: Depth - count_o)
  input  logic                         head_en_i,   // form head_o
  output logic [8*MaxPop-1:0]         head_o       // the head, byte 0 first
);

  localparam int unsigned Words = 2 * Depth / 8;  // storage: 2 * Depth bytes
  localparam int unsigned WL = $clog2(Words);
  localparam int unsigned PL = WL + 3;            // pointer bits: bytes modulo 2 * Depth
  localparam int unsigned PushWords = MaxPush / 8;
  localparam int unsigned PopWords = MaxPop / 8;

  // The design supports whole words pushed and popped (the shifts above),
  // pointers that wrap at 2 * Depth, and a push's spill past its bytes
  // landing on no byte held.
  `ASSERT_INIT(FifoBytesParams_A, Depth >= MaxPush + 8 && (Depth & (Depth - 1)) == 0 && MaxPush >= 8 && MaxPush % 8 == 0 && MaxPop >= 8 && MaxPop % 8 == 0 && MaxPop <= Depth)

  logic [63:0] q [Words];
  logic [PL-1:0] wr_q, rd_q, cnt;
  logic [WL-1:0] wi, ri;
  logic [5:0] wsh, rsh;

  // The count, read by the pusher (its room) and the popper.
  assign cnt = wr_q - rd_q;
  assign count_o = out_en_i ? cnt : '0;

  // The push's place: its first word and the shift to the write pointer.
  assign wi = wr_q[PL-1:3];
  assign wsh = {wr_q[2:0], 3'b000};

  // The head: the words at the read pointer shifted down, only with
  // head_en_i (a block of its own: the popper decides on the count first).
  always_comb begin
    ri = '0;
    rsh = '0;
    head_o = '0;
    if (head_en_i) begin
      ri = rd_q[PL-1:3];
      rsh = {rd_q[2:0], 3'b000};
      for (int unsigned k = 0; k < PopWords; k++) begin
        head_o[64*k +: 64] = (q[ri + WL'(k)] >> rsh) | (q[ri + WL'(k + 1)] << (7'd64 - 7'(rsh)));
      end
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      wr_q <= '0;
      rd_q <= '0;
    end else if (en_i) begin  // else idle: hold
      if (clr_i) begin
        wr_q <= '0;
        rd_q <= '0;
      end else begin
        wr_q <= wr_q + (push_i ? PL'(push_cnt_i) : PL'(0));
        rd_q <= rd_q + (pop_i ? PL'(pop_cnt_i) : PL'(0));
      end
    end
  end

  // The storage (no reset: a byte is read only after its push), whole
  // words where a push lands: the push's words shifted to the write
  // pointer, the first keeping the bytes below it.  They are formed here,
  // only on a push: a temporary for them (wider than 64 bits, a flat vector
  // as the ports) would be cleared on every cycle.
  always_ff @(posedge clk_i) begin
    if (en_i && push_i) begin
      q[wi] <= (q[wi] & ((64'd1 << wsh) - 64'd1)) | (push_data_i[63:0] << wsh);
      for (int unsigned k = 1; k < PushWords; k++) begin
        q[wi + WL'(k)] <= (push_data_i[64*k +: 64] << wsh) | (push_data_i[64*(k-1) +: 64] >> (7'd64 - 7'(wsh)));
      end
      q[wi + WL'(PushWords)] <= push_data_i[64*(PushWords-1) +: 64] >> (7'd64 - 7'(wsh));
    end
  end

  // The FIFO stays within its depth: a push fits the room before the pop,
  // a pop takes only bytes held, neither past its maximum (a clear drops
  // whatever comes with it).  One check, one block.
  `ASSERT_IF(FifoBytesBounds_A, clr_i || !(push_i && (32'(push_cnt_i) > MaxPush || 32'(push_cnt_i) + 32'(cnt) > Depth)) && !(pop_i && (32'(pop_cnt_i) > MaxPop || 32'(pop_cnt_i) > 32'(cnt))), en_i)

endmodule

`default_nettype wire
