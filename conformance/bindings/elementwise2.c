/* Adapters for the second elementwise family: torch.fmod ... torch.nan_to_num,
 * with the activations of torch.nn.functional. */
#include "bindings/bindings.h"

/* torch.OP(input, other); the op is the adapter's kernel. */
static int adapt_binary(conf_call *call)
{
    tsr_operand a, b;
    if (!conf_bind_operand(call, "input", &a) || !conf_bind_operand(call, "other", &b))
        return CONF_BIND_SKIP;
    tsr_tensor *out = NULL;
    int st = tsr_binary((tsr_op)call->adapter->kernel, a, b, &out);
    return conf_call_return(call, st, out);
}

static int adapt_unary(conf_call *call)
{
    tsr_tensor *t, *out = NULL;
    if (!conf_bind_tensor(call, "input", &t))
        return CONF_BIND_SKIP;
    int st = tsr_unary((tsr_op)call->adapter->kernel, t, &out);
    return conf_call_return(call, st, out);
}

/* torch.round(input, decimals=0). */
static int adapt_round(conf_call *call)
{
    tsr_tensor *t, *out = NULL;
    int64_t decimals;
    bool given = conf_arg_present(call, "decimals");
    if (!conf_bind_tensor(call, "input", &t) || !conf_arg_int_or(call, "decimals", 0, &decimals))
        return CONF_BIND_SKIP;
    int st = given ? tsr_round_decimals(t, decimals, &out) : tsr_unary(TSR_OP_ROUND, t, &out);
    return conf_call_return(call, st, out);
}

/* F.softplus(input, beta=1, threshold=20). */
static int adapt_softplus(conf_call *call)
{
    tsr_tensor *t, *out = NULL;
    tsr_scalar beta, threshold;
    if (!conf_bind_tensor(call, "input", &t) ||
        !conf_arg_scalar_or(call, "beta", tsr_scalar_int(1), &beta) ||
        !conf_arg_scalar_or(call, "threshold", tsr_scalar_int(20), &threshold))
        return CONF_BIND_SKIP;
    int st = tsr_softplus(t, beta, threshold, &out);
    return conf_call_return(call, st, out);
}

/* F.leaky_relu(input, negative_slope=0.01). */
static int adapt_leaky_relu(conf_call *call)
{
    tsr_tensor *t, *out = NULL;
    tsr_scalar slope;
    if (!conf_bind_tensor(call, "input", &t) ||
        !conf_arg_scalar_or(call, "negative_slope", tsr_scalar_float(0.01), &slope))
        return CONF_BIND_SKIP;
    int st = tsr_leaky_relu(t, slope, &out);
    return conf_call_return(call, st, out);
}

/* F.elu(input, alpha=1.0); aten's scale and input_scale when a case gives them. */
static int adapt_elu(conf_call *call)
{
    tsr_tensor *t, *out = NULL;
    tsr_scalar alpha, scale, input_scale;
    if (!conf_bind_tensor(call, "input", &t) ||
        !conf_arg_scalar_or(call, "alpha", tsr_scalar_float(1.0), &alpha) ||
        !conf_arg_scalar_or(call, "scale", tsr_scalar_int(1), &scale) ||
        !conf_arg_scalar_or(call, "input_scale", tsr_scalar_int(1), &input_scale))
        return CONF_BIND_SKIP;
    int st = tsr_elu(t, alpha, scale, input_scale, &out);
    return conf_call_return(call, st, out);
}

/* F.hardtanh(input, min_val=-1.0, max_val=1.0). */
static int adapt_hardtanh(conf_call *call)
{
    tsr_tensor *t, *out = NULL;
    tsr_scalar min_val, max_val;
    if (!conf_bind_tensor(call, "input", &t) ||
        !conf_arg_scalar_or(call, "min_val", tsr_scalar_float(-1.0), &min_val) ||
        !conf_arg_scalar_or(call, "max_val", tsr_scalar_float(1.0), &max_val))
        return CONF_BIND_SKIP;
    int st = tsr_hardtanh(t, min_val, max_val, &out);
    return conf_call_return(call, st, out);
}

/* An optional float arg: absent or null leaves *present false. */
static bool arg_double_opt(conf_call *call, const char *name, double *value, bool *present)
{
    tsr_scalar s;
    *present = conf_arg_present(call, name);
    if (!*present)
        return true;
    if (!conf_arg_scalar(call, name, &s))
        return false;
    *value = s.kind == TSR_SCALAR_FLOAT     ? s.v.f
             : s.kind == TSR_SCALAR_COMPLEX ? s.v.c.re
                                            : (double)s.v.i;
    return true;
}

