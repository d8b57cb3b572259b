/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ptpu_link.h - host side of the picotpu link protocol (docs/isa.md "Link protocol",
 * docs/link.md): frame encoder, incremental frame decoder, request builders and
 * response parsers for every packet type.  CRC-32 is zlib's crc32().
 *
 * Frame: SYNC 0xA5, TYPE, FLAGS, SEQ, LEN (u16 LE), LEN payload bytes, CRC-32 (u32 LE)
 * over TYPE .. the end of the payload.  All payload fields are little endian.
 */
#ifndef PTPU_LINK_H
#define PTPU_LINK_H

#include <stddef.h>
#include <stdint.h>

#include "picotpu_isa.h"

#define PTPU_LINK_OVERHEAD (PTPU_LINK_HEADER_BYTES + PTPU_LINK_CRC_BYTES) /* 10 bytes */
#define PTPU_LINK_MAX_LEN 65535u

/* One decoded frame.  payload points into the decoder's buffer and stays valid until
 * the next ptpu_link_dec_feed() or ptpu_link_dec_reset() call. */
struct ptpu_link_frame {
    uint8_t type, flags, seq;
    uint16_t len;
    const uint8_t *payload;
};

/* CRC-32 of the frame bytes TYPE .. end of payload (zlib crc32). */
uint32_t ptpu_link_crc(const uint8_t *hdr5, const uint8_t *payload, size_t len);

/* Encodes one frame into out (room for len + PTPU_LINK_OVERHEAD bytes).
 * Returns the frame size, or 0 when len > PTPU_LINK_MAX_LEN. */
size_t ptpu_link_encode(uint8_t *out, uint8_t type, uint8_t flags, uint8_t seq,
                        const void *payload, size_t len);

/* ---- incremental decoder ---- */

enum ptpu_link_dec_event {
    PTPU_LINK_DEC_NONE = 0,       /* every byte consumed, no frame complete */
    PTPU_LINK_DEC_FRAME = 1,      /* *frame holds a frame with a good CRC */
    PTPU_LINK_DEC_BAD_CRC = -1,   /* a frame ended with a bad CRC (its header in *frame) */
    PTPU_LINK_DEC_BAD_LENGTH = -2 /* LEN above the decoder's limit: the decoder hunts for SYNC */
};

struct ptpu_link_dec {
    int state;                    /* private */
    size_t pos;                   /* private: bytes of the current part received */
    uint8_t hdr[5];               /* private: TYPE FLAGS SEQ LENL LENH */
    uint8_t crc[4];
    uint16_t len;
    size_t max_len;               /* LEN limit given to ptpu_link_dec_init() */
    uint8_t *buf;                 /* max_len bytes */
    /* statistics */
    uint64_t frames, bad_crc, bad_length, resets_in_frame, skipped;
};

/* max_len: the largest payload accepted (frames with a larger LEN are reported as
 * BAD_LENGTH).  Returns 0 or PTPU_ERR_NO_MEM. */
int ptpu_link_dec_init(struct ptpu_link_dec *d, size_t max_len);
void ptpu_link_dec_free(struct ptpu_link_dec *d);
/* Time-out: drop a partly received frame and hunt for SYNC.  Returns 1 when a frame
 * was in progress (counted in resets_in_frame), else 0. */
int ptpu_link_dec_reset(struct ptpu_link_dec *d);
/* Feeds up to n bytes; stops after the first event.  *used (may be NULL) gets the bytes
 * consumed; feed the rest again.  Returns a ptpu_link_dec_event. */
int ptpu_link_dec_feed(struct ptpu_link_dec *d, const uint8_t *data, size_t n, size_t *used,
                       struct ptpu_link_frame *frame);

/* ---- requests (host to device): each returns the frame size written to out ---- */

