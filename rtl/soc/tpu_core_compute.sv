// SPDX-License-Identifier: Apache-2.0
// tpu_core_compute: the compute engine: MATMUL (UB -> MXU -> ACC) and ACTIVATE
// (ACC -> vector unit -> UB), with weight tiles loaded one MATMUL ahead.
`default_nettype none

// Three slots: `nx` holds the next instruction once it has started (tokens taken; for a
// MATMUL with new_w its weight tile is streamed into the MXU's shadow weights from then
// on), `cur` the MATMUL issuing rows, `act` the ACTIVATE running.  A MATMUL issues one UB
// row per cycle; the cycle its last row is accepted, the next MATMUL moves into `cur`, so
// back-to-back MATMULs keep the MXU busy.  A MATMUL completes (tokens) 2N+3 cycles after
// its last row was accepted, when its last result is in ACC (fixed MXU latency, a delay
// line).  An ACTIVATE reads its three VP rows, waits until every MATMUL before it has
// completed (a count), reads ACC rows in window order into the vector unit and writes its
// outputs to UB.  A MATMUL after it may run at the same time when it neither reads a UB
// row the ACTIVATE writes nor writes an ACC row in the ACTIVATE's read range; otherwise it
// waits until the ACTIVATE has written its last row.  Tokens leave in program order: the
// tokens of such a MATMUL, when it completes before the ACTIVATE, wait for the ACTIVATE's.
module tpu_core_compute #(
  parameter int unsigned N          = 16,    // array size
  parameter int unsigned EnableBf16 = 1,     // bf16 supported
  parameter int unsigned AccRows    = 2048,  // accumulator rows
  parameter int unsigned WideLanes  = 0,     // MXU lane width (1: faster simulation)
  parameter int unsigned SimGate    = 0,     // VPU clock gate while idle (1: faster simulation)
  parameter int unsigned AccReadPort = 0,    // 1: ACTIVATE reads ACC beside result rows
  parameter int unsigned VpuLanes   = N,     // vector-unit lanes per cycle
  localparam int unsigned UbBits = N * ((EnableBf16 != 0) ? 16 : 8),
  localparam int unsigned AccAw  = (AccRows > 1) ? $clog2(AccRows) : 1
) (
  input  logic               clk_i,
  input  logic               rst_ni,
  // Queue head
  input  logic               q_valid_i,
  input  logic [287:0]       q_data_i,     // {pc, instruction}
  output logic               q_pop_o,
  input  logic               skip_i,
  input  logic [31:0]        skip_pc_i,
  input  logic               skip_all_i,
  // Tokens
  input  logic               l2c_avail_i,  // load->compute
  input  logic               s2c_avail_i,  // store->compute
  output logic               l2c_pop_o,
  output logic               s2c_pop_o,
  output logic [16:0]        c2l_push_o,   // tokens given this cycle
  output logic [16:0]        c2s_push_o,
  // UB: MATMUL read port, ACTIVATE write port.  The read ports take the row read in the
  // next cycle (the buffers register it, docs/core.md); the data is that of the current row.
  // ub_rnextb_o when ub_rpick_o (a row goes into the array), else ub_rnext_o.
  output logic [15:0]        ub_rnext_o,
  output logic [15:0]        ub_rnextb_o,
  output logic               ub_rpick_o,
  input  logic [UbBits-1:0]  ub_rdata_i,
  output logic               ub_we_o,
  output logic [15:0]        ub_waddr_o,
  output logic [UbBits-1:0]  ub_wdata_o,
  // WB and VP read ports
  output logic [15:0]        wb_rnext_o,
  input  logic [UbBits-1:0]  wb_rdata_i,
  output logic [15:0]        vp_rnext_o,
  input  logic [N*32-1:0]    vp_rdata_i,
  // Counters
  output logic [1:0]         done_o,       // instructions completed this cycle
  output logic               mxu_row_o,
  output logic               wait_token_o,
  output logic               wait_weights_o,
  output logic               idle_o
);

  localparam int unsigned RW = (N > 1) ? $clog2(N) : 1;
  localparam int unsigned Dl = 2 * N + 3;      // row accepted -> result in ACC, plus one

  logic [255:0] in;
  logic [31:0]  hpc;
  assign in  = q_data_i[255:0];
  assign hpc = q_data_i[287:256];

  // ---------------------------------------------------------------------------
  // Slots.
  logic         nx_valid_q, cur_valid_q, act_valid_q;
  logic [255:0] nx_q, cur_q, act_q;

  logic skip, h_mm, h_new_w, h_pp, h_pn, tok_ok, wl_busy_q;
  assign skip    = skip_all_i || (skip_i && hpc > skip_pc_i);
  assign h_mm    = in[3:0] == tpu_isa_pkg::OpMatmul;
  assign h_new_w = h_mm && in[tpu_isa_pkg::MatmulNewWLsb];
  assign h_pp    = in[tpu_isa_pkg::CommonPopPrevLsb];
  assign h_pn    = in[tpu_isa_pkg::CommonPopNextLsb];
  assign tok_ok  = (!h_pp || l2c_avail_i) && (!h_pn || s2c_avail_i);

  logic cur_done, nx_to_cur, nx_to_act, head_to_nx, nx_free, vpu_busy, mxu_busy;
  logic nx_mm, hazard;
  assign nx_mm     = nx_q[3:0] == tpu_isa_pkg::OpMatmul;
  assign nx_to_cur = nx_valid_q && nx_mm && (!cur_valid_q || cur_done) &&
                     !(act_valid_q && hazard);
  assign nx_to_act = nx_valid_q && !nx_mm && !act_valid_q && !vpu_busy;
  assign nx_free   = !nx_valid_q || nx_to_cur || nx_to_act;
  assign head_to_nx = q_valid_i && !skip && nx_free && tok_ok && !(h_new_w && wl_busy_q);
  assign q_pop_o   = q_valid_i && (skip || head_to_nx);
  assign l2c_pop_o = head_to_nx && h_pp;
  assign s2c_pop_o = head_to_nx && h_pn;
  assign wait_token_o = q_valid_i && !skip && nx_free && !tok_ok;

  // ---------------------------------------------------------------------------
  // Weight loader: N WB rows into the MXU's shadow weights.
  logic [15:0]   wl_row_q;
  logic [RW-1:0] wl_k_q;
  logic          wl_bf16_q, w_ready, w_fire;
  logic [UbBits-1:0] w_data;
  logic              m_bf16;
  logic [15:0]   wb_raddr;
  logic          wl_start;
  assign wb_raddr   = wl_row_q + 16'(wl_k_q);
  assign w_fire     = wl_busy_q && w_ready;
  assign wl_start   = head_to_nx && h_new_w;
  // wb_raddr in the next cycle: wl_row_q and wl_k_q as the registers below update them.
  assign wb_rnext_o = wl_start ? in[tpu_isa_pkg::MatmulWrowLsb +: 16] :
                      wl_row_q + 16'(RW'(wl_k_q + RW'(w_fire)));

  // int8 rows use bytes [0, N); the MXU takes int8 in the low byte of each 16-bit lane.
  logic [UbBits-1:0] a_data;
  if (EnableBf16 != 0) begin : g_lanes
    logic [UbBits-1:0] w8, a8;
    always_comb begin
      w8 = '0;
      a8 = '0;
      for (int k = 0; k < N; k++) begin
        w8[k*16 +: 8] = wb_rdata_i[k*8 +: 8];
        a8[k*16 +: 8] = ub_rdata_i[k*8 +: 8];
      end
    end
    assign w_data = wl_bf16_q ? wb_rdata_i : w8;
    assign a_data = m_bf16 ? ub_rdata_i : a8;
  end else begin : g_int8
    assign w_data = wb_rdata_i;
    assign a_data = ub_rdata_i;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wl_busy_q <= 1'b0;
      wl_k_q    <= '0;
    end else if (wl_start) begin
      wl_busy_q <= 1'b1;
      wl_k_q    <= '0;
    end else if (w_fire) begin
      wl_k_q <= wl_k_q + 1'b1;
      if (wl_k_q == RW'(N - 1)) wl_busy_q <= 1'b0;
    end
  end
  always_ff @(posedge clk_i) begin
    if (wl_start) begin
      wl_row_q  <= in[tpu_isa_pkg::MatmulWrowLsb +: 16];
      wl_bf16_q <= in[tpu_isa_pkg::MatmulBf16Lsb];
    end
  end

  // ---------------------------------------------------------------------------
  // MATMUL rows.
  logic [15:0] i_q;
  logic        m_acc, m_new_w;
  logic [7:0]  m_zp;
  logic [15:0] m_urow, m_rows, m_arow;
  assign m_bf16  = cur_q[tpu_isa_pkg::MatmulBf16Lsb];
  assign m_acc   = cur_q[tpu_isa_pkg::MatmulAccLsb];
  assign m_new_w = cur_q[tpu_isa_pkg::MatmulNewWLsb];
  assign m_zp    = cur_q[tpu_isa_pkg::MatmulZpLsb +: 8];
  assign m_urow  = cur_q[tpu_isa_pkg::MatmulUrowLsb +: 16];
  assign m_rows  = cur_q[tpu_isa_pkg::MatmulRowsLsb +: 16];
  assign m_arow  = cur_q[tpu_isa_pkg::MatmulArowLsb +: 16];

  logic a_valid, a_ready, a_fire, a_first, mm_last;
  assign a_valid    = cur_valid_q;
  assign a_first    = m_new_w && i_q == '0;
  assign a_fire     = a_valid && a_ready;
  assign mm_last    = i_q == m_rows - 16'd1;
  logic [15:0] ub_raddr;
  assign ub_raddr   = m_urow + i_q;
  // ub_raddr in the next cycle: cur_q and i_q as the registers below update them.
  // nx_to_cur without a_fire (nx_go && !cur_valid_q) and with it (nx_go && mm_last): the two
  // candidates are ready before the array's handshake, which only picks one (tpu_core_ram).
  logic nx_go;
  assign nx_go       = nx_valid_q && nx_mm && !(act_valid_q && hazard);
  assign ub_rnext_o  = nx_go && !cur_valid_q ? nx_q[tpu_isa_pkg::MatmulUrowLsb +: 16] : ub_raddr;
  assign ub_rnextb_o = nx_go && mm_last ? nx_q[tpu_isa_pkg::MatmulUrowLsb +: 16] : ub_raddr + 16'd1;
  assign ub_rpick_o  = a_fire;
  assign wait_weights_o = a_valid && a_first && !a_ready;

  // Completion of MATMULs: {push_prev, push_next} travel with the last row.
  // A MATMUL that entered `cur` while an ACTIVATE ran is tagged with that ACTIVATE's
  // parity (cur_tag_q): its tokens wait while that ACTIVATE still runs.
  logic [Dl-1:0] dl_v_q, dl_pp_q, dl_pn_q, dl_t_q, dl_p_q;
  logic          cur_tag_q, cur_par_q, act_par_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      dl_v_q  <= '0;
      dl_pp_q <= '0;
      dl_pn_q <= '0;
      dl_t_q  <= '0;
      dl_p_q  <= '0;
    end else begin
      dl_v_q  <= {dl_v_q[Dl-2:0], a_fire && mm_last};
      dl_pp_q <= {dl_pp_q[Dl-2:0], cur_q[tpu_isa_pkg::CommonPushPrevLsb]};
      dl_pn_q <= {dl_pn_q[Dl-2:0], cur_q[tpu_isa_pkg::CommonPushNextLsb]};
      dl_t_q  <= {dl_t_q[Dl-2:0], cur_tag_q};
      dl_p_q  <= {dl_p_q[Dl-2:0], cur_par_q};
    end
  end

  // ---------------------------------------------------------------------------
  // ACTIVATE.
  localparam logic [2:0] PBias = 3'd0, PM0 = 3'd1, PShift = 3'd2, PWait = 3'd3, PRun = 3'd4;
  logic [2:0] ph_q, ph_d;

  logic [1:0]  f_out, f_pool;
  logic [15:0] f_arow, f_urow, f_vrow, f_step1, f_step2, f_wstep1, f_wstep2;
  logic [11:0] f_count1, f_count2;
  logic [3:0]  f_win1, f_win2;
  logic        f_fp32;
  assign f_out    = act_q[tpu_isa_pkg::ActivateOutLsb +: 2];
  assign f_pool   = act_q[tpu_isa_pkg::ActivatePoolLsb +: 2];
  assign f_arow   = act_q[tpu_isa_pkg::ActivateArowLsb +: 16];
  assign f_urow   = act_q[tpu_isa_pkg::ActivateUrowLsb +: 16];
  assign f_vrow   = act_q[tpu_isa_pkg::ActivateVrowLsb +: 16];
  assign f_count1 = act_q[tpu_isa_pkg::ActivateCount1Lsb +: 12];
  assign f_count2 = act_q[tpu_isa_pkg::ActivateCount2Lsb +: 12];
  assign f_win1   = act_q[tpu_isa_pkg::ActivateWin1Lsb +: 4];
  assign f_win2   = act_q[tpu_isa_pkg::ActivateWin2Lsb +: 4];
  assign f_step1  = act_q[tpu_isa_pkg::ActivateStep1Lsb +: 16];
  assign f_step2  = act_q[tpu_isa_pkg::ActivateStep2Lsb +: 16];
  assign f_wstep1 = act_q[tpu_isa_pkg::ActivateWstep1Lsb +: 16];
  assign f_wstep2 = act_q[tpu_isa_pkg::ActivateWstep2Lsb +: 16];
  assign f_fp32   = f_out == 2'(tpu_isa_pkg::OutFp32);

  logic [N*32-1:0] bias_q, m0_q, shift_q;
  logic [15:0] vp_raddr;
  assign vp_raddr   = f_vrow + ((ph_q == PM0) ? 16'd1 : (ph_q == PShift) ? 16'd2 : 16'd0);
  // vp_raddr in the next cycle: act_q and ph_q as the registers below update them.
  assign vp_rnext_o = (nx_to_act ? nx_q[tpu_isa_pkg::ActivateVrowLsb +: 16] : f_vrow) +
                      ((ph_d == PM0) ? 16'd1 : (ph_d == PShift) ? 16'd2 : 16'd0);

  // ACC read iterator: o2, o1 (outputs), j2, j1 (window), addresses kept incrementally.
  logic [11:0] o1_q, o2_q;
  logic [3:0]  j1_q, j2_q;
  logic [31:0] base2_q, base1_q, basew_q, addr_q;
  logic        rd_done_q, rd_first_q, rd_last_q, rd_pend_q;
  logic [2:0]  cred_q;                 // ACC rows read and not yet taken by the VPU
  logic        r_valid, r_ready, r_fire, r_dvalid;
  logic [N*32-1:0] r_data;
  logic        run;
  assign run     = act_valid_q && ph_q == PRun;
  assign r_valid = run && !rd_done_q && cred_q < 3'd4;
  assign r_fire  = r_valid && r_ready;

  logic        af_empty, af_full, af_first, af_last, s_ready, s_fire;
  logic [N*32-1:0] af_data;
  tpu_core_fifo #(.Width(N * 32 + 2), .Depth(4)) u_accq (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .flush_i (1'b0),
    .push_i  (r_dvalid && rd_pend_q),
    .data_i  ({rd_first_q, rd_last_q, r_data}),
    .full_o  (af_full),
    .pop_i   (s_fire),
    .data_o  ({af_first, af_last, af_data}),
    .empty_o (af_empty)
  );
  assign s_fire = !af_empty && s_ready;

  // Outputs to UB.
  logic        m_valid, m_ready, m_fire, half_q;
  logic [N*32-1:0] m_data;
  // o_last_q: the index of the ACTIVATE's last output row, count1 * count2 - 1, registered
  // when the instruction starts (the product is n_outs, below), so that no multiplier sits
  // in front of act_done.
  logic [23:0] o_q, o_last_q;
  assign m_ready = run && (!f_fp32 || half_q);
  assign m_fire  = m_valid && m_ready;
  assign ub_we_o = run && m_valid;
  assign ub_waddr_o = f_urow + (f_fp32 ? {o_q[14:0], half_q} : o_q[15:0]);
  always_comb begin
    ub_wdata_o = m_data[UbBits-1:0];
    if (EnableBf16 != 0 && f_fp32 && half_q) ub_wdata_o = m_data[N*32-1 -: UbBits];
  end

  logic act_done;
  assign act_done = m_fire && o_q == o_last_q;
  assign cur_done = a_fire && mm_last;

  // MATMUL completions and the count an ACTIVATE waits for.
  logic [15:0] mm_started_q, mm_done_q, act_after_q;
  logic        mm_complete, earlier_done;
  assign mm_complete  = dl_v_q[Dl-1];
  assign earlier_done = $signed(mm_done_q - act_after_q) >= 0;

  // The ranges of the running ACTIVATE: UB rows written [urow, uend), ACC rows read
  // [arow, atop]; a MATMUL may overlap it only outside them.
  logic [35:0] n_top;
  logic [25:0] n_uend;
  logic [35:0] act_top_q;
  logic [25:0] act_uend_q;
  logic [15:0] n_urow, n_arow, n_step1, n_step2, n_wstep1, n_wstep2;
  logic [11:0] n_count1, n_count2;
  logic [3:0]  n_win1, n_win2;
  logic [23:0] n_outs;
  assign n_arow   = nx_q[tpu_isa_pkg::ActivateArowLsb +: 16];
  assign n_urow   = nx_q[tpu_isa_pkg::ActivateUrowLsb +: 16];
  assign n_count1 = nx_q[tpu_isa_pkg::ActivateCount1Lsb +: 12];
  assign n_count2 = nx_q[tpu_isa_pkg::ActivateCount2Lsb +: 12];
  assign n_win1   = nx_q[tpu_isa_pkg::ActivateWin1Lsb +: 4];
  assign n_win2   = nx_q[tpu_isa_pkg::ActivateWin2Lsb +: 4];
  assign n_step1  = nx_q[tpu_isa_pkg::ActivateStep1Lsb +: 16];
  assign n_step2  = nx_q[tpu_isa_pkg::ActivateStep2Lsb +: 16];
  assign n_wstep1 = nx_q[tpu_isa_pkg::ActivateWstep1Lsb +: 16];
  assign n_wstep2 = nx_q[tpu_isa_pkg::ActivateWstep2Lsb +: 16];
  assign n_top  = 36'(n_arow) + (36'(n_count2) - 36'd1) * 36'(n_step2)
                + (36'(n_count1) - 36'd1) * 36'(n_step1)
                + (36'(n_win2) - 36'd1) * 36'(n_wstep2) + (36'(n_win1) - 36'd1) * 36'(n_wstep1);
  assign n_outs = 24'(n_count1) * 24'(n_count2);
  assign n_uend = 26'(n_urow) +
                  ((nx_q[tpu_isa_pkg::ActivateOutLsb +: 2] == 2'(tpu_isa_pkg::OutFp32)) ?
                   {1'b0, n_outs, 1'b0} : 26'(n_outs));

  logic [15:0] h_urow, h_rows, h_arow;
  assign h_urow = nx_q[tpu_isa_pkg::MatmulUrowLsb +: 16];
  assign h_rows = nx_q[tpu_isa_pkg::MatmulRowsLsb +: 16];
  assign h_arow = nx_q[tpu_isa_pkg::MatmulArowLsb +: 16];
  // The MATMUL's row ends (urow + rows, arow + rows) are summed as it enters nx, so the
  // hazard, which holds back the UB read address (nx_go), is compares only.
  logic [16:0] nx_uend_q, nx_aend_q;
  assign hazard = (26'(h_urow) < act_uend_q && 17'(f_urow) < nx_uend_q) ||
                  (36'(h_arow) <= act_top_q && 17'(f_arow) < nx_aend_q);

  always_comb begin
    ph_d = ph_q;
    case (ph_q)
      PBias:  ph_d = PM0;
      PM0:    ph_d = PShift;
      PShift: ph_d = PWait;
      PWait:  if (earlier_done) ph_d = PRun;
      default: ;
    endcase
    if (!act_valid_q || act_done) ph_d = PBias;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      nx_valid_q  <= 1'b0;
      cur_valid_q <= 1'b0;
      act_valid_q <= 1'b0;
      act_par_q   <= 1'b0;
      mm_started_q <= '0;
      mm_done_q   <= '0;
      ph_q        <= PBias;
      i_q         <= '0;
      rd_pend_q   <= 1'b0;
      rd_done_q   <= 1'b0;
      cred_q      <= '0;
      o_q         <= '0;
      half_q      <= 1'b0;
    end else begin
      ph_q <= ph_d;
      if (head_to_nx)     nx_valid_q <= 1'b1;
      else if (nx_to_cur || nx_to_act) nx_valid_q <= 1'b0;
      if (nx_to_cur)      cur_valid_q <= 1'b1;
      else if (cur_done)  cur_valid_q <= 1'b0;
      if (nx_to_act)      act_valid_q <= 1'b1;
      else if (act_done)  act_valid_q <= 1'b0;
      mm_started_q <= mm_started_q + 16'(nx_to_cur);
      if (nx_to_act) act_par_q <= !act_par_q;
      mm_done_q    <= mm_done_q + 16'(mm_complete);
      if (nx_to_cur)   i_q <= '0;
      else if (a_fire) i_q <= i_q + 1'b1;
      rd_pend_q <= r_fire;
      cred_q    <= cred_q + 3'(r_fire) - 3'(s_fire);
      if (nx_to_act) begin
        rd_done_q <= 1'b0;
        o_q       <= '0;
        half_q    <= 1'b0;
      end else begin
        if (r_fire && j1_q == f_win1 - 4'd1 && j2_q == f_win2 - 4'd1 &&
            o1_q == f_count1 - 12'd1 && o2_q == f_count2 - 12'd1)
          rd_done_q <= 1'b1;
        if (run && m_valid) begin
          if (f_fp32) half_q <= !half_q;
          if (m_fire) o_q <= o_q + 1'b1;
        end
      end
    end
  end

  always_ff @(posedge clk_i) begin
    if (head_to_nx) begin
      nx_q      <= in;
      nx_uend_q <= 17'(in[tpu_isa_pkg::MatmulUrowLsb +: 16]) + 17'(in[tpu_isa_pkg::MatmulRowsLsb +: 16]);
      nx_aend_q <= 17'(in[tpu_isa_pkg::MatmulArowLsb +: 16]) + 17'(in[tpu_isa_pkg::MatmulRowsLsb +: 16]);
    end
    if (nx_to_cur) begin
      cur_q     <= nx_q;
      cur_tag_q <= act_valid_q;
      cur_par_q <= act_par_q;
    end
    if (nx_to_act) begin
      act_q       <= nx_q;
      act_after_q <= mm_started_q;
      act_top_q   <= n_top;
      act_uend_q  <= n_uend;
      o_last_q    <= n_outs - 24'd1;
    end
    if (ph_q == PBias)  bias_q  <= vp_rdata_i;
    if (ph_q == PM0)    m0_q    <= vp_rdata_i;
    if (ph_q == PShift) shift_q <= vp_rdata_i;
    if (r_fire) begin
      rd_first_q <= j1_q == '0 && j2_q == '0;
      rd_last_q  <= j1_q == f_win1 - 4'd1 && j2_q == f_win2 - 4'd1;
    end
    if (ph_q != PRun) begin
      o1_q <= '0;
      o2_q <= '0;
      j1_q <= '0;
      j2_q <= '0;
      base2_q <= 32'(f_arow);
      base1_q <= 32'(f_arow);
      basew_q <= 32'(f_arow);
      addr_q  <= 32'(f_arow);
    end else if (r_fire) begin
      if (j1_q != f_win1 - 4'd1) begin
        j1_q   <= j1_q + 1'b1;
        addr_q <= addr_q + 32'(f_wstep1);
      end else if (j2_q != f_win2 - 4'd1) begin
        j1_q    <= '0;
        j2_q    <= j2_q + 1'b1;
        basew_q <= basew_q + 32'(f_wstep2);
        addr_q  <= basew_q + 32'(f_wstep2);
      end else if (o1_q != f_count1 - 12'd1) begin
        j1_q    <= '0;
        j2_q    <= '0;
        o1_q    <= o1_q + 1'b1;
        base1_q <= base1_q + 32'(f_step1);
        basew_q <= base1_q + 32'(f_step1);
        addr_q  <= base1_q + 32'(f_step1);
      end else begin
        j1_q    <= '0;
        j2_q    <= '0;
        o1_q    <= '0;
        o2_q    <= o2_q + 1'b1;
        base2_q <= base2_q + 32'(f_step2);
        base1_q <= base2_q + 32'(f_step2);
        basew_q <= base2_q + 32'(f_step2);
        addr_q  <= base2_q + 32'(f_step2);
      end
    end
  end

  // ---------------------------------------------------------------------------
  // The MXU (with ACC) and the vector unit.
  tpu_mxu #(
    .N          (N),
    .EnableBf16 (EnableBf16),
    .AccRows    (AccRows),
    .WideLanes  (WideLanes),
    .AccReadPort(AccReadPort)
  ) u_mxu (
    .clk_i          (clk_i),
    .rst_ni         (rst_ni),
    .w_valid_i      (wl_busy_q),
    .w_ready_o      (w_ready),
    .w_data_i       (w_data),
    .a_valid_i      (a_valid),
    .a_ready_o      (a_ready),
    .a_data_i       (a_data),
    .a_first_i      (a_first),
    .a_acc_i        (m_acc),
    .a_bf16_i       (m_bf16),
    .a_zp_i         (m_zp),
    .a_addr_i       (AccAw'(m_arow + i_q)),
    .r_valid_i      (r_valid),
    .r_ready_o      (r_ready),
    .r_addr_i       (AccAw'(addr_q)),
    .r_data_valid_o (r_dvalid),
    .r_data_o       (r_data),
    .busy_o         (mxu_busy),
    .row_fire_o     (mxu_row_o)
  );

  tpu_vpu #(
    .N          (N),
    .EnableBf16 (EnableBf16),
    .Lanes      (VpuLanes),
    .GateIdle   (SimGate)
  ) u_vpu (
    .clk_i          (clk_i),
    .rst_ni         (rst_ni),
    .cfg_out_i      (f_out),
    .cfg_pool_i     (f_pool),
    .cfg_relu_i     (act_q[tpu_isa_pkg::ActivateReluLsb]),
    .cfg_relu6_i    (act_q[tpu_isa_pkg::ActivateRelu6Lsb]),
    .cfg_zp_out_i   (act_q[tpu_isa_pkg::ActivateZpOutLsb +: 8]),
    .cfg_clamp_lo_i (act_q[tpu_isa_pkg::ActivateClampLoLsb +: 8]),
    .cfg_clamp_hi_i (act_q[tpu_isa_pkg::ActivateClampHiLsb +: 8]),
    .bias_i         (bias_q),
    .m0_i           (m0_q),
    .shift_i        (shift_q),
    .s_valid_i      (!af_empty),
    .s_ready_o      (s_ready),
    .s_data_i       (af_data),
    .s_first_i      (af_first),
    .s_last_i       (af_last),
    .m_valid_o      (m_valid),
    .m_ready_i      (m_ready),
    .m_data_o       (m_data),
    .busy_o         (vpu_busy)
  );

  // Completion.
  // Tokens of MATMULs younger than the running ACTIVATE wait for it (in order).
  logic       defer;
  logic [15:0] def_pp_q, def_pn_q;   // decode bounds tokens to 65535
  assign defer = mm_complete && dl_t_q[Dl-1] && act_valid_q && !act_done &&
                 dl_p_q[Dl-1] == act_par_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      def_pp_q <= '0;
      def_pn_q <= '0;
    end else if (act_done) begin
      def_pp_q <= '0;
      def_pn_q <= '0;
    end else if (defer) begin
      def_pp_q <= def_pp_q + 16'(dl_pp_q[Dl-1]);
      def_pn_q <= def_pn_q + 16'(dl_pn_q[Dl-1]);
    end
  end

  assign done_o     = 2'(mm_complete) + 2'(act_done);
  assign c2l_push_o = 17'(mm_complete && !defer && dl_pp_q[Dl-1]) +
                      (act_done ? 17'(act_q[tpu_isa_pkg::CommonPushPrevLsb]) + 17'(def_pp_q) : 17'd0);
  assign c2s_push_o = 17'(mm_complete && !defer && dl_pn_q[Dl-1]) +
                      (act_done ? 17'(act_q[tpu_isa_pkg::CommonPushNextLsb]) + 17'(def_pn_q) : 17'd0);
  assign idle_o     = !nx_valid_q && !cur_valid_q && !act_valid_q && dl_v_q == '0 && !mxu_busy &&
                      !vpu_busy &&
                      !wl_busy_q;

  // Assertions
`ifndef SYNTHESIS
  // The next-cycle read rows are the rows read one cycle later.
  logic        chk_q;
  logic [15:0] ub_rnext_q, wb_rnext_q, vp_rnext_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) chk_q <= 1'b0;
    else         chk_q <= 1'b1;
  end
  always_ff @(posedge clk_i) begin
    ub_rnext_q <= ub_rpick_o ? ub_rnextb_o : ub_rnext_o;
    wb_rnext_q <= wb_rnext_o;
    vp_rnext_q <= vp_rnext_o;
  end
  // Immediate assertions in a clocked block, not properties (docs/verification.md).
  always_ff @(posedge clk_i) begin : checks
    if (rst_ni) begin
      a_ub_rnext: assert (!(chk_q && ub_rnext_q != ub_raddr))
        else $error("tpu_core_compute: UB read row %0h, announced %0h", ub_raddr, ub_rnext_q);
      a_wb_rnext: assert (!(chk_q && wb_rnext_q != wb_raddr))
        else $error("tpu_core_compute: WB read row %0h, announced %0h", wb_raddr, wb_rnext_q);
      a_vp_rnext: assert (!(chk_q && vp_rnext_q != vp_raddr))
        else $error("tpu_core_compute: VP read row %0h, announced %0h", vp_raddr, vp_rnext_q);
      a_acc_order: assert (!(run && !earlier_done))
        else $error("tpu_core_compute: ACTIVATE reads ACC before an earlier MATMUL completed");
      a_acc_fifo: assert (!(r_dvalid && rd_pend_q && af_full))
        else $error("tpu_core_compute: ACC row FIFO overflow");
      a_read_known: assert (!(r_dvalid && !rd_pend_q))
        else $error("tpu_core_compute: ACC data without a read");
      a_vpu_out: assert (!(m_valid && !run))
        else $error("tpu_core_compute: vector unit output outside an ACTIVATE");
      a_nx_ends: assert (!(nx_valid_q && nx_mm && (nx_uend_q != 17'(h_urow) + 17'(h_rows) ||
                                                 nx_aend_q != 17'(h_arow) + 17'(h_rows))))
        else $error("tpu_core_compute: registered MATMUL row ends disagree with nx");
      a_o_last: assert (!(act_valid_q && o_last_q != 24'(f_count1) * 24'(f_count2) - 24'd1))
        else $error("tpu_core_compute: o_last_q is not count1 * count2 - 1");
    end
  end
`endif

  logic unused;
  assign unused = ^{base2_q[0], f_arow, hpc[0], m_data, wl_bf16_q};

endmodule
