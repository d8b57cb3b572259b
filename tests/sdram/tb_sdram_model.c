/* SPDX-License-Identifier: Apache-2.0 */
/*
 * tb_sdram_model.c - directed tests of the SDRAM device model (sim/sdram) on its own: each
 * timing rule is broken by one cycle (a violation naming the rule must be reported) and
 * kept exactly (none may be); protocol rules (bank state, power-up sequence, mode register,
 * burst cuts, DQ driven by both sides); read latency, burst order and byte masks.
 * Prints one PASS/FAIL line per test.
 */
#include "sdram.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CLK 100000000u  /* 10 ns: tRCD 2, tRP 2, tRAS 5, tRC 7, tRRD 2, tWR 2, tRFC 7 */

typedef struct ctx {
    int n;
    char msg[4096];  /* every message, one per line */
} ctx_t;

static void on_v(void *c, const char *msg)
{
    ctx_t *x = c;
    size_t l = strlen(x->msg);
    x->n++;
    snprintf(x->msg + l, sizeof x->msg - l, "%s%s", l ? " | " : "", msg);
}

static ctx_t vx;
static int fails;

static sdram_t *dev_new(void)
{
    sdram_config_t cfg = { .name = "t", .clk_hz = CLK, .check_refresh = true,
                           .on_violation = on_v, .ctx = &vx };
    sdram_timing_default(&cfg.t);
    cfg.t.init_us = 1;  /* 100 cycles */
    memset(&vx, 0, sizeof vx);
    return sdram_new(&cfg);
}

enum { NOP, ACT, RD, WR, PRE, PREA, REF, MRS, BST };

/* One cycle with a command; returns whether the device drove DQ (value in *dq). */
static bool cmd(sdram_t *d, int c, int ba, unsigned a, int dqm, bool oe, uint16_t dqo,
                uint16_t *dq)
{
    static const int bits[] = { 7, 3, 5, 4, 2, 2, 1, 0, 6 };  /* ras_n cas_n we_n */
    sdram_pins_t p = { .cke = true, .cs_n = false, .ba = ba, .a = a, .dqm = dqm,
                       .dq = dqo, .dq_oe = oe };
    int b = bits[c];
    p.ras_n = b >> 2 & 1;
    p.cas_n = b >> 1 & 1;
    p.we_n = b & 1;
    if (c == PREA) p.a |= 0x400;
    uint16_t tmp;
    return sdram_cycle(d, &p, dq ? dq : &tmp);
}

static void nops(sdram_t *d, int n)
{
    for (int i = 0; i < n; i++) cmd(d, NOP, 0, 0, 0, false, 0, NULL);
}

/* Power-up: 100 cycles wait, PREA, 2 REF, MRS (CL 2, BL 4). */
static sdram_t *ready_dev(int cl, int blcode)
{
    sdram_t *d = dev_new();
    nops(d, 100);
    cmd(d, PREA, 0, 0, 0, false, 0, NULL);
    nops(d, 1);
    for (int i = 0; i < 2; i++) {
        cmd(d, REF, 0, 0, 0, false, 0, NULL);
        nops(d, 6);
    }
    cmd(d, MRS, 0, (unsigned)(cl << 4 | blcode), 0, false, 0, NULL);
    nops(d, 1);
    return d;
}

static void expect(const char *test, const char *rule)
{
    bool ok = rule ? (vx.n > 0 && strstr(vx.msg, rule)) : vx.n == 0;
    if (ok) {
        printf("PASS sdram-model-%s%s%s\n", test, rule ? ": caught " : "", rule ? rule : "");
    } else {
        fails++;
        printf("FAIL sdram-model-%s: expected %s%s, got %d (%s)\n", test,
               rule ? "a violation of " : "no violation", rule ? rule : "", vx.n, vx.msg);
    }
}

/* A timing rule between two commands: `gap` cycles apart (gap - 1 NOPs in between). */
typedef void (*seq_fn)(sdram_t *d, int gap);

static void rule(const char *name, const char *r, seq_fn f, int need)
{
    char t[64];
    sdram_t *d = ready_dev(2, 2);
    f(d, need - 1);
    snprintf(t, sizeof t, "%s-early", name);
    expect(t, r);
    sdram_free(d);
    d = ready_dev(2, 2);
    f(d, need);
    snprintf(t, sizeof t, "%s-ok", name);
    expect(t, NULL);
    sdram_free(d);
}

