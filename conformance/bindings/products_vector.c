/* Adapters for the products family's vector and structured products: trace,
 * kron, inner, mv, addmv, addr, addbmm, cross, linalg_cross, linalg_vecdot,
 * linalg_multi_dot, linalg_matrix_power, diag_embed, linalg_vander. Operand
 * names are PyTorch 1.13's keywords; an optional arg that PyTorch takes as
 * None (cross's dim, vander's N) is absent from the case. */
#include "bindings/bindings.h"

#include <stdio.h>
#include <string.h>

typedef tsr_status (*unary_fn)(const tsr_tensor *, tsr_tensor **);
typedef tsr_status (*binary_fn)(const tsr_tensor *, const tsr_tensor *, tsr_tensor **);
typedef tsr_status (*add_fn)(const tsr_tensor *, const tsr_tensor *, const tsr_tensor *, tsr_scalar,
                             tsr_scalar, tsr_tensor **);

static int binary(conf_call *call, const char *first, const char *second, binary_fn fn)
{
    tsr_tensor *a, *b, *out = NULL;
    if (!conf_bind_tensor(call, first, &a) || !conf_bind_tensor(call, second, &b))
        return CONF_BIND_SKIP;
    int st = fn(a, b, &out);
    return conf_call_return(call, st, out);
}

/* input + two operands, with beta and alpha (default 1). */
static int add_product(conf_call *call, const char *first, const char *second, add_fn fn)
{
    tsr_tensor *input, *a, *b, *out = NULL;
    tsr_scalar beta, alpha;
    if (!conf_bind_tensor(call, "input", &input) || !conf_bind_tensor(call, first, &a) ||
        !conf_bind_tensor(call, second, &b) ||
        !conf_arg_scalar_or(call, "beta", tsr_scalar_int(1), &beta) ||
        !conf_arg_scalar_or(call, "alpha", tsr_scalar_int(1), &alpha))
        return CONF_BIND_SKIP;
    int st = fn(input, a, b, beta, alpha, &out);
    return conf_call_return(call, st, out);
}

static int adapt_trace(conf_call *call)
{
    tsr_tensor *t, *out = NULL;
    if (!conf_bind_tensor(call, "input", &t))
        return CONF_BIND_SKIP;
    int st = tsr_trace(t, &out);
    return conf_call_return(call, st, out);
}

static int adapt_kron(conf_call *call)
{
    return binary(call, "input", "other", tsr_kron);
}

static int adapt_inner(conf_call *call)
{
    return binary(call, "input", "other", tsr_inner);
}

static int adapt_mv(conf_call *call)
{
    return binary(call, "input", "vec", tsr_mv);
}

static int adapt_addmv(conf_call *call)
{
    return add_product(call, "mat", "vec", tsr_addmv);
}

static int adapt_addr(conf_call *call)
{
    return add_product(call, "vec1", "vec2", tsr_addr);
}

static int adapt_addbmm(conf_call *call)
{
    return add_product(call, "batch1", "batch2", tsr_addbmm);
}

/* torch.cross(input, other, dim=None) and linalg.cross(..., dim=-1). */
static int adapt_cross(conf_call *call)
{
    bool linalg = strcmp(call->c->op, "linalg_cross") == 0;
    tsr_tensor *a, *b, *out = NULL;
    int64_t dim = -1;
    if (!conf_bind_tensor(call, "input", &a) || !conf_bind_tensor(call, "other", &b))
        return CONF_BIND_SKIP;
    bool given = conf_arg_present(call, "dim");
    if (given && !conf_arg_int(call, "dim", &dim))
        return CONF_BIND_SKIP;
    int st =
        linalg ? tsr_linalg_cross(a, b, dim, &out) : tsr_cross(a, b, given ? &dim : NULL, &out);
    return conf_call_return(call, st, out);
}

static int adapt_vecdot(conf_call *call)
{
    tsr_tensor *x, *y, *out = NULL;
    int64_t dim = -1;
    if (!conf_bind_tensor(call, "x", &x) || !conf_bind_tensor(call, "y", &y) ||
        !conf_arg_int_or(call, "dim", -1, &dim))
        return CONF_BIND_SKIP;
    int st = tsr_linalg_vecdot(x, y, dim, &out);
    return conf_call_return(call, st, out);
}

