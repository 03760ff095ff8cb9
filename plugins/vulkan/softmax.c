/* softmax and log_softmax (shaders/softmax.comp): one workgroup per row. On
 * a device with shaderFloat64 and shaderInt64 the _wide variant computes in
 * double as the reference does, on every floating dtype; elsewhere float32
 * computes float16, bfloat16 and float32. The shader choice and the checks
 * shared with the norms are in launch_rows.c. */
#include <string.h>

#include "host.h"
#include "kernels.h"
#include "launch.h"
#include "launch_rows.h"

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
    /* Three strided passes over the row, two trees, the row's offsets. A
     * CPU device stops loops past its budget: there a single long row
     * (rows x per-row work over it) is composed from whole-tensor kernels
     * instead (softmax_long.c). */
    uint32_t w = b->pipelines.local_size;
    uint64_t per_row = 3 * (((uint64_t)len + w - 1) / w) + 40 + (uint64_t)outer;
    int too_long = b->device.props.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU &&
                   ((uint64_t)rows + 65534) / 65535 * per_row > TSR__VK_LOOP_BUDGET;
    /* The same for operands past maxStorageBufferRange, whose windows the
     * row shader cannot split (the composed kernels tile). */
    int too_big = (uint64_t)rows * (uint64_t)len * (uint64_t)tsr__vk_dtype_size(x->dtype) >
                  tsr__vk_piece_budget(b);
    if (status == TSR_OK && rows > 0 && len > 0 && (too_long || too_big))
        return tsr__vk_softmax_composed(b, args, dim);
    if (status == TSR_OK)
        status = tsr__vk_loop_budget(b, name, rows, len, per_row);
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
