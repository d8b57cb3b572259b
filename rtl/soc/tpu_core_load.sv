// SPDX-License-Identifier: Apache-2.0
// tpu_core_load: the load engine: LOAD instructions -> DMA read descriptors -> UB, WB or VP rows.
`default_nettype none

// One LOAD at a time: take the tokens, send the descriptor, write every row the DMA
// streams (buffer row row + i for stream row i), then take the status.  The token
// (push_next) is given once the status says every row arrived; a failed status is a
// dynamic fault at the LOAD's pc.
module tpu_core_load #(
  parameter int unsigned N       = 16,   // array size
  parameter int unsigned RowBytes = 64,  // DMA row bytes (4N, the VP row)
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

  localparam logic [1:0] Idle = 2'd0, Desc = 2'd1, Rows = 2'd2, Sts = 2'd3;
  logic [1:0] state_q, state_d;

  logic [255:0] in;
  logic [31:0]  hpc;
  assign in  = q_data_i[255:0];
  assign hpc = q_data_i[287:256];

  logic [255:0] insn_q;
  logic [31:0]  pc_q;
  logic [15:0]  idx_q, idx_d;
  // Coordinates of the current row, for the byte count (in_bounds rows only).
  logic [11:0]  i1_q, i1_d;
  logic signed [31:0] c1_q, c1_d, c2_q, c2_d;
  logic [31:0]  bytes_q, bytes_d;

  logic [11:0] f_count1, f_bound1, f_bound2, f_len0;
  logic signed [11:0] f_start1, f_start2;
  logic signed [7:0]  f_step1, f_step2;
  assign f_count1 = insn_q[tpu_isa_pkg::DmaCount1Lsb +: 12];
  assign f_bound1 = insn_q[tpu_isa_pkg::DmaBound1Lsb +: 12];
  assign f_bound2 = insn_q[tpu_isa_pkg::DmaBound2Lsb +: 12];
  assign f_len0   = insn_q[tpu_isa_pkg::DmaLen0Lsb +: 12];
  assign f_start1 = insn_q[tpu_isa_pkg::DmaStart1Lsb +: 12];
  assign f_start2 = insn_q[tpu_isa_pkg::DmaStart2Lsb +: 12];
  assign f_step1  = insn_q[tpu_isa_pkg::DmaStep1Lsb +: 8];
  assign f_step2  = insn_q[tpu_isa_pkg::DmaStep2Lsb +: 8];

  assign desc_addr_o    = insn_q[tpu_isa_pkg::DmaAddrLsb +: 32];
  assign desc_len0_o    = 16'(f_len0);
  assign desc_out0_o    = 16'(insn_q[tpu_isa_pkg::DmaOut0Lsb +: 12]);
  assign desc_pad_o     = insn_q[tpu_isa_pkg::DmaPadLsb +: 8];
  assign desc_count1_o  = 16'(f_count1);
  assign desc_start1_o  = 16'(f_start1);
  assign desc_step1_o   = 16'(f_step1);
  assign desc_bound1_o  = 16'(f_bound1);
  assign desc_stride1_o = insn_q[tpu_isa_pkg::DmaStride1Lsb +: 32];
  assign desc_count2_o  = 16'(insn_q[tpu_isa_pkg::DmaCount2Lsb +: 12]);
  assign desc_start2_o  = 16'(f_start2);
  assign desc_step2_o   = 16'(f_step2);
  assign desc_bound2_o  = 16'(f_bound2);
  assign desc_stride2_o = insn_q[tpu_isa_pkg::DmaStride2Lsb +: 32];
  assign desc_valid_o   = state_q == Desc;

  logic skip, need_tok, row_fire, in_bounds;
  assign skip     = skip_all_i || (skip_i && hpc > skip_pc_i);
  assign need_tok = in[tpu_isa_pkg::CommonPopNextLsb];
  assign row_ready_o = state_q == Rows;
  assign row_fire = row_valid_i && state_q == Rows;
  assign sts_ready_o = state_q == Sts;
  assign in_bounds   = c1_q >= 0 && c1_q < $signed({20'b0, f_bound1}) &&
                    c2_q >= 0 && c2_q < $signed({20'b0, f_bound2});

  assign we_o    = row_fire && !row_err_i;
  assign wbuf_o  = insn_q[tpu_isa_pkg::DmaBufLsb +: 2];
  assign waddr_o = insn_q[tpu_isa_pkg::DmaRowLsb +: 16] + idx_q;
  assign wdata_o = row_data_i;

  always_comb begin
    state_d   = state_q;
    idx_d     = idx_q;
    i1_d      = i1_q;
    c1_d      = c1_q;
    c2_d      = c2_q;
    bytes_d   = bytes_q;
    q_pop_o   = 1'b0;
    tok_pop_o = 1'b0;
    tok_push_o = 1'b0;
    done_o    = 1'b0;
    fault_o   = 1'b0;
    wait_token_o = 1'b0;
    case (state_q)
      Idle: if (q_valid_i) begin
        if (skip) begin
          q_pop_o = 1'b1;
        end else if (need_tok && !tok_avail_i) begin
          wait_token_o = 1'b1;
        end else begin
          q_pop_o   = 1'b1;
          tok_pop_o = need_tok;
          state_d   = Desc;
        end
      end
      Desc: if (desc_ready_i) begin
        state_d = Rows;
        idx_d   = '0;
        i1_d    = '0;
        c1_d    = 32'(f_start1);
        c2_d    = 32'(f_start2);
        bytes_d = '0;
      end
      Rows: if (row_fire) begin
        idx_d = idx_q + 1'b1;
        if (!row_err_i && in_bounds) bytes_d = bytes_q + 32'(f_len0);
        if (i1_q == f_count1 - 12'd1) begin
          i1_d = '0;
          c1_d = 32'(f_start1);
          c2_d = c2_q + 32'(f_step2);
        end else begin
          i1_d = i1_q + 1'b1;
          c1_d = c1_q + 32'(f_step1);
        end
        if (row_last_i) state_d = Sts;
      end
      default: if (sts_valid_i) begin  // Sts
        state_d = Idle;
        if (sts_code_i == tpu_dma_pkg::StsOk) begin
          done_o     = 1'b1;
          tok_push_o = insn_q[tpu_isa_pkg::CommonPushNextLsb];
        end else begin
          fault_o = 1'b1;
        end
      end
    endcase
  end

  always_comb begin
    fault_code_o = tpu_isa_pkg::FaultBusError;
    if (sts_code_i == tpu_dma_pkg::StsProtRead) fault_code_o = tpu_isa_pkg::FaultProtRead;
    if (sts_code_i == tpu_dma_pkg::StsProtWrite) fault_code_o = tpu_isa_pkg::FaultProtWrite;
  end
  assign fault_pc_o   = pc_q;
  assign fault_addr_o = sts_addr_i;
  assign done_bytes_o = bytes_q;
  assign wait_mem_o   = state_q == Rows && !row_valid_i;
  assign idle_o       = state_q == Idle;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) state_q <= Idle;
    else         state_q <= state_d;
  end

  always_ff @(posedge clk_i) begin
    idx_q   <= idx_d;
    i1_q    <= i1_d;
    c1_q    <= c1_d;
    c2_q    <= c2_d;
    bytes_q <= bytes_d;
    if (q_pop_o && !skip) begin
      insn_q <= in;
      pc_q   <= hpc;
    end
  end

  // Assertions
`ifndef SYNTHESIS
  a_no_bad_desc: assert property (@(posedge clk_i) disable iff (!rst_ni)
      !(sts_valid_i && sts_ready_o && sts_code_i == tpu_dma_pkg::StsBadDesc))
    else $error("tpu_core_load: decode let a bad descriptor through");
  a_row_in_phase: assert property (@(posedge clk_i) disable iff (!rst_ni)
      !(row_valid_i && state_q != Rows))
    else $error("tpu_core_load: DMA row outside a LOAD");
`endif

  logic unused;
  assign unused = ^{in, N};

endmodule
