/* SPDX-License-Identifier: Apache-2.0 */
/* picotpu_isa.h: ISA, fault codes, MMIO map, link protocol, error codes and
 * configurations of picotpu.  Generated from spec/picotpu.toml by
 * scripts/gen-spec.py: do not edit. */
#ifndef PICOTPU_ISA_H
#define PICOTPU_ISA_H

#include <stdint.h>

#define PTPU_INSTR_BYTES 32
#define PTPU_INSTR_WORDS 8
#define PTPU_RTL_VERSION 0x00010000u
#define PTPU_ISA_VERSION 1
#define PTPU_PROTOCOL_VERSION 1
#define PTPU_ID_MAGIC 0x50545055u /* 'PTPU' */

/* Opcodes */
#define PTPU_OP_LOAD 1
#define PTPU_OP_MATMUL 2
#define PTPU_OP_ACTIVATE 3
#define PTPU_OP_STORE 4
#define PTPU_OP_SYNC 5
#define PTPU_OP_HALT 6

/* Instruction fields as (word, lsb, width, signed): pass to ptpu_field_get/set. */
#define PTPU_F_COMMON_OP 0, 0, 4, 0
#define PTPU_F_COMMON_POP_PREV 0, 4, 1, 0
#define PTPU_F_COMMON_POP_NEXT 0, 5, 1, 0
#define PTPU_F_COMMON_PUSH_PREV 0, 6, 1, 0
#define PTPU_F_COMMON_PUSH_NEXT 0, 7, 1, 0
#define PTPU_F_DMA_BUF 0, 8, 2, 0
#define PTPU_F_DMA_PAD 0, 12, 8, 0
#define PTPU_F_DMA_BOUND2 0, 20, 12, 0
#define PTPU_F_DMA_ROW 1, 0, 16, 0
#define PTPU_F_DMA_LEN0 1, 16, 12, 0
#define PTPU_F_DMA_ADDR 2, 0, 32, 0
#define PTPU_F_DMA_STRIDE1 3, 0, 32, 1
#define PTPU_F_DMA_STRIDE2 4, 0, 32, 1
#define PTPU_F_DMA_OUT0 5, 0, 12, 0
#define PTPU_F_DMA_COUNT1 5, 12, 12, 0
#define PTPU_F_DMA_STEP1 5, 24, 8, 1
#define PTPU_F_DMA_START1 6, 0, 12, 1
#define PTPU_F_DMA_BOUND1 6, 12, 12, 0
#define PTPU_F_DMA_STEP2 6, 24, 8, 1
#define PTPU_F_DMA_COUNT2 7, 0, 12, 0
#define PTPU_F_DMA_START2 7, 12, 12, 1
#define PTPU_F_MATMUL_BF16 0, 8, 1, 0
#define PTPU_F_MATMUL_ACC 0, 9, 1, 0
#define PTPU_F_MATMUL_NEW_W 0, 10, 1, 0
#define PTPU_F_MATMUL_ZP 0, 16, 8, 1
#define PTPU_F_MATMUL_UROW 1, 0, 16, 0
#define PTPU_F_MATMUL_ROWS 1, 16, 16, 0
#define PTPU_F_MATMUL_AROW 2, 0, 16, 0
#define PTPU_F_MATMUL_WROW 2, 16, 16, 0
#define PTPU_F_ACTIVATE_OUT 0, 8, 2, 0
#define PTPU_F_ACTIVATE_POOL 0, 10, 2, 0
#define PTPU_F_ACTIVATE_RELU 0, 12, 1, 0
#define PTPU_F_ACTIVATE_RELU6 0, 13, 1, 0
#define PTPU_F_ACTIVATE_ZP_OUT 0, 16, 8, 1
#define PTPU_F_ACTIVATE_AROW 1, 0, 16, 0
#define PTPU_F_ACTIVATE_UROW 1, 16, 16, 0
#define PTPU_F_ACTIVATE_VROW 2, 0, 16, 0
#define PTPU_F_ACTIVATE_CLAMP_LO 2, 16, 8, 1
#define PTPU_F_ACTIVATE_CLAMP_HI 2, 24, 8, 1
#define PTPU_F_ACTIVATE_COUNT1 3, 0, 12, 0
#define PTPU_F_ACTIVATE_COUNT2 3, 12, 12, 0
#define PTPU_F_ACTIVATE_WIN1 3, 24, 4, 0
#define PTPU_F_ACTIVATE_WIN2 3, 28, 4, 0
#define PTPU_F_ACTIVATE_STEP1 4, 0, 16, 0
#define PTPU_F_ACTIVATE_STEP2 4, 16, 16, 0
#define PTPU_F_ACTIVATE_WSTEP1 5, 0, 16, 0
#define PTPU_F_ACTIVATE_WSTEP2 5, 16, 16, 0

