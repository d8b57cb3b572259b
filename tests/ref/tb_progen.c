/* SPDX-License-Identifier: Apache-2.0 */
/*
 * tb_progen.c - thousands of random programs (tests/soc/progen) on ref.
 *
 * Per program: it runs to DONE, or, with an injected fault, stops with exactly
 * the expected code, pc and address; the instruction counters add up; and a
 * second ref whose buffers hold the leftovers of earlier programs produces the
 * same memory and result (so the program reads only rows it wrote).  Over the
 * run, every instruction, output type, pool mode and token/weight pattern must
 * have appeared.  The generator must be deterministic.
 *
 *   tb_progen [--seed N] [--iters N]
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "progcheck.h"
#include "progen.h"
#include "ptpu_ref.h"

static char msg[512];

static int load_prog(struct ptpu_ref *r, const struct progen *p)
{
    for (int i = 0; i < p->ninit; i++)
        if (ptpu_ref_mem_write(r, p->init[i].addr, p->init_data[i], p->init[i].len))
            return -1;
    /* the whole program image, also past prog_len (PROG_END programs) */
    uint32_t words = p->prog_len;
    (void)words;
    return 0;
}

enum {
    C_LOAD_UB, C_LOAD_WB, C_LOAD_VP, C_MM_I8, C_MM_BF, C_MM_ACC, C_MM_REUSE, C_ACT_I8,
    C_ACT_BF, C_ACT_F32, C_POOL_MAX, C_POOL_SUM, C_STORE, C_SYNC, C_PAD_ROWS, C_NEG_STRIDE,
    C_RELU, C_TOKENS, C_CHAIN, C_LONG, C_NUM
};
static const char *cov_name[C_NUM] = {
    "load_ub", "load_wb", "load_vp", "matmul_int8", "matmul_bf16", "matmul_acc",
    "matmul_reuse", "act_int8", "act_bf16", "act_fp32", "pool_max", "pool_sum", "store",
    "sync", "padded_rows", "negative_stride", "relu", "pop_next_compute", "chained_matmul", "matmul_100_rows",
};

