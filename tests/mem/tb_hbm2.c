/* SPDX-License-Identifier: Apache-2.0 */
/*
 * tb_hbm2.c - directed tests of the HBM2 device model (sim/hbm2): each timing
 * rule is broken by exactly one cycle and must be reported with its name, bank
 * and cycle; the same sequence one cycle later must pass.  Also read latency,
 * masked writes, sparse storage, the backdoor and the address map.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hbm2.h"

static int fails, passes;
static char last_msg[512];
static int nviol;

static void catch_violation(void *ctx, const char *msg)
{
    (void)ctx;
    if (nviol++ == 0)
        snprintf(last_msg, sizeof last_msg, "%s", msg);
}

static void result(bool ok, const char *name, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void result(bool ok, const char *name, const char *fmt, ...)
{
    char detail[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(detail, sizeof detail, fmt, ap);
    va_end(ap);
    printf("%s %s%s%s\n", ok ? "PASS" : "FAIL", name, ok ? " " : ": ", detail);
    if (ok)
        passes++;
    else
        fails++;
}

/* One command of a scripted sequence. */
typedef struct step {
    int at;          /* cycle */
    int rcmd, rbank; /* row bus */
    unsigned row;
    int ccmd, cbank, col; /* column bus */
} step_t;

#define ACT(t, b, r) { t, HBM2_ACT, b, r, 0, 0, 0 }
#define PRE(t, b) { t, HBM2_PRE, b, 0, 0, 0, 0 }
#define PREA(t) { t, HBM2_PREA, 0, 0, 0, 0, 0 }
#define REFAB(t) { t, HBM2_REFAB, 0, 0, 0, 0, 0 }
#define REFPB(t, b) { t, HBM2_REFPB, b, 0, 0, 0, 0 }
#define RD(t, b, c) { t, 0, 0, 0, HBM2_RD, b, c }
#define WR(t, b, c) { t, 0, 0, 0, HBM2_WR, b, c }
#define END { -1, 0, 0, 0, 0, 0, 0 }

static hbm2_t *mk(const hbm2_timing_t *t, bool refresh)
{
    hbm2_config_t c = { .name = "t", .row_bits = 8, .check_refresh = refresh,
                        .on_violation = catch_violation };
    if (t)
        c.t = *t;
    else
        hbm2_timing_default(&c.t);
    nviol = 0;
    last_msg[0] = 0;
    return hbm2_new(&c);
}

/* Runs the script (steps sorted by cycle; a step with both buses NOP ends it), then
 * `extra` idle cycles.  Returns the number of violations. */
static int play(hbm2_t *d, const step_t *s, int extra)
{
    uint8_t wd[32] = { 0 }, rd[32];
    int i = 0, last = 0;
    for (int cyc = 0;; cyc++) {
        int rc = 0, rb = 0, cc = 0, cb = 0, col = 0;
        unsigned row = 0;
        while (s[i].at == cyc) {
            if (s[i].rcmd) {
                rc = s[i].rcmd;
                rb = s[i].rbank;
                row = s[i].row;
            }
            if (s[i].ccmd) {
                cc = s[i].ccmd;
                cb = s[i].cbank;
                col = s[i].col;
            }
            last = cyc;
            i++;
        }
        hbm2_cycle(d, rc, rb, row, cc, cb, col, wd, 0xffffffffu, rd);
        if (s[i].at < 0 && cyc >= last + extra)
            break;
    }
    return nviol;
}

/* A rule case: `bad` breaks `rule` by one cycle, `good` is the same one cycle later. */
static void rule_case(const char *rule, const hbm2_timing_t *t, const step_t *bad, const step_t *good,
                      const char *bank_text, int bad_cycle)
{
    char name[64], cyc[48];
    snprintf(name, sizeof name, "hbm2_rule_%s", rule);
    hbm2_t *d = mk(t, false);
    play(d, bad, 2);
    hbm2_free(d);
    char got[512];
    snprintf(got, sizeof got, "%s", last_msg);
    int nbad = nviol;
    snprintf(cyc, sizeof cyc, "cycle %d:", bad_cycle);
    d = mk(t, false);
    play(d, good, 2);
    hbm2_free(d);
    bool ok = nbad > 0 && strstr(got, rule) && strstr(got, bank_text) && strstr(got, cyc) && nviol == 0;
    result(ok, name, "%s%s", ok ? "reported: " : "", nbad ? got : "no violation reported");
    if (!ok && nviol)
        printf("  the legal sequence was reported: %s\n", last_msg);
}

