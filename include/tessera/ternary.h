/* tessera: Elementwise ops of three tensors: lerp, addcmul, addcdiv.
 * Included by tessera/tessera.h; the conventions stated there apply. */
#ifndef TESSERA_TERNARY_H
#define TESSERA_TERNARY_H

#include "tessera/tessera.h"

#ifdef __cplusplus
extern "C" {
#endif

/* torch.lerp(start, end, weight) = start + weight * (end - start), weight a
 * tensor or a scalar. end and a weight tensor must have start's dtype; the
 * result has start's dtype and the broadcast shape. */
TSR_API tsr_status tsr_lerp(const tsr_tensor *start, const tsr_tensor *end, tsr_operand weight,
                            tsr_tensor **out);
/* torch.addcmul / torch.addcdiv: self + value * tensor1 * tensor2 and
 * self + value * tensor1 / tensor2 over the promoted dtype of the three
 * tensors, broadcast. addcdiv refuses two integer (or bool) tensors. */
TSR_API tsr_status tsr_addcmul(const tsr_tensor *self, const tsr_tensor *tensor1,
                               const tsr_tensor *tensor2, tsr_scalar value, tsr_tensor **out);
TSR_API tsr_status tsr_addcdiv(const tsr_tensor *self, const tsr_tensor *tensor1,
                               const tsr_tensor *tensor2, tsr_scalar value, tsr_tensor **out);


/* In place, with the checks of tsr_binary_. */
TSR_API tsr_status tsr_lerp_(tsr_tensor *self, const tsr_tensor *end, tsr_operand weight);
TSR_API tsr_status tsr_addcmul_(tsr_tensor *self, const tsr_tensor *tensor1,
                                const tsr_tensor *tensor2, tsr_scalar value);
TSR_API tsr_status tsr_addcdiv_(tsr_tensor *self, const tsr_tensor *tensor1,
                                const tsr_tensor *tensor2, tsr_scalar value);

#ifdef __cplusplus
}
#endif

#endif /* TESSERA_TERNARY_H */
