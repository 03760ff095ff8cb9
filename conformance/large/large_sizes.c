/* test_large_sizes: every loaded backend against the reference at lengths
 * where index arithmetic and dispatch limits break (2^16 - 1, 2^16 + 1,
 * 2^24 + 3), for reductions, arg-reductions, scans, sort, indexing,
 * scattering, softmax rows and matmul; with --full, all of them at 2^24 + 3
 * too and the host backends past 2^31 elements (large_host.c).
 *
 *   test_large_sizes [--full] [backend ...]     (default: every one loaded)
 *   test_large_sizes --only-2-31 [backend ...]  (just the host cases past 2^31)
 *
 * Float results agree within a rounding bound (the same op on |x|, as the
 * orders may differ); extrema, indices, sorted values, gathered and
 * scattered elements bit for bit. A kernel a backend lacks is listed as
 * missing, not failed. Exit 0 when everything compared agrees. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "large/large_sizes.h"

void large_expect(struct large_run *r, int ok, const char *fmt, ...)
{
    ++r->checks;
    if (ok)
        return;
    va_list ap;
    va_start(ap, fmt);
    printf("FAIL %s: ", r->name);
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
    ++r->failures;
}

int large_ok(struct large_run *r, tsr_status status, const char *what)
{
    if (status == TSR_OK)
        return 1;
    if (status == TSR_ERR_UNIMPLEMENTED) {
        printf("missing on %s: %s: %s\n", r->name, what, tsr_last_error());
        ++r->missing;
        return 0;
    }
    large_expect(r, 0, "%s: %s", what, tsr_last_error());
    return 0;
}

static void *host_bytes(struct large_run *r, const tsr_tensor *t, int64_t *numel)
{
    size_t es = tsr_dtype_size(tsr_tensor_dtype(t));
    *numel = tsr_tensor_numel(t);
    void *data = malloc((size_t)*numel * es + 1);
    if (!data || tsr_to_host(t, data, (size_t)*numel * es) != TSR_OK) {
        large_expect(r, 0, "to_host: %s", data ? tsr_last_error() : "out of memory");
        free(data);
        return NULL;
    }
    return data;
}

void large_same(struct large_run *r, const char *what, const tsr_tensor *got,
                const tsr_tensor *want)
{
    int64_t n = 0, m = 0;
    size_t es = tsr_dtype_size(tsr_tensor_dtype(want));
    unsigned char *g = host_bytes(r, got, &n), *w = g ? host_bytes(r, want, &m) : NULL;
    if (g && w) {
        int64_t i = 0;
        while (n == m && i < n && memcmp(g + i * es, w + i * es, es) == 0)
            ++i;
        large_expect(r, n == m && i == n, "%s: %lld vs %lld elements, first difference at %lld",
                     what, (long long)n, (long long)m, (long long)i);
    }
    free(g);
    free(w);
}

/* float32 got and want within rtol * bound + atol, element by element. */
static void large_close(struct large_run *r, const char *what, const tsr_tensor *got,
                        const tsr_tensor *want, const tsr_tensor *bound, double rtol,
                        double atol)
{
    int64_t n = 0, m = 0, k = 0;
    float *g = host_bytes(r, got, &n), *w = g ? host_bytes(r, want, &m) : NULL;
    float *b = w && bound ? host_bytes(r, bound, &k) : NULL;
    if (g && w && (b || !bound)) {
        int64_t i = 0;
        while (n == m && i < n &&
               fabs((double)g[i] - (double)w[i]) <= rtol * (b ? fabs((double)b[i]) : 1.0) + atol)
            ++i;
        large_expect(r, n == m && i == n, "%s: element %lld of %lld: %.9g, reference %.9g", what,
                     (long long)i, (long long)n, i < n ? g[i] : 0.0, i < m ? w[i] : 0.0);
    }
    free(g);
    free(w);
    free(b);
}

static void release(tsr_tensor **ts, int count)
{
    for (int i = 0; i < count; ++i) {
        tsr_tensor_release(ts[i]);
        ts[i] = NULL;
    }
}

/* x on the reference (xr) and on the backend (xv): randn float32 [n]. */
struct input {
    int64_t n;
    tsr_tensor *xr, *xv, *abs_r;
    char tag[48];
};

