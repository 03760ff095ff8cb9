/* Elementwise calls from kernel arguments to planned kernel parameters
 * (elem_prepare.h): plain C, so tests/test_cuda_elementwise_kernel.c runs
 * the same path with host memory. */
#include "elem_prepare.h"

#include <stdio.h>

#include "allocator.h"
#include "elem_table.h"

static int valid_dtype(int32_t dtype)
{
    return dtype >= 0 && dtype < TSR_DTYPE_COUNT;
}

/* Operand `k` of the layout from its descriptor, which must have the
 * output's shape (inputs come broadcast with 0 strides). */
static int add_operand(const tsr_host_api *host, const char *op, const tsr_tensor_desc *out,
                       const tsr_tensor_desc *desc, int k, tsr__cu_elem_params *p)
{
    const char *which = k == 0 ? "output" : "an input";
    if (!desc || desc->ndim < 0 || desc->ndim > TSR_MAX_DIMS || !valid_dtype(desc->dtype) ||
        (desc->ndim > 0 && (!desc->shape || !desc->strides)))
        return host->set_error(TSR_ERR_INVALID_ARGUMENT,
                               "%s: %s descriptor is malformed (rank, dtype, shape or strides)", op,
                               which);
    if (desc->ndim != out->ndim)
        return host->set_error(TSR_ERR_SHAPE, "%s: input %d has rank %d, the output %d", op, k - 1,
                               (int)desc->ndim, (int)out->ndim);
    for (int32_t d = 0; d < desc->ndim; d++) {
        if (desc->shape[d] != out->shape[d] || desc->shape[d] < 0 || desc->strides[d] < 0)
            return host->set_error(TSR_ERR_SHAPE,
                                   "%s: %s has size %lld and stride %lld at dim %d "
                                   "(output size %lld)",
                                   op, which, (long long)desc->shape[d],
                                   (long long)desc->strides[d], (int)d, (long long)out->shape[d]);
        p->layout.shape[d] = desc->shape[d];
        p->layout.strides[k][d] = desc->strides[d];
    }
    int64_t numel = 1;
    for (int32_t d = 0; d < desc->ndim; d++)
        numel *= desc->shape[d];
    if (!desc->data && numel > 0)
        return host->set_error(TSR_ERR_INVALID_ARGUMENT, "%s: %s has %lld elements and no data", op,
                               which, (long long)numel);
    p->data[k] = tsr__cu_ptr(desc->data, desc->byte_offset);
    p->dtype[k] = desc->dtype;
    p->size[k] = tsr__cu_dtype_size(desc->dtype);
    return TSR_OK;
}

int tsr__cu_elem_prepare(const tsr_host_api *host, const tsr_kernel_args *args, int32_t arity,
                         tsr__cu_elem_params *p)
{
    const char *op = tsr__cu_op_name(args->op);
    if (args->struct_size < sizeof(tsr_kernel_args) || args->num_outputs != 1 || !args->outputs ||
        args->num_inputs != arity || (arity > 0 && !args->inputs))
        return host->set_error(TSR_ERR_INVALID_ARGUMENT,
                               "%s takes %d inputs and 1 output, got %d and %d", op, (int)arity,
                               (int)args->num_inputs, (int)args->num_outputs);
    memset(p, 0, sizeof *p);
    const tsr_tensor_desc *out = &args->outputs[0];
    p->arity = arity;
    p->layout.operands = arity + 1;
    p->layout.ndim = out->ndim;
    for (int k = 0; k <= arity; k++) {
        int status = add_operand(host, op, out, k == 0 ? out : &args->inputs[k - 1], k, p);
        if (status != TSR_OK)
            return status;
    }
    return TSR_OK;
}

void tsr__cu_elem_plan(tsr__cu_elem_params *p)
{
    tsr__cu_collapse(&p->layout);
    p->count = tsr__cu_layout_count(&p->layout);
    uintptr_t addresses[TSR__CU_MAX_OPERANDS];
    p->broadcast_mask = 0;
    for (int k = 0; k <= p->arity; k++) {
        addresses[k] = (uintptr_t)p->data[k];
        if (k > 0 && (p->layout.ndim == 0 || p->layout.strides[k][0] == 0))
            p->broadcast_mask |= 1u << k;
    }
    p->vectorized = tsr__cu_layout_vectorizable(&p->layout, addresses, p->size);
    if (!p->vectorized)
        p->broadcast_mask = 0;
    p->use_int32 = tsr__cu_layout_fits_int32(&p->layout);
}

void tsr__cu_elem_copy_params(int32_t dtype, int32_t ndim, const int64_t *shape, char *dst,
                              const int64_t *dst_strides, const char *src,
                              const int64_t *src_strides, tsr__cu_elem_params *p)
{
    memset(p, 0, sizeof *p);
    p->arity = 1;
    p->layout.operands = 2;
    p->layout.ndim = ndim;
    for (int32_t d = 0; d < ndim; d++) {
        p->layout.shape[d] = shape[d];
        p->layout.strides[0][d] = dst_strides[d];
        p->layout.strides[1][d] = src_strides[d];
    }
    p->data[0] = dst;
    p->data[1] = (char *)src;
    p->dtype[0] = p->dtype[1] = dtype;
    p->size[0] = p->size[1] = tsr__cu_dtype_size(dtype);
    p->ctx.op = TSR_OP_COPY;
    p->ctx.dtype = dtype;
    p->ctx.category = p->out_category = tsr__cu_dtype_category(dtype);
    p->raw_mask = 3u;
    tsr__cu_elem_plan(p);
}

