/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ftdi_emu.c - an emulated FTDI USB UART at the libusb-1.0 level, wired to the UART pins
 * of a simulated picotpu SoC.  Built as build/usb/libusb-emu.so and loaded with
 * LD_PRELOAD: it defines every libusb-1.0 function that libftdi1 calls (`nm -D
 * libftdi1.so.2`), so the real libftdi1 and the real usb backend run on top of it.
 *
 *  libpicotpu usb backend ─► libftdi1 ─► libusb_* (this file) ─► FT2232H / FT231X model
 *       (unchanged)          (unchanged)   descriptors, vendor      TX buffer ─► UART model ─► uart_rx_i
 *                                          requests, bulk IN/OUT    RX buffer ◄─ UART model ◄─ uart_tx_o
 *                                                                   (build/sim/sim16u: LinkPhy=1)
 *
 * The chip: vendor requests decoded (reset and purges, baud divisor -> baud, data
 * format, flow control, modem control, latency timer, modem status, bit mode, EEPROM
 * reads as blank); bulk OUT fills the chip's TX buffer (4 KB on the FT2232H, 512 B on
 * the FT231X), which drains onto the line at the chip's baud; bulk IN returns the
 * received bytes in max-packet chunks (512 / 64 bytes), each starting with the modem and
 * line status bytes, when a chunk fills or the latency timer runs out (then a short or
 * status-only packet ends the transfer), as the real chip does.  Time is the SoC's
 * simulated time: libusb time-outs and the latency timer are counted in its cycles.
 *
 * Environment:
 *   PTPU_USB_EMU_BOARDS   boards present: "ft2232h:SERIAL,ft231x:SERIAL@HZ" (default
 *                         "ft2232h:PTPU-EMU-0"); "none": no board.  @HZ: the board's FPGA
 *                         runs at HZ (default PTPU_USB_EMU_CLK_HZ): one simulated cycle is
 *                         1/HZ of that board's time, and the line's baud reaches the library's
 *                         UART scaled by PTPU_USB_EMU_CLK_HZ / HZ (the UART sees clocks per
 *                         bit only), so a board at 2 Mbaud and 16 MHz runs the SoC built for
 *                         3 Mbaud at 24 MHz, 8 clocks per bit either way
 *   PTPU_USB_EMU_SIM      the simulation library (default build/sim/sim16u/libpicotpu_sim.so)
 *   PTPU_USB_EMU_CLK_HZ   the SoC clock that the library was built with
 *   PTPU_USB_EMU_UNPLUG_AFTER=N  the board disappears after N bytes of bulk OUT
 *   PTPU_USB_EMU_MUTE_AFTER=N    the SoC's TX wire is cut after N bytes (it stops answering)
 *   PTPU_USB_EMU_CTS=1    CTS and DSR asserted (otherwise a board wires no handshake)
 *   PTPU_USB_EMU_VERBOSE=1  log USB requests on stderr
 * Control from a test: ptpu_usb_emu_ctl("unplug"|"mute"|"hang"|"cycles"|"clk_hz"|...).
 */
#include <dlfcn.h>
#include <libusb.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "picotpu_sim.h"

#ifndef EMU_SIM_LIB
#define EMU_SIM_LIB "build/sim/sim16u/libpicotpu_sim.so"
#endif
#ifndef EMU_CLK_HZ
#define EMU_CLK_HZ 24000000
#endif

#define MAXB 4
#define STEP 64     /* cycles per simulation step while the chip waits */

enum { FT2232H, FT231X };

struct chan {
    struct libusb_device_handle *owner;     /* claimed by */
    bool driver;                            /* the kernel's ftdi_sio is bound */
    uint32_t baud;
    unsigned fmt, flow, bitmode, latency_ms, modem;
    uint8_t *tx, *rx;                       /* host -> line, line -> host */
    size_t txh, ntx, nrx, cap;              /* tx holds tx[txh..ntx) */
    uint64_t last_pkt;                      /* time of the last IN packet */
    unsigned line_err;                      /* OE PE FE BI bits of the line status */
};

struct libusb_device {
    int board;
};