/* torch.nan_to_num(input, nan=0.0, posinf=None, neginf=None). */
static int adapt_nan_to_num(conf_call *call)
{
    tsr_tensor *t, *out = NULL;
    double values[3];
    bool present[3];
    if (!conf_bind_tensor(call, "input", &t) ||
        !arg_double_opt(call, "nan", &values[0], &present[0]) ||
        !arg_double_opt(call, "posinf", &values[1], &present[1]) ||
        !arg_double_opt(call, "neginf", &values[2], &present[2]))
        return CONF_BIND_SKIP;
    int st = tsr_nan_to_num(t, present[0] ? &values[0] : NULL, present[1] ? &values[1] : NULL,
                            present[2] ? &values[2] : NULL, &out);
    return conf_call_return(call, st, out);
}

const conf_adapter conf_bindings_elementwise2[] = {
    {"fmod", adapt_binary, TSR_OP_FMOD, 0},
    {"atan2", adapt_binary, TSR_OP_ATAN2, 0},
    {"hypot", adapt_binary, TSR_OP_HYPOT, 0},
    {"copysign", adapt_binary, TSR_OP_COPYSIGN, 0},
    {"fmax", adapt_binary, TSR_OP_FMAX, 0},
    {"fmin", adapt_binary, TSR_OP_FMIN, 0},
    {"bitwise_and", adapt_binary, TSR_OP_BITWISE_AND, 0},
    {"bitwise_or", adapt_binary, TSR_OP_BITWISE_OR, 0},
    {"bitwise_xor", adapt_binary, TSR_OP_BITWISE_XOR, 0},
    {"bitwise_left_shift", adapt_binary, TSR_OP_BITWISE_LEFT_SHIFT, 0},
    {"bitwise_right_shift", adapt_binary, TSR_OP_BITWISE_RIGHT_SHIFT, 0},
    {"bitwise_not", adapt_unary, TSR_OP_BITWISE_NOT, 0},
    {"exp2", adapt_unary, TSR_OP_EXP2, 0},
    {"log2", adapt_unary, TSR_OP_LOG2, 0},
    {"log10", adapt_unary, TSR_OP_LOG10, 0},
    {"tan", adapt_unary, TSR_OP_TAN, 0},
    {"asin", adapt_unary, TSR_OP_ASIN, 0},
    {"acos", adapt_unary, TSR_OP_ACOS, 0},
    {"atan", adapt_unary, TSR_OP_ATAN, 0},
    {"sinh", adapt_unary, TSR_OP_SINH, 0},
    {"cosh", adapt_unary, TSR_OP_COSH, 0},
    {"asinh", adapt_unary, TSR_OP_ASINH, 0},
    {"acosh", adapt_unary, TSR_OP_ACOSH, 0},
    {"atanh", adapt_unary, TSR_OP_ATANH, 0},
    {"erfc", adapt_unary, TSR_OP_ERFC, 0},
    {"silu", adapt_unary, TSR_OP_SILU, 0},
    {"floor", adapt_unary, TSR_OP_FLOOR, 0},
    {"ceil", adapt_unary, TSR_OP_CEIL, 0},
    {"trunc", adapt_unary, TSR_OP_TRUNC, 0},
    {"frac", adapt_unary, TSR_OP_FRAC, 0},
    {"reciprocal", adapt_unary, TSR_OP_RECIPROCAL, 0},
    {"square", adapt_unary, TSR_OP_SQUARE, 0},
    {"isnan", adapt_unary, TSR_OP_ISNAN, 0},
    {"isinf", adapt_unary, TSR_OP_ISINF, 0},
    {"isfinite", adapt_unary, TSR_OP_ISFINITE, 0},
    {"round", adapt_round, TSR_OP_ROUND, 0},
    {"softplus", adapt_softplus, TSR_OP_SOFTPLUS, 0},
    {"leaky_relu", adapt_leaky_relu, TSR_OP_LEAKY_RELU, 0},
    {"elu", adapt_elu, TSR_OP_ELU, 0},
    {"hardtanh", adapt_hardtanh, TSR_OP_HARDTANH, 0},
    {"nan_to_num", adapt_nan_to_num, TSR_OP_NAN_TO_NUM, 0},
};
const size_t conf_bindings_elementwise2_count =
    sizeof conf_bindings_elementwise2 / sizeof conf_bindings_elementwise2[0];
