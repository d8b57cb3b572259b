// SPDX-License-Identifier: Apache-2.0
// tpu_mem_spram: per-channel backend on single-port on-chip RAM (the iCE40UP5K's four
// 16-bit SPRAMs side by side make one 64-bit word); a request of DataWidth bits takes
// DataWidth/64 words.
`default_nettype none

// The RAM: one 64-bit word per cycle, byte write enables, registered read data.  A request
// takes one cycle to accept, DataWidth/64 cycles of RAM access, and a read one more to
// answer.  With Ice40Spram = 1 the RAM is four hand-instantiated SB_SPRAM256KA side by side
// (16K x 16 each, the whole 128 KB of the UP5K), which Yosys does not infer from the
// behavioural RAM (it built 128 KB from 302 block RAMs instead); with 0, the behavioural
// RAM (simulation, other FPGAs).  Board builds for the iCE40 define TPU_ICE40 (mk/board.mk),
// which makes 1 the default; nothing else needs to pass the parameter down.
module tpu_mem_spram #(
  parameter int TagWidth  = 8,    // request tag bits, returned with read data
  parameter int AddrW     = 12,   // beat address bits: the RAM holds 2^AddrW x DataWidth bits
  parameter int DataWidth = 256,  // request data bits: 64, 128 or 256
  // 1: SB_SPRAM256KA primitives (at most 16K words of 64 bits); 0: behavioural RAM
`ifdef TPU_ICE40
  parameter int Ice40Spram = 1,
