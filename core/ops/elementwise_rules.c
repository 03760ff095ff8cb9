/* The elementwise ops' rules as one table indexed by op id, and the
 * attribute defaults and checks of the ops that take parameters. */
#include "ops/elementwise_rules.h"

#include <float.h>
#include <math.h>

#include "tensor/scalar.h"
#include "runtime/error.h"

/* ------------------------------------------------------------------------ */
/* The table                                                                 */
/* ------------------------------------------------------------------------ */

#define UNARY(result_kind, rule_flags)                                                             \
    {                                                                                              \
        .arity = 1, .result = (result_kind), .flags = (rule_flags)                                 \
    }
#define BINARY(result_kind, rule_flags)                                                            \
    {                                                                                              \
        .arity = 2, .result = (result_kind), .flags = (rule_flags)                                 \
    }
#define TERNARY                                                                                    \
    {                                                                                              \
        .arity = 3, .result = TSR__EW_SAME, .flags = 0                                             \
    }

enum { IP = TSR__EW_INPLACE };

static const tsr__ew_rule rules[TSR_OP_COUNT] = {
    /* binary, the foundation's (maximum_ and minimum_ are tessera's own) */
    [TSR_OP_ADD] = BINARY(TSR__EW_SAME, IP),
    [TSR_OP_SUB] = BINARY(TSR__EW_SAME, IP),
    [TSR_OP_MUL] = BINARY(TSR__EW_SAME, IP),
    [TSR_OP_DIV] = BINARY(TSR__EW_SAME, IP), /* true division promotes: ops_elementwise.c */
    [TSR_OP_FLOOR_DIVIDE] = BINARY(TSR__EW_SAME, IP),
    [TSR_OP_REMAINDER] = BINARY(TSR__EW_SAME, IP),
    [TSR_OP_POW] = BINARY(TSR__EW_SAME, IP),
    [TSR_OP_MAXIMUM] = BINARY(TSR__EW_SAME, IP),
    [TSR_OP_MINIMUM] = BINARY(TSR__EW_SAME, IP),
    [TSR_OP_EQ] = BINARY(TSR__EW_BOOL, 0),
    [TSR_OP_NE] = BINARY(TSR__EW_BOOL, 0),
    [TSR_OP_LT] = BINARY(TSR__EW_BOOL, 0),
    [TSR_OP_LE] = BINARY(TSR__EW_BOOL, 0),
    [TSR_OP_GT] = BINARY(TSR__EW_BOOL, 0),
    [TSR_OP_GE] = BINARY(TSR__EW_BOOL, 0),
    [TSR_OP_LOGICAL_AND] = BINARY(TSR__EW_BOOL, 0),
    [TSR_OP_LOGICAL_OR] = BINARY(TSR__EW_BOOL, 0),
    [TSR_OP_LOGICAL_XOR] = BINARY(TSR__EW_BOOL, 0),
    /* unary, the foundation's: gelu and relu refuse integers instead of
     * promoting them (PyTorch 1.13), and gelu_ does not exist */
    [TSR_OP_NEG] = UNARY(TSR__EW_SAME, IP),
    [TSR_OP_ABS] = UNARY(TSR__EW_SAME, IP),
    [TSR_OP_SIGN] = UNARY(TSR__EW_SAME, IP),
    [TSR_OP_EXP] = UNARY(TSR__EW_FLOAT, IP),
    [TSR_OP_LOG] = UNARY(TSR__EW_FLOAT, IP),
    [TSR_OP_LOG1P] = UNARY(TSR__EW_FLOAT, IP),
    [TSR_OP_EXPM1] = UNARY(TSR__EW_FLOAT, IP),
    [TSR_OP_SQRT] = UNARY(TSR__EW_FLOAT, IP),
    [TSR_OP_RSQRT] = UNARY(TSR__EW_FLOAT, IP),
    [TSR_OP_SIN] = UNARY(TSR__EW_FLOAT, IP),
    [TSR_OP_COS] = UNARY(TSR__EW_FLOAT, IP),
    [TSR_OP_TANH] = UNARY(TSR__EW_FLOAT, IP),
    [TSR_OP_SIGMOID] = UNARY(TSR__EW_FLOAT, IP),
    [TSR_OP_RELU] = UNARY(TSR__EW_SAME, IP),
    [TSR_OP_GELU] = UNARY(TSR__EW_SAME, 0),
    [TSR_OP_ERF] = UNARY(TSR__EW_FLOAT, IP),
    [TSR_OP_LOGICAL_NOT] = UNARY(TSR__EW_BOOL, IP),
    /* where (condition, a, b) and clamp (x, min, max) */
    [TSR_OP_WHERE] = TERNARY,
    [TSR_OP_CLAMP] = TERNARY,
    /* the second family: binary (fmax_ and fmin_ do not exist) */
    [TSR_OP_FMOD] = BINARY(TSR__EW_SAME, IP),
    [TSR_OP_ATAN2] = BINARY(TSR__EW_FLOAT, IP),
    [TSR_OP_HYPOT] = BINARY(TSR__EW_SAME, IP), /* no integer promotion: PyTorch refuses */
    [TSR_OP_COPYSIGN] = BINARY(TSR__EW_FLOAT, IP),
    [TSR_OP_FMAX] = BINARY(TSR__EW_SAME, 0),
    [TSR_OP_FMIN] = BINARY(TSR__EW_SAME, 0),
    [TSR_OP_BITWISE_AND] = BINARY(TSR__EW_SAME, IP),
    [TSR_OP_BITWISE_OR] = BINARY(TSR__EW_SAME, IP),
    [TSR_OP_BITWISE_XOR] = BINARY(TSR__EW_SAME, IP),
    [TSR_OP_BITWISE_LEFT_SHIFT] = BINARY(TSR__EW_SAME, IP),
    [TSR_OP_BITWISE_RIGHT_SHIFT] = BINARY(TSR__EW_SAME, IP),
    /* unary: floating functions */
    [TSR_OP_BITWISE_NOT] = UNARY(TSR__EW_SAME, IP),
    [TSR_OP_EXP2] = UNARY(TSR__EW_FLOAT, IP),
    [TSR_OP_LOG2] = UNARY(TSR__EW_FLOAT, IP),
    [TSR_OP_LOG10] = UNARY(TSR__EW_FLOAT, IP),
    [TSR_OP_TAN] = UNARY(TSR__EW_FLOAT, IP),
    [TSR_OP_ASIN] = UNARY(TSR__EW_FLOAT, IP),
    [TSR_OP_ACOS] = UNARY(TSR__EW_FLOAT, IP),
    [TSR_OP_ATAN] = UNARY(TSR__EW_FLOAT, IP),
    [TSR_OP_SINH] = UNARY(TSR__EW_FLOAT, IP),
    [TSR_OP_COSH] = UNARY(TSR__EW_FLOAT, IP),
    [TSR_OP_ASINH] = UNARY(TSR__EW_FLOAT, IP),
    [TSR_OP_ACOSH] = UNARY(TSR__EW_FLOAT, IP),
    [TSR_OP_ATANH] = UNARY(TSR__EW_FLOAT, IP),
    [TSR_OP_ERFC] = UNARY(TSR__EW_FLOAT, IP),
    /* activations: no integer promotion (PyTorch refuses integers, except
     * hardtanh, which clamps them); softplus_ does not exist */
    [TSR_OP_SILU] = UNARY(TSR__EW_SAME, IP),
    [TSR_OP_SOFTPLUS] = UNARY(TSR__EW_SAME, 0),
    [TSR_OP_LEAKY_RELU] = UNARY(TSR__EW_SAME, IP),
    [TSR_OP_ELU] = UNARY(TSR__EW_SAME, IP),
    [TSR_OP_HARDTANH] = UNARY(TSR__EW_SAME, IP),
    /* rounding and friends */
    [TSR_OP_FLOOR] = UNARY(TSR__EW_SAME, IP | TSR__EW_INTEGER_IDENTITY),
    [TSR_OP_CEIL] = UNARY(TSR__EW_SAME, IP | TSR__EW_INTEGER_IDENTITY),
    [TSR_OP_ROUND] = UNARY(TSR__EW_SAME, IP | TSR__EW_INTEGER_IDENTITY),
    [TSR_OP_TRUNC] = UNARY(TSR__EW_SAME, IP | TSR__EW_INTEGER_IDENTITY),
    [TSR_OP_FRAC] = UNARY(TSR__EW_SAME, IP),
    [TSR_OP_RECIPROCAL] = UNARY(TSR__EW_FLOAT, IP),
    [TSR_OP_SQUARE] = UNARY(TSR__EW_SAME, IP),
    [TSR_OP_ISNAN] = UNARY(TSR__EW_BOOL, 0),
    [TSR_OP_ISINF] = UNARY(TSR__EW_BOOL, 0),
    [TSR_OP_ISFINITE] = UNARY(TSR__EW_BOOL, 0),
    [TSR_OP_NAN_TO_NUM] = UNARY(TSR__EW_SAME, IP | TSR__EW_INTEGRAL_IDENTITY),
    /* ternary */
    [TSR_OP_LERP] = TERNARY,
    [TSR_OP_ADDCMUL] = TERNARY,
    [TSR_OP_ADDCDIV] = TERNARY,
};

