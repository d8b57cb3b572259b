/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ptpu_backend_ref.c - the `ref` backend: the bit-exact ISA model
 * (host/src/ref) in process.  URI: "ref" or "ref:config=NAME".  A run
 * executes when it is started; wait returns its result.
 */
#include <stdlib.h>
#include <string.h>

#include "ref/ptpu_ref.h"
#include "ptpu_runtime.h"

struct refbe {
    struct ptpu_ref *r;
    struct ptpu_run_status last;
};

/* Value of key in "k1=v1,k2=v2" into buf; 1 when present. */
int ptpu_uri_opt(const char *opts, const char *key, char *buf, size_t len);
int ptpu_uri_opt(const char *opts, const char *key, char *buf, size_t len)
{
    size_t kl = strlen(key);
    for (const char *p = opts; p && *p;) {
        const char *e = strchr(p, ',');
        size_t l = e ? (size_t)(e - p) : strlen(p);
        if (l > kl && !strncmp(p, key, kl) && p[kl] == '=') {
            size_t vl = l - kl - 1 < len - 1 ? l - kl - 1 : len - 1;
            memcpy(buf, p + kl + 1, vl);
            buf[vl] = 0;
            return 1;
        }
        p = e ? e + 1 : NULL;
    }
    return 0;
}

static int ref_open(struct ptpu_device *dev, const char *opts)
{
    char name[32] = "sim16";
    ptpu_uri_opt(opts, "config", name, sizeof(name));
    struct ptpu_ref_cfg cfg;
    if (ptpu_ref_cfg_named(name, &cfg))
        return ptpu_dev_fail(dev, PTPU_ERR_NO_DEVICE, "ref: unknown configuration '%s'", name);
    struct refbe *b = calloc(1, sizeof(*b));
    if (!b)
        return ptpu_dev_fail(dev, PTPU_ERR_NO_MEM, "out of memory");
    int rc = ptpu_ref_create(&cfg, &b->r);
    if (rc) {
        free(b);
        return ptpu_dev_fail(dev, rc, "ref: cannot create the model");
    }
    dev->be = b;
    struct ptpu_device_info *i = &dev->info;
    snprintf(i->config, sizeof(i->config), "%.16s", name);
    i->n = cfg.n;
    i->bf16 = cfg.bf16;
    i->ub_rows = cfg.ub_rows;
    i->wb_rows = cfg.wb_rows;
    i->acc_rows = cfg.acc_rows;
    i->vp_rows = cfg.vp_rows;
    i->mem_kb = cfg.mem_kb;
    return 0;
}

static void ref_close(struct ptpu_device *dev)
{
    struct refbe *b = dev->be;
    ptpu_ref_destroy(b->r);
    free(b);
}

static int ref_write(struct ptpu_device *dev, uint32_t addr, const void *data, size_t len)
{
    struct refbe *b = dev->be;
    int rc = ptpu_ref_mem_write(b->r, addr, data, len);
    return rc ? ptpu_dev_fail(dev, rc, "ref: write 0x%08x+%zu failed", addr, len) : 0;
}

static int ref_read(struct ptpu_device *dev, uint32_t addr, void *data, size_t len)
{
    struct refbe *b = dev->be;
    int rc = ptpu_ref_mem_read(b->r, addr, data, len);
    return rc ? ptpu_dev_fail(dev, rc, "ref: read 0x%08x+%zu failed", addr, len) : 0;
}

static int ref_start(struct ptpu_device *dev, uint32_t prog_addr, uint32_t ninsns)
{
    struct refbe *b = dev->be;
    struct ptpu_window w = {0, (uint32_t)((uint64_t)dev->info.mem_kb * 1024 - 1) + 1u, 3};
    if ((uint64_t)dev->info.mem_kb * 1024 >= (1ull << 32))
        w.limit = 0xffffffe0u;
    struct ptpu_run_result res;
    int rc = ptpu_ref_run(b->r, prog_addr, ninsns, &w, 1, &res);
    if (rc)
        return ptpu_dev_fail(dev, PTPU_ERR_DEVICE, "ref: program rejected (%d)", rc);
    b->last.state = res.state;
    b->last.fault = res.fault;
    b->last.fault_pc = res.fault_pc;
    b->last.fault_addr = res.fault_addr;
    memcpy(b->last.counters, res.counters, sizeof(res.counters));
    return 0;
}

static int ref_wait(struct ptpu_device *dev, struct ptpu_run_status *st)
{
    struct refbe *b = dev->be;
    *st = b->last;
    return 0;
}

const struct ptpu_backend_ops ptpu_backend_ref = {"ref", ref_open, ref_close, ref_write,
                                                  ref_read, ref_start, ref_wait};
