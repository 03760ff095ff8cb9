/* index_select, gather and nonzero, and the helpers every indexing kernel
 * shares (scatter.c, sort.c and rearrange.c use them too). Elements move as
 * bytes, so NaN payloads and signed zeros arrive unchanged. Every index is
 * checked before the first element is written, so a failing call leaves its
 * output untouched. */
#include "index_walk.h"

#include <stddef.h>

#include "kernel_args.h"

/* ------------------------------------------------------------------------ */
/* Shared helpers                                                            */
/* ------------------------------------------------------------------------ */

int64_t tsr__ref_desc_numel(const tsr_tensor_desc *desc)
{
    int64_t n = 1;
    for (int32_t d = 0; d < desc->ndim; d++) {
        n *= desc->shape[d];
    }
    return n;
}

static int check_desc(const tsr__ref_backend *backend, const tsr_tensor_desc *desc,
                      const char *what, int32_t k)
{
    if (!tsr__ref_dtype_valid(desc->dtype)) {
        return tsr__ref_error(backend, TSR_ERR_DTYPE, "%s %d has an unknown dtype id %d", what,
                              (int)k, (int)desc->dtype);
    }
    if (desc->ndim < 1 || desc->ndim > TSR_MAX_DIMS || desc->shape == NULL ||
        desc->strides == NULL) {
        return tsr__ref_error(backend, TSR_ERR_INVALID_ARGUMENT,
                              "%s %d: rank %d outside 1..%d or NULL shape/strides", what, (int)k,
                              (int)desc->ndim, TSR_MAX_DIMS);
    }
    int64_t numel = 1;
    for (int32_t d = 0; d < desc->ndim; d++) {
        if (desc->shape[d] < 0 || desc->strides[d] < 0) {
            return tsr__ref_error(backend, TSR_ERR_SHAPE, "%s %d: negative extent or stride", what,
                                  (int)k);
        }
        numel *= desc->shape[d];
    }
    if (numel > 0 && desc->data == NULL) {
        return tsr__ref_error(backend, TSR_ERR_INVALID_ARGUMENT, "%s %d has no data", what, (int)k);
    }
    return TSR_OK;
}

int tsr__ref_index_args(const tsr__ref_backend *backend, const tsr_kernel_args *args,
                        int32_t num_inputs, int32_t num_outputs, const tsr_index_attrs **attrs)
{
    if (args == NULL || args->struct_size < sizeof(tsr_kernel_args)) {
        return tsr__ref_error(backend, TSR_ERR_INVALID_ARGUMENT,
                              "kernel arguments missing or older than ABI 1.0");
    }
    if (args->num_inputs != num_inputs || args->num_outputs != num_outputs ||
        (num_inputs > 0 && args->inputs == NULL) || args->outputs == NULL) {
        return tsr__ref_error(backend, TSR_ERR_INVALID_ARGUMENT,
                              "expected %d inputs and %d outputs, got %d and %d", (int)num_inputs,
                              (int)num_outputs, (int)args->num_inputs, (int)args->num_outputs);
    }
    const tsr_index_attrs *a = args->attrs;
    if (a == NULL || a->struct_size < offsetof(tsr_index_attrs, value) + sizeof(tsr_scalar)) {
        return tsr__ref_error(backend, TSR_ERR_INVALID_ARGUMENT,
                              "missing or too small tsr_index_attrs");
    }
    for (int32_t k = 0; k < num_inputs; k++) {
        int status = check_desc(backend, &args->inputs[k], "input", k);
        if (status != TSR_OK) {
            return status;
        }
    }
    for (int32_t k = 0; k < num_outputs; k++) {
        int status = check_desc(backend, &args->outputs[k], "output", k);
        if (status != TSR_OK) {
            return status;
        }
    }
    *attrs = a;
    return TSR_OK;
}

int tsr__ref_same_desc(const tsr_tensor_desc *a, const tsr_tensor_desc *b)
{
    if (a->data != b->data || a->byte_offset != b->byte_offset || a->ndim != b->ndim ||
        a->dtype != b->dtype) {
        return 0;
    }
    for (int32_t d = 0; d < a->ndim; d++) {
        if (a->shape[d] != b->shape[d] || (a->shape[d] > 1 && a->strides[d] != b->strides[d])) {
            return 0;
        }
    }
    return 1;
}

void tsr__ref_copy_desc(const tsr_tensor_desc *output, const tsr_tensor_desc *input)
{
    if (tsr__ref_same_desc(output, input) || tsr__ref_desc_numel(output) == 0) {
        return;
    }
    size_t size = tsr__ref_dtype_size(output->dtype);
    int64_t coords[TSR_MAX_DIMS] = {0};
    do {
        memmove(tsr__ref_desc_at(output, coords), tsr__ref_desc_at(input, coords), size);
    } while (tsr__ref_next_coords(coords, output->shape, output->ndim));
}

