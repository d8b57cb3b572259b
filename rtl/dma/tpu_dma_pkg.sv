// SPDX-License-Identifier: Apache-2.0
// tpu_dma_pkg: status codes shared by the DMA read and write engines.
`default_nettype none

package tpu_dma_pkg;

  // Width of a status code on sts_code_o.
  localparam int unsigned StsWidth = 4;

  // Status codes (docs/dma.md, "Status").  The firmware and host headers use
  // the same values; they move into the generated source of truth once it
  // exists.
  localparam logic [StsWidth-1:0] StsOk        = 4'd0;  // every row transferred
  localparam logic [StsWidth-1:0] StsBadDesc   = 4'd1;  // descriptor fields out of range
  localparam logic [StsWidth-1:0] StsProtRead  = 4'd2;  // row outside every readable window
  localparam logic [StsWidth-1:0] StsProtWrite = 4'd3;  // row outside every writable window
  localparam logic [StsWidth-1:0] StsBusError  = 4'd4;  // SLVERR/DECERR response
  localparam logic [StsWidth-1:0] StsStream    = 4'd5;  // write stream `last` does not match the descriptor

endpackage
