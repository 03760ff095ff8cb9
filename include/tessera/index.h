/* tessera: Selecting by index: index_select, gather, take, take_along_dim, embedding
 * (and embedding_ex), one_hot.
 * Included by tessera/indexing.h (and so by tessera/tessera.h); the conventions stated there apply. */
#ifndef TESSERA_INDEX_H
#define TESSERA_INDEX_H

#include "tessera/tessera.h"

#ifdef __cplusplus
extern "C" {
#endif

/* torch.index_select(t, dim, index): index is a 1-d (or 0-d) int64 or int32
 * tensor; the result has t's shape with size(dim) replaced by index's numel. */
TSR_API tsr_status tsr_index_select(const tsr_tensor *t, int64_t dim, const tsr_tensor *index,
                                    tsr_tensor **out);
/* torch.gather(t, dim, index): out[i][j] = t[index[i][j]][j] for dim 0 and
 * so on. index has t's rank and size(d) <= t.size(d) for d != dim; the result
 * has index's shape. */
TSR_API tsr_status tsr_gather(const tsr_tensor *t, int64_t dim, const tsr_tensor *index,
                              tsr_tensor **out);
/* torch.take(t, index): t read as 1-d at index (negative values count from the
 * end); the result has index's shape. */
TSR_API tsr_status tsr_take(const tsr_tensor *t, const tsr_tensor *index, tsr_tensor **out);
/* torch.take_along_dim(t, indices, dim): gather after broadcasting t and
 * indices against each other outside dim. dim NULL means None: both are
 * flattened first. */
TSR_API tsr_status tsr_take_along_dim(const tsr_tensor *t, const tsr_tensor *indices,
                                      const int64_t *dim, tsr_tensor **out);
/* F.embedding(indices, weight, padding_idx): rows of the 2-d weight picked by
 * int64 or int32 indices; the result has shape indices.shape + [weight.size(1)].
 * padding_idx (NULL for none) only matters to gradients; it must lie in
 * [-weight.size(0), weight.size(0)). */
TSR_API tsr_status tsr_embedding(const tsr_tensor *indices, const tsr_tensor *weight,
                                 const int64_t *padding_idx, tsr_tensor **out);
/* F.embedding(indices, weight, padding_idx, max_norm, norm_type,
 * scale_grad_by_freq, sparse) in full. max_norm (NULL for None): before the
 * lookup, every row of weight that indices reference and whose norm_type
 * norm exceeds *max_norm is scaled IN PLACE by max_norm / (norm + 1e-7), as
 * PyTorch's embedding_renorm_ (each row once however often it is
 * referenced; not recorded by autograd; weight's version goes up). It needs
 * a floating or complex weight and indices within [0, weight.size(0)),
 * checked before weight is touched. scale_grad_by_freq divides each row's
 * gradient by the number of times its index occurs in indices. sparse must
 * be false: tessera has no sparse gradients (TSR_ERR_UNIMPLEMENTED). With
 * max_norm NULL and scale_grad_by_freq false this is tsr_embedding. */
TSR_API tsr_status tsr_embedding_ex(const tsr_tensor *indices, tsr_tensor *weight,
                                    const int64_t *padding_idx, const double *max_norm,
                                    double norm_type, bool scale_grad_by_freq, bool sparse,
                                    tsr_tensor **out);
/* F.one_hot(t, num_classes): int64 of shape t.shape + [num_classes] from an
 * int64 t; num_classes -1 means max(t) + 1. */
TSR_API tsr_status tsr_one_hot(const tsr_tensor *t, int64_t num_classes, tsr_tensor **out);

#ifdef __cplusplus
}
#endif

#endif /* TESSERA_INDEX_H */
