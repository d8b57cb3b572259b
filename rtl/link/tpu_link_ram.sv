// SPDX-License-Identifier: Apache-2.0
// tpu_link_ram: simple dual-port RAM (one write port, one registered read port) for the link buffers.
`default_nettype none

module tpu_link_ram #(
  parameter int unsigned Width = 32,   // bits per word
  parameter int unsigned Depth = 64    // words
) (
  input  logic                     clk_i,
  input  logic                     we_i,
  input  logic [$clog2(Depth)-1:0] waddr_i,
  input  logic [Width-1:0]         wdata_i,
  input  logic                     re_i,
  input  logic [$clog2(Depth)-1:0] raddr_i,
  output logic [Width-1:0]         rdata_o   // the word read in the previous cycle (re_i)
);

  // no_rw_check: Yosys need not give a read of the word being written either value, so it
  // builds no bypass (on the iCE40 that bypass was a register and a multiplexer per bit
  // beside the block RAM: 521 flip-flops and 261 LUTs for the 256-bit payload buffer).
  (* no_rw_check *) logic [Width-1:0] mem_q [Depth];
  logic [Width-1:0] rdata_q;

  assign rdata_o = rdata_q;

  // Not reset: a block RAM.  Reads and writes of the same word in one cycle never happen
  // (the link engine uses the buffers one phase at a time).
  always_ff @(posedge clk_i) begin
    if (we_i) mem_q[waddr_i] <= wdata_i;
    if (re_i) rdata_q <= mem_q[raddr_i];
  end

  // Assertions
`ifndef SYNTHESIS
  // Immediate assertions in a clocked block, not properties (docs/verification.md).
  always_ff @(posedge clk_i) begin : checks
    assert (!we_i || 32'(waddr_i) < Depth) else $error("tpu_link_ram: write beyond the RAM");
    assert (!re_i || 32'(raddr_i) < Depth) else $error("tpu_link_ram: read beyond the RAM");
    assert (!(we_i && re_i && waddr_i == raddr_i))
      else $error("tpu_link_ram: read and write of the same word in one cycle");
  end
`endif

endmodule

`default_nettype wire
