/* The product bound: gamma_K * sum |a_i b_i| per result element, from the
 * same adapter run on |inputs| in float64. */
#include "differential/bound.h"

#include "common/json_values.h"
#include "golden/runner.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Where each product op's K (the terms summed into one element) comes from:
 * the last dim of an input, or (for ops whose contraction the adapter does
 * not name) the element count of the largest operand, which no contraction
 * exceeds. `extra` counts the roundings around the sum: alpha's and beta's
 * products and the added term of addmm-like ops, linear's bias. */
typedef enum { TERMS_ONE, TERMS_LAST_DIM, TERMS_NUMEL } terms_from;

static const struct product_op {
    const char *op;
    terms_from from;
    const char *input;
    int extra;
} product_ops[] = {
    {"matmul", TERMS_LAST_DIM, "input", 0}, {"mm", TERMS_LAST_DIM, "input", 0},
    {"bmm", TERMS_LAST_DIM, "input", 0},    {"dot", TERMS_LAST_DIM, "input", 0},
    {"vdot", TERMS_LAST_DIM, "input", 0},   {"outer", TERMS_ONE, NULL, 0},
    {"addmm", TERMS_LAST_DIM, "mat1", 3},   {"baddbmm", TERMS_LAST_DIM, "batch1", 3},
    {"linear", TERMS_LAST_DIM, "input", 1}, {"einsum", TERMS_NUMEL, "operands", 0},
    {"tensordot", TERMS_NUMEL, "a", 0},
    /* convolutions sum at most numel(weight) products, then add the bias */
    {"conv1d", TERMS_NUMEL, "weight", 1}, {"conv2d", TERMS_NUMEL, "weight", 1},
    {"conv3d", TERMS_NUMEL, "weight", 1}, {"conv_transpose1d", TERMS_NUMEL, "weight", 1},
    {"conv_transpose2d", TERMS_NUMEL, "weight", 1}, {"conv_transpose3d", TERMS_NUMEL, "weight", 1},
    /* the vector products (products_vector.c); not cross (a difference) nor
     * the chains multi_dot and matrix_power (products of products) */
    {"trace", TERMS_LAST_DIM, "input", 0}, {"inner", TERMS_LAST_DIM, "input", 0},
    {"mv", TERMS_LAST_DIM, "input", 0}, {"addmv", TERMS_LAST_DIM, "mat", 3},
    {"addr", TERMS_ONE, NULL, 3}, {"addbmm", TERMS_NUMEL, "batch1", 3},
    {"linalg_vecdot", TERMS_NUMEL, "x", 0},
};

static const struct product_op *find_product(const char *op)
{
    for (size_t i = 0; i < sizeof product_ops / sizeof product_ops[0]; i++) {
        if (strcmp(product_ops[i].op, op) == 0)
            return &product_ops[i];
    }
    return NULL;
}

bool conf_diff_is_product(const char *op)
{
    return find_product(op) != NULL;
}

double conf_unit_roundoff(tsr_dtype dtype)
{
    switch (dtype) {
    case TSR_FLOAT16:
        return ldexp(1, -11);
    case TSR_BFLOAT16:
        return ldexp(1, -8);
    case TSR_FLOAT32:
    case TSR_COMPLEX64:
        return ldexp(1, -24);
    case TSR_FLOAT64:
    case TSR_COMPLEX128:
        return ldexp(1, -53);
    default:
        return 0;
    }
}

double conf_product_gamma(tsr_dtype dtype, int64_t terms)
{
    double ku = (double)(terms > 0 ? terms : 0) * conf_unit_roundoff(dtype);
    return ku >= 1 ? -1 : ku / (1 - ku);
}

/* ------------------------------------------------------------------------ */
/* The run on absolute values                                               */
/* ------------------------------------------------------------------------ */

/* |t| in float64 (a new reference), NULL after a message. */
static tsr_tensor *absolute(const tsr_tensor *t, char *why, size_t capacity)
{
    tsr_tensor *a = NULL, *out = NULL;
    tsr_dtype dtype = tsr_tensor_dtype(t);
    int st = dtype == TSR_BOOL ? TSR_OK : tsr_unary(TSR_OP_ABS, t, &a);
    if (st == TSR_OK)
        st = tsr_to_dtype(a ? a : t, TSR_FLOAT64, &out);
    tsr_tensor_release(a);
    if (st != TSR_OK)
        snprintf(why, capacity, "|input| in float64 failed: %s: %s", tsr_status_name(st),
                 tsr_last_error());
    return st == TSR_OK ? out : NULL;
}

static bool replace_absolute(tsr_tensor **slot, char *why, size_t capacity)
{
    if (!*slot)
        return true;
    tsr_tensor *a = absolute(*slot, why, capacity);
    if (!a)
        return false;
    tsr_tensor_release(*slot);
    *slot = a;
    return true;
}

