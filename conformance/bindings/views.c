/* Adapters for the movement ops: reshape ... unflatten. PyTorch's view ops
 * always return views; the flags make the runner check that as well as the
 * values. */
#include "bindings/bindings.h"

static int adapt_reshape(conf_call *call)
{
    tsr_tensor *t, *out = NULL;
    int64_t shape[TSR_MAX_DIMS];
    int n = 0;
    if (!conf_bind_tensor(call, "input", &t) || !conf_arg_int_list(call, "shape", shape, &n))
        return CONF_BIND_SKIP;
    int st = tsr_reshape(t, n, shape, &out);
    return conf_call_return(call, st, out);
}

static int adapt_view(conf_call *call)
{
    tsr_tensor *t, *out = NULL;
    int64_t shape[TSR_MAX_DIMS];
    int n = 0;
    if (!conf_bind_tensor(call, "self", &t) || !conf_arg_int_list(call, "size", shape, &n))
        return CONF_BIND_SKIP;
    int st = tsr_view(t, n, shape, &out);
    return conf_call_return(call, st, out);
}

static int adapt_transpose(conf_call *call)
{
    tsr_tensor *t, *out = NULL;
    int64_t d0, d1;
    if (!conf_bind_tensor(call, "input", &t) || !conf_arg_int(call, "dim0", &d0) ||
        !conf_arg_int(call, "dim1", &d1))
        return CONF_BIND_SKIP;
    int st = tsr_transpose(t, d0, d1, &out);
    return conf_call_return(call, st, out);
}

static int adapt_permute(conf_call *call)
{
    tsr_tensor *t, *out = NULL;
    int64_t dims[TSR_MAX_DIMS];
    int n = 0;
    if (!conf_bind_tensor(call, "input", &t) || !conf_arg_int_list(call, "dims", dims, &n))
        return CONF_BIND_SKIP;
    int st = tsr_permute(t, n, dims, &out);
    return conf_call_return(call, st, out);
}

static int adapt_expand(conf_call *call)
{
    tsr_tensor *t, *out = NULL;
    int64_t sizes[TSR_MAX_DIMS];
    int n = 0;
    if (!conf_bind_tensor(call, "self", &t) || !conf_arg_int_list(call, "size", sizes, &n))
        return CONF_BIND_SKIP;
    int st = tsr_expand(t, n, sizes, &out);
    return conf_call_return(call, st, out);
}

static int adapt_narrow(conf_call *call)
{
    tsr_tensor *t, *out = NULL;
    int64_t dim, start, length;
    if (!conf_bind_tensor(call, "input", &t) || !conf_arg_int(call, "dim", &dim) ||
        !conf_arg_int(call, "start", &start) || !conf_arg_int(call, "length", &length))
        return CONF_BIND_SKIP;
    int st = tsr_narrow(t, dim, start, length, &out);
    return conf_call_return(call, st, out);
}

/* torch.squeeze(input) or torch.squeeze(input, dim). */
static int adapt_squeeze(conf_call *call)
{
    tsr_tensor *t, *out = NULL;
    int64_t dim = 0;
    bool has_dim = conf_arg_present(call, "dim");
    if (!conf_bind_tensor(call, "input", &t) || (has_dim && !conf_arg_int(call, "dim", &dim)))
        return CONF_BIND_SKIP;
    int st = has_dim ? tsr_squeeze_dim(t, dim, &out) : tsr_squeeze(t, &out);
    return conf_call_return(call, st, out);
}

static int adapt_unsqueeze(conf_call *call)
{
    tsr_tensor *t, *out = NULL;
    int64_t dim;
    if (!conf_bind_tensor(call, "input", &t) || !conf_arg_int(call, "dim", &dim))
        return CONF_BIND_SKIP;
    int st = tsr_unsqueeze(t, dim, &out);
    return conf_call_return(call, st, out);
}

static int adapt_diagonal(conf_call *call)
{
    tsr_tensor *t, *out = NULL;
    int64_t offset, dim1, dim2;
    if (!conf_bind_tensor(call, "input", &t) || !conf_arg_int_or(call, "offset", 0, &offset) ||
        !conf_arg_int_or(call, "dim1", 0, &dim1) || !conf_arg_int_or(call, "dim2", 1, &dim2))
        return CONF_BIND_SKIP;
    int st = tsr_diagonal(t, offset, dim1, dim2, &out);
    return conf_call_return(call, st, out);
}

static int adapt_flatten(conf_call *call)
{
    tsr_tensor *t, *out = NULL;
    int64_t start, end;
    if (!conf_bind_tensor(call, "input", &t) || !conf_arg_int_or(call, "start_dim", 0, &start) ||
        !conf_arg_int_or(call, "end_dim", -1, &end))
        return CONF_BIND_SKIP;
    int st = tsr_flatten(t, start, end, &out);
    return conf_call_return(call, st, out);
}

static int adapt_unflatten(conf_call *call)
{
    tsr_tensor *t, *out = NULL;
    int64_t dim, sizes[TSR_MAX_DIMS];
    int n = 0;
    if (!conf_bind_tensor(call, "self", &t) || !conf_arg_int(call, "dim", &dim) ||
        !conf_arg_int_list(call, "sizes", sizes, &n))
        return CONF_BIND_SKIP;
    int st = tsr_unflatten(t, dim, n, sizes, &out);
    return conf_call_return(call, st, out);
}

const conf_adapter conf_bindings_views[] = {
    {"reshape", adapt_reshape, TSR_OP_COPY, 0},
    {"view", adapt_view, -1, CONF_ADAPTER_VIEW},
    {"transpose", adapt_transpose, -1, CONF_ADAPTER_VIEW},
    {"permute", adapt_permute, -1, CONF_ADAPTER_VIEW},
    {"expand", adapt_expand, -1, CONF_ADAPTER_VIEW},
    {"narrow", adapt_narrow, -1, CONF_ADAPTER_VIEW},
    {"squeeze", adapt_squeeze, -1, CONF_ADAPTER_VIEW},
    {"unsqueeze", adapt_unsqueeze, -1, CONF_ADAPTER_VIEW},
    {"diagonal", adapt_diagonal, -1, CONF_ADAPTER_VIEW},
    {"flatten", adapt_flatten, TSR_OP_COPY, 0},
    {"unflatten", adapt_unflatten, -1, CONF_ADAPTER_VIEW},
};
const size_t conf_bindings_views_count = sizeof conf_bindings_views / sizeof conf_bindings_views[0];
