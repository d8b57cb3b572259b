// SPDX-License-Identifier: Apache-2.0
// tpu_cpu: a small RV32I (optionally RV32IM) machine-mode core for FPGAs, with
// valid/ready instruction and data ports, precise traps, one external and one
// timer interrupt, and a retirement trace for verification.
`default_nettype none

module tpu_cpu #(
  parameter logic [31:0] BootAddr = 32'h0000_0000,  // first fetch; initial mtvec
  parameter int unsigned EnableM  = 0,              // 1: implement RV32M (iterative)
  parameter logic [31:0] HartId   = 32'd0,          // value of mhartid
  parameter int unsigned LutRam   = 0               // 1: register file in LUT RAM (ECP5)
) (
  input  logic        clk_i,
  input  logic        rst_ni,

  // Instruction port: one request outstanding at a time; the response comes
  // at least one cycle after the request is accepted.
  output logic        imem_req_valid_o,
  input  logic        imem_req_ready_i,
  output logic [31:0] imem_req_addr_o,    // word aligned
  input  logic        imem_rsp_valid_i,
  input  logic [31:0] imem_rsp_rdata_i,
  input  logic        imem_rsp_err_i,     // instruction access fault

  // Data port: same rules; stores get a response too (for the error flag).
  output logic        dmem_req_valid_o,
  input  logic        dmem_req_ready_i,
  output logic [31:0] dmem_req_addr_o,    // byte address, naturally aligned
  output logic        dmem_req_we_o,
  output logic [31:0] dmem_req_wdata_o,   // store data, replicated on every lane
  output logic [3:0]  dmem_req_wstrb_o,   // byte lanes accessed (loads too)
  input  logic        dmem_rsp_valid_i,
  input  logic [31:0] dmem_rsp_rdata_i,   // the whole aligned word
  input  logic        dmem_rsp_err_i,     // load/store access fault

  // Interrupts (level sensitive)
  input  logic        irq_i,              // machine external -> mip.MEIP
  input  logic        timer_irq_i,        // machine timer    -> mip.MTIP

  // Retirement trace: one record per retired or trapping instruction and per
  // interrupt taken.  For verification; leave unconnected in a design.
  output logic        trace_valid_o,
  output logic [31:0] trace_pc_o,
  output logic [31:0] trace_insn_o,
  output logic        trace_trap_o,       // exception or interrupt: nothing retired
  output logic [4:0]  trace_cause_o,      // {interrupt, code} when trace_trap_o
  output logic [4:0]  trace_rd_o,         // register written (0: none)
  output logic [31:0] trace_rd_wdata_o,
  output logic [31:0] trace_next_pc_o
);

  tpu_cpu_pkg::state_e state_d, state_q;
  logic [31:2] pc_d, pc_q;
  logic [31:0] ir_d, ir_q;
  logic        fetch_err_d, fetch_err_q;
  logic        take_irq_d, take_irq_q;
  logic        exc_static_d, exc_static_q;  // an exception known at decode
  logic [3:0]  irq_code_d, irq_code_q;
  logic [4:0]  cause_d, cause_q;
  logic        cnt_sel_d, cnt_sel_q;  // carry into minstreth (else mcycleh)

  // Decoded instruction: decoded as it arrives (ctl_f, imm_f) and registered
  // (ctl_q, imm_q, unpacked into dec_*), which keeps the decoder out of the
  // execute cycle's paths.
  localparam int CtlW = 23;
  logic [CtlW-1:0] ctl_f, ctl_d, ctl_q;
  logic [31:0] imm_f, imm_d, imm_q;
  logic        taken_d, taken_q;
  logic        dec_illegal;
  logic [3:0]  dec_alu_op;
  logic [1:0]  dec_op_a;
  logic        dec_op_b_imm;
  logic [31:0] dec_imm;
  logic        dec_rd_we;
  logic [1:0]  dec_wb_sel;
  logic        dec_branch, dec_jal, dec_jalr, dec_load, dec_store;
  logic        dec_csr, dec_csr_write, dec_ecall, dec_ebreak, dec_mret;
  logic        dec_shift, dec_muldiv;
  logic [2:0]  funct3;
  logic [4:0]  rd;

  // Datapath
  logic [31:0] pc, pc4;
  logic [31:0] rs1, rs2;
  // ALU control, registered: {from decoder, sub, op[2:0], op_a[1:0], op_b_imm}
  localparam int AlucW = 8;
  logic [AlucW-1:0] aluc_dec_f, aluc_dec_q, aluc_d, aluc_q;
  logic        alu_by_dec, alu_sub;
  logic [2:0]  alu_op;       // the ALU's Alu* codes are 3 bits
  logic [1:0]  op_a;
  logic        op_b_imm;
  logic [31:0] alu_a, alu_b, alu_result, alu_sum;
  logic        alu_eq, alu_lt, alu_ltu;
  logic        branch_taken;
  logic [31:0] target, wb_alu;
  logic        mem_misaligned;
  logic [1:0]  ea_lo;         // the execute cycle's target or address, low bits
  logic [15:0] load_shifted;
  logic [31:0] load_data;
  logic [2:0]  wb_src;
  logic [31:0] wb_other;

  // Control
  logic        exc;
  logic [4:0]  exc_cause;
  logic        tval_is_target;
  logic        finish, retire;
  logic [31:0] next_pc;
  logic        rf_re1, rf_re2;
  logic [5:0]  rf_raddr1, rf_raddr2;
  logic [31:0] fetched;
  logic [5:0]  fetched_csr_entry, csr_entry;
  logic        rf_we;
  logic [5:0]  rf_waddr;
  logic [31:0] rf_wdata;
  logic        csr_commit, csr_trap, csr_mret;
  logic        cnt_pending, cnt_minstret, cnt_done;
  logic        sh_start, sh_done;
  logic [31:0] sh_result;
  logic        md_start, md_done;
  logic [31:0] md_result;

  // CSR unit outputs
  logic        csr_in_ram;
  logic [31:0] csr_old, csr_new;
  logic        csr_ram_write;
  logic        csr_irq_pending;
  logic [3:0]  csr_irq_code;

  tpu_cpu_decode #(
    .EnableM(EnableM)
  ) u_decode (
    .insn_i      (fetched),
    .illegal_o   (ctl_f[21]),
    .alu_op_o    (ctl_f[20:17]),
    .op_a_o      (ctl_f[16:15]),
    .op_b_imm_o  (ctl_f[14]),
    .imm_o       (imm_f),
    .rd_we_o     (ctl_f[13]),
    .wb_sel_o    (ctl_f[12:11]),
    .branch_o    (ctl_f[10]),
    .jal_o       (ctl_f[9]),
    .jalr_o      (ctl_f[8]),
    .load_o      (ctl_f[7]),
    .store_o     (ctl_f[6]),
    .csr_o       (ctl_f[5]),
    .csr_write_o (ctl_f[4]),
    .ecall_o     (ctl_f[3]),
    .ebreak_o    (ctl_f[2]),
    .mret_o      (ctl_f[1]),
    .shift_o     (ctl_f[0]),
    .muldiv_o    (ctl_f[22])
  );

  assign {dec_muldiv, dec_illegal, dec_alu_op, dec_op_a, dec_op_b_imm, dec_rd_we, dec_wb_sel, dec_branch,
          dec_jal, dec_jalr, dec_load, dec_store, dec_csr, dec_csr_write, dec_ecall,
          dec_ebreak, dec_mret, dec_shift} = ctl_q;
  assign dec_imm = imm_q;

  assign funct3 = ir_q[14:12];
  assign rd     = ir_q[11:7];
  assign pc     = {pc_q, 2'b00};
  assign pc4    = pc + 32'd4;

  // Register file.  Both ports are read as the instruction arrives, so the
  // operands are ready in the execute cycle and stay put until the next
  // fetch.  For SYSTEM instructions port 2 reads the RAM-held CSR named in
  // the instruction instead (for MRET: mepc).  Trap entry re-reads it for
  // mtvec; a counter carry reads the high half (port 1) and the constant one
  // (port 2).  (Entry mapping: see tpu_cpu_pkg.)
  assign fetched           = imem_rsp_rdata_i;
  assign fetched_csr_entry = {3'b100, fetched[31],
                              fetched[31] ? {1'b0, fetched[21]}
                                          : (fetched[26] ? fetched[21:20]
                                                         : {fetched[20], !fetched[20]})};
  assign csr_entry         = {3'b100, ir_q[31],
                              ir_q[31] ? {1'b0, ir_q[21]}
                                       : (ir_q[26] ? ir_q[21:20] : {ir_q[20], !ir_q[20]})};
  assign rf_re1    = ((state_q == tpu_cpu_pkg::StDecode) && imem_rsp_valid_i) ||
                     (state_q == tpu_cpu_pkg::StCntRd);
  assign rf_re2    = rf_re1 || (state_q == tpu_cpu_pkg::StTrap);
  assign rf_raddr1 = (state_q == tpu_cpu_pkg::StCntRd)
                         ? (cnt_sel_q ? tpu_cpu_pkg::RfMinstreth : tpu_cpu_pkg::RfMcycleh)
                         : {1'b0, fetched[19:15]};
  always_comb begin
    if (state_q == tpu_cpu_pkg::StTrap) begin
      rf_raddr2 = tpu_cpu_pkg::RfMtvec;
    end else if (state_q == tpu_cpu_pkg::StCntRd) begin
      rf_raddr2 = tpu_cpu_pkg::RfOne;
    end else if (fetched[6:0] == tpu_cpu_pkg::OpSystem) begin
      rf_raddr2 = fetched_csr_entry;
    end else begin
      rf_raddr2 = {1'b0, fetched[24:20]};
    end
  end

  tpu_cpu_regfile #(
    .BootAddr(BootAddr),
    .LutRam  (LutRam)
  ) u_regfile (
    .clk_i    (clk_i),
    .re1_i    (rf_re1),
    .raddr1_i (rf_raddr1),
    .rdata1_o (rs1),
    .re2_i    (rf_re2),
    .raddr2_i (rf_raddr2),
    .rdata2_o (rs2),
    .we_i     (rf_we),
    .waddr_i  (rf_waddr),
    .wdata_i  (rf_wdata)
  );

  // ALU control: the decoder's, or for the cycles where the ALU serves the
  // control FSM:
  //  - branch, second cycle (and the trap entry after it): pc + imm;
  //  - trap entry: pc (for mepc), then the trap value or zero (for mtval);
  //  - counter carry: high half + the constant one.
  // It is chosen when entering a state and registered, so that neither the
  // decoder nor the FSM sits in front of the adder.
  function automatic logic [AlucW-1:0] aluc(input logic by_dec, input logic [3:0] op,
                                            input logic [1:0] a, input logic b_imm);
    aluc = {by_dec, op != tpu_cpu_pkg::AluAdd, op[2:0], a, b_imm};
  endfunction
  assign aluc_dec_f = aluc(1'b1, ctl_f[20:17], ctl_f[16:15], ctl_f[14]);
  assign aluc_dec_q = aluc(1'b1, dec_alu_op, dec_op_a, dec_op_b_imm);
  always_comb begin
    aluc_d = aluc_q;
    if (state_q == tpu_cpu_pkg::StDecode) begin
      aluc_d = aluc_dec_f;
    end else begin
      unique case (state_d)
        tpu_cpu_pkg::StBranch:
          aluc_d = aluc(1'b0, tpu_cpu_pkg::AluAdd, tpu_cpu_pkg::OpAPc, 1'b1);
        tpu_cpu_pkg::StTrap:
          aluc_d = aluc(1'b0, tpu_cpu_pkg::AluPassA, tpu_cpu_pkg::OpAPc, 1'b0);
        tpu_cpu_pkg::StTrapVal:
          aluc_d = !tval_is_target ? aluc(1'b0, tpu_cpu_pkg::AluPassA, tpu_cpu_pkg::OpAZero, 1'b0) :
                   dec_branch      ? aluc(1'b0, tpu_cpu_pkg::AluAdd, tpu_cpu_pkg::OpAPc, 1'b1) :
                                     aluc_dec_q;
        tpu_cpu_pkg::StCntWr:
          aluc_d = aluc(1'b0, tpu_cpu_pkg::AluAdd, tpu_cpu_pkg::OpARs1, 1'b0);
        default: ;
      endcase
    end
  end
  assign {alu_by_dec, alu_sub, alu_op, op_a, op_b_imm} = aluc_q;

  always_comb begin
    unique case (op_a)
      tpu_cpu_pkg::OpAPc:   alu_a = pc;
      tpu_cpu_pkg::OpAZero: alu_a = 32'd0;
      default:              alu_a = rs1;
    endcase
  end
  assign alu_b = op_b_imm ? dec_imm : rs2;

  tpu_cpu_alu u_alu (
    .op_i     (alu_op),
    .sub_i    (alu_sub),
    .a_i      (alu_a),
    .b_i      (alu_b),
    .result_o (alu_result),
    .sum_o    (alu_sum),
    .eq_o     (alu_eq),
    .lt_o     (alu_lt),
    .ltu_o    (alu_ltu)
  );

  // The adder output is the target of jal (pc + imm), jalr (rs1 + imm, bit 0
  // cleared) and taken branches (second cycle), and the address of loads and
  // stores; it is also the trap value of their faults.  The checks use the
  // adder's low bits, which come early out of the carry chain (the ALU
  // result's bit 0 can be an slt result, the end of the chain).
  assign branch_taken = (funct3[2] ? (funct3[1] ? alu_ltu : alu_lt) : alu_eq) ^ funct3[0];
  assign target       = {alu_sum[31:1], alu_sum[0] && !(dec_jalr && alu_by_dec)};
  assign wb_alu       = {alu_result[31:1], alu_result[0] && !(dec_jalr && alu_by_dec)};

  // The execute cycle's alignment checks take the low two bits of the target or address
  // (jal: pc + imm, pc word aligned; jalr, loads and stores: rs1 + imm) from the registered
  // operands, not from the ALU behind its operand multiplexers: they gate the register
  // file's write enable (asserted equal to alu_sum[1:0] below).
  assign ea_lo = (dec_jal ? 2'b00 : rs1[1:0]) + imm_q[1:0];

  // Loads and stores
  assign mem_misaligned = (funct3[1:0] == 2'b01 && ea_lo[0]) ||
                          (funct3[1:0] == 2'b10 && ea_lo != 2'b00);

  assign dmem_req_addr_o = alu_sum;
  assign dmem_req_we_o   = dec_store;
  always_comb begin
    unique case (funct3[1:0])
      2'b00: begin
        dmem_req_wdata_o = {4{rs2[7:0]}};
        dmem_req_wstrb_o = 4'b0001 << alu_sum[1:0];
      end
      2'b01: begin
        dmem_req_wdata_o = {2{rs2[15:0]}};
        dmem_req_wstrb_o = alu_sum[1] ? 4'b1100 : 4'b0011;
      end
      default: begin
        dmem_req_wdata_o = rs2;
        dmem_req_wstrb_o = 4'b1111;
      end
    endcase
  end

  assign load_shifted = 16'(dmem_rsp_rdata_i >> {alu_sum[1:0], 3'b000});
  always_comb begin
    unique case (funct3)
      3'b000:  load_data = {{24{load_shifted[7]}}, load_shifted[7:0]};
      3'b001:  load_data = {{16{load_shifted[15]}}, load_shifted[15:0]};
      3'b100:  load_data = {24'd0, load_shifted[7:0]};
      3'b101:  load_data = {16'd0, load_shifted[15:0]};
      default: load_data = dmem_rsp_rdata_i;
    endcase
  end

  // Register write data.  The source depends only on the state and the
  // registered decode, so the select is ready long before the data.
  localparam logic [2:0] SrcAlu = 3'd0, SrcPc4 = 3'd1, SrcCsrOld = 3'd2, SrcCsrNew = 3'd3,
                         SrcLoad = 3'd4, SrcUnit = 3'd5;
  always_comb begin
    unique case (state_q)
      tpu_cpu_pkg::StExec:
        wb_src = (dec_csr && csr_in_ram && dec_csr_write) ? SrcCsrNew :
                 (dec_wb_sel == tpu_cpu_pkg::WbPc4)       ? SrcPc4 :
                 (dec_wb_sel == tpu_cpu_pkg::WbCsr)       ? SrcCsrOld : SrcAlu;
      tpu_cpu_pkg::StCsr:   wb_src = SrcCsrOld;
      tpu_cpu_pkg::StMem:   wb_src = SrcLoad;
      tpu_cpu_pkg::StMulti: wb_src = SrcUnit;
      default:              wb_src = SrcAlu;  // trap entry, counter carry
    endcase
  end
  // The ALU result arrives last (after the carry chain), so it enters the
  // final 2:1 mux; the other sources are selected while it is computed.
  always_comb begin
    unique case (wb_src)
      SrcPc4:    wb_other = pc4;
      SrcCsrOld: wb_other = csr_old;
      SrcCsrNew: wb_other = csr_new;
      SrcLoad:   wb_other = load_data;
      default:   wb_other = dec_shift ? sh_result : md_result;
    endcase
  end
  assign rf_wdata = (wb_src == SrcAlu) ? wb_alu : wb_other;

  // Exceptions of the execute cycle.  Whether there is one: the ones known
  // at decode (registered) or a misaligned target or address (the adder's
  // low bits), so that the register file's write enable is a short path.
  // Which one, highest priority first (a pending interrupt, sampled when the
  // instruction arrived, pre-empts it): only the cause register needs it.
  assign exc = exc_static_q || ((dec_jal || dec_jalr) && ea_lo[1]) ||
               ((dec_load || dec_store) && mem_misaligned);
  always_comb begin
    exc_cause = {1'b0, tpu_cpu_pkg::ExcIllegalInsn};
    if (take_irq_q) begin
      exc_cause = {1'b1, irq_code_q};
    end else if (fetch_err_q) begin
      exc_cause = {1'b0, tpu_cpu_pkg::ExcInsnAccessFault};
    end else if (dec_illegal) begin
      exc_cause = {1'b0, tpu_cpu_pkg::ExcIllegalInsn};
    end else if (dec_ecall) begin
      exc_cause = {1'b0, tpu_cpu_pkg::ExcEcallM};
    end else if (dec_ebreak) begin
      exc_cause = {1'b0, tpu_cpu_pkg::ExcBreakpoint};
    end else if ((dec_jal || dec_jalr) && ea_lo[1]) begin
      exc_cause = {1'b0, tpu_cpu_pkg::ExcInsnMisaligned};
    end else if (dec_load && mem_misaligned) begin
      exc_cause = {1'b0, tpu_cpu_pkg::ExcLoadMisaligned};
    end else begin
      exc_cause = {1'b0, tpu_cpu_pkg::ExcStoreMisaligned};
    end
  end

  // mtval: the faulting address for misaligned jumps and misaligned or
  // faulting loads and stores (causes 0 and 4-7), zero for everything else.
  assign tval_is_target = !cause_q[4] &&
                          (cause_q[3:0] == tpu_cpu_pkg::ExcInsnMisaligned || cause_q[3:2] == 2'b01);

  // Control FSM
  always_comb begin
    state_d     = state_q;
    pc_d        = pc_q;
    ir_d        = ir_q;
    ctl_d       = ctl_q;
    imm_d       = imm_q;
    taken_d     = (state_q == tpu_cpu_pkg::StExec) ? branch_taken : taken_q;
    fetch_err_d = fetch_err_q;
    take_irq_d  = take_irq_q;
    exc_static_d = exc_static_q;
    irq_code_d  = irq_code_q;
    cause_d     = cause_q;
    cnt_sel_d   = cnt_sel_q;

    imem_req_valid_o = 1'b0;
    imem_req_addr_o  = pc;
    dmem_req_valid_o = 1'b0;
    finish     = 1'b0;
    retire     = 1'b0;
    next_pc    = pc4;
    rf_we      = 1'b0;
    rf_waddr   = {1'b0, rd};
    csr_commit = 1'b0;
    csr_trap   = 1'b0;
    csr_mret   = 1'b0;
    csr_ram_write = 1'b0;
    cnt_done   = 1'b0;
    sh_start   = 1'b0;
    md_start   = 1'b0;

    unique case (state_q)
      tpu_cpu_pkg::StFetch: begin
        imem_req_valid_o = 1'b1;
        if (imem_req_ready_i) begin
          state_d = tpu_cpu_pkg::StDecode;
        end
      end

      tpu_cpu_pkg::StDecode: begin
        if (imem_rsp_valid_i) begin
          ir_d        = fetched;
          ctl_d       = ctl_f;
          imm_d       = imm_f;
          fetch_err_d = imem_rsp_err_i;
          take_irq_d  = csr_irq_pending;
          irq_code_d  = csr_irq_code;
          // illegal, ecall, ebreak (ctl_f[21], [3], [2]), fetch fault, interrupt
          exc_static_d = csr_irq_pending || imem_rsp_err_i || ctl_f[21] || ctl_f[3] || ctl_f[2];
          state_d     = tpu_cpu_pkg::StExec;
        end
      end

      tpu_cpu_pkg::StExec: begin
        if (exc) begin
          cause_d = exc_cause;
          state_d = tpu_cpu_pkg::StTrap;
        end else if (dec_load || dec_store) begin
          dmem_req_valid_o = 1'b1;
          if (dmem_req_ready_i) begin
            state_d = tpu_cpu_pkg::StMem;
          end
        end else if (dec_branch) begin
          state_d = tpu_cpu_pkg::StBranch;
        end else if (dec_shift) begin
          sh_start = 1'b1;
          state_d  = tpu_cpu_pkg::StMulti;
        end else if (dec_muldiv) begin
          md_start = 1'b1;
          state_d  = tpu_cpu_pkg::StMulti;
        end else if (dec_csr && csr_in_ram && dec_csr_write) begin
          // Write the new CSR value now, the old one to rd in StCsr.
          csr_ram_write = 1'b1;
          rf_we    = 1'b1;
          rf_waddr = csr_entry;
          state_d  = tpu_cpu_pkg::StCsr;
        end else begin
          finish     = 1'b1;
          retire     = 1'b1;
          rf_we      = dec_rd_we;
          csr_commit = dec_csr;
          csr_mret   = dec_mret;
          if (dec_mret) begin
            next_pc = rs2;  // mepc, read in the decode cycle
          end else if (dec_jal || dec_jalr) begin
            next_pc = target;
          end
        end
      end

      tpu_cpu_pkg::StMem: begin
        if (dmem_rsp_valid_i) begin
          if (dmem_rsp_err_i) begin
            cause_d = {1'b0, dec_load ? tpu_cpu_pkg::ExcLoadAccessFault
                                      : tpu_cpu_pkg::ExcStoreAccessFault};
            state_d = tpu_cpu_pkg::StTrap;
          end else begin
            finish = 1'b1;
            retire = 1'b1;
            rf_we  = dec_load;
          end
        end
      end

      tpu_cpu_pkg::StBranch: begin
        if (taken_q && target[1]) begin
          cause_d = {1'b0, tpu_cpu_pkg::ExcInsnMisaligned};
          state_d = tpu_cpu_pkg::StTrap;
        end else begin
          finish  = 1'b1;
          retire  = 1'b1;
          next_pc = taken_q ? target : pc4;
        end
      end

      tpu_cpu_pkg::StMulti: begin
        if (sh_done || md_done) begin
          finish = 1'b1;
          retire = 1'b1;
          rf_we  = 1'b1;
        end
      end

      tpu_cpu_pkg::StCsr: begin
        finish = 1'b1;
        retire = 1'b1;
        rf_we  = 1'b1;
      end

      tpu_cpu_pkg::StTrap: begin
        csr_trap = 1'b1;
        rf_we    = 1'b1;
        rf_waddr = tpu_cpu_pkg::RfMepc;  // <- pc (ALU)
        state_d  = tpu_cpu_pkg::StTrapVal;
      end

      tpu_cpu_pkg::StTrapVal: begin
        finish   = 1'b1;
        next_pc  = rs2;  // mtvec, read in StTrap
        rf_we    = 1'b1;
        rf_waddr = tpu_cpu_pkg::RfMtval;  // <- trap value or zero (ALU)
      end

      tpu_cpu_pkg::StCntRd: begin
        state_d = tpu_cpu_pkg::StCntWr;
      end

      tpu_cpu_pkg::StCntWr: begin
        cnt_done = 1'b1;
        rf_we    = 1'b1;
        rf_waddr = cnt_sel_q ? tpu_cpu_pkg::RfMinstreth : tpu_cpu_pkg::RfMcycleh;  // <- + 1 (ALU)
        state_d  = tpu_cpu_pkg::StFetch;
      end

      default: state_d = tpu_cpu_pkg::StFetch;
    endcase

    // Every instruction ends by requesting the next one in the same cycle;
    // if the port is busy, StFetch keeps the request up.  A carry out of a
    // counter's low half is added to its high half first (rare: every 2^32
    // cycles or instructions, or after software wrote a low half).
    if (finish) begin
      pc_d = next_pc[31:2];
      if (cnt_pending) begin
        cnt_sel_d = cnt_minstret;
        state_d   = tpu_cpu_pkg::StCntRd;
      end else begin
        imem_req_valid_o = 1'b1;
        imem_req_addr_o  = next_pc;
        state_d          = imem_req_ready_i ? tpu_cpu_pkg::StDecode : tpu_cpu_pkg::StFetch;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q     <= tpu_cpu_pkg::StFetch;
      pc_q        <= BootAddr[31:2];
      fetch_err_q <= 1'b0;
      take_irq_q  <= 1'b0;
      exc_static_q <= 1'b0;
    end else begin
      state_q     <= state_d;
      pc_q        <= pc_d;
      fetch_err_q <= fetch_err_d;
      take_irq_q  <= take_irq_d;
      exc_static_q <= exc_static_d;
    end
  end

  // Datapath registers: not reset.
  always_ff @(posedge clk_i) begin
    ir_q       <= ir_d;
    ctl_q      <= ctl_d;
    aluc_q     <= aluc_d;
    imm_q      <= imm_d;
    taken_q    <= taken_d;
    irq_code_q <= irq_code_d;
    cause_q    <= cause_d;
    cnt_sel_q  <= cnt_sel_d;
  end

  tpu_cpu_csr #(
    .EnableM(EnableM),
    .HartId (HartId)
  ) u_csr (
    .clk_i         (clk_i),
    .rst_ni        (rst_ni),
    .addr_i        (ir_q[31:20]),
    .write_i       (dec_csr_write),
    .op_i          (funct3[1:0]),
    .src_i         (funct3[2] ? {27'd0, ir_q[19:15]} : rs1),
    .ram_rdata_i   (rs2),
    .in_ram_o      (csr_in_ram),
    .old_o         (csr_old),
    .new_o         (csr_new),
    .commit_i      (csr_commit),
    .trap_i        (csr_trap),
    .trap_cause_i  (cause_q),
    .mret_i        (csr_mret),
    .irq_ext_i     (irq_i),
    .irq_timer_i   (timer_irq_i),
    .irq_pending_o (csr_irq_pending),
    .irq_code_o    (csr_irq_code),
    .retire_i      (retire),
    .ram_write_i   (csr_ram_write),
    .cnt_pending_o (cnt_pending),
    .cnt_minstret_o(cnt_minstret),
    .cnt_done_i    (cnt_done)
  );

  tpu_cpu_shift u_shift (
    .clk_i    (clk_i),
    .rst_ni   (rst_ni),
    .start_i  (sh_start),
    .left_i   (dec_alu_op == tpu_cpu_pkg::AluSll),
    .arith_i  (dec_alu_op == tpu_cpu_pkg::AluSra),
    .a_i      (rs1),
    .amount_i (alu_b[4:0]),
    .done_o   (sh_done),
    .result_o (sh_result)
  );

  if (EnableM != 0) begin : g_muldiv
    logic md_busy_unused;
    tpu_cpu_muldiv u_muldiv (
      .clk_i    (clk_i),
      .rst_ni   (rst_ni),
      .start_i  (md_start),
      .op_i     (funct3),
      .a_i      (rs1),
      .b_i      (rs2),
      .busy_o   (md_busy_unused),
      .done_o   (md_done),
      .result_o (md_result)
    );
  end else begin : g_no_muldiv
    logic unused_md_start;
    assign unused_md_start = md_start;
    assign md_done   = 1'b0;
    assign md_result = 32'd0;
  end

  // Retirement trace
  assign trace_valid_o    = finish;
  assign trace_pc_o       = pc;
  assign trace_insn_o     = ir_q;
  assign trace_trap_o     = (state_q == tpu_cpu_pkg::StTrapVal);
  assign trace_cause_o    = trace_trap_o ? cause_q : 5'd0;
  assign trace_rd_o       = (finish && rf_we && !rf_waddr[5]) ? rf_waddr[4:0] : 5'd0;
  assign trace_rd_wdata_o = (trace_rd_o != 5'd0) ? rf_wdata : 32'd0;
  assign trace_next_pc_o  = next_pc;

  // Assertions
`ifndef SYNTHESIS
  logic        imem_stall_q, dmem_stall_q;
  logic [31:0] imem_addr_q, dmem_addr_q;
  always_ff @(posedge clk_i) begin
    imem_stall_q <= imem_req_valid_o && !imem_req_ready_i;
    dmem_stall_q <= dmem_req_valid_o && !dmem_req_ready_i;
    imem_addr_q  <= imem_req_addr_o;
    dmem_addr_q  <= dmem_req_addr_o;
  end
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      assert (!imem_rsp_valid_i || state_q == tpu_cpu_pkg::StDecode)
        else $error("tpu_cpu: instruction response without an outstanding request");
      assert (!dmem_rsp_valid_i || state_q == tpu_cpu_pkg::StMem)
        else $error("tpu_cpu: data response without an outstanding request");
      assert (!imem_stall_q || (imem_req_valid_o && imem_req_addr_o == imem_addr_q))
        else $error("tpu_cpu: fetch request dropped or changed before it was accepted");
      assert (!dmem_stall_q || (dmem_req_valid_o && dmem_req_addr_o == dmem_addr_q))
        else $error("tpu_cpu: data request dropped or changed before it was accepted");
      assert (!finish || next_pc[1:0] == 2'b00) else $error("tpu_cpu: misaligned next pc");
      assert (!(state_q == tpu_cpu_pkg::StExec && (dec_jal || dec_jalr || dec_load || dec_store)) ||
              ea_lo == alu_sum[1:0])
        else $error("tpu_cpu: execute-cycle low bits %0d, adder %0d", ea_lo, alu_sum[1:0]);
      assert (!cnt_done || cnt_sel_q == cnt_minstret)
        else $error("tpu_cpu: counter carry added to the wrong high half");
    end
  end
  initial begin
    assert (BootAddr[1:0] == 2'b00) else $fatal(1, "tpu_cpu: BootAddr must be word aligned");
    assert (EnableM <= 1) else $fatal(1, "tpu_cpu: EnableM must be 0 or 1");
    assert (LutRam <= 1) else $fatal(1, "tpu_cpu: LutRam must be 0 or 1");
  end
`endif

endmodule
