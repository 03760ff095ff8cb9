/* Reductions and scans on the device (reduce.c, scan.c):
 * the fixed combination order (same bits whatever the layout, and the
 * reference's bits where the device carries floats in double), integer
 * sums exact with wraparound, PyTorch's argmax rules and clean refusals.
 * Linked with test_vulkan_kernels.c, which loads the plugin and calls
 * run_all_cases. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "test_vulkan_kernels.h"

static int reduce_p(int op, const struct view *in, const struct view *out, const struct view *idx,
                    uint32_t mask, double correction, double p)
{
    tsr_kernel_fn fn = find_kernel(op, in->d.dtype, out->d.dtype);
    if (!fn)
        return TSR_ERR_UNIMPLEMENTED;
    tsr_reduce_attrs attrs = {sizeof attrs, mask, correction, p};
    tsr_tensor_desc outs[2] = {out->d, idx ? idx->d : out->d};
    tsr_kernel_args args = {sizeof args, op, 1, idx ? 2 : 1, &in->d, outs, &attrs};
    return fn(backend, &args);
}

static int reduce(int op, const struct view *in, const struct view *out, const struct view *idx,
                  uint32_t mask, double correction)
{
    return reduce_p(op, in, out, idx, mask, correction, 2.0);
}

/* Sums all n elements of the flat buffer `m` into the first element of
 * `mo` and downloads that element into `got`; returns the sum's status. */
static int full_sum(void *m, int32_t dtype, int64_t n, int64_t esize, void *mo, void *got)
{
    struct view in, out;
    flat(&in, m, dtype, n, esize);
    int64_t one = 1;
    view_of(&out, mo, dtype, 1, &one, &one, 0, esize);
    int status = reduce(TSR_OP_SUM, &in, &out, NULL, 1u, 0);
    download(mo, got, (size_t)esize);
    return status;
}

static uint32_t lcg(uint32_t *s)
{
    *s = *s * 1664525u + 1013904223u;
    return *s;
}

/* The reference's order, in double: lanes k % 16 of 1024-term blocks, lane
 * pairs halving, blocks in a binary counter (docs/determinism.md). */
static double host_tree_sum(const float *x, int64_t n, int64_t stride)
{
    double partial[64];
    int64_t count[64];
    int depth = 0;
    for (int64_t start = 0; start < n; start += 1024) {
        double lane[16] = {0};
        for (int64_t k = start; k < n && k < start + 1024; ++k)
            lane[(k - start) % 16] += (double)x[k * stride];
        for (int w = 8; w >= 1; w /= 2)
            for (int l = 0; l < w; ++l)
                lane[l] += lane[l + w];
        partial[depth] = lane[0];
        count[depth++] = 1;
        while (depth >= 2 && count[depth - 1] == count[depth - 2]) {
            partial[depth - 2] += partial[depth - 1];
            count[depth - 2] *= 2;
            depth--;
        }
    }
    while (depth >= 2) {
        partial[depth - 2] += partial[depth - 1];
        depth--;
    }
    return depth ? partial[0] : 0.0;
}

/* Rows of 5000 (several blocks, a partial last one) summed from a
 * row-major and from a column-major copy, twice: identical bits, and the
 * reference's where float64 is held. */
