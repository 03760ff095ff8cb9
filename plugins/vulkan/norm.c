/* softmax, log_softmax, layer_norm and rms_norm (shaders/softmax.comp,
 * shaders/norm.comp): one workgroup per row. On a device with shaderFloat64
 * and shaderInt64 the _wide variants compute in double as the reference
 * does, on every floating dtype; elsewhere float32 computes float16,
 * bfloat16 and float32. */
#include <string.h>

#include "host.h"
#include "kernels.h"
#include "launch_rows.h"

/* The shader running `op` (softmax or norm family) on `dtype`, -1 if none. */
static int tsr__vk_nn_shader(const struct tsr__vk_device *dev, int32_t op, int32_t dtype)
{
    int norm = op == TSR_OP_LAYER_NORM || op == TSR_OP_RMS_NORM;
    int wide = norm ? TSR__VK_SHADER_NORM_WIDE : TSR__VK_SHADER_SOFTMAX_WIDE;
    if (tsr__vk_rows_wide(dev, wide))
        return wide;
    if (dtype == TSR_FLOAT64)
        return -1;
    int narrow = norm ? TSR__VK_SHADER_NORM : TSR__VK_SHADER_SOFTMAX;
    return tsr__vk_shader_supported(dev, narrow) ? narrow : -1;
}

/* The dtypes the reference registers: PyTorch 1.13's CPU kernels (bfloat16,
 * float32, float64), and for rms_norm, whose composite form also runs in
 * float16, every floating dtype. */
tsr_kernel_fn tsr__vk_nn_kernel(const struct tsr__vk_backend *b, int32_t op, int32_t dtype)
{
    int cpu113 = dtype == TSR_BFLOAT16 || dtype == TSR_FLOAT32 || dtype == TSR_FLOAT64;
    int ok = cpu113 || (op == TSR_OP_RMS_NORM && dtype == TSR_FLOAT16);
    if (!ok || !tsr__vk_dtype_held(&b->device, dtype) ||
        tsr__vk_nn_shader(&b->device, op, dtype) < 0)
        return NULL;
    if (op == TSR_OP_SOFTMAX || op == TSR_OP_LOG_SOFTMAX)
        return tsr__vk_kernel_softmax;
    if (op == TSR_OP_LAYER_NORM || op == TSR_OP_RMS_NORM)
        return tsr__vk_kernel_norm;
    return NULL;
}

static int tsr__vk_nn_dtype(struct tsr__vk_backend *b, int32_t op, const char *name,
                            const tsr_tensor_desc *t)
{
    if (!tsr__vk_nn_kernel(b, op, t->dtype))
        return tsr__vk_error(b->host, TSR_ERR_DTYPE, "%s: dtype %s is not supported here", name,
                             tsr__vk_dtype_name(t->dtype));
    return TSR_OK;
}

static int tsr__vk_same_extents(const tsr_tensor_desc *a, const tsr_tensor_desc *b, int from,
                                int count)
{
    for (int d = 0; d < count; ++d)
        if (a->shape[from + d] != b->shape[d])
            return 0;
    return 1;
}

/* Rows of at most 2^32 - 1 elements, at most 2^32 - 1 of them. */
static int tsr__vk_row_sizes(struct tsr__vk_backend *b, const char *name, int64_t rows, int64_t len)
{
    if (rows < 0 || len < 0)
        return tsr__vk_error(b->host, TSR_ERR_SHAPE, "%s: a negative extent", name);
    if ((uint64_t)rows > UINT32_MAX || (uint64_t)len > UINT32_MAX)
        return tsr__vk_error(b->host, TSR_ERR_UNIMPLEMENTED,
                             "%s: %lld rows of %lld; this backend handles at most 2^32 - 1", name,
                             (long long)rows, (long long)len);
    return TSR_OK;
}

