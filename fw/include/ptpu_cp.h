/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ptpu_cp.h - the command layer both command-processor firmwares compile
 * (fw/src/cp/cp_serve.c): the requests the full SoC's link engine leaves to its firmware
 * (INFO, RUN, STATUS, WAIT, COUNTERS, RESET; docs/isa.md "Link packets"), their length
 * checks, the RUN validation, RUN dedup by SEQ, the deferred WAIT and RESET, with the
 * replies, statuses and details of docs/firmware.md.
 *
 * Each firmware is a port: it gets the requests to the layer (cp_serve) and implements
 * the cp_port_* functions below for what differs between the SoCs: how a response is
 * sent, how a program is started, watched and stopped, the clock, INFO's device
 * description and COUNTERS.  The full SoC's port is fw/src/cp/cmdproc.c (mailbox, TPU
 * registers), the lite's fw/lite/lite_link.c (UART frames, the ISA interpreter).
 * The ports are bound at link time: no function pointers.
 */
#ifndef PTPU_CP_H
#define PTPU_CP_H

#include <stdbool.h>
#include <stdint.h>

/* The last program's outcome (STATUS and WAIT): the layer sets it at RUN and RESET, the
 * port when the program ends (DONE, or FAULT with the code, pc and address). */
struct cp_prog {
    bool running;
    uint32_t state, fault, fault_pc, fault_addr;
};
extern struct cp_prog cp_prog;

/* Power-on state: idle, no program, no deferred WAIT, no previous request.  mem_bytes and
 * num_windows bound the RUN checks (device memory, protection windows). */
void cp_init(uint64_t mem_bytes, uint32_t num_windows);
/* One request: its TYPE, SEQ, payload length and payload (at least 16 + 12 * num_windows
 * bytes readable; the port has checked len against the mailbox size). */
void cp_serve(uint8_t type, uint8_t seq, uint32_t len, const uint32_t *payload);
/* Answers a deferred WAIT whose program has ended or whose time-out has passed. */
void cp_wait_poll(void);
/* An error response: flag ERR, payload u32 status, u32 detail. */
void cp_send_error(uint8_t type, uint8_t seq, uint32_t status, uint32_t detail);

/* ------------------------------------------------------------------ what a port implements */

/* The response to a request of TYPE (the port adds the response bit): len bytes from p. */
void cp_port_send(uint8_t type, uint8_t flags, uint8_t seq, const uint32_t *p, uint32_t len);
uint64_t cp_port_time(void);      /* the clock that WAIT time-outs count in (cycles) */
void cp_port_poll(void);          /* brings cp_prog up to date (the full SoC polls the TPU) */
uint64_t cp_port_cycles(void);    /* STATUS cycles: live while running, else the last program's */
/* INFO: the port fills words 2..11 and 13..16 of the payload (RTL and firmware versions,
 * array, buffers, memory, max payload, configuration name; docs/isa.md); the layer has
 * set the magic, the protocol version and the window count, the rest is zero. */
void cp_port_info(uint32_t p[17]);
/* RUN accepted: program the windows (nw of them, {base, limit, perm} each; the others
 * closed), restart the program's counters and start it.  cp_prog says RUNNING already. */
void cp_port_start(uint32_t addr, uint32_t n, uint32_t timeout, uint32_t nw, const uint32_t *win);
void cp_port_counters(uint8_t seq);   /* sends the COUNTERS response */
void cp_port_abort(void);         /* RESET: stops a running program (it ends as FAULT ABORTED) */
void cp_port_idle(void);          /* RESET: every window closed, STATUS cycles 0 */

#endif
