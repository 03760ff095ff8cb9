/* Gradients of the reductions, as PyTorch's derivatives.yaml gives them,
 * written with public ops so that they run on every backend and can be
 * differentiated again. */
#include "autograd/graph.h"
#include "runtime/error.h"
#include "ops/reduce.h"
#include "ops/grad_expr.h"

#include <math.h>
#include <string.h>

/* What a formula needs besides saved tensors: plain data only. */
typedef struct reduce_grad_attrs {
    tsr__reduce_grad_kind kind;
    int ndim;
    uint32_t mask;                    /* reduced dims (reductions) */
    int dim;                          /* the scanned or selected dim */
    int64_t in_shape[TSR_MAX_DIMS];   /* the input's shape */
    int64_t kept_shape[TSR_MAX_DIMS]; /* the same with reduced dims of size 1 */
    int64_t terms;                    /* elements per output */
    double param;                     /* correction (var, std) or ord (norm) */
} reduce_grad_attrs;

enum { SAVED_INPUT, SAVED_OUT0, SAVED_OUT1, SAVED_INDICES, SAVED_COUNT };

/* ------------------------------------------------------------------------ */
/* Building blocks                                                           */
/* ------------------------------------------------------------------------ */

/* A result's gradient with the reduced dims back as size 1, so that it
 * broadcasts against the input. */
static tsr_tensor *unsqueeze_reduced(tsr__gx *x, const reduce_grad_attrs *a, const tsr_tensor *g)
{
    if (x->status != TSR_OK || !g)
        return NULL;
    tsr_tensor *r = NULL;
    tsr_status st = tsr_reshape(g, a->ndim, a->kept_shape, &r);
    return tsr__gx_keep(x, st, r);
}

/* ... and expanded to the input's shape. */
static tsr_tensor *spread(tsr__gx *x, const reduce_grad_attrs *a, const tsr_tensor *g)
{
    tsr_tensor *k = unsqueeze_reduced(x, a, g), *e = NULL;
    if (!k)
        return NULL;
    tsr_status st = tsr_expand(k, a->ndim, a->in_shape, &e);
    return tsr__gx_keep(x, st, e);
}

static int reduced_dims(const reduce_grad_attrs *a, int64_t *dims)
{
    int n = 0;
    for (int d = 0; d < a->ndim; d++) {
        if (a->mask & (UINT32_C(1) << d))
            dims[n++] = d;
    }
    return n;
}

/* t summed over the reduced dims (kept as size 1) in `dtype`. */
static tsr_tensor *sum_reduced(tsr__gx *x, const reduce_grad_attrs *a, const tsr_tensor *t,
                               tsr_dtype dtype)
{
    if (x->status != TSR_OK || !t)
        return NULL;
    int64_t dims[TSR_MAX_DIMS];
    tsr_tensor *r = NULL;
    tsr_status st = tsr_sum(t, dims, reduced_dims(a, dims), true, dtype, &r);
    return tsr__gx_keep(x, st, r);
}

/* NaN positions of t. */
static tsr_tensor *is_nan(tsr__gx *x, const tsr_tensor *t)
{
    return t ? tsr__gx_binary(x, TSR_OP_NE, tsr_operand_tensor(t), tsr_operand_tensor(t)) : NULL;
}

static tsr_tensor *power(tsr__gx *x, const tsr_tensor *t, double p)
{
    return t ? tsr__gx_binary(x, TSR_OP_POW, tsr_operand_tensor(t), tsr__gx_float(p)) : NULL;
}

/* where(condition, 0, t) */
static tsr_tensor *zero_where(tsr__gx *x, const tsr_tensor *condition, const tsr_tensor *t)
{
    return t ? tsr__gx_where(x, condition, tsr__gx_float(0.0), tsr_operand_tensor(t)) : NULL;
}

