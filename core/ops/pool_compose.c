/* The pooling family's composites: max_unpool (a scatter into zeros),
 * lp_pool (PyTorch's own formula around avg_pool) and pixel_shuffle /
 * pixel_unshuffle (a reshape, a permute and a copy). Each is written with
 * public ops, so autograd records it step by step. */
#include <stdio.h>

#include "ops/grad_expr.h"
#include "ops/nn.h"
#include "ops/pool.h"
#include "runtime/error.h"
#include "tensor/shape.h"

/* ---- max_unpool ---------------------------------------------------------- */

/* PyTorch's _unpool_output_size: the default, or output_size checked to lie
 * strictly within a stride of it. */
static tsr_status unpool_size(const char *name, int d, const tsr_tensor *x, const int64_t *k,
                              const int64_t *s, const int64_t *p, const int64_t *given, int count,
                              int64_t *size)
{
    for (int i = 0; i < d; i++)
        size[i] = (x->shape[x->ndim - d + i] - 1) * s[i] + k[i] - 2 * p[i];
    if (!given)
        return TSR_OK;
    if (count == d + 2) {
        given += 2;
        count = d;
    }
    if (count != d)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                              "%s: output_size should be a sequence containing %d or %d "
                              "elements, but it has a length of '%d'",
                              name, d, d + 2, count);
    for (int i = 0; i < d; i++) {
        int64_t lo = size[i] - s[i], hi = size[i] + s[i];
        if (!(lo < given[i] && given[i] < hi))
            return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                                  "%s: invalid output_size (dim %d must be between %lld and "
                                  "%lld, got %lld)",
                                  name, i, (long long)lo, (long long)hi, (long long)given[i]);
    }
    for (int i = 0; i < d; i++)
        size[i] = given[i];
    return TSR_OK;
}

static tsr_status unpool_check(const char *name, int d, const tsr_tensor *x,
                               const tsr_tensor *indices, const tsr_pool_options *o)
{
    if (!x || !indices || !o)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                              "%s: input, indices and options must not be NULL", name);
    if (indices->dtype != TSR_INT64)
        return tsr__set_error(TSR_ERR_DTYPE,
                              "%s: elements in indices should be type int64 but got: %s", name,
                              tsr_dtype_name(indices->dtype));
    if (x->ndim != d + 1 && x->ndim != d + 2)
        return tsr__set_error(TSR_ERR_SHAPE, "%s: Input to %s should be a %dd or %dd Tensor",
                              name, name, d + 1, d + 2);
    bool same = x->ndim == indices->ndim;
    for (int i = 0; same && i < x->ndim; i++)
        same = x->shape[i] == indices->shape[i];
    if (!same)
        return tsr__set_error(TSR_ERR_SHAPE,
                              "%s: Expected shape of indices to be same as that of the input "
                              "tensor",
                              name);
    for (int i = 1; i < x->ndim; i++)
        if (x->shape[i] <= 0)
            return tsr__set_error(TSR_ERR_SHAPE,
                                  "%s: Expected input to have non-zero size for non-batch "
                                  "dimensions",
                                  name);
    if (x->dtype != TSR_FLOAT32 && x->dtype != TSR_FLOAT64)
        return tsr__set_error(TSR_ERR_DTYPE, "%s: \"%s\" not implemented for '%s'", name, name,
                              x->dtype == TSR_INT64 ? "Long" : tsr_dtype_name(x->dtype));
    return TSR_OK;
}

static tsr_status tuple_of(const char *name, const char *arg, int d, const int64_t *v, int count,
                           const int64_t *fallback, int64_t *out)
{
    if (count == 0 && fallback) {
        for (int i = 0; i < d; i++)
            out[i] = fallback[i];
        return TSR_OK;
    }
    if (count != 1 && count != d)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                              "%s: %s must either be a single int, or a tuple of %d ints", name,
                              arg, d);
    for (int i = 0; i < d; i++)
        out[i] = v[count == 1 ? 0 : i];
    return TSR_OK;
}