`else
  parameter int Ice40Spram = 0,
`endif
  localparam int StrbWidth = DataWidth / 8,
  localparam int NumCnt    = tpu_mem_pkg::NumCnt,
  localparam int CntWidth  = tpu_mem_pkg::CntWidth
) (
  input  wire                        clk_i,
  input  wire                        rst_ni,
  // Requests (the per-channel request interface)
  input  wire                        s_req_valid_i,
  output logic                       s_req_ready_o,
  input  wire                        s_req_write_i,
  input  wire  [AddrW-1:0]           s_req_addr_i,
  input  wire  [DataWidth-1:0]       s_req_wdata_i,
  input  wire  [StrbWidth-1:0]       s_req_wstrb_i,
  input  wire  [TagWidth-1:0]        s_req_tag_i,
  // Read responses
  output logic                       s_rsp_valid_o,
  output logic [TagWidth-1:0]        s_rsp_tag_o,
  output logic [DataWidth-1:0]       s_rsp_rdata_o,
  // Counters (tpu_mem_pkg::Cnt* order; row and refresh counters stay 0)
  output logic [NumCnt*CntWidth-1:0] cnt_o
);
  // One C++ class shared by every instance keeps the Verilated model small.
  /* verilator no_inline_module */

  localparam int K     = DataWidth / 64;              // RAM words per request
  localparam int KW    = (K > 1) ? $clog2(K) : 1;
  localparam int RamAW = AddrW + $clog2(K);
  localparam int Words = 1 << RamAW;
  localparam logic [2:0] Last = 3'(K);                 // step of the last word
  localparam logic [2:0] Ans  = 3'(K + 1);             // step that answers a read

  // Step 0: idle. Steps 1..K access word step-1; step K+1 answers a read.
  logic [2:0] step_q, step_d;
  logic wr_q, wr_d;
  logic [AddrW-1:0] addr_q, addr_d;
  logic [TagWidth-1:0] tag_q, tag_d;
  logic [DataWidth-1:0] wdata_q;
  logic [StrbWidth-1:0] wstrb_q;
  logic [63:0] rword_q;
  logic [KW-1:0] widx, ridx;
  logic [RamAW-1:0] waddr;
  logic acc, accept;
  logic [NumCnt*CntWidth-1:0] cnt_q, cnt_d;  // flat: counter k at [k*CntWidth +: CntWidth]

  assign s_req_ready_o = step_q == 3'd0;
  assign accept = s_req_valid_i && s_req_ready_o;
  assign acc = step_q >= 3'd1 && step_q <= Last;
  assign widx = KW'(step_q - 3'd1);
  assign ridx = KW'(step_q - 3'd2);
  if (K > 1) begin : g_waddr_k
    assign waddr = {addr_q, widx};
  end else begin : g_waddr_1
    assign waddr = addr_q;
    logic unused_idx;
    assign unused_idx = ^{widx, ridx};
  end

  function automatic logic [NumCnt*CntWidth-1:0] bump(input logic [NumCnt*CntWidth-1:0] c,
                                                      input int k, input int by);
    bump = c;
    bump[k*CntWidth +: CntWidth] = c[k*CntWidth +: CntWidth] + CntWidth'(by);
  endfunction

  always_comb begin
    step_d = step_q;
    wr_d = wr_q;
    addr_d = addr_q;
    tag_d = tag_q;
    cnt_d = cnt_q;
    if (accept) begin
      step_d = 3'd1;
      wr_d = s_req_write_i;
      addr_d = s_req_addr_i;
      tag_d = s_req_tag_i;
      cnt_d = bump(cnt_d, tpu_mem_pkg::CntBytes, StrbWidth);
      cnt_d = bump(cnt_d, s_req_write_i ? tpu_mem_pkg::CntWrites : tpu_mem_pkg::CntReads, 1);
    end else if (step_q == Last) begin
      step_d = wr_q ? 3'd0 : Ans;
    end else if (step_q != 3'd0) begin
      step_d = (step_q == Ans) ? 3'd0 : step_q + 3'd1;
    end
    cnt_d = bump(cnt_d, (step_q != 3'd0) ? tpu_mem_pkg::CntBusy : tpu_mem_pkg::CntIdle, 1);
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      step_q <= '0;
      wr_q   <= 1'b0;
      cnt_q  <= '0;
    end else begin
      step_q <= step_d;
      wr_q   <= wr_d;
      cnt_q  <= cnt_d;
    end
  end

  always_ff @(posedge clk_i) begin
    addr_q <= addr_d;
    tag_q  <= tag_d;
  end

  // Request data, captured once.
  always_ff @(posedge clk_i) begin
    if (accept) begin
      wdata_q <= s_req_wdata_i;
      wstrb_q <= s_req_wstrb_i;
    end
  end

  // The RAM: one 64-bit word per cycle, byte write enables, registered read.  rword_q is
  // used only in the steps after a read (a write leaves it undefined in the primitive).
  logic [63:0] ram_wdata;
  logic [7:0] ram_wstrb;
  assign ram_wdata = wdata_q[64*widx +: 64];
  assign ram_wstrb = wstrb_q[8*widx +: 8];
  if (Ice40Spram != 0) begin : g_spram
    // SPRAM i holds bits 16i+15:16i of every word; its write mask is per nibble.
    logic [13:0] ram_addr;
    assign ram_addr = 14'(waddr);
    for (genvar i = 0; i < 4; i++) begin : g_bank
      SB_SPRAM256KA u_spram (
        .ADDRESS    (ram_addr),
        .DATAIN     (ram_wdata[16*i +: 16]),
        .MASKWREN   ({{2{ram_wstrb[2*i+1]}}, {2{ram_wstrb[2*i]}}}),
        .WREN       (wr_q),
        .CHIPSELECT (acc),
        .CLOCK      (clk_i),
        .STANDBY    (1'b0),
        .SLEEP      (1'b0),
        .POWEROFF   (1'b1),
        .DATAOUT    (rword_q[16*i +: 16])
      );
    end
  end else begin : g_behav
    logic [63:0] mem_m [Words];
    always_ff @(posedge clk_i) begin
      if (acc && wr_q) begin
        for (int b = 0; b < 8; b++) begin
          if (ram_wstrb[b]) mem_m[waddr][8*b +: 8] <= ram_wdata[8*b +: 8];
        end
      end
    end
    always_ff @(posedge clk_i) begin
      if (acc && !wr_q) rword_q <= mem_m[waddr];
    end
  end

  // Read words arrive one cycle after their step; words 0..K-2 are kept in rdata_q.
  if (K > 1) begin : g_assemble
    logic [(K-1)*64-1:0] rdata_q;
    always_ff @(posedge clk_i) begin
      if (!wr_q && step_q >= 3'd2 && step_q <= Last) rdata_q[64*ridx +: 64] <= rword_q;
    end
    assign s_rsp_rdata_o = {rword_q, rdata_q};
  end else begin : g_single
    assign s_rsp_rdata_o = rword_q;
  end

  assign s_rsp_valid_o = step_q == Ans;
  assign s_rsp_tag_o   = tag_q;
  assign cnt_o         = cnt_q;

  // Assertions
`ifndef SYNTHESIS
  initial begin
    if (AddrW < 1 || AddrW > 20) $fatal(1, "tpu_mem_spram: AddrW %0d outside 1..20", AddrW);
    if (K < 1 || K > 4 || K * 64 != DataWidth || (K & (K - 1)) != 0)
      $fatal(1, "tpu_mem_spram: DataWidth %0d must be 64, 128 or 256", DataWidth);
    if (Ice40Spram != 0 && Words > 16384)
      $fatal(1, "tpu_mem_spram: %0d words do not fit the four SB_SPRAM256KA (16384)", Words);
  end
`endif
endmodule
