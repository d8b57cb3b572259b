/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_errors.c - every libpicotpu error code that the ref backend can
 * produce, provoked, with its name, description and detail message; the
 * codes that need a link (TIMEOUT, PROTOCOL) are listed as not reachable.
 */
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "hostutil.h"
#include "picotpu.h"
#include "ptpu_model.h"

static int failures, checks;
static int seen[32];
#define EXPECT(rc, code, what)                                                                \
    do {                                                                                      \
        int rc_ = (rc);                                                                       \
        checks++;                                                                             \
        if (rc_ != (code)) {                                                                  \
            failures++;                                                                       \
            printf("# %s: got %s (%d), expected %s\n", what, ptpu_error_name(rc_), rc_,       \
                   ptpu_error_name(code));                                                    \
        } else {                                                                              \
            seen[-(code)] = 1;                                                                \
        }                                                                                     \
    } while (0)
#define DETAIL(dev, sub, what)                                                                \
    do {                                                                                      \
        checks++;                                                                             \
        if (!strstr(ptpu_last_error(dev), sub)) {                                             \
            failures++;                                                                       \
            printf("# %s: detail '%s' lacks '%s'\n", what, ptpu_last_error(dev), sub);        \
        }                                                                                     \
    } while (0)

int main(int argc, char **argv)
{
    uint64_t seed;
    hu_args(argc, argv, "test_errors", &seed, NULL);
    ptpu_device *dev = NULL, *ib = NULL;

    /* names and descriptions */
#define X(name, value, desc)                                                                  \
    checks++;                                                                                 \
    if (strcmp(ptpu_error_name(value), #name) || strcmp(ptpu_strerror(value), desc)) {         \
        failures++;                                                                           \
        printf("# name/description of %d\n", value);                                          \
    }
    PTPU_ERROR_LIST(X)
#undef X
    checks++;
    if (strcmp(ptpu_error_name(-99), "UNKNOWN"))
        failures++;
    checks++;
    if (PTPU_API_VERSION_MAJOR(ptpu_api_version()) != PTPU_API_VERSION_MAJOR(PTPU_API_VERSION))
        failures++;
    EXPECT(ptpu_open("ref", &dev), PTPU_ERR_OK, "open ref");
    EXPECT(ptpu_open("ref:config=icebreaker", &ib), PTPU_ERR_OK, "open ref icebreaker");

    EXPECT(ptpu_open("ref", NULL), PTPU_ERR_INVALID_ARG, "open with NULL out");
    int8_t a[4] = {0}, c[4];
    int32_t m0[2] = {1 << 30, 1 << 30}, sh[2] = {0, 40};
    struct ptpu_quant q = {NULL, m0, sh, 0, -128, 127};
    EXPECT(ptpu_gemm_i8(dev, 0, 1, 1, a, 0, a, &q, c, NULL), PTPU_ERR_INVALID_ARG, "gemm M=0");
    EXPECT(ptpu_gemm_i8(dev, 1, 2, 1, a, 0, a, &q, c, NULL), PTPU_ERR_INVALID_ARG,
           "gemm shift 40");
    DETAIL(dev, "shift[1]", "gemm shift 40");
    EXPECT(ptpu_wait(dev, NULL), PTPU_ERR_INVALID_ARG, "wait without start");

    EXPECT(ptpu_open("usb", &(ptpu_device *){NULL}), PTPU_ERR_NO_DEVICE, "usb");
    DETAIL(NULL, "no picotpu board", "usb");
    EXPECT(ptpu_open("tpu9000", &(ptpu_device *){NULL}), PTPU_ERR_NO_DEVICE, "unknown URI");
    EXPECT(ptpu_open("ref:config=sim999", &(ptpu_device *){NULL}), PTPU_ERR_NO_DEVICE,
           "unknown configuration");

    ptpu_model *m = NULL;
    EXPECT(ptpu_model_load("/nonexistent/model.ptpm", &m), PTPU_ERR_IO, "missing model");
    DETAIL(NULL, "/nonexistent/model.ptpm", "missing model");
    EXPECT(ptpu_trace_open(dev, "/nonexistent/dir/trace.json"), PTPU_ERR_IO, "trace path");

    uint8_t junk[64] = "not a model";
    EXPECT(ptpu_model_load_mem(junk, sizeof(junk), &m), PTPU_ERR_FORMAT, "junk model");
    DETAIL(NULL, "magic", "junk model");

    ptpu_model_builder *mb;
    ptpu_mb_create(&mb);
    int in = ptpu_mb_input(mb, 2, 2, 1, 0.1f, 0);
    struct ptpu_conv_params p = {3, 3, 1, 1, 1, 1, PTPU_PAD_VALID, 0, 0, 0, 0, PTPU_ACT_NONE};
    int8_t w[9] = {0};
    int32_t b[1] = {0};
    float s[1] = {0.1f};
    EXPECT(ptpu_mb_conv2d(mb, in, 1, &p, w, b, s, 0.1f, 0), PTPU_ERR_SHAPE, "conv 3x3 on 2x2");
    ptpu_mb_free(mb);

    /* a model the device cannot run: a 16x16 max pool window */
    ptpu_mb_create(&mb);
    in = ptpu_mb_input(mb, 16, 16, 1, 0.1f, 0);
    int mp = ptpu_mb_maxpool(mb, in, 16, 16, 1, 1, PTPU_PAD_VALID);
    uint8_t *img = NULL;
    size_t ilen = 0;
    ptpu_model *bigpool = NULL;
    if (mp > 0 && !ptpu_mb_image(mb, &img, &ilen) && !ptpu_model_load_mem(img, ilen, &bigpool)) {
        int8_t x[256] = {0}, y[1];
        EXPECT(ptpu_model_run(dev, bigpool, x, y, NULL), PTPU_ERR_UNSUPPORTED, "16x16 max pool");
        DETAIL(dev, "window", "16x16 max pool");
        EXPECT(ptpu_model_start(dev, bigpool, x), PTPU_ERR_UNSUPPORTED, "16x16 max pool (async)");
        EXPECT(ptpu_model_wait(dev, bigpool, y, NULL), PTPU_ERR_INVALID_ARG, "wait unstarted");
        int8_t ref[1];
        EXPECT(ptpu_model_run_host(bigpool, x, ref), PTPU_ERR_OK, "16x16 max pool on the host");
    } else {
        failures++;
        printf("# could not build the max pool model\n");
    }
    ptpu_model_free(bigpool);
    free(img);
    ptpu_mb_free(mb);

    uint16_t h[4] = {0};
    uint32_t f[4];
    EXPECT(ptpu_gemm_bf16(ib, 1, 1, 1, h, h, NULL, 0, 0, f, NULL), PTPU_ERR_UNSUPPORTED,
           "bf16 on icebreaker");
    EXPECT(ptpu_open("sim:config=nosuch", &(ptpu_device *){NULL}), PTPU_ERR_NO_DEVICE,
           "sim library of an unknown configuration");

    uint32_t big;
    EXPECT(ptpu_mem_alloc(ib, 1 << 20, &big), PTPU_ERR_RANGE, "alloc 1 MB on 128 KB");
    DETAIL(ib, "out of device memory", "alloc 1 MB on 128 KB");
    EXPECT(ptpu_mem_write(ib, 127 * 1024, a, 2048), PTPU_ERR_RANGE, "write past the end");
    EXPECT(ptpu_mem_free(dev, 0x123), PTPU_ERR_INVALID_ARG, "free of a non-allocation");

    /* programs: a fault, then busy, then a rejected program */
    uint32_t prog;
    uint32_t insn[16] = {0};      /* opcode 0: BAD_OPCODE */
    ptpu_mem_alloc(dev, sizeof(insn), &prog);
    ptpu_mem_write(dev, prog, insn, sizeof(insn));
    EXPECT(ptpu_start(dev, prog, 2), PTPU_ERR_OK, "start");
    EXPECT(ptpu_start(dev, prog, 2), PTPU_ERR_BUSY, "start while running");
    EXPECT(ptpu_mem_write(dev, prog, insn, 4), PTPU_ERR_BUSY, "write while running");
    struct ptpu_counters cnt;
    EXPECT(ptpu_wait(dev, &cnt), PTPU_ERR_FAULT, "bad opcode");
    DETAIL(dev, "BAD_OPCODE", "bad opcode");
    insn[0] = PTPU_OP_HALT;
    ptpu_mem_write(dev, prog, insn, sizeof(insn));
    EXPECT(ptpu_start(dev, prog, 1), PTPU_ERR_OK, "halt");
    EXPECT(ptpu_wait(dev, &cnt), PTPU_ERR_OK, "halt");
    EXPECT(ptpu_start(dev, 0xfffffe0u, 4), PTPU_ERR_DEVICE, "program outside memory");
    EXPECT(ptpu_start(dev, prog + 4, 1), PTPU_ERR_INVALID_ARG, "misaligned program");

    /* NO_MEM: a child process with a small address space (not under ASan) */
#if defined(__SANITIZE_ADDRESS__)
    seen[-PTPU_ERR_NO_MEM] = 1;
    printf("# NO_MEM not provoked under ASan (it reserves the address space)\n");
#else
    pid_t pid = fork();
    if (pid == 0) {
        /* a 4096 x 4096 weight matrix: the compiler needs 16 MB more for its tiles */
        int K = 4096, N = 4096;
        int8_t *B = malloc((size_t)K * N), A[4096], C1[4096];
        int32_t *mm = malloc(4 * (size_t)N), *ss = calloc((size_t)N, 4);
        ptpu_device *d2 = NULL;
        if (!B || !mm || !ss || ptpu_open("ref", &d2))
            _exit(3);
        memset(B, 1, (size_t)K * N);
        memset(A, 1, sizeof(A));
        for (int i = 0; i < N; i++)
            mm[i] = 1 << 30;
        struct ptpu_quant qq = {NULL, mm, ss, 0, -128, 127};
        unsigned long vsz = 0;
        FILE *fs = fopen("/proc/self/statm", "r");
        if (!fs || fscanf(fs, "%lu", &vsz) != 1)
            _exit(4);
        fclose(fs);
        rlim_t lim = (rlim_t)vsz * (rlim_t)sysconf(_SC_PAGESIZE) + (8u << 20);
        struct rlimit rl = {lim, lim};
        setrlimit(RLIMIT_AS, &rl);
        int rc = ptpu_gemm_i8(d2, 1, N, K, A, 0, B, &qq, C1, NULL);
        _exit(rc == PTPU_ERR_NO_MEM ? 0 : 1);
    }
    int st = 0;
    waitpid(pid, &st, 0);
    checks++;
    if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
        seen[-PTPU_ERR_NO_MEM] = 1;
    else {
        failures++;
        printf("# NO_MEM: child exited with %d\n", WEXITSTATUS(st));
    }
#endif
    ptpu_close(dev);
    ptpu_close(ib);
    int missing = 0;
#define X(name, value, desc)                                                                  \
    if (value < 0 && !seen[-(value)]) {                                                       \
        if (value == PTPU_ERR_TIMEOUT || value == PTPU_ERR_PROTOCOL)                          \
            printf("# %s: a link error, provoked by test_link\n", #name);                     \
        else                                                                                  \
            missing++, printf("# %s never provoked\n", #name);                                \
    }
    PTPU_ERROR_LIST(X)
#undef X
    if (failures || missing) {
        printf("FAIL host_errors: %d of %d checks failed, %d codes not provoked\n", failures,
               checks, missing);
        return 1;
    }
    printf("PASS host_errors: %d checks\n", checks);
    return 0;
}
