// SPDX-License-Identifier: MIT
//
// cp_queue: one hardware queue of the command processor.
//
// Purpose: fetch type-3 packets from a ring buffer in memory (and from one
// level of indirect buffers), execute them, and report errors as hardware
// behaviour.  The queue owns one memory request channel (one request per
// cycle, reads one at a time, writes posted and counted) that the arbiter in
// cp_top merges with the other queues'.
//
// How to drive it: program base_i/size_log2_i, set enable_i, then move
// wptr_i (the doorbell) past the packets written into the ring.  rptr_o says
// how far the queue has read.  An error stops the queue in StError with
// err_cause_o/err_addr_o/err_hdr_o latched and a one-cycle err_irq_o; only
// qreset_i leaves StError.  halt_i stops the queue at the next packet
// boundary.  A RELEASE_FENCE with INT pulses fence_irq_o once its write is
// acknowledged.
//
// Fetch: a one-beat buffer holds the beat of the next dword.  It is dropped
// when the doorbell moves, so a beat fetched before the driver wrote the
// rest of a packet is never reused stale.

`default_nettype none

module cp_queue #(
  parameter int unsigned BeatBytes = 32  // memory port bytes per beat
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
  // Memory request channel (valid/ready) and response (valid only)
  output logic                   req_valid_o,
  input  logic                   req_ready_i,
  output logic                   req_we_o,
  output logic [47:0]            req_addr_o,
  output logic [BeatBytes*8-1:0] req_wdata_o,
  output logic [BeatBytes-1:0]   req_wstrb_o,
  input  logic                   rsp_valid_i,
  input  logic                   rsp_we_i,
  input  logic                   rsp_err_i,
  input  logic                   rsp_fault_i,    // with err: the MMU refused it
  input  logic [BeatBytes*8-1:0] rsp_rdata_i,
  // Copy engine: a COPY/BLT/FILL command, taken when ce_ready_i; the engine
  // answers ce_done_i (with err/fault) when every byte has landed
  output logic                   ce_valid_o,
  input  logic                   ce_ready_i,
  output logic                   ce_fill_o,
  output logic [47:0]            ce_src_base_o,
  output logic [2:0]             ce_src_mode_o,
  output logic [19:0]            ce_src_pitch_o,
  output logic [19:0]            ce_src_x0b_o,
  output logic [15:0]            ce_src_y0_o,
  output logic [47:0]            ce_dst_base_o,
  output logic [2:0]             ce_dst_mode_o,
  output logic [19:0]            ce_dst_pitch_o,
  output logic [19:0]            ce_dst_x0b_o,
  output logic [15:0]            ce_dst_y0_o,
  output logic [2:0]             ce_bpe_o,
  output logic [31:0]            ce_w_o,
  output logic [15:0]            ce_h_o,
  output logic [63:0]            ce_value_o,
  input  logic                   ce_done_i,
  input  logic                   ce_err_i,
  input  logic                   ce_fault_i
);

  `include "gpu_defs.svh"

  localparam int unsigned BeatLog2 = $clog2(BeatBytes);
  localparam int unsigned PayloadDw = PktFixedDw;  // largest fixed payload
  localparam int unsigned MaxWrOut = 255;  // posted writes in flight
  localparam logic [63:0] PteAddrInPlace = ((64'd1 << PteAddrW) - 64'd1) << PteAddrLsb;

  // The beat holds whole 64-bit values and at least one dword per lane.
  localparam bit BeatOk = (BeatBytes >= 8) && (BeatBytes <= 64) && ((1 << BeatLog2) == BeatBytes);
  initial begin : check_params
    if (!BeatOk) $error("cp_queue: BeatBytes must be a power of two in 8..64");
  end

  cp_state_e state_q, state_d, ret_q, ret_d;
  logic [19:0] rptr_q, rptr_d;
  logic [19:0] wptr_seen_q;
  logic in_ib_q, in_ib_d;
  logic [3:0] ib_vmid_q, ib_vmid_d;  // the running IB's VMID field (0: Q_VMID)
  logic ib_priv_q, ib_priv_d;        // the running IB may run privileged packets
  logic [47:0] ib_ptr_q, ib_ptr_d;
  logic [20:0] ib_rem_q, ib_rem_d;
  logic [BeatBytes*8-1:0] buf_q;  // loaded on buf_load (storage, below)
  logic buf_load;
  logic [47-BeatLog2:0] buf_beat_q, buf_beat_d;
  logic buf_valid_q, buf_valid_d;
  logic rd_pend_q, rd_pend_d, rd_fetch_q, rd_fetch_d, rd_drop_q, rd_drop_d;
  logic [47-BeatLog2:0] rd_beat_q, rd_beat_d;
  logic [7:0] wr_out_q, wr_out_d;
  logic [31:0] hdr_q, hdr_d;
  logic [13:0] cnt_q, cnt_d;
  logic [3:0] idx_q, idx_d;
  logic [PayloadDw*32-1:0] pl_q;  // a dword loaded on pl_load (storage, below)
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
  logic [31:0] pkts_q, pkts_d, busy_q, busy_d, stall_mem_q, stall_mem_d;
  logic [31:0] stall_wait_q, stall_wait_d, stall_fence_q, stall_fence_d;
  logic fence_irq_d, fence_irq_q, err_irq_q;

  // ---------------------------------------------------------------- stream
  logic [19:0] ring_mask, wptr_m;
  logic [47:0] cur_addr;
  logic avail, have_dw, need_dw, consume;
  logic [31:0] dw;

  assign ring_mask = 20'((32'd1 << size_log2_i) - 32'd1);
  assign wptr_m = wptr_i & ring_mask;
  assign cur_addr = in_ib_q ? ib_ptr_q : base_i + {26'd0, rptr_q, 2'b00};
  assign avail = in_ib_q ? (ib_rem_q != '0) : (rptr_q != wptr_m);
  assign have_dw = avail && buf_valid_q && (buf_beat_q == cur_addr[47:BeatLog2]) &&
                   (wptr_i == wptr_seen_q);
  always_comb begin  // every reader consumes it: selected only then
    dw = '0;
    if (consume) dw = buf_q[32*cur_addr[BeatLog2-1:2] +: 32];
  end
  assign need_dw = (state_q == StHeader) || (state_q == StPayload) ||
                   (state_q == StSkip) || (state_q == StWdata);
  assign consume = need_dw && have_dw;

  // ---------------------------------------------------------------- packet fields
  // The payload as every packet's generated struct (pl.blt.src_fmt...);
  // the reserved bits and the header rules come from regspec too.
  opcode_e opcode;
  logic [13:0] hdr_cnt;      // the packet's COUNT
  pkt_payload_u pl;
  logic [47:0] pl_addr;      // dwords 0 and 1: the address of every packet that has one
  logic rsv_bad;             // a reserved payload bit is set: BAD_FIELD
  logic [20:0] ib_size;      // INDIRECT_BUFFER SIZE_DW

  assign opcode = hdr_q[HdrOpcodeLsb +: HdrOpcodeW];
  assign hdr_cnt = hdr_q[HdrCountLsb +: HdrCountW];
  assign pl = pl_q;
  assign pl_addr = {pl.timestamp.addr_hi[15:0], pl.timestamp.addr_lo};
  always_comb begin  // read in StExec only: the table and the 320-bit AND only then
    rsv_bad = 1'b0;
    if (state_q == StExec) rsv_bad = (pl_q & pkt_rsv(opcode)) != '0;
  end
  assign ib_size = pl.indirect_buffer.size.size_dw;

  // Header checks, on the dword being consumed in StHeader (looked up only
  // then: an idle queue waits in StHeader).
  logic [1:0] h_type;
  logic [7:0] h_op;
  logic [13:0] h_cnt;
  logic h_known, h_priv;
  logic [13:0] h_min, h_max;
  assign h_type = dw[HdrTypeLsb +: HdrTypeW];
  assign h_op = dw[HdrOpcodeLsb +: HdrOpcodeW];
  assign h_cnt = dw[HdrCountLsb +: HdrCountW];
  // The opcode's rules from one table, built at elaboration from the
  // generated functions: an indexed read, where the four case trees were
  // evaluated every cycle (Verilator hoists them out of any enable).
  typedef struct packed {
    logic known;
    logic priv;
    logic [13:0] min;
    logic [13:0] max;
  } hdr_rule_t;
  localparam int unsigned HdrRuleW = 2 + 2 * 14;  // $bits(hdr_rule_t) (Yosys 0.23 takes no $bits of a type)
  function automatic logic [256*HdrRuleW-1:0] hdr_rules();  // flat: Yosys 0.23 has no 2-D return
    logic [7:0] op;
    hdr_rules = '0;
    for (int i = 0; i < 256; i++) begin
      op = 8'(i);
      hdr_rules[HdrRuleW*i +: HdrRuleW] = {pkt_known(op), pkt_priv(op), pkt_count_min(op), pkt_count_max(op)};
    end
  endfunction
  localparam logic [256*HdrRuleW-1:0] HdrRules = hdr_rules();
  hdr_rule_t h_rule;
  assign h_rule = HdrRules[HdrRuleW*h_op +: HdrRuleW];
  assign h_known = h_rule.known;
  assign h_priv = h_rule.priv;
  assign h_min = h_rule.min;
  assign h_max = h_rule.max;

  // ---------------------------------------------------------------- WAIT_MEM compare
  logic wait_64;
  logic [2:0] wait_func;
  logic [63:0] wait_val, wait_ref, wait_mask, wait_masked;
  logic wait_true;

  assign wait_64 = pl.wait_mem.ctl.size64;
  assign wait_func = pl.wait_mem.ctl.func;
  // Compared only in StWresp, its one reader.
  always_comb begin
    wait_val = '0;
    wait_ref = '0;
    wait_mask = '0;
    wait_masked = '0;
    wait_true = 1'b0;
    if (state_q == StWresp) begin
      wait_val = wait_64 ? rsp_rdata_i[8*{pl_addr[BeatLog2-1:3], 3'b000} +: 64]
                         : {32'd0, rsp_rdata_i[8*{pl_addr[BeatLog2-1:2], 2'b00} +: 32]};
      wait_ref = wait_64 ? {pl.wait_mem.ref_hi, pl.wait_mem.ref_lo} : {32'd0, pl.wait_mem.ref_lo};
      wait_mask = wait_64 ? {pl.wait_mem.mask_hi, pl.wait_mem.mask_lo} : {32'd0, pl.wait_mem.mask_lo};
      wait_masked = wait_val & wait_mask;
      unique case (wait_func)
        FuncAlways: wait_true = 1'b1;
        FuncLt:     wait_true = wait_masked < wait_ref;
        FuncLe:     wait_true = wait_masked <= wait_ref;
        FuncEq:     wait_true = wait_masked == wait_ref;
        FuncNe:     wait_true = wait_masked != wait_ref;
        FuncGe:     wait_true = wait_masked >= wait_ref;
        FuncGt:     wait_true = wait_masked > wait_ref;
        default:    wait_true = 1'b0;
      endcase
    end
  end

  // ---------------------------------------------------------------- COPY / BLT / FILL
  // The payload checks (in StExec) and the copy-engine command (offered in
  // StCdrain), evaluated only in those states.
  logic c_field, c_align;
  cp_copy_cmd #(
    .PayloadBits(PayloadDw * 32)
  ) u_copy (
    .check_en_i(state_q == StExec),
    .cmd_en_i(state_q == StCdrain),
    .opcode_i(opcode),
    .pl_i(pl_q),
    .field_bad_o(c_field),
    .align_bad_o(c_align),
    .ce_fill_o,
    .ce_src_base_o,
    .ce_src_mode_o,
    .ce_src_pitch_o,
    .ce_src_x0b_o,
    .ce_src_y0_o,
    .ce_dst_base_o,
    .ce_dst_mode_o,
    .ce_dst_pitch_o,
    .ce_dst_x0b_o,
    .ce_dst_y0_o,
    .ce_bpe_o,
    .ce_w_o,
    .ce_h_o,
    .ce_value_o
  );

  // ---------------------------------------------------------------- memory request
  logic wr_req, rd_req_wait, rd_req_fetch, granted;

  assign wr_req = (state_q == StWrite) && (wr_out_q != 8'(MaxWrOut));
  assign rd_req_wait = (state_q == StWread) && !rd_pend_q;
  assign rd_req_fetch = need_dw && avail && !have_dw && !rd_pend_q;
  assign req_valid_o = wr_req || rd_req_wait || rd_req_fetch;
  assign req_we_o = wr_req;
  assign granted = req_valid_o && req_ready_i;

  always_comb begin
    req_addr_o = '0;
    if (wr_req) req_addr_o = {wr_addr_q[47:BeatLog2], {BeatLog2{1'b0}}};
    else if (rd_req_wait) req_addr_o = {pl_addr[47:BeatLog2], {BeatLog2{1'b0}}};
    else req_addr_o = {cur_addr[47:BeatLog2], {BeatLog2{1'b0}}};
  end

  // Replicate the value over the beat; the strobe picks its lane.  Formed
  // only for a write (the arbiter reads the data of a valid write only).
  always_comb begin
    req_wdata_o = '0;
    req_wstrb_o = '0;
    if (!wr_req) begin
      // no write
    end else if (wr_64_q) begin
      req_wdata_o = {(BeatBytes / 8){wr_data_q}};
      req_wstrb_o = {{(BeatBytes - 8){1'b0}}, 8'hff} << {wr_addr_q[BeatLog2-1:3], 3'b000};
    end else begin
      req_wdata_o = {(BeatBytes / 4){wr_data_q[31:0]}};
      req_wstrb_o = {{(BeatBytes - 4){1'b0}}, 4'hf} << {wr_addr_q[BeatLog2-1:2], 2'b00};
    end
  end

  // ---------------------------------------------------------------- main FSM
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
  logic rsp_rd, rsp_wr;
  logic ring_bad;

  assign rsp_rd = rsp_valid_i && !rsp_we_i;
  assign rsp_wr = rsp_valid_i && rsp_we_i;
  assign ring_bad = (size_log2_i < 5'(RingLog2Min)) || (size_log2_i > 5'(RingLog2Max)) ||
                    (base_i[BeatLog2-1:0] != '0);

  // Where to go between packets.
  function automatic cp_state_e next_packet(logic halt, logic en, logic more);
    next_packet = halt ? StHalted : (en && more) ? StHeader : StIdle;
  endfunction

  // The idle path.  The block below changes a register only when q_act: a
  // reset, a response, a request offered, a dword consumed, the doorbell
  // moving, an interrupt pulse to end, or a state that does more than wait
  // for one of those.  Otherwise its registers are not written (so its _d
  // are not read, and hold constants); only the counters move.
  logic q_wait, q_act;
  always_comb begin  // a chain of tests, not one expression of every term
    if (need_dw || state_q == StError) q_wait = 1'b1;
    else if (state_q == StIdle) q_wait = !halt_i && !(enable_i && avail);
    else if (state_q == StCwait) q_wait = !ce_done_i;
    else if (state_q == StHalted) q_wait = halt_i;
    else q_wait = 1'b0;
    if (!q_wait || qreset_i || rsp_valid_i || req_valid_o || consume) q_act = 1'b1;
    else q_act = wptr_i != wptr_seen_q || fence_irq_q || err_irq_q;
  end

  always_comb begin
    buf_load = 1'b0;
    pl_load = 1'b0;
    fence_irq_d = 1'b0;
    err_set = 1'b0;
    err_cause = CauseNone;
    if (!q_act) begin
      // The registers hold (the always_ff loads them only with q_act), so
      // no _d is read: constants, cheaper than copying every _q each cycle.
      state_d = StIdle;
      ret_d = StIdle;
      rptr_d = '0;
      in_ib_d = '0;
      ib_vmid_d = '0;
      ib_priv_d = '0;
      ib_ptr_d = '0;
      ib_rem_d = '0;
      buf_beat_d = '0;
      buf_valid_d = '0;
      rd_pend_d = '0;
      rd_fetch_d = '0;
      rd_drop_d = '0;
      rd_beat_d = '0;
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
      buf_beat_d = buf_beat_q;
      buf_valid_d = buf_valid_q;
      rd_pend_d = rd_pend_q;
      rd_fetch_d = rd_fetch_q;
      rd_drop_d = rd_drop_q;
      rd_beat_d = rd_beat_q;
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

      // Memory bookkeeping, in every state.
      if (granted && !req_we_o) begin
        rd_pend_d = 1'b1;
        rd_fetch_d = !rd_req_wait;
        rd_beat_d = req_addr_o[47:BeatLog2];
      end
      if (granted && req_we_o) wr_out_d = wr_out_d + 8'd1;
      if (rsp_wr) begin
        wr_out_d = wr_out_d - 8'd1;
        if (rsp_err_i) begin err_set = 1'b1; err_cause = rsp_fault_i ? CausePageFault : CauseMemError; end
      end
      if (rsp_rd) begin
        rd_pend_d = 1'b0;
        rd_drop_d = 1'b0;
        if (!rd_drop_q && rsp_err_i) begin
          err_set = 1'b1;
          err_cause = rsp_fault_i ? CausePageFault : CauseMemError;
        end else if (!rd_drop_q && rd_fetch_q) begin
          buf_load = 1'b1;
          buf_beat_d = rd_beat_q;
          buf_valid_d = 1'b1;
        end
      end

      // The doorbell moved: what was fetched before may predate the driver's
      // ring writes, so drop the beat and any fetch still in flight.
      if (wptr_i != wptr_seen_q) begin
        buf_valid_d = 1'b0;
        if (rd_pend_d && rd_fetch_d) rd_drop_d = 1'b1;
      end

      // Stream advance.
      if (consume) begin
        if (in_ib_q) begin
          ib_ptr_d = ib_ptr_q + 48'd4;
          ib_rem_d = ib_rem_q - 21'd1;
        end else begin
          rptr_d = (rptr_q + 20'd1) & ring_mask;
        end
      end

      unique case (state_q)
        StIdle: begin
          if (halt_i) state_d = StHalted;
          else if (enable_i && !in_ib_q && avail && ring_bad) begin
            err_set = 1'b1;
            err_cause = CauseBadRing;
            pkt_addr_d = cur_addr;
            hdr_d = '0;
          end else state_d = next_packet(1'b0, enable_i, avail);
        end
        StHeader: begin
          if (consume) begin
            hdr_d = dw;
            pkt_addr_d = cur_addr;
            pkt_ring_d = !in_ib_q;
            cnt_d = h_cnt;
            idx_d = '0;
            if (h_type != 2'(PktType3)) begin
              err_set = 1'b1; err_cause = CauseBadType;
            end else if (!h_known) begin
              err_set = 1'b1; err_cause = CauseBadOpcode;
            end else if (h_priv && !(in_ib_q ? ib_priv_q : priv_i)) begin
              err_set = 1'b1; err_cause = CausePriv;
            end else if (h_cnt < h_min || h_cnt > h_max ||
                         (in_ib_q && {7'd0, h_cnt} >= ib_rem_q) ||
                         (!in_ib_q && {6'd0, h_cnt} >= ring_mask)) begin
              err_set = 1'b1; err_cause = CauseBadCount;
            end else if (h_op == OpNop) begin
              state_d = (h_cnt == '0) ? StDone : StSkip;
            end else begin
              state_d = StPayload;
            end
          end
        end
        StPayload: begin
          if (consume) begin
            pl_load = 1'b1;
            idx_d = idx_q + 4'd1;
            cnt_d = cnt_q - 14'd1;
            if (opcode == OpWriteData && idx_q == 4'd1) begin
              // ADDR_HI consumed: stream the data dwords, unless a reserved
              // bit is set or the COUNT-2 dwords would run past 2^48.
              if ((dw & PktWriteDataAddrHiRsv) != '0 ||
                  {1'b0, dw[15:0], pl_q[31:0]} + {33'd0, hdr_cnt - 14'd2, 2'b00} > 49'h1_0000_0000_0000) begin
                err_set = 1'b1; err_cause = CauseBadField;
              end else if (pl_q[1:0] != '0) begin
                err_set = 1'b1; err_cause = CauseBadAlign;
              end else begin
                wr_addr_d = {dw[15:0], pl_q[31:0]};
                state_d = StWdata;
              end
            end else if (cnt_q == 14'd1) begin
              state_d = StExec;
            end
          end
        end
        StExec: begin
          state_d = StDone;
          unique case (opcode)
            OpIndirectBuffer: begin
              if (rsv_bad) begin
                err_set = 1'b1; err_cause = CauseBadField;
              end else if (in_ib_q) begin
                err_set = 1'b1; err_cause = CauseIbNested;
              end else if ((pl.indirect_buffer.size.vmid != '0 || pl.indirect_buffer.size.priv) &&
                           !priv_i) begin
                err_set = 1'b1; err_cause = CausePriv;
              end else if (ib_size == '0 || ib_size > ib_max_i ||
                           {1'b0, pl_addr} + {25'd0, ib_size, 2'b00} > 49'h1_0000_0000_0000) begin
                err_set = 1'b1; err_cause = CauseIbRange;
              end else if (pl_addr[1:0] != '0) begin
                err_set = 1'b1; err_cause = CauseBadAlign;
              end else begin
                in_ib_d = 1'b1;
                ib_ptr_d = pl_addr;
                ib_rem_d = ib_size;
                ib_vmid_d = pl.indirect_buffer.size.vmid;
                ib_priv_d = pl.indirect_buffer.size.priv;
              end
            end
            OpReleaseFence: begin
              if (rsv_bad) begin
                err_set = 1'b1; err_cause = CauseBadField;
              end else if (pl_addr[1:0] != '0 || (pl.release_fence.flags.size64 && pl_addr[2])) begin
                err_set = 1'b1; err_cause = CauseBadAlign;
              end else begin
                state_d = StFdrain;
              end
            end
            OpWaitMem: begin
              if (rsv_bad || wait_func > 3'(FuncGt)) begin
                err_set = 1'b1; err_cause = CauseBadField;
              end else if (pl_addr[1:0] != '0 || (wait_64 && pl_addr[2])) begin
                err_set = 1'b1; err_cause = CauseBadAlign;
              end else begin
                state_d = StWread;
              end
            end
            OpTimestamp: begin
              if (rsv_bad) begin
                err_set = 1'b1; err_cause = CauseBadField;
              end else if (pl_addr[2:0] != '0) begin
                err_set = 1'b1; err_cause = CauseBadAlign;
              end else begin
                wr_addr_d = pl_addr;
                wr_data_d = cycle_i;
                wr_64_d = 1'b1;
                ret_d = StDone;
                state_d = StWrite;
              end
            end
            OpPteWrite: begin
              if (rsv_bad || pl.pte_write.num.entries == '0 ||
                  {1'b0, pl_addr} + {26'd0, pl.pte_write.num.entries, 3'b000} > 49'h1_0000_0000_0000) begin
                err_set = 1'b1; err_cause = CauseBadField;
              end else if (pl_addr[2:0] != '0) begin
                err_set = 1'b1; err_cause = CauseBadAlign;
              end else begin
                wr_addr_d = pl_addr;
                pte_left_d = pl.pte_write.num.entries;
                pte_base_d = {pl.pte_write.base_hi[15:0], pl.pte_write.base_lo};
                state_d = StPte;
              end
            end
            OpInvalidateTlb: begin
              if (rsv_bad) begin
                err_set = 1'b1; err_cause = CauseBadField;
              end else begin
                state_d = StInv;
              end
            end
            OpCopy, OpBlt, OpFill: begin
              if (rsv_bad || c_field) begin
                err_set = 1'b1; err_cause = CauseBadField;
              end else if (c_align) begin
                err_set = 1'b1; err_cause = CauseBadAlign;
              end else begin
                state_d = StCdrain;
              end
            end
            default: ;  // NOP and WRITE_DATA never reach StExec
          endcase
        end
        StSkip: begin
          if (consume) begin
            cnt_d = cnt_q - 14'd1;
            if (cnt_q == 14'd1) state_d = StDone;
          end
        end
        StWdata: begin
          if (consume) begin
            wr_data_d = {32'd0, dw};
            wr_64_d = 1'b0;
            cnt_d = cnt_q - 14'd1;
            ret_d = (cnt_q == 14'd1) ? StDone : StWdata;
            state_d = StWrite;
          end
        end
        StWrite: begin
          if (granted) begin
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
          if (granted) state_d = StWresp;
        end
        StWresp: begin
          if (rsp_rd && !rsp_err_i) begin
            if (wait_true) state_d = StDone;
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
            state_d = next_packet(halt_i, enable_i, in_ib_d ? (ib_rem_q != '0) : avail);
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
        buf_valid_d = 1'b0;
        rd_drop_d = rd_pend_d;  // a read still in flight is dropped when it lands
        err_cause_d = CauseNone;
        err_addr_d = '0;
        err_hdr_d = '0;
        pkts_d = '0;
        fence_irq_d = 1'b0;
      end
    end
  end

  // ---------------------------------------------------------------- counters
  // They move only while busy (every stall state is busy) or on a reset:
  // cnt_act, under which they are computed and loaded.
  logic busy, cnt_act, stall_mem, stall_wait, stall_fence;
  assign busy = state_q != StIdle && state_q != StHalted && state_q != StError;
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
      stall_wait = state_q == StWread || state_q == StWresp || state_q == StWpoll;
      stall_fence = state_q == StFdrain || state_q == StFack || state_q == StInv;
      stall_mem = (need_dw && !have_dw) || (req_valid_o && !req_ready_i && !stall_wait);
      busy_d = busy_q + 32'd1;
      stall_mem_d = stall_mem_q + {31'd0, stall_mem};
      stall_wait_d = stall_wait_q + {31'd0, stall_wait};
      stall_fence_d = stall_fence_q + {31'd0, stall_fence};
    end
  end

  // ---------------------------------------------------------------- registers
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      state_q <= StIdle;
      ret_q <= StIdle;
      rptr_q <= '0;
      wptr_seen_q <= '0;
      in_ib_q <= 1'b0;
      ib_vmid_q <= '0;
      ib_priv_q <= 1'b0;
      ib_ptr_q <= '0;
      ib_rem_q <= '0;
      buf_beat_q <= '0;
      buf_valid_q <= 1'b0;
      rd_pend_q <= 1'b0;
      rd_fetch_q <= 1'b0;
      rd_drop_q <= 1'b0;
      rd_beat_q <= '0;
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
      busy_q <= '0;
      stall_mem_q <= '0;
      stall_wait_q <= '0;
      stall_fence_q <= '0;
      fence_irq_q <= 1'b0;
      err_irq_q <= 1'b0;
    end else begin
      if (cnt_act) begin  // else no counter moves
        busy_q <= busy_d;
        stall_mem_q <= stall_mem_d;
        stall_wait_q <= stall_wait_d;
        stall_fence_q <= stall_fence_d;
      end
      if (q_act) begin  // else the _d are constants, not read (the idle path)
        state_q <= state_d;
        ret_q <= ret_d;
        rptr_q <= rptr_d;
        wptr_seen_q <= wptr_i;
        in_ib_q <= in_ib_d;
        ib_vmid_q <= ib_vmid_d;
        ib_priv_q <= ib_priv_d;
        ib_ptr_q <= ib_ptr_d;
        ib_rem_q <= ib_rem_d;
        buf_beat_q <= buf_beat_d;
        buf_valid_q <= buf_valid_d;
        rd_pend_q <= rd_pend_d;
        rd_fetch_q <= rd_fetch_d;
        rd_drop_q <= rd_drop_d;
        rd_beat_q <= rd_beat_d;
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
  end

  // The fetch beat and the payload, written only when they load (reset like
  // the rest).
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      buf_q <= '0;
      pl_q <= '0;
    end else begin
      if (buf_load) buf_q <= rsp_rdata_i;
      if (pl_load) pl_q[32*idx_q +: 32] <= dw;
    end
  end

  assign rptr_o = rptr_q;
  assign state_o = state_q;
  assign in_ib_o = in_ib_q;
  assign err_cause_o = err_cause_q;
  assign err_addr_o = err_addr_q;
  assign err_hdr_o = err_hdr_q;
  assign pkts_o = pkts_q;
  assign busy_cycles_o = busy_q;
  assign stall_mem_o = stall_mem_q;
  assign stall_wait_o = stall_wait_q;
  assign stall_fence_o = stall_fence_q;
  assign inv_all_o = pl_q[PktInvalidateTlbAllLsb];
  // A fetch runs in the stream's context; a packet's own accesses in the
  // context of the stream it came from (the IB packet's read-pointer
  // write-back is the ring's, though the IB has started).
  assign exec_vmid_o = (!pkt_ring_q && ib_vmid_q != '0) ? ib_vmid_q : vmid_i;
  assign vmid_o = (wr_req || rd_req_wait) ? exec_vmid_o :
                  (in_ib_q && ib_vmid_q != '0) ? ib_vmid_q : vmid_i;
  assign inv_vmid_o = pl_q[PktInvalidateTlbVmidLsb +: PktInvalidateTlbVmidW];
  assign inv_start_o = pl_q[32 +: 32];
  assign inv_end_o = pl_q[64 +: 32];
  assign fence_irq_o = fence_irq_q;
  assign err_irq_o = err_irq_q;

`ifndef SYNTHESIS
  // Assertions (Verilator --assert; a failure is a model error, gm.h).
  // Checked on the cycles with q_act: on the others no request is offered,
  // no response or interrupt comes, the state stays (the registers are not
  // loaded; state_d is a constant nobody reads) in a waiting state (legal,
  // neither StInv nor StCdrain) and fence_irq_d is 0, so each holds there.
  always_ff @(posedge clk_i) begin
    if (rst_ni && q_act) begin
      // Writes in flight never underflow: every ack matches a granted write.
      a_cp_wr_ack_known: assert (!(rsp_wr && wr_out_q == '0 && !(granted && req_we_o)))
        else $error("cp_queue: write ack with no write in flight");
      // ... nor overflow: a write is issued only below MaxWrOut.
      a_cp_wr_out_max: assert (!(granted && req_we_o && wr_out_q == 8'(MaxWrOut)))
        else $error("cp_queue: a write issued with %0d in flight", wr_out_q);
      a_cp_state_legal: assert (cp_state_legal(state_q))
        else $error("cp_queue: illegal state %h", state_q);
      // Reads one at a time: a read is issued only with none pending, and
      // read data comes only for the read pending (its one id in flight).
      a_cp_one_read: assert (!(granted && !req_we_o && rd_pend_q) && !(rsp_rd && !rd_pend_q))
        else $error("cp_queue: a second read in flight, or read data with none pending");
      // Fences are ordered: a fence is written only once every earlier
      // write of the queue has landed, and interrupts once it has landed too.
      a_cp_fence_ordered: assert (!(granted && req_we_o && ret_q == StFack && wr_out_q != '0))
        else $error("cp_queue: fence write with %0d writes in flight", wr_out_q);
      a_cp_fence_irq_landed: assert (!(fence_irq_d && wr_out_q != '0))
        else $error("cp_queue: fence interrupt with %0d writes in flight", wr_out_q);
      // An error stops the queue until a reset (SPEC: only Q_CTRL.RESET leaves it).
      a_cp_error_sticky: assert (!(state_q == StError && state_d != StError && !qreset_i))
        else $error("cp_queue: left StError without a reset");
      // The invalidation and the copy-engine command wait for the queue's
      // own writes (PTE_WRITE before INVALIDATE_TLB, data before COPY).
      a_cp_inv_after_writes: assert (!((inv_o || ce_valid_o) && wr_out_q != '0))
        else $error("cp_queue: invalidation or copy with %0d writes in flight", wr_out_q);
    end
  end
  // A write held while the arbiter refuses it keeps its address and data.
  logic a_wr_held_q;
  logic [47:0] a_wr_addr_q;
  logic [BeatBytes*8-1:0] a_wr_data_q;
  always_ff @(posedge clk_i) begin
    if (!rst_ni || qreset_i) begin
      a_wr_held_q <= 1'b0;
    end else if (q_act) begin  // else no write is offered and a_wr_held_q is 0
      a_cp_wr_stable: assert (!(a_wr_held_q && wr_req) ||
                              (req_addr_o == a_wr_addr_q && req_wdata_o == a_wr_data_q))
        else $error("cp_queue: a refused write changed to %h", req_addr_o);
      a_wr_held_q <= wr_req && !req_ready_i;
    end
    if (wr_req && !req_ready_i) begin
      a_wr_addr_q <= req_addr_o;
      a_wr_data_q <= req_wdata_o;
    end
  end

  // Cover points (Verilator --coverage-user).
  // INVALIDATE_TLB refused: the register's or a lower queue's invalidation has the port.
  c_cp_inv_refused: cover property (@(posedge clk_i) inv_o && !inv_ready_i);
  // INVALIDATE_TLB waiting for the PTE writes before it to land.
  c_cp_inv_after_pte: cover property (@(posedge clk_i) state_q == StInv && wr_out_q != '0);
  // The arbiter refuses the queue's request.
  c_cp_req_refused: cover property (@(posedge clk_i) req_valid_o && !req_ready_i);
  // The doorbell moves while a fetch is in flight: its beat is dropped.
  c_cp_fetch_dropped: cover property (@(posedge clk_i) rsp_rd && rd_drop_q);
  // A reset while a read is in flight, or while the copy engine works for the queue.
  c_cp_reset_read: cover property (@(posedge clk_i) qreset_i && rd_pend_q);
  c_cp_reset_copy: cover property (@(posedge clk_i) qreset_i && state_q == StCwait);
  // WAIT_MEM polls again (the first read did not satisfy it).
  c_cp_wait_repoll: cover property (@(posedge clk_i) state_q == StWpoll && poll_q == '0);
  // A COPY/BLT/FILL waits for the engine (the other queue has it).
  c_cp_ce_busy: cover property (@(posedge clk_i) ce_valid_o && !ce_ready_i);
`endif

endmodule

`default_nettype wire
