/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ptpu_backend_sim.c - the `sim` backend: the Verilated SoC in process
 * (sim/include/picotpu_sim.h), spoken to through its link byte stream exactly
 * like a board over its UART (ptpu_backend_link.c).
 *
 * URI: sim[:config=NAME][,trace=FILE.fst][,firmware=FILE.bin][,backdoor=0|1]
 * The simulation library of a configuration is build/sim/NAME/libpicotpu_sim.so
 * (`make sim`), loaded at open time (PTPU_SIM_LIB overrides the path), so that
 * libpicotpu itself does not depend on any Verilated model.  backdoor=1 (the
 * default) moves device memory through the simulator's memory backdoor in zero
 * simulated time, as weights already resident in HBM would be; backdoor=0
 * sends MEM_WRITE/MEM_READ over the simulated link.  Long waits print a
 * progress line on stderr (cycles, simulated cycles per second).
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ptpu_runtime.h"

#ifndef PTPU_SIM_DIR
#define PTPU_SIM_DIR "build/sim"
#endif

int ptpu_uri_opt(const char *opts, const char *key, char *buf, size_t len);

struct simlib {
    void *dl;
    void *s;
    int (*create)(const char *, const char *, void **);
    void (*destroy)(void *);
    int (*step)(void *, uint64_t);
    uint64_t (*cycles)(const void *);
    int (*send)(void *, const void *, size_t);
    size_t (*recv)(void *, void *, size_t);
    int (*mem_write)(void *, uint32_t, const void *, size_t);
    int (*mem_read)(void *, uint32_t, void *, size_t);
    int (*trace_start)(void *, const char *);
    const char *(*strerror)(int);
    int dead;
    int tty, shown;             /* stderr is a terminal; a progress line is on it */
    uint64_t run_c0, run_est;   /* cycle count at RUN, compiler's estimate of the run */
};

