/* SPDX-License-Identifier: Apache-2.0 */
/*
 * tb_usb.c - the usb backend end to end through the emulated FTDI chip (run with
 * LD_PRELOAD=build/usb/libusb-emu.so): libpicotpu -> libftdi1 -> emulated libusb ->
 * UART pins of the simulated SoC (sim16u) -> firmware -> MXU -> back.
 *
 *   tb_usb [--seed N] [--only NAME]     boards "ft2232h:PTPU-EMU-0,ft231x:PTPU-EMU-1@16000000"
 *   tb_usb --bench [--frames N]         usb.emulated.efficiency
 *
 * Parts: list, open, mem (MEM_WRITE/READ round trips of random sizes, chunk and packet
 * boundaries), gemm and conv (bit for bit against ref and the naive kernels), ft231x
 * (64-byte packets at the chip's default, the ULX3S's rate ULX3S_BAUD), timeout (a mute device), hang (a chip that answers no bulk IN),
 * baud (a rate the SoC's UART does not run at; one the chip cannot make), unplug (mid
 * transfer).  Time is the SoC's simulated time (ptpu_usb_emu_ctl("cycles")).
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hostutil.h"
#include "picotpu.h"
#include "ptpu_kernels.h"
#include "ptpu_model.h"

int ptpu_usb_list(FILE *out);   /* libpicotpu internal (ptpu_backend_usb.c) */
/* the emulated chip's control call (sim/ftdi_emu), found in the preloaded library */
static long long (*emu_ctl)(const char *what, long long arg);

static int failures, checks;
static const char *only;

#define CHECK(cond, ...)                                                                      \
    do {                                                                                      \
        checks++;                                                                             \
        if (!(cond)) {                                                                        \
            failures++;                                                                       \
            printf("# FAILED: ");                                                             \
            printf(__VA_ARGS__);                                                              \
            printf("\n");                                                                     \
        }                                                                                     \
    } while (0)

static long long ctl(const char *what, long long arg) { return emu_ctl(what, arg); }
static double ms(long long cycles) { return (double)cycles * 1e3 / (double)ctl("clk_hz", 0); }

static int part(const char *name)
{
    if (only && strcmp(only, name))
        return 0;
    printf("# --- %s (at %.3f ms of simulated time)\n", name, ms(ctl("all_cycles", 0)));
    fflush(stdout);
    return 1;
}

static ptpu_device *open_ok(const char *uri)
{
    ptpu_device *d = NULL;
    int rc = ptpu_open(uri, &d);
    CHECK(rc == 0, "open %s: %s (%s)", uri, ptpu_error_name(rc), ptpu_last_error(NULL));
    return rc ? NULL : d;
}

static void test_list(void)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    int n = ptpu_usb_list(f);
    fclose(f);
    printf("%s", buf);
    CHECK(n == 2, "list: %d boards, expected 2", n);
    CHECK(strstr(buf, "FT2232H 0403:6010 serial PTPU-EMU-0") != NULL, "list: no FT2232H line");
    CHECK(strstr(buf, "FT231X 0403:6015 serial PTPU-EMU-1") != NULL, "list: no FT231X line");
    /* each with the line rate the backend opens it at by default: the boards' (the
     * ULX3S's from constraints/ulx3s.mk, tests/usb/test.mk) */
    char want[64];
    snprintf(want, sizeof want, "interface A, %d baud", ULX3S_BAUD);
    CHECK(strstr(buf, "interface B, 3000000 baud") && strstr(buf, want),
          "list: the boards' default baud rates (FT231X: %s)", want);
    free(buf);
}

static void test_open(void)
{
    ptpu_device *d = open_ok("usb");
    if (d) {
        struct ptpu_device_info i;
        ptpu_device_info(d, &i);
        CHECK(!strcmp(i.backend, "usb") && !strcmp(i.config, "sim16u") && i.n == 16,
              "info: backend %s config %s n %d", i.backend, i.config, i.n);
        ptpu_close(d);
    }
    int rc = ptpu_open("usb:serial=NOPE", &d);
    printf("# usb:serial=NOPE: %s: %s\n", ptpu_error_name(rc), ptpu_last_error(NULL));
    CHECK(rc == PTPU_ERR_NO_DEVICE && strstr(ptpu_last_error(NULL), "PTPU-EMU-1"),
          "a serial that is not there: %s", ptpu_error_name(rc));
    rc = ptpu_open("usb:latency=0", &d);
    CHECK(rc == PTPU_ERR_INVALID_ARG, "latency=0: %s", ptpu_error_name(rc));
}

