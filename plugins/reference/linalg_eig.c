/* The general eigendecomposition, the reference's plain-C eig kernel (see
 * linalg.h): Householder reduction to Hessenberg form, the complex
 * single-shift QR algorithm (Wilkinson shifts, an exceptional shift every
 * tenth step) to the Schur form T = Z^H A Z, eigenvectors of T by back
 * substitution, x = Z y scaled to unit norm with its largest element real
 * and positive. Real matrices are computed in complex arithmetic, so their
 * conjugate pairs are conjugate to rounding, not exactly. No balancing. */
#include <float.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "kernels.h"
#include "linalg.h"

static double mag(tsr__ref_lz z)
{
    return hypot(creal(z), cimag(z));
}

/* h := P h P, z := z P for the Householder P mapping column j below the
 * subdiagonal onto it. */
static void hessenberg(tsr__ref_lz *h, tsr__ref_lz *z, int64_t n, tsr__ref_lz *v)
{
    for (int64_t j = 0; j + 2 < n; j++) {
        double norm = 0;
        for (int64_t i = j + 1; i < n; i++)
            norm = hypot(norm, mag(h[i * n + j]));
        if (norm == 0)
            continue;
        tsr__ref_lz x0 = h[(j + 1) * n + j];
        tsr__ref_lz phase = mag(x0) > 0 ? x0 / mag(x0) : 1.0;
        double vv = 0;
        for (int64_t i = j + 1; i < n; i++) {
            v[i] = h[i * n + j] + (i == j + 1 ? phase * norm : 0.0);
            vv += creal(v[i]) * creal(v[i]) + cimag(v[i]) * cimag(v[i]);
        }
        double beta = 2.0 / vv;
        for (int64_t c = 0; c < n; c++) { /* rows j+1..n-1 of h: P h */
            tsr__ref_lz w = 0;
            for (int64_t i = j + 1; i < n; i++)
                w += conj(v[i]) * h[i * n + c];
            for (int64_t i = j + 1; i < n; i++)
                h[i * n + c] -= beta * v[i] * w;
        }
        for (int64_t r = 0; r < n; r++) { /* columns j+1..n-1 of h and z: (.) P */
            tsr__ref_lz wh = 0, wz = 0;
            for (int64_t i = j + 1; i < n; i++) {
                wh += h[r * n + i] * v[i];
                wz += z[r * n + i] * v[i];
            }
            for (int64_t i = j + 1; i < n; i++) {
                h[r * n + i] -= beta * wh * conj(v[i]);
                z[r * n + i] -= beta * wz * conj(v[i]);
            }
        }
        for (int64_t i = j + 2; i < n; i++)
            h[i * n + j] = 0;
    }
}

/* The eigenvalue of [[a, b], [c, d]] nearer d. */
static tsr__ref_lz wilkinson(tsr__ref_lz a, tsr__ref_lz b, tsr__ref_lz c, tsr__ref_lz d)
{
    tsr__ref_lz t = (a - d) / 2, root = csqrt(t * t + b * c);
    tsr__ref_lz m1 = d - b * c / (t + root), m2 = d - b * c / (t - root);
    if (!(mag(t + root) > 0))
        return d;
    if (!(mag(t - root) > 0))
        return m1;
    return mag(m1 - d) <= mag(m2 - d) ? m1 : m2;
}

/* Reduces the Hessenberg h to upper triangular T, accumulating z; returns
 * 0, or 1 when an eigenvalue did not converge. */
static int32_t schur(tsr__ref_lz *h, tsr__ref_lz *z, int64_t n, tsr__ref_lz *cs)
{
    int64_t hi = n - 1, steps = 0;
    while (hi > 0) {
        int64_t lo = hi;
        while (lo > 0) {
            double scale = mag(h[(lo - 1) * n + lo - 1]) + mag(h[lo * n + lo]);
            if (mag(h[lo * n + lo - 1]) <= DBL_EPSILON * (scale > 0 ? scale : DBL_MIN)) {
                h[lo * n + lo - 1] = 0;
                break;
            }
            lo--;
        }
        if (lo == hi) {
            hi--;
            steps = 0;
            continue;
        }
        if (++steps > 60)
            return 1;
        tsr__ref_lz mu = steps % 10 == 0 ? h[hi * n + hi] + 0.75 * mag(h[hi * n + hi - 1])
                                         : wilkinson(h[(hi - 1) * n + hi - 1], h[(hi - 1) * n + hi],
                                                     h[hi * n + hi - 1], h[hi * n + hi]);
        for (int64_t k = lo; k <= hi; k++)
            h[k * n + k] -= mu;
        /* rows: G_k^H on rows k, k+1 over columns k..n-1 */
        for (int64_t k = lo; k < hi; k++) {
            tsr__ref_lz x = h[k * n + k], y = h[(k + 1) * n + k];
            double r = hypot(mag(x), mag(y));
            tsr__ref_lz c = r > 0 ? x / r : 1.0, s = r > 0 ? y / r : 0.0;
            cs[2 * k] = c;
            cs[2 * k + 1] = s;
            for (int64_t j = k; j < n; j++) {
                tsr__ref_lz a = h[k * n + j], b = h[(k + 1) * n + j];
                h[k * n + j] = conj(c) * a + conj(s) * b;
                h[(k + 1) * n + j] = -s * a + c * b;
            }
        }
        /* columns: G_k on columns k, k+1 over rows 0..min(k+2, hi), and z */
        for (int64_t k = lo; k < hi; k++) {
            tsr__ref_lz c = cs[2 * k], s = cs[2 * k + 1];
            int64_t top = k + 2 < hi ? k + 2 : hi;
            for (int64_t i = 0; i <= top; i++) {
                tsr__ref_lz a = h[i * n + k], b = h[i * n + k + 1];
                h[i * n + k] = a * c + b * s;
                h[i * n + k + 1] = -a * conj(s) + b * conj(c);
            }
            for (int64_t i = 0; i < n; i++) {
                tsr__ref_lz a = z[i * n + k], b = z[i * n + k + 1];
                z[i * n + k] = a * c + b * s;
                z[i * n + k + 1] = -a * conj(s) + b * conj(c);
            }
        }
        for (int64_t k = lo; k <= hi; k++)
            h[k * n + k] += mu;
    }
    return 0;
}

