// SPDX-License-Identifier: Apache-2.0
// Serial shifter of the RV32 core: SLL/SRL/SRA by four bits per cycle, then
// by one.  A 32-bit barrel shifter costs about 280 iCE40 logic cells; this one
// about 120, for a latency of amount/4 + amount%4 + 1 cycles (at most 11).
`default_nettype none

module tpu_cpu_shift (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        start_i,   // sample the operands and begin (only when idle)
  input  logic        left_i,    // SLL (else a right shift)
  input  logic        arith_i,   // SRA: shift in copies of the sign bit
  input  logic [31:0] a_i,
  input  logic [4:0]  amount_i,
  output logic        done_o,    // result_o valid, for one cycle
  output logic [31:0] result_o
);

  logic        busy_d, busy_q;
  logic [4:0]  count_d, count_q;
  logic        left_d, left_q;
  logic        fill_d, fill_q;
  logic [31:0] data_d, data_q;

  always_comb begin
    busy_d  = busy_q;
    count_d = count_q;
    left_d  = left_q;
    fill_d  = fill_q;
    data_d  = data_q;
    if (start_i && !busy_q) begin
      busy_d  = 1'b1;
      count_d = amount_i;
      left_d  = left_i;
      fill_d  = arith_i && a_i[31];
      data_d  = a_i;
    end else if (busy_q) begin
      if (count_q == 5'd0) begin
        busy_d = 1'b0;
      end else if (count_q[4:2] != 3'd0) begin
        count_d = count_q - 5'd4;
        data_d  = left_q ? {data_q[27:0], 4'd0} : {{4{fill_q}}, data_q[31:4]};
      end else begin
        count_d = count_q - 5'd1;
        data_d  = left_q ? {data_q[30:0], 1'b0} : {fill_q, data_q[31:1]};
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_q <= 1'b0;
    end else begin
      busy_q <= busy_d;
    end
  end

  // Datapath registers: not reset.
  always_ff @(posedge clk_i) begin
    count_q <= count_d;
    left_q  <= left_d;
    fill_q  <= fill_d;
    data_q  <= data_d;
  end

  assign done_o   = busy_q && (count_q == 5'd0);
  assign result_o = data_q;

  // Assertions
`ifndef SYNTHESIS
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      assert (!(start_i && busy_q)) else $error("tpu_cpu_shift: start while busy");
    end
  end
`endif

endmodule
