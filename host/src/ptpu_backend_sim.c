/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ptpu_backend_sim.c - the `usb` backend (a board over its FTDI UART).  It
 * comes with the board work; until then no device is ever found.
 */
#include "ptpu_runtime.h"

static int sim_open(struct ptpu_device *dev, const char *opts)
{
    (void)opts;
    return ptpu_dev_fail(dev, PTPU_ERR_NO_DEVICE,
                         "usb: no picotpu board found (the usb backend comes with the board "
                         "support; use --device ref or sim)");
}

static void sim_close(struct ptpu_device *dev)
{
    (void)dev;
}

static int sim_rw(struct ptpu_device *dev, uint32_t addr, const void *data, size_t len)
{
    (void)addr;
    (void)data;
    (void)len;
    return ptpu_dev_fail(dev, PTPU_ERR_NO_DEVICE, "usb: no device");
}

static int sim_read(struct ptpu_device *dev, uint32_t addr, void *data, size_t len)
{
    return sim_rw(dev, addr, data, len);
}

static int sim_start(struct ptpu_device *dev, uint32_t prog_addr, uint32_t ninsns)
{
    (void)prog_addr;
    (void)ninsns;
    return ptpu_dev_fail(dev, PTPU_ERR_NO_DEVICE, "usb: no device");
}

static int sim_wait(struct ptpu_device *dev, struct ptpu_run_status *st)
{
    (void)st;
    return ptpu_dev_fail(dev, PTPU_ERR_NO_DEVICE, "usb: no device");
}

const struct ptpu_backend_ops ptpu_backend_sim = {"sim", sim_open, sim_close, sim_rw,
                                                  sim_read, sim_start, sim_wait};
