/* softmax and log_softmax along tsr_scan_attrs.dim.
 *
 * Each row along the dim is read three times: for its maximum, for the sum
 * of exp(x - max), and to write the result. Shifting by the maximum keeps
 * exp from overflowing (softmax of [1000, 1000] is [0.5, 0.5], not NaN), and
 * log_softmax is (x - max) - log(sum) rather than log(softmax), which would
 * turn a tiny probability into -inf. Values widen to double and round once
 * into the output's dtype. A row holding +inf, NaN or only -inf gives NaN
 * everywhere, as PyTorch: there is no distribution to report. */
#include <math.h>
#include <stddef.h>

#include "backend.h"
#include "kernels.h"
#include "strided_loop.h"
#include "wide.h"

typedef struct softmax_run {
    int log_form;
    int64_t length;   /* elements along the dim */
    int64_t out_step; /* bytes between neighbours along the dim */
    int64_t in_step;
    tsr__ref_load_fn load;
    tsr__ref_store_fn store;
} softmax_run;

static double load_at(const softmax_run *run, const char *row, int64_t i)
{
    tsr__ref_wide value;
    run->load(row + i * run->in_step, &value);
    return value.f;
}

static double row_max(const softmax_run *run, const char *in)
{
    double max = -INFINITY;
    for (int64_t i = 0; i < run->length; i++) {
        double v = load_at(run, in, i);
        if (isnan(v)) {
            return v;
        }
        if (v > max) {
            max = v;
        }
    }
    return max;
}

/* Reads every input element of the row before writing any output element of
 * the same index only, so the output may be the input itself. */
static void softmax_row(const softmax_run *run, char *out, const char *in)
{
    double max = row_max(run, in);
    double sum = 0.0;
    for (int64_t i = 0; i < run->length; i++) {
        sum += exp(load_at(run, in, i) - max);
    }
    double log_sum = log(sum);
    for (int64_t i = 0; i < run->length; i++) {
        double shifted = load_at(run, in, i) - max;
        tsr__ref_wide result;
        result.f = run->log_form ? shifted - log_sum : exp(shifted) / sum;
        run->store(out + i * run->out_step, &result);
    }
}

static int softmax_rows(void *context, char *const *ptrs, const int64_t *steps, int64_t n)
{
    const softmax_run *run = context;
    for (int64_t i = 0; i < n; i++) {
        softmax_row(run, ptrs[0] + i * steps[0], ptrs[1] + i * steps[1]);
    }
    return TSR_OK;
}

/* The descriptor without dimension `dim`: the walk over the row starts. */
static void drop_dim(const tsr_tensor_desc *desc, int32_t dim, int64_t *shape, int64_t *strides,
                     tsr_tensor_desc *out)
{
    int32_t n = 0;
    for (int32_t d = 0; d < desc->ndim; d++) {
        if (d != dim) {
            shape[n] = desc->shape[d];
            strides[n] = desc->strides[d];
            n++;
        }
    }
    *out = *desc;
    out->ndim = n;
    out->shape = shape;
    out->strides = strides;
}

static int check_call(const tsr__ref_backend *backend, const tsr_kernel_args *args, int32_t *dim)
{
    if (args == NULL || args->struct_size < sizeof(tsr_kernel_args) || args->num_inputs != 1 ||
        args->num_outputs != 1 || args->inputs == NULL || args->outputs == NULL) {
        return tsr__ref_error(backend, TSR_ERR_INVALID_ARGUMENT,
                              "softmax kernels take one input and one output");
    }
    const tsr_scan_attrs *attrs = args->attrs;
    if (attrs == NULL || attrs->struct_size < sizeof(tsr_scan_attrs)) {
        return tsr__ref_error(backend, TSR_ERR_INVALID_ARGUMENT, "softmax needs tsr_scan_attrs");
    }
    const tsr_tensor_desc *in = &args->inputs[0], *out = &args->outputs[0];
    int32_t ndim = in->ndim;
    if (ndim < 0 || ndim > TSR_MAX_DIMS || out->ndim != ndim || attrs->dim < 0 ||
        attrs->dim >= (ndim > 0 ? ndim : 1)) {
        return tsr__ref_error(backend, TSR_ERR_INVALID_ARGUMENT,
                              "softmax dim %d does not fit a tensor of %d dims", (int)attrs->dim,
                              (int)ndim);
    }
    if (ndim > 0 && in->shape[attrs->dim] != out->shape[attrs->dim]) {
        return tsr__ref_error(backend, TSR_ERR_SHAPE, "softmax output shape differs from input");
    }
    if (in->dtype != out->dtype || tsr__ref_dtype_category(in->dtype) != TSR__REF_REAL) {
        return tsr__ref_error(backend, TSR_ERR_DTYPE, "softmax computes %s -> %s, not supported",
                              tsr__ref_dtype_name(in->dtype), tsr__ref_dtype_name(out->dtype));
    }
    *dim = attrs->dim;
    return TSR_OK;
}

int tsr__ref_kernel_softmax(void *backend_ptr, const tsr_kernel_args *args)
{
    const tsr__ref_backend *backend = backend_ptr;
    int32_t dim = 0;
    int status = check_call(backend, args, &dim);
    if (status != TSR_OK) {
        return status;
    }
    const tsr_tensor_desc *in = &args->inputs[0], *out = &args->outputs[0];
    int has_dim = in->ndim > 0;
    softmax_run run = {
        .log_form = args->op == TSR_OP_LOG_SOFTMAX,
        .length = has_dim ? in->shape[dim] : 1,
        .out_step = has_dim ? out->strides[dim] * (int64_t)tsr__ref_dtype_size(out->dtype) : 0,
        .in_step = has_dim ? in->strides[dim] * (int64_t)tsr__ref_dtype_size(in->dtype) : 0,
        .load = tsr__ref_loader(in->dtype),
        .store = tsr__ref_storer(TSR__REF_REAL, out->dtype),
    };
    if (run.length == 0) {
        return TSR_OK;
    }
    int64_t shapes[2][TSR_MAX_DIMS], strides[2][TSR_MAX_DIMS];
    tsr_tensor_desc starts[2];
    drop_dim(out, has_dim ? dim : -1, shapes[0], strides[0], &starts[0]);
    drop_dim(in, has_dim ? dim : -1, shapes[1], strides[1], &starts[1]);
    tsr__ref_loop loop;
    status = tsr__ref_loop_init(&loop, &starts[0], &starts[1], 1);
    if (status != TSR_OK) {
        return tsr__ref_error(backend, status, "softmax: malformed tensor descriptors");
    }
    return tsr__ref_loop_run(&loop, softmax_rows, &run);
}
