// SPDX-License-Identifier: Apache-2.0
// tpu_board_leds: status LEDs of a board top: a heartbeat, activity lights stretched so that
// single-cycle events are visible, and a sticky fault light.
`default_nettype none

// Everything runs off one free-running counter: its top bit is the heartbeat (about one
// blink per second at any clock), and its carry out of the low bits is the tick (a few ms)
// that counts the stretch of each activity light down.  Outputs are active high.
module tpu_board_leds #(
  parameter int unsigned ClkHz = 12_000_000,  // clock frequency
  parameter int NumAct = 3,                   // activity inputs
  localparam int HbBits = $clog2(ClkHz),      // 2^HbBits cycles per blink period: 1..2 s
  localparam int TickBits = HbBits - 7        // 2^TickBits cycles per tick: 8..16 ms
) (
  input  wire               clk_i,
  input  wire               rst_ni,
  input  wire  [NumAct-1:0] act_i,            // activity: any cycle it is high lights it
  input  wire               fault_i,          // latched until reset
  output logic              heartbeat_o,
  output logic [NumAct-1:0] act_o,
  output logic              fault_o
);
  logic [HbBits-1:0] cnt_q;
  logic [2*NumAct-1:0] hold_q, hold_d;        // per input, ticks left (up to 3: 24..48 ms)
  logic fault_q;
  wire tick = &cnt_q[TickBits-1:0];

  always_comb begin
    for (int i = 0; i < NumAct; i++) begin
      hold_d[2*i +: 2] = hold_q[2*i +: 2];
      if (act_i[i]) hold_d[2*i +: 2] = 2'd3;
      else if (tick && hold_q[2*i +: 2] != 2'd0) hold_d[2*i +: 2] = hold_q[2*i +: 2] - 2'd1;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cnt_q <= '0;
      hold_q <= '0;
      fault_q <= 1'b0;
    end else begin
      cnt_q <= cnt_q + 1'b1;
      hold_q <= hold_d;
      fault_q <= fault_q | fault_i;
    end
  end

  assign heartbeat_o = cnt_q[HbBits-1];
  always_comb begin
    for (int i = 0; i < NumAct; i++) act_o[i] = hold_q[2*i +: 2] != 2'd0;
  end
  assign fault_o = fault_q;

  // Assertions
`ifndef SYNTHESIS
  initial assert (ClkHz >= 1_000_000) else $fatal(1, "tpu_board_leds: ClkHz below 1 MHz");
`endif
endmodule
