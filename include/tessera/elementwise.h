/* tessera: Elementwise ops: arithmetic, comparisons, logical ops, the first unary
 * set, where, clamp.
 * Included by tessera/tessera.h; the conventions stated there apply. */
#ifndef TESSERA_ELEMENTWISE_H
#define TESSERA_ELEMENTWISE_H

#include "tessera/tessera.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Binary ops over broadcast operands with PyTorch's promotion: any of
 * add, sub, mul, div, floor_divide, remainder, pow, maximum, minimum, eq, ne,
 * lt, le, gt, ge, logical_and, logical_or, logical_xor. At least one operand
 * must be a tensor. */
TSR_API tsr_status tsr_binary(tsr_op op, tsr_operand a, tsr_operand b, tsr_tensor **out);
/* torch.add / torch.sub with alpha: a ± alpha * b. */
TSR_API tsr_status tsr_add_scaled(tsr_operand a, tsr_operand b, tsr_scalar alpha,
                                  tsr_tensor **out);
TSR_API tsr_status tsr_sub_scaled(tsr_operand a, tsr_operand b, tsr_scalar alpha,
                                  tsr_tensor **out);
/* torch.div with rounding_mode TSR_ROUND_NONE / _TRUNC / _FLOOR. */
TSR_API tsr_status tsr_div_rounding(tsr_operand a, tsr_operand b, int rounding_mode,
                                    tsr_tensor **out);

/* tsr_add(a, b, &out), tsr_exp(t, &out), ... for every op above:
 * tessera/elementwise_named.h. */

/* Unary ops: neg, abs, sign, exp, log, log1p, expm1, sqrt, rsqrt, sin, cos,
 * tanh, sigmoid, relu, gelu (exact), erf, logical_not. Floating functions of
 * integer or bool tensors compute in float32, as PyTorch. */
TSR_API tsr_status tsr_unary(tsr_op op, const tsr_tensor *t, tsr_tensor **out);
/* gelu with approximate TSR_GELU_NONE or TSR_GELU_TANH. */
TSR_API tsr_status tsr_gelu(const tsr_tensor *t, int approximate, tsr_tensor **out);

/* torch.where(condition, a, b): condition must be bool. */
TSR_API tsr_status tsr_where(const tsr_tensor *condition, tsr_operand a, tsr_operand b,
                             tsr_tensor **out);
/* torch.clamp(t, min, max); a NULL bound is absent. At least one is required. */
TSR_API tsr_status tsr_clamp(const tsr_tensor *t, const tsr_operand *min, const tsr_operand *max,
                             tsr_tensor **out);

#ifdef __cplusplus
}
#endif

#endif /* TESSERA_ELEMENTWISE_H */
