/* Adapters for the elementwise ops: torch.add ... torch.clamp. */
#include "bindings/bindings.h"

#include <string.h>

/* torch.OP(input, other) for the plain binary ops; the op is the adapter's kernel. */
static int adapt_binary(conf_call *call)
{
    tsr_operand a, b;
    if (!conf_bind_operand(call, "input", &a) || !conf_bind_operand(call, "other", &b))
        return CONF_BIND_SKIP;
    tsr_tensor *out = NULL;
    int st = tsr_binary((tsr_op)call->adapter->kernel, a, b, &out);
    return conf_call_return(call, st, out);
}

/* torch.pow(input, exponent); input may be a scalar (Tensor.__rpow__). */
static int adapt_pow(conf_call *call)
{
    tsr_operand a, b;
    if (!conf_bind_operand(call, "input", &a) || !conf_bind_operand(call, "exponent", &b))
        return CONF_BIND_SKIP;
    tsr_tensor *out = NULL;
    int st = tsr_binary(TSR_OP_POW, a, b, &out);
    return conf_call_return(call, st, out);
}

/* torch.add / torch.sub: without alpha the plain binary path is exercised. */
static int adapt_add_sub(conf_call *call)
{
    tsr_operand a, b;
    tsr_scalar alpha;
    bool scaled = conf_arg_present(call, "alpha");
    if (!conf_bind_operand(call, "input", &a) || !conf_bind_operand(call, "other", &b) ||
        !conf_arg_scalar_or(call, "alpha", tsr_scalar_int(1), &alpha))
        return CONF_BIND_SKIP;
    tsr_tensor *out = NULL;
    int st;
    if (!scaled)
        st = tsr_binary((tsr_op)call->adapter->kernel, a, b, &out);
    else if (call->adapter->kernel == TSR_OP_ADD)
        st = tsr_add_scaled(a, b, alpha, &out);
    else
        st = tsr_sub_scaled(a, b, alpha, &out);
    return conf_call_return(call, st, out);
}

int conf_rounding_mode(const char *mode)
{
    if (!mode)
        return TSR_ROUND_NONE;
    if (strcmp(mode, "trunc") == 0)
        return TSR_ROUND_TRUNC;
    if (strcmp(mode, "floor") == 0)
        return TSR_ROUND_FLOOR;
    return -1;
}

static int adapt_div(conf_call *call)
{
    tsr_operand a, b;
    const char *mode;
    if (!conf_bind_operand(call, "input", &a) || !conf_bind_operand(call, "other", &b) ||
        !conf_arg_string_or(call, "rounding_mode", NULL, &mode))
        return CONF_BIND_SKIP;
    tsr_tensor *out = NULL;
    int st = mode ? tsr_div_rounding(a, b, conf_rounding_mode(mode), &out)
                  : tsr_binary(TSR_OP_DIV, a, b, &out);
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

/* torch.nn.functional.gelu(input, approximate='none'|'tanh'). */
static int adapt_gelu(conf_call *call)
{
    tsr_tensor *t, *out = NULL;
    const char *approximate;
    if (!conf_bind_tensor(call, "input", &t) ||
        !conf_arg_string_or(call, "approximate", "none", &approximate))
        return CONF_BIND_SKIP;
    int mode = strcmp(approximate, "none") == 0   ? TSR_GELU_NONE
               : strcmp(approximate, "tanh") == 0 ? TSR_GELU_TANH
                                                  : -1;
    int st = tsr_gelu(t, mode, &out);
    return conf_call_return(call, st, out);
}

static int adapt_where(conf_call *call)
{
    tsr_tensor *condition, *out = NULL;
    tsr_operand a, b;
    if (!conf_bind_tensor(call, "condition", &condition) || !conf_bind_operand(call, "input", &a) ||
        !conf_bind_operand(call, "other", &b))
        return CONF_BIND_SKIP;
    int st = tsr_where(condition, a, b, &out);
    return conf_call_return(call, st, out);
}

/* torch.clamp(input, min=None, max=None): bounds are tensors or scalars. */
static int adapt_clamp(conf_call *call)
{
    tsr_tensor *t, *out = NULL;
    tsr_operand min, max;
    bool has_min = false, has_max = false;
    if (!conf_bind_tensor(call, "input", &t) ||
        !conf_bind_operand_opt(call, "min", &min, &has_min) ||
        !conf_bind_operand_opt(call, "max", &max, &has_max))
        return CONF_BIND_SKIP;
    int st = tsr_clamp(t, has_min ? &min : NULL, has_max ? &max : NULL, &out);
    return conf_call_return(call, st, out);
}

const conf_adapter conf_bindings_elementwise[] = {
    {"add", adapt_add_sub, TSR_OP_ADD, 0},
    {"sub", adapt_add_sub, TSR_OP_SUB, 0},
    {"mul", adapt_binary, TSR_OP_MUL, 0},
    {"div", adapt_div, TSR_OP_DIV, 0},
    {"floor_divide", adapt_binary, TSR_OP_FLOOR_DIVIDE, 0},
    {"remainder", adapt_binary, TSR_OP_REMAINDER, 0},
    {"pow", adapt_pow, TSR_OP_POW, 0},
    {"maximum", adapt_binary, TSR_OP_MAXIMUM, 0},
    {"minimum", adapt_binary, TSR_OP_MINIMUM, 0},
    {"eq", adapt_binary, TSR_OP_EQ, 0},
    {"ne", adapt_binary, TSR_OP_NE, 0},
    {"lt", adapt_binary, TSR_OP_LT, 0},
    {"le", adapt_binary, TSR_OP_LE, 0},
    {"gt", adapt_binary, TSR_OP_GT, 0},
    {"ge", adapt_binary, TSR_OP_GE, 0},
    {"logical_and", adapt_binary, TSR_OP_LOGICAL_AND, 0},
    {"logical_or", adapt_binary, TSR_OP_LOGICAL_OR, 0},
    {"logical_xor", adapt_binary, TSR_OP_LOGICAL_XOR, 0},
    {"logical_not", adapt_unary, TSR_OP_LOGICAL_NOT, 0},
    {"neg", adapt_unary, TSR_OP_NEG, 0},
    {"abs", adapt_unary, TSR_OP_ABS, 0},
    {"sign", adapt_unary, TSR_OP_SIGN, 0},
    {"exp", adapt_unary, TSR_OP_EXP, 0},
    {"log", adapt_unary, TSR_OP_LOG, 0},
    {"log1p", adapt_unary, TSR_OP_LOG1P, 0},
    {"expm1", adapt_unary, TSR_OP_EXPM1, 0},
    {"sqrt", adapt_unary, TSR_OP_SQRT, 0},
    {"rsqrt", adapt_unary, TSR_OP_RSQRT, 0},
    {"sin", adapt_unary, TSR_OP_SIN, 0},
    {"cos", adapt_unary, TSR_OP_COS, 0},
    {"tanh", adapt_unary, TSR_OP_TANH, 0},
    {"sigmoid", adapt_unary, TSR_OP_SIGMOID, 0},
    {"relu", adapt_unary, TSR_OP_RELU, 0},
    {"erf", adapt_unary, TSR_OP_ERF, 0},
    {"gelu", adapt_gelu, TSR_OP_GELU, 0},
    {"where", adapt_where, TSR_OP_WHERE, 0},
    {"clamp", adapt_clamp, TSR_OP_CLAMP, 0},
};
const size_t conf_bindings_elementwise_count =
    sizeof conf_bindings_elementwise / sizeof conf_bindings_elementwise[0];
