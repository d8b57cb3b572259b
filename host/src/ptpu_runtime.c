/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ptpu_runtime.c - libpicotpu: error names, devices and backends, device
 * memory, runs with counters and traces, compiled operations and models.
 */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "ptpu_kernels.h"
#include "ptpu_runtime.h"

int ptpu_api_version(void)
{
    return PTPU_API_VERSION;
}

/* ---- errors ---- */

const char *ptpu_error_name(int code)
{
    switch (code) {
#define X(name, value, desc) \
    case value:              \
        return #name;
        PTPU_ERROR_LIST(X)
#undef X
    }
    return "UNKNOWN";
}

const char *ptpu_strerror(int code)
{
    switch (code) {
#define X(name, value, desc) \
    case value:              \
        return desc;
        PTPU_ERROR_LIST(X)
#undef X
    }
    return "unknown error code";
}

static _Thread_local char tls_err[512];

int ptpu_dev_fail(struct ptpu_device *dev, int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(dev ? dev->err : tls_err, sizeof(tls_err), fmt, ap);
    va_end(ap);
    return code;
}

const char *ptpu_last_error(const ptpu_device *dev)
{
    return dev ? dev->err : tls_err;
}

struct ptpu_hw ptpu_dev_hw(const struct ptpu_device *dev)
{
    struct ptpu_hw hw = {dev->info.n, dev->info.bf16, dev->info.ub_rows, dev->info.wb_rows,
                         dev->info.acc_rows, dev->info.vp_rows};
    return hw;
}

/* ---- devices ---- */

static uint64_t next_serial = 1;
static int open_dev(const struct ptpu_backend_ops *ops, const char *opts,
                    const struct ptpu_xport *x, ptpu_device **out);

/* Open devices, so that freeing a model can release its device memory. */
static pthread_mutex_t dev_lock = PTHREAD_MUTEX_INITIALIZER;
static struct ptpu_device *dev_list;

int ptpu_open(const char *uri, ptpu_device **out)
{
    static const struct ptpu_backend_ops *const be[] = {&ptpu_backend_ref, &ptpu_backend_sim,
                                                        &ptpu_backend_usb};
    if (!out)
        return ptpu_dev_fail(NULL, PTPU_ERR_INVALID_ARG, "ptpu_open: out is NULL");
    *out = NULL;
    if (!uri || !*uri)
        uri = "ref";
    const char *colon = strchr(uri, ':');
    size_t nl = colon ? (size_t)(colon - uri) : strlen(uri);
    const struct ptpu_backend_ops *ops = NULL;
    for (size_t i = 0; i < sizeof(be) / sizeof(be[0]); i++)
        if (strlen(be[i]->name) == nl && !strncmp(be[i]->name, uri, nl))
            ops = be[i];
    if (!ops)
        return ptpu_dev_fail(NULL, PTPU_ERR_NO_DEVICE,
                             "unknown device URI '%s' (backends: ref, sim, usb)", uri);
    return open_dev(ops, colon ? colon + 1 : "", NULL, out);
}

/* Create a device on ops; with x, over that link transport. */
static int open_dev(const struct ptpu_backend_ops *ops, const char *opts,
                    const struct ptpu_xport *x, ptpu_device **out)
{
    struct ptpu_device *d = calloc(1, sizeof(*d));
    if (!d) {
        if (x && x->close)
            x->close(x->ctx);
        return ptpu_dev_fail(NULL, PTPU_ERR_NO_MEM, "out of memory");
    }
    d->ops = ops;
    d->serial = __atomic_fetch_add(&next_serial, 1, __ATOMIC_RELAXED);
    snprintf(d->info.backend, sizeof(d->info.backend), "%s", ops->name);
    int rc = x ? ptpu_link_open(d, x) : ops->open(d, opts);
    if (rc) {
        snprintf(tls_err, sizeof(tls_err), "%s", d->err);
        free(d->al);
        free(d);
        return rc;
    }
    pthread_mutex_lock(&dev_lock);
    d->next = dev_list;
    dev_list = d;
    pthread_mutex_unlock(&dev_lock);
    *out = d;
    return 0;
}

int ptpu_open_xport(const struct ptpu_xport *x, const char *backend, ptpu_device **out)
{
    if (!x || !out)
        return PTPU_ERR_INVALID_ARG;
    *out = NULL;
    int rc = open_dev(&ptpu_backend_link, "", x, out);
    if (!rc && backend)
        snprintf((*out)->info.backend, sizeof((*out)->info.backend), "%.7s", backend);
    return rc;
}

void ptpu_close(ptpu_device *dev)
{
    if (!dev)
        return;
    if (dev->running) {
        struct ptpu_run_status st;
        dev->ops->wait(dev, &st);
    }
    ptpu_trace_open(dev, NULL);
    pthread_mutex_lock(&dev_lock);
    for (struct ptpu_device **p = &dev_list; *p; p = &(*p)->next)
        if (*p == dev) {
            *p = dev->next;
            break;
        }
    pthread_mutex_unlock(&dev_lock);
    dev->ops->close(dev);
    free(dev->al);
    free(dev);
}

