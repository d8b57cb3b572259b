// SPDX-License-Identifier: Apache-2.0
// tpu_mem_axi_rd: read side of one AXI4-like slave port; splits bursts into 32-byte
// channel requests (a small queue per channel, so that a busy channel does not hold up
// beats for the others) and returns the data through a reorder buffer in request order.
`default_nettype none

module tpu_mem_axi_rd #(
  parameter int AddrWidth    = 32,
  parameter int IdWidth      = 4,
  parameter int NumPch       = 1,
  parameter int GranLog2     = 8,
  parameter int PchBytesLog2 = 28,
  parameter int RobDepth     = 64,  // beats in flight per port, a power of two >= 2
  parameter int PortBits     = 1,   // tag bits naming the port, >= 1
  parameter int PortQueue    = 8,   // beats per channel waiting for the channel arbiter
  parameter int GateIdle     = 0,   // simulation: an idle port's clock stops (tpu_mem_cg)
  localparam int DataWidth = 256,
  localparam int ChW       = (NumPch > 1) ? $clog2(NumPch) : 1,
  localparam int LocW      = PchBytesLog2 - 5,
  localparam int RobBits   = $clog2(RobDepth),
  localparam int TagW      = PortBits + RobBits
) (
  input  wire                         clk_i,
  input  wire                         rst_ni,
  input  wire  [PortBits-1:0]         port_i,  // this port's number, the top tag bits (a constant)
  // AXI read address
  input  wire                         s_arvalid_i,
  output logic                        s_arready_o,
  input  wire  [IdWidth-1:0]          s_arid_i,
  input  wire  [AddrWidth-1:0]        s_araddr_i,
  input  wire  [7:0]                  s_arlen_i,
  // AXI read data
  output logic                        s_rvalid_o,
  input  wire                         s_rready_i,
  output logic [IdWidth-1:0]          s_rid_o,
  output logic [DataWidth-1:0]        s_rdata_o,
  output logic [1:0]                  s_rresp_o,
  output logic                        s_rlast_o,
  // One request queue per channel, to the channel arbiters
  output logic [NumPch-1:0]           req_valid_o,
  output logic [NumPch*LocW-1:0]      req_addr_o,
  output logic [NumPch*TagW-1:0]      req_tag_o,
  input  wire  [NumPch-1:0]           req_gnt_i,
  // Read responses of every channel (each carries a tag naming its port and slot)
  input  wire  [NumPch-1:0]           rsp_valid_i,
  input  wire  [NumPch*TagW-1:0]      rsp_tag_i,
  input  wire  [NumPch*DataWidth-1:0] rsp_rdata_i
);
  // One C++ class shared by every instance keeps the Verilated model small.
  /* verilator no_inline_module */

  localparam int ArW = IdWidth + AddrWidth + 8;
  localparam int InfoW = IdWidth + 2;  // {id, last, err}

  // Clock gate (GateIdle): an idle port (no AR offered or pending, no burst being issued,
  // no beat in the reorder buffer or in a channel queue) keeps its state; responses come
  // only for beats in the reorder buffer, grants only for queued beats.
  logic clk_g, gate_en, unused_gate_on;
  tpu_mem_cg #(.Enable(GateIdle)) u_cg (.clk_i, .en_i(gate_en), .clk_o(clk_g), .en_o(unused_gate_on));

  // Pending bursts.
  logic ar_full, ar_empty, ar_pop;
  logic [ArW-1:0] ar_head;
  tpu_mem_fifo #(.Width(ArW), .Depth(2)) u_ar (
    .clk_i(clk_g), .rst_ni,
    .push_i(s_arvalid_i), .data_i({s_arid_i, s_araddr_i, s_arlen_i}), .full_o(ar_full),
    .pop_i(ar_pop), .data_o(ar_head), .empty_o(ar_empty)
  );
  assign s_arready_o = !ar_full;

  // The burst being issued.
  logic act_q, act_d;
  logic [IdWidth-1:0] id_q, id_d;
  logic [AddrWidth:0] addr_q, addr_d;
  logic [7:0] left_q, left_d;
  logic unal_q, unal_d;

  // Reorder buffer: slots allocated at tail in issue order, retired at head.
  logic [RobBits:0] head_q, head_d, tail_q, tail_d;
  logic [RobDepth-1:0] done_q;
  logic [InfoW-1:0] info_m [RobDepth];
  logic [DataWidth-1:0] data_m [RobDepth];
  logic rob_full, alloc, r_hs;
  logic [RobBits-1:0] head_idx, tail_idx;
  logic [InfoW-1:0] head_info;

  logic in_range, beat_err, last, to_vq;
  logic [ChW-1:0] ch;
  logic [LocW-1:0] loc;
  tpu_mem_interleave #(
    .AddrWidth(AddrWidth), .NumPch(NumPch), .GranLog2(GranLog2), .PchBytesLog2(PchBytesLog2)
  ) u_map (
    .addr_i(addr_q), .ch_o(ch), .local_o(loc), .in_range_o(in_range)
  );

  // Request queues, one per channel: {reorder slot, beat address}.
  localparam int VqW = RobBits + LocW;
  logic [NumPch-1:0] vq_full, vq_empty;
  logic [NumPch*VqW-1:0] vq_head;

  assign head_idx    = head_q[RobBits-1:0];
  assign tail_idx    = tail_q[RobBits-1:0];
  assign rob_full    = (head_idx == tail_idx) && (head_q[RobBits] != tail_q[RobBits]);
  assign last        = left_q == '0;
  assign beat_err    = unal_q || !in_range;
  assign alloc       = act_q && !rob_full && (beat_err || !vq_full[ch]);
  assign to_vq       = alloc && !beat_err;
  assign ar_pop      = !ar_empty && (!act_q || (alloc && last));

  assign head_info  = info_m[head_idx];
  assign s_rvalid_o = done_q[head_idx] && (head_q != tail_q);
  assign s_rid_o    = head_info[InfoW-1:2];
  assign s_rlast_o  = head_info[1];
  assign s_rresp_o  = head_info[0] ? tpu_mem_pkg::RespSlverr : tpu_mem_pkg::RespOkay;
  assign s_rdata_o  = head_info[0] ? '0 : data_m[head_idx];
  assign r_hs       = s_rvalid_o && s_rready_i;

  // Responses addressed to this port.  The response inputs come from the device model
  // through the top-level inputs, so logic on them outside a clocked process is
  // evaluated by the Verilated model at both clock edges; it is all inside the
  // clocked processes below (evaluated once per cycle).
  function automatic logic mine(input logic [NumPch-1:0] v, input logic [NumPch*TagW-1:0] t,
                                input logic [PortBits-1:0] p, input int c);
    mine = v[c] && (t[c*TagW+RobBits +: PortBits] == p);
  endfunction

  always_comb begin
    act_d  = act_q;
    id_d   = id_q;
    addr_d = addr_q;
    left_d = left_q;
    unal_d = unal_q;
    head_d = head_q;
    tail_d = tail_q;
    if (alloc) begin
      addr_d = addr_q + (AddrWidth + 1)'(32);
      left_d = left_q - 8'd1;
      tail_d = tail_q + 1'b1;
      if (last) act_d = 1'b0;
    end
    if (ar_pop) begin
      act_d = 1'b1;
      {id_d, addr_d[AddrWidth-1:0], left_d} = ar_head;
      addr_d[AddrWidth] = 1'b0;
      unal_d = ar_head[12:8] != 5'd0;
    end
    if (r_hs) head_d = head_q + 1'b1;
  end

  always_ff @(posedge clk_g or negedge rst_ni) begin
    if (!rst_ni) begin
      act_q  <= 1'b0;
      left_q <= '0;
      unal_q <= 1'b0;
      head_q <= '0;
      tail_q <= '0;
    end else begin
      act_q  <= act_d;
      left_q <= left_d;
      unal_q <= unal_d;
      head_q <= head_d;
      tail_q <= tail_d;
    end
  end

  // Beats done: a failed beat needs no memory access; a response marks its slot.
  always_ff @(posedge clk_g or negedge rst_ni) begin
    if (!rst_ni) begin
      done_q <= '0;
    end else begin
      logic [RobDepth-1:0] d;
      d = done_q;
      if (alloc) d[tail_idx] = beat_err;
      if (r_hs) d[head_idx] = 1'b0;
      for (int c = 0; c < NumPch; c++) begin
        if (mine(rsp_valid_i, rsp_tag_i, port_i, c)) d[rsp_tag_i[c*TagW +: RobBits]] = 1'b1;
      end
      done_q <= d;
    end
  end

  always_ff @(posedge clk_g) begin
    id_q   <= id_d;
    addr_q <= addr_d;
  end

  for (genvar c = 0; c < NumPch; c++) begin : g_vq
    tpu_mem_fifo #(.Width(VqW), .Depth(PortQueue)) u_vq (
      .clk_i(clk_g), .rst_ni,
      .push_i(to_vq && ch == ChW'(c)), .data_i({tail_idx, loc}), .full_o(vq_full[c]),
      .pop_i(req_gnt_i[c]), .data_o(vq_head[c*VqW +: VqW]), .empty_o(vq_empty[c])
    );
    assign req_addr_o[c*LocW +: LocW] = vq_head[c*VqW +: LocW];
    assign req_tag_o[c*TagW +: TagW] = {port_i, vq_head[c*VqW+LocW +: RobBits]};
  end
  assign req_valid_o = ~vq_empty;
  assign gate_en = s_arvalid_i || !ar_empty || act_q || head_q != tail_q || !(&vq_empty);

  // Reorder-buffer storage: memories written at one index per writer, not reset.
  always_ff @(posedge clk_g) begin
    if (alloc) info_m[tail_idx] <= {id_q, last, beat_err};
  end
  for (genvar c = 0; c < NumPch; c++) begin : g_wr_data
    always_ff @(posedge clk_g) begin
      if (mine(rsp_valid_i, rsp_tag_i, port_i, c))
        data_m[rsp_tag_i[c*TagW +: RobBits]] <= rsp_rdata_i[c*DataWidth +: DataWidth];
    end
  end

  // Assertions
`ifndef SYNTHESIS
  // Assertion clock gate: high from the first edge after reset (keeps rst_ni purely async).
  logic live_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) live_q <= 1'b0;
    else live_q <= 1'b1;
  end
  initial begin
    if (RobDepth < 2 || (1 << RobBits) != RobDepth)
      $fatal(1, "tpu_mem_axi_rd: RobDepth %0d is not a power of two >= 2", RobDepth);
  end
  always_ff @(posedge clk_i) begin
    // The test of any response first: the channel loop would otherwise run in every cycle.
    if (live_q && rsp_valid_i != '0) begin
      for (int c = 0; c < NumPch; c++) begin
        if (mine(rsp_valid_i, rsp_tag_i, port_i, c) && done_q[rsp_tag_i[c*TagW +: RobBits]])
          $fatal(1, "tpu_mem_axi_rd %m: channel %0d answered slot %0d twice", c, rsp_tag_i[c*TagW +: RobBits]);
      end
    end
  end
`endif
endmodule
