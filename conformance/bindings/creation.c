/* Adapters for the factory functions: torch.zeros ... torch.eye. Where the
 * case gives no dtype the runner infers PyTorch's (the C API always takes one). */
#include "bindings/bindings.h"

#include <string.h>

/* torch.zeros / torch.ones(size, dtype=float32). */
static int adapt_zeros_ones(conf_call *call)
{
    int64_t shape[TSR_MAX_DIMS];
    int ndim = 0;
    tsr_dtype dtype;
    if (!conf_arg_int_list(call, "size", shape, &ndim) ||
        !conf_arg_dtype_or(call, "dtype", TSR_FLOAT32, &dtype))
        return CONF_BIND_SKIP;
    tsr_tensor *out = NULL;
    int st = strcmp(call->adapter->op, "zeros") == 0
                 ? tsr_zeros(ndim, shape, dtype, call->backend, &out)
                 : tsr_ones(ndim, shape, dtype, call->backend, &out);
    return conf_call_return(call, st, out);
}

/* The dtype torch infers from a Python scalar: bool, int64, float32 (the
 * default dtype) or complex64. */
static tsr_dtype scalar_default_dtype(tsr_scalar s)
{
    switch (s.kind) {
    case TSR_SCALAR_BOOL:
        return TSR_BOOL;
    case TSR_SCALAR_INT:
        return TSR_INT64;
    case TSR_SCALAR_FLOAT:
        return TSR_FLOAT32;
    default:
        return TSR_COMPLEX64;
    }
}

static int adapt_full(conf_call *call)
{
    int64_t shape[TSR_MAX_DIMS];
    int ndim = 0;
    tsr_scalar value;
    tsr_dtype dtype;
    if (!conf_arg_int_list(call, "size", shape, &ndim) ||
        !conf_arg_scalar(call, "fill_value", &value) ||
        !conf_arg_dtype_or(call, "dtype", scalar_default_dtype(value), &dtype))
        return CONF_BIND_SKIP;
    tsr_tensor *out = NULL;
    int st = tsr_full(ndim, shape, value, dtype, call->backend, &out);
    return conf_call_return(call, st, out);
}

/* torch.arange(start=0, end, step=1): int64 unless an argument is a float. */
static int adapt_arange(conf_call *call)
{
    tsr_scalar start, end, step;
    tsr_dtype dtype;
    if (!conf_arg_scalar_or(call, "start", tsr_scalar_int(0), &start) ||
        !conf_arg_scalar(call, "end", &end) ||
        !conf_arg_scalar_or(call, "step", tsr_scalar_int(1), &step))
        return CONF_BIND_SKIP;
    bool any_float = start.kind == TSR_SCALAR_FLOAT || end.kind == TSR_SCALAR_FLOAT ||
                     step.kind == TSR_SCALAR_FLOAT;
    if (!conf_arg_dtype_or(call, "dtype", any_float ? TSR_FLOAT32 : TSR_INT64, &dtype))
        return CONF_BIND_SKIP;
    tsr_tensor *out = NULL;
    int st = tsr_arange(start, end, step, dtype, call->backend, &out);
    return conf_call_return(call, st, out);
}

static int adapt_linspace(conf_call *call)
{
    tsr_scalar start, end;
    int64_t steps;
    tsr_dtype dtype;
    if (!conf_arg_scalar(call, "start", &start) || !conf_arg_scalar(call, "end", &end) ||
        !conf_arg_int(call, "steps", &steps) ||
        !conf_arg_dtype_or(call, "dtype", TSR_FLOAT32, &dtype))
        return CONF_BIND_SKIP;
    tsr_tensor *out = NULL;
    int st = tsr_linspace(start, end, steps, dtype, call->backend, &out);
    return conf_call_return(call, st, out);
}

static int adapt_eye(conf_call *call)
{
    int64_t n, m;
    tsr_dtype dtype;
    if (!conf_arg_int(call, "n", &n) || !conf_arg_int_or(call, "m", -1, &m) ||
        !conf_arg_dtype_or(call, "dtype", TSR_FLOAT32, &dtype))
        return CONF_BIND_SKIP;
    tsr_tensor *out = NULL;
    int st = tsr_eye(n, m, dtype, call->backend, &out);
    return conf_call_return(call, st, out);
}

const conf_adapter conf_bindings_creation[] = {
    {"zeros", adapt_zeros_ones, TSR_OP_FILL, 0}, {"ones", adapt_zeros_ones, TSR_OP_FILL, 0},
    {"full", adapt_full, TSR_OP_FILL, 0},        {"arange", adapt_arange, -1, 0},
    {"linspace", adapt_linspace, -1, 0},         {"eye", adapt_eye, -1, 0},
};
const size_t conf_bindings_creation_count =
    sizeof conf_bindings_creation / sizeof conf_bindings_creation[0];
