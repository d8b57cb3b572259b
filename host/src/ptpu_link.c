/* SPDX-License-Identifier: Apache-2.0 */
/* ptpu_link.c - link frame codec, request builders and response parsers (ptpu_link.h). */
#include "ptpu_link.h"

#include <stdlib.h>
#include <string.h>
#include <zlib.h>

uint32_t ptpu_link_crc(const uint8_t *hdr5, const uint8_t *payload, size_t len)
{
    uLong c = crc32(0L, Z_NULL, 0);
    c = crc32(c, hdr5, 5);
    if (len)
        c = crc32(c, payload, (uInt)len);
    return (uint32_t)c;
}

size_t ptpu_link_encode(uint8_t *out, uint8_t type, uint8_t flags, uint8_t seq,
                        const void *payload, size_t len)
{
    if (len > PTPU_LINK_MAX_LEN)
        return 0;
    out[0] = PTPU_LINK_SYNC;
    out[1] = type;
    out[2] = flags;
    out[3] = seq;
    out[4] = (uint8_t)len;
    out[5] = (uint8_t)(len >> 8);
    if (len && payload != out + PTPU_LINK_HEADER_BYTES)
        memmove(out + PTPU_LINK_HEADER_BYTES, payload, len);
    ptpu_put32(out + PTPU_LINK_HEADER_BYTES + len,
               ptpu_link_crc(out + 1, out + PTPU_LINK_HEADER_BYTES, len));
    return len + PTPU_LINK_OVERHEAD;
}

/* ---- decoder ---- */

enum { D_HUNT, D_HDR, D_PAY, D_CRC };

int ptpu_link_dec_init(struct ptpu_link_dec *d, size_t max_len)
{
    memset(d, 0, sizeof *d);
    if (max_len > PTPU_LINK_MAX_LEN)
        max_len = PTPU_LINK_MAX_LEN;
    d->max_len = max_len;
    d->buf = malloc(max_len ? max_len : 1);
    return d->buf ? 0 : -1;
}

void ptpu_link_dec_free(struct ptpu_link_dec *d)
{
    free(d->buf);
    d->buf = NULL;
}

int ptpu_link_dec_reset(struct ptpu_link_dec *d)
{
    int was = d->state != D_HUNT;
    d->state = D_HUNT;
    d->pos = 0;
    d->resets_in_frame += (uint64_t)was;
    return was;
}

static void fill_frame(const struct ptpu_link_dec *d, struct ptpu_link_frame *f)
{
    if (!f)
        return;
    f->type = d->hdr[0];
    f->flags = d->hdr[1];
    f->seq = d->hdr[2];
    f->len = d->len;
    f->payload = d->buf;
}

int ptpu_link_dec_feed(struct ptpu_link_dec *d, const uint8_t *data, size_t n, size_t *used,
                       struct ptpu_link_frame *frame)
{
    size_t i = 0;
    int ev = PTPU_LINK_DEC_NONE;
    while (i < n && ev == PTPU_LINK_DEC_NONE) {
        uint8_t b = data[i++];
        switch (d->state) {
        case D_HUNT:
            if (b == PTPU_LINK_SYNC) {
                d->state = D_HDR;
                d->pos = 0;
            } else {
                d->skipped++;
            }
            break;
        case D_HDR:
            d->hdr[d->pos++] = b;
            if (d->pos == 5) {
                d->len = (uint16_t)(d->hdr[3] | d->hdr[4] << 8);
                d->pos = 0;
                if (d->len > d->max_len) {
                    d->state = D_HUNT;
                    d->bad_length++;
                    fill_frame(d, frame);
                    ev = PTPU_LINK_DEC_BAD_LENGTH;
                } else {
                    d->state = d->len ? D_PAY : D_CRC;
                }
            }
            break;
        case D_PAY: {
            /* copy as much payload as is available in one go */
            size_t take = d->len - d->pos, avail = n - i + 1;
            if (take > avail)
                take = avail;
            memcpy(d->buf + d->pos, data + i - 1, take);
            d->pos += take;
            i += take - 1;
            if (d->pos == d->len) {
                d->state = D_CRC;
                d->pos = 0;
            }
            break;
        }
        case D_CRC:
            d->crc[d->pos++] = b;
            if (d->pos == 4) {
                d->state = D_HUNT;
                d->pos = 0;
                fill_frame(d, frame);
                if (ptpu_get32(d->crc) == ptpu_link_crc(d->hdr, d->buf, d->len)) {
                    d->frames++;
                    ev = PTPU_LINK_DEC_FRAME;
                } else {
                    d->bad_crc++;
                    ev = PTPU_LINK_DEC_BAD_CRC;
                }
            }
            break;
        }
    }
    if (used)
        *used = i;
    return ev;
}

