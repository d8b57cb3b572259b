// SPDX-License-Identifier: Apache-2.0
// tpu_mem_axi_wr: write side of one AXI4-like slave port; splits bursts into 32-byte
// channel requests, answers SLVERR for beats outside the memory, posts B once every
// beat of a burst sits in its channel queue.
`default_nettype none

module tpu_mem_axi_wr #(
  parameter int AddrWidth    = 32,
  parameter int IdWidth      = 4,
  parameter int NumPch       = 1,
  parameter int GranLog2     = 8,
  parameter int PchBytesLog2 = 28,
  localparam int ChW       = (NumPch > 1) ? $clog2(NumPch) : 1,
  localparam int LocW      = PchBytesLog2 - 5
) (
  input  wire                  clk_i,
  input  wire                  rst_ni,
  // AXI write address
  input  wire                  s_awvalid_i,
  output logic                 s_awready_o,
  input  wire  [IdWidth-1:0]   s_awid_i,
  input  wire  [AddrWidth-1:0] s_awaddr_i,
  input  wire  [7:0]           s_awlen_i,
  // AXI write data
  input  wire                  s_wvalid_i,
  output logic                 s_wready_o,
  input  wire                  s_wlast_i,  // data and strobes go straight to the arbiters
  // AXI write response
  output logic                 s_bvalid_o,
  input  wire                  s_bready_i,
  output logic [IdWidth-1:0]   s_bid_o,
  output logic [1:0]           s_bresp_o,
  // Request to the channel arbiters
  output logic                 req_valid_o,
  output logic [ChW-1:0]       req_ch_o,
  output logic [LocW-1:0]      req_addr_o,
  input  wire                  req_gnt_i
);
  // One C++ class shared by every instance keeps the Verilated model small.
  /* verilator no_inline_module */

  localparam int AwW = IdWidth + AddrWidth + 8;

  // Pending bursts.
  logic aw_full, aw_empty, aw_pop;
  logic [AwW-1:0] aw_head;
  tpu_mem_fifo #(.Width(AwW), .Depth(2)) u_aw (
    .clk_i, .rst_ni,
    .push_i(s_awvalid_i), .data_i({s_awid_i, s_awaddr_i, s_awlen_i}), .full_o(aw_full),
    .pop_i(aw_pop), .data_o(aw_head), .empty_o(aw_empty)
  );
  assign s_awready_o = !aw_full;

  // Write responses waiting for bready.
  logic b_full, b_empty, b_push;
  logic [IdWidth+1:0] b_in, b_head;
  tpu_mem_fifo #(.Width(IdWidth + 2), .Depth(2)) u_b (
    .clk_i, .rst_ni,
    .push_i(b_push), .data_i(b_in), .full_o(b_full),
    .pop_i(s_bready_i), .data_o(b_head), .empty_o(b_empty)
  );
  assign s_bvalid_o = !b_empty;
  assign {s_bid_o, s_bresp_o} = b_head;

  // The burst being drained.
  logic act_q, act_d;
  logic [IdWidth-1:0] id_q, id_d;
  logic [AddrWidth:0] addr_q, addr_d;  // next beat; the top bit catches a wrap past 2^AddrWidth
  logic [7:0] left_q, left_d;          // beats after this one
  logic err_q, err_d;                  // some beat of this burst failed
  logic unal_q, unal_d;                // misaligned start address: every beat fails

  logic in_range, beat_err, last, beat_ok, w_hs;
  tpu_mem_interleave #(
    .AddrWidth(AddrWidth), .NumPch(NumPch), .GranLog2(GranLog2), .PchBytesLog2(PchBytesLog2)
  ) u_map (
    .addr_i(addr_q), .ch_o(req_ch_o), .local_o(req_addr_o), .in_range_o(in_range)
  );

  assign last        = left_q == '0;
  assign beat_err    = unal_q || !in_range;
  assign beat_ok     = act_q && (!last || !b_full);  // the last beat needs room for its B
  assign req_valid_o = beat_ok && s_wvalid_i && !beat_err;
  assign s_wready_o  = beat_ok && (beat_err || req_gnt_i);
  assign w_hs        = s_wvalid_i && s_wready_o;
  assign b_push      = w_hs && last;
  assign b_in        = {id_q, (err_q || beat_err) ? tpu_mem_pkg::RespSlverr : tpu_mem_pkg::RespOkay};
  assign aw_pop      = !aw_empty && (!act_q || b_push);

  always_comb begin
    act_d  = act_q;
    id_d   = id_q;
    addr_d = addr_q;
    left_d = left_q;
    err_d  = err_q;
    unal_d = unal_q;
    if (w_hs) begin
      addr_d = addr_q + (AddrWidth + 1)'(32);
      left_d = left_q - 8'd1;
      err_d  = err_q || beat_err;
      if (last) act_d = 1'b0;
    end
    if (aw_pop) begin
      act_d = 1'b1;
      {id_d, addr_d[AddrWidth-1:0], left_d} = aw_head;
      addr_d[AddrWidth] = 1'b0;
      err_d  = 1'b0;
      unal_d = aw_head[12:8] != 5'd0;  // address bits [4:0]
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      act_q  <= 1'b0;
      left_q <= '0;
      err_q  <= 1'b0;
      unal_q <= 1'b0;
    end else begin
      act_q  <= act_d;
      left_q <= left_d;
      err_q  <= err_d;
      unal_q <= unal_d;
    end
  end

  always_ff @(posedge clk_i) begin
    id_q   <= id_d;
    addr_q <= addr_d;
  end

  // Assertions
`ifndef SYNTHESIS
  // Assertion clock gate: high from the first edge after reset (keeps rst_ni purely async).
  logic live_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) live_q <= 1'b0;
    else live_q <= 1'b1;
  end
  always_ff @(posedge clk_i) begin
    if (live_q && w_hs && s_wlast_i != last)
      $fatal(1, "tpu_mem_axi_wr %m: wlast=%0d on a beat with %0d beats left of the burst (awlen mismatch)",
             s_wlast_i, left_q);
  end
`endif
endmodule