static inline int32_t ptpu_field_get(const uint32_t *insn, int word, int lsb, int width,
                                     int is_signed)
{
    uint32_t v = insn[word] >> lsb;
    if (width < 32)
        v &= (1u << width) - 1u;
    if (is_signed && width < 32 && (v >> (width - 1)) & 1u)
        v |= ~((1u << width) - 1u);
    return (int32_t)v;
}

/* Returns 0, or -1 when the value does not fit the field (the field is then unchanged). */
static inline int ptpu_field_set(uint32_t *insn, int word, int lsb, int width, int is_signed,
                                 int64_t value)
{
    int64_t lo = is_signed ? -((int64_t)1 << (width - 1)) : 0;
    int64_t hi = is_signed ? ((int64_t)1 << (width - 1)) - 1 : ((int64_t)1 << width) - 1;
    if (value < lo || value > hi)
        return -1;
    uint32_t mask = width < 32 ? ((1u << width) - 1u) << lsb : 0xffffffffu;
    insn[word] = (insn[word] & ~mask) | (((uint32_t)value << lsb) & mask);
    return 0;
}

/* Buffers */
#define PTPU_BUF_UB 0
#define PTPU_BUF_WB 1
#define PTPU_BUF_VP 2
/* out */
#define PTPU_OUT_INT8 0
#define PTPU_OUT_BF16 1
#define PTPU_OUT_FP32 2
/* pool */
#define PTPU_POOL_NONE 0
#define PTPU_POOL_MAX 1
#define PTPU_POOL_SUM 2
/* flag */
#define PTPU_FLAG_ERR 1
/* nak */
#define PTPU_NAK_CRC 1
#define PTPU_NAK_LENGTH 2
/* state */
#define PTPU_STATE_IDLE 0
#define PTPU_STATE_RUNNING 1
#define PTPU_STATE_DONE 2
#define PTPU_STATE_FAULT 3

/* Fault codes: X(name, value, description) */
#define PTPU_FAULT_LIST(X) \
    X(NONE, 0, "no fault") \
    X(BAD_OPCODE, 1, "opcode 0 or 7..15") \
    X(BAD_FIELD, 2, "a field out of its allowed range or combination (zero counts, len0 > out0, out0 too wide, token from a queue that does not exist, bf16 on an int8-only configuration, pool window with POOL_NONE, reserved bits set)") \
    X(BUF_RANGE, 3, "a UB, WB, VP or ACC row outside its buffer") \
    X(PROT_READ, 4, "a LOAD row outside every readable window (address = the row)") \
    X(PROT_WRITE, 5, "a STORE row outside every writable window (address = the row)") \
    X(BUS_ERROR, 6, "the memory system answered with an error (address = the beat or burst)") \
    X(PROG_END, 7, "the program ran past its length without HALT") \
    X(NO_WEIGHTS, 8, "MATMUL with new_w = 0 before any tile was loaded in this program") \
    X(TIMEOUT, 9, "the firmware watchdog stopped a program that ran longer than its time-out") \
    X(ABORTED, 10, "stopped by RESET") \
    X(TOKEN, 11, "a token pop with no matching push earlier in program order (the program would deadlock), or more than 65535 tokens outstanding")
#define PTPU_FAULT_NONE 0
#define PTPU_FAULT_BAD_OPCODE 1
#define PTPU_FAULT_BAD_FIELD 2
#define PTPU_FAULT_BUF_RANGE 3
#define PTPU_FAULT_PROT_READ 4
#define PTPU_FAULT_PROT_WRITE 5
#define PTPU_FAULT_BUS_ERROR 6
#define PTPU_FAULT_PROG_END 7
#define PTPU_FAULT_NO_WEIGHTS 8
#define PTPU_FAULT_TIMEOUT 9
#define PTPU_FAULT_ABORTED 10
#define PTPU_FAULT_TOKEN 11

