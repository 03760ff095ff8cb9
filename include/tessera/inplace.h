/* tessera: In-place ops: write into self through its view (self.add_(other),
 * self.exp_(), ...).
 * Included by tessera/tessera.h; the conventions stated there apply. */
#ifndef TESSERA_INPLACE_H
#define TESSERA_INPLACE_H

#include "tessera/tessera.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- unary and parameterised ops in place, with the checks of tsr_binary_ ---- */

/* self.OP_() for the unary ops PyTorch has in place: every op of
 * tsr_unary except gelu, softplus, isnan, isinf and isfinite. The result
 * must be castable to self's dtype (exp_ of an integer tensor fails). */
TSR_API tsr_status tsr_unary_(tsr_op op, tsr_tensor *self);
TSR_API tsr_status tsr_leaky_relu_(tsr_tensor *self, tsr_scalar negative_slope);
TSR_API tsr_status tsr_elu_(tsr_tensor *self, tsr_scalar alpha, tsr_scalar scale,
                            tsr_scalar input_scale);
TSR_API tsr_status tsr_hardtanh_(tsr_tensor *self, tsr_scalar min_val, tsr_scalar max_val);
TSR_API tsr_status tsr_round_decimals_(tsr_tensor *self, int64_t decimals);
TSR_API tsr_status tsr_nan_to_num_(tsr_tensor *self, const double *nan, const double *posinf,
                                   const double *neginf);
/* self.fill_(value) with a 0-d tensor value (on any backend), converted
 * from its element as tsr_fill_ converts a scalar. */
TSR_API tsr_status tsr_fill_tensor_(tsr_tensor *self, const tsr_tensor *value);

/* ---- binary ops in place ---- */

/* self.OP_(other) for add, sub, mul, div, floor_divide, remainder, pow,
 * maximum, minimum, fmod, atan2, hypot, copysign, bitwise_and, bitwise_or,
 * bitwise_xor, bitwise_left_shift, bitwise_right_shift: the result must be castable to self's dtype (its
 * category may not exceed self's), self must not be broadcast, and self must
 * not have internal overlap (as after expand). */
TSR_API tsr_status tsr_binary_(tsr_op op, tsr_tensor *self, tsr_operand other);
TSR_API tsr_status tsr_add_(tsr_tensor *self, tsr_operand other, tsr_scalar alpha);
TSR_API tsr_status tsr_sub_(tsr_tensor *self, tsr_operand other, tsr_scalar alpha);
TSR_API tsr_status tsr_div_(tsr_tensor *self, tsr_operand other, int rounding_mode);
TSR_API tsr_status tsr_clamp_(tsr_tensor *self, const tsr_operand *min, const tsr_operand *max);
TSR_API tsr_status tsr_fill_(tsr_tensor *self, tsr_scalar value);
TSR_API tsr_status tsr_zero_(tsr_tensor *self);

#ifdef __cplusplus
}
#endif

#endif /* TESSERA_INPLACE_H */
