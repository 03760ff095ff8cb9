/* The generic SIMD set: plain C the compiler may vectorise for the baseline
 * target, and SLEEF's scalar functions. Runs on any host, and defines the
 * results the other sets must reproduce (bit for bit for arithmetic and
 * sums). */
#include <math.h>
#include <stddef.h>

#include <sleef.h>

#include "cpu_simd.h"

/* ------------------------------------------------------------------------ */
/* Binary                                                                    */
/* ------------------------------------------------------------------------ */

static inline float binary_one_f32(int op, float x, float y, float alpha)
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

static inline double binary_one_f64(int op, double x, double y, double alpha)
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

static void binary_f32(int op, float *out, const float *a, int64_t a_step, const float *b,
                       int64_t b_step, int64_t n, float alpha)
{
    for (int64_t i = 0; i < n; i++) {
        out[i] = binary_one_f32(op, a[i * a_step], b[i * b_step], alpha);
    }
}

static void binary_f64(int op, double *out, const double *a, int64_t a_step, const double *b,
                       int64_t b_step, int64_t n, double alpha)
{
    for (int64_t i = 0; i < n; i++) {
        out[i] = binary_one_f64(op, a[i * a_step], b[i * b_step], alpha);
    }
}

/* ------------------------------------------------------------------------ */
/* Unary                                                                     */
/* ------------------------------------------------------------------------ */

static const float SQRT1_2F = 0.70710678118654752440f;
static const float SQRT_2_OVER_PI_F = 0.79788456080286535588f;
static const double SQRT1_2 = 0.70710678118654752440;
static const double SQRT_2_OVER_PI = 0.79788456080286535588;

static float unary_one_f32(int op, float x)
{
    switch (op) {
    case TSR__CPU_UN_EXP:
        return Sleef_expf_u10(x);
    case TSR__CPU_UN_LOG:
        return Sleef_logf_u10(x);
    case TSR__CPU_UN_TANH:
        return Sleef_tanhf_u10(x);
    case TSR__CPU_UN_SIGMOID:
        return 1.0f / (1.0f + Sleef_expf_u10(-x));
    case TSR__CPU_UN_ERF:
        return Sleef_erff_u10(x);
    case TSR__CPU_UN_GELU:
        return 0.5f * x * Sleef_erfcf_u15(-x * SQRT1_2F);
    case TSR__CPU_UN_GELU_TANH: {
        float inner = SQRT_2_OVER_PI_F * (x + 0.044715f * x * x * x);
        return 0.5f * x * (1.0f + Sleef_tanhf_u10(inner));
    }
    case TSR__CPU_UN_SQRT:
        return sqrtf(x);
    case TSR__CPU_UN_NEG:
        return -x;
    case TSR__CPU_UN_SIN:
        return Sleef_sinf_u10(x);
    case TSR__CPU_UN_COS:
        return Sleef_cosf_u10(x);
    case TSR__CPU_UN_EXPM1:
        return Sleef_expm1f_u10(x);
    case TSR__CPU_UN_LOG1P:
        return Sleef_log1pf_u10(x);
    default: /* silu */
        return x / (1.0f + Sleef_expf_u10(-x));
    }
}

static double unary_one_f64(int op, double x)
{
    switch (op) {
    case TSR__CPU_UN_EXP:
        return Sleef_exp_u10(x);
    case TSR__CPU_UN_LOG:
        return Sleef_log_u10(x);
    case TSR__CPU_UN_TANH:
        return Sleef_tanh_u10(x);
    case TSR__CPU_UN_SIGMOID:
        return 1.0 / (1.0 + Sleef_exp_u10(-x));
    case TSR__CPU_UN_ERF:
        return Sleef_erf_u10(x);
    case TSR__CPU_UN_GELU:
        return 0.5 * x * Sleef_erfc_u15(-x * SQRT1_2);
    case TSR__CPU_UN_GELU_TANH: {
        double inner = SQRT_2_OVER_PI * (x + 0.044715 * x * x * x);
        return 0.5 * x * (1.0 + Sleef_tanh_u10(inner));
    }
    case TSR__CPU_UN_SQRT:
        return sqrt(x);
    case TSR__CPU_UN_NEG:
        return -x;
    case TSR__CPU_UN_SIN:
        return Sleef_sin_u10(x);
    case TSR__CPU_UN_COS:
        return Sleef_cos_u10(x);
    case TSR__CPU_UN_EXPM1:
        return Sleef_expm1_u10(x);
    case TSR__CPU_UN_LOG1P:
        return Sleef_log1p_u10(x);
    default: /* silu */
        return x / (1.0 + Sleef_exp_u10(-x));
    }
}

