/* The softmax family, norms and indexing kernels on the device
 * (softmax.c, norm.c, index.c, scatter.c, rearrange.c): index errors found before anything is
 * written, scatter-add combining in index order (the same bits on every
 * run, the host's sequential bits), softmax over short and long rows, and
 * tril/triu. Linked with test_vulkan_kernels.c, which loads the plugin and
 * calls run_all_cases. */
#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "test_vulkan_kernels.h"

static int call(int op, int dtype, const tsr_tensor_desc *in, int nin, const tsr_tensor_desc *out,
                int nout, const void *attrs)
{
    tsr_kernel_fn fn = find_kernel(op, dtype, dtype);
    if (!fn) {
        printf("FAIL no kernel for op %d on dtype %d\n", op, dtype);
        ++failures;
        return TSR_ERR_UNIMPLEMENTED;
    }
    tsr_kernel_args args = {sizeof args, op, nin, nout, in, out, attrs};
    return fn(backend, &args);
}

static tsr_index_attrs index_attrs(int dim, int reduce, int flags)
{
    tsr_index_attrs a;
    memset(&a, 0, sizeof a);
    a.struct_size = sizeof a;
    a.dim = dim;
    a.reduce = reduce;
    a.flags = flags;
    a.value = (tsr_scalar){.kind = TSR_SCALAR_INT, .v.i = 1};
    return a;
}

/* A bad index anywhere fails the call with TSR_ERR_INDEX naming the first
 * bad value in C order, and the output keeps every byte. */
