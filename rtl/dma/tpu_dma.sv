// SPDX-License-Identifier: Apache-2.0
// tpu_dma: DMA read and write engines behind one AXI master, sharing the protection windows.
`default_nettype none

// The read engine owns AR/R, the write engine AW/W/B; they run independently
// (a read and a write descriptor can be in progress at the same time).
// Descriptor fields and status codes: docs/dma.md.
module tpu_dma #(
  parameter int unsigned AddrWidth      = 32,   // byte address bits
  parameter int unsigned DataWidth      = 256,  // AXI data bits (32..4096, power of two)
  parameter int unsigned IdWidth        = 4,    // AXI ID bits
  parameter int unsigned AxiId          = 0,    // ID on every AR and AW
  parameter int unsigned RowBytes       = 64,   // bytes per stream row
  parameter int unsigned NumWindows     = 4,    // protection windows
  parameter int unsigned MaxBurst       = 16,   // beats per burst, 1..256
  parameter int unsigned ReadBufBeats   = 128,  // read buffer, beats
  parameter int unsigned RowQueueDepth  = 128,  // read rows in flight
  parameter int unsigned WriteBufBeats  = 32,   // write buffer, beats
  parameter int unsigned MaxOutstanding = 32,   // write bursts in flight
  localparam int unsigned StsWidth = tpu_dma_pkg::StsWidth
) (
  input  logic                            clk_i,
  input  logic                            rst_ni,
  // Protection windows: [base, limit), read/write enables
  input  logic [NumWindows*AddrWidth-1:0] win_base_i,
  input  logic [NumWindows*AddrWidth-1:0] win_limit_i,
  input  logic [NumWindows-1:0]           win_rd_i,
  input  logic [NumWindows-1:0]           win_wr_i,
  // Read descriptor
  input  logic                            rd_desc_valid_i,
  output logic                            rd_desc_ready_o,
  input  logic [AddrWidth-1:0]            rd_desc_addr_i,
  input  logic [15:0]                     rd_desc_len0_i,
  input  logic [15:0]                     rd_desc_out0_i,
  input  logic [7:0]                      rd_desc_pad_i,
  input  logic [15:0]                     rd_desc_count1_i,
  input  logic [15:0]                     rd_desc_start1_i,
  input  logic [15:0]                     rd_desc_step1_i,
  input  logic [15:0]                     rd_desc_bound1_i,
  input  logic [AddrWidth-1:0]            rd_desc_stride1_i,
  input  logic [15:0]                     rd_desc_count2_i,
  input  logic [15:0]                     rd_desc_start2_i,
  input  logic [15:0]                     rd_desc_step2_i,
  input  logic [15:0]                     rd_desc_bound2_i,
  input  logic [AddrWidth-1:0]            rd_desc_stride2_i,
  // Read status
  output logic                            rd_sts_valid_o,
  input  logic                            rd_sts_ready_i,
  output logic [StsWidth-1:0]             rd_sts_code_o,
  output logic [AddrWidth-1:0]            rd_sts_addr_o,
  // Read rows out
  output logic                            m_row_valid_o,
  input  logic                            m_row_ready_i,
  output logic [RowBytes*8-1:0]           m_row_data_o,
  output logic                            m_row_last_o,
  output logic                            m_row_err_o,
  // Write descriptor
  input  logic                            wr_desc_valid_i,
  output logic                            wr_desc_ready_o,
  input  logic [AddrWidth-1:0]            wr_desc_addr_i,
  input  logic [15:0]                     wr_desc_len0_i,
  input  logic [15:0]                     wr_desc_out0_i,
  input  logic [7:0]                      wr_desc_pad_i,
  input  logic [15:0]                     wr_desc_count1_i,
  input  logic [15:0]                     wr_desc_start1_i,
  input  logic [15:0]                     wr_desc_step1_i,
  input  logic [15:0]                     wr_desc_bound1_i,
  input  logic [AddrWidth-1:0]            wr_desc_stride1_i,
  input  logic [15:0]                     wr_desc_count2_i,
  input  logic [15:0]                     wr_desc_start2_i,
  input  logic [15:0]                     wr_desc_step2_i,
  input  logic [15:0]                     wr_desc_bound2_i,
  input  logic [AddrWidth-1:0]            wr_desc_stride2_i,
  // Write status
  output logic                            wr_sts_valid_o,
  input  logic                            wr_sts_ready_i,
  output logic [StsWidth-1:0]             wr_sts_code_o,
  output logic [AddrWidth-1:0]            wr_sts_addr_o,
  // Write rows in
  input  logic                            s_row_valid_i,
  output logic                            s_row_ready_o,
  input  logic [RowBytes*8-1:0]           s_row_data_i,
  input  logic                            s_row_last_i,
  // AXI master: read address
  output logic                            m_axi_arvalid_o,
  input  logic                            m_axi_arready_i,
  output logic [IdWidth-1:0]              m_axi_arid_o,
  output logic [AddrWidth-1:0]            m_axi_araddr_o,
  output logic [7:0]                      m_axi_arlen_o,
  // AXI master: read data
  input  logic                            m_axi_rvalid_i,
  output logic                            m_axi_rready_o,
  input  logic [IdWidth-1:0]              m_axi_rid_i,
  input  logic [DataWidth-1:0]            m_axi_rdata_i,
  input  logic [1:0]                      m_axi_rresp_i,
  input  logic                            m_axi_rlast_i,
  // AXI master: write address
  output logic                            m_axi_awvalid_o,
  input  logic                            m_axi_awready_i,
  output logic [IdWidth-1:0]              m_axi_awid_o,
  output logic [AddrWidth-1:0]            m_axi_awaddr_o,
  output logic [7:0]                      m_axi_awlen_o,
  // AXI master: write data
  output logic                            m_axi_wvalid_o,
  input  logic                            m_axi_wready_i,
  output logic [DataWidth-1:0]            m_axi_wdata_o,
  output logic [DataWidth/8-1:0]          m_axi_wstrb_o,
  output logic                            m_axi_wlast_o,
  // AXI master: write response
  input  logic                            m_axi_bvalid_i,
  output logic                            m_axi_bready_o,
  input  logic [IdWidth-1:0]              m_axi_bid_i,
  input  logic [1:0]                      m_axi_bresp_i
);

  tpu_dma_rd #(
    .AddrWidth    (AddrWidth),
    .DataWidth    (DataWidth),
    .IdWidth      (IdWidth),
    .AxiId        (AxiId),
    .RowBytes     (RowBytes),
    .NumWindows   (NumWindows),
    .MaxBurst     (MaxBurst),
    .ReadBufBeats (ReadBufBeats),
    .RowQueueDepth(RowQueueDepth)
  ) u_rd (
    .clk_i,
    .rst_ni,
    .desc_valid_i  (rd_desc_valid_i),
    .desc_ready_o  (rd_desc_ready_o),
    .desc_addr_i   (rd_desc_addr_i),
    .desc_len0_i   (rd_desc_len0_i),
    .desc_out0_i   (rd_desc_out0_i),
    .desc_pad_i    (rd_desc_pad_i),
    .desc_count1_i (rd_desc_count1_i),
    .desc_start1_i (rd_desc_start1_i),
    .desc_step1_i  (rd_desc_step1_i),
    .desc_bound1_i (rd_desc_bound1_i),
    .desc_stride1_i(rd_desc_stride1_i),
    .desc_count2_i (rd_desc_count2_i),
    .desc_start2_i (rd_desc_start2_i),
    .desc_step2_i  (rd_desc_step2_i),
    .desc_bound2_i (rd_desc_bound2_i),
    .desc_stride2_i(rd_desc_stride2_i),
    .sts_valid_o   (rd_sts_valid_o),
    .sts_ready_i   (rd_sts_ready_i),
    .sts_code_o    (rd_sts_code_o),
    .sts_addr_o    (rd_sts_addr_o),
    .win_base_i,
    .win_limit_i,
    .win_rd_i,
    .m_row_valid_o,
    .m_row_ready_i,
    .m_row_data_o,
    .m_row_last_o,
    .m_row_err_o,
    .m_axi_arvalid_o,
    .m_axi_arready_i,
    .m_axi_arid_o,
    .m_axi_araddr_o,
    .m_axi_arlen_o,
    .m_axi_rvalid_i,
    .m_axi_rready_o,
    .m_axi_rid_i,
    .m_axi_rdata_i,
    .m_axi_rresp_i,
    .m_axi_rlast_i
  );

  tpu_dma_wr #(
    .AddrWidth     (AddrWidth),
    .DataWidth     (DataWidth),
    .IdWidth       (IdWidth),
    .AxiId         (AxiId),
    .RowBytes      (RowBytes),
    .NumWindows    (NumWindows),
    .MaxBurst      (MaxBurst),
    .WriteBufBeats (WriteBufBeats),
    .MaxOutstanding(MaxOutstanding)
  ) u_wr (
    .clk_i,
    .rst_ni,
    .desc_valid_i  (wr_desc_valid_i),
    .desc_ready_o  (wr_desc_ready_o),
    .desc_addr_i   (wr_desc_addr_i),
    .desc_len0_i   (wr_desc_len0_i),
    .desc_out0_i   (wr_desc_out0_i),
    .desc_pad_i    (wr_desc_pad_i),
    .desc_count1_i (wr_desc_count1_i),
    .desc_start1_i (wr_desc_start1_i),
    .desc_step1_i  (wr_desc_step1_i),
    .desc_bound1_i (wr_desc_bound1_i),
    .desc_stride1_i(wr_desc_stride1_i),
    .desc_count2_i (wr_desc_count2_i),
    .desc_start2_i (wr_desc_start2_i),
    .desc_step2_i  (wr_desc_step2_i),
    .desc_bound2_i (wr_desc_bound2_i),
    .desc_stride2_i(wr_desc_stride2_i),
    .sts_valid_o   (wr_sts_valid_o),
    .sts_ready_i   (wr_sts_ready_i),
    .sts_code_o    (wr_sts_code_o),
    .sts_addr_o    (wr_sts_addr_o),
    .win_base_i,
    .win_limit_i,
    .win_wr_i,
    .s_row_valid_i,
    .s_row_ready_o,
    .s_row_data_i,
    .s_row_last_i,
    .m_axi_awvalid_o,
    .m_axi_awready_i,
    .m_axi_awid_o,
    .m_axi_awaddr_o,
    .m_axi_awlen_o,
    .m_axi_wvalid_o,
    .m_axi_wready_i,
    .m_axi_wdata_o,
    .m_axi_wstrb_o,
    .m_axi_wlast_o,
    .m_axi_bvalid_i,
    .m_axi_bready_o,
    .m_axi_bid_i,
    .m_axi_bresp_i
  );

endmodule
