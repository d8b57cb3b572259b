/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_link.c - libpicotpu over the link protocol (the path of the sim and usb
 * backends), against an emulated device (fakedev.c): operations bit for bit
 * through a wire that corrupts, drops and pads frames; and the link's error
 * codes (TIMEOUT, PROTOCOL, DEVICE).
 *   test_link [--seed N] [--iters N]
 */
#include "fakedev.h"
#include "hostutil.h"
#include "ptpu_arith.h"
#include "ptpu_kernels.h"

static int failures, checks;
#define CHECK(cond, ...)                                                                      \
    do {                                                                                      \
        checks++;                                                                             \
        if (!(cond) && failures++ < 20) {                                                     \
            printf("# failed: ");                                                             \
            printf(__VA_ARGS__);                                                              \
            printf("\n");                                                                     \
        }                                                                                     \
    } while (0)

static ptpu_device *open_fake(const char *cfg, const struct fake_faults *f, int *rc)
{
    struct ptpu_xport x;
    ptpu_device *d = NULL;
    if (fake_xport(cfg, f, &x)) {
        *rc = -100;
        return NULL;
    }
    *rc = ptpu_open_xport(&x, "fake", &d);
    return d;
}

static void gemms(ptpu_device *dev, int iters, const char *what)
{
    struct ptpu_device_info info;
    ptpu_device_info(dev, &info);
    for (int it = 0; it < iters; it++) {
        int M = hu_range(1, 300), N = hu_range(1, 40), K = hu_range(1, 300);
        int8_t *A = malloc((size_t)M * K), *B = malloc((size_t)K * N);
        int8_t *C = malloc((size_t)M * N), *R = malloc((size_t)M * N);
        int32_t *m0 = malloc(4 * (size_t)N), *sh = malloc(4 * (size_t)N);
        for (size_t i = 0; i < (size_t)M * K; i++)
            A[i] = (int8_t)hu_range(-128, 127);
        for (size_t i = 0; i < (size_t)K * N; i++)
            B[i] = (int8_t)hu_range(-127, 127);
        for (int j = 0; j < N; j++) {
            int s;
            ptpu_quantize_multiplier(1.0 / (50.0 * K), &m0[j], &s);
            sh[j] = s;
        }
        struct ptpu_quant q = {NULL, m0, sh, hu_range(-128, 127), -128, 127};
        int zp = hu_range(-128, 127);
        ptpu_k_gemm_i8(M, N, K, A, zp, B, &q, R);
        struct ptpu_counters c;
        int rc = ptpu_gemm_i8(dev, M, N, K, A, zp, B, &q, C, &c);
        CHECK(rc == 0, "%s gemm %dx%dx%d: %s (%s)", what, M, N, K, ptpu_error_name(rc),
              ptpu_last_error(dev));
        CHECK(rc || !memcmp(C, R, (size_t)M * N), "%s gemm %dx%dx%d differs", what, M, N, K);
        CHECK(rc || c.c[PTPU_CNT_MXU_ROWS] > 0, "%s: no counters", what);
        free(A);
        free(B);
        free(C);
        free(R);
        free(m0);
        free(sh);
    }
}

int main(int argc, char **argv)
{
    uint64_t seed;
    int iters = 20, rc;
    hu_args(argc, argv, "test_link", &seed, &iters);

    struct fake_faults clean = {0}, noisy = {.corrupt_every = 3, .drop_every = 4,
                                             .noise_every = 2};
    ptpu_device *d = open_fake("sim16", &clean, &rc);
    CHECK(rc == 0, "open clean: %s", ptpu_last_error(NULL));
    if (d) {
        struct ptpu_device_info i;
        ptpu_device_info(d, &i);
        CHECK(i.n == 16 && i.bf16 == 1 && i.mem_kb == 262144 && !strcmp(i.config, "sim16"),
              "INFO: n %d bf16 %d mem %u config %s", i.n, i.bf16, i.mem_kb, i.config);
        gemms(d, iters, "clean");
        ptpu_close(d);
    }
    d = open_fake("ulx3s", &noisy, &rc);
    CHECK(rc == 0, "open noisy: %s", ptpu_last_error(NULL));
    if (d) {
        gemms(d, iters, "noisy");
        ptpu_close(d);
    }

    struct fake_faults silent = {.silent = 1}, garble = {.garble = 1}, rej = {.reject_run = 1};
    d = open_fake("sim16", &silent, &rc);
    CHECK(rc == PTPU_ERR_TIMEOUT && !d, "silent device: %s", ptpu_error_name(rc));
    d = open_fake("sim16", &garble, &rc);
    CHECK(rc == PTPU_ERR_PROTOCOL && !d, "garbled responses: %s", ptpu_error_name(rc));
    d = open_fake("sim16", &rej, &rc);
    CHECK(rc == 0, "open rejecting device");
    if (d) {
        uint32_t a;
        uint32_t halt[8] = {PTPU_OP_HALT};
        ptpu_mem_alloc(d, 32, &a);
        ptpu_mem_write(d, a, halt, 32);
        rc = ptpu_start(d, a, 1);
        CHECK(rc == PTPU_ERR_DEVICE && strstr(ptpu_last_error(d), "status 5"),
              "RUN rejected: %s (%s)", ptpu_error_name(rc), ptpu_last_error(d));
        ptpu_close(d);
    }
    /* The fake device follows the firmware's RUN dedup: only a RUN right after a RUN with
     * the same SEQ is a resend. A RUN, WAIT and COUNTERS, then k one-frame MEM_WRITEs: for
     * one k of 240..256 the next RUN gets the first one's SEQ (253 with this backend). That
     * RUN must still run (it faults on an invalid instruction). */
    d = open_fake("sim16", &clean, &rc);
    CHECK(rc == 0, "open clean");
    for (int k = 240; d && k <= 256; k++) {
        uint32_t a;
        uint32_t prog[16] = {PTPU_OP_HALT, 0, 0, 0, 0, 0, 0, 0, 0xf};
        uint8_t byte = 0;
        rc = ptpu_mem_alloc(d, 64, &a);
        if (!rc)
            rc = ptpu_mem_write(d, a, prog, sizeof(prog));
        if (!rc)
            rc = ptpu_start(d, a, 1);
        if (!rc)
            rc = ptpu_wait(d, NULL);
        CHECK(rc == 0, "RUN of a HALT: %s (%s)", ptpu_error_name(rc), ptpu_last_error(d));
        for (int i = 0; i < k && !rc; i++)
            rc = ptpu_mem_write(d, a + 63, &byte, 1);
        if (!rc)
            rc = ptpu_start(d, a + 32, 1);
        if (!rc)
            rc = ptpu_wait(d, NULL);
        CHECK(rc == PTPU_ERR_FAULT, "RUN after %d MEM_WRITEs: %s (%s), want FAULT (an invalid "
              "instruction)", k, ptpu_error_name(rc), ptpu_last_error(d));
        ptpu_mem_free(d, a);
    }
    ptpu_close(d);
    if (failures) {
        printf("FAIL host_link: %d of %d checks failed (seed %llu)\n", failures, checks,
               (unsigned long long)seed);
        return 1;
    }
    printf("PASS host_link: %d checks over a noisy emulated link, seed %llu\n", checks,
           (unsigned long long)seed);
    return 0;
}
