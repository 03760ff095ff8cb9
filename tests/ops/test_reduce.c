/* Reductions and scans: PyTorch 1.13's results, dtypes, errors and edge
 * cases, and the fixed summation order of docs/determinism.md. Expected
 * values were printed by torch 1.13 unless a test computes them itself.
 *
 * Families here: reduce and scan (cumsum, cummax, logcumsumexp). */
#include "check.h"

#include <float.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

/* ------------------------------------------------------------------------ */
/* Helpers                                                                   */
/* ------------------------------------------------------------------------ */

/* A tensor of `dtype` holding `values` (converted from float64). */
static tsr_tensor *from_doubles(const double *values, int ndim, const int64_t *shape,
                                tsr_dtype dtype)
{
    int64_t n = 1;
    for (int i = 0; i < ndim; i++)
        n *= shape[i];
    tsr_tensor *t64 = NULL, *t = NULL;
    CHECK_OK(
        tsr_from_host(values, (size_t)n * sizeof(double), ndim, shape, TSR_FLOAT64, NULL, &t64));
    CHECK_OK(tsr_to_dtype(t64, dtype, &t));
    tsr_tensor_release(t64);
    return t;
}

static tsr_tensor *vector(const double *values, int64_t n, tsr_dtype dtype)
{
    return from_doubles(values, 1, &n, dtype);
}

static tsr_tensor *from_ints(const int64_t *values, int64_t n, tsr_dtype dtype)
{
    tsr_tensor *t64 = NULL, *t = NULL;
    CHECK_OK(tsr_from_host(values, (size_t)n * sizeof(int64_t), 1, &n, TSR_INT64, NULL, &t64));
    CHECK_OK(tsr_to_dtype(t64, dtype, &t));
    tsr_tensor_release(t64);
    return t;
}

/* Every element of t (any dtype, complex ones by their real part) as
 * float64, in C order; the caller frees. NULL when unreadable. */
static double *all_values(const tsr_tensor *t)
{
    tsr_tensor *d = NULL;
    if (!t || tsr_to_dtype(t, TSR_FLOAT64, &d) != TSR_OK)
        return NULL;
    int64_t n = tsr_tensor_numel(d);
    double *host = malloc((size_t)(n > 0 ? n : 1) * sizeof(double));
    if (host && tsr_to_host(d, host, (size_t)n * sizeof(double)) != TSR_OK) {
        free(host);
        host = NULL;
    }
    tsr_tensor_release(d);
    return host;
}

/* Element i of t as a double; NaN when unreadable. */
static double value_at(const tsr_tensor *t, int64_t i)
{
    double *host = all_values(t);
    double result = host && i < tsr_tensor_numel(t) ? host[i] : NAN;
    free(host);
    return result;
}

static int64_t int_at(const tsr_tensor *t, int64_t i)
{
    tsr_tensor *d = NULL;
    int64_t result = -7777777;
    int64_t n = t ? tsr_tensor_numel(t) : 0;
    int64_t *host = malloc((size_t)(n > 0 ? n : 1) * sizeof(int64_t));
    if (t && tsr_to_dtype(t, TSR_INT64, &d) == TSR_OK && host &&
        tsr_to_host(d, host, (size_t)n * sizeof(int64_t)) == TSR_OK && i < n)
        result = host[i];
    free(host);
    tsr_tensor_release(d);
    return result;
}

/* The float64 bits of element i, for exact comparisons. */
static uint64_t bits_at(const tsr_tensor *t, int64_t i)
{
    double v = value_at(t, i);
    uint64_t b;
    memcpy(&b, &v, sizeof b);
    return b;
}

/* Whether a and b hold the same bits everywhere; names the first difference. */
static bool same_bits(const char *what, int k, const tsr_tensor *a, const tsr_tensor *b)
{
    double *x = all_values(a), *y = all_values(b);
    bool same = x && y && tsr_tensor_numel(a) == tsr_tensor_numel(b);
    for (int64_t i = 0; same && i < tsr_tensor_numel(a); i++) {
        if (memcmp(&x[i], &y[i], sizeof x[i]) != 0) {
            CHECK_FAIL_("%s: result %d element %lld is %.17g, contiguous copy gives %.17g", what, k,
                        (long long)i, x[i], y[i]);
            same = false;
        }
    }
    free(x);
    free(y);
    return same;
}

static void check_shape(const tsr_tensor *t, int ndim, const int64_t *shape)
{
    CHECK_TRUE(t != NULL);
    if (!t)
        return;
    CHECK_INT(tsr_tensor_ndim(t), ndim);
    for (int i = 0; i < ndim && i < tsr_tensor_ndim(t); i++)
        CHECK_INT(tsr_tensor_shape(t)[i], shape[i]);
}

static void release(tsr_tensor *a, tsr_tensor *b, tsr_tensor *c)
{
    tsr_tensor_release(a);
    tsr_tensor_release(b);
    tsr_tensor_release(c);
}

/* A deterministic spread of magnitudes, so that summation order matters. */
static double wobble(int64_t i)
{
    return (double)((i * 7919) % 1000 - 500) * (i % 3 == 0 ? 1e-3 : i % 3 == 1 ? 1.0 : 1e3);
}

/* The documented lane order, written out independently of the library. */
static double lane_block(const double *x, int64_t n)
{
    double lanes[16] = {0};
    for (int64_t k = 0; k < n; k++)
        lanes[k % 16] += x[k];
    for (int w = 8; w >= 1; w /= 2)
        for (int i = 0; i < w; i++)
            lanes[i] += lanes[i + w];
    return lanes[0];
}

static double lane_tree(const double *x, int64_t blocks, int64_t n)
{
    if (blocks == 1)
        return lane_block(x, n);
    int64_t left = 1;
    while (left * 2 < blocks)
        left *= 2;
    return lane_tree(x, left, left * 1024) +
           lane_tree(x + left * 1024, blocks - left, n - left * 1024);
}

static double lane_order_sum(const double *x, int64_t n)
{
    return n == 0 ? 0.0 : lane_tree(x, (n + 1023) / 1024, n);
}

/* ------------------------------------------------------------------------ */
/* Determinism and accuracy                                                  */
/* ------------------------------------------------------------------------ */

