/* tessera: Losses: cross_entropy, nll_loss, mse_loss, l1_loss, smooth_l1_loss,
 * binary_cross_entropy (with logits).
 * Included by tessera/nn.h (and so by tessera/tessera.h); the conventions stated there apply. */
#ifndef TESSERA_LOSS_H
#define TESSERA_LOSS_H

#include "tessera/tessera.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A loss's reduction: reduction='none', 'mean' (PyTorch's default), 'sum'. */
enum { TSR_LOSS_NONE = 0, TSR_LOSS_MEAN = 1, TSR_LOSS_SUM = 2 };

/* PyTorch's default ignore_index of cross_entropy and nll_loss. */
#define TSR_IGNORE_INDEX_DEFAULT (-100)

/* F.cross_entropy(input, target, weight, ignore_index, reduction,
 * label_smoothing). input is [C], [N, C] or [N, C, d1, ...] of logits. target
 * is either class indices (int64, of input's shape without the class dim;
 * each in [0, C) or equal to ignore_index) or class probabilities (floating,
 * input's shape; ignore_index must then be negative). weight (NULL for
 * none) is [C] of input's dtype. label_smoothing is in [0, 1]. 'mean' over
 * class indices divides by the summed weights of the targets not ignored,
 * as PyTorch (NaN when every target is ignored). */
TSR_API tsr_status tsr_cross_entropy(const tsr_tensor *input, const tsr_tensor *target,
                                     const tsr_tensor *weight, int64_t ignore_index, int reduction,
                                     double label_smoothing, tsr_tensor **out);
/* F.nll_loss(input, target, weight, ignore_index, reduction): -input[n,
 * target[n]] * weight[target[n]], for log-probabilities input [C], [N, C] or
 * [N, C, d1, ...] and int64 (or uint8) class indices target. */
TSR_API tsr_status tsr_nll_loss(const tsr_tensor *input, const tsr_tensor *target,
                                const tsr_tensor *weight, int64_t ignore_index, int reduction,
                                tsr_tensor **out);
/* F.mse_loss: (input - target)^2, operands broadcast and promoted. */
TSR_API tsr_status tsr_mse_loss(const tsr_tensor *input, const tsr_tensor *target, int reduction,
                                tsr_tensor **out);
/* F.l1_loss: |input - target| (real for complex operands). */
TSR_API tsr_status tsr_l1_loss(const tsr_tensor *input, const tsr_tensor *target, int reduction,
                               tsr_tensor **out);
/* F.smooth_l1_loss: 0.5 d^2 / beta where |d| < beta, else |d| - 0.5 beta;
 * beta >= 0, and beta 0 is l1_loss. */
TSR_API tsr_status tsr_smooth_l1_loss(const tsr_tensor *input, const tsr_tensor *target,
                                      int reduction, double beta, tsr_tensor **out);
/* F.binary_cross_entropy: -w (t log(x) + (1 - t) log(1 - x)), each log
 * clamped at -100 as PyTorch. input (probabilities in [0, 1]) and target have
 * one shape and dtype; weight (NULL for none) broadcasts to it. */
TSR_API tsr_status tsr_binary_cross_entropy(const tsr_tensor *input, const tsr_tensor *target,
                                            const tsr_tensor *weight, int reduction,
                                            tsr_tensor **out);
/* F.binary_cross_entropy_with_logits: the same loss of sigmoid(input),
 * computed stably from the logits; pos_weight (NULL for none) multiplies the
 * positive term and broadcasts along the last dim (one per class). */
TSR_API tsr_status tsr_binary_cross_entropy_with_logits(const tsr_tensor *input,
                                                        const tsr_tensor *target,
                                                        const tsr_tensor *weight,
                                                        const tsr_tensor *pos_weight, int reduction,
                                                        tsr_tensor **out);

#ifdef __cplusplus
}
#endif

#endif /* TESSERA_LOSS_H */
