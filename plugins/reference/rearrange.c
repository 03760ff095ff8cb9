/* tril and triu: the lower or upper triangle of the last two dims, the rest
 * zeroed. Elements move as bytes, so NaN payloads and signed zeros arrive
 * unchanged. Uses the odometer walk and argument checks of index_walk.h. */
#include "index_walk.h"

#include "kernel_args.h"

/* The input must have the output's dtype. */
static int check_dtype(const tsr__ref_backend *backend, const tsr_kernel_args *args)
{
    int32_t dtype = args->outputs[0].dtype;
    if (args->inputs[0].dtype != dtype) {
        return tsr__ref_args_dtype_error(backend, 0, args->inputs[0].dtype, dtype);
    }
    return TSR_OK;
}

int tsr__ref_kernel_triangle(void *backend_ptr, const tsr_kernel_args *args)
{
    const tsr__ref_backend *backend = backend_ptr;
    const tsr_index_attrs *attrs;
    int status = tsr__ref_index_args(backend, args, 1, 1, &attrs);
    if (status == TSR_OK) {
        status = check_dtype(backend, args);
    }
    const tsr_tensor_desc *in = &args->inputs[0], *out = &args->outputs[0];
    if (status == TSR_OK && (in->ndim < 2 || out->ndim != in->ndim)) {
        return tsr__ref_error(backend, TSR_ERR_SHAPE,
                              "tril/triu need matching ranks of at least 2");
    }
    for (int32_t d = 0; status == TSR_OK && d < in->ndim; d++) {
        if (out->shape[d] != in->shape[d]) {
            return tsr__ref_error(backend, TSR_ERR_SHAPE, "output shape differs from input's");
        }
    }
    if (status != TSR_OK || tsr__ref_desc_numel(out) == 0) {
        return status;
    }
    int lower = args->op == TSR_OP_TRIL;
    int64_t k = attrs->offset;
    size_t size = tsr__ref_dtype_size(out->dtype);
    int32_t row = in->ndim - 2, col = in->ndim - 1;
    int64_t coords[TSR_MAX_DIMS] = {0};
    do {
        /* column - row is small, so comparing it with any int64 k is exact */
        int64_t diff = coords[col] - coords[row];
        int keep = lower ? diff <= k : diff >= k;
        char *dst = tsr__ref_desc_at(out, coords);
        if (keep) {
            memmove(dst, tsr__ref_desc_at(in, coords), size);
        } else {
            memset(dst, 0, size); /* all-zero bits are 0 in every dtype */
        }
    } while (tsr__ref_next_coords(coords, out->shape, out->ndim));
    return TSR_OK;
}
