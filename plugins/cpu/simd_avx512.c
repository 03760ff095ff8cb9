/* The AVX-512 set (F, DQ, BW, VL), compiled with those flags in this file
 * only and called only when CPUID reports them. Tails use masked loads and
 * stores. Sums keep the generic set's lanes (term i of a block in lane
 * i % 16: the low half of a 16-float vector widens to lanes 0-7, the high
 * half to lanes 8-15) and fold them in its order, so the bits agree. */
#include <immintrin.h>
#include <math.h>
#include <stddef.h>

#include <sleef.h>

#include "cpu_simd.h"

#define ALWAYS_INLINE static inline __attribute__((always_inline))

static const float SQRT1_2F = 0.70710678118654752440f;
static const float SQRT_2_OVER_PI_F = 0.79788456080286535588f;
static const double SQRT1_2 = 0.70710678118654752440;
static const double SQRT_2_OVER_PI = 0.79788456080286535588;

ALWAYS_INLINE __mmask16 mask16(int64_t n)
{
    return (__mmask16)((1u << n) - 1u);
}

ALWAYS_INLINE __mmask8 mask8(int64_t n)
{
    return (__mmask8)((1u << n) - 1u);
}

/* The generic fold of 16 lanes: lane i takes lane i + 8, + 4, + 2, + 1. */
ALWAYS_INLINE double fold16(__m512d lanes_0_7, __m512d lanes_8_15)
{
    __m512d s = _mm512_add_pd(lanes_0_7, lanes_8_15);
    __m256d t = _mm256_add_pd(_mm512_castpd512_pd256(s), _mm512_extractf64x4_pd(s, 1));
    __m128d u = _mm_add_pd(_mm256_castpd256_pd128(t), _mm256_extractf128_pd(t, 1));
    return _mm_cvtsd_f64(u) + _mm_cvtsd_f64(_mm_unpackhi_pd(u, u));
}

ALWAYS_INLINE __m512d low_pd(__m512 v)
{
    return _mm512_cvtps_pd(_mm512_castps512_ps256(v));
}

ALWAYS_INLINE __m512d high_pd(__m512 v)
{
    return _mm512_cvtps_pd(_mm512_extractf32x8_ps(v, 1));
}

/* Row kernels read a row from memory once and then work on it in cache; the
 * next row of a dense tensor starts right after this one, so it is fetched
 * while this one is computed (prefetching never faults, past the end too). */
ALWAYS_INLINE void prefetch_next_row(const void *line)
{
    _mm_prefetch((const char *)line, _MM_HINT_T0);
}

/* ------------------------------------------------------------------------ */
/* Binary                                                                    */
/* ------------------------------------------------------------------------ */

ALWAYS_INLINE __m512 binary_ps(int op, __m512 x, __m512 y, __m512 alpha)
{
    switch (op) {
    case TSR__CPU_BIN_ADD:
        return _mm512_add_ps(x, y);
    case TSR__CPU_BIN_SUB:
        return _mm512_sub_ps(x, y);
    case TSR__CPU_BIN_MUL:
        return _mm512_mul_ps(x, y);
    case TSR__CPU_BIN_DIV:
        return _mm512_div_ps(x, y);
    default:
        return _mm512_fmadd_ps(alpha, y, x);
    }
}

ALWAYS_INLINE __m512d binary_pd(int op, __m512d x, __m512d y, __m512d alpha)
{
    switch (op) {
    case TSR__CPU_BIN_ADD:
        return _mm512_add_pd(x, y);
    case TSR__CPU_BIN_SUB:
        return _mm512_sub_pd(x, y);
    case TSR__CPU_BIN_MUL:
        return _mm512_mul_pd(x, y);
    case TSR__CPU_BIN_DIV:
        return _mm512_div_pd(x, y);
    default:
        return _mm512_fmadd_pd(alpha, y, x);
    }
}

/* op, a_step and b_step are constants at every call, so each combination
 * becomes its own loop. */
