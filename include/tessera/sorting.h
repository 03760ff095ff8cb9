/* tessera: Sorting and sets: sort, argsort, topk, kthvalue, median, searchsorted, unique.
 * Included by tessera/tessera.h; the conventions stated there apply.
 *
 * The order is PyTorch's: -inf < ... < +inf < NaN, with -0.0 equal to +0.0
 * and all NaNs equal. Sorting is always stable (equal elements keep their
 * order, also when descending), so indices are the same on every backend.
 * Where PyTorch leaves the order of ties open (topk, kthvalue, median) this
 * picks the element the stable sort puts there. Dims may be negative; a 0-d
 * tensor is treated as having one element along dims 0 and -1. Index
 * results are int64. Complex tensors are not ordered (TSR_ERR_DTYPE), as in
 * PyTorch; topk, kthvalue and median also refuse bool and float16 tensors,
 * and unique float16. */
#ifndef TESSERA_SORTING_H
#define TESSERA_SORTING_H

#include "tessera/tessera.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ======================================================================== */
/* Sorting and selection                                                     */
/* ======================================================================== */

/* torch.sort(t, dim, descending, stable=True): values and their int64
 * positions along dim. NaN sorts last ascending and first descending. */
TSR_API tsr_status tsr_sort(const tsr_tensor *t, int64_t dim, bool descending, tsr_tensor **values,
                            tsr_tensor **indices);
/* torch.argsort(t, dim, descending): the indices of tsr_sort. */
TSR_API tsr_status tsr_argsort(const tsr_tensor *t, int64_t dim, bool descending, tsr_tensor **out);
/* torch.topk(t, k, dim, largest, sorted=True): the k largest (smallest)
 * elements along dim, in sorted order, and their indices. 0 <= k <= size. */
TSR_API tsr_status tsr_topk(const tsr_tensor *t, int64_t k, int64_t dim, bool largest,
                            tsr_tensor **values, tsr_tensor **indices);
/* torch.kthvalue(t, k, dim, keepdim): the k-th smallest element along dim
 * (1 <= k <= size) and its index. */
TSR_API tsr_status tsr_kthvalue(const tsr_tensor *t, int64_t k, int64_t dim, bool keepdim,
                                tsr_tensor **values, tsr_tensor **indices);
/* torch.median(t, dim, keepdim): the lower median along dim (element
 * (n - 1) / 2 of the sorted slice) and its index; a slice holding NaN gives
 * NaN and the index of its first NaN. */
TSR_API tsr_status tsr_median_dim(const tsr_tensor *t, int64_t dim, bool keepdim,
                                  tsr_tensor **values, tsr_tensor **indices);
/* torch.median(t): the lower median of all elements as a 0-d tensor (NaN if
 * any element is NaN or t is empty). */
TSR_API tsr_status tsr_median(const tsr_tensor *t, tsr_tensor **out);

/* ======================================================================== */
/* Searching                                                                 */
/* ======================================================================== */

/* torch.searchsorted(sorted_sequence, values, out_int32, right, side,
 * sorter): for each value, the position in the sorted last dim of
 * sorted_sequence where it would be inserted (before equal elements, or after
 * them with right or side "right"). side is NULL, "left" or "right"; side
 * "left" with right set is an error, as in PyTorch. A 1-d sorted_sequence
 * serves every value; otherwise its leading dims must equal those of values.
 * values may be a scalar (then the result is 0-d). Both are compared in their
 * promoted dtype. sorter (NULL for none) holds the int64 positions that sort
 * an unsorted sequence. The result is int64, or int32 with out_int32. */
TSR_API tsr_status tsr_searchsorted(const tsr_tensor *sorted_sequence, tsr_operand values,
                                    bool out_int32, bool right, const char *side,
                                    const tsr_tensor *sorter, tsr_tensor **out);
/* torch.bucketize(input, boundaries, out_int32, right): searchsorted with a
 * 1-d boundaries tensor, the arguments in the other order. */
TSR_API tsr_status tsr_bucketize(tsr_operand input, const tsr_tensor *boundaries, bool out_int32,
                                 bool right, tsr_tensor **out);

/* ======================================================================== */
/* Sets                                                                      */
/* ======================================================================== */

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

#endif /* TESSERA_SORTING_H */