int tsr__vk_kernel_softmax(void *backend, const tsr_kernel_args *args)
{
    struct tsr__vk_backend *b = backend;
    const char *name = args && args->op == TSR_OP_LOG_SOFTMAX ? "log_softmax" : "softmax";
    if (!args || args->struct_size < sizeof(tsr_kernel_args) || args->num_inputs != 1 ||
        args->num_outputs != 1 || !args->inputs || !args->outputs)
        return tsr__vk_error(b->host, TSR_ERR_INVALID_ARGUMENT, "%s: expected 1 input and 1 output",
                             name);
    const tsr_scan_attrs *attrs = args->attrs;
    if (!attrs || attrs->struct_size < sizeof(tsr_scan_attrs))
        return tsr__vk_error(b->host, TSR_ERR_INVALID_ARGUMENT, "%s needs tsr_scan_attrs", name);
    const tsr_tensor_desc *x = &args->inputs[0], *y = &args->outputs[0];
    int nd = x->ndim, dim = attrs->dim;
    if (nd < 0 || nd > TSR_MAX_DIMS || y->ndim != nd || dim < 0 || dim >= (nd > 0 ? nd : 1) ||
        !tsr__vk_same_extents(x, y, 0, nd))
        return tsr__vk_error(b->host, TSR_ERR_SHAPE,
                             "%s: dim %d, input rank %d, output rank %d do not fit", name, dim, nd,
                             y->ndim);
    int status = tsr__vk_nn_dtype(b, args->op, name, x);
    if (status == TSR_OK && y->dtype != x->dtype)
        status = tsr__vk_error(b->host, TSR_ERR_DTYPE, "%s: output is %s, input %s", name,
                               tsr__vk_dtype_name(y->dtype), tsr__vk_dtype_name(x->dtype));
    /* The outer dims in order, then the row's dim last. */
    struct tsr__vk_custom c;
    memset(&c, 0, sizeof c);
    int64_t rows = 1, len = nd > 0 ? x->shape[dim] : 1;
    for (int d = 0; d < nd; ++d) {
        if (d == dim)
            continue;
        c.shape[c.ndim] = x->shape[d];
        c.stride[0][c.ndim] = y->strides[d];
        c.stride[1][c.ndim] = x->strides[d];
        rows *= x->shape[d];
        c.ndim++;
    }
    int outer = c.ndim;
    c.shape[c.ndim] = len;
    c.stride[0][c.ndim] = nd > 0 ? y->strides[dim] : 0;
    c.stride[1][c.ndim] = nd > 0 ? x->strides[dim] : 0;
    c.ndim++;
    if (status == TSR_OK)
        status = tsr__vk_row_sizes(b, name, rows, len);
    if (status != TSR_OK || rows == 0 || len == 0)
        return status;
    c.numel = (uint32_t)rows;
    c.groups = (uint64_t)rows;
    struct tsr__vk_launch l = {.shader = tsr__vk_nn_shader(&b->device, args->op, x->dtype),
                               .spec = {args->op, x->dtype, x->dtype, 0},
                               .out = y,
                               .in = {x},
                               .num_in = 1,
                               .scalar = {(uint32_t)outer, (uint32_t)len}};
    pthread_mutex_lock(&b->lock);
    status = tsr__vk_launch_custom(b, &l, &c);
    pthread_mutex_unlock(&b->lock);
    return status;
}

/* Checks a norm call: x, parameters, y and the statistics. */
static int tsr__vk_norm_check(struct tsr__vk_backend *b, const tsr_kernel_args *args,
                              const char *name, int *inner)
{
    int rms = args->op == TSR_OP_RMS_NORM;
    int outputs = rms ? 2 : 3, max_params = rms ? 1 : 2;
    const tsr_index_attrs *attrs = args->attrs;
    if (args->struct_size < sizeof(tsr_kernel_args) || args->num_outputs != outputs ||
        args->num_inputs < 1 || args->num_inputs > 1 + max_params || !args->inputs ||
        !args->outputs || !attrs || attrs->struct_size < offsetof(tsr_index_attrs, eps) + 8)
        return tsr__vk_error(b->host, TSR_ERR_INVALID_ARGUMENT,
                             "%s takes x and up to %d parameters, %d outputs and "
                             "tsr_index_attrs",
                             name, max_params, outputs);
    const tsr_tensor_desc *x = &args->inputs[0];
    int nd = x->ndim;
    if (nd < 0 || nd > TSR_MAX_DIMS || attrs->offset < 0 || attrs->offset > nd)
        return tsr__vk_error(b->host, TSR_ERR_SHAPE, "%s: %lld normalized dims of a rank-%d x",
                             name, (long long)attrs->offset, nd);
    *inner = (int)attrs->offset;
    int status = tsr__vk_nn_dtype(b, args->op, name, x);
    for (int k = 0; k < args->num_inputs + outputs && status == TSR_OK; ++k) {
        const tsr_tensor_desc *t =
            k < args->num_inputs ? &args->inputs[k] : &args->outputs[k - args->num_inputs];
        int param = k > 0 && k<args->num_inputs, stat = k> args->num_inputs;
        int ok = t->dtype == x->dtype && t->ndim == (param ? *inner : nd);
        for (int d = 0; ok && d < t->ndim; ++d) {
            int64_t want = param ? x->shape[nd - *inner + d] : x->shape[d];
            ok = t->shape[d] == (stat && d >= nd - *inner ? 1 : want);
        }
        if (!ok)
            status = tsr__vk_error(b->host, TSR_ERR_SHAPE,
                                   "%s: %s %d does not have x's dtype and the expected shape", name,
                                   k < args->num_inputs ? "input" : "output",
                                   k < args->num_inputs ? k : k - args->num_inputs);
    }
    return status;
}

