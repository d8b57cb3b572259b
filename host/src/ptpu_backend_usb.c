/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ptpu_backend_usb.c - the `usb` backend: a board behind its FTDI USB UART, spoken to
 * with the link protocol (ptpu_backend_link.c) through libftdi1 on libusb-1.0.
 *
 * URI: usb[:serial=S][,index=I][,baud=B][,latency=MS][,timeout=MS][,wait=MS][,flow=F]
 * Boards are found by USB ID: FT2232H 0403:6010 (iCEBreaker; the UART is interface B)
 * and FT231X 0403:6015 (ULX3S).  The first one found is used unless serial= or index=
 * picks another.  Open: the kernel's ftdi_sio is detached from the interface, the chip
 * reset, the line set to B baud (default: the line rate of the board that carries the chip,
 * 3000000 on the iCEBreaker's FT2232H and on the ULX3S's FT231X; constraints/<board>.mk
 * BOARD_<board>_BAUD) 8N1 with flow control F (none, rtscts
 * or dtrdsr; the boards wire no handshake lines), the latency timer to MS (default 1:
 * a response shorter than a USB packet waits that long in the chip) and both buffers
 * purged.
 *
 * Time is counted from the chip's answers, not from the host's clock: an empty read
 * is one latency period (the chip sends its status bytes when its latency timer runs
 * out), a libusb time-out its own length.  The transport is then in the device's time,
 * which under the emulated chip (sim/ftdi_emu) is the simulated SoC's.  Every libusb
 * call has a time-out, so no failure hangs; an unplugged board gives PTPU_ERR_IO.
 *
 * libftdi1 (libftdi1.so.2, or PTPU_FTDI_LIB) is loaded when a usb device is opened, as the
 * sim backend loads its simulation library: programs linked with libpicotpu.a need no
 * USB libraries, and a machine without libftdi1 still runs ref and sim.  libusb-1.0 is
 * called through the process's global symbols, so an emulated libusb preloaded with
 * LD_PRELOAD (sim/ftdi_emu) serves libftdi1 and this file alike.
 */
#include <dlfcn.h>
#include <ftdi.h>
#include <libusb.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptpu_link.h"
#include "ptpu_runtime.h"

int ptpu_uri_opt(const char *opts, const char *key, char *buf, size_t len);
int ptpu_usb_list(FILE *out);

/* baud: the line rate of the board the chip is on (constraints/icebreaker.mk, ulx3s.mk). */
static const struct chip {
    uint16_t vid, pid;
    enum ftdi_interface iface;
    const char *name;
    char iface_name;
    long baud;
} chips[] = {
    {0x0403, 0x6010, INTERFACE_B, "FT2232H", 'B', 3000000},
    {0x0403, 0x6015, INTERFACE_A, "FT231X", 'A', 3000000},
};
#define NCHIPS (sizeof(chips) / sizeof(chips[0]))

/* libftdi1 and the libusb-1.0 calls of this file, loaded at the first open. */
static struct {
    __typeof__(ftdi_new) *ftdi_new;
    __typeof__(ftdi_free) *ftdi_free;
    __typeof__(ftdi_usb_find_all) *ftdi_usb_find_all;
    __typeof__(ftdi_list_free2) *ftdi_list_free2;
    __typeof__(ftdi_usb_get_strings) *ftdi_usb_get_strings;
    __typeof__(ftdi_set_interface) *ftdi_set_interface;
    __typeof__(ftdi_usb_open_dev) *ftdi_usb_open_dev;
    __typeof__(ftdi_usb_close) *ftdi_usb_close;
    __typeof__(ftdi_set_baudrate) *ftdi_set_baudrate;
    __typeof__(ftdi_set_line_property) *ftdi_set_line_property;
    __typeof__(ftdi_setflowctrl) *ftdi_setflowctrl;
    __typeof__(ftdi_set_latency_timer) *ftdi_set_latency_timer;
    __typeof__(ftdi_tcioflush) *ftdi_tcioflush;
    __typeof__(ftdi_write_data) *ftdi_write_data;
    __typeof__(ftdi_read_data) *ftdi_read_data;
    __typeof__(ftdi_get_error_string) *ftdi_get_error_string;
    __typeof__(libusb_get_bus_number) *libusb_get_bus_number;
    __typeof__(libusb_get_device_address) *libusb_get_device_address;
    __typeof__(libusb_get_configuration) *libusb_get_configuration;
    __typeof__(libusb_error_name) *libusb_error_name;
} ft;
static pthread_mutex_t ft_lock = PTHREAD_MUTEX_INITIALIZER;
static void *ft_dl;
static char ft_err[256];