struct board {
    struct libusb_device dev;
    int chip;
    char serial[64];
    bool present, hang;
    int nif, uart_if, handles;
    struct chan ch[2];
    ptpu_sim_t *sim;
    bool sim_dead;
    uint64_t clk_hz;                        /* the board's clock (@HZ) */
    uint64_t t;                             /* cycles */
    uint64_t out_bytes, in_bytes, in_xfers, full_pkts, short_pkts;
    int64_t unplug_after, mute_after;
};

struct libusb_context {
    int refs;
};

struct libusb_device_handle {
    struct board *b;
    unsigned claimed;
    bool auto_detach;
};

static struct board boards[MAXB];
static int nboards = -1, nctx;
static uint64_t clk_hz = EMU_CLK_HZ;
static bool cts, verbose;
static struct libusb_context default_ctx;

static struct {
    void *dl;
    int (*create)(const char *, const char *, ptpu_sim_t **);
    void (*destroy)(ptpu_sim_t *);
    int (*step)(ptpu_sim_t *, uint64_t);
    int (*send)(ptpu_sim_t *, const void *, size_t);
    size_t (*pending)(const ptpu_sim_t *);
    size_t (*recv)(ptpu_sim_t *, void *, size_t);
    int (*uart)(ptpu_sim_t *, uint32_t, unsigned);
    const char *(*strerror)(int);
} S;

static void logf_(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void logf_(const char *fmt, ...)
{
    if (!verbose)
        return;
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "ftdi_emu: ");
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

static int64_t env_num(const char *name, int64_t def)
{
    const char *v = getenv(name);
    return v && *v ? strtoll(v, NULL, 0) : def;
}

static void setup(void)
{
    if (nboards >= 0)
        return;
    nboards = 0;
    clk_hz = (uint64_t)env_num("PTPU_USB_EMU_CLK_HZ", EMU_CLK_HZ);
    cts = env_num("PTPU_USB_EMU_CTS", 0) != 0;
    verbose = env_num("PTPU_USB_EMU_VERBOSE", 0) != 0;
    const char *spec = getenv("PTPU_USB_EMU_BOARDS");
    if (!spec)
        spec = "ft2232h:PTPU-EMU-0";
    char buf[512];
    snprintf(buf, sizeof(buf), "%s", spec);
    for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok && nboards < MAXB;
         tok = strtok_r(NULL, ",", &save)) {
        if (!strcmp(tok, "none"))
            continue;
        struct board *b = &boards[nboards];
        char *colon = strchr(tok, ':'), *at = strchr(tok, '@');
        if (colon)
            *colon = 0;
        if (at)
            *at = 0;
        b->clk_hz = at ? strtoull(at + 1, NULL, 0) : 0;
        if (!b->clk_hz)
            b->clk_hz = clk_hz;
        if (!strcmp(tok, "ft2232h"))
            b->chip = FT2232H;
        else if (!strcmp(tok, "ft231x"))
            b->chip = FT231X;
        else {
            fprintf(stderr, "ftdi_emu: unknown chip '%s' in PTPU_USB_EMU_BOARDS\n", tok);
            continue;
        }
        snprintf(b->serial, sizeof(b->serial), "%s", colon ? colon + 1 : "PTPU-EMU");
        b->dev.board = nboards;
        b->present = true;
        b->nif = b->chip == FT2232H ? 2 : 1;
        b->uart_if = b->chip == FT2232H ? 1 : 0;
        for (int i = 0; i < b->nif; i++) {
            struct chan *c = &b->ch[i];
            c->driver = true;
            c->baud = 9600;
            c->fmt = 8;
            c->latency_ms = 16;
            c->cap = b->chip == FT2232H ? 4096 : 512;
            c->tx = malloc(c->cap);
            c->rx = malloc(c->cap);
        }
        b->unplug_after = env_num("PTPU_USB_EMU_UNPLUG_AFTER", -1);
        b->mute_after = env_num("PTPU_USB_EMU_MUTE_AFTER", -1);
        nboards++;
    }
}

/* ------------------------------------------------------------------ the wire and the SoC */

static int load_sim(void)
{
    if (S.dl)
        return 0;
    const char *path = getenv("PTPU_USB_EMU_SIM");
    if (!path || !*path)
        path = EMU_SIM_LIB;
    void *dl = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!dl) {
        fprintf(stderr, "ftdi_emu: cannot load the simulation library: %s\n", dlerror());
        return -1;
    }
