/* Adapters for the indexing and joining family: cat ... vstack (a `tensors`
 * list operand), split, chunk and unbind (one output per piece), the masks,
 * index_select ... one_hot, the scatters and their in-place forms, and the
 * copying rearrangements pad ... triu. Index tensors, src, source, value and
 * repeats are operands; dim and the options are args. */
#include "bindings/bindings.h"

#include "common/json_values.h"

#include <stdio.h>
#include <string.h>

enum { MAX_LIST = 64 };

/* The list operand `name` (marked used). */
static bool bind_list(conf_call *call, const char *name, const tsr_tensor **list, size_t *count)
{
    const conf_input *in = conf_case_input(call->c, name);
    for (int i = 0; in && i < call->nvalues; i++) {
        conf_value *v = &call->values[i];
        if (v->spec != in || in->kind != CONF_INPUT_LIST || v->nlist > MAX_LIST)
            continue;
        v->used = true;
        for (int j = 0; j < v->nlist; j++)
            list[j] = v->list[j];
        *count = (size_t)v->nlist;
        return true;
    }
    snprintf(call->problem, sizeof call->problem, "%s: list input '%s' is missing", call->c->op,
             name);
    return false;
}

/* Whether the arg is written as a JSON list (split's sizes vs. size). */
static bool arg_is_list(conf_call *call, const char *name)
{
    return cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(call->c->args, name));
}

/* Records every piece as an output; pieces beyond the runner's limit are
 * released. */
static int return_pieces(conf_call *call, int st, tsr_tensor **pieces, size_t n)
{
    for (size_t i = 0; i < n && st == TSR_OK; i++)
        conf_call_return(call, st, pieces[i]);
    return st;
}

/* ------------------------------------------------------------------------ */
/* Joining and splitting                                                     */
/* ------------------------------------------------------------------------ */

static int adapt_cat_stack(conf_call *call)
{
    const tsr_tensor *list[MAX_LIST];
    size_t n = 0;
    int64_t dim;
    if (!bind_list(call, "tensors", list, &n) || !conf_arg_int_or(call, "dim", 0, &dim))
        return CONF_BIND_SKIP;
    tsr_tensor *out = NULL;
    int st = strcmp(call->c->op, "stack") == 0 ? tsr_stack(list, n, dim, &out)
                                               : tsr_cat(list, n, dim, &out);
    return conf_call_return(call, st, out);
}

static int adapt_hvstack(conf_call *call)
{
    const tsr_tensor *list[MAX_LIST];
    size_t n = 0;
    if (!bind_list(call, "tensors", list, &n))
        return CONF_BIND_SKIP;
    tsr_tensor *out = NULL;
    int st =
        strcmp(call->c->op, "hstack") == 0 ? tsr_hstack(list, n, &out) : tsr_vstack(list, n, &out);
    return conf_call_return(call, st, out);
}

static int adapt_split(conf_call *call)
{
    tsr_tensor *t, *pieces[CONF_MAX_OUTPUTS];
    int64_t dim, sizes[TSR_MAX_DIMS];
    int nsizes = 0;
    bool sections = arg_is_list(call, "split_size_or_sections");
    if (!conf_bind_tensor(call, "tensor", &t) || !conf_arg_int_or(call, "dim", 0, &dim) ||
        (sections && !conf_arg_int_list(call, "split_size_or_sections", sizes, &nsizes)) ||
        (!sections && !conf_arg_int(call, "split_size_or_sections", &sizes[0])))
        return CONF_BIND_SKIP;
    size_t n = 0;
    int st;
    if (sections) {
        n = (size_t)nsizes;
        st = n <= CONF_MAX_OUTPUTS ? tsr_split_sections(t, sizes, n, dim, pieces)
                                   : TSR_ERR_INVALID_ARGUMENT;
    } else {
        st = tsr_split(t, sizes[0], dim, pieces, CONF_MAX_OUTPUTS, &n);
    }
    return return_pieces(call, st, pieces, n);
}

static int adapt_chunk(conf_call *call)
{
    tsr_tensor *t, *pieces[CONF_MAX_OUTPUTS];
    int64_t chunks, dim;
    if (!conf_bind_tensor(call, "input", &t) || !conf_arg_int(call, "chunks", &chunks) ||
        !conf_arg_int_or(call, "dim", 0, &dim))
        return CONF_BIND_SKIP;
    size_t n = 0;
    int st = tsr_chunk(t, chunks, dim, pieces, CONF_MAX_OUTPUTS, &n);
    return return_pieces(call, st, pieces, n);
}

static int adapt_unbind(conf_call *call)
{
    tsr_tensor *t, *pieces[CONF_MAX_OUTPUTS];
    int64_t dim;
    if (!conf_bind_tensor(call, "input", &t) || !conf_arg_int_or(call, "dim", 0, &dim))
        return CONF_BIND_SKIP;
    size_t n = 0;
    int st = tsr_unbind(t, dim, pieces, CONF_MAX_OUTPUTS, &n);
    return return_pieces(call, st, pieces, n);
}

/* ------------------------------------------------------------------------ */
/* Masks                                                                     */
/* ------------------------------------------------------------------------ */

