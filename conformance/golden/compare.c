/* Element-wise comparison of results with expected values. */
#include "golden/compare.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

conf_tolerance conf_tolerance_default(tsr_dtype dtype)
{
    switch (dtype) {
    case TSR_FLOAT16:
        return (conf_tolerance){1e-3, 1e-3, false};
    case TSR_BFLOAT16:
        return (conf_tolerance){1e-2, 1e-2, false};
    case TSR_FLOAT32:
    case TSR_COMPLEX64:
        return (conf_tolerance){1.3e-6, 1e-5, false};
    case TSR_FLOAT64:
    case TSR_COMPLEX128:
        return (conf_tolerance){1e-7, 1e-7, false};
    default:
        return (conf_tolerance){0, 0, false};
    }
}

void conf_format_shape(int ndim, const int64_t *shape, char *out, size_t capacity)
{
    size_t n = (size_t)snprintf(out, capacity, "[");
    for (int i = 0; i < ndim && n < capacity; i++)
        n += (size_t)snprintf(out + n, capacity - n, i ? ", %lld" : "%lld", (long long)shape[i]);
    if (n < capacity)
        snprintf(out + n, capacity - n, "]");
}

double conf_half_to_double(uint16_t bits)
{
    int sign = bits >> 15, exponent = (bits >> 10) & 0x1f, mantissa = bits & 0x3ff;
    double v;
    if (exponent == 0)
        v = ldexp(mantissa, -24);
    else if (exponent == 31)
        v = mantissa ? NAN : INFINITY;
    else
        v = ldexp(mantissa | 0x400, exponent - 25);
    return sign ? -v : v;
}

double conf_bfloat16_to_double(uint16_t bits)
{
    uint32_t word = (uint32_t)bits << 16;
    float f;
    memcpy(&f, &word, sizeof f);
    return f;
}

/* ------------------------------------------------------------------------ */
/* One component (a real element, or the real or imaginary part of one)     */
/* ------------------------------------------------------------------------ */

typedef struct component {
    bool is_float;
    int64_t i;
    double f;
} component;

static tsr_dtype component_dtype(tsr_dtype dtype)
{
    return dtype == TSR_COMPLEX64 ? TSR_FLOAT32 : dtype == TSR_COMPLEX128 ? TSR_FLOAT64 : dtype;
}

static component read_component(tsr_dtype dtype, const unsigned char *p)
{
    component c = {false, 0, 0};
    uint16_t u16;
    float f32;
    switch (dtype) {
    case TSR_BOOL:
        c.i = p[0] != 0;
        break;
    case TSR_UINT8:
        c.i = p[0];
        break;
    case TSR_INT8:
        c.i = (int8_t)p[0];
        break;
    case TSR_INT16: {
        int16_t v;
        memcpy(&v, p, 2);
        c.i = v;
        break;
    }
    case TSR_INT32: {
        int32_t v;
        memcpy(&v, p, 4);
        c.i = v;
        break;
    }
    case TSR_INT64:
        memcpy(&c.i, p, 8);
        break;
    case TSR_FLOAT16:
        memcpy(&u16, p, 2);
        c.f = conf_half_to_double(u16);
        c.is_float = true;
        break;
    case TSR_BFLOAT16:
        memcpy(&u16, p, 2);
        c.f = conf_bfloat16_to_double(u16);
        c.is_float = true;
        break;
    case TSR_FLOAT32:
        memcpy(&f32, p, 4);
        c.f = f32;
        c.is_float = true;
        break;
    default:
        memcpy(&c.f, p, 8);
        c.is_float = true;
        break;
    }
    return c;
}

/* What a finite float element may differ by: the case tolerance, or the
 * extra bound where one is given (it never narrows the case tolerance). */
static double allowance(double e, const conf_tolerance *tol, double bound)
{
    double relative = tol->rtol * fabs(e);
    if (isfinite(bound) && bound > relative)
        relative = bound;
    return tol->atol + relative;
}

