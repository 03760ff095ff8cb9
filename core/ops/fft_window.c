/* torch.fft's helpers (fftfreq, rfftfreq, fftshift, ifftshift) and the
 * spectral windows of torch 1.13.
 *
 * Frequencies and windows are computed on the host, step by step as
 * PyTorch's composite computes them, each step rounded to the dtype as its
 * tensor op rounds it (bfloat16 too), then copied onto the backend. The
 * steps' functions (cos, I0) are libm's in double rounded once, where
 * PyTorch's vectorised ones may differ by an ulp. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "autograd/graph.h"
#include "runtime/error.h"
#include "tessera/creation.h"
#include "tessera/fft.h"
#include "tessera/rearrange.h"

static const double TSR_PI = 3.14159265358979323846264338327950288;

/* ---- rounding to the dtype, as each tensor op's store does --------------- */

static float to_bfloat16(float v)
{
    if (isnan(v)) {
        return v;
    }
    uint32_t bits;
    memcpy(&bits, &v, sizeof bits);
    bits += 0x7fffu + ((bits >> 16) & 1u); /* round to nearest, ties to even */
    bits &= 0xffff0000u;
    memcpy(&v, &bits, sizeof v);
    return v;
}

static double round_to(tsr_dtype dtype, double v)
{
    switch (dtype) {
    case TSR_FLOAT32:
        return (float)v;
    case TSR_BFLOAT16:
        return to_bfloat16((float)v);
    default:
        return v;
    }
}

/* The scalar operand of a tensor op: PyTorch converts a double scalar to
 * the tensor's dtype (to bfloat16 too: the windows' steps show it). */
static double scalar_for(tsr_dtype dtype, double v)
{
    return round_to(dtype, v);
}

/* values (n doubles, already rounded to dtype) onto the backend. */
static tsr_status upload(const char *name, const double *values, int64_t n, tsr_dtype dtype,
                         tsr_backend *backend, tsr_tensor **out)
{
    size_t size = dtype == TSR_FLOAT64 ? 8 : dtype == TSR_FLOAT32 ? 4 : 2;
    void *data = malloc((size_t)n * size + 1);
    if (data == NULL) {
        return tsr__set_error(TSR_ERR_OUT_OF_MEMORY, "%s: out of memory", name);
    }
    for (int64_t i = 0; i < n; i++) {
        if (dtype == TSR_FLOAT64) {
            ((double *)data)[i] = values[i];
        } else if (dtype == TSR_FLOAT32) {
            ((float *)data)[i] = (float)values[i];
        } else {
            float f = (float)values[i]; /* exact: already a bfloat16 value */
            uint32_t bits;
            memcpy(&bits, &f, sizeof bits);
            ((uint16_t *)data)[i] = (uint16_t)(bits >> 16);
        }
    }
    tsr_status st = tsr_from_host(data, (size_t)n * size, 1, &n, dtype, backend, out);
    free(data);
    return st;
}

/* ---- frequencies ------------------------------------------------------- */

static tsr_status frequencies(const char *name, int64_t n, double d, bool onesided,
                              tsr_dtype dtype, tsr_backend *backend, tsr_tensor **out)
{
    if (out == NULL) {
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: out must not be NULL", name);
    }
    if (dtype == TSR_DTYPE_INFER) {
        dtype = TSR_FLOAT32;
    }
    if (dtype != TSR_FLOAT16 && dtype != TSR_BFLOAT16 && dtype != TSR_FLOAT32 &&
        dtype != TSR_FLOAT64) {
        return tsr__set_error(TSR_ERR_DTYPE, "%s requires a floating point dtype, got %s", name,
                              tsr_dtype_name(dtype) ? tsr_dtype_name(dtype) : "an invalid one");
    }
    /* C's n / 2 truncates, as PyTorch's: rfftfreq(-1) has one bin. */
    int64_t count = onesided ? n / 2 + 1 : n;
    if (count < 0) {
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                              "%s: Trying to create tensor with negative dimension %lld", name,
                              (long long)count);
    }
    double *values = malloc((size_t)count * sizeof(double) + 1);
    if (values == NULL) {
        return tsr__set_error(TSR_ERR_OUT_OF_MEMORY, "%s: out of memory", name);
    }
    /* Half types compute in float32 (their op math) and round once. */
    tsr_dtype math = dtype == TSR_FLOAT64 ? TSR_FLOAT64 : TSR_FLOAT32;
    double scale = scalar_for(math, 1.0 / ((double)n * d));
    for (int64_t k = 0; k < count; k++) {
        int64_t index = onesided || k < (n + 1) / 2 ? k : k - n;
        values[k] = round_to(math, (double)index * scale);
    }
    tsr_status st;
    if (math == dtype) {
        st = upload(name, values, count, dtype, backend, out);
    } else {
        tsr_tensor *wide = NULL;
        st = upload(name, values, count, math, backend, &wide);
        if (st == TSR_OK) {
            st = tsr_to_dtype(wide, dtype, out);
        }
        tsr_tensor_release(wide);
    }
    free(values);
    return st;
}

