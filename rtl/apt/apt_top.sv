// SPDX-License-Identifier: MIT
//
// apt_top: the linearizing CPU aperture (BAR1).
//
// Purpose: give the host CPU a linear view of tiled surfaces.  The window
// (APT_WINDOW_BYTES) has NumRanges programmable ranges; an access inside a
// valid range is an access to the surface at the range's base: the offset
// from the range start L gives the row y = L / pitch and the byte column
// xb = L mod pitch, and the swizzle unit gives the surface offset.  Outside
// every valid range the window is a plain linear view of VRAM (window
// offset = VRAM physical address).  Targets are physical addresses (the
// aperture's requests carry VMID 0): the range base may be in VRAM or in
// system memory.  Overlapping ranges: the lowest-numbered valid range that
// contains the access wins.
//
// Access: one naturally aligned 64-bit word with byte enables at a time.
// Every supported layout keeps 8 aligned bytes of a row contiguous (the tile
// masks keep byte bits 3:0), so one access is one memory request.  A range
// whose pitch is not a multiple of 8 or whose format is illegal answers with
// err, as does a row past 2^16 and a memory error; nothing is written then.
//
// Row cache: the division by the pitch takes 28 cycles; the range, row start
// and row of the last access are kept, so an access in the same or the next
// row (sequential CPU copies) skips it.  Any write to an APT register drops
// the cache.
//
// Host protocol: assert req_valid_i for one cycle while req_ready_o is high;
// the response (rsp_valid_o, rdata, err) comes when the memory answers.

