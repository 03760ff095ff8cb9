/* tessera: Sorting, selection and searching: sort, argsort, topk, kthvalue, median,
 * searchsorted, ...
 * Included by tessera/sorting.h (and so by tessera/tessera.h); the conventions stated there apply. */
#ifndef TESSERA_SORT_H
#define TESSERA_SORT_H

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

#ifdef __cplusplus
}
#endif

#endif /* TESSERA_SORT_H */
