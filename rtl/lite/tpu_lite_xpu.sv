// SPDX-License-Identifier: Apache-2.0
// tpu_lite_xpu: the lite SoC's matrix unit: a 4x4 int8 weight tile, one activation row per
// register write multiplied by it (16 products), and a 128-row int32 x 4 accumulator in
// block RAM that the CPU reads and writes through a window (docs/lite.md).
`default_nettype none

// Registers (byte offsets on the bus; the ACC window is at 0x1000):
//   0x00..0x0c W0..W3  write: W[k][n] = byte n of Wk
//   0x10 ZP            write: input zero point, bits 7:0
//   0x14 ROW           read/write: ACC row of the next X; +1 (mod 128) after each X
//   0x18 MODE          bit 0: 1 = ACC[ROW] += r, 0 = ACC[ROW] = r
//   0x1c X             write: x[k] = byte k; r[n] = sum_k (x[k] - zp) W[k][n]
//   0x20 STATUS        read: bit 0 busy (an X in flight)
//   0x24 COUNT         read: X rows since reset
//   0x28 INFO          read: N, ACC rows / 4, version (below)
//   0x1000 + 16 r + 4 n  ACC[r][n], read/write
//
// An X takes four cycles: accept (x - zp registered, ROW and MODE latched), products
// (r registered; the ACC row's lanes 0-1 read), lanes 0-1 written and 2-3 read, lanes 2-3
// written.  The ACC is 256 x 64 bits, entry {row, half} holding lanes 2 half, 2 half + 1
// (four 256 x 16 SB_RAM40_4K).  Hardware ordering instead of polling: an X is taken in the
// last cycle of the one before at the earliest, a W write waits while the products are
// formed, and an ACC access waits until no X is in flight.
module tpu_lite_xpu #(
  // 1: the 16 products two per hand-instantiated iCE40 SB_MAC16 in 8 x 8 mode (as the full
  // MXU's Ice40Mac16); 0: `*` (simulation, other FPGAs).  Bit-identical.
`ifdef TPU_ICE40
  parameter int unsigned Ice40Mac16 = 1
