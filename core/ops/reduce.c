/* The public reductions: sums, products, means, extrema, logical and counting. */
#include "tensor/scalar.h"
#include "runtime/error.h"
#include "ops/reduce.h"
#include "runtime/backend.h"

static tsr_status check_out(const char *op, void *out, void *out2)
{
    if (!out || !out2)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: out must not be NULL", op);
    return TSR_OK;
}

static tsr_status check_dtype_arg(const char *op, tsr_dtype dtype)
{
    if (dtype != TSR_DTYPE_INFER && !tsr__dtype_valid(dtype))
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: dtype %d is not a dtype", op,
                              (int)dtype);
    return TSR_OK;
}

/* ------------------------------------------------------------------------ */
/* Sums and products                                                         */
/* ------------------------------------------------------------------------ */

/* The dtype the kernel reads: an int64 sum or product of bool or a narrower
 * integer reads the input as it is where the backend has that kernel (it
 * accumulates in int64 anyway, as PyTorch's does), instead of a widened
 * copy eight times the input's size (16 GiB for 2^31 int8 elements). */
static tsr_dtype narrow_input(tsr_op kernel, const tsr_tensor *t, tsr_dtype compute)
{
    if (compute == TSR_INT64 && t->dtype != TSR_INT64 && tsr_dtype_is_integral(t->dtype, true) &&
        tsr__registry_find(t->storage->backend, kernel, t->dtype, TSR_INT64, NULL))
        return t->dtype;
    return compute;
}

/* sum, nansum, prod: bool and integers widen to int64 unless dtype is given. */
static tsr_status sum_like(tsr_op kernel, const tsr_tensor *t, const int64_t *dims, int ndims,
                           bool keepdim, tsr_dtype dtype, tsr_tensor **out)
{
    const char *name = tsr_op_name(kernel);
    tsr__reduce_plan plan;
    tsr_status st = check_out(name, out, out);
    if (st == TSR_OK)
        st = tsr__reduce_plan_make(name, t, dims, ndims, keepdim, &plan);
    if (st == TSR_OK)
        st = check_dtype_arg(name, dtype);
    if (st == TSR_OK && kernel == TSR_OP_PROD)
        st = tsr__reduce_require_one_dim(name, ndims);
    if (st != TSR_OK)
        return st;
    if (kernel == TSR_OP_NANSUM && tsr_dtype_is_complex(t->dtype))
        return tsr__set_error(TSR_ERR_DTYPE, "nansum: complex inputs are not supported");
    tsr_dtype compute = dtype;
    if (compute == TSR_DTYPE_INFER)
        compute = tsr_dtype_is_integral(t->dtype, true) ? TSR_INT64 : t->dtype;
    tsr__reduce_call call =
        tsr__reduce_call_make(name, kernel, narrow_input(kernel, t, compute), compute, &plan);
    call.grad = kernel == TSR_OP_SUM      ? TSR__RGRAD_SUM
                : kernel == TSR_OP_NANSUM ? TSR__RGRAD_NANSUM
                                          : TSR__RGRAD_PROD;
    return tsr__reduce_run(&call, t, &plan, out);
}

tsr_status tsr_sum(const tsr_tensor *t, const int64_t *dims, int ndims, bool keepdim,
                   tsr_dtype dtype, tsr_tensor **out)
{
    return sum_like(TSR_OP_SUM, t, dims, ndims, keepdim, dtype, out);
}

tsr_status tsr_nansum(const tsr_tensor *t, const int64_t *dims, int ndims, bool keepdim,
                      tsr_dtype dtype, tsr_tensor **out)
{
    return sum_like(TSR_OP_NANSUM, t, dims, ndims, keepdim, dtype, out);
}

tsr_status tsr_prod(const tsr_tensor *t, const int64_t *dims, int ndims, bool keepdim,
                    tsr_dtype dtype, tsr_tensor **out)
{
    return sum_like(TSR_OP_PROD, t, dims, ndims, keepdim, dtype, out);
}

static bool floating_or_complex(tsr_dtype dtype)
{
    return tsr_dtype_is_floating(dtype) || tsr_dtype_is_complex(dtype);
}

