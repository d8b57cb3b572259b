// SPDX-License-Identifier: Apache-2.0
// The vector unit: reduces windows of ACC rows (none, max, sum), adds the
// bias and requantizes to int8 (TFLite) or rounds to bf16/fp32 with ReLU and
// ReLU6, one result row per window, Lanes lanes per cycle.
`default_nettype none

module tpu_vpu #(
  // Lanes of a row (the array size).
  parameter int unsigned N = 16,
  // 1: bf16 and fp32 outputs from fp32 ACC rows as well as int8; 0: int8 only
  // (no floating-point logic is built).
  parameter int unsigned EnableBf16 = 1,
  // Lanes computed per cycle, a divisor of N: a row takes N/Lanes cycles.
  // Fewer lanes, fewer multipliers (FPGA builds).
  parameter int unsigned Lanes = N,
  // 1: the requantizing multiply of each lane is bit-serial in logic, no DSPs: an int8
  // result chunk waits 32 cycles in the multiply stage (the whole pipeline holds), so a
  // row of N/Lanes chunks takes 33 N/Lanes cycles instead of N/Lanes.  The default is 1
  // where TPU_ICE40 is defined (the iCEBreaker build, whose 8 SB_MAC16 are the array's).
`ifdef TPU_ICE40
  parameter int unsigned SerialMul = 1,
