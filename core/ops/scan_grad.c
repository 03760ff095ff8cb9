/* Gradients of the scans (cumsum, cumprod, cummax, cummin, logcumsumexp),
 * as PyTorch's derivatives.yaml gives them, written with public ops so
 * that they run on every backend and can be differentiated again. */
#include "ops/scan_grad.h"

#include "autograd/graph.h"
#include "ops/grad_expr.h"

#include <float.h>
#include <string.h>

/* What a formula needs besides saved tensors: plain data only. */
typedef struct scan_grad_attrs {
    tsr__scan_grad_kind kind;
    int ndim;
    int dim;                        /* the scanned dim */
    int64_t in_shape[TSR_MAX_DIMS]; /* the input's shape */
} scan_grad_attrs;

enum { SAVED_INPUT, SAVED_RESULT, SAVED_INDICES, SAVED_COUNT };

/* ------------------------------------------------------------------------ */
/* Formulas: each returns input 0's gradient (NULL when it is zero or on    */
/* failure, which x records)                                                 */
/* ------------------------------------------------------------------------ */

/* v summed from each position to the end of dim: sum - cumsum + v. */
static tsr_tensor *reverse_cumsum(tsr__gx *x, const tsr_tensor *v, int dim)
{
    if (x->status != TSR_OK || !v)
        return NULL;
    tsr__gx local = {0};
    int64_t d = dim;
    tsr_tensor *total = NULL, *running = NULL, *result = NULL;
    tsr_status st = tsr_sum(v, &d, 1, true, TSR_DTYPE_INFER, &total);
    tsr__gx_keep(&local, st, total);
    if (st == TSR_OK) {
        st = tsr_cumsum(v, d, TSR_DTYPE_INFER, &running);
        tsr__gx_keep(&local, st, running);
    }
    tsr__gx_result(&local, &result, tsr__gx_add(&local, tsr__gx_sub(&local, total, running), v));
    st = tsr__gx_finish(&local);
    return tsr__gx_keep(x, st, result);
}

static tsr_tensor *unsqueezed(tsr__gx *x, const tsr_tensor *t, int dim)
{
    if (x->status != TSR_OK || !t)
        return NULL;
    tsr_tensor *r = NULL;
    tsr_status st = tsr_unsqueeze(t, dim, &r);
    return tsr__gx_keep(x, st, r);
}

static tsr_tensor *expanded(tsr__gx *x, const tsr_tensor *t, int ndim, const int64_t *shape)
{
    if (x->status != TSR_OK || !t)
        return NULL;
    tsr_tensor *r = NULL;
    tsr_status st = tsr_expand(t, ndim, shape, &r);
    return tsr__gx_keep(x, st, r);
}

static tsr_tensor *cumprod_along(tsr__gx *x, const tsr_tensor *t, int dim)
{
    if (x->status != TSR_OK || !t)
        return NULL;
    tsr_tensor *r = NULL;
    tsr_status st = tsr_cumprod(t, dim, TSR_DTYPE_INFER, &r);
    return tsr__gx_keep(x, st, r);
}

static tsr_tensor *sum_along(tsr__gx *x, const tsr_tensor *t, int64_t dim)
{
    if (x->status != TSR_OK || !t)
        return NULL;
    tsr_tensor *r = NULL;
    tsr_status st = tsr_sum(t, &dim, 1, false, TSR_DTYPE_INFER, &r);
    return tsr__gx_keep(x, st, r);
}

/* cumprod's gradient as a differentiable function of x even at zeros (for
 * double backward, as PyTorch does under grad mode): with a new dim i in
 * front of the scanned dim k, C[i, j] = cumprod over k of (k == i ? 1 : x_k)
 * is the product up to j without x_i, and the gradient at i is
 * sum over j >= i of g_j C[i, j]. Quadratic in the dim's length. */