/* ------------------------------------------------------------------------ */
/* Formulas: each returns input 0's gradient (NULL when it is zero or on    */
/* failure, which x records)                                                 */
/* ------------------------------------------------------------------------ */

static tsr_tensor *saved(tsr__gx *x, tsr__node *node, int slot)
{
    return tsr__gx_saved(x, node, slot);
}

/* amax / amin: the gradient split evenly between the tied extrema,
 * (g / count) * mask, which gives NaN on rows whose extremum is NaN. */
static tsr_tensor *extremum_grad(tsr__gx *x, const reduce_grad_attrs *a, const tsr_tensor *input,
                                 const tsr_tensor *result, const tsr_tensor *g)
{
    tsr_tensor *r = unsqueeze_reduced(x, a, result);
    tsr_tensor *mask =
        r ? tsr__gx_binary(x, TSR_OP_EQ, tsr_operand_tensor(input), tsr_operand_tensor(r)) : NULL;
    tsr_tensor *count = sum_reduced(x, a, mask, tsr_tensor_dtype(g));
    return tsr__gx_mul(x, tsr__gx_div(x, unsqueeze_reduced(x, a, g), count), mask);
}

/* max() / min() of everything: split evenly between the elements equal to
 * the result, or between the NaNs when the result is NaN; zero elsewhere. */
static tsr_tensor *extremum_all_grad(tsr__gx *x, const reduce_grad_attrs *a,
                                     const tsr_tensor *input, const tsr_tensor *result,
                                     const tsr_tensor *g)
{
    tsr_tensor *nan_result = is_nan(x, result);
    tsr_tensor *equal =
        result ? tsr__gx_binary(x, TSR_OP_EQ, tsr_operand_tensor(input), tsr_operand_tensor(result))
               : NULL;
    tsr_tensor *nan_input = is_nan(x, input);
    tsr_tensor *mask = equal ? tsr__gx_where(x, nan_result, tsr_operand_tensor(nan_input),
                                             tsr_operand_tensor(equal))
                             : NULL;
    tsr_tensor *count = sum_reduced(x, a, mask, tsr_tensor_dtype(g));
    return tsr__gx_mask(x, mask, tsr__gx_div(x, unsqueeze_reduced(x, a, g), count));
}

/* max(dim) / min(dim): the gradient goes to the selected index. */
static tsr_tensor *select_grad(tsr__gx *x, const reduce_grad_attrs *a, const tsr_tensor *indices,
                               const tsr_tensor *g)
{
    if (x->status != TSR_OK || !indices)
        return NULL;
    if (a->ndim == 0)
        return tsr__gx_same(x, g);
    tsr_tensor *at =
        tsr__gx_positions(x, tsr_tensor_backend(indices), a->in_shape[a->dim], a->dim, a->ndim);
    tsr_tensor *picked =
        at ? tsr__gx_compare(x, TSR_OP_EQ, unsqueeze_reduced(x, a, indices), tsr_operand_tensor(at))
           : NULL;
    return tsr__gx_mask(x, picked, unsqueeze_reduced(x, a, g));
}

/* The product of the reduction's zeros other than x itself, as a
 * differentiable function (its value is 1 or 0): 1 without zeros; with one
 * zero, 1 at the zero and the zero elsewhere; with two, the other zero at
 * each zero and 0 elsewhere; with more, 0. So g * (product of the non-zeros
 * but x) * this is the gradient of prod, and its derivative is right too. */
