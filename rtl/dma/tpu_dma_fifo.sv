// SPDX-License-Identifier: Apache-2.0
// tpu_dma_fifo: synchronous first-word-fall-through FIFO: tpu_core_fifo without its flush.
`default_nettype none

// One FIFO body serves the DMA and the core: this wrapper ties the flush low, so the
// storage (block RAM with forwarding above 16 entries, flip-flops or LUT RAM up to 16)
// and its cycle behaviour are those of rtl/soc/tpu_core_fifo.sv (docs/dma.md).
module tpu_dma_fifo #(
  parameter int unsigned Width = 8,  // bits per entry
  parameter int unsigned Depth = 4   // entries; a power of two, at least 2
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  // Write side
  input  logic                  push_i,
  input  logic [Width-1:0]      data_i,
  output logic                  full_o,
  // Read side: data_o is the oldest entry whenever empty_o is low
  input  logic                  pop_i,
  output logic [Width-1:0]      data_o,
  output logic                  empty_o
);

  tpu_core_fifo #(
    .Width (Width),
    .Depth (Depth)
  ) u_fifo (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .flush_i (1'b0),
    .push_i  (push_i),
    .data_i  (data_i),
    .full_o  (full_o),
    .pop_i   (pop_i),
    .data_o  (data_o),
    .empty_o (empty_o)
  );

endmodule