int main(void)
{
    hbm2_timing_t T;
    hbm2_timing_default(&T);
    int cl = T.cl, cwl = T.cwl, tbl = T.tbl;

    /* Bank timing. */
    { step_t b[] = { ACT(0, 2, 5), RD(13, 2, 0), END }, g[] = { ACT(0, 2, 5), RD(14, 2, 0), END };
      rule_case("tRCD", NULL, b, g, "bank 2", 13); }
    { step_t b[] = { ACT(0, 3, 5), PRE(33, 3), END }, g[] = { ACT(0, 3, 5), PRE(34, 3), END };
      rule_case("tRAS", NULL, b, g, "bank 3", 33); }
    { hbm2_timing_t t = T; t.trc = 40;
      step_t b[] = { ACT(0, 3, 5), PRE(34, 3), ACT(47, 3, 6), END },
             g[] = { ACT(0, 3, 5), PRE(34, 3), ACT(48, 3, 6), END };
      rule_case("tRP", &t, b, g, "bank 3", 47); }
    { hbm2_timing_t t = T; t.trc = 60;
      step_t b[] = { ACT(0, 1, 5), PRE(34, 1), ACT(59, 1, 6), END },
             g[] = { ACT(0, 1, 5), PRE(34, 1), ACT(60, 1, 6), END };
      rule_case("tRC", &t, b, g, "bank 1", 59); }
    { step_t b[] = { ACT(0, 0, 1), ACT(5, 1, 1), END }, g[] = { ACT(0, 0, 1), ACT(6, 1, 1), END };
      rule_case("tRRD_L", NULL, b, g, "bank 1", 5); }
    { step_t b[] = { ACT(0, 0, 1), ACT(3, 4, 1), END }, g[] = { ACT(0, 0, 1), ACT(4, 4, 1), END };
      rule_case("tRRD_S", NULL, b, g, "bank 4", 3); }
    { step_t b[] = { ACT(0, 0, 1), ACT(6, 4, 1), ACT(12, 8, 1), ACT(18, 12, 1), ACT(29, 1, 1), END },
             g[] = { ACT(0, 0, 1), ACT(6, 4, 1), ACT(12, 8, 1), ACT(18, 12, 1), ACT(30, 1, 1), END };
      rule_case("tFAW", NULL, b, g, "bank 1", 29); }

    /* Column timing and the data bus. */
    { step_t b[] = { ACT(0, 0, 1), ACT(6, 1, 1), RD(20, 0, 0), RD(21, 1, 0), END },
             g[] = { ACT(0, 0, 1), ACT(6, 1, 1), RD(20, 0, 0), RD(22, 1, 0), END };
      rule_case("tCCD_L", NULL, b, g, "bank 1", 21); }
    { hbm2_timing_t t = T; t.tccd_s = 3; t.tbl = 1;
      step_t b[] = { ACT(0, 0, 1), ACT(4, 4, 1), RD(20, 0, 0), RD(22, 4, 0), END },
             g[] = { ACT(0, 0, 1), ACT(4, 4, 1), RD(20, 0, 0), RD(23, 4, 0), END };
      rule_case("tCCD_S", &t, b, g, "bank 4", 22); }
    { step_t b[] = { ACT(0, 0, 1), ACT(4, 4, 1), RD(20, 0, 0), RD(21, 4, 0), END },
             g[] = { ACT(0, 0, 1), ACT(4, 4, 1), RD(20, 0, 0), RD(22, 4, 0), END };
      rule_case("data bus conflict", NULL, b, g, "bank 4", 21); }
    { int d = cwl + tbl + T.twtr_l;
      step_t b[] = { ACT(0, 0, 1), ACT(6, 1, 1), WR(20, 0, 0), RD(20 + d - 1, 1, 0), END },
             g[] = { ACT(0, 0, 1), ACT(6, 1, 1), WR(20, 0, 0), RD(20 + d, 1, 0), END };
      rule_case("tWTR_L", NULL, b, g, "bank 1", 20 + d - 1); }
    { int d = cwl + tbl + T.twtr_s;
      step_t b[] = { ACT(0, 0, 1), ACT(4, 4, 1), WR(20, 0, 0), RD(20 + d - 1, 4, 0), END },
             g[] = { ACT(0, 0, 1), ACT(4, 4, 1), WR(20, 0, 0), RD(20 + d, 4, 0), END };
      rule_case("tWTR_S", NULL, b, g, "bank 4", 20 + d - 1); }
    { step_t b[] = { ACT(0, 0, 1), ACT(4, 4, 1), RD(20, 0, 0), WR(20 + T.trtw - 1, 4, 0), END },
             g[] = { ACT(0, 0, 1), ACT(4, 4, 1), RD(20, 0, 0), WR(20 + T.trtw, 4, 0), END };
      rule_case("tRTW", NULL, b, g, "bank 4", 20 + T.trtw - 1); }

    /* To precharge. */
    { int d = cwl + tbl + T.twr;
      step_t b[] = { ACT(0, 6, 1), WR(40, 6, 0), PRE(40 + d - 1, 6), END },
             g[] = { ACT(0, 6, 1), WR(40, 6, 0), PRE(40 + d, 6), END };
      rule_case("tWR", NULL, b, g, "bank 6", 40 + d - 1); }
    { step_t b[] = { ACT(0, 6, 1), RD(40, 6, 0), PRE(40 + T.trtp_l - 1, 6), END },
             g[] = { ACT(0, 6, 1), RD(40, 6, 0), PRE(40 + T.trtp_l, 6), END };
      rule_case("tRTP_L", NULL, b, g, "bank 6", 40 + T.trtp_l - 1); }
    { hbm2_timing_t t = T; t.trtp_s = 9;
      step_t b[] = { ACT(0, 6, 1), RD(40, 6, 0), PRE(48, 6), END },
             g[] = { ACT(0, 6, 1), RD(40, 6, 0), PRE(49, 6), END };
      rule_case("tRTP_S", &t, b, g, "bank 6", 48); }

    /* Refresh. */
    { step_t b[] = { REFAB(0), ACT(T.trfc - 1, 9, 1), END }, g[] = { REFAB(0), ACT(T.trfc, 9, 1), END };
      rule_case("tRFC", NULL, b, g, "bank 9", T.trfc - 1); }
    { step_t b[] = { REFPB(0, 9), ACT(T.trfc_pb - 1, 9, 1), END },
             g[] = { REFPB(0, 9), ACT(T.trfc_pb, 9, 1), END };
      rule_case("tRFCpb", NULL, b, g, "bank 9", T.trfc_pb - 1); }
    { step_t b[] = { REFPB(0, 3), ACT(7, 5, 1), END }, g[] = { REFPB(0, 3), ACT(8, 5, 1), END };
      rule_case("tRREFD", NULL, b, g, "bank 5", 7); }
    { step_t b[] = { ACT(0, 5, 1), REFPB(7, 3), END }, g[] = { ACT(0, 5, 1), REFPB(8, 3), END };
      rule_case("tRREFD", NULL, b, g, "bank 3", 7); }
    { step_t b[] = { ACT(0, 7, 1), PRE(34, 7), REFAB(47), END }, g[] = { ACT(0, 7, 1), PRE(34, 7), REFAB(48), END };
      rule_case("tRP", NULL, b, g, "bank 7", 47); }

    /* Bank state. */
    { step_t b[] = { ACT(0, 2, 1), ACT(60, 2, 2), END }, g[] = { ACT(0, 2, 1), PRE(34, 2), ACT(60, 2, 2), END };
      rule_case("which has row 1 open", NULL, b, g, "bank 2", 60); }
    { step_t b[] = { RD(3, 11, 0), END }, g[] = { ACT(0, 11, 1), RD(14, 11, 0), END };
      rule_case("not open", NULL, b, g, "bank 11", 3); }
    { step_t b[] = { ACT(0, 11, 1), REFAB(60), END }, g[] = { ACT(0, 11, 1), PREA(40), REFAB(60), END };
      rule_case("REFab with bank 11", NULL, b, g, "open", 60); }
    { step_t b[] = { ACT(0, 12, 1), REFPB(60, 12), END }, g[] = { ACT(0, 12, 1), PRE(40, 12), REFPB(60, 12), END };
      rule_case("which is open", NULL, b, g, "bank 12", 60); }
    { step_t b[] = { ACT(0, 12, 256), END }, g[] = { ACT(0, 12, 255), END };
      rule_case("out of range", NULL, b, g, "bank 12", 0); }

    /* Refresh interval: nine intervals without a refresh, or nine refreshes at once. */
    {
        hbm2_t *d = mk(NULL, true);
        uint8_t z[32], r[32];
        memset(z, 0, sizeof z);
        for (int c = 0; c <= 9 * T.trefi; c++)
            hbm2_cycle(d, 0, 0, 0, 0, 0, 0, z, 0, r);
        bool ok = nviol > 0 && strstr(last_msg, "refresh postponed too long") && strstr(last_msg, "bank 0");
        char msg[512];
        snprintf(msg, sizeof msg, "%s", last_msg);
        hbm2_free(d);
        d = mk(NULL, true);
        for (int c = 0; c <= 20 * T.trefi; c++)
            hbm2_cycle(d, c % T.trefi == 100 ? HBM2_REFAB : 0, 0, 0, 0, 0, 0, z, 0, r);
        ok = ok && nviol == 0;
        hbm2_free(d);
        result(ok, "hbm2_rule_refresh_postponed", "%s", msg);
        d = mk(NULL, true);
        for (int c = 0; c <= 10 * T.trfc; c++)
            hbm2_cycle(d, c % T.trfc == 0 ? HBM2_REFAB : 0, 0, 0, 0, 0, 0, z, 0, r);
        ok = nviol > 0 && strstr(last_msg, "refresh pulled in too far");
        result(ok, "hbm2_rule_refresh_pulled_in", "%s", last_msg);
        hbm2_free(d);
    }

    /* Data: read latency, masks, sparse pages, backdoor. */
    {
        hbm2_t *d = mk(NULL, false);
        uint8_t w[32], r[32], z[32], p[32];
        memset(z, 0, sizeof z);
        for (int i = 0; i < 32; i++)
            w[i] = (uint8_t)(0xa0 + i);
        bool ok = true;
        int got_at = -1;
        for (int c = 0; c < 200; c++) {
            int rc = c == 0 ? HBM2_ACT : 0, cc = 0;
            const uint8_t *wd = z;
            uint32_t strb = 0;
            if (c == 20) {
                cc = HBM2_WR;
                wd = w;
                strb = 0xffffffffu;
            } else if (c == 40) {
                cc = HBM2_WR;
                wd = z;
                strb = 0x0000ff00u;  /* clear bytes 8..15 */
            } else if (c == 60) {
                cc = HBM2_RD;
            }
            if (hbm2_cycle(d, rc, 4, 77, cc, 4, 9, wd, strb, r)) {
                got_at = c;
                for (int i = 0; i < 32; i++)
                    ok = ok && r[i] == ((i >= 8 && i < 16) ? 0 : w[i]);
            }
        }
        result(ok && got_at == 60 + cl && nviol == 0, "hbm2_read_data",
               "read data at cycle %d (RD at 60, CL %d), masked write applied", got_at, cl);
        hbm2_peek(d, 4, 77, 9, p);
        ok = p[0] == w[0] && p[8] == 0;
        hbm2_peek(d, 4, 78, 9, p);
        ok = ok && memcmp(p, z, 32) == 0;
        hbm2_poke(d, 15, 200, 31, w, 0xffffffffu);
        hbm2_peek(d, 15, 200, 31, p);
        ok = ok && memcmp(p, w, 32) == 0;
        hbm2_stats_t st;
        hbm2_get_stats(d, &st);
        ok = ok && st.pages == 2 && st.wr == 2 && st.rd == 1 && st.act == 1;
        result(ok, "hbm2_storage", "backdoor peek/poke, %llu pages allocated for 2 touched rows",
               (unsigned long long)st.pages);
        hbm2_free(d);
    }

    /* The address map of tpu_mem_sys. */
    {
        hbm2_loc_t l;
        bool ok = hbm2_map(0, 4, 256, 10, false, &l) && l.pch == 0 && l.bank == 0 && l.row == 0 && l.col == 0;
        ok = ok && hbm2_map(256, 4, 256, 10, false, &l) && l.pch == 1 && l.col == 0;
        ok = ok && hbm2_map(1024 + 32, 4, 256, 10, false, &l) && l.pch == 0 && l.col == 9;
        /* local beat 32 = bank group 1: byte 32*32*4 = 4096 of channel 0 */
        ok = ok && hbm2_map(4096, 4, 256, 10, false, &l) && l.pch == 0 && l.bank == 4 && l.col == 0;
        /* local beat 128 = bank 1 of group 0; beat 512 = row 1 */
        ok = ok && hbm2_map(128 * 32 * 4, 4, 256, 10, false, &l) && l.bank == 1;
        ok = ok && hbm2_map(512 * 32 * 4, 4, 256, 10, false, &l) && l.row == 1 && l.bank == 0;
        ok = ok && hbm2_map(512 * 32 * 4, 4, 256, 10, true, &l) && l.row == 1 && l.bank == 1;
        ok = ok && !hbm2_map((uint64_t)4 << 24, 4, 256, 10, false, &l);
        ok = ok && hbm2_row_fold(0x105) == 4 && hbm2_row_fold(5) == 5;
        result(ok, "hbm2_address_map", "interleave, {row, ba, bg, col} and the folded bank hash");
    }

    printf("# tb_hbm2: %d passed, %d failed\n", passes, fails);
    return fails ? 1 : 0;
}
