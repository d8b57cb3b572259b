// SPDX-License-Identifier: Apache-2.0
// ulx3s_top: the picotpu SoC on a ULX3S (ECP5 LFE5U-85F): the PLL from the 25 MHz clock, the
// reset, the UART through the FT231X, the SDRAM pins and the status LEDs.
`default_nettype none

// The build (mk/board.mk) sets the configuration's parameters, SOC_CFG_ulx3s of
// mk/configs.mk, on this top (the defaults below are a copy).  The PLL (EHXPLLL, feedback
// from CLKOP) makes
//   clk      = 25 MHz * PllClkfbDiv / PllClkiDiv            (VCO = clk * PllClkopDiv, 400..800 MHz)
//   sdram clock: the same frequency on CLKOS, PllSdramPhase VCO periods (of PllClkopDiv per
//            clock cycle) later than clk, so that the SDRAM samples in the middle of the
//            data eye (half a cycle by default)
// and ClkHz must say the same (the UART's bit time and the LEDs are derived from it).
//
// LEDs (D0..D7, docs/boards.md): D0 heartbeat, D1 busy (the memory system has work),
// D2 link RX, D3 link TX, D6 PLL locked, D7 fault (the firmware stopped on an unhandled
// trap; reset clears it).  FIRE1 is the reset button.
module ulx3s_top #(
  // Configuration (SOC_CFG_ulx3s in mk/configs.mk; the build sets every one)
  parameter int N            = 8,
  parameter int EnableBf16   = 0,
  parameter int UbRows       = 1024,
  parameter int WbRows       = 256,
  parameter int AccRows      = 512,
  parameter int VpRows       = 64,
  parameter int NumPch       = 0,
  parameter int MemKb        = 32768,
  parameter int MemBackend   = tpu_mem_pkg::BackendSdram,
  parameter int MemDataWidth = 64,
  parameter int VpuLanes     = N,
  // Board
  parameter int unsigned ClkHz = 50_000_000,  // system clock made by the PLL
  parameter int unsigned Baud  = 3_000_000,   // UART line rate (the FT231X does 3 Mbaud)
  parameter FwInit             = "",          // $readmemh firmware image (scripts/bin2hex.py)
  parameter int FwRamKb        = 16,          // firmware RAM; the image is linked for it
  parameter int PllClkiDiv     = 1,
  parameter int PllClkfbDiv    = 2,
  parameter int PllClkopDiv    = 12,
  parameter int PllSdramPhase  = 6,           // CLKOS delay in VCO periods (PllClkopDiv = 360 deg)
  parameter int RstGlobal      = 0            // 1: the reset reaches the SoC on a global network
) (
  input  wire         clk_25mhz_i,   // G2
  input  wire         btn_fire1_i,   // R1, active high: reset
  input  wire         ftdi_txd_i,    // M1: FT231X TXD, the FPGA receives
  output logic        ftdi_rxd_o,    // L4: FT231X RXD, the FPGA transmits
  output logic        wifi_gpio0_o,  // L2: held high, or the ESP32 may reconfigure the FPGA
  output logic [7:0]  led_o,
  // SDRAM (32 MB, 16 bit)
  output logic        sdram_clk_o,
  output logic        sdram_cke_o,
  output logic        sdram_csn_o,
  output logic        sdram_rasn_o,
  output logic        sdram_casn_o,
  output logic        sdram_wen_o,
  output logic [12:0] sdram_a_o,
  output logic [1:0]  sdram_ba_o,
  output logic [1:0]  sdram_dqm_o,
  inout  wire  [15:0] sdram_d_io
);
  // Outputs of the PLL and the SoC that this board does not use are left open.
  /* verilator lint_off PINCONNECTEMPTY */

  // ================================================================ clock and reset
  logic clk, clk_sdram, pll_locked, rst_n;

  (* FREQUENCY_PIN_CLKI = "25" *)
  EHXPLLL #(
    .PLLRST_ENA      ("DISABLED"),
    .INTFB_WAKE      ("DISABLED"),
    .STDBY_ENABLE    ("DISABLED"),
    .DPHASE_SOURCE   ("DISABLED"),
    .OUTDIVIDER_MUXA ("DIVA"),
    .OUTDIVIDER_MUXB ("DIVB"),
    .OUTDIVIDER_MUXC ("DIVC"),
    .OUTDIVIDER_MUXD ("DIVD"),
    .CLKI_DIV        (PllClkiDiv),
    .CLKFB_DIV       (PllClkfbDiv),
    .FEEDBK_PATH     ("CLKOP"),
    .CLKOP_ENABLE    ("ENABLED"),
    .CLKOP_DIV       (PllClkopDiv),
    .CLKOP_CPHASE    (PllClkopDiv - 1),
    .CLKOP_FPHASE    (0),
    .CLKOS_ENABLE    ("ENABLED"),
    .CLKOS_DIV       (PllClkopDiv),
    .CLKOS_CPHASE    (PllClkopDiv - 1 + PllSdramPhase),
    .CLKOS_FPHASE    (0)
  ) u_pll (
    .CLKI        (clk_25mhz_i),
    .CLKFB       (clk),
    .PHASESEL1   (1'b0),
    .PHASESEL0   (1'b0),
    .PHASEDIR    (1'b0),
    .PHASESTEP   (1'b0),
    .PHASELOADREG(1'b0),
    .STDBY       (1'b0),
    .PLLWAKESYNC (1'b0),
    .RST         (1'b0),
    .ENCLKOP     (1'b0),
    .ENCLKOS     (1'b0),
    .ENCLKOS2    (1'b0),
    .ENCLKOS3    (1'b0),
    .CLKOP       (clk),
    .CLKOS       (clk_sdram),
    .CLKOS2      (),
    .CLKOS3      (),
    .LOCK        (pll_locked),
    .INTLOCK     (),
    .REFCLK      (),
    .CLKINTFB    ()
  );

  logic rst_n_sync;
  tpu_board_reset u_rst (
    .clk_i   (clk),
    .locked_i(pll_locked),
    .btn_ni  (!btn_fire1_i),
    .rst_no  (rst_n_sync)
  );
  // RstGlobal = 1 (session 19's 16 x 16 trial, docs/boards.md): the reset's 3,800
  // flip-flop LSR pins are reached over a primary clock network through a DCCA buffer,
  // not general routing (nextpnr promotes only clocks by itself).  The buffer carries the
  // active-high reset the LSR pins take, so no LUT sits between it and them.
  if (RstGlobal != 0) begin : g_rst_global
    logic rst_glb;
    DCCA u_buf (.CLKI(!rst_n_sync), .CE(1'b1), .CLKO(rst_glb));
    assign rst_n = !rst_glb;
  end else begin : g_rst_local
    assign rst_n = rst_n_sync;
  end

  // ================================================================ SoC
  logic fault, mem_busy, dq_oe;
  logic [15:0] dq_o, dq_i;
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
    .VpuLanes    (VpuLanes),
    .ClkHz  (ClkHz),
    .Baud   (Baud),
    .FwInit (FwInit),
    .FwRamKb(FwRamKb),
    .ConfigName("ulx3s")
  ) u_soc (
    .clk_i     (clk),
    .rst_ni    (rst_n),
    .uart_rx_i (ftdi_txd_i),
    .uart_tx_o (ftdi_rxd_o),
    .fault_o   (fault),
    .busy_o    (mem_busy),
    .sdram_cke_o  (sdram_cke_o),
    .sdram_cs_no  (sdram_csn_o),
    .sdram_ras_no (sdram_rasn_o),
    .sdram_cas_no (sdram_casn_o),
    .sdram_we_no  (sdram_wen_o),
    .sdram_ba_o   (sdram_ba_o),
    .sdram_a_o    (sdram_a_o),
    .sdram_dqm_o  (sdram_dqm_o),
    .sdram_dq_o   (dq_o),
    .sdram_dq_oe_o(dq_oe),
    .sdram_dq_i   (dq_i)
  );

  // ================================================================ SDRAM pins
  // The controller registers every pin (tpu_mem_sdram); the data bus is driven while it
  // writes (BB: the ECP5's bidirectional I/O buffer, T = 1 releases the pin).  The SDRAM clock comes from the PLL, PllSdramPhase behind the logic clock.
  assign sdram_clk_o = clk_sdram;
  for (genvar i = 0; i < 16; i++) begin : g_dq
    BB u_dq (.I(dq_o[i]), .T(!dq_oe), .O(dq_i[i]), .B(sdram_d_io[i]));
  end

  // ================================================================ LEDs
  logic heartbeat, led_fault;
  logic [2:0] act;
  tpu_board_leds #(.ClkHz(ClkHz), .NumAct(3)) u_leds (
    .clk_i      (clk),
    .rst_ni     (rst_n),
    .act_i      ({!ftdi_rxd_o, !ftdi_txd_i, mem_busy}),
    .fault_i    (fault),
    .heartbeat_o(heartbeat),
    .act_o      (act),
    .fault_o    (led_fault)
  );
  assign led_o = {led_fault, pll_locked, 2'b00, act[2], act[1], act[0], heartbeat};
  assign wifi_gpio0_o = 1'b1;
  /* verilator lint_on PINCONNECTEMPTY */
endmodule