ALWAYS_INLINE void binary_loop_f32(int op, float *out, const float *a, int64_t a_step,
                                   const float *b, int64_t b_step, int64_t n, float alpha)
{
    __m512 va = _mm512_set1_ps(alpha), xa = _mm512_set1_ps(a[0]), yb = _mm512_set1_ps(b[0]);
    int64_t i = 0;
    for (; i + 32 <= n; i += 32) {
        __m512 x0 = a_step ? _mm512_loadu_ps(a + i) : xa;
        __m512 x1 = a_step ? _mm512_loadu_ps(a + i + 16) : xa;
        __m512 y0 = b_step ? _mm512_loadu_ps(b + i) : yb;
        __m512 y1 = b_step ? _mm512_loadu_ps(b + i + 16) : yb;
        _mm512_storeu_ps(out + i, binary_ps(op, x0, y0, va));
        _mm512_storeu_ps(out + i + 16, binary_ps(op, x1, y1, va));
    }
    for (; i < n; i += 16) {
        __mmask16 m = n - i >= 16 ? (__mmask16)0xffff : mask16(n - i);
        __m512 x = a_step ? _mm512_maskz_loadu_ps(m, a + i) : xa;
        __m512 y = b_step ? _mm512_maskz_loadu_ps(m, b + i) : yb;
        _mm512_mask_storeu_ps(out + i, m, binary_ps(op, x, y, va));
    }
}

ALWAYS_INLINE void binary_loop_f64(int op, double *out, const double *a, int64_t a_step,
                                   const double *b, int64_t b_step, int64_t n, double alpha)
{
    __m512d va = _mm512_set1_pd(alpha), xa = _mm512_set1_pd(a[0]), yb = _mm512_set1_pd(b[0]);
    int64_t i = 0;
    for (; i + 16 <= n; i += 16) {
        __m512d x0 = a_step ? _mm512_loadu_pd(a + i) : xa;
        __m512d x1 = a_step ? _mm512_loadu_pd(a + i + 8) : xa;
        __m512d y0 = b_step ? _mm512_loadu_pd(b + i) : yb;
        __m512d y1 = b_step ? _mm512_loadu_pd(b + i + 8) : yb;
        _mm512_storeu_pd(out + i, binary_pd(op, x0, y0, va));
        _mm512_storeu_pd(out + i + 8, binary_pd(op, x1, y1, va));
    }
    for (; i < n; i += 8) {
        __mmask8 m = n - i >= 8 ? (__mmask8)0xff : mask8(n - i);
        __m512d x = a_step ? _mm512_maskz_loadu_pd(m, a + i) : xa;
        __m512d y = b_step ? _mm512_maskz_loadu_pd(m, b + i) : yb;
        _mm512_mask_storeu_pd(out + i, m, binary_pd(op, x, y, va));
    }
}

ALWAYS_INLINE void binary_steps_f32(int op, float *out, const float *a, int64_t a_step,
                                    const float *b, int64_t b_step, int64_t n, float alpha)
{
    if (a_step && b_step) {
        binary_loop_f32(op, out, a, 1, b, 1, n, alpha);
    } else if (a_step) {
        binary_loop_f32(op, out, a, 1, b, 0, n, alpha);
    } else if (b_step) {
        binary_loop_f32(op, out, a, 0, b, 1, n, alpha);
    } else {
        binary_loop_f32(op, out, a, 0, b, 0, n, alpha);
    }
}

ALWAYS_INLINE void binary_steps_f64(int op, double *out, const double *a, int64_t a_step,
                                    const double *b, int64_t b_step, int64_t n, double alpha)
{
    if (a_step && b_step) {
        binary_loop_f64(op, out, a, 1, b, 1, n, alpha);
    } else if (a_step) {
        binary_loop_f64(op, out, a, 1, b, 0, n, alpha);
    } else if (b_step) {
        binary_loop_f64(op, out, a, 0, b, 1, n, alpha);
    } else {
        binary_loop_f64(op, out, a, 0, b, 0, n, alpha);
    }
}

static void binary_f32(int op, float *out, const float *a, int64_t a_step, const float *b,
                       int64_t b_step, int64_t n, float alpha)
{
    if (n <= 0) {
        return;
    }
    switch (op) {
    case TSR__CPU_BIN_ADD:
        binary_steps_f32(TSR__CPU_BIN_ADD, out, a, a_step, b, b_step, n, alpha);
        break;
    case TSR__CPU_BIN_SUB:
        binary_steps_f32(TSR__CPU_BIN_SUB, out, a, a_step, b, b_step, n, alpha);
        break;
    case TSR__CPU_BIN_MUL:
        binary_steps_f32(TSR__CPU_BIN_MUL, out, a, a_step, b, b_step, n, alpha);
        break;
    case TSR__CPU_BIN_DIV:
        binary_steps_f32(TSR__CPU_BIN_DIV, out, a, a_step, b, b_step, n, alpha);
        break;
    default:
        binary_steps_f32(TSR__CPU_BIN_AXPY, out, a, a_step, b, b_step, n, alpha);
        break;
    }
}