int ptpu_device_info(ptpu_device *dev, struct ptpu_device_info *info)
{
    if (!dev || !info)
        return PTPU_ERR_INVALID_ARG;
    *info = dev->info;
    return 0;
}

/* ---- device memory: first fit over a sorted list, from 4 KB up ---- */

#define MEM_FIRST 0x1000u

int ptpu_mem_alloc(ptpu_device *dev, size_t len, uint32_t *addr)
{
    if (!dev || !addr || !len)
        return PTPU_ERR_INVALID_ARG;
    uint64_t size = (uint64_t)dev->info.mem_kb * 1024;
    uint64_t need = ((uint64_t)len + 31) & ~(uint64_t)31, at = MEM_FIRST;
    int i = 0;
    for (; i < dev->nal; i++) {
        if (dev->al[i].addr - at >= need && dev->al[i].addr >= at)
            break;
        at = (uint64_t)dev->al[i].addr + dev->al[i].len;
    }
    if (at + need > size)
        return ptpu_dev_fail(dev, PTPU_ERR_RANGE,
                             "out of device memory: %zu bytes requested, %u KB device", len,
                             dev->info.mem_kb);
    if (dev->nal == dev->cal) {
        int nc = dev->cal ? 2 * dev->cal : 16;
        struct ptpu_alloc *a = realloc(dev->al, sizeof(*a) * (size_t)nc);
        if (!a)
            return ptpu_dev_fail(dev, PTPU_ERR_NO_MEM, "out of host memory");
        dev->al = a;
        dev->cal = nc;
    }
    memmove(&dev->al[i + 1], &dev->al[i], sizeof(*dev->al) * (size_t)(dev->nal - i));
    dev->al[i] = (struct ptpu_alloc){(uint32_t)at, (uint32_t)need};
    dev->nal++;
    *addr = (uint32_t)at;
    return 0;
}

int ptpu_mem_free(ptpu_device *dev, uint32_t addr)
{
    if (!dev)
        return PTPU_ERR_INVALID_ARG;
    for (int i = 0; i < dev->nal; i++)
        if (dev->al[i].addr == addr) {
            memmove(&dev->al[i], &dev->al[i + 1], sizeof(*dev->al) * (size_t)(dev->nal - i - 1));
            dev->nal--;
            return 0;
        }
    return ptpu_dev_fail(dev, PTPU_ERR_INVALID_ARG, "free of 0x%08x: not an allocation", addr);
}

static int mem_check(ptpu_device *dev, uint32_t addr, const void *data, size_t len)
{
    if (!dev || (!data && len))
        return PTPU_ERR_INVALID_ARG;
    if ((uint64_t)addr + len > (uint64_t)dev->info.mem_kb * 1024)
        return ptpu_dev_fail(dev, PTPU_ERR_RANGE, "0x%08x+%zu outside device memory (%u KB)",
                             addr, len, dev->info.mem_kb);
    if (dev->running)
        return ptpu_dev_fail(dev, PTPU_ERR_BUSY, "a program is running: ptpu_wait() first");
    return 0;
}

int ptpu_mem_write(ptpu_device *dev, uint32_t addr, const void *data, size_t len)
{
    int rc = mem_check(dev, addr, data, len);
    return rc ? rc : len ? dev->ops->mem_write(dev, addr, data, len) : 0;
}

int ptpu_mem_read(ptpu_device *dev, uint32_t addr, void *data, size_t len)
{
    int rc = mem_check(dev, addr, data, len);
    return rc ? rc : len ? dev->ops->mem_read(dev, addr, data, len) : 0;
}

/* ---- runs ---- */

int ptpu_start(ptpu_device *dev, uint32_t prog_addr, uint32_t ninsns)
{
    if (!dev || !ninsns || (prog_addr & 31))
        return dev ? ptpu_dev_fail(dev, PTPU_ERR_INVALID_ARG,
                                   "program at 0x%08x, %u instructions: must be 32-byte aligned "
                                   "and not empty", prog_addr, ninsns)
                   : PTPU_ERR_INVALID_ARG;
    if (dev->running)
        return ptpu_dev_fail(dev, PTPU_ERR_BUSY, "a program is already running");
    int rc = dev->ops->start(dev, prog_addr, ninsns);
    dev->run_estimate = 0;
    if (!rc)
        dev->running = 1;
    return rc;
}

static const char *const cnt_names[] = {
#define X(name, idx, desc) #name,
    PTPU_COUNTER_LIST(X)
#undef X
};

