/* Hermitian eigendecomposition (cyclic Jacobi) and the SVD (one-sided
 * Jacobi), the reference's plain-C spectral kernels (see linalg.h).
 *
 * Both rotate pairs (p, q) with G = [[c, s], [-s conj(e), c conj(e)]], e the
 * phase of the pair's off-diagonal entry, which makes it real, and (c, s)
 * the symmetric 2 x 2 Schur rotation (Golub and Van Loan, 8.4.1), in a
 * fixed cyclic order, until a sweep rotates nothing: a pair is left alone
 * once its entry is below n u (m u for the SVD, whose inner products of
 * m terms round that much) times the geometric mean of its diagonal
 * (which keeps the small eigen- and singular values of graded matrices
 * accurate) or below u^2 times the matrix's norm (where a zero eigen- or
 * singular value would otherwise rotate rounding errors forever). Matrices are first scaled by a
 * power of two (exact) so that sums of squares neither overflow nor underflow, and the values
 * scaled back. */
#include <float.h>
#include <stdlib.h>
#include <string.h>

#include "kernels.h"
#include "linalg.h"

enum { MAX_SWEEPS = 60 };

/* (c, s) with [[c, s], [-s, c]]^T [[app, apq], [apq, aqq]] [[c, s], [-s, c]] diagonal. */
static void schur2(double app, double aqq, double apq, double *c, double *s)
{
    double tau = (aqq - app) / (2.0 * apq);
    double t = (tau >= 0 ? 1.0 : -1.0) / (fabs(tau) + sqrt(1.0 + tau * tau));
    if (!isfinite(tau))
        t = 0.0; /* apq negligible next to the diagonal */
    *c = 1.0 / sqrt(1.0 + t * t);
    *s = t * *c;
}

/* Columns p, q of x (rows x cols, row-major) times G. */
static void rotate_columns(tsr__ref_lz *x, int64_t rows, int64_t cols, int64_t p, int64_t q,
                           double c, double s, tsr__ref_lz ce)
{
    for (int64_t i = 0; i < rows; i++) {
        tsr__ref_lz xp = x[i * cols + p], xq = x[i * cols + q];
        x[i * cols + p] = tsr__ref_lz_sub(c * xp, tsr__ref_lz_mul(xq, s * ce));
        x[i * cols + q] = s * xp + tsr__ref_lz_mul(xq, c * ce);
    }
}

static double frobenius(const tsr__ref_lz *a, int64_t count)
{
    double s = 0;
    for (int64_t i = 0; i < count; i++)
        s += creal(a[i]) * creal(a[i]) + cimag(a[i]) * cimag(a[i]);
    return sqrt(s);
}

/* ---- eigh ------------------------------------------------------------------- */

/* a (n x n, Hermitian, full) := diagonal, v := the rotations' product;
 * returns 0, or 1 when the sweeps did not converge. */
static int32_t jacobi_eigh(tsr__ref_lz *a, tsr__ref_lz *v, int64_t n)
{
    double u = DBL_EPSILON / 2, floor = u * u * frobenius(a, n * n);
    for (int64_t i = 0; i < n * n; i++)
        v[i] = i % (n + 1) == 0 ? 1.0 : 0.0;
    for (int sweep = 0; sweep < MAX_SWEEPS; sweep++) {
        int rotated = 0;
        for (int64_t p = 0; p < n; p++)
            for (int64_t q = p + 1; q < n; q++) {
                tsr__ref_lz apq = a[p * n + q];
                double g = hypot(creal(apq), cimag(apq));
                double app = creal(a[p * n + p]), aqq = creal(a[q * n + q]);
                if (!(g > n * u * sqrt(fabs(app) * fabs(aqq))) || g <= floor)
                    continue;
                rotated = 1;
                double c, s;
                schur2(app, aqq, g, &c, &s);
                tsr__ref_lz ce =
                    tsr__ref_lz_conj(tsr__ref_complex_make(creal(apq) / g, cimag(apq) / g));
                /* A := G^H A G: columns, then rows (as the conjugate of columns of A^H) */
                rotate_columns(a, n, n, p, q, c, s, ce);
                for (int64_t j = 0; j < n; j++) {
                    tsr__ref_lz bp = a[p * n + j], bq = a[q * n + j];
                    tsr__ref_lz cce = tsr__ref_lz_conj(ce);
                    a[p * n + j] = tsr__ref_lz_sub(c * bp, tsr__ref_lz_mul(bq, s * cce));
                    a[q * n + j] = s * bp + tsr__ref_lz_mul(bq, c * cce);
                }
                a[p * n + q] = a[q * n + p] = 0.0;
                a[p * n + p] = creal(a[p * n + p]);
                a[q * n + q] = creal(a[q * n + q]);
                rotate_columns(v, n, n, p, q, c, s, ce);
            }
        if (!rotated)
            return 0;
    }
    return 1;
}