static void reduce_cases(struct large_run *r, const struct input *in)
{
    tsr_tensor *t[4] = {NULL};
    char what[96];
    snprintf(what, sizeof what, "sum %s", in->tag);
    if (large_ok(r, tsr_sum(in->xv, NULL, 0, false, TSR_DTYPE_INFER, &t[0]), what) &&
        large_ok(r, tsr_sum(in->xr, NULL, 0, false, TSR_DTYPE_INFER, &t[1]), what) &&
        large_ok(r, tsr_sum(in->abs_r, NULL, 0, false, TSR_DTYPE_INFER, &t[2]), what))
        large_close(r, what, t[0], t[1], t[2], 1e-5, 1e-3);
    release(t, 3);
    snprintf(what, sizeof what, "argmax %s", in->tag);
    if (large_ok(r, tsr_argmax(in->xv, NULL, 0, false, &t[0]), what) &&
        large_ok(r, tsr_argmax(in->xr, NULL, 0, false, &t[1]), what))
        large_same(r, what, t[0], t[1]);
    release(t, 2);
    snprintf(what, sizeof what, "amin %s", in->tag);
    if (large_ok(r, tsr_amin(in->xv, NULL, 0, false, &t[0]), what) &&
        large_ok(r, tsr_amin(in->xr, NULL, 0, false, &t[1]), what))
        large_same(r, what, t[0], t[1]);
    release(t, 2);
}

static void scan_cases(struct large_run *r, const struct input *in)
{
    tsr_tensor *t[4] = {NULL};
    char what[96];
    snprintf(what, sizeof what, "cumsum %s", in->tag);
    if (large_ok(r, tsr_cumsum(in->xv, 0, TSR_DTYPE_INFER, &t[0]), what) &&
        large_ok(r, tsr_cumsum(in->xr, 0, TSR_DTYPE_INFER, &t[1]), what) &&
        large_ok(r, tsr_cumsum(in->abs_r, 0, TSR_DTYPE_INFER, &t[2]), what))
        large_close(r, what, t[0], t[1], t[2], 1e-5, 1e-3);
    release(t, 3);
    snprintf(what, sizeof what, "cummax %s", in->tag);
    if (large_ok(r, tsr_cummax(in->xv, 0, &t[0], &t[1]), what) &&
        large_ok(r, tsr_cummax(in->xr, 0, &t[2], &t[3]), what)) {
        large_same(r, what, t[0], t[2]);
        large_same(r, what, t[1], t[3]);
    }
    release(t, 4);
}

/* Sorted values bit for bit; the indices (ties may be ordered either way
 * by an unstable sort) must gather the values from the input. */
static void sort_cases(struct large_run *r, const struct input *in)
{
    tsr_tensor *t[5] = {NULL};
    char what[96];
    snprintf(what, sizeof what, "sort %s", in->tag);
    if (large_ok(r, tsr_sort(in->xv, 0, false, &t[0], &t[1]), what) &&
        large_ok(r, tsr_sort(in->xr, 0, false, &t[2], &t[3]), what)) {
        large_same(r, what, t[0], t[2]);
        if (large_ok(r, tsr_gather(in->xv, 0, t[1], &t[4]), what))
            large_same(r, "sort's indices gathering its values", t[4], t[2]);
    }
    release(t, 5);
}

/* Indices near both ends, as an int64 tensor on backend b. */
static tsr_tensor *end_indices(struct large_run *r, int64_t n, tsr_backend *b)
{
    int64_t idx[5] = {n - 1, 0, n - 2, n / 2, n - 3}, five = 5;
    tsr_tensor *t = NULL;
    large_ok(r, tsr_from_host(idx, sizeof idx, 1, &five, TSR_INT64, b, &t), "indices");
    return t;
}

