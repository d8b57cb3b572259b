/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fakedev.h - an emulated picotpu behind the link protocol, for host tests:
 * the firmware's command processor in C on top of the ref model, with fault
 * injection on the wire.  Its transport opens as a libpicotpu device through
 * ptpu_open_xport().
 */
#ifndef FAKEDEV_H
#define FAKEDEV_H

#include "ptpu_runtime.h"

struct fake_faults {
    int corrupt_every;   /* flip a bit in every k-th host frame (device NAKs it) */
    int drop_every;      /* drop every k-th response (the host times out and resends) */
    int noise_every;     /* put k junk bytes between frames */
    int garble;          /* answer everything with a wrong type (PROTOCOL) */
    int silent;          /* never answer (TIMEOUT) */
    int reject_run;      /* answer RUN with an error (DEVICE) */
};

/* A transport to a new emulated device of configuration cfg ("sim16", ...). */
int fake_xport(const char *cfg, const struct fake_faults *f, struct ptpu_xport *x);
/* Device memory of the emulated device behind x->ctx (a backdoor). */
int fake_mem_write(void *ctx, uint32_t addr, const void *data, size_t len);
int fake_mem_read(void *ctx, uint32_t addr, void *data, size_t len);

#endif