static void sum_of_ten_million_tenths_stays_within_one_of_a_million(void)
{
    int64_t n = 10000000;
    tsr_tensor *t = NULL, *s = NULL;
    CHECK_OK(tsr_full(1, &n, tsr_scalar_float(0.1), TSR_FLOAT32, NULL, &t));
    CHECK_OK(tsr_sum(t, NULL, 0, false, TSR_DTYPE_INFER, &s));
    CHECK_INT(tsr_tensor_dtype(s), TSR_FLOAT32);
    CHECK_DOUBLE(value_at(s, 0), 1e6, 1.0);
    release(t, s, NULL);
}

static void sum_combines_terms_in_documented_lane_order(void)
{
    static double x[3000];
    for (int64_t i = 0; i < 3000; i++)
        x[i] = wobble(i) + 1e-7 * (double)i;
    int64_t sizes[] = {1, 15, 17, 1037, 2048, 3000};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        tsr_tensor *t = vector(x, sizes[k], TSR_FLOAT64), *s = NULL;
        CHECK_OK(tsr_sum(t, NULL, 0, false, TSR_DTYPE_INFER, &s));
        double expected = lane_order_sum(x, sizes[k]);
        uint64_t want;
        memcpy(&want, &expected, sizeof want);
        if (bits_at(s, 0) != want)
            CHECK_FAIL_("sum of %lld terms is %.17g, lane order gives %.17g", (long long)sizes[k],
                        value_at(s, 0), expected);
        release(t, s, NULL);
    }
    /* the data must be able to tell orders apart, or the check above is empty */
    double sequential = 0.0;
    for (int64_t i = 0; i < 3000; i++)
        sequential += x[i];
    CHECK_TRUE(sequential != lane_order_sum(x, 3000));
}

/* Every layout of the same values gives the bits of the contiguous copy. */
static void check_layout_independent(const char *what, const tsr_tensor *view, int64_t dim)
{
    tsr_tensor *copy = NULL;
    CHECK_OK(tsr_clone(view, &copy));
    CHECK_TRUE(tsr_tensor_is_contiguous(copy));
    tsr_tensor *a[6] = {NULL}, *b[6] = {NULL};
    CHECK_OK(tsr_sum(view, &dim, 1, false, TSR_DTYPE_INFER, &a[0]));
    CHECK_OK(tsr_sum(copy, &dim, 1, false, TSR_DTYPE_INFER, &b[0]));
    CHECK_OK(tsr_mean(view, &dim, 1, false, TSR_DTYPE_INFER, &a[1]));
    CHECK_OK(tsr_mean(copy, &dim, 1, false, TSR_DTYPE_INFER, &b[1]));
    CHECK_OK(tsr_var(view, &dim, 1, 1.0, false, &a[2]));
    CHECK_OK(tsr_var(copy, &dim, 1, 1.0, false, &b[2]));
    CHECK_OK(tsr_linalg_vector_norm(view, 3.0, &dim, 1, false, TSR_DTYPE_INFER, &a[3]));
    CHECK_OK(tsr_linalg_vector_norm(copy, 3.0, &dim, 1, false, TSR_DTYPE_INFER, &b[3]));
    CHECK_OK(tsr_logsumexp(view, &dim, 1, false, &a[4]));
    CHECK_OK(tsr_logsumexp(copy, &dim, 1, false, &b[4]));
    CHECK_OK(tsr_cumsum(view, dim, TSR_DTYPE_INFER, &a[5]));
    CHECK_OK(tsr_cumsum(copy, dim, TSR_DTYPE_INFER, &b[5]));
    for (int k = 0; k < 6; k++) {
        check_count++;
        if (!same_bits(what, k, a[k], b[k]) && (!a[k] || !b[k]))
            CHECK_FAIL_("%s: result %d is missing", what, k);
        release(a[k], b[k], NULL);
    }
    tsr_tensor_release(copy);
}

static void long_rows_give_the_same_bits_in_every_layout(void)
{
    int64_t shape[2] = {2500, 6};
    double *x = malloc(2500 * 6 * sizeof(double));
    for (int64_t i = 0; i < 2500 * 6; i++)
        x[i] = wobble(i) * 1e-3;
    tsr_tensor *base = from_doubles(x, 2, shape, TSR_FLOAT32), *t = NULL, *s = NULL, *e = NULL;
    free(x);
    CHECK_OK(tsr_transpose(base, 0, 1, &t)); /* [6, 2500], stride 6 along the row */
    check_layout_independent("transposed", t, 1);
    CHECK_OK(tsr_slice(t, 1, 1, 2500, 2, &s)); /* every other element */
    check_layout_independent("stepped", s, 1);
    check_layout_independent("columns", base, 0);
    int64_t one_row[2] = {1, 2500}, expanded[2] = {3, 2500};
    tsr_tensor *row = NULL;
    CHECK_OK(tsr_narrow(t, 0, 2, 1, &row));
    CHECK_OK(tsr_expand(row, 2, expanded, &e));
    check_shape(row, 2, one_row);
    check_layout_independent("expanded", e, 1);
    release(base, t, s);
    release(e, row, NULL);
}

static void float16_sum_accumulates_wider_than_float16(void)
{
    static double x[2048];
    x[0] = 1.0;
    for (int i = 1; i < 2048; i++)
        x[i] = 1.0 / 2048.0; /* below half an ulp of 1 in float16 */
    tsr_tensor *t = vector(x, 2048, TSR_FLOAT16), *s = NULL;
    CHECK_OK(tsr_sum(t, NULL, 0, false, TSR_DTYPE_INFER, &s));
    CHECK_INT(tsr_tensor_dtype(s), TSR_FLOAT16);
    CHECK_DOUBLE(value_at(s, 0), 2.0, 0.0);
    release(t, s, NULL);
}

static void variance_is_two_pass_and_keeps_small_spreads_on_large_means(void)
{
    double x[2] = {1e8 + 1, 1e8 - 1};
    tsr_tensor *t = vector(x, 2, TSR_FLOAT64), *v = NULL, *sd = NULL;
    CHECK_OK(tsr_var(t, NULL, 0, 0.0, false, &v));
    CHECK_DOUBLE(value_at(v, 0), 1.0, 1e-9);
    double y[4] = {1, 2, 3, 4};
    tsr_tensor *u = vector(y, 4, TSR_FLOAT32);
    CHECK_OK(tsr_std(u, NULL, 0, 1.0, false, &sd));
    CHECK_DOUBLE(value_at(sd, 0), 1.2909944487358056, 1e-6);
    release(t, v, sd);
    tsr_tensor_release(u);
}