/* Orders values ascending (descending) and the columns of x (rows x n) with them. */
static void sort_pairs(double *w, tsr__ref_lz *x, int64_t rows, int64_t n, int descending)
{
    for (int64_t i = 1; i < n; i++)
        for (int64_t j = i; j > 0 && (descending ? w[j] > w[j - 1] : w[j] < w[j - 1]); j--) {
            double t = w[j];
            w[j] = w[j - 1];
            w[j - 1] = t;
            for (int64_t r = 0; x && r < rows; r++) {
                tsr__ref_lz z = x[r * n + j];
                x[r * n + j] = x[r * n + j - 1];
                x[r * n + j - 1] = z;
            }
        }
}

static int matrix_finite(const tsr__ref_lz *a, int64_t count)
{
    for (int64_t i = 0; i < count; i++)
        if (!isfinite(creal(a[i])) || !isfinite(cimag(a[i])))
            return 0;
    return 1;
}

int tsr__ref_kernel_linalg_eigh(void *backend, const tsr_kernel_args *args)
{
    static const int32_t dims[] = {2, 3, 2, 0};
    tsr__ref_linalg_operand ops[4];
    int64_t batch;
    int st = tsr__ref_linalg_prepare(backend, args, 1, 3, dims, ops, &batch);
    if (st != TSR_OK)
        return st;
    int64_t n = ops[0].rows;
    if (ops[0].cols != n || ops[1].rows != n || ops[2].rows != n || ops[2].cols != n)
        return tsr__ref_error(backend, TSR_ERR_SHAPE, "linalg_eigh: needs w [n] and v [n, n]");
    int upper = (tsr__ref_linalg_flags(args) & TSR_LINALG_UPPER) != 0;
    tsr__ref_lz *a = malloc((size_t)(3 * n * n + n + 1) * sizeof *a);
    if (a == NULL)
        return tsr__ref_error(backend, TSR_ERR_OUT_OF_MEMORY, "linalg_eigh: no scratch");
    tsr__ref_lz *h = a + n * n, *v = h + n * n, *wz = v + n * n;
    double *w = (double *)(void *)wz; /* n doubles fit in n complex slots */
    for (int64_t b = 0; b < batch; b++) {
        tsr__ref_linalg_gather(&ops[0], b, a);
        for (int64_t i = 0; i < n; i++)
            for (int64_t j = 0; j < n; j++) {
                int read = upper ? i <= j : i >= j;
                tsr__ref_lz x = read ? a[i * n + j] : tsr__ref_lz_conj(a[j * n + i]);
                h[i * n + j] = i == j ? creal(x) : x;
            }
        int32_t info = 0;
        if (!matrix_finite(h, n * n)) {
            for (int64_t i = 0; i < n * n; i++)
                v[i] = NAN;
            for (int64_t i = 0; i < n; i++)
                w[i] = NAN;
        } else {
            int shift = tsr__ref_linalg_normalise(h, n * n);
            info = jacobi_eigh(h, v, n);
            for (int64_t i = 0; i < n; i++)
                w[i] = scalbn(creal(h[i * n + i]), -shift);
            sort_pairs(w, v, n, n, 0);
        }
        for (int64_t i = 0; i < n; i++)
            h[i] = w[i];
        tsr__ref_linalg_scatter(&ops[1], b, h);
        tsr__ref_linalg_scatter(&ops[2], b, v);
        tsr__ref_linalg_store_int(&ops[3], b, &info);
    }
    free(a);
    return TSR_OK;
}

/* ---- svd -------------------------------------------------------------------------- */

