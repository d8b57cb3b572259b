/* SPDX-License-Identifier: Apache-2.0 */
/*
 * picotpu_sim.c - the simulation library (sim/include/picotpu_sim.h): clocks the
 * Verilated SoC, runs one HBM2 device model per pseudo-channel on the m_hbm_* ports (as
 * tests/mem/tb_mem.c does), feeds and drains the link byte stream, collects the console.
 *
 * Built once per configuration with -D PTPU_SIM_<PARAM>=... taken from mk/configs.mk.
 */
#include "picotpu_sim.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hbm2.h"
#include "picotpu_sim_glue.h"
#if PTPU_SIM_LINK_UART
#include "uart_model.h"
#endif

#define STR_(x) #x
#define STR(x) STR_(x)
#define BEAT 32
#define MAXP 16
#define NUM_CNT PTPU_SIM_MEM_COUNTERS

static const struct ptpu_sim_info g_info = {
    .config = STR(PTPU_SIM_CONFIG),
    .n = PTPU_SIM_N,
    .bf16 = PTPU_SIM_BF16,
    .ub_rows = PTPU_SIM_UB_ROWS,
    .wb_rows = PTPU_SIM_WB_ROWS,
    .acc_rows = PTPU_SIM_ACC_ROWS,
    .vp_rows = PTPU_SIM_VP_ROWS,
    .num_pch = PTPU_SIM_NUM_PCH,
    .mem_kb = PTPU_SIM_MEM_KB,
    .gran_bytes = PTPU_SIM_GRAN_BYTES,
    .row_bits = PTPU_SIM_ROW_BITS,
    .bank_hash = PTPU_SIM_BANK_HASH,
    .fw_ram_kb = PTPU_SIM_FW_RAM_KB,
    .default_firmware = STR(PTPU_SIM_DEFAULT_FW),
};

const struct ptpu_sim_info *ptpu_sim_info(void) { return &g_info; }

#define X_NAME(name, value, desc) case value: return "PTPU_SIM_E" #name;
#define X_DESC(name, value, desc) case value: return desc;
const char *ptpu_sim_error_name(int err)
{
    switch (err) { PTPU_SIM_ERROR_LIST(X_NAME) default: return "PTPU_SIM_E?"; }
}
const char *ptpu_sim_strerror(int err)
{
    switch (err) { PTPU_SIM_ERROR_LIST(X_DESC) default: return "unknown error"; }
}

/* A byte FIFO that grows. */
typedef struct bytes {
    uint8_t *buf;
    size_t head, tail, cap;
} bytes_t;

static int bytes_push(bytes_t *b, const uint8_t *p, size_t n)
{
    if (b->head > 0 && b->tail + n > b->cap) {
        memmove(b->buf, b->buf + b->head, b->tail - b->head);
        b->tail -= b->head;
        b->head = 0;
    }
    if (b->tail + n > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->tail + n)
            cap *= 2;
        uint8_t *nb = realloc(b->buf, cap);
        if (!nb)
            return PTPU_SIM_ENO_MEM;
        b->buf = nb;
        b->cap = cap;
    }
    memcpy(b->buf + b->tail, p, n);
    b->tail += n;
    return 0;
}

static size_t bytes_pop(bytes_t *b, uint8_t *p, size_t max)
{
    size_t n = b->tail - b->head;
    if (n > max)
        n = max;
    if (p)
        memcpy(p, b->buf + b->head, n);
    b->head += n;
    if (b->head == b->tail)
        b->head = b->tail = 0;
    return n;
}

