// SPDX-License-Identifier: Apache-2.0
// Constants shared by the RV32 core's modules: opcodes, ALU and write-back
// selectors, CSR addresses, trap causes and the control-FSM states.
`default_nettype none

package tpu_cpu_pkg;

  // Major opcodes (instruction bits 6:0).
  localparam logic [6:0] OpLoad    = 7'b0000011;
  localparam logic [6:0] OpMiscMem = 7'b0001111;
  localparam logic [6:0] OpImm     = 7'b0010011;
  localparam logic [6:0] OpAuipc   = 7'b0010111;
  localparam logic [6:0] OpStore   = 7'b0100011;
  localparam logic [6:0] OpReg     = 7'b0110011;
  localparam logic [6:0] OpLui     = 7'b0110111;
  localparam logic [6:0] OpBranch  = 7'b1100011;
  localparam logic [6:0] OpJalr    = 7'b1100111;
  localparam logic [6:0] OpJal     = 7'b1101111;
  localparam logic [6:0] OpSystem  = 7'b1110011;

  // ALU operations.  Bit 2 selects the logic unit, bits 1:0 its function
  // (the RV32I funct3 of XOR/OR/AND); PassA forwards operand A.  The shift
  // codes select the serial shifter, not the ALU.
  localparam logic [3:0] AluAdd   = 4'd0;
  localparam logic [3:0] AluSub   = 4'd1;
  localparam logic [3:0] AluSlt   = 4'd2;
  localparam logic [3:0] AluSltu  = 4'd3;
  localparam logic [3:0] AluXor   = 4'd4;
  localparam logic [3:0] AluPassA = 4'd5;
  localparam logic [3:0] AluOr    = 4'd6;
  localparam logic [3:0] AluAnd   = 4'd7;
  localparam logic [3:0] AluSll   = 4'd8;
  localparam logic [3:0] AluSrl   = 4'd9;
  localparam logic [3:0] AluSra   = 4'd10;

  // ALU operand A.
  localparam logic [1:0] OpARs1  = 2'd0;
  localparam logic [1:0] OpAPc   = 2'd1;
  localparam logic [1:0] OpAZero = 2'd2;

  // Register write-back source of the execute cycle (loads, shifts and M
  // instructions write back from their own states).
  localparam logic [1:0] WbAlu = 2'd0;
  localparam logic [1:0] WbPc4 = 2'd1;
  localparam logic [1:0] WbCsr = 2'd2;

  // CSR instruction kinds (funct3[1:0]).
  localparam logic [1:0] CsrOpWrite = 2'b01;
  localparam logic [1:0] CsrOpSet   = 2'b10;
  localparam logic [1:0] CsrOpClear = 2'b11;

  // CSR addresses that the core implements.
  localparam logic [11:0] CsrMstatus   = 12'h300;
  localparam logic [11:0] CsrMisa      = 12'h301;
  localparam logic [11:0] CsrMie       = 12'h304;
  localparam logic [11:0] CsrMtvec     = 12'h305;
  localparam logic [11:0] CsrMstatush  = 12'h310;
  localparam logic [11:0] CsrMscratch  = 12'h340;
  localparam logic [11:0] CsrMepc      = 12'h341;
  localparam logic [11:0] CsrMcause    = 12'h342;
  localparam logic [11:0] CsrMtval     = 12'h343;
  localparam logic [11:0] CsrMip       = 12'h344;
  localparam logic [11:0] CsrMcycle    = 12'hB00;
  localparam logic [11:0] CsrMinstret  = 12'hB02;
  localparam logic [11:0] CsrMcycleh   = 12'hB80;
  localparam logic [11:0] CsrMinstreth = 12'hB82;
  localparam logic [11:0] CsrCycle     = 12'hC00;
  localparam logic [11:0] CsrInstret   = 12'hC02;
  localparam logic [11:0] CsrCycleh    = 12'hC80;
  localparam logic [11:0] CsrInstreth  = 12'hC82;
  localparam logic [11:0] CsrMvendorid = 12'hF11;
  localparam logic [11:0] CsrMarchid   = 12'hF12;
  localparam logic [11:0] CsrMimpid    = 12'hF13;
  localparam logic [11:0] CsrMhartid   = 12'hF14;

  // The CSR addresses the core implements (any other traps as illegal).
  function automatic logic csr_exists(input logic [11:0] csr);
    case (csr)
      CsrMstatus, CsrMisa, CsrMie, CsrMtvec, CsrMstatush, CsrMscratch, CsrMepc,
      CsrMcause, CsrMtval, CsrMip, CsrMcycle, CsrMinstret, CsrMcycleh, CsrMinstreth,
      CsrCycle, CsrInstret, CsrCycleh, CsrInstreth, CsrMvendorid, CsrMarchid,
      CsrMimpid, CsrMhartid: csr_exists = 1'b1;
      default:               csr_exists = 1'b0;
    endcase
  endfunction

  // Exception codes (mcause with the interrupt bit clear).
  localparam logic [3:0] ExcInsnMisaligned  = 4'd0;
  localparam logic [3:0] ExcInsnAccessFault = 4'd1;
  localparam logic [3:0] ExcIllegalInsn     = 4'd2;
  localparam logic [3:0] ExcBreakpoint      = 4'd3;
  localparam logic [3:0] ExcLoadMisaligned  = 4'd4;
  localparam logic [3:0] ExcLoadAccessFault = 4'd5;
  localparam logic [3:0] ExcStoreMisaligned = 4'd6;
  localparam logic [3:0] ExcStoreAccessFault = 4'd7;
  localparam logic [3:0] ExcEcallM          = 4'd11;

  // Interrupt codes (mcause with the interrupt bit set) = mip/mie bit numbers.
  localparam logic [3:0] IrqTimer    = 4'd7;
  localparam logic [3:0] IrqExternal = 4'd11;

  // Register-file entries above the 32 integer registers hold the machine
  // CSRs that only instructions, traps and the counter carry read and write:
  // mscratch (0x340) is entry 32, mepc (0x341) 33, mtvec (0x305) 34, mtval
  // (0x343) 35, mcycleh (0xB80/0xC80) 36 and minstreth (0xB82/0xC82) 37.
  // The entry of CSR address a is 32 + (a[11] ? {2'b10, a[1]} :
  // {1'b0, a[6] ? a[1:0] : {a[0], !a[0]}}), which also maps MRET (0x302 in
  // the CSR field) to mepc.
  localparam logic [5:0] RfMepc      = 6'd33;
  localparam logic [5:0] RfMtvec     = 6'd34;
  localparam logic [5:0] RfMtval     = 6'd35;
  localparam logic [5:0] RfMcycleh   = 6'd36;
  localparam logic [5:0] RfMinstreth = 6'd37;
  localparam logic [5:0] RfOne       = 6'd38;  // constant 1: counter carries

  // Control FSM of the core (see docs/cpu.md).
  typedef enum logic [3:0] {
    StFetch   = 4'd0,  // present the fetch request until it is accepted
    StDecode  = 4'd1,  // wait for the instruction; read rs1/rs2 as it arrives
    StExec    = 4'd2,  // execute; issue the data request or the next fetch
    StMem     = 4'd3,  // wait for the data response
    StMulti   = 4'd4,  // wait for the serial shifter or the multiplier/divider
    StBranch  = 4'd5,  // taken branch: the ALU computes the target
    StCsr     = 4'd6,  // CSR held in the register file: write rd (old value)
    StTrap    = 4'd7,  // trap entry 1: mepc <- pc, mcause, mstatus; read mtvec
    StTrapVal = 4'd8,  // trap entry 2: mtval <- trap value; jump to mtvec
    StCntRd   = 4'd9,  // counter carry 1: read mcycleh or minstreth
    StCntWr   = 4'd10  // counter carry 2: write it back plus one
  } state_e;

endpackage
