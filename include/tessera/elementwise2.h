/* tessera: Elementwise ops, the second family: fmod, atan2, hypot, bitwise ops,
 * the second unary set, softplus, leaky_relu, elu, hardtanh, round, nan_to_num.
 * Included by tessera/tessera.h; the conventions stated there apply. */
#ifndef TESSERA_ELEMENTWISE2_H
#define TESSERA_ELEMENTWISE2_H

#include "tessera/tessera.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Through tsr_binary: fmod, atan2, hypot, copysign, fmax, fmin, bitwise_and,
 * bitwise_or, bitwise_xor, bitwise_left_shift, bitwise_right_shift.
 * Through tsr_unary: bitwise_not, exp2, log2, log10, tan, asin, acos, atan,
 * sinh, cosh, asinh, acosh, atanh, erfc, silu, floor, ceil, round, trunc,
 * frac, reciprocal, square, isnan, isinf, isfinite, and softplus,
 * leaky_relu, elu, hardtanh, nan_to_num with PyTorch's default parameters.
 * PyTorch 1.13's rules, among them: atan2, copysign, reciprocal and the
 * floating functions compute integer and bool inputs in float32 (hypot,
 * frac and the activations refuse them); floor, ceil, round and trunc
 * return integer tensors unchanged; square of bool is int64; isnan, isinf
 * and isfinite write bool; fmax and fmin ignore a NaN operand; fmod takes
 * the dividend's sign and fails on integer division by zero; the bitwise
 * ops take bool and integers only (the shifts integers only), and a shift
 * count outside [0, width) uses its low 6 bits for int64, 5 bits for
 * narrower dtypes (x86-64's behaviour, which PyTorch 1.13 inherits).
 * A parameter (beta, alpha, value, ...) must convert to the tensor's dtype
 * without overflow, as PyTorch's Scalar::to<T>() checks. */

/* softplus: x if beta * x > threshold, else log(1 + exp(beta * x)) / beta. */
TSR_API tsr_status tsr_softplus(const tsr_tensor *t, tsr_scalar beta, tsr_scalar threshold,
                                tsr_tensor **out);
/* leaky_relu: x > 0 ? x : negative_slope * x. */
TSR_API tsr_status tsr_leaky_relu(const tsr_tensor *t, tsr_scalar negative_slope,
                                  tsr_tensor **out);
/* elu: x > 0 ? scale * x : alpha * scale * (exp(input_scale * x) - 1)
 * (torch.nn.functional.elu has scale = input_scale = 1). */
TSR_API tsr_status tsr_elu(const tsr_tensor *t, tsr_scalar alpha, tsr_scalar scale,
                           tsr_scalar input_scale, tsr_tensor **out);
/* hardtanh: clamp(x, min_val, max_val); on integer tensors the bounds are
 * truncated to integers, and uint8 refuses negative bounds. */
TSR_API tsr_status tsr_hardtanh(const tsr_tensor *t, tsr_scalar min_val, tsr_scalar max_val,
                                tsr_tensor **out);
/* torch.round(t, decimals=d): ties to even at the d-th decimal (floating
 * tensors only unless d is 0). */
TSR_API tsr_status tsr_round_decimals(const tsr_tensor *t, int64_t decimals, tsr_tensor **out);
/* torch.nan_to_num: NaN, +inf and -inf replaced; a NULL value means
 * PyTorch's default (0, the dtype's largest and lowest finite value).
 * Integer and bool tensors come back unchanged. */
TSR_API tsr_status tsr_nan_to_num(const tsr_tensor *t, const double *nan, const double *posinf,
                                  const double *neginf, tsr_tensor **out);

#ifdef __cplusplus
}
#endif

#endif /* TESSERA_ELEMENTWISE2_H */
