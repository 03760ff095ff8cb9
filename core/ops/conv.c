/* unfold, fold, conv1d/2d/3d and conv_transpose1d/2d/3d: PyTorch 1.13's
 * argument rules and messages (ATen's Convolution.cpp, Im2Col.cpp and
 * Col2Im.cpp), then one of the computations of conv_compute.c on batched
 * tensors; an unbatched input gains and loses its batch dim as a view. */
#include <stdio.h>

#include "autograd/graph.h"
#include "ops/conv.h"
#include "runtime/error.h"
#include "tensor/shape.h"

static const tsr_conv_params DEFAULTS = {0};

/* "[1, 2]" of a list, for messages. */
static const char *list_str(const int64_t *v, int n, char *buf, size_t cap)
{
    return tsr__shape_str(n, v, buf, cap);
}

/* One keyword list (count 0: fallback everywhere; 1: one int; nd: a tuple). */
static tsr_status read_list(const char *name, const char *arg, const int64_t *v, int n, int nd,
                            int64_t fallback, int64_t *out)
{
    if (n != 0 && n != 1 && n != nd) {
        char buf[160];
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                              "%s: expected %s to be a single integer value or a list of %d "
                              "values to match the convolution dimensions, but got %s=%s",
                              name, arg, nd, arg, list_str(v, n < 0 ? 0 : n, buf, sizeof buf));
    }
    if (n > 0 && !v)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: %s is NULL with count %d", name, arg,
                              n);
    for (int d = 0; d < TSR_CONV_MAX_SPATIAL; d++)
        out[d] = d >= nd ? fallback : n == 0 ? fallback : v[n == 1 ? 0 : d];
    return TSR_OK;
}

static bool conv_dtype_ok(tsr_dtype dt, bool transposed)
{
    if (dt == TSR_FLOAT32 || dt == TSR_FLOAT64 || dt == TSR_BFLOAT16)
        return true;
    return !transposed && (dt == TSR_COMPLEX64 || dt == TSR_COMPLEX128);
}

/* Everything about one conv call once its arguments are read. */
typedef struct conv_call {
    const char *name;
    int nd;
    bool transposed;
    tsr_conv_attrs attrs;
    int64_t output_padding[TSR_CONV_MAX_SPATIAL];
} conv_call;

static tsr_status read_params(conv_call *c, const tsr_conv_params *p)
{
    tsr_conv_attrs *a = &c->attrs;
    int nd = c->nd;
    tsr_status st = read_list(c->name, "stride", p->stride, p->nstride, nd, 1, a->stride);
    if (st == TSR_OK && p->padding_mode == TSR_CONV_PADDING_EXPLICIT)
        st = read_list(c->name, "padding", p->padding, p->npadding, nd, 0, a->padding);
    if (st == TSR_OK)
        st = read_list(c->name, "dilation", p->dilation, p->ndilation, nd, 1, a->dilation);
    if (st == TSR_OK)
        st = read_list(c->name, "output_padding", p->output_padding, p->noutput_padding, nd, 0,
                       c->output_padding);
    if (st != TSR_OK)
        return st;
    if (p->padding_mode < TSR_CONV_PADDING_EXPLICIT || p->padding_mode > TSR_CONV_PADDING_SAME ||
        (c->transposed && p->padding_mode != TSR_CONV_PADDING_EXPLICIT))
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: Invalid padding string (mode %d)",
                              c->name, p->padding_mode);
    if (!c->transposed && p->noutput_padding != 0)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                              "%s: output_padding belongs to conv_transpose", c->name);
    a->groups = p->groups == 0 ? 1 : p->groups;
    for (int d = 0; d < nd; d++) {
        if (p->padding_mode == TSR_CONV_PADDING_SAME && a->stride[d] != 1)
            return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                                  "%s: padding='same' is not supported for strided convolutions",
                                  c->name);
    }
    if (a->groups < 1)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                              "%s: non-positive groups is not supported (groups=%lld)", c->name,
                              (long long)a->groups);
    for (int d = 0; d < nd; d++) {
        if (a->stride[d] < 1)
            return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                                  "%s: non-positive stride is not supported", c->name);
        if (a->padding[d] < 0)
            return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: negative padding is not supported",
                                  c->name);
        if (a->dilation[d] < 1)
            return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                                  "%s: dilation should be greater than zero", c->name);
        if (c->output_padding[d] < 0)
            return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                                  "%s: negative output_padding is not supported", c->name);
    }
    return TSR_OK;
}