tsr_status tsr_fft_fftfreq(int64_t n, double d, tsr_dtype dtype, tsr_backend *backend,
                           tsr_tensor **out)
{
    return frequencies("fft_fftfreq", n, d, false, dtype, backend, out);
}

tsr_status tsr_fft_rfftfreq(int64_t n, double d, tsr_dtype dtype, tsr_backend *backend,
                            tsr_tensor **out)
{
    return frequencies("fft_rfftfreq", n, d, true, dtype, backend, out);
}

/* ---- shifts ------------------------------------------------------------ */

static tsr_status shift(const char *name, const tsr_tensor *t, const int64_t *dims, int ndims,
                        bool inverse, tsr_tensor **out)
{
    if (t == NULL || out == NULL) {
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: input and out must not be NULL",
                              name);
    }
    int64_t all[TSR_MAX_DIMS], shifts[TSR_MAX_DIMS];
    if (dims == NULL) {
        ndims = t->ndim;
        for (int i = 0; i < ndims; i++) {
            all[i] = i;
        }
        dims = all;
    }
    if (ndims < 0 || ndims > TSR_MAX_DIMS) {
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: %d dims is not a valid count", name,
                              ndims);
    }
    for (int i = 0; i < ndims; i++) {
        int64_t d = dims[i] < 0 ? dims[i] + t->ndim : dims[i];
        if (d < 0 || d >= t->ndim) {
            return tsr__set_error(TSR_ERR_INDEX,
                                  "%s: Dimension out of range (expected to be in range of "
                                  "[%d, %d], but got %lld)",
                                  name, -t->ndim, t->ndim - 1, (long long)dims[i]);
        }
        shifts[i] = inverse ? (t->shape[d] + 1) / 2 : t->shape[d] / 2;
    }
    return tsr_roll(t, shifts, ndims, dims, ndims, out);
}

tsr_status tsr_fft_fftshift(const tsr_tensor *t, const int64_t *dims, int ndims, tsr_tensor **out)
{
    return shift("fft_fftshift", t, dims, ndims, false, out);
}

tsr_status tsr_fft_ifftshift(const tsr_tensor *t, const int64_t *dims, int ndims,
                             tsr_tensor **out)
{
    return shift("fft_ifftshift", t, dims, ndims, true, out);
}

/* ---- windows ----------------------------------------------------------- */

typedef enum window_kind { HAMMING, BLACKMAN, BARTLETT, KAISER } window_kind;

typedef struct window_spec {
    const char *name;
    window_kind kind;
    double alpha, beta; /* hamming's; kaiser's beta */
} window_spec;

/* The modified Bessel function I0, by its power series (every term
 * positive, so it converges without cancellation for the betas of
 * windows). */
static double bessel_i0(double x)
{
    double term = 1.0, sum = 1.0, q = x * x / 4.0;
    for (int k = 1; k < 500 && term > sum * 1e-17; k++) {
        term *= q / ((double)k * (double)k);
        sum += term;
    }
    return sum;
}