#define SIM_SYM(f, n)                                                                   \
    if (!(*(void **)&S.f = dlsym(dl, n))) {                                            \
        fprintf(stderr, "ftdi_emu: %s lacks %s\n", path, n);                            \
        dlclose(dl);                                                                    \
        return -1;                                                                      \
    }
    SIM_SYM(create, "ptpu_sim_create")
    SIM_SYM(destroy, "ptpu_sim_destroy")
    SIM_SYM(step, "ptpu_sim_step")
    SIM_SYM(send, "ptpu_sim_link_send")
    SIM_SYM(pending, "ptpu_sim_link_pending")
    SIM_SYM(recv, "ptpu_sim_link_recv")
    SIM_SYM(uart, "ptpu_sim_link_uart")
    SIM_SYM(strerror, "ptpu_sim_strerror")
#undef SIM_SYM
    S.dl = dl;
    return 0;
}

static void line_setup(struct board *b)
{
    struct chan *c = &b->ch[b->uart_if];
    /* the line's bit time in this board's cycles, as a baud at the library's clock */
    uint32_t baud = (uint32_t)((uint64_t)c->baud * clk_hz / b->clk_hz);
    if (b->sim && S.uart(b->sim, baud, c->fmt) == PTPU_SIM_EARG)
        fprintf(stderr, "ftdi_emu: the simulation library has no UART link PHY\n");
}

/* The board's FPGA: powered with the board, configured on first use of its UART. */
static void sim_up(struct board *b)
{
    if (b->sim || b->sim_dead || load_sim())
        return;
    int rc = S.create(NULL, NULL, &b->sim);
    if (rc) {
        fprintf(stderr, "ftdi_emu: cannot create the SoC: %s\n", S.strerror(rc));
        b->sim = NULL;
        b->sim_dead = true;
        return;
    }
    line_setup(b);
}

static bool may_send(const struct chan *c)
{
    if (c->bitmode)
        return false;
    if ((c->flow & 1) && !cts)      /* RTS/CTS: CTS not asserted */
        return false;
    if ((c->flow & 2) && !cts)      /* DTR/DSR */
        return false;
    return true;
}

/* Runs the line and the SoC for n cycles. */
static void advance(struct board *b, uint64_t n)
{
    struct chan *c = &b->ch[b->uart_if];
    while (n) {
        uint64_t k = n < STEP ? n : STEP;
        if (b->sim) {
            /* keep the UART's queue short, so that a purge drops what is still buffered */
            while (c->txh < c->ntx && may_send(c) && S.pending(b->sim) < 2)
                S.send(b->sim, c->tx + c->txh++, 1);
            int rc = S.step(b->sim, k);
            if (rc) {
                fprintf(stderr, "ftdi_emu: the simulated SoC stopped: %s\n", S.strerror(rc));
                S.destroy(b->sim);
                b->sim = NULL;
                b->sim_dead = true;
            }
        } else if (c->txh < c->ntx && may_send(c)) {
            /* nothing on the other end: bytes leave at the baud and are lost */
            uint64_t bytes = k * c->baud / 10 / b->clk_hz + 1;
            size_t q = c->ntx - c->txh;
            c->txh += bytes < q ? (size_t)bytes : q;
        }
        b->t += k;
        n -= k;
        if (!b->sim)
            continue;
        uint8_t buf[64];
        size_t got;
        while ((got = S.recv(b->sim, buf, sizeof(buf)))) {
            for (size_t i = 0; i < got; i++) {
                if (b->mute_after >= 0 && (int64_t)b->in_bytes >= b->mute_after)
                    continue;   /* the wire is cut */
                b->in_bytes++;
                if (c->bitmode)
                    continue;
                if (c->nrx < c->cap)
                    c->rx[c->nrx++] = buf[i];
                else
                    c->line_err |= 0x02;    /* overrun */
            }
        }
        int e = S.uart(b->sim, 0, 0);
        if (e > 0)
            c->line_err |= (e & 1 ? 0x08 : 0) | (e & 2 ? 0x04 : 0) | (e & 4 ? 0x10 : 0);
    }
}

static uint64_t ms_cycles(const struct board *b, unsigned ms)
{
    return (uint64_t)ms * (b->clk_hz / 1000);
}

/* ------------------------------------------------------------------ the chip's requests */

