// SPDX-License-Identifier: Apache-2.0
// tpu_core_store: the store engine: STORE instructions -> DMA write descriptor + UB rows.
`default_nettype none

// A STORE takes its token, sends the descriptor and, at the same time, streams UB rows
// row .. row+count1*count2-1 (last on the final one); it then waits in a small FIFO for
// its write status (which follows its last B response) while the next STORE streams.
// The token (push_prev) is given after an OK status; a failed status is a dynamic fault
// at the STORE's pc.
module tpu_core_store #(
  parameter int unsigned UbBits   = 128,  // bits of a UB row (N*EW*8)
  parameter int unsigned RowBytes = 64,   // DMA row bytes
  parameter int unsigned Inflight = 4,    // STOREs streamed and waiting for their status
  localparam int unsigned StsWidth = tpu_dma_pkg::StsWidth
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  // Queue head
  input  logic                  q_valid_i,
  input  logic [287:0]          q_data_i,      // {pc, instruction}
  output logic                  q_pop_o,
  input  logic                  skip_i,
  input  logic [31:0]           skip_pc_i,
  input  logic                  skip_all_i,
  // Tokens: pop from compute->store, push to store->compute
  input  logic                  tok_avail_i,
  output logic                  tok_pop_o,
  output logic                  tok_push_o,
  // DMA write descriptor, status and rows
  output logic                  desc_valid_o,
  input  logic                  desc_ready_i,
  output logic [31:0]           desc_addr_o,
  output logic [15:0]           desc_len0_o,
  output logic [15:0]           desc_out0_o,
  output logic [7:0]            desc_pad_o,
  output logic [15:0]           desc_count1_o,
  output logic [15:0]           desc_start1_o,
  output logic [15:0]           desc_step1_o,
  output logic [15:0]           desc_bound1_o,
  output logic [31:0]           desc_stride1_o,
  output logic [15:0]           desc_count2_o,
  output logic [15:0]           desc_start2_o,
  output logic [15:0]           desc_step2_o,
  output logic [15:0]           desc_bound2_o,
  output logic [31:0]           desc_stride2_o,
  input  logic                  sts_valid_i,
  output logic                  sts_ready_o,
  input  logic [StsWidth-1:0]   sts_code_i,
  input  logic [31:0]           sts_addr_i,
  output logic                  row_valid_o,
  input  logic                  row_ready_i,
  output logic [RowBytes*8-1:0] row_data_o,
  output logic                  row_last_o,
  // UB read port: the row read in the next cycle (the UB registers it, docs/core.md):
  // ub_rnextb_o when ub_rpick_o (a row leaves), else ub_rnext_o
  output logic [15:0]           ub_rnext_o,
  output logic [15:0]           ub_rnextb_o,
  output logic                  ub_rpick_o,
  input  logic [UbBits-1:0]     ub_rdata_i,
  // Completion, faults and counters
  output logic                  done_o,
  output logic [31:0]           done_bytes_o,
  output logic                  fault_o,
  output logic [3:0]            fault_code_o,
  output logic [31:0]           fault_pc_o,
  output logic [31:0]           fault_addr_o,
  output logic                  wait_token_o,
  output logic                  wait_mem_o,
  output logic                  idle_o
);

  localparam int unsigned RB = RowBytes * 8;

  logic [255:0] in;
  logic [31:0]  hpc;
  assign in  = q_data_i[255:0];
  assign hpc = q_data_i[287:256];

  logic         run_q;
  logic [255:0] insn_q;
  logic [31:0]  pc_q;
  logic         desc_sent_q, rows_sent_q;
  logic [23:0]  idx_q, total;
  logic [11:0]  i1_q;
  logic signed [31:0] c1_q, c2_q;
  logic [31:0]  bytes_q;
  logic [31:0]  bytes_len_q;   // bytes_q + len0, kept in a register

  logic [11:0] f_count1, f_count2, f_bound1, f_bound2, f_len0;
  logic signed [11:0] f_start1, f_start2;
  logic signed [7:0]  f_step1, f_step2;
  assign f_count1 = insn_q[tpu_isa_pkg::DmaCount1Lsb +: 12];
  assign f_count2 = insn_q[tpu_isa_pkg::DmaCount2Lsb +: 12];
  assign f_bound1 = insn_q[tpu_isa_pkg::DmaBound1Lsb +: 12];
  assign f_bound2 = insn_q[tpu_isa_pkg::DmaBound2Lsb +: 12];
  assign f_len0   = insn_q[tpu_isa_pkg::DmaLen0Lsb +: 12];
  assign f_start1 = insn_q[tpu_isa_pkg::DmaStart1Lsb +: 12];
  assign f_start2 = insn_q[tpu_isa_pkg::DmaStart2Lsb +: 12];
  assign f_step1  = insn_q[tpu_isa_pkg::DmaStep1Lsb +: 8];
  assign f_step2  = insn_q[tpu_isa_pkg::DmaStep2Lsb +: 8];
  assign total    = 24'(f_count1) * 24'(f_count2);

  assign desc_addr_o    = insn_q[tpu_isa_pkg::DmaAddrLsb +: 32];
  assign desc_len0_o    = 16'(f_len0);
  assign desc_out0_o    = 16'(insn_q[tpu_isa_pkg::DmaOut0Lsb +: 12]);
  assign desc_pad_o     = '0;
  assign desc_count1_o  = 16'(f_count1);
  assign desc_start1_o  = 16'(f_start1);
  assign desc_step1_o   = 16'(f_step1);
  assign desc_bound1_o  = 16'(f_bound1);
  assign desc_stride1_o = insn_q[tpu_isa_pkg::DmaStride1Lsb +: 32];
  assign desc_count2_o  = 16'(f_count2);
  assign desc_start2_o  = 16'(f_start2);
  assign desc_step2_o   = 16'(f_step2);
  assign desc_bound2_o  = 16'(f_bound2);
  assign desc_stride2_o = insn_q[tpu_isa_pkg::DmaStride2Lsb +: 32];
  assign desc_valid_o   = run_q && !desc_sent_q;

  // The STOREs waiting for their status: {pc, push_prev, bytes}.
  logic        w_push, w_full, w_empty, w_pop, w_tok;
  logic [31:0] w_pc, w_bytes;

  logic skip, need_tok, row_fire, in_bounds, start, desc_fire, finish;
  assign skip      = skip_all_i || (skip_i && hpc > skip_pc_i);
  assign need_tok  = in[tpu_isa_pkg::CommonPopPrevLsb];
  assign start     = q_valid_i && !skip && !run_q && (!need_tok || tok_avail_i);
  assign q_pop_o   = q_valid_i && (skip || start);
  assign tok_pop_o = start && need_tok;
  assign wait_token_o = q_valid_i && !skip && !run_q && need_tok && !tok_avail_i;
  assign in_bounds = c1_q >= 0 && c1_q < $signed({20'b0, f_bound1}) &&
                     c2_q >= 0 && c2_q < $signed({20'b0, f_bound2});

  // The UB row being read (row + idx_q) and the next one, kept in registers so that the
  // row handshake only picks between two ready rows (tpu_core_ram's rpick).
  logic [15:0] ub_raddr_q, ub_raddr1_q;
  // ub_raddr_q in the next cycle: the row of a new STORE, the next row after a row
  // leaves (ub_rnextb_o, picked by row_fire), else the same row.
  assign ub_rnext_o  = start ? in[tpu_isa_pkg::DmaRowLsb +: 16] : ub_raddr_q;
  assign ub_rnextb_o = ub_raddr1_q;
  assign ub_rpick_o  = row_fire;
  assign row_valid_o = run_q && !rows_sent_q;
  assign row_data_o  = RB'(ub_rdata_i);
  assign row_last_o  = idx_q == total - 24'd1;
  assign row_fire    = row_valid_o && row_ready_i;
  assign desc_fire   = desc_valid_o && desc_ready_i;
  // Streaming is over when the descriptor and the last row are gone; the STORE then
  // waits for its status in the FIFO.
  assign finish      = run_q && (desc_sent_q || desc_fire) &&
                       (rows_sent_q || (row_fire && row_last_o)) && !w_full;
  assign w_push      = finish;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      run_q       <= 1'b0;
      desc_sent_q <= 1'b0;
      rows_sent_q <= 1'b0;
    end else if (start) begin
      run_q       <= 1'b1;
      desc_sent_q <= 1'b0;
      rows_sent_q <= 1'b0;
    end else if (finish) begin
      run_q       <= 1'b0;
    end else begin
      if (desc_fire) desc_sent_q <= 1'b1;
      if (row_fire && row_last_o) rows_sent_q <= 1'b1;
    end
  end

  always_ff @(posedge clk_i) begin
    if (start) begin
      insn_q  <= in;
      pc_q    <= hpc;
      idx_q   <= '0;
      ub_raddr_q  <= in[tpu_isa_pkg::DmaRowLsb +: 16];
      ub_raddr1_q <= in[tpu_isa_pkg::DmaRowLsb +: 16] + 16'd1;
      i1_q    <= '0;
      c1_q    <= 32'(signed'(in[tpu_isa_pkg::DmaStart1Lsb +: 12]));
      c2_q    <= 32'(signed'(in[tpu_isa_pkg::DmaStart2Lsb +: 12]));
      bytes_q <= '0;
      bytes_len_q <= 32'(in[tpu_isa_pkg::DmaLen0Lsb +: 12]);
    end else if (row_fire) begin
      idx_q <= idx_q + 1'b1;
      ub_raddr_q  <= ub_raddr1_q;
      ub_raddr1_q <= ub_raddr1_q + 16'd1;
      if (in_bounds) begin
        bytes_q     <= bytes_len_q;
        bytes_len_q <= bytes_len_q + 32'(f_len0);
      end
      if (i1_q == f_count1 - 12'd1) begin
        i1_q <= '0;
        c1_q <= 32'(f_start1);
        c2_q <= c2_q + 32'(f_step2);
      end else begin
        i1_q <= i1_q + 1'b1;
        c1_q <= c1_q + 32'(f_step1);
      end
    end
  end

  // The last row's bytes are added in the cycle it leaves: the sum is ready in
  // bytes_len_q, so the row handshake only picks it.
  logic [31:0] bytes_final;
  assign bytes_final = (row_fire && in_bounds) ? bytes_len_q : bytes_q;

  tpu_core_fifo #(.Width(65), .Depth(Inflight)) u_wait (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .flush_i (1'b0),
    .push_i  (w_push),
    .data_i  ({pc_q, insn_q[tpu_isa_pkg::CommonPushPrevLsb], bytes_final}),
    .full_o  (w_full),
    .pop_i   (w_pop),
    .data_o  ({w_pc, w_tok, w_bytes}),
    .empty_o (w_empty)
  );

  assign sts_ready_o = !w_empty;
  assign w_pop       = sts_valid_i && !w_empty;
  assign done_o      = w_pop && sts_code_i == tpu_dma_pkg::StsOk;
  assign tok_push_o  = done_o && w_tok;
  assign fault_o     = w_pop && sts_code_i != tpu_dma_pkg::StsOk;

  always_comb begin
    fault_code_o = tpu_isa_pkg::FaultBusError;
    if (sts_code_i == tpu_dma_pkg::StsProtWrite) fault_code_o = tpu_isa_pkg::FaultProtWrite;
    if (sts_code_i == tpu_dma_pkg::StsProtRead) fault_code_o = tpu_isa_pkg::FaultProtRead;
  end
  assign fault_pc_o   = w_pc;
  assign fault_addr_o = sts_addr_i;
  assign done_bytes_o = w_bytes;
  assign wait_mem_o   = row_valid_o && !row_ready_i;
  assign idle_o       = !run_q && w_empty;

  // Assertions
`ifndef SYNTHESIS
  // The next-cycle read row is the row read one cycle later, and the row read is the
  // STORE's row + idx_q while it runs.
  logic        chk_q;
  logic [15:0] ub_rnext_q, ub_raddr;
  assign ub_raddr = insn_q[tpu_isa_pkg::DmaRowLsb +: 16] + idx_q[15:0];
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) chk_q <= 1'b0;
    else         chk_q <= 1'b1;
  end
  always_ff @(posedge clk_i) ub_rnext_q <= ub_rpick_o ? ub_rnextb_o : ub_rnext_o;
  // Immediate assertions in a clocked block, not properties (docs/verification.md).
  always_ff @(posedge clk_i) begin : checks
    if (rst_ni) begin
      a_ub_rnext: assert (!(chk_q && ub_rnext_q != ub_raddr_q))
        else $error("tpu_core_store: UB read row %0h, announced %0h", ub_raddr_q, ub_rnext_q);
      a_bytes_len: assert (!(run_q && bytes_len_q != bytes_q + 32'(f_len0)))
        else $error("tpu_core_store: bytes + len0 register %0h, bytes %0h", bytes_len_q, bytes_q);
      a_ub_raddr: assert (!(run_q && (ub_raddr_q != ub_raddr || ub_raddr1_q != ub_raddr + 16'd1)))
        else $error("tpu_core_store: UB row %0h, expected %0h", ub_raddr_q, ub_raddr);
      a_no_bad_desc: assert (!(sts_valid_i && sts_ready_o &&
                               (sts_code_i == tpu_dma_pkg::StsBadDesc ||
                                sts_code_i == tpu_dma_pkg::StsStream)))
        else $error("tpu_core_store: DMA reported a bad descriptor or stream");
    end
  end
`endif

endmodule
