/* tessera: one named function per elementwise op (tsr_exp, tsr_relu,
 * tsr_pow, tsr_gt, ...), generated from the op lists below so that no op of
 * tsr_unary / tsr_binary lacks its name.
 * Included by tessera/tessera.h; the conventions stated there apply. */
#ifndef TESSERA_ELEMENTWISE_NAMED_H
#define TESSERA_ELEMENTWISE_NAMED_H

#include "tessera/tessera.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Every op that tsr_unary runs: X(name, ENUM_SUFFIX, form, inplace).
 *   form PLAIN: tsr_NAME(t, &out) is generated (PyTorch's defaults, as
 *   tsr_unary(TSR_OP_ENUM, t, &out)); form OWN: the op takes parameters and
 *   has its own function in its family's header (tsr_gelu, tsr_softplus,
 *   tsr_leaky_relu, tsr_elu, tsr_hardtanh, tsr_nan_to_num).
 *   inplace IP: tsr_NAME_(self) is generated (as tsr_unary_); OWN_IP: the
 *   in-place form is in inplace.h with its parameters; NO_IP: PyTorch has
 *   no in-place form.
 * A test (tests/ops/test_elementwise_named.c) checks that the list holds
 * exactly the ops tsr_unary accepts. */
#define TSR_UNARY_OP_LIST(X)                                                     \
    X(neg, NEG, PLAIN, IP)                                                       \
    X(abs, ABS, PLAIN, IP)                                                       \
    X(sign, SIGN, PLAIN, IP)                                                     \
    X(exp, EXP, PLAIN, IP)                                                       \
    X(log, LOG, PLAIN, IP)                                                       \
    X(log1p, LOG1P, PLAIN, IP)                                                   \
    X(expm1, EXPM1, PLAIN, IP)                                                   \
    X(sqrt, SQRT, PLAIN, IP)                                                     \
    X(rsqrt, RSQRT, PLAIN, IP)                                                   \
    X(sin, SIN, PLAIN, IP)                                                       \
    X(cos, COS, PLAIN, IP)                                                       \
    X(tanh, TANH, PLAIN, IP)                                                     \
    X(sigmoid, SIGMOID, PLAIN, IP)                                               \
    X(relu, RELU, PLAIN, IP)                                                     \
    X(gelu, GELU, OWN, NO_IP)                                                    \
    X(erf, ERF, PLAIN, IP)                                                       \
    X(logical_not, LOGICAL_NOT, PLAIN, IP)                                       \
    X(bitwise_not, BITWISE_NOT, PLAIN, IP)                                       \
    X(exp2, EXP2, PLAIN, IP)                                                     \
    X(log2, LOG2, PLAIN, IP)                                                     \
    X(log10, LOG10, PLAIN, IP)                                                   \
    X(tan, TAN, PLAIN, IP)                                                       \
    X(asin, ASIN, PLAIN, IP)                                                     \
    X(acos, ACOS, PLAIN, IP)                                                     \
    X(atan, ATAN, PLAIN, IP)                                                     \
    X(sinh, SINH, PLAIN, IP)                                                     \
    X(cosh, COSH, PLAIN, IP)                                                     \
    X(asinh, ASINH, PLAIN, IP)                                                   \
    X(acosh, ACOSH, PLAIN, IP)                                                   \
    X(atanh, ATANH, PLAIN, IP)                                                   \
    X(erfc, ERFC, PLAIN, IP)                                                     \
    X(silu, SILU, PLAIN, IP)                                                     \
    X(softplus, SOFTPLUS, OWN, NO_IP)                                            \
    X(leaky_relu, LEAKY_RELU, OWN, OWN_IP)                                       \
    X(elu, ELU, OWN, OWN_IP)                                                     \
    X(hardtanh, HARDTANH, OWN, OWN_IP)                                           \
    X(floor, FLOOR, PLAIN, IP)                                                   \
    X(ceil, CEIL, PLAIN, IP)                                                     \
    X(round, ROUND, PLAIN, IP)                                                   \
    X(trunc, TRUNC, PLAIN, IP)                                                   \
    X(frac, FRAC, PLAIN, IP)                                                     \
    X(reciprocal, RECIPROCAL, PLAIN, IP)                                         \
    X(square, SQUARE, PLAIN, IP)                                                 \
    X(isnan, ISNAN, PLAIN, NO_IP)                                                \
    X(isinf, ISINF, PLAIN, NO_IP)                                                \
    X(isfinite, ISFINITE, PLAIN, NO_IP)                                          \
    X(nan_to_num, NAN_TO_NUM, OWN, OWN_IP)

/* Every op that tsr_binary runs, with the same columns. tsr_NAME(a, b, &out)
 * takes two tensors, as tsr_binary(TSR_OP_ENUM, tensor a, tensor b, &out)
 * (PyTorch's defaults: alpha 1, true division); a Python scalar operand
 * goes through tsr_binary with tsr_operand_scalar. tsr_NAME_(self, other)
 * takes an operand, as tsr_binary_. add_, sub_ (alpha) and div_
 * (rounding_mode) are OWN_IP: inplace.h has them with their keywords. */
