// SPDX-License-Identifier: Apache-2.0
// The N x N weight-stationary systolic array: input skew, processing elements
// with an active and a shadow weight each, and output deskew.  Row k of the
// array holds row k of the weight tile; activations move right, partial sums
// move down, and the first row of a block copies the shadow weights into the
// active ones as it passes each PE.
`default_nettype none

module tpu_mxu_array #(
  // Array size: N x N processing elements (N >= 2).
  parameter int unsigned N = 16,
  // 1: include the bf16 x bf16 -> fp32 datapath; 0: int8 only (FPGA builds).
  parameter int unsigned EnableBf16 = 1,
  // 1: activations and active weights sit in 32-bit lanes, int8 values
  // sign-extended, so that the simulator multiplies whole words; 0: lanes are
  // exactly as wide as the data (9/8 bits, 16 with bf16), the smallest logic.
  parameter int unsigned WideLanes = 0,
  // 1: int8-only exact-width arrays multiply two PEs' products in one iCE40 SB_MAC16
  // (tpu_mxu_row); the default is 1 where TPU_ICE40 is defined (iCE40 board builds).
`ifdef TPU_ICE40
  parameter int unsigned Ice40Mac16 = 1,
`else
  parameter int unsigned Ice40Mac16 = 0,
`endif
  // PEs that multiply int8 with an inferred `*` (a DSP on an FPGA), counted row by row from
  // the top row; the others multiply in logic (tpu_mxu_mul_logic), bit-identical.  The
  // default, all N x N, is overridden where TPU_MXU_DSP_PES is defined (the ULX3S build,
  // mk/board.mk, whose ECP5 has 156 multipliers for the whole SoC).
`ifdef TPU_MXU_DSP_PES
  parameter int unsigned DspPes = `TPU_MXU_DSP_PES,
