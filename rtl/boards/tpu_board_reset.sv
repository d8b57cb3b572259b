// SPDX-License-Identifier: Apache-2.0
// tpu_board_reset: board reset: asserted at once while the PLL is unlocked or the reset
// button is held, released synchronously to the clock a few cycles after both are good.
`default_nettype none

module tpu_board_reset #(
  parameter int Stages = 4             // clock edges from "all good" to the release
) (
  input  wire  clk_i,                  // the PLL output clock
  input  wire  locked_i,               // PLL lock, asynchronous
  input  wire  btn_ni,                 // reset button, asynchronous, active low (1 = released)
  output logic rst_no                  // to the SoC: asynchronous assert, synchronous release
);
  wire arst_n = locked_i & btn_ni;
  logic [Stages-1:0] sync_q;

  // The button bounces and the lock may glitch: either drops the reset at once; the
  // shift register then needs Stages clean edges before it lets go.
  always_ff @(posedge clk_i or negedge arst_n) begin
    if (!arst_n) sync_q <= '0;
    else sync_q <= {sync_q[Stages-2:0], 1'b1};
  end
  assign rst_no = sync_q[Stages-1];

  // Assertions
`ifndef SYNTHESIS
  initial assert (Stages >= 2) else $fatal(1, "tpu_board_reset: Stages must be at least 2");
`endif
endmodule
