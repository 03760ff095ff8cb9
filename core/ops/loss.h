/* What the losses share (internal): a class loss's description and
 * cross_entropy's fused kernel. */
#ifndef TSR_CORE_OPS_LOSS_H
#define TSR_CORE_OPS_LOSS_H

#include "tensor/tensor.h"

/* What a cross_entropy or nll_loss call computed, for its gradient. */
typedef struct tsr__class_loss {
    int reduction; /* TSR_LOSS_* */
    int64_t ignore_index;
    double smoothing;
    int class_dim;
    bool probabilities; /* target holds class probabilities */
    bool softmax;       /* cross_entropy: log_probs = log_softmax(input) */
    bool has_weight;
} tsr__class_loss;

/* cross_entropy with class indices (target int64, checked) through the
 * backend's fused kernel (loss_cross_entropy.c): available only where the
 * backend has one for input's dtype and TESSERA_FUSED_CROSS_ENTROPY is not
 * 0. *log_probs (when log_probs is not NULL) receives log_softmax for the
 * gradient. Records nothing. */
bool tsr__cross_entropy_fused_available(const tsr_tensor *input);
tsr_status tsr__cross_entropy_fused(const tsr__class_loss *c, const tsr_tensor *input,
                                    const tsr_tensor *target, const tsr_tensor *weight,
                                    tsr_tensor **loss, tsr_tensor **log_probs);

#endif