/* ------------------------------------------------------------------------ */
/* Result dtypes and integer wrap-around                                     */
/* ------------------------------------------------------------------------ */

static void sum_and_prod_of_integers_and_bool_give_int64(void)
{
    int64_t v[3] = {200, 100, 255};
    tsr_dtype inputs[] = {TSR_BOOL, TSR_UINT8, TSR_INT8, TSR_INT16, TSR_INT32, TSR_INT64};
    for (size_t i = 0; i < sizeof inputs / sizeof inputs[0]; i++) {
        tsr_tensor *t = from_ints(v, 3, inputs[i]), *s = NULL, *p = NULL, *c = NULL;
        CHECK_OK(tsr_sum(t, NULL, 0, false, TSR_DTYPE_INFER, &s));
        CHECK_OK(tsr_prod(t, NULL, 0, false, TSR_DTYPE_INFER, &p));
        CHECK_OK(tsr_cumsum(t, 0, TSR_DTYPE_INFER, &c));
        CHECK_INT(tsr_tensor_dtype(s), TSR_INT64);
        CHECK_INT(tsr_tensor_dtype(p), TSR_INT64);
        CHECK_INT(tsr_tensor_dtype(c), TSR_INT64);
        release(t, s, p);
        tsr_tensor_release(c);
    }
    tsr_tensor *u = from_ints(v, 3, TSR_UINT8), *s = NULL;
    CHECK_OK(tsr_sum(u, NULL, 0, false, TSR_DTYPE_INFER, &s));
    CHECK_INT(int_at(s, 0), 555);
    release(u, s, NULL);
}

/* Peak resident size of this process, in bytes. */
static int64_t peak_resident_bytes(void)
{
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    return (int64_t)usage.ru_maxrss * 1024;
}

/* sum and prod of int8 and bool accumulate in int64 without first widening
 * the whole input (8 bytes an element: 512 MiB for these 2^26 elements);
 * reference and cpu have the (sum, int8, int64) kernel that reads them as
 * they are, so the peak resident size grows by far less than the copy.
 * Runs first, before other tests have raised the peak. */
static void sum_of_int8_and_bool_reads_them_without_a_widened_copy(void)
{
    const int64_t n = (int64_t)1 << 26;
    tsr_dtype dtypes[] = {TSR_INT8, TSR_BOOL};
    for (size_t i = 0; i < 2; i++) {
        tsr_tensor *t = NULL, *s = NULL, *p = NULL, *neg = NULL;
        CHECK_OK(tsr_ones(1, &n, dtypes[i], NULL, &t));
        tsr_backend *b = tsr_tensor_backend(t);
        const char *name = tsr_backend_name(b);
        int narrow = tsr_backend_has_kernel(b, TSR_OP_SUM, dtypes[i], TSR_INT64);
        if (strcmp(name, "reference") == 0 || strcmp(name, "cpu") == 0)
            CHECK_TRUE(narrow && tsr_backend_has_kernel(b, TSR_OP_PROD, dtypes[i], TSR_INT64));
        int64_t before = peak_resident_bytes();
        CHECK_OK(tsr_sum(t, NULL, 0, false, TSR_DTYPE_INFER, &s));
        CHECK_OK(tsr_prod(t, NULL, 0, false, TSR_DTYPE_INFER, &p));
        int64_t grown = peak_resident_bytes() - before;
        CHECK_INT(tsr_tensor_dtype(s), TSR_INT64);
        CHECK_INT(int_at(s, 0), n);
        CHECK_INT(int_at(p, 0), 1);
        if (narrow && grown > ((int64_t)128 << 20))
            CHECK_FAIL_("%s sum of %lld %s elements raised the peak resident size by %lld MiB",
                        name, (long long)n, tsr_dtype_name(dtypes[i]), (long long)(grown >> 20));
        if (dtypes[i] == TSR_INT8) { /* -1 each, summed in int64: no int8 wrap */
            CHECK_OK(tsr_neg(t, &neg));
            tsr_tensor_release(s);
            CHECK_OK(tsr_sum(neg, NULL, 0, false, TSR_DTYPE_INFER, &s));
            CHECK_INT(int_at(s, 0), -n);
        }
        release(t, s, p);
        tsr_tensor_release(neg);
    }
}

static void sum_with_dtype_uint8_wraps_in_uint8(void)
{
    int64_t v[3] = {200, 100, 255};
    tsr_tensor *t = from_ints(v, 3, TSR_UINT8), *s = NULL, *c = NULL;
    CHECK_OK(tsr_sum(t, NULL, 0, false, TSR_UINT8, &s));
    CHECK_INT(tsr_tensor_dtype(s), TSR_UINT8);
    CHECK_INT(int_at(s, 0), 555 % 256);
    CHECK_OK(tsr_cumsum(t, 0, TSR_INT8, &c)); /* 200 as int8 is -56 */
    CHECK_INT(int_at(c, 1), 44);
    CHECK_INT(int_at(c, 2), 43);
    release(t, s, c);
}

static void int64_sum_and_prod_wrap_on_overflow(void)
{
    int64_t v[3] = {INT64_MAX, 1, 5};
    tsr_tensor *t = from_ints(v, 3, TSR_INT64), *s = NULL, *p = NULL, *c = NULL;
    CHECK_OK(tsr_sum(t, NULL, 0, false, TSR_DTYPE_INFER, &s));
    CHECK_INT(int_at(s, 0), INT64_MIN + 5);
    int64_t w[3] = {INT64_C(1) << 40, INT64_C(1) << 30, 3};
    tsr_tensor *u = from_ints(w, 3, TSR_INT64);
    CHECK_OK(tsr_prod(u, NULL, 0, false, TSR_DTYPE_INFER, &p));
    CHECK_INT(int_at(p, 0), 0);
    CHECK_OK(tsr_cumprod(u, 0, TSR_DTYPE_INFER, &c));
    CHECK_INT(int_at(c, 0), INT64_C(1) << 40);
    CHECK_INT(int_at(c, 1), 0);
    release(t, s, p);
    release(u, c, NULL);
}

