/* max_pool, avg_pool, adaptive_avg_pool and adaptive_max_pool in 1, 2 and
 * 3 spatial dims: PyTorch 1.13's argument checks and output shapes, then
 * one kernel on the batched input. The backward formulas are pool_grad.c's;
 * max_unpool, lp_pool and pixel_shuffle are composites (pool_compose.c). */
#include <stdio.h>

#include "autograd/graph.h"
#include "ops/pool.h"
#include "runtime/error.h"
#include "tensor/launch.h"
#include "tensor/shape.h"

/* PyTorch's names of dtypes in "not implemented for 'Half'". */
static const char *torch_type_name(tsr_dtype dtype)
{
    switch (dtype) {
    case TSR_BOOL: return "Bool";
    case TSR_UINT8: return "Byte";
    case TSR_INT8: return "Char";
    case TSR_INT16: return "Short";
    case TSR_INT32: return "Int";
    case TSR_INT64: return "Long";
    case TSR_FLOAT16: return "Half";
    case TSR_BFLOAT16: return "BFloat16";
    case TSR_FLOAT32: return "Float";
    case TSR_FLOAT64: return "Double";
    case TSR_COMPLEX64: return "ComplexFloat";
    case TSR_COMPLEX128: return "ComplexDouble";
    default: return "?";
    }
}

/* The dtypes PyTorch 1.13 has CPU kernels for, per kind and rank. */
static bool dtype_allowed(tsr__pool_kind kind, int d, tsr_dtype dt)
{
    bool f3264 = dt == TSR_FLOAT32 || dt == TSR_FLOAT64;
    switch (kind) {
    case TSR__POOL_MAX:
    case TSR__POOL_ADAPTIVE_MAX: return f3264 || (d < 3 && dt == TSR_BFLOAT16);
    case TSR__POOL_AVG: return f3264 || dt == TSR_INT64 || (d < 3 && dt == TSR_BFLOAT16);
    case TSR__POOL_ADAPTIVE_AVG:
        return f3264 || (d < 3 ? dt == TSR_BFLOAT16 : dt == TSR_FLOAT16);
    }
    return false;
}

tsr_status tsr__pool_launch(const char *name, tsr_op op, const tsr_tensor *x,
                            const tsr_tensor *indices_in, const tsr__pool_geom *geom,
                            tsr_tensor **out, tsr_tensor **indices)
{
    bool backward = op == TSR_OP_POOL_MAX_BACKWARD || op == TSR_OP_POOL_AVG_BACKWARD ||
                    op == TSR_OP_POOL_ADAPTIVE_AVG_BACKWARD;
    bool with_indices = op == TSR_OP_POOL_MAX || op == TSR_OP_POOL_ADAPTIVE_MAX;
    const int64_t *shape = backward ? geom->in : geom->out;
    tsr_backend *b = x->storage->backend;
    tsr_tensor *outs[2] = {NULL, NULL};
    tsr_status st = tsr__require_kernel(name, b, op, x->dtype, x->dtype);
    if (st == TSR_OK)
        st = tsr__tensor_empty(name, b, x->dtype, geom->ndim, shape, &outs[0]);
    if (st == TSR_OK && with_indices)
        st = tsr__tensor_empty(name, b, TSR_INT64, geom->ndim, shape, &outs[1]);
    if (st == TSR_OK) {
        const tsr_tensor *inputs[2] = {x, indices_in};
        st = tsr__launch(op, x->dtype, x->dtype, inputs, indices_in ? 2 : 1, outs,
                         with_indices ? 2 : 1, &geom->attrs);
    }
    if (st != TSR_OK) {
        tsr_tensor_release(outs[0]);
        tsr_tensor_release(outs[1]);
        return st;
    }
    *out = outs[0];
    if (with_indices)
        *indices = outs[1];
    return TSR_OK;
}

/* ---- arguments ----------------------------------------------------------- */

/* An int-or-tuple argument: count 0 takes `fallback` (NULL: the kernel). */
static tsr_status take_tuple(const char *name, const char *arg, int d, const int64_t *values,
                             int count, const int64_t *fallback, int64_t *out)
{
    if (count == 0 && fallback) {
        for (int k = 0; k < d; k++)
            out[k] = fallback[k];
        return TSR_OK;
    }
    if (count != 1 && count != d)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                              "%s: %s must either be a single int, or a tuple of %d ints", name,
                              arg, d);
    for (int k = 0; k < d; k++)
        out[k] = values[count == 1 ? 0 : k];
    return TSR_OK;
}