static void s_trcd(sdram_t *d, int g) { cmd(d, ACT, 1, 5, 0, 0, 0, 0); nops(d, g - 1); cmd(d, RD, 1, 0, 0, 0, 0, 0); }
static void s_trp(sdram_t *d, int g) { cmd(d, ACT, 1, 5, 0, 0, 0, 0); nops(d, 6); cmd(d, PRE, 1, 0, 0, 0, 0, 0); nops(d, g - 1); cmd(d, ACT, 1, 6, 0, 0, 0, 0); }
static void s_tras(sdram_t *d, int g) { cmd(d, ACT, 1, 5, 0, 0, 0, 0); nops(d, g - 1); cmd(d, PRE, 1, 0, 0, 0, 0, 0); }
static void s_trc(sdram_t *d, int g) { cmd(d, ACT, 1, 5, 0, 0, 0, 0); nops(d, 4); cmd(d, PRE, 1, 0, 0, 0, 0, 0); nops(d, g - 6); cmd(d, ACT, 1, 6, 0, 0, 0, 0); }
static void s_trrd(sdram_t *d, int g) { cmd(d, ACT, 1, 5, 0, 0, 0, 0); nops(d, g - 1); cmd(d, ACT, 2, 5, 0, 0, 0, 0); }
static void s_twr(sdram_t *d, int g)
{
    cmd(d, ACT, 1, 5, 0, 0, 0, 0);
    nops(d, 5);
    cmd(d, WR, 1, 0, 0, true, 1, 0);
    for (int i = 1; i < 4; i++) cmd(d, NOP, 0, 0, 0, true, 1, 0);
    /* last data in the cycle before; PRE g cycles after it */
    nops(d, g - 1);
    cmd(d, PRE, 1, 0, 0, 0, 0, 0);
}
static void s_trfc(sdram_t *d, int g) { nops(d, 10); cmd(d, REF, 0, 0, 0, 0, 0, 0); nops(d, g - 1); cmd(d, ACT, 0, 1, 0, 0, 0, 0); }
static void s_tmrd(sdram_t *d, int g) { nops(d, 10); cmd(d, MRS, 0, 0x22, 0, 0, 0, 0); nops(d, g - 1); cmd(d, ACT, 0, 1, 0, 0, 0, 0); }
static void s_rdpre(sdram_t *d, int g) { cmd(d, ACT, 1, 5, 0, 0, 0, 0); nops(d, 6); cmd(d, RD, 1, 0, 0, 0, 0, 0); nops(d, g - 1); cmd(d, PRE, 1, 0, 0, 0, 0, 0); }
static void s_rdrd(sdram_t *d, int g) { cmd(d, ACT, 1, 5, 0, 0, 0, 0); nops(d, 6); cmd(d, RD, 1, 0, 0, 0, 0, 0); nops(d, g - 1); cmd(d, RD, 1, 4, 0, 0, 0, 0); }
/* Read then write: the controller may drive DQ only a cycle after the device stopped. */
static void s_rdwr(sdram_t *d, int g)
{
    cmd(d, ACT, 1, 5, 0, 0, 0, 0);
    nops(d, 6);
    cmd(d, RD, 1, 0, 0, 0, 0, 0);  /* data in cycles +2..+5 */
    nops(d, g - 1);
    cmd(d, WR, 1, 8, 0, true, 0, 0);
    for (int i = 1; i < 4; i++) cmd(d, NOP, 0, 0, 0, true, 0, 0);
    nops(d, 4);
}

static void protocol(void)
{
    sdram_t *d;
    /* A command during the power-up wait. */
    d = dev_new();
    nops(d, 50);
    cmd(d, PREA, 0, 0, 0, false, 0, NULL);
    expect("init-wait", "init:");
    sdram_free(d);
    /* ACT before the mode register. */
    d = dev_new();
    nops(d, 100);
    cmd(d, PREA, 0, 0, 0, false, 0, NULL);
    nops(d, 3);
    cmd(d, ACT, 0, 0, 0, false, 0, NULL);
    expect("init-mrs", "before LOAD MODE REGISTER");
    sdram_free(d);
    /* MRS after one refresh only. */
    d = dev_new();
    nops(d, 100);
    cmd(d, PREA, 0, 0, 0, false, 0, NULL);
    nops(d, 3);
    cmd(d, REF, 0, 0, 0, false, 0, NULL);
    nops(d, 8);
    cmd(d, MRS, 0, 0x22, 0, false, 0, NULL);
    expect("init-refs", "AUTO REFRESHes");
    sdram_free(d);
    /* Bank state. */
    d = ready_dev(2, 2);
    cmd(d, ACT, 0, 1, 0, 0, 0, 0);
    nops(d, 8);
    cmd(d, ACT, 0, 2, 0, 0, 0, 0);
    expect("act-open", "ACT to bank 0 with row 1 open");
    sdram_free(d);
    d = ready_dev(2, 2);
    cmd(d, RD, 3, 0, 0, 0, 0, 0);
    expect("rd-closed", "the bank is closed");
    sdram_free(d);
    d = ready_dev(2, 2);
    cmd(d, ACT, 2, 1, 0, 0, 0, 0);
    nops(d, 8);
    cmd(d, REF, 0, 0, 0, 0, 0, 0);
    expect("ref-open", "REF with bank 2 open");
    sdram_free(d);
    d = ready_dev(2, 2);
    cmd(d, MRS, 0, 0x12, 0, 0, 0, 0);
    expect("mrs-cl1", "CAS latency 1");
    sdram_free(d);
    d = ready_dev(2, 2);
    cmd(d, BST, 0, 0, 0, 0, 0, 0);
    expect("bst", "BURST TERMINATE");
    sdram_free(d);
    d = ready_dev(2, 2);
    cmd(d, ACT, 1, 1, 0, 0, 0, 0);
    nops(d, 10001);
    cmd(d, PRE, 1, 0, 0, 0, 0, 0);
    expect("tras-max", "tRAS max");
    sdram_free(d);
    /* DQ driven by both sides. */
    d = ready_dev(2, 2);
    cmd(d, ACT, 0, 1, 0, 0, 0, 0);
    nops(d, 3);
    cmd(d, RD, 0, 0, 0, 0, 0, 0);
    nops(d, 1);
    cmd(d, NOP, 0, 0, 0, true, 0, 0);  /* the device's first word */
    expect("dq-both", "DQ: driven by the controller and the device");
    sdram_free(d);
    /* Write data not driven. */
    d = ready_dev(2, 2);
    cmd(d, ACT, 0, 1, 0, 0, 0, 0);
    nops(d, 3);
    cmd(d, WR, 0, 0, 0, true, 0, 0);
    cmd(d, NOP, 0, 0, 0, false, 0, 0);
    expect("wr-undriven", "DQ not driven");
    sdram_free(d);
    /* Refresh interval: at 100 MHz one is due every 781 cycles, 8 may be owed. */
    d = ready_dev(2, 2);
    nops(d, 781 * 9 + 10);
    expect("refresh", "refresh:");
    sdram_free(d);
    d = ready_dev(2, 2);
    for (int k = 0; k < 20; k++) {
        nops(d, 780);
        cmd(d, REF, 0, 0, 0, 0, 0, 0);
    }
    expect("refresh-ok", NULL);
    sdram_free(d);
}

