// SPDX-License-Identifier: Apache-2.0
// tpu_dma_rd: DMA read engine - strided, padded rows from memory (AXI AR/R) to a row stream.
`default_nettype none

//   descriptor -> agen -> builder ------ AR (bursts) ------> memory
//                          | row queue                          |
//                          v                                    v R beats
//                        assembler <------ read buffer <--------'
//                          |  + status
//                          v
//                        row stream (one row per beat, `last` on the final row)
//
// The builder checks each in-bounds row against the protection windows,
// turns the aligned beats it needs into INCR bursts (merging contiguous rows,
// reusing the beat shared with the previous row, never crossing 4 KB or
// MaxBurst) and only issues beats the read buffer has room for, so R is never
// back-pressured.  The assembler takes the row commands in order, gathers
// their beats and cuts, shifts and pads the row.  Descriptors are pipelined:
// the next one is set up and issued while this one's data returns.
// Errors (docs/dma.md): the rows before the first failing row are streamed,
// then one beat with last = 1, err = 1 and zero data; nothing more of that
// descriptor is issued, data already requested is drained, then the status.
module tpu_dma_rd #(
  parameter int unsigned AddrWidth     = 32,   // byte address bits
  parameter int unsigned DataWidth     = 256,  // AXI data bits (32..4096, power of two)
  parameter int unsigned IdWidth       = 4,    // AXI ID bits
  parameter int unsigned AxiId         = 0,    // ID on every AR
  parameter int unsigned RowBytes      = 64,   // bytes per stream row
  parameter int unsigned NumWindows    = 4,    // protection windows
  parameter int unsigned MaxBurst      = 16,   // beats per burst, 1..256
  parameter int unsigned ReadBufBeats  = 128,  // read buffer, beats (power of two >= MaxBurst)
  parameter int unsigned RowQueueDepth = 128,  // rows in flight (power of two >= 2)
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
  // Protection windows: [base, limit) readable when win_rd_i
  input  logic [NumWindows*AddrWidth-1:0] win_base_i,
  input  logic [NumWindows*AddrWidth-1:0] win_limit_i,
  input  logic [NumWindows-1:0]           win_rd_i,
  // Row stream out
  output logic                            m_row_valid_o,
  input  logic                            m_row_ready_i,
  output logic [RowBytes*8-1:0]           m_row_data_o,
  output logic                            m_row_last_o,
  output logic                            m_row_err_o,
  // AXI read address
  output logic                            m_axi_arvalid_o,
  input  logic                            m_axi_arready_i,
  output logic [IdWidth-1:0]              m_axi_arid_o,
  output logic [AddrWidth-1:0]            m_axi_araddr_o,
  output logic [7:0]                      m_axi_arlen_o,
  // AXI read data
  input  logic                            m_axi_rvalid_i,
  output logic                            m_axi_rready_o,
  input  logic [IdWidth-1:0]              m_axi_rid_i,
  input  logic [DataWidth-1:0]            m_axi_rdata_i,
  input  logic [1:0]                      m_axi_rresp_i,
  input  logic                            m_axi_rlast_i
);

  localparam int unsigned DataBytes  = DataWidth / 8;
  localparam int unsigned OffWidth   = $clog2(DataBytes);
  localparam int unsigned BeatWidth  = AddrWidth - OffWidth;  // beat index bits
  localparam int unsigned LenWidth   = $clog2(RowBytes + 1);
  // Most beats one row can touch (unaligned start).
  localparam int unsigned MaxBeats   = (DataBytes - 1 + RowBytes + DataBytes - 1) / DataBytes;
  localparam int unsigned NbWidth    = $clog2(MaxBeats + 1);
  localparam int unsigned Beats4k    = 4096 / DataBytes;
  localparam int unsigned PageWidth  = $clog2(Beats4k);
  localparam int unsigned BlenWidth  = $clog2(MaxBurst + 1);
  localparam int unsigned CredWidth  = $clog2(ReadBufBeats + 1);
  localparam int unsigned LcWidth    = $clog2(RowQueueDepth + 1) + 1;
  localparam int unsigned WinWidth   = MaxBeats * DataWidth;

  // Row command kinds
  localparam logic [1:0] KindMem    = 2'd0;  // in bounds: bytes from memory
  localparam logic [1:0] KindPad    = 2'd1;  // out of bounds: all pad
  localparam logic [1:0] KindMarker = 2'd2;  // ends the descriptor with an error (or a kill)

  // Row queue entry
  localparam int unsigned RqWidth = 2 + StsWidth + 1 + OffWidth + 1 + NbWidth + AddrWidth +
                                    2 * LenWidth + 8;

  // --------------------------------------------------------------- agen
  logic                 ag_valid, ag_ready;
  logic [AddrWidth-1:0] ag_addr;
  logic [LenWidth-1:0]  ag_len0, ag_out0;
  logic [7:0]           ag_pad;
  logic                 ag_inb, ag_bad, ag_last;
  logic                 drop_q, drop_d;

  logic [BeatWidth-1:0] ag_fb1, ag_lb;
  logic [NbWidth-1:0]   ag_nb, ag_nb1;
  logic [PageWidth:0]   ag_pl, ag_pl1;

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
    .row_out0_o (ag_out0),
    .row_pad_o  (ag_pad),
    .row_inb_o  (ag_inb),
    .row_bad_o  (ag_bad),
    .row_last_o (ag_last),
    .row_fb1_o  (ag_fb1),
    .row_lb_o   (ag_lb),
    .row_nb_o   (ag_nb),
    .row_nb1_o  (ag_nb1),
    .row_pl_o   (ag_pl),
    .row_pl1_o  (ag_pl1)
  );

  logic prot_ok;

  tpu_dma_prot #(
    .AddrWidth (AddrWidth),
    .NumWindows(NumWindows),
    .LenWidth  (LenWidth)
  ) u_prot (
    .win_base_i,
    .win_limit_i,
    .win_en_i(win_rd_i),
    .addr_i  (ag_addr),
    .len_i   (ag_len0),
    .ok_o    (prot_ok)
  );

  // ------------------------------------------------------------ builder
  logic                 open_q, open_d;     // a burst is being collected
  logic [BeatWidth-1:0] bstart_q, bstart_d;
  logic [BeatWidth-1:0] bend_q, bend_d;     // bstart_q + blen_q, kept in a register
  logic [BlenWidth-1:0] blen_q, blen_d;
  logic [BlenWidth-1:0] room_q, room_d;     // MaxBurst - blen_q, kept in a register
  logic                 brows_full_q, brows_full_d;  // brows_q >= RowQueueDepth / 2
  logic                 eod_q, eod_d;       // the open burst belongs to a finished descriptor
  logic                 part_q, part_d;     // the current row is split over bursts
  logic [BeatWidth-1:0] rs_q, rs_d;         // next beat of a split row
  logic [NbWidth-1:0]   rn_q, rn_d;         // its beats left: lb - rs_q + 1
  logic [PageWidth:0]   rp_q, rp_d;         // its beats left in the page: Beats4k - rs_q's
  logic                 lastb_v_q, lastb_v_d;
  logic [BeatWidth-1:0] lastb_q, lastb_d;   // last beat of the previous memory row
  logic [CredWidth-1:0] cred_q, cred_d;     // free read-buffer beats
  logic [LcWidth-1:0]   lastcnt_q, lastcnt_d;
  logic [LcWidth-1:0]   brows_q, brows_d;     // rows queued since the open burst opened
  logic                 brows_full;

  logic [BeatWidth-1:0] fb, lb, rstart;
  logic                 share;
  logic [NbWidth-1:0]   nnew, nrun;
  logic                 nnew_zero;          // nnew == 0, from two compares side by side
  logic [15:0]          room, k16, k16_ref;
  logic [15:0]          page_left;
  logic                 contig, complete, kill;
  logic [CredWidth-1:0] reserve;
  logic                 do_close, open_new, cmd_ok;

  // Row queue and AR queue
  logic               rq_push, rq_pop, rq_full, rq_empty;
  logic [RqWidth-1:0] rq_wdata, rq_rdata;
  logic [1:0]           rqw_kind;
  logic [StsWidth-1:0]  rqw_code;
  logic                 rqw_last;
  logic                 ar_push, ar_pop, ar_full, ar_empty;
  logic [BeatWidth+7:0] ar_wdata, ar_rdata;

  // Assembler side, used by the builder for the abort handshake
  logic                 asm_abort;
  logic                 asm_fire_last;
  logic                 df_pop;

  // fb + 1 and lb come from agen's registers (no adder on the row's address here).
  assign fb      = ag_addr[AddrWidth-1:OffWidth];
  assign lb      = ag_lb;  // (ag_addr + ag_len0 - 1) >> OffWidth
  assign share   = lastb_v_q && fb == lastb_q;
  // agen registers the row's spans (lb - fb + 1, lb - fb): no subtraction here.
  assign nnew    = share ? ag_nb1 : ag_nb;
  // A row with no new beat lies inside the beat shared with the previous row (asserted
  // below).
  assign nnew_zero = share && ag_nb1 == '0;
  assign rstart  = part_q ? rs_q : share ? ag_fb1 : fb;
  assign nrun    = NbWidth'(lb - rstart) + NbWidth'(1);
  assign page_left = 16'(Beats4k) - 16'(rstart[PageWidth-1:0]);
  // A burst never serves more than half the row queue, so that the builder
  // can queue the next rows while its data is on the way (small rows pack
  // many rows into one beat).
  assign brows_full = brows_full_q;
  // A run extends the open burst when it starts right after it, in the same
  // 4 KB page, within the same descriptor, below MaxBurst and brows_full.
  // (rstart == bend_q, compared for each of rstart's three sources side by side)
  //
  // Timing: the row start has three sources (rs_q, agen's fb + 1, fb), and everything
  // the builder's handshake needs from it is worked out for each source side by side and
  // picked afterwards (part_q, share).  Each source's run length (nr = lb - start + 1) and
  // beats left in its page (pl) come from registers: agen's row_nb/nb1/pl/pl1 and, for a
  // split row, rn_q/rp_q, kept with rs_q.  So every compare below is one carry chain from
  // registers, and with
  //   k16 = min(nr, rm, pl),  rm = the open burst's room (contiguous) or MaxBurst,
  // the minimum is picked by three compares side by side:
  //   k16 = nr <= rm && nr <= pl ? nr : rm <= pl ? rm : pl
  //   complete (k16 == nr)    = nr <= rm && nr <= pl
  //   credit   (cred >= k16)  = cred >= nr || cred >= rm || cred >= pl
  // The sums that take k16 (the next split-row beat and burst end start + k16, the burst
  // length, the credits left, the split row's beats left) are made for each source, each
  // with its own "contiguous" bit, and picked: the late select drives only the last
  // multiplexers.  Assertions check all of it against the rstart-based reference.
  // Per source i (0: rs_q, 1: fb + 1, 2: fb): src[i*BeatWidth +: BeatWidth] and so on.
  logic [3*BeatWidth-1:0] src;
  logic [3*NbWidth-1:0]   s_nrun;
  logic [3*16-1:0]        s_pl;
  logic [2:0]             s_end, s_pz, s_fit_pl, s_fit_rm, s_rm_pl, s_cr_n, s_cr_pl, s_cr_rm;
  logic [1:0]             sel;
  logic [15:0]            room_c;   // room_q widened for the 16-bit compares below
  logic [2:0]             s_contig;
  logic [3*16-1:0]        s_k;
  logic [3*BeatWidth-1:0] s_next;   // sb + k
  logic [3*BlenWidth-1:0] s_blen;   // the burst length after the run
  logic [3*CredWidth-1:0] s_cred;   // credits after reserving the run
  logic [3*CredWidth-1:0] s_cred1;  // the same with a beat popped from the read buffer
  logic [CredWidth-1:0]   cred_inc; // cred_q + 1, beside the runs' subtractions
  assign cred_inc = cred_q + CredWidth'(1);
  logic [3*BlenWidth-1:0] s_room;   // the open burst's room after the run
  logic [3*NbWidth-1:0]   s_rn;     // a split row's beats left after the run
  logic [3*(PageWidth+1)-1:0] s_rp; // and its beats left in the page
  logic [3*NbWidth-1:0]   s_nr_in;
  logic [3*(PageWidth+1)-1:0] s_pl_in;
  assign src     = {fb, ag_fb1, rs_q};
  assign s_nr_in = {ag_nb, ag_nb1, rn_q};
  assign s_pl_in = {ag_pl, ag_pl1, rp_q};
  assign sel     = part_q ? 2'd0 : share ? 2'd1 : 2'd2;
  assign room_c  = 16'(room_q);
  for (genvar i = 0; i < 3; i++) begin : g_src
    logic [BeatWidth-1:0] sb;
    logic [NbWidth-1:0]   nr;
    logic [15:0]          pl, rm, k;
    logic [PageWidth-1:0] rpl;
    assign sb = src[i*BeatWidth +: BeatWidth];
    assign nr = s_nr_in[i*NbWidth +: NbWidth];
    assign pl = 16'(s_pl_in[i*(PageWidth+1) +: PageWidth+1]);
    assign s_nrun[i*NbWidth +: NbWidth] = nr;
    assign s_pl[i*16 +: 16]             = pl;
    // A split row's next beat (rs_q) is always the open burst's end (both are set to
    // rstart + k16 together; asserted below), so source 0 needs no compare.
    assign s_end[i]    = (i == 0) ? 1'b1 : sb == bend_q;
    assign s_pz[i]     = pl != 16'(Beats4k);  // the start is not a page's first beat
    assign s_contig[i] = open_q && !eod_q && !brows_full && s_end[i] && s_pz[i] && room_q != '0;
    assign rm          = s_contig[i] ? room_c : 16'(MaxBurst);
    assign s_fit_pl[i] = 16'(nr) <= pl;
    assign s_fit_rm[i] = 16'(nr) <= rm;
    assign s_rm_pl[i]  = rm <= pl;
    assign s_cr_n[i]   = 16'(cred_q) >= 16'(nr);
    assign s_cr_pl[i]  = 16'(cred_q) >= pl;
    assign s_cr_rm[i]  = 16'(cred_q) >= rm;
    assign k = (s_fit_rm[i] && s_fit_pl[i]) ? 16'(nr) : s_rm_pl[i] ? rm : pl;
    assign s_k[i*16 +: 16]                    = k;
    assign s_next[i*BeatWidth +: BeatWidth]   = sb + BeatWidth'(k);
    assign s_blen[i*BlenWidth +: BlenWidth]   = s_contig[i] ? blen_q + BlenWidth'(k) : BlenWidth'(k);
    assign s_cred[i*CredWidth +: CredWidth]   = cred_q - CredWidth'(k);
    assign s_cred1[i*CredWidth +: CredWidth]  = cred_inc - CredWidth'(k);
    assign s_room[i*BlenWidth +: BlenWidth]   = s_contig[i] ? room_q - BlenWidth'(k)
                                                            : BlenWidth'(MaxBurst) - BlenWidth'(k);
    // A split row goes on at sb + k: nr - k beats left, and pl - k in the page, or a whole
    // page when the run took the rest of this one (pl - k is below Beats4k, so its low bits
    // are zero exactly then).
    assign s_rn[i*NbWidth +: NbWidth] = nr - NbWidth'(k);
    assign rpl = PageWidth'(pl - k);
    assign s_rp[i*(PageWidth+1) +: PageWidth+1] = {rpl == '0, rpl};
  end
  logic credit;
  assign contig   = s_contig[sel];
  assign complete = s_fit_rm[sel] && s_fit_pl[sel];
  assign credit   = s_cr_n[sel] || s_cr_pl[sel] || s_cr_rm[sel];

  // The late source select.  A case, not a slice at sel * width: Yosys makes a constant
  // multiply of the slice's offset, and for widths that are not powers of two it put one
  // on a DSP block in this path (7.5 ns).
  logic [BeatWidth-1:0] p_next;
  logic [BlenWidth-1:0] p_blen, p_room;
  logic [CredWidth-1:0] p_cred, p_cred1;
  logic [NbWidth-1:0]   p_rn;
  logic [PageWidth:0]   p_rp;
  always_comb begin
    unique case (sel)
      2'd0: begin
        k16 = s_k[0 +: 16];                 p_next = s_next[0 +: BeatWidth];
        p_blen = s_blen[0 +: BlenWidth];    p_room = s_room[0 +: BlenWidth];
        p_cred = s_cred[0 +: CredWidth];    p_cred1 = s_cred1[0 +: CredWidth];
        p_rn = s_rn[0 +: NbWidth];          p_rp = s_rp[0 +: PageWidth+1];
      end
      2'd1: begin
        k16 = s_k[16 +: 16];                p_next = s_next[BeatWidth +: BeatWidth];
        p_blen = s_blen[BlenWidth +: BlenWidth];  p_room = s_room[BlenWidth +: BlenWidth];
        p_cred = s_cred[CredWidth +: CredWidth];  p_cred1 = s_cred1[CredWidth +: CredWidth];
        p_rn = s_rn[NbWidth +: NbWidth];    p_rp = s_rp[PageWidth+1 +: PageWidth+1];
      end
      default: begin
        k16 = s_k[32 +: 16];                p_next = s_next[2*BeatWidth +: BeatWidth];
        p_blen = s_blen[2*BlenWidth +: BlenWidth];  p_room = s_room[2*BlenWidth +: BlenWidth];
        p_cred = s_cred[2*CredWidth +: CredWidth];  p_cred1 = s_cred1[2*CredWidth +: CredWidth];
        p_rn = s_rn[2*NbWidth +: NbWidth];  p_rp = s_rp[2*(PageWidth+1) +: PageWidth+1];
      end
    endcase
  end
  // The reference the per-source values are checked against (assertions below).
  always_comb begin
    room = contig ? room_c : 16'(MaxBurst);
    if (page_left < room) room = page_left;
    k16_ref = 16'(nrun) < room ? 16'(nrun) : room;
  end
  assign kill     = asm_abort && lastcnt_q == '0 && !part_q && !drop_q;

  always_comb begin
    ag_ready  = 1'b0;
    rq_push   = 1'b0;
    rqw_kind  = KindMem;
    rqw_code  = tpu_dma_pkg::StsOk;
    rqw_last  = ag_last;
    do_close  = 1'b0;
    open_new  = 1'b0;
    reserve   = '0;
    drop_d    = drop_q;
    part_d    = part_q;
    rs_d      = rs_q;
    rn_d      = rn_q;
    rp_d      = rp_q;
    lastb_v_d = lastb_v_q;
    lastb_d   = lastb_q;
    cmd_ok    = 1'b0;

    if (drop_q) begin
      // Swallow the rest of a failed descriptor (agen is told to cut it short).
      ag_ready = 1'b1;
      if (ag_valid && ag_last) drop_d = 1'b0;
    end else if (kill) begin
      // The assembler saw a bus error: end this descriptor here.
      if (!rq_full && (!open_q || !ar_full)) begin
        do_close  = open_q;
        rq_push   = 1'b1;
        rqw_kind  = KindMarker;
        rqw_last  = 1'b1;
        ag_ready  = 1'b1;
        drop_d    = !(ag_valid && ag_last);
        lastb_v_d = 1'b0;
      end
    end else if (ag_valid) begin
      if (ag_bad || (ag_inb && !prot_ok)) begin
        if (!rq_full && (!open_q || !ar_full)) begin
          do_close  = open_q;
          rq_push   = 1'b1;
          rqw_kind  = KindMarker;
          rqw_code  = ag_bad ? tpu_dma_pkg::StsBadDesc : tpu_dma_pkg::StsProtRead;
          rqw_last  = 1'b1;
          ag_ready  = 1'b1;
          drop_d    = !ag_last;
          lastb_v_d = 1'b0;
        end
      end else if (!ag_inb || (!part_q && nnew_zero)) begin
        // Pad row, or a row entirely inside the beat shared with the previous one.
        rqw_kind = ag_inb ? KindMem : KindPad;
        if (!rq_full) begin
          rq_push  = 1'b1;
          ag_ready = 1'b1;
          if (ag_last) lastb_v_d = 1'b0;
        end
        if (eod_q || rq_full || brows_full) do_close = open_q && !ar_full;
      end else begin
        cmd_ok = credit && (contig || !open_q || !ar_full) &&
                 (part_q || !rq_full);
        if (cmd_ok) begin
          if (!contig) begin
            do_close = open_q;
            open_new = 1'b1;
          end
          reserve = CredWidth'(k16);
          rq_push = !part_q;
          if (complete) begin
            ag_ready  = 1'b1;
            part_d    = 1'b0;
            lastb_v_d = !ag_last;
            lastb_d   = lb;
          end else begin
            part_d = 1'b1;
            rs_d   = p_next;  // rstart + k16
            rn_d   = p_rn;
            rp_d   = p_rp;
          end
        end else begin
          // Stalled on credits or queue space: let the open burst go.
          do_close = open_q && !ar_full;
        end
      end
    end else begin
      // Nothing to add: issue what has been collected.
      do_close = open_q && !ar_full;
    end
    // Whenever the builder cannot move, the open burst goes out: rows already
    // queued may be waiting for its data.
    if (!rq_push && !cmd_ok && open_q && !ar_full) do_close = 1'b1;
  end

  always_comb begin
    open_d   = open_q;
    bstart_d = bstart_q;
    bend_d   = bend_q;
    blen_d   = blen_q;
    room_d   = room_q;
    eod_d    = eod_q;
    if (do_close) begin
      open_d = 1'b0;
      eod_d  = 1'b0;
    end
    if (open_new) begin
      open_d   = 1'b1;
      bstart_d = rstart;
      eod_d    = 1'b0;
    end
    // A new burst is k16 long, a contiguous run adds k16 to the open one (s_blen), and
    // either ends at rstart + k16.
    if (cmd_ok) begin
      blen_d = p_blen;
      room_d = p_room;
      bend_d = p_next;
    end
    if (ag_valid && ag_ready && ag_last) eod_d = open_d;
  end

  always_comb begin
    brows_d = brows_q;
    if (open_new) brows_d = LcWidth'(1);
    else if (do_close) brows_d = '0;
    else if (rq_push && open_q) brows_d = brows_q + 1'b1;
  end

  // brows_full in a register, its compares made on brows_q's three possible next values
  // beside the handshake, so that a run's length does not wait for one (asserted below).
  always_comb begin
    brows_full_d = brows_full_q;
    if (open_new) brows_full_d = LcWidth'(1) >= LcWidth'(RowQueueDepth / 2);
    else if (do_close) brows_full_d = 1'b0;
    else if (rq_push && open_q) brows_full_d = LcWidth'(brows_q + 1'b1) >= LcWidth'(RowQueueDepth / 2);
  end

  assign ar_push  = do_close;
  assign ar_wdata = {bstart_q, 8'(blen_q) - 8'd1};

  assign rq_wdata = {rqw_kind, rqw_code, rqw_last, ag_addr[OffWidth-1:0], share, nnew, ag_addr,
                     ag_len0, ag_out0, ag_pad};

  always_comb begin
    lastcnt_d = lastcnt_q;
    if (rq_push && rqw_last) lastcnt_d = lastcnt_d + 1'b1;
    if (asm_fire_last) lastcnt_d = lastcnt_d - 1'b1;
  end

  // The credits after the cycle: the run's reservation and a beat popped by the assembler
  // are both worked out before the late selects (cmd_ok, df_pop) pick one.
  always_comb begin
    if (cmd_ok) cred_d = df_pop ? p_cred1 : p_cred;
    else        cred_d = df_pop ? cred_inc : cred_q;
  end

  tpu_dma_fifo #(
    .Width(RqWidth),
    .Depth(RowQueueDepth)
  ) u_rowq (
    .clk_i,
    .rst_ni,
    .push_i (rq_push),
    .data_i (rq_wdata),
    .full_o (rq_full),
    .pop_i  (rq_pop),
    .data_o (rq_rdata),
    .empty_o(rq_empty)
  );

  tpu_dma_fifo #(
    .Width(BeatWidth + 8),
    .Depth(2)
  ) u_arq (
    .clk_i,
    .rst_ni,
    .push_i (ar_push),
    .data_i (ar_wdata),
    .full_o (ar_full),
    .pop_i  (ar_pop),
    .data_o (ar_rdata),
    .empty_o(ar_empty)
  );

  assign m_axi_arvalid_o = !ar_empty;
  assign m_axi_arid_o    = IdWidth'(AxiId);
  assign m_axi_araddr_o  = {ar_rdata[BeatWidth+7:8], {OffWidth{1'b0}}};
  assign m_axi_arlen_o   = ar_rdata[7:0];
  assign ar_pop          = m_axi_arvalid_o && m_axi_arready_i;

  // -------------------------------------------------------- read buffer
  logic                 df_full, df_empty;
  logic [DataWidth:0]   df_rdata;
  logic [DataWidth-1:0] df_data;
  logic                 df_err;

  assign m_axi_rready_o = !df_full;

  tpu_dma_fifo #(
    .Width(DataWidth + 1),
    .Depth(ReadBufBeats)
  ) u_rbuf (
    .clk_i,
    .rst_ni,
    .push_i (m_axi_rvalid_i && !df_full),
    .data_i ({m_axi_rresp_i != 2'b00, m_axi_rdata_i}),
    .full_o (df_full),
    .pop_i  (df_pop),
    .data_o (df_rdata),
    .empty_o(df_empty)
  );

  assign df_err  = df_rdata[DataWidth];
  assign df_data = df_rdata[DataWidth-1:0];

  // ---------------------------------------------------------- assembler
  logic [1:0]           h_kind;
  logic [StsWidth-1:0]  h_code;
  logic                 h_last;
  logic [OffWidth-1:0]  h_off;
  logic                 h_share;
  logic [NbWidth-1:0]   h_nnew;
  logic [AddrWidth-1:0] h_addr;
  logic [LenWidth-1:0]  h_len0, h_out0;
  logic [7:0]           h_pad;

  assign {h_kind, h_code, h_last, h_off, h_share, h_nnew, h_addr, h_len0, h_out0, h_pad} = rq_rdata;

  logic [NbWidth-1:0]   g_q, g_d;           // new beats gathered for the head row
  logic [WinWidth-1:0]  win_q;
  logic [MaxBeats-1:0]  werr_q, werr_d;
  logic [DataWidth-1:0] hold_q;            // last beat of the previous memory row
  logic                 hold_err_q, hold_err_d;
  logic [StsWidth-1:0]  err_q, err_d;       // first error of the current descriptor
  logic [AddrWidth-1:0] eaddr_q, eaddr_d;
  // Output row register and the status that goes with its last beat
  logic                  ov_q, ov_d;
  logic [RowBytes*8-1:0] odata_q;
  logic                  olast_q, olast_d;
  logic                  oerr_q, oerr_d;
  logic [StsWidth-1:0]   pcode_q, pcode_d;
  logic [AddrWidth-1:0]  paddr_q, paddr_d;
  // Status register
  logic                  sv_q, sv_d;
  logic [StsWidth-1:0]   scode_q, scode_d;
  logic [AddrWidth-1:0]  saddr_q, saddr_d;

  logic [NbWidth-1:0]    need, gidx;
  logic [MaxBeats-1:0]   wv_err;
  logic                  beat_err;
  logic [NbWidth-1:0]    err_beat;
  logic [AddrWidth-1:0]  err_addr;
  logic                  can_done, gather, fire, needs_out, out_hs, out_free;
  logic [StsWidth-1:0]   new_err;
  logic [AddrWidth-1:0]  new_eaddr;
  logic                  hold_we, odata_we;

  assign need = h_nnew - g_q;
  assign gidx = g_q + NbWidth'(h_share);

  // The error flags of the head row's beats: the shared beat, the ones gathered so far and
  // the one at the head of the read buffer (wide_regs below takes their data the same way).
  always_comb begin
    for (int k = 0; k < MaxBeats; k++) begin
      if (h_share && k == 0) wv_err[k] = hold_err_q;
      else if (NbWidth'(k) == gidx) wv_err[k] = df_err;
      else wv_err[k] = werr_q[k];
    end
  end

  // Lowest beat of the row with an error response.
  always_comb begin
    beat_err = 1'b0;
    err_beat = '0;
    for (int k = MaxBeats - 1; k >= 0; k--) begin
      if (wv_err[k] && NbWidth'(k) < h_nnew + NbWidth'(h_share)) begin
        beat_err = 1'b1;
        err_beat = NbWidth'(k);
      end
    end
  end
  assign err_addr = {h_addr[AddrWidth-1:OffWidth] + BeatWidth'(err_beat), {OffWidth{1'b0}}};


  assign m_row_valid_o = ov_q && !(olast_q && sv_q);
  assign out_hs        = m_row_valid_o && m_row_ready_i;
  assign out_free      = !ov_q || out_hs;

  always_comb begin
    can_done = 1'b0;
    gather   = 1'b0;
    if (!rq_empty) begin
      if (h_kind != KindMem || need == '0) can_done = 1'b1;
      else if (!df_empty) begin
        if (need == NbWidth'(1)) can_done = 1'b1;
        else gather = 1'b1;
      end
    end
  end

  always_comb begin
    new_err   = err_q;
    new_eaddr = eaddr_q;
    if (err_q == tpu_dma_pkg::StsOk) begin
      if (h_kind == KindMarker) begin
        new_err   = h_code;
        new_eaddr = h_addr;
      end else if (h_kind == KindMem && beat_err) begin
        new_err   = tpu_dma_pkg::StsBusError;
        new_eaddr = err_addr;
      end
    end
  end

  // A row needs the output register unless it is not a descriptor's last and an error
  // has cut its descriptor short.  fire waits for the register on a row whose own beats
  // hold the error too (needs_wait, without the beat's error flag: the read buffer's data
  // stays off the pop's path); such a row then writes nothing (odata_we).
  logic needs_wait;
  assign needs_out     = h_last || new_err == tpu_dma_pkg::StsOk;
  assign needs_wait    = h_last || (err_q == tpu_dma_pkg::StsOk &&
                                    !(h_kind == KindMarker && h_code != tpu_dma_pkg::StsOk));
  assign fire          = can_done && (!needs_wait || out_free);
  assign rq_pop        = fire;
  assign df_pop        = gather || (fire && h_kind == KindMem && need != '0);
  assign asm_fire_last = fire && h_last;
  assign asm_abort     = err_q != tpu_dma_pkg::StsOk;

  always_comb begin
    g_d        = g_q;
    werr_d     = werr_q;
    hold_err_d = hold_err_q;
    err_d      = err_q;
    eaddr_d    = eaddr_q;
    ov_d       = ov_q && !out_hs;
    olast_d    = olast_q;
    oerr_d     = oerr_q;
    pcode_d    = pcode_q;
    paddr_d    = paddr_q;
    sv_d       = sv_q && !sts_ready_i;
    scode_d    = scode_q;
    saddr_d    = saddr_q;

    if (gather) begin
      for (int k = 0; k < MaxBeats; k++) begin
        if (gidx == NbWidth'(k)) werr_d[k] = df_err;
      end
      g_d = g_q + NbWidth'(1);
    end

    if (fire) begin
      g_d = '0;
      if (h_kind == KindMem && need != '0) hold_err_d = df_err;
      if (h_last) begin
        ov_d    = 1'b1;
        olast_d = 1'b1;
        oerr_d  = new_err != tpu_dma_pkg::StsOk;
        pcode_d = new_err;
        paddr_d = new_err != tpu_dma_pkg::StsOk ? new_eaddr : '0;
        err_d   = tpu_dma_pkg::StsOk;
        eaddr_d = '0;
      end else if (new_err == tpu_dma_pkg::StsOk) begin
        ov_d    = 1'b1;
        olast_d = 1'b0;
        oerr_d  = 1'b0;
      end else begin
        err_d   = new_err;
        eaddr_d = new_eaddr;
      end
    end

    if (out_hs && olast_q) begin
      sv_d    = 1'b1;
      scode_d = pcode_q;
      saddr_d = paddr_q;
    end
  end

  // The wide data registers (the gathered beats, the held beat, the output row) are written
  // with enables here rather than through next-state copies in the block above, and the
  // row is cut only where the output register takes it: the wide shifts are not evaluated
  // in the other cycles of the simulation.
  // The output row: the head row cut out of its beats (the shared beat, the ones gathered
  // so far and the one at the head of the read buffer) and padded, bytes [0, len0) from
  // memory, [len0, out0) the pad value, the rest zero (whole-vector masks rather than a
  // per-byte loop keep the simulation fast at large RowBytes); zero for the last row of a
  // descriptor that failed.
  assign hold_we  = fire && h_kind == KindMem && need != '0;
  assign odata_we = fire && needs_out;
  always_ff @(posedge clk_i) begin : wide_regs
    logic [WinWidth-1:0]   wv;
    logic [RowBytes*8-1:0] data_mask, out_mask;
    logic [LenWidth-1:0]   data_len;
    for (int k = 0; k < MaxBeats; k++) begin
      if (gather && gidx == NbWidth'(k)) win_q[k*DataWidth +: DataWidth] <= df_data;
    end
    if (hold_we) hold_q <= df_data;
    if (odata_we) begin
      for (int k = 0; k < MaxBeats; k++) begin
        if (h_share && k == 0) wv[k*DataWidth +: DataWidth] = hold_q;
        else if (NbWidth'(k) == gidx) wv[k*DataWidth +: DataWidth] = df_data;
        else wv[k*DataWidth +: DataWidth] = win_q[k*DataWidth +: DataWidth];
      end
      data_len  = h_kind == KindMem ? h_len0 : '0;
      data_mask = ~({(RowBytes*8){1'b1}} << {data_len, 3'b000});
      out_mask  = ~({(RowBytes*8){1'b1}} << {h_out0, 3'b000});
      odata_q <= new_err != tpu_dma_pkg::StsOk ? '0
               : ((RowBytes*8)'(wv >> {h_off, 3'b000}) & data_mask) |
                 ({RowBytes{h_pad}} & out_mask & ~data_mask);
    end
  end

  assign m_row_data_o = odata_q;
  assign m_row_last_o = olast_q;
  assign m_row_err_o  = oerr_q;
  assign sts_valid_o  = sv_q;
  assign sts_code_o   = scode_q;
  assign sts_addr_o   = saddr_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      drop_q    <= 1'b0;
      open_q    <= 1'b0;
      eod_q     <= 1'b0;
      brows_full_q <= 1'b0;
      part_q    <= 1'b0;
      lastb_v_q <= 1'b0;
      cred_q    <= CredWidth'(ReadBufBeats);
      lastcnt_q <= '0;
      brows_q   <= '0;
      g_q       <= '0;
      err_q     <= tpu_dma_pkg::StsOk;
      ov_q      <= 1'b0;
      sv_q      <= 1'b0;
    end else begin
      drop_q    <= drop_d;
      open_q    <= open_d;
      eod_q     <= eod_d;
      brows_full_q <= brows_full_d;
      part_q    <= part_d;
      lastb_v_q <= lastb_v_d;
      cred_q    <= cred_d;
      lastcnt_q <= lastcnt_d;
      brows_q   <= brows_d;
      g_q       <= g_d;
      err_q     <= err_d;
      ov_q      <= ov_d;
      sv_q      <= sv_d;
    end
  end

  always_ff @(posedge clk_i) begin
    bstart_q   <= bstart_d;
    bend_q     <= bend_d;
    blen_q     <= blen_d;
    room_q     <= room_d;
    rs_q       <= rs_d;
    rn_q       <= rn_d;
    rp_q       <= rp_d;
    lastb_q    <= lastb_d;
    werr_q     <= werr_d;
    hold_err_q <= hold_err_d;
    eaddr_q    <= eaddr_d;
    olast_q    <= olast_d;
    oerr_q     <= oerr_d;
    pcode_q    <= pcode_d;
    paddr_q    <= paddr_d;
    scode_q    <= scode_d;
    saddr_q    <= saddr_d;
  end

  // rlast is not needed: the builder knows every burst's length.
  logic unused_rlast;
  assign unused_rlast = m_axi_rlast_i;

  // Assertions
`ifndef SYNTHESIS
  initial begin
    assert (DataWidth >= 32 && DataWidth <= 4096 && (1 << OffWidth) == DataBytes)
      else $error("tpu_dma_rd: DataWidth %0d must be a power of two in 32..4096", DataWidth);
    assert (MaxBurst >= 1 && MaxBurst <= 256)
      else $error("tpu_dma_rd: MaxBurst %0d outside 1..256", MaxBurst);
    assert (ReadBufBeats >= MaxBurst)
      else $error("tpu_dma_rd: ReadBufBeats %0d < MaxBurst %0d", ReadBufBeats, MaxBurst);
    assert (AddrWidth > OffWidth + PageWidth && AddrWidth <= 64)
      else $error("tpu_dma_rd: AddrWidth %0d too small", AddrWidth);
  end
  // Immediate assertions in a clocked block, not properties (docs/verification.md).
  logic ar_stall_q;
  logic [AddrWidth-1:0] araddr_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) ar_stall_q <= 1'b0;
    else ar_stall_q <= m_axi_arvalid_o && !m_axi_arready_i;
  end
  always_ff @(posedge clk_i) begin : checks
    araddr_q <= m_axi_araddr_o;
    if (rst_ni) begin
      // Credits guarantee room for every beat requested.
      if (m_axi_rvalid_i) begin
        assert (!df_full) else $error("tpu_dma_rd: R beat with a full read buffer");
        assert (m_axi_rid_i == IdWidth'(AxiId)) else $error("tpu_dma_rd: R beat with a foreign ID");
      end
      assert (16'(cred_q) >= 16'(reserve)) else $error("tpu_dma_rd: credit underflow");
      assert (cred_d == cred_q - reserve + CredWidth'(df_pop)) else $error("tpu_dma_rd: credit update");
      assert (cred_q <= CredWidth'(ReadBufBeats)) else $error("tpu_dma_rd: credit overflow");
      if (part_q) begin
        assert (rs_q == bend_q) else $error("tpu_dma_rd: split row at %0h, open burst ends at %0h", rs_q, bend_q);
        assert (rn_q == NbWidth'(lb - rs_q) + NbWidth'(1) &&
                16'(rp_q) == 16'(Beats4k) - 16'(rs_q[PageWidth-1:0]))
          else $error("tpu_dma_rd: split row at %0h: %0d beats left, %0d in its page", rs_q, rn_q, rp_q);
      end
      if (!rq_empty)
        assert (!needs_out || needs_wait) else $error("tpu_dma_rd: a row needs the output unasked");
      if (ag_valid && ag_inb && !ag_bad)
        assert (nnew_zero == (nnew == '0))
          else $error("tpu_dma_rd: nnew %0d, nnew_zero %0d", nnew, nnew_zero);
      assert (!(asm_fire_last && lastcnt_q == '0))
        else $error("tpu_dma_rd: descriptor end without its marker");
      assert (brows_full_q == (brows_q >= LcWidth'(RowQueueDepth / 2)))
        else $error("tpu_dma_rd: registered brows_full %0d, %0d rows", brows_full_q, brows_q);
      if (open_q) begin
        assert (blen_q != '0 && blen_q <= BlenWidth'(MaxBurst))
          else $error("tpu_dma_rd: bad open burst length");
        assert (room_q == BlenWidth'(MaxBurst) - blen_q)
          else $error("tpu_dma_rd: room register %0d, burst length %0d", room_q, blen_q);
        // A burst never crosses a 4 KB page.
        assert (13'(bstart_q[PageWidth-1:0]) + 13'(blen_q) <= 13'(Beats4k))
          else $error("tpu_dma_rd: burst crosses 4 KB");
        assert (bend_q == bstart_q + BeatWidth'(blen_q))
          else $error("tpu_dma_rd: burst end register %0h, start %0h + %0d", bend_q, bstart_q, blen_q);
      end
      if (ag_valid && !ag_bad) begin
        assert (nnew == NbWidth'(lb - fb) + NbWidth'(1) - NbWidth'(share))
          else $error("tpu_dma_rd: row of %0d new beats, agen's span %0d", nnew, ag_nb);
        assert (k16 == k16_ref && complete == (k16 == 16'(nrun)) && credit == (16'(cred_q) >= k16) &&
                src[32'(sel)*BeatWidth +: BeatWidth] == rstart &&
                s_nrun[32'(sel)*NbWidth +: NbWidth] == nrun && s_pl[32'(sel)*16 +: 16] == page_left)
          else $error("tpu_dma_rd: builder compares disagree with k16 %0d (nrun %0d)", k16, nrun);
      end
      if (ar_stall_q) begin
        assert (m_axi_arvalid_o && m_axi_araddr_o == araddr_q)
          else $error("tpu_dma_rd: AR changed while stalled");
      end
    end
  end
`endif

endmodule
