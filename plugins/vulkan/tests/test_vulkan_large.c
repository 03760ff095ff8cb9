/* Reductions and softmax on the Vulkan backend at lengths around
 * the 65535 workgroups a dispatch dimension is guaranteed (and beyond
 * 2^24), against the reference backend through the public API: the same
 * random bits on both, sums and cumsums within a float32 rounding bound
 * (the orders may differ), extrema and their indices exact; scans
 * (cumsum, cumprod, cummax, cummin, logcumsumexp) bit for bit, and the same
 * bits on a second run; operands past maxStorageBufferRange (128 MiB on
 * lavapipe) with the reference's bits.
 *
 * Exit 77 (skip) when there is no Vulkan loader or device. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tessera/tessera.h>

#include "vulkan_api_test.h"

#define OK(call) EXPECT((call) == TSR_OK, "%s: %s", #call, tsr_last_error())

static tsr_backend *ref, *vk;

/* One case: x on the reference backend and its copy on the device. */
struct pair {
    const char *name;
    tsr_tensor *r, *v;
};

/* The float32 or int64 values of t (NULL after a failure, counted). */
static void *host_copy(const tsr_tensor *t, size_t esize, int64_t *numel)
{
    *numel = t ? tsr_tensor_numel(t) : 0;
    void *data = t ? malloc((size_t)*numel * esize + 1) : NULL;
    if (data && tsr_to_host(t, data, (size_t)*numel * esize) != TSR_OK) {
        EXPECT(0, "to_host: %s", tsr_last_error());
        free(data);
        data = NULL;
    }
    return data;
}

/* got and want (float32, same shape) agree within rtol of bound (the same
 * op on |x|) plus atol; exact when bound is NULL. */
static void compare_floats(const char *what, const struct pair *p, const tsr_tensor *got,
                           const tsr_tensor *want, const tsr_tensor *bound, double rtol)
{
    int64_t n = 0, m = 0, k = 0;
    float *g = host_copy(got, 4, &n), *w = host_copy(want, 4, &m);
    float *b = bound ? host_copy(bound, 4, &k) : NULL;
    EXPECT(g && w && n == m && (!bound || (b && k == n)), "%s of %s: %lld vs %lld values", what,
           p->name, (long long)n, (long long)m);
    int bad = 0;
    for (int64_t i = 0; g && w && n == m && (!bound || b) && i < n && bad < 3; ++i) {
        int same = bound ? fabs((double)g[i] - (double)w[i]) <= rtol * (double)b[i] + 1e-6
                         : memcmp(&g[i], &w[i], 4) == 0;
        if (!same) {
            EXPECT(0, "%s of %s, element %lld: vulkan %.9g, reference %.9g", what, p->name,
                   (long long)i, g[i], w[i]);
            ++bad;
        }
    }
    free(g);
    free(w);
    free(b);
}

static void compare_indices(const char *what, const struct pair *p, const tsr_tensor *got,
                            const tsr_tensor *want)
{
    int64_t n = 0, m = 0;
    int64_t *g = host_copy(got, 8, &n), *w = host_copy(want, 8, &m);
    EXPECT(g && w && n == m, "%s of %s: %lld vs %lld values", what, p->name, (long long)n,
           (long long)m);
    int bad = 0;
    for (int64_t i = 0; g && w && n == m && i < n && bad < 3; ++i)
        if (g[i] != w[i]) {
            EXPECT(0, "%s of %s, element %lld: vulkan %lld, reference %lld", what, p->name,
                   (long long)i, (long long)g[i], (long long)w[i]);
            ++bad;
        }
    free(g);
    free(w);
}

static void release3(tsr_tensor *a, tsr_tensor *b, tsr_tensor *c)
{
    tsr_tensor_release(a);
    tsr_tensor_release(b);
    tsr_tensor_release(c);
}

