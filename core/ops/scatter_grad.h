/* Gradients of the scatter family (internal).
 * Each recorder does nothing unless grad mode is on and an input requires
 * grad; callers record after the result exists. */
#ifndef TSR_CORE_OPS_SCATTER_GRAD_H
#define TSR_CORE_OPS_SCATTER_GRAD_H

#include "tensor/tensor.h"

/* The scatter family's kernels and their attributes, as the ops ran them. */
typedef struct tsr__scatter_grad {
    tsr_op kernel; /* TSR_OP_SCATTER, TSR_OP_INDEX_ADD or TSR_OP_INDEX_COPY */
    int dim;
    int reduce;        /* TSR_REDUCE_* (scatter) */
    bool include_self; /* scatter with a reduction */
    tsr_scalar alpha;  /* index_add */
    const char *name;  /* the node's name */
} tsr__scatter_grad;

/* self and src (NULL: a scalar value) of a scatter-family op; index is the
 * int64 index the kernel used (1-d for index_add and index_copy). Hands the
 * reductions below to their own recorders. */
tsr_status tsr__grad_record_scatter(const tsr__scatter_grad *info, const tsr_tensor *self,
                                    const tsr_tensor *index, const tsr_tensor *src,
                                    tsr_tensor *out);
/* scatter_reduce's prod, mean, amax and amin with a src tensor. */
tsr_status tsr__grad_record_scatter_reduce(const tsr__scatter_grad *info, const tsr_tensor *self,
                                           const tsr_tensor *index, const tsr_tensor *src,
                                           tsr_tensor *out);
/* scatter(self, dim, index, value, reduce=multiply); info->alpha is value. */
tsr_status tsr__grad_record_scatter_multiply_value(const tsr__scatter_grad *info,
                                                   const tsr_tensor *self, const tsr_tensor *index,
                                                   tsr_tensor *out);

#endif
