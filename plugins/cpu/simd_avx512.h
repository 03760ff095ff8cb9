/* The AVX-512 vector vocabulary of simd_loops.inc (F, DQ, BW, VL; 16 floats,
 * 8 doubles, partial vectors as masked loads and stores), shared by
 * simd_avx512.c and loss_cross_entropy_avx512.c. Include only from files
 * compiled with those flags: everything here is static inline, so no
 * AVX-512 code can be picked by the linker for another caller. */
#ifndef TSR_CPU_SIMD_AVX512_H
#define TSR_CPU_SIMD_AVX512_H

#include <immintrin.h>
#include <math.h>
#include <stdint.h>

#include <sleef.h>

#define ALWAYS_INLINE static inline __attribute__((always_inline))

typedef __m512 vf;
typedef __m512d vd;
#define VF_N 16
#define VD_N 8

ALWAYS_INLINE __mmask16 mask_vf(int64_t n)
{
    return (__mmask16)((1u << n) - 1u);
}

ALWAYS_INLINE __mmask8 mask_vd(int64_t n)
{
    return (__mmask8)((1u << n) - 1u);
}

/* The lane-wise vocabulary, the same for both types but for the suffix. */
#define VOCAB(v, t, ps)                                                                            \
    ALWAYS_INLINE v v##_load(const t *p)                                                           \
    {                                                                                              \
        return _mm512_loadu_##ps(p);                                                               \
    }                                                                                              \
    ALWAYS_INLINE void v##_store(t *p, v a)                                                        \
    {                                                                                              \
        _mm512_storeu_##ps(p, a);                                                                  \
    }                                                                                              \
    ALWAYS_INLINE v v##_load_part(const t *p, int64_t c)                                           \
    {                                                                                              \
        return _mm512_maskz_loadu_##ps(mask_##v(c), p);                                            \
    }                                                                                              \
    ALWAYS_INLINE void v##_store_part(t *p, int64_t c, v a)                                        \
    {                                                                                              \
        _mm512_mask_storeu_##ps(p, mask_##v(c), a);                                                \
    }                                                                                              \
    ALWAYS_INLINE v v##_keep(v a, int64_t c)                                                       \
    {                                                                                              \
        return _mm512_maskz_mov_##ps(mask_##v(c), a);                                              \
    }                                                                                              \
    ALWAYS_INLINE v v##_set1(t a)                                                                  \
    {                                                                                              \
        return _mm512_set1_##ps(a);                                                                \
    }                                                                                              \
    ALWAYS_INLINE v v##_add(v a, v b)                                                              \
    {                                                                                              \
        return _mm512_add_##ps(a, b);                                                              \
    }                                                                                              \
    ALWAYS_INLINE v v##_sub(v a, v b)                                                              \
    {                                                                                              \
        return _mm512_sub_##ps(a, b);                                                              \
    }                                                                                              \
    ALWAYS_INLINE v v##_mul(v a, v b)                                                              \
    {                                                                                              \
        return _mm512_mul_##ps(a, b);                                                              \
    }                                                                                              \
    ALWAYS_INLINE v v##_div(v a, v b)                                                              \
    {                                                                                              \
        return _mm512_div_##ps(a, b);                                                              \
    }                                                                                              \
    ALWAYS_INLINE v v##_fma(v a, v b, v c)                                                         \
    {                                                                                              \
        return _mm512_fmadd_##ps(a, b, c);                                                         \
    }                                                                                              \
    ALWAYS_INLINE v v##_sqrt(v a)                                                                  \
    {                                                                                              \
        return _mm512_sqrt_##ps(a);                                                                \
    }                                                                                              \
    ALWAYS_INLINE v v##_neg(v a)                                                                   \
    {                                                                                              \
        return _mm512_xor_##ps(a, _mm512_set1_##ps((t)-0.0));                                      \
    }
VOCAB(vf, float, ps)
VOCAB(vd, double, pd)
#undef VOCAB

/* SLEEF, 1 ulp (erfc 1.5). */
#define SLEEF(v, name, fn)                                                                         \
    ALWAYS_INLINE v v##_##name(v a)                                                                \
    {                                                                                              \
        return fn(a);                                                                              \
    }