/* sum, amax, argmax and max_dim over dims (ndims 0: everything). */
static void check_reductions(const struct pair *p, const int64_t *dims, int ndims)
{
    tsr_tensor *abs_x = NULL, *got = NULL, *want = NULL, *bound = NULL;
    OK(tsr_unary(TSR_OP_ABS, p->r, &abs_x));
    OK(tsr_sum(p->v, dims, ndims, false, TSR_DTYPE_INFER, &got));
    OK(tsr_sum(p->r, dims, ndims, false, TSR_DTYPE_INFER, &want));
    OK(tsr_sum(abs_x, dims, ndims, false, TSR_DTYPE_INFER, &bound));
    compare_floats("sum", p, got, want, bound, 1e-4);
    release3(got, want, bound);
    tsr_tensor_release(abs_x);
    got = want = NULL;
    OK(tsr_amax(p->v, dims, ndims, false, &got));
    OK(tsr_amax(p->r, dims, ndims, false, &want));
    compare_floats("amax", p, got, want, NULL, 0);
    release3(got, want, NULL);
    got = want = NULL;
    OK(tsr_argmax(p->v, dims, ndims, false, &got));
    OK(tsr_argmax(p->r, dims, ndims, false, &want));
    compare_indices("argmax", p, got, want);
    release3(got, want, NULL);
    if (ndims != 1)
        return;
    tsr_tensor *gv = NULL, *gi = NULL, *wv = NULL, *wi = NULL;
    OK(tsr_max_dim(p->v, dims[0], false, &gv, &gi));
    OK(tsr_max_dim(p->r, dims[0], false, &wv, &wi));
    compare_floats("max_dim values", p, gv, wv, NULL, 0);
    compare_indices("max_dim indices", p, gi, wi);
    release3(gv, gi, NULL);
    release3(wv, wi, NULL);
}

/* softmax along dim: values in [0, 1], within 1e-5 of each (|x| is no
 * bound here, so the bound is a tensor of ones). */
static void check_softmax(const struct pair *p, int64_t dim)
{
    tsr_tensor *got = NULL, *want = NULL, *ones = NULL;
    OK(tsr_softmax(p->v, dim, TSR_DTYPE_INFER, &got));
    OK(tsr_softmax(p->r, dim, TSR_DTYPE_INFER, &want));
    OK(tsr_full(tsr_tensor_ndim(p->r), tsr_tensor_shape(p->r), tsr_scalar_float(1.0),
                TSR_FLOAT32, ref, &ones));
    compare_floats("softmax", p, got, want, ones, 1e-5);
    release3(got, want, ones);
}

/* got and want hold the same bytes (esize-byte elements). */
static void compare_bits(const char *what, const struct pair *p, const tsr_tensor *got,
                         const tsr_tensor *want, size_t esize)
{
    int64_t n = 0, m = 0;
    unsigned char *g = host_copy(got, esize, &n), *w = host_copy(want, esize, &m);
    EXPECT(g && w && n == m, "%s of %s: %lld vs %lld values", what, p->name, (long long)n,
           (long long)m);
    for (int64_t i = 0; g && w && n == m && i < n; ++i)
        if (memcmp(g + i * esize, w + i * esize, esize) != 0) {
            EXPECT(0, "%s of %s: first difference at element %lld of %lld", what, p->name,
                   (long long)i, (long long)n);
            break;
        }
    free(g);
    free(w);
}

enum { SCAN_SUM, SCAN_PROD, SCAN_LSE, SCAN_MAX, SCAN_MIN };

static tsr_status run_scan(int which, const tsr_tensor *x, int64_t dim, tsr_tensor **out,
                           tsr_tensor **indices)
{
    switch (which) {
    case SCAN_SUM: return tsr_cumsum(x, dim, TSR_DTYPE_INFER, out);
    case SCAN_PROD: return tsr_cumprod(x, dim, TSR_DTYPE_INFER, out);
    case SCAN_LSE: return tsr_logcumsumexp(x, dim, out);
    case SCAN_MAX: return tsr_cummax(x, dim, out, indices);
    default: return tsr_cummin(x, dim, out, indices);
    }
}

/* One scan of x (pair p's tensors or their int32 casts) on both backends,
 * twice on the device. */
static void check_scan(const struct pair *p, const tsr_tensor *xr, const tsr_tensor *xv,
                       int which, int64_t dim, size_t esize)
{
    static const char *names[] = {"cumsum", "cumprod", "logcumsumexp", "cummax", "cummin"};
    int two = which == SCAN_MAX || which == SCAN_MIN;
    tsr_tensor *want = NULL, *wi = NULL;
    OK(run_scan(which, xr, dim, &want, two ? &wi : NULL));
    for (int run = 0; run < 2; ++run) {
        tsr_tensor *got = NULL, *gi = NULL;
        OK(run_scan(which, xv, dim, &got, two ? &gi : NULL));
        compare_bits(names[which], p, got, want, esize);
        if (two)
            compare_indices(names[which], p, gi, wi);
        release3(got, gi, NULL);
    }
    release3(want, wi, NULL);
}