/* mean and nanmean compute in dtype (or the input's), which must be floating
 * or complex: PyTorch cannot infer a result dtype for integers. */
static tsr_status mean_like(tsr_op kernel, const tsr_tensor *t, const int64_t *dims, int ndims,
                            bool keepdim, tsr_dtype dtype, tsr_tensor **out)
{
    const char *name = tsr_op_name(kernel);
    tsr__reduce_plan plan;
    tsr_status st = check_out(name, out, out);
    if (st == TSR_OK)
        st = tsr__reduce_plan_make(name, t, dims, ndims, keepdim, &plan);
    if (st == TSR_OK)
        st = check_dtype_arg(name, dtype);
    if (st != TSR_OK)
        return st;
    if (kernel == TSR_OP_NANMEAN && !tsr_dtype_is_floating(t->dtype))
        return tsr__set_error(TSR_ERR_DTYPE,
                              "nanmean: expected input to have floating point dtype but got %s",
                              tsr_dtype_name(t->dtype));
    if (dtype == TSR_DTYPE_INFER && !floating_or_complex(t->dtype))
        return tsr__set_error(TSR_ERR_DTYPE,
                              "%s: could not infer output dtype. Input dtype must be either a "
                              "floating point or complex dtype. Got: %s",
                              name, tsr_dtype_name(t->dtype));
    if (dtype != TSR_DTYPE_INFER && !floating_or_complex(dtype))
        return tsr__set_error(TSR_ERR_DTYPE,
                              "%s: could not infer output dtype. Optional dtype must be either a "
                              "floating point or complex dtype. Got: %s",
                              name, tsr_dtype_name(dtype));
    tsr_dtype compute = dtype == TSR_DTYPE_INFER ? t->dtype : dtype;
    tsr__reduce_call call = tsr__reduce_call_make(name, kernel, compute, compute, &plan);
    call.grad = kernel == TSR_OP_MEAN ? TSR__RGRAD_MEAN : TSR__RGRAD_NANMEAN;
    return tsr__reduce_run(&call, t, &plan, out);
}

tsr_status tsr_mean(const tsr_tensor *t, const int64_t *dims, int ndims, bool keepdim,
                    tsr_dtype dtype, tsr_tensor **out)
{
    return mean_like(TSR_OP_MEAN, t, dims, ndims, keepdim, dtype, out);
}

tsr_status tsr_nanmean(const tsr_tensor *t, const int64_t *dims, int ndims, bool keepdim,
                       tsr_dtype dtype, tsr_tensor **out)
{
    return mean_like(TSR_OP_NANMEAN, t, dims, ndims, keepdim, dtype, out);
}

/* ------------------------------------------------------------------------ */
/* Extrema                                                                   */
/* ------------------------------------------------------------------------ */

/* amax, amin, max, min, argmax, argmin: no identity, so no empty reduction.
 * `name` is the public op (max and min run the amax and amin kernels);
 * `grad` its gradient: amax/amin split it between ties of each reduction,
 * max()/min() also between NaNs, argmax/argmin have none. */
static tsr_status extremum(const char *name, tsr_op kernel, tsr__reduce_grad_kind grad,
                           const tsr_tensor *t, const int64_t *dims, int ndims, bool keepdim,
                           tsr_tensor **out)
{
    tsr__reduce_plan plan;
    tsr_status st = check_out(name, out, out);
    if (st == TSR_OK)
        st = tsr__reduce_plan_make(name, t, dims, ndims, keepdim, &plan);
    if (st == TSR_OK && (kernel == TSR_OP_ARGMAX || kernel == TSR_OP_ARGMIN))
        st = tsr__reduce_require_one_dim(name, ndims);
    if (st == TSR_OK)
        st = tsr__reduce_require_nonempty(name, t, &plan);
    if (st != TSR_OK)
        return st;
    bool arg = kernel == TSR_OP_ARGMAX || kernel == TSR_OP_ARGMIN;
    tsr__reduce_call call =
        tsr__reduce_call_make(name, kernel, t->dtype, arg ? TSR_INT64 : t->dtype, &plan);
    call.grad = grad;
    return tsr__reduce_run(&call, t, &plan, out);
}

