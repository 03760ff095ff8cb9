/* The AVX2 + FMA set, compiled with those flags in this file only and called
 * only when CPUID reports them. Tails go through a zero-padded vector (unary
 * functions, so every element sees the same SLEEF code) or scalar code that
 * rounds as the vector code does (binary ops). Sums keep the generic set's
 * 16 lanes as four vectors of 4 doubles and fold them in its order. */
#include <immintrin.h>
#include <math.h>
#include <stddef.h>
#include <string.h>

#include <sleef.h>

#include "cpu_simd.h"

#define ALWAYS_INLINE static inline __attribute__((always_inline))

static const float SQRT1_2F = 0.70710678118654752440f;
static const float SQRT_2_OVER_PI_F = 0.79788456080286535588f;
static const double SQRT1_2 = 0.70710678118654752440;
static const double SQRT_2_OVER_PI = 0.79788456080286535588;

/* 16 double lanes as four vectors: lanes 0-3, 4-7, 8-11, 12-15. */
typedef struct lanes16 {
    __m256d v[4];
} lanes16;

ALWAYS_INLINE lanes16 lanes_zero(void)
{
    lanes16 l = {{_mm256_setzero_pd(), _mm256_setzero_pd(), _mm256_setzero_pd(),
                  _mm256_setzero_pd()}};
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
static double lanes_finish_f32(lanes16 l, const float *x, int64_t k, int64_t n)
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

static double lanes_finish_f64(lanes16 l, const double *x, int64_t k, int64_t n)
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
/* Binary                                                                    */
/* ------------------------------------------------------------------------ */

ALWAYS_INLINE __m256 binary_ps(int op, __m256 x, __m256 y, __m256 alpha)
{
    switch (op) {
    case TSR__CPU_BIN_ADD:
        return _mm256_add_ps(x, y);
    case TSR__CPU_BIN_SUB:
        return _mm256_sub_ps(x, y);
    case TSR__CPU_BIN_MUL:
        return _mm256_mul_ps(x, y);
    case TSR__CPU_BIN_DIV:
        return _mm256_div_ps(x, y);
    default:
        return _mm256_fmadd_ps(alpha, y, x);
    }
}

ALWAYS_INLINE __m256d binary_pd(int op, __m256d x, __m256d y, __m256d alpha)
{
    switch (op) {
    case TSR__CPU_BIN_ADD:
        return _mm256_add_pd(x, y);
    case TSR__CPU_BIN_SUB:
        return _mm256_sub_pd(x, y);
    case TSR__CPU_BIN_MUL:
        return _mm256_mul_pd(x, y);
    case TSR__CPU_BIN_DIV:
        return _mm256_div_pd(x, y);
    default:
        return _mm256_fmadd_pd(alpha, y, x);
    }
}

ALWAYS_INLINE float binary_one_f32(int op, float x, float y, float alpha)
{
    switch (op) {
    case TSR__CPU_BIN_ADD:
        return x + y;
    case TSR__CPU_BIN_SUB:
        return x - y;
    case TSR__CPU_BIN_MUL:
        return x * y;
    case TSR__CPU_BIN_DIV:
        return x / y;
    default:
        return fmaf(alpha, y, x);
    }
}

ALWAYS_INLINE double binary_one_f64(int op, double x, double y, double alpha)
{
    switch (op) {
    case TSR__CPU_BIN_ADD:
        return x + y;
    case TSR__CPU_BIN_SUB:
        return x - y;
    case TSR__CPU_BIN_MUL:
        return x * y;
    case TSR__CPU_BIN_DIV:
        return x / y;
    default:
        return fma(alpha, y, x);
    }
}

ALWAYS_INLINE void binary_loop_f32(int op, float *out, const float *a, int64_t a_step,
                                   const float *b, int64_t b_step, int64_t n, float alpha)
{
    __m256 va = _mm256_set1_ps(alpha), xa = _mm256_set1_ps(a[0]), yb = _mm256_set1_ps(b[0]);
    int64_t i = 0;
    for (; i + 16 <= n; i += 16) {
        __m256 x0 = a_step ? _mm256_loadu_ps(a + i) : xa;
        __m256 x1 = a_step ? _mm256_loadu_ps(a + i + 8) : xa;
        __m256 y0 = b_step ? _mm256_loadu_ps(b + i) : yb;
        __m256 y1 = b_step ? _mm256_loadu_ps(b + i + 8) : yb;
        _mm256_storeu_ps(out + i, binary_ps(op, x0, y0, va));
        _mm256_storeu_ps(out + i + 8, binary_ps(op, x1, y1, va));
    }
    for (; i < n; i++) {
        out[i] = binary_one_f32(op, a[i * a_step], b[i * b_step], alpha);
    }
}

ALWAYS_INLINE void binary_loop_f64(int op, double *out, const double *a, int64_t a_step,
                                   const double *b, int64_t b_step, int64_t n, double alpha)
{
    __m256d va = _mm256_set1_pd(alpha), xa = _mm256_set1_pd(a[0]), yb = _mm256_set1_pd(b[0]);
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) {
        __m256d x0 = a_step ? _mm256_loadu_pd(a + i) : xa;
        __m256d x1 = a_step ? _mm256_loadu_pd(a + i + 4) : xa;
        __m256d y0 = b_step ? _mm256_loadu_pd(b + i) : yb;
        __m256d y1 = b_step ? _mm256_loadu_pd(b + i + 4) : yb;
        _mm256_storeu_pd(out + i, binary_pd(op, x0, y0, va));
        _mm256_storeu_pd(out + i + 4, binary_pd(op, x1, y1, va));
    }
    for (; i < n; i++) {
        out[i] = binary_one_f64(op, a[i * a_step], b[i * b_step], alpha);
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

ALWAYS_INLINE __m256 unary_ps(int op, __m256 x)
{
    const __m256 one = _mm256_set1_ps(1.0f), half = _mm256_set1_ps(0.5f);
    __m256 minus_x = _mm256_xor_ps(x, _mm256_set1_ps(-0.0f));
    switch (op) {
    case TSR__CPU_UN_EXP:
        return Sleef_expf8_u10avx2(x);
    case TSR__CPU_UN_LOG:
        return Sleef_logf8_u10avx2(x);
    case TSR__CPU_UN_TANH:
        return Sleef_tanhf8_u10avx2(x);
    case TSR__CPU_UN_SIGMOID:
        return _mm256_div_ps(one, _mm256_add_ps(one, Sleef_expf8_u10avx2(minus_x)));
    case TSR__CPU_UN_ERF:
        return Sleef_erff8_u10avx2(x);
    case TSR__CPU_UN_GELU:
        return _mm256_mul_ps(_mm256_mul_ps(half, x),
                             Sleef_erfcf8_u15avx2(_mm256_mul_ps(minus_x, _mm256_set1_ps(SQRT1_2F))));
    case TSR__CPU_UN_GELU_TANH: {
        __m256 cube = _mm256_mul_ps(_mm256_mul_ps(_mm256_mul_ps(_mm256_set1_ps(0.044715f), x), x),
                                    x);
        __m256 inner = _mm256_mul_ps(_mm256_set1_ps(SQRT_2_OVER_PI_F), _mm256_add_ps(x, cube));
        return _mm256_mul_ps(_mm256_mul_ps(half, x),
                             _mm256_add_ps(one, Sleef_tanhf8_u10avx2(inner)));
    }
    case TSR__CPU_UN_SQRT:
        return _mm256_sqrt_ps(x);
    case TSR__CPU_UN_NEG:
        return minus_x;
    case TSR__CPU_UN_SIN:
        return Sleef_sinf8_u10avx2(x);
    case TSR__CPU_UN_COS:
        return Sleef_cosf8_u10avx2(x);
    case TSR__CPU_UN_EXPM1:
        return Sleef_expm1f8_u10avx2(x);
    case TSR__CPU_UN_LOG1P:
        return Sleef_log1pf8_u10avx2(x);
    default: /* silu */
        return _mm256_div_ps(x, _mm256_add_ps(one, Sleef_expf8_u10avx2(minus_x)));
    }
}

ALWAYS_INLINE __m256d unary_pd(int op, __m256d x)
{
    const __m256d one = _mm256_set1_pd(1.0), half = _mm256_set1_pd(0.5);
    __m256d minus_x = _mm256_xor_pd(x, _mm256_set1_pd(-0.0));
    switch (op) {
    case TSR__CPU_UN_EXP:
        return Sleef_expd4_u10avx2(x);
    case TSR__CPU_UN_LOG:
        return Sleef_logd4_u10avx2(x);
    case TSR__CPU_UN_TANH:
        return Sleef_tanhd4_u10avx2(x);
    case TSR__CPU_UN_SIGMOID:
        return _mm256_div_pd(one, _mm256_add_pd(one, Sleef_expd4_u10avx2(minus_x)));
    case TSR__CPU_UN_ERF:
        return Sleef_erfd4_u10avx2(x);
    case TSR__CPU_UN_GELU:
        return _mm256_mul_pd(_mm256_mul_pd(half, x),
                             Sleef_erfcd4_u15avx2(_mm256_mul_pd(minus_x, _mm256_set1_pd(SQRT1_2))));
    case TSR__CPU_UN_GELU_TANH: {
        __m256d cube = _mm256_mul_pd(_mm256_mul_pd(_mm256_mul_pd(_mm256_set1_pd(0.044715), x), x),
                                     x);
        __m256d inner = _mm256_mul_pd(_mm256_set1_pd(SQRT_2_OVER_PI), _mm256_add_pd(x, cube));
        return _mm256_mul_pd(_mm256_mul_pd(half, x),
                             _mm256_add_pd(one, Sleef_tanhd4_u10avx2(inner)));
    }
    case TSR__CPU_UN_SQRT:
        return _mm256_sqrt_pd(x);
    case TSR__CPU_UN_NEG:
        return minus_x;
    case TSR__CPU_UN_SIN:
        return Sleef_sind4_u10avx2(x);
    case TSR__CPU_UN_COS:
        return Sleef_cosd4_u10avx2(x);
    case TSR__CPU_UN_EXPM1:
        return Sleef_expm1d4_u10avx2(x);
    case TSR__CPU_UN_LOG1P:
        return Sleef_log1pd4_u10avx2(x);
    default: /* silu */
        return _mm256_div_pd(x, _mm256_add_pd(one, Sleef_expd4_u10avx2(minus_x)));
    }
}

ALWAYS_INLINE void unary_loop_f32(int op, float *out, const float *in, int64_t n)
{
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) {
        _mm256_storeu_ps(out + i, unary_ps(op, _mm256_loadu_ps(in + i)));
    }
    if (i < n) {
        float buffer[8] = {0};
        memcpy(buffer, in + i, (size_t)(n - i) * sizeof(float));
        _mm256_storeu_ps(buffer, unary_ps(op, _mm256_loadu_ps(buffer)));
        memcpy(out + i, buffer, (size_t)(n - i) * sizeof(float));
    }
}

ALWAYS_INLINE void unary_loop_f64(int op, double *out, const double *in, int64_t n)
{
    int64_t i = 0;
    for (; i + 4 <= n; i += 4) {
        _mm256_storeu_pd(out + i, unary_pd(op, _mm256_loadu_pd(in + i)));
    }
    if (i < n) {
        double buffer[4] = {0};
        memcpy(buffer, in + i, (size_t)(n - i) * sizeof(double));
        _mm256_storeu_pd(buffer, unary_pd(op, _mm256_loadu_pd(buffer)));
        memcpy(out + i, buffer, (size_t)(n - i) * sizeof(double));
    }
}

static void unary_f32(int op, float *out, const float *in, int64_t n)
{
    switch (op) {
    case TSR__CPU_UN_EXP:
        unary_loop_f32(TSR__CPU_UN_EXP, out, in, n);
        break;
    case TSR__CPU_UN_LOG:
        unary_loop_f32(TSR__CPU_UN_LOG, out, in, n);
        break;
    case TSR__CPU_UN_TANH:
        unary_loop_f32(TSR__CPU_UN_TANH, out, in, n);
        break;
    case TSR__CPU_UN_SIGMOID:
        unary_loop_f32(TSR__CPU_UN_SIGMOID, out, in, n);
        break;
    case TSR__CPU_UN_ERF:
        unary_loop_f32(TSR__CPU_UN_ERF, out, in, n);
        break;
    case TSR__CPU_UN_GELU:
        unary_loop_f32(TSR__CPU_UN_GELU, out, in, n);
        break;
    case TSR__CPU_UN_GELU_TANH:
        unary_loop_f32(TSR__CPU_UN_GELU_TANH, out, in, n);
        break;
    case TSR__CPU_UN_SQRT:
        unary_loop_f32(TSR__CPU_UN_SQRT, out, in, n);
        break;
    case TSR__CPU_UN_NEG:
        unary_loop_f32(TSR__CPU_UN_NEG, out, in, n);
        break;
    case TSR__CPU_UN_SIN:
        unary_loop_f32(TSR__CPU_UN_SIN, out, in, n);
        break;
    case TSR__CPU_UN_COS:
        unary_loop_f32(TSR__CPU_UN_COS, out, in, n);
        break;
    case TSR__CPU_UN_EXPM1:
        unary_loop_f32(TSR__CPU_UN_EXPM1, out, in, n);
        break;
    case TSR__CPU_UN_LOG1P:
        unary_loop_f32(TSR__CPU_UN_LOG1P, out, in, n);
        break;
    default:
        unary_loop_f32(TSR__CPU_UN_SILU, out, in, n);
        break;
    }
}

static void unary_f64(int op, double *out, const double *in, int64_t n)
{
    switch (op) {
    case TSR__CPU_UN_EXP:
        unary_loop_f64(TSR__CPU_UN_EXP, out, in, n);
        break;
    case TSR__CPU_UN_LOG:
        unary_loop_f64(TSR__CPU_UN_LOG, out, in, n);
        break;
    case TSR__CPU_UN_TANH:
        unary_loop_f64(TSR__CPU_UN_TANH, out, in, n);
        break;
    case TSR__CPU_UN_SIGMOID:
        unary_loop_f64(TSR__CPU_UN_SIGMOID, out, in, n);
        break;
    case TSR__CPU_UN_ERF:
        unary_loop_f64(TSR__CPU_UN_ERF, out, in, n);
        break;
    case TSR__CPU_UN_GELU:
        unary_loop_f64(TSR__CPU_UN_GELU, out, in, n);
        break;
    case TSR__CPU_UN_GELU_TANH:
        unary_loop_f64(TSR__CPU_UN_GELU_TANH, out, in, n);
        break;
    case TSR__CPU_UN_SQRT:
        unary_loop_f64(TSR__CPU_UN_SQRT, out, in, n);
        break;
    case TSR__CPU_UN_NEG:
        unary_loop_f64(TSR__CPU_UN_NEG, out, in, n);
        break;
    case TSR__CPU_UN_SIN:
        unary_loop_f64(TSR__CPU_UN_SIN, out, in, n);
        break;
    case TSR__CPU_UN_COS:
        unary_loop_f64(TSR__CPU_UN_COS, out, in, n);
        break;
    case TSR__CPU_UN_EXPM1:
        unary_loop_f64(TSR__CPU_UN_EXPM1, out, in, n);
        break;
    case TSR__CPU_UN_LOG1P:
        unary_loop_f64(TSR__CPU_UN_LOG1P, out, in, n);
        break;
    default:
        unary_loop_f64(TSR__CPU_UN_SILU, out, in, n);
        break;
    }
}

/* ------------------------------------------------------------------------ */
/* Sums in lane order                                                        */
/* ------------------------------------------------------------------------ */

static double block_f32(const float *x, int64_t n)
{
    lanes16 l = lanes_zero();
    int64_t k = 0;
    for (; k + 16 <= n; k += 16) {
        lanes_add_ps(&l, _mm256_loadu_ps(x + k), _mm256_loadu_ps(x + k + 8));
    }
    return lanes_finish_f32(l, x, k, n);
}

static double block_f64(const double *x, int64_t n)
{
    lanes16 l = lanes_zero();
    int64_t k = 0;
    for (; k + 16 <= n; k += 16) {
        for (int j = 0; j < 4; j++) {
            l.v[j] = _mm256_add_pd(l.v[j], _mm256_loadu_pd(x + k + 4 * j));
        }
    }
    return lanes_finish_f64(l, x, k, n);
}

/* Two full blocks at once for eight independent chains of additions. */
static void sum_blocks_f32(const float *x, int64_t n, double *values)
{
    const int64_t B = TSR__CPU_SUM_BLOCK;
    int64_t start = 0, b = 0;
    for (; start + 2 * B <= n; start += 2 * B, b += 2) {
        lanes16 l0 = lanes_zero(), l1 = lanes_zero();
        for (int64_t k = 0; k < B; k += 16) {
            const float *p0 = x + start + k, *p1 = x + start + B + k;
            lanes_add_ps(&l0, _mm256_loadu_ps(p0), _mm256_loadu_ps(p0 + 8));
            lanes_add_ps(&l1, _mm256_loadu_ps(p1), _mm256_loadu_ps(p1 + 8));
        }
        values[b] = lanes_fold(l0);
        values[b + 1] = lanes_fold(l1);
    }
    for (; start < n; start += B, b++) {
        values[b] = block_f32(x + start, n - start < B ? n - start : B);
    }
}

static void sum_blocks_f64(const double *x, int64_t n, double *values)
{
    const int64_t B = TSR__CPU_SUM_BLOCK;
    int64_t start = 0, b = 0;
    for (; start + B <= n; start += B, b++) {
        values[b] = block_f64(x + start, B);
    }
    if (start < n) {
        values[b] = block_f64(x + start, n - start);
    }
}

/* ------------------------------------------------------------------------ */
/* softmax and log_softmax rows                                              */
/* ------------------------------------------------------------------------ */

static float max_f32(const float *in, int64_t n)
{
    __m256 vmax = _mm256_set1_ps(-INFINITY);
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) {
        vmax = _mm256_max_ps(vmax, _mm256_loadu_ps(in + i));
    }
    float lanes[8];
    _mm256_storeu_ps(lanes, vmax);
    float max = -INFINITY;
    for (int j = 0; j < 8; j++) {
        max = lanes[j] > max ? lanes[j] : max;
    }
    for (; i < n; i++) {
        max = in[i] > max ? in[i] : max;
    }
    return max;
}

