/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_model.c - the model file: builder -> file -> loader round trip,
 * truncation at every byte, every table word corrupted (with the CRC fixed so
 * that the field checks, not the CRC, must catch it), targeted corruptions
 * that must name the field, and builder argument checks.
 *   test_model [--seed N]
 */
#include <math.h>
#include <unistd.h>
#include <zlib.h>

#include "hostutil.h"
#include "picotpu.h"
#include "ptpu_model.h"

static int failures, checks;
#define CHECK(cond, ...)                                                                      \
    do {                                                                                      \
        checks++;                                                                             \
        if (!(cond) && failures++ < 20) {                                                     \
            printf("# failed: ");                                                             \
            printf(__VA_ARGS__);                                                              \
            printf("\n");                                                                     \
        }                                                                                     \
    } while (0)

static void fix_crc(uint8_t *b, size_t len)
{
    uint32_t c = (uint32_t)crc32(0L, b, (uInt)(len - 4));
    memcpy(b + len - 4, &c, 4);
}

static void put(uint8_t *b, size_t off, uint32_t v)
{
    memcpy(b + off, &v, 4);
}

/* A model with every op type. */
static ptpu_model_builder *build(void)
{
    ptpu_model_builder *mb;
    ptpu_mb_create(&mb);
    static int8_t w1[8 * 9 * 2], w2[9 * 8], w3[8 * 9 * 8], w4[10 * 8];
    static int32_t b[16];
    static float s[16];
    for (size_t i = 0; i < sizeof(w1); i++)
        w1[i] = (int8_t)hu_range(-127, 127);
    for (size_t i = 0; i < sizeof(w2); i++)
        w2[i] = (int8_t)hu_range(-127, 127);
    for (size_t i = 0; i < sizeof(w3); i++)
        w3[i] = (int8_t)hu_range(-127, 127);
    for (size_t i = 0; i < sizeof(w4); i++)
        w4[i] = (int8_t)hu_range(-127, 127);
    for (int i = 0; i < 16; i++) {
        b[i] = hu_range(-1000, 1000);
        s[i] = 0.01f + 0.001f * (float)i;
    }
    struct ptpu_conv_params p3 = {3, 3, 1, 1, 1, 1, PTPU_PAD_SAME, 0, 0, 0, 0, PTPU_ACT_RELU};
    int t = ptpu_mb_input(mb, 8, 8, 2, 0.02f, -3);
    int t1 = ptpu_mb_conv2d(mb, t, 8, &p3, w1, b, s, 0.05f, -128);
    int t2 = ptpu_mb_maxpool(mb, t1, 2, 2, 2, 2, PTPU_PAD_VALID);
    int t3 = ptpu_mb_depthwise2d(mb, t2, &p3, w2, b, s, 0.05f, -100);
    int t4 = ptpu_mb_conv2d(mb, t3, 8, &p3, w3, b, s, 0.04f, -90);
    int t5 = ptpu_mb_add(mb, t2, t4, PTPU_ACT_RELU6, 0.06f, -128);
    int t6 = ptpu_mb_avgpool(mb, t5, 4, 4, 1, 1, PTPU_PAD_VALID, 0.03f, 0);
    int t7 = ptpu_mb_fc(mb, t6, 10, w4, b, s, PTPU_ACT_NONE, 0.1f, 0);
    CHECK(t7 == 7 && ptpu_mb_output(mb, t7) == 0, "builder: ids %d %d %d %d %d %d %d (%s)", t1,
          t2, t3, t4, t5, t6, t7, ptpu_mb_error(mb));
    return mb;
}

static void test_roundtrip(ptpu_model_builder *mb, uint8_t **img, size_t *len)
{
    char path[] = "/tmp/ptpu_model_XXXXXX";
    int fd = mkstemp(path);
    close(fd);
    CHECK(ptpu_mb_save(mb, path) == 0, "save");
    ptpu_model *m;
    int rc = ptpu_model_load(path, &m);
    CHECK(rc == 0, "load of a saved model: %s", ptpu_last_error(NULL));
    ptpu_mb_image(mb, img, len);
    if (!rc) {
        uint8_t *again;
        size_t alen;
        ptpu_model_serialize(m, &again, &alen);
        CHECK(alen == *len && !memcmp(again, *img, alen), "round trip changes the bytes");
        free(again);
        struct ptpu_shape si, so;
        ptpu_model_io(m, &si, &so);
        CHECK(si.h == 8 && si.w == 8 && si.c == 2 && so.h == 1 && so.w == 1 && so.c == 10 &&
                  ptpu_model_num_ops(m) == 7,
              "io shapes");
        ptpu_model_free(m);
    }
    unlink(path);
    rc = ptpu_model_load(path, &m);
    CHECK(rc == PTPU_ERR_IO, "load of a missing file: %d", rc);
}

