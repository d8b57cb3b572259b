// SPDX-License-Identifier: Apache-2.0
// tpu_core_ram: an on-chip buffer (UB, WB, VP) with one or two write and read ports, built
// from block RAMs (one write, one registered read each) yet read like an asynchronous RAM.
`default_nettype none

// Each read port takes the address it will read in the NEXT cycle (rnext*_i: the value its
// address register is about to take) and registers the row at the clock edge, so rdata*_o
// shows mem[address] in the cycle the address is current, as a combinational read would.
// A write at the same edge to that row is forwarded (a compare and a mux), so a read
// right after a write sees the new data exactly as before.  With two write ports every
// (write port, read port) pair has its own copy and a live-value table (one bit per row,
// in flip-flops or in block RAMs, LvtBram) says which port wrote the row last; when both
// write ports hit the same row in one cycle, port 1 wins (the ISA calls such a program a
// race).
// docs/core.md.
// A read port may also name its next row as one of two candidates: rnext*_i when
// rpick*_i is low, rnextb*_i when it is high.  Both candidates are looked up in the
// live-value table and compared with the write rows; only the last step waits for the
// pick, so a late handshake (the store engine's row_fire) selects a row without a
// 1,024-row multiplexer behind it.  Tie rpick*_i low to use rnext*_i alone.
module tpu_core_ram #(
  parameter int unsigned Rows     = 256,  // rows
  parameter int unsigned Width    = 64,   // bits per row
  parameter int unsigned NumWrite = 2,    // write ports (1 or 2; port 1 unused when 1)
  parameter int unsigned NumRead  = 2,    // read ports (1 or 2; port 1 unused when 1)
  // With two write ports, the live-value table: 0 in flip-flops, read in two registered
  // halves; 1 in block RAM, two one-bit tables whose exclusive-or is the table, ten
  // memories of Rows x 1 (g_xlvt).  The default is 1 where TPU_LVT_BRAM is defined.
`ifdef TPU_LVT_BRAM
  parameter int unsigned LvtBram  = 1,
