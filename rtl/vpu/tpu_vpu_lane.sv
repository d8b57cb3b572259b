// SPDX-License-Identifier: Apache-2.0
// One lane of the vector unit: the window reduction (combinational) and the
// five-stage pipeline that adds the bias and requantizes (int8) or rounds
// (bf16/fp32) one 32-bit ACC value.  docs/vpu.md has the stage diagram.
`default_nettype none

module tpu_vpu_lane #(
  // 1: fp32 reduction, bias, ReLU/ReLU6 and fp32 -> bf16 as well as int8; 0: int8 only
  // (the floating-point logic is not built).
  parameter int unsigned EnableBf16 = 1,
  // 1: the requantizing 32 x 32 multiply is bit-serial in logic (32 steps, mul_step_i;
  // tpu_vpu holds the pipeline meanwhile); 0: one combinational multiply (DSPs on FPGAs).
  parameter int unsigned SerialMul = 0,
  // 1: the fp stages are computed whether or not the pipeline advances, so that their
  // logic does not depend on en_i (which depends on the consumer's ready): with the
  // unit's clock gate they are then evaluated only on its edges (simulation).
  parameter int unsigned FpAlways = 0,
  // Result bits: fp32 words need 32, int8 bytes 8.
  localparam int unsigned OW = (EnableBf16 != 0) ? 32 : 8
) (
  input  logic          clk_i,
  input  logic          en_i,       // advance the pipeline one stage
  // SerialMul: one step of s1_q x m0_q (mul_last_i: the step of m0's sign bit), en_i low
  input  logic          mul_step_i,
  input  logic          mul_last_i,
  // Configuration of the instruction (stable while it runs).
  input  logic          fp_i,       // ACC holds fp32 (BF16 or FP32 output); else int32
  input  logic          bf16_i,     // round the fp32 result to bf16 (with fp_i)
  input  logic [1:0]    pool_i,
  input  logic          relu_i,
  input  logic          relu6_i,
  input  logic [7:0]    zp_i,
  input  logic [7:0]    lo_i,
  input  logic [7:0]    hi_i,
  input  logic [8:0]    lo_zp_i,    // lo_i - zp_i and hi_i - zp_i (9-bit signed)
  input  logic [8:0]    hi_zp_i,
  // Reduction: red_o = first_i ? x_i : op(acc_i, x_i); v_q loads red_o on en_i.
  input  logic          first_i,
  input  logic [31:0]   x_i,
  input  logic [31:0]   acc_i,
  output logic [31:0]   red_o,
  // Parameters of the element in v_q: bias, shift (the low 6 bits of the VP
  // word) and multiplier (registered beside s1_q, so that no word selection
  // sits in front of the multiplier).
  input  logic [31:0]   bias_i,
  input  logic [5:0]    shift1_i,
  input  logic [31:0]   m0_i,
  // The result of the element in s4_q: int8 byte, bf16 halfword or fp32 word.
  output logic [OW-1:0] res_o
);

  localparam logic [31:0] Fp32Six = 32'h40c0_0000;
  localparam logic [31:0] IntMin  = 32'h8000_0000;

  // Shift amounts: the low 6 bits as a signed value, -32 clamped to -31.
  function automatic logic [4:0] left_of(input logic [5:0] s);
    left_of = s[5] ? 5'd0 : s[4:0];
  endfunction
  function automatic logic [4:0] right_of(input logic [5:0] s);
    logic [4:0] neg;
    neg = 5'd0 - s[4:0];
    if (!s[5])                  right_of = 5'd0;
    else if (s == 6'b10_0000)   right_of = 5'd31;
    else                        right_of = neg;
  endfunction

  // fp32 max (bf16 configurations): subnormals count as zero of their sign; +-0 compare
  // equal; the first value wins ties; any NaN gives the canonical NaN.
  function automatic logic [31:0] fp32_max(input logic [31:0] a, input logic [31:0] b);
    logic        a_nan, b_nan, a_zero, b_zero, b_gt;
    logic [30:0] a_mag, b_mag;
    a_nan  = (a[30:23] == 8'hff) && (a[22:0] != 23'd0);
    b_nan  = (b[30:23] == 8'hff) && (b[22:0] != 23'd0);
    a_zero = (a[30:23] == 8'd0);
    b_zero = (b[30:23] == 8'd0);
    a_mag  = a_zero ? 31'd0 : a[30:0];
    b_mag  = b_zero ? 31'd0 : b[30:0];
    if (a_zero && b_zero)                            b_gt = 1'b0;
    else if ((a[31] && !a_zero) != (b[31] && !b_zero)) b_gt = a[31] && !a_zero;
    else if (a[31] && !a_zero)                       b_gt = b_mag < a_mag;
    else                                             b_gt = b_mag > a_mag;
    if (a_nan || b_nan) fp32_max = tpu_fp_pkg::Fp32QNaN;
    else                fp32_max = b_gt ? b : a;
  endfunction

  logic fp;
  assign fp = (EnableBf16 != 0) && fp_i;

  // ---------------------------------------------------------------------------
  // Reduction.  int32: wrapping sum, signed max.
  logic [31:0] int_red, fp_red;
  always_comb begin
    int_red = acc_i + x_i;
    if (pool_i == 2'd1) int_red = ($signed(x_i) > $signed(acc_i)) ? x_i : acc_i;
  end
  assign red_o = (first_i || pool_i == 2'd0) ? x_i : (fp ? fp_red : int_red);

  // ---------------------------------------------------------------------------
  // Pipeline registers (datapath: not reset).  The int8 and fp paths share them.
  //   v_q:  reduced value
  //   s1_q: int: (v + bias) << left          fp: v + bias (fp32)
  //   s2_q: int: product bits 63:30, mm_q    fp: after ReLU/ReLU6
  //   s3_q: int: SaturatingRoundingDoublingHighMul    fp: result word (bf16 rounded)
  //   s4_q: int: RoundingDivideByPOT          fp: result word
  // The right shift of the element travels with it (r1_q .. r3_q).
  logic [31:0] v_q, s1_q, m0_q, s3_q, s4_q;
  logic [33:0] s2_q;
  logic        mm_q;
  logic [4:0]  r1_q, r2_q, r3_q;

  logic [31:0] int_s1, fp_s1, fp_s2, fp_s3, int_s3, int_s4;
  logic [63:0] prod;
  logic [33:0] s2_d;

  assign int_s1 = (v_q + bias_i) << left_of(shift1_i);
  if (SerialMul != 0) begin : g_mul_serial
    // Shift-and-add over the bits of m0 (the last one weighs -2^31), low bit first: the
    // partial product's high part in mh_q (34 bits: |mh + s1| < 2^33), its low bits shift
    // into ml_q as m0's bits shift out.  Starts whenever the pipeline advances (a new
    // s1_q, m0_q); after 32 steps {mh_q[31:0], ml_q} is the product.
    logic [33:0] mh_q, mh_sum;
    logic [31:0] ml_q;
    always_comb begin
      mh_sum = mh_q;
      if (ml_q[0]) mh_sum = mul_last_i ? mh_q - 34'($signed(s1_q)) : mh_q + 34'($signed(s1_q));
    end
    always_ff @(posedge clk_i) begin
      if (en_i) begin
        mh_q <= '0;
        ml_q <= m0_i;
      end else if (mul_step_i) begin
        mh_q <= {mh_sum[33], mh_sum[33:1]};
        ml_q <= {mh_sum[0], ml_q[31:1]};
      end
    end
    assign prod = {mh_q[31:0], ml_q};
    logic unused_mh;
    assign unused_mh = ^mh_q[33:32];
  end else begin : g_mul_comb
    assign prod = 64'($signed(s1_q) * $signed(m0_q));
    logic unused_step;
    assign unused_step = ^{mul_step_i, mul_last_i};
  end
  assign s2_d   = fp ? {2'b00, fp_s2} : prod[63:30];

  // SRDHM: with nudge = p >= 0 ? 2^30 : 1 - 2^30, (p + nudge) / 2^31 truncated
  // toward zero equals floor((p + 2^30) / 2^31) for both signs of p; the low 30
  // bits of p cannot carry into bit 30, so only p[63:30] is kept.
  logic [33:0] s2_inc;
  assign s2_inc = s2_q + 34'd1;
  assign int_s3 = mm_q ? 32'h7fff_ffff : s2_inc[32:1];
  // Bits that cannot change the result: the low product bits (above), the
  // carry out of the increment (the result fits 32 bits except for mm_q) and
  // the bit shifted out.
  logic unused_bits;
  assign unused_bits = ^{prod[29:0], s2_inc[33], s2_inc[0]};

  // RoundingDivideByPOT(x, e) adds 1 to x >> e when the remainder exceeds
  // 2^(e-1) - 1 (x >= 0) or 2^(e-1) (x < 0): bit e-1 set and, for negative
  // x, any bit below it set (round half away from zero).
  logic [31:0] below, sra;
  logic        half, rnd;
  always_comb begin
    below  = ~(32'hffff_ffff << r3_q) >> 1;           // bits below e-1
    half   = (r3_q != 5'd0) && s3_q[r3_q - 5'd1];
    rnd    = half && (!s3_q[31] || ((s3_q & below) != 32'd0));
    sra    = 32'($signed(s3_q) >>> r3_q);
    int_s4 = sra + {31'd0, rnd};
  end

  always_ff @(posedge clk_i) begin
    if (en_i) begin
      v_q  <= red_o;
      s1_q <= fp ? fp_s1 : int_s1;
      r1_q <= right_of(shift1_i);
      s2_q <= s2_d;
      m0_q <= m0_i;
      mm_q <= (s1_q == IntMin) && (m0_q == IntMin);
      r2_q <= r1_q;
      s3_q <= fp ? fp_s3 : int_s3;
      r3_q <= r2_q;
      s4_q <= fp ? s3_q : int_s4;
    end
  end

  // ---------------------------------------------------------------------------
  // Output (combinational from s4_q): + zp_out without overflow, clamped.  The
  // bounds are compared before the add: x + zp < lo <=> x < lo - zp, so the
  // three carry chains work side by side and the sum needs only 8 bits.
  logic [7:0] y8, sum8;
  always_comb begin
    sum8 = s4_q[7:0] + zp_i;
    if ($signed(s4_q) < $signed({{23{lo_zp_i[8]}}, lo_zp_i}))      y8 = lo_i;
    else if ($signed(s4_q) > $signed({{23{hi_zp_i[8]}}, hi_zp_i})) y8 = hi_i;
    else                                                           y8 = sum8;
  end

  // ---------------------------------------------------------------------------
  // Floating point (bf16 configurations only).
  if (EnableBf16 != 0) begin : g_fp
    // The fp32 operations are computed only where their result is used (an fp
    // reduction; a stage that advances with fp_i): the same values, but the Verilated
    // model no longer runs two fp32 adds per lane in every cycle of an int8 program.
    always_comb begin
      fp_red = '0;
      if (fp_i && !first_i && pool_i != 2'd0) begin
        if (pool_i == 2'd1) fp_red = fp32_max(acc_i, x_i);
        else                fp_red = tpu_fp_pkg::fp32_add(acc_i, x_i);
      end
    end

    logic s1_nan;
    always_comb begin
      fp_s1 = '0;
      fp_s2 = '0;
      fp_s3 = '0;
      s1_nan = 1'b0;
      if ((en_i || FpAlways != 0) && fp_i) begin
        fp_s1  = tpu_fp_pkg::fp32_add(v_q, bias_i);
        s1_nan = (s1_q[30:23] == 8'hff) && (s1_q[22:0] != 23'd0);
        fp_s2  = s1_q;
        if (!s1_nan && relu_i && s1_q[31])                     fp_s2 = 32'd0;
        if (!s1_nan && relu6_i && !s1_q[31] && s1_q > Fp32Six) fp_s2 = Fp32Six;
        fp_s3  = bf16_i ? {16'd0, tpu_fp_pkg::fp32_to_bf16(s2_q[31:0])} : s2_q[31:0];
      end
    end
    assign res_o = fp ? s4_q : {24'd0, y8};
  end else begin : g_int
    assign fp_red = '0;
    assign fp_s1  = '0;
    assign fp_s2  = '0;
    assign fp_s3  = '0;
    assign res_o  = y8;
    // The fp controls have no function without the fp datapath.
    logic unused_fp;
    assign unused_fp = ^{fp_i, bf16_i, relu_i, relu6_i};
  end

endmodule