static tsr_tensor *cumprod_grad_quadratic(tsr__gx *x, const scan_grad_attrs *a,
                                          const tsr_tensor *input, const tsr_tensor *g)
{
    if (x->status != TSR_OK)
        return NULL;
    tsr__gx local = {0};
    int d = a->dim, ndim = a->ndim + 1;
    int64_t n = a->in_shape[d], shape[TSR_MAX_DIMS];
    for (int k = 0, j = 0; k < ndim; k++)
        shape[k] = k == d ? n : a->in_shape[j++];
    tsr_backend *backend = tsr_tensor_backend(input);
    tsr_tensor *i = tsr__gx_positions(&local, backend, n, d, ndim);
    tsr_tensor *k = tsr__gx_positions(&local, backend, n, d + 1, ndim);
    tsr_tensor *rows = expanded(&local, unsqueezed(&local, input, d), ndim, shape);
    tsr_tensor *diagonal =
        k ? tsr__gx_binary(&local, TSR_OP_EQ, tsr_operand_tensor(i), tsr_operand_tensor(k)) : NULL;
    tsr_tensor *omitted =
        rows ? tsr__gx_where(&local, diagonal, tsr__gx_float(1.0), tsr_operand_tensor(rows)) : NULL;
    tsr_tensor *products = cumprod_along(&local, omitted, d + 1);
    tsr_tensor *later =
        k ? tsr__gx_binary(&local, TSR_OP_GE, tsr_operand_tensor(k), tsr_operand_tensor(i)) : NULL;
    tsr_tensor *terms =
        tsr__gx_mask(&local, later, tsr__gx_mul(&local, unsqueezed(&local, g, d), products));
    tsr_tensor *result = NULL;
    tsr__gx_result(&local, &result, sum_along(&local, terms, d + 1));
    tsr_status st = tsr__gx_finish(&local);
    return tsr__gx_keep(x, st, result);
}

/* Whether any element of a bool tensor is true (read back to the host, as
 * PyTorch's is_zero.any().item()). */
static bool any_true(tsr__gx *x, const tsr_tensor *mask)
{
    if (x->status != TSR_OK || !mask)
        return false;
    tsr_tensor *any = NULL;
    bool value = false;
    tsr_status st = tsr_any(mask, NULL, 0, false, &any);
    if (st == TSR_OK)
        st = tsr_to_host(any, &value, sizeof value);
    tsr__gx_keep(x, st, any);
    return value;
}

/* cumprod, as PyTorch's cumprod_backward: without zeros reverse_cumsum(g *
 * out) / x. With zeros, before a slice's first zero the same; at the first
 * zero reverse_cumsum(g * out') with out' the cumprod of x whose first zero
 * is replaced by 1; after it 0 -- unless grad mode is on (double backward),
 * where the quadratic form keeps the dependence on the zeros. */
static tsr_tensor *cumprod_grad(tsr__gx *x, const scan_grad_attrs *a, const tsr_tensor *input,
                                const tsr_tensor *result, const tsr_tensor *g)
{
    if (x->status != TSR_OK)
        return NULL;
    if (a->ndim == 0 || a->in_shape[a->dim] <= 1)
        return tsr__gx_same(x, g);
    tsr_tensor *zero = tsr__gx_compare(x, TSR_OP_EQ, input, tsr__gx_float(0.0)), *seen = NULL;
    if (!any_true(x, zero))
        return tsr__gx_div(x, reverse_cumsum(x, tsr__gx_mul(x, g, result), a->dim), input);
    if (tsr_grad_mode_enabled())
        return cumprod_grad_quadratic(x, a, input, g);
    tsr_status st = tsr_cumsum(zero, a->dim, TSR_DTYPE_INFER, &seen);
    tsr__gx_keep(x, st, seen);
    tsr_tensor *before = tsr__gx_compare(x, TSR_OP_EQ, seen, tsr_operand_scalar(tsr_scalar_int(0)));
    tsr_tensor *first = tsr__gx_compare(x, TSR_OP_EQ, seen, tsr_operand_scalar(tsr_scalar_int(1)));
    first = first ? tsr__gx_binary(x, TSR_OP_LOGICAL_AND, tsr_operand_tensor(first),
                                   tsr_operand_tensor(zero))
                  : NULL;
    tsr_tensor *patched =
        first ? tsr__gx_where(x, first, tsr__gx_float(1.0), tsr_operand_tensor(input)) : NULL;
    tsr_tensor *replaced = cumprod_along(x, patched, a->dim);
    tsr_tensor *divisor =
        before ? tsr__gx_where(x, before, tsr_operand_tensor(input), tsr__gx_float(1.0)) : NULL;
    tsr_tensor *early =
        tsr__gx_div(x, reverse_cumsum(x, tsr__gx_mul(x, g, result), a->dim), divisor);
    tsr_tensor *at_first = reverse_cumsum(x, tsr__gx_mul(x, g, replaced), a->dim);
    tsr_tensor *late = tsr__gx_mask(x, first, at_first);
    return early ? tsr__gx_where(x, before, tsr_operand_tensor(early), tsr_operand_tensor(late))
                 : NULL;
}

