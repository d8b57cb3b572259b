// SPDX-License-Identifier: Apache-2.0
// tpu_core: the accelerator without CPU, link or memory system: fetch/decode, three
// queues and engines, token counters, UB/WB/VP, MXU+ACC, vector unit, DMA, registers.
`default_nettype none

// Block diagram, queues, hazards and faults: docs/core.md.
module tpu_core #(
  parameter int unsigned N          = 16,       // array size N x N
  parameter int unsigned EnableBf16 = 1,        // 1: int8 and bf16; 0: int8 only
  parameter int unsigned UbRows     = 4096,     // unified buffer rows (N*EW bytes)
  parameter int unsigned WbRows     = 1024,     // weight buffer rows (N*EW bytes)
  parameter int unsigned AccRows    = 2048,     // accumulator rows (N words)
  parameter int unsigned VpRows     = 256,      // vector-parameter rows (N words)
  parameter int unsigned NumWindows = 4,        // protection windows
  parameter int unsigned MemKb      = 262144,   // device memory (reported in MEM_KB)
  parameter int unsigned MaxPayload = 4096,     // largest link payload (reported)
  parameter logic [127:0] ConfigName = "sim16", // reported in CONFIG_NAME
  parameter int unsigned VpuLanes   = N,        // vector-unit lanes per cycle
  parameter int unsigned IdWidth    = 4,        // AXI ID bits
  parameter int unsigned WideLanes  = 0,        // MXU: 32-bit lanes (faster simulation)
  parameter int unsigned SimGate    = 0,        // VPU clock gate while idle (faster simulation)
  parameter int unsigned AccReadPort = 0,       // ACC: separate read port for ACTIVATE
  parameter int unsigned QueueDepth = 8,        // entries per instruction queue
  parameter int unsigned MemDataWidth = 256,    // DMA master data bits (32..256)
  parameter int unsigned DmaReadBeats = 128,    // DMA read buffer, beats
  parameter int unsigned DmaWriteBeats = 64,    // DMA write buffer, beats
  parameter int unsigned DmaRowQueue = 128,     // DMA read engine's row queue, rows
  localparam int unsigned EW      = (EnableBf16 != 0) ? 2 : 1,  // bytes per lane
  localparam int unsigned UbBits  = N * EW * 8,
  localparam int unsigned RowBytes = 4 * N,     // DMA rows: the VP row
  localparam int unsigned NumCnt  = tpu_isa_pkg::NumCounters
) (
  input  logic                      clk_i,
  input  logic                      rst_ni,
  // TPU register page (register bus)
  input  logic                      tpu_reg_req_i,
  input  logic                      tpu_reg_we_i,
  input  logic [11:0]               tpu_reg_addr_i,
  input  logic [31:0]               tpu_reg_wdata_i,
  output logic [31:0]               tpu_reg_rdata_o,
  // CNT register page, offsets below 0x100 (register bus)
  input  logic                      cnt_reg_req_i,
  input  logic                      cnt_reg_we_i,
  input  logic [11:0]               cnt_reg_addr_i,
  input  logic [31:0]               cnt_reg_wdata_i,
  output logic [31:0]               cnt_reg_rdata_o,
  output logic                      irq_o,
  output logic                      irq_link_en_o,  // IRQ_EN bit 1: the SoC gates the link's interrupt with it
  // DMA master
  output logic                      m_axi_arvalid_o,
  input  logic                      m_axi_arready_i,
  output logic [IdWidth-1:0]        m_axi_arid_o,
  output logic [31:0]               m_axi_araddr_o,
  output logic [7:0]                m_axi_arlen_o,
  input  logic                      m_axi_rvalid_i,
  output logic                      m_axi_rready_o,
  input  logic [IdWidth-1:0]        m_axi_rid_i,
  input  logic [MemDataWidth-1:0]   m_axi_rdata_i,
  input  logic [1:0]                m_axi_rresp_i,
  input  logic                      m_axi_rlast_i,
  output logic                      m_axi_awvalid_o,
  input  logic                      m_axi_awready_i,
  output logic [IdWidth-1:0]        m_axi_awid_o,
  output logic [31:0]               m_axi_awaddr_o,
  output logic [7:0]                m_axi_awlen_o,
  output logic                      m_axi_wvalid_o,
  input  logic                      m_axi_wready_i,
  output logic [MemDataWidth-1:0]   m_axi_wdata_o,
  output logic [MemDataWidth/8-1:0] m_axi_wstrb_o,
  output logic                      m_axi_wlast_o,
  input  logic                      m_axi_bvalid_i,
  output logic                      m_axi_bready_o,
  input  logic [IdWidth-1:0]        m_axi_bid_i,
  input  logic [1:0]                m_axi_bresp_i,
  // Instruction fetch master (read channels only)
  output logic                      m_fetch_arvalid_o,
  input  logic                      m_fetch_arready_i,
  output logic [IdWidth-1:0]        m_fetch_arid_o,
  output logic [31:0]               m_fetch_araddr_o,
  output logic [7:0]                m_fetch_arlen_o,
  input  logic                      m_fetch_rvalid_i,
  output logic                      m_fetch_rready_o,
  input  logic [IdWidth-1:0]        m_fetch_rid_i,
  input  logic [255:0]              m_fetch_rdata_i,
  input  logic [1:0]                m_fetch_rresp_i,
  input  logic                      m_fetch_rlast_i
);

  // ---------------------------------------------------------------------------
  // Control state.
  localparam logic [1:0] SIdle = 2'd0, SRun = 2'd1, SDone = 2'd2, SFault = 2'd3;
  logic [1:0]  state_q;
  logic        running, start, abort_req;
  logic [31:0] prog_addr_q, prog_len_q;
  logic [1:0]  irq_en_q;
  logic        abort_q, halted_q;
  logic        fault_q;
  logic [3:0]  fault_code_q;
  logic [31:0] fault_pc_q, fault_addr_q, abort_pc_q;
  assign running = state_q == SRun;

  // Windows.
  logic [NumWindows*32-1:0] win_base_q, win_limit_q;
  logic [NumWindows-1:0]    win_rd_q, win_wr_q;

  // ---------------------------------------------------------------------------
  // Fetch and decode.
  logic         f_halt, f_fault, f_quiet, f_wait_mem, all_idle;
  logic [3:0]   f_code;
  logic [31:0]  f_pc, f_addr, f_next_pc;
  logic [255:0] f_insn;
  logic         ld_push, cq_push, st_push, ld_full, cq_full, st_full;

  tpu_core_fetch #(
    .N          (N),
    .EnableBf16 (EnableBf16),
    .UbRows     (UbRows),
    .WbRows     (WbRows),
    .AccRows    (AccRows),
    .VpRows     (VpRows),
    .IdWidth    (IdWidth)
  ) u_fetch (
    .clk_i             (clk_i),
    .rst_ni            (rst_ni),
    .start_i           (start),
    .prog_addr_i       (prog_addr_q),
    .prog_len_i        (prog_len_q),
    .stop_i            (fault_q || abort_q),
    .idle_i            (all_idle),
    .halt_o            (f_halt),
    .fault_o           (f_fault),
    .fault_code_o      (f_code),
    .fault_pc_o        (f_pc),
    .fault_addr_o      (f_addr),
    .quiet_o           (f_quiet),
    .wait_mem_o        (f_wait_mem),
    .pc_o              (f_next_pc),
    .insn_o            (f_insn),
    .ld_push_o         (ld_push),
    .ld_full_i         (ld_full),
    .cq_push_o         (cq_push),
    .cq_full_i         (cq_full),
    .st_push_o         (st_push),
    .st_full_i         (st_full),
    .m_fetch_arvalid_o (m_fetch_arvalid_o),
    .m_fetch_arready_i (m_fetch_arready_i),
    .m_fetch_arid_o    (m_fetch_arid_o),
    .m_fetch_araddr_o  (m_fetch_araddr_o),
    .m_fetch_arlen_o   (m_fetch_arlen_o),
    .m_fetch_rvalid_i  (m_fetch_rvalid_i),
    .m_fetch_rready_o  (m_fetch_rready_o),
    .m_fetch_rid_i     (m_fetch_rid_i),
    .m_fetch_rdata_i   (m_fetch_rdata_i),
    .m_fetch_rresp_i   (m_fetch_rresp_i),
    .m_fetch_rlast_i   (m_fetch_rlast_i)
  );

  // ---------------------------------------------------------------------------
  // Queues: {pc, instruction}.  Each head comes from a register (tpu_core_fifo RegOut),
  // not from the LUT RAM behind a read pointer that fans out to 72 cells: the store
  // queue's head feeds the store engine's start and the UB read address it picks (the
  // ULX3S's routed critical path in session 23), the load queue's the load engine's DMA
  // descriptor (session 24's).
  logic         ld_pop, cq_pop, st_pop, ld_empty, cq_empty, st_empty;
  logic [287:0] ld_head, cq_head, st_head;
  localparam bit QueueRegOut = QueueDepth <= 16;  // tpu_core_fifo's head register

  tpu_core_fifo #(.Width(288), .Depth(QueueDepth), .RegOut(QueueRegOut)) u_ldq (
    .clk_i (clk_i), .rst_ni (rst_ni), .flush_i (1'b0),
    .push_i (ld_push), .data_i ({f_next_pc, f_insn}), .full_o (ld_full),
    .pop_i (ld_pop), .data_o (ld_head), .empty_o (ld_empty)
  );
  tpu_core_fifo #(.Width(288), .Depth(QueueDepth), .RegOut(QueueRegOut)) u_cq (
    .clk_i (clk_i), .rst_ni (rst_ni), .flush_i (1'b0),
    .push_i (cq_push), .data_i ({f_next_pc, f_insn}), .full_o (cq_full),
    .pop_i (cq_pop), .data_o (cq_head), .empty_o (cq_empty)
  );
  tpu_core_fifo #(.Width(288), .Depth(QueueDepth), .RegOut(QueueRegOut)) u_stq (
    .clk_i (clk_i), .rst_ni (rst_ni), .flush_i (1'b0),
    .push_i (st_push), .data_i ({f_next_pc, f_insn}), .full_o (st_full),
    .pop_i (st_pop), .data_o (st_head), .empty_o (st_empty)
  );

  // ---------------------------------------------------------------------------
  // Token counters: 0 load->compute, 1 compute->load, 2 compute->store, 3 store->compute.
  // Decode keeps every counter within 0..65535 in program order; the queues may run
  // up to QueueDepth pops behind, hence one guard bit.
  logic [4*17-1:0] tok_q, tok_d;
  logic [3:0]      tok_pop, tok_avail;
  logic [4*17-1:0] tok_push;          // tokens given this cycle, per counter
  always_comb begin
    for (int c = 0; c < 4; c++) begin
      tok_d[c*17 +: 17] = tok_q[c*17 +: 17] + tok_push[c*17 +: 17] - 17'(tok_pop[c]);
      tok_avail[c]      = tok_q[c*17 +: 17] != '0;
    end
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni)    tok_q <= '0;
    else if (start) tok_q <= '0;
    else            tok_q <= tok_d;
  end

  // ---------------------------------------------------------------------------
  // Buffers.
  logic              ld_we, act_we;
  logic [1:0]        ld_wbuf;
  logic [15:0]       ld_waddr, act_waddr, mm_rnext, st_rnext, wb_rnext, vp_rnext;
  logic [15:0]       mm_rnextb, st_rnextb;
  logic              mm_rpick, st_rpick;
  logic [RowBytes*8-1:0] ld_wdata;
  logic [UbBits-1:0] act_wdata, mm_rdata, st_rdata, wb_rdata;
  logic [N*32-1:0]   vp_rdata;

  // The read ports take the row of the next cycle (tpu_core_ram, docs/core.md).
  tpu_core_ram #(.Rows(UbRows), .Width(UbBits), .NumWrite(2), .NumRead(2)) u_ub (
    .clk_i    (clk_i),
    .we0_i    (ld_we && ld_wbuf == tpu_isa_pkg::BufUb),
    .waddr0_i (ld_waddr),
    .wdata0_i (ld_wdata[UbBits-1:0]),
    .we1_i    (act_we),
    .waddr1_i (act_waddr),
    .wdata1_i (act_wdata),
    .rnext0_i (mm_rnext),
    .rnextb0_i(mm_rnextb),
    .rpick0_i (mm_rpick),
    .rdata0_o (mm_rdata),
    .rnext1_i (st_rnext),
    .rnextb1_i(st_rnextb),
    .rpick1_i (st_rpick),
    .rdata1_o (st_rdata)
  );
  logic [UbBits-1:0] wb_unused;
  tpu_core_ram #(.Rows(WbRows), .Width(UbBits), .NumWrite(1), .NumRead(1)) u_wb (
    .clk_i    (clk_i),
    .we0_i    (ld_we && ld_wbuf == tpu_isa_pkg::BufWb),
    .waddr0_i (ld_waddr),
    .wdata0_i (ld_wdata[UbBits-1:0]),
    .we1_i    (1'b0),
    .waddr1_i (16'd0),
    .wdata1_i ({UbBits{1'b0}}),
    .rnext0_i (wb_rnext),
    .rnextb0_i(16'd0),
    .rpick0_i (1'b0),
    .rdata0_o (wb_rdata),
    .rnext1_i (16'd0),
    .rnextb1_i(16'd0),
    .rpick1_i (1'b0),
    .rdata1_o (wb_unused)
  );
  logic [N*32-1:0] vp_unused;
  tpu_core_ram #(.Rows(VpRows), .Width(N * 32), .NumWrite(1), .NumRead(1)) u_vp (
    .clk_i    (clk_i),
    .we0_i    (ld_we && ld_wbuf == tpu_isa_pkg::BufVp),
    .waddr0_i (ld_waddr),
    .wdata0_i (ld_wdata),
    .we1_i    (1'b0),
    .waddr1_i (16'd0),
    .wdata1_i ({(N * 32){1'b0}}),
    .rnext0_i (vp_rnext),
    .rnextb0_i(16'd0),
    .rpick0_i (1'b0),
    .rdata0_o (vp_rdata),
    .rnext1_i (16'd0),
    .rnextb1_i(16'd0),
    .rpick1_i (1'b0),
    .rdata1_o (vp_unused)
  );

  // ---------------------------------------------------------------------------
  // DMA.
  localparam int unsigned StsW = tpu_dma_pkg::StsWidth;
  logic        rd_desc_valid, rd_desc_ready, wr_desc_valid, wr_desc_ready;
  logic [31:0] rd_addr, rd_stride1, rd_stride2, wr_addr, wr_stride1, wr_stride2;
  logic [15:0] rd_len0, rd_out0, rd_count1, rd_start1, rd_step1, rd_bound1;
  logic [15:0] rd_count2, rd_start2, rd_step2, rd_bound2;
  logic [15:0] wr_len0, wr_out0, wr_count1, wr_start1, wr_step1, wr_bound1;
  logic [15:0] wr_count2, wr_start2, wr_step2, wr_bound2;
  logic [7:0]  rd_pad, wr_pad;
  logic        rd_sts_valid, rd_sts_ready, wr_sts_valid, wr_sts_ready;
  logic [StsW-1:0] rd_sts_code, wr_sts_code;
  logic [31:0] rd_sts_addr, wr_sts_addr;
  logic        m_row_valid, m_row_ready, m_row_last, m_row_err;
  logic [RowBytes*8-1:0] m_row_data, s_row_data;
  logic        s_row_valid, s_row_ready, s_row_last;

  tpu_dma #(
    .AddrWidth      (32),
    .DataWidth      (MemDataWidth),
    .IdWidth        (IdWidth),
    .AxiId          (0),
    .RowBytes       (RowBytes),
    .NumWindows     (NumWindows),
    .MaxBurst       (16),
    .ReadBufBeats   (DmaReadBeats),
    .RowQueueDepth  (DmaRowQueue),
    .WriteBufBeats  (DmaWriteBeats),
    .MaxOutstanding (32)
  ) u_dma (
    .clk_i             (clk_i),
    .rst_ni            (rst_ni),
    .win_base_i        (win_base_q),
    .win_limit_i       (win_limit_q),
    .win_rd_i          (win_rd_q),
    .win_wr_i          (win_wr_q),
    .rd_desc_valid_i   (rd_desc_valid),
    .rd_desc_ready_o   (rd_desc_ready),
    .rd_desc_addr_i    (rd_addr),
    .rd_desc_len0_i    (rd_len0),
    .rd_desc_out0_i    (rd_out0),
    .rd_desc_pad_i     (rd_pad),
    .rd_desc_count1_i  (rd_count1),
    .rd_desc_start1_i  (rd_start1),
    .rd_desc_step1_i   (rd_step1),
    .rd_desc_bound1_i  (rd_bound1),
    .rd_desc_stride1_i (rd_stride1),
    .rd_desc_count2_i  (rd_count2),
    .rd_desc_start2_i  (rd_start2),
    .rd_desc_step2_i   (rd_step2),
    .rd_desc_bound2_i  (rd_bound2),
    .rd_desc_stride2_i (rd_stride2),
    .rd_sts_valid_o    (rd_sts_valid),
    .rd_sts_ready_i    (rd_sts_ready),
    .rd_sts_code_o     (rd_sts_code),
    .rd_sts_addr_o     (rd_sts_addr),
    .m_row_valid_o     (m_row_valid),
    .m_row_ready_i     (m_row_ready),
    .m_row_data_o      (m_row_data),
    .m_row_last_o      (m_row_last),
    .m_row_err_o       (m_row_err),
    .wr_desc_valid_i   (wr_desc_valid),
    .wr_desc_ready_o   (wr_desc_ready),
    .wr_desc_addr_i    (wr_addr),
    .wr_desc_len0_i    (wr_len0),
    .wr_desc_out0_i    (wr_out0),
    .wr_desc_pad_i     (wr_pad),
    .wr_desc_count1_i  (wr_count1),
    .wr_desc_start1_i  (wr_start1),
    .wr_desc_step1_i   (wr_step1),
    .wr_desc_bound1_i  (wr_bound1),
    .wr_desc_stride1_i (wr_stride1),
    .wr_desc_count2_i  (wr_count2),
    .wr_desc_start2_i  (wr_start2),
    .wr_desc_step2_i   (wr_step2),
    .wr_desc_bound2_i  (wr_bound2),
    .wr_desc_stride2_i (wr_stride2),
    .wr_sts_valid_o    (wr_sts_valid),
    .wr_sts_ready_i    (wr_sts_ready),
    .wr_sts_code_o     (wr_sts_code),
    .wr_sts_addr_o     (wr_sts_addr),
    .s_row_valid_i     (s_row_valid),
    .s_row_ready_o     (s_row_ready),
    .s_row_data_i      (s_row_data),
    .s_row_last_i      (s_row_last),
    .m_axi_arvalid_o   (m_axi_arvalid_o),
    .m_axi_arready_i   (m_axi_arready_i),
    .m_axi_arid_o      (m_axi_arid_o),
    .m_axi_araddr_o    (m_axi_araddr_o),
    .m_axi_arlen_o     (m_axi_arlen_o),
    .m_axi_rvalid_i    (m_axi_rvalid_i),
    .m_axi_rready_o    (m_axi_rready_o),
    .m_axi_rid_i       (m_axi_rid_i),
    .m_axi_rdata_i     (m_axi_rdata_i),
    .m_axi_rresp_i     (m_axi_rresp_i),
    .m_axi_rlast_i     (m_axi_rlast_i),
    .m_axi_awvalid_o   (m_axi_awvalid_o),
    .m_axi_awready_i   (m_axi_awready_i),
    .m_axi_awid_o      (m_axi_awid_o),
    .m_axi_awaddr_o    (m_axi_awaddr_o),
    .m_axi_awlen_o     (m_axi_awlen_o),
    .m_axi_wvalid_o    (m_axi_wvalid_o),
    .m_axi_wready_i    (m_axi_wready_i),
    .m_axi_wdata_o     (m_axi_wdata_o),
    .m_axi_wstrb_o     (m_axi_wstrb_o),
    .m_axi_wlast_o     (m_axi_wlast_o),
    .m_axi_bvalid_i    (m_axi_bvalid_i),
    .m_axi_bready_o    (m_axi_bready_o),
    .m_axi_bid_i       (m_axi_bid_i),
    .m_axi_bresp_i     (m_axi_bresp_i)
  );

  // ---------------------------------------------------------------------------
  // Engines.
  logic        ld_done, st_done, ld_idle, st_idle, cq_idle, ld_tok_push, st_tok_push;
  logic [1:0]  cq_done;
  assign tok_push[0 +: 17]  = 17'(ld_tok_push);
  assign tok_push[51 +: 17] = 17'(st_tok_push);
  logic [31:0] ld_bytes, st_bytes;
  logic        ld_fault, st_fault;
  logic [3:0]  ld_fcode, st_fcode;
  logic [31:0] ld_fpc, st_fpc, ld_faddr, st_faddr;
  logic        ld_wait_tok, st_wait_tok, cq_wait_tok, ld_wait_mem, st_wait_mem;
  logic        cq_wait_w, mxu_row;

  tpu_core_load #(.N(N), .RowBytes(RowBytes)) u_load (
    .clk_i          (clk_i),
    .rst_ni         (rst_ni),
    .q_valid_i      (!ld_empty),
    .q_data_i       (ld_head),
    .q_pop_o        (ld_pop),
    .skip_i         (fault_q),
    .skip_pc_i      (fault_pc_q),
    .skip_all_i     (abort_q),
    .tok_avail_i    (tok_avail[1]),
    .tok_pop_o      (tok_pop[1]),
    .tok_push_o     (ld_tok_push),
    .desc_valid_o   (rd_desc_valid),
    .desc_ready_i   (rd_desc_ready),
    .desc_addr_o    (rd_addr),
    .desc_len0_o    (rd_len0),
    .desc_out0_o    (rd_out0),
    .desc_pad_o     (rd_pad),
    .desc_count1_o  (rd_count1),
    .desc_start1_o  (rd_start1),
    .desc_step1_o   (rd_step1),
    .desc_bound1_o  (rd_bound1),
    .desc_stride1_o (rd_stride1),
    .desc_count2_o  (rd_count2),
    .desc_start2_o  (rd_start2),
    .desc_step2_o   (rd_step2),
    .desc_bound2_o  (rd_bound2),
    .desc_stride2_o (rd_stride2),
    .sts_valid_i    (rd_sts_valid),
    .sts_ready_o    (rd_sts_ready),
    .sts_code_i     (rd_sts_code),
    .sts_addr_i     (rd_sts_addr),
    .row_valid_i    (m_row_valid),
    .row_ready_o    (m_row_ready),
    .row_data_i     (m_row_data),
    .row_last_i     (m_row_last),
    .row_err_i      (m_row_err),
    .we_o           (ld_we),
    .wbuf_o         (ld_wbuf),
    .waddr_o        (ld_waddr),
    .wdata_o        (ld_wdata),
    .done_o         (ld_done),
    .done_bytes_o   (ld_bytes),
    .fault_o        (ld_fault),
    .fault_code_o   (ld_fcode),
    .fault_pc_o     (ld_fpc),
    .fault_addr_o   (ld_faddr),
    .wait_token_o   (ld_wait_tok),
    .wait_mem_o     (ld_wait_mem),
    .idle_o         (ld_idle)
  );

  tpu_core_store #(.UbBits(UbBits), .RowBytes(RowBytes)) u_store (
    .clk_i          (clk_i),
    .rst_ni         (rst_ni),
    .q_valid_i      (!st_empty),
    .q_data_i       (st_head),
    .q_pop_o        (st_pop),
    .skip_i         (fault_q),
    .skip_pc_i      (fault_pc_q),
    .skip_all_i     (abort_q),
    .tok_avail_i    (tok_avail[2]),
    .tok_pop_o      (tok_pop[2]),
    .tok_push_o     (st_tok_push),
    .desc_valid_o   (wr_desc_valid),
    .desc_ready_i   (wr_desc_ready),
    .desc_addr_o    (wr_addr),
    .desc_len0_o    (wr_len0),
    .desc_out0_o    (wr_out0),
    .desc_pad_o     (wr_pad),
    .desc_count1_o  (wr_count1),
    .desc_start1_o  (wr_start1),
    .desc_step1_o   (wr_step1),
    .desc_bound1_o  (wr_bound1),
    .desc_stride1_o (wr_stride1),
    .desc_count2_o  (wr_count2),
    .desc_start2_o  (wr_start2),
    .desc_step2_o   (wr_step2),
    .desc_bound2_o  (wr_bound2),
    .desc_stride2_o (wr_stride2),
    .sts_valid_i    (wr_sts_valid),
    .sts_ready_o    (wr_sts_ready),
    .sts_code_i     (wr_sts_code),
    .sts_addr_i     (wr_sts_addr),
    .row_valid_o    (s_row_valid),
    .row_ready_i    (s_row_ready),
    .row_data_o     (s_row_data),
    .row_last_o     (s_row_last),
    .ub_rnext_o     (st_rnext),
    .ub_rnextb_o    (st_rnextb),
    .ub_rpick_o     (st_rpick),
    .ub_rdata_i     (st_rdata),
    .done_o         (st_done),
    .done_bytes_o   (st_bytes),
    .fault_o        (st_fault),
    .fault_code_o   (st_fcode),
    .fault_pc_o     (st_fpc),
    .fault_addr_o   (st_faddr),
    .wait_token_o   (st_wait_tok),
    .wait_mem_o     (st_wait_mem),
    .idle_o         (st_idle)
  );

  tpu_core_compute #(
    .N          (N),
    .EnableBf16 (EnableBf16),
    .AccRows    (AccRows),
    .WideLanes  (WideLanes),
    .SimGate    (SimGate),
    .AccReadPort(AccReadPort),
    .VpuLanes   (VpuLanes)
  ) u_compute (
    .clk_i          (clk_i),
    .rst_ni         (rst_ni),
    .q_valid_i      (!cq_empty),
    .q_data_i       (cq_head),
    .q_pop_o        (cq_pop),
    .skip_i         (fault_q),
    .skip_pc_i      (fault_pc_q),
    .skip_all_i     (abort_q),
    .l2c_avail_i    (tok_avail[0]),
    .s2c_avail_i    (tok_avail[3]),
    .l2c_pop_o      (tok_pop[0]),
    .s2c_pop_o      (tok_pop[3]),
    .c2l_push_o     (tok_push[17 +: 17]),
    .c2s_push_o     (tok_push[34 +: 17]),
    .ub_rnext_o     (mm_rnext),
    .ub_rnextb_o    (mm_rnextb),
    .ub_rpick_o     (mm_rpick),
    .ub_rdata_i     (mm_rdata),
    .ub_we_o        (act_we),
    .ub_waddr_o     (act_waddr),
    .ub_wdata_o     (act_wdata),
    .wb_rnext_o     (wb_rnext),
    .wb_rdata_i     (wb_rdata),
    .vp_rnext_o     (vp_rnext),
    .vp_rdata_i     (vp_rdata),
    .done_o         (cq_done),
    .mxu_row_o      (mxu_row),
    .wait_token_o   (cq_wait_tok),
    .wait_weights_o (cq_wait_w),
    .idle_o         (cq_idle)
  );

  assign all_idle = ld_empty && cq_empty && st_empty && ld_idle && st_idle && cq_idle;

  // ---------------------------------------------------------------------------
  // Faults: the lowest pc wins.  At most one fault per source per cycle.  The pcs are
  // compared with each other and with fault_pc_q all at once, and the results select: one
  // 32-bit compare deep instead of three in a row (the ULX3S's clock, docs/boards.md).
  logic        nf_valid, nf_lt_q;
  logic [3:0]  nf_code;
  logic [31:0] nf_pc, nf_addr;
  logic        ld_lt_f, st_lt_f, st_lt_ld, f_lt_q, ld_lt_q, st_lt_q, sel_ld, sel_st;
  assign ld_lt_f  = ld_fpc < f_pc;
  assign st_lt_f  = st_fpc < f_pc;
  assign st_lt_ld = st_fpc < ld_fpc;
  assign f_lt_q   = f_pc < fault_pc_q;
  assign ld_lt_q  = ld_fpc < fault_pc_q;
  assign st_lt_q  = st_fpc < fault_pc_q;
  assign sel_ld   = ld_fault && (!f_fault || ld_lt_f);
  assign sel_st   = st_fault && (sel_ld ? st_lt_ld : (!f_fault || st_lt_f));
  assign nf_valid = f_fault || ld_fault || st_fault;
  always_comb begin
    nf_code = f_code; nf_pc = f_pc; nf_addr = f_addr; nf_lt_q = f_lt_q;
    if (sel_ld) begin
      nf_code = ld_fcode; nf_pc = ld_fpc; nf_addr = ld_faddr; nf_lt_q = ld_lt_q;
    end
    if (sel_st) begin
      nf_code = st_fcode; nf_pc = st_fpc; nf_addr = st_faddr; nf_lt_q = st_lt_q;
    end
  end

  logic finish;
  assign finish = running && (halted_q || fault_q || abort_q) && all_idle && f_quiet;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q      <= SIdle;
      abort_q      <= 1'b0;
      halted_q     <= 1'b0;
      fault_q      <= 1'b0;
      fault_code_q <= '0;
      fault_pc_q   <= '0;
      fault_addr_q <= '0;
      abort_pc_q   <= '0;
    end else if (start) begin
      state_q      <= SRun;
      abort_q      <= 1'b0;
      halted_q     <= 1'b0;
      fault_q      <= 1'b0;
      fault_code_q <= '0;
      fault_pc_q   <= '0;
      fault_addr_q <= '0;
    end else begin
      if (running && abort_req && !abort_q) begin
        abort_q    <= 1'b1;
        abort_pc_q <= f_next_pc;
      end
      if (f_halt) halted_q <= 1'b1;
      if (running && nf_valid && (!fault_q || nf_lt_q)) begin
        fault_q      <= 1'b1;
        fault_code_q <= nf_code;
        fault_pc_q   <= nf_pc;
        fault_addr_q <= nf_addr;
      end
      if (finish) begin
        if (abort_q) begin
          state_q      <= SFault;
          fault_q      <= 1'b1;
          fault_code_q <= tpu_isa_pkg::FaultAborted;
          fault_pc_q   <= abort_pc_q;
          fault_addr_q <= '0;
        end else begin
          state_q <= fault_q ? SFault : SDone;
        end
      end
    end
  end

  // ---------------------------------------------------------------------------
  // TPU register page.
  logic tw, tr;
  assign tw        = tpu_reg_req_i && tpu_reg_we_i;
  assign tr        = tpu_reg_req_i && !tpu_reg_we_i;
  assign start     = tw && tpu_reg_addr_i == tpu_isa_pkg::TpuCtrl && tpu_reg_wdata_i[0] &&
                     !running;
  assign abort_req = tw && tpu_reg_addr_i == tpu_isa_pkg::TpuCtrl && tpu_reg_wdata_i[1];

  // CONFIG_NAME: the parameter string is right-aligned; byte i of the register is char i.
  function automatic logic [127:0] name_bytes(input logic [127:0] s);
    logic [127:0] v;
    int len;
    len = 0;
    for (int i = 0; i < 16; i++) if (s[i*8 +: 8] != 8'd0) len = i + 1;
    v = '0;
    for (int i = 0; i < 16; i++) if (i < len) v[i*8 +: 8] = s[(len-1-i)*8 +: 8];
    name_bytes = v;
  endfunction
  localparam logic [127:0] NameLe = name_bytes(ConfigName);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      prog_addr_q <= '0;
      prog_len_q  <= '0;
      irq_en_q    <= '0;
      win_base_q  <= '0;
      win_limit_q <= '0;
      win_rd_q    <= '0;
      win_wr_q    <= '0;
    end else if (tw) begin
      if (tpu_reg_addr_i == tpu_isa_pkg::TpuProgAddr) prog_addr_q <= tpu_reg_wdata_i;
      if (tpu_reg_addr_i == tpu_isa_pkg::TpuProgLen)  prog_len_q  <= tpu_reg_wdata_i;
      if (tpu_reg_addr_i == tpu_isa_pkg::TpuIrqEn)    irq_en_q    <= tpu_reg_wdata_i[1:0];
      for (int w = 0; w < NumWindows; w++) begin
        if (tpu_reg_addr_i == tpu_isa_pkg::TpuWinBase0 + 12'(16 * w))
          win_base_q[w*32 +: 32] <= tpu_reg_wdata_i;
        if (tpu_reg_addr_i == tpu_isa_pkg::TpuWinLimit0 + 12'(16 * w))
          win_limit_q[w*32 +: 32] <= tpu_reg_wdata_i;
        if (tpu_reg_addr_i == tpu_isa_pkg::TpuWinPerm0 + 12'(16 * w)) begin
          win_rd_q[w] <= tpu_reg_wdata_i[0];
          win_wr_q[w] <= tpu_reg_wdata_i[1];
        end
      end
    end
  end

  logic [31:0] trd;
  always_comb begin
    trd = '0;
    case (tpu_reg_addr_i)
      tpu_isa_pkg::TpuId:          trd = 32'h50545055;
      tpu_isa_pkg::TpuRtlVersion:  trd = tpu_isa_pkg::RtlVersion;
      tpu_isa_pkg::TpuArray:       trd = {15'd0, EnableBf16 != 0, 16'(N)};
      tpu_isa_pkg::TpuUbRows:      trd = 32'(UbRows);
      tpu_isa_pkg::TpuWbRows:      trd = 32'(WbRows);
      tpu_isa_pkg::TpuAccRows:     trd = 32'(AccRows);
      tpu_isa_pkg::TpuVpRows:      trd = 32'(VpRows);
      tpu_isa_pkg::TpuMemKb:       trd = 32'(MemKb);
      tpu_isa_pkg::TpuConfigName:          trd = NameLe[31:0];
      tpu_isa_pkg::TpuConfigName + 12'd4:  trd = NameLe[63:32];
      tpu_isa_pkg::TpuConfigName + 12'd8:  trd = NameLe[95:64];
      tpu_isa_pkg::TpuConfigName + 12'd12: trd = NameLe[127:96];
      tpu_isa_pkg::TpuNumWindows:  trd = 32'(NumWindows);
      tpu_isa_pkg::TpuMaxPayload:  trd = 32'(MaxPayload);
      tpu_isa_pkg::TpuStatus:      trd = {29'd0, state_q == SFault, state_q == SDone, running};
      tpu_isa_pkg::TpuProgAddr:    trd = prog_addr_q;
      tpu_isa_pkg::TpuProgLen:     trd = prog_len_q;
      tpu_isa_pkg::TpuFaultCode:   trd = (state_q == SFault) ? 32'(fault_code_q) : 32'd0;
      tpu_isa_pkg::TpuFaultPc:     trd = (state_q == SFault) ? fault_pc_q : 32'd0;
      tpu_isa_pkg::TpuFaultAddr:   trd = (state_q == SFault) ? fault_addr_q : 32'd0;
      tpu_isa_pkg::TpuIrqEn:       trd = {30'd0, irq_en_q};
      default: ;
    endcase
    for (int w = 0; w < NumWindows; w++) begin
      if (tpu_reg_addr_i == tpu_isa_pkg::TpuWinBase0 + 12'(16 * w))  trd = win_base_q[w*32 +: 32];
      if (tpu_reg_addr_i == tpu_isa_pkg::TpuWinLimit0 + 12'(16 * w)) trd = win_limit_q[w*32 +: 32];
      if (tpu_reg_addr_i == tpu_isa_pkg::TpuWinPerm0 + 12'(16 * w))
        trd = {30'd0, win_wr_q[w], win_rd_q[w]};
    end
  end

  always_ff @(posedge clk_i) begin
    if (tr) tpu_reg_rdata_o <= trd;
  end

  assign irq_o = irq_en_q[0] && (state_q == SDone || state_q == SFault);
  assign irq_link_en_o = irq_en_q[1];

  // ---------------------------------------------------------------------------
  // Performance counters (cleared by START, counting while the program runs).
  logic [NumCnt*64-1:0] cnt_q;
  logic [NumCnt*32-1:0] inc;
  always_comb begin
    inc = '0;
    inc[tpu_isa_pkg::CntCycles*32 +: 32]          = 32'(1);
    inc[tpu_isa_pkg::CntMxuRows*32 +: 32]         = 32'(mxu_row);
    inc[tpu_isa_pkg::CntLoadInsns*32 +: 32]       = 32'(ld_done);
    inc[tpu_isa_pkg::CntComputeInsns*32 +: 32]    = 32'(cq_done);
    inc[tpu_isa_pkg::CntStoreInsns*32 +: 32]      = 32'(st_done);
    inc[tpu_isa_pkg::CntLoadWaitToken*32 +: 32]   = 32'(ld_wait_tok);
    inc[tpu_isa_pkg::CntComputeWaitToken*32 +: 32] = 32'(cq_wait_tok);
    inc[tpu_isa_pkg::CntStoreWaitToken*32 +: 32]  = 32'(st_wait_tok);
    inc[tpu_isa_pkg::CntLoadWaitMem*32 +: 32]     = 32'(ld_wait_mem);
    inc[tpu_isa_pkg::CntStoreWaitMem*32 +: 32]    = 32'(st_wait_mem);
    inc[tpu_isa_pkg::CntComputeWaitWeights*32 +: 32] = 32'(cq_wait_w);
    inc[tpu_isa_pkg::CntFetchWaitMem*32 +: 32]    = 32'(f_wait_mem);
    inc[tpu_isa_pkg::CntComputeIdle*32 +: 32]     = 32'(cq_empty && cq_idle);
    inc[tpu_isa_pkg::CntBytesRead*32 +: 32]       = (ld_done || ld_fault) ? ld_bytes : 32'd0;
    inc[tpu_isa_pkg::CntBytesWritten*32 +: 32]    = st_done ? st_bytes : 32'd0;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cnt_q <= '0;
    end else if (start) begin
      cnt_q <= '0;
    end else if (running) begin
      for (int i = 0; i < NumCnt; i++) cnt_q[i*64 +: 64] <= cnt_q[i*64 +: 64] + 64'(inc[i*32 +: 32]);
    end
  end

  // CNT page: counter i low word at 8i (latches the high word), high word at 8i+4.
  logic [31:0] hi_latch_q;
  logic [4:0]  ci;
  logic        cr;
  assign ci = cnt_reg_addr_i[7:3];
  assign cr = cnt_reg_req_i && !cnt_reg_we_i && cnt_reg_addr_i[11:8] == '0;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      hi_latch_q <= '0;
    end else if (cr && !cnt_reg_addr_i[2] && 32'(ci) < NumCnt) begin
      hi_latch_q <= cnt_q[32'(ci)*64 + 32 +: 32];
    end
  end
  always_ff @(posedge clk_i) begin
    if (cnt_reg_req_i && !cnt_reg_we_i) begin
      cnt_reg_rdata_o <= '0;
      if (cr && 32'(ci) < NumCnt)
        cnt_reg_rdata_o <= cnt_reg_addr_i[2] ? hi_latch_q : cnt_q[32'(ci)*64 +: 32];
    end
  end

  // Assertions
`ifndef SYNTHESIS
  // Immediate assertions in a clocked block, not properties (docs/verification.md).
  always_ff @(posedge clk_i) begin : checks
    if (rst_ni) begin
      a_tok_nonneg: assert ((tok_pop & ~tok_avail) == '0)
        else $error("tpu_core: token popped from an empty counter");
      a_no_dispatch_idle: assert (!((ld_push || cq_push || st_push) && !running))
        else $error("tpu_core: dispatch while no program runs");
    end
  end
`endif

  logic unused;
  assign unused = ^{cnt_reg_wdata_i, cnt_reg_addr_i[1:0], wb_unused, vp_unused, m_fetch_rid_i, EW};

endmodule
