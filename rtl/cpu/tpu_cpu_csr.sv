// SPDX-License-Identifier: Apache-2.0
// Machine-mode CSRs of the RV32 core: address decode and read-modify-write of
// every CSR instruction, and the CSRs kept in flip-flops: mstatus, mie, mip,
// mcause, the low halves of mcycle/minstret and the read-only ones.
// mscratch, mepc, mtvec, mtval and the counters' high halves live in the
// register file (tpu_cpu_regfile); a carry out of a low half is left pending
// here until the core adds it to the high half (before the next instruction).
`default_nettype none

module tpu_cpu_csr #(
  parameter int unsigned EnableM = 0,        // 1: M reported in misa
  parameter logic [31:0] HartId  = 32'd0     // mhartid
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  // CSR instruction (legal: the decoder checks the address), decoded in the
  // execute cycle.  old_o/new_o are the values before and after the
  // instruction; flip-flop CSRs are written on the edge that ends the cycle
  // with commit_i high, RAM CSRs by the core.
  input  logic [11:0] addr_i,
  input  logic        write_i,      // the instruction writes the CSR
  input  logic [1:0]  op_i,         // tpu_cpu_pkg::CsrOp*
  input  logic [31:0] src_i,        // rs1 value or the zero-extended uimm
  input  logic [31:0] ram_rdata_i,  // the RAM CSR, read in the decode cycle
  output logic        in_ram_o,     // the CSR lives in the register file
  output logic [31:0] old_o,
  output logic [31:0] new_o,
  input  logic        commit_i,
  // Trap entry (mcause, mstatus) and return (mstatus).
  input  logic        trap_i,
  input  logic [4:0]  trap_cause_i,  // {interrupt, code}
  input  logic        mret_i,
  // Interrupts: mip.MEIP and mip.MTIP follow the inputs.
  input  logic        irq_ext_i,
  input  logic        irq_timer_i,
  output logic        irq_pending_o,  // an enabled interrupt is pending
  output logic [3:0]  irq_code_o,     // its cause code (external before timer)
  // Counters
  input  logic        retire_i,       // an instruction retires this cycle
  input  logic        ram_write_i,    // the core writes new_o to the RAM CSR
  output logic        cnt_pending_o,  // a carry into mcycleh/minstreth is due
  output logic        cnt_minstret_o, // ... for minstreth (else mcycleh)
  input  logic        cnt_done_i      // the core added the carry of cnt_minstret_o
);

  localparam logic [31:0] Misa = 32'h4000_0100 | (EnableM != 0 ? 32'h0000_1000 : 32'd0);

  logic        mstatus_mie_d, mstatus_mie_q;
  logic        mstatus_mpie_d, mstatus_mpie_q;
  logic        mie_meie_d, mie_meie_q;
  logic        mie_mtie_d, mie_mtie_q;
  logic        mcause_int_d, mcause_int_q;
  logic [3:0]  mcause_code_d, mcause_code_q;
  logic [31:0] mcycle_d, mcycle_q;        // low halves
  logic [31:0] minstret_d, minstret_q;
  logic        mcycle_pend_d, mcycle_pend_q;
  logic        minstret_pend_d, minstret_pend_q;
  logic        mcycle_wrap, minstret_wrap;
  logic        instret_written;
  logic        count_d, count_q;   // retire, registered: off the critical path

  logic        sel_cnt, sel_id, sel_trap, sel_base;
  logic        we;

  // The implemented addresses differ in a few bits, and an address that is
  // not implemented traps before its value or a write matters, so the data
  // path decodes only those bits: 0xB00-0xC82 counters (bit 1:
  // instret, bit 7: high half), 0xF11-0xF14 identification, 0x340-0x344 trap
  // state, 0x300-0x305 status (0x310 mstatush reads as zero).
  assign sel_cnt  = addr_i[11] && !(addr_i[10] && addr_i[9]);
  assign sel_id   = addr_i[11] && addr_i[10] && addr_i[9];
  assign sel_trap = !addr_i[11] && addr_i[6];
  assign sel_base = !addr_i[11] && !addr_i[6] && !addr_i[4];
  assign in_ram_o = (sel_trap && addr_i[2:0] != 3'd2 && addr_i[2:0] != 3'd4) ||
                    (sel_base && addr_i[2:0] == 3'd5) || (sel_cnt && addr_i[7]);

  always_comb begin
    old_o = 32'd0;
    if (in_ram_o) begin
      old_o = ram_rdata_i;
    end else if (sel_cnt) begin
      old_o = addr_i[1] ? minstret_q : mcycle_q;
    end else if (sel_id) begin
      old_o = addr_i[2] ? HartId : 32'd0;
    end else if (sel_trap) begin
      old_o = addr_i[2] ? {20'd0, irq_ext_i, 3'd0, irq_timer_i, 7'd0}   // mip
                        : {mcause_int_q, 27'd0, mcause_code_q};          // mcause
    end else if (sel_base) begin
      unique case (addr_i[2:0])
        3'd0:    old_o = {19'd0, 2'b11, 3'd0, mstatus_mpie_q, 3'd0, mstatus_mie_q, 3'd0};
        3'd1:    old_o = Misa;
        default: old_o = {20'd0, mie_meie_q, 3'd0, mie_mtie_q, 7'd0};  // mie
      endcase
    end
  end

  always_comb begin
    unique case (op_i)
      tpu_cpu_pkg::CsrOpSet:   new_o = old_o | src_i;
      tpu_cpu_pkg::CsrOpClear: new_o = old_o & ~src_i;
      default:                 new_o = src_i;
    endcase
    // mepc and mtvec (direct mode only) keep their two low bits zero.
    if (!addr_i[11] && in_ram_o && (!addr_i[6] || addr_i[1:0] == 2'b01)) begin
      new_o[1:0] = 2'b00;
    end
  end

  assign we = commit_i && write_i;

  // Write, trap entry, mret and the counters.  A CSR write takes precedence
  // over the counter increment of the same cycle, so the next instruction
  // reads the value written; an instruction that writes either half of
  // minstret does not count itself.
  // The increment of minstret comes one cycle after the retirement, which
  // is still before the next instruction executes (two cycles at least);
  // a wrap is signalled at the retirement, so the core can add the carry
  // into minstreth before the next instruction too.
  assign instret_written = write_i && sel_cnt && addr_i[1];
  assign count_d         = retire_i && !instret_written;
  // The all-ones compares of the low halves are made on their next values and registered
  // (*_ones_q), so that a wrap is one gate after the retirement: the core's next fetch
  // request waits for cnt_pending_o (the ULX3S's timing, docs/cpu.md).
  logic mcycle_ones_q, minstret_ones_q;
  assign mcycle_wrap   = mcycle_ones_q && !(we && sel_cnt && !addr_i[1] && !addr_i[7]);
  assign minstret_wrap = count_d && minstret_ones_q;

  always_comb begin
    mstatus_mie_d   = mstatus_mie_q;
    mstatus_mpie_d  = mstatus_mpie_q;
    mie_meie_d      = mie_meie_q;
    mie_mtie_d      = mie_mtie_q;
    mcause_int_d    = mcause_int_q;
    mcause_code_d   = mcause_code_q;
    mcycle_d        = mcycle_q + 32'd1;
    minstret_d      = minstret_q + {31'd0, count_q};
    mcycle_pend_d   = mcycle_pend_q;
    minstret_pend_d = minstret_pend_q;

    // A write of the high half cancels a carry that happened before it.
    if (ram_write_i && sel_cnt && addr_i[7]) begin
      if (addr_i[1]) begin
        minstret_pend_d = 1'b0;
      end else begin
        mcycle_pend_d = 1'b0;
      end
    end
    if (cnt_done_i) begin
      if (cnt_minstret_o) begin
        minstret_pend_d = 1'b0;
      end else begin
        mcycle_pend_d = 1'b0;
      end
    end
    if (mcycle_wrap) begin
      mcycle_pend_d = 1'b1;
    end
    if (minstret_wrap) begin
      minstret_pend_d = 1'b1;
    end

    if (we && sel_cnt && !addr_i[7]) begin
      if (addr_i[1]) begin
        minstret_d = new_o;
      end else begin
        mcycle_d = new_o;
      end
    end
    if (we && sel_trap && addr_i[2:0] == 3'd2) begin
      mcause_int_d  = new_o[31];
      mcause_code_d = new_o[3:0];
    end
    if (we && sel_base && addr_i[2:0] == 3'd0) begin
      mstatus_mie_d  = new_o[3];
      mstatus_mpie_d = new_o[7];
    end
    if (we && sel_base && addr_i[2:0] == 3'd4) begin
      mie_meie_d = new_o[11];
      mie_mtie_d = new_o[7];
    end

    if (trap_i) begin
      mcause_int_d   = trap_cause_i[4];
      mcause_code_d  = trap_cause_i[3:0];
      mstatus_mpie_d = mstatus_mie_q;
      mstatus_mie_d  = 1'b0;
    end else if (mret_i) begin
      mstatus_mie_d  = mstatus_mpie_q;
      mstatus_mpie_d = 1'b1;
    end
  end

  // minstreth first: it must be exact for the next instruction.  The wrap
  // inputs make a carry visible in the cycle it happens.
  assign cnt_minstret_o = minstret_pend_q || minstret_wrap;
  assign cnt_pending_o  = cnt_minstret_o || mcycle_pend_q || mcycle_wrap;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      mstatus_mie_q  <= 1'b0;
      mstatus_mpie_q <= 1'b0;
      mie_meie_q     <= 1'b0;
      mie_mtie_q     <= 1'b0;
      mcause_int_q   <= 1'b0;
      mcause_code_q  <= 4'd0;
      mcycle_q       <= 32'd0;
      minstret_q     <= 32'd0;
      mcycle_ones_q   <= 1'b0;
      minstret_ones_q <= 1'b0;
      count_q        <= 1'b0;
      mcycle_pend_q   <= 1'b0;
      minstret_pend_q <= 1'b0;
    end else begin
      mstatus_mie_q  <= mstatus_mie_d;
      mstatus_mpie_q <= mstatus_mpie_d;
      mie_meie_q     <= mie_meie_d;
      mie_mtie_q     <= mie_mtie_d;
      mcause_int_q   <= mcause_int_d;
      mcause_code_q  <= mcause_code_d;
      mcycle_q       <= mcycle_d;
      minstret_q     <= minstret_d;
      mcycle_ones_q   <= mcycle_d == 32'hffff_ffff;
      minstret_ones_q <= minstret_d == 32'hffff_ffff;
      count_q        <= count_d;
      mcycle_pend_q   <= mcycle_pend_d;
      minstret_pend_q <= minstret_pend_d;
    end
  end

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
      assert (!commit_i || tpu_cpu_pkg::csr_exists(addr_i))
        else $error("tpu_cpu_csr: commit of an access to a missing CSR");
      assert (!(count_q && (retire_i || commit_i)))
        else $error("tpu_cpu_csr: instructions less than two cycles apart");
      assert (mcycle_ones_q == (mcycle_q == 32'hffff_ffff) && minstret_ones_q == (minstret_q == 32'hffff_ffff))
        else $error("tpu_cpu_csr: the registered all-ones flags disagree with the counters");
    end
  end
`endif

endmodule
