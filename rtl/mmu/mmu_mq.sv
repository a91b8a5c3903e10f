// SPDX-License-Identifier: MIT
//
// mmu_mq: the MMU's miss queue: requests that missed the TLB (or touch a
// page a parked request waits for), in order, for the walker (mmu_walk).
//
// Purpose: Depth parked requests.  Each is a key (id, VMID, address,
// write: what the walker and the conflict check read) and its data and
// strobes (read only when the head goes to the memory port).  The keys are
// searched: an input on a page some parked request waits for conflicts
// (conflict_o) and parks behind it, so one page's accesses never reorder.
// So the keys sit in a small shift register (head in entry 0, every entry
// compared), and the data, which is only ever read at the head, in a
// prim_fifo_sync.
//
// How to drive it: with en_i (mmu_top's m_act) a pop (pop_i) drops the
// head and a park (park_i) appends key_i and dat_i; never both in one
// cycle, and no park while full_o.  head_valid_o says a head is parked;
// head_key_o is its key (zero without one), head_dat_o its data (while
// head_valid_o).  chk_valid_i asks whether the page of chk_vmid_i and
// chk_page_i is parked (conflict_o).  Without en_i nothing changes.

`default_nettype none

`include "prim/prim_assert.svh"

module mmu_mq #(
  parameter int unsigned Depth = 2,   // parked requests, a power of two
  parameter int unsigned KeyW = 61,   // bits of a key (mmu_top's mmu_key_t)
  parameter int unsigned DatW = 288   // bits of the data and strobes
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  input  logic            en_i,
  input  logic            pop_i,
  input  logic            park_i,
  input  logic [KeyW-1:0] key_i,        // {id, vmid, addr[47:0], we}
  input  logic [DatW-1:0] dat_i,
  output logic            head_valid_o,
  output logic [KeyW-1:0] head_key_o,
  output logic [DatW-1:0] head_dat_o,
  output logic            full_o,
  input  logic            chk_valid_i,
  input  logic [3:0]      chk_vmid_i,
  input  logic [47:12]    chk_page_i,
  output logic            conflict_o
);

  // A key's fields, for the conflict check: the id, then these.
  typedef struct packed {
    logic [KeyW-54:0] id;
    logic [3:0]       vmid;
    logic [47:0]      addr;
    logic             we;
  } key_t;

  logic [Depth-1:0] valid_q, valid_d;
  key_t key_q [Depth];
  logic [$clog2(Depth)-1:0] park_idx;  // the first free entry
  key_t e;  // a parked request's key, for the conflict check
  logic unused;  // its id, write bit and page offset: not compared
  assign unused = ^{e.id, e.we, e.addr[11:0]};
  logic [$clog2(Depth):0] dat_count;

  assign head_valid_o = valid_q[0];
  assign full_o = &valid_q;
  // Through a whole struct, not key_q[0].field, which Yosys 0.23 does not read.
  always_comb begin
    head_key_o = '0;
    if (valid_q[0]) head_key_o = key_q[0];
  end

  // Only an input with a parked request can conflict.
  always_comb begin
    conflict_o = 1'b0;
    e = '0;
    if (chk_valid_i && valid_q != '0) begin
      for (int unsigned i = 0; i < Depth; i++) begin
        e = key_q[i];
        if (valid_q[i] && e.vmid == chk_vmid_i && e.addr[47:12] == chk_page_i) conflict_o = 1'b1;
      end
    end
  end

  // Pop the head, then append (never both in one cycle); the keys move in
  // the storage below.
  always_comb begin
    valid_d = valid_q;
    park_idx = '0;
    if (en_i && pop_i) begin
      for (int unsigned i = 0; i + 1 < Depth; i++) valid_d[i] = valid_q[i+1];
      valid_d[Depth-1] = 1'b0;
    end
    if (en_i && park_i) begin
      for (int unsigned i = Depth; i > 0; i--) begin
        if (!valid_q[i-1]) begin
          park_idx = ($clog2(Depth))'(i - 1);
          valid_d = valid_q;
          valid_d[i-1] = 1'b1;
        end
      end
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) valid_q <= '0;
    else if (en_i) valid_q <= valid_d;  // else idle: nothing changes
  end

  // The keys (reset to zero, as the idle head shows), written only when
  // they move: a shift on a pop, a parked input at the first free entry.
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      for (int unsigned i = 0; i < Depth; i++) key_q[i] <= '0;
    end else if (en_i) begin
      if (pop_i) begin
        for (int unsigned i = 0; i + 1 < Depth; i++) key_q[i] <= key_q[i+1];
      end else if (park_i) begin
        key_q[park_idx] <= key_i;
      end
    end
  end

  // The data, in the same order (pushed and popped with the keys).
  prim_fifo_sync #(
    .Width(DatW),
    .Depth(Depth)
  ) u_dat (
    .clk_i,
    .rst_ni,
    .en_i,
    .clr_i(1'b0),
    .wvalid_i(park_i),
    .wdata_i(dat_i),
    .rready_i(pop_i),
    .out_en_i(en_i),  // the head's data is read only with m_act
    .rdata_o(head_dat_o),
    .count_o(dat_count)
  );

  // With en_i (idle: nothing moves, so what held still holds).
  // No park into a full queue, and a pop and a park never in one cycle
  // (mmu_top parks only without a pop).
  `ASSERT_IF(MqPark_A, !(park_i && (full_o || pop_i)), en_i)
  // The queue is filled from its head, without holes, and the keys and the
  // data hold the same requests.
  `ASSERT_IF(MqPacked_A, (valid_q & (valid_q + Depth'(1))) == '0 && 32'(dat_count) == $countones(valid_q), en_i)

endmodule

`default_nettype wire
