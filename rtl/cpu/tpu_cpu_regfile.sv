// SPDX-License-Identifier: Apache-2.0
// Register file of the RV32 core: x0-x31, the RAM-held CSRs (mscratch, mepc,
// mtvec, mtval, mcycleh, minstreth) and a constant one in 64 x 32-bit
// entries, two synchronous read ports and one write port, written so that
// Yosys maps it to FPGA RAM.
`default_nettype none

module tpu_cpu_regfile #(
  parameter logic [31:0] BootAddr = 32'h0000_0000,  // initial mtvec entry
  parameter int unsigned LutRam   = 0               // 1: distributed (LUT) RAM, else block RAM
) (
  input  logic        clk_i,
  // Read ports: the address is sampled on a clock edge with the port's
  // enable high; the data is held until the next such edge.
  input  logic        re1_i,
  input  logic [5:0]  raddr1_i,
  output logic [31:0] rdata1_o,
  input  logic        re2_i,
  input  logic [5:0]  raddr2_i,
  output logic [31:0] rdata2_o,
  // Write port: on the clock edge, when we_i is high (x0 writes are dropped).
  input  logic        we_i,
  input  logic [5:0]  waddr_i,
  input  logic [31:0] wdata_i
);

  localparam int MtvecEntry = {26'd0, tpu_cpu_pkg::RfMtvec};
  localparam int OneEntry   = {26'd0, tpu_cpu_pkg::RfOne};

  logic [31:0] rdata1_q, rdata2_q;

  // The two branches differ only in the RAM style Yosys is asked for: block
  // RAM (iCE40: the only choice; four SB_RAM40_4K) or LUT RAM with the read
  // registers in flip-flops (ECP5: a faster clock-to-out than DP16KD).
  //
  // The core never reads an entry in the cycle it writes it, so
  // read-during-write needs no bypass logic (no_rw_check).
  //
  // x0 (entry 0) and the constant one are set at configuration (or
  // simulation start) and never written, so x0 reads as zero without a mux
  // on the read data.  The other entries are architecturally undefined after
  // reset; mtvec starts at the boot address.
  //
  // Memory inference template: one write port and two registered read
  // ports with enables.  (The one place where an always_ff holds more than
  // `x_q <= x_d`: Yosys only maps memories written this way.)
  if (LutRam != 0) begin : g_lutram
    (* no_rw_check, ram_style = "distributed" *) logic [31:0] regs_q [64];
    initial begin
      for (int i = 0; i < 64; i++) begin
        regs_q[i] = (i == MtvecEntry) ? BootAddr : (i == OneEntry) ? 32'd1 : 32'd0;
      end
    end
    always_ff @(posedge clk_i) begin
      if (we_i && waddr_i != 6'd0) begin
        regs_q[waddr_i] <= wdata_i;
      end
      if (re1_i) begin
        rdata1_q <= regs_q[raddr1_i];
      end
      if (re2_i) begin
        rdata2_q <= regs_q[raddr2_i];
      end
    end
  end else begin : g_bram
    (* no_rw_check *) logic [31:0] regs_q [64];
    initial begin
      for (int i = 0; i < 64; i++) begin
        regs_q[i] = (i == MtvecEntry) ? BootAddr : (i == OneEntry) ? 32'd1 : 32'd0;
      end
    end
    always_ff @(posedge clk_i) begin
      if (we_i && waddr_i != 6'd0) begin
        regs_q[waddr_i] <= wdata_i;
      end
      if (re1_i) begin
        rdata1_q <= regs_q[raddr1_i];
      end
      if (re2_i) begin
        rdata2_q <= regs_q[raddr2_i];
      end
    end
  end

  assign rdata1_o = rdata1_q;
  assign rdata2_o = rdata2_q;

endmodule
