// SPDX-License-Identifier: Apache-2.0
// tpu_lite_uart: the lite SoC's UART peripheral: tpu_uart_rx/tx (8N1) with an RX and a TX
// FIFO and three registers on the CPU's register bus (docs/lite.md).
`default_nettype none

//   +0x0 RXDATA  read: bit 8 the byte is valid, bits 7:0 the byte; a valid read pops it
//   +0x4 TXDATA  write: bits 7:0 pushed; the write waits (s_ready_o low) while the FIFO is full
//   +0x8 STATUS  bit 0 RX not empty (a byte waits in RXDATA), 1 TX FIFO full, 2 TX idle (FIFO empty, line idle),
//                3 RX overrun (sticky), 4 framing error (sticky); writing 1s clears 3/4
module tpu_lite_uart #(
  parameter int unsigned ClkHz = 24_000_000,  // clock frequency
  parameter int unsigned Baud  = 3_000_000,   // line rate; ClkHz/Baud >= 4
  parameter int RxDepth = 512,                // RX FIFO entries (power of two; 512 = one EBR)
  parameter int TxDepth = 512                 // TX FIFO entries (power of two)
) (
  input  wire         clk_i,
  input  wire         rst_ni,
  // Register bus: request (held while s_ready_o is low), read data in the cycle after
  input  wire         req_i,
  input  wire         we_i,
  input  wire  [3:0]  addr_i,     // byte offset in the page
  input  wire  [31:0] wdata_i,
  output logic        ready_o,
  output logic [31:0] rdata_o,
  // Serial line
  input  wire         rx_i,
  output logic        tx_o
);
  localparam logic [1:0] RegRx = 2'd0, RegTx = 2'd1, RegStatus = 2'd2;

  // ------------------------------------------------------------ receive
  logic rx_valid, rx_ferr;
  logic [7:0] rx_byte;
  tpu_uart_rx #(.ClkHz(ClkHz), .Baud(Baud)) u_rx (
    .clk_i,
    .rst_ni,
    .rx_i,
    .m_valid_o  (rx_valid),
    .m_data_o   (rx_byte),
    .frame_err_o(rx_ferr)
  );

  logic rxf_full, rxf_valid, rxf_empty, rxf_pop;
  logic unused_rxf_empty;
  assign unused_rxf_empty = rxf_empty;
  logic [7:0] rxf_data;
  tpu_lite_fifo #(.Width(8), .Depth(RxDepth)) u_rxf (
    .clk_i,
    .rst_ni,
    .push_i   (rx_valid),
    .data_i   (rx_byte),
    .full_o   (rxf_full),
    .m_valid_o(rxf_valid),
    .m_data_o (rxf_data),
    .pop_i    (rxf_pop),
    .empty_o  (rxf_empty)
  );

  // ------------------------------------------------------------ transmit
  logic txf_full, txf_valid, txf_empty, tx_ready;
  logic [7:0] txf_data;
  wire reg_rd = req_i && !we_i;
  wire tx_push = req_i && we_i && addr_i[3:2] == RegTx && !txf_full;
  tpu_lite_fifo #(.Width(8), .Depth(TxDepth)) u_txf (
    .clk_i,
    .rst_ni,
    .push_i   (tx_push),
    .data_i   (wdata_i[7:0]),
    .full_o   (txf_full),
    .m_valid_o(txf_valid),
    .m_data_o (txf_data),
    .pop_i    (tx_ready),
    .empty_o  (txf_empty)
  );

  tpu_uart_tx #(.ClkHz(ClkHz), .Baud(Baud)) u_tx (
    .clk_i,
    .rst_ni,
    .s_valid_i(txf_valid),
    .s_ready_o(tx_ready),
    .s_data_i (txf_data),
    .tx_o
  );

  // ------------------------------------------------------------ registers
  // tx_line_idle_q: the shifter has no byte (it could take one last cycle and none came;
  // tpu_uart_tx is ready in the last cycle of a stop bit too).
  logic tx_line_idle_q, overrun_q, overrun_d, ferr_q, ferr_d;
  logic [31:0] rdata_q, rdata_d;
  assign rxf_pop = reg_rd && addr_i[3:2] == RegRx;

  always_comb begin
    overrun_d = overrun_q || (rx_valid && rxf_full);
    ferr_d = ferr_q || rx_ferr;
    if (req_i && we_i && addr_i[3:2] == RegStatus) begin
      if (wdata_i[3]) overrun_d = rx_valid && rxf_full;
      if (wdata_i[4]) ferr_d = rx_ferr;
    end
    rdata_d = rdata_q;
    if (reg_rd) begin
      unique case (addr_i[3:2])
        RegRx:     rdata_d = {23'd0, rxf_valid, rxf_data};
        RegStatus: rdata_d = {27'd0, ferr_q, overrun_q, txf_empty && tx_line_idle_q, txf_full, rxf_valid};
        default:   rdata_d = 32'd0;
      endcase
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      tx_line_idle_q <= 1'b1;
      overrun_q <= 1'b0;
      ferr_q <= 1'b0;
      rdata_q <= 32'd0;
    end else begin
      tx_line_idle_q <= tx_ready && !txf_valid;
      overrun_q <= overrun_d;
      ferr_q <= ferr_d;
      rdata_q <= rdata_d;
    end
  end

  assign ready_o = !(req_i && we_i && addr_i[3:2] == RegTx && txf_full);
  assign rdata_o = rdata_q;

  logic unused;
  assign unused = ^{wdata_i[31:8], addr_i[1:0]};
endmodule