/* Performance counters: X(name, index, description) */
#define PTPU_COUNTER_LIST(X) \
    X(CYCLES, 0, "cycles from START to the end of the program") \
    X(MXU_ROWS, 1, "rows accepted by the MXU (utilization = MXU_ROWS / CYCLES)") \
    X(LOAD_INSNS, 2, "instructions completed by the load queue") \
    X(COMPUTE_INSNS, 3, "instructions completed by the compute queue") \
    X(STORE_INSNS, 4, "instructions completed by the store queue") \
    X(LOAD_WAIT_TOKEN, 5, "cycles the load queue's head waited for a token") \
    X(COMPUTE_WAIT_TOKEN, 6, "cycles the compute queue's head waited for a token") \
    X(STORE_WAIT_TOKEN, 7, "cycles the store queue's head waited for a token") \
    X(LOAD_WAIT_MEM, 8, "cycles the load engine had a row to write but no data from memory") \
    X(STORE_WAIT_MEM, 9, "cycles the store engine had a row but the DMA did not take it") \
    X(COMPUTE_WAIT_WEIGHTS, 10, "cycles a MATMUL row waited for its weight tile") \
    X(FETCH_WAIT_MEM, 11, "cycles the fetch unit waited for instructions from memory") \
    X(COMPUTE_IDLE, 12, "cycles the compute queue was empty") \
    X(BYTES_READ, 13, "bytes read from device memory by LOAD") \
    X(BYTES_WRITTEN, 14, "bytes written to device memory by STORE")
#define PTPU_CNT_CYCLES 0
#define PTPU_CNT_MXU_ROWS 1
#define PTPU_CNT_LOAD_INSNS 2
#define PTPU_CNT_COMPUTE_INSNS 3
#define PTPU_CNT_STORE_INSNS 4
#define PTPU_CNT_LOAD_WAIT_TOKEN 5
#define PTPU_CNT_COMPUTE_WAIT_TOKEN 6
#define PTPU_CNT_STORE_WAIT_TOKEN 7
#define PTPU_CNT_LOAD_WAIT_MEM 8
#define PTPU_CNT_STORE_WAIT_MEM 9
#define PTPU_CNT_COMPUTE_WAIT_WEIGHTS 10
#define PTPU_CNT_FETCH_WAIT_MEM 11
#define PTPU_CNT_COMPUTE_IDLE 12
#define PTPU_CNT_BYTES_READ 13
#define PTPU_CNT_BYTES_WRITTEN 14
#define PTPU_NUM_COUNTERS 15

/* MMIO (firmware view): absolute addresses */
#define PTPU_MMIO_PLATFORM_BASE 0x10000000u
#define PTPU_PLATFORM_CONSOLE 0x10000000u
#define PTPU_PLATFORM_EXIT 0x10000004u
#define PTPU_PLATFORM_MTIME_LO 0x10000008u
#define PTPU_PLATFORM_MTIME_HI 0x1000000cu
#define PTPU_PLATFORM_MTIMECMP_LO 0x10000010u
#define PTPU_PLATFORM_MTIMECMP_HI 0x10000014u
#define PTPU_PLATFORM_SOC_INFO 0x10000020u
#define PTPU_MMIO_TPU_BASE 0x10001000u
#define PTPU_TPU_ID 0x10001000u
#define PTPU_TPU_RTL_VERSION 0x10001004u
#define PTPU_TPU_ARRAY 0x10001008u
#define PTPU_TPU_UB_ROWS 0x1000100cu
#define PTPU_TPU_WB_ROWS 0x10001010u
#define PTPU_TPU_ACC_ROWS 0x10001014u
#define PTPU_TPU_VP_ROWS 0x10001018u
#define PTPU_TPU_MEM_KB 0x1000101cu
#define PTPU_TPU_CONFIG_NAME 0x10001020u
#define PTPU_TPU_NUM_WINDOWS 0x10001030u
#define PTPU_TPU_MAX_PAYLOAD 0x10001034u
#define PTPU_TPU_CTRL 0x10001040u
#define PTPU_TPU_STATUS 0x10001044u
#define PTPU_TPU_PROG_ADDR 0x10001048u
#define PTPU_TPU_PROG_LEN 0x1000104cu
#define PTPU_TPU_FAULT_CODE 0x10001050u
#define PTPU_TPU_FAULT_PC 0x10001054u
#define PTPU_TPU_FAULT_ADDR 0x10001058u
#define PTPU_TPU_IRQ_EN 0x1000105cu
#define PTPU_TPU_WIN_BASE0 0x10001080u
#define PTPU_TPU_WIN_LIMIT0 0x10001084u
#define PTPU_TPU_WIN_PERM0 0x10001088u
#define PTPU_MMIO_CNT_BASE 0x10002000u
#define PTPU_CNT_CNT0_LO 0x10002000u
#define PTPU_CNT_CNT0_HI 0x10002004u
#define PTPU_CNT_CH_RD_BYTES0 0x10002100u
#define PTPU_CNT_CH_WR_BYTES0 0x10002104u
#define PTPU_MMIO_LINK_BASE 0x10003000u
#define PTPU_LINK_RX_STATUS 0x10003000u
#define PTPU_LINK_RX_HDR 0x10003004u
#define PTPU_LINK_RX_LEN 0x10003008u
#define PTPU_LINK_RX_DONE 0x1000300cu
#define PTPU_LINK_TX_HDR 0x10003010u
#define PTPU_LINK_TX_LEN 0x10003014u
#define PTPU_LINK_TX_SEND 0x10003018u
#define PTPU_LINK_TX_STATUS 0x1000301cu
#define PTPU_LINK_RX_FRAMES 0x10003020u
#define PTPU_LINK_RX_CRC_ERRORS 0x10003024u
#define PTPU_LINK_RX_DROPPED 0x10003028u
#define PTPU_LINK_TX_FRAMES 0x1000302cu
#define PTPU_LINK_RX_BUF 0x10003400u
#define PTPU_LINK_TX_BUF 0x10003800u