/* Read latency and burst order, write masks, burst wrap, for CL 2 and 3, BL 4 and 8. */
static void data(void)
{
    for (int cl = 2; cl <= 3; cl++) {
        for (int blc = 2; blc <= 3; blc++) {
            int bl = 1 << blc;
            sdram_t *d = ready_dev(cl, blc);
            uint32_t base = (7u << 11) | (2u << 9) | 16;   /* row 7, bank 2, column 16 */
            for (int i = 0; i < bl; i++) sdram_poke(d, base + (uint32_t)i, 0x1111);
            cmd(d, ACT, 2, 7, 0, 0, 0, 0);
            nops(d, 2);
            /* write the burst, lower byte of word 1 and upper byte of word 2 masked */
            for (int i = 0; i < bl; i++) {
                int m = i == 1 ? 1 : i == 2 ? 2 : 0;
                cmd(d, i ? NOP : WR, 2, 16, m, true, (uint16_t)(0xa000 + i * 0x101), NULL);
            }
            nops(d, 2);
            cmd(d, RD, 2, 16 + 1, 0, 0, 0, 0);  /* starts at word 1, wraps inside the burst */
            bool ok = true;
            int got = 0;
            for (int c = 1; c <= cl + bl + 1; c++) {
                uint16_t v;
                bool drv = cmd(d, NOP, 0, 0, 0, 0, 0, &v);
                if (c >= cl && c < cl + bl) {
                    int i = (1 + (c - cl)) % bl;
                    uint16_t e = (uint16_t)(0xa000 + i * 0x101);
                    if (i == 1) e = (uint16_t)((e & 0xff00) | 0x11);
                    if (i == 2) e = (uint16_t)((e & 0x00ff) | 0x1100);
                    ok &= drv && v == e;
                    got++;
                } else {
                    ok &= !drv;
                }
            }
            char t[64];
            snprintf(t, sizeof t, "data-cl%d-bl%d", cl, bl);
            if (ok && got == bl && vx.n == 0) {
                printf("PASS sdram-model-%s\n", t);
            } else {
                fails++;
                printf("FAIL sdram-model-%s: read data, latency or masks wrong (%d violations: %s)\n",
                       t, vx.n, vx.msg);
            }
            sdram_free(d);
        }
    }
}

int main(void)
{
    rule("trcd", "tRCD", s_trcd, 2);
    rule("trp", "tRP", s_trp, 2);
    rule("tras", "tRAS", s_tras, 5);
    rule("trc", "tRC", s_trc, 7);
    rule("trrd", "tRRD", s_trrd, 2);
    rule("twr", "tWR", s_twr, 2);
    rule("trfc", "tRFC", s_trfc, 7);
    rule("tmrd", "tMRD", s_tmrd, 2);
    rule("rd-pre", "read burst cut", s_rdpre, 4);
    rule("rd-rd", "burst cut", s_rdrd, 4);
    rule("rd-wr", "DQ:", s_rdwr, 2 + 4 + 1);
    protocol();
    data();
    printf("%s sdram-model: %d failed\n", fails ? "FAIL" : "PASS", fails);
    return fails ? 1 : 0;
}
