// SPDX-License-Identifier: MIT
//
// mmu_top: GPU virtual memory between the client arbiter and the memory port.
//
// Purpose: translate each client request of a VMID 1..15 through the TLB and,
// on a miss, the 4-level page-table walker; VMID 0 (or MMU_CTRL.ENABLE = 0)
// passes through untranslated.  A hit costs one cycle (the output buffer,
// two entries so the memory port's ready never reaches the logic above).
// Misses park in a MissDepth-entry FIFO while later requests that hit other
// pages go on; the walker serves the FIFO head, and a parked request whose
// page a walk has just filled is resolved from the TLB without a walk of its
// own (miss merging).  A request that touches a page some parked request
// waits for parks behind it, so one page's accesses never reorder.
//
// Outcomes of a translation:
//  - valid page with the permission: the request goes to memory at the PA;
//  - null tile (PTE V=0, PRT=1): reads answer zero, writes are acknowledged
//    and dropped, without touching memory;
//  - fault: the request is answered with err and fault set, and fault_o
//    pulses with VA, VMID, client, write and cause for the fault registers.
//
// An invalidation (inv_i) drops matching TLB entries at once and marks a
// walk in flight stale: its result is not filled and the walk restarts, so
// no entry older than the invalidation survives it.
//
// Responses: memory responses for clients pass straight up; the walker's
// own reads (id WalkId) stay here.  Synthetic responses (null tiles, faults)
// wait in one register for a cycle with no memory response for a client.

