/* What the resample family's core files share (internal). */
#ifndef TSR_CORE_OPS_RESAMPLE_H
#define TSR_CORE_OPS_RESAMPLE_H

#include "tensor/tensor.h"

/* upsample (backward false) or its adjoint upsample_backward (true) of x
 * [N, C, spatial...] to spatial sizes `to`, with the kernel attributes `at`
 * (scales always of the forward direction). Records its gradient, the
 * other direction, so every order of derivative exists. */
tsr_status tsr__resample_apply(const tsr_tensor *x, const tsr_resample_attrs *at, bool backward,
                               const int64_t *to, tsr_tensor **out);

/* PyTorch's name of a dtype in kernel errors ("Float", "BFloat16"). */
const char *tsr__resample_type_name(tsr_dtype dtype);

#endif
