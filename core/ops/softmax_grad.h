/* The gradient of softmax and log_softmax (internal). */
#ifndef TSR_CORE_OPS_SOFTMAX_GRAD_H
#define TSR_CORE_OPS_SOFTMAX_GRAD_H

#include "tensor/tensor.h"

/* Records one node (nothing unless t requires grad); y is the result. */
tsr_status tsr__grad_record_softmax(tsr_op op, const tsr_tensor *t, int dim, tsr_tensor *y);

#endif