static int64_t div_floor(int64_t a, int64_t b)
{
    int64_t q = a / b;
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

/* PyTorch's pooling_output_shape, with its checks on stride and padding. */
static tsr_status window_output(const char *name, int64_t in, int64_t k, int64_t s, int64_t p,
                                int64_t dil, bool ceil_mode, int64_t *out)
{
    if (s == 0)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: stride should not be zero", name);
    if (p < 0)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                              "%s: pad must be non-negative, but got pad: %lld", name,
                              (long long)p);
    if (p > k / 2)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                              "%s: pad should be at most half of kernel size, but got pad=%lld "
                              "and kernel_size=%lld",
                              name, (long long)p, (long long)k);
    int64_t o = div_floor(in + 2 * p - dil * (k - 1) - 1 + (ceil_mode ? s - 1 : 0), s) + 1;
    /* The last window must start inside the input or its left padding. */
    if (ceil_mode && (o - 1) * s >= in + p)
        o--;
    *out = o;
    return TSR_OK;
}

static tsr_status check_rank(const char *name, tsr__pool_kind kind, int d, const tsr_tensor *x,
                             bool *batched)
{
    char buf[160];
    int ndim = x->ndim;
    if (ndim != d + 1 && ndim != d + 2)
        return tsr__set_error(TSR_ERR_SHAPE,
                              "%s: Expected %dD or %dD (batch mode) tensor with optional 0 dim "
                              "batch size for input, but got: %s",
                              name, d + 1, d + 2, tsr__shape_str(ndim, x->shape, buf, sizeof buf));
    *batched = ndim == d + 2;
    /* Which dims must be non-empty differs between the kinds in PyTorch. */
    int first = 1;
    if (kind == TSR__POOL_MAX || kind == TSR__POOL_AVG)
        first = *batched ? 1 : 0;
    else if (kind == TSR__POOL_ADAPTIVE_AVG && d < 3)
        first = ndim - d;
    for (int i = first; i < ndim; i++)
        if (x->shape[i] <= 0)
            return tsr__set_error(TSR_ERR_SHAPE,
                                  "%s: Expected input to have non-zero size for non-batch "
                                  "dimensions, but input has sizes %s",
                                  name, tsr__shape_str(ndim, x->shape, buf, sizeof buf));
    if (!dtype_allowed(kind, d, x->dtype))
        return tsr__set_error(TSR_ERR_DTYPE, "%s: \"%s\" not implemented for '%s'", name, name,
                              torch_type_name(x->dtype));
    return TSR_OK;
}

/* The batched shapes: N (1 when unbatched), C, then the spatial sizes. */
static void batched_in(const tsr_tensor *x, bool batched, int d, tsr__pool_geom *g)
{
    g->ndim = 2 + d;
    g->attrs.struct_size = sizeof g->attrs;
    g->attrs.spatial = d;
    int skip = batched ? 0 : 1;
    g->in[0] = batched ? x->shape[0] : 1;
    for (int i = 1; i < g->ndim; i++)
        g->in[i] = x->shape[i - skip];
    g->out[0] = g->in[0];
    g->out[1] = g->in[1];
}