static void status(struct board *b, struct chan *c, uint8_t *s)
{
    s[0] = 0x01 | (cts ? 0x30 : 0);
    s[1] = (uint8_t)(c->line_err | (c->nrx ? 0x01 : 0) | (c->ntx > c->txh ? 0 : 0x20) |
                     (c->ntx == c->txh && !(b->sim && S.pending(b->sim)) ? 0x40 : 0));
}

/* The baud rate of a divisor (FTDI AN232B-05, AN_120): a 14-bit integer part, a 3-bit
 * fraction code in eighths, a 3 MHz base clock or, on the H chips with bit 17, 12 MHz;
 * 0 means divide by 1 and 1 by 1.5. */
static uint32_t decode_baud(int chip, uint16_t value, uint16_t index)
{
    static const unsigned eighths[8] = {0, 4, 2, 1, 3, 5, 6, 7};
    uint32_t enc = value | (chip == FT2232H ? (uint32_t)(index >> 8) << 16 : (uint32_t)index << 16);
    uint32_t n = enc & 0x3fff, frac = eighths[(enc >> 14) & 7];
    uint64_t base = chip == FT2232H && (enc & 0x20000) ? 12000000 : 3000000;
    uint64_t div8 = n * 8 + frac;
    if (n == 0 && frac == 0)
        div8 = 8;
    else if (n == 1 && frac == 0)
        div8 = 12;
    return (uint32_t)((base * 8 + div8 / 2) / div8);
}

static void purge_tx(struct chan *c) { c->txh = c->ntx = 0; }
static void purge_rx(struct chan *c)
{
    c->nrx = 0;
    c->line_err = 0;
}

static struct chan *chan_of(struct board *b, uint16_t windex)
{
    if (b->chip == FT231X)
        return &b->ch[0];
    unsigned port = windex & 0xff;
    return port == 2 ? &b->ch[1] : port <= 1 ? &b->ch[0] : NULL;
}

int libusb_control_transfer(libusb_device_handle *h, uint8_t rt, uint8_t req, uint16_t value,
                            uint16_t index, unsigned char *data, uint16_t len, unsigned int timeout)
{
    (void)timeout;
    struct board *b = h->b;
    if (!b->present)
        return LIBUSB_ERROR_NO_DEVICE;
    logf_("control %02x %02x value %04x index %04x len %u", rt, req, value, index, len);
    if ((rt & 0x60) == 0) {     /* standard: GET_STATUS only */
        if (rt == 0x80 && req == 0 && len >= 2) {
            data[0] = data[1] = 0;
            return 2;
        }
        return LIBUSB_ERROR_PIPE;
    }
    if ((rt & 0x60) != 0x40)
        return LIBUSB_ERROR_PIPE;
    struct chan *c = chan_of(b, index);
    bool in = rt & 0x80;
    if (!c)
        return LIBUSB_ERROR_PIPE;
    struct chan *uart = &b->ch[b->uart_if];
    switch (req) {
    case 0x00:  /* reset: 0 the port, 1 purge the TX (host -> line) buffer, 2 purge RX */
        if (in || value > 2)
            return LIBUSB_ERROR_PIPE;
        if (value != 2)
            purge_tx(c);
        if (value != 1)
            purge_rx(c);
        return 0;
    case 0x01:  /* modem control: DTR bit 0, RTS bit 1, masks in the high byte */
        c->modem = (c->modem & ~(value >> 8)) | (value & (value >> 8) & 3);
        return 0;
    case 0x02:  /* flow control: wIndex high byte, 1 RTS/CTS, 2 DTR/DSR, 4 XON/XOFF */
        c->flow = index >> 8;
        return 0;
    case 0x03: {
        uint32_t baud = decode_baud(b->chip, value, index);
        uint32_t max = b->chip == FT2232H ? 12000000 : 3000000;
        if (baud > max)
            return LIBUSB_ERROR_PIPE;
        c->baud = baud;
        logf_("baud %u", baud);
        if (c == uart)
            line_setup(b);
        return 0;
    }
    case 0x04:  /* data format (and break, bit 14) */
        c->fmt = value;
        if (c == uart)
            line_setup(b);
        return 0;
    case 0x05:  /* modem and line status */
        if (!in || len < 2)
            return LIBUSB_ERROR_PIPE;
        status(b, c, data);
        return 2;
    case 0x06:
    case 0x07:  /* event and error characters: accepted, not used by a UART link */
        return 0;
    case 0x09:
        c->latency_ms = (value & 0xff) ? (value & 0xff) : 1;
        return 0;
    case 0x0a:
        if (!in || len < 1)
            return LIBUSB_ERROR_PIPE;
        data[0] = (uint8_t)c->latency_ms;
        return 1;
    case 0x0b:  /* bit mode: anything but 0 takes the pins from the UART */
        c->bitmode = value >> 8;
        return 0;
    case 0x0c:
        if (!in || len < 1)
            return LIBUSB_ERROR_PIPE;
        data[0] = 0xff;
        return 1;
    case 0x90:  /* EEPROM word: blank */
        if (!in || len < 2)
            return LIBUSB_ERROR_PIPE;
        data[0] = data[1] = 0xff;
        return 2;
    default:
        return LIBUSB_ERROR_PIPE;
    }
}