/* Round trips of random sizes at random offsets; the last ones cross the link's
 * 4092/4096-byte chunks.  Returns the packets counted by the emulator. */
static void round_trips(ptpu_device *d, const char *what, int n, int maxlen, const int *fixed,
                        int nfixed)
{
    uint32_t base;
    int rc = ptpu_mem_alloc(d, 1 << 20, &base);
    CHECK(rc == 0, "%s: alloc: %s", what, ptpu_error_name(rc));
    if (rc)
        return;
    uint8_t *w = malloc(8192), *r = malloc(8192);
    long long full0 = ctl("full_pkts", 0), short0 = ctl("short_pkts", 0);
    for (int k = 0; k < n + nfixed; k++) {
        int len = k < n ? hu_range(1, maxlen) : fixed[k - n];
        uint32_t off = (uint32_t)hu_range(0, 4000);
        for (int i = 0; i < len; i++)
            w[i] = (uint8_t)hu_next();
        long long c0 = ctl("cycles", 0);
        rc = ptpu_mem_write(d, base + off, w, (size_t)len);
        CHECK(rc == 0, "%s: write %d at +%u: %s (%s)", what, len, off, ptpu_error_name(rc),
              ptpu_last_error(d));
        memset(r, 0x5a, (size_t)len);
        rc = rc ? rc : ptpu_mem_read(d, base + off, r, (size_t)len);
        CHECK(rc == 0, "%s: read %d at +%u: %s (%s)", what, len, off, ptpu_error_name(rc),
              ptpu_last_error(d));
        CHECK(rc || !memcmp(w, r, (size_t)len), "%s: %d bytes at +%u differ", what, len, off);
        printf("# %s: %5d bytes at +%-4u written and read back in %.2f ms\n", what, len, off,
               ms(ctl("cycles", 0) - c0));
    }
    long long full = ctl("full_pkts", 0) - full0, shrt = ctl("short_pkts", 0) - short0;
    printf("# %s: %lld full and %lld short bulk IN packets\n", what, full, shrt);
    CHECK(full > 0 && shrt > 0, "%s: %lld full, %lld short packets (both kinds expected)", what,
          full, shrt);
    ptpu_mem_free(d, base);
    free(w);
    free(r);
}

static void test_mem(void)
{
    /* a latency timer of 2 ms: 600 bytes arrive in that time at 3 Mbaud, so that long
     * responses come in full packets (510 data bytes) as well as short ones */
    ptpu_device *d = open_ok("usb:serial=PTPU-EMU-0,latency=2");
    if (!d)
        return;
    static const int fixed[] = {1, 4097};   /* packets of 510 data bytes; link chunks */
    round_trips(d, "ft2232h", 1, 1100, fixed, 2);
    ptpu_close(d);
}

/* A board opened at a rate its UART does not run at: nothing is understood, so the open
 * ends in TIMEOUT (or PROTOCOL) with a message that contains `says`. */
static void wrong_baud(const char *uri, const char *what, const char *says)
{
    ptpu_device *d;
    int rc = ptpu_open(uri, &d);
    printf("# %s: %s: %s\n", what, ptpu_error_name(rc), ptpu_last_error(NULL));
    CHECK(rc == PTPU_ERR_TIMEOUT || rc == PTPU_ERR_PROTOCOL, "%s: %s", what, ptpu_error_name(rc));
    CHECK(rc == 0 || strstr(ptpu_last_error(NULL), says), "%s: message", what);
    if (!rc)
        ptpu_close(d);
}

/* The FT231X board (the ULX3S) at the backend's default for the chip, which must be the
 * board's line rate (ULX3S_BAUD); then at another rate the chip makes, which must fail. */
static void test_ft231x(void)
{
    ptpu_device *d = open_ok("usb:index=1");
    if (!d)
        return;
    static const int fixed[] = {62, 63, 1000};  /* packets of 62 data bytes */
    round_trips(d, "ft231x", 1, 300, fixed, 3);
    ptpu_close(d);
    int other = ULX3S_BAUD == 3000000 ? 2000000 : 3000000;
    char uri[64], what[96], says[32];
    snprintf(uri, sizeof uri, "usb:index=1,baud=%d,timeout=2", other);
    snprintf(what, sizeof what, "FT231X board at %d baud (it runs at %d)", other, ULX3S_BAUD);
    snprintf(says, sizeof says, "at %d baud", other);
    wrong_baud(uri, what, says);
}

