/* Cholesky, LU with partial pivoting and triangular solves: the reference's
 * plain-C factorisations, one matrix at a time (see linalg.h).
 *
 * Each inner product runs in increasing index order, so a matrix's bits are
 * fixed by its values. The error bounds (docs/linalg.md) are the textbook
 * ones for these orders: Cholesky L L^H = A + D, |D| <= gamma(n+1)|L||L^H|;
 * LU L U = P A + D, |D| <= gamma(n)|L||U|; substitution (T + D) x = b,
 * |D| <= gamma(n)|T|, all in double, before the final rounding. */
#include <stdlib.h>

#include "kernels.h"
#include "linalg.h"

int32_t tsr__ref_linalg_cholesky(tsr__ref_lz *a, int64_t n)
{
    /* Column by column (left-looking): column j needs only columns < j, so
     * a failure at j leaves later columns as a gave them. */
    for (int64_t j = 0; j < n; j++) {
        double pivot = creal(a[j * n + j]);
        for (int64_t k = 0; k < j; k++) {
            tsr__ref_lz l = a[j * n + k];
            pivot -= creal(l) * creal(l) + cimag(l) * cimag(l);
        }
        if (pivot <= 0.0) { /* a NaN goes on, as in OpenBLAS, and spreads */
            a[j * n + j] = tsr__ref_complex_make(pivot, 0.0);
            return (int32_t)(j + 1);
        }
        double diag = sqrt(pivot);
        a[j * n + j] = tsr__ref_complex_make(diag, 0.0);
        for (int64_t i = j + 1; i < n; i++) {
            tsr__ref_lz s = a[i * n + j];
            for (int64_t k = 0; k < j; k++) {
                s = tsr__ref_lz_sub(s,
                                    tsr__ref_lz_mul(a[i * n + k], tsr__ref_lz_conj(a[j * n + k])));
            }
            a[i * n + j] = tsr__ref_lz_div(s, tsr__ref_complex_make(diag, 0.0));
        }
    }
    return 0;
}

static int64_t pivot_row(const tsr__ref_lz *a, int64_t m, int64_t n, int64_t j)
{
    int64_t best = j;
    double best_value = tsr__ref_lz_abs1(a[j * n + j]);
    for (int64_t i = j + 1; i < m; i++) {
        double value = tsr__ref_lz_abs1(a[i * n + j]);
        if (value > best_value) { /* a NaN is never greater, nothing beats one */
            best = i;
            best_value = value;
        }
    }
    return best;
}

int32_t tsr__ref_linalg_lu(tsr__ref_lz *a, int64_t m, int64_t n, int32_t *pivots)
{
    int32_t info = 0;
    int64_t steps = m < n ? m : n;
    for (int64_t j = 0; j < steps; j++) {
        int64_t p = pivot_row(a, m, n, j);
        pivots[j] = (int32_t)(p + 1);
        if (p != j) {
            for (int64_t c = 0; c < n; c++) {
                tsr__ref_lz t = a[j * n + c];
                a[j * n + c] = a[p * n + c];
                a[p * n + c] = t;
            }
        }
        tsr__ref_lz pivot = a[j * n + j];
        if (creal(pivot) == 0.0 && cimag(pivot) == 0.0) {
            if (info == 0) {
                info = (int32_t)(j + 1);
            }
        } else {
            for (int64_t i = j + 1; i < m; i++) {
                a[i * n + j] = tsr__ref_lz_div(a[i * n + j], pivot);
            }
        }
        for (int64_t i = j + 1; i < m; i++) {
            tsr__ref_lz l = a[i * n + j];
            for (int64_t c = j + 1; c < n; c++) {
                a[i * n + c] = tsr__ref_lz_sub(a[i * n + c], tsr__ref_lz_mul(l, a[j * n + c]));
            }
        }
    }
    return info;
}

int32_t tsr__ref_linalg_trsm(const tsr__ref_lz *a, int64_t n, tsr__ref_lz *b, int64_t k,
                             int32_t flags)
{
    int upper = (flags & TSR_LINALG_UPPER) != 0;
    int unit = (flags & TSR_LINALG_UNIT_DIAGONAL) != 0;
    int32_t info = 0;
    for (int64_t i = 0; i < n && !unit; i++) {
        if (creal(a[i * n + i]) == 0.0 && cimag(a[i * n + i]) == 0.0) {
            info = (int32_t)(i + 1);
            break;
        }
    }
    for (int64_t c = 0; c < k; c++) {
        for (int64_t step = 0; step < n; step++) {
            int64_t i = upper ? n - 1 - step : step;
            tsr__ref_lz s = b[i * k + c];
            int64_t from = upper ? i + 1 : 0, to = upper ? n : i;
            for (int64_t j = from; j < to; j++) {
                s = tsr__ref_lz_sub(s, tsr__ref_lz_mul(a[i * n + j], b[j * k + c]));
            }
            b[i * k + c] = unit ? s : tsr__ref_lz_div(s, a[i * n + i]);
        }
    }
    return info;
}

/* ---- kernels -------------------------------------------------------------- */

static void *scratch(size_t count, size_t size)
{
    return malloc((count == 0 ? 1 : count) * size);
}