`default_nettype none

module mmu_top #(
  parameter int unsigned BeatBytes = 32,
  parameter int unsigned MemIdW = 8,
  parameter int unsigned TlbEntries = 16,
  parameter int unsigned MissDepth = 2
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  // Configuration
  input  logic                   enable_i,
  input  logic [16*48-1:0]       root_i,        // L0 table of VMID v in slice v
  input  logic                   inv_i,
  input  logic                   inv_all_i,
  input  logic [3:0]             inv_vmid_i,
  input  logic [31:0]            inv_start_i,
  input  logic [31:0]            inv_end_i,
  // Fault report and counters
  output logic                   fault_o,
  output logic [47:0]            fault_va_o,
  output logic [3:0]             fault_vmid_o,
  output logic [6:0]             fault_client_o,
  output logic                   fault_write_o,
  output logic [3:0]             fault_cause_o,
  output logic [31:0]            hits_o,
  output logic [31:0]            misses_o,
  output logic [31:0]            walks_o,
  output logic [31:0]            walk_cycles_o,
  output logic [31:0]            walk_max_o,
  // Upstream: requests from the client arbiter, responses back to it
  input  logic                   in_valid_i,
  output logic                   in_ready_o,
  input  logic [MemIdW-1:0]      in_id_i,
  input  logic [3:0]             in_vmid_i,
  input  logic [47:0]            in_addr_i,
  input  logic                   in_we_i,
  input  logic [BeatBytes*8-1:0] in_wdata_i,
  input  logic [BeatBytes-1:0]   in_wstrb_i,
  output logic                   up_valid_o,
  output logic [MemIdW-1:0]      up_id_o,
  output logic                   up_err_o,
  output logic                   up_fault_o,
  output logic [BeatBytes*8-1:0] up_rdata_o,
  // Downstream: the memory master port
  output logic                   mem_req_valid_o,
  input  logic                   mem_req_ready_i,
  output logic [MemIdW-1:0]      mem_req_id_o,
  output logic [47:0]            mem_req_addr_o,
  output logic                   mem_req_we_o,
  output logic [BeatBytes*8-1:0] mem_req_wdata_o,
  output logic [BeatBytes-1:0]   mem_req_wstrb_o,
  input  logic                   mem_rsp_valid_i,
  input  logic [MemIdW-1:0]      mem_rsp_id_i,
  input  logic                   mem_rsp_err_i,
  input  logic [BeatBytes*8-1:0] mem_rsp_rdata_i
);

  `include "gpu_defs.svh"

  localparam int unsigned BB = BeatBytes * 8;
  localparam int unsigned BeatLog2 = $clog2(BeatBytes);
  localparam logic [MemIdW-1:0] WalkIdW = MemIdW'(WalkId);  // regspec WALK_ID
  // A parked request: id, vmid, address, write, data, strobes.
  typedef struct packed {
    logic [MemIdW-1:0]    id;
    logic [3:0]           vmid;
    logic [47:0]          addr;
    logic                 we;
    logic [BB-1:0]        wdata;
    logic [BeatBytes-1:0] wstrb;
  } mmu_req_t;
  // A request to the memory port (beat aligned, translated).
  typedef struct packed {
    logic [MemIdW-1:0]    id;
    logic [47:0]          addr;
    logic                 we;
    logic [BB-1:0]        wdata;
    logic [BeatBytes-1:0] wstrb;
  } mmu_out_t;
  // Where the request pushed to the output buffer comes from; its data and
  // strobes are copied from there only when it is pushed.
  typedef enum logic [1:0] {
    OutIn,    // the input
    OutHead,  // the miss FIFO head
    OutWalk   // the walker's own read
  } out_sel_e;


  // ---------------------------------------------------------------- state
  // The request pushed to the output buffer this cycle (out_valid_d): its
  // source and its address (the rest comes from the source).
  logic out_valid_d;
  out_sel_e out_sel_d;
  logic [47:0] out_addr_d;
  mmu_out_t out_ent;
  // Output buffer: two entries, head in slot 0.  Room is judged on the
  // registered count alone, so no logic here waits on mem_req_ready_i in the
  // same cycle (the memory port's ready only pops the head).  The entries
  // move only on a pop or a push (storage, below).
  logic [1:0] ob_valid_q, ob_valid_d;
  mmu_out_t ob_q [2];
  logic ob_pop, ob_slot;

  logic syn_valid_q, syn_valid_d, syn_fault_q, syn_fault_d;
  logic [MemIdW-1:0] syn_id_q, syn_id_d;

  // Miss FIFO: head in entry 0, shifted only on a pop (storage, below).
  logic [MissDepth-1:0] mq_valid_q, mq_valid_d;
  mmu_req_t mq_q [MissDepth];
  logic [$clog2(MissDepth)-1:0] mq_park_idx;  // the first free entry

  walk_state_e wk_q, wk_d;
  logic [1:0] wk_level_q, wk_level_d;
  logic [47:0] wk_table_q, wk_table_d;
  logic wk_stale_q, wk_stale_d;
  logic [63:0] wk_pte_q, wk_pte_d;
  logic [3:0] wk_fault_q, wk_fault_d;

  logic [31:0] hits_q, hits_d, misses_q, misses_d, walks_q, walks_d, wcyc_q, wcyc_d;
  logic [31:0] wlen_q, wlen_d, wmax_q, wmax_d;  // this walk's length, the longest

  // ---------------------------------------------------------------- FIFO head
  logic [MemIdW-1:0] h_id;
  logic [3:0] h_vmid;
  logic [47:0] h_va;
  logic h_we;
  // Read only with a head (every reader is the walker's, or a fault of the
  // head's): no copy of the entry on a cycle without one.  Through a whole
  // struct, not mq_q[0].field, which Yosys 0.23 does not read.
  mmu_req_t mq_head;
  always_comb begin
    mq_head = '0;
    if (mq_valid_q[0]) mq_head = mq_q[0];
  end
  assign h_id = mq_head.id;
  assign h_vmid = mq_head.vmid;
  assign h_va = mq_head.addr;
  assign h_we = mq_head.we;

  // ---------------------------------------------------------------- TLB
  logic lk_head, lk_en, lk_use, lk_hit, lk_r, lk_w, lk_null;
  logic [3:0] lk_vmid;
  logic [47:0] lk_va, lk_pa;
  logic fill;
  logic [47:12] pte_pa;  // the page (or fragment) frame the PTE names
  logic pte_null;

  assign lk_head = wk_q == WkCheck;
  assign lk_vmid = lk_head ? h_vmid : in_vmid_i;
  assign lk_va = lk_head ? h_va : in_addr_i;
  assign pte_pa = (wk_pte_q[PteSysLsb] ? SysmemBase[47:12] : 36'(VramBase) >> 12) +
                  {8'd0, wk_pte_q[PteAddrLsb +: PteAddrW]};
  assign pte_null = !wk_pte_q[PteVLsb];

  mmu_tlb #(
    .TlbEntries(TlbEntries)
  ) u_tlb (
    .clk_i,
    .rst_ni,
    .lk_vmid_i(lk_vmid),
    .lk_va_i(lk_va),
    .lk_en_i(lk_en),
    .lk_use_i(lk_use),
    .lk_hit_o(lk_hit),
    .lk_pa_o(lk_pa),
    .lk_r_o(lk_r),
    .lk_w_o(lk_w),
    .lk_null_o(lk_null),
    .fill_i(fill),
    .fill_vmid_i(h_vmid),
    .fill_vpn_i(h_va[47:12]),
    .fill_pfn_i(pte_pa),
    .fill_big_i(wk_pte_q[PteFrag64kLsb] && !pte_null),  // FRAG64K is ignored on a null PTE
    .fill_r_i(wk_pte_q[PteRLsb]),
    .fill_w_i(wk_pte_q[PteWLsb]),
    .fill_null_i(pte_null),
    .inv_i,
    .inv_all_i,
    .inv_vmid_i,
    .inv_start_i,
    .inv_end_i
  );

  // ---------------------------------------------------------------- classify input
  logic in_phys, in_conflict, mq_full;
  assign in_phys = !enable_i || in_vmid_i == 4'd0;
  assign mq_full = &mq_valid_q;
  // The TLB is looked up only for the head's check or a translated input.
  assign lk_en = lk_head || (in_valid_i && !in_phys);
  // Only an input with a parked request can conflict.
  mmu_req_t mq_e;
  always_comb begin
    in_conflict = 1'b0;
    mq_e = '0;
    if (in_valid_i && mq_valid_q != '0) begin
      for (int unsigned i = 0; i < MissDepth; i++) begin
        mq_e = mq_q[i];
        if (mq_valid_q[i] && mq_e.vmid == in_vmid_i && mq_e.addr[47:12] == in_addr_i[47:12])
          in_conflict = 1'b1;
      end
    end
  end

  // ---------------------------------------------------------------- walker entry
  logic [8:0] wk_idx;
  logic [44:0] wk_entry_qw;  // the entry's address in 8-byte units
  logic [63:0] wk_entry;
  logic wk_rsp;
  always_comb begin  // read only while the walker reads a table or waits for it
    wk_idx = '0;
    if (wk_q == WkRead || wk_q == WkWait) begin
      unique case (wk_level_q)
        2'd0: wk_idx = h_va[47:39];
        2'd1: wk_idx = h_va[38:30];
        2'd2: wk_idx = h_va[29:21];
        default: wk_idx = h_va[20:12];
      endcase
    end
  end
  assign wk_entry_qw = {wk_table_q[47:12], wk_idx};
  always_comb begin
    wk_entry = '0;
    if (wk_q == WkWait) wk_entry = mem_rsp_rdata_i[64*wk_entry_qw[BeatLog2-4:0] +: 64];  // its only reader
  end
  assign wk_rsp = mem_rsp_valid_i && mem_rsp_id_i == WalkIdW;

  // The outcome of a looked-up or walked translation for an access.
  function automatic logic [3:0] perm_fault(logic we, logic r, logic w, logic is_null);
    perm_fault = is_null ? FltNone : (we && !w) ? FltNoWrite : (!we && !r) ? FltNoRead : FltNone;
  endfunction

  // ---------------------------------------------------------------- main
  logic out_free, syn_free, client_rsp;
  logic head_pop, in_take, in_park, in_fault;
  logic [3:0] flt;

  assign out_free = !ob_valid_q[1];
  assign client_rsp = mem_rsp_valid_i && mem_rsp_id_i != WalkIdW;
  assign syn_free = !syn_valid_q || !client_rsp;

  // The idle path.  With the walker idle, no head, no input, no response,
  // no synthetic response waiting, no invalidation, nothing to send and the
  // walk length cleared, the block below changes nothing: m_act is 0, it
  // keeps its defaults and its registers are not written.
  logic m_act;
  assign m_act = wk_q != WkIdle || mq_valid_q[0] || in_valid_i || mem_rsp_valid_i || syn_valid_q ||
                 inv_i || ob_valid_q[0] || wlen_q != '0;

  always_comb begin
    out_valid_d = 1'b0;
    out_sel_d = OutIn;
    out_addr_d = '0;
    syn_valid_d = syn_valid_q && client_rsp;  // presented unless a memory response had the slot
    syn_id_d = syn_id_q;
    syn_fault_d = syn_fault_q;
    mq_valid_d = mq_valid_q;
    mq_park_idx = '0;
    wk_d = wk_q;
    wk_level_d = wk_level_q;
    wk_table_d = wk_table_q;
    wk_stale_d = wk_stale_q || (inv_i && wk_q != WkIdle);
    wk_pte_d = wk_pte_q;
    wk_fault_d = wk_fault_q;
    hits_d = hits_q;
    misses_d = misses_q;
    walks_d = walks_q;
    // Walker busy: reading tables (a merged head's CHECK is not a walk).
    wcyc_d = wcyc_q + {31'd0, wk_q != WkIdle && wk_q != WkCheck};
    wlen_d = (wk_q == WkIdle) ? 32'd0 : wlen_q + 32'd1;
    wmax_d = wmax_q;
    fill = 1'b0;
    lk_use = 1'b0;
    head_pop = 1'b0;
    in_take = 1'b0;
    in_park = 1'b0;
    flt = FltNone;
    fault_o = 1'b0;
    in_fault = 1'b0;

    if (m_act) begin
      // Walker and FIFO head (they own the output and synthetic slots first).
      unique case (wk_q)
        WkIdle: if (mq_valid_q[0]) wk_d = WkCheck;
        WkCheck: begin
          if (lk_hit) begin
            // Merged: an earlier walk filled this page.
            flt = perm_fault(h_we, lk_r, lk_w, lk_null);
            if (flt == FltNone && !lk_null && out_free) begin
              out_valid_d = 1'b1;
              out_sel_d = OutHead;
              out_addr_d = lk_pa;
              head_pop = 1'b1;
            end else if ((flt != FltNone || lk_null) && syn_free) begin
              syn_valid_d = 1'b1;
              syn_id_d = h_id;
              syn_fault_d = flt != FltNone;
              head_pop = 1'b1;
            end
            // Counted once, as the miss it parked on; not again as a hit.
            lk_use = head_pop;
          end else begin
            wk_d = WkRead;
            wk_level_d = 2'd0;
            wk_table_d = root_i[48*h_vmid +: 48];
            wk_stale_d = 1'b0;
          end
        end
        WkRead: if (out_free) begin
          out_valid_d = 1'b1;
          out_sel_d = OutWalk;
          out_addr_d = {wk_entry_qw[44:BeatLog2-3], {BeatLog2{1'b0}}};
          wk_d = WkWait;
        end
        WkWait: if (wk_rsp) begin
          wk_pte_d = wk_entry;
          if (mem_rsp_err_i) begin
            wk_fault_d = FltWalkError;
            wk_d = WkDone;
          end else if (wk_level_q != 2'd3) begin
            if (!wk_entry[PdeVLsb]) begin
              wk_fault_d = FltPdeInvalid;
              wk_d = WkDone;
            end else if ((wk_entry & PdeReserved) != '0) begin
              wk_fault_d = FltReserved;
              wk_d = WkDone;
            end else begin
              wk_table_d = (wk_entry[PdeSysLsb] ? SysmemBase[47:0] : 48'(VramBase)) +
                           {8'd0, wk_entry[PdeAddrLsb +: PdeAddrW], 12'h000};
              wk_level_d = wk_level_q + 2'd1;
              wk_d = WkRead;
            end
          end else begin
            if ((wk_entry & PteReserved) != '0) wk_fault_d = FltReserved;
            else if (!wk_entry[PteVLsb] && !wk_entry[PtePrtLsb]) wk_fault_d = FltPteInvalid;
            else wk_fault_d = FltNone;
            wk_d = WkDone;
          end
        end
        WkDone: begin
          if (wk_stale_q || inv_i) begin
            // Invalidated during the walk: the entries read may be stale.
            wk_d = WkCheck;
          end else begin
            flt = wk_fault_q != FltNone ? wk_fault_q :
                  perm_fault(h_we, wk_pte_q[PteRLsb], wk_pte_q[PteWLsb], pte_null);
            if (flt == FltNone && !pte_null && out_free) begin
              out_valid_d = 1'b1;
              out_sel_d = OutHead;
              out_addr_d = wk_pte_q[PteFrag64kLsb] ? {pte_pa[47:16], h_va[15:0]} : {pte_pa[47:12], h_va[11:0]};
              head_pop = 1'b1;
            end else if ((flt != FltNone || pte_null) && syn_free) begin
              syn_valid_d = 1'b1;
              syn_id_d = h_id;
              syn_fault_d = flt != FltNone;
              head_pop = 1'b1;
            end
            // Cache what the walk found, faults excepted.
            fill = head_pop && wk_fault_q == FltNone;
            if (head_pop) begin
              walks_d = walks_q + 32'd1;
              if (wlen_q + 32'd1 > wmax_q) wmax_d = wlen_q + 32'd1;
            end
          end
        end
        default: wk_d = WkIdle;
      endcase

      if (head_pop) begin
        wk_d = WkIdle;
        fault_o = flt != FltNone;
      end

      // The input, when the head left it room.
      if (in_valid_i && !lk_head && !fault_o) begin
        if (in_phys) begin
          if (out_free && !out_valid_d) begin
            in_take = 1'b1;
            out_valid_d = 1'b1;
            out_sel_d = OutIn;
            out_addr_d = in_addr_i;
          end
        end else if (lk_hit && !in_conflict) begin
          flt = perm_fault(in_we_i, lk_r, lk_w, lk_null);
          if (flt == FltNone && !lk_null) begin
            if (out_free && !out_valid_d) begin
              in_take = 1'b1;
              out_valid_d = 1'b1;
              out_sel_d = OutIn;
              out_addr_d = lk_pa;
            end
          end else if (syn_free && !syn_valid_d) begin
            in_take = 1'b1;
            syn_valid_d = 1'b1;
            syn_id_d = in_id_i;
            syn_fault_d = flt != FltNone;
            in_fault = flt != FltNone;
            fault_o = in_fault;
          end
          lk_use = in_take;
          if (in_take) hits_d = hits_q + 32'd1;
        end else if (!mq_full && !head_pop) begin
          // A miss, or a page a parked request waits for: park it.
          in_take = 1'b1;
          in_park = 1'b1;
          misses_d = misses_q + 32'd1;
        end
      end

      // FIFO: pop the head, then append (never both in one cycle, see above);
      // the entries move in the storage below.
      if (head_pop) begin
        for (int unsigned i = 0; i + 1 < MissDepth; i++) mq_valid_d[i] = mq_valid_q[i+1];
        mq_valid_d[MissDepth-1] = 1'b0;
      end
      if (in_park) begin
        for (int unsigned i = MissDepth; i > 0; i--) begin
          if (!mq_valid_q[i-1]) begin
            mq_park_idx = ($clog2(MissDepth))'(i - 1);
            mq_valid_d = mq_valid_q;
            mq_valid_d[i-1] = 1'b1;
          end
        end
      end
    end
  end

  // The fault report names the access that faulted: the input or the head.
  always_comb begin
    fault_va_o = in_fault ? in_addr_i : h_va;
    fault_vmid_o = in_fault ? in_vmid_i : h_vmid;
    fault_client_o = 7'(in_fault ? in_id_i[MemIdW-1:1] : h_id[MemIdW-1:1]);
    fault_write_o = in_fault ? in_we_i : h_we;
    fault_cause_o = fault_o ? flt : FltNone;
  end

  // Output buffer: pop the head the memory port took, then append the push
  // (to slot ob_slot).  The entry pushed is formed only when there is one.
  always_comb begin
    ob_valid_d = ob_valid_q;
    ob_pop = ob_valid_q[0] && mem_req_ready_i;
    if (ob_pop) ob_valid_d = {1'b0, ob_valid_q[1]};
    ob_slot = ob_valid_d[0];
    if (out_valid_d) ob_valid_d[ob_slot] = 1'b1;
  end

  always_comb begin
    out_ent = '0;
    if (out_valid_d) begin
      out_ent.addr = out_addr_d & ~(48'(BeatBytes) - 48'd1);
      unique case (out_sel_d)
        OutHead: begin
          out_ent.id = h_id;
          out_ent.we = h_we;
          out_ent.wdata = mq_head.wdata;
          out_ent.wstrb = mq_head.wstrb;
        end
        OutWalk: out_ent.id = WalkIdW;
        default: begin
          out_ent.id = in_id_i;
          out_ent.we = in_we_i;
          out_ent.wdata = in_wdata_i;
          out_ent.wstrb = in_wstrb_i;
        end
      endcase
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      ob_valid_q <= '0;
      syn_valid_q <= 1'b0;
      syn_id_q <= '0;
      syn_fault_q <= 1'b0;
      mq_valid_q <= '0;
      wk_q <= WkIdle;
      wk_level_q <= '0;
      wk_table_q <= '0;
      wk_stale_q <= 1'b0;
      wk_pte_q <= '0;
      wk_fault_q <= FltNone;
      hits_q <= '0;
      misses_q <= '0;
      walks_q <= '0;
      wcyc_q <= '0;
      wlen_q <= '0;
      wmax_q <= '0;
    end else if (m_act) begin  // else idle: every _d is its _q
      ob_valid_q <= ob_valid_d;
      syn_valid_q <= syn_valid_d;
      syn_id_q <= syn_id_d;
      syn_fault_q <= syn_fault_d;
      mq_valid_q <= mq_valid_d;
      wk_q <= wk_d;
      wk_level_q <= wk_level_d;
      wk_table_q <= wk_table_d;
      wk_stale_q <= wk_stale_d;
      wk_pte_q <= wk_pte_d;
      wk_fault_q <= wk_fault_d;
      hits_q <= hits_d;
      misses_q <= misses_d;
      walks_q <= walks_d;
      wcyc_q <= wcyc_d;
      wlen_q <= wlen_d;
      wmax_q <= wmax_d;
    end
  end

  // The miss FIFO and the output buffer (reset to zero, as their idle
  // contents show on the ports), written only when they move: the FIFO
  // shifts on a pop and takes a parked input at its first free entry; the
  // output buffer shifts on a pop (its tail clears) and takes the push.
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      for (int unsigned i = 0; i < MissDepth; i++) mq_q[i] <= '0;
      ob_q[0] <= '0;
      ob_q[1] <= '0;
    end else begin
      if (head_pop) begin
        for (int unsigned i = 0; i + 1 < MissDepth; i++) mq_q[i] <= mq_q[i+1];
      end else if (in_park) begin
        mq_q[mq_park_idx] <= {in_id_i, in_vmid_i, in_addr_i, in_we_i, in_wdata_i, in_wstrb_i};
      end
      if (ob_pop) begin
        ob_q[0] <= ob_q[1];
        ob_q[1] <= '0;
      end
      if (out_valid_d) ob_q[ob_slot] <= out_ent;
    end
  end

  assign in_ready_o = in_take;
  assign mem_req_valid_o = ob_valid_q[0];
  mmu_out_t ob_head;
  // The head's fields only with its valid (an empty head is all zeros too).
  always_comb begin
    ob_head = '0;
    if (ob_valid_q[0]) ob_head = ob_q[0];
  end
  assign mem_req_id_o = ob_head.id;
  assign mem_req_addr_o = ob_head.addr;
  assign mem_req_we_o = ob_head.we;
  assign mem_req_wdata_o = ob_head.wdata;
  assign mem_req_wstrb_o = ob_head.wstrb;

  // Memory responses for clients first; a synthetic one waits for a gap.
  assign up_valid_o = client_rsp || syn_valid_q;
  assign up_id_o = client_rsp ? mem_rsp_id_i : syn_id_q;
  assign up_err_o = client_rsp ? mem_rsp_err_i : syn_fault_q;
  assign up_fault_o = !client_rsp && syn_fault_q;
  assign up_rdata_o = client_rsp ? mem_rsp_rdata_i : '0;

  assign hits_o = hits_q;
  assign misses_o = misses_q;
  assign walks_o = walks_q;
  assign walk_cycles_o = wcyc_q;
  assign walk_max_o = wmax_q;

`ifndef SYNTHESIS
  // Assertions (Verilator --assert; a failure is a model error, gm.h).
  // Valid/ready at the memory port: a request held while refused stays the same.
  logic a_stall_q;
  mmu_out_t a_ob_q;
  // Checked with m_act (idle: no request held or sent, no fill, park or
  // pop, the walker in WkIdle; a_stall_q is 0 and stays 0).
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      a_stall_q <= 1'b0;
    end else if (m_act) begin
      a_mmu_req_stable: assert (!a_stall_q || (mem_req_valid_o && ob_head == a_ob_q))
        else $error("mmu_top: the memory request changed while refused");
      // No TLB fill from a walk that an invalidation overtook.
      a_mmu_fill_fresh: assert (!(fill && (wk_stale_q || inv_i)))
        else $error("mmu_top: TLB fill from a walk an invalidation overtook");
      a_mmu_mq_no_overflow: assert (!(in_park && mq_full))
        else $error("mmu_top: parked a miss in a full miss FIFO");
      a_mmu_pop_or_park: assert (!(in_park && head_pop))
        else $error("mmu_top: the miss FIFO popped and parked in one cycle");
      a_mmu_walk_state_legal: assert (walk_state_legal(wk_q))
        else $error("mmu_top: illegal walker state %h", wk_q);
      a_stall_q <= mem_req_valid_o && !mem_req_ready_i;
    end
    // Kept only while refused (the check reads it only then).
    if (mem_req_valid_o && !mem_req_ready_i) a_ob_q <= ob_head;
  end
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      // The output buffer: filled from slot 0, never pushed when full.
      a_mmu_ob_bounds: assert (ob_valid_q != 2'b10 && !(out_valid_d && ob_valid_q[1]))
        else $error("mmu_top: output buffer %b, push %0d", ob_valid_q, out_valid_d);
      // The miss FIFO is filled from its head, without holes.
      a_mmu_mq_packed: assert ((mq_valid_q & (mq_valid_q + MissDepth'(1))) == '0)
        else $error("mmu_top: miss FIFO valid bits %b", mq_valid_q);
    end
    // On events, with m_act (idle: no response, no input, no synthetic one).
    if (rst_ni && m_act) begin
      // A synthetic response waiting for a gap keeps its id (nothing overwrites it).
      a_mmu_syn_held: assert (!(syn_valid_q && client_rsp) || (syn_valid_d && syn_id_d == syn_id_q))
        else $error("mmu_top: synthetic response %h overwritten", syn_id_q);
      // The walker has one read in flight (id WalkId): its data comes only while it waits.
      a_mmu_walk_one_read: assert (!(wk_rsp && wk_q != WkWait))
        else $error("mmu_top: walker data in state %h", wk_q);
      // The input is taken only when offered.
      a_mmu_take_valid: assert (!(in_take && !in_valid_i))
        else $error("mmu_top: input taken with no request");
    end
  end

  // Cover points (Verilator --coverage-user).
  // Back-pressure on every output slot: the memory port refuses the head,
  c_mmu_port_refused: cover property (@(posedge clk_i) mem_req_valid_o && !mem_req_ready_i);
  // a translated or physical input waits for a full output buffer,
  c_mmu_in_out_full: cover property (@(posedge clk_i) in_valid_i && !lk_head && !fault_o && !out_free &&
                                     (in_phys || (lk_hit && !in_conflict && !lk_null &&
                                                  perm_fault(in_we_i, lk_r, lk_w, lk_null) == FltNone)));
  // the walker's table read waits for it,
  c_mmu_walk_out_full: cover property (@(posedge clk_i) wk_q == WkRead && !out_free);
  // a merged head (WkCheck hit) or a walked head waits for it,
  c_mmu_head_out_full: cover property (@(posedge clk_i) !out_free && !head_pop &&
                                       ((wk_q == WkCheck && lk_hit) ||
                                        (wk_q == WkDone && !wk_stale_q && !inv_i)));
  // a null or faulting result waits for the synthetic slot (a memory
  // response for a client has the upstream port this cycle),
  c_mmu_syn_busy: cover property (@(posedge clk_i) syn_valid_q && client_rsp);
  c_mmu_head_syn_full: cover property (@(posedge clk_i) !syn_free && !head_pop &&
                                       ((wk_q == WkCheck && lk_hit) || (wk_q == WkDone && !wk_stale_q && !inv_i)));
  // an input null tile or fault waits because the head took the slot this cycle,
  c_mmu_in_syn_taken: cover property (@(posedge clk_i) in_valid_i && !lk_head && !fault_o && !in_phys &&
                                      lk_hit && !in_conflict && !in_take &&
                                      (lk_null || perm_fault(in_we_i, lk_r, lk_w, lk_null) != FltNone));
  // and a miss waits for a full miss FIFO.
  c_mmu_mq_full: cover property (@(posedge clk_i) in_valid_i && !in_phys && !lk_head && mq_full && !in_take);
  // A request on a page a parked request waits for parks behind it.
  c_mmu_conflict_park: cover property (@(posedge clk_i) in_park && in_conflict);
  // Miss merging: the head finds its page filled by an earlier walk.
  c_mmu_merged: cover property (@(posedge clk_i) wk_q == WkCheck && lk_hit);
  // An invalidation overtakes a walk: it restarts.
  c_mmu_walk_restart: cover property (@(posedge clk_i) wk_q == WkDone && (wk_stale_q || inv_i));
  // A directory-level reserved-bit fault.
  c_mmu_pde_reserved: cover property (@(posedge clk_i) wk_rsp && wk_q == WkWait && !mem_rsp_err_i &&
                                      wk_level_q != 2'd3 && wk_entry[PdeVLsb] &&
                                      (wk_entry & PdeReserved) != '0);
`endif

endmodule

`default_nettype wire