int tsr__ref_check_indices(const tsr__ref_backend *backend, const tsr_tensor_desc *index,
                           int32_t dim, int64_t size)
{
    if (tsr__ref_desc_numel(index) == 0) {
        return TSR_OK;
    }
    int64_t coords[TSR_MAX_DIMS] = {0};
    do {
        int64_t v = tsr__ref_index_at(index, coords);
        if (v < 0 || v >= size) {
            return tsr__ref_error(backend, TSR_ERR_INDEX,
                                  "index %lld is out of bounds for dimension %d with size %lld",
                                  (long long)v, (int)dim, (long long)size);
        }
    } while (tsr__ref_next_coords(coords, index->shape, index->ndim));
    return TSR_OK;
}

static int check_dim(const tsr__ref_backend *backend, int32_t dim, int32_t ndim)
{
    if (dim < 0 || dim >= ndim) {
        return tsr__ref_error(backend, TSR_ERR_INVALID_ARGUMENT, "dim %d outside 0..%d", (int)dim,
                              (int)ndim - 1);
    }
    return TSR_OK;
}

static int check_dtypes(const tsr__ref_backend *backend, const tsr_kernel_args *args,
                        int32_t index_input)
{
    int32_t dtype = args->outputs[0].dtype;
    if (args->inputs[0].dtype != dtype) {
        return tsr__ref_args_dtype_error(backend, 0, args->inputs[0].dtype, dtype);
    }
    if (index_input >= 0 && args->inputs[index_input].dtype != TSR_INT64) {
        return tsr__ref_args_dtype_error(backend, index_input, args->inputs[index_input].dtype,
                                         TSR_INT64);
    }
    return TSR_OK;
}

/* ------------------------------------------------------------------------ */
/* index_select                                                              */
/* ------------------------------------------------------------------------ */

static int index_select_shapes(const tsr__ref_backend *backend, const tsr_kernel_args *args,
                               int32_t dim)
{
    const tsr_tensor_desc *in = &args->inputs[0], *index = &args->inputs[1];
    const tsr_tensor_desc *out = &args->outputs[0];
    int status = check_dim(backend, dim, in->ndim);
    if (status != TSR_OK) {
        return status;
    }
    if (index->ndim != 1 || out->ndim != in->ndim) {
        return tsr__ref_error(backend, TSR_ERR_SHAPE, "index must be 1-d and out of input's rank");
    }
    for (int32_t d = 0; d < in->ndim; d++) {
        int64_t want = d == dim ? index->shape[0] : in->shape[d];
        if (out->shape[d] != want) {
            return tsr__ref_error(backend, TSR_ERR_SHAPE, "output extent %d is %lld, expected %lld",
                                  (int)d, (long long)out->shape[d], (long long)want);
        }
    }
    return TSR_OK;
}

int tsr__ref_kernel_index_select(void *backend_ptr, const tsr_kernel_args *args)
{
    const tsr__ref_backend *backend = backend_ptr;
    const tsr_index_attrs *attrs;
    int status = tsr__ref_index_args(backend, args, 2, 1, &attrs);
    if (status == TSR_OK) {
        status = check_dtypes(backend, args, 1);
    }
    if (status == TSR_OK) {
        status = index_select_shapes(backend, args, attrs->dim);
    }
    const tsr_tensor_desc *in = &args->inputs[0], *out = &args->outputs[0];
    if (status == TSR_OK) {
        status =
            tsr__ref_check_indices(backend, &args->inputs[1], attrs->dim, in->shape[attrs->dim]);
    }
    if (status != TSR_OK || tsr__ref_desc_numel(out) == 0) {
        return status;
    }
    size_t size = tsr__ref_dtype_size(out->dtype);
    int64_t coords[TSR_MAX_DIMS] = {0}, from[TSR_MAX_DIMS];
    do {
        memcpy(from, coords, sizeof from);
        from[attrs->dim] = tsr__ref_index_at(&args->inputs[1], &coords[attrs->dim]);
        memmove(tsr__ref_desc_at(out, coords), tsr__ref_desc_at(in, from), size);
    } while (tsr__ref_next_coords(coords, out->shape, out->ndim));
    return TSR_OK;
}

/* ------------------------------------------------------------------------ */
/* gather                                                                    */
/* ------------------------------------------------------------------------ */

