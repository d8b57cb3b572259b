// SPDX-License-Identifier: Apache-2.0
// tpu_mem_sdram: per-channel backend on a 16-bit SDR SDRAM (the ULX3S's 32 MB, 4 banks x 8192
// rows x 512 columns): in-order requests, open rows per bank, ACT/PRE of the next request
// overlapped with the current burst, all-bank refresh that is never starved, power-up sequence.
`default_nettype none

module tpu_mem_sdram #(
  parameter int TagWidth    = 8,            // request tag bits, returned with read data
  parameter int DataWidth   = 256,          // bits per request beat: 32, 64, 128 or 256
  parameter int AddrW       = 20,           // beat address bits; at most 24 - log2(DataWidth/16)
  parameter int ClkHz       = 100000000,    // controller (= SDRAM) clock, for the ns timings
  parameter int CasLatency  = 2,            // 2 or 3, written to the mode register
  // Device timing in ns (IS42S16160 / MT48LC16M16 class, the slowest speed grade of each).
  parameter int TRcdNs      = 20,           // ACT to READ/WRITE, same bank
  parameter int TRpNs       = 20,           // PRE to ACT/REF, same bank
  parameter int TRasNs      = 42,           // ACT to PRE, same bank
  parameter int TRcNs       = 66,           // ACT to ACT/REF, same bank
  parameter int TRrdNs      = 15,           // ACT to ACT, different banks
  parameter int TWrNs       = 15,           // last write data to PRE (at least 2 cycles)
  parameter int TRfcNs      = 66,           // REF to anything
  parameter int TRefiNs     = 7800,         // one REF owed per interval (64 ms / 8192 = 7812.5)
  parameter int TMrdCk      = 2,            // LOAD MODE REGISTER to anything, cycles
  parameter int TInitUs     = 200,          // power-up wait with CKE high and NOPs
  parameter int InitRefs    = 8,            // AUTO REFRESHes of the power-up sequence (>= 2)
  parameter int RefPostpone = 4,            // refreshes owed before one is forced (1..8)
  localparam int StrbWidth  = DataWidth / 8,
  localparam int NumCnt     = tpu_mem_pkg::NumCnt,
  localparam int CntWidth   = tpu_mem_pkg::CntWidth
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
  // Read responses
  output logic                       s_rsp_valid_o,
  output logic [TagWidth-1:0]        s_rsp_tag_o,
  output logic [DataWidth-1:0]       s_rsp_rdata_o,
  // Counters (tpu_mem_pkg::Cnt* order)
  output logic [NumCnt*CntWidth-1:0] cnt_o,
  // SDRAM pins, all registered; read data is sampled at the clock edge that ends cycle
  // READ + CasLatency (the board top phases the SDRAM clock to make that hold)
  output logic                       sdram_cke_o,
  output logic                       sdram_cs_no,
  output logic                       sdram_ras_no,
  output logic                       sdram_cas_no,
  output logic                       sdram_we_no,
  output logic [1:0]                 sdram_ba_o,
  output logic [12:0]                sdram_a_o,
  output logic [1:0]                 sdram_dqm_o,
  output logic [15:0]                sdram_dq_o,
  output logic                       sdram_dq_oe_o,
  input  wire  [15:0]                sdram_dq_i
);
  // One C++ class shared by every instance keeps the Verilated model small.
  /* verilator no_inline_module */

  // ---- Geometry: a beat is Words SDRAM words, moved by Subs bursts of Bl words ----
  localparam int Words  = DataWidth / 16;
  localparam int Bl     = (Words > 8) ? 8 : Words;
  localparam int Subs   = Words / Bl;
  localparam int WordsW = $clog2(Words);
  localparam int CB     = 9 - WordsW;                 // column bits of a beat address
  localparam int RowW   = AddrW - CB - 2;             // row bits in use (13 for 32 MB)
  localparam logic [2:0] BlCode = 3'($clog2(Bl));         // 2 -> 1, 4 -> 2, 8 -> 3
  // Mode register: burst write, standard operation, CAS latency, sequential, burst length.
  localparam logic [12:0] ModeReg = {3'b000, 1'b0, 2'b00, 3'(CasLatency), 1'b0, BlCode};

  // ---- Timing in cycles (T: cycles from one command to the next it constrains) ----
  localparam int ClkKhz = ClkHz / 1000;
  function automatic int ns2ck(input int ns, input int lo);
    int c;
    c = (ns * ClkKhz + 999999) / 1000000;
    if (c < lo) c = lo;
    ns2ck = c;
  endfunction
  localparam int TRcd   = ns2ck(TRcdNs, 1);
  localparam int TRp    = ns2ck(TRpNs, 1);
  localparam int TRas   = ns2ck(TRasNs, 1);
  localparam int TRc    = ns2ck(TRcNs, 1);
  localparam int TRrd   = ns2ck(TRrdNs, 1);
  localparam int TWr    = ns2ck(TWrNs, 2);
  localparam int TRfc   = ns2ck(TRfcNs, 1);
  localparam int TMrd   = (TMrdCk < 1) ? 1 : TMrdCk;
  localparam int TRefi  = TRefiNs * ClkKhz / 1000000;       // rounded down
  localparam int TInit  = (TInitUs * ClkKhz + 999) / 1000 + 2;
  localparam int TRdWr  = CasLatency + Bl + 1;             // READ to WRITE: one idle bus cycle
  localparam int TWrPre = Bl - 1 + TWr;                    // WRITE to PRE, same bank
  // Timer width: the largest T, minus one, must fit.
  localparam int TMax1  = (TRc > TRfc) ? TRc : TRfc;
  localparam int TMax2  = (TWrPre > TRdWr) ? TWrPre : TRdWr;
  localparam int TMax3  = (TMax1 > TMax2) ? TMax1 : TMax2;
  localparam int TMax   = (TMax3 > TMrd) ? TMax3 : TMrd;
  localparam int TW     = $clog2(TMax + 1);
  localparam int InitW  = $clog2(TInit + 1);
  localparam int RefiW  = $clog2(TRefi + 1);

  // SDRAM commands: {cs_n, ras_n, cas_n, we_n}.
  localparam logic [3:0] CmdNop = 4'b0111;
  localparam logic [3:0] CmdAct = 4'b0011;
  localparam logic [3:0] CmdRd  = 4'b0101;
  localparam logic [3:0] CmdWr  = 4'b0100;
  localparam logic [3:0] CmdPre = 4'b0010;
  localparam logic [3:0] CmdRef = 4'b0001;
  localparam logic [3:0] CmdMrs = 4'b0000;

  typedef enum logic [2:0] {
    SInitWait, SInitPre, SInitRef, SInitMrs, SRun
  } state_e;

  function automatic logic [TW-1:0] tmax(input logic [TW-1:0] a, input int t);
    logic [TW-1:0] b;
    b = (t > 1) ? TW'(t - 1) : '0;
    tmax = (a > b) ? a : b;
  endfunction
  function automatic logic [TW-1:0] tdec(input logic [TW-1:0] a);
    tdec = (a != '0) ? a - TW'(1) : '0;
  endfunction

  // ---- Request queue: q0 is served (in order), q1 is the lookahead ----
  (* mem2reg *) logic                 qv_q [2], qv_d [2];
  (* mem2reg *) logic                 qwr_q [2], qwr_d [2];
  (* mem2reg *) logic [1:0]           qba_q [2], qba_d [2];
  (* mem2reg *) logic [12:0]          qrow_q [2], qrow_d [2];
  (* mem2reg *) logic [CB-1:0]        qcol_q [2], qcol_d [2];
  (* mem2reg *) logic [TagWidth-1:0]  qtag_q [2], qtag_d [2];
  (* mem2reg *) logic [DataWidth-1:0] qwdata_q [2], qwdata_d [2];
  (* mem2reg *) logic [StrbWidth-1:0] qstrb_q [2], qstrb_d [2];
  (* mem2reg *) logic                 qact_q [2], qact_d [2];   // an ACT was issued for this entry
  (* mem2reg *) logic                 qpre_q [2], qpre_d [2];   // a PRE of another row was issued for it

  // ---- Bank state and timers ----
  (* mem2reg *) logic        open_q [4], open_d [4];
  (* mem2reg *) logic [12:0] orow_q [4], orow_d [4];
  (* mem2reg *) logic [TW-1:0] actw_q [4], actw_d [4];  // until ACT/REF allowed (tRC, tRP)
  (* mem2reg *) logic [TW-1:0] prew_q [4], prew_d [4];  // until PRE allowed (tRAS, tWR, read burst)
  (* mem2reg *) logic [TW-1:0] colw_q [4], colw_d [4];  // until READ/WRITE allowed (tRCD)
  logic [TW-1:0] rrdw_q, rrdw_d;          // until ACT allowed (tRRD)
  logic [TW-1:0] allw_q, allw_d;          // until anything allowed (tRFC, tMRD, init tRP)
  logic [TW-1:0] rdw_q, rdw_d;            // until READ allowed (data bus)
  logic [TW-1:0] wrw_q, wrw_d;            // until WRITE allowed (data bus, turnaround)
  // Each timer's "is zero" as a register of its own, so that the command decision depends
  // on flip-flops and a 4:1 bank mux only (100 MHz on the ECP5).
  (* mem2reg *) logic actz_q [4], actz_d [4];
  (* mem2reg *) logic prez_q [4], prez_d [4];
  (* mem2reg *) logic colz_q [4], colz_d [4];
  logic rrdz_q, rrdz_d, allz_q, allz_d, rdz_q, rdz_d, wrz_q, wrz_d;
  // Row matches: m_q[i][b] = entry i's row is the row held open by bank b (kept up to date on
  // ACT with same_q, the two entries' rows being equal), so a row hit is a mux, not a compare.
  (* mem2reg *) logic [3:0] m_q [2], m_d [2];
  logic same_q, same_d;

  state_e state_q, state_d;
  logic [InitW-1:0] initc_q, initc_d;
  logic [3:0] irefs_q, irefs_d;
  logic [RefiW-1:0] refic_q, refic_d;
  logic [3:0] owed_q, owed_d;
  logic ref_q, ref_d;                       // a refresh sequence is under way
  logic phase_q, phase_d;                   // q0 is between the bursts of its beat
  logic [1:0] sub_q, sub_d;                 // next burst of the beat

  // ---- Pins ----
  logic        cke_q;
  logic [3:0]  cmd_q, cmd_d;
  logic [1:0]  ba_q, ba_d;
  logic [12:0] a_q, a_d;
  logic [1:0]  dqm_q, dqm_d;
  logic [15:0] dqo_q, dqo_d;
  logic        oe_q, oe_d;
  logic [15:0] dqi_q;

  // ---- Write data shifter and read data assembly ----
  logic [DataWidth-1:0] wsr_q, wsr_d;
  logic [StrbWidth-1:0] wst_q, wst_d;
  logic [WordsW:0]      wleft_q, wleft_d;
  logic [CasLatency+1:0] rdv_q, rdv_d;      // a READ's first word reaches dqi_q CL+2 later
  logic [3:0]           capl_q, capl_d;     // words of the current burst still to capture
  logic [WordsW-1:0]    capw_q, capw_d;     // word of the beat captured next
  logic [DataWidth-1:0] rdata_q;
  logic                 rsp_q, rsp_d;
  logic [TagWidth-1:0]  rtag_q, rtag_d;
  (* mem2reg *) logic [TagWidth-1:0]  tfifo_q [4];        // tags of reads in flight, in order
  logic [1:0]           twp_q, twp_d, trp_q, trp_d;
  logic                 cap;

  logic [NumCnt*CntWidth-1:0] cnt_q, cnt_d;

  // Address split: {row, bank, beat column}; the next 1 KB is the next bank.
  logic [1:0]    in_ba;
  logic [12:0]   in_row;
  logic [CB-1:0] in_col;
  assign in_col = s_req_addr_i[CB-1:0];
  assign in_ba  = s_req_addr_i[CB+1:CB];
  assign in_row = 13'(s_req_addr_i[AddrW-1:CB+2]);

  logic accept;
  assign s_req_ready_o = !qv_q[1];
  assign accept = s_req_valid_i && s_req_ready_o;

  // ---- Command decision ----
  // Every condition below depends on registers and a 4:1 bank mux only; the priority among
  // them is a few gates: column command of q0 > refresh > ACT/PRE of q0 > ACT/PRE of q1.
  logic hit0, hit1, col_go, pop, any_open, all_pre_ok, all_act_ok, tick, run;
  logic [1:0] b0, b1;
  logic [3:0] sel0, sel1;                    // one-hot banks of q0 and q1
  logic c_col_cont, c_col_new, c_prea, c_ref, c_act0, c_pre0, c_act1, c_pre1, bus_ok;
  logic g_act0, g_pre0, g_act1, g_pre1, i_prea, i_ref, i_mrs;
  logic is_rd, is_wr, is_act, is_pre, is_prea, is_ref, is_mrs;
  logic [3:0] act_on, pre_on, col_on;        // per bank: ACT, PRE/PREA, READ/WRITE this cycle
  logic for1;                                // the ACT/PRE is the lookahead's (q1)

  assign b0 = qba_q[0];
  assign b1 = qba_q[1];
  assign hit0 = open_q[b0] && m_q[0][b0];
  assign hit1 = open_q[b1] && m_q[1][b1];
  assign run = state_q == SRun;

  always_comb begin
    any_open = 1'b0;
    all_pre_ok = 1'b1;
    all_act_ok = 1'b1;
    for (int b = 0; b < 4; b++) begin
      any_open = any_open | open_q[b];
      all_pre_ok = all_pre_ok & prez_q[b];
      all_act_ok = all_act_ok & actz_q[b];
      sel0[b] = b0 == 2'(b);
      sel1[b] = b1 == 2'(b);
    end
  end

  always_comb begin
    bus_ok = qwr_q[0] ? wrz_q : rdz_q;
    c_col_cont = phase_q && bus_ok;
    c_col_new = !phase_q && !ref_q && qv_q[0] && hit0 && colz_q[b0] && allz_q && bus_ok;
    c_prea = ref_q && !phase_q && any_open && all_pre_ok && allz_q;
    c_ref = ref_q && !phase_q && !any_open && allz_q && all_act_ok;
    c_act0 = !ref_q && !phase_q && qv_q[0] && !open_q[b0] && actz_q[b0] && rrdz_q && allz_q;
    c_pre0 = !ref_q && !phase_q && qv_q[0] && open_q[b0] && !hit0 && prez_q[b0] && allz_q;
    c_act1 = !ref_q && qv_q[1] && b1 != b0 && !open_q[b1] && actz_q[b1] && rrdz_q && allz_q;
    c_pre1 = !ref_q && qv_q[1] && b1 != b0 && open_q[b1] && !hit1 && prez_q[b1] && allz_q;
    col_go = run && (c_col_cont || c_col_new);
    g_act0 = run && !col_go && c_act0;
    g_pre0 = run && !col_go && c_pre0;
    g_act1 = run && !col_go && !c_act0 && !c_pre0 && c_act1;
    g_pre1 = run && !col_go && !c_act0 && !c_pre0 && c_pre1;
    i_prea = state_q == SInitPre;
    i_ref = state_q == SInitRef && allz_q && all_act_ok;
    i_mrs = state_q == SInitMrs && allz_q && all_act_ok;
    is_rd = col_go && !qwr_q[0];
    is_wr = col_go && qwr_q[0];
    is_act = g_act0 || g_act1;
    is_pre = g_pre0 || g_pre1;
    is_prea = i_prea || (run && !col_go && c_prea);
    is_ref = i_ref || (run && !col_go && c_ref);
    is_mrs = i_mrs;
    for1 = g_act1 || g_pre1;
    pop = col_go && (Subs == 1 || (phase_q && sub_q == 2'(Subs - 1)));
    for (int b = 0; b < 4; b++) begin
      act_on[b] = (g_act0 && sel0[b]) || (g_act1 && sel1[b]);
      pre_on[b] = (g_pre0 && sel0[b]) || (g_pre1 && sel1[b]) || is_prea;
      col_on[b] = col_go && sel0[b];
    end
  end

  // Next state of the sequencers and the pins.
  always_comb begin
    state_d = state_q;
    initc_d = (initc_q != '0) ? initc_q - InitW'(1) : '0;
    irefs_d = irefs_q;
    ref_d = ref_q;
    phase_d = phase_q;
    sub_d = sub_q;
    unique case (state_q)
      SInitWait: if (initc_q == '0) state_d = SInitPre;
      SInitPre: begin
        irefs_d = 4'(InitRefs);
        state_d = SInitRef;
      end
      SInitRef: if (i_ref) begin
        irefs_d = irefs_q - 4'd1;
        if (irefs_q == 4'd1) state_d = SInitMrs;
      end
      SInitMrs: if (i_mrs) state_d = SRun;
      default: ;
    endcase
    if (col_go) begin
      if (pop) begin
        phase_d = 1'b0;
        sub_d = 2'd0;
      end else begin
        phase_d = 1'b1;
        sub_d = sub_q + 2'd1;
      end
    end
    // A refresh sequence starts when RefPostpone are owed, or when nothing is queued; it ends
    // with the REF that pays the last one owed.
    if (run && !ref_q && (owed_q >= 4'(RefPostpone) || (owed_q != '0 && !qv_q[0]))) ref_d = 1'b1;
    if (run && is_ref && owed_q == 4'd1 && !tick) ref_d = 1'b0;

    cmd_d = CmdNop;
    if (col_go) cmd_d = qwr_q[0] ? CmdWr : CmdRd;
    else if (is_act) cmd_d = CmdAct;
    else if (is_pre || is_prea) cmd_d = CmdPre;
    else if (is_ref) cmd_d = CmdRef;
    else if (is_mrs) cmd_d = CmdMrs;
    ba_d = ba_q;
    if (col_go || g_act0 || g_pre0) ba_d = b0;
    else if (g_act1 || g_pre1) ba_d = b1;
    else if (is_mrs) ba_d = 2'b00;
    a_d = a_q;
    if (col_go)
      a_d = 13'({qcol_q[0], {WordsW{1'b0}}}) | ((phase_q && sub_q[0]) ? 13'(Bl) : 13'd0);
    else if (g_act0) a_d = qrow_q[0];
    else if (g_act1) a_d = qrow_q[1];
    else if (is_pre) a_d = 13'h000;
    else if (is_prea) a_d = 13'h400;
    else if (is_mrs) a_d = ModeReg;
  end

  // ---- Refresh timebase: one REF owed every TRefi cycles from the mode register set ----
  assign tick = run && refic_q == '0;
  always_comb begin
    refic_d = refic_q;
    if (run) refic_d = (refic_q == '0) ? RefiW'(TRefi - 1) : refic_q - RefiW'(1);
    owed_d = owed_q + 4'(tick) - 4'(is_ref && run);
  end

  // ---- Bank state and timers ----
  always_comb begin
    for (int b = 0; b < 4; b++) begin
      open_d[b] = act_on[b] ? 1'b1 : pre_on[b] ? 1'b0 : open_q[b];
      orow_d[b] = (act_on[b] && g_act0) ? qrow_q[0] : (act_on[b] && g_act1) ? qrow_q[1] : orow_q[b];
      actw_d[b] = tdec(actw_q[b]);
      prew_d[b] = tdec(prew_q[b]);
      colw_d[b] = tdec(colw_q[b]);
      if (act_on[b]) begin
        actw_d[b] = tmax(actw_d[b], TRc);
        prew_d[b] = tmax(prew_d[b], TRas);
        colw_d[b] = tmax(colw_d[b], TRcd);
      end
      if (pre_on[b]) actw_d[b] = tmax(actw_d[b], TRp);
      if (col_on[b]) prew_d[b] = tmax(prew_d[b], qwr_q[0] ? TWrPre : Bl);
    end
    rrdw_d = tdec(rrdw_q);
    allw_d = tdec(allw_q);
    rdw_d = tdec(rdw_q);
    wrw_d = tdec(wrw_q);
    if (is_act) rrdw_d = tmax(rrdw_d, TRrd);
    if (is_ref) allw_d = tmax(allw_d, TRfc);
    if (is_mrs) allw_d = tmax(allw_d, TMrd);
    if (is_rd) begin
      rdw_d = tmax(rdw_d, Bl);
      wrw_d = tmax(wrw_d, TRdWr);
    end
    if (is_wr) begin
      wrw_d = tmax(wrw_d, Bl);
      rdw_d = tmax(rdw_d, Bl);
    end
  end

  // Zero flags: a timer is zero next cycle if it is at most 1 now and no command reloads it.
  always_comb begin
    for (int b = 0; b < 4; b++) begin
      actz_d[b] = actw_q[b] <= TW'(1) && !(act_on[b] && TRc > 1) && !(pre_on[b] && TRp > 1);
      prez_d[b] = prew_q[b] <= TW'(1) && !(act_on[b] && TRas > 1) &&
                  !(col_on[b] && (qwr_q[0] ? TWrPre : Bl) > 1);
      colz_d[b] = colw_q[b] <= TW'(1) && !(act_on[b] && TRcd > 1);
    end
    rrdz_d = rrdw_q <= TW'(1) && !(is_act && TRrd > 1);
    allz_d = allw_q <= TW'(1) && !(is_ref && TRfc > 1) && !(is_mrs && TMrd > 1);
    rdz_d = rdw_q <= TW'(1) && !((is_rd || is_wr) && Bl > 1);
    wrz_d = wrw_q <= TW'(1) && !(is_wr && Bl > 1) && !(is_rd && TRdWr > 1);
  end

  // Row matches of the entries.
  logic [3:0] in_m;
  logic in_eq0, in_eq1;
  always_comb begin
    m_d[0] = m_q[0];
    m_d[1] = m_q[1];
    same_d = same_q;
    for (int b = 0; b < 4; b++) begin
      if (act_on[b]) begin
        m_d[0][b] = g_act0 ? 1'b1 : same_q;
        m_d[1][b] = g_act1 ? 1'b1 : same_q;
      end
    end
    if (pop) m_d[0] = m_q[1];  // no ACT in a cycle with a column command
    in_eq0 = in_row == qrow_q[0];
    in_eq1 = in_row == qrow_q[1];
    for (int b = 0; b < 4; b++)
      in_m[b] = act_on[b] ? (g_act1 ? in_eq1 : in_eq0) : (in_row == orow_q[b]);
    if (accept) begin
      if (into1) m_d[1] = in_m;
      else m_d[0] = in_m;
      same_d = pop ? in_eq1 : in_eq0;
    end
  end

  // ---- Queue ----
  logic into1;
  always_comb begin
    into1 = 1'b0;
    for (int i = 0; i < 2; i++) begin
      qv_d[i] = qv_q[i];
      qwr_d[i] = qwr_q[i];
      qba_d[i] = qba_q[i];
      qrow_d[i] = qrow_q[i];
      qcol_d[i] = qcol_q[i];
      qtag_d[i] = qtag_q[i];
      qwdata_d[i] = qwdata_q[i];
      qstrb_d[i] = qstrb_q[i];
      qact_d[i] = qact_q[i] | (is_act && (for1 == (i == 1)));
      qpre_d[i] = qpre_q[i] | (is_pre && (for1 == (i == 1)));
    end
    if (pop) begin
      qv_d[0] = qv_q[1];
      qwr_d[0] = qwr_q[1];
      qba_d[0] = qba_q[1];
      qrow_d[0] = qrow_q[1];
      qcol_d[0] = qcol_q[1];
      qtag_d[0] = qtag_q[1];
      qwdata_d[0] = qwdata_q[1];
      qstrb_d[0] = qstrb_q[1];
      qact_d[0] = qact_d[1];
      qpre_d[0] = qpre_d[1];
      qv_d[1] = 1'b0;
    end
    if (accept) begin
      // Into q0 when it is (or becomes) empty, else into q1.
      into1 = qv_d[0];
      for (int i = 0; i < 2; i++) begin
        if ((i == 1) == into1) begin
          qv_d[i] = 1'b1;
          qwr_d[i] = s_req_write_i;
          qba_d[i] = in_ba;
          qrow_d[i] = in_row;
          qcol_d[i] = in_col;
          qtag_d[i] = s_req_tag_i;
          qwdata_d[i] = s_req_wdata_i;
          qstrb_d[i] = s_req_wstrb_i;
          qact_d[i] = 1'b0;
          qpre_d[i] = 1'b0;
        end
      end
    end
  end

  // ---- Write data: word k of the beat is on the pins k cycles after the first WRITE ----
  always_comb begin
    wsr_d = wsr_q;
    wst_d = wst_q;
    wleft_d = wleft_q;
    dqo_d = dqo_q;
    dqm_d = 2'b00;
    oe_d = 1'b0;
    if (is_wr && !phase_q) begin
      dqo_d = qwdata_q[0][15:0];
      dqm_d = ~qstrb_q[0][1:0];
      oe_d = 1'b1;
      wsr_d = qwdata_q[0] >> 16;
      wst_d = qstrb_q[0] >> 2;
      wleft_d = (WordsW+1)'(Words - 1);
    end else if (wleft_q != '0) begin
      dqo_d = wsr_q[15:0];
      dqm_d = ~wst_q[1:0];
      oe_d = 1'b1;
      wsr_d = wsr_q >> 16;
      wst_d = wst_q >> 2;
      wleft_d = wleft_q - (WordsW+1)'(1);
    end
  end

  // ---- Read data: captured from the input register, one response per beat ----
  always_comb begin
    rdv_d = {rdv_q[CasLatency:0], is_rd};
    capl_d = capl_q;
    capw_d = capw_q;
    rsp_d = 1'b0;
    rtag_d = rtag_q;
    twp_d = twp_q + 2'(is_rd && !phase_q);
    trp_d = trp_q;
    cap = 1'b0;
    if (rdv_q[CasLatency+1]) begin
      cap = 1'b1;
      capl_d = 4'(Bl - 1);
    end else if (capl_q != '0) begin
      cap = 1'b1;
      capl_d = capl_q - 4'd1;
    end
    if (cap) begin
      capw_d = capw_q + WordsW'(1);
      if (capw_q == WordsW'(Words - 1)) begin
        rsp_d = 1'b1;
        rtag_d = tfifo_q[trp_q];
        trp_d = trp_q + 2'd1;
      end
    end
  end

  // ---- Counters (each at a constant position, so each is one adder) ----
  // The command events are counted a cycle late (through inc_q), which keeps the 32-bit
  // adders off the command decision's timing path.
  logic first_col, busy;
  logic [NumCnt-1:0] inc, inc_q;
  assign first_col = (is_rd || is_wr) && !phase_q;
  assign busy = qv_q[0] || rdv_q != '0 || capl_q != '0 || wleft_q != '0;
  always_comb begin
    inc = '0;
    inc[tpu_mem_pkg::CntReads] = first_col && is_rd;
    inc[tpu_mem_pkg::CntWrites] = first_col && is_wr;
    inc[tpu_mem_pkg::CntBytes] = first_col;
    inc[tpu_mem_pkg::CntHits] = first_col && !qpre_q[0] && !qact_q[0];
    inc[tpu_mem_pkg::CntMisses] = first_col && !qpre_q[0] && qact_q[0];
    inc[tpu_mem_pkg::CntConflicts] = first_col && qpre_q[0];
    inc[tpu_mem_pkg::CntRefreshes] = is_ref && run;
    for (int k = 0; k < NumCnt; k++) begin
      if (k == tpu_mem_pkg::CntBytes)
        cnt_d[k*CntWidth +: CntWidth] = cnt_q[k*CntWidth +: CntWidth] +
                                        (inc_q[k] ? CntWidth'(DataWidth / 8) : '0);
      else if (k == tpu_mem_pkg::CntBusy)
        cnt_d[k*CntWidth +: CntWidth] = cnt_q[k*CntWidth +: CntWidth] + CntWidth'(busy);
      else if (k == tpu_mem_pkg::CntIdle)
        cnt_d[k*CntWidth +: CntWidth] = cnt_q[k*CntWidth +: CntWidth] + CntWidth'(!busy);
      else
        cnt_d[k*CntWidth +: CntWidth] = cnt_q[k*CntWidth +: CntWidth] + CntWidth'(inc_q[k]);
    end
  end

  // ---- Registers ----
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int i = 0; i < 2; i++) begin
        qv_q[i] <= 1'b0;
        qwr_q[i] <= 1'b0;
        qba_q[i] <= 2'd0;
        qrow_q[i] <= '0;
        qact_q[i] <= 1'b0;
        qpre_q[i] <= 1'b0;
      end
      for (int b = 0; b < 4; b++) begin
        open_q[b] <= 1'b0;
        orow_q[b] <= '0;
        actw_q[b] <= '0;
        prew_q[b] <= '0;
        colw_q[b] <= '0;
      end
      rrdw_q <= '0;
      allw_q <= '0;
      rdw_q <= '0;
      wrw_q <= '0;
      for (int b = 0; b < 4; b++) begin
        actz_q[b] <= 1'b1;
        prez_q[b] <= 1'b1;
        colz_q[b] <= 1'b1;
      end
      rrdz_q <= 1'b1;
      allz_q <= 1'b1;
      rdz_q <= 1'b1;
      wrz_q <= 1'b1;
      m_q[0] <= '0;
      m_q[1] <= '0;
      same_q <= 1'b0;
      state_q <= SInitWait;
      initc_q <= InitW'(TInit);
      irefs_q <= '0;
      refic_q <= RefiW'(TRefi - 1);
      owed_q <= '0;
      ref_q <= 1'b0;
      phase_q <= 1'b0;
      sub_q <= '0;
      cke_q <= 1'b0;
      cmd_q <= CmdNop;
      ba_q <= '0;
      a_q <= '0;
      dqm_q <= 2'b11;
      oe_q <= 1'b0;
      wleft_q <= '0;
      rdv_q <= '0;
      capl_q <= '0;
      capw_q <= '0;
      rsp_q <= 1'b0;
      twp_q <= '0;
      trp_q <= '0;
      cnt_q <= '0;
      inc_q <= '0;
    end else begin
      for (int i = 0; i < 2; i++) begin
        qv_q[i] <= qv_d[i];
        qwr_q[i] <= qwr_d[i];
        qba_q[i] <= qba_d[i];
        qrow_q[i] <= qrow_d[i];
        qact_q[i] <= qact_d[i];
        qpre_q[i] <= qpre_d[i];
      end
      for (int b = 0; b < 4; b++) begin
        open_q[b] <= open_d[b];
        orow_q[b] <= orow_d[b];
        actw_q[b] <= actw_d[b];
        prew_q[b] <= prew_d[b];
        colw_q[b] <= colw_d[b];
      end
      rrdw_q <= rrdw_d;
      allw_q <= allw_d;
      rdw_q <= rdw_d;
      wrw_q <= wrw_d;
      for (int b = 0; b < 4; b++) begin
        actz_q[b] <= actz_d[b];
        prez_q[b] <= prez_d[b];
        colz_q[b] <= colz_d[b];
      end
      rrdz_q <= rrdz_d;
      allz_q <= allz_d;
      rdz_q <= rdz_d;
      wrz_q <= wrz_d;
      m_q[0] <= m_d[0];
      m_q[1] <= m_d[1];
      same_q <= same_d;
      state_q <= state_d;
      initc_q <= initc_d;
      irefs_q <= irefs_d;
      refic_q <= refic_d;
      owed_q <= owed_d;
      ref_q <= ref_d;
      phase_q <= phase_d;
      sub_q <= sub_d;
      cke_q <= 1'b1;
      cmd_q <= cmd_d;
      ba_q <= ba_d;
      a_q <= a_d;
      dqm_q <= dqm_d;
      oe_q <= oe_d;
      wleft_q <= wleft_d;
      rdv_q <= rdv_d;
      capl_q <= capl_d;
      capw_q <= capw_d;
      rsp_q <= rsp_d;
      twp_q <= twp_d;
      trp_q <= trp_d;
      cnt_q <= cnt_d;
      inc_q <= inc;
    end
  end

  // Datapath registers (not reset).
  always_ff @(posedge clk_i) begin
    for (int i = 0; i < 2; i++) begin
      qcol_q[i] <= qcol_d[i];
      qtag_q[i] <= qtag_d[i];
      qwdata_q[i] <= qwdata_d[i];
      qstrb_q[i] <= qstrb_d[i];
    end
    wsr_q <= wsr_d;
    wst_q <= wst_d;
    dqo_q <= dqo_d;
    dqi_q <= sdram_dq_i;
    rtag_q <= rtag_d;
    if (cap) rdata_q <= {dqi_q, rdata_q[DataWidth-1:16]};
    if (is_rd && !phase_q) tfifo_q[twp_q] <= qtag_q[0];
  end

  assign sdram_cke_o   = cke_q;
  assign {sdram_cs_no, sdram_ras_no, sdram_cas_no, sdram_we_no} = cmd_q;
  assign sdram_ba_o    = ba_q;
  assign sdram_a_o     = a_q;
  assign sdram_dqm_o   = dqm_q;
  assign sdram_dq_o    = dqo_q;
  assign sdram_dq_oe_o = oe_q;
  assign s_rsp_valid_o = rsp_q;
  assign s_rsp_tag_o   = rtag_q;
  assign s_rsp_rdata_o = rdata_q;
  assign cnt_o         = cnt_q;

  // Assertions
`ifndef SYNTHESIS
  initial begin
    if (DataWidth != 32 && DataWidth != 64 && DataWidth != 128 && DataWidth != 256)
      $fatal(1, "tpu_mem_sdram: DataWidth %0d is not 32, 64, 128 or 256", DataWidth);
    if (RowW < 1 || RowW > 13)
      $fatal(1, "tpu_mem_sdram: AddrW %0d outside %0d..%0d", AddrW, CB + 3, CB + 15);
    if (CasLatency != 2 && CasLatency != 3)
      $fatal(1, "tpu_mem_sdram: CasLatency %0d is not 2 or 3", CasLatency);
    if (InitRefs < 2 || InitRefs > 15)
      $fatal(1, "tpu_mem_sdram: InitRefs %0d outside 2..15", InitRefs);
    if (RefPostpone < 1 || RefPostpone > 8)
      $fatal(1, "tpu_mem_sdram: RefPostpone %0d outside 1..8", RefPostpone);
    if (ClkHz < 1000000 || ClkHz > 200000000)
      $fatal(1, "tpu_mem_sdram: ClkHz %0d outside 1 MHz..200 MHz", ClkHz);
    if (TRefi < 4 * TRfc)
      $fatal(1, "tpu_mem_sdram: TRefi %0d cycles too short for TRfc %0d", TRefi, TRfc);
  end
  // The zero flags and row matches agree with the counters and rows they stand for.
  always_ff @(posedge clk_i) begin
    if (state_q == SRun) begin
      for (int b = 0; b < 4; b++) begin
        if (actz_q[b] != (actw_q[b] == '0) || prez_q[b] != (prew_q[b] == '0) ||
            colz_q[b] != (colw_q[b] == '0))
          $fatal(1, "tpu_mem_sdram: bank %0d timer flags out of step", b);
      end
      if (rrdz_q != (rrdw_q == '0) || allz_q != (allw_q == '0) || rdz_q != (rdw_q == '0) ||
          wrz_q != (wrw_q == '0))
        $fatal(1, "tpu_mem_sdram: timer flags out of step");
      for (int i = 0; i < 2; i++) begin
        if (qv_q[i] && open_q[qba_q[i]] && m_q[i][qba_q[i]] != (orow_q[qba_q[i]] == qrow_q[i]))
          $fatal(1, "tpu_mem_sdram: row match of entry %0d out of step", i);
      end
    end
  end
`endif
endmodule
