// SPDX-License-Identifier: Apache-2.0
// tpu_lite_fifo: a first-word-fall-through FIFO on a synchronous-read RAM (block RAM on
// FPGAs for deep FIFOs), with the head held in an output register.
`default_nettype none

// Holds up to Depth entries in the RAM plus one in the output register.  A push while full
// is dropped (the caller counts it); a pop takes the head shown on m_data_o.
module tpu_lite_fifo #(
  parameter int Width = 8,    // entry bits
  parameter int Depth = 512,  // RAM entries, a power of two >= 2
  localparam int AW = $clog2(Depth)
) (
  input  wire              clk_i,
  input  wire              rst_ni,
  // Write side
  input  wire              push_i,
  input  wire  [Width-1:0] data_i,
  output logic             full_o,    // the RAM is full: a push is dropped
  // Read side: m_valid_o says m_data_o is the head; pop_i with it takes it
  output logic             m_valid_o,
  output logic [Width-1:0] m_data_o,
  input  wire              pop_i,
  output logic             empty_o    // nothing in the RAM or the output register
);
  logic [Width-1:0] mem_m [Depth];
  logic [AW-1:0] wptr_q, wptr_d, rptr_q, rptr_d;
  logic [AW:0] cnt_q, cnt_d;          // entries in the RAM
  logic out_q, out_d;                 // the output register holds the head
  logic [Width-1:0] rdata_q;

  wire do_pop = pop_i && out_q;
  wire do_push = push_i && cnt_q != (AW + 1)'(Depth);
  // Read the RAM into the output register when it is empty or being emptied.
  wire rd = cnt_q != '0 && (!out_q || do_pop);

  always_comb begin
    wptr_d = do_push ? wptr_q + AW'(1) : wptr_q;
    rptr_d = rd ? rptr_q + AW'(1) : rptr_q;
    cnt_d = cnt_q + (AW + 1)'(do_push) - (AW + 1)'(rd);
    out_d = rd || (out_q && !do_pop);
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wptr_q <= '0;
      rptr_q <= '0;
      cnt_q <= '0;
      out_q <= 1'b0;
    end else begin
      wptr_q <= wptr_d;
      rptr_q <= rptr_d;
      cnt_q <= cnt_d;
      out_q <= out_d;
    end
  end

  // RAM inference template (write port, registered read port).  A read never addresses
  // the entry written in the same cycle: it reads only entries already counted.
  always_ff @(posedge clk_i) begin
    if (do_push) mem_m[wptr_q] <= data_i;
    if (rd) rdata_q <= mem_m[rptr_q];
  end

  assign full_o = cnt_q == (AW + 1)'(Depth);
  assign m_valid_o = out_q;
  assign m_data_o = rdata_q;
  assign empty_o = !out_q && cnt_q == '0;

  // Assertions
`ifndef SYNTHESIS
  initial begin
    if (Depth < 2 || (Depth & (Depth - 1)) != 0) $fatal(1, "tpu_lite_fifo: Depth %0d is not a power of two >= 2", Depth);
  end
  // Immediate assertions in a clocked block, not properties (docs/verification.md).
  always_ff @(posedge clk_i) begin : checks
    if (rst_ni) begin
      assert (cnt_q <= (AW + 1)'(Depth))
        else $error("tpu_lite_fifo: count %0d > %0d", cnt_q, Depth);
    end
  end
`endif
endmodule