/* Point k of the window of N points (N >= 2), rounded per step. */
static double window_point(const window_spec *w, tsr_dtype t, int64_t k, int64_t N)
{
    double x = (double)k; /* arange: exact in float32/float64, rounded in bfloat16 */
    x = round_to(t, x);
    switch (w->kind) {
    case HAMMING: {
        double v = round_to(t, x * scalar_for(t, 2.0 * TSR_PI / (double)(N - 1)));
        v = round_to(t, cos(v));
        v = round_to(t, v * scalar_for(t, -w->beta));
        return round_to(t, v + scalar_for(t, w->alpha));
    }
    case BLACKMAN: {
        double v = round_to(t, x * scalar_for(t, TSR_PI / (double)(N - 1)));
        double c4 = round_to(t, round_to(t, cos(round_to(t, v * 4.0))) * scalar_for(t, 0.08));
        double c2 = round_to(t, round_to(t, cos(round_to(t, v * 2.0))) * scalar_for(t, 0.5));
        return round_to(t, round_to(t, c4 - c2) + scalar_for(t, 0.42));
    }
    case BARTLETT: {
        double v = round_to(t, x * scalar_for(t, 2.0 / (double)(N - 1)));
        int64_t first_half = ((N - 1) >> 1) + 1;
        return k < first_half ? v : round_to(t, -v + 2.0);
    }
    case KAISER: {
        /* One fused step, each operation rounded to the dtype (as PyTorch
         * 1.13's kernel computes bfloat16 too). */
        tsr_dtype m = t;
        double a = round_to(m, (double)(N - 1) / 2.0), beta = round_to(m, w->beta);
        double r = round_to(m, (x - a) / a);
        double arg = round_to(m, beta * round_to(m, sqrt(round_to(m, 1.0 - round_to(m, r * r)))));
        return round_to(t, round_to(m, bessel_i0(arg)) / round_to(m, bessel_i0(beta)));
    }
    }
    return 0.0;
}

static tsr_status window(const window_spec *w, int64_t length, bool periodic, tsr_dtype dtype,
                         tsr_backend *backend, tsr_tensor **out)
{
    const char *name = w->name;
    if (out == NULL) {
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: out must not be NULL", name);
    }
    if (dtype == TSR_DTYPE_INFER) {
        dtype = TSR_FLOAT32;
    }
    if (dtype != TSR_FLOAT32 && dtype != TSR_FLOAT64 && dtype != TSR_BFLOAT16) {
        return tsr__set_error(TSR_ERR_DTYPE,
                              "%s expects float32, float64 or bfloat16 (PyTorch's CPU "
                              "dtypes), got %s",
                              name, tsr_dtype_name(dtype) ? tsr_dtype_name(dtype) : "invalid");
    }
    if (length < 0) {
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                              "%s requires non-negative window_length, got window_length=%lld",
                              name, (long long)length);
    }
    double *values = malloc((size_t)length * sizeof(double) + 1);
    if (values == NULL) {
        return tsr__set_error(TSR_ERR_OUT_OF_MEMORY, "%s: out of memory", name);
    }
    int64_t N = periodic ? length + 1 : length;
    for (int64_t k = 0; k < length; k++) {
        values[k] = length == 1 ? 1.0 : window_point(w, dtype, k, N);
    }
    tsr_status st = upload(name, values, length, dtype, backend, out);
    free(values);
    return st;
}

tsr_status tsr_hamming_window(int64_t window_length, bool periodic, double alpha, double beta,
                              tsr_dtype dtype, tsr_backend *backend, tsr_tensor **out)
{
    window_spec w = {"hamming_window", HAMMING, alpha, beta};
    return window(&w, window_length, periodic, dtype, backend, out);
}

tsr_status tsr_hann_window(int64_t window_length, bool periodic, tsr_dtype dtype,
                           tsr_backend *backend, tsr_tensor **out)
{
    window_spec w = {"hann_window", HAMMING, 0.5, 0.5};
    return window(&w, window_length, periodic, dtype, backend, out);
}

tsr_status tsr_blackman_window(int64_t window_length, bool periodic, tsr_dtype dtype,
                               tsr_backend *backend, tsr_tensor **out)
{
    window_spec w = {"blackman_window", BLACKMAN, 0.0, 0.0};
    return window(&w, window_length, periodic, dtype, backend, out);
}

tsr_status tsr_bartlett_window(int64_t window_length, bool periodic, tsr_dtype dtype,
                               tsr_backend *backend, tsr_tensor **out)
{
    window_spec w = {"bartlett_window", BARTLETT, 0.0, 0.0};
    return window(&w, window_length, periodic, dtype, backend, out);
}

tsr_status tsr_kaiser_window(int64_t window_length, bool periodic, double beta, tsr_dtype dtype,
                             tsr_backend *backend, tsr_tensor **out)
{
    window_spec w = {"kaiser_window", KAISER, 0.0, beta};
    return window(&w, window_length, periodic, dtype, backend, out);
}
