/* The statistical reductions: var, std, var_mean, std_mean, vector norms, logsumexp. */
#include "tensor/launch.h"
#include "tensor/scalar.h"
#include "runtime/error.h"
#include "ops/reduce.h"

#include <math.h>

/* float32 for complex64, float64 for complex128, the dtype itself otherwise. */
static tsr_dtype real_part(tsr_dtype dtype)
{
    if (dtype == TSR_COMPLEX64)
        return TSR_FLOAT32;
    if (dtype == TSR_COMPLEX128)
        return TSR_FLOAT64;
    return dtype;
}

static bool floating_or_complex(tsr_dtype dtype)
{
    return tsr_dtype_is_floating(dtype) || tsr_dtype_is_complex(dtype);
}

/* ------------------------------------------------------------------------ */
/* Variance                                                                  */
/* ------------------------------------------------------------------------ */

/* var or std (kernel) and, when `mean` is not NULL, the mean as well. Both
 * kernels are checked before either runs, so no half result escapes. */
static tsr_status moments(const char *name, tsr_op kernel, const tsr_tensor *t, const int64_t *dims,
                          int ndims, double correction, bool keepdim, tsr_tensor **spread,
                          tsr_tensor **mean)
{
    tsr__reduce_plan plan;
    tsr_status st = tsr__reduce_plan_make(name, t, dims, ndims, keepdim, &plan);
    if (st != TSR_OK)
        return st;
    if (!floating_or_complex(t->dtype))
        return tsr__set_error(TSR_ERR_DTYPE,
                              "%s: std and var only support floating point and complex dtypes, "
                              "got %s",
                              name, tsr_dtype_name(t->dtype));
    if (isnan(correction))
        return tsr__set_error(TSR_ERR_VALUE, "%s: correction must not be NaN", name);
    tsr__reduce_call call =
        tsr__reduce_call_make(name, kernel, t->dtype, real_part(t->dtype), &plan);
    call.attrs.correction = correction;
    if (!mean)
        call.grad = kernel == TSR_OP_VAR ? TSR__RGRAD_VAR : TSR__RGRAD_STD;
    tsr__reduce_call average = tsr__reduce_call_make(name, TSR_OP_MEAN, t->dtype, t->dtype, &plan);
    if (mean && (st = tsr__require_kernel(name, t->storage->backend, TSR_OP_MEAN, t->dtype,
                                          t->dtype)) != TSR_OK)
        return st;
    tsr_tensor *result;
    if ((st = tsr__reduce_run(&call, t, &plan, &result)) != TSR_OK)
        return st;
    tsr_tensor *both[2] = {result, NULL};
    if (mean && (st = tsr__reduce_run(&average, t, &plan, &both[1])) == TSR_OK)
        st = tsr__grad_record_reduce(kernel == TSR_OP_VAR ? TSR__RGRAD_VAR_MEAN
                                                          : TSR__RGRAD_STD_MEAN,
                                     name, t, &plan, correction, both, 2, NULL);
    if (st != TSR_OK) {
        tsr_tensor_release(both[0]);
        tsr_tensor_release(both[1]);
        return st;
    }
    *spread = result;
    if (mean)
        *mean = both[1];
    return TSR_OK;
}

static tsr_status null_out(const char *name)
{
    return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: out must not be NULL", name);
}

tsr_status tsr_var(const tsr_tensor *t, const int64_t *dims, int ndims, double correction,
                   bool keepdim, tsr_tensor **out)
{
    if (!out)
        return null_out("var");
    return moments("var", TSR_OP_VAR, t, dims, ndims, correction, keepdim, out, NULL);
}

tsr_status tsr_std(const tsr_tensor *t, const int64_t *dims, int ndims, double correction,
                   bool keepdim, tsr_tensor **out)
{
    if (!out)
        return null_out("std");
    return moments("std", TSR_OP_STD, t, dims, ndims, correction, keepdim, out, NULL);
}

tsr_status tsr_var_mean(const tsr_tensor *t, const int64_t *dims, int ndims, double correction,
                        bool keepdim, tsr_tensor **var, tsr_tensor **mean)
{
    if (!var || !mean)
        return null_out("var_mean");
    return moments("var_mean", TSR_OP_VAR, t, dims, ndims, correction, keepdim, var, mean);
}

tsr_status tsr_std_mean(const tsr_tensor *t, const int64_t *dims, int ndims, double correction,
                        bool keepdim, tsr_tensor **std, tsr_tensor **mean)
{
    if (!std || !mean)
        return null_out("std_mean");
    return moments("std_mean", TSR_OP_STD, t, dims, ndims, correction, keepdim, std, mean);
}

/* ------------------------------------------------------------------------ */
/* Vector norms                                                              */
/* ------------------------------------------------------------------------ */

