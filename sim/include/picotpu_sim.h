/* SPDX-License-Identifier: Apache-2.0 */
/*
 * picotpu_sim.h - the whole picotpu SoC (rtl/soc/tpu_soc.sv), Verilated, as a C library.
 *
 * One library per configuration: build/sim/<config>/libpicotpu_sim.a (`make sim`), with the
 * HBM2 device model (sim/hbm2) on every pseudo-channel and the command-processor firmware
 * loaded at run time.  The host talks to the simulated device through its link byte
 * stream, exactly as through the UART of a board:
 *
 *     ptpu_sim_t *s;
 *     if (ptpu_sim_create("sim16", NULL, &s) < 0) ...       // NULL: the default firmware
 *     ptpu_sim_link_send(s, frame, frame_len);             // request bytes
 *     while (!(n = ptpu_sim_link_recv(s, buf, sizeof buf)))
 *         ptpu_sim_step(s, 1000);                          // run the SoC
 *     ptpu_sim_destroy(s);
 *
 * Cycles are clock cycles of the one SoC clock (the HBM2 command clock, tCK = 1 ns).
 * Functions return 0 (or a count) on success and a negative PTPU_SIM_E* code on failure.
 */
#ifndef PICOTPU_SIM_H
#define PICOTPU_SIM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PTPU_SIM_API_VERSION 1

/* Error codes: X(name, value, description) */
#define PTPU_SIM_ERROR_LIST(X) \
    X(OK, 0, "success") \
    X(ARG, -1, "invalid argument") \
    X(CONFIG, -2, "this library was built for another configuration") \
    X(FIRMWARE, -3, "cannot read the firmware image, or it does not fit the firmware RAM") \
    X(NO_MEM, -4, "out of host memory") \
    X(EXITED, -5, "the firmware ended the simulation (EXIT register; an unhandled trap)") \
    X(STOPPED, -6, "the RTL stopped the simulation (assertion, $fatal or HBM2 timing violation)") \
    X(RANGE, -7, "address range outside device memory") \
    X(TRACE, -8, "cannot open the trace file")
#define PTPU_SIM_X_ENUM(name, value, desc) PTPU_SIM_E##name = value,
enum ptpu_sim_error { PTPU_SIM_ERROR_LIST(PTPU_SIM_X_ENUM) };
#undef PTPU_SIM_X_ENUM
const char *ptpu_sim_error_name(int err);   /* "PTPU_SIM_EARG" ... */
const char *ptpu_sim_strerror(int err);     /* the description */

/* The configuration the library was built for (mk/configs.mk, SOC_CFG_<name>). */
struct ptpu_sim_info {
    const char *config;        /* "sim16" */
    int n, bf16, ub_rows, wb_rows, acc_rows, vp_rows;
    int num_pch;               /* HBM2 pseudo-channels */
    uint32_t mem_kb;           /* device memory */
    int gran_bytes, row_bits, bank_hash;  /* address interleave (docs/memory.md) */
    int fw_ram_kb;             /* firmware RAM */
    const char *default_firmware;         /* image used when create() gets NULL */
};
const struct ptpu_sim_info *ptpu_sim_info(void);

typedef struct ptpu_sim ptpu_sim_t;

/* Builds the SoC, loads the firmware image (a raw .bin from address 0; NULL: the
 * environment variable PTPU_SIM_FIRMWARE, else info->default_firmware) through the boot
 * port during reset, and releases reset.  config: NULL, "" or the library's configuration. */
int ptpu_sim_create(const char *config, const char *firmware, ptpu_sim_t **out);
void ptpu_sim_destroy(ptpu_sim_t *s);

/* Runs `cycles` clock cycles.  Returns 0, or EXITED / STOPPED: the simulation is over and
 * every later step returns the same code. */
int ptpu_sim_step(ptpu_sim_t *s, uint64_t cycles);
uint64_t ptpu_sim_cycles(const ptpu_sim_t *s);   /* cycles since reset was released */

/* Link byte stream.  send() queues bytes for the device (the port offers one byte per
 * cycle while the link engine takes them); recv() returns bytes the device has sent
 * (it takes one per cycle). */
int ptpu_sim_link_send(ptpu_sim_t *s, const void *data, size_t len);
size_t ptpu_sim_link_pending(const ptpu_sim_t *s);   /* queued bytes not yet taken */
size_t ptpu_sim_link_recv(ptpu_sim_t *s, void *buf, size_t max);
/* Libraries built with the UART link PHY (PTPU_SIM_LINK_UART): the bytes of send() and
 * recv() cross the SoC's UART pins, sent and received at `baud` (0: unchanged) in
 * `format` (sim/uart_model.h: the FTDI SET_DATA bits; 8 = 8N1).  Returns the receiver's
 * errors since the last call (1 framing, 2 parity, 4 break); ARG without a UART. */
int ptpu_sim_link_uart(ptpu_sim_t *s, uint32_t baud, unsigned format);

/* Console: bytes the firmware wrote to the CONSOLE register.  read() drains them; with an
 * echo callback set, every byte is also passed on as it is written.  PTPU_SIM_CONSOLE=1 in
 * the environment echoes to stderr. */
size_t ptpu_sim_console_read(ptpu_sim_t *s, char *buf, size_t max);
void ptpu_sim_on_console(ptpu_sim_t *s, void (*fn)(void *ctx, char c), void *ctx);
/* 1 and *code = the value written to EXIT once the firmware has exited, else 0. */
int ptpu_sim_exit_code(const ptpu_sim_t *s, uint32_t *code);

/* Memory-system counters of channel c (tpu_mem_sys cnt_o, docs/memory.md): reads,
 * writes, bytes, row hits, misses, conflicts, refreshes, busy and idle cycles. */
#define PTPU_SIM_MEM_COUNTERS 9
int ptpu_sim_mem_counters(const ptpu_sim_t *s, int channel, uint32_t out[PTPU_SIM_MEM_COUNTERS]);
/* HBM2 device-model statistics summed over the channels. */
struct ptpu_sim_hbm_stats { uint64_t act, pre, refresh, rd, wr, violations; };
void ptpu_sim_hbm_stats(const ptpu_sim_t *s, struct ptpu_sim_hbm_stats *out);

/* FST waveform of every signal from now until trace_stop() or destroy(). */
int ptpu_sim_trace_start(ptpu_sim_t *s, const char *path);
void ptpu_sim_trace_stop(ptpu_sim_t *s);

/* Memory backdoor: reads and writes device memory directly in the HBM2 models' storage,
 * through the interleaver's address mapping, in zero simulated time.  For preloading
 * weights and programs and for reading results; use it only while nothing in the SoC
 * accesses the same bytes (no MEM_WRITE/MEM_READ or program in flight on them), since it
 * bypasses the memory controller's queues.  Returns RANGE outside device memory. */
int ptpu_sim_mem_write(ptpu_sim_t *s, uint32_t addr, const void *data, size_t len);
int ptpu_sim_mem_read(ptpu_sim_t *s, uint32_t addr, void *data, size_t len);

#ifdef __cplusplus
}
#endif
#endif