static void binary_f64(int op, double *out, const double *a, int64_t a_step, const double *b,
                       int64_t b_step, int64_t n, double alpha)
{
    if (n <= 0) {
        return;
    }
    switch (op) {
    case TSR__CPU_BIN_ADD:
        binary_steps_f64(TSR__CPU_BIN_ADD, out, a, a_step, b, b_step, n, alpha);
        break;
    case TSR__CPU_BIN_SUB:
        binary_steps_f64(TSR__CPU_BIN_SUB, out, a, a_step, b, b_step, n, alpha);
        break;
    case TSR__CPU_BIN_MUL:
        binary_steps_f64(TSR__CPU_BIN_MUL, out, a, a_step, b, b_step, n, alpha);
        break;
    case TSR__CPU_BIN_DIV:
        binary_steps_f64(TSR__CPU_BIN_DIV, out, a, a_step, b, b_step, n, alpha);
        break;
    default:
        binary_steps_f64(TSR__CPU_BIN_AXPY, out, a, a_step, b, b_step, n, alpha);
        break;
    }
}

/* ------------------------------------------------------------------------ */
/* Unary (SLEEF, 1 ulp)                                                      */
/* ------------------------------------------------------------------------ */

/* Each formula takes the generic set's steps in the generic set's order. */
ALWAYS_INLINE __m512 unary_ps(int op, __m512 x)
{
    const __m512 one = _mm512_set1_ps(1.0f), half = _mm512_set1_ps(0.5f);
    __m512 minus_x = _mm512_castsi512_ps(
        _mm512_xor_si512(_mm512_castps_si512(x), _mm512_set1_epi32((int)0x80000000u)));
    switch (op) {
    case TSR__CPU_UN_EXP:
        return Sleef_expf16_u10avx512f(x);
    case TSR__CPU_UN_LOG:
        return Sleef_logf16_u10avx512f(x);
    case TSR__CPU_UN_TANH:
        return Sleef_tanhf16_u10avx512f(x);
    case TSR__CPU_UN_SIGMOID:
        return _mm512_div_ps(one, _mm512_add_ps(one, Sleef_expf16_u10avx512f(minus_x)));
    case TSR__CPU_UN_ERF:
        return Sleef_erff16_u10avx512f(x);
    case TSR__CPU_UN_GELU:
        return _mm512_mul_ps(_mm512_mul_ps(half, x), Sleef_erfcf16_u15avx512f(_mm512_mul_ps(
                                                         minus_x, _mm512_set1_ps(SQRT1_2F))));
    case TSR__CPU_UN_GELU_TANH: {
        __m512 cube =
            _mm512_mul_ps(_mm512_mul_ps(_mm512_mul_ps(_mm512_set1_ps(0.044715f), x), x), x);
        __m512 inner = _mm512_mul_ps(_mm512_set1_ps(SQRT_2_OVER_PI_F), _mm512_add_ps(x, cube));
        return _mm512_mul_ps(_mm512_mul_ps(half, x),
                             _mm512_add_ps(one, Sleef_tanhf16_u10avx512f(inner)));
    }
    case TSR__CPU_UN_SQRT:
        return _mm512_sqrt_ps(x);
    case TSR__CPU_UN_NEG:
        return minus_x;
    case TSR__CPU_UN_SIN:
        return Sleef_sinf16_u10avx512f(x);
    case TSR__CPU_UN_COS:
        return Sleef_cosf16_u10avx512f(x);
    case TSR__CPU_UN_EXPM1:
        return Sleef_expm1f16_u10avx512f(x);
    case TSR__CPU_UN_LOG1P:
        return Sleef_log1pf16_u10avx512f(x);
    default: /* silu */
        return _mm512_div_ps(x, _mm512_add_ps(one, Sleef_expf16_u10avx512f(minus_x)));
    }
}

