/* Past 2^31 elements on a host backend (index arithmetic in 32 bits is the
 * classic bug): an int8 tensor of 2^31 + 5 elements (2 GiB) whose values
 * follow a pattern, so every answer is also known on the host, and a bool
 * tensor made from it. Each result is compared with the reference backend
 * and with the known value. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "large/large_sizes.h"

#define LARGE_N ((int64_t)2147483648 + 5)
#define LARGE_MAX_AT (LARGE_N - 3)
#define LARGE_MIN_AT ((int64_t)2147483648 + 1)

static int8_t pattern(int64_t i)
{
    if (i == LARGE_MAX_AT)
        return 127;
    if (i == LARGE_MIN_AT)
        return -128;
    return (int8_t)(i % 201 - 100);
}

/* One int64 (or the first of a few) of t on the host. */
static int first_int64s(struct large_run *r, const tsr_tensor *t, int64_t *v, int count)
{
    if (!t || tsr_tensor_numel(t) != count || tsr_tensor_dtype(t) != TSR_INT64) {
        large_expect(r, 0, "expected %d int64 values", count);
        return 0;
    }
    int ok = tsr_to_host(t, v, (size_t)count * 8) == TSR_OK;
    large_expect(r, ok, "to_host: %s", tsr_last_error());
    return ok;
}

/* op(x) on both backends, equal to each other and to `known`. */
static void scalar_check(struct large_run *r, const char *what, tsr_tensor *got,
                         tsr_tensor *want, int64_t known)
{
    int64_t g = 0, w = 0;
    tsr_tensor *gi = NULL, *wi = NULL;
    if (tsr_tensor_dtype(got) != TSR_INT64) {
        large_ok(r, tsr_to_dtype(got, TSR_INT64, &gi), what);
        large_ok(r, tsr_to_dtype(want, TSR_INT64, &wi), what);
    }
    if (first_int64s(r, gi ? gi : got, &g, 1) && first_int64s(r, wi ? wi : want, &w, 1))
        large_expect(r, g == known && w == known, "%s of 2^31 + 5 elements: %lld, reference %lld, "
                     "expected %lld", what, (long long)g, (long long)w, (long long)known);
    tsr_tensor_release(gi);
    tsr_tensor_release(wi);
    tsr_tensor_release(got);
    tsr_tensor_release(want);
}

/* Progress, so a run killed for memory says where. */
static void step(const char *what)
{
    printf("  2^31 + 5: %s\n", what);
    fflush(stdout);
}

