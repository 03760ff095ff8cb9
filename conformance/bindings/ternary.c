/* Adapters for the three-operand elementwise ops: torch.lerp, addcmul, addcdiv. */
#include "bindings/bindings.h"

/* torch.lerp(input, end, weight): weight a tensor or a scalar. */
static int adapt_lerp(conf_call *call)
{
    tsr_tensor *start, *end, *out = NULL;
    tsr_operand weight;
    if (!conf_bind_tensor(call, "input", &start) || !conf_bind_tensor(call, "end", &end) ||
        !conf_bind_operand(call, "weight", &weight))
        return CONF_BIND_SKIP;
    int st = tsr_lerp(start, end, weight, &out);
    return conf_call_return(call, st, out);
}

/* torch.addcmul / torch.addcdiv(input, tensor1, tensor2, value=1). */
static int adapt_addc(conf_call *call)
{
    tsr_tensor *self, *t1, *t2, *out = NULL;
    tsr_scalar value;
    if (!conf_bind_tensor(call, "input", &self) || !conf_bind_tensor(call, "tensor1", &t1) ||
        !conf_bind_tensor(call, "tensor2", &t2) ||
        !conf_arg_scalar_or(call, "value", tsr_scalar_int(1), &value))
        return CONF_BIND_SKIP;
    int st = call->adapter->kernel == TSR_OP_ADDCMUL ? tsr_addcmul(self, t1, t2, value, &out)
                                                     : tsr_addcdiv(self, t1, t2, value, &out);
    return conf_call_return(call, st, out);
}

const conf_adapter conf_bindings_ternary[] = {
    {"lerp", adapt_lerp, TSR_OP_LERP, 0},
    {"addcmul", adapt_addc, TSR_OP_ADDCMUL, 0},
    {"addcdiv", adapt_addc, TSR_OP_ADDCDIV, 0},
};
const size_t conf_bindings_ternary_count =
    sizeof conf_bindings_ternary / sizeof conf_bindings_ternary[0];