/* a := a^H in place (n x n). */
static void conj_transpose(tsr__ref_lz *a, int64_t n)
{
    for (int64_t i = 0; i < n; i++) {
        a[i * n + i] = tsr__ref_lz_conj(a[i * n + i]);
        for (int64_t j = i + 1; j < n; j++) {
            tsr__ref_lz t = a[i * n + j];
            a[i * n + j] = tsr__ref_lz_conj(a[j * n + i]);
            a[j * n + i] = tsr__ref_lz_conj(t);
        }
    }
}

int tsr__ref_kernel_linalg_cholesky(void *backend, const tsr_kernel_args *args)
{
    static const int32_t dims[] = {2, 2, 0};
    tsr__ref_linalg_operand ops[3];
    int64_t batch;
    int st = tsr__ref_linalg_prepare(backend, args, 1, 2, dims, ops, &batch);
    if (st != TSR_OK) {
        return st;
    }
    int64_t n = ops[0].rows;
    if (ops[0].cols != n || ops[1].rows != n || ops[1].cols != n) {
        return tsr__ref_error(backend, TSR_ERR_SHAPE, "linalg_cholesky: needs square matrices");
    }
    tsr__ref_lz *a = scratch((size_t)(n * n), sizeof *a);
    if (a == NULL) {
        return tsr__ref_error(backend, TSR_ERR_OUT_OF_MEMORY, "linalg_cholesky: no scratch");
    }
    int upper = (tsr__ref_linalg_flags(args) & TSR_LINALG_UPPER) != 0;
    for (int64_t m = 0; m < batch; m++) {
        tsr__ref_linalg_gather(&ops[0], m, a);
        if (upper) {
            conj_transpose(a, n);
        }
        int32_t info = tsr__ref_linalg_cholesky(a, n);
        for (int64_t i = 0; i < n; i++) {
            for (int64_t j = i + 1; j < n; j++) {
                a[i * n + j] = 0.0;
            }
        }
        if (upper) {
            conj_transpose(a, n);
        }
        tsr__ref_linalg_scatter(&ops[1], m, a);
        tsr__ref_linalg_store_int(&ops[2], m, &info);
    }
    free(a);
    return TSR_OK;
}

int tsr__ref_kernel_linalg_lu(void *backend, const tsr_kernel_args *args)
{
    static const int32_t dims[] = {2, 2, 1, 0};
    tsr__ref_linalg_operand ops[4];
    int64_t batch;
    int st = tsr__ref_linalg_prepare(backend, args, 1, 3, dims, ops, &batch);
    if (st != TSR_OK) {
        return st;
    }
    int64_t m = ops[0].rows, n = ops[0].cols, k = m < n ? m : n;
    if (ops[1].rows != m || ops[1].cols != n || ops[2].rows != k) {
        return tsr__ref_error(backend, TSR_ERR_SHAPE,
                              "linalg_lu: LU needs a's shape and pivots min(m, n) elements");
    }
    tsr__ref_lz *a = scratch((size_t)(m * n), sizeof *a);
    int32_t *pivots = scratch((size_t)k, sizeof *pivots);
    if (a == NULL || pivots == NULL) {
        free(a);
        free(pivots);
        return tsr__ref_error(backend, TSR_ERR_OUT_OF_MEMORY, "linalg_lu: no scratch");
    }
    for (int64_t i = 0; i < batch; i++) {
        tsr__ref_linalg_gather(&ops[0], i, a);
        int32_t info = tsr__ref_linalg_lu(a, m, n, pivots);
        tsr__ref_linalg_scatter(&ops[1], i, a);
        tsr__ref_linalg_store_int(&ops[2], i, pivots);
        tsr__ref_linalg_store_int(&ops[3], i, &info);
    }
    free(a);
    free(pivots);
    return TSR_OK;
}

int tsr__ref_kernel_linalg_solve_triangular(void *backend, const tsr_kernel_args *args)
{
    static const int32_t dims[] = {2, 2, 2, 0};
    tsr__ref_linalg_operand ops[4];
    int64_t batch;
    int st = tsr__ref_linalg_prepare(backend, args, 2, 2, dims, ops, &batch);
    if (st != TSR_OK) {
        return st;
    }
    int64_t n = ops[0].rows, k = ops[1].cols;
    if (ops[0].cols != n || ops[1].rows != n || ops[2].rows != n || ops[2].cols != k) {
        return tsr__ref_error(backend, TSR_ERR_SHAPE,
                              "linalg_solve_triangular: needs a [n, n], b and x [n, k]");
    }
    int32_t flags = tsr__ref_linalg_flags(args);
    tsr__ref_lz *a = scratch((size_t)(n * n), sizeof *a);
    tsr__ref_lz *b = scratch((size_t)(n * k), sizeof *b);
    if (a == NULL || b == NULL) {
        free(a);
        free(b);
        return tsr__ref_error(backend, TSR_ERR_OUT_OF_MEMORY,
                              "linalg_solve_triangular: no scratch");
    }
    for (int64_t i = 0; i < batch; i++) {
        tsr__ref_linalg_gather(&ops[0], i, a);
        if (flags & TSR_LINALG_CONJ) {
            for (int64_t e = 0; e < n * n; e++) {
                a[e] = tsr__ref_lz_conj(a[e]);
            }
        }
        tsr__ref_linalg_gather(&ops[1], i, b);
        int32_t info = tsr__ref_linalg_trsm(a, n, b, k, flags);
        tsr__ref_linalg_scatter(&ops[2], i, b);
        tsr__ref_linalg_store_int(&ops[3], i, &info);
    }
    free(a);
    free(b);
    return TSR_OK;
}
