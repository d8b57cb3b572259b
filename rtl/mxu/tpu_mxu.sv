// SPDX-License-Identifier: Apache-2.0
// The matrix unit: double-buffered weight tiles, zero-point handling, the
// systolic array and the accumulator memory, behind valid/ready row streams.
`default_nettype none

module tpu_mxu #(
  // Array size: N x N multiply-accumulate units.
  parameter int unsigned N = 16,
  // 1: bf16 x bf16 -> fp32 as well as int8 x int8 -> int32; 0: int8 only.
  parameter int unsigned EnableBf16 = 1,
  // Rows of the accumulator memory.
  parameter int unsigned AccRows = 512,
  // 1: 32-bit lanes inside the array (faster simulation, see tpu_mxu_array).
  parameter int unsigned WideLanes = 0,
  // 1: the ACC read port is a separate memory read that never waits for result
  // rows (tpu_acc ReadPort); 0: it shares the accumulate read.
  parameter int unsigned AccReadPort = 0,
  // 1: int8-only exact-width arrays multiply two PEs' products in one iCE40 SB_MAC16
  // (tpu_mxu_row); the default is 1 where TPU_ICE40 is defined (iCE40 board builds).
`ifdef TPU_ICE40
  parameter int unsigned Ice40Mac16 = 1,
`else
  parameter int unsigned Ice40Mac16 = 0,
`endif
  // PEs that multiply int8 with an inferred `*` (a DSP on an FPGA), counted row by row from
  // the top row; the others multiply in logic (tpu_mxu_mul_logic), bit-identical.  The
  // default, all N x N, is overridden where TPU_MXU_DSP_PES is defined (the ULX3S build,
  // mk/board.mk, whose ECP5 has 156 multipliers for the whole SoC).
`ifdef TPU_MXU_DSP_PES
  parameter int unsigned DspPes = `TPU_MXU_DSP_PES,
