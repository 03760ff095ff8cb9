/* Gradients of index_select, gather and embedding (internal).
 * Each recorder does nothing unless grad mode is on and an input requires
 * grad; callers record after the result exists. */
#ifndef TSR_CORE_OPS_INDEX_GRAD_H
#define TSR_CORE_OPS_INDEX_GRAD_H

#include "tensor/tensor.h"

/* index_select with a 1-d int64 index. */
tsr_status tsr__grad_record_index_select(const tsr_tensor *t, int dim, const tsr_tensor *index,
                                         tsr_tensor *out);
/* gather with an int64 index of t's rank. */
tsr_status tsr__grad_record_gather(const tsr_tensor *t, int dim, const tsr_tensor *index,
                                   tsr_tensor *out);
/* embedding: rows of weight at flat (1-d) indices; the row padding_idx
 * (NULL: none) gets no gradient; with scale_grad_by_freq each row's gradient
 * is divided by the number of times its index occurs in flat_indices. */
tsr_status tsr__grad_record_embedding(const tsr_tensor *weight, const tsr_tensor *flat_indices,
                                      const int64_t *padding_idx, bool scale_grad_by_freq,
                                      tsr_tensor *out);

#endif
