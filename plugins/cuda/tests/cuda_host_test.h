/* What the cuda host tests (no device) share: a failure counter with its
 * CHECK, a stand-in for the reference's error reporter (plugin.c, which
 * reports through a backend, is not linked), and, where the test defines
 * UNIFORM_SEED before including this, a seeded uniform generator. Each test
 * is its own executable, so the definitions here are made once per program. */
#ifndef TSR_CUDA_HOST_TEST_H
#define TSR_CUDA_HOST_TEST_H

#include <stdint.h>
#include <stdio.h>

static int failures;
#define CHECK(cond)                                                                                \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);               \
            failures++;                                                                            \
        }                                                                                          \
    } while (0)

struct tsr__ref_backend;
int tsr__ref_error(const struct tsr__ref_backend *backend, int status, const char *fmt, ...)
{
    (void)backend;
    (void)fmt;
    return status;
}

#ifdef UNIFORM_SEED
/* A uniform double in [0, 1) from a 64-bit LCG, the same stream every run. */
static uint64_t state = UNIFORM_SEED;
static double uniform(void)
{
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(state >> 11) / 9007199254740992.0;
}
#endif

#endif