static tsr_tensor *zero_factor(tsr__gx *x, const reduce_grad_attrs *a, const tsr_tensor *input,
                               const tsr_tensor *zero, const tsr_tensor *zeros)
{
    if (x->status != TSR_OK)
        return NULL;
    tsr__gx local = {0};
    tsr_tensor *result = NULL;
    tsr_tensor *zero_sum =
        sum_reduced(&local, a, tsr__gx_mask(&local, zero, input), tsr_tensor_dtype(input));
    tsr_tensor *single = tsr__gx_compare(&local, TSR_OP_EQ, zeros, tsr__gx_float(1.0));
    tsr_tensor *other_zero = tsr__gx_sub(&local, zero_sum, input);
    tsr_tensor *at_zero =
        single ? tsr__gx_where(&local, single, tsr__gx_float(1.0), tsr_operand_tensor(other_zero))
               : NULL;
    tsr_tensor *elsewhere =
        zero_where(&local, tsr__gx_compare(&local, TSR_OP_NE, zeros, tsr__gx_float(1.0)), zero_sum);
    tsr_tensor *mixed = at_zero ? tsr__gx_where(&local, zero, tsr_operand_tensor(at_zero),
                                                tsr_operand_tensor(elsewhere))
                                : NULL;
    tsr_tensor *many =
        zero_where(&local, tsr__gx_compare(&local, TSR_OP_GT, zeros, tsr__gx_float(2.0)), mixed);
    tsr_tensor *none = tsr__gx_compare(&local, TSR_OP_EQ, zeros, tsr__gx_float(0.0));
    tsr__gx_result(&local, &result,
                   none ? tsr__gx_where(&local, none, tsr__gx_float(1.0), tsr_operand_tensor(many))
                        : NULL);
    tsr_status st = tsr__gx_finish(&local);
    return tsr__gx_keep(x, st, result);
}

/* prod: g times the product of the other elements, computed without
 * dividing by zero. */
static tsr_tensor *prod_grad(tsr__gx *x, const reduce_grad_attrs *a, const tsr_tensor *input,
                             const tsr_tensor *g)
{
    if (x->status != TSR_OK)
        return NULL;
    if (a->ndim == 0)
        return tsr__gx_same(x, g);
    /* complex: PyTorch's g * (product of the others).conj(), which is the
     * product of the conjugated others */
    input = tsr__gx_conj(x, input);
    tsr_tensor *zero = tsr__gx_compare(x, TSR_OP_EQ, input, tsr__gx_float(0.0));
    /* counted in the real dtype: complex counts cannot be compared */
    tsr_dtype dtype = tsr_tensor_dtype(input);
    tsr_dtype count_dtype = dtype == TSR_COMPLEX64    ? TSR_FLOAT32
                            : dtype == TSR_COMPLEX128 ? TSR_FLOAT64
                                                      : dtype;
    tsr_tensor *zeros = sum_reduced(x, a, zero, count_dtype);
    tsr_tensor *safe =
        zero ? tsr__gx_where(x, zero, tsr__gx_float(1.0), tsr_operand_tensor(input)) : NULL;
    tsr_tensor *nonzero_product = NULL;
    if (safe) {
        int64_t dims[TSR_MAX_DIMS];
        int n = reduced_dims(a, dims);
        /* prod reduces one dim or all of them, as PyTorch's */
        tsr_status st =
            tsr_prod(safe, dims, n == a->ndim ? 0 : n, true, TSR_DTYPE_INFER, &nonzero_product);
        tsr__gx_keep(x, st, nonzero_product);
    }
    tsr_tensor *weighted = tsr__gx_mul(x, unsqueeze_reduced(x, a, g), nonzero_product);
    return tsr__gx_mul(x, tsr__gx_div(x, weighted, safe), zero_factor(x, a, input, zero, zeros));
}

/* var: 2 / (N - correction) * (x - mean) * g. */
static tsr_tensor *var_grad(tsr__gx *x, const reduce_grad_attrs *a, const tsr_tensor *input,
                            const tsr_tensor *g)
{
    if (x->status != TSR_OK || !g)
        return NULL;
    /* PyTorch 1.13's var_backward gives a 0-d input whose one element is
     * all the correction takes inf * g, not 2 / 0 * g * 0 = NaN. */
    if (a->ndim == 0 && (double)a->terms == a->param)
        return tsr__gx_scale(x, g, INFINITY);
    int64_t dims[TSR_MAX_DIMS];
    tsr_tensor *mean = NULL;
    tsr_status st = tsr_mean(input, dims, reduced_dims(a, dims), true, TSR_DTYPE_INFER, &mean);
    tsr__gx_keep(x, st, mean);
    tsr_tensor *centred = mean ? tsr__gx_sub(x, input, mean) : NULL;
    tsr_tensor *scaled =
        tsr__gx_scale(x, unsqueeze_reduced(x, a, g), 2.0 / ((double)a->terms - a->param));
    return tsr__gx_mul(x, scaled, centred);
}

