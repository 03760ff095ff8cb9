/* The gradient of cat (internal).
 * The recorder does nothing unless grad mode is on and an input requires
 * grad; callers record after the result exists. */
#ifndef TSR_CORE_OPS_JOIN_GRAD_H
#define TSR_CORE_OPS_JOIN_GRAD_H

#include "tensor/tensor.h"

/* cat of tensors[0..count) along dim; legacy empty 1-d inputs (skipped by
 * cat) get no gradient. */
tsr_status tsr__grad_record_cat(const tsr_tensor *const *tensors, size_t count, int dim,
                                tsr_tensor *out);

#endif
