// SPDX-License-Identifier: Apache-2.0
// ALU of the RV32 core: add/sub, logic, pass-through and set-less-than, plus
// the equal / less-than flags that branches use (from the same subtractor).
// Shifts are done by tpu_cpu_shift.
`default_nettype none

module tpu_cpu_alu (
  input  logic [2:0]  op_i,   // tpu_cpu_pkg::Alu*[2:0] (a shift code gives a don't-care)
  input  logic        sub_i,  // op_i is not AluAdd (precomputed by the core)
  input  logic [31:0] a_i,
  input  logic [31:0] b_i,
  output logic [31:0] result_o,
  output logic [31:0] sum_o,  // the adder alone: addresses and targets, early low bits
  output logic        eq_o,   // a == b
  output logic        lt_o,   // a < b, signed (valid when op_i is AluSub)
  output logic        ltu_o   // a < b, unsigned (valid when op_i is AluSub)
);

  logic [32:0] sum;
  logic [31:0] logic_r;

  // One adder serves add, sub, slt(u) and the branch compares.
  assign sum   = {1'b0, a_i} + {1'b0, b_i ^ {32{sub_i}}} + {32'd0, sub_i};
  assign ltu_o = ~sum[32];
  assign lt_o  = (a_i[31] != b_i[31]) ? a_i[31] : sum[31];
  assign eq_o  = (a_i == b_i);

  always_comb begin
    unique case (op_i[1:0])
      2'b00:   logic_r = a_i ^ b_i;
      2'b01:   logic_r = a_i;
      2'b10:   logic_r = a_i | b_i;
      default: logic_r = a_i & b_i;
    endcase
  end

  assign sum_o    = sum[31:0];
  assign result_o = op_i[2] ? logic_r :
                    op_i[1] ? {31'd0, op_i[0] ? ltu_o : lt_o} : sum[31:0];

endmodule