static void reductions(struct large_run *r, tsr_tensor *xv, tsr_tensor *xr, int64_t nonzero,
                       int64_t total)
{
    tsr_tensor *g = NULL, *w = NULL;
    step("argmax");
    if (large_ok(r, tsr_argmax(xv, NULL, 0, false, &g), "argmax") &&
        large_ok(r, tsr_argmax(xr, NULL, 0, false, &w), "argmax"))
        scalar_check(r, "argmax", g, w, LARGE_MAX_AT);
    g = w = NULL;
    step("argmin");
    if (large_ok(r, tsr_argmin(xv, NULL, 0, false, &g), "argmin") &&
        large_ok(r, tsr_argmin(xr, NULL, 0, false, &w), "argmin"))
        scalar_check(r, "argmin", g, w, LARGE_MIN_AT);
    g = w = NULL;
    step("amax");
    if (large_ok(r, tsr_amax(xv, NULL, 0, false, &g), "amax") &&
        large_ok(r, tsr_amax(xr, NULL, 0, false, &w), "amax"))
        scalar_check(r, "amax", g, w, 127);
    g = w = NULL;
    /* sum of int8 and bool accumulates in int64 reading the input as it is
     * (the (sum, int8, int64) kernel; a widened copy would be 16 GiB). */
    step("sum of x (int8, to int64)");
    if (large_ok(r, tsr_sum(xv, NULL, 0, false, TSR_DTYPE_INFER, &g), "sum int8") &&
        large_ok(r, tsr_sum(xr, NULL, 0, false, TSR_DTYPE_INFER, &w), "sum int8"))
        scalar_check(r, "sum of int8", g, w, total);
    else {
        tsr_tensor_release(g);
        tsr_tensor_release(w);
    }
    g = w = NULL;
    step("count_nonzero of x and of x != 0 (bool)");
    if (large_ok(r, tsr_count_nonzero(xv, NULL, 0, &g), "count_nonzero int8") &&
        large_ok(r, tsr_count_nonzero(xr, NULL, 0, &w), "count_nonzero int8"))
        scalar_check(r, "count_nonzero of int8", g, w, nonzero);
    tsr_tensor *bv = NULL, *br = NULL;
    tsr_operand zero = tsr_operand_scalar(tsr_scalar_int(0));
    g = w = NULL;
    if (large_ok(r, tsr_binary(TSR_OP_NE, tsr_operand_tensor(xv), zero, &bv), "ne") &&
        large_ok(r, tsr_binary(TSR_OP_NE, tsr_operand_tensor(xr), zero, &br), "ne") &&
        large_ok(r, tsr_count_nonzero(bv, NULL, 0, &g), "count_nonzero bool") &&
        large_ok(r, tsr_count_nonzero(br, NULL, 0, &w), "count_nonzero bool"))
        scalar_check(r, "count_nonzero of bool", g, w, nonzero);
    g = w = NULL;
    step("sum of x != 0 (bool, to int64)");
    if (bv && br && large_ok(r, tsr_sum(bv, NULL, 0, false, TSR_DTYPE_INFER, &g), "sum bool") &&
        large_ok(r, tsr_sum(br, NULL, 0, false, TSR_DTYPE_INFER, &w), "sum bool"))
        scalar_check(r, "sum of bool", g, w, nonzero);
    else {
        tsr_tensor_release(g);
        tsr_tensor_release(w);
    }
    tsr_tensor_release(bv);
    tsr_tensor_release(br);
}

/* cumsum (to int64) and sort of the last elements: a view whose offset is
 * past 2^31. */
static void tail_views(struct large_run *r, tsr_tensor *xv, tsr_tensor *xr)
{
    const int64_t len = 65537, start = LARGE_N - len;
    tsr_tensor *t[8] = {NULL};
    int64_t want = 0, got[1];
    for (int64_t i = start; i < LARGE_N; ++i)
        want += pattern(i);
    step("cumsum and sort of the tail");
    if (large_ok(r, tsr_narrow(xv, 0, start, len, &t[0]), "narrow") &&
        large_ok(r, tsr_narrow(xr, 0, start, len, &t[1]), "narrow") &&
        large_ok(r, tsr_cumsum(t[0], 0, TSR_INT64, &t[2]), "cumsum of the tail") &&
        large_ok(r, tsr_cumsum(t[1], 0, TSR_INT64, &t[3]), "cumsum of the tail")) {
        large_same(r, "cumsum of the tail", t[2], t[3]);
        tsr_tensor *last = NULL;
        if (large_ok(r, tsr_narrow(t[2], 0, len - 1, 1, &last), "narrow") &&
            first_int64s(r, last, got, 1))
            large_expect(r, got[0] == want, "cumsum of the tail ends at %lld, expected %lld",
                         (long long)got[0], (long long)want);
        tsr_tensor_release(last);
    }
    if (t[0] && large_ok(r, tsr_sort(t[0], 0, false, &t[4], &t[6]), "sort of the tail") &&
        large_ok(r, tsr_sort(t[1], 0, false, &t[5], &t[7]), "sort of the tail"))
        large_same(r, "sort of the tail", t[4], t[5]);
    for (int i = 0; i < 8; ++i)
        tsr_tensor_release(t[i]);
}