static void unary_f32(int op, float *out, const float *in, int64_t n)
{
    for (int64_t i = 0; i < n; i++) {
        out[i] = unary_one_f32(op, in[i]);
    }
}

static void unary_f64(int op, double *out, const double *in, int64_t n)
{
    for (int64_t i = 0; i < n; i++) {
        out[i] = unary_one_f64(op, in[i]);
    }
}

/* ------------------------------------------------------------------------ */
/* Sums in lane order                                                        */
/* ------------------------------------------------------------------------ */

/* Lane i takes lane i + w for w = 8, 4, 2, 1. */
static double fold_lanes(double *lanes)
{
    for (int w = TSR__CPU_SUM_LANES / 2; w >= 1; w /= 2) {
        for (int i = 0; i < w; i++) {
            lanes[i] = lanes[i] + lanes[i + w];
        }
    }
    return lanes[0];
}

static void sum_blocks_f32(const float *x, int64_t n, double *values)
{
    for (int64_t start = 0, b = 0; start < n; start += TSR__CPU_SUM_BLOCK, b++) {
        int64_t end = n - start < TSR__CPU_SUM_BLOCK ? n : start + TSR__CPU_SUM_BLOCK;
        double lanes[TSR__CPU_SUM_LANES] = {0};
        for (int64_t k = start; k < end; k++) {
            lanes[(k - start) % TSR__CPU_SUM_LANES] += (double)x[k];
        }
        values[b] = fold_lanes(lanes);
    }
}

static void sum_blocks_f64(const double *x, int64_t n, double *values)
{
    for (int64_t start = 0, b = 0; start < n; start += TSR__CPU_SUM_BLOCK, b++) {
        int64_t end = n - start < TSR__CPU_SUM_BLOCK ? n : start + TSR__CPU_SUM_BLOCK;
        double lanes[TSR__CPU_SUM_LANES] = {0};
        for (int64_t k = start; k < end; k++) {
            lanes[(k - start) % TSR__CPU_SUM_LANES] += x[k];
        }
        values[b] = fold_lanes(lanes);
    }
}

/* ------------------------------------------------------------------------ */
/* softmax and log_softmax rows                                              */
/* ------------------------------------------------------------------------ */

/* Row statistics are summed in 16 double lanes (element i into lane i % 16,
 * lanes folded as in sum_blocks) without blocks: the SIMD sets keep the same
 * lanes, so normalisation results agree bit for bit between sets. */

/* NaN anywhere makes the sum NaN, so a max that skipped it is harmless. */
static void softmax_row_f32(float *out, const float *in, int64_t n, int log_form)
{
    float max = -INFINITY;
    for (int64_t i = 0; i < n; i++) {
        max = in[i] > max ? in[i] : max;
    }
    double lanes[TSR__CPU_SUM_LANES] = {0};
    for (int64_t i = 0; i < n; i++) {
        float e = Sleef_expf_u10(in[i] - max);
        if (!log_form) {
            out[i] = e;
        }
        lanes[i % TSR__CPU_SUM_LANES] += (double)e;
    }
    double sum = fold_lanes(lanes);
    if (log_form) {
        float shift = (float)log(sum);
        for (int64_t i = 0; i < n; i++) {
            out[i] = (in[i] - max) - shift;
        }
        return;
    }
    float scale = (float)(1.0 / sum);
    for (int64_t i = 0; i < n; i++) {
        out[i] *= scale;
    }
}

static void softmax_row_f64(double *out, const double *in, int64_t n, int log_form)
{
    double max = -INFINITY;
    for (int64_t i = 0; i < n; i++) {
        max = in[i] > max ? in[i] : max;
    }
    double lanes[TSR__CPU_SUM_LANES] = {0};
    for (int64_t i = 0; i < n; i++) {
        double e = Sleef_exp_u10(in[i] - max);
        if (!log_form) {
            out[i] = e;
        }
        lanes[i % TSR__CPU_SUM_LANES] += e;
    }
    double sum = fold_lanes(lanes);
    if (log_form) {
        double shift = log(sum);
        for (int64_t i = 0; i < n; i++) {
            out[i] = (in[i] - max) - shift;
        }
        return;
    }
    double scale = 1.0 / sum;
    for (int64_t i = 0; i < n; i++) {
        out[i] *= scale;
    }
}

/* ------------------------------------------------------------------------ */
/* logsumexp rows                                                            */
/* ------------------------------------------------------------------------ */