static void float_sums_do_not_depend_on_layout(void)
{
    enum { R = 6, C = 5000 };
    float *a = malloc(sizeof(float) * R * C), *t = malloc(sizeof(float) * R * C);
    uint32_t s = 7;
    for (int i = 0; i < R * C; ++i)
        a[i] = (float)((int32_t)lcg(&s) >> 8) / 65536.0f; /* mixed signs and scales */
    for (int r = 0; r < R; ++r)
        for (int c = 0; c < C; ++c)
            t[c * R + r] = a[r * C + c];
    void *ma = upload(a, sizeof(float) * R * C), *mt = upload(t, sizeof(float) * R * C);
    void *mo = upload(NULL, sizeof(float) * R * 3);
    int64_t shape[2] = {R, C}, row_major[2] = {C, 1}, col_major[2] = {1, R};
    int64_t oshape[2] = {R, 1}, ostride[2] = {1, 1};
    struct view va, vt, o0, o1, o2;
    view_of(&va, ma, TSR_FLOAT32, 2, shape, row_major, 0, 4);
    view_of(&vt, mt, TSR_FLOAT32, 2, shape, col_major, 0, 4);
    view_of(&o0, mo, TSR_FLOAT32, 2, oshape, ostride, 0, 4);
    view_of(&o1, mo, TSR_FLOAT32, 2, oshape, ostride, R, 4);
    view_of(&o2, mo, TSR_FLOAT32, 2, oshape, ostride, 2 * R, 4);
    EXPECT(reduce(TSR_OP_SUM, &va, &o0, NULL, 2u, 0) == TSR_OK, "sum: %s", last_error);
    EXPECT(reduce(TSR_OP_SUM, &vt, &o1, NULL, 2u, 0) == TSR_OK, "sum: %s", last_error);
    EXPECT(reduce(TSR_OP_SUM, &va, &o2, NULL, 2u, 0) == TSR_OK, "sum: %s", last_error);
    float got[3 * R];
    download(mo, got, sizeof got);
    int wide = has_kernel(TSR_OP_SUM, TSR_FLOAT64, TSR_FLOAT64);
    for (int r = 0; r < R; ++r) {
        EXPECT(memcmp(&got[r], &got[R + r], 4) == 0 && memcmp(&got[r], &got[2 * R + r], 4) == 0,
               "row %d: %.9g, %.9g (transposed), %.9g (again)", r, got[r], got[R + r],
               got[2 * R + r]);
        float want = (float)host_tree_sum(a + r * C, C, 1);
        if (wide)
            EXPECT(memcmp(&got[r], &want, 4) == 0, "row %d: %.9g, reference order %.9g", r,
                   got[r], want);
        else
            EXPECT(close_to(got[r], want, 1e-5, 1e-3), "row %d: %.9g vs %.9g", r, got[r], want);
    }
    /* A full reduction of 1000003 terms: 977 blocks, a binary counter that
     * ends uneven. */
    int64_t n = 1000003;
    float *big = malloc(sizeof(float) * (size_t)n);
    for (int64_t i = 0; i < n; ++i)
        big[i] = (float)((int32_t)lcg(&s) >> 12) / 1024.0f;
    void *mb = upload(big, sizeof(float) * (size_t)n);
    float total;
    EXPECT(full_sum(mb, TSR_FLOAT32, n, 4, mo, &total) == TSR_OK, "sum: %s", last_error);
    float want = (float)host_tree_sum(big, n, 1);
    EXPECT(wide ? memcmp(&total, &want, 4) == 0 : close_to(total, want, 1e-5, 1e-2),
           "full sum %.9g, reference order %.9g", total, want);
    plugin->memory_free(backend, ma);
    plugin->memory_free(backend, mt);
    plugin->memory_free(backend, mb);
    plugin->memory_free(backend, mo);
    free(a);
    free(t);
    free(big);
}

/* int32 sums wrap exactly as the cpu backend's int64 sum truncated. */
static void integer_sums_are_exact_with_wraparound(void)
{
    enum { N = 3001 };
    int32_t x[N];
    uint32_t s = 3, want = 0;
    for (int i = 0; i < N; ++i) {
        x[i] = (int32_t)lcg(&s); /* sums far outside int32 */
        want += (uint32_t)x[i];
    }
    void *mx = upload(x, sizeof x), *mo = upload(NULL, 16);
    uint32_t got;
    EXPECT(full_sum(mx, TSR_INT32, N, 4, mo, &got) == TSR_OK, "sum: %s", last_error);
    EXPECT(got == want, "int32 sum 0x%08x, expected 0x%08x", got, want);
    if (has_kernel(TSR_OP_SUM, TSR_INT64, TSR_INT64)) {
        int64_t y[4] = {INT64_MAX, 5, INT64_MIN + 3, INT64_MAX};
        uint64_t w = 0;
        for (int i = 0; i < 4; ++i)
            w += (uint64_t)y[i];
        void *my = upload(y, sizeof y);
        uint64_t g;
        EXPECT(full_sum(my, TSR_INT64, 4, 8, mo, &g) == TSR_OK, "sum: %s", last_error);
        EXPECT(g == w, "int64 sum 0x%016llx, expected 0x%016llx", (unsigned long long)g,
               (unsigned long long)w);
        plugin->memory_free(backend, my);
    }
    plugin->memory_free(backend, mx);
    plugin->memory_free(backend, mo);
}

/* argmax: the first maximum, the first NaN over everything; max_dim gives
 * value and index; an empty extremum is refused. */
