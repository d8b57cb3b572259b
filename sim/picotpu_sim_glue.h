/* SPDX-License-Identifier: Apache-2.0 */
/* picotpu_sim_glue.h - the C view of the Verilated SoC (picotpu_sim_glue.cpp). */
#ifndef PICOTPU_SIM_GLUE_H
#define PICOTPU_SIM_GLUE_H

#include <stdbool.h>
#include <stdint.h>

#include "tb.h"   /* tb_port_t: the port table format shared with the block testbenches */

#ifdef __cplusplus
extern "C" {
#endif

typedef struct psm psm_t;
psm_t *psm_new(void);
void psm_free(psm_t *m);
void psm_eval(psm_t *m);
int psm_ports(psm_t *m, const tb_port_t **ports);
bool psm_trace_open(psm_t *m, const char *path);
void psm_trace_close(psm_t *m);
void psm_trace_dump(psm_t *m, uint64_t time);
bool psm_tracing(const psm_t *m);
bool psm_got_finish(psm_t *m);

#ifdef __cplusplus
}
#endif
#endif