`else
  parameter int unsigned SerialMul = 0,
`endif
  // Simulation only (Verilator): 1 clocks the unit through a clock gate (tpu_mem_cg) that
  // stops while it is idle and no row is offered, with the same cycle behaviour; the
  // configuration and VP rows are then registered with each input row, so that no logic
  // reads them between rows (they are stable from the first row until busy_o falls).
  parameter int unsigned GateIdle = 0,
  // Chunks per row and the width of a chunk index.
  localparam int unsigned C = N / Lanes,
  localparam int unsigned KW = (C > 1) ? $clog2(C) : 1,
  // Result bits held per lane.
  localparam int unsigned OW = (EnableBf16 != 0) ? 32 : 8
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  // Configuration of the current ACTIVATE: stable from the first input row
  // until busy_o falls.
  input  logic [1:0]      cfg_out_i,    // tpu_isa_pkg out enumeration: INT8, BF16, FP32
  input  logic [1:0]      cfg_pool_i,   // NONE, MAX, SUM
  input  logic            cfg_relu_i,
  input  logic            cfg_relu6_i,
  input  logic [7:0]      cfg_zp_out_i,
  input  logic [7:0]      cfg_clamp_lo_i,
  input  logic [7:0]      cfg_clamp_hi_i,
  input  logic [N*32-1:0] bias_i,       // VP rows, stable likewise
  input  logic [N*32-1:0] m0_i,
  input  logic [N*32-1:0] shift_i,
  // ACC rows in window order.
  input  logic            s_valid_i,
  output logic            s_ready_o,
  input  logic [N*32-1:0] s_data_i,
  input  logic            s_first_i,    // first row of a window
  input  logic            s_last_i,     // last row of a window (a 1x1 window has both)
  // One result per window, in order.  INT8: byte c at [8c +: 8]; BF16:
  // halfword c at [16c +: 16]; FP32: word c at [32c +: 32]; upper bits 0.
  output logic            m_valid_o,
  input  logic            m_ready_i,
  output logic [N*32-1:0] m_data_o,
  // A row or a result is inside the unit (or a window is open).
  output logic            busy_o
);

  localparam logic [KW-1:0] LastK = KW'(C - 1);

  // ---------------------------------------------------------------------------
  // Clock gate (GateIdle): nothing changes while busy_o is low and no row is offered.
  logic clk_v, unused_gate_on;
  tpu_mem_cg #(.Enable(GateIdle)) u_cg (
    .clk_i, .en_i(s_valid_i || busy_o), .clk_o(clk_v), .en_o(unused_gate_on)
  );
  // The configuration as the pipeline uses it: with GateIdle registered with each input
  // row (equal to the inputs while rows are in the pipeline), else the inputs.
  // cfg_s: the scalar fields, in the order of {c_out, c_pool, c_relu, c_relu6, c_zp, c_lo, c_hi}.
  logic [29:0]     cfg_s;
  logic [1:0]      c_out, c_pool;
  logic            c_relu, c_relu6;
  logic [7:0]      c_zp, c_lo, c_hi;
  logic [N*32-1:0] c_bias, c_m0, c_shift;
  assign cfg_s = {cfg_out_i, cfg_pool_i, cfg_relu_i, cfg_relu6_i, cfg_zp_out_i, cfg_clamp_lo_i,
                  cfg_clamp_hi_i};

  // The whole pipeline advances together unless a result waits at the output or (SerialMul)
  // the int8 element in the multiply stage is not multiplied yet: mc_q counts its steps.
  logic adv, mul_wait;
  logic [5:0] mc_q;
  assign adv = (!m_valid_q || m_ready_i) && !mul_wait;

  // ---------------------------------------------------------------------------
  // Input register: a row waits here while its N/Lanes chunks are reduced.
  logic              in_valid_q, in_first_q, in_last_q, win_open_q;
  logic              in_valid_d, win_open_d;
  logic [N*32-1:0]   in_q;
  logic [KW-1:0]     k_q, k_d;
  logic              in_step, in_done, s_fire;

  assign in_step   = in_valid_q && adv;
  assign in_done   = (k_q == LastK);
  assign s_ready_o = !in_valid_q || (adv && in_done);
  assign s_fire    = s_valid_i && s_ready_o;

  always_comb begin
    in_valid_d = in_valid_q;
    k_d        = k_q;
    win_open_d = win_open_q;
    if (in_step) begin
      k_d = in_done ? '0 : k_q + 1'b1;
      if (in_done) begin
        in_valid_d = 1'b0;
        win_open_d = !in_last_q;
      end
    end
    if (s_fire) in_valid_d = 1'b1;
  end

  if (GateIdle != 0) begin : g_cfg_reg
    always_ff @(posedge clk_v) begin
      if (s_fire) begin
        {c_out, c_pool, c_relu, c_relu6, c_zp, c_lo, c_hi} <= cfg_s;
        c_bias  <= bias_i;
        c_m0    <= m0_i;
        c_shift <= shift_i;
      end
    end
  end else begin : g_cfg_in
    assign {c_out, c_pool, c_relu, c_relu6, c_zp, c_lo, c_hi} = cfg_s;
    assign c_bias  = bias_i;
    assign c_m0    = m0_i;
    assign c_shift = shift_i;
  end

  always_ff @(posedge clk_v) begin
    if (s_fire) begin
      in_q       <= s_data_i;
      in_first_q <= s_first_i;
      in_last_q  <= s_last_i;
    end
  end

  // ---------------------------------------------------------------------------
  // Stage valids and chunk indices: P0 (reduced value) .. P4, then the output.
  logic          p0_valid_q, p1_valid_q, p2_valid_q, p3_valid_q, p4_valid_q, m_valid_q;
  logic [KW-1:0] p0_k_q, p1_k_q, p2_k_q, p3_k_q, p4_k_q;

  always_ff @(posedge clk_v or negedge rst_ni) begin
    if (!rst_ni) begin
      in_valid_q <= 1'b0;
      win_open_q <= 1'b0;
      k_q        <= '0;
      p0_valid_q <= 1'b0;
      p1_valid_q <= 1'b0;
      p2_valid_q <= 1'b0;
      p3_valid_q <= 1'b0;
      p4_valid_q <= 1'b0;
      m_valid_q  <= 1'b0;
    end else begin
      in_valid_q <= in_valid_d;
      win_open_q <= win_open_d;
      k_q        <= k_d;
      if (adv) begin
        p0_valid_q <= in_valid_q && in_last_q;
        p1_valid_q <= p0_valid_q;
        p2_valid_q <= p1_valid_q;
        p3_valid_q <= p2_valid_q;
        p4_valid_q <= p3_valid_q;
        m_valid_q  <= p4_valid_q && (p4_k_q == LastK);
      end else if (m_ready_i) begin
        m_valid_q  <= 1'b0;     // taken while the multiply holds the pipeline
      end
    end
  end

  always_ff @(posedge clk_v) begin
    if (adv) begin
      p0_k_q <= k_q;
      p1_k_q <= p0_k_q;
      p2_k_q <= p1_k_q;
      p3_k_q <= p2_k_q;
      p4_k_q <= p3_k_q;
    end
  end

  // ---------------------------------------------------------------------------
  // Lanes.  Chunk k covers channels k*Lanes .. k*Lanes+Lanes-1.
  logic              fp, bf16;
  logic [Lanes*32-1:0] x_chunk, acc_chunk, red_chunk, bias_chunk, m0_chunk;
  logic [Lanes*6-1:0]  sh1_chunk;
  logic [Lanes*OW-1:0] res_chunk;
  logic [N*32-1:0]     red_q;
  logic [N*OW-1:0]     out_q;

  assign fp   = (EnableBf16 != 0) && (c_out != 2'd0);

  if (SerialMul != 0) begin : g_mc
    assign mul_wait = p1_valid_q && !fp && mc_q != 6'd32;
    always_ff @(posedge clk_v or negedge rst_ni) begin
      if (!rst_ni)       mc_q <= '0;
      else if (adv)      mc_q <= '0;
      else if (mul_wait) mc_q <= mc_q + 6'd1;
    end
  end else begin : g_no_mc
    assign mul_wait = 1'b0;
    assign mc_q = '0;
  end

  // The clamp bounds relative to the zero point, registered without an enable:
  // the configuration is stable from the first row, and the output stage uses
  // them five cycles later at the earliest.
  logic [8:0] lo_zp_q, hi_zp_q;
  always_ff @(posedge clk_v) begin
    lo_zp_q <= {c_lo[7], c_lo} - {c_zp[7], c_zp};
    hi_zp_q <= {c_hi[7], c_hi} - {c_zp[7], c_zp};
  end
  assign bf16 = (c_out == 2'd1);

  // The chunk offsets; with one chunk per row (C = 1) they are the constant 0, so that
  // the selections below are fixed wiring (the Verilated model otherwise shifted all
  // four rows by a register that never leaves 0, in every cycle).
  logic [31:0] k_off, p0_k_off;
  assign k_off    = (C > 1) ? 32'(k_q) * Lanes : 32'd0;
  assign p0_k_off = (C > 1) ? 32'(p0_k_q) * Lanes : 32'd0;
  always_comb begin
    for (int unsigned l = 0; l < Lanes; l++) begin
      x_chunk[l*32 +: 32]   = in_q[(k_off + l) * 32 +: 32];
      bias_chunk[l*32 +: 32] = c_bias[(p0_k_off + l) * 32 +: 32];
      sh1_chunk[l*6 +: 6]   = c_shift[(p0_k_off + l) * 32 +: 6];
      m0_chunk[l*32 +: 32]  = c_m0[(p0_k_off + l) * 32 +: 32];
    end
  end

  for (genvar l = 0; l < Lanes; l++) begin : g_lane
    tpu_vpu_lane #(
      .EnableBf16 (EnableBf16),
      .SerialMul  (SerialMul),
      .FpAlways   (GateIdle)
    ) u_lane (
      .clk_i    (clk_v),
      .en_i     (adv),
      .mul_step_i (mul_wait),
      .mul_last_i (mc_q == 6'd31),
      .fp_i     (fp),
      .bf16_i   (bf16),
      .pool_i   (c_pool),
      .relu_i   (c_relu),
      .relu6_i  (c_relu6),
      .zp_i     (c_zp),
      .lo_i     (c_lo),
      .hi_i     (c_hi),
      .lo_zp_i  (lo_zp_q),
      .hi_zp_i  (hi_zp_q),
      .first_i  (in_first_q),
      .x_i      (x_chunk[l*32 +: 32]),
      .acc_i    (acc_chunk[l*32 +: 32]),
      .red_o    (red_chunk[l*32 +: 32]),
      .bias_i   (bias_chunk[l*32 +: 32]),
      .shift1_i (sh1_chunk[l*6 +: 6]),
      .m0_i     (m0_chunk[l*32 +: 32]),
      .res_o    (res_chunk[l*OW +: OW])
    );
  end

  // Partial window sums and maxima: a ring of C chunks that turns by one
  // chunk per step, so the chunk being reduced is always at the bottom and
  // the ring is back in order after each row.  Results shift into the output
  // row the same way; it is offered when the last chunk is in.  (Rings need
  // no chunk multiplexers.)
  if (C > 1) begin : g_ring
    always_ff @(posedge clk_v) begin
      if (in_step)               red_q <= {red_chunk, red_q[N*32-1:Lanes*32]};
      if (adv && p4_valid_q)     out_q <= {res_chunk, out_q[N*OW-1:Lanes*OW]};
    end
  end else begin : g_row
    always_ff @(posedge clk_v) begin
      if (in_step)               red_q <= red_chunk;
      if (adv && p4_valid_q)     out_q <= res_chunk;
    end
  end
  assign acc_chunk = red_q[Lanes*32-1:0];

  if (EnableBf16 != 0) begin : g_out_fp
    always_comb begin
      m_data_o = '0;
      for (int unsigned c = 0; c < N; c++) begin
        if (!fp)       m_data_o[c*8 +: 8]   = out_q[c*32 +: 8];
        else if (bf16) m_data_o[c*16 +: 16] = out_q[c*32 +: 16];
        else           m_data_o[c*32 +: 32] = out_q[c*32 +: 32];
      end
    end
  end else begin : g_out_int
    assign m_data_o = {{(N*24){1'b0}}, out_q};
  end

  assign m_valid_o = m_valid_q;
  assign busy_o    = in_valid_q || win_open_q || p0_valid_q || p1_valid_q || p2_valid_q ||
                     p3_valid_q || p4_valid_q || m_valid_q;

  // ---------------------------------------------------------------------------
  // Assertions
`ifndef SYNTHESIS
  initial begin
    if (Lanes == 0 || N % Lanes != 0) $error("tpu_vpu: Lanes (%0d) must divide N (%0d)", Lanes, N);
  end
  // Windows: the row after a last row is a first row, and only then.
  logic expect_first_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni)     expect_first_q <= 1'b1;
    else if (s_fire) expect_first_q <= s_last_i;
  end
  // Immediate assertions in a clocked block, not properties (docs/verification.md).
  always_ff @(posedge clk_i) begin : checks
    if (rst_ni) begin
      if (s_fire) begin
        a_window: assert (s_first_i == expect_first_q)
          else $error("tpu_vpu: s_first_i does not follow the windows (a first row after a last row)");
      end
      if (s_fire && cfg_pool_i == 2'd0) begin
        a_pool_none: assert (s_first_i && s_last_i)
          else $error("tpu_vpu: POOL_NONE with a window of more than one row");
      end
      if (s_fire && EnableBf16 == 0) begin
        a_no_fp: assert (cfg_out_i == 2'd0)
          else $error("tpu_vpu: fp output in an int8-only configuration");
      end
    end
  end
  // An immediate assertion: Verilator 5.006 miscompiles the sampled copies of
  // vectors this wide that a concurrent property ($stable) would need.
  // The 1,566-bit copy is taken only while busy (the check needs the previous cycle's
  // copy only after a busy cycle), not in every cycle of the simulation.  On the gated
  // clock: busy_o is registered state, so in a cycle without a clk_v edge it is low and
  // stays low, and the first edge after a gap writes busy_prev_q low as clk_i would have
  // (with GateIdle the block then costs nothing in idle cycles).
  localparam int unsigned CfgW = 3 * N * 32 + 30;
  logic [CfgW-1:0] cfg_prev_q;
  logic            busy_prev_q;
  always_ff @(posedge clk_v) begin
    logic [CfgW-1:0] cfg_now;
    busy_prev_q <= busy_o;
    if (busy_o) begin
      cfg_now = {cfg_s, bias_i, m0_i, shift_i};
      cfg_prev_q <= cfg_now;
      if (rst_ni && busy_prev_q) begin
        a_cfg_stable: assert (cfg_now == cfg_prev_q)
          else $error("tpu_vpu: configuration or VP rows changed while busy");
      end
    end
  end
  // A result offered and not taken is offered again in the next cycle.
  logic m_stall_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) m_stall_q <= 1'b0;
    else m_stall_q <= m_valid_o && !m_ready_i;
  end
  always_ff @(posedge clk_i) begin
    if (rst_ni && m_stall_q) begin
      a_m_hold: assert (m_valid_o) else $error("tpu_vpu: result withdrawn");
    end
  end
`endif

endmodule
