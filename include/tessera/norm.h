/* tessera: Normalisation: layer_norm, rms_norm, batch_norm, group_norm.
 * Included by tessera/nn.h (and so by tessera/tessera.h); the conventions stated there apply. */
#ifndef TESSERA_NORM_H
#define TESSERA_NORM_H

#include "tessera/tessera.h"

#ifdef __cplusplus
extern "C" {
#endif

/* F.layer_norm(input, normalized_shape, weight, bias, eps): normalises over
 * the last normalized_ndim (>= 1) dims, which must equal normalized_shape;
 * weight and bias (each NULL for none) have that shape and input's dtype. */
TSR_API tsr_status tsr_layer_norm(const tsr_tensor *input, int normalized_ndim,
                                  const int64_t *normalized_shape, const tsr_tensor *weight,
                                  const tsr_tensor *bias, double eps, tsr_tensor **out);
/* rms_norm (as F.rms_norm of later PyTorch): x / sqrt(mean(x^2) + eps) over
 * the last normalized_ndim dims, times weight (NULL for none; the result
 * takes the promoted dtype of input and weight). eps NULL means
 * torch.finfo(input's dtype).eps. Kernels for float16 too. */
TSR_API tsr_status tsr_rms_norm(const tsr_tensor *input, int normalized_ndim,
                                const int64_t *normalized_shape, const tsr_tensor *weight,
                                const double *eps, tsr_tensor **out);
/* F.batch_norm(input, running_mean, running_var, weight, bias, training,
 * momentum, eps) over input [N, C, ...] per channel C. Not training: uses the
 * running statistics, which are then required. Training: uses the batch's
 * mean and biased variance, and updates running_mean and running_var (when
 * given) in place: r = (1 - momentum) r + momentum s, with the unbiased
 * variance for running_var. Parameters are [C] of input's dtype, NULL for
 * none. Not thread-safe with other uses of the running statistics. */
TSR_API tsr_status tsr_batch_norm(const tsr_tensor *input, tsr_tensor *running_mean,
                                  tsr_tensor *running_var, const tsr_tensor *weight,
                                  const tsr_tensor *bias, bool training, double momentum,
                                  double eps, tsr_tensor **out);
/* F.group_norm(input, num_groups, weight, bias, eps) over input [N, C, ...]:
 * C splits into num_groups groups, each normalised over its channels and the
 * spatial dims; weight and bias are [C] (NULL for none). */
TSR_API tsr_status tsr_group_norm(const tsr_tensor *input, int64_t num_groups,
                                  const tsr_tensor *weight, const tsr_tensor *bias, double eps,
                                  tsr_tensor **out);

#ifdef __cplusplus
}
#endif

#endif /* TESSERA_NORM_H */