static void trace_run(ptpu_device *dev, const struct ptpu_run_status *st)
{
    if (!dev->trace)
        return;
    uint64_t cyc = st->counters[PTPU_CNT_CYCLES];
    fprintf(dev->trace, "%s{\"name\":\"%s\",\"ph\":\"X\",\"pid\":1,\"tid\":1,\"ts\":%llu,"
                        "\"dur\":%llu,\"args\":{",
            dev->trace_events++ ? ",\n" : "", dev->trace_label[0] ? dev->trace_label : "run",
            (unsigned long long)dev->trace_ts,
            (unsigned long long)(cyc ? cyc : 1));
    for (int i = 0; i < PTPU_NUM_COUNTERS; i++)
        fprintf(dev->trace, "%s\"%s\":%llu", i ? "," : "", cnt_names[i],
                (unsigned long long)st->counters[i]);
    fprintf(dev->trace, "}}");
    /* where the cycles went, as stacked slices on their own rows */
    static const int stall[] = {PTPU_CNT_LOAD_WAIT_TOKEN, PTPU_CNT_LOAD_WAIT_MEM,
                                PTPU_CNT_COMPUTE_WAIT_TOKEN, PTPU_CNT_COMPUTE_WAIT_WEIGHTS,
                                PTPU_CNT_COMPUTE_IDLE, PTPU_CNT_STORE_WAIT_TOKEN,
                                PTPU_CNT_STORE_WAIT_MEM, PTPU_CNT_MXU_ROWS};
    for (size_t i = 0; i < sizeof(stall) / sizeof(stall[0]); i++)
        if (st->counters[stall[i]])
            fprintf(dev->trace, ",\n{\"name\":\"%s\",\"ph\":\"X\",\"pid\":1,\"tid\":%d,"
                                "\"ts\":%llu,\"dur\":%llu}",
                    cnt_names[stall[i]], (int)i + 2, (unsigned long long)dev->trace_ts,
                    (unsigned long long)st->counters[stall[i]]);
    dev->trace_ts += cyc ? cyc : 1;
}

int ptpu_trace_open(ptpu_device *dev, const char *path)
{
    if (!dev)
        return PTPU_ERR_INVALID_ARG;
    if (dev->trace) {
        fprintf(dev->trace, "\n]}\n");
        fclose(dev->trace);
        dev->trace = NULL;
    }
    if (!path)
        return 0;
    dev->trace = fopen(path, "w");
    if (!dev->trace)
        return ptpu_dev_fail(dev, PTPU_ERR_IO, "%s: %s", path, strerror(errno));
    fprintf(dev->trace, "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n");
    /* row names: the runs, then the counters of where their cycles went */
    static const char *const rows[] = {"runs (1 us = 1 cycle)", "load: waiting for tokens",
                                       "load: waiting for memory", "compute: waiting for tokens",
                                       "compute: waiting for weights", "compute: idle",
                                       "store: waiting for tokens", "store: waiting for memory",
                                       "MXU busy (rows)"};
    for (int i = 0; i < 9; i++)
        fprintf(dev->trace, "%s{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":%d,"
                            "\"args\":{\"name\":\"%s\"}}",
                i ? ",\n" : "", i + 1, rows[i]);
    dev->trace_events = 1;
    return 0;
}

static void add_counters(struct ptpu_counters *cnt, const struct ptpu_run_status *st)
{
    for (int i = 0; i < PTPU_NUM_COUNTERS; i++)
        cnt->c[i] += st->counters[i];
    cnt->runs++;
    cnt->utilization = cnt->c[PTPU_CNT_CYCLES]
                           ? (double)cnt->c[PTPU_CNT_MXU_ROWS] / (double)cnt->c[PTPU_CNT_CYCLES]
                           : 0.0;
}

static const char *fault_name(int f)
{
    switch (f) {
#define X(name, value, desc) \
    case value:              \
        return #name;
        PTPU_FAULT_LIST(X)
#undef X
    }
    return "UNKNOWN";
}

int ptpu_wait(ptpu_device *dev, struct ptpu_counters *cnt)
{
    if (!dev)
        return PTPU_ERR_INVALID_ARG;
    if (!dev->running)
        return ptpu_dev_fail(dev, PTPU_ERR_INVALID_ARG, "ptpu_wait: no program was started");
    struct ptpu_run_status st;
    memset(&st, 0, sizeof(st));
    int rc = dev->ops->wait(dev, &st);
    dev->running = 0;
    if (rc)
        return rc;
    trace_run(dev, &st);
    if (cnt) {
        memset(cnt, 0, sizeof(*cnt));
        add_counters(cnt, &st);
    }
    if (st.state == PTPU_STATE_FAULT)
        return ptpu_dev_fail(dev, PTPU_ERR_FAULT, "program fault %s (%d) at pc %u, address 0x%08x",
                             fault_name(st.fault), st.fault, st.fault_pc, st.fault_addr);
    if (st.state != PTPU_STATE_DONE)
        return ptpu_dev_fail(dev, PTPU_ERR_PROTOCOL, "program ended in state %d", st.state);
    return 0;
}

/* ---- compiled units: constants + program in one allocation ---- */

void (*ptpu_prog_hook)(const uint32_t *w, size_t n, const struct ptpu_hw *hw);

