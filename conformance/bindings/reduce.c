/* Adapters for the reductions: torch.sum ... torch.logsumexp. `dim` may be
 * absent or null (every dim), an int or a list; `dtype` is a dtype name. */
#include "bindings/bindings.h"

#include <string.h>

/* dim: absent or null reduce everything (ndims 0), as does []. */
static bool arg_dims(conf_call *call, int64_t *dims, int *ndims)
{
    *ndims = 0;
    if (!conf_arg_present(call, "dim"))
        return true;
    return conf_arg_int_list(call, "dim", dims, ndims);
}

static bool arg_keepdim(conf_call *call, bool *keepdim)
{
    tsr_scalar s;
    if (!conf_arg_scalar_or(call, "keepdim", tsr_scalar_bool(false), &s))
        return false;
    *keepdim = s.v.i != 0;
    return true;
}

/* torch.sum / nansum / prod / mean / nanmean(input, dim, keepdim, dtype=). */
static int adapt_sum_like(conf_call *call)
{
    tsr_tensor *t, *out = NULL;
    int64_t dims[TSR_MAX_DIMS];
    int ndims;
    bool keepdim;
    tsr_dtype dtype;
    if (!conf_bind_tensor(call, "input", &t) || !arg_dims(call, dims, &ndims) ||
        !arg_keepdim(call, &keepdim) || !conf_arg_dtype_or(call, "dtype", TSR_DTYPE_INFER, &dtype))
        return CONF_BIND_SKIP;
    int st;
    switch (call->adapter->kernel) {
    case TSR_OP_SUM:
        st = tsr_sum(t, dims, ndims, keepdim, dtype, &out);
        break;
    case TSR_OP_NANSUM:
        st = tsr_nansum(t, dims, ndims, keepdim, dtype, &out);
        break;
    case TSR_OP_PROD:
        st = tsr_prod(t, dims, ndims, keepdim, dtype, &out);
        break;
    case TSR_OP_MEAN:
        st = tsr_mean(t, dims, ndims, keepdim, dtype, &out);
        break;
    default:
        st = tsr_nanmean(t, dims, ndims, keepdim, dtype, &out);
        break;
    }
    return conf_call_return(call, st, out);
}

/* torch.amax / amin / argmax / argmin / logsumexp / all / any(input, dim, keepdim). */
static int adapt_dims_keepdim(conf_call *call)
{
    tsr_tensor *t, *out = NULL;
    int64_t dims[TSR_MAX_DIMS];
    int ndims;
    bool keepdim;
    if (!conf_bind_tensor(call, "input", &t) || !arg_dims(call, dims, &ndims) ||
        !arg_keepdim(call, &keepdim))
        return CONF_BIND_SKIP;
    int st;
    switch (call->adapter->kernel) {
    case TSR_OP_AMAX:
        st = tsr_amax(t, dims, ndims, keepdim, &out);
        break;
    case TSR_OP_AMIN:
        st = tsr_amin(t, dims, ndims, keepdim, &out);
        break;
    case TSR_OP_ARGMAX:
        st = tsr_argmax(t, dims, ndims, keepdim, &out);
        break;
    case TSR_OP_ARGMIN:
        st = tsr_argmin(t, dims, ndims, keepdim, &out);
        break;
    case TSR_OP_ALL:
        st = tsr_all(t, dims, ndims, keepdim, &out);
        break;
    case TSR_OP_ANY:
        st = tsr_any(t, dims, ndims, keepdim, &out);
        break;
    default:
        st = tsr_logsumexp(t, dims, ndims, keepdim, &out);
        break;
    }
    return conf_call_return(call, st, out);
}

static int adapt_count_nonzero(conf_call *call)
{
    tsr_tensor *t, *out = NULL;
    int64_t dims[TSR_MAX_DIMS];
    int ndims;
    if (!conf_bind_tensor(call, "input", &t) || !arg_dims(call, dims, &ndims))
        return CONF_BIND_SKIP;
    int st = tsr_count_nonzero(t, dims, ndims, &out);
    return conf_call_return(call, st, out);
}

