/* Shared machinery of the reductions (internal). */
#ifndef TSR_CORE_REDUCE_H
#define TSR_CORE_REDUCE_H

#include "tensor/tensor.h"

/* A reduction's dims resolved against one tensor. */
typedef struct tsr__reduce_plan {
    uint32_t mask;                      /* bit d: input dim d is reduced */
    int ndim;                           /* the input's rank */
    int64_t kernel_shape[TSR_MAX_DIMS]; /* the input's shape, reduced dims 1 */
    int out_ndim;                       /* the result's rank (keepdim applied) */
    int64_t out_shape[TSR_MAX_DIMS];
    bool keepdim;
    bool all;      /* every dim reduced (no dims given) */
    int64_t terms; /* elements reduced into each output */
} tsr__reduce_plan;

/* Checks the common arguments (t and out not NULL, dims present when
 * ndims > 0) and resolves the dims: wraps negative ones, refuses repeats and
 * out-of-range dims. ndims 0 reduces every dim. */
tsr_status tsr__reduce_plan_make(const char *op, const tsr_tensor *t, const int64_t *dims,
                                 int ndims, bool keepdim, tsr__reduce_plan *plan);

/* For ops without an identity: refuses a reduced dim of size 0, and a
 * reduction of every dim of an empty tensor, naming the op. */
tsr_status tsr__reduce_require_nonempty(const char *op, const tsr_tensor *t,
                                        const tsr__reduce_plan *plan);

/* For ops PyTorch 1.13 defines on one dim or all of them. */
tsr_status tsr__reduce_require_one_dim(const char *op, int ndims);

/* ---- gradients (reduce_grad.c) ---- */

/* Which formula a node uses (PyTorch's derivatives.yaml). */
typedef enum tsr__reduce_grad_kind {
    TSR__RGRAD_NONE = -1, /* no gradient (integer results, indices) */
    TSR__RGRAD_SUM,
    TSR__RGRAD_NANSUM,
    TSR__RGRAD_MEAN,
    TSR__RGRAD_NANMEAN,
    TSR__RGRAD_PROD,
    TSR__RGRAD_EXTREMUM,     /* amax, amin: split evenly between ties */
    TSR__RGRAD_EXTREMUM_ALL, /* max(), min(): split evenly, NaNs when the result is NaN */
    TSR__RGRAD_AMINMAX,      /* two outputs (min, max) */
    TSR__RGRAD_SELECT,       /* max(dim), min(dim): to the index (passed as indices) */
    TSR__RGRAD_VAR,
    TSR__RGRAD_STD,
    TSR__RGRAD_VAR_MEAN, /* two outputs (var, mean) */
    TSR__RGRAD_STD_MEAN, /* two outputs (std, mean) */
    TSR__RGRAD_NORM,     /* param: ord */
    TSR__RGRAD_LOGSUMEXP,
} tsr__reduce_grad_kind;

/* One reduction kernel call: t converted to `compute`, outputs of the given
 * dtypes shaped as plan->kernel_shape, then reshaped unless keepdim. */
typedef struct tsr__reduce_call {
    const char *name; /* the public op, for errors */
    tsr_op kernel;
    tsr_dtype compute;
    int noutputs;
    tsr_dtype out_dtypes[2];
    tsr_reduce_attrs attrs;
    /* The node recorded for output 0 (max(dim)'s indices go with it);
     * param is attrs.p for norms, attrs.correction otherwise. */
    tsr__reduce_grad_kind grad;
} tsr__reduce_call;

/* A call with attrs zeroed except struct_size and dims_mask, and no gradient. */
tsr__reduce_call tsr__reduce_call_make(const char *name, tsr_op kernel, tsr_dtype compute,
                                       tsr_dtype out_dtype, const tsr__reduce_plan *plan);

/* Runs the call and records its gradient. On success outs[0 .. noutputs-1]
 * are new references. */
tsr_status tsr__reduce_run(const tsr__reduce_call *call, const tsr_tensor *t,
                           const tsr__reduce_plan *plan, tsr_tensor **outs);

/* Converts `t` (a new tensor, owned) to `dtype` in place of the pointer:
 * releases the old one. Used for results PyTorch gives in another dtype
 * than the kernel (all/any of uint8). */
tsr_status tsr__reduce_retype(const char *op, tsr_tensor **t, tsr_dtype dtype);

/* Records the node of reduction `name` of t (outs: its nouts floating
 * outputs; param: correction or ord). Nothing unless t needs a gradient and
 * outs[0] is floating. */
tsr_status tsr__grad_record_reduce(tsr__reduce_grad_kind kind, const char *name,
                                   const tsr_tensor *t, const tsr__reduce_plan *plan, double param,
                                   tsr_tensor *const *outs, int nouts, const tsr_tensor *indices);

#endif
