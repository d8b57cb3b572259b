// SPDX-License-Identifier: Apache-2.0
// tpu_dma_wr: DMA write engine - a row stream to strided rows in memory (AXI AW/W/B).
`default_nettype none

//   descriptor -> agen --.
//                        +-> pair + check -> row register -> beat merger -> W buffer -> W
//   row stream ---------'                                        |  bursts
//                                                                v
//                                                  burst ring (AW, then B) -> status
//
// Each in-bounds row is paired with its stream row, checked against the
// writable windows, shifted to its byte offset and cut into aligned beats
// with strobes.  The beat merger keeps the last, partly written beat open so
// that the next row can fill the rest of it (contiguous small rows cost one
// beat, not two), and groups consecutive beats into INCR bursts (MaxBurst,
// no 4 KB crossing).  A burst's AW is issued when the burst is complete and
// all its beats are in the W buffer, and W beats only follow their AW, so
// the slave never waits for data.  Rows outside the bounds are consumed and
// not written.  The status of a descriptor follows its last B response.
module tpu_dma_wr #(
  parameter int unsigned AddrWidth      = 32,   // byte address bits
  parameter int unsigned DataWidth      = 256,  // AXI data bits (32..4096, power of two)
  parameter int unsigned IdWidth        = 4,    // AXI ID bits
  parameter int unsigned AxiId          = 0,    // ID on every AW
  parameter int unsigned RowBytes       = 64,   // bytes per stream row
  parameter int unsigned NumWindows     = 4,    // protection windows
  parameter int unsigned MaxBurst       = 16,   // beats per burst, 1..256
  parameter int unsigned WriteBufBeats  = 32,   // W buffer, beats (power of two >= MaxBurst)
  parameter int unsigned MaxOutstanding = 32,   // bursts in flight (power of two >= 2)
  localparam int unsigned StsWidth = tpu_dma_pkg::StsWidth
) (
  input  logic                            clk_i,
  input  logic                            rst_ni,
  // Descriptor
  input  logic                            desc_valid_i,
  output logic                            desc_ready_o,
  input  logic [AddrWidth-1:0]            desc_addr_i,
  input  logic [15:0]                     desc_len0_i,
  input  logic [15:0]                     desc_out0_i,
  input  logic [7:0]                      desc_pad_i,
  input  logic [15:0]                     desc_count1_i,
  input  logic [15:0]                     desc_start1_i,
  input  logic [15:0]                     desc_step1_i,
  input  logic [15:0]                     desc_bound1_i,
  input  logic [AddrWidth-1:0]            desc_stride1_i,
  input  logic [15:0]                     desc_count2_i,
  input  logic [15:0]                     desc_start2_i,
  input  logic [15:0]                     desc_step2_i,
  input  logic [15:0]                     desc_bound2_i,
  input  logic [AddrWidth-1:0]            desc_stride2_i,
  // Status, one per descriptor, in order
  output logic                            sts_valid_o,
  input  logic                            sts_ready_i,
  output logic [StsWidth-1:0]             sts_code_o,
  output logic [AddrWidth-1:0]            sts_addr_o,
  // Protection windows: [base, limit) writable when win_wr_i
  input  logic [NumWindows*AddrWidth-1:0] win_base_i,
  input  logic [NumWindows*AddrWidth-1:0] win_limit_i,
  input  logic [NumWindows-1:0]           win_wr_i,
  // Row stream in
  input  logic                            s_row_valid_i,
  output logic                            s_row_ready_o,
  input  logic [RowBytes*8-1:0]           s_row_data_i,
  input  logic                            s_row_last_i,
  // AXI write address
  output logic                            m_axi_awvalid_o,
  input  logic                            m_axi_awready_i,
  output logic [IdWidth-1:0]              m_axi_awid_o,
  output logic [AddrWidth-1:0]            m_axi_awaddr_o,
  output logic [7:0]                      m_axi_awlen_o,
  // AXI write data
  output logic                            m_axi_wvalid_o,
  input  logic                            m_axi_wready_i,
  output logic [DataWidth-1:0]            m_axi_wdata_o,
  output logic [DataWidth/8-1:0]          m_axi_wstrb_o,
  output logic                            m_axi_wlast_o,
  // AXI write response
  input  logic                            m_axi_bvalid_i,
  output logic                            m_axi_bready_o,
  input  logic [IdWidth-1:0]              m_axi_bid_i,
  input  logic [1:0]                      m_axi_bresp_i
);

  localparam int unsigned DataBytes = DataWidth / 8;
  localparam int unsigned OffWidth  = $clog2(DataBytes);
  localparam int unsigned BeatWidth = AddrWidth - OffWidth;
  localparam int unsigned LenWidth  = $clog2(RowBytes + 1);
  localparam int unsigned MaxBeats  = (DataBytes - 1 + RowBytes + DataBytes - 1) / DataBytes;
  localparam int unsigned NbWidth   = $clog2(MaxBeats + 1);
  localparam int unsigned WinBytes  = MaxBeats * DataBytes;
  localparam int unsigned Beats4k   = 4096 / DataBytes;
  localparam int unsigned PageWidth = $clog2(Beats4k);
  localparam int unsigned BlenWidth = $clog2(MaxBurst + 1);
  localparam int unsigned RingPtr   = $clog2(MaxOutstanding);
  localparam int unsigned WcWidth   = RingPtr + 2;
  localparam int unsigned RecWidth  = 1 + StsWidth + AddrWidth;
  localparam int unsigned RingWidth = BeatWidth + 8 + 1;

  // --------------------------------------------------------------- agen
  logic                 ag_valid, ag_ready;
  logic [AddrWidth-1:0] ag_addr;
  logic [LenWidth-1:0]  ag_len0;
  logic                 ag_inb, ag_bad, ag_last;
  logic                 drop_q, drop_d;
  // The write engine writes len0 bytes of each row; out0 and pad only matter
  // to validation (inside agen) and to the read engine.
  logic [LenWidth-1:0]  unused_out0;
  logic [7:0]           unused_pad;

  logic [BeatWidth-1:0] ag_lb, unused_fb1;
  // The read engine's builder takes these; this engine splits rows by ag_lb alone.
  logic [NbWidth-1:0]   unused_nb, unused_nb1;
  logic [PageWidth:0]   unused_pl, unused_pl1;

  tpu_dma_agen #(
    .AddrWidth(AddrWidth),
    .RowBytes (RowBytes),
    .BeatOff  (OffWidth)
  ) u_agen (
    .clk_i,
    .rst_ni,
    .desc_valid_i,
    .desc_ready_o,
    .desc_addr_i,
    .desc_len0_i,
    .desc_out0_i,
    .desc_pad_i,
    .desc_count1_i,
    .desc_start1_i,
    .desc_step1_i,
    .desc_bound1_i,
    .desc_stride1_i,
    .desc_count2_i,
    .desc_start2_i,
    .desc_step2_i,
    .desc_bound2_i,
    .desc_stride2_i,
    .abort_i    (drop_q),
    .row_valid_o(ag_valid),
    .row_ready_i(ag_ready),
    .row_addr_o (ag_addr),
    .row_len0_o (ag_len0),
    .row_out0_o (unused_out0),
    .row_pad_o  (unused_pad),
    .row_inb_o  (ag_inb),
    .row_bad_o  (ag_bad),
    .row_last_o (ag_last),
    .row_fb1_o  (unused_fb1),
    .row_lb_o   (ag_lb),
    .row_nb_o   (unused_nb),
    .row_nb1_o  (unused_nb1),
    .row_pl_o   (unused_pl),
    .row_pl1_o  (unused_pl1)
  );

  logic prot_ok;

  tpu_dma_prot #(
    .AddrWidth (AddrWidth),
    .NumWindows(NumWindows),
    .LenWidth  (LenWidth)
  ) u_prot (
    .win_base_i,
    .win_limit_i,
    .win_en_i(win_wr_i),
    .addr_i  (ag_addr),
    .len_i   (ag_len0),
    .ok_o    (prot_ok)
  );

  // ------------------------------------------------------ control state
  logic                 done_q, done_d;    // rows of the descriptor consumed; flush pending
  logic                 drain_q, drain_d;  // consume stream rows up to `last`
  logic [StsWidth-1:0]  code_q, code_d;    // local error of the descriptor
  logic [AddrWidth-1:0] caddr_q, caddr_d;

  // Row register
  logic                  rr_v_q, rr_v_d;
  logic [WinBytes*8-1:0] rr_data_q, rr_data_d;
  logic [WinBytes-1:0]   rr_strb_q, rr_strb_d;
  logic [BeatWidth-1:0]  rr_fb_q, rr_fb_d;
  logic [NbWidth-1:0]    rr_nb_q, rr_nb_d;  // beats of the row, 0 for a skipped row
  logic [NbWidth-1:0]    rr_j_q, rr_j_d;    // next beat of the row
  logic [BeatWidth-1:0]  rr_nx_q, rr_nx_d;  // rr_fb_q + rr_j_q, kept in a register

  // Open beat and burst
  logic                  acc_v_q, acc_v_d;
  logic [BeatWidth-1:0]  acc_beat_q, acc_beat_d;
  logic [BeatWidth-1:0]  acc_beat1_q, acc_beat1_d;  // acc_beat_q + 1, kept in a register
  logic [DataWidth-1:0]  acc_data_q, acc_data_d;
  logic [DataBytes-1:0]  acc_strb_q, acc_strb_d;
  logic [BlenWidth-1:0]  blen_q, blen_d;    // beats emitted into the open burst
  logic [BeatWidth-1:0]  bstart_q, bstart_d;

  // Bus-error tracking for the oldest descriptor with bursts in flight
  logic                  berr_q, berr_d;
  logic [AddrWidth-1:0]  baddr_q, baddr_d;
  logic                  sv_q, sv_d;
  logic [StsWidth-1:0]   scode_q, scode_d;
  logic [AddrWidth-1:0]  saddr_q, saddr_d;
  logic [WcWidth-1:0]    wcred_q, wcred_d;  // bursts whose AW went out and whose W has not

  // Burst ring: pushed when a burst closes, read at ap for AW and at bp for B
  logic [RingPtr:0]      wp_q, wp_d, ap_q, ap_d, bp_q, bp_d;
  logic [RingWidth-1:0]  ring_q [MaxOutstanding];
  logic                  ring_full;
  logic [RingWidth-1:0]  ring_wdata, ring_a, ring_b;

  // W buffer and record queue
  logic                  wq_push, wq_pop, wq_full, wq_empty;
  logic [DataWidth+DataBytes:0] wq_wdata, wq_rdata;
  logic                  rec_push, rec_pop, rec_full, rec_empty;
  logic [RecWidth-1:0]   rec_wdata, rec_rdata;
  logic                  rec_has;
  logic [StsWidth-1:0]   rec_code;
  logic [AddrWidth-1:0]  rec_addr;

  // ------------------------------------------------------------ row input
  // The stream's rows wait in a two-entry FIFO: s_row_ready_o is then a compare of its
  // pointer registers and does not wait for the row register's handshake below (the
  // producer's row handshake and this engine's beat emission are no longer one path),
  // and a row popped every cycle still keeps the stream at a row per cycle.
  logic                  row_v, row_last, rin_pop, rin_full, rin_empty;
  logic [RowBytes*8-1:0] row_data;
  tpu_dma_fifo #(
    .Width(RowBytes * 8 + 1),
    .Depth(2)
  ) u_rin (
    .clk_i,
    .rst_ni,
    .push_i (s_row_valid_i && !rin_full),
    .data_i ({s_row_last_i, s_row_data_i}),
    .full_o (rin_full),
    .pop_i  (rin_pop),
    .data_o ({row_last, row_data}),
    .empty_o(rin_empty)
  );
  assign row_v         = !rin_empty;
  assign s_row_ready_o = !rin_full;

  // --------------------------------------------------------- row geometry
  logic [BeatWidth-1:0]  fb, lb;
  logic [NbWidth-1:0]    nb;
  logic [RowBytes-1:0]   len_mask;

  assign fb = ag_addr[AddrWidth-1:OffWidth];
  assign lb = ag_lb;  // (ag_addr + ag_len0 - 1) >> OffWidth, from agen's register
  assign nb = NbWidth'(lb - fb) + NbWidth'(1);

  assign len_mask = ~({RowBytes{1'b1}} << ag_len0);

  // ------------------------------------------------------ beat emission
  logic                 emit, emit_ok, e_close, e_none, e_end, e_first, e_cont, e_page;
  logic [DataWidth-1:0] e_data;
  logic [DataBytes-1:0] e_strb;
  logic [BeatWidth-1:0] e_beat, e_bstart;
  logic [BlenWidth-1:0] e_blen;
  logic [DataWidth-1:0] beat_j_data, beat0_data, beat1_data, merged_data;
  logic [DataBytes-1:0] beat_j_strb, beat0_strb, beat1_strb, merged_strb;
  logic                 share0, rr_done, flush, bus_abort, can_load, load;

  // Beat j of the row register (a plain mux: an indexed part-select of a
  // variable would cost a full shifter in synthesis).
  always_comb begin
    beat_j_data = rr_data_q[0 +: DataWidth];
    beat_j_strb = rr_strb_q[0 +: DataBytes];
    for (int k = 1; k < MaxBeats; k++) begin
      if (rr_j_q == NbWidth'(k)) begin
        beat_j_data = rr_data_q[k*DataWidth +: DataWidth];
        beat_j_strb = rr_strb_q[k*DataBytes +: DataBytes];
      end
    end
  end
  assign beat0_data  = rr_data_q[0 +: DataWidth];
  assign beat0_strb  = rr_strb_q[0 +: DataBytes];
  assign beat1_data  = rr_data_q[DataWidth +: DataWidth];
  assign beat1_strb  = rr_strb_q[DataBytes +: DataBytes];
  logic [DataWidth-1:0] beat0_mask;
  always_comb begin
    for (int i = 0; i < DataBytes; i++) beat0_mask[i*8 +: 8] = {8{beat0_strb[i]}};
  end
  assign merged_data = (beat0_data & beat0_mask) | (acc_data_q & ~beat0_mask);
  assign merged_strb = acc_strb_q | beat0_strb;

  // The first beat of a row merges into the open beat when they are the same.
  assign share0 = rr_j_q == '0 && acc_v_q && acc_beat_q == rr_fb_q;
  assign flush  = done_q && !drain_q && !drop_q && !rr_v_q;

  // Burst bookkeeping for the beat being emitted.  The burst closes after it when the
  // next beat (e_next) is not the one after it (e_cont: e_next == e_beat + 1) or starts a
  // 4 KB page (e_page); both come from registers (rr_nx_q, acc_beat1_q) without an adder.
  assign e_first  = blen_q == '0;
  assign e_bstart = e_first ? e_beat : bstart_q;
  assign e_blen   = blen_q + 1'b1;
  assign e_close  = e_none || !e_cont || e_blen == BlenWidth'(MaxBurst) || e_page;
  assign emit_ok  = !wq_full && (!e_close || !ring_full);

  always_comb begin
    emit       = 1'b0;
    e_data     = acc_data_q;
    e_strb     = acc_strb_q;
    e_beat     = acc_beat_q;
    // e_next = rr_nx_q (rr_fb_q + rr_j_q)
    e_cont     = rr_nx_q == acc_beat1_q;
    e_page     = rr_nx_q[PageWidth-1:0] == '0;
    e_none     = 1'b0;
    e_end      = 1'b0;
    rr_done    = 1'b0;
    rr_j_d     = rr_j_q;
    rr_nx_d    = rr_nx_q;
    acc_v_d    = acc_v_q;
    acc_beat_d = acc_beat_q;
    acc_beat1_d = acc_beat1_q;
    acc_data_d = acc_data_q;
    acc_strb_d = acc_strb_q;
    rec_push   = 1'b0;

    if (rr_v_q) begin
      if (rr_nb_q == '0) begin
        rr_done = 1'b1;
      end else if (share0) begin
        if (rr_nb_q == NbWidth'(1)) begin
          acc_data_d = merged_data;
          acc_strb_d = merged_strb;
          rr_done    = 1'b1;
        end else begin
          emit   = 1'b1;
          e_data = merged_data;
          e_strb = merged_strb;
          e_beat = rr_fb_q;
          // e_next = rr_fb_q + 1: contiguous; a new page when rr_fb_q ends one
          e_cont = 1'b1;
          e_page = &rr_fb_q[PageWidth-1:0];
          if (emit_ok) begin
            acc_beat_d  = rr_fb_q + 1'b1;
            acc_beat1_d = rr_fb_q + BeatWidth'(2);
            acc_data_d = beat1_data;
            acc_strb_d = beat1_strb;
            rr_j_d     = NbWidth'(2);
            rr_nx_d    = rr_fb_q + BeatWidth'(2);
            rr_done    = rr_nb_q == NbWidth'(2);
          end
        end
      end else begin
        emit = acc_v_q;
        if (!acc_v_q || emit_ok) begin
          acc_v_d    = 1'b1;
          acc_beat_d  = rr_nx_q;
          acc_beat1_d = rr_nx_q + 1'b1;
          acc_data_d = beat_j_data;
          acc_strb_d = beat_j_strb;
          rr_j_d     = rr_j_q + 1'b1;
          rr_nx_d    = rr_nx_q + 1'b1;
          rr_done    = rr_j_q + 1'b1 == rr_nb_q;
        end
      end
    end else if (flush) begin
      // End of the descriptor: the open beat closes its last burst, in the
      // same cycle as the record goes in.
      emit   = acc_v_q && !rec_full;
      e_none = 1'b1;
      e_end  = 1'b1;
      if (!rec_full && (!acc_v_q || emit_ok)) begin
        acc_v_d  = 1'b0;
        rec_push = 1'b1;
      end
    end
  end

  assign wq_push    = emit && emit_ok;
  assign wq_wdata   = {e_close, e_strb, e_data};
  assign ring_wdata = {e_bstart, 8'(e_blen) - 8'd1, e_end};

  always_comb begin
    blen_d   = blen_q;
    bstart_d = bstart_q;
    if (wq_push) begin
      blen_d   = e_close ? '0 : e_blen;
      bstart_d = e_bstart;
    end
  end

  assign rec_wdata = {acc_v_q, code_q, code_q == tpu_dma_pkg::StsOk ? '0 : caddr_q};

  // --------------------------------------------------- pairing and checks
  assign bus_abort = berr_q && rec_empty && !done_q;
  assign can_load  = !done_q && !drain_q && !drop_q && !bus_abort && (!rr_v_q || rr_done);
  assign load      = can_load && ag_valid && row_v;

  assign ag_ready      = drop_q || (can_load && row_v);
  assign rin_pop       = row_v && (drain_q || (can_load && ag_valid));

  always_comb begin
    done_d    = done_q;
    drain_d   = drain_q;
    drop_d    = drop_q;
    code_d    = code_q;
    caddr_d   = caddr_q;
    rr_v_d    = rr_v_q && !rr_done;
    rr_data_d = rr_data_q;
    rr_strb_d = rr_strb_q;
    rr_fb_d   = rr_fb_q;
    rr_nb_d   = rr_nb_q;

    if (drain_q && row_v && row_last) drain_d = 1'b0;
    if (drop_q && ag_valid && ag_last) drop_d = 1'b0;

    if (bus_abort) begin
      // A write of this descriptor failed: stop writing, drain both inputs.
      done_d  = 1'b1;
      drain_d = 1'b1;
      drop_d  = 1'b1;
    end else if (load) begin
      if (ag_bad) begin
        code_d  = tpu_dma_pkg::StsBadDesc;
        caddr_d = ag_addr;
        done_d  = 1'b1;
        drain_d = !row_last;
      end else if (row_last && !ag_last) begin
        code_d  = tpu_dma_pkg::StsStream;
        caddr_d = ag_addr;
        done_d  = 1'b1;
        drop_d  = 1'b1;
      end else if (ag_inb && !prot_ok) begin
        code_d  = tpu_dma_pkg::StsProtWrite;
        caddr_d = ag_addr;
        done_d  = 1'b1;
        drop_d  = !ag_last;
        drain_d = !row_last;
      end else begin
        rr_v_d    = 1'b1;
        rr_data_d = (WinBytes*8)'(row_data) << {ag_addr[OffWidth-1:0], 3'b000};
        rr_strb_d = WinBytes'(len_mask) << ag_addr[OffWidth-1:0];
        rr_fb_d   = fb;
        rr_nb_d   = ag_inb ? nb : '0;
        if (ag_last) begin
          done_d = 1'b1;
          if (!row_last) begin
            code_d  = tpu_dma_pkg::StsStream;
            caddr_d = ag_addr;
            drain_d = 1'b1;
          end
        end
      end
    end

    if (rec_push) begin
      done_d = 1'b0;
      code_d = tpu_dma_pkg::StsOk;
    end
  end

  // A newly loaded row starts at its first beat.
  logic [NbWidth-1:0] rr_j_next;
  logic [BeatWidth-1:0] rr_nx_next;
  assign rr_j_next  = load ? '0 : rr_j_d;
  assign rr_nx_next = load ? fb : rr_nx_d;

  // ------------------------------------------------------------ AW and W
  assign ring_full = (wp_q ^ bp_q) == {1'b1, {RingPtr{1'b0}}};
  assign ring_a    = ring_q[ap_q[RingPtr-1:0]];
  assign ring_b    = ring_q[bp_q[RingPtr-1:0]];

  assign m_axi_awvalid_o = ap_q != wp_q;
  assign m_axi_awid_o    = IdWidth'(AxiId);
  assign m_axi_awaddr_o  = {ring_a[RingWidth-1 -: BeatWidth], {OffWidth{1'b0}}};
  assign m_axi_awlen_o   = ring_a[8:1];
  logic unused_ring;
  assign unused_ring = ^{ring_a[0], ring_b[8:1]};

  tpu_dma_fifo #(
    .Width(DataWidth + DataBytes + 1),
    .Depth(WriteBufBeats)
  ) u_wbuf (
    .clk_i,
    .rst_ni,
    .push_i (wq_push),
    .data_i (wq_wdata),
    .full_o (wq_full),
    .pop_i  (wq_pop),
    .data_o (wq_rdata),
    .empty_o(wq_empty)
  );

  assign m_axi_wvalid_o = !wq_empty && wcred_q != '0;
  assign m_axi_wdata_o  = wq_rdata[DataWidth-1:0];
  assign m_axi_wstrb_o  = wq_rdata[DataWidth +: DataBytes];
  assign m_axi_wlast_o  = wq_rdata[DataWidth+DataBytes];
  assign wq_pop         = m_axi_wvalid_o && m_axi_wready_i;

  always_comb begin
    wcred_d = wcred_q;
    if (m_axi_awvalid_o && m_axi_awready_i) wcred_d = wcred_d + 1'b1;
    if (wq_pop && m_axi_wlast_o) wcred_d = wcred_d - 1'b1;
  end

  always_comb begin
    wp_d = wp_q;
    ap_d = ap_q;
    bp_d = bp_q;
    if (wq_push && e_close) wp_d = wp_q + 1'b1;
    if (m_axi_awvalid_o && m_axi_awready_i) ap_d = ap_q + 1'b1;
    if (m_axi_bvalid_i && m_axi_bready_o) bp_d = bp_q + 1'b1;
  end

  always_ff @(posedge clk_i) begin
    if (wq_push && e_close) ring_q[wp_q[RingPtr-1:0]] <= ring_wdata;
  end

  // ------------------------------------------------------ B and status
  logic b_hs, b_err, b_end, retire_b, retire_nb;

  tpu_dma_fifo #(
    .Width(RecWidth),
    .Depth(4)
  ) u_rec (
    .clk_i,
    .rst_ni,
    .push_i (rec_push),
    .data_i (rec_wdata),
    .full_o (rec_full),
    .pop_i  (rec_pop),
    .data_o (rec_rdata),
    .empty_o(rec_empty)
  );

  assign {rec_has, rec_code, rec_addr} = rec_rdata;

  assign b_end  = ring_b[0];
  assign b_err  = m_axi_bresp_i != 2'b00;
  // The response that ends a descriptor waits until its status can be written.
  assign m_axi_bready_o = !b_end || (!rec_empty && rec_has && !sv_q);
  assign b_hs      = m_axi_bvalid_i && m_axi_bready_o;
  assign retire_b  = b_hs && b_end;
  assign retire_nb = !rec_empty && !rec_has && !sv_q;
  assign rec_pop   = retire_b || retire_nb;

  always_comb begin
    berr_d  = berr_q;
    baddr_d = baddr_q;
    sv_d    = sv_q && !sts_ready_i;
    scode_d = scode_q;
    saddr_d = saddr_q;
    if (retire_b) begin
      sv_d = 1'b1;
      if (berr_q || b_err) begin
        scode_d = tpu_dma_pkg::StsBusError;
        saddr_d = berr_q ? baddr_q : {ring_b[RingWidth-1 -: BeatWidth], {OffWidth{1'b0}}};
      end else begin
        scode_d = rec_code;
        saddr_d = rec_addr;
      end
      berr_d = 1'b0;
    end else begin
      if (b_hs && b_err && !berr_q) begin
        berr_d  = 1'b1;
        baddr_d = {ring_b[RingWidth-1 -: BeatWidth], {OffWidth{1'b0}}};
      end
      if (retire_nb) begin
        sv_d    = 1'b1;
        scode_d = rec_code;
        saddr_d = rec_addr;
      end
    end
  end

  assign sts_valid_o = sv_q;
  assign sts_code_o  = scode_q;
  assign sts_addr_o  = saddr_q;

  // ------------------------------------------------------------ registers
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      done_q  <= 1'b0;
      drain_q <= 1'b0;
      drop_q  <= 1'b0;
      code_q  <= tpu_dma_pkg::StsOk;
      rr_v_q  <= 1'b0;
      rr_j_q  <= '0;
      acc_v_q <= 1'b0;
      blen_q  <= '0;
      berr_q  <= 1'b0;
      sv_q    <= 1'b0;
      wcred_q <= '0;
      wp_q    <= '0;
      ap_q    <= '0;
      bp_q    <= '0;
    end else begin
      done_q  <= done_d;
      drain_q <= drain_d;
      drop_q  <= drop_d;
      code_q  <= code_d;
      rr_v_q  <= rr_v_d;
      rr_j_q  <= rr_j_next;
      acc_v_q <= acc_v_d;
      blen_q  <= blen_d;
      berr_q  <= berr_d;
      sv_q    <= sv_d;
      wcred_q <= wcred_d;
      wp_q    <= wp_d;
      ap_q    <= ap_d;
      bp_q    <= bp_d;
    end
  end

  always_ff @(posedge clk_i) begin
    caddr_q    <= caddr_d;
    rr_data_q  <= rr_data_d;
    rr_strb_q  <= rr_strb_d;
    rr_fb_q    <= rr_fb_d;
    rr_nb_q    <= rr_nb_d;
    acc_beat_q <= acc_beat_d;
    acc_beat1_q <= acc_beat1_d;
    rr_nx_q    <= rr_nx_next;
    acc_data_q <= acc_data_d;
    acc_strb_q <= acc_strb_d;
    bstart_q   <= bstart_d;
    baddr_q    <= baddr_d;
    scode_q    <= scode_d;
    saddr_q    <= saddr_d;
  end

  // Assertions
`ifndef SYNTHESIS
  initial begin
    assert (DataWidth >= 32 && DataWidth <= 4096 && (1 << OffWidth) == DataBytes)
      else $error("tpu_dma_wr: DataWidth %0d must be a power of two in 32..4096", DataWidth);
    assert (MaxBurst >= 1 && MaxBurst <= 256)
      else $error("tpu_dma_wr: MaxBurst %0d outside 1..256", MaxBurst);
    assert (WriteBufBeats >= MaxBurst)
      else $error("tpu_dma_wr: WriteBufBeats %0d < MaxBurst %0d", WriteBufBeats, MaxBurst);
    assert (MaxOutstanding >= 2 && (1 << RingPtr) == MaxOutstanding)
      else $error("tpu_dma_wr: MaxOutstanding %0d must be a power of two >= 2", MaxOutstanding);
  end
  // Immediate assertions in a clocked block, not properties (docs/verification.md).
  logic aw_stall_q;
  logic [AddrWidth-1:0] awaddr_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) aw_stall_q <= 1'b0;
    else aw_stall_q <= m_axi_awvalid_o && !m_axi_awready_i;
  end
  always_ff @(posedge clk_i) begin : checks
    awaddr_q <= m_axi_awaddr_o;
    if (rst_ni) begin
      if (m_axi_bvalid_i) begin
        assert (bp_q != ap_q) else $error("tpu_dma_wr: B response with no write in flight");
        assert (m_axi_bid_i == IdWidth'(AxiId)) else $error("tpu_dma_wr: B response with a foreign ID");
      end
      assert (!(wq_push && e_end) || rec_push)
        else $error("tpu_dma_wr: last burst of a descriptor without its record");
      // An open burst always ends in the open beat, so the flush closes it.
      assert (acc_v_q || blen_q == '0) else $error("tpu_dma_wr: open burst without an open beat");
      assert (!retire_b || rec_has) else $error("tpu_dma_wr: last B of a descriptor without its record");
      assert (!(load && rr_v_q && !rr_done)) else $error("tpu_dma_wr: row register overwritten");
      if (rr_v_q) begin
        assert (rr_nx_q == rr_fb_q + BeatWidth'(rr_j_q))
          else $error("tpu_dma_wr: next beat register %0h, row beat %0h", rr_nx_q,
                      rr_fb_q + BeatWidth'(rr_j_q));
      end
      if (acc_v_q) begin
        assert (acc_beat1_q == acc_beat_q + 1'b1) else $error("tpu_dma_wr: open beat + 1 register");
      end
      assert (13'(bstart_q[PageWidth-1:0]) + 13'(blen_q) <= 13'(Beats4k) || blen_q == '0)
        else $error("tpu_dma_wr: burst crosses 4 KB");
      if (aw_stall_q) begin
        assert (m_axi_awvalid_o && m_axi_awaddr_o == awaddr_q)
          else $error("tpu_dma_wr: AW changed while stalled");
      end
    end
  end
`endif

endmodule
