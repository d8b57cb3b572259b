// SPDX-License-Identifier: Apache-2.0
// tpu_mem_axi_wr: write side of one AXI4-like slave port; splits bursts into 32-byte
// channel requests (a small queue per channel, so that a busy channel does not hold up
// beats for the others), answers SLVERR for beats outside the memory, and posts B once
// every beat of a burst sits in its channel's request queue.
`default_nettype none

module tpu_mem_axi_wr #(
  parameter int AddrWidth    = 32,
  parameter int IdWidth      = 4,
  parameter int NumPch       = 1,
  parameter int GranLog2     = 8,
  parameter int PchBytesLog2 = 28,
  parameter int BurstSlots   = 4,   // bursts whose beats may wait for their channels
  parameter int PortQueue    = 8,   // beats per channel waiting for the channel arbiter
  parameter int GateIdle     = 0,   // simulation: an idle port's clock stops (tpu_mem_cg)
  localparam int DataWidth = 256,
  localparam int StrbWidth = 32,
  localparam int ChW       = (NumPch > 1) ? $clog2(NumPch) : 1,
  localparam int LocW      = PchBytesLog2 - 5,
  localparam int SlotW     = $clog2(BurstSlots)
) (
  input  wire                          clk_i,
  input  wire                          rst_ni,
  // AXI write address
  input  wire                          s_awvalid_i,
  output logic                         s_awready_o,
  input  wire  [IdWidth-1:0]           s_awid_i,
  input  wire  [AddrWidth-1:0]         s_awaddr_i,
  input  wire  [7:0]                   s_awlen_i,
  // AXI write data
  input  wire                          s_wvalid_i,
  output logic                         s_wready_o,
  input  wire  [DataWidth-1:0]         s_wdata_i,
  input  wire  [StrbWidth-1:0]         s_wstrb_i,
  input  wire                          s_wlast_i,
  // AXI write response
  output logic                         s_bvalid_o,
  input  wire                          s_bready_i,
  output logic [IdWidth-1:0]           s_bid_o,
  output logic [1:0]                   s_bresp_o,
  // One request queue per channel, to the channel arbiters
  output logic [NumPch-1:0]            req_valid_o,
  output logic [NumPch*LocW-1:0]       req_addr_o,
  output logic [NumPch*DataWidth-1:0]  req_wdata_o,
  output logic [NumPch*StrbWidth-1:0]  req_wstrb_o,
  input  wire  [NumPch-1:0]            req_gnt_i
);
  // Inlined into tpu_mem_sys in the Verilated model (tpu_mem_axi_rd and the controllers
  // stay classes of their own): the queue heads then reach the channel arbiters without
  // being copied across the class boundary in every cycle, 2.5 % fewer instructions per
  // simulated cycle for the SoC (docs/performance.md, simulator speed).

  localparam int AwW = IdWidth + AddrWidth + 8;

  // Clock gate (GateIdle): an idle port (no AW offered or pending, no burst being
  // received or waiting for its beats or its B, no beat in a channel queue) keeps its
  // state; W beats are taken only during a burst, grants only for queued beats.
  logic clk_g, gate_en, unused_gate_on;
  tpu_mem_cg #(.Enable(GateIdle)) u_cg (.clk_i, .en_i(gate_en), .clk_o(clk_g), .en_o(unused_gate_on));

  // Pending bursts.
  logic aw_full, aw_empty, aw_pop;
  logic [AwW-1:0] aw_head;
  tpu_mem_fifo #(.Width(AwW), .Depth(2)) u_aw (
    .clk_i(clk_g), .rst_ni,
    .push_i(s_awvalid_i), .data_i({s_awid_i, s_awaddr_i, s_awlen_i}), .full_o(aw_full),
    .pop_i(aw_pop), .data_o(aw_head), .empty_o(aw_empty)
  );
  assign s_awready_o = !aw_full;

  // Write responses waiting for bready.
  logic b_full, b_empty, b_push;
  logic [IdWidth+1:0] b_in, b_head;
  tpu_mem_fifo #(.Width(IdWidth + 2), .Depth(2)) u_b (
    .clk_i(clk_g), .rst_ni,
    .push_i(b_push), .data_i(b_in), .full_o(b_full),
    .pop_i(s_bready_i), .data_o(b_head), .empty_o(b_empty)
  );
  assign s_bvalid_o = !b_empty;
  assign {s_bid_o, s_bresp_o} = b_head;

  // Burst slots, a ring in AW order: beats still in a request register, all W beats
  // taken, a beat failed, the ID.
  (* mem2reg *) logic [8:0] bcnt_q [BurstSlots];
  (* mem2reg *) logic [8:0] bcnt_d [BurstSlots];
  logic [BurstSlots-1:0] bdone_q, bdone_d, berr_q, berr_d;
  logic [IdWidth-1:0] bid_m [BurstSlots];
  logic [SlotW:0] head_q, head_d, tail_q, tail_d;
  logic [SlotW-1:0] head_idx, cur_slot;
  logic slots_full;
  assign head_idx   = head_q[SlotW-1:0];
  assign slots_full = (head_q[SlotW-1:0] == tail_q[SlotW-1:0]) && (head_q[SlotW] != tail_q[SlotW]);

  // The burst being received; it owns the slot before tail.
  logic act_q, act_d;
  logic [AddrWidth:0] addr_q, addr_d;  // next beat; the top bit catches a wrap past 2^AddrWidth
  logic [7:0] left_q, left_d;          // beats after this one
  logic unal_q, unal_d;                // misaligned start address: every beat fails
  assign cur_slot = tail_q[SlotW-1:0] - 1'b1;

  // Request queues, one per channel: {slot, beat address, strobes, data}.
  localparam int VqW = SlotW + LocW + StrbWidth + DataWidth;
  logic [NumPch-1:0] vq_full, vq_empty;
  logic [NumPch*VqW-1:0] vq_head;
  (* mem2reg *) logic [SlotW-1:0] vslot [NumPch];

  logic [ChW-1:0] ch;
  logic [LocW-1:0] loc;
  logic in_range, beat_err, last, w_hs, to_vq;
  logic [NumPch-1:0] vq_free;
  tpu_mem_interleave #(
    .AddrWidth(AddrWidth), .NumPch(NumPch), .GranLog2(GranLog2), .PchBytesLog2(PchBytesLog2)
  ) u_map (
    .addr_i(addr_q), .ch_o(ch), .local_o(loc), .in_range_o(in_range)
  );

  assign vq_free    = ~vq_full;
  assign last       = left_q == '0;
  assign beat_err   = unal_q || !in_range;
  assign s_wready_o = act_q && (beat_err || vq_free[ch]);
  assign w_hs       = s_wvalid_i && s_wready_o;
  assign to_vq      = w_hs && !beat_err;
  assign aw_pop     = !aw_empty && !slots_full && (!act_q || (w_hs && last));
  assign b_in       = {bid_m[head_idx], berr_q[head_idx] ? tpu_mem_pkg::RespSlverr : tpu_mem_pkg::RespOkay};
  assign b_push     = (head_q != tail_q) && bdone_q[head_idx] && bcnt_q[head_idx] == '0 && !b_full;

  always_comb begin
    act_d  = act_q;
    addr_d = addr_q;
    left_d = left_q;
    unal_d = unal_q;
    head_d = head_q;
    tail_d = tail_q;
    bdone_d = bdone_q;
    berr_d = berr_q;
    // Beats that reached their channel queue this cycle (the loop only when some did).
    for (int k = 0; k < BurstSlots; k++) bcnt_d[k] = bcnt_q[k];
    if (req_gnt_i != '0) begin
      for (int k = 0; k < BurstSlots; k++) begin
        for (int c = 0; c < NumPch; c++) begin
          if (req_gnt_i[c] && vslot[c] == SlotW'(k)) bcnt_d[k] = bcnt_d[k] - 1'b1;
        end
      end
    end
    if (w_hs) begin
      addr_d = addr_q + (AddrWidth + 1)'(32);
      left_d = left_q - 8'd1;
      if (beat_err) berr_d[cur_slot] = 1'b1;
      else bcnt_d[cur_slot] = bcnt_d[cur_slot] + 1'b1;
      if (last) begin
        bdone_d[cur_slot] = 1'b1;
        act_d = 1'b0;
      end
    end
    if (aw_pop) begin
      act_d = 1'b1;
      {addr_d[AddrWidth-1:0], left_d} = aw_head[AddrWidth+7:0];
      addr_d[AddrWidth] = 1'b0;
      unal_d = aw_head[12:8] != 5'd0;  // address bits [4:0]
      tail_d = tail_q + 1'b1;
      bdone_d[tail_q[SlotW-1:0]] = 1'b0;
      berr_d[tail_q[SlotW-1:0]] = 1'b0;
    end
    if (b_push) head_d = head_q + 1'b1;
  end

  always_ff @(posedge clk_g or negedge rst_ni) begin
    if (!rst_ni) begin
      act_q   <= 1'b0;
      left_q  <= '0;
      unal_q  <= 1'b0;
      head_q  <= '0;
      tail_q  <= '0;
      bdone_q <= '0;
      berr_q  <= '0;
    end else begin
      act_q   <= act_d;
      left_q  <= left_d;
      unal_q  <= unal_d;
      head_q  <= head_d;
      tail_q  <= tail_d;
      bdone_q <= bdone_d;
      berr_q  <= berr_d;
    end
  end
  for (genvar k = 0; k < BurstSlots; k++) begin : g_slot
    always_ff @(posedge clk_g or negedge rst_ni) begin
      if (!rst_ni) bcnt_q[k] <= '0;
      else bcnt_q[k] <= bcnt_d[k];
    end
  end

  always_ff @(posedge clk_g) begin
    addr_q <= addr_d;
  end

  // Burst IDs: a memory written at one index.
  always_ff @(posedge clk_g) begin
    if (aw_pop) bid_m[tail_q[SlotW-1:0]] <= aw_head[AwW-1:AddrWidth+8];
  end

  for (genvar c = 0; c < NumPch; c++) begin : g_vq
    tpu_mem_fifo #(.Width(VqW), .Depth(PortQueue)) u_vq (
      .clk_i(clk_g), .rst_ni,
      .push_i(to_vq && ch == ChW'(c)), .data_i({cur_slot, loc, s_wstrb_i, s_wdata_i}),
      .full_o(vq_full[c]),
      .pop_i(req_gnt_i[c]), .data_o(vq_head[c*VqW +: VqW]), .empty_o(vq_empty[c])
    );
    assign vslot[c] = vq_head[c*VqW+LocW+StrbWidth+DataWidth +: SlotW];
    assign req_addr_o[c*LocW +: LocW] = vq_head[c*VqW+StrbWidth+DataWidth +: LocW];
    assign req_wstrb_o[c*StrbWidth +: StrbWidth] = vq_head[c*VqW+DataWidth +: StrbWidth];
    assign req_wdata_o[c*DataWidth +: DataWidth] = vq_head[c*VqW +: DataWidth];
  end
  assign req_valid_o = ~vq_empty;
  assign gate_en = s_awvalid_i || !aw_empty || act_q || head_q != tail_q || !b_empty || !(&vq_empty);

  // Assertions
`ifndef SYNTHESIS
  // Assertion clock gate: high from the first edge after reset (keeps rst_ni purely async).
  logic live_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) live_q <= 1'b0;
    else live_q <= 1'b1;
  end
  initial begin
    if (BurstSlots < 2 || (1 << SlotW) != BurstSlots)
      $fatal(1, "tpu_mem_axi_wr: BurstSlots %0d is not a power of two >= 2", BurstSlots);
  end
  always_ff @(posedge clk_i) begin
    if (live_q && w_hs && s_wlast_i != last)
      $fatal(1, "tpu_mem_axi_wr %m: wlast=%0d on a beat with %0d beats left of the burst (awlen mismatch)",
             s_wlast_i, left_q);
    if (live_q && (req_gnt_i & vq_empty) != '0)
      $fatal(1, "tpu_mem_axi_wr %m: grant without a request");
  end
`endif
endmodule