/* std: var's gradient of g / (2 std), zero where std is zero. */
static tsr_tensor *std_grad(tsr__gx *x, const reduce_grad_attrs *a, const tsr_tensor *input,
                            const tsr_tensor *result, const tsr_tensor *g)
{
    tsr_tensor *half = tsr__gx_div(x, g, tsr__gx_scale(x, result, 2.0));
    return var_grad(x, a, input,
                    zero_where(x, tsr__gx_compare(x, TSR_OP_EQ, result, tsr__gx_float(0.0)), half));
}

/* linalg_vector_norm, as PyTorch's norm_backward. */
static tsr_tensor *norm_grad(tsr__gx *x, const reduce_grad_attrs *a, const tsr_tensor *input,
                             const tsr_tensor *result, const tsr_tensor *g)
{
    double p = a->param;
    if (p == 0.0 || x->status != TSR_OK)
        return NULL;
    tsr_tensor *gk = unsqueeze_reduced(x, a, g), *nk = unsqueeze_reduced(x, a, result);
    tsr_tensor *sign = tsr__gx_sgn(x, input); /* sgn: z / |z| for complex input */
    if (p == 1.0)
        return tsr__gx_mul(x, sign, gk);
    tsr_tensor *norm_zero = tsr__gx_compare(x, TSR_OP_EQ, nk, tsr__gx_float(0.0));
    if (p == 2.0)
        return tsr__gx_mul(x, gk, zero_where(x, norm_zero, tsr__gx_div(x, input, nk)));
    tsr_tensor *magnitude = tsr__gx_unary(x, TSR_OP_ABS, input);
    if (isinf(p)) {
        tsr_tensor *hit = tsr__gx_compare(x, TSR_OP_EQ, magnitude, tsr_operand_tensor(nk));
        tsr_tensor *nan = is_nan(x, magnitude);
        tsr_tensor *mask = hit ? tsr__gx_binary(x, TSR_OP_LOGICAL_OR, tsr_operand_tensor(hit),
                                                tsr_operand_tensor(nan))
                               : NULL;
        tsr_tensor *count = sum_reduced(x, a, mask, tsr_tensor_dtype(g));
        return tsr__gx_mul(x, sign, tsr__gx_mul(x, tsr__gx_div(x, gk, count), mask));
    }
    if (p < 1.0) {
        tsr_tensor *input_zero = tsr__gx_compare(x, TSR_OP_EQ, input, tsr__gx_float(0.0));
        tsr_tensor *scaled =
            tsr__gx_mul(x, sign, zero_where(x, input_zero, power(x, magnitude, p - 1.0)));
        return tsr__gx_mul(x, tsr__gx_mul(x, scaled, gk), power(x, nk, 1.0 - p));
    }
    tsr_tensor *scaled = p < 2.0 ? tsr__gx_mul(x, sign, power(x, magnitude, p - 1.0))
                                 : tsr__gx_mul(x, input, power(x, magnitude, p - 2.0));
    tsr_tensor *factor = zero_where(x, norm_zero, tsr__gx_div(x, gk, power(x, nk, p - 1.0)));
    return tsr__gx_mul(x, scaled, factor);
}

/* ------------------------------------------------------------------------ */
/* The node                                                                  */
/* ------------------------------------------------------------------------ */