/* dtype= may widen within the input's kind (real or complex), never narrow. */
static tsr_status norm_dtype(const tsr_tensor *t, tsr_dtype dtype, tsr_dtype *compute)
{
    const char *name = "linalg_vector_norm";
    *compute = t->dtype;
    if (dtype == TSR_DTYPE_INFER)
        return TSR_OK;
    if (!tsr__dtype_valid(dtype))
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: dtype %d is not a dtype", name,
                              (int)dtype);
    bool complex_input = tsr_dtype_is_complex(t->dtype);
    if (complex_input && !tsr_dtype_is_complex(dtype))
        return tsr__set_error(TSR_ERR_DTYPE,
                              "%s: dtype should be complex for complex inputs, but got %s", name,
                              tsr_dtype_name(dtype));
    if (!complex_input && !tsr_dtype_is_floating(dtype))
        return tsr__set_error(TSR_ERR_DTYPE, "%s: dtype should be real for real inputs, but got %s",
                              name, tsr_dtype_name(dtype));
    if (tsr__promote(t->dtype, dtype) != dtype)
        return tsr__set_error(TSR_ERR_DTYPE,
                              "%s: the dtype of the input (%s) should be convertible without "
                              "narrowing to the specified dtype (%s)",
                              name, tsr_dtype_name(t->dtype), tsr_dtype_name(dtype));
    *compute = dtype;
    return TSR_OK;
}

tsr_status tsr_linalg_vector_norm(const tsr_tensor *t, double ord, const int64_t *dims, int ndims,
                                  bool keepdim, tsr_dtype dtype, tsr_tensor **out)
{
    const char *name = "linalg_vector_norm";
    if (!out)
        return null_out(name);
    tsr__reduce_plan plan;
    tsr_status st = tsr__reduce_plan_make(name, t, dims, ndims, keepdim, &plan);
    if (st != TSR_OK)
        return st;
    if (!floating_or_complex(t->dtype))
        return tsr__set_error(TSR_ERR_DTYPE,
                              "%s: expected a floating point or complex tensor as input, got %s",
                              name, tsr_dtype_name(t->dtype));
    if (isnan(ord))
        return tsr__set_error(TSR_ERR_VALUE, "%s: ord must not be NaN", name);
    tsr_dtype compute;
    if ((st = norm_dtype(t, dtype, &compute)) != TSR_OK)
        return st;
    /* max |x|, min |x| and negative powers have no identity */
    if ((ord < 0 || isinf(ord)) && (st = tsr__reduce_require_nonempty(name, t, &plan)) != TSR_OK)
        return st;
    tsr__reduce_call call =
        tsr__reduce_call_make(name, TSR_OP_NORM, compute, real_part(compute), &plan);
    call.attrs.p = ord;
    call.grad = TSR__RGRAD_NORM;
    return tsr__reduce_run(&call, t, &plan, out);
}

/* ------------------------------------------------------------------------ */
/* logsumexp                                                                 */
/* ------------------------------------------------------------------------ */

tsr_status tsr_logsumexp(const tsr_tensor *t, const int64_t *dims, int ndims, bool keepdim,
                         tsr_tensor **out)
{
    if (!out)
        return null_out("logsumexp");
    tsr__reduce_plan plan;
    tsr_status st = tsr__reduce_plan_make("logsumexp", t, dims, ndims, keepdim, &plan);
    if (st != TSR_OK)
        return st;
    /* PyTorch 1.13 fails on dim=[] for tensors with dims (its result and its
     * kept maximum disagree in shape); dim is required there otherwise. */
    if (ndims == 0 && t->ndim > 0)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                              "logsumexp: dim must name at least one dim of a %d-d tensor",
                              t->ndim);
    if (tsr_dtype_is_complex(t->dtype))
        return tsr__set_error(TSR_ERR_DTYPE,
                              "logsumexp: expected a floating point result type, got %s",
                              tsr_dtype_name(t->dtype));
    tsr_dtype compute = tsr_dtype_is_integral(t->dtype, true) ? TSR_FLOAT32 : t->dtype;
    tsr__reduce_call call =
        tsr__reduce_call_make("logsumexp", TSR_OP_LOGSUMEXP, compute, compute, &plan);
    call.grad = TSR__RGRAD_LOGSUMEXP;
    return tsr__reduce_run(&call, t, &plan, out);
}

tsr_status tsr_norm_fro(const tsr_tensor *t, const int64_t *dims, int ndims, bool keepdim,
                        tsr_tensor **out)
{
    /* torch.norm(p='fro') is a matrix norm: one or two dims, or all of them */
    if (ndims > 2)
        return tsr__set_error(TSR_ERR_SHAPE,
                              "norm: p='fro' expects at most 2 dimensions, got %d", ndims);
    return tsr_linalg_vector_norm(t, 2.0, dims, ndims, keepdim, TSR_DTYPE_INFER, out);
}
