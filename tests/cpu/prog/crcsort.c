/* SPDX-License-Identifier: Apache-2.0 */
/*
 * crcsort.c - a mixed integer workload, built twice: for the core (-O2,
 * picolibc, run by tb_cpu) and for the host; the two outputs must be equal.
 * It fills 8 KB with pseudo-random data, takes its CRC-32 (table driven and
 * bitwise), sorts 1024 words with quicksort and 256 bytes with insertion
 * sort, runs a small integer matrix product and formats numbers with
 * snprintf.  Also the CPI benchmark's workload (bench-cpu-cpi).
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define N_BYTES 8192
#define N_ISORT 256
#define N_WORDS 1024

static uint8_t data[N_BYTES];
static uint32_t words[N_WORDS];
static uint32_t crc_table[256];

static uint32_t xorshift(uint32_t *s)
{
    uint32_t x = *s;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return *s = x;
}

static uint32_t crc32_bitwise(const uint8_t *p, size_t n)
{
    uint32_t crc = 0xffffffffu;
    for (size_t i = 0; i < n; i++) {
        crc ^= p[i];
        for (int k = 0; k < 8; k++)
            crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1)));
    }
    return ~crc;
}

static uint32_t crc32_table(const uint8_t *p, size_t n)
{
    uint32_t crc = 0xffffffffu;
    for (size_t i = 0; i < n; i++)
        crc = crc_table[(crc ^ p[i]) & 0xff] ^ (crc >> 8);
    return ~crc;
}

static void quicksort(uint32_t *a, int lo, int hi)
{
    while (lo < hi) {
        uint32_t pivot = a[(lo + hi) / 2];
        int i = lo, j = hi;
        while (i <= j) {
            while (a[i] < pivot)
                i++;
            while (a[j] > pivot)
                j--;
            if (i <= j) {
                uint32_t t = a[i];
                a[i++] = a[j];
                a[j--] = t;
            }
        }
        if (j - lo < hi - i) {
            quicksort(a, lo, j);
            lo = i;
        } else {
            quicksort(a, i, hi);
            hi = j;
        }
    }
}

static void insertion_sort(int8_t *a, int n)
{
    for (int i = 1; i < n; i++) {
        int8_t v = a[i];
        int j = i - 1;
        while (j >= 0 && a[j] > v) {
            a[j + 1] = a[j];
            j--;
        }
        a[j + 1] = v;
    }
}

static uint32_t matmul_checksum(void)
{
    int16_t a[12][12], b[12][12];
    int32_t c[12][12];
    uint32_t s = 7;
    for (int i = 0; i < 12; i++)
        for (int j = 0; j < 12; j++) {
            a[i][j] = (int16_t)(xorshift(&s) & 0xffff);
            b[i][j] = (int16_t)(xorshift(&s) >> 16);
        }
    for (int i = 0; i < 12; i++)
        for (int j = 0; j < 12; j++) {
            int32_t acc = 0;
            for (int k = 0; k < 12; k++)
                acc += (int32_t)a[i][k] * b[k][j];
            c[i][j] = acc;
        }
    uint32_t sum = 0;
    for (int i = 0; i < 12; i++)
        for (int j = 0; j < 12; j++)
            sum = sum * 31u + (uint32_t)c[i][j];
    return sum;
}

int main(void)
{
    uint32_t seed = 0x2545f491u;
    for (int i = 0; i < N_BYTES; i++)
        data[i] = (uint8_t)(xorshift(&seed) >> 24);
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t c = i;
        for (int k = 0; k < 8; k++)
            c = (c >> 1) ^ (0xedb88320u & (0u - (c & 1)));
        crc_table[i] = c;
    }
    uint32_t crc_t = crc32_table(data, N_BYTES);
    uint32_t crc_b = crc32_bitwise(data, 1024);
    printf("crc32 %08lx %08lx\n", (unsigned long)crc_t, (unsigned long)crc_b);

    for (int i = 0; i < N_WORDS; i++)
        words[i] = xorshift(&seed);
    quicksort(words, 0, N_WORDS - 1);
    int sorted = 1;
    uint32_t wsum = 0;
    for (int i = 0; i < N_WORDS; i++) {
        if (i && words[i - 1] > words[i])
            sorted = 0;
        wsum = (wsum << 1 | wsum >> 31) ^ words[i];
    }
    printf("qsort %d %08lx min %08lx max %08lx\n", sorted, (unsigned long)wsum,
           (unsigned long)words[0], (unsigned long)words[N_WORDS - 1]);

    insertion_sort((int8_t *)data, N_ISORT);
    printf("isort %d %d %d crc %08lx\n", data[0] == 0x80 ? 1 : 0, (int8_t)data[N_ISORT / 2],
           (int8_t)data[N_ISORT - 1], (unsigned long)crc32_table(data, N_ISORT));

    printf("matmul %08lx\n", (unsigned long)matmul_checksum());

    char buf[64];
    int n = snprintf(buf, sizeof buf, "%d|%u|%x|%5s|%-4d|", -12345, 4000000000u, 0xbeefu, "ab", 42);
    printf("fmt %d %s\n", n, buf);
    printf("len %u cmp %d\n", (unsigned)strlen(buf), memcmp(buf, "-12345", 6));
    return 0;
}
