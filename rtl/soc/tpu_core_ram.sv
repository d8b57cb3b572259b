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
// in flip-flops, read in two halves) says which port wrote the row last; when both write
// ports hit the same row in one cycle, port 1 wins (the ISA calls such a program a race).
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
  if (NumWrite > 1) begin : g_lvt
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
  initial assert (NumWrite < 2 || (Rows >= 4 && Rows == (1 << Aw)))
    else $error("tpu_core_ram: the live-value table needs a power of two of 4 rows or more, not %0d", Rows);
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
