/* The cpu linalg kernels give the same bits on 1, 2 and 3 threads, and a
 * matrix inside a batch the bits it has alone: each matrix is one LAPACK
 * (or, at order <= 16, reference) call on one thread. Both sides of the
 * small-matrix limit, every kernel of TSR_OP_LIST_LINALG, float64 and
 * complex64. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "cpu_test.h"

enum { BATCH = 37, MAX_OUT = 4 };

typedef struct job {
    int32_t op, dtype, flags;
    int64_t m, n, k; /* a is m x n; k: b's columns (solve_triangular) */
} job;

static size_t elem(int32_t dtype)
{
    return dtype == TSR_FLOAT64 || dtype == TSR_COMPLEX64 ? 8 : dtype == TSR_COMPLEX128 ? 16 : 4;
}

/* Output shapes per matrix (rows, cols; cols 0: a vector; rows 0: info) and dtypes. */
static int outputs_of(const job *j, int64_t (*shape)[2], int32_t *dtypes)
{
    int64_t m = j->m, n = j->n, k = m < n ? m : n;
    int32_t real = j->dtype == TSR_COMPLEX64 ? TSR_FLOAT32 : j->dtype;
    switch (j->op) {
    case TSR_OP_LINALG_CHOLESKY:
        shape[0][0] = n, shape[0][1] = n, dtypes[0] = j->dtype;
        shape[1][0] = 0, dtypes[1] = TSR_INT32;
        return 2;
    case TSR_OP_LINALG_LU:
        shape[0][0] = m, shape[0][1] = n, dtypes[0] = j->dtype;
        shape[1][0] = k, shape[1][1] = 0, dtypes[1] = TSR_INT32;
        shape[2][0] = 0, dtypes[2] = TSR_INT32;
        return 3;
    case TSR_OP_LINALG_SOLVE_TRIANGULAR:
        shape[0][0] = n, shape[0][1] = j->k, dtypes[0] = j->dtype;
        shape[1][0] = 0, dtypes[1] = TSR_INT32;
        return 2;
    case TSR_OP_LINALG_QR:
        shape[0][0] = m, shape[0][1] = k, dtypes[0] = j->dtype;
        shape[1][0] = k, shape[1][1] = n, dtypes[1] = j->dtype;
        shape[2][0] = 0, dtypes[2] = TSR_INT32;
        return 3;
    case TSR_OP_LINALG_EIGH:
        shape[0][0] = n, shape[0][1] = 0, dtypes[0] = real;
        shape[1][0] = n, shape[1][1] = n, dtypes[1] = j->dtype;
        shape[2][0] = 0, dtypes[2] = TSR_INT32;
        return 3;
    case TSR_OP_LINALG_EIG: {
        int32_t c = j->dtype == TSR_FLOAT64 ? TSR_COMPLEX128 : j->dtype;
        shape[0][0] = n, shape[0][1] = 0, dtypes[0] = c;
        shape[1][0] = n, shape[1][1] = n, dtypes[1] = c;
        shape[2][0] = 0, dtypes[2] = TSR_INT32;
        return 3;
    }
    case TSR_OP_LINALG_GEQRF:
        shape[0][0] = m, shape[0][1] = n, dtypes[0] = j->dtype;
        shape[1][0] = k, shape[1][1] = 0, dtypes[1] = j->dtype;
        shape[2][0] = 0, dtypes[2] = TSR_INT32;
        return 3;
    default:
        shape[0][0] = k, shape[0][1] = 0, dtypes[0] = real;
        shape[1][0] = m, shape[1][1] = k, dtypes[1] = j->dtype;
        shape[2][0] = k, shape[2][1] = n, dtypes[2] = j->dtype;
        shape[3][0] = 0, dtypes[3] = TSR_INT32;
        return 4;
    }
}

static int64_t per_matrix(const int64_t *shape)
{
    return shape[0] == 0 ? 1 : shape[1] == 0 ? shape[0] : shape[0] * shape[1];
}

/* A contiguous descriptor (its strides written into `strides`). */
static tsr_tensor_desc contiguous(void *data, int32_t dtype, int32_t ndim, const int64_t *shape,
                                  int64_t *strides)
{
    int64_t step = 1;
    for (int d = ndim - 1; d >= 0; d--) {
        strides[d] = step;
        step *= shape[d];
    }
    return test_desc(data, dtype, ndim, shape, strides);
}

/* Runs the job on `batch` matrices from `a` (and `b`), outputs into out[]. */
static int run(tsr__cpu_backend *backend, const job *j, int64_t batch, void *a, void *b, void **out)
{
    int64_t shape[2][3] = {{batch, j->m, j->n}, {batch, j->n, j->k}};
    int64_t strides[6][3];
    tsr_tensor_desc in[2] = {contiguous(a, j->dtype, 3, shape[0], strides[0]),
                             contiguous(b, j->dtype, 3, shape[1], strides[1])};
    int64_t os[MAX_OUT][2], oshape[MAX_OUT][3];
    int32_t dt[MAX_OUT];
    int count = outputs_of(j, os, dt);
    tsr_tensor_desc outs[MAX_OUT];
    for (int i = 0; i < count; i++) {
        oshape[i][0] = batch, oshape[i][1] = os[i][0], oshape[i][2] = os[i][1];
        int nd = os[i][0] == 0 ? 1 : os[i][1] == 0 ? 2 : 3;
        outs[i] = contiguous(out[i], dt[i], nd, oshape[i], strides[2 + i]);
    }
    tsr_linalg_attrs attrs = {.struct_size = sizeof attrs, .flags = j->flags};
    return test_run(backend, j->op, j->dtype, j->op == TSR_OP_LINALG_EIG ? dt[0] : j->dtype, in,
                    j->op == TSR_OP_LINALG_SOLVE_TRIANGULAR ? 2 : 1, outs, count, &attrs);
}

