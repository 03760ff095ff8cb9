/* softmax's forward pass for the ops built on it (internal). */
#ifndef TSR_CORE_OPS_SOFTMAX_H
#define TSR_CORE_OPS_SOFTMAX_H

#include "tensor/tensor.h"

/* softmax or log_softmax (op) of t along dim after converting to dtype
 * (TSR_DTYPE_INFER keeps t's), without recording autograd. */
tsr_status tsr__softmax_forward(tsr_op op, const tsr_tensor *t, int64_t dim, tsr_dtype dtype,
                                tsr_tensor **out);

#endif