/* torch.max / torch.min(input) or (input, dim, keepdim) -> (values, indices),
 * or (input, other): the elementwise form, torch.maximum / torch.minimum. */
static int adapt_max_min(conf_call *call)
{
    tsr_tensor *t, *other = NULL, *values = NULL, *indices = NULL;
    int64_t dim;
    bool keepdim;
    bool has_dim = conf_arg_present(call, "dim");
    bool is_max = call->adapter->kernel == TSR_OP_MAX_DIM;
    if (!conf_bind_tensor(call, "input", &t) || !conf_bind_tensor_opt(call, "other", &other) ||
        !arg_keepdim(call, &keepdim) || (has_dim && !conf_arg_int(call, "dim", &dim)))
        return CONF_BIND_SKIP;
    if (other) {
        int st = tsr_binary(is_max ? TSR_OP_MAXIMUM : TSR_OP_MINIMUM, tsr_operand_tensor(t),
                            tsr_operand_tensor(other), &values);
        return conf_call_return(call, st, values);
    }
    if (!has_dim) {
        int st = is_max ? tsr_max(t, &values) : tsr_min(t, &values);
        return conf_call_return(call, st, values);
    }
    int st = is_max ? tsr_max_dim(t, dim, keepdim, &values, &indices)
                    : tsr_min_dim(t, dim, keepdim, &values, &indices);
    return conf_call_return_pair(call, st, values, indices);
}

/* torch.aminmax(input, dim=None, keepdim=False) -> (min, max). */
static int adapt_aminmax(conf_call *call)
{
    tsr_tensor *t, *min = NULL, *max = NULL;
    int64_t dims[TSR_MAX_DIMS];
    int ndims;
    bool keepdim;
    if (!conf_bind_tensor(call, "input", &t) || !arg_dims(call, dims, &ndims) ||
        !arg_keepdim(call, &keepdim))
        return CONF_BIND_SKIP;
    int st = tsr_aminmax(t, dims, ndims, keepdim, &min, &max);
    return conf_call_return_pair(call, st, min, max);
}

/* correction=, or unbiased= (True is 1, False 0); 1 by default. */
static bool arg_correction(conf_call *call, double *correction)
{
    tsr_scalar unbiased, c;
    if (!conf_arg_scalar_or(call, "unbiased", tsr_scalar_bool(true), &unbiased) ||
        !conf_arg_scalar_or(call, "correction", tsr_scalar_int(unbiased.v.i ? 1 : 0), &c))
        return false;
    *correction = c.kind == TSR_SCALAR_FLOAT ? c.v.f : (double)c.v.i;
    return true;
}

/* torch.var / std / var_mean / std_mean(input, dim, correction=, keepdim=). */
static int adapt_moments(conf_call *call)
{
    tsr_tensor *t, *out = NULL, *mean = NULL;
    int64_t dims[TSR_MAX_DIMS];
    int ndims;
    bool keepdim;
    double correction = 1.0;
    if (!conf_bind_tensor(call, "input", &t) || !arg_dims(call, dims, &ndims) ||
        !arg_keepdim(call, &keepdim) || !arg_correction(call, &correction))
        return CONF_BIND_SKIP;
    const char *op = call->c->op;
    int st;
    if (strcmp(op, "var") == 0)
        st = tsr_var(t, dims, ndims, correction, keepdim, &out);
    else if (strcmp(op, "std") == 0)
        st = tsr_std(t, dims, ndims, correction, keepdim, &out);
    else if (strcmp(op, "var_mean") == 0)
        st = tsr_var_mean(t, dims, ndims, correction, keepdim, &out, &mean);
    else
        st = tsr_std_mean(t, dims, ndims, correction, keepdim, &out, &mean);
    return mean ? conf_call_return_pair(call, st, out, mean) : conf_call_return(call, st, out);
}

/* vector_norm's ord / torch.norm's p: a number, "inf", "-inf" or "fro" (the
 * 2-norm of the flattened dims); other names ("nuc") are matrix norms. */
