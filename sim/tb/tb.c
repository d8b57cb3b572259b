/* SPDX-License-Identifier: Apache-2.0 */
/* tb.c - clocking, ports, seeds and PASS/FAIL reporting for C testbenches. */
#include "tb.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static uint64_t parse_seed(int argc, char **argv, bool *given)
{
    const char *s = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc)
            s = argv[i + 1];
        else if (strncmp(argv[i], "--seed=", 7) == 0)
            s = argv[i] + 7;
    }
    if (!s)
        s = getenv("SEED");
    *given = s != NULL;
    if (s) {
        char *end;
        errno = 0;
        uint64_t v = strtoull(s, &end, 0);
        if (errno || *end) {
            fprintf(stderr, "tb: bad seed '%s'\n", s);
            exit(2);
        }
        return v;
    }
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    uint64_t x = (uint64_t)ts.tv_sec * 1000000007ull ^ (uint64_t)ts.tv_nsec;
    return splitmix64(&x) & 0xffffffffull;
}

tb_t *tb_open(const char *name, int argc, char **argv)
{
    tb_t *tb = calloc(1, sizeof *tb);
    if (!tb) {
        perror("tb");
        exit(2);
    }
    tb->name = name;
    bool given;
    tb->seed = parse_seed(argc, argv, &given);
    uint64_t x = tb->seed;
    for (int i = 0; i < 4; i++)
        tb->rng[i] = splitmix64(&x);
    printf("# %s: seed=%llu%s (re-run with --seed %llu)\n", name,
           (unsigned long long)tb->seed, given ? "" : " (random)",
           (unsigned long long)tb->seed);
    fflush(stdout);

    tb->m = tbm_new(name);
    tb->clk = tb_sig(tb, "clk_i");
    const tb_port_t *ports;
    int n = tbm_ports(tb->m, &ports);
    for (int i = 0; i < n; i++)
        if (strcmp(ports[i].name, "rst_ni") == 0)
            tb->rst_n = &ports[i];

    const char *w = getenv("WAVES");
    if (w && *w && strcmp(w, "0") != 0) {
        mkdir("build", 0777);
        mkdir("build/waves", 0777);
        char path[512];
        snprintf(path, sizeof path, "build/waves/%s.fst", name);
        if (!tbm_trace_open(tb->m, path)) {
            fprintf(stderr, "tb: WAVES=1 needs a model built with WAVES=1 "
                            "(run make with WAVES=1)\n");
            exit(2);
        }
        tb->tracing = true;
        printf("# %s: waves in %s\n", name, path);
    }
    tb_set(tb->clk, 0);
    tb_eval(tb);
    return tb;
}

int tb_close(tb_t *tb)
{
    int rc = tb->fails ? 1 : 0;
    tbm_free(tb->m);
    free(tb);
    return rc;
}

tb_sig_t *tb_sig(tb_t *tb, const char *name)
{
    const tb_port_t *ports;
    int n = tbm_ports(tb->m, &ports);
    for (int i = 0; i < n; i++)
        if (strcmp(ports[i].name, name) == 0)
            return &ports[i];
    fprintf(stderr, "tb: %s has no port named '%s'\n", tb->name, name);
    exit(2);
}

void tb_set(tb_sig_t *s, uint64_t v)
{
    switch (s->store) {
    case 8: *(uint8_t *)s->ptr = (uint8_t)v; break;
    case 16: *(uint16_t *)s->ptr = (uint16_t)v; break;
    case 32: *(uint32_t *)s->ptr = (uint32_t)v; break;
    case 64: *(uint64_t *)s->ptr = v; break;
    default: tb_set_bits(s, 0, s->bits < 64 ? s->bits : 64, v); break;
    }
}

uint64_t tb_get(tb_sig_t *s)
{
    switch (s->store) {
    case 8: return *(uint8_t *)s->ptr;
    case 16: return *(uint16_t *)s->ptr;
    case 32: return *(uint32_t *)s->ptr;
    case 64: return *(uint64_t *)s->ptr;
    default: return tb_get_bits(s, 0, 64);
    }
}

void tb_set_bits(tb_sig_t *s, int lsb, int width, uint64_t v)
{
    if (s->store) {
        uint64_t cur = tb_get(s);
        uint64_t mask = (width >= 64 ? ~0ull : ((1ull << width) - 1)) << lsb;
        tb_set(s, (cur & ~mask) | ((v << lsb) & mask));
        return;
    }
    uint32_t *w = (uint32_t *)s->ptr;
    for (int i = 0; i < width; i++) {
        int b = lsb + i;
        uint32_t bit = 1u << (b & 31);
        if ((v >> i) & 1)
            w[b >> 5] |= bit;
        else
            w[b >> 5] &= ~bit;
    }
}

