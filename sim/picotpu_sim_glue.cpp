// SPDX-License-Identifier: Apache-2.0
// picotpu_sim_glue.cpp - the one C++ file of the simulation library: builds the
// Verilated SoC, evaluates it, opens and closes its FST trace, and lists its ports
// (the table comes from sim/tb/gen_ports.sh, as for the block testbenches).
// Built with VM_TRACE=0 for a model Verilated without --trace-fst (the benchmark library,
// tests/soc/test.mk "sim-fast"): opening a trace then fails with a message.
#include <verilated.h>
#if VM_TRACE
#include <verilated_fst_c.h>
#else
#include <cstdio>
#endif

#include "Vmodel.h"
#include "picotpu_sim_glue.h"

struct psm {
    VerilatedContext ctx;
    Vmodel *top;
#if VM_TRACE
    VerilatedFstC *fst = nullptr;
#else
    void *fst = nullptr;   // never set: no tracing in this library
#endif
    bool traced = false;   // trace() registered (once per model)
    tb_port_t ports[128];
    int nports = 0;
};

template <typename T> static int store_of() { return int(sizeof(T) * 8); }

// Verilator 5.006 keeps one "current context" per thread (scopes, $error, $finish go to
// it): make it this model's before anything that runs the model, so that several
// simulations can live in one process (tests/demo/repro_two_sims.c).
static inline void use(psm_t *m) { Verilated::threadContextp(&m->ctx); }

extern "C" {

psm_t *psm_new(void)
{
    psm_t *m = new psm();
    m->ctx.fatalOnError(false);  // an assertion ends the run through gotFinish()
#if VM_TRACE
    m->ctx.traceEverOn(true);
#endif
    m->top = new Vmodel(&m->ctx, "soc");
    Vmodel *t = m->top;
#define TB_PORT(nm, msb, lsb, in)                                                      \
    m->ports[m->nports++] = tb_port_t{#nm, (void *)&t->nm, (msb) - (lsb) + 1,           \
                                      store_of<decltype(t->nm)>(), in};
#define TB_PORTW(nm, msb, lsb, in)                                                     \
    m->ports[m->nports++] = tb_port_t{#nm, (void *)t->nm.data(), (msb) - (lsb) + 1, 0, in};
#include "tb_ports.inc"
#undef TB_PORT
#undef TB_PORTW
    return m;
}

void psm_trace_close(psm_t *m)
{
#if VM_TRACE
    if (m->fst) {
        m->fst->close();
        delete m->fst;
        m->fst = nullptr;
    }
#else
    (void)m;
#endif
}

void psm_free(psm_t *m)
{
    use(m);
    psm_trace_close(m);
    m->top->final();
    delete m->top;
    delete m;
}

void psm_eval(psm_t *m)
{
    use(m);
    m->top->eval();
}

int psm_ports(psm_t *m, const tb_port_t **ports)
{
    *ports = m->ports;
    return m->nports;
}

bool psm_trace_open(psm_t *m, const char *path)
{
    use(m);
    psm_trace_close(m);
#if !VM_TRACE
    fprintf(stderr, "picotpu_sim: this library was built without tracing (the benchmark "
                    "library); use build/sim/<config>/libpicotpu_sim.so to write %s\n", path);
    return false;
#else
    m->fst = new VerilatedFstC;
    m->top->trace(m->fst, 99);
    m->fst->open(path);
    if (!m->fst->isOpen()) {
        delete m->fst;
        m->fst = nullptr;
        return false;
    }
    return true;
#endif
}

void psm_trace_dump(psm_t *m, uint64_t time)
{
#if VM_TRACE
    if (m->fst)
        m->fst->dump(time);
#else
    (void)m;
    (void)time;
#endif
}

bool psm_tracing(const psm_t *m) { return m->fst != nullptr; }

bool psm_got_finish(psm_t *m) { return m->ctx.gotFinish() || m->ctx.gotError(); }

}  // extern "C"
