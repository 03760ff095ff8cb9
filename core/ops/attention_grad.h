/* The gradient of scaled_dot_product_attention (internal). */
#ifndef TSR_CORE_OPS_ATTENTION_GRAD_H
#define TSR_CORE_OPS_ATTENTION_GRAD_H

#include "tensor/tensor.h"
#include "ops/attention.h"

/* Attention's node (nothing unless an input requires grad): query, key and
 * value as the caller gave them; a's tensors as prepared; the result before
 * its final rounding (y) and the rows' log-sum-exp (lse, NULL without keys). */
tsr_status tsr__grad_record_attention(const tsr__attention *a, const tsr_tensor *query,
                                      const tsr_tensor *key, const tsr_tensor *value,
                                      const tsr_tensor *y, const tsr_tensor *lse, tsr_tensor *out);

#endif
