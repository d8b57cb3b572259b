// SPDX-License-Identifier: Apache-2.0
// tpu_core_load: the load engine: LOAD instructions -> DMA read descriptors -> UB, WB or VP rows.
`default_nettype none

// Up to Inflight LOADs in progress: the issue side takes the tokens and sends the
// descriptor (the DMA sets up the next descriptor while the current one streams); the
// receive side writes every row the DMA streams for the oldest LOAD (buffer row row + i
// for stream row i), then takes its status.  The token (push_next) is given once the
// status says every row arrived; a failed status is a dynamic fault at the LOAD's pc.
module tpu_core_load #(
  parameter int unsigned N       = 16,   // array size
  parameter int unsigned RowBytes = 64,  // DMA row bytes (4N, the VP row)
  parameter int unsigned Inflight = 4,   // LOADs sent to the DMA and not yet completed
  localparam int unsigned StsWidth = tpu_dma_pkg::StsWidth
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  // Queue head
  input  logic                  q_valid_i,
  input  logic [287:0]          q_data_i,      // {pc, instruction}
  output logic                  q_pop_o,
  input  logic                  skip_i,        // fault or abort before this pc: drop it
  input  logic [31:0]           skip_pc_i,
  input  logic                  skip_all_i,
  // Tokens: pop from compute->load, push to load->compute
  input  logic                  tok_avail_i,
  output logic                  tok_pop_o,
  output logic                  tok_push_o,
  // DMA read descriptor, status and rows
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
  input  logic                  row_valid_i,
  output logic                  row_ready_o,
  input  logic [RowBytes*8-1:0] row_data_i,
  input  logic                  row_last_i,
  input  logic                  row_err_i,
  // Buffer write (one of the three)
  output logic                  we_o,
  output logic [1:0]            wbuf_o,
  output logic [15:0]           waddr_o,
  output logic [RowBytes*8-1:0] wdata_o,
  // Completion, faults and counters
  output logic                  done_o,        // an instruction completed
  output logic [31:0]           done_bytes_o,  // its bytes read from memory
  output logic                  fault_o,
  output logic [3:0]            fault_code_o,
  output logic [31:0]           fault_pc_o,
  output logic [31:0]           fault_addr_o,
  output logic                  wait_token_o,
  output logic                  wait_mem_o,
  output logic                  idle_o
);

  logic [255:0] in;
  logic [31:0]  hpc;
  assign in  = q_data_i[255:0];
  assign hpc = q_data_i[287:256];

  // ---------------------------------------------------------------------------
  // Issue: tokens, then the descriptor register; the LOAD enters the in-flight FIFO.
  logic         dq_valid_q;
  logic [255:0] dq_q;
  logic         skip, need_tok, issue, f_full, f_empty, f_pop;
  logic [287:0] f_head;
  assign skip     = skip_all_i || (skip_i && hpc > skip_pc_i);
  assign need_tok = in[tpu_isa_pkg::CommonPopNextLsb];
  assign issue    = q_valid_i && !skip && (!need_tok || tok_avail_i) && !f_full &&
                    (!dq_valid_q || desc_ready_i);
  assign q_pop_o  = q_valid_i && (skip || issue);
  assign tok_pop_o = issue && need_tok;
  assign wait_token_o = q_valid_i && !skip && need_tok && !tok_avail_i;

  tpu_core_fifo #(.Width(288), .Depth(Inflight)) u_inflight (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .flush_i (1'b0),
    .push_i  (issue),
    .data_i  (q_data_i),
    .full_o  (f_full),
    .pop_i   (f_pop),
    .data_o  (f_head),
    .empty_o (f_empty)
  );

  assign desc_valid_o   = dq_valid_q;
  assign desc_addr_o    = dq_q[tpu_isa_pkg::DmaAddrLsb +: 32];
  assign desc_len0_o    = 16'(dq_q[tpu_isa_pkg::DmaLen0Lsb +: 12]);
  assign desc_out0_o    = 16'(dq_q[tpu_isa_pkg::DmaOut0Lsb +: 12]);
  assign desc_pad_o     = dq_q[tpu_isa_pkg::DmaPadLsb +: 8];
  assign desc_count1_o  = 16'(dq_q[tpu_isa_pkg::DmaCount1Lsb +: 12]);
  assign desc_start1_o  = 16'($signed(dq_q[tpu_isa_pkg::DmaStart1Lsb +: 12]));
  assign desc_step1_o   = 16'($signed(dq_q[tpu_isa_pkg::DmaStep1Lsb +: 8]));
  assign desc_bound1_o  = 16'(dq_q[tpu_isa_pkg::DmaBound1Lsb +: 12]);
  assign desc_stride1_o = dq_q[tpu_isa_pkg::DmaStride1Lsb +: 32];
  assign desc_count2_o  = 16'(dq_q[tpu_isa_pkg::DmaCount2Lsb +: 12]);
  assign desc_start2_o  = 16'($signed(dq_q[tpu_isa_pkg::DmaStart2Lsb +: 12]));
  assign desc_step2_o   = 16'($signed(dq_q[tpu_isa_pkg::DmaStep2Lsb +: 8]));
  assign desc_bound2_o  = 16'(dq_q[tpu_isa_pkg::DmaBound2Lsb +: 12]);
  assign desc_stride2_o = dq_q[tpu_isa_pkg::DmaStride2Lsb +: 32];

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni)                      dq_valid_q <= 1'b0;
    else if (issue)                   dq_valid_q <= 1'b1;
    else if (desc_ready_i)            dq_valid_q <= 1'b0;
  end
  always_ff @(posedge clk_i) begin
    if (issue) dq_q <= in;
  end

  // ---------------------------------------------------------------------------
  // Receive: rows of the oldest LOAD whose rows are still coming (the head of the
  // in-flight FIFO); after its last row it waits in a second FIFO for its status, while
  // the rows of the next LOAD may already arrive.  first_q: no row of the head yet, so the
  // row iterator starts from the instruction's fields.
  logic [255:0] h;
  assign h = f_head[255:0];
  logic [11:0] f_count1, f_bound1, f_bound2, f_len0;
  logic signed [11:0] f_start1, f_start2;
  logic signed [7:0]  f_step1, f_step2;
  assign f_count1 = h[tpu_isa_pkg::DmaCount1Lsb +: 12];
  assign f_bound1 = h[tpu_isa_pkg::DmaBound1Lsb +: 12];
  assign f_bound2 = h[tpu_isa_pkg::DmaBound2Lsb +: 12];
  assign f_len0   = h[tpu_isa_pkg::DmaLen0Lsb +: 12];
  assign f_start1 = h[tpu_isa_pkg::DmaStart1Lsb +: 12];
  assign f_start2 = h[tpu_isa_pkg::DmaStart2Lsb +: 12];
  assign f_step1  = h[tpu_isa_pkg::DmaStep1Lsb +: 8];
  assign f_step2  = h[tpu_isa_pkg::DmaStep2Lsb +: 8];

  logic        first_q;
  logic [15:0] idx_q, idx;
  logic [11:0] i1_q, i1;
  logic signed [31:0] c1_q, c1, c2_q, c2;
  logic [31:0] bytes_q, bytes, bytes_row;
  assign idx   = first_q ? '0 : idx_q;
  assign i1    = first_q ? '0 : i1_q;
  assign c1    = first_q ? 32'(f_start1) : c1_q;
  assign c2    = first_q ? 32'(f_start2) : c2_q;
  assign bytes = first_q ? '0 : bytes_q;

  logic row_fire, in_bounds, sts_fire, s_full, s_empty, s_tok;
  logic [31:0] s_pc, s_bytes;
  assign row_ready_o = !f_empty && !s_full;
  assign row_fire    = row_valid_i && row_ready_o;
  assign f_pop       = row_fire && row_last_i;
  assign in_bounds   = c1 >= 0 && c1 < $signed({20'b0, f_bound1}) &&
                       c2 >= 0 && c2 < $signed({20'b0, f_bound2});
  assign bytes_row   = bytes + ((!row_err_i && in_bounds) ? 32'(f_len0) : 32'd0);

  assign we_o    = row_fire && !row_err_i;
  assign wbuf_o  = h[tpu_isa_pkg::DmaBufLsb +: 2];
  assign waddr_o = h[tpu_isa_pkg::DmaRowLsb +: 16] + idx;
  assign wdata_o = row_data_i;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni)       first_q <= 1'b1;
    else if (row_fire) first_q <= row_last_i;
  end

  always_ff @(posedge clk_i) begin
    if (row_fire) begin
      idx_q   <= idx + 1'b1;
      bytes_q <= bytes_row;
      if (i1 == f_count1 - 12'd1) begin
        i1_q <= '0;
        c1_q <= 32'(f_start1);
        c2_q <= c2 + 32'(f_step2);
      end else begin
        i1_q <= i1 + 1'b1;
        c1_q <= c1 + 32'(f_step1);
        c2_q <= c2;
      end
    end
  end

  // LOADs whose rows have all arrived, waiting for their status: {pc, push_next, bytes}.
  tpu_core_fifo #(.Width(65), .Depth(Inflight)) u_status (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .flush_i (1'b0),
    .push_i  (f_pop),
    .data_i  ({f_head[287:256], h[tpu_isa_pkg::CommonPushNextLsb], bytes_row}),
    .full_o  (s_full),
    .pop_i   (sts_fire),
    .data_o  ({s_pc, s_tok, s_bytes}),
    .empty_o (s_empty)
  );
  assign sts_ready_o = !s_empty;
  assign sts_fire    = sts_valid_i && sts_ready_o;

  // Completion and faults (the status of the oldest LOAD).
  assign done_o     = sts_fire && sts_code_i == tpu_dma_pkg::StsOk;
  assign tok_push_o = done_o && s_tok;
  assign fault_o    = sts_fire && sts_code_i != tpu_dma_pkg::StsOk;
  always_comb begin
    fault_code_o = tpu_isa_pkg::FaultBusError;
    if (sts_code_i == tpu_dma_pkg::StsProtRead) fault_code_o = tpu_isa_pkg::FaultProtRead;
    if (sts_code_i == tpu_dma_pkg::StsProtWrite) fault_code_o = tpu_isa_pkg::FaultProtWrite;
  end
  assign fault_pc_o   = s_pc;
  assign fault_addr_o = sts_addr_i;
  assign done_bytes_o = s_bytes;
  assign wait_mem_o   = !f_empty && !row_valid_i;
  assign idle_o       = f_empty && s_empty && !dq_valid_q;

  // Assertions
`ifndef SYNTHESIS
  // Immediate assertions in a clocked block, not properties (docs/verification.md).
  always_ff @(posedge clk_i) begin : checks
    if (rst_ni) begin
      a_no_bad_desc: assert (!(sts_valid_i && sts_ready_o && sts_code_i == tpu_dma_pkg::StsBadDesc))
        else $error("tpu_core_load: decode let a bad descriptor through");
      a_row_in_phase: assert (!(row_valid_i && f_empty))
        else $error("tpu_core_load: DMA row outside a LOAD");
      a_sts_after_rows: assert (!(sts_valid_i && s_empty))
        else $error("tpu_core_load: DMA status before the last row");
    end
  end
`endif

  logic unused;
  assign unused = ^{N, dq_q};

endmodule