struct ptpu_sim {
    psm_t *m;
    uint64_t cycle, time;
    uint64_t idle_cycle;            /* the cycle at which idle_cnt was read (drain) */
    uint32_t idle_cnt[MAXP];        /* the channels' idle-cycle counters then */
    int status;                     /* 0, or the EXITED / STOPPED code */
    bool exited;
    uint32_t exit_code;
    bytes_t tx, rx, con;            /* to the device, from the device, console */
    void (*con_fn)(void *ctx, char c);
    void *con_ctx;
    bool con_echo;
    hbm2_t *dev[MAXP];
    int npch;
    /* ports */
    const tb_port_t *clk, *rst_n, *boot_we, *boot_addr, *boot_wdata;
    const tb_port_t *s_valid, *s_ready, *s_data, *m_valid, *m_ready, *m_data, *uart_rx;
    const tb_port_t *con_valid, *con_data, *exit_valid, *exit_code_p;
    const tb_port_t *h_rcmd, *h_rbank, *h_row, *h_ccmd, *h_cbank, *h_col, *h_wdata, *h_wstrb;
    const tb_port_t *h_rvalid, *h_rdata, *cnt;
#if PTPU_SIM_LINK_UART
    const tb_port_t *uart_tx;
    uart_model_t uart;              /* the far end of the UART pins (an FTDI chip) */
#endif
};

/* ------------------------------------------------------------------ port access */

static const tb_port_t *port(ptpu_sim_t *s, const char *name)
{
    const tb_port_t *p;
    int n = psm_ports(s->m, &p);
    for (int i = 0; i < n; i++)
        if (strcmp(p[i].name, name) == 0)
            return &p[i];
    fprintf(stderr, "picotpu_sim: the model has no port %s\n", name);
    abort();
}

static inline void set1(const tb_port_t *p, uint32_t v) { *(uint8_t *)p->ptr = (uint8_t)v; }
static inline uint32_t get1(const tb_port_t *p) { return *(const uint8_t *)p->ptr; }

static void set32(const tb_port_t *p, uint32_t v)
{
    switch (p->store) {
    case 8: *(uint8_t *)p->ptr = (uint8_t)v; break;
    case 16: *(uint16_t *)p->ptr = (uint16_t)v; break;
    case 64: *(uint64_t *)p->ptr = v; break;
    default: *(uint32_t *)p->ptr = v; break;
    }
}

static uint32_t get32(const tb_port_t *p)
{
    switch (p->store) {
    case 8: return *(const uint8_t *)p->ptr;
    case 16: return *(const uint16_t *)p->ptr;
    case 64: return (uint32_t) * (const uint64_t *)p->ptr;
    default: return *(const uint32_t *)p->ptr;
    }
}

/* Bits [lsb, lsb+w) of any port, w <= 32. */
static uint32_t bits(const tb_port_t *p, int lsb, int w)
{
    uint64_t v;
    if (p->store == 0 || p->store == 64 || p->store == 32) {
        const uint32_t *wd = p->store == 0 || p->store == 32 ? (const uint32_t *)p->ptr : NULL;
        if (!wd) {
            v = *(const uint64_t *)p->ptr >> lsb;
        } else {
            int i = lsb >> 5, sh = lsb & 31;
            v = wd[i] >> sh;
            if (sh + w > 32)
                v |= (uint64_t)wd[i + 1] << (32 - sh);
        }
    } else {
        v = (uint64_t)get32(p) >> lsb;
    }
    return (uint32_t)(v & (w >= 32 ? 0xffffffffu : ((1u << w) - 1)));
}

/* ------------------------------------------------------------------ clocking */

static void check_finish(ptpu_sim_t *s)
{
    if (psm_got_finish(s->m) && !s->status) {
        fprintf(stderr, "picotpu_sim: the RTL stopped the simulation at cycle %llu\n",
                (unsigned long long)s->cycle);
        s->status = PTPU_SIM_ESTOPPED;
    }
}

static void half(ptpu_sim_t *s, int clk)
{
    set1(s->clk, (uint32_t)clk);
    psm_eval(s->m);
    if (psm_tracing(s->m))
        psm_trace_dump(s->m, s->time);
    s->time++;
}

static void on_violation(void *ctx, const char *msg)
{
    ptpu_sim_t *s = ctx;
    fprintf(stderr, "picotpu_sim: %s\n", msg);
    if (!s->status)
        s->status = PTPU_SIM_ESTOPPED;
}

/* The HBM2 devices see the commands the controllers present this cycle and return read
 * data due this cycle (the same order as tests/mem/tb_mem.c). */
