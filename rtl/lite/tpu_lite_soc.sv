// SPDX-License-Identifier: Apache-2.0
// tpu_lite_soc: picotpu-lite, the SoC for the iCE40UP5K: the RV32IM core runs the link
// protocol over a plain UART and interprets programs in firmware, with a 4x4 int8 matrix
// unit (the XPU), the SPRAM as device memory and the firmware in block RAM (docs/lite.md).
`default_nettype none

// The ports are tpu_board_soc's, so that board tops and tests/boardsoc drive either SoC:
//   fault_o  the firmware wrote EXIT (it does so only on an unhandled trap)
//   busy_o   the XPU has an activation row in flight
// The SDRAM ports are tied idle.  CPU memory map (fw/lite/lite_map.h):
//   0x0000_0000  firmware ROM/RAM, FwRomKb KB ($readmemh FwInit), fetch and data
//   0x1000_0000  platform page (tpu_soc_platform without the timer: console, exit, mtime)
//   0x1000_4000  UART (tpu_lite_uart)
//   0x1000_5000  XPU registers, 0x1000_6000 its ACC window (tpu_lite_xpu)
//   0x2000_0000  SPRAM, 128 KB (tpu_lite_spram)
// Anything else is an access fault.  Every target answers in the cycle after it takes a
// request; the UART (TX FIFO full) and the XPU (hardware ordering) hold a request with
// the data port's ready.
module tpu_lite_soc #(
  parameter int unsigned ClkHz = 24_000_000,  // clock (the UART's bit time)
  parameter int unsigned Baud  = 3_000_000,   // UART line rate; ClkHz/Baud >= 4
  parameter FwInit             = "",          // $readmemh image of the firmware
  parameter int FwRomKb        = 10,          // firmware block RAM (KB; 2 SB_RAM40_4K per KB)
  parameter int UartRxDepth    = 512,         // UART FIFOs (entries, powers of two)
  parameter int UartTxDepth    = 512,
  parameter int DmemReg        = 1,           // 1: data requests registered before the targets
  parameter int SimConsole     = 1,           // simulation: print console writes ($write)
  /* verilator lint_off UNUSEDPARAM */
  parameter logic [127:0] ConfigName = "lite" // the firmware reports the name (INFO)
  /* verilator lint_on UNUSEDPARAM */
) (
  input  wire  clk_i,
  input  wire  rst_ni,
  input  wire  uart_rx_i,
  output logic uart_tx_o,
  output logic fault_o,
  output logic busy_o,
  // SDR SDRAM: none on the lite; tied idle
  output logic        sdram_cke_o,
  output logic        sdram_cs_no,
  output logic        sdram_ras_no,
  output logic        sdram_cas_no,
  output logic        sdram_we_no,
  output logic [1:0]  sdram_ba_o,
  output logic [12:0] sdram_a_o,
  output logic [1:0]  sdram_dqm_o,
  output logic [15:0] sdram_dq_o,
  output logic        sdram_dq_oe_o,
  input  wire  [15:0] sdram_dq_i
);
  localparam int RomWords = FwRomKb * 256;
  localparam int RomAW = $clog2(RomWords);

  // ================================================================ CPU
  logic        imem_req_valid, dmem_req_valid, dmem_req_ready, dmem_req_we;
  logic [31:0] imem_req_addr, dmem_req_addr, dmem_req_wdata;
  logic [3:0]  dmem_req_wstrb;
  logic        imem_rsp_valid, imem_rsp_err, dmem_rsp_valid, dmem_rsp_err;
  logic [31:0] imem_rsp_rdata, dmem_rsp_rdata;
  // The retirement trace is for the CPU's own testbench; synthesis removes it.
  logic        unused_trace_valid, unused_trace_trap;
  logic [31:0] unused_trace_pc, unused_trace_insn, unused_trace_rd_wdata, unused_trace_next_pc;
  logic [4:0]  unused_trace_cause, unused_trace_rd;

  tpu_cpu #(
    .BootAddr(32'h0000_0000),
    .EnableM (1),
    .HartId  (32'd0),
    .LutRam  (0)
  ) u_cpu (
    .clk_i,
    .rst_ni,
    .imem_req_valid_o(imem_req_valid),
    .imem_req_ready_i(1'b1),
    .imem_req_addr_o (imem_req_addr),
    .imem_rsp_valid_i(imem_rsp_valid),
    .imem_rsp_rdata_i(imem_rsp_rdata),
    .imem_rsp_err_i  (imem_rsp_err),
    .dmem_req_valid_o(dmem_req_valid),
    .dmem_req_ready_i(dmem_req_ready),
    .dmem_req_addr_o (dmem_req_addr),
    .dmem_req_we_o   (dmem_req_we),
    .dmem_req_wdata_o(dmem_req_wdata),
    .dmem_req_wstrb_o(dmem_req_wstrb),
    .dmem_rsp_valid_i(dmem_rsp_valid),
    .dmem_rsp_rdata_i(dmem_rsp_rdata),
    .dmem_rsp_err_i  (dmem_rsp_err),
    .irq_i           (1'b0),
    .timer_irq_i     (1'b0),
    .trace_valid_o   (unused_trace_valid),
    .trace_pc_o      (unused_trace_pc),
    .trace_insn_o    (unused_trace_insn),
    .trace_trap_o    (unused_trace_trap),
    .trace_cause_o   (unused_trace_cause),
    .trace_rd_o      (unused_trace_rd),
    .trace_rd_wdata_o(unused_trace_rd_wdata),
    .trace_next_pc_o (unused_trace_next_pc)
  );

  // ================================================================ bus decode
  typedef enum logic [2:0] { TgtRom, TgtPlat, TgtUart, TgtXpu, TgtSpram, TgtErr } tgt_e;

  /* verilator lint_off UNUSEDSIGNAL */  // the low bits select inside the target
  function automatic tgt_e decode(input logic [31:0] a);
    if (a[31:RomAW+2] == '0 && a[RomAW+1:2] < RomAW'(RomWords)) decode = TgtRom;
    else if (a[31:12] == 20'h10000) decode = TgtPlat;
    else if (a[31:12] == 20'h10004) decode = TgtUart;
    else if (a[31:12] == 20'h10005 || (a[31:12] == 20'h10006 && a[11] == 1'b0)) decode = TgtXpu;
    else if (a[31:17] == 15'h1000) decode = TgtSpram;
    else decode = TgtErr;
  endfunction
  /* verilator lint_on UNUSEDSIGNAL */

  tgt_e d_tgt, b_tgt, rsp_tgt_q, rsp_tgt_d;
  logic rsp_i_q, rsp_i_d, rsp_d_q, rsp_d_d;
  logic uart_ready, xpu_ready;
  assign d_tgt = decode(dmem_req_addr);
  wire i_rom = decode(imem_req_addr) == TgtRom;

  // The data request as the targets see it (b_*): with DmemReg = 1 registered first, so that
  // neither the targets' inputs nor their ready depend on the core's address adder (one
  // more cycle per load and store); with 0 the core's request as it is.
  logic        b_valid, b_we, b_ready, b_go;
  logic [31:0] b_addr, b_wdata;
  logic [3:0]  b_wstrb;
  assign b_ready = !(b_tgt == TgtUart && !uart_ready) && !(b_tgt == TgtXpu && !xpu_ready);
  assign b_go = b_valid && b_ready;
  if (DmemReg != 0) begin : g_dreg
    logic pend_q, pend_d;
    tgt_e tgt_q;
    logic we_q;
    logic [31:0] addr_q, wdata_q;
    logic [3:0] wstrb_q;
    // The core waits in its memory state for the answer, so nothing new comes meanwhile.
    always_comb begin
      pend_d = pend_q;
      if (b_go) pend_d = 1'b0;
      if (dmem_req_valid) pend_d = 1'b1;
    end
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        pend_q <= 1'b0;
        tgt_q <= TgtErr;
      end else begin
        pend_q <= pend_d;
        if (dmem_req_valid) tgt_q <= d_tgt;
      end
    end
    always_ff @(posedge clk_i) begin
      if (dmem_req_valid) begin
        we_q <= dmem_req_we;
        addr_q <= dmem_req_addr;
        wdata_q <= dmem_req_wdata;
        wstrb_q <= dmem_req_wstrb;
      end
    end
    assign dmem_req_ready = 1'b1;
    assign b_valid = pend_q;
    assign b_tgt = tgt_q;
    assign b_we = we_q;
    assign b_addr = addr_q;
    assign b_wdata = wdata_q;
    assign b_wstrb = wstrb_q;
  end else begin : g_dcomb
    assign dmem_req_ready = b_ready;
    assign b_valid = dmem_req_valid;
    assign b_tgt = d_tgt;
    assign b_we = dmem_req_we;
    assign b_addr = dmem_req_addr;
    assign b_wdata = dmem_req_wdata;
    assign b_wstrb = dmem_req_wstrb;
  end

  always_comb begin
    rsp_i_d = imem_req_valid;
    rsp_d_d = b_go;
    rsp_tgt_d = rsp_tgt_q;
    if (imem_req_valid) rsp_tgt_d = i_rom ? TgtRom : TgtErr;
    if (b_go) rsp_tgt_d = b_tgt;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rsp_i_q <= 1'b0;
      rsp_d_q <= 1'b0;
      rsp_tgt_q <= TgtErr;
    end else begin
      rsp_i_q <= rsp_i_d;
      rsp_d_q <= rsp_d_d;
      rsp_tgt_q <= rsp_tgt_d;
    end
  end

  // ================================================================ targets
  // Firmware ROM (writable: .data and .bss may live there); one port shared by fetch
  // and data, which the core never use in the same cycle.
  logic [31:0] rom_rdata, plat_rdata, uart_rdata, xpu_rdata, spram_rdata;
  wire rom_d = b_go && b_tgt == TgtRom;
  tpu_soc_ram #(.Words(RomWords), .InitFile(FwInit)) u_rom (
    .clk_i,
    .req_i       (rom_d || (imem_req_valid && i_rom)),
    .we_i        (rom_d && b_we),
    .addr_i      (rom_d ? b_addr[RomAW+1:2] : imem_req_addr[RomAW+1:2]),
    .wdata_i     (b_wdata),
    .wstrb_i     (b_wstrb),
    .rdata_o     (rom_rdata),
    .boot_we_i   (1'b0),
    .boot_addr_i (RomAW'(0)),
    .boot_wdata_i(32'd0)
  );

  logic exit_valid, console_valid;
  logic [31:0] exit_code;
  logic [7:0] console_data;
  // The full SoC's platform page without mtimecmp and its interrupt (the firmware polls
  // mtime); SOC_INFO reads 0 (no channel counters).
  /* verilator lint_off PINCONNECTEMPTY */
  tpu_soc_platform #(.NumCh(0), .EnableTimer(0)) u_plat (
    .clk_i,
    .rst_ni,
    .reg_req_i      (b_go && b_tgt == TgtPlat),
    .reg_we_i       (b_we),
    .reg_addr_i     (b_addr[11:0]),
    .reg_wdata_i    (b_wdata),
    .reg_rdata_o    (plat_rdata),
    .console_valid_o(console_valid),
    .console_data_o (console_data),
    .exit_valid_o   (exit_valid),
    .exit_code_o    (exit_code),
    .timer_irq_o    ()
  );
  /* verilator lint_on PINCONNECTEMPTY */

  tpu_lite_uart #(.ClkHz(ClkHz), .Baud(Baud), .RxDepth(UartRxDepth), .TxDepth(UartTxDepth)) u_uart (
    .clk_i,
    .rst_ni,
    .req_i  (b_valid && b_tgt == TgtUart),
    .we_i   (b_we),
    .addr_i (b_addr[3:0]),
    .wdata_i(b_wdata),
    .ready_o(uart_ready),
    .rdata_o(uart_rdata),
    .rx_i   (uart_rx_i),
    .tx_o   (uart_tx_o)
  );

  logic xpu_busy;
  tpu_lite_xpu u_xpu (
    .clk_i,
    .rst_ni,
    .req_i  (b_valid && b_tgt == TgtXpu),
    .we_i   (b_we),
    .addr_i ({b_addr[13], b_addr[11:0]}),  // 0x1000_6000 -> 0x1000
    .wdata_i(b_wdata),
    .ready_o(xpu_ready),
    .rdata_o(xpu_rdata),
    .busy_o (xpu_busy)
  );

  tpu_lite_spram u_spram (
    .clk_i,
    .req_i  (b_go && b_tgt == TgtSpram),
    .we_i   (b_we),
    .addr_i (b_addr[16:2]),
    .wdata_i(b_wdata),
    .wstrb_i(b_wstrb),
    .rdata_o(spram_rdata)
  );

  // ================================================================ responses
  assign imem_rsp_valid = rsp_i_q;
  assign imem_rsp_rdata = rom_rdata;
  assign imem_rsp_err   = rsp_tgt_q == TgtErr;
  assign dmem_rsp_valid = rsp_d_q;
  assign dmem_rsp_err   = rsp_tgt_q == TgtErr;
  always_comb begin
    unique case (rsp_tgt_q)
      TgtRom:   dmem_rsp_rdata = rom_rdata;
      TgtPlat:  dmem_rsp_rdata = plat_rdata;
      TgtUart:  dmem_rsp_rdata = uart_rdata;
      TgtXpu:   dmem_rsp_rdata = xpu_rdata;
      TgtSpram: dmem_rsp_rdata = spram_rdata;
      default:  dmem_rsp_rdata = 32'd0;
    endcase
  end

  // ================================================================ status, SDRAM
  assign fault_o = exit_valid;
  assign busy_o = xpu_busy;
  assign sdram_cke_o = 1'b0;
  assign sdram_cs_no = 1'b1;
  assign sdram_ras_no = 1'b1;
  assign sdram_cas_no = 1'b1;
  assign sdram_we_no = 1'b1;
  assign sdram_ba_o = 2'd0;
  assign sdram_a_o = 13'd0;
  assign sdram_dqm_o = 2'd0;
  assign sdram_dq_o = 16'd0;
  assign sdram_dq_oe_o = 1'b0;

  // The console and the exit code are for simulation (tests read them by name).
  logic unused;
  assign unused = ^{sdram_dq_i, exit_code, console_valid, console_data, imem_req_addr[1:0], b_addr};

  // Assertions
`ifndef SYNTHESIS
  initial begin
    if (FwRomKb < 1 || FwRomKb > 64) $fatal(1, "tpu_lite_soc: FwRomKb %0d outside 1..64", FwRomKb);
  end
  // The console goes to the simulator's standard output (there is no console port).
  always_ff @(posedge clk_i) begin
    if (console_valid && SimConsole != 0) $write("%c", console_data);
  end
  // Immediate assertions in a clocked block, not properties (docs/verification.md).
  always_ff @(posedge clk_i) begin : checks
    if (rst_ni) begin
      assert (!(imem_req_valid && (dmem_req_valid || b_valid)))
        else $error("tpu_lite_soc: fetch and data request in one cycle");
    end
  end
`endif
endmodule
