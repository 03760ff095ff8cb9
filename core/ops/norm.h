/* The fused forward pass of layer_norm and rms_norm (internal), returning
 * what their gradient needs. */
#ifndef TSR_CORE_OPS_NORM_H
#define TSR_CORE_OPS_NORM_H

#include "tensor/tensor.h"

/* layer_norm (mean non-NULL) or rms_norm (mean NULL) over the last `ndim`
 * dims with the kernel's outputs: y, and mean and rstd shaped like input with
 * those dims of size 1. weight and bias may be NULL (rms_norm takes no bias)
 * and must have input's dtype. No checks beyond the backend's. */
tsr_status tsr__norm_forward(const char *name, const tsr_tensor *input, int ndim,
                             const tsr_tensor *weight, const tsr_tensor *bias, double eps,
                             tsr_tensor **y, tsr_tensor **mean, tsr_tensor **rstd);

#endif