static void devices(ptpu_sim_t *s)
{
    uint8_t rd[BEAT];
    const int rb_bits = g_info.row_bits;
    /* Up to 16 channels: 48 bits of row and 32 of column commands, read once. */
    uint64_t rcs = bits(s->h_rcmd, 0, s->npch * 3 < 32 ? s->npch * 3 : 32);
    uint64_t ccs = bits(s->h_ccmd, 0, s->npch * 2 < 32 ? s->npch * 2 : 32);
    if (s->npch * 3 > 32)
        rcs |= (uint64_t)bits(s->h_rcmd, 32, s->npch * 3 - 32) << 32;
    uint32_t rv = 0;
    for (int c = 0; c < s->npch; c++) {
        int rc = (int)(rcs >> (c * 3) & 7);
        int cc = (int)(ccs >> (c * 2) & 3);
        int rb = 0, cb = 0, col = 0;
        uint32_t row = 0, strb = 0;
        const uint8_t *wd = NULL;
        if (rc) {
            rb = (int)bits(s->h_rbank, c * 4, 4);
            row = bits(s->h_row, c * rb_bits, rb_bits);
        }
        if (cc) {
            cb = (int)bits(s->h_cbank, c * 4, 4);
            col = (int)bits(s->h_col, c * 5, 5);
            if (cc == HBM2_WR) {
                wd = (const uint8_t *)((const uint32_t *)s->h_wdata->ptr + c * 8);
                strb = ((const uint32_t *)s->h_wstrb->ptr)[c];
            }
        }
        bool v = hbm2_cycle(s->dev[c], rc, rb, row, cc, cb, col, wd, strb, rd);
        rv |= (uint32_t)v << c;
        if (v)
            memcpy((uint32_t *)s->h_rdata->ptr + c * 8, rd, BEAT);
    }
    set32(s->h_rvalid, rv);
}

static void console_byte(ptpu_sim_t *s, char c)
{
    bytes_push(&s->con, (const uint8_t *)&c, 1);
    if (s->con_fn)
        s->con_fn(s->con_ctx, c);
    if (s->con_echo)
        fputc(c, stderr);
}

static void one_cycle(ptpu_sim_t *s)
{
    devices(s);
#if PTPU_SIM_LINK_UART
    /* LinkPhy=1: the link bytes cross the UART pins at the far end's bit time. */
    {
        int got;
        if (uart_model_tx_ready(&s->uart) && s->tx.tail > s->tx.head)
            uart_model_tx_byte(&s->uart, s->tx.buf[s->tx.head++]);
        set1(s->uart_rx, (uint32_t)uart_model_cycle(&s->uart, (int)get1(s->uart_tx), &got));
        uint8_t b = (uint8_t)got;
        if (got >= 0)
            bytes_push(&s->rx, &b, 1);
    }
#endif
    bool offer = s->tx.tail > s->tx.head;
    set1(s->s_valid, offer);
    if (offer)
        set1(s->s_data, s->tx.buf[s->tx.head]);
    half(s, 0);
    /* Handshakes of this cycle, sampled before the rising edge. */
    bool took = offer && get1(s->s_ready);
    bool sent = get1(s->m_valid);
    uint8_t out = (uint8_t)get1(s->m_data);
    if (get1(s->con_valid))
        console_byte(s, (char)get1(s->con_data));
    if (get1(s->exit_valid) && !s->exited) {
        s->exited = true;
        s->exit_code = get32(s->exit_code_p);
    }
    half(s, 1);
    s->cycle++;
    if (took)
        s->tx.head++;
    if (sent)
        bytes_push(&s->rx, &out, 1);
    check_finish(s);
    if (s->exited && !s->status)
        s->status = PTPU_SIM_EEXITED;
}

int ptpu_sim_step(ptpu_sim_t *s, uint64_t cycles)
{
    if (!s)
        return PTPU_SIM_EARG;
    for (uint64_t i = 0; i < cycles && !s->status; i++)
        one_cycle(s);
    return s->status;
}

uint64_t ptpu_sim_cycles(const ptpu_sim_t *s) { return s->cycle; }

/* ------------------------------------------------------------------ create / destroy */

