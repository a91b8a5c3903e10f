// SPDX-License-Identifier: MIT
//
// gpu_top: the gpusim GPU.
//
// Purpose: the register port (BAR0), the aperture port (BAR1), NumQueues
// command-processor queues, the copy engine they share, the arbiter of all
// memory requests, the MMU (TLB + page-table walker) in front of the memory
// master port, and the interrupt line.  One clock, synchronous active-low
// reset.
//
// Ports:
//  - Register port: valid/ready request {we, addr, wdata}; the response
//    (valid, rdata, err) comes exactly two cycles after the request (an
//    input register, then the register file's answer).
//  - Memory master port: valid/ready request {id, addr (beat aligned), we,
//    wdata, wstrb}; responses {id, err, rdata} arrive in any order, one per
//    cycle, and are always accepted; they are registered on the way in.
//    id bit 0 = write, id[7:1] = client: queue q is q, the aperture
//    APT_CLIENT | slot (0x20..0x3f), the copy engine CE_CLIENT | tag
//    (0x40..0x5f); id 0xff is the page walker.
//  - Aperture port (BAR1): request {we, addr (window offset of a 16-byte
//    chunk), 128-bit wdata, 16 byte enables} for one cycle while
//    apt_req_ready_o, one per cycle.
//    Writes are posted (no response; errors latch in APT_ERR_STATUS); a
//    read's response (valid, rdata, err) follows, reads in order (see
//    apt_top).
//
// Every input but mem_req_ready_i lands in a register before any logic, and
// mem_req_ready_i only pops the MMU's output buffer: no large combinational
// cone hangs off a top-level input (which Verilator would re-evaluate on
// every eval).
//  - irq_o: |(INT_STATUS & INT_ENABLE).

`default_nettype none

// The parameters and ports, generated from regspec/gpu_top_ports.json (make
// gen): NumQueues, BeatBytes (memory port bytes per beat), MemIdW,
// TlbEntries, NumRanges; clk_i, rst_ni, the register, memory and aperture
// ports, irq_o and the observation-only mm_*_i.
module gpu_top
  `include "top/gpu_top_ports.svh"
