/* What scaled_dot_product_attention's forward and backward share
 * (internal): its prepared operands and the scores of a block of keys. */
#ifndef TSR_CORE_OPS_ATTENTION_H
#define TSR_CORE_OPS_ATTENTION_H

#include "tensor/tensor.h"

enum { TSR__KEY_BLOCK = 64 }; /* keys per block of the online softmax */

/* scaled_dot_product_attention's operands, prepared. */
typedef struct tsr__attention {
    const tsr_tensor *q, *k, *v; /* in the computation dtype */
    const tsr_tensor *mask;      /* expanded to [..., L, S], bool or computation dtype; NULL */
    bool mask_is_bool;
    bool causal;
    double scale;
    double dropout_p;
    tsr_generator *gen;
    int64_t queries, keys;
} tsr__attention;

/* The scores of keys start..start+n: q k^T * scale, masked, [..., L, n]. */
tsr_status tsr__attention_scores(const tsr__attention *a, int64_t start, int64_t n,
                                 tsr_tensor **out);

#endif