static int load_firmware(ptpu_sim_t *s, const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "picotpu_sim: cannot open firmware %s\n", path);
        return PTPU_SIM_EFIRMWARE;
    }
    size_t max = (size_t)g_info.fw_ram_kb * 1024;
    uint8_t *img = calloc(1, max + 4);
    if (!img) {
        fclose(f);
        return PTPU_SIM_ENO_MEM;
    }
    size_t n = fread(img, 1, max + 1, f);
    fclose(f);
    if (n == 0 || n > max) {
        fprintf(stderr, "picotpu_sim: firmware %s is %s (RAM %d KB)\n", path,
                n ? "too large" : "empty", g_info.fw_ram_kb);
        free(img);
        return PTPU_SIM_EFIRMWARE;
    }
    /* Reset held low: one word per cycle through the boot port. */
    set1(s->rst_n, 0);
    for (size_t a = 0; a < n; a += 4) {
        uint32_t w;
        memcpy(&w, img + a, 4);
        set1(s->boot_we, 1);
        set32(s->boot_addr, (uint32_t)a);
        set32(s->boot_wdata, w);
        half(s, 0);
        half(s, 1);
    }
    free(img);
    set1(s->boot_we, 0);
    for (int i = 0; i < 4; i++) {
        half(s, 0);
        half(s, 1);
    }
    set1(s->rst_n, 1);
    return 0;
}

int ptpu_sim_create(const char *config, const char *firmware, ptpu_sim_t **out)
{
    if (!out)
        return PTPU_SIM_EARG;
    *out = NULL;
    if (config && config[0] && strcmp(config, g_info.config) != 0) {
        fprintf(stderr, "picotpu_sim: this library simulates %s, not %s\n", g_info.config, config);
        return PTPU_SIM_ECONFIG;
    }
    if (!firmware)
        firmware = getenv("PTPU_SIM_FIRMWARE");
    if (!firmware || !firmware[0])
        firmware = g_info.default_firmware;
    ptpu_sim_t *s = calloc(1, sizeof(*s));
    if (!s)
        return PTPU_SIM_ENO_MEM;
    const char *echo = getenv("PTPU_SIM_CONSOLE");
    s->con_echo = echo && echo[0] == '1';
    s->m = psm_new();
    s->clk = port(s, "clk_i");
    s->rst_n = port(s, "rst_ni");
    s->boot_we = port(s, "boot_we_i");
    s->boot_addr = port(s, "boot_addr_i");
    s->boot_wdata = port(s, "boot_wdata_i");
    s->s_valid = port(s, "s_link_valid_i");
    s->s_ready = port(s, "s_link_ready_o");
    s->s_data = port(s, "s_link_data_i");
    s->m_valid = port(s, "m_link_valid_o");
    s->m_ready = port(s, "m_link_ready_i");
    s->m_data = port(s, "m_link_data_o");
    s->uart_rx = port(s, "uart_rx_i");
    s->con_valid = port(s, "console_valid_o");
    s->con_data = port(s, "console_data_o");
    s->exit_valid = port(s, "exit_valid_o");
    s->exit_code_p = port(s, "exit_code_o");
    s->h_rcmd = port(s, "m_hbm_rcmd_o");
    s->h_rbank = port(s, "m_hbm_rbank_o");
    s->h_row = port(s, "m_hbm_row_o");
    s->h_ccmd = port(s, "m_hbm_ccmd_o");
    s->h_cbank = port(s, "m_hbm_cbank_o");
    s->h_col = port(s, "m_hbm_col_o");
    s->h_wdata = port(s, "m_hbm_wdata_o");
    s->h_wstrb = port(s, "m_hbm_wstrb_o");
    s->h_rvalid = port(s, "m_hbm_rvalid_i");
    s->h_rdata = port(s, "m_hbm_rdata_i");
    s->cnt = port(s, "mem_cnt_o");
    if (s->h_wstrb->store != 0 || s->h_wdata->store != 0 || s->h_rdata->store != 0) {
        fprintf(stderr, "picotpu_sim: unexpected HBM2 port layout\n");
        abort();
    }

    s->npch = g_info.num_pch;
    for (int c = 0; c < s->npch; c++) {
        char name[16];
        snprintf(name, sizeof name, "pch%d", c);
        hbm2_config_t hc = { .name = name, .row_bits = g_info.row_bits, .check_refresh = true,
                             .on_violation = on_violation, .ctx = s };
        hbm2_timing_default(&hc.t);
        s->dev[c] = hbm2_new(&hc);
        if (!s->dev[c]) {
            ptpu_sim_destroy(s);
            return PTPU_SIM_ENO_MEM;
        }
    }
    set1(s->m_ready, 1);
    set1(s->uart_rx, 1);
#if PTPU_SIM_LINK_UART
    s->uart_tx = port(s, "uart_tx_o");
    uart_model_init(&s->uart, ((uint64_t)PTPU_SIM_UART_CLK_HZ << 16) / PTPU_SIM_UART_BAUD,
                    UART_FMT_8N1);  /* the SoC's own baud until ptpu_sim_link_uart() */
#endif
    int rc = load_firmware(s, firmware);
    if (rc < 0) {
        ptpu_sim_destroy(s);
        return rc;
    }
    *out = s;
    return 0;
}

