/* SPDX-License-Identifier: Apache-2.0 */
/*
 * picotpu.h - libpicotpu, the host runtime of picotpu (docs/runtime.md).
 *
 * One API over three backends chosen by a URI: "ref" (the bit-exact ISA model,
 * in process), "sim[:config=NAME,trace=FILE]" (the Verilated SoC, in
 * process), "usb[:serial=...]" (a board).  Every function returns 0 (or a
 * count) on success and a negative PTPU_ERR_* code on failure; the device
 * keeps a detail message of its last error (ptpu_last_error()).
 */
#ifndef PICOTPU_H
#define PICOTPU_H

#include <stddef.h>
#include <stdint.h>

#include "picotpu_isa.h"
#include "picotpu_model.h"

#ifdef __cplusplus
extern "C" {
#endif

/* API version: major << 16 | minor. */
#define PTPU_API_VERSION 0x00010000
#define PTPU_API_VERSION_MAJOR(v) ((v) >> 16)
/* The library's PTPU_API_VERSION (check it against the header's: same major). */
int ptpu_api_version(void);

enum ptpu_error {
#define PTPU_X_(name, value, desc) PTPU_ERR_##name = value,
    PTPU_ERROR_LIST(PTPU_X_)
#undef PTPU_X_
};

/* "INVALID_ARG" etc. for a code; "UNKNOWN" for other values. */
const char *ptpu_error_name(int code);
/* One-line description of a code. */
const char *ptpu_strerror(int code);

typedef struct ptpu_device ptpu_device;
typedef struct ptpu_model ptpu_model;

struct ptpu_device_info {
    char backend[8];          /* "ref", "sim", "usb" */
    char config[17];          /* configuration name */
    int n, bf16, ub_rows, wb_rows, acc_rows, vp_rows;
    uint32_t mem_kb;
};

struct ptpu_counters {
    uint64_t c[PTPU_NUM_COUNTERS];   /* indexed by PTPU_CNT_* (summed over a model's runs) */
    uint64_t runs;                   /* programs run */
    double utilization;              /* MXU_ROWS / CYCLES (0 when CYCLES is 0) */
};

/* ---- devices ---- */
int ptpu_open(const char *uri, ptpu_device **out);
void ptpu_close(ptpu_device *dev);
/* Detail message of the device's last error ("" when none); NULL dev: the
 * calling thread's last error of a call without a device (model loading). */
const char *ptpu_last_error(const ptpu_device *dev);
int ptpu_device_info(ptpu_device *dev, struct ptpu_device_info *info);
/* Chrome trace JSON of every run from now on (NULL stops); see docs/runtime.md. */
int ptpu_trace_open(ptpu_device *dev, const char *path);

/* ---- device memory ---- */
/* Allocate len bytes (32-byte aligned) of device memory; *addr is its address. */
int ptpu_mem_alloc(ptpu_device *dev, size_t len, uint32_t *addr);
int ptpu_mem_free(ptpu_device *dev, uint32_t addr);
int ptpu_mem_write(ptpu_device *dev, uint32_t addr, const void *data, size_t len);
int ptpu_mem_read(ptpu_device *dev, uint32_t addr, void *data, size_t len);

/* ---- programs ---- */
/* Start ninsns instructions at prog_addr (in device memory), with every
 * allocation open for reading and writing; returns at once. */
int ptpu_start(ptpu_device *dev, uint32_t prog_addr, uint32_t ninsns);
/* Wait for the running program; PTPU_ERR_FAULT when it faulted (detail: the
 * fault code, pc and address).  cnt (may be NULL) receives its counters. */
int ptpu_wait(ptpu_device *dev, struct ptpu_counters *cnt);

/* ---- operations (compiled, uploaded, run and read back) ---- */
struct ptpu_quant {           /* int8 output: y = clamp(mbqm(acc + bias, m0, shift) + zp) */
    const int32_t *bias;      /* [n] or NULL (0) */
    const int32_t *m0;        /* [n] */
    const int32_t *shift;     /* [n], in [-31, 31] */
    int zp_out, clamp_lo, clamp_hi;
};
/* C[M][N] = requant(sum_k (A[m][k] - zp_a) * B[k][n]); A [M][K], B [K][N] row major. */
int ptpu_gemm_i8(ptpu_device *dev, int M, int N, int K, const int8_t *A, int zp_a,
                 const int8_t *B, const struct ptpu_quant *q, int8_t *C,
                 struct ptpu_counters *cnt);
/* bf16 GEMM: A [M][K], B [K][N] bf16 bits; bias [N] fp32 bits or NULL; out_bf16 = 1:
 * C holds bf16 (uint16_t), else fp32 (uint32_t) values. */
int ptpu_gemm_bf16(ptpu_device *dev, int M, int N, int K, const uint16_t *A,
                   const uint16_t *B, const uint32_t *bias, int relu, int out_bf16, void *C,
                   struct ptpu_counters *cnt);

/* ---- models (docs/model-format.md) ---- */
int ptpu_model_load(const char *path, ptpu_model **out);
int ptpu_model_load_mem(const void *data, size_t len, ptpu_model **out);
void ptpu_model_free(ptpu_model *m);
struct ptpu_shape { int h, w, c; float scale; int zero_point; };
int ptpu_model_io(const ptpu_model *m, struct ptpu_shape *in, struct ptpu_shape *out);
int ptpu_model_num_ops(const ptpu_model *m);
/* Run on the host with the naive kernels (the definition of every op). */
int ptpu_model_run_host(const ptpu_model *m, const int8_t *in, int8_t *out);
/* Run on a device: compiled and its weights uploaded on the first call
 * (cached per device), then input upload, one run per op, output download. */
int ptpu_model_run(ptpu_device *dev, ptpu_model *m, const int8_t *in, int8_t *out,
                   struct ptpu_counters *cnt);
/* Asynchronous: upload the input and start the whole model as one program (returns
 * at once); wait for it and download the output.  The host may work meanwhile, but
 * not use the device. */
int ptpu_model_start(ptpu_device *dev, ptpu_model *m, const int8_t *in);
int ptpu_model_wait(ptpu_device *dev, ptpu_model *m, int8_t *out, struct ptpu_counters *cnt);
/* The same, with the counters of every op: per_op[ptpu_model_num_ops(m)]. */
int ptpu_model_profile(ptpu_device *dev, ptpu_model *m, const int8_t *in, int8_t *out,
                       struct ptpu_counters *per_op);
struct ptpu_op_info {
    const char *name;            /* "conv2d", "depthwise", "fc", "maxpool", "avgpool", "add" */
    int in_h, in_w, in_c, out_h, out_w, out_c, kh, kw, stride;
    uint64_t macs;               /* multiply-accumulates of the op (0 for pools and add) */
};
int ptpu_model_op_info(const ptpu_model *m, int op, struct ptpu_op_info *info);

#ifdef __cplusplus
}
#endif

#endif
