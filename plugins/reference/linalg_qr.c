/* Householder QR: the reference's geqrf-like factorisation and the forming
 * of Q, one matrix at a time (see linalg.h).
 *
 * Column j's reflector H_j = I - tau v v^H (v_j = 1) maps a's column j below
 * the diagonal to beta e_j with beta real, so R's diagonal is real, of
 * either sign, as LAPACK's. Q = H_0 H_1 ... H_(k-1), its first columns
 * (reduced) or all m (complete). A matrix is first scaled by a power of two
 * that brings its largest element near 1 (exact; R is scaled back), so
 * column norms neither overflow on huge inputs nor flush on tiny ones. */
#include <stdlib.h>

#include "kernels.h"
#include "linalg.h"

/* ||x|| over n elements `step` apart, without overflow (the values are
 * already near 1 after scaling, so a plain sum suffices). */
static double column_norm(const tsr__ref_lz *x, int64_t n, int64_t step)
{
    double s = 0;
    for (int64_t i = 0; i < n; i++) {
        tsr__ref_lz v = x[i * step];
        s += creal(v) * creal(v) + cimag(v) * cimag(v);
    }
    return sqrt(s);
}

/* Factors a (m x n) in place: R on and above the diagonal, the reflectors'
 * v below it; tau[k]. */
static void householder(tsr__ref_lz *a, int64_t m, int64_t n, tsr__ref_lz *tau)
{
    int64_t k = m < n ? m : n;
    for (int64_t j = 0; j < k; j++) {
        tsr__ref_lz alpha = a[j * n + j];
        double xnorm = column_norm(a + (j + 1) * n + j, m - j - 1, n);
        if (xnorm == 0.0 && cimag(alpha) == 0.0) {
            tau[j] = 0.0;
            continue;
        }
        double beta = -copysign(hypot(hypot(creal(alpha), cimag(alpha)), xnorm), creal(alpha));
        tau[j] = tsr__ref_complex_make((beta - creal(alpha)) / beta, -cimag(alpha) / beta);
        tsr__ref_lz scale = tsr__ref_lz_div(1.0, tsr__ref_lz_sub(alpha, beta));
        for (int64_t i = j + 1; i < m; i++)
            a[i * n + j] = tsr__ref_lz_mul(a[i * n + j], scale);
        a[j * n + j] = beta;
        /* the trailing columns: a := H_j^H a = a - conj(tau) v (v^H a) */
        tsr__ref_lz ct = tsr__ref_lz_conj(tau[j]);
        for (int64_t c = j + 1; c < n; c++) {
            tsr__ref_lz w = a[j * n + c];
            for (int64_t i = j + 1; i < m; i++)
                w += tsr__ref_lz_mul(tsr__ref_lz_conj(a[i * n + j]), a[i * n + c]);
            w = tsr__ref_lz_mul(ct, w);
            a[j * n + c] = tsr__ref_lz_sub(a[j * n + c], w);
            for (int64_t i = j + 1; i < m; i++)
                a[i * n + c] = tsr__ref_lz_sub(a[i * n + c], tsr__ref_lz_mul(a[i * n + j], w));
        }
    }
}

/* q (m x cols) := the first cols columns of H_0 ... H_(k-1). */
static void form_q(const tsr__ref_lz *a, int64_t m, int64_t n, const tsr__ref_lz *tau,
                   tsr__ref_lz *q, int64_t cols)
{
    int64_t k = m < n ? m : n;
    for (int64_t i = 0; i < m; i++)
        for (int64_t c = 0; c < cols; c++)
            q[i * cols + c] = i == c ? 1.0 : 0.0;
    for (int64_t j = k - 1; j >= 0; j--) {
        for (int64_t c = 0; c < cols; c++) {
            tsr__ref_lz w = q[j * cols + c];
            for (int64_t i = j + 1; i < m; i++)
                w += tsr__ref_lz_mul(tsr__ref_lz_conj(a[i * n + j]), q[i * cols + c]);
            w = tsr__ref_lz_mul(tau[j], w);
            q[j * cols + c] = tsr__ref_lz_sub(q[j * cols + c], w);
            for (int64_t i = j + 1; i < m; i++)
                q[i * cols + c] =
                    tsr__ref_lz_sub(q[i * cols + c], tsr__ref_lz_mul(a[i * n + j], w));
        }
    }
}

