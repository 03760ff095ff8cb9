/* The AVX2 + FMA set's row kernels: softmax and log_softmax, logsumexp,
 * layer_norm and rms_norm, one contiguous row at a time (see cpu_simd.h for
 * what each computes). Compiled with -mavx2 -mfma, called only when CPUID
 * reports them. */
#include <immintrin.h>
#include <math.h>
#include <stddef.h>

#include <sleef.h>

#include "cpu_simd.h"
#include "simd_avx2.h"

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

void tsr__cpu_avx2_softmax_row_f32(float *out, const float *in, int64_t n, int log_form)
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

void tsr__cpu_avx2_softmax_row_f64(double *out, const double *in, int64_t n, int log_form)
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
/* logsumexp rows                                                            */
/* ------------------------------------------------------------------------ */

/* Adds exp(term - shift) of 16 widened terms, term j into lane j. */
ALWAYS_INLINE void lanes_add_exp(lanes16 *l, const double *terms, __m256d shift)
{
    for (int j = 0; j < 4; j++) {
        __m256d e = Sleef_expd4_u10avx2(_mm256_sub_pd(_mm256_loadu_pd(terms + 4 * j), shift));
        l->v[j] = _mm256_add_pd(l->v[j], e);
    }
}

double tsr__cpu_avx2_logsumexp_row_f32(const float *x, int64_t n)
{
    float max = max_f32(x, n);
    double shift = isinf(max) ? 0.0 : (double)max;
    __m256d vshift = _mm256_set1_pd(shift);
    lanes16 l = lanes_zero();
    for (int64_t i = 0; i < n; i += 16) {
        double terms[16];
        int64_t count = n - i < 16 ? n - i : 16;
        for (int j = 0; j < 16; j++) {
            /* Padding is -inf: exp gives +0, which changes no lane. */
            terms[j] = j < count ? (double)x[i + j] : -INFINITY;
        }
        lanes_add_exp(&l, terms, vshift);
    }
    return log(lanes_fold(l)) + shift;
}

double tsr__cpu_avx2_logsumexp_row_f64(const double *x, int64_t n)
{
    double max = -INFINITY;
    for (int64_t i = 0; i < n; i++) {
        max = x[i] > max ? x[i] : max;
    }
    double shift = isinf(max) ? 0.0 : max;
    __m256d vshift = _mm256_set1_pd(shift);
    lanes16 l = lanes_zero();
    for (int64_t i = 0; i < n; i += 16) {
        double terms[16];
        int64_t count = n - i < 16 ? n - i : 16;
        for (int j = 0; j < 16; j++) {
            terms[j] = j < count ? x[i + j] : -INFINITY;
        }
        lanes_add_exp(&l, terms, vshift);
    }
    return log(lanes_fold(l)) + shift;
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

void tsr__cpu_avx2_norm_row_f32(float *y, const float *x, int64_t n, const tsr__cpu_norm_row *p,
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

void tsr__cpu_avx2_norm_row_f64(double *y, const double *x, int64_t n, const tsr__cpu_norm_row *p,
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
