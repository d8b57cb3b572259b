// SPDX-License-Identifier: Apache-2.0
// tb_glue.cpp - the one C++ file between a Verilated block and its C testbench.
//
// Compiled once per model with -I<model dir>; the port table comes from
// tb_ports.inc, which mk/tb.mk generates from the Verilated header Vmodel.h.
#include <verilated.h>

#include "Vmodel.h"
#include "tb.h"
#if VM_TRACE
#include <verilated_fst_c.h>
#endif

struct tbm {
    VerilatedContext ctx;
    Vmodel *top;
#if VM_TRACE
    VerilatedFstC *fst = nullptr;
#endif
    tb_port_t ports[256];
    int nports = 0;
};

template <typename T> static int store_of() { return int(sizeof(T) * 8); }

extern "C" {

tbm_t *tbm_new(const char *name)
{
    tbm_t *m = new tbm();
    m->ctx.fatalOnError(false);  // an assertion ends the run through gotFinish()
#if VM_TRACE
    m->ctx.traceEverOn(true);
#endif
    m->top = new Vmodel(&m->ctx, name);
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

void tbm_free(tbm_t *m)
{
    m->top->final();
#if VM_TRACE
    if (m->fst) {
        m->fst->close();
        delete m->fst;
    }
#endif
    delete m->top;
    delete m;
}

void tbm_eval(tbm_t *m) { m->top->eval(); }

int tbm_ports(tbm_t *m, const tb_port_t **ports)
{
    *ports = m->ports;
    return m->nports;
}

bool tbm_trace_open(tbm_t *m, const char *path)
{
#if VM_TRACE
    m->fst = new VerilatedFstC;
    m->top->trace(m->fst, 99);
    m->fst->open(path);
    return true;
#else
    (void)m;
    (void)path;
    return false;
#endif
}

void tbm_trace_dump(tbm_t *m, uint64_t time)
{
#if VM_TRACE
    if (m->fst)
        m->fst->dump(time);
#else
    (void)m;
    (void)time;
#endif
}

bool tbm_got_finish(tbm_t *m) { return m->ctx.gotFinish() || m->ctx.gotError(); }

}  // extern "C"