tsr__ew_rule tsr__ew_rule_of(tsr_op op)
{
    if ((int)op < 0 || op >= TSR_OP_COUNT)
        return (tsr__ew_rule){0};
    return rules[op];
}

bool tsr__ew_is_unary(tsr_op op)
{
    return tsr__ew_rule_of(op).arity == 1;
}

bool tsr__ew_is_binary(tsr_op op)
{
    return tsr__ew_rule_of(op).arity == 2;
}

/* ------------------------------------------------------------------------ */
/* Unary dtypes                                                              */
/* ------------------------------------------------------------------------ */

tsr_status tsr__unary_dtypes(tsr_op op, tsr_dtype in, tsr_dtype *compute, tsr_dtype *result)
{
    tsr__ew_rule rule = tsr__ew_rule_of(op);
    if (op == TSR_OP_NEG && in == TSR_BOOL)
        return tsr__set_error(TSR_ERR_DTYPE, "neg: negation of a bool tensor is not supported; use "
                                             "logical_not instead");
    *compute = *result = in;
    if (rule.result == TSR__EW_FLOAT && tsr_dtype_is_integral(in, true))
        *compute = *result = TSR_FLOAT32;
    if (rule.result == TSR__EW_BOOL)
        *result = TSR_BOOL;
    if (op == TSR_OP_ABS && tsr_dtype_is_complex(in)) /* |z| is real */
        *result = in == TSR_COMPLEX64 ? TSR_FLOAT32 : TSR_FLOAT64;
    if (op == TSR_OP_SQUARE && in == TSR_BOOL) /* pow(x, 2): bool with an int promotes */
        *compute = *result = TSR_INT64;
    return TSR_OK;
}

