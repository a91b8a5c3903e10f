// SPDX-License-Identifier: MIT
//
// mmu_tlb: fully associative TLB with not-recently-used replacement.
//
// Purpose: cache translations by (VMID, VA page).  An entry is a 4 KiB page
// or a 64 KiB fragment (FRAG64K PTEs; tag VA[47:16]).  One combinational
// lookup port (the hit path adds the one register stage of mmu_top), one
// fill port, and an invalidation port that drops every entry of a VMID (or
// of all VMIDs) overlapping a VA range given in 64 KiB units, in one cycle.
//
// A fill drops the entries of its VMID it overlaps (see fill_ovl).
//
// Replacement: each entry has a used bit, set on a hit or fill; the victim
// is the first invalid entry, else the first unused one; when every entry is
// used, all used bits but the one just touched are cleared.
//
// Each search (lookup, victim, invalidation, fill overlap) runs only on a
// cycle that uses it: Verilator evaluates every block each cycle.

`default_nettype none

module mmu_tlb #(
  parameter int unsigned TlbEntries = 16
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  // Lookup
  input  logic [3:0]  lk_vmid_i,
  input  logic [47:0] lk_va_i,
  input  logic        lk_en_i,      // a lookup is wanted (else no hit)
  input  logic        lk_use_i,     // the lookup's hit is consumed this cycle
  output logic        lk_hit_o,
  output logic [47:0] lk_pa_o,
  output logic        lk_r_o,
  output logic        lk_w_o,
  output logic        lk_null_o,
  // Fill
  input  logic        fill_i,
  input  logic [3:0]  fill_vmid_i,
  input  logic [35:0] fill_vpn_i,   // VA[47:12]
  input  logic [35:0] fill_pfn_i,   // PA[47:12] of the page (or fragment)
  input  logic        fill_big_i,
  input  logic        fill_r_i,
  input  logic        fill_w_i,
  input  logic        fill_null_i,
  // Invalidation
  input  logic        inv_i,
  input  logic        inv_all_i,
  input  logic [3:0]  inv_vmid_i,
  input  logic [31:0] inv_start_i,  // VA[47:16], inclusive
  input  logic [31:0] inv_end_i     // VA[47:16], inclusive
);

  localparam int unsigned IdxW = $clog2(TlbEntries);

  logic [TlbEntries-1:0] valid_q, valid_d, used_q, used_d, big_q, r_q, w_q, null_q;
  logic [3:0] vmid_q [TlbEntries];
  logic [35:0] vpn_q [TlbEntries];  // VA[47:12]
  logic [35:0] pfn_q [TlbEntries];  // PA[47:12]

  // ---------------------------------------------------------------- lookup
  logic [TlbEntries-1:0] match;
  logic [IdxW-1:0] hit_idx;
  logic [35:0] hit_pfn;

  // Without a lookup: no hit, the outputs of entry 0's fields are not read.
  always_comb begin
    match = '0;
    hit_idx = '0;
    hit_pfn = '0;
    lk_hit_o = 1'b0;
    lk_pa_o = '0;
    lk_r_o = 1'b0;
    lk_w_o = 1'b0;
    lk_null_o = 1'b0;
    if (lk_en_i) begin
      for (int unsigned i = 0; i < TlbEntries; i++) begin
        match[i] = valid_q[i] && vmid_q[i] == lk_vmid_i && vpn_q[i][35:4] == lk_va_i[47:16] &&
                   (big_q[i] || vpn_q[i][3:0] == lk_va_i[15:12]);
      end
      for (int unsigned i = TlbEntries; i > 0; i--) begin
        if (match[i-1]) hit_idx = IdxW'(i - 1);
      end
      lk_hit_o = |match;
      hit_pfn = pfn_q[hit_idx];
      lk_pa_o = big_q[hit_idx] ? {hit_pfn[35:4], lk_va_i[15:0]} : {hit_pfn, lk_va_i[11:0]};
      lk_r_o = r_q[hit_idx];
      lk_w_o = w_q[hit_idx];
      lk_null_o = null_q[hit_idx];
    end
  end

  // ---------------------------------------------------------------- victim
  logic [IdxW-1:0] victim;
  logic found_invalid, found_unused;

  always_comb begin
    victim = '0;
    found_invalid = 1'b0;
    found_unused = 1'b0;
    if (fill_i) begin  // the only user
      for (int unsigned i = 0; i < TlbEntries; i++) begin
        if (!found_invalid && !valid_q[i]) begin
          victim = IdxW'(i);
          found_invalid = 1'b1;
        end
      end
      for (int unsigned i = 0; i < TlbEntries; i++) begin
        if (!found_invalid && !found_unused && !used_q[i]) begin
          victim = IdxW'(i);
          found_unused = 1'b1;
        end
      end
    end
  end

  // ---------------------------------------------------------------- invalidation
  logic [TlbEntries-1:0] inv_hit;
  always_comb begin
    inv_hit = '0;
    if (inv_i) begin
      for (int unsigned i = 0; i < TlbEntries; i++) begin
        inv_hit[i] = (inv_all_i || vmid_q[i] == inv_vmid_i) &&
                     vpn_q[i][35:4] >= inv_start_i && vpn_q[i][35:4] <= inv_end_i;
      end
    end
  end

  // ---------------------------------------------------------------- fill overlap
  // A fill replaces every entry of its VMID that it overlaps: a 64 KiB
  // fragment over 4 KiB pages of its block, or a 4 KiB page under a cached
  // fragment.  Tables that break the FRAG64K rule (the 16 PTEs of a block
  // disagree) then translate as the last walk found, never as a lookup that
  // matches two entries.
  logic [TlbEntries-1:0] fill_ovl;
  always_comb begin
    fill_ovl = '0;
    if (fill_i) begin
      for (int unsigned i = 0; i < TlbEntries; i++) begin
        fill_ovl[i] = vmid_q[i] == fill_vmid_i && vpn_q[i][35:4] == fill_vpn_i[35:4] &&
                      (fill_big_i || big_q[i] || vpn_q[i][3:0] == fill_vpn_i[3:0]);
      end
    end
  end

  // ---------------------------------------------------------------- update
  // Only a fill, a consumed hit or an invalidation changes the valid and
  // used bits (upd): the update and the registers only then.  (When every
  // valid entry is used, the clearing of the used bits happens at the next
  // update instead of the next cycle: that update gives the same bits and
  // the same victim either way - no invalid entry and none unused picks
  // entry 0, as an all-clear used vector does.)
  logic [TlbEntries-1:0] touch;
  logic upd;
  assign upd = fill_i || lk_use_i || inv_i;
  always_comb begin
    touch = '0;
    valid_d = '0;
    used_d = '0;
    if (upd) begin
      if (fill_i) touch[victim] = 1'b1;
      else if (lk_use_i && lk_hit_o) touch[hit_idx] = 1'b1;
      valid_d = valid_q & ~inv_hit & ~fill_ovl;
      if (fill_i) valid_d[victim] = 1'b1;
      used_d = used_q | touch;
      if (&(used_d | ~valid_d)) used_d = touch;
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      valid_q <= '0;
      used_q <= '0;
      big_q <= '0;
      r_q <= '0;
      w_q <= '0;
      null_q <= '0;
      for (int unsigned i = 0; i < TlbEntries; i++) begin
        vmid_q[i] <= '0;
        vpn_q[i] <= '0;
        pfn_q[i] <= '0;
      end
    end else if (upd) begin
      valid_q <= valid_d;
      used_q <= used_d;
      if (fill_i) begin
        big_q[victim] <= fill_big_i;
        r_q[victim] <= fill_r_i;
        w_q[victim] <= fill_w_i;
        null_q[victim] <= fill_null_i;
        vmid_q[victim] <= fill_vmid_i;
        vpn_q[victim] <= fill_vpn_i;
        pfn_q[victim] <= fill_pfn_i;
      end
    end
  end

`ifndef SYNTHESIS
  // Assertions (Verilator --assert; a failure is a model error, gm.h).
  // Without a lookup or a fill, match is 0 and fill_i is 0: each holds.
  always_ff @(posedge clk_i) begin
    if (rst_ni && (lk_en_i || fill_i)) begin
      // One translation a page: a lookup never matches two entries.
      a_tlb_match_onehot0: assert ($onehot0(match))
        else $error("mmu_tlb: VMID %0d VA %h matches entries %b", lk_vmid_i, lk_va_i, match);
      // A fill goes to a page the TLB does not hold yet.
      a_tlb_fill_new: assert (!(fill_i && lk_hit_o && lk_vmid_i == fill_vmid_i &&
                                lk_va_i[47:12] == fill_vpn_i))
        else $error("mmu_tlb: fill of VMID %0d VPN %h, already held", fill_vmid_i, fill_vpn_i);
      // A fill never evicts a valid entry while an invalid one is free.
      a_tlb_victim_free_first: assert (!(fill_i && !(&valid_q) && valid_q[victim]))
        else $error("mmu_tlb: fill evicts entry %0d with free entries %b", victim, ~valid_q);
    end
  end

  // Cover points (Verilator --coverage-user).
  // A fill evicts a valid entry (every entry valid: the NRU victim goes).
  c_tlb_evict: cover property (@(posedge clk_i) fill_i && (&valid_q));
  // An invalidation drops entries, and one that drops every entry.
  c_tlb_inv_hit: cover property (@(posedge clk_i) inv_hit != '0);
  c_tlb_inv_all_hit: cover property (@(posedge clk_i) inv_i && inv_all_i && inv_hit == valid_q && valid_q != '0);
  // A fill replaces entries it overlaps (a fragment over pages or the reverse).
  c_tlb_fill_overlap: cover property (@(posedge clk_i) fill_ovl != '0);
  // A 64 KiB fragment hit.
  c_tlb_big_hit: cover property (@(posedge clk_i) lk_en_i && lk_hit_o && (|(match & big_q)));
`endif

  // The index math assumes a power-of-two entry count of at least 2.
  initial begin : check_params
    if (TlbEntries < 2 || (1 << IdxW) != TlbEntries) $error("mmu_tlb: TlbEntries must be a power of two >= 2");
  end

endmodule

`default_nettype wire