static tsr_status window_geom(const char *name, tsr__pool_kind kind, int d, const tsr_tensor *x,
                              const tsr_pool_options *o, bool allow_empty, tsr__pool_geom *g,
                              bool *batched)
{
    if (!x || !o)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: input and options must not be NULL",
                              name);
    tsr_pool_attrs *a = &g->attrs;
    static const int64_t zeros[3] = {0, 0, 0}, ones[3] = {1, 1, 1};
    tsr_status st = take_tuple(name, "kernel_size", d, o->kernel_size, o->kernel_count, NULL,
                               a->kernel);
    if (st == TSR_OK)
        st = take_tuple(name, "stride", d, o->stride, o->stride_count, a->kernel, a->stride);
    if (st == TSR_OK)
        st = take_tuple(name, "padding", d, o->padding, o->padding_count, zeros, a->padding);
    if (st == TSR_OK && kind == TSR__POOL_AVG && o->dilation_count != 0)
        st = tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: dilation is not an argument of %s",
                            name, name);
    if (st == TSR_OK)
        st = take_tuple(name, "dilation", d, o->dilation, o->dilation_count, ones, a->dilation);
    if (st == TSR_OK && kind == TSR__POOL_AVG && o->has_divisor) {
        if (d == 1)
            st = tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                                "%s: got an unexpected argument 'divisor_override'", name);
        else if (o->divisor_override == 0)
            st = tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: divisor must be not zero", name);
    }
    if (st != TSR_OK || (st = check_rank(name, kind, d, x, batched)) != TSR_OK)
        return st;
    batched_in(x, *batched, d, g);
    a->ceil_mode = o->ceil_mode;
    a->count_include_pad = kind == TSR__POOL_AVG && o->count_include_pad;
    a->divisor = kind == TSR__POOL_AVG && o->has_divisor ? o->divisor_override : 0;
    for (int k = 0; k < d; k++)
        if ((st = window_output(name, g->in[2 + k], a->kernel[k], a->stride[k], a->padding[k],
                                a->dilation[k], o->ceil_mode, &g->out[2 + k])) != TSR_OK)
            return st;
    for (int k = 0; k < d; k++) {
        if (a->kernel[k] <= 0)
            return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                                  "%s: kernel size should be greater than zero, but got %lld",
                                  name, (long long)a->kernel[k]);
        if (a->stride[k] <= 0)
            return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                                  "%s: stride should be greater than zero, but got %lld", name,
                                  (long long)a->stride[k]);
        if (a->dilation[k] <= 0)
            return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                                  "%s: dilation should be greater than zero, but got %lld", name,
                                  (long long)a->dilation[k]);
    }
    /* avg_pool3d alone also wants the unpadded input to hold a window. */
    for (int k = 0; kind == TSR__POOL_AVG && d == 3 && k < d; k++)
        if (g->in[2 + k] < a->kernel[k])
            return tsr__set_error(TSR_ERR_SHAPE,
                                  "%s: input image (T: %lld H: %lld W: %lld) smaller than kernel "
                                  "size (kT: %lld kH: %lld kW: %lld)",
                                  name, (long long)g->in[2], (long long)g->in[3],
                                  (long long)g->in[4], (long long)a->kernel[0],
                                  (long long)a->kernel[1], (long long)a->kernel[2]);
    for (int k = 0; k < d; k++)
        if (g->out[2 + k] < (allow_empty ? 0 : 1)) {
            char in_s[160], out_s[160];
            return tsr__set_error(TSR_ERR_SHAPE,
                                  "%s: Given input size: %s. Calculated output size: %s. Output "
                                  "size is too small",
                                  name, tsr__shape_str(d + 1, g->in + 1, in_s, sizeof in_s),
                                  tsr__shape_str(d + 1, g->out + 1, out_s, sizeof out_s));
        }
    return TSR_OK;
}

static tsr_status adaptive_geom(const char *name, tsr__pool_kind kind, int d, const tsr_tensor *x,
                                const int64_t *size, int count, tsr__pool_geom *g, bool *batched)
{
    if (!x || !size)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                              "%s: input and output_size must not be NULL", name);
    int64_t s[3];
    tsr_status st = take_tuple(name, "output_size", d, size, count, NULL, s);
    if (st != TSR_OK || (st = check_rank(name, kind, d, x, batched)) != TSR_OK)
        return st;
    for (int k = 0; k < d; k++)
        if (s[k] < 0)
            return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                                  "%s: Trying to create tensor with negative dimension %lld", name,
                                  (long long)s[k]);
    batched_in(x, *batched, d, g);
    for (int k = 0; k < d; k++)
        g->out[2 + k] = s[k];
    return TSR_OK;
}

/* ---- batching ------------------------------------------------------------ */

tsr_status tsr__pool_batch(const tsr_tensor *t, bool batched, tsr_tensor **out)
{
    if (!batched)
        return tsr_unsqueeze(t, 0, out);
    tsr_tensor_retain(t);
    *out = (tsr_tensor *)t;
    return TSR_OK;
}

