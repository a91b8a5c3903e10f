// SPDX-License-Identifier: MIT
//
// cp_mem_arb: round-robin arbiter from NumClients request channels onto the
// MMU's input (and so the memory port), and the demultiplexer of responses.
//
// Purpose: every client (queue) issues at most one request per cycle on a
// valid/ready channel.  A granted request leaves on the port tagged with
// id = {client, we}; a response is routed back to the client named by its id,
// and bit 0 tells a write acknowledge from read data.  The grant rotates past
// the last winner, so no client starves.  The port is a plain valid/ready
// channel: the request is held stable until mem_req_ready_i.

`default_nettype none

module cp_mem_arb #(
  parameter int unsigned NumClients = 2,
  parameter int unsigned BeatBytes = 32,  // bytes per beat
  parameter int unsigned MemIdW = 8       // id bits on the port
) (
  input  logic                              clk_i,
  input  logic                              rst_ni,
  // Clients (flattened arrays, client c in slice c)
  input  logic [NumClients-1:0]             c_valid_i,
  output logic [NumClients-1:0]             c_ready_o,
  input  logic [NumClients-1:0]             c_we_i,
  input  logic [NumClients*4-1:0]           c_vmid_i,
  input  logic [NumClients*48-1:0]          c_addr_i,
  input  logic [NumClients*BeatBytes*8-1:0] c_wdata_i,
  input  logic [NumClients*BeatBytes-1:0]   c_wstrb_i,
  output logic [NumClients-1:0]             c_rsp_valid_o,
  output logic                              c_rsp_we_o,
  output logic                              c_rsp_err_o,
  output logic                              c_rsp_fault_o,
  output logic [BeatBytes*8-1:0]            c_rsp_rdata_o,
  // Memory master port
  output logic                              mem_req_valid_o,
  input  logic                              mem_req_ready_i,
  output logic [MemIdW-1:0]                 mem_req_id_o,
  output logic [3:0]                        mem_req_vmid_o,
  output logic [47:0]                       mem_req_addr_o,
  output logic                              mem_req_we_o,
  output logic [BeatBytes*8-1:0]            mem_req_wdata_o,
  output logic [BeatBytes-1:0]              mem_req_wstrb_o,
  input  logic                              mem_rsp_valid_i,
  input  logic [MemIdW-1:0]                 mem_rsp_id_i,
  input  logic                              mem_rsp_err_i,
  input  logic                              mem_rsp_fault_i,
  input  logic [BeatBytes*8-1:0]            mem_rsp_rdata_i
);

  localparam int unsigned CW = (NumClients > 1) ? $clog2(NumClients) : 1;

  // Clients and the write flag must fit in the id.
  initial begin : check_params
    if (CW + 1 > MemIdW) $error("cp_mem_arb: MemIdW too small for NumClients");
  end

  logic [CW-1:0] last_q, last_d, pick;
  logic found;

  // Round-robin: the first valid client after the last winner.
  always_comb begin
    pick = last_q;
    found = 1'b0;
    for (int unsigned i = 1; i <= NumClients; i++) begin
      if (!found && c_valid_i[(32'(last_q) + i) % NumClients]) begin
        pick = CW'((32'(last_q) + i) % NumClients);
        found = 1'b1;
      end
    end
  end

  assign mem_req_valid_o = found;
  assign mem_req_id_o = MemIdW'({pick, c_we_i[pick]});
  assign mem_req_vmid_o = c_vmid_i[4*pick +: 4];
  assign mem_req_addr_o = c_addr_i[48*pick +: 48];
  assign mem_req_we_o = c_we_i[pick];
  assign mem_req_wdata_o = c_wdata_i[BeatBytes*8*pick +: BeatBytes*8];
  assign mem_req_wstrb_o = c_wstrb_i[BeatBytes*pick +: BeatBytes];

  always_comb begin
    c_ready_o = '0;
    if (found) c_ready_o[pick] = mem_req_ready_i;
    last_d = (found && mem_req_ready_i) ? pick : last_q;
  end

  // Responses: the id names the client.
  logic [CW-1:0] rsp_client;
  assign rsp_client = mem_rsp_id_i[CW:1];
  always_comb begin
    c_rsp_valid_o = '0;
    if (mem_rsp_valid_i && 32'(rsp_client) < NumClients) c_rsp_valid_o[rsp_client] = 1'b1;
  end
  assign c_rsp_we_o = mem_rsp_id_i[0];
  assign c_rsp_err_o = mem_rsp_err_i;
  assign c_rsp_fault_o = mem_rsp_fault_i;
  assign c_rsp_rdata_o = mem_rsp_rdata_i;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) last_q <= CW'(NumClients - 1);
    else last_q <= last_d;
  end

  // Upper id bits are ours to leave zero; responses must echo them.
  logic unused_id;
  assign unused_id = ^mem_rsp_id_i;

endmodule

`default_nettype wire
