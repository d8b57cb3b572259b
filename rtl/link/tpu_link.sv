// SPDX-License-Identifier: Apache-2.0
// tpu_link: link engine: frame parser, PING / MEM_WRITE / MEM_READ at link speed, firmware mailbox.
`default_nettype none

// docs/link.md describes the frame format, the state machines and the error handling.
// In short: the parser checks every frame's CRC-32 on the fly and writes its payload into
// the payload buffer; a good frame goes to the engine, which serves one request at a time:
// PING (echo), MEM_WRITE (AXI write bursts from the buffer, only after the CRC checked),
// MEM_READ (AXI read bursts into the buffer, then the response), error responses, NAKs,
// and every other type through the mailbox to the firmware (LINK register page).  Bytes
// that arrive while the engine is busy are parsed (frames are tracked) but dropped.
module tpu_link #(
  parameter int unsigned MaxPayload   = 4096,   // largest LEN accepted (a multiple of 32, >= 256)
  parameter int unsigned MemKb        = 262144, // device memory: MEM_* must stay below MemKb*1024
  parameter int unsigned IdWidth      = 4,      // AXI ID bits
  parameter int unsigned AxiId        = 0,      // the ID on every AR and AW
  parameter int unsigned MaxBurst     = 16,     // AXI burst beats, a power of two 1..128
  parameter int unsigned BufBytes     = 32,     // payload buffer word: 4, 8, 16 or 32 bytes
  parameter int unsigned BackPressure = 0,      // 1: s_byte_ready_o low while busy (simulation port)
  parameter int unsigned ByteTimeout  = tpu_isa_pkg::ByteTimeoutCycles  // idle cycles that drop a frame
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  // byte stream from the PHY
  input  logic                 s_byte_valid_i,
  output logic                 s_byte_ready_o,
  input  logic [7:0]           s_byte_data_i,
  // byte stream to the PHY
  output logic                 m_byte_valid_o,
  input  logic                 m_byte_ready_i,
  output logic [7:0]           m_byte_data_o,
  // AXI master (256-bit)
  output logic                 m_axi_arvalid_o,
  input  logic                 m_axi_arready_i,
  output logic [IdWidth-1:0]   m_axi_arid_o,
  output logic [31:0]          m_axi_araddr_o,
  output logic [7:0]           m_axi_arlen_o,
  input  logic                 m_axi_rvalid_i,
  output logic                 m_axi_rready_o,
  input  logic [IdWidth-1:0]   m_axi_rid_i,
  input  logic [255:0]         m_axi_rdata_i,
  input  logic [1:0]           m_axi_rresp_i,
  input  logic                 m_axi_rlast_i,
  output logic                 m_axi_awvalid_o,
  input  logic                 m_axi_awready_i,
  output logic [IdWidth-1:0]   m_axi_awid_o,
  output logic [31:0]          m_axi_awaddr_o,
  output logic [7:0]           m_axi_awlen_o,
  output logic                 m_axi_wvalid_o,
  input  logic                 m_axi_wready_i,
  output logic [255:0]         m_axi_wdata_o,
  output logic [31:0]          m_axi_wstrb_o,
  output logic                 m_axi_wlast_o,
  input  logic                 m_axi_bvalid_i,
  output logic                 m_axi_bready_o,
  input  logic [IdWidth-1:0]   m_axi_bid_i,
  input  logic [1:0]           m_axi_bresp_i,
  // LINK register page (register bus: read data valid the cycle after the request)
  input  logic                 reg_req_i,
  input  logic                 reg_we_i,
  input  logic [11:0]          reg_addr_i,
  input  logic [31:0]          reg_wdata_i,
  output logic [31:0]          reg_rdata_o,
  // a request waits in the mailbox (RX_STATUS bit 0)
  output logic                 irq_o
);

  // ---------------------------------------------------------------------------------------
  // Derived sizes
  localparam int unsigned MbBytes  = tpu_isa_pkg::MailboxBytes;
  localparam int unsigned MbWords  = MbBytes / 4;
  localparam int unsigned MbAw     = $clog2(MbWords);
  // MEM_WRITE data sits at its offset within a 32-byte beat, MEM_READ beats are stored
  // whole: both need up to MaxPayload + 32 bytes.
  localparam int unsigned BufSize  = MaxPayload + 32;
  localparam int unsigned BufWords = BufSize / BufBytes;
  localparam int unsigned BufAw    = $clog2(BufWords);
  localparam int unsigned PosW     = $clog2(BufSize);
  localparam int unsigned LaneW    = $clog2(BufBytes);
  localparam int unsigned Wpb      = 32 / BufBytes;            // buffer words per beat
  localparam int unsigned WpbW     = Wpb > 1 ? $clog2(Wpb) : 1;
  localparam int unsigned BeatW    = $clog2(BufSize / 32 + 1);
  localparam int unsigned TmoW     = $clog2(ByteTimeout + 1);
  localparam logic [7:0]  BurstMask = 8'(MaxBurst - 1);
  localparam logic [33:0] MemBytes = 34'(MemKb) << 10;
  localparam logic [31:0] Residue  = 32'hDEBB_20E3;
  localparam logic [2:0]  LaneMask = 3'(BufBytes / 4 - 1);   // 32-bit words per buffer word - 1
  localparam logic [1:0]  DetLen = 2'd0, DetAddr = 2'd1, DetRlen = 2'd2, DetType = 2'd3;
  localparam logic [1:0]  SrcBuf = 2'd0, SrcMb = 2'd1, SrcSmall = 2'd2;

  // ---------------------------------------------------------------------------------------
  // State
  typedef enum logic [1:0] {PHunt, PHdr, PPay, PCrc} pstate_e;
  typedef enum logic [2:0] {EIdle, ESend, EWrite, ERead, EMbox} estate_e;

  // parser
  pstate_e          pst_q, pst_d;
  logic [15:0]      pcnt_q, pcnt_d;     // byte index within the header, payload or CRC
  logic [15:0]      plen_q, plen_d;     // LEN of the frame being parsed
  logic [31:0]      crc_q, crc_d;
  logic             own_q, own_d;       // the frame started while the engine was idle
  logic [TmoW-1:0]  tmo_q, tmo_d;
  logic [PosW-1:0]  wpos_q, wpos_d;     // buffer position of the next payload byte
  logic             ev_good_q, ev_good_d, ev_bad_q, ev_bad_d, ev_long_q, ev_long_d;
  // the request (an owned frame's header and first 8 payload bytes)
  logic [7:0]       req_type_q, req_type_d, req_flags_q, req_flags_d, req_seq_q, req_seq_d;
  logic [15:0]      req_len_q, req_len_d;
  logic [63:0]      req_arg_q, req_arg_d;
  // engine
  estate_e          est_q, est_d;
  logic [7:0]       rs_type_q, rs_type_d, rs_flags_q, rs_flags_d;
  logic [15:0]      rs_len_q, rs_len_d;
  logic [1:0]       rs_src_q, rs_src_d;
  logic [PosW-1:0]  rs_pos_q, rs_pos_d;
  logic [7:0]       rs_status_q, rs_status_d;    // ERR status or NAK reason (payload byte 0)
  logic [1:0]       rs_dsel_q, rs_dsel_d;        // ERR detail: DetLen, DetAddr, DetRlen, DetType
  logic             rs_started_q, rs_started_d;
  // AXI transfer
  logic [4:0]       x_o_q, x_o_d, x_e_q, x_e_d;   // first and last byte lane of the transfer
  logic             x_err_q, x_err_d;
  logic             ax_valid_q, ax_valid_d;
  logic [26:0]      ax_ba_q, ax_ba_d;              // beat address of the next burst
  logic [26:0]      ax_addr_q, ax_addr_d;          // beat address of the issued burst
  logic [7:0]       ax_len_q, ax_len_d;
  logic [BeatW-1:0] ax_left_q, ax_left_d;          // beats not yet covered by a burst
  logic [BeatW-1:0] ax_cnt_q, ax_cnt_d;            // bursts issued
  logic [BeatW-1:0] b_cnt_q, b_cnt_d;              // write responses received
  logic [255:0]     beat_q, beat_d;                // W beat, or the parser's word
  // MEM_WRITE: buffer words -> beat_q -> W
  logic [BeatW-1:0] f_left_q, f_left_d;            // beats still to fill
  logic [WpbW-1:0]  f_k_q, f_k_d;
  logic [BufAw-1:0] f_word_q, f_word_d;
  logic             cap_valid_q, cap_valid_d, cap_last_q, cap_last_d;
  logic [WpbW-1:0]  cap_k_q, cap_k_d;
  logic             beat_full_q, beat_full_d, w_first_q, w_first_d;
  logic [BeatW-1:0] w_left_q, w_left_d;
  logic [7:0]       w_ba_q, w_ba_d;                // low bits of the beat address in beat_q
  // MEM_READ: R -> buffer words
  logic [WpbW-1:0]  r_k_q, r_k_d;
  logic [BufAw-1:0] r_word_q, r_word_d;
  logic [BeatW-1:0] r_left_q, r_left_d;
  // mailbox
  logic             rx_full_q, rx_full_d;
  logic [7:0]       mb_type_q, mb_type_d, mb_flags_q, mb_flags_d, mb_seq_q, mb_seq_d;
  logic [15:0]      mb_len_q, mb_len_d;
  logic             mb_pend_q, mb_pend_d, mb_tag_q, mb_tag_d, mb_ans_q, mb_ans_d;
  logic             own_mb_q, own_mb_d;            // the transmitter sends the mailbox frame
  // counters
  logic [31:0]      cnt_rx_q, cnt_rx_d, cnt_crc_q, cnt_crc_d, cnt_drop_q, cnt_drop_d;
  logic [31:0]      cnt_tx_q, cnt_tx_d;
  // register bus read
  logic [1:0]       rd_sel_q, rd_sel_d;            // 0 register, 1 RX_BUF, 2 TX_BUF
  logic [31:0]      rd_data_q, rd_data_d;
  logic [2:0]       rd_lane_q, rd_lane_d;

  // ---------------------------------------------------------------------------------------
  // Buffers
  logic                  buf_we, buf_re;
  logic [BufAw-1:0]      buf_waddr, buf_raddr;
  logic [BufBytes*8-1:0] buf_wdata, buf_rdata;
  logic                  mb_we, mb_re;
  logic [MbAw-1:0]       mb_waddr, mb_raddr;
  logic [31:0]           mb_wdata, mb_rdata;

  tpu_link_ram #(.Width(BufBytes * 8), .Depth(BufWords)) u_buf (
    .clk_i, .we_i(buf_we), .waddr_i(buf_waddr), .wdata_i(buf_wdata),
    .re_i(buf_re), .raddr_i(buf_raddr), .rdata_o(buf_rdata)
  );
  tpu_link_ram #(.Width(32), .Depth(MbWords)) u_mb (
    .clk_i, .we_i(mb_we), .waddr_i(mb_waddr), .wdata_i(mb_wdata),
    .re_i(mb_re), .raddr_i(mb_raddr), .rdata_o(mb_rdata)
  );

  // ---------------------------------------------------------------------------------------
  // Transmitter
  logic [31:0] rs_detail;
  always_comb begin
    unique case (rs_dsel_q)
      DetLen: rs_detail = 32'(req_len_q);
      DetAddr: rs_detail = req_arg_q[31:0];
      DetRlen: rs_detail = req_arg_q[63:32];
      default: rs_detail = 32'(req_type_q);
    endcase
  end
  wire [63:0] rs_small = {rs_detail, 24'd0, rs_status_q};
  logic                  tx_start, tx_busy, tx_done, sel_mb;
  logic                  tx_buf_re, tx_mb_re;
  logic [BufAw-1:0]      tx_buf_raddr;
  logic [MbAw-1:0]       tx_mb_raddr;
  wire eng_req = est_q == ESend && !rs_started_q;

  assign sel_mb = tx_busy ? own_mb_q : !eng_req;
  assign tx_start = !tx_busy && (eng_req || mb_pend_q);

  tpu_link_tx #(.BufBytes(BufBytes), .BufWords(BufWords), .MbWords(MbWords)) u_tx (
    .clk_i, .rst_ni,
    .start_i(tx_start),
    .type_i(sel_mb ? mb_type_q : rs_type_q),
    .flags_i(sel_mb ? mb_flags_q : rs_flags_q),
    .seq_i(sel_mb ? mb_seq_q : req_seq_q),
    .len_i(sel_mb ? mb_len_q : rs_len_q),
    .src_i(sel_mb ? SrcMb : rs_src_q),
    .pos_i(rs_pos_q),
    .small_i(rs_small),
    .busy_o(tx_busy),
    .done_o(tx_done),
    .buf_re_o(tx_buf_re), .buf_raddr_o(tx_buf_raddr), .buf_rdata_i(buf_rdata),
    .mb_re_o(tx_mb_re), .mb_raddr_o(tx_mb_raddr), .mb_rdata_i(mb_rdata),
    .m_byte_valid_o, .m_byte_ready_i, .m_byte_data_o
  );

  // ---------------------------------------------------------------------------------------
  // Parser
  // A frame belongs to the engine ("owned") when its SYNC arrives while the engine is idle
  // and has no event to take; only owned frames write the request registers and the buffer.
  wire idle_ok = est_q == EIdle && !ev_good_q && !ev_bad_q && !ev_long_q;
  assign s_byte_ready_o = BackPressure != 0 ? idle_ok : 1'b1;
  wire take = s_byte_valid_i && s_byte_ready_o;
  wire [7:0] byte_in = s_byte_data_i;

  logic [31:0] crc_next;
  tpu_crc32 u_crc (.crc_i(crc_q), .data_i(byte_in), .crc_o(crc_next));

  wire [15:0] len_full = {byte_in, plen_q[7:0]};
  wire is_mw = req_type_q == tpu_isa_pkg::PktMemWrite;
  wire pay_last = pcnt_q == plen_q - 16'd1;
  // the parser's word being assembled (low BufBytes bytes of beat_q) with the new byte
  logic [BufBytes*8-1:0] acc_merged;
  always_comb begin
    acc_merged = beat_q[BufBytes*8-1:0];
    acc_merged[8*wpos_q[LaneW-1:0] +: 8] = byte_in;
  end
  wire pay_write = pst_q == PPay && take && own_q && !(is_mw && pcnt_q < 16'd4);

  always_comb begin
    pst_d = pst_q;
    pcnt_d = pcnt_q;
    plen_d = plen_q;
    crc_d = crc_q;
    own_d = own_q;
    tmo_d = tmo_q;
    wpos_d = wpos_q;
    ev_good_d = 1'b0;
    ev_bad_d = 1'b0;
    ev_long_d = 1'b0;
    req_type_d = req_type_q;
    req_flags_d = req_flags_q;
    req_seq_d = req_seq_q;
    req_len_d = req_len_q;
    req_arg_d = req_arg_q;
    cnt_rx_d = cnt_rx_q;
    cnt_crc_d = cnt_crc_q;
    cnt_drop_d = cnt_drop_q;
    if (take) begin
      tmo_d = '0;
      unique case (pst_q)
        PHunt: begin
          if (byte_in == tpu_isa_pkg::LinkSync) begin
            pst_d = PHdr;
            pcnt_d = '0;
            crc_d = 32'hFFFF_FFFF;
            own_d = idle_ok;
          end
        end
        PHdr: begin
          crc_d = crc_next;
          pcnt_d = pcnt_q + 16'd1;
          unique case (pcnt_q[2:0])
            3'd0: if (own_q) req_type_d = byte_in;
            3'd1: if (own_q) req_flags_d = byte_in;
            3'd2: if (own_q) req_seq_d = byte_in;
            3'd3: plen_d[7:0] = byte_in;
            default: begin
              plen_d = len_full;
              if (own_q) req_len_d = len_full;
              pcnt_d = '0;
              wpos_d = '0;
              if (32'(len_full) > MaxPayload) begin
                pst_d = PHunt;
                if (own_q) ev_long_d = 1'b1;
                cnt_drop_d = cnt_drop_q + 32'd1;
              end else begin
                pst_d = len_full == 16'd0 ? PCrc : PPay;
              end
            end
          endcase
        end
        PPay: begin
          crc_d = crc_next;
          pcnt_d = pcnt_q + 16'd1;
          for (int b = 0; b < 8; b++) begin
            if (own_q && pcnt_q == 16'(b)) req_arg_d[8*b +: 8] = byte_in;
          end
          if (own_q && is_mw && pcnt_q == 16'd0) wpos_d = PosW'(byte_in[4:0]);
          if (pay_write) wpos_d = wpos_q + PosW'(1);
          if (pay_last) begin
            pst_d = PCrc;
            pcnt_d = '0;
          end
        end
        default: begin  // PCrc
          crc_d = crc_next;
          pcnt_d = pcnt_q + 16'd1;
          if (pcnt_q[1:0] == 2'd3) begin
            pst_d = PHunt;
            if (!own_q) begin
              cnt_drop_d = cnt_drop_q + 32'd1;
            end else if (crc_next == Residue) begin
              ev_good_d = 1'b1;
              cnt_rx_d = cnt_rx_q + 32'd1;
            end else begin
              ev_bad_d = 1'b1;
              cnt_crc_d = cnt_crc_q + 32'd1;
            end
          end
        end
      endcase
    end else if (pst_q != PHunt) begin
      tmo_d = tmo_q + TmoW'(1);
      if (32'(tmo_q) == ByteTimeout - 1) begin
        pst_d = PHunt;
        cnt_drop_d = cnt_drop_q + 32'd1;
      end
    end
  end

  // ---------------------------------------------------------------------------------------
  // Engine
  wire [31:0] r_addr = req_arg_q[31:0];
  wire [31:0] r_rlen = req_arg_q[63:32];
  // One range computation for both transfers: n bytes at r_addr (MEM_WRITE: LEN-4 bytes of
  // data; MEM_READ: the length field), offset o = r_addr[4:0] in the first beat.
  wire [31:0] x_n = t == tpu_isa_pkg::PktMemWrite ? 32'(req_len_q) - 32'd4 : r_rlen;
  wire [33:0] x_end = {2'b0, r_addr} + {2'b0, x_n};
  wire [16:0] x_sum = 17'(r_addr[4:0]) + 17'(x_n[15:0]);   // o + n (n <= MaxPayload here)
  // the checks before the transfer bound the beats by BufSize/32: the high bits are zero
  /* verilator lint_off UNUSEDSIGNAL */
  wire [16:0] x_nb17 = (x_sum + 17'd31) >> 5;
  /* verilator lint_on UNUSEDSIGNAL */
  // Registered: the request registers are final at least four cycles (the CRC bytes) before
  // the engine decodes the request, and the 34-bit sum is the longest path of the block.
  logic             xr_bad_q, xr_rlen_bad_q;
  logic [BeatW-1:0] xr_nb_q;
  logic [4:0]       xr_sum_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      xr_bad_q <= 1'b0;
      xr_rlen_bad_q <= 1'b0;
      xr_nb_q <= '0;
      xr_sum_q <= '0;
    end else begin
      xr_bad_q <= x_end > MemBytes;
      xr_rlen_bad_q <= r_rlen == 32'd0 || r_rlen > MaxPayload;
      xr_nb_q <= x_nb17[BeatW-1:0];   // at most BufSize/32 beats
      xr_sum_q <= x_sum[4:0];
    end
  end
  wire [7:0]  t = req_type_q;

  // burst length: up to the next MaxBurst-aligned beat (never crosses 4 KB), at most the rest
  wire [7:0]  ba_low = ax_ba_q[7:0] & BurstMask;
  wire [15:0] to_bound = 16'(MaxBurst) - 16'(ba_low);
  wire [15:0] blen = 16'(ax_left_q) < to_bound ? 16'(ax_left_q) : to_bound;

  wire aw_hs = m_axi_awvalid_o && m_axi_awready_i;
  wire ar_hs = m_axi_arvalid_o && m_axi_arready_i;
  wire w_hs = m_axi_wvalid_o && m_axi_wready_i;
  wire r_hs = m_axi_rvalid_i && m_axi_rready_o;
  wire b_hs = m_axi_bvalid_i && m_axi_bready_o;
  wire r_wlast = 32'(r_k_q) == Wpb - 1;   // the R beat's last buffer word is written now
  // With 32-byte buffer words (Direct) the RAM's read register is the W beat: a read is
  // issued whenever the beat in it is taken (or there is none), one beat per cycle.
  // Narrower words are gathered in beat_q first.
  localparam bit Direct = Wpb == 1;
  wire f_issue = est_q == EWrite && f_left_q != '0 &&
                 (Direct || !(cap_valid_q && cap_last_q)) && (!beat_full_q || m_axi_wready_i);

  assign m_axi_awvalid_o = est_q == EWrite && ax_valid_q;
  assign m_axi_arvalid_o = est_q == ERead && ax_valid_q;
  assign m_axi_awaddr_o = {ax_addr_q, 5'd0};
  assign m_axi_araddr_o = {ax_addr_q, 5'd0};
  assign m_axi_awlen_o = ax_len_q;
  assign m_axi_arlen_o = ax_len_q;
  assign m_axi_awid_o = IdWidth'(AxiId);
  assign m_axi_arid_o = IdWidth'(AxiId);
  assign m_axi_wvalid_o = est_q == EWrite && beat_full_q;
  assign m_axi_wdata_o = Direct ? 256'(buf_rdata) : beat_q;
  assign m_axi_wstrb_o = (w_first_q ? 32'hFFFF_FFFF << x_o_q : 32'hFFFF_FFFF) &
                         (w_left_q == BeatW'(1) ? 32'hFFFF_FFFF >> (5'd31 - x_e_q) : 32'hFFFF_FFFF);
  assign m_axi_wlast_o = w_left_q == BeatW'(1) || (w_ba_q & BurstMask) == BurstMask;
  assign m_axi_bready_o = est_q == EWrite;
  // R data is written to the buffer straight from the bus, a word per cycle while rvalid
  // is high; the beat is taken with its last word.
  assign m_axi_rready_o = est_q == ERead && r_wlast;

  // ERR payload {u32 status, u32 detail}: the detail is read from the request registers,
  // which hold still until the response is out.
  task automatic respond_err(input logic [7:0] status, input logic [1:0] dsel);
    rs_flags_d = 8'(tpu_isa_pkg::FlagErr);
    rs_len_d = 16'd8;
    rs_src_d = SrcSmall;
    rs_status_d = status;
    rs_dsel_d = dsel;
    est_d = ESend;
  endtask

  always_comb begin
    est_d = est_q;
    rs_type_d = rs_type_q;
    rs_flags_d = rs_flags_q;
    rs_len_d = rs_len_q;
    rs_src_d = rs_src_q;
    rs_pos_d = rs_pos_q;
    rs_status_d = rs_status_q;
    rs_dsel_d = rs_dsel_q;
    rs_started_d = rs_started_q;
    x_o_d = x_o_q;
    x_e_d = x_e_q;
    x_err_d = x_err_q;
    ax_valid_d = ax_valid_q;
    ax_ba_d = ax_ba_q;
    ax_addr_d = ax_addr_q;
    ax_len_d = ax_len_q;
    ax_left_d = ax_left_q;
    ax_cnt_d = ax_cnt_q;
    b_cnt_d = b_cnt_q;
    beat_d = beat_q;
    f_left_d = f_left_q;
    f_k_d = f_k_q;
    f_word_d = f_word_q;
    cap_valid_d = 1'b0;
    cap_last_d = 1'b0;
    cap_k_d = f_k_q;
    beat_full_d = beat_full_q;
    w_first_d = w_first_q;
    w_left_d = w_left_q;
    w_ba_d = w_ba_q;
    r_k_d = r_k_q;
    r_word_d = r_word_q;
    r_left_d = r_left_q;
    rx_full_d = rx_full_q;
    mb_ans_d = mb_ans_q;
    own_mb_d = own_mb_q;
    cnt_tx_d = cnt_tx_q;
    buf_we = 1'b0;
    buf_waddr = BufAw'(wpos_q >> LaneW);
    buf_wdata = acc_merged;

    // the parser's word assembly and buffer writes (owned frames only, engine idle)
    if (pay_write) begin
      beat_d[BufBytes*8-1:0] = acc_merged;
      if (32'(wpos_q[LaneW-1:0]) == BufBytes - 1 || pay_last) buf_we = 1'b1;
    end

    unique case (est_q)
      EIdle: begin
        rs_type_d = t | tpu_isa_pkg::LinkResponseBit;
        rs_flags_d = 8'd0;
        rs_len_d = 16'd0;
        rs_src_d = SrcSmall;
        rs_pos_d = '0;
        rs_started_d = 1'b0;
        x_o_d = r_addr[4:0];
        x_err_d = 1'b0;
        ax_ba_d = r_addr[31:5];
        ax_cnt_d = '0;
        b_cnt_d = '0;
        f_k_d = '0;
        f_word_d = '0;
        beat_full_d = 1'b0;
        w_first_d = 1'b1;
        w_ba_d = r_addr[12:5];
        r_k_d = '0;
        r_word_d = '0;
        if (ev_bad_q || ev_long_q) begin
          rs_type_d = tpu_isa_pkg::PktNak;
          rs_len_d = 16'd1;
          rs_status_d = ev_bad_q ? 8'(tpu_isa_pkg::NakCrc) : 8'(tpu_isa_pkg::NakLength);
          est_d = ESend;
        end else if (ev_good_q) begin
          if (t == tpu_isa_pkg::PktPing) begin
            if (32'(req_len_q) > MbBytes) begin
              respond_err(tpu_isa_pkg::StatusBadLength, DetLen);
            end else begin
              rs_len_d = req_len_q;
              rs_src_d = SrcBuf;
              est_d = ESend;
            end
          end else if (t == tpu_isa_pkg::PktMemWrite) begin
            if (req_len_q < 16'd5) begin
              respond_err(tpu_isa_pkg::StatusBadLength, DetLen);
            end else if (xr_bad_q) begin
              respond_err(tpu_isa_pkg::StatusBadAddress, DetAddr);
            end else begin
              x_e_d = xr_sum_q - 5'd1;
              ax_left_d = xr_nb_q;
              f_left_d = xr_nb_q;
              w_left_d = xr_nb_q;
              est_d = EWrite;
            end
          end else if (t == tpu_isa_pkg::PktMemRead) begin
            if (req_len_q != 16'd8) begin
              respond_err(tpu_isa_pkg::StatusBadLength, DetLen);
            end else if (xr_rlen_bad_q) begin
              respond_err(tpu_isa_pkg::StatusBadLength, DetRlen);
            end else if (xr_bad_q) begin
              respond_err(tpu_isa_pkg::StatusBadAddress, DetAddr);
            end else begin
              ax_left_d = xr_nb_q;
              r_left_d = xr_nb_q;
              est_d = ERead;
            end
          end else if (t == 8'd0 || t == tpu_isa_pkg::PktNak || t[7]) begin
            respond_err(tpu_isa_pkg::StatusBadType, DetType);
          end else if (32'(req_len_q) > MbBytes) begin
            respond_err(tpu_isa_pkg::StatusBadLength, DetLen);
          end else begin
            rx_full_d = 1'b1;
            mb_ans_d = 1'b0;
            est_d = EMbox;
          end
        end
      end

      EWrite: begin
        // bursts
        if (!ax_valid_q && ax_left_q != '0) begin
          ax_valid_d = 1'b1;
          ax_addr_d = ax_ba_q;
          ax_len_d = 8'(blen - 16'd1);
          ax_ba_d = ax_ba_q + 27'(blen);
          ax_left_d = ax_left_q - BeatW'(blen);
          ax_cnt_d = ax_cnt_q + BeatW'(1);
        end
        if (aw_hs) ax_valid_d = 1'b0;
        if (w_hs) begin
          beat_full_d = 1'b0;
          w_first_d = 1'b0;
          w_left_d = w_left_q - BeatW'(1);
          w_ba_d = w_ba_q + 8'd1;
        end
        // fill beat_q (or the RAM read register) from the buffer
        if (f_issue && Direct) begin
          f_word_d = f_word_q + BufAw'(1);
          f_left_d = f_left_q - BeatW'(1);
          beat_full_d = 1'b1;
        end else if (f_issue) begin
          f_word_d = f_word_q + BufAw'(1);
          cap_valid_d = 1'b1;
          cap_k_d = f_k_q;
          cap_last_d = 32'(f_k_q) == Wpb - 1;
          f_k_d = f_k_q + WpbW'(1);
          if (32'(f_k_q) == Wpb - 1) begin
            f_k_d = '0;
            f_left_d = f_left_q - BeatW'(1);
          end
        end
        if (cap_valid_q) begin
          for (int k = 0; k < Wpb; k++) begin
            if (32'(cap_k_q) == k) beat_d[k * BufBytes * 8 +: BufBytes * 8] = buf_rdata;
          end
          if (cap_last_q) beat_full_d = 1'b1;
        end
        if (b_hs) begin
          b_cnt_d = b_cnt_q + BeatW'(1);
          if (m_axi_bresp_i != 2'b00) x_err_d = 1'b1;
        end
        if (ax_left_q == '0 && !ax_valid_q && w_left_q == '0 && b_cnt_q == ax_cnt_q) begin
          if (x_err_q) respond_err(tpu_isa_pkg::StatusBusError, DetAddr);
          else est_d = ESend;
        end
      end

      ERead: begin
        if (!ax_valid_q && ax_left_q != '0) begin
          ax_valid_d = 1'b1;
          ax_addr_d = ax_ba_q;
          ax_len_d = 8'(blen - 16'd1);
          ax_ba_d = ax_ba_q + 27'(blen);
          ax_left_d = ax_left_q - BeatW'(blen);
          ax_cnt_d = ax_cnt_q + BeatW'(1);
        end
        if (ar_hs) ax_valid_d = 1'b0;
        // R beat -> buffer words
        if (m_axi_rvalid_i) begin
          buf_we = 1'b1;
          buf_waddr = r_word_q;
          for (int k = 0; k < Wpb; k++) begin
            if (32'(r_k_q) == k) buf_wdata = m_axi_rdata_i[k * BufBytes * 8 +: BufBytes * 8];
          end
          r_word_d = r_word_q + BufAw'(1);
          r_k_d = r_k_q + WpbW'(1);
          if (r_wlast) r_k_d = '0;
        end
        if (r_hs) begin
          r_left_d = r_left_q - BeatW'(1);
          if (m_axi_rresp_i != 2'b00) x_err_d = 1'b1;
        end
        if (ax_left_q == '0 && !ax_valid_q && r_left_q == '0) begin
          if (x_err_q) begin
            respond_err(tpu_isa_pkg::StatusBusError, DetAddr);
          end else begin
            rs_len_d = r_rlen[15:0];
            rs_src_d = SrcBuf;
            rs_pos_d = PosW'(x_o_q);
            est_d = ESend;
          end
        end
      end

      EMbox: begin
        if (!rx_full_q && mb_ans_q) est_d = EIdle;
      end

      default: begin  // ESend
        if (eng_req && !tx_busy) rs_started_d = 1'b1;
        if (tx_done && !own_mb_q) est_d = EIdle;
      end
    endcase

    if (tx_start) own_mb_d = !eng_req;
    if (tx_done) begin
      cnt_tx_d = cnt_tx_q + 32'd1;
      if (own_mb_q && mb_tag_q && est_q == EMbox) mb_ans_d = 1'b1;
    end
    if (reg_req_i && reg_we_i && reg_addr_i == tpu_isa_pkg::LinkRxDone) rx_full_d = 1'b0;
  end

  // ---------------------------------------------------------------------------------------
  // Registers (LINK page) and the buffer read ports
  wire tx_status = mb_pend_q || (tx_busy && own_mb_q);
  wire reg_rd = reg_req_i && !reg_we_i;
  wire reg_wr = reg_req_i && reg_we_i;
  wire in_rxbuf = reg_addr_i[11:10] == 2'b01;   // 0x400 .. 0x7ff
  wire in_txbuf = reg_addr_i[11:10] == 2'b10;   // 0x800 .. 0xbff
  wire [MbAw-1:0] reg_word = reg_addr_i[MbAw+1:2];
  wire [PosW-1:0] reg_pos = PosW'({reg_word, 2'b00});

  always_comb begin
    mb_type_d = mb_type_q;
    mb_flags_d = mb_flags_q;
    mb_seq_d = mb_seq_q;
    mb_len_d = mb_len_q;
    mb_pend_d = mb_pend_q;
    mb_tag_d = mb_tag_q;
    mb_we = 1'b0;
    mb_waddr = reg_word;
    mb_wdata = reg_wdata_i;
    if (tx_start && !eng_req) mb_pend_d = 1'b0;
    if (reg_wr) begin
      unique case (reg_addr_i)
        tpu_isa_pkg::LinkTxHdr: begin
          if (!tx_status) begin
            mb_type_d = reg_wdata_i[7:0];
            mb_flags_d = reg_wdata_i[15:8];
            mb_seq_d = reg_wdata_i[23:16];
          end
        end
        tpu_isa_pkg::LinkTxLen: begin
          if (!tx_status) mb_len_d = reg_wdata_i > MbBytes ? 16'(MbBytes) : reg_wdata_i[15:0];
        end
        tpu_isa_pkg::LinkTxSend: begin
          if (!tx_status) begin
            mb_pend_d = 1'b1;
            mb_tag_d = est_q == EMbox;
          end
        end
        default: begin
          if (in_txbuf && !tx_status) mb_we = 1'b1;
        end
      endcase
    end

    // read data: registers now, buffer words from the RAMs in the next cycle
    rd_sel_d = 2'd0;
    rd_data_d = 32'd0;
    rd_lane_d = reg_pos[4:2] & LaneMask;
    if (reg_rd) begin
      unique case (reg_addr_i)
        tpu_isa_pkg::LinkRxStatus: rd_data_d = {31'd0, rx_full_q};
        tpu_isa_pkg::LinkRxHdr: rd_data_d = {8'd0, req_seq_q, req_flags_q, req_type_q};
        tpu_isa_pkg::LinkRxLen: rd_data_d = 32'(req_len_q);
        tpu_isa_pkg::LinkTxStatus: rd_data_d = {31'd0, tx_status};
        tpu_isa_pkg::LinkRxFrames: rd_data_d = cnt_rx_q;
        tpu_isa_pkg::LinkRxCrcErrors: rd_data_d = cnt_crc_q;
        tpu_isa_pkg::LinkRxDropped: rd_data_d = cnt_drop_q;
        tpu_isa_pkg::LinkTxFrames: rd_data_d = cnt_tx_q;
        default: begin
          if (in_rxbuf && est_q == EMbox) rd_sel_d = 2'd1;
          if (in_txbuf && !tx_status) rd_sel_d = 2'd2;
        end
      endcase
    end

    // payload buffer read port: MEM_WRITE fill, RX_BUF reads (mailbox), the transmitter
    buf_re = 1'b0;
    buf_raddr = tx_buf_raddr;
    if (est_q == EWrite) begin
      buf_re = f_issue;
      buf_raddr = f_word_q;
    end else if (est_q == EMbox) begin
      buf_re = rd_sel_d == 2'd1;
      buf_raddr = BufAw'(reg_pos >> LaneW);
    end else begin
      buf_re = tx_buf_re;
    end
    // mailbox TX buffer read port: the transmitter while it sends it, else TX_BUF reads
    mb_re = tx_mb_re || rd_sel_d == 2'd2;
    mb_raddr = tx_status ? tx_mb_raddr : reg_word;
  end

  wire [255:0] buf_rdata_w = 256'(buf_rdata);
  always_comb begin
    unique case (rd_sel_q)
      2'd1: reg_rdata_o = buf_rdata_w[32*rd_lane_q +: 32];
      2'd2: reg_rdata_o = mb_rdata;
      default: reg_rdata_o = rd_data_q;
    endcase
  end

  assign irq_o = rx_full_q;

  // ---------------------------------------------------------------------------------------
  // Flops
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      pst_q <= PHunt;
      pcnt_q <= '0;
      plen_q <= '0;
      crc_q <= '1;
      own_q <= 1'b0;
      tmo_q <= '0;
      wpos_q <= '0;
      ev_good_q <= 1'b0;
      ev_bad_q <= 1'b0;
      ev_long_q <= 1'b0;
      req_type_q <= '0;
      req_flags_q <= '0;
      req_seq_q <= '0;
      req_len_q <= '0;
      req_arg_q <= '0;
      est_q <= EIdle;
      rs_type_q <= '0;
      rs_flags_q <= '0;
      rs_len_q <= '0;
      rs_src_q <= SrcSmall;
      rs_pos_q <= '0;
      rs_status_q <= '0;
      rs_dsel_q <= '0;
      rs_started_q <= 1'b0;
      x_o_q <= '0;
      x_e_q <= '0;
      x_err_q <= 1'b0;
      ax_valid_q <= 1'b0;
      ax_ba_q <= '0;
      ax_addr_q <= '0;
      ax_len_q <= '0;
      ax_left_q <= '0;
      ax_cnt_q <= '0;
      b_cnt_q <= '0;
      f_left_q <= '0;
      f_k_q <= '0;
      f_word_q <= '0;
      cap_valid_q <= 1'b0;
      cap_last_q <= 1'b0;
      cap_k_q <= '0;
      beat_full_q <= 1'b0;
      w_first_q <= 1'b0;
      w_left_q <= '0;
      w_ba_q <= '0;
      r_k_q <= '0;
      r_word_q <= '0;
      r_left_q <= '0;
      rx_full_q <= 1'b0;
      mb_type_q <= '0;
      mb_flags_q <= '0;
      mb_seq_q <= '0;
      mb_len_q <= '0;
      mb_pend_q <= 1'b0;
      mb_tag_q <= 1'b0;
      mb_ans_q <= 1'b0;
      own_mb_q <= 1'b0;
      cnt_rx_q <= '0;
      cnt_crc_q <= '0;
      cnt_drop_q <= '0;
      cnt_tx_q <= '0;
      rd_sel_q <= '0;
      rd_data_q <= '0;
      rd_lane_q <= '0;
    end else begin
      pst_q <= pst_d;
      pcnt_q <= pcnt_d;
      plen_q <= plen_d;
      crc_q <= crc_d;
      own_q <= own_d;
      tmo_q <= tmo_d;
      wpos_q <= wpos_d;
      ev_good_q <= ev_good_d;
      ev_bad_q <= ev_bad_d;
      ev_long_q <= ev_long_d;
      req_type_q <= req_type_d;
      req_flags_q <= req_flags_d;
      req_seq_q <= req_seq_d;
      req_len_q <= req_len_d;
      req_arg_q <= req_arg_d;
      est_q <= est_d;
      rs_type_q <= rs_type_d;
      rs_flags_q <= rs_flags_d;
      rs_len_q <= rs_len_d;
      rs_src_q <= rs_src_d;
      rs_pos_q <= rs_pos_d;
      rs_status_q <= rs_status_d;
      rs_dsel_q <= rs_dsel_d;
      rs_started_q <= rs_started_d;
      x_o_q <= x_o_d;
      x_e_q <= x_e_d;
      x_err_q <= x_err_d;
      ax_valid_q <= ax_valid_d;
      ax_ba_q <= ax_ba_d;
      ax_addr_q <= ax_addr_d;
      ax_len_q <= ax_len_d;
      ax_left_q <= ax_left_d;
      ax_cnt_q <= ax_cnt_d;
      b_cnt_q <= b_cnt_d;
      f_left_q <= f_left_d;
      f_k_q <= f_k_d;
      f_word_q <= f_word_d;
      cap_valid_q <= cap_valid_d;
      cap_last_q <= cap_last_d;
      cap_k_q <= cap_k_d;
      beat_full_q <= beat_full_d;
      w_first_q <= w_first_d;
      w_left_q <= w_left_d;
      w_ba_q <= w_ba_d;
      r_k_q <= r_k_d;
      r_word_q <= r_word_d;
      r_left_q <= r_left_d;
      rx_full_q <= rx_full_d;
      mb_type_q <= mb_type_d;
      mb_flags_q <= mb_flags_d;
      mb_seq_q <= mb_seq_d;
      mb_len_q <= mb_len_d;
      mb_pend_q <= mb_pend_d;
      mb_tag_q <= mb_tag_d;
      mb_ans_q <= mb_ans_d;
      own_mb_q <= own_mb_d;
      cnt_rx_q <= cnt_rx_d;
      cnt_crc_q <= cnt_crc_d;
      cnt_drop_q <= cnt_drop_d;
      cnt_tx_q <= cnt_tx_d;
      rd_sel_q <= rd_sel_d;
      rd_data_q <= rd_data_d;
      rd_lane_q <= rd_lane_d;
    end
  end

  // The datapath word is not reset.
  always_ff @(posedge clk_i) beat_q <= beat_d;

  // ---------------------------------------------------------------------------------------
  // Assertions
`ifndef SYNTHESIS
  initial begin
    assert (MaxPayload % 32 == 0 && MaxPayload >= MbBytes && MaxPayload <= 65504)
      else $error("tpu_link: MaxPayload %0d must be a multiple of 32 in [%0d, 65504]",
                  MaxPayload, MbBytes);
    assert (MaxBurst >= 1 && MaxBurst <= 128 && (MaxBurst & (MaxBurst - 1)) == 0)
      else $error("tpu_link: MaxBurst %0d must be a power of two in 1..128", MaxBurst);
    assert (BufBytes >= 4 && BufBytes <= 32 && (1 << LaneW) == BufBytes)
      else $error("tpu_link: BufBytes %0d must be 4, 8, 16 or 32", BufBytes);
    assert (ByteTimeout >= 2) else $error("tpu_link: ByteTimeout must be >= 2");
  end
  // Immediate assertions in a clocked block, not properties (docs/verification.md).
  always_ff @(posedge clk_i) begin : checks
    if (rst_ni) begin
      assert (!(pay_write && est_q != EIdle))
        else $error("tpu_link: the parser wrote the buffer while the engine was busy");
      assert (!(buf_we && 32'(buf_waddr) >= BufWords))
        else $error("tpu_link: buffer write beyond the buffer");
      assert (!(m_axi_rvalid_i && est_q != ERead))
        else $error("tpu_link: R beat outside a MEM_READ");
      assert (!(m_axi_bvalid_i && est_q != EWrite))
        else $error("tpu_link: B response outside a MEM_WRITE");
      assert (!(r_hs && m_axi_rid_i != IdWidth'(AxiId)) && !(b_hs && m_axi_bid_i != IdWidth'(AxiId)))
        else $error("tpu_link: response with a foreign ID");
      assert (!(cap_valid_q && beat_full_q))
        else $error("tpu_link: beat register overwritten");
      assert (!(w_hs && w_left_q == '0))
        else $error("tpu_link: W beat beyond the transfer");
      assert (!(s_byte_valid_i && !s_byte_ready_o && BackPressure == 0))
        else $error("tpu_link: byte refused without back-pressure");
    end
  end
`endif

  // rlast is implied by the beat count: every burst's beats are counted, not flagged.
  logic unused_rlast;
  assign unused_rlast = m_axi_rlast_i;

endmodule

`default_nettype wire