static void mean_refuses_integers_unless_dtype_is_floating(void)
{
    int64_t v[4] = {0, 1, 2, 3};
    tsr_tensor *t = from_ints(v, 4, TSR_INT64), *m = NULL;
    CHECK_ERROR(tsr_mean(t, NULL, 0, false, TSR_DTYPE_INFER, &m), TSR_ERR_DTYPE,
                "could not infer output dtype");
    CHECK_ERROR(tsr_mean(t, NULL, 0, false, TSR_INT64, &m), TSR_ERR_DTYPE, "int64");
    CHECK_ERROR(tsr_nanmean(t, NULL, 0, false, TSR_FLOAT32, &m), TSR_ERR_DTYPE, "nanmean");
    CHECK_ERROR(tsr_var(t, NULL, 0, 1.0, false, &m), TSR_ERR_DTYPE, "floating point");
    CHECK_OK(tsr_mean(t, NULL, 0, false, TSR_FLOAT32, &m));
    CHECK_INT(tsr_tensor_dtype(m), TSR_FLOAT32);
    CHECK_DOUBLE(value_at(m, 0), 1.5, 0.0);
    release(t, m, NULL);
}

static void float16_mean_rounds_its_sum_to_float16_first(void)
{
    double v[2] = {60000, 60000};
    tsr_tensor *t = vector(v, 2, TSR_FLOAT16), *m = NULL;
    CHECK_OK(tsr_mean(t, NULL, 0, false, TSR_DTYPE_INFER, &m));
    CHECK_DOUBLE(value_at(m, 0), INFINITY, 0.0);
    release(t, m, NULL);
}

static void float32_norm_squares_overflow_as_in_pytorch(void)
{
    double v[2] = {3e30, 4e30};
    tsr_tensor *t = vector(v, 2, TSR_FLOAT32), *n = NULL, *d = NULL;
    CHECK_OK(tsr_linalg_vector_norm(t, 2.0, NULL, 0, false, TSR_DTYPE_INFER, &n));
    CHECK_DOUBLE(value_at(n, 0), INFINITY, 0.0);
    tsr_tensor *w = vector(v, 2, TSR_FLOAT64);
    CHECK_OK(tsr_linalg_vector_norm(w, 2.0, NULL, 0, false, TSR_DTYPE_INFER, &d));
    CHECK_DOUBLE(value_at(d, 0), 5e30, 1e16);
    release(t, n, d);
    tsr_tensor_release(w);
}

static void all_and_any_of_uint8_give_uint8_and_complex_reads_real_part(void)
{
    int64_t v[2] = {1, 2};
    tsr_tensor *t = from_ints(v, 2, TSR_UINT8), *a = NULL, *c = NULL, *z = NULL;
    CHECK_OK(tsr_all(t, NULL, 0, false, &a));
    CHECK_INT(tsr_tensor_dtype(a), TSR_UINT8);
    CHECK_INT(int_at(a, 0), 1);
    tsr_tensor_release(a);
    tsr_tensor *f = from_ints(v, 2, TSR_FLOAT32);
    CHECK_OK(tsr_any(f, NULL, 0, false, &a));
    CHECK_INT(tsr_tensor_dtype(a), TSR_BOOL);
    /* all([1j]) is False in PyTorch 1.13: only the real part is tested */
    double parts[2] = {0.0, 1.0};
    int64_t one = 1;
    CHECK_OK(tsr_from_host(parts, sizeof parts, 1, &one, TSR_COMPLEX128, NULL, &c));
    CHECK_OK(tsr_all(c, NULL, 0, false, &z));
    CHECK_INT(int_at(z, 0), 0);
    release(t, a, c);
    release(z, f, NULL);
}

/* ------------------------------------------------------------------------ */
/* Dims, keepdim and empty inputs                                            */
/* ------------------------------------------------------------------------ */

static tsr_tensor *ones_234(void)
{
    int64_t shape[3] = {2, 3, 4};
    tsr_tensor *t = NULL;
    CHECK_OK(tsr_ones(3, shape, TSR_FLOAT32, NULL, &t));
    return t;
}

static void dim_lists_wrap_negative_dims_and_keepdim_keeps_ones(void)
{
    tsr_tensor *t = ones_234(), *s = NULL, *k = NULL, *all = NULL;
    int64_t dims[2] = {-1, 0};
    CHECK_OK(tsr_sum(t, dims, 2, false, TSR_DTYPE_INFER, &s));
    check_shape(s, 1, (int64_t[]){3});
    CHECK_DOUBLE(value_at(s, 2), 8.0, 0.0);
    CHECK_OK(tsr_sum(t, dims, 2, true, TSR_DTYPE_INFER, &k));
    check_shape(k, 3, (int64_t[]){1, 3, 1});
    CHECK_OK(tsr_amax(t, NULL, 0, true, &all)); /* dim=None keepdim: all ones */
    check_shape(all, 3, (int64_t[]){1, 1, 1});
    release(t, s, k);
    tsr_tensor_release(all);
}

static void repeated_or_out_of_range_dims_are_errors(void)
{
    tsr_tensor *t = ones_234(), *s = NULL;
    int64_t repeated[2] = {0, -3}, far[1] = {3};
    CHECK_ERROR(tsr_sum(t, repeated, 2, false, TSR_DTYPE_INFER, &s), TSR_ERR_INVALID_ARGUMENT,
                "more than once");
    CHECK_ERROR(tsr_mean(t, far, 1, false, TSR_DTYPE_INFER, &s), TSR_ERR_INDEX, "out of range");
    CHECK_ERROR(tsr_cumsum(t, -4, TSR_DTYPE_INFER, &s), TSR_ERR_INDEX, "out of range");
    int64_t two[2] = {0, 1};
    CHECK_ERROR(tsr_prod(t, two, 2, false, TSR_DTYPE_INFER, &s), TSR_ERR_INVALID_ARGUMENT,
                "one dim");
    CHECK_ERROR(tsr_sum(t, NULL, 1, false, TSR_DTYPE_INFER, &s), TSR_ERR_INVALID_ARGUMENT, "NULL");
    CHECK_TRUE(s == NULL);
    tsr_tensor_release(t);
}

static void zero_d_tensors_accept_dim_zero_and_minus_one(void)
{
    tsr_tensor *t = NULL, *s = NULL, *c = NULL;
    int64_t dim = -1, twice[2] = {0, -1};
    float f = 5.0f;
    CHECK_OK(tsr_from_host(&f, sizeof f, 0, NULL, TSR_FLOAT32, NULL, &t));
    CHECK_OK(tsr_sum(t, &dim, 1, true, TSR_DTYPE_INFER, &s));
    check_shape(s, 0, NULL);
    CHECK_DOUBLE(value_at(s, 0), 5.0, 0.0);
    CHECK_OK(tsr_cumsum(t, 0, TSR_DTYPE_INFER, &c));
    CHECK_DOUBLE(value_at(c, 0), 5.0, 0.0);
    release(s, c, NULL);
    CHECK_ERROR(tsr_sum(t, twice, 2, false, TSR_DTYPE_INFER, &s), TSR_ERR_INVALID_ARGUMENT,
                "more than once");
    CHECK_ERROR(tsr_cumsum(t, 1, TSR_DTYPE_INFER, &c), TSR_ERR_INDEX, "out of range");
    tsr_tensor_release(t);
}

