// SPDX-License-Identifier: Apache-2.0
// tpu_board_tiny: a small design for testing the board flow's checks (tests/boards/
// pnr-check-test.sh): Muls registered 16 x 16 multipliers fed from a shift register, their
// products folded into one output pin.
`default_nettype none

module tpu_board_tiny #(
  parameter int Muls = 2
) (
  input  wire  clk_i,
  input  wire  d_i,
  output logic q_o
);
  logic [32*Muls-1:0] sr_q;
  logic [32*Muls-1:0] p_q;
  always_ff @(posedge clk_i) sr_q <= {sr_q[32*Muls-2:0], d_i};
  for (genvar i = 0; i < Muls; i++) begin : g_mul
    always_ff @(posedge clk_i) p_q[32*i +: 32] <= sr_q[32*i +: 16] * sr_q[32*i+16 +: 16];
  end
  assign q_o = ^p_q;
endmodule