static void test_gemm(void)
{
    ptpu_device *d = open_ok("usb"), *ref = open_ok("ref:config=sim16");
    if (!d || !ref)
        return;
    int M = hu_range(8, 24), N = hu_range(8, 20), K = hu_range(8, 24);
    int8_t *A = malloc((size_t)M * K), *B = malloc((size_t)K * N);
    int8_t *C = malloc((size_t)M * N), *R = malloc((size_t)M * N), *X = malloc((size_t)M * N);
    int32_t bias[64], m0[64], sh[64];
    for (int i = 0; i < M * K; i++)
        A[i] = (int8_t)hu_range(-128, 127);
    for (int i = 0; i < K * N; i++)
        B[i] = (int8_t)hu_range(-127, 127);
    for (int j = 0; j < N; j++) {
        bias[j] = hu_range(-5000, 5000);
        m0[j] = hu_range(1 << 29, 0x7fffffff);
        sh[j] = hu_range(-12, -6);
    }
    struct ptpu_quant q = {bias, m0, sh, hu_range(-20, 20), -128, 127};
    int zp = hu_range(-10, 10);
    ptpu_k_gemm_i8(M, N, K, A, zp, B, &q, R);
    struct ptpu_counters c;
    int rc = ptpu_gemm_i8(ref, M, N, K, A, zp, B, &q, X, &c);
    CHECK(rc == 0 && !memcmp(X, R, (size_t)M * N), "gemm %dx%dx%d: ref differs from the naive "
          "kernel (%s)", M, N, K, ptpu_error_name(rc));
    long long c0 = ctl("cycles", 0);
    rc = ptpu_gemm_i8(d, M, N, K, A, zp, B, &q, C, &c);
    CHECK(rc == 0, "gemm %dx%dx%d on usb: %s (%s)", M, N, K, ptpu_error_name(rc),
          ptpu_last_error(d));
    size_t bad = 0;
    for (int i = 0; !rc && i < M * N; i++)
        bad += C[i] != R[i];
    CHECK(!rc && !bad, "gemm %dx%dx%d on usb: %zu of %d outputs differ", M, N, K, bad, M * N);
    printf("# int8 GEMM %d x %d x %d over usb: identical to ref and the naive kernel, %llu "
           "device cycles, %.2f ms of simulated time in all\n", M, N, K,
           (unsigned long long)c.c[PTPU_CNT_CYCLES], ms(ctl("cycles", 0) - c0));
    free(A), free(B), free(C), free(R), free(X);
    ptpu_close(d);
    ptpu_close(ref);
}

static void test_conv(void)
{
    ptpu_device *d = open_ok("usb"), *ref = open_ok("ref:config=sim16");
    if (!d || !ref)
        return;
    int H = hu_range(5, 8), W = hu_range(5, 8), C = hu_range(1, 5), CO = hu_range(4, 18);
    int8_t w[3 * 3 * 5 * 18];
    int32_t b[18];
    float s[18];
    for (size_t i = 0; i < sizeof(w); i++)
        w[i] = (int8_t)hu_range(-127, 127);
    for (int i = 0; i < CO; i++) {
        b[i] = hu_range(-2000, 2000);
        s[i] = 0.002f + 0.001f * (float)hu_range(0, 9);
    }
    ptpu_model_builder *mb;
    ptpu_mb_create(&mb);
    int in = ptpu_mb_input(mb, H, W, C, 0.05f, hu_range(-20, 20));
    struct ptpu_conv_params p = {3, 3, hu_range(1, 2), 1, 1, 1, PTPU_PAD_SAME, 0, 0, 0, 0,
                                 PTPU_ACT_RELU};
    int t = ptpu_mb_conv2d(mb, in, CO, &p, w, b, s, 0.08f, -100);
    ptpu_mb_output(mb, t);
    uint8_t *img = NULL;
    size_t len = 0;
    ptpu_model *m = NULL;
    int rc = t > 0 ? ptpu_mb_image(mb, &img, &len) : -1;
    rc = rc ? rc : ptpu_model_load_mem(img, len, &m);
    CHECK(rc == 0, "conv: model build: %d", rc);
    if (!rc) {
        struct ptpu_shape si, so;
        ptpu_model_io(m, &si, &so);
        size_t ni = (size_t)si.h * si.w * si.c, no = (size_t)so.h * so.w * so.c;
        int8_t *x = malloc(ni), *yh = malloc(no), *yr = malloc(no), *yu = malloc(no);
        for (size_t i = 0; i < ni; i++)
            x[i] = (int8_t)hu_range(-128, 127);
        ptpu_model_run_host(m, x, yh);
        rc = ptpu_model_run(ref, m, x, yr, NULL);
        CHECK(rc == 0 && !memcmp(yh, yr, no), "conv: ref differs from the naive kernels (%s)",
              ptpu_error_name(rc));
        long long c0 = ctl("cycles", 0);
        struct ptpu_counters c;
        rc = ptpu_model_run(d, m, x, yu, &c);
        CHECK(rc == 0, "conv on usb: %s (%s)", ptpu_error_name(rc), ptpu_last_error(d));
        size_t bad = 0;
        for (size_t i = 0; !rc && i < no; i++)
            bad += yu[i] != yh[i];
        CHECK(!rc && !bad, "conv on usb: %zu of %zu outputs differ", bad, no);
        printf("# conv2d 3x3 stride %d %dx%dx%d -> %dx%dx%d over usb: identical to ref and the "
               "naive kernels, %llu device cycles, %.2f ms of simulated time in all\n",
               p.stride_h, H, W, C, so.h, so.w, so.c, (unsigned long long)c.c[PTPU_CNT_CYCLES],
               ms(ctl("cycles", 0) - c0));
        free(x), free(yh), free(yr), free(yu);
    }
    free(img);
    ptpu_model_free(m);
    ptpu_mb_free(mb);
    ptpu_close(d);
    ptpu_close(ref);
}