int tsr__cu_elem_build_copy(const tsr_host_api *host, const tsr_kernel_args *args,
                            tsr__cu_elem_params *p)
{
    int status = tsr__cu_elem_prepare(host, args, 1, p);
    if (status != TSR_OK)
        return status;
    p->ctx.op = TSR_OP_COPY;
    p->ctx.dtype = p->dtype[1];
    p->ctx.category = tsr__cu_dtype_category(p->dtype[1]);
    p->out_category = p->ctx.category;
    p->raw_mask = p->dtype[0] == p->dtype[1] ? 3u : 0u; /* equal dtypes move bits (NaN payloads) */
    tsr__cu_elem_plan(p);
    return TSR_OK;
}

int tsr__cu_elem_build_where(const tsr_host_api *host, const tsr_kernel_args *args,
                             tsr__cu_elem_params *p)
{
    int status = tsr__cu_elem_prepare(host, args, 3, p);
    if (status != TSR_OK)
        return status;
    if (p->dtype[1] != TSR_BOOL || p->dtype[2] != p->dtype[0] || p->dtype[3] != p->dtype[0])
        return host->set_error(TSR_ERR_DTYPE,
                               "where: the condition must be bool and both values of the "
                               "output's dtype (got %d, %d, %d for output %d)",
                               (int)p->dtype[1], (int)p->dtype[2], (int)p->dtype[3],
                               (int)p->dtype[0]);
    p->ctx.op = TSR_OP_WHERE;
    p->ctx.dtype = p->dtype[0];
    p->raw_mask = 1u | 4u | 8u; /* values and output as bits; the condition as bool */
    tsr__cu_elem_plan(p);
    return TSR_OK;
}

int tsr__cu_elem_build_op(const tsr_host_api *host, const tsr_kernel_args *args,
                          tsr__cu_elem_params *p, int *check_zero)
{
    const char *name = tsr__cu_op_name(args->op);
    const tsr__cu_elem_op *op = tsr__cu_elem_op_find(args->op);
    if (!op)
        return host->set_error(TSR_ERR_UNIMPLEMENTED, "%s: no CUDA elementwise kernel", name);
    int status = tsr__cu_elem_prepare(host, args, op->arity, p);
    if (status != TSR_OK)
        return status;
    const int32_t dtype = op->arity > 0 ? p->dtype[1] : p->dtype[0];
    if (!(op->dtypes & TSR__CU_BIT(dtype)))
        return host->set_error(TSR_ERR_DTYPE, "%s: no CUDA kernel for dtype %d", name, (int)dtype);
    for (int k = 2; k <= op->arity; k++)
        if (p->dtype[k] != dtype)
            return host->set_error(TSR_ERR_DTYPE, "%s: input %d has dtype %d, expected %d", name,
                                   k - 1, (int)p->dtype[k], (int)dtype);
    int32_t out_dtype = tsr__cu_elem_result_dtype(op, dtype);
    if (p->dtype[0] != out_dtype)
        return host->set_error(TSR_ERR_DTYPE, "%s: output has dtype %d, expected %d", name,
                               (int)p->dtype[0], (int)out_dtype);
    char message[160];
    status =
        tsr__cu_elem_bind(op, dtype, args->attrs, &p->ctx, check_zero, message, sizeof message);
    if (status != TSR_OK)
        return host->set_error(status, "%s", message);
    p->out_category = op->result == TSR__CU_RESULT_BOOL ? TSR__CU_INTEGER
                      : op->result == TSR__CU_RESULT_REAL && p->ctx.category == TSR__CU_COMPLEX
                          ? TSR__CU_REAL
                          : p->ctx.category;
    if (op->op == TSR_OP_FILL) { /* the value's element bits, as the reference stores them */
        unsigned char element[16] = {0};
        tsr__cu_store(dtype, (tsr__cu_category)p->ctx.category, element, p->ctx.params[0]);
        p->ctx.params[0] = tsr__cu_load_raw(p->size[0], element);
        p->raw_mask = 1u;
    }
    tsr__cu_elem_plan(p);
    return TSR_OK;
}

void tsr__cu_elem_divisor_params(const tsr_kernel_args *args, tsr__cu_elem_params *p)
{
    const tsr_tensor_desc *divisor = &args->inputs[1];
    memset(p, 0, sizeof *p);
    p->layout.operands = 1;
    p->layout.ndim = divisor->ndim;
    for (int32_t d = 0; d < divisor->ndim; d++) {
        p->layout.shape[d] = divisor->shape[d];
        p->layout.strides[0][d] = divisor->strides[d];
    }
    p->data[0] = tsr__cu_ptr(divisor->data, divisor->byte_offset);
    p->dtype[0] = divisor->dtype;
    p->size[0] = tsr__cu_dtype_size(divisor->dtype);
    tsr__cu_collapse(&p->layout);
    p->count = tsr__cu_layout_count(&p->layout);
    p->use_int32 = tsr__cu_layout_fits_int32(&p->layout);
}