/* ---- requests ---- */

size_t ptpu_link_req_ping(uint8_t *out, uint8_t seq, const void *data, size_t len)
{
    return ptpu_link_encode(out, PTPU_PKT_PING, 0, seq, data, len);
}

size_t ptpu_link_req_info(uint8_t *out, uint8_t seq)
{
    return ptpu_link_encode(out, PTPU_PKT_INFO, 0, seq, NULL, 0);
}

size_t ptpu_link_req_mem_write(uint8_t *out, uint8_t seq, uint32_t addr, const void *data,
                               size_t len)
{
    uint8_t *p = out + PTPU_LINK_HEADER_BYTES;
    if (len)
        memmove(p + 4, data, len);
    ptpu_put32(p, addr);
    return ptpu_link_encode(out, PTPU_PKT_MEM_WRITE, 0, seq, p, len + 4);
}

size_t ptpu_link_req_mem_read(uint8_t *out, uint8_t seq, uint32_t addr, uint32_t len)
{
    uint8_t p[8];
    ptpu_put32(p, addr);
    ptpu_put32(p + 4, len);
    return ptpu_link_encode(out, PTPU_PKT_MEM_READ, 0, seq, p, 8);
}

size_t ptpu_link_req_run(uint8_t *out, uint8_t seq, uint32_t prog_addr, uint32_t ninsns,
                         uint32_t timeout, const struct ptpu_link_window *win, int nwin)
{
    uint8_t *p = out + PTPU_LINK_HEADER_BYTES;
    if (nwin < 0)
        nwin = 0;
    ptpu_put32(p, prog_addr);
    ptpu_put32(p + 4, ninsns);
    ptpu_put32(p + 8, timeout);
    ptpu_put32(p + 12, (uint32_t)nwin);
    for (int w = 0; w < nwin; w++) {
        ptpu_put32(p + 16 + 12 * w, win[w].base);
        ptpu_put32(p + 20 + 12 * w, win[w].limit);
        ptpu_put32(p + 24 + 12 * w, win[w].perm);
    }
    return ptpu_link_encode(out, PTPU_PKT_RUN, 0, seq, p, 16 + 12 * (size_t)nwin);
}

size_t ptpu_link_req_status(uint8_t *out, uint8_t seq)
{
    return ptpu_link_encode(out, PTPU_PKT_STATUS, 0, seq, NULL, 0);
}

size_t ptpu_link_req_wait(uint8_t *out, uint8_t seq, uint32_t timeout)
{
    uint8_t p[4];
    ptpu_put32(p, timeout);
    return ptpu_link_encode(out, PTPU_PKT_WAIT, 0, seq, p, 4);
}

size_t ptpu_link_req_counters(uint8_t *out, uint8_t seq)
{
    return ptpu_link_encode(out, PTPU_PKT_COUNTERS, 0, seq, NULL, 0);
}

size_t ptpu_link_req_reset(uint8_t *out, uint8_t seq)
{
    return ptpu_link_encode(out, PTPU_PKT_RESET, 0, seq, NULL, 0);
}

/* ---- responses ---- */

int ptpu_link_check_response(const struct ptpu_link_frame *f, uint8_t req_type, uint8_t seq,
                             uint32_t *status, uint32_t *detail)
{
    if (f->type == PTPU_PKT_NAK) {
        if (f->len != 1)
            return PTPU_LINK_RESP_OTHER;
        if (status)
            *status = f->payload[0];
        return PTPU_LINK_RESP_NAK;
    }
    if (f->seq != seq || f->type != (uint8_t)(req_type | PTPU_LINK_RESPONSE_BIT))
        return PTPU_LINK_RESP_OTHER;
    if (f->flags & PTPU_FLAG_ERR) {
        if (f->len != 8)
            return PTPU_LINK_RESP_OTHER;
        if (status)
            *status = ptpu_get32(f->payload);
        if (detail)
            *detail = ptpu_get32(f->payload + 4);
        return PTPU_LINK_RESP_ERR;
    }
    return PTPU_LINK_RESP_OK;
}

int ptpu_link_parse_info(const struct ptpu_link_frame *f, struct ptpu_link_info *info)
{
    if (f->len != PTPU_LINK_INFO_BYTES)
        return -1;
    const uint8_t *p = f->payload;
    uint32_t *w[13] = {&info->magic, &info->protocol_version, &info->rtl_version,
                       &info->fw_version, &info->n, &info->flags, &info->ub_rows,
                       &info->wb_rows, &info->acc_rows, &info->vp_rows, &info->mem_kb,
                       &info->max_payload, &info->num_windows};
    for (int i = 0; i < 13; i++)
        *w[i] = ptpu_get32(p + 4 * i);
    memcpy(info->config_name, p + 52, 16);
    info->config_name[16] = 0;
    return 0;
}

