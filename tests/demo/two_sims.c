/* SPDX-License-Identifier: Apache-2.0 */
/*
 * two_sims.c - two simulated devices open at once in one process: both compute a GEMM
 * bit for bit against the ref device, and closing them in the order they were opened
 * must not hang.  Verilator 5.006 keeps one current context per thread; before the
 * simulation library selected its model's context (sim/picotpu_sim_glue.cpp), closing
 * the older one deadlocked.  Run under a time-out (tests/demo/test.mk).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "picotpu.h"

#define M 40
#define N 24
#define K 48

int main(void)
{
    setvbuf(stdout, NULL, _IONBF, 0);
    ptpu_device *d[3];
    const char *uri[3] = {"sim:config=sim16", "sim:config=sim16", "ref:config=sim16"};
    for (int i = 0; i < 3; i++) {
        int rc = ptpu_open(uri[i], &d[i]);
        if (rc) {
            printf("FAIL demo_two_sims: open %s (device %d): %s: %s\n", uri[i], i,
                   ptpu_error_name(rc), ptpu_last_error(NULL));
            return 1;
        }
    }
    static int8_t A[M * K], B[K * N], C[3][M * N];
    int32_t m0[N], sh[N], bias[N];
    unsigned x = 12345;
    for (int i = 0; i < M * K; i++)
        A[i] = (int8_t)((x = x * 1103515245u + 12345u) >> 24);
    for (int i = 0; i < K * N; i++)
        B[i] = (int8_t)((int)((x = x * 1103515245u + 12345u) >> 24) % 127);
    for (int j = 0; j < N; j++) {
        m0[j] = 1 << 30;
        sh[j] = -6 - j % 4;
        bias[j] = j * 100 - 1000;
    }
    struct ptpu_quant q = {bias, m0, sh, 3, -128, 127};
    /* interleaved: each simulation runs while the other one is alive */
    for (int i = 0; i < 3; i++) {
        int rc = ptpu_gemm_i8(d[i], M, N, K, A, -5, B, &q, C[i], NULL);
        if (rc) {
            printf("FAIL demo_two_sims: GEMM on %s (device %d): %s: %s\n", uri[i], i,
                   ptpu_error_name(rc), ptpu_last_error(d[i]));
            return 1;
        }
    }
    int same = !memcmp(C[0], C[2], sizeof(C[0])) && !memcmp(C[1], C[2], sizeof(C[0]));
    for (int i = 0; i < 3; i++)
        ptpu_close(d[i]);      /* the older simulation first */
    if (!same) {
        printf("FAIL demo_two_sims: the two simulations and ref disagree on a %dx%dx%d GEMM\n",
               M, N, K);
        return 1;
    }
    printf("PASS demo_two_sims: two simulated devices at once, %dx%dx%d GEMM equal to ref, "
           "closed in opening order\n", M, N, K);
    return 0;
}
