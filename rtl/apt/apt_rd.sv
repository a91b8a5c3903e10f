// SPDX-License-Identifier: MIT
//
// apt_rd: the aperture's read path: the beat buffers (the prefetched beat),
// the read units waiting in order, coherence, and the host's responses.
//
// Purpose: reads are uncached but prefetch, and stream.  A read in s2
// first waits for the posted writes to drain (drained_i from apt_wr;
// apt_top's rd_st = DRAIN), then its unit joins the read queue (u_ru, RuN,
// answered in order) naming a beat buffer: the newest one when it holds
// (or is fetching) the same beat, else a new one from the ring of RbN
// (rb_*) whose beat is fetched at once (fetch_o: apt_wr's writes wait),
// its tag the buffer's index; up to RbN fetches fly.  The newest buffer
// outlives its units: it is the prefetched beat later reads use (pf_o).
//
// Coherence: every write the memory port accepts (snoop_valid_i/
// snoop_addr_i, from any agent: queues, copy engine, walker, this aperture)
// that hits the newest buffer's beat, fetched or in flight, makes it stale:
// no later read uses it (units already waiting on it came first and keep
// its data).  APT_FLUSH.PF (pf_drop_i) makes every buffer stale: the
// model's backdoor writes, which no snoop sees, use that (model/gm.c).  A
// read that fails (format, row, memory) answers with err and data 0; the
// chunk's last unit answers (rsp_valid_o, rsp_rdata_o, rsp_err_o).
//
// How to drive it: s2_* is apt_front's unit; take_o says this path takes it
// (a read).  busy_i and act_i are apt_top's a_busy_q and a_act (see
// apt_front); without busy_i pf_o is pf_q_i, its value last evaluated.
// snoop_hit_o (a write hit the fresh newest beat) is one of the inputs that
// wake a quiet aperture.