/* Eigenvectors of the triangular t, mapped through z into x (columns). */
static void vectors(const tsr__ref_lz *t, const tsr__ref_lz *z, int64_t n, tsr__ref_lz *y,
                    tsr__ref_lz *x)
{
    double norm = 0;
    for (int64_t i = 0; i < n * n; i++)
        norm = fmax(norm, mag(t[i]));
    double tiny = DBL_EPSILON * (norm > 0 ? norm : 1.0);
    for (int64_t k = 0; k < n; k++) {
        tsr__ref_lz lambda = t[k * n + k];
        for (int64_t i = k + 1; i < n; i++)
            y[i] = 0;
        y[k] = 1;
        for (int64_t i = k - 1; i >= 0; i--) {
            tsr__ref_lz s = 0;
            for (int64_t j = i + 1; j <= k; j++)
                s += t[i * n + j] * y[j];
            tsr__ref_lz d = t[i * n + i] - lambda;
            if (mag(d) < tiny)
                d = tiny;
            y[i] = -s / d;
        }
        double len = 0, big = -1;
        int64_t at = 0;
        for (int64_t i = 0; i < n; i++) {
            tsr__ref_lz v = 0;
            for (int64_t j = 0; j <= k; j++)
                v += z[i * n + j] * y[j];
            x[i * n + k] = v;
            len = hypot(len, mag(v));
            if (mag(v) > big) {
                big = mag(v);
                at = i;
            }
        }
        tsr__ref_lz unit = big > 0 ? conj(x[at * n + k]) / big : 1.0;
        for (int64_t i = 0; i < n; i++)
            x[i * n + k] = len > 0 ? x[i * n + k] * unit / len : x[i * n + k];
        x[at * n + k] = tsr__ref_complex_make(creal(x[at * n + k]), 0.0);
    }
}

int tsr__ref_kernel_linalg_eig(void *backend, const tsr_kernel_args *args)
{
    static const int32_t dims[] = {2, 6, 5, 0};
    tsr__ref_linalg_operand ops[4];
    int64_t batch;
    int st = tsr__ref_linalg_prepare(backend, args, 1, 3, dims, ops, &batch);
    if (st != TSR_OK)
        return st;
    int64_t n = ops[0].rows;
    if (ops[0].cols != n || ops[1].rows != n || ops[2].rows != n || ops[2].cols != n)
        return tsr__ref_error(backend, TSR_ERR_SHAPE, "linalg_eig: needs w [n] and v [n, n]");
    tsr__ref_lz *h = malloc((size_t)(4 * n * n + 4 * n + 1) * sizeof *h);
    if (h == NULL)
        return tsr__ref_error(backend, TSR_ERR_OUT_OF_MEMORY, "linalg_eig: no scratch");
    tsr__ref_lz *z = h + n * n, *x = z + n * n, *work = x + n * n, *w = work + 2 * n + 2;
    for (int64_t b = 0; b < batch; b++) {
        tsr__ref_linalg_gather(&ops[0], b, h);
        int32_t info = 0;
        bool finite = true;
        for (int64_t i = 0; i < n * n; i++)
            finite = finite && isfinite(creal(h[i])) && isfinite(cimag(h[i]));
        int shift = finite ? tsr__ref_linalg_normalise(h, n * n) : 0;
        for (int64_t i = 0; i < n * n; i++)
            z[i] = i % (n + 1) == 0 ? 1.0 : 0.0;
        if (finite) {
            hessenberg(h, z, n, work);
            info = schur(h, z, n, work);
        }
        if (!finite || info != 0) {
            for (int64_t i = 0; i < n * n; i++)
                x[i] = tsr__ref_complex_make(NAN, NAN);
            for (int64_t i = 0; i < n; i++)
                w[i] = tsr__ref_complex_make(NAN, NAN);
        } else {
            vectors(h, z, n, work, x);
            for (int64_t i = 0; i < n; i++)
                w[i] = tsr__ref_linalg_scaled(h[i * n + i], -shift);
        }
        tsr__ref_linalg_scatter(&ops[1], b, w);
        tsr__ref_linalg_scatter(&ops[2], b, x);
        tsr__ref_linalg_store_int(&ops[3], b, &info);
    }
    free(h);
    return TSR_OK;
}