static void argmax_takes_the_first_extreme_and_nan(void)
{
    float x[2][6] = {{1, 5, 2, 5, -1, 5}, {1, NAN, 7, NAN, 9, 0}};
    void *mx = upload(x, sizeof x), *mo = upload(NULL, 64);
    int64_t shape[2] = {2, 6}, strides[2] = {6, 1}, os[2] = {2, 1}, ost[2] = {1, 1};
    struct view vx, vi, vv;
    view_of(&vx, mx, TSR_FLOAT32, 2, shape, strides, 0, 4);
    view_of(&vi, mo, TSR_INT64, 2, os, ost, 0, 8);
    view_of(&vv, mo, TSR_FLOAT32, 2, os, ost, 8, 4);
    EXPECT(reduce(TSR_OP_ARGMAX, &vx, &vi, NULL, 2u, 0) == TSR_OK, "argmax: %s", last_error);
    int64_t idx[2];
    download(mo, idx, sizeof idx);
    EXPECT(idx[0] == 1 && idx[1] == 1, "argmax %lld %lld, expected 1 1", (long long)idx[0],
           (long long)idx[1]);
    EXPECT(reduce(TSR_OP_MIN_DIM, &vx, &vv, &vi, 2u, 0) == TSR_OK, "min: %s", last_error);
    float v[2];
    download(mo, idx, sizeof idx);
    plugin->copy_to_host(backend, v, mo, 32, sizeof v);
    EXPECT(v[0] == -1 && idx[0] == 4 && isnan(v[1]) && idx[1] == 1,
           "min (%g, %lld), (%g, %lld); expected (-1, 4), (nan, 1)", v[0], (long long)idx[0],
           v[1], (long long)idx[1]);
    int64_t empty_shape[2] = {2, 0}, one_shape[2] = {2, 1};
    struct view ve, vo;
    view_of(&ve, mx, TSR_FLOAT32, 2, empty_shape, strides, 0, 4);
    view_of(&vo, mo, TSR_FLOAT32, 2, one_shape, ost, 0, 4);
    EXPECT(reduce(TSR_OP_AMAX, &ve, &vo, NULL, 2u, 0) == TSR_ERR_INDEX,
           "amax of nothing: expected TSR_ERR_INDEX");
    EXPECT(reduce(TSR_OP_SUM, &ve, &vo, NULL, 2u, 0) == TSR_OK, "sum of nothing: %s",
           last_error);
    download(mo, v, sizeof v);
    EXPECT(v[0] == 0 && v[1] == 0, "empty sums %g %g", v[0], v[1]);
    tsr_kernel_fn fn = find_kernel(TSR_OP_SUM, TSR_FLOAT32, TSR_FLOAT32);
    tsr_reduce_attrs attrs = {sizeof attrs, 4u, 0, 0}; /* dim 2 of a rank-2 input */
    tsr_kernel_args args = {sizeof args, TSR_OP_SUM, 1, 1, &vx.d, &vo.d, &attrs};
    EXPECT(fn && fn(backend, &args) == TSR_ERR_INVALID_ARGUMENT && strstr(last_error, "dims_mask"),
           "a mask past the rank: %s", last_error);
    plugin->memory_free(backend, mx);
    plugin->memory_free(backend, mo);
}

/* cumsum along a strided dim of 2500 (three chunks): the reference's
 * chunked order in double, rounded per element; int32 wraps. */
