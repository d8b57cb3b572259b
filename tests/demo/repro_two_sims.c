/* SPDX-License-Identifier: Apache-2.0 */
/*
 * repro_two_sims.c - a reproduction for the SoC engineer (not a test: it hangs).
 *
 * Two live simulations in one process; destroying the one created first deadlocks in
 * Verilator 5.006's VerilatedScope destructor, which erases its scope from
 * Verilated::threadContextp(): the context of the *last* model constructed on this
 * thread (the other simulation's, or a destroyed one), not its own.  $error/$finish
 * likewise flag the thread's current context, so an assertion in the first simulation
 * would stop the second.  A fix in sim/picotpu_sim_glue.cpp: call
 * Verilated::threadContextp(&m->ctx) before eval() and before deleting the model.
 *
 *   make build/sim/sim16/libpicotpu_sim.so
 *   cc -Isim/include tests/demo/repro_two_sims.c build/sim/sim16/libpicotpu_sim.so \
 *      -Wl,-rpath,$PWD/build/sim/sim16 -o /tmp/repro && timeout 60 /tmp/repro
 * prints "destroyed b" and then hangs (exit 124 from timeout) in ptpu_sim_destroy(a).
 */
#include <stdio.h>

#include "picotpu_sim.h"

int main(void)
{
    setvbuf(stdout, NULL, _IONBF, 0);
    ptpu_sim_t *a, *b;
    printf("create a: %d\n", ptpu_sim_create("sim16", NULL, &a));
    printf("create b: %d\n", ptpu_sim_create("sim16", NULL, &b));
    ptpu_sim_destroy(b);
    printf("destroyed b\n");
    ptpu_sim_destroy(a);   /* hangs */
    printf("destroyed a\n");
    return 0;
}
