// SPDX-License-Identifier: Apache-2.0
// tpu_mem_pch_ctrl: controller of one HBM2 pseudo-channel: request queue, bank state and
// timers, FR-FCFS scheduling with a row-hit cap and read/write batching, refresh, counters.
//
// Requests are 32-byte beats addressed in channel-local beat units:
//   addr = {row, ba[1:0], bg[1:0], col[4:0]}   (bank = {bg, ba}, XOR the folded row if BankHash)
// The device interface has a row command bus and a column command bus (as HBM2 has),
// both registered; write data travels with the WR command and the device applies it
// CWL cycles later; read data comes back on m_hbm_rvalid_i CL cycles after the RD.
`default_nettype none

module tpu_mem_pch_ctrl #(
  parameter int TagWidth    = 8,    // request tag bits, returned with read data
  parameter int RowBits     = 14,   // rows per bank = 2^RowBits (16 banks x 1 KB pages)
  parameter int QueueDepth  = 32,   // request queue entries, a power of two
  // Timing in controller cycles (tCK = 1 ns): the HBM2 set of the blueprint.
  parameter int CL          = 14,   // RD to read data
  parameter int CWL         = 4,    // WR to write data
  parameter int TBl         = 2,    // data-bus cycles of one 32-byte burst (BL4, DDR)
  parameter int TRcd        = 14,   // ACT to RD/WR, same bank
  parameter int TRp         = 14,   // PRE to ACT, same bank
  parameter int TRas        = 34,   // ACT to PRE, same bank
  parameter int TRc         = 48,   // ACT to ACT, same bank
  parameter int TRrdS       = 4,    // ACT to ACT, different bank group
  parameter int TRrdL       = 6,    // ACT to ACT, same bank group
  parameter int TFaw        = 30,   // window holding at most four ACTs
  parameter int TCcdS       = 1,    // column to column, different bank group
  parameter int TCcdL       = 2,    // column to column, same bank group
  parameter int TWr         = 16,   // end of write data to PRE, same bank
  parameter int TRtpS       = 4,    // RD to PRE, same bank (the larger of TRtpS/L binds)
  parameter int TRtpL       = 6,    // RD to PRE, same bank
  parameter int TWtrS       = 6,    // end of write data to RD, different bank group
  parameter int TWtrL       = 8,    // end of write data to RD, same bank group
  parameter int TRtw        = 14,   // RD to WR (bus turnaround: CL + TBl + 2 - CWL)
  parameter int TRfc        = 260,  // all-bank refresh cycle
  parameter int TRfcPb      = 160,  // per-bank refresh cycle
  parameter int TRrefd      = 8,    // REFpb to ACT/REFpb of another bank, and ACT to REFpb
  parameter int TRefi       = 3900, // average refresh interval
  // Policies
  parameter int RefreshMode = 0,    // 0: all-bank refresh, 1: per-bank refresh
  parameter int RefPostpone = 8,    // refreshes owed before one is forced (1..8)
  parameter int RefBatch    = 4,    // all-bank: REFabs per forced sequence (1..RefPostpone)
  parameter int RowHitCap   = 16,   // accesses to a row before an older waiting conflict closes it
  parameter int CloseIdle   = 0,    // precharge a row idle for this many cycles (0: never)
  parameter int WriteHigh   = 24,   // queued writes that start a write batch
  parameter int WriteLow    = 4,    // a write batch ends at this many if reads wait
  parameter int BankHash    = 1,    // 1: bank ^= XOR of the row's 4-bit slices
  // Simulation only (Verilator): 1 clocks the controller's state through a clock gate that
  // stops while the controller is idle, with the same cycle behaviour (see "clock gate").
  parameter int GateIdle    = 0,
  localparam int AddrW     = RowBits + 9,
  localparam int DataWidth = 256,
  localparam int StrbWidth = 32,
  localparam int NumCnt    = tpu_mem_pkg::NumCnt,
  localparam int CntWidth  = tpu_mem_pkg::CntWidth
) (
  input  wire                        clk_i,
  input  wire                        rst_ni,
  // Requests (the per-channel request interface)
  input  wire                        s_req_valid_i,
  output logic                       s_req_ready_o,
  input  wire                        s_req_write_i,
  input  wire  [AddrW-1:0]           s_req_addr_i,
  input  wire  [DataWidth-1:0]       s_req_wdata_i,
  input  wire  [StrbWidth-1:0]       s_req_wstrb_i,
  input  wire  [TagWidth-1:0]        s_req_tag_i,
  // Read responses (never back-pressured)
  output logic                       s_rsp_valid_o,
  output logic [TagWidth-1:0]        s_rsp_tag_o,
  output logic [DataWidth-1:0]       s_rsp_rdata_o,
  // HBM2 pseudo-channel: row commands
  output logic [2:0]                 m_hbm_rcmd_o,
  output logic [3:0]                 m_hbm_rbank_o,
  output logic [RowBits-1:0]         m_hbm_row_o,
  // HBM2 pseudo-channel: column commands and data
  output logic [1:0]                 m_hbm_ccmd_o,
  output logic [3:0]                 m_hbm_cbank_o,
  output logic [4:0]                 m_hbm_col_o,
  output logic [DataWidth-1:0]       m_hbm_wdata_o,
  output logic [StrbWidth-1:0]       m_hbm_wstrb_o,
  input  wire                        m_hbm_rvalid_i,
  input  wire  [DataWidth-1:0]       m_hbm_rdata_i,
  // Counters (tpu_mem_pkg::Cnt* order)
  output logic [NumCnt*CntWidth-1:0] cnt_o
);
  // One C++ class shared by every instance keeps the Verilated model small.  The internals
  // are left out of FST traces (the ports are traced in tpu_mem_sys): Verilator can then
  // keep loop variables and temporaries in C locals (docs/performance.md, simulator speed).
  /* verilator no_inline_module */
  /* verilator tracing_off */

  localparam int NB = 16;
  localparam int Q  = QueueDepth;
  localparam int QW = $clog2(Q);

  function automatic int max2(input int a, input int b);
    max2 = (a > b) ? a : b;
  endfunction

  // Command-to-command distances.
  localparam int RdRdS  = max2(TCcdS, TBl);
  localparam int RdRdL  = max2(TCcdL, TBl);
  localparam int RdWr   = max2(max2(TRtw, TBl), TCcdL);
  localparam int WrWrS  = max2(TCcdS, TBl);
  localparam int WrWrL  = max2(TCcdL, TBl);
  localparam int WrRdS  = CWL + TBl + TWtrS;
  localparam int WrRdL  = CWL + TBl + TWtrL;
  localparam int WrPre  = CWL + TBl + TWr;
  localparam int RdPre  = max2(TRtpS, TRtpL);  // both apply to the bank read (as in Ramulator2)
  localparam int TRefiPb = TRefi / NB;
  // One refresh is owed per TRefi (all-bank) or NB per TRefi (per-bank): the timebase adds
  // RefStep per cycle and owes one each time it passes TRefi, so per-bank refreshes average
  // exactly TRefi/NB even when NB does not divide TRefi (3900/16 rounded down would pull
  // each bank's refreshes in by one every 325 tREFI, past the 8 the device allows).
  localparam int RefStep = (RefreshMode != 0) ? NB : 1;
  localparam int MaxT = max2(max2(max2(TRfc, TRfcPb), max2(TRc, TRas)),
                             max2(max2(WrPre, max2(WrRdS, WrRdL)), max2(max2(RdWr, TFaw), max2(TRcd, TRp))));
  localparam int TW = $clog2(MaxT + 1);
  localparam int RiW = $clog2(TRefi + NB + 1);
  localparam int HcW = $clog2(RowHitCap + 1);
  localparam int IdW = (CloseIdle > 0) ? $clog2(CloseIdle + 1) : 1;
  localparam int FifoDepth = 1 << $clog2(CL + 4);
  localparam int NW = $clog2(Q + 1);

  // Arrays are unpacked (Yosys 0.23 parses no multi-dimensional packed arrays and no
  // whole-array assignment; (* mem2reg *) tells it they are registers, not RAMs), except
  // the 32 x 32 age and dependency matrices, which are flat vectors (row i at [i*Q +: Q])
  // so that an insertion updates each with one assignment.  State that changes only on a
  // command is written at the command's index only (one Verilator delayed assignment per
  // write, not one per element and cycle).

  // Saturating down-counter step, and "at least t more cycles" (t >= 1).
  function automatic logic [TW-1:0] dec(input logic [TW-1:0] a);
    dec = (a == '0) ? '0 : a - 1'b1;
  endfunction
  function automatic logic [TW-1:0] at_least(input logic [TW-1:0] a, input int t);
    at_least = (a > TW'(t - 1)) ? a : TW'(t - 1);
  endfunction
  // Index of the set bit of a one-hot vector (up to 64 bits; 0 for none), and the lowest
  // set bit of a vector: word operations, no loop.
  function automatic logic [5:0] enc(input logic [63:0] w);
    enc = {|(w & 64'hFFFFFFFF00000000), |(w & 64'hFFFF0000FFFF0000), |(w & 64'hFF00FF00FF00FF00),
           |(w & 64'hF0F0F0F0F0F0F0F0), |(w & 64'hCCCCCCCCCCCCCCCC), |(w & 64'hAAAAAAAAAAAAAAAA)};
  endfunction
  function automatic logic [Q-1:0] low_q(input logic [Q-1:0] m);
    low_q = m & (~m + 1'b1);
  endfunction
  function automatic logic [NB-1:0] low_b(input logic [NB-1:0] m);
    low_b = m & (~m + 1'b1);
  endfunction

  // ---------------------------------------------------------------- state
  // Queue: control bits and age/dependency matrices, payload memories.
  logic [Q-1:0] valid_q, valid_d, isw_q, isw_d;
  logic [Q*Q-1:0] older_q;  // older_q[i*Q + j]: entry j is older than entry i
  logic [Q*Q-1:0] dep_q;    // dep_q[i*Q + j]: entry i waits for entry j (same beat, a write)
  logic [NB*Q-1:0] bmask_q; // bmask_q[b*Q + i]: entry i waits for bank b
  logic [Q-1:0] rmatch_q, rmatch_d;  // the entry's bank is open at the entry's row
  logic [Q-1:0] ovec_q, ovec_d;      // the entry's bank is open (the OR of bmask_q over open banks)
  logic [Q-1:0] wdep_q, wdep_d;      // the entry was queued behind another access (dep_q[i] != 0)
  logic [3:0]           bank_m  [Q];
  logic [AddrW-1:0]     addr_m  [Q];
  logic [TagWidth-1:0]  tag_m   [Q];
  logic [DataWidth-1:0] wdata_m [Q];
  logic [StrbWidth-1:0] wstrb_m [Q];

  // Banks.
  logic [NB-1:0] open_q, open_d;
  (* mem2reg *) logic [RowBits-1:0] orow_q [NB];       // the open row
  (* mem2reg *) logic [TW-1:0] bact_q [NB];            // cycles until ACT / REF may go
  (* mem2reg *) logic [TW-1:0] bact_d [NB];
  (* mem2reg *) logic [TW-1:0] bpre_q [NB];            // cycles until PRE may go
  (* mem2reg *) logic [TW-1:0] bpre_d [NB];
  (* mem2reg *) logic [TW-1:0] bcol_q [NB];            // cycles until RD/WR may go
  (* mem2reg *) logic [TW-1:0] bcol_d [NB];
  (* mem2reg *) logic [HcW-1:0] hits_q [NB];           // column accesses since the ACT (saturating)
  (* mem2reg *) logic [IdW-1:0] idle_q [NB];           // cycles open with nothing queued (saturating)
  logic [NB-1:0] tact_q, tact_d;         // the bank has a timer above zero
  logic [NB-1:0] first_q, first_d;       // next column access of the bank is its ACT's access
  logic [NB-1:0] actconf_q, actconf_d;   // that ACT followed a conflict PRE
  logic [NB-1:0] pconf_q, pconf_d;       // the bank was last closed for a conflict

  // Bank groups and the channel.
  (* mem2reg *) logic [TW-1:0] gact_q [4];             // per bank group: until ACT, RD, WR
  (* mem2reg *) logic [TW-1:0] gact_d [4];
  (* mem2reg *) logic [TW-1:0] grd_q [4];
  (* mem2reg *) logic [TW-1:0] grd_d [4];
  (* mem2reg *) logic [TW-1:0] gwr_q [4];
  (* mem2reg *) logic [TW-1:0] gwr_d [4];
  (* mem2reg *) logic [TW-1:0] faw_q [4];              // the four-activate window, one timer per ACT
  (* mem2reg *) logic [TW-1:0] faw_d [4];
  logic [TW-1:0] cact_q, cact_d, crd_q, crd_d, cwr_q, cwr_d, crefpb_q, crefpb_d;
  logic wmode_q, wmode_d;

  // Refresh.
  logic [RiW-1:0] rtick_q, rtick_d;      // ungated
  logic ovf;                             // the timebase owes one more refresh this cycle
  logic [3:0] owed_q, owed_d, owed_n;    // owed_d: this cycle's refreshes taken off, owed_n: and ovf
  logic rpend_q, rpend_d, rpend_n;       // all-bank: refresh sequence under way
  logic [9:0] qidle_q, qidle_d;          // cycles the queue has been empty (saturating; ungated)
  logic [NB-1:0] rmask_q, rmask_d;       // per-bank: banks refreshed this round
  logic force_q, force_d;                // per-bank: bank fbank_q is being refreshed
  logic [3:0] fbank_q, fbank_d;
  logic [3:0] lastcol_q, lastcol_d;      // bank of the latest column command

  // Counters and device command registers.
  (* mem2reg *) logic [CntWidth-1:0] cnt_q [NumCnt];   // but CntBusy and CntIdle: cbusy_q, cidle_q
  (* mem2reg *) logic [CntWidth-1:0] cnt_d [NumCnt];
  logic [CntWidth-1:0] cbusy_q, cidle_q;  // ungated
  logic busy_q, busy_d;                  // the state is not idle (see "clock gate")
  logic [2:0] rcmd_q, rcmd_d;
  logic [3:0] rbank_q, rbank_d;
  logic [RowBits-1:0] rrow_q, rrow_d;
  logic [1:0] ccmd_q, ccmd_d;
  logic [3:0] cbank_q, cbank_d;
  logic [4:0] ccol_q, ccol_d;
  logic [DataWidth-1:0] wdata_q;
  logic [StrbWidth-1:0] wstrb_q;

  // ---------------------------------------------------------------- clock gate
  // An idle controller (nothing queued or in the request stage, no command on the buses,
  // no write batch, no refresh under way; with CloseIdle no open row) does nothing in the
  // next cycle but count its timers down, until a request or read data arrives or the
  // refresh logic acts.  With GateIdle its state is clocked by clk_g (tpu_mem_cg), which
  // stops in such cycles, so that the Verilated model skips the controller's logic; the
  // next clk_g edge takes the skipped cycles off the timers (sub_skip).  What changes in
  // every idle cycle runs on clk_i: the refresh timebase (rtick_q), the queue-idle counter
  // (qidle_q) and the busy and idle cycle counters; the gate opens in every cycle in which
  // the timebase owes a refresh (ovf) and when the refresh policy starts one.  busy_q holds
  // "not idle" for the state after the last clk_g edge.  The logic that reads clk_i-domain
  // signals (owed_n, rpend_n, the gate) is kept out of the large blocks, which read clk_g
  // state only and so run only on clk_g edges.
  logic gate_en, clk_g;
  logic pol_start;                       // the refresh policy starts a refresh this cycle
  assign pol_start = (RefreshMode == 0) ? (!rpend_q && owed_q != '0 && (owed_q >= 4'(RefPostpone) || qidle_q == '1))
                                        : (!force_q && owed_q != '0);
  // A busy controller's gate also stays shut while it only waits for a timer (waiting,
  // see "wait gate" below).
  logic waiting;
  assign gate_en = s_req_valid_i || m_hbm_rvalid_i || rq_v_q || (busy_q && !waiting) || rpend_q || ovf ||
                   pol_start;
  // skip: clk_i edges without a clk_g edge since the last clk_g edge (saturating; only
  // read by the clk_g registers, at their edge, and by the wait gate).
  logic [TW-1:0] skip;
  logic [TW-1:0] wait_q;                 // clk_g edges the wait gate skips (0: none)
  logic gate_on;
  tpu_mem_cg #(.Enable(GateIdle)) u_cg (.clk_i, .en_i(gate_en), .clk_o(clk_g), .en_o(gate_on));
  if (GateIdle != 0) begin : g_skip
    logic [TW-1:0] skip_q;
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) skip_q <= '0;
      else if (gate_on) skip_q <= '0;
      else if (skip_q != '1) skip_q <= skip_q + 1'b1;
    end
    assign skip = skip_q;
    assign waiting = skip_q < wait_q;
  end else begin : g_no_skip
    logic unused_on;
    assign unused_on = gate_on ^ (|wait_q);
    assign skip = '0;
    assign waiting = 1'b0;
  end
  // A timer's value at a clk_g edge: its next value for one cycle, less the skipped cycles.
  function automatic logic [TW-1:0] sub_skip(input logic [TW-1:0] a, input logic [TW-1:0] k);
    sub_skip = (a > k) ? a - k : '0;
  endfunction

  // ---------------------------------------------------------------- request decode
  logic [1:0] in_bg, in_ba;
  logic [3:0] in_bank;
  logic [RowBits-1:0] in_row;
  logic [QW-1:0] free_idx;
  logic ins;

  // Request stage: the queue inserts from a register, so that all scheduling logic
  // depends on state only (the Verilated model then evaluates it once per cycle).
  logic rq_v_q, rq_v_d, rq_w_q, take;
  logic [AddrW-1:0] rq_addr_q;
  logic [TagWidth-1:0] rq_tag_q;
  logic [DataWidth-1:0] rq_wdata_q;
  logic [StrbWidth-1:0] rq_wstrb_q;
  assign s_req_ready_o = !rq_v_q || !(&valid_q);
  assign take = s_req_valid_i && s_req_ready_o;
  assign ins = rq_v_q && !(&valid_q);
  assign rq_v_d = take || (rq_v_q && !ins);

  assign in_bg  = rq_addr_q[6:5];
  assign in_ba  = rq_addr_q[8:7];
  assign in_row = rq_addr_q[AddrW-1:9];
  // Bank hash: XOR of every 4-bit slice of the row, so that rows a power of two apart
  // (tensors at aligned offsets) land in different banks.
  logic [19:0] row_z;
  logic [3:0] row_fold;
  assign row_z = 20'(in_row);
  assign row_fold = row_z[3:0] ^ row_z[7:4] ^ row_z[11:8] ^ row_z[15:12] ^ row_z[19:16];
  assign in_bank = (BankHash != 0) ? ({in_bg, in_ba} ^ row_fold) : {in_bg, in_ba};

  // The new entry takes the lowest free slot (free_mask is 0 when the queue is full, and
  // then unused).
  logic [Q-1:0] free_mask, new_dep;
  assign free_mask = low_q(~valid_q);
  assign free_idx = QW'(enc(64'(free_mask)));

  // What a new entry waits for: every queued access to the same beat (so the same bank)
  // when either writes.  Only needed on an insertion.
  always_comb begin
    logic [Q-1:0] same;
    new_dep = '0;
    same = (rq_v_q ? bmask_q[in_bank*Q +: Q] : '0) & (rq_w_q ? valid_q : isw_q);
    if (same != '0) begin
      for (int i = 0; i < Q; i++) begin
        if (same[i] && addr_m[i] == rq_addr_q) new_dep[i] = 1'b1;
      end
    end
  end

  // ---------------------------------------------------------------- queue view
  // Per-entry state is kept in bit vectors over the queue (one bit per entry) and per-bank
  // entry masks, so that a cycle costs a few word operations; the loops run only when
  // their result can be non-zero (an empty queue costs almost nothing to simulate).
  logic [Q-1:0] hit, conf, miss, unb, mtype, bypass, waitx;
  logic [NB-1:0] pend_any, hitp_any, hitp_mode, starve;
  logic [NW-1:0] n_wr, n_wr_unb, n_rd_unb;

  always_comb begin
    hit = '0;
    conf = '0;
    miss = '0;
    unb = '0;
    bypass = '0;
    waitx = '0;
    pend_any = '0;
    hitp_any = '0;
    hitp_mode = '0;
    starve = '0;
    mtype = wmode_q ? isw_q : ~isw_q;
    if (valid_q != '0) begin
      unb = valid_q;
      if ((wdep_q & valid_q) != '0) begin
        for (int i = 0; i < Q; i++) begin
          if (wdep_q[i] && (dep_q[i*Q +: Q] & valid_q) != '0) unb[i] = 1'b0;
        end
      end
      hit = valid_q & rmatch_q;
      conf = valid_q & ovec_q & ~rmatch_q;
      miss = valid_q & ~ovec_q;
      // A hit bypasses an older request of the batch type that waits for another row of
      // its bank; the row-hit cap bounds how long that may go on.
      waitx = conf & unb & mtype;
      if (waitx != '0 && hit != '0) begin
        for (int i = 0; i < Q; i++) begin
          if (hit[i] && (older_q[i*Q +: Q] & waitx & bmask_q[bank_m[i]*Q +: Q]) != '0) bypass[i] = 1'b1;
        end
      end
      for (int b = 0; b < NB; b++) begin
        if (bmask_q[b*Q +: Q] != '0) begin
          pend_any[b] = 1'b1;
          hitp_any[b] = (bmask_q[b*Q +: Q] & hit) != '0;
          hitp_mode[b] = (bmask_q[b*Q +: Q] & hit & unb & mtype) != '0;
          starve[b] = (bmask_q[b*Q +: Q] & bypass) != '0;
        end
      end
    end
    n_wr = NW'($countones(valid_q & isw_q));
    n_wr_unb = NW'($countones(unb & isw_q));
    n_rd_unb = NW'($countones(unb & ~isw_q));
  end

  // ---------------------------------------------------------------- eligibility
  // Timer states as bank vectors (one bit per bank): a timer at zero allows its command.
  logic [NB-1:0] capped, blk_act, blk_col, act_ok, pre_ok, rd_ok, wr_ok, refpb_ok, idle_ref, idle_cl;
  logic [NB-1:0] bactz, bprez, bcolz, hcap, gactz, grdz, gwrz;
  logic faw_ok, prea_ok, refab_ok, blk_rd, blk_wr;
  logic [TW-1:0] maxpre;

  always_comb begin
    // Banks whose timers are all zero (tact_q clear) need no look at their timers.
    bactz = ~tact_q;
    bprez = ~tact_q;
    bcolz = ~tact_q;
    hcap = '0;
    if (tact_q != '0) begin
      for (int b = 0; b < NB; b++) begin
        if (tact_q[b]) begin
          bactz[b] = bact_q[b] == '0;
          bprez[b] = bpre_q[b] == '0;
          bcolz[b] = bcol_q[b] == '0;
        end
      end
    end
    if (starve != '0) begin
      for (int b = 0; b < NB; b++) hcap[b] = hits_q[b] >= HcW'(RowHitCap);
    end
    for (int g = 0; g < 4; g++) begin
      gactz[g*4 +: 4] = {4{gact_q[g] == '0}};
      grdz[g*4 +: 4]  = {4{grd_q[g] == '0}};
      gwrz[g*4 +: 4]  = {4{gwr_q[g] == '0}};
    end
    faw_ok = (faw_q[0] == '0) || (faw_q[1] == '0) || (faw_q[2] == '0) || (faw_q[3] == '0);
    blk_act = '0;
    blk_col = '0;
    blk_rd = 1'b0;
    blk_wr = 1'b0;
    maxpre = '0;
    if (RefreshMode == 0) begin
      // While an all-bank refresh waits for the banks to allow PREA, hits may still go
      // if they do not push the PREA back.
      if (rpend_q) begin
        for (int b = 0; b < NB; b++) begin
          if (open_q[b] && bpre_q[b] > maxpre) maxpre = bpre_q[b];
        end
        blk_act = '1;
        blk_rd = maxpre < TW'(RdPre);
        blk_wr = maxpre < TW'(WrPre);
      end
    end else if (force_q) begin
      blk_act[fbank_q] = 1'b1;
      blk_col[fbank_q] = 1'b1;
      // Once the bank is closed and ready, no ACT may push the REFpb back (tRREFD).
      if (!open_q[fbank_q] && bact_q[fbank_q] == '0) blk_act = '1;
    end
    capped = hcap & starve;
    act_ok = ~open_q & bactz & gactz & {NB{cact_q == '0 && faw_ok}} & ~blk_act;
    pre_ok = open_q & bprez;
    rd_ok = open_q & bcolz & grdz & {NB{crd_q == '0 && !blk_rd}} & ~capped & ~blk_col;
    wr_ok = open_q & bcolz & gwrz & {NB{cwr_q == '0 && !blk_wr}} & ~capped & ~blk_col;
    refpb_ok = ~open_q & bactz & {NB{crefpb_q == '0}};
    idle_ref = ~rmask_q & ~pend_any;
    idle_cl = idle_ref & ~open_q;
    prea_ok = (open_q & ~pre_ok) == '0;
    refab_ok = open_q == '0 && bactz == '1;
  end

  // ---------------------------------------------------------------- selection
  // Column commands serve row hits of the current batch type, oldest first. Row commands
  // open rows for the oldest request of the batch type, else of the other type; a row
  // with pending hits of the batch type closes only once the hit cap is reached.
  logic [Q-1:0] ccand, rcand_m, rcand_o;
  always_comb begin
    logic [Q-1:0] rdm;
    logic [Q-1:0] wrm;
    logic [Q-1:0] actm;
    logic [Q-1:0] prem;
    logic [Q-1:0] preo;
    logic [Q-1:0] actc;
    rdm = '0;
    wrm = '0;
    actm = '0;
    prem = '0;
    preo = '0;
    if (pend_any != '0) begin
      for (int b = 0; b < NB; b++) begin
        if (pend_any[b]) begin
          if (rd_ok[b]) rdm = rdm | bmask_q[b*Q +: Q];
          if (wr_ok[b]) wrm = wrm | bmask_q[b*Q +: Q];
          if (act_ok[b]) actm = actm | bmask_q[b*Q +: Q];
          if (pre_ok[b] && (!hitp_mode[b] || capped[b])) prem = prem | bmask_q[b*Q +: Q];
          if (pre_ok[b] && !hitp_any[b]) preo = preo | bmask_q[b*Q +: Q];
        end
      end
    end
    ccand = hit & unb & mtype & ((isw_q & wrm) | (~isw_q & rdm));
    actc = miss & unb & actm;
    rcand_m = mtype & (actc | (conf & unb & prem));
    rcand_o = ~mtype & (actc | (conf & unb & preo));
  end

  // The oldest candidate: ages form a total order, so exactly one candidate has no older
  // candidate; a single candidate is its own answer.
  logic csel_v, rsel_v;
  logic [QW-1:0] csel, rsel;
  // With several candidates, the search visits the candidates only (lowest first) and
  // stops at the oldest: the loop's later steps cost one test each.  It reads older_q
  // itself (a 1,024-bit argument would be copied at each call of the Verilated model).
  function automatic logic [QW-1:0] oldest(input logic [Q-1:0] cand);
    logic [Q-1:0] m;
    logic [QW-1:0] i;
    logic found;
    oldest = QW'(enc(64'(cand)));
    if ((cand & (cand - 1'b1)) != '0) begin
      m = cand;
      found = 1'b0;
      for (int k = 0; k < Q; k++) begin
        if (!found && m != '0) begin
          i = QW'(enc(64'(low_q(m))));
          if ((older_q[i*Q +: Q] & cand) == '0) begin
            oldest = i;
            found = 1'b1;
          end
          m = m & (m - 1'b1);
        end
      end
    end
  endfunction
  always_comb begin
    logic [Q-1:0] rc;
    csel_v = ccand != '0;
    csel = oldest(ccand);
    rc = (rcand_m != '0) ? rcand_m : rcand_o;
    rsel_v = rc != '0;
    rsel = oldest(rc);
  end

  // The next bank a per-bank refresh takes: the bank the last column command used if
  // nothing waits for it (a stream has just left it and comes back last), else an idle
  // closed bank, else any idle bank; when refreshes are overdue, the first bank not yet
  // refreshed this round.  Also the lowest bank idle long enough to close.
  logic idle_ref_v, idle_close_v;
  logic [3:0] idle_ref_b, next_unref_b, idle_close_b;
  logic [NB-1:0] idle_long;
  always_comb begin
    idle_long = '0;
    if (CloseIdle > 0) begin
      for (int b = 0; b < NB; b++) idle_long[b] = idle_q[b] >= IdW'((CloseIdle > 0) ? CloseIdle : 1);
    end
    idle_long = idle_long & pre_ok & ~pend_any;
    idle_close_v = idle_long != '0;
    idle_close_b = '0;
    if (idle_close_v) idle_close_b = 4'(enc(64'(low_b(idle_long))));
    // The refresh bank choices are used only while a per-bank refresh is owed and none forced.
    next_unref_b = '0;
    idle_ref_v = idle_ref != '0;
    idle_ref_b = '0;
    if (RefreshMode != 0 && !force_q && owed_q != '0) begin
      next_unref_b = 4'(enc(64'(low_b(~rmask_q))));
      idle_ref_b = idle_ref[lastcol_q] ? lastcol_q
                 : (idle_cl != '0) ? 4'(enc(64'(low_b(idle_cl)))) : 4'(enc(64'(low_b(idle_ref))));
    end
  end

  // ---------------------------------------------------------------- tag FIFO of reads in flight
  logic tf_full, tf_empty, tf_push;
  logic [TagWidth-1:0] tf_head;
  tpu_mem_fifo #(.Width(TagWidth), .Depth(FifoDepth)) u_tags (
    .clk_i(clk_g), .rst_ni,
    .push_i(tf_push), .data_i(tag_m[csel]), .full_o(tf_full),
    .pop_i(m_hbm_rvalid_i), .data_o(tf_head), .empty_o(tf_empty)
  );
  assign s_rsp_valid_o = m_hbm_rvalid_i;
  assign s_rsp_tag_o   = tf_head;
  assign s_rsp_rdata_o = m_hbm_rdata_i;

  // ---------------------------------------------------------------- next state
  logic col_go, col_wr;
  logic [3:0] col_b;
  assign col_go = csel_v;
  assign col_wr = isw_q[csel];
  assign col_b  = bank_m[csel];
  assign tf_push = col_go && !col_wr;

  // Row command of this cycle (rb: its bank), shared with the queue bookkeeping below.
  logic act_go, pre_go, pre_conf, prea_go, refab_go, refpb_go;
  logic [3:0] rb;
  logic [RowBits-1:0] act_row;
  assign act_row = addr_m[rsel][AddrW-1:9];

  always_comb begin
    logic [1:0] rg;
    logic [1:0] cg;
    logic faw_set;

    // Defaults: hold, timers count down.
    act_go = 1'b0;
    pre_go = 1'b0;
    pre_conf = 1'b0;
    prea_go = 1'b0;
    refab_go = 1'b0;
    refpb_go = 1'b0;
    rb = '0;
    rg = '0;
    cg = col_b[3:2];
    faw_set = 1'b0;
    rcmd_d = tpu_mem_pkg::RcmdNop;
    rbank_d = rbank_q;
    rrow_d = rrow_q;
    ccmd_d = tpu_mem_pkg::CcmdNop;
    cbank_d = cbank_q;
    ccol_d = ccol_q;
    open_d = open_q;
    first_d = first_q;
    actconf_d = actconf_q;
    pconf_d = pconf_q;
    wmode_d = wmode_q;
    rmask_d = rmask_q;
    force_d = force_q;
    fbank_d = fbank_q;
    lastcol_d = lastcol_q;
    rpend_d = rpend_q;
    // Timers: banks with a timer above zero count down (the others stay at zero).
    for (int b = 0; b < NB; b++) begin
      bact_d[b] = '0;
      bpre_d[b] = '0;
      bcol_d[b] = '0;
    end
    if (tact_q != '0) begin
      for (int b = 0; b < NB; b++) begin
        if (tact_q[b]) begin
          bact_d[b] = (bact_q[b] == '0) ? '0 : bact_q[b] - 1'b1;  // dec(), written out: no
          bpre_d[b] = (bpre_q[b] == '0) ? '0 : bpre_q[b] - 1'b1;  // function temporaries in
          bcol_d[b] = (bcol_q[b] == '0) ? '0 : bcol_q[b] - 1'b1;  // the Verilated loop
        end
      end
    end
    for (int g = 0; g < 4; g++) begin
      gact_d[g] = dec(gact_q[g]);
      grd_d[g] = dec(grd_q[g]);
      gwr_d[g] = dec(gwr_q[g]);
      faw_d[g] = dec(faw_q[g]);
    end
    cact_d = dec(cact_q);
    crd_d = dec(crd_q);
    cwr_d = dec(cwr_q);
    crefpb_d = dec(crefpb_q);

    owed_d = owed_q;

    // ---- row command bus
    if (RefreshMode == 0 && rpend_q) begin
      if (open_q != '0) prea_go = prea_ok;
      else refab_go = refab_ok;
    end else if (RefreshMode != 0 && force_q && open_q[fbank_q] && pre_ok[fbank_q]) begin
      pre_go = 1'b1;
      rb = fbank_q;
    end else if (RefreshMode != 0 && force_q && refpb_ok[fbank_q]) begin
      refpb_go = 1'b1;
      rb = fbank_q;
    end else if (rsel_v) begin
      rb = bank_m[rsel];
      if (open_q[rb]) begin
        pre_go = 1'b1;
        pre_conf = 1'b1;
      end else begin
        act_go = 1'b1;
      end
    end else if (idle_close_v) begin
      pre_go = 1'b1;
      rb = idle_close_b;
    end
    rg = rb[3:2];

    if (act_go) begin
      rcmd_d = tpu_mem_pkg::RcmdAct;
      rbank_d = rb;
      rrow_d = act_row;
      open_d[rb] = 1'b1;
      first_d[rb] = 1'b1;
      actconf_d[rb] = pconf_q[rb];
      pconf_d[rb] = 1'b0;
      bact_d[rb] = at_least(bact_d[rb], TRc);
      bpre_d[rb] = at_least(bpre_d[rb], TRas);
      bcol_d[rb] = at_least(bcol_d[rb], TRcd);
      gact_d[rg] = at_least(gact_d[rg], TRrdL);
      cact_d = at_least(cact_d, TRrdS);
      crefpb_d = at_least(crefpb_d, TRrefd);
      for (int k = 0; k < 4; k++) begin
        if (!faw_set && faw_q[k] == '0) begin
          faw_d[k] = TW'(TFaw - 1);
          faw_set = 1'b1;
        end
      end
    end
    if (pre_go) begin
      rcmd_d = tpu_mem_pkg::RcmdPre;
      rbank_d = rb;
      open_d[rb] = 1'b0;
      pconf_d[rb] = pre_conf;
      bact_d[rb] = at_least(bact_d[rb], TRp);
    end
    if (prea_go) begin
      rcmd_d = tpu_mem_pkg::RcmdPrea;
      for (int b = 0; b < NB; b++) begin
        if (open_q[b]) begin
          bact_d[b] = at_least(bact_d[b], TRp);
          pconf_d[b] = 1'b0;
        end
      end
      open_d = '0;
    end
    if (refab_go) begin
      rcmd_d = tpu_mem_pkg::RcmdRefab;
      for (int b = 0; b < NB; b++) begin
        bact_d[b] = at_least(bact_d[b], TRfc);
      end
      pconf_d = '0;
      rpend_d = 1'b0;
    end
    if (refpb_go) begin
      rcmd_d = tpu_mem_pkg::RcmdRefpb;
      rbank_d = rb;
      bact_d[rb] = at_least(bact_d[rb], TRfcPb);
      pconf_d[rb] = 1'b0;
      cact_d = at_least(cact_d, TRrefd);
      crefpb_d = at_least(crefpb_d, TRrefd);
      rmask_d[rb] = 1'b1;
      if ((rmask_q | (16'd1 << rb)) == '1) rmask_d = '0;
      if (force_q && rb == fbank_q) force_d = 1'b0;
    end
    if (refab_go || refpb_go) owed_d = owed_d - 1'b1;
    // Refresh policy (the all-bank one in rpend_n below): per-bank refreshes an idle bank
    // whenever one is owed, and a busy one when too many are.
    if (RefreshMode != 0 && !force_q && owed_q != '0) begin
      if (idle_ref_v) begin
        force_d = 1'b1;
        fbank_d = idle_ref_b;
      end else if (owed_q >= 4'(RefPostpone)) begin
        force_d = 1'b1;
        fbank_d = next_unref_b;
      end
    end

    // ---- column command bus
    if (col_go) begin
      ccmd_d = col_wr ? tpu_mem_pkg::CcmdWr : tpu_mem_pkg::CcmdRd;
      cbank_d = col_b;
      ccol_d = addr_m[csel][4:0];
      lastcol_d = col_b;
      if (first_q[col_b]) first_d[col_b] = 1'b0;
      if (col_wr) begin
        cwr_d = at_least(cwr_d, WrWrS);
        gwr_d[cg] = at_least(gwr_d[cg], WrWrL);
        crd_d = at_least(crd_d, WrRdS);
        grd_d[cg] = at_least(grd_d[cg], WrRdL);
        bpre_d[col_b] = at_least(bpre_d[col_b], WrPre);
      end else begin
        crd_d = at_least(crd_d, RdRdS);
        grd_d[cg] = at_least(grd_d[cg], RdRdL);
        cwr_d = at_least(cwr_d, RdWr);
        gwr_d[cg] = at_least(gwr_d[cg], RdWr);
        bpre_d[col_b] = at_least(bpre_d[col_b], RdPre);
      end
    end

    // ---- read/write batching
    if (!wmode_q) begin
      if (n_wr_unb != '0 && (n_wr >= NW'(WriteHigh) || n_rd_unb == '0)) wmode_d = 1'b1;
    end else begin
      if (n_wr_unb == '0 || (n_wr <= NW'(WriteLow) && n_rd_unb != '0)) wmode_d = 1'b0;
    end
  end

  // Command counters (CntBusy and CntIdle: cbusy_q, cidle_q).
  logic col_first;
  assign col_first = first_q[col_b];
  for (genvar k = 0; k < NumCnt; k++) begin : g_cnt_d
    assign cnt_d[k] = cnt_q[k] + CntWidth'(
        (k == tpu_mem_pkg::CntRefreshes) ? 32'(refab_go || refpb_go) :
        (k == tpu_mem_pkg::CntHits)      ? 32'(col_go && !col_first) :
        (k == tpu_mem_pkg::CntConflicts) ? 32'(col_go && col_first && actconf_q[col_b]) :
        (k == tpu_mem_pkg::CntMisses)    ? 32'(col_go && col_first && !actconf_q[col_b]) :
        (k == tpu_mem_pkg::CntBytes)     ? (col_go ? 32'd32 : 32'd0) :
        (k == tpu_mem_pkg::CntWrites)    ? 32'(col_go && col_wr) :
        (k == tpu_mem_pkg::CntReads)     ? 32'(col_go && !col_wr) : 32'd0);
  end

  always_comb begin
    // Banks with a timer above zero next cycle: every bank a command touched, and the
    // banks counting down (a timer at 1 reaches zero, so dec(bact) etc. tell).
    logic [NB-1:0] touched;
    touched = '0;
    if (act_go || pre_go || refpb_go) touched[rb] = 1'b1;
    if (prea_go || refab_go) touched = '1;
    if (col_go) touched[col_b] = 1'b1;
    touched = touched | tact_q;
    tact_d = '0;
    if (touched != '0) begin
      for (int b = 0; b < NB; b++) begin
        if (touched[b]) tact_d[b] = bact_d[b] != '0 || bpre_d[b] != '0 || bcol_d[b] != '0;
      end
    end
  end

  // Not idle after this cycle (the clock gate).
  // Timers need not be zero: an idle state's timers only count down, and the gated edge
  // that ends a run of skipped cycles takes the skipped cycles off (sub_skip).
  assign busy_d = valid_d != '0 || rcmd_d != tpu_mem_pkg::RcmdNop || ccmd_d != tpu_mem_pkg::CcmdNop ||
                  wmode_d || force_d || (CloseIdle > 0 && open_d != '0);

  // ---------------------------------------------------------------- wait gate
  // The scheduling logic reads a timer only as zero or not (but the all-bank refresh's wait
  // for PREA, under rpend_q, which keeps the gate open).  So a quiet cycle (no command, no
  // request in the request stage, no change of batch mode or forced refresh: nothing but
  // the timers changes) is followed by quiet cycles until the lowest running timer reaches
  // zero or an input opens the gate.  After a quiet cycle with exact timers (skip = 0) and
  // the lowest running timer at t >= 3, the gate skips the next t - 2 edges; the edge it
  // then takes still sees the same timers at zero (the lowest at 1) and writes them exact
  // (sub_skip).  One more skip would let a timer reach zero unseen (tests/mem: the gate
  // check fails).  An edge with skip != 0 sets no wait.  Not with CloseIdle, whose idle
  // counters count every cycle.
  function automatic logic [TW-1:0] run_min(input logic [TW-1:0] m, input logic [TW-1:0] a);
    run_min = (a != '0 && a < m) ? a : m;
  endfunction
  logic quiet;
  logic [TW-1:0] wait_d;
  assign quiet = GateIdle != 0 && CloseIdle == 0 && !rq_v_q && rcmd_d == tpu_mem_pkg::RcmdNop &&
                 ccmd_d == tpu_mem_pkg::CcmdNop && wmode_d == wmode_q && force_d == force_q;
  always_comb begin
    logic [TW-1:0] t;
    t = '1;
    wait_d = '0;
    if (quiet) begin
      if (tact_q != '0) begin
        for (int b = 0; b < NB; b++) begin
          if (tact_q[b]) t = run_min(run_min(run_min(t, bact_q[b]), bpre_q[b]), bcol_q[b]);
        end
      end
      for (int g = 0; g < 4; g++) begin
        t = run_min(run_min(run_min(run_min(t, gact_q[g]), grd_q[g]), gwr_q[g]), faw_q[g]);
      end
      t = run_min(run_min(run_min(run_min(t, cact_q), crd_q), cwr_q), crefpb_q);
      if (t >= TW'(3)) wait_d = t - TW'(2);
    end
  end

  // The refresh count and the all-bank sequence: the timebase's new refresh (ovf) and the
  // queue-idle counter come from clk_i.  An all-bank sequence goes on with the next REFab
  // (tRFC later, the banks still closed) while a forced batch is not done, or while the
  // queue stays empty: the PREA, tRP and the ACTs after the sequence are paid once for
  // several refreshes.  All-bank refreshes start when forced or when the queue has been
  // empty for 1023 cycles: gaps shorter than a few tRFC happen under load (a port waits
  // for another channel), and refreshing in them would stall the other channels in turn.
  always_comb begin
    owed_n = owed_d + 4'(ovf);
    rpend_n = rpend_d;
    if (refab_go && owed_n != '0 &&
        (owed_n > 4'(RefPostpone - RefBatch) || (valid_q == '0 && !rq_v_q)))
      rpend_n = 1'b1;
    if (RefreshMode == 0 && pol_start) rpend_n = 1'b1;
  end

  // Refresh timebase, queue-idle counter and activity counters: every cycle (clk_i).
  assign ovf = rtick_q + RiW'(RefStep) >= RiW'(TRefi);
  assign rtick_d = ovf ? rtick_q + RiW'(RefStep) - RiW'(TRefi) : rtick_q + RiW'(RefStep);
  assign qidle_d = (valid_q != '0 || rq_v_q) ? '0 : (qidle_q == '1) ? qidle_q : qidle_q + 1'b1;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rtick_q <= '0;
      qidle_q <= '0;
      cbusy_q <= '0;
      cidle_q <= '0;
    end else begin
      rtick_q <= rtick_d;
      qidle_q <= qidle_d;
      if (valid_q != '0 || rq_v_q || !tf_empty) cbusy_q <= cbusy_q + CntWidth'(1);
      else cidle_q <= cidle_q + CntWidth'(1);
    end
  end

  // ---------------------------------------------------------------- queue bookkeeping
  // Apart from the insertion, only row commands and the column command change it.
  logic [Q-1:0] csel_mask;
  logic [RowBits-1:0] in_orow;   // the open row of the new entry's bank after this cycle
  assign csel_mask = col_go ? (Q'(1) << csel) : '0;
  assign in_orow = (act_go && rb == in_bank) ? act_row : orow_q[in_bank];

  always_comb begin
    valid_d = valid_q & ~csel_mask;
    isw_d = isw_q;
    rmatch_d = rmatch_q & ~csel_mask;
    ovec_d = ovec_q & ~csel_mask;
    wdep_d = wdep_q;
    if (act_go) begin
      ovec_d = ovec_d | bmask_q[rb*Q +: Q];
      for (int i = 0; i < Q; i++) begin
        if (bmask_q[rb*Q + i]) rmatch_d[i] = addr_m[i][AddrW-1:9] == act_row;
      end
    end
    if (pre_go) begin
      rmatch_d = rmatch_d & ~bmask_q[rb*Q +: Q];
      ovec_d = ovec_d & ~bmask_q[rb*Q +: Q];
    end
    if (prea_go) begin
      rmatch_d = '0;
      ovec_d = '0;
    end
    // The new entry is younger than everything queued; it sees the banks as this
    // cycle's row command leaves them.
    if (ins) begin
      valid_d[free_idx] = 1'b1;
      isw_d[free_idx] = rq_w_q;
      rmatch_d[free_idx] = open_d[in_bank] && in_orow == in_row;
      ovec_d[free_idx] = open_d[in_bank];
      wdep_d[free_idx] = new_dep != '0;
    end
  end

  // ---------------------------------------------------------------- registers
  always_ff @(posedge clk_g or negedge rst_ni) begin
    if (!rst_ni) begin
      valid_q   <= '0;
      rq_v_q    <= 1'b0;
      isw_q     <= '0;
      rmatch_q  <= '0;
      ovec_q    <= '0;
      wdep_q    <= '0;
      open_q    <= '0;
      tact_q    <= '0;
      first_q   <= '0;
      actconf_q <= '0;
      pconf_q   <= '0;
      cact_q    <= '0;
      crd_q     <= '0;
      cwr_q     <= '0;
      crefpb_q  <= '0;
      wmode_q   <= 1'b0;
      owed_q    <= '0;
      rpend_q   <= 1'b0;
      busy_q    <= 1'b0;
      wait_q    <= '0;
      rmask_q   <= '0;
      force_q   <= 1'b0;
      fbank_q   <= '0;
      lastcol_q <= '0;
      rcmd_q    <= tpu_mem_pkg::RcmdNop;
      rbank_q   <= '0;
      rrow_q    <= '0;
      ccmd_q    <= tpu_mem_pkg::CcmdNop;
      cbank_q   <= '0;
      ccol_q    <= '0;
    end else begin
      valid_q   <= valid_d;
      rq_v_q    <= rq_v_d;
      isw_q     <= isw_d;
      rmatch_q  <= rmatch_d;
      ovec_q    <= ovec_d;
      wdep_q    <= wdep_d;
      open_q    <= open_d;
      tact_q    <= tact_d;
      first_q   <= first_d;
      actconf_q <= actconf_d;
      pconf_q   <= pconf_d;
      cact_q    <= sub_skip(cact_d, skip);
      crd_q     <= sub_skip(crd_d, skip);
      cwr_q     <= sub_skip(cwr_d, skip);
      crefpb_q  <= sub_skip(crefpb_d, skip);
      wmode_q   <= wmode_d;
      owed_q    <= owed_n;
      rpend_q   <= rpend_n;
      busy_q    <= busy_d;
      wait_q    <= (skip == '0) ? wait_d : '0;
      rmask_q   <= rmask_d;
      force_q   <= force_d;
      fbank_q   <= fbank_d;
      lastcol_q <= lastcol_d;
      rcmd_q    <= rcmd_d;
      rbank_q   <= rbank_d;
      rrow_q    <= rrow_d;
      ccmd_q    <= ccmd_d;
      cbank_q   <= cbank_d;
      ccol_q    <= ccol_d;
    end
  end

  // The age and dependency matrices change only on an insertion: the new entry's row is
  // written and its column cleared in every other row (the slot's previous occupant).
  always_ff @(posedge clk_g or negedge rst_ni) begin
    if (!rst_ni) begin
      older_q <= '0;
      dep_q   <= '0;
    end else if (ins) begin
      older_q <= older_q & ~{Q{free_mask}};
      dep_q   <= dep_q & ~{Q{free_mask}};
      older_q[free_idx*Q +: Q] <= valid_q;
      dep_q[free_idx*Q +: Q]   <= new_dep;
    end
  end
  // Bank entry masks: the column command takes its entry out of its bank's mask (an entry
  // is in its own bank's mask only), the insertion adds the new entry to its bank's.
  always_ff @(posedge clk_g or negedge rst_ni) begin
    if (!rst_ni) begin
      bmask_q <= '0;
    end else begin
      if (col_go) bmask_q[col_b*Q +: Q] <= bmask_q[col_b*Q +: Q] & ~csel_mask;
      if (ins) bmask_q[in_bank*Q +: Q] <= (bmask_q[in_bank*Q +: Q] & ~csel_mask) | free_mask;
    end
  end
  // Open rows and row-hit counters: written by the ACT and the column commands only; not
  // reset (a bank's row and counter are read only while it is open, and every ACT sets
  // both).  A column access to a bank never coincides with its ACT (the bank is open).
  always_ff @(posedge clk_g) begin
    if (act_go) begin
      orow_q[rb] <= act_row;
      hits_q[rb] <= '0;
    end
    if (col_go && hits_q[col_b] != '1) hits_q[col_b] <= hits_q[col_b] + 1'b1;
  end
  for (genvar b = 0; b < NB; b++) begin : g_bank_regs
    always_ff @(posedge clk_g or negedge rst_ni) begin
      if (!rst_ni) begin
        bact_q[b] <= '0;
        bpre_q[b] <= '0;
        bcol_q[b] <= '0;
      end else begin
        bact_q[b] <= sub_skip(bact_d[b], skip);
        bpre_q[b] <= sub_skip(bpre_d[b], skip);
        bcol_q[b] <= sub_skip(bcol_d[b], skip);
      end
    end
  end
  // Idle-row counters: only with CloseIdle (zero otherwise).
  if (CloseIdle > 0) begin : g_idle
    for (genvar b = 0; b < NB; b++) begin : g_idle_regs
      always_ff @(posedge clk_g or negedge rst_ni) begin
        if (!rst_ni) idle_q[b] <= '0;
        else idle_q[b] <= ((act_go && rb == 4'(b)) || (col_go && col_b == 4'(b)) || !open_q[b] || pend_any[b]) ? '0
                        : (idle_q[b] == '1) ? idle_q[b] : idle_q[b] + 1'b1;
      end
    end
  end else begin : g_no_idle
    for (genvar b = 0; b < NB; b++) begin : g_idle_zero
      assign idle_q[b] = '0;
    end
  end
  for (genvar g = 0; g < 4; g++) begin : g_group_regs
    always_ff @(posedge clk_g or negedge rst_ni) begin
      if (!rst_ni) begin
        gact_q[g] <= '0;
        grd_q[g]  <= '0;
        gwr_q[g]  <= '0;
        faw_q[g]  <= '0;
      end else begin
        gact_q[g] <= sub_skip(gact_d[g], skip);
        grd_q[g]  <= sub_skip(grd_d[g], skip);
        gwr_q[g]  <= sub_skip(gwr_d[g], skip);
        faw_q[g]  <= sub_skip(faw_d[g], skip);
      end
    end
  end
  // CntBusy and CntIdle count every cycle, on clk_i (cbusy_q, cidle_q); their cnt_q
  // elements stay at zero.
  for (genvar k = 0; k < NumCnt; k++) begin : g_cnt_regs
    always_ff @(posedge clk_g or negedge rst_ni) begin
      if (!rst_ni) cnt_q[k] <= '0;
      else cnt_q[k] <= cnt_d[k];
    end
    assign cnt_o[k*CntWidth +: CntWidth] = (k == tpu_mem_pkg::CntBusy) ? cbusy_q
                                         : (k == tpu_mem_pkg::CntIdle) ? cidle_q : cnt_q[k];
  end

  // Write data rides with the WR command; a datapath register, not reset.
  always_ff @(posedge clk_g) begin
    if (col_go && col_wr) begin
      wdata_q <= wdata_m[csel];
      wstrb_q <= wstrb_m[csel];
    end
  end

  // The request stage: a datapath register loaded when it takes a request.
  always_ff @(posedge clk_g) begin
    if (take) begin
      rq_w_q     <= s_req_write_i;
      rq_addr_q  <= s_req_addr_i;
      rq_tag_q   <= s_req_tag_i;
      rq_wdata_q <= s_req_wdata_i;
      rq_wstrb_q <= s_req_wstrb_i;
    end
  end

  // Queue payload: memories written at the insertion slot, not reset.
  always_ff @(posedge clk_g) begin
    if (ins) begin
      bank_m[free_idx]  <= in_bank;
      addr_m[free_idx]  <= rq_addr_q;
      tag_m[free_idx]   <= rq_tag_q;
      wdata_m[free_idx] <= rq_wdata_q;
      wstrb_m[free_idx] <= rq_wstrb_q;
    end
  end

  assign m_hbm_rcmd_o  = rcmd_q;
  assign m_hbm_rbank_o = rbank_q;
  assign m_hbm_row_o   = rrow_q;
  assign m_hbm_ccmd_o  = ccmd_q;
  assign m_hbm_cbank_o = cbank_q;
  assign m_hbm_col_o   = ccol_q;
  assign m_hbm_wdata_o = wdata_q;
  assign m_hbm_wstrb_o = wstrb_q;

  // Assertions
`ifndef SYNTHESIS
  // Assertion clock gate: high from the first edge after reset (keeps rst_ni purely async).
  logic live_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) live_q <= 1'b0;
    else live_q <= 1'b1;
  end
  initial begin
    if ((1 << QW) != Q || Q < 4 || Q > 64)
      $fatal(1, "tpu_mem_pch_ctrl: QueueDepth %0d must be a power of two in 4..64", Q);
    if (RowBits < 4 || RowBits > 18) $fatal(1, "tpu_mem_pch_ctrl: RowBits %0d outside 4..18", RowBits);
    if (CL < 1 || CWL < 1 || TBl < 1 || TRcd < 1 || TRp < 1 || TRas < 1 || TRc < 1 || TRrdS < 1 ||
        TRrdL < 1 || TFaw < 1 || TCcdS < 1 || TCcdL < 1 || TWr < 1 || TRtpS < 1 || TRtpL < 1 ||
        TWtrS < 1 || TWtrL < 1 || TRtw < 1 || TRfc < 1 || TRfcPb < 1 || TRrefd < 1 || TRefiPb < 2)
      $fatal(1, "tpu_mem_pch_ctrl: every timing parameter must be at least 1 cycle");
    if (TRtw < CL + TBl - CWL)
      $fatal(1, "tpu_mem_pch_ctrl: TRtw %0d lets write data collide with read data", TRtw);
    if (RefreshMode != 0 && RefreshMode != 1) $fatal(1, "tpu_mem_pch_ctrl: RefreshMode must be 0 or 1");
    if (RefPostpone < 1 || RefPostpone > 8) $fatal(1, "tpu_mem_pch_ctrl: RefPostpone must be 1..8");
    if (RefBatch < 1 || RefBatch > RefPostpone)
      $fatal(1, "tpu_mem_pch_ctrl: RefBatch must be 1..RefPostpone");
    if (RowHitCap < 1) $fatal(1, "tpu_mem_pch_ctrl: RowHitCap must be at least 1");
    if (WriteLow < 0 || WriteLow >= WriteHigh || WriteHigh > Q)
      $fatal(1, "tpu_mem_pch_ctrl: need 0 <= WriteLow < WriteHigh <= QueueDepth");
    if (CloseIdle < 0) $fatal(1, "tpu_mem_pch_ctrl: CloseIdle must be >= 0");
  end
  always_ff @(posedge clk_g) begin
    if (live_q) begin
      if (m_hbm_rvalid_i && tf_empty)
        $fatal(1, "tpu_mem_pch_ctrl %m: read data arrived with no read in flight");
      if (tf_push && tf_full) $fatal(1, "tpu_mem_pch_ctrl %m: read tag FIFO overflow");
      if (owed_q > 4'd9) $fatal(1, "tpu_mem_pch_ctrl %m: %0d refreshes owed", owed_q);
      if (col_go && !(open_q[col_b] && orow_q[col_b] == addr_m[csel][AddrW-1:9]))
        $fatal(1, "tpu_mem_pch_ctrl %m: column command to a row that is not open");
      if (act_go && open_q[rb]) $fatal(1, "tpu_mem_pch_ctrl %m: ACT to open bank %0d", rb);
      if (pre_conf && orow_q[rb] == act_row)
        $fatal(1, "tpu_mem_pch_ctrl %m: conflict PRE of bank %0d for its own open row", rb);
    end
  end
`endif
endmodule