/* cummax / cummin, as PyTorch's cummaxmin_backward: each gradient goes to
 * the element its output took the value from,
 * zeros_like(input).scatter_add(dim, indices, g). */
static tsr_tensor *cummaxmin_grad(tsr__gx *x, const scan_grad_attrs *a, const tsr_tensor *indices,
                                  const tsr_tensor *g)
{
    if (x->status != TSR_OK || !indices)
        return NULL;
    if (a->ndim == 0)
        return tsr__gx_same(x, g);
    for (int d = 0; d < a->ndim; d++) {
        if (a->in_shape[d] == 0)
            return NULL; /* no elements: a zero gradient */
    }
    tsr_tensor *zeros = NULL, *r = NULL;
    tsr_status st =
        tsr_zeros(a->ndim, a->in_shape, tsr_tensor_dtype(g), tsr_tensor_backend(g), &zeros);
    tsr__gx_keep(x, st, zeros);
    if (st == TSR_OK) {
        st = tsr_scatter_add(zeros, a->dim, indices, g, &r);
        tsr__gx_keep(x, st, r);
    }
    return r;
}

/* The lowest finite value of a floating dtype (PyTorch's
 * numeric_limits<scalar_t>::lowest()). */
static double lowest_of(tsr_dtype dtype)
{
    switch (dtype) {
    case TSR_FLOAT16:
        return -65504.0;
    case TSR_BFLOAT16:
        return -3.38953138925153547590470800371487866880e+38;
    case TSR_FLOAT32:
        return -(double)FLT_MAX;
    default:
        return -DBL_MAX;
    }
}

/* flip(logcumsumexp(flip(v, dim), dim), dim): log of the sums of exp(v)
 * from each position to the end of dim. */
static tsr_tensor *reverse_logcumsumexp(tsr__gx *x, const tsr_tensor *v, int dim)
{
    if (x->status != TSR_OK || !v)
        return NULL;
    int64_t d = dim;
    tsr_tensor *flipped = NULL, *scanned = NULL, *back = NULL;
    tsr_status st = tsr_flip(v, &d, 1, &flipped);
    tsr__gx_keep(x, st, flipped);
    if (st == TSR_OK) {
        st = tsr_logcumsumexp(flipped, d, &scanned);
        tsr__gx_keep(x, st, scanned);
    }
    if (st == TSR_OK) {
        st = tsr_flip(scanned, &d, 1, &back);
        tsr__gx_keep(x, st, back);
    }
    return back;
}

/* logcumsumexp, as PyTorch 1.13's logcumsumexp_backward for real inputs:
 * the gradient is exp(x) * reverse_cumsum(g * exp(-out)), computed in log
 * space with g split into its positive and negative parts (log|g| where g
 * has that sign, the dtype's lowest value elsewhere):
 * exp(reverse_logcumsumexp(log g+ - out) + x) - the same for g-. */
