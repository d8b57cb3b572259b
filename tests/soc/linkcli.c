/* SPDX-License-Identifier: Apache-2.0 */
/* linkcli.c - the link-protocol client of the SoC testbenches (linkcli.h). */
#include "linkcli.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static void lc_fail(struct linkcli *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void lc_fail(struct linkcli *c, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    c->fail(c->ctx, msg);
}

int lc_transact(struct linkcli *c, size_t n, uint8_t type, struct ptpu_link_frame *f,
                uint32_t *status, uint32_t *detail, uint64_t cycles)
{
    uint8_t seq = c->frame[3];
    if (c->dead)
        return -1;
    c->send(c->ctx, c->frame, n);
    int ev = c->recv(c->ctx, f, cycles);
    if (ev != PTPU_LINK_DEC_FRAME) {
        lc_fail(c, "request 0x%02x seq %u: %s", type, seq,
                ev ? "bad frame from the device" : "no response");
        c->dead = c->stop_on_silence;
        return -1;
    }
    int cl = ptpu_link_check_response(f, type, seq, status, detail);
    if (cl == PTPU_LINK_RESP_OTHER)
        lc_fail(c, "request 0x%02x seq %u: unexpected frame type 0x%02x seq %u", type, seq,
                f->type, f->seq);
    return cl;
}

bool lc_req_ok(struct linkcli *c, size_t n, uint8_t type, struct ptpu_link_frame *f,
               uint64_t cycles)
{
    uint32_t st = 0, det = 0;
    int cl = lc_transact(c, n, type, f, &st, &det, cycles);
    if (cl == PTPU_LINK_RESP_ERR)
        lc_fail(c, "request 0x%02x: error status %u detail 0x%x", type, st, det);
    else if (cl == PTPU_LINK_RESP_NAK)
        lc_fail(c, "request 0x%02x: NAK %u", type, st);
    return cl == PTPU_LINK_RESP_OK;
}

bool lc_info(struct linkcli *c, struct ptpu_link_info *info)
{
    struct ptpu_link_frame f;
    size_t n = ptpu_link_req_info(c->frame, ++c->seq);
    if (!lc_req_ok(c, n, PTPU_PKT_INFO, &f, c->rsp_cycles))
        return false;
    if (ptpu_link_parse_info(&f, info)) {
        lc_fail(c, "INFO payload of %u bytes", f.len);
        return false;
    }
    return true;
}

static bool status_rsp(struct linkcli *c, size_t n, uint8_t type, struct ptpu_link_status *st,
                       uint64_t cycles)
{
    struct ptpu_link_frame f;
    if (!lc_req_ok(c, n, type, &f, cycles))
        return false;
    if (ptpu_link_parse_status(&f, st)) {
        lc_fail(c, "STATUS payload of %u bytes", f.len);
        return false;
    }
    return true;
}

bool lc_status(struct linkcli *c, struct ptpu_link_status *st)
{
    size_t n = ptpu_link_req_status(c->frame, ++c->seq);
    return status_rsp(c, n, PTPU_PKT_STATUS, st, c->rsp_cycles);
}

bool lc_wait(struct linkcli *c, uint32_t timeout, struct ptpu_link_status *st, uint64_t cycles)
{
    size_t n = ptpu_link_req_wait(c->frame, ++c->seq, timeout);
    return status_rsp(c, n, PTPU_PKT_WAIT, st, cycles);
}

bool lc_mem_write(struct linkcli *c, uint32_t addr, const uint8_t *p, size_t len)
{
    size_t max = c->info.max_payload - 4;
    while (len) {
        size_t k = len < max ? len : max;
        struct ptpu_link_frame f;
        size_t n = ptpu_link_req_mem_write(c->frame, ++c->seq, addr, p, k);
        if (!lc_req_ok(c, n, PTPU_PKT_MEM_WRITE, &f, c->rsp_cycles))
            return false;
        addr += (uint32_t)k;
        p += k;
        len -= k;
    }
    return true;
}

bool lc_mem_read(struct linkcli *c, uint32_t addr, uint8_t *p, size_t len)
{
    size_t max = c->info.max_payload;
    while (len) {
        size_t k = len < max ? len : max;
        struct ptpu_link_frame f;
        size_t n = ptpu_link_req_mem_read(c->frame, ++c->seq, addr, (uint32_t)k);
        if (!lc_req_ok(c, n, PTPU_PKT_MEM_READ, &f, c->rsp_cycles))
            return false;
        if (f.len != k) {
            lc_fail(c, "MEM_READ of %zu bytes returned %u", k, f.len);
            return false;
        }
        memcpy(p, f.payload, k);
        addr += (uint32_t)k;
        p += k;
        len -= k;
    }
    return true;
}
