// SPDX-License-Identifier: MIT
//
// mmu_pwc: the page-walk cache of mmu_walk.
//
// Purpose: make a walk to a page near one walked before cheap, as the
// paging-structure caches of CPUs and the PDE caches of GPU MMUs do.  Two
// small fully associative caches, looked up together when the walker
// starts on a TLB miss:
//  - the PDE cache (PdeEntries): the leaf table of a 2 MiB region, tag
//    (VMID, VA[47:21]), filled from a valid directory entry of level 2.  A
//    hit starts the walk at the leaf level: one memory read.
//  - the PTE line cache (LineEntries): the last leaf-table beats the walker
//    read, tag (VMID, VA[47:BeatLog2+9]), each BeatBytes/8 PTEs.  A hit on
//    a PTE the TLB could cache (no reserved bit, V or PRT set) ends the walk
//    without a memory read.  A PTE that would fault is never taken from
//    here: the TLB does not cache faults, so a driver may map such a page
//    without an invalidation, and the walker must read it again.
// Replacement is round robin in each cache.  An invalidation (flush_i,
// any INVALIDATE_TLB) empties both: a directory entry may have changed
// anywhere under the range, and invalidations are rare beside walks.  The
// walker fills only from walks no invalidation overtook.
//
// Each search runs only on a cycle that asks for it (lk_en_i): Verilator
// evaluates every block each cycle.