void ptpu_sim_destroy(ptpu_sim_t *s)
{
    if (!s)
        return;
    if (s->m)
        psm_free(s->m);
    for (int c = 0; c < s->npch; c++)
        if (s->dev[c])
            hbm2_free(s->dev[c]);
    free(s->tx.buf);
    free(s->rx.buf);
    free(s->con.buf);
    free(s);
}

/* ------------------------------------------------------------------ link, console */

int ptpu_sim_link_send(ptpu_sim_t *s, const void *data, size_t len)
{
    if (!s || (!data && len))
        return PTPU_SIM_EARG;
    return bytes_push(&s->tx, data, len);
}

size_t ptpu_sim_link_pending(const ptpu_sim_t *s) { return s->tx.tail - s->tx.head; }

size_t ptpu_sim_link_recv(ptpu_sim_t *s, void *buf, size_t max) { return bytes_pop(&s->rx, buf, max); }

int ptpu_sim_link_uart(ptpu_sim_t *s, uint32_t baud, unsigned format)
{
#if PTPU_SIM_LINK_UART
    if (!s)
        return PTPU_SIM_EARG;
    int err = (int)s->uart.errors;
    s->uart.errors = 0;
    if (baud)
        uart_model_set(&s->uart, ((uint64_t)PTPU_SIM_UART_CLK_HZ << 16) / baud, format);
    return err;
#else
    (void)s, (void)baud, (void)format;
    return PTPU_SIM_EARG;
#endif
}

size_t ptpu_sim_console_read(ptpu_sim_t *s, char *buf, size_t max)
{
    return bytes_pop(&s->con, (uint8_t *)buf, max);
}

void ptpu_sim_on_console(ptpu_sim_t *s, void (*fn)(void *ctx, char c), void *ctx)
{
    s->con_fn = fn;
    s->con_ctx = ctx;
}

int ptpu_sim_exit_code(const ptpu_sim_t *s, uint32_t *code)
{
    if (s->exited && code)
        *code = s->exit_code;
    return s->exited;
}

/* ------------------------------------------------------------------ counters, trace */

int ptpu_sim_mem_counters(const ptpu_sim_t *s, int channel, uint32_t out[PTPU_SIM_MEM_COUNTERS])
{
    if (!s || channel < 0 || channel >= s->npch)
        return PTPU_SIM_EARG;
    for (int k = 0; k < NUM_CNT; k++)
        out[k] = bits(s->cnt, (channel * NUM_CNT + k) * 32, 32);
    return 0;
}

void ptpu_sim_hbm_stats(const ptpu_sim_t *s, struct ptpu_sim_hbm_stats *out)
{
    memset(out, 0, sizeof(*out));
    for (int c = 0; c < s->npch; c++) {
        hbm2_stats_t st;
        hbm2_get_stats(s->dev[c], &st);
        out->act += st.act;
        out->pre += st.pre + st.prea;
        out->refresh += st.refab + st.refpb;
        out->rd += st.rd;
        out->wr += st.wr;
        out->violations += st.violations;
    }
}

