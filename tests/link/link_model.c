/* SPDX-License-Identifier: Apache-2.0 */
/* link_model.c - C model of tpu_link's request handling and the testbench's fake firmware. */
#include "link_model.h"

#include <string.h>
#include <zlib.h>

int link_model_by_link(uint8_t type)
{
    return type == PTPU_PKT_PING || type == PTPU_PKT_MEM_WRITE || type == PTPU_PKT_MEM_READ ||
           type == 0 || type == PTPU_PKT_NAK || (type & 0x80);
}

static void err(struct link_expect *e, uint8_t type, uint32_t status, uint32_t detail)
{
    e->type = type | PTPU_LINK_RESPONSE_BIT;
    e->flags = PTPU_FLAG_ERR;
    e->len = 8;
    ptpu_put32(e->payload, status);
    ptpu_put32(e->payload + 4, detail);
}

static int touches_poison(const struct link_mem *m, uint32_t addr, uint32_t len)
{
    for (uint32_t b = addr / 32; b <= (addr + len - 1) / 32; b++)
        if (m->poison[b])
            return 1;
    return 0;
}

void link_model_request(const struct link_cfg *cfg, struct link_mem *mem, uint8_t type,
                        const uint8_t *p, uint16_t len, int apply, struct link_expect *e)
{
    e->type = type | PTPU_LINK_RESPONSE_BIT;
    e->flags = 0;
    e->len = 0;
    if (type == PTPU_PKT_PING) {
        if (len > PTPU_MAILBOX_BYTES) {
            err(e, type, PTPU_STATUS_BAD_LENGTH, len);
            return;
        }
        e->len = len;
        memcpy(e->payload, p, len);
    } else if (type == PTPU_PKT_MEM_WRITE) {
        if (len < 5) {
            err(e, type, PTPU_STATUS_BAD_LENGTH, len);
            return;
        }
        uint32_t addr = ptpu_get32(p), n = len - 4u;
        if ((uint64_t)addr + n > cfg->mem_bytes) {
            err(e, type, PTPU_STATUS_BAD_ADDRESS, addr);
            return;
        }
        if (apply)
            for (uint32_t i = 0; i < n; i++)
                if (!mem->poison[(addr + i) / 32])
                    mem->data[addr + i] = p[4 + i];
        if (touches_poison(mem, addr, n))
            err(e, type, PTPU_STATUS_BUS_ERROR, addr);
    } else if (type == PTPU_PKT_MEM_READ) {
        if (len != 8) {
            err(e, type, PTPU_STATUS_BAD_LENGTH, len);
            return;
        }
        uint32_t addr = ptpu_get32(p), n = ptpu_get32(p + 4);
        if (n == 0 || n > cfg->max_payload) {
            err(e, type, PTPU_STATUS_BAD_LENGTH, n);
            return;
        }
        if ((uint64_t)addr + n > cfg->mem_bytes) {
            err(e, type, PTPU_STATUS_BAD_ADDRESS, addr);
            return;
        }
        if (touches_poison(mem, addr, n)) {
            err(e, type, PTPU_STATUS_BUS_ERROR, addr);
            return;
        }
        e->len = (uint16_t)n;
        memcpy(e->payload, mem->data + addr, n);
    } else if (type == 0 || type == PTPU_PKT_NAK || (type & 0x80)) {
        err(e, type, PTPU_STATUS_BAD_TYPE, type);
    } else if (len > PTPU_MAILBOX_BYTES) {
        err(e, type, PTPU_STATUS_BAD_LENGTH, len);
    } else {
        uint8_t rt, rf;
        int n = fw_model_respond(cfg, type, p, len, &rt, &rf, e->payload);
        e->type = rt;
        e->flags = rf;
        e->len = (uint16_t)n;
    }
}

static int fw_err(uint8_t type, uint8_t *rtype, uint8_t *rflags, uint8_t *out, uint32_t status,
                  uint32_t detail)
{
    *rtype = type | PTPU_LINK_RESPONSE_BIT;
    *rflags = PTPU_FLAG_ERR;
    ptpu_put32(out, status);
    ptpu_put32(out + 4, detail);
    return 8;
}

int fw_model_respond(const struct link_cfg *cfg, uint8_t type, const uint8_t *p, uint16_t len,
                     uint8_t *rtype, uint8_t *rflags, uint8_t *out)
{
    *rtype = type | PTPU_LINK_RESPONSE_BIT;
    *rflags = 0;
    uint32_t crc = (uint32_t)crc32(crc32(0L, Z_NULL, 0), p, len);
    switch (type) {
    case PTPU_PKT_INFO: {
        if (len != 0)
            return fw_err(type, rtype, rflags, out, PTPU_STATUS_BAD_LENGTH, len);
        struct ptpu_link_info info = {
            .magic = 0x50545055u, .protocol_version = 1, .rtl_version = 0x00010000u,
            .fw_version = 7, .n = 4, .flags = 0, .ub_rows = 256, .wb_rows = 64,
            .acc_rows = 128, .vp_rows = 16, .mem_kb = cfg->mem_kb,
            .max_payload = cfg->max_payload, .num_windows = 4, .config_name = "linktest"};
        return (int)ptpu_link_put_info(out, &info);
    }
    case PTPU_PKT_RUN: {
        uint32_t w = len >= 16 ? ptpu_get32(p + 12) : 0;
        if (len < 16 || w < 1 || w > 4 || len != 16 + 12 * w)
            return fw_err(type, rtype, rflags, out, PTPU_STATUS_BAD_LENGTH, len);
        return 0;
    }
    case PTPU_PKT_STATUS:
    case PTPU_PKT_WAIT: {
        if (len != (type == PTPU_PKT_WAIT ? 4 : 0))
            return fw_err(type, rtype, rflags, out, PTPU_STATUS_BAD_LENGTH, len);
        struct ptpu_link_status st = {PTPU_STATE_DONE, 0, 0, 0,
                                      type == PTPU_PKT_WAIT ? ptpu_get32(p) : 12345};
        return (int)ptpu_link_put_status(out, &st);
    }
    case PTPU_PKT_COUNTERS: {
        if (len != 0)
            return fw_err(type, rtype, rflags, out, PTPU_STATUS_BAD_LENGTH, len);
        struct ptpu_link_counters c;
        memset(&c, 0, sizeof c);
        for (int i = 0; i < PTPU_NUM_COUNTERS; i++)
            c.counter[i] = 0x0102030405060708ull * (uint64_t)(i + 1);
        c.channels = 8;
        for (int ch = 0; ch < 8; ch++) {
            c.rd_bytes[ch] = 1000u * (uint64_t)ch + 1;
            c.wr_bytes[ch] = 2000u * (uint64_t)ch + 2;
        }
        return (int)ptpu_link_put_counters(out, &c);
    }
    case PTPU_PKT_RESET:
        if (len != 0)
            return fw_err(type, rtype, rflags, out, PTPU_STATUS_BAD_LENGTH, len);
        return 0;
    default:
        /* unknown to this firmware: BAD_TYPE; the detail is the payload's CRC so that the
         * test sees whether the payload reached the firmware intact */
        return fw_err(type, rtype, rflags, out, PTPU_STATUS_BAD_TYPE, crc);
    }
}
