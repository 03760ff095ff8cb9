/* Adapters for F.softmax and F.log_softmax. */
#include "bindings/bindings.h"

/* F.softmax / F.log_softmax(input, dim, dtype=None). */
static int adapt_softmax(conf_call *call)
{
    tsr_tensor *t, *out = NULL;
    int64_t dim;
    tsr_dtype dtype;
    if (!conf_bind_tensor(call, "input", &t) || !conf_arg_int(call, "dim", &dim) ||
        !conf_arg_dtype_or(call, "dtype", TSR_DTYPE_INFER, &dtype))
        return CONF_BIND_SKIP;
    int st = call->adapter->kernel == TSR_OP_SOFTMAX ? tsr_softmax(t, dim, dtype, &out)
                                                     : tsr_log_softmax(t, dim, dtype, &out);
    return conf_call_return(call, st, out);
}

const conf_adapter conf_bindings_softmax[] = {
    {"softmax", adapt_softmax, TSR_OP_SOFTMAX, 0},
    {"log_softmax", adapt_softmax, TSR_OP_LOG_SOFTMAX, 0},
};
const size_t conf_bindings_softmax_count =
    sizeof conf_bindings_softmax / sizeof conf_bindings_softmax[0];
