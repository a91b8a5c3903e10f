// SPDX-License-Identifier: MIT
//
// gpu_regs: the BAR0 register file.
//
// Purpose: decode 32-bit register reads and writes from the host (offsets
// from gpu_pkg, generated from regspec/gpusim.json), hold the global
// registers and each queue's configuration, and gather queue status and
// counters.  It also owns the interrupt status (W1C) and the cycle counter.
//
// Register port protocol: a request (reg_req_valid_i with we/addr/wdata) is
// always accepted; exactly one cycle later reg_rsp_valid_o pulses with the
// read data.  An offset that names no
// register answers reg_rsp_err_o = 1 (read data 0, a write changes nothing).
// The aperture's status and its latched posted-write error live in apt_top;
// this file decodes them and raises INT_STATUS.APT_ERR.  The doorbell table
// (DB_WPTR, one write pointer per doorbell, and the DB_UNMAPPED count) keeps
// the doorbells of queues no slot holds: an array written only by a
// doorbell write, so it costs nothing on other cycles.

`default_nettype none

module gpu_regs #(
  parameter int unsigned NumQueues = 2,
  parameter int unsigned BeatBytes = 32,
  parameter int unsigned NumRanges = 8
) (
  input  logic                     clk_i,
  input  logic                     rst_ni,
  // Register port
  input  logic                     reg_req_valid_i,
  input  logic                     reg_req_we_i,
  input  logic [15:0]              reg_req_addr_i,
  input  logic [31:0]              reg_req_wdata_i,
  output logic                     reg_rsp_valid_o,
  output logic [31:0]              reg_rsp_rdata_o,
  output logic                     reg_rsp_err_o,
  // Global
  output logic [63:0]              cycle_o,
  output logic [20:0]              ib_max_o,
  output logic                     irq_o,
  // Queue configuration (queue q in slice q)
  output logic [NumQueues-1:0]     q_enable_o,
  output logic [NumQueues-1:0]     q_priv_o,
  output logic [NumQueues-1:0]     q_halt_o,
  output logic [NumQueues-1:0]     q_rptr_wb_o,
  output logic [NumQueues-1:0]     q_reset_o,
  output logic [NumQueues*48-1:0]  q_base_o,
  output logic [NumQueues*5-1:0]   q_size_o,
  output logic [NumQueues*20-1:0]  q_wptr_o,
  output logic [NumQueues*48-1:0]  q_rptr_wb_addr_o,
  output logic [NumQueues*4-1:0]   q_vmid_o,
  // MMU configuration, invalidation, faults and counters
  output logic                     mmu_enable_o,
  output logic [16*48-1:0]         vm_root_o,
  output logic                     inv_o,
  output logic                     inv_all_o,
  output logic [3:0]               inv_vmid_o,
  output logic [31:0]              inv_start_o,
  output logic [31:0]              inv_end_o,
  input  logic                     fault_i,
  input  logic [47:0]              fault_va_i,
  input  logic [3:0]               fault_vmid_i,
  input  logic [6:0]               fault_client_i,
  input  logic                     fault_write_i,
  input  logic [3:0]               fault_cause_i,
  input  logic [31:0]              mmu_hits_i,
  input  logic [31:0]              mmu_misses_i,
  input  logic [31:0]              mmu_walks_i,
  input  logic [31:0]              mmu_walk_cycles_i,
  input  logic [31:0]              mmu_walk_max_i,
  // Aperture ranges (range r in slice r) and copy-engine/aperture status
  output logic [NumRanges-1:0]     apt_valid_o,
  output logic [NumRanges*3-1:0]   apt_mode_o,
  output logic [NumRanges*3-1:0]   apt_bpe_o,
  output logic [NumRanges*28-1:0]  apt_start_o,
  output logic [NumRanges*28-1:0]  apt_end_o,
  output logic [NumRanges*48-1:0]  apt_base_o,
  output logic [NumRanges*20-1:0]  apt_pitch_o,
  output logic                     apt_cfg_wr_o,  // a range register written
  output logic                     apt_wr_o,      // any APT register written (flush)
  output logic                     apt_err_clr_o, // APT_ERR_STATUS.VALID written 1
  output logic                     apt_pf_drop_o, // APT_FLUSH.PF written 1
  input  logic [1:0]               ce_state_i,
  input  logic [31:0]              ce_busy_i,
  input  logic [31:0]              ce_bytes_i,
  input  logic [31:0]              apt_accesses_i,
  input  logic [2:0]               apt_state_i,
  input  logic [1:0]               apt_rd_state_i,
  input  logic                     apt_busy_i,
  input  logic                     apt_wc_i,
  input  logic                     apt_pf_i,
  input  logic [5:0]               apt_pend_i,
  input  logic                     apt_err_valid_i,
  input  logic [1:0]               apt_err_cause_i,
  input  logic [27:0]              apt_err_off_i,
  input  logic [31:0]              apt_err_count_i,
  input  logic                     apt_err_irq_i,
  // Queue status
  input  logic [NumQueues*20-1:0]  q_rptr_i,
  input  logic [NumQueues*5-1:0]   q_state_i,
  input  logic [NumQueues-1:0]     q_in_ib_i,
  input  logic [NumQueues*5-1:0]   q_err_cause_i,
  input  logic [NumQueues*48-1:0]  q_err_addr_i,
  input  logic [NumQueues*32-1:0]  q_err_hdr_i,
  input  logic [NumQueues*32-1:0]  q_pkts_i,
  input  logic [NumQueues*32-1:0]  q_busy_i,
  input  logic [NumQueues*32-1:0]  q_stall_mem_i,
  input  logic [NumQueues*32-1:0]  q_stall_wait_i,
  input  logic [NumQueues*32-1:0]  q_stall_fence_i,
  input  logic [NumQueues-1:0]     q_fence_irq_i,
  input  logic [NumQueues-1:0]     q_err_irq_i
);

  `include "gpu_defs.svh"

  localparam int unsigned QW = (NumQueues > 1) ? $clog2(NumQueues) : 1;
  localparam int unsigned StrideLog2 = $clog2(QRegStride);
  localparam int unsigned DbW = $clog2(NumDoorbells);
  localparam int unsigned DbStrideLog2 = $clog2(DbRegStride);

  // The register map has room for MaxQueues queues.
  initial begin : check_params
    if (NumQueues < 1 || NumQueues > MaxQueues) $error("gpu_regs: NumQueues out of range");
  end

  logic [63:0] cycle_q;
  logic [31:0] cycle_hi_q, scratch_q, int_status_q, int_enable_q;
  logic [20:0] ib_max_q;
  logic [NumQueues-1:0] enable_q, priv_q, halt_q, rptr_wb_q;
  logic [NumQueues*48-1:0] base_q, rptr_wb_addr_q;
  logic [NumQueues*5-1:0] size_q;
  logic [NumQueues*20-1:0] wptr_q;
  logic [NumQueues*4-1:0] vmid_q;
  logic mmu_enable_q;
  logic [16*48-1:0] root_q;
  logic [31:0] fault_status_q, fault_count_q, inv_vmid_q, inv_start_q, inv_end_q;
  logic [47:0] fault_va_q;
  logic [NumRanges-1:0] apt_valid_q;
  logic [NumRanges*3-1:0] apt_mode_q, apt_bpe_q;
  logic [NumRanges*28-1:0] apt_start_q, apt_end_q;
  logic [NumRanges*48-1:0] apt_base_q;
  logic [NumRanges*20-1:0] apt_pitch_q;
  logic rsp_valid_q, rsp_err_q;
  logic [31:0] rsp_rdata_q;
  logic [19:0] db_q [NumDoorbells];  // the doorbell table
  logic [31:0] db_unmapped_q;

  // ---------------------------------------------------------------- decode
  logic is_q, is_vm, is_apt, is_db, is_glob, hit, wr, rd, refuse;
  logic [15:0] qoff, voff, aoff, doff;
  logic [DbW-1:0] dbi;
  logic [2:0] ar;
  logic [QW-1:0] q;
  logic [3:0] v;
  logic [15:0] roff;
  logic [31:0] rdata;

  assign wr = reg_req_valid_i && reg_req_we_i;
  assign rd = reg_req_valid_i && !reg_req_we_i;

  // The offset is decoded only on a request: every use of the decode below
  // is qualified by reg_req_valid_i (wr, rd), and requests are rare.
  always_comb begin
    qoff = '0;
    voff = '0;
    aoff = '0;
    is_q = 1'b0;
    is_vm = 1'b0;
    is_apt = 1'b0;
    is_db = 1'b0;
    doff = '0;
    dbi = '0;
    q = '0;
    v = '0;
    ar = '0;
    roff = '0;
    if (reg_req_valid_i) begin
      qoff = reg_req_addr_i - QRegBase;
      is_q = reg_req_addr_i >= QRegBase &&
             reg_req_addr_i < QRegBase + 16'(NumQueues) * QRegStride;
      q = QW'(qoff >> StrideLog2);
      voff = reg_req_addr_i - VmRegBase;
      is_vm = reg_req_addr_i >= VmRegBase && reg_req_addr_i < VmRegBase + 16'(NumVmids) * VmRegStride;
      v = voff[6:3];
      aoff = reg_req_addr_i - AptRegBase;
      is_apt = reg_req_addr_i >= AptRegBase &&
               reg_req_addr_i < AptRegBase + 16'(NumRanges) * AptRegStride;
      ar = aoff[7:5];
      doff = reg_req_addr_i - DbRegBase;
      is_db = reg_req_addr_i >= DbRegBase &&
              reg_req_addr_i < DbRegBase + 16'(NumDoorbells) * DbRegStride;
      dbi = DbW'(doff >> DbStrideLog2);
      roff = is_q ? (qoff & (QRegStride - 16'd1)) :
             is_vm ? (voff & (VmRegStride - 16'd1)) :
             is_apt ? (aoff & (AptRegStride - 16'd1)) :
             is_db ? (doff & (DbRegStride - 16'd1)) : reg_req_addr_i;
    end
  end
  assign is_glob = !is_q && !is_vm && !is_apt && !is_db;
  // The range update protocol: fields change only while VALID is clear.
  always_comb begin
    refuse = 1'b0;
    if (wr) refuse = is_apt && roff != RegAptCtrl && apt_valid_q[ar];
  end

  // The queue's state and error address are read once, into rq_*: with one
  // reader Verilator forms each gathered vector only here, not every cycle.
  logic [4:0] rq_state;
  logic [47:0] rq_err_addr;

  // The read mux and the hit decode, on a request only (hit is read only
  // with wr or rd).
  always_comb begin
    hit = 1'b1;
    rdata = '0;
    rq_state = '0;
    rq_err_addr = '0;
    if (!reg_req_valid_i) begin
      // no request
    end else if (is_apt) begin
      unique case (roff)
        RegAptCtrl:   rdata = (32'(apt_valid_q[ar]) << AptCtrlValidLsb) |
                              (32'(apt_mode_q[3*ar +: 3]) << AptCtrlModeLsb) |
                              (32'(apt_bpe_q[3*ar +: 3]) << AptCtrlBpeLsb);
        RegAptStart:  rdata = {4'd0, apt_start_q[28*ar +: 28]};
        RegAptEnd:    rdata = {4'd0, apt_end_q[28*ar +: 28]};
        RegAptBaseLo: rdata = apt_base_q[48*ar +: 32];
        RegAptBaseHi: rdata = {16'd0, apt_base_q[48*ar + 32 +: 16]};
        RegAptPitch:  rdata = {12'd0, apt_pitch_q[20*ar +: 20]};
        default:      hit = 1'b0;
      endcase
    end else if (is_db) begin
      unique case (roff)
        RegDbWptr: rdata = {12'd0, db_q[dbi]};
        default:   hit = 1'b0;
      endcase
    end else if (is_vm) begin
      unique case (roff)
        RegVmRootLo: rdata = root_q[48*v +: 32];
        RegVmRootHi: rdata = {16'd0, root_q[48*v + 32 +: 16]};
        default:     hit = 1'b0;
      endcase
    end else if (is_glob) begin
      unique case (roff)
        RegId:        rdata = IdValue;
        RegCaps:      rdata = (32'(NumQueues) << CapsNumQueuesLsb) |
                              (32'($clog2(BeatBytes)) << CapsBeatLog2Lsb) |
                              (32'(Version) << CapsVersionLsb);
        RegCycleLo:   rdata = cycle_q[31:0];
        RegCycleHi:   rdata = cycle_hi_q;
        RegIntStatus: rdata = int_status_q;
        RegIntEnable: rdata = int_enable_q;
        RegScratch:   rdata = scratch_q;
        RegIbMaxDw:   rdata = {11'd0, ib_max_q};
        RegDbUnmapped: rdata = db_unmapped_q;
        RegMmuCtrl:   rdata = {31'd0, mmu_enable_q};
        RegMmuFaultStatus: rdata = fault_status_q;
        RegMmuFaultVaLo:   rdata = fault_va_q[31:0];
        RegMmuFaultVaHi:   rdata = {16'd0, fault_va_q[47:32]};
        RegMmuFaultCount:  rdata = fault_count_q;
        RegMmuInvVmid:     rdata = inv_vmid_q;
        RegMmuInvStart:    rdata = inv_start_q;
        RegMmuInvEnd:      rdata = inv_end_q;
        RegMmuInvCtl:      rdata = '0;
        RegMmuHits:        rdata = mmu_hits_i;
        RegMmuMisses:      rdata = mmu_misses_i;
        RegMmuWalks:       rdata = mmu_walks_i;
        RegMmuWalkCycles:  rdata = mmu_walk_cycles_i;
        RegMmuWalkMax:     rdata = mmu_walk_max_i;
        RegCeStatus:       rdata = 32'(ce_state_i) << CeStatusStateLsb;
        RegCeBusyCycles:   rdata = ce_busy_i;
        RegCeBytes:        rdata = ce_bytes_i;
        RegAptAccesses:    rdata = apt_accesses_i;
        RegAptStatus:      rdata = (32'(apt_state_i) << AptStatusStateLsb) |
                                   (32'(apt_rd_state_i) << AptStatusRdLsb) |
                                   (32'(apt_busy_i) << AptStatusBusyLsb) |
                                   (32'(apt_wc_i) << AptStatusWcLsb) |
                                   (32'(apt_pf_i) << AptStatusPfLsb) |
                                   (32'(apt_pend_i) << AptStatusPendLsb);
        RegAptErrStatus:   rdata = (32'(apt_err_valid_i) << AptErrStatusValidLsb) |
                                   (32'(apt_err_cause_i) << AptErrStatusCauseLsb);
        RegAptErrOff:      rdata = {4'd0, apt_err_off_i};
        RegAptErrCount:    rdata = apt_err_count_i;
        RegAptFlush:       rdata = '0;
        default:      hit = 1'b0;
      endcase
    end else begin
      rq_state = q_state_i[5*q +: 5];
      rq_err_addr = q_err_addr_i[48*q +: 48];
      unique case (roff)
        RegQCtrl:       rdata = (32'(enable_q[q]) << QCtrlEnableLsb) |
                                (32'(priv_q[q]) << QCtrlPrivLsb) |
                                (32'(rptr_wb_q[q]) << QCtrlRptrWbLsb) |
                                (32'(halt_q[q]) << QCtrlHaltLsb);
        RegQBaseLo:     rdata = base_q[48*q +: 32];
        RegQBaseHi:     rdata = {16'd0, base_q[48*q + 32 +: 16]};
        RegQSize:       rdata = {27'd0, size_q[5*q +: 5]};
        RegQWptr:       rdata = {12'd0, wptr_q[20*q +: 20]};
        RegQRptr:       rdata = {12'd0, q_rptr_i[20*q +: 20]};
        RegQRptrWbLo:   rdata = rptr_wb_addr_q[48*q +: 32];
        RegQRptrWbHi:   rdata = {16'd0, rptr_wb_addr_q[48*q + 32 +: 16]};
        RegQStatus: begin
          rdata = 32'(rq_state) << QStatusStateLsb;
          rdata[QStatusBusyLsb] = rq_state != StIdle && rq_state != StHalted && rq_state != StError;
          rdata[QStatusHaltedLsb] = rq_state == StHalted;
          rdata[QStatusErrorLsb] = rq_state == StError;
          rdata[QStatusInIbLsb] = q_in_ib_i[q];
        end
        RegQErrCause:   rdata = 32'(q_err_cause_i[5*q +: 5]) << QErrCauseCauseLsb;
        RegQErrAddrLo:  rdata = rq_err_addr[31:0];
        RegQErrAddrHi:  rdata = {16'd0, rq_err_addr[47:32]};
        RegQErrHeader:  rdata = q_err_hdr_i[32*q +: 32];
        RegQPkts:       rdata = q_pkts_i[32*q +: 32];
        RegQBusyCycles: rdata = q_busy_i[32*q +: 32];
        RegQStallMem:   rdata = q_stall_mem_i[32*q +: 32];
        RegQStallWait:  rdata = q_stall_wait_i[32*q +: 32];
        RegQStallFence: rdata = q_stall_fence_i[32*q +: 32];
        RegQVmid:       rdata = {28'd0, vmid_q[4*q +: 4]};
        default:        hit = 1'b0;
      endcase
    end
  end

  // ---------------------------------------------------------------- writes
  logic [31:0] int_status_d, int_set;
  logic [NumQueues-1:0] reset_d;
  logic inv_d;

  always_comb begin
    int_set = '0;
    int_set[IntStatusFenceLsb +: NumQueues] = q_fence_irq_i;
    int_set[IntStatusErrorLsb +: NumQueues] = q_err_irq_i;
    int_set[IntStatusMmuFaultLsb] = fault_i;
    int_set[IntStatusAptErrLsb] = apt_err_irq_i;
    int_status_d = int_status_q;
    reset_d = '0;
    inv_d = 1'b0;
    if (reg_req_valid_i) begin  // the writes' decode only with a request
      if (wr && hit && is_glob && roff == RegIntStatus)
        int_status_d = int_status_d & ~reg_req_wdata_i;
      inv_d = wr && hit && is_glob && roff == RegMmuInvCtl &&
              reg_req_wdata_i[MmuInvCtlGoLsb];
      if (wr && hit && is_q && roff == RegQCtrl) reset_d[q] = reg_req_wdata_i[QCtrlResetLsb];
    end
    int_status_d = int_status_d | int_set;
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      cycle_q <= '0;
      cycle_hi_q <= '0;
      scratch_q <= '0;
      int_status_q <= '0;
      int_enable_q <= '0;
      ib_max_q <= 21'(IbMaxDwReset);
      enable_q <= '0;
      priv_q <= '0;
      halt_q <= '0;
      rptr_wb_q <= '0;
      base_q <= '0;
      rptr_wb_addr_q <= '0;
      size_q <= '0;
      wptr_q <= '0;
      vmid_q <= '0;
      mmu_enable_q <= 1'b0;
      root_q <= '0;
      apt_valid_q <= '0;
      apt_mode_q <= '0;
      apt_bpe_q <= '0;
      apt_start_q <= '0;
      apt_end_q <= '0;
      apt_base_q <= '0;
      apt_pitch_q <= '0;
      fault_status_q <= '0;
      fault_va_q <= '0;
      fault_count_q <= '0;
      inv_vmid_q <= '0;
      inv_start_q <= '0;
      inv_end_q <= '0;
      rsp_valid_q <= 1'b0;
      rsp_err_q <= 1'b0;
      rsp_rdata_q <= '0;
    end else begin
      cycle_q <= cycle_q + 64'd1;
      int_status_q <= int_status_d;
      rsp_valid_q <= reg_req_valid_i;
      if (reg_req_valid_i || rsp_valid_q) begin  // else both are 0 and stay 0
        rsp_err_q <= reg_req_valid_i && (!hit || refuse);
        rsp_rdata_q <= (rd && hit) ? rdata : '0;
      end
      // Faults: the first one is latched until software clears VALID.
      if (fault_i) fault_count_q <= fault_count_q + 32'd1;
      if (reg_req_valid_i) begin
        if (wr && hit && is_glob && roff == RegMmuFaultStatus &&
            reg_req_wdata_i[MmuFaultStatusValidLsb])
          fault_status_q[MmuFaultStatusValidLsb] <= 1'b0;
      end
      if (fault_i && !fault_status_q[MmuFaultStatusValidLsb]) begin
        fault_status_q <= (32'd1 << MmuFaultStatusValidLsb) |
                          (32'(fault_write_i) << MmuFaultStatusWriteLsb) |
                          (32'(fault_cause_i) << MmuFaultStatusCauseLsb) |
                          (32'(fault_vmid_i) << MmuFaultStatusVmidLsb) |
                          (32'(fault_client_i) << MmuFaultStatusClientLsb);
        fault_va_q <= fault_va_i;
      end
      // The register writes, and CYCLE_HI's latch, only with a request.
      if (reg_req_valid_i) begin
        if (rd && hit && is_glob && roff == RegCycleLo) cycle_hi_q <= cycle_q[63:32];
        if (wr && hit && is_apt && !refuse) begin
          unique case (roff)
            RegAptCtrl: begin
              apt_valid_q[ar] <= reg_req_wdata_i[AptCtrlValidLsb];
              apt_mode_q[3*ar +: 3] <= reg_req_wdata_i[AptCtrlModeLsb +: 3];
              apt_bpe_q[3*ar +: 3] <= reg_req_wdata_i[AptCtrlBpeLsb +: 3];
            end
            RegAptStart:  apt_start_q[28*ar +: 28] <= {reg_req_wdata_i[27:3], 3'b000};
            RegAptEnd:    apt_end_q[28*ar +: 28] <= {reg_req_wdata_i[27:3], 3'b000};
            RegAptBaseLo: apt_base_q[48*ar +: 32] <= reg_req_wdata_i;
            RegAptBaseHi: apt_base_q[48*ar + 32 +: 16] <= reg_req_wdata_i[15:0];
            RegAptPitch:  apt_pitch_q[20*ar +: 20] <= reg_req_wdata_i[19:0];
            default: ;
          endcase
        end
        if (wr && hit && is_vm) begin
          unique case (roff)
            RegVmRootLo: root_q[48*v +: 32] <= reg_req_wdata_i;
            RegVmRootHi: root_q[48*v + 32 +: 16] <= reg_req_wdata_i[15:0];
            default: ;
          endcase
        end
        if (wr && hit && is_glob) begin
          unique case (roff)
            RegIntEnable: int_enable_q <= reg_req_wdata_i;
            RegScratch:   scratch_q <= reg_req_wdata_i;
            RegIbMaxDw:   ib_max_q <= reg_req_wdata_i[20:0];
            RegMmuCtrl:   mmu_enable_q <= reg_req_wdata_i[MmuCtrlEnableLsb];
            RegMmuInvVmid:  inv_vmid_q <= reg_req_wdata_i;
            RegMmuInvStart: inv_start_q <= reg_req_wdata_i;
            RegMmuInvEnd:   inv_end_q <= reg_req_wdata_i;
            default: ;  // read-only or handled above
          endcase
        end
        if (wr && hit && is_q) begin
          unique case (roff)
            RegQCtrl: begin
              enable_q[q] <= reg_req_wdata_i[QCtrlEnableLsb];
              priv_q[q] <= reg_req_wdata_i[QCtrlPrivLsb];
              rptr_wb_q[q] <= reg_req_wdata_i[QCtrlRptrWbLsb];
              halt_q[q] <= reg_req_wdata_i[QCtrlHaltLsb];
              if (reg_req_wdata_i[QCtrlResetLsb]) wptr_q[20*q +: 20] <= '0;
            end
            RegQBaseLo:   base_q[48*q +: 32] <= reg_req_wdata_i;
            RegQBaseHi:   base_q[48*q + 32 +: 16] <= reg_req_wdata_i[15:0];
            RegQSize:     size_q[5*q +: 5] <= reg_req_wdata_i[4:0];
            RegQWptr:     wptr_q[20*q +: 20] <= reg_req_wdata_i[19:0];
            RegQRptrWbLo: rptr_wb_addr_q[48*q +: 32] <= reg_req_wdata_i;
            RegQRptrWbHi: rptr_wb_addr_q[48*q + 32 +: 16] <= reg_req_wdata_i[15:0];
            RegQVmid:     vmid_q[4*q +: 4] <= reg_req_wdata_i[3:0];
            default: ;  // read-only
          endcase
        end
      end
    end
  end

  // The doorbell table: a DB_WPTR write keeps its value for the queue's
  // mapping and counts in DB_UNMAPPED (no queue is mapped by doorbell yet:
  // the register-programmed queues ring Q_WPTR).
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      for (int unsigned i = 0; i < NumDoorbells; i++) db_q[i] <= '0;
      db_unmapped_q <= '0;
    end else if (wr && is_db && roff == RegDbWptr) begin
      db_q[dbi] <= reg_req_wdata_i[19:0];
      db_unmapped_q <= db_unmapped_q + 32'd1;
    end
  end

  // A queue reset takes effect at the edge that writes Q_CTRL.RESET.
  assign q_reset_o = reset_d;
  assign reg_rsp_valid_o = rsp_valid_q;
  assign reg_rsp_rdata_o = rsp_rdata_q;
  assign reg_rsp_err_o = rsp_err_q;
  assign cycle_o = cycle_q;
  assign ib_max_o = ib_max_q;
  assign irq_o = |(int_status_q & int_enable_q);
  assign q_enable_o = enable_q;
  assign q_priv_o = priv_q;
  assign q_halt_o = halt_q;
  assign q_rptr_wb_o = rptr_wb_q;
  assign q_base_o = base_q;
  assign q_size_o = size_q;
  assign q_wptr_o = wptr_q;
  assign q_rptr_wb_addr_o = rptr_wb_addr_q;
  assign q_vmid_o = vmid_q;
  assign mmu_enable_o = mmu_enable_q;
  assign vm_root_o = root_q;
  assign apt_valid_o = apt_valid_q;
  assign apt_mode_o = apt_mode_q;
  assign apt_bpe_o = apt_bpe_q;
  assign apt_start_o = apt_start_q;
  assign apt_end_o = apt_end_q;
  assign apt_base_o = apt_base_q;
  assign apt_pitch_o = apt_pitch_q;
  // Writes to the aperture's registers: the ranges, APT_ERR_STATUS,
  // APT_FLUSH.  Decoded only with a write (the offset only with a request:
  // every term of an expression is evaluated, of an `if` only the test).
  logic g_apt_wr;
  always_comb begin
    g_apt_wr = 1'b0;
    apt_cfg_wr_o = 1'b0;
    apt_wr_o = 1'b0;
    apt_err_clr_o = 1'b0;
    apt_pf_drop_o = 1'b0;
    if (wr) begin
      g_apt_wr = hit && is_glob &&
                 (roff == RegAptErrStatus || roff == RegAptFlush);
      apt_cfg_wr_o = is_apt;
      apt_wr_o = is_apt || g_apt_wr;
      apt_err_clr_o = g_apt_wr && roff == RegAptErrStatus &&
                      reg_req_wdata_i[AptErrStatusValidLsb];
      apt_pf_drop_o = g_apt_wr && roff == RegAptFlush && reg_req_wdata_i[AptFlushPfLsb];
    end
  end
  assign inv_o = inv_d;
  assign inv_all_o = inv_vmid_q[MmuInvVmidAllLsb];
  assign inv_vmid_o = inv_vmid_q[3:0];
  assign inv_start_o = inv_start_q;
  assign inv_end_o = inv_end_q;

`ifndef SYNTHESIS
  // Assertions (Verilator --assert; a failure is a model error, gm.h).
  // The port's protocol: exactly one response, one cycle after each request.
  logic a_req_q;
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      a_req_q <= 1'b0;
    end else begin
      a_regs_rsp_next_cycle: assert (reg_rsp_valid_o == a_req_q)
        else $error("gpu_regs: response %0d one cycle after request %0d", reg_rsp_valid_o, a_req_q);
      a_req_q <= reg_req_valid_i;
    end
  end
  logic a_latched_q;
  logic [31:0] a_fstat_q;
  logic [47:0] a_fva_q;
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      a_latched_q <= 1'b0;
    end else begin
      a_latched_q <= fault_status_q[MmuFaultStatusValidLsb] &&
                     !(wr && is_glob && roff == RegMmuFaultStatus);
    end
    a_fstat_q <= fault_status_q;
    a_fva_q <= fault_va_q;
  end
  // INT_STATUS can fall only with a request; the latched fault is checked
  // while latched.
  always_ff @(posedge clk_i) begin
    if (rst_ni && reg_req_valid_i) begin
      // INT_STATUS bits are sticky: one falls only by a W1C write of it.
      a_regs_int_sticky: assert ((int_status_q & ~int_status_d) == '0 ||
                                 (wr && hit && is_glob && roff == RegIntStatus))
        else $error("gpu_regs: INT_STATUS %h -> %h without a write", int_status_q, int_status_d);
    end
    if (rst_ni && a_latched_q) begin
      // The first fault stays latched until software clears VALID.
      a_regs_fault_latched: assert (!a_latched_q || (fault_status_q == a_fstat_q && fault_va_q == a_fva_q))
        else $error("gpu_regs: the latched fault changed to %h at %h", fault_status_q, fault_va_q);
    end
  end

  // Cover points (Verilator --coverage-user).
  // An offset that names no register (error response).
  c_regs_unnamed: cover property (@(posedge clk_i) reg_req_valid_i && !hit);
  // A range field write refused while the range is valid.
  c_regs_apt_refused: cover property (@(posedge clk_i) refuse);
  // A W1C clear of INT_STATUS in the cycle an interrupt source sets a bit.
  c_regs_w1c_and_set: cover property (@(posedge clk_i) wr && hit && is_glob &&
                                      roff == RegIntStatus && int_set != '0);
  // A fault while one is latched (counted, not latched).
  c_regs_fault_latched: cover property (@(posedge clk_i) fault_i && fault_status_q[MmuFaultStatusValidLsb]);
  // A register invalidation (MMU_INV_CTL.GO) and a queue reset (Q_CTRL.RESET).
  c_regs_inv_go: cover property (@(posedge clk_i) inv_d);
  c_regs_queue_reset: cover property (@(posedge clk_i) reset_d != '0);
`endif

endmodule

`default_nettype wire