static void test_truncation(const uint8_t *img, size_t len)
{
    for (size_t k = 0; k < len; k++) {
        ptpu_model *m = NULL;
        uint8_t *cp = malloc(k ? k : 1);
        memcpy(cp, img, k);
        int rc = ptpu_model_load_mem(cp, k, &m);
        CHECK(rc == PTPU_ERR_FORMAT && !m && *ptpu_last_error(NULL),
              "truncated at %zu: rc %d", k, rc);
        free(cp);
    }
}

/* Every word of the header, tensor and op tables set to several values, CRC fixed:
 * the loader must return 0 or FORMAT/SHAPE, never crash (ASan run). */
static void test_words(const uint8_t *img, size_t len, size_t tables_end)
{
    uint8_t *cp = malloc(len);
    int rejected = 0, total = 0;
    for (size_t off = 0; off < tables_end; off += 4) {
        uint32_t orig;
        memcpy(&orig, img + off, 4);
        uint32_t vals[] = {0, 1, 0xffffffffu, orig + 1, orig - 1, 0x80000000u, orig ^ 0x100,
                           (uint32_t)hu_next()};
        for (size_t v = 0; v < sizeof(vals) / sizeof(vals[0]); v++) {
            if (vals[v] == orig)
                continue;
            memcpy(cp, img, len);
            put(cp, off, vals[v]);
            fix_crc(cp, len);
            ptpu_model *m = NULL;
            int rc = ptpu_model_load_mem(cp, len, &m);
            total++;
            CHECK(rc == 0 || rc == PTPU_ERR_FORMAT || rc == PTPU_ERR_SHAPE,
                  "word %zu = 0x%08x: rc %d", off / 4, vals[v], rc);
            if (rc)
                rejected++;
            else {
                /* accepted: still a consistent model that runs on the host */
                struct ptpu_shape si, so;
                ptpu_model_io(m, &si, &so);
                int8_t *in = calloc((size_t)si.h * si.w * si.c, 1);
                int8_t *out = malloc((size_t)so.h * so.w * so.c);
                CHECK(ptpu_model_run_host(m, in, out) == 0, "accepted model does not run");
                free(in);
                free(out);
                ptpu_model_free(m);
            }
        }
    }
    printf("# %d of %d corrupted-word files rejected\n", rejected, total);
    CHECK(rejected > total / 2, "too few corruptions rejected (%d of %d)", rejected, total);
    /* a flipped bit anywhere without fixing the CRC */
    for (size_t off = 0; off < len; off++) {
        memcpy(cp, img, len);
        cp[off] ^= (uint8_t)(1u << hu_range(0, 7));
        ptpu_model *m = NULL;
        int rc = ptpu_model_load_mem(cp, len, &m);
        CHECK(rc == PTPU_ERR_FORMAT, "bit flip at %zu accepted", off);
        ptpu_model_free(m);
    }
    free(cp);
}

/* Corruptions that must be rejected with a message naming the problem. */
static void test_targeted(const uint8_t *img, size_t len)
{
    const size_t T = 32, O = 32 + 8 * 20;          /* tensor table, op table */
    struct {
        size_t off;
        uint32_t val;
        const char *msg;
    } cases[] = {
        {0, 0x12345678, "magic"},
        {4, 2, "version"},
        {12, 9, "tensors"},
        {20, 0, "output tensor"},
        {28, 1, "reserved"},
        {T + 0, 0, "tensor 0: shape"},
        {T + 20 + 12, 0x7fc00000u, "tensor 1: scale"},
        {T + 20 + 16, 200, "zero point"},
        {O + 0, 99, "unknown type"},
        {O + 4, 1, "input tensor"},
        {O + 12, 5, "output tensor"},
        {O + 16, 0, "kernel"},
        {O + 44, 3, "padding"},
        {O + 40, 0, "padding"},
        {O + 60, 7, "activation"},
        {O + 64, 2, "weights at"},
        {O + 68, 4, "weight bytes"},
        {O + 72, 1, "reserved"},
        {O + 80 + 8, 0, "second input"},
        {O + 80 * 4 + 8, 0xffffffffu, "second input"},
        {O + 80 + 60, 1, "pooling"},
    };
    uint8_t *cp = malloc(len);
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        memcpy(cp, img, len);
        put(cp, cases[i].off, cases[i].val);
        fix_crc(cp, len);
        ptpu_model *m = NULL;
        int rc = ptpu_model_load_mem(cp, len, &m);
        CHECK((rc == PTPU_ERR_FORMAT || rc == PTPU_ERR_SHAPE) &&
                  strstr(ptpu_last_error(NULL), cases[i].msg),
              "case %zu (word %zu = 0x%x): rc %d, message '%s', expected '%s'", i,
              cases[i].off / 4, cases[i].val, rc, ptpu_last_error(NULL), cases[i].msg);
        ptpu_model_free(m);
    }
    /* a weight of -128 */
    memcpy(cp, img, len);
    uint32_t boff;
    memcpy(&boff, img + O + 64, 4);
    size_t blob = O + 7 * 80;
    cp[blob + boff] = 0x80;
    fix_crc(cp, len);
    ptpu_model *m = NULL;
    int rc = ptpu_model_load_mem(cp, len, &m);
    CHECK(rc == PTPU_ERR_FORMAT && strstr(ptpu_last_error(NULL), "weight"),
          "weight -128: rc %d '%s'", rc, ptpu_last_error(NULL));
    /* the CRC itself */
    memcpy(cp, img, len);
    cp[len - 1] ^= 1;
    rc = ptpu_model_load_mem(cp, len, &m);
    CHECK(rc == PTPU_ERR_FORMAT && strstr(ptpu_last_error(NULL), "CRC"), "crc: %d", rc);
    free(cp);
}