static void cumsum_follows_the_chunked_order(void)
{
    enum { N = 2500 };
    float *x = malloc(sizeof(float) * 2 * N), *got = malloc(sizeof(float) * N);
    uint32_t s = 11;
    for (int i = 0; i < 2 * N; ++i)
        x[i] = (float)((int32_t)lcg(&s) >> 8) / 4096.0f;
    void *mx = upload(x, sizeof(float) * 2 * N), *mo = upload(NULL, sizeof(float) * N);
    int64_t n = N, two = 2;
    struct view vx, vo;
    view_of(&vx, mx, TSR_FLOAT32, 1, &n, &two, 1, 4); /* every other element, from 1 */
    flat(&vo, mo, TSR_FLOAT32, N, 4);
    tsr_kernel_fn fn = find_kernel(TSR_OP_CUMSUM, TSR_FLOAT32, TSR_FLOAT32);
    tsr_scan_attrs attrs = {sizeof attrs, 0};
    tsr_kernel_args args = {sizeof args, TSR_OP_CUMSUM, 1, 1, &vx.d, &vo.d, &attrs};
    EXPECT(fn && fn(backend, &args) == TSR_OK, "cumsum: %s", last_error);
    download(mo, got, sizeof(float) * N);
    int wide = has_kernel(TSR_OP_CUMSUM, TSR_FLOAT64, TSR_FLOAT64);
    double carry = 0, run = 0, magnitude = 0;
    int bad = 0;
    for (int i = 0; i < N && !bad; ++i) {
        if (i > 0 && i % 1024 == 0) {
            carry += run;
            run = 0;
        }
        run += (double)x[1 + 2 * i];
        magnitude += fabs((double)x[1 + 2 * i]);
        float want = (float)(i >= 1024 ? carry + run : run);
        /* Without float64 the running value is a float: each step may
         * round by 2^-24 of the magnitude so far. */
        bad = wide ? memcmp(&want, &got[i], 4) != 0
                   : !close_to(got[i], want, 0, (i + 1) * magnitude * 0x1p-24);
        EXPECT(!bad, "cumsum[%d] = %.9g, expected %.9g", i, got[i], want);
    }
    plugin->memory_free(backend, mx);
    plugin->memory_free(backend, mo);
    free(x);
    free(got);
}

/* Up to 64 outputs of at least 64 blocks are split over workgroups and
 * merged through scratch memory; 65 are not. Both must give the same bits:
 * rows 0..63 of a [65, 66000] input, reduced as 64 and as 65 outputs. */
static void split_reductions_match_whole_ones(void)
{
    enum { R = 65, C = 66000 };
    float *x = malloc(sizeof(float) * R * C);
    uint32_t s = 5;
    for (int i = 0; i < R * C; ++i)
        x[i] = (float)((int32_t)lcg(&s) >> 9) / 8192.0f;
    x[3 * C + 40000] = NAN; /* row 3: a NaN in the last runs */
    x[5 * C + 2] = x[5 * C + 65000] = 1e30f; /* row 5: a tie for the maximum */
    void *mx = upload(x, sizeof(float) * R * C), *mo = upload(NULL, 16 * 2 * R);
    /* One op of each kind: a sum, two passes, a shifted sum, an extremum. */
    static const int ops[] = {TSR_OP_SUM, TSR_OP_VAR, TSR_OP_LOGSUMEXP, TSR_OP_ARGMAX,
                              TSR_OP_NORM};
    for (size_t k = 0; k < sizeof ops / sizeof ops[0]; ++k) {
        int op = ops[k];
        int out_dtype = op == TSR_OP_ARGMAX ? TSR_INT64 : TSR_FLOAT32;
        int64_t size = out_dtype == TSR_INT64 ? 8 : 4;
        int64_t shape65[2] = {R, C}, shape64[2] = {R - 1, C}, strides[2] = {C, 1};
        int64_t o65[2] = {R, 1}, o64[2] = {R - 1, 1}, ost[2] = {1, 1};
        struct view in65, in64, out65, out64;
        view_of(&in65, mx, TSR_FLOAT32, 2, shape65, strides, 0, 4);
        view_of(&in64, mx, TSR_FLOAT32, 2, shape64, strides, 0, 4);
        view_of(&out65, mo, out_dtype, 2, o65, ost, 0, size);
        view_of(&out64, mo, out_dtype, 2, o64, ost, 2 * R, size);
        EXPECT(reduce(op, &in65, &out65, NULL, 2u, 1.0) == TSR_OK, "op %d: %s", op, last_error);
        EXPECT(reduce(op, &in64, &out64, NULL, 2u, 1.0) == TSR_OK, "op %d: %s", op, last_error);
        unsigned char got[16 * 2 * R];
        download(mo, got, sizeof got);
        for (int r = 0; r < R - 1; ++r)
            EXPECT(memcmp(got + r * size, got + (2 * R + r) * size, (size_t)size) == 0,
                   "op %d row %d: split and whole results differ", op, r);
        if (op == TSR_OP_ARGMAX) {
            int64_t idx[R - 1];
            memcpy(idx, got + 2 * R * size, sizeof idx);
            EXPECT(idx[3] == 40000 && idx[5] == 2, "argmax rows 3, 5: %lld %lld (40000, 2)",
                   (long long)idx[3], (long long)idx[5]);
        }
    }
    plugin->memory_free(backend, mx);
    plugin->memory_free(backend, mo);
    free(x);
}

