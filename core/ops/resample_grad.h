/* Gradients of the resample family (internal). */
#ifndef TSR_CORE_OPS_RESAMPLE_GRAD_H
#define TSR_CORE_OPS_RESAMPLE_GRAD_H

#include "tensor/tensor.h"

/* y = upsample(x) (backward false) or upsample_backward(x) (true): records
 * the adjoint direction as y's gradient. */
tsr_status tsr__grad_record_resample(const tsr_tensor *x, const tsr_resample_attrs *at,
                                     bool backward, tsr_tensor *y);
/* y = grid_sampler(x, grid): records both gradients, from the
 * grid_sampler_backward kernel (not differentiable again). */
tsr_status tsr__grad_record_grid_sampler(const tsr_tensor *x, const tsr_tensor *grid,
                                         const tsr_resample_attrs *at, tsr_tensor *y);

#endif
