// SPDX-License-Identifier: Apache-2.0
// Iterative RV32M unit of the RV32 core: one bit per cycle, 32 cycles plus
// one for the result, for every multiply, divide and remainder.
`default_nettype none

module tpu_cpu_muldiv (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        start_i,   // sample op and operands, begin (only when idle)
  input  logic [2:0]  op_i,      // funct3: MUL MULH MULHSU MULHU DIV DIVU REM REMU
  input  logic [31:0] a_i,
  input  logic [31:0] b_i,
  output logic        busy_o,
  output logic        done_o,    // result_o valid, for one cycle
  output logic [31:0] result_o
);

  // Multiply: hi:lo accumulates a_ext * b_unsigned by shift-and-add, hi
  // holding a signed 33-bit partial sum; for a negative signed b the result
  // needs a final hi -= a_ext (b = b_unsigned - 2^32).
  // Divide: restoring division of the magnitudes, hi the remainder and lo
  // the dividend shifting into the quotient; signs are applied at the end.
  // Division by zero gives all-ones / the dividend, and the signed overflow
  // case -2^31 / -1 gives -2^31 / 0, without special cases.

  logic        busy_d, busy_q;
  logic [5:0]  count_d, count_q;
  logic [2:0]  op_d, op_q;
  logic [32:0] hi_d, hi_q;
  logic [31:0] lo_d, lo_q;
  logic [32:0] opnd_d, opnd_q;
  logic        neg_hi_d, neg_hi_q;   // mul: b negative; div: negate quotient
  logic        neg_lo_d, neg_lo_q;   // div: negate remainder

  logic        is_div;
  logic        a_signed, b_signed;
  logic [31:0] a_mag, b_mag;
  logic [32:0] addend;
  logic [33:0] mul_sum;
  logic [32:0] rem_sh;
  logic [32:0] div_diff;
  logic        last;
  logic [31:0] mul_hi;
  logic [31:0] quo, rem;

  assign is_div   = op_i[2];
  // MULH and MULHSU take a signed a; MULH alone a signed b; DIV/REM both.
  assign a_signed = is_div ? !op_i[0] : (op_i[1:0] == 2'b01 || op_i[1:0] == 2'b10);
  assign b_signed = is_div ? !op_i[0] : (op_i[1:0] == 2'b01);
  assign a_mag    = (a_signed && a_i[31]) ? 32'd0 - a_i : a_i;
  assign b_mag    = (b_signed && b_i[31]) ? 32'd0 - b_i : b_i;

  assign addend   = lo_q[0] ? opnd_q : 33'd0;
  assign mul_sum  = {hi_q[32], hi_q} + {addend[32], addend};
  assign rem_sh   = {hi_q[31:0], lo_q[31]};
  assign div_diff = rem_sh - opnd_q;
  assign last     = (count_q == 6'd32);

  always_comb begin
    busy_d   = busy_q;
    count_d  = count_q;
    op_d     = op_q;
    hi_d     = hi_q;
    lo_d     = lo_q;
    opnd_d   = opnd_q;
    neg_hi_d = neg_hi_q;
    neg_lo_d = neg_lo_q;
    if (start_i && !busy_q) begin
      busy_d  = 1'b1;
      count_d = 6'd0;
      op_d    = op_i;
      hi_d    = 33'd0;
      if (is_div) begin
        lo_d     = a_mag;
        opnd_d   = {1'b0, b_mag};
        neg_hi_d = b_signed && (a_i[31] != b_i[31]) && (b_i != 32'd0);
        neg_lo_d = a_signed && a_i[31];
      end else begin
        lo_d     = b_i;
        opnd_d   = {a_signed & a_i[31], a_i};
        neg_hi_d = b_signed && b_i[31];
        neg_lo_d = 1'b0;
      end
    end else if (busy_q) begin
      if (last) begin
        busy_d = 1'b0;
      end else begin
        count_d = count_q + 6'd1;
        if (op_q[2]) begin
          hi_d = div_diff[32] ? rem_sh : div_diff;
          lo_d = {lo_q[30:0], !div_diff[32]};
        end else begin
          hi_d = mul_sum[33:1];
          lo_d = {mul_sum[0], lo_q[31:1]};
        end
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_q  <= 1'b0;
      count_q <= 6'd0;
    end else begin
      busy_q  <= busy_d;
      count_q <= count_d;
    end
  end

  // Datapath registers: not reset.
  always_ff @(posedge clk_i) begin
    op_q     <= op_d;
    hi_q     <= hi_d;
    lo_q     <= lo_d;
    opnd_q   <= opnd_d;
    neg_hi_q <= neg_hi_d;
    neg_lo_q <= neg_lo_d;
  end

  assign mul_hi = hi_q[31:0] - (neg_hi_q ? opnd_q[31:0] : 32'd0);
  assign quo    = neg_hi_q ? 32'd0 - lo_q : lo_q;
  assign rem    = neg_lo_q ? 32'd0 - hi_q[31:0] : hi_q[31:0];

  assign busy_o = busy_q;
  assign done_o = busy_q && last;
  always_comb begin
    unique case (op_q[1:0])
      2'b00:   result_o = op_q[2] ? quo : lo_q;          // DIV, MUL
      2'b01:   result_o = op_q[2] ? quo : mul_hi;  // DIVU, MULH
      default: result_o = op_q[2] ? rem : mul_hi;  // REM(U), MULH(S)U
    endcase
  end

  // Assertions
`ifndef SYNTHESIS
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      assert (!(start_i && busy_q)) else $error("tpu_cpu_muldiv: start while busy");
    end
  end
`endif

endmodule
