/* The linalg kernels' batch walk: checking a call's operands, and moving one
 * matrix between its strided home and a row-major scratch. */
#include <string.h>

#include "linalg.h"

static int linalg_dtype(int32_t dtype)
{
    return dtype == TSR_FLOAT32 || dtype == TSR_FLOAT64 || dtype == TSR_COMPLEX64 ||
           dtype == TSR_COMPLEX128;
}

/* complex64 for float32, complex128 for float64, complex dtypes themselves. */
static int32_t complex_of(int32_t dtype)
{
    return dtype == TSR_FLOAT32 ? TSR_COMPLEX64 : dtype == TSR_FLOAT64 ? TSR_COMPLEX128 : dtype;
}

static int check_operand(const tsr__ref_backend *backend, const char *name,
                         const tsr_tensor_desc *first, int32_t nbatch, int32_t dims,
                         const tsr_tensor_desc *desc, tsr__ref_linalg_operand *op)
{
    /* 3: a vector of the matrices' real precision (eigenvalues, singular
     * values); 4: a vector of their dtype (geqrf's tau) */
    int32_t want = dims == 2 || dims == 4 ? first->dtype
                   : dims == 3            ? tsr__ref_dtype_real_part(first->dtype)
                   : dims >= 5            ? complex_of(first->dtype)
                                          : TSR_INT32;
    dims = dims == 5 ? 2 : dims >= 3 ? 1 : dims;
    if (desc->ndim != nbatch + dims || desc->ndim > TSR_MAX_DIMS) {
        return tsr__ref_error(backend, TSR_ERR_SHAPE, "%s: an operand of rank %d where %d was due",
                              name, (int)desc->ndim, (int)(nbatch + dims));
    }
    for (int32_t d = 0; d < nbatch; d++) {
        if (desc->shape[d] != first->shape[d]) {
            return tsr__ref_error(backend, TSR_ERR_SHAPE,
                                  "%s: batch dim %d is %lld on one operand, %lld on another", name,
                                  (int)d, (long long)desc->shape[d], (long long)first->shape[d]);
        }
    }
    if (desc->dtype != want) {
        return tsr__ref_error(backend, TSR_ERR_DTYPE, "%s: an operand is %s where %s was due", name,
                              tsr__ref_dtype_name(desc->dtype), tsr__ref_dtype_name(want));
    }
    op->desc = desc;
    op->matrix_dims = dims;
    op->rows = dims >= 1 ? desc->shape[nbatch] : 1;
    op->cols = dims == 2 ? desc->shape[nbatch + 1] : 1;
    return TSR_OK;
}

int tsr__ref_linalg_prepare(const tsr__ref_backend *backend, const tsr_kernel_args *args,
                            int32_t inputs, int32_t outputs, const int32_t *dims,
                            tsr__ref_linalg_operand *ops, int64_t *batch)
{
    if (args == NULL || args->struct_size < sizeof *args || args->num_inputs != inputs ||
        args->num_outputs != outputs || args->inputs == NULL || args->outputs == NULL) {
        return tsr__ref_error(backend, TSR_ERR_INVALID_ARGUMENT,
                              "linalg kernel: needs %d inputs and %d outputs", (int)inputs,
                              (int)outputs);
    }
    const char *name = "linalg kernel";
    const tsr_tensor_desc *first = &args->inputs[0];
    if (first->ndim < 2 || first->ndim > TSR_MAX_DIMS) {
        return tsr__ref_error(backend, TSR_ERR_SHAPE, "%s: the first input is not a matrix", name);
    }
    if (!linalg_dtype(first->dtype)) {
        return tsr__ref_error(backend, TSR_ERR_DTYPE, "%s: no kernel for %s", name,
                              tsr__ref_dtype_name(first->dtype));
    }
    int32_t nbatch = first->ndim - 2;
    for (int32_t i = 0; i < inputs + outputs; i++) {
        const tsr_tensor_desc *desc = i < inputs ? &args->inputs[i] : &args->outputs[i - inputs];
        int st = check_operand(backend, name, first, nbatch, dims[i], desc, &ops[i]);
        if (st != TSR_OK) {
            return st;
        }
    }
    int64_t count = 1;
    for (int32_t d = 0; d < nbatch; d++) {
        count *= first->shape[d];
    }
    *batch = count;
    return TSR_OK;
}