static void softmax_row_f32(float *out, const float *in, int64_t n, int log_form)
{
    float max = max_f32(in, n);
    __m256 vm = _mm256_set1_ps(max);
    lanes16 l = lanes_zero();
    int64_t i = 0;
    for (; i + 16 <= n; i += 16) {
        __m256 e0 = Sleef_expf8_u10avx2(_mm256_sub_ps(_mm256_loadu_ps(in + i), vm));
        __m256 e1 = Sleef_expf8_u10avx2(_mm256_sub_ps(_mm256_loadu_ps(in + i + 8), vm));
        if (!log_form) {
            _mm256_storeu_ps(out + i, e0);
            _mm256_storeu_ps(out + i + 8, e1);
        }
        lanes_add_ps(&l, e0, e1);
    }
    if (i < n) {
        /* The tail through zero-padded vectors; padding lanes drop out. */
        float buffer[16];
        for (int j = 0; j < 16; j++) {
            buffer[j] = i + j < n ? in[i + j] : -INFINITY;
        }
        __m256 e0 = Sleef_expf8_u10avx2(_mm256_sub_ps(_mm256_loadu_ps(buffer), vm));
        __m256 e1 = Sleef_expf8_u10avx2(_mm256_sub_ps(_mm256_loadu_ps(buffer + 8), vm));
        _mm256_storeu_ps(buffer, e0);
        _mm256_storeu_ps(buffer + 8, e1);
        for (int j = 0; j < 16; j++) {
            buffer[j] = i + j < n ? buffer[j] : 0.0f;
            if (!log_form && i + j < n) {
                out[i + j] = buffer[j];
            }
        }
        lanes_add_ps(&l, _mm256_loadu_ps(buffer), _mm256_loadu_ps(buffer + 8));
    }
    double sum = lanes_fold(l);
    if (log_form) {
        float shift = (float)log(sum);
        for (int64_t k = 0; k < n; k++) {
            out[k] = (in[k] - max) - shift;
        }
        return;
    }
    __m256 scale = _mm256_set1_ps((float)(1.0 / sum));
    int64_t k = 0;
    for (; k + 8 <= n; k += 8) {
        _mm256_storeu_ps(out + k, _mm256_mul_ps(_mm256_loadu_ps(out + k), scale));
    }
    for (; k < n; k++) {
        out[k] *= (float)(1.0 / sum);
    }
}

