// SPDX-License-Identifier: Apache-2.0
// One row of the systolic array: N processing elements that pass activations
// right and partial sums down, each with an active and a shadow weight.
`default_nettype none

module tpu_mxu_row #(
  // PEs in the row.
  parameter int unsigned N = 16,
  // 1: the bf16 datapath is present.
  parameter int unsigned EnableBf16 = 1,
  // 1: 32-bit operand lanes (see tpu_mxu_array).
  parameter int unsigned WideLanes = 0,
  // 1: the top row of the array: no partial sums come from above.
  parameter int unsigned Top = 0,
  localparam int unsigned EW = (EnableBf16 != 0) ? 16 : 8,
  localparam int unsigned AW = (WideLanes != 0) ? 32 : ((EnableBf16 != 0) ? 16 : 9),
  localparam int unsigned VW = (WideLanes != 0) ? 32 : EW
) (
  input  logic             clk_i,
  // Activation and switch bit entering column 0 (already skewed).
  input  logic [AW-1:0]    a_i,
  input  logic             switch_i,
  input  logic             bf16_i,
  // Shadow weight row write.
  input  logic             w_we_i,
  input  logic [N*EW-1:0]  w_data_i,
  // Partial sums from the row above (unused in the top row) and to the row below.
  input  logic [N*32-1:0]  up_i,
  output logic [N*32-1:0]  down_o
);

  // Lane n of each vector belongs to the PE in column n.
  logic [N*AW-1:0] a_q;
  logic [N-2:0]    s_q;            // the last column passes no switch bit on
  logic [N-1:0]    s_next;
  logic [N*32-1:0] p_q;
  logic [N*VW-1:0] w_q;
  logic [N*EW-1:0] ws_q;

  // int8 product of one lane pair.  With wide lanes both operands are already
  // sign-extended to 32 bits, so the low 32 bits of the plain product are the
  // signed product; otherwise the 9- and 8-bit fields are multiplied signed.
  function automatic logic [31:0] int8_mul(input logic [AW-1:0] a, input logic [VW-1:0] w);
    if (WideLanes != 0) int8_mul = 32'(a) * 32'(w);
    else                int8_mul = 32'($signed(a[8:0]) * $signed(w[7:0]));
  endfunction

  // Activations and switch bits move one column right per cycle.
  assign s_next = {s_q[N-2:0], switch_i};
  always_ff @(posedge clk_i) begin
    a_q <= {a_q[(N-1)*AW-1:0], a_i};
    s_q <= s_next[N-2:0];
  end

  // A PE takes the shadow weight as the first row of a block arrives, so that
  // row and the rest of its block multiply with the new tile.  Outside the
  // cycles of a switch the row-wide test is all the work there is.
  always_ff @(posedge clk_i) begin : take
    logic [N*VW-1:0] w;
    if (s_next != '0) begin
      w = w_q;
      for (int n = 0; n < N; n++) begin
        if (s_next[n]) begin
          // The block's mode is known by now: widen int8 here, once per
          // tile, rather than in every multiply.
          w[n*VW +: VW] = VW'(ws_q[n*EW +: EW]);
          if (!bf16_i) w[n*VW +: VW] = VW'($signed(ws_q[n*EW +: 8]));
        end
      end
      w_q <= w;
    end
  end

  always_ff @(posedge clk_i) begin
    if (w_we_i) ws_q <= w_data_i;
  end

  // Multiply-accumulate.  The mode is global, so its branch is taken once per
  // row and cycle, not once per PE; the row's new partial sums are built in
  // sum and written as one vector.  int8: (x - zp) is 9 bits, the product 17,
  // a column of N products fits 32 bits with room to spare.
  if (EnableBf16 != 0) begin : g_bf16
    always_ff @(posedge clk_i) begin : mac
      logic [N*32-1:0] sum;
      if (bf16_i) begin
        for (int n = 0; n < N; n++) begin
          sum[n*32 +: 32] = tpu_fp_pkg::bf16_mul(a_q[n*AW +: 16], w_q[n*VW +: 16]);
          // The top row passes its products down unchanged.
          if (Top == 0) sum[n*32 +: 32] = tpu_fp_pkg::fp32_add(up_i[n*32 +: 32], sum[n*32 +: 32]);
        end
      end else begin
        for (int n = 0; n < N; n++) begin
          sum[n*32 +: 32] = int8_mul(a_q[n*AW +: AW], w_q[n*VW +: VW]);
          if (Top == 0) sum[n*32 +: 32] = sum[n*32 +: 32] + up_i[n*32 +: 32];
        end
      end
      p_q <= sum;
    end
  end else begin : g_int8
    always_ff @(posedge clk_i) begin : mac
      logic [N*32-1:0] sum;
      for (int n = 0; n < N; n++) begin
        sum[n*32 +: 32] = int8_mul(a_q[n*AW +: AW], w_q[n*VW +: VW]);
        if (Top == 0) sum[n*32 +: 32] = sum[n*32 +: 32] + up_i[n*32 +: 32];
      end
      p_q <= sum;
    end
  end

  assign down_o = p_q;

  if (Top != 0) begin : g_top
    logic unused_up;
    assign unused_up = ^up_i;
  end

endmodule
