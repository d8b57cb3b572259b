/* SPDX-License-Identifier: Apache-2.0 */
/*
 * tb_link_codec.c - test of the host frame codec (host/src/ptpu_link.c) against zlib, and of
 * the byte-wise CRC-32 that tpu_crc32 implements (including the residue check the RTL
 * parser uses).  Pure C, no RTL.  Prints its seed, accepts --seed N.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zlib.h>

#include "ptpu_link.h"

static uint64_t rng_s;
static uint32_t rnd(void)
{
    rng_s = rng_s * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(rng_s >> 33);
}
static uint32_t rnd_range(uint32_t lo, uint32_t hi) { return lo + rnd() % (hi - lo + 1); }

static int g_errors;
static char g_first[256];
#define CHECK(cond, ...)                                                        \
    do {                                                                        \
        if (!(cond) && g_errors++ == 0)                                         \
            snprintf(g_first, sizeof g_first, __VA_ARGS__);                     \
    } while (0)

/* The RTL's byte step (tpu_crc32.sv) in C. */
static uint32_t crc_step(uint32_t c, uint8_t b)
{
    c ^= b;
    for (int i = 0; i < 8; i++)
        c = (c >> 1) ^ ((c & 1) ? 0xEDB88320u : 0);
    return c;
}

static int test_crc(void)
{
    uint8_t m[600];
    for (int it = 0; it < 2000; it++) {
        uint32_t n = rnd_range(0, 512);
        for (uint32_t i = 0; i < n; i++)
            m[i] = (uint8_t)rnd();
        uint32_t c = 0xffffffffu;
        for (uint32_t i = 0; i < n; i++)
            c = crc_step(c, m[i]);
        uint32_t z = (uint32_t)crc32(crc32(0L, Z_NULL, 0), m, n);
        CHECK(~c == z, "crc: byte step %08x vs zlib %08x (n %u)", ~c, z, n);
        ptpu_put32(m + n, z);
        uint32_t r = 0xffffffffu;
        for (uint32_t i = 0; i < n + 4; i++)
            r = crc_step(r, m[i]);
        CHECK(r == 0xDEBB20E3u, "crc: residue %08x (n %u)", r, n);
        if (n) {   /* any single-bit error breaks the residue */
            m[rnd_range(0, n + 3)] ^= (uint8_t)(1u << rnd_range(0, 7));
            r = 0xffffffffu;
            for (uint32_t i = 0; i < n + 4; i++)
                r = crc_step(r, m[i]);
            CHECK(r != 0xDEBB20E3u, "crc: bit error not detected (n %u)", n);
        }
    }
    return 2000;
}

static uint8_t stream[1 << 22];

/* Frames with garbage between them, fed in random pieces; every frame must come out in
 * order with its contents, every corrupted one as BAD_CRC, every long one as BAD_LENGTH. */
