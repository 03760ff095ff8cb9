/* Adapters for joining and splitting: cat ... vstack (a `tensors` list
 * operand), split, chunk and unbind (one output per piece). */
#include "bindings/bindings.h"

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
