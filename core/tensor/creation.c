/* Creating tensors: empty, zeros, ones, full, arange, linspace, eye, host I/O. */
#include "runtime/backend.h"
#include "runtime/alloc.h"
#include "tensor/copy.h"
#include "tensor/scalar.h"
#include "runtime/error.h"
#include "tensor/shape.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

tsr_status tsr_empty(int ndim, const int64_t *shape, tsr_dtype dtype, tsr_backend *backend,
                     tsr_tensor **out)
{
    if (!out)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "empty: out must not be NULL");
    return tsr__tensor_empty("empty", backend, dtype, ndim, shape, out);
}

static tsr_status filled(const char *op, int ndim, const int64_t *shape, tsr_scalar value,
                         tsr_dtype dtype, tsr_backend *backend, tsr_tensor **out)
{
    if (!out)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: out must not be NULL", op);
    if (!tsr__scalar_valid(value))
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: fill_value has an invalid kind", op);
    tsr_tensor *t;
    tsr_status st = tsr__tensor_empty(op, backend, dtype, ndim, shape, &t);
    if (st == TSR_OK && (st = tsr__fill(op, t, value)) != TSR_OK)
        tsr_tensor_release(t);
    if (st == TSR_OK)
        *out = t;
    return st;
}

tsr_status tsr_zeros(int ndim, const int64_t *shape, tsr_dtype dtype, tsr_backend *backend,
                     tsr_tensor **out)
{
    return filled("zeros", ndim, shape, tsr_scalar_int(0), dtype, backend, out);
}

tsr_status tsr_ones(int ndim, const int64_t *shape, tsr_dtype dtype, tsr_backend *backend,
                    tsr_tensor **out)
{
    return filled("ones", ndim, shape, tsr_scalar_int(1), dtype, backend, out);
}

static tsr_dtype inferred_dtype(tsr_scalar s)
{
    switch (s.kind) {
    case TSR_SCALAR_BOOL:
        return TSR_BOOL;
    case TSR_SCALAR_INT:
        return TSR_INT64;
    case TSR_SCALAR_FLOAT:
        return TSR_FLOAT32;
    default:
        return TSR_COMPLEX64;
    }
}

tsr_status tsr_full(int ndim, const int64_t *shape, tsr_scalar value, tsr_dtype dtype,
                    tsr_backend *backend, tsr_tensor **out)
{
    if (dtype == TSR_DTYPE_INFER)
        dtype = inferred_dtype(value);
    return filled("full", ndim, shape, value, dtype, backend, out);
}

/* Values computed on the host in a wide dtype (int64 or float64), uploaded,
 * and converted by the backend so rounding matches every other conversion. */
static tsr_status from_wide_values(const char *op, const void *values, tsr_dtype wide, int64_t n,
                                   tsr_dtype dtype, tsr_backend *backend, tsr_tensor **out)
{
    tsr_tensor *raw;
    int64_t shape[1] = {n};
    size_t bytes = (size_t)n * tsr_dtype_size(wide);
    tsr_status st = tsr_from_host(values, bytes, 1, shape, wide, backend, &raw);
    if (st != TSR_OK) {
        tsr__prefix_error("%s", op);
        return st;
    }
    if (wide == dtype) {
        *out = raw;
        return TSR_OK;
    }
    st = tsr__convert(op, raw, dtype, out);
    tsr_tensor_release(raw);
    return st;
}

static tsr_status arange_size(tsr_scalar start, tsr_scalar end, tsr_scalar step, int64_t *n)
{
    double s = tsr__scalar_to_double(start), e = tsr__scalar_to_double(end);
    double d = tsr__scalar_to_double(step);
    if (!isfinite(s) || !isfinite(e))
        return tsr__set_error(TSR_ERR_VALUE, "arange: start and end must be finite, got %g and %g",
                              s, e);
    if (d == 0 || isnan(d))
        return tsr__set_error(TSR_ERR_VALUE, "arange: step must be nonzero");
    if ((d > 0 && e < s) || (d < 0 && e > s))
        return tsr__set_error(TSR_ERR_VALUE,
                              "arange: upper bound %g and lower bound %g are inconsistent with "
                              "step sign",
                              e, s);
    double size = ceil((e - s) / d);
    if (!(size < 9.2e18))
        return tsr__set_error(TSR_ERR_OVERFLOW, "arange: %g elements is too many", size);
    *n = (int64_t)size;
    return TSR_OK;
}

