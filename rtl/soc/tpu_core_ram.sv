// SPDX-License-Identifier: Apache-2.0
// tpu_core_ram: an on-chip buffer (UB, WB, VP) with two write and two read ports.
`default_nettype none

// Simulation model of a multi-port buffer: reads are combinational, writes take effect
// at the clock edge; when both write ports hit the same row, port 1 wins (the ISA calls
// such a program a race).  Board builds map it onto banked block RAM (docs/core.md).
module tpu_core_ram #(
  parameter int unsigned Rows  = 256,  // rows
  parameter int unsigned Width = 64,   // bits per row
  localparam int unsigned Aw = (Rows > 1) ? $clog2(Rows) : 1
) (
  input  logic             clk_i,
  input  logic             we0_i,
  input  logic [15:0]      waddr0_i,
  input  logic [Width-1:0] wdata0_i,
  input  logic             we1_i,
  input  logic [15:0]      waddr1_i,
  input  logic [Width-1:0] wdata1_i,
  input  logic [15:0]      raddr0_i,
  output logic [Width-1:0] rdata0_o,
  input  logic [15:0]      raddr1_i,
  output logic [Width-1:0] rdata1_o
);
  /* verilator no_inline_module */

  logic [Width-1:0] mem_q [Rows];

  assign rdata0_o = mem_q[Aw'(raddr0_i)];
  assign rdata1_o = mem_q[Aw'(raddr1_i)];

  always_ff @(posedge clk_i) begin
    if (we0_i) mem_q[Aw'(waddr0_i)] <= wdata0_i;
    if (we1_i) mem_q[Aw'(waddr1_i)] <= wdata1_i;
  end

  logic unused;
  assign unused = ^{raddr0_i, raddr1_i};

  // Assertions
`ifndef SYNTHESIS
  a_w0_range: assert property (@(posedge clk_i) !(we0_i && 32'(waddr0_i) >= Rows))
    else $error("tpu_core_ram: write port 0 row %0d outside %0d rows", waddr0_i, Rows);
  a_w1_range: assert property (@(posedge clk_i) !(we1_i && 32'(waddr1_i) >= Rows))
    else $error("tpu_core_ram: write port 1 row %0d outside %0d rows", waddr1_i, Rows);
`endif

endmodule