`else
  parameter int unsigned Ice40Mac16 = 0
`endif
) (
  input  wire         clk_i,
  input  wire         rst_ni,
  // Register bus: request (held while ready_o is low), read data in the cycle after
  input  wire         req_i,
  input  wire         we_i,
  input  wire  [12:0] addr_i,     // byte offset from the register page
  input  wire  [31:0] wdata_i,
  output logic        ready_o,
  output logic [31:0] rdata_o,
  output logic        busy_o      // an X is in flight
);
  localparam int N = 4;
  localparam int AccRows = 128;
  localparam logic [7:0] Version = 8'd1;
  localparam logic [31:0] Info = {Version, 8'd0, 8'(AccRows / 4), 8'(N)};

  typedef enum logic [1:0] { StIdle, StProd, StHalf0, StHalf1 } state_e;

  // Register offsets (addr_i[5:2] in the register page)
  localparam logic [3:0] RegZp = 4'd4, RegRow = 4'd5, RegMode = 4'd6, RegX = 4'd7,
                         RegStatus = 4'd8, RegCount = 4'd9, RegInfo = 4'd10;

  state_e state_q, state_d;
  logic [8*N*N-1:0] w_q, w_d;        // W[k][n] at [8*(N*k + n) +: 8]
  logic [7:0] zp_q, zp_d;
  logic [6:0] row_q, row_d, xrow_q, xrow_d;
  logic mode_q, mode_d, xmode_q, xmode_d;
  logic [31:0] count_q, count_d;
  logic [9*N-1:0] a_q, a_d;          // x[k] - zp, 9-bit signed, at [9k +: 9]
  logic [19*N-1:0] r_q;              // r[n], 19-bit signed, at [19n +: 19]
  logic [19*N-1:0] r;
  logic [31:0] rdata_q, rdata_d;

  // Bus decode
  wire acc_sel = addr_i[12];
  wire [3:0] reg_sel = addr_i[5:2];
  wire reg_page = !acc_sel && addr_i[11:6] == '0;
  wire x_req = req_i && we_i && reg_page && reg_sel == RegX;
  wire w_req = req_i && we_i && reg_page && reg_sel[3:2] == 2'd0;
  wire acc_req = req_i && acc_sel && addr_i[11] == 1'b0;
  wire x_ok = state_q == StIdle || state_q == StHalf1;
  assign ready_o = !((x_req && !x_ok) || (w_req && state_q == StProd) || (acc_req && state_q != StIdle));
  wire x_go = x_req && x_ok;
  assign busy_o = state_q != StIdle;

  // ------------------------------------------------------------ the ACC RAM
  // One write port with a 32-bit lane enable, one registered read port.
  logic [7:0] acc_waddr, acc_raddr;
  logic [1:0] acc_we;
  logic [63:0] acc_wdata, acc_rdata_q;
  logic acc_re;
  logic [63:0] acc_m [2 * AccRows];
  always_ff @(posedge clk_i) begin
    if (acc_we[0]) acc_m[acc_waddr][31:0] <= acc_wdata[31:0];
    if (acc_we[1]) acc_m[acc_waddr][63:32] <= acc_wdata[63:32];
    if (acc_re) acc_rdata_q <= acc_m[acc_raddr];
  end

  // ------------------------------------------------------------ products
  if (Ice40Mac16 != 0) begin : g_mac16
    // SB_MAC16 (k, m) multiplies the unsigned low byte of a[k] by W[k][2m] and W[k][2m+1]
    // (signed), each product exact in 16 bits; a = a[7:0] - 256 a[8], so the correction
    // -256 a[8] W is added in logic.  Nothing registered inside the DSP.
    // p[k][n] = a[k][7:0] * W[k][n] at [16*(N*k + n) +: 16]; the correction of lane n,
    // sum_k a[k][8] W[k][n], is summed apart and subtracted once, 256 times.
    logic [N*N*16-1:0] p;
    for (genvar k = 0; k < N; k++) begin : g_k
      for (genvar m = 0; m < N / 2; m++) begin : g_m
        logic co, accumco, signextout, unused_mac;
        assign unused_mac = ^{co, accumco, signextout};
        SB_MAC16 #(
          .MODE_8x8         (1'b1),
          .A_SIGNED         (1'b0),
          .B_SIGNED         (1'b1),
          .TOPOUTPUT_SELECT (2'd2),
          .BOTOUTPUT_SELECT (2'd2)
        ) u_mac (
          .CLK (clk_i), .CE (1'b1),
          .A ({a_q[9*k +: 8], a_q[9*k +: 8]}),
          .B ({w_q[8*(N*k + 2*m + 1) +: 8], w_q[8*(N*k + 2*m) +: 8]}),
          .C (16'd0), .D (16'd0),
          .AHOLD (1'b0), .BHOLD (1'b0), .CHOLD (1'b0), .DHOLD (1'b0),
          .IRSTTOP (1'b0), .IRSTBOT (1'b0), .ORSTTOP (1'b0), .ORSTBOT (1'b0),
          .OLOADTOP (1'b0), .OLOADBOT (1'b0), .ADDSUBTOP (1'b0), .ADDSUBBOT (1'b0),
          .OHOLDTOP (1'b0), .OHOLDBOT (1'b0), .CI (1'b0), .ACCUMCI (1'b0), .SIGNEXTIN (1'b0),
          .O (p[16*(N*k + 2*m) +: 32]), .CO (co), .ACCUMCO (accumco), .SIGNEXTOUT (signextout)
        );
      end
    end
    always_comb begin : sum_lanes
      logic [18:0] lo;
      logic [9:0] corr;
      for (int n = 0; n < N; n++) begin
        lo = 19'd0;
        corr = 10'd0;
        for (int k = 0; k < N; k++) begin
          lo = lo + 19'($signed(p[16*(N*k + n) +: 16]));
          if (a_q[9*k + 8]) corr = corr + 10'($signed(w_q[8*(N*k + n) +: 8]));
        end
        r[19*n +: 19] = lo - {corr[9], corr, 8'd0};
      end
    end
  end else begin : g_mul
    always_comb begin
      for (int n = 0; n < N; n++) begin
        r[19*n +: 19] = 19'd0;
        for (int k = 0; k < N; k++) begin
          r[19*n +: 19] = r[19*n +: 19] +
              19'($signed(a_q[9*k +: 9]) * $signed(w_q[8*(N*k + n) +: 8]));
        end
      end
    end
  end

  always_ff @(posedge clk_i) begin
    if (state_q == StProd) r_q <= r;
  end

  // ------------------------------------------------------------ control
  // Lanes 2h, 2h+1 of r (sign-extended) and what the ACC gets for them.
  logic [2*19-1:0] r_half;
  logic [63:0] half_sum;
  always_comb begin
    r_half = (state_q == StHalf1) ? r_q[19*2 +: 2*19] : r_q[0 +: 2*19];
    for (int l = 0; l < 2; l++) begin
      half_sum[32*l +: 32] = 32'($signed(r_half[19*l +: 19])) + (xmode_q ? acc_rdata_q[32*l +: 32] : 32'd0);
    end
  end

  logic acc_lane_q, acc_lane_d, acc_rd_q, acc_rd_d;
  always_comb begin
    state_d = state_q;
    w_d = w_q;
    zp_d = zp_q;
    row_d = row_q;
    mode_d = mode_q;
    count_d = count_q;
    a_d = a_q;
    xrow_d = xrow_q;
    xmode_d = xmode_q;
    rdata_d = rdata_q;
    acc_lane_d = acc_lane_q;
    acc_rd_d = 1'b0;
    acc_we = 2'b00;
    acc_waddr = {xrow_q, 1'b0};
    acc_wdata = half_sum;
    acc_re = 1'b0;
    acc_raddr = {xrow_q, 1'b0};

    unique case (state_q)
      StIdle: ;
      StProd: begin
        acc_re = 1'b1;
        state_d = StHalf0;
      end
      StHalf0: begin
        acc_we = 2'b11;
        acc_re = 1'b1;
        acc_raddr = {xrow_q, 1'b1};
        state_d = StHalf1;
      end
      StHalf1: begin
        acc_we = 2'b11;
        acc_waddr = {xrow_q, 1'b1};
        state_d = StIdle;
      end
      default: state_d = StIdle;
    endcase

    // Register writes
    if (req_i && we_i && reg_page && ready_o) begin
      for (int k = 0; k < N; k++) begin
        if (reg_sel == 4'(k)) w_d[32*k +: 32] = wdata_i;
      end
      if (reg_sel == RegZp) zp_d = wdata_i[7:0];
      if (reg_sel == RegRow) row_d = wdata_i[6:0];
      if (reg_sel == RegMode) mode_d = wdata_i[0];
    end
    if (x_go) begin
      for (int k = 0; k < N; k++) a_d[9*k +: 9] = {wdata_i[8*k + 7], wdata_i[8*k +: 8]} - {zp_q[7], zp_q};
      xrow_d = row_q;
      xmode_d = mode_q;
      row_d = row_q + 7'd1;
      count_d = count_q + 32'd1;
      state_d = StProd;
    end

    // ACC window: row addr_i[10:4], lane addr_i[3:2]
    if (acc_req && ready_o) begin
      if (we_i) begin
        acc_we = addr_i[2] ? 2'b10 : 2'b01;
        acc_waddr = {addr_i[10:4], addr_i[3]};
        acc_wdata = {wdata_i, wdata_i};
      end else begin
        acc_re = 1'b1;
        acc_raddr = {addr_i[10:4], addr_i[3]};
        acc_lane_d = addr_i[2];
        acc_rd_d = 1'b1;
      end
    end

    // Register reads
    if (req_i && !we_i && !acc_sel) begin
      rdata_d = 32'd0;
      if (reg_page) begin
        unique case (reg_sel)
          RegRow:    rdata_d = {25'd0, row_q};
          RegMode:   rdata_d = {31'd0, mode_q};
          RegStatus: rdata_d = {31'd0, busy_o};
          RegCount:  rdata_d = count_q;
          RegInfo:   rdata_d = Info;
          default:   rdata_d = 32'd0;
        endcase
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q <= StIdle;
      w_q <= '0;
      zp_q <= '0;
      row_q <= '0;
      mode_q <= 1'b0;
      count_q <= '0;
      xrow_q <= '0;
      xmode_q <= 1'b0;
      acc_rd_q <= 1'b0;
      acc_lane_q <= 1'b0;
      rdata_q <= '0;
    end else begin
      state_q <= state_d;
      w_q <= w_d;
      zp_q <= zp_d;
      row_q <= row_d;
      mode_q <= mode_d;
      count_q <= count_d;
      xrow_q <= xrow_d;
      xmode_q <= xmode_d;
      acc_rd_q <= acc_rd_d;
      acc_lane_q <= acc_lane_d;
      rdata_q <= rdata_d;
    end
  end

  always_ff @(posedge clk_i) begin
    a_q <= a_d;
  end

  assign rdata_o = acc_rd_q ? (acc_lane_q ? acc_rdata_q[63:32] : acc_rdata_q[31:0]) : rdata_q;

  logic unused;
  assign unused = ^{addr_i[1:0]};
endmodule
