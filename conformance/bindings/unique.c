/* Adapters for the sets: unique, unique_consecutive. The outputs come in
 * PyTorch's order: output, inverse, counts, the last two only when asked for. */
#include "bindings/bindings.h"

#include <string.h>

/* unique and unique_consecutive: output, then inverse and counts when asked. */
static int adapt_unique(conf_call *call)
{
    tsr_tensor *t, *values = NULL, *inverse = NULL, *counts = NULL;
    bool sorted, want_inverse, want_counts;
    int64_t dim;
    bool has_dim = conf_arg_present(call, "dim");
    bool consecutive = strcmp(call->c->op, "unique_consecutive") == 0;
    if (!conf_bind_tensor(call, "input", &t) || (has_dim && !conf_arg_int(call, "dim", &dim)) ||
        (!consecutive && !conf_arg_bool_or(call, "sorted", true, &sorted)) ||
        !conf_arg_bool_or(call, "return_inverse", false, &want_inverse) ||
        !conf_arg_bool_or(call, "return_counts", false, &want_counts))
        return CONF_BIND_SKIP;
    const int64_t *d = has_dim ? &dim : NULL;
    tsr_tensor **inv = want_inverse ? &inverse : NULL, **cnt = want_counts ? &counts : NULL;
    int st = consecutive ? tsr_unique_consecutive(t, d, &values, inv, cnt)
                         : tsr_unique(t, sorted, d, &values, inv, cnt);
    conf_call_return(call, st, values);
    conf_call_return(call, st, inverse);
    return conf_call_return(call, st, counts);
}

const conf_adapter conf_bindings_unique[] = {
    {"unique", adapt_unique, TSR_OP_SORT, 0},
    {"unique_consecutive", adapt_unique, TSR_OP_NE, 0},
};
const size_t conf_bindings_unique_count =
    sizeof conf_bindings_unique / sizeof conf_bindings_unique[0];