static bool float_close(double a, double e, const conf_tolerance *tol, double bound)
{
    if (isnan(a) || isnan(e))
        return isnan(a) && isnan(e);
    if (isinf(a) || isinf(e))
        return a == e;
    if (a == 0 && e == 0)
        return !tol->signed_zeros || signbit(a) == signbit(e);
    return fabs(a - e) <= allowance(e, tol, bound);
}

static bool component_equal(component a, component e, const conf_tolerance *tol, double bound)
{
    return a.is_float ? float_close(a.f, e.f, tol, bound) : a.i == e.i;
}

static void format_component(tsr_dtype dtype, component c, char *out, size_t capacity)
{
    if (dtype == TSR_BOOL)
        snprintf(out, capacity, "%s", c.i ? "true" : "false");
    else if (!c.is_float)
        snprintf(out, capacity, "%lld", (long long)c.i);
    else if (c.f == 0)
        snprintf(out, capacity, signbit(c.f) ? "-0" : "0");
    else
        snprintf(out, capacity, dtype == TSR_FLOAT64 ? "%.17g" : "%.9g", c.f);
}

/* ------------------------------------------------------------------------ */
/* Arrays                                                                    */
/* ------------------------------------------------------------------------ */

static void format_index(int ndim, const int64_t *shape, int64_t flat, char *out, size_t cap)
{
    int64_t index[TSR_MAX_DIMS];
    for (int d = ndim - 1; d >= 0; d--) {
        index[d] = shape[d] ? flat % shape[d] : 0;
        flat = shape[d] ? flat / shape[d] : 0;
    }
    conf_format_shape(ndim, index, out, cap);
}

/* "got X, expected Y, difference D (allowed A)" for the first mismatch. */
static void describe_mismatch(tsr_dtype dtype, component a, component e, const conf_tolerance *tol,
                              double bound, char *out, size_t capacity)
{
    char got[64], want[64];
    format_component(dtype, a, got, sizeof got);
    format_component(dtype, e, want, sizeof want);
    int n = snprintf(out, capacity, "got %s, expected %s", got, want);
    if (n < 0 || (size_t)n >= capacity)
        return;
    int64_t diff;
    if (!a.is_float && !__builtin_sub_overflow(a.i, e.i, &diff))
        snprintf(out + n, capacity - (size_t)n, ", difference %lld", (long long)diff);
    else if (a.is_float && isfinite(a.f) && isfinite(e.f) && (a.f != 0 || e.f != 0))
        snprintf(out + n, capacity - (size_t)n, ", difference %.3g (allowed %.3g)", a.f - e.f,
                 allowance(e.f, tol, bound));
    else if (a.is_float && a.f == 0 && e.f == 0)
        snprintf(out + n, capacity - (size_t)n, " (the case compares signed zeros)");
}

conf_compare_status conf_compare_host(tsr_dtype dtype, int ndim, const int64_t *shape,
                                      const void *actual, const void *expected,
                                      const conf_tolerance *tol, char *message, size_t capacity)
{
    return conf_compare_host_bounded(dtype, ndim, shape, actual, expected, tol, NULL, message,
                                     capacity);
}

