/* SPDX-License-Identifier: Apache-2.0 */
/*
 * link_model.h - C model of the link engine (what tpu_link answers to a request with a good
 * CRC, and what it does to memory) and the fake firmware of the link testbench (what the
 * mailbox answers).  The testbench compares every response and every memory byte with it.
 */
#ifndef PICOTPU_LINK_MODEL_H
#define PICOTPU_LINK_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "ptpu_link.h"

struct link_cfg {
    uint32_t max_payload, mem_kb, buf_bytes, max_burst, back_pressure, byte_timeout;
    uint32_t mem_bytes;         /* mem_kb * 1024 */
};

/* Device memory as the model sees it: bytes plus one SLVERR flag per 32-byte beat. */
struct link_mem {
    uint8_t *data;
    uint8_t *poison;            /* mem_bytes / 32 flags */
    uint32_t size;
};

/* The expected response to one request. */
struct link_expect {
    uint8_t type, flags;
    uint16_t len;
    uint8_t payload[65536];
};

/* Expected response to a request with a good CRC; applies MEM_WRITE effects to mem when
 * apply is set (beats with poison are not written, as in the memory system). */
void link_model_request(const struct link_cfg *cfg, struct link_mem *mem, uint8_t type,
                        const uint8_t *payload, uint16_t len, int apply, struct link_expect *e);

/* The fake firmware's answer to a mailbox request: TX type, flags, payload; returns the
 * payload length (at most PTPU_MAILBOX_BYTES). */
int fw_model_respond(const struct link_cfg *cfg, uint8_t type, const uint8_t *payload,
                     uint16_t len, uint8_t *rtype, uint8_t *rflags, uint8_t *out);

/* The link engine serves these types itself. */
int link_model_by_link(uint8_t type);

#endif
