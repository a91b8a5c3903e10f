// SPDX-License-Identifier: MIT
//
// mmu_walk: the MMU's page-table walker, serving the head of the miss
// queue (mmu_mq) for mmu_top.
//
// Purpose: for the parked head, look its page up in the TLB once more
// (WkCheck: an earlier walk may have filled it; a hit is a merged miss),
// else read the four table levels from the root of the head's VMID
// (WkRead issues an entry's beat through mmu_top's output buffer, WkWait
// takes the memory's answer, id WalkId), then resolve the head (WkDone):
// to memory at the PA, or a synthetic response for a null tile or a
// fault.  What the walk found is filled into the TLB (faults excepted).
// The page-walk cache (mmu_pwc) is looked up with the TLB check: a PTE
// line hit ends the walk without a memory read, a PDE hit starts it at
// the leaf table (one read); the walk's fresh level-2 entry and leaf beat
// fill it, and any invalidation empties it.
// An invalidation during a walk marks it stale: it restarts from WkCheck,
// so no entry older than the invalidation is filled.  Counts the walks
// that read memory, the cycles they spent and the longest walk; reports
// each head it resolves as a hit (an earlier walk filled its page) or a
// miss (a walk of its own).
//
// How to drive it: act_o (from registers: busy_i, a walk, a head or a
// walk length to clear) says the walker has work this cycle; mmu_top
// folds it into its m_act and gives out_free_i and syn_free_i (room in
// its output buffer and synthetic response slot, formed without the
// walker's outputs).  The head's push (out_valid_o: its own table read,
// or the resolved head, out_head_o) and synthetic response (syn_valid_o)
// have those slots before the input; pop_o pops the head, with fault_o
// and flt_o when it faulted.  Without act_o nothing changes.

