// SPDX-License-Identifier: Apache-2.0
// tpu_lite_spram: the lite SoC's 128 KB data memory, 32 bits wide with byte enables and a
// registered read: on the iCE40UP5K the four SB_SPRAM256KA as two banks of two side by side.
`default_nettype none

// With Ice40Spram = 1 (the default where TPU_ICE40 is defined, as in rtl/mem/tpu_mem_spram.sv)
// the RAM is the hand-instantiated primitives, which Yosys does not infer; else a
// behavioural RAM (simulation).  Bank b (word address bit 14) holds words b*16K..b*16K+16K-1;
// SPRAM 2b+h holds bits 16h+15:16h of them, with a write mask per nibble.
module tpu_lite_spram #(
`ifdef TPU_ICE40
  parameter int Ice40Spram = 1,  // 1: SB_SPRAM256KA primitives; 0: behavioural RAM
`else
  parameter int Ice40Spram = 0,
`endif
  localparam int AW = 15         // 32K words of 32 bits
) (
  input  wire           clk_i,
  // One access per cycle; read data in the next cycle
  input  wire           req_i,
  input  wire           we_i,
  input  wire  [AW-1:0] addr_i,   // word address
  input  wire  [31:0]   wdata_i,
  input  wire  [3:0]    wstrb_i,
  output logic [31:0]   rdata_o
);
  if (Ice40Spram != 0) begin : g_spram
    logic bank_q;
    logic [63:0] dout;   // bank b's word at [32b +: 32]
    always_ff @(posedge clk_i) begin
      if (req_i && !we_i) bank_q <= addr_i[14];
    end
    for (genvar b = 0; b < 2; b++) begin : g_bank
      wire cs = req_i && addr_i[14] == 1'(b);
      for (genvar h = 0; h < 2; h++) begin : g_half
        SB_SPRAM256KA u_spram (
          .ADDRESS    (addr_i[13:0]),
          .DATAIN     (wdata_i[16*h +: 16]),
          .MASKWREN   ({{2{wstrb_i[2*h+1]}}, {2{wstrb_i[2*h]}}}),
          .WREN       (we_i),
          .CHIPSELECT (cs),
          .CLOCK      (clk_i),
          .STANDBY    (1'b0),
          .SLEEP      (1'b0),
          .POWEROFF   (1'b1),
          .DATAOUT    (dout[32*b + 16*h +: 16])
        );
      end
    end
    assign rdata_o = bank_q ? dout[63:32] : dout[31:0];
  end else begin : g_behav
    logic [31:0] mem_m [1 << AW];
    logic [31:0] rdata_q;
    always_ff @(posedge clk_i) begin
      if (req_i && we_i) begin
        for (int i = 0; i < 4; i++) begin
          if (wstrb_i[i]) mem_m[addr_i][8*i +: 8] <= wdata_i[8*i +: 8];
        end
      end
      if (req_i && !we_i) rdata_q <= mem_m[addr_i];
    end
    assign rdata_o = rdata_q;
  end
endmodule
