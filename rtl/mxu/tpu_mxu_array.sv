// SPDX-License-Identifier: Apache-2.0
// The N x N weight-stationary systolic array: input skew, processing elements
// with two weight banks each, and output deskew.  Row k of the array holds row
// k of the weight tile; activations move right, partial sums move down.
`default_nettype none

module tpu_mxu_array #(
  // Array size: N x N processing elements.
  parameter int unsigned N = 16,
  // 1: include the bf16 x bf16 -> fp32 datapath; 0: int8 only (FPGA builds).
  parameter int unsigned EnableBf16 = 1,
  // Width of one activation in the array: int8 minus the zero point needs 9
  // bits; bf16 needs 16.
  localparam int unsigned AW = (EnableBf16 != 0) ? 16 : 9,
  // Width of one weight.
  localparam int unsigned WW = (EnableBf16 != 0) ? 16 : 8
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  // Activation row entering this cycle (a bubble when in_valid_i is low; the
  // array always advances, bubbles are simply never written anywhere).
  // Element k of a row vector is bits [k*AW +: AW], here and below.
  input  logic                  in_valid_i,
  input  logic [N*AW-1:0]       in_row_i,
  input  logic                  in_bank_i,     // weight bank this row uses
  // Datapath mode for every row in flight (changed only when the array is empty).
  input  logic                  bf16_i,
  // Weight write: one row of one bank per cycle.
  input  logic                  w_we_i,
  input  logic                  w_bank_i,
  input  logic [$clog2(N)-1:0]  w_row_i,
  input  logic [N*WW-1:0]       w_data_i,
  // Results: the row that entered 2N cycles earlier, deskewed, with its valid.
  output logic                  out_valid_o,
  output logic [N*32-1:0]       out_row_o
);

  // Triangular skew/deskew storage: stage j (1..N-1) holds N-j elements.
  function automatic int unsigned tri_base(input int unsigned j);
    tri_base = (j - 1) * N - ((j - 1) * j) / 2;
  endfunction
  localparam int unsigned TriSize = (N * (N - 1)) / 2;

  // ---------------------------------------------------------------------------
  // Input skew: element k of a row reaches column 0 of array row k after k
  // cycles.  Stage j of sk_q holds elements j..N-1 of the row that entered j-1
  // cycles ago (the input itself is stage 0).
  logic [TriSize*AW-1:0] sk_d, sk_q;
  logic [N-1:0]          tsk_d, tsk_q;   // the bank bit, skewed alike
  logic [2*N-1:0]        vld_d, vld_q;   // row valid, delayed 2N cycles

  always_comb begin
    sk_d  = sk_q;
    tsk_d = {tsk_q[N-2:0], in_bank_i};
    vld_d = {vld_q[2*N-2:0], in_valid_i};
    for (int unsigned j = 1; j < N; j++) begin
      for (int unsigned k = j; k < N; k++) begin
        sk_d[(tri_base(j) + k - j)*AW +: AW] = (j == 1)
            ? in_row_i[k*AW +: AW] : sk_q[(tri_base(j - 1) + k - (j - 1))*AW +: AW];
      end
    end
  end

  // ---------------------------------------------------------------------------
  // Processing elements, PE (k, n) at index k*N+n.  a_q: its activation
  // register, b_q: the bank bit travelling with it, p_q: the partial sum
  // leaving it downwards, w0_q/w1_q: its two weight banks.
  logic [N*N*AW-1:0] a_d, a_q;
  logic [N*N-1:0]    b_d, b_q;
  logic [N*N*32-1:0] p_d, p_q;
  logic [N*N*WW-1:0] w0_d, w0_q, w1_d, w1_q;

  always_comb begin
    for (int unsigned k = 0; k < N; k++) begin
      a_d[(k*N)*AW +: AW] = (k == 0) ? in_row_i[0 +: AW] : sk_q[tri_base(k)*AW +: AW];
      b_d[k*N]            = (k == 0) ? in_bank_i : tsk_q[k - 1];
      for (int unsigned n = 1; n < N; n++) begin
        a_d[(k*N+n)*AW +: AW] = a_q[(k*N+n-1)*AW +: AW];
        b_d[k*N+n]            = b_q[k*N+n-1];
      end
    end
  end

  always_comb begin
    w0_d = w0_q;
    w1_d = w1_q;
    if (w_we_i && !w_bank_i) w0_d[w_row_i*N*WW +: N*WW] = w_data_i;
    if (w_we_i &&  w_bank_i) w1_d[w_row_i*N*WW +: N*WW] = w_data_i;
  end

  // The multiply-accumulate of every PE.  The mode is global, so the branch is
  // taken once per cycle, not once per PE.
  if (EnableBf16 != 0) begin : g_bf16
    always_comb begin
      if (bf16_i) begin
        for (int unsigned k = 0; k < N; k++) begin
          for (int unsigned n = 0; n < N; n++) begin
            p_d[(k*N+n)*32 +: 32] = tpu_fp_pkg::bf16_mul(a_q[(k*N+n)*AW +: 16],
                b_q[k*N+n] ? w1_q[(k*N+n)*WW +: 16] : w0_q[(k*N+n)*WW +: 16]);
            if (k != 0) p_d[(k*N+n)*32 +: 32] = tpu_fp_pkg::fp32_add(
                p_q[((k-1)*N+n)*32 +: 32], p_d[(k*N+n)*32 +: 32]);
          end
        end
      end else begin
        for (int unsigned k = 0; k < N; k++) begin
          for (int unsigned n = 0; n < N; n++) begin
            p_d[(k*N+n)*32 +: 32] = 32'($signed(a_q[(k*N+n)*AW +: 9]) * $signed(
                b_q[k*N+n] ? w1_q[(k*N+n)*WW +: 8] : w0_q[(k*N+n)*WW +: 8]));
            if (k != 0) p_d[(k*N+n)*32 +: 32] = p_q[((k-1)*N+n)*32 +: 32] + p_d[(k*N+n)*32 +: 32];
          end
        end
      end
    end
  end else begin : g_int8
    always_comb begin
      for (int unsigned k = 0; k < N; k++) begin
        for (int unsigned n = 0; n < N; n++) begin
          p_d[(k*N+n)*32 +: 32] = 32'($signed(a_q[(k*N+n)*AW +: 9]) * $signed(
              b_q[k*N+n] ? w1_q[(k*N+n)*WW +: 8] : w0_q[(k*N+n)*WW +: 8]));
          if (k != 0) p_d[(k*N+n)*32 +: 32] = p_q[((k-1)*N+n)*32 +: 32] + p_d[(k*N+n)*32 +: 32];
        end
      end
    end
    logic unused_bf16;
    assign unused_bf16 = bf16_i;
  end

  // ---------------------------------------------------------------------------
  // Output deskew: column n leaves the bottom row n cycles after column 0 and
  // waits N-1-n cycles more.  Stage j of ds_q holds columns 0..N-1-j.
  logic [TriSize*32-1:0] ds_d, ds_q;

  always_comb begin
    ds_d = ds_q;
    for (int unsigned j = 1; j < N; j++) begin
      for (int unsigned n = 0; n + j < N; n++) begin
        ds_d[(tri_base(j) + n)*32 +: 32] = (j == 1) ? p_q[((N-1)*N+n)*32 +: 32]
                                                    : ds_q[(tri_base(j - 1) + n)*32 +: 32];
      end
    end
    for (int unsigned n = 0; n < N; n++) begin
      out_row_o[n*32 +: 32] = (n == N - 1) ? p_q[((N-1)*N+n)*32 +: 32]
                                           : ds_q[(tri_base(N - 1 - n) + n)*32 +: 32];
    end
  end
  assign out_valid_o = vld_q[2*N-1];

  always_ff @(posedge clk_i) begin
    sk_q  <= sk_d;
    tsk_q <= tsk_d;
    a_q   <= a_d;
    b_q   <= b_d;
    p_q   <= p_d;
    w0_q  <= w0_d;
    w1_q  <= w1_d;
    ds_q  <= ds_d;
  end

  // The valid pipeline is the only control state here; the datapath is not reset.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) vld_q <= '0;
    else         vld_q <= vld_d;
  end

endmodule
