/* layer_norm and rms_norm (shaders/norm.comp): one workgroup per row. On a
 * device with shaderFloat64 and shaderInt64 the _wide variant computes in
 * double as the reference does, on every floating dtype; elsewhere float32
 * computes float16, bfloat16 and float32. The shader choice and the checks
 * shared with softmax are in launch_rows.c. */
#include <string.h>

#include "host.h"
#include "kernels.h"
#include "launch_rows.h"

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
    /* Two sums and the write, each element's offsets a loop over the
     * normalized dims; float64 rows are summed by one invocation. */
    uint64_t w = b->pipelines.local_size, strided = ((uint64_t)len + w - 1) / w;
    uint64_t sums = x->dtype == TSR_FLOAT64 ? (uint64_t)len : strided;
    if (status == TSR_OK)
        status = tsr__vk_loop_budget(b, name, rows, len,
                                     (2 * sums + strided) * (uint64_t)(inner + 1) + 40);
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