static void unplug(struct board *b)
{
    if (b->present)
        logf_("board %s unplugged", b->serial);
    b->present = false;
}

static int bulk_out(struct board *b, struct chan *c, const uint8_t *data, int len, int *done,
                    unsigned timeout)
{
    uint64_t t0 = b->t;
    bool wired = c == &b->ch[b->uart_if];
    for (int i = 0; i < len; i++) {
        while (c->ntx - c->txh >= c->cap) {   /* the chip NAKs until its buffer has room */
            if (!wired) {
                c->txh = c->ntx = 0;
                break;
            }
            advance(b, STEP);
            if (timeout && b->t - t0 >= ms_cycles(b, timeout))
                return LIBUSB_ERROR_TIMEOUT;
        }
        if (c->ntx == c->cap) {         /* sent bytes leave the front, once per buffer */
            memmove(c->tx, c->tx + c->txh, c->ntx - c->txh);
            c->ntx -= c->txh;
            c->txh = 0;
        }
        c->tx[c->ntx++] = data[i];
        ++*done;
        b->out_bytes++;
        if (b->unplug_after >= 0 && (int64_t)b->out_bytes >= b->unplug_after) {
            unplug(b);
            return LIBUSB_ERROR_NO_DEVICE;
        }
    }
    if (!wired)
        c->txh = c->ntx = 0;
    return 0;
}

static int bulk_in(struct board *b, struct chan *c, uint8_t *data, int len, int *done,
                   unsigned timeout)
{
    uint64_t t0 = b->t;
    int mps = b->chip == FT2232H ? 512 : 64;
    for (;;) {
        if (!b->present)
            return LIBUSB_ERROR_NO_DEVICE;
        bool due = b->t - c->last_pkt >= ms_cycles(b, c->latency_ms);
        if (!b->hang && (c->nrx >= (size_t)mps - 2 || due)) {
            int n = c->nrx < (size_t)mps - 2 ? (int)c->nrx : mps - 2;
            if (2 + n > len - *done)
                return LIBUSB_ERROR_OVERFLOW;
            status(b, c, data + *done);
            memcpy(data + *done + 2, c->rx, (size_t)n);
            memmove(c->rx, c->rx + n, c->nrx - (size_t)n);
            c->nrx -= (size_t)n;
            c->line_err = 0;
            *done += 2 + n;
            c->last_pkt = b->t;
            if (2 + n < mps)
                b->short_pkts++;
            else
                b->full_pkts++;
            if (2 + n < mps || *done == len)
                return 0;   /* a short packet ends the transfer */
            continue;
        }
        if (b->hang) {
            /* a hung chip: the host's time-out passes on the USB side only (the SoC is
             * not clocked, so that the test costs no simulation) */
            b->t = t0 + (timeout ? ms_cycles(b, timeout) : ms_cycles(b, 5000));
            return LIBUSB_ERROR_TIMEOUT;
        }
        if (timeout && b->t - t0 >= ms_cycles(b, timeout))
            return LIBUSB_ERROR_TIMEOUT;
        advance(b, STEP);
    }
}

