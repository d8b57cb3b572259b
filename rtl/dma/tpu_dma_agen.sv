// SPDX-License-Identifier: Apache-2.0
// tpu_dma_agen: walks a DMA descriptor and emits one row (address, in-bounds flag) per cycle.
`default_nettype none

// Two stages so that the setup of the next descriptor overlaps the rows of
// the current one:
//   setup    validates the descriptor and computes, with a shift-add
//            multiplier (16 cycles, no DSP blocks), the address of the first
//            row base + start1*stride1 + start2*stride2 and the address steps
//            step1*stride1 and step2*stride2 (all modulo 2^AddrWidth);
//   iterate  walks dim2 (outer) and dim1 (inner) with adders only, one row
//            per cycle, into a registered output.
// A descriptor that fails validation yields exactly one row with bad = 1 and
// last = 1 (its address is the descriptor's base address).
module tpu_dma_agen #(
  parameter int unsigned AddrWidth = 32,  // byte address bits
  parameter int unsigned RowBytes  = 64,  // largest stream row, bytes
  parameter int unsigned BeatOff   = 5,   // log2 of the engine's beat bytes (row_fb1_o, row_lb_o)
  localparam int unsigned LenWidth = $clog2(RowBytes + 1),
  localparam int unsigned BeatWidth = AddrWidth - BeatOff,
  // Beats a row can span (tpu_dma_rd's NbWidth) and a 4 KB page's beats (PageWidth + 1 bits
  // hold 1..Beats4k)
  localparam int unsigned MaxBeats  = ((1 << BeatOff) - 1 + RowBytes + (1 << BeatOff) - 1) >> BeatOff,
  localparam int unsigned NbWidth   = $clog2(MaxBeats + 1),
  localparam int unsigned PageWidth = 12 - BeatOff
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  // Descriptor in
  input  logic                 desc_valid_i,
  output logic                 desc_ready_o,
  input  logic [AddrWidth-1:0] desc_addr_i,
  input  logic [15:0]          desc_len0_i,
  input  logic [15:0]          desc_out0_i,
  input  logic [7:0]           desc_pad_i,
  input  logic [15:0]          desc_count1_i,
  input  logic [15:0]          desc_start1_i,   // signed
  input  logic [15:0]          desc_step1_i,    // signed
  input  logic [15:0]          desc_bound1_i,
  input  logic [AddrWidth-1:0] desc_stride1_i,  // signed
  input  logic [15:0]          desc_count2_i,
  input  logic [15:0]          desc_start2_i,   // signed
  input  logic [15:0]          desc_step2_i,    // signed
  input  logic [15:0]          desc_bound2_i,
  input  logic [AddrWidth-1:0] desc_stride2_i,  // signed
  // End the descriptor being walked early: the next row emitted is its last.
  // Ignored while the output holds a last row.
  input  logic                 abort_i,
  // Rows out
  output logic                 row_valid_o,
  input  logic                 row_ready_i,
  output logic [AddrWidth-1:0] row_addr_o,
  output logic [LenWidth-1:0]  row_len0_o,
  output logic [LenWidth-1:0]  row_out0_o,
  output logic [7:0]           row_pad_o,
  output logic                 row_inb_o,   // both coordinates inside their bounds
  output logic                 row_bad_o,   // the descriptor failed validation
  output logic                 row_last_o,  // last row of the descriptor
  // The row's first beat + 1 and last beat (address >> BeatOff), registered with the row
  // so that the engines need no adder on them (timing, docs/dma.md)
  output logic [BeatWidth-1:0] row_fb1_o,
  output logic [BeatWidth-1:0] row_lb_o,
  // The beats from the row's first and from its second beat to its last (lb - fb + 1 and
  // lb - fb; for rows of a valid descriptor), and the beats left in the 4 KB page from its
  // first and from its second beat (1..4096 >> BeatOff), registered the same way
  output logic [NbWidth-1:0]   row_nb_o,
  output logic [NbWidth-1:0]   row_nb1_o,
  output logic [PageWidth:0]   row_pl_o,
  output logic [PageWidth:0]   row_pl1_o
);

  localparam logic [1:0] SpIdle  = 2'd0;
  localparam logic [1:0] SpMul   = 2'd1;
  localparam logic [1:0] SpReady = 2'd2;

  // ---------------------------------------------------------------- setup
  logic [1:0]           sp_state_q, sp_state_d;
  logic [3:0]           sp_cnt_q, sp_cnt_d;
  logic                 sp_bad_q, sp_bad_d;
  logic [AddrWidth-1:0] sp_addr_q, sp_addr_d;
  logic [AddrWidth-1:0] sp_d1_q, sp_d1_d;
  logic [AddrWidth-1:0] sp_d2_q, sp_d2_d;
  logic [AddrWidth-1:0] sp_s1_q, sp_s1_d;
  logic [AddrWidth-1:0] sp_s2_q, sp_s2_d;
  logic [LenWidth-1:0]  sp_len0_q, sp_len0_d;
  logic [LenWidth-1:0]  sp_out0_q, sp_out0_d;
  logic [7:0]           sp_pad_q, sp_pad_d;
  logic [15:0]          sp_count1_q, sp_count1_d;
  logic [15:0]          sp_count2_q, sp_count2_d;
  logic [15:0]          sp_start1_q, sp_start1_d;
  logic [15:0]          sp_start2_q, sp_start2_d;
  logic [15:0]          sp_step1_q, sp_step1_d;
  logic [15:0]          sp_step2_q, sp_step2_d;
  logic [15:0]          sp_bound1_q, sp_bound1_d;
  logic [15:0]          sp_bound2_q, sp_bound2_d;

  // ------------------------------------------------------------- iterator
  logic                 it_active_q, it_active_d;
  logic                 it_bad_q, it_bad_d;
  logic [31:0]          it_c1_q, it_c1_d;  // signed coordinates
  logic [31:0]          it_c2_q, it_c2_d;
  logic [15:0]          it_i1_q, it_i1_d;  // loop counters
  logic [15:0]          it_i2_q, it_i2_d;
  logic [AddrWidth-1:0] it_addr1_q, it_addr1_d;  // address of the current row
  logic [AddrWidth-1:0] it_addr2_q, it_addr2_d;  // address of the current dim2 line
  logic [AddrWidth-1:0] it_d1_q, it_d1_d;
  logic [AddrWidth-1:0] it_d2_q, it_d2_d;
  logic [15:0]          it_start1_q, it_start1_d;
  logic [15:0]          it_step1_q, it_step1_d;
  logic [15:0]          it_step2_q, it_step2_d;
  logic [15:0]          it_count1_q, it_count1_d;
  logic [15:0]          it_count2_q, it_count2_d;
  logic [15:0]          it_bound1_q, it_bound1_d;
  logic [15:0]          it_bound2_q, it_bound2_d;
  logic [LenWidth-1:0]  it_len0_q, it_len0_d;
  logic [LenWidth-1:0]  it_out0_q, it_out0_d;
  logic [7:0]           it_pad_q, it_pad_d;

  // --------------------------------------------------------------- output
  // A row record: {addr, len0, out0, pad, inb, bad, last, fb1, lb, nb, nb1, pl, pl1}.  The
  // output register (out_*) and a skid register behind it (sk_*) hold one each, so that the
  // iterator produces whenever the skid register is empty: its enables are registers, not
  // the consumer's row_ready_i (timing: the read builder's handshake, docs/dma.md).
  localparam int unsigned RowW = AddrWidth + 2 * LenWidth + 8 + 3 + 2 * BeatWidth +
                                 2 * NbWidth + 2 * (PageWidth + 1);
  logic [RowW-1:0]      it_row, out_q, out_d, sk_q, sk_d;
  logic                 out_valid_q, out_valid_d, sk_valid_q, sk_valid_d;
  logic [AddrWidth-1:0] out_addr_q;
  logic [LenWidth-1:0]  out_len0_q, out_out0_q;
  logic [7:0]           out_pad_q;
  logic                 out_inb_q, out_bad_q, out_last_q, sk_last_q;
  logic [BeatWidth-1:0] out_fb1_q, out_lb_q;
  logic [NbWidth-1:0]   out_nb_q, out_nb1_q;
  logic [PageWidth:0]   out_pl_q, out_pl1_q;
  assign {out_addr_q, out_len0_q, out_out0_q, out_pad_q, out_inb_q, out_bad_q, out_last_q,
          out_fb1_q, out_lb_q, out_nb_q, out_nb1_q, out_pl_q, out_pl1_q} = out_q;
  localparam int unsigned LastBit = 2 * BeatWidth + 2 * NbWidth + 2 * (PageWidth + 1);
  assign sk_last_q = sk_q[LastBit];
  // lb - fb depends only on the address's offset in its beat and the length
  localparam int unsigned SpanWidth = (BeatOff > LenWidth ? BeatOff : LenWidth) + 1;
  logic [SpanWidth-1:0] span;
  assign span = SpanWidth'(it_addr1_q[BeatOff-1:0]) + SpanWidth'(it_len0_q) - SpanWidth'(1);

  logic desc_bad;
  logic mul_neg;
  logic [AddrWidth-1:0] t_s1, t_s2, t_t1, t_t2;
  logic out_free, produce, row_last, abort_eff, load;
  logic inb1, inb2;

  // Validation: the checks listed in docs/dma.md ("Descriptor").
  assign desc_bad = desc_len0_i == 16'd0 || desc_len0_i > desc_out0_i ||
                    desc_out0_i > 16'(RowBytes) ||
                    desc_count1_i == 16'd0 || desc_count2_i == 16'd0;

  // Shift-add multiplier terms: bit i of each signed 16-bit factor selects the
  // stride shifted left by i; bit 15 carries weight -2^15.
  assign mul_neg = sp_cnt_q == 4'd15;
  assign t_s1 = sp_start1_q[sp_cnt_q] ? (mul_neg ? -sp_s1_q : sp_s1_q) : '0;
  assign t_s2 = sp_start2_q[sp_cnt_q] ? (mul_neg ? -sp_s2_q : sp_s2_q) : '0;
  assign t_t1 = sp_step1_q[sp_cnt_q] ? (mul_neg ? -sp_s1_q : sp_s1_q) : '0;
  assign t_t2 = sp_step2_q[sp_cnt_q] ? (mul_neg ? -sp_s2_q : sp_s2_q) : '0;

  assign desc_ready_o = sp_state_q == SpIdle;

  always_comb begin
    sp_state_d  = sp_state_q;
    sp_cnt_d    = sp_cnt_q;
    sp_bad_d    = sp_bad_q;
    sp_addr_d   = sp_addr_q;
    sp_d1_d     = sp_d1_q;
    sp_d2_d     = sp_d2_q;
    sp_s1_d     = sp_s1_q;
    sp_s2_d     = sp_s2_q;
    sp_len0_d   = sp_len0_q;
    sp_out0_d   = sp_out0_q;
    sp_pad_d    = sp_pad_q;
    sp_count1_d = sp_count1_q;
    sp_count2_d = sp_count2_q;
    sp_start1_d = sp_start1_q;
    sp_start2_d = sp_start2_q;
    sp_step1_d  = sp_step1_q;
    sp_step2_d  = sp_step2_q;
    sp_bound1_d = sp_bound1_q;
    sp_bound2_d = sp_bound2_q;
    case (sp_state_q)
      SpIdle: begin
        if (desc_valid_i) begin
          sp_state_d  = desc_bad ? SpReady : SpMul;
          sp_cnt_d    = 4'd0;
          sp_bad_d    = desc_bad;
          sp_addr_d   = desc_addr_i;
          sp_d1_d     = '0;
          sp_d2_d     = '0;
          sp_s1_d     = desc_stride1_i;
          sp_s2_d     = desc_stride2_i;
          sp_len0_d   = desc_len0_i[LenWidth-1:0];
          sp_out0_d   = desc_out0_i[LenWidth-1:0];
          sp_pad_d    = desc_pad_i;
          sp_count1_d = desc_count1_i;
          sp_count2_d = desc_count2_i;
          sp_start1_d = desc_start1_i;
          sp_start2_d = desc_start2_i;
          sp_step1_d  = desc_step1_i;
          sp_step2_d  = desc_step2_i;
          sp_bound1_d = desc_bound1_i;
          sp_bound2_d = desc_bound2_i;
        end
      end
      SpMul: begin
        sp_addr_d = sp_addr_q + t_s1 + t_s2;
        sp_d1_d   = sp_d1_q + t_t1;
        sp_d2_d   = sp_d2_q + t_t2;
        sp_s1_d   = sp_s1_q << 1;
        sp_s2_d   = sp_s2_q << 1;
        sp_cnt_d  = sp_cnt_q + 4'd1;
        if (sp_cnt_q == 4'd15) sp_state_d = SpReady;
      end
      default: begin
        if (load) sp_state_d = SpIdle;
      end
    endcase
  end

  // ------------------------------------------------------------- iterate
  assign out_free  = !out_valid_q || row_ready_i;
  assign produce   = it_active_q && !sk_valid_q;
  // A last row in either register belongs to the descriptor being aborted: the iterator
  // may already walk the next one.
  assign abort_eff = abort_i && !(out_valid_q && out_last_q) && !(sk_valid_q && sk_last_q);
  assign row_last  = it_bad_q || abort_eff ||
                     (it_i1_q == it_count1_q - 16'd1 && it_i2_q == it_count2_q - 16'd1);
  assign load      = sp_state_q == SpReady && (!it_active_q || (produce && row_last));
  assign inb1      = !it_c1_q[31] && it_c1_q < {16'd0, it_bound1_q};
  assign inb2      = !it_c2_q[31] && it_c2_q < {16'd0, it_bound2_q};

  always_comb begin
    it_active_d = it_active_q;
    it_bad_d    = it_bad_q;
    it_c1_d     = it_c1_q;
    it_c2_d     = it_c2_q;
    it_i1_d     = it_i1_q;
    it_i2_d     = it_i2_q;
    it_addr1_d  = it_addr1_q;
    it_addr2_d  = it_addr2_q;
    it_d1_d     = it_d1_q;
    it_d2_d     = it_d2_q;
    it_start1_d = it_start1_q;
    it_step1_d  = it_step1_q;
    it_step2_d  = it_step2_q;
    it_count1_d = it_count1_q;
    it_count2_d = it_count2_q;
    it_bound1_d = it_bound1_q;
    it_bound2_d = it_bound2_q;
    it_len0_d   = it_len0_q;
    it_out0_d   = it_out0_q;
    it_pad_d    = it_pad_q;

    if (produce) begin
      if (row_last) begin
        it_active_d = 1'b0;
      end else if (it_i1_q == it_count1_q - 16'd1) begin
        it_i1_d    = 16'd0;
        it_c1_d    = {{16{it_start1_q[15]}}, it_start1_q};
        it_i2_d    = it_i2_q + 16'd1;
        it_c2_d    = it_c2_q + {{16{it_step2_q[15]}}, it_step2_q};
        it_addr2_d = it_addr2_q + it_d2_q;
        it_addr1_d = it_addr2_q + it_d2_q;
      end else begin
        it_i1_d    = it_i1_q + 16'd1;
        it_c1_d    = it_c1_q + {{16{it_step1_q[15]}}, it_step1_q};
        it_addr1_d = it_addr1_q + it_d1_q;
      end
    end

    if (load) begin
      it_active_d = 1'b1;
      it_bad_d    = sp_bad_q;
      it_c1_d     = {{16{sp_start1_q[15]}}, sp_start1_q};
      it_c2_d     = {{16{sp_start2_q[15]}}, sp_start2_q};
      it_i1_d     = 16'd0;
      it_i2_d     = 16'd0;
      it_addr1_d  = sp_addr_q;
      it_addr2_d  = sp_addr_q;
      it_d1_d     = sp_d1_q;
      it_d2_d     = sp_d2_q;
      it_start1_d = sp_start1_q;
      it_step1_d  = sp_step1_q;
      it_step2_d  = sp_step2_q;
      it_count1_d = sp_count1_q;
      it_count2_d = sp_count2_q;
      it_bound1_d = sp_bound1_q;
      it_bound2_d = sp_bound2_q;
      it_len0_d   = sp_len0_q;
      it_out0_d   = sp_out0_q;
      it_pad_d    = sp_pad_q;
    end
  end

  // The row the iterator produces
  assign it_row = {it_addr1_q, it_len0_q, it_out0_q, it_pad_q, inb1 && inb2 && !it_bad_q,
                   it_bad_q, row_last,
                   it_addr1_q[AddrWidth-1:BeatOff] + BeatWidth'(1),
                   BeatWidth'((it_addr1_q + AddrWidth'(it_len0_q) - 1'b1) >> BeatOff),
                   NbWidth'(span >> BeatOff) + NbWidth'(1),
                   NbWidth'(span >> BeatOff),
                   (PageWidth + 1)'(1 << PageWidth) -
                   (PageWidth + 1)'(it_addr1_q[BeatOff +: PageWidth]),
                   (PageWidth + 1)'(1 << PageWidth) -
                   (PageWidth + 1)'(PageWidth'(it_addr1_q[BeatOff +: PageWidth] + PageWidth'(1)))};

  // The output takes the skid register's row, else the iterator's; a row produced while
  // the output is held waits in the skid register (produce needs it empty).
  always_comb begin
    out_d       = out_q;
    out_valid_d = out_valid_q;
    sk_d        = sk_q;
    sk_valid_d  = sk_valid_q;
    if (out_free) begin
      out_valid_d = sk_valid_q || produce;
      out_d       = sk_valid_q ? sk_q : it_row;
      sk_valid_d  = 1'b0;
    end else if (produce) begin
      sk_d       = it_row;
      sk_valid_d = 1'b1;
    end
  end

  assign row_valid_o = out_valid_q;
  assign row_addr_o  = out_addr_q;
  assign row_len0_o  = out_len0_q;
  assign row_out0_o  = out_out0_q;
  assign row_pad_o   = out_pad_q;
  assign row_inb_o   = out_inb_q;
  assign row_bad_o   = out_bad_q;
  assign row_last_o  = out_last_q;
  assign row_fb1_o   = out_fb1_q;
  assign row_lb_o    = out_lb_q;
  assign row_nb_o    = out_nb_q;
  assign row_nb1_o   = out_nb1_q;
  assign row_pl_o    = out_pl_q;
  assign row_pl1_o   = out_pl1_q;

  // Control state is reset; the datapath registers need not be.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      sp_state_q  <= SpIdle;
      it_active_q <= 1'b0;
      out_valid_q <= 1'b0;
      sk_valid_q  <= 1'b0;
    end else begin
      sp_state_q  <= sp_state_d;
      it_active_q <= it_active_d;
      out_valid_q <= out_valid_d;
      sk_valid_q  <= sk_valid_d;
    end
  end

  always_ff @(posedge clk_i) begin
    sp_cnt_q    <= sp_cnt_d;
    sp_bad_q    <= sp_bad_d;
    sp_addr_q   <= sp_addr_d;
    sp_d1_q     <= sp_d1_d;
    sp_d2_q     <= sp_d2_d;
    sp_s1_q     <= sp_s1_d;
    sp_s2_q     <= sp_s2_d;
    sp_len0_q   <= sp_len0_d;
    sp_out0_q   <= sp_out0_d;
    sp_pad_q    <= sp_pad_d;
    sp_count1_q <= sp_count1_d;
    sp_count2_q <= sp_count2_d;
    sp_start1_q <= sp_start1_d;
    sp_start2_q <= sp_start2_d;
    sp_step1_q  <= sp_step1_d;
    sp_step2_q  <= sp_step2_d;
    sp_bound1_q <= sp_bound1_d;
    sp_bound2_q <= sp_bound2_d;
    it_bad_q    <= it_bad_d;
    it_c1_q     <= it_c1_d;
    it_c2_q     <= it_c2_d;
    it_i1_q     <= it_i1_d;
    it_i2_q     <= it_i2_d;
    it_addr1_q  <= it_addr1_d;
    it_addr2_q  <= it_addr2_d;
    it_d1_q     <= it_d1_d;
    it_d2_q     <= it_d2_d;
    it_start1_q <= it_start1_d;
    it_step1_q  <= it_step1_d;
    it_step2_q  <= it_step2_d;
    it_count1_q <= it_count1_d;
    it_count2_q <= it_count2_d;
    it_bound1_q <= it_bound1_d;
    it_bound2_q <= it_bound2_d;
    it_len0_q   <= it_len0_d;
    it_out0_q   <= it_out0_d;
    it_pad_q    <= it_pad_d;
    out_q       <= out_d;
    sk_q        <= sk_d;
  end

  // Assertions
`ifndef SYNTHESIS
  initial assert (RowBytes >= 1 && RowBytes <= 4096)
    else $error("tpu_dma_agen: RowBytes %0d outside 1..4096", RowBytes);
  initial assert (BeatOff >= 1 && BeatOff < 12)
    else $error("tpu_dma_agen: BeatOff %0d outside 1..11", BeatOff);
  // Immediate assertions in a clocked block, not properties (docs/verification.md).  The
  // stall check looks at the next state (out_q at the next edge is out_d).
  always_ff @(posedge clk_i) begin : checks
    if (rst_ni) begin
      if (out_valid_q) begin
        assert (out_fb1_q == out_addr_q[AddrWidth-1:BeatOff] + BeatWidth'(1) &&
                out_lb_q == BeatWidth'((out_addr_q + AddrWidth'(out_len0_q) - 1'b1) >> BeatOff))
          else $error("tpu_dma_agen: row beats %0h %0h for address %0h", out_fb1_q, out_lb_q, out_addr_q);
        assert (out_bad_q || (out_nb1_q == NbWidth'(out_lb_q - out_addr_q[AddrWidth-1:BeatOff]) &&
                              out_nb_q == out_nb1_q + NbWidth'(1)))
          else $error("tpu_dma_agen: row spans %0d / %0d beats", out_nb_q, out_nb1_q);
        assert (out_pl_q == (PageWidth + 1)'(1 << PageWidth) -
                            (PageWidth + 1)'(out_addr_q[BeatOff +: PageWidth]) &&
                out_pl1_q == (PageWidth + 1)'(1 << PageWidth) -
                             (PageWidth + 1)'(out_fb1_q[PageWidth-1:0]))
          else $error("tpu_dma_agen: page left %0d / %0d at %0h", out_pl_q, out_pl1_q, out_addr_q);
      end
      // abort_i only comes while a descriptor is being walked or its last row waits.
      if (abort_i) begin
        assert (it_active_q || (out_valid_q && out_last_q) || (sk_valid_q && sk_last_q))
          else $error("tpu_dma_agen: abort with no descriptor in progress");
      end
      assert (!sk_valid_q || out_valid_q) else $error("tpu_dma_agen: skid row ahead of the output");
      if (out_valid_q && !row_ready_i) begin
        assert (out_valid_d && out_d == out_q)
          else $error("tpu_dma_agen: row output changed while stalled");
      end
    end
  end
`endif

endmodule
