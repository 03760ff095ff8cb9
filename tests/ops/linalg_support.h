/* What the linalg bound tests share (test_linalg.c, test_linalg_spectral.c):
 * the seeds' gamma and eps, tensors from complex values and back as long
 * double, and the hard inputs (ill-conditioned, graded, rank-deficient,
 * subnormal, huge). Residuals are computed on the host in long double, so
 * the tests' own arithmetic neither underflows nor overflows where the
 * library's must not. */
#ifndef TSR_TESTS_OPS_LINALG_SUPPORT_H
#define TSR_TESTS_OPS_LINALG_SUPPORT_H

#include "check_values.h"

#include <complex.h>
#include <float.h>
#include <math.h>
#include <string.h>

typedef long double complex lc;

/* ---- host helpers ---------------------------------------------------------- */

static inline double unit_roundoff(tsr_dtype d)
{
    return d == TSR_FLOAT32 || d == TSR_COMPLEX64 ? ldexp(1.0, -24) : ldexp(1.0, -53);
}

static inline double least_subnormal(tsr_dtype d)
{
    return d == TSR_FLOAT32 || d == TSR_COMPLEX64 ? ldexp(1.0, -149) : ldexp(1.0, -1074);
}

static inline bool is_complex(tsr_dtype d)
{
    return d == TSR_COMPLEX64 || d == TSR_COMPLEX128;
}

/* gamma(k) and eps(k) of the seeds, k doubled on complex dtypes. */
static inline double gamma_k(tsr_dtype d, double k)
{
    double u = unit_roundoff(d), kk = is_complex(d) ? 2 * k : k;
    return kk * u / (1 - kk * u);
}

static inline double eps_k(tsr_dtype d, double k)
{
    return (is_complex(d) ? 2 * k : k) * least_subnormal(d);
}

/* A tensor of dtype d from n complex values (imaginary parts dropped for real d). */
static inline tsr_tensor *make(const double complex *v, int ndim, const int64_t *shape, tsr_dtype d)
{
    int64_t n = 1;
    for (int i = 0; i < ndim; i++)
        n *= shape[i];
    tsr_tensor *raw = NULL, *t = NULL;
    CHECK_OK(tsr_from_host(v, (size_t)n * sizeof *v, ndim, shape, TSR_COMPLEX128, NULL, &raw));
    if (is_complex(d)) {
        CHECK_OK(tsr_to_dtype(raw, d, &t));
    } else {
        double *re = malloc((size_t)n * sizeof *re);
        for (int64_t i = 0; i < n; i++)
            re[i] = creal(v[i]);
        t = from_doubles(re, ndim, shape, d);
        free(re);
    }
    tsr_tensor_release(raw);
    return t;
}

/* Any float or complex tensor's values as long double complex (malloc'd). */
static inline lc *host(const tsr_tensor *t)
{
    int64_t n = tsr_tensor_numel(t);
    double complex *z = malloc((size_t)(n > 0 ? n : 1) * sizeof *z);
    lc *out = malloc((size_t)(n > 0 ? n : 1) * sizeof *out);
    tsr_tensor *c = NULL;
    CHECK_OK(tsr_to_dtype(t, TSR_COMPLEX128, &c));
    CHECK_OK(tsr_to_host(c, z, (size_t)n * sizeof *z));
    for (int64_t i = 0; i < n; i++)
        out[i] = z[i];
    tsr_tensor_release(c);
    free(z);
    return out;
}

static inline int32_t *host_int32(const tsr_tensor *t)
{
    int64_t n = tsr_tensor_numel(t);
    int32_t *v = malloc((size_t)(n > 0 ? n : 1) * sizeof *v);
    CHECK_OK(tsr_to_host(t, v, (size_t)n * sizeof *v));
    return v;
}

static inline void release_all(tsr_tensor **ts, size_t n)
{
    for (size_t i = 0; i < n; i++)
        tsr_tensor_release(ts[i]);
}

static inline bool on_reference(void)
{
    tsr_backend *b = NULL;
    return tsr_backend_get(NULL, &b) == TSR_OK && strcmp(tsr_backend_name(b), "reference") == 0;
}

/* ---- the hard inputs --------------------------------------------------------- */

enum { N_MAX = 24 };

typedef enum hard_kind { RANDOM, HILBERT, GRADED, RANK_DEFICIENT, TINY, HUGE_ } hard_kind;
static const char *const KIND_NAMES[] = {"random",         "hilbert",        "graded",
                                         "rank_deficient", "tiny_subnormal", "huge"};

static inline double wave(int i, int salt)
{
    return sin(0.37 * i + 1.3 * salt) + 0.5 * cos(1.1 * i * i + salt);
}

/* An n x n matrix of the kind: general (for LU and triangles) or, with
 * `hermitian`, Hermitian positive-definite (semidefinite for rank_deficient,
 * lifted by a tiny multiple of I so it stays definite). */
static inline void hard_matrix(hard_kind kind, int n, bool hermitian, bool cplx, tsr_dtype d,
                               double complex *a)
{
    double complex m[N_MAX * N_MAX];
    int rank = kind == RANK_DEFICIENT ? 2 : n;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            if (kind == HILBERT) {
                m[i * n + j] = 1.0 / (i + j + 1);
                continue;
            }
            double complex v = 0;
            for (int r = 0; r < rank; r++)
                v += (wave(i * 7 + r, 1) + (cplx ? I * wave(i + 3 * r, 2) : 0)) *
                     (kind == RANK_DEFICIENT ? wave(j * 5 + r, 3) : (r == j));
            m[i * n + j] = kind == RANK_DEFICIENT
                               ? v
                               : wave(i * n + j, 4) + (cplx ? I * wave(i * n + j, 5) : 0);
        }
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double complex v = 0;
            if (hermitian && kind != HILBERT) {
                for (int k = 0; k < n; k++)
                    v += m[i * n + k] * conj(m[j * n + k]);
                if (i == j) /* rank-deficient: lifted just enough to stay definite */
                    v += kind == RANK_DEFICIENT ? 64 * n * unit_roundoff(d) : n;
            } else {
                v = m[i * n + j];
            }
            a[i * n + j] = v;
        }
    double tiny = d == TSR_FLOAT32 || d == TSR_COMPLEX64 ? ldexp(1.0, -140) : ldexp(1.0, -1060);
    double huge = d == TSR_FLOAT32 || d == TSR_COMPLEX64 ? ldexp(1.0, 120) : ldexp(1.0, 1000);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double scale = kind == GRADED  ? pow(10.0, -(i + j) * 0.5)
                           : kind == TINY  ? tiny
                           : kind == HUGE_ ? huge
                                           : 1.0;
            a[i * n + j] *= scale;
        }
}

static const tsr_dtype DTYPES[] = {TSR_FLOAT32, TSR_FLOAT64, TSR_COMPLEX64, TSR_COMPLEX128};

#endif
