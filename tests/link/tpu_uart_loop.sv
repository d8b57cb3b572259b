// SPDX-License-Identifier: Apache-2.0
// tpu_uart_loop: test top of the UART: NumPairs transmitter/receiver pairs at several clock/baud ratios.
`default_nettype none

// Pair k: tpu_uart_tx with TxDiv, its line out on tx_o[k]; tpu_uart_rx with RxDiv on rx_i[k].
// The testbench connects tx_o to rx_i each cycle (and corrupts the line on purpose).
//   pair 0: 12 MHz, 3 Mbaud (Div 4, the iCEBreaker FT2232H at full rate)
//   pair 1: Div 16 on both sides
//   pair 2: 25 MHz, 115200 baud (Div 217)
//   pair 3: transmitter 2 % faster than the receiver (Div 49 vs 50)
//   pair 4: 25 MHz, 3 Mbaud from ClkHz/Baud (Div 8, 4 % above the exact 8.33)
//   pair 5: 33.33 MHz, 3 Mbaud from ClkHz/Baud (Div 11, 1 % above the exact 11.11)
module tpu_uart_loop (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic [5:0]  s_valid_i,
  output logic [5:0]  s_ready_o,
  input  logic [47:0] s_data_i,
  output logic [5:0]  tx_o,
  input  logic [5:0]  rx_i,
  output logic [5:0]  m_valid_o,
  output logic [47:0] m_data_o,
  output logic [5:0]  frame_err_o
);

  tpu_uart_tx #(.ClkHz(12_000_000), .Baud(3_000_000)) u_tx0 (.clk_i, .rst_ni,
    .s_valid_i(s_valid_i[0]), .s_ready_o(s_ready_o[0]), .s_data_i(s_data_i[7:0]), .tx_o(tx_o[0]));
  tpu_uart_rx #(.ClkHz(12_000_000), .Baud(3_000_000)) u_rx0 (.clk_i, .rst_ni, .rx_i(rx_i[0]),
    .m_valid_o(m_valid_o[0]), .m_data_o(m_data_o[7:0]), .frame_err_o(frame_err_o[0]));

  tpu_uart_tx #(.Div(16)) u_tx1 (.clk_i, .rst_ni,
    .s_valid_i(s_valid_i[1]), .s_ready_o(s_ready_o[1]), .s_data_i(s_data_i[15:8]), .tx_o(tx_o[1]));
  tpu_uart_rx #(.Div(16)) u_rx1 (.clk_i, .rst_ni, .rx_i(rx_i[1]),
    .m_valid_o(m_valid_o[1]), .m_data_o(m_data_o[15:8]), .frame_err_o(frame_err_o[1]));

  tpu_uart_tx #(.ClkHz(25_000_000), .Baud(115_200)) u_tx2 (.clk_i, .rst_ni,
    .s_valid_i(s_valid_i[2]), .s_ready_o(s_ready_o[2]), .s_data_i(s_data_i[23:16]), .tx_o(tx_o[2]));
  tpu_uart_rx #(.ClkHz(25_000_000), .Baud(115_200)) u_rx2 (.clk_i, .rst_ni, .rx_i(rx_i[2]),
    .m_valid_o(m_valid_o[2]), .m_data_o(m_data_o[23:16]), .frame_err_o(frame_err_o[2]));

  tpu_uart_tx #(.Div(49)) u_tx3 (.clk_i, .rst_ni,
    .s_valid_i(s_valid_i[3]), .s_ready_o(s_ready_o[3]), .s_data_i(s_data_i[31:24]), .tx_o(tx_o[3]));
  tpu_uart_rx #(.Div(50)) u_rx3 (.clk_i, .rst_ni, .rx_i(rx_i[3]),
    .m_valid_o(m_valid_o[3]), .m_data_o(m_data_o[31:24]), .frame_err_o(frame_err_o[3]));

  tpu_uart_tx #(.ClkHz(25_000_000), .Baud(3_000_000)) u_tx4 (.clk_i, .rst_ni,
    .s_valid_i(s_valid_i[4]), .s_ready_o(s_ready_o[4]), .s_data_i(s_data_i[39:32]), .tx_o(tx_o[4]));
  tpu_uart_rx #(.ClkHz(25_000_000), .Baud(3_000_000)) u_rx4 (.clk_i, .rst_ni, .rx_i(rx_i[4]),
    .m_valid_o(m_valid_o[4]), .m_data_o(m_data_o[39:32]), .frame_err_o(frame_err_o[4]));

  tpu_uart_tx #(.ClkHz(33_333_333), .Baud(3_000_000)) u_tx5 (.clk_i, .rst_ni,
    .s_valid_i(s_valid_i[5]), .s_ready_o(s_ready_o[5]), .s_data_i(s_data_i[47:40]), .tx_o(tx_o[5]));
  tpu_uart_rx #(.ClkHz(33_333_333), .Baud(3_000_000)) u_rx5 (.clk_i, .rst_ni, .rx_i(rx_i[5]),
    .m_valid_o(m_valid_o[5]), .m_data_o(m_data_o[47:40]), .frame_err_o(frame_err_o[5]));

endmodule

`default_nettype wire