uint64_t ptpu_prog_estimate(const uint32_t *w, size_t n)
{
    uint64_t c = 0;
    for (size_t i = 0; i < n; i++) {
        const uint32_t *x = w + 8 * i;
        if ((x[0] & 0xf) == PTPU_OP_MATMUL)
            c += (uint64_t)ptpu_field_get(x, PTPU_F_MATMUL_ROWS);
        else if ((x[0] & 0xf) == PTPU_OP_ACTIVATE)
            c += (uint64_t)ptpu_field_get(x, PTPU_F_ACTIVATE_COUNT1) *
                 (uint64_t)ptpu_field_get(x, PTPU_F_ACTIVATE_COUNT2) *
                 (uint64_t)ptpu_field_get(x, PTPU_F_ACTIVATE_WIN1) *
                 (uint64_t)ptpu_field_get(x, PTPU_F_ACTIVATE_WIN2);
    }
    return c;
}

struct unit {
    uint32_t base, size, prog_addr, ninsns;
    uint64_t estimate;      /* ptpu_prog_estimate of the program */
    uint32_t chain_addr;    /* the same program with every HALT but the last a SYNC;
                             * set to 1 before build_unit() to ask for it */
};

/* Compile with cb placed at cbase, upload constants and program, fill u. */
static int upload_unit(ptpu_device *dev, struct ptpu_cc *cc, struct unit *u)
{
    ptpu_enc_halt(cc->prog);
    if (cc->prog->err || cc->cb->err)
        return ptpu_dev_fail(dev, cc->prog->err ? cc->prog->err : cc->cb->err,
                             "compile: %.400s", cc->err[0] ? cc->err : "a field out of range");
    u->prog_addr = cc->cb->base + (((uint32_t)cc->cb->n + 31) & ~31u);
    u->ninsns = (uint32_t)cc->prog->n;
    u->estimate = ptpu_prog_estimate(cc->prog->w, cc->prog->n);
    if (ptpu_prog_hook)
        ptpu_prog_hook(cc->prog->w, cc->prog->n, &cc->hw);
    int rc = ptpu_mem_write(dev, cc->cb->base, cc->cb->d, cc->cb->n);
    if (!rc)
        rc = ptpu_mem_write(dev, u->prog_addr, cc->prog->w, cc->prog->n * PTPU_INSTR_BYTES);
    if (!u->chain_addr)
        return rc;
    u->chain_addr = u->prog_addr + u->ninsns * PTPU_INSTR_BYTES;
    for (size_t i = 0; i + 1 < cc->prog->n; i++)
        if ((cc->prog->w[8 * i] & 0xfu) == PTPU_OP_HALT)
            cc->prog->w[8 * i] = PTPU_OP_SYNC;
    if (!rc)
        rc = ptpu_mem_write(dev, u->chain_addr, cc->prog->w, cc->prog->n * PTPU_INSTR_BYTES);
    return rc;
}

/* Run a compiled unit to completion. */
static int run_unit(ptpu_device *dev, const struct unit *u, struct ptpu_counters *cnt)
{
    dev->run_estimate = u->estimate;
    int rc = ptpu_start(dev, u->prog_addr, u->ninsns);
    return rc ? rc : ptpu_wait(dev, cnt);
}

typedef int (*lower_fn)(struct ptpu_cc *cc, void *arg, const uint32_t *tensors);

/* Compile twice: once to size it, then at its real addresses.  tensors[] are the
 * addresses of ntens buffers of tlen[] bytes placed first in the allocation. */
static int build_unit(ptpu_device *dev, lower_fn fn, void *arg, int ntens, const size_t *tlen,
                      uint32_t *taddr, struct unit *u)
{
    struct ptpu_prog prog = {0};
    struct ptpu_cblob cb = {0};
    struct ptpu_cc cc = {ptpu_dev_hw(dev), &prog, &cb, ""};
    size_t toff = 0;
    for (int i = 0; i < ntens; i++) {
        taddr[i] = (uint32_t)toff;
        toff += (tlen[i] + 31) & ~(size_t)31;
    }
    if (toff > 0xffffffffu)
        return ptpu_dev_fail(dev, PTPU_ERR_RANGE, "tensors too large for device memory");
    cb.base = (uint32_t)toff;
    int rc = fn(&cc, arg, taddr);
    size_t total = toff + ((cb.n + 31) & ~(size_t)31) +
                   (u->chain_addr ? 2 : 1) * (prog.n + 1) * PTPU_INSTR_BYTES;
    if (rc) {
        rc = ptpu_dev_fail(dev, rc, "compile: %.400s", cc.err);
        goto out;
    }
    if (total > 0xffffffffu) {
        rc = ptpu_dev_fail(dev, PTPU_ERR_RANGE, "program too large");
        goto out;
    }
    rc = ptpu_mem_alloc(dev, total, &u->base);
    if (rc)
        goto out;
    u->size = (uint32_t)total;
    ptpu_prog_free(&prog);
    ptpu_cblob_free(&cb);
    for (int i = 0; i < ntens; i++)
        taddr[i] += u->base;
    cb.base = u->base + (uint32_t)toff;
    rc = fn(&cc, arg, taddr);
    if (rc)
        rc = ptpu_dev_fail(dev, rc, "compile: %.400s", cc.err);
    else
        rc = upload_unit(dev, &cc, u);
    if (rc)
        ptpu_mem_free(dev, u->base);
out:
    ptpu_prog_free(&prog);
    ptpu_cblob_free(&cb);
    return rc;
}