conf_compare_status conf_compare_host_bounded(tsr_dtype dtype, int ndim, const int64_t *shape,
                                              const void *actual, const void *expected,
                                              const conf_tolerance *tol, const double *bound,
                                              char *message, size_t capacity)
{
    int64_t numel = 1;
    for (int d = 0; d < ndim; d++)
        numel *= shape[d];
    tsr_dtype part_dtype = component_dtype(dtype);
    int parts = part_dtype == dtype ? 1 : 2;
    size_t part_size = tsr_dtype_size(part_dtype);
    const unsigned char *a = actual, *e = expected;
    int64_t mismatches = 0, first = -1;
    int first_part = 0;
    for (int64_t i = 0; i < numel; i++) {
        bool differs = false;
        for (int p = 0; p < parts; p++) {
            size_t at = ((size_t)i * (size_t)parts + (size_t)p) * part_size;
            if (component_equal(read_component(part_dtype, a + at),
                                read_component(part_dtype, e + at), tol, bound ? bound[i] : NAN))
                continue;
            if (first < 0) {
                first = i;
                first_part = p;
            }
            differs = true;
        }
        mismatches += differs;
    }
    if (mismatches == 0)
        return CONF_COMPARE_EQUAL;
    char index[256], detail[256];
    format_index(ndim, shape, first, index, sizeof index);
    size_t at = ((size_t)first * (size_t)parts + (size_t)first_part) * part_size;
    describe_mismatch(part_dtype, read_component(part_dtype, a + at),
                      read_component(part_dtype, e + at), tol, bound ? bound[first] : NAN, detail,
                      sizeof detail);
    snprintf(message, capacity, "%lld of %lld elements differ; first at %s%s: %s",
             (long long)mismatches, (long long)numel, index,
             parts == 1   ? ""
             : first_part ? " (imaginary part)"
                          : " (real part)",
             detail);
    return CONF_COMPARE_DIFFERENT;
}

static bool same_shape(const tsr_tensor *a, const tsr_tensor *b)
{
    int n = tsr_tensor_ndim(a);
    return n == tsr_tensor_ndim(b) && (n == 0 || memcmp(tsr_tensor_shape(a), tsr_tensor_shape(b),
                                                        sizeof(int64_t) * (size_t)n) == 0);
}

/* Copies a tensor's elements to a new host buffer (NULL after a message,
 * with *status saying why). */
static void *download(const tsr_tensor *t, const char *which, int *status, char *message,
                      size_t capacity)
{
    size_t bytes = (size_t)tsr_tensor_numel(t) * tsr_dtype_size(tsr_tensor_dtype(t));
    void *buf = malloc(bytes ? bytes : 1);
    int st = buf ? tsr_to_host(t, buf, bytes) : TSR_ERR_OUT_OF_MEMORY;
    *status = st;
    if (st != TSR_OK) {
        snprintf(message, capacity, "cannot read the %s values back: %s: %s", which,
                 tsr_status_name(st), buf ? tsr_last_error() : "out of memory");
        free(buf);
        return NULL;
    }
    return buf;
}

conf_compare_status conf_compare_tensors(const tsr_tensor *actual, const tsr_tensor *expected,
                                         const conf_tolerance *tol, char *message, size_t capacity)
{
    return conf_compare_tensors_bounded(actual, expected, tol, NULL, message, capacity);
}

conf_compare_status conf_compare_tensors_bounded(const tsr_tensor *actual,
                                                 const tsr_tensor *expected,
                                                 const conf_tolerance *tol, const double *bound,
                                                 char *message, size_t capacity)
{
    tsr_dtype dtype = tsr_tensor_dtype(actual);
    if (dtype != tsr_tensor_dtype(expected)) {
        snprintf(message, capacity, "dtype %s, expected %s", tsr_dtype_name(dtype),
                 tsr_dtype_name(tsr_tensor_dtype(expected)));
        return CONF_COMPARE_DIFFERENT;
    }
    if (!same_shape(actual, expected)) {
        char got[256], want[256];
        conf_format_shape(tsr_tensor_ndim(actual), tsr_tensor_shape(actual), got, sizeof got);
        conf_format_shape(tsr_tensor_ndim(expected), tsr_tensor_shape(expected), want, sizeof want);
        snprintf(message, capacity, "shape %s, expected %s", got, want);
        return CONF_COMPARE_DIFFERENT;
    }
    int read = TSR_OK;
    void *a = download(actual, "result's", &read, message, capacity);
    void *e = a ? download(expected, "expected", &read, message, capacity) : NULL;
    conf_compare_status st =
        read == TSR_ERR_UNIMPLEMENTED ? CONF_COMPARE_UNCLAIMED : CONF_COMPARE_ERROR;
    if (a && e)
        st = conf_compare_host_bounded(dtype, tsr_tensor_ndim(actual), tsr_tensor_shape(actual), a,
                                       e, tol, bound, message, capacity);
    free(a);
    free(e);
    return st;
}
