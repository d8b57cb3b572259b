/* SPDX-License-Identifier: Apache-2.0 */
/* hostutil.h - small helpers shared by the host tests: seeded PRNG, checks. */
#ifndef HOSTUTIL_H
#define HOSTUTIL_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static uint64_t hu_state = 1;
static inline uint64_t hu_next(void)
{
    uint64_t z = (hu_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
/* uniform in [lo, hi] */
static inline int hu_range(int lo, int hi)
{
    return lo + (int)(hu_next() % (uint64_t)(hi - lo + 1));
}
static inline double hu_unit(void)
{
    return (double)(hu_next() >> 11) / 9007199254740992.0;
}

/* --seed N, --iters N from argv; prints the seed. */
static inline void hu_args(int argc, char **argv, const char *name, uint64_t *seed, int *iters)
{
    *seed = (uint64_t)time(NULL);
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--seed") && i + 1 < argc)
            *seed = strtoull(argv[++i], NULL, 0);
        else if (!strcmp(argv[i], "--iters") && i + 1 < argc && iters)
            *iters = atoi(argv[++i]);
    }
    hu_state = *seed;
    printf("# %s seed=%llu (re-run with --seed %llu)\n", name, (unsigned long long)*seed,
           (unsigned long long)*seed);
}

#endif