/* ---- GEMM operations ---- */

struct gemm_arg {
    int M, N, K, zp_a, relu, out_bf16;
    int lda, ldc;           /* bytes per row of A and C in device memory (ptpu_gemm_lda) */
    const void *B;
    const struct ptpu_quant *q;
    const uint32_t *bias;
};

static int lower_gemm_i8(struct ptpu_cc *cc, void *arg, const uint32_t *t)
{
    struct gemm_arg *g = arg;
    return ptpu_cc_gemm_i8(cc, g->M, g->N, g->K, t[0], g->lda, g->zp_a, g->B, g->q, t[1],
                           g->ldc);
}

static int lower_gemm_bf16(struct ptpu_cc *cc, void *arg, const uint32_t *t)
{
    struct gemm_arg *g = arg;
    return ptpu_cc_gemm_bf16(cc, g->M, g->N, g->K, t[0], g->lda, g->B, g->bias, g->relu,
                             g->out_bf16, t[1], g->ldc);
}

/* A (M rows of arow bytes) and C (M rows of crow bytes) live in device memory at the
 * padded pitches g->lda and g->ldc, so that the rows of a K-slice or an output tile spread
 * over the memory's pseudo-channels (ptpu_gemm_lda); the host's matrices stay dense. */
static int run_gemm(ptpu_device *dev, lower_fn fn, struct gemm_arg *g, const void *A,
                    size_t arow, void *C, size_t crow, struct ptpu_counters *cnt)
{
    if (arow > 0x7fff0000u || crow > 0x7fff0000u)
        return ptpu_dev_fail(dev, PTPU_ERR_RANGE, "gemm: rows of A or C too long");
    g->lda = ptpu_gemm_lda((int)arow);
    g->ldc = ptpu_gemm_lda((int)crow);
    size_t M = (size_t)g->M, alen = M * (size_t)g->lda, clen = M * (size_t)g->ldc;
    size_t tl[2] = {alen, clen};
    uint32_t ta[2];
    struct unit u = {0};
    uint8_t *pa = NULL, *pc = NULL;
    const void *src = A;
    if ((size_t)g->lda != arow) {
        pa = calloc(alen, 1);
        if (!pa)
            return ptpu_dev_fail(dev, PTPU_ERR_NO_MEM, "gemm: no memory for A");
        for (size_t r = 0; r < M; r++)
            memcpy(pa + r * (size_t)g->lda, (const uint8_t *)A + r * arow, arow);
        src = pa;
    }
    if ((size_t)g->ldc != crow && !(pc = malloc(clen))) {
        free(pa);
        return ptpu_dev_fail(dev, PTPU_ERR_NO_MEM, "gemm: no memory for C");
    }
    int rc = build_unit(dev, fn, g, 2, tl, ta, &u);
    if (!rc) {
        rc = ptpu_mem_write(dev, ta[0], src, alen);
        if (!rc)
            rc = run_unit(dev, &u, cnt);
        if (!rc)
            rc = ptpu_mem_read(dev, ta[1], pc ? (void *)pc : C, clen);
        if (!rc && pc)
            for (size_t r = 0; r < M; r++)
                memcpy((uint8_t *)C + r * crow, pc + r * (size_t)g->ldc, crow);
        ptpu_mem_free(dev, u.base);
    }
    free(pa);
    free(pc);
    return rc;
}

int ptpu_gemm_i8(ptpu_device *dev, int M, int N, int K, const int8_t *A, int zp_a,
                 const int8_t *B, const struct ptpu_quant *q, int8_t *C,
                 struct ptpu_counters *cnt)
{
    if (!dev)
        return PTPU_ERR_INVALID_ARG;
    if (M < 1 || N < 1 || K < 1 || !A || !B || !q || !q->m0 || !q->shift || !C ||
        zp_a < -128 || zp_a > 127 || q->zp_out < -128 || q->zp_out > 127 ||
        q->clamp_lo < -128 || q->clamp_hi > 127 || q->clamp_lo > q->clamp_hi)
        return ptpu_dev_fail(dev, PTPU_ERR_INVALID_ARG, "gemm_i8: invalid argument");
    for (int n = 0; n < N; n++)
        if (q->shift[n] < -31 || q->shift[n] > 31)
            return ptpu_dev_fail(dev, PTPU_ERR_INVALID_ARG, "gemm_i8: shift[%d] = %d", n,
                                 q->shift[n]);
    struct gemm_arg g = {.M = M, .N = N, .K = K, .zp_a = zp_a, .B = B, .q = q};
    return run_gemm(dev, lower_gemm_i8, &g, A, (size_t)K, C, (size_t)N, cnt);
}