int libusb_bulk_transfer(libusb_device_handle *h, unsigned char ep, unsigned char *data,
                         int len, int *transferred, unsigned int timeout)
{
    struct board *b = h->b;
    int done = 0, rc;
    if (transferred)
        *transferred = 0;
    if (!b->present)
        return LIBUSB_ERROR_NO_DEVICE;
    /* endpoints: interface A 0x81 / 0x02, interface B 0x83 / 0x04 */
    int iface = ((ep & 0x7f) - 1) / 2;
    if (iface >= b->nif || !(h->claimed & (1u << iface)))
        return LIBUSB_ERROR_NOT_FOUND;
    struct chan *c = &b->ch[iface];
    if (ep & 0x80)
        b->in_xfers++, rc = bulk_in(b, c, data, len, &done, timeout);
    else
        rc = bulk_out(b, c, data, len, &done, timeout);
    if (transferred)
        *transferred = done;
    return rc;
}

/* ------------------------------------------------------------------ devices, descriptors */

int libusb_init(libusb_context **ctx)
{
    setup();
    nctx++;
    if (ctx) {
        *ctx = calloc(1, sizeof(**ctx));
        if (!*ctx)
            return LIBUSB_ERROR_NO_MEM;
    }
    return 0;
}

void libusb_exit(libusb_context *ctx)
{
    if (ctx && ctx != &default_ctx)
        free(ctx);
    if (--nctx > 0)
        return;
    /* the last context: boards without open handles power down */
    for (int i = 0; i < nboards; i++)
        if (env_num("PTPU_USB_EMU_STATS", 0))
            fprintf(stderr, "ftdi_emu: board %s: %llu cycles (%.3f ms), %llu bytes out, %llu in, "
                    "%llu bulk IN transfers\n", boards[i].serial, (unsigned long long)boards[i].t,
                    (double)boards[i].t * 1e3 / (double)boards[i].clk_hz,
                    (unsigned long long)boards[i].out_bytes, (unsigned long long)boards[i].in_bytes,
                    (unsigned long long)boards[i].in_xfers);
    for (int i = 0; i < nboards; i++)
        if (boards[i].sim && !boards[i].handles) {
            S.destroy(boards[i].sim);
            boards[i].sim = NULL;
        }
}

ssize_t libusb_get_device_list(libusb_context *ctx, libusb_device ***list)
{
    (void)ctx;
    setup();
    libusb_device **l = calloc((size_t)nboards + 1, sizeof(*l));
    if (!l)
        return LIBUSB_ERROR_NO_MEM;
    ssize_t n = 0;
    for (int i = 0; i < nboards; i++)
        if (boards[i].present)
            l[n++] = &boards[i].dev;
    *list = l;
    return n;
}

void libusb_free_device_list(libusb_device **list, int unref)
{
    (void)unref;
    free(list);
}

libusb_device *libusb_ref_device(libusb_device *dev) { return dev; }
void libusb_unref_device(libusb_device *dev) { (void)dev; }
uint8_t libusb_get_bus_number(libusb_device *dev) { (void)dev; return 1; }
uint8_t libusb_get_device_address(libusb_device *dev) { return (uint8_t)(2 + dev->board); }

int libusb_get_device_descriptor(libusb_device *dev, struct libusb_device_descriptor *d)
{
    struct board *b = &boards[dev->board];
    memset(d, 0, sizeof(*d));
    d->bLength = LIBUSB_DT_DEVICE_SIZE;
    d->bDescriptorType = LIBUSB_DT_DEVICE;
    d->bcdUSB = b->chip == FT2232H ? 0x0200 : 0x0200;
    d->bMaxPacketSize0 = 64;
    d->idVendor = 0x0403;
    d->idProduct = b->chip == FT2232H ? 0x6010 : 0x6015;
    d->bcdDevice = b->chip == FT2232H ? 0x0700 : 0x1000;
    d->iManufacturer = 1;
    d->iProduct = 2;
    d->iSerialNumber = 3;
    d->bNumConfigurations = 1;
    return 0;
}

