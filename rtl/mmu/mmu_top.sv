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
  // A parked request: its key (id, vmid, address, write; what the walker
  // and the conflict check read, one word) and its data and strobes (copied
  // only when it goes to the output buffer).
  typedef struct packed {
    logic [MemIdW-1:0]    id;
    logic [3:0]           vmid;
    logic [47:0]          addr;
    logic                 we;
  } mmu_key_t;
  typedef struct packed {
    logic [BB-1:0]        wdata;
    logic [BeatBytes-1:0] wstrb;
  } mmu_dat_t;
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
  // source and its address (the rest comes from the source, in storage).
  logic out_valid_d;
  out_sel_e out_sel_d;
  logic [47:0] out_addr_d;
  // Output buffer: two entries, head in slot 0.  Room is judged on the
  // registered count alone, so no logic here waits on mem_req_ready_i in the
  // same cycle (the memory port's ready only pops the head).  The entries
  // move only on a pop or a push (storage, below); an empty slot is zero.
  logic [1:0] ob_valid_q, ob_valid_d;
  mmu_out_t ob_q [2];
  logic ob_pop, ob_slot;

  logic syn_valid_q, syn_valid_d, syn_fault_q, syn_fault_d;
  logic [MemIdW-1:0] syn_id_q, syn_id_d;

  // Miss FIFO: head in entry 0, shifted only on a pop (storage, below).
  logic [MissDepth-1:0] mq_valid_q, mq_valid_d;
  mmu_key_t mq_key_q [MissDepth];
  mmu_dat_t mq_dat_q [MissDepth];
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
  // Its key, read only with a head (every reader is the walker's, or a
  // fault of the head's): zero without one.  Through a whole struct, not
  // mq_key_q[0].field, which Yosys 0.23 does not read.
  logic [MemIdW-1:0] h_id;
  logic [3:0] h_vmid;
  logic [47:0] h_va;
  logic h_we;
  mmu_key_t mq_head;
  always_comb begin
    mq_head = '0;
    if (mq_valid_q[0]) mq_head = mq_key_q[0];
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
  logic in_phys;

  // The TLB is looked up only for the head's check or a translated input.
  always_comb begin
    lk_head = 1'b0;
    in_phys = 1'b0;
    lk_en = 1'b0;
    lk_vmid = in_vmid_i;
    lk_va = in_addr_i;
    if (wk_q == WkCheck) begin
      lk_head = 1'b1;
      lk_en = 1'b1;
      lk_vmid = h_vmid;
      lk_va = h_va;
    end else if (in_valid_i) begin  // in_phys is read only for an input
      in_phys = !enable_i || in_vmid_i == 4'd0;
      lk_en = !in_phys;
    end
  end
  // The PTE's frame, read only when the walk is done (the fill and the PA).
  always_comb begin
    pte_pa = '0;
    pte_null = 1'b0;
    if (wk_q == WkDone) begin
      pte_pa = (wk_pte_q[PteSysLsb] ? SysmemBase[47:12] : 36'(VramBase) >> 12) +
               {8'd0, wk_pte_q[PteAddrLsb +: PteAddrW]};
      pte_null = !wk_pte_q[PteVLsb];
    end
  end

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

  // The outcome of a looked-up or walked translation for an access.
  function automatic logic [3:0] perm_fault(logic we, logic r, logic w, logic is_null);
    perm_fault = is_null ? FltNone : (we && !w) ? FltNoWrite : (!we && !r) ? FltNoRead : FltNone;
  endfunction

  // ---------------------------------------------------------------- activity
  // The idle path.  With the walker idle, no head, no input, no response,
  // no synthetic response waiting, no invalidation, nothing to send and the
  // walk length cleared, the block below changes nothing: m_act is 0, it
  // keeps its quiet values and the registers are not written.  m_busy_q is
  // set by a cycle with m_act and cleared by one without: with it clear the
  // state is quiet (it changes only with m_act), so only an input can
  // wake the MMU, and the state need not be looked at.
  // wk_act: the walker or the FIFO head has work (a part of m_act).
  logic m_busy_q, m_act, wk_act;
  always_comb begin
    wk_act = 1'b0;
    m_act = in_valid_i || mem_rsp_valid_i || inv_i;
    if (m_busy_q) begin
      wk_act = wk_q != WkIdle || mq_valid_q[0] || wlen_q != '0;
      m_act = m_act || wk_act || syn_valid_q || ob_valid_q[0];
    end
  end

  // ---------------------------------------------------------------- main
  logic out_free, syn_free, client_rsp;
  logic head_pop, in_take, in_park, in_fault, in_conflict;
  logic [3:0] flt;
  mmu_key_t mq_e;  // a parked request's key, for the conflict check
  logic mq_full;
  assign mq_full = &mq_valid_q;
  logic [8:0] wk_idx;
  logic [44:0] wk_entry_qw;  // the table entry's address in 8-byte units
  logic [63:0] wk_entry;
  logic wk_rsp;

  always_comb begin
    out_valid_d = 1'b0;
    out_sel_d = OutIn;
    out_addr_d = '0;
    syn_valid_d = 1'b0;
    syn_id_d = '0;
    syn_fault_d = 1'b0;
    mq_valid_d = '0;
    mq_park_idx = '0;
    wk_d = WkIdle;
    wk_level_d = '0;
    wk_table_d = '0;
    wk_stale_d = 1'b0;
    wk_pte_d = '0;
    wk_fault_d = FltNone;
    hits_d = '0;
    misses_d = '0;
    walks_d = '0;
    wcyc_d = '0;
    wlen_d = '0;
    wmax_d = '0;
    fill = 1'b0;
    lk_use = 1'b0;
    head_pop = 1'b0;
    in_take = 1'b0;
    in_park = 1'b0;
    in_conflict = 1'b0;
    mq_e = '0;
    flt = FltNone;
    fault_o = 1'b0;
    in_fault = 1'b0;
    out_free = 1'b0;
    syn_free = 1'b0;
    client_rsp = 1'b0;
    wk_idx = '0;
    wk_entry_qw = '0;
    wk_entry = '0;
    wk_rsp = 1'b0;

    if (m_act) begin
      out_free = !ob_valid_q[1];
      client_rsp = mem_rsp_valid_i && mem_rsp_id_i != WalkIdW;
      wk_rsp = mem_rsp_valid_i && mem_rsp_id_i == WalkIdW;
      syn_free = !syn_valid_q || !client_rsp;
      syn_valid_d = syn_valid_q && client_rsp;  // presented unless a memory response had the slot
      syn_id_d = syn_id_q;
      syn_fault_d = syn_fault_q;
      mq_valid_d = mq_valid_q;
      hits_d = hits_q;
      misses_d = misses_q;

      // Only an input with a parked request can conflict.
      if (in_valid_i && mq_valid_q != '0) begin
        for (int unsigned i = 0; i < MissDepth; i++) begin
          mq_e = mq_key_q[i];
          if (mq_valid_q[i] && mq_e.vmid == in_vmid_i && mq_e.addr[47:12] == in_addr_i[47:12])
            in_conflict = 1'b1;
        end
      end

      // The walker and the FIFO head, only with wk_act (idle: no head, the
      // walker in WkIdle, its registers keep their values; wlen_q is 0).
      if (wk_act) begin
        wk_d = wk_q;
        wk_level_d = wk_level_q;
        wk_table_d = wk_table_q;
        wk_stale_d = wk_stale_q || (inv_i && wk_q != WkIdle);
        wk_pte_d = wk_pte_q;
        wk_fault_d = wk_fault_q;
        walks_d = walks_q;
        // Walker busy: reading tables (a merged head's CHECK is not a walk).
        wcyc_d = wcyc_q + {31'd0, wk_q != WkIdle && wk_q != WkCheck};
        wlen_d = (wk_q == WkIdle) ? 32'd0 : wlen_q + 32'd1;
        wmax_d = wmax_q;

        // The table entry the walker reads or waits for.
        if (wk_q == WkRead || wk_q == WkWait) begin
          unique case (wk_level_q)
            2'd0: wk_idx = h_va[47:39];
            2'd1: wk_idx = h_va[38:30];
            2'd2: wk_idx = h_va[29:21];
            default: wk_idx = h_va[20:12];
          endcase
          wk_entry_qw = {wk_table_q[47:12], wk_idx};
          if (wk_q == WkWait) wk_entry = mem_rsp_rdata_i[64*wk_entry_qw[BeatLog2-4:0] +: 64];
        end

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

  // Output buffer: pop the head the memory port took, then append the push
  // (to slot ob_slot).  Apart from the block above: the memory port's ready
  // is a top-level input, and logic that reads one is evaluated again on
  // each input change, so only this reads it.  A head means m_act.
  always_comb begin
    ob_valid_d = ob_valid_q;
    ob_pop = 1'b0;
    ob_slot = 1'b0;
    if (m_act) begin
      ob_pop = ob_valid_q[0] && mem_req_ready_i;
      if (ob_pop) ob_valid_d = {1'b0, ob_valid_q[1]};
      ob_slot = ob_valid_d[0];
      if (out_valid_d) ob_valid_d[ob_slot] = 1'b1;
    end
  end

  // The fault report names the access that faulted: the input or the head.
  always_comb begin
    fault_va_o = h_va;
    fault_vmid_o = h_vmid;
    fault_client_o = 7'(h_id[MemIdW-1:1]);
    fault_write_o = h_we;
    fault_cause_o = FltNone;
    if (in_fault) begin
      fault_va_o = in_addr_i;
      fault_vmid_o = in_vmid_i;
      fault_client_o = 7'(in_id_i[MemIdW-1:1]);
      fault_write_o = in_we_i;
    end
    if (fault_o) fault_cause_o = flt;
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      m_busy_q <= 1'b1;
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
    end else begin
      m_busy_q <= m_act;
      if (m_act) begin  // else idle: the state stays as it is
        ob_valid_q <= ob_valid_d;
        syn_valid_q <= syn_valid_d;
        syn_id_q <= syn_id_d;
        syn_fault_q <= syn_fault_d;
        mq_valid_q <= mq_valid_d;
        hits_q <= hits_d;
        misses_q <= misses_d;
        if (wk_act) begin  // else the walker's _d are not formed
          wk_q <= wk_d;
          wk_level_q <= wk_level_d;
          wk_table_q <= wk_table_d;
          wk_stale_q <= wk_stale_d;
          wk_pte_q <= wk_pte_d;
          wk_fault_q <= wk_fault_d;
          walks_q <= walks_d;
          wcyc_q <= wcyc_d;
          wlen_q <= wlen_d;
          wmax_q <= wmax_d;
        end
      end
    end
  end

  // The miss FIFO and the output buffer (reset to zero, as their idle
  // contents show on the ports), written only when they move (each with
  // m_act): the FIFO shifts on a pop and takes a parked input at its first
  // free entry; the output buffer shifts on a pop (its tail clears) and
  // takes the push, formed here from its source (out_sel_d): the input, the
  // FIFO head or the walker's read.
  logic [47:0] out_beat;
  assign out_beat = out_addr_d & ~(48'(BeatBytes) - 48'd1);
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      for (int unsigned i = 0; i < MissDepth; i++) begin
        mq_key_q[i] <= '0;
        mq_dat_q[i] <= '0;
      end
      ob_q[0] <= '0;
      ob_q[1] <= '0;
    end else if (m_act) begin
      if (head_pop) begin
        for (int unsigned i = 0; i + 1 < MissDepth; i++) begin
          mq_key_q[i] <= mq_key_q[i+1];
          mq_dat_q[i] <= mq_dat_q[i+1];
        end
      end else if (in_park) begin
        mq_key_q[mq_park_idx] <= {in_id_i, in_vmid_i, in_addr_i, in_we_i};
        mq_dat_q[mq_park_idx] <= {in_wdata_i, in_wstrb_i};
      end
      if (ob_pop) begin
        ob_q[0] <= ob_q[1];
        ob_q[1] <= '0;
      end
      if (out_valid_d) begin
        unique case (out_sel_d)
          OutHead: ob_q[ob_slot] <= {h_id, out_beat, h_we, mq_dat_q[0]};
          OutWalk: ob_q[ob_slot] <= {WalkIdW, out_beat, 1'b0, BB'(0), BeatBytes'(0)};
          default: ob_q[ob_slot] <= {in_id_i, out_beat, in_we_i, in_wdata_i, in_wstrb_i};
        endcase
      end
    end
  end

  assign in_ready_o = in_take;
  // The head's fields (an empty head is all zeros).
  assign mem_req_valid_o = ob_valid_q[0];
  assign {mem_req_id_o, mem_req_addr_o, mem_req_we_o, mem_req_wdata_o, mem_req_wstrb_o} = ob_q[0];

  // Memory responses for clients first; a synthetic one waits for a gap.
  always_comb begin
    up_valid_o = syn_valid_q;
    up_id_o = syn_id_q;
    up_err_o = syn_fault_q;
    up_fault_o = syn_fault_q;
    up_rdata_o = '0;
    if (mem_rsp_valid_i && mem_rsp_id_i != WalkIdW) begin
      up_valid_o = 1'b1;
      up_id_o = mem_rsp_id_i;
      up_err_o = mem_rsp_err_i;
      up_fault_o = 1'b0;
      up_rdata_o = mem_rsp_rdata_i;
    end
  end

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
      // The checks on an event sit under it: Verilator evaluates every term
      // of an assertion's expression (here a 345-bit compare), the test of
      // an `if` only.
      if (a_stall_q) begin
        a_mmu_req_stable: assert (mem_req_valid_o && ob_q[0] == a_ob_q)
          else $error("mmu_top: the memory request changed while refused");
      end
      // No TLB fill from a walk that an invalidation overtook.
      if (fill) begin
        a_mmu_fill_fresh: assert (!(wk_stale_q || inv_i))
          else $error("mmu_top: TLB fill from a walk an invalidation overtook");
      end
      if (in_park) begin
        a_mmu_mq_no_overflow: assert (!mq_full)
          else $error("mmu_top: parked a miss in a full miss FIFO");
        a_mmu_pop_or_park: assert (!head_pop)
          else $error("mmu_top: the miss FIFO popped and parked in one cycle");
      end
      a_mmu_walk_state_legal: assert (walk_state_legal(wk_q))
        else $error("mmu_top: illegal walker state %h", wk_q);
      a_stall_q <= mem_req_valid_o && !mem_req_ready_i;
      // Kept only while refused (the check reads it only then).
      if (mem_req_valid_o && !mem_req_ready_i) a_ob_q <= ob_q[0];
    end
  end
  // With m_act (idle: neither buffer moves, so what held still holds).
  always_ff @(posedge clk_i) begin
    if (rst_ni && m_act) begin
      // The output buffer: filled from slot 0, never pushed when full.
      a_mmu_ob_bounds: assert (ob_valid_q != 2'b10 && !(out_valid_d && ob_valid_q[1]))
        else $error("mmu_top: output buffer %b, push %0d", ob_valid_q, out_valid_d);
      // The miss FIFO is filled from its head, without holes.
      a_mmu_mq_packed: assert ((mq_valid_q & (mq_valid_q + MissDepth'(1))) == '0)
        else $error("mmu_top: miss FIFO valid bits %b", mq_valid_q);
      // An empty head slot is zero (the port shows slot 0 as it is; slot 1
      // clears as it moves up).  Compared only when empty: it is wide.
      if (!ob_valid_q[0]) begin
        a_mmu_ob_empty_zero: assert (ob_q[0] == '0)
          else $error("mmu_top: empty output buffer head not zero");
      end
      // On events (idle: no response, no input, no synthetic one).
      // A synthetic response waiting for a gap keeps its id (nothing overwrites it).
      if (syn_valid_q && client_rsp) begin
        a_mmu_syn_held: assert (syn_valid_d && syn_id_d == syn_id_q)
          else $error("mmu_top: synthetic response %h overwritten", syn_id_q);
      end
      // The walker has one read in flight (id WalkId): its data comes only while it waits.
      if (wk_rsp) begin
        a_mmu_walk_one_read: assert (wk_q == WkWait)
          else $error("mmu_top: walker data in state %h", wk_q);
      end
      // The input is taken only when offered.
      if (in_take) begin
        a_mmu_take_valid: assert (in_valid_i)
          else $error("mmu_top: input taken with no request");
      end
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