/* linalg_vector_norm over rows of 20 (two lanes' worth of terms each) for
 * every kind of ord, against the reference's formulas on the host: |x|^p
 * rounded to float, summed in the reference's order, rooted. ord +-inf is
 * the extreme magnitude (NaN wins), ord 0 counts nonzeros (NaN included). */
static void vector_norms_follow_the_reference(void)
{
    if (!has_kernel(TSR_OP_NORM, TSR_FLOAT32, TSR_FLOAT32)) {
        printf("  linalg_vector_norm: not listed (needs the wide reduce shader)\n");
        return;
    }
    enum { R = 3, C = 20 };
    float x[R * C];
    uint32_t s = 11;
    for (int i = 0; i < R * C; ++i)
        x[i] = (float)((int32_t)lcg(&s) >> 16) / 4096.0f;
    x[3] = -0.0f, x[7] = 0.0f;       /* row 0: zeros, not counted by ord 0 */
    x[C + 5] = NAN;                  /* row 1: NaN wins the extrema, counts */
    x[2 * C + 9] = -1000.0f;         /* row 2: the largest magnitude is negative */
    void *mx = upload(x, sizeof x), *mo = upload(NULL, sizeof(float) * R);
    int64_t shape[2] = {R, C}, strides[2] = {C, 1}, oshape[2] = {R, 1}, ostride[2] = {1, 1};
    struct view vx, vo;
    view_of(&vx, mx, TSR_FLOAT32, 2, shape, strides, 0, 4);
    view_of(&vo, mo, TSR_FLOAT32, 2, oshape, ostride, 0, 4);
    static const double ords[] = {2.0, 1.0, 3.0, -1.5, 0.0, INFINITY, -INFINITY};
    for (size_t k = 0; k < sizeof ords / sizeof ords[0]; ++k) {
        double p = ords[k];
        EXPECT(reduce_p(TSR_OP_NORM, &vx, &vo, NULL, 2u, 0, p) == TSR_OK, "norm %g: %s", p,
               last_error);
        float got[R];
        download(mo, got, sizeof got);
        for (int r = 0; r < R; ++r) {
            float terms[C];
            double best = fabs((double)x[r * C]), count = 0;
            for (int c = 0; c < C; ++c) {
                double m = fabs((double)x[r * C + c]);
                terms[c] = (float)(p == 1.0 ? m : p == 2.0 ? m * m : pow(m, p));
                count += m != 0.0;
                if (isnan(m) || isnan(best))
                    best = NAN;
                else if (p > 0 ? m > best : m < best)
                    best = m;
            }
            double total = (float)host_tree_sum(terms, C, 1);
            float want = (float)(isinf(p)   ? best
                                 : p == 0.0 ? count
                                 : p == 1.0 ? total
                                 : p == 2.0 ? sqrt(total)
                                            : pow(total, 1.0 / p));
            int exact = p == 1.0 || p == 2.0 || p == 0.0 || isinf(p);
            EXPECT(isnan(want) ? isnan(got[r])
                   : exact     ? memcmp(&got[r], &want, 4) == 0
                               : close_to(got[r], want, 1e-6, 0),
                   "norm ord %g row %d: %.9g, expected %.9g", p, r, got[r], want);
        }
    }
    /* An empty row: 0 for sums and counts, NaN for the extreme magnitudes
     * (the reference's answer; it has no terms to take). */
    int64_t empty_shape[2] = {R, 0};
    view_of(&vx, mx, TSR_FLOAT32, 2, empty_shape, strides, 0, 4);
    EXPECT(reduce_p(TSR_OP_NORM, &vx, &vo, NULL, 2u, 0, INFINITY) == TSR_OK, "%s", last_error);
    float got[R];
    download(mo, got, sizeof got);
    EXPECT(isnan(got[0]) && isnan(got[2]), "empty inf norm: %g %g", got[0], got[2]);
    EXPECT(reduce_p(TSR_OP_NORM, &vx, &vo, NULL, 2u, 0, 2.0) == TSR_OK, "%s", last_error);
    download(mo, got, sizeof got);
    EXPECT(got[0] == 0.0f && got[2] == 0.0f, "empty 2-norm: %g %g", got[0], got[2]);
    plugin->memory_free(backend, mx);
    plugin->memory_free(backend, mo);
}