/* Takes over t (NULL is fine). */
tsr_status tsr__pool_unbatch(tsr_tensor *t, bool batched, tsr_tensor **out)
{
    if (batched || !t) {
        *out = t;
        return TSR_OK;
    }
    *out = NULL;
    tsr_status st = tsr_squeeze_dim(t, 0, out);
    tsr_tensor_release(t);
    if (st != TSR_OK)
        *out = NULL;
    return st;
}

/* ---- the ops ------------------------------------------------------------- */

static tsr_status max_run(const char *name, tsr_op op, const tsr_tensor *input,
                          const tsr__pool_geom *g, bool batched, tsr_tensor **out,
                          tsr_tensor **indices)
{
    if (!out)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: out must not be NULL", name);
    tsr_tensor *x = NULL, *y = NULL, *idx = NULL;
    tsr_status st = tsr__pool_batch(input, batched, &x);
    if (st == TSR_OK)
        st = tsr__pool_launch(name, op, x, NULL, g, &y, &idx);
    if (st == TSR_OK)
        st = tsr__grad_record_pool_max(name, x, idx, g, y);
    tsr_tensor_release(x);
    if (st == TSR_OK)
        st = tsr__pool_unbatch(y, batched, &y);
    else {
        tsr_tensor_release(y);
        y = NULL;
    }
    if (st == TSR_OK && indices)
        st = tsr__pool_unbatch(idx, batched, &idx);
    else {
        tsr_tensor_release(idx);
        idx = NULL;
    }
    if (st != TSR_OK) {
        tsr_tensor_release(y);
        tsr_tensor_release(idx);
        return st;
    }
    *out = y;
    if (indices)
        *indices = idx;
    return TSR_OK;
}

static tsr_status avg_run(const char *name, tsr_op op, const tsr_tensor *input,
                          const tsr__pool_geom *g, bool batched, tsr_tensor **out)
{
    if (!out)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: out must not be NULL", name);
    tsr_tensor *x = NULL, *y = NULL;
    tsr_status st = tsr__pool_batch(input, batched, &x);
    if (st == TSR_OK)
        st = tsr__pool_avg_step(name, op, x, g, &y);
    tsr_tensor_release(x);
    if (st == TSR_OK)
        st = tsr__pool_unbatch(y, batched, &y);
    return tsr__deliver(st, y, out);
}

static tsr_status max_pool(const char *name, int d, const tsr_tensor *input,
                           const tsr_pool_options *o, tsr_tensor **out, tsr_tensor **indices)
{
    tsr__pool_geom g = {0};
    bool batched;
    /* PyTorch 1.13's max_pool1d without indices or gradient has a kernel
     * of its own, which allows an empty output. */
    bool allow_empty = d == 1 && !indices && input && !tsr__grad_wanted(&input, 1);
    tsr_status st = window_geom(name, TSR__POOL_MAX, d, input, o, allow_empty, &g, &batched);
    return st != TSR_OK ? st : max_run(name, TSR_OP_POOL_MAX, input, &g, batched, out, indices);
}

static tsr_status avg_pool(const char *name, int d, const tsr_tensor *input,
                           const tsr_pool_options *o, tsr_tensor **out)
{
    tsr__pool_geom g = {0};
    bool batched;
    tsr_status st = window_geom(name, TSR__POOL_AVG, d, input, o, false, &g, &batched);
    return st != TSR_OK ? st : avg_run(name, TSR_OP_POOL_AVG, input, &g, batched, out);
}

/* PyTorch computes adaptive_avg_pool to size 1 as a mean over the spatial
 * dims, which takes the dtypes, ranks and empty inputs mean takes. */
static bool all_ones(int d, const int64_t *size, int count)
{
    if (!size || (count != 1 && count != d))
        return false;
    for (int k = 0; k < count; k++)
        if (size[k] != 1)
            return false;
    return true;
}

static tsr_status adaptive_mean(const char *name, int d, const tsr_tensor *input,
                                tsr_tensor **out)
{
    if (!input || !out)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: input and out must not be NULL",
                              name);
    if (d == 1 && input->ndim != 2 && input->ndim != 3)
        return tsr__set_error(TSR_ERR_SHAPE,
                              "%s: Expected 2 to 3 dimensions, but got %d-dimensional tensor",
                              name, input->ndim);
    static const int64_t dims[3] = {-1, -2, -3};
    return tsr_mean(input, dims, d, true, TSR_DTYPE_INFER, out);
}