/* A device that stops answering: the request times out (the emulated time passes in
 * latency periods), the error says so, and the device serves again once it answers. */
static void test_timeout(void)
{
    ptpu_device *d = open_ok("usb:timeout=2");
    if (!d)
        return;
    uint8_t buf[64];
    ctl("mute", 1);
    long long c0 = ctl("cycles", 0);
    int rc = ptpu_mem_read(d, 0, buf, sizeof(buf));
    double t = ms(ctl("cycles", 0) - c0);
    printf("# mute device: %s after %.2f ms: %s\n", ptpu_error_name(rc), t, ptpu_last_error(d));
    CHECK(rc == PTPU_ERR_TIMEOUT, "mute device: %s, expected TIMEOUT", ptpu_error_name(rc));
    CHECK(t >= 6 * 2 && t < 6 * 2 + 20, "mute device: gave up after %.2f ms (6 attempts of 2 ms)",
          t);
    ctl("mute", 0);
    rc = ptpu_mem_read(d, 0, buf, sizeof(buf));
    CHECK(rc == 0, "answering again: %s (%s)", ptpu_error_name(rc), ptpu_last_error(d));
    ptpu_close(d);
}

/* A chip that answers no bulk IN at all: libusb time-outs, counted as time. */
static void test_hang(void)
{
    ptpu_device *d = open_ok("usb:timeout=100");
    if (!d)
        return;
    uint8_t buf[16];
    ctl("hang", 1);
    int rc = ptpu_mem_read(d, 0, buf, sizeof(buf));
    printf("# hung chip: %s: %s\n", ptpu_error_name(rc), ptpu_last_error(d));
    CHECK(rc == PTPU_ERR_TIMEOUT, "hung chip: %s, expected TIMEOUT", ptpu_error_name(rc));
    ctl("hang", 0);
    rc = ptpu_mem_read(d, 0, buf, sizeof(buf));
    CHECK(rc == 0, "after the hang: %s (%s)", ptpu_error_name(rc), ptpu_last_error(d));
    ptpu_close(d);
}

static void test_baud(void)
{
    ptpu_device *d;
    /* the chip makes 115200 baud, the SoC's UART runs at 3 Mbaud */
    wrong_baud("usb:baud=115200,timeout=2", "baud 115200 against a 3 Mbaud SoC", "baud right?");
    /* the FT231X tops out at 3 Mbaud: libftdi1 refuses 12 Mbaud */
    int rc = ptpu_open("usb:index=1,baud=12000000", &d);
    printf("# FT231X at 12 Mbaud: %s: %s\n", ptpu_error_name(rc), ptpu_last_error(NULL));
    CHECK(rc == PTPU_ERR_IO && strstr(ptpu_last_error(NULL), "baud"), "12 Mbaud on FT231X: %s",
          ptpu_error_name(rc));
    if (!rc)
        ptpu_close(d);
}

