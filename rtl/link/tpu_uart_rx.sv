// SPDX-License-Identifier: Apache-2.0
// tpu_uart_rx: UART receiver (8N1): synchronizer, start-bit validation, majority-of-3 sampling
// at the bit centres, framing-error flag.
`default_nettype none

// The line is sampled every clock (clock-rate oversampling).  A falling edge starts a frame;
// the start bit must still be low at its centre (else the edge was a glitch and the receiver
// hunts again).  Each bit is the majority of the last three samples at its centre.  A low
// stop bit is a framing error: the byte is not delivered, frame_err_o pulses, and the
// receiver waits for the line to be high (idle) before it hunts for the next start bit, so
// a break (line held low) gives one error, not a stream of zero bytes.
module tpu_uart_rx #(
  // ClkHz and Baud only feed the default of Div (unused when Div is given)
  /* verilator lint_off UNUSEDPARAM */
  parameter int unsigned ClkHz = 12_000_000,  // clock frequency
  parameter int unsigned Baud  = 3_000_000,   // line rate; ClkHz/Baud >= 4
  /* verilator lint_on UNUSEDPARAM */
  parameter int unsigned Div   = (ClkHz + Baud / 2) / Baud  // bit time in cycles
) (
  input  logic       clk_i,
  input  logic       rst_ni,
  input  logic       rx_i,          // serial line, asynchronous, idle high
  // received bytes: one-cycle pulses, no back-pressure
  output logic       m_valid_o,
  output logic [7:0] m_data_o,
  output logic       frame_err_o    // a byte with a low stop bit was dropped
);

  localparam int unsigned CntW = $clog2(Div + 1);
  // Cycles from the first low sample to the centre sample of the start bit: the majority
  // of the three latest samples is centred two cycles before the cycle it is taken in.
  localparam int unsigned Half = (Div + 1) / 2 + 1;

  typedef enum logic [1:0] {Idle, Data, Stop, Wait} state_e;

  logic [1:0]      sync_q;      // two-flop synchronizer
  logic [2:0]      hist_q;      // the three latest synchronized samples, [0] newest
  state_e          state_q, state_d;
  logic [CntW-1:0] cnt_q, cnt_d;
  logic [3:0]      bit_q, bit_d;
  logic [7:0]      data_q, data_d;
  logic            valid_q, valid_d, ferr_q, ferr_d;

  wire maj = (hist_q[0] & hist_q[1]) | (hist_q[0] & hist_q[2]) | (hist_q[1] & hist_q[2]);
  wire line = sync_q[1];

  assign m_valid_o = valid_q;
  assign m_data_o = data_q;
  assign frame_err_o = ferr_q;

  always_comb begin
    state_d = state_q;
    cnt_d = cnt_q;
    bit_d = bit_q;
    data_d = data_q;
    valid_d = 1'b0;
    ferr_d = 1'b0;
    unique case (state_q)
      Idle: begin
        // hist_q[0] is high and the new sample low: the falling edge of a start bit
        if (hist_q[0] && !line) begin
          state_d = Data;
          cnt_d = CntW'(Half);
          bit_d = 4'd0;           // 0: start bit, 1..8 data, then Stop
        end
      end
      Data: begin
        if (cnt_q == CntW'(1)) begin
          cnt_d = CntW'(Div);
          if (bit_q == 4'd0) begin
            if (maj) state_d = Idle;            // not a start bit: a glitch
            else bit_d = 4'd1;
          end else begin
            data_d = {maj, data_q[7:1]};
            bit_d = bit_q + 4'd1;
            if (bit_q == 4'd8) state_d = Stop;
          end
        end else begin
          cnt_d = cnt_q - CntW'(1);
        end
      end
      Stop: begin
        if (cnt_q == CntW'(1)) begin
          if (maj) begin
            valid_d = 1'b1;
            state_d = Idle;
          end else begin
            ferr_d = 1'b1;
            state_d = Wait;
          end
        end else begin
          cnt_d = cnt_q - CntW'(1);
        end
      end
      Wait: if (maj) state_d = Idle;
      default: state_d = Idle;
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      sync_q <= 2'b11;
      hist_q <= 3'b111;
      state_q <= Idle;
      cnt_q <= '0;
      bit_q <= '0;
      data_q <= '0;
      valid_q <= 1'b0;
      ferr_q <= 1'b0;
    end else begin
      sync_q <= {sync_q[0], rx_i};
      hist_q <= {hist_q[1:0], line};
      state_q <= state_d;
      cnt_q <= cnt_d;
      bit_q <= bit_d;
      data_q <= data_d;
      valid_q <= valid_d;
      ferr_q <= ferr_d;
    end
  end

  // Assertions
`ifndef SYNTHESIS
  initial assert (Div >= 4) else $error("tpu_uart_rx: Div %0d must be >= 4", Div);
  // Immediate assertions in a clocked block, not properties (docs/verification.md).
  always_ff @(posedge clk_i) begin : checks
    if (rst_ni) begin
      assert (!(valid_q && ferr_q))
        else $error("tpu_uart_rx: a byte both valid and in error");
    end
  end
`endif

endmodule

`default_nettype wire