int32_t tsr__ref_linalg_flags(const tsr_kernel_args *args)
{
    const tsr_linalg_attrs *attrs = args->attrs;
    if (attrs == NULL || attrs->struct_size < sizeof *attrs) {
        return 0;
    }
    return attrs->flags;
}

/* Byte address of element (0, 0) of matrix `index`: the batch dims walked in
 * row-major order, each by its own stride. */
static char *matrix_base(const tsr__ref_linalg_operand *op, int64_t index)
{
    const tsr_tensor_desc *desc = op->desc;
    int32_t nbatch = desc->ndim - op->matrix_dims;
    int64_t offset = 0;
    for (int32_t d = nbatch - 1; d >= 0; d--) {
        int64_t extent = desc->shape[d];
        offset += (index % extent) * desc->strides[d];
        index /= extent;
    }
    size_t size = tsr__ref_dtype_size(desc->dtype);
    return (char *)desc->data + desc->byte_offset + offset * (int64_t)size;
}

static void element_steps(const tsr__ref_linalg_operand *op, int64_t *row, int64_t *col)
{
    const tsr_tensor_desc *desc = op->desc;
    int64_t size = (int64_t)tsr__ref_dtype_size(desc->dtype);
    *row = op->matrix_dims >= 1 ? desc->strides[desc->ndim - op->matrix_dims] * size : 0;
    *col = op->matrix_dims == 2 ? desc->strides[desc->ndim - 1] * size : 0;
}

void tsr__ref_linalg_gather(const tsr__ref_linalg_operand *op, int64_t index, tsr__ref_lz *dst)
{
    const char *base = matrix_base(op, index);
    int64_t row_step, col_step;
    element_steps(op, &row_step, &col_step);
    tsr__ref_load_fn load = tsr__ref_loader(op->desc->dtype);
    int complex_dtype = tsr__ref_dtype_category(op->desc->dtype) == TSR__REF_COMPLEX;
    for (int64_t i = 0; i < op->rows; i++) {
        for (int64_t j = 0; j < op->cols; j++) {
            tsr__ref_wide value;
            load(base + i * row_step + j * col_step, &value);
            dst[i * op->cols + j] = complex_dtype ? value.c : tsr__ref_complex_make(value.f, 0.0);
        }
    }
}

void tsr__ref_linalg_scatter(const tsr__ref_linalg_operand *op, int64_t index,
                             const tsr__ref_lz *src)
{
    char *base = matrix_base(op, index);
    int64_t row_step, col_step;
    element_steps(op, &row_step, &col_step);
    int complex_dtype = tsr__ref_dtype_category(op->desc->dtype) == TSR__REF_COMPLEX;
    tsr__ref_store_fn store =
        tsr__ref_storer(complex_dtype ? TSR__REF_COMPLEX : TSR__REF_REAL, op->desc->dtype);
    for (int64_t i = 0; i < op->rows; i++) {
        for (int64_t j = 0; j < op->cols; j++) {
            tsr__ref_wide value;
            if (complex_dtype) {
                value.c = src[i * op->cols + j];
            } else {
                value.f = creal(src[i * op->cols + j]);
            }
            store(base + i * row_step + j * col_step, &value);
        }
    }
}

void tsr__ref_linalg_store_int(const tsr__ref_linalg_operand *op, int64_t index,
                               const int32_t *values)
{
    char *base = matrix_base(op, index);
    int64_t row_step, col_step;
    element_steps(op, &row_step, &col_step);
    for (int64_t i = 0; i < op->rows; i++) {
        memcpy(base + i * row_step, &values[i], sizeof(int32_t));
    }
}

int tsr__ref_linalg_normalise(tsr__ref_lz *a, int64_t count)
{
    double largest = 0;
    for (int64_t i = 0; i < count; i++)
        largest = fmax(largest, fmax(fabs(creal(a[i])), fabs(cimag(a[i]))));
    if (!(largest > 0) || isinf(largest))
        return 0;
    int exponent = -ilogb(largest);
    for (int64_t i = 0; i < count; i++)
        a[i] = tsr__ref_linalg_scaled(a[i], exponent);
    return exponent;
}
