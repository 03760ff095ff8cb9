/* copy and fill: the conversion kernels. Both convert with the element
 * rules of copy_convert.c; a copy between equal dtypes moves bytes, so NaN
 * payloads and signed zeros survive unchanged. */
#include <string.h>

#include "kernel_args.h"
#include "kernels.h"
#include "wide.h"

typedef struct copy_run {
    size_t size;           /* same-dtype copies */
    tsr__ref_load_fn load; /* converting copies */
    tsr__ref_store_fn store;
    int real_part; /* complex into a non-complex dtype: drop the imaginary part */
} copy_run;

/* memmove: the output may be the input itself. */
static int copy_bytes_row(void *context, char *const *ptrs, const int64_t *steps, int64_t n)
{
    const copy_run *run = context;
    for (int64_t i = 0; i < n; i++) {
        memmove(ptrs[0] + i * steps[0], ptrs[1] + i * steps[1], run->size);
    }
    return TSR_OK;
}

static int convert_row(void *context, char *const *ptrs, const int64_t *steps, int64_t n)
{
    const copy_run *run = context;
    tsr__ref_wide value;
    for (int64_t i = 0; i < n; i++) {
        run->load(ptrs[1] + i * steps[1], &value);
        if (run->real_part) {
            tsr__ref_wide_real_part(&value);
        }
        run->store(ptrs[0] + i * steps[0], &value);
    }
    return TSR_OK;
}

int tsr__ref_kernel_copy(void *backend_ptr, const tsr_kernel_args *args)
{
    const tsr__ref_backend *backend = backend_ptr;
    tsr__ref_loop loop;
    int status = tsr__ref_args_prepare(backend, args, 1, &loop);
    if (status != TSR_OK) {
        return status;
    }
    int32_t from = args->inputs[0].dtype;
    int32_t to = args->outputs[0].dtype;
    copy_run run = {.size = tsr__ref_dtype_size(to), .load = tsr__ref_loader(from)};
    if (from == to) {
        return tsr__ref_loop_run(&loop, copy_bytes_row, &run);
    }
    tsr__ref_category category = tsr__ref_dtype_category(from);
    run.store = tsr__ref_storer(category, to);
    if (run.store == NULL) {
        run.real_part = 1;
        run.store = tsr__ref_storer(TSR__REF_REAL, to);
    }
    return tsr__ref_loop_run(&loop, convert_row, &run);
}

typedef struct fill_run {
    size_t size;
    unsigned char element[16]; /* the value, converted once */
} fill_run;

static int fill_row(void *context, char *const *ptrs, const int64_t *steps, int64_t n)
{
    const fill_run *run = context;
    for (int64_t i = 0; i < n; i++) {
        memcpy(ptrs[0] + i * steps[0], run->element, run->size);
    }
    return TSR_OK;
}

int tsr__ref_kernel_fill(void *backend_ptr, const tsr_kernel_args *args)
{
    const tsr__ref_backend *backend = backend_ptr;
    tsr__ref_loop loop;
    int status = tsr__ref_args_prepare(backend, args, 0, &loop);
    if (status != TSR_OK) {
        return status;
    }
    const tsr_elementwise_attrs *attrs = tsr__ref_args_attrs(args);
    if (attrs == NULL) {
        return tsr__ref_error(backend, TSR_ERR_INVALID_ARGUMENT, "fill needs attrs.scalars[0]");
    }
    int32_t dtype = args->outputs[0].dtype;
    fill_run run = {.size = tsr__ref_dtype_size(dtype)};
    tsr__ref_scalar_store(&attrs->scalars[0], dtype, run.element);
    return tsr__ref_loop_run(&loop, fill_row, &run);
}