static int test_stream(void)
{
    enum { NF = 400 };
    static uint8_t pay[NF][1100];
    static uint16_t plen[NF];
    static int kind[NF];  /* 0 good, 1 bad CRC, 2 too long */
    size_t n = 0;
    const size_t maxlen = 1000;
    for (int f = 0; f < NF; f++) {
        /* garbage without SYNC between frames */
        for (uint32_t g = rnd_range(0, 5); g > 0; g--) {
            uint8_t b = (uint8_t)rnd();
            stream[n++] = b == PTPU_LINK_SYNC ? 0 : b;
        }
        kind[f] = rnd_range(0, 9) == 0 ? 1 : (rnd_range(0, 19) == 0 ? 2 : 0);
        plen[f] = (uint16_t)(kind[f] == 2 ? rnd_range(maxlen + 1, 1080) : rnd_range(0, maxlen));
        for (int i = 0; i < plen[f]; i++) {
            pay[f][i] = (uint8_t)rnd();
            if (kind[f] == 2 && pay[f][i] == PTPU_LINK_SYNC)
                pay[f][i] = 1;   /* the long frame's rest is hunted through */
        }
        size_t fl = ptpu_link_encode(stream + n, (uint8_t)(f & 0x7f), (uint8_t)f,
                                     (uint8_t)(f * 7), pay[f], plen[f]);
        if (kind[f] == 1)   /* payload or CRC: the frame keeps its length */
            stream[n + 6 + rnd_range(0, (uint32_t)fl - 7)] ^= (uint8_t)(1u << rnd_range(0, 7));
        if (kind[f] == 2) {   /* the CRC bytes could hold a SYNC: drop them */
            fl -= 4;
        }
        n += fl;
    }
    struct ptpu_link_dec d;
    if (ptpu_link_dec_init(&d, maxlen) != 0)
        return 0;
    size_t pos = 0;
    int f = 0;
    while (pos < n) {
        size_t piece = rnd_range(1, 3000), used;
        if (piece > n - pos)
            piece = n - pos;
        struct ptpu_link_frame fr;
        int ev = ptpu_link_dec_feed(&d, stream + pos, piece, &used, &fr);
        pos += used;
        if (ev == PTPU_LINK_DEC_NONE)
            continue;
        if (f >= NF) {
            CHECK(0, "stream: more events than frames");
            break;
        }
        if (ev == PTPU_LINK_DEC_FRAME) {
            CHECK(kind[f] == 0 && fr.flags == (uint8_t)f && fr.len == plen[f] &&
                  fr.type == (f & 0x7f) && fr.seq == (uint8_t)(f * 7) &&
                  memcmp(fr.payload, pay[f], plen[f]) == 0,
                  "stream: frame %d (kind %d) decoded wrong (flags %u len %u)", f, kind[f],
                  fr.flags, fr.len);
            f++;
        } else if (ev == PTPU_LINK_DEC_BAD_LENGTH) {
            CHECK(kind[f] == 2, "stream: frame %d: unexpected BAD_LENGTH", f);
            f++;
        } else {
            CHECK(kind[f] == 1, "stream: frame %d (kind %d): unexpected bad CRC", f, kind[f]);
            f++;
        }
    }
    uint64_t good = 0;
    for (int i = 0; i < NF; i++)
        good += kind[i] == 0;
    CHECK(d.frames == good, "stream: %" PRIu64 " good frames decoded of %" PRIu64, d.frames, good);
    /* a time-out in the middle of a frame */
    uint8_t fr1[64];
    size_t l = ptpu_link_req_mem_read(fr1, 5, 0x1234, 99);
    size_t used;
    struct ptpu_link_frame x;
    CHECK(ptpu_link_dec_feed(&d, fr1, 7, &used, &x) == PTPU_LINK_DEC_NONE, "timeout: partial");
    CHECK(ptpu_link_dec_reset(&d) == 1, "timeout: reset inside a frame returns 1");
    CHECK(ptpu_link_dec_reset(&d) == 0, "timeout: reset while hunting returns 0");
    CHECK(ptpu_link_dec_feed(&d, fr1, l, &used, &x) == PTPU_LINK_DEC_FRAME && used == l &&
          x.type == PTPU_PKT_MEM_READ && x.len == 8 && ptpu_get32(x.payload + 4) == 99,
          "timeout: the next frame decodes");
    ptpu_link_dec_free(&d);
    return NF;
}