/* One-sided Jacobi on the columns of x (m x n, m >= n): x := U S, v := V. */
static int32_t jacobi_svd(tsr__ref_lz *x, tsr__ref_lz *v, int64_t m, int64_t n)
{
    double u = DBL_EPSILON / 2, norm = frobenius(x, m * n), floor = u * u * norm * norm;
    for (int64_t i = 0; i < n * n; i++)
        v[i] = i % (n + 1) == 0 ? 1.0 : 0.0;
    for (int sweep = 0; sweep < MAX_SWEEPS; sweep++) {
        int rotated = 0;
        for (int64_t p = 0; p < n; p++)
            for (int64_t q = p + 1; q < n; q++) {
                double alpha = 0, beta = 0;
                tsr__ref_lz gamma = 0;
                for (int64_t i = 0; i < m; i++) {
                    tsr__ref_lz xp = x[i * n + p], xq = x[i * n + q];
                    alpha += creal(xp) * creal(xp) + cimag(xp) * cimag(xp);
                    beta += creal(xq) * creal(xq) + cimag(xq) * cimag(xq);
                    gamma += tsr__ref_lz_mul(tsr__ref_lz_conj(xp), xq);
                }
                double g = hypot(creal(gamma), cimag(gamma));
                if (!(g > m * u * sqrt(alpha * beta)) || g <= floor)
                    continue;
                rotated = 1;
                double c, s;
                schur2(alpha, beta, g, &c, &s);
                tsr__ref_lz ce =
                    tsr__ref_lz_conj(tsr__ref_complex_make(creal(gamma) / g, cimag(gamma) / g));
                rotate_columns(x, m, n, p, q, c, s, ce);
                rotate_columns(v, n, n, p, q, c, s, ce);
            }
        if (!rotated)
            return 0;
    }
    return 1;
}

/* Replaces the columns of q (m x cols) from `from` on by unit vectors
 * orthogonal to every column before them (Gram-Schmidt, twice, on the unit
 * vector e_i least represented so far). */
static void complete_basis(tsr__ref_lz *q, int64_t m, int64_t cols, int64_t from)
{
    for (int64_t c = from; c < cols; c++) {
        double best = -1;
        tsr__ref_lz *col = malloc((size_t)m * sizeof *col),
                    *cand = malloc((size_t)m * sizeof *cand);
        for (int64_t e = 0; e < m && col && cand; e++) {
            for (int64_t i = 0; i < m; i++)
                cand[i] = i == e ? 1.0 : 0.0;
            for (int pass = 0; pass < 2; pass++)
                for (int64_t k = 0; k < c; k++) {
                    tsr__ref_lz dot = 0;
                    for (int64_t i = 0; i < m; i++)
                        dot += tsr__ref_lz_mul(tsr__ref_lz_conj(q[i * cols + k]), cand[i]);
                    for (int64_t i = 0; i < m; i++)
                        cand[i] = tsr__ref_lz_sub(cand[i], tsr__ref_lz_mul(q[i * cols + k], dot));
                }
            double norm = 0;
            for (int64_t i = 0; i < m; i++)
                norm += creal(cand[i]) * creal(cand[i]) + cimag(cand[i]) * cimag(cand[i]);
            if (norm > best) {
                best = norm;
                memcpy(col, cand, (size_t)m * sizeof *col);
            }
        }
        double scale = best > 0 ? 1.0 / sqrt(best) : 0.0;
        for (int64_t i = 0; col && i < m; i++)
            q[i * cols + c] = scale * col[i];
        free(col);
        free(cand);
    }
}

/* a (rows x cols) := a^H into t (cols x rows). */
static void adjoint(const tsr__ref_lz *a, int64_t rows, int64_t cols, tsr__ref_lz *t)
{
    for (int64_t i = 0; i < rows; i++)
        for (int64_t j = 0; j < cols; j++)
            t[j * rows + i] = tsr__ref_lz_conj(a[i * cols + j]);
}

