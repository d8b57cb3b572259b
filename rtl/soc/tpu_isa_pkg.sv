// SPDX-License-Identifier: Apache-2.0
// tpu_isa_pkg: ISA, fault codes, MMIO map and link protocol constants of picotpu.
// Generated from spec/picotpu.toml by scripts/gen-spec.py: do not edit.
`default_nettype none

package tpu_isa_pkg;

  localparam int InstrBits = 256;
  localparam logic [31:0] RtlVersion = 32'h00010000;
  localparam int IsaVersion = 1;
  localparam int ProtocolVersion = 1;

  // Opcodes
  localparam logic [3:0] OpLoad = 4'd1;  // load
  localparam logic [3:0] OpMatmul = 4'd2;  // compute
  localparam logic [3:0] OpActivate = 4'd3;  // compute
  localparam logic [3:0] OpStore = 4'd4;  // store
  localparam logic [3:0] OpSync = 4'd5;  // fetch
  localparam logic [3:0] OpHalt = 4'd6;  // fetch

  // Instruction fields: bit position in the instruction (32*word + lsb) and width
  localparam int CommonOpLsb = 0;
  localparam int CommonOpW = 4;
  localparam int CommonPopPrevLsb = 4;
  localparam int CommonPopPrevW = 1;
  localparam int CommonPopNextLsb = 5;
  localparam int CommonPopNextW = 1;
  localparam int CommonPushPrevLsb = 6;
  localparam int CommonPushPrevW = 1;
  localparam int CommonPushNextLsb = 7;
  localparam int CommonPushNextW = 1;
  localparam int DmaBufLsb = 8;
  localparam int DmaBufW = 2;
  localparam int DmaPadLsb = 12;
  localparam int DmaPadW = 8;
  localparam int DmaBound2Lsb = 20;
  localparam int DmaBound2W = 12;
  localparam int DmaRowLsb = 32;
  localparam int DmaRowW = 16;
  localparam int DmaLen0Lsb = 48;
  localparam int DmaLen0W = 12;
  localparam int DmaAddrLsb = 64;
  localparam int DmaAddrW = 32;
  localparam int DmaStride1Lsb = 96;
  localparam int DmaStride1W = 32;
  localparam int DmaStride2Lsb = 128;
  localparam int DmaStride2W = 32;
  localparam int DmaOut0Lsb = 160;
  localparam int DmaOut0W = 12;
  localparam int DmaCount1Lsb = 172;
  localparam int DmaCount1W = 12;
  localparam int DmaStep1Lsb = 184;
  localparam int DmaStep1W = 8;
  localparam int DmaStart1Lsb = 192;
  localparam int DmaStart1W = 12;
  localparam int DmaBound1Lsb = 204;
  localparam int DmaBound1W = 12;
  localparam int DmaStep2Lsb = 216;
  localparam int DmaStep2W = 8;
  localparam int DmaCount2Lsb = 224;
  localparam int DmaCount2W = 12;
  localparam int DmaStart2Lsb = 236;
  localparam int DmaStart2W = 12;
  localparam int MatmulBf16Lsb = 8;
  localparam int MatmulBf16W = 1;
  localparam int MatmulAccLsb = 9;
  localparam int MatmulAccW = 1;
  localparam int MatmulNewWLsb = 10;
  localparam int MatmulNewWW = 1;
  localparam int MatmulZpLsb = 16;
  localparam int MatmulZpW = 8;
  localparam int MatmulUrowLsb = 32;
  localparam int MatmulUrowW = 16;
  localparam int MatmulRowsLsb = 48;
  localparam int MatmulRowsW = 16;
  localparam int MatmulArowLsb = 64;
  localparam int MatmulArowW = 16;
  localparam int MatmulWrowLsb = 80;
  localparam int MatmulWrowW = 16;
  localparam int ActivateOutLsb = 8;
  localparam int ActivateOutW = 2;
  localparam int ActivatePoolLsb = 10;
  localparam int ActivatePoolW = 2;
  localparam int ActivateReluLsb = 12;
  localparam int ActivateReluW = 1;
  localparam int ActivateRelu6Lsb = 13;
  localparam int ActivateRelu6W = 1;
  localparam int ActivateZpOutLsb = 16;
  localparam int ActivateZpOutW = 8;
  localparam int ActivateArowLsb = 32;
  localparam int ActivateArowW = 16;
  localparam int ActivateUrowLsb = 48;
  localparam int ActivateUrowW = 16;
  localparam int ActivateVrowLsb = 64;
  localparam int ActivateVrowW = 16;
  localparam int ActivateClampLoLsb = 80;
  localparam int ActivateClampLoW = 8;
  localparam int ActivateClampHiLsb = 88;
  localparam int ActivateClampHiW = 8;
  localparam int ActivateCount1Lsb = 96;
  localparam int ActivateCount1W = 12;
  localparam int ActivateCount2Lsb = 108;
  localparam int ActivateCount2W = 12;
  localparam int ActivateWin1Lsb = 120;
  localparam int ActivateWin1W = 4;
  localparam int ActivateWin2Lsb = 124;
  localparam int ActivateWin2W = 4;
  localparam int ActivateStep1Lsb = 128;
  localparam int ActivateStep1W = 16;
  localparam int ActivateStep2Lsb = 144;
  localparam int ActivateStep2W = 16;
  localparam int ActivateWstep1Lsb = 160;
  localparam int ActivateWstep1W = 16;
  localparam int ActivateWstep2Lsb = 176;
  localparam int ActivateWstep2W = 16;

  // Buffers
  localparam logic [1:0] BufUb = 2'd0;
  localparam logic [1:0] BufWb = 2'd1;
  localparam logic [1:0] BufVp = 2'd2;
  // enum out
  localparam int OutInt8 = 0;
  localparam int OutBf16 = 1;
  localparam int OutFp32 = 2;
  // enum pool
  localparam int PoolNone = 0;
  localparam int PoolMax = 1;
  localparam int PoolSum = 2;
  // enum flag
  localparam int FlagErr = 1;
  // enum nak
  localparam int NakCrc = 1;
  localparam int NakLength = 2;
  // enum state
  localparam int StateIdle = 0;
  localparam int StateRunning = 1;
  localparam int StateDone = 2;
  localparam int StateFault = 3;

  // Fault codes
  localparam logic [3:0] FaultNone = 4'd0;
  localparam logic [3:0] FaultBadOpcode = 4'd1;
  localparam logic [3:0] FaultBadField = 4'd2;
  localparam logic [3:0] FaultBufRange = 4'd3;
  localparam logic [3:0] FaultProtRead = 4'd4;
  localparam logic [3:0] FaultProtWrite = 4'd5;
  localparam logic [3:0] FaultBusError = 4'd6;
  localparam logic [3:0] FaultProgEnd = 4'd7;
  localparam logic [3:0] FaultNoWeights = 4'd8;
  localparam logic [3:0] FaultTimeout = 4'd9;
  localparam logic [3:0] FaultAborted = 4'd10;
  localparam logic [3:0] FaultToken = 4'd11;

  // Performance counters (index)
  localparam int CntCycles = 0;
  localparam int CntMxuRows = 1;
  localparam int CntLoadInsns = 2;
  localparam int CntComputeInsns = 3;
  localparam int CntStoreInsns = 4;
  localparam int CntLoadWaitToken = 5;
  localparam int CntComputeWaitToken = 6;
  localparam int CntStoreWaitToken = 7;
  localparam int CntLoadWaitMem = 8;
  localparam int CntStoreWaitMem = 9;
  localparam int CntComputeWaitWeights = 10;
  localparam int CntFetchWaitMem = 11;
  localparam int CntComputeIdle = 12;
  localparam int CntBytesRead = 13;
  localparam int CntBytesWritten = 14;
  localparam int NumCounters = 15;

  // MMIO: page bases and register offsets
  localparam logic [31:0] MmioPlatformBase = 32'h10000000;
  localparam logic [11:0] PlatformConsole = 12'h000;
  localparam logic [11:0] PlatformExit = 12'h004;
  localparam logic [11:0] PlatformMtimeLo = 12'h008;
  localparam logic [11:0] PlatformMtimeHi = 12'h00c;
  localparam logic [11:0] PlatformMtimecmpLo = 12'h010;
  localparam logic [11:0] PlatformMtimecmpHi = 12'h014;
  localparam logic [11:0] PlatformSocInfo = 12'h020;
  localparam logic [31:0] MmioTpuBase = 32'h10001000;
  localparam logic [11:0] TpuId = 12'h000;
  localparam logic [11:0] TpuRtlVersion = 12'h004;
  localparam logic [11:0] TpuArray = 12'h008;
  localparam logic [11:0] TpuUbRows = 12'h00c;
  localparam logic [11:0] TpuWbRows = 12'h010;
  localparam logic [11:0] TpuAccRows = 12'h014;
  localparam logic [11:0] TpuVpRows = 12'h018;
  localparam logic [11:0] TpuMemKb = 12'h01c;
  localparam logic [11:0] TpuConfigName = 12'h020;
  localparam logic [11:0] TpuNumWindows = 12'h030;
  localparam logic [11:0] TpuMaxPayload = 12'h034;
  localparam logic [11:0] TpuCtrl = 12'h040;
  localparam logic [11:0] TpuStatus = 12'h044;
  localparam logic [11:0] TpuProgAddr = 12'h048;
  localparam logic [11:0] TpuProgLen = 12'h04c;
  localparam logic [11:0] TpuFaultCode = 12'h050;
  localparam logic [11:0] TpuFaultPc = 12'h054;
  localparam logic [11:0] TpuFaultAddr = 12'h058;
  localparam logic [11:0] TpuIrqEn = 12'h05c;
  localparam logic [11:0] TpuWinBase0 = 12'h080;
  localparam logic [11:0] TpuWinLimit0 = 12'h084;
  localparam logic [11:0] TpuWinPerm0 = 12'h088;
  localparam logic [31:0] MmioCntBase = 32'h10002000;
  localparam logic [11:0] CntCnt0Lo = 12'h000;
  localparam logic [11:0] CntCnt0Hi = 12'h004;
  localparam logic [11:0] CntChRdBytes0 = 12'h100;
  localparam logic [11:0] CntChWrBytes0 = 12'h104;
  localparam logic [31:0] MmioLinkBase = 32'h10003000;
  localparam logic [11:0] LinkRxStatus = 12'h000;
  localparam logic [11:0] LinkRxHdr = 12'h004;
  localparam logic [11:0] LinkRxLen = 12'h008;
  localparam logic [11:0] LinkRxDone = 12'h00c;
  localparam logic [11:0] LinkTxHdr = 12'h010;
  localparam logic [11:0] LinkTxLen = 12'h014;
  localparam logic [11:0] LinkTxSend = 12'h018;
  localparam logic [11:0] LinkTxStatus = 12'h01c;
  localparam logic [11:0] LinkRxFrames = 12'h020;
  localparam logic [11:0] LinkRxCrcErrors = 12'h024;
  localparam logic [11:0] LinkRxDropped = 12'h028;
  localparam logic [11:0] LinkTxFrames = 12'h02c;
  localparam logic [11:0] LinkRxBuf = 12'h400;
  localparam logic [11:0] LinkTxBuf = 12'h800;

  // Link protocol
  localparam logic [7:0] LinkSync = 8'ha5;
  localparam int LinkHeaderBytes = 6;
  localparam int LinkCrcBytes = 4;
  localparam logic [7:0] LinkResponseBit = 8'h80;
  localparam int MailboxBytes = 256;
  localparam int ByteTimeoutCycles = 65536;
  localparam logic [7:0] PktPing = 8'h01;
  localparam logic [7:0] PktInfo = 8'h02;
  localparam logic [7:0] PktMemWrite = 8'h03;
  localparam logic [7:0] PktMemRead = 8'h04;
  localparam logic [7:0] PktRun = 8'h05;
  localparam logic [7:0] PktStatus = 8'h06;
  localparam logic [7:0] PktWait = 8'h07;
  localparam logic [7:0] PktCounters = 8'h08;
  localparam logic [7:0] PktReset = 8'h09;
  localparam logic [7:0] PktNak = 8'h7f;
  localparam logic [7:0] StatusOk = 8'd0;
  localparam logic [7:0] StatusBadType = 8'd1;
  localparam logic [7:0] StatusBadLength = 8'd2;
  localparam logic [7:0] StatusBadAddress = 8'd3;
  localparam logic [7:0] StatusBusy = 8'd4;
  localparam logic [7:0] StatusBadProgram = 8'd5;
  localparam logic [7:0] StatusBusError = 8'd6;

endpackage

`default_nettype wire