static void softmax_row_f64(double *out, const double *in, int64_t n, int log_form)
{
    double max = -INFINITY;
    for (int64_t i = 0; i < n; i++) {
        max = in[i] > max ? in[i] : max;
    }
    __m256d vm = _mm256_set1_pd(max);
    double lanes[16] = {0};
    lanes16 l = lanes_zero();
    int64_t i = 0;
    for (; i + 16 <= n; i += 16) {
        for (int j = 0; j < 4; j++) {
            __m256d e = Sleef_expd4_u10avx2(_mm256_sub_pd(_mm256_loadu_pd(in + i + 4 * j), vm));
            if (!log_form) {
                _mm256_storeu_pd(out + i + 4 * j, e);
            }
            l.v[j] = _mm256_add_pd(l.v[j], e);
        }
    }
    for (int j = 0; j < 4; j++) {
        _mm256_storeu_pd(lanes + 4 * j, l.v[j]);
    }
    for (; i < n; i += 4) {
        double buffer[4];
        for (int j = 0; j < 4; j++) {
            buffer[j] = i + j < n ? in[i + j] : -INFINITY;
        }
        _mm256_storeu_pd(buffer, Sleef_expd4_u10avx2(_mm256_sub_pd(_mm256_loadu_pd(buffer), vm)));
        for (int j = 0; j < 4 && i + j < n; j++) {
            if (!log_form) {
                out[i + j] = buffer[j];
            }
            lanes[(i + j) % 16] += buffer[j];
        }
    }
    for (int j = 0; j < 4; j++) {
        l.v[j] = _mm256_loadu_pd(lanes + 4 * j);
    }
    double sum = lanes_fold(l);
    if (log_form) {
        double shift = log(sum);
        for (int64_t k = 0; k < n; k++) {
            out[k] = (in[k] - max) - shift;
        }
        return;
    }
    double scale = 1.0 / sum;
    for (int64_t k = 0; k < n; k++) {
        out[k] *= scale;
    }
}

