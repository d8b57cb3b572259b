// SPDX-License-Identifier: Apache-2.0
// tpu_soc_axi_narrow: AXI width converter from a 256-bit master (the link, instruction
// fetch) to a narrower memory bus: each wide beat becomes 256/NarrowWidth narrow beats.
`default_nettype none

// Bursts keep their address (32-byte aligned, as every wide master issues them) and grow
// by the ratio R: len' = (len + 1) * R - 1, so a wide burst must have at most 256/R beats.
// Write beats are cut combinationally (the wide beat stays on the bus until its last
// piece is taken); read beats are assembled from R-1 registered pieces and the current
// one, so a wide R beat leaves in the cycle its last narrow beat arrives.  Responses of
// one wide beat: the worst of its pieces.  One burst direction at a time per master is
// not required: AR/R and AW/W/B are independent.
module tpu_soc_axi_narrow #(
  parameter int unsigned NarrowWidth = 64,  // narrow data bits: 32, 64 or 128
  parameter int unsigned IdWidth     = 4,   // AXI ID bits
  localparam int unsigned WideWidth  = 256,
  localparam int unsigned Ratio      = WideWidth / NarrowWidth,
  localparam int unsigned KW         = $clog2(Ratio)
) (
  input  wire                        clk_i,
  input  wire                        rst_ni,
  // Wide slave (from the master)
  input  wire                        s_arvalid_i,
  output logic                       s_arready_o,
  input  wire  [IdWidth-1:0]         s_arid_i,
  input  wire  [31:0]                s_araddr_i,
  input  wire  [7:0]                 s_arlen_i,
  output logic                       s_rvalid_o,
  input  wire                        s_rready_i,
  output logic [IdWidth-1:0]         s_rid_o,
  output logic [WideWidth-1:0]       s_rdata_o,
  output logic [1:0]                 s_rresp_o,
  output logic                       s_rlast_o,
  input  wire                        s_awvalid_i,
  output logic                       s_awready_o,
  input  wire  [IdWidth-1:0]         s_awid_i,
  input  wire  [31:0]                s_awaddr_i,
  input  wire  [7:0]                 s_awlen_i,
  input  wire                        s_wvalid_i,
  output logic                       s_wready_o,
  input  wire  [WideWidth-1:0]       s_wdata_i,
  input  wire  [WideWidth/8-1:0]     s_wstrb_i,
  input  wire                        s_wlast_i,
  output logic                       s_bvalid_o,
  input  wire                        s_bready_i,
  output logic [IdWidth-1:0]         s_bid_o,
  output logic [1:0]                 s_bresp_o,
  // Narrow master (to the memory system)
  output logic                       m_arvalid_o,
  input  wire                        m_arready_i,
  output logic [IdWidth-1:0]         m_arid_o,
  output logic [31:0]                m_araddr_o,
  output logic [7:0]                 m_arlen_o,
  input  wire                        m_rvalid_i,
  output logic                       m_rready_o,
  input  wire  [IdWidth-1:0]         m_rid_i,
  input  wire  [NarrowWidth-1:0]     m_rdata_i,
  input  wire  [1:0]                 m_rresp_i,
  input  wire                        m_rlast_i,
  output logic                       m_awvalid_o,
  input  wire                        m_awready_i,
  output logic [IdWidth-1:0]         m_awid_o,
  output logic [31:0]                m_awaddr_o,
  output logic [7:0]                 m_awlen_o,
  output logic                       m_wvalid_o,
  input  wire                        m_wready_i,
  output logic [NarrowWidth-1:0]     m_wdata_o,
  output logic [NarrowWidth/8-1:0]   m_wstrb_o,
  output logic                       m_wlast_o,
  input  wire                        m_bvalid_i,
  output logic                       m_bready_o,
  input  wire  [IdWidth-1:0]         m_bid_i,
  input  wire  [1:0]                 m_bresp_i
);
  // Address channels: the burst grows by the ratio.
  assign m_arvalid_o = s_arvalid_i;
  assign s_arready_o = m_arready_i;
  assign m_arid_o    = s_arid_i;
  assign m_araddr_o  = s_araddr_i;
  assign m_arlen_o   = 8'((9'(s_arlen_i) + 9'd1) * 9'(Ratio) - 9'd1);
  assign m_awvalid_o = s_awvalid_i;
  assign s_awready_o = m_awready_i;
  assign m_awid_o    = s_awid_i;
  assign m_awaddr_o  = s_awaddr_i;
  assign m_awlen_o   = 8'((9'(s_awlen_i) + 9'd1) * 9'(Ratio) - 9'd1);

  // Write data: piece wk_q of the wide beat.
  logic [KW-1:0] wk_q, wk_d;
  logic w_end;
  assign w_end       = wk_q == KW'(Ratio - 1);
  assign m_wvalid_o  = s_wvalid_i;
  assign m_wdata_o   = s_wdata_i[wk_q*NarrowWidth +: NarrowWidth];
  assign m_wstrb_o   = s_wstrb_i[wk_q*(NarrowWidth/8) +: NarrowWidth/8];
  assign m_wlast_o   = s_wlast_i && w_end;
  assign s_wready_o  = m_wready_i && w_end;
  always_comb begin
    wk_d = wk_q;
    if (s_wvalid_i && m_wready_i) wk_d = w_end ? '0 : wk_q + KW'(1);
  end

  // Write responses pass through.
  assign s_bvalid_o = m_bvalid_i;
  assign m_bready_o = s_bready_i;
  assign s_bid_o    = m_bid_i;
  assign s_bresp_o  = m_bresp_i;

  // Read data: pieces 0..R-2 registered, the last one straight through.
  logic [KW-1:0] rk_q, rk_d;
  logic [(Ratio-1)*NarrowWidth-1:0] rpart_q;
  logic [1:0] rresp_q, rresp_d, rresp_all;
  logic r_end;
  assign r_end      = rk_q == KW'(Ratio - 1);
  assign rresp_all  = (m_rresp_i > rresp_q) ? m_rresp_i : rresp_q;
  assign s_rvalid_o = m_rvalid_i && r_end;
  assign m_rready_o = !r_end || s_rready_i;
  assign s_rid_o    = m_rid_i;
  assign s_rdata_o  = {m_rdata_i, rpart_q};
  assign s_rresp_o  = rresp_all;
  assign s_rlast_o  = m_rlast_i;
  always_comb begin
    rk_d = rk_q;
    rresp_d = rresp_q;
    if (m_rvalid_i && m_rready_o) begin
      rk_d = r_end ? '0 : rk_q + KW'(1);
      rresp_d = r_end ? 2'b00 : rresp_all;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wk_q    <= '0;
      rk_q    <= '0;
      rresp_q <= 2'b00;
    end else begin
      wk_q    <= wk_d;
      rk_q    <= rk_d;
      rresp_q <= rresp_d;
    end
  end

  always_ff @(posedge clk_i) begin
    if (m_rvalid_i && !r_end) rpart_q[rk_q*NarrowWidth +: NarrowWidth] <= m_rdata_i;
  end

  // Assertions
`ifndef SYNTHESIS
  initial begin
    assert (Ratio >= 2 && Ratio * NarrowWidth == WideWidth)
      else $fatal(1, "tpu_soc_axi_narrow: NarrowWidth %0d must divide 256 and be below it", NarrowWidth);
  end
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      assert (!(s_arvalid_i && (32'(s_arlen_i) + 1) * Ratio > 256))
        else $error("tpu_soc_axi_narrow: read burst of %0d wide beats too long", s_arlen_i + 1);
      assert (!(s_awvalid_i && (32'(s_awlen_i) + 1) * Ratio > 256))
        else $error("tpu_soc_axi_narrow: write burst of %0d wide beats too long", s_awlen_i + 1);
      assert (!(m_rvalid_i && m_rlast_i && !r_end))
        else $error("tpu_soc_axi_narrow: last read beat in the middle of a wide beat");
    end
  end
`endif
endmodule
