// SPDX-License-Identifier: Apache-2.0
// tpu_board_soc: tpu_soc as the boards use it: the UART link PHY, the firmware from a
// $readmemh image, the simulation ports tied off, and the status the LEDs show.
`default_nettype none

// The accelerator and memory parameters are those of the named configuration
// (SOC_CFG_<name> in mk/configs.mk; the board build sets them on the top, mk/board.mk).
//   fault_o  the firmware wrote EXIT, which it does only on an unhandled trap (docs/soc.md)
//   busy_o   the memory system has work queued or reads in flight (its busy-cycle counter,
//            tpu_mem_pkg::CntBusy, advanced this cycle)
module tpu_board_soc #(
  // Configuration (SOC_CFG_<name>): defaults of the iCEBreaker's
  parameter int N            = 4,
  parameter int EnableBf16   = 0,
  parameter int UbRows       = 256,
  parameter int WbRows       = 64,
  parameter int AccRows      = 128,
  parameter int VpRows       = 16,
  parameter int NumPch       = 0,         // board memory
  parameter int MemKb        = 128,
  parameter int MemBackend   = tpu_mem_pkg::BackendSpram,
  parameter int MemDataWidth = 64,
  parameter int VpuLanes     = N,         // vector-unit lanes per cycle (a divisor of N)
  // Board
  parameter int unsigned ClkHz = 24_000_000,
  parameter int unsigned Baud  = 3_000_000,
  parameter FwInit             = "",
  parameter int FwRamKb        = 16,
  parameter logic [127:0] ConfigName = "board"
) (
  input  wire  clk_i,
  input  wire  rst_ni,
  input  wire  uart_rx_i,
  output logic uart_tx_o,
  output logic fault_o,
  output logic busy_o,
  // SDR SDRAM (configurations with the SDRAM backend; idle otherwise): the board top
  // makes the tristate data bus and the SDRAM clock
  output logic        sdram_cke_o,
  output logic        sdram_cs_no,
  output logic        sdram_ras_no,
  output logic        sdram_cas_no,
  output logic        sdram_we_no,
  output logic [1:0]  sdram_ba_o,
  output logic [12:0] sdram_a_o,
  output logic [1:0]  sdram_dqm_o,
  output logic [15:0] sdram_dq_o,
  output logic        sdram_dq_oe_o,
  input  wire  [15:0] sdram_dq_i
);
  localparam int CntWidth = tpu_mem_pkg::CntWidth;
  localparam int NumCnt = tpu_mem_pkg::NumCnt;
  localparam int MemPch = (NumPch == 0) ? 1 : NumPch;

  logic        exit_valid;
  logic [31:0] exit_code;
  logic        console_valid;
  logic [7:0]  console_data;
  logic        link_s_ready, link_m_valid;
  logic [7:0]  link_m_data;
  // Channel 0's busy counter is the one the LED shows (boards have one channel).
  /* verilator lint_off UNUSEDSIGNAL */
  logic [MemPch*NumCnt*CntWidth-1:0] mem_cnt;
  /* verilator lint_on UNUSEDSIGNAL */

  // The HBM2 ports exist for the simulation's memory models; boards leave them open.
  /* verilator lint_off PINCONNECTEMPTY */
  tpu_soc #(
    .N         (N),
    .EnableBf16(EnableBf16),
    .UbRows    (UbRows),
    .WbRows    (WbRows),
    .AccRows   (AccRows),
    .VpRows    (VpRows),
    .NumPch    (NumPch),
    .MemKb     (MemKb),
    .MemBackend(MemBackend),
    .MemDataWidth(MemDataWidth),
    .ConfigName(ConfigName),
    .VpuLanes  (VpuLanes),
    .FwRamKb   (FwRamKb),
    .FwInit    (FwInit),
    .DmemReg   (1),
    .CpuLutRam (1),
    .DmaRowQueue(16),
    .LinkPhy   (1),
    .ClkHz     (ClkHz),
    .Baud      (Baud)
  ) u_soc (
    .clk_i,
    .rst_ni,
    .boot_we_i      (1'b0),
    .boot_addr_i    (32'd0),
    .boot_wdata_i   (32'd0),
    .s_link_valid_i (1'b0),
    .s_link_ready_o (link_s_ready),
    .s_link_data_i  (8'd0),
    .m_link_valid_o (link_m_valid),
    .m_link_ready_i (1'b1),
    .m_link_data_o  (link_m_data),
    .uart_rx_i,
    .uart_tx_o,
    .console_valid_o(console_valid),
    .console_data_o (console_data),
    .exit_valid_o   (exit_valid),
    .exit_code_o    (exit_code),
    .m_hbm_rcmd_o   (),
    .m_hbm_rbank_o  (),
    .m_hbm_row_o    (),
    .m_hbm_ccmd_o   (),
    .m_hbm_cbank_o  (),
    .m_hbm_col_o    (),
    .m_hbm_wdata_o  (),
    .m_hbm_wstrb_o  (),
    .m_hbm_rvalid_i (1'b0),
    .m_hbm_rdata_i  ('0),
    .sdram_cke_o,
    .sdram_cs_no,
    .sdram_ras_no,
    .sdram_cas_no,
    .sdram_we_no,
    .sdram_ba_o,
    .sdram_a_o,
    .sdram_dqm_o,
    .sdram_dq_o,
    .sdram_dq_oe_o,
    .sdram_dq_i,
    .mem_cnt_o      (mem_cnt)
  );
  /* verilator lint_on PINCONNECTEMPTY */

  // One bit of the busy-cycle counter toggles every busy cycle.
  logic busy_bit_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) busy_bit_q <= 1'b0;
    else busy_bit_q <= mem_cnt[tpu_mem_pkg::CntBusy*CntWidth];
  end
  assign busy_o = busy_bit_q != mem_cnt[tpu_mem_pkg::CntBusy*CntWidth];
  assign fault_o = exit_valid;

  // The console is for simulation (nothing reads it on a board); the byte-stream port is
  // unused with the UART PHY.
  logic unused;
  assign unused = ^{exit_code, console_valid, console_data, link_s_ready, link_m_valid, link_m_data};
endmodule