uint64_t tb_get_bits(tb_sig_t *s, int lsb, int width)
{
    if (s->store) {
        uint64_t v = tb_get(s) >> lsb;
        return width >= 64 ? v : v & ((1ull << width) - 1);
    }
    const uint32_t *w = (const uint32_t *)s->ptr;
    /* Fast path for aligned 8/16/32-bit fields: the common packed-array case. */
    if ((lsb & 31) + width <= 32) {
        uint32_t v = w[lsb >> 5] >> (lsb & 31);
        return width == 32 ? v : v & ((1u << width) - 1);
    }
    uint64_t v = 0;
    for (int i = 0; i < width; i++) {
        int b = lsb + i;
        v |= (uint64_t)((w[b >> 5] >> (b & 31)) & 1) << i;
    }
    return v;
}

void tb_eval(tb_t *tb)
{
    tbm_eval(tb->m);
    if (tbm_got_finish(tb->m)) {
        fprintf(stderr, "tb: %s: simulation stopped ($finish/$fatal or an "
                        "assertion) at cycle %llu\n",
                tb->name, (unsigned long long)tb->cycle);
        printf("FAIL %s: assertion or $fatal in the RTL at cycle %llu (seed=%llu)\n",
               tb->name, (unsigned long long)tb->cycle, (unsigned long long)tb->seed);
        exit(1);
    }
}

void tb_fall(tb_t *tb)
{
    tb_set(tb->clk, 0);
    tbm_eval(tb->m);
    if (tb->tracing)
        tbm_trace_dump(tb->m, tb->time);
    tb->time++;
}

void tb_rise(tb_t *tb)
{
    tb_set(tb->clk, 1);
    tb_eval(tb);
    if (tb->tracing)
        tbm_trace_dump(tb->m, tb->time);
    tb->time++;
    tb->cycle++;
}

void tb_tick(tb_t *tb)
{
    tb_fall(tb);
    tb_rise(tb);
}

void tb_ticks(tb_t *tb, int n)
{
    for (int i = 0; i < n; i++)
        tb_tick(tb);
}

void tb_reset(tb_t *tb, int cycles)
{
    if (!tb->rst_n) {
        fprintf(stderr, "tb: %s has no rst_ni port\n", tb->name);
        exit(2);
    }
    tb_set(tb->rst_n, 0);
    tb_ticks(tb, cycles);
    tb_set(tb->rst_n, 1);
    tb_eval(tb);
}

static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint64_t tb_rand64(tb_t *tb)
{
    uint64_t *s = tb->rng;
    uint64_t r = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return r;
}

int64_t tb_rand_range(tb_t *tb, int64_t lo, int64_t hi)
{
    uint64_t span = (uint64_t)(hi - lo) + 1;
    if (span == 0)
        return (int64_t)tb_rand64(tb);
    return lo + (int64_t)(tb_rand64(tb) % span);
}

bool tb_chance(tb_t *tb, unsigned num, unsigned den)
{
    return (tb_rand64(tb) % den) < num;
}

bool tb_fail_msg(tb_t *tb, const char *file, int line, const char *fmt, ...)
{
    if (tb->errors++ == 0) {
        char msg[400];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(msg, sizeof msg, fmt, ap);
        va_end(ap);
        snprintf(tb->first_error, sizeof tb->first_error, "%s:%d: %s (cycle %llu)",
                 file, line, msg, (unsigned long long)tb->cycle);
    }
    return false;
}

void tb_begin(tb_t *tb)
{
    tb->errors = 0;
    tb->first_error[0] = 0;
}

bool tb_end(tb_t *tb, const char *test, const char *detail_fmt, ...)
{
    char detail[256] = "";
    if (detail_fmt) {
        va_list ap;
        va_start(ap, detail_fmt);
        vsnprintf(detail, sizeof detail, detail_fmt, ap);
        va_end(ap);
    }
    bool ok = tb->errors == 0;
    if (ok) {
        tb->passes++;
        printf("PASS %s%s%s\n", test, detail[0] ? " " : "", detail);
    } else {
        tb->fails++;
        printf("FAIL %s: %s; %d error(s) (seed=%llu)%s%s\n", test, tb->first_error,
               tb->errors, (unsigned long long)tb->seed, detail[0] ? " " : "", detail);
    }
    fflush(stdout);
    tb->errors = 0;
    return ok;
}

double tb_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}
