// SPDX-License-Identifier: Apache-2.0
// tpu_soc: the picotpu SoC: the RV32IM command processor with its firmware RAM and MMIO
// decode, the accelerator (tpu_core), the host link (tpu_link) and the memory system
// (tpu_mem_sys, three ports), with the HBM2 pseudo-channel ports and the SDR SDRAM pins
// brought out to the top.
`default_nettype none

module tpu_soc #(
  // Accelerator (mk/configs.mk, SOC_CFG_<name>)
  parameter int N          = 16,        // array size
  parameter int EnableBf16 = 1,         // bf16 datapath
  parameter int UbRows     = 4096,
  parameter int WbRows     = 1024,
  parameter int AccRows    = 2048,
  parameter int VpRows     = 256,
  parameter int NumPch     = 8,         // HBM2 pseudo-channels (1..16); 0 = board memory (MemBackend)
  parameter int MemKb      = 262144,    // device memory in KB (a power of two)
  parameter int MemBackend = tpu_mem_pkg::BackendSpram, // NumPch = 0: BackendSpram or BackendSdram
  parameter int MemDataWidth = 256,     // memory bus bits: 256 (HBM2), 64 or 128 (boards)
  parameter logic [127:0] ConfigName = "sim16",
  parameter int VpuLanes   = N,
  parameter int NumWindows = 4,         // DMA protection windows
  parameter int MaxPayload = 4096,      // largest link payload
  parameter int WideLanes  = 0,         // MXU with 32-bit lanes: same results, faster simulation
  parameter int SimGate    = 0,         // memory system's and VPU's clocks stop while idle: same cycles, faster simulation
  parameter int DmaReadBeats  = 128,    // DMA read buffer, memory-bus beats
  parameter int DmaWriteBeats = 64,     // DMA write buffer, memory-bus beats
  parameter int DmaRowQueue   = 128,    // DMA read engine's row queue, rows (16 or less: LUT RAM, read asynchronously)
  // Memory system
  parameter int GranBytes  = 256,       // interleave granularity
  parameter int RefreshMode = 1,        // HBM2: 0 all-bank, 1 per-bank refresh
  parameter int BankHash   = 1,
  // Command processor
  parameter int FwRamKb    = 16,        // firmware RAM (code, data, stack), KB, a power of two
  parameter int DmemReg    = 0,         // 1: the core's data requests registered before the targets (boards)
  parameter int CpuLutRam  = 0,         // 1: the core's register file in LUT RAM, read into flip-flops (ECP5 boards)
  parameter FwInit         = "",        // $readmemh image of the firmware (boards); "" = boot_* port
  // Link PHY
  parameter int LinkPhy    = 0,         // 0: byte-stream port (simulation), 1: UART on pins
  parameter int ClkHz      = 100000000, // UART, SDRAM: clock frequency
  parameter int Baud       = 3000000,   // UART: baud rate
  localparam int MemPch    = (NumPch == 0) ? 1 : NumPch,
  localparam int Backend   = (NumPch == 0) ? MemBackend : tpu_mem_pkg::BackendHbm2,
  // HBM2 rows per bank: each pseudo-channel holds MemKb/MemPch KB = 2^(RowBits+14) bytes
  localparam int RowBits   = (NumPch == 0) ? 1 : $clog2(MemKb) + 10 - $clog2(MemPch) - 14,
  localparam int DataWidth = MemDataWidth,
  localparam int IdWidth   = 4,
  localparam int NumPorts  = 3,         // 0: DMA, 1: instruction fetch, 2: link
  localparam int NumCnt    = tpu_mem_pkg::NumCnt,
  localparam int CntWidth  = tpu_mem_pkg::CntWidth
) (
  input  wire                            clk_i,
  input  wire                            rst_ni,         // asynchronous, active low
  // Firmware boot-load port: one word per cycle while rst_ni is low
  input  wire                            boot_we_i,
  input  wire  [31:0]                    boot_addr_i,    // byte address, word aligned
  input  wire  [31:0]                    boot_wdata_i,
  // Link byte stream (LinkPhy = 0)
  input  wire                            s_link_valid_i,
  output logic                           s_link_ready_o,
  input  wire  [7:0]                     s_link_data_i,
  output logic                           m_link_valid_o,
  input  wire                            m_link_ready_i,
  output logic [7:0]                     m_link_data_o,
  // UART pins (LinkPhy = 1)
  input  wire                            uart_rx_i,
  output logic                           uart_tx_o,
  // Simulation: console bytes and the exit code written by the firmware
  output logic                           console_valid_o,
  output logic [7:0]                     console_data_o,
  output logic                           exit_valid_o,
  output logic [31:0]                    exit_code_o,
  // HBM2 pseudo-channels (tpu_mem_sys m_hbm_*; unused with the SPRAM backend)
  output logic [MemPch*3-1:0]            m_hbm_rcmd_o,
  output logic [MemPch*4-1:0]            m_hbm_rbank_o,
  output logic [MemPch*RowBits-1:0]      m_hbm_row_o,
  output logic [MemPch*2-1:0]            m_hbm_ccmd_o,
  output logic [MemPch*4-1:0]            m_hbm_cbank_o,
  output logic [MemPch*5-1:0]            m_hbm_col_o,
  output logic [MemPch*DataWidth-1:0]    m_hbm_wdata_o,
  output logic [MemPch*DataWidth/8-1:0]  m_hbm_wstrb_o,
  input  wire  [MemPch-1:0]              m_hbm_rvalid_i,
  input  wire  [MemPch*DataWidth-1:0]    m_hbm_rdata_i,
  // SDR SDRAM pins (MemBackend = SDRAM; idle otherwise): the board top makes the
  // tristate data bus from sdram_dq_o/_oe_o/_i and drives the SDRAM clock
  output logic                           sdram_cke_o,
  output logic                           sdram_cs_no,
  output logic                           sdram_ras_no,
  output logic                           sdram_cas_no,
  output logic                           sdram_we_no,
  output logic [1:0]                     sdram_ba_o,
  output logic [12:0]                    sdram_a_o,
  output logic [1:0]                     sdram_dqm_o,
  output logic [15:0]                    sdram_dq_o,
  output logic                           sdram_dq_oe_o,
  input  wire  [15:0]                    sdram_dq_i,
  // Memory-system counters (also in the CNT page from 0x100)
  output logic [MemPch*NumCnt*CntWidth-1:0] mem_cnt_o
);
  localparam int RamWords = FwRamKb * 256;
  localparam int RamAW    = $clog2(RamWords);
  localparam int StrbW    = DataWidth / 8;

  // ================================================================ CPU
  // cpu_d*: the core's data request; dmem_req_*: the request the targets see (below).
  logic        imem_req_valid, dmem_req_valid, dmem_req_we, cpu_dvalid, cpu_dwe;
  logic [31:0] imem_req_addr, dmem_req_addr, dmem_req_wdata, cpu_daddr, cpu_dwdata;
  logic [3:0]  dmem_req_wstrb, cpu_dwstrb;
  logic        imem_rsp_valid, imem_rsp_err, dmem_rsp_valid, dmem_rsp_err;
  logic [31:0] imem_rsp_rdata, dmem_rsp_rdata;
  logic        cpu_irq, timer_irq;

  tpu_cpu #(
    .BootAddr(32'h0000_0000),
    .EnableM (1),
    .HartId  (32'd0),
    .LutRam  (CpuLutRam)
  ) u_cpu (
    .clk_i,
    .rst_ni,
    .imem_req_valid_o(imem_req_valid),
    .imem_req_ready_i(1'b1),
    .imem_req_addr_o (imem_req_addr),
    .imem_rsp_valid_i(imem_rsp_valid),
    .imem_rsp_rdata_i(imem_rsp_rdata),
    .imem_rsp_err_i  (imem_rsp_err),
    .dmem_req_valid_o(cpu_dvalid),
    .dmem_req_ready_i(1'b1),
    .dmem_req_addr_o (cpu_daddr),
    .dmem_req_we_o   (cpu_dwe),
    .dmem_req_wdata_o(cpu_dwdata),
    .dmem_req_wstrb_o(cpu_dwstrb),
    .dmem_rsp_valid_i(dmem_rsp_valid),
    .dmem_rsp_rdata_i(dmem_rsp_rdata),
    .dmem_rsp_err_i  (dmem_rsp_err),
    .irq_i           (cpu_irq),
    .timer_irq_i     (timer_irq),
    .trace_valid_o   (unused_trace_valid),
    .trace_pc_o      (unused_trace_pc),
    .trace_insn_o    (unused_trace_insn),
    .trace_trap_o    (unused_trace_trap),
    .trace_cause_o   (unused_trace_cause),
    .trace_rd_o      (unused_trace_rd),
    .trace_rd_wdata_o(unused_trace_rd_wdata),
    .trace_next_pc_o (unused_trace_next_pc)
  );
  // The retirement trace is for the CPU's own testbench; synthesis removes it.
  logic        unused_trace_valid, unused_trace_trap;
  logic [31:0] unused_trace_pc, unused_trace_insn, unused_trace_rd_wdata, unused_trace_next_pc;
  logic [4:0]  unused_trace_cause, unused_trace_rd;

  // The data request as the targets see it.  DmemReg = 1 registers it first, so that no
  // target's inputs hang off the core's register file and address adder (the ULX3S's
  // longest paths ran from there into the TPU's MMIO registers): one more cycle per load
  // and store.  The core waits in its memory state for the answer and fetches nothing
  // meanwhile, so the registered request never meets an instruction fetch.
  if (DmemReg != 0) begin : g_dreg
    logic        valid_q, we_q;
    logic [31:0] addr_q, wdata_q;
    logic [3:0]  wstrb_q;
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) valid_q <= 1'b0;
      else         valid_q <= cpu_dvalid;
    end
    always_ff @(posedge clk_i) begin
      if (cpu_dvalid) begin
        we_q    <= cpu_dwe;
        addr_q  <= cpu_daddr;
        wdata_q <= cpu_dwdata;
        wstrb_q <= cpu_dwstrb;
      end
    end
    assign dmem_req_valid = valid_q;
    assign dmem_req_we    = we_q;
    assign dmem_req_addr  = addr_q;
    assign dmem_req_wdata = wdata_q;
    assign dmem_req_wstrb = wstrb_q;
  end else begin : g_dcomb
    assign dmem_req_valid = cpu_dvalid;
    assign dmem_req_we    = cpu_dwe;
    assign dmem_req_addr  = cpu_daddr;
    assign dmem_req_wdata = cpu_dwdata;
    assign dmem_req_wstrb = cpu_dwstrb;
  end

  // ================================================================ CPU bus decode
  // Every target answers one cycle after the request (RAM read, registered register
  // read data), so the response side only remembers which target was asked.
  typedef enum logic [2:0] {
    TgtRam, TgtPlat, TgtTpu, TgtCnt, TgtCh, TgtLink, TgtErr
  } tgt_e;

  /* verilator lint_off UNUSEDSIGNAL */  // a[11:0] selects the register inside the page
  function automatic tgt_e decode(input logic [31:0] a);
    if (a[31:RamAW+2] == '0) decode = TgtRam;
    else if (a[31:14] == tpu_isa_pkg::MmioPlatformBase[31:14]) begin
      unique case (a[13:12])
        2'd0: decode = TgtPlat;
        2'd1: decode = TgtTpu;
        2'd2: decode = (a[11:8] == 4'd0) ? TgtCnt : TgtCh;
        default: decode = TgtLink;
      endcase
    end else decode = TgtErr;
  endfunction
  /* verilator lint_on UNUSEDSIGNAL */

  tgt_e d_tgt, rsp_tgt_q, rsp_tgt_d;
  logic rsp_i_q, rsp_i_d, rsp_d_q, rsp_d_d;
  assign d_tgt = decode(dmem_req_addr);
  wire i_ram = imem_req_addr[31:RamAW+2] == '0;

  always_comb begin
    rsp_i_d = imem_req_valid;
    rsp_d_d = dmem_req_valid;
    rsp_tgt_d = rsp_tgt_q;
    if (imem_req_valid) rsp_tgt_d = i_ram ? TgtRam : TgtErr;
    if (dmem_req_valid) rsp_tgt_d = d_tgt;
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

  // Firmware RAM
  logic [31:0] ram_rdata;
  wire ram_d = dmem_req_valid && d_tgt == TgtRam;
  tpu_soc_ram #(.Words(RamWords), .InitFile(FwInit)) u_ram (
    .clk_i,
    .req_i       (ram_d || (imem_req_valid && i_ram)),
    .we_i        (ram_d && dmem_req_we),
    .addr_i      (ram_d ? dmem_req_addr[RamAW+1:2] : imem_req_addr[RamAW+1:2]),
    .wdata_i     (dmem_req_wdata),
    .wstrb_i     (dmem_req_wstrb),
    .rdata_o     (ram_rdata),
    .boot_we_i   (boot_we_i),
    .boot_addr_i (boot_addr_i[RamAW+1:2]),
    .boot_wdata_i(boot_wdata_i)
  );

  // Register buses (c): one per MMIO target
  wire        reg_we = dmem_req_we;
  wire [11:0] reg_addr = dmem_req_addr[11:0];
  wire [31:0] reg_wdata = dmem_req_wdata;
  wire plat_req = dmem_req_valid && d_tgt == TgtPlat;
  wire tpu_req  = dmem_req_valid && d_tgt == TgtTpu;
  wire cnt_req  = dmem_req_valid && d_tgt == TgtCnt;
  wire ch_req   = dmem_req_valid && d_tgt == TgtCh;
  wire link_req = dmem_req_valid && d_tgt == TgtLink;
  logic [31:0] plat_rdata, tpu_rdata, cnt_rdata, ch_rdata, link_rdata;

  assign imem_rsp_valid = rsp_i_q;
  assign imem_rsp_rdata = ram_rdata;
  assign imem_rsp_err   = rsp_tgt_q == TgtErr;
  assign dmem_rsp_valid = rsp_d_q;
  assign dmem_rsp_err   = rsp_tgt_q == TgtErr;
  always_comb begin
    unique case (rsp_tgt_q)
      TgtRam:  dmem_rsp_rdata = ram_rdata;
      TgtPlat: dmem_rsp_rdata = plat_rdata;
      TgtTpu:  dmem_rsp_rdata = tpu_rdata;
      TgtCnt:  dmem_rsp_rdata = cnt_rdata;
      TgtCh:   dmem_rsp_rdata = ch_rdata;
      TgtLink: dmem_rsp_rdata = link_rdata;
      default: dmem_rsp_rdata = 32'd0;
    endcase
  end

  // ================================================================ PLATFORM page
  tpu_soc_platform #(.NumCh(MemPch)) u_plat (
    .clk_i,
    .rst_ni,
    .reg_req_i      (plat_req),
    .reg_we_i       (reg_we),
    .reg_addr_i     (reg_addr),
    .reg_wdata_i    (reg_wdata),
    .reg_rdata_o    (plat_rdata),
    .console_valid_o,
    .console_data_o,
    .exit_valid_o,
    .exit_code_o,
    .timer_irq_o    (timer_irq)
  );

  // ================================================================ CNT page, 0x100+: channel bytes
  // Channel c: 0x100 + 8c bytes read, +4 bytes written (one bus beat per access, low 32 bits).
  logic [MemPch*NumCnt*CntWidth-1:0] mem_cnt;
  logic [31:0] ch_rdata_q, ch_rdata_d;
  always_comb begin
    ch_rdata_d = ch_rdata_q;
    if (ch_req && !reg_we) begin
      ch_rdata_d = 32'd0;
      for (int c = 0; c < MemPch; c++) begin
        if (reg_addr[11:3] == 9'(32 + c)) begin
          ch_rdata_d = reg_addr[2]
              ? mem_cnt[(c*NumCnt + tpu_mem_pkg::CntWrites)*CntWidth +: 32] << $clog2(StrbW)
              : mem_cnt[(c*NumCnt + tpu_mem_pkg::CntReads)*CntWidth +: 32] << $clog2(StrbW);
        end
      end
    end
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) ch_rdata_q <= 32'd0;
    else ch_rdata_q <= ch_rdata_d;
  end
  assign ch_rdata = ch_rdata_q;
  assign mem_cnt_o = mem_cnt;

  // ================================================================ AXI ports of the memory system
  // Port p of each field at [p*W +: W]: 0 DMA, 1 fetch (read only), 2 link.
  logic [NumPorts-1:0]           awvalid, awready, wvalid, wready, wlast, bvalid, bready;
  logic [NumPorts-1:0]           arvalid, arready, rvalid, rready, rlast;
  logic [NumPorts*IdWidth-1:0]   awid, bid, arid, rid;
  logic [NumPorts*32-1:0]        awaddr, araddr;
  logic [NumPorts*8-1:0]         awlen, arlen;
  logic [NumPorts*DataWidth-1:0] wdata, rdata;
  logic [NumPorts*StrbW-1:0]     wstrb;
  logic [NumPorts*2-1:0]         bresp, rresp;

  // The fetch port never writes.
  assign awvalid[1] = 1'b0;
  assign awid[1*IdWidth +: IdWidth] = '0;
  assign awaddr[1*32 +: 32] = '0;
  assign awlen[1*8 +: 8] = '0;
  assign wvalid[1] = 1'b0;
  assign wdata[1*DataWidth +: DataWidth] = '0;
  assign wstrb[1*StrbW +: StrbW] = '0;
  assign wlast[1] = 1'b0;
  assign bready[1] = 1'b1;

  // Write responses of the read-only fetch port, address bits below a word.
  logic unused_bits;
  assign unused_bits = ^{awready[1], wready[1], bvalid[1], bid[1*IdWidth +: IdWidth], bresp[1*2 +: 2],
                         boot_addr_i[31:RamAW+2], boot_addr_i[1:0], imem_req_addr[1:0]};

  // ================================================================ 256-bit masters
  // Instruction fetch (f_*) and the link (l_*) move 32-byte beats; on a narrower memory
  // bus each goes through a width converter.
  logic               f_arvalid, f_arready, f_rvalid, f_rready, f_rlast;
  logic [IdWidth-1:0] f_arid, f_rid;
  logic [31:0]        f_araddr;
  logic [7:0]         f_arlen;
  logic [255:0]       f_rdata;
  logic [1:0]         f_rresp;
  logic               l_arvalid, l_arready, l_rvalid, l_rready, l_rlast;
  logic               l_awvalid, l_awready, l_wvalid, l_wready, l_wlast, l_bvalid, l_bready;
  logic [IdWidth-1:0] l_arid, l_rid, l_awid, l_bid;
  logic [31:0]        l_araddr, l_awaddr;
  logic [7:0]         l_arlen, l_awlen;
  logic [255:0]       l_rdata, l_wdata;
  logic [31:0]        l_wstrb;
  logic [1:0]         l_rresp, l_bresp;

  if (DataWidth == 256) begin : g_wide_masters
    assign arvalid[1] = f_arvalid;
    assign f_arready = arready[1];
    assign arid[1*IdWidth +: IdWidth] = f_arid;
    assign araddr[1*32 +: 32] = f_araddr;
    assign arlen[1*8 +: 8] = f_arlen;
    assign f_rvalid = rvalid[1];
    assign rready[1] = f_rready;
    assign f_rid = rid[1*IdWidth +: IdWidth];
    assign f_rdata = rdata[1*DataWidth +: DataWidth];
    assign f_rresp = rresp[1*2 +: 2];
    assign f_rlast = rlast[1];

    assign arvalid[2] = l_arvalid;
    assign l_arready = arready[2];
    assign arid[2*IdWidth +: IdWidth] = l_arid;
    assign araddr[2*32 +: 32] = l_araddr;
    assign arlen[2*8 +: 8] = l_arlen;
    assign l_rvalid = rvalid[2];
    assign rready[2] = l_rready;
    assign l_rid = rid[2*IdWidth +: IdWidth];
    assign l_rdata = rdata[2*DataWidth +: DataWidth];
    assign l_rresp = rresp[2*2 +: 2];
    assign l_rlast = rlast[2];
    assign awvalid[2] = l_awvalid;
    assign l_awready = awready[2];
    assign awid[2*IdWidth +: IdWidth] = l_awid;
    assign awaddr[2*32 +: 32] = l_awaddr;
    assign awlen[2*8 +: 8] = l_awlen;
    assign wvalid[2] = l_wvalid;
    assign l_wready = wready[2];
    assign wdata[2*DataWidth +: DataWidth] = l_wdata;
    assign wstrb[2*StrbW +: StrbW] = l_wstrb;
    assign wlast[2] = l_wlast;
    assign l_bvalid = bvalid[2];
    assign bready[2] = l_bready;
    assign l_bid = bid[2*IdWidth +: IdWidth];
    assign l_bresp = bresp[2*2 +: 2];
  end else begin : g_narrow_masters
    logic unused_f_aw;
    logic [IdWidth-1:0] unused_f_awid;
    logic [31:0] unused_f_awaddr;
    logic [7:0] unused_f_awlen;
    logic [DataWidth-1:0] unused_f_wdata;
    logic [StrbW-1:0] unused_f_wstrb;
    logic unused_f_wvalid, unused_f_wlast, unused_f_bready, unused_f_awready, unused_f_wready;
    logic unused_f_bvalid;
    logic [IdWidth-1:0] unused_f_bid;
    logic [1:0] unused_f_bresp;
    tpu_soc_axi_narrow #(.NarrowWidth(DataWidth), .IdWidth(IdWidth)) u_fetch_narrow (
      .clk_i, .rst_ni,
      .s_arvalid_i(f_arvalid), .s_arready_o(f_arready), .s_arid_i(f_arid),
      .s_araddr_i(f_araddr), .s_arlen_i(f_arlen),
      .s_rvalid_o(f_rvalid), .s_rready_i(f_rready), .s_rid_o(f_rid), .s_rdata_o(f_rdata),
      .s_rresp_o(f_rresp), .s_rlast_o(f_rlast),
      .s_awvalid_i(1'b0), .s_awready_o(unused_f_awready), .s_awid_i({IdWidth{1'b0}}), .s_awaddr_i(32'd0),
      .s_awlen_i(8'd0), .s_wvalid_i(1'b0), .s_wready_o(unused_f_wready), .s_wdata_i(256'd0),
      .s_wstrb_i(32'd0), .s_wlast_i(1'b0), .s_bvalid_o(unused_f_bvalid), .s_bready_i(1'b1),
      .s_bid_o(unused_f_bid), .s_bresp_o(unused_f_bresp),
      .m_arvalid_o(arvalid[1]), .m_arready_i(arready[1]), .m_arid_o(arid[1*IdWidth +: IdWidth]),
      .m_araddr_o(araddr[1*32 +: 32]), .m_arlen_o(arlen[1*8 +: 8]),
      .m_rvalid_i(rvalid[1]), .m_rready_o(rready[1]), .m_rid_i(rid[1*IdWidth +: IdWidth]),
      .m_rdata_i(rdata[1*DataWidth +: DataWidth]), .m_rresp_i(rresp[1*2 +: 2]), .m_rlast_i(rlast[1]),
      .m_awvalid_o(unused_f_aw), .m_awready_i(1'b0), .m_awid_o(unused_f_awid),
      .m_awaddr_o(unused_f_awaddr), .m_awlen_o(unused_f_awlen),
      .m_wvalid_o(unused_f_wvalid), .m_wready_i(1'b0), .m_wdata_o(unused_f_wdata),
      .m_wstrb_o(unused_f_wstrb), .m_wlast_o(unused_f_wlast),
      .m_bvalid_i(1'b0), .m_bready_o(unused_f_bready), .m_bid_i({IdWidth{1'b0}}), .m_bresp_i(2'b00)
    );
    logic unused_f;
    assign unused_f = ^{unused_f_aw, unused_f_awid, unused_f_awaddr, unused_f_awlen, unused_f_wdata,
                        unused_f_wstrb, unused_f_wvalid, unused_f_wlast, unused_f_bready,
                        unused_f_awready, unused_f_wready, unused_f_bvalid, unused_f_bid,
                        unused_f_bresp};

    tpu_soc_axi_narrow #(.NarrowWidth(DataWidth), .IdWidth(IdWidth)) u_link_narrow (
      .clk_i, .rst_ni,
      .s_arvalid_i(l_arvalid), .s_arready_o(l_arready), .s_arid_i(l_arid),
      .s_araddr_i(l_araddr), .s_arlen_i(l_arlen),
      .s_rvalid_o(l_rvalid), .s_rready_i(l_rready), .s_rid_o(l_rid), .s_rdata_o(l_rdata),
      .s_rresp_o(l_rresp), .s_rlast_o(l_rlast),
      .s_awvalid_i(l_awvalid), .s_awready_o(l_awready), .s_awid_i(l_awid), .s_awaddr_i(l_awaddr),
      .s_awlen_i(l_awlen), .s_wvalid_i(l_wvalid), .s_wready_o(l_wready), .s_wdata_i(l_wdata),
      .s_wstrb_i(l_wstrb), .s_wlast_i(l_wlast), .s_bvalid_o(l_bvalid), .s_bready_i(l_bready),
      .s_bid_o(l_bid), .s_bresp_o(l_bresp),
      .m_arvalid_o(arvalid[2]), .m_arready_i(arready[2]), .m_arid_o(arid[2*IdWidth +: IdWidth]),
      .m_araddr_o(araddr[2*32 +: 32]), .m_arlen_o(arlen[2*8 +: 8]),
      .m_rvalid_i(rvalid[2]), .m_rready_o(rready[2]), .m_rid_i(rid[2*IdWidth +: IdWidth]),
      .m_rdata_i(rdata[2*DataWidth +: DataWidth]), .m_rresp_i(rresp[2*2 +: 2]), .m_rlast_i(rlast[2]),
      .m_awvalid_o(awvalid[2]), .m_awready_i(awready[2]), .m_awid_o(awid[2*IdWidth +: IdWidth]),
      .m_awaddr_o(awaddr[2*32 +: 32]), .m_awlen_o(awlen[2*8 +: 8]),
      .m_wvalid_o(wvalid[2]), .m_wready_i(wready[2]), .m_wdata_o(wdata[2*DataWidth +: DataWidth]),
      .m_wstrb_o(wstrb[2*StrbW +: StrbW]), .m_wlast_o(wlast[2]),
      .m_bvalid_i(bvalid[2]), .m_bready_o(bready[2]), .m_bid_i(bid[2*IdWidth +: IdWidth]),
      .m_bresp_i(bresp[2*2 +: 2])
    );
  end

  // ================================================================ accelerator
  logic tpu_irq, link_irq, link_irq_en;
  assign cpu_irq = tpu_irq | (link_irq & link_irq_en);  // IRQ_EN bit 0 gates tpu_irq inside the core

  tpu_core #(
    .N(N), .EnableBf16(EnableBf16), .UbRows(UbRows), .WbRows(WbRows), .AccRows(AccRows),
    .VpRows(VpRows), .NumWindows(NumWindows), .MemKb(MemKb), .MaxPayload(MaxPayload),
    .ConfigName(ConfigName), .VpuLanes(VpuLanes), .IdWidth(IdWidth), .WideLanes(WideLanes), .SimGate(SimGate),
    .MemDataWidth(DataWidth), .DmaReadBeats(DmaReadBeats), .DmaWriteBeats(DmaWriteBeats),
    .DmaRowQueue(DmaRowQueue)
  ) u_core (
    .clk_i,
    .rst_ni,
    .tpu_reg_req_i  (tpu_req),
    .tpu_reg_we_i   (reg_we),
    .tpu_reg_addr_i (reg_addr),
    .tpu_reg_wdata_i(reg_wdata),
    .tpu_reg_rdata_o(tpu_rdata),
    .cnt_reg_req_i  (cnt_req),
    .cnt_reg_we_i   (reg_we),
    .cnt_reg_addr_i (reg_addr),
    .cnt_reg_wdata_i(reg_wdata),
    .cnt_reg_rdata_o(cnt_rdata),
    .irq_o          (tpu_irq),
    .irq_link_en_o  (link_irq_en),
    .m_axi_awvalid_o(awvalid[0]),
    .m_axi_awready_i(awready[0]),
    .m_axi_awid_o   (awid[0*IdWidth +: IdWidth]),
    .m_axi_awaddr_o (awaddr[0*32 +: 32]),
    .m_axi_awlen_o  (awlen[0*8 +: 8]),
    .m_axi_wvalid_o (wvalid[0]),
    .m_axi_wready_i (wready[0]),
    .m_axi_wdata_o  (wdata[0*DataWidth +: DataWidth]),
    .m_axi_wstrb_o  (wstrb[0*StrbW +: StrbW]),
    .m_axi_wlast_o  (wlast[0]),
    .m_axi_bvalid_i (bvalid[0]),
    .m_axi_bready_o (bready[0]),
    .m_axi_bid_i    (bid[0*IdWidth +: IdWidth]),
    .m_axi_bresp_i  (bresp[0*2 +: 2]),
    .m_axi_arvalid_o(arvalid[0]),
    .m_axi_arready_i(arready[0]),
    .m_axi_arid_o   (arid[0*IdWidth +: IdWidth]),
    .m_axi_araddr_o (araddr[0*32 +: 32]),
    .m_axi_arlen_o  (arlen[0*8 +: 8]),
    .m_axi_rvalid_i (rvalid[0]),
    .m_axi_rready_o (rready[0]),
    .m_axi_rid_i    (rid[0*IdWidth +: IdWidth]),
    .m_axi_rdata_i  (rdata[0*DataWidth +: DataWidth]),
    .m_axi_rresp_i  (rresp[0*2 +: 2]),
    .m_axi_rlast_i  (rlast[0]),
    .m_fetch_arvalid_o(f_arvalid),
    .m_fetch_arready_i(f_arready),
    .m_fetch_arid_o   (f_arid),
    .m_fetch_araddr_o (f_araddr),
    .m_fetch_arlen_o  (f_arlen),
    .m_fetch_rvalid_i (f_rvalid),
    .m_fetch_rready_o (f_rready),
    .m_fetch_rid_i    (f_rid),
    .m_fetch_rdata_i  (f_rdata),
    .m_fetch_rresp_i  (f_rresp),
    .m_fetch_rlast_i  (f_rlast)
  );

  // ================================================================ link
  logic       phy_rx_valid, phy_rx_ready, phy_tx_valid, phy_tx_ready;
  logic [7:0] phy_rx_data, phy_tx_data;

  // The simulation port may stall the byte stream; a UART cannot.
  tpu_link #(
    .MaxPayload(MaxPayload), .MemKb(MemKb), .IdWidth(IdWidth), .BackPressure((LinkPhy == 0) ? 1 : 0)
  ) u_link (
    .clk_i,
    .rst_ni,
    .s_byte_valid_i (phy_rx_valid),
    .s_byte_ready_o (phy_rx_ready),
    .s_byte_data_i  (phy_rx_data),
    .m_byte_valid_o (phy_tx_valid),
    .m_byte_ready_i (phy_tx_ready),
    .m_byte_data_o  (phy_tx_data),
    .m_axi_awvalid_o(l_awvalid),
    .m_axi_awready_i(l_awready),
    .m_axi_awid_o   (l_awid),
    .m_axi_awaddr_o (l_awaddr),
    .m_axi_awlen_o  (l_awlen),
    .m_axi_wvalid_o (l_wvalid),
    .m_axi_wready_i (l_wready),
    .m_axi_wdata_o  (l_wdata),
    .m_axi_wstrb_o  (l_wstrb),
    .m_axi_wlast_o  (l_wlast),
    .m_axi_bvalid_i (l_bvalid),
    .m_axi_bready_o (l_bready),
    .m_axi_bid_i    (l_bid),
    .m_axi_bresp_i  (l_bresp),
    .m_axi_arvalid_o(l_arvalid),
    .m_axi_arready_i(l_arready),
    .m_axi_arid_o   (l_arid),
    .m_axi_araddr_o (l_araddr),
    .m_axi_arlen_o  (l_arlen),
    .m_axi_rvalid_i (l_rvalid),
    .m_axi_rready_o (l_rready),
    .m_axi_rid_i    (l_rid),
    .m_axi_rdata_i  (l_rdata),
    .m_axi_rresp_i  (l_rresp),
    .m_axi_rlast_i  (l_rlast),
    .reg_req_i      (link_req),
    .reg_we_i       (reg_we),
    .reg_addr_i     (reg_addr),
    .reg_wdata_i    (reg_wdata),
    .reg_rdata_o    (link_rdata),
    .irq_o          (link_irq)
  );

  // Link PHY: the byte-stream port, or a UART on the pins.
  if (LinkPhy == 0) begin : g_phy_stream
    assign phy_rx_valid = s_link_valid_i;
    assign phy_rx_data = s_link_data_i;
    assign s_link_ready_o = phy_rx_ready;
    assign m_link_valid_o = phy_tx_valid;
    assign m_link_data_o = phy_tx_data;
    assign phy_tx_ready = m_link_ready_i;
    assign uart_tx_o = 1'b1;
    logic unused_uart;
    assign unused_uart = uart_rx_i ^ (ClkHz > 0) ^ (Baud > 0);
  end else begin : g_phy_uart
    tpu_uart_rx #(.ClkHz(ClkHz), .Baud(Baud)) u_rx (
      .clk_i,
      .rst_ni,
      .rx_i          (uart_rx_i),
      .m_valid_o     (phy_rx_valid),
      .m_data_o      (phy_rx_data),
      .frame_err_o   (unused_frame_err)  // a broken byte breaks its frame's CRC anyway
    );
    logic unused_frame_err, unused_rx_ready;
    assign unused_rx_ready = phy_rx_ready;  // a UART cannot wait: the link engine always takes
    tpu_uart_tx #(.ClkHz(ClkHz), .Baud(Baud)) u_tx (
      .clk_i,
      .rst_ni,
      .s_valid_i     (phy_tx_valid),
      .s_ready_o     (phy_tx_ready),
      .s_data_i      (phy_tx_data),
      .tx_o          (uart_tx_o)
    );
    assign s_link_ready_o = 1'b0;
    assign m_link_valid_o = 1'b0;
    assign m_link_data_o = 8'd0;
    logic unused_stream;
    assign unused_stream = s_link_valid_i ^ m_link_ready_i ^ (^s_link_data_i);
  end

  // ================================================================ memory system
  tpu_mem_sys #(
    .NumPorts   (NumPorts),
    .NumPch     (MemPch),
    .AddrWidth  (32),
    .DataWidth  (DataWidth),
    .IdWidth    (IdWidth),
    .GranBytes  (GranBytes),
    .Backend    (Backend),
    .ClkHz      (ClkHz),
    .RowBits    (RowBits),
    .SpramBytes ((NumPch == 0) ? MemKb * 1024 : 131072),
    .RefreshMode(RefreshMode),
    .BankHash   (BankHash),
    .GateIdle   (SimGate)
  ) u_mem (
    .clk_i,
    .rst_ni,
    .s_axi_awvalid_i(awvalid),
    .s_axi_awready_o(awready),
    .s_axi_awid_i   (awid),
    .s_axi_awaddr_i (awaddr),
    .s_axi_awlen_i  (awlen),
    .s_axi_wvalid_i (wvalid),
    .s_axi_wready_o (wready),
    .s_axi_wdata_i  (wdata),
    .s_axi_wstrb_i  (wstrb),
    .s_axi_wlast_i  (wlast),
    .s_axi_bvalid_o (bvalid),
    .s_axi_bready_i (bready),
    .s_axi_bid_o    (bid),
    .s_axi_bresp_o  (bresp),
    .s_axi_arvalid_i(arvalid),
    .s_axi_arready_o(arready),
    .s_axi_arid_i   (arid),
    .s_axi_araddr_i (araddr),
    .s_axi_arlen_i  (arlen),
    .s_axi_rvalid_o (rvalid),
    .s_axi_rready_i (rready),
    .s_axi_rid_o    (rid),
    .s_axi_rdata_o  (rdata),
    .s_axi_rresp_o  (rresp),
    .s_axi_rlast_o  (rlast),
    .m_hbm_rcmd_o,
    .m_hbm_rbank_o,
    .m_hbm_row_o,
    .m_hbm_ccmd_o,
    .m_hbm_cbank_o,
    .m_hbm_col_o,
    .m_hbm_wdata_o,
    .m_hbm_wstrb_o,
    .m_hbm_rvalid_i,
    .m_hbm_rdata_i,
    .sdram_cke_o,
    .sdram_cs_no,
    .sdram_ras_no,
    .sdram_cas_no,
    .sdram_we_no,
    .sdram_ba_o,
    .sdram_a_o,
    .sdram_dqm_o,
    .sdram_dq_o,
    .sdram_dq_oe_o,
    .sdram_dq_i,
    .cnt_o          (mem_cnt)
  );

  // Assertions
`ifndef SYNTHESIS
  initial begin
    assert (NumPch == 0 || (1 << $clog2(NumPch)) == NumPch) else $fatal(1, "tpu_soc: NumPch must be a power of two");
    assert ((1 << $clog2(MemKb)) == MemKb) else $fatal(1, "tpu_soc: MemKb must be a power of two");
    assert (NumPch == 0 || RowBits >= 1) else $fatal(1, "tpu_soc: MemKb too small for NumPch channels");
    assert (NumPch == 0 ? (MemBackend == tpu_mem_pkg::BackendSpram || MemBackend == tpu_mem_pkg::BackendSdram)
                        : MemDataWidth == 256)
      else $fatal(1, "tpu_soc: HBM2 needs MemDataWidth 256; NumPch = 0 needs MemBackend SPRAM or SDRAM");
  end
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      assert (!(imem_req_valid && dmem_req_valid)) else $error("tpu_soc: fetch and data request in one cycle");
      assert (!boot_we_i) else $error("tpu_soc: boot write while running");
    end
  end
`endif
endmodule
