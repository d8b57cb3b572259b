/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fakesim.c - a stand-in for build/sim/<config>/libpicotpu_sim.so with the API of
 * sim/include/picotpu_sim.h, made of the emulated link device (fakedev.c), so
 * that the sim backend (dlopen, link byte stream, backdoor, progress line) is
 * tested before the SoC simulates: PTPU_SIM_LIB=build/host/fakesim/libpicotpu_sim.so.
 * Each step() moves time; the device answers at once.
 */
#include <stdlib.h>
#include <string.h>

#include "../../sim/include/picotpu_sim.h"
#include "fakedev.h"

struct ptpu_sim {
    struct ptpu_xport x;
    uint64_t cycles;
};

const char *ptpu_sim_strerror(int err)
{
    return err ? "fake simulator error" : "success";
}

int ptpu_sim_create(const char *config, const char *firmware, ptpu_sim_t **out)
{
    (void)firmware;
    ptpu_sim_t *s = calloc(1, sizeof(*s));
    if (!s || fake_xport(config && *config ? config : "sim16", NULL, &s->x)) {
        free(s);
        return PTPU_SIM_ECONFIG;
    }
    *out = s;
    return 0;
}

void ptpu_sim_destroy(ptpu_sim_t *s)
{
    s->x.close(s->x.ctx);
    free(s);
}

int ptpu_sim_step(ptpu_sim_t *s, uint64_t cycles)
{
    s->cycles += cycles;
    return 0;
}

uint64_t ptpu_sim_cycles(const ptpu_sim_t *s)
{
    return s->cycles;
}

int ptpu_sim_link_send(ptpu_sim_t *s, const void *data, size_t len)
{
    return s->x.send(s->x.ctx, data, len);
}

size_t ptpu_sim_link_recv(ptpu_sim_t *s, void *buf, size_t max)
{
    long n = s->x.recv(s->x.ctx, buf, max, 0);
    return n > 0 ? (size_t)n : 0;
}

int ptpu_sim_mem_write(ptpu_sim_t *s, uint32_t addr, const void *data, size_t len)
{
    return fake_mem_write(s->x.ctx, addr, data, len) ? PTPU_SIM_ERANGE : 0;
}

int ptpu_sim_mem_read(ptpu_sim_t *s, uint32_t addr, void *data, size_t len)
{
    return fake_mem_read(s->x.ctx, addr, data, len) ? PTPU_SIM_ERANGE : 0;
}

int ptpu_sim_trace_start(ptpu_sim_t *s, const char *path)
{
    (void)s;
    (void)path;
    return PTPU_SIM_ETRACE;
}