int libusb_get_config_descriptor(libusb_device *dev, uint8_t idx,
                                 struct libusb_config_descriptor **config)
{
    struct board *b = &boards[dev->board];
    if (idx)
        return LIBUSB_ERROR_NOT_FOUND;
    struct blk {
        struct libusb_config_descriptor c;
        struct libusb_interface i[2];
        struct libusb_interface_descriptor d[2];
        struct libusb_endpoint_descriptor e[2][2];
    } *k = calloc(1, sizeof(*k));
    if (!k)
        return LIBUSB_ERROR_NO_MEM;
    k->c.bLength = LIBUSB_DT_CONFIG_SIZE;
    k->c.bDescriptorType = LIBUSB_DT_CONFIG;
    k->c.bNumInterfaces = (uint8_t)b->nif;
    k->c.bConfigurationValue = 1;
    k->c.bmAttributes = 0x80;
    k->c.MaxPower = 45;
    k->c.interface = k->i;
    for (int i = 0; i < b->nif; i++) {
        k->i[i].altsetting = &k->d[i];
        k->i[i].num_altsetting = 1;
        k->d[i].bLength = LIBUSB_DT_INTERFACE_SIZE;
        k->d[i].bDescriptorType = LIBUSB_DT_INTERFACE;
        k->d[i].bInterfaceNumber = (uint8_t)i;
        k->d[i].bNumEndpoints = 2;
        k->d[i].bInterfaceClass = 0xff;
        k->d[i].endpoint = k->e[i];
        for (int e = 0; e < 2; e++) {
            struct libusb_endpoint_descriptor *ed = &k->e[i][e];
            ed->bLength = LIBUSB_DT_ENDPOINT_SIZE;
            ed->bDescriptorType = LIBUSB_DT_ENDPOINT;
            ed->bEndpointAddress = (uint8_t)(e == 0 ? 0x81 + 2 * i : 0x02 + 2 * i);
            ed->bmAttributes = LIBUSB_TRANSFER_TYPE_BULK;
            ed->wMaxPacketSize = b->chip == FT2232H ? 512 : 64;
        }
    }
    *config = &k->c;
    return 0;
}

void libusb_free_config_descriptor(struct libusb_config_descriptor *config) { free(config); }

int libusb_open(libusb_device *dev, libusb_device_handle **out)
{
    struct board *b = &boards[dev->board];
    if (!b->present)
        return LIBUSB_ERROR_NO_DEVICE;
    libusb_device_handle *h = calloc(1, sizeof(*h));
    if (!h)
        return LIBUSB_ERROR_NO_MEM;
    h->b = b;
    b->handles++;
    *out = h;
    return 0;
}

void libusb_close(libusb_device_handle *h)
{
    if (!h)
        return;
    for (int i = 0; i < h->b->nif; i++)
        if (h->b->ch[i].owner == h)
            h->b->ch[i].owner = NULL;
    h->b->handles--;
    free(h);
}

int libusb_get_string_descriptor_ascii(libusb_device_handle *h, uint8_t idx, unsigned char *data,
                                       int len)
{
    struct board *b = h->b;
    if (!b->present)
        return LIBUSB_ERROR_NO_DEVICE;
    const char *s = idx == 1 ? "FTDI"
                    : idx == 2 ? (b->chip == FT2232H ? "Dual RS232-HS" : "FT231X USB UART")
                    : idx == 3 ? b->serial : NULL;
    if (!s || len < 1)
        return LIBUSB_ERROR_PIPE;
    int n = (int)strlen(s) < len - 1 ? (int)strlen(s) : len - 1;
    memcpy(data, s, (size_t)n);
    data[n] = 0;
    return n;
}

int libusb_get_configuration(libusb_device_handle *h, int *config)
{
    if (!h->b->present)
        return LIBUSB_ERROR_NO_DEVICE;
    *config = 1;
    return 0;
}

int libusb_set_configuration(libusb_device_handle *h, int config)
{
    if (!h->b->present)
        return LIBUSB_ERROR_NO_DEVICE;
    return config == 1 || config == -1 ? 0 : LIBUSB_ERROR_NOT_FOUND;
}

int libusb_detach_kernel_driver(libusb_device_handle *h, int iface)
{
    if (!h->b->present)
        return LIBUSB_ERROR_NO_DEVICE;
    if (iface < 0 || iface >= h->b->nif || !h->b->ch[iface].driver)
        return LIBUSB_ERROR_NOT_FOUND;
    h->b->ch[iface].driver = false;
    logf_("ftdi_sio detached from interface %d", iface);
    return 0;
}

int libusb_set_auto_detach_kernel_driver(libusb_device_handle *h, int enable)
{
    h->auto_detach = enable != 0;
    return 0;
}

