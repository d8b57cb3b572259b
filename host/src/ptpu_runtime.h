/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ptpu_runtime.h - libpicotpu internals: the device, its backends (one table
 * of operations each) and the per-device caches.
 */
#ifndef PTPU_RUNTIME_H
#define PTPU_RUNTIME_H

#include <stdio.h>

#include "picotpu.h"
#include "ptpu_compile.h"

struct ptpu_device;

struct ptpu_run_status {
    int state, fault;
    uint32_t fault_pc, fault_addr;
    uint64_t counters[PTPU_NUM_COUNTERS];
};

/* A backend.  Functions return 0 or a negative PTPU_ERR_* code and may set dev->err. */
struct ptpu_backend_ops {
    const char *name;
    /* opts: the URI text after "name:" ("" when none); fills dev->info */
    int (*open)(struct ptpu_device *dev, const char *opts);
    void (*close)(struct ptpu_device *dev);
    int (*mem_write)(struct ptpu_device *dev, uint32_t addr, const void *data, size_t len);
    int (*mem_read)(struct ptpu_device *dev, uint32_t addr, void *data, size_t len);
    /* start a program with every device address readable and writable */
    int (*start)(struct ptpu_device *dev, uint32_t prog_addr, uint32_t ninsns);
    int (*wait)(struct ptpu_device *dev, struct ptpu_run_status *st);
};

extern const struct ptpu_backend_ops ptpu_backend_ref;
extern const struct ptpu_backend_ops ptpu_backend_sim;
extern const struct ptpu_backend_ops ptpu_backend_usb;

struct ptpu_alloc { uint32_t addr, len; };

struct ptpu_device {
    const struct ptpu_backend_ops *ops;
    void *be;                       /* backend state */
    struct ptpu_device_info info;
    uint64_t serial;                /* matches model caches to this device */
    char err[512];
    struct ptpu_alloc *al;          /* sorted by address */
    int nal, cal;
    int running;
    FILE *trace;
    uint64_t trace_ts;
    int trace_events;
    char trace_label[48];           /* name of the next run in the trace */
    uint64_t run_estimate;          /* estimated cycles of the next run (0: unknown) */
    struct ptpu_device *next;       /* list of open devices */
};

/* A byte transport to a device speaking the link protocol (sim, usb, test devices).
 * Time is in the transport's units (sim: clock cycles; usb: microseconds). */
struct ptpu_xport {
    void *ctx;
    int (*send)(void *ctx, const uint8_t *buf, size_t len);
    /* Bytes from the device, waiting at most `budget` time units; 0 when none came. */
    long (*recv)(void *ctx, uint8_t *buf, size_t max, uint64_t budget);
    /* Optional: device memory without the link (simulation backdoor), NULL if none. */
    int (*peek)(void *ctx, uint32_t addr, void *data, size_t len);
    int (*poke)(void *ctx, uint32_t addr, const void *data, size_t len);
    void (*close)(void *ctx);
    uint64_t timeout;   /* response time-out of a request, in time units */
    /* quiet before a resend after a NAK: more than the device's byte time-out plus the
     * time the transport takes to drain a frame (0: timeout / 64) */
    uint64_t quiet;
    uint64_t run_budget; /* longest WAIT before PTPU_ERR_TIMEOUT (0: none) */
    /* Optional: the compiler's estimate of the next run's cycles (for a progress ETA). */
    void (*hint)(void *ctx, uint64_t cycles);
};
/* Open a device over a transport (takes ownership of x->ctx: closed with the device). */
int ptpu_open_xport(const struct ptpu_xport *x, const char *backend, ptpu_device **out);
int ptpu_link_open(struct ptpu_device *dev, const struct ptpu_xport *x);
extern const struct ptpu_backend_ops ptpu_backend_link;

/* A lower bound of a program's cycles: the rows its MATMULs and ACTIVATEs stream. */
uint64_t ptpu_prog_estimate(const uint32_t *w, size_t n);

/* Test hook: called with every program the library uploads (tests/host/progcheck). */
extern void (*ptpu_prog_hook)(const uint32_t *w, size_t n, const struct ptpu_hw *hw);

/* Set the device's detail message and return code. */
int ptpu_dev_fail(struct ptpu_device *dev, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
struct ptpu_hw ptpu_dev_hw(const struct ptpu_device *dev);

#endif
