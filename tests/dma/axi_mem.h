/* SPDX-License-Identifier: Apache-2.0 */
/*
 * axi_mem.h - AXI4 slave memory model for the DMA testbench.
 *
 * One ID, in-order responses, INCR bursts.  Random (or fixed) latency and
 * back-pressure on every channel, SLVERR on poisoned beats, DECERR beyond the
 * memory.  It checks the master's side of the protocol: aligned addresses,
 * burst length limit, no 4 KB crossing, the expected ID, wlast on the right
 * beat, no W data ahead of its AW, valid held until ready.
 */
#ifndef PICOTPU_AXI_MEM_H
#define PICOTPU_AXI_MEM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tb.h"

#define AXI_MAX_BEAT_BYTES 512
#define AXI_QUEUE 4096

typedef struct axi_burst {
    uint64_t addr;
    int len;            /* beats - 1 */
    uint64_t ready_at;  /* cycle from which the first beat / response may go */
    int resp;
} axi_burst_t;

/* Timing knobs: percentages are the chance per cycle that a ready/valid is
 * offered; latency is uniform in [lat_min, lat_max] cycles. */
typedef struct axi_timing {
    unsigned ar_ready, r_valid, aw_ready, w_ready, b_valid;
    int lat_min, lat_max;
} axi_timing_t;

/* Pins of one cycle: what the master drives (sampled) and what we drive. */
typedef struct axi_master_pins {
    bool arvalid; uint64_t araddr; int arlen; unsigned arid;
    bool rready;
    bool awvalid; uint64_t awaddr; int awlen; unsigned awid;
    bool wvalid; const uint32_t *wdata; const uint32_t *wstrb; bool wlast;
    bool bready;
} axi_master_pins_t;

typedef struct axi_slave_pins {
    bool arready;
    bool rvalid; uint8_t rdata[AXI_MAX_BEAT_BYTES]; int rresp; bool rlast;
    bool awready;
    bool wready;
    bool bvalid; int bresp;
} axi_slave_pins_t;

typedef struct axi_mem {
    tb_t *tb;
    int beat_bytes, addr_width, max_burst;
    unsigned id;
    uint8_t *mem;
    size_t mem_size;
    uint8_t *poison;    /* one flag per beat */
    axi_timing_t t;

    /* read side */
    axi_burst_t ar[AXI_QUEUE];
    int ar_head, ar_n, r_beat;
    /* write side: accepted AWs waiting for data, and B responses */
    axi_burst_t aw[AXI_QUEUE];
    int aw_head, aw_n, w_beat, w_resp;
    axi_burst_t b[AXI_QUEUE];
    int b_head, b_n;
    /* write burst log since the last axi_mem_clear_log() */
    axi_burst_t wlog[AXI_QUEUE];
    int wlog_n;

    axi_slave_pins_t out;   /* what we drive this cycle */
    uint64_t cycle;

    /* statistics */
    uint64_t rbeats, wbeats, ar_count, aw_count;
    int errors;
    char err[256];
} axi_mem_t;

void axi_mem_init(axi_mem_t *s, tb_t *tb, int beat_bytes, int addr_width, int max_burst,
                  uint8_t *mem, size_t mem_size, uint8_t *poison);
/* Decide this cycle's slave outputs (call before evaluating the DUT). */
void axi_mem_drive(axi_mem_t *s);
/* Account for the handshakes of this cycle, given the master's pins. */
void axi_mem_update(axi_mem_t *s, const axi_master_pins_t *m);
bool axi_mem_idle(const axi_mem_t *s);
void axi_mem_clear_log(axi_mem_t *s);

#endif