static void index_errors_leave_the_output_unchanged(void)
{
    float x[4 * 3];
    for (int i = 0; i < 12; ++i)
        x[i] = (float)i;
    /* Positions 0..3 of a [2, 2] index: the first bad one (C order) is 7. */
    int64_t bad[4] = {1, 7, 0, -2};
    float sentinel[12];
    for (int i = 0; i < 12; ++i)
        sentinel[i] = -100.0f - (float)i;
    void *mx = upload(x, sizeof x), *mi = upload(bad, sizeof bad);
    void *mo = upload(sentinel, sizeof sentinel);
    struct view vx, vi, vi1, vo, vsrc;
    view_of(&vx, mx, TSR_FLOAT32, 2, (int64_t[]){4, 3}, (int64_t[]){3, 1}, 0, 4);
    view_of(&vi, mi, TSR_INT64, 2, (int64_t[]){2, 2}, (int64_t[]){2, 1}, 0, 8);
    view_of(&vi1, mi, TSR_INT64, 1, (int64_t[]){4}, (int64_t[]){1}, 0, 8);
    tsr_index_attrs a = index_attrs(0, TSR_REDUCE_NONE, 0);

    /* gather along 0: out has the index's shape. */
    view_of(&vo, mo, TSR_FLOAT32, 2, (int64_t[]){2, 2}, (int64_t[]){3, 1}, 0, 4);
    tsr_tensor_desc in2[3] = {vx.d, vi.d};
    int status = call(TSR_OP_GATHER, TSR_FLOAT32, in2, 2, &vo.d, 1, &a);
    EXPECT(status == TSR_ERR_INDEX, "gather: status %d", status);
    EXPECT(strstr(last_error, "index 7 is out of bounds for dimension 0 with size 4"),
           "gather: message '%s'", last_error);

    /* index_select along 1 (size 3) with [1, 7, 0, -2]: 7 again. */
    view_of(&vo, mo, TSR_FLOAT32, 2, (int64_t[]){3, 4}, (int64_t[]){4, 1}, 0, 4);
    view_of(&vx, mx, TSR_FLOAT32, 2, (int64_t[]){3, 4}, (int64_t[]){4, 1}, 0, 4);
    a.dim = 1;
    in2[0] = vx.d;
    in2[1] = vi1.d;
    status = call(TSR_OP_INDEX_SELECT, TSR_FLOAT32, in2, 2, &vo.d, 1, &a);
    EXPECT(status == TSR_ERR_INDEX && strstr(last_error, "index 7 "),
           "index_select: status %d, '%s'", status, last_error);

    /* A negative value first: index_add with [-2, 0, 7, 1]. */
    int64_t back[4] = {-2, 0, 7, 1};
    void *mb = upload(back, sizeof back);
    view_of(&vi1, mb, TSR_INT64, 1, (int64_t[]){4}, (int64_t[]){1}, 0, 8);
    view_of(&vsrc, mx, TSR_FLOAT32, 2, (int64_t[]){3, 4}, (int64_t[]){4, 1}, 0, 4);
    tsr_tensor_desc in3[3] = {vo.d, vi1.d, vsrc.d};
    status = call(TSR_OP_INDEX_ADD, TSR_FLOAT32, in3, 3, &vo.d, 1, &a);
    EXPECT(status == TSR_ERR_INDEX && strstr(last_error, "index -2 "), "index_add: status %d, '%s'",
           status, last_error);

    /* scatter (sum) into a copy of x: the copy of self is not made either. */
    a = index_attrs(0, TSR_REDUCE_SUM, TSR_INDEX_INCLUDE_SELF);
    view_of(&vx, mx, TSR_FLOAT32, 2, (int64_t[]){4, 3}, (int64_t[]){3, 1}, 0, 4);
    view_of(&vo, mo, TSR_FLOAT32, 2, (int64_t[]){4, 3}, (int64_t[]){3, 1}, 0, 4);
    in3[0] = vx.d;
    in3[1] = vi.d;
    in3[2] = vx.d;
    status = call(TSR_OP_SCATTER, TSR_FLOAT32, in3, 3, &vo.d, 1, &a);
    EXPECT(status == TSR_ERR_INDEX && strstr(last_error, "index 7 "), "scatter: status %d, '%s'",
           status, last_error);

    float got[12];
    download(mo, got, sizeof got);
    EXPECT(memcmp(got, sentinel, sizeof got) == 0, "a failed call wrote its output");
    /* The failed checks leave no error behind for the next call. */
    EXPECT(plugin->synchronize(backend) == TSR_OK, "synchronize after: %s", last_error);
    plugin->memory_free(backend, mx);
    plugin->memory_free(backend, mi);
    plugin->memory_free(backend, mb);
    plugin->memory_free(backend, mo);
}

static uint32_t lcg(uint32_t *s)
{
    *s = *s * 1664525u + 1013904223u;
    return *s;
}

/* 3000 updates into 3 targets per column: int32 wraps exactly as the cpu
 * backend's sequential loop, float32 gives the host's sequential float sum
 * (each step rounded), bit for bit, on two runs. */
