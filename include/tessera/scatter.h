/* tessera: Scattering: scatter, scatter_add, scatter_reduce, index_add, index_copy,
 * index_fill, index_put.
 * Included by tessera/indexing.h (and so by tessera/tessera.h); the conventions stated there apply. */
#ifndef TESSERA_SCATTER_H
#define TESSERA_SCATTER_H

#include "tessera/tessera.h"

#ifdef __cplusplus
extern "C" {
#endif

/* torch.scatter(t, dim, index, src, reduce): a copy of t where
 * out[index[i][j]][j] = src[i][j] for dim 0 and so on. src has t's dtype and
 * index.size(d) <= src.size(d) for every d. reduce is TSR_REDUCE_NONE
 * (repeated indices: the last write wins), TSR_REDUCE_SUM ('add') or
 * TSR_REDUCE_PROD ('multiply'). */
TSR_API tsr_status tsr_scatter(const tsr_tensor *t, int64_t dim, const tsr_tensor *index,
                               const tsr_tensor *src, int reduce, tsr_tensor **out);
/* torch.scatter(t, dim, index, value, reduce) with a scalar that must fit t's dtype. */
TSR_API tsr_status tsr_scatter_value(const tsr_tensor *t, int64_t dim, const tsr_tensor *index,
                                     tsr_scalar value, int reduce, tsr_tensor **out);
/* torch.scatter_add(t, dim, index, src): repeated indices add up, in index order. */
TSR_API tsr_status tsr_scatter_add(const tsr_tensor *t, int64_t dim, const tsr_tensor *index,
                                   const tsr_tensor *src, tsr_tensor **out);
/* torch.scatter_reduce(t, dim, index, src, reduce, include_self): reduce is
 * TSR_REDUCE_SUM, _PROD, _MEAN (integers: floor division), _AMAX or _AMIN;
 * without include_self the elements of t that receive values do not take part. */
TSR_API tsr_status tsr_scatter_reduce(const tsr_tensor *t, int64_t dim, const tsr_tensor *index,
                                      const tsr_tensor *src, int reduce, bool include_self,
                                      tsr_tensor **out);
/* torch.index_add(t, dim, index, source, alpha): a copy of t with alpha *
 * source[i] added to slice index[i] along dim. index is 1-d int64 or int32;
 * source has t's dtype and shape but index.numel() along dim. alpha is
 * converted to t's dtype (a float alpha truncates for integer t, as in PyTorch). */
TSR_API tsr_status tsr_index_add(const tsr_tensor *t, int64_t dim, const tsr_tensor *index,
                                 const tsr_tensor *source, tsr_scalar alpha, tsr_tensor **out);
/* torch.index_copy(t, dim, index, source): slices of source copied to the
 * positions index (int64) names; with repeated indices the last one wins. */
TSR_API tsr_status tsr_index_copy(const tsr_tensor *t, int64_t dim, const tsr_tensor *index,
                                  const tsr_tensor *source, tsr_tensor **out);

/* The in-place forms write self through its view and bump its version. self
 * must not have internal overlap, and index and src may not share memory
 * with self. */
TSR_API tsr_status tsr_scatter_(tsr_tensor *self, int64_t dim, const tsr_tensor *index,
                                const tsr_tensor *src, int reduce);
TSR_API tsr_status tsr_scatter_value_(tsr_tensor *self, int64_t dim, const tsr_tensor *index,
                                      tsr_scalar value, int reduce);
TSR_API tsr_status tsr_scatter_add_(tsr_tensor *self, int64_t dim, const tsr_tensor *index,
                                    const tsr_tensor *src);
TSR_API tsr_status tsr_scatter_reduce_(tsr_tensor *self, int64_t dim, const tsr_tensor *index,
                                       const tsr_tensor *src, int reduce, bool include_self);
TSR_API tsr_status tsr_index_add_(tsr_tensor *self, int64_t dim, const tsr_tensor *index,
                                  const tsr_tensor *source, tsr_scalar alpha);
TSR_API tsr_status tsr_index_copy_(tsr_tensor *self, int64_t dim, const tsr_tensor *index,
                                   const tsr_tensor *source);

#ifdef __cplusplus
}
#endif

#endif /* TESSERA_SCATTER_H */
