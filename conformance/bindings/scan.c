/* Adapters for the scans: torch.cumsum, cumprod, logcumsumexp, cummax, cummin.
 * `dtype` is a dtype name. */
#include "bindings/bindings.h"

/* torch.cumsum / cumprod(input, dim, dtype=), logcumsumexp(input, dim). */
static int adapt_cumulative(conf_call *call)
{
    tsr_tensor *t, *out = NULL;
    int64_t dim;
    tsr_dtype dtype = TSR_DTYPE_INFER;
    int kernel = call->adapter->kernel;
    if (!conf_bind_tensor(call, "input", &t) || !conf_arg_int(call, "dim", &dim) ||
        (kernel != TSR_OP_LOGCUMSUMEXP &&
         !conf_arg_dtype_or(call, "dtype", TSR_DTYPE_INFER, &dtype)))
        return CONF_BIND_SKIP;
    int st = kernel == TSR_OP_CUMSUM    ? tsr_cumsum(t, dim, dtype, &out)
             : kernel == TSR_OP_CUMPROD ? tsr_cumprod(t, dim, dtype, &out)
                                        : tsr_logcumsumexp(t, dim, &out);
    return conf_call_return(call, st, out);
}

/* torch.cummax / cummin(input, dim) -> (values, indices). */
static int adapt_running_extreme(conf_call *call)
{
    tsr_tensor *t, *values = NULL, *indices = NULL;
    int64_t dim;
    if (!conf_bind_tensor(call, "input", &t) || !conf_arg_int(call, "dim", &dim))
        return CONF_BIND_SKIP;
    int st = call->adapter->kernel == TSR_OP_CUMMAX ? tsr_cummax(t, dim, &values, &indices)
                                                    : tsr_cummin(t, dim, &values, &indices);
    return conf_call_return_pair(call, st, values, indices);
}

const conf_adapter conf_bindings_scan[] = {
    {"cumsum", adapt_cumulative, TSR_OP_CUMSUM, 0},
    {"cumprod", adapt_cumulative, TSR_OP_CUMPROD, 0},
    {"logcumsumexp", adapt_cumulative, TSR_OP_LOGCUMSUMEXP, 0},
    {"cummax", adapt_running_extreme, TSR_OP_CUMMAX, 0},
    {"cummin", adapt_running_extreme, TSR_OP_CUMMIN, 0},
};
const size_t conf_bindings_scan_count = sizeof conf_bindings_scan / sizeof conf_bindings_scan[0];