ALWAYS_INLINE __m512d unary_pd(int op, __m512d x)
{
    const __m512d one = _mm512_set1_pd(1.0), half = _mm512_set1_pd(0.5);
    __m512d minus_x = _mm512_castsi512_pd(_mm512_xor_si512(
        _mm512_castpd_si512(x), _mm512_set1_epi64((long long)0x8000000000000000ull)));
    switch (op) {
    case TSR__CPU_UN_EXP:
        return Sleef_expd8_u10avx512f(x);
    case TSR__CPU_UN_LOG:
        return Sleef_logd8_u10avx512f(x);
    case TSR__CPU_UN_TANH:
        return Sleef_tanhd8_u10avx512f(x);
    case TSR__CPU_UN_SIGMOID:
        return _mm512_div_pd(one, _mm512_add_pd(one, Sleef_expd8_u10avx512f(minus_x)));
    case TSR__CPU_UN_ERF:
        return Sleef_erfd8_u10avx512f(x);
    case TSR__CPU_UN_GELU:
        return _mm512_mul_pd(_mm512_mul_pd(half, x), Sleef_erfcd8_u15avx512f(_mm512_mul_pd(
                                                         minus_x, _mm512_set1_pd(SQRT1_2))));
    case TSR__CPU_UN_GELU_TANH: {
        __m512d cube =
            _mm512_mul_pd(_mm512_mul_pd(_mm512_mul_pd(_mm512_set1_pd(0.044715), x), x), x);
        __m512d inner = _mm512_mul_pd(_mm512_set1_pd(SQRT_2_OVER_PI), _mm512_add_pd(x, cube));
        return _mm512_mul_pd(_mm512_mul_pd(half, x),
                             _mm512_add_pd(one, Sleef_tanhd8_u10avx512f(inner)));
    }
    case TSR__CPU_UN_SQRT:
        return _mm512_sqrt_pd(x);
    case TSR__CPU_UN_NEG:
        return minus_x;
    case TSR__CPU_UN_SIN:
        return Sleef_sind8_u10avx512f(x);
    case TSR__CPU_UN_COS:
        return Sleef_cosd8_u10avx512f(x);
    case TSR__CPU_UN_EXPM1:
        return Sleef_expm1d8_u10avx512f(x);
    case TSR__CPU_UN_LOG1P:
        return Sleef_log1pd8_u10avx512f(x);
    default: /* silu */
        return _mm512_div_pd(x, _mm512_add_pd(one, Sleef_expd8_u10avx512f(minus_x)));
    }
}

ALWAYS_INLINE void unary_loop_f32(int op, float *out, const float *in, int64_t n)
{
    for (int64_t i = 0; i < n; i += 16) {
        __mmask16 m = n - i >= 16 ? (__mmask16)0xffff : mask16(n - i);
        _mm512_mask_storeu_ps(out + i, m, unary_ps(op, _mm512_maskz_loadu_ps(m, in + i)));
    }
}

ALWAYS_INLINE void unary_loop_f64(int op, double *out, const double *in, int64_t n)
{
    for (int64_t i = 0; i < n; i += 8) {
        __mmask8 m = n - i >= 8 ? (__mmask8)0xff : mask8(n - i);
        _mm512_mask_storeu_pd(out + i, m, unary_pd(op, _mm512_maskz_loadu_pd(m, in + i)));
    }
}

#include "simd_unary_dispatch.h"

/* ------------------------------------------------------------------------ */
/* Sums in lane order                                                        */
/* ------------------------------------------------------------------------ */

/* One block of at most 1024 terms; masked-off lanes add +0, which changes
 * nothing (a lane starts at +0 and can never hold -0). */
static double block_f32(const float *x, int64_t n)
{
    __m512d lo = _mm512_setzero_pd(), hi = _mm512_setzero_pd();
    for (int64_t k = 0; k < n; k += 16) {
        __mmask16 m = n - k >= 16 ? (__mmask16)0xffff : mask16(n - k);
        __m512 v = _mm512_maskz_loadu_ps(m, x + k);
        lo = _mm512_add_pd(lo, low_pd(v));
        hi = _mm512_add_pd(hi, high_pd(v));
    }
    return fold16(lo, hi);
}