`else
  parameter int unsigned LvtBram  = 0,
`endif
  localparam int unsigned Aw = (Rows > 1) ? $clog2(Rows) : 1
) (
  input  logic             clk_i,
  input  logic             we0_i,
  input  logic [15:0]      waddr0_i,
  input  logic [Width-1:0] wdata0_i,
  input  logic             we1_i,
  input  logic [15:0]      waddr1_i,
  input  logic [Width-1:0] wdata1_i,
  input  logic [15:0]      rnext0_i,   // the row read port 0 reads in the next cycle
  input  logic [15:0]      rnextb0_i,  // ... or this one when rpick0_i
  input  logic             rpick0_i,
  output logic [Width-1:0] rdata0_o,
  input  logic [15:0]      rnext1_i,
  input  logic [15:0]      rnextb1_i,
  input  logic             rpick1_i,
  output logic [Width-1:0] rdata1_o
);
  /* verilator no_inline_module */

  // Ports as packed vectors: [port * size +: size].
  logic [1:0]         we;
  logic [2*Aw-1:0]    wa, ra, raa, rab;
  logic [1:0]         pick;
  logic [2*Width-1:0] wd;
  assign we   = {NumWrite > 1 && we1_i, we0_i};
  assign wa   = {Aw'(waddr1_i), Aw'(waddr0_i)};
  assign wd   = {wdata1_i, wdata0_i};
  assign raa  = {Aw'(rnext1_i), Aw'(rnext0_i)};
  assign rab  = {Aw'(rnextb1_i), Aw'(rnextb0_i)};
  assign pick = {rpick1_i, rpick0_i};
  for (genvar r = 0; r < 2; r++) begin : g_ra
    assign ra[r*Aw +: Aw] = pick[r] ? rab[r*Aw +: Aw] : raa[r*Aw +: Aw];
  end

  // One block RAM per (write port, read port): written in place, read registered.
  // bank_q[(w * 2 + r) * Width +: Width] is the row read port r registered from copy w.
  logic [4*Width-1:0] bank_q;
  for (genvar w = 0; w < 2; w++) begin : g_w
    for (genvar r = 0; r < 2; r++) begin : g_r
      if (w < NumWrite && r < NumRead) begin : g_bank
        logic [Width-1:0] mem_q [Rows];
        logic [Width-1:0] rd_q;
        always_ff @(posedge clk_i) begin
          if (we[w]) mem_q[wa[w*Aw +: Aw]] <= wd[w*Width +: Width];
          rd_q <= mem_q[ra[r*Aw +: Aw]];
        end
        assign bank_q[(w*2+r)*Width +: Width] = rd_q;
      end else begin : g_none
        assign bank_q[(w*2+r)*Width +: Width] = '0;
      end
    end
  end

  // Live-value table: 1 when write port 1 wrote the row last.
  logic [1:0] sel;
  if (NumWrite > 1 && LvtBram == 0) begin : g_lvt
    // LvtBram = 0: in flip-flops.
    // Read in two halves of the row number, so that neither side of the registering edge
    // has the whole multiplexer over all rows (the ULX3S's longest path, docs/core.md):
    // before the edge every group of 2^Lb rows picks its row by the low bits, for both
    // candidates; after it the registered high bits pick the group.  Both halves read
    // the table as it was before the edge's writes, as one registered look-up would.
    localparam int unsigned Hb = Aw / 2;
    localparam int unsigned Lb = Aw - Hb;
    localparam int unsigned G  = 1 << Hb;
    localparam int unsigned L  = 1 << Lb;
    // Row {group, low bits}; Rows is a power of two, 4 or more (asserted below).  The table
    // is stored by the low bits: lvt_q[l][g] is row {g, l}.  One word read by a candidate's
    // low bits is every group's bit for it, and a write sets one bit of one word, so a
    // simulator does a few word operations per cycle, and Yosys (memory_map) decodes each
    // write one-hot by the two halves, word and bit, not by a compare of every row's number.
    logic [G-1:0] lvt_q [L];
    always_ff @(posedge clk_i) begin
      if (we[0]) lvt_q[wa[0 +: Lb]][wa[Lb +: Hb]] <= 1'b0;
      if (we[1]) lvt_q[wa[Aw +: Lb]][wa[Aw + Lb +: Hb]] <= 1'b1;
    end
    for (genvar r = 0; r < 2; r++) begin : g_rd
      logic [G-1:0]  ga_q, gb_q;  // candidate a's / b's row in each group
      logic [Hb-1:0] ha_q, hb_q;  // the candidates' groups
      logic          pick_q;
      always_ff @(posedge clk_i) begin
        ga_q   <= lvt_q[raa[r*Aw +: Lb]];
        gb_q   <= lvt_q[rab[r*Aw +: Lb]];
        ha_q   <= raa[r*Aw + Lb +: Hb];
        hb_q   <= rab[r*Aw + Lb +: Hb];
        pick_q <= pick[r];
      end
      assign sel[r] = pick_q ? gb_q[hb_q] : ga_q[ha_q];
    end
  end else if (NumWrite > 1) begin : g_xlvt
    // LvtBram = 1: in block RAM as two tables, one per write port, whose exclusive-or
    // is the table (an XOR live-value table): port 0 makes a row 0 by copying port 1's bit of it
    // into its own table, port 1 makes it 1 by copying the inverse of port 0's bit.  So
    // each table has one write port, and each reader has its own copy of each table
    // (Yosys maps every copy, one write and one registered read, to a block RAM).
    // A port's table write is made one edge after its data write, with the other table's
    // bit read (registered) at the data write's edge: pend_q, prow_q.  Until it lands, a
    // look-up of that row takes the pending value from a compare made before the edge.
    // When both ports write one row at an edge, port 1 wins: port 0's table write is
    // dropped.
    // Copies of table t: 0 and 1 read port 0's candidates a and b, 2 and 3 read port 1's,
    // 4 reads the row the other port writes (port 1 - t).
    logic [1:0]      pend_q;       // port w's table write is pending (made at the next edge)
    logic [2*Aw-1:0] prow_q;       // ... to this row
    logic [1:0]      tbit;         // the bit port w writes into its table at the next edge
    logic [1:0]      obit;         // the other table's bit of the row port w wrote, as read
    logic [1:0]      ofwd_q, ofwd_v_q; // ... replaced by the other port's pending write
    logic [4*Aw-1:0] look;         // look-up rows: {port 1 b, port 1 a, port 0 b, port 0 a}
    logic [9:0]      tq;           // each copy's registered bit: [t * 5 + c]
    assign look = {rab[Aw +: Aw], raa[Aw +: Aw], rab[0 +: Aw], raa[0 +: Aw]};
    for (genvar w = 0; w < 2; w++) begin : g_tw
      // The other table's bit of this port's pending row, as it is after the next edge's
      // write of that table (made before this one; port 1 - w never writes the same row
      // at the same edge, see we_t).
      logic ob;
      assign ob      = ofwd_q[w] ? ofwd_v_q[w] : obit[w];
      assign tbit[w] = (w == 0) ? ob : !ob;
    end
    // Port 0's table write is dropped when port 1 writes the same row at the same edge.
    logic [1:0] we_t;
    assign we_t = {we[1], we[0] && !(we[1] && wa[0 +: Aw] == wa[Aw +: Aw])};
    always_ff @(posedge clk_i) begin
      pend_q <= we_t;
      prow_q <= wa;
      for (int w = 0; w < 2; w++) begin
        // A pending write of the other table lands at this edge: take its bit.
        ofwd_q[w]   <= pend_q[1 - w] && prow_q[(1 - w) * Aw +: Aw] == wa[w * Aw +: Aw];
        ofwd_v_q[w] <= tbit[1 - w];
      end
    end
    for (genvar t = 0; t < 2; t++) begin : g_t
      for (genvar c = 0; c < 5; c++) begin : g_c
        if (c == 4 || c / 2 < NumRead) begin : g_copy
          logic          mem_q [Rows];
          logic          rd_q;
          logic [Aw-1:0] ra_c;
          // Copy 4 of table t is read by port 1 - t's write, at its write row.
          if (c == 4) begin : g_wr
            assign ra_c = wa[(1 - t) * Aw +: Aw];
          end else begin : g_look
            assign ra_c = look[c * Aw +: Aw];
          end
          always_ff @(posedge clk_i) begin
            if (pend_q[t]) mem_q[prow_q[t * Aw +: Aw]] <= tbit[t];
            rd_q <= mem_q[ra_c];
          end
          assign tq[t * 5 + c] = rd_q;
        end else begin : g_none
          assign tq[t * 5 + c] = 1'b0;
        end
      end
    end
    assign obit = {tq[4], tq[9]};   // port 1 reads table 0's copy 4, port 0 table 1's
    for (genvar r = 0; r < 2; r++) begin : g_rd
      // Each candidate: a pending write to its row (port 1's first), else the tables.
      logic [1:0] pa_q, pb_q;      // [w]: port w's pending write lands on candidate a / b
      logic       pick_q;
      always_ff @(posedge clk_i) begin
        for (int w = 0; w < 2; w++) begin
          pa_q[w] <= pend_q[w] && prow_q[w * Aw +: Aw] == raa[r * Aw +: Aw];
          pb_q[w] <= pend_q[w] && prow_q[w * Aw +: Aw] == rab[r * Aw +: Aw];
        end
        pick_q <= pick[r];
      end
      logic la, lb;
      assign la = pa_q[1] || (!pa_q[0] && (tq[2 * r] ^ tq[5 + 2 * r]));
      assign lb = pb_q[1] || (!pb_q[0] && (tq[2 * r + 1] ^ tq[5 + 2 * r + 1]));
      assign sel[r] = pick_q ? lb : la;
    end
  end else begin : g_no_lvt
    assign sel = '0;
  end

  // Forwarding of a write at the edge that registers the read (port 1 wins).
  logic [1:0]         hit0, hit1, fwd_q;
  logic [2*Width-1:0] fwd_data_q, rdata;
  for (genvar r = 0; r < 2; r++) begin : g_fwd
    assign hit0[r] = we[0] && (pick[r] ? wa[0 +: Aw] == rab[r*Aw +: Aw] : wa[0 +: Aw] == raa[r*Aw +: Aw]);
    assign hit1[r] = we[1] && (pick[r] ? wa[Aw +: Aw] == rab[r*Aw +: Aw] : wa[Aw +: Aw] == raa[r*Aw +: Aw]);
    always_ff @(posedge clk_i) begin
      fwd_q[r]                    <= hit0[r] || hit1[r];
      fwd_data_q[r*Width +: Width] <= hit1[r] ? wdata1_i : wdata0_i;
    end
    assign rdata[r*Width +: Width] = fwd_q[r] ? fwd_data_q[r*Width +: Width] :
                                     sel[r] ? bank_q[(2+r)*Width +: Width] :
                                                bank_q[r*Width +: Width];
  end
  assign rdata0_o = rdata[0 +: Width];
  assign rdata1_o = (NumRead > 1) ? rdata[Width +: Width] : '0;

  logic unused;
  assign unused = ^{rnext0_i, rnext1_i, rnextb0_i, rnextb1_i, waddr0_i, waddr1_i, wd, wa, ra, raa, rab, bank_q, hit0, hit1, rdata};

  // Assertions
`ifndef SYNTHESIS
  initial assert (NumWrite >= 1 && NumWrite <= 2 && NumRead >= 1 && NumRead <= 2)
    else $error("tpu_core_ram: NumWrite %0d / NumRead %0d must be 1 or 2", NumWrite, NumRead);
  initial assert (NumWrite < 2 || LvtBram != 0 || (Rows >= 4 && Rows == (1 << Aw)))
    else $error("tpu_core_ram: the flip-flop live-value table needs a power of two of 4 rows or more, not %0d", Rows);
  // Immediate assertions in a clocked block, not properties (docs/verification.md).
  always_ff @(posedge clk_i) begin : checks
    a_w0_range: assert (!(we0_i && 32'(waddr0_i) >= Rows))
      else $error("tpu_core_ram: write port 0 row %0d outside %0d rows", waddr0_i, Rows);
    a_w1_range: assert (!(NumWrite > 1 && we1_i && 32'(waddr1_i) >= Rows))
      else $error("tpu_core_ram: write port 1 row %0d outside %0d rows", waddr1_i, Rows);
    a_w1_unused: assert (!(NumWrite < 2 && we1_i))
      else $error("tpu_core_ram: write on port 1 of a one-write-port RAM");
  end
`endif

endmodule
