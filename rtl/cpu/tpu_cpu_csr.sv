// SPDX-License-Identifier: Apache-2.0
// Machine-mode CSRs of the RV32 core: status, trap vector and trap state,
// interrupt enable/pending, the 64-bit cycle and retired-instruction counters
// and the read-only identification registers.
`default_nettype none

module tpu_cpu_csr #(
  parameter logic [31:0] BootAddr = 32'h0000_0000,  // mtvec after reset
  parameter int unsigned EnableM  = 0,              // 1: M reported in misa
  parameter logic [31:0] HartId   = 32'd0           // mhartid
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  // CSR instruction: the address is decoded combinationally in the execute
  // cycle; the read-modify-write happens on the edge that ends it, when
  // commit_i is high.
  input  logic [11:0] addr_i,
  input  logic        write_i,      // the instruction writes the CSR
  output logic        illegal_o,    // no such CSR, or a write to a read-only one
  output logic [31:0] rdata_o,      // value before the access (goes to rd)
  input  logic        commit_i,
  input  logic [1:0]  op_i,         // tpu_cpu_pkg::CsrOp*
  input  logic [31:0] src_i,        // rs1 value or the zero-extended uimm
  // Trap entry and return (never in the same cycle as commit_i).
  input  logic        trap_i,
  input  logic [4:0]  trap_cause_i,  // {interrupt, code}
  input  logic [31:2] trap_pc_i,
  input  logic [31:0] trap_tval_i,
  input  logic        mret_i,
  output logic [31:0] mtvec_o,
  output logic [31:0] mepc_o,
  // Interrupts: mip.MEIP and mip.MTIP follow the inputs.
  input  logic        irq_ext_i,
  input  logic        irq_timer_i,
  output logic        irq_pending_o,  // an enabled interrupt is pending
  output logic [3:0]  irq_code_o,     // its cause code (external before timer)
  // Counters
  input  logic        retire_i        // an instruction retires this cycle
);

  localparam logic [31:0] Misa = 32'h4000_0100 | (EnableM != 0 ? 32'h0000_1000 : 32'd0);

  logic        mstatus_mie_d, mstatus_mie_q;
  logic        mstatus_mpie_d, mstatus_mpie_q;
  logic        mie_meie_d, mie_meie_q;
  logic        mie_mtie_d, mie_mtie_q;
  logic [29:0] mtvec_d, mtvec_q;
  logic [31:0] mscratch_d, mscratch_q;
  logic [29:0] mepc_d, mepc_q;
  logic        mcause_int_d, mcause_int_q;
  logic [3:0]  mcause_code_d, mcause_code_q;
  logic [31:0] mtval_d, mtval_q;
  logic [63:0] mcycle_d, mcycle_q;
  logic [63:0] minstret_d, minstret_q;

  logic        exists;
  logic        sel_cnt, sel_id, sel_trap, sel_base;
  logic [31:0] wdata;
  logic        we;

  // Read.  The implemented addresses differ in a few bits, and an address
  // that is not implemented traps (illegal_o) before its value or a write
  // matters, so the data path decodes only those bits; `exists` decodes all.
  always_comb begin
    unique case (addr_i)
      tpu_cpu_pkg::CsrMstatus, tpu_cpu_pkg::CsrMisa, tpu_cpu_pkg::CsrMie,
      tpu_cpu_pkg::CsrMtvec, tpu_cpu_pkg::CsrMstatush, tpu_cpu_pkg::CsrMscratch,
      tpu_cpu_pkg::CsrMepc, tpu_cpu_pkg::CsrMcause, tpu_cpu_pkg::CsrMtval,
      tpu_cpu_pkg::CsrMip, tpu_cpu_pkg::CsrMcycle, tpu_cpu_pkg::CsrMinstret,
      tpu_cpu_pkg::CsrMcycleh, tpu_cpu_pkg::CsrMinstreth, tpu_cpu_pkg::CsrCycle,
      tpu_cpu_pkg::CsrInstret, tpu_cpu_pkg::CsrCycleh, tpu_cpu_pkg::CsrInstreth,
      tpu_cpu_pkg::CsrMvendorid, tpu_cpu_pkg::CsrMarchid, tpu_cpu_pkg::CsrMimpid,
      tpu_cpu_pkg::CsrMhartid: exists = 1'b1;
      default:                 exists = 1'b0;
    endcase
  end

  // Partial decode: 0xB00-0xC82 counters (bit 1: instret, bit 7: high
  // half), 0xF11-0xF14 identification, 0x340-0x344 trap state, 0x300-0x310.
  assign sel_cnt  = addr_i[11] && !(addr_i[10] && addr_i[9]);
  assign sel_id   = addr_i[11] && addr_i[10] && addr_i[9];
  assign sel_trap = !addr_i[11] && addr_i[6];
  assign sel_base = !addr_i[11] && !addr_i[6] && !addr_i[4];
  always_comb begin
    rdata_o = 32'd0;
    if (sel_cnt) begin
      unique case ({addr_i[1], addr_i[7]})
        2'b00:   rdata_o = mcycle_q[31:0];
        2'b01:   rdata_o = mcycle_q[63:32];
        2'b10:   rdata_o = minstret_q[31:0];
        default: rdata_o = minstret_q[63:32];
      endcase
    end else if (sel_id) begin
      rdata_o = addr_i[2] ? HartId : 32'd0;
    end else if (sel_trap) begin
      unique case (addr_i[2:0])
        3'd0:    rdata_o = mscratch_q;
        3'd1:    rdata_o = {mepc_q, 2'b00};
        3'd2:    rdata_o = {mcause_int_q, 27'd0, mcause_code_q};
        3'd3:    rdata_o = mtval_q;
        default: rdata_o = {20'd0, irq_ext_i, 3'd0, irq_timer_i, 7'd0};
      endcase
    end else if (sel_base) begin
      unique case (addr_i[2:0])
        3'd0:    rdata_o = {19'd0, 2'b11, 3'd0, mstatus_mpie_q, 3'd0, mstatus_mie_q, 3'd0};
        3'd1:    rdata_o = Misa;
        3'd4:    rdata_o = {20'd0, mie_meie_q, 3'd0, mie_mtie_q, 7'd0};
        default: rdata_o = {mtvec_q, 2'b00};
      endcase
    end
  end

  // Addresses 0xC00-0xFFF are read-only by the CSR numbering convention.
  assign illegal_o = !exists || (write_i && addr_i[11:10] == 2'b11);

  always_comb begin
    unique case (op_i)
      tpu_cpu_pkg::CsrOpSet:   wdata = rdata_o | src_i;
      tpu_cpu_pkg::CsrOpClear: wdata = rdata_o & ~src_i;
      default:                 wdata = src_i;
    endcase
  end
  assign we = commit_i && write_i;

  // Write, trap entry, mret and the counters.  A CSR write takes precedence
  // over the counter increment of the same cycle, so the next instruction
  // reads the value written.
  always_comb begin
    mstatus_mie_d  = mstatus_mie_q;
    mstatus_mpie_d = mstatus_mpie_q;
    mie_meie_d     = mie_meie_q;
    mie_mtie_d     = mie_mtie_q;
    mtvec_d        = mtvec_q;
    mscratch_d     = mscratch_q;
    mepc_d         = mepc_q;
    mcause_int_d   = mcause_int_q;
    mcause_code_d  = mcause_code_q;
    mtval_d        = mtval_q;
    mcycle_d       = mcycle_q + 64'd1;
    minstret_d     = minstret_q + {63'd0, retire_i};

    if (we && sel_cnt) begin
      unique case ({addr_i[1], addr_i[7]})
        2'b00:   mcycle_d   = {mcycle_q[63:32], wdata};
        2'b01:   mcycle_d   = {wdata, mcycle_q[31:0]};
        2'b10:   minstret_d = {minstret_q[63:32], wdata};
        default: minstret_d = {wdata, minstret_q[31:0]};
      endcase
    end
    if (we && sel_trap) begin
      unique case (addr_i[2:0])
        3'd0: mscratch_d = wdata;
        3'd1: mepc_d     = wdata[31:2];
        3'd2: begin
          mcause_int_d  = wdata[31];
          mcause_code_d = wdata[3:0];
        end
        3'd3: mtval_d    = wdata;
        default: ;  // mip: read-only bits
      endcase
    end
    if (we && sel_base) begin
      unique case (addr_i[2:0])
        3'd0: begin
          mstatus_mie_d  = wdata[3];
          mstatus_mpie_d = wdata[7];
        end
        3'd4: begin
          mie_meie_d = wdata[11];
          mie_mtie_d = wdata[7];
        end
        3'd5: mtvec_d = wdata[31:2];
        default: ;  // misa: WARL, writes ignored
      endcase
    end

    if (trap_i) begin
      mepc_d         = trap_pc_i;
      mcause_int_d   = trap_cause_i[4];
      mcause_code_d  = trap_cause_i[3:0];
      mtval_d        = trap_tval_i;
      mstatus_mpie_d = mstatus_mie_q;
      mstatus_mie_d  = 1'b0;
    end else if (mret_i) begin
      mstatus_mie_d  = mstatus_mpie_q;
      mstatus_mpie_d = 1'b1;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      mstatus_mie_q  <= 1'b0;
      mstatus_mpie_q <= 1'b0;
      mie_meie_q     <= 1'b0;
      mie_mtie_q     <= 1'b0;
      mtvec_q        <= BootAddr[31:2];
      mscratch_q     <= 32'd0;
      mepc_q         <= 30'd0;
      mcause_int_q   <= 1'b0;
      mcause_code_q  <= 4'd0;
      mtval_q        <= 32'd0;
      mcycle_q       <= 64'd0;
      minstret_q     <= 64'd0;
    end else begin
      mstatus_mie_q  <= mstatus_mie_d;
      mstatus_mpie_q <= mstatus_mpie_d;
      mie_meie_q     <= mie_meie_d;
      mie_mtie_q     <= mie_mtie_d;
      mtvec_q        <= mtvec_d;
      mscratch_q     <= mscratch_d;
      mepc_q         <= mepc_d;
      mcause_int_q   <= mcause_int_d;
      mcause_code_q  <= mcause_code_d;
      mtval_q        <= mtval_d;
      mcycle_q       <= mcycle_d;
      minstret_q     <= minstret_d;
    end
  end

  assign mtvec_o = {mtvec_q, 2'b00};
  assign mepc_o  = {mepc_q, 2'b00};

  assign irq_pending_o = mstatus_mie_q &&
                         ((mie_meie_q && irq_ext_i) || (mie_mtie_q && irq_timer_i));
  assign irq_code_o    = (mie_meie_q && irq_ext_i) ? tpu_cpu_pkg::IrqExternal
                                                   : tpu_cpu_pkg::IrqTimer;

  // Assertions
`ifndef SYNTHESIS
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      assert (!(trap_i && (commit_i || mret_i)))
        else $error("tpu_cpu_csr: trap in the same cycle as a CSR access or mret");
    end
  end
`endif

endmodule
