// SPDX-License-Identifier: Apache-2.0
// tb_board_leds: self-checking testbench of tpu_board_reset and tpu_board_leds (Verilator
// --binary): the reset is held while unlocked or the button is pressed and released after
// its stages; the heartbeat toggles every 2^(HbBits-1) cycles; an activity pulse lights
// its LED for 2..3 ticks and no longer; the fault light stays on until reset.
`default_nettype none

module tb_board_leds;
  localparam int unsigned ClkHz = 1_000_000;       // HbBits 20, tick every 2^13 cycles
  localparam int Tick = 1 << 13;
  logic clk = 1'b0, locked = 1'b0, btn_n = 1'b1, fault = 1'b0;
  logic [1:0] act = 2'b00;
  logic rst_n, hb, led_fault;
  logic [1:0] led_act;
  int errors = 0;

  initial forever #1 clk = ~clk;

  tpu_board_reset u_rst (.clk_i(clk), .locked_i(locked), .btn_ni(btn_n), .rst_no(rst_n));
  tpu_board_leds #(.ClkHz(ClkHz), .NumAct(2)) u_leds (
    .clk_i(clk), .rst_ni(rst_n), .act_i(act), .fault_i(fault),
    .heartbeat_o(hb), .act_o(led_act), .fault_o(led_fault)
  );

  task automatic check(input logic cond, input string what);
    if (!cond) begin
      errors++;
      $display("# error at %0t: %s", $time, what);
    end
  endtask

  task automatic cycles(input int n);
    repeat (n) @(posedge clk);
  endtask

  int first_hb, lit;
  initial begin
    cycles(10);
    check(!rst_n, "reset released while the PLL is unlocked");
    locked = 1'b1;
    cycles(3);
    check(!rst_n, "reset released before 4 stages");
    cycles(2);
    check(rst_n, "reset not released 5 cycles after lock");
    btn_n = 1'b0;
    #0.5 check(!rst_n, "button does not assert reset at once");
    cycles(3);
    btn_n = 1'b1;
    cycles(6);
    check(rst_n, "reset not released after the button");
    // Heartbeat: low for 2^19 cycles after reset, then high.
    first_hb = 0;
    for (int i = 0; i < (1 << 19) + 8; i++) begin
      @(posedge clk);
      if (hb && first_hb == 0) first_hb = i + 1;
    end
    check(first_hb >= (1 << 19) - 8 && first_hb <= (1 << 19) + 8, $sformatf("heartbeat rose after %0d cycles", first_hb));
    // Activity: one pulse on input 1 lights LED 1 for 2..3 ticks, LED 0 stays dark.
    @(negedge clk) act = 2'b10;
    @(negedge clk) act = 2'b00;
    lit = 0;
    for (int i = 0; i < 5 * Tick; i++) begin
      @(posedge clk);
      if (led_act[1]) lit++;
      check(!led_act[0], "an idle activity light is lit");
    end
    check(lit >= 2 * Tick && lit <= 3 * Tick + 2, $sformatf("activity lit for %0d cycles", lit));
    // Fault: a one-cycle pulse latches until reset.
    @(negedge clk) fault = 1'b1;
    @(negedge clk) fault = 1'b0;
    cycles(1000);
    check(led_fault, "fault light not latched");
    btn_n = 1'b0;
    cycles(2);
    btn_n = 1'b1;
    cycles(8);
    check(!led_fault, "fault light survives reset");
    if (errors == 0) $display("PASS board-leds: reset release, heartbeat, activity stretch, fault latch");
    else $display("FAIL board-leds: %0d errors", errors);
    $finish;
  end
endmodule
