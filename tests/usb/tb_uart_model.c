/* SPDX-License-Identifier: Apache-2.0 */
/*
 * tb_uart_model.c - the UART model of the emulated chip (sim/uart_model.c) against
 * itself: two models wired back to back, random bytes in every line format at integer
 * and fractional bit times and with the two ends up to 2 % apart (less at the few cycles per
 * bit where the receiver's one-cycle sampling cannot take 2 %); a 10 % mismatch and a
 * wrong format must give errors; a break must be seen as one.
 *   tb_uart_model [--seed N]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hostutil.h"
#include "uart_model.h"

static int failures, checks;

#define CHECK(cond, ...)                                                                      \
    do {                                                                                      \
        checks++;                                                                             \
        if (!(cond)) {                                                                        \
            if (failures++ < 10) {                                                            \
                printf("# FAILED: ");                                                         \
                printf(__VA_ARGS__);                                                          \
                printf("\n");                                                                 \
            }                                                                                 \
        }                                                                                     \
    } while (0)

/* Sends n random bytes from a to b; returns how many arrived intact, *errs b's errors. */
static int run(uint64_t bit_a, unsigned fmt_a, uint64_t bit_b, unsigned fmt_b, int n,
               unsigned *errs, int gaps)
{
    uart_model_t a, b;
    uart_model_init(&a, bit_a, fmt_a);
    uart_model_init(&b, bit_b, fmt_b);
    unsigned nbits = fmt_a & 15u;
    uint8_t sent[256];
    int ns = 0, ok = 0, nr = 0, line_ab = 1, line_ba = 1;
    uint64_t cycles = 0, limit = (uint64_t)(n + 4) * 14 * (bit_a >> 16) + 1000;
    if (gaps)
        limit += (uint64_t)n * 200;
    while (cycles++ < limit) {
        if (ns < n && uart_model_tx_ready(&a) && (!gaps || hu_range(0, 40) == 0)) {
            sent[ns] = (uint8_t)(hu_next() & ((1u << nbits) - 1));
            uart_model_tx_byte(&a, sent[ns++]);
        }
        int got_a, got_b;
        int out_a = uart_model_cycle(&a, line_ba, &got_a);
        int out_b = uart_model_cycle(&b, line_ab, &got_b);
        line_ab = out_a;
        line_ba = out_b;
        if (got_b >= 0) {
            if (nr < ns && got_b == sent[nr])
                ok++;
            nr++;
        }
    }
    *errs = b.errors;
    return ok;
}

int main(int argc, char **argv)
{
    uint64_t seed;
    hu_args(argc, argv, "tb_uart_model", &seed, NULL);
    static const unsigned fmts[] = {8, 7, 8 | 1u << 8, 8 | 2u << 8, 7 | 3u << 8, 8 | 4u << 8,
                                    8 | 1u << 11, 8 | 2u << 11, 5, 6 | 2u << 8 | 2u << 11};
    int n = 200;
    for (size_t f = 0; f < sizeof(fmts) / sizeof(fmts[0]); f++) {
        for (int k = 0; k < 4; k++) {
            /* 4..40 cycles per bit, with a fraction; the far end within +-2 %, or less where
             * the receiver cannot take it: it finds the start edge and each sample point to
             * a cycle (2 cycles in all), so the drift up to the middle of the last stop bit
             * must stay below half a bit less those (seed 1796529268: 4.1 cycles per bit,
             * 1.8 % apart, lost 3 bytes of 200) */
            uint64_t bit = ((uint64_t)hu_range(4, 40) << 16) + (uint64_t)hu_range(0, 65535);
            unsigned fmt = fmts[f], stop2 = (fmt >> 11) & 3;
            double frame = 1 + (fmt & 15) + (((fmt >> 8) & 7) != 0) + (stop2 ? stop2 * 0.5 + 0.5 : 1);
            double room = 0.5 - 2.0 / (bit / 65536.0), lim = room / (frame - 0.5);
            lim = lim < 0 ? 0 : lim > 0.02 ? 0.02 : lim;
            double skew = k == 0 ? 0 : (hu_unit() - 0.5) * 2 * lim;
            uint64_t bit_b = (uint64_t)((double)bit * (1 + skew));
            unsigned errs;
            int ok = run(bit, fmt, bit_b, fmt, n, &errs, k == 3);
            CHECK(ok == n && errs == 0, "format 0x%x, %.3f vs %.3f cycles/bit%s: %d of %d bytes, "
                  "errors 0x%x", fmts[f], bit / 65536.0, bit_b / 65536.0, k == 3 ? ", gaps" : "",
                  ok, n, errs);
        }
    }
    /* 10 % apart: bytes are lost or garbled and framing errors show */
    unsigned errs;
    int ok = run(8u << 16, 8, (uint64_t)(8.8 * 65536), 8, n, &errs, 0);
    CHECK(ok < n / 2 && (errs & UART_ERR_FRAMING), "10 %% mismatch: %d of %d bytes intact, "
          "errors 0x%x", ok, n, errs);
    /* 3 Mbaud bytes into a receiver at 115200 baud (24 MHz): nothing arrives intact */
    ok = run(8u << 16, 8, (24000000ull << 16) / 115200, 8, 50, &errs, 0);
    CHECK(ok < 5, "3 M vs 115200 baud: %d of 50 intact, errors 0x%x", ok, errs);
    /* even parity sent, odd expected */
    ok = run(8u << 16, 8 | 2u << 8, 8u << 16, 8 | 1u << 8, n, &errs, 0);
    CHECK(errs & UART_ERR_PARITY, "parity mismatch: errors 0x%x", errs);
    /* a break: the line held low */
    {
        uart_model_t a, b;
        uart_model_init(&a, 8u << 16, 8 | 1u << 14);
        uart_model_init(&b, 8u << 16, 8);
        int line = 1, got, any = 0;
        for (int c = 0; c < 400; c++) {
            int o = uart_model_cycle(&a, 1, &got);
            uart_model_cycle(&b, line, &got);
            any |= got >= 0;
            line = o;
        }
        CHECK(any && (b.errors & UART_ERR_BREAK) && (b.errors & UART_ERR_FRAMING),
              "break: errors 0x%x", b.errors);
    }
    if (failures) {
        printf("FAIL uart_model: %d of %d checks failed (seed %llu)\n", failures, checks,
               (unsigned long long)seed);
        return 1;
    }
    printf("PASS uart_model: %d checks (10 formats, integer and fractional bit times, +-2 %% "
           "skew, gaps, mismatches, break), seed %llu\n", checks, (unsigned long long)seed);
    return 0;
}
