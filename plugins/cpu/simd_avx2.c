/* The AVX2 + FMA set: elementwise rows and sums, and the set's table. This
 * file and simd_avx2_rows.c are compiled with -mavx2 -mfma and called only
 * when CPUID reports them. Tails go through a zero-padded vector (unary
 * functions, so every element sees the same SLEEF code) or scalar code that
 * rounds as the vector code does (binary ops). Sums keep the generic set's
 * 16 lanes as four vectors of 4 doubles and fold them in its order. */
#include <immintrin.h>
#include <math.h>
#include <stddef.h>
#include <string.h>

#include <sleef.h>

#include "cpu_simd.h"
#include "simd_avx2.h"

static const float SQRT1_2F = 0.70710678118654752440f;
static const float SQRT_2_OVER_PI_F = 0.79788456080286535588f;
static const double SQRT1_2 = 0.70710678118654752440;
static const double SQRT_2_OVER_PI = 0.79788456080286535588;

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
        return _mm256_mul_ps(_mm256_mul_ps(half, x), Sleef_erfcf8_u15avx2(_mm256_mul_ps(
                                                         minus_x, _mm256_set1_ps(SQRT1_2F))));
    case TSR__CPU_UN_GELU_TANH: {
        __m256 cube =
            _mm256_mul_ps(_mm256_mul_ps(_mm256_mul_ps(_mm256_set1_ps(0.044715f), x), x), x);
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
        __m256d cube =
            _mm256_mul_pd(_mm256_mul_pd(_mm256_mul_pd(_mm256_set1_pd(0.044715), x), x), x);
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

#include "simd_unary_dispatch.h"

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

/* One block after the other: one sequential stream for the prefetchers. */
static void sum_blocks_f32(const float *x, int64_t n, double *values)
{
    const int64_t B = TSR__CPU_SUM_BLOCK;
    int64_t start = 0, b = 0;
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

static const tsr__cpu_simd avx2_set = {
    .name = "avx2",
    .binary_f32 = binary_f32,
    .binary_f64 = binary_f64,
    .unary_f32 = unary_f32,
    .unary_f64 = unary_f64,
    .sum_blocks_f32 = sum_blocks_f32,
    .sum_blocks_f64 = sum_blocks_f64,
    .softmax_row_f32 = tsr__cpu_avx2_softmax_row_f32,
    .softmax_row_f64 = tsr__cpu_avx2_softmax_row_f64,
    .logsumexp_row_f32 = tsr__cpu_avx2_logsumexp_row_f32,
    .logsumexp_row_f64 = tsr__cpu_avx2_logsumexp_row_f64,
    .norm_row_f32 = tsr__cpu_avx2_norm_row_f32,
    .norm_row_f64 = tsr__cpu_avx2_norm_row_f64,
};

const tsr__cpu_simd *tsr__cpu_simd_avx2(void)
{
    return &avx2_set;
}
