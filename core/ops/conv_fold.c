/* F.unfold (im2col) and F.fold (col2im) over 2 spatial dims: PyTorch 1.13's
 * checks and messages (ATen's im2col_shape_check and col2im_shape_check),
 * then the differentiable im2col and col2im of conv_compute.c. */
#include "autograd/graph.h"
#include "ops/conv.h"
#include "runtime/error.h"
#include "tensor/shape.h"

static const tsr_conv_params DEFAULTS = {0};

static tsr_status pair(const char *name, const char *arg, const int64_t *v, int n, int64_t fallback,
                       int64_t *out)
{
    if (n < 0 || n > 2 || (n > 0 && !v))
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                              "%s: %s must be an int or a tuple of 2 ints (got %d values)", name,
                              arg, n);
    out[0] = n == 0 ? fallback : v[0];
    out[1] = n == 0 ? fallback : v[n - 1];
    out[2] = fallback;
    return TSR_OK;
}

/* kernel_size, dilation, padding, stride into attrs, with their checks. */
static tsr_status read_geometry(const char *name, const int64_t *kernel, int nkernel,
                                const tsr_conv_params *params, tsr_conv_attrs *a)
{
    const tsr_conv_params *p = params ? params : &DEFAULTS;
    if (p->padding_mode != TSR_CONV_PADDING_EXPLICIT || p->noutput_padding != 0 ||
        (p->groups != 0 && p->groups != 1))
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                              "%s: takes only dilation, padding and stride parameters", name);
    *a = (tsr_conv_attrs){.struct_size = sizeof *a, .spatial_ndim = 2, .groups = 1};
    if (nkernel < 1)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: kernel_size is required", name);
    tsr_status st = pair(name, "kernel_size", kernel, nkernel, 1, a->kernel);
    if (st == TSR_OK)
        st = pair(name, "dilation", p->dilation, p->ndilation, 1, a->dilation);
    if (st == TSR_OK)
        st = pair(name, "padding", p->padding, p->npadding, 0, a->padding);
    if (st == TSR_OK)
        st = pair(name, "stride", p->stride, p->nstride, 1, a->stride);
    if (st != TSR_OK)
        return st;
    for (int d = 0; d < TSR_CONV_MAX_SPATIAL; d++)
        a->padding_end[d] = a->padding[d];
    if (a->kernel[0] < 1 || a->kernel[1] < 1)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                              "%s: kernel size should be greater than zero, but got "
                              "kernel_height: %lld kernel_width: %lld",
                              name, (long long)a->kernel[0], (long long)a->kernel[1]);
    if (a->dilation[0] < 1 || a->dilation[1] < 1)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                              "%s: dilation should be greater than zero, but got "
                              "dilation_height: %lld dilation_width: %lld",
                              name, (long long)a->dilation[0], (long long)a->dilation[1]);
    if (a->padding[0] < 0 || a->padding[1] < 0)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                              "%s: padding should be non-negative, but got pad_height: %lld "
                              "pad_width: %lld",
                              name, (long long)a->padding[0], (long long)a->padding[1]);
    if (a->stride[0] < 1 || a->stride[1] < 1)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                              "%s: stride should be greater than zero, but got stride_height: "
                              "%lld stride_width: %lld",
                              name, (long long)a->stride[0], (long long)a->stride[1]);
    return TSR_OK;
}

static bool dtype_ok(tsr_dtype dt)
{
    return tsr_dtype_is_floating(dt) || tsr_dtype_is_complex(dt);
}

/* The window counts of a 2-d extent, with the "at least one" check. */
static tsr_status windows(const char *name, const tsr_conv_attrs *a, const int64_t *spatial,
                          int64_t *blocks)
{
    for (int d = 0; d < 2; d++)
        blocks[d] = tsr__conv_windows(a, d, spatial[d]);
    if (blocks[0] >= 1 && blocks[1] >= 1)
        return TSR_OK;
    return tsr__set_error(
        TSR_ERR_SHAPE,
        "%s: Given input with spatial size (%lld, %lld), kernel_size=(%lld, "
        "%lld), dilation=(%lld, %lld), padding=(%lld, %lld), calculated shape "
        "of the array of sliding blocks as (%lld, %lld), but its components "
        "must be at least one.",
        name, (long long)spatial[0], (long long)spatial[1], (long long)a->kernel[0],
        (long long)a->kernel[1], (long long)a->dilation[0], (long long)a->dilation[1],
        (long long)a->padding[0], (long long)a->padding[1],
        (long long)(blocks[0] < 0 ? 0 : blocks[0]), (long long)(blocks[1] < 0 ? 0 : blocks[1]));
}

static tsr_status deliver(tsr_status st, bool unbatched, tsr_tensor *y, tsr_tensor **out)
{
    if (st != TSR_OK || !unbatched)
        return tsr__deliver(st, y, out);
    st = tsr_squeeze_dim(y, 0, out);
    tsr_tensor_release(y);
    return st;
}

/* input viewed with a batch dim when it has `unbatched_rank` dims. */
static tsr_status with_batch(const tsr_tensor *t, int unbatched_rank, tsr_tensor **out)
{
    if (t->ndim != unbatched_rank) {
        tsr_tensor_retain(*out = (tsr_tensor *)t);
        return TSR_OK;
    }
    return tsr_unsqueeze(t, 0, out);
}