static void scatter_add_combines_in_index_order(void)
{
    enum { N = 3000, COLS = 2, TARGETS = 3 };
    int64_t *index = malloc(sizeof *index * N * COLS);
    int32_t *ivals = malloc(sizeof *ivals * N * COLS);
    float *fvals = malloc(sizeof *fvals * N * COLS);
    uint32_t seed = 7;
    for (int i = 0; i < N * COLS; ++i) {
        index[i] = lcg(&seed) % TARGETS;
        ivals[i] = (int32_t)lcg(&seed); /* sums wrap */
        /* Magnitudes from 2^-20 to 2^20: the order shows in the bits. */
        fvals[i] = ldexpf((float)(lcg(&seed) >> 8) / 16777216.0f, (int)(lcg(&seed) % 41) - 20);
    }
    int32_t iself[TARGETS * COLS] = {1, -2, 3, -4, 5, 2147483647};
    float fself[TARGETS * COLS] = {0.5f, -1.0f, 3.0f, 1e-3f, -7.0f, 1e6f};
    int32_t iwant[TARGETS * COLS];
    float fwant[TARGETS * COLS];
    memcpy(iwant, iself, sizeof iwant);
    memcpy(fwant, fself, sizeof fwant);
    for (int j = 0; j < N; ++j)
        for (int c = 0; c < COLS; ++c) {
            int t = (int)index[j * COLS + c] * COLS + c;
            iwant[t] = (int32_t)((uint32_t)iwant[t] + (uint32_t)ivals[j * COLS + c]);
            fwant[t] = fwant[t] + fvals[j * COLS + c];
        }
    void *mi = upload(index, sizeof *index * N * COLS);
    struct view vi, vsrc, vself, vout;
    view_of(&vi, mi, TSR_INT64, 2, (int64_t[]){N, COLS}, (int64_t[]){COLS, 1}, 0, 8);
    tsr_index_attrs a = index_attrs(0, TSR_REDUCE_SUM, TSR_INDEX_INCLUDE_SELF);
    for (int pass = 0; pass < 2; ++pass)
        for (int f = 0; f < 2; ++f) {
            int dtype = f ? TSR_FLOAT32 : TSR_INT32;
            void *msrc = upload(f ? (void *)fvals : (void *)ivals, 4 * N * COLS);
            void *mself = upload(f ? (void *)fself : (void *)iself, 4 * TARGETS * COLS);
            void *mout = upload(NULL, 4 * TARGETS * COLS);
            view_of(&vsrc, msrc, dtype, 2, (int64_t[]){N, COLS}, (int64_t[]){COLS, 1}, 0, 4);
            view_of(&vself, mself, dtype, 2, (int64_t[]){TARGETS, COLS}, (int64_t[]){COLS, 1}, 0,
                    4);
            view_of(&vout, mout, dtype, 2, (int64_t[]){TARGETS, COLS}, (int64_t[]){COLS, 1}, 0, 4);
            tsr_tensor_desc in[3] = {vself.d, vi.d, vsrc.d};
            int status = call(TSR_OP_SCATTER, dtype, in, 3, &vout.d, 1, &a);
            EXPECT(status == TSR_OK, "scatter_add: %s", last_error);
            uint32_t got[TARGETS * COLS], want[TARGETS * COLS];
            download(mout, got, sizeof got);
            memcpy(want, f ? (void *)fwant : (void *)iwant, sizeof want);
            for (int t = 0; t < TARGETS * COLS; ++t)
                EXPECT(got[t] == want[t],
                       "scatter_add %s (run %d) [%d]: bits %08x, the sequential sum %08x",
                       f ? "float32" : "int32", pass, t, got[t], want[t]);
            plugin->memory_free(backend, msrc);
            plugin->memory_free(backend, mself);
            plugin->memory_free(backend, mout);
        }
    plugin->memory_free(backend, mi);
    free(index);
    free(ivals);
    free(fvals);
}

/* Rows of 10 (the demo's classes, 10 of 256 invocations busy) and 4096
 * (16 per invocation): against the host in double. */
