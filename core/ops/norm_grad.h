/* The gradient of layer_norm and rms_norm (internal). */
#ifndef TSR_CORE_OPS_NORM_GRAD_H
#define TSR_CORE_OPS_NORM_GRAD_H

#include "tensor/tensor.h"

/* layer_norm (mean given) or rms_norm (mean NULL, bias NULL) over the last
 * ndim dims, from the kernel's statistics. Records one node (nothing unless
 * an input requires grad). */
tsr_status tsr__grad_record_norm(const tsr_tensor *input, int ndim, const tsr_tensor *weight,
                                 const tsr_tensor *bias, const tsr_tensor *mean,
                                 const tsr_tensor *rstd, tsr_tensor *y);

#endif