tsr_status tsr_amax(const tsr_tensor *t, const int64_t *dims, int ndims, bool keepdim,
                    tsr_tensor **out)
{
    return extremum("amax", TSR_OP_AMAX, TSR__RGRAD_EXTREMUM, t, dims, ndims, keepdim, out);
}

tsr_status tsr_amin(const tsr_tensor *t, const int64_t *dims, int ndims, bool keepdim,
                    tsr_tensor **out)
{
    return extremum("amin", TSR_OP_AMIN, TSR__RGRAD_EXTREMUM, t, dims, ndims, keepdim, out);
}

tsr_status tsr_max(const tsr_tensor *t, tsr_tensor **out)
{
    return extremum("max", TSR_OP_AMAX, TSR__RGRAD_EXTREMUM_ALL, t, NULL, 0, false, out);
}

tsr_status tsr_min(const tsr_tensor *t, tsr_tensor **out)
{
    return extremum("min", TSR_OP_AMIN, TSR__RGRAD_EXTREMUM_ALL, t, NULL, 0, false, out);
}

tsr_status tsr_argmax(const tsr_tensor *t, const int64_t *dims, int ndims, bool keepdim,
                      tsr_tensor **out)
{
    return extremum("argmax", TSR_OP_ARGMAX, TSR__RGRAD_NONE, t, dims, ndims, keepdim, out);
}

tsr_status tsr_argmin(const tsr_tensor *t, const int64_t *dims, int ndims, bool keepdim,
                      tsr_tensor **out)
{
    return extremum("argmin", TSR_OP_ARGMIN, TSR__RGRAD_NONE, t, dims, ndims, keepdim, out);
}

static tsr_status extremum_dim(tsr_op kernel, const tsr_tensor *t, int64_t dim, bool keepdim,
                               tsr_tensor **values, tsr_tensor **indices)
{
    const char *name = tsr_op_name(kernel);
    tsr__reduce_plan plan;
    tsr_status st = check_out(name, values, indices);
    if (st == TSR_OK)
        st = tsr__reduce_plan_make(name, t, &dim, 1, keepdim, &plan);
    if (st == TSR_OK)
        st = tsr__reduce_require_nonempty(name, t, &plan);
    if (st != TSR_OK)
        return st;
    tsr__reduce_call call = tsr__reduce_call_make(name, kernel, t->dtype, t->dtype, &plan);
    call.noutputs = 2;
    call.out_dtypes[1] = TSR_INT64;
    call.grad = TSR__RGRAD_SELECT;
    tsr_tensor *outs[2];
    if ((st = tsr__reduce_run(&call, t, &plan, outs)) != TSR_OK)
        return st;
    *values = outs[0];
    *indices = outs[1];
    return TSR_OK;
}

tsr_status tsr_max_dim(const tsr_tensor *t, int64_t dim, bool keepdim, tsr_tensor **values,
                       tsr_tensor **indices)
{
    return extremum_dim(TSR_OP_MAX_DIM, t, dim, keepdim, values, indices);
}

tsr_status tsr_min_dim(const tsr_tensor *t, int64_t dim, bool keepdim, tsr_tensor **values,
                       tsr_tensor **indices)
{
    return extremum_dim(TSR_OP_MIN_DIM, t, dim, keepdim, values, indices);
}

/* PyTorch 1.13's aminmax kernel lacks float16, and bfloat16 when a dim is
 * given (the full reduction goes through another path that has it). */
static tsr_status aminmax_dtype(const tsr_tensor *t, int ndims)
{
    if (t->dtype == TSR_FLOAT16 || (t->dtype == TSR_BFLOAT16 && ndims > 0) ||
        tsr_dtype_is_complex(t->dtype))
        return tsr__set_error(TSR_ERR_DTYPE, "aminmax: not implemented for %s%s",
                              tsr_dtype_name(t->dtype),
                              t->dtype == TSR_BFLOAT16 ? " with a dim" : "");
    return TSR_OK;
}