;

  `include "gpu_defs.svh"

  localparam int unsigned BB = BeatBytes * 8;
  localparam int unsigned NC = NumQueues + 2;  // clients: queues, aperture, copy engine
  localparam int unsigned IW = MemIdW - 1;
  localparam int unsigned CeTagW = $clog2(CeRobSlots);  // copy-engine read tag bits
  localparam int unsigned AptTagW = $clog2(AptSlots);   // aperture request slot bits
  localparam int unsigned QW = (NumQueues > 1) ? $clog2(NumQueues) : 1;
  localparam int unsigned NCW = $clog2(NC);          // arbiter client number bits
  localparam int unsigned AptArb = NumQueues;        // the aperture's arbiter client number
  localparam int unsigned CeArb = NumQueues + 1;     // the copy engine's

  // Client numbers must stay clear of one another and of the walker; the
  // memory channel's structs (gpu_pkg::mem_req_t, mem_rsp_t) are sized for
  // the memory port.
  initial begin : check_params
    if (MemIdW != 8 || NumQueues > MaxQueues) $error("gpu_top: ids assume MemIdW 8, <= MAX_QUEUES queues");
    if (MemIdW + 1 + 48 + BB + BeatBytes != gpu_pkg::MemReqBits || MemIdW + 2 + BB != gpu_pkg::MemRspBits)
      $error("gpu_top: the memory channel's structs (regspec) do not fit MemIdW and BeatBytes");
  end

  logic [63:0] cycle;
  logic [20:0] ib_max;
  logic [NumQueues-1:0] q_enable, q_priv, q_halt, q_rptr_wb, q_reset;
  logic [NumQueues*48-1:0] q_base, q_rptr_wb_addr, q_err_addr;
  logic [NumQueues*5-1:0] q_size, q_state, q_err_cause;
  logic [NumQueues*20-1:0] q_wptr, q_rptr;
  logic [NumQueues-1:0] q_in_ib, q_fence_irq, q_err_irq;
  logic [NumQueues*32-1:0] q_err_hdr, q_pkts, q_busy, q_stall_mem, q_stall_wait, q_stall_fence;
  // The memory channel's clients: the queues, the aperture and the copy
  // engine (the arbiter's clients 0..NumQueues-1, NumQueues, NumQueues+1).
  // Their requests are g_queue's req, apt_req and ce_req; a response goes
  // to all of them (rsp), with the addressee's q_rsp_valid.
  logic [NC-1:0] q_req_valid, q_req_ready, q_rsp_valid;
  logic [NC*IW-1:0] c_id, c_idmask;  // each client's id (tag bits 0), the bits a response must match
  gpu_pkg::mem_rsp_t rsp;
  logic [NumQueues*4-1:0] q_vmid;
  logic [NumQueues*4-1:0] q_cur_vmid;   // each queue's request VMID (Q_VMID, or its IB's)
  logic [NumQueues*4-1:0] q_exec_vmid;  // each queue's executing packet's VMID
  logic [NumQueues-1:0] q_inv, q_inv_ready, q_inv_all;
  logic [NumQueues*4-1:0] q_inv_vmid;
  logic [NumQueues*32-1:0] q_inv_start, q_inv_end;
  logic r_inv, r_inv_all;
  logic [3:0] r_inv_vmid;
  logic [31:0] r_inv_start, r_inv_end;
  // MMU
  logic mmu_enable, inv, inv_all;
  logic [16*48-1:0] vm_root;
  logic [3:0] inv_vmid, fault_vmid, fault_cause;
  logic [31:0] inv_start, inv_end, mmu_hits, mmu_misses, mmu_walks, mmu_walk_cycles, mmu_walk_max;
  logic fault, fault_write;
  logic [47:0] fault_va;
  logic [6:0] fault_client;
  // Arbiter -> MMU (the request is the granted client's, selected below
  // the arbiter), MMU -> arbiter (u_rsp), MMU -> memory port (m_req)
  logic a_valid, a_ready, u_valid;
  logic [NCW-1:0] a_client;
  gpu_pkg::mem_req_t a_req, m_req;
  logic [3:0] a_vmid;
  gpu_pkg::mem_rsp_t u_rsp;
  // Copy engine
  logic [NumQueues-1:0] qc_valid, qc_ready, qc_done;
  logic ce_cmd_valid, ce_cmd_ready, ce_done, ce_err, ce_fault;
  logic [QW-1:0] ce_pick, ce_owner_q;
  logic [3:0] ce_vmid_q;
  logic [1:0] ce_state;
  logic [31:0] ce_busy, ce_bytes;
  gpu_pkg::mem_req_t ce_req;
  // Aperture
  logic [NumRanges-1:0] apt_valid;
  logic [NumRanges*3-1:0] apt_mode, apt_bpe;
  logic [NumRanges*28-1:0] apt_start, apt_end;
  logic [NumRanges*48-1:0] apt_base;
  logic [NumRanges*20-1:0] apt_pitch;
  logic apt_cfg_wr, apt_wr, apt_err_clr, apt_pf_drop, a_req_valid_q, a_req_we_q;
  logic [27:0] a_req_addr_q;
  logic [127:0] a_req_wdata_q;
  logic [15:0] a_req_wstrb_q;
  logic [2:0] apt_state;
  logic [1:0] apt_rd_state, apt_err_cause;
  logic apt_busy, apt_wc, apt_pf, apt_err_valid, apt_err_irq;
  logic [5:0] apt_pend;
  logic [27:0] apt_err_off;
  logic [31:0] apt_accesses, apt_err_count;
  gpu_pkg::mem_req_t apt_req;
  // Memory writes the port accepted, for the aperture's prefetch coherence
  logic snoop_valid_q;
  logic [47:0] snoop_addr_q;
  // Input registers
  logic r_req_valid_q, r_req_we_q, m_rsp_valid_q;
  logic [15:0] r_req_addr_q;
  logic [31:0] r_req_wdata_q;
  gpu_pkg::mem_rsp_t m_rsp_q;  // the memory port's response (its fault stays 0)

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      r_req_valid_q <= 1'b0;
      r_req_we_q <= 1'b0;
      r_req_addr_q <= '0;
      r_req_wdata_q <= '0;
      m_rsp_valid_q <= 1'b0;
      m_rsp_q <= '0;
      a_req_valid_q <= 1'b0;
      a_req_we_q <= 1'b0;
      a_req_addr_q <= '0;
      a_req_wdata_q <= '0;
      a_req_wstrb_q <= '0;
      snoop_valid_q <= 1'b0;
      snoop_addr_q <= '0;
    end else begin
      // The payloads load only with their valid: every reader below
      // qualifies them by it, and the wide ones cost each cycle they copy.
      r_req_valid_q <= reg_req_valid_i;
      if (reg_req_valid_i) begin
        r_req_we_q <= reg_req_we_i;
        r_req_addr_q <= reg_req_addr_i;
        r_req_wdata_q <= reg_req_wdata_i;
      end
      m_rsp_valid_q <= mem_rsp_valid_i;
      m_rsp_q.err <= mem_rsp_err_i;
      m_rsp_q.id <= mem_rsp_id_i;
      if (mem_rsp_valid_i) m_rsp_q.rdata <= mem_rsp_rdata_i;
      a_req_valid_q <= apt_req_valid_i;
      if (apt_req_valid_i) begin
        a_req_we_q <= apt_req_we_i;
        a_req_addr_q <= apt_req_addr_i;
        a_req_wdata_q <= apt_req_wdata_i;
        a_req_wstrb_q <= apt_req_wstrb_i;
      end
      snoop_valid_q <= mem_req_valid_o && mem_req_we_o && mem_req_ready_i;
      snoop_addr_q <= mem_req_addr_o;
    end
  end
  assign reg_req_ready_o = 1'b1;

  gpu_regs #(
    .NumQueues(NumQueues),
    .BeatBytes(BeatBytes)
  ) u_regs (
    .clk_i,
    .rst_ni,
    .reg_req_valid_i(r_req_valid_q),
    .reg_req_we_i(r_req_we_q),
    .reg_req_addr_i(r_req_addr_q),
    .reg_req_wdata_i(r_req_wdata_q),
    .reg_rsp_valid_o,
    .reg_rsp_rdata_o,
    .reg_rsp_err_o,
    .cycle_o(cycle),
    .ib_max_o(ib_max),
    .irq_o,
    .q_enable_o(q_enable),
    .q_priv_o(q_priv),
    .q_halt_o(q_halt),
    .q_rptr_wb_o(q_rptr_wb),
    .q_reset_o(q_reset),
    .q_base_o(q_base),
    .q_size_o(q_size),
    .q_wptr_o(q_wptr),
    .q_rptr_wb_addr_o(q_rptr_wb_addr),
    .q_vmid_o(q_vmid),
    .mmu_enable_o(mmu_enable),
    .vm_root_o(vm_root),
    .inv_o(r_inv),
    .inv_all_o(r_inv_all),
    .inv_vmid_o(r_inv_vmid),
    .inv_start_o(r_inv_start),
    .inv_end_o(r_inv_end),
    .fault_i(fault),
    .fault_va_i(fault_va),
    .fault_vmid_i(fault_vmid),
    .fault_client_i(fault_client),
    .fault_write_i(fault_write),
    .fault_cause_i(fault_cause),
    .mmu_hits_i(mmu_hits),
    .mmu_misses_i(mmu_misses),
    .mmu_walks_i(mmu_walks),
    .mmu_walk_cycles_i(mmu_walk_cycles),
    .mmu_walk_max_i(mmu_walk_max),
    .apt_valid_o(apt_valid),
    .apt_mode_o(apt_mode),
    .apt_bpe_o(apt_bpe),
    .apt_start_o(apt_start),
    .apt_end_o(apt_end),
    .apt_base_o(apt_base),
    .apt_pitch_o(apt_pitch),
    .apt_cfg_wr_o(apt_cfg_wr),
    .apt_wr_o(apt_wr),
    .apt_err_clr_o(apt_err_clr),
    .apt_pf_drop_o(apt_pf_drop),
    .ce_state_i(ce_state),
    .ce_busy_i(ce_busy),
    .ce_bytes_i(ce_bytes),
    .apt_accesses_i(apt_accesses),
    .apt_state_i(apt_state),
    .apt_rd_state_i(apt_rd_state),
    .apt_busy_i(apt_busy),
    .apt_wc_i(apt_wc),
    .apt_pf_i(apt_pf),
    .apt_pend_i(apt_pend),
    .apt_err_valid_i(apt_err_valid),
    .apt_err_cause_i(apt_err_cause),
    .apt_err_off_i(apt_err_off),
    .apt_err_count_i(apt_err_count),
    .apt_err_irq_i(apt_err_irq),
    .q_rptr_i(q_rptr),
    .q_state_i(q_state),
    .q_in_ib_i(q_in_ib),
    .q_err_cause_i(q_err_cause),
    .q_err_addr_i(q_err_addr),
    .q_err_hdr_i(q_err_hdr),
    .q_pkts_i(q_pkts),
    .q_busy_i(q_busy),
    .q_stall_mem_i(q_stall_mem),
    .q_stall_wait_i(q_stall_wait),
    .q_stall_fence_i(q_stall_fence),
    .q_fence_irq_i(q_fence_irq),
    .q_err_irq_i(q_err_irq)
  );

  // One TLB invalidation per cycle: the register's first, then the queues
  // in order; a queue whose request is not taken keeps asking.  The
  // granted queue's fields are read once, at its index (several readers of
  // a gathered vector have Verilator form it every cycle).
  logic [QW-1:0] inv_q;
  always_comb begin
    inv = r_inv;
    inv_all = r_inv_all;
    inv_vmid = r_inv_vmid;
    inv_start = r_inv_start;
    inv_end = r_inv_end;
    q_inv_ready = '0;
    inv_q = '0;
    for (int unsigned i = 0; i < NumQueues; i++) begin
      if (!inv && q_inv[i]) begin
        inv = 1'b1;
        inv_q = QW'(i);
        q_inv_ready[i] = 1'b1;
      end
    end
    if (q_inv_ready != '0) begin
      inv_all = q_inv_all[inv_q];
      inv_vmid = q_inv_vmid[4*inv_q +: 4];
      inv_start = q_inv_start[32*inv_q +: 32];
      inv_end = q_inv_end[32*inv_q +: 32];
    end
  end

  for (genvar g = 0; g < NumQueues; g++) begin : g_queue
    cp_state_e state;
    cause_e cause;
    // The queue's copy-engine command, a whole struct per queue (Yosys 0.23
    // mis-sizes a packed array of a package struct, and slices of one flat
    // vector cost a gather every cycle), and the command picked among
    // queues 0..g: a chain of constant selects, so none is a variable
    // part-select (which made Verilator 5.006 read past a wide temporary).
    // The same for the queue's memory request: req_upto is the granted
    // queue's among queues 0..g.
    gpu_pkg::ce_cmd_t cmd, pick_upto;
    gpu_pkg::mem_req_t req, req_upto;

    cp_queue #(
      .BeatBytes(BeatBytes),
      .Client(g)
    ) u_queue (
      .clk_i,
      .rst_ni,
      .enable_i(q_enable[g]),
      .priv_i(q_priv[g]),
      .vmid_i(q_vmid[4*g +: 4]),
      .halt_i(q_halt[g]),
      .rptr_wb_en_i(q_rptr_wb[g]),
      .qreset_i(q_reset[g]),
      .base_i(q_base[48*g +: 48]),
      .size_log2_i(q_size[5*g +: 5]),
      .wptr_i(q_wptr[20*g +: 20]),
      .rptr_wb_addr_i(q_rptr_wb_addr[48*g +: 48]),
      .ib_max_i(ib_max),
      .cycle_i(cycle),
      .rptr_o(q_rptr[20*g +: 20]),
      .state_o(state),
      .in_ib_o(q_in_ib[g]),
      .err_cause_o(cause),
      .err_addr_o(q_err_addr[48*g +: 48]),
      .err_hdr_o(q_err_hdr[32*g +: 32]),
      .pkts_o(q_pkts[32*g +: 32]),
      .busy_cycles_o(q_busy[32*g +: 32]),
      .stall_mem_o(q_stall_mem[32*g +: 32]),
      .stall_wait_o(q_stall_wait[32*g +: 32]),
      .stall_fence_o(q_stall_fence[32*g +: 32]),
      .inv_o(q_inv[g]),
      .inv_ready_i(q_inv_ready[g]),
      .inv_all_o(q_inv_all[g]),
      .inv_vmid_o(q_inv_vmid[4*g +: 4]),
      .vmid_o(q_cur_vmid[4*g +: 4]),
      .exec_vmid_o(q_exec_vmid[4*g +: 4]),
      .inv_start_o(q_inv_start[32*g +: 32]),
      .inv_end_o(q_inv_end[32*g +: 32]),
      .fence_irq_o(q_fence_irq[g]),
      .err_irq_o(q_err_irq[g]),
      .req_valid_o(q_req_valid[g]),
      .req_ready_i(q_req_ready[g]),
      .req_o(req),
      .rsp_valid_i(q_rsp_valid[g]),
      .rsp_i(rsp),
      .ce_valid_o(qc_valid[g]),
      .ce_ready_i(qc_ready[g]),
      .ce_cmd_o(cmd),
      .ce_done_i(qc_done[g]),
      .ce_err_i(ce_err),
      .ce_fault_i(ce_fault)
    );
    assign q_state[5*g +: 5] = state;
    assign qc_ready[g] = ce_cmd_ready && ce_pick == QW'(g);
    assign qc_done[g] = ce_done && ce_owner_q == QW'(g);
    assign c_id[IW*g +: IW] = IW'(g);
    assign c_idmask[IW*g +: IW] = '1;
    assign q_err_cause[5*g +: 5] = cause;
    if (g == 0) begin : g_pick_first
      assign pick_upto = (ce_cmd_valid && ce_pick == QW'(g)) ? cmd : '0;
      assign req_upto = (a_client == NCW'(g)) ? req : '0;
    end else begin : g_pick_next
      assign pick_upto = (ce_cmd_valid && ce_pick == QW'(g)) ? cmd : g_queue[g-1].pick_upto;
      assign req_upto = (a_client == NCW'(g)) ? req : g_queue[g-1].req_upto;
    end
  end

  // ---------------------------------------------------------------- copy engine
  // The lowest-numbered queue with a command gets the engine; the engine
  // answers the queue it took the command from, and its requests carry that
  // queue's VMID.
  always_comb begin
    ce_cmd_valid = |qc_valid;
    ce_pick = '0;
    for (int i = NumQueues - 1; i >= 0; i--) begin
      if (qc_valid[i]) ce_pick = QW'(i);
    end
  end

  // The picked queue's command, zero while none is offered (the engine
  // latches it only then): the end of g_queue's pick chain.
  gpu_pkg::ce_cmd_t ce_cmd;
  assign ce_cmd = g_queue[NumQueues-1].pick_upto;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      ce_owner_q <= '0;
      ce_vmid_q <= '0;
    end else if (ce_cmd_valid && ce_cmd_ready) begin
      ce_owner_q <= ce_pick;
      ce_vmid_q <= q_exec_vmid[4*ce_pick +: 4];
    end
  end

  ce_top #(
    .BeatBytes(BeatBytes),
    .TagW(CeTagW)
  ) u_ce (
    .clk_i,
    .rst_ni,
    .cmd_valid_i(ce_cmd_valid),
    .cmd_ready_o(ce_cmd_ready),
    .cmd_i(ce_cmd),
    .abort_i(q_reset[ce_owner_q]),
    .done_o(ce_done),
    .done_err_o(ce_err),
    .done_fault_o(ce_fault),
    .state_o(ce_state),
    .busy_cycles_o(ce_busy),
    .bytes_o(ce_bytes),
    .req_valid_o(q_req_valid[NumQueues+1]),
    .req_ready_i(q_req_ready[NumQueues+1]),
    .req_o(ce_req),
    .rsp_valid_i(q_rsp_valid[NumQueues+1]),
    .rsp_i(rsp)
  );
  assign c_id[IW*(NumQueues+1) +: IW] = IW'(CeClient);
  assign c_idmask[IW*(NumQueues+1) +: IW] = ~IW'(CeRobSlots - 1);

  // ---------------------------------------------------------------- aperture
  apt_top #(
    .NumRanges(NumRanges),
    .BeatBytes(BeatBytes),
    .TagW(AptTagW)
  ) u_apt (
    .clk_i,
    .rst_ni,
    .req_valid_i(a_req_valid_q),
    .req_ready_o(apt_req_ready_o),
    .req_we_i(a_req_we_q),
    .req_addr_i(a_req_addr_q),
    .req_wdata_i(a_req_wdata_q),
    .req_wstrb_i(a_req_wstrb_q),
    .rsp_valid_o(apt_rsp_valid_o),
    .rsp_rdata_o(apt_rsp_rdata_o),
    .rsp_err_o(apt_rsp_err_o),
    .rng_valid_i(apt_valid),
    .rng_mode_i(apt_mode),
    .rng_bpe_i(apt_bpe),
    .rng_start_i(apt_start),
    .rng_end_i(apt_end),
    .rng_base_i(apt_base),
    .rng_pitch_i(apt_pitch),
    .cfg_wr_i(apt_cfg_wr),
    .apt_wr_i(apt_wr),
    .err_clr_i(apt_err_clr),
    .pf_drop_i(apt_pf_drop),
    .state_o(apt_state),
    .rd_state_o(apt_rd_state),
    .busy_o(apt_busy),
    .wc_o(apt_wc),
    .pf_o(apt_pf),
    .pend_o(apt_pend),
    .accesses_o(apt_accesses),
    .err_valid_o(apt_err_valid),
    .err_cause_o(apt_err_cause),
    .err_off_o(apt_err_off),
    .err_count_o(apt_err_count),
    .err_irq_o(apt_err_irq),
    .snoop_valid_i(snoop_valid_q),
    .snoop_addr_i(snoop_addr_q),
    .m_req_valid_o(q_req_valid[NumQueues]),
    .m_req_ready_i(q_req_ready[NumQueues]),
    .m_req_o(apt_req),
    .m_rsp_valid_i(q_rsp_valid[NumQueues]),
    .m_rsp_i(rsp)
  );
  assign c_id[IW*NumQueues +: IW] = IW'(AptClient);
  assign c_idmask[IW*NumQueues +: IW] = ~IW'(AptSlots - 1);

  cp_mem_arb #(
    .NumClients(NC),
    .MemIdW(MemIdW)
  ) u_arb (
    .clk_i,
    .rst_ni,
    .c_valid_i(q_req_valid),
    .c_ready_o(q_req_ready),
    .c_id_i(c_id),
    .c_idmask_i(c_idmask),
    .c_rsp_valid_o(q_rsp_valid),
    .c_rsp_o(rsp),
    .mem_req_valid_o(a_valid),
    .mem_req_ready_i(a_ready),
    .mem_req_client_o(a_client),
    .mem_rsp_valid_i(u_valid),
    .mem_rsp_i(u_rsp)
  );

  // The granted client's request (each client's carries its own id), taken
  // from its own outputs and only with a grant (the MMU reads it only then;
  // zeros otherwise): the arbiter names the client, and no 345-bit request
  // is gathered with the others'.  A queue's is the end of g_queue's
  // chain.  Three ifs, not an else chain: the Verilator model turns an
  // else chain of single assignments into a ?: and would then form every
  // source before it on every grant.
  always_comb begin
    a_req = '0;
    a_vmid = '0;
    if (a_valid) begin
      if (a_client == NCW'(CeArb)) begin
        a_req = ce_req;
        a_vmid = ce_vmid_q;
      end
      if (a_client == NCW'(AptArb)) a_req = apt_req;  // VMID 0: its accesses are physical
      if (a_client < NCW'(NumQueues)) begin
        a_req = g_queue[NumQueues-1].req_upto;
        a_vmid = q_cur_vmid[4*QW'(a_client) +: 4];
      end
    end
  end

  mmu_top #(
    .BeatBytes(BeatBytes),
    .MemIdW(MemIdW),
    .TlbEntries(TlbEntries)
  ) u_mmu (
    .clk_i,
    .rst_ni,
    .enable_i(mmu_enable),
    .root_i(vm_root),
    .inv_i(inv),
    .inv_all_i(inv_all),
    .inv_vmid_i(inv_vmid),
    .inv_start_i(inv_start),
    .inv_end_i(inv_end),
    .fault_o(fault),
    .fault_va_o(fault_va),
    .fault_vmid_o(fault_vmid),
    .fault_client_o(fault_client),
    .fault_write_o(fault_write),
    .fault_cause_o(fault_cause),
    .hits_o(mmu_hits),
    .misses_o(mmu_misses),
    .walks_o(mmu_walks),
    .walk_cycles_o(mmu_walk_cycles),
    .walk_max_o(mmu_walk_max),
    .in_valid_i(a_valid),
    .in_ready_o(a_ready),
    .in_req_i(a_req),
    .in_vmid_i(a_vmid),
    .up_valid_o(u_valid),
    .up_rsp_o(u_rsp),
    .mem_req_valid_o,
    .mem_req_ready_i,
    .mem_req_o(m_req),
    .mem_rsp_valid_i(m_rsp_valid_q),
    .mem_rsp_i(m_rsp_q)
  );
  // The memory port's pins (regspec/gpu_top_ports.json) are the MMU's request.
  assign mem_req_id_o = m_req.id;
  assign mem_req_addr_o = m_req.addr;
  assign mem_req_we_o = m_req.we;
  assign mem_req_wdata_o = m_req.wdata;
  assign mem_req_wstrb_o = m_req.wstrb;

`ifndef SYNTHESIS
  // Assertions (Verilator --assert; a failure is a model error, gm.h).
  always_ff @(posedge clk_i) begin
    // Without an invalidation asked nothing is granted: it holds.
    if (rst_ni && (r_inv || q_inv != '0)) begin
      // One TLB invalidation a cycle: the register's, else one queue's that asks.
      a_top_inv_one: assert ($onehot0(q_inv_ready) && (q_inv_ready & ~q_inv) == '0 &&
                             !(r_inv && q_inv_ready != '0))
        else $error("gpu_top: invalidation grants %b for requests %b (register %0d)", q_inv_ready,
                    q_inv, r_inv);
      // The host keeps the aperture port's protocol (model/gm_apt.c): a
      // request only while apt_req_ready_o.  So the host never meets
      // back-pressure on the cycle it sends; c_apt_host_not_ready counts
      // the cycles it has to wait instead.
    end
    if (rst_ni) begin
      a_top_apt_host_protocol: assert (!(apt_req_valid_i && !apt_req_ready_o))
        else $error("gpu_top: aperture request while not ready");
    end
    // Without a command offered none is taken: it holds.
    if (rst_ni && ce_cmd_valid) begin
      // The copy engine takes a command from the queue it names.
      a_top_ce_pick: assert (!(ce_cmd_valid && ce_cmd_ready) || qc_valid[ce_pick])
        else $error("gpu_top: copy-engine command from idle queue %0d", ce_pick);
    end
  end

  // Cover points: the corner cases a regression should reach (counted by
  // the coverage build, Verilator --coverage-user; ignored elsewhere).
  c_both_queues_invalidate: cover property (@(posedge clk_i) q_inv[0] && q_inv[1]);
  // A register invalidation (MMU_INV_CTL.GO) and a queue's INVALIDATE_TLB in one cycle.
  c_reg_and_queue_invalidate: cover property (@(posedge clk_i) r_inv && (|q_inv));
  // A queue's INVALIDATE_TLB refused (it waits a cycle).
  c_queue_invalidate_refused: cover property (@(posedge clk_i) (|(q_inv & ~q_inv_ready)));
  c_mem_port_backpressure: cover property (@(posedge clk_i) mem_req_valid_o && !mem_req_ready_i);
  c_ce_cmd_backpressure: cover property (@(posedge clk_i) (|qc_valid) && !ce_cmd_ready);
  // Was c_apt_host_backpressure (apt_req_valid_i && !apt_req_ready_o):
  // unreachable with a host that keeps the protocol (a_top_apt_host_protocol).
  // The reachable back-pressure: the aperture's host FIFO is full.
  c_apt_host_not_ready: cover property (@(posedge clk_i) !apt_req_ready_o);
  c_irq_fence_and_error: cover property (@(posedge clk_i) irq_o && (|q_fence_irq) && (|q_err_irq));
  // An MMU fault and an aperture write error raise INT_STATUS in one cycle.
  c_irq_fault_and_apt: cover property (@(posedge clk_i) fault && apt_err_irq);
`endif

endmodule

`default_nettype wire
