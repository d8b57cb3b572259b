/* SPDX-License-Identifier: Apache-2.0 */
/*
 * tb.h - C testbench harness for Verilated picotpu blocks.
 *
 * Every RTL block is Verilated into a static library with the same tiny C
 * entry points (tbm_*, implemented once in tb_glue.cpp and specialised per
 * block by a port table generated from the Verilated header).  Testbenches are
 * plain C: they look ports up by name once, then read and write them through
 * the returned handles every cycle.
 *
 * Conventions shared by every testbench:
 *   - `--seed N` on the command line or SEED=N in the environment; otherwise a
 *     seed is drawn from the clock.  The seed is always printed.
 *   - WAVES=1 in the environment dumps an FST trace to build/waves/<name>.fst
 *     (the model must have been built with WAVES=1 too).
 *   - Each test prints exactly one line "PASS <name> ..." or "FAIL <name> ...",
 *     and the program exits non-zero if any test failed.
 */
#ifndef PICOTPU_TB_H
#define PICOTPU_TB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- model side: implemented by tb_glue.cpp for the Verilated block ---- */

typedef struct tbm tbm_t;

typedef struct tb_port {
    const char *name;
    void *ptr;     /* CData/SData/IData/QData or the first 32-bit word of a VlWide */
    int bits;      /* port width */
    int store;     /* 8, 16, 32, 64 bits, or 0 for a wide (word array) port */
    bool input;
} tb_port_t;

tbm_t *tbm_new(const char *name);
void tbm_free(tbm_t *m);
void tbm_eval(tbm_t *m);
int tbm_ports(tbm_t *m, const tb_port_t **ports);
bool tbm_trace_open(tbm_t *m, const char *path); /* false: built without WAVES=1 */
void tbm_trace_dump(tbm_t *m, uint64_t time);
bool tbm_got_finish(tbm_t *m);

/* ---- testbench side ---- */

typedef const tb_port_t tb_sig_t;

typedef struct tb {
    tbm_t *m;
    const char *name;
    uint64_t seed;
    uint64_t rng[4];
    uint64_t cycle;       /* rising edges since tb_open */
    uint64_t time;        /* trace time, two per cycle */
    bool tracing;
    tb_sig_t *clk;
    tb_sig_t *rst_n;      /* may be NULL */
    int fails;            /* failed tests so far */
    int passes;
    int errors;           /* tb_check failures in the current test */
    char first_error[512];
} tb_t;

/* Opens the model, parses --seed, starts tracing if WAVES=1. */
tb_t *tb_open(const char *name, int argc, char **argv);
/* Prints nothing; frees the model. Returns the process exit status. */
int tb_close(tb_t *tb);

/* Port handles (abort with a clear message when the name does not exist). */
tb_sig_t *tb_sig(tb_t *tb, const char *name);
void tb_set(tb_sig_t *s, uint64_t v);
uint64_t tb_get(tb_sig_t *s);
/* Bit-field access that works on every width, wide ones included. */
void tb_set_bits(tb_sig_t *s, int lsb, int width, uint64_t v);
uint64_t tb_get_bits(tb_sig_t *s, int lsb, int width);
static inline uint32_t *tb_words(tb_sig_t *s) { return (uint32_t *)s->ptr; }

/* Clock: one full cycle (falling then rising edge, each evaluated).  A
 * testbench that must see combinational outputs (a ready) for the inputs it
 * just set calls tb_fall(), reads them, then tb_rise(): still two evaluations
 * per cycle. */
void tb_eval(tb_t *tb);
void tb_fall(tb_t *tb);
void tb_rise(tb_t *tb);
void tb_tick(tb_t *tb);
void tb_ticks(tb_t *tb, int n);
/* Holds rst_ni low for `cycles` rising edges, then releases it. */
void tb_reset(tb_t *tb, int cycles);

/* Random stimulus: xoshiro256** seeded from the printed seed. */
uint64_t tb_rand64(tb_t *tb);
static inline uint32_t tb_rand32(tb_t *tb) { return (uint32_t)(tb_rand64(tb) >> 32); }
/* Uniform in [lo, hi], inclusive. */
int64_t tb_rand_range(tb_t *tb, int64_t lo, int64_t hi);
/* True with probability num/den. */
bool tb_chance(tb_t *tb, unsigned num, unsigned den);

/* Checks: record the first message of a failing test; never abort. */
#define tb_check(tb, cond, ...) \
    ((cond) ? (void)0 : (void)tb_fail_msg((tb), __FILE__, __LINE__, __VA_ARGS__))
bool tb_fail_msg(tb_t *tb, const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* Starts a named test, ends it with one PASS/FAIL line. Returns pass. */
void tb_begin(tb_t *tb);
bool tb_end(tb_t *tb, const char *test, const char *detail_fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Wall-clock seconds, for benchmarks. */
double tb_now(void);

#ifdef __cplusplus
}
#endif
#endif