static void x_hint(void *ctx, uint64_t cycles)
{
    struct simlib *l = ctx;
    l->run_c0 = l->cycles(l->s);
    l->run_est = cycles;
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int x_send(void *ctx, const uint8_t *buf, size_t len)
{
    struct simlib *l = ctx;
    return l->dead ? -1 : l->send(l->s, buf, len);
}

/* Cycles per ptpu_sim_step() while waiting for bytes: a response is taken as soon as
 * its first bytes are out, so the device idles at most this long past it (a step of
 * thousands of cycles per request would simulate more idle cycles than work). */
#define STEP_CYCLES 64

/* The progress line of a long wait: cycles of this run so far, simulated cycles per
 * second, and an ETA from the compiler's lower bound of the run's cycles.  On a terminal
 * one line rewritten in place and erased when the wait ends; otherwise a line every 10 s. */
static void progress(struct simlib *l, double t, double t0, uint64_t c0)
{
    uint64_t c = l->cycles(l->s), run = c - l->run_c0;
    double rate = (double)(c - c0) / (t - t0);
    char est[96] = "";
    if (l->run_est > run && rate > 0)
        snprintf(est, sizeof(est), " (of >= %.3f M: ETA >= %.0f s)", (double)l->run_est / 1e6,
                 (double)(l->run_est - run) / rate);
    fprintf(stderr, "%ssim: %.3f Mcycles done%s, %.1f kcycles/s%s", l->tty ? "\r" : "",
            (double)run / 1e6, est, rate / 1e3, l->tty ? "\033[K" : "\n");
    fflush(stderr);
    l->shown = 1;
}

static long x_recv(void *ctx, uint8_t *buf, size_t max, uint64_t budget)
{
    struct simlib *l = ctx;
    uint64_t done = 0, c0 = l->cycles(l->s);
    double t0 = now_s(), t_last = t0;
    long ret = 0;
    for (;;) {
        size_t n = l->recv(l->s, buf, max);
        if (n) {
            ret = (long)n;
            break;
        }
        if (done >= budget || l->dead)
            break;
        uint64_t chunk = budget - done < STEP_CYCLES ? budget - done : STEP_CYCLES;
        int rc = l->step(l->s, chunk);
        done += chunk;
        if (rc) {
            l->dead = 1;
            if (l->shown && l->tty)
                fprintf(stderr, "\n");
            l->shown = 0;
            fprintf(stderr, "sim: the simulation ended at cycle %llu: %s\n",
                    (unsigned long long)l->cycles(l->s), l->strerror(rc));
            return PTPU_ERR_IO;
        }
        if ((done & 4095) == 0) {
            double t = now_s();
            if (t - t0 > 2.0 && t - t_last > (l->tty ? 1.0 : 10.0)) {
                progress(l, t, t0, c0);
                t_last = t;
            }
        }
    }
    if (l->shown && l->tty)
        fprintf(stderr, "\r\033[K");
    l->shown = 0;
    return ret;
}

static int x_peek(void *ctx, uint32_t addr, void *data, size_t len)
{
    struct simlib *l = ctx;
    return l->mem_read(l->s, addr, data, len);
}

static int x_poke(void *ctx, uint32_t addr, const void *data, size_t len)
{
    struct simlib *l = ctx;
    return l->mem_write(l->s, addr, data, len);
}

static void x_close(void *ctx)
{
    struct simlib *l = ctx;
    if (l->s)
        l->destroy(l->s);
    if (l->dl)
        dlclose(l->dl);
    free(l);
}

#define SYM(f, name)                                                                          \
    do {                                                                                      \
        *(void **)&l->f = dlsym(l->dl, name);                                                 \
        if (!l->f) {                                                                          \
            x_close(l);                                                                       \
            return ptpu_dev_fail(dev, PTPU_ERR_NO_DEVICE, "sim: %s lacks %s", path, name);    \
        }                                                                                     \
    } while (0)

static int sim_open(struct ptpu_device *dev, const char *opts)
{
    char cfg[32] = "sim16", trace[256] = "", fw[256] = "", bd[8] = "1", path[512];
    ptpu_uri_opt(opts, "config", cfg, sizeof(cfg));
    ptpu_uri_opt(opts, "trace", trace, sizeof(trace));
    ptpu_uri_opt(opts, "firmware", fw, sizeof(fw));
    ptpu_uri_opt(opts, "backdoor", bd, sizeof(bd));
    const char *env = getenv("PTPU_SIM_LIB");
    if (env)
        snprintf(path, sizeof(path), "%s", env);
    else
        snprintf(path, sizeof(path), "%s/%.31s/libpicotpu_sim.so", PTPU_SIM_DIR, cfg);
    struct simlib *l = calloc(1, sizeof(*l));
    if (!l)
        return ptpu_dev_fail(dev, PTPU_ERR_NO_MEM, "out of memory");
    l->tty = isatty(2);
    l->dl = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!l->dl) {
        free(l);
        return ptpu_dev_fail(dev, PTPU_ERR_NO_DEVICE,
                             "sim: cannot load %s (build it with `make sim`): %s", path,
                             dlerror());
    }
    SYM(create, "ptpu_sim_create");
    SYM(destroy, "ptpu_sim_destroy");
    SYM(step, "ptpu_sim_step");
    SYM(cycles, "ptpu_sim_cycles");
    SYM(send, "ptpu_sim_link_send");
    SYM(recv, "ptpu_sim_link_recv");
    SYM(mem_write, "ptpu_sim_mem_write");
    SYM(mem_read, "ptpu_sim_mem_read");
    SYM(trace_start, "ptpu_sim_trace_start");
    SYM(strerror, "ptpu_sim_strerror");
    int rc = l->create(cfg, fw[0] ? fw : NULL, &l->s);
    if (rc) {
        const char *msg = l->strerror(rc);
        ptpu_dev_fail(dev, PTPU_ERR_NO_DEVICE, "sim: cannot create %s: %s", cfg, msg);
        l->s = NULL;
        x_close(l);
        return PTPU_ERR_NO_DEVICE;
    }
    if (trace[0] && (rc = l->trace_start(l->s, trace))) {
        ptpu_dev_fail(dev, PTPU_ERR_IO, "sim: cannot open trace %s: %s", trace, l->strerror(rc));
        x_close(l);
        return PTPU_ERR_IO;
    }
    struct ptpu_xport x = {.ctx = l, .send = x_send, .recv = x_recv, .close = x_close,
                           .hint = x_hint,
                           .timeout = 4000000, .run_budget = 0,
                           /* time counts from when a frame is queued: the byte time-out
                            * after a largest frame (4,106 bytes) drains at the slowest
                            * simulated line, sim16u's UART (80 cycles a byte: 328,480) */
                           .quiet = 8 * PTPU_BYTE_TIMEOUT_CYCLES};
    if (strcmp(bd, "0")) {
        x.peek = x_peek;
        x.poke = x_poke;
    }
    return ptpu_link_open(dev, &x);
}

static void sim_close(struct ptpu_device *dev)
{
    ptpu_backend_link.close(dev);
}

static int sim_write(struct ptpu_device *dev, uint32_t addr, const void *data, size_t len)
{
    return ptpu_backend_link.mem_write(dev, addr, data, len);
}

static int sim_read(struct ptpu_device *dev, uint32_t addr, void *data, size_t len)
{
    return ptpu_backend_link.mem_read(dev, addr, data, len);
}

static int sim_start(struct ptpu_device *dev, uint32_t prog_addr, uint32_t ninsns)
{
    return ptpu_backend_link.start(dev, prog_addr, ninsns);
}

static int sim_wait(struct ptpu_device *dev, struct ptpu_run_status *st)
{
    return ptpu_backend_link.wait(dev, st);
}

const struct ptpu_backend_ops ptpu_backend_sim = {"sim", sim_open, sim_close, sim_write,
                                                  sim_read, sim_start, sim_wait};