static void empty_reductions_give_identities(void)
{
    int64_t shape[2] = {0, 3};
    tsr_tensor *t = NULL, *s = NULL, *p = NULL, *m = NULL;
    CHECK_OK(tsr_zeros(2, shape, TSR_FLOAT32, NULL, &t));
    int64_t dim = 0;
    CHECK_OK(tsr_sum(t, &dim, 1, false, TSR_DTYPE_INFER, &s));
    CHECK_OK(tsr_prod(t, &dim, 1, false, TSR_DTYPE_INFER, &p));
    CHECK_OK(tsr_mean(t, &dim, 1, false, TSR_DTYPE_INFER, &m));
    check_shape(s, 1, (int64_t[]){3});
    CHECK_DOUBLE(value_at(s, 1), 0.0, 0.0);
    CHECK_DOUBLE(value_at(p, 1), 1.0, 0.0);
    CHECK_TRUE(isnan(value_at(m, 1)));
    release(s, p, m);
    CHECK_OK(tsr_logsumexp(t, &dim, 1, false, &s));
    CHECK_DOUBLE(value_at(s, 0), -INFINITY, 0.0);
    CHECK_OK(tsr_all(t, NULL, 0, false, &p));
    CHECK_INT(int_at(p, 0), 1);
    CHECK_OK(tsr_any(t, NULL, 0, false, &m));
    CHECK_INT(int_at(m, 0), 0);
    release(t, s, p);
    tsr_tensor_release(m);
}

static void max_of_an_empty_tensor_is_an_error_naming_the_op(void)
{
    int64_t shape[2] = {0, 3};
    tsr_tensor *t = NULL, *v = NULL, *i = NULL;
    CHECK_OK(tsr_zeros(2, shape, TSR_FLOAT32, NULL, &t));
    CHECK_ERROR(tsr_max(t, &v), TSR_ERR_INDEX, "cannot perform reduction function max");
    CHECK_ERROR(tsr_argmin(t, NULL, 0, false, &v), TSR_ERR_INDEX, "argmin");
    int64_t dim = 0;
    CHECK_ERROR(tsr_amax(t, &dim, 1, false, &v), TSR_ERR_INDEX, "amax");
    CHECK_ERROR(tsr_max_dim(t, 0, false, &v, &i), TSR_ERR_INDEX, "non-zero size");
    CHECK_ERROR(tsr_linalg_vector_norm(t, INFINITY, NULL, 0, false, TSR_DTYPE_INFER, &v),
                TSR_ERR_INDEX, "identity");
    CHECK_TRUE(v == NULL && i == NULL);
    /* a non-empty reduced dim of an empty tensor is fine: nothing to compute */
    CHECK_OK(tsr_max_dim(t, 1, false, &v, &i));
    check_shape(v, 1, (int64_t[]){0});
    check_shape(i, 1, (int64_t[]){0});
    release(t, v, i);
}

static void variance_with_too_few_elements_is_inf_or_nan(void)
{
    double v[2] = {1.0, 2.0}, same[2] = {1.0, 1.0};
    tsr_tensor *t = vector(v, 2, TSR_FLOAT32), *u = vector(same, 2, TSR_FLOAT32);
    tsr_tensor *a = NULL, *b = NULL, *c = NULL;
    CHECK_OK(tsr_var(t, NULL, 0, 3.0, false, &a));
    CHECK_DOUBLE(value_at(a, 0), INFINITY, 0.0);
    CHECK_OK(tsr_var(u, NULL, 0, 2.0, false, &b));
    CHECK_TRUE(isnan(value_at(b, 0)));
    CHECK_OK(tsr_std(t, NULL, 0, -1.0, false, &c)); /* divisor N + 1 */
    CHECK_DOUBLE(value_at(c, 0), 0.40824829046386302, 1e-6);
    release(a, b, c);
    release(t, u, NULL);
}

/* ------------------------------------------------------------------------ */
/* NaN, ties and indices                                                     */
/* ------------------------------------------------------------------------ */

static void max_propagates_nan_and_argmax_picks_the_first_nan(void)
{
    double v[5] = {1.0, NAN, 5.0, NAN, 7.0};
    tsr_tensor *t = vector(v, 5, TSR_FLOAT32), *m = NULL, *i = NULL, *a = NULL;
    CHECK_OK(tsr_amax(t, NULL, 0, false, &m));
    CHECK_TRUE(isnan(value_at(m, 0)));
    CHECK_OK(tsr_argmax(t, NULL, 0, false, &a));
    CHECK_INT(int_at(a, 0), 1);
    tsr_tensor_release(m);
    CHECK_OK(tsr_max_dim(t, 0, false, &m, &i));
    CHECK_TRUE(isnan(value_at(m, 0)));
    CHECK_INT(int_at(i, 0), 1);
    release(t, m, i);
    tsr_tensor_release(a);
}

static void argmax_and_max_dim_ties_take_the_first_index(void)
{
    double v[6] = {1, 5, 5, -5, -5, 0};
    tsr_tensor *t = vector(v, 6, TSR_INT32), *a = NULL, *b = NULL, *vals = NULL, *idx = NULL;
    CHECK_OK(tsr_argmax(t, NULL, 0, false, &a));
    CHECK_OK(tsr_argmin(t, NULL, 0, false, &b));
    CHECK_INT(tsr_tensor_dtype(a), TSR_INT64);
    CHECK_INT(int_at(a, 0), 1);
    CHECK_INT(int_at(b, 0), 3);
    CHECK_OK(tsr_min_dim(t, -1, true, &vals, &idx));
    check_shape(idx, 1, (int64_t[]){1});
    CHECK_INT(int_at(idx, 0), 3);
    CHECK_INT(tsr_tensor_dtype(vals), TSR_INT32);
    release(t, a, b);
    release(vals, idx, NULL);
}