static uint32_t word(const uint8_t *b, uint32_t pc, int w)
{
    const uint8_t *p = b + pc * PTPU_INSTR_BYTES + 4 * w;
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Coverage counts and the number of queue instructions in [0, len). */
static uint32_t scan(const struct progen *p, uint32_t len, uint64_t *cov, int ub_rows)
{
    uint32_t q = 0;
    for (uint32_t pc = 0; pc < len; pc++) {
        uint32_t in[8];
        for (int w = 0; w < 8; w++)
            in[w] = word(p->prog, pc, w);
        int op = ptpu_field_get(in, PTPU_F_COMMON_OP);
        if (op >= PTPU_OP_LOAD && op <= PTPU_OP_STORE)
            q++;
        if (op == PTPU_OP_LOAD || op == PTPU_OP_STORE) {
            int buf = ptpu_field_get(in, PTPU_F_DMA_BUF);
            if (op == PTPU_OP_STORE)
                cov[C_STORE]++;
            else
                cov[buf == PTPU_BUF_UB ? C_LOAD_UB : buf == PTPU_BUF_WB ? C_LOAD_WB : C_LOAD_VP]++;
            struct ptpu_dma_desc d;
            ptpu_dmafn_from_insn(in, &d);
            struct ptpu_dma_iter it;
            struct ptpu_dma_row row;
            ptpu_dmafn_iter_init(&it, &d);
            while (ptpu_dmafn_iter_next(&it, &row))
                if (!row.inside) {
                    cov[C_PAD_ROWS]++;
                    break;
                }
            if (d.stride1 < 0 || d.stride2 < 0)
                cov[C_NEG_STRIDE]++;
        } else if (op == PTPU_OP_MATMUL) {
            cov[ptpu_field_get(in, PTPU_F_MATMUL_BF16) ? C_MM_BF : C_MM_I8]++;
            if (ptpu_field_get(in, PTPU_F_MATMUL_ACC))
                cov[C_MM_ACC]++;
            if (!ptpu_field_get(in, PTPU_F_MATMUL_NEW_W))
                cov[C_MM_REUSE]++;
            if (ptpu_field_get(in, PTPU_F_MATMUL_UROW) >= ub_rows / 2)   /* an ACTIVATE's rows */
                cov[C_CHAIN]++;
            if (ptpu_field_get(in, PTPU_F_MATMUL_ROWS) >= 100)
                cov[C_LONG]++;
        } else if (op == PTPU_OP_ACTIVATE) {
            int out = ptpu_field_get(in, PTPU_F_ACTIVATE_OUT), pool = ptpu_field_get(in, PTPU_F_ACTIVATE_POOL);
            cov[out == PTPU_OUT_INT8 ? C_ACT_I8 : out == PTPU_OUT_BF16 ? C_ACT_BF : C_ACT_F32]++;
            if (pool == PTPU_POOL_MAX)
                cov[C_POOL_MAX]++;
            if (pool == PTPU_POOL_SUM)
                cov[C_POOL_SUM]++;
            if (ptpu_field_get(in, PTPU_F_ACTIVATE_RELU) || ptpu_field_get(in, PTPU_F_ACTIVATE_RELU6))
                cov[C_RELU]++;
        } else if (op == PTPU_OP_SYNC) {
            cov[C_SYNC]++;
        }
        if ((op == PTPU_OP_MATMUL || op == PTPU_OP_ACTIVATE) &&
            ptpu_field_get(in, PTPU_F_COMMON_POP_NEXT))
            cov[C_TOKENS]++;
    }
    return q;
}

static int run_one(struct ptpu_ref *dirty, const struct ptpu_ref_cfg *c, const struct progen *p,
                   uint64_t *cov)
{
    struct ptpu_ref *fresh;
    if (ptpu_ref_create(c, &fresh))
        return snprintf(msg, sizeof msg, "ptpu_ref_create failed"), 1;
    struct ptpu_ref *rs[2] = { fresh, dirty };
    struct ptpu_run_result res[2];
    int bad = 0;
    uint8_t *outs[2] = { NULL, NULL };
    for (int k = 0; k < 2 && !bad; k++) {
        if (load_prog(rs[k], p) ||
            ptpu_ref_mem_write(rs[k], p->prog_addr, p->prog, (size_t)p->prog_len * PTPU_INSTR_BYTES)) {
            bad = snprintf(msg, sizeof msg, "loading the image failed");
            break;
        }
        int rc = ptpu_ref_run(rs[k], p->prog_addr, p->prog_len, p->win, p->nwin, &res[k]);
        if (rc) {
            bad = snprintf(msg, sizeof msg, "ptpu_ref_run returned %d", rc);
            break;
        }
        outs[k] = malloc(p->out[0].len);
        if (!outs[k] || ptpu_ref_mem_read(rs[k], p->out[0].addr, outs[k], p->out[0].len))
            bad = snprintf(msg, sizeof msg, "reading the output failed");
    }
    if (!bad) {
        const struct ptpu_run_result *r = &res[0];
        if (p->expect_fault == PTPU_FAULT_NONE) {
            if (r->state != PTPU_STATE_DONE)
                bad = snprintf(msg, sizeof msg, "state %d fault %d pc %u addr 0x%x, want DONE",
                               r->state, r->fault, r->fault_pc, r->fault_addr);
        } else if (r->state != PTPU_STATE_FAULT || r->fault != p->expect_fault ||
                   r->fault_pc != p->expect_pc || r->fault_addr != p->expect_addr) {
            bad = snprintf(msg, sizeof msg, "state %d fault %d pc %u addr 0x%x, want fault %d "
                           "pc %u addr 0x%x", r->state, r->fault, r->fault_pc, r->fault_addr,
                           p->expect_fault, p->expect_pc, p->expect_addr);
        }
    }
    if (!bad && (res[0].state != res[1].state || res[0].fault != res[1].fault ||
                 res[0].fault_pc != res[1].fault_pc || res[0].fault_addr != res[1].fault_addr ||
                 memcmp(res[0].counters + 1, res[1].counters + 1,
                        sizeof res[0].counters - sizeof res[0].counters[0])))
        bad = snprintf(msg, sizeof msg, "a ref with stale buffers ended differently");
    if (!bad && memcmp(outs[0], outs[1], p->out[0].len)) {
        uint32_t i = 0;
        while (outs[0][i] == outs[1][i])
            i++;
        bad = snprintf(msg, sizeof msg, "a ref with stale buffers wrote different memory at "
                       "0x%x: the program reads a row it did not write", p->out[0].addr + i);
    }
    if (!bad && p->expect_fault == PTPU_FAULT_NONE) {
        /* the runtime's race checker (tests/host/progcheck.c), an independent judge */
        uint32_t *w = malloc((size_t)p->prog_len * PTPU_INSTR_BYTES);
        char err[256] = "";
        for (uint32_t i = 0; w && i < p->prog_len * PTPU_INSTR_WORDS; i++)
            w[i] = word(p->prog, i / PTPU_INSTR_WORDS, (int)(i % PTPU_INSTR_WORDS));
        if (!w || progcheck(w, p->prog_len, c->n, c->bf16, c->ub_rows, c->wb_rows, c->acc_rows,
                            c->vp_rows, err, sizeof err))
            bad = snprintf(msg, sizeof msg, "progcheck: %s", err);
        free(w);
    }
    if (!bad && p->expect_fault == PTPU_FAULT_NONE) {
        uint32_t q = scan(p, p->prog_len, cov, c->ub_rows);
        uint64_t got = res[0].counters[PTPU_CNT_LOAD_INSNS] + res[0].counters[PTPU_CNT_COMPUTE_INSNS] +
                       res[0].counters[PTPU_CNT_STORE_INSNS];
        if (got != q)
            bad = snprintf(msg, sizeof msg, "instruction counters add up to %" PRIu64 ", the "
                           "program has %u", got, q);
    }
    free(outs[0]);
    free(outs[1]);
    ptpu_ref_destroy(fresh);
    return bad;
}

int main(int argc, char **argv)
{
    uint64_t seed = 0;
    int have_seed = 0, iters = 400;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--seed") && i + 1 < argc) {
            seed = strtoull(argv[++i], NULL, 0);
            have_seed = 1;
        } else if (!strcmp(argv[i], "--iters") && i + 1 < argc) {
            iters = atoi(argv[++i]);
        } else {
            fprintf(stderr, "usage: %s [--seed N] [--iters N]\n", argv[0]);
            return 2;
        }
    }
    if (!have_seed && getenv("SEED")) {
        seed = strtoull(getenv("SEED"), NULL, 0);
        have_seed = 1;
    }
    if (!have_seed)
        seed = (uint64_t)time(NULL) ^ ((uint64_t)clock() << 32);
    printf("# tb_progen seed=%" PRIu64 " iters=%d\n", seed, iters);
    static const int kinds[] = { PTPU_FAULT_BAD_OPCODE, PTPU_FAULT_BAD_FIELD, PTPU_FAULT_BUF_RANGE,
                                 PTPU_FAULT_PROT_READ, PTPU_FAULT_PROT_WRITE, PTPU_FAULT_BUS_ERROR,
                                 PTPU_FAULT_PROG_END, PTPU_FAULT_NO_WEIGHTS, PTPU_FAULT_TOKEN };
    static const char *cfgs[] = { "sim16", "sim32", "ulx3s", "icebreaker", "sim128" };
    int failures = 0;
    for (size_t ci = 0; ci < sizeof cfgs / sizeof *cfgs; ci++) {
        struct ptpu_ref_cfg c;
        struct ptpu_ref *dirty;
        ptpu_ref_cfg_named(cfgs[ci], &c);
        if (ptpu_ref_create(&c, &dirty))
            return 1;
        struct progen_opts o = { .n = c.n, .bf16 = c.bf16, .ub_rows = c.ub_rows,
                                 .wb_rows = c.wb_rows, .acc_rows = c.acc_rows,
                                 .vp_rows = c.vp_rows, .mem_kb = c.mem_kb };
        uint64_t cov[C_NUM] = { 0 };
        int it = !strcmp(cfgs[ci], "sim128") ? iters / 8 + 1 : iters;
        int bad = 0, nfault = 0, i;
        uint64_t insns = 0, jobs = 0;
        for (i = 0; i < it && !bad; i++) {
            uint64_t s = seed + (uint64_t)i * 1000003u + ci;
            o.fault_kind = i % 3 == 2 ? kinds[(i / 3) % (sizeof kinds / sizeof *kinds)] : 0;
            o.max_insns = i % 4 == 1 ? 8 + (i * 7) % 41 : 300;   /* short ones as tb_soc runs */
            struct progen p, p2;
            if (progen_make(s, &o, &p)) {
                bad = snprintf(msg, sizeof msg, "progen_make failed (seed %" PRIu64 ", fault %d)",
                               s, o.fault_kind);
                break;
            }
            if (i < 20) {   /* deterministic */
                if (progen_make(s, &o, &p2) || p2.prog_len != p.prog_len ||
                    memcmp(p.prog, p2.prog, (size_t)p.prog_len * PTPU_INSTR_BYTES) ||
                    memcmp(p.init_data[0], p2.init_data[0], p.init[0].len))
                    bad = snprintf(msg, sizeof msg, "progen is not deterministic (seed %" PRIu64 ")", s);
                progen_free(&p2);
            }
            if (!bad && run_one(dirty, &c, &p, cov)) {
                size_t l = strlen(msg);
                if (l > 400)
                    l = 400;
                snprintf(msg + l, sizeof msg - l, " (progen seed %" PRIu64 ", fault kind %d)", s,
                         o.fault_kind);
                bad = 1;
            }
            if (i % 200 == 199) {   /* bound the sparse memory the dirty ref accumulates */
                ptpu_ref_destroy(dirty);
                if (ptpu_ref_create(&c, &dirty))
                    return 1;
            }
            insns += p.prog_len;
            jobs += p.njobs;
            nfault += o.fault_kind != 0;
            progen_free(&p);
        }
        for (int k = 0; k < C_NUM && !bad; k++) {
            if (!c.bf16 && (k == C_MM_BF || k == C_ACT_BF || k == C_ACT_F32 || k == C_RELU))
                continue;
            if (k == C_LONG && c.acc_rows < 400)   /* the ACC slots are too small */
                continue;
            /* Coverage is the generator's, the same in every build: the long run (make test's
             * 500 programs) checks it.  A short one (the ASan build's 60) checks results and
             * memory only: the rarest feature, matmul_100_rows on ulx3s (about 8 programs in
             * 100), is missing from 60 programs about once in 150 runs. */
            if (cov[k] == 0 && iters >= 200)
                bad = snprintf(msg, sizeof msg, "feature %s never generated", cov_name[k]);
        }
        if (bad) {
            printf("FAIL ref.progen.%s: %s\n", cfgs[ci], msg);
            failures++;
        } else {
            printf("PASS ref.progen.%s (%d programs, %d with an injected fault, %" PRIu64
                   " instructions, %" PRIu64 " tiles)\n", cfgs[ci], i, nfault, insns, jobs);
        }
        printf("# coverage %s:", cfgs[ci]);
        for (int k = 0; k < C_NUM; k++)
            printf(" %s=%" PRIu64, cov_name[k], cov[k]);
        printf("\n");
        fflush(stdout);
        ptpu_ref_destroy(dirty);
    }
    /* Program lengths at the edges, refused options. */
    {
        int bad = 0, count = 0;
        static const char *oc[] = { "sim16", "icebreaker" };
        static const int lens[] = { 8, 9, 12, 20, 32, 64, 1984 };  /* 1984: half of icebreaker's 124 KB */
        for (size_t ci = 0; ci < 2 && !bad; ci++) {
            struct ptpu_ref_cfg c;
            struct ptpu_ref *dirty;
            ptpu_ref_cfg_named(oc[ci], &c);
            if (ptpu_ref_create(&c, &dirty))
                return 1;
            struct progen_opts o = { .n = c.n, .bf16 = c.bf16, .ub_rows = c.ub_rows,
                                     .wb_rows = c.wb_rows, .acc_rows = c.acc_rows,
                                     .vp_rows = c.vp_rows, .mem_kb = c.mem_kb };
            uint64_t cov[C_NUM] = { 0 };
            for (size_t li = 0; li < 7 && !bad; li++)
                for (int k = 0; k < 6 && !bad; k++) {
                    struct progen p;
                    uint64_t s = seed + 77 * (uint64_t)k + li;
                    o.max_insns = lens[li];
                    o.fault_kind = k % 2 ? kinds[(size_t)k % (sizeof kinds / sizeof *kinds)] : 0;
                    if (progen_make(s, &o, &p)) {
                        bad = snprintf(msg, sizeof msg, "%s: progen_make failed with max_insns %d",
                                       oc[ci], lens[li]);
                        break;
                    }
                    if (p.prog_len > (uint32_t)lens[li])
                        bad = snprintf(msg, sizeof msg, "%s: %u instructions, max_insns %d",
                                       oc[ci], p.prog_len, lens[li]);
                    else if (run_one(dirty, &c, &p, cov))
                        bad = 1;
                    count++;
                    progen_free(&p);
                }
            struct progen p;
            o.max_insns = 100;
            o.fault_kind = PTPU_FAULT_TIMEOUT;
            if (!bad && progen_make(1, &o, &p) != -1)
                bad = snprintf(msg, sizeof msg, "fault kind TIMEOUT accepted");
            o.fault_kind = 0;
            o.max_insns = 1 << 30;
            if (!bad && progen_make(1, &o, &p) != -1)
                bad = snprintf(msg, sizeof msg, "a program larger than memory accepted");
            ptpu_ref_destroy(dirty);
        }
        if (bad) {
            printf("FAIL ref.progen.options: %s\n", msg);
            failures++;
        } else {
            printf("PASS ref.progen.options (%d programs of 8 to 1984 instructions, refusals)\n", count);
        }
    }
    printf("%s tb_progen: %d failed (seed %" PRIu64 ")\n", failures ? "FAIL" : "PASS", failures, seed);
    return failures ? 1 : 0;
}
