// SPDX-License-Identifier: MIT
//
// cp_exec: a queue's packet state machine - it reads the packets from the
// stream, runs them, and latches the first error.
//
// Purpose: the queue's FSM (cp_state_e in gpu_defs.svh).  StHeader takes a
// header (cp_hdr_check judges it), StPayload the payload into pl_q, StExec
// starts the packet (cp_pkt_check judges the payload): writes (StWdata,
// StWrite; posted, wr_out_q in flight), RELEASE_FENCE (written once every
// earlier write has landed, then fence_irq_o), WAIT_MEM (read, cp_wait_cmp,
// poll), INDIRECT_BUFFER, PTE_WRITE, INVALIDATE_TLB and COPY/BLT/FILL (once
// the queue's writes have landed); StDone counts it and writes back the read
// pointer.  It keeps the stream's position (the ring's read pointer, or the
// IB and what is left of it) and moves it as it takes dwords; cp_fetch
// brings them.  An error stops it in StError with err_*_o latched and a
// one-cycle err_irq_o until qreset_i; halt_i stops it between packets.
//
// How to drive it: cp_queue connects it to cp_fetch, the checks, the
// request channel and the ports.  Its registers load only with q_act_i:
// cp_queue clears it only when nothing here would change.

`default_nettype none

module cp_exec #(
  parameter int unsigned PayloadBits = 320  // the payload register (PktFixedDw dwords)
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  input  logic                   q_act_i,         // the registers may change (cp_queue)
  // Configuration from the register file
  input  logic                   enable_i,
  input  logic                   halt_i,
  input  logic                   rptr_wb_en_i,
  input  logic                   qreset_i,        // one-cycle pulse
  input  logic [47:0]            rptr_wb_addr_i,
  input  logic [63:0]            cycle_i,
  // The stream: its position, and the dwords (cp_fetch)
  output logic [19:0]            rptr_o,
  output logic                   in_ib_o,
  output logic [47:0]            ib_ptr_o,
  output logic [20:0]            ib_rem_o,        // dwords left in the IB
  output logic [3:0]             ib_vmid_o,       // the running IB's VMID field (0: Q_VMID)
  output logic                   ib_priv_o,       // the running IB may run privileged packets
  output logic                   need_dw_o,       // the state takes a dword
  input  logic                   consume_i,       // ... and takes dw_i this cycle
  input  logic [31:0]            dw_i,
  input  logic [47:0]            cur_addr_i,
  input  logic                   avail_i,
  input  logic [19:0]            ring_mask_i,
  input  logic                   ring_bad_i,
  // The checks (cp_hdr_check on dw_i, cp_pkt_check on the payload)
  input  logic [7:0]             h_op_i,
  input  logic [13:0]            h_cnt_i,
  input  logic [4:0]             h_cause_i,
  input  logic [4:0]             x_cause_i,
  input  logic                   wait_true_i,     // cp_wait_cmp: the WAIT_MEM read satisfies it
  output logic [7:0]             opcode_o,
  output logic [PayloadBits-1:0] pl_o,
  // Memory: the queue's writes and WAIT_MEM read (cp_queue forms the
  // request), the responses
  output logic                   wr_req_o,
  output logic                   rd_req_wait_o,
  output logic [47:2]            wr_addr_o,       // writes are dword aligned
  output logic [63:0]            wr_data_o,
  output logic                   wr_64_o,
  output logic                   pkt_ring_o,      // the packet came from the ring
  input  logic                   granted_i,       // the queue's request is taken
  input  logic                   rd_pend_i,       // a read is in flight (cp_fetch)
  input  logic                   rd_err_i,        // a read the queue wants failed (cp_fetch) ...
  input  logic                   rd_fault_i,      // ... in the MMU, else in memory
  input  logic                   rsp_rd_i,        // read data comes ...
  input  logic                   rsp_wr_i,        // ... or a write is acknowledged
  input  logic                   rsp_err_i,
  input  logic                   rsp_fault_i,     // with err: the MMU refused it
  // Status
  output logic [4:0]             state_o,
  output logic [4:0]             err_cause_o,
  output logic [47:0]            err_addr_o,
  output logic [31:0]            err_hdr_o,
  output logic [31:0]            pkts_o,
  output logic                   fence_irq_o,
  output logic                   err_irq_o,
  // TLB invalidation request (INVALIDATE_TLB, its fields in pl_o), taken
  // when inv_ready_i
  output logic                   inv_o,
  input  logic                   inv_ready_i,
  // Copy engine: the command (cp_copy_cmd's fields) is offered with
  // ce_valid_o; the engine answers ce_done_i (with err/fault)
  output logic                   ce_valid_o,
  input  logic                   ce_ready_i,
  input  logic                   ce_done_i,
  input  logic                   ce_err_i,
  input  logic                   ce_fault_i
);

  `include "gpu_defs.svh"

  localparam int unsigned MaxWrOut = 255;  // posted writes in flight
  localparam logic [63:0] PteAddrInPlace = ((64'd1 << PteAddrW) - 64'd1) << PteAddrLsb;

  cp_state_e state_q, state_d, ret_q, ret_d;
  logic [19:0] rptr_q, rptr_d;
  logic in_ib_q, in_ib_d;
  logic [3:0] ib_vmid_q, ib_vmid_d;
  logic ib_priv_q, ib_priv_d;
  logic [47:0] ib_ptr_q, ib_ptr_d;
  logic [20:0] ib_rem_q, ib_rem_d;
  logic [7:0] wr_out_q, wr_out_d;
  logic [31:0] hdr_q, hdr_d;
  logic [13:0] cnt_q, cnt_d;
  logic [3:0] idx_q, idx_d;
  logic [PayloadBits-1:0] pl_q;  // a dword loaded on pl_load (storage, below)
  logic pl_load;
  logic [47:0] pkt_addr_q, pkt_addr_d;
  logic pkt_ring_q, pkt_ring_d;
  logic [47:0] wr_addr_q, wr_addr_d;
  logic [63:0] wr_data_q, wr_data_d;
  logic wr_64_q, wr_64_d;
  logic [15:0] poll_q, poll_d;
  logic [19:0] pte_left_q, pte_left_d;
  logic [47:0] pte_base_q, pte_base_d;
  cause_e err_cause_q, err_cause_d;
  logic [47:0] err_addr_q, err_addr_d;
  logic [31:0] err_hdr_q, err_hdr_d;
  logic [31:0] pkts_q, pkts_d;
  logic fence_irq_d, fence_irq_q, err_irq_q;

  initial begin : check_params
    if (PayloadBits != PktFixedDw * 32) $error("cp_exec: PayloadBits must be PktFixedDw dwords");
  end

  // ---------------------------------------------------------------- packet fields
  // The payload as every packet's generated struct (pl.blt.src_fmt...).
  opcode_e opcode;
  logic [13:0] hdr_cnt;      // the packet's COUNT
  pkt_payload_u pl;
  logic [47:0] pl_addr;      // dwords 0 and 1: the address of every packet that has one
  logic [20:0] ib_size;      // INDIRECT_BUFFER SIZE_DW

  assign opcode = hdr_q[HdrOpcodeLsb +: HdrOpcodeW];
  assign hdr_cnt = hdr_q[HdrCountLsb +: HdrCountW];
  assign pl = pl_q;
  assign pl_addr = {pl.timestamp.addr_hi[15:0], pl.timestamp.addr_lo};
  assign ib_size = pl.indirect_buffer.size.size_dw;

  // ---------------------------------------------------------------- requests
  logic wr_req, rd_req_wait;

  assign need_dw_o = (state_q == StHeader) || (state_q == StPayload) ||
                     (state_q == StSkip) || (state_q == StWdata);
  assign wr_req = (state_q == StWrite) && (wr_out_q != 8'(MaxWrOut));
  assign rd_req_wait = (state_q == StWread) && !rd_pend_i;

  // ---------------------------------------------------------------- FSM
  // The two requests that wait for a ready from gpu_top depend on registers
  // and qreset_i alone, outside the FSM's block: in it, with --assert, its
  // unique case would make them read their own ready (a false loop that
  // the simulator settles by evaluating the queues, the MMU and the
  // arbiter again each cycle).
  // INVALIDATE_TLB: the PTE writes before it must have landed.
  assign inv_o = state_q == StInv && wr_out_q == '0;
  // COPY/BLT/FILL: the queue's earlier writes land before the engine reads;
  // no command to the copy engine from a queue being reset.
  assign ce_valid_o = state_q == StCdrain && wr_out_q == '0 && !qreset_i;

  logic err_set;
  cause_e err_cause;

  // Where to go between packets.
  function automatic cp_state_e next_packet(logic halt, logic en, logic more);
    next_packet = halt ? StHalted : (en && more) ? StHeader : StIdle;
  endfunction

  always_comb begin
    pl_load = 1'b0;
    fence_irq_d = 1'b0;
    err_set = 1'b0;
    err_cause = CauseNone;
    if (!q_act_i) begin
      // The registers hold (the always_ff loads them only with q_act_i), so
      // no _d is read: constants, cheaper than copying every _q each cycle.
      state_d = StIdle;
      ret_d = StIdle;
      rptr_d = '0;
      in_ib_d = '0;
      ib_vmid_d = '0;
      ib_priv_d = '0;
      ib_ptr_d = '0;
      ib_rem_d = '0;
      wr_out_d = '0;
      hdr_d = '0;
      cnt_d = '0;
      idx_d = '0;
      pkt_addr_d = '0;
      pkt_ring_d = '0;
      wr_addr_d = '0;
      wr_data_d = '0;
      wr_64_d = '0;
      poll_d = '0;
      pte_left_d = '0;
      pte_base_d = '0;
      err_cause_d = CauseNone;
      err_addr_d = '0;
      err_hdr_d = '0;
      pkts_d = '0;
    end else begin
      state_d = state_q;
      ret_d = ret_q;
      rptr_d = rptr_q;
      in_ib_d = in_ib_q;
      ib_vmid_d = ib_vmid_q;
      ib_priv_d = ib_priv_q;
      ib_ptr_d = ib_ptr_q;
      ib_rem_d = ib_rem_q;
      wr_out_d = wr_out_q;
      hdr_d = hdr_q;
      cnt_d = cnt_q;
      idx_d = idx_q;
      pkt_addr_d = pkt_addr_q;
      pkt_ring_d = pkt_ring_q;
      wr_addr_d = wr_addr_q;
      wr_data_d = wr_data_q;
      wr_64_d = wr_64_q;
      poll_d = poll_q;
      pte_left_d = pte_left_q;
      pte_base_d = pte_base_q;
      err_cause_d = err_cause_q;
      err_addr_d = err_addr_q;
      err_hdr_d = err_hdr_q;
      pkts_d = pkts_q;

      // Memory bookkeeping, in every state: writes in flight, and the
      // errors of writes and of the reads the queue wants (cp_fetch).
      if (granted_i && wr_req) wr_out_d = wr_out_d + 8'd1;
      if (rsp_wr_i) begin
        wr_out_d = wr_out_d - 8'd1;
        if (rsp_err_i) begin err_set = 1'b1; err_cause = rsp_fault_i ? CausePageFault : CauseMemError; end
      end
      if (rd_err_i) begin
        err_set = 1'b1;
        err_cause = rd_fault_i ? CausePageFault : CauseMemError;
      end

      // Stream advance.
      if (consume_i) begin
        if (in_ib_q) begin
          ib_ptr_d = ib_ptr_q + 48'd4;
          ib_rem_d = ib_rem_q - 21'd1;
        end else begin
          rptr_d = (rptr_q + 20'd1) & ring_mask_i;
        end
      end

      unique case (state_q)
        StIdle: begin
          if (halt_i) state_d = StHalted;
          else if (enable_i && !in_ib_q && avail_i && ring_bad_i) begin
            err_set = 1'b1;
            err_cause = CauseBadRing;
            pkt_addr_d = cur_addr_i;
            hdr_d = '0;
          end else state_d = next_packet(1'b0, enable_i, avail_i);
        end
        StHeader: begin
          if (consume_i) begin
            hdr_d = dw_i;
            pkt_addr_d = cur_addr_i;
            pkt_ring_d = !in_ib_q;
            cnt_d = h_cnt_i;
            idx_d = '0;
            if (h_cause_i != CauseNone) begin
              err_set = 1'b1; err_cause = h_cause_i;
            end else if (h_op_i == OpNop) begin
              state_d = (h_cnt_i == '0) ? StDone : StSkip;
            end else begin
              state_d = StPayload;
            end
          end
        end
        StPayload: begin
          if (consume_i) begin
            pl_load = 1'b1;
            idx_d = idx_q + 4'd1;
            cnt_d = cnt_q - 14'd1;
            if (opcode == OpWriteData && idx_q == 4'd1) begin
              // ADDR_HI consumed: stream the data dwords, unless a reserved
              // bit is set or the COUNT-2 dwords would run past 2^48.
              if ((dw_i & PktWriteDataAddrHiRsv) != '0 ||
                  {1'b0, dw_i[15:0], pl_q[31:0]} + {33'd0, hdr_cnt - 14'd2, 2'b00} > 49'h1_0000_0000_0000) begin
                err_set = 1'b1; err_cause = CauseBadField;
              end else if (pl_q[1:0] != '0) begin
                err_set = 1'b1; err_cause = CauseBadAlign;
              end else begin
                wr_addr_d = {dw_i[15:0], pl_q[31:0]};
                state_d = StWdata;
              end
            end else if (cnt_q == 14'd1) begin
              state_d = StExec;
            end
          end
        end
        StExec: begin
          state_d = StDone;
          if (x_cause_i != CauseNone) begin
            err_set = 1'b1; err_cause = x_cause_i;
          end else begin
            unique case (opcode)
              OpIndirectBuffer: begin
                in_ib_d = 1'b1;
                ib_ptr_d = pl_addr;
                ib_rem_d = ib_size;
                ib_vmid_d = pl.indirect_buffer.size.vmid;
                ib_priv_d = pl.indirect_buffer.size.priv;
              end
              OpReleaseFence: state_d = StFdrain;
              OpWaitMem: state_d = StWread;
              OpTimestamp: begin
                wr_addr_d = pl_addr;
                wr_data_d = cycle_i;
                wr_64_d = 1'b1;
                ret_d = StDone;
                state_d = StWrite;
              end
              OpPteWrite: begin
                wr_addr_d = pl_addr;
                pte_left_d = pl.pte_write.num.entries;
                pte_base_d = {pl.pte_write.base_hi[15:0], pl.pte_write.base_lo};
                state_d = StPte;
              end
              OpInvalidateTlb: state_d = StInv;
              OpCopy, OpBlt, OpFill: state_d = StCdrain;
              default: ;  // NOP and WRITE_DATA never reach StExec
            endcase
          end
        end
        StSkip: begin
          if (consume_i) begin
            cnt_d = cnt_q - 14'd1;
            if (cnt_q == 14'd1) state_d = StDone;
          end
        end
        StWdata: begin
          if (consume_i) begin
            wr_data_d = {32'd0, dw_i};
            wr_64_d = 1'b0;
            cnt_d = cnt_q - 14'd1;
            ret_d = (cnt_q == 14'd1) ? StDone : StWdata;
            state_d = StWrite;
          end
        end
        StWrite: begin
          if (granted_i) begin
            state_d = ret_q;
            // WRITE_DATA and PTE_WRITE walk their address; harmless for single writes.
            wr_addr_d = wr_addr_q + (wr_64_q ? 48'd8 : 48'd4);
          end
        end
        StFdrain: begin
          if (wr_out_q == '0) begin
            wr_addr_d = pl_addr;
            wr_data_d = {pl.release_fence.value_hi, pl.release_fence.value_lo};
            wr_64_d = pl.release_fence.flags.size64;
            ret_d = StFack;
            state_d = StWrite;
          end
        end
        StFack: begin
          if (wr_out_q == '0) begin
            fence_irq_d = pl.release_fence.flags.int_;
            state_d = StDone;
          end
        end
        StWread: begin
          if (granted_i) state_d = StWresp;
        end
        StWresp: begin
          if (rsp_rd_i && !rsp_err_i) begin
            if (wait_true_i) state_d = StDone;
            else begin
              poll_d = pl.wait_mem.ctl.poll_cycles;
              state_d = StWpoll;
            end
          end
        end
        StWpoll: begin
          if (poll_q == '0) state_d = StWread;
          else poll_d = poll_q - 16'd1;
        end
        StDone: begin
          pkts_d = pkts_q + 32'd1;
          if (in_ib_q && ib_rem_q == '0) in_ib_d = 1'b0;
          if (pkt_ring_q && rptr_wb_en_i) begin
            wr_addr_d = rptr_wb_addr_i;
            wr_data_d = {44'd0, rptr_q};
            wr_64_d = 1'b0;
            ret_d = StIdle;
            state_d = StWrite;
          end else begin
            state_d = next_packet(halt_i, enable_i, in_ib_d ? (ib_rem_q != '0) : avail_i);
          end
        end
        StPte: begin
          // Entry i: FLAGS | the ADDR bits of BASE + i * STRIDE.
          wr_data_d = {pl.pte_write.flags_hi, pl.pte_write.flags_lo} | ({16'd0, pte_base_q} & PteAddrInPlace);
          wr_64_d = 1'b1;
          pte_left_d = pte_left_q - 20'd1;
          pte_base_d = pte_base_q + {16'd0, pl.pte_write.stride};
          ret_d = (pte_left_q == 20'd1) ? StDone : StPte;
          state_d = StWrite;
        end
        StInv: begin
          // The PTE writes before it must have landed.
          if (inv_o && inv_ready_i) state_d = StDone;
        end
        StCdrain: begin
          // The queue's earlier writes land before the engine reads.
          if (ce_valid_o && ce_ready_i) state_d = StCwait;
        end
        StCwait: begin
          if (ce_done_i) begin
            if (ce_err_i) begin
              err_set = 1'b1;
              err_cause = ce_fault_i ? CausePageFault : CauseMemError;
            end else begin
              state_d = StDone;
            end
          end
        end
        StHalted: begin
          if (!halt_i) state_d = StIdle;
        end
        StError: ;
        default: state_d = StError;
      endcase

      if (err_set && state_q != StError) begin
        state_d = StError;
        err_cause_d = err_cause;
        err_addr_d = pkt_addr_d;
        err_hdr_d = hdr_d;
      end

      if (qreset_i) begin
        state_d = StIdle;
        rptr_d = '0;
        in_ib_d = 1'b0;
        ib_rem_d = '0;
        ib_vmid_d = '0;
        ib_priv_d = 1'b0;
        err_cause_d = CauseNone;
        err_addr_d = '0;
        err_hdr_d = '0;
        pkts_d = '0;
        fence_irq_d = 1'b0;
      end
    end
  end

  // ---------------------------------------------------------------- registers
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      state_q <= StIdle;
      ret_q <= StIdle;
      rptr_q <= '0;
      in_ib_q <= 1'b0;
      ib_vmid_q <= '0;
      ib_priv_q <= 1'b0;
      ib_ptr_q <= '0;
      ib_rem_q <= '0;
      wr_out_q <= '0;
      hdr_q <= '0;
      cnt_q <= '0;
      idx_q <= '0;
      pkt_addr_q <= '0;
      pkt_ring_q <= 1'b0;
      wr_addr_q <= '0;
      wr_data_q <= '0;
      wr_64_q <= 1'b0;
      poll_q <= '0;
      pte_left_q <= '0;
      pte_base_q <= '0;
      err_cause_q <= CauseNone;
      err_addr_q <= '0;
      err_hdr_q <= '0;
      pkts_q <= '0;
      fence_irq_q <= 1'b0;
      err_irq_q <= 1'b0;
    end else if (q_act_i) begin  // else the _d are constants, not read (the idle path)
      state_q <= state_d;
      ret_q <= ret_d;
      rptr_q <= rptr_d;
      in_ib_q <= in_ib_d;
      ib_vmid_q <= ib_vmid_d;
      ib_priv_q <= ib_priv_d;
      ib_ptr_q <= ib_ptr_d;
      ib_rem_q <= ib_rem_d;
      wr_out_q <= wr_out_d;
      hdr_q <= hdr_d;
      cnt_q <= cnt_d;
      idx_q <= idx_d;
      pkt_addr_q <= pkt_addr_d;
      pkt_ring_q <= pkt_ring_d;
      wr_addr_q <= wr_addr_d;
      wr_data_q <= wr_data_d;
      wr_64_q <= wr_64_d;
      poll_q <= poll_d;
      pte_left_q <= pte_left_d;
      pte_base_q <= pte_base_d;
      err_cause_q <= err_cause_d;
      err_addr_q <= err_addr_d;
      err_hdr_q <= err_hdr_d;
      pkts_q <= pkts_d;
      fence_irq_q <= fence_irq_d;
      err_irq_q <= state_d == StError && state_q != StError;
    end
  end

  // The payload, written only when a dword loads (reset like the rest).
  always_ff @(posedge clk_i) begin
    if (!rst_ni) pl_q <= '0;
    else if (pl_load) pl_q[32*idx_q +: 32] <= dw_i;
  end

  assign rptr_o = rptr_q;
  assign in_ib_o = in_ib_q;
  assign ib_ptr_o = ib_ptr_q;
  assign ib_rem_o = ib_rem_q;
  assign ib_vmid_o = ib_vmid_q;
  assign ib_priv_o = ib_priv_q;
  assign opcode_o = opcode;
  assign pl_o = pl_q;
  assign wr_req_o = wr_req;
  assign rd_req_wait_o = rd_req_wait;
  assign wr_addr_o = wr_addr_q[47:2];
  assign wr_data_o = wr_data_q;
  assign wr_64_o = wr_64_q;
  assign pkt_ring_o = pkt_ring_q;
  assign state_o = state_q;
  assign err_cause_o = err_cause_q;
  assign err_addr_o = err_addr_q;
  assign err_hdr_o = err_hdr_q;
  assign pkts_o = pkts_q;
  assign fence_irq_o = fence_irq_q;
  assign err_irq_o = err_irq_q;

`ifndef SYNTHESIS
  // Assertions (Verilator --assert; a failure is a model error, gm.h).
  // Checked on the cycles with q_act_i: on the others no request is
  // offered, no response or interrupt comes, the state stays (the
  // registers are not loaded; state_d is a constant nobody reads) in a
  // waiting state (legal, neither StInv nor StCdrain) and fence_irq_d is 0,
  // so each holds there.
  always_ff @(posedge clk_i) begin
    if (rst_ni && q_act_i) begin
      // Writes in flight never underflow: every ack matches a granted write.
      a_cp_wr_ack_known: assert (!(rsp_wr_i && wr_out_q == '0 && !(granted_i && wr_req)))
        else $error("cp_exec: write ack with no write in flight");
      // ... nor overflow: a write is issued only below MaxWrOut.
      a_cp_wr_out_max: assert (!(granted_i && wr_req && wr_out_q == 8'(MaxWrOut)))
        else $error("cp_exec: a write issued with %0d in flight", wr_out_q);
      a_cp_state_legal: assert (cp_state_legal(state_q))
        else $error("cp_exec: illegal state %h", state_q);
      // Fences are ordered: a fence is written only once every earlier
      // write of the queue has landed, and interrupts once it has landed too.
      a_cp_fence_ordered: assert (!(granted_i && wr_req && ret_q == StFack && wr_out_q != '0))
        else $error("cp_exec: fence write with %0d writes in flight", wr_out_q);
      a_cp_fence_irq_landed: assert (!(fence_irq_d && wr_out_q != '0))
        else $error("cp_exec: fence interrupt with %0d writes in flight", wr_out_q);
      // An error stops the queue until a reset (SPEC: only Q_CTRL.RESET leaves it).
      a_cp_error_sticky: assert (!(state_q == StError && state_d != StError && !qreset_i))
        else $error("cp_exec: left StError without a reset");
      // The invalidation and the copy-engine command wait for the queue's
      // own writes (PTE_WRITE before INVALIDATE_TLB, data before COPY).
      a_cp_inv_after_writes: assert (!((inv_o || ce_valid_o) && wr_out_q != '0))
        else $error("cp_exec: invalidation or copy with %0d writes in flight", wr_out_q);
    end
  end

  // Cover points (Verilator --coverage-user).
  // INVALIDATE_TLB refused: the register's or a lower queue's invalidation has the port.
  c_cp_inv_refused: cover property (@(posedge clk_i) inv_o && !inv_ready_i);
  // INVALIDATE_TLB waiting for the PTE writes before it to land.
  c_cp_inv_after_pte: cover property (@(posedge clk_i) state_q == StInv && wr_out_q != '0);
  // A reset while the copy engine works for the queue.
  c_cp_reset_copy: cover property (@(posedge clk_i) qreset_i && state_q == StCwait);
  // WAIT_MEM polls again (the first read did not satisfy it).
  c_cp_wait_repoll: cover property (@(posedge clk_i) state_q == StWpoll && poll_q == '0);
  // A COPY/BLT/FILL waits for the engine (the other queue has it).
  c_cp_ce_busy: cover property (@(posedge clk_i) ce_valid_o && !ce_ready_i);
`endif

endmodule

`default_nettype wire