/* Kernel extents from the weight, then 'same'/'valid' padding and the
 * checks of input, weight and bias shapes against each other. */
static tsr_status check_shapes(conv_call *c, const tsr_conv_params *p, const tsr_tensor *x,
                               const tsr_tensor *w, const tsr_tensor *bias)
{
    tsr_conv_attrs *a = &c->attrs;
    char xs[160], ws[160], bs[160];
    tsr__shape_str(x->ndim, x->shape, xs, sizeof xs);
    tsr__shape_str(w->ndim, w->shape, ws, sizeof ws);
    int64_t g = a->groups, cin = x->shape[1];
    if (w->shape[0] % g != 0 || w->shape[0] < 1)
        return tsr__set_error(TSR_ERR_SHAPE,
                              "%s: Given groups=%lld, expected weight to be divisible by %lld at "
                              "dimension 0, but got weight of size %s instead",
                              c->name, (long long)g, (long long)g, ws);
    int64_t want = c->transposed ? w->shape[0] : w->shape[1] * g;
    if (cin != want)
        return tsr__set_error(TSR_ERR_SHAPE,
                              "%s: Given %s=%lld, weight of size %s, expected input%s to have %lld "
                              "channels, but got %lld channels instead",
                              c->name, c->transposed ? "transposed" : "groups",
                              (long long)(c->transposed ? 1 : g), ws, xs, (long long)want,
                              (long long)cin);
    int64_t cout = c->transposed ? w->shape[1] * g : w->shape[0];
    if (bias && (bias->ndim != 1 || bias->shape[0] != cout))
        return tsr__set_error(TSR_ERR_SHAPE,
                              "%s: Given weight of size %s, expected bias to be 1-dimensional "
                              "with %lld elements, but got bias of size %s instead",
                              c->name, ws, (long long)cout,
                              tsr__shape_str(bias->ndim, bias->shape, bs, sizeof bs));
    for (int d = 0; d < c->nd; d++) {
        a->kernel[d] = w->shape[2 + d];
        if (p->padding_mode == TSR_CONV_PADDING_SAME) {
            int64_t total = a->dilation[d] * (a->kernel[d] - 1);
            a->padding[d] = total / 2;
        }
        a->padding_end[d] = a->padding[d];
        if (p->padding_mode == TSR_CONV_PADDING_SAME)
            a->padding_end[d] = a->dilation[d] * (a->kernel[d] - 1) - a->padding[d];
    }
    return TSR_OK;
}

/* The transposed output extents; *extended when output_padding reaches
 * past the last window (then padding_end shrinks so that the windows of the
 * output are the input's again; the positions past them get nothing). */
static tsr_status transposed_extents(conv_call *c, const tsr_tensor *x, int64_t *spatial)
{
    tsr_conv_attrs *a = &c->attrs;
    bool small = false;
    for (int d = 0; d < c->nd; d++) {
        if (c->output_padding[d] >= a->stride[d] && c->output_padding[d] >= a->dilation[d])
            return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                                  "%s: output padding must be smaller than either stride or "
                                  "dilation, but got output_padding=%lld stride=%lld "
                                  "dilation=%lld at spatial dim %d",
                                  c->name, (long long)c->output_padding[d], (long long)a->stride[d],
                                  (long long)a->dilation[d], d);
        int64_t in = x->shape[2 + d];
        spatial[d] = (in - 1) * a->stride[d] - 2 * a->padding[d] +
                     a->dilation[d] * (a->kernel[d] - 1) + c->output_padding[d] + 1;
        small = small || spatial[d] < 1;
        int64_t reach =
            c->output_padding[d] < a->stride[d] ? c->output_padding[d] : a->stride[d] - 1;
        a->padding_end[d] = a->padding[d] - c->output_padding[d] + reach;
    }
    if (small) {
        char in[160], out[160];
        return tsr__set_error(TSR_ERR_SHAPE,
                              "%s: Given input size per channel: %s. Calculated output size per "
                              "channel: %s. Output size is too small",
                              c->name, tsr__shape_str(c->nd, x->shape + 2, in, sizeof in),
                              tsr__shape_str(c->nd, spatial, out, sizeof out));
    }
    return TSR_OK;
}