static void argmax_without_dim_indexes_the_flattened_tensor(void)
{
    double v[4] = {1, 5, 7, 2};
    int64_t shape[2] = {2, 2};
    tsr_tensor *t = from_doubles(v, 2, shape, TSR_FLOAT32), *tt = NULL, *a = NULL, *b = NULL;
    CHECK_OK(tsr_transpose(t, 0, 1, &tt)); /* [[1, 7], [5, 2]] */
    CHECK_OK(tsr_argmax(t, NULL, 0, false, &a));
    CHECK_OK(tsr_argmax(tt, NULL, 0, true, &b));
    CHECK_INT(int_at(a, 0), 2);
    CHECK_INT(int_at(b, 0), 1);
    check_shape(b, 2, (int64_t[]){1, 1});
    release(t, tt, a);
    tsr_tensor_release(b);
}

static void nansum_and_nanmean_skip_nan(void)
{
    double v[4] = {1.0, NAN, 3.0, NAN};
    tsr_tensor *t = vector(v, 4, TSR_FLOAT64), *s = NULL, *m = NULL, *all_nan = NULL;
    CHECK_OK(tsr_nansum(t, NULL, 0, false, TSR_DTYPE_INFER, &s));
    CHECK_OK(tsr_nanmean(t, NULL, 0, false, TSR_DTYPE_INFER, &m));
    CHECK_DOUBLE(value_at(s, 0), 4.0, 0.0);
    CHECK_DOUBLE(value_at(m, 0), 2.0, 0.0);
    release(s, m, NULL);
    all_nan = vector(v + 1, 1, TSR_FLOAT32);
    CHECK_OK(tsr_nansum(all_nan, NULL, 0, false, TSR_DTYPE_INFER, &s));
    CHECK_OK(tsr_nanmean(all_nan, NULL, 0, false, TSR_DTYPE_INFER, &m));
    CHECK_DOUBLE(value_at(s, 0), 0.0, 0.0);
    CHECK_TRUE(isnan(value_at(m, 0)));
    release(s, m, all_nan);
    tsr_tensor_release(t);
}

static void count_nonzero_counts_nan_and_not_negative_zero(void)
{
    double v[5] = {NAN, -0.0, 0.0, 1e-40, INFINITY};
    tsr_tensor *t = vector(v, 5, TSR_FLOAT32), *c = NULL;
    CHECK_OK(tsr_count_nonzero(t, NULL, 0, &c));
    CHECK_INT(tsr_tensor_dtype(c), TSR_INT64);
    CHECK_INT(int_at(c, 0), 3); /* 1e-40 is a float32 denormal, not zero */
    release(t, c, NULL);
}

static void aminmax_gives_min_then_max_and_propagates_nan(void)
{
    double v[4] = {1.0, -2.0, 3.0, 0.5};
    tsr_tensor *t = vector(v, 4, TSR_FLOAT32), *lo = NULL, *hi = NULL;
    CHECK_OK(tsr_aminmax(t, NULL, 0, false, &lo, &hi));
    CHECK_DOUBLE(value_at(lo, 0), -2.0, 0.0);
    CHECK_DOUBLE(value_at(hi, 0), 3.0, 0.0);
    release(lo, hi, NULL);
    double n[3] = {1.0, NAN, -4.0};
    tsr_tensor *u = vector(n, 3, TSR_FLOAT64);
    CHECK_OK(tsr_aminmax(u, NULL, 0, false, &lo, &hi));
    CHECK_TRUE(isnan(value_at(lo, 0)) && isnan(value_at(hi, 0)));
    release(lo, hi, u);
    tsr_tensor *h = vector(v, 4, TSR_FLOAT16);
    CHECK_ERROR(tsr_aminmax(h, NULL, 0, false, &lo, &hi), TSR_ERR_DTYPE, "float16");
    release(t, h, NULL);
}

/* ------------------------------------------------------------------------ */
/* Norms and logsumexp                                                       */
/* ------------------------------------------------------------------------ */

static void vector_norm_orders_follow_pytorch(void)
{
    double v[3] = {3.0, -4.0, 0.0};
    tsr_tensor *t = vector(v, 3, TSR_FLOAT64);
    double ords[6] = {0.0, 1.0, 2.0, INFINITY, -INFINITY, 3.0};
    double expected[6] = {2.0, 7.0, 5.0, 4.0, 0.0, 4.4979414452754147}; /* 91^(1/3) */
    for (int k = 0; k < 6; k++) {
        tsr_tensor *n = NULL;
        CHECK_OK(tsr_linalg_vector_norm(t, ords[k], NULL, 0, false, TSR_DTYPE_INFER, &n));
        CHECK_DOUBLE(value_at(n, 0), expected[k], 1e-12);
        tsr_tensor_release(n);
    }
    tsr_tensor_release(t);
}

static void norms_of_complex_are_real_and_dtype_never_narrows(void)
{
    float parts[4] = {3.0f, 4.0f, 0.0f, 0.0f};
    int64_t two = 2;
    tsr_tensor *c = NULL, *n = NULL, *f = NULL;
    CHECK_OK(tsr_from_host(parts, sizeof parts, 1, &two, TSR_COMPLEX64, NULL, &c));
    CHECK_OK(tsr_linalg_vector_norm(c, 2.0, NULL, 0, false, TSR_DTYPE_INFER, &n));
    CHECK_INT(tsr_tensor_dtype(n), TSR_FLOAT32);
    CHECK_DOUBLE(value_at(n, 0), 5.0, 1e-6);
    tsr_tensor_release(n);
    CHECK_OK(tsr_linalg_vector_norm(c, 2.0, NULL, 0, false, TSR_COMPLEX128, &n));
    CHECK_INT(tsr_tensor_dtype(n), TSR_FLOAT64);
    CHECK_ERROR(tsr_linalg_vector_norm(c, 2.0, NULL, 0, false, TSR_FLOAT64, &f), TSR_ERR_DTYPE,
                "complex");
    tsr_tensor *r = vector((double[]){1.0}, 1, TSR_FLOAT32);
    CHECK_ERROR(tsr_linalg_vector_norm(r, 2.0, NULL, 0, false, TSR_FLOAT16, &f), TSR_ERR_DTYPE,
                "narrowing");
    CHECK_TRUE(f == NULL);
    release(c, n, r);
}

