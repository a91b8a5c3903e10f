// SPDX-License-Identifier: MIT
//
// cp_queue: one hardware queue of the command processor.
//
// Purpose: fetch type-3 packets from a ring buffer in memory (and from one
// level of indirect buffers), execute them, and report errors as hardware
// behaviour.  The queue owns one memory request channel (one request per
// cycle, reads one at a time, writes posted and counted) that gpu_top's
// arbiter (cp_mem_arb) merges with the other clients'.
//
// How to drive it: program base_i/size_log2_i, set enable_i, then move
// wptr_i (the doorbell) past the packets written into the ring.  rptr_o says
// how far the queue has read.  An error stops the queue in StError with
// err_cause_o/err_addr_o/err_hdr_o latched and a one-cycle err_irq_o; only
// qreset_i leaves StError.  halt_i stops the queue at the next packet
// boundary.  A RELEASE_FENCE with INT pulses fence_irq_o once its write is
// acknowledged.
//
// Structure, one role a file: cp_exec is the packet state machine (it
// keeps the stream's position, runs the packets, latches the first error);
// cp_fetch brings the dwords of the ring and the IBs through a prefetch
// queue; cp_hdr_check judges a header against the rules regspec
// generates, cp_pkt_check a payload as it executes (with cp_copy_cmd's
// COPY/BLT/FILL checks), cp_wait_cmp a WAIT_MEM read; cp_copy_cmd forms the
// copy-engine command; cp_counters counts the busy and stall cycles.  This
// file connects them, merges the fetch reads and cp_exec's writes and
// WAIT_MEM reads into the one request channel, and decides q_act, the
// cycles on which any of their registers may change (the idle path, below).