static double block_f64(const double *x, int64_t n)
{
    __m512d lo = _mm512_setzero_pd(), hi = _mm512_setzero_pd();
    for (int64_t k = 0; k < n; k += 16) {
        __mmask8 m0 = n - k >= 8 ? (__mmask8)0xff : mask8(n - k);
        __mmask8 m1 = n - k >= 16 ? (__mmask8)0xff : n - k > 8 ? mask8(n - k - 8) : 0;
        lo = _mm512_add_pd(lo, _mm512_maskz_loadu_pd(m0, x + k));
        hi = _mm512_add_pd(hi, _mm512_maskz_loadu_pd(m1, x + k + 8));
    }
    return fold16(lo, hi);
}

/* One block after the other: its two chains of additions keep up with
 * memory, and a single sequential stream is what the prefetchers follow
 * best (interleaving blocks 4 KiB apart measured half as fast). */
static void sum_blocks_f32(const float *x, int64_t n, double *values)
{
    const int64_t B = TSR__CPU_SUM_BLOCK;
    int64_t start = 0, b = 0;
    for (; start + B <= n; start += B, b++) {
        __m512d lo = _mm512_setzero_pd(), hi = _mm512_setzero_pd();
        for (int64_t k = 0; k < B; k += 16) {
            __m512 v = _mm512_loadu_ps(x + start + k);
            lo = _mm512_add_pd(lo, low_pd(v));
            hi = _mm512_add_pd(hi, high_pd(v));
        }
        values[b] = fold16(lo, hi);
    }
    if (start < n) {
        values[b] = block_f32(x + start, n - start);
    }
}

static void sum_blocks_f64(const double *x, int64_t n, double *values)
{
    const int64_t B = TSR__CPU_SUM_BLOCK;
    int64_t start = 0, b = 0;
    for (; start + B <= n; start += B, b++) {
        __m512d lo = _mm512_setzero_pd(), hi = _mm512_setzero_pd();
        for (int64_t k = 0; k < B; k += 16) {
            lo = _mm512_add_pd(lo, _mm512_loadu_pd(x + start + k));
            hi = _mm512_add_pd(hi, _mm512_loadu_pd(x + start + k + 8));
        }
        values[b] = fold16(lo, hi);
    }
    if (start < n) {
        values[b] = block_f64(x + start, n - start);
    }
}

/* ------------------------------------------------------------------------ */
/* softmax and log_softmax rows                                              */
/* ------------------------------------------------------------------------ */

static void softmax_row_f32(float *out, const float *in, int64_t n, int log_form)
{
    const __m512 minus_inf = _mm512_set1_ps(-INFINITY);
    __m512 vmax = minus_inf;
    for (int64_t i = 0; i < n; i += 16) {
        __mmask16 m = n - i >= 16 ? (__mmask16)0xffff : mask16(n - i);
        vmax = _mm512_max_ps(vmax, _mm512_mask_loadu_ps(minus_inf, m, in + i));
    }
    float max = _mm512_reduce_max_ps(vmax);
    __m512 vm = _mm512_set1_ps(max);
    __m512d lo = _mm512_setzero_pd(), hi = _mm512_setzero_pd();
    for (int64_t i = 0; i < n; i += 16) {
        __mmask16 m = n - i >= 16 ? (__mmask16)0xffff : mask16(n - i);
        __m512 x = _mm512_maskz_loadu_ps(m, in + i);
        prefetch_next_row(in + n + i);
        __m512 e = _mm512_maskz_mov_ps(m, Sleef_expf16_u10avx512f(_mm512_sub_ps(x, vm)));
        if (!log_form) {
            _mm512_mask_storeu_ps(out + i, m, e);
        }
        lo = _mm512_add_pd(lo, low_pd(e));
        hi = _mm512_add_pd(hi, high_pd(e));
    }
    double sum = fold16(lo, hi);
    if (log_form) {
        __m512 shift = _mm512_set1_ps((float)log(sum));
        for (int64_t i = 0; i < n; i += 16) {
            __mmask16 m = n - i >= 16 ? (__mmask16)0xffff : mask16(n - i);
            __m512 x = _mm512_maskz_loadu_ps(m, in + i);
            _mm512_mask_storeu_ps(out + i, m, _mm512_sub_ps(_mm512_sub_ps(x, vm), shift));
        }
        return;
    }
    __m512 scale = _mm512_set1_ps((float)(1.0 / sum));
    for (int64_t i = 0; i < n; i += 16) {
        __mmask16 m = n - i >= 16 ? (__mmask16)0xffff : mask16(n - i);
        _mm512_mask_storeu_ps(out + i, m, _mm512_mul_ps(_mm512_maskz_loadu_ps(m, out + i), scale));
    }
}

