// SPDX-License-Identifier: Apache-2.0
// tpu_lite_platform: the platform page of the lite SoC: the console and exit registers and
// the 64-bit mtime of tpu_soc_platform, without mtimecmp and its timer interrupt.
`default_nettype none

// The addresses are the full SoC's (tpu_isa_pkg::Platform*); MTIMECMP and SOC_INFO read 0.
// mtime counts clock cycles and is read-only here (the firmware only reads it).  Dropping
// the 64-bit compare and the writable registers saves about 250 LUT4 of the UP5K's 5,280.
module tpu_lite_platform (
  input  wire         clk_i,
  input  wire         rst_ni,
  // Register bus: request in one cycle, read data in the next
  input  wire         reg_req_i,
  input  wire         reg_we_i,
  input  wire  [11:0] reg_addr_i,
  input  wire  [31:0] reg_wdata_i,
  output logic [31:0] reg_rdata_o,
  // Simulation outputs
  output logic        console_valid_o,
  output logic [7:0]  console_data_o,
  output logic        exit_valid_o,
  output logic [31:0] exit_code_o
);
  logic [63:0] mtime_q;
  logic [31:0] rdata_q, rdata_d;

  wire wr = reg_req_i && reg_we_i;
  wire rd = reg_req_i && !reg_we_i;

  always_comb begin
    rdata_d = rdata_q;
    if (rd) begin
      unique case (reg_addr_i)
        tpu_isa_pkg::PlatformMtimeLo: rdata_d = mtime_q[31:0];
        tpu_isa_pkg::PlatformMtimeHi: rdata_d = mtime_q[63:32];
        default:                      rdata_d = 32'd0;
      endcase
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      mtime_q <= 64'd0;
      rdata_q <= 32'd0;
    end else begin
      mtime_q <= mtime_q + 64'd1;
      rdata_q <= rdata_d;
    end
  end

  assign reg_rdata_o = rdata_q;
  assign console_valid_o = wr && reg_addr_i == tpu_isa_pkg::PlatformConsole;
  assign console_data_o = reg_wdata_i[7:0];
  assign exit_valid_o = wr && reg_addr_i == tpu_isa_pkg::PlatformExit;
  assign exit_code_o = reg_wdata_i;
endmodule
