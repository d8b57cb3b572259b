// SPDX-License-Identifier: Apache-2.0
// icebreaker_top: the picotpu SoC on an iCEBreaker (iCE40UP5K-SG48): the PLL from the 12 MHz
// pin, the reset, the UART on the FT2232H's channel B, and the status LEDs.  The board
// build makes picotpu-lite (Lite = 1, rtl/lite, docs/lite.md); the full SoC (Lite = 0) does
// not fit the UP5K.
`default_nettype none

// The build (mk/board.mk) sets the configuration's parameters, SOC_CFG_icebreaker of
// mk/configs.mk, on this top (the defaults below are a copy); the lite SoC has them built in
// and ignores them.  The clock is
//   12 MHz * (DIVF + 1) / (2^DIVQ * (DIVR + 1)),  VCO 533..1066 MHz, PFD 10..133 MHz
// and ClkHz must say the same (the UART's bit time and the LEDs are derived from it).
//
// LEDs (on-board and the snap-off PMOD, docs/boards.md):
//   green (LEDG_N)  heartbeat: the clock runs and the reset is released
//   red (LEDR_N)    fault: the firmware stopped on an unhandled trap (EXIT); reset clears it
//   LED1 heartbeat, LED2 busy (full SoC: the memory system has work; lite: the XPU has an
//   activation row in flight), LED3 link RX, LED4 link TX,
//   LED5 fault
module icebreaker_top #(
  // Configuration (SOC_CFG_icebreaker in mk/configs.mk; the build sets every one)
  parameter int N            = 4,
  parameter int EnableBf16   = 0,
  parameter int UbRows       = 256,
  parameter int WbRows       = 64,
  parameter int AccRows      = 128,
  parameter int VpRows       = 16,
  parameter int NumPch       = 0,
  parameter int MemKb        = 128,
  parameter int MemBackend   = tpu_mem_pkg::BackendSpram,
  parameter int MemDataWidth = 64,
  // Board
  parameter int unsigned ClkHz = 15_000_000,  // system clock made by the PLL
  parameter int unsigned Baud  = 3_000_000,   // UART line rate (the FT2232H does 3 Mbaud)
  parameter FwInit             = "",          // $readmemh firmware image (scripts/bin2hex.py)
  parameter int FwRamKb        = 8,           // firmware RAM (full) or ROM (lite); the image fits it
  parameter int Lite           = 1,           // 1: picotpu-lite (tpu_lite_soc), 0: tpu_board_soc
  parameter int PllDivr        = 0,           // 0..15
  parameter int PllDivf        = 79,          // 0..127
  parameter int PllDivq        = 6            // 1..6
) (
  input  wire        clk_12mhz_i,   // pin 35
  input  wire        btn_ni,        // BTN_N, pin 10: reset
  input  wire        uart_rx_i,     // pin 6: FT2232H channel B TXD
  output logic       uart_tx_o,     // pin 9: FT2232H channel B RXD
  output logic       led_red_no,    // LEDR_N, pin 11
  output logic       led_green_no,  // LEDG_N, pin 37
  output logic [4:0] led_o          // snap-off LED1..LED5
);
  // Outputs of the PLL and the SoC that this board does not use are left open.
  /* verilator lint_off PINCONNECTEMPTY */

  // ================================================================ clock and reset
  logic clk, pll_locked, rst_n;

  SB_PLL40_PAD #(
    .FEEDBACK_PATH("SIMPLE"),
    .DIVR        (4'(PllDivr)),
    .DIVF        (7'(PllDivf)),
    .DIVQ        (3'(PllDivq)),
    .FILTER_RANGE(3'b001)           // for a 12 MHz PFD (DIVR = 0)
  ) u_pll (
    .PACKAGEPIN  (clk_12mhz_i),
    .PLLOUTCORE  (),
    .PLLOUTGLOBAL(clk),
    .EXTFEEDBACK (1'b0),
    .DYNAMICDELAY(8'd0),
    .LOCK        (pll_locked),
    .BYPASS      (1'b0),
    .RESETB      (1'b1),
    .LATCHINPUTVALUE(1'b0),
    .SDO         (),
    .SDI         (1'b0),
    .SCLK        (1'b0)
  );

  tpu_board_reset u_rst (
    .clk_i   (clk),
    .locked_i(pll_locked),
    .btn_ni  (btn_ni),
    .rst_no  (rst_n)
  );

  // ================================================================ SoC
  logic fault, mem_busy;
  if (Lite != 0) begin : g_lite
    tpu_lite_soc #(
      .ClkHz  (ClkHz),
      .Baud   (Baud),
      .FwInit (FwInit),
      .FwRomKb(FwRamKb),
      .ConfigName("icebreaker")
    ) u_soc (
      .clk_i     (clk),
      .rst_ni    (rst_n),
      .uart_rx_i (uart_rx_i),
      .uart_tx_o (uart_tx_o),
      .fault_o   (fault),
      .busy_o    (mem_busy),
      .sdram_cke_o  (),
      .sdram_cs_no  (),
      .sdram_ras_no (),
      .sdram_cas_no (),
      .sdram_we_no  (),
      .sdram_ba_o   (),
      .sdram_a_o    (),
      .sdram_dqm_o  (),
      .sdram_dq_o   (),
      .sdram_dq_oe_o(),
      .sdram_dq_i   (16'd0)
    );
    // The configuration is the lite's own (INFO reports it).
    logic unused_cfg;
    assign unused_cfg = ^{N, EnableBf16, UbRows, WbRows, AccRows, VpRows, NumPch, MemKb, MemBackend,
                          MemDataWidth};
  end else begin : g_full
    tpu_board_soc #(
      .N           (N),
      .EnableBf16  (EnableBf16),
      .UbRows      (UbRows),
      .WbRows      (WbRows),
      .AccRows     (AccRows),
      .VpRows      (VpRows),
      .NumPch      (NumPch),
      .MemKb       (MemKb),
      .MemBackend  (MemBackend),
      .MemDataWidth(MemDataWidth),
      .ClkHz  (ClkHz),
      .Baud   (Baud),
      .FwInit (FwInit),
      .FwRamKb(FwRamKb),
      .ConfigName("icebreaker")
    ) u_soc (
      .clk_i     (clk),
      .rst_ni    (rst_n),
      .uart_rx_i (uart_rx_i),
      .uart_tx_o (uart_tx_o),
      .fault_o   (fault),
      .busy_o    (mem_busy),
      .sdram_cke_o  (),
      .sdram_cs_no  (),
      .sdram_ras_no (),
      .sdram_cas_no (),
      .sdram_we_no  (),
      .sdram_ba_o   (),
      .sdram_a_o    (),
      .sdram_dqm_o  (),
      .sdram_dq_o   (),
      .sdram_dq_oe_o(),
      .sdram_dq_i   (16'd0)           // SPRAM memory: no SDRAM on this board
    );
  end

  // ================================================================ LEDs
  logic heartbeat, led_fault;
  logic [2:0] act;
  tpu_board_leds #(.ClkHz(ClkHz), .NumAct(3)) u_leds (
    .clk_i      (clk),
    .rst_ni     (rst_n),
    .act_i      ({!uart_tx_o, !uart_rx_i, mem_busy}),
    .fault_i    (fault),
    .heartbeat_o(heartbeat),
    .act_o      (act),
    .fault_o    (led_fault)
  );
  assign led_green_no = !heartbeat;
  assign led_red_no = !led_fault;
  assign led_o = {led_fault, act[2], act[1], act[0], heartbeat};
  /* verilator lint_on PINCONNECTEMPTY */
endmodule
