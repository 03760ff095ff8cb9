/* tessera: Sets: unique, unique_consecutive.
 * Included by tessera/sorting.h (and so by tessera/tessera.h); the conventions stated there apply. */
#ifndef TESSERA_UNIQUE_H
#define TESSERA_UNIQUE_H

#include "tessera/tessera.h"

#ifdef __cplusplus
extern "C" {
#endif

/* torch.unique(t, sorted, return_inverse, return_counts, dim): the distinct
 * elements in ascending order (dim NULL: of the flattened t, as a 1-d tensor)
 * or the distinct slices along *dim in lexicographic order. inverse (NULL if
 * not wanted) receives, for each element or slice of t, the position of its
 * value in the result (t's shape, or [size(dim)]); counts (NULL if not
 * wanted) how often each value occurs. The result is sorted whatever
 * `sorted` says (PyTorch leaves the order open when it is false). NaNs are
 * all distinct from each other and sort last. */
TSR_API tsr_status tsr_unique(const tsr_tensor *t, bool sorted, const int64_t *dim,
                              tsr_tensor **values, tsr_tensor **inverse, tsr_tensor **counts);
/* torch.unique_consecutive(t, return_inverse, return_counts, dim): the first
 * element (or slice) of every run of equal ones, in order. */
TSR_API tsr_status tsr_unique_consecutive(const tsr_tensor *t, const int64_t *dim,
                                          tsr_tensor **values, tsr_tensor **inverse,
                                          tsr_tensor **counts);

#ifdef __cplusplus
}
#endif

#endif /* TESSERA_UNIQUE_H */