static int gather_shapes(const tsr__ref_backend *backend, const tsr_kernel_args *args, int32_t dim)
{
    const tsr_tensor_desc *in = &args->inputs[0], *index = &args->inputs[1];
    const tsr_tensor_desc *out = &args->outputs[0];
    int status = check_dim(backend, dim, in->ndim);
    if (status != TSR_OK) {
        return status;
    }
    if (index->ndim != in->ndim || out->ndim != in->ndim) {
        return tsr__ref_error(backend, TSR_ERR_SHAPE, "index and output need input's rank");
    }
    for (int32_t d = 0; d < in->ndim; d++) {
        if (out->shape[d] != index->shape[d] || (d != dim && index->shape[d] > in->shape[d])) {
            return tsr__ref_error(backend, TSR_ERR_SHAPE,
                                  "index extent %d does not fit the input or output", (int)d);
        }
    }
    return TSR_OK;
}

int tsr__ref_kernel_gather(void *backend_ptr, const tsr_kernel_args *args)
{
    const tsr__ref_backend *backend = backend_ptr;
    const tsr_index_attrs *attrs;
    int status = tsr__ref_index_args(backend, args, 2, 1, &attrs);
    if (status == TSR_OK) {
        status = check_dtypes(backend, args, 1);
    }
    if (status == TSR_OK) {
        status = gather_shapes(backend, args, attrs->dim);
    }
    const tsr_tensor_desc *in = &args->inputs[0], *index = &args->inputs[1];
    const tsr_tensor_desc *out = &args->outputs[0];
    if (status == TSR_OK) {
        status = tsr__ref_check_indices(backend, index, attrs->dim, in->shape[attrs->dim]);
    }
    if (status != TSR_OK || tsr__ref_desc_numel(out) == 0) {
        return status;
    }
    size_t size = tsr__ref_dtype_size(out->dtype);
    int64_t coords[TSR_MAX_DIMS] = {0}, from[TSR_MAX_DIMS];
    do {
        memcpy(from, coords, sizeof from);
        from[attrs->dim] = tsr__ref_index_at(index, coords);
        memmove(tsr__ref_desc_at(out, coords), tsr__ref_desc_at(in, from), size);
    } while (tsr__ref_next_coords(coords, out->shape, out->ndim));
    return TSR_OK;
}

/* ------------------------------------------------------------------------ */
/* nonzero                                                                   */
/* ------------------------------------------------------------------------ */

/* NaN is nonzero, -0.0 is zero, and a complex number counts when either
 * part does: the same answer as the ne kernel against 0, which the core
 * uses to size the output. */
static int is_nonzero(tsr__ref_category category, const tsr__ref_wide *v)
{
    switch (category) {
    case TSR__REF_INTEGER:
        return v->i != 0;
    case TSR__REF_REAL:
        return v->f != 0.0;
    default:
        return creal(v->c) != 0.0 || cimag(v->c) != 0.0;
    }
}

int tsr__ref_kernel_nonzero(void *backend_ptr, const tsr_kernel_args *args)
{
    const tsr__ref_backend *backend = backend_ptr;
    const tsr_index_attrs *attrs;
    int status = tsr__ref_index_args(backend, args, 1, 1, &attrs);
    const tsr_tensor_desc *in = &args->inputs[0], *out = &args->outputs[0];
    if (status == TSR_OK && out->dtype != TSR_INT64) {
        return tsr__ref_args_dtype_error(backend, -1, out->dtype, TSR_INT64);
    }
    if (status == TSR_OK && (out->ndim != 2 || out->shape[1] != in->ndim)) {
        return tsr__ref_error(backend, TSR_ERR_SHAPE, "output must be [n, %d]", (int)in->ndim);
    }
    if (status != TSR_OK || tsr__ref_desc_numel(in) == 0) {
        return status;
    }
    tsr__ref_load_fn load = tsr__ref_loader(in->dtype);
    tsr__ref_category category = tsr__ref_dtype_category(in->dtype);
    int64_t coords[TSR_MAX_DIMS] = {0}, row = 0, rows = out->shape[0];
    do {
        tsr__ref_wide v;
        load(tsr__ref_desc_at(in, coords), &v);
        if (!is_nonzero(category, &v)) {
            continue;
        }
        if (row == rows) {
            return tsr__ref_error(backend, TSR_ERR_SHAPE,
                                  "more than the %lld nonzero elements the output has rows for",
                                  (long long)rows);
        }
        for (int32_t d = 0; d < in->ndim; d++) {
            int64_t at[2] = {row, d};
            memcpy(tsr__ref_desc_at(out, at), &coords[d], sizeof coords[d]);
        }
        row++;
    } while (tsr__ref_next_coords(coords, in->shape, in->ndim));
    if (row != rows) {
        return tsr__ref_error(backend, TSR_ERR_SHAPE,
                              "%lld nonzero elements, the output has %lld rows", (long long)row,
                              (long long)rows);
    }
    return TSR_OK;
}