/* ------------------------------------------------------------------------ */
/* layer_norm and rms_norm rows                                              */
/* ------------------------------------------------------------------------ */

static void norm_sums_f32(const float *x, int64_t n, int rms, double *mean_out, double *squares_out)
{
    double mean = 0.0;
    if (!rms) {
        lanes16 l = lanes_zero();
        int64_t k = 0;
        for (; k + 16 <= n; k += 16) {
            lanes_add_ps(&l, _mm256_loadu_ps(x + k), _mm256_loadu_ps(x + k + 8));
        }
        mean = n > 0 ? lanes_finish_f32(l, x, k, n) / (double)n : 0.0;
    }
    __m256d vmean = _mm256_set1_pd(mean);
    lanes16 l = lanes_zero();
    int64_t k = 0;
    for (; k + 16 <= n; k += 16) {
        for (int j = 0; j < 4; j++) {
            __m256d d = _mm256_sub_pd(_mm256_cvtps_pd(_mm_loadu_ps(x + k + 4 * j)), vmean);
            l.v[j] = _mm256_add_pd(l.v[j], _mm256_mul_pd(d, d));
        }
    }
    double lanes[16];
    for (int j = 0; j < 4; j++) {
        _mm256_storeu_pd(lanes + 4 * j, l.v[j]);
    }
    for (; k < n; k++) {
        double d = (double)x[k] - mean;
        lanes[k % 16] += d * d;
    }
    for (int j = 0; j < 4; j++) {
        l.v[j] = _mm256_loadu_pd(lanes + 4 * j);
    }
    *mean_out = mean;
    *squares_out = lanes_fold(l);
}