SLEEF(vf, exp, Sleef_expf16_u10avx512f)
SLEEF(vf, log, Sleef_logf16_u10avx512f)
SLEEF(vf, tanh, Sleef_tanhf16_u10avx512f)
SLEEF(vf, erf, Sleef_erff16_u10avx512f)
SLEEF(vf, erfc, Sleef_erfcf16_u15avx512f)
SLEEF(vf, sin, Sleef_sinf16_u10avx512f)
SLEEF(vf, cos, Sleef_cosf16_u10avx512f)
SLEEF(vf, expm1, Sleef_expm1f16_u10avx512f)
SLEEF(vf, log1p, Sleef_log1pf16_u10avx512f)
SLEEF(vd, exp, Sleef_expd8_u10avx512f)
SLEEF(vd, log, Sleef_logd8_u10avx512f)
SLEEF(vd, tanh, Sleef_tanhd8_u10avx512f)
SLEEF(vd, erf, Sleef_erfd8_u10avx512f)
SLEEF(vd, erfc, Sleef_erfcd8_u15avx512f)
SLEEF(vd, sin, Sleef_sind8_u10avx512f)
SLEEF(vd, cos, Sleef_cosd8_u10avx512f)
SLEEF(vd, expm1, Sleef_expm1d8_u10avx512f)
SLEEF(vd, log1p, Sleef_log1pd8_u10avx512f)
#undef SLEEF

/* Floats 0-7 of v, then 8-15, as doubles. */
ALWAYS_INLINE void vf_widen(vf v, vd *out)
{
    out[0] = _mm512_cvtps_pd(_mm512_castps512_ps256(v));
    out[1] = _mm512_cvtps_pd(_mm512_extractf32x8_ps(v, 1));
}

ALWAYS_INLINE vd vd_load_f32(const float *p)
{
    return _mm512_cvtps_pd(_mm256_loadu_ps(p));
}

ALWAYS_INLINE vd vd_load_f32_part(const float *p, int64_t c)
{
    return _mm512_cvtps_pd(_mm256_maskz_loadu_ps(mask_vd(c), p));
}

ALWAYS_INLINE void vd_store_f32(float *p, vd v)
{
    _mm256_storeu_ps(p, _mm512_cvtpd_ps(v));
}

ALWAYS_INLINE void vd_store_f32_part(float *p, int64_t c, vd v)
{
    _mm256_mask_storeu_ps(p, mask_vd(c), _mm512_cvtpd_ps(v));
}

/* lanes[0] holds lanes 0-7, lanes[1] 8-15; lane i takes lane i + 8, then
 * + 4, + 2, + 1. */
ALWAYS_INLINE double lanes_fold(const vd *lanes)
{
    __m512d s = _mm512_add_pd(lanes[0], lanes[1]);
    __m256d t = _mm256_add_pd(_mm512_castpd512_pd256(s), _mm512_extractf64x4_pd(s, 1));
    __m128d u = _mm_add_pd(_mm256_castpd256_pd128(t), _mm256_extractf128_pd(t, 1));
    return _mm_cvtsd_f64(u) + _mm_cvtsd_f64(_mm_unpackhi_pd(u, u));
}

/* NaN handling is the instruction's; a row holding NaN sums to NaN anyway. */
static inline float row_max_f32(const float *x, int64_t n)
{
    const __m512 minus_inf = _mm512_set1_ps(-INFINITY);
    __m512 vmax = minus_inf;
    for (int64_t i = 0; i < n; i += 16) {
        __mmask16 m = n - i >= 16 ? (__mmask16)0xffff : mask_vf(n - i);
        vmax = _mm512_max_ps(vmax, _mm512_mask_loadu_ps(minus_inf, m, x + i));
    }
    return _mm512_reduce_max_ps(vmax);
}

static inline double row_max_f64(const double *x, int64_t n)
{
    const __m512d minus_inf = _mm512_set1_pd(-INFINITY);
    __m512d vmax = minus_inf;
    for (int64_t i = 0; i < n; i += 8) {
        __mmask8 m = n - i >= 8 ? (__mmask8)0xff : mask_vd(n - i);
        vmax = _mm512_max_pd(vmax, _mm512_mask_loadu_pd(minus_inf, m, x + i));
    }
    return _mm512_reduce_max_pd(vmax);
}

ALWAYS_INLINE void prefetch_line(const void *p)
{
    _mm_prefetch((const char *)p, _MM_HINT_T0);
}

#endif /* TSR_CPU_SIMD_AVX512_H */