/* Link protocol */
#define PTPU_LINK_SYNC 0xa5
#define PTPU_LINK_HEADER_BYTES 6
#define PTPU_LINK_CRC_BYTES 4
#define PTPU_LINK_RESPONSE_BIT 0x80
#define PTPU_MAILBOX_BYTES 256
#define PTPU_BYTE_TIMEOUT_CYCLES 65536
#define PTPU_PKT_PING 0x01
#define PTPU_PKT_INFO 0x02
#define PTPU_PKT_MEM_WRITE 0x03
#define PTPU_PKT_MEM_READ 0x04
#define PTPU_PKT_RUN 0x05
#define PTPU_PKT_STATUS 0x06
#define PTPU_PKT_WAIT 0x07
#define PTPU_PKT_COUNTERS 0x08
#define PTPU_PKT_RESET 0x09
#define PTPU_PKT_NAK 0x7f
/* Status codes of error responses: X(name, value, description) */
#define PTPU_STATUS_LIST(X) \
    X(OK, 0, "success (never sent with ERR)") \
    X(BAD_TYPE, 1, "unknown packet type") \
    X(BAD_LENGTH, 2, "payload length wrong for the type") \
    X(BAD_ADDRESS, 3, "memory range outside device memory (detail: address)") \
    X(BUSY, 4, "RUN while a program runs") \
    X(BAD_PROGRAM, 5, "RUN rejected: misaligned or empty program, program outside device memory or outside a readable window, bad window (detail: which check)") \
    X(BUS_ERROR, 6, "the memory system answered a MEM_READ/MEM_WRITE with an error")
#define PTPU_STATUS_OK 0
#define PTPU_STATUS_BAD_TYPE 1
#define PTPU_STATUS_BAD_LENGTH 2
#define PTPU_STATUS_BAD_ADDRESS 3
#define PTPU_STATUS_BUSY 4
#define PTPU_STATUS_BAD_PROGRAM 5
#define PTPU_STATUS_BUS_ERROR 6

/* Host error codes of libpicotpu: X(name, value, description) */
#define PTPU_ERROR_LIST(X) \
    X(OK, 0, "success") \
    X(INVALID_ARG, -1, "invalid argument") \
    X(NO_MEM, -2, "out of host memory") \
    X(NO_DEVICE, -3, "no such device") \
    X(IO, -4, "input/output error on the link") \
    X(TIMEOUT, -5, "the device did not answer in time") \
    X(PROTOCOL, -6, "malformed or unexpected response") \
    X(DEVICE, -7, "the device rejected the request") \
    X(FAULT, -8, "the program faulted on the device") \
    X(FORMAT, -9, "malformed or truncated model file") \
    X(SHAPE, -10, "inconsistent tensor shapes") \
    X(UNSUPPORTED, -11, "not supported by this device or configuration") \
    X(BUSY, -12, "the device is busy") \
    X(RANGE, -13, "out of device memory or outside a buffer")

/* Named configurations: X(name, n, bf16, ub_rows, wb_rows, acc_rows, vp_rows, pch, mem_kb) */
#define PTPU_CONFIG_LIST(X) \
    X(sim16, 16, 1, 4096, 1024, 2048, 256, 8, 262144) \
    X(sim32, 32, 1, 4096, 1024, 2048, 256, 8, 262144) \
    X(sim128, 128, 1, 2048, 1024, 1024, 128, 16, 524288) \
    X(ulx3s, 8, 0, 1024, 256, 512, 64, 0, 32768) \
    X(icebreaker, 4, 0, 256, 64, 128, 16, 0, 124)

#endif