tsr_status tsr_aminmax(const tsr_tensor *t, const int64_t *dims, int ndims, bool keepdim,
                       tsr_tensor **min, tsr_tensor **max)
{
    tsr__reduce_plan plan;
    tsr_status st = check_out("aminmax", min, max);
    if (st == TSR_OK)
        st = tsr__reduce_plan_make("aminmax", t, dims, ndims, keepdim, &plan);
    if (st == TSR_OK)
        st = tsr__reduce_require_one_dim("aminmax", ndims);
    if (st == TSR_OK)
        st = aminmax_dtype(t, ndims);
    if (st == TSR_OK)
        st = tsr__reduce_require_nonempty("aminmax", t, &plan);
    if (st != TSR_OK)
        return st;
    tsr__reduce_call lo = tsr__reduce_call_make("aminmax", TSR_OP_AMIN, t->dtype, t->dtype, &plan);
    tsr__reduce_call hi = tsr__reduce_call_make("aminmax", TSR_OP_AMAX, t->dtype, t->dtype, &plan);
    /* PyTorch 1.13 gives shape [1] for a 0-d input with a dim and keepdim. */
    if (t->ndim == 0 && ndims == 1 && keepdim) {
        plan.out_ndim = 1;
        plan.out_shape[0] = 1;
    }
    tsr_tensor *low = NULL, *high = NULL;
    if ((st = tsr__reduce_run(&lo, t, &plan, &low)) != TSR_OK)
        return st;
    if ((st = tsr__reduce_run(&hi, t, &plan, &high)) != TSR_OK) {
        tsr_tensor_release(low);
        return st;
    }
    tsr_tensor *both[2] = {low, high};
    st = tsr__grad_record_reduce(TSR__RGRAD_AMINMAX, "aminmax", t, &plan, 0.0, both, 2, NULL);
    if (st != TSR_OK) {
        tsr_tensor_release(low);
        tsr_tensor_release(high);
        return st;
    }
    *min = low;
    *max = high;
    return TSR_OK;
}

/* ------------------------------------------------------------------------ */
/* Logical and counting                                                      */
/* ------------------------------------------------------------------------ */

static tsr_status logical(tsr_op kernel, const tsr_tensor *t, const int64_t *dims, int ndims,
                          bool keepdim, tsr_tensor **out)
{
    const char *name = tsr_op_name(kernel);
    tsr__reduce_plan plan;
    tsr_status st = check_out(name, out, out);
    if (st == TSR_OK)
        st = tsr__reduce_plan_make(name, t, dims, ndims, keepdim, &plan);
    if (st == TSR_OK)
        st = tsr__reduce_require_one_dim(name, ndims);
    if (st != TSR_OK)
        return st;
    tsr__reduce_call call = tsr__reduce_call_make(name, kernel, t->dtype, TSR_BOOL, &plan);
    tsr_tensor *result;
    if ((st = tsr__reduce_run(&call, t, &plan, &result)) != TSR_OK)
        return st;
    /* PyTorch 1.13 keeps uint8 for all and any of uint8 (values 0 and 1). */
    if (t->dtype == TSR_UINT8 && (st = tsr__reduce_retype(name, &result, TSR_UINT8)) != TSR_OK) {
        tsr_tensor_release(result);
        return st;
    }
    *out = result;
    return TSR_OK;
}

tsr_status tsr_all(const tsr_tensor *t, const int64_t *dims, int ndims, bool keepdim,
                   tsr_tensor **out)
{
    return logical(TSR_OP_ALL, t, dims, ndims, keepdim, out);
}

tsr_status tsr_any(const tsr_tensor *t, const int64_t *dims, int ndims, bool keepdim,
                   tsr_tensor **out)
{
    return logical(TSR_OP_ANY, t, dims, ndims, keepdim, out);
}

tsr_status tsr_count_nonzero(const tsr_tensor *t, const int64_t *dims, int ndims, tsr_tensor **out)
{
    tsr__reduce_plan plan;
    tsr_status st = check_out("count_nonzero", out, out);
    if (st == TSR_OK)
        st = tsr__reduce_plan_make("count_nonzero", t, dims, ndims, false, &plan);
    if (st != TSR_OK)
        return st;
    tsr__reduce_call call =
        tsr__reduce_call_make("count_nonzero", TSR_OP_COUNT_NONZERO, t->dtype, TSR_INT64, &plan);
    return tsr__reduce_run(&call, t, &plan, out);
}