size_t ptpu_link_put_info(uint8_t *out, const struct ptpu_link_info *info)
{
    const uint32_t w[13] = {info->magic, info->protocol_version, info->rtl_version,
                            info->fw_version, info->n, info->flags, info->ub_rows,
                            info->wb_rows, info->acc_rows, info->vp_rows, info->mem_kb,
                            info->max_payload, info->num_windows};
    for (int i = 0; i < 13; i++)
        ptpu_put32(out + 4 * i, w[i]);
    memset(out + 52, 0, 16);
    memcpy(out + 52, info->config_name, strnlen(info->config_name, 16));
    return PTPU_LINK_INFO_BYTES;
}

int ptpu_link_parse_status(const struct ptpu_link_frame *f, struct ptpu_link_status *st)
{
    if (f->len != PTPU_LINK_STATUS_BYTES)
        return -1;
    st->state = ptpu_get32(f->payload);
    st->fault = ptpu_get32(f->payload + 4);
    st->fault_pc = ptpu_get32(f->payload + 8);
    st->fault_addr = ptpu_get32(f->payload + 12);
    st->cycles = ptpu_get64(f->payload + 16);
    return 0;
}

size_t ptpu_link_put_status(uint8_t *out, const struct ptpu_link_status *st)
{
    ptpu_put32(out, st->state);
    ptpu_put32(out + 4, st->fault);
    ptpu_put32(out + 8, st->fault_pc);
    ptpu_put32(out + 12, st->fault_addr);
    ptpu_put64(out + 16, st->cycles);
    return PTPU_LINK_STATUS_BYTES;
}

int ptpu_link_parse_counters(const struct ptpu_link_frame *f, struct ptpu_link_counters *c)
{
    size_t base = 8 * PTPU_NUM_COUNTERS;
    if (f->len < base + 4)
        return -1;
    for (int i = 0; i < PTPU_NUM_COUNTERS; i++)
        c->counter[i] = ptpu_get64(f->payload + 8 * i);
    c->channels = ptpu_get32(f->payload + base);
    if (c->channels > PTPU_LINK_MAX_CHANNELS || f->len != base + 4 + 16 * c->channels)
        return -1;
    for (uint32_t ch = 0; ch < c->channels; ch++) {
        c->rd_bytes[ch] = ptpu_get64(f->payload + base + 4 + 16 * ch);
        c->wr_bytes[ch] = ptpu_get64(f->payload + base + 12 + 16 * ch);
    }
    return 0;
}

size_t ptpu_link_put_counters(uint8_t *out, const struct ptpu_link_counters *c)
{
    size_t base = 8 * PTPU_NUM_COUNTERS;
    uint32_t nch = c->channels > PTPU_LINK_MAX_CHANNELS ? PTPU_LINK_MAX_CHANNELS : c->channels;
    for (int i = 0; i < PTPU_NUM_COUNTERS; i++)
        ptpu_put64(out + 8 * i, c->counter[i]);
    ptpu_put32(out + base, nch);
    for (uint32_t ch = 0; ch < nch; ch++) {
        ptpu_put64(out + base + 4 + 16 * ch, c->rd_bytes[ch]);
        ptpu_put64(out + base + 12 + 16 * ch, c->wr_bytes[ch]);
    }
    return base + 4 + 16 * nch;
}

size_t ptpu_link_resp_err(uint8_t *out, uint8_t req_type, uint8_t seq, uint32_t status,
                          uint32_t detail)
{
    uint8_t p[8];
    ptpu_put32(p, status);
    ptpu_put32(p + 4, detail);
    return ptpu_link_encode(out, (uint8_t)(req_type | PTPU_LINK_RESPONSE_BIT), PTPU_FLAG_ERR,
                            seq, p, 8);
}

size_t ptpu_link_resp_nak(uint8_t *out, uint8_t seq, uint8_t reason)
{
    return ptpu_link_encode(out, PTPU_PKT_NAK, 0, seq, &reason, 1);
}

/* ---- request/response with retries ---- */

int ptpu_link_host_init(struct ptpu_link_host *h, size_t max_response, uint64_t timeout,
                        uint64_t quiet, int max_attempts)
{
    memset(h, 0, sizeof *h);
    if (ptpu_link_dec_init(&h->dec, max_response) != 0)
        return -1;
    h->resp_buf = malloc(max_response ? max_response : 1);
    if (!h->resp_buf) {
        ptpu_link_dec_free(&h->dec);
        return -1;
    }
    h->timeout = timeout;
    h->quiet = quiet;
    h->max_attempts = max_attempts > 0 ? max_attempts : 1;
    h->device_max_payload = PTPU_LINK_MAX_LEN;
    return 0;
}

