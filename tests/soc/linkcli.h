/* SPDX-License-Identifier: Apache-2.0 */
/*
 * linkcli.h - the link-protocol client of the SoC testbenches (tests/soc/tb_soc.c on the
 * sim library, tests/boardsoc/tb_boardsoc.c on the generic tb API): one request, its
 * response checked for type and SEQ, and the requests built on it.  The testbench supplies
 * the transport (send bytes; run the device until a frame or a decoder event arrives) and
 * how a failure is reported.
 */
#ifndef LINKCLI_H
#define LINKCLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ptpu_link.h"

struct linkcli {
    void *ctx;
    void (*send)(void *ctx, const uint8_t *p, size_t n);
    /* Runs until a frame or a decoder event arrives (the event) or `cycles` pass (0). */
    int (*recv)(void *ctx, struct ptpu_link_frame *f, uint64_t cycles);
    void (*fail)(void *ctx, const char *msg);
    uint64_t rsp_cycles;        /* the longest wait for a response without a program */
    bool stop_on_silence;       /* after a request without a response, fail the rest at once */
    bool dead;
    uint8_t seq;
    uint8_t frame[PTPU_LINK_MAX_LEN + 16];
    struct ptpu_link_info info; /* max_payload bounds MEM_WRITE/MEM_READ chunks */
};

/* Sends the request in c->frame (n bytes) and waits for its response in *f; returns its
 * class (PTPU_LINK_RESP_*) or -1 when nothing usable came (reported). */
int lc_transact(struct linkcli *c, size_t n, uint8_t type, struct ptpu_link_frame *f,
                uint32_t *status, uint32_t *detail, uint64_t cycles);
/* As lc_transact, and an error or NAK response is reported: true on OK. */
bool lc_req_ok(struct linkcli *c, size_t n, uint8_t type, struct ptpu_link_frame *f,
               uint64_t cycles);
bool lc_info(struct linkcli *c, struct ptpu_link_info *info);
bool lc_status(struct linkcli *c, struct ptpu_link_status *st);
bool lc_wait(struct linkcli *c, uint32_t timeout, struct ptpu_link_status *st, uint64_t cycles);
/* In chunks of the device's largest payload. */
bool lc_mem_write(struct linkcli *c, uint32_t addr, const uint8_t *p, size_t len);
bool lc_mem_read(struct linkcli *c, uint32_t addr, uint8_t *p, size_t len);

#endif
