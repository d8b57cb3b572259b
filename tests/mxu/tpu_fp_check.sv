// SPDX-License-Identifier: Apache-2.0
// Test-only top: the functions of tpu_fp_pkg on ports, registered, so that a
// C testbench can push millions of operand pairs through them.
`default_nettype none

module tpu_fp_check (
  input  logic        clk_i,
  input  logic [31:0] a_i,
  input  logic [31:0] b_i,
  output logic [31:0] add_o,      // fp32_add(a, b)
  output logic [31:0] mul_o,      // bf16_mul(a[15:0], b[15:0])
  output logic [15:0] cvt_o       // fp32_to_bf16(a)
);
  logic [31:0] add_d, mul_d;
  logic [15:0] cvt_d;
  always_comb begin
    add_d = tpu_fp_pkg::fp32_add(a_i, b_i);
    mul_d = tpu_fp_pkg::bf16_mul(a_i[15:0], b_i[15:0]);
    cvt_d = tpu_fp_pkg::fp32_to_bf16(a_i);
  end
  always_ff @(posedge clk_i) begin
    add_o <= add_d;
    mul_o <= mul_d;
    cvt_o <= cvt_d;
  end
endmodule