/* The list input `name` (every tensor of it), marked used. */
static bool bind_tensor_list(conf_call *call, const char *name, tsr_tensor ***list, int *count)
{
    for (int i = 0; i < call->nvalues; i++) {
        conf_value *v = &call->values[i];
        if (strcmp(v->spec->name, name) != 0 || v->spec->kind != CONF_INPUT_LIST)
            continue;
        v->used = true;
        *list = v->list;
        *count = v->nlist;
        return true;
    }
    snprintf(call->problem, sizeof call->problem, "%s: input '%s' must be a list of tensors",
             call->c->op, name);
    return false;
}

static int adapt_multi_dot(conf_call *call)
{
    tsr_tensor **tensors = NULL, *out = NULL;
    int count = 0;
    if (!bind_tensor_list(call, "tensors", &tensors, &count))
        return CONF_BIND_SKIP;
    int st = tsr_linalg_multi_dot((const tsr_tensor *const *)tensors, (size_t)count, &out);
    return conf_call_return(call, st, out);
}

static int adapt_matrix_power(conf_call *call)
{
    tsr_tensor *a, *out = NULL;
    int64_t n = 0;
    if (!conf_bind_tensor(call, "input", &a) || !conf_arg_int(call, "n", &n))
        return CONF_BIND_SKIP;
    int st = tsr_linalg_matrix_power(a, n, &out);
    return conf_call_return(call, st, out);
}

static int adapt_diag_embed(conf_call *call)
{
    tsr_tensor *t, *out = NULL;
    int64_t offset, dim1, dim2;
    if (!conf_bind_tensor(call, "input", &t) || !conf_arg_int_or(call, "offset", 0, &offset) ||
        !conf_arg_int_or(call, "dim1", -2, &dim1) || !conf_arg_int_or(call, "dim2", -1, &dim2))
        return CONF_BIND_SKIP;
    int st = tsr_diag_embed(t, offset, dim1, dim2, &out);
    return conf_call_return(call, st, out);
}

static int adapt_vander(conf_call *call)
{
    tsr_tensor *x, *out = NULL;
    int64_t n = 0;
    if (!conf_bind_tensor(call, "x", &x))
        return CONF_BIND_SKIP;
    bool given = conf_arg_present(call, "N");
    if (given && !conf_arg_int(call, "N", &n))
        return CONF_BIND_SKIP;
    int st = tsr_linalg_vander(x, given ? &n : NULL, &out);
    return conf_call_return(call, st, out);
}

const conf_adapter conf_bindings_products_vector[] = {
    {"trace", adapt_trace, TSR_OP_SUM, 0},
    {"kron", adapt_kron, TSR_OP_MUL, 0},
    {"inner", adapt_inner, TSR_OP_MATMUL, 0},
    {"mv", adapt_mv, TSR_OP_MATMUL, 0},
    {"addmv", adapt_addmv, TSR_OP_MATMUL, 0},
    {"addr", adapt_addr, TSR_OP_MUL, 0},
    {"addbmm", adapt_addbmm, TSR_OP_MATMUL, 0},
    {"cross", adapt_cross, TSR_OP_MUL, 0},
    {"linalg_cross", adapt_cross, TSR_OP_MUL, 0},
    {"linalg_vecdot", adapt_vecdot, TSR_OP_SUM, 0},
    {"linalg_multi_dot", adapt_multi_dot, TSR_OP_MATMUL, 0},
    {"linalg_matrix_power", adapt_matrix_power, TSR_OP_MATMUL, 0},
    {"diag_embed", adapt_diag_embed, TSR_OP_COPY, 0},
    {"linalg_vander", adapt_vander, TSR_OP_CUMPROD, 0},
};
const size_t conf_bindings_products_vector_count =
    sizeof conf_bindings_products_vector / sizeof conf_bindings_products_vector[0];