static int adapt_masked_fill(conf_call *call)
{
    tsr_tensor *t, *mask, *out = NULL;
    tsr_operand value;
    if (!conf_bind_tensor(call, "input", &t) || !conf_bind_tensor(call, "mask", &mask) ||
        !conf_bind_operand(call, "value", &value))
        return CONF_BIND_SKIP;
    if (call->adapter->flags & CONF_ADAPTER_INPLACE)
        return conf_call_return_self(call, tsr_masked_fill_(t, mask, value), t);
    int st = tsr_masked_fill(t, mask, value, &out);
    return conf_call_return(call, st, out);
}

static int adapt_masked_select(conf_call *call)
{
    tsr_tensor *t, *mask, *out = NULL;
    if (!conf_bind_tensor(call, "input", &t) || !conf_bind_tensor(call, "mask", &mask))
        return CONF_BIND_SKIP;
    int st = tsr_masked_select(t, mask, &out);
    return conf_call_return(call, st, out);
}

static int adapt_nonzero(conf_call *call)
{
    tsr_tensor *t, *out = NULL;
    if (!conf_bind_tensor(call, "input", &t))
        return CONF_BIND_SKIP;
    int st = tsr_nonzero(t, &out);
    return conf_call_return(call, st, out);
}

/* ------------------------------------------------------------------------ */
/* Selecting by index                                                        */
/* ------------------------------------------------------------------------ */

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

static int adapt_embedding(conf_call *call)
{
    tsr_tensor *indices, *weight, *out = NULL;
    int64_t padding_idx;
    bool has_padding = conf_arg_present(call, "padding_idx");
    if (!conf_bind_tensor(call, "input", &indices) || !conf_bind_tensor(call, "weight", &weight) ||
        (has_padding && !conf_arg_int(call, "padding_idx", &padding_idx)))
        return CONF_BIND_SKIP;
    int st = tsr_embedding(indices, weight, has_padding ? &padding_idx : NULL, &out);
    return conf_call_return(call, st, out);
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

/* ------------------------------------------------------------------------ */
/* Scattering                                                                */
/* ------------------------------------------------------------------------ */

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

/* ------------------------------------------------------------------------ */
/* Rearranging copies                                                        */
/* ------------------------------------------------------------------------ */

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

const conf_adapter conf_ops_index[] = {
    {"cat", adapt_cat_stack, TSR_OP_COPY, 0},
    {"stack", adapt_cat_stack, TSR_OP_COPY, 0},
    {"hstack", adapt_hvstack, TSR_OP_COPY, 0},
    {"vstack", adapt_hvstack, TSR_OP_COPY, 0},
    {"split", adapt_split, -1, 0},
    {"chunk", adapt_chunk, -1, 0},
    {"unbind", adapt_unbind, -1, 0},
    {"masked_fill", adapt_masked_fill, TSR_OP_WHERE, 0},
    {"masked_fill_", adapt_masked_fill, TSR_OP_WHERE, CONF_ADAPTER_INPLACE},
    {"masked_select", adapt_masked_select, TSR_OP_INDEX_SELECT, 0},
    {"nonzero", adapt_nonzero, TSR_OP_NONZERO, 0},
    {"index_select", adapt_index_select_gather, TSR_OP_INDEX_SELECT, 0},
    {"gather", adapt_index_select_gather, TSR_OP_GATHER, 0},
    {"take", adapt_take, TSR_OP_GATHER, 0},
    {"take_along_dim", adapt_take_along_dim, TSR_OP_GATHER, 0},
    {"embedding", adapt_embedding, TSR_OP_INDEX_SELECT, 0},
    {"one_hot", adapt_one_hot, TSR_OP_EQ, 0},
    {"scatter", adapt_scatter, TSR_OP_SCATTER, 0},
    {"scatter_", adapt_scatter, TSR_OP_SCATTER, CONF_ADAPTER_INPLACE},
    {"scatter_add", adapt_scatter_add, TSR_OP_SCATTER, 0},
    {"scatter_add_", adapt_scatter_add, TSR_OP_SCATTER, CONF_ADAPTER_INPLACE},
    {"scatter_reduce", adapt_scatter_reduce, TSR_OP_SCATTER, 0},
    {"index_add", adapt_index_add_copy, TSR_OP_INDEX_ADD, 0},
    {"index_add_", adapt_index_add_copy, TSR_OP_INDEX_ADD, CONF_ADAPTER_INPLACE},
    {"index_copy", adapt_index_add_copy, TSR_OP_INDEX_COPY, 0},
    {"index_copy_", adapt_index_add_copy, TSR_OP_INDEX_COPY, CONF_ADAPTER_INPLACE},
    {"pad", adapt_pad, TSR_OP_INDEX_SELECT, 0},
    {"flip", adapt_flip, TSR_OP_INDEX_SELECT, CONF_ADAPTER_COPY},
    {"roll", adapt_roll, TSR_OP_INDEX_SELECT, CONF_ADAPTER_COPY},
    {"repeat", adapt_repeat_tile, TSR_OP_COPY, CONF_ADAPTER_COPY},
    {"tile", adapt_repeat_tile, TSR_OP_COPY, CONF_ADAPTER_COPY},
    {"repeat_interleave", adapt_repeat_interleave, TSR_OP_COPY, 0},
    {"tril", adapt_triangle, TSR_OP_TRIL, 0},
    {"triu", adapt_triangle, TSR_OP_TRIU, 0},
};
const size_t conf_ops_index_count = sizeof conf_ops_index / sizeof conf_ops_index[0];
