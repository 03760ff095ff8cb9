/* Adapters for the copies: Tensor.to(dtype), Tensor.copy_, contiguous, clone.
 * clone never returns a view; the flags make the runner check that as well
 * as the values.
 *
 * Three tables, not one: the adapters' order is the order of --list-ops and
 * of the differential mode's rotation over ops (a seed and case index name
 * an op through it), and these four have always sat where these tables do:
 * `to` after the elementwise ops, copy_ after the in-place ones, contiguous
 * and clone after the views (bind.c). */
#include "bindings/bindings.h"

/* Tensor.to(dtype). */
static int adapt_to(conf_call *call)
{
    tsr_tensor *t, *out = NULL;
    tsr_dtype dtype;
    if (!conf_bind_tensor(call, "self", &t) || !conf_arg_present(call, "dtype") ||
        !conf_arg_dtype_or(call, "dtype", TSR_FLOAT32, &dtype))
        return CONF_BIND_SKIP;
    int st = tsr_to_dtype(t, dtype, &out);
    return conf_call_return(call, st, out);
}

static int adapt_copy_(conf_call *call)
{
    tsr_tensor *self, *src;
    if (!conf_bind_tensor(call, "self", &self) || !conf_bind_tensor(call, "src", &src))
        return CONF_BIND_SKIP;
    int st = tsr_copy_(self, src);
    return conf_call_return_self(call, st, self);
}

static int adapt_contiguous(conf_call *call)
{
    tsr_tensor *t, *out = NULL;
    if (!conf_bind_tensor(call, "self", &t))
        return CONF_BIND_SKIP;
    int st = tsr_contiguous(t, &out);
    return conf_call_return(call, st, out);
}

static int adapt_clone(conf_call *call)
{
    tsr_tensor *t, *out = NULL;
    if (!conf_bind_tensor(call, "input", &t))
        return CONF_BIND_SKIP;
    int st = tsr_clone(t, &out);
    return conf_call_return(call, st, out);
}

const conf_adapter conf_bindings_copy_to[] = {
    {"to", adapt_to, TSR_OP_COPY, 0},
};
const size_t conf_bindings_copy_to_count =
    sizeof conf_bindings_copy_to / sizeof conf_bindings_copy_to[0];

const conf_adapter conf_bindings_copy_inplace[] = {
    {"copy_", adapt_copy_, TSR_OP_COPY, CONF_ADAPTER_INPLACE},
};
const size_t conf_bindings_copy_inplace_count =
    sizeof conf_bindings_copy_inplace / sizeof conf_bindings_copy_inplace[0];

const conf_adapter conf_bindings_copy[] = {
    {"contiguous", adapt_contiguous, TSR_OP_COPY, 0},
    {"clone", adapt_clone, TSR_OP_COPY, CONF_ADAPTER_COPY},
};
const size_t conf_bindings_copy_count = sizeof conf_bindings_copy / sizeof conf_bindings_copy[0];