int tsr__ref_kernel_linalg_qr(void *backend, const tsr_kernel_args *args)
{
    static const int32_t dims[] = {2, 2, 2, 0};
    tsr__ref_linalg_operand ops[4];
    int64_t batch;
    int st = tsr__ref_linalg_prepare(backend, args, 1, 3, dims, ops, &batch);
    if (st != TSR_OK)
        return st;
    int64_t m = ops[0].rows, n = ops[0].cols, k = m < n ? m : n;
    int64_t qc = ops[1].cols, rr = ops[2].rows;
    if (ops[1].rows != m || (qc != k && qc != m) || ops[2].cols != n || (rr != k && rr != m))
        return tsr__ref_error(backend, TSR_ERR_SHAPE,
                              "linalg_qr: needs q [m, k or m] and r [k or m, n]");
    tsr__ref_lz *a = malloc((size_t)(m * n + k + m * qc + rr * n + 1) * sizeof *a);
    if (a == NULL)
        return tsr__ref_error(backend, TSR_ERR_OUT_OF_MEMORY, "linalg_qr: no scratch");
    tsr__ref_lz *tau = a + m * n, *q = tau + k, *r = q + m * qc;
    for (int64_t b = 0; b < batch; b++) {
        tsr__ref_linalg_gather(&ops[0], b, a);
        int shift = tsr__ref_linalg_normalise(a, m * n);
        householder(a, m, n, tau);
        form_q(a, m, n, tau, q, qc);
        for (int64_t i = 0; i < rr; i++)
            for (int64_t j = 0; j < n; j++)
                r[i * n + j] = i <= j && i < k ? tsr__ref_linalg_scaled(a[i * n + j], -shift) : 0.0;
        int32_t info = 0;
        tsr__ref_linalg_scatter(&ops[1], b, q);
        tsr__ref_linalg_scatter(&ops[2], b, r);
        tsr__ref_linalg_store_int(&ops[3], b, &info);
    }
    free(a);
    return TSR_OK;
}

int tsr__ref_kernel_linalg_geqrf(void *backend, const tsr_kernel_args *args)
{
    static const int32_t dims[] = {2, 2, 4, 0};
    tsr__ref_linalg_operand ops[4];
    int64_t batch;
    int st = tsr__ref_linalg_prepare(backend, args, 1, 3, dims, ops, &batch);
    if (st != TSR_OK)
        return st;
    int64_t m = ops[0].rows, n = ops[0].cols, k = m < n ? m : n;
    if (ops[1].rows != m || ops[1].cols != n || ops[2].rows != k)
        return tsr__ref_error(backend, TSR_ERR_SHAPE, "geqrf: needs qr [m, n] and tau [k]");
    tsr__ref_lz *a = malloc((size_t)(m * n + k + 1) * sizeof *a);
    if (a == NULL)
        return tsr__ref_error(backend, TSR_ERR_OUT_OF_MEMORY, "geqrf: no scratch");
    tsr__ref_lz *tau = a + m * n;
    for (int64_t b = 0; b < batch; b++) {
        tsr__ref_linalg_gather(&ops[0], b, a);
        int shift = tsr__ref_linalg_normalise(a, m * n);
        householder(a, m, n, tau);
        for (int64_t i = 0; i < m && i < k; i++) /* R back to a's scale; v and tau are scale-free */
            for (int64_t j = i; j < n; j++)
                a[i * n + j] = tsr__ref_linalg_scaled(a[i * n + j], -shift);
        int32_t info = 0;
        tsr__ref_linalg_scatter(&ops[1], b, a);
        tsr__ref_linalg_scatter(&ops[2], b, tau);
        tsr__ref_linalg_store_int(&ops[3], b, &info);
    }
    free(a);
    return TSR_OK;
}