/* cummax in place (values over the input) with ties, which move the index
 * to the later one, and a NaN, which takes over for good; then
 * logcumsumexp against the reference's step in double. */
static void running_extrema_and_logcumsumexp(void)
{
    enum { N = 8 };
    static const float x[N] = {1.0f, 3.0f, 3.0f, -2.0f, 5.0f, NAN, 7.0f, 5.0f};
    static const float max_want[N] = {1.0f, 3.0f, 3.0f, 3.0f, 5.0f, NAN, NAN, NAN};
    static const int64_t index_want[N] = {0, 1, 2, 2, 4, 5, 5, 5};
    void *mx = upload(x, sizeof x), *mi = upload(NULL, 8 * N), *mo = upload(NULL, sizeof x);
    struct view vx, vi, vo;
    flat(&vx, mx, TSR_FLOAT32, N, 4);
    flat(&vi, mi, TSR_INT64, N, 8);
    flat(&vo, mo, TSR_FLOAT32, N, 4);
    tsr_scan_attrs attrs = {sizeof attrs, 0};
    tsr_tensor_desc outs[2] = {vx.d, vi.d};
    tsr_kernel_args args = {sizeof args, TSR_OP_CUMMAX, 1, 2, &vx.d, outs, &attrs};
    tsr_kernel_fn fn = find_kernel(TSR_OP_CUMMAX, TSR_FLOAT32, TSR_FLOAT32);
    EXPECT(fn && fn(backend, &args) == TSR_OK, "cummax: %s", last_error);
    float values[N];
    int64_t index[N];
    download(mx, values, sizeof values);
    download(mi, index, sizeof index);
    for (int i = 0; i < N; ++i)
        EXPECT((isnan(max_want[i]) ? isnan(values[i]) : values[i] == max_want[i]) &&
                   index[i] == index_want[i],
               "cummax[%d] = %g at %lld, expected %g at %lld", i, values[i], (long long)index[i],
               max_want[i], (long long)index_want[i]);
    static const float y[N] = {0.5f, -1.0f, 20.0f, -INFINITY, 3.0f, -40.0f, 19.5f, 0.0f};
    void *my = upload(y, sizeof y);
    flat(&vx, my, TSR_FLOAT32, N, 4);
    args = (tsr_kernel_args){sizeof args, TSR_OP_LOGCUMSUMEXP, 1, 1, &vx.d, &vo.d, &attrs};
    fn = find_kernel(TSR_OP_LOGCUMSUMEXP, TSR_FLOAT32, TSR_FLOAT32);
    if (fn) {
        EXPECT(fn(backend, &args) == TSR_OK, "logcumsumexp: %s", last_error);
        download(mo, values, sizeof values);
        double acc = -INFINITY;
        for (int i = 0; i < N; ++i) {
            double hi = fmax(acc, y[i]), lo = fmin(acc, y[i]);
            acc = isinf(lo) && lo == hi ? y[i] : log1p(exp(lo - hi)) + hi;
            EXPECT(close_to(values[i], (float)acc, 2e-7, 0), "logcumsumexp[%d] = %.9g, want %.9g",
                   i, values[i], (float)acc);
        }
    }
    plugin->memory_free(backend, mx);
    plugin->memory_free(backend, mi);
    plugin->memory_free(backend, mo);
    plugin->memory_free(backend, my);
}

static void run_reduce_cases(void)
{
    running_extrema_and_logcumsumexp();
    vector_norms_follow_the_reference();
    split_reductions_match_whole_ones();
    float_sums_do_not_depend_on_layout();
    integer_sums_are_exact_with_wraparound();
    argmax_takes_the_first_extreme_and_nan();
    cumsum_follows_the_chunked_order();
}

/* On a CPU device (lavapipe) short outputs take one invocation each and
 * long ones are never split; TESSERA_VULKAN_REDUCE_GROUPS=1 selects the
 * workgroup paths a GPU takes, so both are checked here. */
void run_all_cases(void)
{
    printf("reductions, default paths\n");
    run_reduce_cases();
    setenv("TESSERA_VULKAN_REDUCE_GROUPS", "1", 1);
    printf("reductions, workgroup paths\n");
    run_reduce_cases();
    unsetenv("TESSERA_VULKAN_REDUCE_GROUPS");
}