/* The board goes away in the middle of a MEM_WRITE: an error, not a hang. */
static void test_unplug(void)
{
    ptpu_device *d = open_ok("usb:serial=PTPU-EMU-1");
    if (!d)
        return;
    uint8_t *buf = calloc(1, 6000);
    uint32_t a;
    ptpu_mem_alloc(d, 8192, &a);
    ctl("unplug_after", 3000);
    int rc = ptpu_mem_write(d, a, buf, 6000);
    printf("# unplugged during a write: %s: %s\n", ptpu_error_name(rc), ptpu_last_error(d));
    CHECK(rc == PTPU_ERR_IO && strstr(ptpu_last_error(d), "unplugged"),
          "unplug mid-transfer: %s", ptpu_error_name(rc));
    rc = ptpu_mem_read(d, a, buf, 16);
    CHECK(rc == PTPU_ERR_IO, "after the unplug: %s", ptpu_error_name(rc));
    ptpu_close(d);
    rc = ptpu_open("usb:serial=PTPU-EMU-1", &d);
    printf("# the unplugged board again: %s: %s\n", ptpu_error_name(rc), ptpu_last_error(NULL));
    CHECK(rc == PTPU_ERR_NO_DEVICE, "unplugged board opened: %s", ptpu_error_name(rc));
    free(buf);
}

/* usb.emulated.efficiency: payload bytes per second of simulated time over the line rate
 * (baud / 10 bytes per second), with the largest MEM_WRITE (4092 data bytes) and MEM_READ
 * (4096) payloads. */
static int bench(int frames)
{
    ptpu_device *d = open_ok("usb");
    if (!d)
        return 1;
    uint32_t a;
    size_t len = (size_t)frames * 4092;
    uint8_t *w = malloc(len), *r = malloc((size_t)frames * 4096);
    for (size_t i = 0; i < len; i++)
        w[i] = (uint8_t)(i * 7 + 1);
    ptpu_mem_alloc(d, (size_t)frames * 4096 + 4096, &a);
    double line = 3000000.0 / 10;
    long long c0 = ctl("cycles", 0);
    int rc = ptpu_mem_write(d, a, w, len);
    double tw = ms(ctl("cycles", 0) - c0) / 1e3;
    c0 = ctl("cycles", 0);
    rc = rc ? rc : ptpu_mem_read(d, a, r, (size_t)frames * 4096);
    double tr = ms(ctl("cycles", 0) - c0) / 1e3;
    CHECK(rc == 0 && !memcmp(w, r, len), "bench transfers: %s", ptpu_error_name(rc));
    double ew = (double)len / tw / line, er = (double)frames * 4096 / tr / line;
    double e = (double)(len + (size_t)frames * 4096) / (tw + tr) / line;
    printf("# MEM_WRITE: %zu bytes in %.2f ms: %.4f of the line rate\n", len, tw * 1e3, ew);
    printf("# MEM_READ: %d bytes in %.2f ms: %.4f of the line rate\n", frames * 4096, tr * 1e3,
           er);
    printf("BENCH usb.emulated.efficiency %.4f\n", e);
    printf("BENCH usb.emulated.write_efficiency %.4f\n", ew);
    printf("BENCH usb.emulated.read_efficiency %.4f\n", er);
    free(w), free(r);
    ptpu_close(d);
    return failures != 0;
}

int main(int argc, char **argv)
{
    uint64_t seed;
    int frames = 4, do_bench = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--only") && i + 1 < argc)
            only = argv[++i];
        else if (!strcmp(argv[i], "--bench"))
            do_bench = 1;
        else if (!strcmp(argv[i], "--frames") && i + 1 < argc)
            frames = atoi(argv[++i]);
    }
    hu_args(argc, argv, "tb_usb", &seed, NULL);
    *(void **)&emu_ctl = dlsym(RTLD_DEFAULT, "ptpu_usb_emu_ctl");
    if (!emu_ctl) {
        printf("FAIL usb: run with LD_PRELOAD=build/usb/libusb-emu.so (no emulated chip)\n");
        return 1;
    }
    if (do_bench) {
        int rc = bench(frames);
        printf("%s usb_bench: %d checks\n", rc ? "FAIL" : "PASS", checks);
        return rc;
    }
    if (part("list"))
        test_list();
    if (part("open"))
        test_open();
    if (part("mem"))
        test_mem();
    if (part("gemm"))
        test_gemm();
    if (part("conv"))
        test_conv();
    if (part("timeout"))
        test_timeout();
    if (part("hang"))
        test_hang();
    if (part("baud"))
        test_baud();
    if (part("ft231x"))
        test_ft231x();
    if (part("unplug"))
        test_unplug();
    printf("# %.1f ms of simulated time on the boards\n", ms(ctl("all_cycles", 0)));
    if (failures) {
        printf("FAIL usb: %d of %d checks failed (seed %llu)\n", failures, checks,
               (unsigned long long)seed);
        return 1;
    }
    printf("PASS usb: %d checks through the emulated FTDI chip, seed %llu\n", checks,
           (unsigned long long)seed);
    return 0;
}
