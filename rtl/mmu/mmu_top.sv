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
//
// Structure: mmu_mq (the miss queue), mmu_walk (the walker and the head's
// resolution, with its page-walk cache mmu_pwc), mmu_tlb (the TLB); here the input's translation, the
// output buffer, the synthetic response slot and the hit/miss counters.

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
  // Upstream: requests from the client arbiter (the memory channel's
  // gpu_pkg::mem_req_t, a GPU VA, and its VMID), responses back to it
  input  logic                   in_valid_i,
  output logic                   in_ready_o,
  input  gpu_pkg::mem_req_t      in_req_i,
  input  logic [3:0]             in_vmid_i,
  output logic                   up_valid_o,
  output gpu_pkg::mem_rsp_t      up_rsp_o,
  // Downstream: the memory master port (a PA; responses carry no fault)
  output logic                   mem_req_valid_o,
  input  logic                   mem_req_ready_i,
  output gpu_pkg::mem_req_t      mem_req_o,
  input  logic                   mem_rsp_valid_i,
  input  gpu_pkg::mem_rsp_t      mem_rsp_i
);

  `include "gpu_defs.svh"

  localparam int unsigned BB = BeatBytes * 8;
  localparam logic [MemIdW-1:0] WalkIdW = MemIdW'(WalkId);  // regspec WALK_ID
  // A parked request (mmu_mq): its key (id, vmid, address, write; what the
  // walker and the conflict check read, one word) and its data and strobes
  // (copied only when it goes to the output buffer).
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
  // Where the request pushed to the output buffer comes from; its data and
  // strobes are copied from there only when it is pushed.
  typedef enum logic [1:0] {
    OutIn,    // the input
    OutHead,  // the miss queue's head
    OutWalk   // the walker's own read
  } out_sel_e;


  // ---------------------------------------------------------------- state
  // The request pushed to the output buffer this cycle (out_valid_d): its
  // source and its address (the rest comes from the source, in storage).
  logic out_valid_d;
  out_sel_e out_sel_d;
  logic [47:0] out_addr_d;
  // Output buffer (u_ob, below): two requests to the memory port (beat
  // aligned, translated), the head in entry 0.  Room is judged on the
  // registered count alone, so no logic here waits on mem_req_ready_i in
  // the same cycle (the memory port's ready only pops the head).
  logic [1:0] ob_count;
  logic ob_pop;

  logic syn_valid_q, syn_valid_d, syn_fault_q, syn_fault_d;
  logic [MemIdW-1:0] syn_id_q, syn_id_d;

  logic [31:0] hits_q, hits_d, misses_q, misses_d;

  // ---------------------------------------------------------------- activity
  // The idle path.  With the walker idle, no head, no input, no response,
  // no synthetic response waiting, no invalidation, nothing to send and the
  // walk length cleared, the blocks below change nothing: m_act is 0, they
  // keep their quiet values and the registers are not written.  m_busy_q is
  // set by a cycle with m_act and cleared by one without: with it clear the
  // state is quiet (it changes only with m_act), so only an input can
  // wake the MMU, and the state need not be looked at.
  // wk_act: the walker or the queue's head has work (mmu_walk; a part of m_act).
  logic m_busy_q, m_act, wk_act;
  always_comb begin
    m_act = in_valid_i || mem_rsp_valid_i || inv_i;
    if (m_busy_q) m_act = m_act || wk_act || syn_valid_q || ob_count != '0;
  end

  // Room and responses, with m_act (before the walker and the input, which
  // read them: each block reads only what earlier blocks form).
  logic out_free, syn_free, client_rsp, wk_rsp;
  always_comb begin
    out_free = 1'b0;
    client_rsp = 1'b0;
    wk_rsp = 1'b0;
    syn_free = 1'b0;
    if (m_act) begin
      out_free = ob_count != 2'd2;
      client_rsp = mem_rsp_valid_i && mem_rsp_i.id != WalkIdW;
      wk_rsp = mem_rsp_valid_i && mem_rsp_i.id == WalkIdW;
      syn_free = !syn_valid_q || !client_rsp;
    end
  end

  // ---------------------------------------------------------------- miss queue
  logic head_pop, in_park, mq_full, mq_head_v, in_conflict;
  mmu_key_t mq_head, in_key;
  mmu_dat_t mq_head_dat, in_dat;
  assign in_key = {in_req_i.id, in_vmid_i, in_req_i.addr, in_req_i.we};
  assign in_dat = {in_req_i.wdata, in_req_i.wstrb};
  mmu_mq #(
    .Depth(MissDepth),
    .KeyW($bits(in_key)),
    .DatW($bits(in_dat))
  ) u_mq (
    .clk_i,
    .rst_ni,
    .en_i(m_act),
    .pop_i(head_pop),
    .park_i(in_park),
    .key_i(in_key),
    .dat_i(in_dat),
    .head_valid_o(mq_head_v),
    .head_key_o(mq_head),
    .head_dat_o(mq_head_dat),
    .full_o(mq_full),
    .chk_valid_i(in_valid_i),
    .chk_vmid_i(in_vmid_i),
    .chk_page_i(in_req_i.addr[47:12]),
    .conflict_o(in_conflict)
  );
  // The head's key (zero without one).
  logic [MemIdW-1:0] h_id;
  logic [3:0] h_vmid;
  logic [47:0] h_va;
  logic h_we;
  assign h_id = mq_head.id;
  assign h_vmid = mq_head.vmid;
  assign h_va = mq_head.addr;
  assign h_we = mq_head.we;

  // ---------------------------------------------------------------- TLB
  logic lk_head, lk_en, lk_use, lk_hit, lk_r, lk_w, lk_null;
  logic [3:0] lk_vmid;
  logic [47:0] lk_va, lk_pa;
  logic fill, pte_big, pte_r, pte_w, pte_null;
  logic [47:12] pte_pa;  // the page (or fragment) frame the PTE names
  logic in_phys;
  walk_state_e wk_state;

  // The TLB is looked up only for the head's check or a translated input.
  always_comb begin
    lk_head = 1'b0;
    in_phys = 1'b0;
    lk_en = 1'b0;
    lk_vmid = in_vmid_i;
    lk_va = in_req_i.addr;
    if (wk_state == WkCheck) begin
      lk_head = 1'b1;
      lk_en = 1'b1;
      lk_vmid = h_vmid;
      lk_va = h_va;
    end else if (in_valid_i) begin  // in_phys is read only for an input
      in_phys = !enable_i || in_vmid_i == 4'd0;
      lk_en = !in_phys;
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
    .fill_big_i(pte_big),
    .fill_r_i(pte_r),
    .fill_w_i(pte_w),
    .fill_null_i(pte_null),
    .inv_i,
    .inv_all_i,
    .inv_vmid_i,
    .inv_start_i,
    .inv_end_i
  );

  // ---------------------------------------------------------------- walker
  logic wk_out_valid, wk_out_head, wk_syn_valid, wk_syn_fault, wk_fault, wk_lk_use, wk_hit, wk_miss;
  logic [47:0] wk_out_addr;
  mmu_fault_e wk_flt;
  mmu_walk #(
    .BeatBytes(BeatBytes)
  ) u_walk (
    .clk_i,
    .rst_ni,
    .busy_i(m_busy_q),
    .root_i,
    .inv_i,
    .head_valid_i(mq_head_v),
    .h_vmid_i(h_vmid),
    .h_va_i(h_va),
    .h_we_i(h_we),
    .lk_hit_i(lk_hit),
    .lk_pa_i(lk_pa),
    .lk_r_i(lk_r),
    .lk_w_i(lk_w),
    .lk_null_i(lk_null),
    .out_free_i(out_free),
    .syn_free_i(syn_free),
    .rsp_valid_i(wk_rsp),
    .rsp_err_i(mem_rsp_i.err),
    .rsp_rdata_i(mem_rsp_i.rdata),
    .act_o(wk_act),
    .state_o(wk_state),
    .out_valid_o(wk_out_valid),
    .out_head_o(wk_out_head),
    .out_addr_o(wk_out_addr),
    .syn_valid_o(wk_syn_valid),
    .syn_fault_o(wk_syn_fault),
    .pop_o(head_pop),
    .fault_o(wk_fault),
    .flt_o(wk_flt),
    .lk_use_o(wk_lk_use),
    .hit_o(wk_hit),
    .miss_o(wk_miss),
    .fill_o(fill),
    .pte_pa_o(pte_pa),
    .pte_big_o(pte_big),
    .pte_r_o(pte_r),
    .pte_w_o(pte_w),
    .pte_null_o(pte_null),
    .walks_o,
    .walk_cycles_o,
    .walk_max_o
  );

  // The outcome of a looked-up translation for an input (as mmu_walk's for
  // the head).
  function automatic mmu_fault_e perm_fault(logic we, logic r, logic w, logic is_null);
    perm_fault = is_null ? FltNone : (we && !w) ? FltNoWrite : (!we && !r) ? FltNoRead : FltNone;
  endfunction

  // ---------------------------------------------------------------- main
  // The walker's push and synthetic response first, then the input when
  // the head left it room.  Quiet values first; evaluated with m_act.
  logic in_take, in_fault, in_lk_use;
  mmu_fault_e in_flt;

  always_comb begin
    out_valid_d = 1'b0;
    out_sel_d = OutIn;
    out_addr_d = '0;
    syn_valid_d = 1'b0;
    syn_id_d = '0;
    syn_fault_d = 1'b0;
    hits_d = '0;
    misses_d = '0;
    in_take = 1'b0;
    in_park = 1'b0;
    in_fault = 1'b0;
    in_lk_use = 1'b0;
    in_flt = FltNone;

    if (m_act) begin
      syn_valid_d = syn_valid_q && client_rsp;  // presented unless a memory response had the slot
      syn_id_d = syn_id_q;
      syn_fault_d = syn_fault_q;
      // A translation resolved from the TLB is a hit (an input's, or a
      // parked one's whose page an earlier walk filled); one resolved by a
      // walk of its own is a miss.  Parking is neither.
      hits_d = hits_q + {31'd0, wk_hit};
      misses_d = misses_q + {31'd0, wk_miss};

      if (wk_out_valid) begin
        out_valid_d = 1'b1;
        out_sel_d = wk_out_head ? OutHead : OutWalk;
        out_addr_d = wk_out_addr;
      end
      if (wk_syn_valid) begin
        syn_valid_d = 1'b1;
        syn_id_d = h_id;
        syn_fault_d = wk_syn_fault;
      end

      // The input, when the head left it room.
      if (in_valid_i && !lk_head && !wk_fault) begin
        if (in_phys) begin
          if (out_free && !out_valid_d) begin
            in_take = 1'b1;
            out_valid_d = 1'b1;
            out_sel_d = OutIn;
            out_addr_d = in_req_i.addr;
          end
        end else if (lk_hit && !in_conflict) begin
          in_flt = perm_fault(in_req_i.we, lk_r, lk_w, lk_null);
          if (in_flt == FltNone && !lk_null) begin
            if (out_free && !out_valid_d) begin
              in_take = 1'b1;
              out_valid_d = 1'b1;
              out_sel_d = OutIn;
              out_addr_d = lk_pa;
            end
          end else if (syn_free && !syn_valid_d) begin
            in_take = 1'b1;
            syn_valid_d = 1'b1;
            syn_id_d = in_req_i.id;
            syn_fault_d = in_flt != FltNone;
            in_fault = in_flt != FltNone;
          end
          in_lk_use = in_take;
          if (in_take) hits_d = hits_d + 32'd1;
        end else if (!mq_full && !head_pop) begin
          // A miss, or a page a parked request waits for: park it.
          in_take = 1'b1;
          in_park = 1'b1;
        end
      end
    end
  end
  assign lk_use = wk_lk_use || in_lk_use;
  assign fault_o = wk_fault || in_fault;

  // Output buffer: pop the head the memory port took.  Apart from the
  // block above: the memory port's ready is a top-level input, and logic
  // that reads one is evaluated again on each input change, so only this
  // (and u_ob's pointer) reads it.  A head means m_act.
  assign ob_pop = m_act && ob_count != '0 && mem_req_ready_i;

  // The fault report names the access that faulted: the input or the head.
  always_comb begin
    fault_va_o = h_va;
    fault_vmid_o = h_vmid;
    fault_client_o = 7'(h_id[MemIdW-1:1]);
    fault_write_o = h_we;
    fault_cause_o = FltNone;
    if (in_fault) begin
      fault_va_o = in_req_i.addr;
      fault_vmid_o = in_vmid_i;
      fault_client_o = 7'(in_req_i.id[MemIdW-1:1]);
      fault_write_o = in_req_i.we;
    end
    if (fault_o) fault_cause_o = in_fault ? in_flt : wk_flt;
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      m_busy_q <= 1'b1;
      syn_valid_q <= 1'b0;
      syn_id_q <= '0;
      syn_fault_q <= 1'b0;
      hits_q <= '0;
      misses_q <= '0;
    end else begin
      m_busy_q <= m_act;
      if (m_act) begin  // else idle: the state stays as it is
        syn_valid_q <= syn_valid_d;
        syn_id_q <= syn_id_d;
        syn_fault_q <= syn_fault_d;
        hits_q <= hits_d;
        misses_q <= misses_d;
      end
    end
  end

  // The output buffer: a prim_fifo_sync that keeps its head in entry 0
  // (Shift): the memory port shows that entry as it is, zero while empty
  // (its entries reset to zero), with no read mux.  It moves with m_act;
  // the push is formed from its source (out_sel_d): the input, the
  // queue's head or the walker's read.
  logic [47:0] out_beat;
  assign out_beat = out_addr_d & ~(48'(BeatBytes) - 48'd1);
  gpu_pkg::mem_req_t ob_in;
  assign ob_in = (out_sel_d == OutHead) ? {h_id, h_we, out_beat, mq_head_dat} :
                 (out_sel_d == OutWalk) ? {WalkIdW, 1'b0, out_beat, BB'(0), BeatBytes'(0)} :
                                          {in_req_i.id, in_req_i.we, out_beat, in_dat};
  prim_fifo_sync #(
    .Width(gpu_pkg::MemReqBits),
    .Depth(2),
    .Shift(1'b1)
  ) u_ob (
    .clk_i,
    .rst_ni,
    .en_i(m_act),
    .clr_i(1'b0),
    .wvalid_i(out_valid_d),
    .wdata_i(ob_in),
    .rready_i(ob_pop),
    .out_en_i(1'b1),  // the count says whether the port has a request
    .rdata_o(mem_req_o),
    .count_o(ob_count)
  );

  assign in_ready_o = in_take;
  assign mem_req_valid_o = ob_count != '0;

  // Memory responses for clients first; a synthetic one waits for a gap.
  always_comb begin
    up_valid_o = syn_valid_q;
    up_rsp_o = '0;
    up_rsp_o.id = syn_id_q;
    up_rsp_o.err = syn_fault_q;
    up_rsp_o.fault = syn_fault_q;
    if (mem_rsp_valid_i && mem_rsp_i.id != WalkIdW) begin
      up_valid_o = 1'b1;
      up_rsp_o = mem_rsp_i;
      up_rsp_o.fault = 1'b0;
    end
  end

  assign hits_o = hits_q;
  assign misses_o = misses_q;

`ifndef SYNTHESIS
  // Assertions (Verilator --assert; a failure is a model error, gm.h).
  // The miss queue and the walker check their own.
  // Valid/ready at the memory port: a request held while refused stays the same.
  logic a_stall_q;
  gpu_pkg::mem_req_t a_ob_q;
  // Checked with m_act (idle: no request held or sent; a_stall_q is 0
  // and stays 0).
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      a_stall_q <= 1'b0;
    end else if (m_act) begin
      // The checks on an event sit under it: Verilator evaluates every term
      // of an assertion's expression (here a 345-bit compare), the test of
      // an `if` only.
      if (a_stall_q) begin
        a_mmu_req_stable: assert (mem_req_valid_o && mem_req_o == a_ob_q)
          else $error("mmu_top: the memory request changed while refused");
      end
      a_stall_q <= mem_req_valid_o && !mem_req_ready_i;
      // Kept only while refused (the check reads it only then).
      if (mem_req_valid_o && !mem_req_ready_i) a_ob_q <= mem_req_o;
    end
  end
  // With m_act (idle: neither buffer moves, so what held still holds).
  always_ff @(posedge clk_i) begin
    if (rst_ni && m_act) begin
      // The output buffer checks its own bounds (prim_fifo_sync).  An empty
      // head is zero (the port shows entry 0 as it is; the last entry
      // clears as it moves up).  Compared only when empty: it is wide.
      if (!mem_req_valid_o) begin
        a_mmu_ob_empty_zero: assert (mem_req_o == '0)
          else $error("mmu_top: empty output buffer head not zero");
      end
      // On events (idle: no response, no input, no synthetic one).
      // A synthetic response waiting for a gap keeps its id (nothing overwrites it).
      if (syn_valid_q && client_rsp) begin
        a_mmu_syn_held: assert (syn_valid_d && syn_id_d == syn_id_q)
          else $error("mmu_top: synthetic response %h overwritten", syn_id_q);
      end
      // The input is taken only when offered.
      if (in_take) begin
        a_mmu_take_valid: assert (in_valid_i)
          else $error("mmu_top: input taken with no request");
      end
    end
  end

  // Cover points (Verilator --coverage-user); the walker's are in mmu_walk.
  // Back-pressure on every output slot: the memory port refuses the head,
  c_mmu_port_refused: cover property (@(posedge clk_i) mem_req_valid_o && !mem_req_ready_i);
  // a translated or physical input waits for a full output buffer,
  c_mmu_in_out_full: cover property (@(posedge clk_i) in_valid_i && !lk_head && !fault_o && !out_free &&
                                     (in_phys || (lk_hit && !in_conflict && !lk_null &&
                                                  perm_fault(in_req_i.we, lk_r, lk_w, lk_null) == FltNone)));
  // a null or faulting result waits for the synthetic slot (a memory
  // response for a client has the upstream port this cycle),
  c_mmu_syn_busy: cover property (@(posedge clk_i) syn_valid_q && client_rsp);
  // an input null tile or fault waits because the head took the slot this cycle,
  c_mmu_in_syn_taken: cover property (@(posedge clk_i) in_valid_i && !lk_head && !fault_o && !in_phys &&
                                      lk_hit && !in_conflict && !in_take &&
                                      (lk_null || perm_fault(in_req_i.we, lk_r, lk_w, lk_null) != FltNone));
  // and a miss waits for a full miss queue.
  c_mmu_mq_full: cover property (@(posedge clk_i) in_valid_i && !in_phys && !lk_head && mq_full && !in_take);
  // A request on a page a parked request waits for parks behind it.
  c_mmu_conflict_park: cover property (@(posedge clk_i) in_park && in_conflict);
`endif

endmodule

`default_nettype wire