static tsr_status max_unpool(const char *name, int d, const tsr_tensor *input,
                             const tsr_tensor *indices, const tsr_pool_options *o,
                             const int64_t *output_size, int count, tsr_tensor **out)
{
    tsr_status st = unpool_check(name, d, input, indices, o);
    int64_t k[3], s[3], p[3], size[3];
    static const int64_t zeros[3] = {0, 0, 0};
    if (st == TSR_OK)
        st = tuple_of(name, "kernel_size", d, o->kernel_size, o->kernel_count, NULL, k);
    if (st == TSR_OK)
        st = tuple_of(name, "stride", d, o->stride, o->stride_count, k, s);
    if (st == TSR_OK)
        st = tuple_of(name, "padding", d, o->padding, o->padding_count, zeros, p);
    if (st == TSR_OK)
        st = unpool_size(name, d, input, k, s, p, output_size, count, size);
    if (st != TSR_OK)
        return st;
    if (!out)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: out must not be NULL", name);
    bool batched = input->ndim == d + 2;
    int64_t n = batched ? input->shape[0] : 1, c = input->shape[batched ? 1 : 0], plane = 1;
    int64_t flat[3] = {n, c, -1}, shape[5] = {n, c};
    for (int i = 0; i < d; i++) {
        shape[2 + i] = size[i];
        plane *= size[i];
    }
    int64_t zshape[3] = {n, c, plane};
    tsr__gx x = {0};
    tsr_tensor *src = tsr__nn_reshape(&x, input, 3, flat);
    tsr_tensor *idx = tsr__nn_reshape(&x, indices, 3, flat);
    tsr_tensor *z = NULL, *placed = NULL, *result = NULL;
    if (x.status == TSR_OK) {
        st = tsr_zeros(3, zshape, input->dtype, tsr_tensor_backend(input), &z);
        z = tsr__gx_keep(&x, st, z);
    }
    if (x.status == TSR_OK) {
        st = tsr_scatter(z, 2, idx, src, TSR_REDUCE_NONE, &placed);
        placed = tsr__gx_keep(&x, st, placed);
    }
    tsr_tensor *shaped = tsr__nn_reshape(&x, placed, batched ? d + 2 : d + 1,
                                         batched ? shape : shape + 1);
    tsr__gx_result(&x, &result, shaped);
    st = tsr__gx_finish(&x);
    return tsr__deliver(st, result, out);
}

tsr_status tsr_max_unpool1d(const tsr_tensor *input, const tsr_tensor *indices,
                            const tsr_pool_options *options, const int64_t *output_size,
                            int output_size_count, tsr_tensor **out)
{
    return max_unpool("max_unpool1d", 1, input, indices, options, output_size, output_size_count,
                      out);
}

tsr_status tsr_max_unpool2d(const tsr_tensor *input, const tsr_tensor *indices,
                            const tsr_pool_options *options, const int64_t *output_size,
                            int output_size_count, tsr_tensor **out)
{
    return max_unpool("max_unpool2d", 2, input, indices, options, output_size, output_size_count,
                      out);
}

tsr_status tsr_max_unpool3d(const tsr_tensor *input, const tsr_tensor *indices,
                            const tsr_pool_options *options, const int64_t *output_size,
                            int output_size_count, tsr_tensor **out)
{
    return max_unpool("max_unpool3d", 3, input, indices, options, output_size, output_size_count,
                      out);
}

/* ---- lp_pool ------------------------------------------------------------- */

static tsr_status lp_pool(const char *name, int d, const tsr_tensor *input, double p,
                          const tsr_pool_options *o, tsr_tensor **out)
{
    if (!input || !o || !out)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                              "%s: input, options and out must not be NULL", name);
    if (d == 1 && o->kernel_count != 1)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: kernel_size must be an int", name);
    /* avg_pool with padding 0, no dilation, PyTorch's defaults otherwise. */
    tsr_pool_options avg = TSR_POOL_OPTIONS_INIT;
    for (int i = 0; i < 3; i++) {
        avg.kernel_size[i] = o->kernel_size[i];
        avg.stride[i] = o->stride[i];
    }
    avg.kernel_count = o->kernel_count;
    avg.stride_count = o->stride_count;
    avg.ceil_mode = o->ceil_mode;
    int64_t numel = 1;
    for (int i = 0; i < d && (o->kernel_count == 1 || o->kernel_count == d); i++)
        numel *= o->kernel_size[o->kernel_count == 1 ? 0 : i];
    tsr__gx x = {0};
    tsr_tensor *powered = NULL, *a = NULL, *result = NULL;
    tsr_status st = tsr_binary(TSR_OP_POW, tsr_operand_tensor(input), tsr__gx_float(p), &powered);
    powered = tsr__gx_keep(&x, st, powered);
    if (x.status == TSR_OK) {
        st = d == 1 ? tsr_avg_pool1d(powered, &avg, &a) : tsr_avg_pool2d(powered, &avg, &a);
        a = tsr__gx_keep(&x, st, a);
    }
    tsr_tensor *sign = tsr__gx_unary(&x, TSR_OP_SIGN, a);
    tsr_tensor *mag = tsr__gx_unary(&x, TSR_OP_RELU, tsr__gx_unary(&x, TSR_OP_ABS, a));
    tsr_tensor *scaled = tsr__gx_scale(&x, tsr__gx_mul(&x, sign, mag), (double)numel);
    tsr_tensor *root = NULL;
    if (x.status == TSR_OK) {
        st = tsr_binary(TSR_OP_POW, tsr_operand_tensor(scaled), tsr__gx_float(1.0 / p), &root);
        root = tsr__gx_keep(&x, st, root);
    }
    tsr__gx_result(&x, &result, root);
    st = tsr__gx_finish(&x);
    return tsr__deliver(st, result, out);
}

