/* SPDX-License-Identifier: Apache-2.0 */
/* axi_mem.c - AXI4 slave memory model with random timing and error injection. */
#include "axi_mem.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static void fail(axi_mem_t *s, const char *fmt, ...)
{
    if (s->errors++ == 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(s->err, sizeof s->err, fmt, ap);
        va_end(ap);
    }
}

void axi_mem_init(axi_mem_t *s, tb_t *tb, int beat_bytes, int addr_width, int max_burst,
                  uint8_t *mem, size_t mem_size, uint8_t *poison)
{
    memset(s, 0, sizeof *s);
    s->tb = tb;
    s->beat_bytes = beat_bytes;
    s->addr_width = addr_width;
    s->max_burst = max_burst;
    s->mem = mem;
    s->mem_size = mem_size;
    s->poison = poison;
    s->t = (axi_timing_t){100, 100, 100, 100, 100, 1, 1};
}

static int lat(axi_mem_t *s)
{
    return (int)tb_rand_range(s->tb, s->t.lat_min, s->t.lat_max);
}

static bool offer(axi_mem_t *s, unsigned pct)
{
    return pct >= 100 || tb_chance(s->tb, pct, 100);
}

static int beat_resp(const axi_mem_t *s, uint64_t a)
{
    if (a + (uint64_t)s->beat_bytes > s->mem_size)
        return 3; /* DECERR */
    if (s->poison && s->poison[a / (uint64_t)s->beat_bytes])
        return 2; /* SLVERR */
    return 0;
}

void axi_mem_drive(axi_mem_t *s)
{
    axi_slave_pins_t *o = &s->out;
    /* A valid already offered stays until it is taken. */
    o->arready = s->ar_n < AXI_QUEUE && offer(s, s->t.ar_ready);
    o->awready = s->aw_n < AXI_QUEUE && offer(s, s->t.aw_ready);
    o->wready = offer(s, s->t.w_ready);
    if (!o->rvalid && s->ar_n > 0 && s->ar[s->ar_head].ready_at <= s->cycle &&
        offer(s, s->t.r_valid)) {
        const axi_burst_t *bu = &s->ar[s->ar_head];
        uint64_t a = bu->addr + (uint64_t)s->r_beat * s->beat_bytes;
        o->rvalid = true;
        o->rresp = beat_resp(s, a);
        o->rlast = s->r_beat == bu->len;
        if (o->rresp == 0)
            memcpy(o->rdata, s->mem + a, s->beat_bytes);
        else
            for (int i = 0; i < s->beat_bytes; i++)
                o->rdata[i] = (uint8_t)tb_rand32(s->tb); /* garbage on an error */
    }
    if (!o->bvalid && s->b_n > 0 && s->b[s->b_head].ready_at <= s->cycle &&
        offer(s, s->t.b_valid)) {
        o->bvalid = true;
        o->bresp = s->b[s->b_head].resp;
    }
}

static void check_burst(axi_mem_t *s, const char *ch, uint64_t addr, int len, unsigned id)
{
    uint64_t bytes = (uint64_t)(len + 1) * s->beat_bytes;
    if (addr % (uint64_t)s->beat_bytes)
        fail(s, "%s address 0x%llx not aligned to %d", ch, (unsigned long long)addr, s->beat_bytes);
    if (len + 1 > s->max_burst)
        fail(s, "%s burst of %d beats > MaxBurst %d", ch, len + 1, s->max_burst);
    if (addr / 4096 != (addr + bytes - 1) / 4096)
        fail(s, "%s burst 0x%llx+%llu crosses 4 KB", ch, (unsigned long long)addr,
             (unsigned long long)bytes);
    if (s->addr_width < 64 && (addr + bytes - 1) >> s->addr_width)
        fail(s, "%s burst 0x%llx beyond the address space", ch, (unsigned long long)addr);
    if (id != s->id)
        fail(s, "%s ID %u, expected %u", ch, id, s->id);
}

void axi_mem_update(axi_mem_t *s, const axi_master_pins_t *m)
{
    axi_slave_pins_t *o = &s->out;

    if (m->arvalid && o->arready) {
        check_burst(s, "AR", m->araddr, m->arlen, m->arid);
        int i = (s->ar_head + s->ar_n++) % AXI_QUEUE;
        s->ar[i] = (axi_burst_t){m->araddr, m->arlen, s->cycle + 1 + (uint64_t)lat(s), 0};
        s->ar_count++;
    }
    if (o->rvalid && m->rready) {
        s->rbeats++;
        o->rvalid = false;
        if (++s->r_beat > s->ar[s->ar_head].len) {
            s->r_beat = 0;
            s->ar_head = (s->ar_head + 1) % AXI_QUEUE;
            s->ar_n--;
        }
    }

    if (m->awvalid && o->awready) {
        check_burst(s, "AW", m->awaddr, m->awlen, m->awid);
        int i = (s->aw_head + s->aw_n++) % AXI_QUEUE;
        s->aw[i] = (axi_burst_t){m->awaddr, m->awlen, 0, 0};
        s->aw_count++;
    }
    if (m->wvalid && o->wready) {
        /* An AW accepted in this same cycle counts: it is already queued. */
        if (s->aw_n == 0) {
            fail(s, "W beat with no AW outstanding");
        } else {
            axi_burst_t *bu = &s->aw[s->aw_head];
            uint64_t a = bu->addr + (uint64_t)s->w_beat * s->beat_bytes;
            int r = beat_resp(s, a);
            if (r > s->w_resp)
                s->w_resp = r;
            if (r == 0) {
                const uint8_t *d = (const uint8_t *)m->wdata;
                for (int i = 0; i < s->beat_bytes; i++)
                    if ((m->wstrb[i / 32] >> (i % 32)) & 1)
                        s->mem[a + i] = d[i];
            }
            s->wbeats++;
            bool last = s->w_beat == bu->len;
            if (m->wlast != last)
                fail(s, "wlast=%d on beat %d of a %d-beat burst at 0x%llx", m->wlast, s->w_beat,
                     bu->len + 1, (unsigned long long)bu->addr);
            if (last) {
                int i = (s->b_head + s->b_n++) % AXI_QUEUE;
                s->b[i] = (axi_burst_t){bu->addr, bu->len, s->cycle + 1 + (uint64_t)lat(s),
                                        s->w_resp};
                if (s->wlog_n < AXI_QUEUE)
                    s->wlog[s->wlog_n++] = s->b[i];
                s->w_resp = 0;
                s->w_beat = 0;
                s->aw_head = (s->aw_head + 1) % AXI_QUEUE;
                s->aw_n--;
            } else {
                s->w_beat++;
            }
        }
    }
    if (o->bvalid && m->bready) {
        o->bvalid = false;
        s->b_head = (s->b_head + 1) % AXI_QUEUE;
        s->b_n--;
    }
    s->cycle++;
}

bool axi_mem_idle(const axi_mem_t *s)
{
    return s->ar_n == 0 && s->aw_n == 0 && s->b_n == 0 && !s->out.rvalid && !s->out.bvalid;
}

void axi_mem_clear_log(axi_mem_t *s)
{
    s->wlog_n = 0;
}