static tsr_status adaptive_avg(const char *name, int d, const tsr_tensor *input,
                               const int64_t *size, int count, tsr_tensor **out)
{
    tsr__pool_geom g = {0};
    bool batched;
    if (all_ones(d, size, count))
        return adaptive_mean(name, d, input, out);
    tsr_status st = adaptive_geom(name, TSR__POOL_ADAPTIVE_AVG, d, input, size, count, &g,
                                  &batched);
    return st != TSR_OK ? st
                        : avg_run(name, TSR_OP_POOL_ADAPTIVE_AVG, input, &g, batched, out);
}

static tsr_status adaptive_max(const char *name, int d, const tsr_tensor *input,
                               const int64_t *size, int count, tsr_tensor **out,
                               tsr_tensor **indices)
{
    tsr__pool_geom g = {0};
    bool batched;
    tsr_status st = adaptive_geom(name, TSR__POOL_ADAPTIVE_MAX, d, input, size, count, &g,
                                  &batched);
    return st != TSR_OK
               ? st
               : max_run(name, TSR_OP_POOL_ADAPTIVE_MAX, input, &g, batched, out, indices);
}

tsr_status tsr_max_pool1d(const tsr_tensor *input, const tsr_pool_options *options,
                          tsr_tensor **out, tsr_tensor **indices)
{
    return max_pool("max_pool1d", 1, input, options, out, indices);
}

tsr_status tsr_max_pool2d(const tsr_tensor *input, const tsr_pool_options *options,
                          tsr_tensor **out, tsr_tensor **indices)
{
    return max_pool("max_pool2d", 2, input, options, out, indices);
}

tsr_status tsr_max_pool3d(const tsr_tensor *input, const tsr_pool_options *options,
                          tsr_tensor **out, tsr_tensor **indices)
{
    return max_pool("max_pool3d", 3, input, options, out, indices);
}

tsr_status tsr_avg_pool1d(const tsr_tensor *input, const tsr_pool_options *options,
                          tsr_tensor **out)
{
    return avg_pool("avg_pool1d", 1, input, options, out);
}

tsr_status tsr_avg_pool2d(const tsr_tensor *input, const tsr_pool_options *options,
                          tsr_tensor **out)
{
    return avg_pool("avg_pool2d", 2, input, options, out);
}

tsr_status tsr_avg_pool3d(const tsr_tensor *input, const tsr_pool_options *options,
                          tsr_tensor **out)
{
    return avg_pool("avg_pool3d", 3, input, options, out);
}

tsr_status tsr_adaptive_avg_pool1d(const tsr_tensor *input, const int64_t *output_size, int count,
                                   tsr_tensor **out)
{
    return adaptive_avg("adaptive_avg_pool1d", 1, input, output_size, count, out);
}

tsr_status tsr_adaptive_avg_pool2d(const tsr_tensor *input, const int64_t *output_size, int count,
                                   tsr_tensor **out)
{
    return adaptive_avg("adaptive_avg_pool2d", 2, input, output_size, count, out);
}

tsr_status tsr_adaptive_avg_pool3d(const tsr_tensor *input, const int64_t *output_size, int count,
                                   tsr_tensor **out)
{
    return adaptive_avg("adaptive_avg_pool3d", 3, input, output_size, count, out);
}

tsr_status tsr_adaptive_max_pool1d(const tsr_tensor *input, const int64_t *output_size, int count,
                                   tsr_tensor **out, tsr_tensor **indices)
{
    return adaptive_max("adaptive_max_pool1d", 1, input, output_size, count, out, indices);
}

tsr_status tsr_adaptive_max_pool2d(const tsr_tensor *input, const int64_t *output_size, int count,
                                   tsr_tensor **out, tsr_tensor **indices)
{
    return adaptive_max("adaptive_max_pool2d", 2, input, output_size, count, out, indices);
}

tsr_status tsr_adaptive_max_pool3d(const tsr_tensor *input, const int64_t *output_size, int count,
                                   tsr_tensor **out, tsr_tensor **indices)
{
    return adaptive_max("adaptive_max_pool3d", 3, input, output_size, count, out, indices);
}
