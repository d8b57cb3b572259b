// SPDX-License-Identifier: Apache-2.0
// tpu_dma_prot: checks that a byte range lies inside one enabled protection window.
`default_nettype none

module tpu_dma_prot #(
  parameter int unsigned AddrWidth  = 32,  // byte address bits
  parameter int unsigned NumWindows = 4,   // protection windows
  parameter int unsigned LenWidth   = 7    // bits of the range length
) (
  // Windows: window w is [base[w], limit[w]) (limit exclusive), enabled by en[w]
  input  logic [NumWindows*AddrWidth-1:0] win_base_i,
  input  logic [NumWindows*AddrWidth-1:0] win_limit_i,
  input  logic [NumWindows-1:0]           win_en_i,
  // The range [addr, addr + len); len >= 1
  input  logic [AddrWidth-1:0]            addr_i,
  input  logic [LenWidth-1:0]             len_i,
  output logic                            ok_o
);

  // One extra bit so that a range that wraps past the top of the address
  // space fails every window instead of aliasing to low addresses.
  logic [AddrWidth:0] range_end;
  logic [NumWindows-1:0] hit;

  assign range_end = {1'b0, addr_i} + (AddrWidth + 1)'(len_i);

  always_comb begin
    hit = '0;
    for (int w = 0; w < NumWindows; w++) begin
      hit[w] = win_en_i[w] &&
               addr_i >= win_base_i[w*AddrWidth +: AddrWidth] &&
               range_end <= {1'b0, win_limit_i[w*AddrWidth +: AddrWidth]};
    end
  end

  assign ok_o = |hit;

endmodule
