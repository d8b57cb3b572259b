// SPDX-License-Identifier: Apache-2.0
// tpu_dma_fifo: synchronous first-word-fall-through FIFO (RAM plus pointers).
`default_nettype none

// A push is at data_o in the next cycle and data_o always shows the entry at the read
// pointer, as with an asynchronous RAM.  Deeper than 16 entries, the storage is a block
// RAM with a registered read: it reads the entry the read pointer will point at in the
// next cycle, and a push to that entry in the same cycle is forwarded (a flag, a copy of
// the pushed word and a mux), so data_o is cycle for cycle the asynchronous read.  Up to
// 16 entries the array is read asynchronously: LUT RAM on the ECP5 (cheaper there than a
// block RAM plus the registers), flip-flops on the iCE40 (docs/dma.md).

module tpu_dma_fifo #(
  parameter int unsigned Width = 8,  // bits per entry
  parameter int unsigned Depth = 4   // entries; a power of two, at least 2
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  // Write side
  input  logic                  push_i,
  input  logic [Width-1:0]      data_i,
  output logic                  full_o,
  // Read side: data_o is the oldest entry whenever empty_o is low
  input  logic                  pop_i,
  output logic [Width-1:0]      data_o,
  output logic                  empty_o
);

  localparam int unsigned PtrWidth = $clog2(Depth);

  // Pointers carry one extra wrap bit so that full and empty differ.
  logic [PtrWidth:0] wptr_q, wptr_d;
  logic [PtrWidth:0] rptr_q, rptr_d;
  logic [Width-1:0]  mem_q [Depth];

  assign empty_o = wptr_q == rptr_q;
  assign full_o  = (wptr_q ^ rptr_q) == {1'b1, {PtrWidth{1'b0}}};

  localparam bit UseRam = Depth > 16;
  if (UseRam) begin : g_ram
    logic             fwd_q;
    logic [Width-1:0] fwd_data_q, rd_q;
    always_ff @(posedge clk_i) begin
      rd_q       <= mem_q[rptr_d[PtrWidth-1:0]];
      fwd_q      <= push_i && wptr_q[PtrWidth-1:0] == rptr_d[PtrWidth-1:0];
      fwd_data_q <= data_i;
    end
    assign data_o = fwd_q ? fwd_data_q : rd_q;
  end else begin : g_regs
    assign data_o = mem_q[rptr_q[PtrWidth-1:0]];
  end

  always_comb begin
    wptr_d = wptr_q;
    rptr_d = rptr_q;
    if (push_i) wptr_d = wptr_q + 1'b1;
    if (pop_i) rptr_d = rptr_q + 1'b1;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wptr_q <= '0;
      rptr_q <= '0;
    end else begin
      wptr_q <= wptr_d;
      rptr_q <= rptr_d;
    end
  end

  // The storage is a RAM with one write port: not reset, written in place.
  always_ff @(posedge clk_i) begin
    if (push_i) mem_q[wptr_q[PtrWidth-1:0]] <= data_i;
  end

  // Assertions
`ifndef SYNTHESIS
  initial assert (Depth >= 2 && (1 << PtrWidth) == Depth)
    else $error("tpu_dma_fifo: Depth %0d must be a power of two >= 2", Depth);
  assert property (@(posedge clk_i) disable iff (!rst_ni) !(push_i && full_o && !pop_i))
    else $error("tpu_dma_fifo: push into a full FIFO");
  assert property (@(posedge clk_i) disable iff (!rst_ni) !(pop_i && empty_o))
    else $error("tpu_dma_fifo: pop from an empty FIFO");
`endif

endmodule