size_t ptpu_link_req_ping(uint8_t *out, uint8_t seq, const void *data, size_t len);
size_t ptpu_link_req_info(uint8_t *out, uint8_t seq);
/* out: room for len + 4 + PTPU_LINK_OVERHEAD bytes. */
size_t ptpu_link_req_mem_write(uint8_t *out, uint8_t seq, uint32_t addr, const void *data,
                               size_t len);
size_t ptpu_link_req_mem_read(uint8_t *out, uint8_t seq, uint32_t addr, uint32_t len);
struct ptpu_link_window { uint32_t base, limit, perm; };
size_t ptpu_link_req_run(uint8_t *out, uint8_t seq, uint32_t prog_addr, uint32_t ninsns,
                         uint32_t timeout, const struct ptpu_link_window *win, int nwin);
size_t ptpu_link_req_status(uint8_t *out, uint8_t seq);
size_t ptpu_link_req_wait(uint8_t *out, uint8_t seq, uint32_t timeout);
size_t ptpu_link_req_counters(uint8_t *out, uint8_t seq);
size_t ptpu_link_req_reset(uint8_t *out, uint8_t seq);

/* ---- responses ---- */

/* Classifies a response to a request of type req_type with sequence number seq.
 * *status and *detail may be NULL. */
enum ptpu_link_resp {
    PTPU_LINK_RESP_OK = 0,     /* a good response: TYPE = req_type | 0x80, no ERR flag */
    PTPU_LINK_RESP_ERR = 1,    /* an error response: *status, *detail filled */
    PTPU_LINK_RESP_NAK = 2,    /* a NAK (any SEQ): resend the request; *status = reason */
    PTPU_LINK_RESP_OTHER = 3   /* stale SEQ, another type, malformed ERR or NAK payload */
};
int ptpu_link_check_response(const struct ptpu_link_frame *f, uint8_t req_type, uint8_t seq,
                             uint32_t *status, uint32_t *detail);

struct ptpu_link_info {
    uint32_t magic, protocol_version, rtl_version, fw_version, n, flags;
    uint32_t ub_rows, wb_rows, acc_rows, vp_rows, mem_kb, max_payload, num_windows;
    char config_name[17];
};
#define PTPU_LINK_INFO_BYTES (13 * 4 + 16)
struct ptpu_link_status {
    uint32_t state, fault, fault_pc, fault_addr;
    uint64_t cycles;
};
#define PTPU_LINK_STATUS_BYTES (4 * 4 + 8)
#define PTPU_LINK_MAX_CHANNELS 16
struct ptpu_link_counters {
    uint64_t counter[PTPU_NUM_COUNTERS];
    uint32_t channels;
    uint64_t rd_bytes[PTPU_LINK_MAX_CHANNELS], wr_bytes[PTPU_LINK_MAX_CHANNELS];
};

/* Payload parsers: 0, or -1 when the payload has the wrong size. */
int ptpu_link_parse_info(const struct ptpu_link_frame *f, struct ptpu_link_info *info);
int ptpu_link_parse_status(const struct ptpu_link_frame *f, struct ptpu_link_status *st);
int ptpu_link_parse_counters(const struct ptpu_link_frame *f, struct ptpu_link_counters *c);

/* Response payload builders (firmware models, device models): return payload bytes. */
size_t ptpu_link_put_info(uint8_t *out, const struct ptpu_link_info *info);
size_t ptpu_link_put_status(uint8_t *out, const struct ptpu_link_status *st);
size_t ptpu_link_put_counters(uint8_t *out, const struct ptpu_link_counters *c);
/* Error response frame (flag ERR, TYPE = req_type | 0x80, payload status, detail). */
size_t ptpu_link_resp_err(uint8_t *out, uint8_t req_type, uint8_t seq, uint32_t status,
                          uint32_t detail);
size_t ptpu_link_resp_nak(uint8_t *out, uint8_t seq, uint8_t reason);

