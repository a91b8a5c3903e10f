// SPDX-License-Identifier: MIT
//
// cp_counters: a queue's activity counters (Q_BUSY_CYCLES, Q_STALL_MEM,
// Q_STALL_WAIT, Q_STALL_FENCE).
//
// Purpose: count the cycles the queue is busy (any state but StIdle,
// StHalted and StError) and, of those, the cycles it stalls on memory (a
// dword it needs not yet fetched, or a write the arbiter refuses: a
// refused prefetch stalls nothing until its dword is needed), on a WAIT_MEM (StWread, StWresp, StWpoll) and on a fence or
// an invalidation waiting for the queue's writes (StFdrain, StFack,
// StInv).  Each wraps at 2^32; qreset_i clears them.
//
// How to drive it: give cp_exec's state and what the queue's request
// channel and stream do this cycle.  The counters move only while busy
// (every stall state is busy) or on a reset: cnt_act, under which they are
// computed and loaded.

`default_nettype none

module cp_counters (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        qreset_i,       // one-cycle pulse
  input  logic [4:0]  state_i,        // cp_state_e, cp_exec's state
  input  logic        need_dw_i,      // the state takes a dword ...
  input  logic        have_dw_i,      // ... and it is here
  input  logic        req_valid_i,    // the queue's write request ...
  input  logic        req_ready_i,    // ... and the arbiter's answer
  output logic [31:0] busy_cycles_o,
  output logic [31:0] stall_mem_o,
  output logic [31:0] stall_wait_o,
  output logic [31:0] stall_fence_o
);

  `include "gpu_defs.svh"

  cp_state_e state;
  logic [31:0] busy_q, busy_d, stall_mem_q, stall_mem_d;
  logic [31:0] stall_wait_q, stall_wait_d, stall_fence_q, stall_fence_d;
  logic busy, cnt_act, stall_mem, stall_wait, stall_fence;

  assign state = state_i;
  assign busy = state != StIdle && state != StHalted && state != StError;
  assign cnt_act = busy || qreset_i;

  always_comb begin
    stall_wait = 1'b0;
    stall_fence = 1'b0;
    stall_mem = 1'b0;
    busy_d = '0;
    stall_mem_d = '0;
    stall_wait_d = '0;
    stall_fence_d = '0;
    if (cnt_act && !qreset_i) begin
      stall_wait = state == StWread || state == StWresp || state == StWpoll;
      stall_fence = state == StFdrain || state == StFack || state == StInv;
      stall_mem = (need_dw_i && !have_dw_i) || (req_valid_i && !req_ready_i && !stall_wait);
      busy_d = busy_q + 32'd1;
      stall_mem_d = stall_mem_q + {31'd0, stall_mem};
      stall_wait_d = stall_wait_q + {31'd0, stall_wait};
      stall_fence_d = stall_fence_q + {31'd0, stall_fence};
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      busy_q <= '0;
      stall_mem_q <= '0;
      stall_wait_q <= '0;
      stall_fence_q <= '0;
    end else if (cnt_act) begin  // else no counter moves
      busy_q <= busy_d;
      stall_mem_q <= stall_mem_d;
      stall_wait_q <= stall_wait_d;
      stall_fence_q <= stall_fence_d;
    end
  end

  assign busy_cycles_o = busy_q;
  assign stall_mem_o = stall_mem_q;
  assign stall_wait_o = stall_wait_q;
  assign stall_fence_o = stall_fence_q;

endmodule

`default_nettype wire
