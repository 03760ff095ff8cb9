/* where and clamp: ops that choose between values rather than compute new
 * ones. where moves element bytes unchanged (NaN payloads included).
 * clamp is maximum with the lower bound, then minimum with the upper one,
 * so a NaN anywhere gives NaN and a lower bound above the upper bound
 * gives the upper bound, as PyTorch's tensor-bound clamp does; a single
 * Python-scalar bound that is NaN is ignored instead, as in PyTorch. */
#include <string.h>

#include "elementwise.h"
#include "kernel_args.h"
#include "kernels.h"
#include "scalar_ops.h"

/* ------------------------------------------------------------------------ */
/* where                                                                     */
/* ------------------------------------------------------------------------ */

/* memmove: the output may be a or b itself. */
static int where_row(void *context, char *const *ptrs, const int64_t *steps, int64_t n)
{
    size_t size = *(const size_t *)context;
    for (int64_t i = 0; i < n; i++) {
        const char *condition = ptrs[1] + i * steps[1];
        const char *chosen = *condition ? ptrs[2] + i * steps[2] : ptrs[3] + i * steps[3];
        memmove(ptrs[0] + i * steps[0], chosen, size);
    }
    return TSR_OK;
}

int tsr__ref_kernel_where(void *backend_ptr, const tsr_kernel_args *args)
{
    const tsr__ref_backend *backend = backend_ptr;
    tsr__ref_loop loop;
    int status = tsr__ref_args_prepare(backend, args, 3, &loop);
    if (status != TSR_OK) {
        return status;
    }
    int32_t dtype = args->outputs[0].dtype;
    if (args->inputs[0].dtype != TSR_BOOL) {
        return tsr__ref_args_dtype_error(backend, 0, args->inputs[0].dtype, TSR_BOOL);
    }
    for (int32_t k = 1; k < 3; k++) {
        if (args->inputs[k].dtype != dtype) {
            return tsr__ref_args_dtype_error(backend, k, args->inputs[k].dtype, dtype);
        }
    }
    size_t size = tsr__ref_dtype_size(dtype);
    return tsr__ref_loop_run(&loop, where_row, &size);
}

/* ------------------------------------------------------------------------ */
/* clamp: inputs (x, min, max); ctx->mode says which bounds are present      */
/* ------------------------------------------------------------------------ */

static void clamp_integer(tsr__ref_wide *out, const tsr__ref_wide *in, const tsr__ref_elem_ctx *ctx)
{
    int64_t v = in[0].i;
    if ((ctx->mode & TSR_CLAMP_HAS_MIN) && v < in[1].i) {
        v = in[1].i;
    }
    if ((ctx->mode & TSR_CLAMP_HAS_MAX) && in[2].i < v) {
        v = in[2].i;
    }
    out->i = v;
}

static void clamp_real(tsr__ref_wide *out, const tsr__ref_wide *in, const tsr__ref_elem_ctx *ctx)
{
    double v = in[0].f;
    if (ctx->mode & TSR_CLAMP_HAS_MIN) {
        v = tsr__ref_real_maximum(v, in[1].f);
    }
    if (ctx->mode & TSR_CLAMP_HAS_MAX) {
        v = tsr__ref_real_minimum(v, in[2].f);
    }
    out->f = v;
}

/* Python-scalar bounds (TSR_CLAMP_SCALAR_BOUNDS) with one bound given:
 * PyTorch's clamp_min/clamp_max scalar kernels compute std::max(x, min) and
 * std::min(x, max), which ignore a NaN bound. (With both scalar bounds a
 * NaN still gives NaN, as clamp_real does.) */
static void clamp_scalar_bound_real(tsr__ref_wide *out, const tsr__ref_wide *in,
                                    const tsr__ref_elem_ctx *ctx)
{
    double v = in[0].f;
    if ((ctx->mode & TSR_CLAMP_HAS_MIN) && v < in[1].f) {
        v = in[1].f;
    }
    if ((ctx->mode & TSR_CLAMP_HAS_MAX) && in[2].f < v) {
        v = in[2].f;
    }
    out->f = v;
}

/* An absent bound's descriptor repeats x; the mode bits make it ignored. */
static int bind_clamp(const tsr__ref_bind_args *args, tsr__ref_elem_call *call)
{
    const int32_t bounds = TSR_CLAMP_HAS_MIN | TSR_CLAMP_HAS_MAX;
    int32_t mode = args->attrs != NULL ? args->attrs->mode : 0;
    if ((mode & ~(bounds | TSR_CLAMP_SCALAR_BOUNDS)) != 0) {
        return tsr__ref_error(args->backend, TSR_ERR_INVALID_ARGUMENT,
                              "unknown clamp mode bits 0x%x", (unsigned)mode);
    }
    int one_bound = (mode & bounds) == TSR_CLAMP_HAS_MIN || (mode & bounds) == TSR_CLAMP_HAS_MAX;
    if ((mode & TSR_CLAMP_SCALAR_BOUNDS) && one_bound && args->category == TSR__REF_REAL) {
        call->fn = clamp_scalar_bound_real;
    }
    call->ctx.mode = mode;
    return TSR_OK;
}

/* The dtypes of PyTorch 1.13's clamp kernels (clamp_cpu, clamp_scalar_cpu,
 * clamp_min/max_scalar_cpu): no bool, float16 or complex. PyTorch runs
 * clamp(x, min=tensor) and clamp(x, max=tensor) through maximum/minimum,
 * which do take bool and float16; the core routes those forms there. */
static const tsr__ref_elementwise_op clamp_ops[] = {
    {.op = TSR_OP_CLAMP,
     .arity = 3,
     .result = TSR__REF_RESULT_SAME,
     .dtypes = TSR__REF_SET_INTEGER | TSR__REF_SET_BFLOAT16 | TSR__REF_SET_FLOAT3264,
     .fn = {clamp_integer, clamp_real, NULL},
     .bind = bind_clamp},
};

const tsr__ref_op_family tsr__ref_clamp_family = {clamp_ops,
                                                  sizeof clamp_ops / sizeof clamp_ops[0]};
