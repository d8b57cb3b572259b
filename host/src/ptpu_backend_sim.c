/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ptpu_backend_sim.c - the `sim` backend: the Verilated SoC
 * (sim/include/picotpu_sim.h) in process, driven through the link protocol.
 * Not wired yet: the SoC library and its firmware are still being built; until
 * then opening it reports PTPU_ERR_UNSUPPORTED.
 */
#include "ptpu_runtime.h"

static int sim_open(struct ptpu_device *dev, const char *opts)
{
    (void)opts;
    return ptpu_dev_fail(dev, PTPU_ERR_UNSUPPORTED,
                         "sim: the in-process SoC simulation is not wired into libpicotpu yet "
                         "(use --device ref)");
}

static void sim_close(struct ptpu_device *dev)
{
    (void)dev;
}

static int sim_write(struct ptpu_device *dev, uint32_t addr, const void *data, size_t len)
{
    (void)addr;
    (void)data;
    (void)len;
    return ptpu_dev_fail(dev, PTPU_ERR_UNSUPPORTED, "sim: not available");
}

static int sim_read(struct ptpu_device *dev, uint32_t addr, void *data, size_t len)
{
    return sim_write(dev, addr, data, len);
}

static int sim_start(struct ptpu_device *dev, uint32_t prog_addr, uint32_t ninsns)
{
    (void)prog_addr;
    (void)ninsns;
    return ptpu_dev_fail(dev, PTPU_ERR_UNSUPPORTED, "sim: not available");
}

static int sim_wait(struct ptpu_device *dev, struct ptpu_run_status *st)
{
    (void)st;
    return ptpu_dev_fail(dev, PTPU_ERR_UNSUPPORTED, "sim: not available");
}

const struct ptpu_backend_ops ptpu_backend_sim = {"sim", sim_open, sim_close, sim_write,
                                                  sim_read, sim_start, sim_wait};
