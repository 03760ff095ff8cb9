/* Adapters for sorting: sort, argsort, topk, kthvalue, median, searchsorted,
 * bucketize. Multi-output ops return their outputs in PyTorch's order (values
 * before indices). */
#include "bindings/bindings.h"

#include <string.h>

/* sort(input, dim=-1, descending=False, stable=...): stable=False may order
 * ties any way, so the always-stable sort serves both. */
static int adapt_sort(conf_call *call)
{
    tsr_tensor *t, *values = NULL, *indices = NULL;
    int64_t dim;
    bool descending, stable;
    if (!conf_bind_tensor(call, "input", &t) || !conf_arg_int_or(call, "dim", -1, &dim) ||
        !conf_arg_bool_or(call, "descending", false, &descending) ||
        !conf_arg_bool_or(call, "stable", false, &stable))
        return CONF_BIND_SKIP;
    if (strcmp(call->c->op, "argsort") == 0) {
        int st = tsr_argsort(t, dim, descending, &indices);
        return conf_call_return(call, st, indices);
    }
    int st = tsr_sort(t, dim, descending, &values, &indices);
    return conf_call_return_pair(call, st, values, indices);
}

/* topk's sorted=False leaves the order open; the sorted order is one. */
static int adapt_topk(conf_call *call)
{
    tsr_tensor *t, *values = NULL, *indices = NULL;
    int64_t k, dim;
    bool largest, sorted;
    if (!conf_bind_tensor(call, "input", &t) || !conf_arg_int(call, "k", &k) ||
        !conf_arg_int_or(call, "dim", -1, &dim) ||
        !conf_arg_bool_or(call, "largest", true, &largest) ||
        !conf_arg_bool_or(call, "sorted", true, &sorted))
        return CONF_BIND_SKIP;
    int st = tsr_topk(t, k, dim, largest, &values, &indices);
    return conf_call_return_pair(call, st, values, indices);
}

static int adapt_kthvalue(conf_call *call)
{
    tsr_tensor *t, *values = NULL, *indices = NULL;
    int64_t k, dim;
    bool keepdim;
    if (!conf_bind_tensor(call, "input", &t) || !conf_arg_int(call, "k", &k) ||
        !conf_arg_int_or(call, "dim", -1, &dim) ||
        !conf_arg_bool_or(call, "keepdim", false, &keepdim))
        return CONF_BIND_SKIP;
    int st = tsr_kthvalue(t, k, dim, keepdim, &values, &indices);
    return conf_call_return_pair(call, st, values, indices);
}

/* median(input) gives one value; median(input, dim, keepdim) two outputs. */
static int adapt_median(conf_call *call)
{
    tsr_tensor *t, *values = NULL, *indices = NULL;
    int64_t dim;
    bool keepdim;
    bool has_dim = conf_arg_present(call, "dim");
    if (!conf_bind_tensor(call, "input", &t) || (has_dim && !conf_arg_int(call, "dim", &dim)) ||
        !conf_arg_bool_or(call, "keepdim", false, &keepdim))
        return CONF_BIND_SKIP;
    if (!has_dim) {
        int st = tsr_median(t, &values);
        return conf_call_return(call, st, values);
    }
    int st = tsr_median_dim(t, dim, keepdim, &values, &indices);
    return conf_call_return_pair(call, st, values, indices);
}

static int adapt_searchsorted(conf_call *call)
{
    tsr_tensor *seq, *out = NULL;
    tsr_operand values, sorter = {0};
    bool right, out_int32, has_sorter = false;
    const char *side;
    if (!conf_bind_tensor(call, "sorted_sequence", &seq) ||
        !conf_bind_operand(call, "input", &values) ||
        !conf_bind_operand_opt(call, "sorter", &sorter, &has_sorter) ||
        !conf_arg_bool_or(call, "out_int32", false, &out_int32) ||
        !conf_arg_bool_or(call, "right", false, &right) ||
        !conf_arg_string_or(call, "side", NULL, &side))
        return CONF_BIND_SKIP;
    if (has_sorter && !sorter.tensor)
        return CONF_BIND_SKIP;
    int st = tsr_searchsorted(seq, values, out_int32, right, side, sorter.tensor, &out);
    return conf_call_return(call, st, out);
}

static int adapt_bucketize(conf_call *call)
{
    tsr_tensor *boundaries, *out = NULL;
    tsr_operand input;
    bool right, out_int32;
    if (!conf_bind_operand(call, "input", &input) ||
        !conf_bind_tensor(call, "boundaries", &boundaries) ||
        !conf_arg_bool_or(call, "right", false, &right) ||
        !conf_arg_bool_or(call, "out_int32", false, &out_int32))
        return CONF_BIND_SKIP;
    int st = tsr_bucketize(input, boundaries, out_int32, right, &out);
    return conf_call_return(call, st, out);
}

const conf_adapter conf_bindings_sort[] = {
    {"sort", adapt_sort, TSR_OP_SORT, 0},
    {"argsort", adapt_sort, TSR_OP_SORT, 0},
    {"topk", adapt_topk, TSR_OP_SORT, 0},
    {"kthvalue", adapt_kthvalue, TSR_OP_SORT, 0},
    {"median", adapt_median, TSR_OP_SORT, 0},
    {"searchsorted", adapt_searchsorted, TSR_OP_SEARCHSORTED, 0},
    {"bucketize", adapt_bucketize, TSR_OP_SEARCHSORTED, 0},
};
const size_t conf_bindings_sort_count = sizeof conf_bindings_sort / sizeof conf_bindings_sort[0];