`default_nettype none

module mmu_walk #(
  parameter int unsigned BeatBytes = 32
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  input  logic                   busy_i,        // mmu_top's m_busy_q
  input  logic [16*48-1:0]       root_i,        // L0 table of VMID v in slice v
  input  logic                   inv_i,
  // The miss queue's head (zero without one)
  input  logic                   head_valid_i,
  input  logic [3:0]             h_vmid_i,
  input  logic [47:0]            h_va_i,
  input  logic                   h_we_i,
  // The TLB's answer for the head (looked up in WkCheck)
  input  logic                   lk_hit_i,
  input  logic [47:0]            lk_pa_i,
  input  logic                   lk_r_i,
  input  logic                   lk_w_i,
  input  logic                   lk_null_i,
  // Room in mmu_top's output buffer and synthetic slot (with m_act)
  input  logic                   out_free_i,
  input  logic                   syn_free_i,
  // The memory's answer to the walker's read (with m_act)
  input  logic                   rsp_valid_i,
  input  logic                   rsp_err_i,
  input  logic [BeatBytes*8-1:0] rsp_rdata_i,
  // To mmu_top
  output logic                   act_o,         // the walker or the head has work
  output logic [2:0]             state_o,       // walk_state_e
  output logic                   out_valid_o,   // a push to the output buffer
  output logic                   out_head_o,    // ... of the head (else the table read)
  output logic [47:0]            out_addr_o,
  output logic                   syn_valid_o,   // a synthetic response for the head
  output logic                   syn_fault_o,
  output logic                   pop_o,         // the head is resolved
  output logic                   fault_o,       // ... with a fault
  output logic [3:0]             flt_o,         // mmu_fault_e
  output logic                   lk_use_o,      // the head used its TLB hit
  output logic                   hit_o,         // the head resolved from the TLB
  output logic                   miss_o,        // the head resolved by its walk
  // The TLB fill
  output logic                   fill_o,
  output logic [47:12]           pte_pa_o,      // the page (or fragment) frame the PTE names
  output logic                   pte_big_o,     // FRAG64K (ignored on a null PTE)
  output logic                   pte_r_o,
  output logic                   pte_w_o,
  output logic                   pte_null_o,
  // Counters
  output logic [31:0]            walks_o,
  output logic [31:0]            walk_cycles_o,
  output logic [31:0]            walk_max_o
);

  `include "gpu_defs.svh"

  localparam int unsigned BeatLog2 = $clog2(BeatBytes);

  walk_state_e wk_q, wk_d;
  logic [1:0] wk_level_q, wk_level_d;
  logic [47:0] wk_table_q, wk_table_d;
  logic wk_stale_q, wk_stale_d;
  logic [63:0] wk_pte_q, wk_pte_d;
  mmu_fault_e wk_fault_q, wk_fault_d;
  logic [31:0] walks_q, walks_d, wcyc_q, wcyc_d;
  logic [31:0] wlen_q, wlen_d, wmax_q, wmax_d;  // this walk's length, the longest
  logic wk_mem_q, wk_mem_d;  // this walk reads memory (else the PTE line cache served it)

  // The outcome of a looked-up or walked translation for an access (as
  // mmu_top's for an input).
  function automatic mmu_fault_e perm_fault(logic we, logic r, logic w, logic is_null);
    perm_fault = is_null ? FltNone : (we && !w) ? FltNoWrite : (!we && !r) ? FltNoRead : FltNone;
  endfunction

  // The idle path (mmu_top's activity): from registers only.
  assign act_o = busy_i && (wk_q != WkIdle || head_valid_i || wlen_q != '0);
  assign state_o = wk_q;

  // The PTE's frame, read only when the walk is done (the fill and the PA).
  always_comb begin
    pte_pa_o = '0;
    pte_null_o = 1'b0;
    if (wk_q == WkDone) begin
      pte_pa_o = (wk_pte_q[PteSysLsb] ? SysmemBase[47:12] : 36'(VramBase) >> 12) +
                 {8'd0, wk_pte_q[PteAddrLsb +: PteAddrW]};
      pte_null_o = !wk_pte_q[PteVLsb];
    end
  end
  assign pte_big_o = wk_pte_q[PteFrag64kLsb] && !pte_null_o;
  assign pte_r_o = wk_pte_q[PteRLsb];
  assign pte_w_o = wk_pte_q[PteWLsb];

  logic [8:0] wk_idx;
  logic [44:0] wk_entry_qw;  // the table entry's address in 8-byte units
  logic [63:0] wk_entry;

  // The page-walk cache: looked up in WkCheck, filled from fresh reads.
  logic pwc_lk, pwc_pde_hit, pwc_line_hit, pwc_pde_fill, pwc_line_fill;
  logic [47:12] pwc_table, pwc_next;
  logic [63:0] pwc_pte;
  // Not beside an invalidation: what it holds may be what is being dropped.
  assign pwc_lk = act_o && wk_q == WkCheck && !inv_i;
  mmu_pwc #(
    .BeatBytes(BeatBytes)
  ) u_pwc (
    .clk_i,
    .rst_ni,
    .lk_en_i(pwc_lk),
    .lk_vmid_i(h_vmid_i),
    .lk_vpn_i(h_va_i[47:12]),
    .pde_hit_o(pwc_pde_hit),
    .pde_table_o(pwc_table),
    .line_hit_o(pwc_line_hit),
    .line_pte_o(pwc_pte),
    .pde_fill_i(pwc_pde_fill),
    .line_fill_i(pwc_line_fill),
    .fill_vmid_i(h_vmid_i),
    .fill_vpn_i(h_va_i[47:12]),
    .fill_table_i(pwc_next),
    .fill_line_i(rsp_rdata_i),
    .flush_i(inv_i)
  );

  // Only with act_o (idle: no head, the walker in WkIdle, its registers
  // keep their values; wlen_q is 0).  Quiet values first.
  always_comb begin
    wk_d = WkIdle;
    wk_level_d = '0;
    wk_table_d = '0;
    wk_stale_d = 1'b0;
    wk_pte_d = '0;
    wk_fault_d = FltNone;
    walks_d = '0;
    wcyc_d = '0;
    wlen_d = '0;
    wmax_d = '0;
    out_valid_o = 1'b0;
    out_head_o = 1'b0;
    out_addr_o = '0;
    syn_valid_o = 1'b0;
    syn_fault_o = 1'b0;
    pop_o = 1'b0;
    fault_o = 1'b0;
    flt_o = FltNone;
    lk_use_o = 1'b0;
    hit_o = 1'b0;
    miss_o = 1'b0;
    wk_mem_d = 1'b0;
    pwc_pde_fill = 1'b0;
    pwc_line_fill = 1'b0;
    pwc_next = '0;
    fill_o = 1'b0;
    wk_idx = '0;
    wk_entry_qw = '0;
    wk_entry = '0;

    if (act_o) begin
      wk_d = wk_q;
      wk_level_d = wk_level_q;
      wk_table_d = wk_table_q;
      wk_stale_d = wk_stale_q || (inv_i && wk_q != WkIdle);
      wk_pte_d = wk_pte_q;
      wk_fault_d = wk_fault_q;
      wk_mem_d = wk_mem_q;
      walks_d = walks_q;
      // Walker busy: reading tables (a merged head's CHECK is not a walk,
      // nor one the PTE line cache ended).
      wcyc_d = wcyc_q + {31'd0, wk_q != WkIdle && wk_q != WkCheck && wk_mem_q};
      wlen_d = (wk_q == WkIdle) ? 32'd0 : wlen_q + 32'd1;
      wmax_d = wmax_q;

      // The table entry the walker reads or waits for.
      if (wk_q == WkRead || wk_q == WkWait) begin
        unique case (wk_level_q)
          2'd0: wk_idx = h_va_i[47:39];
          2'd1: wk_idx = h_va_i[38:30];
          2'd2: wk_idx = h_va_i[29:21];
          default: wk_idx = h_va_i[20:12];
        endcase
        wk_entry_qw = {wk_table_q[47:12], wk_idx};
        if (wk_q == WkWait) wk_entry = rsp_rdata_i[64*wk_entry_qw[BeatLog2-4:0] +: 64];
      end

      // Walker and head (they own the output and synthetic slots first).
      unique case (wk_q)
        WkIdle: if (head_valid_i) wk_d = WkCheck;
        WkCheck: begin
          if (lk_hit_i) begin
            // Merged: an earlier walk filled this page.
            flt_o = perm_fault(h_we_i, lk_r_i, lk_w_i, lk_null_i);
            if (flt_o == FltNone && !lk_null_i && out_free_i) begin
              out_valid_o = 1'b1;
              out_head_o = 1'b1;
              out_addr_o = lk_pa_i;
              pop_o = 1'b1;
            end else if ((flt_o != FltNone || lk_null_i) && syn_free_i) begin
              syn_valid_o = 1'b1;
              syn_fault_o = flt_o != FltNone;
              pop_o = 1'b1;
            end
            lk_use_o = pop_o;
            hit_o = pop_o;
          end else if (pwc_line_hit) begin
            // The leaf beat an earlier walk read holds a PTE the TLB could
            // cache: the walk ends here.
            wk_d = WkDone;
            wk_level_d = 2'd3;
            wk_pte_d = pwc_pte;
            wk_fault_d = FltNone;
            wk_stale_d = 1'b0;
            wk_mem_d = 1'b0;
          end else begin
            // From the leaf table the PDE cache names, else from the root.
            wk_d = WkRead;
            wk_level_d = pwc_pde_hit ? 2'd3 : 2'd0;
            wk_table_d = pwc_pde_hit ? {pwc_table, 12'h000} : root_i[48*h_vmid_i +: 48];
            wk_stale_d = 1'b0;
            wk_mem_d = 1'b1;
          end
        end
        WkRead: if (out_free_i) begin
          out_valid_o = 1'b1;
          out_addr_o = {wk_entry_qw[44:BeatLog2-3], {BeatLog2{1'b0}}};
          wk_d = WkWait;
        end
        WkWait: if (rsp_valid_i) begin
          wk_pte_d = wk_entry;
          // A fresh read (no invalidation overtook the walk) fills the
          // page-walk cache: a usable level-2 entry, or the leaf beat.
          pwc_next = (wk_entry[PdeSysLsb] ? SysmemBase[47:12] : 36'(VramBase) >> 12) +
                     {8'd0, wk_entry[PdeAddrLsb +: PdeAddrW]};
          if (!rsp_err_i && !wk_stale_q && !inv_i) begin
            pwc_pde_fill = wk_level_q == 2'd2 && wk_entry[PdeVLsb] && (wk_entry & PdeReserved) == '0;
            pwc_line_fill = wk_level_q == 2'd3;
          end
          if (rsp_err_i) begin
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
            flt_o = wk_fault_q != FltNone ? wk_fault_q :
                    perm_fault(h_we_i, wk_pte_q[PteRLsb], wk_pte_q[PteWLsb], pte_null_o);
            if (flt_o == FltNone && !pte_null_o && out_free_i) begin
              out_valid_o = 1'b1;
              out_head_o = 1'b1;
              out_addr_o = wk_pte_q[PteFrag64kLsb] ? {pte_pa_o[47:16], h_va_i[15:0]} :
                                                     {pte_pa_o[47:12], h_va_i[11:0]};
              pop_o = 1'b1;
            end else if ((flt_o != FltNone || pte_null_o) && syn_free_i) begin
              syn_valid_o = 1'b1;
              syn_fault_o = flt_o != FltNone;
              pop_o = 1'b1;
            end
            // Cache what the walk found, faults excepted.
            fill_o = pop_o && wk_fault_q == FltNone;
            miss_o = pop_o;
            if (pop_o) begin
              walks_d = walks_q + {31'd0, wk_mem_q};
              if (wlen_q + 32'd1 > wmax_q) wmax_d = wlen_q + 32'd1;
            end
          end
        end
        default: wk_d = WkIdle;
      endcase

      if (pop_o) begin
        wk_d = WkIdle;
        fault_o = flt_o != FltNone;
      end
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      wk_q <= WkIdle;
      wk_level_q <= '0;
      wk_table_q <= '0;
      wk_stale_q <= 1'b0;
      wk_pte_q <= '0;
      wk_fault_q <= FltNone;
      wk_mem_q <= 1'b0;
      walks_q <= '0;
      wcyc_q <= '0;
      wlen_q <= '0;
      wmax_q <= '0;
    end else if (act_o) begin  // else the walker's _d are not formed
      wk_q <= wk_d;
      wk_level_q <= wk_level_d;
      wk_table_q <= wk_table_d;
      wk_stale_q <= wk_stale_d;
      wk_pte_q <= wk_pte_d;
      wk_fault_q <= wk_fault_d;
      wk_mem_q <= wk_mem_d;
      walks_q <= walks_d;
      wcyc_q <= wcyc_d;
      wlen_q <= wlen_d;
      wmax_q <= wmax_d;
    end
  end

  assign walks_o = walks_q;
  assign walk_cycles_o = wcyc_q;
  assign walk_max_o = wmax_q;

`ifndef SYNTHESIS
  // Assertions (Verilator --assert; a failure is a model error, gm.h).
  always_ff @(posedge clk_i) begin
    if (rst_ni && act_o) begin
      // No TLB fill from a walk that an invalidation overtook.
      if (fill_o) begin
        a_mmu_fill_fresh: assert (!(wk_stale_q || inv_i))
          else $error("mmu_walk: TLB fill from a walk an invalidation overtook");
      end
      a_mmu_walk_state_legal: assert (walk_state_legal(wk_q))
        else $error("mmu_walk: illegal walker state %h", wk_q);
    end
    // The walker has one read in flight (id WalkId): its data comes only while it waits.
    if (rst_ni && rsp_valid_i) begin
      a_mmu_walk_one_read: assert (wk_q == WkWait)
        else $error("mmu_walk: walker data in state %h", wk_q);
    end
  end

  // Cover points (Verilator --coverage-user).
  // The walker's table read waits for the output buffer,
  c_mmu_walk_out_full: cover property (@(posedge clk_i) wk_q == WkRead && !out_free_i);
  // a merged head (WkCheck hit) or a walked head waits for it,
  c_mmu_head_out_full: cover property (@(posedge clk_i) !out_free_i && !pop_o &&
                                       ((wk_q == WkCheck && lk_hit_i) ||
                                        (wk_q == WkDone && !wk_stale_q && !inv_i)));
  // a null or faulting head waits for the synthetic slot.
  c_mmu_head_syn_full: cover property (@(posedge clk_i) !syn_free_i && !pop_o &&
                                       ((wk_q == WkCheck && lk_hit_i) || (wk_q == WkDone && !wk_stale_q && !inv_i)));
  // Miss merging: the head finds its page filled by an earlier walk.
  c_mmu_merged: cover property (@(posedge clk_i) wk_q == WkCheck && lk_hit_i);
  // An invalidation overtakes a walk: it restarts.
  c_mmu_walk_restart: cover property (@(posedge clk_i) wk_q == WkDone && (wk_stale_q || inv_i));
  // A directory-level reserved-bit fault.
  c_mmu_pde_reserved: cover property (@(posedge clk_i) rsp_valid_i && wk_q == WkWait && !rsp_err_i &&
                                      wk_level_q != 2'd3 && wk_entry[PdeVLsb] &&
                                      (wk_entry & PdeReserved) != '0);
`endif

endmodule

`default_nettype wire
