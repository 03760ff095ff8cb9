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

#include "tessera/sort.h"
#include "tessera/unique.h"

#endif /* TESSERA_SORTING_H */