`else
  parameter int unsigned DspPes = N * N,
`endif
  // Width of one weight on the weight stream and in the shadow registers.
  localparam int unsigned EW = (EnableBf16 != 0) ? 16 : 8,
  // Width of an activation lane: int8 minus the zero point needs 9 bits.
  localparam int unsigned AW = (WideLanes != 0) ? 32 : ((EnableBf16 != 0) ? 16 : 9)
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  // Activation row entering this cycle (a bubble when in_valid_i is low; the
  // array always advances, bubbles are simply never written anywhere).
  // Element k of a row vector is bits [k*AW +: AW], here and below; int8
  // lanes hold x - zp sign-extended, bf16 lanes the bf16 in bits [15:0].
  input  logic                  in_valid_i,
  input  logic [N*AW-1:0]       in_row_i,
  input  logic                  in_switch_i,   // first row of a block: switch tiles
  // Datapath mode for every row in flight (changed only when the array is empty).
  input  logic                  bf16_i,
  // Shadow weight write: one row per cycle.
  input  logic                  w_we_i,
  input  logic [$clog2(N)-1:0]  w_row_i,
  input  logic [N*EW-1:0]       w_data_i,     // int8 in bits [7:0] of a lane, or bf16
  // Results: the row that entered 2N cycles earlier, deskewed, with its valid.
  output logic                  out_valid_o,
  output logic [N*32-1:0]       out_row_o
);

  // The array is written for the simulator as much as for synthesis: each row
  // (tpu_mxu_row) keeps its state in packed vectors, one lane per PE, and
  // updates each vector once per cycle; see docs/mxu.md for what this buys.

  // ---------------------------------------------------------------------------
  // Input skew: element k of a row reaches column 0 of array row k after k
  // cycles, with its switch bit.
  (* mem2reg *) logic [AW-1:0] col0 [N];
  (* mem2reg *) logic          bank0 [N];   // switch bit entering column 0

  // With wide lanes (the simulation configurations) the skew and the deskew below read
  // rings of the last RD rows instead of shifting N(N-1)/2 lanes through delay registers:
  // a ring costs the Verilated model one row write per cycle, the delay lines a copy of
  // every stage (docs/performance.md, simulator speed).  Element k written k cycles ago
  // sits at wp_q - k.  Exact-width arrays (the FPGA builds) keep the delay registers.
  localparam int unsigned RW = (N > 2) ? $clog2(N) : 1;
  localparam int unsigned RD = 1 << RW;   // a power of two >= N
  logic [RW-1:0] wp_q;
  if (WideLanes != 0) begin : g_wp
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) wp_q <= '0;
      else         wp_q <= wp_q + 1'b1;
    end
  end else begin : g_no_wp
    assign wp_q = '0;
    logic unused_wp;
    assign unused_wp = ^wp_q;
  end

  if (WideLanes != 0) begin : g_skew_ring
    logic [N*AW-1:0] ring [RD];
    logic [RD-1:0]   sring;
    always_ff @(posedge clk_i) begin
      ring[wp_q]  <= in_row_i;
      sring[wp_q] <= in_switch_i;
    end
    for (genvar k = 0; k < N; k++) begin : g_col
      if (k == 0) begin : g_direct
        assign col0[0]  = in_row_i[0 +: AW];
        assign bank0[0] = in_switch_i;
      end else begin : g_ring
        assign col0[k]  = ring[wp_q - RW'(k)][k*AW +: AW];
        assign bank0[k] = sring[wp_q - RW'(k)];
      end
    end
  end else for (genvar k = 0; k < N; k++) begin : g_skew
    if (k == 0) begin : g_direct
      assign col0[0]  = in_row_i[0 +: AW];
      assign bank0[0] = in_switch_i;
    end else if (k == 1) begin : g_one
      logic [AW-1:0] d_q;
      logic          t_q;
      always_ff @(posedge clk_i) begin
        d_q <= in_row_i[AW +: AW];
        t_q <= in_switch_i;
      end
      assign col0[1]  = d_q;
      assign bank0[1] = t_q;
    end else begin : g_delay
      logic [k*AW-1:0] d_q;
      logic [k-1:0]    t_q;
      always_ff @(posedge clk_i) begin
        d_q <= {d_q[(k-1)*AW-1:0], in_row_i[k*AW +: AW]};
        t_q <= {t_q[k-2:0], in_switch_i};
      end
      assign col0[k]  = d_q[(k-1)*AW +: AW];
      assign bank0[k] = t_q[k-1];
    end
  end

  // ---------------------------------------------------------------------------
  // Row k's PEs with a `*`: what is left of DspPes after the rows above, at most N.
  function automatic int unsigned RowDspCols(input int unsigned k);
    if (DspPes <= k * N)       RowDspCols = 0;
    else if (DspPes - k * N >= N) RowDspCols = N;
    else                       RowDspCols = DspPes - k * N;
  endfunction

  // Processing elements, one module per array row; p_row[k] is what row k
  // passes down.
  (* mem2reg *) logic [N*32-1:0] p_row [N];

  for (genvar k = 0; k < N; k++) begin : g_row
    tpu_mxu_row #(
      .N          (N),
      .EnableBf16 (EnableBf16),
      .WideLanes  (WideLanes),
      .Top        ((k == 0) ? 1 : 0),
      .Ice40Mac16 (Ice40Mac16),
      .DspCols    (RowDspCols(k))
    ) u_row (
      .clk_i    (clk_i),
      .a_i      (col0[k]),
      .switch_i (bank0[k]),
      .bf16_i   (bf16_i),
      .w_we_i   (w_we_i && w_row_i == k),
      .w_data_i (w_data_i),
      .up_i     ((k == 0) ? '0 : p_row[(k == 0) ? 0 : k - 1]),
      .down_o   (p_row[k])
    );
  end

  // ---------------------------------------------------------------------------
  // Output deskew: column n leaves the bottom row n cycles after column 0 and
  // waits N-1-n cycles more.
  if (WideLanes != 0) begin : g_deskew_ring
    logic [N*32-1:0] ring [RD];
    always_ff @(posedge clk_i) ring[wp_q] <= p_row[N-1];
    for (genvar n = 0; n < N; n++) begin : g_col
      if (n == N - 1) begin : g_direct
        assign out_row_o[n*32 +: 32] = p_row[N-1][n*32 +: 32];
      end else begin : g_ring
        assign out_row_o[n*32 +: 32] = ring[wp_q - RW'(N - 1 - n)][n*32 +: 32];
      end
    end
  end else for (genvar n = 0; n < N; n++) begin : g_deskew
    if (n == N - 1) begin : g_direct
      assign out_row_o[n*32 +: 32] = p_row[N-1][n*32 +: 32];
    end else if (n == N - 2) begin : g_one
      logic [31:0] d_q;
      always_ff @(posedge clk_i) d_q <= p_row[N-1][n*32 +: 32];
      assign out_row_o[n*32 +: 32] = d_q;
    end else begin : g_delay
      localparam int unsigned D = N - 1 - n;
      logic [D*32-1:0] d_q;
      always_ff @(posedge clk_i) d_q <= {d_q[(D-1)*32-1:0], p_row[N-1][n*32 +: 32]};
      assign out_row_o[n*32 +: 32] = d_q[(D-1)*32 +: 32];
    end
  end

  // The valid pipeline is the only control state here; the datapath is not reset.
  logic [2*N-1:0] vld_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) vld_q <= '0;
    else         vld_q <= {vld_q[2*N-2:0], in_valid_i};
  end
  assign out_valid_o = vld_q[2*N-1];

  // Assertions
`ifndef SYNTHESIS
  if (N < 2) begin : g_bad_n
    $error("tpu_mxu_array: N must be at least 2");
  end
`endif

endmodule
