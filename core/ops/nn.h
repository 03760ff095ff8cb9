/* Helpers the neural-network composites share (internal): public ops as
 * steps of a tsr__gx chain, parameter checks and releasing arrays. */
#ifndef TSR_CORE_NN_H
#define TSR_CORE_NN_H

#include "autograd/graph.h"
#include "tensor/tensor.h"
#include "ops/grad_expr.h"

/* PyTorch's "expected scalar type Float but found Double" for a parameter. */
tsr_status tsr__nn_same_dtype(const char *name, const char *arg, const tsr_tensor *param,
                              tsr_dtype expected);

/* Releases the `count` tensors of an array (NULL entries are fine). */
void tsr__release_all(tsr_tensor **tensors, int count);

/* Public ops as steps of a tsr__gx chain (grad_expr.h): each returns NULL
 * once a step failed and keeps its result among x's temporaries. */
tsr_tensor *tsr__nn_sum(tsr__gx *x, const tsr_tensor *t, const int64_t *dims, int ndims,
                        bool keepdim);
tsr_tensor *tsr__nn_mean(tsr__gx *x, const tsr_tensor *t); /* over everything */
tsr_tensor *tsr__nn_amax(tsr__gx *x, const tsr_tensor *t, int64_t dim, bool keepdim);
tsr_tensor *tsr__nn_matmul(tsr__gx *x, const tsr_tensor *a, const tsr_tensor *b);
tsr_tensor *tsr__nn_reshape(tsr__gx *x, const tsr_tensor *t, int ndim, const int64_t *shape);
tsr_tensor *tsr__nn_transpose(tsr__gx *x, const tsr_tensor *t, int64_t dim0, int64_t dim1);
tsr_tensor *tsr__nn_unsqueeze(tsr__gx *x, const tsr_tensor *t, int64_t dim);
tsr_tensor *tsr__nn_narrow(tsr__gx *x, const tsr_tensor *t, int64_t dim, int64_t start,
                           int64_t length);
tsr_tensor *tsr__nn_to(tsr__gx *x, const tsr_tensor *t, tsr_dtype dtype);
tsr_tensor *tsr__nn_clamp_min(tsr__gx *x, const tsr_tensor *t, double min);

#endif