bool tsr__unary_is_identity(tsr_op op, tsr_dtype in, const tsr_elementwise_attrs *attrs)
{
    tsr__ew_rule rule = tsr__ew_rule_of(op);
    if (op == TSR_OP_ROUND && attrs && attrs->mode != 0)
        return false; /* round(decimals=d) has no integer kernel: PyTorch refuses */
    if (rule.flags & TSR__EW_INTEGRAL_IDENTITY)
        return tsr_dtype_is_integral(in, true);
    return (rule.flags & TSR__EW_INTEGER_IDENTITY) && tsr_dtype_is_integral(in, false);
}

/* ------------------------------------------------------------------------ */
/* Attributes                                                                */
/* ------------------------------------------------------------------------ */

tsr_status tsr__scalar_check_fits(const char *name, const char *what, tsr_scalar value,
                                  tsr_dtype dtype)
{
    if (!tsr__scalar_valid(value))
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: %s has an invalid kind", name, what);
    bool imaginary = value.kind == TSR_SCALAR_COMPLEX && value.v.c.im != 0.0;
    if (tsr__scalar_fits(value, dtype) && !(imaginary && !tsr_dtype_is_complex(dtype)))
        return TSR_OK;
    return tsr__set_error(TSR_ERR_VALUE,
                          "%s: %s %g%s cannot be converted to type %s without "
                          "overflow",
                          name, what, tsr__scalar_to_double(value), imaginary ? " (complex)" : "",
                          tsr_dtype_name(dtype));
}

static double largest_finite(tsr_dtype dtype)
{
    switch (dtype) {
    case TSR_FLOAT16:
        return 65504.0;
    case TSR_BFLOAT16:
        return 3.38953138925153547590e38;
    case TSR_FLOAT32:
        return FLT_MAX;
    default:
        return DBL_MAX;
    }
}

