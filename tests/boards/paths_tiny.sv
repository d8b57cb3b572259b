// SPDX-License-Identifier: Apache-2.0
// paths_tiny: a design with known register-to-register paths for tests/boards/paths-test.sh
// (scripts/board-paths.py): deep_q is reached through an adder, a compare and a
// multiplexer chain, short_q through one LUT, ram_q from a block RAM's output, lram_q
// from two registers through a LUT into a LUT RAM's read address.
`default_nettype none
module paths_tiny (
  input  wire        clk_i,
  input  wire [31:0] a_i,
  input  wire [31:0] b_i,
  input  wire [9:0]  addr_i,
  output logic [31:0] deep_o,
  output logic        short_o,
  output logic [15:0] ram_o,
  output logic [7:0]  lram_o
);
  logic [31:0] a_q, b_q, deep_q, sum;
  logic        short_q;
  logic [15:0] ram_q, rd_q;
  logic [15:0] mem [1024];
  logic [7:0]  lmem [16];   // asynchronous read: LUT RAM (TRELLIS_DPR16X4)
  logic [7:0]  lram_q;
  always_ff @(posedge clk_i) begin
    a_q <= a_i;
    b_q <= b_i;
    mem[addr_i] <= a_i[15:0];
    rd_q <= mem[b_i[9:0]];
    lmem[a_i[3:0]] <= a_i[15:8];
  end
  assign sum = a_q + b_q;
  always_ff @(posedge clk_i) begin
    // A compare of the sum, then a chain of data-dependent selects.
    deep_q <= (sum > b_q) ? ((sum[3:0] == a_q[7:4]) ? sum ^ a_q : sum & b_q)
                          : ((sum[7:4] == b_q[3:0]) ? sum | a_q : ~sum);
    short_q <= a_q[0] ^ b_q[0];
    ram_q <= rd_q + 16'd1;
    lram_q <= lmem[a_q[3:0] ^ b_q[7:4]];
  end
  assign deep_o = deep_q;
  assign short_o = short_q;
  assign ram_o = ram_q;
  assign lram_o = lram_q;
endmodule
