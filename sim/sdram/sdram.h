/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sdram.h - simulation model of a 16-bit SDR SDRAM (IS42S16160 / MT48LC16M16 class: 4 banks
 * x 8192 rows x 512 columns x 16 bits = 32 MB, the ULX3S's memory), driven once per cycle
 * with the controller's pins (rtl/mem/tpu_mem_sdram.sv).
 *
 * The model holds the whole array, returns read data CL cycles after a READ (CL and the
 * burst length come from the mode register the controller writes), and checks every rule
 * on every cycle: the power-up sequence, command legality per bank state, tRCD, tRP, tRAS,
 * tRC, tRRD, tWR, tRFC, tMRD, the refresh interval, burst interruption and the data bus
 * (DQ driven by both sides).  A violation is counted and reported with the cycle and the
 * rule through the configured handler; the default handler prints the first 20 to stderr.
 *
 * Cycle convention: sdram_cycle() is called once per clock cycle with the pins presented
 * during that cycle (the controller's registered outputs); it returns whether the device
 * drives DQ in that cycle and the value, which the controller samples at the clock edge
 * that ends the cycle.  A READ presented in cycle t puts word i on DQ in cycle t + CL + i;
 * a WRITE presented in cycle t takes word i from DQ (and DQM) in cycle t + i.
 */
#ifndef PICOTPU_SDRAM_H
#define PICOTPU_SDRAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SDRAM_BANKS 4
#define SDRAM_ROWS 8192
#define SDRAM_COLS 512
#define SDRAM_WORDS (SDRAM_BANKS * SDRAM_ROWS * SDRAM_COLS) /* 16-bit words, 32 MB */

/* Device timing, as in the data sheet (ns unless named _ck); field names follow the RTL
 * parameters of tpu_mem_sdram. */
typedef struct sdram_timing {
    int trcd_ns, trp_ns, tras_ns, trc_ns, trrd_ns; /* bank timing */
    int tras_max_ns;               /* a row may stay open at most this long (100 us) */
    int twr_ns, twr_ck;            /* last write data to PRE: the larger of ns and cycles */
    int trfc_ns;                   /* REF to any command */
    int tmrd_ck;                   /* LOAD MODE REGISTER to any command, cycles */
    int init_us;                   /* power-up wait with CKE high before the first command */
    int init_refs;                 /* AUTO REFRESHes required before LOAD MODE REGISTER */
    int refresh_count;             /* refreshes required per refresh_ms (8192 per 64 ms) */
    int refresh_ms;
    int max_postpone;              /* refreshes that may be owed at any time (8) */
} sdram_timing_t;

/* The slowest grade of the IS42S16160 / MT48LC16M16 class parts: tRCD 20, tRP 20,
 * tRAS 42 (at most 100 us), tRC 66, tRRD 15, tWR 15 ns (and 2 cycles), tRFC 66, tMRD 2 cycles, 200 us
 * power-up, 2 init refreshes, 8192 refreshes per 64 ms, 8 may be owed. */
void sdram_timing_default(sdram_timing_t *t);
/* Sets one field by its RTL parameter name ("TRcdNs", "TMrdCk", "TInitUs", ...) or model
 * name ("TRasMaxNs", "RefreshMs", "RefreshCount", "MaxPostpone", "TWrCk", "InitRefs");
 * false if unknown. */
bool sdram_timing_set(sdram_timing_t *t, const char *name, int value);

typedef void (*sdram_violation_fn)(void *ctx, const char *msg);

typedef struct sdram_config {
    const char *name;              /* prefix of messages */
    uint32_t clk_hz;               /* the clock, to turn ns into cycles */
    sdram_timing_t t;
    bool check_refresh;            /* enforce the refresh interval */
    sdram_violation_fn on_violation; /* NULL: print the first 20 to stderr */
    void *ctx;
} sdram_config_t;

/* The pins of one cycle. */
typedef struct sdram_pins {
    bool cke, cs_n, ras_n, cas_n, we_n;
    int ba;                        /* 2 bits */
    uint32_t a;                    /* 13 bits */
    int dqm;                       /* bit 0 lower byte, bit 1 upper byte */
    uint16_t dq;                   /* controller's DQ output */
    bool dq_oe;                    /* controller drives DQ */
} sdram_pins_t;

typedef struct sdram_stats {
    uint64_t cycles, act, pre, prea, ref, mrs, rd, wr;
    uint64_t rd_words, wr_words;   /* data-bus cycles used */
    uint64_t violations;
} sdram_stats_t;

typedef struct sdram sdram_t;

sdram_t *sdram_new(const sdram_config_t *cfg);
void sdram_free(sdram_t *d);

/* One cycle; returns true when the device drives DQ this cycle and stores the value. */
bool sdram_cycle(sdram_t *d, const sdram_pins_t *p, uint16_t *dq);

/* Backdoor access (no timing, no statistics).  Word address w = (row << 11) | (bank << 9)
 * | column: the controller's beat address times the words per beat, plus the word. */
uint16_t sdram_peek(const sdram_t *d, uint32_t w);
void sdram_poke(sdram_t *d, uint32_t w, uint16_t v);

void sdram_get_stats(const sdram_t *d, sdram_stats_t *s);
uint64_t sdram_now(const sdram_t *d);
/* Cycles of a timing value in ns at the configured clock (rounded up). */
int sdram_ns2ck(const sdram_t *d, int ns);
/* True once LOAD MODE REGISTER has ended the power-up sequence. */
bool sdram_ready(const sdram_t *d);
/* The mode register: CAS latency and burst length (0 before it is written). */
int sdram_cas_latency(const sdram_t *d);
int sdram_burst_length(const sdram_t *d);

#ifdef __cplusplus
}
#endif
#endif
