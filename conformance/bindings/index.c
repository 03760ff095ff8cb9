/* Adapters for indexing: nonzero, index_select ... one_hot. Index tensors
 * are operands; dim and the options are args. */
#include "bindings/bindings.h"

static int adapt_nonzero(conf_call *call)
{
    tsr_tensor *t, *out = NULL;
    bool as_tuple;
    if (!conf_bind_tensor(call, "input", &t) || !conf_arg_bool_or(call, "as_tuple", false, &as_tuple))
        return CONF_BIND_SKIP;
    if (!as_tuple) {
        int st = tsr_nonzero(t, &out);
        return conf_call_return(call, st, out);
    }
    size_t n = 0;
    tsr_tensor *parts[TSR_MAX_DIMS];
    int st = tsr_nonzero_tuple(t, parts, TSR_MAX_DIMS, &n);
    for (size_t i = 0; i < n && st == TSR_OK; i++)
        st = conf_call_return(call, st, parts[i]);
    return st;
}

static int adapt_index_select_gather(conf_call *call)
{
    tsr_tensor *t, *index, *out = NULL;
    int64_t dim;
    if (!conf_bind_tensor(call, "input", &t) || !conf_bind_tensor(call, "index", &index) ||
        !conf_arg_int(call, "dim", &dim))
        return CONF_BIND_SKIP;
    int st = call->adapter->kernel == TSR_OP_GATHER ? tsr_gather(t, dim, index, &out)
                                                    : tsr_index_select(t, dim, index, &out);
    return conf_call_return(call, st, out);
}

static int adapt_take(conf_call *call)
{
    tsr_tensor *t, *index, *out = NULL;
    if (!conf_bind_tensor(call, "input", &t) || !conf_bind_tensor(call, "index", &index))
        return CONF_BIND_SKIP;
    int st = tsr_take(t, index, &out);
    return conf_call_return(call, st, out);
}

static int adapt_take_along_dim(conf_call *call)
{
    tsr_tensor *t, *indices, *out = NULL;
    int64_t dim;
    bool has_dim = conf_arg_present(call, "dim");
    if (!conf_bind_tensor(call, "input", &t) || !conf_bind_tensor(call, "indices", &indices) ||
        (has_dim && !conf_arg_int(call, "dim", &dim)))
        return CONF_BIND_SKIP;
    int st = tsr_take_along_dim(t, indices, has_dim ? &dim : NULL, &out);
    return conf_call_return(call, st, out);
}

/* F.embedding(input, weight, padding_idx, max_norm, norm_type,
 * scale_grad_by_freq, sparse). With max_norm the renormalisation writes
 * weight: the adapter hands tsr_embedding_ex a copy (the runner requires
 * inputs unchanged) and returns it after the lookup, as the cases record. */
static int adapt_embedding(conf_call *call)
{
    tsr_tensor *indices, *weight, *out = NULL, *copy = NULL;
    int64_t padding_idx;
    double max_norm, norm_type;
    bool scale_grad_by_freq, sparse;
    bool has_padding = conf_arg_present(call, "padding_idx");
    bool has_max_norm = conf_arg_present(call, "max_norm");
    if (!conf_bind_tensor(call, "input", &indices) || !conf_bind_tensor(call, "weight", &weight) ||
        (has_padding && !conf_arg_int(call, "padding_idx", &padding_idx)) ||
        (has_max_norm && !conf_arg_double_or(call, "max_norm", 0, &max_norm)) ||
        !conf_arg_double_or(call, "norm_type", 2.0, &norm_type) ||
        !conf_arg_bool_or(call, "scale_grad_by_freq", false, &scale_grad_by_freq) ||
        !conf_arg_bool_or(call, "sparse", false, &sparse))
        return CONF_BIND_SKIP;
    const int64_t *padding = has_padding ? &padding_idx : NULL;
    if (!has_max_norm) {
        int st = tsr_embedding_ex(indices, weight, padding, NULL, norm_type, scale_grad_by_freq,
                                  sparse, &out);
        return conf_call_return(call, st, out);
    }
    int st = tsr_clone(weight, &copy);
    if (st == TSR_OK)
        st = tsr_embedding_ex(indices, copy, padding, &max_norm, norm_type, scale_grad_by_freq,
                              sparse, &out);
    if (st != TSR_OK) {
        tsr_tensor_release(copy);
        return st;
    }
    return conf_call_return_pair(call, st, out, copy);
}

static int adapt_one_hot(conf_call *call)
{
    tsr_tensor *t, *out = NULL;
    int64_t classes;
    if (!conf_bind_tensor(call, "input", &t) || !conf_arg_int_or(call, "num_classes", -1, &classes))
        return CONF_BIND_SKIP;
    int st = tsr_one_hot(t, classes, &out);
    return conf_call_return(call, st, out);
}

const conf_adapter conf_bindings_index[] = {
    {"nonzero", adapt_nonzero, TSR_OP_NONZERO, 0},
    {"index_select", adapt_index_select_gather, TSR_OP_INDEX_SELECT, 0},
    {"gather", adapt_index_select_gather, TSR_OP_GATHER, 0},
    {"take", adapt_take, TSR_OP_GATHER, 0},
    {"take_along_dim", adapt_take_along_dim, TSR_OP_GATHER, 0},
    {"embedding", adapt_embedding, TSR_OP_INDEX_SELECT, 0},
    {"one_hot", adapt_one_hot, TSR_OP_EQ, 0},
};
const size_t conf_bindings_index_count = sizeof conf_bindings_index / sizeof conf_bindings_index[0];
