// SPDX-License-Identifier: Apache-2.0
// tpu_uart_tx: UART transmitter, 8 data bits, no parity, 1 stop bit (8N1), LSB first.
`default_nettype none

module tpu_uart_tx #(
  // ClkHz and Baud only feed the default of Div (unused when Div is given)
  /* verilator lint_off UNUSEDPARAM */
  parameter int unsigned ClkHz = 12_000_000,  // clock frequency
  parameter int unsigned Baud  = 3_000_000,   // line rate; ClkHz/Baud >= 4
  // bit time in clock cycles (rounded); override to set a divisor directly
  /* verilator lint_on UNUSEDPARAM */
  parameter int unsigned Div   = (ClkHz + Baud / 2) / Baud
) (
  input  logic       clk_i,
  input  logic       rst_ni,
  // bytes to send (taken when the transmitter is idle or sends its stop bit's last cycle)
  input  logic       s_valid_i,
  output logic       s_ready_o,
  input  logic [7:0] s_data_i,
  // serial line (idle high)
  output logic       tx_o
);

  localparam int unsigned CntW = $clog2(Div + 1);

  logic [CntW-1:0] cnt_q, cnt_d;     // cycles left in the current bit
  logic [3:0]      bit_q, bit_d;     // bits left in the frame: 10 start .. 1 stop, 0 idle
  logic [8:0]      shift_q, shift_d; // {data, start} shifted out LSB first
  logic            tx_q, tx_d;

  wire last_cycle = bit_q == 4'd1 && cnt_q == CntW'(1);
  assign s_ready_o = bit_q == 4'd0 || last_cycle;
  assign tx_o = tx_q;

  always_comb begin
    cnt_d = cnt_q;
    bit_d = bit_q;
    shift_d = shift_q;
    tx_d = tx_q;
    if (bit_q != 4'd0) begin
      if (cnt_q == CntW'(1)) begin
        cnt_d = CntW'(Div);
        bit_d = bit_q - 4'd1;
        tx_d = shift_q[0];
        shift_d = {1'b1, shift_q[8:1]};   // ones shift in: the stop bit and then idle
        if (bit_q == 4'd1) tx_d = 1'b1;
      end else begin
        cnt_d = cnt_q - CntW'(1);
      end
    end
    if (s_valid_i && s_ready_o) begin
      cnt_d = CntW'(Div);
      bit_d = 4'd10;
      tx_d = 1'b0;                          // start bit
      shift_d = {1'b1, s_data_i};
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cnt_q <= '0;
      bit_q <= '0;
      shift_q <= '1;
      tx_q <= 1'b1;
    end else begin
      cnt_q <= cnt_d;
      bit_q <= bit_d;
      shift_q <= shift_d;
      tx_q <= tx_d;
    end
  end

  // Assertions
`ifndef SYNTHESIS
  initial assert (Div >= 4) else $error("tpu_uart_tx: Div %0d must be >= 4", Div);
`endif

endmodule

`default_nettype wire
