/* Shared pieces of the AVX2 + FMA set (simd_avx2.c, simd_avx2_rows.c).
 * Include only from files compiled with -mavx2 -mfma: everything here is
 * static inline, so no AVX2 code can be picked by the linker elsewhere. */
#ifndef TSR_CPU_SIMD_AVX2_H
#define TSR_CPU_SIMD_AVX2_H

#include <immintrin.h>
#include <stdint.h>

#include "cpu_simd.h"

#define ALWAYS_INLINE static inline __attribute__((always_inline))

/* 16 double lanes as four vectors: lanes 0-3, 4-7, 8-11, 12-15. */
typedef struct lanes16 {
    __m256d v[4];
} lanes16;

ALWAYS_INLINE lanes16 lanes_zero(void)
{
    lanes16 l = {
        {_mm256_setzero_pd(), _mm256_setzero_pd(), _mm256_setzero_pd(), _mm256_setzero_pd()}};
    return l;
}

/* Lane i takes lane i + 8, then + 4, + 2, + 1. */
ALWAYS_INLINE double lanes_fold(lanes16 l)
{
    __m256d a = _mm256_add_pd(l.v[0], l.v[2]); /* lanes 0-3 */
    __m256d b = _mm256_add_pd(l.v[1], l.v[3]); /* lanes 4-7 */
    __m256d t = _mm256_add_pd(a, b);
    __m128d u = _mm_add_pd(_mm256_castpd256_pd128(t), _mm256_extractf128_pd(t, 1));
    return _mm_cvtsd_f64(u) + _mm_cvtsd_f64(_mm_unpackhi_pd(u, u));
}

/* Adds 16 floats (lanes 0..15). */
ALWAYS_INLINE void lanes_add_ps(lanes16 *l, __m256 v0_7, __m256 v8_15)
{
    l->v[0] = _mm256_add_pd(l->v[0], _mm256_cvtps_pd(_mm256_castps256_ps128(v0_7)));
    l->v[1] = _mm256_add_pd(l->v[1], _mm256_cvtps_pd(_mm256_extractf128_ps(v0_7, 1)));
    l->v[2] = _mm256_add_pd(l->v[2], _mm256_cvtps_pd(_mm256_castps256_ps128(v8_15)));
    l->v[3] = _mm256_add_pd(l->v[3], _mm256_cvtps_pd(_mm256_extractf128_ps(v8_15, 1)));
}

/* Finishes a lane sum over terms [k, n) one by one (term i in lane i % 16),
 * then folds. `k` is a multiple of 16. */
static inline double lanes_finish_f32(lanes16 l, const float *x, int64_t k, int64_t n)
{
    double lanes[16];
    for (int j = 0; j < 4; j++) {
        _mm256_storeu_pd(lanes + 4 * j, l.v[j]);
    }
    for (; k < n; k++) {
        lanes[k % 16] += (double)x[k];
    }
    for (int j = 0; j < 4; j++) {
        l.v[j] = _mm256_loadu_pd(lanes + 4 * j);
    }
    return lanes_fold(l);
}

static inline double lanes_finish_f64(lanes16 l, const double *x, int64_t k, int64_t n)
{
    double lanes[16];
    for (int j = 0; j < 4; j++) {
        _mm256_storeu_pd(lanes + 4 * j, l.v[j]);
    }
    for (; k < n; k++) {
        lanes[k % 16] += x[k];
    }
    for (int j = 0; j < 4; j++) {
        l.v[j] = _mm256_loadu_pd(lanes + 4 * j);
    }
    return lanes_fold(l);
}

/* ------------------------------------------------------------------------ */
/* Row kernels (simd_avx2_rows.c)                                            */
/* ------------------------------------------------------------------------ */

void tsr__cpu_avx2_softmax_row_f32(float *out, const float *in, int64_t n, int log_form);
void tsr__cpu_avx2_softmax_row_f64(double *out, const double *in, int64_t n, int log_form);
double tsr__cpu_avx2_logsumexp_row_f32(const float *x, int64_t n);
double tsr__cpu_avx2_logsumexp_row_f64(const double *x, int64_t n);
void tsr__cpu_avx2_norm_row_f32(float *y, const float *x, int64_t n, const tsr__cpu_norm_row *p,
                                double *mean, double *rstd);
void tsr__cpu_avx2_norm_row_f64(double *y, const double *x, int64_t n, const tsr__cpu_norm_row *p,
                                double *mean, double *rstd);

#endif /* TSR_CPU_SIMD_AVX2_H */
