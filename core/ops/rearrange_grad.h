/* Gradients of tril, triu and pad (internal).
 * Each recorder does nothing unless grad mode is on and an input requires
 * grad; callers record after the result exists. */
#ifndef TSR_CORE_OPS_REARRANGE_GRAD_H
#define TSR_CORE_OPS_REARRANGE_GRAD_H

#include "tensor/tensor.h"

/* tril (op TSR_OP_TRIL) or triu. */
tsr_status tsr__grad_record_triangle(tsr_op op, const tsr_tensor *t, int64_t diagonal,
                                     tsr_tensor *out);
/* F.pad with mode constant. */
tsr_status tsr__grad_record_pad(const tsr_tensor *t, const int64_t *pad, int npad, tsr_tensor *out);

#endif
