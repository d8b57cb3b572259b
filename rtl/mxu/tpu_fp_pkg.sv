// SPDX-License-Identifier: Apache-2.0
// Floating-point arithmetic shared by the MXU, the accumulators and the vector
// unit: bf16 x bf16 -> fp32 products and fp32 sums, round to nearest even,
// subnormals flushed to zero, one canonical quiet NaN.
`default_nettype none

package tpu_fp_pkg;

  localparam logic [31:0] Fp32QNaN = 32'h7fc0_0000;

  // bf16 x bf16 -> fp32.  The 8x8-bit significand product always fits the
  // fp32 significand, so the product is exact unless it leaves the normal
  // range: above it gives +-Inf, below 2^-126 gives +-0 (flush to zero).
  // Subnormal inputs count as zero; Inf x 0 and NaN inputs give the qNaN.
  function automatic logic [31:0] bf16_mul(input logic [15:0] a, input logic [15:0] b);
    logic        sign;
    logic [7:0]  ea, eb;
    logic        a_zero, b_zero, a_inf, b_inf, a_nan, b_nan;
    logic [15:0] prod;
    logic signed [9:0] e;
    logic [22:0] mant;
    sign   = a[15] ^ b[15];
    ea     = a[14:7];
    eb     = b[14:7];
    a_zero = (ea == 8'd0);
    b_zero = (eb == 8'd0);
    a_inf  = (ea == 8'hff) && (a[6:0] == 7'd0);
    b_inf  = (eb == 8'hff) && (b[6:0] == 7'd0);
    a_nan  = (ea == 8'hff) && (a[6:0] != 7'd0);
    b_nan  = (eb == 8'hff) && (b[6:0] != 7'd0);
    prod   = {8'd1, a[6:0]} * {8'd1, b[6:0]};
    e      = $signed({2'b00, ea}) + $signed({2'b00, eb}) - 10'sd127;
    if (prod[15]) begin
      mant = {prod[14:0], 8'd0};
      e    = e + 10'sd1;
    end else begin
      mant = {prod[13:0], 9'd0};
    end
    if (a_nan || b_nan || (a_inf && b_zero) || (b_inf && a_zero)) begin
      bf16_mul = Fp32QNaN;
    end else if (a_inf || b_inf) begin
      bf16_mul = {sign, 8'hff, 23'd0};
    end else if (a_zero || b_zero || e <= 10'sd0) begin
      bf16_mul = {sign, 31'd0};
    end else if (e >= 10'sd255) begin
      bf16_mul = {sign, 8'hff, 23'd0};
    end else begin
      bf16_mul = {sign, e[7:0], mant};
    end
  endfunction

  // fp32 + fp32, round to nearest even, subnormal inputs and results flushed
  // to zero (keeping the sign), every NaN result the canonical qNaN.
  // x + (-x) = +0, (-0) + (-0) = -0, as IEEE 754 requires.
  function automatic logic [31:0] fp32_add(input logic [31:0] a, input logic [31:0] b);
    logic        a_zero, b_zero, a_inf, b_inf, a_nan, b_nan;
    logic        swap, sx, sy, sub;
    logic [7:0]  ex, ey, d8;
    logic [4:0]  d;
    logic [23:0] mx, my;
    logic [58:0] ysh;
    logic [26:0] xa, ya;
    logic [27:0] s;
    logic [26:0] n;
    logic signed [9:0] e;
    logic        g, rs, round_up;
    logic [24:0] m;
    a_zero = (a[30:23] == 8'd0);
    b_zero = (b[30:23] == 8'd0);
    a_inf  = (a[30:23] == 8'hff) && (a[22:0] == 23'd0);
    b_inf  = (b[30:23] == 8'hff) && (b[22:0] == 23'd0);
    a_nan  = (a[30:23] == 8'hff) && (a[22:0] != 23'd0);
    b_nan  = (b[30:23] == 8'hff) && (b[22:0] != 23'd0);
    // Order the operands by magnitude so that the difference is never negative.
    swap = (b[30:0] > a[30:0]);
    sx   = swap ? b[31] : a[31];
    sy   = swap ? a[31] : b[31];
    ex   = swap ? b[30:23] : a[30:23];
    ey   = swap ? a[30:23] : b[30:23];
    mx   = {1'b1, swap ? b[22:0] : a[22:0]};
    my   = {1'b1, swap ? a[22:0] : b[22:0]};
    sub  = sx ^ sy;
    d8   = ex - ey;
    d    = (d8 > 8'd31) ? 5'd31 : d8[4:0];
    // Align: three extra bits (guard, round, sticky) with everything shifted
    // past them jammed into the sticky bit.
    ysh  = {my, 3'b000, 32'd0} >> d;
    xa   = {mx, 3'b000};
    ya   = {ysh[58:33], ysh[32] | (|ysh[31:0])};
    s    = sub ? {1'b0, xa} - {1'b0, ya} : {1'b0, xa} + {1'b0, ya};
    e    = $signed({2'b00, ex});
    if (s[27]) begin
      n = {s[27:2], s[1] | s[0]};
      e = e + 10'sd1;
    end else begin
      // Normalise: a left shift is only ever large when the operands nearly
      // cancel, and then the alignment was exact.
      n = s[26:0];
      if (n[26:11] == 16'd0) begin n = n << 16; e = e - 10'sd16; end
      if (n[26:19] == 8'd0)  begin n = n << 8;  e = e - 10'sd8;  end
      if (n[26:23] == 4'd0)  begin n = n << 4;  e = e - 10'sd4;  end
      if (n[26:25] == 2'd0)  begin n = n << 2;  e = e - 10'sd2;  end
      if (n[26] == 1'b0)     begin n = n << 1;  e = e - 10'sd1;  end
    end
    g        = n[2];
    rs       = n[1] | n[0];
    round_up = g && (rs || n[3]);
    m        = {1'b0, n[26:3]} + {24'd0, round_up};
    if (m[24]) begin
      m = m >> 1;
      e = e + 10'sd1;
    end
    if (a_nan || b_nan || (a_inf && b_inf && (a[31] != b[31]))) begin
      fp32_add = Fp32QNaN;
    end else if (a_inf) begin
      fp32_add = a;
    end else if (b_inf) begin
      fp32_add = b;
    end else if (a_zero && b_zero) begin
      fp32_add = {a[31] & b[31], 31'd0};
    end else if (a_zero) begin
      fp32_add = b;
    end else if (b_zero) begin
      fp32_add = a;
    end else if (s == 28'd0) begin
      fp32_add = 32'd0;
    end else if (e >= 10'sd255) begin
      fp32_add = {sx, 8'hff, 23'd0};
    end else if (e <= 10'sd0) begin
      fp32_add = {sx, 31'd0};
    end else begin
      fp32_add = {sx, e[7:0], m[22:0]};
    end
  endfunction

  // fp32 -> bf16, round to nearest even; NaN stays a quiet NaN with its sign,
  // subnormals become +-0.
  function automatic logic [15:0] fp32_to_bf16(input logic [31:0] a);
    logic [15:0] r;
    if ((a[30:23] == 8'hff) && (a[22:0] != 23'd0)) begin
      fp32_to_bf16 = {a[31], 15'h7fc0};
    end else if (a[30:23] == 8'd0) begin
      fp32_to_bf16 = {a[31], 15'd0};
    end else begin
      // Rounding up past the largest bf16 correctly gives Inf.
      r = a[31:16] + {15'd0, a[15] && ((a[14:0] != 15'd0) || a[16])};
      fp32_to_bf16 = r;
    end
  endfunction

endpackage