`default_nettype none

module apt_top #(
  parameter int unsigned NumRanges = 8,
  parameter int unsigned BeatBytes = 32
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  // Host side (registered by the caller)
  input  logic                   req_valid_i,
  output logic                   req_ready_o,
  input  logic                   req_we_i,
  input  logic [27:0]            req_addr_i,
  input  logic [63:0]            req_wdata_i,
  input  logic [7:0]             req_wstrb_i,
  output logic                   rsp_valid_o,
  output logic [63:0]            rsp_rdata_o,
  output logic                   rsp_err_o,
  // Ranges from the register file
  input  logic [NumRanges-1:0]    rng_valid_i,
  input  logic [NumRanges*3-1:0]  rng_mode_i,
  input  logic [NumRanges*3-1:0]  rng_bpe_i,
  input  logic [NumRanges*28-1:0] rng_start_i,
  input  logic [NumRanges*28-1:0] rng_end_i,
  input  logic [NumRanges*48-1:0] rng_base_i,
  input  logic [NumRanges*20-1:0] rng_pitch_i,
  input  logic                    cfg_wr_i,      // an APT register was written
  output logic [2:0]              state_o,
  output logic [31:0]             accesses_o,
  // Memory request channel (VMID 0) and responses
  output logic                   m_req_valid_o,
  input  logic                   m_req_ready_i,
  output logic                   m_req_we_o,
  output logic [47:0]            m_req_addr_o,
  output logic [BeatBytes*8-1:0] m_req_wdata_o,
  output logic [BeatBytes-1:0]   m_req_wstrb_o,
  input  logic                   m_rsp_valid_i,
  input  logic                   m_rsp_err_i,
  input  logic [BeatBytes*8-1:0] m_rsp_rdata_i
);

  `include "gpu_defs.svh"

  localparam int unsigned BL = $clog2(BeatBytes);
  localparam int unsigned RW = (NumRanges > 1) ? $clog2(NumRanges) : 1;

  apt_state_e st_q, st_d;
  logic we_q, we_d;
  logic [63:0] wdata_q, wdata_d;
  logic [7:0] wstrb_q, wstrb_d;
  logic [RW-1:0] r_q, r_d;
  logic [47:0] addr_q, addr_d;
  logic [27:0] l_q, l_d, rem_q, rem_d, lo_q, lo_d;
  logic [27:0] q_q, q_d;
  logic [4:0] cnt_q, cnt_d;
  logic [31:0] xb_q, xb_d;
  logic [15:0] y_q, y_d;
  logic rc_v_q, rc_v_d;
  logic [RW-1:0] rc_r_q, rc_r_d;
  logic [27:0] rc_l0_q, rc_l0_d;
  logic [15:0] rc_y0_q, rc_y0_d;
  logic rsp_valid_d, rsp_err_d;
  logic [63:0] rsp_rdata_d;
  logic [31:0] acc_q;

  // Range match: the lowest-numbered valid range containing the access.
  logic hit;
  logic [RW-1:0] hit_r;
  logic [27:0] a8;
  assign a8 = {req_addr_i[27:3], 3'b000};
  always_comb begin
    hit = 1'b0;
    hit_r = '0;
    for (int i = NumRanges - 1; i >= 0; i--) begin
      if (rng_valid_i[i] && a8 >= rng_start_i[28*i +: 28] && a8 < rng_end_i[28*i +: 28]) begin
        hit = 1'b1;
        hit_r = RW'(i);
      end
    end
  end

  logic [2:0] r_mode, r_bpe;
  logic [19:0] r_pitch;
  logic [27:0] r_start, l_new, rc_off;
  logic [47:0] r_base, swz_off;
  logic r_ok;
  assign r_mode = rng_mode_i[3*r_d +: 3];
  assign r_bpe = rng_bpe_i[3*r_d +: 3];
  assign r_pitch = rng_pitch_i[20*r_d +: 20];
  assign r_start = rng_start_i[28*r_d +: 28];
  assign r_base = rng_base_i[48*r_q +: 48];
  assign r_ok = tile_fmt_ok(r_mode, r_bpe, r_pitch) && r_pitch[2:0] == '0;
  assign l_new = a8 - r_start;  // both 8-aligned
  assign rc_off = l_new - rc_l0_q;

  apt_swz u_swz (
    .mode_i(rng_mode_i[3*r_q +: 3]),
    .bpe_i(rng_bpe_i[3*r_q +: 3]),
    .pitch_i(rng_pitch_i[20*r_q +: 20]),
    .xb_i(xb_q),
    .y_i(y_q),
    .off_o(swz_off)
  );

  // Division step: shift the next dividend bit into the remainder.
  logic [28:0] d_rem;
  logic [19:0] d_pitch;
  assign d_pitch = rng_pitch_i[20*r_q +: 20];
  assign d_rem = {rem_q, l_q[27]};

  always_comb begin
    st_d = st_q;
    we_d = we_q;
    wdata_d = wdata_q;
    wstrb_d = wstrb_q;
    r_d = r_q;
    addr_d = addr_q;
    l_d = l_q;
    lo_d = lo_q;
    rem_d = rem_q;
    q_d = q_q;
    cnt_d = cnt_q;
    xb_d = xb_q;
    y_d = y_q;
    rc_v_d = rc_v_q && !cfg_wr_i;
    rc_r_d = rc_r_q;
    rc_l0_d = rc_l0_q;
    rc_y0_d = rc_y0_q;
    rsp_valid_d = 1'b0;
    rsp_err_d = 1'b0;
    rsp_rdata_d = '0;
    unique case (st_q)
      AptIdle: begin
        if (req_valid_i) begin
          we_d = req_we_i;
          wdata_d = req_wdata_i;
          wstrb_d = req_wstrb_i;
          r_d = hit_r;
          if (!hit) begin
            addr_d = 48'(VramBase) + 48'(a8);
            st_d = AptReq;
          end else if (!r_ok) begin
            rsp_valid_d = 1'b1;
            rsp_err_d = 1'b1;
          end else if (rc_v_q && rc_r_q == hit_r && l_new >= rc_l0_q && rc_off < 28'(r_pitch)) begin
            xb_d = 32'(rc_off);
            y_d = rc_y0_q;
            st_d = AptSwz;
          end else if (rc_v_q && rc_r_q == hit_r && l_new >= rc_l0_q &&
                       rc_off - 28'(r_pitch) < 28'(r_pitch) && rc_y0_q != 16'hffff) begin
            xb_d = {4'd0, 28'(rc_off - 28'(r_pitch))};
            y_d = rc_y0_q + 16'd1;
            rc_l0_d = rc_l0_q + 28'(r_pitch);
            rc_y0_d = rc_y0_q + 16'd1;
            st_d = AptSwz;
          end else begin
            l_d = l_new;
            lo_d = l_new;
            rem_d = '0;
            q_d = '0;
            cnt_d = 5'd28;
            st_d = AptDiv;
          end
        end
      end
      AptDiv: begin
        // Restoring division, one quotient bit per cycle, MSB first.
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
          if (q_d[27:16] != '0) begin
            rsp_valid_d = 1'b1;
            rsp_err_d = 1'b1;
            st_d = AptIdle;
          end else begin
            xb_d = 32'(rem_d);
            y_d = q_d[15:0];
            rc_v_d = !cfg_wr_i;
            rc_r_d = r_q;
            rc_l0_d = lo_q - rem_d;
            rc_y0_d = q_d[15:0];
            st_d = AptSwz;
          end
        end
      end
      AptSwz: begin
        addr_d = r_base + swz_off;
        st_d = AptReq;
      end
      AptReq: begin
        if (m_req_ready_i) st_d = AptWait;
      end
      AptWait: begin
        if (m_rsp_valid_i) begin
          rsp_valid_d = 1'b1;
          rsp_err_d = m_rsp_err_i;
          rsp_rdata_d = m_rsp_err_i ? '0 : m_rsp_rdata_i[8*{addr_q[BL-1:3], 3'b000} +: 64];
          st_d = AptIdle;
        end
      end
      default: st_d = AptIdle;
    endcase
  end

  assign m_req_valid_o = st_q == AptReq;
  assign m_req_we_o = we_q;
  assign m_req_addr_o = {addr_q[47:BL], {BL{1'b0}}};
  assign m_req_wdata_o = {(BeatBytes / 8){wdata_q}};
  assign m_req_wstrb_o = BeatBytes'(wstrb_q) << {addr_q[BL-1:3], 3'b000};
  assign req_ready_o = st_q == AptIdle && !req_valid_i;
  assign state_o = st_q;
  assign accesses_o = acc_q;

  // The byte address within the 8-byte word is the byte enables' business.
  logic unused;
  assign unused = ^req_addr_i[2:0];

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      st_q <= AptIdle;
      we_q <= 1'b0;
      wdata_q <= '0;
      wstrb_q <= '0;
      r_q <= '0;
      addr_q <= '0;
      l_q <= '0;
      lo_q <= '0;
      rem_q <= '0;
      q_q <= '0;
      cnt_q <= '0;
      xb_q <= '0;
      y_q <= '0;
      rc_v_q <= 1'b0;
      rc_r_q <= '0;
      rc_l0_q <= '0;
      rc_y0_q <= '0;
      rsp_valid_o <= 1'b0;
      rsp_err_o <= 1'b0;
      rsp_rdata_o <= '0;
      acc_q <= '0;
    end else begin
      st_q <= st_d;
      we_q <= we_d;
      wdata_q <= wdata_d;
      wstrb_q <= wstrb_d;
      r_q <= r_d;
      addr_q <= addr_d;
      l_q <= l_d;
      lo_q <= lo_d;
      rem_q <= rem_d;
      q_q <= q_d;
      cnt_q <= cnt_d;
      xb_q <= xb_d;
      y_q <= y_d;
      rc_v_q <= rc_v_d;
      rc_r_q <= rc_r_d;
      rc_l0_q <= rc_l0_d;
      rc_y0_q <= rc_y0_d;
      rsp_valid_o <= rsp_valid_d;
      rsp_err_o <= rsp_err_d;
      rsp_rdata_o <= rsp_rdata_d;
      acc_q <= acc_q + {31'd0, rsp_valid_d};
    end
  end

endmodule

`default_nettype wire
