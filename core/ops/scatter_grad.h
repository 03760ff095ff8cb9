/* Gradients of the indexing, joining and sorting ops (internal). Each
 * recorder does nothing unless grad mode is on and an input requires grad;
 * callers record after the result exists. Ops built from other public ops
 * (stack, take, topk, flip, ...) need no recorder: their parts record. */
#ifndef TSR_CORE_GRAD_INDEX_H
#define TSR_CORE_GRAD_INDEX_H

#include "tensor/tensor.h"

/* cat of tensors[0..count) along dim; legacy empty 1-d inputs (skipped by
 * cat) get no gradient. */
tsr_status tsr__grad_record_cat(const tsr_tensor *const *tensors, size_t count, int dim,
                                tsr_tensor *out);
/* index_select with a 1-d int64 index. */
tsr_status tsr__grad_record_index_select(const tsr_tensor *t, int dim, const tsr_tensor *index,
                                         tsr_tensor *out);
/* gather with an int64 index of t's rank. */
tsr_status tsr__grad_record_gather(const tsr_tensor *t, int dim, const tsr_tensor *index,
                                   tsr_tensor *out);
/* embedding: rows of weight at flat (1-d) indices; the row padding_idx
 * (NULL: none) gets no gradient. */
tsr_status tsr__grad_record_embedding(const tsr_tensor *weight, const tsr_tensor *flat_indices,
                                      const int64_t *padding_idx, tsr_tensor *out);
/* tril (op TSR_OP_TRIL) or triu. */
tsr_status tsr__grad_record_triangle(tsr_op op, const tsr_tensor *t, int64_t diagonal,
                                     tsr_tensor *out);
/* masked_fill of t with a bool mask and a 0-d value tensor (NULL for a scalar). */
tsr_status tsr__grad_record_masked_fill(const tsr_tensor *t, const tsr_tensor *mask,
                                        const tsr_tensor *value, tsr_tensor *out);

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
 * int64 index the kernel used (1-d for index_add and index_copy). */
tsr_status tsr__grad_record_scatter(const tsr__scatter_grad *info, const tsr_tensor *self,
                                    const tsr_tensor *index, const tsr_tensor *src,
                                    tsr_tensor *out);
/* scatter_reduce's prod, mean, amax, amin and scatter's multiply with a src
 * tensor (grad_scatter_reduce.c). */
tsr_status tsr__grad_record_scatter_reduce(const tsr__scatter_grad *info, const tsr_tensor *self,
                                           const tsr_tensor *index, const tsr_tensor *src,
                                           tsr_tensor *out);
/* scatter(self, dim, index, value, reduce=multiply); info->alpha is value. */
tsr_status tsr__grad_record_scatter_multiply_value(const tsr__scatter_grad *info,
                                                   const tsr_tensor *self, const tsr_tensor *index,
                                                   tsr_tensor *out);
/* F.pad with mode constant. */
tsr_status tsr__grad_record_pad(const tsr_tensor *t, const int64_t *pad, int npad, tsr_tensor *out);
/* sort's values: out[i] = t[indices[i]] along dim. */
tsr_status tsr__grad_record_sort(const tsr_tensor *t, int dim, const tsr_tensor *indices,
                                 tsr_tensor *values);

#endif
