// SPDX-License-Identifier: Apache-2.0
// tpu_mem_fifo: small synchronous FIFO (first-word fall-through) for commands and tags.
`default_nettype none

module tpu_mem_fifo #(
  parameter int Width = 8,  // bits per entry
  parameter int Depth = 2   // entries, a power of two >= 2
) (
  input  wire              clk_i,
  input  wire              rst_ni,
  // Write side
  input  wire              push_i,   // ignored when full
  input  wire  [Width-1:0] data_i,
  output logic             full_o,
  // Read side
  input  wire              pop_i,    // ignored when empty
  output logic [Width-1:0] data_o,
  output logic             empty_o
);
  localparam int PtrW = $clog2(Depth);

  logic [Width-1:0] mem_q [Depth];
  logic [PtrW:0] wr_q, wr_d, rd_q, rd_d;
  logic do_push, do_pop;

  assign empty_o = wr_q == rd_q;
  assign full_o  = (wr_q[PtrW-1:0] == rd_q[PtrW-1:0]) && (wr_q[PtrW] != rd_q[PtrW]);
  assign data_o  = mem_q[rd_q[PtrW-1:0]];
  assign do_push = push_i && !full_o;
  assign do_pop  = pop_i && !empty_o;

  always_comb begin
    wr_d = wr_q;
    rd_d = rd_q;
    if (do_push) wr_d = wr_q + 1'b1;
    if (do_pop) rd_d = rd_q + 1'b1;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wr_q <= '0;
      rd_q <= '0;
    end else begin
      wr_q <= wr_d;
      rd_q <= rd_d;
    end
  end

  // Storage: a memory written at one index, so it is not reset.
  always_ff @(posedge clk_i) begin
    if (do_push) mem_q[wr_q[PtrW-1:0]] <= data_i;
  end

  // Assertions
`ifndef SYNTHESIS
  initial begin
    if (Depth < 2 || (1 << PtrW) != Depth) $fatal(1, "tpu_mem_fifo: Depth %0d is not a power of two >= 2", Depth);
  end
`endif
endmodule
