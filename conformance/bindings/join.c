/* Adapters for joining and splitting: cat ... vstack (a `tensors` list
 * operand), split, chunk and unbind (one output per piece). */
#include "bindings/bindings.h"

#include <stdio.h>
#include <stdlib.h>
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

/* The split functions count, then fill: a first call with no outputs gives
 * the number of pieces, so any number of them can be recorded. */
typedef int (*split_fn)(const tsr_tensor *t, const int64_t *arg, size_t narg, int64_t dim,
                        tsr_tensor **outs, size_t capacity, size_t *count);

static int split_by_size(const tsr_tensor *t, const int64_t *arg, size_t narg, int64_t dim,
                         tsr_tensor **outs, size_t capacity, size_t *count)
{
    (void)narg;
    return tsr_split(t, arg[0], dim, outs, capacity, count);
}

static int split_by_sections(const tsr_tensor *t, const int64_t *arg, size_t narg, int64_t dim,
                             tsr_tensor **outs, size_t capacity, size_t *count)
{
    (void)capacity;
    *count = narg;
    return outs ? tsr_split_sections(t, arg, narg, dim, outs) : TSR_OK;
}

static int split_chunk(const tsr_tensor *t, const int64_t *arg, size_t narg, int64_t dim,
                       tsr_tensor **outs, size_t capacity, size_t *count)
{
    (void)narg;
    return tsr_chunk(t, arg[0], dim, outs, capacity, count);
}

static int split_unbind(const tsr_tensor *t, const int64_t *arg, size_t narg, int64_t dim,
                        tsr_tensor **outs, size_t capacity, size_t *count)
{
    (void)arg;
    (void)narg;
    return tsr_unbind(t, dim, outs, capacity, count);
}

/* Runs fn and records every piece as an output. */
static int return_pieces(conf_call *call, split_fn fn, const tsr_tensor *t, const int64_t *arg,
                         size_t narg, int64_t dim)
{
    size_t n = 0;
    int st = fn(t, arg, narg, dim, NULL, 0, &n);
    if (st != TSR_OK)
        return st;
    tsr_tensor **pieces = calloc(n + 1, sizeof *pieces);
    if (!pieces)
        return TSR_ERR_OUT_OF_MEMORY;
    st = fn(t, arg, narg, dim, pieces, n, &n);
    for (size_t i = 0; i < n && st == TSR_OK; i++)
        st = conf_call_return(call, st, pieces[i]);
    free(pieces);
    return st;
}

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
    tsr_tensor *t;
    int64_t dim, *sizes = NULL;
    int nsizes = 0;
    bool sections = arg_is_list(call, "split_size_or_sections");
    if (!conf_bind_tensor(call, "tensor", &t) || !conf_arg_int_or(call, "dim", 0, &dim) ||
        !conf_arg_int_array(call, "split_size_or_sections", &sizes, &nsizes)) {
        free(sizes);
        return CONF_BIND_SKIP;
    }
    int st = return_pieces(call, sections ? split_by_sections : split_by_size, t, sizes,
                           (size_t)nsizes, dim);
    free(sizes);
    return st;
}

static int adapt_chunk(conf_call *call)
{
    tsr_tensor *t;
    int64_t chunks, dim;
    if (!conf_bind_tensor(call, "input", &t) || !conf_arg_int(call, "chunks", &chunks) ||
        !conf_arg_int_or(call, "dim", 0, &dim))
        return CONF_BIND_SKIP;
    return return_pieces(call, split_chunk, t, &chunks, 1, dim);
}

static int adapt_unbind(conf_call *call)
{
    tsr_tensor *t;
    int64_t dim;
    if (!conf_bind_tensor(call, "input", &t) || !conf_arg_int_or(call, "dim", 0, &dim))
        return CONF_BIND_SKIP;
    return return_pieces(call, split_unbind, t, NULL, 0, dim);
}

const conf_adapter conf_bindings_join[] = {
    {"cat", adapt_cat_stack, TSR_OP_COPY, 0},
    {"stack", adapt_cat_stack, TSR_OP_COPY, 0},
    {"hstack", adapt_hvstack, TSR_OP_COPY, 0},
    {"vstack", adapt_hvstack, TSR_OP_COPY, 0},
    {"split", adapt_split, -1, 0},
    {"chunk", adapt_chunk, -1, 0},
    {"unbind", adapt_unbind, -1, 0},
};
const size_t conf_bindings_join_count = sizeof conf_bindings_join / sizeof conf_bindings_join[0];
