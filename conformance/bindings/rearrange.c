/* Adapters for the copying rearrangements: pad, flip, roll, repeat, tile,
 * repeat_interleave, tril, triu. repeats is an operand; dims, the padding and
 * the options are args. */
#include "bindings/bindings.h"

#include <string.h>

static int adapt_pad(conf_call *call)
{
    tsr_tensor *t, *out = NULL;
    int64_t pad[2 * TSR_MAX_DIMS];
    int npad = 0;
    const char *mode;
    tsr_scalar value;
    if (!conf_bind_tensor(call, "input", &t) || !conf_arg_int_list(call, "pad", pad, &npad) ||
        !conf_arg_string_or(call, "mode", "constant", &mode) ||
        !conf_arg_scalar_or(call, "value", tsr_scalar_float(0), &value))
        return CONF_BIND_SKIP;
    int m = strcmp(mode, "constant") == 0    ? TSR_PAD_CONSTANT
            : strcmp(mode, "reflect") == 0   ? TSR_PAD_REFLECT
            : strcmp(mode, "replicate") == 0 ? TSR_PAD_REPLICATE
            : strcmp(mode, "circular") == 0  ? TSR_PAD_CIRCULAR
                                             : -1;
    int st = tsr_pad(t, pad, npad, m, value, &out);
    return conf_call_return(call, st, out);
}

static int adapt_flip(conf_call *call)
{
    tsr_tensor *t, *out = NULL;
    int64_t dims[TSR_MAX_DIMS];
    int n = 0;
    if (!conf_bind_tensor(call, "input", &t) || !conf_arg_int_list(call, "dims", dims, &n))
        return CONF_BIND_SKIP;
    int st = tsr_flip(t, dims, n, &out);
    return conf_call_return(call, st, out);
}

static int adapt_roll(conf_call *call)
{
    tsr_tensor *t, *out = NULL;
    int64_t shifts[TSR_MAX_DIMS], dims[TSR_MAX_DIMS];
    int nshifts = 0, ndims = 0;
    bool has_dims = conf_arg_present(call, "dims");
    if (!conf_bind_tensor(call, "input", &t) ||
        !conf_arg_int_list(call, "shifts", shifts, &nshifts) ||
        (has_dims && !conf_arg_int_list(call, "dims", dims, &ndims)))
        return CONF_BIND_SKIP;
    int st = tsr_roll(t, shifts, nshifts, dims, ndims, &out);
    return conf_call_return(call, st, out);
}

static int adapt_repeat_tile(conf_call *call)
{
    tsr_tensor *t, *out = NULL;
    int64_t reps[TSR_MAX_DIMS];
    int n = 0;
    bool repeat = strcmp(call->c->op, "repeat") == 0;
    if (!conf_bind_tensor(call, "input", &t) ||
        !conf_arg_int_list(call, repeat ? "repeats" : "dims", reps, &n))
        return CONF_BIND_SKIP;
    int st = repeat ? tsr_repeat(t, reps, n, &out) : tsr_tile(t, reps, n, &out);
    return conf_call_return(call, st, out);
}

static int adapt_repeat_interleave(conf_call *call)
{
    tsr_tensor *t, *out = NULL;
    tsr_operand repeats;
    int64_t dim;
    bool has_dim = conf_arg_present(call, "dim");
    if (!conf_bind_tensor(call, "input", &t) || !conf_bind_operand(call, "repeats", &repeats) ||
        (has_dim && !conf_arg_int(call, "dim", &dim)))
        return CONF_BIND_SKIP;
    const int64_t *d = has_dim ? &dim : NULL;
    int st;
    if (repeats.tensor)
        st = tsr_repeat_interleave_tensor(t, repeats.tensor, d, &out);
    else if (repeats.scalar.kind == TSR_SCALAR_INT)
        st = tsr_repeat_interleave(t, repeats.scalar.v.i, d, &out);
    else
        return CONF_BIND_SKIP;
    return conf_call_return(call, st, out);
}

static int adapt_triangle(conf_call *call)
{
    tsr_tensor *t, *out = NULL;
    int64_t diagonal;
    if (!conf_bind_tensor(call, "input", &t) || !conf_arg_int_or(call, "diagonal", 0, &diagonal))
        return CONF_BIND_SKIP;
    int st = call->adapter->kernel == TSR_OP_TRIL ? tsr_tril(t, diagonal, &out)
                                                  : tsr_triu(t, diagonal, &out);
    return conf_call_return(call, st, out);
}

const conf_adapter conf_bindings_rearrange[] = {
    {"pad", adapt_pad, TSR_OP_INDEX_SELECT, 0},
    {"flip", adapt_flip, TSR_OP_INDEX_SELECT, CONF_ADAPTER_COPY},
    {"roll", adapt_roll, TSR_OP_INDEX_SELECT, CONF_ADAPTER_COPY},
    {"repeat", adapt_repeat_tile, TSR_OP_COPY, CONF_ADAPTER_COPY},
    {"tile", adapt_repeat_tile, TSR_OP_COPY, CONF_ADAPTER_COPY},
    {"repeat_interleave", adapt_repeat_interleave, TSR_OP_COPY, 0},
    {"tril", adapt_triangle, TSR_OP_TRIL, 0},
    {"triu", adapt_triangle, TSR_OP_TRIU, 0},
};
const size_t conf_bindings_rearrange_count =
    sizeof conf_bindings_rearrange / sizeof conf_bindings_rearrange[0];