int tsr__vk_kernel_norm(void *backend, const tsr_kernel_args *args)
{
    struct tsr__vk_backend *b = backend;
    const char *name = args && args->op == TSR_OP_RMS_NORM ? "rms_norm" : "layer_norm";
    if (!args)
        return tsr__vk_error(b->host, TSR_ERR_INVALID_ARGUMENT, "%s: no arguments", name);
    int inner = 0;
    int status = tsr__vk_norm_check(b, args, name, &inner);
    if (status != TSR_OK)
        return status;
    const tsr_index_attrs *attrs = args->attrs;
    const tsr_tensor_desc *x = &args->inputs[0];
    int nd = x->ndim, outer = nd - inner, params = args->num_inputs - 1;
    struct tsr__vk_custom c;
    memset(&c, 0, sizeof c);
    int64_t rows = 1, len = 1;
    c.ndim = nd > 0 ? nd : 1;
    c.shape[0] = 1;
    for (int d = 0; d < nd; ++d) {
        c.shape[d] = x->shape[d];
        c.stride[1][d] = x->strides[d];
        for (int k = 0; k < params; ++k)
            c.stride[2 + k][d] = d >= outer ? args->inputs[1 + k].strides[d - outer] : 0;
        if (d < outer)
            rows *= x->shape[d];
        else
            len *= x->shape[d];
    }
    status = tsr__vk_row_sizes(b, name, rows, len);
    if (status != TSR_OK || rows == 0)
        return status;
    c.numel = (uint32_t)rows;
    c.groups = (uint64_t)rows;
    struct tsr__vk_launch l = {.shader = tsr__vk_nn_shader(&b->device, args->op, x->dtype),
                               .num_in = 1 + params,
                               .scalar = {(uint32_t)outer, (uint32_t)len}};
    if (l.shader == TSR__VK_SHADER_NORM_WIDE) {
        memcpy(&l.scalar[2], &attrs->eps, sizeof attrs->eps);
    } else {
        float eps = (float)attrs->eps;
        memcpy(&l.scalar[2], &eps, sizeof eps);
    }
    for (int k = 0; k <= params; ++k)
        l.in[k] = &args->inputs[k];
    /* The statistics first (mean, then rstd; rms_norm has rstd only), then
     * y: y may be x itself, which the statistics still read. */
    int passes[3] = {1, 2, 0}, first = args->op == TSR_OP_RMS_NORM ? 1 : 0;
    pthread_mutex_lock(&b->lock);
    for (int p = first; p < 3 && status == TSR_OK; ++p) {
        int pass = passes[p];
        l.out = &args->outputs[pass == 0 ? 0 : (first ? 1 : pass)];
        l.spec = (struct tsr__vk_spec){args->op, x->dtype, x->dtype,
                                       pass | (params > 0 ? 4 : 0) | (params > 1 ? 8 : 0)};
        for (int d = 0; d < nd; ++d)
            c.stride[0][d] = pass != 0 && d >= outer ? 0 : l.out->strides[d];
        if (pass == 0 && len == 0)
            continue;
        status = tsr__vk_launch_custom(b, &l, &c);
    }
    pthread_mutex_unlock(&b->lock);
    return status;
}