static void softmax_row_f64(double *out, const double *in, int64_t n, int log_form)
{
    const __m512d minus_inf = _mm512_set1_pd(-INFINITY);
    __m512d vmax = minus_inf;
    for (int64_t i = 0; i < n; i += 8) {
        __mmask8 m = n - i >= 8 ? (__mmask8)0xff : mask8(n - i);
        vmax = _mm512_max_pd(vmax, _mm512_mask_loadu_pd(minus_inf, m, in + i));
    }
    double max = _mm512_reduce_max_pd(vmax);
    __m512d vm = _mm512_set1_pd(max);
    /* 16 lanes: elements i .. i+7 of each 16 into lo, i+8 .. i+15 into hi. */
    __m512d lanes[2] = {_mm512_setzero_pd(), _mm512_setzero_pd()};
    for (int64_t i = 0; i < n; i += 8) {
        __mmask8 m = n - i >= 8 ? (__mmask8)0xff : mask8(n - i);
        __m512d x = _mm512_maskz_loadu_pd(m, in + i);
        prefetch_next_row(in + n + i);
        __m512d e = _mm512_maskz_mov_pd(m, Sleef_expd8_u10avx512f(_mm512_sub_pd(x, vm)));
        if (!log_form) {
            _mm512_mask_storeu_pd(out + i, m, e);
        }
        lanes[(i / 8) & 1] = _mm512_add_pd(lanes[(i / 8) & 1], e);
    }
    double sum = fold16(lanes[0], lanes[1]);
    if (log_form) {
        __m512d shift = _mm512_set1_pd(log(sum));
        for (int64_t i = 0; i < n; i += 8) {
            __mmask8 m = n - i >= 8 ? (__mmask8)0xff : mask8(n - i);
            __m512d x = _mm512_maskz_loadu_pd(m, in + i);
            _mm512_mask_storeu_pd(out + i, m, _mm512_sub_pd(_mm512_sub_pd(x, vm), shift));
        }
        return;
    }
    __m512d scale = _mm512_set1_pd(1.0 / sum);
    for (int64_t i = 0; i < n; i += 8) {
        __mmask8 m = n - i >= 8 ? (__mmask8)0xff : mask8(n - i);
        _mm512_mask_storeu_pd(out + i, m, _mm512_mul_pd(_mm512_maskz_loadu_pd(m, out + i), scale));
    }
}

/* ------------------------------------------------------------------------ */
/* logsumexp rows                                                            */
/* ------------------------------------------------------------------------ */

static double logsumexp_row_f32(const float *x, int64_t n)
{
    const __m512 minus_inf = _mm512_set1_ps(-INFINITY);
    __m512 vmax = minus_inf;
    for (int64_t i = 0; i < n; i += 16) {
        __mmask16 m = n - i >= 16 ? (__mmask16)0xffff : mask16(n - i);
        vmax = _mm512_max_ps(vmax, _mm512_mask_loadu_ps(minus_inf, m, x + i));
    }
    float max = _mm512_reduce_max_ps(vmax);
    double shift = isinf(max) ? 0.0 : (double)max;
    __m512d vshift = _mm512_set1_pd(shift);
    __m512d lo = _mm512_setzero_pd(), hi = _mm512_setzero_pd();
    for (int64_t i = 0; i < n; i += 16) {
        __mmask16 m = n - i >= 16 ? (__mmask16)0xffff : mask16(n - i);
        __m512 v = _mm512_maskz_loadu_ps(m, x + i);
        prefetch_next_row(x + n + i);
        __m512d e0 = Sleef_expd8_u10avx512f(_mm512_sub_pd(low_pd(v), vshift));
        __m512d e1 = Sleef_expd8_u10avx512f(_mm512_sub_pd(high_pd(v), vshift));
        lo = _mm512_add_pd(lo, _mm512_maskz_mov_pd((__mmask8)m, e0));
        hi = _mm512_add_pd(hi, _mm512_maskz_mov_pd((__mmask8)(m >> 8), e1));
    }
    return log(fold16(lo, hi)) + shift;
}