int tsr__ref_kernel_linalg_svd(void *backend, const tsr_kernel_args *args)
{
    static const int32_t dims[] = {2, 3, 2, 2, 0};
    tsr__ref_linalg_operand ops[5];
    int64_t batch;
    int st = tsr__ref_linalg_prepare(backend, args, 1, 4, dims, ops, &batch);
    if (st != TSR_OK)
        return st;
    int64_t m = ops[0].rows, n = ops[0].cols, k = m < n ? m : n;
    int64_t uc = ops[2].cols, vr = ops[3].rows;
    if (ops[1].rows != k || ops[2].rows != m || (uc != k && uc != m) || ops[3].cols != n ||
        (vr != k && vr != n))
        return tsr__ref_error(backend, TSR_ERR_SHAPE,
                              "linalg_svd: needs s [k], u [m, k or m] and vh [k or n, n]");
    /* work on a tall matrix: A itself, or A^H when m < n */
    int wide = m < n;
    int64_t tm = wide ? n : m, tn = k, tfull = wide ? vr : uc;
    size_t total = (size_t)(m * n + tm * (tm > tn ? tm : tn) + tn * tn +
                            2 * (m > n ? m : n) * (m > n ? m : n) + k + 8);
    tsr__ref_lz *a = malloc(total * sizeof *a);
    if (a == NULL)
        return tsr__ref_error(backend, TSR_ERR_OUT_OF_MEMORY, "linalg_svd: no scratch");
    tsr__ref_lz *x = a + m * n, *v = x + tm * (tm > tn ? tm : tn), *uo = v + tn * tn;
    tsr__ref_lz *vo = uo + (m > n ? m : n) * (m > n ? m : n),
                *sz = vo + (m > n ? m : n) * (m > n ? m : n);
    double *s = (double *)(void *)sz;
    for (int64_t b = 0; b < batch; b++) {
        tsr__ref_linalg_gather(&ops[0], b, a);
        int32_t info = 0;
        int finite = matrix_finite(a, m * n);
        int shift = tsr__ref_linalg_normalise(a, m * n);
        if (wide)
            adjoint(a, m, n, x);
        else
            memcpy(x, a, (size_t)(m * n) * sizeof *x);
        /* x is tm x tn; grow it to tm x tfull columns for the completed basis */
        info = finite ? jacobi_svd(x, v, tm, tn) : 0;
        for (int64_t j = 0; j < tn; j++) {
            double norm = 0;
            for (int64_t i = 0; i < tm; i++)
                norm += creal(x[i * tn + j]) * creal(x[i * tn + j]) +
                        cimag(x[i * tn + j]) * cimag(x[i * tn + j]);
            s[j] = sqrt(norm);
        }
        /* sort descending, carrying x's and v's columns */
        for (int64_t i = 1; i < tn; i++)
            for (int64_t j = i; j > 0 && s[j] > s[j - 1]; j--) {
                double t = s[j];
                s[j] = s[j - 1];
                s[j - 1] = t;
                for (int64_t r = 0; r < tm; r++) {
                    tsr__ref_lz z = x[r * tn + j];
                    x[r * tn + j] = x[r * tn + j - 1];
                    x[r * tn + j - 1] = z;
                }
                for (int64_t r = 0; r < tn; r++) {
                    tsr__ref_lz z = v[r * tn + j];
                    v[r * tn + j] = v[r * tn + j - 1];
                    v[r * tn + j - 1] = z;
                }
            }
        /* the tall side's basis: x's columns normalised, completed past rank */
        int64_t valid = 0;
        double cut = s[0] * tm * DBL_EPSILON;
        for (int64_t j = 0; j < tn; j++)
            if (s[j] > cut && s[j] > 0)
                valid = j + 1;
        for (int64_t i = 0; i < tm; i++)
            for (int64_t j = 0; j < tfull; j++)
                uo[i * tfull + j] = j < valid ? tsr__ref_lz_div(x[i * tn + j], s[j]) : 0.0;
        complete_basis(uo, tm, tfull, valid);
        for (int64_t j = 0; j < tn; j++)
            s[j] = scalbn(s[j], -shift);
        if (!finite) {
            for (int64_t i = 0; i < tm * tfull; i++)
                uo[i] = NAN;
            for (int64_t i = 0; i < tn * tn; i++)
                v[i] = NAN;
            for (int64_t j = 0; j < tn; j++)
                s[j] = NAN;
        }
        tsr__ref_lz *sv = malloc((size_t)(k + 1) * sizeof *sv);
        if (sv == NULL) {
            free(a);
            return tsr__ref_error(backend, TSR_ERR_OUT_OF_MEMORY, "linalg_svd: no scratch");
        }
        for (int64_t j = 0; j < k; j++)
            sv[j] = s[j];
        tsr__ref_linalg_scatter(&ops[1], b, sv);
        free(sv);
        if (!wide) {
            /* A = U S V^H: u = uo (m x uc), vh = V^H (n x n = vr x n) */
            tsr__ref_linalg_scatter(&ops[2], b, uo);
            adjoint(v, tn, tn, vo);
            tsr__ref_linalg_scatter(&ops[3], b, vo);
        } else {
            /* A^H = U' S V'^H: A = V' S U'^H, so u = V' (m x m) and vh = U'^H */
            tsr__ref_linalg_scatter(&ops[2], b, v);
            adjoint(uo, tm, tfull, vo);
            tsr__ref_linalg_scatter(&ops[3], b, vo);
        }
        tsr__ref_linalg_store_int(&ops[4], b, &info);
    }
    free(a);
    return TSR_OK;
}