int ptpu_gemm_bf16(ptpu_device *dev, int M, int N, int K, const uint16_t *A,
                   const uint16_t *B, const uint32_t *bias, int relu, int out_bf16, void *C,
                   struct ptpu_counters *cnt)
{
    if (!dev)
        return PTPU_ERR_INVALID_ARG;
    if (M < 1 || N < 1 || K < 1 || !A || !B || !C)
        return ptpu_dev_fail(dev, PTPU_ERR_INVALID_ARG, "gemm_bf16: invalid argument");
    if (!dev->info.bf16)
        return ptpu_dev_fail(dev, PTPU_ERR_UNSUPPORTED,
                             "gemm_bf16: configuration %s has no bf16", dev->info.config);
    struct gemm_arg g = {.M = M, .N = N, .K = K, .relu = relu, .out_bf16 = out_bf16, .B = B,
                         .bias = bias};
    return run_gemm(dev, lower_gemm_bf16, &g, A, (size_t)K * 2, C,
                    (size_t)N * (out_bf16 ? 2 : 4), cnt);
}

/* ---- models ---- */

struct ptpu_mcache {
    struct ptpu_mcache *next;
    uint64_t serial;
    struct unit u;
    uint32_t *taddr;
    uint32_t *seg;
    uint64_t *est;
};

static void mcache_free(struct ptpu_model *m)
{
    while (m->cache) {
        struct ptpu_mcache *c = m->cache;
        m->cache = c->next;
        pthread_mutex_lock(&dev_lock);
        for (struct ptpu_device *d = dev_list; d; d = d->next)
            if (d->serial == c->serial && !d->running)
                ptpu_mem_free(d, c->u.base);
        pthread_mutex_unlock(&dev_lock);
        free(c->taddr);
        free(c->seg);
        free(c->est);
        free(c);
    }
}

int ptpu_model_load_mem(const void *data, size_t len, ptpu_model **out)
{
    if (!out || (!data && len))
        return ptpu_dev_fail(NULL, PTPU_ERR_INVALID_ARG, "ptpu_model_load_mem: NULL argument");
    return ptpu_model_parse(data, len, out, tls_err, sizeof(tls_err));
}

int ptpu_model_load(const char *path, ptpu_model **out)
{
    if (!path || !out)
        return ptpu_dev_fail(NULL, PTPU_ERR_INVALID_ARG, "ptpu_model_load: NULL argument");
    *out = NULL;
    FILE *f = fopen(path, "rb");
    if (!f)
        return ptpu_dev_fail(NULL, PTPU_ERR_IO, "%s: %s", path, strerror(errno));
    size_t cap = 1 << 16, len = 0, r;
    uint8_t *buf = malloc(cap);
    while (buf && (r = fread(buf + len, 1, cap - len, f)) > 0) {
        len += r;
        if (len == cap) {
            uint8_t *nb = cap < ((size_t)1 << 31) ? realloc(buf, cap * 2) : NULL;
            if (!nb) {
                free(buf);
                buf = NULL;
            } else {
                buf = nb;
                cap *= 2;
            }
        }
    }
    fclose(f);
    if (!buf)
        return ptpu_dev_fail(NULL, PTPU_ERR_NO_MEM, "%s: too large or out of memory", path);
    int rc = ptpu_model_parse(buf, len, out, tls_err, sizeof(tls_err));
    if (rc) {
        char tmp[sizeof(tls_err)];
        snprintf(tmp, sizeof(tmp), "%s", tls_err);
        snprintf(tls_err, sizeof(tls_err), "%.200s: %.300s", path, tmp);
    }
    free(buf);
    return rc;
}

void ptpu_model_free(ptpu_model *m)
{
    ptpu_model_destroy(m);
}

int ptpu_model_io(const ptpu_model *m, struct ptpu_shape *in, struct ptpu_shape *out)
{
    if (!m)
        return PTPU_ERR_INVALID_ARG;
    const struct ptpu_tensor *a = &m->t[0], *b = &m->t[m->output];
    if (in)
        *in = (struct ptpu_shape){a->h, a->w, a->c, a->scale, a->zp};
    if (out)
        *out = (struct ptpu_shape){b->h, b->w, b->c, b->scale, b->zp};
    return 0;
}

int ptpu_model_num_ops(const ptpu_model *m)
{
    return m ? m->nops : PTPU_ERR_INVALID_ARG;
}

static size_t tsize(const struct ptpu_tensor *t)
{
    return (size_t)t->h * t->w * t->c;
}