static void test_builder_args(void)
{
    ptpu_model_builder *mb;
    CHECK(ptpu_mb_create(NULL) == PTPU_ERR_INVALID_ARG, "create(NULL)");
    ptpu_mb_create(&mb);
    int8_t w[9] = {0};
    int32_t b[1] = {0};
    float s[1] = {0.1f}, bad[1] = {-1.0f};
    struct ptpu_conv_params p = {3, 3, 1, 1, 1, 1, PTPU_PAD_VALID, 0, 0, 0, 0, PTPU_ACT_NONE};
    CHECK(ptpu_mb_conv2d(mb, 0, 1, &p, w, b, s, 0.1f, 0) == PTPU_ERR_INVALID_ARG,
          "conv before input");
    CHECK(ptpu_mb_input(mb, 0, 4, 1, 0.1f, 0) == PTPU_ERR_INVALID_ARG, "input h = 0");
    CHECK(ptpu_mb_input(mb, 4, 4, 1, 0.1f, 300) == PTPU_ERR_INVALID_ARG, "input zp 300");
    CHECK(ptpu_mb_input(mb, 2, 2, 1, 0.1f, 0) == 0, "input");
    CHECK(ptpu_mb_input(mb, 2, 2, 1, 0.1f, 0) == PTPU_ERR_INVALID_ARG, "second input");
    CHECK(ptpu_mb_conv2d(mb, 0, 1, &p, w, b, s, 0.1f, 0) == PTPU_ERR_SHAPE,
          "3x3 VALID on 2x2");
    p.kh = p.kw = 1;
    CHECK(ptpu_mb_conv2d(mb, 0, 1, &p, w, b, bad, 0.1f, 0) == PTPU_ERR_INVALID_ARG,
          "negative weight scale");
    w[0] = -128;
    CHECK(ptpu_mb_conv2d(mb, 0, 1, &p, w, b, s, 0.1f, 0) == PTPU_ERR_INVALID_ARG,
          "weight -128");
    w[0] = 1;
    CHECK(ptpu_mb_conv2d(mb, 5, 1, &p, w, b, s, 0.1f, 0) == PTPU_ERR_INVALID_ARG,
          "undefined input");
    CHECK(ptpu_mb_conv2d(mb, 0, 1, &p, w, b, s, 0.1f, 0) == 1, "1x1 conv");
    CHECK(ptpu_mb_add(mb, 0, 1, PTPU_ACT_NONE, 0.1f, 0) == 2, "add");
    CHECK(ptpu_mb_maxpool(mb, 2, 3, 3, 1, 1, PTPU_PAD_VALID) == PTPU_ERR_SHAPE, "pool > map");
    CHECK(ptpu_mb_output(mb, 9) == PTPU_ERR_INVALID_ARG, "output 9");
    CHECK(ptpu_mb_save(mb, "/nonexistent-dir/x.ptpm") == PTPU_ERR_IO, "save to a bad path");
    ptpu_mb_free(mb);
}

int main(int argc, char **argv)
{
    uint64_t seed;
    hu_args(argc, argv, "test_model", &seed, NULL);
    ptpu_model_builder *mb = build();
    uint8_t *img = NULL;
    size_t len = 0;
    test_roundtrip(mb, &img, &len);
    ptpu_mb_free(mb);
    if (img) {
        test_truncation(img, len);
        test_words(img, len, 32 + 8 * 20 + 7 * 80);
        test_targeted(img, len);
    }
    free(img);
    test_builder_args();
    if (failures) {
        printf("FAIL host_model: %d of %d checks failed (seed %llu)\n", failures, checks,
               (unsigned long long)seed);
        return 1;
    }
    printf("PASS host_model: %d checks (%zu-byte model truncated at every byte), seed %llu\n",
           checks, len, (unsigned long long)seed);
    return 0;
}
