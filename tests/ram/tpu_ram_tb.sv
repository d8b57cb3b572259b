// SPDX-License-Identifier: Apache-2.0
// tpu_ram_tb: every configuration of tpu_core_ram, tpu_core_fifo and tpu_dma_fifo that the
// SoCs use, side by side, for tests/ram/tb_ram.c (which holds the same tables).
`default_nettype none

// The shared input buses are as wide as the widest instance; the narrower ones leave bits
// unused, as do the table look-ups.
/* verilator lint_off UNUSEDSIGNAL */
module tpu_ram_tb #(
  localparam int unsigned NR = 12,   // tpu_core_ram instances
  localparam int unsigned NC = 12,   // tpu_core_fifo instances
  localparam int unsigned ND = 9,    // tpu_dma_fifo instances
  localparam int unsigned RW = 512,  // widest RAM row
  localparam int unsigned FW = 520   // widest FIFO entry (rounded up)
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  // tpu_core_ram: write data is shared, each instance takes the low Width bits
  input  logic [NR-1:0]   ram_we0_i,
  input  logic [NR-1:0]   ram_we1_i,
  input  logic [NR*16-1:0] ram_waddr0_i,
  input  logic [NR*16-1:0] ram_waddr1_i,
  input  logic [RW-1:0]   ram_wdata0_i,
  input  logic [RW-1:0]   ram_wdata1_i,
  input  logic [NR*16-1:0] ram_rnext0_i,
  input  logic [NR*16-1:0] ram_rnext1_i,
  input  logic [NR*16-1:0] ram_rnextb0_i,  // the second candidates, taken when ram_rpick*_i
  input  logic [NR*16-1:0] ram_rnextb1_i,
  input  logic [NR-1:0]   ram_rpick0_i,
  input  logic [NR-1:0]   ram_rpick1_i,
  output logic [NR*RW-1:0] ram_rdata0_o,
  output logic [NR*RW-1:0] ram_rdata1_o,
  // tpu_core_fifo
  input  logic [NC-1:0]   cf_flush_i,
  input  logic [NC-1:0]   cf_push_i,
  input  logic [NC-1:0]   cf_pop_i,
  input  logic [FW-1:0]   cf_data_i,
  output logic [NC-1:0]   cf_full_o,
  output logic [NC-1:0]   cf_empty_o,
  output logic [NC*FW-1:0] cf_data_o,
  // tpu_dma_fifo
  input  logic [ND-1:0]   df_push_i,
  input  logic [ND-1:0]   df_pop_i,
  input  logic [FW-1:0]   df_data_i,
  output logic [ND-1:0]   df_full_o,
  output logic [ND-1:0]   df_empty_o,
  output logic [ND*FW-1:0] df_data_o
);

  // {Rows, Width, NumWrite, NumRead, LvtBram}: UB, WB, VP of icebreaker, ulx3s, sim16, c4
  // (bf16 N=4) and a 16-row UB where every access collides; then the ULX3S's UB and the
  // colliding one with the live-value table in block RAM.
  function automatic int unsigned ram_cfg(int unsigned i, int unsigned f);
    int unsigned c [5];
    case (i)
      0: c = '{256, 32, 2, 2, 0};
      1: c = '{64, 32, 1, 1, 0};
      2: c = '{16, 128, 1, 1, 0};
      3: c = '{1024, 128, 2, 2, 0};
      4: c = '{256, 128, 1, 1, 0};
      5: c = '{64, 512, 1, 1, 0};
      6: c = '{4096, 256, 2, 2, 0};
      7: c = '{1024, 256, 1, 1, 0};
      8: c = '{256, 512, 1, 1, 0};
      9: c = '{16, 64, 2, 2, 0};
      10: c = '{1024, 128, 2, 2, 1};
      default: c = '{16, 64, 2, 2, 1};
    endcase
    return c[f];
  endfunction
  // {Width, Depth, RegOut}: queues, fetch buffer, load/store in flight (288, 65), ACC row
  // queue (N=16, N=4), and other depths; then the instruction queues with their head
  // register (RegOut, tpu_core) at the depths the SoCs give them, and the smallest depth.
  function automatic int unsigned cf_cfg(int unsigned i, int unsigned f);
    int unsigned c [3];
    case (i)
      0: c = '{288, 8, 0};
      1: c = '{257, 8, 0};
      2: c = '{288, 4, 0};
      3: c = '{65, 4, 0};
      4: c = '{514, 4, 0};
      5: c = '{130, 4, 0};
      6: c = '{40, 16, 0};
      7: c = '{40, 2, 0};
      8: c = '{288, 32, 0};
      9: c = '{288, 8, 1};
      10: c = '{288, 16, 1};
      default: c = '{40, 2, 1};
    endcase
    return c[f];
  endfunction
  // {Width, Depth}: read buffer (64- and 256-bit bus), write buffer (both), row queue
  // (N=16), AR queue, B records, a depth-8 FIFO, the row queue of N=4.
  function automatic int unsigned df_cfg(int unsigned i, int unsigned f);
    int unsigned c [2];
    case (i)
      0: c = '{65, 128};
      1: c = '{257, 128};
      2: c = '{73, 64};
      3: c = '{289, 64};
      4: c = '{69, 128};
      5: c = '{37, 2};
      6: c = '{37, 4};
      7: c = '{20, 8};
      default: c = '{63, 128};
    endcase
    return c[f];
  endfunction

  for (genvar i = 0; i < NR; i++) begin : g_ram
    localparam int unsigned W = ram_cfg(i, 1);
    logic [W-1:0] rd0, rd1;
    tpu_core_ram #(.Rows(ram_cfg(i, 0)), .Width(W), .NumWrite(ram_cfg(i, 2)),
                   .NumRead(ram_cfg(i, 3)), .LvtBram(ram_cfg(i, 4))) u_ram (
      .clk_i    (clk_i),
      .we0_i    (ram_we0_i[i]),
      .waddr0_i (ram_waddr0_i[i*16 +: 16]),
      .wdata0_i (ram_wdata0_i[W-1:0]),
      .we1_i    (ram_we1_i[i]),
      .waddr1_i (ram_waddr1_i[i*16 +: 16]),
      .wdata1_i (ram_wdata1_i[W-1:0]),
      .rnext0_i (ram_rnext0_i[i*16 +: 16]),
      .rnextb0_i(ram_rnextb0_i[i*16 +: 16]),
      .rpick0_i (ram_rpick0_i[i]),
      .rdata0_o (rd0),
      .rnext1_i (ram_rnext1_i[i*16 +: 16]),
      .rnextb1_i(ram_rnextb1_i[i*16 +: 16]),
      .rpick1_i (ram_rpick1_i[i]),
      .rdata1_o (rd1)
    );
    assign ram_rdata0_o[i*RW +: RW] = RW'(rd0);
    assign ram_rdata1_o[i*RW +: RW] = RW'(rd1);
  end

  for (genvar i = 0; i < NC; i++) begin : g_cf
    localparam int unsigned W = cf_cfg(i, 0);
    logic [W-1:0] d;
    tpu_core_fifo #(.Width(W), .Depth(cf_cfg(i, 1)), .RegOut(cf_cfg(i, 2) != 0)) u_fifo (
      .clk_i   (clk_i),
      .rst_ni  (rst_ni),
      .flush_i (cf_flush_i[i]),
      .push_i  (cf_push_i[i]),
      .data_i  (cf_data_i[W-1:0]),
      .full_o  (cf_full_o[i]),
      .pop_i   (cf_pop_i[i]),
      .data_o  (d),
      .empty_o (cf_empty_o[i])
    );
    assign cf_data_o[i*FW +: FW] = FW'(d);
  end

  for (genvar i = 0; i < ND; i++) begin : g_df
    localparam int unsigned W = df_cfg(i, 0);
    logic [W-1:0] d;
    tpu_dma_fifo #(.Width(W), .Depth(df_cfg(i, 1))) u_fifo (
      .clk_i   (clk_i),
      .rst_ni  (rst_ni),
      .push_i  (df_push_i[i]),
      .data_i  (df_data_i[W-1:0]),
      .full_o  (df_full_o[i]),
      .pop_i   (df_pop_i[i]),
      .data_o  (d),
      .empty_o (df_empty_o[i])
    );
    assign df_data_o[i*FW +: FW] = FW'(d);
  end

endmodule