static int test_packets(void)
{
    uint8_t buf[8192], p[256];
    struct ptpu_link_dec d;
    struct ptpu_link_frame f;
    size_t used;
    if (ptpu_link_dec_init(&d, 4096) != 0)
        return 0;
    /* every request builder gives a frame with the right type and payload */
    struct ptpu_link_window w[3] = {{1, 2, 3}, {4, 5, 6}, {7, 8, 9}};
    for (int i = 0; i < 200; i++)
        p[i] = (uint8_t)i;
    size_t n;
    n = ptpu_link_req_ping(buf, 1, p, 200);
    CHECK(ptpu_link_dec_feed(&d, buf, n, &used, &f) == PTPU_LINK_DEC_FRAME &&
          f.type == PTPU_PKT_PING && f.len == 200 && memcmp(f.payload, p, 200) == 0, "ping");
    n = ptpu_link_req_mem_write(buf, 2, 0xdeadbeef, p, 100);
    CHECK(ptpu_link_dec_feed(&d, buf, n, &used, &f) == PTPU_LINK_DEC_FRAME &&
          f.type == PTPU_PKT_MEM_WRITE && f.len == 104 && ptpu_get32(f.payload) == 0xdeadbeef &&
          memcmp(f.payload + 4, p, 100) == 0, "mem_write");
    n = ptpu_link_req_run(buf, 3, 0x100, 7, 1000, w, 3);
    CHECK(ptpu_link_dec_feed(&d, buf, n, &used, &f) == PTPU_LINK_DEC_FRAME &&
          f.type == PTPU_PKT_RUN && f.len == 52 && ptpu_get32(f.payload + 12) == 3 &&
          ptpu_get32(f.payload + 48) == 9, "run");
    n = ptpu_link_req_wait(buf, 4, 55);
    CHECK(ptpu_link_dec_feed(&d, buf, n, &used, &f) == PTPU_LINK_DEC_FRAME &&
          f.type == PTPU_PKT_WAIT && f.len == 4 && ptpu_get32(f.payload) == 55, "wait");
    size_t (*empty[])(uint8_t *, uint8_t) = {ptpu_link_req_info, ptpu_link_req_status,
                                             ptpu_link_req_counters, ptpu_link_req_reset};
    uint8_t et[] = {PTPU_PKT_INFO, PTPU_PKT_STATUS, PTPU_PKT_COUNTERS, PTPU_PKT_RESET};
    for (int i = 0; i < 4; i++) {
        n = empty[i](buf, (uint8_t)(10 + i));
        CHECK(n == 10 && ptpu_link_dec_feed(&d, buf, n, &used, &f) == PTPU_LINK_DEC_FRAME &&
              f.type == et[i] && f.len == 0 && f.seq == 10 + i, "empty request %d", i);
    }
    /* response payloads round trip */
    struct ptpu_link_info info = {0x50545055u, 1, 2, 3, 16, 1, 4096, 1024, 2048, 256, 262144,
                                  4096, 4, "sim16"}, info2;
    n = ptpu_link_put_info(p, &info);
    size_t fl = ptpu_link_encode(buf, PTPU_PKT_INFO | 0x80, 0, 9, p, n);
    CHECK(ptpu_link_dec_feed(&d, buf, fl, &used, &f) == PTPU_LINK_DEC_FRAME &&
          ptpu_link_check_response(&f, PTPU_PKT_INFO, 9, NULL, NULL) == PTPU_LINK_RESP_OK &&
          ptpu_link_parse_info(&f, &info2) == 0 && info2.mem_kb == 262144 &&
          strcmp(info2.config_name, "sim16") == 0, "info");
    struct ptpu_link_status st = {2, 5, 6, 7, 0x123456789abull}, st2;
    n = ptpu_link_put_status(p, &st);
    fl = ptpu_link_encode(buf, PTPU_PKT_STATUS | 0x80, 0, 9, p, n);
    CHECK(ptpu_link_dec_feed(&d, buf, fl, &used, &f) == PTPU_LINK_DEC_FRAME &&
          ptpu_link_parse_status(&f, &st2) == 0 && st2.cycles == st.cycles &&
          st2.fault_addr == 7, "status");
    struct ptpu_link_counters c, c2;
    memset(&c, 0, sizeof c);
    c.channels = 8;
    for (int i = 0; i < PTPU_NUM_COUNTERS; i++)
        c.counter[i] = (uint64_t)i << 40 | (uint64_t)i;
    c.wr_bytes[7] = 77;
    n = ptpu_link_put_counters(p, &c);
    fl = ptpu_link_encode(buf, PTPU_PKT_COUNTERS | 0x80, 0, 9, p, n);
    CHECK(ptpu_link_dec_feed(&d, buf, fl, &used, &f) == PTPU_LINK_DEC_FRAME &&
          ptpu_link_parse_counters(&f, &c2) == 0 && c2.channels == 8 && c2.wr_bytes[7] == 77 &&
          c2.counter[14] == c.counter[14], "counters");
    /* classification of responses */
    uint32_t s = 0, dt = 0;
    fl = ptpu_link_resp_err(buf, PTPU_PKT_MEM_READ, 4, PTPU_STATUS_BAD_ADDRESS, 0x1000);
    CHECK(ptpu_link_dec_feed(&d, buf, fl, &used, &f) == PTPU_LINK_DEC_FRAME &&
          ptpu_link_check_response(&f, PTPU_PKT_MEM_READ, 4, &s, &dt) == PTPU_LINK_RESP_ERR &&
          s == PTPU_STATUS_BAD_ADDRESS && dt == 0x1000, "err response");
    CHECK(ptpu_link_check_response(&f, PTPU_PKT_MEM_READ, 5, &s, &dt) == PTPU_LINK_RESP_OTHER,
          "stale SEQ");
    fl = ptpu_link_resp_nak(buf, 77, PTPU_NAK_CRC);
    CHECK(ptpu_link_dec_feed(&d, buf, fl, &used, &f) == PTPU_LINK_DEC_FRAME &&
          ptpu_link_check_response(&f, PTPU_PKT_PING, 4, &s, NULL) == PTPU_LINK_RESP_NAK &&
          s == PTPU_NAK_CRC, "nak");
    ptpu_link_dec_free(&d);
    return 14;
}

