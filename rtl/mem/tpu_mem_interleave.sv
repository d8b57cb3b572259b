// SPDX-License-Identifier: Apache-2.0
// tpu_mem_interleave: maps a byte address to (pseudo-channel, channel-local beat address).
//
// Consecutive GranBytes-sized chunks go to consecutive channels; the chunks a channel
// receives are packed densely, so each channel sees a contiguous local address space.
`default_nettype none

module tpu_mem_interleave #(
  parameter int AddrWidth    = 32,  // byte address bits (the input has one carry bit more)
  parameter int NumPch       = 1,   // pseudo-channels, a power of two
  parameter int GranLog2     = 8,   // log2 of the interleave granularity in bytes, >= 5
  parameter int PchBytesLog2 = 28,  // log2 of the bytes in one pseudo-channel
  localparam int PchLog2 = $clog2(NumPch),
  localparam int ChW     = (NumPch > 1) ? PchLog2 : 1,
  localparam int LocW    = PchBytesLog2 - 5,
  localparam int TotLog2 = PchBytesLog2 + PchLog2
) (
  input  wire  [AddrWidth:0] addr_i,     // byte address; bit AddrWidth is a carry (always out of range)
  output logic [ChW-1:0]     ch_o,       // pseudo-channel
  output logic [LocW-1:0]    local_o,    // beat (32-byte) address inside the channel
  output logic               in_range_o  // the address lies inside the memory
);
  if (NumPch > 1) begin : g_multi
    if (PchBytesLog2 > GranLog2 && GranLog2 > 5) begin : g_hi
      assign local_o = {addr_i[TotLog2-1:GranLog2+PchLog2], addr_i[GranLog2-1:5]};
    end else if (PchBytesLog2 > GranLog2) begin : g_beat
      assign local_o = addr_i[TotLog2-1:5+PchLog2];
    end else begin : g_lo
      assign local_o = addr_i[PchBytesLog2-1:5];
    end
    assign ch_o = addr_i[GranLog2+PchLog2-1:GranLog2];
  end else begin : g_single
    assign local_o = addr_i[PchBytesLog2-1:5];
    assign ch_o = 1'b0;
  end

  if (TotLog2 < AddrWidth + 1) begin : g_range
    assign in_range_o = addr_i[AddrWidth:TotLog2] == '0;
  end else begin : g_full
    assign in_range_o = !addr_i[AddrWidth];
  end

  // Unused address bits: the byte offset inside a beat (checked by the caller).
  logic unused_addr;
  assign unused_addr = ^addr_i[4:0];

  // Assertions
`ifndef SYNTHESIS
  initial begin
    if (NumPch < 1 || NumPch > 16 || (1 << PchLog2) != NumPch)
      $fatal(1, "tpu_mem_interleave: NumPch %0d must be a power of two in 1..16", NumPch);
    if (GranLog2 < 5) $fatal(1, "tpu_mem_interleave: granularity below one 32-byte beat");
    if (NumPch > 1 && GranLog2 > PchBytesLog2)
      $fatal(1, "tpu_mem_interleave: granularity larger than a pseudo-channel");
  end
`endif
endmodule