/* The case's args with alpha and beta made absolute (owned by the caller). */
static cJSON *absolute_args(const cJSON *args)
{
    cJSON *copy = cJSON_Duplicate(args, true);
    static const char *const scales[] = {"alpha", "beta"};
    for (int i = 0; copy && i < 2; i++) {
        double v;
        cJSON *item = cJSON_GetObjectItemCaseSensitive(copy, scales[i]);
        if (item && conf_json_double(item, &v))
            cJSON_ReplaceItemInObjectCaseSensitive(copy, scales[i], cJSON_CreateNumber(fabs(v)));
    }
    return copy;
}

/* K from the value that names it, once loaded. */
static int64_t terms_of(const struct product_op *p, const conf_call *call)
{
    int64_t k = p->from == TERMS_ONE ? 1 : 0;
    for (int i = 0; p->input && i < call->nvalues; i++) {
        const conf_value *v = &call->values[i];
        if (strcmp(v->spec->name, p->input) != 0)
            continue;
        for (int j = -1; j < v->nlist; j++) {
            const tsr_tensor *t = j < 0 ? v->tensor : v->list[j];
            if (!t)
                continue;
            int n = tsr_tensor_ndim(t);
            int64_t size = p->from == TERMS_NUMEL ? tsr_tensor_numel(t)
                           : n > 0                ? tsr_tensor_shape(t)[n - 1]
                                                  : 1;
            if (size > k)
                k = size;
        }
    }
    return k;
}

/* sum |a_i b_i| per element into `out` (numel doubles); false after a message. */
static bool absolute_run(conf_call *call, double *out, int64_t numel, char *why, size_t capacity)
{
    for (int i = 0; i < call->nvalues; i++) {
        conf_value *v = &call->values[i];
        if (!replace_absolute(&v->tensor, why, capacity))
            return false;
        for (int j = 0; j < v->nlist; j++) {
            if (!replace_absolute(&v->list[j], why, capacity))
                return false;
        }
    }
    int st = call->adapter->fn(call);
    if (st != TSR_OK || call->noutputs < 1) {
        snprintf(why, capacity, "the run on |inputs| failed: %s",
                 st == CONF_BIND_SKIP ? call->problem : tsr_last_error());
        return false;
    }
    const tsr_tensor *sum = call->outputs[0];
    if (tsr_tensor_dtype(sum) != TSR_FLOAT64 || tsr_tensor_numel(sum) != numel) {
        snprintf(why, capacity, "the run on |inputs| gave %s of %lld elements",
                 tsr_dtype_name(tsr_tensor_dtype(sum)), (long long)tsr_tensor_numel(sum));
        return false;
    }
    st = tsr_to_host(sum, out, (size_t)numel * sizeof *out);
    if (st != TSR_OK)
        snprintf(why, capacity, "reading the run on |inputs| back failed: %s: %s",
                 tsr_status_name(st), tsr_last_error());
    return st == TSR_OK;
}

double *conf_diff_product_bound(const conf_case *c, const conf_source *source,
                                const conf_adapter *adapter, tsr_backend *reference,
                                const tsr_tensor *expected, char *why, size_t capacity)
{
    why[0] = '\0';
    const struct product_op *p = find_product(adapter->op);
    tsr_dtype dtype = tsr_tensor_dtype(expected);
    if (!p || conf_unit_roundoff(dtype) == 0)
        return NULL;
    int64_t numel = tsr_tensor_numel(expected);
    double *bound = malloc((size_t)(numel > 0 ? numel : 1) * sizeof *bound);
    conf_case absolute_case = *c;
    absolute_case.args = absolute_args(c->args);
    if (!bound || !absolute_case.args) {
        snprintf(why, capacity, "out of memory");
        free(bound);
        cJSON_Delete(absolute_case.args);
        return NULL;
    }
    conf_call call;
    conf_result loaded;
    memset(&loaded, 0, sizeof loaded);
    conf_call_init(&call, &absolute_case, reference);
    call.adapter = adapter;
    bool ok = conf_call_load(source, &call, &loaded);
    if (!ok)
        snprintf(why, capacity, "loading the case for |inputs| failed: %s", loaded.message);
    /* complex products are each two real products in the real (and the
     * imaginary) part, and |re a re b| + |im a im b| <= |a| |b| */
    int64_t terms = ok ? terms_of(p, &call) * (tsr_dtype_is_complex(dtype) ? 2 : 1) : 0;
    double gamma = conf_product_gamma(dtype, terms + p->extra);
    if (ok && gamma < 0) {
        snprintf(why, capacity, "%lld terms are too many for a bound in %s",
                 (long long)(terms + p->extra), tsr_dtype_name(dtype));
        ok = false;
    }
    ok = ok && absolute_run(&call, bound, numel, why, capacity);
    for (int64_t i = 0; ok && i < numel; i++)
        bound[i] *= gamma;
    conf_call_clear(&call);
    cJSON_Delete(absolute_case.args);
    if (!ok) {
        free(bound);
        return NULL;
    }
    return bound;
}
