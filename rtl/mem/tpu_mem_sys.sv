// SPDX-License-Identifier: Apache-2.0
// tpu_mem_sys: the memory system: NumPorts AXI4-like slave ports, a fair arbiter per
// pseudo-channel behind the address interleaver, and one backend per pseudo-channel
// (an HBM2 controller driving the m_hbm_* device ports, on-chip SPRAM, or an SDR SDRAM
// controller driving the sdram_* pins).  A bus narrower than 256 bits (the boards) has
// one channel behind a simpler in-order front end (tpu_mem_board).
//
// Port groups are packed arrays flattened into vectors: field f of port p is
// s_axi_f[p*W +: W]; channel c of a device port is m_hbm_f[c*W +: W].
`default_nettype none

module tpu_mem_sys #(
  parameter int NumPorts    = 2,     // AXI slave ports (1..16)
  parameter int NumPch      = 8,     // pseudo-channels P (1, 2, 4, 8, 16)
  parameter int AddrWidth   = 32,    // byte address bits
  parameter int DataWidth   = 256,   // AXI data bits: 256 (one 32-byte HBM2 burst), or 32..128
                                     // with NumPch = 1 and a board backend
  parameter int IdWidth     = 4,     // AXI ID bits
  parameter int GranBytes   = 256,   // interleave granularity: bytes per channel in turn
  parameter int Backend     = 0,     // tpu_mem_pkg::BackendHbm2, BackendSpram or BackendSdram
  parameter int RowBits     = 14,    // HBM2: rows per bank = 2^RowBits (2^RowBits x 16 KB per channel)
  parameter int SpramBytes  = 131072,// SPRAM, SDRAM: bytes per channel, a power of two
  parameter int ClkHz       = 50000000, // SDRAM: clock frequency (refresh and timing in cycles)
  parameter int QueueDepth  = 32,    // HBM2: request queue per channel
  parameter int RobDepth    = 64,    // read beats in flight per port
  parameter int PortQueue   = 8,     // beats per port and channel waiting for the channel
  // HBM2 timing, controller cycles (tCK = 1 ns); see tpu_mem_pch_ctrl.
  parameter int CL          = 14,
  parameter int CWL         = 4,
  parameter int TBl         = 2,
  parameter int TRcd        = 14,
  parameter int TRp         = 14,
  parameter int TRas        = 34,
  parameter int TRc         = 48,
  parameter int TRrdS       = 4,
  parameter int TRrdL       = 6,
  parameter int TFaw        = 30,
  parameter int TCcdS       = 1,
  parameter int TCcdL       = 2,
  parameter int TWr         = 16,
  parameter int TRtpS       = 4,
  parameter int TRtpL       = 6,
  parameter int TWtrS       = 6,
  parameter int TWtrL       = 8,
  parameter int TRtw        = 14,
  parameter int TRfc        = 260,
  parameter int TRfcPb      = 160,
  parameter int TRrefd      = 8,
  parameter int TRefi       = 3900,
  // HBM2 policies
  parameter int RefreshMode = 0,     // 0: all-bank refresh, 1: per-bank refresh
  parameter int RefPostpone = 8,
  parameter int RefBatch    = 4,     // all-bank: REFabs per forced refresh sequence
  parameter int RowHitCap   = 16,
  parameter int CloseIdle   = 0,
  parameter int WriteHigh   = 24,
  parameter int WriteLow    = 4,
  parameter int BankHash    = 1,     // bank ^= XOR of the row's 4-bit slices
  parameter int GateIdle    = 0,     // simulation: idle ports' and controllers' clocks stop (tpu_mem_cg)
  localparam int StrbWidth = DataWidth / 8,
  localparam int NumCnt    = tpu_mem_pkg::NumCnt,
  localparam int CntWidth  = tpu_mem_pkg::CntWidth
) (
  input  wire                                clk_i,
  input  wire                                rst_ni,
  // AXI write address
  input  wire  [NumPorts-1:0]                s_axi_awvalid_i,
  output logic [NumPorts-1:0]                s_axi_awready_o,
  input  wire  [NumPorts*IdWidth-1:0]        s_axi_awid_i,
  input  wire  [NumPorts*AddrWidth-1:0]      s_axi_awaddr_i,
  input  wire  [NumPorts*8-1:0]              s_axi_awlen_i,
  // AXI write data
  input  wire  [NumPorts-1:0]                s_axi_wvalid_i,
  output logic [NumPorts-1:0]                s_axi_wready_o,
  input  wire  [NumPorts*DataWidth-1:0]      s_axi_wdata_i,
  input  wire  [NumPorts*StrbWidth-1:0]      s_axi_wstrb_i,
  input  wire  [NumPorts-1:0]                s_axi_wlast_i,
  // AXI write response
  output logic [NumPorts-1:0]                s_axi_bvalid_o,
  input  wire  [NumPorts-1:0]                s_axi_bready_i,
  output logic [NumPorts*IdWidth-1:0]        s_axi_bid_o,
  output logic [NumPorts*2-1:0]              s_axi_bresp_o,
  // AXI read address
  input  wire  [NumPorts-1:0]                s_axi_arvalid_i,
  output logic [NumPorts-1:0]                s_axi_arready_o,
  input  wire  [NumPorts*IdWidth-1:0]        s_axi_arid_i,
  input  wire  [NumPorts*AddrWidth-1:0]      s_axi_araddr_i,
  input  wire  [NumPorts*8-1:0]              s_axi_arlen_i,
  // AXI read data
  output logic [NumPorts-1:0]                s_axi_rvalid_o,
  input  wire  [NumPorts-1:0]                s_axi_rready_i,
  output logic [NumPorts*IdWidth-1:0]        s_axi_rid_o,
  output logic [NumPorts*DataWidth-1:0]      s_axi_rdata_o,
  output logic [NumPorts*2-1:0]              s_axi_rresp_o,
  output logic [NumPorts-1:0]                s_axi_rlast_o,
  // HBM2 pseudo-channels: row commands (Backend = HBM2; zero otherwise)
  output logic [NumPch*3-1:0]                m_hbm_rcmd_o,
  output logic [NumPch*4-1:0]                m_hbm_rbank_o,
  output logic [NumPch*RowBits-1:0]          m_hbm_row_o,
  // HBM2 pseudo-channels: column commands and data
  output logic [NumPch*2-1:0]                m_hbm_ccmd_o,
  output logic [NumPch*4-1:0]                m_hbm_cbank_o,
  output logic [NumPch*5-1:0]                m_hbm_col_o,
  output logic [NumPch*DataWidth-1:0]        m_hbm_wdata_o,
  output logic [NumPch*StrbWidth-1:0]        m_hbm_wstrb_o,
  input  wire  [NumPch-1:0]                  m_hbm_rvalid_i,
  input  wire  [NumPch*DataWidth-1:0]        m_hbm_rdata_i,
  // SDR SDRAM pins (Backend = SDRAM, channel 0; idle otherwise); the board top makes the
  // tristate data bus and the SDRAM clock
  output logic                               sdram_cke_o,
  output logic                               sdram_cs_no,
  output logic                               sdram_ras_no,
  output logic                               sdram_cas_no,
  output logic                               sdram_we_no,
  output logic [1:0]                         sdram_ba_o,
  output logic [12:0]                        sdram_a_o,
  output logic [1:0]                         sdram_dqm_o,
  output logic [15:0]                        sdram_dq_o,
  output logic                               sdram_dq_oe_o,
  input  wire  [15:0]                        sdram_dq_i,
  // Counters: channel c, counter k at cnt_o[(c*NumCnt+k)*CntWidth +: CntWidth]
  output logic [NumPch*NumCnt*CntWidth-1:0]  cnt_o
);
  localparam int PchBytesLog2 = (Backend != tpu_mem_pkg::BackendHbm2) ? $clog2(SpramBytes) : RowBits + 14;
  localparam bit Narrow   = DataWidth != 256;  // the board front end
  localparam int GranLog2 = $clog2(GranBytes);
  localparam int LocW     = PchBytesLog2 - $clog2(StrbWidth);  // beat address bits
  localparam int PortBits = (NumPorts > 1) ? $clog2(NumPorts) : 1;
  localparam int RobBits  = $clog2(RobDepth);
  localparam int TagW     = PortBits + RobBits;
  localparam int NumSrc   = 2 * NumPorts;  // write side of every port, then read side
  localparam int SrcW     = $clog2(NumSrc);

  // The per-channel request interface between the front end and the backends.
  logic [NumPch-1:0] ch_valid, ch_ready, ch_write;
  logic [NumPch*LocW-1:0] ch_addr;
  logic [NumPch*TagW-1:0] ch_tag;
  logic [NumPch*DataWidth-1:0] ch_wdata;
  logic [NumPch*StrbWidth-1:0] ch_wstrb;
  logic [NumPch-1:0] rsp_valid;
  logic [NumPch*TagW-1:0] rsp_tag;
  logic [NumPch*DataWidth-1:0] rsp_rdata;

  if (!Narrow) begin : g_wide
    // ---------------------------------------------------------------- ports
    // Each port side holds a request queue per channel.
    logic [NumPorts*NumPch-1:0] wr_valid, wr_gnt, rd_valid, rd_gnt;  // [p*NumPch + c]
    logic [NumPorts*NumPch*LocW-1:0] wr_addr, rd_addr;
    // Write data and strobes, one element per port and channel ([p*NumPch + c]): as one
    // packed vector the Verilated model rebuilt all 6 KB of it in every cycle through a
    // chain of wide concatenations; elements are copied one by one (docs/performance.md).
    (* mem2reg *) logic [DataWidth-1:0] wr_data [NumPorts*NumPch];
    (* mem2reg *) logic [StrbWidth-1:0] wr_strb [NumPorts*NumPch];
    logic [NumPorts*NumPch*TagW-1:0] rd_tag;


    for (genvar p = 0; p < NumPorts; p++) begin : g_port
      logic [NumPch*DataWidth-1:0] wdata;
      logic [NumPch*StrbWidth-1:0] wstrb;
      for (genvar c = 0; c < NumPch; c++) begin : g_ch
        assign wr_data[p*NumPch + c] = wdata[c*DataWidth +: DataWidth];
        assign wr_strb[p*NumPch + c] = wstrb[c*StrbWidth +: StrbWidth];
      end
      tpu_mem_axi_wr #(
        .AddrWidth(AddrWidth), .IdWidth(IdWidth), .NumPch(NumPch), .GranLog2(GranLog2),
        .PchBytesLog2(PchBytesLog2), .PortQueue(PortQueue), .GateIdle(GateIdle)
      ) u_wr (
        .clk_i, .rst_ni,
        .s_awvalid_i(s_axi_awvalid_i[p]),
        .s_awready_o(s_axi_awready_o[p]),
        .s_awid_i   (s_axi_awid_i[p*IdWidth +: IdWidth]),
        .s_awaddr_i (s_axi_awaddr_i[p*AddrWidth +: AddrWidth]),
        .s_awlen_i  (s_axi_awlen_i[p*8 +: 8]),
        .s_wvalid_i (s_axi_wvalid_i[p]),
        .s_wready_o (s_axi_wready_o[p]),
        .s_wdata_i  (s_axi_wdata_i[p*DataWidth +: DataWidth]),
        .s_wstrb_i  (s_axi_wstrb_i[p*StrbWidth +: StrbWidth]),
        .s_wlast_i  (s_axi_wlast_i[p]),
        .s_bvalid_o (s_axi_bvalid_o[p]),
        .s_bready_i (s_axi_bready_i[p]),
        .s_bid_o    (s_axi_bid_o[p*IdWidth +: IdWidth]),
        .s_bresp_o  (s_axi_bresp_o[p*2 +: 2]),
        .req_valid_o(wr_valid[p*NumPch +: NumPch]),
        .req_addr_o (wr_addr[p*NumPch*LocW +: NumPch*LocW]),
        .req_wdata_o(wdata),
        .req_wstrb_o(wstrb),
        .req_gnt_i  (wr_gnt[p*NumPch +: NumPch])
      );

      tpu_mem_axi_rd #(
        .AddrWidth(AddrWidth), .IdWidth(IdWidth), .NumPch(NumPch), .GranLog2(GranLog2),
        .PchBytesLog2(PchBytesLog2), .RobDepth(RobDepth), .PortBits(PortBits),
        .PortQueue(PortQueue), .GateIdle(GateIdle)
      ) u_rd (
        .clk_i, .rst_ni,
        .port_i     (PortBits'(p)),
        .s_arvalid_i(s_axi_arvalid_i[p]),
        .s_arready_o(s_axi_arready_o[p]),
        .s_arid_i   (s_axi_arid_i[p*IdWidth +: IdWidth]),
        .s_araddr_i (s_axi_araddr_i[p*AddrWidth +: AddrWidth]),
        .s_arlen_i  (s_axi_arlen_i[p*8 +: 8]),
        .s_rvalid_o (s_axi_rvalid_o[p]),
        .s_rready_i (s_axi_rready_i[p]),
        .s_rid_o    (s_axi_rid_o[p*IdWidth +: IdWidth]),
        .s_rdata_o  (s_axi_rdata_o[p*DataWidth +: DataWidth]),
        .s_rresp_o  (s_axi_rresp_o[p*2 +: 2]),
        .s_rlast_o  (s_axi_rlast_o[p]),
        .req_valid_o(rd_valid[p*NumPch +: NumPch]),
        .req_addr_o (rd_addr[p*NumPch*LocW +: NumPch*LocW]),
        .req_tag_o  (rd_tag[p*NumPch*TagW +: NumPch*TagW]),
        .req_gnt_i  (rd_gnt[p*NumPch +: NumPch]),
        .rsp_valid_i(rsp_valid),
        .rsp_tag_i  (rsp_tag),
        .rsp_rdata_i(rsp_rdata)
      );
    end

    // ---------------------------------------------------------------- arbiters
    // Channel c arbitrates between the write queue (sources 0..NumPorts-1) and the read
    // queue (sources NumPorts..2*NumPorts-1) that every port holds for it.

    // An arbiter's pointer moves only on a grant, so the arbiters' clock may stop while no
    // queue requests any channel (GateIdle, simulation; one gate for all of them, since
    // every gated clock costs the Verilated model's scheduler a little in every cycle).
    logic clk_arb, unused_arb_on;
    tpu_mem_cg #(.Enable(GateIdle)) u_arb_cg (
      .clk_i, .en_i(|{wr_valid, rd_valid}), .clk_o(clk_arb), .en_o(unused_arb_on)
    );

    for (genvar c = 0; c < NumPch; c++) begin : g_arb
      logic [NumSrc-1:0] req, gnt;
      logic [SrcW-1:0] idx;
      logic [PortBits-1:0] port;
      for (genvar p = 0; p < NumPorts; p++) begin : g_req
        assign req[p] = wr_valid[p*NumPch + c];
        assign req[NumPorts+p] = rd_valid[p*NumPch + c];
        assign wr_gnt[p*NumPch + c] = gnt[p] && ch_ready[c];
        assign rd_gnt[p*NumPch + c] = gnt[NumPorts+p] && ch_ready[c];
      end
      tpu_mem_rr_arb #(.N(NumSrc)) u_arb (
        .clk_i(clk_arb), .rst_ni,
        .req_i(req), .take_i(ch_ready[c]), .valid_o(ch_valid[c]), .idx_o(idx), .gnt_o(gnt)
      );
      assign port = (idx >= SrcW'(NumPorts)) ? PortBits'(idx - SrcW'(NumPorts)) : PortBits'(idx);
      assign ch_write[c] = idx < SrcW'(NumPorts);
      assign ch_addr[c*LocW +: LocW] = ch_write[c] ? wr_addr[(port*NumPch + c)*LocW +: LocW]
                                                   : rd_addr[(port*NumPch + c)*LocW +: LocW];
      assign ch_tag[c*TagW +: TagW] = ch_write[c] ? {port, RobBits'(0)} : rd_tag[(port*NumPch + c)*TagW +: TagW];
      assign ch_wdata[c*DataWidth +: DataWidth] = wr_data[port*NumPch + c];
      assign ch_wstrb[c*StrbWidth +: StrbWidth] = wr_strb[port*NumPch + c];
    end
  end else begin : g_narrow
    // ---------------------------------------------------------------- board front end
    tpu_mem_board #(
      .NumPorts(NumPorts), .AddrWidth(AddrWidth), .DataWidth(DataWidth), .IdWidth(IdWidth),
      .MemLog2(PchBytesLog2)
    ) u_board (
      .clk_i, .rst_ni,
      .s_axi_awvalid_i, .s_axi_awready_o, .s_axi_awid_i, .s_axi_awaddr_i, .s_axi_awlen_i,
      .s_axi_wvalid_i, .s_axi_wready_o, .s_axi_wdata_i, .s_axi_wstrb_i, .s_axi_wlast_i,
      .s_axi_bvalid_o, .s_axi_bready_i, .s_axi_bid_o, .s_axi_bresp_o,
      .s_axi_arvalid_i, .s_axi_arready_o, .s_axi_arid_i, .s_axi_araddr_i, .s_axi_arlen_i,
      .s_axi_rvalid_o, .s_axi_rready_i, .s_axi_rid_o, .s_axi_rdata_o, .s_axi_rresp_o, .s_axi_rlast_o,
      .m_req_valid_o(ch_valid[0]),
      .m_req_ready_i(ch_ready[0]),
      .m_req_write_o(ch_write[0]),
      .m_req_addr_o (ch_addr[0 +: LocW]),
      .m_req_wdata_o(ch_wdata[0 +: DataWidth]),
      .m_req_wstrb_o(ch_wstrb[0 +: StrbWidth]),
      .m_rsp_valid_i(rsp_valid[0]),
      .m_rsp_rdata_i(rsp_rdata[0 +: DataWidth])
    );
    assign ch_tag[0 +: TagW] = '0;
    logic unused_tag;
    assign unused_tag = ^rsp_tag;
  end

  // ---------------------------------------------------------------- backends
  for (genvar c = 0; c < NumPch; c++) begin : g_pch
    if (Backend == tpu_mem_pkg::BackendSpram) begin : g_spram
      tpu_mem_spram #(.TagWidth(TagW), .AddrW(LocW), .DataWidth(DataWidth)) u_spram (
        .clk_i, .rst_ni,
        .s_req_valid_i(ch_valid[c]),
        .s_req_ready_o(ch_ready[c]),
        .s_req_write_i(ch_write[c]),
        .s_req_addr_i (ch_addr[c*LocW +: LocW]),
        .s_req_wdata_i(ch_wdata[c*DataWidth +: DataWidth]),
        .s_req_wstrb_i(ch_wstrb[c*StrbWidth +: StrbWidth]),
        .s_req_tag_i  (ch_tag[c*TagW +: TagW]),
        .s_rsp_valid_o(rsp_valid[c]),
        .s_rsp_tag_o  (rsp_tag[c*TagW +: TagW]),
        .s_rsp_rdata_o(rsp_rdata[c*DataWidth +: DataWidth]),
        .cnt_o        (cnt_o[c*NumCnt*CntWidth +: NumCnt*CntWidth])
      );
      assign m_hbm_rcmd_o[c*3 +: 3] = tpu_mem_pkg::RcmdNop;
      assign m_hbm_rbank_o[c*4 +: 4] = '0;
      assign m_hbm_row_o[c*RowBits +: RowBits] = '0;
      assign m_hbm_ccmd_o[c*2 +: 2] = tpu_mem_pkg::CcmdNop;
      assign m_hbm_cbank_o[c*4 +: 4] = '0;
      assign m_hbm_col_o[c*5 +: 5] = '0;
      assign m_hbm_wdata_o[c*DataWidth +: DataWidth] = '0;
      assign m_hbm_wstrb_o[c*StrbWidth +: StrbWidth] = '0;
    end else if (Backend == tpu_mem_pkg::BackendSdram) begin : g_sdram
      tpu_mem_sdram #(
        .TagWidth(TagW), .AddrW(LocW), .DataWidth(DataWidth), .ClkHz(ClkHz)
      ) u_sdram (
        .clk_i, .rst_ni,
        .s_req_valid_i(ch_valid[c]),
        .s_req_ready_o(ch_ready[c]),
        .s_req_write_i(ch_write[c]),
        .s_req_addr_i (ch_addr[c*LocW +: LocW]),
        .s_req_wdata_i(ch_wdata[c*DataWidth +: DataWidth]),
        .s_req_wstrb_i(ch_wstrb[c*StrbWidth +: StrbWidth]),
        .s_req_tag_i  (ch_tag[c*TagW +: TagW]),
        .s_rsp_valid_o(rsp_valid[c]),
        .s_rsp_tag_o  (rsp_tag[c*TagW +: TagW]),
        .s_rsp_rdata_o(rsp_rdata[c*DataWidth +: DataWidth]),
        .cnt_o        (cnt_o[c*NumCnt*CntWidth +: NumCnt*CntWidth]),
        .sdram_cke_o, .sdram_cs_no, .sdram_ras_no, .sdram_cas_no, .sdram_we_no,
        .sdram_ba_o, .sdram_a_o, .sdram_dqm_o, .sdram_dq_o, .sdram_dq_oe_o, .sdram_dq_i
      );
      assign m_hbm_rcmd_o[c*3 +: 3] = tpu_mem_pkg::RcmdNop;
      assign m_hbm_rbank_o[c*4 +: 4] = '0;
      assign m_hbm_row_o[c*RowBits +: RowBits] = '0;
      assign m_hbm_ccmd_o[c*2 +: 2] = tpu_mem_pkg::CcmdNop;
      assign m_hbm_cbank_o[c*4 +: 4] = '0;
      assign m_hbm_col_o[c*5 +: 5] = '0;
      assign m_hbm_wdata_o[c*DataWidth +: DataWidth] = '0;
      assign m_hbm_wstrb_o[c*StrbWidth +: StrbWidth] = '0;
    end else begin : g_hbm2
      tpu_mem_pch_ctrl #(
        .TagWidth(TagW), .RowBits(RowBits), .QueueDepth(QueueDepth),
        .CL(CL), .CWL(CWL), .TBl(TBl), .TRcd(TRcd), .TRp(TRp), .TRas(TRas), .TRc(TRc),
        .TRrdS(TRrdS), .TRrdL(TRrdL), .TFaw(TFaw), .TCcdS(TCcdS), .TCcdL(TCcdL), .TWr(TWr),
        .TRtpS(TRtpS), .TRtpL(TRtpL), .TWtrS(TWtrS), .TWtrL(TWtrL), .TRtw(TRtw),
        .TRfc(TRfc), .TRfcPb(TRfcPb), .TRrefd(TRrefd), .TRefi(TRefi),
        .RefreshMode(RefreshMode), .RefPostpone(RefPostpone), .RefBatch(RefBatch),
        .RowHitCap(RowHitCap),
        .CloseIdle(CloseIdle), .WriteHigh(WriteHigh), .WriteLow(WriteLow), .BankHash(BankHash),
        .GateIdle(GateIdle)
      ) u_ctrl (
        .clk_i, .rst_ni,
        .s_req_valid_i(ch_valid[c]),
        .s_req_ready_o(ch_ready[c]),
        .s_req_write_i(ch_write[c]),
        .s_req_addr_i (ch_addr[c*LocW +: LocW]),
        .s_req_wdata_i(ch_wdata[c*DataWidth +: DataWidth]),
        .s_req_wstrb_i(ch_wstrb[c*StrbWidth +: StrbWidth]),
        .s_req_tag_i  (ch_tag[c*TagW +: TagW]),
        .s_rsp_valid_o(rsp_valid[c]),
        .s_rsp_tag_o  (rsp_tag[c*TagW +: TagW]),
        .s_rsp_rdata_o(rsp_rdata[c*DataWidth +: DataWidth]),
        .m_hbm_rcmd_o (m_hbm_rcmd_o[c*3 +: 3]),
        .m_hbm_rbank_o(m_hbm_rbank_o[c*4 +: 4]),
        .m_hbm_row_o  (m_hbm_row_o[c*RowBits +: RowBits]),
        .m_hbm_ccmd_o (m_hbm_ccmd_o[c*2 +: 2]),
        .m_hbm_cbank_o(m_hbm_cbank_o[c*4 +: 4]),
        .m_hbm_col_o  (m_hbm_col_o[c*5 +: 5]),
        .m_hbm_wdata_o(m_hbm_wdata_o[c*DataWidth +: DataWidth]),
        .m_hbm_wstrb_o(m_hbm_wstrb_o[c*StrbWidth +: StrbWidth]),
        .m_hbm_rvalid_i(m_hbm_rvalid_i[c]),
        .m_hbm_rdata_i(m_hbm_rdata_i[c*DataWidth +: DataWidth]),
        .cnt_o        (cnt_o[c*NumCnt*CntWidth +: NumCnt*CntWidth])
      );
    end
  end

  // The device inputs are unused with the SPRAM backend.
  logic unused_hbm;
  assign unused_hbm = ^{m_hbm_rvalid_i, m_hbm_rdata_i};

  // SDRAM pins: idle (deselected, CKE low) without the SDRAM backend.
  if (Backend != tpu_mem_pkg::BackendSdram) begin : g_no_sdram
    assign sdram_cke_o   = 1'b0;
    assign sdram_cs_no   = 1'b1;
    assign sdram_ras_no  = 1'b1;
    assign sdram_cas_no  = 1'b1;
    assign sdram_we_no   = 1'b1;
    assign sdram_ba_o    = '0;
    assign sdram_a_o     = '0;
    assign sdram_dqm_o   = '1;
    assign sdram_dq_o    = '0;
    assign sdram_dq_oe_o = 1'b0;
    logic unused_sdram;
    assign unused_sdram = ^{sdram_dq_i, ClkHz > 0};
  end

  // Assertions
`ifndef SYNTHESIS
  initial begin
    if (DataWidth != 256 && (Backend == tpu_mem_pkg::BackendHbm2 || NumPch != 1))
      $fatal(1, "tpu_mem_sys: DataWidth %0d needs one channel of a board backend (else 256)", DataWidth);
    if (Backend == tpu_mem_pkg::BackendSdram && NumPch != 1)
      $fatal(1, "tpu_mem_sys: the SDRAM backend has one channel");
    if (NumPorts < 1 || NumPorts > 16) $fatal(1, "tpu_mem_sys: NumPorts %0d outside 1..16", NumPorts);
    if ((1 << GranLog2) != GranBytes || GranBytes < 32)
      $fatal(1, "tpu_mem_sys: GranBytes %0d must be a power of two >= 32", GranBytes);
    if (Backend != tpu_mem_pkg::BackendHbm2 && Backend != tpu_mem_pkg::BackendSpram &&
        Backend != tpu_mem_pkg::BackendSdram)
      $fatal(1, "tpu_mem_sys: unknown Backend %0d", Backend);
    if (Backend != tpu_mem_pkg::BackendHbm2 && (1 << PchBytesLog2) != SpramBytes)
      $fatal(1, "tpu_mem_sys: SpramBytes %0d is not a power of two", SpramBytes);
    if (PchBytesLog2 + $clog2(NumPch) > AddrWidth)
      $fatal(1, "tpu_mem_sys: the memory does not fit AddrWidth");
  end
`endif
endmodule