static double logsumexp_row_f64(const double *x, int64_t n)
{
    const __m512d minus_inf = _mm512_set1_pd(-INFINITY);
    __m512d vmax = minus_inf;
    for (int64_t i = 0; i < n; i += 8) {
        __mmask8 m = n - i >= 8 ? (__mmask8)0xff : mask8(n - i);
        vmax = _mm512_max_pd(vmax, _mm512_mask_loadu_pd(minus_inf, m, x + i));
    }
    double max = _mm512_reduce_max_pd(vmax);
    double shift = isinf(max) ? 0.0 : max;
    __m512d vshift = _mm512_set1_pd(shift);
    __m512d lanes[2] = {_mm512_setzero_pd(), _mm512_setzero_pd()};
    for (int64_t i = 0; i < n; i += 8) {
        __mmask8 m = n - i >= 8 ? (__mmask8)0xff : mask8(n - i);
        __m512d e = Sleef_expd8_u10avx512f(_mm512_sub_pd(_mm512_maskz_loadu_pd(m, x + i), vshift));
        lanes[(i / 8) & 1] = _mm512_add_pd(lanes[(i / 8) & 1], _mm512_maskz_mov_pd(m, e));
    }
    return log(fold16(lanes[0], lanes[1])) + shift;
}

/* ------------------------------------------------------------------------ */
/* layer_norm and rms_norm rows                                              */
/* ------------------------------------------------------------------------ */

static void norm_sums_f32(const float *x, int64_t n, int rms, double *mean_out, double *squares_out)
{
    double mean = 0.0;
    if (!rms) {
        __m512d lo = _mm512_setzero_pd(), hi = _mm512_setzero_pd();
        for (int64_t i = 0; i < n; i += 16) {
            __mmask16 m = n - i >= 16 ? (__mmask16)0xffff : mask16(n - i);
            __m512 v = _mm512_maskz_loadu_ps(m, x + i);
            lo = _mm512_add_pd(lo, low_pd(v));
            hi = _mm512_add_pd(hi, high_pd(v));
        }
        mean = n > 0 ? fold16(lo, hi) / (double)n : 0.0;
    }
    __m512d vmean = _mm512_set1_pd(mean);
    __m512d lo = _mm512_setzero_pd(), hi = _mm512_setzero_pd();
    for (int64_t i = 0; i < n; i += 16) {
        __mmask16 m = n - i >= 16 ? (__mmask16)0xffff : mask16(n - i);
        __m512 v = _mm512_maskz_loadu_ps(m, x + i);
        prefetch_next_row(x + n + i);
        __m512d d0 = _mm512_maskz_sub_pd((__mmask8)m, low_pd(v), vmean);
        __m512d d1 = _mm512_maskz_sub_pd((__mmask8)(m >> 8), high_pd(v), vmean);
        lo = _mm512_add_pd(lo, _mm512_mul_pd(d0, d0));
        hi = _mm512_add_pd(hi, _mm512_mul_pd(d1, d1));
    }
    *mean_out = mean;
    *squares_out = fold16(lo, hi);
}

static void norm_sums_f64(const double *x, int64_t n, int rms, double *mean_out,
                          double *squares_out)
{
    double mean = 0.0;
    if (!rms) {
        __m512d lanes[2] = {_mm512_setzero_pd(), _mm512_setzero_pd()};
        for (int64_t i = 0; i < n; i += 8) {
            __mmask8 m = n - i >= 8 ? (__mmask8)0xff : mask8(n - i);
            lanes[(i / 8) & 1] = _mm512_add_pd(lanes[(i / 8) & 1], _mm512_maskz_loadu_pd(m, x + i));
        }
        mean = n > 0 ? fold16(lanes[0], lanes[1]) / (double)n : 0.0;
    }
    __m512d vmean = _mm512_set1_pd(mean);
    __m512d lanes[2] = {_mm512_setzero_pd(), _mm512_setzero_pd()};
    for (int64_t i = 0; i < n; i += 8) {
        __mmask8 m = n - i >= 8 ? (__mmask8)0xff : mask8(n - i);
        prefetch_next_row(x + n + i);
        __m512d d = _mm512_maskz_sub_pd(m, _mm512_maskz_loadu_pd(m, x + i), vmean);
        lanes[(i / 8) & 1] = _mm512_add_pd(lanes[(i / 8) & 1], _mm512_mul_pd(d, d));
    }
    *mean_out = mean;
    *squares_out = fold16(lanes[0], lanes[1]);
}

