/* The gradient of masked_fill (internal).
 * The recorder does nothing unless grad mode is on and an input requires
 * grad; callers record after the result exists. */
#ifndef TSR_CORE_OPS_MASK_GRAD_H
#define TSR_CORE_OPS_MASK_GRAD_H

#include "tensor/tensor.h"

/* masked_fill of t with a bool mask and a 0-d value tensor (NULL for a scalar). */
tsr_status tsr__grad_record_masked_fill(const tsr_tensor *t, const tsr_tensor *mask,
                                        const tsr_tensor *value, tsr_tensor *out);

#endif
