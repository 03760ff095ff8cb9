/* tessera: Indexing and joining: cat, stack, split, gather, scatter, index_select, pad, flip, ...
 * Included by tessera/tessera.h; the conventions stated there apply.
 *
 * Common rules, as in PyTorch 1.13:
 *  - Dims may be negative (counted from the end). A 0-d tensor accepts dims 0
 *    and -1 where PyTorch treats it as having one element along dim.
 *  - Index tensors are int64 unless a function says it also takes int32.
 *    An index outside its dim fails with TSR_ERR_INDEX and a message naming
 *    the op and the offending value; no output is made and nothing is
 *    written (the in-place forms check every index before writing).
 *  - Results are new tensors unless a function says it returns views.
 *  - Sums of repeated indices (scatter_add, index_add, scatter_reduce) are
 *    taken in index order, so they give the same bits on every backend. */
#ifndef TESSERA_INDEXING_H
#define TESSERA_INDEXING_H

#include "tessera/tessera.h"

#ifdef __cplusplus
extern "C" {
#endif

/* F.pad modes. */
enum { TSR_PAD_CONSTANT = 0, TSR_PAD_REFLECT = 1, TSR_PAD_REPLICATE = 2 };

/* ======================================================================== */
/* Joining and splitting                                                     */
/* ======================================================================== */

/* torch.cat(tensors, dim): the result dtype promotes over every tensor. 1-d
 * tensors with no elements are skipped (PyTorch's legacy rule) but still take
 * part in promotion. count must be at least 1. */
TSR_API tsr_status tsr_cat(const tsr_tensor *const *tensors, size_t count, int64_t dim,
                           tsr_tensor **out);
/* torch.stack(tensors, dim): tensors of equal shape joined along a new dim
 * (dim in [-(ndim + 1), ndim]). */
TSR_API tsr_status tsr_stack(const tsr_tensor *const *tensors, size_t count, int64_t dim,
                             tsr_tensor **out);
/* torch.hstack: cat along dim 1 (dim 0 for 1-d tensors) of atleast_1d views. */
TSR_API tsr_status tsr_hstack(const tsr_tensor *const *tensors, size_t count, tsr_tensor **out);
/* torch.vstack: cat along dim 0 of atleast_2d views. */
TSR_API tsr_status tsr_vstack(const tsr_tensor *const *tensors, size_t count, tsr_tensor **out);

/* Splits return views of t, one per piece, count then fill: *count always
 * receives the number of pieces; with outs NULL nothing else happens, and
 * otherwise outs (capacity entries) receives new references, or the call
 * fails with TSR_ERR_INVALID_ARGUMENT when capacity is too small. */

/* torch.split(t, split_size, dim): pieces of split_size (the last may be
 * smaller). split_size 0 is only allowed for an empty dim (one piece). */
TSR_API tsr_status tsr_split(const tsr_tensor *t, int64_t split_size, int64_t dim,
                             tsr_tensor **outs, size_t capacity, size_t *count);
/* torch.split(t, [s0, s1, ...], dim): nsections pieces of the given sizes,
 * which must sum to the size of dim; outs has nsections entries. */
TSR_API tsr_status tsr_split_sections(const tsr_tensor *t, const int64_t *sections,
                                      size_t nsections, int64_t dim, tsr_tensor **outs);
/* torch.chunk(t, chunks, dim): at most `chunks` pieces of ceil(size / chunks). */
TSR_API tsr_status tsr_chunk(const tsr_tensor *t, int64_t chunks, int64_t dim, tsr_tensor **outs,
                             size_t capacity, size_t *count);
/* torch.unbind(t, dim): the size(dim) slices, each without dim. */
TSR_API tsr_status tsr_unbind(const tsr_tensor *t, int64_t dim, tsr_tensor **outs, size_t capacity,
                              size_t *count);

/* ======================================================================== */
/* Masks                                                                     */
/* ======================================================================== */

/* torch.masked_fill(t, mask, value): t where mask is false, value where it
 * is true, over the broadcast shape of t and mask, in t's dtype. mask is bool
 * (or uint8 holding only 0 and 1, PyTorch's deprecated form; wider integer
 * masks count as true where nonzero, as PyTorch 1.13 reads them for values
 * that fit a byte); value is a scalar or a 0-d tensor and must fit t's dtype. */
TSR_API tsr_status tsr_masked_fill(const tsr_tensor *t, const tsr_tensor *mask, tsr_operand value,
                                   tsr_tensor **out);
/* self.masked_fill_(mask, value): mask must broadcast to self's shape. */
TSR_API tsr_status tsr_masked_fill_(tsr_tensor *self, const tsr_tensor *mask, tsr_operand value);
/* torch.masked_select(t, mask): the 1-d tensor of the elements of t (broadcast
 * with mask) where mask is true, in C order. mask is bool or 0/1 uint8. */
TSR_API tsr_status tsr_masked_select(const tsr_tensor *t, const tsr_tensor *mask, tsr_tensor **out);
/* torch.nonzero(t): int64 [n, ndim], the coordinates of the n nonzero
 * elements in C order (NaN is nonzero, -0.0 is zero). */
TSR_API tsr_status tsr_nonzero(const tsr_tensor *t, tsr_tensor **out);

/* ======================================================================== */
/* Selecting by index                                                        */
/* ======================================================================== */

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
/* F.one_hot(t, num_classes): int64 of shape t.shape + [num_classes] from an
 * int64 t; num_classes -1 means max(t) + 1. */
TSR_API tsr_status tsr_one_hot(const tsr_tensor *t, int64_t num_classes, tsr_tensor **out);

/* ======================================================================== */
/* Scattering                                                                */
/* ======================================================================== */

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

/* ======================================================================== */
/* Rearranging copies                                                        */
/* ======================================================================== */

/* torch.flip(t, dims): a copy with the order reversed along each of the
 * ndims (distinct) dims. */
TSR_API tsr_status tsr_flip(const tsr_tensor *t, const int64_t *dims, int ndims, tsr_tensor **out);
/* torch.roll(t, shifts, dims): elements shifted cyclically by shifts[i] along
 * dims[i]; with ndims 0 (dims=None) t is rolled as if flattened by the one
 * shift given. */
TSR_API tsr_status tsr_roll(const tsr_tensor *t, const int64_t *shifts, int nshifts,
                            const int64_t *dims, int ndims, tsr_tensor **out);
/* Tensor.repeat(repeats): t tiled repeats[i] times along dim i; nrepeats must
 * be at least t's rank (t gains leading dims). */
TSR_API tsr_status tsr_repeat(const tsr_tensor *t, const int64_t *repeats, int nrepeats,
                              tsr_tensor **out);
/* torch.tile(t, dims): repeat, with dims padded with leading ones to t's rank. */
TSR_API tsr_status tsr_tile(const tsr_tensor *t, const int64_t *dims, int ndims, tsr_tensor **out);
/* torch.repeat_interleave(t, repeats, dim): each element (dim NULL: of the
 * flattened t) or slice along dim repeated `repeats` times in place. */
TSR_API tsr_status tsr_repeat_interleave(const tsr_tensor *t, int64_t repeats, const int64_t *dim,
                                         tsr_tensor **out);
/* The same with per-slice counts: repeats is an int64 or int32 tensor of one
 * element (applied to every slice) or of size(dim) elements. */
TSR_API tsr_status tsr_repeat_interleave_tensor(const tsr_tensor *t, const tsr_tensor *repeats,
                                                const int64_t *dim, tsr_tensor **out);
/* F.pad(t, pad, mode, value): pad holds npad (even) sizes, (left, right) for
 * the last dim first, then the one before; negative sizes crop.
 * TSR_PAD_CONSTANT fills with value (a float, as in PyTorch, that must fit
 * t's dtype). TSR_PAD_REFLECT and TSR_PAD_REPLICATE take floating and complex
 * tensors padded over 1 to 3 dims (npad 2, 4, 6) with one or two leading
 * dims; a reflect pad must be smaller than its dim. */
TSR_API tsr_status tsr_pad(const tsr_tensor *t, const int64_t *pad, int npad, int mode,
                           tsr_scalar value, tsr_tensor **out);
/* torch.tril / torch.triu over the last two dims (t needs at least 2): the
 * elements on and below (above) diagonal `diagonal` are kept, others are 0. */
TSR_API tsr_status tsr_tril(const tsr_tensor *t, int64_t diagonal, tsr_tensor **out);
TSR_API tsr_status tsr_triu(const tsr_tensor *t, int64_t diagonal, tsr_tensor **out);

#ifdef __cplusplus
}
#endif

#endif /* TESSERA_INDEXING_H */