static void softmax_short_and_long_rows(void)
{
    static const int lengths[2] = {10, 4096};
    for (int k = 0; k < 2; ++k) {
        int len = lengths[k], rows = 3;
        float *x = malloc(sizeof *x * len * rows), *y = malloc(sizeof *y * len * rows);
        uint32_t seed = 11;
        for (int i = 0; i < len * rows; ++i)
            x[i] = (float)((int)(lcg(&seed) % 2001) - 1000) / 50.0f;
        x[2 * len + 3] = NAN; /* the third row becomes NaN */
        void *mx = upload(x, sizeof *x * len * rows), *my = upload(NULL, sizeof *y * len * rows);
        for (int log_form = 0; log_form < 2; ++log_form) {
            struct view vx, vy;
            /* The rows lie along dim 0 of a transposed view. */
            view_of(&vx, mx, TSR_FLOAT32, 2, (int64_t[]){len, rows}, (int64_t[]){1, len}, 0, 4);
            view_of(&vy, my, TSR_FLOAT32, 2, (int64_t[]){len, rows}, (int64_t[]){1, len}, 0, 4);
            tsr_scan_attrs a = {sizeof a, 0};
            int op = log_form ? TSR_OP_LOG_SOFTMAX : TSR_OP_SOFTMAX;
            EXPECT(call(op, TSR_FLOAT32, &vx.d, 1, &vy.d, 1, &a) == TSR_OK, "softmax: %s",
                   last_error);
            download(my, y, sizeof *y * len * rows);
            for (int r = 0; r < rows; ++r) {
                double mx_ = -INFINITY, sum = 0;
                for (int i = 0; i < len; ++i)
                    mx_ = fmax(mx_, x[r * len + i]);
                for (int i = 0; i < len; ++i)
                    sum += exp((double)x[r * len + i] - mx_);
                for (int i = 0; i < len; ++i) {
                    double s = (double)x[r * len + i] - mx_;
                    double want = log_form ? s - log(sum) : exp(s) / sum;
                    float got = y[r * len + i];
                    if (r == 2)
                        EXPECT(isnan(got), "row with NaN: [%d] = %g", i, got);
                    else
                        /* log_softmax near 0 is log(sum) of a float sum:
                         * an absolute error of a few ulp of 1. */
                        EXPECT(close_to(got, want, 4e-6, log_form ? 4e-7 : 1e-30),
                               "len %d row %d [%d]: %.9g vs %.9g", len, r, i, got, want);
                }
            }
        }
        plugin->memory_free(backend, mx);
        plugin->memory_free(backend, my);
        free(x);
        free(y);
    }
}

/* tril/triu on int32 with diagonals -1, 0, 2 and one past any int32. */
static void tril_and_triu_keep_their_triangle(void)
{
    enum { R = 3, C = 5 };
    int32_t x[2 * R * C], got[2 * R * C];
    for (int i = 0; i < 2 * R * C; ++i)
        x[i] = i + 1;
    void *mx = upload(x, sizeof x), *mo = upload(NULL, sizeof x);
    struct view vx, vo;
    view_of(&vx, mx, TSR_INT32, 3, (int64_t[]){2, R, C}, (int64_t[]){R * C, C, 1}, 0, 4);
    view_of(&vo, mo, TSR_INT32, 3, (int64_t[]){2, R, C}, (int64_t[]){R * C, C, 1}, 0, 4);
    static const int64_t diagonals[4] = {-1, 0, 2, (int64_t)1 << 40};
    for (int lower = 0; lower < 2; ++lower)
        for (int k = 0; k < 4; ++k) {
            tsr_index_attrs a = index_attrs(0, 0, 0);
            a.offset = diagonals[k];
            int op = lower ? TSR_OP_TRIL : TSR_OP_TRIU;
            EXPECT(call(op, TSR_INT32, &vx.d, 1, &vo.d, 1, &a) == TSR_OK, "tri: %s", last_error);
            download(mo, got, sizeof got);
            for (int i = 0; i < 2 * R * C; ++i) {
                int64_t diff = (int64_t)(i % C) - (i / C) % R;
                int keep = lower ? diff <= diagonals[k] : diff >= diagonals[k];
                EXPECT(got[i] == (keep ? x[i] : 0), "%s k=%lld [%d] = %d", lower ? "tril" : "triu",
                       (long long)diagonals[k], i, got[i]);
            }
        }
    plugin->memory_free(backend, mx);
    plugin->memory_free(backend, mo);
}

/* index_add on complex128 and complex64: self + alpha * source at each
 * index in order (position 0 twice), the product as C's complex product,
 * which the reference uses, including its rescue of an infinite part
 * (alpha * (NaN + inf i) is NaN + inf i, not NaN + NaN i). */