static double logsumexp_shift(double max)
{
    return isinf(max) ? 0.0 : max;
}

static double logsumexp_row_f32(const float *x, int64_t n)
{
    float max = -INFINITY;
    for (int64_t i = 0; i < n; i++) {
        max = x[i] > max ? x[i] : max;
    }
    double shift = logsumexp_shift(max);
    double lanes[TSR__CPU_SUM_LANES] = {0};
    for (int64_t i = 0; i < n; i++) {
        lanes[i % TSR__CPU_SUM_LANES] += Sleef_exp_u10((double)x[i] - shift);
    }
    return log(fold_lanes(lanes)) + shift;
}

static double logsumexp_row_f64(const double *x, int64_t n)
{
    double max = -INFINITY;
    for (int64_t i = 0; i < n; i++) {
        max = x[i] > max ? x[i] : max;
    }
    double shift = logsumexp_shift(max);
    double lanes[TSR__CPU_SUM_LANES] = {0};
    for (int64_t i = 0; i < n; i++) {
        lanes[i % TSR__CPU_SUM_LANES] += Sleef_exp_u10(x[i] - shift);
    }
    return log(fold_lanes(lanes)) + shift;
}

/* ------------------------------------------------------------------------ */
/* layer_norm and rms_norm rows                                              */
/* ------------------------------------------------------------------------ */

/* The mean, then the sum of squared deviations from it (of squares for
 * rms_norm), both in double: two passes over a row that stays in cache, no
 * cancellation. */
static void norm_sums_f32(const float *x, int64_t n, int rms, double *mean_out, double *squares_out)
{
    double mean = 0.0;
    double lanes[TSR__CPU_SUM_LANES] = {0};
    if (!rms) {
        for (int64_t i = 0; i < n; i++) {
            lanes[i % TSR__CPU_SUM_LANES] += (double)x[i];
        }
        mean = n > 0 ? fold_lanes(lanes) / (double)n : 0.0; /* PyTorch: 0 for no terms */
    }
    double squares[TSR__CPU_SUM_LANES] = {0};
    for (int64_t i = 0; i < n; i++) {
        double d = (double)x[i] - mean;
        squares[i % TSR__CPU_SUM_LANES] += d * d;
    }
    *mean_out = mean;
    *squares_out = fold_lanes(squares);
}

static void norm_sums_f64(const double *x, int64_t n, int rms, double *mean_out,
                          double *squares_out)
{
    double mean = 0.0;
    double lanes[TSR__CPU_SUM_LANES] = {0};
    if (!rms) {
        for (int64_t i = 0; i < n; i++) {
            lanes[i % TSR__CPU_SUM_LANES] += x[i];
        }
        mean = n > 0 ? fold_lanes(lanes) / (double)n : 0.0;
    }
    double squares[TSR__CPU_SUM_LANES] = {0};
    for (int64_t i = 0; i < n; i++) {
        double d = x[i] - mean;
        squares[i % TSR__CPU_SUM_LANES] += d * d;
    }
    *mean_out = mean;
    *squares_out = fold_lanes(squares);
}

static void norm_row_f32(float *y, const float *x, int64_t n, const tsr__cpu_norm_row *p,
                         double *mean_out, double *rstd_out)
{
    double mean, squares;
    norm_sums_f32(x, n, p->rms, &mean, &squares);
    const float *w = p->weight, *b = p->bias;
    if (p->rms) {
        double rstd = 1.0 / sqrt(squares / (double)n + p->eps);
        for (int64_t i = 0; i < n; i++) {
            double v = (double)x[i] * rstd;
            y[i] = (float)(w != NULL ? v * (double)w[i] + 0.0 : v);
        }
        *mean_out = 0.0;
        *rstd_out = rstd;
        return;
    }
    struct tsr__cpu_norm_coefficients c = tsr__cpu_norm_coefficients_f32(mean, squares, n, p->eps);
    for (int64_t i = 0; i < n; i++) {
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
    const double *w = p->weight, *b = p->bias;
    for (int64_t i = 0; i < n; i++) {
        double v = p->rms ? x[i] * rstd : x[i] * rstd + shift;
        y[i] = w != NULL ? v * w[i] + (b != NULL ? b[i] : 0.0) : v;
    }
    *mean_out = mean;
    *rstd_out = rstd;
}

static const tsr__cpu_simd generic_set = {
    .name = "generic",
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

const tsr__cpu_simd *tsr__cpu_simd_generic(void)
{
    return &generic_set;
}
