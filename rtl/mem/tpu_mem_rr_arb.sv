// SPDX-License-Identifier: Apache-2.0
// tpu_mem_rr_arb: round-robin arbiter; the pointer moves past a grant only when it is taken.
`default_nettype none

module tpu_mem_rr_arb #(
  parameter int N = 2,  // requesters
  localparam int IdxW = (N > 1) ? $clog2(N) : 1
) (
  input  wire             clk_i,
  input  wire             rst_ni,
  input  wire  [N-1:0]    req_i,
  input  wire             take_i,   // the granted request is consumed this cycle
  output logic            valid_o,  // some request is granted
  output logic [IdxW-1:0] idx_o,
  output logic [N-1:0]    gnt_o
);
  logic [IdxW-1:0] ptr_q, ptr_d;

  always_comb begin
    logic found_hi;
    logic found_lo;
    logic [IdxW-1:0] idx_hi;
    logic [IdxW-1:0] idx_lo;
    found_hi = 1'b0;
    found_lo = 1'b0;
    idx_hi = '0;
    idx_lo = '0;
    // First requester at or after the pointer, else the first one overall.
    for (int i = N - 1; i >= 0; i--) begin
      if (req_i[i]) begin
        found_lo = 1'b1;
        idx_lo = IdxW'(i);
        if (IdxW'(i) >= ptr_q) begin
          found_hi = 1'b1;
          idx_hi = IdxW'(i);
        end
      end
    end
    valid_o = found_lo;
    idx_o = found_hi ? idx_hi : idx_lo;
    gnt_o = '0;
    if (valid_o) gnt_o[idx_o] = 1'b1;
    ptr_d = ptr_q;
    if (valid_o && take_i) ptr_d = (idx_o == IdxW'(N - 1)) ? '0 : idx_o + 1'b1;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) ptr_q <= '0;
    else ptr_q <= ptr_d;
  end
endmodule
