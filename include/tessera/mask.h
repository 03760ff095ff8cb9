/* tessera: Masks: masked_fill, masked_select, masked_scatter, nonzero.
 * Included by tessera/indexing.h (and so by tessera/tessera.h); the conventions stated there apply. */
#ifndef TESSERA_MASK_H
#define TESSERA_MASK_H

#include "tessera/tessera.h"

#ifdef __cplusplus
extern "C" {
#endif

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
/* torch.nonzero(t, as_tuple=True): one int64 1-d tensor of n coordinates per
 * dim (one for a 0-d t), count then fill as the splits of tessera/join.h. */
TSR_API tsr_status tsr_nonzero_tuple(const tsr_tensor *t, tsr_tensor **outs, size_t capacity,
                                     size_t *count);

#ifdef __cplusplus
}
#endif

#endif /* TESSERA_MASK_H */
