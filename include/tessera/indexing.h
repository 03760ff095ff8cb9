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

#include "tessera/join.h"
#include "tessera/mask.h"
#include "tessera/index.h"
#include "tessera/scatter.h"
#include "tessera/rearrange.h"

#endif /* TESSERA_INDEXING_H */
