/* SPDX-License-Identifier: Apache-2.0 */
/*
 * hbm2.h - simulation model of one HBM2 pseudo-channel (64 bits, BL4, 16 banks in
 * 4 bank groups, 1 KB pages), driven cycle by cycle with the commands of the
 * controller's m_hbm_* ports (rtl/mem/tpu_mem_pch_ctrl.sv).
 *
 * The model stores data sparsely (a hash of 1 KB pages, allocated on first write;
 * unwritten bytes read as 0), returns read data CL cycles after the RD, and checks
 * every timing rule on every command.  A violation calls the configured handler
 * with a message naming the rule, the bank and the cycle; the default handler
 * prints it and exits with status 1.
 *
 * Cycle convention: hbm2_cycle() is called once per controller clock cycle with
 * the commands presented during that cycle (cycle 0 is the first call).  A RD
 * presented in cycle t returns its data from the call of cycle t + CL.
 */
#ifndef PICOTPU_HBM2_H
#define PICOTPU_HBM2_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Command encodings: the same values as tpu_mem_pkg::Rcmd* and Ccmd*. */
enum hbm2_rcmd { HBM2_RNOP = 0, HBM2_ACT = 1, HBM2_PRE = 2, HBM2_PREA = 3, HBM2_REFAB = 4, HBM2_REFPB = 5 };
enum hbm2_ccmd { HBM2_CNOP = 0, HBM2_RD = 1, HBM2_WR = 2 };

#define HBM2_BANKS 16
#define HBM2_GROUPS 4
#define HBM2_COLS 32     /* 32-byte bursts per 1 KB page */
#define HBM2_BEAT 32     /* bytes per burst */

/* Timing in controller cycles; field names follow the RTL parameters. */
typedef struct hbm2_timing {
    int cl, cwl, tbl;              /* read latency, write latency, burst cycles on the bus */
    int trcd, trp, tras, trc;      /* bank */
    int trrd_s, trrd_l, tfaw;      /* activates */
    int tccd_s, tccd_l;            /* column to column */
    int twr, trtp_s, trtp_l;       /* to precharge */
    int twtr_s, twtr_l, trtw;      /* turnarounds */
    int trfc, trfc_pb, trrefd;     /* refresh */
    int trefi;                     /* refresh interval */
    int max_postpone;              /* refreshes that may be postponed or pulled in (8) */
} hbm2_timing_t;

/* The HBM2 set of the blueprint (2 Gb/s per pin, tCK = 1 ns). */
void hbm2_timing_default(hbm2_timing_t *t);
/* Sets one field by its RTL parameter name ("CL", "TRcd", "TRefi", ...); false if unknown. */
bool hbm2_timing_set(hbm2_timing_t *t, const char *name, int value);

typedef void (*hbm2_violation_fn)(void *ctx, const char *msg);

typedef struct hbm2_config {
    const char *name;          /* prefix of messages, e.g. "pch3" */
    int row_bits;              /* rows per bank = 2^row_bits */
    hbm2_timing_t t;
    bool check_refresh;        /* enforce the refresh-interval rules */
    hbm2_violation_fn on_violation; /* NULL: print to stderr and exit(1) */
    void *ctx;
} hbm2_config_t;

typedef struct hbm2_stats {
    uint64_t cycles, act, pre, prea, refab, refpb, rd, wr;
    uint64_t violations;
    uint64_t pages;            /* 1 KB pages allocated */
} hbm2_stats_t;

typedef struct hbm2 hbm2_t;

hbm2_t *hbm2_new(const hbm2_config_t *cfg);
void hbm2_free(hbm2_t *d);

/*
 * One cycle.  rcmd/rbank/row: the row command bus; ccmd/cbank/col: the column bus;
 * wdata (32 bytes) and wstrb (bit k enables byte k) are read for WR only.
 * Returns true when read data is on the bus this cycle and copies it to rdata.
 */
bool hbm2_cycle(hbm2_t *d, int rcmd, int rbank, uint32_t row, int ccmd, int cbank, int col,
                const uint8_t *wdata, uint32_t wstrb, uint8_t *rdata);

/* Backdoor access to one 32-byte burst (no timing, no statistics). */
void hbm2_peek(const hbm2_t *d, int bank, uint32_t row, int col, uint8_t *out);
void hbm2_poke(hbm2_t *d, int bank, uint32_t row, int col, const uint8_t *in, uint32_t strb);

void hbm2_get_stats(const hbm2_t *d, hbm2_stats_t *s);
/* Bit b set: bank b has a row open. */
unsigned hbm2_open_banks(const hbm2_t *d);
uint64_t hbm2_now(const hbm2_t *d);

/*
 * The address mapping of tpu_mem_sys, for backdoor loads and checks: a byte
 * address goes to pseudo-channel (addr / gran) % npch; the channel-local beat
 * address is {row, ba, bg, col}, bank = {bg, ba}, XOR hbm2_row_fold(row) with bank_hash.
 */
typedef struct hbm2_loc {
    int pch, bank;
    uint32_t row;
    int col;
} hbm2_loc_t;
/* XOR of the 4-bit slices of a row number: the bank hash of tpu_mem_pch_ctrl. */
int hbm2_row_fold(uint32_t row);
/* False when addr lies beyond the npch * 2^(row_bits+14) bytes of memory. */
bool hbm2_map(uint64_t addr, int npch, uint32_t gran, int row_bits, bool bank_hash, hbm2_loc_t *loc);

#ifdef __cplusplus
}
#endif
#endif
