/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ptpu_backend_link.c - a device behind the link protocol (docs/isa.md "Link
 * protocol"), over any byte transport: the sim backend's simulated link port,
 * the usb backend's UART, or a test device.  Requests go through the retry helper
 * of ptpu_link.h (the host rules of docs/link.md): resent after a NAK with their SEQ
 * once the line is quiet, or after a time-out (RUN with the same SEQ, which the
 * firmware answers without starting the program again).
 */
#include <stdlib.h>
#include <string.h>

#include "ptpu_link.h"
#include "ptpu_runtime.h"

#define ATTEMPTS 6

struct linkbe {
    struct ptpu_xport x;
    struct ptpu_link_host h;    /* the retry rules of docs/link.md ("Host rules") */
    uint64_t now;               /* transport time, counted in silent waits */
    uint8_t seq;
    uint8_t *tx;
    size_t max_payload;
};

/* One request, its response in *f (payload valid until the next request).  The retry
 * helper decides: a NAK with our SEQ resends once the line has been quiet, NAKs and
 * responses with other SEQs are ignored, a damaged response is waited out until the
 * time-out, which resends.  budget: the longest wait for the response (WAIT), 0 for the
 * transport's time-out; with a long budget, bytes that arrive without completing the
 * request (a damaged response) shorten it to the time-out after the last of them. */
static int request(struct ptpu_device *dev, uint8_t type, const uint8_t *frame, size_t flen,
                   uint64_t budget, struct ptpu_link_frame *f)
{
    struct linkbe *b = dev->be;
    struct ptpu_link_host *h = &b->h;
    uint64_t tmo = budget ? budget : b->x.timeout;
    uint8_t buf[512];
    uint64_t rx = 0;            /* bytes received since the last send */
    uint64_t stale0 = h->stale;
    int st = ptpu_link_host_request(h, frame, flen);
    if (st < 0)
        return ptpu_dev_fail(dev, PTPU_ERR_NO_MEM, "out of memory");
    while (st == PTPU_LINK_HOST_SEND || st == PTPU_LINK_HOST_WAIT) {
        if (st == PTPU_LINK_HOST_SEND) {
            int rc = b->x.send(b->x.ctx, h->frame, h->frame_len);
            if (rc)
                return ptpu_dev_fail(dev, PTPU_ERR_IO, "link: send failed (%d)", rc);
            b->now += 1;
            ptpu_link_host_sent(h, b->now);
            h->timeout = tmo;
            st = h->state;
            rx = 0;
        }
        uint64_t end = ptpu_link_host_deadline(h);
        uint64_t slice = end > b->now ? end - b->now : 1;
        long n = b->x.recv(b->x.ctx, buf, sizeof(buf), slice);
        if (n < 0)
            return ptpu_dev_fail(dev, (int)n, "link: receive failed");
        if (n > 0) {
            st = ptpu_link_host_rx(h, buf, (size_t)n, b->now);
            rx += (uint64_t)n;
            if (st == PTPU_LINK_HOST_WAIT && tmo > b->x.timeout &&
                b->now - h->sent_at + b->x.timeout < h->timeout)
                h->timeout = b->now - h->sent_at + b->x.timeout;
            /* a device that babbles without answering times out too */
            if (st == PTPU_LINK_HOST_WAIT && rx > 4 * (PTPU_LINK_MAX_LEN + PTPU_LINK_OVERHEAD))
                h->timeout = b->now - h->sent_at;
        } else {
            b->now += slice;
        }
        if (st == PTPU_LINK_HOST_WAIT)
            st = ptpu_link_host_poll(h, b->now);
    }
    if (st == PTPU_LINK_HOST_FAILED && h->stale > stale0)
        return ptpu_dev_fail(dev, PTPU_ERR_PROTOCOL,
                             "link: %d attempts of request 0x%02x got %llu frames that answer "
                             "no request of ours (garbled or from another protocol)", h->attempts,
                             type, (unsigned long long)(h->stale - stale0));
    if (st == PTPU_LINK_HOST_FAILED)
        return ptpu_dev_fail(dev, PTPU_ERR_TIMEOUT,
                             "link: no good response to request 0x%02x after %d attempts "
                             "(%llu NAKs, %llu time-outs)", type, h->attempts,
                             (unsigned long long)h->naks, (unsigned long long)h->timeouts);
    *f = h->resp;
    switch (h->resp_kind) {
    case PTPU_LINK_RESP_OK:
        return 0;
    case PTPU_LINK_RESP_ERR:
        return ptpu_dev_fail(dev, h->status == PTPU_STATUS_BUSY ? PTPU_ERR_BUSY : PTPU_ERR_DEVICE,
                             "link: request 0x%02x rejected: status %u, detail 0x%x", type,
                             h->status, h->detail);
    case PTPU_LINK_RESP_NAK:
        return ptpu_dev_fail(dev, PTPU_ERR_PROTOCOL,
                             "link: request 0x%02x of %zu bytes is longer than the device's "
                             "payload limit %u", type, flen, h->device_max_payload);
    default:
        return ptpu_dev_fail(dev, PTPU_ERR_PROTOCOL,
                             "link: unexpected response type 0x%02x (flags 0x%x, %u bytes) to "
                             "request 0x%02x", f->type, f->flags, f->len, type);
    }
}

static int simple(struct ptpu_device *dev, uint8_t type, size_t flen, uint64_t budget,
                  struct ptpu_link_frame *f)
{
    struct linkbe *b = dev->be;
    return request(dev, type, b->tx, flen, budget, f);
}

int ptpu_link_open(struct ptpu_device *dev, const struct ptpu_xport *x)
{
    struct linkbe *b = calloc(1, sizeof(*b));
    if (!b) {
        if (x->close)
            x->close(x->ctx);
        return ptpu_dev_fail(dev, PTPU_ERR_NO_MEM, "out of memory");
    }
    b->x = *x;
    b->tx = malloc(PTPU_LINK_MAX_LEN + PTPU_LINK_OVERHEAD + 8);
    /* quiet before a resend after a NAK: long enough for the device's parser to give up
     * a fake frame started by bytes still in flight (docs/link.md, host rule 2) */
    uint64_t quiet = x->quiet;
    if (!quiet)     /* a transport that does not say: 1/64 of its time-out */
        quiet = x->timeout / 64 ? x->timeout / 64 : 1;
    if (!b->tx || ptpu_link_host_init(&b->h, PTPU_LINK_MAX_LEN, x->timeout, quiet, ATTEMPTS)) {
        if (x->close)
            x->close(x->ctx);
        free(b->tx);
        free(b);
        return ptpu_dev_fail(dev, PTPU_ERR_NO_MEM, "out of memory");
    }
    dev->be = b;
    struct ptpu_link_frame f;
    struct ptpu_link_info in;
    int rc = simple(dev, PTPU_PKT_INFO, ptpu_link_req_info(b->tx, ++b->seq), 0, &f);
    if (!rc && ptpu_link_parse_info(&f, &in))
        rc = ptpu_dev_fail(dev, PTPU_ERR_PROTOCOL, "link: INFO response of %u bytes", f.len);
    if (!rc && (in.magic != PTPU_ID_MAGIC || in.protocol_version != PTPU_PROTOCOL_VERSION))
        rc = ptpu_dev_fail(dev, PTPU_ERR_PROTOCOL,
                           "link: device magic 0x%08x protocol %u (expected 0x%08x, %u)",
                           in.magic, in.protocol_version, PTPU_ID_MAGIC, PTPU_PROTOCOL_VERSION);
    if (!rc && (in.max_payload < 64 || in.n < 1 || in.mem_kb < 1))
        rc = ptpu_dev_fail(dev, PTPU_ERR_PROTOCOL, "link: implausible INFO (N %u, payload %u)",
                           in.n, in.max_payload);
    if (rc) {
        ptpu_backend_link.close(dev);
        return rc;
    }
    b->max_payload = in.max_payload;
    b->h.device_max_payload = in.max_payload;
    struct ptpu_device_info *i = &dev->info;
    snprintf(i->config, sizeof(i->config), "%.16s", in.config_name);
    i->n = (int)in.n;
    i->bf16 = in.flags & 1;
    i->ub_rows = (int)in.ub_rows;
    i->wb_rows = (int)in.wb_rows;
    i->acc_rows = (int)in.acc_rows;
    i->vp_rows = (int)in.vp_rows;
    i->mem_kb = in.mem_kb;
    return 0;
}

static int link_open(struct ptpu_device *dev, const char *opts)
{
    (void)opts;
    return ptpu_dev_fail(dev, PTPU_ERR_NO_DEVICE, "link: open through a transport");
}

static void link_close(struct ptpu_device *dev)
{
    struct linkbe *b = dev->be;
    if (!b)
        return;
    if (b->x.close)
        b->x.close(b->x.ctx);
    ptpu_link_host_free(&b->h);
    free(b->tx);
    free(b);
    dev->be = NULL;
}

static int link_write(struct ptpu_device *dev, uint32_t addr, const void *data, size_t len)
{
    struct linkbe *b = dev->be;
    if (b->x.poke)
        return b->x.poke(b->x.ctx, addr, data, len) ? ptpu_dev_fail(dev, PTPU_ERR_RANGE,
                                                                    "backdoor write failed")
                                                    : 0;
    size_t chunk = b->max_payload - 4;
    for (size_t off = 0; off < len; off += chunk) {
        size_t l = len - off < chunk ? len - off : chunk;
        struct ptpu_link_frame f;
        size_t fl = ptpu_link_req_mem_write(b->tx, ++b->seq, addr + (uint32_t)off,
                                            (const uint8_t *)data + off, l);
        int rc = simple(dev, PTPU_PKT_MEM_WRITE, fl, 0, &f);
        if (rc)
            return rc;
    }
    return 0;
}

static int link_read(struct ptpu_device *dev, uint32_t addr, void *data, size_t len)
{
    struct linkbe *b = dev->be;
    if (b->x.peek)
        return b->x.peek(b->x.ctx, addr, data, len) ? ptpu_dev_fail(dev, PTPU_ERR_RANGE,
                                                                    "backdoor read failed")
                                                    : 0;
    size_t chunk = b->max_payload;
    for (size_t off = 0; off < len; off += chunk) {
        size_t l = len - off < chunk ? len - off : chunk;
        struct ptpu_link_frame f;
        int rc = simple(dev, PTPU_PKT_MEM_READ,
                        ptpu_link_req_mem_read(b->tx, ++b->seq, addr + (uint32_t)off, (uint32_t)l),
                        0, &f);
        if (rc)
            return rc;
        if (f.len != l)
            return ptpu_dev_fail(dev, PTPU_ERR_PROTOCOL, "link: MEM_READ of %zu returned %u",
                                 l, f.len);
        memcpy((uint8_t *)data + off, f.payload, l);
    }
    return 0;
}

static int link_start(struct ptpu_device *dev, uint32_t prog_addr, uint32_t ninsns)
{
    struct linkbe *b = dev->be;
    uint64_t mem = (uint64_t)dev->info.mem_kb * 1024;
    struct ptpu_link_window w = {0, mem >= (1ull << 32) ? 0xffffffe0u : (uint32_t)mem, 3};
    struct ptpu_link_frame f;
    if (b->x.hint)
        b->x.hint(b->x.ctx, dev->run_estimate);
    return simple(dev, PTPU_PKT_RUN,
                  ptpu_link_req_run(b->tx, ++b->seq, prog_addr, ninsns, 0, &w, 1), 0, &f);
}

static int link_wait(struct ptpu_device *dev, struct ptpu_run_status *st)
{
    struct linkbe *b = dev->be;
    struct ptpu_link_frame f;
    struct ptpu_link_status s;
    int rc = simple(dev, PTPU_PKT_WAIT, ptpu_link_req_wait(b->tx, ++b->seq, 0),
                    b->x.run_budget ? b->x.run_budget : UINT64_MAX, &f);
    if (rc)
        return rc;
    if (ptpu_link_parse_status(&f, &s))
        return ptpu_dev_fail(dev, PTPU_ERR_PROTOCOL, "link: WAIT response of %u bytes", f.len);
    if (s.state == PTPU_STATE_RUNNING)
        return ptpu_dev_fail(dev, PTPU_ERR_TIMEOUT, "link: the program still runs");
    st->state = (int)s.state;
    st->fault = (int)s.fault;
    st->fault_pc = s.fault_pc;
    st->fault_addr = s.fault_addr;
    struct ptpu_link_counters c;
    rc = simple(dev, PTPU_PKT_COUNTERS, ptpu_link_req_counters(b->tx, ++b->seq), 0, &f);
    if (rc)
        return rc;
    if (ptpu_link_parse_counters(&f, &c))
        return ptpu_dev_fail(dev, PTPU_ERR_PROTOCOL, "link: COUNTERS response of %u bytes",
                             f.len);
    memcpy(st->counters, c.counter, sizeof(st->counters));
    return 0;
}

const struct ptpu_backend_ops ptpu_backend_link = {"link", link_open, link_close, link_write,
                                                   link_read, link_start, link_wait};
