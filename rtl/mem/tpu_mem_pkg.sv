// SPDX-License-Identifier: Apache-2.0
// tpu_mem_pkg: encodings shared by the memory system, its device models and testbenches.
`default_nettype none

package tpu_mem_pkg;

  // Row command bus of one pseudo-channel (HBM2 has separate row and column buses).
  localparam logic [2:0] RcmdNop   = 3'd0;
  localparam logic [2:0] RcmdAct   = 3'd1;  // activate row m_hbm_row_o in bank m_hbm_rbank_o
  localparam logic [2:0] RcmdPre   = 3'd2;  // precharge bank m_hbm_rbank_o
  localparam logic [2:0] RcmdPrea  = 3'd3;  // precharge all banks
  localparam logic [2:0] RcmdRefab = 3'd4;  // all-bank refresh (every bank precharged)
  localparam logic [2:0] RcmdRefpb = 3'd5;  // per-bank refresh of m_hbm_rbank_o (HBM2 REFSB)

  // Column command bus.
  localparam logic [1:0] CcmdNop = 2'd0;
  localparam logic [1:0] CcmdRd  = 2'd1;
  localparam logic [1:0] CcmdWr  = 2'd2;

  // AXI responses.
  localparam logic [1:0] RespOkay   = 2'b00;
  localparam logic [1:0] RespSlverr = 2'b10;

  // Per-channel counters, in the order of the cnt_o fields.
  localparam int CntReads     = 0;  // 32-byte read accesses
  localparam int CntWrites    = 1;  // 32-byte write accesses
  localparam int CntBytes     = 2;  // bytes moved on the data bus
  localparam int CntHits      = 3;  // accesses that found their row open
  localparam int CntMisses    = 4;  // accesses that needed an ACT of a closed bank
  localparam int CntConflicts = 5;  // accesses that needed a PRE of another row first
  localparam int CntRefreshes = 6;  // REFab + REFpb commands
  localparam int CntBusy      = 7;  // cycles with work queued or reads in flight
  localparam int CntIdle      = 8;  // the other cycles
  localparam int NumCnt       = 9;
  localparam int CntWidth     = 32;

  // Backends behind the per-channel request interface.
  localparam int BackendHbm2  = 0;  // HBM2 pseudo-channel controller + external device
  localparam int BackendSpram = 1;  // on-chip single-port RAM (iCE40UP5K SPRAM)
  localparam int BackendSdram = 2;  // SDR SDRAM controller + external device (ULX3S)

endpackage
