// SPDX-License-Identifier: Apache-2.0
// tpu_mem_cg: clock gate of the simulation libraries (GateIdle): clk_o = clk_i while en_i
// was high in the low phase before the edge (a latch open while clk_i is low, so that
// clk_o never glitches).  Verilator evaluates the logic of a clock only in cycles in
// which that clock has an edge, so a block clocked by clk_o costs nothing while it is
// gated.  With Enable = 0 the clock passes through (and en_o is 1).
`default_nettype none

module tpu_mem_cg #(
  parameter int Enable = 1
) (
  input  wire  clk_i,
  input  wire  en_i,
  output logic clk_o,
  output logic en_o    // the latched enable: this cycle's edge reaches clk_o
);
  if (Enable != 0) begin : g_gate
    logic en_l;
    always_latch begin
      if (!clk_i) en_l = en_i;
    end
    assign clk_o = clk_i & en_l;
    assign en_o = en_l;
  end else begin : g_pass
    logic unused_en;
    assign unused_en = en_i;
    assign clk_o = clk_i;
    assign en_o = 1'b1;
  end
endmodule
