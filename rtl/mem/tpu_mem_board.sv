// SPDX-License-Identifier: Apache-2.0
// tpu_mem_board: the memory system's front end for one in-order board backend (SPRAM,
// SDRAM): NumPorts AXI4-like slave ports served one burst at a time, round robin.
`default_nettype none

// A board has one memory channel that answers reads in order, so there is no
// interleaving and no reorder buffer: the arbiter grants one burst (an AW or an AR of
// some port), issues its beats as channel requests at the bus width, and takes the next
// burst only when this one has finished (B handshake, or the last R beat).  Read data
// waits in a RspDepth-entry queue; a read is issued only when its answer has room there,
// because the channel cannot be stalled.  A beat at an unaligned address or beyond the
// memory gets SLVERR and does not touch it (as in tpu_mem_axi_rd/wr).
module tpu_mem_board #(
  parameter int NumPorts  = 3,     // AXI slave ports (1..16)
  parameter int AddrWidth = 32,    // byte address bits
  parameter int DataWidth = 64,    // bus bits (32..256, a power of two)
  parameter int IdWidth   = 4,     // AXI ID bits
  parameter int MemLog2   = 17,    // log2 of the memory size in bytes
  parameter int RspDepth  = 4,     // read answers in flight or waiting (a power of two >= 2)
  localparam int StrbWidth = DataWidth / 8,
  localparam int BeatLog2  = $clog2(StrbWidth),
  localparam int LocW      = MemLog2 - BeatLog2
) (
  input  wire                                clk_i,
  input  wire                                rst_ni,
  // AXI slave ports (field f of port p at s_axi_f[p*W +: W])
  input  wire  [NumPorts-1:0]                s_axi_awvalid_i,
  output logic [NumPorts-1:0]                s_axi_awready_o,
  input  wire  [NumPorts*IdWidth-1:0]        s_axi_awid_i,
  input  wire  [NumPorts*AddrWidth-1:0]      s_axi_awaddr_i,
  input  wire  [NumPorts*8-1:0]              s_axi_awlen_i,
  input  wire  [NumPorts-1:0]                s_axi_wvalid_i,
  output logic [NumPorts-1:0]                s_axi_wready_o,
  input  wire  [NumPorts*DataWidth-1:0]      s_axi_wdata_i,
  input  wire  [NumPorts*StrbWidth-1:0]      s_axi_wstrb_i,
  input  wire  [NumPorts-1:0]                s_axi_wlast_i,
  output logic [NumPorts-1:0]                s_axi_bvalid_o,
  input  wire  [NumPorts-1:0]                s_axi_bready_i,
  output logic [NumPorts*IdWidth-1:0]        s_axi_bid_o,
  output logic [NumPorts*2-1:0]              s_axi_bresp_o,
  input  wire  [NumPorts-1:0]                s_axi_arvalid_i,
  output logic [NumPorts-1:0]                s_axi_arready_o,
  input  wire  [NumPorts*IdWidth-1:0]        s_axi_arid_i,
  input  wire  [NumPorts*AddrWidth-1:0]      s_axi_araddr_i,
  input  wire  [NumPorts*8-1:0]              s_axi_arlen_i,
  output logic [NumPorts-1:0]                s_axi_rvalid_o,
  input  wire  [NumPorts-1:0]                s_axi_rready_i,
  output logic [NumPorts*IdWidth-1:0]        s_axi_rid_o,
  output logic [NumPorts*DataWidth-1:0]      s_axi_rdata_o,
  output logic [NumPorts*2-1:0]              s_axi_rresp_o,
  output logic [NumPorts-1:0]                s_axi_rlast_o,
  // The channel (per-channel request interface of the backends; tags unused)
  output logic                               m_req_valid_o,
  input  wire                                m_req_ready_i,
  output logic                               m_req_write_o,
  output logic [LocW-1:0]                    m_req_addr_o,
  output logic [DataWidth-1:0]               m_req_wdata_o,
  output logic [StrbWidth-1:0]               m_req_wstrb_o,
  input  wire                                m_rsp_valid_i,
  input  wire  [DataWidth-1:0]               m_rsp_rdata_i
);
  localparam int PortBits = (NumPorts > 1) ? $clog2(NumPorts) : 1;
  localparam int NumSrc   = 2 * NumPorts;  // write side of every port, then read side
  localparam int SrcW     = $clog2(NumSrc);
  localparam int CredW    = $clog2(RspDepth) + 1;

  // SIdle arbitrates among the waiting bursts and registers the winner; SAddr answers its
  // AWREADY or ARREADY and takes its address, so no port's ready depends on the requests of
  // the others in the same cycle (one more cycle per burst).
  typedef enum logic [2:0] {SIdle, SAddr, SWrite, SResp, SRead} state_e;
  state_e state_q, state_d;

  // The burst in progress.
  logic [PortBits-1:0]  port_q, port_d;
  logic                 wr_q, wr_d;       // the burst being taken (SAddr) is a write
  logic [IdWidth-1:0]   id_q, id_d;
  logic [AddrWidth:0]   addr_q, addr_d;   // byte address of the next beat to issue
  logic [8:0]           iss_q, iss_d;     // beats still to issue (read) or to take (write)
  logic [8:0]           ret_q, ret_d;     // read beats still to return
  logic                 unal_q, unal_d;
  logic                 werr_q, werr_d;   // some write beat failed
  logic [CredW-1:0]     cred_q, cred_d;   // free read-answer slots
  logic [CredW-1:0]     fly_q, fly_d;     // reads issued to the channel, not yet answered

  // Arbiter over the bursts waiting at the ports.
  logic [NumSrc-1:0] req, gnt;  // gnt: idx one-hot, unused (SAddr decodes port_q)
  logic [SrcW-1:0] idx;
  logic arb_valid, take;
  logic [PortBits-1:0] gport;
  assign req = (state_q == SIdle) ? {s_axi_arvalid_i, s_axi_awvalid_i} : '0;
  assign take = arb_valid;  // only in SIdle
  tpu_mem_rr_arb #(.N(NumSrc)) u_arb (
    .clk_i, .rst_ni,
    .req_i(req), .take_i(state_q == SIdle), .valid_o(arb_valid), .idx_o(idx), .gnt_o(gnt)
  );
  assign gport = (idx >= SrcW'(NumPorts)) ? PortBits'(idx - SrcW'(NumPorts)) : PortBits'(idx);

  // The beat at addr_q.
  logic in_range, beat_err;
  assign in_range = addr_q[AddrWidth:MemLog2] == '0;
  assign beat_err = unal_q || !in_range;

  // Read answers.
  logic rq_full, rq_empty, rq_pop;
  logic [DataWidth:0] rq_head;  // {error, data}
  logic r_req, r_issue, r_err_push, r_push;
  assign r_req      = state_q == SRead && iss_q != '0 && cred_q != '0 && !beat_err;
  assign r_issue    = r_req && m_req_ready_i;
  // A failed beat queues its SLVERR answer once the channel's answers are all in.
  assign r_err_push = state_q == SRead && iss_q != '0 && cred_q != '0 && beat_err &&
                      fly_q == '0 && !m_rsp_valid_i;
  assign r_push     = m_rsp_valid_i || r_err_push;
  tpu_mem_fifo #(.Width(DataWidth + 1), .Depth(RspDepth)) u_rq (
    .clk_i, .rst_ni,
    .push_i(r_push),
    .data_i(m_rsp_valid_i ? {1'b0, m_rsp_rdata_i} : {1'b1, {DataWidth{1'b0}}}),
    .full_o(rq_full),
    .pop_i (rq_pop), .data_o(rq_head), .empty_o(rq_empty)
  );

  // Write beats of the granted port.
  logic w_valid, w_fire;
  assign w_valid = state_q == SWrite && s_axi_wvalid_i[port_q];
  assign w_fire  = w_valid && (beat_err || m_req_ready_i);

  // The channel.
  assign m_req_valid_o = r_req || (w_valid && !beat_err);  // independent of m_req_ready_i
  assign m_req_write_o = state_q == SWrite;
  assign m_req_addr_o  = addr_q[MemLog2-1:BeatLog2];
  assign m_req_wdata_o = s_axi_wdata_i[port_q*DataWidth +: DataWidth];
  assign m_req_wstrb_o = s_axi_wstrb_i[port_q*StrbWidth +: StrbWidth];

  // Port outputs.
  always_comb begin
    s_axi_awready_o = '0;
    s_axi_arready_o = '0;
    s_axi_wready_o  = '0;
    s_axi_bvalid_o  = '0;
    s_axi_rvalid_o  = '0;
    for (int p = 0; p < NumPorts; p++) begin
      s_axi_awready_o[p] = state_q == SAddr && wr_q && port_q == PortBits'(p);
      s_axi_arready_o[p] = state_q == SAddr && !wr_q && port_q == PortBits'(p);
      s_axi_wready_o[p]  = w_fire && port_q == PortBits'(p);
      s_axi_bvalid_o[p]  = state_q == SResp && port_q == PortBits'(p);
      s_axi_rvalid_o[p]  = state_q == SRead && !rq_empty && port_q == PortBits'(p);
      s_axi_bid_o[p*IdWidth +: IdWidth]       = id_q;
      s_axi_bresp_o[p*2 +: 2]                 = werr_q ? tpu_mem_pkg::RespSlverr : tpu_mem_pkg::RespOkay;
      s_axi_rid_o[p*IdWidth +: IdWidth]       = id_q;
      s_axi_rdata_o[p*DataWidth +: DataWidth] = rq_head[DataWidth-1:0];
      s_axi_rresp_o[p*2 +: 2]                 = rq_head[DataWidth] ? tpu_mem_pkg::RespSlverr
                                                                   : tpu_mem_pkg::RespOkay;
      s_axi_rlast_o[p]                        = ret_q == 9'd1;
    end
  end
  assign rq_pop = state_q == SRead && !rq_empty && s_axi_rready_i[port_q];

  always_comb begin
    state_d = state_q;
    port_d  = port_q;
    wr_d    = wr_q;
    id_d    = id_q;
    addr_d  = addr_q;
    iss_d   = iss_q;
    ret_d   = ret_q;
    unal_d  = unal_q;
    werr_d  = werr_q;
    cred_d  = cred_q - CredW'(r_issue || r_err_push) + CredW'(rq_pop);
    fly_d   = fly_q + CredW'(r_issue) - CredW'(m_rsp_valid_i);
    unique case (state_q)
      SIdle: begin
        if (take) begin
          port_d  = gport;
          wr_d    = idx < SrcW'(NumPorts);
          state_d = SAddr;
        end
      end
      SAddr: begin
        werr_d = 1'b0;
        addr_d[AddrWidth] = 1'b0;
        if (wr_q) begin
          state_d = SWrite;
          id_d = s_axi_awid_i[port_q*IdWidth +: IdWidth];
          addr_d[AddrWidth-1:0] = s_axi_awaddr_i[port_q*AddrWidth +: AddrWidth];
          iss_d = 9'(s_axi_awlen_i[port_q*8 +: 8]) + 9'd1;
        end else begin
          state_d = SRead;
          id_d = s_axi_arid_i[port_q*IdWidth +: IdWidth];
          addr_d[AddrWidth-1:0] = s_axi_araddr_i[port_q*AddrWidth +: AddrWidth];
          iss_d = 9'(s_axi_arlen_i[port_q*8 +: 8]) + 9'd1;
        end
        ret_d = iss_d;
        unal_d = addr_d[BeatLog2-1:0] != '0;
      end
      SWrite: begin
        if (w_fire) begin
          addr_d = addr_q + (AddrWidth + 1)'(StrbWidth);
          iss_d = iss_q - 9'd1;
          if (beat_err) werr_d = 1'b1;
          if (iss_q == 9'd1) state_d = SResp;
        end
      end
      SResp: begin
        if (s_axi_bready_i[port_q]) state_d = SIdle;
      end
      SRead: begin
        if (r_issue || r_err_push) begin
          addr_d = addr_q + (AddrWidth + 1)'(StrbWidth);
          iss_d = iss_q - 9'd1;
        end
        if (rq_pop) begin
          ret_d = ret_q - 9'd1;
          if (ret_q == 9'd1) state_d = SIdle;
        end
      end
      default: state_d = SIdle;
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q <= SIdle;
      port_q  <= '0;
      wr_q    <= 1'b0;
      iss_q   <= '0;
      ret_q   <= '0;
      werr_q  <= 1'b0;
      cred_q  <= CredW'(RspDepth);
      fly_q   <= '0;
    end else begin
      state_q <= state_d;
      port_q  <= port_d;
      wr_q    <= wr_d;
      iss_q   <= iss_d;
      ret_q   <= ret_d;
      werr_q  <= werr_d;
      cred_q  <= cred_d;
      fly_q   <= fly_d;
    end
  end

  always_ff @(posedge clk_i) begin
    id_q   <= id_d;
    addr_q <= addr_d;
    unal_q <= unal_d;
  end

  // Unused: wlast (the burst length counts the beats), the arbiter's one-hot grant.
  logic unused;
  assign unused = ^{s_axi_wlast_i, gnt};

  // Assertions
`ifndef SYNTHESIS
  initial begin
    if (NumPorts < 1 || NumPorts > 16) $fatal(1, "tpu_mem_board: NumPorts %0d outside 1..16", NumPorts);
    if (DataWidth < 32 || DataWidth > 256 || (1 << $clog2(DataWidth)) != DataWidth)
      $fatal(1, "tpu_mem_board: DataWidth %0d not a power of two in 32..256", DataWidth);
    if (MemLog2 <= BeatLog2 || MemLog2 > AddrWidth)
      $fatal(1, "tpu_mem_board: MemLog2 %0d outside the address", MemLog2);
  end
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      assert (!(m_rsp_valid_i && rq_full)) else $error("tpu_mem_board: read answer queue overflow");
      // AXI: a granted request stays up until SAddr answers it.
      assert (!(state_q == SAddr && !(wr_q ? s_axi_awvalid_i[port_q] : s_axi_arvalid_i[port_q])))
        else $error("tpu_mem_board: the granted request was withdrawn");
      assert (!(w_fire && (iss_q == 9'd1) != s_axi_wlast_i[port_q]))
        else $error("tpu_mem_board: WLAST does not match the burst length");
    end
  end
`endif
endmodule