int ptpu_sim_trace_start(ptpu_sim_t *s, const char *path)
{
    if (!s || !path)
        return PTPU_SIM_EARG;
    return psm_trace_open(s->m, path) ? 0 : PTPU_SIM_ETRACE;
}

void ptpu_sim_trace_stop(ptpu_sim_t *s) { psm_trace_close(s->m); }

/* ------------------------------------------------------------------ memory backdoor */

/* The memory system posts writes: the write port answers B once every beat sits in its
 * channel's request queue, so the device may report a MEM_WRITE or a program done while
 * beats still wait in the controllers.  Before the backdoor touches the device arrays, the
 * clock runs until every channel has been idle for MEM_IDLE cycles in a row (its CntIdle
 * counter advanced: nothing queued, nothing in its request stage, no read in flight), by
 * which time its last WR command has reached the device model; at most MEM_DRAIN_MAX
 * cycles.  Nothing runs when every channel has been idle in every cycle since the last
 * drain. */
#define CNT_IDLE 8                  /* tpu_mem_pkg::CntIdle */
#define MEM_IDLE 4u
#define MEM_DRAIN_MAX 1000000u
static uint32_t idle_count(ptpu_sim_t *s, int c)
{
    return bits(s->cnt, (c * NUM_CNT + CNT_IDLE) * 32, 32);
}

/* 1 when every channel's idle counter advanced by the cycles since the last read; reads
 * them again. */
static bool all_idle_since(ptpu_sim_t *s)
{
    uint64_t n = s->cycle - s->idle_cycle;
    bool idle = n < (1ull << 32);
    for (int c = 0; c < s->npch; c++) {
        uint32_t v = idle_count(s, c);
        idle = idle && v - s->idle_cnt[c] == (uint32_t)n;
        s->idle_cnt[c] = v;
    }
    s->idle_cycle = s->cycle;
    return idle;
}

static void drain(ptpu_sim_t *s)
{
    if (all_idle_since(s))
        return;
    uint32_t run = 0;
    for (uint32_t i = 0; i < MEM_DRAIN_MAX && !s->status && run < MEM_IDLE; i++) {
        one_cycle(s);
        run = all_idle_since(s) ? run + 1 : 0;
    }
}

static int backdoor(ptpu_sim_t *s, uint32_t addr, uint8_t *data, size_t len, bool write)
{
    if (!s || (!data && len))
        return PTPU_SIM_EARG;
    uint64_t end = (uint64_t)addr + len;
    if (end > (uint64_t)g_info.mem_kb * 1024)
        return PTPU_SIM_ERANGE;
    drain(s);
    uint64_t a = addr;
    while (a < end) {
        uint64_t beat = a & ~(uint64_t)(BEAT - 1);
        int off = (int)(a - beat);
        int n = BEAT - off;
        if ((uint64_t)n > end - a)
            n = (int)(end - a);
        hbm2_loc_t loc;
        if (!hbm2_map(beat, s->npch, (uint32_t)g_info.gran_bytes, g_info.row_bits, g_info.bank_hash != 0,
                      &loc))
            return PTPU_SIM_ERANGE;
        uint8_t buf[BEAT];
        if (write) {
            memset(buf, 0, sizeof buf);
            memcpy(buf + off, data, (size_t)n);
            uint32_t strb = (n == 32 ? 0xffffffffu : ((1u << n) - 1)) << off;
            hbm2_poke(s->dev[loc.pch], loc.bank, loc.row, loc.col, buf, strb);
        } else {
            hbm2_peek(s->dev[loc.pch], loc.bank, loc.row, loc.col, buf);
            memcpy(data, buf + off, (size_t)n);
        }
        data += n;
        a += (uint64_t)n;
    }
    return 0;
}

int ptpu_sim_mem_write(ptpu_sim_t *s, uint32_t addr, const void *data, size_t len)
{
    return backdoor(s, addr, (uint8_t *)(uintptr_t)data, len, true);
}

int ptpu_sim_mem_read(ptpu_sim_t *s, uint32_t addr, void *data, size_t len)
{
    return backdoor(s, addr, data, len, false);
}
