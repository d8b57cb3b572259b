// SPDX-License-Identifier: Apache-2.0
// tpu_core_fifo: first-word-fall-through FIFO with a synchronous flush (queues, prefetch).
`default_nettype none

// A push is at data_o in the next cycle and data_o always shows the entry at the read
// pointer, as with an asynchronous RAM.  Deeper than 16 entries, the storage is a block
// RAM with a registered read: it reads the entry the read pointer will point at in the
// next cycle, and a push to that entry in the same cycle is forwarded (a flag, a copy of
// the pushed word and a mux), so data_o is cycle for cycle the asynchronous read.  Up to
// 16 entries the array is read asynchronously: LUT RAM on the ECP5 (cheaper there than a
// block RAM plus the registers), flip-flops on the iCE40 (docs/core.md).  With RegOut the
// oldest entry is also kept in a head register, refilled from the entry behind it (read at
// rptr1_q, a register) or from the pushed word, so that data_o comes straight from a
// flip-flop: the oldest entry whenever the FIFO is not empty (asserted), undefined while
// it is empty.

module tpu_core_fifo #(
  parameter int unsigned Width = 8,  // bits per entry
  parameter int unsigned Depth = 4,  // entries; a power of two, at least 2
  parameter bit          RegOut = 0  // data_o from a head register (Depth <= 16 only)
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             flush_i,   // empty the FIFO (wins over push and pop)
  // Write side
  input  logic             push_i,
  input  logic [Width-1:0] data_i,
  output logic             full_o,
  // Read side: data_o is the oldest entry whenever empty_o is low
  input  logic             pop_i,
  output logic [Width-1:0] data_o,
  output logic             empty_o
);

  localparam int unsigned PtrWidth = $clog2(Depth);

  localparam bit UseRam = Depth > 16;

  // rptr1_q is rptr_q + 1, kept in a register so that a pop only picks between the two
  // (a late pop_i drives a 2:1 multiplexer into the block RAM's address, not an adder).
  logic [PtrWidth:0] wptr_q, rptr_q, rptr_d, rptr1_q;
  logic [Width-1:0]  mem_q [Depth];

  assign empty_o = wptr_q == rptr_q;
  assign full_o  = (wptr_q ^ rptr_q) == {1'b1, {PtrWidth{1'b0}}};
  assign rptr_d  = flush_i ? '0 : pop_i ? rptr1_q : rptr_q;

  if (UseRam) begin : g_ram
    logic             fwd_q;
    logic [Width-1:0] fwd_data_q, rd_q;
    // The forwarding compare, like the address, is made for both pointers and picked.
    wire fwd0 = wptr_q[PtrWidth-1:0] == rptr_q[PtrWidth-1:0];
    wire fwd1 = wptr_q[PtrWidth-1:0] == rptr1_q[PtrWidth-1:0];
    wire fwd0f = flush_i ? wptr_q[PtrWidth-1:0] == '0 : fwd0;
    always_ff @(posedge clk_i) begin
      rd_q       <= mem_q[rptr_d[PtrWidth-1:0]];
      fwd_q      <= push_i && (pop_i && !flush_i ? fwd1 : fwd0f);
      fwd_data_q <= data_i;
    end
    assign data_o = fwd_q ? fwd_data_q : rd_q;
  end else if (RegOut) begin : g_head
    logic [Width-1:0] hd_q, hd_d;
    always_comb begin
      hd_d = hd_q;
      if (pop_i) hd_d = wptr_q == rptr1_q ? data_i : mem_q[rptr1_q[PtrWidth-1:0]];
      else if (empty_o) hd_d = data_i;
    end
    always_ff @(posedge clk_i) begin
      hd_q <= hd_d;
    end
    assign data_o = hd_q;
  end else begin : g_regs
    assign data_o = mem_q[rptr_q[PtrWidth-1:0]];
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wptr_q  <= '0;
      rptr_q  <= '0;
      rptr1_q <= (PtrWidth+1)'(1);
    end else if (flush_i) begin
      wptr_q  <= '0;
      rptr_q  <= '0;
      rptr1_q <= (PtrWidth+1)'(1);
    end else begin
      wptr_q  <= wptr_q + (PtrWidth+1)'(push_i);
      rptr_q  <= rptr_d;
      if (pop_i) rptr1_q <= rptr1_q + (PtrWidth+1)'(1);
    end
  end

  always_ff @(posedge clk_i) begin
    if (push_i) mem_q[wptr_q[PtrWidth-1:0]] <= data_i;
  end

  // Assertions
`ifndef SYNTHESIS
  initial assert (Depth >= 2 && (1 << PtrWidth) == Depth)
    else $error("tpu_core_fifo: Depth %0d must be a power of two >= 2", Depth);
  initial assert (!RegOut || !UseRam)
    else $error("tpu_core_fifo: RegOut needs Depth <= 16 (a block RAM's read is registered)");
  // Immediate assertions in a clocked block, not properties (docs/verification.md).
  always_ff @(posedge clk_i) begin : checks
    if (rst_ni) begin
      a_no_overflow: assert (!(push_i && full_o && !pop_i && !flush_i))
        else $error("tpu_core_fifo: push into a full FIFO");
      a_no_underflow: assert (!(pop_i && empty_o && !flush_i))
        else $error("tpu_core_fifo: pop from an empty FIFO");
      a_rptr1: assert (rptr1_q == rptr_q + (PtrWidth+1)'(1))
        else $error("tpu_core_fifo: rptr1_q is not rptr_q + 1");
      if (!UseRam && RegOut && !empty_o) begin
        a_head: assert (data_o == mem_q[rptr_q[PtrWidth-1:0]])
          else $error("tpu_core_fifo: head register differs from the oldest entry");
      end
    end
  end
`endif

endmodule
