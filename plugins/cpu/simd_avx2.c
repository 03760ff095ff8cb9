/* The AVX2 + FMA set: simd_loops.inc's vector vocabulary for 8 floats and
 * 4 doubles, then the loops themselves. Compiled with -mavx2 -mfma in this
 * file only, and called only when CPUID reports them. AVX2 has no masked
 * float stores, so partial vectors pass through a zeroed buffer. */
#include <immintrin.h>
#include <math.h>
#include <stddef.h>
#include <string.h>

#include <sleef.h>

#include "cpu_simd.h"

#define ALWAYS_INLINE static inline __attribute__((always_inline))

typedef __m256 vf;
typedef __m256d vd;
#define VF_N 8
#define VD_N 4

/* All bits set in lanes below c, none from c on. */
ALWAYS_INLINE __m256 mask_vf(int64_t c)
{
    __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    return _mm256_castsi256_ps(_mm256_cmpgt_epi32(_mm256_set1_epi32((int)c), lane));
}

ALWAYS_INLINE __m256d mask_vd(int64_t c)
{
    __m256i lane = _mm256_setr_epi64x(0, 1, 2, 3);
    return _mm256_castsi256_pd(_mm256_cmpgt_epi64(_mm256_set1_epi64x(c), lane));
}

/* The lane-wise vocabulary, the same for both types but for the suffix. */
#define VOCAB(v, t, ps, n)                                                                         \
    ALWAYS_INLINE v v##_load(const t *p)                                                           \
    {                                                                                              \
        return _mm256_loadu_##ps(p);                                                               \
    }                                                                                              \
    ALWAYS_INLINE void v##_store(t *p, v a)                                                        \
    {                                                                                              \
        _mm256_storeu_##ps(p, a);                                                                  \
    }                                                                                              \
    ALWAYS_INLINE v v##_load_part(const t *p, int64_t c)                                           \
    {                                                                                              \
        t buffer[n] = {0};                                                                         \
        memcpy(buffer, p, (size_t)c * sizeof(t));                                                  \
        return _mm256_loadu_##ps(buffer);                                                          \
    }                                                                                              \
    ALWAYS_INLINE void v##_store_part(t *p, int64_t c, v a)                                        \
    {                                                                                              \
        t buffer[n];                                                                               \
        _mm256_storeu_##ps(buffer, a);                                                             \
        memcpy(p, buffer, (size_t)c * sizeof(t));                                                  \
    }                                                                                              \
    ALWAYS_INLINE v v##_keep(v a, int64_t c)                                                       \
    {                                                                                              \
        return _mm256_and_##ps(a, mask_##v(c));                                                    \
    }                                                                                              \
    ALWAYS_INLINE v v##_set1(t a)                                                                  \
    {                                                                                              \
        return _mm256_set1_##ps(a);                                                                \
    }                                                                                              \
    ALWAYS_INLINE v v##_add(v a, v b)                                                              \
    {                                                                                              \
        return _mm256_add_##ps(a, b);                                                              \
    }                                                                                              \
    ALWAYS_INLINE v v##_sub(v a, v b)                                                              \
    {                                                                                              \
        return _mm256_sub_##ps(a, b);                                                              \
    }                                                                                              \
    ALWAYS_INLINE v v##_mul(v a, v b)                                                              \
    {                                                                                              \
        return _mm256_mul_##ps(a, b);                                                              \
    }                                                                                              \
    ALWAYS_INLINE v v##_div(v a, v b)                                                              \
    {                                                                                              \
        return _mm256_div_##ps(a, b);                                                              \
    }                                                                                              \
    ALWAYS_INLINE v v##_fma(v a, v b, v c)                                                         \
    {                                                                                              \
        return _mm256_fmadd_##ps(a, b, c);                                                         \
    }                                                                                              \
    ALWAYS_INLINE v v##_sqrt(v a)                                                                  \
    {                                                                                              \
        return _mm256_sqrt_##ps(a);                                                                \
    }                                                                                              \
    ALWAYS_INLINE v v##_neg(v a)                                                                   \
    {                                                                                              \
        return _mm256_xor_##ps(a, _mm256_set1_##ps((t)-0.0));                                      \
    }
VOCAB(vf, float, ps, 8)
VOCAB(vd, double, pd, 4)
#undef VOCAB