static void index_scatter_cases(struct large_run *r, const struct input *in)
{
    tsr_tensor *ir = end_indices(r, in->n, r->ref), *iv = end_indices(r, in->n, r->b);
    tsr_tensor *t[6] = {NULL};
    char what[96];
    snprintf(what, sizeof what, "index_select %s", in->tag);
    if (ir && iv && large_ok(r, tsr_index_select(in->xv, 0, iv, &t[0]), what) &&
        large_ok(r, tsr_index_select(in->xr, 0, ir, &t[1]), what))
        large_same(r, what, t[0], t[1]);
    snprintf(what, sizeof what, "gather %s", in->tag);
    if (ir && iv && large_ok(r, tsr_gather(in->xv, 0, iv, &t[2]), what) &&
        large_ok(r, tsr_gather(in->xr, 0, ir, &t[3]), what))
        large_same(r, what, t[2], t[3]);
    release(t, 4);
    /* scatter_add of the first five inputs into x at the ends. */
    snprintf(what, sizeof what, "scatter_add %s", in->tag);
    if (ir && iv && large_ok(r, tsr_narrow(in->xv, 0, 0, 5, &t[0]), what) &&
        large_ok(r, tsr_narrow(in->xr, 0, 0, 5, &t[1]), what) &&
        large_ok(r, tsr_scatter_add(in->xv, 0, iv, t[0], &t[2]), what) &&
        large_ok(r, tsr_scatter_add(in->xr, 0, ir, t[1], &t[3]), what))
        large_same(r, what, t[2], t[3]);
    snprintf(what, sizeof what, "index_add %s", in->tag);
    if (t[0] && t[1] && large_ok(r, tsr_index_add(in->xv, 0, iv, t[0], tsr_scalar_int(1), &t[4]), what) &&
        large_ok(r, tsr_index_add(in->xr, 0, ir, t[1], tsr_scalar_int(1), &t[5]), what))
        large_same(r, what, t[4], t[5]);
    release(t, 6);
    tsr_tensor_release(ir);
    tsr_tensor_release(iv);
}

/* scatter_add of all of x along a permutation (i * 7919 mod n; n is
 * coprime to 7919 here): one slice walking n index positions. */
static void long_scatter(struct large_run *r, const struct input *in)
{
    int64_t n = in->n;
    int64_t *perm = malloc((size_t)n * sizeof *perm);
    tsr_tensor *t[6] = {NULL};
    char what[96];
    snprintf(what, sizeof what, "scatter_add along a permutation %s", in->tag);
    for (int64_t i = 0; perm && i < n; ++i)
        perm[i] = (int64_t)((uint64_t)i * 7919u % (uint64_t)n);
    large_expect(r, perm != NULL, "%s: no host memory", what);
    if (perm && large_ok(r, tsr_from_host(perm, (size_t)n * 8, 1, &n, TSR_INT64, r->ref, &t[0]), what) &&
        large_ok(r, tsr_to_backend(t[0], r->b, &t[1]), what) &&
        large_ok(r, tsr_zeros(1, &n, TSR_FLOAT32, r->ref, &t[2]), what) &&
        large_ok(r, tsr_to_backend(t[2], r->b, &t[3]), what) &&
        large_ok(r, tsr_scatter_add(t[3], 0, t[1], in->xv, &t[4]), what) &&
        large_ok(r, tsr_scatter_add(t[2], 0, t[0], in->xr, &t[5]), what))
        large_same(r, what, t[4], t[5]);
    free(perm);
    release(t, 6);
}

static void softmax_cases(struct large_run *r, const struct input *in)
{
    tsr_tensor *t[2] = {NULL};
    char what[96];
    snprintf(what, sizeof what, "softmax of one row %s", in->tag);
    if (large_ok(r, tsr_softmax(in->xv, 0, TSR_DTYPE_INFER, &t[0]), what) &&
        large_ok(r, tsr_softmax(in->xr, 0, TSR_DTYPE_INFER, &t[1]), what))
        large_close(r, what, t[0], t[1], t[1], 1e-4, 1e-9);
    release(t, 2);
}

/* [1, n] @ [n, 1] (a long K loop) and [n, 1] @ [1, 2] (n rows). */
static void matmul_cases(struct large_run *r, const struct input *in)
{
    int64_t row[2] = {1, in->n}, col[2] = {in->n, 1}, two[2] = {1, 2};
    tsr_tensor *t[10] = {NULL};
    char what[96];
    snprintf(what, sizeof what, "matmul [1, n] @ [n, 1] %s", in->tag);
    if (large_ok(r, tsr_view(in->xv, 2, row, &t[0]), what) &&
        large_ok(r, tsr_view(in->xv, 2, col, &t[1]), what) &&
        large_ok(r, tsr_view(in->xr, 2, row, &t[2]), what) &&
        large_ok(r, tsr_view(in->xr, 2, col, &t[3]), what) &&
        large_ok(r, tsr_matmul(t[0], t[1], &t[4]), what) &&
        large_ok(r, tsr_matmul(t[2], t[3], &t[5]), what))
        large_close(r, what, t[4], t[5], t[5], 1e-5, 0);
    snprintf(what, sizeof what, "matmul [n, 1] @ [1, 2] %s", in->tag);
    static const float w[2] = {0.75f, -1.5f};
    if (t[1] && t[3] && large_ok(r, tsr_from_host(w, sizeof w, 2, two, TSR_FLOAT32, r->ref, &t[6]), what) &&
        large_ok(r, tsr_to_backend(t[6], r->b, &t[7]), what) &&
        large_ok(r, tsr_matmul(t[1], t[7], &t[8]), what) &&
        large_ok(r, tsr_matmul(t[3], t[6], &t[9]), what))
        large_close(r, what, t[8], t[9], t[9], 1e-6, 1e-30);
    release(t, 10);
}

