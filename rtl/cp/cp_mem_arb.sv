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
// stable until mem_req_ready_i.  A response goes back to the client whose
// id matches under its mask (c_idmask_i: a client that puts a tag in its
// low id bits masks them out), and bit 0 tells a write acknowledge from
// read data.
//
// The request itself does not pass through here: the instantiating module
// takes it from the granted client's own outputs (gpu_top: id = {client
// id | tag, we}, VMID, address, beat).  Gathered into one vector for a
// select here, every client's beat would be copied into a temporary (in
// the Verilator model) on each cycle with a request, before the variable
// select; Yosys 0.23 has no unpacked array ports to pass them apart.

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
  input  logic [NumClients*(MemIdW-1)-1:0]  c_id_i,
  input  logic [NumClients*(MemIdW-1)-1:0]  c_idmask_i,
  output logic [NumClients-1:0]             c_rsp_valid_o,
  output logic                              c_rsp_we_o,
  output logic                              c_rsp_err_o,
  output logic                              c_rsp_fault_o,
  output logic [BeatBytes*8-1:0]            c_rsp_rdata_o,
  // Memory master port
  output logic                              mem_req_valid_o,
  input  logic                              mem_req_ready_i,
  // the granted client (client c is slice c of the c_ vectors), with mem_req_valid_o
  output logic [((NumClients > 1) ? $clog2(NumClients) : 1)-1:0] mem_req_client_o,
  input  logic                              mem_rsp_valid_i,
  input  logic [MemIdW-1:0]                 mem_rsp_id_i,
  input  logic                              mem_rsp_err_i,
  input  logic                              mem_rsp_fault_i,
  input  logic [BeatBytes*8-1:0]            mem_rsp_rdata_i
);

  localparam int unsigned CW = (NumClients > 1) ? $clog2(NumClients) : 1;

  logic [CW-1:0] last_q, last_d, pick;
  logic found;

  // Round-robin: the first valid client after the last winner (searched only when one asks).
  always_comb begin
    pick = last_q;
    found = 1'b0;
    if (c_valid_i != '0) for (int unsigned i = 1; i <= NumClients; i++) begin
      if (!found && c_valid_i[(32'(last_q) + i) % NumClients]) begin
        pick = CW'((32'(last_q) + i) % NumClients);
        found = 1'b1;
      end
    end
  end

  assign mem_req_valid_o = found;
  assign mem_req_client_o = pick;
  always_comb begin
    c_ready_o = '0;
    if (found) c_ready_o[pick] = mem_req_ready_i;
    last_d = (found && mem_req_ready_i) ? pick : last_q;
  end

  // Responses: the id names the client (matched only with a response).
  always_comb begin
    c_rsp_valid_o = '0;
    if (mem_rsp_valid_i) begin
      for (int unsigned c = 0; c < NumClients; c++) begin
        c_rsp_valid_o[c] = ((mem_rsp_id_i[MemIdW-1:1] ^ c_id_i[(MemIdW-1)*c +: (MemIdW-1)]) &
                            c_idmask_i[(MemIdW-1)*c +: (MemIdW-1)]) == '0;
      end
    end
  end
  assign c_rsp_we_o = mem_rsp_id_i[0];
  assign c_rsp_err_o = mem_rsp_err_i;
  assign c_rsp_fault_o = mem_rsp_fault_i;
  assign c_rsp_rdata_o = mem_rsp_rdata_i;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) last_q <= CW'(NumClients - 1);
    else last_q <= last_d;
  end


`ifndef SYNTHESIS
  // Assertions (Verilator --assert; a failure is a model error, gm.h).
  always_ff @(posedge clk_i) begin
    if (rst_ni && mem_rsp_valid_i) begin
      // A response id names exactly one client (an unknown id would vanish).
      a_arb_rsp_routed: assert ($onehot(c_rsp_valid_o))
        else $error("cp_mem_arb: response id %h goes to %0d clients", mem_rsp_id_i,
                    $countones(c_rsp_valid_o));
    end
    // With no client asking nothing is found, granted or sent: both hold.
    if (rst_ni && c_valid_i != '0) begin
      // One grant a cycle, to a client that asks, and only with the port's ready.
      a_arb_grant_onehot: assert ($onehot0(c_ready_o) && (c_ready_o & ~c_valid_i) == '0 &&
                                  (c_ready_o == '0 || mem_req_ready_i))
        else $error("cp_mem_arb: grants %b for requests %b", c_ready_o, c_valid_i);
      // A request goes out whenever a client asks (the arbiter never idles).
      a_arb_work_conserving: assert (mem_req_valid_o == (c_valid_i != '0))
        else $error("cp_mem_arb: valid %0d for requests %b", mem_req_valid_o, c_valid_i);
    end
  end

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
