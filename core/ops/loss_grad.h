/* Gradients of the losses (internal). Each recorder records one node,
 * nothing unless an input requires grad. */
#ifndef TSR_CORE_OPS_LOSS_GRAD_H
#define TSR_CORE_OPS_LOSS_GRAD_H

#include "tensor/tensor.h"
#include "ops/loss.h"

/* log_probs: input itself for nll_loss, its log_softmax for cross_entropy. */
tsr_status tsr__grad_record_class_loss(const tsr__class_loss *loss, const tsr_tensor *input,
                                       const tsr_tensor *target, const tsr_tensor *weight,
                                       const tsr_tensor *log_probs, tsr_tensor *out);
tsr_status tsr__grad_record_bce(const tsr_tensor *input, const tsr_tensor *target,
                                const tsr_tensor *weight, int reduction, tsr_tensor *out);
/* norm: 1 / numel of the broadcast operands for 'mean', else 1. */
tsr_status tsr__grad_record_smooth_l1(const tsr_tensor *input, const tsr_tensor *target,
                                      double beta, double norm, tsr_tensor *out);

#endif
