/* Adapters for the scatters and their in-place forms: scatter ...
 * index_copy_. Index tensors, src, source and value are operands; dim and the
 * options are args. */
#include "bindings/bindings.h"

#include <string.h>

/* scatter's deprecated reduce= names; -1 for anything else, which the
 * library refuses as PyTorch does. */
static int scatter_reduce_name(const char *name)
{
    if (!name)
        return TSR_REDUCE_NONE;
    if (strcmp(name, "add") == 0)
        return TSR_REDUCE_SUM;
    if (strcmp(name, "multiply") == 0)
        return TSR_REDUCE_PROD;
    return -1;
}

/* scatter_reduce's names. */
static int reduce_name(const char *name)
{
    static const char *const names[] = {"sum", "prod", "mean", "amax", "amin"};
    for (int i = 0; i < 5; i++) {
        if (strcmp(name, names[i]) == 0)
            return TSR_REDUCE_SUM + i;
    }
    return -1;
}

static int adapt_scatter(conf_call *call)
{
    tsr_tensor *t, *index, *out = NULL;
    tsr_operand src = {0};
    bool has_src = false, has_value = false;
    tsr_operand value = {0};
    int64_t dim;
    const char *reduce;
    if (!conf_bind_tensor(call, "input", &t) || !conf_bind_tensor(call, "index", &index) ||
        !conf_bind_operand_opt(call, "src", &src, &has_src) ||
        !conf_bind_operand_opt(call, "value", &value, &has_value) ||
        !conf_arg_int(call, "dim", &dim) || !conf_arg_string_or(call, "reduce", NULL, &reduce))
        return CONF_BIND_SKIP;
    if (has_src == has_value || (has_src && !src.tensor) || (has_value && value.tensor))
        return CONF_BIND_SKIP;
    int r = scatter_reduce_name(reduce);
    bool inplace = call->adapter->flags & CONF_ADAPTER_INPLACE;
    int st;
    if (inplace) {
        st = has_src ? tsr_scatter_(t, dim, index, src.tensor, r)
                     : tsr_scatter_value_(t, dim, index, value.scalar, r);
        return conf_call_return_self(call, st, t);
    }
    st = has_src ? tsr_scatter(t, dim, index, src.tensor, r, &out)
                 : tsr_scatter_value(t, dim, index, value.scalar, r, &out);
    return conf_call_return(call, st, out);
}

static int adapt_scatter_add(conf_call *call)
{
    tsr_tensor *t, *index, *src, *out = NULL;
    int64_t dim;
    if (!conf_bind_tensor(call, "input", &t) || !conf_bind_tensor(call, "index", &index) ||
        !conf_bind_tensor(call, "src", &src) || !conf_arg_int(call, "dim", &dim))
        return CONF_BIND_SKIP;
    if (call->adapter->flags & CONF_ADAPTER_INPLACE)
        return conf_call_return_self(call, tsr_scatter_add_(t, dim, index, src), t);
    int st = tsr_scatter_add(t, dim, index, src, &out);
    return conf_call_return(call, st, out);
}

static int adapt_scatter_reduce(conf_call *call)
{
    tsr_tensor *t, *index, *src, *out = NULL;
    int64_t dim;
    const char *reduce;
    bool include_self;
    if (!conf_bind_tensor(call, "input", &t) || !conf_bind_tensor(call, "index", &index) ||
        !conf_bind_tensor(call, "src", &src) || !conf_arg_int(call, "dim", &dim) ||
        !conf_arg_string_or(call, "reduce", "", &reduce) ||
        !conf_arg_bool_or(call, "include_self", true, &include_self))
        return CONF_BIND_SKIP;
    int st = tsr_scatter_reduce(t, dim, index, src, reduce_name(reduce), include_self, &out);
    return conf_call_return(call, st, out);
}

static int adapt_index_add_copy(conf_call *call)
{
    tsr_tensor *t, *index, *source, *out = NULL;
    int64_t dim;
    tsr_scalar alpha = tsr_scalar_int(1);
    bool add = call->adapter->kernel == TSR_OP_INDEX_ADD;
    if (!conf_bind_tensor(call, "input", &t) || !conf_bind_tensor(call, "index", &index) ||
        !conf_bind_tensor(call, "source", &source) || !conf_arg_int(call, "dim", &dim) ||
        (add && !conf_arg_scalar_or(call, "alpha", tsr_scalar_int(1), &alpha)))
        return CONF_BIND_SKIP;
    int st;
    if (call->adapter->flags & CONF_ADAPTER_INPLACE) {
        st = add ? tsr_index_add_(t, dim, index, source, alpha)
                 : tsr_index_copy_(t, dim, index, source);
        return conf_call_return_self(call, st, t);
    }
    st = add ? tsr_index_add(t, dim, index, source, alpha, &out)
             : tsr_index_copy(t, dim, index, source, &out);
    return conf_call_return(call, st, out);
}

const conf_adapter conf_bindings_scatter[] = {
    {"scatter", adapt_scatter, TSR_OP_SCATTER, 0},
    {"scatter_", adapt_scatter, TSR_OP_SCATTER, CONF_ADAPTER_INPLACE},
    {"scatter_add", adapt_scatter_add, TSR_OP_SCATTER, 0},
    {"scatter_add_", adapt_scatter_add, TSR_OP_SCATTER, CONF_ADAPTER_INPLACE},
    {"scatter_reduce", adapt_scatter_reduce, TSR_OP_SCATTER, 0},
    {"index_add", adapt_index_add_copy, TSR_OP_INDEX_ADD, 0},
    {"index_add_", adapt_index_add_copy, TSR_OP_INDEX_ADD, CONF_ADAPTER_INPLACE},
    {"index_copy", adapt_index_add_copy, TSR_OP_INDEX_COPY, 0},
    {"index_copy_", adapt_index_add_copy, TSR_OP_INDEX_COPY, CONF_ADAPTER_INPLACE},
};
const size_t conf_bindings_scatter_count =
    sizeof conf_bindings_scatter / sizeof conf_bindings_scatter[0];