static void check_scans(const struct pair *p, int64_t dim)
{
    for (int which = SCAN_SUM; which <= SCAN_MIN; ++which)
        check_scan(p, p->r, p->v, which, dim, 4);
    /* Integers: cumsum to int64, cummax of int32. */
    tsr_tensor *scaled = NULL, *ir = NULL, *iv = NULL;
    OK(tsr_binary(TSR_OP_MUL, tsr_operand_tensor(p->r), tsr_operand_scalar(tsr_scalar_float(1000)),
                  &scaled));
    if (scaled)
        OK(tsr_to_dtype(scaled, TSR_INT32, &ir));
    if (ir)
        OK(tsr_to_backend(ir, vk, &iv));
    if (iv) {
        check_scan(p, ir, iv, SCAN_SUM, dim, 8);
        check_scan(p, ir, iv, SCAN_MAX, dim, 4);
    }
    release3(scaled, ir, iv);
}

static int make_pair(struct pair *p, const char *name, int ndim, const int64_t *shape,
                     uint64_t seed)
{
    tsr_generator *gen = NULL;
    p->name = name;
    p->r = p->v = NULL;
    OK(tsr_generator_create(seed, &gen));
    OK(tsr_randn(gen, ndim, shape, TSR_FLOAT32, ref, &p->r));
    tsr_generator_destroy(gen);
    if (p->r)
        OK(tsr_to_backend(p->r, vk, &p->v));
    return p->r && p->v;
}

static void free_pair(struct pair *p)
{
    tsr_tensor_release(p->r);
    tsr_tensor_release(p->v);
}

/* The maximum moved to the second-to-last element, past any prefix a
 * truncated reduction would cover. */
static void late_maximum(const struct pair *p)
{
    int64_t n = 0;
    float *x = host_copy(p->r, 4, &n);
    struct pair late = {"late maximum", NULL, NULL};
    if (x && n >= 2) {
        x[n - 2] = 100.0f;
        OK(tsr_from_host(x, (size_t)n * 4, 1, &n, TSR_FLOAT32, ref, &late.r));
        if (late.r)
            OK(tsr_to_backend(late.r, vk, &late.v));
        if (late.v)
            check_reductions(&late, NULL, 0);
    }
    free(x);
    tsr_tensor_release(late.r);
    tsr_tensor_release(late.v);
}

/* 1-d: over everything. */
static void long_vectors(void)
{
    static const int64_t lengths[] = {65535, 65536, 65537, (1 << 24) + 3};
    for (size_t i = 0; i < sizeof lengths / sizeof lengths[0]; ++i) {
        char name[64];
        snprintf(name, sizeof name, "[%lld]", (long long)lengths[i]);
        struct pair p;
        if (make_pair(&p, name, 1, &lengths[i], 100 + i)) {
            int64_t dim = 0;
            check_reductions(&p, NULL, 0);
            check_reductions(&p, &dim, 1);
            late_maximum(&p);
        }
        free_pair(&p);
    }
}

/* 2-d with one long dim: along either dim, and over both. */
static void long_rows_and_columns(void)
{
    static const int64_t shapes[2][2] = {{3, 65537}, {65537, 3}};
    for (int s = 0; s < 2; ++s) {
        char name[64];
        snprintf(name, sizeof name, "[%lld, %lld]", (long long)shapes[s][0],
                 (long long)shapes[s][1]);
        struct pair p;
        if (make_pair(&p, name, 2, shapes[s], 200 + s)) {
            for (int64_t dim = 0; dim < 2; ++dim) {
                check_reductions(&p, &dim, 1);
                check_softmax(&p, dim);
            }
            check_reductions(&p, NULL, 0);
        }
        free_pair(&p);
    }
}

/* Scans along slices of 65535, 2^16 + 1 and 2^20 + 3 elements, in 1-d and
 * as the rows and the columns of a 2-d tensor. */
static void long_scans(void)
{
    static const int64_t lengths[] = {65535, 65537, (1 << 20) + 3};
    for (size_t i = 0; i < sizeof lengths / sizeof lengths[0]; ++i) {
        char name[64];
        snprintf(name, sizeof name, "scan [%lld]", (long long)lengths[i]);
        struct pair p;
        if (make_pair(&p, name, 1, &lengths[i], 300 + i))
            check_scans(&p, 0);
        free_pair(&p);
    }
    static const int64_t shapes[2][2] = {{3, 65537}, {65537, 3}};
    for (int s = 0; s < 2; ++s) {
        char name[64];
        snprintf(name, sizeof name, "scan [%lld, %lld]", (long long)shapes[s][0],
                 (long long)shapes[s][1]);
        struct pair p;
        if (make_pair(&p, name, 2, shapes[s], 400 + s))
            check_scans(&p, 1 - s);
        free_pair(&p);
    }
}

