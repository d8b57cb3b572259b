// SPDX-License-Identifier: Apache-2.0
// tpu_soc_platform: the PLATFORM register page of the SoC (console, exit, 64-bit mtime
// and mtimecmp with the timer interrupt, SoC identification) on the register bus.
`default_nettype none

// EnableTimer = 0 is the platform page of picotpu-lite (rtl/lite/tpu_lite_soc.sv), whose
// firmware only reads mtime: mtime is read-only, MTIMECMP reads 0, timer_irq_o stays 0,
// and the 64-bit compare and the writable registers are gone (about 250 LUT4 on the iCE40).
module tpu_soc_platform #(
  parameter int NumCh = 8,                // memory channels with counters in the CNT page (SOC_INFO)
  parameter int unsigned EnableTimer = 1  // 1: writable mtime, mtimecmp and the timer interrupt
) (
  input  wire         clk_i,
  input  wire         rst_ni,
  // Register bus: request in one cycle, read data in the next
  input  wire         reg_req_i,
  input  wire         reg_we_i,
  input  wire  [11:0] reg_addr_i,
  input  wire  [31:0] reg_wdata_i,
  output logic [31:0] reg_rdata_o,
  // Simulation outputs (left open on boards)
  output logic        console_valid_o,
  output logic [7:0]  console_data_o,
  output logic        exit_valid_o,
  output logic [31:0] exit_code_o,
  // Timer interrupt: mtime >= mtimecmp
  output logic        timer_irq_o
);
  logic [63:0] mtime_q, mtime_d, mtimecmp_q, mtimecmp_d;
  logic [31:0] rdata_q, rdata_d;

  wire wr = reg_req_i && reg_we_i;
  wire rd = reg_req_i && !reg_we_i;
  // mtimecmp as the page shows it (without the timer: never written, reads 0)
  wire [63:0] mtimecmp = (EnableTimer != 0) ? mtimecmp_q : 64'd0;

  always_comb begin
    mtime_d = mtime_q + 64'd1;
    mtimecmp_d = mtimecmp_q;
    rdata_d = rdata_q;
    if (wr && EnableTimer != 0) begin
      unique case (reg_addr_i)
        tpu_isa_pkg::PlatformMtimeLo:    mtime_d = {mtime_q[63:32], reg_wdata_i};
        tpu_isa_pkg::PlatformMtimeHi:    mtime_d = {reg_wdata_i, mtime_q[31:0]};
        tpu_isa_pkg::PlatformMtimecmpLo: mtimecmp_d = {mtimecmp_q[63:32], reg_wdata_i};
        tpu_isa_pkg::PlatformMtimecmpHi: mtimecmp_d = {reg_wdata_i, mtimecmp_q[31:0]};
        default: ;
      endcase
    end
    if (rd) begin
      unique case (reg_addr_i)
        tpu_isa_pkg::PlatformMtimeLo:    rdata_d = mtime_q[31:0];
        tpu_isa_pkg::PlatformMtimeHi:    rdata_d = mtime_q[63:32];
        tpu_isa_pkg::PlatformMtimecmpLo: rdata_d = mtimecmp[31:0];
        tpu_isa_pkg::PlatformMtimecmpHi: rdata_d = mtimecmp[63:32];
        tpu_isa_pkg::PlatformSocInfo:    rdata_d = 32'(NumCh);
        default:                         rdata_d = 32'd0;
      endcase
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      mtime_q <= 64'd0;
      mtimecmp_q <= '1;
      rdata_q <= 32'd0;
    end else begin
      mtime_q <= mtime_d;
      mtimecmp_q <= mtimecmp_d;
      rdata_q <= rdata_d;
    end
  end

  assign reg_rdata_o = rdata_q;
  assign console_valid_o = wr && reg_addr_i == tpu_isa_pkg::PlatformConsole;
  assign console_data_o = reg_wdata_i[7:0];
  assign exit_valid_o = wr && reg_addr_i == tpu_isa_pkg::PlatformExit;
  assign exit_code_o = reg_wdata_i;
  assign timer_irq_o = (EnableTimer != 0) && mtime_q >= mtimecmp_q;
endmodule