/* ---- request/response with retries (the host rules of docs/link.md) ----
 *
 * One request at a time.  The caller owns the line and the clock ("now" in any unit, the
 * same as timeout and quiet): it sends h->frame whenever a call returns
 * PTPU_LINK_HOST_SEND, calls ptpu_link_host_sent() once the last byte is out, feeds every
 * byte from the device to ptpu_link_host_rx() and calls ptpu_link_host_poll() as time
 * passes.  Rules: resend after a NAK with our SEQ once the line has been quiet both ways
 * for `quiet`, which must exceed the device's byte time-out (PTPU_BYTE_TIMEOUT_CYCLES, in
 * the caller's unit, plus whatever the transport still holds) so that the device has
 * given up any fake frame begun inside the request before the resend arrives; ignore NAKs
 * with other SEQs and responses with other SEQs; resend after `timeout` without a
 * response (the decoder is reset); a NAK_LENGTH for a frame longer than
 * device_max_payload is final; give up after max_attempts sends. */
enum ptpu_link_host_state {
    PTPU_LINK_HOST_IDLE = 0,
    PTPU_LINK_HOST_SEND = 1,     /* (re)send h->frame now */
    PTPU_LINK_HOST_WAIT = 2,     /* waiting for the response */
    PTPU_LINK_HOST_DONE = 3,     /* h->resp holds the answer (see h->resp_kind) */
    PTPU_LINK_HOST_FAILED = 4    /* max_attempts sends without an answer */
};

struct ptpu_link_host {
    struct ptpu_link_dec dec;
    uint8_t *frame;              /* the request frame */
    size_t frame_len, frame_cap;
    uint8_t type, seq;
    int state, attempts, max_attempts, nak_pending, sent;
    uint64_t timeout, quiet, sent_at, last_rx;
    uint32_t device_max_payload; /* from INFO; 65535 until known */
    /* the answer (DONE): a copy of the frame, resp_kind a PTPU_LINK_RESP_* value
     * (PTPU_LINK_RESP_NAK only for the final NAK_LENGTH), status/detail of ERR or NAK */
    struct ptpu_link_frame resp;
    uint8_t *resp_buf;
    int resp_kind;
    uint32_t status, detail;
    /* statistics */
    uint64_t tries, naks, foreign_naks, stale, timeouts;
};

/* max_response: the largest response payload expected.  Returns 0 or -1 (no memory). */
int ptpu_link_host_init(struct ptpu_link_host *h, size_t max_response, uint64_t timeout,
                        uint64_t quiet, int max_attempts);
void ptpu_link_host_free(struct ptpu_link_host *h);
/* Starts a request: frame (from a ptpu_link_req_* builder) is copied; returns SEND, or
 * -1 when out of memory. */
int ptpu_link_host_request(struct ptpu_link_host *h, const uint8_t *frame, size_t len);
/* The last byte of h->frame has left at time now. */
void ptpu_link_host_sent(struct ptpu_link_host *h, uint64_t now);
/* Bytes from the device; returns the state. */
int ptpu_link_host_rx(struct ptpu_link_host *h, const uint8_t *data, size_t n, uint64_t now);
/* Time passes; returns the state. */
int ptpu_link_host_poll(struct ptpu_link_host *h, uint64_t now);
/* In WAIT: the time at which ptpu_link_host_poll() acts next (a resend after the quiet
 * that follows a NAK, or the time-out), for a caller that sleeps until then. */
uint64_t ptpu_link_host_deadline(const struct ptpu_link_host *h);

static inline void ptpu_put32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); p[2] = (uint8_t)(v >> 16); p[3] = (uint8_t)(v >> 24);
}
static inline uint32_t ptpu_get32(const uint8_t *p)
{
    return p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static inline void ptpu_put64(uint8_t *p, uint64_t v)
{
    ptpu_put32(p, (uint32_t)v); ptpu_put32(p + 4, (uint32_t)(v >> 32));
}
static inline uint64_t ptpu_get64(const uint8_t *p)
{
    return ptpu_get32(p) | (uint64_t)ptpu_get32(p + 4) << 32;
}

#endif
