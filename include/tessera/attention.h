/* tessera: Attention: scaled_dot_product_attention.
 * Included by tessera/nn.h (and so by tessera/tessera.h); the conventions stated there apply. */
#ifndef TESSERA_ATTENTION_H
#define TESSERA_ATTENTION_H

#include "tessera/tessera.h"

#ifdef __cplusplus
extern "C" {
#endif

/* F.scaled_dot_product_attention(query, key, value, attn_mask, dropout_p,
 * is_causal, scale) of later PyTorch: softmax(q k^T * scale + mask) v for
 * query [..., L, E], key [..., S, E], value [..., S, Ev] of one floating
 * dtype (leading dims broadcast), giving [..., L, Ev]. attn_mask (NULL for
 * none) broadcasts to [..., L, S]: bool (true = may attend) or of query's
 * dtype (added to the scores). is_causal lets query i see keys 0..i (top-left
 * aligned) and excludes attn_mask. scale NULL means 1 / sqrt(E). dropout_p
 * in [0, 1] drops attention weights with `gen` (NULL is fine when 0).
 * Computed with an online softmax over blocks of 64 keys, so no L x S score
 * matrix is ever held; a query that may attend to no key gives NaN, as
 * PyTorch. float16 and bfloat16 accumulate in float32. The gradient is
 * computed block by block too; with 0 < dropout_p < 1 backward is refused,
 * as the dropout mask is not kept. */
TSR_API tsr_status tsr_scaled_dot_product_attention(const tsr_tensor *query, const tsr_tensor *key,
                                                    const tsr_tensor *value,
                                                    const tsr_tensor *attn_mask, double dropout_p,
                                                    bool is_causal, const double *scale,
                                                    tsr_generator *gen, tsr_tensor **out);

#ifdef __cplusplus
}
#endif

#endif /* TESSERA_ATTENTION_H */