`default_nettype none

module cp_queue #(
  parameter int unsigned BeatBytes = 32,  // memory port bytes per beat
  parameter int unsigned Client = 0       // memory-channel client number: request id bits 7:1
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  // Configuration from the register file
  input  logic                   enable_i,
  input  logic                   priv_i,         // privileged ring (see Q_CTRL.PRIV)
  input  logic [3:0]             vmid_i,         // Q_VMID
  input  logic                   halt_i,
  input  logic                   rptr_wb_en_i,
  input  logic                   qreset_i,       // one-cycle pulse
  input  logic [47:0]            base_i,
  input  logic [4:0]             size_log2_i,    // ring size in dwords, log2
  input  logic [19:0]            wptr_i,         // dword offset
  input  logic [47:0]            rptr_wb_addr_i,
  input  logic [20:0]            ib_max_i,       // dwords
  input  logic [63:0]            cycle_i,
  // Status to the register file
  output logic [19:0]            rptr_o,
  output logic [4:0]             state_o,
  output logic                   in_ib_o,
  output logic [4:0]             err_cause_o,
  output logic [47:0]            err_addr_o,
  output logic [31:0]            err_hdr_o,
  output logic [31:0]            pkts_o,
  output logic [31:0]            busy_cycles_o,
  output logic [31:0]            stall_mem_o,
  output logic [31:0]            stall_wait_o,
  output logic [31:0]            stall_fence_o,
  // TLB invalidation request (INVALIDATE_TLB), taken when inv_ready_i
  output logic                   inv_o,
  input  logic                   inv_ready_i,
  output logic                   inv_all_o,
  output logic [3:0]             inv_vmid_o,
  output logic [3:0]             vmid_o,         // VMID of the memory request now
  output logic [3:0]             exec_vmid_o,    // VMID of the packet executing (its copy-engine work)
  output logic [31:0]            inv_start_o,
  output logic [31:0]            inv_end_o,
  output logic                   fence_irq_o,
  output logic                   err_irq_o,
  // Memory request channel (valid/ready) and response (valid only; its
  // fault, with err: the MMU refused it)
  output logic                   req_valid_o,
  input  logic                   req_ready_i,
  output gpu_pkg::mem_req_t      req_o,
  input  logic                   rsp_valid_i,
  input  gpu_pkg::mem_rsp_t      rsp_i,
  // Copy engine: a COPY/BLT/FILL command, taken when ce_ready_i; the engine
  // answers ce_done_i (with err/fault) when every byte has landed
  output logic                   ce_valid_o,
  input  logic                   ce_ready_i,
  output gpu_pkg::ce_cmd_t       ce_cmd_o,  // regspec "structs"
  input  logic                   ce_done_i,
  input  logic                   ce_err_i,
  input  logic                   ce_fault_i
);

  `include "gpu_defs.svh"

  localparam int unsigned BeatLog2 = $clog2(BeatBytes);
  localparam int unsigned PayloadDw = PktFixedDw;  // largest fixed payload

  // The beat holds whole 64-bit values and at least one dword per lane.
  initial begin : check_params
    if (BeatBytes < 8 || BeatBytes > 64 || (1 << BeatLog2) != BeatBytes)
      $error("cp_queue: BeatBytes must be a power of two in 8..64");
  end

  // ---------------------------------------------------------------- wiring
  cp_state_e state;          // cp_exec's
  logic q_act;               // the idle path, below
  logic need_dw, consume, have_dw, avail, doorbell, ring_bad;
  logic [31:0] dw;
  logic [47:0] cur_addr, ib_ptr;
  logic [19:0] ring_mask;
  logic ib_priv;
  logic [3:0] ib_vmid;
  logic [20:0] ib_rem;
  logic rd_req_fetch, rd_pend, rd_err;
  logic wr_req, rd_req_wait, granted, rsp_rd, rsp_wr;
  logic [47:2] wr_addr;
  logic [63:0] wr_data;
  logic wr_64, pkt_ring;
  opcode_e opcode;
  pkt_payload_u pl;
  logic [7:0] h_op;
  logic [13:0] h_cnt;
  cause_e h_cause, x_cause;
  logic exec_now;            // StExec: the payload checks are read
  logic c_field, c_align, wait_true;

  // ---------------------------------------------------------------- FSM
  cp_exec #(
    .PayloadBits(PayloadDw * 32)
  ) u_exec (
    .clk_i,
    .rst_ni,
    .q_act_i(q_act),
    .enable_i,
    .halt_i,
    .rptr_wb_en_i,
    .qreset_i,
    .rptr_wb_addr_i,
    .cycle_i,
    .rptr_o,
    .in_ib_o,
    .ib_ptr_o(ib_ptr),
    .ib_rem_o(ib_rem),
    .ib_vmid_o(ib_vmid),
    .ib_priv_o(ib_priv),
    .need_dw_o(need_dw),
    .consume_i(consume),
    .dw_i(dw),
    .cur_addr_i(cur_addr),
    .avail_i(avail),
    .ring_mask_i(ring_mask),
    .ring_bad_i(ring_bad),
    .h_op_i(h_op),
    .h_cnt_i(h_cnt),
    .h_cause_i(h_cause),
    .x_cause_i(x_cause),
    .wait_true_i(wait_true),
    .opcode_o(opcode),
    .pl_o(pl),
    .wr_req_o(wr_req),
    .rd_req_wait_o(rd_req_wait),
    .wr_addr_o(wr_addr),
    .wr_data_o(wr_data),
    .wr_64_o(wr_64),
    .pkt_ring_o(pkt_ring),
    .granted_i(granted),
    .rd_pend_i(rd_pend),
    .rd_err_i(rd_err),
    .rd_fault_i(rd_fault),
    .rsp_rd_i(rsp_rd),
    .rsp_wr_i(rsp_wr),
    .rsp_err_i(rsp_i.err),
    .rsp_fault_i(rsp_i.fault),
    .state_o(state),
    .err_cause_o,
    .err_addr_o,
    .err_hdr_o,
    .pkts_o,
    .fence_irq_o,
    .err_irq_o,
    .inv_o,
    .inv_ready_i,
    .ce_valid_o,
    .ce_ready_i,
    .ce_done_i,
    .ce_err_i,
    .ce_fault_i
  );
  assign state_o = state;
  // INVALIDATE_TLB's fields, read while inv_o asks.
  assign inv_all_o = pl[PktInvalidateTlbAllLsb];
  assign inv_vmid_o = pl[PktInvalidateTlbVmidLsb +: PktInvalidateTlbVmidW];
  assign inv_start_o = pl[32 +: 32];
  assign inv_end_o = pl[64 +: 32];

  // ---------------------------------------------------------------- stream
  // The fetch runs ahead while the queue may run; it stops (pf_hold) in
  // WAIT_MEM's states so the WAIT_MEM read goes alone, and drops what it
  // holds (pf_off) while the queue is halted, in error or disabled.
  logic pf_off, pf_hold, fetch_act, rd_fault;
  logic [47:0] rd_addr_fetch;
  assign pf_off = (state == StHalted) || (state == StError) ||
                  ((state == StIdle) && (!enable_i || halt_i));
  assign pf_hold = (state == StWread) || (state == StWresp) || (state == StWpoll);

  cp_fetch #(
    .BeatBytes(BeatBytes),
    .Depth(CpFetchDepth)
  ) u_fetch (
    .clk_i,
    .rst_ni,
    .q_act_i(q_act),
    .qreset_i,
    .pf_off_i(pf_off),
    .pf_hold_i(pf_hold),
    .base_i,
    .size_log2_i,
    .wptr_i,
    .rptr_i(rptr_o),
    .in_ib_i(in_ib_o),
    .ib_ptr_i(ib_ptr),
    .ib_rem_i(ib_rem),
    .need_dw_i(need_dw),
    .ring_mask_o(ring_mask),
    .ring_bad_o(ring_bad),
    .cur_addr_o(cur_addr),
    .avail_o(avail),
    .have_dw_o(have_dw),
    .consume_o(consume),
    .dw_o(dw),
    .doorbell_o(doorbell),
    .act_o(fetch_act),
    .rd_req_o(rd_req_fetch),
    .rd_addr_o(rd_addr_fetch),
    .rd_pend_o(rd_pend),
    .granted_i(granted),
    .req_we_i(wr_req),
    .rd_wait_i(rd_req_wait),
    .rsp_rd_i(rsp_rd),
    .rsp_err_i(rsp_i.err),
    .rsp_fault_i(rsp_i.fault),
    .rsp_rdata_i(rsp_i.rdata),
    .rd_err_o(rd_err),
    .rd_fault_o(rd_fault)
  );

  // ---------------------------------------------------------------- checks
  // The header, on the dword consumed (cp_exec reads the verdict in
  // StHeader); the payload in StExec, with the copy packets' own checks.
  cp_hdr_check u_hdr (
    .en_i(consume),
    .dw_i(dw[31:8]),
    .in_ib_i(in_ib_o),
    .ib_priv_i(ib_priv),
    .priv_i,
    .ib_rem_i(ib_rem),
    .ring_mask_i(ring_mask),
    .op_o(h_op),
    .cnt_o(h_cnt),
    .cause_o(h_cause)
  );

  assign exec_now = state == StExec;
  cp_pkt_check #(
    .PayloadBits(PayloadDw * 32)
  ) u_pkt (
    .en_i(exec_now),
    .opcode_i(opcode),
    .pl_i(pl),
    .in_ib_i(in_ib_o),
    .priv_i,
    .ib_max_i,
    .copy_field_i(c_field),
    .copy_align_i(c_align),
    .cause_o(x_cause)
  );

  // WAIT_MEM: the read data against the condition, in StWresp only.
  cp_wait_cmp #(
    .BeatBytes(BeatBytes),
    .PayloadBits(PayloadDw * 32)
  ) u_wait (
    .en_i(state == StWresp),
    .pl_i(pl),
    .rdata_i(rsp_i.rdata),
    .true_o(wait_true)
  );

  // ---------------------------------------------------------------- COPY / BLT / FILL
  // The payload checks (in StExec) and the copy-engine command (offered in
  // StCdrain), evaluated only in those states.
  cp_copy_cmd #(
    .PayloadBits(PayloadDw * 32)
  ) u_copy (
    .check_en_i(exec_now),
    .cmd_en_i(state == StCdrain),
    .opcode_i(opcode),
    .pl_i(pl),
    .field_bad_o(c_field),
    .align_bad_o(c_align),
    .ce_cmd_o
  );

  // ---------------------------------------------------------------- counters
  cp_counters u_cnt (
    .clk_i,
    .rst_ni,
    .qreset_i,
    .state_i(state),
    .need_dw_i(need_dw),
    .have_dw_i(have_dw),
    .req_valid_i(wr_req),
    .req_ready_i,
    .busy_cycles_o,
    .stall_mem_o,
    .stall_wait_o,
    .stall_fence_o
  );

  // ---------------------------------------------------------------- memory request
  // One channel: cp_exec's writes and WAIT_MEM read, else a fetch.  The
  // request (gpu_pkg::mem_req_t) carries the queue's id, {Client, write}.
  assign req_valid_o = wr_req || rd_req_wait || rd_req_fetch;
  assign granted = req_valid_o && req_ready_i;
  assign rsp_rd = rsp_valid_i && !rsp_i.id[0];
  assign rsp_wr = rsp_valid_i && rsp_i.id[0];
  logic unused;  // the response's client bits: the arbiter matched them
  assign unused = ^rsp_i.id[7:1];

  // The request, formed only while offered (the arbiter and cp_fetch read
  // it only then; zero otherwise, so an idle queue costs a clear).  The
  // write's value is replicated over the beat; the strobe picks its lane.
  logic [47:0] req_addr;  // the request's beat
  always_comb begin
    req_addr = '0;
    if (wr_req) req_addr = {wr_addr[47:BeatLog2], {BeatLog2{1'b0}}};
    else if (rd_req_wait) req_addr = {pl.wait_mem.addr_hi[15:0], pl.wait_mem.addr_lo[31:BeatLog2],
                                      {BeatLog2{1'b0}}};
    else if (rd_req_fetch) req_addr = rd_addr_fetch;
  end
  always_comb begin
    req_o = '0;
    if (req_valid_o) begin
      req_o.id = {7'(Client), wr_req};
      req_o.we = wr_req;
      req_o.addr = req_addr;
      if (wr_req && wr_64) begin
        req_o.wdata = {(BeatBytes / 8){wr_data}};
        req_o.wstrb = {{(BeatBytes - 8){1'b0}}, 8'hff} << {wr_addr[BeatLog2-1:3], 3'b000};
      end else if (wr_req) begin
        req_o.wdata = {(BeatBytes / 4){wr_data[31:0]}};
        req_o.wstrb = {{(BeatBytes - 4){1'b0}}, 4'hf} << {wr_addr[BeatLog2-1:2], 2'b00};
      end
    end
  end

  // A fetch runs in the stream's context; a packet's own accesses in the
  // context of the stream it came from (the IB packet's read-pointer
  // write-back is the ring's, though the IB has started).
  assign exec_vmid_o = (!pkt_ring && ib_vmid != '0) ? ib_vmid : vmid_i;
  assign vmid_o = (wr_req || rd_req_wait) ? exec_vmid_o :
                  (in_ib_o && ib_vmid != '0) ? ib_vmid : vmid_i;

  // ---------------------------------------------------------------- the idle path
  // cp_fetch and cp_exec change a register only when q_act: a reset, a
  // response, a request offered, a dword consumed, the doorbell moving, an
  // interrupt pulse to end, or a state that does more than wait for one of
  // those.  Otherwise their registers are not written (so their _d are not
  // read, and hold constants); only the counters move.
  logic q_wait;
  always_comb begin  // a chain of tests, not one expression of every term
    if (need_dw || state == StError) q_wait = 1'b1;
    else if (state == StIdle) q_wait = !halt_i && !(enable_i && avail);
    else if (state == StCwait) q_wait = !ce_done_i;
    else if (state == StHalted) q_wait = halt_i;
    else q_wait = 1'b0;
    if (!q_wait || qreset_i || rsp_valid_i || req_valid_o || consume) q_act = 1'b1;
    else q_act = doorbell || fetch_act || fence_irq_o || err_irq_o;
  end

`ifndef SYNTHESIS
  // Assertions (Verilator --assert; a failure is a model error, gm.h),
  // checked on the cycles with q_act: on the others no request is offered
  // and no response comes (cp_exec's assertions say more).  qreset_i is
  // one of them.
  logic a_wr_held_q;
  logic [47:0] a_wr_addr_q;
  logic [BeatBytes*8-1:0] a_wr_data_q;
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      a_wr_held_q <= 1'b0;
    end else if (q_act) begin  // else no write is offered and a_wr_held_q is 0
      if (qreset_i) begin
        a_wr_held_q <= 1'b0;
      end else begin
        // A write held while the arbiter refuses it keeps its address and
        // data (under its event: Verilator evaluates every term of an
        // assertion, here a 256-bit compare, but only the test of an if).
        if (a_wr_held_q && wr_req) begin
          a_cp_wr_stable: assert (req_addr == a_wr_addr_q && req_o.wdata == a_wr_data_q)
            else $error("cp_queue: a refused write changed to %h", req_addr);
        end
        a_wr_held_q <= wr_req && !req_ready_i;
      end
    end
    if (wr_req && !req_ready_i) begin
      a_wr_addr_q <= req_addr;
      a_wr_data_q <= req_o.wdata;
    end
  end

  // Cover points (Verilator --coverage-user).
  // The arbiter refuses the queue's request.
  c_cp_req_refused: cover property (@(posedge clk_i) req_valid_o && !req_ready_i);
`endif

endmodule

`default_nettype wire
