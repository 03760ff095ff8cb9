/* The shared N-d walk. Byte strides are precomputed per operand so the
 * walk itself only adds and compares. */
#include "strided_loop.h"

#include <string.h>

#include "wide.h"

static int check_desc(const tsr_tensor_desc *desc)
{
    if (!tsr__ref_dtype_valid(desc->dtype)) {
        return TSR_ERR_DTYPE;
    }
    if (desc->ndim < 0 || desc->ndim > TSR_MAX_DIMS) {
        return TSR_ERR_INVALID_ARGUMENT;
    }
    if (desc->ndim > 0 && (desc->shape == NULL || desc->strides == NULL)) {
        return TSR_ERR_INVALID_ARGUMENT;
    }
    for (int32_t d = 0; d < desc->ndim; d++) {
        if (desc->shape[d] < 0) {
            return TSR_ERR_SHAPE;
        }
    }
    return TSR_OK;
}

static int same_shape(const tsr_tensor_desc *a, const tsr_tensor_desc *b)
{
    if (a->ndim != b->ndim) {
        return 0;
    }
    for (int32_t d = 0; d < a->ndim; d++) {
        if (a->shape[d] != b->shape[d]) {
            return 0;
        }
    }
    return 1;
}

static void add_operand(tsr__ref_loop *loop, const tsr_tensor_desc *desc)
{
    int32_t k = loop->operands++;
    int64_t size = (int64_t)tsr__ref_dtype_size(desc->dtype);
    loop->base[k] = (char *)desc->data + desc->byte_offset;
    int32_t ndim = desc->ndim;
    loop->inner_step[k] = ndim > 0 ? desc->strides[ndim - 1] * size : 0;
    for (int32_t d = 0; d + 1 < ndim; d++) {
        loop->step[k][d] = desc->strides[d] * size;
    }
}

int tsr__ref_loop_init(tsr__ref_loop *loop, const tsr_tensor_desc *out,
                       const tsr_tensor_desc *inputs, int32_t num_inputs)
{
    if (num_inputs < 0 || num_inputs + 1 > TSR__REF_LOOP_MAX_OPERANDS) {
        return TSR_ERR_INVALID_ARGUMENT;
    }
    int status = check_desc(out);
    for (int32_t k = 0; k < num_inputs && status == TSR_OK; k++) {
        status = check_desc(&inputs[k]);
        if (status == TSR_OK && !same_shape(out, &inputs[k])) {
            status = TSR_ERR_SHAPE;
        }
    }
    if (status != TSR_OK) {
        return status;
    }
    memset(loop, 0, sizeof *loop);
    loop->numel = 1;
    for (int32_t d = 0; d < out->ndim; d++) {
        int64_t extent = out->shape[d];
        if (extent > 0 && loop->numel > INT64_MAX / extent) {
            return TSR_ERR_OVERFLOW;
        }
        loop->numel *= extent;
        loop->shape[d] = extent;
    }
    loop->outer_ndim = out->ndim > 0 ? out->ndim - 1 : 0;
    loop->inner_size = out->ndim > 0 ? out->shape[out->ndim - 1] : 1;
    if (loop->numel > 0) {
        if (out->data == NULL) {
            return TSR_ERR_INVALID_ARGUMENT;
        }
        for (int32_t k = 0; k < num_inputs; k++) {
            if (inputs[k].data == NULL) {
                return TSR_ERR_INVALID_ARGUMENT;
            }
        }
    }
    add_operand(loop, out);
    for (int32_t k = 0; k < num_inputs; k++) {
        add_operand(loop, &inputs[k]);
    }
    return TSR_OK;
}

int tsr__ref_loop_run(const tsr__ref_loop *loop, tsr__ref_row_fn row, void *context)
{
    if (loop->numel == 0) {
        return TSR_OK;
    }
    /* Offsets are kept as integers and turned into pointers only for rows,
     * so no pointer ever leaves the operand's memory. */
    int64_t index[TSR_MAX_DIMS] = {0};
    int64_t offset[TSR__REF_LOOP_MAX_OPERANDS] = {0};
    char *ptrs[TSR__REF_LOOP_MAX_OPERANDS];
    for (;;) {
        for (int32_t k = 0; k < loop->operands; k++) {
            ptrs[k] = loop->base[k] + offset[k];
        }
        int status = row(context, ptrs, loop->inner_step, loop->inner_size);
        if (status != TSR_OK) {
            return status;
        }
        /* Odometer increment over the outer dimensions, last fastest. */
        int32_t d = loop->outer_ndim - 1;
        for (; d >= 0; d--) {
            for (int32_t k = 0; k < loop->operands; k++) {
                offset[k] += loop->step[k][d];
            }
            if (++index[d] < loop->shape[d]) {
                break;
            }
            for (int32_t k = 0; k < loop->operands; k++) {
                offset[k] -= loop->step[k][d] * loop->shape[d];
            }
            index[d] = 0;
        }
        if (d < 0) {
            return TSR_OK;
        }
    }
}