`default_nettype none

module mmu_pwc #(
  parameter int unsigned BeatBytes = 32,
  parameter int unsigned PdeEntries = 4,
  parameter int unsigned LineEntries = 2
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  // Lookup (the walker's WkCheck on a TLB miss)
  input  logic                   lk_en_i,
  input  logic [3:0]             lk_vmid_i,
  input  logic [47:12]           lk_vpn_i,
  output logic                   pde_hit_o,
  output logic [47:12]           pde_table_o,   // the leaf table's frame
  output logic                   line_hit_o,
  output logic [63:0]            line_pte_o,
  // Fills (from a walk's fresh read)
  input  logic                   pde_fill_i,
  input  logic                   line_fill_i,
  input  logic [3:0]             fill_vmid_i,
  input  logic [47:12]           fill_vpn_i,
  input  logic [47:12]           fill_table_i,  // pde_fill_i: the leaf table's frame
  input  logic [BeatBytes*8-1:0] fill_line_i,   // line_fill_i: the leaf-table beat
  // Invalidation
  input  logic                   flush_i
);

  `include "gpu_defs.svh"

  localparam int unsigned BeatLog2 = $clog2(BeatBytes);
  localparam int unsigned PtePerBeat = BeatBytes / 8;
  localparam int unsigned SelW = $clog2(PtePerBeat);
  localparam int unsigned LineLsb = BeatLog2 + 9;  // VA bit above a beat of PTEs
  localparam int unsigned PdeIdxW = PdeEntries > 1 ? $clog2(PdeEntries) : 1;
  localparam int unsigned LineIdxW = LineEntries > 1 ? $clog2(LineEntries) : 1;

  logic [PdeEntries-1:0] pde_valid_q;
  logic [3:0] pde_vmid_q [PdeEntries];
  logic [47:21] pde_tag_q [PdeEntries];
  logic [47:12] pde_table_q [PdeEntries];
  logic [PdeIdxW-1:0] pde_next_q;

  logic [LineEntries-1:0] line_valid_q;
  logic [3:0] line_vmid_q [LineEntries];
  logic [47:LineLsb] line_tag_q [LineEntries];
  logic [BeatBytes*8-1:0] line_q [LineEntries];
  logic [LineIdxW-1:0] line_next_q;

  // A PTE the TLB could hold: the walk would end without a fault on it.
  function automatic logic cacheable(logic [63:0] pte);
    cacheable = (pte & PteReserved) == '0 && (pte[PteVLsb] || pte[PtePrtLsb]);
  endfunction

  // A line fill overwrites the entry that holds its tag (a walk re-reads a
  // beat whose PTE could not be taken from it), else the round-robin one.
  logic [LineIdxW-1:0] line_widx;
  logic line_same;
  always_comb begin
    line_widx = line_next_q;
    line_same = 1'b0;
    if (line_fill_i) begin
      for (int unsigned i = 0; i < LineEntries; i++) begin
        if (line_valid_q[i] && line_vmid_q[i] == fill_vmid_i &&
            line_tag_q[i] == fill_vpn_i[47:LineLsb]) begin
          line_widx = LineIdxW'(i);
          line_same = 1'b1;
        end
      end
    end
  end

  logic [SelW-1:0] lk_sel;
  assign lk_sel = lk_vpn_i[12 +: SelW];

  always_comb begin
    pde_hit_o = 1'b0;
    pde_table_o = '0;
    line_hit_o = 1'b0;
    line_pte_o = '0;
    if (lk_en_i) begin
      for (int unsigned i = 0; i < PdeEntries; i++) begin
        if (pde_valid_q[i] && pde_vmid_q[i] == lk_vmid_i && pde_tag_q[i] == lk_vpn_i[47:21]) begin
          pde_hit_o = 1'b1;
          pde_table_o = pde_table_q[i];
        end
      end
      for (int unsigned i = 0; i < LineEntries; i++) begin
        if (line_valid_q[i] && line_vmid_q[i] == lk_vmid_i &&
            line_tag_q[i] == lk_vpn_i[47:LineLsb]) begin
          line_pte_o = line_q[i][64*lk_sel +: 64];
          line_hit_o = cacheable(line_pte_o);
        end
      end
    end
  end

  // Storage: written only on a fill or a flush.
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      pde_valid_q <= '0;
      pde_next_q <= '0;
      line_valid_q <= '0;
      line_next_q <= '0;
    end else if (flush_i) begin
      pde_valid_q <= '0;
      line_valid_q <= '0;
    end else begin
      if (pde_fill_i) begin
        pde_valid_q[pde_next_q] <= 1'b1;
        pde_next_q <= PdeIdxW'((32'(pde_next_q) + 32'd1) % PdeEntries);
      end
      if (line_fill_i) begin
        line_valid_q[line_widx] <= 1'b1;
        if (!line_same) line_next_q <= LineIdxW'((32'(line_next_q) + 32'd1) % LineEntries);
      end
    end
  end

  // The entries' contents (meaningful only while valid).
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      for (int unsigned i = 0; i < PdeEntries; i++) begin
        pde_vmid_q[i] <= '0;
        pde_tag_q[i] <= '0;
        pde_table_q[i] <= '0;
      end
      for (int unsigned i = 0; i < LineEntries; i++) begin
        line_vmid_q[i] <= '0;
        line_tag_q[i] <= '0;
        line_q[i] <= '0;
      end
    end else if (!flush_i) begin
      if (pde_fill_i) begin
        pde_vmid_q[pde_next_q] <= fill_vmid_i;
        pde_tag_q[pde_next_q] <= fill_vpn_i[47:21];
        pde_table_q[pde_next_q] <= fill_table_i;
      end
      if (line_fill_i) begin
        line_vmid_q[line_widx] <= fill_vmid_i;
        line_tag_q[line_widx] <= fill_vpn_i[47:LineLsb];
        line_q[line_widx] <= fill_line_i;
      end
    end
  end

  // The fill's page bits below a line's tag select nothing (the whole beat is kept).
  logic unused;
  assign unused = ^fill_vpn_i[LineLsb-1:12];

`ifndef SYNTHESIS
  // Assertions (Verilator --assert; a failure is a model error, gm.h).
  // A tag is held once: the walker fills only after a lookup that missed.
  always_ff @(posedge clk_i) begin
    if (rst_ni && pde_fill_i && !flush_i) begin
      for (int unsigned i = 0; i < PdeEntries; i++) begin
        a_mmu_pwc_pde_once: assert (!(pde_valid_q[i] && pde_vmid_q[i] == fill_vmid_i &&
                                      pde_tag_q[i] == fill_vpn_i[47:21]))
          else $error("mmu_pwc: PDE cache fill of a tag it holds");
      end
    end
  end
  // Cover points (Verilator --coverage-user).
  c_mmu_pwc_line_hit: cover property (@(posedge clk_i) lk_en_i && line_hit_o);
  c_mmu_pwc_pde_hit: cover property (@(posedge clk_i) lk_en_i && pde_hit_o && !line_hit_o);
  c_mmu_pwc_flush: cover property (@(posedge clk_i) flush_i && (pde_valid_q != '0 || line_valid_q != '0));
`endif

endmodule

`default_nettype wire