/* Which saved tensors each kind's formula reads. */
static bool saves_input(tsr__reduce_grad_kind kind)
{
    return kind != TSR__RGRAD_SUM && kind != TSR__RGRAD_MEAN && kind != TSR__RGRAD_SELECT;
}

static bool saves_result(tsr__reduce_grad_kind kind)
{
    return kind == TSR__RGRAD_EXTREMUM || kind == TSR__RGRAD_EXTREMUM_ALL ||
           kind == TSR__RGRAD_AMINMAX || kind == TSR__RGRAD_STD || kind == TSR__RGRAD_STD_MEAN ||
           kind == TSR__RGRAD_NORM || kind == TSR__RGRAD_LOGSUMEXP;
}

/* The gradient of the mean output of var_mean / std_mean, added to the first. */
static tsr_tensor *plus_mean_grad(tsr__gx *x, const reduce_grad_attrs *a, tsr_tensor *first,
                                  const tsr_tensor *g)
{
    tsr_tensor *mean_part = tsr__gx_scale(x, spread(x, a, g), 1.0 / (double)a->terms);
    return first ? tsr__gx_add(x, first, mean_part) : mean_part;
}

static tsr_tensor *formula(tsr__gx *x, tsr__node *node, const reduce_grad_attrs *a,
                           tsr_tensor *const *grads)
{
    tsr_tensor *input = saves_input(a->kind) ? saved(x, node, SAVED_INPUT) : NULL;
    tsr_tensor *result = saves_result(a->kind) ? saved(x, node, SAVED_OUT0) : NULL;
    const tsr_tensor *g = grads[0];
    switch (a->kind) {
    case TSR__RGRAD_SUM:
        return spread(x, a, g);
    case TSR__RGRAD_NANSUM:
        return zero_where(x, is_nan(x, input), spread(x, a, g));
    case TSR__RGRAD_MEAN:
        return tsr__gx_scale(x, spread(x, a, g), 1.0 / (double)a->terms);
    case TSR__RGRAD_NANMEAN: {
        tsr_tensor *number = tsr__gx_compare(x, TSR_OP_EQ, input, tsr_operand_tensor(input));
        tsr_tensor *count = sum_reduced(x, a, number, tsr_tensor_dtype(g));
        return tsr__gx_mask(x, number, tsr__gx_div(x, unsqueeze_reduced(x, a, g), count));
    }
    case TSR__RGRAD_PROD:
        return prod_grad(x, a, input, g);
    case TSR__RGRAD_EXTREMUM:
        return extremum_grad(x, a, input, result, g);
    case TSR__RGRAD_EXTREMUM_ALL:
        return extremum_all_grad(x, a, input, result, g);
    case TSR__RGRAD_AMINMAX:
        return tsr__gx_add(x, extremum_grad(x, a, input, result, g),
                           extremum_grad(x, a, input, saved(x, node, SAVED_OUT1), grads[1]));
    case TSR__RGRAD_SELECT:
        return select_grad(x, a, saved(x, node, SAVED_INDICES), g);
    case TSR__RGRAD_VAR:
        return var_grad(x, a, input, g);
    case TSR__RGRAD_STD:
        return std_grad(x, a, input, result, g);
    case TSR__RGRAD_VAR_MEAN:
        return plus_mean_grad(x, a, var_grad(x, a, input, g), grads[1]);
    case TSR__RGRAD_STD_MEAN:
        return plus_mean_grad(x, a, std_grad(x, a, input, result, g), grads[1]);
    case TSR__RGRAD_NORM:
        return norm_grad(x, a, input, result, g);
    case TSR__RGRAD_LOGSUMEXP:
        return tsr__gx_mul(
            x, unsqueeze_reduced(x, a, g),
            tsr__gx_unary(x, TSR_OP_EXP, tsr__gx_sub(x, input, unsqueeze_reduced(x, a, result))));
    case TSR__RGRAD_NONE:
        break;
    }
    return NULL;
}

