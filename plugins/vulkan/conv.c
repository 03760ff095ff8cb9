/* im2col and col2im for float32 (shaders/conv_im2col.comp, shaders/conv_col2im.comp),
 * with the dispatch of index.c. The core composes every convolution from
 * these two and the tiled matmul (this backend has no direct convolution
 * rows).
 *
 * im2col walks a common shape [N, C, k..., o...] (kernel offsets, then
 * windows), over which both the columns and the image move affinely; the
 * shader subtracts the padding and writes 0 where a window leaves the
 * image. col2im walks the image and gathers, for each kernel offset, the
 * one window (if any) that reads the position, summing in float32 in the
 * reference's order (kernel offsets ascending). Geometry travels in the
 * metadata's spare words and the push constants. */
#include <string.h>

#include "host.h"
#include "kernels.h"
#include "launch_rows.h"

enum { SPATIAL = TSR_CONV_MAX_SPATIAL };

int tsr__vk_conv_supported(const struct tsr__vk_device *dev, int32_t op, int32_t dtype)
{
    int shader = op == TSR_OP_IM2COL ? TSR__VK_SHADER_IM2COL : TSR__VK_SHADER_COL2IM;
    return (op == TSR_OP_IM2COL || op == TSR_OP_COL2IM) && dtype == TSR_FLOAT32 &&
           tsr__vk_shader_supported(dev, shader);
}

static int64_t windows(const tsr_conv_attrs *a, int d, int64_t in)
{
    int64_t span = a->dilation[d] * (a->kernel[d] - 1) + 1;
    int64_t room = in + a->padding[d] + a->padding_end[d] - span;
    return room < 0 ? 0 : room / a->stride[d] + 1;
}

/* The checks both kernels make; fills the window counts and K. */
static int conv_args(struct tsr__vk_backend *b, const tsr_kernel_args *args,
                     const tsr_tensor_desc *image, const tsr_tensor_desc *cols, int64_t *out,
                     int64_t *volume)
{
    const tsr_conv_attrs *a = args->attrs;
    if (!a || a->struct_size < sizeof *a || a->spatial_ndim < 1 || a->spatial_ndim > SPATIAL)
        return tsr__vk_error(b->host, TSR_ERR_INVALID_ARGUMENT,
                             "needs tsr_conv_attrs with spatial_ndim 1 to 3");
    int nd = a->spatial_ndim;
    if (image->ndim != 2 + nd || cols->ndim != 3 || image->dtype != TSR_FLOAT32 ||
        cols->dtype != TSR_FLOAT32)
        return tsr__vk_error(b->host, TSR_ERR_SHAPE,
                             "expects a float32 image of rank %d and float32 columns of rank 3",
                             2 + nd);
    int64_t k = 1, l = 1;
    for (int d = 0; d < nd; ++d) {
        /* Geometry goes to the shader as 32-bit words. */
        if (a->kernel[d] < 1 || a->stride[d] < 1 || a->dilation[d] < 1 || a->padding[d] < 0 ||
            a->kernel[d] > INT32_MAX || a->stride[d] > INT32_MAX || a->dilation[d] > INT32_MAX ||
            a->padding[d] > INT32_MAX || image->shape[2 + d] > INT32_MAX)
            return tsr__vk_error(b->host, TSR_ERR_INVALID_ARGUMENT,
                                 "geometry outside this backend's 32-bit range");
        out[d] = windows(a, d, image->shape[2 + d]);
        k *= a->kernel[d];
        l *= out[d];
    }
    if (cols->shape[0] != image->shape[0] || cols->shape[1] != image->shape[1] * k ||
        cols->shape[2] != l)
        return tsr__vk_error(b->host, TSR_ERR_SHAPE, "columns do not match the image");
    *volume = k;
    return TSR_OK;
}

