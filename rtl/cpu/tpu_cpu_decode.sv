// SPDX-License-Identifier: Apache-2.0
// Instruction decoder of the RV32 core: turns one RV32I (and, with EnableM,
// RV32M) instruction into control signals and flags every encoding the core
// does not implement as illegal, CSR accesses included.
`default_nettype none

module tpu_cpu_decode #(
  parameter int unsigned EnableM = 0  // 1: decode the M extension (else it is illegal)
) (
  input  logic [31:0] insn_i,
  output logic        illegal_o,    // not an implemented instruction
  output logic [3:0]  alu_op_o,     // tpu_cpu_pkg::Alu*
  output logic [1:0]  op_a_o,       // tpu_cpu_pkg::OpA*
  output logic        op_b_imm_o,   // ALU operand B is the immediate (else rs2)
  output logic [31:0] imm_o,
  output logic        rd_we_o,      // writes rd (x0 writes are dropped later)
  output logic [1:0]  wb_sel_o,     // tpu_cpu_pkg::Wb*
  output logic        branch_o,
  output logic        jal_o,
  output logic        jalr_o,
  output logic        load_o,
  output logic        store_o,
  output logic        csr_o,
  output logic        csr_write_o,  // the CSR instruction writes its CSR
  output logic        ecall_o,
  output logic        ebreak_o,
  output logic        mret_o,
  output logic        shift_o,      // SLL/SRL/SRA(I): alu_op_o says which
  output logic        muldiv_o
);

  logic [6:0] opcode;
  logic [2:0] funct3;
  logic [6:0] funct7;
  logic [4:0] rs1;
  logic [31:0] imm_i, imm_s, imm_b, imm_u, imm_j;

  assign opcode = insn_i[6:0];
  assign funct3 = insn_i[14:12];
  assign funct7 = insn_i[31:25];
  assign rs1    = insn_i[19:15];

  assign imm_i = {{20{insn_i[31]}}, insn_i[31:20]};
  assign imm_s = {{20{insn_i[31]}}, insn_i[31:25], insn_i[11:7]};
  assign imm_b = {{19{insn_i[31]}}, insn_i[31], insn_i[7], insn_i[30:25], insn_i[11:8], 1'b0};
  assign imm_u = {insn_i[31:12], 12'd0};
  assign imm_j = {{11{insn_i[31]}}, insn_i[31], insn_i[19:12], insn_i[20], insn_i[30:21], 1'b0};

  always_comb begin
    illegal_o   = 1'b0;
    alu_op_o    = tpu_cpu_pkg::AluAdd;
    op_a_o      = tpu_cpu_pkg::OpARs1;
    op_b_imm_o  = 1'b1;
    imm_o       = imm_i;
    rd_we_o     = 1'b0;
    wb_sel_o    = tpu_cpu_pkg::WbAlu;
    branch_o    = 1'b0;
    jal_o       = 1'b0;
    jalr_o      = 1'b0;
    load_o      = 1'b0;
    store_o     = 1'b0;
    csr_o       = 1'b0;
    csr_write_o = 1'b0;
    ecall_o     = 1'b0;
    ebreak_o    = 1'b0;
    mret_o      = 1'b0;
    muldiv_o    = 1'b0;
    shift_o     = 1'b0;

    unique case (opcode)
      tpu_cpu_pkg::OpLui: begin
        rd_we_o = 1'b1;
        op_a_o  = tpu_cpu_pkg::OpAZero;
        imm_o   = imm_u;
      end
      tpu_cpu_pkg::OpAuipc: begin
        rd_we_o = 1'b1;
        op_a_o  = tpu_cpu_pkg::OpAPc;
        imm_o   = imm_u;
      end
      tpu_cpu_pkg::OpJal: begin
        jal_o    = 1'b1;
        op_a_o   = tpu_cpu_pkg::OpAPc;
        rd_we_o  = 1'b1;
        wb_sel_o = tpu_cpu_pkg::WbPc4;
        imm_o    = imm_j;
      end
      tpu_cpu_pkg::OpJalr: begin
        jalr_o    = 1'b1;
        rd_we_o   = 1'b1;
        wb_sel_o  = tpu_cpu_pkg::WbPc4;
        illegal_o = (funct3 != 3'b000);
      end
      tpu_cpu_pkg::OpBranch: begin
        branch_o   = 1'b1;
        alu_op_o   = tpu_cpu_pkg::AluSub;
        op_b_imm_o = 1'b0;
        imm_o      = imm_b;
        illegal_o  = (funct3 == 3'b010) || (funct3 == 3'b011);
      end
      tpu_cpu_pkg::OpLoad: begin
        load_o    = 1'b1;
        rd_we_o   = 1'b1;
        illegal_o = (funct3 == 3'b011) || (funct3[2:1] == 2'b11);
      end
      tpu_cpu_pkg::OpStore: begin
        store_o   = 1'b1;
        imm_o     = imm_s;
        illegal_o = (funct3[2] == 1'b1) || (funct3[1:0] == 2'b11);
      end
      tpu_cpu_pkg::OpImm: begin
        rd_we_o = 1'b1;
        unique case (funct3)
          3'b000: alu_op_o = tpu_cpu_pkg::AluAdd;
          3'b010: alu_op_o = tpu_cpu_pkg::AluSlt;
          3'b011: alu_op_o = tpu_cpu_pkg::AluSltu;
          3'b100: alu_op_o = tpu_cpu_pkg::AluXor;
          3'b110: alu_op_o = tpu_cpu_pkg::AluOr;
          3'b111: alu_op_o = tpu_cpu_pkg::AluAnd;
          3'b001: begin
            alu_op_o  = tpu_cpu_pkg::AluSll;
            shift_o   = 1'b1;
            illegal_o = (funct7 != 7'b0000000);
          end
          default: begin  // 3'b101
            alu_op_o  = funct7[5] ? tpu_cpu_pkg::AluSra : tpu_cpu_pkg::AluSrl;
            shift_o   = 1'b1;
            illegal_o = (funct7 != 7'b0000000) && (funct7 != 7'b0100000);
          end
        endcase
      end
      tpu_cpu_pkg::OpReg: begin
        rd_we_o    = 1'b1;
        op_b_imm_o = 1'b0;
        if (funct7 == 7'b0000000) begin
          unique case (funct3)
            3'b000:  alu_op_o = tpu_cpu_pkg::AluAdd;
            3'b001:  alu_op_o = tpu_cpu_pkg::AluSll;
            3'b010:  alu_op_o = tpu_cpu_pkg::AluSlt;
            3'b011:  alu_op_o = tpu_cpu_pkg::AluSltu;
            3'b100:  alu_op_o = tpu_cpu_pkg::AluXor;
            3'b101:  alu_op_o = tpu_cpu_pkg::AluSrl;
            3'b110:  alu_op_o = tpu_cpu_pkg::AluOr;
            default: alu_op_o = tpu_cpu_pkg::AluAnd;
          endcase
          shift_o = (funct3[1:0] == 2'b01);
        end else if (funct7 == 7'b0100000) begin
          alu_op_o  = (funct3 == 3'b000) ? tpu_cpu_pkg::AluSub : tpu_cpu_pkg::AluSra;
          shift_o   = (funct3 == 3'b101);
          illegal_o = (funct3 != 3'b000) && (funct3 != 3'b101);
        end else if (EnableM != 0 && funct7 == 7'b0000001) begin
          muldiv_o = 1'b1;
        end else begin
          illegal_o = 1'b1;
        end
      end
      tpu_cpu_pkg::OpMiscMem: begin
        // FENCE and FENCE.I: one hart, no caches, in-order memory: nothing to
        // do.  The reserved fields are ignored, as the spec recommends.
        illegal_o = (funct3[2:1] != 2'b00);
      end
      tpu_cpu_pkg::OpSystem: begin
        if (funct3 == 3'b000) begin
          unique case (insn_i)
            32'h0000_0073: ecall_o  = 1'b1;
            32'h0010_0073: ebreak_o = 1'b1;
            32'h3020_0073: mret_o   = 1'b1;
            32'h1050_0073: ;  // WFI: legal to implement as a no-op
            default:       illegal_o = 1'b1;
          endcase
        end else if (funct3 == 3'b100) begin
          illegal_o = 1'b1;
        end else begin
          csr_o       = 1'b1;
          rd_we_o     = 1'b1;
          wb_sel_o    = tpu_cpu_pkg::WbCsr;
          // CSRRW always writes; CSRRS/CSRRC (and the immediate forms) only
          // with a non-zero rs1 field, so they can read read-only CSRs
          // (0xC00-0xFFF by the numbering convention).
          csr_write_o = (funct3[1:0] == tpu_cpu_pkg::CsrOpWrite) || (rs1 != 5'd0);
          illegal_o   = !tpu_cpu_pkg::csr_exists(insn_i[31:20]) ||
                        (csr_write_o && insn_i[31:30] == 2'b11);
        end
      end
      default: illegal_o = 1'b1;
    endcase
  end

endmodule