`else
  parameter int unsigned DspPes = N * N,
`endif
  // Bits per element on the weight and activation streams.
  localparam int unsigned EW = (EnableBf16 != 0) ? 16 : 8,
  // Activation lane width inside the array (int8 minus zero point needs 9 bits).
  localparam int unsigned AW = (WideLanes != 0) ? 32 : ((EnableBf16 != 0) ? 16 : 9),
  localparam int unsigned AccAw = (AccRows > 1) ? $clog2(AccRows) : 1
) (
  input  logic              clk_i,
  input  logic              rst_ni,
  // Weight tiles: N rows per tile, row k of the tile first for k = 0..N-1;
  // element n of row k is W[k][n] (int8 in the low byte, or bf16).
  input  logic              w_valid_i,
  output logic              w_ready_o,
  input  logic [N*EW-1:0]   w_data_i,
  // Activation rows: x[k] for k = 0..N-1.  A row with a_first_i starts a block
  // that uses the next loaded weight tile; the other rows of the block reuse it.
  input  logic              a_valid_i,
  output logic              a_ready_o,
  input  logic [N*EW-1:0]   a_data_i,
  input  logic              a_first_i,
  input  logic              a_acc_i,     // accumulate into ACC row (else overwrite)
  input  logic              a_bf16_i,    // bf16 block (else int8)
  input  logic [7:0]        a_zp_i,      // int8 input zero point
  input  logic [AccAw-1:0]  a_addr_i,    // ACC row for the result
  // Accumulator read port (result rows have priority over it).
  input  logic              r_valid_i,
  output logic              r_ready_o,
  input  logic [AccAw-1:0]  r_addr_i,
  output logic              r_data_valid_o,
  output logic [N*32-1:0]   r_data_o,
  // Status
  output logic              busy_o,      // rows in the array or the ACC pipeline
  output logic              row_fire_o   // a row entered the array this cycle
);

  localparam int unsigned Lat = 2 * N;                 // array latency in cycles
  localparam int unsigned CW  = $clog2(2 * N + 1);     // since-counter width
  localparam logic [CW-1:0] Sat = CW'(2 * N);
  localparam int unsigned RW  = (N > 1) ? $clog2(N) : 1;
  localparam int unsigned IW  = $clog2(Lat + 2);       // rows in flight

  // ---------------------------------------------------------------------------
  // Weight tiles.  Each PE has an active and a shadow weight; the first row of
  // a block copies shadow to active as it passes.  full_q: the shadow holds a
  // whole tile that no block has taken yet.  since_q counts cycles since the
  // last first row was accepted: that row enters the array a cycle later and
  // has passed the last PE of array row k after N+k-1 more, so shadow row k
  // may be overwritten once since_q >= N+k-1.
  logic          full_d, full_q, started_d, started_q;
  logic [CW-1:0] since_d, since_q;
  logic [RW-1:0] wrow_d, wrow_q;
  logic          bf16_d, bf16_q;
  logic [IW-1:0] inflight_d, inflight_q;
  logic          a_fire, w_fire, mode_ok, out_valid;
  logic          acc_idle;

  assign w_ready_o  = !full_q &&
                      ({{(32-CW){1'b0}}, since_q} >= {{(32-RW){1'b0}}, wrow_q} + N - 1);
  assign w_fire     = w_valid_i && w_ready_o;

  // A block starts only on a loaded tile; the datapath mode changes only when
  // the array is empty.
  assign mode_ok    = (a_bf16_i == bf16_q) ||
                      (a_first_i && inflight_q == '0 && !in_valid_q);
  assign a_ready_o  = (!a_first_i || full_q) && mode_ok;
  assign a_fire     = a_valid_i && a_ready_o;
  assign row_fire_o = a_fire;

  always_comb begin
    full_d     = full_q;
    started_d  = started_q;
    wrow_d     = wrow_q;
    bf16_d     = bf16_q;
    since_d    = (since_q == Sat) ? Sat : since_q + 1'b1;
    if (w_fire) begin
      wrow_d = wrow_q + 1'b1;
      if (wrow_q == RW'(N - 1)) begin
        wrow_d = '0;
        full_d = 1'b1;
      end
    end
    if (a_fire && a_first_i) begin
      full_d    = 1'b0;
      started_d = 1'b1;
      since_d   = '0;
      bf16_d    = a_bf16_i;
    end
    inflight_d = inflight_q + IW'(in_valid_q) - IW'(out_valid);
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      full_q     <= 1'b0;
      started_q  <= 1'b0;
      wrow_q     <= '0;
      bf16_q     <= 1'b0;
      since_q    <= Sat;
      inflight_q <= '0;
    end else begin
      full_q     <= full_d;
      started_q  <= started_d;
      wrow_q     <= wrow_d;
      bf16_q     <= bf16_d;
      since_q    <= since_d;
      inflight_q <= inflight_d;
    end
  end

  // ---------------------------------------------------------------------------
  // Input register: an accepted row waits here one cycle, so that nothing in
  // the array depends combinationally on the module's inputs.  Then int8
  // lanes become x - zp (9 bits, sign-extended to the lane); bf16 lanes pass.
  logic              in_valid_q, in_first_q, in_acc_q, in_bf16_q;
  logic [N*EW-1:0]   in_data_q;
  logic [7:0]        in_zp_q;
  logic [AccAw-1:0]  in_addr_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) in_valid_q <= 1'b0;
    else         in_valid_q <= a_fire;
  end
  always_ff @(posedge clk_i) begin
    if (a_fire) begin
      in_data_q <= a_data_i;
      in_first_q <= a_first_i;
      in_acc_q  <= a_acc_i;
      in_bf16_q <= (EnableBf16 != 0) && a_bf16_i;
      in_zp_q   <= a_zp_i;
      in_addr_q <= a_addr_i;
    end
  end

  logic [N*AW-1:0] in_row;
  logic [8:0]      x_minus_zp;
  always_comb begin
    x_minus_zp = '0;
    for (int unsigned k = 0; k < N; k++) begin
      // x - zp lies in [-255, 255]: exact in 9 bits.
      x_minus_zp = {in_data_q[k*EW + 7], in_data_q[k*EW +: 8]} - {in_zp_q[7], in_zp_q};
      in_row[k*AW +: AW] = AW'($signed(x_minus_zp));
      if (in_bf16_q) in_row[k*AW +: AW] = AW'(in_data_q[k*EW +: EW]);
    end
  end

  logic [N*32-1:0] out_row;
  tpu_mxu_array #(
    .N          (N),
    .EnableBf16 (EnableBf16),
    .WideLanes  (WideLanes),
    .Ice40Mac16 (Ice40Mac16),
    .DspPes     (DspPes)
  ) u_array (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .in_valid_i  (in_valid_q),
    .in_row_i    (in_row),
    .in_switch_i (in_valid_q && in_first_q),
    .bf16_i      (bf16_q),
    .w_we_i      (w_fire),
    .w_row_i     (wrow_q),
    .w_data_i    (w_data_i),
    .out_valid_o (out_valid),
    .out_row_o   (out_row)
  );

  // The ACC address and mode of each row travel beside the array.
  localparam int unsigned CtlW = AccAw + 2;
  logic [Lat*CtlW-1:0] ctl_q;
  logic [CtlW-1:0]     ctl_out;
  always_ff @(posedge clk_i) begin
    ctl_q <= {ctl_q[(Lat-1)*CtlW-1:0], in_addr_q, in_acc_q, in_bf16_q};
  end
  assign ctl_out = ctl_q[(Lat-1)*CtlW +: CtlW];

  tpu_acc #(
    .N          (N),
    .AccRows    (AccRows),
    .EnableBf16 (EnableBf16),
    .ReadPort   (AccReadPort)
  ) u_acc (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .in_valid_i (out_valid),
    .in_acc_i   (ctl_out[1]),
    .in_bf16_i  (ctl_out[0]),
    .in_addr_i  (ctl_out[2 +: AccAw]),
    .in_row_i   (out_row),
    .rd_valid_i (r_valid_i),
    .rd_ready_o (r_ready_o),
    .rd_addr_i  (r_addr_i),
    .rd_valid_o (r_data_valid_o),
    .rd_data_o  (r_data_o),
    .idle_o     (acc_idle)
  );

  assign busy_o = in_valid_q || (inflight_q != '0) || !acc_idle;

  // Assertions
`ifndef SYNTHESIS
  // Rows of a block reuse its tile; a block must have started first.
  // Immediate assertions in a clocked block, not properties (docs/verification.md).
  always_ff @(posedge clk_i) begin : checks
    if (rst_ni) begin
      a_block_started: assert (!(a_fire && !a_first_i && !started_q))
        else $error("tpu_mxu: activation row without a loaded tile (no a_first_i yet)");
      a_inflight_bound: assert (inflight_q <= IW'(Lat))
        else $error("tpu_mxu: more rows in flight than the array holds");
      a_mode_in_block: assert (!(a_fire && !a_first_i && a_bf16_i != bf16_q))
        else $error("tpu_mxu: data type changed inside a block");
    end
  end
`endif

endmodule