static int im2col(struct tsr__vk_backend *b, const tsr_kernel_args *args)
{
    const tsr_tensor_desc *x = &args->inputs[0], *cols = &args->outputs[0];
    const tsr_conv_attrs *a = args->attrs;
    int64_t out[SPATIAL], volume;
    int status = conv_args(b, args, x, cols, out, &volume);
    if (status != TSR_OK)
        return status;
    int nd = a->spatial_ndim;
    struct tsr__vk_custom c;
    memset(&c, 0, sizeof c);
    c.ndim = 2 + 2 * nd;
    c.shape[0] = x->shape[0];
    c.shape[1] = x->shape[1];
    c.stride[0][0] = cols->strides[0];
    c.stride[0][1] = volume * cols->strides[1];
    c.stride[1][0] = x->strides[0];
    c.stride[1][1] = x->strides[1];
    int64_t kernel_after = volume, windows_after = 1;
    for (int d = 0; d < nd; ++d)
        windows_after *= out[d];
    for (int d = 0; d < nd; ++d) {
        kernel_after /= a->kernel[d];
        windows_after /= out[d];
        c.shape[2 + d] = a->kernel[d];
        c.shape[2 + nd + d] = out[d];
        c.stride[0][2 + d] = kernel_after * cols->strides[1];
        c.stride[0][2 + nd + d] = windows_after * cols->strides[2];
        c.stride[1][2 + d] = a->dilation[d] * x->strides[2 + d];
        c.stride[1][2 + nd + d] = a->stride[d] * x->strides[2 + d];
        c.extra[4 * d] = (uint32_t)x->shape[2 + d];
        c.extra[4 * d + 1] = (uint32_t)a->padding[d];
        c.extra[4 * d + 2] = (uint32_t)a->stride[d];
        c.extra[4 * d + 3] = (uint32_t)a->dilation[d];
    }
    /* the image's byte stride along each spatial dim, for the padding shift */
    for (int d = 0; d < nd; ++d)
        c.extra[12 + d] = (uint32_t)(x->strides[2 + d] * 4);
    if ((status = tsr__vk_elements(b, tsr__vk_desc_numel(cols), &c)) != TSR_OK ||
        (status = tsr__vk_loop_budget(b, "im2col", c.numel, 1, 32)) != TSR_OK)
        return status;
    struct tsr__vk_launch l = {.shader = TSR__VK_SHADER_IM2COL,
                               .spec = {args->op, TSR_FLOAT32, TSR_FLOAT32, 0},
                               .out = cols,
                               .in = {x},
                               .num_in = 1};
    return tsr__vk_index_run(b, "im2col", NULL, 0, 0, NULL, &l, &c);
}

static int col2im(struct tsr__vk_backend *b, const tsr_kernel_args *args)
{
    const tsr_tensor_desc *cols = &args->inputs[0], *x = &args->outputs[0];
    const tsr_conv_attrs *a = args->attrs;
    int64_t out[SPATIAL], volume;
    int status = conv_args(b, args, x, cols, out, &volume);
    if (status != TSR_OK)
        return status;
    int nd = a->spatial_ndim;
    if (cols->strides[1] > INT32_MAX / 4 || cols->strides[2] > INT32_MAX / 4)
        return tsr__vk_error(b->host, TSR_ERR_UNIMPLEMENTED, "col2im: columns too large");
    struct tsr__vk_custom c;
    tsr__vk_custom_over(&c, x);
    c.stride[1][0] = cols->strides[0];
    c.stride[1][1] = volume * cols->strides[1];
    for (int d = 0; d < nd; ++d) {
        c.extra[5 * d] = (uint32_t)a->padding[d];
        c.extra[5 * d + 1] = (uint32_t)a->stride[d];
        c.extra[5 * d + 2] = (uint32_t)a->dilation[d];
        c.extra[5 * d + 3] = (uint32_t)a->kernel[d];
        c.extra[5 * d + 4] = (uint32_t)out[d];
    }
    if ((status = tsr__vk_elements(b, tsr__vk_desc_numel(x), &c)) != TSR_OK ||
        (status = tsr__vk_loop_budget(b, "col2im", c.numel, 1, (uint64_t)volume * 8 + 24)) !=
            TSR_OK)
        return status;
    struct tsr__vk_launch l = {
        .shader = TSR__VK_SHADER_COL2IM,
        .spec = {args->op, TSR_FLOAT32, TSR_FLOAT32, 0},
        .out = x,
        .in = {cols},
        .num_in = 1,
        .scalar = {(uint32_t)(cols->strides[1] * 4), (uint32_t)(cols->strides[2] * 4)}};
    return tsr__vk_index_run(b, "col2im", NULL, 0, 0, NULL, &l, &c);
}

int tsr__vk_kernel_conv(void *backend, const tsr_kernel_args *args)
{
    struct tsr__vk_backend *b = backend;
    if (!args || args->struct_size < sizeof(tsr_kernel_args) || args->num_inputs != 1 ||
        args->num_outputs != 1 || !args->inputs || !args->outputs)
        return tsr__vk_error(b->host, TSR_ERR_INVALID_ARGUMENT, "expected 1 input and 1 output");
    for (int k = 0; k < 2; ++k) {
        const tsr_tensor_desc *t = k ? &args->outputs[0] : &args->inputs[0];
        for (int d = 0; d < t->ndim; ++d)
            if (t->shape[d] < 0 || t->strides[d] < 0)
                return tsr__vk_error(b->host, TSR_ERR_SHAPE, "negative extent or stride");
    }
    return args->op == TSR_OP_IM2COL ? im2col(b, args) : col2im(b, args);
}