#define TSR_BINARY_OP_LIST(X)                                                    \
    X(add, ADD, PLAIN, OWN_IP)                                                   \
    X(sub, SUB, PLAIN, OWN_IP)                                                   \
    X(mul, MUL, PLAIN, IP)                                                       \
    X(div, DIV, PLAIN, OWN_IP)                                                   \
    X(floor_divide, FLOOR_DIVIDE, PLAIN, IP)                                     \
    X(remainder, REMAINDER, PLAIN, IP)                                           \
    X(pow, POW, PLAIN, IP)                                                       \
    X(maximum, MAXIMUM, PLAIN, IP)                                               \
    X(minimum, MINIMUM, PLAIN, IP)                                               \
    X(eq, EQ, PLAIN, NO_IP)                                                      \
    X(ne, NE, PLAIN, NO_IP)                                                      \
    X(lt, LT, PLAIN, NO_IP)                                                      \
    X(le, LE, PLAIN, NO_IP)                                                      \
    X(gt, GT, PLAIN, NO_IP)                                                      \
    X(ge, GE, PLAIN, NO_IP)                                                      \
    X(logical_and, LOGICAL_AND, PLAIN, NO_IP)                                    \
    X(logical_or, LOGICAL_OR, PLAIN, NO_IP)                                      \
    X(logical_xor, LOGICAL_XOR, PLAIN, NO_IP)                                    \
    X(fmod, FMOD, PLAIN, IP)                                                     \
    X(atan2, ATAN2, PLAIN, IP)                                                   \
    X(hypot, HYPOT, PLAIN, IP)                                                   \
    X(copysign, COPYSIGN, PLAIN, IP)                                             \
    X(fmax, FMAX, PLAIN, NO_IP)                                                  \
    X(fmin, FMIN, PLAIN, NO_IP)                                                  \
    X(bitwise_and, BITWISE_AND, PLAIN, IP)                                       \
    X(bitwise_or, BITWISE_OR, PLAIN, IP)                                         \
    X(bitwise_xor, BITWISE_XOR, PLAIN, IP)                                       \
    X(bitwise_left_shift, BITWISE_LEFT_SHIFT, PLAIN, IP)                         \
    X(bitwise_right_shift, BITWISE_RIGHT_SHIFT, PLAIN, IP)

/* The generators pick a form's declaration by pasting its column name. */
#define TSR__UNARY_DECL_PLAIN(name)                                              \
    TSR_API tsr_status tsr_##name(const tsr_tensor *t, tsr_tensor **out);
#define TSR__UNARY_DECL_OWN(name)
#define TSR__UNARY_DECL(name, op, form, inplace) TSR__UNARY_DECL_##form(name)
#define TSR__BINARY_DECL_PLAIN(name)                                             \
    TSR_API tsr_status tsr_##name(const tsr_tensor *a, const tsr_tensor *b, tsr_tensor **out);
#define TSR__BINARY_DECL_OWN(name)
#define TSR__BINARY_DECL(name, op, form, inplace) TSR__BINARY_DECL_##form(name)

#define TSR__UNARY_DECL_IP_IP(name) TSR_API tsr_status tsr_##name##_(tsr_tensor *self);
#define TSR__UNARY_DECL_IP_OWN_IP(name)
#define TSR__UNARY_DECL_IP_NO_IP(name)
#define TSR__UNARY_DECL_IP(name, op, form, inplace) TSR__UNARY_DECL_IP_##inplace(name)
#define TSR__BINARY_DECL_IP_IP(name)                                             \
    TSR_API tsr_status tsr_##name##_(tsr_tensor *self, tsr_operand other);
#define TSR__BINARY_DECL_IP_OWN_IP(name)
#define TSR__BINARY_DECL_IP_NO_IP(name)
#define TSR__BINARY_DECL_IP(name, op, form, inplace) TSR__BINARY_DECL_IP_##inplace(name)

/* tsr_neg, tsr_abs, ..., tsr_isfinite: torch.NAME(t). */
TSR_UNARY_OP_LIST(TSR__UNARY_DECL)
/* tsr_add, tsr_sub, ..., tsr_bitwise_right_shift: torch.NAME(a, b). */
TSR_BINARY_OP_LIST(TSR__BINARY_DECL)
/* tsr_neg_, ..., tsr_square_: self.NAME_(). */
TSR_UNARY_OP_LIST(TSR__UNARY_DECL_IP)
/* tsr_mul_, ..., tsr_bitwise_right_shift_: self.NAME_(other). */
TSR_BINARY_OP_LIST(TSR__BINARY_DECL_IP)

#ifdef __cplusplus
}
#endif

#endif /* TESSERA_ELEMENTWISE_NAMED_H */
