/* The core's host allocations, with the test-only fault switch.
 *
 * Built with TSR_FAULT_ALLOC (the sanitizer build defines it), the
 * environment variable TESSERA_FAULT_ALLOC=N makes the Nth allocation of the
 * process (counted from 1, over all threads) return NULL, once, and says so
 * on stderr, so that a test can sweep N over a workload and check that every
 * failure ends in a clean error (tests/runtime/test_fault_alloc.c). Release
 * builds carry none of this. */
#include "runtime/alloc.h"

#include <stdlib.h>
#include <string.h>

#ifdef TSR_FAULT_ALLOC
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>

/* -1: the variable is not read yet; 0: no fault to inject. */
static _Atomic long long fault_at = -1;
static _Atomic long long fault_count;

static long long fault_target(void)
{
    long long at = atomic_load_explicit(&fault_at, memory_order_acquire);
    if (at >= 0)
        return at;
    const char *env = getenv("TESSERA_FAULT_ALLOC");
    char *end = NULL;
    long long n = env && *env ? strtoll(env, &end, 10) : 0;
    if (!env || !*env || *end || n < 0)
        n = 0;
    atomic_store_explicit(&fault_at, n, memory_order_release);
    return n;
}

/* True for the one allocation that is to fail. */
static int fault_now(void)
{
    long long at = fault_target();
    if (at == 0)
        return 0;
    long long n = atomic_fetch_add_explicit(&fault_count, 1, memory_order_relaxed) + 1;
    if (n != at)
        return 0;
    fprintf(stderr, "tessera: TESSERA_FAULT_ALLOC=%lld: failing host allocation %lld\n", at, n);
    return 1;
}
#else
static int fault_now(void)
{
    return 0;
}
#endif

void *tsr__malloc(size_t bytes)
{
    return fault_now() ? NULL : malloc(bytes);
}

void *tsr__calloc(size_t count, size_t size)
{
    return fault_now() ? NULL : calloc(count, size);
}

void *tsr__realloc(void *ptr, size_t bytes)
{
    return fault_now() ? NULL : realloc(ptr, bytes);
}

char *tsr__strdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *copy = tsr__malloc(n);
    return copy ? memcpy(copy, s, n) : NULL;
}
