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
  // 1: on an int8-only exact-width row (EnableBf16 = 0, WideLanes = 0, N even) each pair of
  // PEs multiplies in one hand-instantiated iCE40 SB_MAC16 in 8 x 8 mode (two products per
  // DSP; Yosys's inference puts one product in each).  The default is 1 where TPU_ICE40 is
  // defined (iCE40 board builds, mk/board.mk), 0 elsewhere.
`ifdef TPU_ICE40
  parameter int unsigned Ice40Mac16 = 1,
`else
  parameter int unsigned Ice40Mac16 = 0,
`endif
  // Columns 0 .. DspCols-1 multiply int8 with an inferred `*` (a DSP on an FPGA); the
  // others add shifted partial products in logic (int8_mul_logic), which Yosys does not
  // turn into a DSP.  Bit-identical either way.  Not used by Ice40Mac16 pairs.
  parameter int unsigned DspCols = N,
  localparam int unsigned EW = (EnableBf16 != 0) ? 16 : 8,
  localparam int unsigned AW = (WideLanes != 0) ? 32 : ((EnableBf16 != 0) ? 16 : 9),
  localparam int unsigned VW = (WideLanes != 0) ? 32 : EW,
  // Bits of a partial sum kept in the row: a 9 x 8-bit product lies in [-2^15, 2^15], a
  // column of N of them in N times that, so int8-only exact-width rows keep 17 + log2(N)
  // bits and sign-extend them on down_o; the others keep 32.
  localparam int unsigned PW = (EnableBf16 == 0 && WideLanes == 0 && 17 + $clog2(N) < 32) ?
                               17 + $clog2(N) : 32
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
  logic [N*VW-1:0] w_q;
  logic [N*EW-1:0] ws_q;

  // int8 product of one lane pair.  With wide lanes both operands are already
  // sign-extended to 32 bits, so the low 32 bits of the plain product are the
  // signed product; otherwise the 9- and 8-bit fields are multiplied signed.
  localparam logic [N:0] DspMask = ((N + 1)'(1) << DspCols) - (N + 1)'(1);
  // Columns n >= DspCols take lprod[n], the product in logic (tpu_mxu_mul_logic); with the
  // default DspCols = N the test is constant and the function is what it always was.
  function automatic logic [31:0] int8_mul(input integer n, input logic [AW-1:0] a, input logic [VW-1:0] w);
    if (DspCols < N && !DspMask[n])  int8_mul = 32'($signed(lprod[n*17 +: 17]));
    else if (WideLanes != 0)         int8_mul = 32'(a) * 32'(w);
    else                             int8_mul = 32'($signed(a[8:0]) * $signed(w[7:0]));
  endfunction


  // The logic products of columns DspCols .. N-1 (lanes below DspCols are unused).
  logic [N*17-1:0] lprod;
  for (genvar n = 0; n < N; n++) begin : g_lmul
    if (n >= DspCols) begin : g_on
      tpu_mxu_mul_logic u_mul (.a_i(a_q[n*AW +: 9]), .w_i(w_q[n*VW +: 8]), .p_o(lprod[n*17 +: 17]));
    end else begin : g_off
      assign lprod[n*17 +: 17] = '0;
    end
  end

  // Activations and switch bits move one column right per cycle.
  assign s_next = {s_q[N-2:0], switch_i};

  // The active weights after a switch: a PE takes the shadow weight as the first row of a
  // block arrives (its bit of s), so that row and the rest of its block multiply with the
  // new tile.  The block's mode is known by now: int8 is widened here, once per tile,
  // rather than in every multiply.
  function automatic logic [N*VW-1:0] w_take(input logic [N*VW-1:0] w, input logic [N-1:0] s,
                                             input logic [N*EW-1:0] ws, input logic bf16);
    w_take = w;
    for (int n = 0; n < N; n++) begin
      if (s[n]) begin
        w_take[n*VW +: VW] = VW'(ws[n*EW +: EW]);
        if (!bf16) w_take[n*VW +: VW] = VW'($signed(ws[n*EW +: 8]));
      end
    end
  endfunction

  // With bf16 (the simulation configurations) the shift and the take below are part of
  // the MAC process: a register read by another process of the same clock is copied
  // every cycle in the Verilated model, one read by its own process is updated in place
  // (docs/performance.md, simulator speed).  The logic is the same.
  if (EnableBf16 == 0) begin : g_shift
    always_ff @(posedge clk_i) begin
      a_q <= {a_q[(N-1)*AW-1:0], a_i};
      s_q <= s_next[N-2:0];
    end

    // Outside the cycles of a switch the row-wide test is all the work there is.
    always_ff @(posedge clk_i) begin : take
      if (s_next != '0) w_q <= w_take(w_q, s_next, ws_q, bf16_i);
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
    logic [N*32-1:0] p_q;
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
          sum[n*32 +: 32] = int8_mul(n, a_q[n*AW +: AW], w_q[n*VW +: VW]);
          if (Top == 0) sum[n*32 +: 32] = sum[n*32 +: 32] + up_i[n*32 +: 32];
        end
      end
      p_q <= sum;
      // The shift and the take (as in g_shift), after the reads of a_q and w_q.
      a_q <= {a_q[(N-1)*AW-1:0], a_i};
      s_q <= s_next[N-2:0];
      if (s_next != '0) w_q <= w_take(w_q, s_next, ws_q, bf16_i);
    end
    assign down_o = p_q;
  end else begin : g_int8
    // prod: the N products, each sign-extended to 32 bits.
    logic [N*32-1:0] prod;
    if (Ice40Mac16 != 0 && WideLanes == 0 && N % 2 == 0) begin : g_mac16
      // SB_MAC16 in 8 x 8 mode multiplies A[15:8] x B[15:8] and A[7:0] x B[7:0]; with
      // A unsigned and B signed each product is exact in 16 bits.  The activation is 9
      // bits: a = a[7:0] - 256 a[8], so a x w = a[7:0] x w - 256 a[8] w, the correction
      // added here in logic.  Nothing is registered inside the DSP.
      for (genvar j = 0; j < N / 2; j++) begin : g_pair
        logic [31:0] o;
        logic        co, accumco, signextout, unused_mac;
        assign unused_mac = ^{co, accumco, signextout};
        SB_MAC16 #(
          .MODE_8x8         (1'b1),
          .A_SIGNED         (1'b0),
          .B_SIGNED         (1'b1),
          .TOPOUTPUT_SELECT (2'd2),   // the upper 8 x 8 product, not registered
          .BOTOUTPUT_SELECT (2'd2)    // the lower one
        ) u_mac (
          .CLK (clk_i), .CE (1'b1),
          .A ({a_q[(2*j+1)*AW +: 8], a_q[2*j*AW +: 8]}),
          .B ({w_q[(2*j+1)*VW +: 8], w_q[2*j*VW +: 8]}),
          .C (16'd0), .D (16'd0),
          .AHOLD (1'b0), .BHOLD (1'b0), .CHOLD (1'b0), .DHOLD (1'b0),
          .IRSTTOP (1'b0), .IRSTBOT (1'b0), .ORSTTOP (1'b0), .ORSTBOT (1'b0),
          .OLOADTOP (1'b0), .OLOADBOT (1'b0), .ADDSUBTOP (1'b0), .ADDSUBBOT (1'b0),
          .OHOLDTOP (1'b0), .OHOLDBOT (1'b0), .CI (1'b0), .ACCUMCI (1'b0), .SIGNEXTIN (1'b0),
          .O (o), .CO (co), .ACCUMCO (accumco), .SIGNEXTOUT (signextout)
        );
        for (genvar h = 0; h < 2; h++) begin : g_half
          localparam int unsigned C = 2 * j + h;
          assign prod[C*32 +: 32] = 32'($signed(o[16*h +: 16])) -
              (a_q[C*AW + 8] ? {{16{w_q[C*VW + 7]}}, w_q[C*VW +: 8], 8'd0} : 32'd0);
        end
      end
    end else begin : g_logic
      always_comb begin
        for (int n = 0; n < N; n++) prod[n*32 +: 32] = int8_mul(n, a_q[n*AW +: AW], w_q[n*VW +: VW]);
      end
    end
    logic [N*PW-1:0] ps_q;
    always_ff @(posedge clk_i) begin : mac
      logic [N*PW-1:0] sum;
      for (int n = 0; n < N; n++) begin
        sum[n*PW +: PW] = prod[n*32 +: PW];
        if (Top == 0) sum[n*PW +: PW] = sum[n*PW +: PW] + up_i[n*32 +: PW];
      end
      ps_q <= sum;
    end
    for (genvar n = 0; n < N; n++) begin : g_down
      assign down_o[n*32 +: 32] = 32'($signed(ps_q[n*PW +: PW]));
    end
    if (PW < 32) begin : g_unused_up
      logic unused_up_hi;
      always_comb begin
        unused_up_hi = 1'b0;
        for (int n = 0; n < N; n++) unused_up_hi = unused_up_hi ^ (^up_i[n*32 + PW +: 32 - PW]);
      end
    end
  end

  if (Top != 0) begin : g_top
    logic unused_up;
    assign unused_up = ^up_i;
  end
  if (DspCols >= N || Ice40Mac16 != 0) begin : g_unused_lprod
    logic unused_lprod;
    assign unused_lprod = ^lprod;
  end

endmodule

/* verilator lint_off DECLFILENAME */
// The signed 9 x 8-bit product p = a x w in logic, as shift-and-add: w's bits weigh 2^i for
// i < 7 and -2^7 for the sign bit, so p = sum over i < 7 of (w[i] ? a : 0) 2^i, minus
// (w[7] ? a : 0) 2^7.  The partial sum after step i has 10 + i significant bits and its low
// i bits are final, so each step is one 10-bit add (tpu_mxu_add10) of a 9-bit partial
// product to bits [8+i:i]: 7 carry chains of 10 bits and 8 x 9 ANDs per product, nothing
// Yosys can map to a DSP.  Exact, so bit-identical to the `*` of the other PEs.
module tpu_mxu_mul_logic (
  input  logic [8:0]  a_i,
  input  logic [7:0]  w_i,
  output logic [16:0] p_o
);
  // s[i]: the sum of the first i+1 partial products, 9 + i + 1 bits (s[0] is 9 bits).
  (* mem2reg *) logic [16:0] s [8] /* verilator split_var */;
  assign s[0] = 17'($signed(a_i & {9{w_i[0]}}));
`ifdef TPU_ECP5
  // ECP5 (TPU_ECP5, the ULX3S build): each step is one hand-instantiated carry chain of
  // CCU2C cells whose LUT4s also form the partial product, so the ANDs cost nothing: a half
  // of a CCU2C adds bit j as P = A ^ (C & D), A the partial sum's bit, C = a[j], D = w[i]
  // (step 1: P = (A & B) ^ (C & D) with A = a[j+1], B = w[0]; step 7 subtracts:
  // P = A ^ (~C & D) with w[7] as carry-in, from an extra bottom half).  The carry logic
  // takes its generate from the LUT at C = D = 0 (INIT[3:0]), where P is the partial sum's
  // bit A (A & B in step 1): when P = 0 both operands equal it, which is the carry rule.
  // 36 CCU2C and one LUT4 per product instead of 72 LUT4 and 35 CCU2C.
  for (genvar i = 1; i < 8; i++) begin : g_step
    localparam int unsigned Lo = (i == 7) ? 1 : 0;        // the carry-in half of step 7
    localparam int unsigned Cells = (Lo + 10 + 1) / 2;
    logic [2*Cells-1:0] ha, hb, hc, hd, hs;
    logic [Cells:0]     cy;
    logic [9:0]         hi, sx;
    // The partial sum's bits i .. i+8, sign-extended to 10 (step 1 reads a instead).
    assign sx = {s[i-1][i+8], s[i-1][i +: 9]};
    always_comb begin
      ha = '0;
      hb = '0;
      hc = '0;
      hd = '0;
      if (i == 7) begin
        ha[0] = w_i[7];
        hd[0] = 1'b1;
      end
      for (int j = 0; j < 10; j++) begin
        hc[Lo + j] = a_i[(j < 9) ? j : 8];
        hd[Lo + j] = w_i[i];
        if (i == 1) begin
          ha[Lo + j] = a_i[(j < 8) ? j + 1 : 8];
          hb[Lo + j] = w_i[0];
        end else begin
          ha[Lo + j] = sx[j];
        end
      end
    end
    assign cy[0] = 1'b0;
    for (genvar k = 0; k < Cells; k++) begin : g_cc
      CCU2C #(
        .INIT0     (HalfInit(i, 2 * k)),
        .INIT1     (HalfInit(i, 2 * k + 1)),
        .INJECT1_0 ("NO"),
        .INJECT1_1 ("NO")
      ) u_cc (
        .CIN (cy[k]),
        .A0 (ha[2*k]),   .B0 (hb[2*k]),   .C0 (hc[2*k]),   .D0 (hd[2*k]),
        .A1 (ha[2*k+1]), .B1 (hb[2*k+1]), .C1 (hc[2*k+1]), .D1 (hd[2*k+1]),
        .S0 (hs[2*k]),   .S1 (hs[2*k+1]),
        .COUT (cy[k+1])
      );
    end
    assign hi = hs[Lo +: 10];
    if (i + 10 < 17) begin : g_ext
      assign s[i] = {{(7 - i){hi[9]}}, hi, s[i-1][i-1:0]};
    end else begin : g_full
      assign s[i] = {hi, s[i-1][i-1:0]};
    end
    logic unused_cc;
    if (Lo != 0) begin : g_unused_sub
      assign unused_cc = ^{cy[Cells], hs[2*Cells-1], hs[0]};
    end else begin : g_unused_add
      assign unused_cc = ^{cy[Cells], (i == 1) ? sx : 10'd0};
    end
  end

  // INIT of half h of step i's chain (index {D, C, B, A}).
  function automatic logic [15:0] HalfInit(input int unsigned i, input int unsigned h);
    logic ia, ib, ic, id;
    HalfInit = '0;
    if (i == 7 && h == 0) begin
      HalfInit = 16'h00aa;                  // D = 1: P = 0; generate = A = w[7]: carry-in
    end else if (h < ((i == 7) ? 11 : 10)) begin
      for (int unsigned x = 0; x < 16; x++) begin
        ia = x[0];
        ib = x[1];
        ic = x[2];
        id = x[3];
        if (i == 1)      HalfInit[x] = (ia & ib) ^ (ic & id);
        else if (i == 7) HalfInit[x] = ia ^ (~ic & id);
        else             HalfInit[x] = ia ^ (ic & id);
      end
    end
  endfunction
`else
  for (genvar i = 1; i < 8; i++) begin : g_step
    logic [9:0] hi;
    tpu_mxu_add10 #(.Sub((i == 7) ? 1 : 0)) u_add (
      .a_i (s[i-1][i +: 9]),
      .b_i (a_i & {9{w_i[i]}}),
      .y_o (hi)
    );
    if (i + 10 < 17) begin : g_ext
      assign s[i] = {{(7 - i){hi[9]}}, hi, s[i-1][i-1:0]};
    end else begin : g_full
      assign s[i] = {hi, s[i-1][i-1:0]};
    end
    if (i + 9 < 17) begin : g_unused
      logic unused_hi;
      assign unused_hi = ^s[i-1][16:i+9];
    end
  end
`endif
  assign p_o = s[7];
endmodule

// y = a + b (Sub = 0) or a - b (Sub = 1), 9-bit signed operands, exact in 10 bits.  Yosys
// keeps the module (keep_hierarchy), so that its add is a carry chain of its own (CCU2C on
// the ECP5): flattened, Yosys merges a PE's seven adds into one multi-operand sum and maps
// it to full adders in LUTs, about three times the area.
(* keep_hierarchy *)
module tpu_mxu_add10 #(
  parameter int unsigned Sub = 0
) (
  input  logic [8:0] a_i,
  input  logic [8:0] b_i,
  output logic [9:0] y_o
);
  if (Sub != 0) begin : g_sub
    assign y_o = 10'($signed(a_i)) - 10'($signed(b_i));
  end else begin : g_add
    assign y_o = 10'($signed(a_i)) + 10'($signed(b_i));
  end
endmodule
/* verilator lint_on DECLFILENAME */
