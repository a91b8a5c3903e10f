// SPDX-License-Identifier: MIT
//
// cp_mem_arb: round-robin arbiter of NumClients request channels for the
// MMU's input (and so the memory port), and the demultiplexer of responses.
//
// Purpose: every client (queues, aperture, copy engine) issues at most one
// request per cycle on a valid/ready channel.  One is granted a cycle:
// mem_req_valid_o names it in mem_req_client_o, and its c_ready_o follows
// mem_req_ready_i.  The grant rotates past the last winner, so no client
// starves.  The port is a plain valid/ready channel: the request is held
// stable until mem_req_ready_i.  A response (gpu_pkg::mem_rsp_t) goes to
// every client as it is, with c_rsp_valid_o set for the client whose id
// matches under its mask (c_idmask_i: a client that puts a tag in its low
// id bits masks them out); its id bit 0 tells a write acknowledge from
// read data.
//
// The request itself (gpu_pkg::mem_req_t) does not pass through here: the
// instantiating module takes it from the granted client's own outputs
// (gpu_top, by a chain of constant selects).  Gathered into one vector for
// a select here, every client's beat would be copied into a temporary (in
// the Verilator model) on each cycle with a request, before the variable
// select; Yosys 0.23 has no unpacked array ports to pass them apart.

`default_nettype none

`include "prim/prim_assert.svh"

module cp_mem_arb #(
  parameter int unsigned NumClients = 2,
  parameter int unsigned MemIdW = 8       // id bits on the port (gpu_pkg::mem_rsp_t's)
) (
  input  logic                              clk_i,
  input  logic                              rst_ni,
  // Clients (flattened arrays, client c in slice c)
  input  logic [NumClients-1:0]             c_valid_i,
  output logic [NumClients-1:0]             c_ready_o,
  input  logic [NumClients*(MemIdW-1)-1:0]  c_id_i,
  input  logic [NumClients*(MemIdW-1)-1:0]  c_idmask_i,
  output logic [NumClients-1:0]             c_rsp_valid_o,
  output gpu_pkg::mem_rsp_t                 c_rsp_o,     // for every client, with its c_rsp_valid_o
  // Memory master port
  output logic                              mem_req_valid_o,
  input  logic                              mem_req_ready_i,
  // the granted client (client c is slice c of the c_ vectors), with mem_req_valid_o
  output logic [((NumClients > 1) ? $clog2(NumClients) : 1)-1:0] mem_req_client_o,
  input  logic                              mem_rsp_valid_i,
  input  gpu_pkg::mem_rsp_t                 mem_rsp_i
);


  logic [NumClients-1:0] gnt;

  // Round-robin (prim_arb_rr): the first asking client after the last one
  // the port took; the pointer moves only when the port takes the request.
  prim_arb_rr #(
    .N(NumClients)
  ) u_rr (
    .clk_i,
    .rst_ni,
    .req_i(c_valid_i),
    .ack_i(mem_req_ready_i),
    .valid_o(mem_req_valid_o),
    .idx_o(mem_req_client_o),
    .gnt_o(gnt)
  );
  assign c_ready_o = gnt & {NumClients{mem_req_ready_i}};

  // Responses: the id names the client (matched only with a response).
  always_comb begin
    c_rsp_valid_o = '0;
    if (mem_rsp_valid_i) begin
      for (int unsigned c = 0; c < NumClients; c++) begin
        c_rsp_valid_o[c] = ((mem_rsp_i.id[MemIdW-1:1] ^ c_id_i[(MemIdW-1)*c +: (MemIdW-1)]) &
                            c_idmask_i[(MemIdW-1)*c +: (MemIdW-1)]) == '0;
      end
    end
  end
  assign c_rsp_o = mem_rsp_i;


  // Assertions (prim_assert.svh; a failure is a model error, gm.h).
  // A response id names exactly one client (an unknown id would vanish).
  `ASSERT_IF(a_arb_rsp_routed, $onehot(c_rsp_valid_o), mem_rsp_valid_i)
  // One grant a cycle, to a client that asks, whenever one asks (the
  // arbiter never idles): prim_arb_rr's ArbGrantOneHot_A; c_ready_o is that
  // grant with the port's ready.

`ifndef SYNTHESIS
  // Cover points (Verilator --coverage-user).
  // Every client asks in one cycle (queues, aperture, copy engine).
  c_arb_all_clients: cover property (@(posedge clk_i) &c_valid_i);
  // Contention: two or more ask and the port takes one.
  c_arb_contention: cover property (@(posedge clk_i) !$onehot0(c_valid_i) && mem_req_ready_i);
  // The port refuses while clients wait.
  c_arb_port_refused: cover property (@(posedge clk_i) mem_req_valid_o && !mem_req_ready_i);
`endif

endmodule

`default_nettype wire
