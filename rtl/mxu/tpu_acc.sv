// SPDX-License-Identifier: Apache-2.0
// Accumulator memory (ACC): rows of N 32-bit sums that the MXU overwrites or
// accumulates into (int32 wrapping add or fp32 add), plus a read port.
`default_nettype none

module tpu_acc #(
  // Elements per row (the MXU array size).
  parameter int unsigned N = 16,
  // Number of rows.
  parameter int unsigned AccRows = 512,
  // 1: rows may accumulate in fp32 (bf16 MXU results); 0: int32 only.
  parameter int unsigned EnableBf16 = 1,
  // 1: the read port has its own memory read and never waits for result rows
  // (a second read port: duplicated RAM on FPGAs); 0: it shares the
  // read-modify-write read and loses to result rows.
  parameter int unsigned ReadPort = 0,
  localparam int unsigned AccAw = (AccRows > 1) ? $clog2(AccRows) : 1
) (
  input  logic               clk_i,
  input  logic               rst_ni,
  // Result rows from the array; never stalled.
  input  logic               in_valid_i,
  input  logic               in_acc_i,     // 1: add to the row, 0: overwrite it
  input  logic               in_bf16_i,    // 1: fp32 add, 0: int32 add
  input  logic [AccAw-1:0]   in_addr_i,
  input  logic [N*32-1:0]    in_row_i,
  // Read port; result rows have priority, so rd_ready_o drops while they arrive.
  input  logic               rd_valid_i,
  output logic               rd_ready_o,
  input  logic [AccAw-1:0]   rd_addr_i,
  output logic               rd_valid_o,
  output logic [N*32-1:0]    rd_data_o,
  // Nothing in the read-modify-write pipeline.
  output logic               idle_o
);

  // no_rw_check: Yosys need not give a read of the row being written either value, so it
  // builds no bypass beside the block RAM.  Stage B never uses such a read (the forward
  // below replaces it), and the read port never reads the row being written (asserted).
  (* no_rw_check *) logic [N*32-1:0] mem_q [AccRows];
  logic [N*32-1:0] mem_rdata_q;

  // Stage A: read the row (one read port, shared); stage B: add and write.
  logic               ra_en;
  logic [AccAw-1:0]   ra_addr;
  logic               sb_valid_q, sb_acc_q, sb_bf16_q;
  logic [AccAw-1:0]   sb_addr_q;
  logic [N*32-1:0]    sb_row_q;
  // The row written at the last edge: a read issued at that same edge saw
  // the old contents, so stage B takes the row from here instead.
  logic               fw_valid_q;
  logic [AccAw-1:0]   fw_addr_q;
  logic [N*32-1:0]    fw_row_q;
  logic [N*32-1:0]    old_row, new_row;
  logic               rd_pending_q;

  logic [N*32-1:0] rd_data_q;
  if (ReadPort != 0) begin : g_rd_port
    assign rd_ready_o = 1'b1;
    assign ra_en      = in_valid_i;
    assign ra_addr    = in_addr_i;
    always_ff @(posedge clk_i) begin
      if (rd_valid_i) rd_data_q <= mem_q[rd_addr_i];
    end
    assign rd_data_o = rd_data_q;
  end else begin : g_rd_shared
    assign rd_ready_o = !in_valid_i;
    assign ra_en      = in_valid_i || rd_valid_i;
    assign ra_addr    = in_valid_i ? in_addr_i : rd_addr_i;
    assign rd_data_o  = mem_rdata_q;
    logic unused_rd;
    assign unused_rd = ^rd_data_q;
    assign rd_data_q = '0;
  end

  always_ff @(posedge clk_i) begin
    if (ra_en) mem_rdata_q <= mem_q[ra_addr];
    if (sb_valid_q) mem_q[sb_addr_q] <= new_row;
  end

  assign old_row = (fw_valid_q && fw_addr_q == sb_addr_q) ? fw_row_q : mem_rdata_q;

  // Statements, not a ?: per lane: the simulator then skips the fp32 adders
  // entirely on int32 rows instead of evaluating both sides.
  if (EnableBf16 != 0) begin : g_fp
    always_comb begin
      new_row = sb_row_q;
      if (sb_acc_q && sb_bf16_q) begin
        for (int n = 0; n < N; n++) begin
          new_row[n*32 +: 32] = tpu_fp_pkg::fp32_add(old_row[n*32 +: 32], sb_row_q[n*32 +: 32]);
        end
      end else if (sb_acc_q) begin
        for (int n = 0; n < N; n++) begin
          new_row[n*32 +: 32] = old_row[n*32 +: 32] + sb_row_q[n*32 +: 32];
        end
      end
    end
  end else begin : g_int
    always_comb begin
      new_row = sb_row_q;
      if (sb_acc_q) begin
        for (int n = 0; n < N; n++) begin
          new_row[n*32 +: 32] = old_row[n*32 +: 32] + sb_row_q[n*32 +: 32];
        end
      end
    end
    logic unused_bf16;
    assign unused_bf16 = sb_bf16_q;
  end

  always_ff @(posedge clk_i) begin
    sb_row_q  <= in_row_i;
    sb_addr_q <= in_addr_i;
    sb_acc_q  <= in_acc_i;
    sb_bf16_q <= in_bf16_i;
    fw_addr_q <= sb_addr_q;
    fw_row_q  <= new_row;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      sb_valid_q   <= 1'b0;
      fw_valid_q   <= 1'b0;
      rd_pending_q <= 1'b0;
    end else begin
      sb_valid_q   <= in_valid_i;
      fw_valid_q   <= sb_valid_q;
      rd_pending_q <= rd_valid_i && rd_ready_o;
    end
  end

  assign rd_valid_o = rd_pending_q;
  assign idle_o     = !sb_valid_q;

  // Assertions
`ifndef SYNTHESIS
  logic rd_now;
  assign rd_now = (ReadPort != 0) ? rd_valid_i : (rd_valid_i && !in_valid_i);
  // Immediate assertions in a clocked block, not properties (docs/verification.md).
  always_ff @(posedge clk_i) begin : checks
    if (rst_ni) begin
      a_no_rd_collision: assert (!(rd_now && sb_valid_q && rd_addr_i == sb_addr_q))
        else $error("tpu_acc: the read port reads the row being written");
    end
  end
`endif

endmodule
