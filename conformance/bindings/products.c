/* Adapters for the products: matmul, mm, bmm, dot, vdot, outer, addmm,
 * baddbmm, einsum, tensordot. The second operand's name is PyTorch 1.13's
 * keyword for it (other, mat2, tensor, vec2). */
#include "bindings/bindings.h"

#include "common/json_values.h"

#include <stdio.h>
#include <string.h>

typedef tsr_status (*product_fn)(const tsr_tensor *, const tsr_tensor *, tsr_tensor **);

static int binary_product(conf_call *call, const char *second, product_fn fn)
{
    tsr_tensor *a, *b, *out = NULL;
    if (!conf_bind_tensor(call, "input", &a) || !conf_bind_tensor(call, second, &b))
        return CONF_BIND_SKIP;
    int st = fn(a, b, &out);
    return conf_call_return(call, st, out);
}

static int adapt_matmul(conf_call *call)
{
    return binary_product(call, "other", tsr_matmul);
}

static int adapt_mm(conf_call *call)
{
    return binary_product(call, "mat2", tsr_mm);
}

static int adapt_bmm(conf_call *call)
{
    return binary_product(call, "mat2", tsr_bmm);
}

static int adapt_dot(conf_call *call)
{
    return binary_product(call, "tensor", tsr_dot);
}

static int adapt_vdot(conf_call *call)
{
    return binary_product(call, "other", tsr_vdot);
}

static int adapt_outer(conf_call *call)
{
    return binary_product(call, "vec2", tsr_outer);
}

typedef tsr_status (*add_product_fn)(const tsr_tensor *, const tsr_tensor *, const tsr_tensor *,
                                     tsr_scalar, tsr_scalar, tsr_tensor **);

/* torch.addmm(input, mat1, mat2, beta=1, alpha=1) and baddbmm with batch1, batch2. */
static int add_product(conf_call *call, const char *first, const char *second, add_product_fn fn)
{
    tsr_tensor *input, *m1, *m2, *out = NULL;
    tsr_scalar beta, alpha;
    if (!conf_bind_tensor(call, "input", &input) || !conf_bind_tensor(call, first, &m1) ||
        !conf_bind_tensor(call, second, &m2) ||
        !conf_arg_scalar_or(call, "beta", tsr_scalar_int(1), &beta) ||
        !conf_arg_scalar_or(call, "alpha", tsr_scalar_int(1), &alpha))
        return CONF_BIND_SKIP;
    int st = fn(input, m1, m2, beta, alpha, &out);
    return conf_call_return(call, st, out);
}

static int adapt_addmm(conf_call *call)
{
    return add_product(call, "mat1", "mat2", tsr_addmm);
}

static int adapt_baddbmm(conf_call *call)
{
    return add_product(call, "batch1", "batch2", tsr_baddbmm);
}

/* The list input `name` (every tensor of it), marked used. */
static bool bind_tensor_list(conf_call *call, const char *name, tsr_tensor ***list, int *count)
{
    for (int i = 0; i < call->nvalues; i++) {
        conf_value *v = &call->values[i];
        if (strcmp(v->spec->name, name) != 0)
            continue;
        if (v->spec->kind != CONF_INPUT_LIST)
            break;
        v->used = true;
        *list = v->list;
        *count = v->nlist;
        return true;
    }
    snprintf(call->problem, sizeof call->problem, "%s: input '%s' must be a list of tensors",
             call->c->op, name);
    return false;
}

/* torch.einsum(equation, operands). */
static int adapt_einsum(conf_call *call)
{
    tsr_tensor **operands = NULL, *out = NULL;
    int count = 0;
    const char *equation = NULL;
    if (!bind_tensor_list(call, "operands", &operands, &count) ||
        !conf_arg_string_or(call, "equation", NULL, &equation) || !equation)
        return CONF_BIND_SKIP;
    int st = tsr_einsum(equation, (const tsr_tensor *const *)operands, (size_t)count, &out);
    return conf_call_return(call, st, out);
}

/* The arg `name` as its JSON value, marked used; NULL when absent. */
static const cJSON *take_json_arg(conf_call *call, const char *name)
{
    int i = 0;
    const cJSON *arg;
    cJSON_ArrayForEach(arg, call->c->args)
    {
        if (arg->string && strcmp(arg->string, name) == 0) {
            call->args_used[i] = true;
            return arg;
        }
        i++;
    }
    return NULL;
}

/* torch.tensordot(a, b, dims): dims an int, or two lists of dims. */
static int adapt_tensordot(conf_call *call)
{
    tsr_tensor *a, *b, *out = NULL;
    if (!conf_bind_tensor(call, "a", &a) || !conf_bind_tensor(call, "b", &b))
        return CONF_BIND_SKIP;
    const cJSON *dims = take_json_arg(call, "dims");
    int64_t n = 0, da[TSR_MAX_DIMS], db[TSR_MAX_DIMS];
    int na = 0, nb = 0;
    int st;
    if (dims && conf_json_int(dims, &n)) {
        st = tsr_tensordot(a, b, n, &out);
    } else if (cJSON_GetArraySize(dims) == 2 &&
               conf_json_int_list(cJSON_GetArrayItem(dims, 0), da, TSR_MAX_DIMS, &na) &&
               conf_json_int_list(cJSON_GetArrayItem(dims, 1), db, TSR_MAX_DIMS, &nb)) {
        if (na != nb) {
            snprintf(call->problem, sizeof call->problem,
                     "tensordot: dims lists of different lengths are refused by PyTorch's "
                     "argument parsing");
            return CONF_BIND_SKIP;
        }
        st = tsr_tensordot_dims(a, b, na, da, db, &out);
    } else {
        snprintf(call->problem, sizeof call->problem,
                 "tensordot: arg 'dims' is neither an integer nor two lists of integers");
        return CONF_BIND_SKIP;
    }
    return conf_call_return(call, st, out);
}

const conf_adapter conf_bindings_products[] = {
    {"matmul", adapt_matmul, TSR_OP_MATMUL, 0}, {"mm", adapt_mm, TSR_OP_MATMUL, 0},
    {"bmm", adapt_bmm, TSR_OP_MATMUL, 0},       {"dot", adapt_dot, TSR_OP_MATMUL, 0},
    {"vdot", adapt_vdot, TSR_OP_MATMUL, 0},     {"outer", adapt_outer, TSR_OP_MUL, 0},
    {"addmm", adapt_addmm, TSR_OP_MATMUL, 0},   {"baddbmm", adapt_baddbmm, TSR_OP_MATMUL, 0},
    {"einsum", adapt_einsum, TSR_OP_MATMUL, 0}, {"tensordot", adapt_tensordot, TSR_OP_MATMUL, 0},
};
const size_t conf_bindings_products_count =
    sizeof conf_bindings_products / sizeof conf_bindings_products[0];