/* index_select, gather and scatter_add at indices past 2^31. */
static void indexing(struct large_run *r, tsr_tensor *xv, tsr_tensor *xr)
{
    int64_t idx[5] = {LARGE_N - 1, (int64_t)1 << 31, ((int64_t)1 << 31) - 1, 5, LARGE_MAX_AT};
    int64_t five = 5;
    int8_t ones[5] = {1, 1, 1, 1, 1};
    tsr_tensor *t[12] = {NULL};
    int ok = large_ok(r, tsr_from_host(idx, sizeof idx, 1, &five, TSR_INT64, r->b, &t[0]), "idx") &&
             large_ok(r, tsr_from_host(idx, sizeof idx, 1, &five, TSR_INT64, r->ref, &t[1]), "idx") &&
             large_ok(r, tsr_from_host(ones, 5, 1, &five, TSR_INT8, r->b, &t[2]), "src") &&
             large_ok(r, tsr_from_host(ones, 5, 1, &five, TSR_INT8, r->ref, &t[3]), "src");
    int8_t got[5], known[5], bumped[5];
    step("index_select, gather, scatter_add");
    for (int i = 0; i < 5; ++i) {
        known[i] = pattern(idx[i]);
        bumped[i] = (int8_t)(uint8_t)((uint8_t)known[i] + 1u); /* int8 wraps */
    }
    if (ok && large_ok(r, tsr_index_select(xv, 0, t[0], &t[4]), "index_select") &&
        large_ok(r, tsr_index_select(xr, 0, t[1], &t[5]), "index_select")) {
        large_same(r, "index_select past 2^31", t[4], t[5]);
        large_expect(r, tsr_to_host(t[4], got, 5) == TSR_OK && memcmp(got, known, 5) == 0,
                     "index_select past 2^31: not the pattern's values");
    }
    if (ok && large_ok(r, tsr_gather(xv, 0, t[0], &t[6]), "gather") &&
        large_ok(r, tsr_gather(xr, 0, t[1], &t[7]), "gather")) {
        large_same(r, "gather past 2^31", t[6], t[7]);
        large_expect(r, tsr_to_host(t[6], got, 5) == TSR_OK && memcmp(got, known, 5) == 0,
                     "gather past 2^31: not the pattern's values");
    }
    /* One 2 GiB output per backend; compared at the indices it touched. */
    if (ok && large_ok(r, tsr_scatter_add(xv, 0, t[0], t[2], &t[8]), "scatter_add")) {
        if (large_ok(r, tsr_index_select(t[8], 0, t[0], &t[9]), "index_select"))
            large_expect(r, tsr_to_host(t[9], got, 5) == TSR_OK && memcmp(got, bumped, 5) == 0,
                         "scatter_add past 2^31: not x + 1 at the indices");
        tsr_tensor_release(t[8]);
        t[8] = NULL;
        if (large_ok(r, tsr_scatter_add(xr, 0, t[1], t[3], &t[10]), "scatter_add") &&
            large_ok(r, tsr_index_select(t[10], 0, t[1], &t[11]), "index_select"))
            large_same(r, "scatter_add past 2^31", t[9], t[11]);
    }
    for (int i = 0; i < 12; ++i)
        tsr_tensor_release(t[i]);
}

void large_host_cases(struct large_run *r)
{
    int64_t n = LARGE_N, nonzero = 0;
    int8_t *buf = malloc((size_t)n);
    if (!buf) {
        large_expect(r, 0, "no host memory for 2^31 + 5 bytes");
        return;
    }
    int64_t total = 0;
    for (int64_t i = 0; i < n; ++i) {
        buf[i] = pattern(i);
        nonzero += buf[i] != 0;
        total += buf[i];
    }
    tsr_tensor *xr = NULL, *xv = NULL;
    int same = r->b == r->ref;
    int ok = large_ok(r, tsr_from_host(buf, (size_t)n, 1, &n, TSR_INT8, r->ref, &xr), "from_host") &&
             (same || large_ok(r, tsr_from_host(buf, (size_t)n, 1, &n, TSR_INT8, r->b, &xv),
                               "from_host"));
    free(buf);
    if (ok) {
        tsr_tensor *v = same ? xr : xv;
        reductions(r, v, xr, nonzero, total);
        tail_views(r, v, xr);
        indexing(r, v, xr);
    }
    tsr_tensor_release(xr);
    tsr_tensor_release(xv);
    printf("%s [2^31 + 5]: %d checks, %d failures, %d missing so far\n", r->name, r->checks,
           r->failures, r->missing);
}