static void logsumexp_is_stable_and_handles_infinite_maxima(void)
{
    double v[6] = {1000.0, 1000.0, -1000.0, -INFINITY, -INFINITY, -INFINITY};
    int64_t shape[2] = {2, 3};
    tsr_tensor *t = from_doubles(v, 2, shape, TSR_FLOAT32), *l = NULL;
    int64_t dim = 1;
    CHECK_OK(tsr_logsumexp(t, &dim, 1, false, &l));
    CHECK_DOUBLE(value_at(l, 0), 1000.6931471805599, 1e-3);
    CHECK_DOUBLE(value_at(l, 1), -INFINITY, 0.0);
    tsr_tensor_release(l);
    CHECK_ERROR(tsr_logsumexp(t, NULL, 0, false, &l), TSR_ERR_INVALID_ARGUMENT, "dim");
    release(t, NULL, NULL);
    int64_t iv[2] = {1, 0};
    tsr_tensor *b = from_ints(iv, 2, TSR_BOOL);
    dim = 0;
    CHECK_OK(tsr_logsumexp(b, &dim, 1, false, &l));
    CHECK_INT(tsr_tensor_dtype(l), TSR_FLOAT32);
    CHECK_DOUBLE(value_at(l, 0), 1.3132616875182228, 1e-6);
    release(b, l, NULL);
}

/* ------------------------------------------------------------------------ */
/* Scans                                                                     */
/* ------------------------------------------------------------------------ */

static void cummax_ties_move_to_the_later_index_and_nan_sticks(void)
{
    int64_t v[6] = {2, 1, 1, 3, 0, 0};
    tsr_tensor *t = from_ints(v, 6, TSR_INT64), *vals = NULL, *idx = NULL;
    CHECK_OK(tsr_cummin(t, 0, &vals, &idx));
    int64_t want_vals[6] = {2, 1, 1, 1, 0, 0}, want_idx[6] = {0, 1, 2, 2, 4, 5};
    for (int i = 0; i < 6; i++) {
        CHECK_INT(int_at(vals, i), want_vals[i]);
        CHECK_INT(int_at(idx, i), want_idx[i]);
    }
    release(t, vals, idx);
    double f[6] = {1.0, NAN, 3.0, NAN, -1.0, 5.0};
    t = vector(f, 6, TSR_FLOAT32);
    CHECK_OK(tsr_cummax(t, 0, &vals, &idx));
    int64_t nan_idx[6] = {0, 1, 1, 3, 3, 3};
    for (int i = 0; i < 6; i++)
        CHECK_INT(int_at(idx, i), nan_idx[i]);
    CHECK_TRUE(isnan(value_at(vals, 5)));
    release(t, vals, idx);
}

static void logcumsumexp_accumulates_stably(void)
{
    double v[3] = {0.0, 0.0, 0.0};
    tsr_tensor *t = vector(v, 3, TSR_FLOAT64), *l = NULL;
    CHECK_OK(tsr_logcumsumexp(t, 0, &l));
    CHECK_DOUBLE(value_at(l, 1), 0.69314718055994529, 1e-15);
    CHECK_DOUBLE(value_at(l, 2), 1.0986122886681098, 1e-15);
    release(t, l, NULL);
    double w[4] = {-INFINITY, -INFINITY, 1000.0, 1000.0};
    t = vector(w, 4, TSR_FLOAT32);
    CHECK_OK(tsr_logcumsumexp(t, 0, &l));
    CHECK_DOUBLE(value_at(l, 1), -INFINITY, 0.0);
    CHECK_DOUBLE(value_at(l, 3), 1000.6931471805599, 1e-3);
    release(t, l, NULL);
}

/* The chunked scan of docs/determinism.md, written out: carry + running. */
static void cumsum_of_a_long_slice_follows_the_chunk_rule(void)
{
    int64_t n = 2500;
    double *x = malloc((size_t)n * sizeof(double));
    for (int64_t i = 0; i < n; i++)
        x[i] = wobble(i);
    tsr_tensor *t = vector(x, n, TSR_FLOAT64), *c = NULL;
    CHECK_OK(tsr_cumsum(t, 0, TSR_DTYPE_INFER, &c));
    double *got = all_values(c);
    CHECK_TRUE(got != NULL);
    double carry = 0.0, running = 0.0, sequential = 0.0;
    int mismatches = 0, differs_from_sequential = 0;
    for (int64_t i = 0; i < n; i++) {
        if (i > 0 && i % 1024 == 0) {
            carry = i == 1024 ? running : carry + running;
            running = 0.0;
        }
        running += x[i];
        sequential += x[i];
        double expected = i < 1024 ? running : carry + running;
        differs_from_sequential += expected != sequential;
        if (got && got[i] != expected && mismatches++ == 0)
            CHECK_FAIL_("cumsum[%lld] is %.17g, the chunk rule gives %.17g", (long long)i, got[i],
                        expected);
    }
    free(got);
    CHECK_INT(mismatches, 0);
    CHECK_TRUE(differs_from_sequential > 0);
    free(x);
    release(t, c, NULL);
}

static void reference_kernel_table_lists_pytorch_cpu_dtypes(void)
{
    tsr_backend *b = NULL;
    CHECK_OK(tsr_backend_get("reference", &b));
    CHECK_TRUE(tsr_backend_has_kernel(b, TSR_OP_SUM, TSR_FLOAT16, TSR_FLOAT16));
    CHECK_TRUE(!tsr_backend_has_kernel(b, TSR_OP_PROD, TSR_FLOAT16, TSR_FLOAT16));
    CHECK_TRUE(!tsr_backend_has_kernel(b, TSR_OP_CUMSUM, TSR_FLOAT16, TSR_FLOAT16));
    CHECK_TRUE(!tsr_backend_has_kernel(b, TSR_OP_ARGMAX, TSR_BOOL, TSR_INT64));
    CHECK_TRUE(tsr_backend_has_kernel(b, TSR_OP_VAR, TSR_COMPLEX64, TSR_FLOAT32));
    CHECK_TRUE(tsr_backend_has_kernel(b, TSR_OP_MAX_DIM, TSR_BOOL, TSR_BOOL));
    CHECK_TRUE(!tsr_backend_has_kernel(b, TSR_OP_AMAX, TSR_COMPLEX64, TSR_COMPLEX64));
    CHECK_TRUE(!tsr_backend_has_kernel(b, TSR_OP_LOGSUMEXP, TSR_FLOAT16, TSR_FLOAT16));
    CHECK_TRUE(tsr_backend_has_kernel(b, TSR_OP_ALL, TSR_COMPLEX128, TSR_BOOL));
    /* an op without a kernel for the dtype says so, naming the op */
    double v[2] = {1.0, 2.0};
    tsr_tensor *h = vector(v, 2, TSR_FLOAT16), *p = NULL;
    CHECK_ERROR(tsr_prod(h, NULL, 0, false, TSR_DTYPE_INFER, &p), TSR_ERR_UNIMPLEMENTED, "prod");
    CHECK_TRUE(p == NULL);
    tsr_tensor_release(h);
}