void ptpu_link_host_free(struct ptpu_link_host *h)
{
    ptpu_link_dec_free(&h->dec);
    free(h->frame);
    free(h->resp_buf);
    h->frame = h->resp_buf = NULL;
}

static int host_send(struct ptpu_link_host *h)
{
    if (h->attempts >= h->max_attempts) {
        h->state = PTPU_LINK_HOST_FAILED;
        return h->state;
    }
    h->attempts++;
    h->tries++;
    h->nak_pending = 0;
    h->sent = 0;
    h->state = PTPU_LINK_HOST_SEND;
    return h->state;
}

int ptpu_link_host_request(struct ptpu_link_host *h, const uint8_t *frame, size_t len)
{
    if (len > h->frame_cap) {
        uint8_t *p = realloc(h->frame, len);
        if (!p)
            return -1;
        h->frame = p;
        h->frame_cap = len;
    }
    memcpy(h->frame, frame, len);
    h->frame_len = len;
    h->type = frame[1];
    h->seq = frame[3];
    h->attempts = 0;
    return host_send(h);
}

void ptpu_link_host_sent(struct ptpu_link_host *h, uint64_t now)
{
    if (h->state == PTPU_LINK_HOST_SEND) {
        h->sent = 1;
        h->sent_at = now;
        h->state = PTPU_LINK_HOST_WAIT;
    }
}

static void host_done(struct ptpu_link_host *h, const struct ptpu_link_frame *f, int kind)
{
    h->resp = *f;
    if (f->len)
        memcpy(h->resp_buf, f->payload, f->len);
    h->resp.payload = h->resp_buf;
    h->resp_kind = kind;
    h->state = PTPU_LINK_HOST_DONE;
}

int ptpu_link_host_rx(struct ptpu_link_host *h, const uint8_t *data, size_t n, uint64_t now)
{
    if (n)
        h->last_rx = now;
    while (n > 0) {
        size_t used;
        struct ptpu_link_frame f;
        int ev = ptpu_link_dec_feed(&h->dec, data, n, &used, &f);
        data += used;
        n -= used;
        /* decoder errors: keep waiting (the time-out resends); a response may come while
         * the request is still being sent (a NAK for a bad LEN, or the answer to an
         * earlier copy of the same request) */
        if (ev != PTPU_LINK_DEC_FRAME ||
            (h->state != PTPU_LINK_HOST_WAIT && h->state != PTPU_LINK_HOST_SEND))
            continue;
        uint32_t st = 0, det = 0;
        int c = ptpu_link_check_response(&f, h->type, h->seq, &st, &det);
        if (c == PTPU_LINK_RESP_NAK && f.seq == h->seq) {
            h->naks++;
            uint16_t len = (uint16_t)(h->frame[4] | h->frame[5] << 8);
            h->status = st;
            if (st == PTPU_NAK_LENGTH && len > h->device_max_payload)
                host_done(h, &f, PTPU_LINK_RESP_NAK);
            else
                h->nak_pending = 1;
        } else if (c == PTPU_LINK_RESP_NAK) {
            h->foreign_naks++;
        } else if (c == PTPU_LINK_RESP_OTHER && !(f.seq == h->seq &&
                   f.type == (uint8_t)(h->type | PTPU_LINK_RESPONSE_BIT))) {
            h->stale++;
        } else {
            /* ours: good, ERR, or malformed (OTHER with our SEQ and type) */
            h->status = st;
            h->detail = det;
            host_done(h, &f, c);
        }
    }
    return h->state;
}

/* The end of the quiet after a NAK with our SEQ: measured from the later of the last byte
 * in and the last byte out, because a NAK can come while the request is still going out
 * (the answer to a fake frame inside it) and the device's parser gives a fake frame up
 * only `ByteTimeout` after the last byte it got. */
static uint64_t quiet_end(const struct ptpu_link_host *h)
{
    return (h->last_rx > h->sent_at ? h->last_rx : h->sent_at) + h->quiet;
}

uint64_t ptpu_link_host_deadline(const struct ptpu_link_host *h)
{
    uint64_t end = h->sent_at + h->timeout;
    if (h->nak_pending && quiet_end(h) < end)
        end = quiet_end(h);
    return end;
}

int ptpu_link_host_poll(struct ptpu_link_host *h, uint64_t now)
{
    if (h->state != PTPU_LINK_HOST_WAIT)
        return h->state;
    if (h->nak_pending && now >= quiet_end(h))
        return host_send(h);
    if (now - h->sent_at >= h->timeout) {
        h->timeouts++;
        ptpu_link_dec_reset(&h->dec);
        return host_send(h);
    }
    return h->state;
}