static void norm_sums_f64(const double *x, int64_t n, int rms, double *mean_out,
                          double *squares_out)
{
    double mean = 0.0;
    if (!rms) {
        lanes16 l = lanes_zero();
        int64_t k = 0;
        for (; k + 16 <= n; k += 16) {
            for (int j = 0; j < 4; j++) {
                l.v[j] = _mm256_add_pd(l.v[j], _mm256_loadu_pd(x + k + 4 * j));
            }
        }
        mean = n > 0 ? lanes_finish_f64(l, x, k, n) / (double)n : 0.0;
    }
    __m256d vmean = _mm256_set1_pd(mean);
    lanes16 l = lanes_zero();
    int64_t k = 0;
    for (; k + 16 <= n; k += 16) {
        for (int j = 0; j < 4; j++) {
            __m256d d = _mm256_sub_pd(_mm256_loadu_pd(x + k + 4 * j), vmean);
            l.v[j] = _mm256_add_pd(l.v[j], _mm256_mul_pd(d, d));
        }
    }
    double lanes[16];
    for (int j = 0; j < 4; j++) {
        _mm256_storeu_pd(lanes + 4 * j, l.v[j]);
    }
    for (; k < n; k++) {
        double d = x[k] - mean;
        lanes[k % 16] += d * d;
    }
    for (int j = 0; j < 4; j++) {
        l.v[j] = _mm256_loadu_pd(lanes + 4 * j);
    }
    *mean_out = mean;
    *squares_out = lanes_fold(l);
}

