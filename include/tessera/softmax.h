/* tessera: softmax and log_softmax.
 * Included by tessera/nn.h (and so by tessera/tessera.h); the conventions stated there apply. */
#ifndef TESSERA_SOFTMAX_H
#define TESSERA_SOFTMAX_H

#include "tessera/tessera.h"

#ifdef __cplusplus
extern "C" {
#endif

/* F.softmax(t, dim, dtype): exp(x) / sum(exp(x)) along dim, shifted by the
 * row's maximum so large inputs do not overflow. dtype TSR_DTYPE_INFER keeps
 * t's dtype; another dtype converts t first (so integer tensors need one).
 * Kernels exist for bfloat16, float32 and float64. A row holding +inf or NaN,
 * or only -inf, gives NaN. */
TSR_API tsr_status tsr_softmax(const tsr_tensor *t, int64_t dim, tsr_dtype dtype, tsr_tensor **out);
/* F.log_softmax: (x - max) - log(sum(exp(x - max))), exact where
 * log(softmax(x)) would underflow to -inf. */
TSR_API tsr_status tsr_log_softmax(const tsr_tensor *t, int64_t dim, tsr_dtype dtype,
                                   tsr_tensor **out);

#ifdef __cplusplus
}
#endif

#endif /* TESSERA_SOFTMAX_H */
