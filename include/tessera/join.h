/* tessera: Joining and splitting: cat, stack, hstack, vstack, split, chunk, unbind.
 * Included by tessera/indexing.h (and so by tessera/tessera.h); the conventions stated there apply. */
#ifndef TESSERA_JOIN_H
#define TESSERA_JOIN_H

#include "tessera/tessera.h"

#ifdef __cplusplus
extern "C" {
#endif

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

#ifdef __cplusplus
}
#endif

#endif /* TESSERA_JOIN_H */
