/* Reductions: from a dim list to kernel and result shapes, and one kernel call. */
#include "ops/reduce.h"

#include "autograd/graph.h"
#include "tensor/launch.h"
#include "runtime/error.h"
#include "tensor/shape.h"

tsr_status tsr__reduce_plan_make(const char *op, const tsr_tensor *t, const int64_t *dims,
                                 int ndims, bool keepdim, tsr__reduce_plan *plan)
{
    if (!t)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: input must not be NULL", op);
    if (ndims < 0 || ndims > TSR_MAX_DIMS || (ndims > 0 && !dims))
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                              "%s: dims must hold 0 to %d dims (got %d%s)", op, TSR_MAX_DIMS, ndims,
                              ndims > 0 && !dims ? " and a NULL list" : "");
    plan->mask = 0;
    plan->ndim = t->ndim;
    plan->keepdim = keepdim;
    plan->all = ndims == 0;
    for (int i = 0; i < ndims; i++) {
        int d;
        tsr_status st = tsr__wrap_dim(op, "dim", dims[i], t->ndim, &d);
        if (st != TSR_OK)
            return st;
        if (plan->mask & (UINT32_C(1) << d))
            return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                                  "%s: dim %d appears more than once in the list of dims", op, d);
        plan->mask |= UINT32_C(1) << d;
    }
    if (plan->all)
        plan->mask = t->ndim > 0 ? (uint32_t)((UINT64_C(1) << t->ndim) - 1) : 0;
    /* A 0-d tensor's dim 0 is accepted but there is nothing to reduce. */
    if (t->ndim == 0)
        plan->mask = 0;
    plan->terms = 1;
    plan->out_ndim = 0;
    for (int d = 0; d < t->ndim; d++) {
        bool reduced = plan->mask & (UINT32_C(1) << d);
        plan->kernel_shape[d] = reduced ? 1 : t->shape[d];
        if (reduced)
            plan->terms *= t->shape[d];
        if (!reduced || keepdim)
            plan->out_shape[plan->out_ndim++] = plan->kernel_shape[d];
    }
    return TSR_OK;
}

tsr_status tsr__reduce_require_nonempty(const char *op, const tsr_tensor *t,
                                        const tsr__reduce_plan *plan)
{
    if (plan->all && tsr_tensor_numel(t) == 0)
        return tsr__set_error(TSR_ERR_INDEX,
                              "%s: cannot perform reduction function %s on a tensor with no "
                              "elements because the operation does not have an identity; "
                              "specify a non-empty dim",
                              op, op);
    for (int d = 0; d < t->ndim; d++) {
        if ((plan->mask & (UINT32_C(1) << d)) && t->shape[d] == 0)
            return tsr__set_error(TSR_ERR_INDEX,
                                  "%s: expected reduction dim %d to have non-zero size "
                                  "(the operation does not have an identity)",
                                  op, d);
    }
    return TSR_OK;
}

tsr_status tsr__reduce_require_one_dim(const char *op, int ndims)
{
    if (ndims > 1)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                              "%s: reduces one dim or all of them (PyTorch 1.13 takes a single "
                              "int dim), got %d dims",
                              op, ndims);
    return TSR_OK;
}

tsr__reduce_call tsr__reduce_call_make(const char *name, tsr_op kernel, tsr_dtype compute,
                                       tsr_dtype out_dtype, const tsr__reduce_plan *plan)
{
    tsr__reduce_call call = {
        .name = name,
        .kernel = kernel,
        .compute = compute,
        .noutputs = 1,
        .out_dtypes = {out_dtype, out_dtype},
        .attrs = {.struct_size = sizeof(tsr_reduce_attrs), .dims_mask = plan->mask},
        .grad = TSR__RGRAD_NONE,
    };
    return call;
}

/* Gives a fresh, contiguous kernel output the result's shape (reduced dims
 * dropped unless keepdim): a view, no copy. */
static tsr_status reshape_result(const tsr__reduce_plan *plan, tsr_tensor **t)
{
    if (plan->out_ndim == plan->ndim)
        return TSR_OK;
    int64_t strides[TSR_MAX_DIMS];
    tsr__contiguous_strides(plan->out_ndim, plan->out_shape, strides);
    tsr_tensor *view;
    tsr_status st =
        tsr__tensor_restride(*t, plan->out_ndim, plan->out_shape, strides, (*t)->offset, &view);
    if (st != TSR_OK)
        return st;
    tsr_tensor_release(*t);
    *t = view;
    return TSR_OK;
}

static void release_outputs(tsr_tensor **outs, int n)
{
    for (int i = 0; i < n; i++) {
        tsr_tensor_release(outs[i]);
        outs[i] = NULL;
    }
}

tsr_status tsr__reduce_run(const tsr__reduce_call *call, const tsr_tensor *t,
                           const tsr__reduce_plan *plan, tsr_tensor **outs)
{
    tsr_backend *b = t->storage->backend;
    tsr_status st =
        tsr__require_kernel(call->name, b, call->kernel, call->compute, call->out_dtypes[0]);
    if (st != TSR_OK)
        return st;
    tsr_tensor *input;
    bool grad_mode = tsr_grad_mode_set(false); /* a step of this op, not history */
    st = tsr_to_dtype(t, call->compute, &input);
    tsr_grad_mode_set(grad_mode);
    if (st != TSR_OK) {
        tsr__prefix_error("%s", call->name);
        return st;
    }
    tsr_tensor *results[2] = {NULL, NULL};
    for (int i = 0; i < call->noutputs && st == TSR_OK; i++)
        st = tsr__tensor_empty(call->name, b, call->out_dtypes[i], plan->ndim, plan->kernel_shape,
                               &results[i]);
    if (st == TSR_OK)
        st = tsr__launch(call->kernel, call->compute, call->out_dtypes[0],
                         (const tsr_tensor *const *)&input, 1, results, call->noutputs,
                         &call->attrs);
    tsr_tensor_release(input);
    for (int i = 0; i < call->noutputs && st == TSR_OK; i++) {
        if ((st = reshape_result(plan, &results[i])) != TSR_OK)
            tsr__prefix_error("%s", call->name);
    }
    if (st == TSR_OK && call->grad != TSR__RGRAD_NONE) {
        double param = call->grad == TSR__RGRAD_NORM ? call->attrs.p : call->attrs.correction;
        st = tsr__grad_record_reduce(call->grad, call->name, t, plan, param, results, 1,
                                     call->noutputs > 1 ? results[1] : NULL);
    }
    if (st != TSR_OK) {
        release_outputs(results, call->noutputs);
        return st;
    }
    for (int i = 0; i < call->noutputs; i++)
        outs[i] = results[i];
    return TSR_OK;
}

tsr_status tsr__reduce_retype(const char *op, tsr_tensor **t, tsr_dtype dtype)
{
    if ((*t)->dtype == dtype)
        return TSR_OK;
    tsr_tensor *converted;
    bool grad_mode = tsr_grad_mode_set(false);
    tsr_status st = tsr_to_dtype(*t, dtype, &converted);
    tsr_grad_mode_set(grad_mode);
    if (st != TSR_OK) {
        tsr__prefix_error("%s", op);
        return st;
    }
    tsr_tensor_release(*t);
    *t = converted;
    return TSR_OK;
}
