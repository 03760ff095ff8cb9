/* Adapters for the in-place Tensor methods: fill_, zero_, add_ ... clamp_.
 * The expected output of each is the mutated self, seen through its view. */
#include "bindings/bindings.h"

/* self.fill_(value): a Python scalar or a 0-d tensor. */
static int adapt_fill_(conf_call *call)
{
    tsr_tensor *self;
    tsr_operand value;
    if (!conf_bind_tensor(call, "self", &self) || !conf_bind_operand(call, "value", &value))
        return CONF_BIND_SKIP;
    int st = value.tensor ? tsr_fill_tensor_(self, value.tensor) : tsr_fill_(self, value.scalar);
    return conf_call_return_self(call, st, self);
}

static int adapt_zero_(conf_call *call)
{
    tsr_tensor *self;
    if (!conf_bind_tensor(call, "self", &self))
        return CONF_BIND_SKIP;
    int st = tsr_zero_(self);
    return conf_call_return_self(call, st, self);
}

/* self.OP_(other) for mul_ and the other plain binary ops; pow_ names its
 * operand "exponent". */
static int adapt_binary_(conf_call *call)
{
    tsr_tensor *self;
    tsr_operand other;
    const char *name = call->adapter->kernel == TSR_OP_POW ? "exponent" : "other";
    if (!conf_bind_tensor(call, "self", &self) || !conf_bind_operand(call, name, &other))
        return CONF_BIND_SKIP;
    int st = tsr_binary_((tsr_op)call->adapter->kernel, self, other);
    return conf_call_return_self(call, st, self);
}

static int adapt_add_sub_(conf_call *call)
{
    tsr_tensor *self;
    tsr_operand other;
    tsr_scalar alpha;
    bool scaled = conf_arg_present(call, "alpha");
    if (!conf_bind_tensor(call, "self", &self) || !conf_bind_operand(call, "other", &other) ||
        !conf_arg_scalar_or(call, "alpha", tsr_scalar_int(1), &alpha))
        return CONF_BIND_SKIP;
    int st;
    if (!scaled)
        st = tsr_binary_((tsr_op)call->adapter->kernel, self, other);
    else if (call->adapter->kernel == TSR_OP_ADD)
        st = tsr_add_(self, other, alpha);
    else
        st = tsr_sub_(self, other, alpha);
    return conf_call_return_self(call, st, self);
}

static int adapt_div_(conf_call *call)
{
    tsr_tensor *self;
    tsr_operand other;
    const char *mode;
    if (!conf_bind_tensor(call, "self", &self) || !conf_bind_operand(call, "other", &other) ||
        !conf_arg_string_or(call, "rounding_mode", NULL, &mode))
        return CONF_BIND_SKIP;
    int st = mode ? tsr_div_(self, other, conf_rounding_mode(mode))
                  : tsr_binary_(TSR_OP_DIV, self, other);
    return conf_call_return_self(call, st, self);
}

static int adapt_clamp_(conf_call *call)
{
    tsr_tensor *self;
    tsr_operand min, max;
    bool has_min = false, has_max = false;
    if (!conf_bind_tensor(call, "self", &self) ||
        !conf_bind_operand_opt(call, "min", &min, &has_min) ||
        !conf_bind_operand_opt(call, "max", &max, &has_max))
        return CONF_BIND_SKIP;
    int st = tsr_clamp_(self, has_min ? &min : NULL, has_max ? &max : NULL);
    return conf_call_return_self(call, st, self);
}

const conf_adapter conf_bindings_inplace[] = {
    {"fill_", adapt_fill_, TSR_OP_FILL, CONF_ADAPTER_INPLACE},
    {"zero_", adapt_zero_, TSR_OP_FILL, CONF_ADAPTER_INPLACE},
    {"add_", adapt_add_sub_, TSR_OP_ADD, CONF_ADAPTER_INPLACE},
    {"sub_", adapt_add_sub_, TSR_OP_SUB, CONF_ADAPTER_INPLACE},
    {"mul_", adapt_binary_, TSR_OP_MUL, CONF_ADAPTER_INPLACE},
    {"div_", adapt_div_, TSR_OP_DIV, CONF_ADAPTER_INPLACE},
    {"floor_divide_", adapt_binary_, TSR_OP_FLOOR_DIVIDE, CONF_ADAPTER_INPLACE},
    {"remainder_", adapt_binary_, TSR_OP_REMAINDER, CONF_ADAPTER_INPLACE},
    {"pow_", adapt_binary_, TSR_OP_POW, CONF_ADAPTER_INPLACE},
    {"clamp_", adapt_clamp_, TSR_OP_CLAMP, CONF_ADAPTER_INPLACE},
};
const size_t conf_bindings_inplace_count =
    sizeof conf_bindings_inplace / sizeof conf_bindings_inplace[0];