static void norm_row_f32(float *y, const float *x, int64_t n, const tsr__cpu_norm_row *p,
                         double *mean_out, double *rstd_out)
{
    double mean, squares;
    norm_sums_f32(x, n, p->rms, &mean, &squares);
    const float *w = p->weight, *b = p->bias;
    if (p->rms) {
        double rstd = 1.0 / sqrt(squares / (double)n + p->eps);
        __m512d vrstd = _mm512_set1_pd(rstd), zero = _mm512_setzero_pd();
        for (int64_t i = 0; i < n; i += 8) {
            __mmask8 m = n - i >= 8 ? (__mmask8)0xff : mask8(n - i);
            __m512d v = _mm512_mul_pd(_mm512_cvtps_pd(_mm256_maskz_loadu_ps(m, x + i)), vrstd);
            if (w != NULL) {
                v = _mm512_add_pd(
                    _mm512_mul_pd(v, _mm512_cvtps_pd(_mm256_maskz_loadu_ps(m, w + i))), zero);
            }
            _mm256_mask_storeu_ps(y + i, m, _mm512_cvtpd_ps(v));
        }
        *mean_out = 0.0;
        *rstd_out = rstd;
        return;
    }
    struct tsr__cpu_norm_coefficients c = tsr__cpu_norm_coefficients_f32(mean, squares, n, p->eps);
    __m512 vrstd = _mm512_set1_ps(c.rstd), vshift = _mm512_set1_ps(c.shift);
    for (int64_t i = 0; i < n; i += 16) {
        __mmask16 m = n - i >= 16 ? (__mmask16)0xffff : mask16(n - i);
        __m512 v = _mm512_fmadd_ps(_mm512_maskz_loadu_ps(m, x + i), vrstd, vshift);
        if (w != NULL) {
            __m512 bv = b != NULL ? _mm512_maskz_loadu_ps(m, b + i) : _mm512_setzero_ps();
            v = _mm512_fmadd_ps(v, _mm512_maskz_loadu_ps(m, w + i), bv);
        }
        _mm512_mask_storeu_ps(y + i, m, v);
    }
    *mean_out = c.mean;
    *rstd_out = c.rstd;
}

static void norm_row_f64(double *y, const double *x, int64_t n, const tsr__cpu_norm_row *p,
                         double *mean_out, double *rstd_out)
{
    double mean, squares;
    norm_sums_f64(x, n, p->rms, &mean, &squares);
    double rstd = 1.0 / sqrt(squares / (double)n + p->eps);
    __m512d vrstd = _mm512_set1_pd(rstd), vshift = _mm512_set1_pd(-rstd * mean);
    const double *w = p->weight, *b = p->bias;
    for (int64_t i = 0; i < n; i += 8) {
        __mmask8 m = n - i >= 8 ? (__mmask8)0xff : mask8(n - i);
        __m512d v = _mm512_mul_pd(_mm512_maskz_loadu_pd(m, x + i), vrstd);
        if (!p->rms) {
            v = _mm512_add_pd(v, vshift);
        }
        if (w != NULL) {
            __m512d bv = b != NULL ? _mm512_maskz_loadu_pd(m, b + i) : _mm512_setzero_pd();
            v = _mm512_add_pd(_mm512_mul_pd(v, _mm512_maskz_loadu_pd(m, w + i)), bv);
        }
        _mm512_mask_storeu_pd(y + i, m, v);
    }
    *mean_out = mean;
    *rstd_out = rstd;
}

static const tsr__cpu_simd avx512_set = {
    .name = "avx512",
    .binary_f32 = binary_f32,
    .binary_f64 = binary_f64,
    .unary_f32 = unary_f32,
    .unary_f64 = unary_f64,
    .sum_blocks_f32 = sum_blocks_f32,
    .sum_blocks_f64 = sum_blocks_f64,
    .softmax_row_f32 = softmax_row_f32,
    .softmax_row_f64 = softmax_row_f64,
    .logsumexp_row_f32 = logsumexp_row_f32,
    .logsumexp_row_f64 = logsumexp_row_f64,
    .norm_row_f32 = norm_row_f32,
    .norm_row_f64 = norm_row_f64,
};

const tsr__cpu_simd *tsr__cpu_simd_avx512(void)
{
    return &avx512_set;
}
