/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ptpu_backend_usb.c - the `usb` backend (a board over its FTDI UART).  It
 * comes with the board work; until then no device is ever found.
 */
#include "ptpu_runtime.h"

static int usb_open(struct ptpu_device *dev, const char *opts)
{
    (void)opts;
    return ptpu_dev_fail(dev, PTPU_ERR_NO_DEVICE,
                         "usb: no picotpu board found (the usb backend comes with the board "
                         "support; use --device ref or sim)");
}

static void usb_close(struct ptpu_device *dev)
{
    (void)dev;
}

static int usb_rw(struct ptpu_device *dev, uint32_t addr, const void *data, size_t len)
{
    (void)addr;
    (void)data;
    (void)len;
    return ptpu_dev_fail(dev, PTPU_ERR_NO_DEVICE, "usb: no device");
}

static int usb_read(struct ptpu_device *dev, uint32_t addr, void *data, size_t len)
{
    return usb_rw(dev, addr, data, len);
}

static int usb_start(struct ptpu_device *dev, uint32_t prog_addr, uint32_t ninsns)
{
    (void)prog_addr;
    (void)ninsns;
    return ptpu_dev_fail(dev, PTPU_ERR_NO_DEVICE, "usb: no device");
}

static int usb_wait(struct ptpu_device *dev, struct ptpu_run_status *st)
{
    (void)st;
    return ptpu_dev_fail(dev, PTPU_ERR_NO_DEVICE, "usb: no device");
}

const struct ptpu_backend_ops ptpu_backend_usb = {"usb", usb_open, usb_close, usb_rw,
                                                  usb_read, usb_start, usb_wait};