`default_nettype none

module apt_rd #(
  parameter int unsigned BeatBytes = 32,
  parameter int unsigned TagW = 5         // log2 of AptSlots
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  input  logic                   busy_i,         // apt_top a_busy_q
  input  logic                   act_i,          // apt_top a_act
  // s2's unit (apt_front)
  input  logic                   s2_v_i,
  input  logic [1:0]             s2_err_i,       // apt_err_e
  input  logic [47:0]            s2_addr_i,
  input  logic                   s2_we_i,
  input  logic                   s2_wide_i,
  input  logic                   s2_half_i,
  input  logic                   s2_last_i,
  output logic                   take_o,         // a read in s2 is taken
  input  logic                   drained_i,      // every posted write acknowledged (apt_wr)
  // Coherence
  input  logic                   snoop_valid_i,
  input  logic [47:0]            snoop_addr_i,
  input  logic                   pf_drop_i,      // APT_FLUSH.PF written 1
  output logic                   snoop_hit_o,    // the snoop makes the fresh newest beat stale
  // Status
  output logic                   reads_o,        // read units wait for their data
  output logic                   pop_o,          // a buffer no unit waits on goes
  input  logic                   pf_q_i,         // pf_o as last evaluated (apt_top)
  output logic                   pf_o,           // the newest buffer holds a usable beat
  output logic                   s2_rd_o,        // a read in s2 may join the read units
  // Beat fetches (they go before apt_wr's writes)
  output logic                   fetch_o,
  output logic [TagW-1:0]        fetch_tag_o,
  output logic [47:0]            fetch_addr_o,
  input  logic                   m_req_ready_i,
  // Memory responses
  input  logic                   m_rsp_valid_i,
  input  gpu_pkg::mem_rsp_t      m_rsp_i,
  // Host responses
  output logic                   rsp_valid_o,
  output logic [127:0]           rsp_rdata_o,
  output logic                   rsp_err_o
);

  `include "gpu_defs.svh"

  localparam int unsigned BL = $clog2(BeatBytes);
  localparam int unsigned BB = BeatBytes * 8;
  localparam int unsigned Slots = 1 << TagW;
  localparam int unsigned LW = BL - 3;  // word lane in a beat

  // Beat buffers (rb_*), a ring in allocation order, fetched in that
  // order; the newest is kept as the prefetched beat.  Read units wait in
  // order in u_ru (a prim_fifo_sync), each naming its buffer.
  localparam int unsigned RbN = 32;  // beats fetched or held for reads
  localparam int unsigned RbW = $clog2(RbN);
  localparam int unsigned RuN = 32;  // read units waiting for their data
  localparam int unsigned RuW = $clog2(RuN);
  typedef struct packed {
    logic           wide;
    logic           half;
    logic           last;
    logic           err;   // failed translation: answers err
    logic [LW-1:0]  lane;
    logic [RbW-1:0] rb;
  } ru_t;
  logic [47:BL] rb_beat_q [RbN];
  logic [BB-1:0] rb_data_q [RbN];
  logic [RbN-1:0] rb_v_q, rb_v_d, rb_err_q, rb_err_d, rb_stale_q, rb_stale_d;
  initial begin : check_rb
    if (RbN > Slots) $error("apt_rd: a read buffer's tag is a slot tag");
  end
  logic [RbW:0] rb_alloc_q, rb_iss_q, rb_free_q, rb_cnt;
  ru_t ru_head;  // the read-unit queue (u_ru): its head and its count
  logic [RuW:0] ru_count, ru_cnt;
  ru_t ru_in;
  logic ru_push, ru_pop, rb_alloc, rb_pop, rd_rsp;
  logic [47:BL] c_beat;
  assign c_beat = s2_addr_i[47:BL];
  assign rb_cnt = rb_alloc_q - rb_free_q;
  logic [RbW-1:0] rb_new;  // the newest buffer
  assign rb_new = rb_alloc_q[RbW-1:0] - RbW'(1);

  ru_t ru_hd;  // the oldest read unit

  // Read answers.
  logic rsp_valid_d, rsp_err_d;
  logic [127:0] rsp_rdata_d, racc_q, racc_d;
  logic rerr_q, rerr_d;

  // Working values of the next-state block (below), read only there.
  logic [LW-1:0] lane;  // s2's word lane in its beat
  logic ans, ans_err, rb_reuse;
  logic [127:0] ans_data;

  // A snoop that hits the newest buffer's beat while it is fresh: it wakes
  // a quiet aperture (apt_top a_pre); any other snoop changes nothing.
  always_comb begin
    snoop_hit_o = 1'b0;
    if (snoop_valid_i && rb_cnt != '0) begin
      snoop_hit_o = !rb_stale_q[rb_new] && rb_beat_q[rb_new] == snoop_addr_i[47:BL];
    end
  end

  // ---------------------------------------------------------------- status, fetches
  // From registers only, evaluated with busy_i: without it the state is
  // quiet and these are their quiet values.  A beat is fetched as soon as
  // its buffer is allocated (only once every write is acknowledged), in
  // allocation order.
  always_comb begin
    ru_cnt = '0;
    ru_hd = '0;
    fetch_o = 1'b0;
    fetch_tag_o = '0;
    fetch_addr_o = '0;
    rb_pop = 1'b0;
    s2_rd_o = 1'b0;
    pf_o = pf_q_i;
    if (busy_i) begin
      ru_cnt = ru_count;
      if (ru_cnt != '0) ru_hd = ru_head;
      fetch_o = rb_iss_q != rb_alloc_q;
      if (fetch_o) begin
        fetch_tag_o = TagW'(rb_iss_q[RbW-1:0]);
        fetch_addr_o = {rb_beat_q[rb_iss_q[RbW-1:0]], {BL{1'b0}}};
      end
      // A buffer no unit waits on goes, but the newest (the prefetched beat).
      rb_pop = rb_cnt > (RbW+1)'(1) && rb_v_q[rb_free_q[RbW-1:0]] &&
               (ru_cnt == '0 || ru_hd.rb != rb_free_q[RbW-1:0]);
      pf_o = rb_cnt != '0 && rb_v_q[rb_new] && !rb_stale_q[rb_new] && !rb_err_q[rb_new];
      // A read that is not failing waits here only for the posted writes
      // (apt_top's rd_st: DRAIN).
      s2_rd_o = s2_v_i && !s2_we_i && 32'(ru_cnt) < RuN && s2_err_i == AptErrNone;
    end
  end
  assign reads_o = ru_cnt != '0;
  assign pop_o = rb_pop;

  assign rd_rsp = m_rsp_valid_i && !m_rsp_i.id[0];

  // ---------------------------------------------------------------- next state
  // Evaluated only with act_i.  Quiet values first.
  always_comb begin
    take_o = 1'b0;
    rb_v_d = '0;
    rb_err_d = '0;
    rb_stale_d = '0;
    rb_alloc = 1'b0;
    ru_push = 1'b0;
    ru_pop = 1'b0;
    ru_in = '0;
    rsp_valid_d = 1'b0;
    rsp_err_d = 1'b0;
    rsp_rdata_d = '0;
    racc_d = '0;
    rerr_d = 1'b0;
    // Working values, read only within this block.
    lane = '0;
    ans = 1'b0;
    ans_err = 1'b0;
    ans_data = '0;
    rb_reuse = 1'b0;
    if (act_i) begin
      lane = s2_addr_i[BL-1:3];
      rb_v_d = rb_v_q;
      rb_err_d = rb_err_q;
      rb_stale_d = pf_drop_i ? '1 : rb_stale_q;
      racc_d = racc_q;
      rerr_d = rerr_q;
      // Reads, in order, after the writes before them: a unit joins u_ru
      // naming the newest buffer when that holds its beat (and no write hit
      // it), else a new buffer whose beat is fetched.
      if (s2_v_i && !s2_we_i && 32'(ru_cnt) < RuN) begin
        ru_in.wide = s2_wide_i;
        ru_in.half = s2_half_i;
        ru_in.last = s2_last_i;
        ru_in.lane = lane;
        ru_in.rb = rb_alloc_q[RbW-1:0];
        rb_reuse = rb_cnt != '0 && rb_beat_q[rb_new] == c_beat && !rb_stale_q[rb_new] &&
                   !(snoop_valid_i && snoop_addr_i[47:BL] == c_beat);
        if (s2_err_i != AptErrNone) begin
          take_o = 1'b1;
          ru_push = 1'b1;
          ru_in.err = 1'b1;
          ru_in.rb = rb_new;
        end else if (!drained_i) begin
          // The read waits for the posted writes (apt_top rd_drain).
        end else if (rb_reuse) begin
          take_o = 1'b1;
          ru_push = 1'b1;
          ru_in.rb = rb_new;
        end else if (32'(rb_cnt) < RbN) begin
          take_o = 1'b1;
          ru_push = 1'b1;
          rb_alloc = 1'b1;
          rb_v_d[rb_alloc_q[RbW-1:0]] = 1'b0;
          rb_err_d[rb_alloc_q[RbW-1:0]] = 1'b0;
          rb_stale_d[rb_alloc_q[RbW-1:0]] = 1'b0;
        end
      end
      if (rd_rsp) begin
        rb_v_d[m_rsp_i.id[RbW:1]] = 1'b1;
        rb_err_d[m_rsp_i.id[RbW:1]] = m_rsp_i.err;
      end
      // The oldest unit answers once its beat is there.
      if (ru_cnt != '0 && (ru_hd.err || rb_v_q[ru_hd.rb])) begin
        ru_pop = 1'b1;
        ans = 1'b1;
        ans_err = ru_hd.err || rb_err_q[ru_hd.rb];
        ans_data = ans_err ? '0 : 128'(rb_data_q[ru_hd.rb] >> {ru_hd.lane, 6'b000000});
      end
      // A read unit answered: into its place in the chunk; the last answers.
      if (ans) begin
        if (ru_hd.wide) racc_d = ans_data;
        else if (ru_hd.half) racc_d[127:64] = ans_data[63:0];
        else racc_d[63:0] = ans_data[63:0];
        rerr_d = rerr_q || ans_err;
        if (ru_hd.last) begin
          rsp_valid_d = 1'b1;
          rsp_err_d = rerr_d;
          rsp_rdata_d = rerr_d ? '0 : racc_d;
          racc_d = '0;
          rerr_d = 1'b0;
        end
      end
      // Coherence: a write the memory accepted drops the beat it hits.
      // Only the newest buffer is ever reused, so only it needs the snoop;
      // units already waiting on a beat keep its data (they came first).
      if (snoop_valid_i && rb_cnt != '0 && rb_beat_q[rb_new] == snoop_addr_i[47:BL])
        rb_stale_d[rb_new] = 1'b1;
    end
  end

  // The snoop and s2 compare beats.
  logic unused;
  assign unused = ^{snoop_addr_i[BL-1:0], s2_addr_i[2:0], m_rsp_i.id[7:RbW+1], m_rsp_i.fault};

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      rb_v_q <= '0;
      rb_err_q <= '0;
      rb_stale_q <= '0;
      rb_alloc_q <= '0;
      rb_iss_q <= '0;
      rb_free_q <= '0;
      rsp_valid_o <= 1'b0;
      rsp_err_o <= 1'b0;
      rsp_rdata_o <= '0;
      racc_q <= '0;
      rerr_q <= 1'b0;
    end else if (act_i) begin  // else idle: nothing changes
      rb_v_q <= rb_v_d;
      rb_err_q <= rb_err_d;
      rb_stale_q <= rb_stale_d;
      rb_alloc_q <= rb_alloc_q + (RbW+1)'(rb_alloc);
      rb_iss_q <= rb_iss_q + (RbW+1)'(fetch_o && m_req_ready_i);
      rb_free_q <= rb_free_q + (RbW+1)'(rb_pop);
      rsp_valid_o <= rsp_valid_d;
      rsp_err_o <= rsp_err_d;
      rsp_rdata_o <= rsp_rdata_d;
      racc_q <= racc_d;
      rerr_q <= rerr_d;
    end
  end

  // The read units, in order; the queue moves with act_i.
  prim_fifo_sync #(
    .Width($bits(ru_in)),
    .Depth(RuN)
  ) u_ru (
    .clk_i,
    .rst_ni,
    .en_i(act_i),
    .clr_i(1'b0),
    .wvalid_i(ru_push),
    .wdata_i(ru_in),
    .rready_i(ru_pop),
    .out_en_i(busy_i),  // the head and the count are read only with it
    .rdata_o(ru_head),
    .count_o(ru_count)
  );

  // Storage without reset: the beat buffers.  Each write comes with act_i
  // (an allocation, a response).
  always_ff @(posedge clk_i) begin
    if (act_i) begin
      if (rb_alloc) rb_beat_q[rb_alloc_q[RbW-1:0]] <= c_beat;
      if (rd_rsp) rb_data_q[m_rsp_i.id[RbW:1]] <= m_rsp_i.rdata;
    end
  end

`ifndef SYNTHESIS
  // Assertions (Verilator --assert; a failure is a model error, gm.h).
  // With act_i: idle, no response comes, nothing is pushed, popped or
  // fetched (no pointer moves: the bounds that held still hold), so each
  // holds.
  always_ff @(posedge clk_i) begin
    if (rst_ni && act_i) begin
      // The buffers stay within their depth (the pointers wrap one bit
      // wider); the read units' queue checks its own (prim_fifo_sync).
      a_apt_queues_bounded: assert (32'(rb_cnt) <= RbN)
        else $error("apt_rd: the beat buffers past their depth (%0d)", rb_cnt);
      // A read's buffer is fetched once: its data comes once.
      a_apt_rd_data_once: assert (!(rd_rsp && rb_v_q[m_rsp_i.id[RbW:1]]))
        else $error("apt_rd: read data for a buffer that has it");
      // No buffer allocated full.
      a_apt_fifo_bounds: assert (!(rb_alloc && 32'(rb_cnt) == RbN))
        else $error("apt_rd: a beat buffer allocated with all taken");
    end
  end

  // Cover points (Verilator --coverage-user).
  // Back-pressure: every beat buffer is taken, or every read-unit place.
  c_apt_rb_full: cover property (@(posedge clk_i) s2_v_i && !s2_we_i && 32'(rb_cnt) == RbN);
  c_apt_ru_full: cover property (@(posedge clk_i) s2_v_i && !s2_we_i && 32'(ru_cnt) == RuN);
  // A memory write hits the prefetched beat (it goes stale).
  c_apt_snoop_stale: cover property (@(posedge clk_i) snoop_valid_i && rb_cnt != '0 &&
                                     rb_beat_q[rb_new] == snoop_addr_i[47:BL] && !rb_stale_q[rb_new]);
`endif

endmodule

`default_nettype wire