/* Past maxStorageBufferRange (128 MiB on lavapipe): 2^25 + 3 float32
 * values, bound in windows within the limit (launch.c, reduce_launch.c,
 * products_launch.c). Elementwise ops, a conversion, the sum (the wide
 * shader's order is the reference's), extrema and a matmul whose output
 * is past the limit give the reference's bits; softmax and log_softmax of
 * the whole row agree within 1e-5. */
static void past_the_binding_limit(void)
{
    const int64_t n = ((int64_t)1 << 25) + 3;
    struct pair p;
    if (make_pair(&p, "[2^25 + 3]", 1, &n, 500)) {
        tsr_tensor *t[8] = {NULL};
        OK(tsr_binary(TSR_OP_MUL, tsr_operand_tensor(p.v), tsr_operand_scalar(tsr_scalar_float(3)),
                      &t[0]));
        OK(tsr_binary(TSR_OP_MUL, tsr_operand_tensor(p.r), tsr_operand_scalar(tsr_scalar_float(3)),
                      &t[1]));
        OK(tsr_binary(TSR_OP_ADD, tsr_operand_tensor(t[0]), tsr_operand_tensor(p.v), &t[2]));
        OK(tsr_binary(TSR_OP_ADD, tsr_operand_tensor(t[1]), tsr_operand_tensor(p.r), &t[3]));
        compare_bits("3x + x", &p, t[2], t[3], 4);
        OK(tsr_to_dtype(t[2], TSR_INT8, &t[4]));
        OK(tsr_to_dtype(t[3], TSR_INT8, &t[5]));
        compare_bits("int8(3x + x)", &p, t[4], t[5], 1);
        OK(tsr_sum(p.v, NULL, 0, false, TSR_DTYPE_INFER, &t[6]));
        OK(tsr_sum(p.r, NULL, 0, false, TSR_DTYPE_INFER, &t[7]));
        compare_bits("sum", &p, t[6], t[7], 4);
        for (int i = 0; i < 8; ++i)
            tsr_tensor_release(t[i]);
        check_reductions(&p, NULL, 0);
        /* One row too long for llvmpipe's loop limit: composed from
         * whole-tensor kernels (softmax_long.c), its scratch tiled too. */
        check_softmax(&p, 0);
        tsr_tensor *got = NULL, *want = NULL, *ones = NULL;
        OK(tsr_log_softmax(p.v, 0, TSR_DTYPE_INFER, &got));
        OK(tsr_log_softmax(p.r, 0, TSR_DTYPE_INFER, &want));
        OK(tsr_full(1, &n, tsr_scalar_float(1.0), TSR_FLOAT32, ref, &ones));
        compare_floats("log_softmax", &p, got, want, ones, 1e-5);
        release3(got, want, ones);
    }
    free_pair(&p);
    /* [2^24 + 3, 1] @ [1, 2]: the output (2^25 + 6 floats) in runs of rows. */
    const int64_t rows = ((int64_t)1 << 24) + 3, a_shape[2] = {rows, 1}, b_shape[2] = {1, 2};
    struct pair a = {0}, b = {0};
    if (make_pair(&a, "matmul a", 2, a_shape, 501) && make_pair(&b, "matmul b", 2, b_shape, 502)) {
        tsr_tensor *got = NULL, *want = NULL;
        OK(tsr_matmul(a.v, b.v, &got));
        OK(tsr_matmul(a.r, b.r, &want));
        compare_bits("matmul [2^24 + 3, 1] @ [1, 2]", &a, got, want, 4);
        release3(got, want, NULL);
    }
    free_pair(&a);
    free_pair(&b);
}

int main(void)
{
    int loaded = get_reference_and_vulkan(&ref, &vk);
    if (loaded != 0)
        return loaded;
    long_vectors();
    long_rows_and_columns();
    long_scans();
    past_the_binding_limit();
    EXPECT(tsr_backend_synchronize(vk) == TSR_OK, "synchronize: %s", tsr_last_error());
    if (failures) {
        printf("%d failure(s)\n", failures);
        return 1;
    }
    printf("all large-size checks passed\n");
    return 0;
}