static int load_ftdi(void)
{
    pthread_mutex_lock(&ft_lock);
    if (!ft_dl && !ft_err[0]) {
        const char *path = getenv("PTPU_FTDI_LIB");
        if (!path || !*path)
            path = "libftdi1.so.2";
        /* global, so that libftdi1's libusb calls and ours resolve alike (a preload first) */
        void *dl = dlopen(path, RTLD_NOW | RTLD_GLOBAL);
        if (!dl)
            snprintf(ft_err, sizeof(ft_err), "cannot load %s (Debian: apt install libftdi1-2): %s",
                     path, dlerror());
#define FT_SYM(n, h)                                                                          \
        if (dl && !ft_err[0] && !(*(void **)&ft.n = dlsym(h, #n)))                           \
            snprintf(ft_err, sizeof(ft_err), "%s lacks %s", path, #n);
        FT_SYM(ftdi_new, dl)
        FT_SYM(ftdi_free, dl)
        FT_SYM(ftdi_usb_find_all, dl)
        FT_SYM(ftdi_list_free2, dl)
        FT_SYM(ftdi_usb_get_strings, dl)
        FT_SYM(ftdi_set_interface, dl)
        FT_SYM(ftdi_usb_open_dev, dl)
        FT_SYM(ftdi_usb_close, dl)
        FT_SYM(ftdi_set_baudrate, dl)
        FT_SYM(ftdi_set_line_property, dl)
        FT_SYM(ftdi_setflowctrl, dl)
        FT_SYM(ftdi_set_latency_timer, dl)
        FT_SYM(ftdi_tcioflush, dl)
        FT_SYM(ftdi_write_data, dl)
        FT_SYM(ftdi_read_data, dl)
        FT_SYM(ftdi_get_error_string, dl)
        FT_SYM(libusb_get_bus_number, RTLD_DEFAULT)
        FT_SYM(libusb_get_device_address, RTLD_DEFAULT)
        FT_SYM(libusb_get_configuration, RTLD_DEFAULT)
        FT_SYM(libusb_error_name, RTLD_DEFAULT)
#undef FT_SYM
        if (ft_err[0] && dl)
            dlclose(dl);
        else
            ft_dl = dl;
    }
    int ok = ft_dl != NULL;
    pthread_mutex_unlock(&ft_lock);
    return ok ? 0 : PTPU_ERR_NO_DEVICE;
}

struct board {
    const struct chip *chip;
    libusb_device *dev;
    char manuf[64], desc[64], serial[64];
    int bus, addr;
};

struct usbx {
    struct ftdi_context *f;
    struct ptpu_device *dev;
    struct board b;
    uint64_t latency_us, read_tmo_us;
    int gone;                   /* the board went away: every later call fails at once */
    char why[320];              /* the transport's last error, for the device's message */
    struct usbx *next;
};

/* Open transports, to find a device's transport after a link-level failure. */
static pthread_mutex_t usb_lock = PTHREAD_MUTEX_INITIALIZER;
static struct usbx *usb_list;
/* The last transport error of this thread (the transport is freed when opening fails). */
static __thread char tls_why[320];

static struct usbx *of_dev(struct ptpu_device *dev)
{
    pthread_mutex_lock(&usb_lock);
    struct usbx *u = usb_list;
    while (u && u->dev != dev)
        u = u->next;
    pthread_mutex_unlock(&usb_lock);
    return u;
}

/* Every FTDI device with one of our IDs, with its strings; *list must be freed with
 * ftdi_list_free2 after the boards are no longer used. */
static int find_boards(struct ftdi_context *f, struct board *out, int max,
                       struct ftdi_device_list **lists)
{
    int n = 0;
    for (size_t c = 0; c < NCHIPS; c++)
        lists[c] = NULL;
    for (size_t c = 0; c < NCHIPS; c++) {
        int k = ft.ftdi_usb_find_all(f, &lists[c], chips[c].vid, chips[c].pid);
        if (k < 0)
            return k;
        for (struct ftdi_device_list *d = lists[c]; d && n < max; d = d->next) {
            struct board *b = &out[n++];
            memset(b, 0, sizeof(*b));
            b->chip = &chips[c];
            b->dev = d->dev;
            b->bus = ft.libusb_get_bus_number(d->dev);
            b->addr = ft.libusb_get_device_address(d->dev);
            if (ft.ftdi_usb_get_strings(f, d->dev, b->manuf, sizeof(b->manuf), b->desc,
                                     sizeof(b->desc), b->serial, sizeof(b->serial)) < 0)
                snprintf(b->serial, sizeof(b->serial), "?");
        }
    }
    return n;
}

static void free_lists(struct ftdi_device_list **lists)
{
    for (size_t c = 0; c < NCHIPS; c++)
        if (lists[c])
            ft.ftdi_list_free2(lists[c]);
}

static void board_line(FILE *out, const struct board *b)
{
    fprintf(out, "  %s %04x:%04x serial %s (%s %s), bus %d device %d, UART on interface %c, "
            "%ld baud\n", b->chip->name, b->chip->vid, b->chip->pid, b->serial, b->manuf, b->desc,
            b->bus, b->addr, b->chip->iface_name, b->chip->baud);
}

/* `picotpu info --device usb`: the boards found, one line each.  Returns their number. */
int ptpu_usb_list(FILE *out)
{
    if (load_ftdi()) {
        fprintf(out, "usb boards     unknown: %s\n", ft_err);
        return PTPU_ERR_NO_DEVICE;
    }
    struct ftdi_context *f = ft.ftdi_new();
    if (!f) {
        fprintf(out, "usb boards     cannot initialise libftdi1/libusb\n");
        return PTPU_ERR_IO;
    }
    struct board b[16];
    struct ftdi_device_list *lists[NCHIPS];
    int n = find_boards(f, b, 16, lists);
    if (n < 0)
        fprintf(out, "usb boards     cannot list USB devices: %s\n", ft.ftdi_get_error_string(f));
    else if (n == 0)
        fprintf(out, "usb boards     none found (looked for FT2232H 0403:6010 and FT231X "
                     "0403:6015; plugged in? udev rule? see docs/boards.md)\n");
    else
        fprintf(out, "usb boards     %d\n", n);
    for (int i = 0; i < n; i++)
        board_line(out, &b[i]);
    free_lists(lists);
    ft.ftdi_free(f);
    return n;
}

/* The transport failed: note why (the libusb or libftdi error), and whether the board is
 * gone (unplugged, powered off): then every later call fails at once. */
static int xfail(struct usbx *u, int rc, const char *what)
{
    int gone = rc == LIBUSB_ERROR_NO_DEVICE;
    if (!gone && !u->gone) {
        /* libftdi reports every write failure as -1: ask the device itself */
        int cfg;
        gone = ft.libusb_get_configuration(u->f->usb_dev, &cfg) == LIBUSB_ERROR_NO_DEVICE;
    }
    if (gone || u->gone) {
        u->gone = 1;
        snprintf(u->why, sizeof(u->why),
                 "usb: the board (%s serial %s) was unplugged or lost power during a %s",
                 u->b.chip->name, u->b.serial, what);
    } else {
        snprintf(u->why, sizeof(u->why), "usb: %s failed on %s serial %s: %s (%d)", what,
                 u->b.chip->name, u->b.serial,
                 rc < -1 ? ft.libusb_error_name(rc) : ft.ftdi_get_error_string(u->f), rc);
    }
    snprintf(tls_why, sizeof(tls_why), "%s", u->why);
    return PTPU_ERR_IO;
}

static int x_send(void *ctx, const uint8_t *buf, size_t len)
{
    struct usbx *u = ctx;
    if (u->gone)
        return xfail(u, LIBUSB_ERROR_NO_DEVICE, "write");
    while (len) {
        int n = ft.ftdi_write_data(u->f, buf, len > 65536 ? 65536 : (int)len);
        if (n <= 0)
            return xfail(u, n ? n : LIBUSB_ERROR_TIMEOUT, "write");
        buf += n;
        len -= (size_t)n;
    }
    return 0;
}

/* Bytes from the board within `budget` microseconds of the chip's time (see the top).
 * One USB transfer per call: ftdi_read_data() asked for one byte takes a whole transfer
 * into its buffer, and the rest is then copied from there; asked for more, it would
 * poll again (another latency period) before returning a short answer. */
static long x_recv(void *ctx, uint8_t *buf, size_t max, uint64_t budget)
{
    struct usbx *u = ctx;
    uint64_t spent = 0;
    if (u->gone)
        return xfail(u, LIBUSB_ERROR_NO_DEVICE, "read");
    for (;;) {
        int n = ft.ftdi_read_data(u->f, buf, 1);
        if (n == 1) {
            size_t more = u->f->readbuffer_remaining;
            if (more > max - 1)
                more = max - 1;
            if (more) {
                int m = ft.ftdi_read_data(u->f, buf + 1, (int)more);
                if (m < 0)
                    return xfail(u, m, "read");
                n += m;
            }
            return n;
        }
        if (n == LIBUSB_ERROR_TIMEOUT)
            spent += u->read_tmo_us;    /* the chip did not even send its status bytes */
        else if (n < 0)
            return xfail(u, n, "read");
        else
            spent += u->latency_us;
        if (spent >= budget)
            return 0;
    }
}

static void x_close(void *ctx)
{
    struct usbx *u = ctx;
    pthread_mutex_lock(&usb_lock);
    for (struct usbx **p = &usb_list; *p; p = &(*p)->next)
        if (*p == u) {
            *p = u->next;
            break;
        }
    pthread_mutex_unlock(&usb_lock);
    ft.ftdi_usb_close(u->f);  /* fails harmlessly on a board that is gone */
    ft.ftdi_free(u->f);
    free(u);
}

static long opt_num(const char *opts, const char *key, long def, long lo, long hi, int *bad)
{
    char v[32];
    if (!ptpu_uri_opt(opts, key, v, sizeof(v)))
        return def;
    char *e;
    long x = strtol(v, &e, 10);
    if (*e || e == v || x < lo || x > hi)
        *bad = 1;
    return x;
}

static int usb_open(struct ptpu_device *dev, const char *opts)
{
    char serial[64] = "", flow[16] = "none";
    int bad = 0;
    ptpu_uri_opt(opts, "serial", serial, sizeof(serial));
    ptpu_uri_opt(opts, "flow", flow, sizeof(flow));
    long index = opt_num(opts, "index", 0, 0, 15, &bad);
    long baud = opt_num(opts, "baud", 0, 300, 12000000, &bad);     /* 0: the chip's */
    long latency = opt_num(opts, "latency", 1, 1, 255, &bad);
    long tmo = opt_num(opts, "timeout", 0, 1, 600000, &bad);        /* 0: from the baud */
    long wait = opt_num(opts, "wait", 60000, 1, 86400000, &bad);
    int fl = !strcmp(flow, "none") ? SIO_DISABLE_FLOW_CTRL
             : !strcmp(flow, "rtscts") ? SIO_RTS_CTS_HS
             : !strcmp(flow, "dtrdsr") ? SIO_DTR_DSR_HS : -1;
    if (bad || fl < 0)
        return ptpu_dev_fail(dev, PTPU_ERR_INVALID_ARG,
                             "usb: bad option in '%s' (serial=S, index=0..15, baud=300..12000000, "
                             "latency=1..255 ms, timeout=MS, wait=MS, flow=none|rtscts|dtrdsr)",
                             opts);

    if (load_ftdi())
        return ptpu_dev_fail(dev, PTPU_ERR_NO_DEVICE, "usb: %s", ft_err);
    struct usbx *u = calloc(1, sizeof(*u));
    if (!u || !(u->f = ft.ftdi_new())) {
        free(u);
        return ptpu_dev_fail(dev, PTPU_ERR_NO_MEM, "usb: cannot initialise libftdi1/libusb");
    }
    struct board b[16];
    struct ftdi_device_list *lists[NCHIPS];
    int n = find_boards(u->f, b, 16, lists), pick = -1, rc = 0;
    for (int i = 0, k = 0; i < n && pick < 0; i++)
        if (serial[0] ? !strcmp(b[i].serial, serial) : k++ == index)
            pick = i;
    if (n < 0) {
        rc = ptpu_dev_fail(dev, PTPU_ERR_NO_DEVICE, "usb: cannot list USB devices: %s",
                           ft.ftdi_get_error_string(u->f));
    } else if (n == 0) {
        rc = ptpu_dev_fail(dev, PTPU_ERR_NO_DEVICE,
                           "usb: no picotpu board found (no FT2232H 0403:6010 or FT231X 0403:6015 on "
                           "USB; is it plugged in, and may this user open it? see docs/boards.md)");
    } else if (pick < 0) {
        char found[256] = "";
        for (int i = 0; i < n; i++)
            snprintf(found + strlen(found), sizeof(found) - strlen(found), "%s%s %s",
                     i ? ", " : "", b[i].chip->name, b[i].serial);
        rc = ptpu_dev_fail(dev, PTPU_ERR_NO_DEVICE, "usb: no board %s%s%.0ld among the %d found (%s)",
                           serial[0] ? "with serial " : "number ", serial, serial[0] ? 0L : index,
                           n, found);
    }
    if (!rc) {
        u->b = b[pick];
        if (!baud)
            baud = u->b.chip->baud;
        /* the link time-out: the device's byte time-out and two largest frames on the line */
        if (!tmo)
            tmo = 100 + 2 * (PTPU_LINK_MAX_LEN + PTPU_LINK_OVERHEAD) * 10 * 1000L / baud;
        const char *step = "select the interface";
        struct ftdi_context *f = u->f;
        int r = ft.ftdi_set_interface(f, u->b.chip->iface);
        if (!r) {
            /* detaches ftdi_sio, claims the interface, resets the chip */
            step = "open it (may this user open it: udev rule? is another program using "
                   "the interface?)";
            r = ft.ftdi_usb_open_dev(f, u->b.dev);
        }
        if (!r) {
            step = "set the baud rate";
            r = ft.ftdi_set_baudrate(f, (int)baud);
        }
        if (!r) {
            step = "set 8N1";
            r = ft.ftdi_set_line_property(f, BITS_8, STOP_BIT_1, NONE);
        }
        if (!r) {
            step = "set the flow control";
            r = ft.ftdi_setflowctrl(f, fl);
        }
        if (!r) {
            step = "set the latency timer";
            r = ft.ftdi_set_latency_timer(f, (unsigned char)latency);
        }
        if (!r) {
            step = "purge the buffers";
            r = ft.ftdi_tcioflush(f);
        }
        if (r)
            rc = ptpu_dev_fail(dev, r == -4 || r == -5 ? PTPU_ERR_NO_DEVICE : PTPU_ERR_IO,
                               "usb: %s serial %s: cannot %s: %s", u->b.chip->name, u->b.serial,
                               step, ft.ftdi_get_error_string(f));
        u->b.dev = NULL;    /* the list is freed below; the open handle keeps the device */
    }
    free_lists(lists);
    if (rc) {
        if (u->f->usb_dev)
            ft.ftdi_usb_close(u->f);
        ft.ftdi_free(u->f);
        free(u);
        return rc;
    }
    u->latency_us = (uint64_t)latency * 1000;
    /* a chip that does not even send status bytes within this counts as silent */
    u->f->usb_read_timeout = (int)(4 * latency + 50);
    u->read_tmo_us = (uint64_t)u->f->usb_read_timeout * 1000;
    u->f->usb_write_timeout = (int)(tmo + 1000);
    u->dev = dev;
    pthread_mutex_lock(&usb_lock);
    u->next = usb_list;
    usb_list = u;
    pthread_mutex_unlock(&usb_lock);
    /* quiet after a NAK (us): the device's byte time-out at its slowest clock (the UART
     * needs 4 clocks per bit), the bytes a chip may still hold when the write returns (at
     * most 4 KB, the FT2232H's transmit buffer; the FT231X's is 512 bytes; 10 bits each)
     * and two latency periods */
    uint64_t quiet = ((uint64_t)PTPU_BYTE_TIMEOUT_CYCLES / 4 + 10u * 4096u) * 1000000u /
                     (uint64_t)baud + 2 * u->latency_us;
    struct ptpu_xport x = {.ctx = u, .send = x_send, .recv = x_recv, .close = x_close,
                           .timeout = (uint64_t)tmo * 1000, .run_budget = (uint64_t)wait * 1000,
                           .quiet = quiet};
    struct board bd = u->b;
    tls_why[0] = 0;
    rc = ptpu_link_open(dev, &x);   /* INFO; on failure it closes the transport (u) */
    if (rc) {
        char link[sizeof(dev->err)];
        snprintf(link, sizeof(link), "%s", dev->err);
        if (tls_why[0])
            ptpu_dev_fail(dev, rc, "%s (%s)", tls_why, link);
        else
            ptpu_dev_fail(dev, rc, "usb: %s serial %s at %ld baud does not answer like a picotpu "
                          "(bitstream loaded? baud right?): %s", bd.chip->name, bd.serial, baud,
                          link);
    }
    return rc;
}

/* A link-level failure caused by the transport gets the transport's reason; others the
 * board's name. */
static int why(struct ptpu_device *dev, int rc)
{
    struct usbx *u;
    if (rc && (u = of_dev(dev))) {
        char link[sizeof(dev->err)];
        snprintf(link, sizeof(link), "%s", dev->err);
        if (u->why[0])
            ptpu_dev_fail(dev, rc, "%s (%s)", u->why, link);
        else if (rc == PTPU_ERR_TIMEOUT)
            ptpu_dev_fail(dev, rc, "usb: %s serial %s stopped answering: %s", u->b.chip->name,
                          u->b.serial, link);
        u->why[0] = 0;
    }
    return rc;
}

static void usb_close(struct ptpu_device *dev)
{
    ptpu_backend_link.close(dev);
}

static int usb_write(struct ptpu_device *dev, uint32_t addr, const void *data, size_t len)
{
    return why(dev, ptpu_backend_link.mem_write(dev, addr, data, len));
}

static int usb_read(struct ptpu_device *dev, uint32_t addr, void *data, size_t len)
{
    return why(dev, ptpu_backend_link.mem_read(dev, addr, data, len));
}

static int usb_start(struct ptpu_device *dev, uint32_t prog_addr, uint32_t ninsns)
{
    return why(dev, ptpu_backend_link.start(dev, prog_addr, ninsns));
}

static int usb_wait(struct ptpu_device *dev, struct ptpu_run_status *st)
{
    return why(dev, ptpu_backend_link.wait(dev, st));
}

const struct ptpu_backend_ops ptpu_backend_usb = {"usb", usb_open, usb_close, usb_write,
                                                  usb_read, usb_start, usb_wait};