/* Diagonally dominant (and for Cholesky and eigh symmetric) data. */
static void fill(const job *j, void *a, void *b)
{
    int64_t m = j->m, n = j->n, parts = j->dtype == TSR_COMPLEX64 ? 2 : 1;
    int64_t count = BATCH * m * n * parts;
    double *v = malloc((size_t)count * sizeof *v);
    test_fill_f64(v, count, 7 + (uint64_t)j->op, -1.0, 1.0);
    for (int64_t t = 0; t < BATCH; t++)
        for (int64_t i = 0; i < m; i++)
            for (int64_t c = 0; c < n; c++) {
                double *x = v + ((t * m + i) * n + c) * parts;
                if (j->op == TSR_OP_LINALG_CHOLESKY || j->op == TSR_OP_LINALG_EIGH) {
                    double *y = v + ((t * m + c) * n + i) * parts;
                    if (c < i) {
                        y[0] = x[0];
                        if (parts == 2)
                            y[1] = -x[1];
                    }
                    if (c == i && parts == 2)
                        x[1] = 0;
                }
                if (c == i)
                    x[0] += (double)n + 2;
            }
    for (int64_t i = 0; i < count; i++) {
        if (j->dtype == TSR_FLOAT64)
            ((double *)a)[i] = v[i];
        else
            ((float *)a)[i] = (float)v[i];
    }
    int64_t bcount = BATCH * n * j->k * parts;
    for (int64_t i = 0; i < bcount; i++) {
        double x = (double)((i * 37) % 11) - 5.0;
        if (j->dtype == TSR_FLOAT64)
            ((double *)b)[i] = x;
        else
            ((float *)b)[i] = (float)x;
    }
    free(v);
}

static void same_bits_for_threads_and_batch(const job *j)
{
    size_t e = elem(j->dtype);
    void *a = calloc((size_t)(BATCH * j->m * j->n) + 1, e),
         *b = calloc((size_t)(BATCH * j->n * j->k) + 1, e);
    fill(j, a, b);
    int64_t os[MAX_OUT][2];
    int32_t dt[MAX_OUT];
    int count = outputs_of(j, os, dt);
    void *ref[MAX_OUT], *got[MAX_OUT];
    size_t bytes[MAX_OUT];
    for (int i = 0; i < count; i++) {
        bytes[i] = (size_t)(BATCH * per_matrix(os[i])) * elem(dt[i]);
        ref[i] = calloc(bytes[i] + 1, 1);
        got[i] = calloc(bytes[i] + 1, 1);
    }
    tsr__cpu_backend *one = test_backend(1, tsr__cpu_isa_detect());
    CHECK_OK(run(one, j, BATCH, a, b, ref));
    tsr__cpu_backend_destroy(one);
    for (int threads = 2; threads <= 3; threads++) {
        tsr__cpu_backend *many = test_backend(threads, tsr__cpu_isa_detect());
        CHECK_OK(run(many, j, BATCH, a, b, got));
        for (int i = 0; i < count; i++)
            CHECK_SAME_BITS("an output on more threads", ref[i], got[i],
                            (int64_t)(bytes[i] / elem(dt[i])), elem(dt[i]));
        /* matrix 5 alone */
        size_t ea = (size_t)(j->m * j->n) * e, eb = (size_t)(j->n * j->k) * e;
        for (int i = 0; i < count; i++)
            memset(got[i], 0, bytes[i]);
        CHECK_OK(run(many, j, 1, (char *)a + 5 * ea, (char *)b + 5 * eb, got));
        for (int i = 0; i < count; i++) {
            size_t one_bytes = bytes[i] / BATCH;
            CHECK_SAME_BITS("a matrix alone", (char *)ref[i] + 5 * one_bytes, got[i],
                            (int64_t)(one_bytes / elem(dt[i])), elem(dt[i]));
        }
        tsr__cpu_backend_destroy(many);
    }
    for (int i = 0; i < count; i++) {
        free(ref[i]);
        free(got[i]);
    }
    free(a);
    free(b);
}

static void linalg_kernels_give_the_same_bits_on_any_thread_count(void)
{
    static const int32_t ops[] = {
        TSR_OP_LINALG_CHOLESKY, TSR_OP_LINALG_LU,   TSR_OP_LINALG_SOLVE_TRIANGULAR,
        TSR_OP_LINALG_QR,       TSR_OP_LINALG_EIGH, TSR_OP_LINALG_SVD,
        TSR_OP_LINALG_GEQRF,    TSR_OP_LINALG_EIG};
    static const int32_t dtypes[] = {TSR_FLOAT64, TSR_COMPLEX64};
    for (size_t o = 0; o < sizeof ops / sizeof ops[0]; o++)
        for (size_t d = 0; d < 2; d++)
            for (int64_t n = 6; n <= 20; n += 14) {
                bool square = ops[o] != TSR_OP_LINALG_LU && ops[o] != TSR_OP_LINALG_QR &&
                              ops[o] != TSR_OP_LINALG_SVD && ops[o] != TSR_OP_LINALG_GEQRF;
                job j = {ops[o], dtypes[d], 0, square ? n : n + 3, n, 3};
                same_bits_for_threads_and_batch(&j);
            }
}

int main(void)
{
    RUN_TEST(linalg_kernels_give_the_same_bits_on_any_thread_count);
    return test_finish();
}
