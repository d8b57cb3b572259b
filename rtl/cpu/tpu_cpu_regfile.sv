// SPDX-License-Identifier: Apache-2.0
// Register file of the RV32 core: 31 x 32-bit registers (x0 reads as zero),
// two synchronous read ports and one write port, written so that Yosys maps
// it to block RAM (SB_RAM40_4K on iCE40, DP16KD/LUT RAM on ECP5).
`default_nettype none

module tpu_cpu_regfile (
  input  logic        clk_i,
  // Read: addresses sampled on a clock edge with re_i high; the data is held
  // until the next such edge.
  input  logic        re_i,
  input  logic [4:0]  rs1_addr_i,
  input  logic [4:0]  rs2_addr_i,
  output logic [31:0] rs1_data_o,
  output logic [31:0] rs2_data_o,
  // Write: on the clock edge, when we_i is high (writes to x0 are dropped).
  input  logic        we_i,
  input  logic [4:0]  waddr_i,
  input  logic [31:0] wdata_i
);

  // Reads (decode cycle) and writes (end of an instruction) never fall in
  // the same cycle, so read-during-write needs no bypass logic.
  (* no_rw_check *) logic [31:0] regs_q [32];
  logic [31:0] rs1_q, rs2_q;

  // x0 is entry 0, zero from configuration (or simulation start) and never
  // written, so it reads as zero without a mux on the read data.
  initial begin
    for (int i = 0; i < 32; i++) begin
      regs_q[i] = 32'd0;
    end
  end

  // Block-RAM inference template: one write port and two registered read
  // ports with enable.  (The one place where an always_ff holds more than
  // `x_q <= x_d`: Yosys only maps memories written this way.)
  always_ff @(posedge clk_i) begin
    if (we_i && waddr_i != 5'd0) begin
      regs_q[waddr_i] <= wdata_i;
    end
    if (re_i) begin
      rs1_q <= regs_q[rs1_addr_i];
      rs2_q <= regs_q[rs2_addr_i];
    end
  end

  assign rs1_data_o = rs1_q;
  assign rs2_data_o = rs2_q;

endmodule