/* torch.norm(t, p='fro'): the 2-norm over all dims, over one dim, or over
 * two in either order (expected values printed by torch 1.13); complex gives
 * the real dtype; three dims are refused, as torch's "Expected at most 2
 * dimensions". */
static void frobenius_norm_takes_at_most_two_dims(void)
{
    double v[12];
    for (int i = 0; i < 12; i++)
        v[i] = i;
    tsr_tensor *x = from_doubles(v, 2, (const int64_t[]){3, 4}, TSR_FLOAT64), *n = NULL;
    double got[3];
    CHECK_OK(tsr_norm_fro(x, NULL, 0, false, &n));
    check_shape(n, 0, NULL);
    CHECK_OK(tsr_to_host(n, got, sizeof(double)));
    CHECK_DOUBLE(got[0], 22.494443758403985, 1e-14);
    tsr_tensor_release(n);
    CHECK_OK(tsr_norm_fro(x, (const int64_t[]){1, 0}, 2, true, &n));
    check_shape(n, 2, (const int64_t[]){1, 1});
    CHECK_OK(tsr_to_host(n, got, sizeof(double)));
    CHECK_DOUBLE(got[0], 22.494443758403985, 1e-14);
    tsr_tensor_release(n);
    CHECK_OK(tsr_norm_fro(x, (const int64_t[]){-1}, 1, false, &n));
    check_shape(n, 1, (const int64_t[]){3});
    CHECK_OK(tsr_to_host(n, got, 3 * sizeof(double)));
    CHECK_DOUBLE(got[0], 3.7416573867739413, 1e-14);
    CHECK_DOUBLE(got[1], 11.224972160321824, 1e-14);
    CHECK_DOUBLE(got[2], 19.131126469708992, 1e-14);
    tsr_tensor_release(n);

    double c[4] = {3, 4, 0, 1}; /* [3+4j, 1j] */
    tsr_tensor *z64 = NULL, *z = NULL, *zn = NULL;
    CHECK_OK(tsr_from_host(c, sizeof c, 1, (const int64_t[]){2}, TSR_COMPLEX128, NULL, &z64));
    CHECK_OK(tsr_to_dtype(z64, TSR_COMPLEX64, &z));
    CHECK_OK(tsr_norm_fro(z, NULL, 0, false, &zn));
    CHECK_INT(zn ? (int)tsr_tensor_dtype(zn) : -1, (int)TSR_FLOAT32);
    float f = 0;
    CHECK_OK(tsr_to_host(zn, &f, sizeof f));
    CHECK_DOUBLE(f, 5.0990195f, 1e-6);

    double ones[8] = {1, 1, 1, 1, 1, 1, 1, 1};
    tsr_tensor *cube = from_doubles(ones, 3, (const int64_t[]){2, 2, 2}, TSR_FLOAT32), *bad = NULL;
    CHECK_ERROR(tsr_norm_fro(cube, (const int64_t[]){0, 1, 2}, 3, false, &bad), TSR_ERR_SHAPE,
                "at most 2");
    CHECK_TRUE(bad == NULL);
    release(cube, zn, z);
    release(z64, x, NULL);
}

int main(void)
{
    RUN_TEST(sum_of_int8_and_bool_reads_them_without_a_widened_copy);
    RUN_TEST(sum_of_ten_million_tenths_stays_within_one_of_a_million);
    RUN_TEST(sum_combines_terms_in_documented_lane_order);
    RUN_TEST(long_rows_give_the_same_bits_in_every_layout);
    RUN_TEST(float16_sum_accumulates_wider_than_float16);
    RUN_TEST(variance_is_two_pass_and_keeps_small_spreads_on_large_means);
    RUN_TEST(sum_and_prod_of_integers_and_bool_give_int64);
    RUN_TEST(sum_with_dtype_uint8_wraps_in_uint8);
    RUN_TEST(int64_sum_and_prod_wrap_on_overflow);
    RUN_TEST(mean_refuses_integers_unless_dtype_is_floating);
    RUN_TEST(float16_mean_rounds_its_sum_to_float16_first);
    RUN_TEST(float32_norm_squares_overflow_as_in_pytorch);
    RUN_TEST(all_and_any_of_uint8_give_uint8_and_complex_reads_real_part);
    RUN_TEST(dim_lists_wrap_negative_dims_and_keepdim_keeps_ones);
    RUN_TEST(repeated_or_out_of_range_dims_are_errors);
    RUN_TEST(zero_d_tensors_accept_dim_zero_and_minus_one);
    RUN_TEST(empty_reductions_give_identities);
    RUN_TEST(max_of_an_empty_tensor_is_an_error_naming_the_op);
    RUN_TEST(variance_with_too_few_elements_is_inf_or_nan);
    RUN_TEST(max_propagates_nan_and_argmax_picks_the_first_nan);
    RUN_TEST(argmax_and_max_dim_ties_take_the_first_index);
    RUN_TEST(argmax_without_dim_indexes_the_flattened_tensor);
    RUN_TEST(nansum_and_nanmean_skip_nan);
    RUN_TEST(count_nonzero_counts_nan_and_not_negative_zero);
    RUN_TEST(aminmax_gives_min_then_max_and_propagates_nan);
    RUN_TEST(vector_norm_orders_follow_pytorch);
    RUN_TEST(norms_of_complex_are_real_and_dtype_never_narrows);
    RUN_TEST(logsumexp_is_stable_and_handles_infinite_maxima);
    RUN_TEST(cummax_ties_move_to_the_later_index_and_nan_sticks);
    RUN_TEST(logcumsumexp_accumulates_stably);
    RUN_TEST(cumsum_of_a_long_slice_follows_the_chunk_rule);
    RUN_TEST(reference_kernel_table_lists_pytorch_cpu_dtypes);
    RUN_TEST(frobenius_norm_takes_at_most_two_dims);
    return check_summary("test_reduce");
}