int ptpu_model_run_host(const ptpu_model *m, const int8_t *in, int8_t *out)
{
    if (!m || !in || !out)
        return PTPU_ERR_INVALID_ARG;
    int8_t **t = calloc((size_t)m->ntensors, sizeof(*t));
    if (!t)
        return PTPU_ERR_NO_MEM;
    int rc = 0;
    t[0] = (int8_t *)in;
    for (int i = 0; i < m->nops && !rc; i++) {
        const struct ptpu_mop *op = &m->op[i];
        t[op->out] = malloc(tsize(&m->t[op->out]));
        if (!t[op->out]) {
            rc = PTPU_ERR_NO_MEM;
            break;
        }
        ptpu_k_op(m, op, t[op->in[0]], op->in[1] >= 0 ? t[op->in[1]] : NULL, t[op->out]);
    }
    if (!rc)
        memcpy(out, t[m->output], tsize(&m->t[m->output]));
    for (int i = 1; i < m->ntensors; i++)
        free(t[i]);
    free(t);
    return rc;
}

struct model_arg {
    const struct ptpu_model *m;
    uint32_t *seg;      /* first instruction of op i; seg[nops] = the end */
    uint64_t *est;      /* estimated cycles of op i */
};

/* One program segment per op, each ending with HALT: runs can go op by op (with
 * counters per op) or be chained. */
static int lower_model(struct ptpu_cc *cc, void *arg, const uint32_t *t)
{
    struct model_arg *ma = arg;
    const struct ptpu_model *m = ma->m;
    for (int i = 0; i < m->nops; i++) {
        ma->seg[i] = (uint32_t)cc->prog->n;
        int rc = ptpu_cc_op(cc, m, &m->op[i], t);
        if (!rc)
            rc = ptpu_enc_halt(cc->prog);
        if (!rc)
            ma->est[i] = ptpu_prog_estimate(cc->prog->w + 8 * (size_t)ma->seg[i],
                                            cc->prog->n - ma->seg[i]);
        if (rc) {
            char tmp[sizeof(cc->err)];
            snprintf(tmp, sizeof(tmp), "%s", cc->err);
            snprintf(cc->err, sizeof(cc->err), "op %d: %.200s", i, tmp);
            return rc;
        }
    }
    ma->seg[m->nops] = (uint32_t)cc->prog->n;
    return 0;
}

static int model_prepare(ptpu_device *dev, ptpu_model *m, struct ptpu_mcache **out)
{
    for (struct ptpu_mcache *c = m->cache; c; c = c->next)
        if (c->serial == dev->serial) {
            *out = c;
            return 0;
        }
    struct ptpu_mcache *c = calloc(1, sizeof(*c));
    size_t *tl = calloc((size_t)m->ntensors, sizeof(*tl));
    if (c)
        c->taddr = calloc((size_t)m->ntensors, sizeof(*c->taddr));
    if (!c || !tl || !c->taddr) {
        free(tl);
        if (c)
            free(c->taddr);
        free(c);
        return ptpu_dev_fail(dev, PTPU_ERR_NO_MEM, "out of host memory");
    }
    for (int i = 0; i < m->ntensors; i++)
        tl[i] = tsize(&m->t[i]);
    c->seg = calloc((size_t)m->nops + 1, sizeof(*c->seg));
    c->est = calloc((size_t)m->nops + 1, sizeof(*c->est));
    c->u.chain_addr = 1;
    struct model_arg ma = {m, c->seg, c->est};
    int rc = c->seg && c->est ? build_unit(dev, lower_model, &ma, m->ntensors, tl, c->taddr, &c->u)
                    : ptpu_dev_fail(dev, PTPU_ERR_NO_MEM, "out of host memory");
    free(tl);
    if (rc) {
        free(c->seg);
        free(c->est);
        free(c->taddr);
        free(c);
        return rc;
    }
    c->serial = dev->serial;
    c->next = m->cache;
    m->cache = c;
    m->cache_free = mcache_free;
    *out = c;
    return 0;
}