/* PyTorch's defaults: softplus(beta=1, threshold=20), leaky_relu(0.01),
 * elu(alpha=1, scale=1, input_scale=1), hardtanh(-1, 1), round(decimals=0),
 * nan_to_num(0, largest, lowest). */
static void default_attrs(tsr_op op, tsr_dtype compute, tsr_elementwise_attrs *a)
{
    *a = (tsr_elementwise_attrs){.struct_size = sizeof *a};
    switch (op) {
    case TSR_OP_SOFTPLUS:
        a->scalars[0] = tsr_scalar_int(1);
        a->scalars[1] = tsr_scalar_int(20);
        break;
    case TSR_OP_LEAKY_RELU:
        a->scalars[0] = tsr_scalar_float(0.01);
        break;
    case TSR_OP_ELU:
        a->scalars[0] = a->scalars[1] = a->scalars[2] = tsr_scalar_int(1);
        break;
    case TSR_OP_HARDTANH:
        a->scalars[0] = tsr_scalar_int(-1);
        a->scalars[1] = tsr_scalar_int(1);
        break;
    case TSR_OP_NAN_TO_NUM:
        a->scalars[0] = tsr_scalar_float(0.0);
        a->scalars[1] = tsr_scalar_float(largest_finite(compute));
        a->scalars[2] = tsr_scalar_float(-largest_finite(compute));
        break;
    default:
        break;
    }
}

/* Scalar::toLong(): a checked conversion that truncates a float. */
static tsr_status bound_to_integer(const char *what, tsr_scalar *bound)
{
    tsr_status st = tsr__scalar_check_fits("hardtanh", what, *bound, TSR_INT64);
    if (st == TSR_OK && bound->kind != TSR_SCALAR_INT)
        *bound = tsr_scalar_int((int64_t)tsr__scalar_to_double(*bound));
    return st;
}

/* hardtanh is clamp with both bounds; on integer tensors the bounds are
 * truncated to integers first, and uint8 refuses negative ones. */
static tsr_status hardtanh_bounds(tsr_dtype self, tsr_elementwise_attrs *a)
{
    tsr_status st = TSR_OK;
    if (tsr_dtype_is_integral(self, false)) {
        if ((st = bound_to_integer("min_val", &a->scalars[0])) != TSR_OK ||
            (st = bound_to_integer("max_val", &a->scalars[1])) != TSR_OK)
            return st;
        if (self == TSR_UINT8 && (a->scalars[0].v.i < 0 || a->scalars[1].v.i < 0))
            return tsr__set_error(TSR_ERR_VALUE, "hardtanh: cannot do hardtanh on an unsigned "
                                                 "type with negative limits");
    }
    if ((st = tsr__scalar_check_fits("hardtanh", "min_val", a->scalars[0], self)) == TSR_OK)
        st = tsr__scalar_check_fits("hardtanh", "max_val", a->scalars[1], self);
    return st;
}

/* The names of each op's scalar parameters, in attribute order. */
static const char *const *parameter_names(tsr_op op)
{
    static const char *const softplus[] = {"beta", "threshold", NULL};
    static const char *const leaky_relu[] = {"negative_slope", NULL};
    static const char *const elu[] = {"alpha", "scale", "input_scale", NULL};
    static const char *const none[] = {NULL};
    switch (op) {
    case TSR_OP_SOFTPLUS:
        return softplus;
    case TSR_OP_LEAKY_RELU:
        return leaky_relu;
    case TSR_OP_ELU:
        return elu;
    default:
        return none;
    }
}

tsr_status tsr__unary_attrs(tsr_op op, tsr_dtype self, tsr_dtype compute,
                            const tsr_elementwise_attrs *given, tsr_elementwise_attrs *out)
{
    default_attrs(op, compute, out);
    if (given) {
        *out = *given;
        out->struct_size = sizeof *out;
    }
    if (op == TSR_OP_HARDTANH && self == TSR_BOOL)
        return tsr__set_error(TSR_ERR_DTYPE, "hardtanh: Bool inputs not supported for hardtanh");
    if (op == TSR_OP_HARDTANH)
        return hardtanh_bounds(self, out);
    const char *const *names = parameter_names(op);
    const char *name = tsr_op_name(op);
    for (int i = 0; names[i]; i++) {
        tsr_status st = tsr__scalar_check_fits(name, names[i], out->scalars[i], compute);
        if (st != TSR_OK)
            return st;
    }
    return TSR_OK;
}