static bool arg_order(conf_call *call, const char *name, double *out)
{
    const char *text = NULL;
    if (conf_arg_string_or(call, name, NULL, &text) && text && strcmp(text, "fro") == 0) {
        *out = 2.0;
        return true;
    }
    tsr_scalar s;
    if (!conf_arg_scalar_or(call, name, tsr_scalar_float(2.0), &s))
        return false;
    *out = s.kind == TSR_SCALAR_INT ? (double)s.v.i : s.v.f;
    return true;
}

/* torch.linalg.vector_norm(input, ord=2, dim=None, keepdim=False, dtype=None)
 * and torch.norm(input, p='fro', dim=None, keepdim=False, dtype=None). */
static int adapt_norm(conf_call *call)
{
    tsr_tensor *t, *out = NULL;
    int64_t dims[TSR_MAX_DIMS];
    int ndims;
    bool keepdim;
    double ord;
    tsr_dtype dtype;
    bool is_norm = strcmp(call->c->op, "norm") == 0;
    const char *ord_name = is_norm ? "p" : "ord", *text = NULL;
    cJSON *p = cJSON_GetObjectItemCaseSensitive(call->c->args, ord_name);
    bool fro = is_norm && cJSON_IsString(p) && strcmp(p->valuestring, "fro") == 0;
    if (!conf_bind_tensor(call, "input", &t) ||
        (fro ? !conf_arg_string_or(call, ord_name, NULL, &text) : !arg_order(call, ord_name, &ord)) ||
        !arg_dims(call, dims, &ndims) || !arg_keepdim(call, &keepdim) ||
        (!fro && !conf_arg_dtype_or(call, "dtype", TSR_DTYPE_INFER, &dtype)))
        return CONF_BIND_SKIP;
    int st = fro ? tsr_norm_fro(t, dims, ndims, keepdim, &out)
                 : tsr_linalg_vector_norm(t, ord, dims, ndims, keepdim, dtype, &out);
    return conf_call_return(call, st, out);
}

const conf_adapter conf_bindings_reduce[] = {
    {"sum", adapt_sum_like, TSR_OP_SUM, 0},
    {"nansum", adapt_sum_like, TSR_OP_NANSUM, 0},
    {"prod", adapt_sum_like, TSR_OP_PROD, 0},
    {"mean", adapt_sum_like, TSR_OP_MEAN, 0},
    {"nanmean", adapt_sum_like, TSR_OP_NANMEAN, 0},
    {"amax", adapt_dims_keepdim, TSR_OP_AMAX, 0},
    {"amin", adapt_dims_keepdim, TSR_OP_AMIN, 0},
    {"max", adapt_max_min, TSR_OP_MAX_DIM, 0},
    {"min", adapt_max_min, TSR_OP_MIN_DIM, 0},
    {"argmax", adapt_dims_keepdim, TSR_OP_ARGMAX, 0},
    {"argmin", adapt_dims_keepdim, TSR_OP_ARGMIN, 0},
    {"aminmax", adapt_aminmax, TSR_OP_AMIN, 0},
    {"var", adapt_moments, TSR_OP_VAR, 0},
    {"std", adapt_moments, TSR_OP_STD, 0},
    {"var_mean", adapt_moments, TSR_OP_VAR, 0},
    {"std_mean", adapt_moments, TSR_OP_STD, 0},
    {"all", adapt_dims_keepdim, TSR_OP_ALL, 0},
    {"any", adapt_dims_keepdim, TSR_OP_ANY, 0},
    {"count_nonzero", adapt_count_nonzero, TSR_OP_COUNT_NONZERO, 0},
    {"linalg_vector_norm", adapt_norm, TSR_OP_NORM, 0},
    {"norm", adapt_norm, TSR_OP_NORM, 0},
    {"logsumexp", adapt_dims_keepdim, TSR_OP_LOGSUMEXP, 0},
};
const size_t conf_bindings_reduce_count =
    sizeof conf_bindings_reduce / sizeof conf_bindings_reduce[0];