static void norm_row_f32(float *y, const float *x, int64_t n, const tsr__cpu_norm_row *p,
                         double *mean_out, double *rstd_out)
{
    double mean, squares;
    norm_sums_f32(x, n, p->rms, &mean, &squares);
    const float *w = p->weight, *b = p->bias;
    int64_t i = 0;
    if (p->rms) {
        double rstd = 1.0 / sqrt(squares / (double)n + p->eps);
        __m256d vrstd = _mm256_set1_pd(rstd), zero = _mm256_setzero_pd();
        for (; i + 4 <= n; i += 4) {
            __m256d v = _mm256_mul_pd(_mm256_cvtps_pd(_mm_loadu_ps(x + i)), vrstd);
            if (w != NULL) {
                v = _mm256_add_pd(_mm256_mul_pd(v, _mm256_cvtps_pd(_mm_loadu_ps(w + i))), zero);
            }
            _mm_storeu_ps(y + i, _mm256_cvtpd_ps(v));
        }
        for (; i < n; i++) {
            double v = (double)x[i] * rstd;
            y[i] = (float)(w != NULL ? v * (double)w[i] + 0.0 : v);
        }
        *mean_out = 0.0;
        *rstd_out = rstd;
        return;
    }
    struct tsr__cpu_norm_coefficients c = tsr__cpu_norm_coefficients_f32(mean, squares, n, p->eps);
    __m256 vrstd = _mm256_set1_ps(c.rstd), vshift = _mm256_set1_ps(c.shift);
    for (; i + 8 <= n; i += 8) {
        __m256 v = _mm256_fmadd_ps(_mm256_loadu_ps(x + i), vrstd, vshift);
        if (w != NULL) {
            __m256 bv = b != NULL ? _mm256_loadu_ps(b + i) : _mm256_setzero_ps();
            v = _mm256_fmadd_ps(v, _mm256_loadu_ps(w + i), bv);
        }
        _mm256_storeu_ps(y + i, v);
    }
    for (; i < n; i++) {
        float v = fmaf(x[i], c.rstd, c.shift);
        y[i] = w != NULL ? fmaf(v, w[i], b != NULL ? b[i] : 0.0f) : v;
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
    double shift = -rstd * mean;
    __m256d vrstd = _mm256_set1_pd(rstd), vshift = _mm256_set1_pd(shift);
    const double *w = p->weight, *b = p->bias;
    int64_t i = 0;
    for (; i + 4 <= n; i += 4) {
        __m256d v = _mm256_mul_pd(_mm256_loadu_pd(x + i), vrstd);
        if (!p->rms) {
            v = _mm256_add_pd(v, vshift);
        }
        if (w != NULL) {
            __m256d bv = b != NULL ? _mm256_loadu_pd(b + i) : _mm256_setzero_pd();
            v = _mm256_add_pd(_mm256_mul_pd(v, _mm256_loadu_pd(w + i)), bv);
        }
        _mm256_storeu_pd(y + i, v);
    }
    for (; i < n; i++) {
        double v = p->rms ? x[i] * rstd : x[i] * rstd + shift;
        y[i] = w != NULL ? v * w[i] + (b != NULL ? b[i] : 0.0) : v;
    }
    *mean_out = mean;
    *rstd_out = rstd;
}

static const tsr__cpu_simd avx2_set = {
    .name = "avx2",
    .binary_f32 = binary_f32,
    .binary_f64 = binary_f64,
    .unary_f32 = unary_f32,
    .unary_f64 = unary_f64,
    .sum_blocks_f32 = sum_blocks_f32,
    .sum_blocks_f64 = sum_blocks_f64,
    .softmax_row_f32 = softmax_row_f32,
    .softmax_row_f64 = softmax_row_f64,
    .norm_row_f32 = norm_row_f32,
    .norm_row_f64 = norm_row_f64,
};

const tsr__cpu_simd *tsr__cpu_simd_avx2(void)
{
    return &avx2_set;
}