tsr_status tsr_lp_pool1d(const tsr_tensor *input, double norm_type,
                         const tsr_pool_options *options, tsr_tensor **out)
{
    return lp_pool("lp_pool1d", 1, input, norm_type, options, out);
}

tsr_status tsr_lp_pool2d(const tsr_tensor *input, double norm_type,
                         const tsr_pool_options *options, tsr_tensor **out)
{
    return lp_pool("lp_pool2d", 2, input, norm_type, options, out);
}

/* ---- pixel_shuffle / pixel_unshuffle ------------------------------------- */

static tsr_status shuffle(const char *name, const tsr_tensor *input, int64_t r, bool up,
                          tsr_tensor **out)
{
    if (!input || !out)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: input and out must not be NULL",
                              name);
    int nd = input->ndim;
    if (nd < 3)
        return tsr__set_error(TSR_ERR_SHAPE,
                              "%s: %s expects input to have at least 3 dimensions, but got "
                              "input with %d dimension(s)",
                              name, name, nd);
    if (nd + 2 > TSR_MAX_DIMS)
        return tsr__set_error(TSR_ERR_SHAPE, "%s: input has too many dims", name);
    if (r <= 0)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                              "%s: %s expects a positive %s, but got %lld", name, name,
                              up ? "upscale_factor" : "downscale_factor", (long long)r);
    const int64_t *sh = input->shape;
    int64_t c = sh[nd - 3], h = sh[nd - 2], w = sh[nd - 1];
    if (up && c % (r * r) != 0)
        return tsr__set_error(TSR_ERR_SHAPE,
                              "%s: pixel_shuffle expects its input's 'channel' dimension to be "
                              "divisible by the square of upscale_factor, but input.size(-3)=%lld "
                              "is not divisible by %lld",
                              name, (long long)c, (long long)(r * r));
    if (!up && (h % r != 0 || w % r != 0))
        return tsr__set_error(TSR_ERR_SHAPE,
                              "%s: pixel_unshuffle expects %s to be divisible by "
                              "downscale_factor, but input.size(%d)=%lld is not divisible by %lld",
                              name, h % r ? "height" : "width", h % r ? -2 : -1,
                              (long long)(h % r ? h : w), (long long)r);
    /* PyTorch 1.13's pixel_unshuffle returns an empty input's copy as it is. */
    if (!up && tsr__numel(nd, sh) == 0)
        return tsr_clone(input, out);
    int lead = nd - 3;
    int64_t split[TSR_MAX_DIMS], final[TSR_MAX_DIMS], perm[TSR_MAX_DIMS];
    for (int i = 0; i < lead; i++) {
        split[i] = final[i] = sh[i];
        perm[i] = i;
    }
    int64_t *sp = split + lead, *pm = perm + lead, *fi = final + lead;
    if (up) { /* [C', r, r, H, W] -> [C', H, r, W, r] */
        int64_t s[5] = {c / (r * r), r, r, h, w}, p[5] = {0, 3, 1, 4, 2};
        int64_t f[3] = {c / (r * r), h * r, w * r};
        for (int i = 0; i < 5; i++)
            sp[i] = s[i], pm[i] = lead + p[i];
        for (int i = 0; i < 3; i++)
            fi[i] = f[i];
    } else { /* [C, H', r, W', r] -> [C, r, r, H', W'] */
        int64_t s[5] = {c, h / r, r, w / r, r}, p[5] = {0, 2, 4, 1, 3};
        int64_t f[3] = {c * r * r, h / r, w / r};
        for (int i = 0; i < 5; i++)
            sp[i] = s[i], pm[i] = lead + p[i];
        for (int i = 0; i < 3; i++)
            fi[i] = f[i];
    }
    tsr__gx x = {0};
    tsr_tensor *split_t = tsr__nn_reshape(&x, input, lead + 5, split), *moved = NULL, *result = NULL;
    if (x.status == TSR_OK) {
        tsr_status st = tsr_permute(split_t, lead + 5, perm, &moved);
        moved = tsr__gx_keep(&x, st, moved);
    }
    tsr_tensor *shaped = tsr__nn_reshape(&x, moved, lead + 3, final);
    /* PyTorch's result is always new memory; a reshape of size-1 or empty
     * dims can be a view. */
    if (shaped && shaped->storage == input->storage) {
        tsr_tensor *copy = NULL;
        tsr_status cs = tsr_clone(shaped, &copy);
        shaped = tsr__gx_keep(&x, cs, copy);
    }
    tsr__gx_result(&x, &result, shaped);
    tsr_status st = tsr__gx_finish(&x);
    return tsr__deliver(st, result, out);
}

tsr_status tsr_pixel_shuffle(const tsr_tensor *input, int64_t upscale_factor, tsr_tensor **out)
{
    return shuffle("pixel_shuffle", input, upscale_factor, true, out);
}

tsr_status tsr_pixel_unshuffle(const tsr_tensor *input, int64_t downscale_factor,
                               tsr_tensor **out)
{
    return shuffle("pixel_unshuffle", input, downscale_factor, false, out);
}