int libusb_claim_interface(libusb_device_handle *h, int iface)
{
    struct board *b = h->b;
    if (!b->present)
        return LIBUSB_ERROR_NO_DEVICE;
    if (iface < 0 || iface >= b->nif)
        return LIBUSB_ERROR_NOT_FOUND;
    struct chan *c = &b->ch[iface];
    if (c->driver && h->auto_detach)
        c->driver = false;
    if (c->driver || (c->owner && c->owner != h))
        return LIBUSB_ERROR_BUSY;   /* ftdi_sio or another program has it */
    c->owner = h;
    h->claimed |= 1u << iface;
    if (iface == b->uart_if)
        sim_up(b);
    return 0;
}

int libusb_release_interface(libusb_device_handle *h, int iface)
{
    if (iface < 0 || iface >= h->b->nif || !(h->claimed & (1u << iface)))
        return LIBUSB_ERROR_NOT_FOUND;
    h->claimed &= ~(1u << iface);
    h->b->ch[iface].owner = NULL;
    return h->b->present ? 0 : LIBUSB_ERROR_NO_DEVICE;
}

/* The asynchronous API (libftdi1's ftdi_*_submit) is not emulated. */
struct libusb_transfer *libusb_alloc_transfer(int iso_packets)
{
    return calloc(1, sizeof(struct libusb_transfer) +
                         (size_t)(iso_packets > 0 ? iso_packets : 0) *
                             sizeof(struct libusb_iso_packet_descriptor));
}

void libusb_free_transfer(struct libusb_transfer *t)
{
    if (t && (t->flags & LIBUSB_TRANSFER_FREE_BUFFER))
        free(t->buffer);
    free(t);
}

int libusb_submit_transfer(struct libusb_transfer *t)
{
    (void)t;
    return LIBUSB_ERROR_NOT_SUPPORTED;
}

int libusb_cancel_transfer(struct libusb_transfer *t)
{
    (void)t;
    return LIBUSB_ERROR_NOT_FOUND;
}

int libusb_handle_events_timeout(libusb_context *ctx, struct timeval *tv)
{
    (void)ctx, (void)tv;
    return 0;
}

int libusb_handle_events_timeout_completed(libusb_context *ctx, struct timeval *tv, int *completed)
{
    (void)ctx, (void)tv;
    if (completed)
        *completed = 1;
    return 0;
}

/* ------------------------------------------------------------------ test control */

/* On the board in use (the first with an open handle, else the first): "unplug",
 * "unplug_after" (arg more bulk OUT bytes), "mute" (arg 1: cut the SoC's TX wire, 0:
 * mend it), "hang" (arg 1: the chip answers no bulk IN), "cycles" (its time),
 * "out_bytes", "in_bytes", "full_pkts", "short_pkts" (bulk IN packets of the maximum size
 * and shorter), "clk_hz" (its clock); "boards", "all_cycles" (the time of every board
 * summed).
 * Returns the value, or -1 for an unknown request. */
long long ptpu_usb_emu_ctl(const char *what, long long arg)
{
    setup();
    struct board *b = nboards ? &boards[0] : NULL;
    for (int i = nboards - 1; i >= 0; i--)
        if (boards[i].handles)
            b = &boards[i];
    if (!strcmp(what, "clk_hz"))
        return (long long)(b ? b->clk_hz : clk_hz);
    if (!strcmp(what, "boards"))
        return nboards;
    if (!strcmp(what, "all_cycles")) {
        long long t = 0;
        for (int i = 0; i < nboards; i++)
            t += (long long)boards[i].t;
        return t;
    }
    if (!b)
        return -1;
    if (!strcmp(what, "unplug"))
        unplug(b);
    else if (!strcmp(what, "unplug_after"))
        b->unplug_after = (int64_t)b->out_bytes + arg;
    else if (!strcmp(what, "mute"))
        b->mute_after = arg ? (int64_t)b->in_bytes : -1;
    else if (!strcmp(what, "hang"))
        b->hang = arg != 0;
    else if (!strcmp(what, "cycles"))
        return (long long)b->t;
    else if (!strcmp(what, "out_bytes"))
        return (long long)b->out_bytes;
    else if (!strcmp(what, "in_bytes"))
        return (long long)b->in_bytes;
    else if (!strcmp(what, "full_pkts"))
        return (long long)b->full_pkts;
    else if (!strcmp(what, "short_pkts"))
        return (long long)b->short_pkts;
    else
        return -1;
    return 0;
}
