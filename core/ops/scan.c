/* The scans along one dim: cumsum, cumprod, cummax, cummin, logcumsumexp. */
#include "autograd/graph.h"
#include "tensor/launch.h"
#include "tensor/scalar.h"
#include "runtime/error.h"
#include "ops/scan_grad.h"
#include "tensor/shape.h"

/* Records the scan's node: out is its floating result, indices cummax's
 * and cummin's (NULL for the others). */
static tsr_status record(tsr_op kernel, const tsr_tensor *t, int dim, tsr_tensor *out,
                         const tsr_tensor *indices)
{
    switch (kernel) {
    case TSR_OP_CUMSUM:
        return tsr__grad_record_scan(TSR__SGRAD_CUMSUM, "cumsum", t, dim, out, NULL);
    case TSR_OP_CUMPROD:
        return tsr__grad_record_scan(TSR__SGRAD_CUMPROD, "cumprod", t, dim, out, NULL);
    case TSR_OP_CUMMAX:
        return tsr__grad_record_scan(TSR__SGRAD_CUMMAXMIN, "cummax", t, dim, out, indices);
    case TSR_OP_CUMMIN:
        return tsr__grad_record_scan(TSR__SGRAD_CUMMAXMIN, "cummin", t, dim, out, indices);
    case TSR_OP_LOGCUMSUMEXP:
        return tsr__grad_record_scan(TSR__SGRAD_LOGCUMSUMEXP, "logcumsumexp", t, dim, out, NULL);
    default:
        break;
    }
    const tsr_tensor *inputs[1] = {t};
    return tsr__grad_record_unimplemented(tsr_op_name(kernel), inputs, 1, out);
}

/* Runs scan `kernel` of t converted to `compute` along dim into outputs of
 * t's shape: one of `compute`, and with `indices` an int64 one too. */
static tsr_status scan(tsr_op kernel, const tsr_tensor *t, int64_t dim, tsr_dtype compute,
                       tsr_tensor **out, tsr_tensor **indices)
{
    const char *name = tsr_op_name(kernel);
    int d = 0;
    tsr_status st = TSR_OK;
    /* PyTorch 1.13's cummax and cummin accept any dim of a 0-d tensor. */
    bool any_dim = t->ndim == 0 && (kernel == TSR_OP_CUMMAX || kernel == TSR_OP_CUMMIN);
    if (!any_dim && (st = tsr__wrap_dim(name, "dim", dim, t->ndim, &d)) != TSR_OK)
        return st;
    tsr_backend *b = t->storage->backend;
    if ((st = tsr__require_kernel(name, b, kernel, compute, compute)) != TSR_OK)
        return st;
    tsr_tensor *input;
    bool grad_mode = tsr_grad_mode_set(false); /* a step of this op, not history */
    st = tsr_to_dtype(t, compute, &input);
    tsr_grad_mode_set(grad_mode);
    if (st != TSR_OK) {
        tsr__prefix_error("%s", name);
        return st;
    }
    int noutputs = indices ? 2 : 1;
    tsr_tensor *results[2] = {NULL, NULL};
    st = tsr__tensor_empty(name, b, compute, t->ndim, t->shape, &results[0]);
    if (st == TSR_OK && indices)
        st = tsr__tensor_empty(name, b, TSR_INT64, t->ndim, t->shape, &results[1]);
    tsr_scan_attrs attrs = {.struct_size = sizeof attrs, .dim = d};
    if (st == TSR_OK)
        st = tsr__launch(kernel, compute, compute, (const tsr_tensor *const *)&input, 1, results,
                         noutputs, &attrs);
    tsr_tensor_release(input);
    if (st == TSR_OK)
        st = record(kernel, t, d, results[0], results[1]);
    if (st != TSR_OK) {
        tsr_tensor_release(results[0]);
        tsr_tensor_release(results[1]);
        return st;
    }
    *out = results[0];
    if (indices)
        *indices = results[1];
    return TSR_OK;
}

static tsr_status check_args(const char *name, const tsr_tensor *t, void *out, void *out2)
{
    if (!t || !out || !out2)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: input and outputs must not be NULL",
                              name);
    return TSR_OK;
}

/* cumsum and cumprod: bool and integers accumulate in int64 unless dtype is given. */
static tsr_status cumulative(tsr_op kernel, const tsr_tensor *t, int64_t dim, tsr_dtype dtype,
                             tsr_tensor **out)
{
    const char *name = tsr_op_name(kernel);
    tsr_status st = check_args(name, t, out, out);
    if (st != TSR_OK)
        return st;
    if (dtype != TSR_DTYPE_INFER && !tsr__dtype_valid(dtype))
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: dtype %d is not a dtype", name,
                              (int)dtype);
    tsr_dtype compute = dtype;
    if (compute == TSR_DTYPE_INFER)
        compute = tsr_dtype_is_integral(t->dtype, true) ? TSR_INT64 : t->dtype;
    return scan(kernel, t, dim, compute, out, NULL);
}

tsr_status tsr_cumsum(const tsr_tensor *t, int64_t dim, tsr_dtype dtype, tsr_tensor **out)
{
    return cumulative(TSR_OP_CUMSUM, t, dim, dtype, out);
}

tsr_status tsr_cumprod(const tsr_tensor *t, int64_t dim, tsr_dtype dtype, tsr_tensor **out)
{
    return cumulative(TSR_OP_CUMPROD, t, dim, dtype, out);
}

tsr_status tsr_cummax(const tsr_tensor *t, int64_t dim, tsr_tensor **values, tsr_tensor **indices)
{
    tsr_status st = check_args("cummax", t, values, indices);
    return st == TSR_OK ? scan(TSR_OP_CUMMAX, t, dim, t->dtype, values, indices) : st;
}

tsr_status tsr_cummin(const tsr_tensor *t, int64_t dim, tsr_tensor **values, tsr_tensor **indices)
{
    tsr_status st = check_args("cummin", t, values, indices);
    return st == TSR_OK ? scan(TSR_OP_CUMMIN, t, dim, t->dtype, values, indices) : st;
}

tsr_status tsr_logcumsumexp(const tsr_tensor *t, int64_t dim, tsr_tensor **out)
{
    tsr_status st = check_args("logcumsumexp", t, out, out);
    return st == TSR_OK ? scan(TSR_OP_LOGCUMSUMEXP, t, dim, t->dtype, out, NULL) : st;
}