tsr_status tsr_arange(tsr_scalar start, tsr_scalar end, tsr_scalar step, tsr_dtype dtype,
                      tsr_backend *backend, tsr_tensor **out)
{
    if (!out)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "arange: out must not be NULL");
    bool integral = start.kind <= TSR_SCALAR_INT && end.kind <= TSR_SCALAR_INT &&
                    step.kind <= TSR_SCALAR_INT;
    if (dtype == TSR_DTYPE_INFER)
        dtype = integral ? TSR_INT64 : TSR_FLOAT32;
    /* PyTorch 1.13 has no bool or complex arange */
    if (!tsr__dtype_valid(dtype) || dtype == TSR_BOOL || tsr_dtype_is_complex(dtype))
        return tsr__set_error(TSR_ERR_DTYPE, "arange: dtype %s is not supported",
                              tsr_dtype_name(dtype) ? tsr_dtype_name(dtype) : "(invalid)");
    if (tsr_dtype_is_integral(dtype, false) && !integral) {
        /* PyTorch first casts the bounds to the integer dtype's accumulator:
         * arange(0, 3, 0.5, dtype=int64) has step 0 and fails. */
        tsr_scalar *bounds[3] = {&start, &end, &step};
        for (int i = 0; i < 3; i++) {
            double v = tsr__scalar_to_double(*bounds[i]);
            if (!(v > -9.2e18 && v < 9.2e18))
                return tsr__set_error(TSR_ERR_VALUE, "arange: %g does not fit the dtype %s", v,
                                      tsr_dtype_name(dtype));
            *bounds[i] = tsr_scalar_int((int64_t)v);
        }
        integral = true;
    }
    int64_t n;
    tsr_status st = arange_size(start, end, step, &n);
    if (st == TSR_OK)
        st = tsr__check_shape("arange", "result", 1, &n, 8, NULL);
    if (st != TSR_OK)
        return st;
    bool integer_values = tsr_dtype_is_integral(dtype, false) && integral;
    void *values = tsr__malloc((size_t)(n ? n : 1) * 8);
    if (!values)
        return tsr__set_error(TSR_ERR_OUT_OF_MEMORY, "arange: out of host memory");
    for (int64_t i = 0; i < n; i++) {
        if (integer_values)
            ((int64_t *)values)[i] = (int64_t)((uint64_t)start.v.i + (uint64_t)step.v.i * (uint64_t)i);
        else
            ((double *)values)[i] = tsr__scalar_to_double(start) + tsr__scalar_to_double(step) * (double)i;
    }
    st = from_wide_values("arange", values, integer_values ? TSR_INT64 : TSR_FLOAT64, n, dtype,
                          backend, out);
    free(values);
    return st;
}

/* PyTorch fills the first half forwards from start and the second half
 * backwards from end, so both ends are exact. */
static double linspace_value(double start, double end, double step, int64_t i, int64_t steps,
                             bool single)
{
    if (single) {
        float s = (float)start, e = (float)end, d = (float)step;
        return i < steps / 2 ? (double)(s + d * (float)i) : (double)(e - d * (float)(steps - i - 1));
    }
    return i < steps / 2 ? start + step * (double)i : end - step * (double)(steps - i - 1);
}

