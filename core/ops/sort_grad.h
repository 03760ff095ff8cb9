/* The gradient of sort (internal).
 * The recorder does nothing unless grad mode is on and an input requires
 * grad; callers record after the result exists. */
#ifndef TSR_CORE_OPS_SORT_GRAD_H
#define TSR_CORE_OPS_SORT_GRAD_H

#include "tensor/tensor.h"

/* sort's values: out[i] = t[indices[i]] along dim. */
tsr_status tsr__grad_record_sort(const tsr_tensor *t, int dim, const tsr_tensor *indices,
                                 tsr_tensor *values);

#endif
