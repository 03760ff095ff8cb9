/* The generic set: simd_loops.inc's vocabulary for vectors of one element
 * (plain C the compiler may vectorise for the baseline target, and SLEEF's
 * scalar functions), then the loops themselves. Runs on any host, and
 * defines the results the other sets reproduce (bit for bit for arithmetic
 * and sums). */
#include <math.h>
#include <stddef.h>

#include <sleef.h>

#include "cpu_simd.h"

#define ALWAYS_INLINE static inline __attribute__((always_inline))

typedef float vf;
typedef double vd;
#define VF_N 1
#define VD_N 1

/* The lane-wise vocabulary, the same for both types but for the suffix. A
 * partial vector of one element has no elements, so the *_part functions
 * are never reached; they stay correct all the same. */
#define VOCAB(v, t, fma_, sqrt_)                                                                   \
    ALWAYS_INLINE v v##_load(const t *p)                                                           \
    {                                                                                              \
        return *p;                                                                                 \
    }                                                                                              \
    ALWAYS_INLINE void v##_store(t *p, v a)                                                        \
    {                                                                                              \
        *p = a;                                                                                    \
    }                                                                                              \
    ALWAYS_INLINE v v##_load_part(const t *p, int64_t c)                                           \
    {                                                                                              \
        return c > 0 ? *p : (t)0;                                                                  \
    }                                                                                              \
    ALWAYS_INLINE void v##_store_part(t *p, int64_t c, v a)                                        \
    {                                                                                              \
        if (c > 0) {                                                                               \
            *p = a;                                                                                \
        }                                                                                          \
    }                                                                                              \
    ALWAYS_INLINE v v##_keep(v a, int64_t c)                                                       \
    {                                                                                              \
        return c > 0 ? a : (t)0;                                                                   \
    }                                                                                              \
    ALWAYS_INLINE v v##_set1(t a)                                                                  \
    {                                                                                              \
        return a;                                                                                  \
    }                                                                                              \
    ALWAYS_INLINE v v##_add(v a, v b)                                                              \
    {                                                                                              \
        return a + b;                                                                              \
    }                                                                                              \
    ALWAYS_INLINE v v##_sub(v a, v b)                                                              \
    {                                                                                              \
        return a - b;                                                                              \
    }                                                                                              \
    ALWAYS_INLINE v v##_mul(v a, v b)                                                              \
    {                                                                                              \
        return a * b;                                                                              \
    }                                                                                              \
    ALWAYS_INLINE v v##_div(v a, v b)                                                              \
    {                                                                                              \
        return a / b;                                                                              \
    }                                                                                              \
    ALWAYS_INLINE v v##_fma(v a, v b, v c)                                                         \
    {                                                                                              \
        return fma_(a, b, c);                                                                      \
    }                                                                                              \
    ALWAYS_INLINE v v##_sqrt(v a)                                                                  \
    {                                                                                              \
        return sqrt_(a);                                                                           \
    }                                                                                              \
    ALWAYS_INLINE v v##_neg(v a)                                                                   \
    {                                                                                              \
        return -a;                                                                                 \
    }
VOCAB(vf, float, fmaf, sqrtf)
VOCAB(vd, double, fma, sqrt)
#undef VOCAB

/* SLEEF, 1 ulp (erfc 1.5). */
#define SLEEF(v, name, fn)                                                                         \
    ALWAYS_INLINE v v##_##name(v a)                                                                \
    {                                                                                              \
        return fn(a);                                                                              \
    }
SLEEF(vf, exp, Sleef_expf_u10)
SLEEF(vf, log, Sleef_logf_u10)
SLEEF(vf, tanh, Sleef_tanhf_u10)
SLEEF(vf, erf, Sleef_erff_u10)
SLEEF(vf, erfc, Sleef_erfcf_u15)
SLEEF(vf, sin, Sleef_sinf_u10)
SLEEF(vf, cos, Sleef_cosf_u10)
SLEEF(vf, expm1, Sleef_expm1f_u10)
SLEEF(vf, log1p, Sleef_log1pf_u10)
SLEEF(vd, exp, Sleef_exp_u10)
SLEEF(vd, log, Sleef_log_u10)
SLEEF(vd, tanh, Sleef_tanh_u10)
SLEEF(vd, erf, Sleef_erf_u10)
SLEEF(vd, erfc, Sleef_erfc_u15)
SLEEF(vd, sin, Sleef_sin_u10)
SLEEF(vd, cos, Sleef_cos_u10)
SLEEF(vd, expm1, Sleef_expm1_u10)
SLEEF(vd, log1p, Sleef_log1p_u10)
#undef SLEEF

ALWAYS_INLINE void vf_widen(vf v, vd *out)
{
    out[0] = (double)v;
}

ALWAYS_INLINE vd vd_load_f32(const float *p)
{
    return (double)*p;
}

ALWAYS_INLINE vd vd_load_f32_part(const float *p, int64_t c)
{
    return c > 0 ? (double)*p : 0.0;
}

ALWAYS_INLINE void vd_store_f32(float *p, vd v)
{
    *p = (float)v;
}

ALWAYS_INLINE void vd_store_f32_part(float *p, int64_t c, vd v)
{
    if (c > 0) {
        *p = (float)v;
    }
}

/* Lane i takes lane i + w for w = 8, 4, 2, 1. */
ALWAYS_INLINE double lanes_fold(const vd *lanes)
{
    double l[TSR__CPU_SUM_LANES];
    for (int i = 0; i < TSR__CPU_SUM_LANES; i++) {
        l[i] = lanes[i];
    }
    for (int w = TSR__CPU_SUM_LANES / 2; w >= 1; w /= 2) {
        for (int i = 0; i < w; i++) {
            l[i] = l[i] + l[i + w];
        }
    }
    return l[0];
}

static float row_max_f32(const float *x, int64_t n)
{
    return tsr__cpu_max_f32(x, n, -INFINITY);
}

static double row_max_f64(const double *x, int64_t n)
{
    return tsr__cpu_max_f64(x, n, -INFINITY);
}

ALWAYS_INLINE void prefetch_line(const void *p)
{
    (void)p;
}

#define SIMD_SET_NAME "generic"
#include "simd_loops.inc"

const tsr__cpu_simd *tsr__cpu_simd_generic(void)
{
    return &simd_set;
}
