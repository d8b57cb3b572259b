// SPDX-License-Identifier: Apache-2.0
// Test-only top: the array's logic product (tpu_mxu_mul_logic, generic or, with TPU_ECP5,
// CCU2C carry chains) beside the `*` it replaces, registered, so that a C testbench can
// compare every operand pair.
`default_nettype none

module tpu_mul_check (
  input  logic        clk_i,
  input  logic [8:0]  a_i,     // x - zp, signed
  input  logic [7:0]  w_i,     // weight, signed
  output logic [16:0] p_o,     // tpu_mxu_mul_logic
  output logic [16:0] ref_o    // $signed(a) * $signed(w)
);
  logic [16:0] p_d;
  tpu_mxu_mul_logic u_mul (.a_i(a_i), .w_i(w_i), .p_o(p_d));
  always_ff @(posedge clk_i) begin
    p_o   <= p_d;
    ref_o <= 17'($signed(a_i) * $signed(w_i));
  end
endmodule