static tsr_status check_fits(conv_call *c, const tsr_tensor *x)
{
    const tsr_conv_attrs *a = &c->attrs;
    int64_t padded[TSR_CONV_MAX_SPATIAL], span[TSR_CONV_MAX_SPATIAL];
    bool fits = true;
    for (int d = 0; d < c->nd; d++) {
        padded[d] = x->shape[2 + d] + a->padding[d] + a->padding_end[d];
        span[d] = a->dilation[d] * (a->kernel[d] - 1) + 1;
        fits = fits && padded[d] >= span[d];
    }
    if (fits)
        return TSR_OK;
    char ps[160], ks[160];
    return tsr__set_error(TSR_ERR_SHAPE,
                          "%s: Calculated padded input size per channel: %s. Kernel size: %s. "
                          "Kernel size can't be greater than actual input size",
                          c->name, tsr__shape_str(c->nd, padded, ps, sizeof ps),
                          tsr__shape_str(c->nd, span, ks, sizeof ks));
}

static tsr_status check_tensors(conv_call *c, const tsr_tensor *x, const tsr_tensor *w,
                                const tsr_tensor *bias)
{
    int nd = c->nd;
    if (x->ndim != nd + 1 && x->ndim != nd + 2) {
        char xs[160];
        return tsr__set_error(TSR_ERR_SHAPE,
                              "%s: Expected %dD (unbatched) or %dD (batched) input to %s, but got "
                              "input of size: %s",
                              c->name, nd + 1, nd + 2, c->name,
                              tsr__shape_str(x->ndim, x->shape, xs, sizeof xs));
    }
    if (w->ndim != nd + 2) {
        char ws[160];
        return tsr__set_error(TSR_ERR_SHAPE,
                              "%s: expected weight to be %d-dimensional, but got "
                              "weight of size %s",
                              c->name, nd + 2, tsr__shape_str(w->ndim, w->shape, ws, sizeof ws));
    }
    const tsr_tensor *ops[3] = {x, w, bias};
    for (int i = 0; i < 3; i++) {
        if (ops[i] && ops[i]->dtype != x->dtype)
            return tsr__set_error(TSR_ERR_DTYPE,
                                  "%s: expected %s to have dtype %s (the input's), "
                                  "but found %s",
                                  c->name, i == 1 ? "weight" : "bias", tsr_dtype_name(x->dtype),
                                  tsr_dtype_name(ops[i]->dtype));
    }
    if (!conv_dtype_ok(x->dtype, c->transposed))
        return tsr__set_error(TSR_ERR_DTYPE, "%s: not implemented for dtype %s", c->name,
                              tsr_dtype_name(x->dtype));
    return TSR_OK;
}

/* x viewed with a batch dim (a new reference either way). */
static tsr_status batched(const tsr_tensor *x, int nd, tsr_tensor **out)
{
    if (x->ndim == nd + 2) {
        tsr_tensor_retain(*out = (tsr_tensor *)x);
        return TSR_OK;
    }
    return tsr_unsqueeze(x, 0, out);
}

static tsr_status unbatched(tsr_status st, bool was_unbatched, tsr_tensor *y, tsr_tensor **out)
{
    if (st != TSR_OK || !was_unbatched)
        return tsr__deliver(st, y, out);
    st = tsr_squeeze_dim(y, 0, out);
    tsr_tensor_release(y);
    return st;
}