/* Run op segments one after the other; per_op (may be NULL) gets each op's counters. */
static int model_exec(ptpu_device *dev, ptpu_model *m, const int8_t *in, int8_t *out,
                      struct ptpu_counters *cnt, struct ptpu_counters *per_op)
{
    if (!dev)
        return PTPU_ERR_INVALID_ARG;
    if (!m || !in || !out)
        return ptpu_dev_fail(dev, PTPU_ERR_INVALID_ARG, "ptpu_model_run: NULL argument");
    struct ptpu_mcache *c = NULL;
    struct ptpu_counters sum, one;
    memset(&sum, 0, sizeof(sum));
    int rc = model_prepare(dev, m, &c);
    if (!rc)
        rc = ptpu_mem_write(dev, c->taddr[0], in, tsize(&m->t[0]));
    for (int i = 0; i < m->nops && !rc; i++) {
        static const char *const kind[] = {"?", "conv2d", "depthwise", "fc", "maxpool",
                                           "avgpool", "add"};
        snprintf(dev->trace_label, sizeof(dev->trace_label), "op %d %s", i,
                 kind[m->op[i].type]);
        dev->run_estimate = c->est[i];
        rc = ptpu_start(dev, c->u.prog_addr + c->seg[i] * PTPU_INSTR_BYTES,
                        c->seg[i + 1] - c->seg[i]);
        if (!rc)
            rc = ptpu_wait(dev, &one);
        if (rc) {
            char tmp[256];
            snprintf(tmp, sizeof(tmp), "%.255s", dev->err);
            ptpu_dev_fail(dev, rc, "op %d: %s", i, tmp);
            break;
        }
        if (per_op)
            per_op[i] = one;
        for (int k = 0; k < PTPU_NUM_COUNTERS; k++)
            sum.c[k] += one.c[k];
        sum.runs++;
    }
    dev->trace_label[0] = 0;
    if (!rc)
        rc = ptpu_mem_read(dev, c->taddr[m->output], out, tsize(&m->t[m->output]));
    sum.utilization = sum.c[PTPU_CNT_CYCLES] ? (double)sum.c[PTPU_CNT_MXU_ROWS] /
                                                   (double)sum.c[PTPU_CNT_CYCLES]
                                             : 0.0;
    if (cnt)
        *cnt = sum;
    return rc;
}

int ptpu_model_run(ptpu_device *dev, ptpu_model *m, const int8_t *in, int8_t *out,
                   struct ptpu_counters *cnt)
{
    return model_exec(dev, m, in, out, cnt, NULL);
}

int ptpu_model_start(ptpu_device *dev, ptpu_model *m, const int8_t *in)
{
    if (!dev)
        return PTPU_ERR_INVALID_ARG;
    if (!m || !in)
        return ptpu_dev_fail(dev, PTPU_ERR_INVALID_ARG, "ptpu_model_start: NULL argument");
    struct ptpu_mcache *c = NULL;
    int rc = model_prepare(dev, m, &c);
    if (!rc)
        rc = ptpu_mem_write(dev, c->taddr[0], in, tsize(&m->t[0]));
    snprintf(dev->trace_label, sizeof(dev->trace_label), "model (%d ops)", m->nops);
    if (!rc) {
        dev->run_estimate = c->u.estimate;
        rc = ptpu_start(dev, c->u.chain_addr, c->u.ninsns);
    }
    return rc;
}

int ptpu_model_wait(ptpu_device *dev, ptpu_model *m, int8_t *out, struct ptpu_counters *cnt)
{
    if (!dev)
        return PTPU_ERR_INVALID_ARG;
    if (!m || !out)
        return ptpu_dev_fail(dev, PTPU_ERR_INVALID_ARG, "ptpu_model_wait: NULL argument");
    struct ptpu_mcache *c = m->cache;
    while (c && c->serial != dev->serial)
        c = c->next;
    if (!c)
        return ptpu_dev_fail(dev, PTPU_ERR_INVALID_ARG, "ptpu_model_wait: model not started");
    int rc = ptpu_wait(dev, cnt);
    dev->trace_label[0] = 0;
    if (!rc)
        rc = ptpu_mem_read(dev, c->taddr[m->output], out, tsize(&m->t[m->output]));
    return rc;
}

int ptpu_model_profile(ptpu_device *dev, ptpu_model *m, const int8_t *in, int8_t *out,
                       struct ptpu_counters *per_op)
{
    if (!per_op)
        return dev ? ptpu_dev_fail(dev, PTPU_ERR_INVALID_ARG, "per_op is NULL")
                   : PTPU_ERR_INVALID_ARG;
    return model_exec(dev, m, in, out, NULL, per_op);
}

int ptpu_model_op_info(const ptpu_model *m, int op, struct ptpu_op_info *info)
{
    static const char *const names[] = {"?", "conv2d", "depthwise", "fc", "maxpool", "avgpool",
                                        "add"};
    if (!m || !info || op < 0 || op >= m->nops)
        return PTPU_ERR_INVALID_ARG;
    const struct ptpu_mop *o = &m->op[op];
    const struct ptpu_tensor *ti = &m->t[o->in[0]], *to = &m->t[o->out];
    memset(info, 0, sizeof(*info));
    info->name = names[o->type];
    info->in_h = ti->h;
    info->in_w = ti->w;
    info->in_c = ti->c;
    info->out_h = to->h;
    info->out_w = to->w;
    info->out_c = to->c;
    info->kh = o->kh;
    info->kw = o->kw;
    info->stride = o->sh;
    uint64_t px = (uint64_t)to->h * to->w;
    switch (o->type) {
    case PTPU_MOP_CONV2D:
        info->macs = px * to->c * o->kh * o->kw * ti->c;
        break;
    case PTPU_MOP_DEPTHWISE:
        info->macs = px * to->c * o->kh * o->kw;
        break;
    case PTPU_MOP_FC:
        info->macs = (uint64_t)to->c * o->cin;
        break;
    default:
        info->macs = 0;
    }
    return 0;
}
