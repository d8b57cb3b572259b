// SPDX-License-Identifier: Apache-2.0
// tpu_soc_ram: the firmware RAM of the command processor: one 32-bit port with byte
// enables and a registered read (a 1-cycle SRAM), plus a word-write boot-load port.
`default_nettype none

module tpu_soc_ram #(
  parameter int Words = 4096,          // RAM size in 32-bit words (4096 = 16 KB)
  parameter InitFile = "",             // $readmemh image (boards); "" = loaded through boot_*
  localparam int AddrW = $clog2(Words)
) (
  input  wire              clk_i,
  // CPU port: request in one cycle, read data in the next
  input  wire              req_i,
  input  wire              we_i,
  input  wire  [AddrW-1:0] addr_i,     // word address
  input  wire  [31:0]      wdata_i,
  input  wire  [3:0]       wstrb_i,
  output logic [31:0]      rdata_o,
  // Boot-load port: one word per cycle, used while the CPU is held in reset
  input  wire              boot_we_i,
  input  wire  [AddrW-1:0] boot_addr_i,
  input  wire  [31:0]      boot_wdata_i
);
  logic [31:0] mem [Words];

  initial begin
    if (InitFile != "") $readmemh(InitFile, mem);
  end

  logic [AddrW-1:0] a;
  logic [31:0] wd;
  logic [3:0] we;
  always_comb begin
    a = addr_i;
    wd = wdata_i;
    we = (req_i && we_i) ? wstrb_i : 4'b0;
    if (boot_we_i) begin
      a = boot_addr_i;
      wd = boot_wdata_i;
      we = 4'hf;
    end
  end

  // Written as one process per byte lane so that Yosys infers byte-enabled block RAM.
  always_ff @(posedge clk_i) begin
    if (we[0]) mem[a][7:0] <= wd[7:0];
    if (we[1]) mem[a][15:8] <= wd[15:8];
    if (we[2]) mem[a][23:16] <= wd[23:16];
    if (we[3]) mem[a][31:24] <= wd[31:24];
    rdata_o <= mem[a];
  end

  // Assertions
`ifndef SYNTHESIS
  always_ff @(posedge clk_i) begin
    assert (!(boot_we_i && req_i && we_i)) else $error("tpu_soc_ram: boot write while the CPU writes the RAM");
  end
`endif
endmodule