static tsr_status reduce_backward(tsr__node *node, tsr_tensor *const *grads,
                                  tsr_tensor **grad_inputs)
{
    const reduce_grad_attrs *a = tsr__node_attrs(node);
    tsr__gx x = {0};
    if (tsr__node_needs_grad(node, 0))
        tsr__gx_result(&x, &grad_inputs[0], formula(&x, node, a, grads));
    return tsr__gx_finish(&x);
}

/* The kinds whose formula is right for complex inputs: sums and means move
 * values linearly, prod conjugates, norm, var and std have real results
 * whose formulas (with sgn for sign) are PyTorch's complex ones. */
static bool complex_formula(tsr__reduce_grad_kind kind)
{
    return kind == TSR__RGRAD_SUM || kind == TSR__RGRAD_MEAN || kind == TSR__RGRAD_PROD ||
           kind == TSR__RGRAD_NORM || kind == TSR__RGRAD_VAR || kind == TSR__RGRAD_STD ||
           kind == TSR__RGRAD_VAR_MEAN || kind == TSR__RGRAD_STD_MEAN;
}

/* Records the node of a reduction whose input is t and whose
 * floating outputs are outs[0 .. nouts). */
static tsr_status record(const char *name, const reduce_grad_attrs *attrs, const tsr_tensor *t,
                         tsr_tensor *const *outs, int nouts, const tsr_tensor *indices)
{
    tsr__node *node = NULL;
    tsr_status st =
        tsr__node_create(name, reduce_backward, 1, nouts, SAVED_COUNT, sizeof *attrs, &node);
    if (st != TSR_OK)
        return st;
    memcpy(tsr__node_attrs(node), attrs, sizeof *attrs);
    if (complex_formula(attrs->kind))
        tsr__node_allow_complex(node);
    st = tsr__node_set_input(node, 0, t);
    if (st == TSR_OK && saves_input(attrs->kind))
        st = tsr__node_save(node, SAVED_INPUT, t, "self");
    if (st == TSR_OK && indices)
        st = tsr__node_save(node, SAVED_INDICES, indices, "indices");
    for (int k = 0; k < nouts && st == TSR_OK; k++)
        st = tsr__node_attach(node, k, outs[k]);
    if (st == TSR_OK && saves_result(attrs->kind))
        st = tsr__node_save_output(node, SAVED_OUT0, outs[0], 0);
    if (st == TSR_OK && attrs->kind == TSR__RGRAD_AMINMAX)
        st = tsr__node_save_output(node, SAVED_OUT1, outs[1], 1);
    tsr__node_release(node);
    return st;
}

static bool wanted(const tsr_tensor *t, tsr_tensor *const *outs)
{
    const tsr_tensor *inputs[1] = {t};
    return tsr__grad_wanted(inputs, 1) && tsr__grad_dtype(tsr_tensor_dtype(outs[0]));
}

tsr_status tsr__grad_record_reduce(tsr__reduce_grad_kind kind, const char *name,
                                   const tsr_tensor *t, const tsr__reduce_plan *plan, double param,
                                   tsr_tensor *const *outs, int nouts, const tsr_tensor *indices)
{
    if (!wanted(t, outs))
        return TSR_OK;
    reduce_grad_attrs attrs = {
        .kind = kind, .ndim = t->ndim, .mask = plan->mask, .terms = plan->terms, .param = param};
    memcpy(attrs.in_shape, t->shape, (size_t)t->ndim * sizeof *t->shape);
    memcpy(attrs.kept_shape, plan->kernel_shape, (size_t)t->ndim * sizeof *t->shape);
    for (int d = 0; d < t->ndim; d++) {
        if (plan->mask & (UINT32_C(1) << d))
            attrs.dim = d; /* the one dim of max(dim) and min(dim) */
    }
    return record(name, &attrs, t, outs, nouts, indices);
}