static int make_input(struct large_run *r, int64_t n, uint64_t seed, struct input *in)
{
    memset(in, 0, sizeof *in);
    in->n = n;
    snprintf(in->tag, sizeof in->tag, "[%lld]", (long long)n);
    tsr_generator *gen = NULL;
    int ok = large_ok(r, tsr_generator_create(seed, &gen), "generator") &&
             large_ok(r, tsr_randn(gen, 1, &n, TSR_FLOAT32, r->ref, &in->xr), "randn") &&
             large_ok(r, tsr_to_backend(in->xr, r->b, &in->xv), "to_backend") &&
             large_ok(r, tsr_unary(TSR_OP_ABS, in->xr, &in->abs_r), "abs");
    tsr_generator_destroy(gen);
    return ok;
}

static void free_input(struct input *in)
{
    tsr_tensor *t[3] = {in->xr, in->xv, in->abs_r};
    release(t, 3);
}

/* Every family at n; `one` (the quick run at 2^24 + 3): one case each. */
static void family_cases(struct large_run *r, int64_t n, uint64_t seed, int one)
{
    struct input in;
    if (make_input(r, n, seed, &in)) {
        reduce_cases(r, &in);
        scan_cases(r, &in);
        if (!one)
            sort_cases(r, &in);
        index_scatter_cases(r, &in);
        long_scatter(r, &in);
        softmax_cases(r, &in);
        matmul_cases(r, &in);
    }
    free_input(&in);
    printf("%s [%lld]: %d checks, %d failures, %d missing so far\n", r->name, (long long)n,
           r->checks, r->failures, r->missing);
    fflush(stdout);
}

/* full: every family at 2^24 + 3 and the host cases past 2^31; only_huge
 * (--only-2-31): just those host cases, to rerun them in minutes. */
static int run_backend(tsr_backend *ref, const char *name, int full, int only_huge)
{
    struct large_run r = {ref, NULL, name, 0, 0, 0};
    if (tsr_backend_get(name, &r.b) != TSR_OK) {
        printf("FAIL backend %s: %s\n", name, tsr_last_error());
        return 1;
    }
    static const int64_t lengths[] = {65535, 65537};
    for (int i = 0; i < 2 && !only_huge; ++i)
        family_cases(&r, lengths[i], 10 + (uint64_t)i, 0);
    if (!only_huge)
        family_cases(&r, (1 << 24) + 3, 12, !full);
    int host = strcmp(name, "reference") == 0 || strcmp(name, "cpu") == 0;
    if (full && host)
        large_host_cases(&r);
    large_expect(&r, tsr_backend_synchronize(r.b) == TSR_OK, "synchronize: %s",
                 tsr_last_error());
    printf("%s: %d checks, %d failures, %d missing kernels\n", name, r.checks, r.failures,
           r.missing);
    return r.failures != 0;
}

int main(int argc, char **argv)
{
    int full = 0, only_huge = 0, named = 0, failed = 0;
    tsr_backend *ref;
    if (tsr_backend_get("reference", &ref) != TSR_OK) {
        printf("FAIL no reference backend: %s\n", tsr_last_error());
        return 1;
    }
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--full") == 0)
            full = 1;
        else if (strcmp(argv[i], "--only-2-31") == 0)
            full = only_huge = 1;
        else
            named = 1;
    }
    for (int i = 1; i < argc; ++i)
        if (argv[i][0] != '-')
            failed |= run_backend(ref, argv[i], full, only_huge);
    if (!named) {
        static const char *all[] = {"reference", "cpu", "vulkan"};
        for (int i = !full; i < 3; ++i) { /* reference against itself: --full only */
            tsr_backend *b;
            if (tsr_backend_get(all[i], &b) == TSR_OK)
                failed |= run_backend(ref, all[i], full, only_huge);
            else
                printf("not loaded: %s: %s\n", all[i], tsr_last_error());
        }
    }
    printf(failed ? "large sizes: FAILED\n" : "large sizes: all compared results agree\n");
    return failed;
}