static void complex_index_add_follows_c(void)
{
    if (!find_kernel(TSR_OP_INDEX_ADD, TSR_COMPLEX128, TSR_COMPLEX128)) {
        printf("  complex index_add: not listed (needs the wide scatter shader)\n");
        return;
    }
    double complex self[3] = {1.0 + 2.0 * I, -3.0, 0.25 * I};
    double complex src[3] = {0.1 + 0.7 * I, CMPLX(NAN, INFINITY), -5.5 + 1e-3 * I};
    int64_t index[3] = {0, 2, 0};
    double complex alpha = 0.5 - 2.0 * I;
    double complex want[3] = {self[0], self[1], self[2]};
    for (int j = 0; j < 3; ++j) {
        volatile double complex a = alpha, v = src[j]; /* not folded at compile time */
        want[index[j]] = want[index[j]] + a * v;
    }
    void *mi = upload(index, sizeof index);
    struct view vi;
    view_of(&vi, mi, TSR_INT64, 1, (int64_t[]){3}, (int64_t[]){1}, 0, 8);
    tsr_index_attrs a = index_attrs(0, TSR_REDUCE_NONE, 0);
    a.value = (tsr_scalar){.kind = TSR_SCALAR_COMPLEX, .v.c = {creal(alpha), cimag(alpha)}};
    for (int wide = 1; wide >= 0; --wide) {
        int dtype = wide ? TSR_COMPLEX128 : TSR_COMPLEX64;
        int size = wide ? 16 : 8;
        float complex self32[3], src32[3], got32[3];
        double complex got[3];
        for (int k = 0; k < 3; ++k)
            self32[k] = (float complex)self[k], src32[k] = (float complex)src[k];
        void *ms = wide ? upload(self, sizeof self) : upload(self32, sizeof self32);
        void *mv = wide ? upload(src, sizeof src) : upload(src32, sizeof src32);
        void *mo = upload(NULL, 3 * (size_t)size);
        struct view vs, vv, vo;
        view_of(&vs, ms, dtype, 1, (int64_t[]){3}, (int64_t[]){1}, 0, size);
        view_of(&vv, mv, dtype, 1, (int64_t[]){3}, (int64_t[]){1}, 0, size);
        view_of(&vo, mo, dtype, 1, (int64_t[]){3}, (int64_t[]){1}, 0, size);
        tsr_tensor_desc in[3] = {vs.d, vi.d, vv.d};
        EXPECT(call(TSR_OP_INDEX_ADD, dtype, in, 3, &vo.d, 1, &a) == TSR_OK, "index_add: %s",
               last_error);
        if (wide) {
            download(mo, got, sizeof got);
        } else {
            download(mo, got32, sizeof got32);
            for (int k = 0; k < 3; ++k)
                got[k] = got32[k];
        }
        for (int k = 0; k < 3; ++k) {
            /* complex64 parts are floats: the double result rounded */
            double complex w = wide ? want[k] : (double complex)(float complex)want[k];
            double tol = wide ? 0 : 1e-6;
            int ok = 1;
            for (int part = 0; part < 2; ++part) {
                double g = part ? cimag(got[k]) : creal(got[k]);
                double e = part ? cimag(w) : creal(w);
                ok &= isnan(e) ? isnan(g) : (g == e || fabs(g - e) <= tol * fabs(e));
            }
            EXPECT(ok, "%s index_add[%d] = %g%+gi, expected %g%+gi", wide ? "c128" : "c64", k,
                   creal(got[k]), cimag(got[k]), creal(w), cimag(w));
        }
        plugin->memory_free(backend, ms);
        plugin->memory_free(backend, mv);
        plugin->memory_free(backend, mo);
    }
    plugin->memory_free(backend, mi);
}

void run_all_cases(void)
{
    complex_index_add_follows_c();
    index_errors_leave_the_output_unchanged();
    scatter_add_combines_in_index_order();
    softmax_short_and_long_rows();
    tril_and_triu_keep_their_triangle();
}