static bool nonzero_dims(const tsr_tensor *t, int from)
{
    for (int d = from; d < t->ndim; d++)
        if (t->shape[d] == 0)
            return false;
    return true;
}

tsr_status tsr_unfold(const tsr_tensor *input, const int64_t *kernel_size, int nkernel,
                      const tsr_conv_params *params, tsr_tensor **out)
{
    const char *name = "unfold";
    if (!input || !out)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: input and out must not be NULL", name);
    tsr_conv_attrs a;
    tsr_status st = read_geometry(name, kernel_size, nkernel, params, &a);
    if (st != TSR_OK)
        return st;
    char s[160];
    if ((input->ndim != 3 && input->ndim != 4) || !nonzero_dims(input, input->ndim - 3))
        return tsr__set_error(TSR_ERR_SHAPE,
                              "%s: Expected 3D or 4D (batch mode) tensor with possibly 0 batch "
                              "size and other non-zero dimensions for input, but got: %s",
                              name, tsr__shape_str(input->ndim, input->shape, s, sizeof s));
    if (!dtype_ok(input->dtype))
        return tsr__set_error(TSR_ERR_DTYPE, "%s: \"im2col_out_cpu\" not implemented for %s", name,
                              tsr_dtype_name(input->dtype));
    int64_t blocks[2];
    if ((st = windows(name, &a, input->shape + input->ndim - 2, blocks)) != TSR_OK)
        return st;
    tsr_tensor *x = NULL, *y = NULL;
    if ((st = with_batch(input, 3, &x)) != TSR_OK)
        return st;
    st = tsr__conv_im2col(name, x, &a, &y);
    tsr_tensor_release(x);
    return deliver(st, input->ndim == 3, y, out);
}

tsr_status tsr_fold(const tsr_tensor *input, const int64_t *output_size, int noutput,
                    const int64_t *kernel_size, int nkernel, const tsr_conv_params *params,
                    tsr_tensor **out)
{
    const char *name = "fold";
    if (!input || !out)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: input and out must not be NULL", name);
    tsr_conv_attrs a;
    tsr_status st = read_geometry(name, kernel_size, nkernel, params, &a);
    int64_t size[3];
    if (st == TSR_OK && noutput < 1)
        st = tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: output_size is required", name);
    if (st == TSR_OK)
        st = pair(name, "output_size", output_size, noutput, 1, size);
    if (st != TSR_OK)
        return st;
    char s[160];
    if ((input->ndim != 2 && input->ndim != 3) || !nonzero_dims(input, input->ndim - 2))
        return tsr__set_error(TSR_ERR_SHAPE,
                              "%s: Expected 2D or 3D (batch mode) tensor for input with possibly "
                              "0 batch size and non-zero dimensions for input, but got: %s",
                              name, tsr__shape_str(input->ndim, input->shape, s, sizeof s));
    if (!dtype_ok(input->dtype))
        return tsr__set_error(TSR_ERR_DTYPE, "%s: \"col2im_out_cpu\" not implemented for %s", name,
                              tsr_dtype_name(input->dtype));
    int64_t rows = input->shape[input->ndim - 2], l = input->shape[input->ndim - 1];
    int64_t k = a.kernel[0] * a.kernel[1];
    if (rows % k != 0)
        return tsr__set_error(TSR_ERR_SHAPE,
                              "%s: Expected size of input's dimension 1 to be divisible by the "
                              "product of kernel_size, but got input.size(1)=%lld and "
                              "kernel_size=(%lld, %lld).",
                              name, (long long)rows, (long long)a.kernel[0],
                              (long long)a.kernel[1]);
    if (size[0] < 1 || size[1] < 1)
        return tsr__set_error(TSR_ERR_SHAPE,
                              "%s: Expected output spatial size to be positive, but got: "
                              "output_size=(%lld, %lld).",
                              name, (long long)size[0], (long long)size[1]);
    int64_t blocks[2];
    if ((st = windows(name, &a, size, blocks)) != TSR_OK)
        return st;
    if (blocks[0] * blocks[1] != l)
        return tsr__set_error(TSR_ERR_SHAPE,
                              "%s: Given output_size=(%lld, %lld), kernel_size=(%lld, %lld), "
                              "dilation=(%lld, %lld), padding=(%lld, %lld), stride=(%lld, %lld), "
                              "expected size of input's dimension 2 to match the calculated "
                              "number of sliding blocks %lld * %lld = %lld, but got "
                              "input.size(2)=%lld.",
                              name, (long long)size[0], (long long)size[1], (long long)a.kernel[0],
                              (long long)a.kernel[1], (long long)a.dilation[0],
                              (long long)a.dilation[1], (long long)a.padding[0],
                              (long long)a.padding[1], (long long)a.stride[0],
                              (long long)a.stride[1], (long long)blocks[0], (long long)blocks[1],
                              (long long)(blocks[0] * blocks[1]), (long long)l);
    tsr_tensor *x = NULL, *y = NULL;
    if ((st = with_batch(input, 2, &x)) != TSR_OK)
        return st;
    st = tsr__conv_col2im(name, x, &a, size, &y);
    tsr_tensor_release(x);
    return deliver(st, input->ndim == 2, y, out);
}
