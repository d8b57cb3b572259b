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
  // Width of one weight on the weight stream and in the shadow registers.
  localparam int unsigned EW = (EnableBf16 != 0) ? 16 : 8,
  // Width of an activation lane: int8 minus the zero point needs 9 bits.
  localparam int unsigned AW = (WideLanes != 0) ? 32 : ((EnableBf16 != 0) ? 16 : 9),
  // Width of an active-weight lane.
  localparam int unsigned VW = (WideLanes != 0) ? 32 : EW
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

  // The array is written for the simulator as much as for synthesis: state is
  // one packed vector per array row (an unpacked array of rows), every row is
  // one generate block, and each PE's multiply-accumulate is an element of a
  // loop that Verilator unrolls into straight-line code.  The clocked blocks
  // compute their next state directly instead of through _d signals: for a
  // 16 x 16 array this halves the work per cycle (docs/mxu.md).

  // int8 product of one lane pair.  With wide lanes both operands are already
  // sign-extended to 32 bits, so the low 32 bits of the plain product are the
  // signed product; otherwise the 9- and 8-bit fields are multiplied signed.
  function automatic logic [31:0] int8_mul(input logic [AW-1:0] a, input logic [VW-1:0] w);
    if (WideLanes != 0) int8_mul = 32'(a) * 32'(w);
    else                int8_mul = 32'($signed(a[8:0]) * $signed(w[7:0]));
  endfunction

  // ---------------------------------------------------------------------------
  // Input skew: element k of a row reaches column 0 of array row k after k
  // cycles, with its switch bit.
  (* mem2reg *) logic [AW-1:0] col0 [N];
  (* mem2reg *) logic          bank0 [N];   // switch bit entering column 0

  for (genvar k = 0; k < N; k++) begin : g_skew
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
  // Processing elements.  For array row k: a_q[k] holds the activations of its
  // N PEs (lane n = column n), s_q[k] their switch bits, p_q[k] the partial
  // sums they pass down, w_q[k] the weights they multiply with and ws_q[k] the
  // shadow weights of the next tile.
  (* mem2reg *) logic [N*AW-1:0] a_q  [N];
  (* mem2reg *) logic [N-1:0]    s_q  [N];
  (* mem2reg *) logic [N*32-1:0] p_q  [N];
  (* mem2reg *) logic [N*VW-1:0] w_q  [N];
  (* mem2reg *) logic [N*EW-1:0] ws_q [N];

  for (genvar k = 0; k < N; k++) begin : g_row
    // Activations and switch bits move one column right per cycle.
    logic [N-1:0] s_next;
    assign s_next = {s_q[k][N-2:0], bank0[k]};
    always_ff @(posedge clk_i) begin
      a_q[k] <= {a_q[k][(N-1)*AW-1:0], col0[k]};
      s_q[k] <= s_next;
    end

    // A PE takes the shadow weight as the first row of a block arrives, so
    // that row and the rest of its block multiply with the new tile.  Outside
    // the 2N cycles after a switch the row-wide test is all the work there is.
    always_ff @(posedge clk_i) begin : take
      logic [N*VW-1:0] w;
      if (s_next != '0) begin
        w = w_q[k];
        for (int n = 0; n < N; n++) begin
          if (s_next[n]) begin
            // The block's mode is known by now: widen int8 here, once per
            // tile, rather than in every multiply.
            w[n*VW +: VW] = VW'(ws_q[k][n*EW +: EW]);
            if (!bf16_i) w[n*VW +: VW] = VW'($signed(ws_q[k][n*EW +: 8]));
          end
        end
        w_q[k] <= w;
      end
    end

    // Shadow rows load from the weight stream.
    always_ff @(posedge clk_i) begin
      if (w_we_i && w_row_i == k) ws_q[k] <= w_data_i;
    end

    // Multiply-accumulate.  The mode is global, so its branch is taken once
    // per row and cycle, not once per PE.  int8: (x - zp) is 9 bits, the
    // product 17, the sum of N products fits 32 bits with room to spare.
    // The row's new partial sums are built in sum and written as one vector:
    // one update per row instead of N, for the simulator.
    logic [N*32-1:0] up;
    if (k == 0) begin : g_top
      assign up = '0;
    end else begin : g_below
      assign up = p_q[k-1];
    end
    if (EnableBf16 != 0) begin : g_bf16
      always_ff @(posedge clk_i) begin : mac
        logic [N*32-1:0] sum;
        if (bf16_i) begin
          for (int n = 0; n < N; n++) begin
            sum[n*32 +: 32] = tpu_fp_pkg::bf16_mul(a_q[k][n*AW +: 16], w_q[k][n*VW +: 16]);
            // The top row passes its products down unchanged.
            if (k != 0) sum[n*32 +: 32] = tpu_fp_pkg::fp32_add(up[n*32 +: 32], sum[n*32 +: 32]);
          end
        end else begin
          for (int n = 0; n < N; n++) begin
            sum[n*32 +: 32] = up[n*32 +: 32] + int8_mul(a_q[k][n*AW +: AW], w_q[k][n*VW +: VW]);
          end
        end
        p_q[k] <= sum;
      end
    end else begin : g_int8
      always_ff @(posedge clk_i) begin : mac
        logic [N*32-1:0] sum;
        for (int n = 0; n < N; n++) begin
          sum[n*32 +: 32] = up[n*32 +: 32] + int8_mul(a_q[k][n*AW +: AW], w_q[k][n*VW +: VW]);
        end
        p_q[k] <= sum;
      end
    end
  end

  // ---------------------------------------------------------------------------
  // Output deskew: column n leaves the bottom row n cycles after column 0 and
  // waits N-1-n cycles more.
  for (genvar n = 0; n < N; n++) begin : g_deskew
    if (n == N - 1) begin : g_direct
      assign out_row_o[n*32 +: 32] = p_q[N-1][n*32 +: 32];
    end else if (n == N - 2) begin : g_one
      logic [31:0] d_q;
      always_ff @(posedge clk_i) d_q <= p_q[N-1][n*32 +: 32];
      assign out_row_o[n*32 +: 32] = d_q;
    end else begin : g_delay
      localparam int unsigned D = N - 1 - n;
      logic [D*32-1:0] d_q;
      always_ff @(posedge clk_i) d_q <= {d_q[(D-1)*32-1:0], p_q[N-1][n*32 +: 32]};
      assign out_row_o[n*32 +: 32] = d_q[(D-1)*32 +: 32];
    end
  end

  if (EnableBf16 == 0) begin : g_no_bf16
    logic unused_bf16;
    assign unused_bf16 = bf16_i;
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
