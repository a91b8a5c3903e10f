// SPDX-License-Identifier: MIT
//
// apt_top: the linearizing CPU aperture (BAR1), write-combined.
//
// Purpose: give the host CPU a linear view of tiled surfaces, behaving like
// a PCI BAR mapped write-combined.  The window (APT_WINDOW_BYTES) has
// NumRanges programmable ranges; an access inside a valid range is an
// access to the surface at the range's base: the offset from the range
// start L gives the row y = L / pitch and the byte column xb = L mod pitch,
// and the swizzle unit gives the surface offset.  Outside every valid range
// the window is a plain linear view of VRAM (window offset = VRAM physical
// address).  Targets are physical addresses (the aperture's requests carry
// VMID 0): the range base may be in VRAM or in system memory.  Overlapping
// ranges: the lowest-numbered valid range that contains the access wins.
//
// Access: one naturally aligned 16-byte chunk with 16 byte enables (a
// 64-bit word is one half of it).  Every supported layout keeps 16 aligned
// bytes of a row contiguous (the tile masks keep byte bits 3:0), so a chunk
// whose halves share a range and a row is one unit of translation and lies
// in one memory beat; that holds whenever every valid range's start, end and
// pitch are multiples of 16 (wide_ok).  Otherwise the chunk's enabled halves
// are translated one after the other (part_q), each through its own range
// and row, and a read answers once with both.
//
// Structure, one unit per cycle: apt_front (the HostDepth-entry host FIFO,
// the range match and the row cache, s1, the swizzle unit, s2) hands each
// unit to apt_wr (writes; it drives the memory port, a read's beat fetch
// first) or apt_rd (reads); this module decides when the aperture is
// active (the idle path below) and reports its status.  A sequential write
// through a range streams at 16 bytes per cycle.
//
// Row cache (apt_front): the division by the pitch takes 28 cycles; the
// range, row start and row of the last access are kept, so an access in the
// same or the next row (sequential CPU copies) is translated in one cycle.
// A write to an APT range register drops the cache.
//
// Writes (apt_wr) are posted: no response.  The write-combining buffer
// merges the words that land in one memory beat; it closes into the write
// queue (WqDepth beats) when a write goes to another beat, before a read,
// on a flush (any write to an APT register: apt_wr_i) once the accesses
// before it have reached it, or after AptWcIdleCycles without an access.
// Beats leave the queue as memory requests with a slot tag; AptSlots may be
// in flight.  A posted write that fails cannot answer: the illegal-format
// and row-past-2^16 words write nothing and a memory error drops its beat;
// the first failure since APT_ERR_STATUS was cleared is latched (cause,
// window offset), every failure pulses err_irq_o (INT_STATUS.APT_ERR) and
// counts.  Nothing waits on anything but the memory, which always answers,
// so a flush always completes: busy_o falls.
//
// Reads (apt_rd) are uncached but prefetch, and stream: a read first
// drains the posted writes (rd_state_o = DRAIN), then waits in order for a
// beat buffer: the newest one when it holds (or is fetching) the same beat,
// else a new one whose beat is fetched at once.  The newest buffer is the
// prefetched beat later reads use; every write the memory port accepts
// (snoop_valid_i/snoop_addr_i, from any agent) that hits it makes it stale,
// and APT_FLUSH.PF (pf_drop_i) makes every buffer stale (model/gm.c's
// backdoor writes).  A write waits for the reads before it to have their
// data.  A read that fails (format, row, memory) answers with err and
// data 0.
//
// Host protocol: assert req_valid_i for one cycle while req_ready_o is high
// (req_ready_o counts the request in the caller's input register); a read's
// response (rsp_valid_o, rdata, err) comes when its data is there, reads in
// order; a write has none.