static tsr_tensor *logcumsumexp_grad(tsr__gx *x, const scan_grad_attrs *a, const tsr_tensor *input,
                                     const tsr_tensor *result, const tsr_tensor *g)
{
    if (x->status != TSR_OK || !g)
        return NULL;
    if (a->ndim == 0 || tsr_tensor_numel(g) == 0)
        return tsr__gx_same(x, g);
    tsr_operand lowest = tsr__gx_float(lowest_of(tsr_tensor_dtype(g)));
    tsr_tensor *log_abs = tsr__gx_unary(x, TSR_OP_LOG, tsr__gx_unary(x, TSR_OP_ABS, g));
    tsr_tensor *positive = tsr__gx_compare(x, TSR_OP_GT, g, tsr__gx_float(0.0));
    tsr_tensor *negative = tsr__gx_compare(x, TSR_OP_LT, g, tsr__gx_float(0.0));
    tsr_tensor *log_pos =
        positive ? tsr__gx_where(x, positive, tsr_operand_tensor(log_abs), lowest) : NULL;
    tsr_tensor *log_neg =
        negative ? tsr__gx_where(x, negative, tsr_operand_tensor(log_abs), lowest) : NULL;
    tsr_tensor *out_pos = tsr__gx_unary(
        x, TSR_OP_EXP,
        tsr__gx_add(x, reverse_logcumsumexp(x, tsr__gx_sub(x, log_pos, result), a->dim), input));
    tsr_tensor *out_neg = tsr__gx_unary(
        x, TSR_OP_EXP,
        tsr__gx_add(x, reverse_logcumsumexp(x, tsr__gx_sub(x, log_neg, result), a->dim), input));
    return tsr__gx_sub(x, out_pos, out_neg);
}

/* ------------------------------------------------------------------------ */
/* The node                                                                  */
/* ------------------------------------------------------------------------ */

/* cumprod's and logcumsumexp's formulas read the input and the result. */
static bool saves_values(tsr__scan_grad_kind kind)
{
    return kind == TSR__SGRAD_CUMPROD || kind == TSR__SGRAD_LOGCUMSUMEXP;
}

static tsr_tensor *formula(tsr__gx *x, tsr__node *node, const scan_grad_attrs *a,
                           tsr_tensor *const *grads)
{
    bool values = saves_values(a->kind);
    tsr_tensor *input = values ? tsr__gx_saved(x, node, SAVED_INPUT) : NULL;
    tsr_tensor *result = values ? tsr__gx_saved(x, node, SAVED_RESULT) : NULL;
    const tsr_tensor *g = grads[0];
    switch (a->kind) {
    case TSR__SGRAD_CUMSUM:
        return a->ndim == 0 ? tsr__gx_same(x, g) : reverse_cumsum(x, g, a->dim);
    case TSR__SGRAD_CUMPROD:
        /* complex: PyTorch conjugates the partial products, which are
         * those of the conjugated values */
        return cumprod_grad(x, a, tsr__gx_conj(x, input), tsr__gx_conj(x, result), g);
    case TSR__SGRAD_CUMMAXMIN:
        return cummaxmin_grad(x, a, tsr__gx_saved(x, node, SAVED_INDICES), g);
    case TSR__SGRAD_LOGCUMSUMEXP:
        return logcumsumexp_grad(x, a, input, result, g);
    }
    return NULL;
}

static tsr_status scan_backward(tsr__node *node, tsr_tensor *const *grads, tsr_tensor **grad_inputs)
{
    const scan_grad_attrs *a = tsr__node_attrs(node);
    tsr__gx x = {0};
    if (tsr__node_needs_grad(node, 0))
        tsr__gx_result(&x, &grad_inputs[0], formula(&x, node, a, grads));
    return tsr__gx_finish(&x);
}

tsr_status tsr__grad_record_scan(tsr__scan_grad_kind kind, const char *name, const tsr_tensor *t,
                                 int dim, tsr_tensor *out, const tsr_tensor *indices)
{
    tsr__node *node = NULL;
    tsr_status st = tsr__grad_node_start(name, scan_backward, &t, 1, SAVED_COUNT,
                                         sizeof(scan_grad_attrs), out, &node);
    if (!node)
        return st;
    scan_grad_attrs *a = tsr__node_attrs(node);
    a->kind = kind;
    if (kind == TSR__SGRAD_CUMSUM || kind == TSR__SGRAD_CUMPROD)
        tsr__node_allow_complex(node);
    a->ndim = t->ndim;
    a->dim = dim;
    memcpy(a->in_shape, t->shape, (size_t)t->ndim * sizeof *t->shape);
    bool values = saves_values(kind);
    if (values)
        st = tsr__node_save(node, SAVED_INPUT, t, "self");
    if (st == TSR_OK && indices)
        st = tsr__node_save(node, SAVED_INDICES, indices, "indices");
    if (st == TSR_OK)
        st = tsr__node_attach(node, 0, out);
    if (st == TSR_OK && values)
        st = tsr__node_save_output(node, SAVED_RESULT, out, 0);
    tsr__node_release(node);
    return st;
}
