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
// Pipeline, one unit per cycle: a HostDepth-entry host FIFO; the front end
// (range match and the row cache, st_q) -> s1 (row, byte column) -> the
// swizzle unit -> s2 (physical address) -> the back end.  A sequential
// write through a range streams at 16 bytes per cycle.
//
// Row cache: the division by the pitch takes 28 cycles (st_q = DIV, the
// access waits at the FIFO head); the range, row start and row of the last
// access are kept, so an access in the same or the next row (sequential
// CPU copies) is translated in one cycle.  A write to an APT range register
// drops the cache.
//
// Writes are posted: no response.  The write-combining buffer (wc_q) merges
// the words that land in one memory beat, with byte enables; it closes into
// the write queue (wq_q, WqDepth beats) when a write goes to another beat,
// before a read, on a flush (any write to an APT register: apt_wr_i) once
// the accesses before it have reached it, or after AptWcIdleCycles without
// an access.  Beats leave the queue as memory requests with a slot tag;
// AptSlots may be in flight (enough to cover the memory's round trip at a
// beat per cycle), each remembering the window offset of its first word.  A posted write that fails cannot answer: the illegal-format and
// row-past-2^16 words write nothing and a memory error drops its beat; the
// first failure since APT_ERR_STATUS was cleared is latched here (cause,
// window offset), every failure pulses err_irq_o (INT_STATUS.APT_ERR) and
// counts.  Nothing waits on anything but the memory, which always answers,
// so a flush always completes: busy_o falls.
//
// Reads are uncached but prefetch, and stream: a read first drains the
// posted writes (the buffer closes, every beat is acknowledged: rd_st =
// DRAIN), then its unit joins the read queue (ru_q, RuN, answered in order)
// naming a beat buffer: the newest one when it holds (or is fetching) the
// same beat, else a new one from the ring of RbN (rb_*) whose beat is
// fetched at once, its tag the buffer's index; up to RbN fetches fly.  The
// newest buffer outlives its units: it is the prefetched beat later reads
// use.  A write waits for the reads before it to have their data.
// Coherence: every write the memory port accepts (snoop_valid_i/
// snoop_addr_i, from any agent: queues, copy engine, walker, this aperture)
// that hits the newest buffer's beat, fetched or in flight, makes it stale:
// no later read uses it (units already waiting on it came first and keep
// its data).  APT_FLUSH.PF (pf_drop_i) makes every buffer stale: the
// model's backdoor writes, which no snoop sees, use that (model/gm.c).  A
// read that fails (format, row, memory) answers with err and data 0.
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
  // Memory request channel (VMID 0) and responses
  output logic                   m_req_valid_o,
  input  logic                   m_req_ready_i,
  output logic                   m_req_we_o,
  output logic [TagW-1:0]        m_req_tag_o,
  output logic [47:0]            m_req_addr_o,
  output logic [BeatBytes*8-1:0] m_req_wdata_o,
  output logic [BeatBytes-1:0]   m_req_wstrb_o,
  input  logic                   m_rsp_valid_i,
  input  logic                   m_rsp_we_i,
  input  logic [TagW-1:0]        m_rsp_tag_i,
  input  logic                   m_rsp_err_i,
  input  logic [BeatBytes*8-1:0] m_rsp_rdata_i
);

  `include "gpu_defs.svh"

  localparam int unsigned BL = $clog2(BeatBytes);
  localparam int unsigned BB = BeatBytes * 8;
  localparam int unsigned RW = (NumRanges > 1) ? $clog2(NumRanges) : 1;
  localparam int unsigned Slots = 1 << TagW;
  localparam int unsigned HW = $clog2(HostDepth);
  localparam int unsigned QW = $clog2(WqDepth);
  localparam int unsigned LW = BL - 3;  // word lane in a beat

  // The design's assumptions.
  initial begin : check_params
    if (Slots != AptSlots) $error("apt_top: TagW must give APT_SLOTS slots");
    if (HostDepth != (1 << HW) || WqDepth != (1 << QW) || HostDepth < 2)
      $error("apt_top: FIFO depths are powers of two, the host FIFO at least 2");
    if (BeatBytes < 16) $error("apt_top: a beat holds at least two words");
  end

  typedef struct packed {
    logic         we;
    logic [27:4]  off;    // window offset of the 16-byte chunk
    logic [127:0] wdata;
    logic [15:0]  wstrb;
  } host_t;

  // A unit of translation: the whole chunk, or one half of it (in bytes 7:0).
  typedef struct packed {
    logic         we;
    logic         wide;   // both halves at once
    logic         half;   // which half, when not wide
    logic         last;   // the chunk's last unit: a read answers with it
    logic [27:3]  off;    // window offset of the unit's first word
    logic [127:0] data;
    logic [15:0]  strb;
  } unit_t;

  // s1: a translated row and byte column (or a linear address, or an error).
  typedef struct packed {
    logic        v;
    apt_err_e    err;
    logic        lin;    // outside every range: addr is the VRAM address
    logic [RW-1:0] r;
    logic [31:0] xb;
    logic [15:0] y;
    logic [47:0] addr;
    unit_t       u;
  } s1_t;

  // s2: a physical word address (or an error).
  typedef struct packed {
    logic        v;
    apt_err_e    err;
    logic [47:0] addr;
    unit_t       u;
  } s2_t;

  // A beat: the write-combining buffer, a queued beat.
  typedef struct packed {
    logic [47:BL]       beat;
    logic [BB-1:0]      data;
    logic [BeatBytes-1:0] strb;
    logic [27:3]        off;  // window offset of the first word
  } beat_t;

  // ---------------------------------------------------------------- state
  // Host FIFO.
  host_t hq_q [HostDepth];
  logic [HW:0] hq_wr_q, hq_rd_q, hq_cnt;
  logic hq_pop, head;

  // Front end: the divider and the row cache, then the two stages.
  apt_state_e st_q, st_d;
  logic [RW-1:0] r_q, r_d;
  logic [27:0] l_q, l_d, rem_q, rem_d, lo_q, lo_d;
  logic [27:0] q_q, q_d;
  logic [4:0] cnt_q, cnt_d;
  logic row_err_q, row_err_d;   // the divider found the head's row past 2^16
  logic rc_v_q, rc_v_d;
  logic [RW-1:0] rc_r_q, rc_r_d;
  logic [27:0] rc_l0_q, rc_l0_d;
  logic [15:0] rc_y0_q, rc_y0_d;
  // A chunk goes as one unit when both halves are enabled and no valid
  // range has a start, end or pitch off 16 bytes (then the halves share a
  // range and a row, and every layout keeps byte bits 3:0 of a row
  // together); else its enabled halves go one after the other.
  logic part_q, part_d;  // the head's low half is done
  s1_t s1_q, s1_d;
  s2_t s2_q, s2_d;
  logic s2_ld, s1_free, s2_free, c_take;
  // Range match: the lowest-numbered valid range containing the head.
  logic hit;
  logic [RW-1:0] hit_r;

  // Back end.  The buffer is written only when a write lands in it (wc_ld):
  // no copy of its beat each cycle.
  beat_t wc_q, wc_d;
  logic wc_ld;
  logic wc_v_q, wc_v_d;
  logic [4:0] wc_idle_q, wc_idle_d;
  logic flush_q, flush_d;       // a flush waits for the accesses before it
  beat_t wq_q [WqDepth];
  logic [QW:0] wq_wr_q, wq_rd_q, wq_cnt;
  logic wq_push, wq_pop;
  logic [Slots-1:0] sl_v_q, sl_v_d;
  logic [27:3] sl_off_q [Slots];
  logic [TagW-1:0] sl_pick;

  // Reads: beat buffers (rb_*), a ring in allocation order, fetched in that
  // order; the newest is kept as the prefetched beat.  Read units wait in
  // order in ru_q, each naming its buffer.
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
    if (RbN > Slots) $error("apt_top: a read buffer's tag is a slot tag");
  end
  logic [RbW:0] rb_alloc_q, rb_iss_q, rb_free_q, rb_cnt;
  ru_t ru_q [RuN];
  logic [RuW:0] ru_wr_q, ru_rd_q, ru_cnt;
  ru_t ru_in;
  logic ru_push, ru_pop, rb_alloc, rb_go, rb_pop, rd_drain, rd_rsp, wr_go;
  logic [47:BL] c_beat, wc_beat;
  logic [47:0] s2_addr;
  assign s2_addr = s2_q.addr;
  assign wc_beat = wc_q.beat;
  assign c_beat = s2_addr[47:BL];
  assign rb_cnt = rb_alloc_q - rb_free_q;

  // Errors of posted writes, read answers.
  logic c_err, m_err, err_v_q, err_v_d;
  logic [1:0] err_cause_q;
  logic [27:3] err_off_q;
  logic [31:0] err_cnt_q, acc_q;
  logic rsp_valid_d, rsp_err_d;
  logic [127:0] rsp_rdata_d, racc_q, racc_d;
  logic rerr_q, rerr_d;
  logic pf_q;  // pf_o as last evaluated (the quiet aperture's)
  logic [5:0] pend;
  apt_rd_e rd_st;  // what the reads wait for
  logic [27:3] wq_off;  // the write queue head's window offset
  logic [RbW-1:0] rb_new;  // the newest buffer
  assign rb_new = rb_alloc_q[RbW-1:0] - RbW'(1);

  // Working values of the next-state block (below), read only there.
  host_t h;  // the host FIFO's head
  ru_t ru_hd;  // the oldest read unit
  logic [LW-1:0] lane;  // s2's word lane in its beat
  logic [BeatBytes-1:0] w_strb;  // s2's byte enables in its beat
  logic front_empty, drained, wr_rsp, ans, ans_err, rb_reuse;
  logic [127:0] ans_data;
  logic wide_ok, lo_en, hi_en, wide, cur_half, cur_last, r_ok;
  logic [27:0] a8, l_new, rc_off, r_start;
  logic [19:0] r_pitch, d_pitch;
  logic [28:0] d_rem;

  // The write-combining merge: s2's word(s) into the buffer's beat at their
  // lane, byte by byte.
  function automatic logic [BB-1:0] wc_merge(logic [BB-1:0] old, logic [127:0] data,
                                             logic [LW-1:0] ln, logic [BeatBytes-1:0] strb);
    logic [BB-1:0] bits, w;
    w = BB'(data) << {ln, 6'b000000};
    for (int unsigned j = 0; j < BeatBytes; j++) bits[8*j +: 8] = {8{strb[j]}};
    wc_merge = (old & ~bits) | (w & bits);
  endfunction

  // ---------------------------------------------------------------- activity
  // The idle path.  With every stage empty and drained, nothing answered or
  // evicted, and no input (request, response, register write, or a snoop
  // that hits the newest buffer's beat while it is fresh) the aperture
  // changes nothing: a_act is 0 and its registers are not written.
  // (busy_o: a stage holds something, a beat is not drained, a read waits
  // or is fetched, or a flush waits.)  a_busy_q is set by a cycle with a_act
  // and cleared by one without: with it clear the state is quiet (it cannot
  // change without a_act), so with no input either (a_pre 0) a_act is 0
  // too, and nothing below is evaluated: the outputs take their quiet
  // values (pf_o the one last evaluated).
  logic a_busy_q, a_snoop, a_pre, a_act;
  always_comb begin
    a_snoop = 1'b0;
    if (snoop_valid_i && rb_cnt != '0) begin
      a_snoop = !rb_stale_q[rb_new] && rb_beat_q[rb_new] == snoop_addr_i[47:BL];
    end
  end
  assign a_pre = a_busy_q || req_valid_i || m_rsp_valid_i || a_snoop || cfg_wr_i || apt_wr_i ||
                 err_clr_i || pf_drop_i;

  // ---------------------------------------------------------------- memory requests
  // From registers only (the memory port's ready is read below): the read
  // (only once every write is acknowledged), else the write queue's head
  // when a slot is free.  Without a_busy_q the aperture is quiet: nothing
  // queued or fetched.
  always_comb begin
    wq_cnt = '0;
    sl_pick = '0;
    rb_go = 1'b0;
    wr_go = 1'b0;
    m_req_valid_o = 1'b0;
    m_req_we_o = 1'b1;
    m_req_tag_o = '0;
    m_req_addr_o = '0;
    m_req_wdata_o = '0;
    m_req_wstrb_o = '0;
    wq_off = '0;
    if (a_busy_q) begin
      wq_cnt = wq_wr_q - wq_rd_q;
      rb_go = rb_iss_q != rb_alloc_q;
      if (wq_cnt != '0) begin
        // The queue's head, straight into the port (a write's data).
        {m_req_addr_o[47:BL], m_req_wdata_o, m_req_wstrb_o, wq_off} = wq_q[wq_rd_q[QW-1:0]];
        for (int i = Slots - 1; i >= 0; i--) begin
          if (!sl_v_q[i]) begin
            wr_go = !rb_go;  // a free slot
            sl_pick = TagW'(i);
          end
        end
      end
      m_req_valid_o = rb_go || wr_go;
      m_req_tag_o = sl_pick;
      if (rb_go) begin
        m_req_we_o = 1'b0;
        m_req_tag_o = TagW'(rb_iss_q[RbW-1:0]);
        m_req_addr_o = {rb_beat_q[rb_iss_q[RbW-1:0]], {BL{1'b0}}};
        m_req_wstrb_o = '0;
      end
    end
  end

  // ---------------------------------------------------------------- swizzle
  // Named for the waves (a packed struct dumps as one vector).
  logic [47:0] swz_off;
  logic [31:0] s1_xb;
  logic [15:0] s1_y;
  logic s1_swz;
  logic [2:0] s1_mode, s1_bpe;
  logic [19:0] s1_pitch;
  assign s1_xb = s1_q.xb;
  assign s1_y = s1_q.y;
  // The range's format selected only for the swizzle (swz_off is read only then).
  always_comb begin
    s1_swz = 1'b0;
    s1_mode = '0;
    s1_bpe = '0;
    s1_pitch = '0;
    if (s1_q.v && !s1_q.lin) begin
      s1_swz = 1'b1;
      s1_mode = rng_mode_i[3*s1_q.r +: 3];
      s1_bpe = rng_bpe_i[3*s1_q.r +: 3];
      s1_pitch = rng_pitch_i[20*s1_q.r +: 20];
    end
  end
  apt_swz u_swz (
    .en_i(s1_swz),
    .mode_i(s1_mode),
    .bpe_i(s1_bpe),
    .pitch_i(s1_pitch),
    .xb_i(s1_xb),
    .y_i(s1_y),
    .off_o(swz_off)
  );

  // ---------------------------------------------------------------- status
  // From registers only (the register file reads it and its writes come
  // back as inputs below), evaluated with a_busy_q: without it the state is
  // quiet and these are their quiet values.
  logic a_state;  // the state alone keeps the aperture active
  always_comb begin
    hq_cnt = '0;
    head = 1'b0;
    ru_cnt = '0;
    ru_hd = '0;
    front_empty = 1'b1;
    drained = 1'b1;
    c_err = 1'b0;
    rd_drain = 1'b0;
    rb_pop = 1'b0;
    busy_o = 1'b0;
    a_state = 1'b0;
    req_ready_o = 1'b1;
    pend = '0;
    rd_st = RdIdle;
    pf_o = pf_q;
    if (a_busy_q) begin
      hq_cnt = hq_wr_q - hq_rd_q;
      head = hq_cnt != '0;
      ru_cnt = ru_wr_q - ru_rd_q;
      if (ru_cnt != '0) ru_hd = ru_q[ru_rd_q[RuW-1:0]];
      // The request in the caller's input register lands next cycle.
      req_ready_o = 32'(hq_cnt) + 32'(req_valid_i) < HostDepth;
      front_empty = !head && !s1_q.v && !s2_q.v && st_q == AptIdle;
      drained = !wc_v_q && wq_cnt == '0 && sl_v_q == '0;
      // A failing posted write in s2 (latched, nothing written), and a read
      // in s2 waiting for the posted writes to drain.
      c_err = s2_q.v && s2_q.u.we && ru_cnt == '0 && s2_q.err != AptErrNone;
      rd_drain = s2_q.v && !s2_q.u.we && 32'(ru_cnt) < RuN && s2_q.err == AptErrNone && !drained;
      // A buffer no unit waits on goes, but the newest (the prefetched beat).
      rb_pop = rb_cnt > (RbW+1)'(1) && rb_v_q[rb_free_q[RbW-1:0]] &&
               (ru_cnt == '0 || ru_hd.rb != rb_free_q[RbW-1:0]);
      busy_o = !front_empty || !drained || ru_cnt != '0 || rb_go || flush_q;
      a_state = busy_o || rb_pop || rsp_valid_o;
      pend = 6'(wq_cnt) + 6'($countones(sl_v_q));
      rd_st = rd_drain ? RdDrain : rb_go ? RdReq : ru_cnt != '0 ? RdWait : RdIdle;
      pf_o = rb_cnt != '0 && rb_v_q[rb_new] && !rb_stale_q[rb_new] && !rb_err_q[rb_new];
    end
  end

  // Memory responses, and the interrupt of a failing posted write.
  always_comb begin
    wr_rsp = 1'b0;
    rd_rsp = 1'b0;
    m_err = 1'b0;
    if (m_rsp_valid_i) begin
      wr_rsp = m_rsp_we_i;
      rd_rsp = !m_rsp_we_i;
      m_err = m_rsp_we_i && m_rsp_err_i;
    end
    err_irq_o = c_err || m_err;
  end

  // ---------------------------------------------------------------- next state
  // One block, evaluated only with a_pre: the back end (it frees s2), the
  // front end, then s2's load.  Quiet values first.
  always_comb begin
    hit = 1'b0;
    hit_r = '0;
    a_act = 1'b0;
    wq_pop = 1'b0;
    sl_v_d = '0;
    // Read by the registers only with a_act: constants while quiet.
    st_d = AptIdle;
    r_d = '0;
    l_d = '0;
    lo_d = '0;
    rem_d = '0;
    q_d = '0;
    cnt_d = '0;
    row_err_d = 1'b0;
    rc_v_d = 1'b0;
    rc_r_d = '0;
    rc_l0_d = '0;
    rc_y0_d = '0;
    hq_pop = 1'b0;
    part_d = 1'b0;
    s1_d = '0;
    s2_d = '0;
    s2_ld = 1'b0;
    s1_free = 1'b0;
    s2_free = 1'b0;
    c_take = 1'b0;
    wc_d = '0;
    wc_ld = 1'b0;
    wc_v_d = 1'b0;
    wc_idle_d = '0;
    flush_d = 1'b0;
    wq_push = 1'b0;
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
    err_v_d = 1'b0;
    // Working values, read only within this block.
    h = '0;
    lane = '0;
    w_strb = '0;
    ans = 1'b0;
    ans_err = 1'b0;
    ans_data = '0;
    rb_reuse = 1'b0;
    wide_ok = 1'b1;
    lo_en = 1'b0;
    hi_en = 1'b0;
    wide = 1'b0;
    cur_half = 1'b0;
    cur_last = 1'b0;
    r_ok = 1'b0;
    a8 = '0;
    l_new = '0;
    rc_off = '0;
    r_start = '0;
    r_pitch = '0;
    d_rem = '0;
    d_pitch = '0;
    if (a_pre) begin
      a_act = a_state || req_valid_i || m_rsp_valid_i || a_snoop || cfg_wr_i || apt_wr_i ||
              err_clr_i || pf_drop_i;
    end
    if (a_act) begin
      lane = s2_addr[BL-1:3];
      w_strb = BeatBytes'(s2_q.u.strb) << {lane, 3'b000};
      if (head) h = hq_q[hq_rd_q[HW-1:0]];
      wq_pop = wr_go && m_req_ready_i;
      sl_v_d = sl_v_q;
      if (wr_rsp) sl_v_d[m_rsp_tag_i] = 1'b0;
      if (wq_pop) sl_v_d[sl_pick] = 1'b1;

      // ---------------------------------------------------- back end
      wc_v_d = wc_v_q;
      wc_idle_d = wc_idle_q;
      flush_d = flush_q || apt_wr_i;
      rb_v_d = rb_v_q;
      rb_err_d = rb_err_q;
      rb_stale_d = pf_drop_i ? '1 : rb_stale_q;
      racc_d = racc_q;
      rerr_d = rerr_q;
      if (wc_v_q && wc_idle_q != 5'(AptWcIdleCycles)) wc_idle_d = wc_idle_q + 5'd1;
      if (s2_q.v && s2_q.u.we && ru_cnt != '0) begin
        // A write waits for the reads before it to have their data.
      end else if (s2_q.v && s2_q.u.we) begin
        if (s2_q.err != AptErrNone) begin
          // A failing posted write: latched, nothing written.
          c_take = 1'b1;
        end else if (wc_v_q && wc_beat == c_beat) begin
          c_take = 1'b1;
          wc_ld = 1'b1;
          wc_d.beat = wc_q.beat;
          wc_d.data = wc_merge(wc_q.data, s2_q.u.data, lane, w_strb);
          wc_d.strb = wc_q.strb | w_strb;
          wc_d.off = wc_q.off;
          wc_idle_d = '0;
        end else if (!wc_v_q || 32'(wq_cnt) < WqDepth) begin
          c_take = 1'b1;
          wq_push = wc_v_q;
          wc_v_d = 1'b1;
          wc_ld = 1'b1;
          wc_d.beat = c_beat;
          wc_d.data = BB'(s2_q.u.data) << {lane, 6'b000000};  // bytes without enables are never written
          wc_d.strb = w_strb;
          wc_d.off = s2_q.u.off;
          wc_idle_d = '0;
        end
      end else if (wc_v_q && 32'(wq_cnt) < WqDepth &&
                   ((s2_q.v && !s2_q.u.we) || wc_idle_q == 5'(AptWcIdleCycles) ||
                    (flush_q && front_empty))) begin
        // Close the buffer: a read is waiting, it idled, or a flush.
        wq_push = 1'b1;
        wc_v_d = 1'b0;
      end
      if (flush_q && front_empty && !wc_v_d) flush_d = apt_wr_i;

      // Reads, in order, after the writes before them: a unit joins ru_q
      // naming the newest buffer when that holds its beat (and no write hit
      // it), else a new buffer whose beat is fetched.
      if (s2_q.v && !s2_q.u.we && 32'(ru_cnt) < RuN) begin
        ru_in.wide = s2_q.u.wide;
        ru_in.half = s2_q.u.half;
        ru_in.last = s2_q.u.last;
        ru_in.lane = lane;
        ru_in.rb = rb_alloc_q[RbW-1:0];
        rb_reuse = rb_cnt != '0 && rb_beat_q[rb_new] == c_beat && !rb_stale_q[rb_new] &&
                   !(snoop_valid_i && snoop_addr_i[47:BL] == c_beat);
        if (s2_q.err != AptErrNone) begin
          c_take = 1'b1;
          ru_push = 1'b1;
          ru_in.err = 1'b1;
          ru_in.rb = rb_new;
        end else if (!drained) begin
          // rd_drain: the read waits
        end else if (rb_reuse) begin
          c_take = 1'b1;
          ru_push = 1'b1;
          ru_in.rb = rb_new;
        end else if (32'(rb_cnt) < RbN) begin
          c_take = 1'b1;
          ru_push = 1'b1;
          rb_alloc = 1'b1;
          rb_v_d[rb_alloc_q[RbW-1:0]] = 1'b0;
          rb_err_d[rb_alloc_q[RbW-1:0]] = 1'b0;
          rb_stale_d[rb_alloc_q[RbW-1:0]] = 1'b0;
        end
      end
      if (rd_rsp) begin
        rb_v_d[m_rsp_tag_i[RbW-1:0]] = 1'b1;
        rb_err_d[m_rsp_tag_i[RbW-1:0]] = m_rsp_err_i;
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
      // The first failure since the last clear is latched; a clear drops it.
      err_v_d = err_v_q ? !err_clr_i : (m_err || c_err);

      // ---------------------------------------------------- front end
      // s2 is loaded only when s1 moves on (else only its valid clears): no
      // copy of the stage each cycle.
      s2_free = !s2_q.v || c_take;
      s2_ld = s1_q.v && s2_free;
      s1_free = !s1_q.v || s2_free;
      st_d = st_q;
      r_d = r_q;
      l_d = l_q;
      lo_d = lo_q;
      rem_d = rem_q;
      q_d = q_q;
      cnt_d = cnt_q;
      row_err_d = row_err_q && !cfg_wr_i;
      rc_v_d = rc_v_q && !cfg_wr_i;
      rc_r_d = rc_r_q;
      rc_l0_d = rc_l0_q;
      rc_y0_d = rc_y0_q;
      part_d = part_q;
      s1_d = s1_q;
      if (s2_free) s1_d.v = 1'b0;
      unique case (st_q)
        AptIdle: begin
          if (head) begin
            lo_en = |h.wstrb[7:0];
            hi_en = |h.wstrb[15:8];
            for (int i = 0; i < NumRanges; i++) begin
              if (rng_valid_i[i] && (rng_start_i[28*i + 3] || rng_end_i[28*i + 3] ||
                                     rng_pitch_i[20*i + 3]))
                wide_ok = 1'b0;
            end
            wide = lo_en && hi_en && wide_ok && !part_q;
            cur_half = part_q || !lo_en;
            a8 = {h.off, cur_half, 3'b000};
            cur_last = wide || cur_half || !hi_en;
            for (int i = NumRanges - 1; i >= 0; i--) begin
              if (rng_valid_i[i] && a8 >= rng_start_i[28*i +: 28] && a8 < rng_end_i[28*i +: 28]) begin
                hit = 1'b1;
                hit_r = RW'(i);
              end
            end
            // The head's range (range 0's without a hit) and its format check.
            r_pitch = rng_pitch_i[20*hit_r +: 20];
            r_start = rng_start_i[28*hit_r +: 28];
            r_ok = hit && tile_fmt_ok(rng_mode_i[3*hit_r +: 3], rng_bpe_i[3*hit_r +: 3], r_pitch) &&
                   r_pitch[2:0] == '0;
            l_new = a8 - r_start;  // both 8-aligned
            rc_off = l_new - rc_l0_q;
            if (s1_free) begin
              // The unit: the whole chunk, or one half of it.
              s1_d = '0;
              s1_d.u.we = h.we;
              s1_d.u.wide = wide;
              s1_d.u.half = cur_half;
              s1_d.u.last = cur_last;
              s1_d.u.off = a8[27:3];
              s1_d.u.data = wide ? h.wdata : {64'd0, cur_half ? h.wdata[127:64] : h.wdata[63:0]};
              s1_d.u.strb = wide ? h.wstrb : {8'd0, cur_half ? h.wstrb[15:8] : h.wstrb[7:0]};
              s1_d.r = hit_r;
              hq_pop = cur_last;
              part_d = !cur_last;
              s1_d.v = 1'b1;
              if (!hit) begin
                s1_d.lin = 1'b1;
                s1_d.addr = 48'(VramBase) + 48'(a8);
              end else if (!r_ok) begin
                s1_d.err = AptErrFormat;
              end else if (row_err_q) begin
                s1_d.err = AptErrRow;
                row_err_d = 1'b0;
              end else if (rc_v_q && rc_r_q == hit_r && l_new >= rc_l0_q && rc_off < 28'(r_pitch)) begin
                s1_d.xb = 32'(rc_off);
                s1_d.y = rc_y0_q;
              end else if (rc_v_q && rc_r_q == hit_r && l_new >= rc_l0_q &&
                           rc_off - 28'(r_pitch) < 28'(r_pitch) && rc_y0_q != 16'hffff) begin
                s1_d.xb = {4'd0, 28'(rc_off - 28'(r_pitch))};
                s1_d.y = rc_y0_q + 16'd1;
                rc_l0_d = rc_l0_q + 28'(r_pitch);
                rc_y0_d = rc_y0_q + 16'd1;
              end else begin
                // Row-cache miss: divide, then translate this head again.
                hq_pop = 1'b0;
                part_d = part_q;
                s1_d = s1_q;
                s1_d.v = 1'b0;
                r_d = hit_r;
                l_d = l_new;
                lo_d = l_new;
                rem_d = '0;
                q_d = '0;
                cnt_d = 5'd28;
                st_d = AptDiv;
              end
            end
          end
        end
        AptDiv: begin
          // Restoring division, one quotient bit per cycle, MSB first:
          // shift the next dividend bit into the remainder.
          d_rem = {rem_q, l_q[27]};
          d_pitch = rng_pitch_i[20*r_q +: 20];
          l_d = {l_q[26:0], 1'b0};
          q_d = {q_q[26:0], 1'b0};
          if (d_rem >= 29'(d_pitch)) begin
            rem_d = 28'(d_rem - 29'(d_pitch));
            q_d[0] = 1'b1;
          end else begin
            rem_d = d_rem[27:0];
          end
          cnt_d = cnt_q - 5'd1;
          if (cnt_q == 5'd1) begin
            st_d = AptIdle;
            if (q_d[27:16] != '0) begin
              row_err_d = !cfg_wr_i;
            end else begin
              rc_v_d = !cfg_wr_i;
              rc_r_d = r_q;
              rc_l0_d = lo_q - rem_d;
              rc_y0_d = q_d[15:0];
            end
          end
        end
        default: st_d = AptIdle;
      endcase
      if (s2_ld) begin
        s2_d.v = 1'b1;
        s2_d.err = s1_q.err;
        s2_d.u = s1_q.u;
        s2_d.addr = s1_q.lin ? s1_q.addr : rng_base_i[48*s1_q.r +: 48] + swz_off;
      end
    end
  end

  assign state_o = st_q;
  assign rd_state_o = rd_st;
  assign wc_o = wc_v_q;
  assign pend_o = pend;
  assign accesses_o = acc_q;
  assign err_valid_o = err_v_q;
  assign err_cause_o = err_cause_q;
  assign err_off_o = {err_off_q, 3'b000};
  assign err_count_o = err_cnt_q;

  // The byte address within the 16-byte chunk is the byte enables' business;
  // the snoop compares beats.
  logic unused;
  assign unused = ^{req_addr_i[3:0], snoop_addr_i[BL-1:0], s2_addr[2:0]};

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      a_busy_q <= 1'b1;
      pf_q <= 1'b0;
      hq_wr_q <= '0;
      hq_rd_q <= '0;
      part_q <= 1'b0;
      st_q <= AptIdle;
      r_q <= '0;
      l_q <= '0;
      lo_q <= '0;
      rem_q <= '0;
      q_q <= '0;
      cnt_q <= '0;
      row_err_q <= 1'b0;
      rc_v_q <= 1'b0;
      rc_r_q <= '0;
      rc_l0_q <= '0;
      rc_y0_q <= '0;
      s1_q <= '0;
      s2_q <= '0;
      wc_q <= '0;
      wc_v_q <= 1'b0;
      wc_idle_q <= '0;
      flush_q <= 1'b0;
      wq_wr_q <= '0;
      wq_rd_q <= '0;
      sl_v_q <= '0;
      rb_v_q <= '0;
      rb_err_q <= '0;
      rb_stale_q <= '0;
      rb_alloc_q <= '0;
      rb_iss_q <= '0;
      rb_free_q <= '0;
      ru_wr_q <= '0;
      ru_rd_q <= '0;
      err_v_q <= 1'b0;
      err_cause_q <= '0;
      err_off_q <= '0;
      err_cnt_q <= '0;
      acc_q <= '0;
      rsp_valid_o <= 1'b0;
      rsp_err_o <= 1'b0;
      rsp_rdata_o <= '0;
      racc_q <= '0;
      rerr_q <= 1'b0;
    end else if (a_pre) begin  // else quiet, see a_busy_q
      a_busy_q <= a_act;
      pf_q <= pf_o;
      if (a_act) begin  // else idle: nothing changes
        hq_wr_q <= hq_wr_q + (HW+1)'(req_valid_i);
        hq_rd_q <= hq_rd_q + (HW+1)'(hq_pop);
        part_q <= part_d;
        st_q <= st_d;
        r_q <= r_d;
        l_q <= l_d;
        lo_q <= lo_d;
        rem_q <= rem_d;
        q_q <= q_d;
        cnt_q <= cnt_d;
        row_err_q <= row_err_d;
        rc_v_q <= rc_v_d;
        rc_r_q <= rc_r_d;
        rc_l0_q <= rc_l0_d;
        rc_y0_q <= rc_y0_d;
        s1_q <= s1_d;
        if (s2_ld) s2_q <= s2_d;
        else if (c_take) s2_q.v <= 1'b0;
        if (wc_ld) wc_q <= wc_d;
        wc_v_q <= wc_v_d;
        wc_idle_q <= wc_idle_d;
        flush_q <= flush_d;
        wq_wr_q <= wq_wr_q + (QW+1)'(wq_push);
        wq_rd_q <= wq_rd_q + (QW+1)'(wq_pop);
        sl_v_q <= sl_v_d;
        rb_v_q <= rb_v_d;
        rb_err_q <= rb_err_d;
        rb_stale_q <= rb_stale_d;
        rb_alloc_q <= rb_alloc_q + (RbW+1)'(rb_alloc);
        rb_iss_q <= rb_iss_q + (RbW+1)'(rb_go && m_req_ready_i);
        rb_free_q <= rb_free_q + (RbW+1)'(rb_pop);
        ru_wr_q <= ru_wr_q + (RuW+1)'(ru_push);
        ru_rd_q <= ru_rd_q + (RuW+1)'(ru_pop);
        acc_q <= acc_q + {31'd0, c_take};
        err_cnt_q <= err_cnt_q + 32'(c_err) + 32'(m_err);
        err_v_q <= err_v_d;
        // The first failure since the last clear: a memory error reported
        // this cycle came from an earlier word than a failing word in s2.
        if (!err_v_q && (m_err || c_err)) begin
          err_cause_q <= m_err ? AptErrMem : s2_q.err;
          err_off_q <= m_err ? sl_off_q[m_rsp_tag_i] : s2_q.u.off;
        end
        rsp_valid_o <= rsp_valid_d;
        rsp_err_o <= rsp_err_d;
        rsp_rdata_o <= rsp_rdata_d;
        racc_q <= racc_d;
        rerr_q <= rerr_d;
      end
    end
  end

  // Storage without reset: the FIFOs, the slots' offsets, the prefetched beat.
  // Each write comes with a_act (a request, a push, a pop, a response).
  always_ff @(posedge clk_i) begin
    if (a_act) begin
      if (req_valid_i) hq_q[hq_wr_q[HW-1:0]] <= {req_we_i, req_addr_i[27:4], req_wdata_i, req_wstrb_i};
      if (wq_push) wq_q[wq_wr_q[QW-1:0]] <= wc_q;  // the buffer it closes
      if (wq_pop) sl_off_q[sl_pick] <= wq_off;
      if (rb_alloc) rb_beat_q[rb_alloc_q[RbW-1:0]] <= c_beat;
      if (rd_rsp) rb_data_q[m_rsp_tag_i[RbW-1:0]] <= m_rsp_rdata_i;
      if (ru_push) ru_q[ru_wr_q[RuW-1:0]] <= ru_in;
    end
  end

`ifndef SYNTHESIS
  // Assertions (Verilator --assert; a failure is a model error, gm.h).
  // With a_act: idle, no request or response comes, nothing is pushed,
  // popped or fetched (no pointer moves: the bounds that held still hold)
  // and st_q is AptIdle, so each holds.
  always_ff @(posedge clk_i) begin
    if (rst_ni && a_act) begin
      // The queues stay within their depths (the pointers wrap one bit wider).
      a_apt_queues_bounded: assert (32'(wq_cnt) <= WqDepth && 32'(rb_cnt) <= RbN &&
                                    32'(ru_cnt) <= RuN && 32'(hq_cnt) <= HostDepth)
        else $error("apt_top: a queue past its depth (wq %0d, rb %0d, ru %0d, host %0d)",
                    wq_cnt, rb_cnt, ru_cnt, hq_cnt);
    end
    if (rst_ni && a_act) begin
      // The host keeps the protocol: no request while the FIFO is full.
      a_apt_host_no_overflow: assert (!(req_valid_i && 32'(hq_cnt) == HostDepth))
        else $error("apt_top: host FIFO overflow");
      a_apt_wr_ack_known: assert (!(wr_rsp && !sl_v_q[m_rsp_tag_i]))
        else $error("apt_top: write ack for a free slot");
      a_apt_rd_data_once: assert (!(rd_rsp && rb_v_q[m_rsp_tag_i[RbW-1:0]]))
        else $error("apt_top: read data for a buffer that has it");
      a_apt_state_legal: assert (apt_state_legal(st_q))
        else $error("apt_top: illegal front-end state %h", st_q);
      // Unique tags in flight: a write goes out in a free slot, a read's
      // buffer is fetched once (a_apt_rd_data_once checks its data).
      a_apt_slot_free: assert (!(wq_pop && sl_v_q[sl_pick]))
        else $error("apt_top: write issued in busy slot %0d", sl_pick);
      // No FIFO pops empty or pushes full: host, write queue, read units, buffers.
      a_apt_fifo_bounds: assert (!(hq_pop && !head) && !(wq_pop && wq_cnt == '0) &&
                                 !(wq_push && !wq_pop && 32'(wq_cnt) == WqDepth) &&
                                 !(ru_push && 32'(ru_cnt) == RuN) && !(ru_pop && ru_cnt == '0) &&
                                 !(rb_alloc && 32'(rb_cnt) == RbN))
        else $error("apt_top: a FIFO pushed full or popped empty");
      // Reads wait for the writes before them: a beat is fetched only drained.
      a_apt_read_after_writes: assert (!(rb_go && m_req_ready_i && (wc_v_q || wq_cnt != '0)))
        else $error("apt_top: a read fetched with writes not yet issued");
    end
  end

  // Cover points (Verilator --coverage-user).
  // Back-pressure on every buffer (the host FIFO's: gpu_top c_apt_host_not_ready):
  // the memory port refuses a request,
  c_apt_req_refused: cover property (@(posedge clk_i) m_req_valid_o && !m_req_ready_i);
  // every write slot is in flight while a beat waits,
  c_apt_slots_full: cover property (@(posedge clk_i) wq_cnt != '0 && (&sl_v_q));
  // the write queue is full while the buffer must close,
  c_apt_wq_full: cover property (@(posedge clk_i) wc_v_q && 32'(wq_cnt) == WqDepth && s2_q.v);
  // every beat buffer is taken, or every read-unit place,
  c_apt_rb_full: cover property (@(posedge clk_i) s2_q.v && !s2_q.u.we && 32'(rb_cnt) == RbN);
  c_apt_ru_full: cover property (@(posedge clk_i) s2_q.v && !s2_q.u.we && 32'(ru_cnt) == RuN);
  // a write waits for the reads before it.
  c_apt_wr_waits_read: cover property (@(posedge clk_i) s2_q.v && s2_q.u.we && ru_cnt != '0);
  // A read drains the posted writes first.
  c_apt_rd_drain: cover property (@(posedge clk_i) rd_drain);
  // A memory write hits the prefetched beat (it goes stale).
  c_apt_snoop_stale: cover property (@(posedge clk_i) snoop_valid_i && rb_cnt != '0 &&
                                     rb_beat_q[rb_new] == snoop_addr_i[47:BL] && !rb_stale_q[rb_new]);
  // A chunk split in halves (ranges not 16-byte multiples).
  c_apt_split: cover property (@(posedge clk_i) part_q);
  // A posted write's format error and a memory error in one cycle (the memory's is latched).
  c_apt_two_errors: cover property (@(posedge clk_i) c_err && m_err);
  // The row cache misses: a division.
  c_apt_divide: cover property (@(posedge clk_i) st_q == AptDiv && cnt_q == 5'd28);
`endif

endmodule

`default_nettype wire