`default_nettype none

module apt_top #(
  parameter int unsigned NumRanges = 8,
  parameter int unsigned BeatBytes = 32,
  parameter int unsigned TagW = 5,        // log2 of AptSlots
  parameter int unsigned HostDepth = 4,   // host FIFO entries
  parameter int unsigned WqDepth = 4      // closed beats waiting for a slot
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  // Host side (registered by the caller)
  input  logic                   req_valid_i,
  output logic                   req_ready_o,
  input  logic                   req_we_i,
  input  logic [27:0]            req_addr_i,
  input  logic [127:0]           req_wdata_i,
  input  logic [15:0]            req_wstrb_i,
  output logic                   rsp_valid_o,
  output logic [127:0]           rsp_rdata_o,
  output logic                   rsp_err_o,
  // Ranges from the register file
  input  logic [NumRanges-1:0]    rng_valid_i,
  input  logic [NumRanges*3-1:0]  rng_mode_i,
  input  logic [NumRanges*3-1:0]  rng_bpe_i,
  input  logic [NumRanges*28-1:0] rng_start_i,
  input  logic [NumRanges*28-1:0] rng_end_i,
  input  logic [NumRanges*48-1:0] rng_base_i,
  input  logic [NumRanges*20-1:0] rng_pitch_i,
  input  logic                    cfg_wr_i,      // an APT range register was written
  input  logic                    apt_wr_i,      // any APT register was written: flush
  input  logic                    err_clr_i,     // APT_ERR_STATUS.VALID written 1
  input  logic                    pf_drop_i,     // APT_FLUSH.PF written 1
  // Status
  output logic [2:0]              state_o,
  output logic [1:0]              rd_state_o,
  output logic                    busy_o,
  output logic                    wc_o,
  output logic                    pf_o,
  output logic [5:0]              pend_o,
  output logic [31:0]             accesses_o,
  output logic                    err_valid_o,
  output logic [1:0]              err_cause_o,
  output logic [27:0]             err_off_o,
  output logic [31:0]             err_count_o,
  output logic                    err_irq_o,     // one cycle per failing posted write
  // Memory writes accepted at the memory port (snoop, registered)
  input  logic                   snoop_valid_i,
  input  logic [47:0]            snoop_addr_i,
  // Memory request channel (VMID 0; id: {APT_CLIENT | slot, write}) and responses
  output logic                   m_req_valid_o,
  input  logic                   m_req_ready_i,
  output gpu_pkg::mem_req_t      m_req_o,
  input  logic                   m_rsp_valid_i,
  input  gpu_pkg::mem_rsp_t      m_rsp_i
);

  `include "gpu_defs.svh"

  localparam int unsigned Slots = 1 << TagW;

  // The design's assumptions (the blocks check their own).
  initial begin : check_params
    if (Slots != AptSlots) $error("apt_top: TagW must give APT_SLOTS slots");
    if (BeatBytes < 16) $error("apt_top: a beat holds at least two words");
  end

  // ---------------------------------------------------------------- activity
  // The idle path.  With every stage empty and drained, nothing answered or
  // evicted, and no input (request, response, register write, or a snoop
  // that hits the newest buffer's beat while it is fresh) the aperture
  // changes nothing: a_act is 0 and its registers are not written.
  // (busy_o: a stage holds something, a beat is not drained, a read waits
  // or is fetched, or a flush waits.)  a_busy_q is set by a cycle with a_act
  // and cleared by one without: with it clear the state is quiet (it cannot
  // change without a_act), so with no input either (a_pre 0) a_act is 0
  // too, and nothing in the blocks is evaluated: the outputs take their
  // quiet values (pf_o the one last evaluated).
  logic a_busy_q, a_snoop, a_pre, a_act;
  logic a_state;  // the state alone keeps the aperture active
  logic pf_q;  // pf_o as last evaluated (the quiet aperture's)
  logic [31:0] acc_q;
  assign a_pre = a_busy_q || req_valid_i || m_rsp_valid_i || a_snoop || cfg_wr_i || apt_wr_i ||
                 err_clr_i || pf_drop_i;

  // Between the blocks: s2's unit (apt_front) goes to the write or the read
  // path, whichever takes it; the write path waits for the reads and the
  // reads for the writes; the write path drives the memory port, a read's
  // beat fetch first.
  logic s2_v, s2_we, s2_wide, s2_half, s2_last;
  logic [1:0] s2_err;
  logic [47:0] s2_addr;
  logic [27:3] s2_off;
  logic [127:0] s2_data;
  logic [15:0] s2_strb;
  logic w_take, r_take;  // the write, the read path takes s2's unit
  logic front_empty, drained, flush, reads, rb_pop, s2_rd;
  logic rb_go;  // a beat fetch for the memory port
  logic [TagW-1:0] rb_tag;
  logic [47:0] rb_addr;

  apt_front #(
    .NumRanges(NumRanges),
    .HostDepth(HostDepth)
  ) u_front (
    .clk_i,
    .rst_ni,
    .busy_i(a_busy_q),
    .act_i(a_act),
    .req_valid_i,
    .req_ready_o,
    .req_we_i,
    .req_off_i(req_addr_i[27:4]),
    .req_wdata_i,
    .req_wstrb_i,
    .rng_valid_i,
    .rng_mode_i,
    .rng_bpe_i,
    .rng_start_i,
    .rng_end_i,
    .rng_base_i,
    .rng_pitch_i,
    .cfg_wr_i,
    .empty_o(front_empty),
    .state_o,
    .s2_v_o(s2_v),
    .s2_err_o(s2_err),
    .s2_addr_o(s2_addr),
    .s2_we_o(s2_we),
    .s2_wide_o(s2_wide),
    .s2_half_o(s2_half),
    .s2_last_o(s2_last),
    .s2_off_o(s2_off),
    .s2_data_o(s2_data),
    .s2_strb_o(s2_strb),
    .wr_take_i(w_take),
    .rd_take_i(r_take)
  );

  apt_wr #(
    .BeatBytes(BeatBytes),
    .TagW(TagW),
    .WqDepth(WqDepth)
  ) u_wr (
    .clk_i,
    .rst_ni,
    .busy_i(a_busy_q),
    .act_i(a_act),
    .s2_v_i(s2_v),
    .s2_err_i(s2_err),
    .s2_addr_i(s2_addr),
    .s2_we_i(s2_we),
    .s2_off_i(s2_off),
    .s2_data_i(s2_data),
    .s2_strb_i(s2_strb),
    .take_o(w_take),
    .reads_i(reads),
    .front_empty_i(front_empty),
    .apt_wr_i,
    .err_clr_i,
    .drained_o(drained),
    .wc_o,
    .flush_o(flush),
    .pend_o,
    .err_valid_o,
    .err_cause_o,
    .err_off_o,
    .err_count_o,
    .err_irq_o,
    .fetch_i(rb_go),
    .fetch_tag_i(rb_tag),
    .fetch_addr_i(rb_addr),
    .m_req_valid_o,
    .m_req_ready_i,
    .m_req_o,
    .m_rsp_valid_i,
    .m_rsp_i
  );

  apt_rd #(
    .BeatBytes(BeatBytes),
    .TagW(TagW)
  ) u_rd (
    .clk_i,
    .rst_ni,
    .busy_i(a_busy_q),
    .act_i(a_act),
    .s2_v_i(s2_v),
    .s2_err_i(s2_err),
    .s2_addr_i(s2_addr),
    .s2_we_i(s2_we),
    .s2_wide_i(s2_wide),
    .s2_half_i(s2_half),
    .s2_last_i(s2_last),
    .take_o(r_take),
    .drained_i(drained),
    .snoop_valid_i,
    .snoop_addr_i,
    .pf_drop_i,
    .snoop_hit_o(a_snoop),
    .reads_o(reads),
    .pop_o(rb_pop),
    .pf_q_i(pf_q),
    .pf_o,
    .s2_rd_o(s2_rd),
    .fetch_o(rb_go),
    .fetch_tag_o(rb_tag),
    .fetch_addr_o(rb_addr),
    .m_req_ready_i,
    .m_rsp_valid_i,
    .m_rsp_i,
    .rsp_valid_o,
    .rsp_rdata_o,
    .rsp_err_o
  );

  // ---------------------------------------------------------------- status
  // From the blocks' status (registers only, each evaluated with a_busy_q):
  // without a_busy_q these are their quiet values.  A read in s2 waits for
  // the posted writes to drain (rd_drain) before it joins the read units.
  apt_rd_e rd_st;  // what the reads wait for
  logic rd_drain;
  always_comb begin
    busy_o = 1'b0;
    a_state = 1'b0;
    rd_drain = 1'b0;
    rd_st = RdIdle;
    if (a_busy_q) begin
      busy_o = !front_empty || !drained || reads || rb_go || flush;
      a_state = busy_o || rb_pop || rsp_valid_o;
      rd_drain = s2_rd && !drained;
      rd_st = rd_drain ? RdDrain : rb_go ? RdReq : reads ? RdWait : RdIdle;
    end
  end
  assign rd_state_o = rd_st;

  // Evaluated only with a_pre: with it clear nothing is (see a_busy_q).
  always_comb begin
    a_act = 1'b0;
    if (a_pre) begin
      a_act = a_state || req_valid_i || m_rsp_valid_i || a_snoop || cfg_wr_i || apt_wr_i ||
              err_clr_i || pf_drop_i;
    end
  end

  assign accesses_o = acc_q;

  // The byte address within the 16-byte chunk is the byte enables' business.
  logic unused;
  assign unused = ^req_addr_i[3:0];

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      a_busy_q <= 1'b1;
      pf_q <= 1'b0;
      acc_q <= '0;
    end else if (a_pre) begin  // else quiet, see a_busy_q
      a_busy_q <= a_act;
      pf_q <= pf_o;
      if (a_act) acc_q <= acc_q + {31'd0, w_take || r_take};  // else idle: nothing changes
    end
  end

`ifndef SYNTHESIS
  // Cover points (Verilator --coverage-user; the blocks cover their own).
  // A read drains the posted writes first.
  c_apt_rd_drain: cover property (@(posedge clk_i) rd_drain);
`endif

endmodule

`default_nettype wire