tsr_status tsr_linspace(tsr_scalar start, tsr_scalar end, int64_t steps, tsr_dtype dtype,
                        tsr_backend *backend, tsr_tensor **out)
{
    if (!out)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "linspace: out must not be NULL");
    if (dtype == TSR_DTYPE_INFER)
        dtype = TSR_FLOAT32;
    if (!tsr__dtype_valid(dtype))
        return tsr__set_error(TSR_ERR_DTYPE, "linspace: dtype %s is not supported",
                              tsr_dtype_name(dtype) ? tsr_dtype_name(dtype) : "(invalid)");
    if (steps < 0)
        return tsr__set_error(TSR_ERR_VALUE, "linspace: number of steps must be non-negative, got %lld",
                              (long long)steps);
    tsr_status st = tsr__check_shape("linspace", "steps", 1, &steps, 8, NULL);
    if (st != TSR_OK)
        return st;
    double s = tsr__scalar_to_double(start), e = tsr__scalar_to_double(end);
    bool single = dtype == TSR_FLOAT32 || dtype == TSR_FLOAT16 || dtype == TSR_BFLOAT16;
    double step = steps > 1 ? (e - s) / (double)(steps - 1) : 0;
    if (single)
        step = (double)(((float)e - (float)s) / (float)(steps > 1 ? steps - 1 : 1));
    double *values = tsr__malloc((size_t)(steps ? steps : 1) * sizeof *values);
    if (!values)
        return tsr__set_error(TSR_ERR_OUT_OF_MEMORY, "linspace: out of host memory");
    for (int64_t i = 0; i < steps; i++)
        values[i] = steps == 1 ? s : linspace_value(s, e, step, i, steps, single);
    st = from_wide_values("linspace", values, TSR_FLOAT64, steps, dtype, backend, out);
    free(values);
    return st;
}

tsr_status tsr_eye(int64_t n, int64_t m, tsr_dtype dtype, tsr_backend *backend, tsr_tensor **out)
{
    if (!out)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "eye: out must not be NULL");
    if (m < 0)
        m = n;
    int64_t shape[2] = {n, m};
    if (dtype == TSR_DTYPE_INFER)
        dtype = TSR_FLOAT32;
    if (dtype == TSR_BFLOAT16) /* PyTorch 1.13 has no bfloat16 eye */
        return tsr__set_error(TSR_ERR_DTYPE, "eye: dtype bfloat16 is not supported");
    tsr_status st = tsr__check_shape("eye", "size", 2, shape, 8, NULL);
    if (st != TSR_OK)
        return st;
    size_t count = (size_t)(n * m);
    bool *ones = tsr__calloc(count > 0 ? count : 1, 1);
    if (!ones)
        return tsr__set_error(TSR_ERR_OUT_OF_MEMORY, "eye: out of host memory");
    for (int64_t i = 0; i < n && i < m; i++)
        ones[i * m + i] = true;
    tsr_tensor *mask;
    st = tsr_from_host(ones, count, 2, shape, TSR_BOOL, backend, &mask);
    free(ones);
    if (st != TSR_OK)
        return st;
    st = tsr__convert_if_needed("to", mask, dtype, out);
    tsr_tensor_release(mask);
    return st;
}

tsr_status tsr_from_host(const void *data, size_t bytes, int ndim, const int64_t *shape,
                         tsr_dtype dtype, tsr_backend *backend, tsr_tensor **out)
{
    if (!out || (!data && bytes))
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "from_host: data and out must not be NULL");
    tsr_tensor *t;
    tsr_status st = tsr__tensor_empty("from_host", backend, dtype, ndim, shape, &t);
    if (st != TSR_OK)
        return st;
    size_t expected = (size_t)tsr_tensor_numel(t) * tsr_dtype_size(dtype);
    if (bytes != expected) {
        tsr_tensor_release(t);
        return tsr__set_error(TSR_ERR_SHAPE, "from_host: got %zu bytes, the shape and dtype need %zu",
                              bytes, expected);
    }
    st = tsr__backend_upload("from_host", t->storage->backend, t->storage->handle, 0, data, bytes);
    if (st != TSR_OK) {
        tsr_tensor_release(t);
        return st;
    }
    *out = t;
    return TSR_OK;
}

tsr_status tsr_to_host(const tsr_tensor *t, void *data, size_t bytes)
{
    if (!t || (!data && bytes))
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "to_host: tensor and data must not be NULL");
    size_t expected = (size_t)tsr_tensor_numel(t) * tsr_dtype_size(t->dtype);
    if (bytes != expected)
        return tsr__set_error(TSR_ERR_SHAPE, "to_host: buffer has %zu bytes, the tensor needs %zu",
                              bytes, expected);
    tsr_tensor *c;
    tsr_status st = tsr__contiguous_raw("contiguous", t, &c);
    if (st != TSR_OK)
        return st;
    st = tsr__backend_download("to_host", c->storage->backend, data, c->storage->handle,
                               (size_t)c->offset * tsr_dtype_size(c->dtype), bytes);
    tsr_tensor_release(c);
    return st;
}