/* SLEEF, 1 ulp (erfc 1.5). */
#define SLEEF(v, name, fn)                                                                         \
    ALWAYS_INLINE v v##_##name(v a)                                                                \
    {                                                                                              \
        return fn(a);                                                                              \
    }
SLEEF(vf, exp, Sleef_expf8_u10avx2)
SLEEF(vf, log, Sleef_logf8_u10avx2)
SLEEF(vf, tanh, Sleef_tanhf8_u10avx2)
SLEEF(vf, erf, Sleef_erff8_u10avx2)
SLEEF(vf, erfc, Sleef_erfcf8_u15avx2)
SLEEF(vf, sin, Sleef_sinf8_u10avx2)
SLEEF(vf, cos, Sleef_cosf8_u10avx2)
SLEEF(vf, expm1, Sleef_expm1f8_u10avx2)
SLEEF(vf, log1p, Sleef_log1pf8_u10avx2)
SLEEF(vd, exp, Sleef_expd4_u10avx2)
SLEEF(vd, log, Sleef_logd4_u10avx2)
SLEEF(vd, tanh, Sleef_tanhd4_u10avx2)
SLEEF(vd, erf, Sleef_erfd4_u10avx2)
SLEEF(vd, erfc, Sleef_erfcd4_u15avx2)
SLEEF(vd, sin, Sleef_sind4_u10avx2)
SLEEF(vd, cos, Sleef_cosd4_u10avx2)
SLEEF(vd, expm1, Sleef_expm1d4_u10avx2)
SLEEF(vd, log1p, Sleef_log1pd4_u10avx2)
#undef SLEEF

/* Floats 0-3 of v, then 4-7, as doubles. */
ALWAYS_INLINE void vf_widen(vf v, vd *out)
{
    out[0] = _mm256_cvtps_pd(_mm256_castps256_ps128(v));
    out[1] = _mm256_cvtps_pd(_mm256_extractf128_ps(v, 1));
}

ALWAYS_INLINE vd vd_load_f32(const float *p)
{
    return _mm256_cvtps_pd(_mm_loadu_ps(p));
}

ALWAYS_INLINE vd vd_load_f32_part(const float *p, int64_t c)
{
    float buffer[4] = {0};
    memcpy(buffer, p, (size_t)c * sizeof(float));
    return vd_load_f32(buffer);
}

ALWAYS_INLINE void vd_store_f32(float *p, vd v)
{
    _mm_storeu_ps(p, _mm256_cvtpd_ps(v));
}

ALWAYS_INLINE void vd_store_f32_part(float *p, int64_t c, vd v)
{
    float buffer[4];
    vd_store_f32(buffer, v);
    memcpy(p, buffer, (size_t)c * sizeof(float));
}

/* lanes[j] holds lanes 4j .. 4j+3; lane i takes lane i + 8, then + 4, + 2,
 * + 1. */
ALWAYS_INLINE double lanes_fold(const vd *lanes)
{
    __m256d a = _mm256_add_pd(lanes[0], lanes[2]); /* lanes 0-3 */
    __m256d b = _mm256_add_pd(lanes[1], lanes[3]); /* lanes 4-7 */
    __m256d t = _mm256_add_pd(a, b);
    __m128d u = _mm_add_pd(_mm256_castpd256_pd128(t), _mm256_extractf128_pd(t, 1));
    return _mm_cvtsd_f64(u) + _mm_cvtsd_f64(_mm_unpackhi_pd(u, u));
}

/* The lanes' maximum, then the tail's; a row holding NaN sums to NaN
 * whatever the maximum. */
static float row_max_f32(const float *x, int64_t n)
{
    __m256 vmax = _mm256_set1_ps(-INFINITY);
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) {
        vmax = _mm256_max_ps(vmax, _mm256_loadu_ps(x + i));
    }
    float lanes[8];
    _mm256_storeu_ps(lanes, vmax);
    return tsr__cpu_max_f32(x + i, n - i, tsr__cpu_max_f32(lanes, 8, -INFINITY));
}

static double row_max_f64(const double *x, int64_t n)
{
    return tsr__cpu_max_f64(x, n, -INFINITY);
}

/* The set was measured without prefetching rows; it stays so. */
ALWAYS_INLINE void prefetch_line(const void *p)
{
    (void)p;
}

#define SIMD_SET_NAME "avx2"
#include "simd_loops.inc"

const tsr__cpu_simd *tsr__cpu_simd_avx2(void)
{
    return &simd_set;
}
