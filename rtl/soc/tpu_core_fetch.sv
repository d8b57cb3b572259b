// SPDX-License-Identifier: Apache-2.0
// tpu_core_fetch: instruction prefetch over AXI, decode with every static check of the ISA,
// decode-side token counts and weight tracking, dispatch to the three queues, SYNC/HALT.
`default_nettype none

// One 256-bit AXI beat is one instruction.  Bursts of up to MaxFetchBurst beats are
// issued while the prefetch buffer has room for all their beats (credits), so rready is
// always high.  Decode takes the oldest fetched instruction, checks it (docs/isa.md,
// "Static rules"), and either dispatches it to its queue, waits at a barrier, or reports
// a static fault and stops.  Priority inside one instruction: BAD_OPCODE, BAD_FIELD,
// NO_WEIGHTS, BUF_RANGE, TOKEN (docs/core.md).
// The checks that depend on the instruction alone (opcode, fields, buffer ranges: the
// products and sums) are made as a beat arrives and kept as three flag bits beside it in
// the prefetch buffer; decode adds the ones that depend on its state (weights loaded,
// tokens).  Decode's path is then the buffer read, a few gates and the dispatch.  The
// arithmetic has two cycles of its own: an arriving beat is registered (rd_q) together
// with the products of its range checks, and the sums and comparisons read that register
// and write the buffer a cycle later.  A fetch burst's first instruction thus reaches
// decode two cycles later than the beat arrives (the check stage, then a head register
// that decode reads instead of the buffer's memory); both hold at most one beat, which
// credit_q already counts, so the buffer still cannot overflow.
module tpu_core_fetch #(
  parameter int unsigned N          = 16,    // array size
  parameter int unsigned EnableBf16 = 1,     // bf16 supported
  parameter int unsigned UbRows     = 4096,  // unified buffer rows
  parameter int unsigned WbRows     = 1024,  // weight buffer rows
  parameter int unsigned AccRows    = 2048,  // accumulator rows
  parameter int unsigned VpRows     = 256,   // vector-parameter rows
  parameter int unsigned IdWidth    = 4,     // AXI ID bits
  parameter int unsigned Depth      = 8,     // prefetch buffer, instructions (power of two)
  parameter int unsigned MaxFetchBurst = 4   // beats per fetch burst
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  // Control
  input  logic                 start_i,       // pulse: start at prog_addr_i, prog_len_i
  input  logic [31:0]          prog_addr_i,
  input  logic [31:0]          prog_len_i,
  input  logic                 stop_i,        // a fault or an abort: stop decoding
  input  logic                 idle_i,        // every dispatched instruction has completed
  output logic                 halt_o,        // pulse: HALT reached with everything idle
  output logic                 fault_o,       // pulse: static fault at decode
  output logic [3:0]           fault_code_o,
  output logic [31:0]          fault_pc_o,
  output logic [31:0]          fault_addr_o,
  output logic                 quiet_o,       // no fetch burst outstanding
  output logic                 wait_mem_o,    // decode waits for an instruction
  output logic [31:0]          pc_o,          // next pc to decode
  // Dispatch
  output logic [255:0]         insn_o,
  output logic                 ld_push_o,
  input  logic                 ld_full_i,
  output logic                 cq_push_o,
  input  logic                 cq_full_i,
  output logic                 st_push_o,
  input  logic                 st_full_i,
  // AXI read master
  output logic                 m_fetch_arvalid_o,
  input  logic                 m_fetch_arready_i,
  output logic [IdWidth-1:0]   m_fetch_arid_o,
  output logic [31:0]          m_fetch_araddr_o,
  output logic [7:0]           m_fetch_arlen_o,
  input  logic                 m_fetch_rvalid_i,
  output logic                 m_fetch_rready_o,
  input  logic [IdWidth-1:0]   m_fetch_rid_i,
  input  logic [255:0]         m_fetch_rdata_i,
  input  logic [1:0]           m_fetch_rresp_i,
  input  logic                 m_fetch_rlast_i
);

  localparam int unsigned EW = (EnableBf16 != 0) ? 2 : 1;   // bytes per lane
  localparam int unsigned CW = $clog2(Depth + 1);

  // ---------------------------------------------------------------------------
  // Prefetch.  fa_q: the address of the next instruction to request, remain_q: the
  // instructions not yet requested (both kept as registers, so that a burst's length is
  // compares of registers, not sums); credit_q: beats requested and not yet taken by
  // decode (outstanding, in the check stage, buffered or in the head register).
  logic          run_q, run_d;           // fetching and decoding
  logic [31:0]   base_q, len_q;
  logic [31:0]   fa_q, fa_d, remain_q, remain_d;
  logic [31:0]   dpc_q, dpc_d;
  logic [CW-1:0] credit_q, credit_d;
  logic [8:0]    out_q, out_d;           // beats requested, not yet received
  logic          ar_valid_q, ar_valid_d;
  logic [31:0]   ar_addr_q, ar_addr_d;
  logic [7:0]    ar_len_q, ar_len_d;

  logic [7:0]    to_page, blen;
  logic          r_fire, buf_push, buf_pop, buf_empty, buf_full;
  logic [259:0]  buf_data;   // {bad_op, bad_field, bad_range, rresp error, instruction}
  logic          fifo_pop, fifo_empty;
  logic [259:0]  fifo_data;

  assign to_page = 8'd128 - {1'b0, fa_q[11:5]};

  always_comb begin
    blen = 8'(MaxFetchBurst);
    if (remain_q < 32'(blen)) blen = remain_q[7:0];
    if (to_page < blen) blen = to_page;
  end

  assign r_fire   = m_fetch_rvalid_i;          // rready is always high

  // The check stage: rv_q marks a beat of the running program in rd_q.  The data
  // registers take every cycle (no enable): only rv_q says whether they hold a beat.
  logic          rv_q, rv_d;
  logic [255:0]  rd_q;
  logic          rerr_q;
  assign rv_d     = r_fire && run_q && (out_q > 9'(0)) && !stop_i && !start_i;
  assign buf_push = rv_q && run_q && !stop_i;

  tpu_core_fifo #(.Width(260), .Depth(Depth)) u_buf (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .flush_i (start_i),
    .push_i  (buf_push),
    .data_i  ({s_bad_op, s_bad_field, s_bad_range, rerr_q, rd_q}),
    .full_o  (buf_full),
    .pop_i   (fifo_pop),
    .data_o  (fifo_data),
    .empty_o (fifo_empty)
  );

  // The head register: decode reads the oldest instruction from a register, not from the
  // buffer's memory (hv_q: it holds one).  It is refilled from the buffer when empty or
  // when decode takes its instruction (buf_pop), so decode still takes one per cycle.  It
  // is one more place for a fetched beat: credit_q counts beats until decode takes them,
  // so the buffer still cannot overflow.
  logic          hv_q, hv_d;
  logic [259:0]  hd_q, hd_d;
  assign fifo_pop  = !fifo_empty && (!hv_q || buf_pop) && !start_i;
  assign hv_d      = !start_i && (fifo_pop || (hv_q && !buf_pop));
  assign hd_d      = fifo_pop ? fifo_data : hd_q;
  assign buf_data  = hd_q;
  assign buf_empty = !hv_q;

  // ---------------------------------------------------------------------------
  // Decode fields.  The static checks read the registered beat (rin) and the products
  // made from the arriving one (m_fetch_rdata_i); decode reads the head of the prefetch
  // buffer (in).
  logic [255:0] in, rin;
  assign in  = buf_data[255:0];
  assign rin = rd_q;
  logic [3:0]  op, r_op;
  logic        pop_prev, pop_next, push_prev, push_next;
  logic        r_pop_prev, r_pop_next, r_push_prev, r_push_next;
  assign op          = in[tpu_isa_pkg::CommonOpLsb +: 4];
  assign pop_prev    = in[tpu_isa_pkg::CommonPopPrevLsb];
  assign pop_next    = in[tpu_isa_pkg::CommonPopNextLsb];
  assign push_prev   = in[tpu_isa_pkg::CommonPushPrevLsb];
  assign push_next   = in[tpu_isa_pkg::CommonPushNextLsb];
  assign r_op        = rin[tpu_isa_pkg::CommonOpLsb +: 4];
  assign r_pop_prev  = rin[tpu_isa_pkg::CommonPopPrevLsb];
  assign r_pop_next  = rin[tpu_isa_pkg::CommonPopNextLsb];
  assign r_push_prev = rin[tpu_isa_pkg::CommonPushPrevLsb];
  assign r_push_next = rin[tpu_isa_pkg::CommonPushNextLsb];

  // LOAD / STORE
  logic [1:0]  d_buf;
  logic [7:0]  d_pad;
  logic [15:0] d_row;
  logic [11:0] d_len0, d_out0, d_count1, d_count2;
  assign d_buf    = rin[tpu_isa_pkg::DmaBufLsb +: 2];
  assign d_pad    = rin[tpu_isa_pkg::DmaPadLsb +: 8];
  assign d_row    = rin[tpu_isa_pkg::DmaRowLsb +: 16];
  assign d_len0   = rin[tpu_isa_pkg::DmaLen0Lsb +: 12];
  assign d_out0   = rin[tpu_isa_pkg::DmaOut0Lsb +: 12];
  assign d_count1 = rin[tpu_isa_pkg::DmaCount1Lsb +: 12];
  assign d_count2 = rin[tpu_isa_pkg::DmaCount2Lsb +: 12];

  // MATMUL
  logic        m_bf16, m_new_w;
  logic [7:0]  m_zp;
  logic [15:0] m_urow, m_rows, m_arow, m_wrow;
  logic        r_bf16, r_new_w;
  assign m_bf16  = in[tpu_isa_pkg::MatmulBf16Lsb];
  assign m_new_w = in[tpu_isa_pkg::MatmulNewWLsb];
  assign r_bf16  = rin[tpu_isa_pkg::MatmulBf16Lsb];
  assign r_new_w = rin[tpu_isa_pkg::MatmulNewWLsb];
  assign m_zp    = rin[tpu_isa_pkg::MatmulZpLsb +: 8];
  assign m_urow  = rin[tpu_isa_pkg::MatmulUrowLsb +: 16];
  assign m_rows  = rin[tpu_isa_pkg::MatmulRowsLsb +: 16];
  assign m_arow  = rin[tpu_isa_pkg::MatmulArowLsb +: 16];
  assign m_wrow  = rin[tpu_isa_pkg::MatmulWrowLsb +: 16];

  // ACTIVATE
  logic [1:0]  a_out, a_pool;
  logic        a_relu, a_relu6;
  logic [15:0] a_arow, a_urow, a_vrow;
  logic [7:0]  a_lo, a_hi;
  logic [11:0] a_count1, a_count2;
  logic [3:0]  a_win1, a_win2;
  assign a_out    = rin[tpu_isa_pkg::ActivateOutLsb +: 2];
  assign a_pool   = rin[tpu_isa_pkg::ActivatePoolLsb +: 2];
  assign a_relu   = rin[tpu_isa_pkg::ActivateReluLsb];
  assign a_relu6  = rin[tpu_isa_pkg::ActivateRelu6Lsb];
  assign a_arow   = rin[tpu_isa_pkg::ActivateArowLsb +: 16];
  assign a_urow   = rin[tpu_isa_pkg::ActivateUrowLsb +: 16];
  assign a_vrow   = rin[tpu_isa_pkg::ActivateVrowLsb +: 16];
  assign a_lo     = rin[tpu_isa_pkg::ActivateClampLoLsb +: 8];
  assign a_hi     = rin[tpu_isa_pkg::ActivateClampHiLsb +: 8];
  assign a_count1 = rin[tpu_isa_pkg::ActivateCount1Lsb +: 12];
  assign a_count2 = rin[tpu_isa_pkg::ActivateCount2Lsb +: 12];
  assign a_win1   = rin[tpu_isa_pkg::ActivateWin1Lsb +: 4];
  assign a_win2   = rin[tpu_isa_pkg::ActivateWin2Lsb +: 4];

  // The range checks multiply instruction fields.  Every product is only compared with a
  // buffer size, so operands are cut to the bits that size needs: a product whose cut-off
  // high bits are not all zero (and whose other operand is not zero) is over every limit
  // ("big").  The products that remain are written as shifts and adds, which synthesis
  // keeps in logic: the DSPs of a small FPGA (8 SB_MAC16 on the iCE40UP5K) go to the array.
  // The results, and so the faults, are those of the full products.
  localparam int unsigned MaxBuf = (UbRows > WbRows) ? ((UbRows > VpRows) ? UbRows : VpRows)
                                                      : ((WbRows > VpRows) ? WbRows : VpRows);
  localparam int unsigned RW = ($clog2(MaxBuf + 1) < 12) ? $clog2(MaxBuf + 1) : 12;  // rows
  localparam int unsigned TW = ($clog2(AccRows) < 16) ? $clog2(AccRows) : 16;      // ACC terms
  // x * y (the low w bits of y) by shifts and adds, summed as a tree (four adders deep).
  function automatic logic [31:0] mul_sa(input logic [15:0] x, input logic [15:0] y,
                                         input int unsigned w);
    logic [16*32-1:0] p;  // partial products, then partial sums, 32 bits each
    for (int i = 0; i < 16; i++)
      p[i*32 +: 32] = (i < w && y[i]) ? (32'(x) << i) : 32'd0;
    for (int i = 0; i < 8; i++) p[i*32 +: 32] = p[2*i*32 +: 32] + p[(2*i+1)*32 +: 32];
    for (int i = 0; i < 4; i++) p[i*32 +: 32] = p[2*i*32 +: 32] + p[(2*i+1)*32 +: 32];
    for (int i = 0; i < 2; i++) p[i*32 +: 32] = p[2*i*32 +: 32] + p[(2*i+1)*32 +: 32];
    mul_sa = p[31:0] + p[63:32];
  endfunction

  // The products, from the arriving beat (its fields carry the prefix p_).
  logic [3:0]  p_op;
  logic [11:0] p_a_count1, p_a_count2, p_d_count1, p_d_count2;
  logic [3:0]  p_win1, p_win2;
  logic [15:0] p_step1, p_step2, p_wstep1, p_wstep2;
  assign p_op       = m_fetch_rdata_i[tpu_isa_pkg::CommonOpLsb +: 4];
  assign p_a_count1 = m_fetch_rdata_i[tpu_isa_pkg::ActivateCount1Lsb +: 12];
  assign p_a_count2 = m_fetch_rdata_i[tpu_isa_pkg::ActivateCount2Lsb +: 12];
  assign p_d_count1 = m_fetch_rdata_i[tpu_isa_pkg::DmaCount1Lsb +: 12];
  assign p_d_count2 = m_fetch_rdata_i[tpu_isa_pkg::DmaCount2Lsb +: 12];
  assign p_win1     = m_fetch_rdata_i[tpu_isa_pkg::ActivateWin1Lsb +: 4];
  assign p_win2     = m_fetch_rdata_i[tpu_isa_pkg::ActivateWin2Lsb +: 4];
  assign p_step1    = m_fetch_rdata_i[tpu_isa_pkg::ActivateStep1Lsb +: 16];
  assign p_step2    = m_fetch_rdata_i[tpu_isa_pkg::ActivateStep2Lsb +: 16];
  assign p_wstep1   = m_fetch_rdata_i[tpu_isa_pkg::ActivateWstep1Lsb +: 16];
  assign p_wstep2   = m_fetch_rdata_i[tpu_isa_pkg::ActivateWstep2Lsb +: 16];

  // Rows of a LOAD/STORE (count1 x count2) and outputs of an ACTIVATE (the same product of
  // its own count fields): one instruction is one or the other, so they share the multiply.
  logic [11:0] c1, c2;
  logic        rows_big;
  logic [23:0] rows_p, rows_d, rows_q;
  assign c1 = (p_op == tpu_isa_pkg::OpActivate) ? p_a_count1 : p_d_count1;
  assign c2 = (p_op == tpu_isa_pkg::OpActivate) ? p_a_count2 : p_d_count2;
  if (RW < 12) begin : g_rows_cut
    assign rows_big = ((c1 >> RW) != '0 && c2 != '0) || ((c2 >> RW) != '0 && c1 != '0);
  end else begin : g_rows_full
    assign rows_big = 1'b0;
  end
  assign rows_p = 24'(mul_sa(16'(c1), 16'(c2), RW));
  assign rows_d = rows_big ? 24'(1 << RW) : rows_p;
  logic [23:0] d_rows;
  assign d_rows = rows_q;
  logic [25:0] d_end;
  assign d_end = 26'(d_row) + 26'(d_rows);

  // Highest ACC row an ACTIVATE reads and UB rows it writes (counts >= 1 here).
  logic [35:0] a_top;
  logic [25:0] a_uend;
  logic [23:0] a_outs;
  // a_top = arow + (count2-1) step2 + (count1-1) step1 + (win2-1) wstep2 + (win1-1) wstep1;
  // each term is compared with AccRows (every term is >= 0), so a big term stands for
  // 2^TW >= AccRows.  (Counts and windows are >= 1 here: 0 is a BAD_FIELD first.)
  function automatic logic [35:0] term(input logic [15:0] x, input logic [15:0] y);
    logic big;
    big = ((x >> TW) != '0 && y != '0) || ((y >> TW) != '0 && x != '0);
    term = big ? 36'(1) << TW : 36'(mul_sa(x, y, TW));
  endfunction
  logic [11:0] a_c1m1, a_c2m1;
  logic [3:0]  a_w1m1, a_w2m1;
  logic [4*36-1:0] terms_d, terms_q;   // {w1 wstep1, w2 wstep2, c1 step1, c2 step2}
  assign a_c1m1 = p_a_count1 - 12'd1;
  assign a_c2m1 = p_a_count2 - 12'd1;
  assign a_w1m1 = p_win1 - 4'd1;
  assign a_w2m1 = p_win2 - 4'd1;
  assign terms_d = {term(16'(a_w1m1), p_wstep1), term(16'(a_w2m1), p_wstep2),
                    term(16'(a_c1m1), p_step1), term(16'(a_c2m1), p_step2)};
  assign a_top = (36'(a_arow) + terms_q[0 +: 36]) + (terms_q[36 +: 36] + terms_q[72 +: 36])
               + terms_q[108 +: 36];
  assign a_outs = d_rows;
  assign a_uend = 26'(a_urow) + ((a_out == 2'(tpu_isa_pkg::OutFp32)) ? {1'b0, a_outs, 1'b0}
                                                                     : 26'(a_outs));

  // Token counters as decode sees them: pushes minus pops decoded so far.
  // Index: 0 load->compute, 1 compute->load, 2 compute->store, 3 store->compute.
  logic [4*17-1:0] tok_q, tok_d;
  logic [3:0]  t_pop, t_push;
  logic        w_loaded_q, w_loaded_d, w_bf16_q, w_bf16_d;

  // Static checks of the arriving beat: the ones that depend on the instruction alone.
  logic       r_load, r_mm, r_act, r_store, r_sync, r_halt;
  logic       s_bad_op, s_bad_field, s_bad_range;
  logic [15:0] row_bytes, buf_rows;
  always_comb begin
    r_load   = r_op == tpu_isa_pkg::OpLoad;
    r_mm     = r_op == tpu_isa_pkg::OpMatmul;
    r_act    = r_op == tpu_isa_pkg::OpActivate;
    r_store  = r_op == tpu_isa_pkg::OpStore;
    r_sync   = r_op == tpu_isa_pkg::OpSync;
    r_halt   = r_op == tpu_isa_pkg::OpHalt;
    s_bad_op = !(r_load || r_mm || r_act || r_store || r_sync || r_halt);
    s_bad_field = 1'b0;
    s_bad_range = 1'b0;
    row_bytes = 16'(N * EW);
    buf_rows  = 16'(UbRows);
    if (d_buf == tpu_isa_pkg::BufWb) buf_rows = 16'(WbRows);
    if (d_buf == tpu_isa_pkg::BufVp) begin
      row_bytes = 16'(4 * N);
      buf_rows  = 16'(VpRows);
    end
    if (r_load) begin
      s_bad_field = r_pop_prev || r_push_prev || d_buf == 2'd3 || d_len0 == '0 ||
                    d_len0 > d_out0 || 16'(d_out0) > row_bytes || d_count1 == '0 ||
                    d_count2 == '0;
      s_bad_range = d_end > 26'(buf_rows);
    end
    if (r_store) begin
      s_bad_field = r_pop_next || r_push_next || d_buf != tpu_isa_pkg::BufUb || d_pad != '0 ||
                    d_out0 != d_len0 || d_len0 == '0 || 16'(d_len0) > 16'(N * EW) ||
                    d_count1 == '0 || d_count2 == '0;
      s_bad_range = d_end > 26'(UbRows);
    end
    if (r_mm) begin
      s_bad_field = m_rows == '0 || (r_bf16 && EnableBf16 == 0) || (m_zp != '0 && r_bf16);
      s_bad_range = 17'(m_urow) + 17'(m_rows) > 17'(UbRows) ||
                    17'(m_arow) + 17'(m_rows) > 17'(AccRows) ||
                    (r_new_w && 17'(m_wrow) + 17'(N) > 17'(WbRows));
    end
    if (r_act) begin
      s_bad_field = a_out == 2'd3 || a_pool == 2'd3 ||
                    (a_out != 2'(tpu_isa_pkg::OutInt8) && EnableBf16 == 0) ||
                    ((a_relu || a_relu6) && a_out == 2'(tpu_isa_pkg::OutInt8)) ||
                    (a_pool == 2'(tpu_isa_pkg::PoolNone) && (a_win1 != 4'd1 || a_win2 != 4'd1)) ||
                    a_count1 == '0 || a_count2 == '0 || a_win1 == '0 || a_win2 == '0 ||
                    (a_out == 2'(tpu_isa_pkg::OutInt8) && $signed(a_lo) > $signed(a_hi));
      s_bad_range = a_top >= 36'(AccRows) || a_uend > 26'(UbRows) ||
                    17'(a_vrow) + ((a_out == 2'(tpu_isa_pkg::OutInt8)) ? 17'd3 : 17'd1) >
                    17'(VpRows);
    end
  end

  // Checks at decode: the stored flags, and those that depend on decode's state (weights
  // loaded and their type, token counts).
  logic       is_load, is_mm, is_act, is_store, is_sync, is_halt;
  logic       bad_op, bad_field, no_w, bad_range, bad_tok;
  assign bad_op    = buf_data[259];
  assign bad_range = buf_data[257];
  always_comb begin
    is_load  = op == tpu_isa_pkg::OpLoad;
    is_mm    = op == tpu_isa_pkg::OpMatmul;
    is_act   = op == tpu_isa_pkg::OpActivate;
    is_store = op == tpu_isa_pkg::OpStore;
    is_sync  = op == tpu_isa_pkg::OpSync;
    is_halt  = op == tpu_isa_pkg::OpHalt;
    bad_field = buf_data[258] ||
                (is_mm && !m_new_w && w_loaded_q && m_bf16 != w_bf16_q);
    no_w      = is_mm && !m_new_w && !w_loaded_q;
    t_pop     = '0;
    t_push    = '0;
    if (is_load) begin
      t_pop[1]  = pop_next;
      t_push[0] = push_next;
    end
    if (is_store) begin
      t_pop[2]  = pop_prev;
      t_push[3] = push_prev;
    end
    if (is_mm || is_act) begin
      t_pop[0]  = pop_prev;
      t_push[1] = push_prev;
      t_pop[3]  = pop_next;
      t_push[2] = push_next;
    end
    bad_tok = 1'b0;
    for (int c = 0; c < 4; c++) begin
      if (t_pop[c] && tok_q[c*17 +: 17] == '0) bad_tok = 1'b1;
      if (t_push[c] && tok_q[c*17 +: 17] == 17'd65535) bad_tok = 1'b1;
    end
  end

  // ---------------------------------------------------------------------------
  // Decode control.
  logic       have, at_end, fetch_err;
  logic [3:0] code;
  logic       dispatch, q_full, halted_q, halted_d;
  assign have      = run_q && !stop_i && !buf_empty;
  assign at_end    = run_q && !stop_i && dpc_q >= len_q;
  assign fetch_err = buf_data[256];

  always_comb begin
    code = tpu_isa_pkg::FaultNone;
    if (bad_tok)   code = tpu_isa_pkg::FaultToken;
    if (bad_range) code = tpu_isa_pkg::FaultBufRange;
    if (no_w)      code = tpu_isa_pkg::FaultNoWeights;
    if (bad_field) code = tpu_isa_pkg::FaultBadField;
    if (bad_op)    code = tpu_isa_pkg::FaultBadOpcode;
    if (is_sync || is_halt) code = tpu_isa_pkg::FaultNone;
    if (fetch_err) code = tpu_isa_pkg::FaultBusError;
  end

  assign q_full   = (is_load && ld_full_i) || ((is_mm || is_act) && cq_full_i) ||
                    (is_store && st_full_i);
  assign dispatch = have && !at_end && code == tpu_isa_pkg::FaultNone && !is_sync && !is_halt &&
                    !q_full;
  assign ld_push_o = dispatch && is_load;
  assign cq_push_o = dispatch && (is_mm || is_act);
  assign st_push_o = dispatch && is_store;
  assign insn_o    = in;
  assign pc_o      = dpc_q;
  assign wait_mem_o = run_q && !stop_i && !at_end && buf_empty;

  always_comb begin
    run_d      = run_q;
    halted_d   = halted_q;
    dpc_d      = dpc_q;
    w_loaded_d = w_loaded_q;
    w_bf16_d   = w_bf16_q;
    buf_pop    = 1'b0;
    fault_o    = 1'b0;
    fault_code_o = code;
    fault_pc_o   = dpc_q;
    fault_addr_o = '0;
    halt_o     = 1'b0;
    tok_d      = tok_q;
    if (at_end) begin
      fault_o      = 1'b1;
      fault_code_o = tpu_isa_pkg::FaultProgEnd;
      run_d        = 1'b0;
    end else if (have) begin
      if (code != tpu_isa_pkg::FaultNone) begin
        fault_o = 1'b1;
        if (fetch_err) fault_addr_o = base_q + {dpc_q[26:0], 5'b0};
        run_d   = 1'b0;
      end else if ((is_sync || is_halt) && idle_i) begin
        buf_pop = 1'b1;
        dpc_d   = dpc_q + 1'b1;
        if (is_halt) begin
          halt_o   = 1'b1;
          halted_d = 1'b1;
          run_d    = 1'b0;
        end
      end else if (dispatch) begin
        buf_pop = 1'b1;
        dpc_d   = dpc_q + 1'b1;
        for (int c = 0; c < 4; c++)
          tok_d[c*17 +: 17] = tok_q[c*17 +: 17] + 17'(t_push[c]) - 17'(t_pop[c]);
        if (is_mm && m_new_w) begin
          w_loaded_d = 1'b1;
          w_bf16_d   = m_bf16;
        end
      end
    end
    if (stop_i) run_d = 1'b0;
    if (start_i) begin
      run_d      = 1'b1;
      halted_d   = 1'b0;
      dpc_d      = '0;
      w_loaded_d = 1'b0;
      w_bf16_d   = 1'b0;
      tok_d      = '0;
    end
  end

  // Fetch address channel and credits.
  // The credits after a burst is requested are summed beside decode's take (buf_pop),
  // which only picks one.
  logic          issue;
  logic [CW-1:0] credit_i;
  assign issue    = run_q && !stop_i && !ar_valid_q && remain_q != '0 &&
                    32'(credit_q) + 32'(blen) <= 32'(Depth);
  assign credit_i = issue ? credit_q + CW'(blen) : credit_q;
  always_comb begin
    fa_d       = fa_q;
    remain_d   = remain_q;
    ar_valid_d = ar_valid_q;
    ar_addr_d  = ar_addr_q;
    ar_len_d   = ar_len_q;
    out_d      = out_q - 9'(r_fire && out_q != '0);
    credit_d   = buf_pop ? credit_i - CW'(1) : credit_i;
    if (ar_valid_q && m_fetch_arready_i) ar_valid_d = 1'b0;
    if (issue) begin
      ar_valid_d = 1'b1;
      ar_addr_d  = fa_q;
      ar_len_d   = blen - 8'd1;
      fa_d       = fa_q + {19'd0, blen, 5'd0};
      remain_d   = remain_q - 32'(blen);
      out_d      = out_d + 9'(blen);
    end
    if (start_i) begin
      fa_d     = prog_addr_i;
      remain_d = prog_len_i;
      credit_d = '0;
    end
  end

  assign m_fetch_arvalid_o = ar_valid_q;
  assign m_fetch_araddr_o  = ar_addr_q;
  assign m_fetch_arlen_o   = ar_len_q;
  assign m_fetch_arid_o    = '0;
  assign m_fetch_rready_o  = 1'b1;
  assign quiet_o           = !ar_valid_q && out_q == '0 && !rv_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      run_q      <= 1'b0;
      halted_q   <= 1'b0;
      base_q     <= '0;
      len_q      <= '0;
      fa_q       <= '0;
      remain_q   <= '0;
      dpc_q      <= '0;
      credit_q   <= '0;
      out_q      <= '0;
      ar_valid_q <= 1'b0;
      ar_addr_q  <= '0;
      ar_len_q   <= '0;
      w_loaded_q <= 1'b0;
      w_bf16_q   <= 1'b0;
      tok_q      <= '0;
      rv_q       <= 1'b0;
      hv_q       <= 1'b0;
    end else begin
      run_q      <= run_d;
      halted_q   <= halted_d;
      fa_q       <= fa_d;
      remain_q   <= remain_d;
      dpc_q      <= dpc_d;
      credit_q   <= credit_d;
      out_q      <= out_d;
      ar_valid_q <= ar_valid_d;
      ar_addr_q  <= ar_addr_d;
      ar_len_q   <= ar_len_d;
      w_loaded_q <= w_loaded_d;
      w_bf16_q   <= w_bf16_d;
      tok_q      <= tok_d;
      rv_q       <= rv_d;
      hv_q       <= hv_d;
      if (start_i) begin
        base_q <= prog_addr_i;
        len_q  <= prog_len_i;
      end
    end
  end

  // The check stage's data and the head register (wide datapath registers: no reset; the
  // check stage has no enable either).
  always_ff @(posedge clk_i) begin
    rd_q    <= m_fetch_rdata_i;
    rerr_q  <= m_fetch_rresp_i != 2'b00;
    rows_q  <= rows_d;
    terms_q <= terms_d;
    hd_q    <= hd_d;
  end

  // Assertions
`ifndef SYNTHESIS
  logic [26:0] chk_fpc;   // instructions requested so far (the bits an address keeps)
  assign chk_fpc = 27'(len_q - remain_q);
  // Immediate assertions in a clocked block, not properties (docs/verification.md).
  always_ff @(posedge clk_i) begin : checks
    if (rst_ni) begin
      a_no_overflow: assert (!(buf_push && buf_full && !fifo_pop))
        else $error("tpu_core_fetch: prefetch buffer overflow");
      a_beat_expected: assert (!(m_fetch_rvalid_i && out_q == '0))
        else $error("tpu_core_fetch: read beat with no burst outstanding");
      a_fetch_addr: assert (!(run_q && (fa_q != base_q + {chk_fpc, 5'b0} ||
                                        remain_q > len_q)))
        else $error("tpu_core_fetch: next fetch address %0h, base %0h, %0d of %0d left",
                    fa_q, base_q, remain_q, len_q);
      a_start_quiet: assert (!(start_i && (!quiet_o || run_q)))
        else $error("tpu_core_fetch: start while a program still runs or fetches");
    end
  end
`endif

  logic unused;
  assign unused = ^{m_fetch_rid_i, m_fetch_rlast_i};

endmodule