/* The retry helper on a scripted line: NAK with our SEQ, foreign NAK, stale response,
 * time-out, final NAK_LENGTH, giving up. */
static int test_host(void)
{
    struct ptpu_link_host h;
    uint8_t req[64], rsp[64];
    if (ptpu_link_host_init(&h, 4096, 1000, 50, 3) != 0)
        return 0;
    size_t n = ptpu_link_req_mem_read(req, 7, 0x100, 4);
    CHECK(ptpu_link_host_request(&h, req, n) == PTPU_LINK_HOST_SEND && h.frame_len == n,
          "host: request");
    ptpu_link_host_sent(&h, 10);
    CHECK(ptpu_link_host_poll(&h, 20) == PTPU_LINK_HOST_WAIT, "host: waits");
    size_t m = ptpu_link_resp_nak(rsp, 9, PTPU_NAK_CRC);           /* foreign NAK */
    CHECK(ptpu_link_host_rx(&h, rsp, m, 30) == PTPU_LINK_HOST_WAIT && h.foreign_naks == 1,
          "host: foreign NAK ignored");
    m = ptpu_link_resp_nak(rsp, 7, PTPU_NAK_CRC);                  /* our NAK */
    CHECK(ptpu_link_host_rx(&h, rsp, m, 40) == PTPU_LINK_HOST_WAIT, "host: NAK");
    CHECK(ptpu_link_host_poll(&h, 60) == PTPU_LINK_HOST_WAIT, "host: NAK, line not quiet");
    CHECK(ptpu_link_host_poll(&h, 95) == PTPU_LINK_HOST_SEND && h.attempts == 2,
          "host: resend after NAK and quiet");
    ptpu_link_host_sent(&h, 100);
    uint8_t data[4] = {1, 2, 3, 4};
    m = ptpu_link_encode(rsp, PTPU_PKT_MEM_READ | 0x80, 0, 6, data, 4);   /* stale SEQ */
    CHECK(ptpu_link_host_rx(&h, rsp, m, 110) == PTPU_LINK_HOST_WAIT && h.stale == 1,
          "host: stale response ignored");
    CHECK(ptpu_link_host_poll(&h, 1100) == PTPU_LINK_HOST_SEND && h.timeouts == 1,
          "host: time-out resends");
    ptpu_link_host_sent(&h, 1110);
    m = ptpu_link_encode(rsp, PTPU_PKT_MEM_READ | 0x80, 0, 7, data, 4);
    CHECK(ptpu_link_host_rx(&h, rsp, m, 1120) == PTPU_LINK_HOST_DONE &&
          h.resp_kind == PTPU_LINK_RESP_OK && h.resp.len == 4 && h.resp.payload[3] == 4,
          "host: done");
    /* a NAK with our SEQ while the request is still going out (the answer to a fake frame
     * inside it): the quiet counts from the last byte out, not from the NAK, so that the
     * device's parser has given the fake frame up before the resend */
    ptpu_link_host_request(&h, req, n);
    m = ptpu_link_resp_nak(rsp, 7, PTPU_NAK_LENGTH);
    CHECK(ptpu_link_host_rx(&h, rsp, m, 1200) == PTPU_LINK_HOST_SEND && h.nak_pending,
          "host: NAK while sending");
    ptpu_link_host_sent(&h, 1300);
    CHECK(ptpu_link_host_deadline(&h) == 1350 &&
          ptpu_link_host_poll(&h, 1349) == PTPU_LINK_HOST_WAIT,
          "host: quiet from the last byte out (deadline %llu)",
          (unsigned long long)ptpu_link_host_deadline(&h));
    CHECK(ptpu_link_host_poll(&h, 1350) == PTPU_LINK_HOST_SEND && h.attempts == 2 &&
          h.timeouts == 1, "host: resend after the quiet");
    ptpu_link_host_sent(&h, 1400);
    CHECK(ptpu_link_host_deadline(&h) == 2400, "host: no NAK, the deadline is the time-out");
    /* giving up */
    ptpu_link_host_request(&h, req, n);
    for (int i = 0; i < 3; i++) {
        ptpu_link_host_sent(&h, 2000 + 2000u * (unsigned)i);
        int st = ptpu_link_host_poll(&h, 3000 + 2000u * (unsigned)i);
        CHECK(st == (i < 2 ? PTPU_LINK_HOST_SEND : PTPU_LINK_HOST_FAILED), "host: attempt %d", i);
    }
    /* NAK_LENGTH is final for a frame above the device's limit, else a resend */
    static uint8_t big[400];
    n = ptpu_link_req_ping(big, 8, big + 100, 280);
    h.device_max_payload = 256;
    ptpu_link_host_request(&h, big, n);
    m = ptpu_link_resp_nak(rsp, 8, PTPU_NAK_LENGTH);
    CHECK(ptpu_link_host_rx(&h, rsp, m, 5000) == PTPU_LINK_HOST_DONE &&
          h.resp_kind == PTPU_LINK_RESP_NAK, "host: final NAK_LENGTH");
    ptpu_link_host_free(&h);
    return 16;
}

int main(int argc, char **argv)
{
    uint64_t seed = (uint64_t)time(NULL);
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc)
            seed = strtoull(argv[++i], NULL, 0);
    if (getenv("SEED"))
        seed = strtoull(getenv("SEED"), NULL, 0);
    rng_s = seed;
    printf("# tb_link_codec: seed=%" PRIu64 " (re-run with --seed %" PRIu64 ")\n", seed, seed);
    int n = test_crc();
    int m = test_stream();
    int k = test_packets() + test_host();
    if (g_errors) {
        printf("FAIL link_codec: %s; %d error(s) (seed=%" PRIu64 ")\n", g_first, g_errors, seed);
        return 1;
    }
    printf("PASS link_codec crc_messages=%d stream_frames=%d packet_checks=%d\n", n, m, k);
    return 0;
}