static tsr_status conv_entry(const char *name, int nd, bool transposed, const tsr_tensor *input,
                             const tsr_tensor *weight, const tsr_tensor *bias,
                             const tsr_conv_params *params, tsr_tensor **out)
{
    if (!input || !weight || !out)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                              "%s: input, weight and out must not be "
                              "NULL",
                              name);
    conv_call c = {.name = name, .nd = nd, .transposed = transposed};
    c.attrs = (tsr_conv_attrs){.struct_size = sizeof c.attrs, .spatial_ndim = nd};
    const tsr_conv_params *p = params ? params : &DEFAULTS;
    tsr_status st = check_tensors(&c, input, weight, bias);
    if (st == TSR_OK)
        st = read_params(&c, p);
    if (st != TSR_OK)
        return st;
    tsr_tensor *x = NULL, *y = NULL;
    if ((st = batched(input, nd, &x)) != TSR_OK)
        return st;
    st = check_shapes(&c, p, x, weight, bias);
    int64_t spatial[TSR_CONV_MAX_SPATIAL];
    if (st == TSR_OK && transposed)
        st = transposed_extents(&c, x, spatial);
    else if (st == TSR_OK)
        st = check_fits(&c, x);
    if (st == TSR_OK && !transposed) {
        st = tsr__conv_forward(name, x, weight, bias, &c.attrs, &y);
    } else if (st == TSR_OK) {
        tsr_tensor *dx = NULL;
        st = tsr__conv_backward_data(name, x, weight, &c.attrs, spatial, &dx);
        if (st == TSR_OK && bias) {
            int64_t shape[1 + TSR_CONV_MAX_SPATIAL] = {bias->shape[0], 1, 1, 1};
            tsr_tensor *b = NULL;
            st = tsr_reshape(bias, 1 + nd, shape, &b);
            if (st == TSR_OK)
                st = tsr_add(dx, b, &y);
            tsr_tensor_release(b);
            tsr_tensor_release(dx);
        } else {
            y = dx;
        }
    }
    tsr_tensor_release(x);
    return unbatched(st, input->ndim == nd + 1, y, out);
}

tsr_status tsr_conv1d(const tsr_tensor *input, const tsr_tensor *weight, const tsr_tensor *bias,
                      const tsr_conv_params *params, tsr_tensor **out)
{
    return conv_entry("conv1d", 1, false, input, weight, bias, params, out);
}

tsr_status tsr_conv2d(const tsr_tensor *input, const tsr_tensor *weight, const tsr_tensor *bias,
                      const tsr_conv_params *params, tsr_tensor **out)
{
    return conv_entry("conv2d", 2, false, input, weight, bias, params, out);
}

tsr_status tsr_conv3d(const tsr_tensor *input, const tsr_tensor *weight, const tsr_tensor *bias,
                      const tsr_conv_params *params, tsr_tensor **out)
{
    return conv_entry("conv3d", 3, false, input, weight, bias, params, out);
}

tsr_status tsr_conv_transpose1d(const tsr_tensor *input, const tsr_tensor *weight,
                                const tsr_tensor *bias, const tsr_conv_params *params,
                                tsr_tensor **out)
{
    return conv_entry("conv_transpose1d", 1, true, input, weight, bias, params, out);
}

tsr_status tsr_conv_transpose2d(const tsr_tensor *input, const tsr_tensor *weight,
                                const tsr_tensor *bias, const tsr_conv_params *params,
                                tsr_tensor **out)
{
    return conv_entry("conv_transpose2d", 2, true, input, weight, bias, params, out);
}

tsr_status tsr_conv_transpose3d(const tsr_tensor *input, const tsr_tensor *weight,
                                const tsr_tensor *bias, const tsr_conv_params *params,
                                tsr_tensor **out)
{
    return conv_entry("conv_transpose3d", 3, true, input, weight, bias, params, out);
}
